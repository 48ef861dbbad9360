//! The computer-science development set: real NeurIPS, ICLR, ICML and *ACL papers of
//! the shared world (`../shared/data/world/works.jsonl`) cited the way authors and LLMs
//! cite them, plus fabricated and mis-cited ones, resolved against the mock scholarly
//! world with the computing platforms (DBLP, OpenReview, ACL Anthology) disabled and
//! then enabled: false alarms on the real references, catches on the wrong ones.
//!
//! ```text
//! cargo run --release --example cs_dev_bench -- [--out /tmp/cs_dev.jsonl] [--seed 7]
//! ```
//!
//! What is real and what is simulated: every paper cited is a real record of the world
//! (title, authors, year, venue, identifiers copied from recorded API responses). The
//! world records no OpenReview notes and no indexing delays, so the generator
//! *simulates* them on some of those papers: "not yet indexed" papers are served only by
//! OpenReview (with an invented forum id and an accepted decision), only by DBLP, or
//! only by the ACL Anthology; "rejected submissions" are real papers with an arXiv id
//! served as an arXiv preprint plus an OpenReview note with a rejected decision
//! (invented). Fabricated references join the first half of one real title to the
//! second half of another, with a third paper's authors. The generated cases are
//! written to `--out` (outside the repository) so they can be read and rerun.

#[path = "../tests/support/mod.rs"]
mod support;

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use citeproof::model::FileId;
use citeproof::net::Rate;
use citeproof::parse::ParseOptions;
use citeproof::resolve::cascade::resolve_blocking;
use citeproof::resolve::mismatch::Field;
use citeproof::resolve::options::ResolveOptions;
use citeproof::resolve::outcome::Status;
use citeproof::resolve::query::{QueryKind, RefQuery};
use citeproof::resolve::resolution::Resolution;
use citeproof::resolve::sources::{SourceName, SourcesSettings};
use clap::Parser;
use serde::Serialize;
use support::world::{OpenReviewNote, Work};
use support::{MockConfig, MockWorld};

#[derive(Parser)]
struct Args {
    /// Where the generated cases are written (JSON Lines).
    #[arg(long, default_value = "/tmp/cs_dev.jsonl")]
    out: PathBuf,
    /// Picks which papers play which part.
    #[arg(long, default_value_t = 7)]
    seed: u64,
    /// Print every case whose outcome is a false alarm or a miss.
    #[arg(long)]
    misses: bool,
}

/// What a case is, and so what a good checker says of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
enum Part {
    /// Correctly cited, indexed everywhere the world says.
    Indexed,
    /// Correctly cited, held only by OpenReview (simulated).
    OpenreviewOnly,
    /// Correctly cited, held only by DBLP (simulated).
    DblpOnly,
    /// Correctly cited, held only by the ACL Anthology (simulated).
    AclOnly,
    /// Does not exist.
    Fabricated,
    /// Real, cited with another venue.
    WrongVenue,
    /// Real, cited with another year.
    WrongYear,
    /// A rejected submission (simulated) cited as accepted at ICLR.
    RejectedAsAccepted,
}

impl Part {
    fn is_real_and_right(self) -> bool {
        matches!(
            self,
            Part::Indexed | Part::OpenreviewOnly | Part::DblpOnly | Part::AclOnly
        )
    }

    /// The field a good checker names as wrong.
    fn wrong_field(self) -> Option<Field> {
        match self {
            Part::WrongVenue | Part::RejectedAsAccepted => Some(Field::Venue),
            Part::WrongYear => Some(Field::Year),
            _ => None,
        }
    }
}

/// One generated reference.
#[derive(Serialize)]
struct Case {
    part: Part,
    /// `llm`, `bibtex`, `acl`, `arxiv`, `et-al`.
    style: &'static str,
    /// The world record it cites (none for a fabricated one).
    world_id: Option<String>,
    input: String,
}

