//! One reference as the cascade sees it: its fields, its raw text, how it was written,
//! the identifiers it cites, the queries to search with, and the gate applied the way
//! its kind calls for.

use std::borrow::Cow;

use crate::model::{IdScheme, RefFields, Reference, ReferenceOrigin, Work};
use crate::parse::ids::{
    identifier_from_url, is_bare_doi_prefix, normalize_arxiv, normalize_doi, normalize_pmcid,
    normalize_pmid,
};
use crate::resolve::container::is_container_of;
use crate::resolve::gate::{
    GateDecision, GateThresholds, RawWords, accept, title_in_raw, title_window_in_raw,
};
use crate::resolve::identifiers::{arxiv_inside_doi, arxiv_of_doi, identifiers_agree};
use crate::resolve::mismatch::Field;
use crate::resolve::normalize::{content_words, fold, strip_retraction_prefix};
use crate::resolve::title_score::{GateMethod, title_similarity};

/// How a reference was written, which decides how far its parsed fields are trusted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum QueryKind {
    /// A BibTeX entry or CSL-JSON item: fields as the author typed them.
    Entry,
    /// A formatted reference string: fields parsed from punctuation, the raw text kept.
    String,
    /// An identifier cited on its own (`[@doi:…]`, a bare arXiv id).
    Identifier,
}

/// A reference to resolve.
#[derive(Debug, Clone, PartialEq)]
pub struct RefQuery {
    pub fields: RefFields,
    /// The entry or string as written (the gate reads it when no title was parsed).
    pub raw: String,
    pub kind: QueryKind,
}

/// One identifier a reference cites, normalised, with the field it was cited in.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CitedId {
    /// The scheme it is looked up by (an arXiv DataCite DOI is looked up as arXiv).
    pub scheme: IdScheme,
    pub value: String,
    pub field: Field,
}

impl RefQuery {
    pub fn new(fields: RefFields, raw: impl Into<String>, kind: QueryKind) -> RefQuery {
        RefQuery {
            fields,
            raw: raw.into(),
            kind,
        }
    }

    /// A formatted reference string, parsed.
    pub fn from_string(raw: &str) -> RefQuery {
        RefQuery::new(crate::parse::refstring::parse(raw), raw, QueryKind::String)
    }

    /// A parsed bibliography entry or reference-list item.
    pub fn from_reference(reference: &Reference) -> RefQuery {
        let kind = match reference.origin {
            ReferenceOrigin::BibEntry | ReferenceOrigin::CslJson => QueryKind::Entry,
            ReferenceOrigin::Inline | ReferenceOrigin::TagDefinition => QueryKind::Identifier,
            ReferenceOrigin::ReferenceList
            | ReferenceOrigin::BibItem
            | ReferenceOrigin::Footnote => QueryKind::String,
        };
        let empty = reference.fields == RefFields::default();
        let fields = if kind == QueryKind::String && empty {
            crate::parse::refstring::parse(&reference.raw)
        } else {
            reference.fields.clone()
        };
        RefQuery::new(fields, reference.raw.clone(), kind)
    }

    /// The identifiers cited, each once: DOI (an arXiv DataCite DOI as its arXiv id),
    /// arXiv id, PMID, PMCID, and an identifier hidden in the URL.
    pub fn cited_ids(&self) -> Vec<CitedId> {
        let f = &self.fields;
        let mut out: Vec<CitedId> = Vec::new();
        let mut push = |scheme, value: Option<String>, field| {
            if let Some(value) = value {
                let id = CitedId {
                    scheme,
                    value,
                    field,
                };
                if !out
                    .iter()
                    .any(|o| o.scheme == id.scheme && o.value == id.value)
                {
                    out.push(id);
                }
            }
        };
        let url_id = f.url.as_deref().and_then(identifier_from_url);
        // A field as cited, else the same identifier hidden in the URL.
        let cited = |value: Option<&String>, normalize: fn(&str) -> Option<String>, scheme| {
            value.and_then(|v| normalize(v)).or_else(|| match &url_id {
                Some((s, v)) if *s == scheme => Some(v.clone()),
                _ => None,
            })
        };
        // A DOI cut short (`10.48550/arXiv.`) cites nothing.
        let doi =
            cited(f.doi.as_ref(), normalize_doi, IdScheme::Doi).filter(|d| !is_bare_doi_prefix(d));
        match doi.as_deref().map(|d| (d, arxiv_of_doi(d))) {
            Some((_, Some(x))) => push(IdScheme::Arxiv, Some(x), Field::Doi),
            Some((d, None)) => push(IdScheme::Doi, Some(d.to_string()), Field::Doi),
            None => {}
        }
        let arxiv = cited(f.arxiv.as_ref(), normalize_arxiv, IdScheme::Arxiv)
            .filter(|a| !arxiv_inside_doi(a, doi.as_deref()));
        push(IdScheme::Arxiv, arxiv, Field::Arxiv);
        let pmid = cited(f.pmid.as_ref(), normalize_pmid, IdScheme::Pmid);
        push(IdScheme::Pmid, pmid, Field::Pmid);
        let pmcid = cited(f.pmcid.as_ref(), normalize_pmcid, IdScheme::Pmcid);
        push(IdScheme::Pmcid, pmcid, Field::Pmid);
        out
    }

