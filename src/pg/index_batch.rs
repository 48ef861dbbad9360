//! One batch of records put into the PostgreSQL index with a few statements instead
//! of several per record: what the batch needs is read first (records with the same
//! keys, the identifiers and title keys the records carry, the records of every work
//! they may join), the merge and replacement rules of the row-by-row writer are then
//! applied in memory record after record — so a record may join or replace one put
//! earlier in the same batch — and the outcome is written back: deletions, the new
//! records by `COPY … BINARY`, then identifiers, title keys, notices and title-word
//! counts by multi-row statements.

use std::collections::{BTreeMap, HashMap, HashSet};

use postgres::Client;
use postgres::binary_copy::BinaryCopyInWriter;
use postgres::types::Type;

use crate::index::Record;
use crate::index::codec::{
    deflate, encode_authors, flags_of, indexed_words, is_newer_or_same, notice_code, source_code,
};
use crate::index::merge::{ids_of, may_join_by_title, scheme_code, title_key};
use crate::index::store::{PutOutcome, WorkId};
use crate::model::{IdScheme, Work};

/// An identifier as stored: (scheme code, normalised value).
type IdKey = (i16, String);
/// A record as stored: (source code, key in its dump).
type RecordKey = (i16, String);

/// A record the batch may replace.
#[derive(Clone)]
struct Existing {
    id: i64,
    work: WorkId,
    updated: Option<String>,
    words: String,
}

/// A record to write.
struct NewRecord<'a> {
    id: i64,
    work: WorkId,
    record: &'a Record,
    words: String,
}

/// The index as the batch sees it: what was read, changed by the records applied so far.
#[derive(Default)]
struct State<'a> {
    /// By (source, key); `None`: no such record.
    records: HashMap<RecordKey, Option<Existing>>,
    /// Identifier → work; `None`: no such identifier.
    ids: HashMap<IdKey, Option<WorkId>>,
    /// Title key → (work, DOI of the record that set it).
    title_keys: HashMap<i64, Option<(WorkId, Option<String>)>>,
    /// Every record of the works the batch may touch: (record id, its identifiers).
    works: HashMap<WorkId, Vec<(i64, Vec<IdKey>)>>,
    /// Identifiers and title keys whose row changes.
    touched_ids: HashSet<IdKey>,
    new_title_keys: Vec<i64>,
    deleted: Vec<i64>,
    inserted: Vec<NewRecord<'a>>,
    notices: Vec<(String, i16)>,
    /// Change of the number of records carrying each title word.
    word_counts: BTreeMap<String, i64>,
}

fn id_keys(work: &Work) -> Vec<IdKey> {
    ids_of(work)
        .into_iter()
        .map(|(scheme, value)| (scheme_code(scheme).unwrap_or(0) as i16, value))
        .collect()
}

fn record_key(record: &Record) -> RecordKey {
    (source_code(record.source) as i16, record.key.clone())
}

/// Put `records` in order; what became of each. `next_work` is the next unused work id.
pub(super) fn put_batch(
    client: &mut Client,
    records: &[Record],
    next_work: &mut WorkId,
) -> Result<Vec<PutOutcome>, postgres::Error> {
    let mut state = read_state(client, records)?;
    let mut ids = fresh_record_ids(client, records.len())?.into_iter();
    let mut outcomes = Vec::with_capacity(records.len());
    for record in records {
        outcomes.push(state.put(record, next_work, &mut ids));
    }
    state.write(client)?;
    Ok(outcomes)
}

/// Record ids for the new records, in increasing order (as the row-by-row writer gave).
fn fresh_record_ids(client: &mut Client, n: usize) -> Result<Vec<i64>, postgres::Error> {
    let rows = client.query(
        "SELECT nextval(pg_get_serial_sequence('citeproof_index_records', 'id')) \
         FROM generate_series(1, $1::int8)",
        &[&(n as i64)],
    )?;
    let mut ids: Vec<i64> = rows.iter().map(|r| r.get(0)).collect();
    ids.sort_unstable();
    Ok(ids)
}

