//! One `tools/call` as a tool handler sees it: who calls, what they sent, what they declared.

use std::sync::Arc;

use rmcp::ErrorData;
use rmcp::RoleServer;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, ClientCapabilities, CreateTaskResult, JsonObject,
};
use rmcp::service::RequestContext;
use serde_json::{Value, json};

use crate::principal::Principal;
use crate::shared::Shared;
use crate::tasks::CreateOptions;

pub struct Call<'a> {
    pub shared: &'a Arc<Shared>,
    pub principal: Principal,
    pub request: CallToolRequestParams,
    pub context: &'a RequestContext<RoleServer>,
}

impl Call<'_> {
    pub fn tool(&self) -> &str {
        &self.request.name
    }

    pub fn arguments(&self) -> JsonObject {
        self.request.arguments.clone().unwrap_or_default()
    }

    pub fn argument(&self, name: &str) -> Option<&Value> {
        self.request
            .arguments
            .as_ref()
            .and_then(|arguments| arguments.get(name))
    }

    pub fn string_argument<'s>(&'s self, name: &str, default: &'s str) -> &'s str {
        self.argument(name)
            .and_then(Value::as_str)
            .unwrap_or(default)
    }

    /// A number argument within `range`, or `default` when absent.
    pub fn number_argument(
        &self,
        name: &str,
        default: f64,
        range: std::ops::RangeInclusive<f64>,
    ) -> Result<f64, ErrorData> {
        match self.argument(name) {
            None | Some(Value::Null) => Ok(default),
            Some(value) => value
                .as_f64()
                .filter(|number| range.contains(number))
                .ok_or_else(|| {
                    ErrorData::invalid_params(
                        format!(
                            "{name} must be a number from {} to {}",
                            range.start(),
                            range.end()
                        ),
                        None,
                    )
                }),
        }
    }

    fn capabilities(&self) -> Option<ClientCapabilities> {
        self.context.client_capabilities()
    }

    /// Did this very request declare the tasks extension?
    pub fn accepts_tasks(&self) -> bool {
        self.capabilities()
            .is_some_and(|caps| caps.supports_tasks())
    }

    /// Form elicitation is declared as `elicitation.form`, or as an empty `elicitation`.
    pub fn require_form_elicitation(&self) -> Result<(), ErrorData> {
        require_form_elicitation(self.context)
    }

    pub fn require_url_elicitation(&self) -> Result<(), ErrorData> {
        let declared = self
            .capabilities()
            .and_then(|caps| caps.elicitation)
            .is_some_and(|elicitation| elicitation.url.is_some());
        if declared {
            Ok(())
        } else {
            Err(missing_capability(json!({"elicitation": {"url": {}}})))
        }
    }

    /// Commit a task of `kind` for this call's user and arguments; answer with its handle.
    pub async fn start_task(
        &self,
        kind: &str,
        options: CreateOptions,
    ) -> Result<CallToolResponse, ErrorData> {
        self.start_task_with(kind, self.arguments(), options).await
    }

    /// The same, with the arguments the job should see.
    pub async fn start_task_with(
        &self,
        kind: &str,
        arguments: JsonObject,
        mut options: CreateOptions,
    ) -> Result<CallToolResponse, ErrorData> {
        let floor = self.shared.limits.min_task_poll_interval_ms;
        options.poll_interval_ms = options.poll_interval_ms.max(floor);
        let task = self
            .shared
            .tasks
            .create(self.principal.name(), kind, arguments, options)
            .await?;
        Ok(CallToolResponse::Task(CreateTaskResult::new(task)))
    }

    /// `-32021` for a tool that can only run as a task.
    pub fn require_tasks(&self) -> Result<(), ErrorData> {
        if self.accepts_tasks() {
            Ok(())
        } else {
            Err(ErrorData::missing_required_client_capability(
                ClientCapabilities::builder().enable_tasks().build(),
            ))
        }
    }
}

/// `-32021` unless the request declared form elicitation (`elicitation.form`, or an empty
/// `elicitation`): for any request that may pause with a form.
pub fn require_form_elicitation(context: &RequestContext<RoleServer>) -> Result<(), ErrorData> {
    let declared = context
        .client_capabilities()
        .and_then(|caps| caps.elicitation)
        .is_some_and(|elicitation| elicitation.form.is_some() || elicitation.url.is_none());
    if declared {
        Ok(())
    } else {
        Err(missing_capability(json!({"elicitation": {"form": {}}})))
    }
}

/// `-32021` naming the capability this request should have declared.
fn missing_capability(required: Value) -> ErrorData {
    ErrorData::missing_required_client_capability(
        serde_json::from_value(required).unwrap_or_default(),
    )
}
