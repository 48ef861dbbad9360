//! The package a reference names in a registry: from a registry URL
//! (`https://pypi.org/project/scikit-learn/`, `https://CRAN.R-project.org/package=ggplot2`,
//! `https://crates.io/crates/serde`, `https://www.npmjs.com/package/@babel/core`), or from
//! the registry's own citation form (`R package version 3.4.0`, `Python package`).

use std::sync::LazyLock;

use regex::Regex;

use crate::model::{PackageRef, Registry};

static REGISTRY_URL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?ix)
        (?:pypi\.(?:org|python\.org)/(?:project|pypi|simple)/(?P<pypi>[A-Za-z0-9][A-Za-z0-9._\-]*))
      | (?:cran\.r-project\.org/(?:package=|web/packages/)(?P<cran>[A-Za-z][A-Za-z0-9.]*))
      | (?:(?:crates\.io/crates|docs\.rs|lib\.rs/crates)/(?P<crates>[A-Za-z][A-Za-z0-9_\-]*))
      | (?:npmjs\.(?:com|org)/package/(?P<npm>(?:@[a-z0-9][\w.\-]*/)?[a-z0-9][\w.\-]*))",
    )
    .expect("registry URL regex")
});

/// `npm package express`, `PyPI package \texttt{torch}` (decoded), `Rust crate serde`.
static NAMED_PACKAGE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)(?-u:\b)(npm|pypi|cran|crates\.io|rust)\s+(?:package|crate|library)\s*:?\s*[`'\x{2018}\x{201C}\x22]?([@A-Za-z][\w@/.\-]*[\w])",
    )
    .expect("named package regex")
});

/// `R package version 3.4.0`: CRAN's own citation line.
static R_PACKAGE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)(?-u:\b)R\s+package(?:\s+version(?-u:\b))?").expect("R package regex")
});

/// The package a text names with its registry (`npm package express`).
pub fn from_named(text: &str) -> Option<PackageRef> {
    let c = NAMED_PACKAGE.captures(text)?;
    let registry = match c[1].to_ascii_lowercase().as_str() {
        "npm" => Registry::Npm,
        "pypi" => Registry::Pypi,
        "cran" => Registry::Cran,
        _ => Registry::Crates,
    };
    let name = c[2].to_string();
    (!matches!(name.to_ascii_lowercase().as_str(), "version" | "for" | "of"))
        .then_some(PackageRef { registry, name })
}

/// The package a registry URL names.
pub fn from_url(text: &str) -> Option<PackageRef> {
    let c = REGISTRY_URL.captures(text)?;
    let (registry, name) = [
        (Registry::Pypi, "pypi"),
        (Registry::Cran, "cran"),
        (Registry::Crates, "crates"),
        (Registry::Npm, "npm"),
    ]
    .into_iter()
    .find_map(|(r, group)| c.name(group).map(|m| (r, m.as_str())))?;
    let name = name.trim_end_matches(['.', '/', '-']);
    (!name.is_empty()).then(|| PackageRef {
        registry,
        name: name.to_string(),
    })
}

/// The package of a citation in CRAN's form: the title's head before the colon
/// (`ggplot2: Create Elegant Data Visualisations …` — R package version 3.4.0).
pub fn from_citation_form(title: Option<&str>, text: &str) -> Option<PackageRef> {
    if !R_PACKAGE.is_match(text) {
        return None;
    }
    let head = title?.split(':').next()?.trim();
    let is_name = !head.is_empty()
        && !head.contains(char::is_whitespace)
        && head.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && head.chars().all(|c| c.is_ascii_alphanumeric() || c == '.');
    is_name.then(|| PackageRef {
        registry: Registry::Cran,
        name: head.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pkg(registry: Registry, name: &str) -> Option<PackageRef> {
        Some(PackageRef {
            registry,
            name: name.into(),
        })
    }

    #[test]
    fn registry_urls() {
        assert_eq!(
            from_url("https://pypi.org/project/scikit-learn/"),
            pkg(Registry::Pypi, "scikit-learn")
        );
        assert_eq!(
            from_url("https://CRAN.R-project.org/package=ggplot2"),
            pkg(Registry::Cran, "ggplot2")
        );
        assert_eq!(
            from_url("https://cran.r-project.org/web/packages/data.table/index.html"),
            pkg(Registry::Cran, "data.table")
        );
        assert_eq!(
            from_url("https://crates.io/crates/serde"),
            pkg(Registry::Crates, "serde")
        );
        assert_eq!(
            from_url("https://www.npmjs.com/package/@babel/core"),
            pkg(Registry::Npm, "@babel/core")
        );
        assert_eq!(from_url("https://github.com/numpy/numpy"), None);
    }

    #[test]
    fn packages_named_with_their_registry() {
        assert_eq!(
            from_named("npm package express, version 4.18.2"),
            pkg(Registry::Npm, "express")
        );
        assert_eq!(
            from_named("Version 2.1.0; PyPI package torch"),
            pkg(Registry::Pypi, "torch")
        );
        assert_eq!(from_named("a Python package for plotting"), None);
    }

    #[test]
    fn cran_citation_form() {
        assert_eq!(
            from_citation_form(
                Some("ggplot2: Create Elegant Data Visualisations Using the Grammar of Graphics"),
                "Wickham H (2023). ggplot2: … R package version 3.4.4."
            ),
            pkg(Registry::Cran, "ggplot2")
        );
        assert_eq!(
            from_citation_form(Some("A study of R packages"), "R package usage"),
            None
        );
    }
}
