//! Where a URL or identifier match may start: the offsets [`super::find`] tries
//! the pattern at, found from the rare bytes every match holds near its start.

/// Longest stretch from the start of a DOI match to the `/` after its prefix:
/// `doi:` and a (Unicode) space, `10.` and nine (Unicode) digits.
const DOI_HEAD: usize = 4 + 4 + 3 + 9 * 4;

/// Call `try_at` with every byte offset where a [`WEB_PATTERN`](super::WEB_PATTERN) match may start, in
/// increasing order. Each match holds a rare byte near its start: a URL the `:` of
/// `://` (after `http`, `https` or `httpſ`, which `(?i)` also reads as `https`), an
/// arXiv id the `:` after `arxiv`, a DOI the `/` after its digits; a PubMed id
/// starts with `pm` in any case. `hits` holds the offsets of those bytes (and of
/// others, which are passed over), in increasing order, as `inline::hits` finds them.
pub(super) fn candidates(bytes: &[u8], hits: &[usize], mut try_at: impl FnMut(usize)) {
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
    for &at in hits {
        match bytes[at] {
            b':' if bytes[at + 1..].starts_with(b"//") => {
                emit(at.saturating_sub(6), at, First::Http);
            }
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
                    Some((ten, b"10.")) => {
                        emit(ten.saturating_sub(DOI_LABEL), ten + 1, First::Doi);
                    }
                    _ if lead > 0 && !bytes[lead - 1].is_ascii() => {
                        emit(at.saturating_sub(DOI_HEAD), at, First::Doi);
                    }
                    _ => {}
                }
            }
            // Only a `p` that starts `pm` is a hit.
            b'p' | b'P' => emit(at, at + 1, First::Any),
            _ => {}
        }
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
