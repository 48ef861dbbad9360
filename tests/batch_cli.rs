//! `citeproof batch` as the real binary: submissions (folders, a .zip, a .tar.gz, a
//! damaged PDF) resolved against the mock world (tests/support), one summary line
//! each with policy classes and evidence links, reports per submission, the exit
//! code across submissions; a run killed with SIGKILL mid-batch resumes without
//! checking again what it finished and writes the summary an uninterrupted run
//! writes; shards concatenated are the whole batch.

mod bin_support;
mod crash_support;
mod support;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value;
use support::{Latency, MockConfig, MockWorld, Work};

/// Works of the mock world; the submissions cite them by DOI and title.
const WORKS: [(&str, &str); 4] = [
    (
        "10.5555/batch.1",
        "Gradient descent on lattice entropy in sparse networks",
    ),
    (
        "10.5555/batch.2",
        "Protein folding with attention over glacier-scale corpora",
    ),
    (
        "10.5555/batch.3",
        "Soil enzyme dynamics observed through quantum sensors",
    ),
    (
        "10.5555/batch.4",
        "Market orbit models for language acquisition in infants",
    ),
];

fn world(latency_ms: u64) -> MockWorld {
    let works = WORKS
        .iter()
        .enumerate()
        .map(|(i, (doi, title))| {
            serde_json::from_value::<Work>(serde_json::json!({
                "id": format!("b{i}"), "doi": doi, "arxiv": null, "pmid": null, "pmcid": null,
                "s2": null, "openalex": null, "title": title,
                "authors": [{"given": "Ada", "family": format!("Author{i}")}], "year": 2020 + i,
                "venue": "Journal of Tests", "type": "journal-article", "abstract": null,
                "is_retracted": false, "oa_url": null, "full_text_file": null,
                "sources": ["crossref", "openalex", "semantic_scholar"]
            }))
            .expect("work")
        })
        .collect();
    MockWorld::start(MockConfig::works(works).latency_all(Latency::fixed_ms(latency_ms)))
}

/// A Markdown paper citing two real works (by DOI) and, when `fabricated`, one that
/// does not exist.
fn paper(n: usize, fabricated: bool) -> (String, String) {
    let (a, b) = (WORKS[n % 4], WORKS[(n + 1) % 4]);
    let mut bib = String::new();
    let mut text = String::from("---\nbibliography: refs.bib\n---\n\n");
    for (i, (doi, title)) in [a, b].iter().enumerate() {
        let k = WORKS.iter().position(|w| w.0 == *doi).unwrap();
        text.push_str(&format!("Claim {i} of paper {n} [@r{i}].\n"));
        bib.push_str(&format!(
            "@article{{r{i},\n  author = {{Author{k}, Ada}},\n  title = {{{title}}},\n  \
             journal = {{Journal of Tests}},\n  year = {{{}}},\n  doi = {{{doi}}}\n}}\n\n",
            2020 + k
        ));
    }
    if fabricated {
        text.push_str("A bold claim [@fake].\n");
        bib.push_str(&format!(
            "@article{{fake,\n  author = {{Nobody, Ned}},\n  title = {{Invented results on \
             imaginary benchmark number {n}}},\n  journal = {{Journal of Tests}},\n  \
             year = {{2021}},\n  doi = {{10.5555/fabricated.{n}}}\n}}\n"
        ));
    }
    (text, bib)
}

