//! One content block: text, image, audio, an embedded resource or a resource link.

use holdbay_engine::model::ContentBlock;
use leptos::prelude::*;

use super::media::MediaView;
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
