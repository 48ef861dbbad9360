//! The archive reader (`.zip`, `.tar`, gzip) and the choice of the main `.tex`:
//! any bytes give the files taken out or an error, never a panic; every name taken
//! out is inside the archive (no `..`, not absolute), and the limits hold.
//!
//! The first byte chooses the format the rest is read as.

use citeproof::read::archive::{self, ArchiveFormat, Limits};

/// Small limits, so that a bomb is found in a fuzzer's time.
const LIMITS: Limits = Limits {
    max_entries: 64,
    max_file: 1 << 20,
    max_taken: 2 << 20,
    max_expanded: 4 << 20,
};

pub fn run(data: &[u8]) {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let format = match mode % 3 {
        0 => ArchiveFormat::Zip,
        1 => ArchiveFormat::Tar,
        _ => ArchiveFormat::Gzip,
    };
    let _ = ArchiveFormat::sniff(rest);
    let Ok(files) = archive::unpack(rest, format, "fuzz", &LIMITS) else {
        return;
    };
    let mut taken = 0u64;
    for (name, bytes) in &files {
        assert!(
            !name.starts_with('/') && !name.split('/').any(|p| p == ".."),
            "{name}"
        );
        assert!(bytes.len() as u64 <= LIMITS.max_file);
        taken += bytes.len() as u64;
    }
    assert!(taken <= LIMITS.max_taken);
    let _ = archive::main_tex::main_tex(&files);
}
