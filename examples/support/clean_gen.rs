//! The labelled answers of the clean benchmark. Each answer is built around one
//! topic: its sources are a work of the world and its nearest neighbours (what a
//! retriever returns), plus an off-topic work or two (retrieval noise). Cited
//! sentences come from the abstracts (verbatim with the first person rewritten,
//! shortened, or a statement about the title), uncited ones from ExpertQA answers.
//! Every marker number is labelled:
//!
//! - `valid`: the sentence comes from the cited source;
//! - `mismatch_easy`: a sentence of a topical source cites the off-topic source;
//! - `mismatch_hard`: a sentence of one source cites its nearest neighbour among the
//!   sources (same topic);
//! - `fabricated`: an invented reference (recombined title, invented DOI);
//! - `not_retrieved`: a real work on the topic that is not among the sources;
//! - `orphan`: a number with no reference-list entry;
//! - `retracted`: a valid citation of a source flagged retracted.
#![allow(dead_code)]

use rand::rngs::StdRng;
use rand::seq::{IndexedRandom, SliceRandom};
use rand::{RngExt, SeedableRng};
use serde::Serialize;
use serde_json::{Value, json};

use super::clean_world::{WorkRec, claim_sentences, hash};
use super::clean_writer::Writer;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, PartialOrd, Ord)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    Valid,
    MismatchEasy,
    MismatchHard,
    Fabricated,
    NotRetrieved,
    Orphan,
    Retracted,
}

impl Kind {
    pub const ALL: [Kind; 7] = [
        Kind::Valid,
        Kind::MismatchEasy,
        Kind::MismatchHard,
        Kind::Fabricated,
        Kind::NotRetrieved,
        Kind::Orphan,
        Kind::Retracted,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Valid => "valid",
            Kind::MismatchEasy => "mismatch_easy",
            Kind::MismatchHard => "mismatch_hard",
            Kind::Fabricated => "fabricated",
            Kind::NotRetrieved => "not_retrieved",
            Kind::Orphan => "orphan",
            Kind::Retracted => "retracted",
        }
    }

    /// Whether the default policy should remove it (closed world).
    pub fn should_remove(self) -> bool {
        !matches!(self, Kind::Valid | Kind::Retracted)
    }

    /// Whether it should be `not_found` (closed world).
    pub fn is_absent(self) -> bool {
        matches!(self, Kind::Fabricated | Kind::NotRetrieved | Kind::Orphan)
    }
}

/// One labelled marker number.
#[derive(Debug, Clone, Serialize)]
pub struct Label {
    /// The marker's `[start, end)` in the answer.
    pub span: [usize; 2],
    pub number: u32,
    pub kind: Kind,
    /// The world id of the cited work (none for fabricated references and orphans).
    pub work: Option<String>,
}

/// One labelled answer.
#[derive(Debug, Clone, Serialize)]
pub struct Case {
    pub id: String,
    pub answer: String,
    pub sources: Vec<Value>,
    pub labels: Vec<Label>,
    /// Text that looks like a marker and must come out untouched.
    pub decoys: Vec<String>,
}

/// What a citation points at while the answer is written.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Cited {
    /// A work of the world (a source or not).
    Work(usize),
    /// The n-th invented reference of the answer.
    Fake(usize),
}

pub struct Generator<'a> {
    works: &'a [WorkRec],
    neighbours: &'a [Vec<usize>],
    prose: &'a [String],
    rng: StdRng,
}

const DECOYS: &[&str] = &[
    "In code the second value is read as `values[2]`",
    "A loop over x = scores[1] gives the same number",
    "The notation [sic] marks a quotation kept as written",
];

