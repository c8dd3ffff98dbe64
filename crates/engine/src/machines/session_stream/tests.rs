//! The session's GET stream across reconnections, and a request's broken stream resumed,
//! against the shapes the conformance suite's `sse-retry` and the TypeScript SDK send.

use serde_json::json;

use super::*;
use crate::machines::era::tests::{header, in_session, sse};
use crate::machines::resumption::MAX_RESUMPTIONS;
use crate::readers::response::ResponseError;
use crate::vocabulary::era::HEADER_SESSION_ID;

/// The priming event a SEP-1699 server starts a stream with: an id, a retry, no data.
const PRIMING: &str = "id: ev-1\nretry: 500\ndata: \n\n";

#[test]
fn the_stream_opens_once_reads_the_servers_requests_and_reopens_after_its_retry_from_its_last_event()
 {
    let client = in_session();
    let mut stream = SessionStream::new(1_000, Limits::default());
    assert_eq!(stream.poll_open(&client, 999), None, "not due yet");
    let get = stream.poll_open(&client, 1_000).expect("due");
    assert_eq!(get.http_method, "GET");
    assert_eq!(header(&get.headers, "Accept"), Some("text/event-stream"));
    assert_eq!(header(&get.headers, HEADER_SESSION_ID), Some("s-1"));
    assert_eq!(
        header(&get.headers, "Last-Event-ID"),
        None,
        "nothing to resume yet"
    );
    assert_eq!(stream.poll_open(&client, 1_000), None, "open once");
    assert_eq!(stream.poll_timeout(), None);

    let events = stream.handle_response(200, Some("text/event-stream"), 1_010);
    assert!(matches!(
        events[..],
        [ExchangeEvent::Responded {
            status: 200,
            event_stream: true
        }]
    ));
    let ask = json!({"jsonrpc": "2.0", "id": 7, "method": "elicitation/create", "params": {
        "message": "Name?", "requestedSchema": {"type": "object", "properties": {}}}});
    let progress = json!({"jsonrpc": "2.0", "method": "notifications/message",
        "params": {"level": "info", "data": "hello"}});
    let body = format!(
        "{PRIMING}{}",
        sse(&[ask, progress]).replace("event: message\n", "id: ev-2\n")
    );
    // Split mid-event: the machine frames across chunks.
    let (first, second) = body.as_bytes().split_at(body.len() / 2);
    let mut events = stream.handle_chunk(first);
    events.extend(stream.handle_chunk(second));
    let asked: Vec<_> = events
        .iter()
        .filter_map(|event| match event {
            ExchangeEvent::ServerRequest(asked) => Some(asked.method().to_owned()),
            _ => None,
        })
        .collect();
    assert_eq!(asked, ["elicitation/create"]);
    assert!(
        events
            .iter()
            .any(|e| matches!(e, ExchangeEvent::Notification(_)))
    );
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, ExchangeEvent::Finding(_))),
        "{events:?}"
    );

    stream.handle_end(2_000);
    assert_eq!(stream.poll_timeout(), Some(2_500), "the server's retry");
    assert_eq!(stream.poll_open(&client, 2_499), None);
    let again = stream.poll_open(&client, 2_500).expect("reopened");
    assert_eq!(header(&again.headers, "Last-Event-ID"), Some("ev-2"));
}

#[test]
fn a_405_means_no_stream_and_refusals_back_off_until_the_client_stops() {
    let client = in_session();
    let mut none = SessionStream::new(0, Limits::default());
    none.poll_open(&client, 0).expect("due");
    let events = none.handle_response(405, None, 5);
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, ExchangeEvent::Finding(_))),
        "405 is allowed"
    );
    assert!(matches!(none.state(), StreamState::Closed { why } if why.contains("405")));
    assert_eq!(none.poll_timeout(), None);

    let mut refused = SessionStream::new(0, Limits::default());
    let mut now = 0;
    let mut waits = Vec::new();
    for _ in 0..MAX_FAILED_OPENINGS {
        refused.poll_open(&client, now).expect("due");
        let events = refused.handle_response(500, Some("text/plain"), now);
        assert!(events.iter().any(|e| matches!(e,
            ExchangeEvent::Finding(f) if f.rule == Rule::LegacyStreamRefused)));
        match refused.poll_timeout() {
            Some(at) => {
                waits.push(at - now);
                now = at;
            }
            None => break,
        }
    }
    assert_eq!(
        waits,
        [2_000, 4_000, 8_000, 16_000],
        "doubling from the default retry"
    );
    assert!(matches!(refused.state(), StreamState::Closed { why } if why.contains("HTTP 500")));

    let mut unanswered = SessionStream::new(0, Limits::default());
    unanswered.poll_open(&client, 0).expect("due");
    unanswered.handle_unanswered(0, "the relay is gone");
    assert_eq!(unanswered.poll_timeout(), Some(2_000));
    unanswered.close("the user closed the connection");
    assert_eq!(unanswered.poll_open(&client, 10_000), None);
}

#[test]
fn a_legacy_requests_stream_that_ends_before_its_answer_is_resumed_after_the_retry() {
    let mut client = in_session();
    let call = client
        .call_tool("test_reconnection", Default::default(), &Default::default())
        .expect("a call");
    let mut reader = call.reader(200, Some("text/event-stream"));
    reader.push_chunk(PRIMING.as_bytes());
    let resume = reader.resume().cloned();
    let error = reader.finish().expect_err("no answer on the stream");
    assert!(
        matches!(error, ResponseError::NoResponse { .. }),
        "{error:?}"
    );

    let resumed = call
        .resumption(resume.as_ref(), &error, 0)
        .expect("resumable");
    assert_eq!(resumed.wait_ms, 500);
    assert_eq!(resumed.request.http_method, "GET");
    assert_eq!(
        header(&resumed.request.headers, "Last-Event-ID"),
        Some("ev-1")
    );
    assert_eq!(
        header(&resumed.request.headers, HEADER_SESSION_ID),
        Some("s-1")
    );
    assert_eq!(
        header(&resumed.request.headers, "MCP-Protocol-Version"),
        Some("2025-11-25")
    );
    assert_eq!(header(&resumed.request.headers, "Mcp-Method"), None);

    // The replay on the GET carries the answer; the original request's reader reads it.
    let answer = json!({"jsonrpc": "2.0", "id": call.id(), "result": {
        "content": [{"type": "text", "text": "Reconnection test completed successfully"}]}});
    let mut replay = call.reader(200, Some("text/event-stream"));
    replay.push_chunk(format!("{PRIMING}{}", sse(&[answer])).as_bytes());
    assert!(replay.finish().is_ok());

    assert_eq!(
        call.resumption(resume.as_ref(), &error, MAX_RESUMPTIONS),
        None,
        "bounded"
    );
    assert_eq!(
        call.resumption(None, &error, 0),
        None,
        "a JSON body has nothing to resume"
    );
    let unnumbered = Resume {
        last_event_id: None,
        retry_ms: Some(500),
    };
    assert_eq!(
        call.resumption(Some(&unnumbered), &error, 0),
        None,
        "no event to resume after"
    );

    let mut modern = Client::default();
    let call = modern
        .call_tool("t", Default::default(), &Default::default())
        .expect("a call");
    assert_eq!(
        call.resumption(resume.as_ref(), &error, 0),
        None,
        "2026-07-28 has no GET stream"
    );
}
