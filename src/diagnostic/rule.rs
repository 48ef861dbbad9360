//! The rule table: every diagnostic refers to a [`Rule`] from [`RULES`]. It stands
//! beside [`Diagnostic`](super::Diagnostic), below the parsers and the rule families
//! (`crate::rules`) that build diagnostics, so that all of them can name a rule.

use serde::Serialize;

use crate::severity::Severity;

/// Which pipeline stage a rule belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Family {
    /// Reading and parsing input files.
    Input,
    /// Citations against the document's own bibliography (no network).
    Links,
    /// Cited works against the scholarly record.
    Resolution,
    /// Claims against the cited works' text.
    Verification,
    /// Suppression comments and configuration.
    Meta,
}

/// A rule: stable code and name, default severity, one-line summary and docs.
#[derive(Debug, PartialEq, Eq, Serialize)]
pub struct Rule {
    pub code: &'static str,
    pub name: &'static str,
    pub family: Family,
    pub severity: Severity,
    pub summary: &'static str,
    /// Longer explanation with an example, printed by `citeproof explain`.
    pub docs: &'static str,
}

macro_rules! rules {
    ($( $ident:ident = $code:literal $name:literal $family:ident $severity:ident $summary:literal $docs:literal; )*) => {
        $( pub static $ident: Rule = Rule {
            code: $code,
            name: $name,
            family: Family::$family,
            severity: Severity::$severity,
            summary: $summary,
            docs: $docs,
        }; )*
        /// Every rule, in code order.
        pub static RULES: &[&Rule] = &[ $( &$ident ),* ];
    };
}

