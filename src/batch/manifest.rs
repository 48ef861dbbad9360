//! `batch.json`: what an output folder is meant to hold, written before any
//! submission is checked — which shard of which batch it is, how many submissions
//! the whole batch has, this folder's submission ids, and a digest of the settings
//! without the shard. `batch merge` reads it to tell a missing or duplicated shard,
//! a shard that did not finish, or shards run with different settings.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::shard::Shard;

use super::files::write_whole;

/// The manifest's name in the output folder.
pub const MANIFEST_FILE: &str = "batch.json";

/// What an output folder is meant to hold.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    /// `I/N` of `--shard`; absent for a whole batch (or a merged one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<String>,
    /// Submissions of the whole batch, every shard together.
    pub batch_submissions: usize,
    /// A digest of the settings that decide the summary lines, the shard left out,
    /// so that the shards of one batch have the same.
    pub settings: String,
    /// This folder's submission ids, in summary order.
    pub submissions: Vec<String>,
}

impl Manifest {
    /// The shard, read back (`None` for a whole batch).
    pub fn shard(&self) -> Result<Option<Shard>, String> {
        self.shard.as_deref().map(str::parse).transpose()
    }

    pub fn write(&self, out: &Path) -> anyhow::Result<()> {
        let mut text = serde_json::to_string_pretty(self)?;
        text.push('\n');
        write_whole(&out.join(MANIFEST_FILE), text.as_bytes())
    }

    /// The manifest of the output folder `dir`; the error names the file.
    pub fn read(dir: &Path) -> anyhow::Result<Manifest> {
        let path = dir.join(MANIFEST_FILE);
        let text = std::fs::read_to_string(&path).map_err(|e| {
            anyhow::anyhow!(
                "cannot read `{}` ({e}): is `{}` the --out folder of a batch?",
                path.display(),
                dir.display()
            )
        })?;
        let manifest: Manifest = serde_json::from_str(&text)
            .map_err(|e| anyhow::anyhow!("`{}`: not a batch manifest: {e}", path.display()))?;
        manifest
            .shard()
            .map_err(|e| anyhow::anyhow!("`{}`: shard {e}", path.display()))?;
        Ok(manifest)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_manifest_reads_back_and_a_bad_one_names_its_file() {
        let dir = tempfile::tempdir().unwrap();
        let manifest = Manifest {
            shard: Some("2/3".into()),
            batch_submissions: 7,
            settings: "abc".into(),
            submissions: vec!["s02".into(), "s03".into()],
        };
        manifest.write(dir.path()).unwrap();
        let read = Manifest::read(dir.path()).unwrap();
        assert_eq!(read, manifest);
        assert_eq!(read.shard().unwrap().unwrap().to_string(), "2/3");

        std::fs::write(
            dir.path().join(MANIFEST_FILE),
            r#"{"shard":"4/3","batch_submissions":1,"settings":"","submissions":[]}"#,
        )
        .unwrap();
        let err = Manifest::read(dir.path()).unwrap_err().to_string();
        assert!(err.contains("batch.json") && err.contains("4/3"), "{err}");
        let missing = Manifest::read(&dir.path().join("nothing")).unwrap_err();
        assert!(missing.to_string().contains("--out folder"), "{missing}");
    }
}
