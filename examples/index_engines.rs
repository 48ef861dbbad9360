//! Title-search engines compared on one built index: tantivy (what `citeproof index
//! build` writes, `titles/`) against SQLite FTS5, both beside the same SQLite
//! identifier and record tables. The FTS5 title table is built here, in a file of its
//! own next to the index, from the index's records; then both engines answer the same
//! title searches and resolve the development reference set through the resolver.
//!
//! ```text
//! cargo run --release --example index_engines -- \
//!     --index target/bench-data/idx-1m [--samples 2000]
//! ```

#[path = "support/bench_cases.rs"]
mod bench_cases;
#[path = "support/peak_memory.rs"]
mod peak_memory;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use clap::Parser;
use rusqlite::{Connection, OptionalExtension, params};

use citeproof::index::WorkStore;
use citeproof::index::sqlite::SqliteStore;
use citeproof::index::store::{IndexStats, TitleHit, WorkId};
use citeproof::index::{IndexError, merge};
use citeproof::model::{IdScheme, Work};
use citeproof::resolve::cascade::resolve_blocking;
use citeproof::resolve::index_titles::title_candidates;
use citeproof::resolve::normalize::content_of_folded;

#[derive(Parser)]
struct Args {
    #[arg(long)]
    index: PathBuf,
    #[arg(long, default_value_t = 2000)]
    samples: usize,
}

/// SQLite for identifiers and records, an FTS5 table for titles (the engine the first
/// index builds used).
struct Fts5 {
    sqlite: SqliteStore,
    file: PathBuf,
    index: PathBuf,
    pool: Mutex<Vec<Connection>>,
}

impl Fts5 {
    fn connect(&self) -> Connection {
        let conn = Connection::open(&self.file).expect("fts5 file");
        attach(&conn, &self.index);
        conn
    }
}

fn attach(conn: &Connection, index: &Path) {
    conn.execute(
        "ATTACH DATABASE ?1 AS idx",
        [index.join("index.sqlite3").to_string_lossy()],
    )
    .expect("attach");
}

fn store_error(e: rusqlite::Error) -> IndexError {
    IndexError::Store(e.to_string())
}

impl WorkStore for Fts5 {
    fn work_with_id(&self, scheme: IdScheme, value: &str) -> Result<Option<WorkId>, IndexError> {
        self.sqlite.work_with_id(scheme, value)
    }

    fn records(&self, work: WorkId) -> Result<Vec<Work>, IndexError> {
        self.sqlite.records(work)
    }

    fn title_hits(&self, words: &[String], limit: usize) -> Result<Vec<TitleHit>, IndexError> {
        let pooled = self.pool.lock().expect("pool").pop();
        let conn = pooled.unwrap_or_else(|| self.connect());
        let hits = self.search(&conn, words, limit);
        self.pool.lock().expect("pool").push(conn);
        hits
    }

    fn stats(&self) -> Result<IndexStats, IndexError> {
        self.sqlite.stats()
    }
}

impl Fts5 {
    fn search(
        &self,
        conn: &Connection,
        words: &[String],
        limit: usize,
    ) -> Result<Vec<TitleHit>, IndexError> {
        // The same choice as the tantivy engine: the six rarest words present.
        let mut count = conn
            .prepare_cached("SELECT doc FROM titles_vocab WHERE term = ?1")
            .map_err(store_error)?;
        let mut ranked: Vec<(i64, &str)> = Vec::new();
        for w in words {
            let n: Option<i64> = count
                .query_row([w], |r| r.get(0))
                .optional()
                .map_err(store_error)?;
            if let Some(n) = n.filter(|n| *n > 0) {
                ranked.push((n, w));
            }
        }
        ranked.sort_unstable();
        let query = ranked
            .iter()
            .take(6)
            .map(|(_, w)| format!("\"{}\"", w.replace('"', "")))
            .collect::<Vec<_>>()
            .join(" OR ");
        if query.is_empty() {
            return Ok(Vec::new());
        }
        let mut stmt = conn
            .prepare_cached(
                "SELECT r.work, r.title FROM idx.records r JOIN \
                 (SELECT rowid AS id, rank FROM titles WHERE titles MATCH ?1 \
                  ORDER BY rank LIMIT ?2) t ON r.id = t.id ORDER BY t.rank",
            )
            .map_err(store_error)?;
        let hits = stmt
            .query_map(params![query, limit as i64], |r| {
                Ok(TitleHit {
                    work: r.get(0)?,
                    title: r.get(1)?,
                })
            })
            .map_err(store_error)?
            .collect::<Result<Vec<_>, _>>()
            .map_err(store_error)?;
        Ok(hits)
    }
}

fn folder_bytes(dir: &Path) -> u64 {
    std::fs::read_dir(dir)
        .map(|d| {
            d.filter_map(Result::ok)
                .filter_map(|e| e.metadata().ok())
                .filter(|m| m.is_file())
                .map(|m| m.len())
                .sum()
        })
        .unwrap_or(0)
}

/// The FTS5 title table of every record, built from the index's records into a file
/// of its own.
fn build_fts5(index: &Path) -> Fts5 {
    let file = index.with_extension("fts5.sqlite3");
    let _ = std::fs::remove_file(&file);
    let conn = Connection::open(&file).expect("fts5 file");
    conn.execute_batch(
        "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; \
         CREATE VIRTUAL TABLE titles USING fts5(words, content='', contentless_delete=1, \
             detail=none, tokenize='unicode61 remove_diacritics 0'); \
         CREATE VIRTUAL TABLE titles_vocab USING fts5vocab(titles, 'row');",
    )
    .expect("fts5 schema");
    attach(&conn, index);
    let start = Instant::now();
    let mut n = 0u64;
    {
        let mut stmt = conn
            .prepare("SELECT id, title FROM idx.records")
            .expect("query");
        let rows: Vec<(i64, String)> = stmt
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .expect("rows")
            .collect::<Result<_, _>>()
            .expect("row");
        conn.execute_batch("BEGIN").expect("begin");
        let mut put = conn
            .prepare("INSERT INTO titles(rowid, words) VALUES (?1, ?2)")
            .expect("insert");
        for (id, title) in rows {
            let folded = content_of_folded(&merge::folded_title(&title)).join(" ");
            if !folded.is_empty() {
                put.execute(params![id, folded]).expect("put");
                n += 1;
            }
        }
        conn.execute_batch("COMMIT").expect("commit");
    }
    let secs = start.elapsed().as_secs_f64();
    let bytes = std::fs::metadata(&file).map(|m| m.len()).unwrap_or(0);
    println!(
        "fts5: {n} titles indexed in {secs:.1} s ({:.0} titles/s), {bytes} bytes \
         ({:.0} per title), {}",
        n as f64 / secs,
        bytes as f64 / n.max(1) as f64,
        peak_memory::peak_text()
    );
    Fts5 {
        sqlite: SqliteStore::open(index).expect("index"),
        file,
        index: index.to_path_buf(),
        pool: Mutex::new(vec![conn]),
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
    let Some((cases, queries, options)) = bench_cases::against_index(store) else {
        return;
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
    println!(
        "tantivy title index (built by `citeproof index build`): {} bytes",
        folder_bytes(&args.index.join(citeproof::index::title_engine::FOLDER))
    );
    peak_memory::reset_peak();
    let fts5 = build_fts5(&args.index);
    measure(
        "tantivy",
        Arc::new(SqliteStore::open(&args.index).expect("index")),
        &titles,
    );
    measure("sqlite fts5", Arc::new(fts5), &titles);
}