/// Short names of the venue families the set cites.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Family {
    NeurIps,
    Iclr,
    Icml,
    Acl,
    Emnlp,
    Naacl,
}

impl Family {
    fn of(work: &Work) -> Option<Family> {
        let v = work.venue.as_deref()?.to_lowercase();
        let has = |w: &str| v.contains(w);
        if has("neural information processing") || has("neurips") || has("nips") {
            Some(Family::NeurIps)
        } else if has("learning representations") || has("iclr") {
            Some(Family::Iclr)
        } else if has("international conference on machine learning") || v == "icml" {
            Some(Family::Icml)
        } else if has("empirical methods") || has("emnlp") {
            Some(Family::Emnlp)
        } else if has("north american chapter") || has("naacl") {
            Some(Family::Naacl)
        } else if has("association for computational linguistics") || v == "acl" {
            Some(Family::Acl)
        } else {
            None
        }
    }

    /// As an author writes it in a reference list.
    fn long(self) -> &'static str {
        match self {
            Family::NeurIps => "Advances in Neural Information Processing Systems",
            Family::Iclr => "International Conference on Learning Representations",
            Family::Icml => "International Conference on Machine Learning",
            Family::Acl => {
                "Proceedings of the Annual Meeting of the Association for Computational Linguistics"
            }
            Family::Emnlp => {
                "Proceedings of the Conference on Empirical Methods in Natural Language Processing"
            }
            Family::Naacl => {
                "Proceedings of the Conference of the North American Chapter of the Association for Computational Linguistics"
            }
        }
    }

    fn short(self) -> &'static str {
        match self {
            Family::NeurIps => "NeurIPS",
            Family::Iclr => "ICLR",
            Family::Icml => "ICML",
            Family::Acl => "ACL",
            Family::Emnlp => "EMNLP",
            Family::Naacl => "NAACL",
        }
    }

    /// A venue it is confused with.
    fn confused(self) -> Family {
        match self {
            Family::NeurIps => Family::Icml,
            Family::Iclr => Family::NeurIps,
            Family::Icml => Family::NeurIps,
            Family::Acl => Family::Emnlp,
            Family::Emnlp => Family::Naacl,
            Family::Naacl => Family::Acl,
        }
    }
}

/// A small deterministic generator (splitmix64): the set is the same for a seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }
}

fn name(a: &support::world::Author) -> String {
    match &a.given {
        Some(g) => format!("{g} {}", a.family),
        None => a.family.clone(),
    }
}

fn authors_and(work: &Work) -> String {
    let names: Vec<String> = work.authors.iter().take(6).map(name).collect();
    match names.len() {
        0 => String::new(),
        1 => names[0].clone(),
        n if work.authors.len() > 6 => format!("{}, et al.", names[..n].join(", ")),
        n => format!("{}, and {}", names[..n - 1].join(", "), names[n - 1]),
    }
}

fn bibtex_authors(work: &Work) -> String {
    work.authors
        .iter()
        .map(|a| match &a.given {
            Some(g) => format!("{}, {g}", a.family),
            None => a.family.clone(),
        })
        .collect::<Vec<_>>()
        .join(" and ")
}

/// The reference to `work` in `style`, citing `family` and `year`; `url` (an
/// Anthology page) where the style carries one.
fn cite(
    work: &Work,
    style: &'static str,
    family: Family,
    year: i32,
    n: usize,
    url: Option<&str>,
) -> String {
    let title = &work.title;
    match style {
        "bibtex" => format!(
            "@inproceedings{{ref{n},\n  title = {{{title}}},\n  author = {{{}}},\n  \
             booktitle = {{{}}},\n  year = {{{year}}}{}\n}}",
            bibtex_authors(work),
            family.long(),
            url.map(|u| format!(",\n  url = {{{u}}}"))
                .unwrap_or_default()
        ),
        "acl" => format!(
            "{}. {year}. {title}. In {}, pages 1–12.{}",
            bibtex_authors(work).replace(" and ", ", "),
            family.long(),
            url.map(|u| format!(" {u}")).unwrap_or_default()
        ),
        "et-al" => {
            let first = work
                .authors
                .first()
                .map(|a| a.family.as_str())
                .unwrap_or("");
            format!("{first} et al. {title}. {} {year}.", family.short())
        }
        _ => format!(
            "{}. {title}. In {} ({}), {year}.",
            authors_and(work),
            family.long(),
            family.short()
        ),
    }
}

