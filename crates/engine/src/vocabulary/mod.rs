//! Floor 1, the wire vocabulary: the methods with their params and outputs, the typed events
//! of an exchange, findings, limits and the protocol's constants. It imports nothing of the
//! engine above it, so every other floor can name these words.

pub mod decode;
pub mod era;
pub mod events;
pub mod findings;
pub mod limits;
pub mod list_method;
pub mod listen_params;
pub mod method;
pub mod method_id;
pub mod protocol;
pub mod relay;
pub mod stdio;
