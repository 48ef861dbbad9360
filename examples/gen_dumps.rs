//! Synthetic bulk dumps in the three real formats, for building and benchmarking the
//! offline index: the world of works (`../shared/data/world/works.jsonl`, rendered by
//! the mock world's own OpenAlex and Crossref record builders) plus N filler works whose
//! title words, title lengths, author counts, names, venues and years follow the
//! world's distributions.
//!
//! ```text
//! cargo run --release --example gen_dumps -- --out target/bench-data/1m --fillers 1000000
//!     [--updates 0.01] [--seed 7]
//! ```
//!
//! Writes `OUT/openalex/data/works/updated_date=2025-01-01/part_NNN.gz` (JSON Lines of
//! Work objects; with `--updates F`, a later partition `updated_date=2025-06-01` holding
//! a share F of the works again, changed), `OUT/crossref/NNNN.json.gz` (`{"items": […]}`,
//! works with Crossref DOIs, retraction notices with `update-to`) and
//! `OUT/dblp/dblp.xml.gz` (computer-science works, Latin-1 letters as DTD entities).
//! Every file is written as a stream; memory does not grow with N.

#[path = "../tests/support/mod.rs"]
mod support;

use std::collections::HashMap;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use clap::Parser;
use flate2::Compression;
use flate2::write::GzEncoder;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use serde_json::{Value, json};

use support::service::{AppState, Source};
use support::world::{Entry, World};

#[derive(Parser)]
struct Args {
    #[arg(long)]
    out: PathBuf,
    /// Filler works besides the world's.
    #[arg(long, default_value_t = 1_000_000)]
    fillers: u64,
    /// Share of the works written again, changed, in a later OpenAlex partition.
    #[arg(long, default_value_t = 0.0)]
    updates: f64,
    #[arg(long, default_value_t = 7)]
    seed: u64,
    /// The world of works.
    #[arg(long, default_value = "../shared/data/world/works.jsonl")]
    world: PathBuf,
}

const OPENALEX_PER_FILE: u64 = 500_000;
const CROSSREF_PER_FILE: u64 = 5_000;

type Gz = GzEncoder<BufWriter<File>>;

fn gz(path: &Path) -> Gz {
    std::fs::create_dir_all(path.parent().expect("parent")).expect("create folder");
    GzEncoder::new(
        BufWriter::new(File::create(path).expect("create dump file")),
        Compression::fast(),
    )
}

/// The distributions fillers are drawn from, taken from the world.
struct Pools {
    title_words: Vec<String>,
    title_lengths: Vec<usize>,
    author_counts: Vec<usize>,
    given: Vec<String>,
    family: Vec<String>,
    venues: Vec<String>,
    years: Vec<i32>,
    abstract_words: Vec<String>,
}

impl Pools {
    fn from_world(world: &World) -> Pools {
        let mut p = Pools {
            title_words: Vec::new(),
            title_lengths: Vec::new(),
            author_counts: Vec::new(),
            given: Vec::new(),
            family: Vec::new(),
            venues: Vec::new(),
            years: Vec::new(),
            abstract_words: Vec::new(),
        };
        for e in &world.entries {
            let w = &e.work;
            let words: Vec<&str> = w.title.split_whitespace().collect();
            p.title_lengths.push(words.len().max(2));
            // Every occurrence is kept, so sampling follows the words' frequencies.
            p.title_words.extend(words.iter().map(|s| s.to_string()));
            p.author_counts.push(w.authors.len().max(1));
            for a in &w.authors {
                if let Some(g) = &a.given {
                    p.given.push(g.clone());
                }
                p.family.push(a.family.clone());
            }
            p.venues.extend(w.venue.clone());
            p.years.extend(w.year);
            if let Some(text) = &w.abstract_text {
                p.abstract_words
                    .extend(text.split_whitespace().take(200).map(str::to_string));
            }
        }
        p
    }
}

fn pick<'a, T>(rng: &mut StdRng, items: &'a [T]) -> &'a T {
    &items[rng.random_range(0..items.len())]
}

/// A filler work, drawn from the pools; ids are shaped like real ones but cannot be
/// any real work's (`10.NNNN/syn…` DOIs, 2008–2014 arXiv numbers with five digits,
/// PMIDs above 80 000 000).
struct Filler {
    n: u64,
    title: String,
    authors: Vec<(String, String)>,
    year: i32,
    venue: String,
    doi: Option<String>,
    crossref: bool,
    arxiv: Option<String>,
    pmid: Option<String>,
    dblp: bool,
    abstract_text: Option<String>,
}