    /// A URL that is not itself an identifier: a landing page to read metadata from.
    pub fn landing_url(&self) -> Option<&str> {
        let url = self.fields.url.as_deref()?.trim();
        let web = url.starts_with("http://") || url.starts_with("https://");
        (web && identifier_from_url(url).is_none()).then_some(url)
    }

    fn title(&self) -> Option<&str> {
        self.fields
            .title
            .as_deref()
            .filter(|t| !content_words(t).is_empty())
    }

    /// Only an identifier is cited: nothing to check the identifier's record against.
    pub fn is_identifier_only(&self) -> bool {
        let f = &self.fields;
        self.title().is_none()
            && f.authors.is_empty()
            && (self.kind == QueryKind::Identifier || content_words(&self.raw_text()).len() < 3)
    }

    /// Whether the reference says enough to be looked up at all.
    pub fn is_resolvable(&self) -> bool {
        !self.cited_ids().is_empty()
            || self.title().is_some()
            || (self.kind == QueryKind::String && content_words(&self.raw_text()).len() >= 4)
    }

    /// Whether a title search can be made.
    pub fn is_searchable(&self) -> bool {
        self.title().is_some()
            || (self.kind == QueryKind::String && content_words(&self.raw_text()).len() >= 4)
    }

    /// The raw text without URLs and identifiers, for free-text queries.
    fn raw_text(&self) -> String {
        self.raw
            .split_whitespace()
            .filter(|w| {
                let lower = w.to_ascii_lowercase();
                !(lower.contains("://")
                    || lower.starts_with("doi:")
                    || lower.starts_with("10.")
                    || lower.starts_with("arxiv:"))
            })
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// What to search titles with: the title, else the raw text.
    pub fn title_query(&self) -> String {
        match self.title() {
            Some(t) => fold(t),
            None => fold(&self.raw_text()),
        }
    }

    /// What to give a bibliographic search (Crossref `query.bibliographic`): the
    /// reference string as written, or title, first author, year and venue.
    pub fn bibliographic_query(&self) -> String {
        if self.kind == QueryKind::String {
            return fold(&self.raw_text());
        }
        let f = &self.fields;
        let mut parts: Vec<String> = self.title().map(str::to_string).into_iter().collect();
        parts.extend(f.authors.first().map(|a| a.family.clone()));
        parts.extend(f.year.map(|y| y.to_string()));
        parts.extend(f.venue.clone());
        fold(&parts.join(" "))
    }

    /// The gate for this reference: the title gate on the parsed fields; for a
    /// reference string also the record's title found in the raw text (the parser
    /// may have cut the title wrongly); for an identifier cited alone, the identifier.
    pub fn judge(&self, work: &Work, thresholds: &GateThresholds) -> GateDecision {
        if self.is_identifier_only() {
            return GateDecision {
                accepted: identifiers_agree(&self.fields, work),
                similarity: 1.0,
                method: GateMethod::Identifier,
            };
        }
        let mut decision = accept(&self.fields, &self.raw, work, thresholds);
        let record_kind = if crate::resolve::container::is_container_record(work) {
            Some(crate::model::WorkKind::EditedVolume)
        } else {
            crate::resolve::kinds::record_kind(work)
        };
        if crate::resolve::kinds::kinds_conflict(self.fields.kind, record_kind)
            || crate::resolve::kinds::reprint_of_unique_work(&self.fields, work)
        {
            decision.accepted = false;
            return decision;
        }
        if decision.accepted || self.kind != QueryKind::String || self.title().is_none() {
            return decision;
        }
        match title_in_raw(&self.raw, &work.title, thresholds.raw_max_missing) {
            (similarity, true)
                if !is_container_of(&self.fields, work, GateMethod::RawContainment) =>
            {
                GateDecision {
                    accepted: true,
                    similarity,
                    method: GateMethod::RawContainment,
                }
            }
            _ => decision,
        }
    }

    /// The fields to compare with an accepted record. For a reference string the
    /// title is taken from the raw text where the record's title sits (the parser may
    /// have cut it wrongly): the record's own title when the text carries it whole,
    /// else the words the text has there. When the parser lost the title altogether,
    /// the names and the venue it read around it are not trusted either, and the year
    /// is the record's when the text gives it.
    pub fn fields_for(&self, work: &Work, t: &GateThresholds) -> Cow<'_, RefFields> {
        if self.kind != QueryKind::String {
            return Cow::Borrowed(&self.fields);
        }
        let record_title = strip_retraction_prefix(&work.title).0;
        let raw_text = self.raw_text();
        let written = if contains_words(&raw_text, record_title) {
            Some(record_title.to_string())
        } else {
            title_window_in_raw(&RawWords::new(&self.raw), record_title, t.raw_max_missing)
        };
        let Some(written) = written else {
            return Cow::Borrowed(&self.fields);
        };
        let parsed_ok = self
            .title()
            .is_some_and(|title| title_similarity(title, record_title) >= t.accept);
        let mut fields = self.fields.clone();
        if parsed_ok && fields.title.as_deref() != Some(written.as_str()) {
            repair_around_title(&mut fields, &written);
        }
        fields.title = Some(written);
        if !parsed_ok {
            fields.authors.clear();
            fields.authors_truncated = false;
            fields.venue = None;
            if let Some(year) = work.year.filter(|y| has_year_token(&raw_text, *y)) {
                fields.year = Some(year);
            }
        }
        Cow::Owned(fields)
    }

