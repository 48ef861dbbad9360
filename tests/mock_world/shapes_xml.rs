//! Atom and XML bodies parsed with quick-xml and compared, element path by element path, with
//! the recorded bodies in ../shared/data/api_responses.

use std::collections::BTreeSet;

use crate::helpers::{assert_shape, get, recorded_text, shared_absent, xml_paths};
use crate::support::{MockConfig, MockWorld, Source};

fn recorded_xml(files: &[&str]) -> Vec<BTreeSet<String>> {
    files
        .iter()
        .map(|f| xml_paths(&recorded_text(f).expect("recorded body")))
        .collect()
}

#[tokio::test]
async fn arxiv_feeds_match_recorded_structure() {
    let world = MockWorld::start(MockConfig::fixtures());
    let found = get(
        &world,
        Source::Arxiv,
        "/api/query?id_list=1512.03385,2106.03010,2303.18223&max_results=10",
    )
    .await;
    assert_eq!(
        (found.status, found.content_type.as_str()),
        (200, "application/atom+xml")
    );
    let found_paths = xml_paths(&found.body);
    assert!(
        found
            .body
            .contains("<opensearch:totalResults>3</opensearch:totalResults>")
    );
    let unknown = get(&world, Source::Arxiv, "/api/query?id_list=0000.0000").await;
    assert_eq!(unknown.status, 200);
    assert!(
        unknown
            .body
            .contains("<opensearch:totalResults>0</opensearch:totalResults>")
    );
    assert!(!unknown.body.contains("<entry>"));
    let malformed = get(&world, Source::Arxiv, "/api/query?id_list=abc").await;
    assert_eq!(malformed.status, 400);
    assert!(malformed.body.contains("incorrect id format for abc"));
    if shared_absent("arXiv feed structure comparison") {
        return;
    }
    let recorded = recorded_xml(&[
        "arxiv/id_list_1605.08386.xml",
        "arxiv/id_list_2104.12255v1.xml",
        "arxiv/id_list_astro-ph_0601001.xml",
        "arxiv/id_list_quant-ph_0201082v1.xml",
        "arxiv/id_list_two_ids_one_missing.xml",
        "arxiv/search_query_testing_start0_max10.xml",
    ]);
    // The mock has no subject categories (the world records none), so `category` and
    // `arxiv:primary_category` are the recorded elements it may lack.
    let mut required: Vec<BTreeSet<String>> = recorded.clone();
    for r in &mut required {
        r.retain(|p| !p.contains("category") && !p.contains("arxiv:comment"));
    }
    let union: BTreeSet<String> = recorded.iter().flatten().cloned().collect();
    assert_shape(
        "arXiv id_list feed",
        &found_paths,
        &[union.clone(), required[0].clone()],
        &[],
        &[],
    );
    let notfound = recorded_xml(&["arxiv/id_list_notfound_0000.0000.xml"]);
    assert_eq!(xml_paths(&unknown.body), notfound[0]);
    let error = recorded_xml(&["arxiv/id_list_400_malformed_abc.xml"]);
    assert_eq!(xml_paths(&malformed.body), error[0]);
    assert_eq!(
        malformed.body.replace("2026-04-12T22:10:19Z", "X"),
        recorded_text("arxiv/id_list_400_malformed_abc.xml")
            .unwrap()
            .replace("2026-04-12T22:59:06Z", "X")
    );
}

