//! The PDF reader on the committed fixtures (fixtures/pdf, made by
//! `scripts/pdf-bench.sh OUT --fixtures`): a two-column numbered paper with hyperref, a
//! one-column author–year paper without, and the files it must refuse with a reason.

use citeproof::read::pdf::{PdfError, PdfLayout, read};

fn fixture(name: &str) -> Vec<u8> {
    let path = format!("{}/fixtures/pdf/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn layout(name: &str) -> PdfLayout {
    read(&fixture(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[test]
fn numbered_two_columns_with_hyperref() {
    let pdf = layout("numbered-2col.pdf");
    assert_eq!(pdf.pages, 3);
    let labels: Vec<&str> = pdf
        .references
        .iter()
        .filter_map(|r| r.label.as_deref())
        .collect();
    assert_eq!(labels, ["1", "2", "3", "4", "5", "6"]);
    let keys: Vec<&str> = pdf
        .references
        .iter()
        .filter_map(|r| r.key.as_deref())
        .collect();
    assert_eq!(
        keys,
        [
            "vaswani2017attention",
            "hochreiter1997long",
            "he2016deep",
            "srivastava2014dropout",
            "lopez2009grobid",
            "tkaczyk2015cermine"
        ]
    );
    // The second entry starts at the foot of the left column and ends at the top of the
    // right one: joined, its DOI closed up across the break, the label left out.
    let lstm = &pdf.references[1];
    assert_eq!(lstm.first, (3, 9));
    assert!(
        lstm.text
            == "Sepp Hochreiter and Jürgen Schmidhuber. Long short-term memory. Neural Computation, 9(8): 1735–1780, 1997. https://doi.org/10.1162/neco.1997.9.8.1735.",
        "{}",
        lstm.text
    );
    // Hyphenation undone inside an entry.
    assert!(
        pdf.references[2].text.contains("image recognition"),
        "{}",
        pdf.references[2].text
    );
    // The DOI links of the entries.
    assert!(
        pdf.references[2].uris == ["https://doi.org/10.1109/CVPR.2016.90"],
        "{:?}",
        pdf.references[2].uris
    );
    // Every citation marker in the body links to an entry's key.
    let cited: Vec<&str> = pdf
        .links
        .iter()
        .filter(|l| {
            pdf.body
                .iter()
                .any(|b| b.page == l.page && b.line == l.line)
        })
        .filter_map(|l| l.dest_key.as_deref())
        .collect();
    assert_eq!(cited.len(), 6, "{:?}", pdf.links);
    assert!(cited.iter().all(|k| keys.contains(k)));
    // The body: no running header, no page number, no entry; the appendix is body.
    let body: Vec<&str> = pdf.body.iter().map(|l| l.text.as_str()).collect();
    assert!(!body.contains(&"Reading Reference Lists"), "{body:?}");
    assert!(!body.iter().any(|l| l.trim() == "3"), "{body:?}");
    assert!(!body.iter().any(|l| l.contains("Uszkoreit")), "{body:?}");
    assert!(
        body.iter().any(|l| l.contains("learning rate was 0.001")),
        "{body:?}"
    );
    let intro = pdf
        .body
        .iter()
        .find(|l| l.text.contains("Introduction"))
        .unwrap();
    assert_eq!((intro.page, intro.line), (1, 3));
}

#[test]
fn author_year_one_column_across_a_page() {
    let pdf = layout("authoryear-1col.pdf");
    let refs: Vec<(&str, (u32, u32))> = pdf
        .references
        .iter()
        .map(|r| (r.text.split(" (").next().unwrap(), r.first))
        .collect();
    assert_eq!(
        refs,
        [
            ("Breiman, L.", (3, 2)),
            ("Greenberg, S. A.", (3, 3)),
            ("Hochreiter, S. and Schmidhuber, J.", (3, 5)),
            ("Ioannidis, J. P. A.", (4, 1)),
            ("LeCun, Y., Bengio, Y., and Hinton, G.", (4, 3)),
        ]
    );
    assert!(
        pdf.references
            .iter()
            .all(|r| r.label.is_none() && r.key.is_none())
    );
    assert_eq!(
        pdf.references[1].text,
        "Greenberg, S. A. (2009). How citation distortions create unfounded authority: Analysis of a citation network. BMJ, 339:b2680."
    );
    let body: Vec<&str> = pdf.body.iter().map(|l| l.text.as_str()).collect();
    assert!(
        body.iter().any(|l| l.contains("Supplementary Material")),
        "{body:?}"
    );
    assert!(
        body.iter().any(|l| l.contains("Runs from 2021 and 2022")),
        "{body:?}"
    );
    assert!(
        !body.iter().any(|l| l.trim() == "1" || l.trim() == "4"),
        "page numbers: {body:?}"
    );
}

#[test]
fn a_file_locked_by_an_owner_password_only_is_read() {
    let pdf = layout("owner-password.pdf");
    assert_eq!(pdf.references.len(), 5);
    assert_eq!(pdf.references, layout("authoryear-1col.pdf").references);
}

#[test]
fn files_it_cannot_read_say_why() {
    assert_eq!(read(&fixture("encrypted.pdf")), Err(PdfError::Encrypted));
    assert_eq!(
        read(&fixture("scanned.pdf")),
        Err(PdfError::NoTextLayer { pages: 1 })
    );
    assert!(matches!(
        read(&fixture("truncated.pdf")),
        Err(PdfError::Malformed(_))
    ));
    assert!(matches!(
        read(b"<html>not a pdf</html>"),
        Err(PdfError::Malformed(_))
    ));
    assert!(matches!(read(b"%PDF-1.7\n"), Err(PdfError::Malformed(_))));
}

#[test]
fn every_prefix_and_corruption_of_a_real_file_is_an_answer_not_a_panic() {
    let bytes = fixture("numbered-2col.pdf");
    for cut in (0..bytes.len()).step_by(bytes.len() / 20) {
        let _ = read(&bytes[..cut]);
    }
    // Flip bytes through the file (streams, cross-references, the trailer).
    for (k, at) in (0..bytes.len()).step_by(bytes.len() / 30).enumerate() {
        let mut broken = bytes.clone();
        broken[at] ^= 0x5a ^ (k as u8);
        match read(&broken) {
            Ok(layout) => assert!(layout.pages >= 1),
            Err(e) => assert!(!e.to_string().is_empty()),
        }
    }
}
