//! docs/ci.md's examples and field lists say what the code does: the record fields a
//! finding carries, the GitHub Action's inputs, the version in every install example,
//! the rule families.

use std::collections::BTreeSet;

use citeproof::model::{Person, Release, Work};
use citeproof::rules::Family;

fn ci_md() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/ci.md")).unwrap()
}

/// The names in backticks on the JSON table's row for `field`.
fn documented_row(doc: &str, field: &str) -> BTreeSet<String> {
    let row = doc
        .lines()
        .find(|l| l.starts_with(&format!("| `{field}` |")))
        .unwrap_or_else(|| panic!("docs/ci.md has no row for `{field}`"));
    row.split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

#[test]
fn the_record_row_lists_every_field_a_record_can_carry() {
    // Every optional part filled, so every key that can appear does.
    let work = Work {
        authors: vec![Person {
            given: Some("A.".into()),
            family: "Lovelace".into(),
        }],
        other_years: vec![2019],
        authors_truncated: true,
        isbn: vec!["9780262033848".into()],
        releases: vec![Release {
            version: "1.0".into(),
            year: Some(2020),
        }],
        ..Work::default()
    };
    let value = serde_json::to_value(&work).unwrap();
    let mut keys: BTreeSet<String> = value.as_object().unwrap().keys().cloned().collect();
    for nested in ["authors", "releases"] {
        for object in value[nested].as_array().unwrap() {
            keys.extend(object.as_object().unwrap().keys().cloned());
        }
    }
    let mut documented = documented_row(&ci_md(), "record");
    documented.remove("record");
    assert_eq!(
        documented, keys,
        "docs/ci.md's `record` row and the serialised record differ"
    );
}

#[test]
fn the_family_row_lists_every_rule_family() {
    let families: BTreeSet<String> = citeproof::rules::RULES
        .iter()
        .map(|rule| family_name(rule.family))
        .collect();
    let documented = documented_row(&ci_md(), "family");
    assert!(
        families.is_subset(&documented),
        "families {families:?} not all in docs/ci.md's row {documented:?}"
    );
}

fn family_name(family: Family) -> String {
    serde_json::to_value(family)
        .unwrap()
        .as_str()
        .unwrap()
        .to_string()
}

#[test]
fn the_action_example_shows_every_input_of_action_yml() {
    let action =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/action.yml")).unwrap();
    let yaml = &yaml_rust2::YamlLoader::load_from_str(&action).unwrap()[0];
    let inputs: BTreeSet<String> = yaml["inputs"]
        .as_hash()
        .expect("action.yml has inputs")
        .keys()
        .map(|k| k.as_str().unwrap().to_string())
        .collect();
    let doc = ci_md();
    let block = doc
        .split("With every input:")
        .nth(1)
        .and_then(|rest| rest.split("```").nth(1))
        .expect("docs/ci.md shows the action with every input");
    let shown: BTreeSet<String> = block
        .lines()
        .map(|l| l.trim_start().trim_start_matches("# "))
        .filter_map(|l| l.split_once(':').map(|(name, _)| name.trim().to_string()))
        .filter(|name| inputs.contains(name))
        .collect();
    assert_eq!(
        shown, inputs,
        "inputs of action.yml missing from docs/ci.md"
    );
}

#[test]
fn every_version_in_the_install_examples_is_this_release() {
    let version = env!("CARGO_PKG_VERSION");
    let doc = ci_md();
    let pattern =
        regex::Regex::new(r"(?:@v|rev: v|==|/download/v|--version )(\d+\.\d+\.\d+)").unwrap();
    let found: Vec<&str> = pattern
        .captures_iter(&doc)
        .map(|c| c.get(1).unwrap().as_str())
        .collect();
    assert!(found.len() >= 5, "the examples name a version: {found:?}");
    for v in found {
        assert_eq!(
            v, version,
            "docs/ci.md names version {v}, this is {version}"
        );
    }
}
