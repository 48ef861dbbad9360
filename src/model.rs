//! The document model shared by every stage: citations, references, claims and
//! the resolved records they are checked against.

use serde::{Deserialize, Serialize};
use std::borrow::Cow;

/// A byte range `[start, end)` into one file's text.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize, Deserialize,
)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Span {
        debug_assert!(start <= end, "span {start}..{end} is reversed");
        Span { start, end }
    }

    pub fn len(&self) -> usize {
        self.end - self.start
    }

    pub fn is_empty(&self) -> bool {
        self.start == self.end
    }

    pub fn contains(&self, offset: usize) -> bool {
        self.start <= offset && offset < self.end
    }

    pub fn covers(&self, other: Span) -> bool {
        self.start <= other.start && other.end <= self.end
    }

    /// Shift a span found in a slice that starts at `base`.
    pub fn offset(self, base: usize) -> Span {
        Span::new(self.start + base, self.end + base)
    }
}

/// Index of a file in the run's [`crate::source::SourceMap`].
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize, Deserialize,
)]
pub struct FileId(pub u32);

impl FileId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// How a citation was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CitationKind {
    /// A bibliography key: `[@smith2020]`, `@smith2020`, `\cite{smith2020}`.
    Key,
    /// A citation that carries its own identifier: `[@doi:10.1/x]`, a DOI link, a bare arXiv id.
    Identifier,
    /// Manubot `[@tag:name]`, resolved through a `[@tag:name]: doi:…` definition.
    Tag,
    /// A numbered marker `[3]`, one per number of `[1, 3]` or `[1-4]`.
    Numeric,
    /// A Markdown footnote reference `[^1]`.
    Footnote,
    /// An author–year citation `(Smith et al., 2020)`.
    AuthorYear,
}

/// A persistent identifier scheme.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum IdScheme {
    Doi,
    Arxiv,
    Pmid,
    Pmcid,
    Isbn,
    Url,
}

impl IdScheme {
    /// The page a normalised identifier names on the web (`https://doi.org/…`);
    /// `None` for ISBNs, which have no one landing page.
    pub fn landing_url(self, value: &str) -> Option<String> {
        match self {
            IdScheme::Doi => Some(format!("https://doi.org/{value}")),
            IdScheme::Arxiv => Some(format!("https://arxiv.org/abs/{value}")),
            IdScheme::Pmid => Some(format!("https://pubmed.ncbi.nlm.nih.gov/{value}/")),
            IdScheme::Pmcid => Some(format!(
                "https://www.ncbi.nlm.nih.gov/pmc/articles/{value}/"
            )),
            IdScheme::Isbn => None,
            IdScheme::Url => Some(value.to_string()),
        }
    }

    pub fn prefix(self) -> &'static str {
        match self {
            IdScheme::Doi => "doi",
            IdScheme::Arxiv => "arxiv",
            IdScheme::Pmid => "pmid",
            IdScheme::Pmcid => "pmcid",
            IdScheme::Isbn => "isbn",
            IdScheme::Url => "url",
        }
    }
}

/// One citation occurrence in a document.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Citation {
    /// The key, identifier or marker as written: `smith2020`, `doi:10.1/x`, `3`,
    /// `Smith et al., 2020`, `tag:goodfellow2016deep`, `^1`.
    pub key: String,
    pub kind: CitationKind,
    pub file: FileId,
    /// Bytes of the key or marker itself (for `[1-4]`, the whole range text).
    pub span: Span,
    /// Bytes of the whole citation construct (`[@a; @b]`, `\citep[p.~3]{a,b}`).
    pub group_span: Span,
    /// The LaTeX command (`citep`), `pandoc`, `link` …: how it was written. Most are
    /// fixed names, kept without an allocation per citation.
    pub command: Option<Cow<'static, str>>,
    /// The identifier a `Identifier` citation carries (scheme, normalised value).
    pub id: Option<(IdScheme, String)>,
    /// Narrative/in-text form (`@key`, `\citet`), as opposed to parenthetical.
    pub narrative: bool,
    /// Index into [`Document::claims`] of the sentence that carries the citation
    /// (`None` for `\nocite` and citations outside prose).
    pub claim: Option<usize>,
    /// Index into [`Document::references`] once linked.
    pub reference: Option<usize>,
}

