//! The closed world: a cited reference is one of the request's sources or it is
//! `not_found`. A reference that carries an identifier (DOI, PMCID, PMID, arXiv id,
//! or a URL when the sources have URLs) is matched on its identifiers only; one
//! without is matched on its title, through the resolver's title gate (the parsed
//! title's similarity, or the source's title found in the raw reference string), and
//! a title that is only close must not contradict the source's year.
//! No network is used.

use crate::model::{IdScheme, Reference};
use crate::parse::ids;
use crate::resolve::compare::years_agree;
use crate::resolve::gate::{GateThresholds, RawWords, title_in_raw_words};
use crate::resolve::normalize::{compact, split_subtitle};
use crate::resolve::title_score::{PreparedTitle, prepared_score};

use super::article::{Article, ArticleIds};

/// How a reference was matched to a source.
#[derive(Debug, Clone, PartialEq)]
pub enum Matched {
    /// By this identifier.
    Identifier(IdScheme, String),
    /// By title, with this similarity.
    Title(f64),
}

/// The outcome of looking one reference up among the sources.
#[derive(Debug, Clone, PartialEq)]
pub enum Lookup {
    Found { index: usize, by: Matched },
    NotFound { reason: String },
}

/// The sources, prepared for lookups.
#[derive(Debug)]
pub struct SourceIndex<'a> {
    articles: &'a [Article],
    ids: Vec<ArticleIds>,
    titles: Vec<PreparedTitle>,
    /// Each title's main title (before a subtitle), compacted.
    mains: Vec<Option<String>>,
    any_url: bool,
    gate: GateThresholds,
}

