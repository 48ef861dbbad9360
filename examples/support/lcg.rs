//! A small deterministic generator for the examples that write synthetic inputs (no
//! dependency, the same output on every run).

pub struct Lcg(pub u64);

impl Lcg {
    /// The next number in `0..n` (`n` > 0).
    pub fn next(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n
    }
}
