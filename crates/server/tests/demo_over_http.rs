//! The real `holdbay` router on a loopback port, driven by the engine over real HTTP.

use std::path::Path;

use holdbay_engine::{Client, McpMethod, OutgoingRequest, Reply, ResponseError};
use tokio::net::TcpListener;

/// Serve the router (with `dist` as the app folder) on a free port; returns its base URL.
async fn start(dist: &Path) -> String {
    let listener = TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind loopback");
    let port = listener.local_addr().expect("bound address").port();
    let app = holdbay_server::router(port, dist);
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    format!("http://127.0.0.1:{port}")
}

/// POST the engine's request and feed the response back through the engine, chunk by chunk.
async fn exchange<M: McpMethod>(
    http: &reqwest::Client,
    url: &str,
    request: &OutgoingRequest<M>,
) -> Result<Reply<M::Output>, ResponseError> {
    let mut post = http.post(url).body(request.body().to_owned());
    for (name, value) in request.headers() {
        post = post.header(*name, value);
    }
    let mut response = post.send().await.expect("the server answers");
    let content_type = response
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    let mut reader = request.reader(response.status().as_u16(), content_type.as_deref());
    while let Some(chunk) = response.chunk().await.expect("body arrives") {
        reader.push_chunk(&chunk);
    }
    reader.finish()
}

fn empty_dist() -> tempdir::Dir {
    tempdir::Dir::new()
}

/// A throwaway app folder with a marker page.
mod tempdir {
    use std::path::{Path, PathBuf};

    pub struct Dir(PathBuf);

    impl Dir {
        pub fn new() -> Self {
            let path = std::env::temp_dir().join(format!(
                "holdbay-dist-{}-{:?}",
                std::process::id(),
                std::thread::current().id()
            ));
            std::fs::create_dir_all(&path).expect("temp dir");
            std::fs::write(path.join("index.html"), "<title>holdbay test page</title>")
                .expect("index.html");
            Self(path)
        }

        pub fn path(&self) -> &Path {
            &self.0
        }
    }

    impl Drop for Dir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

#[tokio::test]
async fn discover_reports_the_demo_server_and_2026_07_28() {
    let dist = empty_dist();
    let base = start(dist.path()).await;
    let mut client = Client::default();
    let reply = exchange(
        &reqwest::Client::new(),
        &format!("{base}/mcp"),
        &client.discover(),
    )
    .await
    .expect("discover succeeds");
    let info = reply.result.server_info().expect("serverInfo in _meta");
    assert_eq!(info.name, holdbay_server::demo::SERVER_NAME);
    assert_eq!(info.version, env!("CARGO_PKG_VERSION"));
    let versions: Vec<String> = reply
        .result
        .supported_versions
        .iter()
        .map(|v| v.to_string())
        .collect();
    assert_eq!(versions, vec!["2026-07-28"]);
    assert!(reply.result.capabilities.tools.is_some());
    assert!(
        reply.notes.is_empty(),
        "the demo server is strict: {:?}",
        reply.notes
    );
}

#[tokio::test]
async fn tools_list_names_the_demo_tools_with_descriptions() {
    let dist = empty_dist();
    let base = start(dist.path()).await;
    let mut client = Client::default();
    let reply = exchange(
        &reqwest::Client::new(),
        &format!("{base}/mcp"),
        &client.list_tools(None),
    )
    .await
    .expect("tools/list succeeds");
    let mut names: Vec<&str> = reply.result.tools.iter().map(|t| t.name.as_ref()).collect();
    names.sort_unstable();
    assert_eq!(names, vec!["add", "echo"]);
    assert!(reply.result.tools.iter().all(|t| t.description.is_some()));
}

#[tokio::test]
async fn a_foreign_origin_is_refused() {
    let dist = empty_dist();
    let base = start(dist.path()).await;
    let mut client = Client::default();
    let request = client.discover();
    let mut post = reqwest::Client::new()
        .post(format!("{base}/mcp"))
        .header("Origin", "http://evil.example")
        .body(request.body().to_owned());
    for (name, value) in request.headers() {
        post = post.header(*name, value);
    }
    let response = post.send().await.expect("the server answers");
    assert_eq!(response.status(), 403);
}

#[tokio::test]
async fn the_app_is_served_at_the_root_and_for_deep_links() {
    let dist = empty_dist();
    let base = start(dist.path()).await;
    for path in ["/", "/lessons/anything"] {
        let page = reqwest::get(format!("{base}{path}"))
            .await
            .expect("page")
            .text()
            .await
            .expect("text");
        assert!(page.contains("holdbay test page"), "{path}: {page}");
    }
}
