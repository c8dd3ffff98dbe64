//! Where keyboard focus goes when the element holding it is taken off the page.

use wasm_bindgen::JsCast;

/// Focus `element` if the focus fell back to the page itself (the focused control was
/// removed or hidden), so a keyboard user goes on from where they were.
pub fn rescue_focus(element: &web_sys::HtmlElement) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let lost = match document.active_element() {
        None => true,
        Some(active) => {
            document.body().is_some_and(|body| {
                active.unchecked_ref::<web_sys::Node>() == body.unchecked_ref::<web_sys::Node>()
            }) || !active.is_connected()
        }
    };
    if lost {
        let _ = element.focus();
    }
}
