//! What every fixture set is made of, below the demo's scenarios and the conformance
//! suite's fixtures alike: the [`FixtureSet`] the MCP handler asks, the [`Tool`] each tool
//! is declared as, the [`Call`] its handler sees, and the MRTR [`rounds`] and forms.

mod call;
pub mod rounds;
mod set;
mod tool;

pub use call::{Call, require_form_elicitation};
pub use set::{Asked, FixtureSet};
pub use tool::{Handler, NO_ARGUMENTS, Reply, SchemaFn, Tool, one_text_argument};
