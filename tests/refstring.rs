//! The reference-string parser on hand-written references: one per citation style, PDF
//! extraction noise, organisations, particles, `et al.`, Unicode names, LLM Markdown,
//! garbage. Every field that the case determines is asserted exactly.

#[path = "../src/proptest_config.rs"]
mod proptest_config;

use citeproof::model::{Person, RefFields};
use citeproof::parse::refstring::parse;

fn p(given: &str, family: &str) -> Person {
    Person::new(Some(given), family)
}

fn families(f: &RefFields) -> Vec<&str> {
    f.authors.iter().map(|a| a.family.as_str()).collect()
}

#[test]
fn apa_journal_article() {
    let f = parse(
        "Romero, C., Paunesku, D., & Dweck, C. (2011). Brainology in the classroom: An online growth mindset intervention. Journal of Educational Things, 12(3), 45–67. https://doi.org/10.1000/ABC.123",
    );
    assert_eq!(
        f.authors,
        vec![p("C.", "Romero"), p("D.", "Paunesku"), p("C.", "Dweck")]
    );
    assert!(!f.authors_truncated);
    assert_eq!(f.year, Some(2011));
    assert_eq!(
        f.title.as_deref(),
        Some("Brainology in the classroom: An online growth mindset intervention")
    );
    assert_eq!(f.venue.as_deref(), Some("Journal of Educational Things"));
    assert_eq!(f.volume.as_deref(), Some("12"));
    assert_eq!(f.issue.as_deref(), Some("3"));
    assert_eq!(f.pages.as_deref(), Some("45-67"));
    assert_eq!(f.doi.as_deref(), Some("10.1000/abc.123"));
    assert_eq!(f.url, None, "a doi.org link is the DOI, not a URL");
}

#[test]
fn ieee_with_number_label_and_quoted_title() {
    let f = parse(
        "[12] A. Vaswani, N. Shazeer, N. Parmar, J. Uszkoreit, L. Jones, A. N. Gomez, Ł. Kaiser, and I. Polosukhin, “Attention is all you need,” in Advances in Neural Information Processing Systems, vol. 30, 2017, pp. 5998–6008.",
    );
    assert_eq!(
        families(&f),
        [
            "Vaswani",
            "Shazeer",
            "Parmar",
            "Uszkoreit",
            "Jones",
            "Gomez",
            "Kaiser",
            "Polosukhin"
        ]
    );
    assert_eq!(f.authors[5], p("A. N.", "Gomez"));
    assert_eq!(f.authors[6], p("Ł.", "Kaiser"));
    assert_eq!(f.title.as_deref(), Some("Attention is all you need"));
    assert_eq!(
        f.venue.as_deref(),
        Some("Advances in Neural Information Processing Systems")
    );
    assert_eq!(f.volume.as_deref(), Some("30"));
    assert_eq!(f.pages.as_deref(), Some("5998-6008"));
    assert_eq!(f.year, Some(2017));
}

#[test]
fn vancouver_with_identifiers() {
    let f = parse(
        "12. LeCun Y, Bengio Y, Hinton G. Deep learning. Nature. 2015;521(7553):436-44. doi: 10.1038/nature14539. PMID: 26017442.",
    );
    assert_eq!(
        f.authors,
        vec![p("Y", "LeCun"), p("Y", "Bengio"), p("G", "Hinton")]
    );
    assert_eq!(f.title.as_deref(), Some("Deep learning"));
    assert_eq!(f.venue.as_deref(), Some("Nature"));
    assert_eq!(f.year, Some(2015));
    assert_eq!(f.volume.as_deref(), Some("521"));
    assert_eq!(f.issue.as_deref(), Some("7553"));
    assert_eq!(f.pages.as_deref(), Some("436-44"));
    assert_eq!(f.doi.as_deref(), Some("10.1038/nature14539"));
    assert_eq!(f.pmid.as_deref(), Some("26017442"));
}

