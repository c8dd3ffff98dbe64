//! The one parse of a received message into a `Value`.
//!
//! serde_json's own `Value` grows each object's map one entry at a time (with
//! `preserve_order`, an `IndexMap` that reallocates and rehashes as it grows). Here each
//! object's entries are gathered first and the map is built at its final size: the same
//! `Value` (same order, same numbers, a repeated key keeps its first place and last value),
//! for less allocation on every response.

use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

/// Parse JSON text (bytes) into a `Value`.
pub(crate) fn from_slice(bytes: &[u8]) -> Result<Value, serde_json::Error> {
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    let value = AnyValue.deserialize(&mut deserializer)?;
    deserializer.end()?;
    Ok(value)
}

/// Parse JSON text into a `Value`.
pub(crate) fn from_str(text: &str) -> Result<Value, serde_json::Error> {
    from_slice(text.as_bytes())
}

/// [`from_slice`], except that a number out of a 64-bit float's range (`1e400`, valid JSON)
/// reads as `null` rather than failing the whole message; the numbers so read are returned
/// (as written, at most [`MAX_NOTED`] of them) for a finding.
pub(crate) fn from_slice_lenient(bytes: &[u8]) -> Result<(Value, Vec<String>), serde_json::Error> {
    match from_slice(bytes) {
        Ok(value) => Ok((value, Vec::new())),
        // serde_json says which, only in its message.
        Err(error) if error.to_string().starts_with("number out of range") => {
            let (rewritten, numbers) = null_out_of_range(bytes);
            if numbers.is_empty() {
                return Err(error);
            }
            from_slice(&rewritten).map(|value| (value, numbers))
        }
        Err(error) => Err(error),
    }
}

/// Numbers noted per message, at most.
const MAX_NOTED: usize = 8;

/// `bytes` with each number (outside strings) that overflows an `f64` replaced by `null`,
/// and those numbers as written.
fn null_out_of_range(bytes: &[u8]) -> (Vec<u8>, Vec<String>) {
    let mut out = Vec::with_capacity(bytes.len());
    let mut numbers = Vec::new();
    let (mut in_string, mut escaped) = (false, false);
    let mut at = 0;
    while at < bytes.len() {
        let byte = bytes[at];
        if in_string {
            match (escaped, byte) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            out.push(byte);
            at += 1;
            continue;
        }
        if byte == b'"' {
            in_string = true;
        }
        if byte == b'-' || byte.is_ascii_digit() {
            let end = bytes[at..]
                .iter()
                .position(|b| !matches!(b, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E'))
                .map_or(bytes.len(), |len| at + len);
            let token = &bytes[at..end];
            let overflows = std::str::from_utf8(token)
                .ok()
                .and_then(|text| text.parse::<f64>().ok())
                .is_some_and(f64::is_infinite);
            if overflows {
                if numbers.len() < MAX_NOTED {
                    numbers
                        .push(String::from_utf8_lossy(&token[..token.len().min(40)]).into_owned());
                }
                out.extend_from_slice(b"null");
            } else {
                out.extend_from_slice(token);
            }
            at = end;
            continue;
        }
        out.push(byte);
        at += 1;
    }
    (out, numbers)
}

struct AnyValue;

impl<'de> DeserializeSeed<'de> for AnyValue {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for AnyValue {
    type Value = Value;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, value: bool) -> Result<Value, E> {
        Ok(Value::Bool(value))
    }

    fn visit_i64<E>(self, value: i64) -> Result<Value, E> {
        Ok(Value::Number(value.into()))
    }

    fn visit_u64<E>(self, value: u64) -> Result<Value, E> {
        Ok(Value::Number(value.into()))
    }

    fn visit_f64<E>(self, value: f64) -> Result<Value, E> {
        Ok(Number::from_f64(value).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E>(self, value: &str) -> Result<Value, E> {
        Ok(Value::String(value.to_owned()))
    }

    fn visit_string<E>(self, value: String) -> Result<Value, E> {
        Ok(Value::String(value))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut items: A) -> Result<Value, A::Error> {
        let mut array = Vec::new();
        while let Some(item) = items.next_element_seed(AnyValue)? {
            array.push(item);
        }
        Ok(Value::Array(array))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut entries: A) -> Result<Value, A::Error> {
        let mut gathered: Vec<(String, Value)> = Vec::new();
        while let Some(key) = entries.next_key::<String>()? {
            gathered.push((key, entries.next_value_seed(AnyValue)?));
        }
        Ok(Value::Object(gathered.into_iter().collect::<Map<_, _>>()))
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn agree(text: &str) {
        let theirs = serde_json::from_str::<Value>(text);
        let ours = from_str(text);
        match (&ours, &theirs) {
            (Ok(ours), Ok(theirs)) => {
                assert_eq!(ours, theirs, "{text}");
                assert_eq!(ours.to_string(), theirs.to_string(), "order: {text}");
            }
            (Err(_), Err(_)) => {}
            _ => panic!("{text}: ours {ours:?}, serde_json {theirs:?}"),
        }
    }

    #[test]
    fn values_equal_serde_jsons_own() {
        for text in [
            r#"{"b":1,"a":[true,null,-0,1e999,18446744073709551615,-9223372036854775808,1.5]}"#,
            r#"{"k":1,"j":2,"k":3}"#,
            r#"{"s":"\u00e9\ud83d\ude00\n","e":{},"a":[]}"#,
            r#"  {"x": {"y": {"z": "deep"}}}  "#,
            "\"just a string\"",
            "{not json",
            "{} trailing",
            "[1,]",
            r#"{"a":"\ud800"}"#,
            "",
        ] {
            agree(text);
        }
        let deep = "[".repeat(200) + &"]".repeat(200);
        agree(&deep);
    }

    fn any_json() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::from),
            any::<i64>().prop_map(Value::from),
            any::<u64>().prop_map(Value::from),
            any::<f64>().prop_map(Value::from),
            ".{0,8}".prop_map(Value::from),
        ];
        leaf.prop_recursive(4, 32, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6).prop_map(Value::from),
                prop::collection::vec(("[a-d]{1,2}", inner), 0..8)
                    .prop_map(|entries| { Value::Object(entries.into_iter().collect()) }),
            ]
        })
    }

    proptest! {
        #[test]
        fn any_json_parses_as_serde_json_parses_it(value in any_json(), pretty in any::<bool>()) {
            let text = if pretty {
                serde_json::to_string_pretty(&value)
            } else {
                serde_json::to_string(&value)
            }
            .expect("JSON");
            agree(&text);
            // Repeated keys: written by hand, since a map cannot hold them.
            agree(&text.replacen('}', r#","a":0}"#, 1).replacen("{,", "{", 1));
        }

        #[test]
        fn any_text_parses_or_fails_as_serde_json_does(text in ".{0,40}") {
            agree(&text);
        }
    }
}
