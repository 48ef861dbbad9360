//! Where the reference-string parser ends a title, on hand-written references: one
//! case for each boundary rule (a journal or publisher after a comma, serial commas,
//! second sentences that belong to the title, a Vancouver journal glued on without a
//! period, names that run on to the year).

use citeproof::parse::refstring::parse;

fn title(raw: &str) -> Option<String> {
    parse(raw).title
}

#[test]
fn comma_style_title_ends_before_the_journal_and_its_volume() {
    assert_eq!(
        title("Ruiz, K., Stone, D. L., Kernel support for live audio, Computer Communications, Vol. 15, No. 6, pp. 388-395.").as_deref(),
        Some("Kernel support for live audio")
    );
    assert_eq!(
        title("M. C. Miller, Donors, Their Gifts, and Religious Houses in Verona, Speculum, 66, 1991, 27-42.").as_deref(),
        Some("Donors, Their Gifts, and Religious Houses in Verona")
    );
}

#[test]
fn comma_style_title_ends_before_publisher_and_place() {
    assert_eq!(
        title("M. Durand, Les villes du nord, Gallimard, Paris, 1975").as_deref(),
        Some("Les villes du nord")
    );
}

#[test]
fn serial_commas_stay_inside_the_title() {
    assert_eq!(
        title("Hale, J. (1990). Automata, Languages, and Computation. Addison-Wesley.").as_deref(),
        Some("Automata, Languages, and Computation")
    );
}

#[test]
fn subtitle_before_in_and_second_question_belong_to_the_title() {
    assert_eq!(
        title("Lee, K. (2010). Rivers of stone. A short history. In P. Ray (Ed.), Geology now (pp. 1-9). Boston: Beacon.").as_deref(),
        Some("Rivers of stone. A short history")
    );
    assert_eq!(
        title(
            "Ward, A. (2004). What is a river? And why does it matter? Water Review, 3(2), 55-58."
        )
        .as_deref(),
        Some("What is a river? And why does it matter?")
    );
    assert_eq!(
        title("L. Hansen. Wave operators. II. Acta Mathematica, 128(1):183-269, 1972.").as_deref(),
        Some("Wave operators. II")
    );
}

#[test]
fn vancouver_journal_without_period_is_cut_from_a_sentence_case_title() {
    let f = parse(
        "Li H, Park J. Cleavage of the protein by caspase mediates damage in cells Cell Biol J 1998; 94:491-501.",
    );
    assert_eq!(
        f.title.as_deref(),
        Some("Cleavage of the protein by caspase mediates damage in cells")
    );
    assert_eq!(f.year, Some(1998));
    // A title in title case keeps its capitalised words.
    assert_eq!(
        title("Brown, K. The Shape of Small Towns 1981 Urban Studies Review 12 40--52").as_deref(),
        Some("The Shape of Small Towns")
    );
}

#[test]
fn parenthesised_publication_years_and_places_stay_inside_the_title() {
    assert_eq!(
        title("Weber, Anna, Oper: Texte, Bilder, Stimmen (Hamburg: Rowohlt, 1986).").as_deref(),
        Some("Oper: Texte, Bilder, Stimmen")
    );
    assert_eq!(
        title("Dressler, B. O., Reed, K., Melt rocks of the crater rim, Ontario, Canada. Geology, v. 20, p. 1-4. 1992.").as_deref(),
        Some("Melt rocks of the crater rim, Ontario, Canada")
    );
    assert_eq!(
        title("Smith, J. (2014). The camp at Fossoli (1945-1947): documents. Journal of History, 2(1), 1-10.").as_deref(),
        Some("The camp at Fossoli (1945-1947): documents")
    );
    assert_eq!(
        title("Marc Dupont, Les jardins. Une histoire du paysage, Paris, Seuil, 2001.").as_deref(),
        Some("Les jardins. Une histoire du paysage")
    );
}

#[test]
fn names_run_on_to_the_year_after_a_punctuation_slip() {
    let f = parse(
        "Hilton, S., Hunt, K., Bedford, H. Petticrew, M. (2010). Media and vaccines. Social Science, 3, 1-9.",
    );
    assert_eq!(f.title.as_deref(), Some("Media and vaccines"));
    assert_eq!(f.year, Some(2010));
    let fam: Vec<&str> = f.authors.iter().map(|a| a.family.as_str()).collect();
    assert_eq!(fam, ["Hilton", "Hunt", "Bedford", "Petticrew"]);
}

