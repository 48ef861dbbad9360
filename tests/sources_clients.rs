//! Crossref, OpenAlex, Semantic Scholar and arXiv clients end to end against a local
//! server: the exact requests they build (paths, parameters, headers, batching) and
//! what they make of the answers.

mod client_support;
mod http_mock;

use citeproof::model::IdScheme;
use citeproof::net::NetError;
use citeproof::resolve::sources::{
    Lookup, SourceError, SourceName, arxiv::ArxivClient, crossref::CrossrefClient,
    openalex::OpenAlexClient, s2, s2::S2Client,
};
use client_support::{MAILTO, fixture, fixture_json, net, pairs, recorded, settings};
use http_mock::{Canned, MockServer};
use serde_json::{Value, json};

// ------------------------------------------------------------------------ Crossref

#[tokio::test]
async fn crossref_single_lookup_sends_mailto_and_token_and_reads_404_as_not_found() {
    let Some(body) = recorded("crossref/works_10.1371_journal.pone.0033693.json") else {
        return;
    };
    let server = MockServer::start(move |seen, _| match seen.path.as_str() {
        "/works/10.1371/journal.pone.0033693" => Canned::json(200, body.clone()),
        "/works/10.1371/notarealdoi" => Canned::text(404, "Resource not found."),
        _ => Canned::text(500, "unexpected request"),
    })
    .await;
    let mut s = settings(SourceName::Crossref, &server.base);
    s.mailto = Some(MAILTO.into());
    s.api_key = Some("tok".into());
    let client = CrossrefClient::new(&net(), s);
    let work = client
        .lookup_doi("10.1371/journal.pone.0033693")
        .await
        .unwrap()
        .found()
        .unwrap();
    assert_eq!(work.doi.as_deref(), Some("10.1371/journal.pone.0033693"));
    assert_eq!(
        client.lookup_doi("10.1371/notarealdoi").await,
        Ok(Lookup::NotFound)
    );
    let seen = server.seen();
    assert_eq!(seen[0].sorted_query(), pairs(&[("mailto", MAILTO)]));
    assert_eq!(
        seen[0].header("crossref-plus-api-token"),
        Some("Bearer tok")
    );
    assert!(
        seen[0]
            .header("user-agent")
            .unwrap()
            .contains("(mailto:tests@example.org)")
    );
}

#[tokio::test]
async fn crossref_batch_is_one_filter_request_and_keeps_notices_apart() {
    let body = fixture("crossref/works_filter_doi_notice.json");
    let server = MockServer::start(move |_, _| Canned::json(200, body.clone())).await;
    let client = CrossrefClient::new(&net(), settings(SourceName::Crossref, &server.base));
    let dois: Vec<String> = [
        "10.5555/original-work",
        "10.5555/NOTICE-of-retraction",
        "10.5555/missing",
    ]
    .map(String::from)
    .to_vec();
    let answers = client.lookup_dois(&dois).await;
    let seen = server.seen();
    assert_eq!(seen.len(), 1);
    assert_eq!(seen[0].path, "/works");
    assert_eq!(
        seen[0].sorted_query(),
        pairs(&[
            (
                "filter",
                "doi:10.5555/original-work,doi:10.5555/NOTICE-of-retraction,doi:10.5555/missing"
            ),
            ("rows", "3")
        ])
    );
    assert_eq!(
        answers
            .iter()
            .map(|(id, _)| id.as_str())
            .collect::<Vec<_>>(),
        dois.iter().map(String::as_str).collect::<Vec<_>>()
    );
    let original = answers[0].1.clone().unwrap().found().unwrap();
    assert!(
        original.is_retracted,
        "the notice in the same answer retracts it"
    );
    assert!(
        answers[1].1.as_ref().unwrap().is_found(),
        "DOI case does not matter"
    );
    assert_eq!(answers[2].1, Ok(Lookup::NotFound));
}