#[test]
fn vancouver_et_al_and_pmcid() {
    let f = parse(
        "Smith J, Jones K, et al. Some result about things. Lancet. 2020;395(10223):497-506. PMCID: PMC7159299.",
    );
    assert_eq!(f.authors, vec![p("J", "Smith"), p("K", "Jones")]);
    assert!(f.authors_truncated);
    assert_eq!(f.title.as_deref(), Some("Some result about things"));
    assert_eq!(f.venue.as_deref(), Some("Lancet"));
    assert_eq!(f.pmcid.as_deref(), Some("PMC7159299"));
}

#[test]
fn nature_style() {
    let f = parse("LeCun, Y., Bengio, Y. & Hinton, G. Deep learning. Nature 521, 436–444 (2015).");
    assert_eq!(
        f.authors,
        vec![p("Y.", "LeCun"), p("Y.", "Bengio"), p("G.", "Hinton")]
    );
    assert_eq!(f.title.as_deref(), Some("Deep learning"));
    assert_eq!(f.venue.as_deref(), Some("Nature"));
    assert_eq!(f.volume.as_deref(), Some("521"));
    assert_eq!(f.pages.as_deref(), Some("436-444"));
    assert_eq!(f.year, Some(2015));
}

#[test]
fn acm_style_full_names() {
    let f = parse(
        "Yann LeCun, Yoshua Bengio, and Geoffrey Hinton. 2015. Deep learning. Nature 521, 7553 (2015), 436–444. https://doi.org/10.1038/nature14539",
    );
    assert_eq!(
        f.authors,
        vec![
            p("Yann", "LeCun"),
            p("Yoshua", "Bengio"),
            p("Geoffrey", "Hinton")
        ]
    );
    assert_eq!(f.year, Some(2015));
    assert_eq!(f.title.as_deref(), Some("Deep learning"));
    assert_eq!(f.venue.as_deref(), Some("Nature"));
    assert_eq!(f.doi.as_deref(), Some("10.1038/nature14539"));
}

#[test]
fn chicago_style_inverted_first_author() {
    let f = parse(
        "LeCun, Yann, Yoshua Bengio, and Geoffrey Hinton. \"Deep Learning.\" Nature 521, no. 7553 (2015): 436–44.",
    );
    assert_eq!(
        f.authors,
        vec![
            p("Yann", "LeCun"),
            p("Yoshua", "Bengio"),
            p("Geoffrey", "Hinton")
        ]
    );
    assert_eq!(f.title.as_deref(), Some("Deep Learning"));
    assert_eq!(f.venue.as_deref(), Some("Nature"));
    assert_eq!(f.volume.as_deref(), Some("521"));
    assert_eq!(f.issue.as_deref(), Some("7553"));
    assert_eq!(f.year, Some(2015));
}

#[test]
fn mla_style_et_al() {
    let f = parse(
        "LeCun, Yann, et al. \"Deep Learning.\" Nature, vol. 521, no. 7553, 2015, pp. 436-444.",
    );
    assert_eq!(f.authors, vec![p("Yann", "LeCun")]);
    assert!(f.authors_truncated);
    assert_eq!(f.title.as_deref(), Some("Deep Learning"));
    assert_eq!(f.venue.as_deref(), Some("Nature"));
    assert_eq!(f.volume.as_deref(), Some("521"));
    assert_eq!(f.issue.as_deref(), Some("7553"));
    assert_eq!(f.pages.as_deref(), Some("436-444"));
    assert_eq!(f.year, Some(2015));
}

#[test]
fn harvard_style_single_quotes() {
    let f = parse(
        "LeCun, Y., Bengio, Y. and Hinton, G. (2015) 'Deep learning', Nature, 521(7553), pp. 436-444.",
    );
    assert_eq!(families(&f), ["LeCun", "Bengio", "Hinton"]);
    assert_eq!(f.title.as_deref(), Some("Deep learning"));
    assert_eq!(f.venue.as_deref(), Some("Nature"));
    assert_eq!(f.year, Some(2015));
    assert_eq!(f.pages.as_deref(), Some("436-444"));
}

