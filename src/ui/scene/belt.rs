//! The conveyor's belt geometry, in its viewBox: shared by the conveyor and the legacy
//! session's parts drawn on it.

/// Where the belt starts.
pub(super) const BELT_START: f64 = 96.0;
pub(super) const PIECE_WIDTH: f64 = 196.0;
pub(super) const LANE_HEIGHT: f64 = 26.0;
/// Where a standing line is drawn: a listen stream, or a legacy session (never both).
pub(super) const LISTEN_Y: f64 = 124.0;
