//! The false alarms peers were caught by, and what the last held-out run got wrong, one
//! class per test: made-up works served by the mock world, resolved through the library
//! as a CLI run resolves them.
//!
//! - an online-first article cited by its print year;
//! - records that cut long author lists (the 100-name cap, a closing "et al.");
//! - DOIs that end in a version (`…/v2`);
//! - corrections and errata, which are not retractions;
//! - a fabricated paper whose venue is a proceedings volume that the sources hold;
//! - IEEE names with particles, and a wrong author list behind a correct DOI;
//! - a venue swapped for another with the DOI present, and a conference cited for a
//!   paper found as an arXiv preprint;
//! - a warm rerun that sends no request.

mod support;

use citeproof::cache::Cache;
use citeproof::model::FileId;
use citeproof::net::Rate;
use citeproof::parse::ParseOptions;
use citeproof::resolve::cascade::resolve_blocking;
use citeproof::resolve::mismatch::Field;
use citeproof::resolve::options::ResolveOptions;
use citeproof::resolve::outcome::Status;
use citeproof::resolve::query::{QueryKind, RefQuery};
use citeproof::resolve::resolution::Resolution;
use citeproof::resolve::sources::SourcesSettings;
use serde_json::json;
use support::{MockConfig, MockWorld, Source, Work};

/// A world work from the fields that matter here; the rest empty.
fn work(id: &str, title: &str, authors: &[(&str, &str)], year: i32, venue: &str) -> Work {
    let authors: Vec<_> = authors
        .iter()
        .map(|(given, family)| json!({"given": given, "family": family}))
        .collect();
    serde_json::from_value(json!({
        "id": id, "doi": null, "arxiv": null, "pmid": null, "pmcid": null, "s2": null,
        "openalex": null, "title": title, "authors": authors, "year": year, "venue": venue,
        "type": "journal-article", "abstract": null, "is_retracted": false, "oa_url": null,
        "sources": ["crossref", "openalex", "semantic_scholar"]
    }))
    .expect("world work")
}

fn with_doi(mut w: Work, doi: &str) -> Work {
    w.doi = Some(doi.to_string());
    w
}

/// Resolver options on the world's base URLs, limits lifted, with `cache` if given.
fn options(world: &MockWorld, cache: Option<Cache>) -> ResolveOptions {
    let mut sources = SourcesSettings::all_at(world.origin()).expect("mock base URLs");
    for s in &mut sources.sources {
        s.rate = Some(Rate::per_second(10_000));
        s.max_concurrency = Some(64);
    }
    ResolveOptions {
        sources,
        cache,
        ..ResolveOptions::default()
    }
}

fn resolve_with(world: &MockWorld, cache: Option<Cache>, queries: &[RefQuery]) -> Vec<Resolution> {
    resolve_blocking(options(world, cache), queries)
        .expect("resolver")
        .0
}

fn resolve(world: &MockWorld, queries: &[RefQuery]) -> Vec<Resolution> {
    resolve_with(world, None, queries)
}

fn string(raw: &str) -> RefQuery {
    RefQuery::from_string(raw)
}

fn bibtex(entry: &str) -> RefQuery {
    let parsed = citeproof::parse::bibtex::parse(FileId(0), entry, &ParseOptions::default());
    let reference = parsed.references.first().expect("one BibTeX entry");
    RefQuery::new(
        reference.fields.clone(),
        reference.raw.clone(),
        QueryKind::Entry,
    )
}

fn assert_all(queries: &[RefQuery], resolutions: &[Resolution], want: Status) {
    for (q, r) in queries.iter().zip(resolutions) {
        assert_eq!(r.status, want, "{}\n{r:#?}", q.raw);
    }
}

