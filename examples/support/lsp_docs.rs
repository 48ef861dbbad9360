//! Manuscripts of a given size for the language server benchmark: a Markdown paper
//! (pandoc citations, front matter, sections, lists, code, math, footnotes) and a
//! LaTeX paper (natbib commands, environments, equations, comments) over the same
//! BibTeX bibliography, and `works.jsonl` in the world schema so the mock world
//! resolves every entry. Deterministic: the same text on every run.

use std::fmt::Write as _;

const WORDS: &[&str] = &[
    "model",
    "data",
    "sleep",
    "memory",
    "cells",
    "protein",
    "signal",
    "network",
    "effect",
    "sample",
    "cohort",
    "patients",
    "mice",
    "genome",
    "expression",
    "variance",
    "baseline",
    "training",
    "inference",
    "accuracy",
    "structure",
    "pathway",
    "response",
    "dose",
    "treatment",
    "outcome",
    "analysis",
    "method",
    "measure",
    "trial",
    "population",
    "risk",
    "climate",
    "soil",
    "carbon",
    "galaxy",
    "spectrum",
    "transformer",
    "attention",
    "layer",
    "learning",
    "deep",
    "neural",
    "clinical",
    "molecular",
    "binding",
    "receptor",
    "tumour",
    "imaging",
    "resolution",
    "estimate",
    "bias",
    "error",
    "sequence",
    "alignment",
    "variant",
];
const VERBS: &[&str] = &[
    "improves",
    "reduces",
    "predicts",
    "explains",
    "accelerates",
    "modulates",
    "increases",
    "depends on",
    "is associated with",
    "does not affect",
];
const FAMILIES: &[&str] = &[
    "Smith",
    "Lee",
    "García",
    "Müller",
    "Okafor",
    "Tanaka",
    "Kowalski",
    "Dubois",
    "Rossi",
    "Nguyen",
    "Ivanova",
    "O'Brien",
    "Haddad",
    "Søndergaard",
    "Zhang",
];
const SECTIONS: &[&str] = &[
    "Introduction",
    "Background",
    "Related work",
    "Methods",
    "Data",
    "Results",
    "Analysis",
    "Discussion",
    "Limitations",
    "Conclusions",
];

/// A small deterministic generator.
pub struct Lcg(pub u64);

impl Lcg {
    pub fn next(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n.max(1)
    }
}

/// The files of one benchmark manuscript.
pub struct Manuscript {
    pub markdown: String,
    pub latex: String,
    pub bib: String,
    pub works: String,
}

/// A manuscript whose Markdown and LaTeX texts are each about `bytes` long,
/// citing `refs` bibliography entries (two keys cited are left undefined, so the
/// documents carry a few findings, as real drafts do).
pub fn manuscript(bytes: usize, refs: usize) -> Manuscript {
    let mut rng = Lcg(7);
    let (bib, works) = bibliography(refs, &mut rng);
    Manuscript {
        markdown: markdown(bytes, refs, &mut Lcg(11)),
        latex: latex(bytes, refs, &mut Lcg(13)),
        bib,
        works,
    }
}

fn bibliography(refs: usize, rng: &mut Lcg) -> (String, String) {
    let mut bib = String::new();
    let mut works = String::new();
    for i in 0..refs {
        let key = format!("ref{i:04}");
        let a = WORDS[rng.next(WORDS.len())];
        let b = WORDS[rng.next(WORDS.len())];
        let family = FAMILIES[rng.next(FAMILIES.len())];
        let second = FAMILIES[rng.next(FAMILIES.len())];
        let year = 1990 + rng.next(35);
        let title = format!("On the {a} of {b}: evidence from study {i}");
        let _ = write!(
            bib,
            "@article{{{key},\n  title = {{{title}}},\n  author = {{{family}, A. and {second}, B. C.}},\n  \
             journal = {{Journal of {a} research}},\n  year = {{{year}}},\n  volume = {{{}}},\n  \
             pages = {{{}--{}}},\n  doi = {{10.5555/{key}}}\n}}\n\n",
            1 + i % 40,
            100 + i,
            110 + i
        );
        let work = serde_json::json!({
            "id": format!("b{i:05}"), "doi": format!("10.5555/{key}"), "arxiv": null,
            "pmid": null, "pmcid": null, "s2": null, "openalex": null, "dblp": null,
            "title": title,
            "authors": [{"given": "A.", "family": family}, {"given": "B. C.", "family": second}],
            "year": year, "venue": format!("Journal of {a} research"), "type": "article",
            "abstract": null, "is_retracted": false, "oa_url": null, "full_text_file": null,
            "sources": ["crossref", "openalex", "semantic_scholar"],
        });
        let _ = writeln!(works, "{work}");
    }
    (bib, works)
}

fn sentence(rng: &mut Lcg) -> String {
    let n = 8 + rng.next(14);
    let mut words: Vec<&str> = (0..n).map(|_| WORDS[rng.next(WORDS.len())]).collect();
    words.insert(n / 2, VERBS[rng.next(VERBS.len())]);
    let mut s = words.join(" ");
    s[..1].make_ascii_uppercase();
    s
}

fn key(rng: &mut Lcg, refs: usize) -> String {
    format!("ref{:04}", rng.next(refs))
}

