//! `citeproof accept`: a work confirmed real is remembered in
//! `.citeproof/accepted.toml` by its title, authors and year, and its not-found
//! finding is gone from `check`; a fabricated reference with its title, an entry
//! whose authors were edited, and a hand-edited record are all still reported.

mod bin_support;

use std::path::Path;
use std::process::{Command, Output};

const DEMO: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/demo");

/// The demo manuscript in a project folder of its own (a `.git` marks its root).
fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for name in ["paper.md", "refs.bib", "corpus.jsonl"] {
        std::fs::copy(Path::new(DEMO).join(name), dir.path().join(name)).unwrap();
    }
    std::fs::create_dir(dir.path().join(".git")).unwrap();
    dir
}

fn run(dir: &Path, args: &[&str]) -> Output {
    run_with(dir, &[], args)
}

/// [`run`] with more environment variables (a path each).
fn run_with(dir: &Path, env: &[(&str, &Path)], args: &[&str]) -> Output {
    let mut command = Command::new(bin_support::BIN);
    bin_support::isolate(&mut command)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env("CITEPROOF_CACHE_DIR", dir.join(".cache"))
        .envs(env.iter().copied())
        .args(args)
        .output()
        .expect("run citeproof")
}

/// `check` offline against the demo's complete corpus; the finding lines.
fn check(dir: &Path) -> Vec<String> {
    check_with(dir, &[])
}

/// [`check`] with more environment variables.
fn check_with(dir: &Path, env: &[(&str, &Path)]) -> Vec<String> {
    let out = run_with(
        dir,
        env,
        &[
            "check",
            "--offline",
            "--corpus",
            "corpus.jsonl",
            "--corpus-complete",
            "paper.md",
        ],
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.code() == Some(0) || out.status.code() == Some(1),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout.lines().map(str::to_string).collect()
}

fn has(lines: &[String], code: &str, key: &str) -> bool {
    lines
        .iter()
        .any(|l| l.contains(&format!("[{code}]")) && l.contains(&format!("`{key}`")))
}

fn accept(dir: &Path, target: &str) -> Output {
    run(dir, &["accept", target])
}

fn edit(path: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.contains(from), "{from} not in {}", path.display());
    std::fs::write(path, text.replace(from, to)).unwrap();
}

const LEE_AUTHORS: &str = "Lee, Minji and Novak, Petr and Okafor, Chidi";
const LEE_TITLE: &str = "Gradient Folding: Pruning Sparse Transformers through Attention Curvature";

#[test]
fn accepted_work_is_no_longer_reported() {
    let dir = project();
    assert!(has(&check(dir.path()), "CP201", "lee2023"));
    let out = accept(dir.path(), "lee2023");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("accepted `lee2023`"), "{stderr}");
    let file = dir.path().join(".citeproof/accepted.toml");
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains(LEE_TITLE), "{text}");
    assert!(
        text.contains(r#"authors = ["Lee", "Novak", "Okafor"]"#),
        "{text}"
    );
    let after = check(dir.path());
    assert!(!has(&after, "CP201", "lee2023"), "{after:#?}");
    // Only its not-found finding: the retracted work is still reported.
    assert!(has(&after, "CP202", "mattioli2021"), "{after:#?}");
    // Accepting again changes nothing.
    let again = accept(dir.path(), "lee2023");
    assert!(String::from_utf8_lossy(&again.stderr).contains("already accepted"));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), text);
}

#[test]
fn a_fabricated_reference_with_the_accepted_title_is_still_reported() {
    let dir = project();
    assert!(accept(dir.path(), "lee2023").status.success());
    let bib = dir.path().join("refs.bib");
    let mut text = std::fs::read_to_string(&bib).unwrap();
    text.push_str(&format!(
        "\n@article{{fake2024,\n  author = {{Doe, John}},\n  title = {{{LEE_TITLE}}},\n  \
         journal = {{Transactions on Machine Learning Research}},\n  year = {{2023}}\n}}\n"
    ));
    std::fs::write(&bib, text).unwrap();
    let paper = dir.path().join("paper.md");
    let mut text = std::fs::read_to_string(&paper).unwrap();
    text.push_str("\nFolding also prunes attention heads [@fake2024].\n");
    std::fs::write(&paper, text).unwrap();
    let lines = check(dir.path());
    assert!(has(&lines, "CP201", "fake2024"), "{lines:#?}");
    let named = lines
        .iter()
        .find(|l| l.contains("[CP215]") && l.contains("`fake2024`"))
        .unwrap_or_else(|| panic!("no CP215 for fake2024 in {lines:#?}"));
    assert!(named.contains("Lee, Novak, Okafor"), "{named}");
    assert!(named.contains("authors (Doe)"), "{named}");
    // The real one stays accepted.
    assert!(!has(&lines, "CP201", "lee2023"), "{lines:#?}");
}

