//! A page following many tasks stays small: the wire log keeps a bounded window, the tasks
//! panel draws a bounded number of rows, and routine saves are coalesced.
#![cfg(target_arch = "wasm32")]

use holdbay::wire::budget::{BODY_KEPT_BYTES, LOG_BYTES};
use holdbay::wire::{DROPPED_AT_ONCE, MAX_LIVE_ENTRIES, WireChunk, WireEntry, WireLog};
use leptos::prelude::*;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn entry(method: &str) -> WireEntry {
    WireEntry {
        method: method.to_owned(),
        name: None,
        server: "http://example.test/mcp".to_owned(),
        url: "http://example.test/mcp".to_owned(),
        started_at: 1.0,
        request_body: "{}".to_owned(),
        ..Default::default()
    }
}

#[wasm_bindgen_test]
fn the_wire_log_keeps_the_latest_exchanges_and_counts_the_dropped() {
    let owner = Owner::new();
    owner.with(|| {
        let log = WireLog::new();
        let seen = std::rc::Rc::new(std::cell::Cell::new(0usize));
        let counter = seen.clone();
        log.listen(move |_, _| counter.set(counter.get() + 1));
        let extra = 5;
        let ids: Vec<u64> = (0..MAX_LIVE_ENTRIES + extra)
            .map(|_| log.begin(entry("tasks/get")))
            .collect();
        let last = ids[ids.len() - 1];
        // Listeners hear of every exchange, kept or not.
        assert_eq!(seen.get(), MAX_LIVE_ENTRIES + extra);
        // Past the bound the oldest go, a batch at a time; the newest all stay.
        let kept = log.with_shown(<[WireEntry]>::len);
        assert!(
            kept <= MAX_LIVE_ENTRIES && kept > MAX_LIVE_ENTRIES - DROPPED_AT_ONCE,
            "{kept}"
        );
        assert_eq!(
            log.dropped(),
            ids.len() - kept,
            "every dropped exchange is counted"
        );
        let first = log.with_shown(|entries| entries[0].id);
        assert_eq!(first, ids[ids.len() - kept], "the oldest were dropped");

        // The newest can still be updated, and listeners hear of it.
        log.update(last, |entry| {
            entry.status = Some(200);
            entry.body.push(WireChunk {
                after: 2.0,
                text: "{}".to_owned(),
            });
        });
        assert_eq!(seen.get(), MAX_LIVE_ENTRIES + extra + 1);
        assert_eq!(log.shown_entry(last).and_then(|e| e.status), Some(200));
        // An id already dropped is ignored.
        log.update(ids[0], |entry| entry.status = Some(500));
        assert_eq!(seen.get(), MAX_LIVE_ENTRIES + extra + 1);
        assert_eq!(log.entries().get_untracked().len(), kept);
    });
}

#[wasm_bindgen_test]
fn huge_bodies_are_kept_to_their_budget_and_the_oldest_exchanges_make_room() {
    let owner = Owner::new();
    owner.with(|| {
        let log = WireLog::new();
        let piece = "é".repeat(300_000); // 600,000 bytes: a cut must fall between characters
        let calls = 2 * LOG_BYTES / BODY_KEPT_BYTES;
        let mut last = 0;
        for _ in 0..calls {
            last = log.begin(entry("tools/call"));
            log.update(last, |entry| {
                entry.keep_body(1.0, "a"); // the 2-byte characters now end at odd offsets
                for _ in 0..3 {
                    entry.keep_body(1.0, &piece);
                }
                entry.finished_after = Some(2.0);
            });
        }
        let newest = log.shown_entry(last).expect("the newest stays");
        // Cut short of the budget by the one byte that would have split a character.
        assert_eq!(newest.body_text().len(), BODY_KEPT_BYTES - 1);
        assert_eq!(
            newest.body_dropped,
            1 + 3 * piece.len() - (BODY_KEPT_BYTES - 1)
        );
        assert!(
            log.retained_bytes() <= LOG_BYTES,
            "{}",
            log.retained_bytes()
        );
        let kept = log.with_shown(<[WireEntry]>::len);
        assert!(
            kept < calls && kept >= LOG_BYTES / BODY_KEPT_BYTES - 1,
            "{kept}"
        );
        assert_eq!(
            log.dropped(),
            calls - kept,
            "every dropped exchange is counted"
        );

        // An exchange still open is not dropped for an older finished one's sake.
        let open = log.begin(entry("subscriptions/listen"));
        for _ in 0..calls {
            let id = log.begin(entry("tools/call"));
            log.update(id, |entry| {
                entry.keep_body(1.0, &piece);
                entry.finished_after = Some(2.0);
            });
        }
        assert!(log.shown_entry(open).is_some());
        log.clear();
        assert_eq!(log.retained_bytes(), 0);
    });
}

