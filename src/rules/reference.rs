//! The rule reference, `docs/rules.md`, written from the rule table so the two
//! never disagree: one `## CP101 undefined-citation` section per rule (the anchor
//! [`super::Rule::docs_url`] links to, from editors and SARIF), with its default
//! severity, family, summary and documentation.
//!
//! `citeproof rules --format markdown` prints it; the `rules_doc` test fails when
//! the file is out of date and writes it again with `UPDATE_RULES_DOC=1`.

use std::fmt::Write as _;

use super::{Family, RULES};

fn family_name(family: Family) -> &'static str {
    match family {
        Family::Input => "input",
        Family::Links => "links",
        Family::Resolution => "resolution",
        Family::Verification => "verification",
        Family::Meta => "meta",
    }
}

/// The whole of `docs/rules.md`.
pub fn markdown() -> String {
    let mut out = String::from(
        "# Rules\n\n\
         <!-- Generated from the rule table (src/diagnostic/rule.rs) by `citeproof rules --format \
         markdown`. Do not edit: `UPDATE_RULES_DOC=1 cargo test --test rules_doc` writes it \
         again. -->\n\n\
         Every finding of citeproof has a stable code and name. Families: `CP0xx` input, \
         `CP1xx` links within the document, `CP2xx` resolution against the scholarly \
         record, `CP3xx` verification of claims, `CP9xx` suppressions.\n\n\
         Set a rule's severity, or turn it off, per file in `citeproof.toml` \
         (`[rules]`, by code or name: `CP102 = \"off\"`, `doi-as-url = \"warning\"`); \
         suppress one finding in the document with `<!-- citeproof: ignore[CP201] -->` \
         (Markdown) or `% citeproof: ignore[CP201]` (LaTeX, BibTeX) on the line or the \
         line before. `citeproof explain CODE` prints a rule's section in the terminal.\n\n\
         | code | name | severity | summary |\n|---|---|---|---|\n",
    );
    for rule in RULES {
        let anchor = format!("{}-{}", rule.code.to_ascii_lowercase(), rule.name);
        let _ = writeln!(
            out,
            "| [{}](#{anchor}) | {} | {} | {} |",
            rule.code,
            rule.name,
            rule.severity,
            rule.summary.replace('|', "\\|")
        );
    }
    for rule in RULES {
        let _ = write!(
            out,
            "\n## {} {}\n\nDefault severity: **{}** · family: {}\n\n{}\n\n{}\n",
            rule.code,
            rule.name,
            rule.severity,
            family_name(rule.family),
            rule.summary,
            rule.docs
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_has_the_section_its_link_names() {
        let text = markdown();
        for rule in RULES {
            let heading = format!("\n## {} {}\n", rule.code, rule.name);
            assert!(text.contains(&heading), "{heading}");
            let anchor = rule.docs_url();
            let anchor = anchor.rsplit('#').next().unwrap();
            assert_eq!(
                anchor,
                format!("{}-{}", rule.code.to_ascii_lowercase(), rule.name)
            );
        }
    }
}
