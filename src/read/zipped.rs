//! Zip containers (Word and OpenDocument files, `.zip` submission bundles) read
//! from memory with limits: a bounded number of entries, and every entry read
//! through a cap on its expanded size, whatever its header claims, so that a zip
//! bomb stops at the cap with an error naming the entry.

use std::io::{Cursor, Read};

use zip::ZipArchive;
use zip::result::ZipError;

/// Most entries a zip may list.
pub const MAX_ENTRIES: usize = 20_000;

/// A zip archive in memory.
pub struct Zipped<'a> {
    archive: ZipArchive<Cursor<&'a [u8]>>,
}

/// One entry's name and what it is.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub index: usize,
    /// The name as stored (may hold `..` or a leading `/`: check before use).
    pub name: String,
    pub is_dir: bool,
    pub is_symlink: bool,
    pub encrypted: bool,
    /// The expanded size the header claims (not trusted: reads are capped).
    pub size: u64,
}

impl<'a> Zipped<'a> {
    /// Open a zip; the error says why it is not one.
    pub fn open(bytes: &'a [u8]) -> Result<Zipped<'a>, String> {
        let archive = ZipArchive::new(Cursor::new(bytes)).map_err(|e| describe(&e))?;
        if archive.len() > MAX_ENTRIES {
            return Err(format!(
                "the zip lists {} entries, over the limit of {MAX_ENTRIES}",
                archive.len()
            ));
        }
        Ok(Zipped { archive })
    }

    /// Whether an entry of this exact name exists.
    pub fn has(&self, name: &str) -> bool {
        self.archive.index_for_name(name).is_some()
    }

    /// Every entry, in the archive's order.
    pub fn entries(&mut self) -> Vec<Entry> {
        (0..self.archive.len())
            .filter_map(|index| {
                let file = self.archive.by_index_raw(index).ok()?;
                Some(Entry {
                    index,
                    name: file.name().ok()?.into_owned(),
                    is_dir: file.is_dir(),
                    is_symlink: file.is_symlink(),
                    encrypted: file.encrypted(),
                    size: file.size(),
                })
            })
            .collect()
    }

    /// The expanded bytes of the entry `name` (`None` when there is none),
    /// refusing to expand past `limit` bytes.
    pub fn read(&mut self, name: &str, limit: u64) -> Result<Option<Vec<u8>>, String> {
        match self.archive.index_for_name(name) {
            Some(index) => self.read_index(index, limit).map(Some),
            None => Ok(None),
        }
    }

    /// The expanded bytes of entry `index`, refusing to expand past `limit` bytes.
    pub fn read_index(&mut self, index: usize, limit: u64) -> Result<Vec<u8>, String> {
        let file = self.archive.by_index(index).map_err(|e| describe(&e))?;
        let name = file.name().map(|n| n.into_owned()).unwrap_or_default();
        let mut bytes = Vec::new();
        file.take(limit + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| format!("`{name}` cannot be expanded: {e}"))?;
        if bytes.len() as u64 > limit {
            return Err(format!(
                "`{name}` expands past {limit} bytes (a zip bomb?); not read"
            ));
        }
        Ok(bytes)
    }
}

/// What is wrong with a zip, in words.
fn describe(error: &ZipError) -> String {
    match error {
        ZipError::UnsupportedArchive(what) if what.contains("assword") => {
            "the file is encrypted (password-protected)".to_string()
        }
        ZipError::InvalidPassword => "the file is encrypted (password-protected)".to_string(),
        ZipError::CompressionMethodNotSupported(method) => {
            format!("an entry uses compression method {method}, which is not read (only deflate)")
        }
        ZipError::InvalidArchive(why) => format!("not a valid zip file ({why})"),
        other => format!("not a readable zip file ({other})"),
    }
}
