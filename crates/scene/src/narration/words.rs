//! The small words every sentence shares: a name as it follows a method, a figure as people
//! write it.

/// ` book_table`: a name as it follows a method or a word, or nothing.
pub(crate) fn named(name: Option<&str>) -> String {
    name.map(|name| format!(" {name}")).unwrap_or_default()
}

/// A progress figure as people write it: `3`, `2.5`.
pub(crate) fn number(value: f64) -> String {
    if value.fract() == 0.0 && value.abs() < 1e15 {
        format!("{}", value as i64)
    } else {
        format!("{value}")
    }
}
