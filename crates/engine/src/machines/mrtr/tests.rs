use serde_json::{Value, json};

use super::*;
use crate::builders::client::RequestOptions;
use crate::vocabulary::method::CallTool;

fn body(request: &OutgoingRequest<CallTool>) -> Value {
    serde_json::from_str(request.body()).expect("JSON body")
}

/// The server's answer to `request`, as real wire JSON through the engine's reader.
fn answer(
    request: &OutgoingRequest<CallTool>,
    result: Value,
) -> Reply<Outcome<rmcp::model::CallToolResult>> {
    let id = body(request)["id"].clone();
    let wire = json!({"jsonrpc": "2.0", "id": id, "result": result});
    let mut reader = request.reader(200, Some("application/json"));
    reader.push_chunk(wire.to_string().as_bytes());
    reader.finish_outcome().expect("valid reply")
}

/// The user ticks "ok" on the confirm form.
fn approve() -> InputAnswer {
    InputAnswer::Accept(json!({"ok": true}).as_object().cloned())
}

fn confirm_round(state: Option<&str>) -> Value {
    let mut result = json!({"resultType": "input_required", "inputRequests": {"confirm": {
        "method": "elicitation/create",
        "params": {"mode": "form", "message": "Sure?", "requestedSchema": {
            "type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}}}}});
    if let Some(state) = state {
        result["requestState"] = json!(state);
    }
    result
}

fn start(
    client: &mut Client,
    bounds: Bounds,
) -> (LogicalRequest<CallTool>, OutgoingRequest<CallTool>) {
    let args = json!({"path": "report.txt"});
    let first = client
        .call_tool(
            "delete",
            args.as_object().cloned(),
            &RequestOptions::default(),
        )
        .expect("call");
    (LogicalRequest::start(&first, bounds, 0), first)
}

#[test]
fn retry_echoes_request_state_byte_for_byte() {
    let mut client = Client::default();
    let (mut call, first) = start(&mut client, Bounds::default());
    // Raw JSON text with quotes, as the conformance mock sends it.
    let state = r#"{"nonce":"a\"b","originalId":101} ünïcode"#;
    assert!(matches!(
        call.handle(answer(&first, confirm_round(Some(state)))),
        Step::NeedsInput
    ));
    call.answer("confirm", approve()).expect("asked");
    let retry = call.retry(&mut client, 1).expect("all answered");
    let sent = body(&retry);
    assert_eq!(sent["params"]["requestState"], state);
    assert_eq!(
        sent["params"]["inputResponses"]["confirm"]["action"],
        "accept"
    );
}

#[test]
fn retry_is_a_new_request_with_the_original_params() {
    let mut client = Client::default();
    let (mut call, first) = start(&mut client, Bounds::default());
    call.handle(answer(&first, confirm_round(Some("s"))));
    call.answer("confirm", InputAnswer::Decline).expect("asked");
    let retry = call.retry(&mut client, 1).expect("retry");
    let (a, b) = (body(&first), body(&retry));
    assert_ne!(a["id"], b["id"]);
    assert_eq!(b["method"], "tools/call");
    assert_eq!(b["params"]["name"], a["params"]["name"]);
    assert_eq!(b["params"]["arguments"], a["params"]["arguments"]);
    assert_eq!(
        b["params"]["_meta"], a["params"]["_meta"],
        "full _meta again"
    );
    assert_eq!(call.rounds().len(), 2);
}

#[test]
fn retry_omits_request_state_when_the_server_sent_none() {
    let mut client = Client::default();
    let (mut call, first) = start(&mut client, Bounds::default());
    call.handle(answer(&first, confirm_round(None)));
    call.answer("confirm", InputAnswer::Cancel).expect("asked");
    let retry = call.retry(&mut client, 1).expect("retry");
    assert!(body(&retry)["params"].get("requestState").is_none());
}

#[test]
fn a_request_state_only_round_may_retry_at_once() {
    let mut client = Client::default();
    let (mut call, first) = start(&mut client, Bounds::default());
    let step = call.handle(answer(
        &first,
        json!({"resultType": "input_required", "requestState": "busy"}),
    ));
    assert!(matches!(step, Step::RetryWithoutInput));
    let retry = call.retry(&mut client, 1).expect("nothing to answer");
    assert_eq!(body(&retry)["params"]["requestState"], "busy");
    assert_eq!(body(&retry)["params"]["inputResponses"], json!({}));
}

#[test]
fn every_key_must_be_answered_before_the_retry() {
    let mut client = Client::default();
    let (mut call, first) = start(&mut client, Bounds::default());
    call.handle(answer(&first, confirm_round(Some("s"))));
    assert_eq!(
        call.retry(&mut client, 1).expect_err("unanswered"),
        MrtrError::Unanswered {
            missing: vec!["confirm".into()]
        }
    );
    assert_eq!(
        call.answer("other", InputAnswer::Accept(None)),
        Err(MrtrError::UnknownKey {
            key: "other".into()
        })
    );
}

#[test]
fn rounds_stop_at_the_bound_with_an_error_naming_it() {
    let mut client = Client::default();
    let bounds = Bounds {
        max_rounds: 3,
        ..Bounds::default()
    };
    let (mut call, mut latest) = start(&mut client, bounds);
    let mut outcome = Ok(());
    for round in 0..5 {
        call.handle(answer(&latest, confirm_round(Some(&round.to_string()))));
        call.answer("confirm", approve()).expect("asked");
        match call.retry(&mut client, round) {
            Ok(next) => latest = next,
            Err(error) => {
                outcome = Err(error);
                break;
            }
        }
    }
    let error = outcome.expect_err("the bound stops it");
    assert_eq!(
        error,
        MrtrError::TooManyRounds {
            rounds: 3,
            limit: 3
        }
    );
    assert!(error.to_string().contains("max_rounds"));
    assert_eq!(call.rounds().len(), 3);
}

#[test]
fn elapsed_time_is_bounded() {
    let mut client = Client::default();
    let bounds = Bounds {
        max_elapsed_ms: 1000,
        ..Bounds::default()
    };
    let (mut call, first) = start(&mut client, bounds);
    call.handle(answer(&first, confirm_round(Some("s"))));
    call.answer("confirm", InputAnswer::Decline).expect("asked");
    let error = call.retry(&mut client, 5000).expect_err("too late");
    assert!(error.to_string().contains("max_elapsed_ms"), "{error}");
}

#[test]
fn payload_size_is_bounded() {
    let mut client = Client::default();
    let bounds = Bounds {
        max_payload_bytes: 600,
        ..Bounds::default()
    };
    let (mut call, first) = start(&mut client, bounds);
    call.handle(answer(&first, confirm_round(Some(&"x".repeat(700)))));
    call.answer("confirm", InputAnswer::Decline).expect("asked");
    let error = call.retry(&mut client, 1).expect_err("too big");
    assert!(
        matches!(error, MrtrError::PayloadTooLarge { limit: 600, .. }),
        "{error}"
    );
}

#[test]
fn a_task_answer_ends_the_rounds() {
    let mut client = Client::default();
    let first = client
        .call_tool(
            "deploy",
            None,
            &RequestOptions {
                accept_task: true,
                ..Default::default()
            },
        )
        .expect("call");
    let mut call = LogicalRequest::start(&first, Bounds::default(), 0);
    let step = call.handle(answer(
        &first,
        json!({"resultType": "task", "taskId": "t1",
        "status": "working", "createdAt": "2026-11-29T00:00:00Z",
        "lastUpdatedAt": "2026-11-29T00:00:00Z", "ttlMs": 60000, "pollIntervalMs": 500}),
    ));
    let Step::Task(task) = step else {
        panic!("expected a task")
    };
    assert_eq!(task.task.task_id, "t1");
    assert_eq!(
        call.retry(&mut client, 1).expect_err("no retry"),
        MrtrError::NotWaitingForInput
    );
}

fn rpc_error(code: i32) -> ResponseError {
    ResponseError::rpc(
        400,
        rmcp::model::ErrorData::new(rmcp::model::ErrorCode(code), "m", None),
    )
}

#[test]
fn header_mismatch_relists_and_resends_once() {
    let mut client = Client::default();
    let (mut call, first) = start(&mut client, Bounds::default());
    assert_eq!(
        call.handle_error(&rpc_error(-32020)),
        ErrorStep::RelistToolsAndResend
    );
    let resent = call.resend(&mut client).expect("first resend");
    assert_ne!(body(&resent)["id"], body(&first)["id"]);
    assert_eq!(
        body(&resent)["params"]["arguments"],
        body(&first)["params"]["arguments"]
    );
    assert_eq!(call.rounds().len(), 1, "a resend is the same round");
    assert_eq!(call.handle_error(&rpc_error(-32020)), ErrorStep::Fail);
    assert_eq!(
        call.resend(&mut client).expect_err("once"),
        MrtrError::AlreadyResent
    );
}

#[test]
fn other_errors_fail_the_request() {
    let mut client = Client::default();
    let (mut call, _) = start(&mut client, Bounds::default());
    assert_eq!(call.handle_error(&rpc_error(-32602)), ErrorStep::Fail);
}

#[test]
fn a_reply_after_cancel_is_ignored() {
    let mut client = Client::default();
    let (mut call, first) = start(&mut client, Bounds::default());
    let closed = call.cancel().expect("the stream to close");
    assert_eq!(closed, first.id().clone());
    let step = call.handle(answer(
        &first,
        json!({"resultType": "complete", "content": []}),
    ));
    assert!(matches!(step, Step::Cancelled));
}

#[test]
fn a_tampered_latch_goes_out_once_and_only_when_asked() {
    let mut client = Client::default();
    let (mut call, first) = start(&mut client, Bounds::default());
    assert!(matches!(
        call.tamper_request_state("x".into()),
        Err(MrtrError::NotWaitingForInput)
    ));
    call.handle(answer(&first, confirm_round(Some("sealed"))));
    call.tamper_request_state("sealeD".into()).expect("paused");
    call.answer("confirm", InputAnswer::Decline).expect("asked");
    let retry = call.retry(&mut client, 1).expect("retry");
    assert_eq!(body(&retry)["params"]["requestState"], "sealeD");
    assert_eq!(
        call.rounds()[0].request_state.as_deref(),
        Some("sealed"),
        "the server's latch is kept as it was"
    );
    call.handle(answer(&retry, confirm_round(Some("sealed-2"))));
    call.answer("confirm", InputAnswer::Decline).expect("asked");
    let next = call.retry(&mut client, 2).expect("retry");
    assert_eq!(body(&next)["params"]["requestState"], "sealed-2");
}

/// Two asks, written by the server in an order that is not key order.
fn sign_in_then_approve_round() -> Value {
    json!({"resultType": "input_required", "requestState": "s2", "inputRequests": {
        "zz_sign_in": {"method": "elicitation/create", "params": {"mode": "url",
            "message": "Sign in to Example", "url": "https://auth.example.com/login?state=abc"}},
        "aa_approve": {"method": "elicitation/create", "params": {"mode": "form",
            "message": "Approve?", "requestedSchema": {"type": "object",
            "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}}}}})
}

#[test]
fn an_answer_goes_on_the_wire_as_the_kind_asked_wants_it() {
    let mut client = Client::default();
    let (mut call, first) = start(&mut client, Bounds::default());
    call.handle(answer(&first, sign_in_then_approve_round()));
    call.answer("zz_sign_in", InputAnswer::Accept(None))
        .expect("consent");
    call.answer("aa_approve", approve()).expect("content");
    let sent = body(&call.retry(&mut client, 1).expect("retry"));
    assert_eq!(
        sent["params"]["inputResponses"],
        json!({"zz_sign_in": {"action": "accept"},
            "aa_approve": {"action": "accept", "content": {"ok": true}}})
    );
}

#[test]
fn an_answer_that_does_not_fit_the_kind_is_not_taken() {
    let mut client = Client::default();
    let (mut call, first) = start(&mut client, Bounds::default());
    call.handle(answer(&first, confirm_round(Some("s"))));
    assert_eq!(
        call.answer("confirm", InputAnswer::Accept(None)),
        Err(MrtrError::Answer(AnswerError::MissingFormContent))
    );
    assert_eq!(call.pending_inputs(), ["confirm"]);
}

#[test]
fn unanswered_asks_keep_the_servers_order_and_kinds() {
    let mut client = Client::default();
    let (mut call, first) = start(&mut client, Bounds::default());
    call.handle(answer(&first, sign_in_then_approve_round()));
    let asks = call.unanswered_asks();
    let keys: Vec<&str> = asks.iter().map(|ask| ask.key.as_str()).collect();
    assert_eq!(keys, ["zz_sign_in", "aa_approve"]);
    assert!(matches!(
        &asks[0].kind,
        InputRequestKind::Url { url, .. } if url == "https://auth.example.com/login?state=abc"
    ));
    assert_eq!(asks[1].json["params"]["message"], "Approve?");
    call.answer("zz_sign_in", InputAnswer::Decline)
        .expect("asked");
    let left: Vec<String> = call.unanswered_asks().into_iter().map(|a| a.key).collect();
    assert_eq!(left, ["aa_approve"]);
}

#[test]
fn a_round_keeps_the_users_choices_beside_the_wire_answers() {
    let mut client = Client::default();
    let (mut call, first) = start(&mut client, Bounds::default());
    call.handle(answer(&first, confirm_round(Some("s"))));
    call.answer("confirm", InputAnswer::Cancel).expect("asked");
    let latest = &call.rounds()[0];
    assert_eq!(latest.choices["confirm"], InputAnswer::Cancel);
    assert_eq!(latest.answers["confirm"], json!({"action": "cancel"}));
}

#[test]
fn an_unanswered_round_is_sent_again_under_a_new_id_with_the_same_params() {
    let mut client = Client::default();
    let (mut call, first) = start(&mut client, Bounds::default());
    call.handle(answer(&first, confirm_round(Some("sealed"))));
    call.answer("confirm", approve()).expect("asked");
    let retry = call.retry(&mut client, 1).expect("retry");
    // The browser refused the retry the way CORS does: no HTTP answer at all.
    let again = call.resend_unanswered(&mut client).expect("unanswered");
    let (sent, resent) = (body(&retry), body(&again));
    assert_ne!(resent["id"], sent["id"]);
    assert_eq!(resent["params"], sent["params"]);
    assert_eq!(call.rounds().len(), 2, "the same round, not a new one");
    assert_eq!(&call.rounds()[1].request_id, again.id());
    assert_eq!(call.rounds()[1].request_body, again.body());
}

#[test]
fn an_unanswered_round_is_sent_again_with_the_tampered_latch() {
    let mut client = Client::default();
    let (mut call, first) = start(&mut client, Bounds::default());
    call.handle(answer(&first, confirm_round(Some("sealed"))));
    call.tamper_request_state("sealeD".into()).expect("paused");
    call.answer("confirm", InputAnswer::Decline).expect("asked");
    call.retry(&mut client, 1).expect("retry");
    let again = call.resend_unanswered(&mut client).expect("unanswered");
    assert_eq!(body(&again)["params"]["requestState"], "sealeD");
}

#[test]
fn a_round_that_got_an_answer_is_not_sent_again_as_unanswered() {
    let mut client = Client::default();
    let (mut call, first) = start(&mut client, Bounds::default());
    call.handle(answer(&first, confirm_round(Some("s"))));
    assert_eq!(
        call.resend_unanswered(&mut client).expect_err("answered"),
        MrtrError::AlreadyAnswered
    );
    let (mut failed, _) = start(&mut client, Bounds::default());
    failed.handle_error(&rpc_error(-32602));
    assert_eq!(
        failed.resend_unanswered(&mut client).expect_err("answered"),
        MrtrError::AlreadyAnswered
    );
}

#[test]
fn a_cancelled_request_is_not_sent_again() {
    let mut client = Client::default();
    let (mut call, _) = start(&mut client, Bounds::default());
    call.cancel();
    assert_eq!(
        call.resend_unanswered(&mut client).expect_err("cancelled"),
        MrtrError::Cancelled
    );
}

#[test]
fn a_relay_resend_leaves_the_header_mismatch_resend_available() {
    let mut client = Client::default();
    let (mut call, _) = start(&mut client, Bounds::default());
    let again = call.resend_unanswered(&mut client).expect("unanswered");
    assert_eq!(call.rounds()[0].request_id, again.id().clone());
    assert_eq!(
        call.handle_error(&rpc_error(-32020)),
        ErrorStep::RelistToolsAndResend
    );
    call.resend(&mut client)
        .expect("the -32020 resend is still there");
}
