//! The earlier strip: the logical requests and tasks from before the scene started anew (an
//! earlier lesson, or Reset scene), one line of small parts, each still inspectable.

use holdbay_engine::protocol::task_status_name;
use holdbay_scene::{FlightRole, Part, Traffic, TrayState};
use leptos::prelude::*;

use super::SceneContext;

/// Parts drawn at most on the strip, newest first (the rest are counted).
const SHOWN: usize = 8;

#[derive(Clone, PartialEq)]
struct EarlierPart {
    part: Part,
    /// When it entered the scene (caller's clock): the strip is newest first.
    at: f64,
    label: String,
    /// What the part is, said in full (its label is short).
    title: String,
}

/// A tray's few words: the tool (or method) and how it stands or ended.
fn tray_words(state: &TrayState) -> &'static str {
    match state {
        TrayState::InFlight => "on the wire",
        TrayState::Paused => "paused",
        TrayState::Held => "held by the server",
        TrayState::BoundReached => "bound reached",
        TrayState::Completed { tool_error: false } => "done",
        TrayState::Completed { tool_error: true } => "tool error",
        TrayState::Failed { .. } => "ended in error",
        TrayState::Detached { .. } => "became a task",
        TrayState::Stopped => "stopped",
        TrayState::Abandoned => "abandoned",
    }
}

/// The strip's tray or task that `selected` is part of (a latch, a tag or an exchange of
/// it): the strip draws only whole requests and tasks, and marks the one chosen elsewhere
/// (the recap's link to an earlier lesson's reveal selects a latch, say).
fn strip_part_of(selected: &Part, traffic: &Traffic) -> Option<Part> {
    Some(match selected {
        Part::Tray(tray) | Part::Latch { tray, .. } | Part::TrayTag { tray, .. } => {
            Part::Tray(*tray)
        }
        Part::Cartridge(task) | Part::CartridgeTag { task, .. } => Part::Cartridge(task.clone()),
        Part::ServerAsk(number) => Part::Tray(traffic.server_ask(*number)?.tray?),
        Part::Flight(exchange) => match &traffic.flight(*exchange)?.role {
            FlightRole::Opens { tray } | FlightRole::Retry { tray, .. } => Part::Tray(*tray),
            FlightRole::AnswersServer { ask } => Part::Tray(traffic.server_ask(*ask)?.tray?),
            FlightRole::Poll { task }
            | FlightRole::Update { task }
            | FlightRole::Cancel { task } => Part::Cartridge(task.clone()),
            FlightRole::Listen
            | FlightRole::Other
            | FlightRole::Initialize
            | FlightRole::SessionStream => return None,
        },
        Part::Session | Part::HeldSession(_) => return None,
    })
}

#[component]
pub(super) fn EarlierStrip() -> impl IntoView {
    let scene = SceneContext::current();
    let traffic = scene.traffic;
    let earlier = Memo::new(move |_| {
        traffic.track_calm();
        traffic.with(|t| {
            let trays = t.earlier_trays().rev().map(|tray| {
                let name = tray.name.clone().unwrap_or_else(|| tray.method.to_string());
                let words = tray_words(&tray.state);
                EarlierPart {
                    part: Part::Tray(tray.id),
                    at: tray.opened_at,
                    label: format!("{name} · {words}"),
                    title: format!("Earlier request {name}: {words}"),
                }
            });
            let tasks = t.earlier_cartridges().iter().rev().map(|cartridge| {
                let tool = cartridge
                    .tool
                    .clone()
                    .unwrap_or_else(|| "tool unknown".to_owned());
                let status = task_status_name(cartridge.status);
                EarlierPart {
                    part: Part::Cartridge(cartridge.task_id.clone()),
                    at: cartridge.entered_at,
                    label: format!("{tool} · task {status}"),
                    title: format!("Earlier task {} ({tool}): {status}", cartridge.task_id),
                }
            });
            let mut all: Vec<EarlierPart> = trays.chain(tasks).collect();
            all.sort_by(|a, b| b.at.total_cmp(&a.at));
            all
        })
    });
    let marked = Memo::new(move |_| {
        let selected = scene.selected.get()?;
        traffic.with_whole(|t| strip_part_of(&selected, t))
    });
    // The newest first; a part chosen elsewhere (the recap's link to an old reveal) comes
    // first of all, so the one line always shows it.
    let shown = Memo::new(move |_| {
        let mut all = earlier.get();
        if let Some(at) = marked.with(|m| all.iter().position(|e| Some(&e.part) == m.as_ref())) {
            let chosen = all.remove(at);
            all.insert(0, chosen);
        }
        let more = all.len().saturating_sub(SHOWN);
        all.truncate(SHOWN);
        (all, more)
    });
    move || {
        let (parts, more) = shown.get();
        (!parts.is_empty()).then(|| {
            view! {
                <div class="earlier" role="group" aria-label="Earlier requests and tasks">
                    <span class="earlier-title">"Earlier"</span>
                    {parts
                        .into_iter()
                        .map(|earlier| {
                            let part = earlier.part.clone();
                            let chosen = earlier.part.clone();
                            view! {
                                <button
                                    type="button"
                                    class="earlier-part"
                                    class:selected=move || marked.with(|m| m.as_ref() == Some(&chosen))
                                    // Named by its visible words (a name that differs from
                                    // them fails WCAG 2.5.3); the title adds the detail.
                                    title=earlier.title
                                    on:click=move |_| scene.select(part.clone())
                                >
                                    {earlier.label}
                                </button>
                            }
                        })
                        .collect_view()}
                    {(more > 0).then(|| view! { <span class="quiet earlier-more">"and " {more} " more"</span> })}
                </div>
            }
        })
    }
}
