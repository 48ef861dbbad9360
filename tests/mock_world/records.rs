//! Retractions and expressions of concern, content negotiation, landing pages and full texts.

use crate::helpers::{get, get_accept};
use crate::support::{MockConfig, MockWorld, Source};

#[tokio::test]
async fn retractions_and_expressions_of_concern_reach_every_service() {
    let world = MockWorld::start(MockConfig::fixtures());
    let retracted = get(&world, Source::Crossref, "/works/10.1088/1741-2552/ac4430")
        .await
        .json();
    let m = &retracted["message"];
    assert!(m["title"][0].as_str().unwrap().starts_with("RETRACTED:"));
    assert_eq!(m["updated-by"][0]["type"], "retraction");
    assert_eq!(m["updated-by"][0]["source"], "retraction-watch");
    assert!(m["updated-by"][0]["record-id"].is_string());
    let concern = get(
        &world,
        Source::Crossref,
        "/works/10.1038/s41467-025-63038-5",
    )
    .await
    .json();
    assert_eq!(
        concern["message"]["updated-by"][0]["type"],
        "expression_of_concern"
    );
    let plain = get(&world, Source::Crossref, "/works/10.1109/cvpr.2016.90")
        .await
        .json();
    assert!(plain["message"].get("updated-by").is_none());

    let oa = get(
        &world,
        Source::OpenAlex,
        "/works/doi:10.1007/s12652-021-03612-z",
    )
    .await
    .json();
    assert_eq!(oa["is_retracted"], true);
    let oa = get(
        &world,
        Source::OpenAlex,
        "/works/doi:10.1038/s41467-025-63038-5",
    )
    .await
    .json();
    assert_eq!(oa["is_retracted"], false);
    let pm = get(
        &world,
        Source::Pubmed,
        "/entrez/eutils/efetch.fcgi?db=pubmed&id=34920443,40990156",
    )
    .await
    .body;
    let (first, second) = pm.split_once("</PubmedArticle>").unwrap();
    assert!(first.contains("Retracted Publication") && first.contains("RetractionIn"));
    assert!(!second.contains("Retracted Publication"));
    let epmc = get(
        &world,
        Source::EuropePmc,
        "/webservices/rest/search?query=EXT_ID:35039756&format=json&resultType=core",
    )
    .await
    .json();
    let types = epmc["resultList"]["result"][0]["pubTypeList"]["pubType"].to_string();
    assert!(types.contains("Retracted Publication"));
}

#[tokio::test]
async fn content_negotiation_and_landing_pages() {
    let world = MockWorld::start(MockConfig::fixtures());
    let bib = get_accept(
        &world,
        Source::Doi,
        "/10.1109/cvpr.2016.90",
        "application/x-bibtex",
    )
    .await;
    assert!(
        bib.body.starts_with(" @inproceedings{He_2016,"),
        "{}",
        bib.body
    );
    assert!(bib.body.contains("author={He, Kaiming and Zhang, Xiangyu"));
    let csl = get_accept(
        &world,
        Source::Doi,
        "/10.48550/arXiv.2303.18223",
        "application/vnd.citationstyles.csl+json",
    )
    .await
    .json();
    assert_eq!(
        (csl["publisher"].as_str(), csl["type"].as_str()),
        (Some("arXiv"), Some("article"))
    );
    let redirect = get(&world, Source::Doi, "/10.1109/cvpr.2016.90").await;
    let location = redirect.headers["location"].to_str().unwrap().to_string();
    assert!(location.ends_with("/landing/w001382"));
    let page = crate::helpers::send(crate::helpers::client().get(&location)).await;
    assert!(page.body.contains(
        "<meta name=\"citation_title\" content=\"Deep Residual Learning for Image Recognition\">"
    ));
    assert!(
        page.body
            .contains("<meta name=\"citation_doi\" content=\"10.1109/cvpr.2016.90\">")
    );
    let ld_start =
        page.body.find("application/ld+json\">").unwrap() + "application/ld+json\">".len();
    let ld_end = page.body[ld_start..].find("</script>").unwrap() + ld_start;
    let ld: serde_json::Value = serde_json::from_str(&page.body[ld_start..ld_end]).unwrap();
    assert_eq!(ld["@type"], "ScholarlyArticle");
    assert_eq!(ld["author"][0]["familyName"], "He");
    // The arXiv DOI of a published preprint points to the published version.
    let dc = get(&world, Source::DataCite, "/dois/10.48550/arxiv.2106.03010")
        .await
        .json();
    assert_eq!(
        dc["data"]["attributes"]["relatedIdentifiers"][0]["relatedIdentifier"],
        "10.1109/lra.2021.3062602"
    );
}

#[tokio::test]
async fn full_text_xml_is_served_for_works_with_a_full_text() {
    let dir = tempfile::tempdir().unwrap();
    let text = dir.path().join("paper.md");
    std::fs::write(
        &text,
        "# Introduction\n\nFirst paragraph.\n\nSecond paragraph.\n\n# Methods\n\nThird.\n",
    )
    .unwrap();
    let line =
        std::fs::read_to_string(crate::support::fixture_world_dir().join("works.jsonl")).unwrap();
    let mut work: crate::support::Work =
        serde_json::from_str(line.lines().find(|l| l.contains("\"w000032\"")).unwrap()).unwrap();
    // Test-constructed record: the real work with a temporary full text file.
    work.full_text_file = Some(text.to_string_lossy().into_owned());
    let mut without = work.clone();
    without.id = "w900001".into();
    without.pmcid = Some("PMC1".into());
    without.pmid = Some("1".into());
    without.full_text_file = None;
    let world = MockWorld::start(MockConfig::works(vec![work, without]));
    let jats = get(
        &world,
        Source::EuropePmc,
        "/webservices/rest/PMC9191771/fullTextXML",
    )
    .await;
    assert_eq!(jats.status, 200);
    let paths = crate::helpers::xml_paths(&jats.body);
    assert!(paths.contains("article/body/sec/p") && paths.contains("article/body/sec/title"));
    assert_eq!(
        jats.body.matches("<p>").count(),
        4,
        "three body paragraphs and the abstract"
    );
    assert_eq!(
        get(
            &world,
            Source::EuropePmc,
            "/webservices/rest/PMC1/fullTextXML"
        )
        .await
        .status,
        404
    );
}