    /// Whether the reference cites a source of this scheme (so that the specialist
    /// search of that scheme is relevant).
    pub fn cites_scheme(&self, scheme: IdScheme) -> bool {
        self.cited_ids().iter().any(|c| c.scheme == scheme)
    }
}

/// The parser cut a title that starts or ends differently from the one the text
/// carries, so the neighbouring fields are off too. Words it lost at the start went to
/// the last author's given names (`Kieffer J. A catalog of …` read as `Kieffer, J. A.`)
/// and are given back; words it took from the names make the names untrustworthy;
/// a difference at the end makes the venue untrustworthy.
fn repair_around_title(fields: &mut RefFields, written: &str) {
    let Some(parsed) = fields.title.as_deref().map(fold) else {
        return;
    };
    let written = fold(written);
    if parsed.is_empty() || parsed == written {
        return;
    }
    let ends = |long: &str, short: &str| long.ends_with(&format!(" {short}"));
    let starts = |long: &str, short: &str| long.starts_with(&format!("{short} "));
    if ends(&written, &parsed) {
        let lost = &written[..written.len() - parsed.len() - 1];
        give_back(fields, lost);
    } else if ends(&parsed, &written) {
        fields.authors.clear();
        fields.authors_truncated = false;
    }
    if starts(&written, &parsed) || starts(&parsed, &written) {
        fields.venue = None;
    }
}

/// Remove title words the name parser took as the last author's initials.
fn give_back(fields: &mut RefFields, lost: &str) {
    let Some(last) = fields.authors.last_mut() else {
        return;
    };
    let Some(given) = last.given.as_deref() else {
        return;
    };
    let mut tokens: Vec<&str> = given.split_whitespace().collect();
    for word in lost.split(' ').rev() {
        match tokens.last() {
            Some(t) if fold(t) == word => {
                tokens.pop();
            }
            _ => break,
        }
    }
    last.given = Some(tokens.join(" ")).filter(|g| !g.is_empty());
}

/// Whether `text` contains `title` word for word once both are folded.
fn contains_words(text: &str, title: &str) -> bool {
    let title = fold(title);
    !title.is_empty() && format!(" {} ", fold(text)).contains(&format!(" {title} "))
}

