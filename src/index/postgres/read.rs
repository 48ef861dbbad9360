//! The offline index in PostgreSQL, read through the same [`WorkStore`] trait as the
//! SQLite engine: identifiers from a B-tree table, titles from a GIN index over each
//! record's folded title words, searched by the query's rarest words (as the SQLite
//! engine does). The resolver re-scores the titles proposed with the title gate, as
//! for every engine.

use postgres::Row;

use crate::index::codec::{
    FLAG_CONCERN, FLAG_RETRACTED, decode_authors, inflate, notice_kind, share_across_records,
    source_of,
};
use crate::index::merge::scheme_code;
use crate::index::store::{ImportInfo, IndexStats, SourceCount, TitleHit, WorkId, WorkStore};
use crate::index::title_engine::{ALL_WORDS, QUERY_WORDS, within_budget};
use crate::index::{DumpSource, IndexError};
use crate::model::{IdScheme, Work};
use crate::pg::{Migration, SharedPool, migrate, redacted};

/// The index's tables. Version 1 searched titles by trigrams (`pg_trgm`, a trusted
/// extension since PostgreSQL 13, so the database's owner may create it); version 2
/// replaces that by word postings: a GIN index over each record's title words and the
/// number of records carrying each word (to pick a query's rarest words).
pub(crate) const MIGRATIONS: &[Migration] = &[
    Migration {
        version: 1,
        sql: "CREATE EXTENSION IF NOT EXISTS pg_trgm;
              CREATE TABLE citeproof_index_meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
              CREATE TABLE citeproof_index_records(
                  id BIGSERIAL PRIMARY KEY,
                  work BIGINT NOT NULL,
                  source SMALLINT NOT NULL,
                  key TEXT NOT NULL,
                  updated TEXT,
                  title TEXT NOT NULL,
                  words TEXT NOT NULL,
                  authors TEXT NOT NULL,
                  year INTEGER,
                  venue TEXT,
                  type TEXT,
                  doi TEXT,
                  arxiv TEXT,
                  pmid TEXT,
                  pmcid TEXT,
                  url TEXT,
                  oa_url TEXT,
                  abstract BYTEA,
                  flags SMALLINT NOT NULL,
                  UNIQUE (source, key));
              CREATE INDEX citeproof_index_records_work ON citeproof_index_records(work);
              CREATE INDEX citeproof_index_records_words
                  ON citeproof_index_records USING gin (words gin_trgm_ops);
              CREATE TABLE citeproof_index_ids(
                  scheme SMALLINT NOT NULL, value TEXT NOT NULL, work BIGINT NOT NULL,
                  PRIMARY KEY (scheme, value));
              CREATE TABLE citeproof_index_title_keys(
                  key BIGINT PRIMARY KEY, work BIGINT NOT NULL, doi TEXT);
              CREATE TABLE citeproof_index_notices(
                  doi TEXT NOT NULL, kind SMALLINT NOT NULL, PRIMARY KEY (doi, kind));
              CREATE TABLE citeproof_index_imports(
                  path TEXT PRIMARY KEY, size BIGINT NOT NULL, modified BIGINT NOT NULL,
                  source TEXT NOT NULL, records BIGINT NOT NULL, at TEXT NOT NULL);",
    },
    Migration {
        version: 2,
        sql: "DROP INDEX IF EXISTS citeproof_index_records_words;
              CREATE INDEX citeproof_index_records_title_words
                  ON citeproof_index_records USING gin (string_to_array(words, ' '));
              CREATE TABLE citeproof_index_words(
                  word TEXT PRIMARY KEY, records BIGINT NOT NULL);
              INSERT INTO citeproof_index_words(word, records)
                  SELECT word, COUNT(DISTINCT id)
                  FROM citeproof_index_records, unnest(string_to_array(words, ' ')) AS word
                  WHERE word <> '' GROUP BY word;",
    },
];

/// Postings a query reads, about: after the rarest word, rarer-to-commoner words are
/// added while the titles carrying them stay under this many. A common word adds
/// thousands of titles that share nothing else with the query, which the title gate
/// rejects anyway, and they cost a heap visit each. Titles sharing two of the
/// commoner words are searched pair by pair, for pairs expected to be this rare.
const POSTINGS_BUDGET: u64 = 5_000;

