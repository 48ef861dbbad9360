//! PubMed E-utilities, Europe PMC and OpenAlex.

use citeproof::model::Person;
use citeproof::net::HttpReply;
use citeproof::resolve::sources::{SourceError, europepmc, openalex, pubmed};

use super::{failure, found, list};

/// `true` when the file has an expectation here.
pub fn check(rel: &str, reply: &HttpReply) -> bool {
    match rel {
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