/// Frames at a steady 60 Hz from `start`, `count` of them, each fed to `pace`.
fn smooth_frames(pace: &mut holdbay::tasks::pacing::PollPace, start: f64, count: usize) -> f64 {
    let mut at = start;
    for _ in 0..count {
        at += 16.7;
        pace.frame(at);
    }
    at
}

#[wasm_bindgen_test]
fn polling_slows_down_when_frames_are_late_and_recovers_when_they_are_on_time() {
    use holdbay::tasks::pacing::PollPace;
    let mut pace = PollPace::default();
    let fast = pace.rate();
    let mut at = smooth_frames(&mut pace, 0.0, 30);
    let smooth_rate = pace.rate();
    assert!(
        smooth_rate > fast,
        "on-time frames raise the rate: {fast} → {smooth_rate}"
    );
    assert!(
        pace.allowed() <= 6,
        "never more than six polls in one frame"
    );

    // Late frames (a 100 ms gap each) slow polling, down to a floor that still moves.
    for _ in 0..20 {
        at += 100.0;
        pace.frame(at);
    }
    assert!(
        pace.rate() < 0.2 && pace.rate() > 0.0,
        "rate {}",
        pace.rate()
    );
    pace.spend(pace.allowed());
    assert_eq!(pace.allowed(), 0);
    // At the floor a poll may still start within eight frames, late ones included.
    let mut frames_until_one = 0;
    while pace.allowed() == 0 {
        at += 100.0;
        pace.frame(at);
        frames_until_one += 1;
        assert!(frames_until_one <= 8, "polling stopped altogether");
    }

    // Back on time: the rate climbs again.
    let low = pace.rate();
    smooth_frames(&mut pace, at, 20);
    assert!(pace.rate() > low);
}

#[wasm_bindgen_test]
fn a_rested_pace_lets_due_polls_go_at_once_without_counting_the_pause_as_late() {
    use holdbay::tasks::pacing::PollPace;
    let mut pace = PollPace::default();
    let at = smooth_frames(&mut pace, 0.0, 10);
    let rate = pace.rate();
    pace.spend(pace.allowed());
    assert_eq!(pace.allowed(), 0);
    pace.rested();
    assert_eq!(pace.allowed(), 6);
    // The first frame after a rest (seconds later) is not a late frame.
    pace.frame(at + 5_000.0);
    assert!(pace.rate() >= rate);
}

#[wasm_bindgen_test]
fn a_frame_that_never_came_counts_as_late_without_skewing_the_next_comparison() {
    use holdbay::tasks::pacing::PollPace;
    let mut pace = PollPace::default();
    let at = smooth_frames(&mut pace, 0.0, 20);
    let smooth = pace.rate();
    pace.late();
    assert!(pace.rate() < smooth, "no frame in time slows polling");
    let slowed = pace.rate();
    // A frame's time is when it began: it may come out before the moment the timer fired.
    // That near gap must not be taken for the display's period (which would make every
    // ordinary frame after it look late).
    pace.frame(at + 1.0);
    smooth_frames(&mut pace, at + 1.0, 20);
    assert!(
        pace.rate() > slowed,
        "on-time frames after it speed polling up again"
    );
}

#[wasm_bindgen_test]
fn a_big_board_saves_its_routine_changes_less_often_but_within_ten_seconds() {
    use holdbay::tasks::routine_save_delay_ms;
    assert_eq!(routine_save_delay_ms(0), 1_000);
    assert_eq!(routine_save_delay_ms(40), 1_000);
    assert_eq!(routine_save_delay_ms(300), 3_000);
    assert_eq!(routine_save_delay_ms(1_000), 10_000);
    assert_eq!(routine_save_delay_ms(usize::MAX), 10_000);
}

