//! Throughput of `citeproof batch`: generates N synthetic LaTeX submissions (about 40
//! references each, drawn from `../shared/data/world/works.jsonl`; a few fabricated,
//! a few mis-cited: wrong year or wrong first author), builds an offline index from
//! the world (`citeproof index build --corpus`), and times `citeproof batch --offline
//! --index … --index-complete` with an empty cache. Prints submissions per minute and
//! the summary's totals. With `--kill-after K`, a second run into another folder is
//! killed with SIGKILL once K submissions are in its journal, resumed, and its summary
//! compared with the uninterrupted run's.
//!
//! ```text
//! cargo build --release --bin citeproof --example batch_bench
//! target/release/examples/batch_bench --submissions 1000 --jobs 2 [--kill-after 400]
//! ```

#[path = "support/lcg.rs"]
mod lcg;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use clap::Parser;
use serde_json::Value;

use lcg::Lcg;

#[derive(Parser)]
struct Args {
    /// Submissions generated.
    #[arg(long, default_value_t = 1000)]
    submissions: usize,
    /// References per submission.
    #[arg(long, default_value_t = 40)]
    refs: usize,
    /// `--jobs` of the batch [default: the number of cores].
    #[arg(long)]
    jobs: Option<usize>,
    /// Where the index, submissions and outputs go.
    #[arg(long, default_value = "target/bench-data/batch")]
    work: PathBuf,
    /// The world the submissions cite.
    #[arg(long, default_value = "../shared/data/world/works.jsonl")]
    world: PathBuf,
    /// The citeproof binary [default: the one built beside this example].
    #[arg(long)]
    bin: Option<PathBuf>,
    /// Kill a second run once this many submissions are done, resume it, compare.
    #[arg(long)]
    kill_after: Option<usize>,
}

/// Works worth citing: a title of four words or more, a year and authors.
fn citable(world: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(world).expect("read the world");
    text.lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|w| {
            w["title"]
                .as_str()
                .is_some_and(|t| t.split_whitespace().count() >= 4)
                && w["year"].is_i64()
                && w["authors"].as_array().is_some_and(|a| !a.is_empty())
        })
        .collect()
}

fn tex_escape(s: &str) -> String {
    s.replace(['{', '}'], "")
        .replace('&', "\\&")
        .replace('%', "\\%")
}

/// One BibTeX entry for `work`, `variant` 0 as recorded, 1 with a wrong year, 2 with
/// a wrong first author.
fn entry(key: &str, work: &Value, variant: usize) -> String {
    let mut authors: Vec<String> = work["authors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            let family = a["family"].as_str().unwrap_or("Anonymous");
            match a["given"].as_str() {
                Some(given) => format!("{}, {}", tex_escape(family), tex_escape(given)),
                None => tex_escape(family),
            }
        })
        .collect();
    let mut year = work["year"].as_i64().unwrap();
    match variant {
        1 => year -= 3,
        2 => authors[0] = "Quibble, Zebediah".to_string(),
        _ => {}
    }
    let mut out = format!(
        "@article{{{key},\n  author = {{{}}},\n  title = {{{}}},\n  year = {{{year}}},\n",
        authors.join(" and "),
        tex_escape(work["title"].as_str().unwrap())
    );
    if let Some(venue) = work["venue"].as_str() {
        let _ = writeln!(out, "  journal = {{{}}},", tex_escape(venue));
    }
    if let Some(doi) = work["doi"].as_str() {
        let _ = writeln!(out, "  doi = {{{doi}}},");
    } else if let Some(arxiv) = work["arxiv"].as_str() {
        let _ = writeln!(out, "  eprint = {{{arxiv}}},\n  archiveprefix = {{arXiv}},");
    }
    out.push_str("}\n\n");
    out
}

const FAKE_WORDS: [&str; 10] = [
    "Hierarchical",
    "contrastive",
    "diffusion",
    "priors",
    "for",
    "federated",
    "graph",
    "reasoning",
    "under",
    "distribution shift",
];

/// A fabricated entry: an invented title, authors and DOI.
fn fabricated(key: &str, rng: &mut Lcg) -> String {
    let words: Vec<&str> = (0..7)
        .map(|_| FAKE_WORDS[rng.next(FAKE_WORDS.len())])
        .collect();
    format!(
        "@inproceedings{{{key},\n  author = {{Nobody, Ned and Fiction, Fay}},\n  title = {{{} \
         {}}},\n  booktitle = {{Proceedings of ICLR}},\n  year = {{2024}},\n  doi = \
         {{10.5555/invented.{}}}\n}}\n\n",
        words.join(" "),
        rng.next(100_000),
        rng.next(1_000_000)
    )
}

fn write_submissions(dir: &Path, works: &[Value], n: usize, refs: usize) {
    let mut rng = Lcg(31);
    for s in 0..n {
        let sub = dir.join(format!("sub{s:04}"));
        std::fs::create_dir_all(&sub).unwrap();
        let (mut tex, mut bib) = (String::new(), String::new());
        tex.push_str("\\documentclass{article}\n\\begin{document}\n");
        for r in 0..refs {
            let key = format!("r{r}");
            let roll = rng.next(100);
            if roll < 5 {
                bib.push_str(&fabricated(&key, &mut rng));
            } else {
                let variant = match roll {
                    5..=8 => 1,
                    9..=11 => 2,
                    _ => 0,
                };
                bib.push_str(&entry(&key, &works[rng.next(works.len())], variant));
            }
            let _ = writeln!(tex, "Finding {r} of submission {s} holds \\cite{{{key}}}.");
        }
        tex.push_str("\\bibliographystyle{plain}\n\\bibliography{refs}\n\\end{document}\n");
        std::fs::write(sub.join("main.tex"), tex).unwrap();
        std::fs::write(sub.join("refs.bib"), bib).unwrap();
    }
}