const STYLES: [&str; 4] = ["llm", "bibtex", "acl", "et-al"];

/// The world with the simulated records, and the cases.
fn generate(works: Vec<Work>, seed: u64) -> (Vec<Work>, Vec<Case>) {
    let mut rng = Rng(seed);
    let mut cs: Vec<usize> = (0..works.len())
        .filter(|&i| {
            let w = &works[i];
            Family::of(w).is_some() && w.year.is_some() && !w.authors.is_empty()
        })
        .collect();
    rng.shuffle(&mut cs);
    let mut world = works;
    let mut cases = Vec::new();
    let mut taken = std::collections::HashSet::new();
    let mut pick = |rng: &mut Rng, world: &[Work], want: &dyn Fn(&Work) -> bool, n: usize| {
        let mut out = Vec::new();
        for &i in &cs {
            if out.len() == n {
                break;
            }
            if !taken.contains(&i) && want(&world[i]) {
                taken.insert(i);
                out.push(i);
            }
        }
        let _ = rng;
        out
    };
    let ml = |w: &Work| {
        matches!(
            Family::of(w),
            Some(Family::Iclr | Family::NeurIps | Family::Icml)
        )
    };
    let acl_doi = |w: &Work| {
        w.doi
            .as_deref()
            .is_some_and(|d| d.starts_with("10.18653/v1/"))
    };
    let parts: [(Part, usize); 7] = [
        (Part::OpenreviewOnly, 30),
        (Part::DblpOnly, 25),
        (Part::AclOnly, 25),
        (Part::RejectedAsAccepted, 20),
        (Part::WrongVenue, 30),
        (Part::WrongYear, 30),
        (Part::Indexed, 60),
    ];
    for (part, n) in parts {
        let want: Box<dyn Fn(&Work) -> bool> = match part {
            Part::OpenreviewOnly => Box::new(ml),
            Part::DblpOnly => Box::new(|w: &Work| w.dblp.is_some()),
            Part::AclOnly => Box::new(acl_doi),
            Part::RejectedAsAccepted => Box::new(|w: &Work| w.arxiv.is_some()),
            _ => Box::new(|_: &Work| true),
        };
        for (k, i) in pick(&mut rng, &world, &*want, n).into_iter().enumerate() {
            let family = Family::of(&world[i]).expect("a CS venue");
            let year = world[i].year.expect("a year");
            let forum = format!("sim{:07}", rng.next() % 10_000_000);
            let w = &mut world[i];
            let (cited_family, cited_year) = match part {
                Part::OpenreviewOnly => {
                    let group = match family {
                        Family::NeurIps => "NeurIPS.cc",
                        Family::Icml => "ICML.cc",
                        _ => "ICLR.cc",
                    };
                    w.openreview = Some(OpenReviewNote {
                        id: forum,
                        venueid: format!("{group}/{year}/Conference"),
                        venue: format!("{} {year} Poster", family.short()),
                    });
                    w.held_by = Some(vec!["openreview".into()]);
                    (family, year)
                }
                Part::DblpOnly => {
                    w.held_by = Some(vec!["dblp".into()]);
                    (family, year)
                }
                Part::AclOnly => {
                    w.held_by = Some(vec!["acl".into()]);
                    (family, year)
                }
                Part::RejectedAsAccepted => {
                    w.openreview = Some(OpenReviewNote {
                        id: forum,
                        venueid: format!("ICLR.cc/{}/Conference/Rejected_Submission", year + 1),
                        venue: format!("Submitted to ICLR {}", year + 1),
                    });
                    w.venue = Some("arXiv".into());
                    w.kind = Some("preprint".into());
                    w.doi = None;
                    w.held_by = Some(vec!["arxiv".into(), "openreview".into()]);
                    (Family::Iclr, year + 1)
                }
                Part::WrongVenue => (family.confused(), year),
                Part::WrongYear => (family, if k % 2 == 0 { year + 1 } else { year - 1 }),
                _ => (family, year),
            };
            let style = STYLES[k % STYLES.len()];
            // The Anthology's own BibTeX and the ACL style carry the paper's page.
            let url = (part == Part::AclOnly)
                .then(|| w.doi.as_deref()?.strip_prefix("10.18653/v1/"))
                .flatten()
                .map(|id| format!("https://aclanthology.org/{id}"));
            let n = cases.len();
            cases.push(Case {
                part,
                style,
                world_id: Some(w.id.clone()),
                input: cite(w, style, cited_family, cited_year, n, url.as_deref()),
            });
        }
    }
    // Fabricated: the first half of one title, the second half of another, a third
    // paper's authors, a venue and year of the first.
    let mut made = 0;
    for _ in 0..1000 {
        if made == 40 {
            break;
        }
        let a = &world[cs[rng.below(cs.len())]];
        let b = &world[cs[rng.below(cs.len())]];
        let c = &world[cs[rng.below(cs.len())]];
        let wa: Vec<&str> = a.title.split_whitespace().collect();
        let wb: Vec<&str> = b.title.split_whitespace().collect();
        // A paper the generator turned into a rejected preprint has no CS venue left.
        let Some(family) = Family::of(a) else {
            continue;
        };
        if wa.len() < 4 || wb.len() < 4 || a.id == b.id {
            continue;
        }
        let title = format!(
            "{} {}",
            wa[..wa.len() / 2].join(" "),
            wb[wb.len() / 2..].join(" ")
        );
        let fake = Work {
            title,
            authors: c.authors.clone(),
            ..a.clone()
        };
        let style = STYLES[made % STYLES.len()];
        let n = cases.len();
        cases.push(Case {
            part: Part::Fabricated,
            style,
            world_id: None,
            input: cite(&fake, style, family, a.year.unwrap_or(2023), n, None),
        });
        made += 1;
    }
    (world, cases)
}

