//! The kind of a formatted reference string: cues outside its title ("PhD thesis",
//! "Technical report", "RFC 2119", "U.S. Patent …", "[Blog post]", "R package version")
//! and in the descriptors styles put in brackets after it (APA's "(RFC 8259)",
//! "[Computer software]", "(U.S. Patent No. 4,405,829)"); an ISBN, editors and "In:",
//! a book's edition and "Place: Publisher", a publisher without a container, the
//! venue's words.

use super::{KindInfo, cues, is_conference_venue, is_preprint_venue, package};
use crate::model::{RefFields, WorkKind};
use crate::parse::ids::is_preprint_doi;
use crate::parse::refstring::contains_ignore_case;

/// The text of `raw` where kind words are read: everything but the parsed title,
/// and of the title its bracketed descriptors (`(PhD thesis)`, `[Computer software]`).
fn outside_title(raw: &str, title: Option<&str>) -> String {
    let Some(title) = title.filter(|t| t.len() >= 8) else {
        return raw.to_string();
    };
    match find_ignore_case(raw, title) {
        Some(at) => format!(
            "{} … {} {}",
            &raw[..at],
            bracketed(title),
            &raw[at + title.len()..]
        ),
        None => raw.to_string(),
    }
}

/// The bracketed and parenthesised segments of a text, joined.
fn bracketed(text: &str) -> String {
    let mut out = String::new();
    let mut depth = 0usize;
    for c in text.chars() {
        match c {
            '(' | '[' => {
                depth += 1;
                out.push(' ');
            }
            ')' | ']' => depth = depth.saturating_sub(1),
            _ if depth > 0 => out.push(c),
            _ => {}
        }
    }
    out
}

fn find_ignore_case(haystack: &str, needle: &str) -> Option<usize> {
    if let Some(at) = haystack.find(needle) {
        return Some(at);
    }
    let lower = haystack.to_lowercase();
    (lower.len() == haystack.len())
        .then(|| lower.find(&needle.to_lowercase()))
        .flatten()
}

/// Whether the parsed venue names a journal (or series) with its volume, rather than
/// a report series, a standard, an RFC or a publisher the parser took for one.
fn journal_like(f: &RefFields, venue: &str) -> bool {
    let v = venue.trim().to_ascii_lowercase();
    let not_a_journal = junk_venue(&v)
        // Books are cited with their publisher; articles without theirs.
        || has_publisher(f)
        || ["bcp", "std", "fyi"].iter().any(|s| v == *s || v.starts_with(&format!("{s} ")))
        || v.starts_with("rfc")
        || v.contains("request for comments")
        || v.contains("ietf")
        || cues::is_report(venue)
        || cues::is_thesis(venue)
        || cues::standard_number(venue).is_some()
        || cues::is_legal(venue)
        || cues::is_publisher(venue);
    !venue.is_empty() && !is_preprint_venue(venue) && f.volume.is_some() && !not_a_journal
}

/// A publisher the parser read whose name is a publisher's (`Springer`, `MIT Press`),
/// not the second half of a `Title: Subtitle` it took for `Place: Publisher`.
fn has_publisher(f: &RefFields) -> bool {
    f.publisher.as_deref().is_some_and(cues::is_publisher)
}

/// A "venue" that is a word the parser took for one: a volume or number word, a
/// month, a bracketed descriptor's first word.
fn junk_venue(v: &str) -> bool {
    const WORDS: &[&str] = &[
        "vol",
        "vol.",
        "volume",
        "vols",
        "band",
        "bd",
        "bd.",
        "tome",
        "part",
        "no",
        "no.",
        "issue",
        "jan",
        "feb",
        "mar",
        "apr",
        "may",
        "jun",
        "jul",
        "aug",
        "sep",
        "sept",
        "oct",
        "nov",
        "dec",
        "january",
        "february",
        "march",
        "april",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
    ];
    let v = v.trim().trim_end_matches('.');
    v.starts_with('(')
        || v.starts_with('[')
        || WORDS.contains(&v)
        || WORDS.contains(&&*format!("{v}."))
}