#[test]
fn comma_style_title_ends_before_a_journal_with_its_volume() {
    for raw in [
        "Turing, Alan, Computing Machinery and Intelligence, Mind 59: 433-460, 1950.",
        "A. Turing, Computing Machinery and Intelligence, Mind 59, 433-460, 1950.",
        "Turing, Alan, Computing Machinery and Intelligence, Mind 59, pp 433–460 (1950)",
    ] {
        let f = parse(raw);
        assert_eq!(
            f.title.as_deref(),
            Some("Computing Machinery and Intelligence"),
            "{raw}"
        );
        assert_eq!(f.venue.as_deref(), Some("Mind"), "{raw}");
        assert_eq!(f.year, Some(1950), "{raw}");
    }
    // The journal between commas before `No.`.
    assert_eq!(
        title("Adam Mornement, The second coming, World architecture, No. 83, 2000, 34-37")
            .as_deref(),
        Some("The second coming")
    );
    // A place and a number are no journal and its volume; a month and day neither.
    assert_eq!(
        title("Jin-yi Cai (1990), A Note on the Determinant and Permanent Problem, Information and Computation, 84, No. 1, 119-127.").as_deref(),
        Some("A Note on the Determinant and Permanent Problem")
    );
}

#[test]
fn question_title_goes_on_with_its_subtitle() {
    for (raw, want) in [
        (
            "Smith, J. (2001). Why do birds sing? : A study of song learning. Journal of Birds, 3, 1-10.",
            "Why do birds sing? : A study of song learning",
        ),
        (
            "Smith J. Why do birds sing?: a study of song. J Birds. 2001;3:1-10.",
            "Why do birds sing?: a study of song",
        ),
        (
            "Gulanick M. Is phase 2 cardiac rehabilitation necessary for early recovery? A randomized, controlled study. Heart Lung 1991; 20:9-15.",
            "Is phase 2 cardiac rehabilitation necessary for early recovery? A randomized, controlled study",
        ),
    ] {
        assert_eq!(title(raw).as_deref(), Some(want), "{raw}");
    }
    // A journal after the question stays the journal.
    let f = parse("Kissane, K. (1998). Who is the victim? The Age: Extra, p. 6.");
    assert_eq!(f.title.as_deref(), Some("Who is the victim?"));
    let f = parse("Ward, A. (2004). Why do rivers flood? Water Review, 3(2), 55-58.");
    assert_eq!(f.title.as_deref(), Some("Why do rivers flood?"));
    assert_eq!(f.venue.as_deref(), Some("Water Review"));
}

#[test]
fn quoted_words_inside_a_title() {
    // A quoted phrase opening the title, its words going on after the quote.
    let f = parse(
        "Smith, J. (2001). \"Invisible hand\" theory revisited. Journal of Economics, 3, 1-10.",
    );
    assert_eq!(
        f.title.as_deref(),
        Some("\"Invisible hand\" theory revisited")
    );
    assert_eq!(f.venue.as_deref(), Some("Journal of Economics"));
    // Straight quotes nested in a quoted title.
    let f = parse(
        "J. Smith, \"The \"invisible hand\" revisited,\" Journal of Economics, vol. 3, pp. 1-10, 2001.",
    );
    assert_eq!(f.title.as_deref(), Some("The \"invisible hand\" revisited"));
    assert_eq!(f.venue.as_deref(), Some("Journal of Economics"));
    // Single quotes nested in single quotes.
    assert_eq!(
        title("Malik Mufti, ‘Democratizing Potential of the ‘Arab Spring’: Some Early Observations’, Government and Opposition, 50: 3 (2015), 394-419.").as_deref(),
        Some("Democratizing Potential of the ‘Arab Spring’: Some Early Observations")
    );
    // A quoted word at the end keeps both its quotes.
    assert_eq!(
        title("D. Wender, The Last Scene of the “Odyssey”, Leiden 1978.").as_deref(),
        Some("The Last Scene of the “Odyssey”")
    );
    // A quoted title followed by the journal without punctuation stays the title.
    let f = parse(
        "Crowe JH, Crowe LM. \"Preservation of mammalian cells\" Nat Biotechnol 2000; 18: 145-146.",
    );
    assert_eq!(f.title.as_deref(), Some("Preservation of mammalian cells"));
}