#[tokio::test]
async fn pubmed_bodies_match_recorded_structure() {
    let world = MockWorld::start(MockConfig::fixtures());
    let fetch = get(
        &world,
        Source::Pubmed,
        "/entrez/eutils/efetch.fcgi?db=pubmed&id=34920443,27797938,29963580,35609191&retmode=xml",
    )
    .await;
    assert_eq!(fetch.status, 200);
    let fetch_paths = xml_paths(&fetch.body);
    let search = get(
        &world,
        Source::Pubmed,
        "/entrez/eutils/esearch.fcgi?db=pubmed&term=%2210.1117/1.jmi.5.2.026002%22%5Bdoi%5D",
    )
    .await;
    let search_paths = xml_paths(&search.body);
    let none = get(
        &world,
        Source::Pubmed,
        "/entrez/eutils/esearch.fcgi?db=pubmed&term=zzqxv%5Bti%5D",
    )
    .await;
    let summary = get(
        &world,
        Source::Pubmed,
        "/entrez/eutils/esummary.fcgi?db=pubmed&id=34920443,11482001",
    )
    .await;
    let no_id = get(
        &world,
        Source::Pubmed,
        "/entrez/eutils/esummary.fcgi?db=pubmed",
    )
    .await;
    if shared_absent("PubMed structure comparison") {
        return;
    }
    let recorded = recorded_xml(&[
        "pubmed_eutils/efetch_pubmed_xml_pmid29963580.xml",
        "pubmed_eutils/efetch_pubmed_xml_pmid27797938_structured_abstract.xml",
        "pubmed_eutils/efetch_pubmed_xml_pmid28775130_in_data_review.xml",
        "pubmed_eutils/efetch_pubmed_xml_pmid30108519_not_medline.xml",
        "pubmed_eutils/efetch_pubmed_xml_pmids_11748933_11700088.xml",
        "pubmed_eutils/efetch_pubmed_xml_pmids_12091962_9997.xml",
    ]);
    // The world records no ISSN, volume, pages or NLM journal ids.
    let article = "PubmedArticleSet/PubmedArticle/MedlineCitation";
    let no_data: Vec<String> = [
        "Article/Journal/ISSN",
        "Article/Journal/JournalIssue/Volume",
        "Article/Pagination",
        "MedlineJournalInfo/Country",
        "MedlineJournalInfo/ISSNLinking",
        "MedlineJournalInfo/NlmUniqueID",
    ]
    .iter()
    .map(|p| format!("{article}/{p}"))
    .collect();
    let no_data: Vec<&str> = no_data.iter().map(String::as_str).collect();
    assert_shape(
        "efetch PubmedArticleSet",
        &fetch_paths,
        &recorded,
        &[],
        &no_data,
    );
    let recorded = recorded_xml(&["pubmed_eutils/esearch_pubmed_basic.xml"]);
    assert_shape("esearch", &search_paths, &recorded, &[], &[]);
    let recorded =
        recorded_xml(&["pubmed_eutils/esearch_pubmed_zero_results_phrase_not_found.xml"]);
    assert_eq!(xml_paths(&none.body), recorded[0]);
    let recorded = recorded_xml(&["pubmed_eutils/esummary_pubmed_docsum.xml"]);
    assert_shape(
        "esummary DocSum",
        &xml_paths(&summary.body),
        &recorded,
        &[],
        &[],
    );
    assert_eq!(
        no_id.body,
        recorded_text("pubmed_eutils/esummary_error_no_id.xml").unwrap()
    );
}

#[tokio::test]
async fn europepmc_xml_and_jats_parse() {
    let world = MockWorld::start(MockConfig::fixtures());
    let xml = get(&world, Source::EuropePmc, "/webservices/rest/search?query=PMCID:PMC12175096%20OR%20EXT_ID:39038316%20OR%20EXT_ID:35609191&resultType=lite&pageSize=2").await;
    assert_eq!(xml.status, 200);
    let paths = xml_paths(&xml.body);
    assert!(paths.contains("responseWrapper/resultList/result/title"));
    let pmc = get(
        &world,
        Source::Pubmed,
        "/entrez/eutils/efetch.fcgi?db=pmc&id=9191771",
    )
    .await;
    let pmc_paths = xml_paths(&pmc.body);
    assert!(
        pmc_paths.contains("pmc-articleset/article/front/article-meta/title-group/article-title")
    );
    if shared_absent("Europe PMC XML / PMC JATS structure comparison") {
        return;
    }
    let recorded = recorded_xml(&["europepmc/search_cancer.xml"]);
    let no_data: Vec<String> = [
        "issue",
        "journalVolume",
        "journalIssn",
        "pageInfo",
        "tmAccessionTypeList",
    ]
    .iter()
    .map(|p| format!("responseWrapper/resultList/result/{p}"))
    .collect();
    let no_data: Vec<&str> = no_data.iter().map(String::as_str).collect();
    assert_shape("europepmc XML lite", &paths, &recorded, &[], &no_data);
    // The recorded PMC article is an author correction without contributors or abstract; the
    // JATS elements for those follow the JATS tag library.
    let recorded = recorded_xml(&["pubmed_eutils/efetch_pmc_jats_8435807.xml"]);
    let jats_extras: Vec<String> = [
        "contrib-group",
        "contrib-group/contrib",
        "contrib-group/contrib@contrib-type",
        "contrib-group/contrib/name",
        "contrib-group/contrib/name/surname",
        "contrib-group/contrib/name/given-names",
        "contrib-group/contrib/collab",
        "abstract",
        "abstract/p",
    ]
    .iter()
    .map(|p| format!("pmc-articleset/article/front/article-meta/{p}"))
    .collect();
    let extras: Vec<&str> = jats_extras.iter().map(String::as_str).collect();
    // What the world does not hold: PMC processing metadata, licences, categories, versions,
    // volume/issue/elocation, journal ids and ISSNs, publisher, full dates, and (for this
    // work) a body.
    let no_data: Vec<String> = [
        "processing-meta",
        "body",
        "front/journal-meta/issn",
        "front/journal-meta/journal-id",
        "front/journal-meta/publisher",
        "front/article-meta/article-categories",
        "front/article-meta/article-version",
        "front/article-meta/elocation-id",
        "front/article-meta/issue",
        "front/article-meta/volume",
        "front/article-meta/permissions",
        "front/article-meta/related-article",
        "front/article-meta/pub-date/day",
        "front/article-meta/pub-date/month",
        "front/article-meta/title-group/article-title/italic",
    ]
    .iter()
    .map(|p| format!("pmc-articleset/article/{p}"))
    .collect();
    let no_data: Vec<&str> = no_data.iter().map(String::as_str).collect();
    assert_shape("PMC JATS", &pmc_paths, &recorded, &extras, &no_data);
}
