//! Inputs that name a paper instead of a file: `arXiv:2401.01234`,
//! `https://arxiv.org/abs/2401.01234v2`, `doi:10.1145/…`, `https://doi.org/10.…`,
//! an OpenReview forum (`https://openreview.net/forum?id=…`).

use crate::model::IdScheme;
use crate::parse::ids;

/// A paper named by an identifier.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Identifier {
    /// An arXiv id without version (`2401.01234`, `hep-th/9901001`).
    Arxiv(String),
    /// A lowercase DOI.
    Doi(String),
    /// An OpenReview note (forum) id.
    OpenReview(String),
}

impl Identifier {
    /// Read an input as an identifier (`None` for what looks like a path).
    pub fn parse(input: &str) -> Option<Identifier> {
        let input = input.trim();
        if let Some(id) = ids::openreview_id(input) {
            return Some(Identifier::OpenReview(id));
        }
        let found = if input.starts_with("http://") || input.starts_with("https://") {
            ids::identifier_from_url(input)
        } else {
            ids::parse_prefixed(input)
        };
        match found? {
            (IdScheme::Arxiv, id) => Some(Identifier::Arxiv(id)),
            (IdScheme::Doi, doi) => Some(match arxiv_doi(&doi) {
                Some(id) => Identifier::Arxiv(id),
                None => Identifier::Doi(doi),
            }),
            _ => None,
        }
    }

    /// The identifier as written in reports (`arXiv:2401.01234`).
    pub fn label(&self) -> String {
        match self {
            Identifier::Arxiv(id) => format!("arXiv:{id}"),
            Identifier::Doi(doi) => format!("doi:{doi}"),
            Identifier::OpenReview(id) => format!("openreview:{id}"),
        }
    }

    /// A file name for what is fetched (no extension): `arXiv-2401.01234`.
    pub fn file_stem(&self) -> String {
        let (prefix, id) = match self {
            Identifier::Arxiv(id) => ("arXiv", id),
            Identifier::Doi(doi) => ("doi", doi),
            Identifier::OpenReview(id) => ("openreview", id),
        };
        let safe: String = id
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        format!("{prefix}-{safe}")
    }
}

/// `10.48550/arXiv.2401.01234` → `2401.01234`.
fn arxiv_doi(doi: &str) -> Option<String> {
    let rest = doi.strip_prefix("10.48550/arxiv.")?;
    ids::normalize_arxiv(rest)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_written_forms() {
        let arxiv = Some(Identifier::Arxiv("2401.01234".into()));
        for input in [
            "arXiv:2401.01234",
            "arxiv:2401.01234v3",
            "https://arxiv.org/abs/2401.01234",
            "https://arxiv.org/pdf/2401.01234v2",
            "doi:10.48550/arXiv.2401.01234",
        ] {
            assert_eq!(Identifier::parse(input), arxiv, "{input}");
        }
        assert_eq!(
            Identifier::parse("doi:10.1145/3597503.3639187"),
            Some(Identifier::Doi("10.1145/3597503.3639187".into()))
        );
        assert_eq!(
            Identifier::parse("https://doi.org/10.1145/3597503.3639187"),
            Some(Identifier::Doi("10.1145/3597503.3639187".into()))
        );
        assert_eq!(
            Identifier::parse("https://openreview.net/forum?id=YicbFdNTTy"),
            Some(Identifier::OpenReview("YicbFdNTTy".into()))
        );
        for path in [
            "paper.tex",
            "sub/dir",
            "https://example.org/paper.pdf",
            "openreview:a/b",
        ] {
            assert_eq!(Identifier::parse(path), None, "{path}");
        }
        assert_eq!(
            Identifier::Arxiv("hep-th/9901001".into()).file_stem(),
            "arXiv-hep-th_9901001"
        );
    }
}
