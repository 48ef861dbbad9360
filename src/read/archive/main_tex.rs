//! Which `.tex` of a submission bundle is the manuscript: the one arXiv's
//! `00README` names as top level, else a file with `\documentclass` that no other
//! file `\input`s — ties broken by a conventional name (`main`, `paper`, `ms` …),
//! then by `\begin{document}`, then by size.

use std::collections::HashSet;

/// Base names (without `.tex`) that usually hold the manuscript.
const CONVENTIONAL: &[&str] = &["main", "paper", "ms", "manuscript", "article", "root"];

/// The main `.tex` among `files` (paths inside the archive, contents).
pub fn main_tex(files: &[(String, Vec<u8>)]) -> Option<String> {
    let tex: Vec<(&str, String)> = files
        .iter()
        .filter(|(name, _)| is_tex(name))
        .map(|(name, bytes)| (name.as_str(), String::from_utf8_lossy(bytes).into_owned()))
        .collect();
    if let Some(named) = readme_toplevel(files)
        && tex.iter().any(|(name, _)| *name == named)
    {
        return Some(named);
    }
    let included: HashSet<String> = tex
        .iter()
        .flat_map(|(name, text)| included_by(name, text))
        .collect();
    let mut candidates: Vec<&(&str, String)> = tex
        .iter()
        .filter(|(name, text)| has_command(text, "\\documentclass") && !included.contains(*name))
        .collect();
    if candidates.is_empty() {
        candidates = tex
            .iter()
            .filter(|(_, text)| has_command(text, "\\documentclass"))
            .collect();
    }
    candidates
        .into_iter()
        .max_by_key(|(name, text)| {
            let base = name
                .rsplit('/')
                .next()
                .unwrap_or(name)
                .trim_end_matches(".tex")
                .to_ascii_lowercase();
            (
                CONVENTIONAL.contains(&base.as_str()),
                has_command(text, "\\begin{document}"),
                // Files at the top of the bundle before ones in folders.
                std::cmp::Reverse(name.matches('/').count()),
                text.len(),
                std::cmp::Reverse(name.to_string()),
            )
        })
        .map(|(name, _)| name.to_string())
}

fn is_tex(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    lower.ends_with(".tex") || lower.ends_with(".ltx") || lower.ends_with(".latex")
}

/// `command` written outside a comment.
fn has_command(text: &str, command: &str) -> bool {
    text.lines().any(|line| uncommented(line).contains(command))
}

/// A line up to its first `%` that is not `\%`.
fn uncommented(line: &str) -> &str {
    let bytes = line.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'%' => return &line[..i],
            _ => i += 1,
        }
    }
    line
}

/// The archive paths `\input`, `\include` and `\subfile` of `name` name
/// (relative to the bundle's top, as TeX reads them; `.tex` added).
fn included_by(name: &str, text: &str) -> Vec<String> {
    let dir = name.rsplit_once('/').map_or("", |(d, _)| d);
    let mut out = Vec::new();
    for line in text.lines() {
        let line = uncommented(line);
        for command in ["\\input{", "\\include{", "\\subfile{", "\\subfileinclude{"] {
            let mut rest = line;
            while let Some(at) = rest.find(command) {
                rest = &rest[at + command.len()..];
                let Some(close) = rest.find('}') else {
                    break;
                };
                let written = rest[..close].trim();
                let with_ext = if written.contains('.') {
                    written.to_string()
                } else {
                    format!("{written}.tex")
                };
                for base in [String::new(), format!("{dir}/")] {
                    if let Ok(path) = super::inner_path(&format!("{base}{with_ext}")) {
                        out.push(path);
                    }
                }
                rest = &rest[close..];
            }
        }
    }
    out
}

/// The top-level file arXiv's `00README.json` (or older `00README.XXX`) names.
fn readme_toplevel(files: &[(String, Vec<u8>)]) -> Option<String> {
    for (name, bytes) in files {
        let base = name.to_ascii_lowercase();
        if base == "00readme.json" {
            let value: serde_json::Value = serde_json::from_slice(bytes).ok()?;
            let named = value["sources"].as_array()?.iter().find_map(|s| {
                (s["usage"].as_str() == Some("toplevel"))
                    .then(|| s["filename"].as_str().map(str::to_string))
                    .flatten()
            });
            if named.is_some() {
                return named;
            }
        } else if base.starts_with("00readme") {
            let text = String::from_utf8_lossy(bytes);
            let named = text.lines().find_map(|line| {
                let mut words = line.split_whitespace();
                let file = words.next()?;
                (words.next() == Some("toplevelfile")).then(|| file.to_string())
            });
            if named.is_some() {
                return named;
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(name: &str, text: &str) -> (String, Vec<u8>) {
        (name.to_string(), text.as_bytes().to_vec())
    }

    #[test]
    fn the_main_file_is_not_included_by_another() {
        let files = vec![
            file(
                "appendix.tex",
                "\\documentclass{article}\n\\begin{document}A\\end{document}",
            ),
            file(
                "thesis.tex",
                "\\documentclass{book}\n\\begin{document}\n\\include{appendix}\n\\input{ch/one}\n\\end{document}",
            ),
            file("ch/one.tex", "Chapter."),
            file("old.tex", "% \\documentclass{article}\n"),
        ];
        assert_eq!(main_tex(&files).as_deref(), Some("thesis.tex"));
    }

    #[test]
    fn conventional_names_break_ties_and_readme_decides() {
        let files = vec![
            file(
                "response.tex",
                "\\documentclass{article}\\begin{document}\\end{document}",
            ),
            file(
                "main.tex",
                "\\documentclass{article}\\begin{document}\\end{document}",
            ),
        ];
        assert_eq!(main_tex(&files).as_deref(), Some("main.tex"));
        let mut with_readme = files.clone();
        with_readme.push(file(
            "00README.json",
            r#"{"sources":[{"filename":"response.tex","usage":"toplevel"}]}"#,
        ));
        assert_eq!(main_tex(&with_readme).as_deref(), Some("response.tex"));
        assert_eq!(main_tex(&[file("notes.md", "# x")]), None);
    }
}