fn query(case: &Case) -> RefQuery {
    if case.style == "bibtex" {
        let parsed =
            citeproof::parse::bibtex::parse(FileId(0), &case.input, &ParseOptions::default());
        let r = parsed.references.first().expect("generated BibTeX parses");
        RefQuery::new(r.fields.clone(), r.raw.clone(), QueryKind::Entry)
    } else {
        RefQuery::from_string(&case.input)
    }
}

/// Resolve every case against the mock, with the computing platforms on or off.
fn resolve(world: &MockWorld, queries: &[RefQuery], platforms: bool) -> Vec<Resolution> {
    let mut sources = SourcesSettings::all_at(world.origin()).expect("mock base URLs");
    for s in &mut sources.sources {
        s.rate = Some(Rate::per_second(10_000));
        s.max_concurrency = Some(64);
        if matches!(
            s.name,
            SourceName::Dblp | SourceName::OpenReview | SourceName::Acl
        ) {
            s.enabled = platforms;
        }
    }
    let options = ResolveOptions {
        sources,
        ..ResolveOptions::default()
    };
    resolve_blocking(options, queries).expect("resolver").0
}

/// Whether the outcome is what a good checker says of the case.
fn right(part: Part, r: &Resolution) -> bool {
    match part {
        p if p.is_real_and_right() => r.status == Status::Verified,
        Part::Fabricated => r.status == Status::NotFound,
        p => {
            r.status == Status::Miscited
                && p.wrong_field().is_some_and(|f| r.fields_wrong.contains(&f))
        }
    }
}

