//! How a client may show binary content a server sent (an image or audio block, a blob of
//! a resource): inline as a `data:` URL only for `image/*` and `audio/*` MIME types, with
//! well-formed base64, under a size limit; anything else is described, never inlined, so a
//! server cannot smuggle another URL or markup into the page.

use rmcp::model::{DiscoverResult, ResourceContents};

/// The largest decoded size shown inline (4 MiB).
pub const MAX_INLINE_BYTES: usize = 4 * 1024 * 1024;

/// What to do with one piece of base64 content.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Media {
    /// An image to show from this `data:` URL.
    Image { data_url: String },
    /// Audio to play from this `data:` URL.
    Audio { data_url: String },
    /// Not shown inline: say why, with the decoded size.
    Described { bytes: usize, why: NotInline },
}

/// Why binary content is not shown inline.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotInline {
    /// Not an `image/*` or `audio/*` MIME type (or none, or a malformed one).
    NotMedia,
    /// The data is not base64.
    NotBase64,
    /// Larger than [`MAX_INLINE_BYTES`].
    TooLarge,
}

impl std::fmt::Display for NotInline {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::NotMedia => "not an image or audio type, so not shown inline",
            Self::NotBase64 => "the data is not base64, so not shown",
            Self::TooLarge => "too large to show inline",
        })
    }
}

/// Decide how to show base64 `data` of `mime_type`.
pub fn media(mime_type: Option<&str>, data: &str) -> Media {
    let bytes = base64_decoded_len(data);
    let described = |why| Media::Described { bytes, why };
    let mime = mime_type.unwrap_or_default();
    let well_formed = !mime.is_empty()
        && mime
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"/+-.".contains(&b));
    let kind = if !well_formed {
        None
    } else if mime.starts_with("image/") {
        Some(true)
    } else if mime.starts_with("audio/") {
        Some(false)
    } else {
        None
    };
    let Some(image) = kind else {
        return described(NotInline::NotMedia);
    };
    if !is_base64(data) {
        return described(NotInline::NotBase64);
    }
    if bytes > MAX_INLINE_BYTES {
        return described(NotInline::TooLarge);
    }
    let data_url = format!("data:{mime};base64,{data}");
    if image {
        Media::Image { data_url }
    } else {
        Media::Audio { data_url }
    }
}

/// Padded or unpadded standard base64 (whitespace is not allowed in a `data:` URL).
fn is_base64(data: &str) -> bool {
    let body = data.trim_end_matches('=');
    !data.is_empty()
        && data.len() - body.len() <= 2
        && body
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'+' || b == b'/')
}

/// Bytes that base64 text decodes to.
pub fn base64_decoded_len(data: &str) -> usize {
    let symbols = data
        .bytes()
        .filter(|b| !b.is_ascii_whitespace() && *b != b'=')
        .count();
    symbols * 3 / 4
}

/// The first `limit` decoded bytes of base64 `data` as hex pairs (a glance at a blob that
/// is not shown), or `None` when it is not base64.
pub fn hex_preview(data: &str, limit: usize) -> Option<String> {
    if !is_base64(data) {
        return None;
    }
    let mut bits: u32 = 0;
    let mut count = 0;
    let mut out = Vec::new();
    for b in data.bytes().take_while(|b| *b != b'=') {
        let value = match b {
            b'A'..=b'Z' => b - b'A',
            b'a'..=b'z' => b - b'a' + 26,
            b'0'..=b'9' => b - b'0' + 52,
            b'+' => 62,
            _ => 63,
        };
        bits = (bits << 6) | u32::from(value);
        count += 6;
        if count >= 8 {
            count -= 8;
            out.push(format!("{:02x}", (bits >> count) & 0xff));
            if out.len() == limit {
                break;
            }
        }
    }
    Some(out.join(" "))
}

