//! The open documents as a file-system view over the disk that follows the
//! editor: the main loop's checkers are built once and read the current buffers on
//! every load; a background run takes a [`LiveBuffers::snapshot`], so what it reads
//! does not change under it while the writer types on.

use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};

use crate::fs::{FileSystem, Overlay, Vfs};
use crate::source::FileKind;

/// The current buffers over the disk, shared by every checker of the main loop.
#[derive(Clone)]
pub struct LiveBuffers(Arc<RwLock<Overlay>>);

impl Default for LiveBuffers {
    fn default() -> LiveBuffers {
        LiveBuffers(Arc::new(RwLock::new(Overlay::new(Vfs::disk()))))
    }
}

impl LiveBuffers {
    pub fn set(&self, path: &Path, text: Arc<str>, kind: FileKind) {
        self.write().set_with_kind(path, text, Some(kind));
    }

    pub fn remove(&self, path: &Path) {
        self.write().remove(path);
    }

    /// The buffers as they are now (the texts are shared, not copied).
    pub fn snapshot(&self) -> Overlay {
        self.read().clone()
    }

    fn read(&self) -> std::sync::RwLockReadGuard<'_, Overlay> {
        // A panic while the lock was held left the overlay whole (every write is
        // one map operation): go on with it.
        self.0.read().unwrap_or_else(|e| e.into_inner())
    }

    fn write(&self) -> std::sync::RwLockWriteGuard<'_, Overlay> {
        self.0.write().unwrap_or_else(|e| e.into_inner())
    }
}

impl FileSystem for LiveBuffers {
    fn read_text(&self, path: &Path, max_size: u64) -> Result<String, String> {
        self.read().read_text(path, max_size)
    }

    fn read_shared(&self, path: &Path, max_size: u64) -> Result<Arc<str>, String> {
        self.read().read_shared(path, max_size)
    }

    fn read_bytes(&self, path: &Path, max_size: u64) -> Result<Vec<u8>, String> {
        self.read().read_bytes(path, max_size)
    }

    fn is_file(&self, path: &Path) -> bool {
        self.read().is_file(path)
    }

    fn is_dir(&self, path: &Path) -> bool {
        self.read().is_dir(path)
    }

    fn supported_files(&self, dir: &Path) -> Vec<PathBuf> {
        self.read().supported_files(dir)
    }

    fn kind(&self, path: &Path) -> Option<FileKind> {
        self.read().kind(path)
    }
}
