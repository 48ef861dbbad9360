//! URLs and bare identifiers in running text, and which URLs cite a work: DOI,
//! arXiv, PubMed and PMC links, and article pages of scholarly publishers.

use std::cell::RefCell;
use std::sync::LazyLock;

use regex_automata::{Anchored, Input, hybrid, meta};

use super::{Item, Syntax};
use crate::model::{CitationKind, IdScheme, Span};
use crate::parse::ids;
use candidates::candidates;
use heads::{Head, open_head};
pub use tail::trim_url;
use tail::{Tail, read_tail, tail_end, without_trailing_punctuation};

mod candidates;
mod heads;
mod tail;

/// The pattern of URLs and bare identifiers. It is only tried where one can start
/// (see [`candidates`]), anchored there: an unanchored search over every run of
/// prose cost more than the rest of the citation scan.
const WEB_PATTERN: &str = r#"(?xi)
    # ASCII word boundaries keep the fast DFA on non-ASCII text.
    (?-u:\b)https?://[^\s<>"`]+
    |(?-u:\b)(?:doi:?\s?)?10\.\d{4,9}/[^\s"<>`]+
    |(?-u:\b)arxiv:\s?(?:\d{4}\.\d{4,5}|[a-z\-]+(?:\.[a-z]{2})?/\d{7})(?:v\d+)?
    |(?-u:\b)PMID:?\s?\d{1,9}(?-u:\b)
    |(?-u:\b)PMC\d{4,9}(?-u:\b)
    "#;

/// The pattern as a lazy DFA run forwards from a known start: it only has to find
/// where the match ends, with none of the general regex's set-up per search.
static WEB_DFA: LazyLock<hybrid::dfa::DFA> =
    LazyLock::new(|| hybrid::dfa::DFA::new(WEB_PATTERN).expect("web regex"));

/// The general regex, for the rare search the lazy DFA gives up on.
static WEB: LazyLock<meta::Regex> =
    LazyLock::new(|| meta::Regex::new(WEB_PATTERN).expect("web regex"));

thread_local! {
    static WEB_CACHE: RefCell<hybrid::dfa::Cache> = RefCell::new(WEB_DFA.create_cache());
}

/// A match of [`WEB_PATTERN`] at a known start.
#[derive(Debug, PartialEq, Eq)]
struct Matched {
    kind: WebKind,
    /// Where the match ends.
    end: usize,
    /// Where its zone ends: URLs and DOIs lose what trails them in prose (see
    /// [`trim_url`]), the rest match exactly.
    zone_end: usize,
}

/// The [`WEB_PATTERN`] match that starts at `start`, if one does.
fn match_at(text: &str, start: usize) -> Option<Matched> {
    match open_head(text.as_bytes(), start) {
        Head::Tail { from, kind } => {
            let Tail { end, cut } = read_tail(text, from);
            // The head ends in `/` and holds no bracket: trimming the tail alone
            // trims the match.
            let zone_end = from + without_trailing_punctuation(&text[from..cut]).len();
            (end > from).then_some(Matched {
                kind,
                end,
                zone_end,
            })
        }
        Head::NoMatch => None,
        Head::Unsure => {
            let end = dfa_match_end(text, start)?;
            let found = &text[start..end];
            let kind = kind_of(found);
            let len = match kind {
                WebKind::Url | WebKind::Doi => trim_url(found).len(),
                _ => found.len(),
            };
            Some(Matched {
                kind,
                end,
                zone_end: start + len,
            })
        }
    }
}

/// The end of the match that starts at `start`, by the lazy DFA.
fn dfa_match_end(text: &str, start: usize) -> Option<usize> {
    // A URL (`h…`) or a DOI (`d…`, `1…`) ends in a run of anything but spaces,
    // quotes, angle brackets and backticks: the DFA only reads up to the first
    // byte of that run, and the rest is read here, by a simpler loop.
    let open_tail = matches!(text.as_bytes()[start] | 0x20, b'h' | b'd' | b'1');
    let input = Input::new(text)
        .range(start..)
        .anchored(Anchored::Yes)
        .earliest(open_tail);
    let fast = WEB_CACHE.with_borrow_mut(|cache| WEB_DFA.try_search_fwd(cache, &input));
    match fast {
        Ok(Some(m)) if open_tail => Some(tail_end(text, m.offset())),
        Ok(found) => found.map(|m| m.offset()),
        Err(_) => WEB.search(&input.earliest(false)).map(|m| m.end()),
    }
}

/// What a [`WebMatch`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WebKind {
    Url,
    Doi,
    Arxiv,
    Pmid,
    Pmcid,
}

