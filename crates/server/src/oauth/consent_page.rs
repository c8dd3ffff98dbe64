//! The authorization server's pages: the consent page (Allow or Deny) and the page that
//! explains an error that must not be redirected. Server-rendered, no script, every value
//! escaped; the app's colours, light and dark.

use axum::response::{Html, IntoResponse, Response};
use http::{HeaderValue, StatusCode, header};

use super::scopes;
use crate::html::escape;
use crate::http::hardening;

const STYLE: &str = ":root{color-scheme:light dark;--ink:#1d2430;--muted:#5d6878;--paper:#f6f4ef;\
--panel:#fff;--line:#d9d4c8;--accent:#b3510e;--on-accent:#fff;--bad:#a4262c;--focus:#1a5fd0}\
@media (prefers-color-scheme:dark){:root{--ink:#e4e7ec;--muted:#9aa4b2;--paper:#14171c;\
--panel:#1c2027;--line:#333a45;--accent:#f08a3c;--on-accent:#1b1410;--bad:#f07178;--focus:#7fb0ff}}\
body{font:16px system-ui,-apple-system,\"Segoe UI\",sans-serif;color:var(--ink);\
background:var(--paper);max-width:36rem;margin:3rem auto;padding:0 1rem}\
main{background:var(--panel);border:1px solid var(--line);border-radius:8px;padding:1rem 1.5rem}\
code{overflow-wrap:anywhere}.muted{color:var(--muted)}.error{color:var(--bad)}\
button{font:inherit;padding:.5rem 1.4rem;margin-right:.6rem;border-radius:6px;\
border:1px solid var(--accent);background:var(--panel);color:var(--ink)}\
button.allow{background:var(--accent);color:var(--on-accent)}\
button:focus-visible{outline:3px solid var(--focus);outline-offset:2px}";

/// What the consent page shows.
pub struct ConsentView<'a> {
    pub request_id: &'a str,
    pub client_name: &'a str,
    pub client_id: &'a str,
    pub redirect_uri: &'a str,
    pub scopes: &'a [String],
    pub resource: &'a str,
}

/// The consent page. `form_target` is the redirect target's origin, which the page's
/// policy must let the form's answer go to.
pub fn consent(view: &ConsentView<'_>, form_target: &str) -> Response {
    let scopes: String = view
        .scopes
        .iter()
        .map(|scope| {
            format!(
                "<li><code>{}</code>: {}</li>",
                escape(scope),
                escape(scopes::describe(scope))
            )
        })
        .collect();
    let body = format!(
        "<p><strong>{name}</strong> asks to use the Holdbay demo MCP server \
         (<code>{resource}</code>) on your behalf.</p>\
         <p class=\"muted\">Client id: <code>{client_id}</code></p>\
         <h2>It asks to</h2><ul>{scopes}</ul>\
         <p>If you allow it, you will be sent back to <code>{redirect}</code>.</p>\
         <form method=\"post\"><input type=\"hidden\" name=\"request_id\" value=\"{id}\">\
         <button class=\"allow\" name=\"decision\" value=\"allow\">Allow</button>\
         <button name=\"decision\" value=\"deny\">Deny</button></form>",
        name = escape(view.client_name),
        resource = escape(view.resource),
        client_id = escape(view.client_id),
        redirect = escape(view.redirect_uri),
        id = escape(view.request_id),
    );
    with_policy(
        StatusCode::OK,
        page("Allow access?", &body),
        &format!("'self' {form_target}"),
    )
}

/// An error shown to the user because it cannot be sent back to the client.
pub fn error(status: StatusCode, message: &str) -> Response {
    let body = format!(
        "<p class=\"error\" role=\"alert\">{}</p>\
         <p class=\"muted\">This error is shown here, not sent to the client, because the \
         client or its redirect address could not be trusted.</p>",
        escape(message)
    );
    with_policy(status, page("Authorization failed", &body), "'none'")
}

fn with_policy(status: StatusCode, html: String, form_action: &str) -> Response {
    let policy = format!(
        "default-src 'none'; style-src {}; form-action {form_action}; frame-ancestors 'none'; \
         base-uri 'none'",
        hardening::hash_source(STYLE)
    );
    let mut response = (status, Html(html)).into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_str(&policy).unwrap_or(HeaderValue::from_static(hardening::NOTHING)),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    // Under `no-referrer` a browser sends `Origin: null` with the form's POST, which the
    // Origin guard refuses: `same-origin` sends this origin and still no referrer elsewhere.
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("same-origin"),
    );
    response
}

fn page(title: &str, body: &str) -> String {
    format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width\"><title>{title} · Holdbay</title>\
         <style>{STYLE}</style></head><body><main><h1>{title}</h1>{body}</main></body></html>"
    )
}

#[cfg(test)]
mod tests {
    use crate::html::escape;

    #[test]
    fn markup_in_values_is_escaped() {
        assert_eq!(
            escape("<b a=\"x\">&'"),
            "&lt;b a=&quot;x&quot;&gt;&amp;&#39;"
        );
    }
}
