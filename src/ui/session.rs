//! The page's shared state, provided as a Leptos context: which server, the engine client,
//! what discovery found, the wire log, the findings, and the tasks.

use holdbay_engine::model::{DiscoverResult, Prompt, Resource, Tool};
use holdbay_engine::{Client, Finding};
use leptos::prelude::*;

use crate::connection::Connection;
use crate::tasks::TaskBoard;
use crate::traffic::TrafficView;
use crate::transport::{Exchange, ExchangeError};
use crate::ui::call::CallPreset;
use crate::wire::WireLog;

/// Where one step of the connection stands.
#[derive(Debug, Clone, PartialEq)]
pub enum Step<T> {
    Waiting,
    Done(T),
    Failed(String),
}

/// The tools the app offers, and why any others were hidden.
#[derive(Debug, Clone, PartialEq)]
pub struct Toolbox {
    pub tools: Vec<Tool>,
    pub hidden: Vec<String>,
}

/// Everything the panels share. `Copy`: it is a bundle of signal handles.
#[derive(Debug, Clone, Copy)]
pub struct Session {
    pub connection: RwSignal<Connection>,
    /// The engine's client: request ids, and the tools' mirrored-header rules.
    pub client: StoredValue<Client>,
    pub wire: WireLog,
    pub findings: RwSignal<Vec<Finding>>,
    pub discovery: RwSignal<Step<DiscoverResult>>,
    /// Why discovery failed, kept whole so the page can tell a likely CORS refusal.
    pub discovery_error: RwSignal<Option<ExchangeError>>,
    /// `Done(None)`: the server does not advertise tools.
    pub tools: RwSignal<Step<Option<Toolbox>>>,
    /// The tool the call panel shows.
    pub selected_tool: RwSignal<Option<String>>,
    /// `Done(None)`: the server does not advertise prompts.
    pub prompts: RwSignal<Step<Option<Vec<Prompt>>>>,
    /// `Done(None)`: the server does not advertise resources.
    pub resources: RwSignal<Step<Option<Vec<Resource>>>>,
    /// Bumped on every (re)connect, so a slower earlier connect stops writing its results.
    pub connect_round: RwSignal<u64>,
    pub tasks: TaskBoard,
    /// The scene's model of this session's traffic.
    pub traffic: TrafficView,
    /// A call set up elsewhere (a lesson's Start) for the call panel to take and run once.
    pub call_preset: RwSignal<Option<CallPreset>>,
}

impl Session {
    pub fn new(connection: Connection) -> Self {
        let wire = WireLog::new();
        let traffic = TrafficView::new(wire);
        Self {
            connection: RwSignal::new(connection),
            client: StoredValue::new(Client::default()),
            wire,
            findings: RwSignal::new(Vec::new()),
            discovery: RwSignal::new(Step::Waiting),
            tools: RwSignal::new(Step::Waiting),
            selected_tool: RwSignal::new(None),
            discovery_error: RwSignal::new(None),
            prompts: RwSignal::new(Step::Waiting),
            resources: RwSignal::new(Step::Waiting),
            connect_round: RwSignal::new(0),
            tasks: TaskBoard::new(),
            traffic,
            call_preset: RwSignal::new(None),
        }
    }

    /// The session of the surrounding `App`.
    pub fn current() -> Self {
        expect_context::<Self>()
    }

    /// Build the next request with the engine's client; `None` once the page's owner is
    /// gone (the app was unmounted), when nothing should be sent any more.
    pub fn build<T>(&self, make: impl FnOnce(&mut Client) -> T) -> Option<T> {
        self.client.try_update_value(make)
    }

    /// The current connection, for one exchange.
    pub fn connection_now(&self) -> Connection {
        self.connection.get_untracked()
    }

    /// Carry `request` over the current connection, logging it.
    pub fn exchange_with<'a>(&self, connection: &'a Connection) -> Exchange<'a> {
        Exchange::new(connection, self.wire)
    }

    /// Forget what the last connection found (the wire log and the findings stay), and
    /// start a new connect round; returns its number.
    pub fn reset_for_connect(&self) -> u64 {
        self.discovery.set(Step::Waiting);
        self.discovery_error.set(None);
        self.tools.set(Step::Waiting);
        self.prompts.set(Step::Waiting);
        self.resources.set(Step::Waiting);
        self.selected_tool.set(None);
        let round = self.connect_round.get_untracked() + 1;
        self.connect_round.set(round);
        round
    }

    /// Whether connect round `round` is still the current one.
    pub fn is_current_round(&self, round: u64) -> bool {
        self.connect_round.try_get_untracked() == Some(round)
    }

    /// Keep the engine's findings about the server.
    pub fn note_findings(&self, findings: impl IntoIterator<Item = Finding>) {
        let mut findings = findings.into_iter().peekable();
        if findings.peek().is_some() {
            self.findings.update(|all| all.extend(findings));
        }
    }
}
