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
use tantivy::index::SegmentId;
use tantivy::indexer::{LogMergePolicy, NoMergePolicy};
use tantivy::query::{BooleanQuery, Occur, Query, TermQuery};
use tantivy::schema::{
    FAST, Field, INDEXED, IndexRecordOption, Schema, TextFieldIndexing, TextOptions,
};
use tantivy::{Index, IndexReader, IndexWriter, ReloadPolicy, Searcher, TantivyDocument, Term};

use super::IndexError;
use super::store::WorkId;

/// Titles the rarest terms of a query (words and adjacent pairs) may be in together
/// and be searched: a search reads about this many titles whatever the index size.
/// The commoner terms are left out; pairs rank what common words ranked before
/// (10,000 and 5,000 found the same titles at 10 M works; 50,000 was 1.3× slower).
const RARE_POSTINGS: u64 = 10_000;

/// The same in a title index without pairs, where the words beyond (in 0.5 % of
/// 10 M titles) rank the titles found by the rarer ones.
const RARE_WORD_POSTINGS: u64 = 50_000;

/// How many of the first word counts (rarest first) stay within `budget` titles
/// together: the words a search can afford to read in full (both engines).
pub(crate) fn within_budget(counts: impl IntoIterator<Item = u64>, budget: u64) -> usize {
    let mut postings = 0;
    counts
        .into_iter()
        .take_while(|n| {
            postings += n;
            postings <= budget
        })
        .count()
}

/// How many of the `ranked` words (rarest first, with their title counts) are rare:
/// those within `budget` titles together, and always the rarest one.
fn rare_prefix(counts: &[u64], budget: u64) -> usize {
    let within = within_budget(counts.iter().copied(), budget);
    within.max(1).min(counts.len())
}

/// The folder of the title index inside an index folder.
pub const FOLDER: &str = "titles";

/// Memory the writer may hold before it writes a segment (bounds build memory).
const WRITER_BUDGET: usize = 48 * 1024 * 1024;

/// Words of a query sent to the engine: the rarest ones (a title that shares none of
/// a cited title's rarest words cannot come close to it).
pub(crate) const QUERY_WORDS: usize = 6;

/// Terms (words or adjacent pairs) a title must all contain in a conjunctive search:
/// the rarest ones, few enough that a title with one word changed elsewhere is still
/// found.
pub(crate) const ALL_WORDS: usize = 3;

const WORDS: &str = "words";
/// Adjacent word pairs of each title ("deep learning" → `deep+learning`): far rarer
/// than their words, so a title of common words is still found by reading few titles.
const PAIRS: &str = "pairs";
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

fn store_error(e: tantivy::TantivyError) -> IndexError {
    IndexError::Store(e.to_string())
}

/// The title index's fields (`pairs` false: as built before word pairs).
fn schema(pairs: bool) -> Schema {
    let mut schema = Schema::builder();
    let indexing = TextFieldIndexing::default()
        .set_tokenizer("whitespace")
        .set_index_option(IndexRecordOption::WithFreqs);
    schema.add_text_field(
        WORDS,
        TextOptions::default().set_indexing_options(indexing.clone()),
    );
    if pairs {
        schema.add_text_field(PAIRS, TextOptions::default().set_indexing_options(indexing));
    }
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

/// The adjacent pairs of `words` as indexed terms (`a b c` → `a+b b+c`).
fn word_pairs<'w>(words: impl IntoIterator<Item = &'w str>) -> Vec<String> {
    let words: Vec<&str> = words.into_iter().collect();
    words
        .windows(2)
        .map(|w| format!("{}+{}", w[0], w[1]))
        .collect()
}

/// Whether the title index of an index folder predates word pairs (built by an
/// older citeproof): its titles are indexed again from the records.
pub fn lacks_pairs(dir: &Path) -> Result<bool, IndexError> {
    if !exists(dir) {
        return Ok(false);
    }
    let index = Index::open_in_dir(folder(dir)).map_err(fail(dir))?;
    Ok(index.schema().get_field(PAIRS).is_err())
}

