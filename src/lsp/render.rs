//! Markdown for the editor: a bibliography entry as written, what resolution
//! learned about it (the record with its links, the status and why, a retraction),
//! and the verdict on a claim with its quote or passage. Hover and completion
//! documentation show the same text.

use std::fmt::Write as _;

use crate::load::Project;
use crate::model::{IdScheme, Person, RefFields, Reference, Work};
use crate::report::{CitationFacts, ReferenceFacts};
use crate::resolve::outcome::Status;
use crate::verify::Relation;
use crate::verify::verdict::Label;

use super::view::View;

/// Longest quote or passage shown.
const MAX_QUOTE: usize = 600;

/// Text with Markdown's punctuation escaped, on one line.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' | '`' | '*' | '_' | '{' | '}' | '[' | ']' | '<' | '>' | '(' | ')' | '#' | '|'
            | '!' | '~' => {
                out.push('\\');
                out.push(c);
            }
            '\n' | '\r' | '\t' => out.push(' '),
            _ => out.push(c),
        }
    }
    out
}

/// `He, Zhang, Ren et al.`: family names, for one line of a completion list.
pub fn families(persons: &[Person], truncated: bool) -> String {
    let mut out: Vec<&str> = persons.iter().take(3).map(|p| p.family.as_str()).collect();
    if persons.len() > 3 || truncated {
        out.push("et al.");
    }
    match out.len() {
        0 => String::new(),
        _ => out.join(", ").replace(", et al.", " et al."),
    }
}

/// `Kaiming He, Xiangyu Zhang, …`: up to six names in full.
fn full_names(persons: &[Person], truncated: bool) -> String {
    let mut names: Vec<String> = persons
        .iter()
        .take(6)
        .map(|p| match &p.given {
            Some(given) => format!("{given} {}", p.family),
            None => p.family.clone(),
        })
        .collect();
    if persons.len() > 6 || truncated {
        names.push("et al.".into());
    }
    names.join(", ")
}

/// `[doi:10.1/x](https://doi.org/10.1/x) · [arXiv:…](…)`.
fn identifier_links(ids: &[(IdScheme, Option<&str>)]) -> String {
    ids.iter()
        .filter_map(|(scheme, value)| {
            let value = (*value)?;
            let shown = match scheme {
                IdScheme::Doi => format!("doi:{value}"),
                IdScheme::Arxiv => format!("arXiv:{value}"),
                IdScheme::Pmid => format!("PMID {value}"),
                _ => value.to_string(),
            };
            Some(match scheme.landing_url(value) {
                Some(url) if url.starts_with("https://") || url.starts_with("http://") => {
                    format!("[{}](<{}>)", escape(&shown), url.replace('>', "%3E"))
                }
                _ => escape(&shown),
            })
        })
        .collect::<Vec<_>>()
        .join(" · ")
}

/// One identifier as a link to its landing page.
pub fn identifier_link(scheme: IdScheme, value: &str) -> String {
    identifier_links(&[(scheme, Some(value))])
}

/// An item of the user's Zotero library cited by `key`: title, authors, year,
/// venue, identifiers and the link that opens it in Zotero.
pub fn zotero_item(key: &str, item: &crate::zotero::Item) -> String {
    let mut out = format!(
        "**{}** · in your Zotero library · [open in Zotero](<{}>)\n\n",
        escape(key),
        item.uri()
    );
    if !item.title.is_empty() {
        out.push_str(&format!("*{}*\n\n", escape(&item.title)));
    }
    let mut line: Vec<String> = Vec::new();
    let names: Vec<String> = item
        .authors()
        .iter()
        .map(|c| match &c.given {
            Some(given) => format!("{given} {}", c.family),
            None => c.family.clone(),
        })
        .collect();
    if !names.is_empty() {
        line.push(names.join(", "));
    }
    if let Some(year) = item.year() {
        line.push(year.to_string());
    }
    if let Some(venue) = item.venue() {
        line.push(venue.to_string());
    }
    if !line.is_empty() {
        out.push_str(&format!("{}\n", escape(&line.join(" · "))));
    }
    let links = identifier_links(&[
        (IdScheme::Doi, item.field("DOI")),
        (IdScheme::Url, item.field("url")),
    ]);
    if !links.is_empty() {
        out.push_str(&format!("\n{links}\n"));
    }
    out
}

fn fields_links(f: &RefFields) -> String {
    identifier_links(&[
        (IdScheme::Doi, f.doi.as_deref()),
        (IdScheme::Arxiv, f.arxiv.as_deref()),
        (IdScheme::Pmid, f.pmid.as_deref()),
        (IdScheme::Pmcid, f.pmcid.as_deref()),
        (IdScheme::Url, f.url.as_deref()),
    ])
}

