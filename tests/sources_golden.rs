//! Every recorded API body in ../shared/data/api_responses goes through the parser of
//! the client that would receive it, with the status and content type it was recorded
//! with (index.jsonl), and must give the expected answer: found works with their exact
//! fields, not found, or a failure. Bodies from endpoints citeproof does not call go
//! through the parser of the nearest endpoint it does call and must fail rather than be
//! mistaken for a record. Our own bodies in fixtures/api are checked the same way.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use citeproof::model::{Person, Work};
use citeproof::net::HttpReply;
use citeproof::resolve::sources::{
    Lookup, LookupResult, SourceError, arxiv, crossref, datacite, doi, europepmc, openalex, pubmed,
    s2, unpaywall,
};

fn shared_dir() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/api_responses");
    dir.is_dir().then_some(dir)
}

fn fixture_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/api")
}

/// Status and content type per body file, from the index.jsonl files.
fn recorded_meta(dir: &Path) -> HashMap<String, (u16, Option<String>)> {
    let mut meta = HashMap::new();
    for sub in [
        "arxiv",
        "crossref",
        "doi_content_negotiation",
        "semanticscholar",
    ] {
        let index =
            std::fs::read_to_string(dir.join(sub).join("index.jsonl")).expect("index.jsonl");
        for line in index.lines().filter(|l| !l.trim().is_empty()) {
            let v: serde_json::Value = serde_json::from_str(line).expect("index line");
            let Some(file) = v["file"].as_str() else {
                continue;
            };
            let status = match &v["status"] {
                serde_json::Value::Number(n) => n.as_u64().unwrap() as u16,
                serde_json::Value::String(s) => s.parse().unwrap(),
                other => panic!("status {other}"),
            };
            let ct = v["content_type"].as_str().map(str::to_string);
            meta.insert(format!("{sub}/{file}"), (status, ct));
        }
    }
    meta
}

