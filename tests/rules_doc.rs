//! docs/rules.md is the rule table written out (`citeproof rules --format markdown`):
//! this test fails when the file is out of date; `UPDATE_RULES_DOC=1 cargo test
//! --test rules_doc` writes it again.

mod bin_support;

use std::path::Path;

#[test]
fn docs_rules_md_is_the_rule_table() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/rules.md");
    let expected = citeproof::rules::reference::markdown();
    if std::env::var_os("UPDATE_RULES_DOC").is_some() {
        std::fs::write(&path, &expected).unwrap();
    }
    let written = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        written == expected,
        "docs/rules.md is out of date: run `UPDATE_RULES_DOC=1 cargo test --test rules_doc`"
    );
}

#[test]
fn the_cli_prints_the_same_reference() {
    let out = bin_support::citeproof()
        .args(["rules", "--format", "markdown"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        citeproof::rules::reference::markdown()
    );
}
