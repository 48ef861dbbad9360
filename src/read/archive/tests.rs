use std::io::Write;

use super::*;

fn zip_of(files: &[(&str, &[u8])]) -> Vec<u8> {
    let mut writer = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for (name, bytes) in files {
        writer.start_file(*name, options).unwrap();
        writer.write_all(bytes).unwrap();
    }
    writer.finish().unwrap().into_inner()
}

/// A tar with the names written as they are (the tar crate's builder refuses
/// `..`, which is what these tests need).
fn tar_of(files: &[(&str, &[u8])]) -> Vec<u8> {
    let mut builder = tar::Builder::new(Vec::new());
    for (name, bytes) in files {
        let mut header = tar::Header::new_ustar();
        let field = &mut header.as_old_mut().name;
        field.fill(0);
        field[..name.len()].copy_from_slice(name.as_bytes());
        header.set_size(bytes.len() as u64);
        header.set_mode(0o644);
        header.set_entry_type(tar::EntryType::Regular);
        header.set_cksum();
        builder.append(&header, *bytes).unwrap();
    }
    builder.into_inner().unwrap()
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    encoder.write_all(bytes).unwrap();
    encoder.finish().unwrap()
}

const MAIN: &[u8] = b"\\documentclass{article}\n\\begin{document}\n\\input{sections/intro}\n\\bibliography{refs}\n\\end{document}\n";

fn names(files: &Files) -> Vec<&str> {
    files.iter().map(|(n, _)| n.as_str()).collect()
}

#[test]
fn a_zip_gives_its_sources_and_skips_the_rest() {
    let bytes = zip_of(&[
        ("main.tex", MAIN),
        ("sections/intro.tex", b"Intro \\cite{a}."),
        ("refs.bib", b"@article{a, title={T}}"),
        ("figure.png", b"\x89PNG"),
        (
            "./build/../main.bbl",
            b"\\begin{thebibliography}{1}\\end{thebibliography}",
        ),
    ]);
    assert_eq!(ArchiveFormat::sniff(&bytes), Some(ArchiveFormat::Zip));
    let files = unpack(&bytes, ArchiveFormat::Zip, "x", &LIMITS).unwrap();
    assert_eq!(
        names(&files),
        ["main.tex", "sections/intro.tex", "refs.bib", "main.bbl"]
    );
    assert_eq!(main_tex::main_tex(&files).as_deref(), Some("main.tex"));
}

#[test]
fn tar_gz_and_single_gzipped_sources() {
    let tgz = gzip(&tar_of(&[
        ("paper/main.tex", MAIN),
        ("paper/refs.bib", b"@misc{a}"),
    ]));
    assert_eq!(ArchiveFormat::sniff(&tgz), Some(ArchiveFormat::Gzip));
    let files = unpack(&tgz, ArchiveFormat::Gzip, "2401.01234", &LIMITS).unwrap();
    assert_eq!(names(&files), ["paper/main.tex", "paper/refs.bib"]);
    let single = gzip(MAIN);
    let files = unpack(&single, ArchiveFormat::Gzip, "2401.01234", &LIMITS).unwrap();
    assert_eq!(names(&files), ["2401.01234.tex"]);
    let error = unpack(&gzip(b"just words"), ArchiveFormat::Gzip, "x", &LIMITS).unwrap_err();
    assert!(error.contains("no tar archive"), "{error}");
    let plain = tar_of(&[("main.tex", MAIN)]);
    assert_eq!(ArchiveFormat::sniff(&plain), Some(ArchiveFormat::Tar));
    assert_eq!(
        names(&unpack(&plain, ArchiveFormat::Tar, "x", &LIMITS).unwrap()),
        ["main.tex"]
    );
}

#[test]
fn paths_that_leave_the_archive_are_refused() {
    for name in [
        "../evil.tex",
        "a/../../evil.tex",
        "/etc/evil.tex",
        "C:\\evil.tex",
    ] {
        let zipped = zip_of(&[("main.tex", MAIN), (name, b"x")]);
        let error = unpack(&zipped, ArchiveFormat::Zip, "x", &LIMITS).unwrap_err();
        assert!(error.contains("path traversal"), "{name}: {error}");
        assert!(error.contains(name), "{error}");
        let tarred = tar_of(&[(name, b"x")]);
        let error = unpack(&tarred, ArchiveFormat::Tar, "x", &LIMITS).unwrap_err();
        assert!(error.contains("path traversal"), "{name}: {error}");
    }
    assert_eq!(inner_path("a/./b/../c.tex").unwrap(), "a/c.tex");
}

#[test]
fn bombs_stop_at_the_limits() {
    let small = Limits {
        max_entries: 5,
        max_file: 1 << 20,
        max_taken: 2 << 20,
        max_expanded: 4 << 20,
    };
    // One entry that expands to 8 MiB of zeros from a few KiB.
    let zeros = vec![0u8; 8 << 20];
    let bomb = zip_of(&[("main.tex", &zeros)]);
    assert!(bomb.len() < 64 << 10, "{}", bomb.len());
    let error = unpack(&bomb, ArchiveFormat::Zip, "x", &small).unwrap_err();
    assert!(
        error.contains("expands past") || error.contains("bomb"),
        "{error}"
    );
    // A gzip stream that expands past the limit, read through the tar.
    let tar_bomb = gzip(&tar_of(&[("a.png", &zeros), ("main.tex", MAIN)]));
    let error = unpack(&tar_bomb, ArchiveFormat::Gzip, "x", &small).unwrap_err();
    assert!(error.contains("expands past"), "{error}");
    let single_bomb = gzip(&zeros);
    let error = unpack(&single_bomb, ArchiveFormat::Gzip, "x", &small).unwrap_err();
    assert!(error.contains("expands past"), "{error}");
    // Many small files whose sum is over the limit of what is taken out.
    let half = vec![b'x'; 900 << 10];
    let many = zip_of(&[("a.tex", &half), ("b.tex", &half), ("c.tex", &half)]);
    let error = unpack(&many, ArchiveFormat::Zip, "x", &small).unwrap_err();
    assert!(error.contains("expands past"), "{error}");
    // Too many entries.
    let listed: Vec<(String, Vec<u8>)> = (0..6).map(|k| (format!("f{k}.txt"), vec![])).collect();
    let refs: Vec<(&str, &[u8])> = listed
        .iter()
        .map(|(n, b)| (n.as_str(), b.as_slice()))
        .collect();
    let error = unpack(&zip_of(&refs), ArchiveFormat::Zip, "x", &small).unwrap_err();
    assert!(error.contains("more than 5 entries"), "{error}");
}

#[test]
fn garbage_is_an_error_not_a_panic() {
    for bytes in [
        &b""[..],
        b"PK\x03\x04garbage",
        b"\x1f\x8bgarbage",
        &[0u8; 600],
    ] {
        for format in [ArchiveFormat::Zip, ArchiveFormat::Tar, ArchiveFormat::Gzip] {
            let _ = unpack(bytes, format, "x", &LIMITS);
        }
    }
    let truncated = zip_of(&[("main.tex", MAIN)]);
    assert!(
        unpack(
            &truncated[..truncated.len() / 2],
            ArchiveFormat::Zip,
            "x",
            &LIMITS
        )
        .is_err()
    );
}
