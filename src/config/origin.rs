//! Where a configuration value was set: what `citeproof config` prints beside every
//! value, and how a section tells a default from a value someone chose.

use std::fmt;
use std::path::PathBuf;

/// Where a value was set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    Default,
    File(PathBuf),
    Env(String),
    Cli(String),
    /// An editor's setting (`citeproof.verify` in the language server's settings).
    Editor(String),
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::Default => f.write_str("default"),
            Origin::File(path) => write!(f, "{}", path.display()),
            Origin::Env(var) => write!(f, "environment {var}"),
            Origin::Cli(flag) => write!(f, "command line {flag}"),
            Origin::Editor(setting) => write!(f, "editor setting {setting}"),
        }
    }
}
