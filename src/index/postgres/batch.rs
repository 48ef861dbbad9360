//! One batch of records put into the PostgreSQL index with a few statements instead
//! of several per record: what the batch needs is read first (records with the same
//! keys, the identifiers and title keys the records carry, the records of every work
//! they may join), the merge and replacement rules ([`put`]) are then applied in
//! memory record after record — so a record may join or replace one put
//! earlier in the same batch — and the outcome is written back: deletions, the new
//! records by `COPY … BINARY`, then identifiers, title keys, notices and title-word
//! counts by multi-row statements.

use std::collections::{BTreeMap, HashMap, HashSet};

use postgres::Client;
use postgres::binary_copy::BinaryCopyInWriter;
use postgres::types::Type;

use crate::index::Record;
use crate::index::codec::{
    deflate, encode_authors, flags_of, indexed_words, notice_code, source_code,
};
use crate::index::merge::{id_column, ids_of, scheme_code, scheme_of, title_key};
use crate::index::put::{self, Id, MergeTarget, Stored};
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
}

/// A record to write: its place in the batch, its id and work, its searched words.
struct NewRecord {
    index: usize,
    id: i64,
    work: WorkId,
    words: String,
}

/// The index as the batch sees it: what was read, changed by the records applied so far.
#[derive(Default)]
struct State {
    /// By (source, key); `None`: no such record.
    records: HashMap<RecordKey, Option<Existing>>,
    /// The searched title words of each record the batch read or wrote, by record id.
    words: HashMap<i64, String>,
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
    inserted: Vec<NewRecord>,
    notices: Vec<(String, i16)>,
    /// Change of the number of records carrying each title word.
    word_counts: BTreeMap<String, i64>,
}

/// The state while one record of the batch is put.
struct Putting<'s, I> {
    state: &'s mut State,
    /// Asked only for another work carrying an identifier a record drops.
    client: &'s mut Client,
    /// The record's place in the batch.
    index: usize,
    next_work: &'s mut WorkId,
    /// Record ids reserved for the batch, one per record.
    fresh_ids: &'s mut I,
}

fn id_key((scheme, value): &Id) -> IdKey {
    (scheme_code(*scheme).unwrap_or(0) as i16, value.clone())
}

