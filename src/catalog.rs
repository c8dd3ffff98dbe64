//! What one connect found on the server: its discovery, and its tools, prompts, resources
//! and resource templates, each listed page by page by the engine's pager.
//!
//! A connect makes a new [`Catalog`]; a slower earlier connect can only write into its own
//! catalog, which is no longer shown, so no round counter is needed.
//!
//! The first screen waits only for discovery and the tools: prompts, resources and templates
//! are listed when a view first asks for them ([`Catalog::want_library`]).

use std::future::Future;
use std::pin::Pin;

use holdbay_engine::model::{DiscoverResult, Prompt, Resource, ResourceTemplate, Tool};
use holdbay_engine::{
    Era, ListMethod, ListPrompts, ListResourceTemplates, ListResources, ListTools, Listing,
    McpMethod, NameBook, NameTally, Pages, Reply, name_book,
};
use leptos::prelude::*;

use crate::link::{ExchangeError, Link};
use crate::split::{ChunkMissing, chunk, engine_work};

/// Where one part of the catalog stands.
#[derive(Debug, Clone, PartialEq)]
pub enum Loaded<T> {
    Loading,
    Ready(T),
    /// The server does not advertise it (asking would only earn `-32601`).
    NotOffered,
    Failed(String),
}

impl<T> Loaded<T> {
    pub fn ready(&self) -> Option<&T> {
        match self {
            Self::Ready(value) => Some(value),
            _ => None,
        }
    }

    pub fn is_loading(&self) -> bool {
        matches!(self, Self::Loading)
    }
}

/// A listed kind of item, and why the listing stopped early if it did (never silently).
#[derive(Debug, Clone, PartialEq)]
pub struct Listed<T> {
    pub items: Vec<T>,
    /// The pager's reason for stopping before the list's end (a repeated cursor, too many
    /// pages); the items gathered until then are kept.
    pub stopped: Option<String>,
    /// Why each item the client will not offer was left out (a name over the bound).
    pub left_out: Vec<String>,
    /// The items' names as the engine shows them, and which pass for others.
    pub names: NameBook,
}

/// The tools the app offers, and why any others were hidden.
#[derive(Debug, Clone, PartialEq)]
pub struct Toolbox {
    pub tools: Listed<Tool>,
    /// Tools left out because the spec forbids offering them (invalid `x-mcp-header`).
    pub hidden: Vec<String>,
    /// More pages are on their way: the pages so far are shown meanwhile, and each one that
    /// comes is added to the end of `tools`.
    pub listing: bool,
    /// Which listing of this connect this is (a relisting starts a new list, from 1).
    pub round: u32,
}

/// One connect's view of the server. `Copy`: signal handles, read by the views.
#[derive(Debug, Clone, Copy)]
pub struct Catalog {
    discovery: RwSignal<Loaded<DiscoverResult>>,
    /// Why discovery failed, kept whole so the page can tell a likely CORS refusal.
    discovery_error: RwSignal<Option<ExchangeError>>,
    /// Set when the server speaks an older revision: why Holdbay opened a legacy session.
    fell_back: RwSignal<Option<String>>,
    tools: RwSignal<Loaded<Toolbox>>,
    prompts: RwSignal<Loaded<Listed<Prompt>>>,
    resources: RwSignal<Loaded<Listed<Resource>>>,
    templates: RwSignal<Loaded<Listed<ResourceTemplate>>>,
    /// A view asked for the prompts and resources.
    library_wanted: RwSignal<bool>,
    /// Their listing has started (once per connect).
    library_started: RwSignal<bool>,
}

impl Default for Catalog {
    fn default() -> Self {
        Self::new()
    }
}

impl Catalog {
    /// A catalog still loading everything.
    pub fn new() -> Self {
        Self {
            discovery: RwSignal::new(Loaded::Loading),
            discovery_error: RwSignal::new(None),
            fell_back: RwSignal::new(None),
            tools: RwSignal::new(Loaded::Loading),
            prompts: RwSignal::new(Loaded::Loading),
            resources: RwSignal::new(Loaded::Loading),
            templates: RwSignal::new(Loaded::Loading),
            library_wanted: RwSignal::new(false),
            library_started: RwSignal::new(false),
        }
    }