/// `count` submission folders `s00`… (every third with a fabricated reference), and
/// when `extras`, a .zip, a .tar.gz and a damaged PDF.
fn submissions(root: &Path, count: usize, extras: bool) -> PathBuf {
    let subs = root.join("subs");
    for n in 0..count {
        let dir = subs.join(format!("s{n:02}"));
        std::fs::create_dir_all(&dir).unwrap();
        let (text, bib) = paper(n, n % 3 == 0);
        std::fs::write(dir.join("paper.md"), text).unwrap();
        std::fs::write(dir.join("refs.bib"), bib).unwrap();
    }
    if extras {
        let (text, bib) = paper(100, true);
        let mut zip = zip::ZipWriter::new(std::fs::File::create(subs.join("zipped.zip")).unwrap());
        let options = zip::write::SimpleFileOptions::default();
        zip.start_file("paper.md", options).unwrap();
        zip.write_all(text.as_bytes()).unwrap();
        zip.start_file("refs.bib", options).unwrap();
        zip.write_all(bib.as_bytes()).unwrap();
        zip.finish().unwrap();
        let (text, bib) = paper(101, false);
        let gz = flate2::write::GzEncoder::new(
            std::fs::File::create(subs.join("tarred.tar.gz")).unwrap(),
            flate2::Compression::fast(),
        );
        let mut tar = tar::Builder::new(gz);
        for (name, body) in [("paper.md", text), ("refs.bib", bib)] {
            let mut header = tar::Header::new_gnu();
            header.set_size(body.len() as u64);
            header.set_mode(0o644);
            header.set_cksum();
            tar.append_data(&mut header, name, body.as_bytes()).unwrap();
        }
        tar.into_inner().unwrap().finish().unwrap();
        std::fs::write(subs.join("damaged.pdf"), "%PDF-1.7 then nothing at all").unwrap();
    }
    subs
}

fn batch(world: &MockWorld, cwd: &Path, cache: &Path, args: &[&str]) -> Command {
    let mut command = bin_support::citeproof_in_world(world.env());
    command
        .env("CITEPROOF_CACHE_DIR", cache)
        .current_dir(cwd)
        .arg("batch")
        .args(args);
    command
}