#[test]
fn comma_style_title_ends_before_volumes_pages_meetings_and_bare_dates() {
    for (raw, want) in [
        (
            "Austen, Jane, Sense and Sensibility, 2 vols. (New York: Frank S. Holby, 1906).",
            "Sense and Sensibility",
        ),
        (
            "D. A. Patterson and J. L. Hennessy. Computer Architecture A Quantitative Approach, page 346. Morgan Kaufman, 1994.",
            "Computer Architecture A Quantitative Approach",
        ),
        (
            "H. Johnson and P. Johnson, Requirements for tools to support task analyses, INTERACT 90 Proceedings, August 1990, pp. 259-264.",
            "Requirements for tools to support task analyses",
        ),
        (
            "Forsyth, C. H., Implementation of the Execution Time Analyser June 1992, York Software Engineering Ltd.",
            "Implementation of the Execution Time Analyser",
        ),
        // Australian Harvard without an author: `Title Year, medium, …`.
        (
            "About Jenny Holzer 2011, dvd, Microcinema International, San Francisco, California.",
            "About Jenny Holzer",
        ),
    ] {
        assert_eq!(title(raw).as_deref(), Some(want), "{raw}");
    }
    // A comma followed by a period-closed sentence is no meeting.
    assert_eq!(
        title(
            "D Lehmann. Belief revision, revised. In Proceedings IJCAI-95, pages 1534--1540, 1995."
        )
        .as_deref(),
        Some("Belief revision, revised")
    );
}

#[test]
fn chicago_note_titles_that_read_like_names() {
    // A title that looks like a name before the book's `(Place: Publisher, Year)`.
    let f = parse("David Archard, Sexual Consent (Boulder: Westview Press, 1998), p. 20;");
    assert_eq!(f.title.as_deref(), Some("Sexual Consent"));
    assert_eq!(families_of(&f), ["Archard"]);
    let f = parse(
        "Christov-Bakargiev, Carolyn, William Kentridge (Brussels: Société des Expositions, 1998).",
    );
    assert_eq!(f.title.as_deref(), Some("William Kentridge"));
    assert_eq!(families_of(&f), ["Christov-Bakargiev"]);
    // An `and` that joins no name: the names before it began the title.
    let f = parse(
        "McGuinness, Patrick, Maurice Maeterlinck and the Making of Modern Theatre (Oxford University Press, 2000).",
    );
    assert_eq!(
        f.title.as_deref(),
        Some("Maurice Maeterlinck and the Making of Modern Theatre")
    );
    assert_eq!(families_of(&f), ["McGuinness"]);
    let f = parse(
        "Mathilde von Bulow, West Germany, Cold War Europe and the Algerian War (Cambridge, UK: Cambridge University Press, 2016)",
    );
    assert_eq!(
        f.title.as_deref(),
        Some("West Germany, Cold War Europe and the Algerian War")
    );
    assert_eq!(families_of(&f), ["von Bulow"]);
    // A subtitle's colon after the first comma: the comma is inside the title.
    assert_eq!(
        title("Randall Packard, White Plague, Black Labour: Tuberculosis and the political economy of health in South Africa (1989).").as_deref(),
        Some("White Plague, Black Labour: Tuberculosis and the political economy of health in South Africa")
    );
    let f = parse("Austen, Jane, Pride and Prejudice (London: Penguin, 2003).");
    assert_eq!(f.title.as_deref(), Some("Pride and Prejudice"));
    assert_eq!(families_of(&f), ["Austen"]);
    // Real co-authors joined by `and` stay authors.
    let f = parse(
        "Lakoff, George, and Mark Johnson. Metaphors We Live By. Chicago: University of Chicago Press, 1980.",
    );
    assert_eq!(families_of(&f), ["Lakoff", "Johnson"]);
}

