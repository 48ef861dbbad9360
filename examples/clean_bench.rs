//! The clean benchmark: labelled answers generated from the world's real works and
//! ExpertQA's answers (see `support/clean_gen.rs`), cleaned against their sources
//! (closed world) and, with `--open`, resolved against the mock scholarly world
//! serving the same works, with injected faults.
//!
//! ```text
//! cargo run --release --example clean_bench -- [--split dev|heldout] [--answers 400]
//!     [--seed 7] [--write-set FILE] [--embedding-model DIR] [--scoring MODE]
//!     [--preset microtrait] [--metric score|cosine] [--threshold T] [--swap-margin M]
//!     [--sweep] [--misses] [--open] [--fault-rate 0.3]
//!     [--paraphrased] [--ci-answers 300] [--calibrate [--write-fitted]]
//! ```
//!
//! `--paraphrased` also cleans answers built from Citation-Integrity dev claims (human
//! paraphrase, see `support/clean_ci.rs`) and prints the judge's table for both sets:
//! mismatch recall (easy: another field, hard: the same field), valid citations kept,
//! removal precision, and the curve over the removal threshold. `--calibrate` fits
//! the judge's decision model for the scoring in use on development answers only
//! (Citation-Integrity train claims, copied answers of seed 1007) and prints it;
//! `--write-fitted` writes it to `src/verify/judge/fitted.rs` (see docs/judge.md).
//!
//! `dev` answers use ExpertQA's `rand_test` prose and one half of the world's works;
//! `heldout` answers use `domain_test` (held out: print the figures, never tune on
//! them) and the other half. Prints removal precision and recall, not-found recall,
//! the share removed of each kind of citation, and answers per second; `--open`
//! prints the open-world figures without faults and with them (the goal: no
//! citation removed because a source failed).

#[path = "support/clean_calibrate.rs"]
mod clean_calibrate;
#[path = "support/clean_ci.rs"]
mod clean_ci;
#[path = "support/clean_gen.rs"]
mod clean_gen;
#[path = "support/clean_judge_table.rs"]
mod clean_judge_table;
#[path = "support/clean_open.rs"]
mod clean_open;
#[path = "support/clean_score.rs"]
mod clean_score;
#[path = "support/clean_world.rs"]
mod clean_world;
#[path = "support/clean_writer.rs"]
mod clean_writer;
#[path = "../tests/support/mod.rs"]
mod support;
// Shared with the verification examples, which use more of it.
#[allow(dead_code)]
#[path = "support/verify_data.rs"]
mod verify_data;

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use clap::Parser;

use citeproof::clean::{
    Article, CleanOptions, CleanRequest, Cleaner, CleanerSettings, Metric, Preset, clean_blocking,
};
use citeproof::verify::backend::VerifySettings;
use citeproof::verify::fulltext::FullTextConfig;
use citeproof::verify::hybrid::ScoringMode;

use clean_gen::{Case, Generator};
use clean_score::Scores;

#[derive(Parser)]
struct Args {
    /// dev (tune on it) or heldout (print figures only).
    #[arg(long, default_value = "dev")]
    split: String,
    #[arg(long, default_value_t = 400)]
    answers: usize,
    #[arg(long, default_value_t = 7)]
    seed: u64,
    /// Write the labelled answers (JSONL) to FILE.
    #[arg(long)]
    write_set: Option<PathBuf>,
    /// A local all-MiniLM-L6-v2 directory (hybrid scoring; needed for cosine).
    #[arg(long)]
    embedding_model: Option<PathBuf>,
    #[arg(long)]
    preset: Option<String>,
    #[arg(long)]
    metric: Option<String>,
    #[arg(long)]
    threshold: Option<f64>,
    /// How much more of a sentence another source must hold for a swap (1: off).
    #[arg(long)]
    swap_margin: Option<f64>,
    /// Print precision and recall over a range of thresholds (dev only).
    #[arg(long)]
    sweep: bool,
    /// Print every wrong decision (dev only).
    #[arg(long)]
    misses: bool,
    /// Fit the judge's decision model on development answers (Citation-Integrity
    /// train, copied answers of another seed), print it and exit.
    #[arg(long)]
    calibrate: bool,
    /// With --calibrate: write the fitted model to src/verify/judge/fitted.rs.
    #[arg(long)]
    write_fitted: bool,
    /// Scoring mode with the model: hybrid (default) or embeddings.
    #[arg(long)]
    scoring: Option<String>,
    /// Also clean answers built from Citation-Integrity dev claims (paraphrase).
    #[arg(long)]
    paraphrased: bool,
    /// Answers built from Citation-Integrity claims.
    #[arg(long, default_value_t = 300)]
    ci_answers: usize,
    /// Also run the open world against the mock scholarly world.
    #[arg(long)]
    open: bool,
    /// Share of the mock's requests that fail, for the faulted open-world run.
    #[arg(long, default_value_t = 0.3)]
    fault_rate: f64,
    /// Answers of the open-world runs (they resolve over HTTP: fewer by default).
    #[arg(long, default_value_t = 120)]
    open_answers: usize,
}

