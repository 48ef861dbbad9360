//! "This one is real", remembered: works a person confirmed real (a book the
//! indexes lack, a paper in press) are recorded in `.citeproof/accepted.toml` next to
//! the manuscript (and optionally in a user-level file), and their not-found,
//! not-indexed and unverified findings are dropped wherever findings are finished
//! ([`crate::check::finish`]: `check`, CI, the language server) and in `clean`.
//!
//! A work is remembered by the fingerprint of its title, authors and year
//! ([`fingerprint`]), never its title alone. A reference that has an accepted work's
//! key or title but not its fingerprint keeps its findings and gets one more that
//! names the accepted record (CP215); a record whose own fields no longer make its
//! fingerprint accepts nothing and is reported in the file (CP903).

pub mod file;
pub mod fingerprint;

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use crate::diagnostic::Diagnostic;
use crate::document::Document;
use crate::fs::FileSystem;
use crate::model::{FileId, RefFields, Reference, Span};
use crate::rules::{self, REFERENCE_NOT_FOUND, REFERENCE_UNVERIFIED, Rule, WORK_NOT_INDEXED};
use crate::source::{FileKind, SourceMap};

pub use file::{Entry, PROJECT_FILE};
pub use fingerprint::Identity;

/// The environment variable naming the user-level accepted-works file (empty: none).
pub const USER_FILE_ENV: &str = "CITEPROOF_USER_ACCEPTED";

/// Accepted-works files larger than this are not read.
const MAX_SIZE: u64 = 4 << 20;

/// The findings an accepted work does not get: the record has no such work, or
/// could not be asked. Every other finding (a wrong year, a retraction) stays.
pub fn is_acceptable(rule: &Rule) -> bool {
    [
        &REFERENCE_NOT_FOUND,
        &WORK_NOT_INDEXED,
        &REFERENCE_UNVERIFIED,
    ]
    .iter()
    .any(|r| r.code == rule.code)
}

/// Which accepted-works files a load reads.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Lookup {
    /// The nearest `.citeproof/accepted.toml` above each document.
    pub project: bool,
    /// The user-level file, when it exists.
    pub user_file: Option<PathBuf>,
}

impl Lookup {
    /// What `check`, the language server and `clean` read: the project's file and
    /// the user's.
    pub fn standard() -> Lookup {
        Lookup {
            project: true,
            user_file: user_file(),
        }
    }
}

/// The user-level file: `$CITEPROOF_USER_ACCEPTED`, else `accepted.toml` in the
/// user's configuration folder (`~/.config/citeproof/` on Linux).
pub fn user_file() -> Option<PathBuf> {
    match std::env::var_os(USER_FILE_ENV) {
        Some(path) if path.is_empty() => None,
        Some(path) => Some(PathBuf::from(path)),
        None => dirs::config_dir().map(|d| d.join("citeproof").join("accepted.toml")),
    }
}

/// The project file that applies to `start` (a file or a folder): the nearest
/// `.citeproof/accepted.toml` in it or above it.
pub fn project_file(fs: &dyn FileSystem, start: &Path) -> Option<PathBuf> {
    let dir = if fs.is_dir(start) {
        start
    } else {
        start.parent()?
    };
    dir.ancestors()
        .map(|d| d.join(PROJECT_FILE))
        .find(|p| fs.is_file(p))
}

/// Where `citeproof accept` and the editor's action record a work for a document at
/// `start`: the project file that applies, else `.citeproof/accepted.toml` in the
/// nearest folder above with a `citeproof.toml`, `.citeproof.toml` or `.git` (the
/// project's root), else in the document's own folder.
pub fn target_file(fs: &dyn FileSystem, start: &Path) -> PathBuf {
    if let Some(found) = project_file(fs, start) {
        return found;
    }
    let dir = if fs.is_dir(start) {
        start
    } else {
        start.parent().unwrap_or(Path::new("."))
    };
    let markers = ["citeproof.toml", ".citeproof.toml", ".git"];
    let root = dir
        .ancestors()
        .find(|d| {
            markers
                .iter()
                .any(|m| fs.is_file(&d.join(m)) || fs.is_dir(&d.join(m)))
        })
        .unwrap_or(dir);
    root.join(PROJECT_FILE)
}