    /// A catalog with these tools and nothing else (component tests, lessons' checks).
    pub fn with_tools(tools: Vec<Tool>) -> Self {
        let catalog = Self::new();
        let Loaded::Ready(tools) = listed::<ListTools>(tools) else {
            return catalog;
        };
        catalog.tools.set(Loaded::Ready(Toolbox {
            tools,
            hidden: Vec::new(),
            listing: false,
            round: 1,
        }));
        catalog
    }

    pub fn discovery(&self) -> Signal<Loaded<DiscoverResult>> {
        self.discovery.into()
    }

    pub fn discovery_error(&self) -> Signal<Option<ExchangeError>> {
        self.discovery_error.into()
    }

    /// Why Holdbay speaks a legacy revision with this server, when it does.
    pub fn fell_back(&self) -> Signal<Option<String>> {
        self.fell_back.into()
    }

    pub fn tools(&self) -> Signal<Loaded<Toolbox>> {
        self.tools.into()
    }

    pub fn prompts(&self) -> Signal<Loaded<Listed<Prompt>>> {
        self.prompts.into()
    }

    pub fn resources(&self) -> Signal<Loaded<Listed<Resource>>> {
        self.resources.into()
    }

    pub fn templates(&self) -> Signal<Loaded<Listed<ResourceTemplate>>> {
        self.templates.into()
    }

    /// A tool of the current list, by name (untracked).
    pub fn tool(&self, name: &str) -> Option<Tool> {
        self.tools.with_untracked(|tools| {
            tools
                .ready()?
                .tools
                .items
                .iter()
                .find(|tool| tool.name == name)
                .cloned()
        })
    }

    /// A prompt of the current list, by name (untracked).
    pub fn prompt(&self, name: &str) -> Option<Prompt> {
        self.prompts.with_untracked(|prompts| {
            prompts
                .ready()?
                .items
                .iter()
                .find(|prompt| prompt.name == name)
                .cloned()
        })
    }

    /// The tools' names, to show one as the list does (untracked; an empty book before the
    /// tools are listed).
    pub fn tool_names(&self) -> NameBook {
        self.tools.with_untracked(|tools| match tools.ready() {
            Some(toolbox) => toolbox.tools.names.clone(),
            None => name_book::<ListTools>(&[]),
        })
    }

    /// The prompts' names (untracked), as [`Catalog::tool_names`].
    pub fn prompt_names(&self) -> NameBook {
        names_of::<ListPrompts>(self.prompts)
    }

    /// The resource templates' names (untracked), as [`Catalog::tool_names`].
    pub fn template_names(&self) -> NameBook {
        names_of::<ListResourceTemplates>(self.templates)
    }

    /// A resource template of the current list, by its `uriTemplate` (untracked).
    pub fn template(&self, uri_template: &str) -> Option<ResourceTemplate> {
        self.templates.with_untracked(|templates| {
            templates
                .ready()?
                .items
                .iter()
                .find(|template| template.uri_template == uri_template)
                .cloned()
        })
    }

    /// Whether the server offers `completion/complete` (tracked; `false` until discovered).
    pub fn offers_completions(&self) -> bool {
        self.discovery
            .with(|step| step.ready().is_some_and(holdbay_engine::offers_completions))
    }

    /// Show these prompts, resources and templates (component tests).
    pub fn show_library(
        &self,
        prompts: Vec<Prompt>,
        resources: Vec<Resource>,
        templates: Vec<ResourceTemplate>,
    ) {
        self.prompts.set(listed::<ListPrompts>(prompts));
        self.resources.set(listed::<ListResources>(resources));
        self.templates
            .set(listed::<ListResourceTemplates>(templates));
    }