/// One item of a `resources/read` result, as a client shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ResourceBody<'a> {
    Text {
        uri: &'a str,
        mime_type: Option<&'a str>,
        text: &'a str,
    },
    Blob {
        uri: &'a str,
        mime_type: Option<&'a str>,
        media: Media,
        blob: &'a str,
    },
    /// A kind of contents this client does not know.
    Unknown,
}

/// How to show one resource contents item (text, or a blob judged by [`media`]).
pub fn resource_body(contents: &ResourceContents) -> ResourceBody<'_> {
    match contents {
        ResourceContents::TextResourceContents {
            uri,
            mime_type,
            text,
            ..
        } => ResourceBody::Text {
            uri,
            mime_type: mime_type.as_deref(),
            text,
        },
        ResourceContents::BlobResourceContents {
            uri,
            mime_type,
            blob,
            ..
        } => ResourceBody::Blob {
            uri,
            mime_type: mime_type.as_deref(),
            media: media(mime_type.as_deref(), blob),
            blob,
        },
        _ => ResourceBody::Unknown,
    }
}

/// Whether the server offers `completion/complete` (its `completions` capability).
pub fn offers_completions(discovered: &DiscoverResult) -> bool {
    discovered.capabilities.completions.is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    const PNG_1X1: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

    #[test]
    fn images_and_audio_become_data_urls() {
        assert_eq!(
            media(Some("image/png"), PNG_1X1),
            Media::Image {
                data_url: format!("data:image/png;base64,{PNG_1X1}")
            }
        );
        assert!(matches!(
            media(Some("audio/wav"), "UklGRg=="),
            Media::Audio { .. }
        ));
    }

    #[test]
    fn other_types_and_bad_data_are_only_described() {
        let described = |mime: Option<&str>, data: &str| match media(mime, data) {
            Media::Described { why, .. } => Some(why),
            _ => None,
        };
        assert_eq!(
            described(Some("application/pdf"), "AAAA"),
            Some(NotInline::NotMedia)
        );
        assert_eq!(described(None, "AAAA"), Some(NotInline::NotMedia));
        assert_eq!(
            described(Some("text/html"), "AAAA"),
            Some(NotInline::NotMedia)
        );
        // A MIME type that would break out of the data: URL.
        assert_eq!(
            described(Some("image/png;base64,x\" onerror=\""), "AAAA"),
            Some(NotInline::NotMedia)
        );
        assert_eq!(
            described(Some("image/png"), "not base64!"),
            Some(NotInline::NotBase64)
        );
        assert_eq!(described(Some("image/png"), ""), Some(NotInline::NotBase64));
        let huge = "A".repeat(MAX_INLINE_BYTES / 3 * 4 + 8);
        assert_eq!(
            described(Some("image/png"), &huge),
            Some(NotInline::TooLarge)
        );
    }

    #[test]
    fn decoded_sizes_and_hex() {
        assert_eq!(base64_decoded_len("AAAA"), 3);
        assert_eq!(base64_decoded_len("AAA="), 2);
        assert_eq!(base64_decoded_len("AA=="), 1);
        assert_eq!(base64_decoded_len(PNG_1X1), 70);
        assert_eq!(hex_preview(PNG_1X1, 4).as_deref(), Some("89 50 4e 47"));
        assert_eq!(hex_preview("SGk=", 10).as_deref(), Some("48 69"));
        assert_eq!(hex_preview("%%", 10), None);
    }

    #[test]
    fn resource_contents_are_text_or_judged_blobs() {
        let text = ResourceContents::text("hello", "demo://a");
        assert!(matches!(
            resource_body(&text),
            ResourceBody::Text { text: "hello", .. }
        ));
        let blob = ResourceContents::BlobResourceContents {
            uri: "demo://b".into(),
            mime_type: Some("application/octet-stream".into()),
            blob: "AAEC".into(),
            meta: None,
        };
        assert!(matches!(
            resource_body(&blob),
            ResourceBody::Blob {
                media: Media::Described {
                    bytes: 3,
                    why: NotInline::NotMedia
                },
                ..
            }
        ));
    }
}