/// Whether `path` is an accepted-works file of a project.
pub fn is_project_file(path: &Path) -> bool {
    path.ends_with(PROJECT_FILE)
}

/// One accepted work and where it is written.
#[derive(Debug, Clone)]
pub struct Placed {
    pub record: file::Record,
    pub path: PathBuf,
    /// The file in the project's source map, where it was loaded into one.
    pub file: Option<FileId>,
}

/// What a reference is, against the accepted works.
#[derive(Debug)]
pub enum Judgement<'a> {
    /// Its fingerprint is accepted.
    Accepted(&'a Placed),
    /// It has an accepted work's key or title, but not its fingerprint; how it differs.
    Changed(&'a Placed, String),
    Unknown,
}

/// The accepted works a run knows.
#[derive(Debug, Clone, Default)]
pub struct Accepted {
    works: Vec<Placed>,
}

/// An accepted-works file as read, with what is wrong with it.
#[derive(Debug, Clone)]
pub struct LoadedFile {
    pub path: PathBuf,
    pub text: String,
    pub read: file::Read,
}

impl Accepted {
    pub fn is_empty(&self) -> bool {
        self.works.is_empty()
    }

    pub fn works(&self) -> &[Placed] {
        &self.works
    }

    /// Read the files `lookup` names for documents at `starts`. A file that cannot
    /// be read is returned with its error as a problem.
    pub fn read(lookup: &Lookup, fs: &dyn FileSystem, starts: &[PathBuf]) -> Vec<LoadedFile> {
        let mut paths: Vec<PathBuf> = Vec::new();
        if lookup.project {
            for start in starts {
                if let Some(found) = project_file(fs, start)
                    && !paths.contains(&found)
                {
                    paths.push(found);
                }
            }
        }
        if let Some(user) = &lookup.user_file
            && fs.is_file(user)
            && !paths.contains(user)
        {
            paths.push(user.clone());
        }
        paths
            .into_iter()
            .map(|path| match fs.read_text(&path, MAX_SIZE) {
                Ok(text) => LoadedFile {
                    read: file::read(&text),
                    path,
                    text,
                },
                Err(e) => LoadedFile {
                    read: file::Read {
                        records: Vec::new(),
                        problems: vec![(Span::new(0, 0), format!("cannot read the file: {e}"))],
                    },
                    path,
                    text: String::new(),
                },
            })
            .collect()
    }

    /// The works of files read without a source map (`clean`).
    pub fn from_files(files: Vec<LoadedFile>) -> Accepted {
        let works = files
            .into_iter()
            .flat_map(|f| {
                let path = f.path;
                f.read.records.into_iter().map(move |record| Placed {
                    record,
                    path: path.clone(),
                    file: None,
                })
            })
            .collect();
        Accepted { works }
    }

    /// Read the accepted-works files `lookup` names for documents at `starts` into
    /// a run: each file joins `sources`, and its problems come back as findings in it.
    pub fn read_into(
        lookup: &Lookup,
        fs: &dyn FileSystem,
        starts: &[PathBuf],
        sources: &mut SourceMap,
    ) -> (Accepted, Vec<Diagnostic>) {
        let mut works = Vec::new();
        let mut problems = Vec::new();
        for f in Accepted::read(lookup, fs, starts) {
            let id = add_file(sources, &f.path, f.text);
            for (span, why) in &f.read.problems {
                problems.push(rules::accepted::invalid_record(id, *span, why));
            }
            works.extend(f.read.records.into_iter().map(|record| Placed {
                record,
                path: f.path.clone(),
                file: Some(id),
            }));
        }
        (Accepted { works }, problems)
    }

    /// What `reference` is against the accepted works.
    pub fn judge(&self, key: &str, fields: &RefFields) -> Judgement<'_> {
        let identity = Identity::of_fields(fields).ok();
        if let Some(identity) = &identity {
            let print = identity.fingerprint();
            if let Some(found) = self
                .works
                .iter()
                .find(|w| w.record.identity.is_some() && w.record.entry.fingerprint == print)
            {
                return Judgement::Accepted(found);
            }
        }
        let by_key = self
            .works
            .iter()
            .find(|w| w.record.entry.key.as_deref() == Some(key));
        let by_title = || {
            let title = &identity.as_ref()?.title;
            self.works.iter().find(|w| {
                w.record
                    .identity
                    .as_ref()
                    .is_some_and(|i| &i.title == title)
            })
        };
        match by_key.or_else(by_title) {
            Some(work) => Judgement::Changed(work, differences(&work.record, fields)),
            None => Judgement::Unknown,
        }
    }
}

