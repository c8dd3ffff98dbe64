//! A task's open input requests and a notification's params, read from an event as
//! received, so a reader of the events (the scene) takes them typed, never by the wire's keys.

use rmcp::model::{DetailedTask, TaskPayload};
use serde_json::Value;

use crate::readers::input_asks::received_input_requests;
use crate::vocabulary::events::{InputAsk, NotificationEvent};

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

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// A task waiting for two answers, keyed in an order a sorted map would change.
    fn params() -> Value {
        let form = |message: &str| {
            json!({ "method": "elicitation/create", "params": { "mode": "form",
                "message": message, "requestedSchema": { "type": "object", "properties": {} } } })
        };
        json!({ "taskId": "t1", "status": "input_required", "createdAt": "2026-11-29T10:00:00Z",
            "lastUpdatedAt": "2026-11-29T10:00:00Z", "ttlMs": null,
            "inputRequests": { "zeta": form("Z?"), "alpha": form("A?") } })
    }

    #[test]
    fn a_tasks_asks_keep_the_servers_order_in_every_message_it_comes_in() {
        let params = params();
        let task = crate::vocabulary::decode::detailed_task(&params).expect("a task's full state");
        let notification =
            json!({ "jsonrpc": "2.0", "method": "notifications/tasks", "params": params });
        let response = json!({ "jsonrpc": "2.0", "id": 1, "result": params });
        for received in [&params, &notification, &response] {
            let keys: Vec<String> = InputAsk::of_task(&task, received)
                .into_iter()
                .map(|ask| ask.key)
                .collect();
            assert_eq!(keys, ["zeta", "alpha"], "{received}");
        }
        let note = NotificationEvent::decode(notification);
        assert_eq!(note.params(), Some(&params));
    }

    #[test]
    fn a_task_that_asks_nothing_has_no_asks() {
        let mut params = params();
        params["status"] = json!("working");
        if let Some(fields) = params.as_object_mut() {
            fields.remove("inputRequests");
        }
        let task = crate::vocabulary::decode::detailed_task(&params).expect("a task's full state");
        assert!(InputAsk::of_task(&task, &params).is_empty());
    }
}