impl<'a> SourceIndex<'a> {
    pub fn new(articles: &'a [Article]) -> SourceIndex<'a> {
        let ids: Vec<ArticleIds> = articles.iter().map(Article::ids).collect();
        SourceIndex {
            articles,
            any_url: ids.iter().any(|i| i.url.is_some()),
            titles: articles
                .iter()
                .map(|a| PreparedTitle::new(a.title()))
                .collect(),
            mains: articles
                .iter()
                .map(|a| split_subtitle(a.title()).map(|(main, _)| compact(main)))
                .collect(),
            ids,
            gate: GateThresholds::default(),
        }
    }

    pub fn len(&self) -> usize {
        self.articles.len()
    }

    pub fn is_empty(&self) -> bool {
        self.articles.is_empty()
    }

    /// Look a reference up: by its identifiers when it has any, else by its title.
    pub fn lookup(&self, reference: &Reference) -> Lookup {
        let cited = cited_ids(reference, self.any_url);
        if !cited.is_empty() {
            for (scheme, value) in &cited {
                if let Some(index) = self.by_id(*scheme, value) {
                    return Lookup::Found {
                        index,
                        by: Matched::Identifier(*scheme, value.clone()),
                    };
                }
            }
            let (scheme, value) = &cited[0];
            return Lookup::NotFound {
                reason: format!(
                    "{} {value} is not among the {} source(s)",
                    scheme.prefix(),
                    self.len()
                ),
            };
        }
        match self.by_title(reference) {
            Some((index, score)) => Lookup::Found {
                index,
                by: Matched::Title(score),
            },
            None if reference.fields.title.is_none() && reference.raw.trim().is_empty() => {
                Lookup::NotFound {
                    reason: "the reference is empty".into(),
                }
            }
            None => Lookup::NotFound {
                reason: format!(
                    "no identifier, and no title among the {} source(s) matches",
                    self.len()
                ),
            },
        }
    }

    /// The source carrying an identifier.
    pub fn by_id(&self, scheme: IdScheme, value: &str) -> Option<usize> {
        self.ids.iter().position(|ids| {
            let own = match scheme {
                IdScheme::Doi => &ids.doi,
                IdScheme::Pmcid => &ids.pmcid,
                IdScheme::Pmid => &ids.pmid,
                IdScheme::Arxiv => &ids.arxiv,
                IdScheme::Url => {
                    return ids.url.as_deref().is_some_and(|u| same_url(u, value));
                }
                IdScheme::Isbn => return false,
            };
            own.as_deref()
                .is_some_and(|v| v.eq_ignore_ascii_case(value))
        })
    }

    /// The source whose title the reference gives, with the similarity. A cited
    /// title that is a source's main title without its subtitle counts (LLMs drop
    /// subtitles); one with another subtitle does not. A title that is only close
    /// (not equal once folded) names another work when the years disagree: LLMs blend
    /// the titles of the papers they read into new ones, and the blend is as close to
    /// each of them as a real paraphrase is.
    fn by_title(&self, reference: &Reference) -> Option<(usize, f64)> {
        let cited = reference.fields.title.as_deref();
        let parsed = cited.map(PreparedTitle::new);
        let cited_main = cited
            .filter(|t| split_subtitle(t).is_none())
            .map(compact)
            .filter(|c| c.len() >= 3);
        let raw = RawWords::new(&reference.raw);
        let mut best: Option<(usize, f64)> = None;
        for (i, title) in self.titles.iter().enumerate() {
            if self.articles[i].title().is_empty() {
                continue;
            }
            let by_parsed = parsed.as_ref().map_or(0.0, |p| prepared_score(p, title).0);
            let (share, contained) =
                title_in_raw_words(&raw, self.articles[i].title(), self.gate.raw_max_missing);
            let by_main = match (&cited_main, &self.mains[i]) {
                (Some(c), Some(m)) if c == m => SUBTITLE_DROPPED,
                _ => 0.0,
            };
            let score = by_parsed
                .max(by_main)
                .max(if contained { share } else { 0.0 });
            if score >= self.gate.accept
                && best.is_none_or(|(_, b)| score > b)
                && (score >= 1.0 || years_agree(&reference.fields, &self.articles[i].to_work()))
            {
                best = Some((i, score));
            }
        }
        best
    }
}

/// The similarity given to a cited title that is a source's main title alone.
const SUBTITLE_DROPPED: f64 = 0.9;

/// The identifiers a reference cites, strongest first. A URL counts only when it
/// names an identifier, or when some source has a URL to compare it with.
pub fn cited_ids(reference: &Reference, urls_count: bool) -> Vec<(IdScheme, String)> {
    let f = &reference.fields;
    let mut out: Vec<(IdScheme, String)> = Vec::new();
    let mut push = |scheme: IdScheme, value: &Option<String>| {
        if let Some(v) = value
            && !out.iter().any(|(s, w)| *s == scheme && w == v)
        {
            out.push((scheme, v.clone()));
        }
    };
    push(IdScheme::Doi, &f.doi);
    push(IdScheme::Pmcid, &f.pmcid);
    push(IdScheme::Pmid, &f.pmid);
    push(IdScheme::Arxiv, &f.arxiv);
    // An arXiv DataCite DOI (`10.48550/arXiv.…`) names the arXiv id too.
    let arxiv_of_doi = f
        .doi
        .as_deref()
        .filter(|d| d.starts_with("10.48550/"))
        .and_then(ids::normalize_arxiv);
    push(IdScheme::Arxiv, &arxiv_of_doi);
    if let Some(url) = &f.url {
        match ids::identifier_from_url(url) {
            Some((scheme, value)) => push(scheme, &Some(value)),
            None if urls_count => push(IdScheme::Url, &Some(url.clone())),
            None => {}
        }
    }
    out
}

/// URLs compared without scheme, `www.` and trailing slash, host case-insensitively.
fn same_url(a: &str, b: &str) -> bool {
    fn key(u: &str) -> String {
        let u = u.trim();
        let u = u
            .strip_prefix("https://")
            .or_else(|| u.strip_prefix("http://"))
            .unwrap_or(u);
        let u = u.strip_prefix("www.").unwrap_or(u);
        let u = u.trim_end_matches('/');
        match u.split_once('/') {
            Some((host, path)) => format!("{}/{path}", host.to_ascii_lowercase()),
            None => u.to_ascii_lowercase(),
        }
    }
    key(a) == key(b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{FileId, ReferenceOrigin, Span};
    use crate::parse::refstring;

    fn reference(raw: &str) -> Reference {
        Reference {
            key: "1".into(),
            origin: ReferenceOrigin::ReferenceList,
            entry_type: None,
            file: FileId(0),
            span: Span::new(0, raw.len()),
            key_span: None,
            raw: raw.into(),
            fields: refstring::parse(raw),
            field_spans: Vec::new(),
        }
    }

    fn sources() -> Vec<Article> {
        vec![
            Article {
                pmcid: Some("PMC5551234".into()),
                title: Some("Gut microbiota and obesity in mice".into()),
                ..Article::default()
            },
            Article {
                doi: Some("10.1038/nature14539".into()),
                title: Some("Deep learning".into()),
                url: Some("https://www.nature.com/articles/nature14539".into()),
                ..Article::default()
            },
        ]
    }

    #[test]
    fn identifiers_decide_when_given() {
        let s = sources();
        let index = SourceIndex::new(&s);
        let found = index.lookup(&reference(
            "LeCun Y. Deep learning. Nature. 2015. doi:10.1038/NATURE14539",
        ));
        assert!(matches!(found, Lookup::Found { index: 1, .. }), "{found:?}");
        // The right title with an identifier that no source carries is not found.
        let fake = index.lookup(&reference(
            "LeCun Y. Deep learning. Nature. 2015. doi:10.9999/fake.123",
        ));
        assert!(
            matches!(&fake, Lookup::NotFound { reason } if reason.contains("10.9999/fake.123")),
            "{fake:?}"
        );
        let pmc = index.lookup(&reference("Smith J. Some paper. PMCID: PMC5551234."));
        assert!(matches!(pmc, Lookup::Found { index: 0, .. }), "{pmc:?}");
        let url = index.lookup(&reference("http://nature.com/articles/nature14539/"));
        assert!(matches!(url, Lookup::Found { index: 1, .. }), "{url:?}");
    }

    #[test]
    fn titles_decide_without_identifiers() {
        let s = sources();
        let index = SourceIndex::new(&s);
        let found = index.lookup(&reference(
            "Turnbaugh P. (2006). Gut microbiota and obesity in mice. Nature 444.",
        ));
        assert!(matches!(found, Lookup::Found { index: 0, .. }), "{found:?}");
        let other = index.lookup(&reference(
            "Turnbaugh P. (2006). Gut microbiota and diabetes in humans. Cell.",
        ));
        assert!(matches!(other, Lookup::NotFound { .. }), "{other:?}");
    }

    #[test]
    fn a_close_title_with_another_year_is_another_work() {
        let s = vec![Article {
            title: Some(
                "Synthesize-on-Graph: Knowledgeable Synthetic Data Generation for Continue \
                 Pre-training of Large Language Models"
                    .into(),
            ),
            year: Some(2025),
            ..Article::default()
        }];
        let index = SourceIndex::new(&s);
        // Half of the title blended with half of another: as close as a paraphrase.
        let blend = "\"Synthesize-on-Graph: Knowledgeable Synthetic Data Generation for and \
                     Graphs for Large Language Models\" (Journal of Research, 2016)";
        let blended = index.lookup(&reference(blend));
        assert!(matches!(blended, Lookup::NotFound { .. }), "{blended:?}");
        // The same close title in the source's year is the source.
        let same_year = index.lookup(&reference(&blend.replace("2016", "2025")));
        assert!(
            matches!(same_year, Lookup::Found { index: 0, .. }),
            "{same_year:?}"
        );
        // The exact title is the source whatever year the reference gives.
        let exact = index.lookup(&reference(
            "\"Synthesize-on-Graph: Knowledgeable Synthetic Data Generation for Continue \
             Pre-training of Large Language Models\" (arXiv.org, 2016)",
        ));
        assert!(matches!(exact, Lookup::Found { index: 0, .. }), "{exact:?}");
    }
}