    /// Show this discovery (component tests).
    pub fn show_discovery(&self, discovered: DiscoverResult) {
        self.discovery.set(Loaded::Ready(discovered));
    }

    /// Whether the server offers pushed task snapshots (`None` until discovery is done;
    /// tracked).
    pub fn offers_task_push(&self) -> Option<bool> {
        self.discovery.with(|step| match step {
            Loaded::Ready(discovered) => Some(
                holdbay_engine::ListenFilter::server_offers_task_push(discovered),
            ),
            Loaded::Loading => None,
            _ => Some(false),
        })
    }

    /// Discover the server and list its tools; then, if a view wants them, the rest.
    ///
    /// The tools' first page is asked for beside `server/discover`, not after it, so the
    /// first screen waits for one round trip instead of two. Discovery still decides: when
    /// it fails, or the server does not offer tools, that early answer is dropped.
    pub async fn load(self, link: Link) {
        let requests =
            link.build(|client| (client.discover(), Pages::<ListTools>::first_request(client)));
        let Some((discover, tools)) = requests else {
            return;
        };
        // The first contact: a -32022 gets the engine's one retry, and an older server is
        // told apart (wire reference §10.6).
        // A page that asked for the legacy era sends nothing before its session is open.
        let legacy_only = link.connection_now().era.first_era() == Era::Legacy;
        let early = async {
            if legacy_only {
                None
            } else {
                Some(link.exchange(&tools).await)
            }
        };
        let (discovered, early_tools) =
            futures::future::join(link.first_contact(&discover), early).await;
        let (discovered, early_tools) = match discovered {
            // A legacy session lists its tools anew: the early request was a 2026-07-28 one.
            Ok(contact) if contact.fell_back.is_some() => {
                self.fell_back.try_set(contact.fell_back);
                (contact.discovered, None)
            }
            Ok(contact) => (contact.discovered, early_tools),
            Err(error) => {
                // Nothing stays "Listing…" after a failed connect.
                let why = not_listed_because(&error);
                self.tools.try_set(Loaded::Failed(why.clone()));
                self.prompts.try_set(Loaded::Failed(why.clone()));
                self.resources.try_set(Loaded::Failed(why.clone()));
                self.templates.try_set(Loaded::Failed(why));
                self.discovery.try_set(Loaded::Failed(error.to_string()));
                self.discovery_error.try_set(Some(error));
                return;
            }
        };
        link.note_findings(holdbay_engine::server_name_findings(&discovered));
        self.discovery.try_set(Loaded::Ready(discovered.clone()));
        self.list_tools_of(link, &discovered, early_tools).await;
        if self.library_wanted.get_untracked() {
            self.list_library(link, &discovered).await;
        }
    }

    /// A view shows the prompts or resources: list them now if discovery is done (and they
    /// were not listed yet), or right after the tools otherwise.
    pub fn want_library(self, link: Link) {
        if self.library_wanted.try_set(true).is_some() {
            return;
        }
        let discovered = self.discovery.with_untracked(|step| step.ready().cloned());
        let Some(discovered) = discovered else {
            return;
        };
        // The tools are listed first; until then `load` will pick the library up.
        if self.tools.with_untracked(Loaded::is_loading) {
            return;
        }
        leptos::task::spawn_local(async move { self.list_library(link, &discovered).await });
    }

    /// The prompts, resources and templates, listed from the engine-work chunk
    /// (`crate::split`): their decoders are not needed before a view shows them.
    async fn list_library(self, link: Link, discovered: &DiscoverResult) {
        if self.library_started.get_untracked() {
            return;
        }
        self.library_started.try_set(true);
        match chunk!(list_library_from_chunk(self, link, discovered.clone())) {
            Ok(listing) => listing.await,
            Err(missing) => {
                let why = format!("not listed: {missing}");
                self.prompts.try_set(Loaded::Failed(why.clone()));
                self.resources.try_set(Loaded::Failed(why.clone()));
                self.templates.try_set(Loaded::Failed(why));
            }
        }
    }

