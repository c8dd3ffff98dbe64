//! A small MCP-less HTTP server on 127.0.0.1:0 for the relay to reach: it echoes what it
//! received, sets a cookie, redirects, and streams events when told.

use std::collections::BTreeMap;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::http::{HeaderMap, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{any, get};
use futures::StreamExt;
use tokio::sync::Notify;

/// The first event of `/stream`; the second comes only after [`Upstream::release`].
pub const FIRST_EVENT: &str = "data: first\n\n";
pub const SECOND_EVENT: &str = "data: second\n\n";

pub struct Upstream {
    pub address: SocketAddr,
    release: Arc<Notify>,
}

impl Upstream {
    /// Serve `/echo`, `/redirect` and `/stream` on a free loopback port.
    pub async fn start() -> Self {
        let release = Arc::new(Notify::new());
        let stream_release = Arc::clone(&release);
        let app = Router::new()
            .route("/echo", any(echo))
            .route("/redirect", any(redirect))
            .route("/stream", get(move || stream(Arc::clone(&stream_release))));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind loopback");
        let address = listener.local_addr().expect("bound address");
        tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        Self { address, release }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.address)
    }

    /// Let `/stream` send its second event and end.
    pub fn release(&self) {
        self.release.notify_one();
    }
}

/// `{"method": ..., "headers": {name: value}, "body": ...}`, with a cookie set.
async fn echo(method: Method, headers: HeaderMap, body: Bytes) -> Response {
    let received: BTreeMap<String, String> = headers
        .iter()
        .map(|(name, value)| {
            (
                name.as_str().to_owned(),
                String::from_utf8_lossy(value.as_bytes()).into_owned(),
            )
        })
        .collect();
    let echoed = serde_json::json!({
        "method": method.as_str(),
        "headers": received,
        "body": String::from_utf8_lossy(&body),
    });
    (
        [
            (header::CONTENT_TYPE, "application/json"),
            (header::SET_COOKIE, "upstream-session=secret; Path=/"),
        ],
        echoed.to_string(),
    )
        .into_response()
}

async fn redirect() -> Response {
    (StatusCode::FOUND, [(header::LOCATION, "/echo")]).into_response()
}

async fn stream(release: Arc<Notify>) -> Response {
    let first = futures::stream::once(async { Ok::<_, Infallible>(Bytes::from(FIRST_EVENT)) });
    let second = futures::stream::once(async move {
        release.notified().await;
        Ok::<_, Infallible>(Bytes::from(SECOND_EVENT))
    });
    (
        [(header::CONTENT_TYPE, "text/event-stream")],
        Body::from_stream(first.chain(second)),
    )
        .into_response()
}