impl<'a> Generator<'a> {
    pub fn new(
        works: &'a [WorkRec],
        neighbours: &'a [Vec<usize>],
        prose: &'a [String],
        seed: u64,
    ) -> Generator<'a> {
        Generator {
            works,
            neighbours,
            prose,
            rng: StdRng::seed_from_u64(seed),
        }
    }

    /// One labelled answer.
    pub fn case(&mut self, id: String) -> Case {
        let mut w = Writer::new(self.rng.random_range(0..3usize));
        let anchor = self.rng.random_range(0..self.works.len());
        let near = &self.neighbours[anchor];
        let topical: Vec<usize> = std::iter::once(anchor)
            .chain(near.iter().copied().take(self.rng.random_range(2..=4)))
            .collect();
        let mut sources: Vec<usize> = topical.clone();
        let far: Vec<usize> = (0..self.rng.random_range(1..=2))
            .map(|_| self.far_from(anchor))
            .collect();
        sources.extend(&far);
        sources.shuffle(&mut self.rng);
        let retracted = self
            .rng
            .random_bool(0.12)
            .then(|| *topical.choose(&mut self.rng).expect("topical"));
        let not_retrieved: Vec<usize> = near
            .iter()
            .copied()
            .skip(6)
            .filter(|i| !sources.contains(i))
            .take(10)
            .collect();
        let mut fakes: Vec<String> = Vec::new();

        if self.rng.random_bool(0.5) {
            w.prose(self.filler());
        }
        // Valid citations of most sources, some in groups.
        let mut cited_sources: Vec<usize> = topical.clone();
        cited_sources.shuffle(&mut self.rng);
        let mut k = 0;
        while k < cited_sources.len() {
            let roll = self.rng.random_range(0..10);
            if roll < 2 && k + 1 < cited_sources.len() {
                let (a, b) = (cited_sources[k], cited_sources[k + 1]);
                let text = format!(
                    "{}, and {}",
                    trim_end(&self.claim(a)),
                    lower_first(&trim_end(&self.claim(b)))
                );
                let kinds = [valid_kind(a, retracted), valid_kind(b, retracted)];
                let layout = *[", ", "][", "] ["].choose(&mut self.rng).expect("layout");
                w.sentence(
                    &text,
                    &[(Cited::Work(a), kinds[0]), (Cited::Work(b), kinds[1])],
                    layout,
                );
                k += 2;
            } else if roll < 3 && k + 2 < cited_sources.len() && w.all_new(&cited_sources[k..k + 3])
            {
                let three = &cited_sources[k..k + 3];
                let titles: Vec<String> = three
                    .iter()
                    .map(|&i| title_phrase(&self.works[i]))
                    .collect();
                let text = format!(
                    "Related work covers {}, {} and {}",
                    titles[0], titles[1], titles[2]
                );
                let cited: Vec<(Cited, Kind)> = three
                    .iter()
                    .map(|&i| (Cited::Work(i), valid_kind(i, retracted)))
                    .collect();
                w.range(&text, &cited);
                k += 3;
            } else {
                let a = cited_sources[k];
                let text = trim_end(&self.claim(a));
                w.single(
                    &text,
                    Cited::Work(a),
                    valid_kind(a, retracted),
                    &mut self.rng,
                );
                k += 1;
            }
            if self.rng.random_bool(0.25) {
                w.prose(self.filler());
            }
        }
        // The off-topic source is cited validly too, now and then.
        if self.rng.random_bool(0.3) {
            let f = far[0];
            w.single(
                &trim_end(&self.claim(f)),
                Cited::Work(f),
                Kind::Valid,
                &mut self.rng,
            );
        }
        if self.rng.random_bool(0.45) {
            let x = *topical.choose(&mut self.rng).expect("topical");
            let text = trim_end(&self.claim(x));
            w.single(
                &text,
                Cited::Work(far[0]),
                Kind::MismatchEasy,
                &mut self.rng,
            );
        }
        if self.rng.random_bool(0.45) {
            let x = *topical.choose(&mut self.rng).expect("topical");
            let y = self.nearest_among(x, &sources);
            let text = trim_end(&self.claim(x));
            w.single(&text, Cited::Work(y), Kind::MismatchHard, &mut self.rng);
        }
        if self.rng.random_bool(0.4) {
            let x = *topical.choose(&mut self.rng).expect("topical");
            let others: Vec<usize> = topical.iter().copied().filter(|&t| t != x).collect();
            let y = *others
                .choose(&mut self.rng)
                .expect("another topical source");
            fakes.push(fake_title(&self.works[x], &self.works[y], &mut self.rng));
            let text = trim_end(&self.claim(x));
            w.single(
                &text,
                Cited::Fake(fakes.len() - 1),
                Kind::Fabricated,
                &mut self.rng,
            );
        }
        if let Some(&r) = not_retrieved
            .choose(&mut self.rng)
            .filter(|_| self.rng.random_bool(0.4))
        {
            let text = trim_end(&self.claim(r));
            w.single(&text, Cited::Work(r), Kind::NotRetrieved, &mut self.rng);
        }
        if self.rng.random_bool(0.3) {
            let x = *topical.choose(&mut self.rng).expect("topical");
            let text = trim_end(&self.claim(x));
            w.orphan(&text, self.rng.random_range(1..4));
        }
        let mut decoys = Vec::new();
        if self.rng.random_bool(0.15) {
            let decoy = *DECOYS.choose(&mut self.rng).expect("decoy");
            w.prose(format!("{decoy}."));
            decoys.push(decoy.to_string());
        }
        let style = self.rng.random_range(0..3usize);
        let answer = w.finish(self.works, &fakes, style, &mut self.rng);
        let sources_json = sources
            .iter()
            .map(|&i| article(&self.works[i], Some(i) == retracted))
            .collect();
        Case {
            id,
            answer,
            sources: sources_json,
            labels: w.labels(self.works),
            decoys,
        }
    }

    fn filler(&mut self) -> String {
        self.prose
            .choose(&mut self.rng)
            .cloned()
            .unwrap_or_default()
    }

    /// A work far from `anchor` (not among its 40 nearest).
    fn far_from(&mut self, anchor: usize) -> usize {
        loop {
            let i = self.rng.random_range(0..self.works.len());
            if i != anchor && !self.neighbours[anchor].iter().take(40).any(|&j| j == i) {
                return i;
            }
        }
    }

    /// The source nearest to `x` (other than `x`).
    fn nearest_among(&self, x: usize, sources: &[usize]) -> usize {
        self.neighbours[x]
            .iter()
            .copied()
            .find(|j| sources.contains(j))
            .or_else(|| sources.iter().copied().find(|&j| j != x))
            .expect("another source")
    }

    /// A sentence about work `i`: an abstract sentence as written (first person
    /// rewritten), shortened, or a statement about its title.
    fn claim(&mut self, i: usize) -> String {
        let w = &self.works[i];
        let sentences = claim_sentences(&w.abstract_text);
        let pick = if sentences.len() > 1 {
            self.rng.random_range(1..sentences.len())
        } else {
            0
        };
        let s = third_person(&sentences[pick]);
        match self.rng.random_range(0..20) {
            0..=6 => s,
            7..=11 => {
                let words: Vec<&str> = s.split_whitespace().collect();
                let keep = (words.len() * self.rng.random_range(60..90) / 100).max(6);
                format!("{}.", end_on_a_word(&words[..keep.min(words.len())]))
            }
            12..=16 => paraphrase(&s, &mut self.rng),
            _ => {
                let templates = [
                    "Research on {t} is relevant here.",
                    "This has been examined in work on {t}.",
                    "Evidence comes from a study of {t}.",
                ];
                templates
                    .choose(&mut self.rng)
                    .expect("template")
                    .replace("{t}", &title_phrase(w))
            }
        }
    }
}