fn work_links(w: &Work) -> String {
    identifier_links(&[
        (IdScheme::Doi, w.doi.as_deref()),
        (IdScheme::Arxiv, w.arxiv.as_deref()),
        (IdScheme::Pmid, w.pmid.as_deref()),
        (IdScheme::Pmcid, w.pmcid.as_deref()),
        (IdScheme::Url, w.url.as_deref().or(w.oa_url.as_deref())),
    ])
}

/// A link to a place: `[refs.bib:12](file:///…/refs.bib#L12)`.
pub fn place_link(view: &View, project: &Project, file: crate::model::FileId, at: usize) -> String {
    let source = project.sources.get(file);
    let line = source.index.line_of(at) + 1;
    let name = source
        .path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| source.display_path());
    match view.uri_of(&source.path) {
        Some(uri) => format!("[{}:{line}](<{}#L{line}>)", escape(&name), uri.as_str()),
        None => format!("{}:{line}", escape(&name)),
    }
}

/// The entry as the document gives it.
pub fn entry(view: &View, project: &Project, reference: &Reference) -> String {
    let mut out = format!("**{}**", escape(&reference.key));
    if let Some(kind) = &reference.entry_type {
        let _ = write!(out, " · {}", escape(kind));
    }
    // The kind of work, where the entry type does not already say it (`misc`).
    if let Some(kind) = reference.fields.kind {
        let what = kind
            .phrase()
            .trim_start_matches("an ")
            .trim_start_matches("a ");
        let said = reference
            .entry_type
            .as_deref()
            .is_some_and(|t| t == kind.as_str() || what.ends_with(t));
        if !said {
            let mut what = what.to_string();
            if let Some(n) = &reference.fields.number {
                what.push_str(&format!(" {n}"));
            }
            let _ = write!(out, " · {}", escape(&what));
        }
    }
    let _ = writeln!(
        out,
        " · {}\n",
        place_link(view, project, reference.file, reference.span.start)
    );
    let f = &reference.fields;
    let mut lines = Vec::new();
    if let Some(title) = &f.title {
        lines.push(format!("*{}*", escape(title)));
    }
    let persons = if f.authors.is_empty() {
        &f.editors
    } else {
        &f.authors
    };
    let mut line = Vec::new();
    if !persons.is_empty() {
        line.push(escape(&full_names(persons, f.authors_truncated)));
    }
    if let Some(year) = f.year {
        line.push(year.to_string());
    }
    if let Some(venue) = &f.venue {
        line.push(escape(venue));
    }
    if !line.is_empty() {
        lines.push(line.join(" · "));
    }
    let links = fields_links(f);
    if !links.is_empty() {
        lines.push(links);
    }
    if lines.is_empty() {
        let raw: String = reference.raw.trim().chars().take(MAX_QUOTE).collect();
        let _ = writeln!(out, "```\n{}\n```", raw.replace("```", "'''"));
    } else {
        out.push_str(&lines.join("  \n"));
        out.push('\n');
    }
    out
}

fn status_text(status: Status) -> &'static str {
    match status {
        Status::Verified => "✅ **Verified**: the record matches the entry",
        Status::Miscited => {
            "⚠️ **Miscited**: the work exists, but the entry differs from its record"
        }
        Status::NotFound => "❌ **Not found**: no source has this work; it is likely fabricated",
        Status::Retracted => "❌ **Retracted**",
        Status::Unverified => "❔ **Unverified**: the work could not be checked",
        Status::NotIndexed => {
            "❔ **Not in the indexes of its kind**: no source asked has it, and they hold works of this kind only partly; not evidence of fabrication"
        }
    }
}

/// What resolution learned: status and why, the record, a retraction notice.
pub fn resolution(facts: Option<&ReferenceFacts>, resolve_off: bool) -> String {
    let Some(facts) = facts else {
        return if resolve_off {
            "*Not looked up: resolution is off (`citeproof.resolve`).*\n".into()
        } else {
            "*Not yet checked against the scholarly record.*\n".into()
        };
    };
    let mut out = String::from(status_text(facts.status));
    if let Some(note) = &facts.note {
        let _ = write!(out, " — {}", escape(note));
    }
    out.push('\n');
    let Some(work) = &facts.record else {
        return out;
    };
    if work.is_retracted {
        out.push_str(
            "\n> ❌ **Retraction notice**: the record of this work says it was retracted. \
             Cite it only to discuss the retraction.\n",
        );
    }
    if work.has_concern {
        out.push_str(
            "\n> ⚠️ **Expression of concern**: the publisher doubts the results of this work.\n",
        );
    }
    let mut record = vec![format!("*{}*", escape(&work.title))];
    let mut line = Vec::new();
    if !work.authors.is_empty() {
        line.push(escape(&full_names(&work.authors, false)));
    }
    if let Some(year) = work.year {
        line.push(year.to_string());
    }
    if let Some(venue) = &work.venue {
        line.push(escape(venue));
    }
    if !line.is_empty() {
        record.push(line.join(" · "));
    }
    let links = work_links(work);
    if !links.is_empty() {
        record.push(links);
    }
    let source = if work.source.is_empty() {
        String::new()
    } else {
        format!(" ({})", escape(&work.source))
    };
    let _ = write!(out, "\n**Record**{source}: {}\n", record.join("  \n"));
    out
}

