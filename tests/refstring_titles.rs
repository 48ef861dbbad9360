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
