//! The title search of an index folder: a tantivy index (`titles/`) of each record's
//! folded title words, with the record's row id and its work as fast fields. Chosen
//! over SQLite FTS5 by measurement (docs/index.md): a top-k search stops early on the
//! rarest words instead of ranking every title that shares one.
//!
//! Nothing is stored but the words' postings and the two ids: the titles themselves
//! are read back from the records table by id.

use std::path::{Path, PathBuf};

use tantivy::collector::TopDocs;
use tantivy::columnar::Column;
use tantivy::query::{BooleanQuery, Occur, Query, TermQuery};
use tantivy::schema::{
    FAST, Field, INDEXED, IndexRecordOption, Schema, TextFieldIndexing, TextOptions,
};
use tantivy::{Index, IndexReader, IndexWriter, ReloadPolicy, Searcher, TantivyDocument, Term};

use super::IndexError;
use super::store::WorkId;

/// The folder of the title index inside an index folder.
pub const FOLDER: &str = "titles";

/// Memory the writer may hold before it writes a segment (bounds build memory).
const WRITER_BUDGET: usize = 48 * 1024 * 1024;

/// Words of a query sent to the engine: the rarest ones (a title that shares none of
/// a cited title's rarest words cannot come close to it).
pub(crate) const QUERY_WORDS: usize = 6;

/// Words a title must all contain in a conjunctive search: the rarest ones, few
/// enough that a title with one word changed elsewhere is still found.
pub(crate) const ALL_WORDS: usize = 3;

const WORDS: &str = "words";
const RECORD: &str = "record";
const WORK: &str = "work";

fn folder(dir: &Path) -> PathBuf {
    dir.join(FOLDER)
}

fn fail(dir: &Path) -> impl Fn(tantivy::TantivyError) -> IndexError + '_ {
    move |e| IndexError::Open {
        path: folder(dir),
        message: e.to_string(),
    }
}

fn schema() -> Schema {
    let mut schema = Schema::builder();
    let indexing = TextFieldIndexing::default()
        .set_tokenizer("whitespace")
        .set_index_option(IndexRecordOption::WithFreqs);
    schema.add_text_field(WORDS, TextOptions::default().set_indexing_options(indexing));
    schema.add_u64_field(RECORD, INDEXED | FAST);
    schema.add_i64_field(WORK, FAST);
    schema.build()
}

fn field(index: &Index, name: &str) -> Field {
    index
        .schema()
        .get_field(name)
        .expect("the title index schema names every field")
}

/// Whether an index folder has a title index.
pub fn exists(dir: &Path) -> bool {
    folder(dir).join("meta.json").is_file()
}

/// Writes the title index during a build, beside the records table.
pub struct TitleWriter {
    dir: PathBuf,
    writer: IndexWriter,
    words: Field,
    record: Field,
    work: Field,
}

impl TitleWriter {
    /// Open (creating it when absent) the title index of an index folder.
    pub fn open(dir: &Path) -> Result<TitleWriter, IndexError> {
        let path = folder(dir);
        std::fs::create_dir_all(&path).map_err(|e| IndexError::Open {
            path: path.clone(),
            message: e.to_string(),
        })?;
        let index = if exists(dir) {
            Index::open_in_dir(&path)
        } else {
            Index::create_in_dir(&path, schema())
        }
        .map_err(fail(dir))?;
        let writer = index
            .writer_with_num_threads(1, WRITER_BUDGET)
            .map_err(fail(dir))?;
        Ok(TitleWriter {
            dir: dir.to_path_buf(),
            words: field(&index, WORDS),
            record: field(&index, RECORD),
            work: field(&index, WORK),
            writer,
        })
    }

    /// Index a record's folded title words (a record of the same id is replaced, so a
    /// file imported again after an interrupted build leaves no twin).
    pub fn put(&mut self, record: i64, work: WorkId, words: &str) -> Result<(), IndexError> {
        self.remove(record);
        let mut doc = TantivyDocument::default();
        doc.add_text(self.words, words);
        doc.add_u64(self.record, record as u64);
        doc.add_i64(self.work, work);
        self.writer.add_document(doc).map_err(fail(&self.dir))?;
        Ok(())
    }

