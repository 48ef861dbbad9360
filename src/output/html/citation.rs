//! One citation as an HTML card: marker and place, the claim, the reference as cited,
//! the resolved record with links, the verdict with its evidence, and the findings.

use quick_xml::escape::escape;

use super::{findings_list, severity_class};
use crate::diagnostic::Diagnostic;
use crate::document::Document;
use crate::model::{Citation, Person, RefFields, Reference, Work};
use crate::output::{Report, place_label};
use crate::resolve::outcome::Status;
use crate::verify::Relation;
use crate::verify::verdict::{Label, Stage};

/// Whether a finding is about this citation: on its marker, or on the reference it
/// points to.
pub fn concerns(d: &Diagnostic, citation: &Citation, reference: Option<&Reference>) -> bool {
    let on_citation = d.file == citation.file
        && (citation.group_span.covers(d.span)
            || citation.span.covers(d.span)
            || d.span.covers(citation.span));
    let on_reference = reference.is_some_and(|r| d.file == r.file && r.span.covers(d.span));
    on_citation || on_reference
}

/// `Smith, Lee and Park` / `Smith, Lee, Park et al.`
fn people(persons: &[Person], truncated: bool) -> String {
    let names: Vec<String> = persons
        .iter()
        .take(3)
        .map(|p| match &p.given {
            Some(g) => format!("{g} {}", p.family),
            None => p.family.clone(),
        })
        .collect();
    let mut out = names.join(", ");
    if persons.len() > 3 || truncated {
        out.push_str(" et al.");
    }
    out
}

/// `https://` links only: a record's text must not become a script or local link.
fn link(href: &str, text: &str) -> String {
    if href.starts_with("https://") || href.starts_with("http://") {
        format!("<a href=\"{}\">{}</a>", escape(href), escape(text))
    } else {
        escape(text).into_owned()
    }
}

/// Links for identifiers: DOI, arXiv, PubMed, PMC, URL, open-access copy.
fn id_links(
    doi: Option<&str>,
    arxiv: Option<&str>,
    pmid: Option<&str>,
    pmcid: Option<&str>,
    url: Option<&str>,
    oa_url: Option<&str>,
) -> String {
    let mut out = Vec::new();
    if let Some(doi) = doi {
        out.push(link(
            &format!("https://doi.org/{doi}"),
            &format!("doi:{doi}"),
        ));
    }
    if let Some(id) = arxiv {
        out.push(link(
            &format!("https://arxiv.org/abs/{id}"),
            &format!("arXiv:{id}"),
        ));
    }
    if let Some(id) = pmid {
        out.push(link(
            &format!("https://pubmed.ncbi.nlm.nih.gov/{id}/"),
            &format!("PMID {id}"),
        ));
    }
    if let Some(id) = pmcid {
        out.push(link(
            &format!("https://www.ncbi.nlm.nih.gov/pmc/articles/{id}/"),
            id,
        ));
    }
    if let Some(url) = url {
        out.push(link(url, url));
    }
    if let Some(url) = oa_url {
        out.push(link(url, "open-access copy"));
    }
    out.join(" · ")
}

/// `book`, `RFC 2119`, `software 1.3.2 (PyPI: scikit-learn)`.
fn kind_label(kind: crate::model::WorkKind, f: &RefFields) -> String {
    let mut label = kind
        .phrase()
        .trim_start_matches("a ")
        .trim_start_matches("an ")
        .to_string();
    if let Some(n) = &f.number {
        label.push_str(&format!(" {n}"));
    }
    if let Some(v) = &f.version {
        label.push_str(&format!(" {v}"));
    }
    if let Some(p) = &f.package {
        label.push_str(&format!(" ({}: {})", p.registry.display(), p.name));
    }
    escape(&label).into_owned()
}

fn cited_as(reference: &Reference) -> String {
    let f: &RefFields = &reference.fields;
    let mut parts = Vec::new();
    if let Some(title) = &f.title {
        parts.push(format!("<cite>{}</cite>", escape(title)));
    }
    let persons = if f.authors.is_empty() {
        &f.editors
    } else {
        &f.authors
    };
    if !persons.is_empty() {
        parts.push(escape(people(persons, f.authors_truncated)).into_owned());
    }
    if let Some(year) = f.year {
        parts.push(format!("({year})"));
    }
    if let Some(venue) = &f.venue {
        parts.push(escape(venue).into_owned());
    }
    if let Some(kind) = f.kind {
        parts.push(format!(
            "<span class=\"kind\">{}</span>",
            kind_label(kind, f)
        ));
    }
    if parts.is_empty() {
        let raw: String = reference.raw.chars().take(300).collect();
        parts.push(format!("<code>{}</code>", escape(raw.trim())));
    }
    let links = id_links(
        f.doi.as_deref(),
        f.arxiv.as_deref(),
        f.pmid.as_deref(),
        f.pmcid.as_deref(),
        f.url.as_deref(),
        None,
    );
    if !links.is_empty() {
        parts.push(links);
    }
    format!(
        "<code>{}</code> — {}",
        escape(&reference.key),
        sentences(&parts)
    )
}

