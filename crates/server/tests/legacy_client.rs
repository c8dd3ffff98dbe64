//! The engine's dual-era client against a real 2025-11-25-only server,
//! `@modelcontextprotocol/server-everything` (installed in tests/peers/legacy by
//! scripts/install-tools.sh): over Streamable HTTP, and over stdio through
//! `holdbay serve --stdio`. Each starts with a 2026-07-28 request, falls back as
//! versioning.mdx says, opens a session, and then lists and calls tools, answers the server's
//! own elicitation, sees progress, and survives the server ending the session.

mod support;

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use holdbay_engine::model::{ContentBlock, JsonObject, ProgressToken};
use holdbay_engine::{
    Binding, Client, Era, EraChoice, EraDecision, ExchangeEvent, InputAnswer, InputRequestKind,
    McpMethod, NotificationKind, OutgoingRequest, Reply, RequestOptions, ResponseError,
    ServerRequestEvent, era::HEADER_SESSION_ID,
};
use serde_json::json;
use support::{TestServer, http_client};

const PEER: &str =
    "tests/peers/legacy/node_modules/@modelcontextprotocol/server-everything/dist/index.js";

fn repo_path(relative: &str) -> PathBuf {
    let path: PathBuf = [env!("CARGO_MANIFEST_DIR"), "../..", relative]
        .iter()
        .collect();
    assert!(
        path.exists(),
        "{} is missing: run scripts/install-tools.sh (npm ci --prefix tests/peers/legacy)",
        path.display()
    );
    path
}

/// server-everything over Streamable HTTP on a free loopback port; stopped on drop.
struct HttpPeer {
    child: Child,
    url: String,
}

impl HttpPeer {
    async fn start() -> Self {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|listener| listener.local_addr())
            .expect("a free port")
            .port();
        let child = Command::new("node")
            .arg("--require")
            .arg(repo_path("tests/peers/legacy/loopback.cjs"))
            .arg(repo_path(PEER))
            .arg("streamableHttp")
            .env("PORT", port.to_string())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("node runs server-everything");
        // Dropped (killed and waited for) on every path from here.
        let peer = Self {
            child,
            url: format!("http://127.0.0.1:{port}/mcp"),
        };
        for _ in 0..300 {
            if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
                return peer;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("server-everything did not listen on {port} within 15 s");
    }
}

impl Drop for HttpPeer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One exchange as the app has it: the events read, the session header, the result.
struct Exchange<T> {
    events: Vec<ExchangeEvent>,
    session: Option<String>,
    result: Result<Reply<T>, ResponseError>,
}

/// POST `request` to `url` and read its answer as the browser app does, chunk by chunk; each
/// request from the server on the stream is answered at once with `answer`'s reply, POSTed
/// while the stream stays open.
async fn exchange<M: McpMethod>(
    client: &Client,
    url: &str,
    request: &OutgoingRequest<M>,
    answer: impl Fn(&ServerRequestEvent) -> InputAnswer,
) -> Exchange<M::Output> {
    let http = http_client();
    let mut post = http.post(url).body(request.body().to_owned());
    for (name, value) in request.headers() {
        post = post.header(name, value);
    }
    let mut response = post.send().await.expect("the server answers");
    let header = |name: &str| {
        response
            .headers()
            .get(name)
            .and_then(|value| value.to_str().ok())
            .map(str::to_owned)
    };
    let session = header(HEADER_SESSION_ID);
    let mut reader = request.reader(
        response.status().as_u16(),
        header("content-type").as_deref(),
    );
    let mut events = Vec::new();
    while let Some(chunk) = response.chunk().await.expect("the body reads") {
        reader.push_chunk(&chunk);
        for event in reader.take_events() {
            if let ExchangeEvent::ServerRequest(asked) = &event {
                let message = if asked.is_ping() {
                    client.answer_ping(asked)
                } else {
                    client
                        .answer_server_request(asked, &answer(asked))
                        .expect("an answer that fits")
                };
                let mut post = http.post(url).body(message.body());
                for (name, value) in &message.headers {
                    post = post.header(name, value);
                }
                let status = post.send().await.expect("the answer is taken").status();
                assert_eq!(status.as_u16(), 202, "an answer is accepted with 202");
            }
            events.push(event);
        }
    }
    Exchange {
        events,
        session,
        result: reader.finish(),
    }
}

