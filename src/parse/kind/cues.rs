//! Words and numbers that name a kind of work wherever they are written: an RFC
//! number, a standard's designation, a patent number, "PhD thesis", "Working paper",
//! "R package version 3.4.0". Shared by BibTeX fields, CSL items and formatted strings.

use std::sync::LazyLock;

use regex::Regex;

/// Compile a cue, its `\b`s read as ASCII word boundaries. A Unicode `\b` makes the
/// regex engine leave its lazy DFA for a far slower one on any text that is not
/// ASCII (a name with an accent is enough), and every reference is tried against
/// every cue; the cues begin and end with ASCII letters, so ASCII boundaries find them.
fn re(pattern: &str) -> Regex {
    Regex::new(&pattern.replace(r"\b", r"(?-u:\b)")).expect("static kind-cue regex")
}

/// `RFC 2119`, `RFC2119`, `Request for Comments: 2119`, an RFC Editor or IETF URL, or
/// the RFC DOI `10.17487/RFC2119`.
static RFC: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)(?:\bRFC[\s-]?0*(\d{1,5})\b|\bRequest\s+for\s+Comments?\s*(?:No\.?|:|#)?\s*0*(\d{1,5})\b|rfc-editor\.org/(?:rfc|info)/rfc0*(\d{1,5})|ietf\.org/(?:doc/)?(?:html/)?rfc0*(\d{1,5})|10\.17487/rfc0*(\d{1,5}))",
    )
});

/// A standard's designation: `ISO 9001:2015`, `ISO/IEC 27001:2013`, `IEEE Std 802.11-2020`,
/// `ANSI X3.4-1986`, `NIST SP 800-53`, `FIPS PUB 197`, `ITU-T Rec. H.264`, `ECMA-262`,
/// `ASTM D638-14`, `DIN EN ISO 13485`, `BS 7799`, `ETSI EN 300 328`.
static STANDARD: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        \b(
            (?:DIN\s+)?(?:EN\s+)?ISO(?:/(?:IEC|IEEE|ASTM))*(?:/TS|/TR)?(?:\s+Standard)?(?:\s+No\.?)?\s*\d[\d.\-]*(?::\d{4})?
          | IEC\s+\d[\d.\-]*(?::\d{4})?
          | IEEE\s+Std\.?\s*\d[\w.\-]*
          | ANSI(?:/[A-Z]+)?\s+[A-Z]?\d[\w.\-]*
          | NIST\s+(?:SP|IR|FIPS)\s*\d[\w.\-]*
          | NIST\s+Special\s+Publication\s+\d[\w.\-]*
          | Federal\s+Information\s+Processing\s+Standards?\s+Publication\s+(?:\(FIPS\)\s+)?\d[\w.\-]*
          | FIPS\s+(?:PUB\s+)?\d[\w.\-]*
          | Standard\s+ECMA-\d+
          | ITU-T\s+(?:Rec(?:ommendation)?\.?\s+)?[A-Z]\.\d[\w.]*
          | ECMA-\d+
          | ASTM\s+[A-Z]\d[\w.\-]*
          | BS\s+(?:EN\s+)?\d{3,}[\w.\-:]*
          | ETSI\s+(?:TS|EN|TR)\s+\d[\d\s]*\d
          | W3C\s+Recommendation
        )")
});

/// A patent number after a patent word: `U.S. Patent No. 6,285,999`, `US Patent
/// 7,654,321 B2`, `European Patent EP 1 234 567`, `Patent WO 2019/123456`.
static PATENT: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?ix)
        \b(?:U\.?\s?S\.?|United\s+States|European|German|Japanese|Chinese|International)?\s*
        Pat(?:ent|\.)\s*(?:Application\s*)?(?:No\.?|Number|Nr\.?)?\s*:?\s*
        ((?:US|EP|WO|DE|JP|CN|GB|FR|KR|CA)?\s?(?:\d{4}/\d{6}|\d{1,3}(?:[,\s]\d{3}){1,3}|\d{5,})(?:\s?[ABCU]\d?\b)?)")
});

/// `US 6285999 B1`, `EP1234567A1`, `WO 2019/123456 A1`: a publication number with its
/// kind code, written without the word "patent".
static PATENT_NUMBER: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b((?:US|EP|WO|DE|JP|CN|GB|KR)\s?(?:\d{4}/\d{6}|\d{1,3}(?:[ ,]?\d{3}){2,3})\s?[AB][12]?)\b",
    )
});

