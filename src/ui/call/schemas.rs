//! The tool's `inputSchema` and `outputSchema` exactly as `tools/list` carried them:
//! pretty-printed, keys in the order the server wrote them (serde_json's `preserve_order`),
//! `$ref`s as written (never dereferenced), every keyword kept. Collapsed until opened.

use holdbay_engine::model::{JsonObject, Tool};
use leptos::prelude::*;

fn pretty(schema: &JsonObject) -> String {
    serde_json::to_string_pretty(schema).unwrap_or_default()
}

#[component]
pub fn ToolSchemas(tool: Option<Tool>) -> impl IntoView {
    let tool = tool?;
    let input = pretty(&tool.input_schema);
    let output = tool.output_schema.as_deref().map(pretty);
    let output_view = match output {
        Some(output) => view! {
            <details class="schema-view output-schema">
                <summary>
                    "Output schema"
                    <span class="schema-hint">" · each result’s structuredContent is checked against it"</span>
                </summary>
                <pre class="schema-json">{output}</pre>
            </details>
        }
        .into_any(),
        None => view! { <p class="schema-none quiet">"No output schema: results are not checked."</p> }
            .into_any(),
    };
    Some(view! {
        <div class="tool-schemas">
            <details class="schema-view input-schema">
                <summary>"Input schema"</summary>
                <pre class="schema-json">{input}</pre>
            </details>
            {output_view}
        </div>
    })
}