fn filler(rng: &mut StdRng, p: &Pools, n: u64) -> Filler {
    let len = *pick(rng, &p.title_lengths);
    let mut words: Vec<String> = (0..len)
        .map(|_| pick(rng, &p.title_words).clone())
        .collect();
    if let Some(first) = words.first_mut() {
        let mut c = first.chars();
        if let Some(head) = c.next() {
            *first = head.to_uppercase().chain(c).collect();
        }
    }
    let authors = (0..*pick(rng, &p.author_counts))
        .map(|_| (pick(rng, &p.given).clone(), pick(rng, &p.family).clone()))
        .collect();
    let has_doi = rng.random_bool(0.8);
    let prefix = 1000 + rng.random_range(0..9000);
    let abstract_text = rng.random_bool(0.3).then(|| {
        (0..rng.random_range(60..160))
            .map(|_| pick(rng, &p.abstract_words).as_str())
            .collect::<Vec<_>>()
            .join(" ")
    });
    Filler {
        n,
        title: words.join(" "),
        authors,
        year: *pick(rng, &p.years),
        venue: pick(rng, &p.venues).clone(),
        doi: has_doi.then(|| format!("10.{prefix}/syn{n:09}")),
        crossref: has_doi && rng.random_bool(0.9),
        arxiv: rng.random_bool(0.08).then(|| {
            format!(
                "{:02}{:02}.{:05}",
                rng.random_range(8..15),
                rng.random_range(1..13),
                n % 100_000
            )
        }),
        pmid: rng.random_bool(0.15).then(|| format!("{}", 80_000_000 + n)),
        dblp: rng.random_bool(0.12),
        abstract_text,
    }
}

fn inverted_index(text: &str) -> Value {
    let mut map: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, w) in text.split_whitespace().enumerate() {
        map.entry(w).or_default().push(i);
    }
    json!(map)
}

/// A filler as an OpenAlex Work object (the fields the snapshot's records carry that
/// matter here, plus the bulk of `referenced_works` and `counts_by_year`).
fn openalex_filler(f: &Filler, updated: &str) -> Value {
    let id = format!("https://openalex.org/W9{:010}", f.n);
    let authorships: Vec<Value> = f
        .authors
        .iter()
        .enumerate()
        .map(|(i, (g, fam))| {
            json!({"author_position": if i == 0 {"first"} else {"middle"},
                   "author": {"id": format!("https://openalex.org/A9{:09}{i}", f.n % 1_000_000_000), "display_name": format!("{g} {fam}"), "orcid": null},
                   "institutions": [], "countries": [], "is_corresponding": false,
                   "raw_author_name": format!("{g} {fam}"), "raw_affiliation_strings": []})
        })
        .collect();
    let mut ids = json!({"openalex": id});
    if let Some(d) = &f.doi {
        ids["doi"] = json!(format!("https://doi.org/{d}"));
    }
    if let Some(p) = &f.pmid {
        ids["pmid"] = json!(format!("https://pubmed.ncbi.nlm.nih.gov/{p}"));
    }
    let mut locations = vec![
        json!({"is_oa": false, "landing_page_url": f.doi.as_ref().map(|d| format!("https://doi.org/{d}")),
        "source": {"display_name": f.venue, "type": "journal"}, "version": "publishedVersion"}),
    ];
    if let Some(a) = &f.arxiv {
        locations.push(json!({"is_oa": true, "landing_page_url": format!("https://arxiv.org/abs/{a}"),
            "pdf_url": format!("https://arxiv.org/pdf/{a}"), "source": {"display_name": "arXiv (Cornell University)", "type": "repository"}}));
    }
    let referenced: Vec<String> = (0..12)
        .map(|k| {
            format!(
                "https://openalex.org/W9{:010}",
                (f.n * 7 + k * 131) % 10_000_000_000
            )
        })
        .collect();
    json!({
        "id": id, "doi": f.doi.as_ref().map(|d| format!("https://doi.org/{d}")),
        "title": f.title, "display_name": f.title,
        "publication_year": f.year, "publication_date": format!("{}-01-01", f.year),
        "ids": ids, "language": "en", "type": "article",
        "primary_location": locations[0].clone(), "locations": locations,
        "authorships": authorships, "is_retracted": false, "is_paratext": false,
        "cited_by_count": f.n % 300, "referenced_works": referenced,
        "counts_by_year": [{"year": 2024, "cited_by_count": f.n % 7}],
        "abstract_inverted_index": f.abstract_text.as_deref().map_or(Value::Null, inverted_index),
        "updated_date": updated, "created_date": format!("{}-01-01", f.year),
    })
}