#[test]
fn llm_markdown_title_first() {
    let f = parse(
        "**Transfer Learning for Semantic Segmentation** - Lee et al., 2023 IEEE/CVF Conference on Computer Vision and Pattern Recognition (CVPR) (2023). DOI: 10.1109/aiam65869.2022.52964",
    );
    assert_eq!(
        f.title.as_deref(),
        Some("Transfer Learning for Semantic Segmentation")
    );
    assert_eq!(f.authors, vec![Person::new(None, "Lee")]);
    assert!(f.authors_truncated);
    assert_eq!(f.year, Some(2023));
    assert_eq!(
        f.venue.as_deref(),
        Some("IEEE/CVF Conference on Computer Vision and Pattern Recognition")
    );
    assert_eq!(f.doi.as_deref(), Some("10.1109/aiam65869.2022.52964"));
}

#[test]
fn llm_markdown_italics_apa() {
    let f = parse(
        "Ghasroddashti, A., Guyn, C., & Head, L. (2024). *Cost-benefit analysis of 3D-printed vascular models*. *Journal of Plastic Surgery*.",
    );
    assert_eq!(families(&f), ["Ghasroddashti", "Guyn", "Head"]);
    assert_eq!(
        f.title.as_deref(),
        Some("Cost-benefit analysis of 3D-printed vascular models")
    );
    assert_eq!(f.venue.as_deref(), Some("Journal of Plastic Surgery"));
    assert_eq!(f.year, Some(2024));
}

#[test]
fn pdf_noise_in_doi_and_years() {
    let f = parse(
        "Martin WF, Garg S, Zimorski V. 2015. Endosymbiotic theories for eukaryote origin. Philos. Trans. R. Soc. B Biol. Sci. 370:20140330. doi: 10. 1098/rstb.2014.0330.",
    );
    assert_eq!(
        f.authors,
        vec![p("WF", "Martin"), p("S", "Garg"), p("V", "Zimorski")]
    );
    assert_eq!(f.year, Some(2015));
    assert_eq!(
        f.title.as_deref(),
        Some("Endosymbiotic theories for eukaryote origin")
    );
    assert_eq!(f.doi.as_deref(), Some("10.1098/rstb.2014.0330"));
    assert_eq!(f.volume.as_deref(), Some("370"));
}

#[test]
fn pdf_noise_in_arxiv_id() {
    let f = parse(
        "B. Zoph and Q. V. Le, \"Neural architecture search with reinforcement learning,\" arXiv :1611 .09748v4, 2017.",
    );
    assert_eq!(f.authors, vec![p("B.", "Zoph"), p("Q. V.", "Le")]);
    assert_eq!(
        f.title.as_deref(),
        Some("Neural architecture search with reinforcement learning")
    );
    assert_eq!(f.arxiv.as_deref(), Some("1611.09748"));
    assert_eq!(f.venue.as_deref(), Some("arXiv"));
    assert_eq!(f.year, Some(2017));
}

#[test]
fn pdf_noise_hyphenation_ligatures_and_line_breaks() {
    let f = parse(
        "Smith, J. (2019). A trans- formation of ﬁeld theory\nfor ﬂuid dynamics. Journal of Fluid\r\nMechanics, 870, 1–20.",
    );
    assert_eq!(
        f.title.as_deref(),
        Some("A transformation of field theory for fluid dynamics")
    );
    assert_eq!(f.venue.as_deref(), Some("Journal of Fluid Mechanics"));
    assert_eq!(f.volume.as_deref(), Some("870"));
    assert_eq!(f.pages.as_deref(), Some("1-20"));
}

#[test]
fn pdf_noise_doi_glued_to_what_follows() {
    let f = parse(
        "M. Schmaltz and D. Tucker-Smith, \"Little Higgs review\", Ann. Rev. Nucl. Part. Sci. 55 (2005)229 ,doi :10.1146/annurev.nucl.55.090704.151502,arXiv :hep-ph/0502182.",
    );
    assert_eq!(
        f.doi.as_deref(),
        Some("10.1146/annurev.nucl.55.090704.151502")
    );
    assert_eq!(f.arxiv.as_deref(), Some("hep-ph/0502182"));
    assert_eq!(families(&f), ["Schmaltz", "Tucker-Smith"]);
    assert_eq!(f.year, Some(2005));
}

