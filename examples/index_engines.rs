//! Title-search engines compared on one built index: SQLite FTS5 (what `citeproof index
//! build` writes) against tantivy, both beside the same SQLite identifier tables. The
//! tantivy index is built here from the index's records; then both engines answer the
//! same title searches and resolve the development reference set through the resolver.
//!
//! ```text
//! cargo run --release --features tantivy --example index_engines -- \
//!     --index target/bench-data/idx-1m [--samples 2000]
//! ```

#[path = "support/bench_cases.rs"]
mod bench_cases;
#[path = "support/peak_memory.rs"]
mod peak_memory;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::Parser;
use rusqlite::Connection;
use tantivy::collector::TopDocs;
use tantivy::query::{BooleanQuery, Occur, Query, TermQuery};
use tantivy::schema::{
    FAST, IndexRecordOption, STORED, Schema, TextFieldIndexing, TextOptions, Value,
};
use tantivy::{Index, IndexReader, TantivyDocument, Term, doc};

use citeproof::index::WorkStore;
use citeproof::index::sqlite::SqliteStore;
use citeproof::index::store::{IndexStats, TitleHit, WorkId};
use citeproof::index::titles::title_candidates;
use citeproof::index::{IndexError, merge};
use citeproof::model::{IdScheme, Work};
use citeproof::resolve::cascade::resolve_blocking;
use citeproof::resolve::normalize::content_of_folded;
use citeproof::resolve::options::ResolveOptions;
use citeproof::resolve::query::RefQuery;

#[derive(Parser)]
struct Args {
    #[arg(long)]
    index: PathBuf,
    #[arg(long, default_value_t = 2000)]
    samples: usize,
}

/// SQLite for identifiers and records, tantivy for titles.
struct Hybrid {
    sqlite: SqliteStore,
    reader: IndexReader,
    words: tantivy::schema::Field,
    work: tantivy::schema::Field,
    title: tantivy::schema::Field,
}

impl WorkStore for Hybrid {
    fn work_with_id(&self, scheme: IdScheme, value: &str) -> Result<Option<WorkId>, IndexError> {
        self.sqlite.work_with_id(scheme, value)
    }

    fn records(&self, work: WorkId) -> Result<Vec<Work>, IndexError> {
        self.sqlite.records(work)
    }

    fn title_hits(&self, words: &[String], limit: usize) -> Result<Vec<TitleHit>, IndexError> {
        let searcher = self.reader.searcher();
        let fail = |e: tantivy::TantivyError| IndexError::Store(e.to_string());
        // The same choice as the SQLite engine: the six rarest words present.
        let mut ranked: Vec<(u64, &String)> = Vec::new();
        for w in words {
            let n = searcher
                .doc_freq(&Term::from_field_text(self.words, w))
                .map_err(fail)?;
            if n > 0 {
                ranked.push((n, w));
            }
        }
        ranked.sort();
        let clauses: Vec<(Occur, Box<dyn Query>)> = ranked
            .iter()
            .take(6)
            .map(|(_, w)| {
                let q: Box<dyn Query> = Box::new(TermQuery::new(
                    Term::from_field_text(self.words, w),
                    IndexRecordOption::WithFreqs,
                ));
                (Occur::Should, q)
            })
            .collect();
        if clauses.is_empty() {
            return Ok(Vec::new());
        }
        let top = searcher
            .search(
                &BooleanQuery::new(clauses),
                &TopDocs::with_limit(limit).order_by_score(),
            )
            .map_err(fail)?;
        let mut hits = Vec::with_capacity(top.len());
        for (_, address) in top {
            let doc: TantivyDocument = searcher.doc(address).map_err(fail)?;
            let work = doc
                .get_first(self.work)
                .and_then(|v| v.as_i64())
                .unwrap_or(0);
            let title = doc
                .get_first(self.title)
                .and_then(|v| v.as_str())
                .unwrap_or("")
                .to_string();
            hits.push(TitleHit { work, title });
        }
        Ok(hits)
    }

    fn stats(&self) -> Result<IndexStats, IndexError> {
        self.sqlite.stats()
    }
}

fn folder_bytes(dir: &Path) -> u64 {
    std::fs::read_dir(dir)
        .map(|d| {
            d.filter_map(Result::ok)
                .filter_map(|e| e.metadata().ok())
                .map(|m| m.len())
                .sum()
        })
        .unwrap_or(0)
}

