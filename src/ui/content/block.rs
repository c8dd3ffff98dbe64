//! One content block: text, image, audio, an embedded resource or a resource link.

use holdbay_engine::model::ContentBlock;
use holdbay_engine::{Media, hex_preview, media};
use leptos::prelude::*;

use super::resource::{LinkReader, ResourceContentsView};

/// A content block, by its kind.
#[component]
pub fn ContentBlockView(block: ContentBlock) -> impl IntoView {
    match block {
        ContentBlock::Text(text) => {
            view! { <div class="content-text">{text.text}</div> }.into_any()
        }
        ContentBlock::Image(image) => view! {
            <MediaView mime_type=Some(image.mime_type) data=image.data what="image" />
        }
        .into_any(),
        ContentBlock::Audio(audio) => view! {
            <MediaView mime_type=Some(audio.mime_type) data=audio.data what="audio" />
        }
        .into_any(),
        ContentBlock::ResourceLink(link) => {
            let title = link.title.clone().unwrap_or_else(|| link.name.clone());
            let mime = link.mime_type.clone();
            let uri = link.uri.clone();
            view! {
                <div class="content-link">
                    <span class="content-kind">"resource link"</span>
                    <span class="link-name">{title}</span>
                    " "
                    <code class="link-uri">{link.uri}</code>
                    {mime.map(|m| view! { <span class="quiet link-mime">" " {m}</span> })}
                    {link.description.map(|d| view! { <p class="link-description">{d}</p> })}
                    <LinkReader uri=uri />
                </div>
            }
            .into_any()
        }
        ContentBlock::Resource(embedded) => view! {
            <div class="content-embedded">
                <span class="content-kind">"embedded resource"</span>
                <ResourceContentsView contents=embedded.resource />
            </div>
        }
        .into_any(),
        _ => view! { <p class="quiet">"A content block of a kind this client does not know."</p> }
            .into_any(),
    }
}

/// Base64 media: shown inline only as the engine allows, else described with a hex glance.
#[component]
pub fn MediaView(mime_type: Option<String>, data: String, what: &'static str) -> impl IntoView {
    let mime_label = mime_type
        .clone()
        .unwrap_or_else(|| "no MIME type".to_owned());
    match media(mime_type.as_deref(), &data) {
        Media::Image { data_url } => {
            let label = format!("An image from the server ({mime_label})");
            view! { <img class="content-image" src=data_url alt=label /> }.into_any()
        }
        Media::Audio { data_url } => {
            let label = format!("Audio from the server ({mime_label})");
            view! { <audio class="content-audio" controls src=data_url aria-label=label></audio> }
                .into_any()
        }
        Media::Described { bytes, why } => {
            let note = format!("{what}: binary {bytes} bytes ({mime_label}), {why}.");
            let hex = hex_preview(&data, 16).filter(|hex| !hex.is_empty());
            view! {
                <div class="media-note">
                    <p class="quiet">{note}</p>
                    {hex.map(|hex| {
                        view! {
                            <p class="quiet hex-preview">
                                "First bytes: " <code class="hex">{hex}</code>
                            </p>
                        }
                    })}
                </div>
            }
            .into_any()
        }
    }
}
