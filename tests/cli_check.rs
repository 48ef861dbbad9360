//! `citeproof check` end to end on a fixture project: exit codes and `--fail-on`,
//! formats, colour, fixes, baseline and changed lines.

mod cli_support;

use citeproof::model::FileId;
use citeproof::parse::{self, ParseOptions};
use cli_support::Project;

// The fixture holds: 2 errors (CP101 ×2), 2 warnings (CP901, CP107), 2 hints (CP108
// with a safe fix, CP102 with an unsafe fix).

#[test]
fn exit_codes_follow_fail_on() {
    let p = Project::copy();
    let cases: &[(&[&str], i32)] = &[
        (&[], 1),
        (&["--exit-zero"], 0),
        (&["--fail-on", "error"], 1),
        (&["--fail-on", "CP107"], 1),
        (&["--fail-on", "missing-field"], 1),
        (&["--fail-on", "CP103"], 0),
        (&["--fail-on", "CP103,unused-entry"], 1),
        (&["--fail-on", "CP103", "--fail-on", "doi-as-url"], 1),
        (&["--fail-on", "hint", "--exit-zero"], 0),
    ];
    for (args, code) in cases {
        let mut all = vec!["check", "--format", "json"];
        all.extend_from_slice(args);
        let run = p.run(&all);
        assert_eq!(run.code(), *code, "{args:?}: {}", run.stderr());
    }
    // Without the errors, warnings fail only when asked to.
    p.write("citeproof.toml", "[rules]\nundefined-citation = \"off\"\n");
    for (args, code) in [
        (vec![], 0),
        (vec!["--fail-on", "warning"], 1),
        (vec!["--fail-on", "info"], 1),
        (vec!["--fail-on", "CP108"], 1),
        (vec!["--fail-on", "CP101"], 0),
    ] {
        let mut all = vec!["check", "--format", "json"];
        all.extend_from_slice(&args);
        assert_eq!(p.run(&all).code(), code, "{args:?}");
    }
}

#[test]
fn usage_errors_exit_with_2_and_say_why() {
    let p = Project::copy();
    let cases: &[(&[&str], &str)] = &[
        (&["--fail-on", "CP999"], "unknown severity or rule `CP999`"),
        (&["--fail-on", "no-such-rule"], "no-such-rule"),
        (&["--fail-on", "error,warning"], "at most one severity"),
        (&["--format", "xml"], "unknown format `xml`"),
        (&["--unsafe-fixes"], "--fix"),
        (&["--baseline", "none.json"], "cannot read baseline"),
        (&["--config", "none.toml"], "no such file `none.toml`"),
    ];
    for (args, message) in cases {
        let mut all = vec!["check"];
        all.extend_from_slice(args);
        let run = p.run(&all);
        assert_eq!(run.code(), 2, "{args:?}");
        assert!(run.stderr().contains(message), "{args:?}: {}", run.stderr());
        assert!(run.stdout().is_empty(), "{args:?} printed a report");
    }
}

#[test]
fn cli_text_and_github_output_snapshot() {
    let p = Project::copy();
    let text = p.run(&["check"]);
    insta::assert_snapshot!("cli_text", text.stdout());
    let github = p.run(&["check", "--format", "github"]);
    insta::assert_snapshot!("cli_github", github.stdout());
    let json = p.run(&["check", "--format", "json"]);
    insta::assert_json_snapshot!("cli_json", json.findings());
}

#[test]
fn every_format_renders_from_the_cli() {
    let p = Project::copy();
    for format in [
        "text", "json", "jsonl", "sarif", "github", "junit", "gitlab", "html",
    ] {
        let run = p.run(&["check", "--format", format, "--output", "report.out"]);
        assert_eq!(run.code(), 1, "{format}: {}", run.stderr());
        assert!(
            run.stdout().is_empty(),
            "{format} wrote to stdout with --output"
        );
        let written = p.read("report.out");
        assert!(written.contains("missing2021"), "{format}: {written}");
    }
}