/// Where a reference came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReferenceOrigin {
    /// An entry of a .bib file.
    BibEntry,
    /// An item of a CSL-JSON bibliography.
    CslJson,
    /// An item of a document's own reference list (`1.`, `[1]`, bullets, "Sources:").
    ReferenceList,
    /// A LaTeX `\bibitem` of a `thebibliography` environment.
    BibItem,
    /// A Markdown footnote definition `[^1]: …`.
    Footnote,
    /// A Manubot tag definition `[@tag:x]: doi:…`.
    TagDefinition,
    /// An identifier cited inline (`[@doi:…]`, a DOI link, a bare arXiv id): the
    /// reference is made from the citation itself.
    Inline,
}

/// A person's name split the way bibliographic records do.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct Person {
    /// Given names or initials; `None` for organisations and single names.
    pub given: Option<String>,
    /// Family name including particles (`van der Berg`) and suffixes.
    pub family: String,
}

impl Person {
    pub fn new(given: Option<&str>, family: &str) -> Person {
        Person {
            given: given.map(str::to_string).filter(|g| !g.is_empty()),
            family: family.to_string(),
        }
    }
}

/// Bibliographic fields parsed from an entry or a formatted reference string.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct RefFields {
    pub title: Option<String>,
    pub authors: Vec<Person>,
    /// The author list ends in "et al." / "and others".
    pub authors_truncated: bool,
    pub editors: Vec<Person>,
    pub year: Option<i32>,
    /// Journal, proceedings, book or repository name.
    pub venue: Option<String>,
    pub volume: Option<String>,
    pub issue: Option<String>,
    pub pages: Option<String>,
    pub publisher: Option<String>,
    /// Lowercase bare DOI (`10.1038/nature14539`).
    pub doi: Option<String>,
    /// arXiv id without version (`1706.03762`, `hep-th/9901001`).
    pub arxiv: Option<String>,
    pub pmid: Option<String>,
    /// `PMC` + digits.
    pub pmcid: Option<String>,
    pub isbn: Option<String>,
    pub url: Option<String>,
    /// The kind of work, where the entry type, its fields or the string say it; `None`
    /// when nothing does (a scholarly paper, as most references are).
    pub kind: Option<WorkKind>,
    /// The number that names a report, standard, RFC or patent as its series counts
    /// (`2119`, `ISO/IEC 27001:2013`, `US 6285999`).
    #[serde(default)]
    pub number: Option<String>,
    /// The cited version of software or a dataset (`1.3.0`).
    #[serde(default)]
    pub version: Option<String>,
    /// The package the reference names in a registry (software cited as a package).
    #[serde(default)]
    pub package: Option<PackageRef>,
    /// An ISBN as written whose length or check digit is wrong (`isbn` stays empty).
    #[serde(default)]
    pub invalid_isbn: Option<String>,
}

/// The kind of a cited work. It decides which sources can confirm the work and what
/// their silence means: the scholarly indexes hold articles, conference papers and
/// preprints thoroughly, books partly, and the other kinds barely or not at all.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WorkKind {
    Article,
    ConferencePaper,
    Preprint,
    Book,
    Chapter,
    EditedVolume,
    Thesis,
    Report,
    Standard,
    Rfc,
    Patent,
    Software,
    Dataset,
    WebPage,
    Legal,
    Talk,
    Other,
}

impl WorkKind {
    pub const ALL: [WorkKind; 17] = [
        WorkKind::Article,
        WorkKind::ConferencePaper,
        WorkKind::Preprint,
        WorkKind::Book,
        WorkKind::Chapter,
        WorkKind::EditedVolume,
        WorkKind::Thesis,
        WorkKind::Report,
        WorkKind::Standard,
        WorkKind::Rfc,
        WorkKind::Patent,
        WorkKind::Software,
        WorkKind::Dataset,
        WorkKind::WebPage,
        WorkKind::Legal,
        WorkKind::Talk,
        WorkKind::Other,
    ];

