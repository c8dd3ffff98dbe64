//! The roomy cartridges: one SVG group per task, drawn while the magazine holds few enough
//! to read each one's tool, message and marks. Keyed by (task, version), so only a changed
//! cartridge is redrawn.

use holdbay_engine::Shown;
use holdbay_engine::model::TaskStatus;
use holdbay_engine::protocol::task_status_name;
use holdbay_scene::{CancelAsk, Cartridge, Part};
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::super::parts::{TagView, truncate};
use super::super::{SceneContext, is_activation};
use super::{Grid, MagazineSvg};

/// Whether the server acknowledged a cancel ask: `pending`, `true` or `false`.
pub(super) fn acknowledgement(ask: &CancelAsk) -> &'static str {
    match ask.acknowledged {
        None => "pending",
        Some(true) => "true",
        Some(false) => "false",
    }
}

/// Row baselines and spacing of a roomy cell, in the magazine's units.
/// Characters of a task id drawn after its tool's name.
const ID_SHOWN: usize = 4;
const ROW_3: f64 = 60.0;
const MARGIN: f64 = 7.0;
const PAD: f64 = 5.0;
const GAP: f64 = 6.0;
const SEALED: &str = "sealed";
const RESTORED: &str = "restored";

/// The width a label takes at the cells' font size (12.5 units of DejaVu Sans, which
/// averages under 0.6 em a character), so a badge is sized to its text.
fn text_width(text: &str) -> f64 {
    text.chars().count() as f64 * 7.4
}

/// A sign per status, drawn in the lamp: the lamp's colour is never the only cue.
pub(in crate::ui::scene) fn status_glyph(status: TaskStatus) -> &'static str {
    match status {
        TaskStatus::Working => "…",
        TaskStatus::InputRequired => "?",
        TaskStatus::Completed => "✓",
        TaskStatus::Failed => "✕",
        TaskStatus::Cancelled => "⊘",
        // A status a later revision adds: its word still shows beside the lamp.
        _ => "•",
    }
}

/// What one cartridge shows.
#[derive(Clone, PartialEq)]
pub(super) struct CartridgeView {
    pub(super) task_id: String,
    slot: usize,
    version: u64,
    /// The status as the wire spells it.
    pub(super) status: &'static str,
    /// The status as a sign, so colour is not its only cue.
    glyph: &'static str,
    message: Option<String>,
    tool: Option<String>,
    pub(super) sealed: bool,
    pub(super) restored: bool,
    tags: Vec<TagView>,
    /// (acknowledged: pending/true/false, outcome)
    cancel: Option<(&'static str, String)>,
}

impl CartridgeView {
    /// `place`: its place in the magazine (the scene's cartridges only).
    pub(super) fn of(cartridge: &Cartridge, place: usize) -> Self {
        Self {
            task_id: cartridge.task_id.clone(),
            slot: place,
            version: cartridge.version,
            status: task_status_name(cartridge.status),
            glyph: status_glyph(cartridge.status),
            message: cartridge.status_message.clone(),
            tool: cartridge.tool.clone(),
            sealed: cartridge.is_sealed(),
            restored: cartridge.restored,
            tags: cartridge.tags.iter().map(TagView::of).collect(),
            cancel: cartridge.cancel.as_ref().map(|ask| {
                let acknowledged = acknowledgement(ask);
                let outcome = ask.outcome.map(task_status_name).unwrap_or_default();
                (acknowledged, outcome.to_owned())
            }),
        }
    }

    /// The lamp's class: the status's wire name (the stylesheet colours each).
    fn lamp_class(&self) -> &'static str {
        self.status
    }

    pub(super) fn aria_label(&self) -> String {
        let mut label = format!("Task {}", self.task_id);
        if let Some(tool) = &self.tool {
            label.push_str(&format!(" ({tool})"));
        }
        label.push_str(&format!(": {}", self.status));
        if let Some(message) = &self.message {
            label.push_str(&format!(", {message}"));
        }
        if self.sealed {
            label.push_str(", sealed");
        }
        if self.restored {
            label.push_str(", restored from storage");
        }
        if !self.tags.is_empty() {
            label.push_str(&format!(", {} input requests open", self.tags.len()));
        }
        if let Some((acknowledged, outcome)) = &self.cancel {
            label.push_str(&format!(", cancel asked (acknowledged: {acknowledged}"));
            if !outcome.is_empty() {
                label.push_str(&format!(", outcome {outcome}"));
            }
            label.push(')');
        }
        label
    }
}

