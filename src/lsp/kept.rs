//! What the main loop keeps about roots between batches (see `refresh.rs`, which
//! acts on it): what changed, the checker built for each root and the
//! configuration files it read, the main files and Manubot folders found, and
//! the roots whose check failed.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::SystemTime;

use super::roots::LatexParents;
use crate::config::layers::FILE_NAMES;
use crate::load::ParseCache;
use crate::pipeline::Checker;

/// What the main loop knows about roots between batches.
#[derive(Default)]
pub struct Roots {
    /// Files changed since the last refresh (edited, saved, changed on disk).
    pub(super) changed: HashSet<PathBuf>,
    /// Every root is checked again (documents opened or closed, settings,
    /// configuration or workspace folders changed).
    pub(super) all: bool,
    pub(super) checkers: HashMap<PathBuf, KeptChecker>,
    pub(super) parents: LatexParents,
    pub(super) manubot: HashMap<PathBuf, Option<Vec<PathBuf>>>,
    pub(super) parse_cache: Arc<ParseCache>,
    /// Roots whose last check failed, with the message shown for it.
    pub(super) failing: HashMap<PathBuf, String>,
}

#[derive(Clone)]
pub(super) struct KeptChecker {
    pub(super) inputs: Vec<PathBuf>,
    /// The configuration files it may have read, as the disk had them.
    pub(super) config_stamp: ConfigStamp,
    pub(super) checker: Arc<Checker>,
    pub(super) engines_key: String,
    pub(super) resolves: bool,
}

impl Roots {
    /// Configuration or settings changed: checkers are built again.
    pub fn forget_checkers(&mut self) {
        self.checkers.clear();
    }

    /// Files appeared or went away on disk: main files and Manubot folders are
    /// looked for again.
    pub fn forget_layout(&mut self) {
        self.parents.invalidate();
        self.manubot.clear();
    }
}

/// Where configuration files may be found for some inputs, each with its
/// modification time and length on disk (`None`: absent).
pub(super) type ConfigStamp = Vec<(PathBuf, Option<(SystemTime, u64)>)>;

/// The [`ConfigStamp`] of `inputs`: the configuration file named in the
/// settings, and `citeproof.toml`/`.citeproof.toml` in every folder above them
/// (a few `stat`s per check). Open buffers are not looked at: their edits mark
/// the checkers stale themselves (`Server::mark_changed` in refresh.rs).
pub(super) fn config_stamp(inputs: &[PathBuf], config_file: Option<&Path>) -> ConfigStamp {
    let mut folders: Vec<&Path> = Vec::new();
    for input in inputs {
        let start = if input.is_dir() {
            Some(input.as_path())
        } else {
            input.parent()
        };
        for folder in start.into_iter().flat_map(Path::ancestors) {
            if !folders.contains(&folder) {
                folders.push(folder);
            }
        }
    }
    let candidates = folders
        .iter()
        .flat_map(|folder| FILE_NAMES.iter().map(|name| folder.join(name)));
    config_file
        .map(Path::to_path_buf)
        .into_iter()
        .chain(candidates)
        .map(|path| {
            let seen = std::fs::metadata(&path)
                .ok()
                .map(|m| (m.modified().unwrap_or(SystemTime::UNIX_EPOCH), m.len()));
            (path, seen)
        })
        .collect()
}
