//! `POST /v1/check`: the posted text is checked exactly as `citeproof check` checks a
//! file of that name in the server's folder — the library's configured check
//! ([`Checker`]) reading the text as an in-memory buffer ([`Overlay`]) — with the
//! server's shared resolver and verification backend. The check sees only what was
//! posted (the document and any `files` beside it) and the server's configuration
//! files: a document cannot make the server read anything else from its disk.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::config::Overrides;
use crate::fs::{FileSystem, Overlay, Vfs, normalize};
use crate::output::{self, Format, Report};
use crate::pipeline::{CheckSetup, Checker};
use crate::resolve::cascade::Resolver;
use crate::source::FileKind;
use crate::verify::backend::Backend;

use super::errors::ApiError;
use super::upload::{self, CheckInput, DocumentKind, Posted};

/// What the check of one document answers.
#[derive(Debug, Clone)]
pub struct CheckAnswer {
    pub body: String,
    pub content_type: &'static str,
    pub findings: usize,
    /// A finding at or above `fail-on` (what makes `citeproof check` exit with 1).
    pub failing: bool,
    /// `2 errors, 1 warning`, as `check` prints it.
    pub summary: String,
}

/// What every check of the service shares: the configuration (as the process
/// environment and the command line gave it), the configuration files it may read,
/// and the network stages built once.
pub struct CheckService {
    pub overrides: Overrides,
    pub config_files: Arc<HashSet<PathBuf>>,
    pub verify: Option<Backend>,
}

impl CheckService {
    /// Check one posted document.
    pub fn check(
        &self,
        request: CheckInput,
        resolver: Option<&Resolver>,
        runtime: &tokio::runtime::Handle,
    ) -> Result<CheckAnswer, ApiError> {
        let format: Format = match &request.format {
            Some(f) => f.parse().map_err(ApiError::unprocessable)?,
            None => Format::Json,
        };
        let sniffed = match &request.document {
            Posted::Bytes(bytes) if request.kind.is_none() => upload::name_of_bytes(bytes),
            _ => None,
        };
        let name = match &request.name {
            Some(name) => plain_name(name, "name")?,
            None => match (request.kind, sniffed) {
                (Some(kind), _) => kind.default_name().to_string(),
                (None, Some(name)) => name.to_string(),
                (None, None) => DocumentKind::Markdown.default_name().to_string(),
            },
        };
        let kind = match request.kind {
            Some(kind) => Some(kind.file_kind()),
            None => FileKind::from_path(Path::new(&name)),
        };
        let mut overlay = Overlay::new(Vfs::new(ConfigFiles(self.config_files.clone())));
        for (file, text) in &request.files {
            let file = plain_name(file, "files")?;
            if file == name {
                return Err(ApiError::unprocessable(format!(
                    "files: `{file}` is the document's own name"
                )));
            }
            overlay.set(Path::new(&file), Arc::from(text.as_str()));
        }
        match request.document {
            Posted::Text(text) => overlay.set_with_kind(
                Path::new(&name),
                Arc::from(text.as_str()),
                kind.or(Some(FileKind::Markdown)),
            ),
            // Bytes are read as their name or first bytes say (an archive is opened).
            Posted::Bytes(bytes) => overlay.set_bytes(Path::new(&name), Arc::from(bytes), kind),
        }
        let checker = Checker::new(CheckSetup {
            inputs: vec![PathBuf::from(&name)],
            bibliographies: Vec::new(),
            overrides: self.overrides.clone(),
            fs: Vfs::new(overlay),
        })
        .map_err(|e| ApiError::internal(format!("configuration: {e:#}")))?;
        let mut project = checker
            .load()
            .map_err(|e| ApiError::internal(format!("configuration: {e:#}")))?;
        let checked = runtime
            .block_on(checker.check_shared(&mut project, resolver, self.verify.as_ref()))
            .map_err(|e| ApiError::internal(format!("{e:#}")))?;
        let fail_on = checker.fail_on();
        let report = Report::new(&project, &checked.diagnostics, &checked.facts, &fail_on);
        Ok(CheckAnswer {
            body: output::render(format, &report),
            content_type: content_type(format),
            findings: checked.diagnostics.len(),
            failing: checked.diagnostics.iter().any(|d| fail_on.fails(d)),
            summary: output::text::summary(&checked.diagnostics),
        })
    }
}

