//! URLs and bare identifiers in running text, and which URLs cite a work: DOI,
//! arXiv, PubMed and PMC links, and article pages of scholarly publishers.

use std::sync::LazyLock;

use regex::Regex;

use super::{Item, Syntax};
use crate::model::{CitationKind, IdScheme, Span};
use crate::parse::ids;

static WEB: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"(?xi)
        (?P<url>\bhttps?://[^\s<>"`]+)
        |(?P<doi>\b(?:doi:?\s?)?10\.\d{4,9}/[^\s"<>`]+)
        |(?P<arxiv>\barxiv:\s?(?:\d{4}\.\d{4,5}|[a-z\-]+(?:\.[a-z]{2})?/\d{7})(?:v\d+)?)
        |(?P<pmid>\bPMID:?\s?\d{1,9}\b)
        |(?P<pmcid>\bPMC\d{4,9}\b)
        "#,
    )
    .expect("web regex")
});

/// One URL or identifier: the bytes it occupies (where `@`, `[` and `(` are not
/// citation syntax) and the citation it makes, if any.
#[derive(Debug, Clone)]
pub struct WebMatch {
    pub zone: Span,
    pub item: Option<Item>,
}

/// Every URL and identifier in `text` (spans relative to `text`).
pub fn find(text: &str, syntax: Syntax) -> Vec<WebMatch> {
    // Fast exit: no URL, DOI, arXiv id or PMID/PMC can occur without these.
    if memchr::memchr3(b':', b'/', b'P', text.as_bytes()).is_none() {
        return Vec::new();
    }
    let cite_ids = syntax.identifiers;
    let mut out = Vec::new();
    for caps in WEB.captures_iter(text) {
        let whole = caps.get(0).expect("whole match");
        let start = whole.start();
        if let Some(m) = caps.name("url") {
            let url = trim_url(m.as_str());
            let zone = Span::new(start, start + url.len());
            let id = if syntax.all_urls {
                Some(citable_url(url).unwrap_or((IdScheme::Url, url.to_string())))
            } else if cite_ids {
                citable_url(url)
            } else {
                None
            };
            out.push(WebMatch {
                zone,
                item: id.map(|id| item(url, zone, id, "url")),
            });
            continue;
        }
        let (len, id) = if caps.name("doi").is_some() {
            let Some((span, doi)) = ids::find_dois(whole.as_str()).into_iter().next() else {
                continue;
            };
            (span.end, (IdScheme::Doi, doi))
        } else if caps.name("arxiv").is_some() {
            let Some(id) = ids::normalize_arxiv(whole.as_str()) else {
                continue;
            };
            (whole.len(), (IdScheme::Arxiv, id))
        } else if let Some(m) = caps.name("pmid") {
            let digits = m.as_str().trim_start_matches(|c: char| !c.is_ascii_digit());
            let Some(pmid) = ids::normalize_pmid(digits) else {
                continue;
            };
            (whole.len(), (IdScheme::Pmid, pmid))
        } else {
            let Some(pmcid) = ids::normalize_pmcid(whole.as_str()) else {
                continue;
            };
            (whole.len(), (IdScheme::Pmcid, pmcid))
        };
        let zone = Span::new(start, start + len);
        let written = &text[zone.start..zone.end];
        out.push(WebMatch {
            zone,
            item: cite_ids.then(|| item(written, zone, id, "bare")),
        });
    }
    out
}

fn item(written: &str, span: Span, id: (IdScheme, String), command: &'static str) -> Item {
    Item {
        key: written.to_string(),
        kind: CitationKind::Identifier,
        span,
        id: Some(id),
        narrative: false,
        command,
    }
}

/// A URL without what trails it in prose or markup: punctuation, an unbalanced
/// closing bracket, a Markdown link's `](`.
pub fn trim_url(url: &str) -> &str {
    let mut end = url.len();
    let mut depth: i32 = 0;
    for (i, c) in url.char_indices() {
        match c {
            '(' => depth += 1,
            ')' if depth == 0 => {
                end = i;
                break;
            }
            ')' => depth -= 1,
            ']' | '[' => {
                end = i;
                break;
            }
            _ => {}
        }
    }
    url[..end].trim_end_matches([
        '.', ',', ';', ':', '!', '?', '\'', '"', '*', '_', '>', '’', '”',
    ])
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
    let scholarly = SCHOLARLY_HOSTS
        .iter()
        .any(|h| host == *h || host.ends_with(&format!(".{h}")));
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
        let found: Vec<(String, IdScheme)> = find(text, Syntax::ANSWER)
            .into_iter()
            .filter_map(|m| m.item)
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
