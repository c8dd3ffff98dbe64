//! Input requests (MRTR rounds, tasks in `input_required`), dispatched on their `method` and,
//! for elicitation, on `mode`; property schemas on their `type`.

use std::collections::BTreeMap;

use rmcp::model::{
    BooleanSchema, BooleanTypeConst, ConstString, CreateMessageRequestMethod, ElicitRequest,
    ElicitRequestParams, ElicitationCreateRequestMethod, ElicitationSchema, InputRequest,
    InputRequests, IntegerSchema, IntegerTypeConst, ListRootsRequestMethod, NumberSchema,
    NumberTypeConst, ObjectTypeConst, PrimitiveSchemaDefinition, RequestMetaObject,
};
// Sampling and roots are deprecated (SEP-2577) but still sent: shown, then declined.
#[allow(deprecated)]
use rmcp::model::{CreateMessageRequest, ListRootsRequest};
use serde::Deserialize;
use serde::de::Error as _;
use serde_json::{Error, Value};

use super::{object, object_or_rmcp, optional, present};

/// `inputRequests`: each request decoded by its own method.
pub(crate) fn input_requests(value: &Value) -> Result<InputRequests, Error> {
    object(value, "inputRequests")?
        .iter()
        .map(|(key, request)| Ok((key.clone(), input_request(request)?)))
        .collect()
}

/// One input request. rmcp's `InputRequest` is an untagged union whose variants differ only
/// by their constant `method`, so the method picks the variant here.
fn input_request(value: &Value) -> Result<InputRequest, Error> {
    let object = object_or_rmcp!(value, InputRequest);
    let method = object
        .get("method")
        .and_then(Value::as_str)
        .ok_or_else(|| Error::custom("an input request has no method"))?;
    if method == ElicitationCreateRequestMethod::VALUE {
        elicit_request(value).map(InputRequest::Elicitation)
    } else if method == CreateMessageRequestMethod::VALUE {
        #[allow(deprecated)]
        CreateMessageRequest::deserialize(value).map(InputRequest::CreateMessage)
    } else if method == ListRootsRequestMethod::VALUE {
        #[allow(deprecated)]
        ListRootsRequest::deserialize(value).map(InputRequest::ListRoots)
    } else {
        Err(Error::custom(format!(
            "unknown input request method {method:?}"
        )))
    }
}

/// `elicitation/create`. As rmcp's request envelope does, `params._meta` goes into the
/// request's extensions and the params keep none.
fn elicit_request(value: &Value) -> Result<ElicitRequest, Error> {
    let Some(params) = value.get("params").and_then(Value::as_object) else {
        return ElicitRequest::deserialize(value);
    };
    let mode = params.get("mode");
    let message = || -> Result<String, Error> {
        optional(params, "message")?.ok_or_else(|| Error::custom("missing field `message`"))
    };
    let decoded = match mode.and_then(Value::as_str) {
        // An absent mode is form mode (the 2025 shape).
        None | Some("form") if mode.is_none_or(Value::is_string) => {
            ElicitRequestParams::FormElicitationParams {
                meta: None,
                message: message()?,
                requested_schema: elicitation_schema(
                    params
                        .get("requestedSchema")
                        .ok_or_else(|| Error::custom("missing field `requestedSchema`"))?,
                )?,
            }
        }
        Some("url") => ElicitRequestParams::UrlElicitationParams {
            meta: None,
            message: message()?,
            url: optional(params, "url")?.ok_or_else(|| Error::custom("missing field `url`"))?,
            elicitation_id: present(params, "elicitationId")?.unwrap_or_default(),
        },
        // Any other shape: rmcp's own reading decides.
        _ => return ElicitRequest::deserialize(value),
    };
    let mut request = ElicitRequest::new(decoded);
    match params.get("_meta") {
        None | Some(Value::Null) => {}
        Some(Value::Object(meta)) => {
            request
                .extensions
                .insert(RequestMetaObject::from(meta.clone()));
        }
        Some(_) => return Err(Error::custom("_meta is not a JSON object")),
    }
    Ok(request)
}

/// A form's `requestedSchema`, with its properties in the server's order.
fn elicitation_schema(value: &Value) -> Result<ElicitationSchema, Error> {
    let object = object_or_rmcp!(value, ElicitationSchema);
    let _: ObjectTypeConst =
        optional(object, "type")?.ok_or_else(|| Error::custom("missing field `type`"))?;
    let properties = object
        .get("properties")
        .ok_or_else(|| Error::custom("missing field `properties`"))?;
    let properties = super::object(properties, "properties")?;
    let order: Vec<String> = properties.keys().cloned().collect();
    let properties: BTreeMap<String, PrimitiveSchemaDefinition> = properties
        .iter()
        .map(|(name, schema)| Ok((name.clone(), property_schema(schema)?)))
        .collect::<Result<_, Error>>()?;
    let mut schema = ElicitationSchema::new(properties);
    schema.property_order = Some(order);
    schema.schema = optional::<String>(object, "$schema")?.map(Into::into);
    schema.title = optional::<String>(object, "title")?.map(Into::into);
    schema.required = optional(object, "required")?;
    schema.description = optional::<String>(object, "description")?.map(Into::into);
    Ok(schema)
}

/// One property's schema. Only string and array types can be enums (rmcp tries those
/// first); a boolean, number or integer property can only be its own type.
fn property_schema(value: &Value) -> Result<PrimitiveSchemaDefinition, Error> {
    let kind = value.get("type").and_then(Value::as_str);
    if kind == Some(BooleanTypeConst::VALUE) {
        BooleanSchema::deserialize(value).map(PrimitiveSchemaDefinition::Boolean)
    } else if kind == Some(NumberTypeConst::VALUE) {
        NumberSchema::deserialize(value).map(PrimitiveSchemaDefinition::Number)
    } else if kind == Some(IntegerTypeConst::VALUE) {
        IntegerSchema::deserialize(value).map(PrimitiveSchemaDefinition::Integer)
    } else {
        PrimitiveSchemaDefinition::deserialize(value)
    }
}
