//! The real `holdbay` router on a loopback port, driven by the engine over real HTTP.

use holdbay_engine::{Client, McpMethod, OutgoingRequest, Reply, ResponseError};
use tokio::net::TcpListener;

/// The real router on a free loopback port, with a throwaway app folder.
struct Demo {
    base: String,
    http: reqwest::Client,
    _dist: tempdir::Dir,
}

impl Demo {
    async fn start() -> Self {
        let dist = tempdir::Dir::new();
        let listener = TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind loopback");
        let port = listener.local_addr().expect("bound address").port();
        let app = holdbay_server::router(port, dist.path());
        tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        Self {
            base: format!("http://127.0.0.1:{port}"),
            http: reqwest::Client::new(),
            _dist: dist,
        }
    }

    /// A POST of the engine's request to /mcp, with its headers.
    fn post<M: McpMethod>(&self, request: &OutgoingRequest<M>) -> reqwest::RequestBuilder {
        let mut post = self
            .http
            .post(format!("{}/mcp", self.base))
            .body(request.body().to_owned());
        for (name, value) in request.headers() {
            post = post.header(name.as_str(), value);
        }
        post
    }

    /// Send the engine's request and feed the response back through the engine, chunk by chunk.
    async fn exchange<M: McpMethod>(
        &self,
        request: &OutgoingRequest<M>,
    ) -> Result<Reply<M::Output>, ResponseError> {
        let mut response = self.post(request).send().await.expect("the server answers");
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
    let demo = Demo::start().await;
    let reply = demo
        .exchange(&Client::default().discover())
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
        reply.findings.is_empty(),
        "the demo server is strict: {:?}",
        reply.findings
    );
}

#[tokio::test]
async fn tools_list_names_the_demo_tools_with_descriptions() {
    let demo = Demo::start().await;
    let reply = demo
        .exchange(&Client::default().list_tools(None))
        .await
        .expect("tools/list succeeds");
    let mut names: Vec<&str> = reply.result.tools.iter().map(|t| t.name.as_ref()).collect();
    names.sort_unstable();
    assert_eq!(names, vec!["add", "echo"]);
    assert!(reply.result.tools.iter().all(|t| t.description.is_some()));
}

#[tokio::test]
async fn a_foreign_origin_is_refused() {
    let demo = Demo::start().await;
    let same_origin = demo
        .post(&Client::default().discover())
        .header("Origin", demo.base.clone())
        .send()
        .await
        .expect("the server answers");
    assert_eq!(same_origin.status(), 200, "the app's own origin is allowed");
    let foreign = demo
        .post(&Client::default().discover())
        .header("Origin", "http://evil.example")
        .send()
        .await
        .expect("the server answers");
    assert_eq!(foreign.status(), 403);
}

#[tokio::test]
async fn the_app_is_served_at_the_root_and_for_deep_links() {
    let demo = Demo::start().await;
    for path in ["/", "/lessons/anything"] {
        let page = reqwest::get(format!("{}{path}", demo.base))
            .await
            .expect("page")
            .text()
            .await
            .expect("text");
        assert!(page.contains("holdbay test page"), "{path}: {page}");
    }
}