/// Whether `year` stands as a word of `text`.
fn has_year_token(text: &str, year: i32) -> bool {
    let year = year.to_string();
    fold(text).split(' ').any(|w| w == year)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Person;

    fn entry(fields: RefFields) -> RefQuery {
        RefQuery::new(fields, "", QueryKind::Entry)
    }

    #[test]
    fn arxiv_doi_is_looked_up_as_arxiv_and_url_ids_count() {
        let q = entry(RefFields {
            doi: Some("10.48550/arXiv.1706.03762".into()),
            url: Some("https://pubmed.ncbi.nlm.nih.gov/12345/".into()),
            ..RefFields::default()
        });
        let ids = q.cited_ids();
        assert_eq!(ids.len(), 2, "{ids:?}");
        assert_eq!(
            (ids[0].scheme, ids[0].value.as_str(), ids[0].field),
            (IdScheme::Arxiv, "1706.03762", Field::Doi)
        );
        assert_eq!(
            (ids[1].scheme, ids[1].value.as_str()),
            (IdScheme::Pmid, "12345")
        );
        assert!(q.landing_url().is_none());
        assert!(q.is_identifier_only());
    }

    #[test]
    fn identifier_only_reference_accepts_its_identifier_record() {
        let q = RefQuery::new(
            RefFields {
                doi: Some("10.1234/x".into()),
                ..RefFields::default()
            },
            "doi:10.1234/x",
            QueryKind::Identifier,
        );
        let work = Work {
            title: "Anything".into(),
            doi: Some("10.1234/x".into()),
            ..Work::default()
        };
        let d = q.judge(&work, &GateThresholds::default());
        assert!(d.accepted && d.method == GateMethod::Identifier);
        let other = Work {
            doi: Some("10.1234/y".into()),
            ..work
        };
        assert!(!q.judge(&other, &GateThresholds::default()).accepted);
    }

    #[test]
    fn misparsed_string_title_is_rescued_by_the_raw_text() {
        let raw = "Smith J, Doe A. Deep residual learning for image recognition. CVPR 2016.";
        let q = RefQuery::new(
            RefFields {
                title: Some("Smith J, Doe A. Deep residual".into()),
                authors: vec![Person::new(Some("J"), "Smith")],
                ..RefFields::default()
            },
            raw,
            QueryKind::String,
        );
        let work = Work {
            title: "Deep Residual Learning for Image Recognition".into(),
            ..Work::default()
        };
        let d = q.judge(&work, &GateThresholds::default());
        assert!(d.accepted, "{d:?}");
        assert_eq!(d.method, GateMethod::RawContainment);
        let fields = q.fields_for(&work, &GateThresholds::default());
        assert_eq!(fields.title.as_deref(), Some(work.title.as_str()));
        // The parser lost the title: its names are not compared.
        assert!(fields.authors.is_empty());
        // A BibTeX title is trusted: no rescue.
        let bib = RefQuery::new(q.fields.clone(), raw, QueryKind::Entry);
        assert!(!bib.judge(&work, &GateThresholds::default()).accepted);
    }

    #[test]
    fn string_title_is_read_where_the_record_title_sits() {
        let raw = "Edwards L, Veale M. Slave to the Algorithm? Why a 'right to an explanation' is therapy not the remedy you are looking for. 2017.";
        let q = RefQuery::new(
            RefFields {
                title: Some("Slave to the Algorithm?".into()),
                year: Some(2017),
                ..RefFields::default()
            },
            raw,
            QueryKind::String,
        );
        let work = Work {
            title: "Slave to the Algorithm? Why a 'right to an explanation' is probably not the remedy you are looking for".into(),
            year: Some(2017),
            ..Work::default()
        };
        let fields = q.fields_for(&work, &GateThresholds::default());
        let title = fields.title.as_deref().unwrap();
        assert!(
            title.contains("therapy") && !title.contains("probably"),
            "{title}"
        );
        // A BibTeX title is compared as written.
        let bib = RefQuery::new(q.fields.clone(), raw, QueryKind::Entry);
        assert_eq!(
            bib.fields_for(&work, &GateThresholds::default()).title,
            q.fields.title
        );
    }

    #[test]
    fn title_words_taken_by_the_names_are_given_back() {
        let raw =
            "Kieffer J. A catalog of self-affine hierarchical entropy functions. Algorithms. 2011.";
        let q = RefQuery::new(
            RefFields {
                title: Some("catalog of self-affine hierarchical entropy functions".into()),
                authors: vec![Person::new(Some("J. A."), "Kieffer")],
                year: Some(2011),
                ..RefFields::default()
            },
            raw,
            QueryKind::String,
        );
        let work = Work {
            title: "A Catalog of Self-Affine Hierarchical Entropy Functions".into(),
            ..Work::default()
        };
        let fields = q.fields_for(&work, &GateThresholds::default());
        assert_eq!(fields.authors[0].given.as_deref(), Some("J."));
        assert_eq!(fields.title.as_deref(), Some(work.title.as_str()));
    }

    #[test]
    fn queries_drop_identifiers_and_urls() {
        let q = RefQuery::new(
            RefFields::default(),
            "A. Author. Some title here. J. Things, 2020. doi:10.1/x https://x.org/y",
            QueryKind::String,
        );
        let query = q.bibliographic_query();
        assert!(
            !query.contains("10 1") && !query.contains("https"),
            "{query}"
        );
        assert!(q.is_resolvable() && q.is_searchable());
    }
}
