//! Element ids made from names a server chose (a task id, a property, an input's key).

/// `text` as a piece of an element id: ASCII letters and digits kept, anything else `_`
/// (a server's name may hold spaces, quotes or characters a selector would have to escape).
pub fn id_part(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect()
}
