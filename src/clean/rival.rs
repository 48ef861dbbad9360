//! Swapped citations: the text around a marker is about another article of the
//! answer, not the one its number names. An LLM that writes from retrieved articles
//! attaches a sentence to the wrong number far more often than it invents the
//! sentence, and then the article the sentence came from is right there: among the
//! sources (closed world), or among the answer's other references (open world).
//!
//! How much of the citing text's informative content (IDF-weighted terms, the
//! embedded backend's `coverage`) each article's title and abstract hold is compared:
//! when another article — one not cited anywhere in the same sentence — holds far
//! more of it than the cited one, the citation is a mismatch. Sentences that cite
//! several articles for several clauses are therefore never judged against each
//! other's articles.
//!
//! A swap is only concluded on complete evidence: when a citation of the sentence
//! could not be resolved, or its article's abstract could not be fetched because a
//! source failed, the sentence's own coverage is unknown (too low), and a failure must
//! never remove a citation.

use std::collections::{HashMap, HashSet};

use crate::verify::embedded::EmbeddedScorer;

use super::find::Finding;
use super::read::Reading;

/// Another article that holds far more of a citation's text than the cited one.
#[derive(Debug, Clone, PartialEq)]
pub struct Rival {
    /// How the report names it (`source 3`, `reference [4]`).
    pub name: String,
    pub title: String,
    /// Coverage of the text by the articles cited in its sentence and by the rival.
    pub cited: f64,
    pub best: f64,
}

/// One article the citations may be compared with.
#[derive(Debug, Clone)]
pub struct Candidate<'a> {
    pub name: String,
    pub title: &'a str,
    pub abstract_text: &'a str,
}

/// Coverage below which a rival proves nothing (it must hold most of the text).
pub const MIN_RIVAL_COVERAGE: f64 = 0.6;

/// Whether what a citation names is known only in part because a source failed: the
/// reference could not be resolved, or its article's abstract could not be fetched.
fn incomplete(finding: &Finding) -> bool {
    match finding {
        Finding::Unverified { .. } | Finding::NotIndexed { .. } => true,
        Finding::Found(found) => found.abstract_failed.is_some(),
        Finding::NotFound { .. } => false,
    }
}

