//! Base64 media a server sent (an image, audio, a resource's blob), shown inline only as
//! the engine allows.

use holdbay_engine::{Media, hex_preview, media};
use leptos::prelude::*;

use crate::ui::format;

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
            let note = format!(
                "{what}: binary {} ({mime_label}), {why}.",
                format::bytes(bytes)
            );
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
