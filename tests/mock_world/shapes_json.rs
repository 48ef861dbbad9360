//! JSON bodies of every JSON route compared, key path by key path, with the recorded bodies
//! in ../shared/data/api_responses. Extras allowed beyond the recorded keys are listed with
//! the documentation they come from.

use std::collections::BTreeSet;

use crate::helpers::{assert_shape, get, key_paths, recorded_json, shared_absent};
use crate::support::{MockConfig, MockWorld, Source};

const CROSSREF_DOIS: &[&str] = &[
    "10.1088/1741-2552/ac4430",   // retracted (Retraction Watch)
    "10.1038/s41467-025-63038-5", // expression of concern (constructed fixture)
    "10.3390/a4040307",           // abstract from Crossref
    "10.1109/cvpr.2016.90",       // proceedings article
    "10.1073/pnas.2205971119",
];

/// Crossref REST API documentation: organisation contributors carry `name`; posted content
/// carries `subtype`; Retraction Watch updates carry `record-id`.
const CROSSREF_EXTRAS: &[&str] = &["author[].name", "subtype", "updated-by[].record-id"];

/// Recorded OpenAlex fields whose data the world lacks (served as null or empty lists):
/// APCs, affiliations, citation percentiles, concepts, topics, keywords, yearly counts,
/// MAG ids, full-text provenance.
const OPENALEX_NO_DATA: &[&str] = &[
    "apc_list",
    "apc_paid",
    "authorships[].affiliations[]",
    "authorships[].institutions[]",
    "citation_normalized_percentile",
    "cited_by_percentile_year",
    "concepts[]",
    "counts_by_year[]",
    "fulltext_origin",
    "ids.mag",
    "keywords[]",
    "primary_topic",
    "topics[]",
];

/// Recorded Europe PMC fields whose data the world lacks: issue, volume, pages, ISSNs,
/// text-mined accession numbers, affiliations, author ids, MeSH, chemicals, grants, keywords,
/// PMIDs of correction notices.
const EUROPEPMC_NO_DATA: &[&str] = &[
    "resultList.result[].issue",
    "resultList.result[].journalVolume",
    "resultList.result[].journalIssn",
    "resultList.result[].pageInfo",
    "resultList.result[].tmAccessionTypeList",
    "resultList.result[].journalInfo.issue",
    "resultList.result[].journalInfo.volume",
    "resultList.result[].journalInfo.journalIssueId",
    "resultList.result[].journalInfo.monthOfPublication",
    "resultList.result[].journalInfo.printPublicationDate",
    "resultList.result[].journalInfo.journal.nlmid",
    "resultList.result[].journalInfo.journal.issn",
    "resultList.result[].journalInfo.journal.essn",
    "resultList.result[].authorList.author[].authorAffiliationDetailsList",
    "resultList.result[].affiliation",
    "resultList.result[].subsetList",
    "resultList.result[].hasData",
    "resultList.result[].hasEvaluations",
    "resultList.result[].authMan",
    "resultList.result[].epmcAuthMan",
    "resultList.result[].nihAuthMan",
    "resultList.result[].dateOfCreation",
    "resultList.result[].dateOfRevision",
    "resultList.result[].authorIdList",
    "resultList.result[].authorList.author[].authorId",
    "resultList.result[].chemicalList",
    "resultList.result[].dataLinksTagsList",
    "resultList.result[].dateOfCompletion",
    "resultList.result[].electronicPublicationDate",
    "resultList.result[].fullTextReceivedDate",
    "resultList.result[].grantsList",
    "resultList.result[].keywordList",
    "resultList.result[].license",
    "resultList.result[].manuscriptId",
    "resultList.result[].meshHeadingList",
    "resultList.result[].commentCorrectionList.commentCorrection[].id",
];

fn prefixed(prefix: &str, keys: &[&str]) -> Vec<String> {
    keys.iter().map(|k| format!("{prefix}{k}")).collect()
}