/// The magazine while it holds few cartridges: each one its own group, focus roving
/// between them.
#[component]
pub(super) fn RoomyCells(grid: Grid, count: Memo<usize>) -> impl IntoView {
    let traffic = SceneContext::current().traffic;
    let cartridges = Memo::new(move |_| {
        traffic.track_calm();
        traffic.with(|t| {
            t.scene_cartridges()
                .iter()
                .enumerate()
                .map(|(place, cartridge)| CartridgeView::of(cartridge, place))
                .collect::<Vec<_>>()
        })
    });
    let roving = StoredValue::new(0_usize);
    let svg_ref = NodeRef::<leptos::svg::Svg>::new();

    let on_keydown = move |event: leptos::ev::KeyboardEvent| {
        let total = count.get_untracked();
        let current = roving.get_value();
        let Some(next) = grid.step(&event.key(), current, total) else {
            return;
        };
        event.prevent_default();
        roving.set_value(next);
        let Some(svg) = svg_ref.get_untracked() else {
            return;
        };
        let svg: &web_sys::Element = svg.unchecked_ref();
        for index in [current.min(total - 1), next] {
            // Cartridges are the svg's `g` children, in slot order.
            let selector = format!("g.cartridge:nth-of-type({})", index + 1);
            if let Ok(Some(element)) = svg.query_selector(&selector) {
                let value = if index == next { "0" } else { "-1" };
                let _ = element.set_attribute("tabindex", value);
                if index == next {
                    let _ = element.unchecked_into::<web_sys::HtmlElement>().focus();
                }
            }
        }
    };

    view! {
        <MagazineSvg node_ref=svg_ref grid=grid count=count on_keydown=Callback::new(on_keydown)>
            <For
                each=move || cartridges.get()
                key=|c| (c.task_id.clone(), c.version, c.slot)
                children=move |cartridge| {
                    let focusable = cartridge.slot == roving.get_value();
                    view! { <CartridgeCell cartridge=cartridge grid=grid focusable=focusable /> }
                }
            />
        </MagazineSvg>
    }
}

