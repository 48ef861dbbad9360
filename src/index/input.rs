//! Dump files as streams: a path is a file or a folder searched recursively; `.gz`
//! files are decompressed on the fly (multi-member gzip, as the dumps are written);
//! every reader counts the compressed bytes it consumed, for the progress bar.

use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use flate2::read::MultiGzDecoder;

use super::IndexError;
use super::store::FileStamp;

/// The files under `path` (itself when it is a file) whose names `wanted` accepts,
/// sorted by path, so that OpenAlex's `updated_date=…` partitions come oldest first.
pub fn files_under(path: &Path, wanted: fn(&str) -> bool) -> Result<Vec<PathBuf>, IndexError> {
    let meta = std::fs::metadata(path).map_err(|e| input_error(path, e))?;
    if meta.is_file() {
        return Ok(vec![path.to_path_buf()]);
    }
    let mut out = Vec::new();
    let mut pending = vec![path.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).map_err(|e| input_error(&dir, e))? {
            let entry = entry.map_err(|e| input_error(&dir, e))?;
            let p = entry.path();
            let kind = entry.file_type().map_err(|e| input_error(&p, e))?;
            if kind.is_dir() {
                pending.push(p);
            } else if p.file_name().and_then(|n| n.to_str()).is_some_and(wanted) {
                out.push(p);
            }
        }
    }
    out.sort();
    if out.is_empty() {
        return Err(input_error(path, "no dump file found in this folder"));
    }
    Ok(out)
}

pub fn input_error(path: &Path, e: impl std::fmt::Display) -> IndexError {
    IndexError::Input {
        path: path.to_path_buf(),
        message: e.to_string(),
    }
}

/// Size and modification time of a file, to tell an unchanged file on a rerun.
pub fn stamp(path: &Path) -> Result<FileStamp, IndexError> {
    let meta = std::fs::metadata(path).map_err(|e| input_error(path, e))?;
    let modified = meta
        .modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_secs() as i64);
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    Ok(FileStamp {
        path: absolute.display().to_string(),
        size: meta.len(),
        modified,
    })
}

/// Counts bytes read from the file (before decompression).
struct Counting<R> {
    inner: R,
    read: Arc<AtomicU64>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// A buffered stream of a dump file's text, decompressed when it is gzip (by name or
/// by its magic bytes); `read` counts the file's bytes as they are consumed.
pub fn open_stream(path: &Path, read: Arc<AtomicU64>) -> Result<Box<dyn BufRead>, IndexError> {
    let file = File::open(path).map_err(|e| input_error(path, e))?;
    let mut raw = BufReader::with_capacity(1 << 16, Counting { inner: file, read });
    let gzip = raw
        .fill_buf()
        .map(|b| b.starts_with(&[0x1f, 0x8b]))
        .map_err(|e| input_error(path, e))?;
    Ok(if gzip {
        Box::new(BufReader::with_capacity(1 << 16, MultiGzDecoder::new(raw)))
    } else {
        Box::new(raw)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn folders_are_searched_recursively_and_gzip_is_read() {
        let dir = tempfile::tempdir().unwrap();
        let part = dir.path().join("data/works/updated_date=2024-01-01");
        std::fs::create_dir_all(&part).unwrap();
        let path = part.join("part_000.gz");
        let mut gz = flate2::write::GzEncoder::new(
            File::create(&path).unwrap(),
            flate2::Compression::fast(),
        );
        gz.write_all(b"{\"id\": 1}\n").unwrap();
        gz.finish().unwrap();
        std::fs::write(dir.path().join("README.txt"), "x").unwrap();
        let files = files_under(dir.path(), |n| n.ends_with(".gz")).unwrap();
        assert_eq!(files, vec![path.clone()]);
        let counter = Arc::new(AtomicU64::new(0));
        let mut text = String::new();
        open_stream(&path, counter.clone())
            .unwrap()
            .read_to_string(&mut text)
            .unwrap();
        assert_eq!(text, "{\"id\": 1}\n");
        assert_eq!(
            counter.load(Ordering::Relaxed),
            std::fs::metadata(&path).unwrap().len()
        );
        let empty = tempfile::tempdir().unwrap();
        assert!(files_under(empty.path(), |_| true).is_err());
    }
}
