//! Which works each service holds, identifier lookups, title searches and their ranking.

use crate::helpers::get;
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

#[tokio::test]
async fn batch_and_page_limits_are_enforced_like_the_real_services() {
    let world = MockWorld::start(MockConfig::fixtures());
    let ids: Vec<String> = (0..501).map(|i| format!("CorpusId:{i}")).collect();
    let too_many = crate::helpers::send(
        crate::helpers::client()
            .post(format!(
                "{}/graph/v1/paper/batch?fields=title",
                world.base_url(Source::S2)
            ))
            .json(&serde_json::json!({ "ids": ids })),
    )
    .await;
    assert_eq!(too_many.status, 400);
    let ors: Vec<String> = (0..101).map(|i| format!("10.9999/{i}")).collect();
    let filter = format!("/works?filter=doi:{}", ors.join("|"));
    assert_eq!(get(&world, Source::OpenAlex, &filter).await.status, 400);
    assert_eq!(
        get(&world, Source::Crossref, "/works?rows=1001")
            .await
            .status,
        400
    );
    assert_eq!(
        get(
            &world,
            Source::S2,
            "/graph/v1/paper/search?query=x&limit=101"
        )
        .await
        .status,
        400
    );
}
