//! `book_table` books once, over real HTTP: the final retry (the filled form with the
//! sealed state) makes one booking row in the server's SQLite; replays of it, in sequence
//! or at the same moment, get the same booking back and are told they were duplicates. A
//! final retry whose state has expired is refused and books nothing.

mod support;

use std::path::Path;
use std::time::Duration;

use holdbay_engine::model::{CallToolResult, ErrorCode};
use holdbay_engine::{CallTool, Outcome, OutgoingRequest, ResponseError, Step};
use serde_json::{Value, json};
use support::TestServer;
use support::session::{Session, form};
use tempfile::TempDir;

/// The rows in the server's booking table.
fn booking_rows(data_dir: &Path) -> Vec<(String, i64, String, String)> {
    let connection = rusqlite::Connection::open_with_flags(
        data_dir.join("bookings.sqlite3"),
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
    )
    .expect("the booking database exists");
    let mut statement = connection
        .prepare("SELECT restaurant, party_size, time, confirmation FROM bookings")
        .expect("query");
    statement
        .query_map([], |row| {
            Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?))
        })
        .expect("rows")
        .collect::<Result<_, _>>()
        .expect("rows read")
}

/// Round 1 of `book_table`, answered: the final retry, not yet sent.
async fn final_retry(mcp: &mut Session, restaurant: &str) -> OutgoingRequest<CallTool> {
    let mut call = mcp
        .call("book_table", json!({ "restaurant": restaurant }), false)
        .await
        .expect("round 1");
    assert!(matches!(call.step, Step::NeedsInput));
    call.logical
        .answer("party", form(json!({"size": "6", "time": "21:00"})))
        .expect("party is pending");
    call.logical
        .retry(&mut mcp.client, 0)
        .expect("a retry is due")
}

/// The text and structured content of a complete `tools/call` answer.
fn answer_of(result: Result<CallToolResult, ResponseError>) -> (String, Value) {
    let result = serde_json::to_value(result.expect("a result")).expect("json");
    let text = result["content"][0]["text"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    (text, result["structuredContent"].clone())
}

async fn send(mcp: &Session, request: &OutgoingRequest<CallTool>) -> (String, Value) {
    let result = mcp.send(request).await.map(|reply| match reply.result {
        Outcome::Complete(result) => result,
        other => panic!("expected a complete result, got {other:?}"),
    });
    answer_of(result)
}

#[tokio::test]
async fn the_final_retry_replayed_four_times_two_at_once_books_once() {
    let data_dir = TempDir::new().expect("data dir");
    let server = TestServer::start_in(data_dir.path(), &[]);
    let mut mcp = Session::new(server.mcp_url());
    let retry = final_retry(&mut mcp, "Le Tray").await;

    let (first, booked) = send(&mcp, &retry).await;
    let confirmation = booked["confirmation"].as_str().expect("a confirmation");
    assert!(
        confirmation.starts_with("HB-") && confirmation.len() == 11,
        "{confirmation}"
    );
    assert_eq!(
        first,
        format!("Booked a table for 6 at Le Tray, 21:00 (confirmation {confirmation}).")
    );
    assert_eq!(booked["duplicate"], false);

    // The same request again: once alone, then two at the same moment.
    let mut replies = vec![send(&mcp, &retry).await];
    let (left, right) = tokio::join!(send(&mcp, &retry), send(&mcp, &retry));
    replies.extend([left, right]);
    let duplicate = format!(
        "Already booked: a table for 6 at Le Tray, 21:00 (confirmation {confirmation}); this \
         retry was a duplicate, nothing new was booked."
    );
    for (text, structured) in &replies {
        assert_eq!(text, &duplicate);
        assert_eq!(structured["duplicate"], true);
        assert_eq!(structured["confirmation"], confirmation);
    }
    assert_eq!(
        booking_rows(data_dir.path()),
        [(
            "Le Tray".to_owned(),
            6,
            "21:00".to_owned(),
            confirmation.to_owned()
        )],
        "one booking for four final retries"
    );

    // A new call is a new booking, with its own confirmation.
    let another = final_retry(&mut mcp, "Le Tray").await;
    let (_, second) = send(&mcp, &another).await;
    assert_eq!(second["duplicate"], false);
    assert_ne!(second["confirmation"], confirmation);
    assert_eq!(booking_rows(data_dir.path()).len(), 2);
}

#[tokio::test]
async fn concurrent_first_final_retries_still_make_one_booking() {
    let data_dir = TempDir::new().expect("data dir");
    let server = TestServer::start_in(data_dir.path(), &[]);
    let mut mcp = Session::new(server.mcp_url());
    let retry = final_retry(&mut mcp, "Chez Holdbay").await;
    let replies = futures::future::join_all((0..4).map(|_| send(&mcp, &retry))).await;
    let new: Vec<_> = replies
        .iter()
        .filter(|(_, structured)| structured["duplicate"] == false)
        .collect();
    assert_eq!(new.len(), 1, "exactly one booked: {replies:?}");
    let confirmations: std::collections::BTreeSet<_> = replies
        .iter()
        .map(|(_, structured)| structured["confirmation"].to_string())
        .collect();
    assert_eq!(confirmations.len(), 1, "{replies:?}");
    assert_eq!(booking_rows(data_dir.path()).len(), 1);
}

#[tokio::test]
async fn a_final_retry_with_an_expired_state_is_refused_and_books_nothing() {
    let data_dir = TempDir::new().expect("data dir");
    let server = TestServer::start_in(data_dir.path(), &["--state-ttl-seconds", "1"]);
    let mut mcp = Session::new(server.mcp_url());
    let retry = final_retry(&mut mcp, "Le Tray").await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let error = mcp.send(&retry).await.map(|_| ()).expect_err("refused");
    assert_eq!(
        error.rpc_code(),
        Some(ErrorCode::INVALID_PARAMS.0),
        "{error}"
    );
    assert!(
        error
            .to_string()
            .contains("requestState has expired; start the call again without it"),
        "{error}"
    );
    assert!(booking_rows(data_dir.path()).is_empty());
}
