//! Small media the demo's content shows: a 32×32 PNG (a tray with its latch) and a quarter
//! second of 440 Hz as an 8 kHz WAV, both base64.

pub const LOGO_PNG: &str = include_str!("../media/logo.png.b64");
pub const TONE_WAV: &str = include_str!("../media/tone.wav.b64");
/// Eight bytes that are no media type at all (shown as a hex note, never inline).
pub const SAMPLE_BIN: &str = "SE9MREJBWQA=";
