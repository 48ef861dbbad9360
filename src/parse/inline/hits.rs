//! The bytes of a run of prose where the scanner has something to look at: the
//! `[`, `@` and `(` that may open a citation construct, and the rare bytes that
//! every URL or identifier holds near its start (see `web::candidates`): `:`, `/`
//! and `pm` in any case.
//!
//! They are found in one pass over the run, sixteen bytes at a time: the compiler
//! turns the per-lane tests into vector compares. Separate searches for each set
//! of bytes cost more, most of it in starting each search again after every hit.

/// Bytes tested at once; a lane also reads the byte after it (for `pm`).
const LANES: usize = 16;

/// Windows of [`LANES`] bytes tested together before looking for their hits: most
/// stretches of prose hold none, and one test for four windows costs less than four.
const WINDOWS: usize = 4;

/// Append to `out` the offset of every `[`, `@`, `(`, `:` and `/` in `bytes` and of
/// every `pm` in any case (the offset of its `p`), in increasing order.
pub(super) fn find(bytes: &[u8], out: &mut Vec<usize>) {
    let mut at = 0;
    while let Some(block) = bytes.get(at..at + WINDOWS * LANES + 1) {
        let flags: [u128; WINDOWS] = std::array::from_fn(|k| lanes(window(block, k * LANES)));
        if flags.iter().fold(0, |any, f| any | f) != 0 {
            for (k, flags) in flags.into_iter().enumerate() {
                push_lanes(flags, at + k * LANES, out);
            }
        }
        at += WINDOWS * LANES;
    }
    while let Some(rest) = bytes.get(at..at + LANES + 1) {
        push_lanes(lanes(window(rest, 0)), at, out);
        at += LANES;
    }
    // Fewer than LANES bytes are left. Their window, padded with a zero byte (no hit
    // and no `m`), is the text's last LANES bytes when there are so many: a copy of
    // fixed length, where a padded copy of the rest would call `memcpy`; the lanes
    // already read are cleared.
    let Some(start) = bytes.len().checked_sub(LANES) else {
        let mut padded = [0u8; LANES + 1];
        padded[..bytes.len()].copy_from_slice(bytes);
        push_lanes(lanes(&padded), 0, out);
        return;
    };
    if at < bytes.len() {
        let mut last = [0u8; LANES + 1];
        last[..LANES].copy_from_slice(&bytes[start..]);
        let seen = (at - start) * 8;
        push_lanes(lanes(&last) & (u128::MAX << seen), start, out);
    }
}

/// The window of [`LANES`] bytes (and the one after) at `at` of `bytes`.
fn window(bytes: &[u8], at: usize) -> &[u8; LANES + 1] {
    bytes[at..at + LANES + 1].try_into().expect("window length")
}

/// One byte per lane, 1 where the lane's byte is a hit: the same test for every
/// lane, without branches, so that it compiles to vector compares.
fn lanes(window: &[u8; LANES + 1]) -> u128 {
    let mut flags = [0u8; LANES];
    for (k, flag) in flags.iter_mut().enumerate() {
        *flag = u8::from(is_hit(window[k], window[k + 1]));
    }
    u128::from_le_bytes(flags)
}

/// Whether `b`, followed by `next`, is a hit. Non-short-circuit operators keep the
/// test free of branches.
#[inline(always)]
fn is_hit(b: u8, next: u8) -> bool {
    let pubmed = ((b | 0x20) == b'p') & ((next | 0x20) == b'm');
    (b == b'[') | (b == b'@') | (b == b'(') | (b == b':') | (b == b'/') | pubmed
}

fn push_lanes(mut flags: u128, at: usize, out: &mut Vec<usize>) {
    while flags != 0 {
        out.push(at + flags.trailing_zeros() as usize / 8);
        // Each flag is the lowest bit of its lane: this clears the first one.
        flags &= flags - 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The hits read one byte at a time, by the plainest test.
    fn byte_by_byte(bytes: &[u8]) -> Vec<usize> {
        (0..bytes.len())
            .filter(|&i| {
                let pubmed = bytes[i..].len() >= 2 && bytes[i..i + 2].eq_ignore_ascii_case(b"pm");
                matches!(bytes[i], b'[' | b'@' | b'(' | b':' | b'/') || pubmed
            })
            .collect()
    }

    #[test]
    fn every_kind_of_hit_is_found() {
        let text = b"a [b] @c (d) e:f/g pm PM pM Pm p m P\nM";
        let mut hits = Vec::new();
        find(text, &mut hits);
        let found: Vec<&str> = hits
            .iter()
            .map(|&i| std::str::from_utf8(&text[i..i + 1]).unwrap())
            .collect();
        assert_eq!(found, ["[", "@", "(", ":", "/", "p", "P", "p", "P"]);
    }

    proptest::proptest! {
        #![proptest_config(crate::proptest_config::config(256))]
        /// Reading sixteen bytes at a time finds what reading one at a time finds,
        /// across the borders of the windows and at the end of the text.
        #[test]
        fn windows_find_what_single_bytes_find(bytes in proptest::collection::vec(
            proptest::sample::select(&b"[@(:/pmPMx]) \n\xc3\xa9"[..]), 0..200)) {
            let mut hits = Vec::new();
            find(&bytes, &mut hits);
            proptest::prop_assert_eq!(hits, byte_by_byte(&bytes));
        }
    }
}