static THESIS: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?ix)\b(
          ph\.?\s?d\.?\s*(?:thesis|dissertation|diss\.?)
        | d\.?\s?phil\.?\s*thesis
        | doctoral\s+(?:thesis|dissertation)
        | dissertation\b
        | master'?s?\s+thesis | m\.?\s?sc?\.?\s+thesis | m\.?\s?a\.?\s+thesis | mphil\s+thesis
        | bachelor'?s?\s+thesis | b\.?\s?sc?\.?\s+thesis | diploma\s+thesis | honou?rs\s+thesis
        | diplomarbeit | doktorarbeit | masterarbeit | bachelorarbeit | habilitationsschrift
        | thèse\s+de\s+doctorat | th[eè]se\b | tesis\s+doctoral | tese\s+de\s+doutorado | tesi\s+di\s+dottorato
        | proefschrift
        )")
});

static REPORT: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?ix)\b(
          technical\s+report | tech\.?\s*rep(?:ort)?\b\.? | research\s+report | internal\s+report
        | working\s+paper | discussion\s+paper | white\s*paper | policy\s+(?:brief|paper)
        | occasional\s+paper | staff\s+report | report\s+no\.
        | NBER\b | CEPR\b | IZA\s+DP | RAND\s+Corp(?:oration|\.)? | \bmemo(?:randum)?\b\.?\s+[A-Z]{1,4}-\d
        | \bresearch\s+memorandum\b | \bTR[\s-]\d{2,4}[\s-]\d+
        )")
});

static LEGAL: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?ix)(
          \b(?:Regulation|Directive|Decision)\s+\((?:EU|EC|EEC|Euratom)\)
        | \bDirective\s+\d{2,4}/\d+/E[CU]\b
        | \bRegulation\s+(?:\(EU\)\s+)?(?:No\.?\s*)?\d+/\d{4}\b
        | Official\s+Journal\s+of\s+the\s+European\s+(?:Union|Communities)
        | \b\d+\s+U\.\s?S\.\s?C\.?\b | \bU\.\s?S\.\s?C\.?\s+§
        | \b\d+\s+C\.\s?F\.\s?R\.?\b | \bFederal\s+Register\b
        | \bPub(?:lic)?\.?\s+L(?:aw)?\.?\s+(?:No\.?\s*)?\d+-\d+
        | \bBundesgesetzblatt\b | \bBGBl\b
        | \bStatutory\s+Instrument | \bS\.I\.\s+\d{4}/\d+
        | \b\d+\s+U\.S\.\s+\d+\b
        | \b(?:Civ|Penal|Gov|Bus\.\s?&\s?Prof|Health\s?&\s?Safety)\.?\s+Code\s+(?:§|\\S|sec)
        | \bAct\s+of\s+(?:1[89]|20)\d{2}\b
        | §\s*~?\s*\d
        | \bStat\.\s+\d
        )")
});

static TALK: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?ix)(
          \bkeynote\b | \binvited\s+talk\b | \[(?:slides|video|talk|presentation)\]
        | \bslides\b | \bwebinar\b | \bpodcast\b | \bpresentation\s+(?:at|given)\b
        | \btalk\s+(?:at|given|presented)\b | youtube\.com/ | youtu\.be/ | vimeo\.com/
        | speakerdeck\.com/ | slideshare\.net/
        | \[speech\] | \[lecture\] | \bcommencement\s+address\b | \blecture\s*,
        | \blecture\s+(?:at|given|delivered)\b | \bTED\s+talk\b | \[video\s+file\]
        | \bdelivered\s+(?:on\s+)?\w+\s+\d | \baddress\s+(?:at|to|delivered)\b | \bkeynote\s+address\b
        )")
});

static SOFTWARE: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?ix)(
          \[computer\s+(?:software|program)\] | \[software\] | \bsoftware\s+package\b
        | \bR\s+package\b | \bPython\s+package\b | \bJulia\s+package\b | \bsource\s+code\b
        | \bcomputer\s+program\b | \(version\s+[\w.\-]+\) | \bsoftware\s+(?:version|release)\b
        | github\.com/ | gitlab\.com/ | bitbucket\.org/ | codeberg\.org/ | sourceforge\.net/
        | pypi\.(?:org|python\.org)/ | cran\.r-project\.org/ | \bcrates\.io/ | npmjs\.(?:com|org)/
        | bioconductor\.org/packages
        )")
});

static DATASET: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?ix)(\[data\s*set\] | \bdata\s*set\b | \[data\] | \bdata\s+repository\b | \bcorpus\b\s*\[
        | machine\s+learning\s+repository | \bkaggle\b | \bdataverse\b | linguistic\s+data\s+consortium)",
    )
});

