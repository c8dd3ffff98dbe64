//! The real `holdbay` binary, started on a free loopback port for a test, and the
//! requests the tests send it.

// Each test binary uses part of this module; the rest would warn as unused there.
#![allow(dead_code)]

pub mod session;
pub mod upstream;

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use holdbay_engine::relay::{RELAY_PATH, RELAY_TOKEN_HEADER, RELAY_TOKEN_META};
use tempfile::TempDir;

/// What `server/discover` needs in `MCP-Protocol-Version` and `_meta`.
pub const PROTOCOL_VERSION: &str = "2026-07-28";

/// A complete `server/discover` request body.
pub const DISCOVER_BODY: &str = r#"{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"t","version":"0"},"io.modelcontextprotocol/clientCapabilities":{}}}}"#;

/// The line the binary prints once it listens, up to the address.
const READY_PREFIX: &str = "Holdbay is serving http://";
const START_TIMEOUT: Duration = Duration::from_secs(30);

/// A running `holdbay serve` with its own data dir and app folder; stopped on drop.
pub struct TestServer {
    child: Child,
    /// Everything the server wrote to stderr so far (its log), line by line.
    log: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
    pub address: SocketAddr,
    _data_dir: Option<TempDir>,
    _dist: TempDir,
}

impl TestServer {
    /// `holdbay serve --port 0` plus `extra_args`, with a throwaway data dir.
    pub fn start(extra_args: &[&str]) -> Self {
        let data_dir = TempDir::new().expect("temp data dir");
        let mut server = Self::start_in(data_dir.path(), extra_args);
        server._data_dir = Some(data_dir);
        server
    }

    /// `holdbay serve --port 0 --data-dir DATA_DIR` plus `extra_args`: for restarts.
    pub fn start_in(data_dir: &Path, extra_args: &[&str]) -> Self {
        let dist = TempDir::new().expect("temp dist dir");
        std::fs::write(
            dist.path().join("index.html"),
            "<title>holdbay test page</title>",
        )
        .expect("write index.html");
        Self::start_with(data_dir, dist, extra_args)
    }

    /// `holdbay serve --port 0 --dist DIST` with a throwaway data dir: for the app's files.
    pub fn serving(dist: TempDir, extra_args: &[&str]) -> Self {
        let data_dir = TempDir::new().expect("temp data dir");
        let mut server = Self::start_with(data_dir.path(), dist, extra_args);
        server._data_dir = Some(data_dir);
        server
    }

    fn start_with(data_dir: &Path, dist: TempDir, extra_args: &[&str]) -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_holdbay"))
            .arg("serve")
            .args(["--port", "0", "--data-dir"])
            .arg(data_dir)
            .arg("--dist")
            .arg(dist.path())
            .args(extra_args)
            .env_remove("HOLDBAY_STATE_KEY")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start the holdbay binary");
        let log = collect_log(child.stderr.take().expect("piped stderr"));
        let stdout = child.stdout.take().expect("piped stdout");
        let address = match read_address(stdout) {
            Ok(address) => address,
            Err(problem) => {
                let _ = child.kill();
                let _ = child.wait();
                panic!("holdbay did not start: {problem}");
            }
        };
        Self {
            child,
            log,
            address,
            _data_dir: None,
            _dist: dist,
        }
    }

    /// The server's stderr lines so far.
    pub fn log(&self) -> Vec<String> {
        self.log
            .lock()
            .map(|lines| lines.clone())
            .unwrap_or_default()
    }

    /// SIGKILL, like `kill -9`: no shutdown code runs.
    pub fn kill_hard(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// `http://ADDR` of the server.
    pub fn base(&self) -> String {
        format!("http://{}", self.address)
    }

    /// `http://ADDR/mcp`.
    pub fn mcp_url(&self) -> String {
        format!("{}/mcp", self.base())
    }

    /// `http://ADDR/relay?target=<target, percent-encoded>`.
    pub fn relay_url(&self, target: &str) -> String {
        let query: String = url::form_urlencoded::Serializer::new(String::new())
            .append_pair("target", target)
            .finish();
        format!("{}{RELAY_PATH}?{query}", self.base())
    }

    /// The relay token of this launch, learnt the way the app learns it: from the page the
    /// server serves.
    pub async fn relay_token(&self) -> String {
        let page = http_client()
            .get(format!("{}/", self.base()))
            .send()
            .await
            .expect("the page")
            .text()
            .await
            .expect("the page's text");
        token_in_page(&page).unwrap_or_else(|| panic!("no relay token in the page: {page}"))
    }
}

