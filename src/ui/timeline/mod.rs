//! The timeline: the session as a sequence diagram (User, Client, Server), in sync with the
//! scene, scrubbable, and playing back an imported wire log the same way.

mod controls;
mod event_row;
mod playback;
mod rows;

use leptos::html::Div;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::session::Session;
use crate::ui::frames::after_next_frame;
use controls::Controls;
use event_row::EventRow;
use playback::Playback;
use rows::{Listing, current_index, listing};

pub use rows::WINDOW;

#[component]
pub fn Timeline() -> impl IntoView {
    let session = Session::current();
    let traffic = session.traffic();
    let playback = Playback::new(traffic);
    let is_imported = session.wire().is_imported();

    // A new log (imported, or back to live) starts over at its newest event.
    Effect::new(move |previous: Option<bool>| {
        let imported = is_imported.get();
        if previous.is_some_and(|was| was != imported) {
            playback.stop();
            playback.picked.set(None);
            playback.anchor.set(None);
        }
        imported
    });

    // Back to live from outside the timeline (a lesson starting): the window follows again.
    Effect::new(move |was_scrubbed: Option<bool>| {
        let scrubbed = traffic.position().with(Option::is_some);
        if was_scrubbed == Some(true) && !scrubbed {
            playback.stop();
            playback.picked.set(None);
            playback.anchor.set(None);
        }
        scrubbed
    });

    let current = Memo::new(move |_| {
        traffic.track_calm();
        let position = traffic.position().get()?;
        let picked = playback.picked.get();
        traffic.with_whole(|t| {
            let events = t.events();
            current_index(events, position, picked).map(|index| (index, events[index].seq))
        })
    });
    let listed: Memo<Listing> = Memo::new(move |_| {
        traffic.track_calm();
        let anchor = playback.anchor.get();
        traffic.with_whole(|t| listing(t, anchor))
    });

    // Scrubbing to an event outside the rendered window moves the window to it.
    Effect::new(move |_| {
        let Some((_, seq)) = current.get() else {
            return;
        };
        let shown = listed.with_untracked(|l| {
            let first = l.rows.first().map(|r| r.first_seq);
            let last = l.rows.last().map(|r| r.seq);
            first.zip(last).is_some_and(|(a, b)| (a..=b).contains(&seq))
        });
        if !shown {
            playback.anchor.set(Some(seq));
        }
    });

    let scroller = NodeRef::<Div>::new();
    // The rows a live follow last scrolled to: their count and the first event of the last.
    let followed = StoredValue::new(None::<(usize, Option<u64>)>);
    // Keep the newest event in view while following live, the current one while scrubbing.
    Effect::new(move |_| {
        let bottom = listed.with(|l| (l.rows.len(), l.rows.last().map(|row| row.first_seq)));
        let scrubbed = current.get().is_some();
        let follow = !scrubbed && playback.anchor.get().is_none();
        // While following, a row that only grew in place (routine polls folded into "×N")
        // moves nothing: scroll only when a row was added, so a reader who scrolled up is not
        // pulled back by every poll.
        if follow && followed.get_value() == Some(bottom) {
            return;
        }
        followed.set_value(follow.then_some(bottom));
        // Scroll once the next frame is drawn: its layout is then up to date and reading the
        // list's height costs nothing. In the frame callback itself it forced a layout of the
        // rows just changed (with 1,000 polled tasks, about 300 ms in 20 s).
        after_next_frame(move || {
            // The timeline may be gone by then (a view switch during Play).
            let Some(scroller) = scroller.try_get_untracked().flatten() else {
                return;
            };
            if follow {
                scroller.set_scroll_top(scroller.scroll_height());
            } else if scrubbed {
                reveal_current(&scroller);
            }
        });
    });

    let page_earlier = move |_| {
        let anchor = listed.with_untracked(|l| l.earlier_anchor);
        if anchor.is_some() {
            playback.anchor.set(anchor);
        }
    };
    let page_later = move |_| {
        playback
            .anchor
            .set(listed.with_untracked(|l| l.later_anchor))
    };

    view! {
        <section
            class="panel"
            id="timeline"
            aria-labelledby="timeline-title"
            data-imported=move || if is_imported.get() { "true" } else { "false" }
        >
            <header class="timeline-head">
                <h2 id="timeline-title">"Timeline"</h2>
                <Show when=move || is_imported.get()>
                    <span class="timeline-imported">"Imported log"</span>
                </Show>
                <span class="timeline-count">
                    {move || {
                        let total = listed.with(|l| l.total);
                        if total == 1 { "1 event".to_owned() } else { format!("{total} events") }
                    }}
                </span>
                <Show when=move || listed.with(|l| l.dropped > 0)>
                    <span class="timeline-dropped">
                        {move || {
                            format!(
                                "{} older events were let go to keep the page light",
                                listed.with(|l| l.dropped),
                            )
                        }}
                    </span>
                </Show>
            </header>
            <Controls playback current />
            <div class="timeline-scroll" node_ref=scroller>
                <div class="timeline-lane-heads" aria-hidden="true">
                    <span class="timeline-time"></span>
                    <span class="timeline-lanes">
                        <span class="lane-head" data-lane="user">"User"</span>
                        <span class="lane-head" data-lane="client">"Client"</span>
                        <span class="lane-head" data-lane="server">"Server"</span>
                    </span>
                </div>
                <Show when=move || listed.with(|l| l.earlier > 0)>
                    <p class="timeline-more">
                        {move || format!("{} earlier events", listed.with(|l| l.earlier))} " "
                        <button type="button" class="timeline-earlier" on:click=page_earlier>
                            "Show earlier"
                        </button>
                    </p>
                </Show>
                <Show when=move || listed.with(|l| l.total == 0)>
                    <p class="timeline-empty">
                        "No traffic yet: call a tool and each step of the conversation shows here."
                    </p>
                </Show>
                <ol class="timeline-events">
                    <For
                        each=move || listed.with(|l| l.rows.clone())
                        key=|row| (row.first_seq, row.seq, row.label.clone(), row.after_ms.to_bits())
                        children=move |row| {
                            view! {
                                <li>
                                    <EventRow row current />
                                </li>
                            }
                        }
                    />
                </ol>
                <Show when=move || listed.with(|l| l.later > 0)>
                    <p class="timeline-more">
                        {move || format!("{} later events", listed.with(|l| l.later))} " "
                        <button type="button" class="timeline-later" on:click=page_later>
                            "Show later"
                        </button>
                    </p>
                </Show>
            </div>
        </section>
    }
}

/// Scroll the list (only the list, never the page) so the current row is visible.
fn reveal_current(scroller: &web_sys::HtmlElement) {
    let Some(row) = scroller
        .query_selector(".timeline-event.current")
        .ok()
        .flatten()
        .and_then(|row| row.dyn_into::<web_sys::HtmlElement>().ok())
    else {
        return;
    };
    let (top, height) = (row.offset_top(), row.offset_height());
    let (view_top, view_height) = (scroller.scroll_top(), scroller.client_height());
    // Leave room for the sticky lane headers.
    let margin = 32;
    if top - margin < view_top {
        scroller.set_scroll_top(top - margin);
    } else if top + height > view_top + view_height {
        scroller.set_scroll_top(top + height - view_height);
    }
}