static WEB: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?ix)(
          \[blog(?:\s+post)?\] | \bblog\s+post\b | \[web\s*page\] | \[online\] | \[website\]
        | \bretrieved\s+(?:from|on)\b | \baccessed\s*(?:on\s*)?:? | \blast\s+accessed\b | \bviewed\s+on\b
        | \bonline\s+article\b | medium\.com/ | substack\.com/ | wordpress\.com/ | blogspot\.
        | \bblog\b | wikipedia\.org/ | \bin\s+wikipedia\b
        )")
});

/// A book's edition: `2nd ed.`, `3rd edn`, `(4th edition)`, `Revised edition`.
static EDITION: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:\d+(?:st|nd|rd|th)|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|revised|expanded|new)\s+(?:ed\.|edn\.?|edition)|\bAufl(?:age|\.)",
    )
});

/// `Cambridge, MA: MIT Press`, `London: Penguin`, `New York (NY): Columbia University Press`.
static PLACE_PUBLISHER: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b[A-Z][a-zé]+(?:\s[A-Z][a-z]+)?(?:,\s?(?:[A-Z]{2}|[A-Z][a-z]+\.?|U\.\s?K\.|U\.S\.A?\.?)|\s\([A-Z]{2}\))?\s?:\s?(?:[A-Z][\w.'&-]*\s?){1,6}",
    )
});

/// Publishers' names: `… Press`, `… Verlag`, `Wiley`, `Springer`, `Addison-Wesley`…
static PUBLISHER: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?ix)\b(
          (?:university|academic|belknap|clarendon|mit|graphics|free|penguin|crc|harvard|cambridge|oxford|princeton|yale|chicago|stanford|columbia|cornell)\s+press
        | \bpress\b\s*$ | publishers? | publishing | verlag | \bbooks\b | \&\s+sons | sons\s+inc
        | wiley(?:-interscience|-blackwell)? | springer(?:-verlag)? | elsevier | addison[\s-]wesley | prentice[\s-]hall
        | mcgraw[\s-]hill | o'reilly | pearson | routledge | north[\s-]holland | pergamon | blackwell
        | duxbury | cengage | norton | random\s+house | harper(?:collins)? | knopf | macmillan | holt
        | atheneum | basic\s+books | john\s+murray | dover | morgan\s+kaufmann | no\s+starch | manning
        | gallimard | suhrkamp | hachette | taylor\s+&\s+francis | chapman\s+(?:&|and)\s+hall
        | farrar | straus | viking | simon\s+&\s+schuster | houghton | bantam | vintage | scribner
        | bloomsbury | faber | allen\s+lane | polity | guilford | erlbaum | world\s+scientific
        | birkh[aä]user | vieweg | teubner | hanser | de\s+gruyter | brill | kluwer | reidel
        | \bios\s+press | \bsage\b | \bcrc\b
        )")
});

static VERSION: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)(?:(?:\bversion\s*:?\s*|\bver\.\s*|\brelease\s+)(\d+(?:\.\d+)*[\w.+\-]*)|(?:^|[\s(\[,])v(\d+(?:\.\d+)+[\w.+\-]*))",
    )
});

static EDITED: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?i)\((?:eds?\.?|hrsg\.?|dir\.?)\)|\bedited\s+by\b|\beds?\.\s*[,;(]|,\s*editors?\b")
});

static IN_CONTAINER: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?:^|[.,;]\s*)(?:In|In:|in:|Im|Dans)\s+\S"));

/// The number of the RFC the text names.
pub fn rfc_number(text: &str) -> Option<String> {
    let c = RFC.captures(text)?;
    let n = (1..=5).find_map(|i| c.get(i))?.as_str();
    n.parse::<u32>()
        .ok()
        .filter(|&n| n > 0)
        .map(|n| n.to_string())
}

/// A standard's designation in the text, spaces collapsed (`ISO/IEC 27001:2013`).
pub fn standard_number(text: &str) -> Option<String> {
    let m = STANDARD.find(text)?;
    Some(
        collapse(m.as_str())
            .trim_end_matches(['.', '-', ':'])
            .to_string(),
    )
}

/// A patent number (`US 6285999 B1`), digits without separators.
pub fn patent_number(text: &str) -> Option<String> {
    let raw = PATENT
        .captures(text)
        .and_then(|c| c.get(1))
        .or_else(|| PATENT_NUMBER.captures(text).and_then(|c| c.get(1)))?
        .as_str();
    let mut out = String::new();
    for c in raw.chars().filter(|c| !matches!(c, ',' | ' ')) {
        out.push(c);
    }
    // `US6285999B1` → `US 6285999 B1`, the usual spacing.
    let country: String = out.chars().take_while(char::is_ascii_uppercase).collect();
    let rest = &out[country.len()..];
    let digits_end = rest
        .find(|c: char| !c.is_ascii_digit() && c != '/')
        .unwrap_or(rest.len());
    let (digits, code) = rest.split_at(digits_end);
    let parts: Vec<&str> = [country.as_str(), digits, code]
        .into_iter()
        .filter(|p| !p.is_empty())
        .collect();
    (digits.len() >= 5).then(|| parts.join(" "))
}

