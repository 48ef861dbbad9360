//! The values written in `citeproof.toml` (sizes, durations, rates, fractions, rule
//! levels …): each is checked as it is read, so an error lands on the value, and the
//! text as written is kept for printing. Every section of the file is made of them.

use std::fmt;
use std::time::Duration;

use serde::de::{self, Deserializer};
use serde::{Deserialize, Serialize, Serializer};

use crate::diagnostic::Severity;
use crate::net::Rate;
use crate::policy::FailOn;
use crate::resolve::options::SearchOrder;
use crate::rules;
use crate::verify::hybrid::ScoringMode;

/// Deserialize a string and check it with `parse`; the error lands on the value.
fn parse_str<'de, D, T>(
    deserializer: D,
    parse: impl FnOnce(&str) -> Result<T, String>,
) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
{
    let text = String::deserialize(deserializer)?;
    parse(&text).map_err(de::Error::custom)
}

/// A value kept as written (for printing) with what it means.
macro_rules! written_value {
    ($name:ident, $value:ty, $parse:expr, $doc:literal) => {
        #[doc = $doc]
        #[derive(Debug, Clone, PartialEq)]
        pub struct $name {
            pub written: String,
            pub value: $value,
        }

        impl Serialize for $name {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(&self.written)
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                parse_str(d, |text| {
                    let value = ($parse)(text)?;
                    Ok($name {
                        written: text.to_string(),
                        value,
                    })
                })
            }
        }
    };
}

/// Deserialize a string or a list of strings (a `fail-on` value); `expecting`
/// says what the value is in the error on anything else.
pub(crate) fn string_or_list<'de, D: Deserializer<'de>>(
    d: D,
    expecting: &'static str,
) -> Result<Vec<String>, D::Error> {
    struct Items(&'static str);
    impl<'de> de::Visitor<'de> for Items {
        type Value = Vec<String>;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str(self.0)
        }
        fn visit_str<E: de::Error>(self, v: &str) -> Result<Vec<String>, E> {
            Ok(vec![v.to_string()])
        }
        fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<String>, A::Error> {
            let mut out = Vec::new();
            while let Some(item) = seq.next_element::<String>()? {
                out.push(item);
            }
            Ok(out)
        }
    }
    d.deserialize_any(Items(expecting))
}

/// `fail-on`: a severity and/or rule codes or names, as a comma-separated string or a
/// list of strings.
#[derive(Debug, Clone, PartialEq)]
pub struct FailOnValue {
    pub written: String,
    pub value: FailOn,
}

impl Serialize for FailOnValue {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.written)
    }
}

impl<'de> Deserialize<'de> for FailOnValue {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let items = string_or_list(
            d,
            "a severity or rule list as a string or a list of strings",
        )?;
        let value =
            FailOn::parse_items(items.iter().map(String::as_str)).map_err(de::Error::custom)?;
        Ok(FailOnValue {
            written: value.to_string(),
            value,
        })
    }
}
written_value!(
    Glob,
    globset::Glob,
    |t: &str| globset::GlobBuilder::new(t)
        .literal_separator(true)
        .build()
        .map_err(|e| format!("`{t}` is not a glob: {}", e.kind())),
    "A glob (`drafts/**`, `*.tex`); without a `/` it matches a name at any depth."
);
written_value!(
    RateLimit,
    Rate,
    parse_rate,
    "A request rate: `10/s`, `1/3s`, `100/min`."
);
written_value!(
    Seconds,
    Duration,
    parse_duration,
    "A duration: `30s`, `500ms`, `2min`."
);
written_value!(
    Lifetime,
    Duration,
    parse_lifetime,
    "A duration that may be zero: `15min`, `1h`, `0s`."
);
written_value!(
    Size,
    u64,
    parse_size,
    "A size in bytes: `50M`, `2048K`, `1000000`."
);
written_value!(BaseUrl, String, parse_base_url, "An http(s) base URL.");
written_value!(
    SearchOrderValue,
    SearchOrder,
    |t: &str| t.parse::<SearchOrder>().map_err(|e| e.to_string()),
    "A title-search order: `crossref+openalex,s2,europepmc+pubmed+arxiv`."
);
written_value!(
    ScoringValue,
    ScoringMode,
    |t: &str| ScoringMode::parse(t)
        .ok_or_else(|| format!("`{t}` is not a scoring mode (lexical, embeddings, hybrid)")),
    "An embedded-backend scoring mode."
);
written_value!(
    EnvName,
    String,
    |t: &str| {
        let ok = !t.is_empty() && t.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if ok {
            Ok(t.to_string())
        } else {
            Err(format!(
                "`{t}` is not an environment variable name (give the variable's name, not the key)"
            ))
        }
    },
    "The name of an environment variable."
);
written_value!(
    CommandName,
    String,
    |t: &str| {
        let name = t.trim_start_matches('\\');
        if !name.is_empty() && name.chars().all(|c| c.is_ascii_alphabetic() || c == '*') {
            Ok(name.to_string())
        } else {
            Err(format!("`{t}` is not a LaTeX command name"))
        }
    },
    "A LaTeX command name without the backslash."
);

/// A number between 0 and 1.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(transparent)]
pub struct Fraction(pub f64);