fn id_of((code, value): &IdKey) -> Option<Id> {
    Some((scheme_of(i64::from(*code))?, value.clone()))
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
    let mut fresh_ids = fresh_record_ids(client, records.len())?.into_iter();
    let mut outcomes = Vec::with_capacity(records.len());
    for (index, record) in records.iter().enumerate() {
        let mut putting = Putting {
            state: &mut state,
            client,
            index,
            next_work,
            fresh_ids: &mut fresh_ids,
        };
        let outcome = put::put(&mut putting, record)?;
        outcomes.push(outcome);
    }
    state.write(client, records)?;
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
fn read_state(client: &mut Client, records: &[Record]) -> Result<State, postgres::Error> {
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
        };
        state.words.insert(existing.id, row.get(5));
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

impl<I: Iterator<Item = i64>> MergeTarget for Putting<'_, I> {
    /// Everything the rules need was read before, but for the rare dropped identifier.
    type Error = postgres::Error;

    fn stored(&mut self, record: &Record) -> Result<Option<Stored>, Self::Error> {
        let found = self
            .state
            .records
            .get(&record_key(record))
            .cloned()
            .flatten();
        Ok(found.map(|e| Stored {
            id: e.id,
            work: e.work,
            updated: e.updated,
        }))
    }

    fn work_with_id(&mut self, id: &Id) -> Result<Option<WorkId>, Self::Error> {
        Ok(self.state.ids.get(&id_key(id)).copied().flatten())
    }

    fn work_with_title_key(
        &mut self,
        key: i64,
    ) -> Result<Option<(WorkId, Option<String>)>, Self::Error> {
        Ok(self.state.title_keys.get(&key).cloned().flatten())
    }

    fn new_work(&mut self) -> Result<WorkId, Self::Error> {
        let work = *self.next_work;
        *self.next_work += 1;
        self.state.works.insert(work, Vec::new());
        Ok(work)
    }

    fn ids_of_stored(&mut self, stored: &Stored) -> Result<Vec<Id>, Self::Error> {
        let members = self.state.works.get(&stored.work);
        let mine = members.and_then(|m| m.iter().find(|(id, _)| *id == stored.id));
        Ok(mine.map_or_else(Vec::new, |(_, ids)| ids.iter().filter_map(id_of).collect()))
    }

    fn delete(&mut self, stored: &Stored) -> Result<(), Self::Error> {
        let state = &mut *self.state;
        if let Some(members) = state.works.get_mut(&stored.work) {
            members.retain(|(id, _)| *id != stored.id);
        }
        match state.inserted.iter().position(|n| n.id == stored.id) {
            Some(i) => {
                state.inserted.remove(i);
            }
            None => state.deleted.push(stored.id),
        }
        for word in distinct_words(state.words.get(&stored.id).map_or("", String::as_str)) {
            *state.word_counts.entry(word.to_string()).or_default() -= 1;
        }
        Ok(())
    }

    fn ids_of_work(&mut self, work: WorkId) -> Result<Vec<Id>, Self::Error> {
        let members = self.state.works.get(&work).into_iter().flatten();
        Ok(members
            .flat_map(|(_, ids)| ids.iter().filter_map(id_of))
            .collect())
    }

    fn forget_id(&mut self, id: &Id, work: WorkId) -> Result<(), Self::Error> {
        let key = id_key(id);
        if self.state.ids.get(&key) == Some(&Some(work)) {
            self.state.ids.insert(key.clone(), None);
            self.state.touched_ids.insert(key);
        }
        Ok(())
    }

    fn other_work_carrying(
        &mut self,
        id: &Id,
        except: WorkId,
    ) -> Result<Option<WorkId>, Self::Error> {
        let key = id_key(id);
        // Records put by this batch, and those of the works it read.
        let in_batch = self.state.works.iter().filter(|(work, members)| {
            **work != except && members.iter().any(|(_, ids)| ids.contains(&key))
        });
        let mut found = in_batch.map(|(work, _)| *work).min();
        // Records written before, unless this batch deleted them (no index on the
        // identifier columns: a scan, for the rare dropped identifier).
        let sql = format!(
            "SELECT id, work FROM citeproof_index_records WHERE {} = $1 AND work <> $2",
            id_column(id.0)
        );
        for row in self.client.query(&sql, &[&id.1, &except])? {
            let (record, work): (i64, WorkId) = (row.get(0), row.get(1));
            if !self.state.deleted.contains(&record) {
                found = Some(found.map_or(work, |f| f.min(work)));
            }
        }
        Ok(found)
    }

    fn insert(&mut self, record: &Record, work: WorkId) -> Result<(), Self::Error> {
        // One id per record of the batch was reserved.
        let id = self.fresh_ids.next().unwrap_or_default();
        let state = &mut *self.state;
        let ids = id_keys(&record.work);
        state.works.entry(work).or_default().push((id, ids));
        let words = indexed_words(&record.work.title);
        for word in distinct_words(&words) {
            *state.word_counts.entry(word.to_string()).or_default() += 1;
        }
        state.records.insert(
            record_key(record),
            Some(Existing {
                id,
                work,
                updated: record.updated.clone(),
            }),
        );
        state.words.insert(id, words.clone());
        state.inserted.push(NewRecord {
            index: self.index,
            id,
            work,
            words,
        });
        Ok(())
    }

    fn claim_id(&mut self, id: &Id, work: WorkId) -> Result<(), Self::Error> {
        let key = id_key(id);
        let slot = self.state.ids.entry(key.clone()).or_default();
        if slot.is_none() {
            *slot = Some(work);
            self.state.touched_ids.insert(key);
        }
        Ok(())
    }

    fn claim_title_key(
        &mut self,
        key: i64,
        work: WorkId,
        doi: Option<&str>,
    ) -> Result<(), Self::Error> {
        let slot = self.state.title_keys.entry(key).or_default();
        if slot.is_none() {
            *slot = Some((work, doi.map(str::to_string)));
            self.state.new_title_keys.push(key);
        }
        Ok(())
    }

    fn put_notices(&mut self, record: &Record) -> Result<(), Self::Error> {
        for notice in &record.notices {
            let kind = notice_code(notice.kind) as i16;
            self.state.notices.push((notice.target_doi.clone(), kind));
        }
        Ok(())
    }
}

impl State {
    /// Write the batch's changes.
    fn write(self, client: &mut Client, records: &[Record]) -> Result<(), postgres::Error> {
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
        copy_records(client, &self.inserted, records)?;
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
fn copy_records(
    client: &mut Client,
    inserted: &[NewRecord],
    records: &[Record],
) -> Result<(), postgres::Error> {
    if inserted.is_empty() {
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
    for new in inserted {
        let record = &records[new.index];
        let w = &record.work;
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
