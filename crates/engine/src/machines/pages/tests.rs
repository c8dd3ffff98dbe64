use serde_json::{Value, json};

use super::*;
use crate::vocabulary::findings::Rule;
use crate::vocabulary::method::{
    ListPrompts, ListResourceTemplates, ListResources, ListTools, McpMethod,
};

fn discover(capabilities: Value) -> DiscoverResult {
    serde_json::from_value(
        json!({"resultType":"complete","supportedVersions":["2026-07-28"],
        "capabilities":capabilities,"ttlMs":0,"cacheScope":"private"}),
    )
    .expect("valid discover result")
}

/// The server's JSON answer to `request`, read through the engine's reader.
fn reply_to<M: ListMethod>(request: &OutgoingRequest<M>, result: Value) -> Reply<M::Output> {
    let body: Value = serde_json::from_str(request.body()).expect("JSON");
    let wire = json!({"jsonrpc": "2.0", "id": body["id"], "result": result});
    let mut reader = request.reader(200, Some("application/json"));
    reader.push_chunk(wire.to_string().as_bytes());
    reader.finish().expect("a page")
}

/// A `tools/list` page as a 2026-07-28 server sends it.
fn tools_page(names: &[&str], next_cursor: Option<&str>) -> Value {
    let tools: Vec<Value> = names
        .iter()
        .map(|name| json!({"name": name, "inputSchema": {"type": "object"}}))
        .collect();
    let mut page = json!({"resultType": "complete", "tools": tools, "ttlMs": 0,
        "cacheScope": "private"});
    if let Some(cursor) = next_cursor {
        page["nextCursor"] = json!(cursor);
    }
    page
}

fn cursor_of<M: McpMethod>(request: &OutgoingRequest<M>) -> Option<String> {
    let body: Value = serde_json::from_str(request.body()).expect("JSON");
    body["params"]["cursor"].as_str().map(str::to_owned)
}

fn tool_pages() -> Pages<ListTools> {
    Pages::for_server(&discover(json!({"tools": {}}))).expect("tools offered")
}

/// Ask for the next page and take in `result` as its answer.
fn take_page<M: ListMethod>(pages: &mut Pages<M>, client: &mut Client, result: Value) {
    let request = pages.next_request(client).expect("a page to ask for");
    pages
        .accept(reply_to(&request, result))
        .expect("a good page");
}

fn names(tools: &[Tool]) -> Vec<&str> {
    tools.iter().map(|tool| tool.name.as_ref()).collect()
}

#[test]
fn display_name_prefers_title_then_annotation_title_then_name() {
    let tool = |v: Value| -> Tool { serde_json::from_value(v).expect("tool") };
    let schema = json!({"type": "object"});
    let plain = tool(json!({"name": "n", "inputSchema": schema}));
    let annotated =
        tool(json!({"name": "n", "inputSchema": schema, "annotations": {"title": "A"}}));
    let titled = tool(
        json!({"name": "n", "title": "T", "inputSchema": schema, "annotations": {"title": "A"}}),
    );
    assert_eq!(tool_display_name(&plain), "n");
    assert_eq!(tool_display_name(&annotated), "A");
    assert_eq!(tool_display_name(&titled), "T");
}

#[test]
fn each_list_is_offered_only_by_its_capability() {
    let tools = discover(json!({"tools": {}}));
    let prompts = discover(json!({"prompts": {"listChanged": true}}));
    let resources = discover(json!({"resources": {"subscribe": true}}));
    assert!(Pages::<ListTools>::for_server(&tools).is_some());
    assert!(Pages::<ListTools>::for_server(&prompts).is_none());
    assert!(Pages::<ListPrompts>::for_server(&prompts).is_some());
    assert!(Pages::<ListPrompts>::for_server(&resources).is_none());
    assert!(Pages::<ListResources>::for_server(&resources).is_some());
    assert!(Pages::<ListResources>::for_server(&tools).is_none());
}

#[test]
fn resource_templates_come_with_the_resources_capability() {
    assert!(
        Pages::<ListResourceTemplates>::for_server(&discover(json!({"resources": {}}))).is_some()
    );
    assert!(Pages::<ListResourceTemplates>::for_server(&discover(json!({"tools": {}}))).is_none());
}

#[test]
fn pages_are_followed_until_next_cursor_is_absent() {
    let mut client = Client::default();
    let mut pages = tool_pages();
    let first = pages.next_request(&mut client).expect("first page");
    assert_eq!(cursor_of(&first), None);
    pages
        .accept(reply_to(&first, tools_page(&["a"], Some(""))))
        .expect("page 1");
    let second = pages
        .next_request(&mut client)
        .expect("an empty cursor continues");
    assert_eq!(cursor_of(&second), Some(String::new()));
    pages
        .accept(reply_to(&second, tools_page(&["b"], None)))
        .expect("page 2");
    assert!(pages.next_request(&mut client).is_none());
    let listing = pages.finish();
    assert_eq!(names(&listing.items), ["a", "b"]);
    assert!(listing.is_complete());
}

