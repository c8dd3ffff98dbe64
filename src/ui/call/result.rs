//! A tool's `CallToolResult`: its content blocks, structured content, and whether the tool
//! itself reported an error. Nothing here is fetched: images and audio come only from the
//! block's own base64 data, links are shown, not followed.

use holdbay_engine::model::{CallToolResult, ContentBlock, ResourceContents};
use leptos::prelude::*;

/// The result of a completed call.
#[component]
pub fn ToolResult(result: CallToolResult) -> impl IntoView {
    let tool_error = result.is_error == Some(true);
    let structured = result
        .structured_content
        .as_ref()
        .map(|value| serde_json::to_string_pretty(value).unwrap_or_default());
    let empty = result.content.is_empty() && structured.is_none();
    view! {
        <section class="call-result" class:tool-error=tool_error aria-label="Result">
            {if tool_error {
                view! {
                    <p class="tool-error-banner" role="alert">
                        "The tool reported an error (isError: true). The request itself succeeded."
                    </p>
                }
                    .into_any()
            } else {
                view! { <p class="result-ok">"Complete"</p> }.into_any()
            }}
            {empty.then(|| view! { <p class="quiet">"The result has no content."</p> })}
            {result.content.into_iter().map(content_block).collect_view()}
            {structured
                .map(|json| {
                    view! {
                        <div class="structured">
                            <h3>"structuredContent"</h3>
                            <pre class="json structured-content">{json}</pre>
                        </div>
                    }
                })}
        </section>
    }
}

fn content_block(block: ContentBlock) -> AnyView {
    match block {
        ContentBlock::Text(text) => {
            view! { <div class="content-text">{text.text}</div> }.into_any()
        }
        ContentBlock::Image(image) => match data_url(&image.mime_type, "image/", &image.data) {
            Some(url) => {
                let label = format!("Image from the tool ({})", image.mime_type);
                view! { <img class="content-image" src=url alt=label /> }.into_any()
            }
            None => unshown("image", &image.mime_type),
        },
        ContentBlock::Audio(audio) => match data_url(&audio.mime_type, "audio/", &audio.data) {
            Some(url) => {
                view! { <audio class="content-audio" controls src=url></audio> }.into_any()
            }
            None => unshown("audio", &audio.mime_type),
        },
        ContentBlock::ResourceLink(link) => {
            let title = link.title.clone().unwrap_or_else(|| link.name.clone());
            view! {
                <div class="content-link">
                    <span class="link-name">{title}</span>
                    " "
                    <code class="link-uri">{link.uri}</code>
                    {link.description.map(|d| view! { <p class="link-description">{d}</p> })}
                </div>
            }
            .into_any()
        }
        ContentBlock::Resource(embedded) => match embedded.resource {
            ResourceContents::TextResourceContents { uri, text, .. } => view! {
                <div class="content-resource">
                    <code class="link-uri">{uri}</code>
                    <pre class="resource-text">{text}</pre>
                </div>
            }
            .into_any(),
            ResourceContents::BlobResourceContents {
                uri,
                mime_type,
                blob,
                ..
            } => {
                let what = format!(
                    "binary {} bytes{}",
                    base64_decoded_len(&blob),
                    mime_type.map(|m| format!(" ({m})")).unwrap_or_default()
                );
                view! {
                    <div class="content-resource">
                        <code class="link-uri">{uri}</code>
                        <p class="quiet">{what}</p>
                    </div>
                }
                .into_any()
            }
            _ => unshown("embedded resource", "unknown"),
        },
        _ => view! { <p class="quiet">"A content block of a kind this client does not know."</p> }
            .into_any(),
    }
}

fn unshown(kind: &str, mime_type: &str) -> AnyView {
    let why = format!(
        "An {kind} block with MIME type {mime_type:?} or data that is not base64: not shown."
    );
    view! { <p class="quiet">{why}</p> }.into_any()
}

/// A `data:` URL, only for the expected kind of media and well-formed base64, so a server
/// cannot smuggle another URL (or markup) into the page.
pub fn data_url(mime_type: &str, kind: &str, data: &str) -> Option<String> {
    let mime_ok = mime_type.starts_with(kind)
        && mime_type
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"/+-.".contains(&b));
    let data_ok = !data.is_empty()
        && data
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"+/=".contains(&b));
    (mime_ok && data_ok).then(|| format!("data:{mime_type};base64,{data}"))
}

/// Bytes that base64 text decodes to.
pub fn base64_decoded_len(data: &str) -> usize {
    let symbols = data.bytes().filter(|b| !b.is_ascii_whitespace()).count();
    let padding = data.bytes().rev().take_while(|&b| b == b'=').count().min(2);
    (symbols / 4 * 3).saturating_sub(padding)
}