impl<'de> Deserialize<'de> for Fraction {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let value = f64::deserialize(d)?;
        if (0.0..=1.0).contains(&value) {
            Ok(Fraction(value))
        } else {
            Err(de::Error::custom(format!("{value} is not between 0 and 1")))
        }
    }
}

/// A rule named by code or name; kept as its code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RuleKey(pub &'static str);

impl Serialize for RuleKey {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.0)
    }
}

impl<'de> Deserialize<'de> for RuleKey {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        parse_str(d, |t| {
            rules::find(t)
                .map(|r| RuleKey(r.code))
                .ok_or_else(|| format!("unknown rule `{t}` (see `citeproof rules`)"))
        })
    }
}

/// A rule's configured level.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RuleLevel {
    Off,
    Severity(Severity),
}

impl fmt::Display for RuleLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RuleLevel::Off => f.write_str("off"),
            RuleLevel::Severity(s) => f.write_str(s.as_str()),
        }
    }
}

impl Serialize for RuleLevel {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for RuleLevel {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        parse_str(d, |t| {
            if t.eq_ignore_ascii_case("off") {
                return Ok(RuleLevel::Off);
            }
            t.parse::<Severity>().map(RuleLevel::Severity).map_err(|_| {
                format!("unknown level `{t}` (expected error, warning, info, hint or off)")
            })
        })
    }
}

/// `50M`, `2048K`, `1G` or a number of bytes.
pub fn parse_size(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let (digits, factor) = match t.chars().last().map(|c| c.to_ascii_uppercase()) {
        Some('K') => (&t[..t.len() - 1], 1u64 << 10),
        Some('M') => (&t[..t.len() - 1], 1 << 20),
        Some('G') => (&t[..t.len() - 1], 1 << 30),
        _ => (t, 1),
    };
    digits
        .trim()
        .parse::<u64>()
        .map(|n| n.saturating_mul(factor))
        .map_err(|_| format!("`{text}` is not a size (e.g. 50M, 2048K, 1000000)"))
}

/// [`parse_duration`], zero allowed (`0s`: never).
pub fn parse_lifetime(text: &str) -> Result<Duration, String> {
    match text
        .trim()
        .trim_end_matches(|c: char| c.is_ascii_alphabetic())
    {
        "0" | "0.0" => Ok(Duration::ZERO),
        _ => parse_duration(text),
    }
}

/// `30s`, `500ms`, `2min`, `1h`, `1.5s`; a bare number is seconds.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let t = text.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (number, unit) = t.split_at(split);
    let bad = || format!("`{text}` is not a duration (e.g. 30s, 500ms, 2min)");
    let number: f64 = number.parse().map_err(|_| bad())?;
    let seconds = match unit.trim() {
        "ms" => number / 1000.0,
        "" | "s" | "sec" => number,
        "m" | "min" => number * 60.0,
        "h" => number * 3600.0,
        _ => return Err(bad()),
    };
    Duration::try_from_secs_f64(seconds)
        .ok()
        .filter(|d| !d.is_zero())
        .ok_or_else(bad)
}

/// `10/s`, `1/3s`, `100/min`: requests per period; a bare number (`10`, `0.5`) is
/// requests per second.
pub fn parse_rate(text: &str) -> Result<Rate, String> {
    let bad = || format!("`{text}` is not a rate (e.g. 10/s, 1/3s, 100/min)");
    if !text.contains('/') {
        return crate::resolve::sources::parse_rate(text).ok_or_else(bad);
    }
    let (requests, period) = text.split_once('/').ok_or_else(bad)?;
    let requests: u32 = requests.trim().parse().map_err(|_| bad())?;
    let period = period.trim();
    let period = if period.starts_with(|c: char| c.is_ascii_digit()) {
        parse_duration(period)?
    } else {
        parse_duration(&format!("1{period}"))?
    };
    if requests == 0 {
        return Err(bad());
    }
    Ok(Rate {
        requests,
        per: period,
        burst: 1,
    })
}

fn parse_base_url(text: &str) -> Result<String, String> {
    let trimmed = text.trim().trim_end_matches('/');
    match url::Url::parse(trimmed) {
        Ok(u) if matches!(u.scheme(), "http" | "https") && u.host().is_some() => {
            Ok(trimmed.to_string())
        }
        _ => Err(format!("`{text}` is not an http(s) base URL")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_parse() {
        assert_eq!(parse_size("2K").unwrap(), 2048);
        assert_eq!(parse_duration("500ms").unwrap(), Duration::from_millis(500));
        assert_eq!(parse_duration("2min").unwrap(), Duration::from_secs(120));
        assert!(parse_duration("0s").is_err() && parse_duration("soon").is_err());
        let rate = parse_rate("1/3s").unwrap();
        assert_eq!(rate.interval(), Duration::from_secs(3));
        assert_eq!(parse_rate("10/s").unwrap(), Rate::per_second(10));
        assert_eq!(
            parse_rate("120/min").unwrap().interval(),
            Duration::from_millis(500)
        );
        assert!(parse_rate("0/s").is_err() && parse_rate("fast").is_err());
        assert!(parse_base_url("ftp://x").is_err());
        assert_eq!(parse_base_url("http://h/v1/").unwrap(), "http://h/v1");
    }
}
