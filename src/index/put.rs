//! How a build puts one record into an index, written once for every backend: the
//! SQLite writer applies these rules row by row against its file, the PostgreSQL
//! writer against a batch's state in memory before writing it back.
//!
//! - a record without a title only contributes its notices;
//! - a record replaces the one with the same source and key unless that one is newer,
//!   and keeps its work; an identifier that neither it nor another record of the work
//!   carries any more is looked up to another work whose record carries it (two works
//!   may carry one identifier: a record joins by its strongest), else forgotten;
//! - a new record joins the work holding any of its identifiers (strongest first), else
//!   the work with its title key unless both carry different DOIs, else a new work;
//! - its identifiers and title key point at its work unless another work holds them.

use super::Record;
use super::codec::is_newer_or_same;
use super::merge::{ids_of, may_join_by_title, title_key};
use super::store::{PutOutcome, WorkId};
use crate::model::IdScheme;

/// A normalised identifier.
pub type Id = (IdScheme, String);

/// A record already in the index under the same source and key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stored {
    pub id: i64,
    pub work: WorkId,
    pub updated: Option<String>,
}

/// What the merge rules read and change in a backend.
pub trait MergeTarget {
    type Error;
    /// The record stored under `record`'s source and key.
    fn stored(&mut self, record: &Record) -> Result<Option<Stored>, Self::Error>;
    /// The work an identifier points at.
    fn work_with_id(&mut self, id: &Id) -> Result<Option<WorkId>, Self::Error>;
    /// The work a title key points at, with the DOI of the record that set it.
    fn work_with_title_key(
        &mut self,
        key: i64,
    ) -> Result<Option<(WorkId, Option<String>)>, Self::Error>;
    fn new_work(&mut self) -> Result<WorkId, Self::Error>;
    /// The identifiers a stored record carries.
    fn ids_of_stored(&mut self, stored: &Stored) -> Result<Vec<Id>, Self::Error>;
    fn delete(&mut self, stored: &Stored) -> Result<(), Self::Error>;
    /// The identifiers the records of `work` carry.
    fn ids_of_work(&mut self, work: WorkId) -> Result<Vec<Id>, Self::Error>;
    /// Forget that `id` points at `work` (nothing when it points elsewhere).
    fn forget_id(&mut self, id: &Id, work: WorkId) -> Result<(), Self::Error>;
    /// The lowest work other than `except` one of whose records carries `id`. Asked
    /// only when a record drops an identifier (rare), so a backend may scan for it.
    fn other_work_carrying(
        &mut self,
        id: &Id,
        except: WorkId,
    ) -> Result<Option<WorkId>, Self::Error>;
    /// Store the record itself (its row, its searched title) in `work`.
    fn insert(&mut self, record: &Record, work: WorkId) -> Result<(), Self::Error>;
    /// Point `id` at `work` unless it points somewhere already.
    fn claim_id(&mut self, id: &Id, work: WorkId) -> Result<(), Self::Error>;
    /// Point a title key at `work` (with the record's DOI) unless it points somewhere.
    fn claim_title_key(
        &mut self,
        key: i64,
        work: WorkId,
        doi: Option<&str>,
    ) -> Result<(), Self::Error>;
    /// Keep the retraction and concern notices the record carries.
    fn put_notices(&mut self, record: &Record) -> Result<(), Self::Error>;
}

/// Put one record by the rules above; what became of it.
pub fn put<T: MergeTarget + ?Sized>(
    target: &mut T,
    record: &Record,
) -> Result<PutOutcome, T::Error> {
    if record.work.title.trim().is_empty() {
        // A notice without a title of its own: only what it says is kept.
        target.put_notices(record)?;
        return Ok(PutOutcome::Kept);
    }
    let (work, outcome) = match target.stored(record)? {
        Some(old) if !is_newer_or_same(record.updated.as_deref(), old.updated.as_deref()) => {
            return Ok(PutOutcome::Kept);
        }
        Some(old) => {
            remove(target, &old, record)?;
            (old.work, PutOutcome::Replaced)
        }
        None => (work_for(target, record)?, PutOutcome::Added),
    };
    target.insert(record, work)?;
    let ids = ids_of(&record.work);
    for id in &ids {
        target.claim_id(id, work)?;
    }
    if let Some(key) = title_key(&record.work) {
        let doi = ids
            .iter()
            .find(|(scheme, _)| *scheme == IdScheme::Doi)
            .map(|(_, v)| v.as_str());
        target.claim_title_key(key, work, doi)?;
    }
    target.put_notices(record)?;
    Ok(outcome)
}

/// The work a new record belongs to.
fn work_for<T: MergeTarget + ?Sized>(target: &mut T, record: &Record) -> Result<WorkId, T::Error> {
    for id in ids_of(&record.work) {
        if let Some(work) = target.work_with_id(&id)? {
            return Ok(work);
        }
    }
    if let Some(key) = title_key(&record.work)
        && let Some((work, doi)) = target.work_with_title_key(key)?
        && may_join_by_title(record.work.doi.as_deref(), doi.as_deref())
    {
        return Ok(work);
    }
    target.new_work()
}

/// Remove a record that `newer` replaces in the same work. An identifier the work no
/// longer carries moves to another work that does, so its lookup is not lost.
fn remove<T: MergeTarget + ?Sized>(
    target: &mut T,
    old: &Stored,
    newer: &Record,
) -> Result<(), T::Error> {
    let carried = target.ids_of_stored(old)?;
    target.delete(old)?;
    let mut kept = target.ids_of_work(old.work)?;
    kept.extend(ids_of(&newer.work));
    for id in carried.iter().filter(|id| !kept.contains(id)) {
        if target.work_with_id(id)? != Some(old.work) {
            continue;
        }
        target.forget_id(id, old.work)?;
        if let Some(other) = target.other_work_carrying(id, old.work)? {
            target.claim_id(id, other)?;
        }
    }
    Ok(())
}