    /// The name in JSON and configuration (`conference_paper`).
    pub fn as_str(self) -> &'static str {
        match self {
            WorkKind::Article => "article",
            WorkKind::ConferencePaper => "conference_paper",
            WorkKind::Preprint => "preprint",
            WorkKind::Book => "book",
            WorkKind::Chapter => "chapter",
            WorkKind::EditedVolume => "edited_volume",
            WorkKind::Thesis => "thesis",
            WorkKind::Report => "report",
            WorkKind::Standard => "standard",
            WorkKind::Rfc => "rfc",
            WorkKind::Patent => "patent",
            WorkKind::Software => "software",
            WorkKind::Dataset => "dataset",
            WorkKind::WebPage => "web_page",
            WorkKind::Legal => "legal",
            WorkKind::Talk => "talk",
            WorkKind::Other => "other",
        }
    }

    /// The kind in a sentence (`a book chapter`).
    pub fn phrase(self) -> &'static str {
        match self {
            WorkKind::Article => "a journal article",
            WorkKind::ConferencePaper => "a conference paper",
            WorkKind::Preprint => "a preprint",
            WorkKind::Book => "a book",
            WorkKind::Chapter => "a book chapter",
            WorkKind::EditedVolume => "an edited volume",
            WorkKind::Thesis => "a thesis",
            WorkKind::Report => "a report",
            WorkKind::Standard => "a standard",
            WorkKind::Rfc => "an RFC",
            WorkKind::Patent => "a patent",
            WorkKind::Software => "software",
            WorkKind::Dataset => "a dataset",
            WorkKind::WebPage => "a web page",
            WorkKind::Legal => "a legal text",
            WorkKind::Talk => "a talk",
            WorkKind::Other => "a work of another kind",
        }
    }

    pub fn parse(name: &str) -> Option<WorkKind> {
        let wanted = name.trim().to_ascii_lowercase().replace(['-', ' '], "_");
        WorkKind::ALL.into_iter().find(|k| k.as_str() == wanted)
    }
}

impl std::fmt::Display for WorkKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A package registry whose records are complete: a name it does not have was never
/// published there.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Registry {
    Pypi,
    Cran,
    Crates,
    Npm,
}

impl Registry {
    pub fn as_str(self) -> &'static str {
        match self {
            Registry::Pypi => "pypi",
            Registry::Cran => "cran",
            Registry::Crates => "crates",
            Registry::Npm => "npm",
        }
    }

    /// The registry as people name it (`PyPI`, `crates.io`).
    pub fn display(self) -> &'static str {
        match self {
            Registry::Pypi => "PyPI",
            Registry::Cran => "CRAN",
            Registry::Crates => "crates.io",
            Registry::Npm => "npm",
        }
    }
}

/// A package as a reference names it.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct PackageRef {
    pub registry: Registry,
    pub name: String,
}

impl RefFields {
    /// The work these fields describe, as a record from `source`: the title is the
    /// caller's (each source cleans or requires it its own way).
    pub fn to_work(&self, source: &str, title: String) -> Work {
        Work {
            source: source.into(),
            title,
            authors: self.authors.clone(),
            year: self.year,
            venue: self.venue.clone(),
            doi: self.doi.clone(),
            arxiv: self.arxiv.clone(),
            pmid: self.pmid.clone(),
            pmcid: self.pmcid.clone(),
            url: self.url.clone(),
            ..Work::default()
        }
    }

    /// The field that holds an identifier of `scheme`.
    pub fn identifier_mut(&mut self, scheme: IdScheme) -> &mut Option<String> {
        match scheme {
            IdScheme::Doi => &mut self.doi,
            IdScheme::Arxiv => &mut self.arxiv,
            IdScheme::Pmid => &mut self.pmid,
            IdScheme::Pmcid => &mut self.pmcid,
            IdScheme::Isbn => &mut self.isbn,
            IdScheme::Url => &mut self.url,
        }
    }
}

/// A bibliography entry or reference-list item.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Reference {
    /// Bib key, list number (`3`), footnote label, tag name or inline identifier.
    pub key: String,
    pub origin: ReferenceOrigin,
    /// BibTeX entry type (`article`) where there is one.
    pub entry_type: Option<String>,
    pub file: FileId,
    /// Bytes of the whole entry or item.
    pub span: Span,
    /// Bytes of the key or number, where written.
    pub key_span: Option<Span>,
    /// The entry or item as written.
    pub raw: String,
    pub fields: RefFields,
    /// Where each BibTeX field is written, so fixes can replace exactly one value.
    pub field_spans: Vec<FieldSpan>,
}

/// Where one field of a BibTeX entry is written.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FieldSpan {
    /// Lowercase field name.
    pub name: String,
    /// The value inside its delimiters (`{…}` or `"…"`), or the bare value/macro.
    pub value: Span,
    /// The whole `name = value` text, without the separating comma.
    pub whole: Span,
}

impl Reference {
    pub fn field_span(&self, name: &str) -> Option<&FieldSpan> {
        self.field_spans.iter().find(|f| f.name == name)
    }

    /// The reference's content apart from where it is written: its fields, its
    /// text as written and its origin. A resolution query is built from these
    /// alone (`RefQuery::from_reference`), so equal keys make equal queries.
    pub fn content_key(&self) -> u64 {
        use std::hash::{DefaultHasher, Hash, Hasher};
        let mut hasher = DefaultHasher::new();
        self.fields.hash(&mut hasher);
        self.raw.hash(&mut hasher);
        self.origin.hash(&mut hasher);
        hasher.finish()
    }
}

