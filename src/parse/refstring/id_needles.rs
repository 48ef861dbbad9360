//! The needles that tell [`extract`](super::identifiers::extract) which identifier
//! regexes may find something in a reference, all found in one pass over its bytes
//! (one search per needle went over the text some twenty times).

/// `://`
pub(super) const SCHEME: u32 = 1 << 0;
/// `www.` in any case.
pub(super) const WWW: u32 = 1 << 1;
/// `10.`
pub(super) const TEN_DOT: u32 = 1 << 2;
/// `xiv`, `Xiv` or `XIV`.
pub(super) const XIV: u32 = 1 << 3;
/// `arxiv` in any case.
pub(super) const ARXIV: u32 = 1 << 4;
/// `/`
pub(super) const SLASH: u32 = 1 << 5;
/// `PM`, `Pub` or `pm`.
pub(super) const PM: u32 = 1 << 6;
/// `pmid` or `pubmed` in any case.
pub(super) const PUBMED: u32 = 1 << 7;
/// `pmc` in any case.
pub(super) const PMC: u32 = 1 << 8;
/// `ISBN` or `isbn`.
pub(super) const ISBN: u32 = 1 << 9;
/// `[`
pub(super) const BRACKET: u32 = 1 << 10;
/// `(`
pub(super) const PAREN: u32 = 1 << 11;
/// One of the words of the noise labels that need no bracket, in any case:
/// `retriev`, `access`, `availab`, `viewed`, `consult`, `url`, `online`, `epub`, `arxiv`.
pub(super) const NOISE_WORD: u32 = 1 << 12;
/// `preprint` in any case.
pub(super) const PREPRINT: u32 = 1 << 13;
/// A bracketed noise label: `[` and one of its words with the closing `]`, in any case.
pub(super) const BRACKET_LABEL: u32 = 1 << 14;

/// The words of the bracketed noise labels (`[Online]`, `[PubMed]`), with their `]`.
const BRACKET_LABELS: [&[u8]; 12] = [
    b"online]",
    b"internet]",
    b"pubmed]",
    b"google scholar]",
    b"crossref]",
    b"cross ref]",
    b"pmc free article]",
    b"ref list]",
    b"medline]",
    b"web of science]",
    b"scopus]",
    b"abstract]",
];

/// The needles `text` holds, one bit each.
pub(super) fn needles(text: &str) -> u32 {
    let b = text.as_bytes();
    let mut seen = 0;
    for (i, &c) in b.iter().enumerate() {
        if !PROBE[usize::from(c)] {
            continue;
        }
        // The eight bytes from `off` bytes before `i` (none before the text's start).
        let at = |off: usize| i.checked_sub(off).map_or(0, |from| word_at(b, from));
        // Each needle is found by one of its rarer bytes.
        seen |= match c.to_ascii_lowercase() {
            b':' => bit(const { exact(b"://") }.at(at(0)), SCHEME),
            b'/' => SLASH,
            b'(' => PAREN,
            b'[' => {
                let label = BRACKET_LABELS.iter().any(|l| folded(&b[i + 1..], l));
                BRACKET | bit(label, BRACKET_LABEL)
            }
            b'1' => bit(const { exact(b"10.") }.at(at(0)), TEN_DOT),
            b'x' => {
                let w = at(0);
                let xiv = [exact(b"xiv"), exact(b"Xiv"), exact(b"XIV")];
                bit(xiv.iter().any(|p| p.at(w)), XIV)
                    | bit(const { any_case(b"arxiv") }.at(at(2)), ARXIV | NOISE_WORD)
            }
            b'w' => bit(const { any_case(b"www.") }.at(at(0)), WWW),
            b'p' => {
                let w = at(0);
                let pm = [exact(b"PM"), exact(b"Pub"), exact(b"pm")];
                let pubmed = [any_case(b"pmid"), any_case(b"pubmed")];
                bit(pm.iter().any(|p| p.at(w)), PM)
                    | bit(pubmed.iter().any(|p| p.at(w)), PUBMED)
                    | bit(const { any_case(b"pmc") }.at(w), PMC)
                    | bit(const { any_case(b"preprint") }.at(w), PREPRINT)
                    | bit(const { any_case(b"epub") }.at(at(1)), NOISE_WORD)
            }
            b'b' => {
                let w = at(2);
                bit(exact(b"ISBN").at(w) || exact(b"isbn").at(w), ISBN)
            }
            b'v' => {
                let words = [
                    (const { any_case(b"retriev") }, 6),
                    (const { any_case(b"availab") }, 1),
                    (const { any_case(b"viewed") }, 0),
                ];
                bit(words.iter().any(|&(p, off)| p.at(at(off))), NOISE_WORD)
            }
            b'c' => {
                let noise = const { any_case(b"access") }.at(at(1))
                    || const { any_case(b"consult") }.at(at(0));
                bit(noise, NOISE_WORD)
            }
            b'u' => bit(const { any_case(b"url") }.at(at(0)), NOISE_WORD),
            b'l' => bit(const { any_case(b"online") }.at(at(2)), NOISE_WORD),
            _ => 0,
        };
    }
    seen
}

/// The bytes by which [`needles`] finds its needles.
static PROBE: [bool; 256] = crate::parse::byte_set(b":/([1xXwWpPbBvVcCuUlL");

fn bit(set: bool, bit: u32) -> u32 {
    if set { bit } else { 0 }
}