fn shared() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data");
    dir.join("world/works.jsonl").exists().then_some(dir)
}

fn main() {
    let args = Args::parse();
    let Some(data) = shared() else {
        eprintln!("clean_bench: ../shared is absent; nothing to measure");
        return;
    };
    let heldout = match args.split.as_str() {
        "dev" => false,
        "heldout" => true,
        other => panic!("--split {other}: expected dev or heldout"),
    };
    if heldout && (args.sweep || args.misses) {
        panic!("the held-out split prints figures only (no --sweep, no --misses)");
    }
    let started = Instant::now();
    let world_path = data.join("world/works.jsonl");
    let works = clean_world::load_works(&world_path, u64::from(heldout));
    let neighbours = clean_world::neighbours(&works, 60);
    let answers_file = if heldout {
        "domain_test.jsonl"
    } else {
        "rand_test.jsonl"
    };
    let prose = clean_world::expertqa_prose(&data.join("llm_answers/expertqa").join(answers_file));
    let mut generator = Generator::new(&works, &neighbours, &prose, args.seed);
    let cases: Vec<Case> = (0..args.answers)
        .map(|i| generator.case(format!("{}-{i:04}", args.split)))
        .collect();
    println!(
        "{} answers ({} split: {} works with abstracts, {} ExpertQA sentences from {answers_file}); \
         generated in {:.1} s",
        cases.len(),
        args.split,
        works.len(),
        prose.len(),
        started.elapsed().as_secs_f64()
    );
    if let Some(path) = &args.write_set {
        let mut file = std::fs::File::create(path).expect("labelled set file");
        for case in &cases {
            writeln!(file, "{}", serde_json::to_string(case).expect("case")).expect("write");
        }
        println!("labelled set written to {}", path.display());
    }
    let verify = args.embedding_model.clone().map(|dir| {
        let mut v = VerifySettings::new(FullTextConfig::default());
        v.embedding_model = Some(dir);
        v.scoring = args
            .scoring
            .as_deref()
            .map(|m| ScoringMode::parse(m).expect("--scoring lexical|embeddings|hybrid"));
        v
    });
    let options = CleanOptions {
        preset: args
            .preset
            .as_deref()
            .map(|p| p.parse::<Preset>().expect("preset")),
        metric: args
            .metric
            .as_deref()
            .map(|m| m.parse::<Metric>().expect("metric")),
        threshold: args.threshold,
        swap_margin: args.swap_margin,
        ..CleanOptions::default()
    };
    let cleaner = Cleaner::new(CleanerSettings {
        defaults: options.clone(),
        resolve: None,
        verify: verify.clone(),
        ..CleanerSettings::default()
    })
    .expect("cleaner");
    if args.calibrate {
        calibrate(&cleaner, &works, &neighbours, &prose, &args);
        return;
    }
    let scores = closed_world(&cases, &cleaner, &args);
    if args.paraphrased {
        let dir = data.join("claim_verification/citation_integrity");
        let mut ci = clean_ci::CiGenerator::new(&dir, "dev", args.seed);
        let ci_cases: Vec<Case> = (0..args.ci_answers)
            .map(|i| ci.case(format!("ci-dev-{i:04}")))
            .collect();
        println!(
            "\n{} paraphrased answers (Citation-Integrity dev, {} cited papers)",
            ci_cases.len(),
            ci.papers()
        );
        let ci_scores = closed_world(&ci_cases, &cleaner, &args);
        println!("\njudge table ({}):", cleaner.judge().name());
        clean_judge_table::print(&[("copied", &scores), ("paraphrased", &ci_scores)]);
    }
    if args.open {
        clean_open::run(&cases, &world_path, options, verify, &args_open(&args));
    }
}