pub fn is_thesis(text: &str) -> bool {
    THESIS.is_match(text)
}

pub fn is_report(text: &str) -> bool {
    REPORT.is_match(text)
}

pub fn is_legal(text: &str) -> bool {
    LEGAL.is_match(text)
}

pub fn is_talk(text: &str) -> bool {
    TALK.is_match(text)
}

pub fn is_software(text: &str) -> bool {
    SOFTWARE.is_match(text)
}

pub fn is_dataset(text: &str) -> bool {
    DATASET.is_match(text)
}

pub fn is_web(text: &str) -> bool {
    WEB.is_match(text)
}

/// Editors named as such: `(Ed.)`, `(eds.)`, `edited by`.
pub fn has_editors(text: &str) -> bool {
    EDITED.is_match(text)
}

/// A book's edition (`2nd ed.`).
pub fn is_edition(text: &str) -> bool {
    EDITION.is_match(text)
}

/// `Place: Publisher`, as books are cited: a publisher's name after the colon, or a
/// publishing city (with its state or country) before it.
pub fn has_place_and_publisher(text: &str) -> bool {
    PLACE_PUBLISHER.find_iter(text).any(|m| {
        let (place, _) = m.as_str().split_once(':').unwrap_or(("", ""));
        is_publisher(m.as_str()) || is_publishing_place(place)
    })
}

/// Cities books are published in, or a place written with its state or country code
/// (`Cambridge, MA`, `New York (NY)`).
fn is_publishing_place(place: &str) -> bool {
    const CITIES: &[&str] = &[
        "new york",
        "london",
        "cambridge",
        "oxford",
        "boston",
        "berlin",
        "paris",
        "chicago",
        "princeton",
        "amsterdam",
        "washington",
        "san francisco",
        "upper saddle river",
        "hoboken",
        "reading",
        "englewood cliffs",
        "heidelberg",
        "tokyo",
        "beijing",
        "singapore",
        "toronto",
        "philadelphia",
        "new haven",
        "stanford",
        "berkeley",
        "cheltenham",
        "thousand oaks",
        "boca raton",
        "sebastopol",
        "redmond",
        "münchen",
        "munich",
        "leipzig",
        "wien",
        "vienna",
        "madrid",
        "barcelona",
        "milano",
        "milan",
        "moscow",
        "москва",
        "dordrecht",
        "basel",
        "hillsdale",
        "mahwah",
        "newbury park",
        "belmont",
        "menlo park",
        "los angeles",
        "baltimore",
    ];
    let p = place.trim().to_lowercase();
    let coded =
        p.len() > 4 && (p.ends_with(')') || p.rsplit(", ").next().is_some_and(|c| c.len() == 2));
    coded
        || CITIES
            .iter()
            .any(|c| p == *c || p.starts_with(&format!("{c},")))
}

/// A publisher's name (not a journal's).
pub fn is_publisher(text: &str) -> bool {
    !text.trim().is_empty() && PUBLISHER.is_match(text)
}

/// `In: …` / `In …`: the work sits inside another (a chapter, a paper).
pub fn in_container(text: &str) -> bool {
    IN_CONTAINER.is_match(text)
}

/// The version a text gives (`version 1.3.2`, `(Version 2.0)`, `v0.24`).
pub fn version(text: &str) -> Option<String> {
    VERSION
        .captures(text)
        .and_then(|c| c.get(1).or_else(|| c.get(2)))
        .map(|m| m.as_str().trim_end_matches(['.', ',']).to_string())
}