/// The eight bytes from `i` on (zeros past the end), the first one lowest.
#[inline(always)]
fn word_at(b: &[u8], i: usize) -> u64 {
    let mut buf = [0u8; 8];
    match b.get(i..i + 8) {
        Some(w) => buf.copy_from_slice(w),
        None => {
            let rest = &b[i..];
            buf[..rest.len()].copy_from_slice(rest);
        }
    }
    u64::from_le_bytes(buf)
}

/// A needle of one to eight bytes, none of them zero, to compare with a
/// [`word_at`]: its bytes, which bytes of the word to compare, and the case bit of
/// the letters whose case does not count.
#[derive(Clone, Copy)]
struct Pattern {
    value: u64,
    mask: u64,
    fold: u64,
}

impl Pattern {
    /// Whether the word starts with the needle. `b | 0x20` is a lowercase letter
    /// only for that letter and its capital.
    #[inline(always)]
    fn at(self, word: u64) -> bool {
        (word | self.fold) & self.mask == self.value
    }
}

const fn pattern(needle: &[u8], ignore_case: bool) -> Pattern {
    assert!(!needle.is_empty() && needle.len() <= 8);
    let (mut value, mut mask, mut fold) = (0, 0, 0);
    let mut k = 0;
    while k < needle.len() {
        let shift = 8 * k;
        value |= (needle[k] as u64) << shift;
        mask |= 0xFF << shift;
        if ignore_case && needle[k].is_ascii_lowercase() {
            fold |= 0x20 << shift;
        }
        k += 1;
    }
    Pattern { value, mask, fold }
}

const fn exact(needle: &[u8]) -> Pattern {
    pattern(needle, false)
}

/// A lowercase needle in any case.
const fn any_case(needle: &[u8]) -> Pattern {
    pattern(needle, true)
}

/// Whether `rest` starts with `needle` (lowercase), ignoring ASCII case.
fn folded(rest: &[u8], needle: &[u8]) -> bool {
    rest.get(..needle.len())
        .is_some_and(|w| w.eq_ignore_ascii_case(needle))
}

#[cfg(test)]
mod tests {
    use super::super::test_support::any_text;
    use super::*;
    use proptest::prelude::*;

    /// Each needle as `str::contains` tests it.
    fn by_contains(s: &str) -> u32 {
        let lower = s.to_ascii_lowercase();
        let any = |hay: &str, words: &[&str]| words.iter().any(|w| hay.contains(w));
        let checks = [
            (any(s, &["://"]), SCHEME),
            (any(&lower, &["www."]), WWW),
            (any(s, &["10."]), TEN_DOT),
            (any(s, &["xiv", "Xiv", "XIV"]), XIV),
            (any(&lower, &["arxiv"]), ARXIV),
            (any(s, &["/"]), SLASH),
            (any(s, &["PM", "Pub", "pm"]), PM),
            (any(&lower, &["pmid", "pubmed"]), PUBMED),
            (any(&lower, &["pmc"]), PMC),
            (any(s, &["ISBN", "isbn"]), ISBN),
            (any(s, &["["]), BRACKET),
            (any(s, &["("]), PAREN),
            (
                any(
                    &lower,
                    &[
                        "retriev", "access", "availab", "viewed", "consult", "url", "online",
                        "epub", "arxiv",
                    ],
                ),
                NOISE_WORD,
            ),
            (any(&lower, &["preprint"]), PREPRINT),
        ];
        let labels = BRACKET_LABELS
            .iter()
            .any(|l| lower.contains(&format!("[{}", std::str::from_utf8(l).unwrap())));
        checks
            .iter()
            .fold(bit(labels, BRACKET_LABEL), |acc, &(set, b)| {
                acc | bit(set, b)
            })
    }

    /// The needles and their neighbours, in mixed case.
    fn needle_like() -> impl Strategy<Value = String> {
        const WORDS: &[&str] = &[
            "://",
            "www.",
            "10.",
            "xiv",
            "arxiv",
            "/",
            "pm",
            "pub",
            "pmid",
            "pubmed",
            "pmc",
            "isbn",
            "[",
            "(",
            "retriev",
            "access",
            "availab",
            "viewed",
            "consult",
            "url",
            "online",
            "epub",
            "preprint",
            "[online]",
            "[internet]",
            "[google scholar]",
            "[cross ref]",
            "[pmc free article]",
            "[web of science]",
            "[abstract]",
            "]",
            " ",
            "a",
            "w",
            "1",
            ".",
            ":",
            "p",
        ];
        prop::collection::vec((prop::sample::select(WORDS), any::<u32>()), 0..10).prop_map(|v| {
            v.iter()
                .flat_map(|(w, case)| {
                    w.chars().enumerate().map(move |(k, c)| {
                        if case >> (k % 32) & 1 == 1 {
                            c.to_ascii_uppercase()
                        } else {
                            c
                        }
                    })
                })
                .collect()
        })
    }

    proptest! {
        #![proptest_config(crate::proptest_config::config(3000))]

        #[test]
        fn one_pass_finds_what_contains_finds(s in prop_oneof![any_text(), needle_like()]) {
            prop_assert_eq!(needles(&s), by_contains(&s));
        }
    }

    #[test]
    fn needles_of_a_reference() {
        let n = needles("Lee (2020). [Online]. Retrieved from https://doi.org/10.1/x PMID: 1");
        for b in [
            PAREN,
            BRACKET,
            BRACKET_LABEL,
            NOISE_WORD,
            SCHEME,
            TEN_DOT,
            SLASH,
            PM,
            PUBMED,
        ] {
            assert_ne!(n & b, 0, "{b}");
        }
        for b in [WWW, XIV, ARXIV, PMC, ISBN, PREPRINT] {
            assert_eq!(n & b, 0, "{b}");
        }
    }
}
