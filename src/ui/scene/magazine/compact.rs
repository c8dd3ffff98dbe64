//! The compact magazine: a thousand small lamp-only cells drawn as a handful of SVG paths
//! (the cell frames by kind, the lamps by status, the tag and cancel marks), each path's
//! data rebuilt only when a cell it holds changed. One focusable cursor stands on the
//! roving cartridge, and a click anywhere picks the cell under the pointer, so every task
//! stays inspectable without a thousand nodes to lay out, paint and layerize.

use std::collections::BTreeMap;
use std::fmt::Write;

use holdbay_engine::protocol::task_status_name;
use holdbay_scene::{Cartridge, Part};
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::super::{SceneContext, is_activation};
use super::cells::{CartridgeView, acknowledgement};
use super::{Grid, MagazineSvg, VIEW_WIDTH, ring};

/// What one compact cell shows: its lamp and marks, nothing more.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Cell {
    /// The status as the wire spells it.
    status: &'static str,
    sealed: bool,
    restored: bool,
    /// An input request is open.
    tagged: bool,
    /// A cancel was asked: whether the server acknowledged it (pending, true, false).
    cancel: Option<&'static str>,
}

impl Cell {
    fn of(cartridge: &Cartridge) -> Self {
        Self {
            status: task_status_name(cartridge.status),
            sealed: cartridge.is_sealed(),
            restored: cartridge.restored,
            tagged: !cartridge.tags.is_empty(),
            cancel: cartridge.cancel.as_ref().map(acknowledgement),
        }
    }
}

