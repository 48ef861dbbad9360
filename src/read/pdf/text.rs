//! An entry's lines into one string: words hyphenated at a line end rejoined, URLs and
//! DOIs broken at a line end closed up, everything else joined by a space.

/// Join the lines of one entry.
pub fn join_lines<'a>(lines: impl IntoIterator<Item = &'a str>) -> String {
    let mut out = String::new();
    for line in lines {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        if out.is_empty() {
            out.push_str(line);
            continue;
        }
        match joint(&out, line) {
            Joint::DropHyphen => {
                out.pop();
            }
            Joint::Close => {}
            Joint::Space => out.push(' '),
        }
        out.push_str(line);
    }
    out
}

enum Joint {
    DropHyphen,
    Close,
    Space,
}

fn joint(before: &str, next: &str) -> Joint {
    let last_word = before.rsplit(' ').next().unwrap_or("");
    let next_word = next.split(' ').next().unwrap_or("");
    // A URL or DOI broken by the `url` package: no hyphen is added, nothing is dropped.
    let in_link = last_word.contains("://")
        || last_word.starts_with("www.")
        || last_word.to_ascii_lowercase().contains("doi")
        || last_word.starts_with("10.") && last_word.contains('/');
    // `https:` + `//doi.org/…`: a URL broken right after its scheme.
    if next_word.starts_with("//") && last_word.ends_with(':') {
        return Joint::Close;
    }
    if in_link && last_word.ends_with(['/', '-', '_', '=', '&', '?', '#', '~', '.']) {
        // `…/CVPR.` + `2016.90` goes on; `…/page.` + `Accessed` is a new sentence.
        let continues = next_word
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_digit() || c.is_lowercase());
        if !last_word.ends_with('.') || continues {
            return Joint::Close;
        }
    }
    // `1–` + `10`: a page range broken at its dash.
    if before.ends_with('–') && next_word.starts_with(|c: char| c.is_ascii_digit()) {
        return Joint::Close;
    }
    if let Some(stem) = last_word.strip_suffix('-') {
        let stem_letter = stem.chars().next_back().is_some_and(char::is_alphabetic);
        let next_lower = next_word.chars().next().is_some_and(char::is_lowercase);
        if !stem_letter {
            return Joint::Space;
        }
        // `state-of-the-` + `art`: TeX breaks a hyphenated word only at its hyphen.
        if matches!(
            next_word,
            "and" | "or" | "und" | "to" | "et" | "oder" | "ou"
        ) {
            return Joint::Space;
        }
        if stem.contains('-') || !next_lower {
            return Joint::Close;
        }
        return Joint::DropHyphen;
    }
    Joint::Space
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hyphens_links_and_spaces() {
        assert_eq!(
            join_lines(["Deep rein-", "forcement learning"]),
            "Deep reinforcement learning"
        );
        assert_eq!(
            join_lines(["state-of-the-", "art results"]),
            "state-of-the-art results"
        );
        assert_eq!(
            join_lines(["Multi-", "Agent Systems"]),
            "Multi-Agent Systems"
        );
        assert_eq!(
            join_lines(["pre-", "and post-processing"]),
            "pre- and post-processing"
        );
        assert_eq!(
            join_lines(["https://doi.org/10.1145/", "3290605.3300233"]),
            "https://doi.org/10.1145/3290605.3300233"
        );
        assert_eq!(
            join_lines(["Available: https://github.com/org/", "repo"]),
            "Available: https://github.com/org/repo"
        );
        assert_eq!(join_lines(["A title.", "Journal"]), "A title. Journal");
        assert_eq!(
            join_lines(["doi: 10.1109/CVPR.", "2016.90"]),
            "doi: 10.1109/CVPR.2016.90"
        );
        assert_eq!(
            join_lines(["http://x.org/page.", "Accessed 2020"]),
            "http://x.org/page. Accessed 2020"
        );
        assert_eq!(join_lines(["pages 1–", "10"]), "pages 1–10");
    }
}
