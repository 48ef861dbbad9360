//! Strategies for the property tests that hold the fast paths of the reference-string
//! parser to the plain implementations they replaced.

use proptest::prelude::*;

/// Pieces of references, with the characters that test the edges of the fast
/// paths: non-ASCII digits and spaces, `ſ` and `K` (which case-fold to ASCII), dashes.
const FRAGMENTS: &[&str] = &[
    " ", " ", " ", ", ", ". ", ".", ",", ":", ";", "(", ")", "[", "]", "\"", "“", "”", "'",
    "–", "—", "-", "/", "*", "_", "&", "…", "2011", "1999a", "1850", "2003 [1910]", "1234567",
    "20", "19", "15", "1", "12", "3", "45–67", "45-67", "pp. 1-2", "p.", "Vol. 12", "vol.", "v",
    "no. 4", "12(3)", "6(1):166-170", "341:239", "(Suppl 2)", "June ", "Jun. ", "Sept ", "Mai ",
    "märz ", "spring ", "n.d.", "s. d.", "in press", "forthcoming", "Smith", "Smith, J.", "J.",
    "J. R.", "JJ", "Ch.", "Van der Berg", "De Nadai", "O'Brien-Smith", "et al.", "and", "&",
    "Eds.", "(Ed.)", "ed.", "In", "In: ", "Proc", "Nature", "Journal of Things", "J Biol Chem",
    "Press", "Springer-Verlag", "Berlin: Suhrkamp", "New York: Wiley", "World Health Organization",
    "Title", "title", "deep learning", "A Survey", "II.", "doi:10.1038/nature14539",
    "10. 1038/ab", "DOI 10.1093/ molbev", "https://doi.org/10.1000/ABC.1", "http://x.org/a(b)",
    "www.example.com", "arXiv:1706.03762", "arXiv :1611 .09748v4", "ARXIV: 1611.09748",
    "arxiv preprint", "[2106.11959]", "2106.11959", "hep-th/9901001", "PMID: 123456",
    "PubMed", "PMC1234567", "PMCID: PMC99", "ISBN 978-3-16-148410-0", "[Online]", "Retrieved from",
    "Accessed 12 May 2020", "(accessed 1 June 2019)", "Available at: ", "URL:", "Epub 2019 Jan.",
    "(2011)", "(2011).", "(June 2010)", "[1999]", "(2012, March 4)", "(2004a)", "( Jun. 2019 )",
    "(1988–1992)", "(n.d.)", "(in press)", "(Eds.)", "(Director)", "(M.I.)", "<i>", "</b>", "<br/>", "**", "[Title](https://x.org)", "&amp;", "\u{a0}", "\u{2009}", "\n",
    "ſ", "\u{212a}", "١٢٣٤", "２０１９", "é", "ﬁ", "\u{ad}",
];

/// A string of reference fragments.
pub fn reference_like() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(FRAGMENTS), 0..14).prop_map(|v| v.concat())
}

/// Reference-like strings and arbitrary ones.
pub fn any_text() -> impl Strategy<Value = String> {
    prop_oneof![3 => reference_like(), 1 => any::<String>(), 1 => "[ -~]{0,40}"]
}

/// Volume, issue and page numbering, densely: digits, brackets, labels, dashes.
pub fn numbering_like() -> impl Strategy<Value = String> {
    const PARTS: &[&str] = &[
        "1", "12", "2019", "123456", "1234567", "A", "a", "x", " ", "  ", "\n", "(", ")", "( ",
        " )", ":", ",", ";", "pp.", "p.", "pp", "P.", "–", "—", "-", "--", "/", "_", "Suppl",
        "é", "\u{a0}", "١", "to",
    ];
    let loose = prop::collection::vec(prop::sample::select(PARTS), 0..16).prop_map(|v| v.concat());
    // The shape the volume-issue-pages pattern reads, with its optional parts.
    let shaped = "[a-z ,.;]{0,3}[0-9]{1,7}[A-Z]?( ?\\( ?[0-9A-Za-z_/–-]{1,14} ?\\))? ?([:,] ?(pp?\\. ?)?[A-Za-z]?[0-9]{1,5}( ?[-–—]{1,2} ?[A-Za-z]?[0-9]{1,5})?)?[ .,;a-z]{0,3}";
    prop_oneof![loose, shaped]
}
