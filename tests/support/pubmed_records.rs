//! PubMed record bodies: the efetch `PubmedArticle` and the esummary DocSum (XML v1 and JSON),
//! with "Retracted Publication" and RetractionIn / ExpressionOfConcernIn notices.

use std::sync::LazyLock;

use regex::Regex;
use serde_json::{Value, json};

use super::text::xml_escape;
use super::world::Entry;

static SECTION_LABEL: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?:^|\s)([A-Z][A-Z0-9 ,&/\-]{2,40}):\s").expect("label regex"));

const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

/// Split `OBJECTIVE: … DESIGN: …` back into labelled sections (the world keeps PubMed's
/// structured abstracts as `LABEL: text`).
pub fn abstract_sections(text: &str) -> Vec<(Option<String>, String)> {
    let labels: Vec<(usize, usize, String)> = SECTION_LABEL
        .captures_iter(text)
        .filter_map(|c| {
            let whole = c.get(0)?;
            Some((whole.start(), whole.end(), c[1].to_string()))
        })
        .collect();
    if labels.first().map(|l| l.0) != Some(0) {
        return vec![(None, text.to_string())];
    }
    labels
        .iter()
        .enumerate()
        .map(|(k, (_, end, label))| {
            let stop = labels.get(k + 1).map_or(text.len(), |next| next.0);
            (Some(label.clone()), text[*end..stop].trim().to_string())
        })
        .collect()
}

/// PubMed titles end with a period.
fn pubmed_title(title: &str) -> String {
    if title.ends_with(['.', '?', '!']) {
        title.to_string()
    } else {
        format!("{title}.")
    }
}

fn publication_types(e: &Entry) -> Vec<(&'static str, &'static str)> {
    let mut types = vec![("D016428", "Journal Article")];
    if e.work
        .kind
        .as_deref()
        .is_some_and(|k| k.to_lowercase().contains("review"))
    {
        types.push(("D016454", "Review"));
    }
    if e.work.is_retracted {
        types.push(("D016441", "Retracted Publication"));
    }
    types
}

fn month_day(e: &Entry) -> (u32, u32) {
    (
        1 + (e.salt("pubmed-month") % 12) as u32,
        1 + (e.salt("pubmed-day") % 28) as u32,
    )
}

