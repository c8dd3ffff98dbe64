//! The demo's prompts, resources, template and completions over real HTTP, with the engine
//! as the client: `prompts/get` and `resources/read` each pause for one MRTR round, static
//! resources carry text and blobs, a prompt carries every content kind.

mod support;

use std::collections::BTreeMap;

use holdbay_engine::model::{
    ContentBlock, GetPromptResult, ReadResourceResult, ResourceContents, Role,
};
use holdbay_engine::{
    Bounds, CompletionTarget, InputAnswer, LogicalRequest, McpMethod, Outcome, OutgoingRequest,
    Step, UriTemplate,
};
use serde_json::json;
use support::TestServer;
use support::session::{Session, decline, form};

/// Send `first` as a logical request; answer each round with `answer` until it completes
/// (at most `rounds` answered rounds).
async fn run<M: McpMethod>(
    mcp: &mut Session,
    first: OutgoingRequest<M>,
    answers: &[InputAnswer],
) -> (LogicalRequest<M>, Step<M::Output>) {
    let mut logical = LogicalRequest::start(&first, Bounds::default(), 0);
    let reply = mcp.send(&first).await.expect("the first round is answered");
    let mut step = logical.handle(reply);
    for answer in answers {
        assert!(matches!(step, Step::NeedsInput), "expected a pause");
        for key in logical.pending_inputs() {
            logical.answer(&key, answer.clone()).expect("pending");
        }
        let retry = logical.retry(&mut mcp.client, 0).expect("a retry");
        let reply = mcp.send(&retry).await.expect("the retry is answered");
        step = logical.handle(reply);
    }
    (logical, step)
}

fn arguments(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect()
}

fn prompt_of(step: Step<GetPromptResult>) -> GetPromptResult {
    match step {
        Step::Complete(result) => result,
        other => panic!("expected the prompt, got {other:?}"),
    }
}

fn read_of(step: Step<ReadResourceResult>) -> ReadResourceResult {
    match step {
        Step::Complete(result) => result,
        other => panic!("expected the contents, got {other:?}"),
    }
}

fn text_of(block: &ContentBlock) -> &str {
    match block {
        ContentBlock::Text(text) => &text.text,
        other => panic!("expected text, got {other:?}"),
    }
}

#[tokio::test]
async fn draft_note_pauses_for_the_tone_then_writes_the_messages() {
    let server = TestServer::start(&[]);
    let mut mcp = Session::new(server.mcp_url());
    let request = mcp.client.get_prompt(
        "draft_note",
        &arguments(&[("team", "ops"), ("topic", "launch")]),
    );
    let (logical, step) = run(&mut mcp, request, &[form(json!({"tone": "formal"}))]).await;
    let first = &logical.rounds()[0];
    let asked = serde_json::to_value(&first.input_requests).expect("json");
    assert_eq!(asked["tone"]["params"]["mode"], "form");
    assert_eq!(
        asked["tone"]["params"]["requestedSchema"]["required"],
        json!(["tone"])
    );
    assert!(
        first
            .request_state
            .as_deref()
            .is_some_and(|state| state.starts_with("rs1.")),
        "a sealed requestState"
    );
    let prompt = prompt_of(step);
    assert_eq!(prompt.messages.len(), 2);
    assert_eq!(prompt.messages[0].role, Role::User);
    assert_eq!(
        text_of(&prompt.messages[0].content),
        "Draft a formal note for the ops team about launch. Keep it under 120 words."
    );
    assert_eq!(prompt.messages[1].role, Role::Assistant);
}

#[tokio::test]
async fn draft_note_declined_is_written_plainly_and_needs_its_team() {
    let server = TestServer::start(&[]);
    let mut mcp = Session::new(server.mcp_url());
    let request = mcp
        .client
        .get_prompt("draft_note", &arguments(&[("team", "docs")]));
    let (_, step) = run(&mut mcp, request, &[decline()]).await;
    assert_eq!(
        text_of(&prompt_of(step).messages[0].content),
        "Draft a plain note for the docs team. Keep it under 120 words."
    );
    let missing = mcp.client.get_prompt("draft_note", &BTreeMap::new());
    let error = mcp.send(&missing).await.expect_err("team is required");
    assert!(error.to_string().contains("team"), "{error}");
}

#[tokio::test]
async fn a_tampered_prompt_state_is_refused() {
    let server = TestServer::start(&[]);
    let mut mcp = Session::new(server.mcp_url());
    let request = mcp
        .client
        .get_prompt("draft_note", &arguments(&[("team", "ops")]));
    let mut logical = LogicalRequest::start(&request, Bounds::default(), 0);
    let reply = mcp.send(&request).await.expect("round 1");
    assert!(matches!(logical.handle(reply), Step::NeedsInput));
    let state = logical.rounds()[0].request_state.clone().expect("state");
    let mut tampered: Vec<char> = state.chars().collect();
    let last = tampered.len() - 1;
    tampered[last] = if tampered[last] == 'A' { 'B' } else { 'A' };
    logical
        .tamper_request_state(tampered.into_iter().collect())
        .expect("tamper");
    logical
        .answer("tone", form(json!({"tone": "brief"})))
        .expect("pending");
    let retry = logical.retry(&mut mcp.client, 0).expect("retry");
    let error = mcp.send(&retry).await.expect_err("refused");
    assert!(
        error.to_string().contains("-32602") || error.to_string().contains("state"),
        "{error}"
    );
}

