//! PubMed through NCBI E-utilities: `esearch` (by DOI `"…"[doi]` or by title
//! `…[Title]`), `efetch` with id lists (full PubmedArticle records: abstracts with
//! section labels, "Retracted Publication", RetractionIn / ExpressionOfConcernIn), and
//! `esummary` as a fallback when an efetch answer cannot be read. `api_key`, `email` and
//! `tool` are sent when configured.

use futures::future::join_all;

use super::json::{body_is_html, snippet, status_error};
use super::text::{finish, medline_name, person, year_in};
use super::xml::{self, Element};
use super::{
    BatchResult, ChunkAnswers, Endpoint, Lookup, LookupResult, SourceError, SourceSettings,
    doi_key, fail_all, in_order, match_ids,
};
use crate::model::{Person, Work};
use crate::net::{HttpReply, HttpRequest, Net};

/// PMIDs per efetch request.
pub const DEFAULT_FETCH_BATCH: usize = 200;
/// DOIs OR-ed into one esearch term.
pub const DEFAULT_SEARCH_BATCH: usize = 20;

#[derive(Debug, Clone)]
pub struct PubmedClient {
    ep: Endpoint,
    pub fetch_batch: usize,
    pub search_batch: usize,
}

impl PubmedClient {
    pub fn new(net: &Net, settings: SourceSettings) -> PubmedClient {
        PubmedClient {
            ep: Endpoint::new(net, settings),
            fetch_batch: DEFAULT_FETCH_BATCH,
            search_batch: DEFAULT_SEARCH_BATCH,
        }
    }

    pub fn settings(&self) -> &SourceSettings {
        &self.ep.settings
    }

    async fn get(&self, tool: &str, query: &[(&str, &str)]) -> Result<HttpReply, SourceError> {
        let mut query = query.to_vec();
        query.push(("tool", "citeproof"));
        if let Some(mailto) = &self.ep.settings.mailto {
            query.push(("email", mailto));
        }
        if let Some(key) = &self.ep.settings.api_key {
            query.push(("api_key", key));
        }
        let url = self
            .ep
            .url(&format!("/entrez/eutils/{tool}.fcgi"), &query)?;
        self.ep.send(HttpRequest::get(url)).await
    }

    /// `esearch.fcgi?db=pubmed&term=…&retmode=xml&retmax=…`: the matching PMIDs.
    pub async fn esearch(&self, term: &str, retmax: usize) -> Result<Vec<String>, SourceError> {
        let retmax = retmax.clamp(1, 10_000).to_string();
        let reply = self
            .get(
                "esearch",
                &[
                    ("db", "pubmed"),
                    ("term", term),
                    ("retmode", "xml"),
                    ("retmax", &retmax),
                ],
            )
            .await?;
        parse_esearch(&reply)
    }

    /// `efetch.fcgi?db=pubmed&id=a,b&retmode=xml` for some PMIDs, falling back to
    /// `esummary` for a chunk whose efetch answer is unreadable.
    pub async fn lookup_pmids(&self, pmids: &[String]) -> BatchResult {
        let chunks: Vec<Vec<&String>> = pmids
            .chunks(self.fetch_batch.max(1))
            .map(|c| c.iter().collect())
            .collect();
        let answers = join_all(chunks.into_iter().map(|c| self.pmid_chunk(c))).await;
        in_order(pmids, answers)
    }

    async fn pmid_chunk(&self, chunk: Vec<&String>) -> ChunkAnswers {
        let ids: Vec<String> = chunk.iter().map(|s| s.to_string()).collect();
        let outcome = match self.efetch(&ids).await {
            Err(SourceError::Malformed(_) | SourceError::Api(_)) => self.esummary(&ids).await,
            other => other,
        };
        let pmid_key = |p: &str| p.trim().trim_start_matches('0').to_string();
        match outcome {
            Ok(works) => match_ids(&chunk, works, pmid_key, |w| w.pmid.clone()),
            Err(e) => fail_all(&chunk, &e),
        }
    }

    pub async fn lookup_pmid(&self, pmid: &str) -> LookupResult {
        let mut batch = self.lookup_pmids(&[pmid.to_string()]).await;
        batch.pop().map(|(_, r)| r).unwrap_or(Ok(Lookup::NotFound))
    }