rules! {
    UNREADABLE_FILE = "CP001" "unreadable-file" Input Error
        "An input, included or bibliography file is missing, unreadable, binary, not UTF-8 or too large."
        "A document names a file that cannot be read: `\\input{intro}` with no intro.tex, \
`bibliography: refs.bib` with no refs.bib, a file that is not UTF-8 text, or a file over the size \
limit (`max-file-size`, default 50 MB). Everything else in the project is still checked; citations \
whose entries would have come from the missing file are reported as undefined.\n\n\
Example:\n\n    \\addbibresource{refs.bib}   % refs.bib does not exist";
    MALFORMED_ENTRY = "CP002" "malformed-entry" Input Error
        "A bibliography entry cannot be parsed; the other entries are still used."
        "A BibTeX/BibLaTeX entry has a syntax error: an unbalanced brace, a missing comma between \
fields, a field without a value, an undefined @string macro. The entry is reported at the place of \
the error and skipped; the rest of the file is read normally.\n\n\
Example:\n\n    @article{smith2020,\n      title = {Deep learning,\n      year = 2020\n    }";
    UNTERMINATED = "CP003" "unterminated-construct" Input Warning
        "A brace group, environment or comment is never closed."
        "An unbalanced `{` in a LaTeX command argument, a `\\begin{verbatim}` without `\\end`, an \
`\\iffalse` without `\\fi`, or an HTML comment without `-->`. Parsing continues after the \
construct as far as it can.\n\nExample:\n\n    \\cite{smith2020";
    INCLUDE_CYCLE = "CP004" "include-cycle" Input Error
        "An \\input/\\include chain includes a file that is already being read."
        "LaTeX files that include each other would recurse forever; the repeated include is \
reported and not followed.\n\nExample:\n\n    % a.tex\n    \\input{b}\n    % b.tex\n    \\input{a}";
    UNDEFINED_CITATION = "CP101" "undefined-citation" Links Error
        "A citation key has no entry in any bibliography of the document."
        "The key is cited in the text but defined in none of the document's bibliography files \
(or its `[@tag:…]` has no definition). LaTeX would print `[?]`; pandoc would warn.\n\n\
Example:\n\n    As shown by [@smith2020].   <- no @…{smith2020, in references.bib";
    UNUSED_ENTRY = "CP102" "unused-entry" Links Hint
        "A bibliography entry is never cited."
        "An entry of a bibliography file that the document uses is never cited. Harmless for \
most styles, but often a sign of a citation that was deleted or mistyped. The unsafe fix \
(`--fix --unsafe-fixes`) removes a BibTeX entry.\n\n\
Example:\n\n    @article{lee2021, …}   <- no [@lee2021] or \\cite{lee2021} anywhere";
    DUPLICATE_KEY = "CP103" "duplicate-key" Links Error
        "The same key is defined twice."
        "Two bibliography entries (or two reference-list items) carry the same key; BibTeX keeps \
one of them silently.\n\nExample:\n\n    @article{smith2020, …}\n    @book{smith2020, …}";
    DUPLICATE_WORK = "CP104" "duplicate-work" Links Warning
        "The same work is in the bibliography under two keys (same DOI or same title)."
        "Two entries describe one work: they carry the same DOI, or their normalised titles are \
equal. Readers see the work listed twice.\n\nExample:\n\n    @article{vaswani2017, doi = {10.48550/arXiv.1706.03762}}\n    @misc{attention, doi = {10.48550/arxiv.1706.03762}}";
    ORPHAN_MARKER = "CP105" "orphan-marker" Links Error
        "A numbered or footnote citation marker has no reference-list entry."
        "A marker such as `[7]` or `[^7]` points to a reference-list item or footnote that does \
not exist. Common in LLM answers that cite more sources than they list.\n\n\
Example:\n\n    … as shown before [7].\n\n    References\n    1. …  (only six items)";
    UNCITED_REFERENCE = "CP106" "uncited-reference" Links Warning
        "A reference-list item is never cited in the text."
        "A document with its own numbered or bulleted reference list has an item that no marker \
points to.\n\nExample:\n\n    Text citing [1] only.\n\n    References\n    1. …\n    2. …   <- never cited";
    MISSING_FIELD = "CP107" "missing-field" Links Warning
        "An entry lacks a title, an author/editor or a year."
        "Without these fields a reference cannot be checked against the scholarly record, and \
most styles print it incompletely.\n\nExample:\n\n    @article{smith2020, title = {…}}   <- no author, no year";
    DOI_AS_URL = "CP108" "doi-as-url" Links Hint
        "A DOI is written as a doi.org URL instead of a DOI field."
        "`url = {https://doi.org/10.1/x}` carries a DOI that tools can only use once it is a DOI. \
The safe fix replaces the field with `doi = {10.1/x}`.\n\nExample:\n\n    url = {https://doi.org/10.1038/nature14539}";
    INVALID_ISBN = "CP109" "invalid-isbn" Links Error
        "A cited ISBN has the wrong length or a wrong check digit."
        "An ISBN-10 or ISBN-13 carries its own check digit; one that does not add up names no \
book at all: a typo, or a number invented along with the reference. The entry's other fields \
are still checked against the scholarly record and the book catalogues.\n\n\
Example:\n\n    isbn = {978-0-387-31073-3}   <- the check digit of 978-0-387-31073 is 2";
    REFERENCE_NOT_FOUND = "CP201" "reference-not-found" Resolution Error
        "No scholarly source has the cited work: the reference is likely fabricated."
        "Every source that could have the work (Crossref, OpenAlex, Semantic Scholar, and the \
identifier's registry when one is cited) answered, and none has a work whose title matches the \
cited one. Reported only for the kinds of work those sources hold thoroughly — journal articles, \
conference papers, preprints, chapters of recent scholarly books — or when an authority that holds \
every work of its kind says there is no such one: the RFC index for an RFC number, a package \
registry (PyPI, CRAN, crates.io, npm) for a package. A book, thesis, standard, web page or other \
work that no source has is CP213 instead. Typical of references invented by a language model. \
Sources that failed or timed out, and a cited URL that could not be read, never lead here: then the \
reference is reported as unverified (CP211). With `--offline` only the cache and local corpora are \
consulted; a corpus declared complete (`--corpus-complete`) is authoritative.\n\n\
Example:\n\n    @article{lee2023, title = {Quantum Gradient Folding for Sparse Transformers}, …}\n    \
<- no source knows this title";
    RETRACTED_WORK = "CP202" "retracted-work" Resolution Error
        "The cited work has been retracted."
        "The record of the cited work says it was retracted: a Crossref `updated-by` retraction \
notice (from the publisher or Retraction Watch), OpenAlex `is_retracted`, a PubMed `Retracted \
Publication` type, or a `RETRACTED:` title. Cite it only to discuss the retraction.\n\n\
Example:\n\n    @article{mattioli2021, doi = {10.1088/1741-2552/ac4430}, …}   <- retracted in 2022";
    EXPRESSION_OF_CONCERN = "CP203" "expression-of-concern" Resolution Warning
        "An expression of concern is attached to the cited work."
        "The publisher has published an expression of concern about the cited work (Crossref \
`updated-by` type `expression_of_concern`): its results are in doubt, though it is not (yet) \
retracted.\n\n\
Example:\n\n    @article{bibby2025, doi = {10.1038/s41467-025-63038-5}, …}   <- expression of concern";
    IDENTIFIER_NOT_FOUND = "CP204" "identifier-not-found" Resolution Error
        "A cited DOI, arXiv id or PMID does not exist."
        "The registry of the identifier (doi.org for DOIs, arXiv and DataCite for arXiv ids, \
PubMed for PMIDs) answered that it has no such identifier. When the cited work itself was \
found by its title, its real identifier is given and the fix replaces the wrong one.\n\n\
Example:\n\n    doi = {10.1109/cvpr.2016.99999}   <- no such DOI";
    IDENTIFIER_NAMES_ANOTHER_WORK = "CP205" "identifier-names-another-work" Resolution Error
        "A cited identifier resolves to a different work than the cited title."
        "The DOI or arXiv id of the reference belongs to another paper (a copy-paste slip, or a \
conflation by a language model). Both works are named: the one the identifier resolves to and, \
when it was found, the one the title describes, with its own identifier.\n\n\
Example:\n\n    @misc{narimissa2025, title = {Reasoning on a Budget …}, eprint = {2505.21457}}\n    \
<- arXiv:2505.21457 is \"A Survey of Memristive Threshold Logic Circuits\"";
    WRONG_IDENTIFIER = "CP206" "wrong-identifier" Resolution Warning
        "The cited identifier is not the identifier of the cited work."
        "The cited work was found, and its record carries another DOI, arXiv id or PMID than the \
reference gives (a preprint DOI against the published version's is not reported). The fix \
replaces the identifier with the record's.\n\n\
Example:\n\n    doi = {10.1038/nature14538}   <- the record's DOI is 10.1038/nature14539";
    WRONG_TITLE = "CP207" "wrong-title" Resolution Warning
        "The cited title differs from the record's in content words."
        "The cited work was found (by its identifier, or by a title close enough with matching \
authors and year), but words of its title were changed, added or dropped. Formatting, case, \
accents, spelling variants and a dropped subtitle are not reported.\n\n\
Example:\n\n    title = {Initial warning signals: the charted and uncharted territories}\n    \
<- the record: \"Early warning signals: the charted and uncharted territories\"";
    WRONG_AUTHORS = "CP208" "wrong-authors" Resolution Warning
        "The cited authors are not the record's: swapped, missing without \"et al.\", or placeholders."
        "The author list of the reference does not match the record of the cited work: other \
people, authors dropped without \"et al.\", or placeholder names (`John Doe`, `A. Author`). \
Initials against full given names, particles, accents, hyphenation and \"et al.\" after a \
correct prefix are accepted.\n\n\
Example:\n\n    author = {Turing, A.}   <- the record lists James, Maan and Kozma";
    WRONG_YEAR = "CP209" "wrong-year" Resolution Warning
        "The cited year differs from the record's."
        "The year of the reference is not the record's (a difference of one year is accepted \
when either side is a preprint, whose published version often appears a year later).\n\n\
Example:\n\n    year = {2020}   <- the record says 2018";
    WRONG_VENUE = "CP210" "wrong-venue" Resolution Warning
        "The cited journal or conference is not the record's."
        "The venue of the reference is a different journal or conference than the record's. \
Abbreviations (ISO 4, DBLP, the publishers' own), \"Proceedings of\" forms, and preprint servers \
cited for a published work are accepted.\n\n\
Example:\n\n    journal = {Nature Communications}   <- the record: Scientific Reports";
    REFERENCE_UNVERIFIED = "CP211" "reference-unverified" Resolution Info
        "The cited work could not be checked: a source failed, timed out, or was not asked."
        "A source that could have the work failed, timed out or rate-limited the run out, or \
the run was offline and the work is neither in the cache nor in a local corpus. Nothing is \
concluded: this is never an accusation. Rerun later (successful answers are cached), or \
give a local corpus.\n\n\
Example:\n\n    @article{smith2020, …}   <- Crossref timed out; Semantic Scholar answered 503";
    MISSING_DOI = "CP212" "missing-doi" Resolution Hint
        "The cited work has a DOI that the entry does not give."
        "The record of the cited work carries a DOI and the bibliography entry has none. A DOI \
makes the reference unambiguous and checkable. The fix adds the field (safe when every other \
field agrees with the record).\n\n\
Example:\n\n    @article{he2016, title = {Deep residual learning …}, year = 2016}\n    \
<- add doi = {10.1109/cvpr.2016.90}";
    WORK_NOT_INDEXED = "CP213" "work-not-indexed" Resolution Warning
        "The cited work is of a kind the asked sources hold only partly, and none of them has it."
        "Every source asked answered and none has the work, but its kind — a book, a thesis, a \
report, a standard, an RFC, a patent, software, a dataset, a web page, a legal text, a talk, or a \
work in a language the indexes cover poorly — is one those sources hold only partly or not at \
all, so absence is no evidence of fabrication. The message names the kind, the sources asked and \
where to confirm the work by hand. Never an accusation: it does not fail CI at the default \
`--fail-on`, and `clean` keeps the citation by default. A cited package that its registry does \
not have, or an RFC number that was never issued, is reported as not found (CP201) instead: those \
registries are complete.\n\n\
Example:\n\n    @phdthesis{nash1950, title = {Non-Cooperative Games}, school = {Princeton University}}\n    \
<- a thesis: Crossref, OpenAlex, Semantic Scholar and DataCite do not have it";
    WRONG_VERSION = "CP214" "wrong-version" Resolution Warning
        "The cited version of a software package was never released."
        "The package exists in its registry (PyPI, CRAN, crates.io, npm), but no release carries \
the cited version. A typo, or a version number invented along with the reference.\n\n\
Example:\n\n    @software{sklearn, title = {scikit-learn}, version = {9.1}, url = {https://pypi.org/project/scikit-learn/}}";
    ACCEPTED_WORK_CHANGED = "CP215" "accepted-work-changed" Resolution Warning
        "A reference resembles a work accepted as real, but its title, authors or year differ."
        "A work confirmed real by hand (`citeproof accept`, recorded in `.citeproof/accepted.toml`) \
is remembered by a fingerprint of its title, the family names of its authors and its year, never \
by its title alone. This reference has the key or the title of an accepted work but not the rest \
of its fingerprint — the entry was edited after it was accepted, or a fabricated reference borrows \
a real work's title — so its not-found, not-indexed and unverified findings are reported as usual. \
The finding names the accepted record; if the change is right, accept the reference again.\n\n\
Example:\n\n    @book{nash1950, title = {Non-Cooperative Games}, author = {Doe, J.}, year = 1950}\n    \
<- accepted as \"Non-Cooperative Games\" (Nash, 1950)";
    CLAIM_CONTRADICTED = "CP301" "claim-contradicted" Verification Error
        "The cited work says the opposite of the claim that cites it."
        "The model judged the claim against the cited work's abstract (or, when the abstract did \
not settle it, against the best passages of its full text) and found it contradicted. The \
diagnostic quotes the evidence, checked to occur verbatim in the work's text, and names the \
passage's section and source when it came from the full text.\n\n\
Example:\n\n    Vitamin D supplementation prevented fractures [@smith2020].\n    \
<- smith2020: \"supplementation did not reduce the incidence of fractures\"";
    CLAIM_UNSUPPORTED = "CP302" "claim-unsupported" Verification Warning
        "Neither the abstract nor the full text of the cited work supports the claim."
        "The abstract did not settle the claim, so the full text was fetched and its passages most \
relevant to the claim were read; they do not support it either. The cited work may still support \
the claim in a figure, a table or a supplement; check it, or cite a source that states it.\n\n\
Example:\n\n    Sleep loss halves memory retention in adults [3].   <- [3] studies mice only";
    CITED_WORK_UNRELATED = "CP303" "cited-work-unrelated" Verification Warning
        "The cited work appears to be about something else than the claim."
        "The embedded offline backend (no model server) compared the claim with the cited work's \
abstract or passages and found almost nothing in common: a likely wrong citation (a neighbouring \
entry, a mistyped key, a fabricated pairing). When another work the document cites holds the \
claim plainly better, the message names it: the claim probably belongs to that citation. It cannot \
judge support or contradiction, only that the two are unrelated.\n\n\
Example:\n\n    CRISPR screens identified new essential genes [@lee2019].   <- lee2019 is about \
galaxy rotation curves";
    SUPPORTED_IN_FULL_TEXT = "CP304" "supported-in-full-text" Verification Info
        "The claim is supported only by the full text, not by the abstract; the passage is shown."
        "Not a problem: the abstract did not settle the claim, and a passage of the full text \
supports it. The diagnostic gives the passage, its section and where the text came from, so a \
reader can find it.\n\n\
Example:\n\n    Freezing fell by 40 % after five hours of sleep loss [@kim2021].\n    \
<- supported in kim2021, Results: \"a 40% reduction in freezing\"";
    CLAIM_UNVERIFIABLE = "CP305" "claim-unverifiable" Verification Info
        "The claim could not be verified: no abstract, no full text, or the model failed."
        "No judgement could be made: the cited work has no abstract that any source returns and \
no open full text, or the model server failed, timed out, kept answering with invalid output or \
its request budget was spent. This is never an accusation; rerun later or check by hand.\n\n\
Example:\n\n    As reported in a 1962 monograph [@old1962].   <- no abstract, no open full text";
    UNUSED_SUPPRESSION = "CP901" "unused-suppression" Meta Warning
        "A suppression comment suppresses nothing."
        "A `citeproof: ignore[…]` or `disable[…]` comment whose rules report nothing in its range. \
Remove it so that it does not hide a future problem.\n\nExample:\n\n    <!-- citeproof: ignore[CP101] -->\n    A sentence with no citation.";
    INVALID_SUPPRESSION = "CP902" "invalid-suppression" Meta Error
        "A suppression comment names an unknown rule or is malformed."
        "The rule list of a suppression comment must hold rule codes (`CP101`) or names \
(`undefined-citation`).\n\nExample:\n\n    % citeproof: ignore[CP999]";
    INVALID_ACCEPTED_WORK = "CP903" "invalid-accepted-work" Meta Error
        "A record of the accepted-works file is invalid or no longer matches its fingerprint."
        "Each `[[work]]` of `.citeproof/accepted.toml` (or of the user-level accepted-works file) \
carries the fingerprint of its title, authors and year. A record whose fields were edited so that \
they no longer make its fingerprint accepts nothing and is reported, as is a file that is not valid \
TOML or has unknown keys. Accept the reference again with `citeproof accept KEY`.\n\n\
Example:\n\n    [[work]]\n    fingerprint = \"5b0c…\"\n    title = \"Non-Cooperative Games\"\n    \
authors = [\"Smith\"]   <- accepted with [\"Nash\"]";
    IGNORED_SUPPRESSION = "CP904" "ignored-suppression" Meta Warning
        "A suppression comment would hide a finding, but the run ignores in-document suppressions."
        "With `--ignore-inline-suppressions` (config `ignore-inline-suppressions = true`), as a \
programme chair runs it over submissions, `citeproof: ignore[…]` and `disable[…]` comments hide \
nothing: the findings they cover are reported, and each comment that would have hidden one is \
reported here with the rules it would have hidden, so a reader sees what the authors silenced.\n\n\
Example:\n\n    % citeproof: ignore[CP201]   <- would hide reference-not-found on the next line";
}

