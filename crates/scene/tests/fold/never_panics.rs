//! Whatever the wire brings, in whatever order, the fold never panics.

use proptest::prelude::*;

use super::wire::{End, Wire};

#[derive(Debug, Clone)]
enum Op {
    Sent(u64, String, String),
    Answer(u64, u16, bool, Vec<String>, u8),
    Restored(String, u8),
    Reloaded,
}

fn op() -> impl Strategy<Value = Op> {
    let method = prop::sample::select(vec![
        "tools/call",
        "tasks/get",
        "tasks/update",
        "tasks/cancel",
        "subscriptions/listen",
        "prompts/get",
        "made/up",
    ])
    .prop_map(str::to_owned);
    let body = prop_oneof![
        Just(r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","requestState":"s","inputRequests":{"k":{}}}}"#.to_owned()),
        Just(r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"task","taskId":"t","status":"working","createdAt":"x","lastUpdatedAt":"x","ttlMs":null}}"#.to_owned()),
        Just(r#"{"jsonrpc":"2.0","id":1,"result":{"taskId":"t","status":"completed","createdAt":"x","lastUpdatedAt":"x","ttlMs":null,"result":{}}}"#.to_owned()),
        Just(r#"data: {"jsonrpc":"2.0","method":"notifications/tasks","params":{"taskId":"t","status":"cancelled","createdAt":"x","lastUpdatedAt":"x","ttlMs":null}}"#.to_owned()),
        Just(r#"{"jsonrpc":"2.0","id":1,"error":{"code":-1,"message":"no"}}"#.to_owned()),
        Just("\n\n".to_owned()),
        ".{0,40}",
    ];
    let request = prop_oneof![
        Just(r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","requestState":"s"}}"#.to_owned()),
        Just(r#"{"jsonrpc":"2.0","id":1,"params":{"taskId":"t","inputResponses":{"k":{}}}}"#.to_owned()),
        ".{0,20}",
    ];
    prop_oneof![
        (0..4u64, method, request).prop_map(|(id, m, b)| Op::Sent(id, m, b)),
        (
            0..4u64,
            any::<u16>(),
            any::<bool>(),
            prop::collection::vec(body, 0..3),
            any::<u8>()
        )
            .prop_map(|(id, s, sse, chunks, end)| Op::Answer(id, s, sse, chunks, end)),
        ("[a-z]{1,2}", any::<u8>()).prop_map(|(task, status)| Op::Restored(task, status)),
        Just(Op::Reloaded),
    ]
}

proptest! {
    #[test]
    fn any_sequence_of_exchanges_folds(ops in prop::collection::vec(op(), 0..30)) {
        let mut wire = Wire::new(3);
        for op in ops {
            match op {
                Op::Sent(id, method, body) => wire.send_body(id, &method, Some("t"), &body),
                Op::Answer(id, status, sse, chunks, end) => {
                    if !wire.sent.contains_key(&id) {
                        continue;
                    }
                    let chunks: Vec<&[u8]> = chunks.iter().map(|c| c.as_bytes()).collect();
                    let end = match end % 4 {
                        0 => End::Finished,
                        1 => End::Open,
                        2 => End::Broken("reset"),
                        _ => End::Stopped,
                    };
                    let media = if sse { "text/event-stream" } else { "application/json" };
                    wire.respond(id, status, media, &chunks, end);
                }
                Op::Restored(task, status) => {
                    let statuses = [
                        rmcp::model::TaskStatus::Working,
                        rmcp::model::TaskStatus::InputRequired,
                        rmcp::model::TaskStatus::Completed,
                    ];
                    let status = statuses[usize::from(status) % statuses.len()];
                    let at = wire.tick();
                    wire.traffic.restored(&task, at, status, serde_json::Value::Null);
                }
                Op::Reloaded => {
                    let at = wire.tick();
                    wire.traffic.reloaded(at);
                }
            }
        }
        for event in wire.traffic.events() {
            let _ = wire.traffic.json_of(&event.part);
        }
    }
}