/// Read what the batch's records may meet in the index.
fn read_state<'a>(client: &mut Client, records: &[Record]) -> Result<State<'a>, postgres::Error> {
    let mut state = State::default();
    let keys: Vec<RecordKey> = records.iter().map(record_key).collect();
    let (sources, names): (Vec<i16>, Vec<String>) = keys.iter().cloned().unzip();
    for key in keys {
        state.records.insert(key, None);
    }
    for row in client.query(
        "SELECT r.source, r.key, r.id, r.work, r.updated, r.words \
         FROM citeproof_index_records r JOIN unnest($1::int2[], $2::text[]) AS k(source, key) \
         ON r.source = k.source AND r.key = k.key",
        &[&sources, &names],
    )? {
        let existing = Existing {
            id: row.get(2),
            work: row.get(3),
            updated: row.get(4),
            words: row.get(5),
        };
        state
            .records
            .insert((row.get(0), row.get(1)), Some(existing));
    }
    let carried: Vec<IdKey> = records.iter().flat_map(|r| id_keys(&r.work)).collect();
    read_ids(client, &mut state, carried)?;
    let title_keys: Vec<i64> = records.iter().filter_map(|r| title_key(&r.work)).collect();
    for key in &title_keys {
        state.title_keys.insert(*key, None);
    }
    for row in client.query(
        "SELECT key, work, doi FROM citeproof_index_title_keys WHERE key = ANY($1)",
        &[&title_keys],
    )? {
        state
            .title_keys
            .insert(row.get(0), Some((row.get(1), row.get(2))));
    }
    // Every work a record of the batch may join or replace a record of.
    let mut works: Vec<WorkId> = state.records.values().flatten().map(|e| e.work).collect();
    works.extend(state.ids.values().flatten());
    works.extend(state.title_keys.values().flatten().map(|(work, _)| *work));
    works.sort_unstable();
    works.dedup();
    for work in &works {
        state.works.insert(*work, Vec::new());
    }
    let mut members_ids = Vec::new();
    for row in client.query(
        "SELECT work, id, doi, arxiv, pmid, pmcid FROM citeproof_index_records \
         WHERE work = ANY($1) ORDER BY id",
        &[&works],
    )? {
        let ids = id_keys(&Work {
            doi: row.get(2),
            arxiv: row.get(3),
            pmid: row.get(4),
            pmcid: row.get(5),
            ..Work::default()
        });
        members_ids.extend(ids.iter().cloned());
        let work: WorkId = row.get(0);
        state.works.entry(work).or_default().push((row.get(1), ids));
    }
    // The identifiers a replaced record may take away.
    members_ids.retain(|k| !state.ids.contains_key(k));
    read_ids(client, &mut state, members_ids)?;
    Ok(state)
}

fn read_ids(
    client: &mut Client,
    state: &mut State,
    keys: Vec<IdKey>,
) -> Result<(), postgres::Error> {
    if keys.is_empty() {
        return Ok(());
    }
    let (schemes, values): (Vec<i16>, Vec<String>) = keys.iter().cloned().unzip();
    for key in keys {
        state.ids.insert(key, None);
    }
    for row in client.query(
        "SELECT i.scheme, i.value, i.work \
         FROM citeproof_index_ids i JOIN unnest($1::int2[], $2::text[]) AS k(scheme, value) \
         ON i.scheme = k.scheme AND i.value = k.value",
        &[&schemes, &values],
    )? {
        state.ids.insert((row.get(0), row.get(1)), Some(row.get(2)));
    }
    Ok(())
}

/// Distinct words of a record's searched title words.
fn distinct_words(words: &str) -> HashSet<&str> {
    words.split(' ').filter(|w| !w.is_empty()).collect()
}

impl<'a> State<'a> {
    /// The row-by-row writer's `put`, against the state in memory.
    fn put(
        &mut self,
        record: &'a Record,
        next_work: &mut WorkId,
        ids: &mut impl Iterator<Item = i64>,
    ) -> PutOutcome {
        if record.work.title.trim().is_empty() {
            self.put_notices(record);
            return PutOutcome::Kept;
        }
        let key = record_key(record);
        let (work, outcome) = match self.records.get(&key).cloned().flatten() {
            Some(old) if !is_newer_or_same(record.updated.as_deref(), old.updated.as_deref()) => {
                return PutOutcome::Kept;
            }
            Some(old) => {
                self.remove(&old);
                (old.work, PutOutcome::Replaced)
            }
            None => (self.work_for(record, next_work), PutOutcome::Added),
        };
        // One id per record of the batch was reserved.
        let id = ids.next().unwrap_or_default();
        self.insert(record, key, id, work);
        outcome
    }