/// Where the rule documentation (docs/rules.md) is published; each rule has its
/// own anchor there.
pub const DOCS_URL: &str = "https://github.com/citeproof/citeproof/blob/main/docs/rules.md";

impl Rule {
    /// The link to this rule's section of the documentation (`…/rules.md#cp101-undefined-citation`).
    pub fn docs_url(&self) -> String {
        format!(
            "{DOCS_URL}#{}-{}",
            self.code.to_ascii_lowercase(),
            self.name
        )
    }
}

/// Look a rule up by code (`CP101`, case-insensitive) or name (`undefined-citation`).
pub fn find(code_or_name: &str) -> Option<&'static Rule> {
    let wanted = code_or_name.trim();
    RULES
        .iter()
        .copied()
        .find(|rule| rule.code.eq_ignore_ascii_case(wanted) || rule.name == wanted)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn codes_and_names_are_unique_and_well_formed() {
        let mut codes = HashSet::new();
        let mut names = HashSet::new();
        for rule in RULES {
            assert!(codes.insert(rule.code), "duplicate code {}", rule.code);
            assert!(names.insert(rule.name), "duplicate name {}", rule.name);
            assert!(rule.code.starts_with("CP") && rule.code.len() == 5);
            assert!(
                rule.name
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c == '-')
            );
            assert!(
                rule.docs.contains("Example"),
                "{} has no example",
                rule.code
            );
        }
    }

    #[test]
    fn find_accepts_codes_and_names() {
        assert_eq!(find("cp101").unwrap().name, "undefined-citation");
        assert_eq!(find("unused-entry").unwrap().code, "CP102");
        assert!(find("CP999").is_none());
    }
}
