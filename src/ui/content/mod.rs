//! Content a server sent, shown safely and the same way wherever it appears (a tool's
//! result, a prompt's messages, a resource's contents): text as text, never HTML; images
//! and audio only from their own base64 data, as the engine judges it ([`media`]); resource
//! links shown, read only when the user asks.

mod block;
mod media;
mod prompt;
mod resource;
mod tool;

use leptos::prelude::*;

pub use block::ContentBlockView;
pub use media::MediaView;
pub use prompt::PromptResult;
pub use resource::{LinkReader, ReadResult, ResourceContentsView};
pub use tool::ToolContent;

/// How a completed run's result is shown (a tool's result, a prompt, a resource's contents).
pub trait ShowResult {
    fn show(self) -> AnyView;
}
