//! Incremental `text/event-stream` decoding without IO.
//!
//! Framing is done by `sse-stream` (the parser rmcp itself uses). That crate reads from a
//! `Stream` of byte buffers, so [`SseDecoder`] hands it a stream backed by a queue it fills
//! with each chunk, and polls it with a no-op waker until it wants more input: no executor,
//! no IO, and the same result for any chunking of the body.
//!
//! The parser is handed whole lines only: a line still being received is held here as the
//! pieces it arrived in. The parser's own buffer grows by doubling into one block, so a
//! hostile 20 MB line, refused at the body limit, would otherwise leave an 8–16 MiB hole
//! in the wasm heap that later small allocations split, and the memory would grow.

use std::collections::VecDeque;
use std::convert::Infallible;
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll, Waker};

use bytes::Bytes;
use futures_util::Stream;
use sse_stream::SseByteStream;

/// An SSE framing error (invalid UTF-8 in a field, an oversized line).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("malformed event stream: {0}")]
pub struct SseError(pub String);

/// One dispatched SSE event that carries a JSON-RPC message: the `data` of an event with no
/// `event:` field or `event: message`.
pub type SseData = String;

#[derive(Default)]
struct Feed {
    chunks: VecDeque<Bytes>,
    ended: bool,
}

/// The stream `sse-stream` reads: chunks as they were pushed, `Pending` when there are none yet.
struct FeedStream(Arc<Mutex<Feed>>);

fn lock(feed: &Mutex<Feed>) -> MutexGuard<'_, Feed> {
    // A poisoned lock only means a panic elsewhere; the queue itself is still consistent.
    feed.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Stream for FeedStream {
    type Item = Result<Bytes, Infallible>;

    fn poll_next(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let mut feed = lock(&self.0);
        match feed.chunks.pop_front() {
            Some(chunk) => Poll::Ready(Some(Ok(chunk))),
            None if feed.ended => Poll::Ready(None),
            None => Poll::Pending,
        }
    }
}

/// Turns arbitrary byte chunks of an event stream into the JSON-RPC message texts it carries.
pub struct SseDecoder {
    feed: Arc<Mutex<Feed>>,
    events: SseByteStream<FeedStream>,
    /// The pieces of the line not yet ended by `\n` or `\r`.
    unended_line: Vec<Bytes>,
    done: bool,
    resume: Resume,
}

/// Where a broken stream picks up again (SSE's last event ID and reconnection time): what a
/// legacy client sends as `Last-Event-ID` and how long it waits first.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Resume {
    /// The `id` of the last event that set one (an empty `id:` clears it).
    pub last_event_id: Option<String>,
    /// The last `retry:` the server sent, in milliseconds.
    pub retry_ms: Option<u64>,
}

impl std::fmt::Debug for SseDecoder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SseDecoder")
            .field("done", &self.done)
            .finish()
    }
}

impl Default for SseDecoder {
    fn default() -> Self {
        Self::new()
    }
}

impl SseDecoder {
    pub fn new() -> Self {
        let feed = Arc::new(Mutex::new(Feed::default()));
        Self {
            events: SseByteStream::new(FeedStream(feed.clone())),
            feed,
            unended_line: Vec::new(),
            done: false,
            resume: Resume::default(),
        }
    }

    /// Feed the next chunk; returns the messages completed by it, in order.
    pub fn push(&mut self, chunk: &[u8]) -> Result<Vec<SseData>, SseError> {
        let Some(last_end) = chunk
            .iter()
            .rposition(|&byte| byte == b'\n' || byte == b'\r')
        else {
            if !chunk.is_empty() {
                self.unended_line.push(Bytes::copy_from_slice(chunk));
            }
            return Ok(Vec::new());
        };
        let (ended, rest) = chunk.split_at(last_end + 1);
        {
            let mut feed = lock(&self.feed);
            feed.chunks.extend(self.unended_line.drain(..));
            feed.chunks.push_back(Bytes::copy_from_slice(ended));
        }
        if !rest.is_empty() {
            self.unended_line.push(Bytes::copy_from_slice(rest));
        }
        self.drain()
    }

    /// The body has ended: returns any message still buffered. An event not terminated by a
    /// blank line is discarded, as the SSE standard requires.
    pub fn finish(&mut self) -> Result<Vec<SseData>, SseError> {
        {
            let mut feed = lock(&self.feed);
            feed.chunks.extend(self.unended_line.drain(..));
            feed.ended = true;
        }
        self.drain()
    }

