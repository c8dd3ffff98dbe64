//! The job magazine: one cartridge per task, in slot order, with a status lamp. Built to
//! hold a thousand: cartridges are keyed by (task, version) so only a changed one is
//! redrawn, cells turn compact when there are many, and the whole magazine is one tab stop
//! with roving focus (arrow keys, Home, End).

use holdbay_engine::protocol::task_status_name;
use holdbay_engine::traffic::{Cartridge, FlightRole, Part};
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::parts::{TagView, truncate};
use super::{SceneContext, is_activation};

/// Above this many tasks the cells become small lamp-only squares.
const COMPACT_ABOVE: usize = 36;
/// Poll pulses drawn at once.
const MAX_PULSES: usize = 24;
const VIEW_WIDTH: f64 = 450.0;

/// Cell geometry for the current density.
#[derive(Clone, Copy, PartialEq)]
struct Grid {
    compact: bool,
    columns: usize,
    cell_width: f64,
    cell_height: f64,
    gap: f64,
}

impl Grid {
    fn for_count(count: usize) -> Self {
        if count > COMPACT_ABOVE {
            Self {
                compact: true,
                columns: 30,
                cell_width: 13.0,
                cell_height: 13.0,
                gap: 2.0,
            }
        } else {
            Self {
                compact: false,
                columns: 3,
                cell_width: 146.0,
                cell_height: 50.0,
                gap: 6.0,
            }
        }
    }

    fn origin(&self, slot: usize) -> (f64, f64) {
        let column = (slot % self.columns) as f64;
        let row = (slot / self.columns) as f64;
        (
            column * (self.cell_width + self.gap),
            row * (self.cell_height + self.gap),
        )
    }

    fn height(&self, count: usize) -> f64 {
        let rows = count.div_ceil(self.columns).max(1) as f64;
        rows * (self.cell_height + self.gap)
    }
}

/// What one cartridge shows.
#[derive(Clone, PartialEq)]
struct CartridgeView {
    task_id: String,
    slot: usize,
    version: u64,
    /// The status as the wire spells it.
    status: &'static str,
    message: Option<String>,
    tool: Option<String>,
    sealed: bool,
    restored: bool,
    tags: Vec<TagView>,
    /// (acknowledged: pending/true/false, outcome)
    cancel: Option<(&'static str, String)>,
}

impl CartridgeView {
    fn of(cartridge: &Cartridge) -> Self {
        Self {
            task_id: cartridge.task_id.clone(),
            slot: cartridge.slot,
            version: cartridge.version,
            status: task_status_name(cartridge.status),
            message: cartridge.status_message.clone(),
            tool: cartridge.tool.clone(),
            sealed: cartridge.is_sealed(),
            restored: cartridge.restored,
            tags: cartridge.tags.iter().map(TagView::of).collect(),
            cancel: cartridge.cancel.as_ref().map(|ask| {
                let acknowledged = match ask.acknowledged {
                    None => "pending",
                    Some(true) => "true",
                    Some(false) => "false",
                };
                let outcome = ask.outcome.map(task_status_name).unwrap_or_default();
                (acknowledged, outcome.to_owned())
            }),
        }
    }

    /// The lamp's class: the status's wire name (the stylesheet colours each).
    fn lamp_class(&self) -> &'static str {
        self.status
    }

