//! The fingerprint an accepted work is remembered by: its title, the family names
//! of its authors and its year, each folded (case, accents, LaTeX, punctuation), and
//! hashed together. Never the title alone: a fabricated reference that borrows a
//! real work's title does not carry its authors and year, so it does not inherit the
//! acceptance.

use sha2::{Digest, Sha256};

use crate::model::RefFields;
use crate::resolve::normalize::fold;

/// Version of the recipe, hashed into every fingerprint: a new recipe must get a
/// new number, so that old records are reported instead of silently matching.
const RECIPE: &str = "citeproof-accepted-v1";

/// What a work is remembered by, folded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Identity {
    /// The folded title.
    pub title: String,
    /// The folded family names, in the reference's order.
    pub families: Vec<String>,
    pub year: Option<i32>,
}

impl Identity {
    /// The identity of a title, family names and year as written; the error says
    /// why it is too little to remember a work by.
    pub fn new(title: &str, families: &[String], year: Option<i32>) -> Result<Identity, String> {
        let identity = Identity {
            title: fold(title),
            families: families
                .iter()
                .map(|f| fold(f))
                .filter(|f| !f.is_empty())
                .collect(),
            year,
        };
        if identity.title.is_empty() {
            return Err("it has no title".into());
        }
        if identity.families.is_empty() && identity.year.is_none() {
            return Err(
                "it has neither authors nor a year, and a title alone would let any reference \
                 with that title inherit the acceptance"
                    .into(),
            );
        }
        Ok(identity)
    }

    /// The identity of a parsed reference (authors, or editors where it has none).
    pub fn of_fields(fields: &RefFields) -> Result<Identity, String> {
        let title = fields.title.as_deref().unwrap_or("");
        Identity::new(title, &families(fields), fields.year)
    }

    /// The fingerprint: 32 hexadecimal digits.
    pub fn fingerprint(&self) -> String {
        let mut hasher = Sha256::new();
        hasher.update(RECIPE.as_bytes());
        hasher.update([0]);
        hasher.update(self.title.as_bytes());
        hasher.update([0]);
        for family in &self.families {
            hasher.update(family.as_bytes());
            hasher.update([1]);
        }
        hasher.update([0]);
        if let Some(year) = self.year {
            hasher.update(year.to_string().as_bytes());
        }
        hasher.finalize()[..16]
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }
}

/// The family names a reference lists: its authors, or its editors where it names
/// no author (an edited volume).
pub fn families(fields: &RefFields) -> Vec<String> {
    let people = if fields.authors.is_empty() {
        &fields.editors
    } else {
        &fields.authors
    };
    people.iter().map(|p| p.family.clone()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Person;

    fn fields(title: &str, families: &[&str], year: Option<i32>) -> RefFields {
        RefFields {
            title: Some(title.into()),
            authors: families
                .iter()
                .map(|f| Person::new(Some("A."), f))
                .collect(),
            year,
            ..RefFields::default()
        }
    }

    fn print(title: &str, families: &[&str], year: Option<i32>) -> String {
        Identity::of_fields(&fields(title, families, year))
            .unwrap()
            .fingerprint()
    }

    #[test]
    fn formatting_does_not_change_the_fingerprint() {
        let a = print("Non-Cooperative Games", &["Nash"], Some(1950));
        let b = print("{Non-cooperative} games.", &["NASH"], Some(1950));
        assert_eq!(a, b);
        assert_eq!(a.len(), 32);
        assert_eq!(
            print("Über Graphen", &["Kőnig"], Some(1936)),
            print("Uber graphen", &["Konig"], Some(1936))
        );
    }

    #[test]
    fn title_authors_and_year_all_count() {
        let real = print("Non-Cooperative Games", &["Nash"], Some(1950));
        assert_ne!(real, print("Non-Cooperative Games", &["Smith"], Some(1950)));
        assert_ne!(real, print("Non-Cooperative Games", &["Nash"], Some(1951)));
        assert_ne!(real, print("Cooperative Games", &["Nash"], Some(1950)));
        assert_ne!(
            real,
            print("Non-Cooperative Games", &["Nash", "Kuhn"], Some(1950))
        );
    }

    #[test]
    fn a_title_alone_is_refused() {
        let err = Identity::of_fields(&fields("Non-Cooperative Games", &[], None)).unwrap_err();
        assert!(err.contains("title alone"), "{err}");
        assert!(Identity::of_fields(&fields("", &["Nash"], Some(1950))).is_err());
        // Editors stand in for authors.
        let edited = RefFields {
            title: Some("Handbook".into()),
            editors: vec![Person::new(None, "Ed")],
            ..RefFields::default()
        };
        assert_eq!(Identity::of_fields(&edited).unwrap().families, vec!["ed"]);
    }
}
