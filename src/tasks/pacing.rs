//! Polling that keeps both promises: every task polled at its interval, and the page drawing
//! on time. A thousand tasks at 5 s are 200 polls a second; they go as they fall due, each
//! cheap enough that the frames stay on time (the board, the wire log and the views do
//! little per poll). What this pace holds back is only a burst beyond that steady rate (a
//! reload's backlog, many tasks due at once), and only while it makes frames late.
//!
//! Credit for polls accrues with time, at the board's steady rate and a quarter more (so a
//! backlog clears), or faster while frames come on time, up to [`MOST_PER_FRAME`] a display
//! period. The faster part climbs a little after every frame on time and drops by a fifth
//! after a late one, but only while the share of display refreshes missed over the last
//! second is above [`TOLERATED_MISSED`]: a machine's stray late frames, which polling did
//! not cause, do not slow it, and the steady rate is never held back at all.
//!
//! Which polls are due, and that none goes early, stays the engine's (`due_polls`); this only
//! decides how many of the due ones may start now. A poll held back goes late, never early.

use wasm_bindgen_futures::JsFuture;

/// Polls one display period may start at most (beyond the steady rate), and the credit a
/// quiet page saves up (so a few tasks are polled the moment they are due).
const MOST_PER_FRAME: f64 = 6.0;
/// While frames are late a burst still starts one poll every eight periods.
/// (A binary fraction, so eight periods' credit adds up to exactly one poll.)
const FEWEST_PER_FRAME: f64 = 0.125;
/// After a late frame, while too many refreshes are missed, the rate drops to this share...
const SLOW_DOWN: f64 = 0.8;
/// ... and after this many frames on time it is back where it was.
const CLIMB_FRAMES: f64 = 50.0;
/// The frames the missed share is taken over (about a second at 60 Hz).
const SHARE_FRAMES: f64 = 60.0;
/// Missed refreshes tolerated before polling slows: a busy machine misses a few for reasons
/// of its own.
const TOLERATED_MISSED: f64 = 0.025;
/// How far above the steady rate polling may always go, so a backlog clears.
const STEADY_HEADROOM: f64 = 1.25;
/// Gaps shorter than this are not taken for the display's period (a 120 Hz display draws
/// every 8.3 ms).
const SHORTEST_PERIOD_MS: f64 = 8.0;
/// The period assumed until a frame has been seen.
const USUAL_PERIOD_MS: f64 = 1_000.0 / 60.0;
/// No frame for this long: the page is hidden (browsers pause frames there) or very busy;
/// the loop goes on without waiting for one.
pub const NO_FRAME_MS: i32 = 100;

/// The factor a frame on time raises the rate by: `CLIMB_FRAMES` of them undo one drop.
fn speed_up() -> f64 {
    (1.0 / SLOW_DOWN).powf(1.0 / CLIMB_FRAMES)
}

/// How many polls may start, moment by moment. Pure arithmetic, fed with frame times and
/// the clock (the page's `performance.now()`, the frames' own clock).
#[derive(Debug, Clone, PartialEq)]
pub struct PollPace {
    /// Polls per display period while frames come on time.
    rate: f64,
    /// Polls a second the board needs to poll every task at its interval.
    steady_per_second: f64,
    /// Polls that may start now (whole ones are spent).
    credit: f64,
    /// Up to when credit was counted.
    accrued_at: Option<f64>,
    last_frame_at: Option<f64>,
    /// The shortest gap between frames seen: the display's period.
    period_ms: Option<f64>,
    /// The share of display refreshes missed lately (a moving average over
    /// [`SHARE_FRAMES`] frames).
    missed_share: f64,
}

impl Default for PollPace {
    fn default() -> Self {
        Self {
            rate: MOST_PER_FRAME / 2.0,
            steady_per_second: 0.0,
            credit: MOST_PER_FRAME,
            accrued_at: None,
            last_frame_at: None,
            period_ms: None,
            missed_share: 0.0,
        }
    }
}

impl PollPace {
    /// Polls that may start now.
    pub fn allowed(&self) -> usize {
        // `credit` stays within 0..=most(), far below usize::MAX: the cast cannot truncate.
        self.credit.floor().max(0.0) as usize
    }

