//! The consent page `connect_account` sends users to: it shows what is asked and records
//! Allow or Deny in the [`ConsentBook`](crate::stores::consents::ConsentBook).

use std::sync::Arc;

use axum::Router;
use axum::extract::{Form, Path, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use serde::Deserialize;
use tower_http::set_header::SetResponseHeaderLayer;

use crate::html::escape;
use crate::http::hardening;
use crate::shared::Shared;
use crate::stores::consents::Consent;

/// `GET /consent/{nonce}` shows the page; `POST` records Allow or Deny. The page runs no
/// script: its policy allows only its own style block and posting its form to itself.
pub fn routes(shared: Arc<Shared>) -> Router {
    let policy = format!(
        "default-src 'none'; style-src {}; form-action 'self'; frame-ancestors 'none'; \
         base-uri 'none'",
        hardening::hash_source(STYLE)
    );
    let policy =
        HeaderValue::from_str(&policy).unwrap_or(HeaderValue::from_static(hardening::NOTHING));
    Router::new()
        .route("/consent/{nonce}", get(show).post(decide))
        .layer(SetResponseHeaderLayer::overriding(
            header::CONTENT_SECURITY_POLICY,
            policy,
        ))
        .with_state(shared)
}

/// The page's only style, allowed by its hash.
const STYLE: &str = "body{font:16px system-ui,sans-serif;max-width:34rem;margin:3rem auto;\
                     padding:0 1rem}button{font:inherit;padding:.4rem 1.2rem;margin-right:.5rem}";

#[derive(Deserialize)]
struct Decision {
    decision: String,
}

async fn show(State(shared): State<Arc<Shared>>, Path(nonce): Path<String>) -> Response {
    match shared.consents.provider(&nonce) {
        None => gone(),
        Some((provider, Consent::Pending)) => Html(page(
            "Connect your account",
            &format!(
                "<p>Holdbay's demo server asks to connect your <strong>{}</strong> account.</p>\
                 <p>This page belongs to the server, not to the client: what you decide here \
                 never passes through the MCP client.</p>\
                 <form method=\"post\"><button name=\"decision\" value=\"allow\">Allow</button> \
                 <button name=\"decision\" value=\"deny\">Deny</button></form>",
                escape(&provider)
            ),
        ))
        .into_response(),
        Some((provider, consent)) => Html(done(&provider, consent)).into_response(),
    }
}

async fn decide(
    State(shared): State<Arc<Shared>>,
    Path(nonce): Path<String>,
    Form(decision): Form<Decision>,
) -> Response {
    let consent = match decision.decision.as_str() {
        "allow" => Consent::Granted,
        "deny" => Consent::Denied,
        _ => return (StatusCode::BAD_REQUEST, "decision must be allow or deny").into_response(),
    };
    match shared.consents.decide(&nonce, consent) {
        Some(provider) => Html(done(&provider, consent)).into_response(),
        None => gone(),
    }
}

fn done(provider: &str, consent: Consent) -> String {
    let verdict = if consent == Consent::Granted {
        "allowed"
    } else {
        "denied"
    };
    page(
        "Thank you",
        &format!(
            "<p>You {verdict} access to your <strong>{}</strong> account.</p>\
             <p>You can close this tab and return to Holdbay to continue the call.</p>",
            escape(provider)
        ),
    )
}

fn gone() -> Response {
    (
        StatusCode::NOT_FOUND,
        Html(page(
            "Consent request not found",
            "<p>This consent request is unknown or has expired. Call connect_account again.</p>",
        )),
    )
        .into_response()
}

fn page(title: &str, body: &str) -> String {
    format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width\"><title>{title}</title>\
         <style>{STYLE}</style></head><body><h1>{title}</h1>{body}</body></html>"
    )
}
