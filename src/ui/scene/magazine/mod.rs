//! The job magazine: one cartridge per task, in slot order, with a status lamp. Built to
//! hold a thousand: while there are few, each cartridge is its own SVG group that shows its
//! tool and message ([`cells`]); when there are many, the cells turn into small lamp-only
//! squares drawn as a handful of paths updated in place ([`compact`]). Either way the whole
//! magazine is one tab stop with roving focus (arrow keys, Home, End), and every cartridge
//! can be inspected.

mod cells;
mod compact;

use holdbay_engine::model::TaskStatus;
use holdbay_engine::protocol::task_status_name;
use holdbay_scene::{FlightRole, Part};
use leptos::prelude::*;

use super::SceneContext;

/// Above this many tasks the cells become small lamp-only squares.
const COMPACT_ABOVE: usize = 24;
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
                // Two wide cells a row: labels at a legible size, with room to say what they say.
                columns: 2,
                cell_width: 222.0,
                cell_height: 70.0,
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

    /// The magazine's viewBox for `count` cartridges.
    fn view_box(&self, count: usize) -> String {
        format!("-2 -2 {} {}", VIEW_WIDTH + 4.0, self.height(count) + 4.0)
    }

    /// The slot under a point in the magazine's own coordinates, if a cell is there.
    fn slot_at(&self, x: f64, y: f64, count: usize) -> Option<usize> {
        if x < 0.0 || y < 0.0 {
            return None;
        }
        let (pitch_x, pitch_y) = (self.cell_width + self.gap, self.cell_height + self.gap);
        let column = (x / pitch_x) as usize;
        let row = (y / pitch_y) as usize;
        let inside = x - column as f64 * pitch_x <= self.cell_width
            && y - row as f64 * pitch_y <= self.cell_height;
        let slot = row * self.columns + column;
        (inside && column < self.columns && slot < count).then_some(slot)
    }

    /// The slot the arrow, Home or End key `key` moves to from `current`.
    fn step(&self, key: &str, current: usize, total: usize) -> Option<usize> {
        let last = total.checked_sub(1)?;
        let current = current.min(last);
        Some(match key {
            "ArrowRight" => (current + 1).min(last),
            "ArrowLeft" => current.saturating_sub(1),
            "ArrowDown" => (current + self.columns).min(last),
            "ArrowUp" => current.saturating_sub(self.columns),
            "Home" => 0,
            "End" => last,
            _ => return None,
        })
    }
}

/// The magazine's svg root: one tab stop whose arrow keys move through the cartridges; on
/// the compact drawing a click picks the cell under the pointer.
#[component]
fn MagazineSvg(
    node_ref: NodeRef<leptos::svg::Svg>,
    grid: Grid,
    count: Memo<usize>,
    on_keydown: Callback<leptos::ev::KeyboardEvent>,
    #[prop(optional)] on_click: Option<Callback<leptos::ev::MouseEvent>>,
    children: Children,
) -> impl IntoView {
    let (class, label) = if grid.compact {
        (
            "scene-svg magazine-svg compact",
            "Cartridges; arrow keys move between them, a click picks one",
        )
    } else {
        (
            "scene-svg magazine-svg",
            "Cartridges; arrow keys move between them",
        )
    };
    let on_click = move |event| {
        if let Some(on_click) = on_click {
            on_click.run(event);
        }
    };
    view! {
        <svg
            node_ref=node_ref
            class=class
            viewBox=move || grid.view_box(count.get())
            role="group"
            aria-label=label
            on:keydown=move |event| on_keydown.run(event)
            on:click=on_click
        >
            {children()}
        </svg>
    }
}