fn reply_for(dir: &Path, rel: &str, meta: &HashMap<String, (u16, Option<String>)>) -> HttpReply {
    let body = std::fs::read(dir.join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
    let (status, ct) = meta.get(rel).cloned().unwrap_or((200, None));
    HttpReply::new(status, ct.as_deref(), body)
}

fn found(rel: &str, r: LookupResult) -> Work {
    match r {
        Ok(Lookup::Found(w)) => w,
        other => panic!("{rel}: expected a found work, got {other:?}"),
    }
}

fn not_found(rel: &str, r: LookupResult) {
    assert_eq!(r, Ok(Lookup::NotFound), "{rel}: expected not found");
}

fn failure<T: std::fmt::Debug>(rel: &str, r: Result<T, SourceError>) -> SourceError {
    match r {
        Err(e) => e,
        Ok(v) => panic!("{rel}: expected a failure, got {v:?}"),
    }
}

fn list(rel: &str, r: Result<Vec<Work>, SourceError>) -> Vec<Work> {
    r.unwrap_or_else(|e| panic!("{rel}: expected a list, got {e:?}"))
}

fn families(w: &Work) -> Vec<&str> {
    w.authors.iter().map(|p| p.family.as_str()).collect()
}

/// Check one recorded body; `true` when the file has an expectation.
fn check_recorded(rel: &str, reply: &HttpReply) -> bool {
    match rel {
        // ---------------------------------------------------------------- Crossref
        "crossref/works_10.1371_journal.pone.0033693.json" => {
            let w = found(rel, crossref::parse_work(reply));
            assert_eq!(
                w.title,
                "Methylphenidate Exposure Induces Dopamine Neuron Loss and Activation of Microglia in the Basal Ganglia of Mice"
            );
            assert_eq!(w.doi.as_deref(), Some("10.1371/journal.pone.0033693"));
            assert_eq!(w.authors[0], Person::new(Some("Shankar"), "Sadasivan"));
            assert_eq!(w.authors[1], Person::new(Some("Brooks B."), "Pond"));
            assert_eq!(w.year, Some(2012));
            assert_eq!(w.venue.as_deref(), Some("PLoS ONE"));
            assert_eq!(w.work_type.as_deref(), Some("journal-article"));
            // Its `updated-by` is a correction: neither retracted nor of concern.
            assert!(!w.is_retracted && !w.has_concern);
        }
        "crossref/works_10.1136_jclinpath-2020-206745.json" => {
            let w = found(rel, crossref::parse_work(reply));
            assert_eq!(
                w.title,
                "Construction of a reference material panel for detecting KRAS / NRAS / EGFR / BRAF / MET mutations in plasma ctDNA"
            );
            assert_eq!(families(&w)[..3], ["Xu", "Qu", "Sun"]);
            assert_eq!(w.year, Some(2020));
            let abs = w.abstract_text.expect("JATS abstract");
            assert!(!abs.contains('<') && !abs.starts_with("Abstract"), "{abs}");
        }
        "crossref/works_10.1109_icdcsw.2003.1203662.json" => {
            let w = found(rel, crossref::parse_work(reply));
            assert_eq!(
                w.title,
                "Accurate and explicit differentiation of wireless and congestion losses"
            );
            assert_eq!(w.work_type.as_deref(), Some("proceedings-article"));
            assert_eq!(families(&w), ["Arya", "Turletti"]);
            // `issued` is [[null]] and there is no other publication date.
            assert_eq!(w.year, None);
            assert_eq!(
                w.venue.as_deref(),
                Some(
                    "23rd International Conference on Distributed Computing Systems Workshops, 2003. Proceedings."
                )
            );
        }
        "crossref/works_10.3892_ijo_00000353.json" => {
            let w = found(rel, crossref::parse_work(reply));
            assert_eq!(w.authors, vec![Person::new(None, "Stravopodis")]);
            assert_eq!(w.year, Some(2009));
        }
        "crossref/works_10.1038_nnano.2014.279.json" => {
            let w = found(rel, crossref::parse_work(reply));
            assert_eq!(w.title, "Charges ride the spin wave");
            assert_eq!(
                w.authors,
                vec![
                    Person::new(Some("Timo"), "Kuschel"),
                    Person::new(Some("Günter"), "Reiss")
                ]
            );
            assert_eq!(
                (w.year, w.venue.as_deref()),
                (Some(2014), Some("Nature Nanotechnology"))
            );
        }
        "crossref/works_10.1016_j.neurobiolaging.2010.03.024.json"
        | "crossref/works_10.1002_jor.1100150407.json"
        | "crossref/works_10.1038_srep16696.json" => {
            let w = found(rel, crossref::parse_work(reply));
            let expected_doi = rel
                .trim_start_matches("crossref/works_")
                .trim_end_matches(".json")
                .replacen('_', "/", 1);
            assert_eq!(w.doi.as_deref(), Some(expected_doi.as_str()));
            assert!(!w.title.is_empty() && !w.authors.is_empty() && w.year.is_some());
        }
        "crossref/works_notfound_10.1371_notarealdoi.txt"
        | "crossref/works_notfound_blblbl.txt"
        | "crossref/works_transform_unixsd_notfound_10.5284_1011335.txt" => {
            not_found(rel, crossref::parse_work(reply));
        }
        "crossref/works_search_query_ecology_rows2.json" => {
            let works = list(rel, crossref::parse_list(reply));
            let titles: Vec<&str> = works.iter().map(|w| w.title.as_str()).collect();
            assert_eq!(titles, ["Communicating Ecology", "Chemical Ecology"]);
        }
        "crossref/works_search_select_rows3.json" => {
            let works = list(rel, crossref::parse_list(reply));
            assert_eq!(works.len(), 3);
            assert_eq!(works[1].title, "Fire Ecology");
            assert_eq!(
                works[1].authors,
                vec![Person::new(Some("John"), "Parminter")]
            );
            assert_eq!(works[1].year, Some(2012));
            assert_eq!(
                works[0].doi.as_deref(),
                Some("10.1093/obo/9780199830060-0238")
            );
        }
        "crossref/works_search_query_author.json" => {
            let works = list(rel, crossref::parse_list(reply));
            assert_eq!(works.len(), 20);
            assert_eq!(works[0].title, "The forecast trap");
        }
        "crossref/works_search_filter_has_orcid_rows3.json" => {
            assert_eq!(list(rel, crossref::parse_list(reply)).len(), 3);
        }
        "crossref/works_search_zero_results_adfaaf.json" => {
            assert!(list(rel, crossref::parse_list(reply)).is_empty());
        }
        "crossref/works_400_validation_failure.json" => {
            let e = failure(rel, crossref::parse_work(reply));
            assert!(
                matches!(&e, SourceError::Status { status: 400, message } if message.contains("field query")),
                "{e:?}"
            );
        }
        "crossref/works_400_sample_too_large.json" | "crossref/works_404_bad_cursor.json" => {
            assert!(matches!(
                failure(rel, crossref::parse_list(reply)),
                SourceError::Status { .. }
            ));
        }
        "crossref/agency_10.1126_science.169.3946.635.json" => {
            assert_eq!(
                crossref::parse_agency(reply),
                Ok(Lookup::Found("crossref".into()))
            );
        }
        "crossref/agency_datacite_10.5284_1011335.json" => {
            assert_eq!(
                crossref::parse_agency(reply),
                Ok(Lookup::Found("datacite".into()))
            );
        }
        "crossref/agency_notfound_5.txt" => {
            assert_eq!(crossref::parse_agency(reply), Ok(Lookup::NotFound));
        }
        // The XML transform is not an endpoint citeproof reads: as JSON it is a failure.
        "crossref/works_transform_unixsd_10.1175_2572.1.xml" => {
            assert!(matches!(
                failure(rel, crossref::parse_work(reply)),
                SourceError::Malformed(_)
            ));
        }
        // ------------------------------------------------------- doi.org CSL-JSON
        "doi_content_negotiation/csljson_10.1126_science.169.3946.635.json" => {
            let w = found(rel, doi::parse_csl(reply));
            assert_eq!(w.title, "The Structure of Ordinary Water");
            assert_eq!(w.authors[0], Person::new(Some("Henry S."), "Frank"));
            assert_eq!(w.year, Some(1970));
            assert_eq!(w.venue.as_deref(), Some("Science"));
            assert_eq!(w.doi.as_deref(), Some("10.1126/science.169.3946.635"));
            assert!(
                w.abstract_text
                    .unwrap()
                    .starts_with("The train of thought pursued")
            );
        }
        // A 302 reaching the parser (redirects are followed by the client) is a failure.
        "doi_content_negotiation/doi.org_302_redirect_10.1126_science.169.3946.635.html.txt" => {
            assert!(matches!(
                failure(rel, doi::parse_csl(reply)),
                SourceError::Status { status: 302, .. }
            ));
        }
        // Other formats than the CSL-JSON asked for are failures, never records.
        "doi_content_negotiation/bibtex_10.1126_science.169.3946.635.bib"
        | "doi_content_negotiation/bibtex_v2_10.1126_science.169.3946.635.bib"
        | "doi_content_negotiation/bibtex_sici_doi_10.1890_0012-9615_1999_069_0569_EDILSA_2.0.CO_2.bib"
        | "doi_content_negotiation/crosscite_format_apa_10.5284_1011335.txt"
        | "doi_content_negotiation/medra_onix_10.1430_8105.xml"
        | "doi_content_negotiation/rdfxml_10.1126_science.169.3946.635.xml"
        | "doi_content_negotiation/text_bibliography_apa_10.1126_science.169.3946.635.txt"
        | "doi_content_negotiation/text_bibliography_ieee_10.1126_science.169.3946.635.txt"
        | "doi_content_negotiation/unixref_10.1126_science.169.3946.635.xml" => {
            assert!(matches!(
                failure(rel, doi::parse_csl(reply)),
                SourceError::Malformed(_)
            ));
        }
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
        // ------------------------------------------------------------------ PubMed
        "pubmed_eutils/efetch_pubmed_xml_pmid27797938_structured_abstract.xml" => {
            let works = list(rel, pubmed::parse_efetch(reply));
            assert_eq!(works.len(), 1);
            let w = &works[0];
            assert_eq!(w.pmid.as_deref(), Some("27797938"));
            assert_eq!(
                w.title,
                "Leucocyte telomere length, genetic variants at the TERT gene region and risk of pancreatic cancer."
            );
            assert_eq!(w.doi.as_deref(), Some("10.1136/gutjnl-2016-312510"));
            assert_eq!((w.year, w.venue.as_deref()), (Some(2017), Some("Gut")));
            let abs = w.abstract_text.as_deref().unwrap();
            assert!(
                abs.starts_with("OBJECTIVE: Telomere shortening") && abs.contains(" DESIGN: "),
                "{abs}"
            );
            assert!(!w.is_retracted && !w.has_concern);
        }
        "pubmed_eutils/efetch_pubmed_xml_pmid29963580.xml" => {
            let w = &list(rel, pubmed::parse_efetch(reply))[0];
            assert_eq!(w.doi.as_deref(), Some("10.1117/1.jmi.5.2.026002"));
            assert_eq!(w.pmcid.as_deref(), Some("PMC6022861"));
        }
        "pubmed_eutils/efetch_pubmed_xml_pmid30108519_not_medline.xml" => {
            let w = &list(rel, pubmed::parse_efetch(reply))[0];
            assert!(
                w.title
                    .starts_with("A \"Blood Relationship\" Between the Overlooked"),
                "{}",
                w.title
            );
        }
        "pubmed_eutils/efetch_pubmed_xml_pmid28775130_in_data_review.xml" => {
            assert_eq!(
                list(rel, pubmed::parse_efetch(reply))[0].pmid.as_deref(),
                Some("28775130")
            );
        }
        "pubmed_eutils/efetch_pubmed_xml_pmids_11748933_11700088.xml" => {
            let works = list(rel, pubmed::parse_efetch(reply));
            let pmids: Vec<_> = works.iter().map(|w| w.pmid.as_deref().unwrap()).collect();
            assert_eq!(pmids, ["11748933", "11700088"]);
            assert_eq!(
                works[1].authors.last(),
                Some(&Person::new(Some("F"), "De Luca"))
            );
            assert_eq!(works[1].doi.as_deref(), Some("10.1006/jmre.2001.2429"));
        }
        "pubmed_eutils/efetch_pubmed_xml_pmids_12091962_9997.xml" => {
            let works = list(rel, pubmed::parse_efetch(reply));
            assert_eq!(works[0].year, Some(1990)); // PubDate with a Season
            assert_eq!(
                works[0].authors,
                vec![Person::new(Some("J Michael"), "Olivero")]
            );
            assert_eq!(
                works[1].doi.as_deref(),
                Some("10.1016/0005-2795(76)90109-4")
            );
        }
        "pubmed_eutils/esearch_pubmed_basic.xml" => {
            let ids = pubmed::parse_esearch(reply).unwrap();
            assert_eq!((ids.len(), ids[0].as_str()), (20, "41282813"));
        }
        "pubmed_eutils/esearch_pubmed_zero_results_phrase_not_found.xml" => {
            assert_eq!(pubmed::parse_esearch(reply), Ok(vec![]));
        }
        "pubmed_eutils/esearch_pubmed_mesh_translation.xml"
        | "pubmed_eutils/esearch_pubmed_translationset_retstart.xml"
        | "pubmed_eutils/esearch_pubmed_usehistory_webenv.xml" => {
            assert!(!pubmed::parse_esearch(reply).unwrap().is_empty());
        }
        "pubmed_eutils/esummary_pubmed_docsum.xml" => {
            let works = list(rel, pubmed::parse_esummary(reply));
            assert_eq!(works.len(), 2);
            let w = &works[0];
            assert_eq!(
                w.title,
                "Zirconium granuloma following treatment of rhus dermatitis."
            );
            assert_eq!(
                w.authors,
                vec![
                    Person::new(Some("PJ"), "LoPresti"),
                    Person::new(Some("GW"), "Hambrick Jr")
                ]
            );
            assert_eq!(
                (w.year, w.venue.as_deref()),
                (Some(1965), Some("Archives of dermatology"))
            );
        }
        "pubmed_eutils/esummary_error_no_id.xml" => {
            let e = failure(rel, pubmed::parse_esummary(reply));
            assert_eq!(
                e,
                SourceError::Api("Neither query_key nor id specified".into())
            );
        }
        // Other E-utilities answers are not article sets.
        "pubmed_eutils/efetch_pmc_jats_8435807.xml"
        | "pubmed_eutils/elink_llinks_fulltext_urls.xml"
        | "pubmed_eutils/elink_pubmed_pubmed_neighbors.xml"
        | "pubmed_eutils/espell.xml" => {
            assert!(matches!(
                failure(rel, pubmed::parse_efetch(reply)),
                SourceError::Malformed(_)
            ));
        }
        // -------------------------------------------------------------- Europe PMC
        "europepmc/search_cancer_core.json" => {
            let works = list(rel, europepmc::parse_search(reply));
            assert_eq!(works.len(), 25);
            let w = &works[0];
            assert_eq!(
                w.title,
                "Abscopal response in a patient with fibrolamellar hepatocellular carcinoma following radiotherapy."
            );
            assert_eq!(w.authors[0], Person::new(Some("Jonathan D"), "Schoenfeld"));
            assert_eq!(
                (w.year, w.venue.as_deref()),
                (Some(2025), Some("Lancet (London, England)"))
            );
            assert_eq!(w.doi.as_deref(), Some("10.1016/s0140-6736(24)02600-x"));
            assert_eq!(w.pmid.as_deref(), Some("39709209"));
            assert_eq!(
                w.url.as_deref(),
                Some("https://europepmc.org/article/MED/39709209")
            );
            let abstracts = works.iter().filter(|w| w.abstract_text.is_some()).count();
            assert_eq!(abstracts, 21);
            assert!(works.iter().all(|w| {
                w.abstract_text
                    .as_deref()
                    .is_none_or(|a| !a.contains("<h4>"))
            }));
            assert!(works.iter().any(|w| {
                w.oa_url
                    .as_deref()
                    .is_some_and(|u| u.contains("pdf=render"))
            }));
        }
        "europepmc/search_cancer.json"
        | "europepmc/search_cancer_page2.json"
        | "europepmc/search_post_cancer.json" => {
            let works = list(rel, europepmc::parse_search(reply));
            assert!(!works.is_empty());
            // Lite results: authors from the Medline-style author string.
            assert!(!works[0].authors.is_empty());
            if rel.contains("post") {
                assert_eq!(works[0].pmcid.as_deref(), Some("PMC12062895"));
            }
        }
        "europepmc/search_cancer_idlist.json" => {
            let works = list(rel, europepmc::parse_search(reply));
            assert!(works.iter().all(|w| w.title.is_empty() && w.pmid.is_some()));
        }
        "europepmc/search_no_results.json" => {
            assert!(list(rel, europepmc::parse_search(reply)).is_empty());
        }
        "europepmc/search_cancer.xml" => {
            assert!(matches!(
                failure(rel, europepmc::parse_search(reply)),
                SourceError::Malformed(_)
            ));
        }
        // ---------------------------------------------------------------- OpenAlex
        "openalex/work_W2741809807.json" => {
            let w = found(rel, openalex::parse_work(reply));
            assert_eq!(
                w.title,
                "The state of OA: a large-scale analysis of the prevalence and impact of Open Access articles"
            );
            assert_eq!(w.doi.as_deref(), Some("10.7717/peerj.4375"));
            assert_eq!(w.authors[0], Person::new(Some("Heather"), "Piwowar"));
            assert_eq!((w.year, w.venue.as_deref()), (Some(2018), Some("PeerJ")));
            assert_eq!(w.pmid.as_deref(), Some("29456894"));
            assert_eq!(w.pmcid.as_deref(), Some("PMC5815332"));
            assert_eq!(
                w.oa_url.as_deref(),
                Some("https://peerj.com/articles/4375.pdf")
            );
            assert!(w.abstract_text.as_deref().unwrap().starts_with(
                "Despite growing interest in Open Access (OA) to scholarly literature,"
            ));
            assert!(!w.is_retracted);
        }
        "openalex/source_S137773608.json" => {
            assert!(matches!(
                failure(rel, openalex::parse_work(reply)),
                SourceError::Malformed(_)
            ));
        }
        _ => return false,
    }
    true
}

#[test]
fn every_recorded_body_parses_with_its_client() {
    let Some(dir) = shared_dir() else {
        eprintln!("skipping: recorded API bodies (../shared absent)");
        return;
    };
    let meta = recorded_meta(&dir);
    let mut missing = BTreeSet::new();
    let mut checked = 0;
    for sub in std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .filter(|e| e.path().is_dir())
    {
        for file in std::fs::read_dir(sub.path()).unwrap().flatten() {
            let name = file.file_name().to_string_lossy().into_owned();
            if name == "index.jsonl" {
                continue;
            }
            let rel = format!("{}/{name}", sub.file_name().to_string_lossy());
            let reply = reply_for(&dir, &rel, &meta);
            if check_recorded(&rel, &reply) {
                checked += 1;
            } else {
                missing.insert(rel);
            }
        }
    }
    assert!(
        missing.is_empty(),
        "recorded bodies without an expectation: {missing:?}"
    );
    assert!(checked >= 90, "only {checked} bodies checked");
}

#[test]
fn index_statuses_are_the_ones_checked() {
    // The expectations above rely on the recorded statuses; make sure they are read.
    let Some(dir) = shared_dir() else {
        eprintln!("skipping: recorded API bodies (../shared absent)");
        return;
    };
    let meta = recorded_meta(&dir);
    assert_eq!(
        meta["crossref/works_notfound_10.1371_notarealdoi.txt"].0,
        404
    );
    assert_eq!(meta["arxiv/id_list_400_malformed_abc.xml"].0, 400);
    assert_eq!(meta["semanticscholar/paper_404_notfound.json"].0, 404);
}

fn fixture(rel: &str, status: u16) -> HttpReply {
    let body = std::fs::read(fixture_dir().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
    HttpReply::new(status, Some("application/json"), body)
}

#[test]
fn datacite_fixture_bodies() {
    let rel = "datacite/dois_10.48550_arxiv.1706.03762.json";
    let w = found(rel, datacite::parse_doi(&fixture(rel, 200)));
    assert_eq!(w.title, "Attention Is All You Need");
    assert_eq!(w.doi.as_deref(), Some("10.48550/arxiv.1706.03762"));
    assert_eq!(w.arxiv.as_deref(), Some("1706.03762"));
    assert_eq!(w.authors[0], Person::new(Some("Ashish"), "Vaswani"));
    assert_eq!((w.year, w.venue.as_deref()), (Some(2017), Some("arXiv")));
    assert_eq!(w.work_type.as_deref(), Some("Preprint"));
    assert!(
        w.abstract_text
            .as_deref()
            .unwrap()
            .starts_with("Abbreviated abstract")
    );
    not_found(
        "datacite/dois_404.json",
        datacite::parse_doi(&fixture("datacite/dois_404.json", 404)),
    );
    let html = HttpReply::new(
        404,
        Some("text/html"),
        "<!DOCTYPE html><html><body>Not Found</body></html>",
    );
    assert!(matches!(
        datacite::parse_doi(&html),
        Err(SourceError::Status { status: 404, .. })
    ));
}

#[test]
fn unpaywall_fixture_bodies() {
    let rel = "unpaywall/v2_10.7717_peerj.4375.json";
    let w = found(rel, unpaywall::parse(&fixture(rel, 200)));
    assert_eq!(
        w.oa_url.as_deref(),
        Some("https://peerj.com/articles/4375.pdf")
    );
    assert_eq!(w.authors[2], Person::new(Some("Vincent"), "Larivière"));
    assert_eq!((w.year, w.venue.as_deref()), (Some(2018), Some("PeerJ")));
    not_found(
        "unpaywall/v2_404.json",
        unpaywall::parse(&fixture("unpaywall/v2_404.json", 404)),
    );
}

#[test]
fn crossref_retraction_fixture_bodies() {
    let rel = "crossref/works_10.5555_retracted.json";
    let w = found(rel, crossref::parse_work(&fixture(rel, 200)));
    assert!(w.is_retracted, "Retraction Watch updated-by");
    assert!(w.has_concern, "expression of concern");
    assert_eq!(w.doi.as_deref(), Some("10.5555/retracted-example"));
    assert_eq!(
        w.authors,
        vec![
            Person::new(Some("Ana"), "de la Cruz"),
            Person::new(None, "Example Consortium")
        ]
    );
    assert_eq!(
        w.url.as_deref(),
        Some("https://example.org/articles/retracted-example")
    );
    assert_eq!(
        w.abstract_text.as_deref(),
        Some("We report results that were later withdrawn.")
    );
    let rel = "crossref/works_filter_doi_notice.json";
    let works = crossref::parse_list(&fixture(rel, 200)).unwrap();
    assert!(
        works[0].is_retracted,
        "retracted by the notice in the same answer"
    );
    assert!(!works[1].is_retracted, "the notice itself is not retracted");
}

#[test]
fn openalex_list_fixture_body() {
    let rel = "openalex/works_filter_doi.json";
    let works = openalex::parse_list(&fixture(rel, 200)).unwrap();
    assert_eq!(works.len(), 2);
    assert_eq!(
        works[0].abstract_text.as_deref(),
        Some("Despite growing interest in Open Access")
    );
    assert_eq!(works[1].doi.as_deref(), Some("10.1088/1741-2552/ac4430"));
    assert!(works[1].is_retracted);
    assert_eq!(works[1].authors[0], Person::new(Some("F."), "Mattioli"));
    assert_eq!(
        works[1].venue.as_deref(),
        Some("Journal of Neural Engineering")
    );
}

#[test]
fn html_error_pages_with_status_200_are_failures_everywhere() {
    let page = HttpReply::new(
        200,
        Some("text/html"),
        "<!DOCTYPE html><html><body>Service Unavailable</body></html>",
    );
    assert!(matches!(
        crossref::parse_work(&page),
        Err(SourceError::Malformed(_))
    ));
    assert!(matches!(
        crossref::parse_list(&page),
        Err(SourceError::Malformed(_))
    ));
    assert!(matches!(
        openalex::parse_work(&page),
        Err(SourceError::Malformed(_))
    ));
    assert!(matches!(
        s2::parse_batch(&page, 1),
        Err(SourceError::Malformed(_))
    ));
    assert!(matches!(
        arxiv::parse_feed(&page),
        Err(SourceError::Malformed(_))
    ));
    assert!(matches!(
        pubmed::parse_efetch(&page),
        Err(SourceError::Malformed(_))
    ));
    assert!(matches!(
        europepmc::parse_search(&page),
        Err(SourceError::Malformed(_))
    ));
    assert!(matches!(
        datacite::parse_doi(&page),
        Err(SourceError::Malformed(_))
    ));
    assert!(matches!(
        unpaywall::parse(&page),
        Err(SourceError::Malformed(_))
    ));
    // doi.org: a page instead of CSL-JSON means the DOI resolves without metadata.
    assert!(matches!(
        doi::parse_csl(&page),
        Err(SourceError::NoMetadata { .. })
    ));
}

#[test]
fn truncated_bodies_are_failures() {
    let Some(dir) = shared_dir() else {
        eprintln!("skipping: recorded API bodies (../shared absent)");
        return;
    };
    let cut = |rel: &str| {
        let body = std::fs::read(dir.join(rel)).unwrap();
        HttpReply::new(200, None, body[..body.len() / 2].to_vec())
    };
    assert!(matches!(
        crossref::parse_work(&cut("crossref/works_10.1038_srep16696.json")),
        Err(SourceError::Malformed(_))
    ));
    assert!(matches!(
        arxiv::parse_feed(&cut("arxiv/id_list_1605.08386.xml")),
        Err(SourceError::Malformed(_))
    ));
    assert!(matches!(
        pubmed::parse_efetch(&cut(
            "pubmed_eutils/efetch_pubmed_xml_pmids_12091962_9997.xml"
        )),
        Err(SourceError::Malformed(_))
    ));
    assert!(matches!(
        s2::parse_batch(&cut("semanticscholar/paper_batch_authors.json"), 3),
        Err(SourceError::Malformed(_))
    ));
}