fn never(asked: &ServerRequestEvent) -> InputAnswer {
    panic!("the server asked unexpectedly: {:?}", asked.json)
}

/// From the first modern request to an open legacy session with server-everything, as
/// versioning.mdx says for `binding`; returns the client in session.
async fn open_session(url: &str, binding: Binding) -> Client {
    open_session_with(url, binding, "mcp-servers/everything").await
}

/// [`open_session`] with the server named `server`.
async fn open_session_with(url: &str, binding: Binding, server: &str) -> Client {
    let mut client = Client::default();
    let discover = client.discover();
    let refused = exchange(&client, url, &discover, never).await;
    let error = refused
        .result
        .expect_err("a 2025-11-25 server refuses server/discover");
    let decision = client.detect_era(EraChoice::Auto, binding, &error);
    assert!(
        matches!(decision, Some(EraDecision::FallBack { .. })),
        "{decision:?} after {error}"
    );
    assert_eq!(client.era(), Era::Legacy);

    let initialize = client.initialize();
    let answered = exchange(&client, url, &initialize, never).await;
    let reply = answered.result.expect("initialize is answered");
    let opened = client
        .open_session(reply, answered.session.as_deref())
        .expect("a session");
    assert_eq!(opened.version, "2025-11-25");
    assert_eq!(opened.result.server_info.name, server);
    if binding == Binding::Http {
        assert!(
            opened.session_id.is_some(),
            "server-everything keeps sessions on HTTP"
        );
    }
    let initialized = client.initialized();
    let mut post = http_client().post(url).body(initialized.body());
    for (name, value) in &initialized.headers {
        post = post.header(name, value);
    }
    let status = post.send().await.expect("initialized is taken").status();
    assert_eq!(status.as_u16(), 202);
    client
}