/// The titles matching `$4`…(the plan's conditions), ranked by the summed rarity
/// (`ln(1 + records / records with the word)`; `$1` the query's words, `$2` their
/// counts) of the query words they share, then shorter titles first, then the older
/// record; at most `$3`.
fn title_hits_sql(conditions: &str) -> String {
    format!(
        "WITH chosen AS (
            SELECT word, ln(1 + GREATEST(reltuples, 1)::float8 / records) AS weight
            FROM unnest($1::text[], $2::int8[]) AS q(word, records), pg_class
            WHERE pg_class.oid = 'citeproof_index_records'::regclass)
        SELECT r.work, r.title FROM citeproof_index_records r
        WHERE {conditions}
        ORDER BY (SELECT SUM(c.weight) FROM chosen c
                  WHERE c.word = ANY(string_to_array(r.words, ' '))) DESC,
                 cardinality(string_to_array(r.words, ' ')), r.id
        LIMIT $3"
    )
}

/// The titles carrying all of `$1` (a query's rarest words), shorter titles first
/// (for the same words, the closer ones), then the older record.
const TITLES_WITH_ALL_SQL: &str = "\
    SELECT r.work, r.title FROM citeproof_index_records r
    WHERE string_to_array(r.words, ' ') @> $1::text[]
    ORDER BY cardinality(string_to_array(r.words, ' ')), r.id
    LIMIT $2";

/// The number of records carrying each of `words` (absent words omitted), and the
/// number of records (the planner's estimate).
fn word_counts(
    client: &mut crate::pg::Client,
    words: &[String],
) -> Result<(Vec<(String, i64)>, i64), postgres::Error> {
    let rows = client.query(
        "SELECT word, records, (SELECT GREATEST(reltuples, 1)::int8 FROM pg_class \
             WHERE oid = 'citeproof_index_records'::regclass) \
         FROM citeproof_index_words WHERE word = ANY($1)",
        &[&words],
    )?;
    let total = rows.first().map_or(1, |r| r.get(2));
    Ok((rows.iter().map(|r| (r.get(0), r.get(1))).collect(), total))
}

/// The words some title carries, rarest first (ties by the word, as the SQLite
/// engine orders them).
fn rarest_first(mut counted: Vec<(String, i64)>) -> Vec<(String, i64)> {
    counted.retain(|(_, n)| *n > 0);
    counted.sort_by(|a, b| a.1.cmp(&b.1).then_with(|| a.0.cmp(&b.0)));
    counted
}

fn title_hits_of(rows: &[Row]) -> Vec<TitleHit> {
    rows.iter()
        .map(|r| TitleHit {
            work: r.get(0),
            title: r.get(1),
        })
        .collect()
}

/// How a title query searches: the query's rarest words (for ranking), titles carrying
/// any of `any`, and titles carrying both words of a pair.
#[derive(Debug, PartialEq)]
struct QueryPlan {
    words: Vec<(String, i64)>,
    any: Vec<String>,
    pairs: Vec<[String; 2]>,
}

/// The plan of a query from its words with their record counts (`total` records in
/// all): its six rarest words; `any`, the rarest, then more while their postings stay
/// within the budget; pairs of the other words whose titles together are expected
/// within the budget (so a title sharing several commoner words is still found, as
/// bm25 over all six words finds it in the SQLite engine); and when nothing else is
/// rare enough, the two rarest words together.
fn plan_query(counted: Vec<(String, i64)>, total: i64) -> QueryPlan {
    let mut counted = rarest_first(counted);
    counted.truncate(QUERY_WORDS);
    let affordable = within_budget(counted.iter().map(|(_, n)| *n as u64), POSTINGS_BUDGET);
    let mut any: Vec<String> = counted[..affordable]
        .iter()
        .map(|(word, _)| word.clone())
        .collect();
    let rest = &counted[affordable..];
    let mut pairs = Vec::new();
    for (i, (a, na)) in rest.iter().enumerate() {
        for (b, nb) in &rest[i + 1..] {
            let expected = (*na as f64) * (*nb as f64) / total.max(1) as f64;
            if expected <= POSTINGS_BUDGET as f64 {
                pairs.push([a.clone(), b.clone()]);
            }
        }
    }
    if any.is_empty() && pairs.is_empty() {
        match counted.as_slice() {
            [(a, _), (b, _), ..] => pairs.push([a.clone(), b.clone()]),
            [(a, _)] => any.push(a.clone()),
            [] => {}
        }
    }
    QueryPlan {
        words: counted,
        any,
        pairs,
    }
}

const RECORD_COLUMNS: &str = "source, title, authors, year, venue, type, doi, arxiv, pmid, \
     pmcid, url, oa_url, abstract, flags";

pub struct PgStore {
    url: String,
    pool: SharedPool,
}

impl std::fmt::Debug for PgStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PgStore").field("url", &self.url).finish()
    }
}

pub(crate) fn store_error(message: String) -> IndexError {
    IndexError::Store(format!("postgresql: {message}"))
}