#[test]
fn organisation_as_author() {
    let f = parse(
        "World Health Organization. (2020). Global tuberculosis report 2020. Geneva: World Health Organization.",
    );
    assert_eq!(
        f.authors,
        vec![Person::new(None, "World Health Organization")]
    );
    assert_eq!(f.title.as_deref(), Some("Global tuberculosis report 2020"));
    assert_eq!(f.year, Some(2020));
    assert_eq!(f.publisher.as_deref(), Some("World Health Organization"));
}

#[test]
fn particles_stay_with_the_family_name() {
    let f = parse(
        "van der Berg, J., & De Nadai, M. (2018). Particles in family names. Names Quarterly, 4(2), 10–20.",
    );
    assert_eq!(
        f.authors,
        vec![p("J.", "van der Berg"), p("M.", "De Nadai")]
    );
    let f =
        parse("W.-P. de Roever and Marco De Nadai. A note on particles. Inf. Proc. Lett., 1990.");
    assert_eq!(
        f.authors,
        vec![p("W.-P.", "de Roever"), p("Marco", "De Nadai")]
    );
    assert_eq!(f.title.as_deref(), Some("A note on particles"));
}

#[test]
fn unicode_names_and_book_publisher() {
    let f =
        parse("Müller, Jürgen, and Søren Kierkegaard. Über die Freiheit. Berlin: Suhrkamp, 1999.");
    assert_eq!(
        f.authors,
        vec![p("Jürgen", "Müller"), p("Søren", "Kierkegaard")]
    );
    assert_eq!(f.title.as_deref(), Some("Über die Freiheit"));
    assert_eq!(f.publisher.as_deref(), Some("Suhrkamp"));
    assert_eq!(f.venue, None);
    assert_eq!(f.year, Some(1999));
}

#[test]
fn book_with_isbn() {
    let f = parse(
        "Goodfellow I, Bengio Y, Courville A. Deep Learning. Cambridge, MA: MIT Press; 2016. ISBN 978-0-262-03561-3.",
    );
    assert_eq!(families(&f), ["Goodfellow", "Bengio", "Courville"]);
    assert_eq!(f.title.as_deref(), Some("Deep Learning"));
    assert_eq!(f.publisher.as_deref(), Some("MIT Press"));
    assert_eq!(f.isbn.as_deref(), Some("9780262035613"));
    assert_eq!(f.year, Some(2016));
}

#[test]
fn editors_are_marked_as_editors() {
    let f = parse(
        "Bickman, L., & Ellis, H. (Eds.). (1990). Preparing psychologists for the 21st century. Hillsdale, NJ: L. Erlbaum.",
    );
    assert!(f.authors.is_empty());
    assert_eq!(f.editors, vec![p("L.", "Bickman"), p("H.", "Ellis")]);
    assert_eq!(f.year, Some(1990));
    assert_eq!(
        f.title.as_deref(),
        Some("Preparing psychologists for the 21st century")
    );
}

#[test]
fn chapter_in_edited_book() {
    let f = parse(
        "Baljon, M. C. L. (2002). Focusing in client-centred psychotherapy supervision. In J. C. Watson, R. N. Goldman & M. S. Warner (Eds.), Client-centered and experiential psychotherapy (pp. 315-324).",
    );
    assert_eq!(f.authors, vec![p("M. C. L.", "Baljon")]);
    assert_eq!(
        f.editors,
        vec![
            p("J. C.", "Watson"),
            p("R. N.", "Goldman"),
            p("M. S.", "Warner")
        ]
    );
    assert_eq!(
        f.venue.as_deref(),
        Some("Client-centered and experiential psychotherapy")
    );
    assert_eq!(f.pages.as_deref(), Some("315-324"));
}

#[test]
fn title_in_author_place() {
    let f = parse("Editorial. (1954). Weather, 9(1), 2–2.");
    assert!(f.authors.is_empty());
    assert_eq!(f.title.as_deref(), Some("Editorial"));
    assert_eq!(f.year, Some(1954));
    assert_eq!(f.venue.as_deref(), Some("Weather"));
}

