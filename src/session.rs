//! The client's state for one page, outside every view: the link to the server (connection,
//! engine client, wire log, findings), what the server offers (the catalog of the latest
//! connect), the task board, the tool calls, and the scene's model of the traffic.
//!
//! Views read it and ask it to act; none of them owns any of it, so switching views loses
//! nothing, and what must outlive a reload (task handles, the wire log) is kept in storage.

use std::collections::BTreeMap;

use holdbay_engine::{CompletionTarget, Finding, InputAnswer};
use leptos::prelude::*;

use crate::auth::Auth;
use crate::calls::{CallRun, Calls, PromptRun, ReadRun, Runs};
use crate::catalog::Catalog;
use crate::connection::Connection;
use crate::history::CallHistory;
use crate::link::{FindingCounts, Link};
use crate::owner::KeepingOwner;
use crate::split::{ChunkMissing, after_first_screen, chunk};
use crate::stdio::StdioServers;
use crate::tasks::TaskBoard;
use crate::traffic::TrafficView;
use crate::wire::WireLog;
use crate::wire::keep::WireKeep;

/// `Copy`: a bundle of handles, provided as a Leptos context by the app.
#[derive(Clone, Copy)]
pub struct Session {
    link: Link,
    /// Sign-ins: the tokens held and the sign-in the page asks for; the link consults them.
    auth: Auth,
    /// The latest connect's view of the server; a connect replaces it.
    catalog: RwSignal<Catalog>,
    /// Discover and list, for the latest connection.
    connect: Action<(Connection, Catalog), ()>,
    /// When the latest connect settled (page clock, ms); `None` while one is under way.
    settled_at: RwSignal<Option<f64>>,
    tasks: TaskBoard,
    calls: Calls,
    /// Each prompt's `prompts/get` and each URI's `resources/read`, run like calls.
    prompts: Runs<holdbay_engine::GetPrompt>,
    reads: Runs<holdbay_engine::ReadResource>,
    traffic: TrafficView,
    /// Each tool call made to the current server, kept in this browser.
    history: CallHistory,
    stdio: StdioServers,
    keep: StoredValue<Option<WireKeep>>,
    /// `keep` is attached (`after_first_screen`).
    keeping: StoredValue<bool>,
    /// Per-connect state lives as long as the session, whichever view asked for it.
    owner: KeepingOwner,
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session").finish_non_exhaustive()
    }
}

impl Session {
    /// A session talking to `connection`'s server, not yet connected, keeping nothing
    /// across reloads (component tests build this one).
    pub fn new(connection: Connection) -> Self {
        let wire = WireLog::new();
        let auth = Auth::new();
        let link = Link::new(connection, wire).with_sign_ins(auth);
        let catalog = RwSignal::new(Catalog::new());
        let tasks = TaskBoard::new();
        let calls = Calls::new(link, tasks, catalog.into());
        let prompts = Runs::new(link, tasks, catalog.into());
        let reads = Runs::new(link, tasks, catalog.into());
        let settled_at = RwSignal::new(None);
        let connect = Action::new_local(move |(_, catalog): &(Connection, Catalog)| {
            let loading = catalog.load(link);
            async move {
                loading.await;
                settled_at.try_set(Some(crate::clock::now_ms() as f64));
            }
        });
        Self {
            link,
            auth,
            catalog,
            connect,
            settled_at,
            tasks,
            calls,
            prompts,
            reads,
            traffic: TrafficView::new(wire),
            history: CallHistory::new(wire, link.connection()),
            stdio: StdioServers::new(),
            keep: StoredValue::new(None),
            keeping: StoredValue::new(false),
            owner: KeepingOwner::here(),
        }
    }