fn crossref_filler(f: &Filler) -> Value {
    let authors: Vec<Value> = f
        .authors
        .iter()
        .enumerate()
        .map(|(i, (g, fam))| json!({"given": g, "family": fam, "sequence": if i == 0 {"first"} else {"additional"}, "affiliation": []}))
        .collect();
    let doi = f.doi.clone().unwrap_or_default();
    json!({
        "indexed": {"date-time": "2025-01-01T00:00:00Z"}, "DOI": doi, "type": "journal-article",
        "title": [f.title], "author": authors, "container-title": [f.venue],
        "published": {"date-parts": [[f.year]]}, "issued": {"date-parts": [[f.year]]},
        "prefix": doi.split('/').next(), "publisher": "Synthetic Press", "reference-count": 12,
        "URL": format!("https://doi.org/{doi}"), "source": "Crossref",
    })
}

/// Latin-1 letters as the HTML entities DBLP's DTD declares; XML's own escapes.
fn dblp_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            'ä' => out.push_str("&auml;"),
            'ö' => out.push_str("&ouml;"),
            'ü' => out.push_str("&uuml;"),
            'é' => out.push_str("&eacute;"),
            'è' => out.push_str("&egrave;"),
            'á' => out.push_str("&aacute;"),
            'ó' => out.push_str("&oacute;"),
            'í' => out.push_str("&iacute;"),
            'ñ' => out.push_str("&ntilde;"),
            'ç' => out.push_str("&ccedil;"),
            'ß' => out.push_str("&szlig;"),
            c if (c as u32) > 127 => out.push_str(&format!("&#{};", c as u32)),
            c => out.push(c),
        }
    }
    out
}

struct DblpEntry<'a> {
    key: String,
    authors: Vec<String>,
    title: &'a str,
    year: Option<i32>,
    venue: Option<&'a str>,
    conference: bool,
    ee: Vec<String>,
}

fn write_dblp(out: &mut impl Write, e: &DblpEntry) {
    let element = if e.conference {
        "inproceedings"
    } else {
        "article"
    };
    let mut s = format!("<{element} mdate=\"2025-01-01\" key=\"{}\">\n", e.key);
    for a in &e.authors {
        s.push_str(&format!("<author>{}</author>\n", dblp_text(a)));
    }
    s.push_str(&format!("<title>{}.</title>\n", dblp_text(e.title)));
    if let Some(y) = e.year {
        s.push_str(&format!("<year>{y}</year>\n"));
    }
    if let Some(v) = e.venue {
        let tag = if e.conference { "booktitle" } else { "journal" };
        s.push_str(&format!("<{tag}>{}</{tag}>\n", dblp_text(v)));
    }
    for link in &e.ee {
        s.push_str(&format!("<ee>{}</ee>\n", dblp_text(link)));
    }
    s.push_str(&format!("</{element}>\n"));
    out.write_all(s.as_bytes()).expect("write dblp");
}

fn world_dblp(e: &Entry) -> Option<DblpEntry<'_>> {
    let w = &e.work;
    let key = w.dblp.clone()?;
    let mut ee = Vec::new();
    if let Some(d) = w.doi.as_deref().filter(|d| !d.starts_with("10.48550/")) {
        ee.push(format!("https://doi.org/{d}"));
    }
    if let Some(a) = &w.arxiv {
        ee.push(format!("https://arxiv.org/abs/{a}"));
    }
    Some(DblpEntry {
        conference: key.starts_with("conf/"),
        key,
        authors: w.authors.iter().map(|a| a.display_name()).collect(),
        title: &w.title,
        year: w.year,
        venue: w.venue.as_deref(),
        ee,
    })
}

/// Streams of one dump kind split into numbered files.
struct Parts {
    dir: PathBuf,
    pattern: fn(u64) -> String,
    per_file: u64,
    written: u64,
    current: Option<Gz>,
    crossref_items: bool,
}

impl Parts {
    fn push(&mut self, line: &Value) {
        if self.written.is_multiple_of(self.per_file) {
            self.close();
            let mut f = gz(&self.dir.join((self.pattern)(self.written / self.per_file)));
            if self.crossref_items {
                f.write_all(b"{\"items\":[").expect("write");
            }
            self.current = Some(f);
        }
        let f = self.current.as_mut().expect("open part");
        if self.crossref_items {
            if !self.written.is_multiple_of(self.per_file) {
                f.write_all(b",\n").expect("write");
            }
            serde_json::to_writer(&mut *f, line).expect("write");
        } else {
            serde_json::to_writer(&mut *f, line).expect("write");
            f.write_all(b"\n").expect("write");
        }
        self.written += 1;
    }