/// The tantivy title index of every record, built from the SQLite index.
fn build_tantivy(sqlite_dir: &Path, dir: &Path) -> Hybrid {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).expect("tantivy folder");
    let mut schema = Schema::builder();
    let indexing = TextFieldIndexing::default()
        .set_tokenizer("whitespace")
        .set_index_option(IndexRecordOption::WithFreqs);
    let words = schema.add_text_field(
        "words",
        TextOptions::default().set_indexing_options(indexing),
    );
    let work = schema.add_i64_field("work", STORED | FAST);
    let title = schema.add_text_field("title", STORED);
    let index = Index::create_in_dir(dir, schema.build()).expect("tantivy index");
    let mut writer: tantivy::IndexWriter = index.writer(64_000_000).expect("writer");
    let conn = Connection::open(sqlite_dir.join("index.sqlite3")).expect("sqlite");
    let mut stmt = conn
        .prepare("SELECT work, title FROM records")
        .expect("query");
    let start = Instant::now();
    let mut n = 0u64;
    let rows = stmt
        .query_map([], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?)))
        .expect("rows");
    for row in rows {
        let (w, t) = row.expect("row");
        let folded = content_of_folded(&merge::folded_title(&t)).join(" ");
        writer
            .add_document(doc!(words => folded, work => w, title => t))
            .expect("add");
        n += 1;
    }
    writer.commit().expect("commit");
    writer.wait_merging_threads().expect("merge");
    let secs = start.elapsed().as_secs_f64();
    let bytes = folder_bytes(dir);
    println!(
        "tantivy: {n} titles indexed in {secs:.1} s ({:.0} titles/s), {bytes} bytes \
         ({:.0} per title), {} (64 MB writer budget)",
        n as f64 / secs,
        bytes as f64 / n.max(1) as f64,
        peak_memory::peak_text()
    );
    Hybrid {
        sqlite: SqliteStore::open(sqlite_dir).expect("index"),
        reader: index.reader().expect("reader"),
        words,
        work,
        title,
    }
}

fn percentiles(mut times: Vec<Duration>) -> String {
    times.sort();
    let at = |p: f64| times[((times.len() as f64 - 1.0) * p).round() as usize].as_secs_f64() * 1e3;
    format!("p50 {:.3} ms  p99 {:.3} ms", at(0.5), at(0.99))
}

fn measure(name: &str, store: Arc<dyn WorkStore>, titles: &[String]) {
    let mut exact = Vec::new();
    let mut near = Vec::new();
    for t in titles {
        let start = Instant::now();
        drop(title_candidates(store.as_ref(), Some(t), "", 5).expect("search"));
        exact.push(start.elapsed());
        let words: Vec<&str> = t.split_whitespace().collect();
        let cut = words[..words.len().saturating_sub(1).max(1)].join(" ");
        let start = Instant::now();
        drop(title_candidates(store.as_ref(), Some(&cut), "", 5).expect("search"));
        near.push(start.elapsed());
    }
    println!(
        "{name}: title search, exact {}; last word dropped {}",
        percentiles(exact),
        percentiles(near)
    );
    let refs = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/bench/refs_dev.jsonl");
    if !refs.exists() {
        return;
    }
    let (cases, _) = bench_cases::load(&refs);
    let queries: Vec<RefQuery> = cases.iter().map(|c| c.query.clone()).collect();
    let options = ResolveOptions {
        index: Some(store),
        index_complete: true,
        offline: true,
        ..ResolveOptions::default()
    };
    let mut best = Duration::MAX;
    let mut resolutions = Vec::new();
    peak_memory::reset_peak();
    for _ in 0..3 {
        let start = Instant::now();
        resolutions = resolve_blocking(options.clone(), &queries)
            .expect("resolver")
            .0;
        best = best.min(start.elapsed());
    }
    println!(
        "{name}: development set resolved at {:.0} references/s, {} while resolving",
        cases.len() as f64 / best.as_secs_f64(),
        peak_memory::peak_text()
    );
    bench_cases::Scores::score(&cases, &resolutions).print();
}

fn main() {
    let args = Args::parse();
    let conn = Connection::open(args.index.join("index.sqlite3")).expect("sqlite");
    let max_id: i64 = conn
        .query_row("SELECT MAX(id) FROM records", [], |r| r.get(0))
        .expect("max");
    let step = (max_id / args.samples as i64).max(1);
    let titles: Vec<String> = (0..args.samples as i64)
        .filter_map(|k| {
            conn.query_row(
                "SELECT title FROM records WHERE id >= ?1 LIMIT 1",
                [k * step + 1],
                |r| r.get(0),
            )
            .ok()
        })
        .collect();
    let tantivy_dir = args.index.with_extension("tantivy");
    peak_memory::reset_peak();
    let hybrid = build_tantivy(&args.index, &tantivy_dir);
    measure(
        "sqlite fts5",
        Arc::new(SqliteStore::open(&args.index).expect("index")),
        &titles,
    );
    measure("tantivy", Arc::new(hybrid), &titles);
}