/// The parts joined by ". ", except after a part whose text already ends a sentence
/// (`et al.`, an abbreviated venue, a title ending in `?`): no doubled period.
fn sentences(parts: &[String]) -> String {
    let mut out = String::new();
    for part in parts {
        if !out.is_empty() {
            let mut text = out.trim_end();
            // The visible end: past closing tags such as `</cite>`.
            while text.ends_with('>') {
                match text.rfind("</") {
                    Some(i) => text = text[..i].trim_end(),
                    None => break,
                }
            }
            out.push_str(if text.ends_with(['.', '?', '!']) {
                " "
            } else {
                ". "
            });
        }
        out.push_str(part);
    }
    out
}

fn record(work: &Work) -> String {
    let mut parts = vec![format!("<cite>{}</cite>", escape(&work.title))];
    if !work.authors.is_empty() {
        parts.push(escape(people(&work.authors, false)).into_owned());
    }
    if let Some(year) = work.year {
        parts.push(format!("({year})"));
    }
    if let Some(venue) = &work.venue {
        parts.push(escape(venue).into_owned());
    }
    if work.is_retracted {
        parts.push("<span class=\"badge bad\">retracted</span>".into());
    }
    if work.has_concern {
        parts.push("<span class=\"badge doubt\">expression of concern</span>".into());
    }
    let links = id_links(
        work.doi.as_deref(),
        work.arxiv.as_deref(),
        work.pmid.as_deref(),
        work.pmcid.as_deref(),
        work.url.as_deref(),
        work.oa_url.as_deref(),
    );
    if !links.is_empty() {
        parts.push(links);
    }
    if !work.source.is_empty() {
        parts.push(format!("source: {}", escape(&work.source)));
    }
    sentences(&parts)
}

fn status_badge(status: Status) -> String {
    let (text, class) = match status {
        Status::Verified => ("verified", "good"),
        Status::Miscited => ("miscited", "doubt"),
        Status::NotFound => ("not found", "bad"),
        Status::Retracted => ("retracted", "bad"),
        Status::Unverified => ("unverified", "neutral"),
        Status::NotIndexed => ("not indexed", "neutral"),
    };
    format!("<span class=\"badge {class}\">{text}</span>")
}

fn label_badge(label: Label) -> String {
    let class = match label {
        Label::Supports => "good",
        Label::Contradicts => "bad",
        Label::NotEnoughInfo => "doubt",
        Label::Unverifiable => "neutral",
    };
    format!("<span class=\"badge {class}\">{}</span>", label.as_str())
}

fn relation_badge(relation: Relation) -> String {
    let class = match relation {
        Relation::Related => "good",
        Relation::Unrelated => "bad",
        Relation::Uncertain => "neutral",
    };
    format!("<span class=\"badge {class}\">{}</span>", relation.as_str())
}

