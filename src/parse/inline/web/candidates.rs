//! Where a URL or identifier match may start: the offsets [`super::find`] tries
//! the pattern at, found from the rare bytes every match holds near its start.

use std::sync::LazyLock;

/// Longest stretch from the start of a DOI match to the `/` after its prefix:
/// `doi:` and a (Unicode) space, `10.` and nine (Unicode) digits.
const DOI_HEAD: usize = 4 + 4 + 3 + 9 * 4;

/// Call `try_at` with every byte offset where a [`WEB_PATTERN`](super::WEB_PATTERN) match may start, in
/// increasing order. Each match holds a rare byte near its start: a URL the `:` of
/// `://` (after `http`, `https` or `httpſ`, which `(?i)` also reads as `https`), an
/// arXiv id the `:` after `arxiv`, a DOI the `/` after its digits; a PubMed id
/// starts with `pm` in any case.
pub(super) fn candidates(bytes: &[u8], mut try_at: impl FnMut(usize)) {
    let is_word = |i: usize| bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_';
    let word_start = |i: usize| i == 0 || !is_word(i - 1);
    // The last offset passed on, so that windows that overlap pass none twice.
    let mut next = 0;
    let mut emit = |from: usize, to: usize, first: First| {
        let from = from.max(next);
        let window = bytes.get(from..to).unwrap_or_default();
        for (k, &b) in window.iter().enumerate() {
            if first.allows(b) && word_start(from + k) {
                try_at(from + k);
                next = from + k + 1;
            }
        }
    };
    let mut hit = |at: usize| match bytes[at] {
        b':' if bytes[at + 1..].starts_with(b"//") => emit(at.saturating_sub(6), at, First::Http),
        b':' if at >= 5 && bytes[at - 5..at].eq_ignore_ascii_case(b"arxiv") => {
            emit(at - 5, at - 4, First::Any);
        }
        b'/' if at > 0 && (bytes[at - 1].is_ascii_digit() || !bytes[at - 1].is_ascii()) => {
            // `10.` comes right before ASCII digits; only Unicode digits (non-ASCII
            // bytes) before them leave the whole stretch to look at.
            let digits = bytes[..at]
                .iter()
                .rev()
                .take_while(|b| b.is_ascii_digit())
                .count();
            let lead = at - digits;
            match lead.checked_sub(3).map(|ten| (ten, &bytes[ten..lead])) {
                Some((ten, b"10.")) => emit(ten.saturating_sub(DOI_LABEL), ten + 1, First::Doi),
                _ if lead > 0 && !bytes[lead - 1].is_ascii() => {
                    emit(at.saturating_sub(DOI_HEAD), at, First::Doi);
                }
                _ => {}
            }
        }
        b'p' | b'P' => emit(at, at + 1, First::Any),
        _ => {}
    };
    if bytes.len() < SHORT {
        short_hits(bytes).for_each(&mut hit);
    } else {
        long_hits(bytes).for_each(hit);
    }
}

/// The longest `doi:` label before a DOI's `10.`: `doi`, `:` and a (Unicode) space.
const DOI_LABEL: usize = 4 + 3;

/// Which bytes may start a match in a window.
#[derive(Clone, Copy)]
enum First {
    Any,
    /// `http`
    Http,
    /// `10.` or `doi`
    Doi,
}

impl First {
    fn allows(self, b: u8) -> bool {
        match self {
            First::Any => true,
            First::Http => b | 0x20 == b'h',
            First::Doi => matches!(b, b'1' | b'd' | b'D'),
        }
    }
}

/// Runs shorter than this are read byte by byte: most runs of prose are short (the
/// text between two links or emphases), and setting up the vector searches for
/// them would cost more than reading them.
const SHORT: usize = 64;

/// The offsets of `:`, `/` and of `pm` in any case, in increasing order.
pub(super) fn short_hits(bytes: &[u8]) -> impl Iterator<Item = usize> {
    bytes.iter().enumerate().filter_map(|(i, &b)| {
        let pubmed = b | 0x20 == b'p' && bytes.get(i + 1).is_some_and(|&m| m | 0x20 == b'm');
        (b == b':' || b == b'/' || pubmed).then_some(i)
    })
}

/// What [`short_hits`] finds, with vector searches: `:` and `/`, and `pm` in any case.
pub(super) fn long_hits(bytes: &[u8]) -> impl Iterator<Item = usize> {
    merge(
        memchr::memchr2_iter(b':', b'/', bytes),
        pubmed_starts(bytes),
    )
}

/// Where `pm` starts in any case, in increasing order. `p` and `m` are common
/// letters and `pm` a rare pair: finding `P`, `M` and the pair `pm` costs far less
/// than stopping at every `p`. Both searches yield increasing offsets (an `M` stands
/// for the byte before it, which no earlier `P` or `M` passes), so they merge without
/// a buffer; `PM` is found by both its letters, hence the dedup.
fn pubmed_starts(bytes: &[u8]) -> impl Iterator<Item = usize> {
    static LOWER: LazyLock<memchr::memmem::Finder<'static>> =
        LazyLock::new(|| memchr::memmem::Finder::new(b"pm"));
    let capitals = memchr::memchr2_iter(b'P', b'M', bytes).filter_map(|at| {
        let start = if bytes[at] == b'P' {
            at
        } else {
            at.checked_sub(1)?
        };
        bytes
            .get(start..start + 2)
            .is_some_and(|pair| pair.eq_ignore_ascii_case(b"pm"))
            .then_some(start)
    });
    let mut last = None;
    merge(LOWER.find_iter(bytes), capitals).filter(move |&at| {
        let new = last != Some(at);
        last = Some(at);
        new
    })
}

/// Two increasing sequences as one.
fn merge(
    a: impl Iterator<Item = usize>,
    b: impl Iterator<Item = usize>,
) -> impl Iterator<Item = usize> {
    let (mut a, mut b) = (a.peekable(), b.peekable());
    std::iter::from_fn(move || match (a.peek(), b.peek()) {
        (Some(&x), Some(&y)) if y < x => b.next(),
        (Some(_), _) => a.next(),
        (None, _) => b.next(),
    })
}