/// One URL or identifier: the bytes it occupies, where `@`, `[` and `(` are not
/// citation syntax. The citation it makes is only worked out by [`item`], for the
/// matches that no bracket or parenthetical covers.
#[derive(Debug, Clone)]
pub struct WebMatch {
    pub zone: Span,
    pub kind: WebKind,
}

/// Every URL and identifier in `text` (spans relative to `text`): the matches of
/// [`WEB_PATTERN`] that a leftmost, non-overlapping search finds.
pub fn find(text: &str) -> Vec<WebMatch> {
    let mut hits = Vec::new();
    super::hits::find(text.as_bytes(), &mut hits);
    let mut out = Vec::new();
    find_at(text, &hits, &mut out);
    out
}

/// [`find`], with the run's hits (see `inline::hits`) already found; the matches
/// are appended to `out`.
pub(super) fn find_at(text: &str, hits: &[usize], out: &mut Vec<WebMatch>) {
    let mut pos = 0;
    candidates(text.as_bytes(), hits, |start| {
        if start < pos {
            return;
        }
        if let Some(m) = match_at(text, start) {
            out.push(WebMatch {
                zone: Span::new(start, m.zone_end),
                kind: m.kind,
            });
            pos = m.end;
        }
    });
}

fn kind_of(found: &str) -> WebKind {
    let mut head = [0u8; 5];
    for (h, b) in head.iter_mut().zip(found.bytes()) {
        *h = b.to_ascii_lowercase();
    }
    match &head {
        [b'h', b't', b't', b'p', _] => WebKind::Url,
        [b'd', b'o', b'i', ..] | [b'1', b'0', b'.', ..] => WebKind::Doi,
        [b'a', b'r', b'x', b'i', b'v'] => WebKind::Arxiv,
        [b'p', b'm', b'i', b'd', _] => WebKind::Pmid,
        _ => WebKind::Pmcid,
    }
}

/// The citation a match makes under `syntax`: identifiers always (when
/// `syntax.identifiers`), URLs when they cite a work or when `syntax.all_urls`.
pub fn item(text: &str, m: &WebMatch, syntax: Syntax) -> Option<Item> {
    let written = &text[m.zone.start..m.zone.end];
    if m.kind == WebKind::Url {
        let id = if syntax.all_urls {
            Some(citable_url(written).unwrap_or((IdScheme::Url, written.to_string())))
        } else if syntax.identifiers {
            citable_url(written)
        } else {
            None
        };
        return id.map(|id| web_item(written, m.zone, id, "url"));
    }
    if !syntax.identifiers {
        return None;
    }
    let (len, id) = match m.kind {
        WebKind::Doi => {
            let (span, doi) = ids::find_dois(written).into_iter().next()?;
            (span.end, (IdScheme::Doi, doi))
        }
        WebKind::Arxiv => (
            written.len(),
            (IdScheme::Arxiv, ids::normalize_arxiv(written)?),
        ),
        WebKind::Pmid => {
            let digits = written.trim_start_matches(|c: char| !c.is_ascii_digit());
            (
                written.len(),
                (IdScheme::Pmid, ids::normalize_pmid(digits)?),
            )
        }
        WebKind::Pmcid | WebKind::Url => (
            written.len(),
            (IdScheme::Pmcid, ids::normalize_pmcid(written)?),
        ),
    };
    let span = Span::new(m.zone.start, m.zone.start + len);
    Some(web_item(&written[..len], span, id, "bare"))
}

