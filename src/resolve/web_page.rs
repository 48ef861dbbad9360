//! A cited web page as a record: its own title (`og:title`, a schema.org `WebPage`,
//! `BlogPosting`, `SoftwareSourceCode` or `Dataset`, else `<title>`) and date — not its
//! author tag, which names one person (the site's owner, the first author) at most —
//! for pages without scholarly metadata; and the pages that stand in for the real one
//! (a bot check, a captcha, a login wall), which establish nothing.

use scraper::{Html, Selector};
use serde_json::Value;

use crate::model::Work;
use crate::resolve::sources::text::{collapse_whitespace, finish, year_in};

fn selector(css: &str) -> Selector {
    Selector::parse(css).expect("static selector")
}

/// Schema.org types of pages that are works in their own right.
const PAGE_TYPES: &[&str] = &[
    "WebPage",
    "Article",
    "BlogPosting",
    "NewsArticle",
    "TechArticle",
    "SoftwareSourceCode",
    "SoftwareApplication",
    "Dataset",
    "Legislation",
    "VideoObject",
    "PresentationDigitalDocument",
];

/// The page as a record: its title, author and date, where it names a title (the
/// caller names the source that read it).
pub fn page_as_work(html: &str) -> Option<Work> {
    let doc = Html::parse_document(html);
    let meta = |names: &[&str]| {
        names.iter().find_map(|name| {
            let sel = selector(&format!(
                "meta[name=\"{name}\" i], meta[property=\"{name}\" i]"
            ));
            doc.select(&sel)
                .filter_map(|m| m.value().attr("content"))
                .map(collapse_whitespace)
                .find(|c| !c.is_empty())
        })
    };
    let ld = json_ld_page(&doc);
    let tag_title = doc
        .select(&selector("title"))
        .next()
        .map(|t| collapse_whitespace(&t.text().collect::<String>()))
        .filter(|t| !t.is_empty());
    let title = meta(&["og:title", "twitter:title"])
        .or_else(|| ld.as_ref().map(|w| w.title.clone()))
        .or(tag_title)?;
    let mut work = ld.unwrap_or_default();
    work.title = title;
    work.work_type = Some("web_page".into());
    if work.year.is_none() {
        work.year = meta(&[
            "article:published_time",
            "date",
            "dc.date",
            "citation_date",
            "og:updated_time",
        ])
        .and_then(|d| year_in(&d));
    }
    Some(finish(work))
}

fn json_ld_page(doc: &Html) -> Option<Work> {
    doc.select(&selector("script[type=\"application/ld+json\"]"))
        .find_map(|s| {
            let v: Value = serde_json::from_str(&s.text().collect::<String>()).ok()?;
            let items: Vec<Value> = match v {
                Value::Array(a) => a,
                Value::Object(ref o) => match o.get("@graph").and_then(Value::as_array) {
                    Some(graph) => graph.clone(),
                    None => vec![v.clone()],
                },
                _ => Vec::new(),
            };
            items.iter().find_map(ld_page)
        })
}

fn ld_page(v: &Value) -> Option<Work> {
    let types: Vec<&str> = match v.get("@type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    if !types.iter().any(|t| PAGE_TYPES.contains(t)) {
        return None;
    }
    let text = |k: &str| v.get(k).and_then(Value::as_str).map(collapse_whitespace);
    let title = text("headline").or_else(|| text("name"))?;
    Some(Work {
        title,
        year: text("datePublished")
            .or_else(|| text("dateCreated"))
            .and_then(|d| year_in(&d)),
        ..Work::default()
    })
}

/// What stands in for the page when a site refuses robots: a bot check, a captcha,
/// a JavaScript wall, a login or cookie wall. `None` for a real page.
pub fn bot_wall(html: &str) -> Option<&'static str> {
    let head: String = html.chars().take(20_000).collect::<String>().to_lowercase();
    const WALLS: &[(&str, &str)] = &[
        ("just a moment...", "a bot check (Cloudflare)"),
        (
            "attention required! | cloudflare",
            "a bot check (Cloudflare)",
        ),
        ("cf-browser-verification", "a bot check (Cloudflare)"),
        ("challenge-platform", "a bot check (Cloudflare)"),
        ("g-recaptcha", "a captcha"),
        ("h-captcha", "a captcha"),
        ("are you a robot", "a bot check"),
        ("verify you are human", "a bot check"),
        ("unusual traffic from your computer", "a bot check"),
        ("access denied</title>", "an access-denied page"),
        ("please enable javascript to continue", "a JavaScript wall"),
        (
            "enable javascript and cookies to continue",
            "a JavaScript wall",
        ),
        ("<title>sign in", "a login wall"),
        ("<title>log in", "a login wall"),
    ];
    WALLS
        .iter()
        .find(|(needle, _)| head.contains(needle))
        .map(|(_, what)| *what)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_names_itself() {
        let html = r#"<html><head><title>The Illustrated Transformer – Jay Alammar</title>
            <meta property="og:title" content="The Illustrated Transformer">
            <meta name="author" content="Jay Alammar">
            <meta property="article:published_time" content="2018-06-27T00:00:00Z">
            </head><body>…</body></html>"#;
        let w = page_as_work(html).expect("page");
        assert_eq!(w.title, "The Illustrated Transformer");
        assert!(
            w.authors.is_empty(),
            "a page's author tag is no author list"
        );
        assert_eq!(w.year, Some(2018));
        assert_eq!(w.work_type.as_deref(), Some("web_page"));
        let bare = page_as_work("<html><head><title>NumPy</title></head></html>").expect("title");
        assert_eq!(bare.title, "NumPy");
        assert!(page_as_work("<html><body>no title</body></html>").is_none());
    }

    #[test]
    fn walls_are_not_pages() {
        assert!(bot_wall("<html><head><title>Just a moment...</title></head></html>").is_some());
        assert!(bot_wall("<div class=\"g-recaptcha\" data-sitekey=\"x\"></div>").is_some());
        assert!(bot_wall("<html><head><title>Deep learning</title></head></html>").is_none());
    }
}
