//! An MCP client session against a test server: the engine builds every request and
//! reads every response, reqwest moves the bytes.

use std::time::Duration;

use holdbay_engine::model::{CallToolResult, DetailedTask, JsonObject, TaskStatus};
use holdbay_engine::{
    Bounds, CallTool, Client, Decoded, InputAnswer, LogicalRequest, McpMethod, Outcome,
    OutgoingRequest, Reply, RequestOptions, ResponseError, Step,
};
use serde_json::Value;

pub struct Session {
    pub client: Client,
    http: reqwest::Client,
    url: String,
    token: Option<String>,
}

/// A `tools/call` in progress: the engine's logical request and its latest step.
pub struct Call {
    pub logical: LogicalRequest<CallTool>,
    pub step: Step<CallToolResult>,
}

impl Session {
    pub fn new(mcp_url: String) -> Self {
        Self {
            client: Client::default(),
            http: super::http_client(),
            url: mcp_url,
            token: None,
        }
    }

    /// Send `Authorization: Bearer SECRET` with every request.
    pub fn with_token(mut self, secret: &str) -> Self {
        self.token = Some(secret.to_owned());
        self
    }

    /// Send one request; the engine decodes the response.
    pub async fn send<M: McpMethod>(
        &self,
        request: &OutgoingRequest<M>,
    ) -> Result<Reply<Outcome<M::Output>>, ResponseError> {
        self.send_decoded(request).await.result
    }

    /// Send one request; the engine decodes the response into its events and result.
    pub async fn send_decoded<M: McpMethod>(&self, request: &OutgoingRequest<M>) -> Decoded<M> {
        let mut response = self.post(request).await;
        let content_type = response
            .headers()
            .get("content-type")
            .and_then(|value| value.to_str().ok())
            .map(str::to_owned);
        let mut reader = request.reader(response.status().as_u16(), content_type.as_deref());
        while let Some(chunk) = response.chunk().await.expect("the body arrives") {
            reader.push_chunk(&chunk);
        }
        reader.finish_decoded()
    }

    /// POST the engine's request with its headers (and the token); the raw response, for
    /// reading a stream by hand.
    pub async fn post<M: McpMethod>(&self, request: &OutgoingRequest<M>) -> reqwest::Response {
        let mut post = self.http.post(&self.url).body(request.body().to_owned());
        for (name, value) in request.headers() {
            post = post.header(name.as_str(), value);
        }
        if let Some(token) = &self.token {
            post = post.bearer_auth(token);
        }
        post.send().await.expect("the server answers")
    }

    /// Start `tools/call name(arguments)`, declaring the tasks extension or not.
    pub async fn call(
        &mut self,
        name: &str,
        arguments: Value,
        accept_task: bool,
    ) -> Result<Call, ResponseError> {
        let options = RequestOptions {
            accept_task,
            ..RequestOptions::default()
        };
        let request = self
            .client
            .call_tool(name, arguments.as_object().cloned(), &options)
            .expect("valid arguments");
        let mut logical = LogicalRequest::start(&request, Bounds::default(), 0);
        let reply = self.send(&request).await?;
        let step = logical.handle(reply);
        Ok(Call { logical, step })
    }

    /// `tools/call` that must come back as a task; its id.
    pub async fn start_task(&mut self, name: &str, arguments: Value) -> String {
        let call = self
            .call(name, arguments, true)
            .await
            .expect("the call succeeds");
        match call.step {
            Step::Task(created) => created.task.task_id,
            other => panic!("{name} answered {other:?}, not a task"),
        }
    }

    /// Answer every pending key of `call` with `answer(key)` and retry.
    pub async fn answer(
        &mut self,
        call: &mut Call,
        answer: impl Fn(&str) -> InputAnswer,
    ) -> Result<(), ResponseError> {
        for key in call.logical.pending_inputs() {
            call.logical
                .answer(&key, answer(&key))
                .expect("the key is pending");
        }
        let retry = call
            .logical
            .retry(&mut self.client, 0)
            .expect("a retry is due");
        let reply = self.send(&retry).await?;
        call.step = call.logical.handle(reply);
        Ok(())
    }

    pub async fn get_task(&mut self, task_id: &str) -> Result<DetailedTask, ResponseError> {
        let request = self.client.get_task(task_id);
        match self.send(&request).await?.result {
            Outcome::Complete(result) => Ok(result.task),
            other => panic!("tasks/get answered {other:?}"),
        }
    }

    /// Poll until the task's status satisfies `done`, within `timeout`.
    pub async fn poll_until(
        &mut self,
        task_id: &str,
        timeout: Duration,
        done: impl Fn(TaskStatus) -> bool,
    ) -> DetailedTask {
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            let task = self.get_task(task_id).await.expect("tasks/get succeeds");
            if done(task.status()) {
                return task;
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "task {task_id} stuck at {:?}",
                task.status()
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    pub async fn update_task(
        &mut self,
        task_id: &str,
        key: &str,
        response: Value,
    ) -> Result<(), ResponseError> {
        let request = self
            .client
            .update_task(task_id, [(key.to_owned(), response)].into());
        self.send(&request).await.map(|_| ())
    }

    /// `tasks/update` answering several keys at once (one Submit).
    pub async fn update_task_with(
        &mut self,
        task_id: &str,
        responses: impl IntoIterator<Item = (&str, Value)>,
    ) -> Result<(), ResponseError> {
        let responses = responses
            .into_iter()
            .map(|(key, response)| (key.to_owned(), response))
            .collect();
        let request = self.client.update_task(task_id, responses);
        self.send(&request).await.map(|_| ())
    }

    pub async fn cancel_task(&mut self, task_id: &str) -> Result<(), ResponseError> {
        let request = self.client.cancel_task(task_id);
        self.send(&request).await.map(|_| ())
    }
}

/// The user fills in a form with `content` and accepts.
pub fn form(content: Value) -> InputAnswer {
    InputAnswer::Accept(content.as_object().cloned())
}

/// An elicitation `accept` with `content`, as wire JSON (for requests built by hand).
pub fn accept(content: Value) -> Value {
    serde_json::json!({ "action": "accept", "content": content })
}

/// Consent to a URL-mode elicitation (accept, no content).
pub fn consent() -> InputAnswer {
    InputAnswer::Accept(None)
}

pub fn decline() -> InputAnswer {
    InputAnswer::Decline
}

/// A task snapshot as wire JSON, for easy field checks.
pub fn wire(task: &DetailedTask) -> JsonObject {
    serde_json::to_value(task)
        .ok()
        .and_then(|value| value.as_object().cloned())
        .expect("a task is an object")
}