fn args_open(args: &Args) -> clean_open::OpenArgs {
    clean_open::OpenArgs {
        answers: args.open_answers,
        fault_rate: args.fault_rate,
        seed: args.seed,
        misses: args.misses,
    }
}

/// Fit the judge's decision model for the cleaner's scoring on development answers.
fn calibrate(
    cleaner: &Cleaner,
    works: &[clean_world::WorkRec],
    neighbours: &[Vec<usize>],
    prose: &[String],
    args: &Args,
) {
    assert_eq!(args.split, "dev", "calibration runs on the dev split only");
    let started = Instant::now();
    let mut copied = Generator::new(works, neighbours, prose, 1007);
    let copied: Vec<Case> = (0..args.answers)
        .map(|i| copied.case(format!("cal-{i:04}")))
        .collect();
    let dir = shared()
        .expect("shared data")
        .join("claim_verification/citation_integrity");
    let mut ci = clean_ci::CiGenerator::new(&dir, "train", 1007);
    let ci_cases: Vec<Case> = (0..args.ci_answers * 2)
        .map(|i| ci.case(format!("cal-ci-{i:04}")))
        .collect();
    let mut samples = clean_calibrate::samples(cleaner, &copied, 0);
    samples.extend(clean_calibrate::samples(cleaner, &ci_cases, 1));
    let model = clean_calibrate::fit(&samples);
    let mode = cleaner.judge().mode();
    println!(
        "calibration of {} ({} samples: {} copied answers of seed 1007, {} answers of \
         Citation-Integrity train; {:.0} s):\n{model:?}",
        cleaner.judge().name(),
        samples.len(),
        copied.len(),
        ci_cases.len(),
        started.elapsed().as_secs_f64()
    );
    if args.write_fitted {
        let note = format!(
            "Fitted for `{}` scoring ({}) on {} judged citations.",
            mode.as_str(),
            cleaner.judge().name(),
            samples.len()
        );
        let path = clean_calibrate::write(mode, &model, &note);
        println!("written to {}", path.display());
    }
}

/// Clean every answer against its sources and score the decisions.
fn closed_world(cases: &[Case], cleaner: &Cleaner, args: &Args) -> Scores {
    let requests: Vec<CleanRequest> = cases
        .iter()
        .map(|case| CleanRequest {
            answer: case.answer.clone(),
            sources: Some(
                case.sources
                    .iter()
                    .map(|s| serde_json::from_value::<Article>(s.clone()).expect("article"))
                    .collect(),
            ),
            ..CleanRequest::default()
        })
        .collect();
    let start = Instant::now();
    let cleaned: Vec<_> = requests
        .iter()
        .map(|r| clean_blocking(cleaner, r).expect("clean"))
        .collect();
    let elapsed = start.elapsed().as_secs_f64();
    let scores = Scores::closed(cases, &cleaned);
    let alignment = cleaned
        .first()
        .map(|c| {
            format!(
                "{} (threshold {:.3})",
                c.report.summary.alignment, c.report.summary.threshold
            )
        })
        .unwrap_or_default();
    println!("\nclosed world, {alignment}:");
    scores.print();
    println!(
        "  {:.0} answers/s on one thread ({:.2} ms per answer, {} citations)",
        cases.len() as f64 / elapsed,
        1000.0 * elapsed / cases.len() as f64,
        scores.labels
    );
    if args.misses {
        for m in &scores.misses {
            println!("  miss: {m}");
        }
    }
    if args.sweep {
        scores.sweep();
    }
    scores
}
