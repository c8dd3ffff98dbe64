//! `format_note`: exact arguments and a structured result. Line breaks come back as they
//! were sent (LF, CRLF, CR), and the result says how each optional argument arrived (left
//! out, `null`, or a value), so a client can see what it really sent. It declares an
//! `outputSchema`; `break_schema: true` makes it answer with `structuredContent` that breaks
//! it, on purpose, for the client's check to report.

use rmcp::ErrorData;
use rmcp::model::{CallToolResponse, CallToolResult, ContentBlock};
use serde_json::{Value, json};

use crate::fixture_kit::{Call, Handler, Tool};

pub const TOOL: Tool = Tool {
    name: "format_note",
    title: "Format a note",
    description: "Format a note and report exactly what arrived: line breaks (LF, CRLF or CR) \
                  and spaces are kept byte for byte, and the result says whether each optional \
                  argument was left out, null or a value. Its result follows an outputSchema; \
                  break_schema makes the server break it on purpose.",
    input_schema: || {
        json!({
            "type": "object",
            "properties": {
                "text": {
                    "type": "string",
                    "title": "Note",
                    "description": "The note. Spaces and line breaks come back exactly as sent."
                },
                "title": {
                    "type": ["string", "null"],
                    "title": "Title",
                    "description": "A heading above the note; null for none."
                },
                "uppercase": {
                    "type": "boolean",
                    "title": "Upper case",
                    "description": "Leave it out and the server keeps the case (its default)."
                },
                "break_schema": {
                    "type": "boolean",
                    "title": "Break the output schema",
                    "description": "Misbehave on purpose: answer with structuredContent that does not match the outputSchema."
                }
            },
            "required": ["text"]
        })
    },
    output_schema: Some(output_schema),
    handler: Handler::Now(run),
};

/// The shape of `structuredContent`, as advertised in `tools/list`.
fn output_schema() -> Value {
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "$defs": {
            "arrival": {
                "description": "How an optional argument arrived.",
                "enum": ["absent", "null", "value"]
            }
        },
        "properties": {
            "note": { "type": "string", "description": "The formatted note." },
            "title": { "type": ["string", "null"] },
            "lines": { "type": "integer", "minimum": 1 },
            "line_endings": {
                "type": "array",
                "items": { "enum": ["LF", "CRLF", "CR"] },
                "uniqueItems": true
            },
            "received": {
                "type": "object",
                "properties": {
                    "title": { "$ref": "#/$defs/arrival" },
                    "uppercase": { "$ref": "#/$defs/arrival" }
                },
                "required": ["title", "uppercase"],
                "additionalProperties": false
            }
        },
        "required": ["note", "title", "lines", "line_endings", "received"],
        "additionalProperties": false
    })
}

fn run(call: &Call<'_>) -> Result<CallToolResponse, ErrorData> {
    let text = call
        .argument("text")
        .and_then(Value::as_str)
        .ok_or_else(|| ErrorData::invalid_params("text must be a string", None))?;
    let title = match call.argument("title") {
        None | Some(Value::Null) => None,
        Some(Value::String(title)) => Some(title.as_str()),
        Some(_) => {
            return Err(ErrorData::invalid_params(
                "title must be a string or null",
                None,
            ));
        }
    };
    let uppercase = optional_bool(call, "uppercase")?.unwrap_or(false);
    let break_schema = optional_bool(call, "break_schema")?.unwrap_or(false);

    let note = if uppercase {
        text.to_uppercase()
    } else {
        text.to_owned()
    };
    let endings = line_endings(text);
    let lines = endings.breaks + 1;
    let received = json!({
        "title": arrival(call.argument("title")),
        "uppercase": arrival(call.argument("uppercase")),
    });
    let structured = if break_schema {
        // Three ways to break the schema: a string for an integer, a required field left out,
        // a field it does not allow.
        json!({
            "note": note,
            "lines": lines.to_string(),
            "line_endings": endings.kinds,
            "received": received,
            "extra": "not in the outputSchema",
        })
    } else {
        json!({
            "note": note,
            "title": title,
            "lines": lines,
            "line_endings": endings.kinds,
            "received": received,
        })
    };
    let summary = format!(
        "{lines} line{} ({}); title {}, uppercase {}.",
        if lines == 1 { "" } else { "s" },
        if endings.kinds.is_empty() {
            "no line breaks".to_owned()
        } else {
            format!("{} line endings", endings.kinds.join(" and "))
        },
        received["title"].as_str().unwrap_or_default(),
        received["uppercase"].as_str().unwrap_or_default(),
    );
    let mut result = CallToolResult::success(vec![
        ContentBlock::text(summary),
        // For clients that read only text: the structured content, serialized.
        ContentBlock::text(structured.to_string()),
    ]);
    result.structured_content = Some(structured);
    Ok(result.into())
}

fn optional_bool(call: &Call<'_>, name: &str) -> Result<Option<bool>, ErrorData> {
    match call.argument(name) {
        None => Ok(None),
        Some(Value::Bool(value)) => Ok(Some(*value)),
        Some(_) => Err(ErrorData::invalid_params(
            format!("{name} must be a boolean, or left out"),
            None,
        )),
    }
}

/// `absent`, `null` or `value`.
fn arrival(value: Option<&Value>) -> &'static str {
    match value {
        None => "absent",
        Some(Value::Null) => "null",
        Some(_) => "value",
    }
}

struct Endings {
    breaks: usize,
    /// The kinds of line break, in the order first met.
    kinds: Vec<&'static str>,
}

fn line_endings(text: &str) -> Endings {
    let mut endings = Endings {
        breaks: 0,
        kinds: Vec::new(),
    };
    let bytes = text.as_bytes();
    let mut index = 0;
    while index < bytes.len() {
        let kind = match (bytes[index], bytes.get(index + 1)) {
            (b'\r', Some(b'\n')) => {
                index += 1;
                Some("CRLF")
            }
            (b'\r', _) => Some("CR"),
            (b'\n', _) => Some("LF"),
            _ => None,
        };
        if let Some(kind) = kind {
            endings.breaks += 1;
            if !endings.kinds.contains(&kind) {
                endings.kinds.push(kind);
            }
        }
        index += 1;
    }
    endings
}

#[cfg(test)]
mod tests {
    use super::line_endings;

    #[test]
    fn line_endings_are_told_apart() {
        let endings = line_endings("a\r\nb\nc\rd\r\n");
        assert_eq!(endings.breaks, 4);
        assert_eq!(endings.kinds, ["CRLF", "LF", "CR"]);
        assert_eq!(line_endings("one line").breaks, 0);
    }
}
