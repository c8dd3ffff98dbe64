//! The session as a whole: page reloads, and a scene started anew.

use holdbay_scene::*;
use serde_json::json;

use super::wire::*;

#[test]
fn a_reload_is_on_the_timeline() {
    let mut wire = Wire::new(10);
    let revision = wire.traffic.revision();
    wire.traffic.reloaded(7.0);
    let event = wire.traffic.events().last().expect("an event");
    assert_eq!((event.at, &event.part), (7.0, &Part::Session));
    assert!(
        event
            .narration
            .as_deref()
            .is_some_and(|n| n.contains("reloaded"))
    );
    assert!(wire.traffic.revision() > revision);
    assert_eq!(wire.traffic.json_of(&Part::Session), None);
}

#[test]
fn a_reload_marks_what_came_before_it() {
    let mut wire = Wire::new(10);
    assert!(
        !wire.traffic.before_reload(5.0),
        "no reload, nothing before one"
    );
    wire.traffic.reloaded(7.0);
    assert!(wire.traffic.before_reload(5.0));
    assert!(
        !wire.traffic.before_reload(7.0),
        "the reload's own moment is this page's"
    );
    assert!(!wire.traffic.before_reload(8.0));
}

#[test]
fn a_reload_gives_up_the_paused_requests_and_nothing_else() {
    let mut wire = Wire::new(10);
    let paused = wire.call("book_table", json!({}));
    wire.result(paused, input_required("sealed-abc"));
    let done = wire.call("echo", json!({}));
    wire.result(done, json!({ "resultType": "complete", "content": [] }));
    wire.traffic.reloaded(90.0);
    let state = |id| wire.traffic.tray(id).map(|t| t.state.clone());
    assert_eq!(state(paused), Some(TrayState::Abandoned));
    assert_eq!(
        state(done),
        Some(TrayState::Completed { tool_error: false }),
        "a finished request keeps how it ended"
    );
    assert!(
        wire.traffic
            .events()
            .iter()
            .any(|e| e.part == Part::Tray(paused) && e.at == 90.0),
        "the timeline says the tray was given up at the reload"
    );
}

#[test]
fn a_scene_started_anew_keeps_what_came_before_as_earlier() {
    let mut wire = Wire::new(10);
    let first = wire.call_accepting_task("run_pipeline");
    wire.result(
        first,
        with(task("t1", "working"), json!({ "resultType": "task" })),
    );
    let paused = wire.call("book_table", json!({}));
    wire.result(paused, input_required("s1"));
    assert_eq!(wire.traffic.scene_trays().count(), 2);
    assert_eq!(wire.traffic.earlier_trays().count(), 0);

    let start = wire.tick();
    wire.traffic.start_scene_at(start);
    assert_eq!(wire.traffic.scene_trays().count(), 0);
    assert_eq!(
        wire.traffic.earlier_trays().count(),
        2,
        "the paused tray too"
    );
    assert!(wire.traffic.scene_cartridges().is_empty());
    assert_eq!(wire.traffic.earlier_cartridges().len(), 1);

    // The earlier task still changes, and stays earlier; a new one is the scene's first.
    let poll = wire.send("tasks/get", Some("t1"), json!({ "taskId": "t1" }));
    wire.result(poll, task("t1", "completed"));
    let second = wire.call_accepting_task("run_pipeline");
    wire.result(
        second,
        with(task("t2", "working"), json!({ "resultType": "task" })),
    );
    assert_eq!(wire.traffic.earlier_cartridges()[0].task_id, "t1");
    let shown: Vec<_> = wire
        .traffic
        .scene_cartridges()
        .iter()
        .map(|c| &c.task_id)
        .collect();
    assert_eq!(shown, ["t2"]);
    let t2 = wire.traffic.cartridge("t2").expect("t2");
    assert_eq!(t2.slot - wire.traffic.cartridge_base(), 0);
    assert_eq!(wire.traffic.scene_trays().count(), 1);
}