/// The `content` of the page's `<meta name="holdbay-relay-token">`.
pub fn token_in_page(page: &str) -> Option<String> {
    let marker = format!("<meta name=\"{RELAY_TOKEN_META}\" content=\"");
    let start = page.find(&marker)? + marker.len();
    let end = start + page[start..].find('"')?;
    Some(page[start..end].to_owned())
}

/// `request` with the relay token header.
pub fn with_relay_token(request: reqwest::RequestBuilder, token: &str) -> reqwest::RequestBuilder {
    request.header(RELAY_TOKEN_HEADER, token)
}

impl Drop for TestServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Keep every stderr line, draining the pipe so the server never blocks on it.
fn collect_log(stderr: std::process::ChildStderr) -> std::sync::Arc<std::sync::Mutex<Vec<String>>> {
    let log = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let sink = std::sync::Arc::clone(&log);
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines() {
            let Ok(line) = line else { break };
            if let Ok(mut lines) = sink.lock() {
                lines.push(line);
            }
        }
    });
    log
}

/// Read stdout until the ready line; keep draining it afterwards so the server never
/// blocks on a full pipe.
fn read_address(stdout: std::process::ChildStdout) -> Result<SocketAddr, String> {
    let (found, wait) = mpsc::channel();
    std::thread::spawn(move || {
        let mut reported = false;
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if !reported && let Some(rest) = line.strip_prefix(READY_PREFIX) {
                let address = rest.split('/').next().unwrap_or_default().to_owned();
                reported = found.send(address).is_ok();
            }
        }
    });
    let address = wait
        .recv_timeout(START_TIMEOUT)
        .map_err(|_| format!("no line starting {READY_PREFIX:?} on stdout"))?;
    address
        .parse()
        .map_err(|error| format!("{address:?} is not an address: {error}"))
}

/// A client that follows no redirect, so tests see exactly what the server answered.
pub fn http_client() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .no_proxy()
        .build()
        .expect("reqwest client")
}

/// The headers of a `server/discover` POST.
pub fn with_mcp_headers(request: reqwest::RequestBuilder) -> reqwest::RequestBuilder {
    request
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .header("MCP-Protocol-Version", PROTOCOL_VERSION)
        .header("Mcp-Method", "server/discover")
}

/// A `server/discover` POST to `url`.
pub fn discover(client: &reqwest::Client, url: &str) -> reqwest::RequestBuilder {
    with_mcp_headers(client.post(url)).body(DISCOVER_BODY)
}

/// A response header as text, or "" when absent.
pub fn header(response: &reqwest::Response, name: &str) -> String {
    response
        .headers()
        .get_all(name)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .collect::<Vec<_>>()
        .join(", ")
}

/// A JSON-RPC error response: its status, content type, and `error.code`/`error.message`.
pub async fn jsonrpc_error(response: reqwest::Response) -> (u16, String, i64, String) {
    let status = response.status().as_u16();
    let content_type = header(&response, "content-type");
    let text = response.text().await.expect("error body");
    let body: serde_json::Value =
        serde_json::from_str(&text).unwrap_or_else(|_| panic!("not JSON: {text}"));
    assert_eq!(body["jsonrpc"], "2.0", "{text}");
    assert!(body["id"].is_null(), "{text}");
    let code = body["error"]["code"].as_i64().expect("error.code");
    let message = body["error"]["message"]
        .as_str()
        .expect("error.message")
        .to_owned();
    (status, content_type, code, message)
}
