//! What in a PDF would send the text engine into endless recursion, cut before it
//! runs. The engine draws a form XObject by drawing its content with the form's
//! resources (or its caller's), and looks up a page's inherited resources through
//! `/Parent`; it follows both without a bound. A form that names itself, directly or
//! through other forms, or a `/Parent` chain that loops, recursed until the stack
//! overflowed: that kills the process, and no catch survives it (found by the `pdf`
//! fuzz target). So, before the engine runs:
//!
//! - a `/Parent` entry that closes a loop is removed;
//! - an XObject entry that would be drawn inside itself, deeper than [`MAX_DEPTH`]
//!   forms, or past [`MAX_DRAWS`] draws on one page (forms that each draw the next
//!   a hundred times multiply), is pointed at an empty form.
//!
//! A well-formed document has none of these, and is left as it was.

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use lopdf::content::Content;
use lopdf::{Dictionary, Document, Object, ObjectId, Stream};

/// Forms drawn inside forms: real documents nest a few.
pub const MAX_DEPTH: usize = 12;
/// XObject draws the walk allows for one page before it cuts the rest.
pub const MAX_DRAWS: usize = 10_000;

/// Where a dictionary lives: an object (a dictionary or a stream's), then the keys
/// of the dictionaries nested in it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Place {
    id: ObjectId,
    keys: Vec<Vec<u8>>,
}

impl Place {
    fn object(id: ObjectId) -> Place {
        Place { id, keys: vec![] }
    }

    /// The place of `value`, found under `key` of the dictionary at `self`.
    fn of_value(&self, key: &[u8], value: &Object) -> Option<Place> {
        match value {
            Object::Reference(id) => Some(Place::object(*id)),
            Object::Dictionary(_) => {
                let mut keys = self.keys.clone();
                keys.push(key.to_vec());
                Some(Place { id: self.id, keys })
            }
            _ => None,
        }
    }
}

fn dict_at<'a>(doc: &'a Document, place: &Place) -> Option<&'a Dictionary> {
    let mut dict = match doc.get_object(place.id).ok()? {
        Object::Dictionary(d) => d,
        Object::Stream(s) => &s.dict,
        _ => return None,
    };
    for key in &place.keys {
        dict = dict.get(key).ok()?.as_dict().ok()?;
    }
    Some(dict)
}

fn dict_at_mut<'a>(doc: &'a mut Document, place: &Place) -> Option<&'a mut Dictionary> {
    let mut dict = match doc.get_object_mut(place.id).ok()? {
        Object::Dictionary(d) => d,
        Object::Stream(s) => &mut s.dict,
        _ => return None,
    };
    for key in &place.keys {
        dict = dict.get_mut(key).ok()?.as_dict_mut().ok()?;
    }
    Some(dict)
}

/// Cut the loops and the runaway nesting in `doc` (see the module's comment); the
/// number of entries cut.
pub fn defuse(doc: &mut Document) -> usize {
    let pages: Vec<ObjectId> = doc.get_pages().values().copied().collect();
    let mut cut = cut_parent_loops(doc, &pages);
    let mut entries = HashSet::new();
    let mut forms_drawn = HashMap::new();
    for &page in &pages {
        let Some(resources) = inherited_resources(doc, page) else {
            continue;
        };
        let drawn = doc
            .get_page_content(page)
            .map(|c| draws(&c))
            .unwrap_or_default();
        let path = doc.get_page_contents(page);
        let mut walk = Walk {
            doc,
            contents: path.len(),
            path,
            draws: 0,
            cut: &mut entries,
            forms_drawn: &mut forms_drawn,
        };
        walk.resources(&resources, &drawn, 1);
    }
    if !entries.is_empty() {
        let empty = empty_form(doc);
        for (place, name) in &entries {
            if let Some(dict) = dict_at_mut(doc, place) {
                dict.set(name.clone(), Object::Reference(empty));
                cut += 1;
            }
        }
    }
    cut
}

/// How many times a stream draws each XObject name.
type Drawn = HashMap<Vec<u8>, usize>;