#[test]
fn an_online_first_article_cited_by_its_print_year_is_cited_rightly() {
    let mut article = with_doi(
        work(
            "t-online-first",
            "Seasonal drift in the microbiomes of coastal sediments",
            &[("Ines", "Varga"), ("Tomas", "Lindqvist")],
            2013,
            "Journal of Coastal Ecology",
        ),
        "10.5555/jce.2013.0417",
    );
    article.published_print = Some(2014);
    let world = MockWorld::start(MockConfig::works(vec![article]));
    let queries = [
        string(
            "Varga, I., & Lindqvist, T. (2014). Seasonal drift in the microbiomes of coastal \
             sediments. Journal of Coastal Ecology, 12(3), 45-60. https://doi.org/10.5555/jce.2013.0417",
        ),
        string(
            "I. Varga and T. Lindqvist, \"Seasonal drift in the microbiomes of coastal sediments,\" \
             J. Coastal Ecol., vol. 12, no. 3, pp. 45-60, 2014.",
        ),
        string(
            "Varga, I., & Lindqvist, T. (2013). Seasonal drift in the microbiomes of coastal \
             sediments. Journal of Coastal Ecology, 12(3), 45-60.",
        ),
    ];
    let resolutions = resolve(&world, &queries);
    assert_all(&queries, &resolutions, Status::Verified);
    // Neither year of the record is a third one.
    let wrong = [string(
        "Varga, I., & Lindqvist, T. (2011). Seasonal drift in the microbiomes of coastal \
         sediments. Journal of Coastal Ecology, 12(3), 45-60. https://doi.org/10.5555/jce.2013.0417",
    )];
    let r = resolve(&world, &wrong);
    assert_eq!(r[0].status, Status::Miscited, "{:#?}", r[0]);
    assert_eq!(r[0].fields_wrong, vec![Field::Year]);
}

/// `n` made-up people (at most 260): twenty family names, each with up to thirteen
/// endings, so that every family name differs.
fn people(n: usize) -> Vec<(String, String)> {
    const GIVEN: &[&str] = &[
        "Ana", "Bo", "Chidi", "Dara", "Emil", "Fatma", "Goran", "Hana",
    ];
    const FAMILY: &[&str] = &[
        "Abara", "Bekov", "Castell", "Dunmore", "Eklund", "Farrow", "Gideon", "Holm", "Iwu",
        "Jansky", "Kollar", "Lund", "Moro", "Nakai", "Oduya", "Pell", "Quarry", "Rask", "Saito",
        "Tuval",
    ];
    const ENDINGS: &[&str] = &[
        "", "son", "ler", "ova", "ez", "berg", "ski", "ini", "ard", "ton", "ley", "ham", "well",
    ];
    (0..n)
        .map(|i| {
            let given = GIVEN[i % GIVEN.len()].to_string();
            let family = format!("{}{}", FAMILY[i % FAMILY.len()], ENDINGS[i / FAMILY.len()]);
            (given, family)
        })
        .collect()
}

#[test]
fn names_beyond_a_record_list_cut_short_are_not_wrong_authors() {
    // A collaboration paper with 240 authors that only OpenAlex indexes: its lists and
    // searches give the first 100 authorships.
    let crowd = people(240);
    let names: Vec<(&str, &str)> = crowd
        .iter()
        .map(|(g, f)| (g.as_str(), f.as_str()))
        .collect();
    let mut big = work(
        "t-collaboration",
        "Combined measurement of rare decays in the forward spectrometer",
        &names,
        2021,
        "European Physical Journal C",
    );
    big.sources = vec!["openalex".into()];
    // A deposit that lists three authors and then "et al.".
    let mut short = with_doi(
        work(
            "t-et-al-deposit",
            "Soil moisture memory in semi-arid grasslands",
            &[("Grace", "Chen"), ("Carl", "Wiede"), ("Rana", "Kokoszka")],
            2019,
            "Hydrology Letters",
        ),
        "10.5555/hl.2019.0031",
    );
    short.authors.push(support::Author {
        given: None,
        family: "et al.".into(),
    });
    let world = MockWorld::start(MockConfig::works(vec![big, short]));
    let all_names = crowd
        .iter()
        .map(|(g, f)| format!("{f}, {g}"))
        .collect::<Vec<_>>()
        .join(" and ");
    let queries = [
        bibtex(&format!(
            "@article{{big, author = {{{all_names}}}, title = {{Combined measurement of rare decays \
             in the forward spectrometer}}, journal = {{European Physical Journal C}}, year = {{2021}}}}"
        )),
        string(
            "Chen, G., Wiede, C., Kokoszka, R., Okafor, M., Brandt, L., & Iyer, S. (2019). Soil \
             moisture memory in semi-arid grasslands. Hydrology Letters. https://doi.org/10.5555/hl.2019.0031",
        ),
    ];
    let resolutions = resolve(&world, &queries);
    assert_all(&queries, &resolutions, Status::Verified);
    // Names that contradict the listed part are still wrong.
    let wrong = [string(
        "Chen, G., Nobody, T., Noone, U., Okafor, M. (2019). Soil moisture memory in semi-arid \
         grasslands. Hydrology Letters. https://doi.org/10.5555/hl.2019.0031",
    )];
    let r = resolve(&world, &wrong);
    assert_eq!(r[0].status, Status::Miscited, "{:#?}", r[0]);
    assert_eq!(r[0].fields_wrong, vec![Field::Authors]);
}

