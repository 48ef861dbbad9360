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
        title("Adam Mornement, The second coming, World architecture, No. 83, 2000, 34-37").as_deref(),
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
    let f = parse("Smith, J. (2001). \"Invisible hand\" theory revisited. Journal of Economics, 3, 1-10.");
    assert_eq!(f.title.as_deref(), Some("\"Invisible hand\" theory revisited"));
    assert_eq!(f.venue.as_deref(), Some("Journal of Economics"));
    // Straight quotes nested in a quoted title.
    let f = parse("J. Smith, \"The \"invisible hand\" revisited,\" Journal of Economics, vol. 3, pp. 1-10, 2001.");
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
    let f = parse("Crowe JH, Crowe LM. \"Preservation of mammalian cells\" Nat Biotechnol 2000; 18: 145-146.");
    assert_eq!(f.title.as_deref(), Some("Preservation of mammalian cells"));
}