#[test]
fn edited_authors_are_reported_not_silently_accepted() {
    let dir = project();
    assert!(accept(dir.path(), "lee2023").status.success());
    edit(
        &dir.path().join("refs.bib"),
        LEE_AUTHORS,
        "Lee, Minji and Smith, Adam",
    );
    let lines = check(dir.path());
    assert!(has(&lines, "CP201", "lee2023"), "{lines:#?}");
    assert!(
        lines
            .iter()
            .any(|l| l.contains("[CP215]") && l.contains("authors (Lee, Smith)")),
        "{lines:#?}"
    );
}

#[test]
fn a_hand_edited_record_accepts_nothing_and_is_reported() {
    let dir = project();
    assert!(accept(dir.path(), "lee2023").status.success());
    edit(
        &dir.path().join(".citeproof/accepted.toml"),
        r#""Okafor""#,
        r#""Someone""#,
    );
    let lines = check(dir.path());
    assert!(has(&lines, "CP201", "lee2023"), "{lines:#?}");
    let at = lines
        .iter()
        .position(|l| l.contains("[CP903]"))
        .unwrap_or_else(|| panic!("no CP903 in {lines:#?}"));
    assert!(
        lines[at].contains("no longer matches its fingerprint"),
        "{}",
        lines[at]
    );
    // Placed at the record's `[[work]]` header in the file.
    assert!(
        lines[at + 1].contains(".citeproof/accepted.toml:5:1"),
        "{lines:#?}"
    );
}

#[test]
fn accept_by_the_place_of_a_finding_and_refusals() {
    let dir = project();
    let text = std::fs::read_to_string(dir.path().join("refs.bib")).unwrap();
    let line = text
        .lines()
        .position(|l| l.contains("@article{lee2023"))
        .unwrap()
        + 1;
    let out = accept(dir.path(), &format!("refs.bib:{line}:10"));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("`lee2023`"), "{stderr}");
    assert!(!has(&check(dir.path()), "CP201", "lee2023"));

    let missing = accept(dir.path(), "nosuchkey");
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("no reference has the key"));

    // A title alone is never enough to remember a work by.
    let mut bib = text.clone();
    bib.push_str("\n@misc{bare, title = {A Title and Nothing Else}}\n");
    std::fs::write(dir.path().join("refs.bib"), bib).unwrap();
    let bare = run(dir.path(), &["accept", "bare", "--bib", "refs.bib"]);
    assert_eq!(bare.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&bare.stderr).contains("title alone"),
        "{}",
        String::from_utf8_lossy(&bare.stderr)
    );
}

#[test]
fn the_user_level_file() {
    let dir = project();
    let user = dir.path().join("user-accepted.toml");
    let env = [("CITEPROOF_USER_ACCEPTED", user.as_path())];
    bin_support::succeeded(run_with(
        dir.path(),
        &env,
        &["accept", "--user", "--note", "in press", "lee2023"],
    ));
    assert!(!dir.path().join(".citeproof/accepted.toml").exists());
    let text = std::fs::read_to_string(&user).unwrap();
    assert!(text.contains("note = \"in press\""), "{text}");
    // Read by check when the variable names it, not otherwise.
    assert!(has(&check(dir.path()), "CP201", "lee2023"));
    let lines = check_with(dir.path(), &env);
    assert!(
        !lines.iter().any(|l| l.contains("`lee2023` ")),
        "{lines:#?}"
    );
    assert!(lines.iter().any(|l| l.contains("[CP202]")), "{lines:#?}");
}

#[test]
fn clean_keeps_an_accepted_work() {
    let dir = project();
    let answer = format!(
        "Folding prunes sparse attention heads [1].\n\nReferences:\n\
         [1] Lee M, Novak P, Okafor C. {LEE_TITLE}. Transactions on Machine Learning Research. 2023.\n"
    );
    std::fs::write(dir.path().join("answer.md"), &answer).unwrap();
    let clean = |dir: &Path| {
        let out = run(
            dir,
            &[
                "clean",
                "answer.md",
                "--offline",
                "--corpus",
                "corpus.jsonl",
                "--corpus-complete",
                "--report",
                "report.json",
            ],
        );
        let report: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(dir.join("report.json"))
                .unwrap_or_else(|_| panic!("no report: {}", String::from_utf8_lossy(&out.stderr))),
        )
        .unwrap();
        (String::from_utf8_lossy(&out.stdout).to_string(), report)
    };
    let (cleaned, report) = clean(dir.path());
    assert_eq!(report["citations"][0]["status"], "not_found", "{report:#}");
    assert!(!cleaned.contains("[1]"), "{cleaned}");
    assert!(accept(dir.path(), "lee2023").status.success());
    let (cleaned, report) = clean(dir.path());
    assert_ne!(report["citations"][0]["status"], "not_found", "{report:#}");
    assert_eq!(report["citations"][0]["action"], "kept", "{report:#}");
    assert!(
        report["citations"][0]["reason"]
            .as_str()
            .unwrap_or_default()
            .contains("accepted"),
        "{report:#}"
    );
    assert!(cleaned.contains("heads [1]."), "{cleaned}");
}