    /// The work a new record belongs to: the first of its identifiers known, else its
    /// title key (unless the DOIs differ), else a new work.
    fn work_for(&mut self, record: &Record, next_work: &mut WorkId) -> WorkId {
        for key in id_keys(&record.work) {
            if let Some(Some(work)) = self.ids.get(&key) {
                return *work;
            }
        }
        if let Some(key) = title_key(&record.work)
            && let Some(Some((work, doi))) = self.title_keys.get(&key)
            && may_join_by_title(record.work.doi.as_deref(), doi.as_deref())
        {
            return *work;
        }
        let work = *next_work;
        *next_work += 1;
        self.works.insert(work, Vec::new());
        work
    }

    /// Remove a replaced record; identifiers no other record of its work carries go.
    fn remove(&mut self, old: &Existing) {
        let members = self.works.entry(old.work).or_default();
        let mine = members
            .iter()
            .find(|(id, _)| *id == old.id)
            .map(|(_, ids)| ids.clone())
            .unwrap_or_default();
        members.retain(|(id, _)| *id != old.id);
        let others: HashSet<&IdKey> = members.iter().flat_map(|(_, ids)| ids).collect();
        for key in mine.iter().filter(|k| !others.contains(k)) {
            if self.ids.get(key) == Some(&Some(old.work)) {
                self.ids.insert(key.clone(), None);
                self.touched_ids.insert(key.clone());
            }
        }
        match self.inserted.iter().position(|n| n.id == old.id) {
            Some(i) => {
                self.inserted.remove(i);
            }
            None => self.deleted.push(old.id),
        }
        for word in distinct_words(&old.words) {
            *self.word_counts.entry(word.to_string()).or_default() -= 1;
        }
    }

    fn insert(&mut self, record: &'a Record, key: RecordKey, id: i64, work: WorkId) {
        let ids = id_keys(&record.work);
        for id_key in &ids {
            let slot = self.ids.entry(id_key.clone()).or_default();
            if slot.is_none() {
                *slot = Some(work);
                self.touched_ids.insert(id_key.clone());
            }
        }
        if let Some(title) = title_key(&record.work) {
            let slot = self.title_keys.entry(title).or_default();
            if slot.is_none() {
                let doi = ids_of(&record.work)
                    .into_iter()
                    .find(|(scheme, _)| *scheme == IdScheme::Doi)
                    .map(|(_, v)| v);
                *slot = Some((work, doi));
                self.new_title_keys.push(title);
            }
        }
        self.works.entry(work).or_default().push((id, ids));
        let words = indexed_words(&record.work.title);
        for word in distinct_words(&words) {
            *self.word_counts.entry(word.to_string()).or_default() += 1;
        }
        self.records.insert(
            key,
            Some(Existing {
                id,
                work,
                updated: record.updated.clone(),
                words: words.clone(),
            }),
        );
        self.inserted.push(NewRecord {
            id,
            work,
            record,
            words,
        });
        self.put_notices(record);
    }

    fn put_notices(&mut self, record: &Record) {
        for notice in &record.notices {
            let kind = notice_code(notice.kind) as i16;
            self.notices.push((notice.target_doi.clone(), kind));
        }
    }