#[test]
fn dois_that_end_in_a_version_are_looked_up_as_written() {
    let mut square = with_doi(
        work(
            "t-research-square",
            "Drought tolerance markers in sorghum landraces",
            &[("Amina", "Bello"), ("Kwame", "Asante")],
            2022,
            "Research Square",
        ),
        "10.21203/rs.3.rs-1234567/v2",
    );
    square.kind = Some("posted-content".into());
    let mut authorea = with_doi(
        work(
            "t-authorea",
            "Tidal forcing of groundwater salinity in estuaries",
            &[("Lea", "Moreau"), ("Jonas", "Falk")],
            2023,
            "Authorea",
        ),
        "10.22541/au.123456789.12345678/v1",
    );
    authorea.kind = Some("posted-content".into());
    let world = MockWorld::start(MockConfig::works(vec![square, authorea]));
    let queries = [
        string(
            "Bello, A., & Asante, K. (2022). Drought tolerance markers in sorghum landraces. \
             Research Square. https://doi.org/10.21203/rs.3.rs-1234567/v2",
        ),
        string(
            "L. Moreau and J. Falk, \"Tidal forcing of groundwater salinity in estuaries,\" \
             Authorea, 2023, doi: 10.22541/au.123456789.12345678/v1.",
        ),
        bibtex(
            "@misc{square, author = {Bello, Amina and Asante, Kwame}, title = {Drought tolerance \
             markers in sorghum landraces}, year = {2022}, doi = {10.21203/rs.3.rs-1234567/v2}}",
        ),
        // Cited by its DOI alone.
        RefQuery::new(
            citeproof::model::RefFields {
                doi: Some("10.22541/au.123456789.12345678/v1".into()),
                ..Default::default()
            },
            "doi:10.22541/au.123456789.12345678/v1",
            QueryKind::Identifier,
        ),
    ];
    let resolutions = resolve(&world, &queries);
    assert_all(&queries, &resolutions, Status::Verified);
    let asked = world
        .requests(Source::Crossref)
        .iter()
        .map(|r| {
            percent_encoding::percent_decode_str(&r.path_and_query)
                .decode_utf8_lossy()
                .into_owned()
        })
        .collect::<Vec<_>>()
        .join("\n");
    assert!(asked.contains("10.21203/rs.3.rs-1234567/v2"), "{asked}");
}