/// What a path draws, which decides its style.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Layer {
    /// Cell frames, by (sealed, restored).
    Frames(bool, bool),
    /// Lamps of one status.
    Lamps(&'static str),
    /// Open input requests.
    Tags,
    /// Cancel asks, by acknowledgement.
    Cancels(&'static str),
}

/// One path of the drawing.
#[derive(Clone, PartialEq, Eq, Hash)]
struct Stroke {
    layer: Layer,
    d: String,
}

/// The paths that draw `cells` in `grid`, frames first, then lamps, then marks.
fn strokes(cells: &[Cell], grid: Grid) -> Vec<Stroke> {
    let mut paths: BTreeMap<Layer, String> = BTreeMap::new();
    let (w, h) = (grid.cell_width, grid.cell_height);
    let lamp = 4.5;
    for (slot, cell) in cells.iter().enumerate() {
        let (x, y) = grid.origin(slot);
        let frame = paths
            .entry(Layer::Frames(cell.sealed, cell.restored))
            .or_default();
        // A rounded square (rx 2), as the roomy cell's frame.
        let _ = write!(
            frame,
            "M{} {}h{}a2 2 0 0 1 2 2v{}a2 2 0 0 1 -2 2h-{}a2 2 0 0 1 -2 -2v-{}a2 2 0 0 1 2 -2z",
            x + 2.0,
            y,
            w - 4.0,
            h - 4.0,
            w - 4.0,
            h - 4.0
        );
        ring(
            paths.entry(Layer::Lamps(cell.status)).or_default(),
            x + 6.5,
            y + 6.5,
            lamp,
        );
        if cell.tagged {
            ring(
                paths.entry(Layer::Tags).or_default(),
                x + 11.0,
                y + 11.0,
                2.5,
            );
        }
        if let Some(acknowledged) = cell.cancel {
            let _ = write!(
                paths.entry(Layer::Cancels(acknowledged)).or_default(),
                "M{} {}h4v4z",
                x + 9.0,
                y
            );
        }
    }
    paths
        .into_iter()
        .map(|(layer, d)| Stroke { layer, d })
        .collect()
}

#[component]
fn StrokePath(stroke: Stroke) -> impl IntoView {
    let (class, status, sealed, restored, acknowledged) = match stroke.layer {
        Layer::Frames(sealed, restored) => (
            "cells",
            None,
            Some(sealed.to_string()),
            Some(restored.to_string()),
            None,
        ),
        Layer::Lamps(status) => ("lamp", Some(status), None, None, None),
        Layer::Tags => ("tag-marks", None, None, None, None),
        Layer::Cancels(acknowledged) => ("cancel-marks", None, None, None, Some(acknowledged)),
    };
    view! {
        <path
            class=class
            data-status=status
            data-sealed=sealed
            data-restored=restored
            data-acknowledged=acknowledged
            d=stroke.d
            aria-hidden="true"
        ></path>
    }
}

/// The magazine while it holds many cartridges.
#[component]
pub(super) fn CompactCells(grid: Grid, count: Memo<usize>) -> impl IntoView {
    let scene = SceneContext::current();
    let traffic = scene.traffic;
    // Read calmly; equal cells (an unchanged poll) leave the paths alone.
    let cells = Memo::new(move |_| {
        traffic.track_calm();
        traffic.with(|t| {
            t.scene_cartridges()
                .iter()
                .map(Cell::of)
                .collect::<Vec<_>>()
        })
    });
    let drawing = Memo::new(move |_| cells.with(|cells| strokes(cells, grid)));
    let roving = RwSignal::new(0_usize);
    let slot = move || roving.get().min(count.get().saturating_sub(1));
    let current = Memo::new(move |_| {
        traffic.track_calm();
        let slot = slot();
        traffic.with(|t| {
            t.scene_cartridges()
                .get(slot)
                .map(|c| CartridgeView::of(c, slot))
        })
    });
    // Said when the cursor moves (a screen reader hears the cartridge it lands on).
    let announced = RwSignal::new(String::new());
    let cursor = NodeRef::<leptos::svg::G>::new();
    let svg_ref = NodeRef::<leptos::svg::Svg>::new();

    let select_slot = move |slot: usize| {
        roving.set(slot);
        let task = traffic.with(|t| {
            t.scene_cartridges()
                .get(slot)
                .map(|c| (c.task_id.clone(), CartridgeView::of(c, slot).aria_label()))
        });
        if let Some((task, label)) = task {
            scene.select(Part::Cartridge(task));
            announced.set(label);
        }
    };
    let on_keydown = move |event: leptos::ev::KeyboardEvent| {
        let key = event.key();
        if is_activation(&event) {
            event.prevent_default();
            select_slot(slot());
            return;
        }
        if let Some(next) = grid.step(&key, slot(), count.get_untracked()) {
            event.prevent_default();
            select_slot(next);
        }
    };
    let on_click = move |event: leptos::ev::MouseEvent| {
        let Some(svg) = svg_ref.get_untracked() else {
            return;
        };
        let svg: &web_sys::Element = svg.unchecked_ref();
        let rect = svg.get_bounding_client_rect();
        if rect.width() <= 0.0 {
            return;
        }
        // The viewBox starts at -2 and is VIEW_WIDTH + 4 wide; the height follows the width.
        let scale = (VIEW_WIDTH + 4.0) / rect.width();
        let x = (f64::from(event.client_x()) - rect.left()) * scale - 2.0;
        let y = (f64::from(event.client_y()) - rect.top()) * scale - 2.0;
        if let Some(slot) = grid.slot_at(x, y, count.get_untracked()) {
            select_slot(slot);
            if let Some(cursor) = cursor.get_untracked() {
                let _ = cursor.unchecked_ref::<web_sys::HtmlElement>().focus();
            }
        }
    };
    let on_focus = move |_| {
        if let Some(task) = current.with_untracked(|c| c.as_ref().map(|c| c.task_id.clone())) {
            scene.select(Part::Cartridge(task));
        }
    };
    let attribute = move |read: fn(&CartridgeView) -> String| {
        move || current.with(|c| c.as_ref().map(read).unwrap_or_default())
    };

    view! {
        <MagazineSvg
            node_ref=svg_ref
            grid=grid
            count=count
            on_keydown=Callback::new(on_keydown)
            on_click=Callback::new(on_click)
        >
            <For
                each=move || drawing.get()
                key=|stroke| stroke.clone()
                children=|stroke| view! { <StrokePath stroke=stroke /> }
            />
            <g
                node_ref=cursor
                class="cartridge cartridge-cursor"
                data-task-id=attribute(|c| c.task_id.clone())
                data-status=attribute(|c| c.status.to_owned())
                data-sealed=attribute(|c| c.sealed.to_string())
                data-restored=attribute(|c| c.restored.to_string())
                transform=move || {
                    let (x, y) = grid.origin(slot());
                    format!("translate({x} {y})")
                }
                role="group"
                tabindex="0"
                aria-label=attribute(CartridgeView::aria_label)
                on:focus=on_focus
            >
                <rect class="cursor-frame" width=grid.cell_width height=grid.cell_height rx="2"></rect>
            </g>
        </MagazineSvg>
        <p class="visually-hidden" aria-live="polite">{move || announced.get()}</p>
    }
}
