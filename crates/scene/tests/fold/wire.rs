//! A session on a fake clock, fed to a `Traffic` through the engine's readers.

use std::collections::HashMap;

use holdbay_engine::{ExchangeEvent, RecordedExchange, SentRequest, decode_recorded};
use holdbay_scene::*;
use serde_json::{Value, json};

/// A session on a fake clock. Requests are decoded as recorded requests; answers go through
/// the engine's readers (`decode_recorded`), as the app's wire log feeds the scene.
pub(crate) struct Wire {
    pub(crate) traffic: Traffic,
    pub(crate) next: u64,
    pub(crate) clock: f64,
    pub(crate) sent: HashMap<u64, (String, Option<String>, String)>,
}

/// How a recorded exchange ended.
#[derive(Clone, Copy)]
pub(crate) enum End<'a> {
    /// The body ended by itself.
    Finished,
    /// Still open.
    Open,
    /// Cut off at the HTTP level.
    Broken(&'a str),
    /// The client aborted it.
    Stopped,
}

impl Wire {
    pub(crate) fn new(max_rounds: u32) -> Self {
        Self {
            traffic: Traffic::new(max_rounds),
            next: 1,
            clock: 1_000.0,
            sent: HashMap::new(),
        }
    }

    pub(crate) fn tick(&mut self) -> f64 {
        self.clock += 10.0;
        self.clock
    }

    pub(crate) fn send(&mut self, method: &str, name: Option<&str>, params: Value) -> u64 {
        let id = self.next;
        self.next += 1;
        let body = json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params });
        self.send_body(id, method, name, &body.to_string());
        id
    }

    pub(crate) fn send_body(&mut self, id: u64, method: &str, name: Option<&str>, body: &str) {
        let at = self.tick();
        let sent = SentRequest::decode(method, body, name);
        self.traffic
            .apply(id, at, &ExchangeEvent::Sent(Box::new(sent)));
        self.sent.insert(
            id,
            (method.to_owned(), name.map(str::to_owned), body.to_owned()),
        );
    }

    /// Everything after `Sent` of exchange `id`, from the recorded response.
    pub(crate) fn respond(
        &mut self,
        id: u64,
        status: u16,
        content_type: &str,
        body: &[&[u8]],
        end: End,
    ) {
        let events = self.recorded(id, status, content_type, body, end);
        self.apply(id, &events);
    }

    /// The events after `Sent` of exchange `id` its recorded response makes, on the clock,
    /// not applied yet (a test applies them in parts, with other exchanges between).
    pub(crate) fn recorded(
        &mut self,
        id: u64,
        status: u16,
        content_type: &str,
        body: &[&[u8]],
        end: End,
    ) -> Vec<(f64, ExchangeEvent)> {
        let at = self.tick();
        let (method, name, request) = self.sent.get(&id).cloned().expect("sent first");
        let chunks: Vec<(f64, &[u8])> = body
            .iter()
            .enumerate()
            .map(|(n, chunk)| (1.0 + n as f64, *chunk))
            .collect();
        let events = decode_recorded(&RecordedExchange {
            method: &method,
            name: name.as_deref(),
            request_body: &request,
            status: Some(status),
            content_type: Some(content_type),
            responded_after: Some(0.0),
            chunks: &chunks,
            finished_after: (!matches!(end, End::Open)).then_some(chunks.len() as f64 + 1.0),
            error: match end {
                End::Broken(error) => Some(error),
                End::Stopped => Some("the request to http://x was aborted"),
                _ => None,
            },
            stopped: matches!(end, End::Stopped),
            round: None,
        });
        events
            .into_iter()
            .skip(1)
            .map(|timed| (at + timed.after_ms, timed.event))
            .collect()
    }

    /// Apply events of exchange `id` (from [`Wire::recorded`]).
    pub(crate) fn apply(&mut self, id: u64, events: &[(f64, ExchangeEvent)]) {
        for (at, event) in events {
            self.traffic.apply(id, *at, event);
        }
    }

    pub(crate) fn answer_json(&mut self, id: u64, message: Value) {
        let text = message.to_string();
        let (head, tail) = text.split_at(text.len() / 2);
        self.respond(
            id,
            200,
            "application/json",
            &[head.as_bytes(), tail.as_bytes()],
            End::Finished,
        );
    }

    pub(crate) fn result(&mut self, id: u64, result: Value) {
        self.answer_json(id, json!({ "jsonrpc": "2.0", "id": id, "result": result }));
    }

    pub(crate) fn call(&mut self, tool: &str, extra: Value) -> u64 {
        let mut params = json!({ "name": tool, "arguments": { "party": 2 } });
        if let (Some(params), Some(extra)) = (params.as_object_mut(), extra.as_object()) {
            params.extend(extra.clone());
        }
        self.send("tools/call", Some(tool), params)
    }

    /// A `tools/call` that declared the tasks extension (a task is a valid answer to it).
    pub(crate) fn call_accepting_task(&mut self, tool: &str) -> u64 {
        self.call(
            tool,
            json!({ "_meta": { "io.modelcontextprotocol/clientCapabilities": {
                "extensions": { "io.modelcontextprotocol/tasks": {} } } } }),
        )
    }
}

pub(crate) fn input_required(state: &str) -> Value {
    json!({
        "resultType": "input_required",
        "inputRequests": { "when": { "method": "elicitation/create", "params": {
            "mode": "form", "message": "When?", "requestedSchema": { "type": "object", "properties": {} } } } },
        "requestState": state,
    })
}

pub(crate) fn task(id: &str, status: &str) -> Value {
    json!({ "taskId": id, "status": status, "createdAt": "2026-11-29T10:00:00Z",
        "lastUpdatedAt": "2026-11-29T10:00:00Z", "ttlMs": null })
}

pub(crate) fn with(mut value: Value, extra: Value) -> Value {
    if let (Some(value), Some(extra)) = (value.as_object_mut(), extra.as_object()) {
        value.extend(extra.clone());
    }
    value
}
