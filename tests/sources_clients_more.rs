//! PubMed, Europe PMC, doi.org, DataCite and Unpaywall clients end to end against a
//! local server, plus disabled sources and the all-sources registry.

mod client_support;
mod http_mock;

use citeproof::resolve::sources::{
    Lookup, SourceError, SourceName, Sources, SourcesSettings, datacite::DataCiteClient, doi,
    doi::DoiClient, europepmc::EuropePmcClient, pubmed::PubmedClient, unpaywall::UnpaywallClient,
};
use client_support::{MAILTO, fixture, net, pairs, recorded, settings};
use http_mock::{Canned, MockServer};

// -------------------------------------------------------------------------- PubMed

fn esearch(ids: &[&str]) -> String {
    let ids: String = ids.iter().map(|i| format!("<Id>{i}</Id>")).collect();
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\" ?>\n<eSearchResult><Count>{}</Count><RetMax>{}</RetMax><RetStart>0</RetStart><IdList>{ids}</IdList><TranslationSet/></eSearchResult>",
        ids.len(),
        ids.len()
    )
}

#[tokio::test]
async fn pubmed_doi_lookup_is_esearch_then_efetch_with_key_email_and_tool() {
    let Some(article) =
        recorded("pubmed_eutils/efetch_pubmed_xml_pmid27797938_structured_abstract.xml")
    else {
        return;
    };
    let server = MockServer::start(move |seen, _| match seen.path.as_str() {
        "/entrez/eutils/esearch.fcgi"
            if seen.param("term") == Some("\"10.1136/gutjnl-2016-312510\"[doi]") =>
        {
            Canned::new(200, "text/xml", esearch(&["27797938"]))
        }
        "/entrez/eutils/esearch.fcgi" => Canned::new(200, "text/xml", esearch(&[])),
        "/entrez/eutils/efetch.fcgi" => Canned::new(200, "text/xml", article.clone()),
        _ => Canned::text(500, "unexpected"),
    })
    .await;
    let mut s = settings(SourceName::Pubmed, &server.base);
    s.api_key = Some("ncbi-key".into());
    s.mailto = Some(MAILTO.into());
    let client = PubmedClient::new(&net(), s);
    let w = client
        .lookup_doi("10.1136/gutjnl-2016-312510")
        .await
        .unwrap()
        .found()
        .unwrap();
    assert_eq!(w.pmid.as_deref(), Some("27797938"));
    assert_eq!(
        client.lookup_doi("10.5555/not-in-pubmed").await,
        Ok(Lookup::NotFound)
    );
    let seen = server.seen();
    assert_eq!(
        seen[0].sorted_query(),
        pairs(&[
            ("api_key", "ncbi-key"),
            ("db", "pubmed"),
            ("email", MAILTO),
            ("retmax", "2"),
            ("retmode", "xml"),
            ("term", "\"10.1136/gutjnl-2016-312510\"[doi]"),
            ("tool", "citeproof"),
        ])
    );
    assert_eq!(seen[1].path, "/entrez/eutils/efetch.fcgi");
    assert_eq!(seen[1].param("id"), Some("27797938"));
    assert_eq!(seen.len(), 3, "no efetch when esearch finds nothing");
}

#[tokio::test]
async fn pubmed_pmid_batch_falls_back_to_esummary_when_efetch_is_unreadable() {
    let Some(docsum) = recorded("pubmed_eutils/esummary_pubmed_docsum.xml") else {
        return;
    };
    let server = MockServer::start(move |seen, _| match seen.path.as_str() {
        "/entrez/eutils/efetch.fcgi" => Canned::new(
            200,
            "text/html",
            "<!DOCTYPE html><html>Service unavailable</html>",
        ),
        "/entrez/eutils/esummary.fcgi" => Canned::new(200, "text/xml", docsum.clone()),
        _ => Canned::text(500, "unexpected"),
    })
    .await;
    let client = PubmedClient::new(&net(), settings(SourceName::Pubmed, &server.base));
    let answers = client
        .lookup_pmids(&["11850928".into(), "11482001".into(), "1".into()])
        .await;
    assert_eq!(
        answers[0].1.clone().unwrap().found().unwrap().title,
        "Zirconium granuloma following treatment of rhus dermatitis."
    );
    assert!(answers[1].1.as_ref().unwrap().is_found());
    assert_eq!(answers[2].1, Ok(Lookup::NotFound));
    let seen = server.seen();
    assert_eq!(seen.len(), 2);
    assert_eq!(seen[1].param("id"), Some("11850928,11482001,1"));
}

