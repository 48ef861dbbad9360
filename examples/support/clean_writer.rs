//! Writing one labelled answer of the clean benchmark: sentences with their markers
//! (numbered by first appearance, as LLM answers number them), the reference list
//! in one of several styles, and the label of every marker number at its place.
#![allow(dead_code)]

use rand::RngExt;
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;

use super::clean_gen::{Cited, Kind, Label};
use super::clean_world::WorkRec;

/// How a sentence's markers are written.
#[derive(Debug, Clone)]
enum Markers {
    /// One number: spaced ` [n]` or glued `[n]`.
    Single { glued: bool },
    /// Two numbers: ` [a, b]`, ` [a][b]` or ` [a] [b]`.
    Pair(&'static str),
    /// Three new numbers as a range ` [a–c]`.
    Range(&'static str),
    /// A number past the reference list.
    Orphan(u32),
}

#[derive(Debug, Clone)]
enum Piece {
    Prose(String),
    Cited {
        text: String,
        refs: Vec<(Cited, Kind)>,
        markers: Markers,
    },
}

pub struct Writer {
    pieces: Vec<Piece>,
    /// Cited works and fakes in order of first appearance (their numbers).
    order: Vec<Cited>,
    layout: usize,
    labels: Vec<(usize, usize, u32, Kind, Option<Cited>)>,
}

impl Writer {
    pub fn new(layout: usize) -> Writer {
        Writer {
            pieces: Vec::new(),
            order: Vec::new(),
            layout,
            labels: Vec::new(),
        }
    }

    pub fn prose(&mut self, text: String) {
        if !text.is_empty() {
            self.pieces.push(Piece::Prose(text));
        }
    }

    fn note(&mut self, cited: Cited) {
        if !self.order.contains(&cited) {
            self.order.push(cited);
        }
    }

    /// Whether none of these works has been cited yet (a range needs new numbers).
    pub fn all_new(&self, works: &[usize]) -> bool {
        works.iter().all(|w| !self.order.contains(&Cited::Work(*w)))
    }

    pub fn single(&mut self, text: &str, cited: Cited, kind: Kind, rng: &mut StdRng) {
        self.note(cited);
        self.pieces.push(Piece::Cited {
            text: text.to_string(),
            refs: vec![(cited, kind)],
            markers: Markers::Single {
                glued: rng.random_bool(0.2),
            },
        });
    }

    pub fn sentence(&mut self, text: &str, refs: &[(Cited, Kind)], layout: &'static str) {
        for (c, _) in refs {
            self.note(*c);
        }
        self.pieces.push(Piece::Cited {
            text: text.to_string(),
            refs: refs.to_vec(),
            markers: Markers::Pair(layout),
        });
    }

    pub fn range(&mut self, text: &str, refs: &[(Cited, Kind)]) {
        for (c, _) in refs {
            self.note(*c);
        }
        self.pieces.push(Piece::Cited {
            text: text.to_string(),
            refs: refs.to_vec(),
            markers: Markers::Range("–"),
        });
    }

    pub fn orphan(&mut self, text: &str, past_end: u32) {
        self.pieces.push(Piece::Cited {
            text: text.to_string(),
            refs: Vec::new(),
            markers: Markers::Orphan(past_end),
        });
    }

    fn number(&self, cited: Cited) -> u32 {
        self.order.iter().position(|c| *c == cited).expect("noted") as u32 + 1
    }

    /// The answer text; labels are recorded as it is written.
    pub fn finish(
        &mut self,
        works: &[WorkRec],
        fakes: &[String],
        style: usize,
        rng: &mut StdRng,
    ) -> String {
        let mut out = String::new();
        if self.layout == 2 {
            out.push_str("**Key findings**\n\n");
        }
        let pieces = std::mem::take(&mut self.pieces);
        for (i, piece) in pieces.iter().enumerate() {
            if i > 0 {
                let sep = match self.layout {
                    1 => "\n",
                    _ if i % 3 == 0 => "\n\n",
                    _ => " ",
                };
                out.push_str(sep);
            }
            if self.layout == 1 {
                out.push_str("- ");
            }
            match piece {
                Piece::Prose(text) => out.push_str(text),
                Piece::Cited {
                    text,
                    refs,
                    markers,
                } => {
                    out.push_str(text);
                    self.write_markers(&mut out, refs, markers);
                    out.push('.');
                }
            }
        }
        out.push_str("\n\n");
        let bracketed = style != 1;
        match (style, rng.random_range(0..4)) {
            (0, 0) => {}
            (_, 1) => out.push_str("Sources:\n"),
            (_, 2) => out.push_str("## References\n\n"),
            _ => out.push_str("References:\n"),
        }
        for (k, cited) in self.order.iter().enumerate() {
            let n = k + 1;
            let body = match cited {
                Cited::Work(i) => entry(&works[*i], style, rng),
                Cited::Fake(f) => fake_entry(&fakes[*f], style, rng),
            };
            if bracketed {
                out.push_str(&format!("[{n}] {body}\n"));
            } else {
                out.push_str(&format!("{n}. {body}\n"));
            }
        }
        out
    }

    fn write_markers(&mut self, out: &mut String, refs: &[(Cited, Kind)], markers: &Markers) {
        let numbered: Vec<(u32, Kind, Option<Cited>)> = refs
            .iter()
            .map(|(c, k)| (self.number(*c), *k, Some(*c)))
            .collect();
        // The list holds every cited work and fake: an orphan's number has no entry.
        let past_list = self.order.len() as u32 + 2;
        let labels = &mut self.labels;
        let mut mark = |out: &mut String, numbers: &[(u32, Kind, Option<Cited>)], text: String| {
            let start = out.len();
            out.push_str(&text);
            for (n, kind, cited) in numbers {
                labels.push((start, out.len(), *n, *kind, *cited));
            }
        };
        match markers {
            Markers::Single { glued } => {
                if !glued {
                    out.push(' ');
                }
                mark(out, &numbered, format!("[{}]", numbered[0].0));
            }
            Markers::Pair(", ") => {
                out.push(' ');
                let text = format!("[{}, {}]", numbered[0].0, numbered[1].0);
                mark(out, &numbered, text);
            }
            Markers::Pair(sep) => {
                out.push(' ');
                mark(out, &numbered[..1], format!("[{}]", numbered[0].0));
                out.push_str(&sep[1..sep.len() - 1]);
                mark(out, &numbered[1..], format!("[{}]", numbered[1].0));
            }
            Markers::Range(dash) => {
                out.push(' ');
                let (a, c) = (numbered[0].0, numbered[2].0);
                mark(out, &numbered, format!("[{a}{dash}{c}]"));
            }
            Markers::Orphan(past_end) => {
                out.push(' ');
                let n = past_list + past_end;
                mark(out, &[(n, Kind::Orphan, None)], format!("[{n}]"));
            }
        }
    }

    pub fn labels(&self, works: &[WorkRec]) -> Vec<Label> {
        self.labels
            .iter()
            .map(|(start, end, number, kind, cited)| Label {
                span: [*start, *end],
                number: *number,
                kind: *kind,
                work: match cited {
                    Some(Cited::Work(i)) => Some(works[*i].id.clone()),
                    _ => None,
                },
            })
            .collect()
    }
}

/// A reference entry in one of three styles: APA-like with a DOI link, Vancouver-like
/// with a PMCID or DOI, or the title alone (matched by title).
fn entry(w: &WorkRec, style: usize, rng: &mut StdRng) -> String {
    let authors = author_list(w, style);
    let year = w.year.map_or(String::new(), |y| y.to_string());
    let venue = w.venue.clone().unwrap_or_default();
    let id = match (&w.pmcid, &w.doi, &w.arxiv) {
        (Some(p), _, _) if style == 1 || rng.random_bool(0.3) => format!("PMCID: {p}"),
        (_, Some(d), _) if style == 0 => format!("https://doi.org/{d}"),
        (_, Some(d), _) => format!("doi:{d}"),
        (_, _, Some(a)) => format!("arXiv:{a}"),
        _ => String::new(),
    };
    match style {
        0 => format!("{authors} ({year}). {}. {venue}. {id}", w.title),
        1 => format!("{authors}. {}. {venue}. {year}. {id}", w.title),
        _ => {
            let title = if rng.random_bool(0.3) {
                w.title.split(':').next().unwrap_or(&w.title).to_string()
            } else {
                w.title.clone()
            };
            format!("\"{title}\" ({venue}, {year})")
        }
    }
}

fn author_list(w: &WorkRec, style: usize) -> String {
    let initial = |g: &str| {
        g.split(|c: char| c.is_whitespace() || c == '-')
            .filter_map(|p| p.chars().next())
            .map(|c| format!("{c}."))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let names: Vec<String> = w
        .authors
        .iter()
        .take(3)
        .map(|(g, f)| match style {
            0 => format!("{f}, {}", initial(g)),
            _ => format!("{f} {}", initial(g).replace(['.', ' '], "")),
        })
        .collect();
    let mut list = names.join(", ");
    if w.authors.len() > 3 {
        list.push_str(", et al.");
    }
    list
}

/// An invented reference in the same style, with an invented identifier.
fn fake_entry(title: &str, style: usize, rng: &mut StdRng) -> String {
    let families = [
        "Zhang",
        "Miller",
        "Garcia",
        "Okafor",
        "Lindqvist",
        "Patel",
        "Rossi",
    ];
    let family = families.choose(rng).expect("family");
    let year = rng.random_range(2012..2024);
    let doi = format!(
        "10.{}/{}.{}.{}",
        rng.random_range(1000..9999),
        ["jmb", "nar", "pone", "cell", "sci"]
            .choose(rng)
            .expect("journal"),
        year,
        rng.random_range(10000..99999)
    );
    match style {
        0 => format!("{family}, A. ({year}). {title}. Journal of Research. https://doi.org/{doi}"),
        1 => format!("{family} A, et al. {title}. J Res. {year}. doi:{doi}"),
        _ => format!("\"{title}\" (Journal of Research, {year})"),
    }
}
