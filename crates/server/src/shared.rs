//! What every MCP request handler shares: the task runtime, the state sealer, the
//! consent book of `connect_account`, the bookings of `book_table`, and the limits.

use std::net::SocketAddr;
use std::sync::Arc;

use anyhow::Context;

use crate::options::{FixtureChoice, Limits, ServeOptions};
use crate::sealed_state::{StateSealer, load_or_create_key};
use crate::stores::bookings::Bookings;
use crate::stores::consents::ConsentBook;
use crate::tasks::{JobRegistry, TaskRuntime, TaskStore};

#[derive(Debug)]
pub struct Shared {
    pub tasks: Arc<TaskRuntime>,
    pub sealer: StateSealer,
    pub consents: ConsentBook,
    /// `book_table`'s bookings (SQLite in the data dir).
    pub bookings: Bookings,
    pub limits: Limits,
    /// `http://ADDR` of this server, for URLs it hands out (the consent page).
    pub base_url: String,
    pub fixtures: Vec<FixtureChoice>,
}

impl Shared {
    /// Open the data dir: the state key, the task database with `jobs` (every job kind
    /// the active fixture sets start), then resume unfinished tasks. Must be called inside
    /// a Tokio runtime.
    pub fn open(
        options: &ServeOptions,
        address: SocketAddr,
        jobs: JobRegistry,
    ) -> anyhow::Result<Self> {
        std::fs::create_dir_all(&options.data_dir).with_context(|| {
            format!("cannot create the data dir {}", options.data_dir.display())
        })?;
        let key = load_or_create_key(options.state_key.as_deref(), &options.data_dir)?;
        let sealer = StateSealer::new(&key, options.limits.state_ttl)?;
        let store = TaskStore::open(&options.data_dir).with_context(|| {
            format!(
                "cannot open the task database in {}",
                options.data_dir.display()
            )
        })?;
        let bookings = Bookings::open(&options.data_dir).with_context(|| {
            format!(
                "cannot open the booking database in {}",
                options.data_dir.display()
            )
        })?;
        let tasks = TaskRuntime::start(
            store,
            jobs,
            options.limits.max_live_tasks_per_user,
            options.limits.task_ttl,
        )?;
        Ok(Self {
            tasks,
            sealer,
            consents: ConsentBook::default(),
            bookings,
            limits: options.limits.clone(),
            base_url: public_base_url(address),
            fixtures: options.fixtures.clone(),
        })
    }
}

/// The base of URLs this server hands out. A wildcard bind is reachable on loopback.
fn public_base_url(address: SocketAddr) -> String {
    if address.ip().is_unspecified() {
        format!("http://127.0.0.1:{}", address.port())
    } else {
        format!("http://{address}")
    }
}
