//! The driver of a legacy session's own GET stream: it moves bytes and time for the
//! engine's [`SessionStream`], which decides when to open, what the stream said and when to
//! open it again. The server's requests on it wait in the link's session asks (a `ping` is
//! answered at once); a new connection ends the loop.

use std::cell::RefCell;

use holdbay_engine::{ExchangeEvent, Limits, SessionStream};
use web_sys::AbortController;

use super::Link;
use super::transport::{self, ExchangeError};
use crate::clock::now_ms;
use crate::wakeup::Wakeup;

/// Run the stream of the session `generation` of `link` until the link moves on.
pub(super) fn run(link: Link, generation: u64) {
    leptos::task::spawn_local(async move {
        let stream = RefCell::new(SessionStream::new(now_ms(), Limits::default()));
        let wakeup = Wakeup::new();
        while link.stream_generation() == Some(generation) {
            let now = now_ms();
            let get = link
                .build(|client| stream.borrow_mut().poll_open(client, now))
                .flatten();
            let Some(get) = get else {
                let next = stream.borrow().poll_timeout();
                match next {
                    Some(at) => wakeup.sleep(at.saturating_sub(now)).await,
                    None => break,
                }
                continue;
            };
            let controller = AbortController::new().ok();
            link.keep_stream_abort(controller.clone());
            let connection = link.connection_now();
            let mut how = link.carry(&connection).await;
            let signal = controller.as_ref().map(AbortController::signal);
            how.abort = signal.as_ref();
            let observe = move |event: &ExchangeEvent| {
                if let ExchangeEvent::ServerRequest(asked) = event {
                    link.server_asked(asked);
                }
                link.stream_event(event);
            };
            how.on_event = Some(&observe);
            let still_ours = move || link.stream_generation() == Some(generation);
            let read = transport::read_session_stream(
                &how,
                &get,
                &mut |status, content_type| {
                    stream
                        .borrow_mut()
                        .handle_response(status, content_type, now_ms())
                },
                &mut |chunk| (stream.borrow_mut().handle_chunk(chunk), still_ours()),
            )
            .await;
            match read {
                Ok(()) => {
                    let events = stream.borrow_mut().handle_end(now_ms());
                    events.iter().for_each(observe);
                }
                Err(ExchangeError::Aborted { .. }) => break,
                // The stream deadline closes a quiet stream: opened again, as after an end.
                Err(ExchangeError::DeadlinePassed { .. }) => {
                    stream.borrow_mut().handle_end(now_ms());
                }
                Err(error) => stream
                    .borrow_mut()
                    .handle_unanswered(now_ms(), &error.to_string()),
            }
        }
    });
}