fn content_type(format: Format) -> &'static str {
    match format {
        Format::Json | Format::Sarif | Format::Gitlab => "application/json",
        Format::Jsonl => "application/x-ndjson",
        Format::Junit => "application/xml",
        Format::Html => "text/html; charset=utf-8",
        Format::Text | Format::Github => "text/plain; charset=utf-8",
    }
}

/// A file name without folders: `paper.md`, `refs.bib`.
fn plain_name(name: &str, field: &str) -> Result<String, ApiError> {
    let trimmed = name.trim();
    let plain = !trimmed.is_empty()
        && !trimmed.contains(['/', '\\', '\0'])
        && trimmed != "."
        && trimmed != "..";
    if plain {
        Ok(trimmed.to_string())
    } else {
        Err(ApiError::unprocessable(format!(
            "{field}: `{name}` is not a plain file name (no folders)"
        )))
    }
}

/// The disk as the service's checks see it: only the server's configuration files.
struct ConfigFiles(Arc<HashSet<PathBuf>>);

impl ConfigFiles {
    fn allows(&self, path: &Path) -> bool {
        let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        self.0.contains(&normalize(&absolute))
    }
}

impl FileSystem for ConfigFiles {
    fn read_text(&self, path: &Path, max_size: u64) -> Result<String, String> {
        if self.allows(path) {
            crate::walk::read_text(path, max_size)
        } else {
            Err("no such file among those posted".into())
        }
    }

    fn read_bytes(&self, path: &Path, max_size: u64) -> Result<Vec<u8>, String> {
        if self.allows(path) {
            crate::walk::read_bytes(path, max_size)
        } else {
            Err("no such file among those posted".into())
        }
    }

    fn is_file(&self, path: &Path) -> bool {
        self.allows(path) && path.is_file()
    }

    fn is_dir(&self, _: &Path) -> bool {
        false
    }

    fn supported_files(&self, _: &Path) -> Vec<PathBuf> {
        Vec::new()
    }
}

/// The configuration files a configuration was read from (`extend` chain included),
/// absolute: the only files a check of the service reads from the disk.
pub fn config_files(file: Option<&Path>) -> anyhow::Result<HashSet<PathBuf>> {
    let mut out = HashSet::new();
    if let Some(file) = file {
        for layer in crate::config::layers::file_chain(&crate::fs::Disk, file)? {
            if let crate::config::Origin::File(path) = layer.origin {
                let absolute = std::path::absolute(&path).unwrap_or(path);
                out.insert(normalize(&absolute));
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_plain_and_the_disk_is_closed() {
        assert!(plain_name("paper.md", "name").is_ok());
        for bad in ["../x.md", "/etc/passwd", "a/b.bib", "..", " "] {
            let err = plain_name(bad, "name").unwrap_err();
            assert!(err.message.contains("not a plain file name"), "{bad}");
        }
        let dir = tempfile::tempdir().unwrap();
        let secret = dir.path().join("secret.bib");
        std::fs::write(&secret, "@article{a, title={T}}").unwrap();
        let config = dir.path().join("citeproof.toml");
        std::fs::write(&config, "fail-on = \"warning\"\n").unwrap();
        let fs = ConfigFiles(Arc::new(config_files(Some(&config)).unwrap()));
        assert!(fs.read_text(&config, 1000).is_ok());
        assert!(fs.is_file(&config));
        assert!(fs.read_text(&secret, 1000).is_err());
        assert!(!fs.is_file(&secret));
        assert!(fs.supported_files(dir.path()).is_empty());
    }
}