/// A page that draws on time while the loop starts at most `limit` polls a frame, and misses
/// a refresh whenever it starts more (and, with `stray_every`, also every so many frames for
/// reasons of its own): the share of frames made late, and the mean rate against the limit.
fn pace_at_limit(limit: f64, stray_every: Option<usize>) -> (f64, f64) {
    use holdbay::tasks::pacing::PollPace;
    let mut pace = PollPace::default();
    // The page drew a couple of frames before the loop began: the display's period is known.
    let (mut at, mut late, mut rates) = (smooth_frames(&mut pace, 0.0, 2), 0, 0.0);
    const FRAMES: usize = 3_000;
    for frame in 1..=FRAMES {
        let too_fast = pace.rate() > limit;
        let stray = stray_every.is_some_and(|every| frame % every == 0);
        at += if too_fast || stray { 33.4 } else { 16.7 };
        late += usize::from(too_fast);
        rates += pace.rate().min(limit);
        pace.frame(at);
        pace.spend(pace.allowed());
    }
    (late as f64 / FRAMES as f64, rates / FRAMES as f64 / limit)
}

#[wasm_bindgen_test]
fn finding_the_page_s_limit_makes_few_frames_late_on_a_slow_page_and_a_fast_one() {
    for limit in [0.3, 1.0, 4.0] {
        let (share, _) = pace_at_limit(limit, None);
        assert!(
            share < 0.03,
            "a page that takes {limit} polls a frame: {:.1} % of frames late",
            share * 100.0
        );
    }
}

#[wasm_bindgen_test]
fn a_machine_s_stray_late_frames_keep_polling_near_the_page_s_limit() {
    // One frame in 60 late for reasons polling did not cause (another process, a save).
    let (_, share_of_limit) = pace_at_limit(1.0, Some(60));
    assert!(
        share_of_limit > 0.8,
        "polling ran at {:.0} % of what the page can take",
        share_of_limit * 100.0
    );
}

/// `seconds` of frames at 60 Hz, every `late_every`th of them a refresh late for reasons of
/// its own, spending whatever the pace allows: the polls started.
fn polls_started(
    pace: &mut holdbay::tasks::pacing::PollPace,
    seconds: f64,
    late_every: usize,
) -> f64 {
    let (mut at, mut started, mut frame) = (smooth_frames(pace, 0.0, 2), 0.0, 0);
    let end = at + seconds * 1_000.0;
    while at < end {
        frame += 1;
        at += if frame % late_every == 0 { 33.4 } else { 16.7 };
        pace.frame(at);
        let allowed = pace.allowed();
        started += allowed as f64;
        pace.spend(allowed);
    }
    started
}

#[wasm_bindgen_test]
fn the_board_s_steady_rate_is_never_held_back_even_while_frames_are_late() {
    use holdbay::tasks::pacing::PollPace;
    // A thousand tasks at 5 s: 200 polls a second. One frame in four misses a refresh (a
    // busy machine): the pace slows what it can, but not below the steady rate.
    let mut pace = PollPace::default();
    pace.set_steady_rate(200.0);
    let started = polls_started(&mut pace, 10.0, 4);
    assert!(
        started >= 10.0 * 200.0,
        "{started} polls started in 10 s; the board needs 2,000"
    );
    assert!(
        pace.rate() < 0.5,
        "the burst allowance slowed: {}",
        pace.rate()
    );
    // Without a steady rate to keep, the same frames slow polling to a trickle.
    let mut idle = PollPace::default();
    let trickle = polls_started(&mut idle, 10.0, 4);
    assert!(trickle < 200.0, "{trickle}");
}

#[wasm_bindgen_test]
fn a_few_stray_late_frames_do_not_slow_polling() {
    use holdbay::tasks::pacing::PollPace;
    // One refresh in a hundred missed, for reasons polling did not cause.
    let mut pace = PollPace::default();
    polls_started(&mut pace, 20.0, 100);
    assert_eq!(pace.rate(), 6.0, "the burst allowance stayed at its most");
}