    /// Where the stream would resume, from the events read so far.
    pub fn resume(&self) -> &Resume {
        &self.resume
    }

    fn drain(&mut self) -> Result<Vec<SseData>, SseError> {
        let mut out = Vec::new();
        let mut cx = Context::from_waker(Waker::noop());
        while !self.done {
            match Pin::new(&mut self.events).poll_next(&mut cx) {
                Poll::Pending => break,
                Poll::Ready(None) => self.done = true,
                Poll::Ready(Some(Err(error))) => {
                    self.done = true;
                    return Err(SseError(error.to_string()));
                }
                Poll::Ready(Some(Ok(event))) => {
                    if let Some(id) = event.id {
                        self.resume.last_event_id = (!id.is_empty()).then_some(id);
                    }
                    if event.retry.is_some() {
                        self.resume.retry_ms = event.retry;
                    }
                    let is_message = matches!(event.event.as_deref(), None | Some("message"));
                    // Empty data: keep-alive or a legacy "priming" event.
                    if let (true, Some(data)) = (is_message, event.data)
                        && !data.is_empty()
                    {
                        out.push(data);
                    }
                }
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BODY: &str = ": keep-alive\n\nevent: message\ndata: {\"a\":1}\n\n\
                        data: {\"b\":\ndata: 2}\n\nevent: ping\ndata: x\n\ndata:\n\n\
                        data: {\"c\":3}\r\n\r\n";

    fn decode_in_chunks(body: &[u8], size: usize) -> Vec<String> {
        let mut decoder = SseDecoder::new();
        let mut out = Vec::new();
        for chunk in body.chunks(size) {
            out.extend(decoder.push(chunk).expect("valid stream"));
        }
        out.extend(decoder.finish().expect("valid stream"));
        out
    }

    #[test]
    fn the_resume_point_is_the_last_id_and_retry_even_of_a_priming_event() {
        let mut decoder = SseDecoder::new();
        let body = "id: e-1\nretry: 500\ndata: \n\nid: e-2\ndata: {\"a\":1}\n\n";
        assert_eq!(
            decoder.push(body.as_bytes()).expect("valid"),
            vec!["{\"a\":1}"]
        );
        assert_eq!(
            decoder.resume(),
            &Resume {
                last_event_id: Some("e-2".into()),
                retry_ms: Some(500)
            }
        );
        decoder.push(b"id:\ndata: {}\n\n").expect("valid");
        assert_eq!(
            decoder.resume().last_event_id,
            None,
            "an empty id clears it"
        );
    }

    #[test]
    fn messages_are_the_data_of_message_events() {
        assert_eq!(
            decode_in_chunks(BODY.as_bytes(), BODY.len()),
            vec!["{\"a\":1}", "{\"b\":\n2}", "{\"c\":3}"]
        );
    }

    #[test]
    fn chunking_does_not_change_the_messages() {
        let whole = decode_in_chunks(BODY.as_bytes(), BODY.len());
        for size in 1..BODY.len() {
            assert_eq!(
                decode_in_chunks(BODY.as_bytes(), size),
                whole,
                "chunk size {size}"
            );
        }
    }

    #[test]
    fn a_line_longer_than_many_chunks_is_held_until_it_ends() {
        let long = "x".repeat(300_000);
        let body = format!("data: {{\"a\":\"{long}\"}}\n\ndata: 2\r\n\r\n");
        let mut decoder = SseDecoder::new();
        let mut out = Vec::new();
        for chunk in body.as_bytes().chunks(64 * 1024) {
            out.extend(decoder.push(chunk).expect("valid stream"));
            // Until the line ends, the parser is handed nothing of it.
            if out.is_empty() {
                assert!(lock(&decoder.feed).chunks.is_empty());
            }
        }
        out.extend(decoder.finish().expect("valid stream"));
        assert_eq!(out, vec![format!("{{\"a\":\"{long}\"}}"), "2".to_owned()]);
    }

    #[test]
    fn an_unterminated_final_event_is_discarded() {
        assert!(decode_in_chunks(b"data: {\"a\":1}", 4).is_empty());
    }

    #[test]
    fn invalid_utf8_is_an_error_not_a_panic() {
        let mut decoder = SseDecoder::new();
        let result = decoder.push(b"data: \xff\xfe\n\n").and_then(|mut first| {
            first.extend(decoder.finish()?);
            Ok(first)
        });
        assert!(result.is_err(), "got {result:?}");
    }
}
