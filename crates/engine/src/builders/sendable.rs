//! Whether a request can go on the wire at all: headers past the size servers accept are
//! refused by them before any MCP rule applies (nginx and Apache with 400, Node.js with 431,
//! which a browser reports as a network failure), so the client refuses to send them first,
//! saying which header is too long.

use crate::vocabulary::limits::{Limits, grouped};

/// A request the client will not send: its headers are over [`Limits::max_header_bytes`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "not sent: its headers would be {} bytes ({largest} alone {} bytes), over the {} bytes \
     servers accept (Limits::max_header_bytes: nginx and Apache refuse a longer header line, \
     Node.js answers 431)",
    grouped(*total),
    grouped(*largest_bytes),
    grouped(*limit)
)]
pub struct Unsendable {
    /// Bytes of every header line (`name: value` and the line break).
    pub total: usize,
    /// The longest header's name.
    pub largest: String,
    pub largest_bytes: usize,
    pub limit: usize,
}

/// Bytes a header takes on the wire in HTTP/1.1: `name: value\r\n`.
fn line_bytes(name: &str, value: &str) -> usize {
    name.len() + value.len() + 4
}

/// `headers` (the request's, with the user's extra ones) within `limits`.
pub fn check_sendable(headers: &[(String, String)], limits: &Limits) -> Result<(), Unsendable> {
    let total: usize = headers
        .iter()
        .map(|(name, value)| line_bytes(name, value))
        .sum();
    if total <= limits.max_header_bytes {
        return Ok(());
    }
    let (largest, largest_bytes) = headers
        .iter()
        .map(|(name, value)| (name.as_str(), line_bytes(name, value)))
        .max_by_key(|(_, bytes)| *bytes)
        .unwrap_or_default();
    Err(Unsendable {
        total,
        largest: largest.to_owned(),
        largest_bytes,
        limit: limits.max_header_bytes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(name_value: &[(&str, usize)]) -> Vec<(String, String)> {
        name_value
            .iter()
            .map(|(name, len)| ((*name).to_owned(), "x".repeat(*len)))
            .collect()
    }

    #[test]
    fn headers_up_to_the_bound_are_sendable() {
        let limits = Limits::default();
        // 8,192 bytes in all: the Mcp-Name line takes what the others leave.
        let others = line_bytes("Accept", "xxxx");
        let name_len = limits.max_header_bytes - others - line_bytes("Mcp-Name", "");
        let fits = headers(&[("Accept", 4), ("Mcp-Name", name_len)]);
        assert_eq!(check_sendable(&fits, &limits), Ok(()));
        let over = headers(&[("Accept", 4), ("Mcp-Name", name_len + 1)]);
        assert_eq!(
            check_sendable(&over, &limits),
            Err(Unsendable {
                total: limits.max_header_bytes + 1,
                largest: "Mcp-Name".to_owned(),
                largest_bytes: name_len + 1 + line_bytes("Mcp-Name", ""),
                limit: limits.max_header_bytes,
            })
        );
    }

    #[test]
    fn the_refusal_names_the_header_and_the_bound() {
        let error = check_sendable(&headers(&[("Mcp-Name", 102_400)]), &Limits::default())
            .expect_err("too large");
        assert_eq!(
            error.to_string(),
            "not sent: its headers would be 102,412 bytes (Mcp-Name alone 102,412 bytes), over \
             the 8,192 bytes servers accept (Limits::max_header_bytes: nginx and Apache refuse \
             a longer header line, Node.js answers 431)"
        );
    }
}