    /// Full records for some PMIDs (`efetch`).
    pub async fn efetch(&self, pmids: &[String]) -> Result<Vec<Work>, SourceError> {
        let ids = pmids.join(",");
        let reply = self
            .get(
                "efetch",
                &[("db", "pubmed"), ("id", &ids), ("retmode", "xml")],
            )
            .await?;
        parse_efetch(&reply)
    }

    /// Summaries for some PMIDs (`esummary`): no abstracts, fewer fields.
    pub async fn esummary(&self, pmids: &[String]) -> Result<Vec<Work>, SourceError> {
        let ids = pmids.join(",");
        let reply = self
            .get(
                "esummary",
                &[("db", "pubmed"), ("id", &ids), ("retmode", "xml")],
            )
            .await?;
        parse_esummary(&reply)
    }

    /// Records for DOIs: one esearch per [`Self::search_batch`] DOIs (`"a"[doi] OR
    /// "b"[doi]`), then efetch, matched back by DOI.
    pub async fn lookup_dois(&self, dois: &[String]) -> BatchResult {
        let chunks: Vec<Vec<&String>> = dois
            .chunks(self.search_batch.max(1))
            .map(|c| c.iter().collect())
            .collect();
        let answers = join_all(chunks.into_iter().map(|c| self.doi_chunk(c))).await;
        in_order(dois, answers)
    }

    async fn doi_chunk(&self, chunk: Vec<&String>) -> ChunkAnswers {
        let term = chunk
            .iter()
            .map(|d| format!("\"{}\"[doi]", d.replace('"', "")))
            .collect::<Vec<_>>()
            .join(" OR ");
        let outcome = async {
            let pmids = self.esearch(&term, chunk.len() * 2).await?;
            if pmids.is_empty() {
                return Ok(Vec::new());
            }
            self.efetch(&pmids).await
        }
        .await;
        match outcome {
            // PubMed matched the one DOI asked to one record that does not list it
            // (the DOI sits elsewhere in the record): that record is the answer.
            Ok(works) if chunk.len() == 1 && works.len() == 1 && works[0].doi.is_none() => {
                vec![(chunk[0].clone(), Ok(Lookup::Found(works[0].clone())))]
            }
            Ok(works) => match_ids(&chunk, works, doi_key, |w| w.doi.clone()),
            Err(e) => fail_all(&chunk, &e),
        }
    }

    pub async fn lookup_doi(&self, doi: &str) -> LookupResult {
        let mut batch = self.lookup_dois(&[doi.to_string()]).await;
        batch.pop().map(|(_, r)| r).unwrap_or(Ok(Lookup::NotFound))
    }

    /// Title search: `esearch` with `{title}[Title]`, then efetch of the hits.
    pub async fn search_title(&self, title: &str, max: usize) -> Result<Vec<Work>, SourceError> {
        let words: String = title
            .chars()
            .map(|c| {
                if c.is_alphanumeric() || c == '-' {
                    c
                } else {
                    ' '
                }
            })
            .collect();
        let term = format!("{}[Title]", super::text::collapse_whitespace(&words));
        let pmids = self.esearch(&term, max).await?;
        if pmids.is_empty() {
            return Ok(Vec::new());
        }
        self.efetch(&pmids).await
    }
}

fn parse_xml(reply: &HttpReply, what: &str) -> Result<Element, SourceError> {
    if body_is_html(&reply.body) {
        return Err(SourceError::Malformed(format!(
            "HTML page instead of {what} XML (HTTP {}): {}",
            reply.status,
            snippet(&reply.body)
        )));
    }
    if reply.status != 200 {
        return Err(status_error(reply));
    }
    xml::parse(&reply.body).map_err(|e| SourceError::Malformed(format!("{what}: {e}")))
}

fn api_error(root: &Element) -> Option<SourceError> {
    root.child_text("ERROR").map(SourceError::Api)
}

