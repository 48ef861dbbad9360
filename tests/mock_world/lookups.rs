//! Which works each service holds, identifier lookups, title searches and their ranking,
//! retractions and expressions of concern.

use crate::helpers::{get, get_accept};
use crate::support::ids::{Agency, agency, arxiv_doi};
use crate::support::{MockConfig, MockWorld, Source};

fn url_doi(doi: &str) -> String {
    doi.replace('(', "%28").replace(')', "%29")
}

#[tokio::test]
async fn every_work_is_found_by_each_of_its_identifiers() {
    let world = MockWorld::start(MockConfig::fixtures());
    assert!(world.world().len() >= 40, "fixture world has ~40 works");
    for e in &world.world().entries {
        let w = &e.work;
        let id = &w.id;
        if let Some(doi) = &w.doi {
            let doi_enc = url_doi(doi);
            assert_eq!(
                get(&world, Source::Doi, &format!("/{doi_enc}"))
                    .await
                    .status,
                302,
                "{id} doi.org"
            );
            assert_eq!(
                get(
                    &world,
                    Source::S2,
                    &format!("/graph/v1/paper/DOI:{doi_enc}")
                )
                .await
                .status,
                200,
                "{id} s2 DOI"
            );
            let oa = get(&world, Source::OpenAlex, &format!("/works/doi:{doi_enc}")).await;
            assert_eq!(oa.status, 200, "{id} openalex doi");
            assert_eq!(oa.json()["doi"], format!("https://doi.org/{doi}"));
            match agency(doi) {
                Agency::Crossref => {
                    let cr = get(&world, Source::Crossref, &format!("/works/{doi_enc}")).await;
                    assert_eq!(cr.status, 200, "{id} crossref");
                    assert_eq!(cr.json()["message"]["DOI"], doi.as_str());
                    let up = get(
                        &world,
                        Source::Unpaywall,
                        &format!("/v2/{doi_enc}?email=test@example.org"),
                    )
                    .await;
                    assert_eq!(up.status, 200, "{id} unpaywall");
                    assert_eq!(
                        get(&world, Source::DataCite, &format!("/dois/{doi_enc}"))
                            .await
                            .status,
                        404,
                        "{id}"
                    );
                }
                Agency::DataCite => {
                    assert_eq!(
                        get(&world, Source::DataCite, &format!("/dois/{doi_enc}"))
                            .await
                            .status,
                        200,
                        "{id} datacite"
                    );
                    assert_eq!(
                        get(&world, Source::Crossref, &format!("/works/{doi_enc}"))
                            .await
                            .status,
                        404,
                        "{id}"
                    );
                }
            }
        }
        if let Some(a) = &w.arxiv {
            let feed = get(&world, Source::Arxiv, &format!("/api/query?id_list={a}")).await;
            assert!(
                feed.body
                    .contains(&format!("<id>http://arxiv.org/abs/{a}v1</id>")),
                "{id} arXiv"
            );
            assert_eq!(
                get(&world, Source::S2, &format!("/graph/v1/paper/ARXIV:{a}"))
                    .await
                    .status,
                200,
                "{id} s2 arXiv"
            );
            let dc = get(&world, Source::DataCite, &format!("/dois/{}", arxiv_doi(a))).await;
            assert_eq!(dc.status, 200, "{id} arXiv DOI at DataCite");
            assert_eq!(
                dc.json()["data"]["attributes"]["titles"][0]["title"],
                w.title.as_str()
            );
        }
        if let Some(p) = &w.pmid {
            let search = get(
                &world,
                Source::Pubmed,
                &format!("/entrez/eutils/esearch.fcgi?db=pubmed&term={p}%5Bpmid%5D"),
            )
            .await;
            assert!(
                search.body.contains(&format!("<Id>{p}</Id>")),
                "{id} esearch pmid"
            );
            let fetch = get(
                &world,
                Source::Pubmed,
                &format!("/entrez/eutils/efetch.fcgi?db=pubmed&id={p}&retmode=xml"),
            )
            .await;
            assert!(
                fetch
                    .body
                    .contains(&format!("<PMID Version=\"1\">{p}</PMID>")),
                "{id} efetch"
            );
            let epmc = get(
                &world,
                Source::EuropePmc,
                &format!("/webservices/rest/search?query=EXT_ID:{p}%20AND%20SRC:MED&format=json"),
            )
            .await;
            assert_eq!(epmc.json()["hitCount"], 1, "{id} europepmc EXT_ID");
            assert_eq!(
                get(&world, Source::S2, &format!("/graph/v1/paper/PMID:{p}"))
                    .await
                    .status,
                200,
                "{id} s2 PMID"
            );
        }
        if let Some(p) = &w.pmcid {
            let epmc = get(
                &world,
                Source::EuropePmc,
                &format!("/webservices/rest/search?query=PMCID:{p}&format=json"),
            )
            .await;
            assert_eq!(
                epmc.json()["resultList"]["result"][0]["pmcid"],
                p.as_str(),
                "{id} europepmc PMCID"
            );
            assert_eq!(
                get(&world, Source::S2, &format!("/graph/v1/paper/PMCID:{p}"))
                    .await
                    .status,
                200,
                "{id} s2 PMCID"
            );
        }
        let s2 = get(&world, Source::S2, &format!("/graph/v1/paper/{}", e.s2_id)).await;
        assert_eq!(s2.json()["title"], w.title.as_str(), "{id} s2 paperId");
        if let Some(oa) = &w.openalex {
            let reply = get(&world, Source::OpenAlex, &format!("/works/{oa}")).await;
            assert_eq!(
                reply.json()["id"],
                format!("https://openalex.org/{oa}"),
                "{id} openalex id"
            );
        }
        assert_eq!(
            get(&world, Source::Landing, &format!("/{id}")).await.status,
            200,
            "{id} landing"
        );
    }
}

