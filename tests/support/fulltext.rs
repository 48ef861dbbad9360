//! Full texts: the file named by a work's `full_text_file` (a Markdown/LaTeX file or a
//! directory of Markdown sections), rendered as a JATS `<article>` for PMC efetch and Europe
//! PMC `fullTextXML`. Works without a readable full text get front matter only.

use std::path::Path;

use super::text::xml_escape;
use super::world::{Entry, World};

/// The text of a work's full text file, when the file (or directory) is readable.
pub fn full_text(world: &World, e: &Entry) -> Option<String> {
    let path = world.full_text_path(e)?;
    if path.is_dir() {
        let mut files: Vec<_> = std::fs::read_dir(&path)
            .ok()?
            .filter_map(|f| f.ok().map(|f| f.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "md"))
            .collect();
        files.sort();
        let parts: Vec<String> = files
            .iter()
            .filter_map(|f| std::fs::read_to_string(f).ok())
            .collect();
        (!parts.is_empty()).then(|| parts.join("\n\n"))
    } else {
        read_file(&path)
    }
}

fn read_file(path: &Path) -> Option<String> {
    std::fs::read_to_string(path).ok()
}

/// Section heading of a line (`# Title`, `\section{Title}`), if it is one.
fn heading(line: &str) -> Option<String> {
    let t = line.trim();
    if let Some(rest) = t.strip_prefix('#') {
        return Some(rest.trim_start_matches('#').trim().to_string());
    }
    for cmd in [
        "\\section{",
        "\\section*{",
        "\\subsection{",
        "\\subsection*{",
    ] {
        if let Some(rest) = t.strip_prefix(cmd) {
            return Some(rest.trim_end_matches('}').to_string());
        }
    }
    None
}

/// JATS `<body>`: one `<sec>` per heading, one `<p>` per paragraph.
fn jats_body(text: &str) -> String {
    let mut body = String::from("  <body>\n");
    let mut open_sec = false;
    let mut para: Vec<&str> = Vec::new();
    let flush = |para: &mut Vec<&str>, body: &mut String| {
        let joined = para.join(" ");
        if !joined.trim().is_empty() {
            body.push_str(&format!("      <p>{}</p>\n", xml_escape(joined.trim())));
        }
        para.clear();
    };
    for line in text.lines() {
        if let Some(title) = heading(line) {
            flush(&mut para, &mut body);
            if open_sec {
                body.push_str("    </sec>\n");
            }
            body.push_str(&format!(
                "    <sec>\n      <title>{}</title>\n",
                xml_escape(&title)
            ));
            open_sec = true;
        } else if line.trim().is_empty() {
            flush(&mut para, &mut body);
        } else {
            para.push(line.trim());
        }
    }
    flush(&mut para, &mut body);
    if open_sec {
        body.push_str("    </sec>\n");
    }
    body.push_str("  </body>\n");
    body
}

/// A JATS `<article>` for a work: front matter from the record, body from its full text.
pub fn jats_article(world: &World, e: &Entry) -> String {
    let w = &e.work;
    let mut s = String::from(
        "<article xmlns:mml=\"http://www.w3.org/1998/Math/MathML\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" article-type=\"research-article\" dtd-version=\"1.3\">\n  <front>\n    <journal-meta>\n",
    );
    if let Some(v) = &w.venue {
        s.push_str(&format!(
            "      <journal-title-group>\n        <journal-title>{}</journal-title>\n      </journal-title-group>\n",
            xml_escape(v)
        ));
    }
    s.push_str("    </journal-meta>\n    <article-meta>\n");
    if let Some(p) = &w.pmid {
        s.push_str(&format!(
            "      <article-id pub-id-type=\"pmid\">{p}</article-id>\n"
        ));
    }
    if let Some(p) = &w.pmcid {
        s.push_str(&format!(
            "      <article-id pub-id-type=\"pmc\">{}</article-id>\n",
            p.trim_start_matches("PMC")
        ));
    }
    if let Some(d) = &w.doi {
        s.push_str(&format!(
            "      <article-id pub-id-type=\"doi\">{}</article-id>\n",
            xml_escape(d)
        ));
    }
    s.push_str(&format!(
        "      <title-group>\n        <article-title>{}</article-title>\n      </title-group>\n      <contrib-group>\n",
        xml_escape(&w.title)
    ));
    for a in &w.authors {
        match &a.given {
            Some(given) => s.push_str(&format!(
                "        <contrib contrib-type=\"author\">\n          <name>\n            <surname>{}</surname>\n            <given-names>{}</given-names>\n          </name>\n        </contrib>\n",
                xml_escape(&a.family),
                xml_escape(given)
            )),
            None => s.push_str(&format!(
                "        <contrib contrib-type=\"author\">\n          <collab>{}</collab>\n        </contrib>\n",
                xml_escape(&a.family)
            )),
        }
    }
    s.push_str("      </contrib-group>\n");
    if let Some(y) = w.year {
        s.push_str(&format!(
            "      <pub-date pub-type=\"epub\">\n        <year>{y}</year>\n      </pub-date>\n"
        ));
    }
    if let Some(a) = &w.abstract_text {
        s.push_str(&format!(
            "      <abstract>\n        <p>{}</p>\n      </abstract>\n",
            xml_escape(a)
        ));
    }
    s.push_str("    </article-meta>\n  </front>\n");
    if let Some(text) = full_text(world, e) {
        s.push_str(&jats_body(&text));
    }
    s.push_str("</article>");
    s
}
