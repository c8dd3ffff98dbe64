//! The fixture sets this launch serves: the demo always, then what `--fixtures` adds, in
//! that order. Their tools are found by name; with `--fixtures many-tools` the generated
//! tools ([`crate::many_tools`]) follow them, and `tools/list` is paged.

use rmcp::ErrorData;
use rmcp::model::ListToolsResult;

use crate::conformance::ConformanceSet;
use crate::demo::DemoSet;
use crate::fixture_kit::{Call, FixtureSet, Reply, Tool};
use crate::many_tools;
use crate::options::FixtureChoice;
use crate::tasks::JobRegistry;

pub struct ActiveSets {
    sets: Vec<Box<dyn FixtureSet>>,
    many_tools: bool,
}

impl ActiveSets {
    /// The sets `fixtures` (what `--fixtures` named) turns on.
    pub fn chosen(fixtures: &[FixtureChoice]) -> Self {
        let mut sets: Vec<Box<dyn FixtureSet>> = vec![Box::new(DemoSet)];
        if fixtures.contains(&FixtureChoice::Conformance) {
            sets.push(Box::new(ConformanceSet));
        }
        Self {
            sets,
            many_tools: fixtures.contains(&FixtureChoice::ManyTools),
        }
    }

    pub fn iter(&self) -> impl Iterator<Item = &dyn FixtureSet> {
        self.sets.iter().map(Box::as_ref)
    }

    /// Every task job the sets' tools start.
    pub fn jobs(&self) -> JobRegistry {
        let mut jobs = JobRegistry::new();
        for set in self.iter() {
            set.register_jobs(&mut jobs);
        }
        jobs
    }

    /// The declared tools, set by set.
    fn declared(&self) -> impl Iterator<Item = &'static Tool> + '_ {
        self.iter().flat_map(|set| set.tools())
    }

    /// `tools/list`: everything at once, or the page after `cursor` with many tools.
    pub fn list_tools(&self, cursor: Option<&str>) -> Result<ListToolsResult, ErrorData> {
        let tools = self.declared().map(Tool::listed).collect();
        if !self.many_tools {
            one_page("tools/list", cursor)?;
            return Ok(ListToolsResult::with_all_items(tools));
        }
        let (page, next) = many_tools::page(tools, cursor)?;
        let mut result = ListToolsResult::with_all_items(page);
        result.next_cursor = next;
        Ok(result)
    }

    /// The tool named `name`, as listed.
    pub fn tool(&self, name: &str) -> Option<rmcp::model::Tool> {
        match self.declared().find(|tool| tool.name == name) {
            Some(tool) => Some(tool.listed()),
            None => self.generated(name),
        }
    }

    /// `tools/call`: the named tool's handler.
    pub async fn call(&self, call: &Call<'_>) -> Reply {
        if let Some(tool) = self.declared().find(|tool| tool.name == call.tool()) {
            return tool.run(call).await;
        }
        if self.generated(call.tool()).is_some() {
            return Ok(many_tools::call(call.tool(), &call.arguments()));
        }
        Err(ErrorData::invalid_params(
            format!("unknown tool: {}", call.tool()),
            None,
        ))
    }

    /// The generated tool named `name`, with many tools on.
    fn generated(&self, name: &str) -> Option<rmcp::model::Tool> {
        if !self.many_tools {
            return None;
        }
        many_tools::tool(self.declared().count(), name)
    }
}

/// A list served whole, in one page, gives no cursor: any cursor sent back is not one of
/// its own, and pagination asks for -32602 then.
pub fn one_page(list: &str, cursor: Option<&str>) -> Result<(), ErrorData> {
    match cursor {
        None => Ok(()),
        Some(cursor) => Err(ErrorData::invalid_params(
            format!(
                "{list}: the cursor {cursor:?} is not one this server gave (it lists everything in one page)"
            ),
            None,
        )),
    }
}