fn recorded_paths(files: &[&str]) -> Vec<BTreeSet<String>> {
    files
        .iter()
        .map(|f| key_paths(&recorded_json(f).expect("recorded body")))
        .collect()
}

#[tokio::test]
async fn crossref_work_and_list_match_recorded_keys() {
    if shared_absent("Crossref shape comparison") {
        return;
    }
    let world = MockWorld::start(MockConfig::fixtures());
    let mut mock = BTreeSet::new();
    for doi in CROSSREF_DOIS {
        let reply = get(&world, Source::Crossref, &format!("/works/{doi}")).await;
        assert_eq!(reply.status, 200, "{doi}");
        mock.extend(key_paths(&reply.json()));
    }
    let work_recorded = recorded_paths(&[
        "crossref/works_10.1371_journal.pone.0033693.json",
        "crossref/works_10.1016_j.neurobiolaging.2010.03.024.json",
        "crossref/works_10.1002_jor.1100150407.json",
        "crossref/works_10.1038_srep16696.json",
        "crossref/works_10.1109_icdcsw.2003.1203662.json",
        "crossref/works_10.3892_ijo_00000353.json",
        "crossref/works_10.1136_jclinpath-2020-206745.json",
        "crossref/works_10.1038_nnano.2014.279.json",
    ]);
    let extras = prefixed("message.", CROSSREF_EXTRAS);
    let extras: Vec<&str> = extras.iter().map(String::as_str).collect();
    assert_shape("crossref /works/{doi}", &mock, &work_recorded, &extras, &[]);

    let reply = get(
        &world,
        Source::Crossref,
        "/works?query.bibliographic=deep+learning+survey&rows=5",
    )
    .await;
    let list = key_paths(&reply.json());
    let recorded = recorded_paths(&[
        "crossref/works_search_query_ecology_rows2.json",
        "crossref/works_search_filter_has_orcid_rows3.json",
        "crossref/works_search_query_author.json",
    ]);
    // Items are work objects: any key of a recorded single work may occur in an item.
    let mut extras = prefixed("message.items[].", CROSSREF_EXTRAS);
    for work in &work_recorded {
        extras.extend(
            work.iter()
                .filter_map(|k| k.strip_prefix("message."))
                .map(|k| format!("message.items[].{k}")),
        );
    }
    let extras: Vec<&str> = extras.iter().map(String::as_str).collect();
    assert_shape("crossref /works?query", &list, &recorded, &extras, &[]);

    let empty = get(
        &world,
        Source::Crossref,
        "/works?query.bibliographic=zzqxv+wvkjq",
    )
    .await
    .json();
    let zero = recorded_json("crossref/works_search_zero_results_adfaaf.json").unwrap();
    assert_eq!(key_paths(&empty), key_paths(&zero), "zero-result work-list");
    assert_eq!(empty["message"]["total-results"], 0);
}

#[tokio::test]
async fn crossref_errors_match_recorded_bodies() {
    let world = MockWorld::start(MockConfig::fixtures());
    let missing = get(&world, Source::Crossref, "/works/10.1371/notarealdoi").await;
    assert_eq!(
        (
            missing.status,
            missing.content_type.as_str(),
            missing.body.as_str()
        ),
        (404, "text/plain", "Resource not found.")
    );
    // A DataCite DOI is not Crossref's.
    assert_eq!(
        get(&world, Source::Crossref, "/works/10.48550/arxiv.2303.18223")
            .await
            .status,
        404
    );
    let field_query = get(
        &world,
        Source::Crossref,
        "/works/10.1109/cvpr.2016.90?query.author=he",
    )
    .await;
    assert_eq!(field_query.status, 400);
    let bad_filter = get(&world, Source::Crossref, "/works?filter=no-such-filter:1").await;
    assert_eq!(bad_filter.status, 400);
    if shared_absent("Crossref error body comparison") {
        return;
    }
    let recorded = recorded_json("crossref/works_400_validation_failure.json").unwrap();
    assert_eq!(field_query.json(), recorded, "validation failure body");
    assert_eq!(key_paths(&bad_filter.json()), key_paths(&recorded));
}