fn batch(args: &Args, bin: &Path, out: &Path, cache: &Path) -> Command {
    let mut command = Command::new(bin);
    command
        .env("CITEPROOF_CACHE_DIR", cache)
        .arg("batch")
        .arg(args.work.join("subs"))
        .arg("--out")
        .arg(out)
        .arg("--offline")
        .arg("--index")
        .arg(args.work.join("index"))
        .arg("--index-complete")
        .stdout(Stdio::null());
    if let Some(jobs) = args.jobs {
        command.arg("--jobs").arg(jobs.to_string());
    }
    command
}

fn finished(journal: &Path) -> usize {
    std::fs::read_to_string(journal)
        .map(|t| t.lines().filter(|l| l.starts_with("{\"finished\"")).count())
        .unwrap_or(0)
}

fn fresh(dir: &Path) {
    let _ = std::fs::remove_dir_all(dir);
}

fn main() {
    let args = Args::parse();
    if !args.world.exists() {
        println!("skipped: {} is absent", args.world.display());
        return;
    }
    let bin = args.bin.clone().unwrap_or_else(|| {
        let exe = std::env::current_exe().unwrap();
        exe.parent().unwrap().parent().unwrap().join("citeproof")
    });
    std::fs::create_dir_all(&args.work).unwrap();
    let index = args.work.join("index");
    if !index.join("index.sqlite3").exists() {
        let started = Instant::now();
        let status = Command::new(&bin)
            .args(["index", "build"])
            .arg(&index)
            .arg("--corpus")
            .arg(&args.world)
            .stdout(Stdio::null())
            .status()
            .unwrap();
        assert!(status.success(), "index build failed");
        println!("index built from the world in {:.1?}", started.elapsed());
    }
    let works = citable(&args.world);
    if works.is_empty() {
        println!("skipped: {} has no citable works", args.world.display());
        return;
    }
    let subs = args.work.join("subs");
    fresh(&subs);
    write_submissions(&subs, &works, args.submissions, args.refs);
    println!(
        "{} submissions of {} references from {} citable works of the world",
        args.submissions,
        args.refs,
        works.len()
    );

    let (out, cache) = (args.work.join("out"), args.work.join("cache"));
    fresh(&out);
    fresh(&cache);
    let started = Instant::now();
    let status = batch(&args, &bin, &out, &cache).status().unwrap();
    let elapsed = started.elapsed();
    println!(
        "batch: exit {:?}, {} submissions in {:.1?}: {:.1} submissions/minute",
        status.code(),
        args.submissions,
        elapsed,
        args.submissions as f64 / elapsed.as_secs_f64() * 60.0
    );
    report(&out);

    if let Some(kill_after) = args.kill_after {
        let (killed, cache) = (args.work.join("out-killed"), args.work.join("cache-killed"));
        fresh(&killed);
        fresh(&cache);
        let mut child = batch(&args, &bin, &killed, &cache)
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let journal = killed.join("journal.jsonl");
        while finished(&journal) < kill_after {
            assert!(
                child.try_wait().unwrap().is_none(),
                "finished before the kill"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        child.kill().unwrap();
        child.wait().unwrap();
        let at_kill = finished(&journal);
        let status = batch(&args, &bin, &killed, &cache).status().unwrap();
        let same = ["summary.jsonl", "summary.csv"]
            .iter()
            .all(|f| std::fs::read(out.join(f)).unwrap() == std::fs::read(killed.join(f)).unwrap());
        println!(
            "kill -9 after {at_kill} submissions, resumed: exit {:?}, journal lines {}, \
             summary identical to the uninterrupted run: {same}",
            status.code(),
            finished(&journal)
        );
    }
}

/// The summary's totals: submissions ok/failed/failing, references, findings by count.
fn report(out: &Path) {
    let text = std::fs::read_to_string(out.join("summary.jsonl")).expect("summary.jsonl");
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let count = |f: &dyn Fn(&Value) -> bool| lines.iter().filter(|l| f(l)).count();
    let references: u64 = lines.iter().filter_map(|l| l["references"].as_u64()).sum();
    let mut totals: Vec<(String, u64)> = Vec::new();
    for line in &lines {
        for (name, n) in line["counts"].as_object().into_iter().flatten() {
            match totals.iter_mut().find(|(k, _)| k == name) {
                Some((_, total)) => *total += n.as_u64().unwrap_or(0),
                None => totals.push((name.clone(), n.as_u64().unwrap_or(0))),
            }
        }
    }
    let mut rules: Vec<(String, usize)> = Vec::new();
    for worst in lines
        .iter()
        .flat_map(|l| l["worst"].as_array().into_iter().flatten())
    {
        let rule = worst["rule"].as_str().unwrap_or("?").to_string();
        match rules.iter_mut().find(|(k, _)| *k == rule) {
            Some((_, n)) => *n += 1,
            None => rules.push((rule, 1)),
        }
    }
    rules.sort();
    println!(
        "summary: {} lines, {} ok, {} failed, {} failing; {references} references; \
         findings {totals:?}; rules among the worst findings {rules:?}",
        lines.len(),
        count(&|l| l["status"] == "ok"),
        count(&|l| l["status"] == "failed"),
        count(&|l| l["failing"] == true),
    );
}
