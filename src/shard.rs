//! Splitting one large job between N processes or machines: `--shard I/N` (1-based)
//! takes the I-th of N contiguous, near-equal blocks of the job's items, so the
//! shards' outputs, concatenated in order 1..N, are the unsharded output.

use std::fmt;
use std::ops::Range;
use std::str::FromStr;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// 1-based.
    pub index: usize,
    pub count: usize,
}

impl Shard {
    /// The items of this shard among `len`.
    pub fn range(&self, len: usize) -> Range<usize> {
        let bound = |i: usize| (len as u128 * i as u128 / self.count as u128) as usize;
        bound(self.index - 1)..bound(self.index)
    }

    /// This shard's items.
    pub fn select<T>(&self, items: Vec<T>) -> Vec<T> {
        let range = self.range(items.len());
        items
            .into_iter()
            .enumerate()
            .filter(|(i, _)| range.contains(i))
            .map(|(_, item)| item)
            .collect()
    }
}

impl FromStr for Shard {
    type Err = String;

    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("`{s}` is not a shard: expected I/N with 1 <= I <= N (e.g. 2/8)");
        let (i, n) = s.trim().split_once('/').ok_or_else(bad)?;
        let index: usize = i.trim().parse().map_err(|_| bad())?;
        let count: usize = n.trim().parse().map_err(|_| bad())?;
        if count == 0 || index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_partition_in_order() {
        for len in [0usize, 1, 5, 7, 100] {
            for count in 1..=6 {
                let mut all = Vec::new();
                for index in 1..=count {
                    all.extend(Shard { index, count }.select((0..len).collect()));
                }
                assert_eq!(
                    all,
                    (0..len).collect::<Vec<_>>(),
                    "len {len}, {count} shards"
                );
            }
        }
    }

    #[test]
    fn parse_and_errors() {
        assert_eq!("2/8".parse::<Shard>(), Ok(Shard { index: 2, count: 8 }));
        assert_eq!("2/8".parse::<Shard>().unwrap().to_string(), "2/8");
        for bad in ["0/3", "4/3", "1/0", "x/2", "3"] {
            assert!(bad.parse::<Shard>().unwrap_err().contains(bad));
        }
    }
}