/// How many times a content stream draws each XObject name (its `Do` operators),
/// read with the engine's own content parser.
fn draws(content: &[u8]) -> Drawn {
    let mut times = HashMap::new();
    let Ok(content) = Content::decode(content) else {
        return times;
    };
    for operation in &content.operations {
        if operation.operator == "Do"
            && let Some(Ok(name)) = operation.operands.first().map(Object::as_name)
        {
            *times.entry(name.to_vec()).or_insert(0usize) += 1;
        }
    }
    times
}

/// A form's content as the engine reads it: decompressed when it can be (lopdf
/// returns an unfiltered stream's content as it is).
fn form_content(form: &Stream) -> Vec<u8> {
    form.decompressed_content()
        .unwrap_or_else(|_| form.content.clone())
}

/// Remove each `/Parent` that leads back into a chain already walked from a page.
fn cut_parent_loops(doc: &mut Document, pages: &[ObjectId]) -> usize {
    let mut closing = HashSet::new();
    for &page in pages {
        let mut seen = HashSet::from([page]);
        let mut at = page;
        while let Some(parent) = doc
            .get_dictionary(at)
            .ok()
            .and_then(|d| d.get(b"Parent").ok())
            .and_then(|p| p.as_reference().ok())
        {
            if !seen.insert(parent) {
                closing.insert(at);
                break;
            }
            at = parent;
        }
    }
    for id in &closing {
        if let Ok(Object::Dictionary(d)) = doc.get_object_mut(*id) {
            d.remove(b"Parent");
        }
    }
    closing.len()
}

/// The page's resources as the engine finds them: its own, or the nearest ancestor's.
fn inherited_resources(doc: &Document, page: ObjectId) -> Option<Place> {
    let mut at = page;
    let mut seen = HashSet::new();
    while seen.insert(at) {
        let dict = doc.get_dictionary(at).ok()?;
        if let Ok(value) = dict.get(b"Resources") {
            return Place::object(at).of_value(b"Resources", value);
        }
        at = dict.get(b"Parent").ok()?.as_reference().ok()?;
    }
    None
}

fn empty_form(doc: &mut Document) -> ObjectId {
    let mut dict = Dictionary::new();
    dict.set("Type", Object::Name(b"XObject".to_vec()));
    dict.set("Subtype", Object::Name(b"Form".to_vec()));
    dict.set(
        "BBox",
        Object::Array(vec![0.into(), 0.into(), 0.into(), 0.into()]),
    );
    doc.add_object(Stream::new(dict, vec![]))
}

/// A walk of what one page draws, as the engine would: every XObject its content
/// draws by name from its resources, then what each of those draws with its own
/// resources (or the caller's, when it has none).
struct Walk<'a> {
    doc: &'a Document,
    /// The streams being drawn, outermost first: the page's contents, then forms.
    path: Vec<ObjectId>,
    /// How many of `path` are the page's contents.
    contents: usize,
    /// XObjects drawn so far on this page, each counted as often as it is drawn.
    draws: usize,
    cut: &'a mut HashSet<(Place, Vec<u8>)>,
    /// What each form's content draws, read once per document.
    forms_drawn: &'a mut HashMap<ObjectId, Rc<Drawn>>,
}