    pub fn remove(&mut self, record: i64) {
        self.writer
            .delete_term(Term::from_field_u64(self.record, record as u64));
    }

    /// Make what was put durable; called before the records table commits, so a
    /// crash between the two leaves titles of records the rerun puts again (replaced
    /// by id), never records without titles.
    pub fn commit(&mut self) -> Result<(), IndexError> {
        self.writer.commit().map_err(fail(&self.dir))?;
        Ok(())
    }

    /// Commit and wait for the background merges to finish.
    pub fn finish(mut self) -> Result<(), IndexError> {
        self.commit()?;
        self.writer
            .wait_merging_threads()
            .map_err(fail(&self.dir))?;
        Ok(())
    }
}

/// A title proposed by the engine: the record and the work it belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RecordHit {
    pub record: i64,
    pub work: WorkId,
}

/// Searches the title index of an index folder. The index does not change while it
/// is read (builds are separate runs), so the searcher and each segment's id columns
/// are opened once.
pub struct TitleSearch {
    searcher: Searcher,
    /// Per segment (by ordinal): the record and work columns.
    columns: Vec<(Column<u64>, Column<i64>)>,
    words: Field,
    dir: PathBuf,
}

impl std::fmt::Debug for TitleSearch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TitleSearch")
            .field("dir", &self.dir)
            .finish()
    }
}

impl TitleSearch {
    pub fn open(dir: &Path) -> Result<TitleSearch, IndexError> {
        let index = Index::open_in_dir(folder(dir)).map_err(fail(dir))?;
        let reader: IndexReader = index
            .reader_builder()
            .reload_policy(ReloadPolicy::Manual)
            .try_into()
            .map_err(fail(dir))?;
        let searcher = reader.searcher();
        let columns = searcher
            .segment_readers()
            .iter()
            .map(|segment| {
                let fast = segment.fast_fields();
                Ok((fast.u64(RECORD)?, fast.i64(WORK)?))
            })
            .collect::<tantivy::Result<Vec<_>>>()
            .map_err(fail(dir))?;
        Ok(TitleSearch {
            words: field(&index, WORDS),
            searcher,
            columns,
            dir: dir.to_path_buf(),
        })
    }

    /// Records whose titles share the most of the rarest of `words`, best first.
    pub fn hits(&self, words: &[String], limit: usize) -> Result<Vec<RecordHit>, IndexError> {
        self.search(words, limit, Occur::Should, QUERY_WORDS)
    }

    /// Records whose titles contain all of the three rarest of `words` (the indexed
    /// ones), best first: a search that reads only the postings of rare words.
    pub fn hits_with_all(
        &self,
        words: &[String],
        limit: usize,
    ) -> Result<Vec<RecordHit>, IndexError> {
        self.search(words, limit, Occur::Must, ALL_WORDS)
    }

    fn search(
        &self,
        words: &[String],
        limit: usize,
        occur: Occur,
        take: usize,
    ) -> Result<Vec<RecordHit>, IndexError> {
        let searcher = &self.searcher;
        let fail = |e: tantivy::TantivyError| IndexError::Store(e.to_string());
        let mut ranked: Vec<(u64, &String)> = Vec::with_capacity(words.len());
        for w in words {
            let n = searcher
                .doc_freq(&Term::from_field_text(self.words, w))
                .map_err(fail)?;
            if n > 0 {
                ranked.push((n, w));
            }
        }
        ranked.sort_unstable();
        let clauses: Vec<(Occur, Box<dyn Query>)> = ranked
            .iter()
            .take(take)
            .map(|(_, w)| {
                let term = Term::from_field_text(self.words, w);
                let query: Box<dyn Query> =
                    Box::new(TermQuery::new(term, IndexRecordOption::WithFreqs));
                (occur, query)
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
            let Some((records, works)) = self.columns.get(address.segment_ord as usize) else {
                continue;
            };
            let record = records.first(address.doc_id);
            let work = works.first(address.doc_id);
            if let (Some(record), Some(work)) = (record, work) {
                hits.push(RecordHit {
                    record: record as i64,
                    work,
                });
            }
        }
        Ok(hits)
    }
}
