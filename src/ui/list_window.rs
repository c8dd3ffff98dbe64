//! Which rows of a long list to draw: the ones in (and near) the visible part of its
//! scrolling region, and the space the rows before and after them would take, so the list
//! keeps its whole height and the scrollbar stays true. Arithmetic only (no DOM): the view
//! measures the rows it draws and hands the heights in.

use std::ops::Range;

/// The rows of a list's window and the space around them, in px.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Window {
    /// Positions in the shown order: `start..end` are drawn.
    pub start: usize,
    pub end: usize,
    /// Height of the rows before `start`, and after `end`.
    pub before: f64,
    pub after: f64,
}

impl Window {
    /// The first `rows` rows, before anything is measured or laid out.
    pub fn first(rows: usize, shown: usize) -> Self {
        Self {
            start: 0,
            end: rows.min(shown),
            before: 0.0,
            after: 0.0,
        }
    }

    pub fn positions(&self) -> Range<usize> {
        self.start..self.end
    }

    pub fn contains(&self, position: usize) -> bool {
        self.positions().contains(&position)
    }
}

/// Every row's height: measured once it was drawn, estimated until then (the mean of the
/// measured rows, or the first guess before any was).
#[derive(Debug, Clone, PartialEq)]
pub struct RowHeights {
    /// By row (not by shown position): 0 for a row never measured.
    measured: Vec<f64>,
    measured_sum: f64,
    measured_count: usize,
    guess: f64,
}

impl RowHeights {
    pub fn new(rows: usize, guess: f64) -> Self {
        Self {
            measured: vec![0.0; rows],
            measured_sum: 0.0,
            measured_count: 0,
            guess,
        }
    }

    /// The list grew (or shrank) to `rows` rows; measured heights of the rows kept stay.
    pub fn resize(&mut self, rows: usize) {
        for gone in self.measured.iter().skip(rows) {
            if *gone > 0.0 {
                self.measured_sum -= gone;
                self.measured_count -= 1;
            }
        }
        self.measured.resize(rows, 0.0);
    }

    pub fn len(&self) -> usize {
        self.measured.len()
    }

    pub fn is_empty(&self) -> bool {
        self.measured.is_empty()
    }

    /// Row `row` measured `height` px tall; whether that changes what was assumed of it
    /// (a height of 0 is a row that is not laid out, and is ignored).
    pub fn measure(&mut self, row: usize, height: f64) -> bool {
        let Some(slot) = self.measured.get_mut(row) else {
            return false;
        };
        if !(height.is_finite() && height > 0.0) || (*slot - height).abs() < 0.5 {
            return false;
        }
        if *slot > 0.0 {
            self.measured_sum -= *slot;
        } else {
            self.measured_count += 1;
        }
        self.measured_sum += height;
        *slot = height;
        true
    }

    /// What an unmeasured row is taken to be.
    pub fn estimate(&self) -> f64 {
        if self.measured_count == 0 {
            self.guess
        } else {
            self.measured_sum / self.measured_count as f64
        }
    }

    /// Row `row`'s height, measured or estimated.
    pub fn height(&self, row: usize) -> f64 {
        match self.measured.get(row) {
            Some(height) if *height > 0.0 => *height,
            _ => self.estimate(),
        }
    }
}

/// How many rows the window may hold, and below which length a list is drawn whole.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bounds {
    /// Drawn beyond the visible part each way, in px.
    pub overscan: f64,
    /// Drawn at most, however much of the list can be seen at once.
    pub max_rows: usize,
    /// A list of this many rows or fewer is drawn whole: nothing to save, and the
    /// browser's find-in-page sees every row.
    pub whole_up_to: usize,
}