#[test]
fn physics_reference_without_title() {
    let f = parse("C. J. Hamer, Nucl. Phys. B 195, 503 (1982).");
    assert_eq!(f.authors, vec![p("C. J.", "Hamer")]);
    assert_eq!(f.title, None, "a journal abbreviation is not a title");
    assert_eq!(f.year, Some(1982));
}

#[test]
fn urls_are_kept_and_pubmed_links_become_pmids() {
    let f = parse("Doe, J. (2020). A web page. Retrieved from https://example.org/page.html");
    assert_eq!(f.url.as_deref(), Some("https://example.org/page.html"));
    assert_eq!(f.title.as_deref(), Some("A web page"));
    let f = parse("Doe J. Some trial. BMJ. 2019;1:2. https://pubmed.ncbi.nlm.nih.gov/31234567/");
    assert_eq!(f.pmid.as_deref(), Some("31234567"));
}

#[test]
fn empty_and_garbage_input_give_empty_fields() {
    assert_eq!(parse(""), RefFields::default());
    assert_eq!(parse("   \n\t "), RefFields::default());
    let f = parse("%%%% ;;; ,,, ))) ((( 12 34");
    assert!(f.authors.is_empty() && f.doi.is_none() && f.year.is_none());
}

#[test]
fn a_family_name_that_is_a_function_word_is_an_author() {
    // The case a CI run once failed on (tests/resolve_props.proptest-regressions).
    let f = parse("Con, A. (2000). Aaaa aaa aaa aaa. Aaaa Aaaa.");
    assert_eq!(f.authors, vec![p("A.", "Con")]);
    assert_eq!(f.title.as_deref(), Some("Aaaa aaa aaa aaa"));
    assert_eq!(f.year, Some(2000));
    for (raw, authors, title) in [
        (
            "New, B. C., & Per, J. (2011). Growth of small firms. Economic Letters, 4, 1-9.",
            vec![p("B. C.", "New"), p("J.", "Per")],
            "Growth of small firms",
        ),
        (
            "Des, M., Un, K., and Smith, R. (1999). A survey of caching. Computing Surveys.",
            vec![p("M.", "Des"), p("K.", "Un"), p("R.", "Smith")],
            "A survey of caching",
        ),
    ] {
        let f = parse(raw);
        assert_eq!(f.authors, authors, "{raw}");
        assert_eq!(f.title.as_deref(), Some(title), "{raw}");
    }
}

#[test]
fn ieee_full_given_names_with_lowercase_particles() {
    let f = parse(
        "Marta C. de la Cruz and Pieter J. van den Berg, \"Sparse priors for robust retrieval,\" in Proc. IEEE Int. Conf. Data Eng., 2021, pp. 1-10, doi: 10.1109/ICDE.2021.00001.",
    );
    assert_eq!(
        f.authors,
        vec![p("Marta C.", "de la Cruz"), p("Pieter J.", "van den Berg")]
    );
    assert_eq!(
        f.title.as_deref(),
        Some("Sparse priors for robust retrieval")
    );
    assert_eq!(f.doi.as_deref(), Some("10.1109/icde.2021.00001"));
    let three = parse(
        "Ana M. de Souza, Karl W. von Stein, and Lucia R. di Marco, \"Graph sampling at scale,\" IEEE Trans. Knowl. Data Eng., vol. 3, 2020.",
    );
    assert_eq!(
        families(&three),
        ["de Souza", "von Stein", "di Marco"],
        "{three:?}"
    );
}

#[test]
fn a_title_that_opens_with_a_function_word_is_no_author() {
    for (raw, title) in [
        (
            "On the origin of species. London: John Murray, 1859.",
            "On the origin of species",
        ),
        (
            "New directions in cryptography. IEEE Transactions on Information Theory, 22(6), 1976.",
            "New directions in cryptography",
        ),
    ] {
        let f = parse(raw);
        assert!(f.authors.is_empty(), "{raw}: {:?}", f.authors);
        assert_eq!(f.title.as_deref(), Some(title), "{raw}");
    }
}

mod properties {
    use citeproof::parse::refstring::parse;
    use proptest::prelude::*;
    use unicode_normalization::UnicodeNormalization;

