//! One summary line per submission: how many references were checked, the findings
//! counted per class of the venue policy (or per severity without one), the worst
//! findings with the links that back them, or why the submission could not be
//! checked. The journal stores these lines and the summary files are made of them,
//! so they hold nothing that changes from one run to the next (no times).

use std::collections::HashSet;

use serde::de::{MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::diagnostic::{Diagnostic, Severity};
use crate::load::Project;
use crate::model::IdScheme;
use crate::output::place_label;
use crate::parse::ids::{find_arxiv_ids, find_dois, normalize_arxiv, normalize_doi};
use crate::policy::FailOn;

/// Whether a submission was checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Ok,
    /// It could not be read or checked; `error` says why.
    Failed,
}

/// Counts by name, in the order the policy (or the severity scale) gives them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Counts(pub Vec<(String, usize)>);

/// One finding among a submission's worst.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WorstFinding {
    /// Rule code (`CP201`).
    pub rule: String,
    /// Rule name (`reference-not-found`).
    pub name: String,
    pub severity: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub policy_class: Option<String>,
    /// The finding fails the run (`fail-on`, or the policy's failing classes).
    pub fails: bool,
    /// `paper.tex:12:5`, `paper.pdf: page 3, line 12`.
    pub place: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    pub message: String,
    /// DOI, arXiv, OpenReview and other URLs of the record the finding compares
    /// against and of the identifiers its message names.
    pub evidence: Vec<String>,
}

/// One line of the summary.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SubmissionLine {
    pub id: String,
    /// The file or folder checked, as given.
    pub path: String,
    pub status: Status,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// References read (a bibliography shared by several documents counted once).
    pub references: usize,
    pub findings: usize,
    /// Some finding fails the run.
    pub failing: bool,
    /// The venue policy the findings were classed by (`counts` are then per class).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub policy: Option<String>,
    pub counts: Counts,
    pub worst: Vec<WorstFinding>,
}

impl SubmissionLine {
    /// A submission that could not be checked.
    pub fn failed(id: &str, path: &str, error: String) -> SubmissionLine {
        SubmissionLine {
            id: id.to_string(),
            path: path.to_string(),
            status: Status::Failed,
            error: Some(error),
            references: 0,
            findings: 0,
            failing: false,
            policy: None,
            counts: Counts::default(),
            worst: Vec::new(),
        }
    }

    /// The line of a checked submission: `diagnostics` as the configuration leaves
    /// them, `worst` of them listed.
    pub fn checked(
        id: &str,
        path: &str,
        project: &Project,
        diagnostics: &[Diagnostic],
        fail_on: &FailOn,
        worst: usize,
    ) -> SubmissionLine {
        let counts = match fail_on.venue.as_deref() {
            Some(policy) => {
                let mut counts: Vec<(String, usize)> = policy
                    .counts(diagnostics)
                    .into_iter()
                    .map(|(name, n)| (name.to_string(), n))
                    .collect();
                let unclassed = diagnostics
                    .iter()
                    .filter(|d| policy.class_of(d).is_none())
                    .count();
                counts.push((UNCLASSED.to_string(), unclassed));
                counts
            }
            None => [
                Severity::Error,
                Severity::Warning,
                Severity::Info,
                Severity::Hint,
            ]
            .iter()
            .map(|&s| {
                let n = diagnostics.iter().filter(|d| d.severity == s).count();
                (s.as_str().to_string(), n)
            })
            .collect(),
        };
        SubmissionLine {
            id: id.to_string(),
            path: path.to_string(),
            status: Status::Ok,
            error: None,
            references: reference_count(project),
            findings: diagnostics.len(),
            failing: diagnostics.iter().any(|d| fail_on.fails(d)),
            policy: fail_on.venue.as_ref().map(|p| p.name.clone()),
            counts: Counts(counts),
            worst: worst_findings(project, diagnostics, fail_on, worst),
        }
    }
}

/// The count of findings the venue policy's criteria say nothing of.
pub const UNCLASSED: &str = "unclassed";

fn reference_count(project: &Project) -> usize {
    let mut seen = HashSet::new();
    project
        .documents
        .iter()
        .flat_map(|d| &d.references)
        .filter(|r| seen.insert((r.file, r.span.start, r.span.end)))
        .count()
}