impl PgStore {
    /// Connect to an index database (migrating its schema when it is older).
    pub fn open(url: &str) -> Result<PgStore, IndexError> {
        let open_error = |message: String| IndexError::Open {
            path: redacted(url).into(),
            message,
        };
        let pool = SharedPool::connect(url).map_err(open_error)?;
        pool.with(|client| Ok(migrate(&mut **client, "index", MIGRATIONS)))
            .map_err(open_error)?
            .map_err(open_error)?;
        Ok(PgStore {
            url: redacted(url),
            pool,
        })
    }
}

fn work_of_row(row: &Row) -> Work {
    let flags = i64::from(row.get::<_, i16>(13));
    Work {
        source: source_of(i64::from(row.get::<_, i16>(0))).record_source(),
        title: row.get(1),
        authors: decode_authors(row.get(2)),
        year: row.get(3),
        venue: row.get(4),
        work_type: row.get(5),
        doi: row.get(6),
        arxiv: row.get(7),
        pmid: row.get(8),
        pmcid: row.get(9),
        url: row.get(10),
        oa_url: row.get(11),
        other_years: Vec::new(),
        isbn: Vec::new(),
        releases: Vec::new(),
        abstract_text: row.get::<_, Option<Vec<u8>>>(12).and_then(|b| inflate(&b)),
        is_retracted: flags & FLAG_RETRACTED != 0,
        has_concern: flags & FLAG_CONCERN != 0,
        ..Work::default()
    }
}

impl WorkStore for PgStore {
    fn work_with_id(&self, scheme: IdScheme, value: &str) -> Result<Option<WorkId>, IndexError> {
        let Some(code) = scheme_code(scheme) else {
            return Ok(None);
        };
        let code = code as i16;
        self.pool
            .with(|client| {
                let row = client.query_opt(
                    "SELECT work FROM citeproof_index_ids WHERE scheme = $1 AND value = $2",
                    &[&code, &value],
                )?;
                Ok(row.map(|r| r.get(0)))
            })
            .map_err(store_error)
    }

    fn records(&self, work: WorkId) -> Result<Vec<Work>, IndexError> {
        let (mut works, notices) = self
            .pool
            .with(|client| {
                let rows = client.query(
                    &format!(
                        "SELECT {RECORD_COLUMNS} FROM citeproof_index_records \
                         WHERE work = $1 ORDER BY source, id"
                    ),
                    &[&work],
                )?;
                let works: Vec<Work> = rows.iter().map(work_of_row).collect();
                let dois: Vec<String> = works.iter().filter_map(|w| w.doi.clone()).collect();
                let notices = client.query(
                    "SELECT doi, kind FROM citeproof_index_notices WHERE doi = ANY($1)",
                    &[&dois],
                )?;
                let notices: Vec<(String, i16)> =
                    notices.iter().map(|r| (r.get(0), r.get(1))).collect();
                Ok((works, notices))
            })
            .map_err(store_error)?;
        share_across_records(&mut works, |doi| {
            Ok(notices
                .iter()
                .filter(|(d, _)| d == doi)
                .map(|(_, k)| notice_kind(i64::from(*k)))
                .collect())
        })?;
        Ok(works)
    }

    fn title_hits(&self, words: &[String], limit: usize) -> Result<Vec<TitleHit>, IndexError> {
        if words.is_empty() {
            return Ok(Vec::new());
        }
        let limit = limit as i64;
        self.pool
            .with(|client| {
                let (counted, total) = word_counts(client, words)?;
                let plan = plan_query(counted, total);
                if plan.any.is_empty() && plan.pairs.is_empty() {
                    return Ok(Vec::new());
                }
                let (words, counts): (Vec<String>, Vec<i64>) = plan.words.into_iter().unzip();
                let mut params: Vec<Box<dyn postgres::types::ToSql + Sync>> =
                    vec![Box::new(words), Box::new(counts), Box::new(limit)];
                let mut conditions = Vec::new();
                if !plan.any.is_empty() {
                    params.push(Box::new(plan.any));
                    conditions.push(format!(
                        "string_to_array(r.words, ' ') && ${}::text[]",
                        params.len()
                    ));
                }
                for pair in plan.pairs {
                    params.push(Box::new(pair.to_vec()));
                    conditions.push(format!(
                        "string_to_array(r.words, ' ') @> ${}::text[]",
                        params.len()
                    ));
                }
                let sql = title_hits_sql(&conditions.join(" OR "));
                let refs: Vec<&(dyn postgres::types::ToSql + Sync)> =
                    params.iter().map(|p| p.as_ref()).collect();
                let rows = client.query(&sql, &refs)?;
                Ok(title_hits_of(&rows))
            })
            .map_err(store_error)
    }