/// The sentence that carries one or more citations.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Claim {
    pub file: FileId,
    /// Bytes of the sentence in the file, citation markers included.
    pub span: Span,
    /// The sentence with citation markers removed and whitespace collapsed.
    pub text: String,
}

/// What a suppression comment asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SuppressionKind {
    /// `ignore[…]`: the comment's line and the next one.
    Ignore,
    /// `disable[…]`: from here until a matching `enable[…]` or the end of the file.
    Disable,
    /// `enable[…]`: ends a `disable[…]` range.
    Enable,
}

/// One suppression comment, as parsed; applied by `crate::suppress`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Suppression {
    pub file: FileId,
    /// Bytes of the comment.
    pub span: Span,
    pub kind: SuppressionKind,
    /// Rule codes or names as written; empty means every rule.
    pub rules: Vec<String>,
}

/// A bibliography file a document asks for (`bibliography:`, `\bibliography{}`,
/// `\addbibresource{}`, command line).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BibliographyRequest {
    /// The path as written, relative to the requesting file's directory.
    pub path: String,
    /// Where the request was written (`None` for command-line files).
    pub at: Option<(FileId, Span)>,
}

/// A work as a scholarly source (or a local corpus) records it.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Work {
    /// Which source answered (`crossref`, `openalex`, `corpus`, …).
    pub source: String,
    pub title: String,
    pub authors: Vec<Person>,
    pub year: Option<i32>,
    pub venue: Option<String>,
    pub work_type: Option<String>,
    pub doi: Option<String>,
    pub arxiv: Option<String>,
    pub pmid: Option<String>,
    pub pmcid: Option<String>,
    pub url: Option<String>,
    #[serde(rename = "abstract")]
    pub abstract_text: Option<String>,
    pub is_retracted: bool,
    /// An expression of concern is attached to the record.
    pub has_concern: bool,
    pub oa_url: Option<String>,
    /// Other years the record gives the work besides `year` (online first, print,
    /// issue): an online-first article cited by its print year is cited rightly.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub other_years: Vec<i32>,
    /// The record's author list is cut short (OpenAlex `is_authors_truncated`, a
    /// closing "et al." or "others", a list at a source's cap): cited names beyond it
    /// may be right.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub authors_truncated: bool,
    /// The ISBNs of a book's edition (Open Library).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub isbn: Vec<String>,
    /// A package's releases, each with the year it was published (package registries).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub releases: Vec<Release>,
    /// A submission a review platform (OpenReview) records as not accepted: the work
    /// exists, but not as a paper of the venue it was submitted to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_accepted: Option<NotAccepted>,
}

impl Work {
    /// Whether two records are the same work as far as judging a sentence goes (the
    /// same title, DOI and year): one work cited under two keys is never its own rival.
    pub fn same_record(&self, other: &Work) -> bool {
        self.record_identity() == other.record_identity()
    }

    /// What [`Self::same_record`] compares, to look records up by.
    pub fn record_identity(&self) -> (&str, Option<&str>, Option<i32>) {
        (&self.title, self.doi.as_deref(), self.year)
    }
}

/// What became of a submission that a venue did not accept.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NotAccepted {
    pub outcome: SubmissionOutcome,
    /// The venue it was submitted to, as the platform names it (`ICLR 2025`).
    pub submitted_to: String,
}

/// A submission's end when it was not accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SubmissionOutcome {
    Rejected,
    DeskRejected,
    Withdrawn,
    /// Submitted, with no decision yet.
    UnderReview,
}

impl SubmissionOutcome {
    pub fn describe(self) -> &'static str {
        match self {
            SubmissionOutcome::Rejected => "a rejected submission",
            SubmissionOutcome::DeskRejected => "a desk-rejected submission",
            SubmissionOutcome::Withdrawn => "a withdrawn submission",
            SubmissionOutcome::UnderReview => "a submission under review",
        }
    }
}

/// One published version of a package.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Release {
    pub version: String,
    pub year: Option<i32>,
}

/// What kind of error a mismatch is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MismatchKind {
    /// The title is close to the record's but content words differ.
    NearMissTitle,
    SwappedAuthors,
    PartialAuthorList,
    PlaceholderAuthors,
    UnknownAuthors,
    WrongYear,
    WrongVenue,
    /// The cited identifier is not the record's.
    WrongIdentifier,
    /// The cited identifier resolves to a different work than the cited title.
    IdentifierNamesAnotherWork,
    /// The registry never published the cited version.
    UnknownVersion,
}