#[tokio::test]
async fn openalex_work_matches_recorded_keys() {
    if shared_absent("OpenAlex shape comparison") {
        return;
    }
    let world = MockWorld::start(MockConfig::fixtures());
    let mut mock = BTreeSet::new();
    for key in [
        "doi:10.1088/1741-2552/ac4430",
        "https://doi.org/10.48550/arxiv.2303.18223",
        "pmid:18263627",
        "W2194775991",
        "pmcid:PMC12461897",
    ] {
        let reply = get(&world, Source::OpenAlex, &format!("/works/{key}")).await;
        assert_eq!(reply.status, 200, "{key}");
        mock.extend(key_paths(&reply.json()));
    }
    let recorded = recorded_paths(&["openalex/work_W2741809807.json"]);
    assert_shape(
        "openalex /works/{id}",
        &mock,
        &recorded,
        &[],
        OPENALEX_NO_DATA,
    );

    // Lists: `meta`/`results`/`group_by` as documented; each result is a work object plus
    // `relevance_score` when searching.
    let list = get(
        &world,
        Source::OpenAlex,
        "/works?search=telomere+pancreatic+cancer&per-page=3",
    )
    .await
    .json();
    let meta: BTreeSet<String> = list["meta"].as_object().unwrap().keys().cloned().collect();
    let expected: BTreeSet<String> = [
        "count",
        "db_response_time_ms",
        "page",
        "per_page",
        "groups_count",
    ]
    .into_iter()
    .map(String::from)
    .collect();
    assert_eq!(meta, expected);
    let mut results = BTreeSet::new();
    for r in list["results"].as_array().unwrap() {
        results.extend(key_paths(r));
    }
    assert!(results.contains("relevance_score"));
    assert_shape(
        "openalex search results",
        &results,
        &recorded,
        // `is_authors_truncated` is documented (lists cut authorships at 100) and
        // appears only on such works.
        &["relevance_score", "is_authors_truncated"],
        OPENALEX_NO_DATA,
    );
}