#[tokio::test]
async fn services_hold_only_what_the_real_ones_would() {
    let world = MockWorld::start(MockConfig::fixtures());
    // arXiv-only DataCite DOI: not Crossref's, not Unpaywall's; arXiv and DataCite have it.
    let doi = "10.48550/arxiv.2412.07825";
    assert_eq!(
        get(&world, Source::Crossref, &format!("/works/{doi}"))
            .await
            .status,
        404
    );
    assert_eq!(
        get(
            &world,
            Source::Unpaywall,
            &format!("/v2/{doi}?email=a@b.org")
        )
        .await
        .status,
        404
    );
    assert_eq!(
        get(&world, Source::DataCite, &format!("/dois/{doi}"))
            .await
            .status,
        200
    );
    // A work without a PMID is not in PubMed; one without an arXiv id is not in arXiv.
    let none = get(
        &world,
        Source::Pubmed,
        "/entrez/eutils/esearch.fcgi?db=pubmed&term=%2210.1109/cvpr.2016.90%22%5Bdoi%5D",
    )
    .await;
    assert!(none.body.contains("<Count>0</Count>"));
    let feed = get(
        &world,
        Source::Arxiv,
        "/api/query?search_query=ti:%22Deep+Residual+Learning%22",
    )
    .await;
    assert!(
        feed.body
            .contains("<opensearch:totalResults>1</opensearch:totalResults>"),
        "only the arXiv version"
    );
    // Not-found shapes.
    assert_eq!(
        get(&world, Source::OpenAlex, "/works/doi:10.9999/nothing")
            .await
            .status,
        404
    );
    let dc = get(&world, Source::DataCite, "/dois/10.5281/zenodo.0").await;
    assert_eq!(dc.json()["errors"][0]["status"], "404");
    let up = get(
        &world,
        Source::Unpaywall,
        "/v2/10.9999/nothing?email=a@b.org",
    )
    .await;
    assert_eq!(
        (up.status, up.json()["error"].clone()),
        (404, serde_json::json!(true))
    );
    assert_eq!(
        get(&world, Source::Unpaywall, "/v2/10.1109/cvpr.2016.90")
            .await
            .status,
        422,
        "email required"
    );
    assert_eq!(
        get(&world, Source::Doi, "/10.9999/nothing").await.status,
        404
    );
    assert_eq!(get(&world, Source::Doi, "/not-a-doi").await.status, 400);
    assert_eq!(get(&world, Source::Landing, "/w999999").await.status, 404);
}

#[tokio::test]
async fn every_work_is_found_by_title() {
    let world = MockWorld::start(MockConfig::fixtures());
    for e in &world.world().entries {
        let title = crate::support::text::url_encode(&e.work.title);
        let s2 = get(
            &world,
            Source::S2,
            &format!("/graph/v1/paper/search?query={title}&limit=3"),
        )
        .await
        .json();
        let in_s2 = s2["data"]
            .as_array()
            .is_some_and(|d| d.iter().any(|p| p["paperId"] == e.s2_id.as_str()));
        let cr = get(
            &world,
            Source::Crossref,
            &format!("/works?query.bibliographic={title}&rows=3"),
        )
        .await
        .json();
        let in_crossref = e.work.doi.as_ref().is_some_and(|doi| {
            cr["message"]["items"]
                .as_array()
                .unwrap()
                .iter()
                .any(|i| i["DOI"] == doi.as_str())
        });
        let oa = get(
            &world,
            Source::OpenAlex,
            &format!("/works?search={title}&per-page=3"),
        )
        .await
        .json();
        let in_openalex = oa["results"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["id"] == format!("https://openalex.org/{}", e.openalex_id));
        assert!(
            in_s2 || in_crossref || in_openalex,
            "{} not findable by title",
            e.work.id
        );
    }
}