fn collapse(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Before this year the indexes hold little but journal articles.
pub(crate) const OLD: i32 = 1990;

/// Hosts of publishers, repositories and indexes: a URL there is an article's page.
pub(crate) fn is_scholarly_host(url: &str) -> bool {
    const HOSTS: &[&str] = &[
        "doi.org",
        "arxiv.org",
        "nature.com",
        "sciencedirect.com",
        "springer.com",
        "wiley.com",
        "tandfonline.com",
        "ieeexplore.ieee.org",
        "acm.org",
        "jstor.org",
        "ncbi.nlm.nih.gov",
        "pubmed",
        "plos.org",
        "frontiersin.org",
        "mdpi.com",
        "cell.com",
        "science.org",
        "pnas.org",
        "aclanthology.org",
        "openreview.net",
        "neurips.cc",
        "nips.cc",
        "mlr.press",
        "biorxiv.org",
        "medrxiv.org",
        "researchgate.net",
        "semanticscholar.org",
        "oup.com",
        "cambridge.org",
        "sagepub.com",
        "bmj.com",
        "thelancet.com",
        "nejm.org",
        "jamanetwork.com",
        "elifesciences.org",
        "royalsocietypublishing.org",
        "iop.org",
        "aps.org",
        "acs.org",
        "rsc.org",
        "ssrn.com",
        "europepmc.org",
        "scholar.google",
        "aaai.org",
        "ijcai.org",
        "thecvf.com",
        "usenix.org",
        "hindawi.com",
        "karger.com",
        "degruyter.com",
        "emerald.com",
        "annualreviews.org",
        "jmlr.org",
        "proceedings.",
        "journals.",
        "pubs.",
    ];
    let host = url
        .split("://")
        .nth(1)
        .unwrap_or(url)
        .split('/')
        .next()
        .unwrap_or("")
        .to_ascii_lowercase();
    HOSTS.iter().any(|h| host.contains(h))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc_numbers_in_every_written_form() {
        for (text, n) in [
            ("RFC 2119", "2119"),
            ("Bradner, S. Key words … RFC2119, March 1997", "2119"),
            ("Request for Comments: 791", "791"),
            ("https://www.rfc-editor.org/rfc/rfc8446", "8446"),
            ("https://datatracker.ietf.org/doc/html/rfc9110", "9110"),
            ("https://tools.ietf.org/html/rfc7231", "7231"),
            ("doi:10.17487/RFC0793", "793"),
        ] {
            assert_eq!(rfc_number(text).as_deref(), Some(n), "{text}");
        }
        assert_eq!(rfc_number("The RFCs of the IETF"), None);
        assert_eq!(rfc_number("Perform CRFC 12 analysis"), None);
    }

    #[test]
    fn standard_designations() {
        for (text, n) in [
            (
                "ISO/IEC 27001:2013 Information security",
                "ISO/IEC 27001:2013",
            ),
            ("IEEE Std 802.11-2020", "IEEE Std 802.11-2020"),
            ("ISO 9001:2015.", "ISO 9001:2015"),
            ("NIST SP 800-53 Rev. 5", "NIST SP 800-53"),
            ("FIPS PUB 197", "FIPS PUB 197"),
            ("ECMA-262, 13th edition", "ECMA-262"),
            ("ITU-T Rec. H.264", "ITU-T Rec. H.264"),
        ] {
            assert_eq!(standard_number(text).as_deref(), Some(n), "{text}");
        }
        assert_eq!(standard_number("isolation of 12 strains"), None);
    }

    #[test]
    fn patent_numbers_with_and_without_the_word() {
        assert_eq!(
            patent_number("Page, L. Method for node ranking. U.S. Patent 6,285,999, 2001.")
                .as_deref(),
            Some("6285999")
        );
        assert_eq!(
            patent_number("US Patent No. 7,654,321 B2").as_deref(),
            Some("7654321 B2")
        );
        assert_eq!(
            patent_number("Smith J. Widget. WO 2019/123456 A1").as_deref(),
            Some("WO 2019/123456 A1")
        );
        assert_eq!(patent_number("patented process in 2001"), None);
    }

    #[test]
    fn kind_words() {
        assert!(is_thesis("PhD thesis, Princeton University"));
        assert!(is_thesis("Ph.D. dissertation"));
        assert!(is_thesis("Master's thesis, ETH Zürich"));
        assert!(is_report("NBER Working Paper No. 1234"));
        assert!(is_report("Tech. Rep. TR-2004-01"));
        assert!(is_legal(
            "Regulation (EU) 2016/679 of the European Parliament"
        ));
        assert!(is_talk("Keynote at NeurIPS 2019"));
        assert!(is_software("R package version 3.4.0"));
        assert!(is_web("[Blog post]. Retrieved from https://x.org"));
        assert!(has_editors("In J. Smith (Ed.), Handbook"));
        assert!(in_container("Title. In: Handbook of X"));
        assert!(!in_container("Learning in neural networks"));
    }

    #[test]
    fn versions() {
        assert_eq!(version("R package version 3.4.0").as_deref(), Some("3.4.0"));
        assert_eq!(version("(Version 2.1)").as_deref(), Some("2.1"));
        assert_eq!(version("scikit-learn v1.3.2").as_deref(), Some("1.3.2"));
        assert_eq!(version("Volume 3"), None);
    }
}