#[test]
fn every_pages_findings_are_kept() {
    let mut client = Client::default();
    let mut pages = tool_pages();
    // An older server: no ttlMs or cacheScope on either page.
    take_page(
        &mut pages,
        &mut client,
        json!({"resultType": "complete", "tools": [], "nextCursor": "2"}),
    );
    take_page(
        &mut pages,
        &mut client,
        json!({"resultType": "complete", "tools": []}),
    );
    let listing = pages.finish();
    let rules: Vec<Rule> = listing.findings.iter().map(|f| f.rule).collect();
    assert_eq!(rules, [Rule::CacheHintsMissing, Rule::CacheHintsMissing]);
}

#[test]
fn a_listing_shows_its_names_and_flags_the_ones_that_pass_for_others() {
    let mut client = Client::default();
    let mut pages = tool_pages();
    take_page(
        &mut pages,
        &mut client,
        tools_page(&["ok_echo", "ok_\u{200B}echo"], Some("2")),
    );
    take_page(
        &mut pages,
        &mut client,
        tools_page(&["\u{202E}evil_tool"], None),
    );
    let listing = pages.finish();
    let flagged: Vec<(Rule, &str)> = listing
        .findings
        .iter()
        .map(|f| (f.rule, f.explanation.split(':').next().unwrap_or_default()))
        .collect();
    assert_eq!(
        flagged,
        [
            (
                Rule::NameLookAlike,
                "tool \"ok_echo\" looks like tool \"ok_⟨U+200B⟩echo\""
            ),
            (
                Rule::NameInvisibleChars,
                "tool \"ok_⟨U+200B⟩echo\" has characters in its name that do not show as themselves"
            ),
            (
                Rule::NameLookAlike,
                "tool \"ok_⟨U+200B⟩echo\" looks like tool \"ok_echo\""
            ),
            (
                Rule::NameInvisibleChars,
                "tool \"⟨U+202E⟩evil_tool\" has characters in its name that do not show as themselves"
            ),
        ]
    );
    // Across pages: the look-alike on page 1 and the bidi control on page 2, one book.
    let evil = listing.names.marks("\u{202E}evil_tool", None);
    assert_eq!(evil.name.text(), "⟨U+202E⟩evil_tool");
    assert!(listing.names.marks("ok_echo", None).is_flagged());
    // The items stay as the server wrote them: calls send the real name.
    assert_eq!(
        names(&listing.items),
        ["ok_echo", "ok_\u{200B}echo", "\u{202E}evil_tool"]
    );
}

#[test]
fn a_repeated_cursor_stops_the_listing_and_says_so() {
    let mut client = Client::default();
    let mut pages = tool_pages();
    take_page(&mut pages, &mut client, tools_page(&["a"], Some("x")));
    let again = pages.next_request(&mut client).expect("page 2");
    let expected = PagesError::RepeatedCursor {
        method: "tools/list",
        cursor: "x".into(),
    };
    assert_eq!(
        pages.accept(reply_to(&again, tools_page(&["b"], Some("x")))),
        Err(expected.clone())
    );
    assert!(pages.next_request(&mut client).is_none());
    let listing = pages.finish();
    assert_eq!(names(&listing.items), ["a", "b"]);
    assert_eq!(listing.stopped, Some(expected));
}

#[test]
fn the_page_count_is_bounded() {
    let mut client = Client::default();
    let mut pages = tool_pages();
    let mut outcome = Ok(());
    for page in 0..MAX_PAGES {
        let request = pages.next_request(&mut client).expect("within the bound");
        outcome = pages.accept(reply_to(&request, tools_page(&[], Some(&page.to_string()))));
    }
    let expected = PagesError::TooManyPages {
        method: "tools/list",
        pages: MAX_PAGES,
    };
    assert_eq!(outcome, Err(expected.clone()));
    assert_eq!(pages.finish().stopped, Some(expected));
}

#[test]
fn a_failed_page_stops_the_listing_with_what_came_before() {
    let mut client = Client::default();
    let mut pages = tool_pages();
    take_page(&mut pages, &mut client, tools_page(&["a"], Some("2")));
    pages.next_request(&mut client).expect("page 2");
    pages.page_failed("the server is unreachable");
    assert!(pages.is_over());
    let listing = pages.finish();
    assert_eq!(names(&listing.items), ["a"]);
    assert_eq!(
        listing.stopped,
        Some(PagesError::PageFailed {
            method: "tools/list",
            page: 2,
            reason: "the server is unreachable".into()
        })
    );
}

#[test]
fn finishing_before_the_last_page_is_never_silent() {
    let mut client = Client::default();
    let mut pages = tool_pages();
    take_page(&mut pages, &mut client, tools_page(&["a"], Some("2")));
    assert_eq!(
        pages.finish().stopped,
        Some(PagesError::Unfinished {
            method: "tools/list",
            pages: 1
        })
    );
}