/// Remove the title index of an index folder (before it is indexed again).
pub fn remove(dir: &Path) -> Result<(), IndexError> {
    let path = folder(dir);
    match std::fs::remove_dir_all(&path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(IndexError::Open {
            path,
            message: e.to_string(),
        }),
        _ => Ok(()),
    }
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
    /// `None` in a title index built before word pairs.
    pairs: Option<Field>,
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
            Index::create_in_dir(&path, schema(true))
        }
        .map_err(fail(dir))?;
        let writer: IndexWriter = index
            .writer_with_num_threads(1, WRITER_BUDGET)
            .map_err(fail(dir))?;
        // Only segments under an eighth of a final one merge in the background (about
        // eight at a time), so no merge while building is larger than the final ones.
        let mut policy = LogMergePolicy::default();
        policy.set_max_docs_before_merge(MERGED_SEGMENT_TITLES as usize / 8);
        writer.set_merge_policy(Box::new(policy));
        Ok(TitleWriter {
            dir: dir.to_path_buf(),
            words: field(&index, WORDS),
            pairs: index.schema().get_field(PAIRS).ok(),
            record: field(&index, RECORD),
            work: field(&index, WORK),
            writer,
        })
    }

    /// Index a record's folded title words (a record of the same id is replaced, so a
    /// file imported again after an interrupted build leaves no twin).
    pub fn put(&mut self, record: i64, work: WorkId, words: &str) -> Result<(), IndexError> {
        self.remove(record);
        self.put_new(record, work, words)
    }

    /// Index a record known not to be in the index yet (indexing every title again).
    pub fn put_new(&mut self, record: i64, work: WorkId, words: &str) -> Result<(), IndexError> {
        let mut doc = TantivyDocument::default();
        doc.add_text(self.words, words);
        if let Some(pairs) = self.pairs {
            doc.add_text(pairs, word_pairs(words.split(' ')).join(" "));
        }
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

    /// Commit, then merge the segments into as few as the merge's memory allows. A
    /// search runs per segment, each with its own top-k (pruning starts afresh in
    /// each) and its own word lookups: merging the 27 segments a 10 M-work build had
    /// left took the development set from 355 to 460 references/s with the same
    /// results (docs/index.md).
    pub fn finish(mut self) -> Result<(), IndexError> {
        self.commit()?;
        let fail = fail(&self.dir);
        let index = self.writer.index().clone();
        self.writer.wait_merging_threads().map_err(&fail)?;
        let mut writer: IndexWriter = index
            .writer_with_num_threads(1, WRITER_BUDGET)
            .map_err(&fail)?;
        writer.set_merge_policy(Box::new(NoMergePolicy));
        let sizes: Vec<(SegmentId, u32)> = index
            .searchable_segment_metas()
            .map_err(&fail)?
            .iter()
            .map(|m| (m.id(), m.num_docs()))
            .collect();
        for group in merge_groups(&sizes, MERGED_SEGMENT_TITLES) {
            writer.merge(&group).wait().map_err(&fail)?;
        }
        writer.wait_merging_threads().map_err(&fail)?;
        Ok(())
    }
}

/// Titles a merged segment may hold: a merge holds ~25 bytes per title in memory
/// (442 MiB merging 18.5 M into one, 97 MiB into groups of this many), so the build's
/// memory does not grow with the index.
const MERGED_SEGMENT_TITLES: u64 = 4_000_000;

/// The groups of segments to merge, largest first, each within `cap` titles (a
/// segment already larger stays as it is); only groups of two or more.
fn merge_groups(sizes: &[(SegmentId, u32)], cap: u64) -> Vec<Vec<SegmentId>> {
    let mut sorted = sizes.to_vec();
    sorted.sort_by_key(|(_, n)| std::cmp::Reverse(*n));
    let mut groups: Vec<(u64, Vec<SegmentId>)> = Vec::new();
    for (id, n) in sorted {
        let n = u64::from(n);
        match groups.iter_mut().find(|(total, _)| total + n <= cap) {
            Some((total, group)) => {
                *total += n;
                group.push(id);
            }
            None => groups.push((n, vec![id])),
        }
    }
    groups
        .into_iter()
        .map(|(_, group)| group)
        .filter(|group| group.len() > 1)
        .collect()
}

