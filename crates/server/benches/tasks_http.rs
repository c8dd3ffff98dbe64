//! Task latency and throughput over real HTTP against the real `holdbay` binary:
//!
//!     cargo bench -p holdbay-server --bench tasks_http
//!
//! - create-to-durable-ack: a `tools/call` that creates a task, from send to the
//!   response (which is only sent after the SQLite commit, synchronous=FULL);
//! - `tasks/get` throughput with several requests in flight.
//!
//! Figures are printed and written to target/holdbay-bench/tasks_http.txt.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use holdbay_engine::{Client, McpMethod, OutgoingRequest, RequestOptions};
use serde_json::json;

const CREATES: usize = 300;
const GET_SECONDS: u64 = 5;
const IN_FLIGHT: usize = 8;

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let data_dir = std::env::temp_dir().join(format!("holdbay-bench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data_dir);
    let mut child = Command::new(env!("CARGO_BIN_EXE_holdbay"))
        .args([
            "serve",
            "--port",
            "0",
            "--max-live-tasks",
            "100000",
            "--data-dir",
        ])
        .arg(&data_dir)
        .args(["--dist", "/nonexistent"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start holdbay");
    let stdout = child.stdout.take().expect("stdout");
    let line = BufReader::new(stdout)
        .lines()
        .next()
        .expect("a line")
        .expect("text");
    let address = line
        .strip_prefix("Holdbay is serving http://")
        .and_then(|rest| rest.split('/').next())
        .expect("the ready line")
        .to_owned();
    let url = format!("http://{address}/mcp");
    let http = reqwest::Client::builder()
        .no_proxy()
        .build()
        .expect("client");
    let mut client = Client::default();

    // Warm up the connection pool and the database.
    for _ in 0..20 {
        create(&http, &url, &mut client).await;
    }
    let mut latencies = Vec::with_capacity(CREATES);
    let mut task_id = String::new();
    for _ in 0..CREATES {
        let started = Instant::now();
        task_id = create(&http, &url, &mut client).await;
        latencies.push(started.elapsed());
    }
    latencies.sort();
    let percentile = |p: f64| latencies[((latencies.len() as f64 - 1.0) * p).round() as usize];

    let served = Arc::new(AtomicU64::new(0));
    let deadline = Instant::now() + Duration::from_secs(GET_SECONDS);
    let mut workers = Vec::new();
    for _ in 0..IN_FLIGHT {
        let (http, url, task_id, served) =
            (http.clone(), url.clone(), task_id.clone(), served.clone());
        workers.push(tokio::spawn(async move {
            let mut client = Client::default();
            while Instant::now() < deadline {
                let request = client.get_task(&task_id);
                let reply = send(&http, &url, &request).await;
                assert!(reply.contains("\"taskId\""), "{reply}");
                served.fetch_add(1, Ordering::Relaxed);
            }
        }));
    }
    for worker in workers {
        worker.await.expect("worker");
    }
    let per_second = served.load(Ordering::Relaxed) as f64 / GET_SECONDS as f64;
    let _ = child.kill();
    let _ = child.wait();
    let _ = std::fs::remove_dir_all(&data_dir);

    let report = format!(
        "holdbay-server tasks_http ({} cores available)\n\
         create-to-durable-ack over HTTP, {CREATES} tasks: p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms\n\
         tasks/get throughput, {IN_FLIGHT} in flight for {GET_SECONDS} s: {per_second:.0} requests/s\n",
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1),
        ms(percentile(0.50)),
        ms(percentile(0.99)),
        ms(latencies[latencies.len() - 1]),
    );
    print!("{report}");
    let out = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/holdbay-bench");
    let _ = std::fs::create_dir_all(&out);
    let _ = std::fs::write(out.join("tasks_http.txt"), report);
}

fn ms(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1000.0
}

async fn create(http: &reqwest::Client, url: &str, client: &mut Client) -> String {
    let options = RequestOptions {
        accept_task: true,
        ..RequestOptions::default()
    };
    let request = client
        .call_tool(
            "bulk_import",
            json!({"duration_seconds": 600}).as_object().cloned(),
            &options,
        )
        .expect("request");
    let body = send(http, url, &request).await;
    let start = body.find("\"taskId\":\"").expect("a task") + 10;
    body[start..start + 32].to_owned()
}

async fn send<M: McpMethod>(
    http: &reqwest::Client,
    url: &str,
    request: &OutgoingRequest<M>,
) -> String {
    let mut post = http.post(url).body(request.body().to_owned());
    for (name, value) in request.headers() {
        post = post.header(name.as_str(), value);
    }
    post.send()
        .await
        .expect("answer")
        .text()
        .await
        .expect("body")
}
