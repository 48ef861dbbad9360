//! Crossref and doi.org content negotiation.

use citeproof::model::Person;
use citeproof::net::HttpReply;
use citeproof::resolve::sources::{Lookup, SourceError, crossref, doi};

use super::{failure, families, found, list, not_found};

/// `true` when the file has an expectation here.
pub fn check(rel: &str, reply: &HttpReply) -> bool {
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
        _ => return false,
    }
    true
}