#[test]
fn prompts_resources_and_templates_page_the_same_way() {
    let mut client = Client::default();
    let all = discover(json!({"prompts": {}, "resources": {}}));
    let mut prompts = Pages::<ListPrompts>::for_server(&all).expect("prompts");
    take_page(
        &mut prompts,
        &mut client,
        json!({"resultType": "complete", "prompts": [{"name": "review"}], "nextCursor": "",
            "ttlMs": 0, "cacheScope": "public"}),
    );
    take_page(
        &mut prompts,
        &mut client,
        json!({"resultType": "complete", "prompts": [{"name": "summarize"}], "ttlMs": 0,
            "cacheScope": "public"}),
    );
    let prompts = prompts.finish();
    assert!(prompts.is_complete());
    assert_eq!(prompts.items.len(), 2);

    let mut resources = Pages::<ListResources>::for_server(&all).expect("resources");
    let request = resources.next_request(&mut client).expect("page 1");
    assert_eq!(request.method(), "resources/list");
    resources
        .accept(reply_to(
            &request,
            json!({"resultType": "complete", "resources": [{"uri": "file:///README.md",
                "name": "README"}], "ttlMs": 0, "cacheScope": "private"}),
        ))
        .expect("page");
    assert_eq!(resources.finish().items[0].uri, "file:///README.md");

    let mut templates = Pages::<ListResourceTemplates>::for_server(&all).expect("templates");
    let request = templates.next_request(&mut client).expect("page 1");
    assert_eq!(request.method(), "resources/templates/list");
    templates
        .accept(reply_to(
            &request,
            json!({"resultType": "complete", "resourceTemplates": [{
                "uriTemplate": "file:///{path}", "name": "Files"}], "ttlMs": 0,
                "cacheScope": "private"}),
        ))
        .expect("page");
    assert_eq!(templates.finish().items[0].uri_template, "file:///{path}");
}

#[test]
fn learning_a_listing_drops_invalid_header_annotations_with_a_finding() {
    let mut client = Client::default();
    let mut pages = tool_pages();
    take_page(
        &mut pages,
        &mut client,
        json!({"resultType": "complete", "ttlMs": 0, "cacheScope": "private", "tools": [
            {"name": "ok", "inputSchema": {"type": "object"}},
            {"name": "bad", "inputSchema": {"type": "object", "properties": {
                "n": {"type": "number", "x-mcp-header": "N"}}}}]}),
    );
    let listing = pages.finish().learn(&mut client);
    assert_eq!(names(&listing.items), ["ok"]);
    assert_eq!(listing.findings[0].rule, Rule::InvalidMcpHeaderAnnotation);
}

#[test]
fn a_first_page_asked_before_discovery_counts_as_the_listings_first_page() {
    let mut client = Client::default();
    let early = Pages::<ListTools>::first_request(&mut client);
    assert_eq!(cursor_of(&early), None);
    let mut pages = tool_pages();
    pages
        .accept(reply_to(&early, tools_page(&["a"], Some("c1"))))
        .expect("the early page");
    // The listing goes on from the early page's cursor, not from the start.
    let next = pages.next_request(&mut client).expect("a second page");
    assert_eq!(cursor_of(&next).as_deref(), Some("c1"));
    pages
        .accept(reply_to(&next, tools_page(&["b"], None)))
        .expect("the last page");
    let listing = pages.finish();
    assert!(listing.is_complete());
    assert_eq!(names(&listing.items), ["a", "b"]);
}

#[test]
fn a_name_over_the_bound_is_left_out_with_a_finding_and_the_rest_listed() {
    let mut pages = tool_pages();
    let mut client = Client::default();
    let long = "n".repeat(5_000);
    take_page(
        &mut pages,
        &mut client,
        tools_page(&["ok", &long, "also_ok"], None),
    );
    let listing = pages.finish();
    assert_eq!(names(&listing.items), ["ok", "also_ok"]);
    assert_eq!(listing.left_out.len(), 1);
    assert!(
        listing.left_out[0].contains("5,000 bytes") && listing.left_out[0].contains("1,024"),
        "{}",
        listing.left_out[0]
    );
    assert!(listing.findings.iter().any(|f| f.rule == Rule::NameTooLong));
}

#[test]
fn a_2025_11_25_page_says_which_tools_run_as_tasks() {
    // As server-everything 2026.8.31 lists them (rmcp's Tool drops `execution`).
    let raw = serde_json::json!({"tools": [
        {"name": "echo", "inputSchema": {"type": "object"}},
        {"name": "simulate-research-query", "inputSchema": {"type": "object"},
         "execution": {"taskSupport": "required"}},
        {"name": "maybe", "inputSchema": {"type": "object"}, "execution": {"taskSupport": "optional"}},
        {"name": "never", "inputSchema": {"type": "object"}, "execution": {"taskSupport": "forbidden"}}
    ]});
    assert_eq!(
        <crate::ListTools as crate::ListMethod>::task_capable(&raw),
        ["simulate-research-query", "maybe"]
    );
}
