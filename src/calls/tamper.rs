//! Lesson 8's deliberate fault: the latch the next retry carries, with one character
//! changed. The engine sends it (`LogicalRequest::tamper_request_state`); a correct server
//! refuses it.

/// The latch as the server sealed it and as the next retry will carry it.
#[derive(Debug, Clone, PartialEq)]
pub struct LatchTamper {
    /// The round whose latch was changed.
    pub round: u32,
    pub before: String,
    pub after: String,
    /// Which character changed (from 0).
    pub position: usize,
}

/// `token` with its middle character replaced by another one of the same base64url alphabet
/// (so it still looks like a latch); `None` for an empty token.
pub fn flip_one_character(token: &str) -> Option<(String, usize)> {
    let mut chars: Vec<char> = token.chars().collect();
    if chars.is_empty() {
        return None;
    }
    let position = chars.len() / 2;
    chars[position] = if chars[position] == 'A' { 'B' } else { 'A' };
    Some((chars.into_iter().collect(), position))
}