fn web_item(written: &str, span: Span, id: (IdScheme, String), command: &'static str) -> Item {
    Item {
        key: written.to_string(),
        kind: CitationKind::Identifier,
        span,
        id: Some(id),
        narrative: false,
        command,
    }
}

/// Hosts whose pages are scholarly works (publishers, preprint servers, indexes).
const SCHOLARLY_HOSTS: &[&str] = &[
    "nature.com",
    "science.org",
    "sciencemag.org",
    "cell.com",
    "thelancet.com",
    "nejm.org",
    "bmj.com",
    "jamanetwork.com",
    "pnas.org",
    "plos.org",
    "sciencedirect.com",
    "springer.com",
    "biomedcentral.com",
    "wiley.com",
    "tandfonline.com",
    "sagepub.com",
    "oup.com",
    "cambridge.org",
    "frontiersin.org",
    "mdpi.com",
    "elifesciences.org",
    "biorxiv.org",
    "medrxiv.org",
    "arxiv.org",
    "ssrn.com",
    "researchgate.net",
    "semanticscholar.org",
    "ieee.org",
    "acm.org",
    "aclanthology.org",
    "aclweb.org",
    "openreview.net",
    "neurips.cc",
    "nips.cc",
    "mlr.press",
    "jmlr.org",
    "jstor.org",
    "annualreviews.org",
    "iop.org",
    "aps.org",
    "acs.org",
    "rsc.org",
    "royalsocietypublishing.org",
    "karger.com",
    "hindawi.com",
    "peerj.com",
    "f1000research.com",
    "europepmc.org",
    "nih.gov",
    "cochranelibrary.com",
    "degruyter.com",
    "emerald.com",
    "elsevier.com",
    "apa.org",
    "ahajournals.org",
    "ashpublications.org",
    "aacrjournals.org",
    "jneurosci.org",
    "physiology.org",
    "asm.org",
    "biologists.com",
    "embopress.org",
    "rupress.org",
    "genome.org",
    "cshlp.org",
    "scielo.org",
    "osf.io",
    "zenodo.org",
    "hal.science",
    "jbc.org",
    "lww.com",
    "liebertpub.com",
    "aaai.org",
    "ijcai.org",
    "usenix.org",
    "thecvf.com",
    "ecva.net",
    "biorxiv.org",
    "chemrxiv.org",
    "psyarxiv.com",
];

/// The identifier a URL cites: DOI/arXiv/PubMed/PMC links as such, a DOI written
/// in a publisher's article path (`…/doi/10.1002/x`, `…/articles/10.3389/x/full`),
/// other pages of scholarly hosts as URLs. `None` for other web pages.
pub fn citable_url(url: &str) -> Option<(IdScheme, String)> {
    if let Some(id) = ids::identifier_from_url(url) {
        return Some(id);
    }
    let lower = url.to_ascii_lowercase();
    let rest = lower
        .strip_prefix("https://")
        .or_else(|| lower.strip_prefix("http://"))?;
    let host = rest.split(['/', '?', '#']).next()?;
    let host = host.split(':').next()?;
    let scholarly = SCHOLARLY_HOSTS.iter().any(|h| {
        host == *h || (host.ends_with(h) && host.as_bytes()[host.len() - h.len() - 1] == b'.')
    });
    if !scholarly {
        return None;
    }
    if let Some(doi) = doi_in_path(url) {
        return Some((IdScheme::Doi, doi));
    }
    Some((IdScheme::Url, url.to_string()))
}