#[test]
fn titles_without_authors_and_notes_after_titles() {
    // A title first, then straight away the imprint.
    let f = parse("CIA World Factbook. Washington, DC: Central Intelligence Agency, 2009.");
    assert_eq!(f.title.as_deref(), Some("CIA World Factbook"));
    assert!(f.authors.is_empty());
    // The organisation stays the author before a title.
    let f = parse("World Health Organization. Mental health atlas. Geneva: WHO Press, 2011.");
    assert_eq!(f.title.as_deref(), Some("Mental health atlas"));
    // A producer credited by role is not a title in the author's place.
    let f = parse(
        "FITNE (Producer). (2005). Nurse theorists: Florence Nightingale life and work [DVD]. United States: Producer.",
    );
    assert_eq!(
        f.title.as_deref(),
        Some("Nurse theorists: Florence Nightingale life and work")
    );
    // An edition or a paper number in parentheses after an APA title.
    assert_eq!(
        title("Derrida, J. (1967). L’écriture et la différence (1 éd.). Paris: Éditions du Seuil.")
            .as_deref(),
        Some("L’écriture et la différence")
    );
    assert_eq!(
        title("Currie, J. (2008). Healthy, wealthy, and wise (Working Paper No. 13987). National Bureau of Economic Research.").as_deref(),
        Some("Healthy, wealthy, and wise")
    );
    // A quoted phrase followed by the title's `?` or a dash and more of the title.
    assert_eq!(
        title("Angus, L., et al. (2004). 'What's the story'? Working with narrative in psychotherapy. In L. Angus & J. McLeod (Eds.), The handbook. London: Sage.").as_deref(),
        Some("'What's the story'? Working with narrative in psychotherapy")
    );
    assert_eq!(
        title("FRIARD, Dominique. \"On se verra au CMP\" - Carnet de route en psychiatrie. JANSSEN-CILAG 2009, 47 p.").as_deref(),
        Some("\"On se verra au CMP\" - Carnet de route en psychiatrie")
    );
}

fn families_of(f: &citeproof::model::RefFields) -> Vec<&str> {
    f.authors.iter().map(|a| a.family.as_str()).collect()
}

#[test]
fn editors_translators_and_series_after_a_title() {
    for (raw, want) in [
        (
            "Wordsworth, William, The Prelude, Jonathan Wordsworth, M. H. Abrams, and Stephen Gill (eds.) (New York, NY: Norton, 1979).",
            "The Prelude",
        ),
        (
            "Basevi, Abramo, Studio sulle opere di Giuseppe Verdi, Ugo Piovano (ed.) (Milan: Rugginente, 2001).",
            "Studio sulle opere di Giuseppe Verdi",
        ),
        (
            "Habermas, Juergen (1995), Between Facts and Norms, tr. W. Rehg (Cambridge, Mass.: MIT Press).",
            "Between Facts and Norms",
        ),
        (
            "Liu, W.F., 2002, Savings and portfolio decision: Observable implications of uncertainty, working paper, University of Washington.",
            "Savings and portfolio decision: Observable implications of uncertainty",
        ),
        (
            "Chopra, A. K. (2011). Dynamics of structures: theory and applications, volume 4th. Prentice Hall, Upper Saddle River, NJ.",
            "Dynamics of structures: theory and applications",
        ),
        (
            "Mullin, C. M. (2012). Why access matters: The community college student body (Policy Brief 2012-01PBL). Washington, DC: AACC.",
            "Why access matters: The community college student body",
        ),
    ] {
        assert_eq!(title(raw).as_deref(), Some(want), "{raw}");
    }
    // A chapter's reference cut down to its container: `In Editors (Eds.), Title`.
    let f = parse(
        "In Bouma, H., & Elsendoorn, A. G. (Eds.), Working Models of Human Perception, pp. 391-410. Academic Press, London, England.",
    );
    assert_eq!(
        f.title.as_deref(),
        Some("Working Models of Human Perception")
    );
    assert_eq!(f.editors.len(), 2);
    assert!(f.authors.is_empty());
    // A title that begins with `In` stays whole.
    assert_eq!(
        title("In Search of Excellence. New York: Harper, 1982.").as_deref(),
        Some("In Search of Excellence")
    );
}
