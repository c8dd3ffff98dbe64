//! The HTTP routing headers of 2026-07-28: `Mcp-Name`, and `Mcp-Param-*` mirrored from tool
//! arguments whose schema property carries `x-mcp-header`; and which headers the user's extra
//! headers may not override.

use std::collections::BTreeMap;

use base64::Engine as _;
use rmcp::model::{JsonObject, Tool};
use serde_json::Value;

use crate::vocabulary::findings::{Finding, Rule};
use crate::vocabulary::protocol::{HEADER_METHOD, HEADER_NAME, HEADER_PROTOCOL_VERSION};

/// Largest integer a header may mirror: ±(2^53 − 1).
const MAX_SAFE_INTEGER: i64 = (1 << 53) - 1;

/// The start of every mirrored-argument header (§10.3).
const PARAM_HEADER_PREFIX: &str = "Mcp-Param-";

/// Whether the engine alone sets this header (names compare case-insensitively): the
/// media types and the MCP routing headers of §10.2. A request whose `MCP-Protocol-Version`
/// or `Mcp-Method` disagreed with its body would be refused with `-32020`.
pub fn is_reserved_header(name: &str) -> bool {
    let name = name.trim();
    let fixed = [
        "Content-Type",
        "Accept",
        HEADER_PROTOCOL_VERSION,
        HEADER_METHOD,
        HEADER_NAME,
    ];
    fixed
        .iter()
        .any(|reserved| reserved.eq_ignore_ascii_case(name))
        || name
            .get(..PARAM_HEADER_PREFIX.len())
            .is_some_and(|start| start.eq_ignore_ascii_case(PARAM_HEADER_PREFIX))
}

/// A request's headers with the user's extra headers added.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MergedHeaders {
    /// The protocol headers, then the extra ones, in the order first given.
    pub headers: Vec<(String, String)>,
    /// Extra headers left out because the engine sets them, each named once as given.
    pub ignored: Vec<String>,
}

/// Add the user's `extra` headers (the connection bar's) to a request's `protocol` headers.
/// The protocol headers win: an extra header that is reserved ([`is_reserved_header`]) or
/// that names a protocol header is left out and listed in `ignored`, never silently
/// dropped. An extra header given twice keeps its last value.
pub fn merge_extra_headers<'a>(
    protocol: &[(String, String)],
    extra: impl IntoIterator<Item = (&'a str, &'a str)>,
) -> MergedHeaders {
    let mut headers = protocol.to_vec();
    let mut ignored: Vec<String> = Vec::new();
    for (name, value) in extra {
        let set_by_protocol = protocol
            .iter()
            .any(|(protocol_name, _)| protocol_name.eq_ignore_ascii_case(name));
        if is_reserved_header(name) || set_by_protocol {
            if !ignored.iter().any(|seen| seen.eq_ignore_ascii_case(name)) {
                ignored.push(name.to_owned());
            }
            continue;
        }
        let added = &mut headers[protocol.len()..];
        match added
            .iter_mut()
            .find(|(added, _)| added.eq_ignore_ascii_case(name))
        {
            Some(earlier) => *earlier = (name.to_owned(), value.to_owned()),
            None => headers.push((name.to_owned(), value.to_owned())),
        }
    }
    MergedHeaders { headers, ignored }
}

/// One mirrored argument: where it sits in `arguments`, and the header suffix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeaderParam {
    /// `Region` for `Mcp-Param-Region`.
    pub header: String,
    /// Property names from the root of `arguments`.
    pub path: Vec<String>,
}

/// A header value as the spec encodes it: plain when it is visible ASCII (spaces and tabs
/// inside), otherwise `=?base64?…?=` of its UTF-8.
pub fn encode_header_value(value: &str) -> String {
    let plain_chars = value
        .bytes()
        .all(|b| (0x21..=0x7e).contains(&b) || b == b' ' || b == b'\t');
    let untrimmed = value.trim_matches([' ', '\t']) == value;
    let looks_encoded = value.starts_with("=?base64?") && value.ends_with("?=");
    if plain_chars && untrimmed && !looks_encoded && !value.is_empty() {
        value.to_owned()
    } else if value.is_empty() {
        String::new()
    } else {
        format!(
            "=?base64?{}?=",
            base64::engine::general_purpose::STANDARD.encode(value.as_bytes())
        )
    }
}