#[component]
fn CartridgeCell(cartridge: CartridgeView, grid: Grid, focusable: bool) -> impl IntoView {
    let scene = SceneContext::current();
    let (x, y) = grid.origin(cartridge.slot);
    let task = cartridge.task_id.clone();
    let lamp = cartridge.lamp_class();
    let on_click = {
        let task = task.clone();
        move |event: leptos::ev::MouseEvent| {
            // A click on a tag selects the tag (its own handler).
            let on_tag = event
                .target()
                .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                .and_then(|e| e.closest("g.tag").ok().flatten())
                .is_some();
            if !on_tag {
                scene.select(Part::Cartridge(task.clone()));
            }
        }
    };
    let on_focus = {
        let task = task.clone();
        move |_| scene.select(Part::Cartridge(task.clone()))
    };
    let on_key = {
        let task = task.clone();
        move |event: leptos::ev::KeyboardEvent| {
            if is_activation(&event) {
                event.prevent_default();
                scene.select(Part::Cartridge(task.clone()));
            }
        }
    };
    // Row 3: the marks, laid out left to right (sealed, the cancel ask, open input tags).
    let mut mark_x = MARGIN;
    let seal = cartridge.sealed.then(|| {
        let x = mark_x;
        mark_x += text_width(SEALED) + GAP;
        view! { <text class="seal-mark" x=x y=ROW_3>{SEALED}</text> }
    });
    let cancel = cartridge.cancel.clone().map(|(acknowledged, outcome)| {
        let text = match (acknowledged, outcome.is_empty()) {
            (_, false) => format!("cancel? → {outcome}"),
            ("pending", _) => "cancel?".to_owned(),
            ("true", _) => "cancel? ack".to_owned(),
            _ => "cancel? refused".to_owned(),
        };
        let (x, width) = (mark_x, text_width(&text) + 2.0 * PAD);
        mark_x += width + GAP;
        view! {
            <g
                class="cancel-ask"
                data-acknowledged=acknowledged
                data-outcome=outcome.clone()
                aria-hidden="true"
            >
                <rect x=x y=ROW_3 - 12.0 width=width height="16" rx="3"></rect>
                <text x=x + PAD y=ROW_3>{text}</text>
            </g>
        }
    });
    let shown_tags = if cartridge.tags.len() > 2 { 1 } else { 2 };
    let tags = cartridge
        .tags
        .iter()
        .take(shown_tags)
        .map(|tag| {
            let part = Part::CartridgeTag {
                task: task.clone(),
                key: tag.key.clone(),
            };
            let select = move |_| scene.select(part.clone());
            let text = format!("? {}", truncate(&tag.key, 12));
            let (x, width) = (mark_x, text_width(&text) + 2.0 * PAD);
            mark_x += width + GAP;
            view! {
                <g
                    class="tag"
                    data-key=tag.key.clone()
                    data-kind=tag.kind.clone()
                    data-mode=tag.mode.clone()
                    aria-label=format!("Input request {} of task {}", tag.key, task)
                    on:click=select
                >
                    <rect x=x y=ROW_3 - 12.0 width=width height="16" rx="3"></rect>
                    <text x=x + PAD y=ROW_3>{text}</text>
                </g>
            }
        })
        .collect_view();
    let more_tags = cartridge.tags.len().saturating_sub(shown_tags);
    let more = (more_tags > 0).then(|| {
        view! { <text class="more-tags" x=mark_x y=ROW_3>{format!("+{more_tags}")}</text> }
    });
    let body = {
        let restored = cartridge.restored;
        // The title gives way to the restored mark on the same row.
        let title_room = if restored { 12 } else { 20 };
        // Two tasks of one tool are told apart by the start of their ids (the inspector and
        // the tasks panel give the whole id), where the row has room for it.
        let title = match &cartridge.tool {
            Some(tool) if restored => truncate(&Shown::of(tool).text(), title_room),
            Some(tool) => {
                let short_id: String = cartridge.task_id.chars().take(ID_SHOWN).collect();
                let tool = truncate(&Shown::of(tool).text(), title_room - ID_SHOWN - 3);
                format!("{tool} · {short_id}")
            }
            None => truncate(&cartridge.task_id, title_room),
        };
        let status_line = match &cartridge.message {
            Some(message) => format!("{}: {message}", cartridge.status),
            None => cartridge.status.to_owned(),
        };
        view! {
            <rect class="cell" width=grid.cell_width height=grid.cell_height rx="5"></rect>
            <circle class="lamp" data-status=lamp cx="15" cy="15" r="10"></circle>
            <text class="lamp-glyph" data-status=lamp x="15" y="19.5" text-anchor="middle">
                {cartridge.glyph}
            </text>
            <text class="cartridge-title" x="31" y="20">{title}</text>
            {restored.then(|| view! {
                <text class="restored-mark" x=grid.cell_width - MARGIN y="20" text-anchor="end">
                    {RESTORED}
                </text>
            })}
            <text class="cartridge-message" x=MARGIN y="40">{truncate(&status_line, 30)}</text>
        }
        .into_any()
    };
    view! {
        <g
            class="cartridge"
            data-task-id=task.clone()
            data-status=cartridge.status
            data-sealed=cartridge.sealed.to_string()
            data-restored=cartridge.restored.to_string()
            transform=format!("translate({x} {y})")
            role="group"
            tabindex=if focusable { "0" } else { "-1" }
            aria-label=cartridge.aria_label()
            on:click=on_click
            on:focus=on_focus
            on:keydown=on_key
        >
            {body}
            {seal}
            {cancel}
            {tags}
            {more}
        </g>
    }
}
