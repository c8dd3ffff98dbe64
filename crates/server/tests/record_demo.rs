//! Records the demo server's answers to the engine's own requests as transcript fixtures for
//! the engine's replay tests. Not part of the normal run:
//!
//!     cargo test -p holdbay-server --test record_demo -- --ignored
//!
//! writes crates/engine/tests/transcripts/demo/*.json (response bodies byte-exact).

mod support;

use holdbay_engine::{Client, McpMethod, OutgoingRequest, RequestOptions};
use serde_json::{Value, json};
use support::TestServer;

struct Recorder {
    url: String,
    http: reqwest::Client,
    exchanges: Vec<Value>,
}

impl Recorder {
    async fn send<M: McpMethod>(&mut self, request: &OutgoingRequest<M>) {
        let mut post = self.http.post(&self.url).body(request.body().to_owned());
        let mut headers = serde_json::Map::new();
        for (name, value) in request.headers() {
            post = post.header(name.as_str(), value);
            headers.insert(name.clone(), json!(value));
        }
        let response = post.send().await.expect("the demo server answers");
        let status = response.status().as_u16();
        let content_type = response
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        let body = response.text().await.expect("a text body");
        let request_body: Value = serde_json::from_str(request.body()).expect("JSON");
        self.exchanges.push(json!({
            "request": {"headers": headers, "body": request_body},
            "response": {"status": status, "content_type": content_type, "body": body},
        }));
    }

    fn write(&mut self, name: &str, scenario: &str) {
        let dir = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../engine/tests/transcripts/demo"
        );
        std::fs::create_dir_all(dir).expect("fixture folder");
        let fixture = json!({
            "source": format!("holdbay demo server {} (crates/server), recorded by crates/server/tests/record_demo.rs", env!("CARGO_PKG_VERSION")),
            "scenario": scenario,
            "exchanges": std::mem::take(&mut self.exchanges),
        });
        let text = serde_json::to_string_pretty(&fixture).expect("JSON") + "\n";
        std::fs::write(format!("{dir}/{name}.json"), text).expect("write fixture");
    }
}

#[tokio::test]
#[ignore = "writes fixtures; run on purpose"]
async fn record_demo_transcripts() {
    let server = TestServer::start(&[]);
    let mut recorder = Recorder {
        url: server.mcp_url(),
        http: reqwest::Client::new(),
        exchanges: Vec::new(),
    };

    let mut client = Client::default();
    recorder.send(&client.discover()).await;
    recorder.write("discover", "server/discover");

    let mut client = Client::default();
    recorder.send(&client.list_tools(None)).await;
    recorder.write("tools_list", "tools/list");

    let mut client = Client::default();
    let args = json!({"message": "hello, 世界"});
    let call = client
        .call_tool(
            "echo",
            args.as_object().cloned(),
            &RequestOptions::default(),
        )
        .expect("call");
    recorder.send(&call).await;
    let call = client
        .call_tool("no_such_tool", None, &RequestOptions::default())
        .expect("call");
    recorder.send(&call).await;
    recorder.write("echo_call", "tools/call echo, then an unknown tool");
}
