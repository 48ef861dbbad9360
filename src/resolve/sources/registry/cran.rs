//! CRAN through crandb (the CRAN package database as JSON): `GET /{name}/all` →
//! `name`, `title`, `versions` and `timeline` (version → publication time); 404 =
//! `{"error": "not_found"}`.

use serde_json::Value;

use super::{dated, package_work, parse_reply};
use crate::model::Registry;
use crate::net::HttpReply;
use crate::resolve::sources::json::str_of;
use crate::resolve::sources::{LookupResult, SourceError};

pub fn parse_cran(reply: &HttpReply) -> LookupResult {
    parse_reply(reply, |v| {
        let name = str_of(v.get("name"))
            .or_else(|| str_of(v.get("_id")))
            .ok_or_else(|| SourceError::Malformed("crandb record without a name".into()))?;
        let timeline = v
            .get("timeline")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
            .map(|(version, at)| (version.clone(), str_of(Some(at))));
        Ok(package_work(
            Registry::Cran,
            &name,
            str_of(v.get("title")),
            format!("https://CRAN.R-project.org/package={name}"),
            dated(timeline),
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resolve::sources::Lookup;
    use serde_json::json;

    #[test]
    fn a_package_and_its_absence() {
        let body = json!({"_id": "ggplot2", "name": "ggplot2", "title": "Create Elegant Data Visualisations",
            "latest": "3.4.4", "timeline": {"0.5": "2007-06-10T19:35:33+00:00", "3.4.4": "2023-10-12T22:30:02+00:00"}});
        let reply = HttpReply::new(200, None, body.to_string().into_bytes());
        let Ok(Lookup::Found(w)) = parse_cran(&reply) else {
            panic!("package not read")
        };
        assert_eq!((w.title.as_str(), w.year), ("ggplot2", Some(2007)));
        let missing = HttpReply::new(
            404,
            None,
            b"{\"error\":\"not_found\",\"reason\":\"missing\"}".to_vec(),
        );
        assert_eq!(parse_cran(&missing), Ok(Lookup::NotFound));
    }
}