#[tokio::test]
async fn searches_rank_exact_titles_first_and_keep_near_misses() {
    let world = MockWorld::start(MockConfig::fixtures());
    let reference =
        "He K, Zhang X, Ren S, Sun J. Deep residual learning for image recognition. CVPR 2016";
    let cr = get(
        &world,
        Source::Crossref,
        &format!(
            "/works?query.bibliographic={}&rows=5",
            crate::support::text::url_encode(reference)
        ),
    )
    .await
    .json();
    let items = cr["message"]["items"].as_array().unwrap();
    assert_eq!(items[0]["DOI"], "10.1109/cvpr.2016.90");
    assert!(items.len() > 1, "other candidates are returned too");
    assert!(items[0]["score"].as_f64().unwrap() > items[1]["score"].as_f64().unwrap());

    // A near-miss title (a content word substituted) still finds the real work.
    let near = "Initial warning signals: the charted and uncharted territories";
    let cr = get(
        &world,
        Source::Crossref,
        &format!(
            "/works?query.bibliographic={}&rows=5",
            crate::support::text::url_encode(near)
        ),
    )
    .await
    .json();
    assert_eq!(
        cr["message"]["items"][0]["DOI"],
        "10.1007/s12080-013-0192-6"
    );
    let s2 = get(
        &world,
        Source::S2,
        &format!(
            "/graph/v1/paper/search/match?query={}",
            crate::support::text::url_encode(near)
        ),
    )
    .await;
    assert_eq!(s2.status, 200, "S2 title match is fuzzy");
    let oa = get(
        &world,
        Source::OpenAlex,
        &format!("/works?search={}", crate::support::text::url_encode(near)),
    )
    .await
    .json();
    assert_eq!(
        oa["results"][0]["doi"],
        "https://doi.org/10.1007/s12080-013-0192-6"
    );

    // A fabricated title gets candidates (the gate must reject them), never an exact match.
    let fake = "Selective Prediction: Hierarchical Trustworthy Machine Learning via Wild Patterns";
    let s2 = get(
        &world,
        Source::S2,
        &format!(
            "/graph/v1/paper/search?query={}",
            crate::support::text::url_encode(fake)
        ),
    )
    .await
    .json();
    assert!(s2["total"].as_u64().unwrap() > 0);
    assert_ne!(s2["data"][0]["title"], fake);
    let matched = get(
        &world,
        Source::S2,
        &format!(
            "/graph/v1/paper/search/match?query={}",
            crate::support::text::url_encode(fake)
        ),
    )
    .await;
    assert_eq!(
        (matched.status, matched.json()["error"].clone()),
        (404, serde_json::json!("Title match not found"))
    );

    // Boolean engines (Entrez, Europe PMC) need every term: the near-miss finds nothing there.
    let term = crate::support::text::url_encode("blueprint for conscious machines");
    let hit = get(
        &world,
        Source::Pubmed,
        &format!("/entrez/eutils/esearch.fcgi?db=pubmed&term={term}%5BTitle%5D"),
    )
    .await;
    assert!(hit.body.contains("<Id>35609191</Id>"));
    let term = crate::support::text::url_encode("blueprint for conscious robots");
    let miss = get(
        &world,
        Source::Pubmed,
        &format!("/entrez/eutils/esearch.fcgi?db=pubmed&term={term}%5BTitle%5D"),
    )
    .await;
    assert!(miss.body.contains("<Count>0</Count>"));
    let q = crate::support::text::url_encode("TITLE:\"a blueprint for conscious machines\"");
    let epmc = get(
        &world,
        Source::EuropePmc,
        &format!("/webservices/rest/search?query={q}&format=json"),
    )
    .await
    .json();
    assert_eq!(epmc["resultList"]["result"][0]["pmid"], "35609191");
    let arxiv = get(
        &world,
        Source::Arxiv,
        "/api/query?search_query=ti:survey+AND+ti:language+ANDNOT+ti:code",
    )
    .await;
    assert!(
        arxiv
            .body
            .contains("<title>A Survey of Large Language Models</title>")
    );
    assert!(!arxiv.body.contains("Code Generation"));
}

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

#[test]
fn shared_world_loads_when_present() {
    let Some(config) = MockConfig::shared() else {
        eprintln!("skipping: shared world (../shared absent)");
        return;
    };
    let world = MockWorld::start(config);
    assert!(world.world().len() > 5000);
    let retracted: Vec<&str> = world
        .world()
        .entries
        .iter()
        .filter(|e| e.work.is_retracted)
        .map(|e| e.work.id.as_str())
        .collect();
    assert_eq!(retracted, ["w003788", "w003789"]);
    assert!(world.world().entries.iter().all(|e| e.held_by(Source::S2)
        || e.held_by(Source::Crossref)
        || e.held_by(Source::OpenAlex)));
}
