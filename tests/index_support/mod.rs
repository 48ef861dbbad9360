//! What the index tests share: the fixtures in fixtures/index, and dump files written
//! gzip-compressed as the real dumps are.
#![allow(dead_code)] // Each test file uses a part.

use std::io::Write;
use std::path::{Path, PathBuf};

/// A file of fixtures/index.
pub fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/index")
        .join(name)
}

/// Write `text` gzip-compressed at `path` (creating its folder).
pub fn gzip(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let mut gz = flate2::write::GzEncoder::new(
        std::fs::File::create(path).unwrap(),
        flate2::Compression::fast(),
    );
    gz.write_all(text.as_bytes()).unwrap();
    gz.finish().unwrap();
}