    fn close(&mut self) {
        if let Some(mut f) = self.current.take() {
            if self.crossref_items {
                f.write_all(b"]}\n").expect("write");
            }
            f.finish().expect("finish gzip").flush().expect("flush");
        }
    }
}

fn main() {
    let args = Args::parse();
    let world =
        World::load(std::slice::from_ref(&args.world), Vec::new()).expect("the world of works");
    let state = AppState {
        world: Arc::new(world),
        origin: Arc::new("https://publisher.example".into()),
    };
    let world = &state.world;
    let pools = Pools::from_world(world);
    let mut rng = StdRng::seed_from_u64(args.seed);
    let oa_dir = args.out.join("openalex/data/works");
    let mut openalex = Parts {
        dir: oa_dir.join("updated_date=2025-01-01"),
        pattern: |i| format!("part_{i:03}.gz"),
        per_file: OPENALEX_PER_FILE,
        written: 0,
        current: None,
        crossref_items: false,
    };
    let mut updates = Parts {
        dir: oa_dir.join("updated_date=2025-06-01"),
        pattern: |i| format!("part_{i:03}.gz"),
        per_file: OPENALEX_PER_FILE,
        written: 0,
        current: None,
        crossref_items: false,
    };
    let mut crossref = Parts {
        dir: args.out.join("crossref"),
        pattern: |i| format!("{i:05}.json.gz"),
        per_file: CROSSREF_PER_FILE,
        written: 0,
        current: None,
        crossref_items: true,
    };
    let mut dblp = gz(&args.out.join("dblp/dblp.xml.gz"));
    dblp.write_all(b"<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<!DOCTYPE dblp SYSTEM \"dblp.dtd\">\n<dblp>\n")
        .expect("write");
    let mut counts = [0u64; 3];
    for e in &world.entries {
        let mut record = support::openalex::work_object(&state, e, None);
        record["updated_date"] = json!("2025-01-01T00:00:00.000000");
        openalex.push(&record);
        counts[0] += 1;
        if e.held_by(Source::Crossref) {
            crossref.push(&support::crossref::work_message(&state, e, 1.0));
            counts[1] += 1;
            for u in e.updates.iter().filter(|u| u.kind == "retraction") {
                // The notice is a work of its own that names the retracted one.
                crossref.push(&json!({"DOI": u.doi, "type": "journal-article",
                    "title": [format!("Retraction notice to: {}", e.work.title)],
                    "published": {"date-parts": [[e.work.year.unwrap_or(2020) + 1]]},
                    "update-to": [{"DOI": e.work.doi, "type": "retraction", "label": "Retraction", "source": u.source}]}));
                counts[1] += 1;
            }
        }
        if let Some(entry) = world_dblp(e) {
            write_dblp(&mut dblp, &entry);
            counts[2] += 1;
        }
    }
    for n in 0..args.fillers {
        let f = filler(&mut rng, &pools, n);
        openalex.push(&openalex_filler(&f, "2025-01-01T00:00:00.000000"));
        counts[0] += 1;
        if args.updates > 0.0 && rng.random_bool(args.updates) {
            // A corrected record: OpenAlex fixed the year and the venue.
            let mut changed = openalex_filler(&f, "2025-06-01T00:00:00.000000");
            changed["publication_year"] = json!(f.year + 1);
            updates.push(&changed);
        }
        if f.crossref {
            crossref.push(&crossref_filler(&f));
            counts[1] += 1;
        }
        if f.dblp {
            let mut ee: Vec<String> = f
                .doi
                .iter()
                .map(|d| format!("https://doi.org/{d}"))
                .collect();
            ee.extend(f.arxiv.iter().map(|a| format!("https://arxiv.org/abs/{a}")));
            write_dblp(
                &mut dblp,
                &DblpEntry {
                    key: format!("journals/syn/W{}", f.n),
                    authors: f
                        .authors
                        .iter()
                        .map(|(g, fam)| format!("{g} {fam}"))
                        .collect(),
                    title: &f.title,
                    year: Some(f.year),
                    venue: Some(&f.venue),
                    conference: f.n.is_multiple_of(2),
                    ee,
                },
            );
            counts[2] += 1;
        }
        if n > 0 && n % 1_000_000 == 0 {
            eprintln!("{n} fillers written");
        }
    }
    openalex.close();
    updates.close();
    crossref.close();
    dblp.write_all(b"</dblp>\n").expect("write");
    dblp.finish().expect("finish gzip").flush().expect("flush");
    println!(
        "wrote {} OpenAlex works ({} changed in a later partition), {} Crossref items, {} DBLP records under {}",
        counts[0],
        updates.written,
        counts[1],
        counts[2],
        args.out.display()
    );
}
