//! Where a store lives. The resolution cache and the offline index each have two
//! backends — files in a folder (SQLite) and a PostgreSQL database shared by many
//! machines — and every place that opens one reads the location here, once.
//! [`works`] is what a reader may ask of the index, whichever its backend.

use std::path::{Path, PathBuf};

pub mod works;

/// A store's location, as given by `--cache-dir`, `--index` or their config keys.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Location {
    /// A folder on disk (created when missing, for the cache).
    Folder(PathBuf),
    /// A `postgres://…` or `postgresql://…` URL.
    Postgres(String),
}

impl Location {
    pub fn of(location: &Path) -> Location {
        match location.to_str() {
            Some(text) if is_database_url(text) => Location::Postgres(text.trim().to_string()),
            _ => Location::Folder(location.to_path_buf()),
        }
    }

    pub fn is_database(location: &Path) -> bool {
        matches!(Location::of(location), Location::Postgres(_))
    }
}

/// Whether a location names a PostgreSQL database rather than a folder.
pub fn is_database_url(location: &str) -> bool {
    let lower = location.trim_start().to_ascii_lowercase();
    lower.starts_with("postgres://") || lower.starts_with("postgresql://")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_name_databases_and_everything_else_a_folder() {
        assert_eq!(
            Location::of(Path::new("postgresql://u@h/db")),
            Location::Postgres("postgresql://u@h/db".into())
        );
        assert!(Location::is_database(Path::new("POSTGRES://h/db")));
        assert_eq!(
            Location::of(Path::new("postgres-notes/idx")),
            Location::Folder("postgres-notes/idx".into())
        );
    }
}
