//! Input-gathering components: tool arguments from a JSON Schema, and answers to a
//! server's input requests (form elicitation, URL consent).

mod arguments;
mod input_request;

pub use arguments::ArgumentsEditor;
pub use input_request::InputRequestCard;
