//! What folding an exchange's events into the scene costs (docs/benchmarks.md): the same
//! exchanges as the engine's bench, decoded by the engine's readers outside the timing.
//!
//! `cargo bench -p holdbay-scene --bench fold`

use std::hint::black_box;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use holdbay_engine::Client;
use holdbay_scene::Traffic;

#[path = "../../engine/benches/common/mod.rs"]
mod common;
use common::{approval_task_answer, call, exchange_events, forecast_answer};

/// The scene's fold of one tools/call round and one tasks/get poll: the events the readers
/// decoded (built outside the timing), applied to a fresh `Traffic`. The fold parses nothing.
fn bench_traffic_fold(c: &mut Criterion) {
    let mut client = Client::default();
    let request = call(&mut client);
    let wire = forecast_answer(request.id());
    let poll = client.get_task("786512e2");
    let snapshot = approval_task_answer(poll.id());
    let tool_round = exchange_events(
        request.sent_event(),
        request.reader(200, Some("application/json")),
        &wire,
    );
    let poll_round = exchange_events(
        poll.sent_event(),
        poll.reader(200, Some("application/json")),
        &snapshot,
    );
    let mut group = c.benchmark_group("traffic_fold");
    for (name, events) in [
        ("tools_call_round", &tool_round),
        ("tasks_get", &poll_round),
    ] {
        group.bench_function(name, |b| {
            b.iter_batched(
                || Traffic::new(10),
                |mut traffic| {
                    for (n, event) in black_box(events).iter().enumerate() {
                        traffic.apply(1, n as f64, event);
                    }
                    traffic
                },
                BatchSize::SmallInput,
            );
        });
    }
    group.finish();
}

criterion_group!(benches, bench_traffic_fold);
criterion_main!(benches);