#[tokio::test]
async fn s2_bodies_match_recorded_keys() {
    if shared_absent("Semantic Scholar shape comparison") {
        return;
    }
    let world = MockWorld::start(MockConfig::fixtures());
    let title_only = get(
        &world,
        Source::S2,
        "/graph/v1/paper/DOI:10.1109/cvpr.2016.90?fields=title",
    )
    .await
    .json();
    let recorded =
        recorded_json("semanticscholar/paper_10.1093_mind_lix.236.433_fields_title.json").unwrap();
    assert_eq!(key_paths(&title_only), key_paths(&recorded));

    let fields = "abstract,authors,citationCount,citationStyles,corpusId,externalIds,fieldsOfStudy,influentialCitationCount,isOpenAccess,journal,openAccessPdf,paperId,publicationDate,publicationTypes,publicationVenue,referenceCount,s2FieldsOfStudy,title,url,venue,year";
    let batch = crate::helpers::send(
        crate::helpers::client()
            .post(format!("{}/graph/v1/paper/batch?fields={fields}", world.base_url(Source::S2)))
            .json(&serde_json::json!({"ids": ["DOI:10.0000/none", "ARXIV:2303.18223", "PMID:35609191", "DOI:10.1109/cvpr.2016.90"]})),
    )
    .await
    .json();
    assert!(batch[0].is_null(), "unknown id gives a null slot");
    let recorded_batch =
        recorded_json("semanticscholar/paper_batch_full_fields_with_null.json").unwrap();
    // Semantic Scholar Graph API documentation: externalIds also carries ArXiv, PubMed,
    // PubMedCentral and DBLP (the recorded papers only have DOI/MAG).
    let extras = [
        "[].externalIds.ArXiv",
        "[].externalIds.PubMed",
        "[].externalIds.PubMedCentral",
        "[].externalIds.DBLP",
    ];
    // The world records no MAG ids and no fields of study.
    let no_data = ["[].externalIds.MAG", "[].s2FieldsOfStudy[]"];
    assert_shape(
        "s2 batch",
        &key_paths(&batch),
        &[key_paths(&recorded_batch)],
        &extras,
        &no_data,
    );

    let search = get(
        &world,
        Source::S2,
        "/graph/v1/paper/search?query=language+models&fields=title&limit=2",
    )
    .await
    .json();
    let recorded_search = recorded_json("semanticscholar/paper_search_turing.json").unwrap();
    assert_eq!(key_paths(&search), key_paths(&recorded_search));
    let none = get(
        &world,
        Source::S2,
        "/graph/v1/paper/search?query=zzqxv+wvkjq",
    )
    .await
    .json();
    assert_eq!(
        none,
        recorded_json("semanticscholar/paper_search_zero_results.json").unwrap()
    );

    let matched = get(&world, Source::S2, "/graph/v1/paper/search/match?query=deep+residual+learning+for+image+recognition&fields=title").await.json();
    let recorded_match = recorded_json("semanticscholar/paper_search_match_title.json").unwrap();
    assert_eq!(key_paths(&matched), key_paths(&recorded_match));

    let missing = get(&world, Source::S2, "/graph/v1/paper/0?fields=title").await;
    assert_eq!(missing.status, 404);
    assert_eq!(
        missing.json(),
        recorded_json("semanticscholar/paper_404_notfound.json").unwrap()
    );
    let bad = get(
        &world,
        Source::S2,
        "/graph/v1/paper/DOI:10.1109/cvpr.2016.90?fields=unknown",
    )
    .await;
    assert_eq!(bad.status, 400);
    assert_eq!(
        bad.json(),
        recorded_json("semanticscholar/paper_400_bad_fields.json").unwrap()
    );
}

#[tokio::test]
async fn europepmc_bodies_match_recorded_keys() {
    if shared_absent("Europe PMC shape comparison") {
        return;
    }
    let world = MockWorld::start(MockConfig::fixtures());
    // A PubMed-only record, an open-access PMC article, a retracted work (first page of 3)
    // and another retracted work (second page, so that a next cursor is announced).
    let query = "/webservices/rest/search?query=EXT_ID:34920443%20OR%20PMCID:PMC12175096%20OR%20EXT_ID:39038316%20OR%20EXT_ID:35039756&format=json&resultType=";
    for (result_type, file, extras) in [
        ("lite", "europepmc/search_cancer.json", &[][..]),
        // Europe PMC documentation: collective authors carry `collectiveName`.
        (
            "core",
            "europepmc/search_cancer_core.json",
            &["resultList.result[].authorList.author[].collectiveName"][..],
        ),
        ("idlist", "europepmc/search_cancer_idlist.json", &[][..]),
    ] {
        let reply = get(
            &world,
            Source::EuropePmc,
            &format!("{query}{result_type}&pageSize=3"),
        )
        .await;
        assert_eq!(reply.status, 200);
        assert_eq!(reply.json()["hitCount"], 4);
        let recorded = recorded_paths(&[file]);
        assert_shape(
            &format!("europepmc {result_type}"),
            &key_paths(&reply.json()),
            &recorded,
            extras,
            EUROPEPMC_NO_DATA,
        );
    }
    let none = get(
        &world,
        Source::EuropePmc,
        "/webservices/rest/search?query=zzqxvwvkjq&format=json",
    )
    .await
    .json();
    let recorded = recorded_json("europepmc/search_no_results.json").unwrap();
    assert_eq!(key_paths(&none), key_paths(&recorded));
    assert_eq!(none["hitCount"], 0);
}

