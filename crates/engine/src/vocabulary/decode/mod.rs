//! rmcp's result types, read from a received `Value` without serde's buffering.
//!
//! rmcp models the tasks extension with `#[serde(flatten)]` (a `GetTaskResult` flattens a
//! `DetailedTask`, which flattens a `Task`) and input requests with `#[serde(untagged)]`
//! unions; serde reads both by copying the input into its private `Content` tree and trying
//! each shape in turn. Here each type is read field by field, and each union is dispatched on
//! the field that decides it (`method`, `mode`, `type`), into the very same rmcp types. The
//! tests check every decoder against rmcp's own `Deserialize`, on valid and broken input.

mod input;
pub(crate) mod legacy_task;
#[cfg(test)]
mod tests;

use rmcp::model::{
    CallToolResult, ContentBlock, CreateTaskResult, DetailedTask, GetTaskResult,
    InputRequiredResult, JsonObject, MetaObject, ResultType, Task, TaskPayload, TaskStatus,
    TextContent,
};
use serde::Deserialize;
use serde::de::Error as _;
use serde_json::{Error, Value};

pub(crate) use input::input_requests;

/// The object a value must be.
fn object<'v>(value: &'v Value, what: &str) -> Result<&'v JsonObject, Error> {
    value
        .as_object()
        .ok_or_else(|| Error::custom(format!("{what} is not a JSON object")))
}

/// Field by field applies to objects; anything else (serde also reads a struct from an
/// array) is left to rmcp's own reading, whatever it makes of it.
macro_rules! object_or_rmcp {
    ($value:expr, $type:ty) => {
        match $value.as_object() {
            Some(object) => object,
            None => return <$type>::deserialize($value),
        }
    };
}
pub(crate) use object_or_rmcp;

/// An `Option` field: absent and `null` are `None`, as serde reads `Option<T>`.
fn optional<'v, T: Deserialize<'v>>(
    object: &'v JsonObject,
    name: &str,
) -> Result<Option<T>, Error> {
    match object.get(name) {
        None => Ok(None),
        Some(value) => Option::<T>::deserialize(value),
    }
}

/// A field with a default: absent is `None`, anything present (`null` too) must decode.
fn present<'v, T: Deserialize<'v>>(object: &'v JsonObject, name: &str) -> Result<Option<T>, Error> {
    object.get(name).map(T::deserialize).transpose()
}

/// A `resultType` value; the spec's own values are rmcp's constants (no copy of the text).
fn result_type(value: &Value) -> Result<ResultType, Error> {
    let known = [
        ResultType::COMPLETE,
        ResultType::INPUT_REQUIRED,
        ResultType::TASK,
    ];
    let text = value.as_str();
    match known.into_iter().find(|kind| Some(kind.as_str()) == text) {
        Some(kind) => Ok(kind),
        None => ResultType::deserialize(value),
    }
}

/// An optional `resultType` (absent and `null` are `None`).
fn optional_result_type(object: &JsonObject) -> Result<Option<ResultType>, Error> {
    match object.get("resultType") {
        None | Some(Value::Null) => Ok(None),
        Some(value) => result_type(value).map(Some),
    }
}

/// A `resultType` with a default (absent is `None`; `null` is an error).
fn present_result_type(object: &JsonObject) -> Result<Option<ResultType>, Error> {
    object.get("resultType").map(result_type).transpose()
}

/// Content blocks: text blocks (most of them) read directly, the others by rmcp's union.
fn content(value: &Value) -> Result<Vec<ContentBlock>, Error> {
    let Value::Array(blocks) = value else {
        return Vec::<ContentBlock>::deserialize(value);
    };
    blocks
        .iter()
        .map(|block| {
            let is_text =
                block.is_object() && block.get("type").and_then(Value::as_str) == Some("text");
            if is_text {
                TextContent::deserialize(block).map(ContentBlock::Text)
            } else {
                ContentBlock::deserialize(block)
            }
        })
        .collect()
}

/// `_meta`: copied as received (a clone keeps the map's index; decoding rebuilds it).
fn meta(object: &JsonObject) -> Result<Option<MetaObject>, Error> {
    match object.get("_meta") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Object(meta)) => Ok(Some(MetaObject(meta.clone()))),
        Some(_) => Err(Error::custom("_meta is not a JSON object")),
    }
}

/// An optional JSON object field, copied (`null` reads as absent).
fn object_field(object: &JsonObject, name: &str) -> Result<Option<JsonObject>, Error> {
    match object.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Object(inner)) => Ok(Some(inner.clone())),
        Some(_) => Err(Error::custom(format!("{name} is not a JSON object"))),
    }
}