/// An accusation of a correctly cited real paper.
fn false_alarm(part: Part, r: &Resolution) -> bool {
    part.is_real_and_right()
        && matches!(
            r.status,
            Status::Miscited | Status::NotFound | Status::Retracted
        )
}

fn report(label: &str, cases: &[Case], resolutions: &[Resolution], misses: bool) {
    println!("{label}");
    let mut by_part: BTreeMap<Part, BTreeMap<&str, usize>> = BTreeMap::new();
    let mut rights: BTreeMap<Part, usize> = BTreeMap::new();
    let (mut real, mut alarms, mut wrong, mut caught) = (0, 0, 0, 0);
    for (case, r) in cases.iter().zip(resolutions) {
        *by_part
            .entry(case.part)
            .or_default()
            .entry(r.status.as_str())
            .or_default() += 1;
        let ok = right(case.part, r);
        *rights.entry(case.part).or_default() += usize::from(ok);
        if case.part.is_real_and_right() {
            real += 1;
            alarms += usize::from(false_alarm(case.part, r));
        } else {
            wrong += 1;
            caught += usize::from(ok);
        }
        if misses && !ok {
            println!(
                "    miss {:?} {} -> {} {:?}: {}",
                case.part,
                case.style,
                r.status.as_str(),
                r.fields_wrong,
                case.input.replace('\n', " ")
            );
        }
    }
    let mut by_style: BTreeMap<(Part, &str), (usize, usize)> = BTreeMap::new();
    for (case, r) in cases.iter().zip(resolutions) {
        let e = by_style.entry((case.part, case.style)).or_default();
        e.0 += usize::from(right(case.part, r));
        e.1 += 1;
    }
    for (part, statuses) in &by_part {
        let total: usize = statuses.values().sum();
        let shown: Vec<String> = statuses.iter().map(|(s, n)| format!("{s} {n}")).collect();
        println!(
            "  {:<22} {:>3}/{:<3} as expected   ({})",
            serde_json::to_value(part).unwrap().as_str().unwrap(),
            rights[part],
            total,
            shown.join(", ")
        );
        let styles: Vec<String> = by_style
            .iter()
            .filter(|((p, _), _)| p == part)
            .map(|((_, style), (ok, n))| format!("{style} {ok}/{n}"))
            .collect();
        println!("  {:<22} by style: {}", "", styles.join(", "));
    }
    println!(
        "  false alarms on correctly cited real papers: {alarms}/{real} = {:.1} %",
        100.0 * alarms as f64 / real.max(1) as f64
    );
    println!(
        "  wrong references caught (fabricated: not found; mis-cited: the wrong field named): \
         {caught}/{wrong} = {:.1} %",
        100.0 * caught as f64 / wrong.max(1) as f64
    );
}

fn main() {
    let args = Args::parse();
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data/world/works.jsonl");
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!(
            "cs_dev_bench: {} is absent; nothing to measure",
            path.display()
        );
        return;
    };
    let works: Vec<Work> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("world record"))
        .collect();
    let (world_works, cases) = generate(works, args.seed);
    let mut out = std::fs::File::create(&args.out).expect("--out file");
    for case in &cases {
        writeln!(out, "{}", serde_json::to_string(case).unwrap()).unwrap();
    }
    println!(
        "{} CS references ({}) written to {}; world of {} works",
        cases.len(),
        STYLES.join(", "),
        args.out.display(),
        world_works.len()
    );
    let world = MockWorld::start(MockConfig::works(world_works).seed(args.seed));
    let queries: Vec<RefQuery> = cases.iter().map(query).collect();
    for (label, platforms) in [
        ("without DBLP, OpenReview, ACL Anthology:", false),
        ("with DBLP, OpenReview, ACL Anthology:", true),
    ] {
        let start = Instant::now();
        let resolutions = resolve(&world, &queries, platforms);
        report(label, &cases, &resolutions, args.misses);
        println!("  ({:.1} s)", start.elapsed().as_secs_f64());
    }
}