    /// The page's session: connect, follow the stored tasks, and (with `kept_log`, an
    /// IndexedDB database) keep the wire log across reloads once [`Self::after_first_screen`]
    /// is called.
    pub fn start(connection: Connection, kept_log: Option<&str>) -> Self {
        let session = Self::new(connection);
        if let Some(database) = kept_log {
            session.keep.set_value(Some(WireKeep::new(database)));
        }
        let offers_push = Signal::derive(move || session.catalog.get().offers_task_push());
        session
            .tasks
            .start(session.link, session.traffic, offers_push);
        let connection = session.link.connection_now();
        if !connection.server.is_empty() {
            session.connect(connection);
        }
        session
    }

    /// Once the first screen is drawn: bring back the kept wire log and keep this page's
    /// exchanges (those already ended too) when there is a `kept_log`, and list the stdio
    /// servers of the `holdbay` that served the page. The code comes with the
    /// after-first-screen chunk. Once per page.
    pub fn after_first_screen(&self) {
        if self
            .keeping
            .try_update_value(|keeping| std::mem::replace(keeping, true))
            != Some(false)
        {
            return;
        }
        let session = *self;
        leptos::task::spawn_local(async move {
            match chunk!(settle_in(session)) {
                Ok(settling) => settling.await,
                Err(missing) => leptos::logging::warn!("after the first screen: {missing}"),
            }
        });
    }

    /// The session of the surrounding app.
    pub fn current() -> Self {
        expect_context::<Self>()
    }

    /// The line to the server, for the services beside the session (the views ask the
    /// session's verbs instead).
    pub fn link(&self) -> Link {
        self.link
    }

    pub fn wire(&self) -> WireLog {
        self.link.wire()
    }

    /// Sign-ins: the tokens held and the sign-in the page asks for.
    pub fn auth(&self) -> Auth {
        self.auth
    }

    /// Start the sign-in the page asks for, in `window` (opened in the user's click;
    /// `None` when the browser blocked it: the page goes instead).
    pub fn sign_in(&self, window: Option<web_sys::Window>) {
        self.auth.sign_in(self.link, window);
    }

    /// Finish the sign-in that took the whole page to the authorization server, now back
    /// at `callback_url`.
    pub fn resume_sign_in(&self, pending: String, callback_url: String) {
        crate::auth::flow::resume(self.auth, self.link, pending, callback_url);
    }

    pub fn connection(&self) -> Signal<Connection> {
        self.link.connection()
    }

    /// The current connection, for one action.
    pub fn connection_now(&self) -> Connection {
        self.link.connection_now()
    }

    /// What the engine found about the server so far (tracked).
    pub fn findings(&self) -> Signal<Vec<Finding>> {
        self.link.findings()
    }

    /// How often each finding was seen (tracked).
    pub fn finding_counts(&self) -> Signal<FindingCounts> {
        self.link.finding_counts()
    }

    /// What the latest connect found (tracked: a connect shows a new catalog).
    pub fn catalog(&self) -> Catalog {
        self.catalog.get()
    }

    pub fn catalog_untracked(&self) -> Catalog {
        self.catalog.get_untracked()
    }

    /// A view shows the prompts or resources: list them (once per connect), as soon as
    /// discovery and the tools allow.
    pub fn want_library(&self) {
        self.catalog_untracked().want_library(self.link);
    }

    /// The server's `completion/complete` suggestions for `argument` of `target`, given
    /// what was `typed` and the other arguments filled in (`context`); or why there are
    /// none.
    pub async fn suggestions(
        self,
        target: CompletionTarget,
        argument: String,
        typed: String,
        context: BTreeMap<String, String>,
    ) -> Result<Vec<String>, String> {
        crate::completions::suggest(self.link, target, argument, typed, context).await
    }

    /// A connect is under way.
    pub fn is_connecting(&self) -> Signal<bool> {
        self.connect.pending().into()
    }

    /// When the latest connect settled (`Date.now()`), stamped as it ends: a view mounted
    /// later (the dock comes with a later chunk) still tells the exchanges after it.
    pub fn connect_settled_at(&self) -> Signal<Option<f64>> {
        self.settled_at.into()
    }

    pub fn tasks(&self) -> TaskBoard {
        self.tasks
    }

