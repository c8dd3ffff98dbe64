//! The stdio servers of the `holdbay` that served this page (`GET /stdio`; the shapes are
//! `holdbay_engine::stdio`'s): listed once the first screen is drawn when the page says there
//! are any, again when their menu opens, restarted on request. A page served some other way
//! (a development server) has none, and asks nothing.

use std::future::Future;
use std::pin::Pin;

use gloo_net::http::Request;
use holdbay_engine::stdio::{STDIO_PATH, STDIO_SERVERS_META, StdioListing, StdioServerStatus};
use leptos::prelude::*;

use crate::auth::settings::page_origin;
use crate::split::{ChunkMissing, after_first_screen, chunk};

/// The listed servers and why the list could not be read. `Copy`: signals.
#[derive(Debug, Clone, Copy)]
pub struct StdioServers {
    listed: RwSignal<Vec<StdioServerStatus>>,
    /// How many are listed: what the first screen reads (so the list's own reactive code
    /// stays in the chunks that show it).
    count: RwSignal<usize>,
    problem: RwSignal<Option<String>>,
}

impl Default for StdioServers {
    fn default() -> Self {
        Self::new()
    }
}

impl StdioServers {
    pub fn new() -> Self {
        Self {
            listed: RwSignal::new(Vec::new()),
            count: RwSignal::new(0),
            problem: RwSignal::new(None),
        }
    }

    /// The servers as last listed, by name (tracked).
    pub fn listed(&self) -> Signal<Vec<StdioServerStatus>> {
        self.listed.into()
    }

    /// How many are listed (tracked).
    pub fn count(&self) -> Signal<usize> {
        self.count.into()
    }

    /// Why the list or a restart failed, if it did (tracked).
    pub fn problem(&self) -> Signal<Option<String>> {
        self.problem.into()
    }

    /// Ask the page's server for the list again (the code comes with the after-first-screen
    /// chunk).
    pub fn refresh(&self) {
        self.run(Action::List);
    }

    /// Run `name`'s command again, and show how it stands then.
    pub fn restart(&self, name: &str) {
        self.run(Action::Restart(name.to_owned()));
    }

    /// Where this page reaches the server `name`.
    pub fn url_of(name: &str) -> String {
        format!("{}{STDIO_PATH}/{name}", page_origin())
    }

    fn run(&self, action: Action) {
        let servers = *self;
        leptos::task::spawn_local(async move {
            match chunk!(stdio_work(servers, action)) {
                Ok(work) => work.await,
                Err(missing) => {
                    servers
                        .problem
                        .try_set(Some(format!("stdio servers: {missing}")));
                }
            }
        });
    }
}

/// What to ask the page's server.
#[derive(Debug)]
pub enum Action {
    List,
    Restart(String),
}

after_first_screen! {
    /// The request and the reading of its answer, from the after-first-screen chunk.
    pub fn stdio_work(servers: StdioServers, action: Action) -> Result<Work, ChunkMissing> {
        Ok(Box::pin(servers.carry_out(action)))
    }
}

/// [`stdio_work`] under way.
pub type Work = Pin<Box<dyn Future<Output = ()>>>;

impl StdioServers {
    /// List them now (the after-first-screen work awaits it), when the page says there are
    /// any (`holdbay serve` writes how many into the page it serves).
    pub(crate) async fn list_now(self) {
        if count_in_page() > 0 {
            self.carry_out(Action::List).await;
        }
    }

    async fn carry_out(self, action: Action) {
        let outcome = match action {
            Action::List => self.list().await,
            Action::Restart(name) => self.restart_now(&name).await,
        };
        self.problem.try_set(outcome.err());
    }

    async fn list(&self) -> Result<(), String> {
        let url = format!("{}{STDIO_PATH}", page_origin());
        let response = Request::get(&url)
            .header("Accept", "application/json")
            .send()
            .await
            .map_err(|error| format!("could not list the stdio servers: {error}"))?;
        // Not served by `holdbay`: no stdio servers, and nothing wrong.
        if response.status() == 404 {
            self.show(Vec::new());
            return Ok(());
        }
        if !response.ok() {
            return Err(format!(
                "listing the stdio servers: HTTP {}",
                response.status()
            ));
        }
        let listing: StdioListing = response
            .json()
            .await
            .map_err(|error| format!("the stdio servers' list is not readable: {error}"))?;
        self.show(listing.servers);
        Ok(())
    }

    async fn restart_now(&self, name: &str) -> Result<(), String> {
        let url = format!("{}/restart", Self::url_of(name));
        let response = Request::post(&url)
            .send()
            .await
            .map_err(|error| format!("could not restart {name}: {error}"))?;
        if !response.ok() {
            let said = response.text().await.unwrap_or_default();
            return Err(format!("{name} did not restart: {said}"));
        }
        let status: StdioServerStatus = response
            .json()
            .await
            .map_err(|error| format!("the restarted server's state is not readable: {error}"))?;
        let mut listed = self.listed.get_untracked();
        match listed.iter_mut().find(|known| known.name == status.name) {
            Some(known) => *known = status,
            None => listed.push(status),
        }
        self.show(listed);
        Ok(())
    }

    fn show(&self, listed: Vec<StdioServerStatus>) {
        self.count.try_set(listed.len());
        self.listed.try_set(listed);
    }
}

/// How many stdio servers the page's `<meta name="holdbay-stdio-servers">` says there are.
fn count_in_page() -> usize {
    web_sys::window()
        .and_then(|window| window.document())
        .and_then(|document| {
            document
                .query_selector(&format!("meta[name=\"{STDIO_SERVERS_META}\"]"))
                .ok()
                .flatten()
        })
        .and_then(|meta| meta.get_attribute("content"))
        .and_then(|count| count.trim().parse().ok())
        .unwrap_or(0)
}