fn term_query(term: Term) -> Box<dyn Query> {
    Box::new(TermQuery::new(term, IndexRecordOption::WithFreqs))
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
    /// `None` in a title index built before word pairs (searched by words alone).
    pairs: Option<Field>,
    /// [`RARE_POSTINGS`] and [`RARE_WORD_POSTINGS`] (smaller in tests, whose indexes
    /// are small).
    rare_postings: u64,
    rare_word_postings: u64,
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
            pairs: index.schema().get_field(PAIRS).ok(),
            searcher,
            columns,
            rare_postings: RARE_POSTINGS,
            rare_word_postings: RARE_WORD_POSTINGS,
            dir: dir.to_path_buf(),
        })
    }

    /// Every title entry's record and work (for `citeproof index check`).
    pub fn all_records(&self) -> Vec<RecordHit> {
        let mut out = Vec::new();
        for (segment, (records, works)) in self.searcher.segment_readers().iter().zip(&self.columns)
        {
            for doc in segment.doc_ids_alive() {
                if let (Some(record), Some(work)) = (records.first(doc), works.first(doc)) {
                    out.push(RecordHit {
                        record: record as i64,
                        work,
                    });
                }
            }
        }
        out
    }

    /// Records whose titles share the most of the rarest of `words` and of their
    /// adjacent pairs, best first: the titles carrying one of the rare terms (those
    /// within the postings budget, and always the rarest), ranked by bm25 over them
    /// in one disjunction, which the engine prunes best (block-max WAND).
    pub fn hits(&self, words: &[String], limit: usize) -> Result<Vec<RecordHit>, IndexError> {
        if self.pairs.is_none() {
            return self.hits_by_words(words, limit);
        }
        let terms = self.terms(words)?;
        let counts: Vec<u64> = terms.iter().map(|(n, _)| *n).collect();
        let rare = rare_prefix(&counts, self.rare_postings);
        let clauses = terms[..rare]
            .iter()
            .map(|(_, t)| (Occur::Should, term_query(t.clone())))
            .collect();
        self.top(clauses, limit)
    }

    /// [`TitleSearch::hits`] in a title index without word pairs (built by an older
    /// citeproof): the common words rank the titles found by the rare ones, each an
    /// optional clause read by skipping to the titles found (slower than pairs: every
    /// title carrying a rare word is scored).
    fn hits_by_words(&self, words: &[String], limit: usize) -> Result<Vec<RecordHit>, IndexError> {
        let ranked = self.rarest(words, QUERY_WORDS)?;
        let counts: Vec<u64> = ranked.iter().map(|(n, _)| *n).collect();
        let rare = rare_prefix(&counts, self.rare_word_postings);
        let required = ranked[..rare]
            .iter()
            .map(|(_, w)| (Occur::Should, self.term(w)))
            .collect();
        let mut query: Box<dyn Query> = Box::new(BooleanQuery::new(required));
        for (_, w) in &ranked[rare..] {
            query = Box::new(BooleanQuery::new(vec![
                (Occur::Must, query),
                (Occur::Should, self.term(w)),
            ]));
        }
        self.top(vec![(Occur::Must, query)], limit)
    }

    /// Records whose titles contain all of the three rarest terms of `words` (words
    /// and adjacent pairs), best first: a search that reads only rare postings.
    pub fn hits_with_all(
        &self,
        words: &[String],
        limit: usize,
    ) -> Result<Vec<RecordHit>, IndexError> {
        let mut terms = self.terms(words)?;
        terms.truncate(ALL_WORDS);
        let clauses = terms
            .into_iter()
            .map(|(_, t)| (Occur::Must, term_query(t)))
            .collect();
        self.top(clauses, limit)
    }

    /// The terms of a query: the [`QUERY_WORDS`] rarest indexed `words` and every
    /// indexed pair of adjacent ones, with the number of titles carrying each, rarest
    /// first.
    fn terms(&self, words: &[String]) -> Result<Vec<(u64, Term)>, IndexError> {
        let mut terms: Vec<(u64, Term)> = self
            .rarest(words, QUERY_WORDS)?
            .into_iter()
            .map(|(n, w)| (n, Term::from_field_text(self.words, w)))
            .collect();
        if let Some(pairs) = self.pairs {
            for pair in word_pairs(words.iter().map(String::as_str)) {
                let term = Term::from_field_text(pairs, &pair);
                let n = self.searcher.doc_freq(&term).map_err(store_error)?;
                if n > 0 {
                    terms.push((n, term));
                }
            }
            terms.sort_unstable_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.cmp(&b.1)));
        }
        Ok(terms)
    }

    /// The `take` rarest of the indexed `words`, with the number of titles carrying
    /// each, rarest first.
    fn rarest<'w>(
        &self,
        words: &'w [String],
        take: usize,
    ) -> Result<Vec<(u64, &'w String)>, IndexError> {
        let mut ranked: Vec<(u64, &String)> = Vec::with_capacity(words.len());
        for w in words {
            let n = self
                .searcher
                .doc_freq(&Term::from_field_text(self.words, w))
                .map_err(store_error)?;
            if n > 0 {
                ranked.push((n, w));
            }
        }
        ranked.sort_unstable();
        ranked.truncate(take);
        Ok(ranked)
    }

    fn term(&self, word: &str) -> Box<dyn Query> {
        term_query(Term::from_field_text(self.words, word))
    }

    fn top(
        &self,
        clauses: Vec<(Occur, Box<dyn Query>)>,
        limit: usize,
    ) -> Result<Vec<RecordHit>, IndexError> {
        if clauses.is_empty() {
            return Ok(Vec::new());
        }
        let top = self
            .searcher
            .search(
                &BooleanQuery::new(clauses),
                &TopDocs::with_limit(limit).order_by_score(),
            )
            .map_err(store_error)?;
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

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split(' ').map(str::to_string).collect()
    }

    /// An index of `titles` (record ids from 1, each its own work), written in
    /// `commits` commits so the build leaves several segments before it finishes.
    fn index(titles: &[&str], commits: usize) -> tempfile::TempDir {
        fill(tempfile::tempdir().unwrap(), titles, commits)
    }

    /// The same in a title index as built before word pairs.
    fn index_without_pairs(titles: &[&str], commits: usize) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(folder(dir.path())).unwrap();
        Index::create_in_dir(folder(dir.path()), schema(false)).unwrap();
        fill(dir, titles, commits)
    }

    fn fill(dir: tempfile::TempDir, titles: &[&str], commits: usize) -> tempfile::TempDir {
        let mut writer = TitleWriter::open(dir.path()).unwrap();
        let per_commit = titles.len().div_ceil(commits);
        for (i, title) in titles.iter().enumerate() {
            writer.put(i as i64 + 1, i as i64 + 1, title).unwrap();
            if (i + 1) % per_commit == 0 {
                writer.commit().unwrap();
            }
        }
        writer.finish().unwrap();
        dir
    }

    #[test]
    fn rare_words_are_those_within_the_budget_and_always_the_rarest() {
        let ranked = [10, 20, 500];
        assert_eq!(rare_prefix(&ranked, 30), 2);
        assert_eq!(rare_prefix(&ranked, 29), 1);
        assert_eq!(
            rare_prefix(&ranked, 5),
            1,
            "the rarest word always searches"
        );
        assert_eq!(rare_prefix(&ranked, 1_000), 3);
        assert_eq!(rare_prefix(&[], 1_000), 0);
    }

    #[test]
    fn pairs_are_of_adjacent_words() {
        assert_eq!(word_pairs("a b c".split(' ')), vec!["a+b", "b+c"]);
        assert!(word_pairs(["a"]).is_empty());
    }

    #[test]
    fn a_title_of_common_words_is_found_by_its_pairs() {
        // Each of "graph", "neural", "network" is in twenty titles, together only in
        // the first; "zebra", the rarest word of the misquoted title, is not in it.
        let mut titles = vec!["graph neural network".to_string()];
        for w in ["graph", "neural", "network"] {
            titles.extend((0..19).map(|i| format!("{w} topic{i}")));
        }
        titles.extend(["zebra one".to_string(), "zebra two".to_string()]);
        let titles: Vec<&str> = titles.iter().map(String::as_str).collect();
        let dir = index(&titles, 2);
        let mut search = TitleSearch::open(dir.path()).unwrap();
        assert!(search.pairs.is_some());
        search.rare_postings = 2;
        let hits = search
            .hits(&words("graph neural network zebra"), 5)
            .unwrap();
        // Found by its two pairs (one title each, within the budget); by words alone
        // only the rarest, "zebra", would be searched.
        assert_eq!(hits.first().map(|h| h.record), Some(1), "{hits:?}");
        assert!(hits.iter().all(|h| h.record == 1), "{hits:?}");
        // The conjunctive search: the two pairs and the rarest word.
        let all = search
            .hits_with_all(&words("graph neural network"), 5)
            .unwrap();
        assert_eq!(all.iter().map(|h| h.record).collect::<Vec<_>>(), vec![1]);
    }

    #[test]
    fn segments_merge_in_groups_within_the_cap() {
        let ids: Vec<SegmentId> = (0..6).map(|_| SegmentId::generate_random()).collect();
        let sizes: Vec<(SegmentId, u32)> = ids
            .iter()
            .zip([50, 700, 300, 40, 900, 10])
            .map(|(id, n)| (*id, n))
            .collect();
        let groups = merge_groups(&sizes, 1_000);
        // 900 + 50 + 40 + 10; 700 + 300. No group over the cap, every segment once.
        assert_eq!(groups.len(), 2);
        assert_eq!(groups[0], vec![ids[4], ids[0], ids[3], ids[5]]);
        assert_eq!(groups[1], vec![ids[1], ids[2]]);
        // A segment over the cap stays alone; a lone segment is not merged.
        assert!(merge_groups(&sizes[4..5], 100).is_empty());
    }

    #[test]
    fn a_finished_build_is_one_segment() {
        let dir = index(&["alpha beta", "gamma delta", "epsilon zeta", "eta"], 4);
        let index = Index::open_in_dir(folder(dir.path())).unwrap();
        assert_eq!(index.searchable_segment_ids().unwrap().len(), 1);
        let search = TitleSearch::open(dir.path()).unwrap();
        let hits = search.hits(&words("gamma delta"), 5).unwrap();
        assert_eq!(hits.first().map(|h| h.record), Some(2));
    }

    #[test]
    fn without_pairs_common_words_rank_the_titles_of_rare_ones_and_find_none_alone() {
        // "quantum" is in two titles, "neural network learning" in seven, and
        // ninety more titles share none of them.
        let mut titles = vec![
            "quantum neural network learning".to_string(),
            "quantum optics".to_string(),
            "neural network learning".to_string(),
        ];
        titles.extend(std::iter::repeat_n(
            "neural network learning models".into(),
            4,
        ));
        titles.extend((0..90).map(|i| format!("topic{i} study{}", i % 7)));
        let titles: Vec<&str> = titles.iter().map(String::as_str).collect();
        let dir = index_without_pairs(&titles, 3);
        let mut search = TitleSearch::open(dir.path()).unwrap();
        assert!(search.pairs.is_none());
        search.rare_word_postings = 2;
        let cited = words("quantum neural network learning");
        let records: Vec<i64> = search
            .hits(&cited, 10)
            .unwrap()
            .iter()
            .map(|h| h.record)
            .collect();
        // The title sharing the common words too comes first, although the shorter
        // one scores higher on the rare word alone; titles with only common words
        // are not searched for.
        assert_eq!(records, vec![1, 2]);
        // With every word within the budget, every title sharing one is a candidate.
        search.rare_word_postings = RARE_WORD_POSTINGS;
        let all = search.hits(&cited, 30).unwrap();
        assert_eq!(all.len(), 7);
        assert_eq!(all[0].record, 1);
    }
}