/// Words joined, ending on a word that can end a sentence (no dangling article,
/// preposition or abbreviation).
fn end_on_a_word(words: &[&str]) -> String {
    const DANGLING: &[&str] = &[
        "a", "an", "the", "of", "in", "on", "for", "to", "and", "or", "with", "by", "as", "at",
        "from", "that", "which", "is", "are", "was", "were", "be", "its", "their", "i.e", "e.g",
        "than", "such", "both", "between", "into",
    ];
    let mut end = words.len();
    while end > 4 {
        let w = words[end - 1]
            .trim_end_matches(|c: char| !c.is_alphanumeric())
            .to_lowercase();
        if w.len() >= 2 && !DANGLING.contains(&w.as_str()) && !w.contains('.') {
            break;
        }
        end -= 1;
    }
    words[..end]
        .join(" ")
        .trim_end_matches(|c: char| !c.is_alphanumeric())
        .to_string()
}

/// A loose paraphrase: common academic words swapped for synonyms, a few words
/// dropped, a hedge in front.
fn paraphrase(s: &str, rng: &mut StdRng) -> String {
    const SYNONYMS: &[(&str, &str)] = &[
        ("show", "demonstrate"),
        ("shows", "demonstrates"),
        ("showed", "demonstrated"),
        ("improve", "enhance"),
        ("improves", "enhances"),
        ("improved", "enhanced"),
        ("method", "approach"),
        ("methods", "approaches"),
        ("results", "findings"),
        ("increase", "rise"),
        ("increased", "elevated"),
        ("use", "employ"),
        ("using", "employing"),
        ("used", "employed"),
        ("significant", "notable"),
        ("significantly", "notably"),
        ("reduce", "lower"),
        ("reduced", "lowered"),
        ("effect", "impact"),
        ("effects", "impacts"),
        ("propose", "introduce"),
        ("proposed", "introduced"),
        ("performance", "effectiveness"),
        ("large", "substantial"),
        ("new", "novel"),
        ("high", "elevated"),
        ("important", "key"),
        ("study", "investigation"),
        ("analysis", "examination"),
        ("approach", "strategy"),
        ("provide", "offer"),
        ("provides", "offers"),
        ("however", "yet"),
        ("various", "diverse"),
        ("achieve", "attain"),
        ("achieves", "attains"),
        ("evaluate", "assess"),
        ("evaluated", "assessed"),
        ("identify", "pinpoint"),
        ("identified", "pinpointed"),
    ];
    let hedges = [
        "Notably, ",
        "In short, ",
        "It appears that ",
        "Evidence suggests that ",
        "",
    ];
    let words: Vec<String> = s
        .trim_end_matches('.')
        .split_whitespace()
        .enumerate()
        .filter(|(i, _)| *i == 0 || !rng.random_bool(0.12))
        .map(|(_, w)| {
            let lower = w.to_lowercase();
            match SYNONYMS.iter().find(|(from, _)| *from == lower) {
                Some((_, to)) => to.to_string(),
                None => w.to_string(),
            }
        })
        .collect();
    let hedge = hedges.choose(rng).expect("hedge");
    let body = words.join(" ");
    let body = if hedge.is_empty() {
        body
    } else {
        lower_first(&body)
    };
    format!("{hedge}{body}.")
}

