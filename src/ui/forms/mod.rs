//! Input-gathering components: tool arguments from a JSON Schema, and answers to a
//! server's input requests (form elicitation, URL consent, undeclared kinds).

mod arguments;
mod decline;
mod delivery;
mod elicit_form;
mod elicit_url;
mod fields;
mod input_request;
mod other_kinds;
mod pattern;
mod schema_form;
mod state;

pub use arguments::ArgumentsEditor;
pub use delivery::Delivery;
pub use input_request::InputRequestCard;