    async fn list_library_now(self, link: Link, discovered: DiscoverResult) {
        let discovered = &discovered;
        let prompts = list_all::<ListPrompts>(link, discovered, None, &mut |_, _| ()).await;
        self.prompts.try_set(prompts);
        let resources = list_all::<ListResources>(link, discovered, None, &mut |_, _| ()).await;
        self.resources.try_set(resources);
        let templates =
            list_all::<ListResourceTemplates>(link, discovered, None, &mut |_, _| ()).await;
        self.templates.try_set(templates);
    }

    /// List the tools again (the server said the call's headers did not match its tools:
    /// `-32020`). The engine's client learns the new list.
    pub async fn relist_tools(self, link: Link) -> Result<(), String> {
        let discovered = self.discovery.with_untracked(|step| step.ready().cloned());
        let Some(discovered) = discovered else {
            return Err("the server was not discovered".to_owned());
        };
        self.list_tools_of(link, &discovered, None).await;
        self.tools.with_untracked(|tools| match tools {
            Loaded::Failed(why) => Err(why.clone()),
            _ => Ok(()),
        })
    }

    /// `tools/list`, page by page (the first one may have been asked already: `early`);
    /// tools with invalid `x-mcp-header` annotations are hidden (the engine's rule) and each
    /// hidden one is a finding. Each page is shown as it comes: a server with thousands of
    /// tools shows its first ones after one round trip, not after all its pages.
    async fn list_tools_of(
        &self,
        link: Link,
        discovered: &DiscoverResult,
        early: Option<Answer<ListTools>>,
    ) {
        let round = self
            .tools
            .with_untracked(|tools| tools.ready().map_or(0, |toolbox| toolbox.round))
            + 1;
        let tools = self.tools;
        let mut hidden = Vec::new();
        // Learned and not shown yet: the last page waits for the whole list's names.
        let mut unshown: Vec<Tool> = Vec::new();
        // The names of the pages so far (every tool listed: a hidden one can be a look-alike).
        let mut names = NameTally::new(ListTools::ITEM);
        let mut take_page = |pages: &Pages<ListTools>, new: usize| {
            let page = pages.items()[new..].to_vec();
            let learned = link.build(|client| {
                client.learn_task_tools(pages.task_capable());
                client.learn_tools(page)
            });
            let Some((kept, findings)) = learned else {
                return;
            };
            // Each hidden tool is a finding; its explanation says why it was hidden.
            hidden.extend(findings.iter().map(|f| f.explanation.clone()));
            link.note_findings(findings);
            unshown.extend(kept);
            if pages.is_over() {
                return;
            }
            names.add(pages.items()[new..].iter().map(ListTools::name_of));
            let names = names.book();
            let mut page = std::mem::take(&mut unshown);
            let hidden = hidden.clone();
            tools.try_update(|tools| match tools {
                Loaded::Ready(toolbox) if toolbox.round == round => {
                    toolbox.tools.items.append(&mut page);
                    toolbox.tools.names = names;
                    toolbox.hidden = hidden;
                }
                // A later listing (a relisting) owns the list now.
                Loaded::Ready(toolbox) if toolbox.round > round => {}
                _ => {
                    *tools = Loaded::Ready(Toolbox {
                        tools: Listed {
                            items: page,
                            stopped: None,
                            left_out: Vec::new(),
                            names,
                        },
                        hidden,
                        listing: true,
                        round,
                    });
                }
            });
        };
        let listed = list_all::<ListTools>(link, discovered, early, &mut take_page).await;
        let tools = match listed {
            Loaded::Ready(listed) => {
                let mut all_hidden = listed.left_out;
                all_hidden.extend(hidden);
                let mut items = self
                    .tools
                    .try_update_untracked(|tools| match tools {
                        Loaded::Ready(toolbox) if toolbox.round == round => {
                            std::mem::take(&mut toolbox.tools.items)
                        }
                        _ => Vec::new(),
                    })
                    .unwrap_or_default();
                items.extend(unshown);
                Loaded::Ready(Toolbox {
                    tools: Listed {
                        items,
                        stopped: listed.stopped,
                        left_out: Vec::new(),
                        // The names of every tool listed: a hidden one can still be a look-alike.
                        names: listed.names,
                    },
                    hidden: all_hidden,
                    listing: false,
                    round,
                })
            }
            Loaded::Loading => Loaded::Loading,
            Loaded::NotOffered => Loaded::NotOffered,
            Loaded::Failed(why) => Loaded::Failed(why),
        };
        let superseded = self
            .tools
            .with_untracked(|now| now.ready().is_some_and(|toolbox| toolbox.round > round));
        if !superseded {
            self.tools.try_set(tools);
        }
    }
}

