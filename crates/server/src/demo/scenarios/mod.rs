//! The teaching scenarios: one file per tool, each showing one shape of an MCP exchange.

pub mod book_table;
pub mod bulk_import;
pub mod connect_account;
pub mod deploy;
pub mod echo;
pub mod endless_questions;
pub mod flaky_job;
pub mod format_note;
pub mod plan_migration;
pub mod quick_sum;
pub mod run_pipeline;
pub mod slow_report;
pub mod summarize_folder;

use rmcp::model::{CallToolResult, ContentBlock};
use serde_json::Value;

/// A plain text result.
pub fn text(text: impl Into<String>) -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text(text.into())])
}

/// A result with both a human sentence and machine-readable structured content.
pub fn structured(text: impl Into<String>, structured: Value) -> CallToolResult {
    let mut result = CallToolResult::success(vec![ContentBlock::text(text.into())]);
    result.structured_content = Some(structured);
    result
}

/// Sleep for a fraction of a total duration, in seconds.
pub async fn pause(seconds: f64) {
    if seconds.is_finite() && seconds > 0.0 {
        tokio::time::sleep(std::time::Duration::from_secs_f64(seconds)).await;
    }
}
