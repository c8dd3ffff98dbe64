//! 2025-11-25's task shapes, read into 2026-07-28's. rmcp models only the tasks extension
//! (`ttlMs`, `pollIntervalMs`, a flat `CreateTaskResult` with `resultType: "task"`); a
//! 2025-11-25 server writes `ttl` and `pollInterval` (both milliseconds) and nests the new
//! task under `task`. The meaning is the same, so one shape serves both eras past this file.

use rmcp::model::Task;
use serde::Deserialize;
use serde_json::{Map, Value};

/// The 2025-11-25 field names and the 2026-07-28 ones they become.
const RENAMED: [(&str, &str); 2] = [("ttl", "ttlMs"), ("pollInterval", "pollIntervalMs")];

/// A 2025-11-25 `Task` (a `tasks/get` or `tasks/cancel` result, `notifications/tasks/status`
/// params, or the `task` of a `CreateTaskResult`) written as 2026-07-28 writes it. Fields
/// it does not know are kept as they are.
pub(crate) fn modern_task(legacy: &Map<String, Value>) -> Map<String, Value> {
    let mut modern = legacy.clone();
    for (old, new) in RENAMED {
        if let Some(value) = modern.remove(old) {
            modern.entry(new.to_owned()).or_insert(value);
        }
    }
    // `ttl` is required (a number, or null for unlimited); a server that leaves it out
    // gets the reading that loses nothing: unlimited.
    modern.entry("ttlMs".to_owned()).or_insert(Value::Null);
    modern
}

/// A 2025-11-25 `Task` (a `tasks/get` or `tasks/cancel` result, a status notification's
/// params), read as rmcp's.
pub(crate) fn legacy_task(value: &Value) -> Result<Task, serde_json::Error> {
    let fields = value
        .as_object()
        .ok_or_else(|| serde::de::Error::custom("a task is a JSON object"))?;
    Task::deserialize(Value::Object(modern_task(fields)))
}

/// A 2025-11-25 `CreateTaskResult` (`{task: {…}}`) as 2026-07-28's task answer, or `None`
/// when `result` holds no task object (the server ran the call without one).
pub(crate) fn created_task(result: &Map<String, Value>) -> Option<Value> {
    let task = result.get("task")?.as_object()?;
    let mut created = modern_task(task);
    created.insert(
        "resultType".to_owned(),
        Value::String(rmcp::model::ResultType::TASK.as_str().to_owned()),
    );
    if let Some(meta) = result.get("_meta") {
        created.insert("_meta".to_owned(), meta.clone());
    }
    Some(Value::Object(created))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn object(value: Value) -> Map<String, Value> {
        value.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn a_created_task_is_unnested_and_its_milliseconds_renamed() {
        // As server-everything 2026.8.31 answers a task-augmented tools/call.
        let received = object(json!({"task": {
            "taskId": "af34", "status": "working", "ttl": 300000,
            "createdAt": "2026-12-07T22:07:35.358Z", "lastUpdatedAt": "2026-12-07T22:07:35.358Z",
            "pollInterval": 1000, "statusMessage": "Gathering sources..."
        }}));
        let created = created_task(&received).expect("a task");
        assert_eq!(created["resultType"], "task");
        assert_eq!(created["taskId"], "af34");
        assert_eq!(created["ttlMs"], 300000);
        assert_eq!(created["pollIntervalMs"], 1000);
        assert!(created.get("ttl").is_none() && created.get("pollInterval").is_none());
        let task = crate::vocabulary::decode::create_task_result(&created).expect("rmcp reads it");
        assert_eq!(task.task.poll_interval_ms, Some(1000));
    }

    #[test]
    fn no_task_object_is_no_task_and_an_unlimited_ttl_stays_unlimited() {
        assert_eq!(created_task(&object(json!({"content": []}))), None);
        assert_eq!(created_task(&object(json!({"task": "t1"}))), None);
        let modern = modern_task(&object(json!({"taskId": "t", "ttl": null})));
        assert_eq!(modern["ttlMs"], Value::Null);
        let missing = modern_task(&object(json!({"taskId": "t"})));
        assert_eq!(missing["ttlMs"], Value::Null);
    }
}
