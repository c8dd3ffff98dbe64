use wasm_bindgen::prelude::*;

/// One HTTP response in, a line of text out: what a host does with every response.
#[cfg(not(feature = "app"))]
#[wasm_bindgen]
pub fn probe(status: u16, content_type: &str, body: &[u8]) -> String {
    // Without the engine a host still parses the JSON-RPC body.
    match serde_json::from_slice::<serde_json::Value>(body) {
        Ok(value) => format!("{status} {content_type} {}", value["result"]),
        Err(e) => e.to_string(),
    }
}

#[cfg(feature = "app")]
#[wasm_bindgen]
pub fn probe(status: u16, content_type: &str, body: &[u8]) -> String {
    use holdbay_engine::{Client, ListTools, Pages, tool_display_name};
    let mut out = String::new();
    let mut client = Client::default();
    let discover = client.discover();
    out.push_str(discover.body());
    for (name, value) in discover.headers() {
        out.push_str(name);
        out.push_str(value);
    }
    let mut reader = discover.reader(status, Some(content_type));
    reader.push_chunk(body);
    let discovered = match reader.finish() {
        Ok(reply) => reply.result,
        Err(e) => return e.to_string(),
    };
    if let Some(mut pages) = Pages::<ListTools>::for_server(&discovered) {
        while let Some(request) = pages.next_request(&mut client) {
            let mut reader = request.reader(status, Some(content_type));
            reader.push_chunk(body);
            let accepted = match reader.finish() {
                Ok(reply) => pages.accept(reply),
                Err(e) => Err(pages.page_failed(e.to_string())),
            };
            if accepted.is_err() {
                break;
            }
        }
        let listing = pages.finish().learn(&mut client);
        for tool in &listing.items {
            out.push_str(tool_display_name(tool));
        }
        for finding in &listing.findings {
            out.push_str(&finding.rule.id());
            out.push_str(&finding.explanation);
        }
        if let Some(stopped) = &listing.stopped {
            out.push_str(&stopped.to_string());
        }
    }
    #[cfg(feature = "full")]
    full(&mut client, status, content_type, body, &mut out);
    out
}

#[cfg(feature = "full")]
fn full(
    client: &mut holdbay_engine::Client,
    status: u16,
    content_type: &str,
    body: &[u8],
    out: &mut String,
) {
    use holdbay_engine::{Bounds, LogicalRequest, RequestOptions, Step, TaskTracker};
    let options = RequestOptions {
        accept_task: true,
        ..RequestOptions::default()
    };
    let args = serde_json::from_slice(body).ok();
    let Ok(call) = client.call_tool("tool", args, &options) else {
        return;
    };
    let mut logical = LogicalRequest::start(&call, Bounds::default(), 0);
    let mut latest = call;
    for now in 0..4 {
        let mut reader = latest.reader(status, Some(content_type));
        reader.push_chunk(body);
        let reply = match reader.finish_outcome() {
            Ok(reply) => reply,
            Err(e) => {
                if logical.handle_error(&e) == holdbay_engine::ErrorStep::Fail {
                    out.push_str("fail");
                }
                if let Ok(again) = logical.resend(client) {
                    out.push_str(again.body());
                }
                return;
            }
        };
        match logical.handle(reply) {
            Step::Complete(result) => {
                out.push_str(&serde_json::to_string(&result).unwrap_or_default());
                return;
            }
            Step::Task(created) => {
                let mut tracker = TaskTracker::from_created(&created, now);
                let poll = tracker.poll(client, now);
                let mut reader = poll.reader(status, Some(content_type));
                reader.push_chunk(body);
                if let Ok(snapshot) = reader.finish() {
                    for event in
                        tracker.handle_snapshot(&snapshot.result.task, Some(snapshot.raw_result))
                    {
                        use holdbay_engine::TaskEvent;
                        match event {
                            TaskEvent::StatusChanged { .. } => out.push_str("status"),
                            TaskEvent::InputRequested { keys } => out.push_str(&keys.join(",")),
                            TaskEvent::Completed { result } => {
                                out.push_str(&serde_json::Value::Object(result).to_string())
                            }
                            TaskEvent::Failed { error } => {
                                out.push_str(&serde_json::Value::Object(error).to_string())
                            }
                            TaskEvent::Cancelled => out.push_str("cancelled"),
                            TaskEvent::Finding(finding) => out.push_str(&finding.explanation),
                        }
                    }
                }
                for key in tracker.outstanding() {
                    let _ = tracker.answer(&key, holdbay_engine::InputAnswer::Accept(None));
                }
                if let Some(update) = tracker.update(client) {
                    out.push_str(update.body());
                }
                out.push_str(tracker.cancel(client).body());
                out.push_str(&serde_json::to_string(&tracker).unwrap_or_default());
                return;
            }
            Step::NeedsInput | Step::RetryWithoutInput => {
                for key in logical.pending_inputs() {
                    let _ = logical.answer(&key, holdbay_engine::InputAnswer::Accept(None));
                }
                match logical.retry(client, now) {
                    Ok(next) => latest = next,
                    Err(e) => {
                        out.push_str(&e.to_string());
                        return;
                    }
                }
            }
            Step::Cancelled => return,
        }
    }
}