fn texts(reply: &Reply<holdbay_engine::model::CallToolResult>) -> String {
    reply
        .result
        .content
        .iter()
        .filter_map(|content| match content {
            ContentBlock::Text(text) => Some(text.text.as_str()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn object(value: serde_json::Value) -> Option<JsonObject> {
    value.as_object().cloned()
}

/// Tools, a call, the server's elicitation answered, and progress: the same on both bindings.
async fn use_session(client: &mut Client, url: &str) {
    let list = client.list_tools(None);
    let tools = exchange(client, url, &list, never).await;
    let tools = tools.result.expect("tools/list");
    let names: Vec<&str> = tools.result.tools.iter().map(|t| t.name.as_ref()).collect();
    for expected in [
        "echo",
        "trigger-elicitation-request",
        "trigger-long-running-operation",
    ] {
        assert!(names.contains(&expected), "{expected} not in {names:?}");
    }
    assert_eq!(
        tools.findings,
        vec![],
        "a legacy list is read by legacy rules"
    );

    let echo = client
        .call_tool(
            "echo",
            object(json!({"message": "hi"})),
            &RequestOptions::default(),
        )
        .expect("a call");
    let echoed = exchange(client, url, &echo, never).await;
    assert_eq!(texts(&echoed.result.expect("echo")), "Echo: hi");

    let ask = client
        .call_tool(
            "trigger-elicitation-request",
            None,
            &RequestOptions::default(),
        )
        .expect("a call");
    let asked = exchange(client, url, &ask, |asked| {
        let InputRequestKind::Form { schema, .. } = &asked.ask().kind else {
            panic!("not a form: {:?}", asked.json);
        };
        assert_eq!(schema["required"], json!(["name"]));
        InputAnswer::Accept(object(json!({"name": "Ada Lovelace", "check": true})))
    })
    .await;
    let requests = asked
        .events
        .iter()
        .filter(|event| matches!(event, ExchangeEvent::ServerRequest(_)))
        .count();
    assert_eq!(requests, 1, "one elicitation on the call's stream");
    let answered = texts(&asked.result.expect("the call ends after the answer"));
    assert!(answered.contains("- Name: Ada Lovelace"), "{answered}");
    assert!(answered.contains("- Agreed to terms: true"), "{answered}");

    let token: ProgressToken = client.progress_token();
    let options = RequestOptions {
        progress_token: Some(token.clone()),
        ..RequestOptions::default()
    };
    let long = client
        .call_tool(
            "trigger-long-running-operation",
            object(json!({"duration": 0.3, "steps": 3})),
            &options,
        )
        .expect("a call");
    let ran = exchange(client, url, &long, never).await;
    let progress: Vec<f64> = ran
        .events
        .iter()
        .filter_map(|event| event.progress_for(&token).map(|p| p.progress))
        .collect();
    assert_eq!(progress, [1.0, 2.0, 3.0]);
    assert!(texts(&ran.result.expect("done")).contains("Steps: 3"));
    assert!(
        !ran.events.iter().any(|event| matches!(
            event,
            ExchangeEvent::Notification(note) if matches!(note.kind, NotificationKind::Other { .. })
        )),
        "every notification was read"
    );
}

#[tokio::test]
async fn over_http_the_client_falls_back_opens_a_session_and_answers_the_server() {
    let peer = HttpPeer::start().await;
    let mut client = open_session(&peer.url, Binding::Http).await;
    use_session(&mut client, &peer.url).await;

    // The server ends the session (here: a DELETE the client did not send): the next
    // request is refused (server-everything says 400, where 2025-11-25 says 404: a finding),
    // and the client says so and opens a new one.
    let session = client.session_id().expect("a session").to_owned();
    let deleted = http_client()
        .delete(&peer.url)
        .header(HEADER_SESSION_ID, &session)
        .header("MCP-Protocol-Version", "2025-11-25")
        .send()
        .await
        .expect("DELETE");
    assert!(deleted.status().is_success(), "{}", deleted.status());
    let list = client.list_tools(None);
    let gone = exchange(&client, &peer.url, &list, never).await;
    let error = gone.result.expect_err("the session is gone");
    let finding = client
        .session_lost(&error)
        .unwrap_or_else(|| panic!("not a lost session: {error:?}"));
    assert!(finding.explanation.contains(&session), "{finding}");
    assert_eq!(finding.rule, holdbay_engine::Rule::LegacySessionWrongStatus);
    let initialize = client.initialize();
    let again = exchange(&client, &peer.url, &initialize, never).await;
    let reopened = client
        .open_session(again.result.expect("initialize"), again.session.as_deref())
        .expect("a new session");
    assert_ne!(reopened.session_id.as_deref(), Some(session.as_str()));
}

#[tokio::test]
async fn over_stdio_through_holdbay_the_same_client_reaches_the_same_server() {
    let script = repo_path(PEER);
    let command = format!("everything=node {} stdio", script.display());
    let server = TestServer::start(&["--stdio", &command]);
    let url = format!("{}/stdio/everything", server.base());
    let mut client = open_session(&url, Binding::Stdio).await;
    assert_eq!(
        client.session_id(),
        None,
        "a stdio process is its own session"
    );
    use_session(&mut client, &url).await;
}

/// `holdbay serve`'s own 2025-11-25 endpoint: told apart by the same rule, and its booking
/// asks with the server's own `elicitation/create` on the call's open stream.
#[tokio::test]
async fn the_legacy_demo_books_a_table_by_asking_on_the_calls_stream() {
    let server = TestServer::start(&[]);
    let url = format!("{}/legacy/mcp", server.base());
    let mut client = open_session_with(&url, Binding::Http, "holdbay-legacy-demo").await;
    let list = client.list_tools(None);
    let tools = exchange(&client, &url, &list, never)
        .await
        .result
        .expect("tools/list");
    let names: Vec<&str> = tools.result.tools.iter().map(|t| t.name.as_ref()).collect();
    assert_eq!(names, ["book_table"]);

    let book = client
        .call_tool(
            "book_table",
            object(json!({"restaurant": "Chez Legacy"})),
            &RequestOptions::default(),
        )
        .expect("a call");
    let booked = exchange(&client, &url, &book, |asked| {
        assert_eq!(asked.method(), "elicitation/create");
        let ask = asked.ask();
        assert!(
            matches!(ask.kind, InputRequestKind::Form { .. }),
            "{:?}",
            ask.kind
        );
        InputAnswer::Accept(object(json!({"size": "6", "time": "19:30"})))
    })
    .await;
    assert!(
        booked
            .events
            .iter()
            .any(|e| matches!(e, ExchangeEvent::ServerRequest(_))),
        "the server asked on the call's stream"
    );
    let said = texts(&booked.result.expect("booked"));
    assert!(
        said.contains("Booked a table for 6 at 19:30 at Chez Legacy"),
        "{said}"
    );
}
