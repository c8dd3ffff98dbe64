//! Floor 2, the readers: bytes and JSON from a server turned into the vocabulary's typed
//! events, once (responses, SSE framing, notifications, recorded request bodies, content,
//! names, schemas). They build no request and keep no state between exchanges.

pub mod bounds;
pub mod content;
pub mod form;
pub mod input_asks;
pub mod json;
pub mod names;
pub mod notification;
pub mod notification_keep;
pub mod response;
pub mod schema_check;
pub mod sent;
pub mod server_request;
pub mod sse;
pub mod stream_message;
pub mod structured;
pub mod task_asks;
pub mod version_rejection;

#[cfg(test)]
mod events_tests;