/// An `eSearchResult`: the PMIDs found (none is a valid answer).
pub fn parse_esearch(reply: &HttpReply) -> Result<Vec<String>, SourceError> {
    let root = parse_xml(reply, "esearch")?;
    if root.name != "eSearchResult" {
        return Err(SourceError::Malformed(format!(
            "expected eSearchResult, got <{}>",
            root.name
        )));
    }
    if let Some(e) = api_error(&root) {
        return Err(e);
    }
    Ok(root
        .child("IdList")
        .map(|l| {
            l.children_named("Id")
                .map(Element::text)
                .filter(|t| !t.is_empty())
                .collect()
        })
        .unwrap_or_default())
}

/// A `PubmedArticleSet` (efetch): one work per article.
pub fn parse_efetch(reply: &HttpReply) -> Result<Vec<Work>, SourceError> {
    let root = parse_xml(reply, "efetch")?;
    if let Some(e) = api_error(&root) {
        return Err(e);
    }
    if root.name != "PubmedArticleSet" {
        return Err(SourceError::Malformed(format!(
            "expected PubmedArticleSet, got <{}>",
            root.name
        )));
    }
    Ok(root
        .elements()
        .filter_map(|e| match e.name.as_str() {
            "PubmedArticle" => Some(work_from_article(e)),
            "PubmedBookArticle" => Some(work_from_book(e)),
            _ => None,
        })
        .collect())
}

/// An `eSummaryResult` (esummary, version 1 DocSums).
pub fn parse_esummary(reply: &HttpReply) -> Result<Vec<Work>, SourceError> {
    let root = parse_xml(reply, "esummary")?;
    if root.name != "eSummaryResult" {
        return Err(SourceError::Malformed(format!(
            "expected eSummaryResult, got <{}>",
            root.name
        )));
    }
    if let Some(e) = api_error(&root) {
        return Err(e);
    }
    Ok(root
        .children_named("DocSum")
        .map(work_from_docsum)
        .collect())
}

fn authors_of(list: Option<&Element>) -> Vec<Person> {
    list.map(|l| {
        l.children_named("Author")
            .filter_map(|a| {
                let given = a
                    .child_text("ForeName")
                    .or_else(|| a.child_text("Initials"));
                let family = a.child_text("LastName");
                let collective = a.child_text("CollectiveName");
                match family {
                    Some(family) => person(given.as_deref(), Some(&family), None),
                    None => collective.map(|c| Person::new(None, &c)),
                }
            })
            .collect()
    })
    .unwrap_or_default()
}

fn article_ids(list: Option<&Element>, kind: &str) -> Option<String> {
    list?
        .children_named("ArticleId")
        .find(|id| id.attr("IdType") == Some(kind))
        .map(Element::text)
        .filter(|t| !t.is_empty())
}

fn abstract_of(abs: Option<&Element>) -> Option<String> {
    let parts: Vec<String> = abs?
        .children_named("AbstractText")
        .map(|t| match t.attr("Label").filter(|l| !l.trim().is_empty()) {
            Some(label) => format!("{label}: {}", t.text()),
            None => t.text(),
        })
        .filter(|t| !t.is_empty())
        .collect();
    (!parts.is_empty()).then(|| parts.join(" "))
}

/// Retraction and concern flags from publication types and comments/corrections.
fn flags(work: &mut Work, pub_types: &[String], corrections: Option<&Element>) {
    if pub_types
        .iter()
        .any(|t| t.eq_ignore_ascii_case("Retracted Publication"))
    {
        work.is_retracted = true;
    }
    for c in corrections
        .into_iter()
        .flat_map(|c| c.children_named("CommentsCorrections"))
    {
        match c.attr("RefType") {
            Some("RetractionIn" | "RetractedandRepublishedIn") => work.is_retracted = true,
            Some("ExpressionOfConcernIn") => work.has_concern = true,
            _ => {}
        }
    }
}

fn pubmed_url(pmid: &Option<String>) -> Option<String> {
    pmid.as_ref()
        .map(|p| format!("https://pubmed.ncbi.nlm.nih.gov/{p}/"))
}