#[tokio::test]
async fn pubmed_title_search() {
    let Some(articles) = recorded("pubmed_eutils/efetch_pubmed_xml_pmids_12091962_9997.xml") else {
        return;
    };
    let server = MockServer::start(move |seen, _| match seen.path.as_str() {
        "/entrez/eutils/esearch.fcgi" => {
            Canned::new(200, "text/xml", esearch(&["12091962", "9997"]))
        }
        _ => Canned::new(200, "text/xml", articles.clone()),
    })
    .await;
    let client = PubmedClient::new(&net(), settings(SourceName::Pubmed, &server.base));
    let works = client
        .search_title("The treatment of AIDS: behind the walls", 5)
        .await
        .unwrap();
    assert_eq!(works.len(), 2);
    let seen = server.seen();
    assert_eq!(
        seen[0].param("term"),
        Some("The treatment of AIDS behind the walls[Title]")
    );
    assert_eq!(seen[1].param("id"), Some("12091962,9997"));
}

// ---------------------------------------------------------------------- Europe PMC

#[tokio::test]
async fn europepmc_lookups_by_doi_pmid_and_title() {
    let (Some(core), Some(empty)) = (
        recorded("europepmc/search_cancer_core.json"),
        recorded("europepmc/search_no_results.json"),
    ) else {
        return;
    };
    let server = MockServer::start(move |seen, _| match seen.param("query") {
        Some(q) if q.contains("nothing") => Canned::json(200, empty.clone()),
        _ => Canned::json(200, core.clone()),
    })
    .await;
    let client = EuropePmcClient::new(&net(), settings(SourceName::EuropePmc, &server.base));
    let w = client
        .lookup_doi("10.1016/S0140-6736(24)02600-X")
        .await
        .unwrap()
        .found()
        .unwrap();
    assert_eq!(w.pmid.as_deref(), Some("39709209"));
    assert!(client.lookup_pmid("39709209").await.unwrap().is_found());
    assert_eq!(
        client.lookup_pmid("123").await,
        Ok(Lookup::NotFound),
        "no result with that PMID"
    );
    assert!(
        client
            .search_title("nothing \"here\"", 10)
            .await
            .unwrap()
            .is_empty()
    );
    let seen = server.seen();
    assert_eq!(seen[0].path, "/webservices/rest/search");
    assert_eq!(
        seen[0].sorted_query(),
        pairs(&[
            ("format", "json"),
            ("pageSize", "5"),
            ("query", "DOI:\"10.1016/S0140-6736(24)02600-X\""),
            ("resultType", "core"),
        ])
    );
    assert_eq!(seen[1].param("query"), Some("EXT_ID:39709209 AND SRC:MED"));
    assert_eq!(seen[3].param("query"), Some("TITLE:\"nothing here\""));
}

// ------------------------------------------------------------------------- doi.org

#[tokio::test]
async fn doi_org_follows_the_redirect_to_csl_json() {
    let Some(csl) = recorded("doi_content_negotiation/csljson_10.1126_science.169.3946.635.json")
    else {
        return;
    };
    let server = MockServer::start(move |seen, _| match seen.path.as_str() {
        "/10.1126/science.169.3946.635" => {
            Canned::new(302, "text/html", "<html>Handle Redirect</html>").header(
                "location",
                "/ra/works/10.1126/science.169.3946.635/transform",
            )
        }
        "/ra/works/10.1126/science.169.3946.635/transform" => {
            Canned::new(200, doi::CSL_JSON, csl.clone())
        }
        "/10.5555/lost" => Canned::new(302, "text/html", "").header("location", "/ra/lost"),
        "/ra/lost" => Canned::text(404, "Resource not found."),
        _ => Canned::new(
            404,
            "text/html",
            "<!DOCTYPE html><html><body>DOI Not Found</body></html>",
        ),
    })
    .await;
    let client = DoiClient::new(&net(), settings(SourceName::Doi, &server.base));
    let w = client
        .lookup("10.1126/science.169.3946.635")
        .await
        .unwrap()
        .found()
        .unwrap();
    assert_eq!(w.title, "The Structure of Ordinary Water");
    assert_eq!(w.source, "doi");
    let seen = server.seen();
    assert_eq!(seen.len(), 2);
    assert_eq!(seen[0].header("accept"), Some(doi::CSL_JSON));
    // doi.org does not know the DOI: not found.
    assert_eq!(
        client.lookup("10.5555/unregistered").await,
        Ok(Lookup::NotFound)
    );
    // doi.org knows it, the agency has no record: it exists, without metadata.
    assert!(matches!(
        client.lookup("10.5555/lost").await,
        Err(SourceError::NoMetadata { .. })
    ));
}

// ------------------------------------------------------------ DataCite, Unpaywall

#[tokio::test]
async fn datacite_lookup_of_an_arxiv_doi() {
    let (found, missing) = (
        fixture("datacite/dois_10.48550_arxiv.1706.03762.json"),
        fixture("datacite/dois_404.json"),
    );
    let server = MockServer::start(move |seen, _| match seen.path.as_str() {
        "/dois/10.48550/arxiv.1706.03762" => {
            Canned::new(200, "application/vnd.api+json", found.clone())
        }
        _ => Canned::new(404, "application/vnd.api+json", missing.clone()),
    })
    .await;
    let client = DataCiteClient::new(&net(), settings(SourceName::DataCite, &server.base));
    let w = client
        .lookup("10.48550/arxiv.1706.03762")
        .await
        .unwrap()
        .found()
        .unwrap();
    assert_eq!(
        (w.arxiv.as_deref(), w.title.as_str()),
        (Some("1706.03762"), "Attention Is All You Need")
    );
    assert_eq!(
        client.lookup("10.48550/arxiv.9999.99999").await,
        Ok(Lookup::NotFound)
    );
}

