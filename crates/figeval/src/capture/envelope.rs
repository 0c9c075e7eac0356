//! The capture envelope (contract §6.1): `{"question", "request", "response"}`, one a line, as
//! a live run writes it. A capture line is read in one pass as an envelope or a bare body
//! (contract §6.2): the envelope's keys here, a body's keys by the response reader.

use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;

use crate::request::SearchRequest;
use crate::response::{fallback, fallbacks, Body, BodySeed, Key, LenientString};

/// One entry of a capture: an envelope, or a bare body (whose `question`, `response` and
/// `request` are then absent).
#[derive(Default)]
pub(super) struct Entry {
    /// The object's body keys (`query`, `matches`) and its keys, as a bare body reads them.
    pub(super) body: Body,
    /// `question` (`Some(None)` when present but not a string).
    pub(super) question: Option<Option<String>>,
    /// `response`: the body the envelope holds.
    pub(super) response: Option<Body>,
    /// `request`: the search parameters a live run recorded.
    pub(super) request: Option<RequestFields>,
}

impl<'de> Deserialize<'de> for Entry {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        EntrySeed(BodySeed::default()).deserialize(d)
    }
}

/// Reads an [`Entry`] whose bodies (bare or in `response`) are read as the [`BodySeed`] says.
pub(super) struct EntrySeed(pub(super) BodySeed);

impl<'de> DeserializeSeed<'de> for EntrySeed {
    type Value = Entry;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Entry, D::Error> {
        struct V(BodySeed);
        impl<'de> Visitor<'de> for V {
            type Value = Entry;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fallbacks!(|found| Entry {
                body: Body::not_object(found),
                ..Entry::default()
            }; bool, i64, u64, f64, str, unit, seq);
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Entry, A::Error> {
                let mut entry = Entry {
                    body: self.0.body(),
                    ..Entry::default()
                };
                while let Some(Key(k)) = map.next_key()? {
                    let key = k.as_str();
                    match key {
                        "question" => {
                            entry.question = Some(map.next_value::<LenientString>()?.0);
                        }
                        "response" => {
                            entry.response = Some(map.next_value_seed(self.0)?);
                            entry.body.stop_listing_keys();
                        }
                        "request" => {
                            entry.request = Some(map.next_value::<LenientRequest>()?.0);
                        }
                        _ => {
                            if !entry.body.read_value(key, &mut map)? {
                                map.next_value::<IgnoredAny>()?;
                            }
                        }
                    }
                    entry.body.list_key(key);
                }
                Ok(entry)
            }
        }
        d.deserialize_any(V(self.0))
    }
}

/// A JSON array of entries.
pub(super) struct Entries(pub(super) Vec<Entry>);

impl<'de> Deserialize<'de> for Entries {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Entries;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a JSON array of response bodies or envelopes")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Entries, A::Error> {
                let mut out = Vec::new();
                while let Some(entry) = seq.next_element()? {
                    out.push(entry);
                }
                Ok(Entries(out))
            }
        }
        d.deserialize_seq(V)
    }
}

/// The request parameters a live run writes into each capture envelope.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(default)]
pub(crate) struct RequestFields {
    pub(super) base_url: Option<String>,
    pub(super) top_k: Option<u32>,
    pub(super) cache_mode: Option<String>,
    /// The connector a run recorded (compact JSON: a preset's name or a whole mapping);
    /// absent for the default connector.
    #[serde(skip)]
    pub(crate) connector: Option<String>,
}

impl RequestFields {
    /// The fields a capture line of a search asked with `request` holds.
    pub(super) fn of(request: &SearchRequest<'_>) -> RequestFields {
        RequestFields {
            base_url: Some(request.base_url.to_string()),
            top_k: Some(request.top_k),
            cache_mode: Some(request.cache_mode.name().to_string()),
            connector: None,
        }
    }

    /// The fields of a `request` value, as [`LenientRequest`] reads them from text.
    #[cfg(feature = "connectors")]
    pub(crate) fn from_value(mut v: serde_json::Value) -> RequestFields {
        let connector = v
            .as_object_mut()
            .and_then(|o| o.remove("connector"))
            .map(|c| c.to_string());
        RequestFields {
            connector,
            ..RequestFields::deserialize(v).unwrap_or_default()
        }
    }
}

/// A `request` field: exactly what `RequestFields::deserialize(value).unwrap_or_default()`
/// makes of the JSON value (a field of the wrong type makes every field `None`; of repeated
/// keys the last counts, as in a `Value`), read straight from the text for an object — every
/// line of a capture has one — instead of through a `serde_json::Value`.
struct LenientRequest(RequestFields);

/// `null` → `Ok(None)`, a string → `Ok(Some)`, anything else → `Err`.
struct NullableString(Result<Option<String>, ()>);

/// `null` → `Ok(None)`, an integer in `0..=u32::MAX` → `Ok(Some)`, anything else → `Err`.
struct NullableU32(Result<Option<u32>, ()>);

