//! `holdbay check URL`: the engine's probes run natively (no browser), one request at a
//! time over HTTP; the card printed as text, JSON, Markdown or JUnit XML.

use std::time::Duration;

use holdbay_engine::check::{
    CheckOptions, CheckReport, CheckRun, Level, ProbeRequest, ProbeResponse,
};

/// Each probe's answer is waited for this long.
const PROBE_TIMEOUT: Duration = Duration::from_secs(10);
/// A probe reads at most this much of a body (an SSE stream that never ends is cut).
const MAX_BODY_BYTES: usize = 1024 * 1024;

/// How the card is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum CheckFormat {
    Text,
    Json,
    Markdown,
    Junit,
}

/// Which failures make `holdbay check` exit non-zero.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum FailOn {
    Must,
    Should,
}

impl FailOn {
    pub fn level(self) -> Level {
        match self {
            Self::Must => Level::Must,
            Self::Should => Level::Should,
        }
    }
}

/// Check the server at `url`; `progress` hears each request as it goes.
pub async fn check(
    url: &str,
    options: CheckOptions,
    progress: &mut dyn FnMut(&str),
) -> anyhow::Result<CheckReport> {
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(PROBE_TIMEOUT)
        .build()?;
    let mut run = CheckRun::new(url, options);
    while let Some(request) = run.next_request() {
        progress(&request.label);
        let response = send(&client, url, &request).await;
        run.take(request, response);
    }
    Ok(run.report())
}

async fn send(
    client: &reqwest::Client,
    url: &str,
    request: &ProbeRequest,
) -> Result<ProbeResponse, String> {
    let method = reqwest::Method::from_bytes(request.http_method.as_bytes())
        .map_err(|error| error.to_string())?;
    let mut builder = client.request(method, url);
    for (name, value) in &request.headers {
        builder = builder.header(name, value);
    }
    if let Some(body) = &request.body {
        builder = builder.body(body.clone());
    }
    let mut response = builder.send().await.map_err(|error| error.to_string())?;
    let status = response.status().as_u16();
    let headers = response
        .headers()
        .iter()
        .map(|(name, value)| {
            (
                name.as_str().to_owned(),
                String::from_utf8_lossy(value.as_bytes()).into_owned(),
            )
        })
        .collect();
    let mut body = Vec::new();
    // An event stream ends with its answer; one that does not is read until the timeout.
    while let Ok(Some(chunk)) = response.chunk().await {
        body.extend_from_slice(&chunk);
        if body.len() >= MAX_BODY_BYTES
            || ProbeResponse::holds_answer(&String::from_utf8_lossy(&body))
        {
            break;
        }
    }
    Ok(ProbeResponse {
        status,
        headers,
        body: String::from_utf8_lossy(&body).into_owned(),
    })
}

/// The card in `format`.
pub fn render(report: &CheckReport, format: CheckFormat) -> anyhow::Result<String> {
    Ok(match format {
        CheckFormat::Text => report.to_text(),
        CheckFormat::Json => serde_json::to_string_pretty(report)?,
        CheckFormat::Markdown => report.to_markdown(),
        CheckFormat::Junit => report.to_junit(),
    })
}