/// For each citation, the best rival when it beats the cited article's coverage by
/// at least `margin`. `article_of` gives the candidate index a finding names.
pub fn rivals(
    reading: &Reading,
    findings: &[Finding],
    contexts: &[String],
    candidates: &[Candidate],
    article_of: impl Fn(&Finding) -> Option<usize>,
    margin: f64,
) -> Vec<Option<Rival>> {
    let scorer = EmbeddedScorer::default();
    // Keyed by the first citation with the same text, so one sentence is measured once
    // per set of articles.
    let mut memo: HashMap<(usize, Vec<usize>), f64> = HashMap::new();
    let mut first_with: HashMap<&str, usize> = HashMap::new();
    let mut coverage = |cite: usize, set: &[usize]| -> f64 {
        let key = *first_with.entry(contexts[cite].as_str()).or_insert(cite);
        *memo.entry((key, set.to_vec())).or_insert_with(|| {
            let evidence: Vec<&str> = set
                .iter()
                .flat_map(|&c| [candidates[c].title, candidates[c].abstract_text])
                .filter(|t| !t.trim().is_empty())
                .collect();
            if evidence.is_empty() {
                return 0.0;
            }
            scorer.measure(&contexts[key], &evidence).0.coverage
        })
    };
    // The articles cited in each sentence (or, outside sentences, each marker).
    let place = |i: usize| {
        let c = &reading.cites[i].citation;
        c.claim.map_or((usize::MAX, c.group_span.start), |k| (k, 0))
    };
    let mut cited_at: HashMap<(usize, usize), Vec<usize>> = HashMap::new();
    let mut incomplete_at: HashSet<(usize, usize)> = HashSet::new();
    for (i, finding) in findings.iter().enumerate() {
        if incomplete(finding) {
            incomplete_at.insert(place(i));
        }
        if let Some(a) = article_of(finding) {
            let set = cited_at.entry(place(i)).or_default();
            if !set.contains(&a) {
                set.push(a);
            }
        }
    }
    for set in cited_at.values_mut() {
        set.sort_unstable();
    }
    (0..findings.len())
        .map(|i| {
            let own = article_of(&findings[i])?;
            if margin >= 1.0 || contexts[i].trim().is_empty() || incomplete_at.contains(&place(i)) {
                return None;
            }
            // The sentence's articles together are the baseline: a sentence that cites
            // several for several clauses is covered by all of them at once.
            let cited_here = &cited_at[&place(i)];
            let cited = coverage(i, cited_here);
            let (best_index, best) = (0..candidates.len())
                .filter(|j| !cited_here.contains(j))
                .map(|j| (j, coverage(i, &[j])))
                .max_by(|a, b| a.1.total_cmp(&b.1))?;
            let _ = own;
            (best >= MIN_RIVAL_COVERAGE && best - cited >= margin).then(|| Rival {
                name: candidates[best_index].name.clone(),
                title: candidates[best_index].title.to_string(),
                cited,
                best,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clean::find::FoundWork;
    use crate::clean::options::Numbering;
    use crate::clean::read::read;
    use crate::clean::report::Record;
    use crate::model::Work;

    fn found(title: &str, abstract_text: &str, abstract_failed: Option<&str>) -> Finding {
        let work = Work {
            title: title.into(),
            abstract_text: (!abstract_text.is_empty()).then(|| abstract_text.to_string()),
            ..Work::default()
        };
        Finding::Found(Box::new(FoundWork {
            record: Record::from_work(&work, None),
            work,
            how: "resolved by crossref".into(),
            abstract_failed: abstract_failed.map(str::to_string),
        }))
    }

    /// A sentence about the second article's abstract, cited with the first, whose
    /// record came without an abstract: a swap only when nothing failed.
    fn rival_of_first(abstract_failed: Option<&str>) -> Option<Rival> {
        let answer = "Soil microbial respiration doubles under sustained nitrogen \
                      fertilisation of temperate grasslands [1]. Deep networks read \
                      radiographs [2].\n\nReferences\n\n[1] \"Nitrogen in soils\" (J, \
                      2020)\n[2] \"Radiograph reading\" (K, 2021)\n";
        let reading = read(answer, None, None, Numbering::Auto);
        let findings = vec![
            found("Nitrogen in soils", "", abstract_failed),
            found(
                "Radiograph reading",
                "Soil microbial respiration doubles under sustained nitrogen \
                 fertilisation of temperate grasslands, we find.",
                None,
            ),
        ];
        let contexts = vec![
            "Soil microbial respiration doubles under sustained nitrogen fertilisation \
             of temperate grasslands."
                .to_string(),
            "Deep networks read radiographs.".to_string(),
        ];
        let candidates = [
            Candidate {
                name: "reference [1]".into(),
                title: "Nitrogen in soils",
                abstract_text: "",
            },
            Candidate {
                name: "reference [2]".into(),
                title: "Radiograph reading",
                abstract_text: "Soil microbial respiration doubles under sustained \
                                nitrogen fertilisation of temperate grasslands, we find.",
            },
        ];
        let index = |f: &Finding| match f {
            Finding::Found(w) => candidates.iter().position(|c| c.title == w.work.title),
            _ => None,
        };
        rivals(&reading, &findings, &contexts, &candidates, index, 0.3)
            .into_iter()
            .next()
            .flatten()
    }

    #[test]
    fn a_swap_needs_the_cited_articles_evidence_complete() {
        let complete = rival_of_first(None);
        assert_eq!(
            complete.as_ref().map(|r| r.name.as_str()),
            Some("reference [2]"),
            "{complete:?}"
        );
        // The abstract of the cited article could not be fetched: its coverage is
        // unknown, and a failure must not remove the citation.
        assert_eq!(rival_of_first(Some("s2: HTTP 503")), None);
    }
}
