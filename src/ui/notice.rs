use leptos::prelude::*;

/// A failure, said plainly; the page stays usable.
#[component]
pub fn ErrorNotice(#[prop(into)] title: String, message: String) -> impl IntoView {
    let message = sentence_case(&message);
    view! {
        <section class="error-notice" role="alert">
            <h2>{title}</h2>
            <p class="error-message">{message}</p>
        </section>
    }
}

/// Error texts follow Rust's lowercase convention; on the page they start a sentence.
/// (ASCII only: the messages are ours, and Unicode case tables cost wasm size.)
fn sentence_case(text: &str) -> String {
    let mut out = text.to_owned();
    if let Some(first) = out.get_mut(..1) {
        first.make_ascii_uppercase();
    }
    out
}
