//! The npm registry: `GET /{name}` → `name`, `description` and `time` (`created`,
//! `modified` and version → publication time); 404 = `{"error": "Not found"}`.

use serde_json::Value;

use super::{dated, package_work, parse_reply};
use crate::model::Registry;
use crate::net::HttpReply;
use crate::resolve::sources::json::str_of;
use crate::resolve::sources::{LookupResult, SourceError};

pub fn parse_npm(reply: &HttpReply) -> LookupResult {
    parse_reply(reply, |v| {
        let name = str_of(v.get("name"))
            .ok_or_else(|| SourceError::Malformed("npm document without a name".into()))?;
        let times = v
            .get("time")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
            .filter(|(k, _)| !matches!(k.as_str(), "created" | "modified"))
            .map(|(version, at)| (version.clone(), str_of(Some(at))));
        Ok(package_work(
            Registry::Npm,
            &name,
            str_of(v.get("description")),
            format!("https://www.npmjs.com/package/{name}"),
            dated(times),
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
        let body = json!({"name": "react", "description": "React is a JavaScript library",
            "time": {"created": "2011-10-26T17:46:21.942Z", "modified": "2024-01-01T00:00:00Z",
                     "0.0.1": "2011-10-26T17:46:22.746Z", "18.2.0": "2022-06-14T19:46:38.369Z"}});
        let reply = HttpReply::new(200, None, body.to_string().into_bytes());
        let Ok(Lookup::Found(w)) = parse_npm(&reply) else {
            panic!("package not read")
        };
        assert_eq!((w.year, w.releases.len()), (Some(2011), 2));
        let missing = HttpReply::new(404, None, br#"{"error":"Not found"}"#.to_vec());
        assert_eq!(parse_npm(&missing), Ok(Lookup::NotFound));
    }
}