    /// The input as the DOI rules may read it: compatibility-normalised (ligatures,
    /// full-width forms), lowercase, HTML entities decoded, percent-decoded, without
    /// whitespace (PDF text splits DOIs with spaces) or soft hyphens.
    fn doi_view(raw: &str) -> String {
        let s: String = raw
            .chars()
            .filter(|c| *c != '\u{ad}' && *c != '\u{200b}')
            .nfkc()
            .collect::<String>()
            .replace("&amp;", "&")
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&quot;", "\"")
            .replace("&#39;", "'")
            .replace("&apos;", "'")
            .replace("&nbsp;", " ")
            .replace('↵', "ff");
        let compact: String = s.chars().filter(|c| !c.is_whitespace()).collect();
        let lower = compact.to_lowercase();
        let decoded = percent_encoding::percent_decode_str(&lower)
            .decode_utf8_lossy()
            .to_lowercase();
        format!("{lower}\u{0}{decoded}")
    }

    proptest! {
        #![proptest_config(crate::proptest_config::config(512))]

        #[test]
        fn arbitrary_text_never_panics(s in any::<String>()) {
            let _ = parse(&s);
        }

        #[test]
        fn reference_like_text_never_panics(
            s in r"[\[\]()0-9A-Za-z .,;:&'“”\x22«»–—…/*_-]{0,120}"
        ) {
            let _ = parse(&s);
        }

        #[test]
        fn found_doi_is_in_the_input(
            before in r"[ A-Za-z0-9.,;:()\[\]&-]{0,30}",
            label in r"(doi:? ?|DOI |https://doi\.org/|)",
            registrant in r"[0-9]{4,6}",
            suffix in r"[A-Za-z0-9./()_;-]{1,24}",
            after in r"[ .,;]{0,2}[ A-Za-z0-9]{0,20}",
        ) {
            let raw = format!("{before} {label}10.{registrant}/{suffix}{after}");
            let f = parse(&raw);
            if let Some(doi) = f.doi {
                prop_assert!(doi_view(&raw).contains(&doi), "{doi} not in {raw}");
                prop_assert!(doi.starts_with("10."));
            }
        }

        #[test]
        fn doi_of_arbitrary_text_is_in_the_input(s in any::<String>()) {
            if let Some(doi) = parse(&s).doi {
                prop_assert!(doi_view(&s).contains(&doi), "{doi} not in {s:?}");
            }
        }
    }
}

#[test]
fn two_sentence_book_title_before_place_and_publisher() {
    let f = parse("Doe, J. (2001). The quiet river. A journey through memory. New York: Wiley.");
    assert_eq!(
        f.title.as_deref(),
        Some("The quiet river. A journey through memory")
    );
    assert_eq!(f.publisher.as_deref(), Some("Wiley"));
    assert_eq!(f.venue, None);
    // A second sentence that is a venue stays the venue.
    let f = parse("Doe, J. (2001). The quiet river. Journal of Rivers, 3(1), 1-9.");
    assert_eq!(f.title.as_deref(), Some("The quiet river"));
    assert_eq!(f.venue.as_deref(), Some("Journal of Rivers"));
}

#[test]
fn editor_with_initial_and_given_name_written_out() {
    // MLA's `Eds. J. Paul Hunter and Ann Smith`: `Paul` is a given name, not part of
    // the family name.
    let f = parse(
        "Fielding, Henry. The History of Tom Jones. Eds. J. Paul Hunter and Ann Smith. New York: Norton, 1995.",
    );
    assert_eq!(f.authors, vec![p("Henry", "Fielding")]);
    assert_eq!(f.editors, vec![p("J. Paul", "Hunter"), p("Ann", "Smith")]);
    assert_eq!(f.title.as_deref(), Some("The History of Tom Jones"));
    // Chicago's inverted editor list, closed by `eds.`: `Family, I. Given, and …`.
    let f =
        parse("Hunter, J. Paul, and Ann Smith, eds. The Norton Anthology. New York: Norton, 1995.");
    assert_eq!(f.editors, vec![p("J. Paul", "Hunter"), p("Ann", "Smith")]);
    assert!(f.authors.is_empty());
    assert_eq!(f.title.as_deref(), Some("The Norton Anthology"));
    // `Puduru, V.R. Xian, W.`: a word after the initials followed by initials is the
    // next family name, not a given name.
    let f = parse(
        "Chiu, C., Puduru, V.R., Xian, W. Prey capture in bats. J. Exp. Biol., 2010, 213: 3348-3356.",
    );
    assert_eq!(families(&f), ["Chiu", "Puduru", "Xian"]);
}