/// One `<PubmedArticle>` (efetch db=pubmed retmode=xml).
pub fn pubmed_article(e: &Entry) -> String {
    let w = &e.work;
    let pmid = w.pmid.as_deref().unwrap_or("");
    let year = w.year.unwrap_or(2000);
    let (month, day) = month_day(e);
    let venue = xml_escape(w.venue.as_deref().unwrap_or(""));
    let status = if e.salt("pubmed-status").is_multiple_of(3) {
        "PubMed-not-MEDLINE"
    } else {
        "MEDLINE"
    };
    let mut s = format!(
        "<PubmedArticle>\n    <MedlineCitation Status=\"{status}\" Owner=\"NLM\">\n        <PMID Version=\"1\">{pmid}</PMID>\n        <DateRevised>\n            <Year>{}</Year>\n            <Month>{month:02}</Month>\n            <Day>{day:02}</Day>\n        </DateRevised>\n        <Article PubModel=\"Print-Electronic\">\n            <Journal>\n                <JournalIssue CitedMedium=\"Internet\">\n                    <PubDate>\n                        <Year>{year}</Year>\n                        <Month>{}</Month>\n                    </PubDate>\n                </JournalIssue>\n                <Title>{venue}</Title>\n                <ISOAbbreviation>{venue}</ISOAbbreviation>\n            </Journal>\n            <ArticleTitle>{}</ArticleTitle>\n",
        year + 1,
        MONTHS[(month - 1) as usize],
        xml_escape(&pubmed_title(&w.title)),
    );
    if let Some(doi) = &w.doi {
        s.push_str(&format!(
            "            <ELocationID EIdType=\"doi\" ValidYN=\"Y\">{}</ELocationID>\n",
            xml_escape(doi)
        ));
    }
    if let Some(text) = &w.abstract_text {
        s.push_str("            <Abstract>\n");
        for (label, part) in abstract_sections(text) {
            match label {
                Some(label) => s.push_str(&format!(
                    "                <AbstractText Label=\"{0}\" NlmCategory=\"{0}\">{1}</AbstractText>\n",
                    xml_escape(&label),
                    xml_escape(&part)
                )),
                None => s.push_str(&format!("                <AbstractText>{}</AbstractText>\n", xml_escape(&part))),
            }
        }
        s.push_str("            </Abstract>\n");
    }
    s.push_str("            <AuthorList CompleteYN=\"Y\">\n");
    for a in &w.authors {
        if a.is_organisation() {
            s.push_str(&format!(
                "                <Author ValidYN=\"Y\">\n                    <CollectiveName>{}</CollectiveName>\n                </Author>\n",
                xml_escape(&a.family)
            ));
        } else {
            s.push_str(&format!(
                "                <Author ValidYN=\"Y\">\n                    <LastName>{}</LastName>\n                    <ForeName>{}</ForeName>\n                    <Initials>{}</Initials>\n                </Author>\n",
                xml_escape(&a.family),
                xml_escape(a.given.as_deref().unwrap_or("")),
                xml_escape(&a.initials())
            ));
        }
    }
    s.push_str("            </AuthorList>\n            <Language>eng</Language>\n            <PublicationTypeList>\n");
    for (ui, name) in publication_types(e) {
        s.push_str(&format!(
            "                <PublicationType UI=\"{ui}\">{name}</PublicationType>\n"
        ));
    }
    s.push_str(&format!(
        "            </PublicationTypeList>\n        </Article>\n        <MedlineJournalInfo>\n            <MedlineTA>{venue}</MedlineTA>\n        </MedlineJournalInfo>\n"
    ));
    let notices: Vec<(&str, String)> = e
        .updates
        .iter()
        .filter_map(|u| {
            let ref_type = match u.kind.as_str() {
                "retraction" => "RetractionIn",
                "expression_of_concern" => "ExpressionOfConcernIn",
                "correction" => "ErratumIn",
                _ => return None,
            };
            let (y, m, _) = u.date_parts();
            Some((
                ref_type,
                format!(
                    "{}. {y} {}. doi: {}",
                    w.venue.as_deref().unwrap_or(""),
                    MONTHS[(m.clamp(1, 12) - 1) as usize],
                    u.doi
                ),
            ))
        })
        .collect();
    if !notices.is_empty() {
        s.push_str("        <CommentsCorrectionsList>\n");
        for (ref_type, source) in notices {
            s.push_str(&format!(
                "            <CommentsCorrections RefType=\"{ref_type}\">\n                <RefSource>{}</RefSource>\n            </CommentsCorrections>\n",
                xml_escape(&source)
            ));
        }
        s.push_str("        </CommentsCorrectionsList>\n");
    }
    s.push_str(&format!(
        "    </MedlineCitation>\n    <PubmedData>\n        <History>\n            <PubMedPubDate PubStatus=\"pubmed\">\n                <Year>{year}</Year>\n                <Month>{month}</Month>\n                <Day>{day}</Day>\n                <Hour>6</Hour>\n                <Minute>0</Minute>\n            </PubMedPubDate>\n        </History>\n        <PublicationStatus>ppublish</PublicationStatus>\n        <ArticleIdList>\n            <ArticleId IdType=\"pubmed\">{pmid}</ArticleId>\n"
    ));
    if let Some(doi) = &w.doi {
        s.push_str(&format!(
            "            <ArticleId IdType=\"doi\">{}</ArticleId>\n",
            xml_escape(doi)
        ));
    }
    if let Some(pmc) = &w.pmcid {
        s.push_str(&format!(
            "            <ArticleId IdType=\"pmc\">{}</ArticleId>\n",
            xml_escape(pmc)
        ));
    }
    s.push_str("        </ArticleIdList>\n    </PubmedData>\n</PubmedArticle>\n");
    s
}

fn item(name: &str, kind: &str, value: &str) -> String {
    format!(
        "\t<Item Name=\"{name}\" Type=\"{kind}\">{}</Item>\n",
        xml_escape(value)
    )
}

/// Medline-style author names (`LoPresti PJ`).
fn medline_names(e: &Entry) -> Vec<String> {
    e.work
        .authors
        .iter()
        .map(|a| {
            if a.is_organisation() {
                a.family.clone()
            } else {
                format!("{} {}", a.family, a.initials())
            }
        })
        .collect()
}