    /// `count` polls were started.
    pub fn spend(&mut self, count: usize) {
        self.credit = (self.credit - count as f64).max(0.0);
    }

    /// The board now needs `per_second` polls a second (the engine's
    /// `DuePolls::steady_per_second`): never held below that.
    pub fn set_steady_rate(&mut self, per_second: f64) {
        self.steady_per_second = if per_second.is_finite() {
            per_second.max(0.0)
        } else {
            0.0
        };
    }

    /// Count the credit earned up to `now_ms`.
    pub fn accrue(&mut self, now_ms: f64) {
        if let Some(since) = self.accrued_at {
            let elapsed = (now_ms - since).max(0.0);
            let per_period = self.rate.max(self.steady_per_period() * STEADY_HEADROOM);
            self.credit = (self.credit + per_period * elapsed / self.period()).min(self.most());
        }
        self.accrued_at = Some(self.accrued_at.map_or(now_ms, |since| since.max(now_ms)));
    }

    /// A frame was drawn at `at_ms` (the animation frame's time): a frame on time raises the
    /// rate a little; a late one slows it down while too many refreshes are missed.
    pub fn frame(&mut self, at_ms: f64) {
        if let Some(last) = self.last_frame_at {
            let gap = at_ms - last;
            if gap > 0.0 {
                let period = self
                    .period_ms
                    .map_or(gap, |p| p.min(gap))
                    .max(SHORTEST_PERIOD_MS);
                self.period_ms = Some(period);
                // 1.5 periods and more is a refresh missed; 2.5 and more, two.
                let missed = ((gap / period + 0.5).floor() - 1.0).max(0.0);
                self.missed(missed);
            }
        }
        self.last_frame_at = Some(at_ms);
        self.accrue(at_ms);
    }

    /// A visible page drew no frame for [`NO_FRAME_MS`]: as many refreshes missed. The next
    /// frame is not compared with this moment (a frame's time is when it began, which may be
    /// before now).
    pub fn late(&mut self) {
        self.missed(f64::from(NO_FRAME_MS) / self.period() - 1.0);
        self.last_frame_at = None;
    }

    /// No frame to go by: the page is hidden (it draws none), or the loop slept a while
    /// with nothing due. The whole allowance is given, and the next frame is not compared
    /// with an old one.
    pub fn rested(&mut self) {
        self.last_frame_at = None;
        self.period_ms = None;
        self.accrued_at = None;
        self.credit = self.most();
    }

    fn missed(&mut self, refreshes: f64) {
        self.missed_share =
            self.missed_share * (1.0 - 1.0 / SHARE_FRAMES) + refreshes / SHARE_FRAMES;
        if refreshes == 0.0 {
            self.rate = (self.rate * speed_up()).min(MOST_PER_FRAME);
        } else if self.missed_share > TOLERATED_MISSED {
            self.rate = (self.rate * SLOW_DOWN).max(FEWEST_PER_FRAME);
        }
    }

    fn period(&self) -> f64 {
        self.period_ms.unwrap_or(USUAL_PERIOD_MS)
    }

    fn steady_per_period(&self) -> f64 {
        self.steady_per_second * self.period() / 1_000.0
    }

    /// The most credit held at once: a burst's worth, or two periods of the steady rate.
    fn most(&self) -> f64 {
        MOST_PER_FRAME.max(2.0 * STEADY_HEADROOM * self.steady_per_period())
    }

    /// Polls per display period at present, beyond the steady rate (for tests).
    pub fn rate(&self) -> f64 {
        self.rate
    }
}

/// The page's clock (`performance.now()`), which animation frames are stamped with.
pub fn page_now() -> f64 {
    web_sys::window()
        .and_then(|window| window.performance())
        .map_or_else(js_sys::Date::now, |performance| performance.now())
}

/// Wait for the next animation frame, or [`NO_FRAME_MS`] if none comes, and feed it to
/// `pace`: a hidden page (which draws no frames) gets the whole allowance, a visible page
/// whose frame is that late counts it as late.
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
        None => {
            pace.late();
            pace.accrue(page_now());
        }
    }
}
