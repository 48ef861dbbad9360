//! Where configuration values come from: built-in defaults, configuration files (an
//! `extend` chain, base first), environment variables and command-line flags, each a
//! layer of dotted keys that overrides the layers before it. Keeping the layers flat
//! is what lets `citeproof config` say where every value came from.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use toml::{Table, Value};

use super::file::ConfigFile;
use super::origin::Origin;
use crate::fs::FileSystem;

/// Configuration files larger than this are refused rather than read.
const MAX_CONFIG_SIZE: u64 = 1 << 20;

/// Configuration file names, looked for in every folder from a file's folder up.
pub const FILE_NAMES: [&str; 2] = ["citeproof.toml", ".citeproof.toml"];

/// How many files an `extend` chain may hold.
const MAX_EXTEND_DEPTH: usize = 16;

/// Dotted key → value and where it came from.
pub type Flat = BTreeMap<String, (Value, Origin)>;

/// One layer: a partial configuration and where it came from.
#[derive(Debug, Clone)]
pub struct Layer {
    pub origin: Origin,
    pub config: ConfigFile,
}

/// A configuration file that cannot be read or is invalid: which file, where in
/// it (a byte range, when the TOML error gives one), and what is wrong — so an
/// editor can put the error on the line.
#[derive(Debug)]
pub struct ConfigFileError {
    pub path: PathBuf,
    pub span: Option<std::ops::Range<usize>>,
    /// What is wrong, without the file name.
    pub message: String,
    /// The TOML error as rustc-style text (with the line shown), or the read error.
    detail: String,
    readable: bool,
}

impl fmt::Display for ConfigFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.readable {
            write!(
                f,
                "invalid configuration `{}`:\n{}",
                self.path.display(),
                self.detail
            )
        } else {
            write!(
                f,
                "cannot read configuration `{}`: {}",
                self.path.display(),
                self.detail
            )
        }
    }
}

impl std::error::Error for ConfigFileError {}

/// Read and check one configuration file. The error ([`ConfigFileError`]) names
/// the file and, through the TOML error, the line and the key.
pub fn read_file(fs: &dyn FileSystem, path: &Path) -> anyhow::Result<ConfigFile> {
    let text = fs
        .read_text(path, MAX_CONFIG_SIZE)
        .map_err(|e| ConfigFileError {
            path: path.to_path_buf(),
            span: None,
            message: e.clone(),
            detail: e,
            readable: false,
        })?;
    toml::from_str(&text).map_err(|e: toml::de::Error| {
        ConfigFileError {
            path: path.to_path_buf(),
            span: e.span(),
            message: e.message().to_string(),
            detail: e.to_string(),
            readable: true,
        }
        .into()
    })
}

/// A file and the files it extends, base first.
pub fn file_chain(fs: &dyn FileSystem, path: &Path) -> anyhow::Result<Vec<Layer>> {
    let mut chain: Vec<Layer> = Vec::new();
    let mut next = Some(path.to_path_buf());
    while let Some(path) = next.take() {
        let key = path
            .canonicalize()
            .unwrap_or_else(|_| crate::fs::normalize(&path));
        if chain.iter().any(|l| l.origin == Origin::File(key.clone())) {
            let names: Vec<String> = chain
                .iter()
                .rev()
                .map(|l| l.origin.to_string())
                .chain([key.display().to_string()])
                .collect();
            anyhow::bail!("`extend` cycle: {}", names.join(" → "));
        }
        if chain.len() == MAX_EXTEND_DEPTH {
            anyhow::bail!(
                "`extend` chain from `{}` is longer than {MAX_EXTEND_DEPTH} files",
                path.display()
            );
        }
        let config = read_file(fs, &path)?;
        if let Some(base) = &config.extend {
            let dir = path.parent().unwrap_or(Path::new(""));
            let target = dir.join(base);
            if !fs.is_file(&target) {
                anyhow::bail!(
                    "`extend = \"{base}\"` in `{}`: no such file `{}`",
                    path.display(),
                    target.display()
                );
            }
            next = Some(target);
        }
        chain.push(Layer {
            origin: Origin::File(key),
            config,
        });
    }
    chain.reverse();
    Ok(chain)
}

/// The configuration file that applies to `dir`: the nearest one walking up.
/// Two names in one folder are an error rather than a silent choice.
pub fn discover(fs: &dyn FileSystem, dir: &Path) -> anyhow::Result<Option<PathBuf>> {
    for folder in dir.ancestors() {
        let found: Vec<PathBuf> = FILE_NAMES
            .iter()
            .map(|name| folder.join(name))
            .filter(|p| fs.is_file(p))
            .collect();
        match found.as_slice() {
            [] => continue,
            [one] => return Ok(Some(one.clone())),
            _ => anyhow::bail!(
                "both `citeproof.toml` and `.citeproof.toml` in `{}`: keep one",
                folder.display()
            ),
        }
    }
    Ok(None)
}