/// `tools/call`'s complete result. `structuredContent` is copied rather than decoded: it is
/// any JSON, usually the bulk of the result.
pub(crate) fn call_tool_result(value: &Value) -> Result<CallToolResult, Error> {
    let object = object_or_rmcp!(value, CallToolResult);
    let result_type = optional_result_type(object)?;
    if result_type.as_ref().is_some_and(|kind| !kind.is_complete()) {
        return Err(Error::custom(
            "CallToolResult requires resultType to be \"complete\" when present",
        ));
    }
    let content = match object.get("content") {
        None | Some(Value::Null) => None,
        Some(blocks) => Some(content(blocks)?),
    };
    let structured_content = object.get("structuredContent").cloned();
    let is_error: Option<bool> = optional(object, "isError")?;
    if content.is_none() && structured_content.is_none() && is_error.is_none() {
        return Err(Error::custom(
            "expected at least one known CallToolResult field (content, structuredContent, or isError)",
        ));
    }
    let mut result = CallToolResult::default();
    result.result_type = result_type;
    result.content = content.unwrap_or_default();
    result.structured_content = structured_content;
    result.is_error = is_error;
    result.meta = meta(object)?;
    Ok(result)
}

/// A `task` answer (tasks extension): the seed state of the new task.
pub(crate) fn create_task_result(value: &Value) -> Result<CreateTaskResult, Error> {
    let object = object_or_rmcp!(value, CreateTaskResult);
    let result_type: ResultType =
        present_result_type(object)?.ok_or_else(|| Error::custom("missing field `resultType`"))?;
    if !result_type.is_task() {
        return Err(Error::custom(
            "CreateTaskResult requires resultType to be \"task\"",
        ));
    }
    let mut result = CreateTaskResult::new(Task::deserialize(value)?);
    result.result_type = result_type;
    result.meta = meta(object)?;
    Ok(result)
}

/// An MRTR `input_required` answer.
pub(crate) fn input_required_result(value: &Value) -> Result<InputRequiredResult, Error> {
    let object = object_or_rmcp!(value, InputRequiredResult);
    let result_type = optional_result_type(object)?;
    if !result_type.is_some_and(|kind| kind.is_input_required()) {
        return Err(Error::custom(
            "InputRequiredResult requires resultType to be \"input_required\"",
        ));
    }
    let requests = match object.get("inputRequests") {
        None | Some(Value::Null) => None,
        Some(requests) => Some(input_requests(requests)?),
    };
    let request_state: Option<String> = optional(object, "requestState")?;
    if requests.is_none() && request_state.is_none() {
        return Err(Error::custom(
            "InputRequiredResult requires at least one of inputRequests or requestState",
        ));
    }
    let mut result = InputRequiredResult::new(requests, request_state);
    result.meta = meta(object)?;
    Ok(result)
}

/// A task with its status's payload (`tasks/get`, `notifications/tasks`).
pub(crate) fn detailed_task(value: &Value) -> Result<DetailedTask, Error> {
    let object = object_or_rmcp!(value, DetailedTask);
    let task = Task::deserialize(value)?;
    let missing = |name: &str| {
        Error::custom(format!(
            "task with status \"{}\" is missing `{name}`",
            crate::vocabulary::protocol::task_status_name(task.status)
        ))
    };
    let payload = match task.status {
        TaskStatus::InputRequired => TaskPayload::InputRequired {
            input_requests: match object.get("inputRequests") {
                None | Some(Value::Null) => return Err(missing("inputRequests")),
                Some(requests) => input_requests(requests)?,
            },
        },
        TaskStatus::Completed => TaskPayload::Completed {
            result: object_field(object, "result")?.ok_or_else(|| missing("result"))?,
        },
        TaskStatus::Failed => TaskPayload::Failed {
            error: object_field(object, "error")?.ok_or_else(|| missing("error"))?,
        },
        TaskStatus::Cancelled => TaskPayload::Cancelled,
        _ => TaskPayload::Working,
    };
    Ok(DetailedTask::new(task, payload))
}

/// `tasks/get`'s result: a detailed task, labelled `complete`.
pub(crate) fn get_task_result(value: &Value) -> Result<GetTaskResult, Error> {
    let object = object_or_rmcp!(value, GetTaskResult);
    // `#[serde(default)]`, not an `Option`: a `null` resultType is an error.
    let result_type = present_result_type(object)?;
    let mut result = GetTaskResult::new(detailed_task(value)?);
    result.result_type = result_type.unwrap_or_default();
    result.meta = meta(object)?;
    Ok(result)
}