    fn title_hits_with_all(
        &self,
        words: &[String],
        limit: usize,
    ) -> Result<Vec<TitleHit>, IndexError> {
        if words.is_empty() {
            return Ok(Vec::new());
        }
        let limit = limit as i64;
        self.pool
            .with(|client| {
                let (counted, _) = word_counts(client, words)?;
                let rarest: Vec<String> = rarest_first(counted)
                    .into_iter()
                    .take(ALL_WORDS)
                    .map(|(word, _)| word)
                    .collect();
                if rarest.is_empty() {
                    return Ok(Vec::new());
                }
                let rows = client.query(TITLES_WITH_ALL_SQL, &[&rarest, &limit])?;
                Ok(title_hits_of(&rows))
            })
            .map_err(store_error)
    }

    fn stats(&self) -> Result<IndexStats, IndexError> {
        self.pool
            .with(|client| {
                let meta = client.query("SELECT key, value FROM citeproof_index_meta", &[])?;
                let meta: Vec<(String, String)> =
                    meta.iter().map(|r| (r.get(0), r.get(1))).collect();
                let value = |key: &str| meta.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone());
                let number = |key: &str| value(key).and_then(|v| v.parse().ok()).unwrap_or(0);
                let imports = client
                    .query(
                        "SELECT path, source, records, at FROM citeproof_index_imports \
                         ORDER BY at, path",
                        &[],
                    )?
                    .iter()
                    .map(|r| ImportInfo {
                        path: r.get(0),
                        source: r.get(1),
                        records: r.get::<_, i64>(2) as u64,
                        at: r.get(3),
                    })
                    .collect();
                let bytes: i64 = client
                    .query_one(
                        "SELECT COALESCE(SUM(pg_total_relation_size(c.oid)), 0)::BIGINT \
                         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace \
                         WHERE c.relkind = 'r' AND c.relname LIKE 'citeproof\\_index\\_%' \
                         AND n.nspname = current_schema()",
                        &[],
                    )?
                    .get(0);
                let version: String = client.query_one("SHOW server_version", &[])?.get(0);
                Ok(IndexStats {
                    location: self.url.clone().into(),
                    engine: format!("postgresql {version} (GIN title-word postings)"),
                    works: number("works"),
                    records: DumpSource::ALL
                        .iter()
                        .map(|s| SourceCount {
                            source: s.as_str().to_string(),
                            records: number(&format!("records.{}", s.as_str())),
                        })
                        .collect(),
                    notices: number("notices"),
                    bytes: bytes.max(0) as u64,
                    built: value("built"),
                    created: value("created"),
                    imports,
                })
            })
            .map_err(store_error)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counted(words: &[(&str, i64)]) -> Vec<(String, i64)> {
        words.iter().map(|(w, n)| (w.to_string(), *n)).collect()
    }

    fn words(plan: &QueryPlan) -> Vec<&str> {
        plan.words.iter().map(|(w, _)| w.as_str()).collect()
    }

    #[test]
    fn a_query_searches_its_rarest_words_within_the_postings_budget_and_pairs_of_the_rest() {
        let plan = plan_query(
            counted(&[
                ("learning", 24_000),
                ("residual", 40),
                ("unknown", 0),
                ("deep", 3_000),
                ("image", 2_500),
            ]),
            1_000_000,
        );
        assert_eq!(words(&plan), ["residual", "image", "deep", "learning"]);
        assert_eq!(plan.any, ["residual", "image"]);
        // 3,000 × 24,000 / 1 M = 72 titles expected to carry both.
        assert_eq!(plan.pairs, [["deep".to_string(), "learning".to_string()]]);
    }

    #[test]
    fn pairs_expected_to_be_common_are_left_out() {
        let plan = plan_query(
            counted(&[("learning", 240_000), ("deep", 30_000), ("survey", 1_000)]),
            1_000_000,
        );
        assert_eq!(plan.any, ["survey"]);
        // 30,000 × 240,000 / 1 M = 7,200 > 5,000.
        assert!(plan.pairs.is_empty(), "{plan:?}");
    }

    #[test]
    fn a_query_of_common_words_asks_for_titles_with_its_two_rarest() {
        let plan = plan_query(
            counted(&[
                ("learning", 240_000),
                ("language", 180_000),
                ("models", 185_000),
            ]),
            1_000_000,
        );
        assert!(plan.any.is_empty());
        assert_eq!(plan.pairs, [["language".to_string(), "models".to_string()]]);
        let plan = plan_query(counted(&[("learning", 240_000)]), 1_000_000);
        assert_eq!(
            (plan.any, plan.pairs.len()),
            (vec!["learning".to_string()], 0)
        );
    }
}