/// A `PubmedArticle` as a [`Work`].
pub fn work_from_article(article: &Element) -> Work {
    let citation = article.child("MedlineCitation");
    let art = citation.and_then(|c| c.child("Article"));
    let pubmed_ids = article.path(&["PubmedData", "ArticleIdList"]);
    let pmid = citation.and_then(|c| c.child_text("PMID"));
    let year = art
        .and_then(|a| a.path(&["Journal", "JournalIssue", "PubDate"]))
        .and_then(|d| d.child_text("Year").or_else(|| d.child_text("MedlineDate")))
        .and_then(|y| year_in(&y))
        .or_else(|| {
            art.and_then(|a| a.path(&["ArticleDate", "Year"]))
                .and_then(|y| year_in(&y.text()))
        });
    let elocation_doi = art.and_then(|a| {
        a.children_named("ELocationID")
            .find(|e| e.attr("EIdType") == Some("doi"))
            .map(Element::text)
    });
    let pub_types: Vec<String> = art
        .and_then(|a| a.child("PublicationTypeList"))
        .map(|l| {
            l.children_named("PublicationType")
                .map(Element::text)
                .collect()
        })
        .unwrap_or_default();
    let title = art
        .and_then(|a| {
            a.child_text("ArticleTitle")
                .or_else(|| a.child_text("VernacularTitle"))
        })
        .unwrap_or_default();
    // The issue's date first; the electronic date of an article online before its
    // issue is a year the work is rightly cited by too.
    let electronic = art
        .and_then(|a| a.path(&["ArticleDate", "Year"]))
        .and_then(|y| year_in(&y.text()));
    let mut work = Work {
        source: "pubmed".to_string(),
        title,
        authors: authors_of(art.and_then(|a| a.child("AuthorList"))),
        year,
        other_years: electronic.into_iter().collect(),
        venue: art
            .and_then(|a| a.path(&["Journal", "Title"]))
            .map(Element::text),
        work_type: pub_types.first().cloned(),
        doi: article_ids(pubmed_ids, "doi").or(elocation_doi),
        pmcid: article_ids(pubmed_ids, "pmc"),
        url: pubmed_url(&pmid),
        pmid,
        abstract_text: abstract_of(art.and_then(|a| a.child("Abstract"))),
        ..Work::default()
    };
    flags(
        &mut work,
        &pub_types,
        citation.and_then(|c| c.child("CommentsCorrectionsList")),
    );
    finish(work)
}

/// A `PubmedBookArticle` (NCBI Bookshelf chapter or book) as a [`Work`].
pub fn work_from_book(article: &Element) -> Work {
    let doc = article.child("BookDocument");
    let book = doc.and_then(|d| d.child("Book"));
    let pmid = doc.and_then(|d| d.child_text("PMID"));
    let book_title = book.and_then(|b| b.child_text("BookTitle"));
    let chapter_title = doc.and_then(|d| d.child_text("ArticleTitle"));
    let pub_types: Vec<String> = doc
        .and_then(|d| d.child("PublicationType"))
        .map(|t| vec![t.text()])
        .unwrap_or_default();
    let mut authors = authors_of(doc.and_then(|d| d.child("AuthorList")));
    if authors.is_empty() {
        authors = authors_of(book.and_then(|b| b.child("AuthorList")));
    }
    let ids = doc.and_then(|d| d.child("ArticleIdList"));
    let mut work = Work {
        source: "pubmed".to_string(),
        title: chapter_title
            .clone()
            .or(book_title.clone())
            .unwrap_or_default(),
        authors,
        year: book
            .and_then(|b| b.path(&["PubDate", "Year"]))
            .and_then(|y| year_in(&y.text())),
        venue: if chapter_title.is_some() {
            book_title
        } else {
            book.and_then(|b| b.path(&["Publisher", "PublisherName"]))
                .map(Element::text)
        },
        work_type: Some("Book".to_string()),
        doi: article_ids(ids, "doi"),
        pmcid: article_ids(ids, "pmc"),
        url: pubmed_url(&pmid),
        pmid,
        abstract_text: abstract_of(doc.and_then(|d| d.child("Abstract"))),
        ..Work::default()
    };
    flags(
        &mut work,
        &pub_types,
        doc.and_then(|d| d.child("CommentsCorrectionsList")),
    );
    finish(work)
}