/// The accepted-works file in the source map (converted documents and answers use
/// `Text`; the file is never parsed as a document).
fn add_file(sources: &mut SourceMap, path: &Path, text: String) -> FileId {
    sources.add(path.to_path_buf(), FileKind::Text, text)
}

/// How a reference differs from an accepted record, in words.
fn differences(record: &file::Record, fields: &RefFields) -> String {
    let entry = &record.entry;
    let fold = crate::resolve::normalize::fold;
    let mut out = Vec::new();
    let title = fields.title.as_deref().unwrap_or("");
    if fold(title) != fold(&entry.title) {
        out.push(format!("title (\"{title}\")"));
    }
    let families = fingerprint::families(fields);
    let folded = |list: &[String]| -> Vec<String> { list.iter().map(|f| fold(f)).collect() };
    if folded(&families) != folded(&entry.authors) {
        let who = if families.is_empty() {
            "none".to_string()
        } else {
            families.join(", ")
        };
        out.push(format!("authors ({who})"));
    }
    if fields.year != entry.year {
        let year = fields
            .year
            .map_or_else(|| "none".to_string(), |y| y.to_string());
        out.push(format!("year ({year})"));
    }
    if out.is_empty() {
        // Same fields, but the record itself no longer makes its fingerprint.
        "nothing, but the record was edited after it was accepted".into()
    } else {
        out.join(", ")
    }
}

/// The reference a finding is about: the one with its key whose entry holds it.
fn reference_of<'d>(documents: &'d [Document], d: &Diagnostic) -> Option<&'d Reference> {
    let key = d.key.as_deref()?;
    documents
        .iter()
        .flat_map(|doc| doc.references.iter())
        .find(|r| {
            r.file == d.file
                && r.key == key
                && r.span.start <= d.span.start
                && d.span.end <= r.span.end
        })
}

/// Drop the findings of accepted works; add one for each reference that resembles
/// an accepted work without being it. Called by [`crate::check::finish`] before the
/// suppression comments apply.
pub fn apply(
    accepted: &Accepted,
    documents: &[Document],
    diagnostics: Vec<Diagnostic>,
) -> Vec<Diagnostic> {
    if accepted.is_empty() {
        return diagnostics;
    }
    let mut out = Vec::with_capacity(diagnostics.len());
    let mut changed = Vec::new();
    let mut told: HashSet<(FileId, Span)> = HashSet::new();
    for d in diagnostics {
        if !is_acceptable(d.rule) {
            out.push(d);
            continue;
        }
        let Some(reference) = reference_of(documents, &d) else {
            out.push(d);
            continue;
        };
        match accepted.judge(&reference.key, &reference.fields) {
            Judgement::Accepted(_) => {}
            Judgement::Changed(work, differences) => {
                if told.insert((reference.file, reference.span)) {
                    changed.push(rules::accepted::changed(
                        d.file,
                        d.span,
                        &reference.key,
                        &work.record.entry.describe(),
                        &differences,
                        work.file.map(|f| (f, work.record.span)),
                    ));
                }
                out.push(d);
            }
            Judgement::Unknown => out.push(d),
        }
    }
    out.extend(changed);
    out
}