#[test]
fn particle_and_initial_before_the_family_name() {
    // `de S. Soares, E. F.`: the family name is `de S. Soares`; the list goes on.
    let f = parse(
        "de S. Soares, E. F., & Campos, C. A. V. (2024). Privacy-Preserving Training of Monocular Depth Estimators via Self-Supervised Federated Learning. In 2024 IEEE 100th Vehicular Technology Conference (VTC2024-Fall).",
    );
    assert_eq!(
        f.authors,
        vec![p("E. F.", "de S. Soares"), p("C. A. V.", "Campos")]
    );
    assert_eq!(f.year, Some(2024));
    let f = parse(
        "van der A. Berg, J., & Lee, K. (2019). Title of the paper. Journal of Things, 3, 1-10.",
    );
    assert_eq!(f.authors, vec![p("J.", "van der A. Berg"), p("K.", "Lee")]);
    // A given name first is still read in order (`Marco De Nadai`).
    let f = parse("J. Smith and Marco De Nadai. Cities. Nature, 3, 1-10, 2019.");
    assert_eq!(families(&f), ["Smith", "De Nadai"]);
}

#[test]
fn citation_key_and_glued_number_labels() {
    let f = parse(
        "[Allison2006-MIT] G. Allison, E.A. Galaktionov, A.K. Savchenko, Thermodynamic density of states of GaAs systems, Phys. Rev. Lett. 96, 216407 (2006).",
    );
    assert_eq!(families(&f), ["Allison", "Galaktionov", "Savchenko"]);
    assert_eq!(
        f.title.as_deref(),
        Some("Thermodynamic density of states of GaAs systems")
    );
    let f = parse(
        "26-Vellin J-F, Achim V, Sinardet D, et al. Leptomeningeal carcinomatosis after skull base surgery: a case report. Auris Nasus Larynx. 2007; 34(4): 565-567.",
    );
    assert_eq!(families(&f), ["Vellin", "Achim", "Sinardet"]);
    assert_eq!(
        f.title.as_deref(),
        Some("Leptomeningeal carcinomatosis after skull base surgery: a case report")
    );
    // A title that starts with a number and a hyphen keeps it.
    let f = parse("3-D printing in medicine. Lancet. 2015;385:1-2.");
    assert_eq!(f.title.as_deref(), Some("3-D printing in medicine"));
}

#[test]
fn bibtex_styles_mix_initials_and_full_given_names() {
    // plainnat prints each given name as the .bib entry writes it.
    let f = parse(
        "F. Mattioli, Camillo Porcaro, and Gianluca Baldassarre. A 1D CNN for high accuracy classification in motor imagery EEG-based brain-computer interface. Journal of Neural Engineering, 2021.",
    );
    assert_eq!(families(&f), ["Mattioli", "Porcaro", "Baldassarre"]);
    assert_eq!(
        f.title.as_deref(),
        Some(
            "A 1D CNN for high accuracy classification in motor imagery EEG-based brain-computer interface"
        )
    );
    let f = parse(
        "D. P. Kingma, Tim Salimans, and Max Welling. Variational dropout and the local reparameterization trick. In NIPS, 2015.",
    );
    assert_eq!(families(&f), ["Kingma", "Salimans", "Welling"]);
    // A title after an initialled name is still a title.
    let f = parse("J. Smith, Grace Hopper and the invention of the compiler, in Proc. HOPL, 2019.");
    assert_eq!(families(&f), ["Smith"]);
    assert_eq!(
        f.title.as_deref(),
        Some("Grace Hopper and the invention of the compiler")
    );
}
