//! Venue policy profiles: a venue's reference criteria as classes of findings
//! (`hallucinated`, `error-to-report`, `needs-check`), so that a programme chair reads
//! the venue's words instead of rule codes. A profile maps every finding to at most
//! one class (the first class, worst first, whose matchers match) and says which
//! classes fail the run (exit code 1).
//!
//! Built-in profiles follow the ICLR, NeurIPS and ICML 2026 criteria (`builtin`);
//! `[policies.NAME]` in `citeproof.toml` defines more. The CLI, the language server and
//! the HTTP service all classify through [`VenuePolicy::class_of`].
//!
//! Not to be confused with [`crate::policy`], the plain `--fail-on` exit policy, which
//! a venue policy replaces when one is chosen.

mod builtin;

use std::fmt;

use serde::Serialize;

use crate::diagnostic::Diagnostic;
use crate::resolve::mismatch::MismatchKind;
use crate::rules::{self, Rule};

pub use builtin::{BUILTIN_NAMES, builtin};

/// Which findings a class takes: a rule, optionally only one kind of wrong field
/// (`wrong-authors/unknown-authors`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FindingMatcher {
    #[serde(serialize_with = "rule_code")]
    pub rule: &'static Rule,
    pub kind: Option<MismatchKind>,
}

fn rule_code<S: serde::Serializer>(rule: &&'static Rule, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(rule.code)
}

impl FindingMatcher {
    /// `CP201`, `reference-not-found`, or `wrong-authors/unknown-authors`.
    pub fn parse(text: &str) -> Result<FindingMatcher, String> {
        let (rule_text, kind_text) = match text.trim().split_once('/') {
            Some((r, k)) => (r.trim(), Some(k.trim())),
            None => (text.trim(), None),
        };
        let rule = rules::find(rule_text).ok_or_else(|| {
            format!("unknown rule `{rule_text}` (expected a code or name from `citeproof rules`)")
        })?;
        let kind = kind_text.map(parse_kind).transpose()?;
        Ok(FindingMatcher { rule, kind })
    }

    pub fn matches(&self, d: &Diagnostic) -> bool {
        d.rule.code == self.rule.code && self.kind.is_none_or(|k| d.mismatch == Some(k))
    }
}

impl fmt::Display for FindingMatcher {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            Some(kind) => write!(f, "{}/{}", self.rule.name, kind_name(kind)),
            None => f.write_str(self.rule.name),
        }
    }
}

/// The kebab-case name of a kind of wrong field.
pub fn kind_name(kind: MismatchKind) -> String {
    serde_json::to_value(kind)
        .ok()
        .and_then(|v| v.as_str().map(|s| s.replace('_', "-")))
        .unwrap_or_default()
}

fn parse_kind(text: &str) -> Result<MismatchKind, String> {
    let snake = text.replace('-', "_");
    serde_json::from_value(serde_json::Value::String(snake)).map_err(|_| {
        format!(
            "unknown kind `{text}` (expected near-miss-title, swapped-authors, \
             partial-author-list, placeholder-authors, unknown-authors, wrong-year, \
             wrong-venue, wrong-identifier, identifier-names-another-work, unknown-version)"
        )
    })
}

/// One class of a venue's criteria.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PolicyClass {
    /// `hallucinated`, `error-to-report` …
    pub name: String,
    /// What the venue says of it.
    pub summary: String,
    /// A finding of this class fails the run (exit code 1).
    pub fails: bool,
    pub findings: Vec<FindingMatcher>,
}

/// A venue's criteria.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct VenuePolicy {
    pub name: String,
    pub title: String,
    /// Where the criteria are published.
    pub source: Option<String>,
    /// Worst first: a finding takes the first class that matches it.
    pub classes: Vec<PolicyClass>,
}

impl VenuePolicy {
    /// The class of a finding, or `None` when the venue's criteria say nothing of it.
    pub fn class_of(&self, d: &Diagnostic) -> Option<&PolicyClass> {
        self.classes
            .iter()
            .find(|c| c.findings.iter().any(|m| m.matches(d)))
    }

    /// The class name of a finding (what reports write as `policy_class`).
    pub fn class_name(&self, d: &Diagnostic) -> Option<&str> {
        self.class_of(d).map(|c| c.name.as_str())
    }

    /// Whether a finding fails the run under this policy.
    pub fn fails(&self, d: &Diagnostic) -> bool {
        self.class_of(d).is_some_and(|c| c.fails)
    }

    /// Findings per class, in the policy's order (classes without findings included).
    pub fn counts(&self, diagnostics: &[Diagnostic]) -> Vec<(&str, usize)> {
        self.classes
            .iter()
            .map(|c| {
                let n = diagnostics
                    .iter()
                    .filter(|d| self.class_of(d).is_some_and(|x| x.name == c.name))
                    .count();
                (c.name.as_str(), n)
            })
            .collect()
    }
}

/// A user-defined class as written in `citeproof.toml` (checked when read).
#[derive(Debug, Clone, PartialEq)]
pub struct ClassSpec {
    pub name: String,
    pub summary: Option<String>,
    pub fails: bool,
    pub findings: Vec<String>,
}

/// A user-defined profile: its own classes, or a built-in profile's with classes
/// added (worst first, before the built-in ones) and failing classes changed.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PolicySpec {
    pub title: Option<String>,
    pub source: Option<String>,
    pub extends: Option<String>,
    pub classes: Vec<ClassSpec>,
    /// Replace which classes fail the run.
    pub fail: Option<Vec<String>>,
}

impl PolicySpec {
    /// The profile `name` this spec defines; errors name the policy and the problem.
    pub fn build(&self, name: &str) -> Result<VenuePolicy, String> {
        let mut policy = match &self.extends {
            Some(base) => builtin(base).ok_or_else(|| {
                format!(
                    "policy `{name}`: unknown built-in policy `{base}` to extend (expected one of {})",
                    BUILTIN_NAMES.join(", ")
                )
            })?,
            None => VenuePolicy {
                name: name.to_string(),
                title: name.to_string(),
                source: None,
                classes: Vec::new(),
            },
        };
        policy.name = name.to_string();
        if let Some(title) = &self.title {
            policy.title = title.clone();
        }
        if self.source.is_some() {
            policy.source = self.source.clone();
        }
        let mut own = Vec::new();
        for class in &self.classes {
            let findings = class
                .findings
                .iter()
                .map(|f| FindingMatcher::parse(f))
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| format!("policy `{name}`, class `{}`: {e}", class.name))?;
            own.push(PolicyClass {
                name: class.name.clone(),
                summary: class.summary.clone().unwrap_or_default(),
                fails: class.fails,
                findings,
            });
        }
        // A class of the same name replaces the built-in one.
        policy
            .classes
            .retain(|c| !own.iter().any(|o| o.name == c.name));
        own.extend(policy.classes);
        policy.classes = own;
        if let Some(fail) = &self.fail {
            for wanted in fail {
                if !policy.classes.iter().any(|c| &c.name == wanted) {
                    return Err(format!("policy `{name}`: `fail` names no class `{wanted}`"));
                }
            }
            for class in &mut policy.classes {
                class.fails = fail.contains(&class.name);
            }
        }
        if policy.classes.is_empty() {
            return Err(format!("policy `{name}` has no classes"));
        }
        Ok(policy)
    }
}

#[cfg(test)]
mod tests;