#[test]
fn colour_only_when_asked_or_on_a_terminal() {
    let p = Project::copy();
    assert!(!p.run(&["check"]).stdout().contains('\x1b'));
    assert!(
        p.run(&["check", "--color", "always"])
            .stdout()
            .contains("\x1b[")
    );
    assert!(
        !p.run(&["check", "--color", "never"])
            .stdout()
            .contains('\x1b')
    );
    assert!(
        !p.run(&["check", "--format", "json", "--color", "always"])
            .stdout()
            .contains('\x1b')
    );
}

fn reparse_bib(text: &str) -> parse::Parsed {
    parse::bibtex::parse(FileId(0), text, &ParseOptions::default())
}

#[test]
fn safe_fixes_change_only_their_ranges_and_the_findings_go_away() {
    let p = Project::copy();
    let before = p.read("refs.bib");
    let run = p.run(&["check", "--fix", "--format", "json"]);
    assert_eq!(run.code(), 1);
    assert!(run.stderr().contains("fixed 1 finding"), "{}", run.stderr());
    let codes = run.codes();
    assert!(!codes.contains(&"CP108".to_string()), "{codes:?}");
    assert!(
        codes.contains(&"CP102".to_string()),
        "unsafe fix applied: {codes:?}"
    );
    let after = p.read("refs.bib");
    let changed: Vec<(&str, &str)> = before
        .lines()
        .zip(after.lines())
        .filter(|(a, b)| a != b)
        .collect();
    assert_eq!(
        changed,
        vec![(
            "  url = {https://doi.org/10.1000/sleep.2017}",
            "  doi = {10.1000/sleep.2017}"
        )]
    );
    assert_eq!(before.lines().count(), after.lines().count());
    let parsed = reparse_bib(&after);
    assert!(parsed.problems.is_empty(), "{:?}", parsed.problems);
    let walker = parsed
        .references
        .iter()
        .find(|r| r.key == "walker2017")
        .unwrap();
    assert_eq!(walker.fields.doi.as_deref(), Some("10.1000/sleep.2017"));
    assert_eq!(walker.fields.url, None);
    // Nothing else to fix safely: a second run changes nothing.
    let again = p.run(&["check", "--fix"]);
    assert!(!again.stderr().contains("fixed"));
    assert_eq!(p.read("refs.bib"), after);
    assert_eq!(p.read("paper.md"), Project::copy().read("paper.md"));
}

#[test]
fn unsafe_fixes_only_with_the_opt_in() {
    let p = Project::copy();
    let run = p.run(&["check", "--fix", "--unsafe-fixes", "--format", "json"]);
    assert!(run.stderr().contains("fixed 2 finding"), "{}", run.stderr());
    let codes = run.codes();
    assert!(
        !codes.iter().any(|c| c == "CP102" || c == "CP108"),
        "{codes:?}"
    );
    let after = p.read("refs.bib");
    let parsed = reparse_bib(&after);
    assert!(parsed.problems.is_empty());
    let keys: Vec<&str> = parsed.references.iter().map(|r| r.key.as_str()).collect();
    assert_eq!(keys, ["walker2017", "smith2020"]);
    assert!(
        after.ends_with("}\n") && !after.ends_with("\n\n"),
        "{after:?}"
    );
}

#[test]
fn baseline_survives_line_shifts_and_reports_only_new_findings() {
    let p = Project::copy();
    let write = p.run(&["check", "--write-baseline", "baseline.json"]);
    assert_eq!(write.code(), 0, "{}", write.stderr());
    let baseline: serde_json::Value = serde_json::from_str(&p.read("baseline.json")).unwrap();
    assert_eq!(baseline["findings"].as_array().unwrap().len(), 6);
    // Lines inserted above every finding of the paper: nothing is new.
    let paper = p.read("paper.md").replace(
        "# Introduction\n",
        "# Introduction\n\nA new paragraph.\n\nAnother.\n",
    );
    p.write("paper.md", &paper);
    let run = p.run(&["check", "--baseline", "baseline.json", "--format", "json"]);
    assert_eq!(run.code(), 0, "{}", run.stdout());
    assert!(run.codes().is_empty());
    assert!(
        run.stderr().contains("6 finding(s) in the baseline"),
        "{}",
        run.stderr()
    );
    // A new undefined citation is reported, and only it.
    p.write(
        "paper.md",
        &format!("{paper}\nA new claim [@brandnew2024].\n"),
    );
    let run = p.run(&["check", "--baseline", "baseline.json", "--format", "json"]);
    assert_eq!(run.code(), 1);
    let findings = run.findings();
    assert_eq!(findings.len(), 1);
    assert_eq!(findings[0]["key"], "brandnew2024");
}