/// The card of one citation of `doc`.
pub fn card(report: &Report, doc: &Document, citation: &Citation, out: &mut String) {
    let sources = report.sources();
    let reference = citation.reference.map(|r| &doc.references[r]);
    let findings: Vec<&Diagnostic> = report
        .diagnostics
        .iter()
        .filter(|d| concerns(d, citation, reference))
        .collect();
    let worst = findings.iter().map(|d| d.severity).max();
    let ref_facts = reference.and_then(|r| report.facts.reference(r));
    let cite_facts = report.facts.citation(citation);
    let mut head = vec![
        format!(
            "<span class=\"marker mono\">{}</span>",
            escape(&citation.key)
        ),
        format!(
            "<span class=\"where\">{}</span>",
            escape(place_label(sources, citation.file, citation.span))
        ),
    ];
    if let Some(facts) = ref_facts {
        head.push(status_badge(facts.status));
    }
    if let Some(verdict) = cite_facts.and_then(|f| f.verdict.as_ref()) {
        head.push(label_badge(verdict.label));
    } else if let Some(relation) = cite_facts.and_then(|f| f.relation) {
        head.push(relation_badge(relation));
    }
    out.push_str(&format!(
        "<article class=\"citation {}\">\n<div class=\"head\">{}</div>\n",
        worst.map(severity_class).unwrap_or("sev-none"),
        head.join(" ")
    ));
    match citation.claim.and_then(|c| doc.claims.get(c)) {
        Some(claim) => out.push_str(&format!(
            "<blockquote class=\"claim\">{}</blockquote>\n",
            escape(&claim.text)
        )),
        None => out.push_str("<p class=\"none\">Not in a sentence (no claim).</p>\n"),
    }
    out.push_str("<dl>\n<dt>Cited reference</dt><dd>");
    match reference {
        Some(r) => out.push_str(&cited_as(r)),
        None => out.push_str("<span class=\"none\">no entry in the bibliography</span>"),
    }
    out.push_str("</dd>\n<dt>Resolved record</dt><dd>");
    let work = ref_facts
        .and_then(|f| f.record.as_deref())
        .or_else(|| findings.iter().find_map(|d| d.record.as_deref()));
    match (work, ref_facts) {
        (Some(w), _) => out.push_str(&record(w)),
        (None, Some(f)) => out.push_str(&format!(
            "<span class=\"none\">no record{}</span>",
            f.note
                .as_deref()
                .map(|n| format!(": {}", escape(n)))
                .unwrap_or_default()
        )),
        (None, None) => out.push_str("<span class=\"none\">not resolved in this run</span>"),
    }
    if let Some(note) = ref_facts
        .and_then(|f| f.note.as_deref())
        .filter(|_| work.is_some())
    {
        out.push_str(&format!(" <span class=\"where\">({})</span>", escape(note)));
    }
    out.push_str("</dd>\n<dt>Verdict</dt><dd>");
    match cite_facts.and_then(|f| f.verdict.as_ref()) {
        Some(v) => {
            let stage = match v.stage {
                Stage::Abstract => "on the abstract",
                Stage::FullText => "on the full text",
            };
            out.push_str(&format!("{} {stage}", label_badge(v.label)));
            if let Some(model) = &v.model {
                out.push_str(&format!(" by <code>{}</code>", escape(model)));
            }
            if let Some(c) = v.confidence {
                out.push_str(&format!(", confidence {c:.2}"));
            }
            out.push_str(&format!(": {}", escape(&v.rationale)));
            out.push_str("</dd>\n<dt>Evidence</dt><dd>");
            match (&v.evidence, &v.passage) {
                (Some(quote), passage) => {
                    out.push_str(&format!("<q class=\"evidence\">{}</q>", escape(quote)));
                    if let Some(p) = passage {
                        let section = p.section.as_deref().unwrap_or("full text");
                        out.push_str(&format!(
                            " — {}, {}",
                            escape(section),
                            link(&p.source, &p.source)
                        ));
                    }
                }
                (None, Some(p)) => out.push_str(&format!(
                    "closest passage: <q class=\"evidence\">{}</q> — {}",
                    escape(&p.text),
                    link(&p.source, &p.source)
                )),
                (None, None) => out.push_str("<span class=\"none\">no quote</span>"),
            }
        }
        None => match cite_facts.and_then(|f| f.relation) {
            Some(r) => out.push_str(&format!(
                "{} (embedded offline backend: relatedness only)",
                relation_badge(r)
            )),
            None => out.push_str("<span class=\"none\">not verified in this run</span>"),
        },
    }
    out.push_str("</dd>\n</dl>\n");
    if !findings.is_empty() {
        findings_list(report, &findings, out);
    }
    out.push_str("</article>\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_author_list_ending_in_et_al_gets_one_period() {
        let persons: Vec<Person> = ["Ada", "Ben", "Cy", "Di"]
            .iter()
            .map(|f| Person::new(None, f))
            .collect();
        let work = Work {
            source: "crossref".into(),
            title: "Does sleep help?".into(),
            authors: persons,
            year: Some(2020),
            venue: Some("Proc. Natl. Acad. Sci.".into()),
            ..Work::default()
        };
        let html = record(&work);
        assert!(html.contains("Ada, Ben, Cy et al. (2020)"), "{html}");
        assert!(html.contains("<cite>Does sleep help?</cite> Ada"), "{html}");
        assert!(html.contains("Acad. Sci. source: crossref"), "{html}");
        assert!(!html.contains(".."), "{html}");
        let plain = sentences(&["A".to_string(), "B".to_string()]);
        assert_eq!(plain, "A. B");
    }
}
