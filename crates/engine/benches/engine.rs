//! What one response costs the engine: wire bytes in, decoded result and state machine step
//! out (goal: ≤ 20 µs per response) (docs/benchmarks.md). The scene's fold of the same
//! exchanges is timed by `crates/scene/benches/fold.rs`.
//!
//! `cargo bench -p holdbay-engine --bench engine`

use std::hint::black_box;

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use holdbay_engine::model::{CreateTaskResult, GetTaskResult};
use holdbay_engine::{
    Bounds, CallTool, Client, GetTask, LogicalRequest, McpMethod, Step, TaskEvent, TaskTracker,
};
use serde_json::{Value, json};

mod common;
use common::{call, forecast_result, id_json};

fn bench_tools_call(c: &mut Criterion) {
    let mut client = Client::default();
    let request = call(&mut client);
    let wire = json!({"jsonrpc": "2.0", "id": id_json(request.id()), "result": forecast_result()})
        .to_string();
    assert!(
        (1800..2400).contains(&wire.len()),
        "the response is {} bytes, not ~2 KB",
        wire.len()
    );
    // The same message as one SSE event after a progress notification, read in 256-byte chunks.
    let sse = format!(
        ": keep-alive\n\nevent: message\ndata: {}\n\nevent: message\ndata: {wire}\n\n",
        json!({"jsonrpc": "2.0", "method": "notifications/progress",
            "params": {"progressToken": 1, "progress": 0.5, "total": 1}})
    );

    let mut group = c.benchmark_group("tools_call_complete_2kb");
    group.throughput(Throughput::Bytes(wire.len() as u64));
    for (name, content_type, body, chunk) in [
        ("json", "application/json", wire.as_bytes(), wire.len()),
        ("sse_256b_chunks", "text/event-stream", sse.as_bytes(), 256),
    ] {
        group.bench_function(name, |b| {
            b.iter_batched(
                || LogicalRequest::start(&request, Bounds::default(), 0),
                |mut logical| {
                    let mut reader = request.reader(200, Some(content_type));
                    for piece in black_box(body).chunks(chunk) {
                        reader.push_chunk(piece);
                    }
                    let reply = reader.finish_outcome().expect("a valid reply");
                    let step = logical.handle(reply);
                    assert!(matches!(step, Step::Complete(_)));
                    (step, logical)
                },
                BatchSize::SmallInput,
            );
        });
    }
    // The same JSON answer read with its events (`Answered`, findings), as the app reads it
    // to draw the scene.
    group.bench_function("json_events", |b| {
        b.iter_batched(
            || LogicalRequest::start(&request, Bounds::default(), 0),
            |mut logical| {
                let mut reader = request.reader(200, Some("application/json"));
                reader.push_chunk(black_box(wire.as_bytes()));
                let decoded = reader.finish_decoded();
                let step = logical.handle(decoded.result.expect("a valid reply"));
                assert!(matches!(step, Step::Complete(_)));
                (step, logical, decoded.events)
            },
            BatchSize::SmallInput,
        );
    });
    group.finish();

    // Where the time goes: the JSON parse alone, and the typed decode alone.
    let mut group = c.benchmark_group("breakdown_tools_call");
    let result = serde_json::from_str::<Value>(&wire).expect("JSON")["result"].clone();
    group.bench_function("serde_json_parse_to_value", |b| {
        b.iter(|| serde_json::from_slice::<Value>(black_box(wire.as_bytes())));
    });
    group.bench_function("engine_decode_from_value", |b| {
        b.iter(|| CallTool::decode_output(black_box(&result)));
    });
    group.finish();

    // For scale: what building the request costs (id, `_meta`, headers, JSON body).
    c.bench_function("tools_call_build_request", |b| {
        let mut client = Client::default();
        b.iter(|| call(black_box(&mut client)));
    });
    // The request's `Sent` event (its JSON written again from the typed params, not parsed).
    c.bench_function("tools_call_sent_event", |b| {
        b.iter(|| black_box(&request).sent_event());
    });
}