/// RFC 9110 `token`: one or more `tchar`.
fn is_token(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

/// The mirrored parameters of a tool, or why its annotations are invalid (then the tool
/// must be dropped from the list).
pub fn header_params(tool: &Tool) -> Result<Vec<HeaderParam>, String> {
    let mut found = Vec::new();
    collect(&tool.input_schema, &mut Vec::new(), true, &mut found)?;
    let mut seen = BTreeMap::new();
    for param in &found {
        if let Some(previous) = seen.insert(param.header.to_ascii_lowercase(), param) {
            return Err(format!(
                "x-mcp-header {:?} is used twice (at {} and {})",
                param.header,
                previous.path.join("."),
                param.path.join(".")
            ));
        }
    }
    Ok(found)
}

/// Walk a schema. `plain` is true while the path from the root runs only through
/// `properties`; an annotation anywhere else is invalid.
fn collect(
    schema: &JsonObject,
    path: &mut Vec<String>,
    plain: bool,
    found: &mut Vec<HeaderParam>,
) -> Result<(), String> {
    if let Some(annotation) = schema.get("x-mcp-header") {
        let at = if path.is_empty() {
            "the schema root".to_owned()
        } else {
            path.join(".")
        };
        if !plain || path.is_empty() {
            return Err(format!(
                "x-mcp-header at {at} is not reachable through properties alone"
            ));
        }
        let Some(header) = annotation.as_str().filter(|h| is_token(h)) else {
            return Err(format!(
                "x-mcp-header at {at} is not an HTTP token: {annotation}"
            ));
        };
        match schema.get("type").and_then(Value::as_str) {
            Some("string" | "integer" | "boolean") => {}
            other => {
                return Err(format!(
                    "x-mcp-header {header:?} at {at} is on a property of type {}, not string, integer or boolean",
                    other.map_or_else(|| "(none)".to_owned(), |t| format!("{t:?}"))
                ));
            }
        }
        found.push(HeaderParam {
            header: header.to_owned(),
            path: path.clone(),
        });
    }
    for (keyword, value) in schema {
        match (keyword.as_str(), value) {
            ("properties", Value::Object(properties)) => {
                for (name, property) in properties {
                    if let Value::Object(property) = property {
                        path.push(name.clone());
                        collect(property, path, plain, found)?;
                        path.pop();
                    }
                }
            }
            (_, Value::Object(nested)) => {
                path.push(keyword.clone());
                collect(nested, path, false, found)?;
                path.pop();
            }
            (_, Value::Array(items)) => {
                for item in items.iter().filter_map(Value::as_object) {
                    path.push(keyword.clone());
                    collect(item, path, false, found)?;
                    path.pop();
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// Keep the tools whose annotations are valid, each with its mirrored parameters; each
/// dropped tool becomes a finding.
pub fn keep_valid_tools(tools: Vec<Tool>) -> (Vec<(Tool, Vec<HeaderParam>)>, Vec<Finding>) {
    let mut kept = Vec::with_capacity(tools.len());
    let mut findings = Vec::new();
    for tool in tools {
        match header_params(&tool) {
            Ok(params) => kept.push((tool, params)),
            Err(reason) => findings.push(Finding::new(
                Rule::InvalidMcpHeaderAnnotation,
                format!("tool {:?} dropped: {reason}", tool.name),
                serde_json::to_value(&tool).ok(),
            )),
        }
    }
    (kept, findings)
}

/// Why an argument cannot be mirrored into its header.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HeaderArgumentError {
    #[error("argument {path} must be a string, integer or boolean to go in Mcp-Param-{header}")]
    NotMirrorable { path: String, header: String },
    #[error("argument {path} is outside ±(2^53−1) and cannot go in Mcp-Param-{header}")]
    OutOfRange { path: String, header: String },
}

/// The `Mcp-Param-*` headers for these arguments. Absent or null values send no header.
pub fn param_headers(
    params: &[HeaderParam],
    arguments: Option<&JsonObject>,
) -> Result<Vec<(String, String)>, HeaderArgumentError> {
    let mut headers = Vec::new();
    for param in params {
        let mut value = arguments.map(|a| a as &JsonObject);
        let mut leaf = None;
        for (i, name) in param.path.iter().enumerate() {
            let next = value.and_then(|object| object.get(name));
            if i + 1 == param.path.len() {
                leaf = next;
            } else {
                value = next.and_then(Value::as_object);
            }
        }
        let error_path = param.path.join(".");
        let text = match leaf {
            None | Some(Value::Null) => continue,
            Some(Value::String(s)) => s.clone(),
            Some(Value::Bool(b)) => b.to_string(),
            Some(Value::Number(n)) => match n.as_i64() {
                Some(i) if (-MAX_SAFE_INTEGER..=MAX_SAFE_INTEGER).contains(&i) => i.to_string(),
                Some(_) => {
                    return Err(HeaderArgumentError::OutOfRange {
                        path: error_path,
                        header: param.header.clone(),
                    });
                }
                None => {
                    return Err(HeaderArgumentError::NotMirrorable {
                        path: error_path,
                        header: param.header.clone(),
                    });
                }
            },
            Some(_) => {
                return Err(HeaderArgumentError::NotMirrorable {
                    path: error_path,
                    header: param.header.clone(),
                });
            }
        };
        headers.push((
            format!("{PARAM_HEADER_PREFIX}{}", param.header),
            encode_header_value(&text),
        ));
    }
    Ok(headers)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn tool(schema: Value) -> Tool {
        serde_json::from_value(json!({"name": "t", "inputSchema": schema})).expect("tool")
    }

    #[test]
    fn plain_values_pass_and_others_are_base64() {
        assert_eq!(encode_header_value("us-west1"), "us-west1");
        assert_eq!(encode_header_value("a b"), "a b");
        assert_eq!(
            encode_header_value("Hello, 世界"),
            "=?base64?SGVsbG8sIOS4lueVjA==?="
        );
        assert_eq!(encode_header_value(" padded"), "=?base64?IHBhZGRlZA==?=");
        assert_eq!(
            encode_header_value("line\nbreak"),
            "=?base64?bGluZQpicmVhaw==?="
        );
        // A plain value that looks encoded is encoded too.
        assert_eq!(
            encode_header_value("=?base64?eA==?="),
            "=?base64?PT9iYXNlNjQ/ZUE9PT89?="
        );
    }

    #[test]
    fn nested_properties_are_mirrored() {
        let t = tool(json!({"type":"object","properties":{
            "region":{"type":"string","x-mcp-header":"Region"},
            "target":{"type":"object","properties":{"id":{"type":"integer","x-mcp-header":"Target-Id"}}}}}));
        let params = header_params(&t).expect("valid");
        let args = json!({"region":"eu","target":{"id":7}});
        let headers = param_headers(&params, args.as_object()).expect("mirrorable");
        assert_eq!(
            headers,
            vec![
                ("Mcp-Param-Region".to_owned(), "eu".to_owned()),
                ("Mcp-Param-Target-Id".to_owned(), "7".to_owned())
            ]
        );
    }

    #[test]
    fn absent_and_null_arguments_send_no_header() {
        let t =
            tool(json!({"type":"object","properties":{"r":{"type":"string","x-mcp-header":"R"}}}));
        let params = header_params(&t).expect("valid");
        assert!(param_headers(&params, None).expect("ok").is_empty());
        let args = json!({"r": null});
        assert!(
            param_headers(&params, args.as_object())
                .expect("ok")
                .is_empty()
        );
    }

    #[test]
    fn invalid_annotations_drop_the_tool_with_a_finding() {
        let cases = [
            json!({"type":"object","properties":{"n":{"type":"number","x-mcp-header":"N"}}}),
            json!({"type":"object","properties":{"a":{"type":"string","x-mcp-header":"Bad Name"}}}),
            json!({"type":"object","properties":{"a":{"type":"string","x-mcp-header":""}}}),
            json!({"type":"object","properties":{
                "a":{"type":"string","x-mcp-header":"Dup"},"b":{"type":"string","x-mcp-header":"dup"}}}),
            json!({"type":"object","properties":{"l":{"type":"array",
                "items":{"type":"string","x-mcp-header":"Item"}}}}),
            json!({"type":"object","oneOf":[{"properties":{"a":{"type":"string","x-mcp-header":"A"}}}]}),
        ];
        for schema in cases {
            let (kept, findings) = keep_valid_tools(vec![tool(schema.clone())]);
            assert!(kept.is_empty(), "{schema} should be dropped");
            assert_eq!(findings[0].rule, Rule::InvalidMcpHeaderAnnotation);
        }
        let (kept, findings) = keep_valid_tools(vec![tool(json!({"type":"object"}))]);
        assert_eq!((kept.len(), findings.len()), (1, 0));
    }

    /// The headers the engine puts on a `tools/list`.
    fn protocol_headers() -> Vec<(String, String)> {
        [
            ("Content-Type", "application/json"),
            ("Accept", "application/json, text/event-stream"),
            ("MCP-Protocol-Version", "2026-07-28"),
            ("Mcp-Method", "tools/list"),
        ]
        .map(|(name, value)| (name.to_owned(), value.to_owned()))
        .to_vec()
    }

    #[test]
    fn reserved_header_names_match_in_any_case() {
        for name in [
            "content-type",
            "ACCEPT",
            "mcp-protocol-version",
            "MCP-METHOD",
            "mcp-name",
        ] {
            assert!(is_reserved_header(name), "{name}");
        }
    }

    #[test]
    fn every_mirrored_argument_header_is_reserved() {
        assert!(is_reserved_header("Mcp-Param-Region"));
        assert!(is_reserved_header("mcp-param-x"));
    }

    #[test]
    fn the_users_own_headers_are_not_reserved() {
        for name in [
            "Authorization",
            "X-Api-Key",
            "Mcp-Params",
            "Accept-Language",
            "ü",
        ] {
            assert!(!is_reserved_header(name), "{name}");
        }
    }

    #[test]
    fn protocol_headers_win_over_extra_headers() {
        let merged = merge_extra_headers(
            &protocol_headers(),
            [
                ("mcp-protocol-version", "2025-11-25"),
                ("Content-Type", "text/plain"),
            ],
        );
        assert_eq!(merged.headers, protocol_headers());
        assert_eq!(merged.ignored, ["mcp-protocol-version", "Content-Type"]);
    }

    #[test]
    fn a_reserved_extra_header_is_ignored_even_when_the_request_lacks_it() {
        let merged = merge_extra_headers(&protocol_headers(), [("Mcp-Name", "deploy")]);
        assert_eq!(merged.headers, protocol_headers());
        assert_eq!(merged.ignored, ["Mcp-Name"]);
    }

    #[test]
    fn extra_headers_follow_the_protocol_headers_in_order() {
        let merged = merge_extra_headers(
            &protocol_headers(),
            [("Authorization", "Bearer t0k3n"), ("X-Tenant", "acme")],
        );
        assert_eq!(merged.headers[..4], protocol_headers()[..]);
        assert_eq!(
            merged.headers[4..],
            [
                ("Authorization".to_owned(), "Bearer t0k3n".to_owned()),
                ("X-Tenant".to_owned(), "acme".to_owned())
            ]
        );
        assert!(merged.ignored.is_empty());
    }

    #[test]
    fn a_repeated_extra_header_keeps_its_last_value() {
        let merged = merge_extra_headers(
            &protocol_headers(),
            [
                ("Authorization", "Bearer old"),
                ("X-Tenant", "acme"),
                ("authorization", "Bearer new"),
            ],
        );
        assert_eq!(
            merged.headers[4..],
            [
                ("authorization".to_owned(), "Bearer new".to_owned()),
                ("X-Tenant".to_owned(), "acme".to_owned())
            ]
        );
    }

    #[test]
    fn an_ignored_header_is_listed_once() {
        let merged = merge_extra_headers(
            &protocol_headers(),
            [("Mcp-Method", "a"), ("mcp-method", "b")],
        );
        assert_eq!(merged.ignored, ["Mcp-Method"]);
    }

    #[test]
    fn integers_beyond_the_safe_range_are_refused() {
        let t =
            tool(json!({"type":"object","properties":{"i":{"type":"integer","x-mcp-header":"I"}}}));
        let params = header_params(&t).expect("valid");
        let args = json!({"i": 9_007_199_254_740_992_i64});
        assert!(matches!(
            param_headers(&params, args.as_object()),
            Err(HeaderArgumentError::OutOfRange { .. })
        ));
    }
}