/// The window of a list whose shown rows are `shown` (row numbers, in the order drawn),
/// when `visible` (px from the top of the list; may start above it or end below it) can be
/// seen: the rows that cross `visible` widened by the overscan each way, at most
/// `max_rows` of them. When none of the list can be seen (it is scrolled out of view, or
/// below the fold), the window is the screenful of rows nearest to `visible`: the ones that
/// come into view first.
pub fn window(
    shown: &[usize],
    heights: &RowHeights,
    visible: Range<f64>,
    bounds: Bounds,
) -> Window {
    if shown.len() <= bounds.whole_up_to {
        return Window::first(shown.len(), shown.len());
    }
    let Bounds {
        overscan, max_rows, ..
    } = bounds;
    let estimate = heights.estimate();
    let height_of = |row: usize| match heights.measured.get(row) {
        Some(height) if *height > 0.0 => *height,
        _ => estimate,
    };
    let total: f64 = shown.iter().map(|&row| height_of(row)).sum();
    let seen = (visible.end - visible.start).max(0.0);
    let visible = if visible.end <= 0.0 {
        0.0..seen
    } else if visible.start >= total {
        (total - seen).max(0.0)..total
    } else {
        visible
    };
    let from = visible.start - overscan;
    let to = visible.end + overscan;
    let mut top = 0.0;
    let mut start = None;
    let mut before = 0.0;
    let mut end = shown.len();
    for (position, &row) in shown.iter().enumerate() {
        let bottom = top + height_of(row);
        match start {
            None if bottom > from || position + 1 == shown.len() => {
                start = Some(position);
                before = top;
            }
            Some(first) if top >= to || position - first >= max_rows.max(1) => {
                end = position;
                break;
            }
            _ => {}
        }
        top = bottom;
    }
    let Some(start) = start else {
        return Window::first(0, 0);
    };
    let drawn_bottom = if end == shown.len() { total } else { top };
    Window {
        start,
        end,
        before,
        after: (total - drawn_bottom).max(0.0),
    }
}