fn bench_tasks_get(c: &mut Criterion) {
    let created: CreateTaskResult = serde_json::from_value(json!({"resultType": "task",
        "taskId": "786512e2-9e0d-44bd-8f29-789f320fe840", "status": "working",
        "createdAt": "2026-11-29T10:00:00Z", "lastUpdatedAt": "2026-11-29T10:00:00Z",
        "ttlMs": 3_600_000, "pollIntervalMs": 1000}))
    .expect("CreateTaskResult");
    let mut client = Client::default();
    let mut seed = TaskTracker::from_created(&created, 0);
    let poll = seed.poll(&mut client, 1000);
    let wire = json!({"jsonrpc": "2.0", "id": id_json(poll.id()), "result": {
        "resultType": "complete",
        "taskId": "786512e2-9e0d-44bd-8f29-789f320fe840",
        "status": "input_required",
        "statusMessage": "Waiting for approval of the deployment plan",
        "createdAt": "2026-11-29T10:00:00Z",
        "lastUpdatedAt": "2026-11-29T10:00:04Z",
        "ttlMs": 3_600_000,
        "pollIntervalMs": 2000,
        "inputRequests": {
            "786512e2:approve-plan": {
                "method": "elicitation/create",
                "params": {
                    "mode": "form",
                    "message": "Deploy 3 services to production (eu-west-1)?",
                    "requestedSchema": {
                        "type": "object",
                        "properties": {
                            "approve": {"type": "boolean", "title": "Approve", "description": "Go ahead with the deployment"},
                            "window": {"type": "string", "title": "Window", "enum": ["now", "tonight", "weekend"]},
                            "note": {"type": "string", "title": "Note", "maxLength": 200}
                        },
                        "required": ["approve"]
                    }
                }
            }
        }
    }})
    .to_string();

    let mut group = c.benchmark_group("tasks_get_input_required");
    group.throughput(Throughput::Bytes(wire.len() as u64));
    group.bench_function("json", |b| {
        b.iter_batched(
            || seed.clone(),
            |mut tracker| {
                let mut reader = poll.reader(200, Some("application/json"));
                reader.push_chunk(black_box(wire.as_bytes()));
                let reply = reader.finish().expect("a valid snapshot");
                let events = tracker.handle_snapshot(&reply.result.task, Some(reply.raw_result));
                assert!(matches!(
                    events.last(),
                    Some(TaskEvent::InputRequested { .. })
                ));
                (events, tracker)
            },
            BatchSize::SmallInput,
        );
    });
    group.bench_function("json_events", |b| {
        b.iter_batched(
            || seed.clone(),
            |mut tracker| {
                let mut reader = poll.reader(200, Some("application/json"));
                reader.push_chunk(black_box(wire.as_bytes()));
                let (events, reply) = reader.finish_decoded().into_complete();
                let reply = reply.expect("a valid snapshot");
                let changes = tracker.handle_snapshot(&reply.result.task, Some(reply.raw_result));
                assert!(matches!(
                    changes.last(),
                    Some(TaskEvent::InputRequested { .. })
                ));
                (changes, tracker, events)
            },
            BatchSize::SmallInput,
        );
    });
    group.finish();

    // Where the time goes: the JSON parse alone, rmcp's typed decode alone, and the engine's
    // decode of the same snapshot into rmcp's types (field by field, no serde buffering).
    let mut group = c.benchmark_group("breakdown_tasks_get");
    let result = serde_json::from_str::<Value>(&wire).expect("JSON")["result"].clone();
    group.bench_function("serde_json_parse_to_value", |b| {
        b.iter(|| serde_json::from_slice::<Value>(black_box(wire.as_bytes())));
    });
    group.bench_function("rmcp_decode_from_value", |b| {
        b.iter_batched(
            || result.clone(),
            |value| serde_json::from_value::<GetTaskResult>(black_box(value)),
            BatchSize::SmallInput,
        );
    });
    group.bench_function("engine_decode_from_value", |b| {
        b.iter(|| GetTask::decode_output(black_box(&result)));
    });
    group.finish();
}

criterion_group!(benches, bench_tools_call, bench_tasks_get);
criterion_main!(benches);