#[tokio::test]
async fn content_tour_carries_every_content_kind() {
    let server = TestServer::start(&[]);
    let mut mcp = Session::new(server.mcp_url());
    let request = mcp.client.get_prompt("content_tour", &BTreeMap::new());
    let (_, step) = run(&mut mcp, request, &[]).await;
    let kinds: Vec<&str> = prompt_of(step)
        .messages
        .iter()
        .map(|message| match &message.content {
            ContentBlock::Text(_) => "text",
            ContentBlock::Image(_) => "image",
            ContentBlock::Audio(_) => "audio",
            ContentBlock::Resource(_) => "resource",
            ContentBlock::ResourceLink(_) => "resource_link",
            _ => "other",
        })
        .collect();
    assert_eq!(
        kinds,
        ["text", "image", "audio", "resource", "resource_link"]
    );
}

#[tokio::test]
async fn static_resources_are_text_and_blobs() {
    let server = TestServer::start(&[]);
    let mut mcp = Session::new(server.mcp_url());
    let list = mcp.client.list_resources(None);
    let Outcome::Complete(listed) = mcp.send(&list).await.expect("list").result else {
        panic!("resources/list");
    };
    let uris: Vec<&str> = listed.resources.iter().map(|r| r.uri.as_str()).collect();
    assert_eq!(
        uris,
        ["demo://guide.md", "demo://logo.png", "demo://sample.bin"]
    );
    for (uri, blob_mime) in [
        ("demo://guide.md", None),
        ("demo://logo.png", Some("image/png")),
        ("demo://sample.bin", Some("application/octet-stream")),
    ] {
        let request = mcp.client.read_resource(uri);
        let (_, step) = run(&mut mcp, request, &[]).await;
        let contents = read_of(step).contents;
        match (&contents[0], blob_mime) {
            (ResourceContents::TextResourceContents { text, .. }, None) => {
                assert!(text.starts_with("# Holdbay guide"), "{text}")
            }
            (
                ResourceContents::BlobResourceContents {
                    mime_type, blob, ..
                },
                Some(mime),
            ) => {
                assert_eq!(mime_type.as_deref(), Some(mime));
                assert!(!blob.is_empty());
            }
            (other, _) => panic!("{uri}: {other:?}"),
        }
    }
}

#[tokio::test]
async fn the_notes_template_expands_then_pauses_for_a_reason() {
    let server = TestServer::start(&[]);
    let mut mcp = Session::new(server.mcp_url());
    let list = mcp.client.list_resource_templates(None);
    let Outcome::Complete(listed) = mcp.send(&list).await.expect("list").result else {
        panic!("resources/templates/list");
    };
    let template = &listed.resource_templates[0].uri_template;
    let parsed = UriTemplate::parse(template).expect("a valid template");
    assert_eq!(parsed.variables(), ["team", "day", "lang"]);
    let uri = parsed.expand(&arguments(&[
        ("team", "ops"),
        ("day", "today"),
        ("lang", "fr"),
    ]));
    assert_eq!(uri, "demo://notes/ops/today?lang=fr");

    let request = mcp.client.read_resource(&uri);
    let (logical, step) = run(
        &mut mcp,
        request,
        &[form(json!({"reason": "weekly review"}))],
    )
    .await;
    assert_eq!(logical.rounds().len(), 2, "one pause, one answer");
    let contents = read_of(step).contents;
    let ResourceContents::TextResourceContents {
        uri: read, text, ..
    } = &contents[0]
    else {
        panic!("text contents");
    };
    assert_eq!(read, &uri);
    assert!(text.contains("Notes of the ops team, today (fr)"), "{text}");
    assert!(text.contains("Read because: weekly review"), "{text}");

    // Declining ends the read with an error; an unknown team is not found.
    let request = mcp.client.read_resource("demo://notes/ops/monday");
    let mut logical = LogicalRequest::start(&request, Bounds::default(), 0);
    let reply = mcp.send(&request).await.expect("round 1");
    assert!(matches!(logical.handle(reply), Step::NeedsInput));
    logical.answer("reason", decline()).expect("pending");
    let retry = logical.retry(&mut mcp.client, 0).expect("retry");
    assert!(mcp.send(&retry).await.is_err(), "declined");
    let unknown = mcp.client.read_resource("demo://notes/nobody/today");
    assert!(mcp.send(&unknown).await.is_err(), "unknown team");
}

#[tokio::test]
async fn completions_for_a_prompt_argument_and_a_template_variable() {
    let server = TestServer::start(&[]);
    let mut mcp = Session::new(server.mcp_url());
    let complete = |mcp: &mut Session, target: CompletionTarget, name: &str, value: &str| {
        mcp.client.complete(&target, name, value, &BTreeMap::new())
    };
    let request = complete(
        &mut mcp,
        CompletionTarget::Prompt("draft_note".into()),
        "team",
        "d",
    );
    let Outcome::Complete(result) = mcp.send(&request).await.expect("complete").result else {
        panic!("completion/complete");
    };
    assert_eq!(result.completion.values, ["design", "docs"]);
    let request = complete(
        &mut mcp,
        CompletionTarget::Template("demo://notes/{team}/{day}{?lang}".into()),
        "day",
        "T",
    );
    let Outcome::Complete(result) = mcp.send(&request).await.expect("complete").result else {
        panic!("completion/complete");
    };
    assert_eq!(result.completion.values, ["today", "tuesday", "thursday"]);
}