fn quote(text: &str) -> String {
    let mut short: String = text.trim().chars().take(MAX_QUOTE).collect();
    if short.len() < text.trim().len() {
        short.push('…');
    }
    format!("> {}\n", escape(&short))
}

/// The verdict on the claim that carries a citation, with its evidence.
pub fn verification(facts: &CitationFacts) -> Option<String> {
    if let Some(verdict) = &facts.verdict {
        let sign = match verdict.label {
            Label::Supports => "✅",
            Label::Contradicts => "❌",
            Label::NotEnoughInfo => "⚠️",
            Label::Unverifiable => "❔",
        };
        let stage = if verdict.is_full_text() {
            "full text"
        } else {
            "abstract"
        };
        let mut out = format!(
            "{sign} **Claim check: {}** ({stage}",
            verdict.label.as_str()
        );
        if let Some(model) = &verdict.model {
            let _ = write!(out, ", {}", escape(model));
        }
        let _ = writeln!(out, ") — {}", escape(&verdict.rationale));
        if let Some(evidence) = &verdict.evidence {
            out.push('\n');
            out.push_str(&quote(&format!("“{evidence}”")));
        }
        if let Some(passage) = &verdict.passage {
            let section = passage
                .section
                .as_deref()
                .map(|s| format!(", section {}", escape(s)))
                .unwrap_or_default();
            let _ = writeln!(
                out,
                "\nPassage of the full text{section} ([source](<{}>)):\n",
                passage.source.replace('>', "%3E")
            );
            out.push_str(&quote(&passage.text));
        }
        return Some(out);
    }
    let relation = facts.relation?;
    let what = match relation {
        Relation::Related => {
            "✅ **Claim check (offline): related** — the cited work is about what the claim says"
        }
        Relation::Unrelated => {
            "❌ **Claim check (offline): unrelated** — the cited work appears to be about something else"
        }
        Relation::Uncertain => {
            "❔ **Claim check (offline): uncertain** — neither related nor unrelated with confidence"
        }
    };
    Some(format!("{what}\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_escapes() {
        let people = vec![
            Person::new(Some("Kaiming"), "He"),
            Person::new(Some("Xiangyu"), "Zhang"),
            Person::new(Some("Shaoqing"), "Ren"),
            Person::new(Some("Jian"), "Sun"),
        ];
        assert_eq!(families(&people, false), "He, Zhang, Ren et al.");
        assert_eq!(families(&people[..2], false), "He, Zhang");
        assert_eq!(families(&people[..1], true), "He et al.");
        assert_eq!(
            full_names(&people, false),
            "Kaiming He, Xiangyu Zhang, Shaoqing Ren, Jian Sun"
        );
        assert_eq!(escape("a*b_[c]\nd"), "a\\*b\\_\\[c\\] d");
    }

    #[test]
    fn a_verdict_shows_its_quote_and_passage() {
        use crate::verify::verdict::{PassageRef, Stage, TextFormat, Verdict};
        let verdict = Verdict {
            label: Label::Contradicts,
            stage: Stage::FullText,
            rationale: "the trial found no effect".into(),
            evidence: Some("did not reduce fractures".into()),
            passage: Some(PassageRef {
                source: "https://example.org/paper.html".into(),
                origin: "citation_url".into(),
                format: TextFormat::Html,
                section: Some("Results".into()),
                offset: 0,
                text: "Supplementation did not reduce fractures (p = 0.4).".into(),
            }),
            model: Some("m1".into()),
            confidence: Some(0.9),
            unverifiable: None,
            notes: Vec::new(),
        };
        let facts = CitationFacts {
            verdict: Some(verdict),
            relation: None,
        };
        let text = verification(&facts).unwrap();
        for part in [
            "❌ **Claim check: CONTRADICTS** (full text, m1) — the trial found no effect",
            "> “did not reduce fractures”",
            "Passage of the full text, section Results ([source](<https://example.org/paper.html>))",
            "> Supplementation did not reduce fractures \\(p = 0.4\\).",
        ] {
            assert!(text.contains(part), "`{part}` in {text}");
        }
        let none = CitationFacts {
            verdict: None,
            relation: None,
        };
        assert!(verification(&none).is_none());
    }
}