#[component]
pub(super) fn Magazine() -> impl IntoView {
    let scene = SceneContext::current();
    let traffic = scene.traffic;
    let count = Memo::new(move |_| {
        traffic.track_calm();
        traffic.with(|t| t.scene_cartridges().len())
    });
    let grid = Memo::new(move |_| Grid::for_count(count.get()));
    // Poll pulses: a tasks/get on the wire for a task (a pushed snapshot has none). Many
    // tasks are polled many times a second: their rings are redrawn calmly, not every frame
    // (a frame that changes nothing on the page costs it nothing to draw).
    let pulses = Memo::new(move |_| {
        if grid.with(|grid| grid.compact) {
            traffic.track_calm();
        } else {
            traffic.track();
        }
        traffic.with(|t| {
            t.flights()
                .rev()
                .filter(|flight| flight.ended_at.is_none())
                .filter_map(|flight| match &flight.role {
                    FlightRole::Poll { task } => t
                        .cartridge(task)
                        .and_then(|c| c.slot.checked_sub(t.cartridge_base()))
                        .map(|place| (flight.exchange, task.clone(), place)),
                    _ => None,
                })
                .take(MAX_PULSES)
                .collect::<Vec<_>>()
        })
    });

    let selected_slot = move || {
        let selected = scene.selected.get();
        traffic.track_calm();
        let slot = match selected {
            Some(Part::Cartridge(task)) | Some(Part::CartridgeTag { task, .. }) => {
                traffic.with(|t| {
                    t.cartridge(&task)
                        .and_then(|c| c.slot.checked_sub(t.cartridge_base()))
                })
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
    // Few tasks: a ring per poll, keyed by its exchange. Many: one path holds the rings of
    // every poll in flight, its data replaced at most once per frame, so a busy poller does
    // not add and remove nodes (and their animations) all the time.
    let pulse_drawing = move || {
        let grid = grid.get();
        if grid.compact {
            let rings = move || {
                pulses.with(|pulses| {
                    let mut d = String::new();
                    for (_, _, slot) in pulses {
                        let (x, y) = grid.origin(*slot);
                        ring(
                            &mut d,
                            x + grid.cell_width / 2.0,
                            y + grid.cell_height / 2.0,
                            7.5,
                        );
                    }
                    d
                })
            };
            view! {
                <path
                    class="pulses"
                    data-count=move || pulses.with(Vec::len)
                    d=rings
                    aria-hidden="true"
                ></path>
            }
            .into_any()
        } else {
            view! {
                <For
                    each=move || pulses.get()
                    key=|(exchange, ..)| *exchange
                    children=move |(_, task, slot)| {
                        let (x, y) = grid.origin(slot);
                        view! {
                            <circle
                                class="pulse"
                                data-task-id=task
                                cx=x + 15.0
                                cy=y + 15.0
                                r="12"
                                aria-hidden="true"
                            ></circle>
                        }
                    }
                />
            }
            .into_any()
        }
    };
    // Many tasks: the cells are lamps only, so the statuses are also counted in words.
    let summary = Memo::new(move |_| {
        if !grid.get().compact {
            return None;
        }
        traffic.track_calm();
        let mut counts: Vec<(TaskStatus, usize)> = Vec::new();
        traffic.with(|t| {
            for cartridge in t.scene_cartridges() {
                match counts
                    .iter_mut()
                    .find(|(status, _)| *status == cartridge.status)
                {
                    Some((_, count)) => *count += 1,
                    None => counts.push((cartridge.status, 1)),
                }
            }
        });
        Some(
            counts
                .into_iter()
                .map(|(status, count)| {
                    format!(
                        "{} {count} {}",
                        cells::status_glyph(status),
                        task_status_name(status)
                    )
                })
                .collect::<Vec<_>>()
                .join(" · "),
        )
    });
    let cells = move || {
        let grid = grid.get();
        if grid.compact {
            view! { <compact::CompactCells grid=grid count=count /> }.into_any()
        } else {
            view! { <cells::RoomyCells grid=grid count=count /> }.into_any()
        }
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
            {move || summary.get().map(|text| view! { <p class="magazine-summary">{text}</p> })}
            <div class="magazine-scroll">
                {cells}
                // Pulses animate every frame: on their own layer, so the cartridges beneath
                // are not repainted with them. The selection's highlight lies here too.
                <svg
                    class="scene-svg magazine-svg pulse-layer"
                    viewBox=move || grid.get().view_box(count.get())
                    aria-hidden="true"
                >
                    {selected_slot}
                    {pulse_drawing}
                </svg>
            </div>
        </div>
    }
}

/// A full circle as two arcs, appended to a path's data.
fn ring(path: &mut String, cx: f64, cy: f64, r: f64) {
    use std::fmt::Write;
    let _ = write!(
        path,
        "M{} {cy}a{r} {r} 0 1 0 {} 0a{r} {r} 0 1 0 -{} 0z",
        cx - r,
        2.0 * r,
        2.0 * r
    );
}