#[test]
fn corrections_and_errata_are_not_retractions() {
    let mut corrected = with_doi(
        work(
            "t-corrected",
            "Night-shift work and glucose tolerance in nurses",
            &[("Maren", "Holt"), ("Sung", "Park")],
            2018,
            "Occupational Medicine Reports",
        ),
        "10.5555/omr.2018.112",
    );
    corrected.pmid = Some("39900001".into());
    for (kind, n) in [("correction", 1), ("erratum", 2), ("corrigendum", 3)] {
        corrected.updates.push(
            serde_json::from_value(json!({
                "type": kind, "doi": format!("10.5555/omr.2019.notice{n}"),
                "source": "publisher", "date": "2019-03-01"
            }))
            .expect("update"),
        );
    }
    // The notices themselves, titled as publishers title them.
    let notice = |id: &str, title: &str, doi: &str| {
        let mut w = with_doi(
            work(id, title, &[], 2019, "Occupational Medicine Reports"),
            doi,
        );
        w.kind = Some("correction".into());
        w
    };
    let world = MockWorld::start(MockConfig::works(vec![
        corrected,
        notice(
            "t-correction-notice",
            "Correction to: Night-shift work and glucose tolerance in nurses",
            "10.5555/omr.2019.notice1",
        ),
        notice(
            "t-erratum-notice",
            "Erratum: Night-shift work and glucose tolerance in nurses",
            "10.5555/omr.2019.notice2",
        ),
    ]));
    let queries = [
        string(
            "Holt, M., & Park, S. (2018). Night-shift work and glucose tolerance in nurses. \
             Occupational Medicine Reports. https://doi.org/10.5555/omr.2018.112",
        ),
        string(
            "Holt M, Park S. Night-shift work and glucose tolerance in nurses. Occup Med Rep. 2018. \
             PMID: 39900001.",
        ),
        string(
            "Holt, M., & Park, S. (2018). Night-shift work and glucose tolerance in nurses. \
             Occupational Medicine Reports.",
        ),
    ];
    let resolutions = resolve(&world, &queries);
    assert_all(&queries, &resolutions, Status::Verified);
    for r in &resolutions {
        let work = r.work.as_ref().expect("a record");
        assert_eq!(work.doi.as_deref(), Some("10.5555/omr.2018.112"), "{r:#?}");
        assert!(!work.is_retracted);
    }
}

#[test]
fn a_proceedings_volume_never_verifies_a_paper_in_it() {
    // The volume's record: everyone in it listed as an author, its title the venue.
    let crowd = people(100);
    let names: Vec<(&str, &str)> = crowd
        .iter()
        .map(|(g, f)| (g.as_str(), f.as_str()))
        .collect();
    let mut volume = with_doi(
        work(
            "t-findings-volume",
            "Findings of the Association for Computational Linguistics: ACL 2024",
            &names,
            2024,
            "Findings of the Association for Computational Linguistics: ACL 2024",
        ),
        "10.18653/v1/2024.findings-acl",
    );
    volume.kind = Some("proceedings".into());
    let world = MockWorld::start(MockConfig::works(vec![volume]));
    let queries = [
        string(
            "**Rethinking Priors for Sparse Retrieval** - Okafor et al., Findings of the \
             Association for Computational Linguistics: ACL 2024 (2024).",
        ),
        string(
            "Okafor, M., & Lindgren, P. (2024). Rethinking priors for sparse retrieval. In Findings \
             of the Association for Computational Linguistics: ACL 2024 (pp. 1-12). \
             https://doi.org/10.18653/v1/2024.findings-acl",
        ),
        string(
            "M. Okafor, \"Rethinking priors for sparse retrieval,\" Findings of the Association for \
             Computational Linguistics: ACL 2024, 2024.",
        ),
        bibtex(
            "@inproceedings{okafor2024, author = {Okafor, Maya and others}, title = {Rethinking \
             Priors for Sparse Retrieval}, booktitle = {Findings of the Association for \
             Computational Linguistics: ACL 2024}, year = {2024}}",
        ),
    ];
    let resolutions = resolve(&world, &queries);
    for (q, r) in queries.iter().zip(&resolutions) {
        assert!(
            matches!(r.status, Status::NotFound | Status::Miscited),
            "{}\n{r:#?}",
            q.raw
        );
        assert!(
            r.status != Status::Miscited || r.fields_wrong.contains(&Field::Doi),
            "only the cited DOI can tie it to the volume: {r:#?}"
        );
    }
    assert_eq!(
        resolutions[0].status,
        Status::NotFound,
        "{:#?}",
        resolutions[0]
    );
    // The volume cited as a whole is its record.
    let whole = [string(
        "Ku, L.-W., Martins, A., & Srikumar, V. (Eds.). (2024). Findings of the Association for \
         Computational Linguistics: ACL 2024. Association for Computational Linguistics.",
    )];
    let r = resolve(&world, &whole);
    assert!(
        matches!(r[0].status, Status::Verified | Status::Miscited),
        "{:#?}",
        r[0]
    );
}

