use serde_json::{Value, json};

use super::*;

fn body_of<M: McpMethod>(request: &OutgoingRequest<M>) -> Value {
    serde_json::from_str(request.body()).expect("the engine builds valid JSON")
}

fn header<'a, M: McpMethod>(request: &'a OutgoingRequest<M>, name: &str) -> Option<&'a str> {
    request
        .headers()
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_str())
}

fn tool(schema: Value) -> Tool {
    serde_json::from_value(json!({"name": "deploy", "inputSchema": schema})).expect("tool")
}

#[test]
fn discover_carries_the_meta_envelope() {
    let mut client = Client::default();
    let body = body_of(&client.discover());
    assert_eq!(body["jsonrpc"], "2.0");
    assert_eq!(body["method"], "server/discover");
    let meta = &body["params"]["_meta"];
    assert_eq!(
        meta["io.modelcontextprotocol/protocolVersion"],
        "2026-07-28"
    );
    assert_eq!(
        meta["io.modelcontextprotocol/clientInfo"]["name"],
        "holdbay"
    );
    assert_eq!(
        meta["io.modelcontextprotocol/clientCapabilities"],
        json!({"elicitation": {"form": {}, "url": {}},
               "extensions": {"io.modelcontextprotocol/tasks": {}}})
    );
}

#[test]
fn nothing_deprecated_is_declared() {
    let caps = &body_of(&Client::default().discover())["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"];
    assert!(
        caps.get("sampling").is_none() && caps.get("roots").is_none(),
        "{caps}"
    );
}

#[test]
fn discover_headers_mirror_method_and_version() {
    let request = Client::default().discover();
    assert_eq!(header(&request, "content-type"), Some("application/json"));
    assert_eq!(
        header(&request, "accept"),
        Some("application/json, text/event-stream")
    );
    assert_eq!(header(&request, "mcp-protocol-version"), Some("2026-07-28"));
    assert_eq!(header(&request, "mcp-method"), Some("server/discover"));
    assert_eq!(header(&request, "mcp-name"), None);
}

#[test]
fn every_request_gets_a_fresh_non_null_id() {
    let mut client = Client::default();
    let ids: Vec<Value> = (0..6)
        .map(|i| match i % 3 {
            0 => body_of(&client.discover())["id"].clone(),
            1 => body_of(&client.list_tools(None))["id"].clone(),
            _ => body_of(&client.get_task("t"))["id"].clone(),
        })
        .collect();
    for (i, id) in ids.iter().enumerate() {
        assert!(id.is_number(), "id {id} must be a number");
        assert!(!ids[..i].contains(id), "id {id} was reused");
    }
}

#[test]
fn list_tools_sends_the_cursor_only_when_given() {
    let mut client = Client::default();
    let first = body_of(&client.list_tools(None));
    assert!(first["params"].get("cursor").is_none());
    let next = body_of(&client.list_tools(Some(String::new())));
    // An empty string is a valid cursor and must be sent as-is.
    assert_eq!(next["params"]["cursor"], "");
}

#[test]
fn routed_methods_carry_mcp_name() {
    let mut client = Client::default();
    let call = client
        .call_tool("get_weather", None, &RequestOptions::default())
        .expect("no mirrored arguments");
    assert_eq!(header(&call, "mcp-name"), Some("get_weather"));
    assert_eq!(
        header(&client.get_task("task-1"), "mcp-name"),
        Some("task-1")
    );
    assert_eq!(
        header(&client.cancel_task("task-1"), "mcp-method"),
        Some("tasks/cancel")
    );
    let update = client.update_task("tâche", InputResponses::new());
    assert_eq!(header(&update, "mcp-name"), Some("=?base64?dMOiY2hl?="));
}

#[test]
fn tools_call_declares_tasks_only_when_accepting_one() {
    let mut client = Client::default();
    let plain = client
        .call_tool("t", None, &RequestOptions::default())
        .expect("call");
    let caps = &body_of(&plain)["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"];
    assert!(caps.get("extensions").is_none(), "{caps}");
    assert!(!plain.declares_tasks());
    let accepting = client
        .call_tool(
            "t",
            None,
            &RequestOptions {
                accept_task: true,
                ..Default::default()
            },
        )
        .expect("call");
    assert!(accepting.declares_tasks());
    // tasks/* always declare it: servers refuse them otherwise.
    assert!(client.get_task("x").declares_tasks());
}

#[test]
fn marked_arguments_are_mirrored_into_headers() {
    let mut client = Client::default();
    let (kept, findings) = client.learn_tools(vec![tool(json!({"type":"object","properties":{
        "region":{"type":"string","x-mcp-header":"Region"},"note":{"type":"string"}}}))]);
    assert_eq!((kept.len(), findings.len()), (1, 0));
    let args = json!({"region": "Zürich", "note": "not mirrored"});
    let call = client
        .call_tool(
            "deploy",
            args.as_object().cloned(),
            &RequestOptions::default(),
        )
        .expect("mirrorable");
    assert_eq!(
        header(&call, "mcp-param-region"),
        Some("=?base64?WsO8cmljaA==?=")
    );
    assert_eq!(
        call.headers()
            .iter()
            .filter(|(n, _)| n.starts_with("Mcp-Param-"))
            .count(),
        1
    );
}

#[test]
fn an_unmirrorable_argument_is_refused_before_sending() {
    let mut client = Client::default();
    client.learn_tools(vec![tool(json!({"type":"object","properties":{
        "region":{"type":"string","x-mcp-header":"Region"}}}))]);
    let args = json!({"region": {"nested": true}});
    assert!(
        client
            .call_tool(
                "deploy",
                args.as_object().cloned(),
                &RequestOptions::default()
            )
            .is_err()
    );
}

