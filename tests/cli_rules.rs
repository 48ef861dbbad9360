//! `citeproof rules` and `citeproof explain`: the one rule table as the user sees it.

#[path = "bin_support/mod.rs"]
mod bin_support;

use bin_support::citeproof;
use citeproof::rules::RULES;

fn run(args: &[&str]) -> (i32, String, String) {
    let out = citeproof().args(args).output().expect("run citeproof");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn rules_lists_every_rule_once_in_aligned_columns() {
    let (code, stdout, _) = run(&["rules"]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), RULES.len());
    for (line, rule) in lines.iter().zip(RULES) {
        assert!(line.starts_with(rule.code), "{line}");
        assert!(
            line.contains(rule.name) && line.ends_with(rule.summary),
            "{line}"
        );
    }
    // The severity column starts at the same place on every line, however long the name.
    let severity_at: Vec<usize> = lines
        .iter()
        .zip(RULES)
        .map(|(line, rule)| {
            let after_name = line.find(rule.name).unwrap() + rule.name.len();
            after_name + line[after_name..].len() - line[after_name..].trim_start().len()
        })
        .collect();
    assert!(
        severity_at.windows(2).all(|w| w[0] == w[1]),
        "{severity_at:?}"
    );
}

#[test]
fn rules_json_is_the_table() {
    let (code, stdout, _) = run(&["rules", "--json"]);
    assert_eq!(code, 0);
    let rules: Vec<serde_json::Value> = serde_json::from_str(&stdout).unwrap();
    assert_eq!(rules.len(), RULES.len());
    assert_eq!(rules[0]["code"], RULES[0].code);
}

#[test]
fn explain_takes_a_code_or_a_name_and_prints_the_docs() {
    for rule in RULES {
        for key in [rule.code, rule.name] {
            let (code, stdout, _) = run(&["explain", key]);
            assert_eq!(code, 0, "explain {key}");
            assert!(stdout.starts_with(&format!("{} {}", rule.code, rule.name)));
            assert!(stdout.contains(rule.docs), "explain {key}");
        }
    }
    let (code, _, stderr) = run(&["explain", "CP999"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("unknown rule `CP999`"), "{stderr}");
}