/// One esummary `<DocSum>` (XML v1).
pub fn docsum_xml(e: &Entry) -> String {
    let w = &e.work;
    let year = w.year.unwrap_or(2000);
    let (month, _) = month_day(e);
    let pubdate = format!("{year} {}", MONTHS[(month - 1) as usize]);
    let venue = w.venue.as_deref().unwrap_or("");
    let names = medline_names(e);
    let mut s = format!("<DocSum>\n\t<Id>{}</Id>\n", w.pmid.as_deref().unwrap_or(""));
    s.push_str(&item("PubDate", "Date", &pubdate));
    s.push_str(&item("EPubDate", "Date", ""));
    s.push_str(&item("Source", "String", venue));
    s.push_str("\t<Item Name=\"AuthorList\" Type=\"List\">\n");
    for n in &names {
        s.push_str(&format!("\t{}", item("Author", "String", n)));
    }
    s.push_str("\t</Item>\n");
    s.push_str(&item(
        "LastAuthor",
        "String",
        names.last().map_or("", String::as_str),
    ));
    s.push_str(&item("Title", "String", &pubmed_title(&w.title)));
    s.push_str(&item("Volume", "String", ""));
    s.push_str(&item("Issue", "String", ""));
    s.push_str(&item("Pages", "String", ""));
    s.push_str("\t<Item Name=\"LangList\" Type=\"List\">\n\t");
    s.push_str(&item("Lang", "String", "English"));
    s.push_str("\t</Item>\n");
    s.push_str("\t<Item Name=\"PubTypeList\" Type=\"List\">\n");
    for (_, name) in publication_types(e) {
        s.push_str(&format!("\t{}", item("PubType", "String", name)));
    }
    s.push_str("\t</Item>\n");
    s.push_str(&item(
        "RecordStatus",
        "String",
        "PubMed - indexed for MEDLINE",
    ));
    s.push_str(&item("PubStatus", "String", "ppublish"));
    s.push_str("\t<Item Name=\"ArticleIds\" Type=\"List\">\n");
    s.push_str(&format!(
        "\t{}",
        item("pubmed", "String", w.pmid.as_deref().unwrap_or(""))
    ));
    if let Some(doi) = &w.doi {
        s.push_str(&format!("\t{}", item("doi", "String", doi)));
    }
    if let Some(pmc) = &w.pmcid {
        s.push_str(&format!("\t{}", item("pmc", "String", pmc)));
    }
    s.push_str("\t</Item>\n");
    s.push_str(&item(
        "HasAbstract",
        "Integer",
        if w.abstract_text.is_some() { "1" } else { "0" },
    ));
    s.push_str(&item("FullJournalName", "String", venue));
    s.push_str(&item(
        "ELocationID",
        "String",
        &w.doi
            .as_ref()
            .map(|d| format!("doi: {d}"))
            .unwrap_or_default(),
    ));
    s.push_str(&item("SO", "String", &pubdate));
    s.push_str("</DocSum>\n\n");
    s
}

/// One esummary record (JSON, version 2.0 field names).
pub fn docsum_json(e: &Entry) -> Value {
    let w = &e.work;
    let year = w.year.unwrap_or(2000);
    let (month, _) = month_day(e);
    let pubdate = format!("{year} {}", MONTHS[(month - 1) as usize]);
    let names = medline_names(e);
    let mut article_ids = vec![json!({"idtype": "pubmed", "idtypen": 1, "value": w.pmid})];
    if let Some(doi) = &w.doi {
        article_ids.push(json!({"idtype": "doi", "idtypen": 3, "value": doi}));
    }
    if let Some(pmc) = &w.pmcid {
        article_ids.push(json!({"idtype": "pmc", "idtypen": 8, "value": pmc}));
    }
    json!({
        "uid": w.pmid,
        "pubdate": pubdate,
        "epubdate": "",
        "source": w.venue.clone().unwrap_or_default(),
        "authors": names.iter().map(|n| json!({"name": n, "authtype": "Author", "clusterid": ""})).collect::<Vec<_>>(),
        "lastauthor": names.last().cloned().unwrap_or_default(),
        "title": pubmed_title(&w.title),
        "volume": "", "issue": "", "pages": "",
        "lang": ["eng"],
        "pubtype": publication_types(e).iter().map(|(_, n)| *n).collect::<Vec<_>>(),
        "recordstatus": "PubMed - indexed for MEDLINE",
        "pubstatus": "4",
        "articleids": article_ids,
        "attributes": if w.abstract_text.is_some() { json!(["Has Abstract"]) } else { json!([]) },
        "fulljournalname": w.venue.clone().unwrap_or_default(),
        "elocationid": w.doi.as_ref().map(|d| format!("doi: {d}")).unwrap_or_default(),
        "doctype": "citation",
        "sortpubdate": format!("{year}/{month:02}/01 00:00"),
    })
}
