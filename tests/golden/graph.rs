//! Semantic Scholar and arXiv.

use citeproof::model::{Person, Work};
use citeproof::net::HttpReply;
use citeproof::resolve::sources::{SourceError, arxiv, s2};

use super::{failure, families, found, list, not_found};

/// `true` when the file has an expectation here.
pub fn check(rel: &str, reply: &HttpReply) -> bool {
    match rel {
        // --------------------------------------------------------- Semantic Scholar
        "semanticscholar/paper_10.1093_mind_lix.236.433_fields_title.json" => {
            let w = found(rel, s2::parse_paper(reply));
            assert_eq!(w.title, "Computing Machinery and Intelligence");
            assert_eq!(w.url, None);
        }
        "semanticscholar/model_Paper.json" => {
            let w = found(rel, s2::parse_paper(reply));
            assert_eq!(w.title, "Computing Machinery and Intelligence");
            assert_eq!(w.doi.as_deref(), Some("10.1093/mind/lix.236.433"));
            assert_eq!(w.authors, vec![Person::new(Some("A."), "Turing")]);
            assert_eq!(w.year, Some(1950));
            assert_eq!(
                w.venue.as_deref(),
                Some("The Philosophy of Artificial Intelligence")
            );
            assert_eq!(w.work_type.as_deref(), Some("JournalArticle"));
        }
        "semanticscholar/model_PaperWithNullValues.json" => {
            let w = found(rel, s2::parse_paper(reply));
            assert!(w.title.is_empty() && w.authors.is_empty());
        }
        "semanticscholar/paper_404_notfound.json" | "semanticscholar/author_404_notfound.json" => {
            not_found(rel, s2::parse_paper(reply));
        }
        "semanticscholar/paper_400_bad_fields.json"
        | "semanticscholar/recommendations_400.json" => {
            assert!(matches!(
                failure(rel, s2::parse_paper(reply)),
                SourceError::Status { status: 400, .. }
            ));
        }
        "semanticscholar/model_Author.json"
        | "semanticscholar/model_Citation.json"
        | "semanticscholar/model_Reference.json" => {
            assert!(matches!(
                failure(rel, s2::parse_paper(reply)),
                SourceError::Malformed(_)
            ));
        }
        "semanticscholar/paper_batch_full_fields_with_null.json" => {
            let slots = s2::parse_batch(reply, 4).expect("batch");
            assert!(slots[0].is_none());
            let w = slots[1].as_ref().expect("second slot");
            assert_eq!(
                w.title,
                "How Much Should We Trust Differences-in-Differences Estimates?"
            );
            assert_eq!(w.doi.as_deref(), Some("10.2139/ssrn.288970"));
            assert_eq!(families(w), ["Bertrand", "Duflo", "Mullainathan"]);
            assert_eq!(w.year, Some(2001));
            // `venue` is "" there: the journal name is used instead.
            assert_eq!(
                w.venue.as_deref(),
                Some("Experimental & Empirical Studies eJournal")
            );
            assert_eq!(
                w.oa_url.as_deref(),
                Some("http://papers.nber.org/papers/w8841.pdf")
            );
            assert!(
                w.abstract_text
                    .as_deref()
                    .unwrap()
                    .starts_with("Most Difference-in-Difference (DD) papers")
            );
            let third = slots[3].as_ref().unwrap();
            assert_eq!(
                (third.year, third.venue.as_deref(), third.oa_url.as_deref()),
                (Some(2023), None, None)
            );
            assert!(matches!(
                s2::parse_batch(reply, 3),
                Err(SourceError::Malformed(_))
            ));
        }
        "semanticscholar/paper_batch_authors.json" => {
            let slots = s2::parse_batch(reply, 3).expect("batch");
            assert!(slots.iter().all(Option::is_some));
            assert_eq!(
                families(slots[1].as_ref().unwrap()),
                ["Duflo", "Banerjee", "Glennerster", "Kinnan"]
            );
        }
        "semanticscholar/paper_search_match_title.json" => {
            let w = found(rel, s2::parse_match(reply));
            assert_eq!(
                w.title,
                "Mining association rules between sets of items in large databases"
            );
        }
        "semanticscholar/paper_search_turing.json" => {
            let works = list(rel, s2::parse_search(reply));
            assert_eq!(works.len(), 100);
            assert_eq!(works[4].title, "Neural Turing Machines");
        }
        "semanticscholar/paper_search_openaccesspdf.json" => {
            let works = list(rel, s2::parse_search(reply));
            assert_eq!(
                works[0].oa_url.as_deref(),
                Some("https://mededu.jmir.org/2023/1/e46939/PDF")
            );
        }
        "semanticscholar/paper_search_min_citation_count.json" => {
            assert_eq!(list(rel, s2::parse_search(reply)).len(), 70);
        }
        "semanticscholar/paper_search_zero_results.json" => {
            assert!(list(rel, s2::parse_search(reply)).is_empty());
        }
        // Lists of something other than papers must not pass for search results.
        "semanticscholar/paper_references_page1.json"
        | "semanticscholar/paper_references_page2.json"
        | "semanticscholar/paper_authors.json"
        | "semanticscholar/author_search.json"
        | "semanticscholar/snippet_search.json" => {
            assert!(matches!(
                failure(rel, s2::parse_search(reply)),
                SourceError::Malformed(_)
            ));
        }
        // -------------------------------------------------------------------- arXiv
        "arxiv/id_list_1605.08386.xml" | "arxiv/id_list_2104.12255v1.xml" => {
            let works = list(rel, arxiv::parse_feed(reply));
            assert_eq!(works.len(), 1);
            let w = &works[0];
            let id = if rel.contains("1605") {
                "1605.08386"
            } else {
                "2104.12255"
            };
            assert_eq!(w.arxiv.as_deref(), Some(id));
            assert_eq!(w.work_type.as_deref(), Some("preprint"));
            assert!(w.oa_url.as_deref().unwrap().contains("arxiv.org/pdf/"));
            if id == "2104.12255" {
                assert_eq!(w.title, "0");
                assert_eq!(
                    w.authors,
                    vec![Person::new(Some("Quan Thoi Minh"), "Nguyen")]
                );
                assert_eq!(w.year, Some(2021));
                assert!(
                    w.abstract_text
                        .as_deref()
                        .unwrap()
                        .starts_with("What is the funniest number in cryptography?")
                );
            }
        }
        "arxiv/id_list_astro-ph_0601001.xml" => {
            let w = &list(rel, arxiv::parse_feed(reply))[0];
            assert_eq!(w.arxiv.as_deref(), Some("astro-ph/0601001"));
            assert_eq!(
                w.title,
                "Frequency of Hot Jupiters and Very Hot Jupiters from the OGLE-III Transit Surveys Toward the Galactic Bulge and Carina"
            );
            assert_eq!(families(w), ["Gould", "Dorsher", "Gaudi", "Udalski"]);
            assert_eq!(w.year, Some(2006));
            assert_eq!(w.venue.as_deref(), Some("ActaAstron.56:1-50,2006"));
            assert_eq!(w.doi, None);
        }
        "arxiv/id_list_quant-ph_0201082v1.xml" => {
            let w = &list(rel, arxiv::parse_feed(reply))[0];
            assert_eq!(w.arxiv.as_deref(), Some("quant-ph/0201082"));
        }
        "arxiv/id_list_two_ids_one_missing.xml" => {
            let works = list(rel, arxiv::parse_feed(reply));
            assert_eq!(works.len(), 1);
            let w = &works[0];
            assert_eq!(w.arxiv.as_deref(), Some("1707.08567"));
            assert_eq!(w.authors.len(), 34);
            assert!(
                w.authors
                    .contains(&Person::new(Some("Joost"), "van der Putten"))
            );
            assert!(
                w.authors
                    .contains(&Person::new(Some("Peter H. N."), "de With"))
            );
            assert_eq!(w.venue.as_deref(), Some("arXiv"));
        }
        "arxiv/id_list_notfound_0808.05394.xml" | "arxiv/id_list_notfound_0000.0000.xml" => {
            assert!(list(rel, arxiv::parse_feed(reply)).is_empty());
        }
        "arxiv/id_list_400_malformed_abc.xml" => {
            let e = failure(rel, arxiv::parse_feed(reply));
            assert_eq!(e, SourceError::Api("incorrect id format for abc".into()));
        }
        "arxiv/search_query_testing_start0_max10.xml" => {
            let works = list(rel, arxiv::parse_feed(reply));
            assert_eq!(works.len(), 10);
            let with_doi: Vec<&Work> = works.iter().filter(|w| w.doi.is_some()).collect();
            assert!(
                with_doi
                    .iter()
                    .any(|w| w.doi.as_deref() == Some("10.1109/icstw55395.2022.00035"))
            );
            // A journal_ref is the venue; without one the venue is arXiv.
            let venues: Vec<bool> = works
                .iter()
                .map(|w| w.venue.as_deref() == Some("arXiv"))
                .collect();
            assert_eq!(
                venues,
                [
                    false, false, false, false, false, false, true, true, true, true
                ]
            );
        }
        "arxiv/search_query_testing_start10_max10.xml" => {
            assert_eq!(list(rel, arxiv::parse_feed(reply)).len(), 10);
        }
        _ => return false,
    }
    true
}