#[tokio::test]
async fn unpaywall_sends_the_email_and_needs_one() {
    let (found, missing) = (
        fixture("unpaywall/v2_10.7717_peerj.4375.json"),
        fixture("unpaywall/v2_404.json"),
    );
    let server = MockServer::start(move |seen, _| match seen.path.as_str() {
        "/v2/10.7717/peerj.4375" => Canned::json(200, found.clone()),
        _ => Canned::json(404, missing.clone()),
    })
    .await;
    let mut s = settings(SourceName::Unpaywall, &server.base);
    s.mailto = Some(MAILTO.into());
    let client = UnpaywallClient::new(&net(), s.clone());
    let w = client
        .lookup("10.7717/peerj.4375")
        .await
        .unwrap()
        .found()
        .unwrap();
    assert_eq!(
        w.oa_url.as_deref(),
        Some("https://peerj.com/articles/4375.pdf")
    );
    assert_eq!(
        client.lookup("10.5555/not-in-unpaywall").await,
        Ok(Lookup::NotFound)
    );
    assert_eq!(server.seen()[0].sorted_query(), pairs(&[("email", MAILTO)]));
    s.mailto = None;
    let anonymous = UnpaywallClient::new(&net(), s);
    assert!(matches!(
        anonymous.lookup("10.7717/peerj.4375").await,
        Err(SourceError::Config(_))
    ));
    assert_eq!(server.count(), 2, "no request without an e-mail");
}

// --------------------------------------------------------------------- registry

#[tokio::test]
async fn disabled_sources_send_nothing_and_all_sources_share_one_base() {
    let server = MockServer::start(|seen, _| match seen.path.as_str() {
        "/datacite/dois/10.48550/arxiv.1706.03762" => {
            Canned::json(200, fixture("datacite/dois_10.48550_arxiv.1706.03762.json"))
        }
        _ => Canned::text(404, "Resource not found."),
    })
    .await;
    let mut all = SourcesSettings::all_at(&server.base).unwrap();
    all.get_mut(SourceName::Crossref).enabled = false;
    let net = net();
    let sources = Sources::new(&net, &all);
    assert_eq!(
        sources.crossref.lookup_doi("10.5555/x").await,
        Err(SourceError::Disabled)
    );
    assert!(
        sources
            .datacite
            .lookup("10.48550/arxiv.1706.03762")
            .await
            .unwrap()
            .is_found()
    );
    assert_eq!(sources.doi.lookup("10.5555/x").await, Ok(Lookup::NotFound));
    let paths: Vec<String> = server.seen().iter().map(|s| s.path.clone()).collect();
    assert_eq!(
        paths,
        ["/datacite/dois/10.48550/arxiv.1706.03762", "/doi/10.5555/x"]
    );
    let names: Vec<String> = net.stats().into_iter().map(|s| s.source).collect();
    assert!(names.contains(&"datacite".to_string()) && names.contains(&"unpaywall".to_string()));
}

#[tokio::test]
async fn pubmed_accepts_the_single_hit_for_one_doi_even_when_the_record_omits_it() {
    let article = r#"<?xml version="1.0" ?><PubmedArticleSet><PubmedArticle><MedlineCitation Status="MEDLINE" Owner="NLM"><PMID Version="1">12091962</PMID><Article><Journal><JournalIssue><PubDate><Year>1990</Year></PubDate></JournalIssue><Title>Social justice</Title></Journal><ArticleTitle>The treatment of AIDS behind the walls of correctional facilities.</ArticleTitle></Article></MedlineCitation><PubmedData><ArticleIdList><ArticleId IdType="pubmed">12091962</ArticleId></ArticleIdList></PubmedData></PubmedArticle></PubmedArticleSet>"#;
    let server = MockServer::start(move |seen, _| match seen.path.as_str() {
        "/entrez/eutils/esearch.fcgi" => Canned::new(200, "text/xml", esearch(&["12091962"])),
        _ => Canned::new(200, "text/xml", article),
    })
    .await;
    let client = PubmedClient::new(&net(), settings(SourceName::Pubmed, &server.base));
    let w = client
        .lookup_doi("10.5555/listed-elsewhere")
        .await
        .unwrap()
        .found()
        .unwrap();
    assert_eq!(w.pmid.as_deref(), Some("12091962"));
    // Two DOIs asked at once: only DOI matches count.
    let answers = client
        .lookup_dois(&["10.5555/a".into(), "10.5555/b".into()])
        .await;
    assert!(answers.iter().all(|(_, a)| a == &Ok(Lookup::NotFound)));
}
