//! A part of the scene the inspector can show: one keyboard stop, picked by a click, by focus,
//! or by Enter or Space (which picks it again after Escape cleared the pick), and drawn as
//! selected while the inspector shows it.

use holdbay_scene::Part;
use leptos::prelude::*;

use super::{SceneContext, is_activation};

#[component]
pub(super) fn Pickable(
    part: Part,
    /// The group's classes (`selected` is added while it is picked).
    #[prop(into)]
    class: String,
    /// What a screen reader says of the part.
    label: String,
    /// Where it is drawn in its drawing, as an SVG transform.
    #[prop(optional)]
    transform: Option<String>,
    children: Children,
) -> impl IntoView {
    let scene = SceneContext::current();
    let selected = {
        let part = part.clone();
        move || scene.is_selected(&part)
    };
    // The part is handled here: a click or focus does not also pick the part drawn around it.
    let on_click = {
        let part = part.clone();
        move |event: leptos::ev::MouseEvent| {
            event.stop_propagation();
            scene.select(part.clone());
        }
    };
    let on_focus = {
        let part = part.clone();
        move |event: leptos::ev::FocusEvent| {
            event.stop_propagation();
            scene.select(part.clone());
        }
    };
    let on_key = move |event: leptos::ev::KeyboardEvent| {
        if is_activation(&event) {
            event.prevent_default();
            event.stop_propagation();
            scene.select(part.clone());
        }
    };
    view! {
        <g
            class=class
            class:selected=selected
            transform=transform
            role="group"
            tabindex="0"
            aria-label=label
            on:click=on_click
            on:focus=on_focus
            on:keydown=on_key
        >
            {children()}
        </g>
    }
}
