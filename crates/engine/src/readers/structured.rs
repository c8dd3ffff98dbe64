//! The rule on a tool's structured result: with an `outputSchema`, a successful result MUST
//! carry `structuredContent` that conforms to it (wire reference §6.3: "MUST conform to
//! outputSchema if defined", and clients SHOULD validate; the tools page of the
//! specification: "If an output schema is provided: Servers MUST provide structured results
//! that conform to this schema").
//!
//! A tool execution error (`isError: true`) is a report about the call, not the tool's output:
//! it is not checked. `structuredContent: null` is a value (any JSON value is allowed) and is
//! checked like any other; only an absent field is "missing".

use std::sync::Arc;

use rmcp::model::JsonObject;
use serde_json::Value;

use crate::readers::schema_check;
use crate::vocabulary::findings::{Finding, Rule};

/// What a `tools/call` result must match: the tool's name and its `outputSchema`, as the
/// client learned them from `tools/list`.
#[derive(Debug, Clone, PartialEq)]
pub struct OutputContract {
    pub tool: String,
    pub schema: Arc<JsonObject>,
}

/// Violations listed in one finding's explanation; the rest are counted.
const LISTED: usize = 3;

impl OutputContract {
    /// The findings about `result` (a `tools/call` result object, as received).
    pub fn findings(&self, result: &Value) -> Vec<Finding> {
        if result.get("isError") == Some(&Value::Bool(true)) {
            return Vec::new();
        }
        let Some(structured) = result.get("structuredContent") else {
            return vec![Finding::new(
                Rule::StructuredContentMissing,
                format!(
                    "tool {:?} declares an outputSchema, but its result has no structuredContent",
                    self.tool
                ),
                Some(result.clone()),
            )];
        };
        let schema = Value::Object((*self.schema).clone());
        let checked = schema_check::check(&schema, structured);
        if checked.is_valid() {
            return Vec::new();
        }
        let total = checked.violations.len() + checked.more;
        let mut listed: Vec<String> = checked
            .violations
            .iter()
            .take(LISTED)
            .map(ToString::to_string)
            .collect();
        if total > LISTED {
            listed.push(format!("{} more", total - LISTED));
        }
        vec![Finding::new(
            Rule::OutputSchemaMismatch,
            format!(
                "tool {:?}: structuredContent does not match its outputSchema ({})",
                self.tool,
                listed.join("; ")
            ),
            Some(structured.clone()),
        )]
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn contract() -> OutputContract {
        let schema = json!({
            "type": "object",
            "properties": {"lines": {"type": "integer"}, "title": {"type": ["string", "null"]}},
            "required": ["lines", "title"],
            "additionalProperties": false
        });
        OutputContract {
            tool: "format_note".to_owned(),
            schema: Arc::new(schema.as_object().cloned().unwrap_or_default()),
        }
    }

    #[test]
    fn a_conforming_result_is_quiet() {
        let result = json!({"content": [], "structuredContent": {"lines": 2, "title": null}});
        assert!(contract().findings(&result).is_empty());
    }

    #[test]
    fn a_mismatch_names_each_violation_and_keeps_the_structured_content() {
        let structured = json!({"lines": "2", "extra": 1});
        let result = json!({"content": [], "structuredContent": structured});
        let findings = contract().findings(&result);
        assert_eq!(findings.len(), 1);
        assert_eq!(findings[0].rule, Rule::OutputSchemaMismatch);
        assert_eq!(findings[0].rule.id(), "output-schema-mismatch");
        assert_eq!(
            findings[0].explanation,
            "tool \"format_note\": structuredContent does not match its outputSchema \
             (/lines: expected integer, got string; (root): `title` is required; \
             (root): `extra` is not allowed (additionalProperties is false))"
        );
        assert_eq!(findings[0].message, Some(structured));
    }

    #[test]
    fn null_is_checked_as_a_value_and_absence_is_missing() {
        let null = json!({"content": [], "structuredContent": null});
        let findings = contract().findings(&null);
        assert_eq!(findings[0].rule, Rule::OutputSchemaMismatch);
        let absent = json!({"content": [{"type": "text", "text": "done"}]});
        let findings = contract().findings(&absent);
        assert_eq!(findings[0].rule, Rule::StructuredContentMissing);
        assert_eq!(findings[0].rule.id(), "structured-content-missing");
    }

    #[test]
    fn a_tool_error_is_not_checked() {
        let error = json!({"content": [{"type": "text", "text": "bad input"}], "isError": true});
        assert!(contract().findings(&error).is_empty());
    }
}