/// Where the row at `position` of `shown` starts, in px from the top of the list.
pub fn top_of(shown: &[usize], heights: &RowHeights, position: usize) -> f64 {
    shown
        .iter()
        .take(position)
        .map(|&row| heights.height(row))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    fn all(rows: usize) -> Vec<usize> {
        (0..rows).collect()
    }

    fn bounds(overscan: f64, max_rows: usize) -> Bounds {
        Bounds {
            overscan,
            max_rows,
            whole_up_to: 0,
        }
    }

    #[wasm_bindgen_test]
    fn the_window_holds_the_visible_rows_and_the_overscan() {
        let heights = RowHeights::new(10_000, 50.0);
        // Rows 20..30 are visible (1,000..1,500 px); 100 px more each way adds two rows.
        let window = window(&all(10_000), &heights, 1_000.0..1_500.0, bounds(100.0, 500));
        assert_eq!(window.positions(), 18..32);
        assert_eq!(window.before, 18.0 * 50.0);
        assert_eq!(window.after, (10_000.0 - 32.0) * 50.0);
    }

    #[wasm_bindgen_test]
    fn the_space_around_the_window_keeps_the_whole_height() {
        let mut heights = RowHeights::new(1_000, 40.0);
        for row in 0..10 {
            heights.measure(row, 60.0 + row as f64);
        }
        let shown = all(1_000);
        let total: f64 = shown.iter().map(|&row| heights.height(row)).sum();
        for visible in [0.0..300.0, 5_000.0..5_400.0, 60_000.0..60_500.0] {
            let window = window(&shown, &heights, visible.clone(), bounds(200.0, 500));
            let drawn: f64 = window.positions().map(|p| heights.height(shown[p])).sum();
            assert!(
                (window.before + drawn + window.after - total).abs() < 1e-6,
                "{visible:?}: {window:?}"
            );
        }
    }

    #[wasm_bindgen_test]
    fn scrolled_to_the_end_the_last_row_is_drawn() {
        let heights = RowHeights::new(10_000, 50.0);
        let window = window(
            &all(10_000),
            &heights,
            499_600.0..500_000.0,
            bounds(0.0, 500),
        );
        assert_eq!(window.end, 10_000);
        assert_eq!(window.after, 0.0);
        // Past the end (the list shrank under a scrolled region): still the last rows.
        let window = super::window(
            &all(10_000),
            &heights,
            900_000.0..900_400.0,
            bounds(0.0, 500),
        );
        assert_eq!(window.positions(), 9_992..10_000);
    }

    #[wasm_bindgen_test]
    fn a_filtered_list_windows_its_own_rows_with_their_heights() {
        let mut heights = RowHeights::new(100, 50.0);
        heights.measure(3, 40.0);
        heights.measure(90, 200.0);
        let shown = [3, 90, 97];
        // Row 3 takes 0..40, row 90 40..240, row 97 (never measured: the mean, 120) after.
        let window = window(&shown, &heights, 0.0..60.0, bounds(0.0, 500));
        assert_eq!(window.positions(), 0..2);
        assert_eq!(window.after, 120.0);
        assert_eq!(top_of(&shown, &heights, 2), 240.0);
    }

    #[wasm_bindgen_test]
    fn a_short_list_is_drawn_whole() {
        let heights = RowHeights::new(100, 50.0);
        let whole = Bounds {
            overscan: 0.0,
            max_rows: 10,
            whole_up_to: 100,
        };
        assert_eq!(
            window(&all(100), &heights, 0.0..100.0, whole),
            Window::first(100, 100)
        );
        let longer = window(&all(101), &heights, 0.0..100.0, whole);
        assert_eq!(longer.positions(), 0..2);
    }

    #[wasm_bindgen_test]
    fn nothing_shown_is_an_empty_window() {
        let heights = RowHeights::new(10, 50.0);
        assert_eq!(
            window(&[], &heights, 0.0..500.0, bounds(100.0, 500)),
            Window::first(0, 0)
        );
    }

    #[wasm_bindgen_test]
    fn a_list_out_of_view_draws_the_screenful_that_comes_into_view_first() {
        let heights = RowHeights::new(100, 50.0);
        // The list starts 1,000 px below a 400 px view: its first 400 px, and the overscan.
        let below = window(&all(100), &heights, -1_000.0..-600.0, bounds(100.0, 500));
        assert_eq!(below.positions(), 0..10);
        assert_eq!(below.after, 90.0 * 50.0);
        // Scrolled 1,000 px past its end: its last 400 px, and the overscan.
        let past = window(&all(100), &heights, 6_000.0..6_400.0, bounds(100.0, 500));
        assert_eq!(past.positions(), 90..100);
        assert_eq!(past.before, 90.0 * 50.0);
        // A list not laid out at all (0..0): still its first row, not none.
        let unlaid = window(&all(100), &heights, 0.0..0.0, bounds(100.0, 500));
        assert_eq!(unlaid.positions(), 0..2);
    }

    #[wasm_bindgen_test]
    fn at_most_max_rows_are_drawn() {
        let heights = RowHeights::new(10_000, 10.0);
        let window = window(&all(10_000), &heights, 0.0..100_000.0, bounds(0.0, 300));
        assert_eq!(window.positions(), 0..300);
        assert_eq!(window.after, (10_000.0 - 300.0) * 10.0);
    }

    #[wasm_bindgen_test]
    fn measuring_replaces_the_estimate_and_moves_it() {
        let mut heights = RowHeights::new(4, 50.0);
        assert_eq!(heights.estimate(), 50.0);
        assert!(heights.measure(0, 80.0));
        assert!(!heights.measure(0, 80.2), "sub-pixel changes are no change");
        assert!(
            !heights.measure(1, 0.0),
            "a row not laid out is not measured"
        );
        assert_eq!(heights.height(0), 80.0);
        assert_eq!(heights.height(3), 80.0, "the mean of the measured rows");
        assert!(heights.measure(1, 60.0));
        assert_eq!(heights.estimate(), 70.0);
        heights.resize(1);
        assert_eq!(
            heights.estimate(),
            80.0,
            "a row gone takes its height with it"
        );
        assert!(!heights.measure(3, 10.0), "no such row");
    }
}