    fn aria_label(&self) -> String {
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

#[component]
pub(super) fn Magazine() -> impl IntoView {
    let scene = SceneContext::current();
    let traffic = scene.traffic;
    // A thousand cartridges redraw calmly (a few times a second); the pulses keep up.
    let cartridges = Memo::new(move |_| {
        traffic.track_calm();
        traffic.with(|t| {
            t.cartridges()
                .iter()
                .map(CartridgeView::of)
                .collect::<Vec<_>>()
        })
    });
    let count = Memo::new(move |_| cartridges.with(Vec::len));
    let grid = Memo::new(move |_| Grid::for_count(count.get()));
    // Poll pulses: a tasks/get on the wire for a task (a pushed snapshot has none).
    let pulses = Memo::new(move |_| {
        traffic.track();
        traffic.with(|t| {
            t.flights()
                .rev()
                .filter(|flight| flight.ended_at.is_none())
                .filter_map(|flight| match &flight.role {
                    FlightRole::Poll { task } => t
                        .cartridge(task)
                        .map(|c| (flight.exchange, task.clone(), c.slot)),
                    _ => None,
                })
                .take(MAX_PULSES)
                .collect::<Vec<_>>()
        })
    });
    let roving = StoredValue::new(0_usize);
    let svg_ref = NodeRef::<leptos::svg::Svg>::new();

    let on_keydown = move |event: leptos::ev::KeyboardEvent| {
        let total = count.get_untracked();
        if total == 0 {
            return;
        }
        let columns = grid.get_untracked().columns;
        let current = roving.get_value().min(total - 1);
        let next = match event.key().as_str() {
            "ArrowRight" => (current + 1).min(total - 1),
            "ArrowLeft" => current.saturating_sub(1),
            "ArrowDown" => (current + columns).min(total - 1),
            "ArrowUp" => current.saturating_sub(columns),
            "Home" => 0,
            "End" => total - 1,
            _ => return,
        };
        event.prevent_default();
        roving.set_value(next);
        let Some(svg) = svg_ref.get_untracked() else {
            return;
        };
        let svg: &web_sys::Element = svg.unchecked_ref();
        for index in [current, next] {
            // Cartridges are the svg's first `g` children, in slot order.
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

    let selected_slot = move || {
        let selected = scene.selected.get();
        traffic.track_calm();
        let slot = match selected {
            Some(Part::Cartridge(task)) | Some(Part::CartridgeTag { task, .. }) => {
                traffic.with(|t| t.cartridge(&task).map(|c| c.slot))
            }
            _ => None,
        };
        slot.map(|slot| {
            let grid = grid.get();
            let (x, y) = grid.origin(slot);
            view! {
                <rect
                    class="cartridge-highlight"
                    x=x - 1.5
                    y=y - 1.5
                    width=grid.cell_width + 3.0
                    height=grid.cell_height + 3.0
                    rx="4"
                ></rect>
            }
        })
    };

    view! {
        <div class="magazine" role="group" aria-label="Job magazine: tasks">
            <h3 class="scene-part-title">
                "Job magazine " <small>"(tasks)"</small>
                <span class="count">{count}</span>
            </h3>
            <Show when=move || count.get() == 0>
                <p class="quiet scene-empty">
                    "No task yet. A tools/call the server answers with a task gets a cartridge here."
                </p>
            </Show>
            <div class="magazine-scroll">
                <svg
                    node_ref=svg_ref
                    class="scene-svg magazine-svg"
                    class:compact=move || grid.get().compact
                    viewBox=move || {
                        format!("-2 -2 {} {}", VIEW_WIDTH + 4.0, grid.get().height(count.get()) + 4.0)
                    }
                    role="group"
                    aria-label="Cartridges; arrow keys move between them"
                    on:keydown=on_keydown
                >
                    <For
                        each=move || cartridges.get()
                        key=move |c| (c.task_id.clone(), c.version, grid.get_untracked().compact)
                        children=move |cartridge| {
                            let grid = grid.get_untracked();
                            let focusable = cartridge.slot == roving.get_value();
                            view! { <CartridgeCell cartridge=cartridge grid=grid focusable=focusable /> }
                        }
                    />
                    {selected_slot}
                </svg>
                // Pulses animate every frame: on their own layer, so the thousand cartridges
                // beneath are not repainted with them.
                <svg
                    class="scene-svg magazine-svg pulse-layer"
                    viewBox=move || {
                        format!("-2 -2 {} {}", VIEW_WIDTH + 4.0, grid.get().height(count.get()) + 4.0)
                    }
                    aria-hidden="true"
                >
                    <For
                        each=move || pulses.get()
                        key=|(exchange, ..)| *exchange
                        children=move |(_, task, slot)| {
                            let grid = grid.get_untracked();
                            let (x, y) = grid.origin(slot);
                            let (cx, cy, r) = if grid.compact {
                                (x + grid.cell_width / 2.0, y + grid.cell_height / 2.0, 6.0)
                            } else {
                                (x + 14.0, y + 16.0, 10.0)
                            };
                            view! {
                                <circle
                                    class="pulse"
                                    data-task-id=task
                                    cx=cx
                                    cy=cy
                                    r=r
                                    aria-hidden="true"
                                ></circle>
                            }
                        }
                    />
                </svg>
            </div>
        </div>
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
    let cancel = cartridge.cancel.clone().map(|(acknowledged, outcome)| {
        let text = match (acknowledged, outcome.is_empty()) {
            (_, false) => format!("cancel? → {outcome}"),
            ("pending", _) => "cancel?".to_owned(),
            ("true", _) => "cancel? ack".to_owned(),
            _ => "cancel? refused".to_owned(),
        };
        let drawing = if grid.compact {
            view! { <path d="M9 0 h4 v4 z"></path> }.into_any()
        } else {
            view! {
                <rect x="70" y="40" width="72" height="12" rx="3"></rect>
                <text x="74" y="49">{text}</text>
            }
            .into_any()
        };
        view! {
            <g
                class="cancel-ask"
                data-acknowledged=acknowledged
                data-outcome=outcome.clone()
                aria-hidden="true"
            >
                {drawing}
            </g>
        }
    });
    let tags = cartridge
        .tags
        .iter()
        .take(if grid.compact { 1 } else { 3 })
        .enumerate()
        .map(|(index, tag)| {
            let part = Part::CartridgeTag {
                task: task.clone(),
                key: tag.key.clone(),
            };
            let select = move |_| scene.select(part.clone());
            let drawing = if grid.compact {
                view! { <circle cx="11" cy="11" r="2.5"></circle> }.into_any()
            } else {
                let tx = 130.0 - index as f64 * 13.0;
                view! {
                    <path d=format!("M{tx} 4 h10 v9 l-5 4 l-5 -4 z")></path>
                    <text x=tx + 5.0 y="13" text-anchor="middle">"?"</text>
                }
                .into_any()
            };
            view! {
                <g
                    class="tag"
                    data-key=tag.key.clone()
                    data-kind=tag.kind.clone()
                    data-mode=tag.mode.clone()
                    aria-label=format!("Input request {} of task {}", tag.key, task)
                    on:click=select
                >
                    {drawing}
                </g>
            }
        })
        .collect_view();
    let body = if grid.compact {
        view! {
            <rect class="cell" width=grid.cell_width height=grid.cell_height rx="2"></rect>
            <circle class="lamp" data-status=lamp cx="6.5" cy="6.5" r="4.5"></circle>
        }
        .into_any()
    } else {
        let title = match &cartridge.tool {
            Some(tool) => format!(
                "{} · {}",
                truncate(tool, 12),
                truncate(&cartridge.task_id, 8)
            ),
            None => truncate(&cartridge.task_id, 20),
        };
        let message = cartridge
            .message
            .clone()
            .unwrap_or_else(|| cartridge.status.to_owned());
        view! {
            <rect class="cell" width=grid.cell_width height=grid.cell_height rx="5"></rect>
            <circle class="lamp" data-status=lamp cx="14" cy="16" r="7"></circle>
            <text class="cartridge-title" x="28" y="20">{title}</text>
            <text class="cartridge-message" x="8" y="36">{truncate(&message, 26)}</text>
            {cartridge.sealed.then(|| view! {
                <text class="seal-mark" x="8" y="49">"sealed"</text>
            })}
            {cartridge.restored.then(|| view! {
                <text class="restored-mark" x="138" y="49" text-anchor="end">"restored"</text>
            })}
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
            {tags}
            {cancel}
        </g>
    }
}
