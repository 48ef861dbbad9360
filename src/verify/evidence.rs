//! Evidence about a cited work beyond the resolved record: its abstract (from the record,
//! else from another source asked by identifier) and the open-access links and
//! identifiers other sources know (for the full-text cascade).
//!
//! Sources are asked lazily and at most once per work; every record obtained is kept so
//! later steps reuse it. A source that fails is noted and skipped, never fatal.

use crate::model::{IdScheme, Work};
use crate::resolve::sources::{LookupResult, SourceError, Sources};

/// An abstract shorter than this is a stub (a title repeated, "No abstract available").
pub const MIN_ABSTRACT_CHARS: usize = 80;

/// A source that can be asked about a work by identifier.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Asked {
    S2,
    OpenAlex,
    EuropePmc,
    Arxiv,
    Unpaywall,
}

impl Asked {
    pub fn as_str(self) -> &'static str {
        match self {
            Asked::S2 => "s2",
            Asked::OpenAlex => "openalex",
            Asked::EuropePmc => "europepmc",
            Asked::Arxiv => "arxiv",
            Asked::Unpaywall => "unpaywall",
        }
    }
}

/// What is known about one cited work while it is being verified.
#[derive(Debug, Clone, PartialEq)]
pub struct Evidence {
    /// The resolved record, with identifiers other sources supplied filled in.
    pub work: Work,
    /// The abstract and the source it came from.
    pub abstract_text: Option<(String, String)>,
    /// Records obtained from other sources, in the order asked.
    pub records: Vec<Work>,
    asked: Vec<Asked>,
    /// Sources that could not be asked or failed (we do not know what they hold).
    pub failures: Vec<String>,
}

fn usable_abstract(work: &Work) -> Option<String> {
    work.abstract_text
        .as_deref()
        .map(str::trim)
        .filter(|a| a.chars().count() >= MIN_ABSTRACT_CHARS)
        .map(str::to_string)
}

impl Evidence {
    /// Start from the resolved record.
    pub fn new(work: &Work) -> Evidence {
        let abstract_text = usable_abstract(work).map(|a| (a, work.source.clone()));
        Evidence {
            work: work.clone(),
            abstract_text,
            records: Vec::new(),
            asked: Vec::new(),
            failures: Vec::new(),
        }
    }

    pub fn has_asked(&self, source: Asked) -> bool {
        self.asked.contains(&source)
    }

    /// Ask `source` about the work (once), keep its record and fill in the identifiers
    /// and the open-access link the resolved record lacks. Returns whether a record
    /// was found.
    pub async fn ask(&mut self, sources: &Sources, source: Asked) -> bool {
        if self.has_asked(source) {
            return false;
        }
        self.asked.push(source);
        let answer = lookup(sources, source, &self.work).await;
        let record = match answer {
            None => return false,
            Some(Ok(lookup)) => match lookup.found() {
                Some(record) => record,
                None => return false,
            },
            Some(Err(SourceError::Disabled | SourceError::Config(_))) => return false,
            Some(Err(e)) => {
                self.failures.push(format!("{}: {e}", source.as_str()));
                return false;
            }
        };
        let w = &mut self.work;
        fill(&mut w.doi, &record.doi);
        fill(&mut w.arxiv, &record.arxiv);
        fill(&mut w.pmid, &record.pmid);
        fill(&mut w.pmcid, &record.pmcid);
        if self.abstract_text.is_none()
            && let Some(a) = usable_abstract(&record)
        {
            self.abstract_text = Some((a, record.source.clone()));
        }
        self.records.push(record);
        true
    }

    /// Ask the sources that carry abstracts, in order, until one gives an abstract.
    pub async fn find_abstract(&mut self, sources: &Sources) {
        for source in [Asked::S2, Asked::OpenAlex, Asked::EuropePmc, Asked::Arxiv] {
            if self.abstract_text.is_some() {
                return;
            }
            self.ask(sources, source).await;
        }
    }

    /// Open-access links known so far: the resolved record's, then those of the
    /// records obtained since, each with the source that gave it.
    pub fn open_access_links(&self) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = Vec::new();
        for w in std::iter::once(&self.work).chain(&self.records) {
            if let Some(url) = &w.oa_url
                && !out.iter().any(|(u, _)| u == url)
            {
                out.push((url.clone(), w.source.clone()));
            }
        }
        out
    }
}

fn fill(slot: &mut Option<String>, value: &Option<String>) {
    if slot.is_none() {
        slot.clone_from(value);
    }
}

/// One lookup by the best identifier the source accepts; `None` when the work has no
/// identifier that source can use.
async fn lookup(sources: &Sources, source: Asked, w: &Work) -> Option<LookupResult> {
    let answer = match source {
        Asked::S2 => {
            let (scheme, id) = [
                (IdScheme::Doi, &w.doi),
                (IdScheme::Arxiv, &w.arxiv),
                (IdScheme::Pmid, &w.pmid),
                (IdScheme::Pmcid, &w.pmcid),
            ]
            .into_iter()
            .find_map(|(s, v)| v.as_ref().map(|v| (s, v.clone())))?;
            sources.s2.lookup(scheme, &id).await
        }
        Asked::OpenAlex => match (&w.doi, &w.pmid) {
            (Some(doi), _) => sources.openalex.lookup_doi(doi).await,
            (None, Some(pmid)) => sources.openalex.lookup_pmid(pmid).await,
            _ => return None,
        },
        Asked::EuropePmc => match (&w.pmcid, &w.pmid, &w.doi) {
            (Some(pmcid), _, _) => sources.europepmc.lookup_pmcid(pmcid).await,
            (None, Some(pmid), _) => sources.europepmc.lookup_pmid(pmid).await,
            (None, None, Some(doi)) => sources.europepmc.lookup_doi(doi).await,
            _ => return None,
        },
        Asked::Arxiv => sources.arxiv.lookup_id(w.arxiv.as_deref()?).await,
        Asked::Unpaywall => sources.unpaywall.lookup(w.doi.as_deref()?).await,
    };
    Some(answer)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stub_abstract_does_not_count() {
        let mut w = Work {
            source: "crossref".into(),
            abstract_text: Some("No abstract available.".into()),
            ..Work::default()
        };
        assert!(Evidence::new(&w).abstract_text.is_none());
        w.abstract_text = Some("x".repeat(MIN_ABSTRACT_CHARS));
        let ev = Evidence::new(&w);
        assert_eq!(ev.abstract_text.unwrap().1, "crossref");
    }

    #[test]
    fn open_access_links_are_deduplicated_in_order() {
        let mut ev = Evidence::new(&Work {
            source: "crossref".into(),
            oa_url: Some("https://a.org/x.pdf".into()),
            ..Work::default()
        });
        for (source, url) in [
            ("s2", "https://a.org/x.pdf"),
            ("openalex", "https://b.org/y"),
        ] {
            ev.records.push(Work {
                source: source.into(),
                oa_url: Some(url.into()),
                ..Work::default()
            });
        }
        let links = ev.open_access_links();
        assert_eq!(
            links,
            [
                ("https://a.org/x.pdf".to_string(), "crossref".to_string()),
                ("https://b.org/y".to_string(), "openalex".to_string())
            ]
        );
    }
}
