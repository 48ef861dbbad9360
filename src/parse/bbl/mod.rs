//! `.bbl` files, the bibliography a LaTeX build writes (arXiv sources ship them
//! without the `.bib`): BibTeX's `thebibliography` of `\bibitem`s with formatted
//! text, read by the LaTeX parser's `\bibitem` reader, or biber's structured
//! `\entry … \endentry` records, read as fields ([`biblatex`]).

pub mod biblatex;

use crate::model::FileId;
use crate::parse::{ParseOptions, Parsed, latex};

/// Parse one `.bbl` file.
pub fn parse(file: FileId, text: &str, options: &ParseOptions) -> Parsed {
    if text.contains("\\entry{") {
        return Parsed {
            references: biblatex::entries(file, text),
            ..Parsed::default()
        };
    }
    let parsed = latex::parse(file, text, options);
    Parsed {
        references: parsed.references,
        problems: parsed.problems,
        ..Parsed::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ReferenceOrigin;

    #[test]
    fn bibtex_bbls_are_bibitems() {
        let text = r"\begin{thebibliography}{1}

\bibitem{knuth1984}
Donald~E. Knuth.
\newblock {\em The {\TeX}book}.
\newblock Addison-Wesley, 1984.

\end{thebibliography}
";
        let parsed = parse(FileId(0), text, &ParseOptions::default());
        assert_eq!(parsed.references.len(), 1);
        let r = &parsed.references[0];
        assert_eq!(
            (r.key.as_str(), r.origin),
            ("knuth1984", ReferenceOrigin::BibItem)
        );
        assert_eq!(r.fields.year, Some(1984));
        assert!(parsed.citations.is_empty());
    }

    #[test]
    fn acm_bbls_break_the_line_before_the_key() {
        let text = r"\begin{thebibliography}{9}
\bibitem[Xie et~al\mbox{.}(2020)]%
        {xie2020}
\bibfield{author}{\bibinfo{person}{Qizhe Xie}, \bibinfo{person}{Minh-Thang
  Luong}, {and} \bibinfo{person}{Quoc~V. Le}.}
  \bibinfo{year}{2020}\natexlab{}.
\newblock \showarticletitle{Self-training with Noisy Student improves ImageNet
  classification}. In \bibinfo{booktitle}{\emph{CVPR}}.
\newblock
\showeprint[arxiv]{2205.11916}

\end{thebibliography}
";
        let parsed = parse(FileId(0), text, &ParseOptions::default());
        assert_eq!(parsed.references.len(), 1, "{:?}", parsed.problems);
        let r = &parsed.references[0];
        assert_eq!(r.key, "xie2020");
        assert_eq!(r.fields.arxiv.as_deref(), Some("2205.11916"));
        assert_eq!(r.fields.year, Some(2020));
        assert_eq!(
            r.fields.title.as_deref(),
            Some("Self-training with Noisy Student improves ImageNet classification")
        );
    }
}