#[tokio::test]
async fn crossref_batch_rejected_by_the_api_falls_back_to_single_lookups() {
    let retracted = fixture("crossref/works_10.5555_retracted.json");
    let server = MockServer::start(move |seen, _| match seen.path.as_str() {
        "/works" => Canned::json(400, r#"{"status":"failed","message-type":"validation-failure","message":[{"type":"filter-value-invalid","value":"doi:x","message":"invalid"}]}"#),
        "/works/10.5555/retracted-example" => Canned::json(200, retracted.clone()),
        _ => Canned::text(404, "Resource not found."),
    })
    .await;
    let client = CrossrefClient::new(&net(), settings(SourceName::Crossref, &server.base));
    let answers = client
        .lookup_dois(&[
            "10.5555/retracted-example".to_string(),
            "10.5555/other".to_string(),
        ])
        .await;
    assert!(answers[0].1.clone().unwrap().found().unwrap().is_retracted);
    assert_eq!(answers[1].1, Ok(Lookup::NotFound));
    // The batch first; then the single lookups, concurrently (any order).
    let mut paths: Vec<String> = server.seen().iter().map(|s| s.path.clone()).collect();
    paths[1..].sort();
    assert_eq!(
        paths,
        [
            "/works",
            "/works/10.5555/other",
            "/works/10.5555/retracted-example"
        ]
    );
}

#[tokio::test]
async fn crossref_server_errors_are_failures_for_every_doi_of_the_batch() {
    let server = MockServer::start(|_, _| Canned::text(502, "bad gateway")).await;
    let client = CrossrefClient::new(&net(), settings(SourceName::Crossref, &server.base));
    let answers = client
        .lookup_dois(&["10.5555/a".into(), "10.5555/b".into()])
        .await;
    for (_, answer) in answers {
        assert_eq!(
            answer,
            Err(SourceError::Net(NetError::Status {
                status: 502,
                attempts: 2
            }))
        );
    }
}

#[tokio::test]
async fn crossref_search_uses_query_bibliographic() {
    let Some(body) = recorded("crossref/works_search_query_ecology_rows2.json") else {
        return;
    };
    let server = MockServer::start(move |_, _| Canned::json(200, body.clone())).await;
    let client = CrossrefClient::new(&net(), settings(SourceName::Crossref, &server.base));
    let works = client
        .search("Communicating Ecology, Oxford 2022", 2)
        .await
        .unwrap();
    assert_eq!(works[0].title, "Communicating Ecology");
    let seen = &server.seen()[0];
    assert_eq!(seen.path, "/works");
    assert_eq!(
        seen.sorted_query(),
        pairs(&[
            ("query.bibliographic", "Communicating Ecology, Oxford 2022"),
            ("rows", "2")
        ])
    );
}

#[tokio::test]
async fn dois_with_reserved_characters_are_percent_encoded_in_paths() {
    let server = MockServer::start(|_, _| Canned::text(404, "Resource not found.")).await;
    let client = CrossrefClient::new(&net(), settings(SourceName::Crossref, &server.base));
    let sici = "10.1002/(sici)1097-4636(199709)36:4<534::aid-jbm11>3.0.co;2-b";
    assert_eq!(client.lookup_doi(sici).await, Ok(Lookup::NotFound));
    assert_eq!(
        server.seen()[0].path,
        "/works/10.1002/%28sici%291097-4636%28199709%2936%3A4%3C534%3A%3Aaid-jbm11%3E3.0.co%3B2-b"
    );
    // A DOI with a comma cannot ride in a `filter=doi:a,doi:b` batch: it goes alone.
    let dois = [
        "10.5555/a,b".to_string(),
        "10.5555/c".to_string(),
        "10.5555/d".to_string(),
    ];
    let answers = client.lookup_dois(&dois).await;
    // The mock answers 404 everywhere: the rejected list falls back to single lookups.
    assert!(answers.iter().all(|(_, a)| a == &Ok(Lookup::NotFound)));
    // Chunks run concurrently: compare the requests as a set.
    let mut seen: Vec<String> = server.seen()[1..]
        .iter()
        .map(|s| format!("{}?{}", s.path, s.param("filter").unwrap_or("")))
        .collect();
    seen.sort();
    assert_eq!(
        seen,
        [
            "/works/10.5555/a%2Cb?",
            "/works/10.5555/c?",
            "/works/10.5555/d?",
            "/works?doi:10.5555/c,doi:10.5555/d"
        ]
    );
}

// ------------------------------------------------------------------------ OpenAlex

fn openalex_work(doi: &str) -> Value {
    let mut work = fixture_json("openalex/works_filter_doi.json")["results"][0].clone();
    work["doi"] = json!(format!("https://doi.org/{doi}"));
    work
}

#[tokio::test]
async fn openalex_batches_120_dois_into_3_filter_requests() {
    let server = MockServer::start(|seen, _| {
        let filter = seen.param("filter").unwrap_or("");
        let dois: Vec<&str> = filter.trim_start_matches("doi:").split('|').collect();
        // Works whose DOI ends in 7 are unknown to this OpenAlex.
        let results: Vec<Value> = dois
            .iter()
            .filter(|d| !d.ends_with('7'))
            .map(|d| openalex_work(d))
            .collect();
        Canned::json(
            200,
            json!({"meta": {"count": results.len()}, "results": results}).to_string(),
        )
    })
    .await;
    let mut s = settings(SourceName::OpenAlex, &server.base);
    s.api_key = Some("oa-key".into());
    let client = OpenAlexClient::new(&net(), s);
    let dois: Vec<String> = (0..120).map(|i| format!("10.5555/w{i}")).collect();
    let answers = client.lookup_dois(&dois).await;
    let seen = server.seen();
    let mut sizes: Vec<usize> = seen
        .iter()
        .map(|s| s.param("filter").unwrap().split('|').count())
        .collect();
    sizes.sort();
    assert_eq!(sizes, [20, 50, 50]);
    for s in &seen {
        assert_eq!(s.path, "/works");
        assert_eq!(s.param("per-page"), Some("50"));
        assert_eq!(s.param("api_key"), Some("oa-key"));
        assert!(s.param("filter").unwrap().starts_with("doi:10.5555/w"));
    }
    assert_eq!(answers.len(), 120);
    for (doi, answer) in &answers {
        match answer.as_ref().unwrap() {
            Lookup::Found(w) => assert_eq!(w.doi.as_deref(), Some(doi.as_str())),
            Lookup::NotFound => assert!(doi.ends_with('7'), "{doi}"),
        }
    }
    assert_eq!(
        answers
            .iter()
            .filter(|(_, a)| a == &Ok(Lookup::NotFound))
            .count(),
        12
    );
}

#[tokio::test]
async fn openalex_single_lookups_by_doi_and_pmid() {
    let work = openalex_work("10.7717/peerj.4375").to_string();
    let server = MockServer::start(move |seen, _| match seen.path.as_str() {
        "/works/doi:10.7717/peerj.4375" | "/works/pmid:29456894" => Canned::json(200, work.clone()),
        "/works/doi:10.5555/gone" => Canned::json(404, r#"{"error": "Not Found"}"#),
        _ => Canned::new(
            404,
            "text/html",
            "<!DOCTYPE html><html><body>nginx</body></html>",
        ),
    })
    .await;
    let mut s = settings(SourceName::OpenAlex, &server.base);
    s.mailto = Some(MAILTO.into());
    let client = OpenAlexClient::new(&net(), s);
    let found = client
        .lookup_doi("10.7717/peerj.4375")
        .await
        .unwrap()
        .found()
        .unwrap();
    assert_eq!(
        found.oa_url.as_deref(),
        Some("https://peerj.com/articles/4375.pdf")
    );
    assert!(client.lookup_pmid("29456894").await.unwrap().is_found());
    assert_eq!(
        client.lookup_doi("10.5555/gone").await,
        Ok(Lookup::NotFound)
    );
    // An HTML 404 (a proxy, a wrong base URL) is not "not found".
    assert!(matches!(
        client.lookup_doi("10.5555/elsewhere").await,
        Err(SourceError::Status { status: 404, .. })
    ));
    assert_eq!(server.seen()[0].param("mailto"), Some(MAILTO));
}

#[tokio::test]
async fn openalex_search_request() {
    let list = fixture("openalex/works_filter_doi.json");
    let server = MockServer::start(move |_, _| Canned::json(200, list.clone())).await;
    let client = OpenAlexClient::new(&net(), settings(SourceName::OpenAlex, &server.base));
    let works = client.search("state of OA", 5).await.unwrap();
    assert_eq!(works.len(), 2);
    assert_eq!(
        server.seen()[0].sorted_query(),
        pairs(&[("per-page", "5"), ("search", "state of OA")])
    );
}

// ------------------------------------------------------------- Semantic Scholar

#[tokio::test]
async fn s2_batches_600_ids_into_2_posts_with_null_slots() {
    let server = MockServer::start(|seen, _| {
        let body: Value = serde_json::from_slice(&seen.body).unwrap();
        let slots: Vec<Value> = body["ids"]
            .as_array()
            .unwrap()
            .iter()
            .map(|id| {
                let id = id.as_str().unwrap();
                if id.ends_with('9') {
                    Value::Null
                } else {
                    let doi = id.trim_start_matches("DOI:");
                    json!({"paperId": format!("p{doi}"), "title": format!("Paper {doi}"), "externalIds": {"DOI": doi}, "year": null})
                }
            })
            .collect();
        Canned::json(200, Value::Array(slots).to_string())
    })
    .await;
    let mut s = settings(SourceName::S2, &server.base);
    s.api_key = Some("s2-key".into());
    let client = S2Client::new(&net(), s);
    let ids: Vec<String> = (0..600)
        .map(|i| s2::paper_id(IdScheme::Doi, &format!("10.5555/p{i}")).unwrap())
        .collect();
    let answers = client.lookup_batch(&ids).await;
    let seen = server.seen();
    let mut sizes: Vec<usize> = seen
        .iter()
        .map(|s| {
            serde_json::from_slice::<Value>(&s.body).unwrap()["ids"]
                .as_array()
                .unwrap()
                .len()
        })
        .collect();
    sizes.sort();
    assert_eq!(sizes, [100, 500]);
    for s in &seen {
        assert_eq!(
            (s.method.as_str(), s.path.as_str()),
            ("POST", "/graph/v1/paper/batch")
        );
        assert_eq!(s.param("fields"), Some(s2::FIELDS));
        assert_eq!(s.header("x-api-key"), Some("s2-key"));
    }
    for (id, answer) in &answers {
        match answer.as_ref().unwrap() {
            Lookup::Found(w) => assert_eq!(format!("DOI:{}", w.doi.as_deref().unwrap()), *id),
            Lookup::NotFound => assert!(id.ends_with('9')),
        }
    }
}

#[tokio::test]
async fn s2_lookup_match_and_a_429_without_retry_after() {
    let server = MockServer::start(|seen, n| match seen.path.as_str() {
        // The first request meets S2's bare 429; the retry gets the paper.
        _ if n == 0 => Canned::json(429, r#"{"message": "Too Many Requests"}"#),
        "/graph/v1/paper/DOI:10.1093/mind/lix.236.433" => {
            Canned::json(200, r#"{"paperId": "2d5673caa9e6af3a7b82a43f19ee920992db07ad", "title": "Computing Machinery and Intelligence"}"#)
        }
        "/graph/v1/paper/search/match" => Canned::json(404, r#"{"error":"Title match not found"}"#),
        "/graph/v1/paper/PMCID:2323736" => Canned::json(404, r#"{"error":"Paper with id PMCID:2323736 not found"}"#),
        _ => Canned::text(500, "unexpected"),
    })
    .await;
    let client = S2Client::new(&net(), settings(SourceName::S2, &server.base));
    let w = client
        .lookup(IdScheme::Doi, "10.1093/mind/lix.236.433")
        .await
        .unwrap()
        .found()
        .unwrap();
    assert_eq!(w.title, "Computing Machinery and Intelligence");
    assert_eq!(
        client.match_title("A paper nobody wrote").await,
        Ok(Lookup::NotFound)
    );
    assert_eq!(
        client.lookup(IdScheme::Pmcid, "PMC2323736").await,
        Ok(Lookup::NotFound)
    );
    let seen = server.seen();
    assert_eq!(seen.len(), 4);
    assert_eq!(seen[1].param("fields"), Some(s2::FIELDS));
    assert_eq!(seen[2].param("query"), Some("A paper nobody wrote"));
}

// -------------------------------------------------------------------------- arXiv

#[tokio::test]
async fn arxiv_id_list_batch_with_a_missing_id() {
    let Some(body) = recorded("arxiv/id_list_two_ids_one_missing.xml") else {
        return;
    };
    let server =
        MockServer::start(move |_, _| Canned::new(200, "application/atom+xml", body.clone())).await;
    let client = ArxivClient::new(&net(), settings(SourceName::Arxiv, &server.base));
    let answers = client
        .lookup_ids(&["0808.05394".into(), "1707.08567v1".into()])
        .await;
    assert_eq!(answers[0].1, Ok(Lookup::NotFound));
    let w = answers[1].1.clone().unwrap().found().unwrap();
    assert_eq!(w.arxiv.as_deref(), Some("1707.08567"));
    let seen = server.seen();
    assert_eq!(seen.len(), 1);
    assert_eq!(seen[0].path, "/api/query");
    assert_eq!(
        seen[0].query,
        vec![
            ("id_list".to_string(), "0808.05394,1707.08567v1".to_string()),
            ("max_results".to_string(), "2".to_string())
        ]
    );
}

#[tokio::test]
async fn arxiv_malformed_id_fails_alone_after_the_batch_is_rejected() {
    let (Some(error), Some(good)) = (
        recorded("arxiv/id_list_400_malformed_abc.xml"),
        recorded("arxiv/id_list_1605.08386.xml"),
    ) else {
        return;
    };
    let server = MockServer::start(move |seen, _| match seen.param("id_list") {
        Some("1605.08386") => Canned::new(200, "application/atom+xml", good.clone()),
        _ => Canned::new(400, "application/atom+xml", error.clone()),
    })
    .await;
    let client = ArxivClient::new(&net(), settings(SourceName::Arxiv, &server.base));
    let answers = client
        .lookup_ids(&["abc".into(), "1605.08386".into()])
        .await;
    assert_eq!(
        answers[0].1,
        Err(SourceError::Api("incorrect id format for abc".into()))
    );
    assert!(answers[1].1.as_ref().unwrap().is_found());
    let mut lists: Vec<String> = server
        .seen()
        .iter()
        .map(|s| s.param("id_list").unwrap().to_string())
        .collect();
    lists[1..].sort();
    assert_eq!(lists, ["abc,1605.08386", "1605.08386", "abc"]);
}

#[tokio::test]
async fn arxiv_title_search_request() {
    let Some(body) = recorded("arxiv/search_query_testing_start0_max10.xml") else {
        return;
    };
    let server =
        MockServer::start(move |_, _| Canned::new(200, "application/atom+xml", body.clone())).await;
    let client = ArxivClient::new(&net(), settings(SourceName::Arxiv, &server.base));
    let works = client
        .search_title("Testing: \"a\" survey", 10)
        .await
        .unwrap();
    assert_eq!(works.len(), 10);
    assert_eq!(
        server.seen()[0].sorted_query(),
        pairs(&[
            ("max_results", "10"),
            ("search_query", "ti:\"Testing a survey\"")
        ])
    );
}
