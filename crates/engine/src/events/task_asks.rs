//! A task's open input requests and a notification's params, read from an event as
//! received, so a reader of the events (the scene) takes them typed, never by the wire's keys.

use rmcp::model::{DetailedTask, TaskPayload};
use serde_json::Value;

use super::input::received_input_requests;
use super::{InputAsk, NotificationEvent};

impl InputAsk {
    /// The open input requests of a task's full state (`tasks/get`, `notifications/tasks`),
    /// in the server's order. `received` is the message the state came in, as received: a
    /// notification, a JSON-RPC response, or its `result` or `params`.
    pub fn of_task(task: &DetailedTask, received: &Value) -> Vec<InputAsk> {
        match &task.payload {
            TaskPayload::InputRequired { input_requests } => {
                Self::from_requests(input_requests, received_input_requests(received))
            }
            _ => Vec::new(),
        }
    }
}

impl NotificationEvent {
    /// The notification's params, as received.
    pub fn params(&self) -> Option<&Value> {
        self.json.get("params")
    }
}