/// An esummary `DocSum` as a [`Work`].
pub fn work_from_docsum(doc: &Element) -> Work {
    let item = |name: &str| {
        doc.children_named("Item")
            .find(|i| i.attr("Name") == Some(name))
    };
    let item_text = |name: &str| item(name).map(Element::text).filter(|t| !t.is_empty());
    let sub_items = |name: &str| -> Vec<(String, String)> {
        item(name)
            .map(|l| {
                l.children_named("Item")
                    .map(|i| (i.attr("Name").unwrap_or_default().to_string(), i.text()))
                    .collect()
            })
            .unwrap_or_default()
    };
    let ids = sub_items("ArticleIds");
    let id_of = |kind: &str| ids.iter().find(|(k, _)| k == kind).map(|(_, v)| v.clone());
    let pub_types: Vec<String> = sub_items("PubTypeList")
        .into_iter()
        .map(|(_, v)| v)
        .collect();
    let pmid = doc.child_text("Id");
    let elocation_doi = item_text("ELocationID")
        .and_then(|e| e.split_once("doi:").map(|(_, d)| d.trim().to_string()));
    let mut work = Work {
        source: "pubmed".to_string(),
        title: item_text("Title").unwrap_or_default(),
        authors: sub_items("AuthorList")
            .iter()
            .map(|(_, a)| medline_name(a))
            .collect(),
        year: item_text("PubDate").and_then(|d| year_in(&d)),
        other_years: item_text("EPubDate")
            .and_then(|d| year_in(&d))
            .into_iter()
            .collect(),
        venue: item_text("FullJournalName").or_else(|| item_text("Source")),
        work_type: pub_types.first().cloned(),
        doi: id_of("doi").or(elocation_doi),
        pmcid: id_of("pmc"),
        url: pubmed_url(&pmid),
        pmid,
        ..Work::default()
    };
    flags(&mut work, &pub_types, None);
    finish(work)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn efetch(xml: &str) -> Vec<Work> {
        parse_efetch(&HttpReply::new(200, Some("text/xml"), xml)).unwrap()
    }

    #[test]
    fn retraction_flags_from_types_and_comments() {
        let works = efetch(
            r#"<PubmedArticleSet><PubmedArticle><MedlineCitation><PMID>1</PMID>
            <Article><ArticleTitle>A</ArticleTitle><PublicationTypeList><PublicationType>Retracted Publication</PublicationType></PublicationTypeList></Article>
            </MedlineCitation></PubmedArticle>
            <PubmedArticle><MedlineCitation><PMID>2</PMID><Article><ArticleTitle>B</ArticleTitle></Article>
            <CommentsCorrectionsList><CommentsCorrections RefType="ExpressionOfConcernIn"><RefSource>x</RefSource></CommentsCorrections></CommentsCorrectionsList>
            </MedlineCitation></PubmedArticle></PubmedArticleSet>"#,
        );
        assert!(works[0].is_retracted && !works[0].has_concern);
        assert!(!works[1].is_retracted && works[1].has_concern);
        assert_eq!(
            works[1].url.as_deref(),
            Some("https://pubmed.ncbi.nlm.nih.gov/2/")
        );
    }

    #[test]
    fn reference_list_ids_are_not_the_articles() {
        let works = efetch(
            r#"<PubmedArticleSet><PubmedArticle><MedlineCitation><PMID>3</PMID><Article><ArticleTitle>C</ArticleTitle></Article></MedlineCitation>
            <PubmedData><ArticleIdList><ArticleId IdType="pubmed">3</ArticleId></ArticleIdList>
            <ReferenceList><Reference><ArticleIdList><ArticleId IdType="doi">10.9/other</ArticleId></ArticleIdList></Reference></ReferenceList>
            </PubmedData></PubmedArticle></PubmedArticleSet>"#,
        );
        assert_eq!(works[0].doi, None);
    }

    #[test]
    fn error_documents_are_failures() {
        let reply = HttpReply::new(
            200,
            Some("text/xml"),
            "<eFetchResult><ERROR>Empty id list</ERROR></eFetchResult>",
        );
        assert!(matches!(parse_efetch(&reply), Err(SourceError::Api(_))));
    }
}