fn valid_kind(i: usize, retracted: Option<usize>) -> Kind {
    if Some(i) == retracted {
        Kind::Retracted
    } else {
        Kind::Valid
    }
}

/// The title as a phrase inside a sentence: main title, lowercase start.
fn title_phrase(w: &WorkRec) -> String {
    let main = w.title.split(':').next().unwrap_or(&w.title).trim();
    let main = main.trim_end_matches(['.', '?', '!']);
    let first_word = main.split_whitespace().next().unwrap_or("");
    let acronym = first_word.chars().filter(|c| c.is_uppercase()).count() > 1;
    if acronym {
        main.to_string()
    } else {
        lower_first(main)
    }
}

fn third_person(s: &str) -> String {
    let mut out = s.to_string();
    for (from, to) in [
        ("In this paper, we ", "The authors "),
        ("In this study, we ", "The authors "),
        ("In this work, we ", "The authors "),
        ("Here, we ", "The authors "),
        ("Here we ", "The authors "),
        ("We ", "The authors "),
        (" we ", " the authors "),
        ("Our ", "Their "),
        (" our ", " their "),
        (" us ", " them "),
    ] {
        out = out.replace(from, to);
    }
    out
}

fn trim_end(s: &str) -> String {
    s.trim_end()
        .trim_end_matches(['.', '!', '?', ';', ','])
        .to_string()
}

fn lower_first(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) if chars.clone().next().is_some_and(char::is_lowercase) => {
            c.to_lowercase().collect::<String>() + chars.as_str()
        }
        _ => s.to_string(),
    }
}

/// An invented title: the first words of one topical title, the last of another.
fn fake_title(a: &WorkRec, b: &WorkRec, rng: &mut StdRng) -> String {
    let wa: Vec<&str> = a.title.split_whitespace().collect();
    let wb: Vec<&str> = b.title.split_whitespace().collect();
    let cut_a = (wa.len() / 2).max(2).min(wa.len());
    let cut_b = wb.len() / 2;
    let fillers = ["in", "for", "and", "under", "across"];
    format!(
        "{} {} {}",
        wa[..cut_a].join(" "),
        fillers.choose(rng).expect("filler"),
        wb[cut_b..].join(" ")
    )
}

/// A source in MicroTraitLLM's Article fields.
fn article(w: &WorkRec, retracted: bool) -> Value {
    json!({
        "pmcid": w.pmcid,
        "doi": w.doi,
        "arxiv": w.arxiv,
        "title": w.title,
        "abstract": w.abstract_text,
        "journal": w.venue,
        "year": w.year,
        "citation_count": (hash(&w.id) % 500),
        "is_peer_reviewed": w.venue.is_some(),
        "is_retracted": retracted || w.is_retracted,
    })
}
