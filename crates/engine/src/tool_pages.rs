//! Fetching a server's whole tool list, page by page, without IO.

use rmcp::model::{DiscoverResult, ListToolsResult, Tool};

use crate::client::Client;
use crate::method::ListTools;
use crate::outgoing::OutgoingRequest;
use crate::response::Reply;

/// More pages than any sane server sends; past this the listing stops with an error.
pub const MAX_TOOL_PAGES: usize = 100;

/// Why a tool listing stopped before its end.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ToolPagesError {
    #[error("the server kept sending nextCursor after {pages} pages of tools/list; stopped")]
    TooManyPages { pages: usize },
    #[error("the server sent the cursor {cursor:?} twice; tools/list would never end")]
    RepeatedCursor { cursor: String },
}

/// Walks `tools/list` until a page comes without `nextCursor` (an empty string is a valid
/// cursor; only absence ends the list).
#[derive(Debug, Clone, Default)]
pub struct ToolPages {
    tools: Vec<Tool>,
    /// `None` once the list has ended.
    next_cursor: Option<Option<String>>,
    seen_cursors: Vec<String>,
    pages: usize,
}

impl ToolPages {
    /// A listing for this server, or `None` when it does not advertise tools (calling
    /// `tools/list` then would only earn `-32601`).
    pub fn for_server(discover: &DiscoverResult) -> Option<Self> {
        discover.capabilities.tools.as_ref().map(|_| Self {
            next_cursor: Some(None),
            ..Self::default()
        })
    }

    /// The next page's request, or `None` when the list is complete.
    pub fn next_request(&mut self, client: &mut Client) -> Option<OutgoingRequest<ListTools>> {
        let cursor = self.next_cursor.clone()?;
        Some(client.list_tools(cursor))
    }

    /// Take in the page answering the last request.
    pub fn accept(&mut self, reply: Reply<ListToolsResult>) -> Result<(), ToolPagesError> {
        self.pages += 1;
        let page = reply.result;
        self.tools.extend(page.tools);
        self.next_cursor = match page.next_cursor {
            None => None,
            Some(_) if self.pages >= MAX_TOOL_PAGES => {
                self.next_cursor = None;
                return Err(ToolPagesError::TooManyPages { pages: self.pages });
            }
            Some(cursor) if self.seen_cursors.contains(&cursor) => {
                self.next_cursor = None;
                return Err(ToolPagesError::RepeatedCursor { cursor });
            }
            Some(cursor) => {
                self.seen_cursors.push(cursor.clone());
                Some(Some(cursor))
            }
        };
        Ok(())
    }

    /// The tools gathered so far, in server order.
    pub fn tools(&self) -> &[Tool] {
        &self.tools
    }

    pub fn into_tools(self) -> Vec<Tool> {
        self.tools
    }
}

/// The name to show for a tool: `title`, then `annotations.title`, then `name` (the spec's
/// display order).
pub fn tool_display_name(tool: &Tool) -> &str {
    tool.title
        .as_deref()
        .or_else(|| tool.annotations.as_ref()?.title.as_deref())
        .unwrap_or(&tool.name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn discover(capabilities: serde_json::Value) -> DiscoverResult {
        serde_json::from_value(
            json!({"resultType":"complete","supportedVersions":["2026-07-28"],
            "capabilities":capabilities,"ttlMs":0,"cacheScope":"private"}),
        )
        .expect("valid discover result")
    }

    fn page(names: &[&str], next_cursor: Option<&str>) -> Reply<ListToolsResult> {
        let tools: Vec<_> = names
            .iter()
            .map(|n| json!({"name": n, "inputSchema": {"type": "object"}}))
            .collect();
        let mut result =
            json!({"resultType":"complete","tools":tools,"ttlMs":0,"cacheScope":"private"});
        if let Some(cursor) = next_cursor {
            result["nextCursor"] = json!(cursor);
        }
        Reply {
            result: serde_json::from_value(result.clone()).expect("valid page"),
            raw_result: result,
            findings: vec![],
        }
    }

    fn cursor_of(request: &OutgoingRequest<ListTools>) -> Option<String> {
        let body: serde_json::Value = serde_json::from_str(request.body()).expect("JSON");
        body["params"]["cursor"].as_str().map(str::to_owned)
    }

    #[test]
    fn display_name_prefers_title_then_annotation_title_then_name() {
        let tool = |v: serde_json::Value| -> Tool { serde_json::from_value(v).expect("tool") };
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
    fn a_server_without_tools_gets_no_listing() {
        assert!(ToolPages::for_server(&discover(json!({}))).is_none());
    }

    #[test]
    fn pages_are_followed_until_next_cursor_is_absent() {
        let mut client = Client::default();
        let mut pages = ToolPages::for_server(&discover(json!({"tools":{}}))).expect("tools");
        let first = pages.next_request(&mut client).expect("first page");
        assert_eq!(cursor_of(&first), None);
        pages.accept(page(&["a"], Some(""))).expect("page 1");
        let second = pages
            .next_request(&mut client)
            .expect("an empty cursor continues");
        assert_eq!(cursor_of(&second), Some(String::new()));
        pages.accept(page(&["b"], None)).expect("page 2");
        assert!(pages.next_request(&mut client).is_none());
        let names: Vec<_> = pages.tools().iter().map(|t| t.name.to_string()).collect();
        assert_eq!(names, ["a", "b"]);
    }

    #[test]
    fn a_repeated_cursor_stops_the_listing() {
        let mut client = Client::default();
        let mut pages = ToolPages::for_server(&discover(json!({"tools":{}}))).expect("tools");
        pages.accept(page(&["a"], Some("x"))).expect("page 1");
        assert_eq!(
            pages.accept(page(&["a"], Some("x"))),
            Err(ToolPagesError::RepeatedCursor { cursor: "x".into() })
        );
        assert!(pages.next_request(&mut client).is_none());
    }

    #[test]
    fn the_page_count_is_bounded() {
        let mut pages = ToolPages::for_server(&discover(json!({"tools":{}}))).expect("tools");
        let mut outcome = Ok(());
        for i in 0..MAX_TOOL_PAGES {
            outcome = pages.accept(page(&[], Some(&i.to_string())));
        }
        assert_eq!(
            outcome,
            Err(ToolPagesError::TooManyPages {
                pages: MAX_TOOL_PAGES
            })
        );
    }
}