    /// Write the batch's changes.
    fn write(self, client: &mut Client) -> Result<(), postgres::Error> {
        if !self.deleted.is_empty() {
            client.execute(
                "DELETE FROM citeproof_index_records WHERE id = ANY($1)",
                &[&self.deleted],
            )?;
        }
        let (schemes, values): (Vec<i16>, Vec<String>) = self.touched_ids.iter().cloned().unzip();
        if !schemes.is_empty() {
            client.execute(
                "DELETE FROM citeproof_index_ids i USING unnest($1::int2[], $2::text[]) \
                 AS k(scheme, value) WHERE i.scheme = k.scheme AND i.value = k.value",
                &[&schemes, &values],
            )?;
        }
        copy_records(client, &self.inserted)?;
        let mut id_rows: (Vec<i16>, Vec<String>, Vec<WorkId>) = Default::default();
        for key in &self.touched_ids {
            if let Some(Some(work)) = self.ids.get(key) {
                id_rows.0.push(key.0);
                id_rows.1.push(key.1.clone());
                id_rows.2.push(*work);
            }
        }
        if !id_rows.0.is_empty() {
            client.execute(
                "INSERT INTO citeproof_index_ids(scheme, value, work) \
                 SELECT * FROM unnest($1::int2[], $2::text[], $3::int8[])",
                &[&id_rows.0, &id_rows.1, &id_rows.2],
            )?;
        }
        self.write_title_keys(client)?;
        if !self.notices.is_empty() {
            let (dois, kinds): (Vec<String>, Vec<i16>) = self.notices.into_iter().unzip();
            client.execute(
                "INSERT INTO citeproof_index_notices(doi, kind) \
                 SELECT * FROM unnest($1::text[], $2::int2[]) ON CONFLICT DO NOTHING",
                &[&dois, &kinds],
            )?;
        }
        let (words, changes): (Vec<String>, Vec<i64>) = self
            .word_counts
            .into_iter()
            .filter(|(_, change)| *change != 0)
            .unzip();
        if !words.is_empty() {
            client.execute(
                "INSERT INTO citeproof_index_words(word, records) \
                 SELECT * FROM unnest($1::text[], $2::int8[]) \
                 ON CONFLICT (word) DO UPDATE \
                 SET records = citeproof_index_words.records + excluded.records",
                &[&words, &changes],
            )?;
        }
        Ok(())
    }

    fn write_title_keys(&self, client: &mut Client) -> Result<(), postgres::Error> {
        let mut rows: (Vec<i64>, Vec<WorkId>, Vec<Option<String>>) = Default::default();
        for key in &self.new_title_keys {
            if let Some(Some((work, doi))) = self.title_keys.get(key) {
                rows.0.push(*key);
                rows.1.push(*work);
                rows.2.push(doi.clone());
            }
        }
        if !rows.0.is_empty() {
            client.execute(
                "INSERT INTO citeproof_index_title_keys(key, work, doi) \
                 SELECT * FROM unnest($1::int8[], $2::int8[], $3::text[]) ON CONFLICT DO NOTHING",
                &[&rows.0, &rows.1, &rows.2],
            )?;
        }
        Ok(())
    }
}

/// The new records, streamed with `COPY … FROM STDIN BINARY`.
fn copy_records(client: &mut Client, records: &[NewRecord]) -> Result<(), postgres::Error> {
    if records.is_empty() {
        return Ok(());
    }
    let sink = client.copy_in(
        "COPY citeproof_index_records(id, work, source, key, updated, title, words, authors, \
         year, venue, type, doi, arxiv, pmid, pmcid, url, oa_url, abstract, flags) \
         FROM STDIN BINARY",
    )?;
    let types = [
        Type::INT8,
        Type::INT8,
        Type::INT2,
        Type::TEXT,
        Type::TEXT,
        Type::TEXT,
        Type::TEXT,
        Type::TEXT,
        Type::INT4,
        Type::TEXT,
        Type::TEXT,
        Type::TEXT,
        Type::TEXT,
        Type::TEXT,
        Type::TEXT,
        Type::TEXT,
        Type::TEXT,
        Type::BYTEA,
        Type::INT2,
    ];
    let mut writer = BinaryCopyInWriter::new(sink, &types);
    for new in records {
        let (record, w) = (new.record, &new.record.work);
        let ids = ids_of(w);
        let id_value = |scheme: IdScheme| {
            ids.iter()
                .find(|(s, _)| *s == scheme)
                .map(|(_, v)| v.clone())
        };
        writer.write(&[
            &new.id,
            &new.work,
            &(source_code(record.source) as i16),
            &record.key,
            &record.updated,
            &w.title,
            &new.words,
            &encode_authors(&w.authors),
            &w.year,
            &w.venue,
            &w.work_type,
            &id_value(IdScheme::Doi),
            &id_value(IdScheme::Arxiv),
            &id_value(IdScheme::Pmid),
            &id_value(IdScheme::Pmcid),
            &w.url,
            &w.oa_url,
            &w.abstract_text.as_deref().map(deflate),
            &(flags_of(w) as i16),
        ])?;
    }
    writer.finish()?;
    Ok(())
}