fn markdown(bytes: usize, refs: usize, rng: &mut Lcg) -> String {
    let mut out = String::from(
        "---\ntitle: A long review of everything\nauthor: Bench Mark\nbibliography: refs.bib\n---\n\n",
    );
    let mut section = 0;
    let mut footnotes: usize = 0;
    let mut defined: usize = 0;
    while out.len() < bytes {
        let _ = writeln!(out, "# {}\n", SECTIONS[section % SECTIONS.len()]);
        section += 1;
        for _ in 0..(4 + rng.next(6)) {
            match rng.next(12) {
                0 => {
                    for _ in 0..(2 + rng.next(4)) {
                        let _ = writeln!(out, "- {} [@{}].", sentence(rng), key(rng, refs));
                    }
                    out.push('\n');
                }
                1 => {
                    let _ = writeln!(
                        out,
                        "```python\nfit(model, data, epochs={})\n```\n",
                        rng.next(90)
                    );
                }
                _ => {
                    for _ in 0..(3 + rng.next(5)) {
                        out.push_str(&sentence(rng));
                        match rng.next(10) {
                            0 => {
                                let _ = write!(
                                    out,
                                    " [@{}; @{}, p. {}]",
                                    key(rng, refs),
                                    key(rng, refs),
                                    rng.next(300)
                                );
                            }
                            1 | 2 => {
                                let _ = write!(out, " [@{}]", key(rng, refs));
                            }
                            3 => {
                                let _ = write!(out, ", as @{} shows", key(rng, refs));
                            }
                            4 => {
                                let _ = write!(out, " with $\\alpha = {}$", rng.next(9));
                            }
                            // Now and then a footnote (read as a reference).
                            5 if rng.next(40) == 0 => {
                                footnotes += 1;
                                let _ = write!(out, "[^n{footnotes}]");
                            }
                            _ => {}
                        }
                        out.push_str(". ");
                    }
                    out.push_str("\n\n");
                }
            }
        }
        for n in (defined + 1)..=footnotes {
            let _ = writeln!(out, "[^n{n}]: {} [@{}].\n", sentence(rng), key(rng, refs));
        }
        defined = footnotes;
    }
    out.push_str("An undefined key [@missing2020] and another [@missing2021].\n");
    out
}

fn latex(bytes: usize, refs: usize, rng: &mut Lcg) -> String {
    let mut out = String::from(
        "\\documentclass{article}\n\\usepackage{natbib}\n\\usepackage{amsmath}\n\
         \\title{A long review of everything}\n\\begin{document}\n\\maketitle\n\n",
    );
    let mut section = 0;
    while out.len() < bytes {
        let _ = writeln!(out, "\\section{{{}}}\n", SECTIONS[section % SECTIONS.len()]);
        section += 1;
        for _ in 0..(4 + rng.next(6)) {
            match rng.next(12) {
                0 => {
                    out.push_str("\\begin{itemize}\n");
                    for _ in 0..(2 + rng.next(4)) {
                        let _ = writeln!(
                            out,
                            "  \\item {} \\citep{{{}}}.",
                            sentence(rng),
                            key(rng, refs)
                        );
                    }
                    out.push_str("\\end{itemize}\n\n");
                }
                1 => {
                    let _ = writeln!(
                        out,
                        "\\begin{{equation}}\n  y = \\beta_{} x + \\epsilon\n\\end{{equation}}\n",
                        rng.next(9)
                    );
                }
                2 => {
                    let _ = writeln!(
                        out,
                        "% TODO: {} \\cite{{{}}}\n",
                        sentence(rng),
                        key(rng, refs)
                    );
                }
                _ => {
                    for _ in 0..(3 + rng.next(5)) {
                        out.push_str(&sentence(rng));
                        match rng.next(10) {
                            0 => {
                                let _ = write!(
                                    out,
                                    " \\citep[p.~{}]{{{},{}}}",
                                    rng.next(300),
                                    key(rng, refs),
                                    key(rng, refs)
                                );
                            }
                            1 | 2 => {
                                let _ = write!(out, " \\citep{{{}}}", key(rng, refs));
                            }
                            3 => {
                                let _ = write!(out, ", as \\citet{{{}}} shows", key(rng, refs));
                            }
                            4 => {
                                let _ = write!(out, " with $\\alpha = {}$", rng.next(9));
                            }
                            5 if rng.next(10) == 0 => {
                                let _ = write!(
                                    out,
                                    "\\footnote{{{} \\cite{{{}}}.}}",
                                    sentence(rng),
                                    key(rng, refs)
                                );
                            }
                            _ => {}
                        }
                        out.push_str(". ");
                    }
                    out.push_str("\n\n");
                }
            }
        }
    }
    out.push_str("An undefined key \\cite{missing2020} and another \\cite{missing2021}.\n\n");
    out.push_str("\\bibliographystyle{plainnat}\n\\bibliography{refs}\n\\end{document}\n");
    out
}

/// One typed character and its deletion, as two `didChange` content changes: a
/// character (one in ten a new line) typed at a random place in a prose line of
/// `lines`, then removed, so the text is the same after both.
pub fn type_and_delete(lines: &[&str], rng: &mut Lcg) -> [serde_json::Value; 2] {
    let line = loop {
        let l = 10 + rng.next(lines.len() - 20);
        if lines[l].len() > 20 && lines[l].is_ascii() {
            break l;
        }
    };
    let character = rng.next(lines[line].len());
    let inserted = if rng.next(10) == 0 { "\n" } else { "x" };
    let end = if inserted == "\n" {
        serde_json::json!({"line": line + 1, "character": 0})
    } else {
        serde_json::json!({"line": line, "character": character + 1})
    };
    let at = serde_json::json!({"line": line, "character": character});
    [
        serde_json::json!({"range": {"start": at, "end": at}, "text": inserted}),
        serde_json::json!({"range": {"start": at, "end": end}, "text": ""}),
    ]
}
