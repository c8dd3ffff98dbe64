//! An exchange as a `curl` command: the URL that was fetched, the headers as they were sent,
//! the body byte for byte. Credential values are redacted unless the caller passes the
//! connection's own headers (the user opted in): the log never recorded them.

use super::WireEntry;

/// What a redacted credential value becomes.
pub const REDACTED: &str = "<redacted>";

/// Whether a header carries a credential: `Authorization`, `Proxy-Authorization`,
/// `Cookie`, or a name that says key, token or secret.
pub fn is_credential_header(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    ["authorization", "cookie"]
        .iter()
        .any(|exact| name.ends_with(exact))
        || ["token", "secret", "api-key", "apikey", "api_key"]
            .iter()
            .any(|part| name.contains(part))
}

/// `entry` as a shell command. `page_origin` makes a relative URL (the relay) absolute.
/// `credentials`: the extra headers of the connection, to put their real values in place of
/// redacted ones (only when the user asked); `None` redacts every credential value.
pub fn curl_command(
    entry: &WireEntry,
    page_origin: &str,
    credentials: Option<&[(String, String)]>,
) -> String {
    let url = if entry.url.starts_with('/') {
        format!("{}{}", page_origin.trim_end_matches('/'), entry.url)
    } else {
        entry.url.clone()
    };
    let mut lines = vec![format!("curl -sS -N -X POST {}", quote(&url))];
    for (name, value) in &entry.request_headers {
        let value = if is_credential_header(name) || entry.is_withheld(name) {
            credential_value(name, value, credentials)
        } else {
            value.clone()
        };
        lines.push(format!("-H {}", quote(&format!("{name}: {value}"))));
    }
    lines.push(format!("--data-raw {}", quote(&entry.request_body)));
    lines.join(" \\\n  ")
}

/// The value to print for a credential header: the connection's own when the user opted in
/// and it has one, else the scheme (if any) and [`REDACTED`].
fn credential_value(
    name: &str,
    recorded: &str,
    credentials: Option<&[(String, String)]>,
) -> String {
    let own = credentials.and_then(|headers| {
        headers
            .iter()
            .find(|(key, value)| key.trim().eq_ignore_ascii_case(name) && !value.trim().is_empty())
            .map(|(_, value)| value.trim().to_owned())
    });
    if let Some(value) = own {
        return value;
    }
    let mut words = recorded.split_whitespace();
    match (words.next(), words.next()) {
        // `Bearer •••`: keep the scheme, redact the rest.
        (Some(scheme), Some(_)) => format!("{scheme} {REDACTED}"),
        _ => REDACTED.to_owned(),
    }
}

/// One shell word, single-quoted (a `'` inside becomes `'\''`).
pub fn quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test]
    fn quotes_survive_the_shell() {
        assert_eq!(quote("it's"), r"'it'\''s'");
    }

    #[wasm_bindgen_test]
    fn credentials_are_told_by_name() {
        assert!(is_credential_header("Authorization"));
        assert!(is_credential_header("X-Api-Key"));
        assert!(is_credential_header("x-auth-token"));
        assert!(!is_credential_header("Mcp-Name"));
        assert!(!is_credential_header("Content-Type"));
    }
}
