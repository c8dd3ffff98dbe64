//! Floor 3, the builders: each request the client sends, body and headers, and the answers
//! it writes to input requests. A builder hands back the reader for its own response.

pub mod answer;
pub mod client;
pub mod headers;
pub mod legacy;
pub mod outgoing;
pub mod refusal;
pub mod sendable;
pub mod uri_template;