#[test]
fn ieee_names_with_particles_and_a_wrong_author_list_behind_a_right_doi() {
    let joins = with_doi(
        work(
            "t-ieee-joins",
            "Learned index structures for streaming joins",
            &[("Hiroshi", "Yamada"), ("Olga", "Petrova")],
            2021,
            "2021 IEEE 37th International Conference on Data Engineering (ICDE)",
        ),
        "10.1109/icde51399.2021.00123",
    );
    let sketches = with_doi(
        work(
            "t-ieee-particles",
            "Cardinality sketches for federated queries",
            &[("Marta C.", "de la Cruz"), ("Pieter J.", "van den Berg")],
            2022,
            "2022 IEEE 38th International Conference on Data Engineering (ICDE)",
        ),
        "10.1109/icde53745.2022.00211",
    );
    let world = MockWorld::start(MockConfig::works(vec![joins, sketches]));
    let queries = [
        // Names with particles, the paper's own.
        string(
            "Marta C. de la Cruz and Pieter J. van den Berg, \"Cardinality sketches for federated \
             queries,\" in Proc. IEEE 38th Int. Conf. Data Eng. (ICDE), 2022, pp. 2201-2213, doi: \
             10.1109/ICDE53745.2022.00211.",
        ),
        // The same names behind another paper's right title and DOI.
        string(
            "Marta C. de la Cruz and Pieter J. van den Berg, \"Learned index structures for \
             streaming joins,\" in Proc. IEEE 37th Int. Conf. Data Eng. (ICDE), 2021, pp. \
             1401-1412, doi: 10.1109/ICDE51399.2021.00123.",
        ),
    ];
    let resolutions = resolve(&world, &queries);
    assert_eq!(
        resolutions[0].status,
        Status::Verified,
        "{:#?}",
        resolutions[0]
    );
    assert_eq!(
        resolutions[1].status,
        Status::Miscited,
        "{:#?}",
        resolutions[1]
    );
    assert_eq!(resolutions[1].fields_wrong, vec![Field::Authors]);
}

#[test]
fn a_swapped_venue_behind_a_right_doi_is_a_wrong_venue() {
    let cvpr = with_doi(
        work(
            "t-cvpr",
            "Event-driven optical flow with spiking transformers",
            &[("Yuki", "Tanabe"), ("Rosa", "Iglesias")],
            2023,
            "2023 IEEE/CVF Conference on Computer Vision and Pattern Recognition (CVPR)",
        ),
        "10.1109/cvpr52729.2023.01789",
    );
    let journal = with_doi(
        work(
            "t-journal",
            "Groundwater recharge under irrigated rice terraces",
            &[("Minh", "Tran"), ("Elise", "Vogel")],
            2020,
            "Journal of Hydrology",
        ),
        "10.5555/jhydrol.2020.124901",
    );
    let world = MockWorld::start(MockConfig::works(vec![cvpr, journal]));
    let queries = [
        string(
            "Y. Tanabe and R. Iglesias, \"Event-driven optical flow with spiking transformers,\" in \
             2023 IEEE/CVF International Conference on Computer Vision (ICCV), 2023, pp. 19432-19441, \
             doi: 10.1109/CVPR52729.2023.01789.",
        ),
        string(
            "Tran, M., & Vogel, E. (2020). Groundwater recharge under irrigated rice terraces. Water \
             Resources Research, 56(4). https://doi.org/10.5555/jhydrol.2020.124901",
        ),
    ];
    let resolutions = resolve(&world, &queries);
    for (q, r) in queries.iter().zip(&resolutions) {
        assert_eq!(r.status, Status::Miscited, "{}\n{r:#?}", q.raw);
        assert_eq!(r.fields_wrong, vec![Field::Venue], "{}", q.raw);
    }
}

