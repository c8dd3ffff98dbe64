//! Polling yields to drawing. A page following many tasks could spend every millisecond
//! sending polls and reading their answers, and the page would stutter (a thousand tasks
//! polled at their interval are a thousand answers a second). So the loop sends due polls
//! only as fast as the page still draws at the display's rate: a little faster after every
//! frame that came on time, a fifth slower after a late one.
//!
//! Finding the page's limit costs late frames: the rate climbs until a frame is late, drops,
//! and climbs again. The climb is a fixed share of the rate per frame, so it takes
//! [`CLIMB_FRAMES`] frames to win back a drop, whatever the limit: about one frame in 50
//! (2 %) is made late by the probing, on a fast page or a slow one. (Adding a fixed amount
//! per frame made a slow page late every few frames; halving after each late frame let a
//! machine's stray late frames, which polling did not cause, keep the rate far below the
//! limit.)
//!
//! Which polls are due, and that none goes early, stays the engine's (`due_polls`); this only
//! decides how many of the due ones may start now. A poll held back goes late, never early.

use wasm_bindgen_futures::JsFuture;

/// Polls a smooth frame may start at most, and the credit a quiet page saves up (so a few
/// tasks are polled the moment they are due).
const MOST_PER_FRAME: f64 = 6.0;
/// While frames are late the loop still starts one poll every eight frames: tasks move on.
/// (A binary fraction, so eight late frames' credit adds up to exactly one poll.)
const FEWEST_PER_FRAME: f64 = 0.125;
/// After a late frame the rate drops to this share of itself...
const SLOW_DOWN: f64 = 0.8;
/// ... and after this many frames on time it is back where it was.
const CLIMB_FRAMES: f64 = 50.0;
/// A frame counts as late beyond this many display periods.
const LATE_AFTER_PERIODS: f64 = 1.5;
/// Gaps shorter than this are not taken for the display's period (a 120 Hz display draws
/// every 8.3 ms).
const SHORTEST_PERIOD_MS: f64 = 8.0;
/// No frame for this long: the page is hidden (browsers pause frames there) or very busy;
/// the loop goes on without waiting for one.
pub const NO_FRAME_MS: i32 = 100;

/// The factor a frame on time raises the rate by: `CLIMB_FRAMES` of them undo one drop.
fn speed_up() -> f64 {
    (1.0 / SLOW_DOWN).powf(1.0 / CLIMB_FRAMES)
}

/// How many polls may start, frame by frame. Pure arithmetic, fed with frame times.
#[derive(Debug, Clone, PartialEq)]
pub struct PollPace {
    /// Polls per frame while frames come on time.
    rate: f64,
    /// Polls that may start now (whole ones are spent).
    credit: f64,
    last_frame_at: Option<f64>,
    /// The shortest gap between frames seen: the display's period.
    period_ms: Option<f64>,
}

impl Default for PollPace {
    fn default() -> Self {
        Self {
            rate: MOST_PER_FRAME / 2.0,
            credit: MOST_PER_FRAME,
            last_frame_at: None,
            period_ms: None,
        }
    }
}

impl PollPace {
    /// Polls that may start now.
    pub fn allowed(&self) -> usize {
        // `credit` stays within 0..=MOST_PER_FRAME, so the cast cannot truncate.
        self.credit.floor().max(0.0) as usize
    }

    /// `count` polls were started.
    pub fn spend(&mut self, count: usize) {
        self.credit = (self.credit - count as f64).max(0.0);
    }

    /// A frame was drawn at `at_ms` (the animation frame's time): a frame on time raises the
    /// rate a little, a late one slows it down; either way this frame's share is credited.
    pub fn frame(&mut self, at_ms: f64) {
        if let Some(last) = self.last_frame_at {
            let gap = at_ms - last;
            if gap > 0.0 {
                let period = self
                    .period_ms
                    .map_or(gap, |p| p.min(gap))
                    .max(SHORTEST_PERIOD_MS);
                self.period_ms = Some(period);
                if gap > period * LATE_AFTER_PERIODS {
                    self.slow_down();
                } else {
                    self.rate = (self.rate * speed_up()).min(MOST_PER_FRAME);
                }
            }
        }
        self.last_frame_at = Some(at_ms);
        self.credit_one_frame();
    }

    /// A visible page drew no frame for [`NO_FRAME_MS`]: as late as frames get. The next
    /// frame is not compared with this moment (a frame's time is when it began, which may be
    /// before now).
    pub fn late(&mut self) {
        self.slow_down();
        self.last_frame_at = None;
        self.credit_one_frame();
    }

    /// No frame to go by: the page is hidden (it draws none), or the loop slept a while
    /// with nothing due. The whole allowance is given, and the next frame is not compared
    /// with an old one.
    pub fn rested(&mut self) {
        self.last_frame_at = None;
        self.period_ms = None;
        self.credit = MOST_PER_FRAME;
    }

    fn slow_down(&mut self) {
        self.rate = (self.rate * SLOW_DOWN).max(FEWEST_PER_FRAME);
    }

    fn credit_one_frame(&mut self) {
        self.credit = (self.credit + self.rate).min(MOST_PER_FRAME);
    }

    /// Polls per frame at present (for tests and the benchmark's notes).
    pub fn rate(&self) -> f64 {
        self.rate
    }
}

/// Wait for the next animation frame, or [`NO_FRAME_MS`] if none comes, and feed it to
/// `pace`: a hidden page (which draws no frames) gets the whole allowance, a visible page
/// whose frame is that late counts it as a late frame.
pub async fn next_frame(pace: &mut PollPace) {
    let Some(window) = web_sys::window() else {
        pace.rested();
        return;
    };
    let promise = js_sys::Promise::new(&mut |resolve, _reject| {
        // Whichever comes first settles the promise (the frame with its time, the timer
        // with nothing); a promise settles once, so the other call does nothing.
        let framed = window.request_animation_frame(&resolve).is_ok();
        let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(
            &resolve,
            if framed { NO_FRAME_MS } else { 0 },
        );
    });
    match JsFuture::from(promise)
        .await
        .ok()
        .and_then(|at| at.as_f64())
    {
        Some(at) => pace.frame(at),
        None if window.document().is_some_and(|document| document.hidden()) => pace.rested(),
        None => pace.late(),
    }
}
