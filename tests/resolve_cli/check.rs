//! `citeproof check` with resolution: diagnostics at the entries, `--no-resolve`, the
//! cache across runs, and `resolve` on a .bib file.

use crate::helpers::{citeproof, findings, write_lines};
use crate::support::{MockConfig, MockWorld};

const PAPER: &[&str] = &[
    "---",
    "bibliography: refs.bib",
    "---",
    "",
    "Residual networks train very deep models [@he2016].",
    "Gradient folding prunes sparse transformers [@lee2023].",
    "A one-dimensional CNN classifies motor imagery [@mattioli2021].",
];

const BIB: &[&str] = &[
    "@inproceedings{he2016,",
    "  author = {He, Kaiming and Zhang, Xiangyu and Ren, Shaoqing and Sun, Jian},",
    "  title = {Deep Residual Learning for Image Recognition},",
    "  booktitle = {CVPR},",
    "  year = {2016}",
    "}",
    "",
    "@article{lee2023,",
    "  author = {Lee, Minji and Novak, Petr},",
    "  title = {Gradient Folding: Pruning Sparse Transformers through Attention Curvature},",
    "  journal = {Transactions on Machine Learning Research},",
    "  year = {2023}",
    "}",
    "",
    "@article{mattioli2021,",
    "  author = {Mattioli, F. and Porcaro, Camillo and Baldassarre, Gianluca},",
    "  title = {A 1D CNN for high accuracy classification and transfer learning in motor imagery EEG-based brain-computer interface},",
    "  journal = {Journal of Neural Engineering},",
    "  year = {2021},",
    "  doi = {10.1088/1741-2552/ac4430}",
    "}",
];

#[test]
fn check_reports_resolution_findings_at_the_entries_and_caches_them() {
    let world = MockWorld::start(MockConfig::fixtures());
    let dir = tempfile::tempdir().unwrap();
    let paper = write_lines(dir.path(), "paper.md", PAPER);
    write_lines(dir.path(), "refs.bib", BIB);
    let cache = dir.path().join("cache");
    let args = [
        "check",
        paper.to_str().unwrap(),
        "--cache-dir",
        cache.to_str().unwrap(),
    ];
    let run = citeproof(Some(&world), &args);
    assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
    let mut found = findings(&run.stdout);
    found.sort();
    let expected: Vec<(String, String)> = [
        ("CP201", "lee2023"),
        ("CP202", "mattioli2021"),
        ("CP212", "he2016"),
    ]
    .iter()
    .map(|(c, k)| (c.to_string(), k.to_string()))
    .collect();
    assert_eq!(found, expected, "{}", run.stdout);
    assert!(run.stdout.contains("refs.bib:8:"), "{}", run.stdout);
    assert!(
        run.stderr
            .contains("3 references: 1 verified, 0 miscited, 1 not found, 1 retracted"),
        "{}",
        run.stderr
    );
    world.clear_requests();
    let warm = citeproof(Some(&world), &args);
    assert_eq!(warm.stdout, run.stdout);
    assert_eq!(world.total_requests(), 0);
    let local = citeproof(
        Some(&world),
        &["check", paper.to_str().unwrap(), "--no-resolve"],
    );
    assert!(
        findings(&local.stdout)
            .iter()
            .all(|(c, _)| !c.starts_with("CP2"))
    );
    assert_eq!(world.total_requests(), 0);
}

#[test]
fn resolve_reads_a_bib_file_and_a_bibtex_corpus() {
    let world = MockWorld::start(MockConfig::fixtures());
    let dir = tempfile::tempdir().unwrap();
    let bib = write_lines(dir.path(), "refs.bib", BIB);
    let bib = bib.to_str().unwrap();
    let run = citeproof(
        Some(&world),
        &["resolve", bib, "--format", "jsonl", "--no-cache"],
    );
    let ids: Vec<String> = run
        .lines()
        .iter()
        .map(|l| l["id"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(ids, ["he2016", "lee2023", "mattioli2021"]);
    assert_eq!(
        run.statuses(),
        ["verified", "not_found", "retracted"],
        "{}",
        run.stdout
    );
    // The same entries as a BibTeX corpus: each verified against itself, offline.
    let own = citeproof(
        None,
        &[
            "resolve",
            bib,
            "--format",
            "jsonl",
            "--no-cache",
            "--offline",
            "--corpus",
            bib,
        ],
    );
    assert_eq!(own.statuses(), ["verified"; 3], "{}", own.stdout);
    assert!(own.lines().iter().all(|l| l["match"]["source"] == "corpus"));
}