/// The kind of a formatted reference, from the string and what the parser read of it.
pub fn of_string(raw: &str, f: &RefFields) -> KindInfo {
    use WorkKind as K;
    let title = f.title.as_deref();
    let text = outside_title(raw, title);
    let venue = f
        .venue
        .as_deref()
        .filter(|v| !junk_venue(&v.to_ascii_lowercase()))
        .unwrap_or("");
    let journal = journal_like(f, venue);
    let title_text = title.unwrap_or("");
    // A designation that leads the reference or its title is the work's own.
    let head: String = raw.chars().take(48).collect();
    let leads = |prefix: &str| title_text.trim_start().starts_with(prefix);
    if let Some(n) =
        cues::rfc_number(&text).or_else(|| leads("RFC").then(|| cues::rfc_number(title_text))?)
        && !journal
    {
        return KindInfo::numbered(K::Rfc, Some(n));
    }
    if let Some(n) = cues::patent_number(&text) {
        return KindInfo::numbered(K::Patent, Some(n));
    }
    let leading_standard = || {
        const ISSUERS: &[&str] = &[
            "ISO",
            "IEC",
            "IEEE",
            "ANSI",
            "NIST",
            "FIPS",
            "ITU-T",
            "ECMA",
            "ASTM",
            "BS ",
            "DIN",
            "ETSI",
            "W3C",
            "National Institute of Standards",
            "International Organization for",
        ];
        let by_title = ISSUERS.iter().any(|p| leads(p));
        let by_head = ISSUERS.iter().any(|p| head.trim_start().starts_with(p));
        (by_title.then(|| cues::standard_number(title_text)))
            .flatten()
            .or_else(|| by_head.then(|| cues::standard_number(raw)).flatten())
    };
    if let Some(n) = leading_standard().or_else(|| cues::standard_number(&text)) {
        return KindInfo::numbered(K::Standard, Some(n));
    }
    if cues::is_legal(title_text) || cues::is_legal(&head) || cues::is_legal(&text) {
        return KindInfo::of(K::Legal);
    }
    let preprint = f.arxiv.is_some() || f.doi.as_deref().is_some_and(is_preprint_doi);
    if preprint && !journal && !is_conference_venue(venue) {
        return KindInfo::of(K::Preprint);
    }
    if cues::is_thesis(&text) {
        return KindInfo::of(K::Thesis);
    }
    let package = package::from_url(&text)
        .or_else(|| package::from_named(&text))
        .or_else(|| package::from_citation_form(title, &text));
    if package.is_some() || cues::is_software(&text) {
        return KindInfo {
            version: cues::version(&text).or_else(|| cues::version(title_text)),
            package,
            ..KindInfo::of(K::Software)
        };
    }
    if cues::is_dataset(&text) {
        return KindInfo {
            version: cues::version(&text),
            ..KindInfo::of(K::Dataset)
        };
    }
    if cues::is_talk(&text) {
        return KindInfo::of(K::Talk);
    }
    if cues::is_report(&text) && !journal {
        return KindInfo::of(K::Report);
    }
    let container = cues::in_container(&text);
    if f.isbn.is_some() || f.invalid_isbn.is_some() {
        return KindInfo::of(if container { K::Chapter } else { K::Book });
    }
    if cues::has_editors(&text) {
        return KindInfo::of(if container {
            K::Chapter
        } else {
            K::EditedVolume
        });
    }
    let web_address = f
        .url
        .as_deref()
        .is_some_and(|u| !super::cues::is_scholarly_host(u));
    let conference = is_conference_venue(venue) || contains_ignore_case(&text, "in proc");
    if web_address && (cues::is_web(&text) || (!journal && !conference)) {
        return KindInfo::of(K::WebPage);
    }
    // `(Wiley, 2006)`: a publisher in brackets, which the parser takes for a venue.
    let bracketed_publisher = f
        .venue
        .as_deref()
        .is_some_and(|v| v.starts_with(['(', '[']) && cues::is_publisher(v));
    let book_like = !journal
        && f.pages.is_none()
        && f.doi.is_none()
        && (cues::is_edition(&text)
            || cues::is_edition(title_text)
            || cues::has_place_and_publisher(&text)
            || has_publisher(f)
            || bracketed_publisher
            || cues::is_publisher(venue));
    if container && (book_like || has_publisher(f) || cues::is_publisher(venue)) {
        return KindInfo::of(K::Chapter);
    }
    if book_like {
        return KindInfo::of(K::Book);
    }
    if !venue.is_empty() {
        if is_conference_venue(venue) || contains_ignore_case(&text, "in proc") {
            return KindInfo::of(K::ConferencePaper);
        }
        if is_preprint_venue(venue) {
            return KindInfo::of(K::Preprint);
        }
        if container && f.volume.is_none() {
            return KindInfo::of(K::Chapter);
        }
        return KindInfo::of(K::Article);
    }
    if web_address {
        return KindInfo::of(K::WebPage);
    }
    // No container, publisher or identifier, from before most of the record was
    // digitised: an old report, memo or manuscript as likely as a paper.
    if f.doi.is_none() && f.arxiv.is_none() && f.year.is_some_and(|y| y < super::cues::OLD) {
        return KindInfo::of(K::Other);
    }
    KindInfo::default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::refstring::parse;

    fn kind(raw: &str) -> Option<WorkKind> {
        parse(raw).kind
    }

    #[test]
    fn strings_of_every_kind() {
        use WorkKind as K;
        for (raw, want) in [
            (
                "Nash, J. F. (1950). Non-cooperative games (PhD thesis). Princeton University.",
                K::Thesis,
            ),
            (
                "Bradner, S. (1997). Key words for use in RFCs to indicate requirement levels. RFC 2119, IETF.",
                K::Rfc,
            ),
            (
                "Bray, T. (Ed.). (2017). The JavaScript Object Notation (JSON) Data Interchange Format (RFC 8259). IETF.",
                K::Rfc,
            ),
            (
                "Page, L. (2001). Method for node ranking in a linked database. U.S. Patent 6,285,999.",
                K::Patent,
            ),
            (
                "Rivest, R. L., Shamir, A., & Adleman, L. M. (1983). Cryptographic communications system and method (U.S. Patent No. 4,405,829). U.S. Patent and Trademark Office.",
                K::Patent,
            ),
            (
                "Wickham, H. (2016). ggplot2: Elegant graphics for data analysis. R package version 3.4.0. https://CRAN.R-project.org/package=ggplot2",
                K::Software,
            ),
            (
                "Alammar, J. (2018). The illustrated transformer [Blog post]. Retrieved from https://jalammar.github.io/illustrated-transformer/",
                K::WebPage,
            ),
            (
                "Karpathy, A. (2017, November 11). Software 2.0. Medium. https://karpathy.medium.com/software-2-0-a64152b37c35",
                K::WebPage,
            ),
            (
                "Regulation (EU) 2016/679 of the European Parliament and of the Council (General Data Protection Regulation). Official Journal of the European Union, L 119, 1–88.",
                K::Legal,
            ),
            (
                "Health Insurance Portability and Accountability Act of 1996, Pub. L. No. 104-191, 110 Stat. 1936 (1996).",
                K::Legal,
            ),
            (
                "ISO/IEC 27001:2013. Information technology — Security techniques — Information security management systems — Requirements. International Organization for Standardization.",
                K::Standard,
            ),
            (
                "IEEE Standard for Floating-Point Arithmetic, IEEE Std 754-2008, 2008.",
                K::Standard,
            ),
            (
                "Friedman, M. (1953). The methodology of positive economics. In Essays in positive economics (pp. 3–43). University of Chicago Press.",
                K::Chapter,
            ),
            (
                "Sutton, Richard S., and Andrew G. Barto. 2018. Reinforcement Learning: An Introduction. 2nd ed. Cambridge, MA: MIT Press.",
                K::Book,
            ),
            (
                "Diamond, J. (1997). Guns, germs, and steel: The fates of human societies. W. W. Norton.",
                K::Book,
            ),
            (
                "He, K., Zhang, X., Ren, S., & Sun, J. (2016). Deep residual learning for image recognition. In Proceedings of the IEEE Conference on Computer Vision and Pattern Recognition (pp. 770–778).",
                K::ConferencePaper,
            ),
            (
                "LeCun, Y., Bengio, Y., & Hinton, G. (2015). Deep learning. Nature, 521(7553), 436–444.",
                K::Article,
            ),
            (
                "Blanchard, O., & Summers, L. (1986). Hysteresis and the European unemployment problem. NBER Working Paper No. 1950.",
                K::Report,
            ),
            (
                "Hochreiter, S. and Schmidhuber, J. Long short-term memory. Technical Report FKI-207-95, Fakultät für Informatik, Technische Universität München, 1995.",
                K::Report,
            ),
            (
                "Jobs, S. (2005, June 12). Commencement address [Speech]. Stanford University, Stanford, CA, United States.",
                K::Talk,
            ),
        ] {
            assert_eq!(kind(raw), Some(want), "{raw}");
        }
    }

    #[test]
    fn a_paper_about_software_or_standards_is_a_paper() {
        assert_eq!(
            kind(
                "Smith, J. (2020). Software engineering for ISO 9001 audits. Journal of Systems and Software, 12(3), 1-10."
            ),
            Some(WorkKind::Article)
        );
        assert_eq!(
            kind(
                "Lee, M. and Novak, P. (2023). Gradient folding prunes sparse transformers. Transactions on Machine Learning Research."
            ),
            Some(WorkKind::Article)
        );
    }
}