impl<'de> Deserialize<'de> for NullableString {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = NullableString;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fallbacks!(|_| NullableString(Err(())); bool, i64, u64, f64, seq, map);
            fn visit_str<E: de::Error>(self, s: &str) -> Result<NullableString, E> {
                Ok(NullableString(Ok(Some(s.to_string()))))
            }
            fn visit_string<E: de::Error>(self, s: String) -> Result<NullableString, E> {
                Ok(NullableString(Ok(Some(s))))
            }
            fn visit_unit<E: de::Error>(self) -> Result<NullableString, E> {
                Ok(NullableString(Ok(None)))
            }
            fn visit_none<E: de::Error>(self) -> Result<NullableString, E> {
                Ok(NullableString(Ok(None)))
            }
        }
        d.deserialize_any(V)
    }
}

impl<'de> Deserialize<'de> for NullableU32 {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = NullableU32;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fallbacks!(|_| NullableU32(Err(())); bool, f64, str, seq, map);
            fn visit_u64<E: de::Error>(self, n: u64) -> Result<NullableU32, E> {
                Ok(NullableU32(u32::try_from(n).map(Some).map_err(|_| ())))
            }
            fn visit_i64<E: de::Error>(self, n: i64) -> Result<NullableU32, E> {
                Ok(NullableU32(u32::try_from(n).map(Some).map_err(|_| ())))
            }
            fn visit_unit<E: de::Error>(self) -> Result<NullableU32, E> {
                Ok(NullableU32(Ok(None)))
            }
            fn visit_none<E: de::Error>(self) -> Result<NullableU32, E> {
                Ok(NullableU32(Ok(None)))
            }
        }
        d.deserialize_any(V)
    }
}

impl<'de> Deserialize<'de> for LenientRequest {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = LenientRequest;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fallbacks!(|_| LenientRequest(RequestFields::default()); bool, i64, u64, f64, str, unit);
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<LenientRequest, A::Error> {
                // A struct may be written as the array of its fields; rare, so through a Value.
                let mut items = Vec::new();
                while let Some(v) = seq.next_element::<serde_json::Value>()? {
                    items.push(v);
                }
                let v = serde_json::Value::Array(items);
                Ok(LenientRequest(
                    RequestFields::deserialize(v).unwrap_or_default(),
                ))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<LenientRequest, A::Error> {
                let (mut base_url, mut top_k, mut cache_mode) = (Ok(None), Ok(None), Ok(None));
                let mut connector = None;
                while let Some(Key(k)) = map.next_key()? {
                    match k.as_str() {
                        "connector" => {
                            connector = Some(map.next_value::<serde_json::Value>()?.to_string())
                        }
                        "base_url" => base_url = map.next_value::<NullableString>()?.0,
                        "top_k" => top_k = map.next_value::<NullableU32>()?.0,
                        "cache_mode" => cache_mode = map.next_value::<NullableString>()?.0,
                        _ => {
                            map.next_value::<IgnoredAny>()?;
                        }
                    }
                }
                Ok(LenientRequest(match (base_url, top_k, cache_mode) {
                    (Ok(base_url), Ok(top_k), Ok(cache_mode)) => RequestFields {
                        base_url,
                        top_k,
                        cache_mode,
                        connector,
                    },
                    _ => RequestFields {
                        connector,
                        ..RequestFields::default()
                    },
                }))
            }
        }
        d.deserialize_any(V)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_reads_as_its_value_would() {
        let via_value = |text: &str| {
            let v: serde_json::Value = serde_json::from_str(text).unwrap();
            RequestFields::deserialize(v).unwrap_or_default()
        };
        for text in [
            r#"{"base_url": "http://h/api", "top_k": 5, "cache_mode": "bypass"}"#,
            r#"{"base_url": null, "top_k": null, "x": [1, {"y": 2}]}"#,
            r#"{"top_k": 4294967295}"#,
            r#"{"top_k": 4294967296, "base_url": "u"}"#,
            r#"{"top_k": -1, "base_url": "u"}"#,
            r#"{"top_k": 5.0, "base_url": "u"}"#,
            r#"{"top_k": "5", "base_url": "u"}"#,
            r#"{"base_url": 3, "top_k": 5}"#,
            r#"{"base_url": 3, "base_url": "u", "top_k": 5}"#,
            r#"{"base_url": "u", "base_url": 3, "top_k": 5}"#,
            r#"{"b\u0061se_url": "u"}"#,
            r#"["u", 5, "bypass"]"#,
            r#"["u", 5, "bypass", 1]"#,
            r#"["u"]"#,
            r#"[1]"#,
            r#"{}"#,
            r#"null"#,
            r#""u""#,
            r#"7"#,
        ] {
            let direct = serde_json::from_str::<LenientRequest>(text).unwrap().0;
            assert_eq!(direct, via_value(text), "{text}");
        }
    }
}
