//! The bounds a received message must keep before its parts reach the user: how many inputs
//! it asks for at once, and how long the ids it chose are ([`Limits`]). Checked on the JSON
//! as received, before anything is decoded from it, so an answer over a bound costs nothing
//! more than its parse.

use rmcp::model::JsonObject;
use serde_json::Value;

use crate::readers::response::error::ResponseError;
use crate::vocabulary::limits::{Limits, excerpt};

/// Characters of an over-long id quoted in the error.
const ID_EXCERPT_CHARS: usize = 24;

/// The `inputRequests` of a result or snapshot (`object`): at most `max_input_requests`
/// of them, and each key and URL-mode `elicitationId` within `max_id_bytes`. Absent or not an
/// object is left to the decoder.
pub(crate) fn input_requests(object: &JsonObject, limits: &Limits) -> Result<(), ResponseError> {
    let Some(Value::Object(requests)) = object.get("inputRequests") else {
        return Ok(());
    };
    if requests.len() > limits.max_input_requests {
        return Err(ResponseError::TooManyInputRequests {
            count: requests.len(),
            limit: limits.max_input_requests,
        });
    }
    for (key, request) in requests {
        id(key, "an inputRequests key", limits)?;
        if let Some(Value::String(elicitation)) = request.pointer("/params/elicitationId") {
            id(elicitation, "an elicitationId", limits)?;
        }
    }
    Ok(())
}

/// A `taskId` as the server sent it (`object`'s, when it is a string).
pub(crate) fn task_id(object: &JsonObject) -> Option<&str> {
    object.get("taskId").and_then(Value::as_str)
}

/// `value`, an id of `what`, within `max_id_bytes`.
pub(crate) fn id(value: &str, what: &'static str, limits: &Limits) -> Result<(), ResponseError> {
    if value.len() <= limits.max_id_bytes {
        return Ok(());
    }
    Err(ResponseError::IdTooLong {
        what,
        bytes: value.len(),
        limit: limits.max_id_bytes,
        excerpt: excerpt(value, ID_EXCERPT_CHARS),
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn object(value: Value) -> JsonObject {
        match value {
            Value::Object(object) => object,
            _ => JsonObject::new(),
        }
    }

    fn asks(count: usize) -> JsonObject {
        let requests: JsonObject = (0..count)
            .map(|n| (format!("q{n}"), json!({"method": "elicitation/create"})))
            .collect();
        object(json!({ "inputRequests": requests }))
    }

    #[test]
    fn input_requests_up_to_the_bound_pass_and_one_more_is_refused() {
        let limits = Limits::default();
        assert_eq!(
            input_requests(&asks(limits.max_input_requests), &limits),
            Ok(())
        );
        assert_eq!(
            input_requests(&asks(limits.max_input_requests + 1), &limits),
            Err(ResponseError::TooManyInputRequests {
                count: limits.max_input_requests + 1,
                limit: limits.max_input_requests,
            })
        );
    }

    #[test]
    fn long_keys_and_elicitation_ids_are_refused_with_an_excerpt() {
        let limits = Limits {
            max_id_bytes: 8,
            ..Limits::default()
        };
        let long_key = object(json!({"inputRequests": {"a-key-too-long": {}}}));
        let error = input_requests(&long_key, &limits).expect_err("over the bound");
        assert_eq!(
            error.to_string(),
            "the server sent an inputRequests key of 14 bytes (\"a-key-too-long\"): over the \
             bound of 8 bytes on ids (Limits::max_id_bytes), so the answer was refused"
        );
        let long_id = object(json!({"inputRequests": {"k": {
            "method": "elicitation/create",
            "params": {"mode": "url", "elicitationId": "x".repeat(40)}
        }}}));
        assert!(matches!(
            input_requests(&long_id, &limits),
            Err(ResponseError::IdTooLong {
                what: "an elicitationId",
                bytes: 40,
                ..
            })
        ));
    }

    #[test]
    fn shapes_the_decoder_owns_are_left_to_it() {
        let limits = Limits::default();
        for value in [
            json!({}),
            json!({"inputRequests": null}),
            json!({"inputRequests": [1]}),
        ] {
            assert_eq!(input_requests(&object(value), &limits), Ok(()));
        }
    }
}
