//! What resolving one reference concluded, with everything a diagnostic or a report
//! needs: the status, the wrong fields with the record's values, the record, the work
//! a cited identifier names instead, the identifiers that do not resolve, and which
//! sources were asked with what answer.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::model::{Work, WorkKind};
use crate::resolve::gate::GateDecision;
use crate::resolve::mismatch::{Field, Mismatch};
use crate::resolve::outcome::Status;

/// What one source said for one reference.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TryOutcome {
    /// It has the cited work (the gate accepted its record).
    Found,
    /// It answered with records, none of them the cited work.
    Rejected,
    /// It answered that it has nothing.
    NotFound,
    /// It failed, timed out, or answered with something unreadable.
    Failed,
    /// Not asked: offline and not in the cache.
    Offline,
}

/// One source asked on behalf of a reference (from the cache or upstream).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SourceTry {
    pub source: String,
    pub outcome: TryOutcome,
}

/// The conclusion for one reference.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Resolution {
    pub status: Status,
    /// Wrong fields of the cited work, in field order.
    pub fields_wrong: Vec<Field>,
    /// One entry per wrong field: what the reference says and what the record says.
    pub mismatches: Vec<Mismatch>,
    /// Benign differences and remarks (preprint year, a check that could not be made).
    pub notes: Vec<String>,
    /// The record accepted as the cited work (shared: a language server's facts
    /// and findings point at it on every keystroke).
    pub work: Option<Arc<Work>>,
    pub gate: Option<GateDecision>,
    /// The work a cited identifier names when that is not the cited work.
    pub identifier_work: Option<Work>,
    /// Cited identifiers that name no work at all (field, identifier).
    pub unresolved: Vec<(Field, String)>,
    /// The record carries an expression of concern.
    pub expression_of_concern: bool,
    pub sources_tried: Vec<SourceTry>,
    /// Why sources failed (`crossref: timed out after 30s`), for `unverified`.
    pub failures: Vec<String>,
}

impl Resolution {
    /// The work the reference was identified as (verified, miscited or retracted);
    /// `None` when the reference was not found or could not be resolved.
    pub fn identified_work(&self) -> Option<&Work> {
        let identified = matches!(
            self.status,
            Status::Verified | Status::Miscited | Status::Retracted
        );
        self.work.as_deref().filter(|_| identified)
    }

    /// A reference that was not looked up (nothing to look up with).
    pub fn unresolvable() -> Resolution {
        Resolution {
            status: Status::Unverified,
            fields_wrong: Vec::new(),
            mismatches: Vec::new(),
            notes: vec!["the reference has no title and no identifier to look up".into()],
            work: None,
            gate: None,
            identifier_work: None,
            unresolved: Vec::new(),
            expression_of_concern: false,
            sources_tried: Vec::new(),
            failures: Vec::new(),
        }
    }

    /// The record's value of each wrong field (`{"year": "2018"}`).
    pub fn expected(&self) -> BTreeMap<Field, String> {
        self.mismatches
            .iter()
            .map(|m| (m.field, m.record.clone()))
            .collect()
    }

    /// One line of `citeproof resolve --format jsonl`: exactly `id`, `kind` (of the
    /// cited work, as the reference states it; `null` for a paper by default),
    /// `status`, `fields_wrong`, `expected`, `match`, `sources_tried` and `notes`.
    pub fn to_json_line(&self, id: &str, kind: Option<WorkKind>) -> Value {
        let matched = self.work.as_ref().map(|w| {
            json!({
                "doi": w.doi,
                "arxiv": w.arxiv,
                "pmid": w.pmid,
                "title": w.title,
                "authors": w.authors.iter().map(person_name).collect::<Vec<_>>(),
                "year": w.year,
                "venue": w.venue,
                "source": w.source,
                "title_similarity": self.gate.map(|g| (g.similarity * 1000.0).round() / 1000.0),
            })
        });
        json!({
            "id": id,
            "kind": kind,
            "status": self.status,
            "fields_wrong": self.fields_wrong,
            "expected": self.expected(),
            "match": matched,
            "sources_tried": self.sources_tried,
            "notes": self.notes,
        })
    }
}

/// `Family, Given` (or the family name alone).
pub fn person_name(p: &crate::model::Person) -> String {
    match &p.given {
        Some(g) => format!("{}, {g}", p.family),
        None => p.family.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resolve::mismatch::MismatchKind;

    #[test]
    fn json_line_has_exactly_the_documented_fields() {
        let mut r = Resolution::unresolvable();
        r.status = Status::Miscited;
        r.mismatches.push(Mismatch {
            field: Field::Year,
            kind: MismatchKind::WrongYear,
            cited: "2020".into(),
            record: "2018".into(),
            detail: String::new(),
        });
        r.fields_wrong = vec![Field::Year];
        r.work = Some(Arc::new(Work {
            source: "crossref".into(),
            title: "T".into(),
            ..Work::default()
        }));
        r.sources_tried.push(SourceTry {
            source: "crossref".into(),
            outcome: TryOutcome::Found,
        });
        let line = r.to_json_line("a", Some(WorkKind::Book));
        let mut keys: Vec<&String> = line.as_object().unwrap().keys().collect();
        keys.sort();
        assert_eq!(
            keys,
            [
                "expected",
                "fields_wrong",
                "id",
                "kind",
                "match",
                "notes",
                "sources_tried",
                "status"
            ]
        );
        assert_eq!(line["kind"], "book");
        assert_eq!(line["expected"]["year"], "2018");
        assert_eq!(line["fields_wrong"][0], "year");
        assert_eq!(line["status"], "miscited");
        let m: Vec<&String> = line["match"].as_object().unwrap().keys().collect();
        assert_eq!(m.len(), 9);
        assert_eq!(line["sources_tried"][0]["outcome"], "found");
    }
}
