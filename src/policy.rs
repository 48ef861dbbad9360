//! The exit policy: which findings make `check` fail (`--fail-on`, or the failing
//! classes of a venue policy, `--policy`).

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

use crate::diagnostic::{Diagnostic, Severity};
use crate::rules::{self, Rule};
use crate::venue_policy::VenuePolicy;

/// Findings that fail a run: those at or above a severity, and those of listed rules.
#[derive(Debug, Clone, PartialEq)]
pub struct FailOn {
    pub severity: Option<Severity>,
    pub rules: Vec<&'static Rule>,
    /// A venue policy: when set, its failing classes decide instead.
    pub venue: Option<Arc<VenuePolicy>>,
}

impl Default for FailOn {
    /// Errors fail the run.
    fn default() -> FailOn {
        FailOn {
            severity: Some(Severity::Error),
            rules: Vec::new(),
            venue: None,
        }
    }
}

impl FailOn {
    /// Parse a list of items, each a severity or a rule code or name. At most one
    /// severity; unknown names are errors.
    pub fn parse_items<'a>(items: impl IntoIterator<Item = &'a str>) -> Result<FailOn, String> {
        let mut out = FailOn {
            severity: None,
            rules: Vec::new(),
            venue: None,
        };
        for item in items
            .into_iter()
            .flat_map(|i| i.split(','))
            .map(str::trim)
            .filter(|i| !i.is_empty())
        {
            if let Ok(severity) = item.parse::<Severity>() {
                if out.severity.is_some_and(|s| s != severity) {
                    return Err(format!(
                        "`{item}`: give at most one severity (findings at or above it fail)"
                    ));
                }
                out.severity = Some(severity);
            } else if let Some(rule) = rules::find(item) {
                if !out.rules.contains(&rule) {
                    out.rules.push(rule);
                }
            } else {
                return Err(format!(
                    "unknown severity or rule `{item}` (expected error, warning, info, hint, \
                     or a rule code or name from `citeproof rules`)"
                ));
            }
        }
        if out.severity.is_none() && out.rules.is_empty() {
            return Err("empty list: give a severity or rule codes".to_string());
        }
        Ok(out)
    }

    /// The venue policy's class of a finding (`None` without a venue policy, or when
    /// its criteria say nothing of the finding).
    pub fn policy_class(&self, diagnostic: &Diagnostic) -> Option<&str> {
        self.venue.as_deref()?.class_name(diagnostic)
    }

    pub fn fails(&self, diagnostic: &Diagnostic) -> bool {
        if let Some(venue) = &self.venue {
            return venue.fails(diagnostic);
        }
        self.severity.is_some_and(|s| diagnostic.severity >= s)
            || self.rules.iter().any(|r| r.code == diagnostic.rule.code)
    }
}

impl FromStr for FailOn {
    type Err = String;

    fn from_str(s: &str) -> Result<FailOn, String> {
        FailOn::parse_items([s])
    }
}

impl fmt::Display for FailOn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let items: Vec<&str> = self
            .severity
            .map(Severity::as_str)
            .into_iter()
            .chain(self.rules.iter().map(|r| r.code))
            .collect();
        f.write_str(&items.join(","))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{FileId, Span};
    use crate::rules::{CLAIM_UNSUPPORTED, UNDEFINED_CITATION, UNUSED_ENTRY};

    fn diag(rule: &'static Rule) -> Diagnostic {
        Diagnostic::new(rule, FileId(0), Span::default(), "m")
    }

    #[test]
    fn severities_rules_and_mixtures() {
        let error: FailOn = "error".parse().unwrap();
        assert!(error.fails(&diag(&UNDEFINED_CITATION)));
        assert!(!error.fails(&diag(&CLAIM_UNSUPPORTED)));
        let rules: FailOn = "CP302, unused-entry".parse().unwrap();
        assert!(rules.fails(&diag(&CLAIM_UNSUPPORTED)));
        assert!(rules.fails(&diag(&UNUSED_ENTRY)));
        assert!(!rules.fails(&diag(&UNDEFINED_CITATION)));
        let mixed = FailOn::parse_items(["warning", "unused-entry"]).unwrap();
        assert!(mixed.fails(&diag(&CLAIM_UNSUPPORTED)) && mixed.fails(&diag(&UNUSED_ENTRY)));
        assert_eq!(mixed.to_string(), "warning,CP102");
    }

    #[test]
    fn unknown_names_and_two_severities_are_errors() {
        let err = "CP999".parse::<FailOn>().unwrap_err();
        assert!(err.contains("`CP999`"), "{err}");
        assert!("error,warning".parse::<FailOn>().is_err());
        assert!(" , ".parse::<FailOn>().is_err());
    }
}
