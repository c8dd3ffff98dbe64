//! A call prepared elsewhere (a lesson's Start button) for the call panel to take: which
//! tool, with which arguments, whether to accept a task, and whether to start it at once.

use holdbay_engine::model::JsonObject;

/// One hand-off to the call panel, taken (and cleared) by the panel of `tool`.
#[derive(Debug, Clone, PartialEq)]
pub struct CallPreset {
    pub tool: String,
    pub arguments: JsonObject,
    /// Whether the request declares the tasks extension ("Accept a task").
    pub accept_task: bool,
    /// Start the call as soon as the panel takes the preset.
    pub start: bool,
}

impl CallPreset {
    /// The arguments as compact JSON, to show what the call was started with.
    pub fn arguments_text(&self) -> String {
        serde_json::to_string(&self.arguments).unwrap_or_default()
    }
}