fn lines(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn each_submission_gets_a_line_reports_and_the_policy_decides_the_exit_code() {
    let world = world(0);
    let dir = tempfile::tempdir().unwrap();
    submissions(dir.path(), 3, true);
    let out = batch(
        &world,
        dir.path(),
        &dir.path().join("cache"),
        &[
            "subs",
            "--out",
            "out",
            "--policy",
            "iclr-2026",
            "--jobs",
            "2",
        ],
    )
    .output()
    .unwrap();
    // The damaged PDF could not be checked: that outranks the failing findings.
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let summary = lines(&dir.path().join("out/summary.jsonl"));
    let ids: Vec<&str> = summary.iter().map(|l| l["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["damaged", "s00", "s01", "s02", "tarred", "zipped"]);
    let by_id = |id: &str| summary.iter().find(|l| l["id"] == id).unwrap();

    let damaged = by_id("damaged");
    assert_eq!(damaged["status"], "failed");
    assert!(
        damaged["error"].as_str().unwrap().contains("damaged.pdf"),
        "{damaged}"
    );

    let clean = by_id("s01");
    assert_eq!(clean["status"], "ok", "{clean}");
    assert_eq!(clean["references"], 2);
    assert_eq!(clean["failing"], false, "{clean}");
    assert_eq!(clean["policy"], "iclr-2026");
    assert_eq!(clean["counts"]["hallucinated"], 0, "{clean}");

    for id in ["s00", "zipped"] {
        let fabricated = by_id(id);
        assert_eq!(fabricated["references"], 3, "{fabricated}");
        assert_eq!(fabricated["failing"], true, "{fabricated}");
        assert_eq!(fabricated["counts"]["hallucinated"], 1, "{fabricated}");
        let worst = &fabricated["worst"][0];
        assert_eq!(worst["policy_class"], "hallucinated", "{worst}");
        assert_eq!(worst["key"], "fake", "{worst}");
        assert!(
            worst["evidence"].as_array().unwrap().iter().any(|l| l
                .as_str()
                .unwrap()
                .starts_with("https://doi.org/10.5555/fabricated")),
            "the finding's DOI is its evidence: {worst}"
        );
    }
    assert_eq!(by_id("tarred")["status"], "ok");
    assert_eq!(by_id("tarred")["references"], 2);

    for id in ["s00", "s01", "tarred", "zipped"] {
        let json: Value = serde_json::from_str(
            &std::fs::read_to_string(dir.path().join(format!("out/reports/{id}.json"))).unwrap(),
        )
        .unwrap();
        assert!(json.is_array() || json.is_object(), "{id}: {json}");
        let html =
            std::fs::read_to_string(dir.path().join(format!("out/reports/{id}.html"))).unwrap();
        assert!(html.contains("<html"), "{id}");
    }
    let csv = std::fs::read_to_string(dir.path().join("out/summary.csv")).unwrap();
    let header = csv.lines().next().unwrap();
    assert!(
        header.starts_with("id,path,status,error,references,findings,failing,count_hallucinated"),
        "{header}"
    );
    assert_eq!(csv.lines().count(), 7, "{csv}");

    // Without the damaged PDF, the fabricated references fail the batch (1), and
    // --exit-zero lets it pass.
    std::fs::remove_file(dir.path().join("subs/damaged.pdf")).unwrap();
    let cache = dir.path().join("cache");
    let args = ["subs", "--policy", "iclr-2026", "--out"];
    let out = batch(&world, dir.path(), &cache, &[&args[..], &["out2"]].concat())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let zero = [&args[..], &["out3", "--exit-zero"]].concat();
    let out = batch(&world, dir.path(), &cache, &zero).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

/// Journal lines that record a finished submission.
fn finished(journal: &Path) -> usize {
    std::fs::read_to_string(journal)
        .map(|t| t.lines().filter(|l| l.starts_with("{\"finished\"")).count())
        .unwrap_or(0)
}

#[test]
fn a_batch_killed_mid_run_resumes_to_the_summary_of_an_uninterrupted_run() {
    const COUNT: usize = 30;
    // Each request waits, so the batch runs long enough to be killed in the middle.
    let world = world(60);
    let dir = tempfile::tempdir().unwrap();
    submissions(dir.path(), COUNT, false);
    let run = |out: &str, cache: &str| {
        batch(
            &world,
            dir.path(),
            &dir.path().join(cache),
            &["subs", "--out", out, "--jobs", "2"],
        )
    };

    let whole = run("whole", "cache-whole").output().unwrap();
    assert_eq!(whole.status.code(), Some(1), "{}", stderr(&whole));

    let journal = dir.path().join("killed/journal.jsonl");
    let mut child = run("killed", "cache-killed")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let some = crash_support::poll(120, || finished(&journal) >= 3);
    crash_support::kill_9(&mut child);
    assert!(some, "no submission finished in time");
    let before = finished(&journal);
    assert!(
        before < COUNT,
        "the run finished before it was killed ({before} of {COUNT})"
    );
    assert!(!dir.path().join("killed/summary.jsonl").exists());

    let resumed = run("killed", "cache-killed").output().unwrap();
    assert_eq!(resumed.status.code(), Some(1), "{}", stderr(&resumed));
    assert!(
        stderr(&resumed).contains(&format!("({before} finished by an earlier run)")),
        "{}",
        stderr(&resumed)
    );
    // Nothing finished was checked again: one journal line per submission.
    assert_eq!(finished(&journal), COUNT);
    for file in ["summary.jsonl", "summary.csv"] {
        let a = std::fs::read_to_string(dir.path().join("whole").join(file)).unwrap();
        let b = std::fs::read_to_string(dir.path().join("killed").join(file)).unwrap();
        assert_eq!(a, b, "{file} differs after the resume");
    }
    assert_eq!(lines(&dir.path().join("whole/summary.jsonl")).len(), COUNT);

    // Run again with other settings into the same folder: refused, naming the journal.
    let other = batch(
        &world,
        dir.path(),
        &dir.path().join("cache-killed"),
        &["subs", "--out", "killed", "--policy", "iclr-2026"],
    )
    .output()
    .unwrap();
    assert_eq!(other.status.code(), Some(2));
    assert!(
        stderr(&other).contains("journal.jsonl"),
        "{}",
        stderr(&other)
    );
}

#[test]
fn shards_concatenated_are_the_whole_batch_and_a_list_file_names_submissions() {
    let dir = tempfile::tempdir().unwrap();
    submissions(dir.path(), 5, false);
    let local = |args: &[&str]| {
        let out = bin_support::citeproof()
            .current_dir(dir.path())
            .arg("batch")
            .args(args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    };
    local(&["subs", "--out", "all"]);
    local(&["subs", "--out", "one", "--shard", "1/2"]);
    local(&["subs", "--out", "two", "--shard", "2/2"]);
    let read = |name: &str| std::fs::read_to_string(dir.path().join(name)).unwrap();
    assert_eq!(
        read("one/summary.jsonl") + &read("two/summary.jsonl"),
        read("all/summary.jsonl")
    );
    assert_eq!(lines(&dir.path().join("one/summary.jsonl")).len(), 2);

    // `batch merge` makes the shards (given in any order) the whole batch, with totals.
    local(&["merge", "two", "one", "--out", "merged"]);
    assert_eq!(read("merged/summary.jsonl"), read("all/summary.jsonl"));
    assert_eq!(read("merged/summary.csv"), read("all/summary.csv"));
    assert_eq!(
        read("merged/reports/s04.json"),
        read("all/reports/s04.json")
    );
    let totals: Value = serde_json::from_str(&read("merged/totals.json")).unwrap();
    assert_eq!(totals["complete"], true, "{totals}");
    assert_eq!(totals["submissions"], 5, "{totals}");
    assert_eq!(totals["shards"], 2, "{totals}");
    // A shard missing, or given twice: the merge says so and exits with 2.
    let merge = |args: &[&str]| {
        bin_support::citeproof()
            .current_dir(dir.path())
            .args([&["batch", "merge"][..], args].concat())
            .output()
            .unwrap()
    };
    let out = merge(&["one", "one", "--out", "partial"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("missing shard(s): 2/2"),
        "{}",
        stderr(&out)
    );
    assert!(
        stderr(&out).contains("given more than once: 1/2"),
        "{}",
        stderr(&out)
    );
    let totals: Value = serde_json::from_str(&read("partial/totals.json")).unwrap();
    assert_eq!(totals["complete"], false, "{totals}");
    assert_eq!(
        totals["duplicate_submissions"],
        serde_json::json!(["s00", "s01"])
    );
    let out = merge(&["one", "two", "--out", "one"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("one of the folders merged"),
        "{}",
        stderr(&out)
    );

    std::fs::write(
        dir.path().join("picked.list"),
        "# two of them\nsubs/s03\nsubs/s01\n",
    )
    .unwrap();
    local(&["picked.list", "--out", "picked"]);
    let picked = lines(&dir.path().join("picked/summary.jsonl"));
    let ids: Vec<&str> = picked.iter().map(|l| l["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["s01", "s03"]);
    assert_eq!(picked[0]["counts"]["error"], 0, "{}", picked[0]);
}

/// A submission that hides its fabricated reference behind a suppression comment
/// passes a plain batch; `--ignore-inline-suppressions` finds it, and says which
/// comment tried to hide it.
#[test]
fn a_chair_sees_findings_that_the_authors_suppressed() {
    let world = world(0);
    let dir = tempfile::tempdir().unwrap();
    let subs = submissions(dir.path(), 1, false);
    let bib = subs.join("s00/refs.bib");
    let text = std::fs::read_to_string(&bib).unwrap().replace(
        "@article{fake",
        "% citeproof: ignore[reference-not-found]\n@article{fake",
    );
    std::fs::write(&bib, text).unwrap();
    let cache = dir.path().join("cache");
    let run = |out: &str, extra: &[&str]| {
        let args = [&["subs", "--policy", "iclr-2026", "--out", out][..], extra].concat();
        let output = batch(&world, dir.path(), &cache, &args).output().unwrap();
        (
            output.status.code(),
            lines(&dir.path().join(out).join("summary.jsonl")),
        )
    };
    let (code, plain) = run("plain", &[]);
    assert_eq!(code, Some(0));
    assert_eq!(plain[0]["counts"]["hallucinated"], 0, "{}", plain[0]);

    let (code, chair) = run("chair", &["--ignore-inline-suppressions"]);
    assert_eq!(code, Some(1));
    assert_eq!(chair[0]["counts"]["hallucinated"], 1, "{}", chair[0]);
    assert_eq!(chair[0]["failing"], true, "{}", chair[0]);
    let report = std::fs::read_to_string(dir.path().join("chair/reports/s00.json")).unwrap();
    assert!(
        report.contains("CP904") && report.contains("it would hide CP201 reference-not-found"),
        "{report}"
    );
}
