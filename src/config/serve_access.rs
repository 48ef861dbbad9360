//! Who may use `citeproof serve`: the bearer tokens (`[serve] tokens-file`, one per
//! line, and `CITEPROOF_SERVE_TOKENS`, comma-separated) and the browser origins
//! allowed to call it (`[serve] cors-origins`). Tokens are secrets: their `Debug` form
//! says how many there are, never what they are.

use std::fmt;
use std::path::Path;

use anyhow::Context as _;

/// The environment variable of comma-separated bearer tokens.
pub const TOKENS_ENV: &str = "CITEPROOF_SERVE_TOKENS";

/// Tokens files larger than this are refused rather than read.
const MAX_TOKENS_FILE: u64 = 1 << 20;

/// The bearer tokens the service accepts.
#[derive(Clone, Default, PartialEq)]
pub struct Tokens(Vec<String>);

impl fmt::Debug for Tokens {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Tokens({} redacted)", self.0.len())
    }
}

impl Tokens {
    /// The tokens of `file` (one per line; blank lines and `#` comments skipped)
    /// followed by those of `env` (comma-separated), each once.
    pub fn gather(file: Option<&Path>, env: Option<&str>) -> anyhow::Result<Tokens> {
        let mut tokens = Vec::new();
        if let Some(path) = file {
            let size = std::fs::metadata(path)
                .with_context(|| format!("cannot read the tokens file {}", path.display()))?
                .len();
            anyhow::ensure!(
                size <= MAX_TOKENS_FILE,
                "the tokens file {} is larger than 1 MiB",
                path.display()
            );
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read the tokens file {}", path.display()))?;
            for (n, line) in text.lines().enumerate() {
                let line = line.trim();
                if line.is_empty() || line.starts_with('#') {
                    continue;
                }
                check_token(line)
                    .map_err(|e| anyhow::anyhow!("{}:{}: {e}", path.display(), n + 1))?;
                tokens.push(line.to_string());
            }
            anyhow::ensure!(
                !tokens.is_empty(),
                "the tokens file {} holds no token (one per line)",
                path.display()
            );
        }
        if let Some(env) = env {
            for (n, item) in env.split(',').map(str::trim).enumerate() {
                if item.is_empty() {
                    continue;
                }
                check_token(item)
                    .map_err(|e| anyhow::anyhow!("{TOKENS_ENV}: token {}: {e}", n + 1))?;
                tokens.push(item.to_string());
            }
        }
        let mut seen = std::collections::HashSet::new();
        tokens.retain(|t| seen.insert(t.clone()));
        Ok(Tokens(tokens))
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// The tokens themselves, for the service to keep digests of.
    pub fn secrets(&self) -> impl Iterator<Item = &str> {
        self.0.iter().map(String::as_str)
    }
}

/// A token is what `Authorization: Bearer` can carry (RFC 6750's token68 characters)
/// and long enough not to be guessed.
fn check_token(token: &str) -> Result<(), String> {
    let allowed = |c: char| c.is_ascii_alphanumeric() || "-._~+/=".contains(c);
    if let Some(bad) = token.chars().find(|c| !allowed(*c)) {
        return Err(format!(
            "a token may hold letters, digits and `-._~+/=` only, not {bad:?}"
        ));
    }
    if token.len() < 16 {
        return Err(format!(
            "a token of {} characters is too easy to guess (16 at least)",
            token.len()
        ));
    }
    Ok(())
}

/// The origins allowed to call the service from a browser; none: cross-origin calls
/// are refused (no CORS headers are sent).
#[derive(Debug, Clone, Default, PartialEq)]
pub enum CorsOrigins {
    #[default]
    Closed,
    /// `*`: any origin (bearer tokens still apply).
    Any,
    /// `scheme://host[:port]` each.
    List(Vec<String>),
}

impl CorsOrigins {
    pub fn parse(items: &[String]) -> Result<CorsOrigins, String> {
        if items.is_empty() {
            return Ok(CorsOrigins::Closed);
        }
        if items.iter().any(|o| o.trim() == "*") {
            return if items.len() == 1 {
                Ok(CorsOrigins::Any)
            } else {
                Err("`*` allows every origin; give it alone".into())
            };
        }
        let mut origins = Vec::new();
        for item in items {
            let written = item.trim().trim_end_matches('/');
            let url = url::Url::parse(written)
                .map_err(|_| format!("`{item}` is not an origin (e.g. https://app.example.org)"))?;
            let origin = url.origin().ascii_serialization();
            if origin != written {
                return Err(format!(
                    "`{item}` is not an origin: give the scheme, host and port only ({origin})"
                ));
            }
            origins.push(origin);
        }
        Ok(CorsOrigins::List(origins))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_read_checked_and_never_shown() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("tokens");
        std::fs::write(
            &file,
            "s3cret-token-0001\n  # a comment\n\ns3cret-token-0002\n",
        )
        .unwrap();
        let tokens =
            Tokens::gather(Some(&file), Some("s3cret-token-0001,s3cret-token-0003")).unwrap();
        assert_eq!(tokens.len(), 3, "a token given twice counts once");
        let shown = format!("{tokens:?}");
        assert!(!shown.contains("s3cret"), "{shown}");

        std::fs::write(&file, "s3cret-token-0001\nhas space in it ok\n").unwrap();
        let err = Tokens::gather(Some(&file), None).unwrap_err().to_string();
        assert!(err.contains("tokens:2:") && err.contains("' '"), "{err}");
        assert!(!err.contains("has space"), "the token is not echoed: {err}");
        std::fs::write(&file, "# nothing\n").unwrap();
        let err = Tokens::gather(Some(&file), None).unwrap_err().to_string();
        assert!(err.contains("holds no token"), "{err}");
        let err = Tokens::gather(None, Some("short")).unwrap_err().to_string();
        assert!(
            err.contains("CITEPROOF_SERVE_TOKENS: token 1") && err.contains("16"),
            "{err}"
        );
        assert!(Tokens::gather(None, None).unwrap().is_empty());
    }

    #[test]
    fn origins_are_closed_by_default_and_checked() {
        assert_eq!(CorsOrigins::parse(&[]).unwrap(), CorsOrigins::Closed);
        assert_eq!(CorsOrigins::parse(&["*".into()]).unwrap(), CorsOrigins::Any);
        assert_eq!(
            CorsOrigins::parse(&["https://app.example.org/".into()]).unwrap(),
            CorsOrigins::List(vec!["https://app.example.org".into()])
        );
        for (bad, says) in [
            ("app.example.org", "not an origin"),
            ("https://app.example.org/path", "scheme, host and port only"),
        ] {
            let err = CorsOrigins::parse(&[bad.into()]).unwrap_err();
            assert!(err.contains(says), "{bad}: {err}");
        }
        assert!(CorsOrigins::parse(&["*".into(), "https://a.org".into()]).is_err());
    }
}
