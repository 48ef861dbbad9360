//! `policy = "NAME"` and `[policies.NAME]`: the venue policy a run classifies its
//! findings by (see [`crate::venue_policy`]), built-in or defined here.
//!
//! ```toml
//! policy = "my-workshop"
//!
//! [policies.my-workshop]
//! extends = "iclr-2026"          # optional: start from a built-in profile
//! title = "My workshop's reference criteria"
//! fail = ["hallucinated", "error-to-report"]
//!
//! [[policies.my-workshop.classes]]
//! name = "stale"
//! summary = "a wrong year"
//! findings = ["wrong-year"]      # rule codes or names, `rule/kind` for one kind
//! ```

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::venue_policy::{BUILTIN_NAMES, ClassSpec, PolicySpec, VenuePolicy, builtin};

/// `[policies.NAME]`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct PolicySection {
    pub extends: Option<String>,
    pub title: Option<String>,
    /// Where the criteria are published.
    pub source: Option<String>,
    /// The classes that fail the run (replaces each class's own `fails`).
    pub fail: Option<Vec<String>>,
    pub classes: Option<Vec<ClassSection>>,
}

/// `[[policies.NAME.classes]]`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct ClassSection {
    pub name: String,
    pub summary: Option<String>,
    #[serde(default)]
    pub fails: bool,
    pub findings: Vec<String>,
}

impl PolicySection {
    fn spec(&self) -> PolicySpec {
        PolicySpec {
            title: self.title.clone(),
            source: self.source.clone(),
            extends: self.extends.clone(),
            fail: self.fail.clone(),
            classes: self
                .classes
                .iter()
                .flatten()
                .map(|c| ClassSpec {
                    name: c.name.clone(),
                    summary: c.summary.clone(),
                    fails: c.fails,
                    findings: c.findings.clone(),
                })
                .collect(),
        }
    }
}

/// The venue policy named `name`: one defined in `policies`, else a built-in one.
pub fn resolve_policy(
    name: &str,
    policies: Option<&BTreeMap<String, PolicySection>>,
) -> Result<Arc<VenuePolicy>, String> {
    if let Some(section) = policies.and_then(|p| p.get(name)) {
        return section.spec().build(name).map(Arc::new);
    }
    builtin(name).map(Arc::new).ok_or_else(|| {
        let mut known: Vec<String> = BUILTIN_NAMES.iter().map(|s| s.to_string()).collect();
        known.extend(policies.into_iter().flat_map(|p| p.keys().cloned()));
        format!(
            "unknown policy `{name}` (expected one of {})",
            known.join(", ")
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defined_policies_win_over_builtin_names_and_unknown_names_list_the_known() {
        let mut policies = BTreeMap::new();
        policies.insert(
            "mine".to_string(),
            PolicySection {
                extends: Some("neurips-2026".into()),
                fail: Some(vec!["hallucinated".into(), "error-to-report".into()]),
                ..PolicySection::default()
            },
        );
        let p = resolve_policy("mine", Some(&policies)).unwrap();
        assert_eq!(p.name, "mine");
        assert!(p.classes.iter().filter(|c| c.fails).count() == 2);
        assert_eq!(resolve_policy("icml-2026", None).unwrap().name, "icml-2026");
        let err = resolve_policy("nope", Some(&policies)).unwrap_err();
        assert!(err.contains("iclr-2026") && err.contains("mine"), "{err}");
    }
}