#[test]
fn a_conference_cited_for_an_arxiv_record_is_checked_against_the_published_version() {
    let title = "Contrastive pretraining for tabular anomaly detection";
    let authors = [("Noor", "Haddad"), ("Felix", "Brandt")];
    let mut preprint = work("t-preprint", title, &authors, 2022, "arXiv");
    preprint.arxiv = Some("2203.04567".into());
    preprint.kind = Some("preprint".into());
    let published = with_doi(
        work(
            "t-published",
            title,
            &authors,
            2023,
            "Proceedings of the AAAI Conference on Artificial Intelligence",
        ),
        "10.1609/aaai.v37i6.25901",
    );
    let world = MockWorld::start(MockConfig::works(vec![preprint, published]));
    let queries = [
        // The conference is wrong: the paper appeared at AAAI.
        string(&format!(
            "N. Haddad and F. Brandt, \"{title},\" in Advances in Neural Information Processing \
             Systems (NeurIPS), 2022. arXiv:2203.04567."
        )),
        // Right conference, cited with the arXiv id.
        string(&format!(
            "N. Haddad and F. Brandt, \"{title},\" in Proc. AAAI Conf. Artif. Intell., 2023. \
             arXiv:2203.04567."
        )),
        // The preprint cited as a preprint.
        string(&format!(
            "Haddad, N., & Brandt, F. (2022). {title}. arXiv preprint arXiv:2203.04567."
        )),
    ];
    let resolutions = resolve(&world, &queries);
    assert_eq!(
        resolutions[0].status,
        Status::Miscited,
        "{:#?}",
        resolutions[0]
    );
    assert_eq!(resolutions[0].fields_wrong, vec![Field::Venue]);
    assert_eq!(
        resolutions[1].status,
        Status::Verified,
        "{:#?}",
        resolutions[1]
    );
    assert_eq!(
        resolutions[2].status,
        Status::Verified,
        "{:#?}",
        resolutions[2]
    );
}

#[test]
fn a_warm_rerun_sends_no_request() {
    // Works cited by PMID alone come from PubMed: their retraction status is asked of
    // Crossref in one batch. A preprint cited with a venue makes a second search.
    let cited_by_pmid = |id: &str, title: &str, doi: &str, pmid: &str| {
        let mut w = with_doi(
            work(id, title, &[("Ana", "Ruiz")], 2020, "Clinical Trials Today"),
            doi,
        );
        w.pmid = Some(pmid.into());
        w
    };
    let title = "Contrastive pretraining for tabular anomaly detection";
    let mut preprint = work("t-preprint", title, &[("Noor", "Haddad")], 2022, "arXiv");
    preprint.arxiv = Some("2203.04567".into());
    preprint.kind = Some("preprint".into());
    let published = with_doi(
        work(
            "t-published",
            title,
            &[("Noor", "Haddad")],
            2023,
            "Proceedings of the AAAI Conference on Artificial Intelligence",
        ),
        "10.1609/aaai.v37i6.25901",
    );
    let world = MockWorld::start(MockConfig::works(vec![
        cited_by_pmid(
            "t-pmid-1",
            "Statin adherence after stroke in rural clinics",
            "10.5555/ctt.2020.1",
            "39900011",
        ),
        cited_by_pmid(
            "t-pmid-2",
            "Early mobilisation after hip fracture surgery",
            "10.5555/ctt.2020.2",
            "39900012",
        ),
        preprint,
        published,
    ]));
    let queries = [
        string(
            "Ruiz A. Statin adherence after stroke in rural clinics. Clin Trials Today. 2020. PMID: 39900011.",
        ),
        string(
            "Ruiz A. Early mobilisation after hip fracture surgery. Clin Trials Today. 2020. PMID: 39900012.",
        ),
        string(&format!(
            "N. Haddad, \"{title},\" in NeurIPS, 2022. arXiv:2203.04567."
        )),
        string(
            "Okafor, M. (2024). Rethinking priors for sparse retrieval. Journal of Retrieval Studies, 3(2), 1-9.",
        ),
    ];
    let dir = tempfile::tempdir().expect("cache directory");
    let cache = Cache::open(dir.path()).expect("cache");
    let first = resolve_with(&world, Some(cache.clone()), &queries);
    let batches: Vec<String> = world
        .requests(Source::Crossref)
        .into_iter()
        .map(|r| r.path_and_query)
        .filter(|p| p.contains("filter=doi"))
        .collect();
    assert!(!batches.is_empty(), "the retraction check asks Crossref");
    world.clear_requests();
    let again = resolve_with(&world, Some(cache), &queries);
    let asked: Vec<String> = Source::ALL
        .iter()
        .flat_map(|s| world.requests(*s))
        .map(|r| r.path_and_query)
        .collect();
    assert!(asked.is_empty(), "the warm rerun asked: {asked:#?}");
    let status = |r: &[Resolution]| r.iter().map(|r| r.status).collect::<Vec<_>>();
    assert_eq!(status(&first), status(&again));
}
