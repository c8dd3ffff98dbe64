//! The suite's `test://` resources (`resources-*`, `caching`, `sep-2164-*` scenarios).

use rmcp::model::{ReadResourceResult, Resource, ResourceContents, ResourceTemplate};
use serde_json::json;

use super::media::PNG_1X1;

const TEXT_URI: &str = "test://static-text";
const BINARY_URI: &str = "test://static-binary";
const TEMPLATE_PREFIX: &str = "test://template/";
const TEMPLATE_SUFFIX: &str = "/data";

pub fn list() -> Vec<Resource> {
    vec![
        Resource::new(TEXT_URI, "Static text resource")
            .with_description("A fixed text resource")
            .with_mime_type("text/plain"),
        Resource::new(BINARY_URI, "Static binary resource")
            .with_description("A fixed PNG image, as a blob")
            .with_mime_type("image/png"),
    ]
}

pub fn templates() -> Vec<ResourceTemplate> {
    vec![
        ResourceTemplate::new("test://template/{id}/data", "Templated resource")
            .with_description("A JSON document that repeats the {id} it was read with")
            .with_mime_type("application/json"),
    ]
}

/// `resources/read` of a fixture URI; `None` when `uri` names none (the handler then
/// answers rmcp's resource-not-found, which rmcp sends as -32602 to 2026-07-28 clients,
/// SEP-2164, with the URI in `data`).
pub fn read(uri: &str) -> Option<ReadResourceResult> {
    let contents = if uri == TEXT_URI {
        ResourceContents::TextResourceContents {
            uri: uri.to_owned(),
            mime_type: Some("text/plain".to_owned()),
            text: "This is the content of the static text resource.".to_owned(),
            meta: None,
        }
    } else if uri == BINARY_URI {
        ResourceContents::BlobResourceContents {
            uri: uri.to_owned(),
            mime_type: Some("image/png".to_owned()),
            blob: PNG_1X1.to_owned(),
            meta: None,
        }
    } else if let Some(id) = template_id(uri) {
        ResourceContents::TextResourceContents {
            uri: uri.to_owned(),
            mime_type: Some("application/json".to_owned()),
            text: json!({ "id": id, "templateTest": true, "data": format!("Data for ID: {id}") })
                .to_string(),
            meta: None,
        }
    } else {
        return None;
    };
    Some(ReadResourceResult::new(vec![contents]))
}

/// The `{id}` of `test://template/{id}/data`, when it is one plain path segment.
fn template_id(uri: &str) -> Option<&str> {
    let id = uri
        .strip_prefix(TEMPLATE_PREFIX)?
        .strip_suffix(TEMPLATE_SUFFIX)?;
    (!id.is_empty() && !id.contains('/')).then_some(id)
}