impl Walk<'_> {
    /// Walk what a stream drawing `drawn` (times per name) with `resources` draws;
    /// the stream itself is drawn `times` times.
    fn resources(&mut self, resources: &Place, drawn: &Drawn, times: usize) {
        let doc = self.doc;
        let Some(dict) = dict_at(doc, resources) else {
            return;
        };
        let Some(xobjects) = dict
            .get(b"XObject")
            .ok()
            .and_then(|v| resources.of_value(b"XObject", v))
        else {
            return;
        };
        let Some(entries) = dict_at(doc, &xobjects) else {
            return;
        };
        for (name, value) in entries.iter() {
            let (Object::Reference(id), Some(&each)) = (value, drawn.get(name)) else {
                continue;
            };
            let key = (xobjects.clone(), name.clone());
            if self.cut.contains(&key) {
                continue;
            }
            let times = times.saturating_mul(each);
            self.draws = self.draws.saturating_add(times);
            let depth = self.path.len() - self.contents;
            if self.path.contains(id) || depth >= MAX_DEPTH || self.draws > MAX_DRAWS {
                self.cut.insert(key);
                continue;
            }
            let Ok(Object::Stream(form)) = doc.get_object(*id) else {
                continue;
            };
            let own = form
                .dict
                .get(b"Resources")
                .ok()
                .and_then(|v| Place::object(*id).of_value(b"Resources", v))
                .filter(|place| dict_at(doc, place).is_some());
            let inner = self
                .forms_drawn
                .entry(*id)
                .or_insert_with(|| Rc::new(draws(&form_content(form))))
                .clone();
            self.path.push(*id);
            self.resources(own.as_ref().unwrap_or(resources), &inner, times);
            self.path.pop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lopdf::dictionary;

    /// A form: its id, what its content says, and its own resources (none: it
    /// draws with its caller's).
    type Form = (u32, &'static str, Option<Dictionary>);

    /// A one-page document whose content says `page_says`; its XObject dictionary
    /// names each of `forms` `Fm<n>`.
    fn document(page_says: &str, forms: &[Form]) -> (Document, ObjectId) {
        let mut doc = Document::with_version("1.5");
        let pages_id = doc.new_object_id();
        let content = doc.add_object(Stream::new(dictionary! {}, page_says.as_bytes().to_vec()));
        let mut xobjects = Dictionary::new();
        for (n, (id, says, resources)) in forms.iter().enumerate() {
            add_form(&mut doc, *id, says, resources.clone());
            xobjects.set(format!("Fm{n}"), Object::Reference((*id, 0)));
        }
        let page = doc.add_object(dictionary! {
            "Type" => "Page",
            "Parent" => pages_id,
            "Contents" => content,
            "Resources" => dictionary! { "XObject" => xobjects },
        });
        let pages = dictionary! { "Type" => "Pages", "Kids" => vec![page.into()], "Count" => 1 };
        doc.objects.insert(pages_id, Object::Dictionary(pages));
        let catalog = doc.add_object(dictionary! { "Type" => "Catalog", "Pages" => pages_id });
        doc.trailer.set("Root", catalog);
        (doc, page)
    }

    /// Put a form XObject drawing `says` (with `resources`) at object `id`.
    fn add_form(doc: &mut Document, id: u32, says: &str, resources: Option<Dictionary>) {
        let mut dict = dictionary! { "Type" => "XObject", "Subtype" => "Form" };
        if let Some(r) = resources {
            dict.set("Resources", r);
        }
        let form = Stream::new(dict, says.as_bytes().to_vec());
        doc.objects.insert((id, 0), Object::Stream(form));
    }

    /// Resources naming one XObject.
    fn naming(name: &str, id: u32) -> Dictionary {
        dictionary! { "XObject" => dictionary! { name => Object::Reference((id, 0)) } }
    }

    fn page_xobject(doc: &Document, page: ObjectId, name: &str) -> ObjectId {
        let resources = doc.get_dictionary(page).unwrap().get(b"Resources").unwrap();
        let entry = resources.as_dict().unwrap().get(b"XObject").unwrap();
        let named = entry.as_dict().unwrap().get(name.as_bytes()).unwrap();
        named.as_reference().unwrap()
    }

    fn form_xobject(doc: &Document, form: u32, name: &str) -> ObjectId {
        let form = doc.get_object((form, 0)).unwrap().as_stream().unwrap();
        let resources = form.dict.get(b"Resources").unwrap().as_dict().unwrap();
        let entry = resources.get(b"XObject").unwrap().as_dict().unwrap();
        entry.get(name.as_bytes()).unwrap().as_reference().unwrap()
    }

    fn is_empty_form(doc: &Document, id: ObjectId) -> bool {
        doc.get_object(id)
            .unwrap()
            .as_stream()
            .unwrap()
            .content
            .is_empty()
    }

    #[test]
    fn a_form_that_draws_itself_through_its_callers_resources_is_cut() {
        let (mut doc, page) = document("/Fm0 Do", &[(50, "/Fm0 Do", None)]);
        assert_eq!(defuse(&mut doc), 1);
        assert!(is_empty_form(&doc, page_xobject(&doc, page, "Fm0")));
    }

    #[test]
    fn the_page_content_named_as_its_own_form_is_cut() {
        // What the fuzzer found: the page's content stream is also its XObject.
        let (mut doc, page) = document("/Im0 Do", &[]);
        let content = doc.get_page_contents(page)[0];
        let dict = doc.get_object_mut(page).unwrap().as_dict_mut().unwrap();
        dict.set("Resources", naming("Im0", content.0));
        assert_eq!(defuse(&mut doc), 1);
        assert!(is_empty_form(&doc, page_xobject(&doc, page, "Im0")));
        // The page's own content is kept.
        assert!(!is_empty_form(&doc, content));
    }

    #[test]
    fn two_forms_that_draw_each_other_are_cut_where_the_loop_closes() {
        let forms = [
            (50, "/B Do", Some(naming("B", 51))),
            (51, "/A Do", Some(naming("A", 50))),
        ];
        let (mut doc, page) = document("/Fm0 Do", &forms);
        assert_eq!(defuse(&mut doc), 1);
        // The page still draws A, and A draws B; B's drawing of A is cut.
        assert!(!is_empty_form(&doc, page_xobject(&doc, page, "Fm0")));
        assert!(!is_empty_form(&doc, form_xobject(&doc, 50, "B")));
        assert!(is_empty_form(&doc, form_xobject(&doc, 51, "A")));
    }

    #[test]
    fn a_loop_that_is_named_but_never_drawn_is_left() {
        let (mut doc, _) = document("BT ET", &[(50, "/Fm0 Do", None)]);
        assert_eq!(defuse(&mut doc), 0);
    }

    #[test]
    fn a_chain_of_forms_deeper_than_the_bound_is_cut_at_the_bound() {
        let depth = MAX_DEPTH as u32 + 5;
        let (mut doc, _) = document("/Fm0 Do", &[(100, "/Next Do", Some(naming("Next", 101)))]);
        for k in 1..depth {
            add_form(&mut doc, 100 + k, "/Next Do", Some(naming("Next", 101 + k)));
        }
        assert_eq!(defuse(&mut doc), 1);
        let last_kept = 100 + MAX_DEPTH as u32 - 2;
        assert!(!is_empty_form(&doc, form_xobject(&doc, last_kept, "Next")));
        assert!(is_empty_form(
            &doc,
            form_xobject(&doc, last_kept + 1, "Next")
        ));
    }

    #[test]
    fn forms_that_multiply_their_draws_are_cut_past_the_budget() {
        // Each of four forms draws the next one a hundred times: 10^8 draws.
        let hundred: &'static str = "/N Do ".repeat(100).leak();
        let forms: Vec<Form> = (0..4)
            .map(|k| (200 + k, hundred, Some(naming("N", 201 + k))))
            .collect();
        let (mut doc, page) = document("/Fm0 Do", &forms[..1]);
        for (id, says, resources) in &forms[1..] {
            add_form(&mut doc, *id, says, resources.clone());
        }
        assert_eq!(defuse(&mut doc), 1);
        // The first form's hundred draws of the second fit the budget; the second's
        // hundred draws each of the third (10^4 more) do not.
        assert!(!is_empty_form(&doc, page_xobject(&doc, page, "Fm0")));
        assert!(!is_empty_form(&doc, form_xobject(&doc, 200, "N")));
        assert!(is_empty_form(&doc, form_xobject(&doc, 201, "N")));
    }

    #[test]
    fn a_well_formed_document_is_left_as_it_was() {
        let own = dictionary! { "Font" => dictionary! {} };
        let (mut doc, _) = document("/Fm0 Do /Fm0 Do", &[(50, "BT ET", Some(own))]);
        let before = doc.objects.clone();
        assert_eq!(defuse(&mut doc), 0);
        assert_eq!(doc.objects, before);
    }

    #[test]
    fn a_parent_loop_is_cut() {
        let (mut doc, page) = document("BT ET", &[]);
        let parent = doc.get_dictionary(page).unwrap().get(b"Parent").unwrap();
        let pages_id = parent.as_reference().unwrap();
        let pages = doc.get_object_mut(pages_id).unwrap().as_dict_mut().unwrap();
        pages.set("Parent", Object::Reference(page));
        assert_eq!(cut_parent_loops(&mut doc, &[page]), 1);
        assert!(inherited_resources(&doc, page).is_some());
        assert!(
            doc.get_dictionary(pages_id)
                .unwrap()
                .get(b"Parent")
                .is_err()
        );
    }
}