/// The `n` worst findings: failing ones first, then by the policy's class order
/// (worst class first), then by severity, then in the order of the report.
fn worst_findings(
    project: &Project,
    diagnostics: &[Diagnostic],
    fail_on: &FailOn,
    n: usize,
) -> Vec<WorstFinding> {
    let class_rank = |d: &Diagnostic| {
        fail_on
            .venue
            .as_deref()
            .and_then(|p| {
                let name = p.class_name(d)?;
                p.classes.iter().position(|c| c.name == name)
            })
            .unwrap_or(usize::MAX)
    };
    let mut ranked: Vec<&Diagnostic> = diagnostics.iter().collect();
    ranked.sort_by_key(|d| {
        (
            !fail_on.fails(d),
            class_rank(d),
            std::cmp::Reverse(d.severity),
        )
    });
    ranked
        .into_iter()
        .take(n)
        .map(|d| WorstFinding {
            rule: d.rule.code.to_string(),
            name: d.rule.name.to_string(),
            severity: d.severity.as_str().to_string(),
            policy_class: fail_on.policy_class(d).map(str::to_string),
            fails: fail_on.fails(d),
            place: place_label(&project.sources, d.file, d.span),
            key: d.key.clone(),
            message: d.message.clone(),
            evidence: evidence_links(d),
        })
        .collect()
}

/// Landing pages of the finding's record and of the identifiers its message names,
/// each once.
pub fn evidence_links(d: &Diagnostic) -> Vec<String> {
    let mut links = Vec::new();
    if let Some(work) = &d.record {
        if let Some(doi) = &work.doi {
            let doi = normalize_doi(doi).unwrap_or_else(|| doi.clone());
            links.extend(IdScheme::Doi.landing_url(&doi));
        }
        if let Some(arxiv) = &work.arxiv {
            let id = normalize_arxiv(arxiv).unwrap_or_else(|| arxiv.clone());
            links.extend(IdScheme::Arxiv.landing_url(&id));
        }
        links.extend(work.url.iter().filter(|u| is_web(u)).cloned());
    }
    links.extend(
        find_dois(&d.message)
            .into_iter()
            .filter_map(|(_, doi)| IdScheme::Doi.landing_url(&doi)),
    );
    links.extend(
        find_arxiv_ids(&d.message)
            .into_iter()
            .filter_map(|(_, id)| IdScheme::Arxiv.landing_url(&id)),
    );
    links.extend(
        d.message
            .split_whitespace()
            .map(|w| w.trim_matches(|c: char| "()[]<>`'\",;".contains(c)))
            .map(|w| w.trim_end_matches(['.', ':']))
            .filter(|w| is_web(w))
            .map(str::to_string),
    );
    let mut seen = HashSet::new();
    links.retain(|l| seen.insert(l.clone()));
    links
}

fn is_web(url: &str) -> bool {
    url.starts_with("https://") || url.starts_with("http://")
}

impl Serialize for Counts {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (name, n) in &self.0 {
            map.serialize_entry(name, n)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for Counts {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Counts, D::Error> {
        struct InOrder;
        impl<'de> Visitor<'de> for InOrder {
            type Value = Counts;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object of counts")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Counts, A::Error> {
                let mut out = Vec::new();
                while let Some(entry) = map.next_entry::<String, usize>()? {
                    out.push(entry);
                }
                Ok(Counts(out))
            }
        }
        deserializer.deserialize_map(InOrder)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{FileId, Span, Work};
    use crate::rules::REFERENCE_NOT_FOUND;

    #[test]
    fn evidence_names_the_record_and_the_message_identifiers_once() {
        let work = Work {
            doi: Some("https://doi.org/10.1000/ABC".into()),
            arxiv: Some("arXiv:1706.03762v5".into()),
            url: Some("https://openreview.net/forum?id=abc".into()),
            ..Work::default()
        };
        let d = Diagnostic::new(
            &REFERENCE_NOT_FOUND,
            FileId(0),
            Span::default(),
            "cited as doi:10.1000/abc (arXiv:2101.00001), see https://example.org/x.",
        )
        .with_record(work);
        assert_eq!(
            evidence_links(&d),
            [
                "https://doi.org/10.1000/abc",
                "https://arxiv.org/abs/1706.03762",
                "https://openreview.net/forum?id=abc",
                "https://arxiv.org/abs/2101.00001",
                "https://example.org/x",
            ]
        );
    }

    #[test]
    fn counts_keep_their_order_through_json() {
        let counts = Counts(vec![("zeta".into(), 2), ("alpha".into(), 0)]);
        let text = serde_json::to_string(&counts).unwrap();
        assert_eq!(text, r#"{"zeta":2,"alpha":0}"#);
        assert_eq!(serde_json::from_str::<Counts>(&text).unwrap(), counts);
    }
}