engine_work! {
    fn list_library_from_chunk(
        catalog: Catalog,
        link: Link,
        discovered: DiscoverResult,
    ) -> Result<Pin<Box<dyn Future<Output = ()>>>, ChunkMissing> {
        Ok(Box::pin(catalog.list_library_now(link, discovered)))
    }
}

/// A whole list, ready.
fn listed<M: ListMethod>(items: Vec<M::Item>) -> Loaded<Listed<M::Item>> {
    Loaded::Ready(Listed {
        names: name_book::<M>(&items),
        items,
        stopped: None,
        left_out: Vec::new(),
    })
}

/// The names of one list (untracked; an empty book before it is listed).
fn names_of<M: ListMethod>(list: RwSignal<Loaded<Listed<M::Item>>>) -> NameBook
where
    M::Item: Send + Sync + 'static,
{
    list.with_untracked(|list| match list.ready() {
        Some(listed) => listed.names.clone(),
        None => name_book::<M>(&[]),
    })
}

/// What the lists show when discovery failed.
fn not_listed_because(error: &ExchangeError) -> String {
    match error {
        ExchangeError::Version(_) => {
            "not listed: Holdbay and this server speak no common protocol revision".to_owned()
        }
        _ => format!("not listed: {} failed", holdbay_engine::MethodId::Discover),
    }
}

/// The answer to one exchange of method `M`.
type Answer<M> = Result<Reply<<M as McpMethod>::Output>, ExchangeError>;

/// Every page of one list method, as the engine's pager walks it; `early` answers the first
/// page if it was asked before discovery ([`Pages::first_request`]). `on_page` sees the pager
/// after each page it took in, and where that page's items start in it.
async fn list_all<M: ListMethod>(
    link: Link,
    discovered: &DiscoverResult,
    mut early: Option<Answer<M>>,
    on_page: &mut dyn FnMut(&Pages<M>, usize),
) -> Loaded<Listed<M::Item>> {
    let Some(mut pages) = Pages::<M>::for_server(discovered) else {
        return Loaded::NotOffered;
    };
    let mut first = true;
    loop {
        let answer = match early.take() {
            Some(answer) => answer,
            None => {
                let Some(request) = link.build(|client| pages.next_request(client)).flatten()
                else {
                    break;
                };
                link.exchange(&request).await
            }
        };
        match answer {
            Ok(reply) => {
                let new = pages.items().len();
                let accepted = pages.accept(reply);
                if pages.items().len() > new || accepted.is_ok() {
                    on_page(&pages, new);
                }
                if accepted.is_err() {
                    break;
                }
            }
            // Nothing listed yet: the listing failed. Later: keep what came, say why it stops.
            Err(error) if first => return Loaded::Failed(error.to_string()),
            Err(error) => {
                pages.page_failed(error.to_string());
                break;
            }
        }
        first = false;
    }
    let Listing {
        items,
        findings,
        stopped,
        left_out,
        names,
    } = pages.finish();
    link.note_findings(findings);
    Loaded::Ready(Listed {
        items,
        stopped: stopped.map(|why| why.to_string()),
        left_out,
        names,
    })
}
