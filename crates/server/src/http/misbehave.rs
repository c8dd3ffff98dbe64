//! `--fixtures misbehave`: this server breaks four named rules on purpose, so that
//! `holdbay check` and the app's card have a server to fail. It no longer sees a routing
//! header that disagrees with its body (`headers.method-mismatch`,
//! `headers.name-mismatch`: the headers are rewritten to match before the checks run), its
//! preflight forgets `Mcp-Name` (`cors.preflight`) and its responses do not expose
//! `WWW-Authenticate` (`cors.expose-www-authenticate`). Everything else is as usual.

use axum::body::Body;
use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::Response;
use http::{HeaderName, HeaderValue, Method, header};

use super::body_limit::{BodyLimit, read_bounded};

/// Whether the fixture is on, and the body limit its reading keeps to.
#[derive(Debug, Clone, Copy)]
pub struct Misbehave {
    pub on: bool,
    pub limit: BodyLimit,
}

/// Middleware, outside the CORS guard: see the module's comment.
pub async fn layer(State(misbehave): State<Misbehave>, request: Request, next: Next) -> Response {
    if !misbehave.on {
        return next.run(request).await;
    }
    let request = if request.method() == Method::POST {
        let (mut parts, body) = request.into_parts();
        let bytes = match read_bounded(body, misbehave.limit.0).await {
            Ok(bytes) => bytes,
            Err(too_large) => return too_large,
        };
        if let Ok(json) = serde_json::from_slice::<serde_json::Value>(&bytes) {
            let params = &json["params"];
            let name = ["name", "uri", "taskId"]
                .iter()
                .find_map(|field| params.get(*field).and_then(serde_json::Value::as_str));
            overwrite(&mut parts.headers, "mcp-method", json["method"].as_str());
            overwrite(&mut parts.headers, "mcp-name", name);
        }
        Request::from_parts(parts, Body::from(bytes))
    } else {
        request
    };
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    drop_listed(headers, header::ACCESS_CONTROL_ALLOW_HEADERS, "mcp-name");
    drop_listed(
        headers,
        header::ACCESS_CONTROL_EXPOSE_HEADERS,
        "www-authenticate",
    );
    response
}

fn overwrite(headers: &mut http::HeaderMap, name: &'static str, value: Option<&str>) {
    let value = value.and_then(|value| HeaderValue::from_str(value).ok());
    if let Some(value) = value
        && headers.contains_key(name)
    {
        headers.insert(HeaderName::from_static(name), value);
    }
}

/// Header `name`'s comma-separated list without `item` (any case).
fn drop_listed(headers: &mut http::HeaderMap, name: HeaderName, item: &str) {
    let Some(list) = headers.get(&name).and_then(|value| value.to_str().ok()) else {
        return;
    };
    let kept: Vec<&str> = list
        .split(',')
        .map(str::trim)
        .filter(|listed| !listed.eq_ignore_ascii_case(item))
        .collect();
    if let Ok(value) = HeaderValue::from_str(&kept.join(", ")) {
        headers.insert(name, value);
    }
}