    /// Ask the server to cancel task `task_id`: only a request, the task may still complete
    /// or fail.
    pub fn cancel_task(&self, task_id: &str) {
        self.tasks.cancel(task_id);
    }

    /// Answer the task's input request `key`; the answers go out in one `tasks/update` once
    /// every request of its snapshot has one.
    pub fn answer_task(&self, task_id: &str, key: &str, answer: InputAnswer) {
        self.answer_task_together(task_id, vec![(key.to_owned(), answer)]);
    }

    /// Answer several input requests of one snapshot, sent together in one `tasks/update`.
    pub fn answer_task_together(&self, task_id: &str, answers: Vec<(String, InputAnswer)>) {
        for (key, answer) in answers {
            self.tasks.choose(task_id, &key, answer);
        }
        self.tasks.send_answers(task_id);
    }

    /// Drop an ended task from the board and from this browser's storage.
    pub fn forget_task(&self, task_id: &str) {
        self.tasks.forget(task_id);
    }

    /// The calls of `tool`, kept by the session.
    pub fn call(&self, tool: &str) -> CallRun {
        self.calls.run(tool)
    }

    /// The gets of prompt `name`, kept by the session.
    pub fn prompt(&self, name: &str) -> PromptRun {
        self.prompts.run(name)
    }

    /// The reads of resource `uri`, kept by the session.
    pub fn read(&self, uri: &str) -> ReadRun {
        self.reads.run(uri)
    }

    /// The scene's model of the traffic, folding from now on (see
    /// [`TrafficView::activate`]).
    pub fn traffic(&self) -> TrafficView {
        self.traffic.activate();
        self.traffic
    }

    /// The tool calls made to the current server.
    pub fn history(&self) -> CallHistory {
        self.history
    }

    /// The stdio servers of the `holdbay` that served this page.
    pub fn stdio(&self) -> StdioServers {
        self.stdio
    }

    /// Why the wire log cannot be kept across reloads, if it cannot.
    pub fn keep_problem(&self) -> Signal<Option<String>> {
        match self.keep.get_value() {
            Some(keep) => keep.problem(),
            None => Signal::derive(|| None),
        }
    }

    /// Connect to `connection`: remember what may be remembered, forget what the last
    /// server said (the wire log and the findings stay), and discover and list anew.
    pub fn connect(&self, connection: Connection) {
        if let Err(problem) = connection.persist() {
            leptos::logging::warn!("{problem}");
        }
        self.link.set_connection(connection.clone());
        self.calls.clear();
        self.prompts.clear();
        self.reads.clear();
        self.settled_at.try_set(None);
        let catalog = self.owner.make(Catalog::new);
        self.catalog.try_set(catalog);
        self.connect.dispatch_local((connection, catalog));
    }

    /// Show `catalog` without contacting a server (component tests, an offline look).
    pub fn show_catalog(&self, catalog: Catalog) {
        self.catalog.try_set(catalog);
    }

    /// Forget the wire log, here and in this browser's storage.
    pub fn clear_wire_log(&self) {
        self.link.wire().clear();
        if let Some(keep) = self.keep.get_value() {
            keep.clear();
        }
    }
}

after_first_screen! {
    /// [`Session::after_first_screen`]'s work: IndexedDB, serde-wasm-bindgen and the stdio
    /// listing are not needed to draw the tool list.
    fn settle_in(session: Session) -> Result<SettlingIn, ChunkMissing> {
        let keep = session.keep.get_value();
        let wire = session.link.wire();
        let keeping = async move {
            if let Some(keep) = keep
                && let Err(problem) = keep.attach(wire).await
            {
                leptos::logging::warn!("{problem}");
            }
        };
        Ok(Box::pin(async move {
            futures::future::join(keeping, session.stdio.list_now()).await;
        }))
    }
}

/// [`settle_in`] under way.
type SettlingIn = std::pin::Pin<Box<dyn std::future::Future<Output = ()>>>;
