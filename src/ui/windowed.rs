//! A long list drawn a window at a time (the arithmetic is `list_window`): where the list's
//! scrolling region lets it be seen, the heights of the rows drawn, and when to look again
//! (a scroll anywhere in the page, a resize, the shown rows changing). At most one look per
//! frame, in the frame's animation callback, so what is drawn is settled before it paints.
//!
//! The list is a `<ul>` whose rows are `<li data-row=N>` (N: the row's number in the whole
//! list); the space of the rows not drawn is the list's own top and bottom padding.

use std::ops::Range;

use leptos::html::Ul;
use leptos::prelude::*;
use send_wrapper::SendWrapper;
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;

use super::list_window::{Bounds, RowHeights, Window, window};

/// Taken as a row's height until one is measured.
const ROW_GUESS_PX: f64 = 64.0;
const BOUNDS: Bounds = Bounds {
    // Beyond the visible part each way, so a quick scroll or a key press finds rows.
    overscan: 480.0,
    max_rows: 240,
    // A list the size of most servers' is drawn whole, as before.
    whole_up_to: 100,
};

/// A windowed list's state. `Copy`: arena handles.
#[derive(Clone, Copy)]
pub struct Windowed {
    list: NodeRef<Ul>,
    /// The part of the list that can be seen, in px from its top.
    visible: RwSignal<Range<f64>>,
    heights: StoredValue<RowHeights>,
    /// Counts the measurements that changed a height (the window follows them).
    measured: RwSignal<u32>,
    window: Memo<Window>,
    /// A look is asked for in the next frame.
    scheduled: StoredValue<bool>,
    /// The list's scrolling region, once found (`Some(None)`: the page itself scrolls).
    region: StoredValue<Option<Option<web_sys::Element>>, LocalStorage>,
}

impl Windowed {
    /// The window over `shown` (row numbers in the order drawn) of a list of `rows` rows.
    /// Follows the page's scrolling until the owner is cleaned up.
    pub fn new(shown: Memo<Vec<usize>>, rows: Memo<usize>) -> Self {
        let screen = web_sys::window()
            .and_then(|w| w.inner_height().ok())
            .and_then(|h| h.as_f64())
            .unwrap_or(720.0);
        let heights = StoredValue::new(RowHeights::new(0, ROW_GUESS_PX));
        let visible = RwSignal::new(0.0..screen);
        let measured = RwSignal::new(0u32);
        let window = Memo::new(move |_| {
            measured.track();
            let count = rows.get();
            heights.update_value(|heights| {
                if heights.len() != count {
                    heights.resize(count);
                }
            });
            let visible = visible.get();
            shown
                .with(|shown| heights.with_value(|heights| window(shown, heights, visible, BOUNDS)))
        });
        let this = Self {
            list: NodeRef::new(),
            visible,
            heights,
            measured,
            window,
            scheduled: StoredValue::new(false),
            region: StoredValue::new_local(None),
        };
        this.follow_the_page();
        // The shown rows changed (a search, a page of the list): measure what they drew.
        Effect::new(move |_| {
            shown.track();
            this.look_soon();
        });
        this
    }

    pub fn list(&self) -> NodeRef<Ul> {
        self.list
    }

    pub fn window(&self) -> Memo<Window> {
        self.window
    }

    /// A scroll anywhere (capture: scroll events do not bubble) or a resize: look again.
    fn follow_the_page(self) {
        let Some(page) = web_sys::window() else {
            return;
        };
        let listener: Closure<dyn Fn()> = Closure::new(move || self.look_soon());
        let options = web_sys::AddEventListenerOptions::new();
        options.set_capture(true);
        options.set_passive(true);
        let function = listener.as_ref().unchecked_ref::<js_sys::Function>();
        let _ = page.add_event_listener_with_callback_and_add_event_listener_options(
            "scroll", function, &options,
        );
        let _ = page.add_event_listener_with_callback("resize", function);
        let parts = SendWrapper::new((page, listener));
        on_cleanup(move || {
            let (page, listener) = parts.take();
            let function = listener.as_ref().unchecked_ref::<js_sys::Function>();
            let _ = page.remove_event_listener_with_callback_and_bool("scroll", function, true);
            let _ = page.remove_event_listener_with_callback("resize", function);
        });
    }

    /// Look in the next frame (once, however often asked before it).
    pub fn look_soon(self) {
        if self.scheduled.try_get_value() != Some(false) {
            return;
        }
        self.scheduled.set_value(true);
        request_animation_frame(move || {
            // `Some`: the list is gone (its owner was cleaned up).
            if self.scheduled.try_set_value(false).is_some() {
                return;
            }
            self.look();
        });
    }

    /// Measure the rows drawn, see where the list can be seen, and move the window. When
    /// that draws new rows, they are measured in the next frame.
    pub fn look(self) {
        let Some(list) = self.list.get_untracked().filter(|list| list.is_connected()) else {
            return;
        };
        let before = self.window.get_untracked();
        self.measure(&list);
        if self.region.with_value(Option::is_none) {
            self.region.set_value(Some(scrolling_region(&list)));
        }
        let region = self.region.with_value(|region| region.clone().flatten());
        if let Some(visible) = visible_part(&list, region.as_ref())
            && self.visible.with_untracked(|now| *now != visible)
        {
            self.visible.set(visible);
        }
        if self.window.get_untracked().positions() != before.positions() {
            self.look_soon();
        }
    }

    fn measure(self, list: &web_sys::HtmlUListElement) {
        let items = list.children();
        let mut changed = false;
        self.heights.update_value(|heights| {
            for at in 0..items.length() {
                let Some(item) = items.item(at) else { continue };
                let Some(row) = item
                    .get_attribute("data-row")
                    .and_then(|row| row.parse::<usize>().ok())
                else {
                    continue;
                };
                changed |= heights.measure(row, item.get_bounding_client_rect().height());
            }
        });
        if changed {
            self.measured.update(|n| *n = n.wrapping_add(1));
        }
    }
}

/// The part of `list` its scrolling region (and the browser window) shows, in px from the
/// list's top; `None` while it is not laid out (hidden).
fn visible_part(list: &web_sys::Element, region: Option<&web_sys::Element>) -> Option<Range<f64>> {
    let page = web_sys::window()?;
    let screen = page.inner_height().ok()?.as_f64()?;
    let rect = list.get_bounding_client_rect();
    if rect.width() == 0.0 && rect.height() == 0.0 {
        return None;
    }
    let (mut top, mut bottom) = (0.0, screen);
    if let Some(region) = region {
        let frame = region.get_bounding_client_rect();
        let inner_top = frame.top() + f64::from(region.client_top());
        top = inner_top.max(top);
        bottom = (inner_top + f64::from(region.client_height())).min(bottom);
    }
    Some((top - rect.top())..(bottom - rect.top()))
}

/// The nearest ancestor that scrolls (`overflow-y` auto or scroll), if any: the page itself
/// scrolls otherwise.
fn scrolling_region(list: &web_sys::Element) -> Option<web_sys::Element> {
    let page = web_sys::window()?;
    let mut at = list.parent_element();
    while let Some(element) = at {
        let scrolls = page
            .get_computed_style(&element)
            .ok()
            .flatten()
            .and_then(|style| style.get_property_value("overflow-y").ok())
            .is_some_and(|overflow| matches!(overflow.as_str(), "auto" | "scroll" | "overlay"));
        if scrolls {
            return Some(element);
        }
        at = element.parent_element();
    }
    None
}