/// A DOI inside a publisher URL's path, without the page suffix after it.
fn doi_in_path(url: &str) -> Option<String> {
    let path = url.split(['?', '#']).next()?;
    let (_, doi) = ids::find_dois(path).into_iter().next()?;
    let mut doi = doi.as_str();
    for suffix in [
        "/full",
        "/abstract",
        "/pdf",
        "/epdf",
        "/fulltext",
        "/html",
        "/meta",
        "/summary",
        "/figures",
        "/references",
        "/full.pdf",
        "/supplemental",
    ] {
        if let Some(stripped) = doi.strip_suffix(suffix) {
            doi = stripped;
        }
    }
    ids::normalize_doi(doi)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn publisher_pages_carry_dois() {
        assert_eq!(
            citable_url("https://www.frontiersin.org/articles/10.3389/fpsyg.2019.00422/full"),
            Some((IdScheme::Doi, "10.3389/fpsyg.2019.00422".into()))
        );
        assert_eq!(
            citable_url("https://onlinelibrary.wiley.com/doi/10.1002/jcc.24764"),
            Some((IdScheme::Doi, "10.1002/jcc.24764".into()))
        );
        assert_eq!(
            citable_url("https://www.nature.com/articles/nature14539"),
            Some((
                IdScheme::Url,
                "https://www.nature.com/articles/nature14539".into()
            ))
        );
        assert_eq!(
            citable_url("https://github.com/greenelab/deep-review"),
            None
        );
        assert_eq!(citable_url("https://notnature.com/x"), None);
    }

    #[test]
    fn lowercase_pubmed_identifiers_are_found_without_other_triggers() {
        let kinds = |text: &str| find(text).iter().map(|m| m.kind).collect::<Vec<_>>();
        assert_eq!(kinds("as shown in pmid 12345678 and"), [WebKind::Pmid]);
        assert_eq!(kinds("see pmc1234567 for the data"), [WebKind::Pmcid]);
        assert!(kinds("no identifier here").is_empty());
    }

    proptest::proptest! {
        #![proptest_config(crate::proptest_config::config(256))]
        /// Trying the pattern only where a match may start finds what a plain
        /// leftmost search over the whole text finds.
        #[test]
        fn candidates_miss_no_match(parts in proptest::collection::vec(
            proptest::sample::select(FRAGMENTS), 0..48)) {
            let text = parts.concat();
            let plain = regex::Regex::new(WEB_PATTERN).unwrap();
            let expected: Vec<usize> = plain.find_iter(&text).map(|m| m.start()).collect();
            let found: Vec<usize> = find(&text).iter().map(|m| m.zone.start).collect();
            proptest::prop_assert_eq!(found, expected, "{:?}", text);
        }
    }

    proptest::proptest! {
        #![proptest_config(crate::proptest_config::config(256))]
        /// Reading the heads of URLs and DOIs by hand ends every match (and its
        /// zone) where the general regex ends it, at every place a match may start
        /// (a word start).
        #[test]
        fn hand_read_heads_end_matches_as_the_regex_does(parts in proptest::collection::vec(
            proptest::sample::select(FRAGMENTS), 0..24)) {
            let text = parts.concat();
            let bytes = text.as_bytes();
            for start in (0..text.len()).filter(|&i| text.is_char_boundary(i)) {
                let word_start = start == 0
                    || !(bytes[start - 1].is_ascii_alphanumeric() || bytes[start - 1] == b'_');
                if !word_start {
                    continue;
                }
                let input = Input::new(&text).range(start..).anchored(Anchored::Yes);
                let expected = WEB.search(&input).map(|m| {
                    let found = &text[start..m.end()];
                    let kind = kind_of(found);
                    let kept = match kind {
                        WebKind::Url | WebKind::Doi => trim_url(found),
                        _ => found,
                    };
                    Matched { kind, end: m.end(), zone_end: start + kept.len() }
                });
                proptest::prop_assert_eq!(match_at(&text, start), expected, "{:?} at {}", text, start);
            }
        }

        /// Noting the brackets while reading a tail trims it as reading it again does.
        #[test]
        fn tails_are_cut_as_trim_url_cuts_them(parts in proptest::collection::vec(
            proptest::sample::select(&["a", "(", ")", "[", "]", ".", ")", "é", " ", "\u{3000}",
                "\"", "/", "x(y)", "’"][..]), 0..16)) {
            let text = parts.concat();
            let Tail { end, cut } = read_tail(&text, 0);
            proptest::prop_assert_eq!(end, tail_end(&text, 0));
            proptest::prop_assert_eq!(
                without_trailing_punctuation(&text[..cut]),
                trim_url(&text[..end]),
                "{:?}", text
            );
        }

        /// URLs lose the same punctuation as by `trim_end_matches`.
        #[test]
        fn trailing_punctuation_goes_as_by_trim_end_matches(parts in proptest::collection::vec(
            proptest::sample::select(&[".", ",", ";", ":", "!", "?", "'", "\"", "*", "_", ">",
                "’", "”", "a", "é", "‘", "\u{2019}x", " ", ")"][..]), 0..12)) {
            let text = parts.concat();
            let expected = text.trim_end_matches([
                '.', ',', ';', ':', '!', '?', '\'', '"', '*', '_', '>', '’', '”',
            ]);
            proptest::prop_assert_eq!(without_trailing_punctuation(&text), expected);
        }
    }

    /// Pieces of identifiers and of the text around them, in every case and script
    /// the pattern reads.
    const FRAGMENTS: &[&str] = &[
        "http://",
        "https://",
        "HTTPS://",
        "hTtP://",
        "http:/",
        "httpſ://",
        "http",
        ":",
        "//",
        "/",
        "doi:",
        "DOI ",
        "doi",
        "Doi:\u{A0}",
        "doi\u{2003}",
        "doi\t",
        "doi:\x0B",
        "10.",
        "10.1234/",
        "10.123/",
        "10.12345678901/",
        "10.12٣4/",
        "1234",
        "12345",
        "1234567890",
        "arxiv:",
        "arXiv: ",
        "2101.00001",
        "hep-th/9901001",
        "v2",
        "PMID",
        "pmid: ",
        "PMC",
        "pmc",
        "pm",
        "P",
        "M",
        "m",
        "x",
        "a",
        " ",
        "(",
        ")",
        ".",
        "é",
        "١٢٣٤",
        "\u{3000}",
        "_",
        "p",
        "]",
        "[",
        "\n",
        "@",
        "ſ",
        "h",
        "M",
        "Pm",
        "pM",
        "\"",
        "<",
        ">",
        "`",
        "\x0B",
        "\u{85}",
        "\u{A0}",
    ];

    #[test]
    fn urls_lose_trailing_markup() {
        assert_eq!(trim_url("https://a.org/x)."), "https://a.org/x");
        assert_eq!(
            trim_url("https://en.wikipedia.org/wiki/A_(b)."),
            "https://en.wikipedia.org/wiki/A_(b)"
        );
        assert_eq!(trim_url("https://a.org/x](y"), "https://a.org/x");
    }

    #[test]
    fn identifiers_in_running_text() {
        let text = "see doi:10.1038/nature14539, arXiv:1706.03762v5 and PMID: 12345 or PMC4425999.";
        let found: Vec<(String, IdScheme)> = find(text)
            .iter()
            .filter_map(|m| item(text, m, Syntax::ANSWER))
            .map(|i| (i.key, i.id.unwrap().0))
            .collect();
        assert_eq!(
            found,
            vec![
                ("doi:10.1038/nature14539".to_string(), IdScheme::Doi),
                ("arXiv:1706.03762v5".to_string(), IdScheme::Arxiv),
                ("PMID: 12345".to_string(), IdScheme::Pmid),
                ("PMC4425999".to_string(), IdScheme::Pmcid),
            ]
        );
    }
}