/// Flatten a layer into dotted keys (arrays stay whole; `extend` is per file).
pub fn flatten(layer: &Layer, out: &mut Flat) {
    let value = match Value::try_from(&layer.config) {
        Ok(Value::Table(table)) => table,
        _ => return,
    };
    fn walk(prefix: &str, table: &Table, origin: &Origin, out: &mut Flat) {
        for (key, value) in table {
            let dotted = if prefix.is_empty() {
                key.clone()
            } else {
                format!("{prefix}.{key}")
            };
            match value {
                Value::Table(inner) => walk(&dotted, inner, origin, out),
                _ => {
                    out.insert(dotted, (value.clone(), origin.clone()));
                }
            }
        }
    }
    let mut flat = Flat::new();
    walk("", &value, &layer.origin, &mut flat);
    flat.remove("extend");
    out.extend(flat);
}

/// The merged configuration of flattened layers.
pub fn unflatten(flat: &Flat) -> anyhow::Result<ConfigFile> {
    Value::Table(nest(flat)?)
        .try_into()
        .map_err(|e| anyhow::anyhow!("invalid merged configuration: {e}"))
}

/// A layer of dotted keys (`resolve.offline = true`), as the environment and the
/// command line give them, checked as a file's values would be; the error is the
/// value's problem (`` `ftp://x` is not an http(s) base URL ``).
pub fn from_keys(origin: Origin, entries: Vec<(String, Value)>) -> Result<Layer, String> {
    let flat: Flat = entries
        .into_iter()
        .map(|(key, value)| (key, (value, origin.clone())))
        .collect();
    let table = nest(&flat).map_err(|e| e.to_string())?;
    let config = Value::Table(table)
        .try_into::<ConfigFile>()
        .map_err(|e| e.message().to_string())?;
    Ok(Layer { origin, config })
}

/// Dotted keys as nested tables.
fn nest(flat: &Flat) -> anyhow::Result<Table> {
    let mut root = Table::new();
    for (key, (value, _)) in flat {
        let parts: Vec<&str> = key.split('.').collect();
        let mut table = &mut root;
        for part in &parts[..parts.len() - 1] {
            let entry = table
                .entry(part.to_string())
                .or_insert_with(|| Value::Table(Table::new()));
            table = match entry {
                Value::Table(t) => t,
                _ => anyhow::bail!("configuration key `{key}` conflicts with another value"),
            };
        }
        table.insert(parts[parts.len() - 1].to_string(), value.clone());
    }
    Ok(root)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fs::Disk;

    fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
        let path = dir.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        path
    }

    #[test]
    fn extend_chain_is_base_first_and_cycles_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        write(
            dir.path(),
            "base.toml",
            "fail-on = \"warning\"\n[rules]\nCP102 = \"off\"\n",
        );
        let top = write(
            dir.path(),
            "sub/citeproof.toml",
            "extend = \"../base.toml\"\nfail-on = \"error\"\n",
        );
        let chain = file_chain(&Disk, &top).unwrap();
        assert_eq!(chain.len(), 2);
        let mut flat = Flat::new();
        for layer in &chain {
            flatten(layer, &mut flat);
        }
        assert_eq!(flat["fail-on"].0.as_str(), Some("error"));
        assert!(matches!(&flat["fail-on"].1, Origin::File(p) if p.ends_with("sub/citeproof.toml")));
        assert!(matches!(&flat["rules.CP102"].1, Origin::File(p) if p.ends_with("base.toml")));
        let merged = unflatten(&flat).unwrap();
        assert_eq!(merged.fail_on.unwrap().written, "error");

        write(dir.path(), "a.toml", "extend = \"b.toml\"\n");
        write(dir.path(), "b.toml", "extend = \"a.toml\"\n");
        let err = file_chain(&Disk, &dir.path().join("a.toml"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("cycle"), "{err}");
        write(dir.path(), "c.toml", "extend = \"missing.toml\"\n");
        let err = file_chain(&Disk, &dir.path().join("c.toml"))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("missing.toml") && err.contains("c.toml"),
            "{err}"
        );
    }

    #[test]
    fn discovery_walks_up_and_refuses_two_names() {
        let dir = tempfile::tempdir().unwrap();
        let found = write(dir.path(), "citeproof.toml", "");
        std::fs::create_dir_all(dir.path().join("a/b")).unwrap();
        assert_eq!(
            discover(&Disk, &dir.path().join("a/b")).unwrap(),
            Some(found)
        );
        write(dir.path(), "a/.citeproof.toml", "");
        write(dir.path(), "a/citeproof.toml", "");
        let err = discover(&Disk, &dir.path().join("a/b"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("keep one"), "{err}");
    }
}