#[test]
fn progress_token_goes_in_meta() {
    let mut client = Client::default();
    let options = RequestOptions {
        progress_token: Some(ProgressToken(rmcp::model::NumberOrString::String(
            "p1".into(),
        ))),
        ..Default::default()
    };
    let call = client.call_tool("t", None, &options).expect("call");
    assert_eq!(body_of(&call)["params"]["_meta"]["progressToken"], "p1");
}

#[test]
fn progress_tokens_are_unique() {
    let mut client = Client::default();
    let a = client.progress_token();
    let b = client.progress_token();
    assert_ne!(a, b);
}

#[test]
fn progress_tokens_take_no_request_ids() {
    let mut client = Client::default();
    let first = client.list_tools(None);
    let _token = client.progress_token();
    let second = client.list_tools(None);
    assert_eq!(body_of(&first)["id"], 1);
    assert_eq!(body_of(&second)["id"], 2);
}

#[test]
fn prompts_and_resources_lists_are_paged_and_decoded_by_method() {
    let mut client = Client::default();
    let prompts = client.list_prompts(Some("p2".into()));
    let body = body_of(&prompts);
    assert_eq!(body["method"], "prompts/list");
    assert_eq!(body["params"]["cursor"], "p2");
    assert_eq!(header(&prompts, "mcp-name"), None);
    let mut reader = prompts.reader(200, Some("application/json"));
    reader.push_chunk(
        br#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","ttlMs":5,
            "cacheScope":"private","prompts":[{"name":"greet","title":"Greeting"}]}}"#,
    );
    let listed = reader.finish().expect("prompts decode").result;
    assert_eq!(listed.prompts[0].title.as_deref(), Some("Greeting"));

    let resources = client.list_resources(None);
    let body = body_of(&resources);
    assert_eq!(body["method"], "resources/list");
    assert!(body["params"].get("cursor").is_none());
    let mut reader = resources.reader(200, Some("application/json"));
    reader.push_chunk(
        br#"{"jsonrpc":"2.0","id":2,"result":{"resultType":"complete","ttlMs":5,
            "cacheScope":"private","resources":[{"uri":"file:///a.txt","name":"a"}]}}"#,
    );
    let listed = reader.finish().expect("resources decode").result;
    assert_eq!(listed.resources[0].uri, "file:///a.txt");
    const { assert!(ListPrompts::CACHEABLE && ListResources::CACHEABLE) };
}

#[test]
fn resource_templates_are_listed_by_their_own_method_and_header() {
    let mut client = Client::default();
    let request = client.list_resource_templates(Some(String::new()));
    let body = body_of(&request);
    assert_eq!(body["method"], "resources/templates/list");
    assert_eq!(body["params"]["cursor"], "", "an empty cursor is a cursor");
    assert_eq!(
        header(&request, "mcp-method"),
        Some("resources/templates/list")
    );
}

#[test]
fn prompts_get_sends_string_arguments_exactly_and_routes_by_name() {
    let mut client = Client::default();
    let arguments = BTreeMap::from([
        ("topic".to_owned(), "line one\r\nline two".to_owned()),
        ("empty".to_owned(), String::new()),
    ]);
    let request = client.get_prompt("draft_note", &arguments);
    let body = body_of(&request);
    assert_eq!(body["method"], "prompts/get");
    assert_eq!(body["params"]["name"], "draft_note");
    assert_eq!(
        body["params"]["arguments"],
        json!({"topic": "line one\r\nline two", "empty": ""})
    );
    assert_eq!(header(&request, "Mcp-Method"), Some("prompts/get"));
    assert_eq!(header(&request, "Mcp-Name"), Some("draft_note"));
    let bare = body_of(&client.get_prompt("plain", &BTreeMap::new()));
    assert!(bare["params"].get("arguments").is_none());
}

#[test]
fn resources_read_routes_by_uri() {
    let mut client = Client::default();
    let request = client.read_resource("demo://notes/ops/today");
    let body = body_of(&request);
    assert_eq!(body["method"], "resources/read");
    assert_eq!(body["params"]["uri"], "demo://notes/ops/today");
    assert_eq!(header(&request, "Mcp-Name"), Some("demo://notes/ops/today"));
    assert!(body["params"].get("requestState").is_none());
}

#[test]
fn completion_complete_names_its_reference_and_context() {
    let mut client = Client::default();
    let context = BTreeMap::from([
        ("team".to_owned(), "ops".to_owned()),
        ("day".to_owned(), "to".to_owned()),
    ]);
    let prompt = body_of(&client.complete(
        &CompletionTarget::Prompt("draft_note".into()),
        "day",
        "to",
        &context,
    ));
    assert_eq!(prompt["method"], "completion/complete");
    assert_eq!(
        prompt["params"]["ref"],
        json!({"type": "ref/prompt", "name": "draft_note"})
    );
    assert_eq!(
        prompt["params"]["argument"],
        json!({"name": "day", "value": "to"})
    );
    // The argument being completed is not its own context.
    assert_eq!(
        prompt["params"]["context"],
        json!({"arguments": {"team": "ops"}})
    );
    let template = body_of(&client.complete(
        &CompletionTarget::Template("demo://notes/{team}/{day}".into()),
        "team",
        "",
        &BTreeMap::new(),
    ));
    assert_eq!(
        template["params"]["ref"],
        json!({"type": "ref/resource", "uri": "demo://notes/{team}/{day}"})
    );
    assert!(template["params"].get("context").is_none());
}