fn git(p: &Project, args: &[&str]) {
    let status = std::process::Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@example.org"])
        .args(args)
        .current_dir(p.dir.path())
        .output()
        .unwrap();
    assert!(
        status.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&status.stderr)
    );
}

#[test]
fn changed_since_reports_only_changed_lines() {
    let p = Project::copy();
    let outside = p.run(&["check", "--changed-since", "HEAD"]);
    assert_eq!(outside.code(), 2);
    assert!(
        outside.stderr().contains("git repository"),
        "{}",
        outside.stderr()
    );
    git(&p, &["init", "-q"]);
    git(&p, &["add", "."]);
    git(&p, &["commit", "-q", "-m", "start"]);
    let run = p.run(&["check", "--changed-since", "HEAD", "--format", "json"]);
    assert_eq!(run.code(), 0, "{}", run.stderr());
    assert!(run.codes().is_empty());
    let paper = p.read("paper.md").replace(
        "Vitamin D supplementation",
        "Vitamin D [@newkey2024] supplementation",
    );
    p.write("paper.md", &paper);
    p.write("notes.md", "Untracked notes cite [@untracked2024].\n");
    let run = p.run(&["check", "--changed-since", "HEAD", "--format", "json"]);
    let mut keys: Vec<String> = run
        .findings()
        .iter()
        .map(|f| f["key"].as_str().unwrap_or("").to_string())
        .collect();
    keys.sort();
    assert_eq!(keys, ["newkey2024", "untracked2024"]);
    assert_eq!(run.code(), 1);
    let bad = p.run(&["check", "--changed-since", "no-such-ref"]);
    assert_eq!(bad.code(), 2);
    assert!(
        bad.stderr().contains("unknown git revision `no-such-ref`"),
        "{}",
        bad.stderr()
    );
}

/// A programme chair's run: the authors' suppression comments hide nothing, and each
/// one that would have hidden a finding is reported (CP904). The flag and the
/// configuration key do the same; without either, the comment hides the finding.
#[test]
fn ignore_inline_suppressions_reports_what_the_comments_hid() {
    let p = Project::copy();
    p.write(
        "sub.md",
        "<!-- citeproof: ignore[CP101] -->\nHidden claim [@nowhere].\n",
    );
    let check =
        |extra: &[&str]| p.run(&[&["check", "sub.md", "--format", "json"][..], extra].concat());
    let honoured = check(&["--exit-zero"]);
    assert!(
        !honoured.codes().contains(&"CP101".to_string()),
        "{}",
        honoured.stdout()
    );
    let flagged = check(&["--ignore-inline-suppressions"]);
    assert_eq!(flagged.code(), 1, "CP101 is an error: {}", flagged.stderr());
    assert_eq!(flagged.codes(), ["CP904", "CP101"], "{}", flagged.stdout());
    assert!(
        flagged
            .stdout()
            .contains("it would hide CP101 undefined-citation"),
        "{}",
        flagged.stdout()
    );
    p.write("chair.toml", "ignore-inline-suppressions = true\n");
    let configured = check(&["--config", "chair.toml"]);
    assert_eq!(
        configured.codes(),
        ["CP904", "CP101"],
        "{}",
        configured.stdout()
    );
    // A submission's own configuration cannot turn the flag off.
    p.write("citeproof.toml", "ignore-inline-suppressions = false\n");
    let overridden = check(&["--ignore-inline-suppressions"]);
    assert_eq!(
        overridden.codes(),
        ["CP904", "CP101"],
        "{}",
        overridden.stdout()
    );
}