#[tokio::test]
async fn doi_csl_json_matches_recorded_keys() {
    if shared_absent("CSL-JSON shape comparison") {
        return;
    }
    let world = MockWorld::start(MockConfig::fixtures());
    let accept = "application/vnd.citationstyles.csl+json";
    let mut mock = BTreeSet::new();
    for doi in CROSSREF_DOIS {
        let reply =
            crate::helpers::get_accept(&world, Source::Doi, &format!("/{doi}"), accept).await;
        assert_eq!(reply.status, 200);
        assert!(reply.json()["title"].is_string(), "CSL title is a string");
        mock.extend(key_paths(&reply.json()));
    }
    let recorded =
        recorded_paths(&["doi_content_negotiation/csljson_10.1126_science.169.3946.635.json"]);
    // CSL-JSON from Crossref is its work message: fields recorded in Crossref works
    // (`updated-by`, `update-policy`, `published-online`) appear when the work has them.
    let extras: Vec<&str> = CROSSREF_EXTRAS
        .iter()
        .copied()
        .chain([
            "updated-by",
            "updated-by[].DOI",
            "updated-by[].label",
            "updated-by[].source",
            "updated-by[].type",
            "updated-by[].updated",
            "updated-by[].updated.date-parts",
            "updated-by[].updated.date-time",
            "updated-by[].updated.timestamp",
            "update-policy",
            "published-online",
            "published-online.date-parts",
        ])
        .collect();
    // The world records no volume, issue, pages, ISSN, affiliations or reference lists.
    let no_data = [
        "ISSN",
        "author[].affiliation[]",
        "container-title-short",
        "issue",
        "journal-issue",
        "page",
        "published-print",
        "reference",
        "reference[]",
        "volume",
    ];
    assert_shape("doi.org CSL-JSON", &mock, &recorded, &extras, &no_data);
}

/// DataCite and Unpaywall have no recorded bodies: their keys follow the services' own
/// documentation (DataCite REST API JSON:API `dois` resource; Unpaywall DOI object).
#[tokio::test]
async fn datacite_and_unpaywall_follow_their_documentation() {
    let world = MockWorld::start(MockConfig::fixtures());
    let dc = get(&world, Source::DataCite, "/dois/10.5281/zenodo.5651310").await;
    assert_eq!(dc.content_type, "application/vnd.api+json; charset=utf-8");
    let dc = dc.json();
    let keys: BTreeSet<&str> = dc["data"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        BTreeSet::from(["id", "type", "attributes", "relationships"])
    );
    for key in [
        "doi",
        "creators",
        "titles",
        "publisher",
        "publicationYear",
        "types",
        "dates",
        "descriptions",
        "relatedIdentifiers",
        "url",
        "state",
    ] {
        assert!(
            dc["data"]["attributes"].get(key).is_some(),
            "DataCite attribute {key}"
        );
    }
    assert_eq!(dc["data"]["attributes"]["publisher"], "Zenodo");
    let up = get(
        &world,
        Source::Unpaywall,
        "/v2/10.1109/lra.2021.3062602?email=test@example.org",
    )
    .await
    .json();
    for key in [
        "doi",
        "doi_url",
        "title",
        "genre",
        "is_paratext",
        "published_date",
        "year",
        "journal_name",
        "journal_issns",
        "journal_issn_l",
        "journal_is_oa",
        "journal_is_in_doaj",
        "publisher",
        "is_oa",
        "oa_status",
        "has_repository_copy",
        "best_oa_location",
        "first_oa_location",
        "oa_locations",
        "oa_locations_embargoed",
        "updated",
        "data_standard",
        "z_authors",
    ] {
        assert!(up.get(key).is_some(), "Unpaywall field {key}");
    }
    for key in [
        "url",
        "url_for_pdf",
        "url_for_landing_page",
        "evidence",
        "license",
        "version",
        "host_type",
        "is_best",
        "pmh_id",
        "endpoint_id",
        "repository_institution",
        "oa_date",
        "updated",
    ] {
        assert!(
            up["best_oa_location"].get(key).is_some(),
            "Unpaywall OA location field {key}"
        );
    }
}
