//! Checking a server against the protocol on purpose: a plan of probes, each a request
//! written to ask one question (discovery, versions, routing headers, errors, pagination,
//! the tasks extension, the transport, CORS), sent one at a time by the caller (the app in
//! the browser, `holdbay check` natively), each answer judged into verdicts per rule with
//! the exchanges as evidence. Sans-IO: the caller moves the bytes.

use std::collections::VecDeque;

use serde::Serialize;

use crate::builders::client::Client;

mod exchange;
mod probes;
mod report;
pub mod rules;

pub use exchange::{Outcome, ProbeExchange, ProbeRequest, ProbeResponse, Verdict};
pub use report::{CheckReport, CheckSummary};
pub use rules::{Area, CheckRule, Level};

pub use probes::ChosenCall;
use probes::{Learned, Probe};

/// Choices for a check.
#[derive(Debug, Clone, Default)]
pub struct CheckOptions {
    /// The browser origin the CORS probes ask for (the app's own, in the browser); `None`
    /// leaves them not applicable.
    pub origin: Option<String>,
    /// The tool the MRTR probes call (it runs, maybe more than once: the user chose it and
    /// confirmed); `None` leaves them not applicable.
    pub call: Option<ChosenCall>,
}

/// A check in progress.
#[derive(Debug)]
pub struct CheckRun {
    target: String,
    options: CheckOptions,
    client: Client,
    queue: VecDeque<Probe>,
    /// The probe whose request is on the wire.
    asking: Option<Probe>,
    learned: Learned,
    exchanges: Vec<ProbeExchange>,
    verdicts: Vec<Verdict>,
}

/// How far a check has come.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct CheckProgress {
    pub judged: usize,
    pub rules: usize,
}

impl CheckRun {
    /// A check of the server at `target` (a URL, for the report).
    pub fn new(target: &str, options: CheckOptions) -> Self {
        Self {
            target: target.to_owned(),
            options,
            client: Client::default(),
            queue: Probe::plan().into(),
            asking: None,
            learned: Learned::default(),
            exchanges: Vec::new(),
            verdicts: Vec::new(),
        }
    }

    /// The next request to send, or `None` when the check is over (or a request is still
    /// on the wire: hand its answer to [`CheckRun::take`] first).
    pub fn next_request(&mut self) -> Option<ProbeRequest> {
        if self.asking.is_some() {
            return None;
        }
        while let Some(probe) = self.queue.pop_front() {
            let origin = self.options.origin.as_deref();
            let chosen = self.options.call.as_ref();
            match probe.request(&self.learned, &mut self.client, origin, chosen) {
                Ok(request) => {
                    self.asking = Some(probe);
                    return Some(request);
                }
                Err(why) => {
                    for rule in probe.rules() {
                        self.verdicts.push(Verdict {
                            rule: *rule,
                            outcome: Outcome::NotApplicable { why: why.clone() },
                            evidence: Vec::new(),
                        });
                    }
                }
            }
        }
        None
    }

    /// What came of the request [`CheckRun::next_request`] gave (`Err`: no HTTP answer).
    pub fn take(&mut self, request: ProbeRequest, response: Result<ProbeResponse, String>) {
        let Some(probe) = self.asking.take() else {
            return;
        };
        let exchange = ProbeExchange { request, response };
        let evidence = self.exchanges.len();
        let (verdicts, next) = probe.judge(&exchange, evidence, &mut self.learned);
        self.exchanges.push(exchange);
        self.verdicts.extend(
            verdicts
                .into_iter()
                .map(|(rule, outcome, evidence)| Verdict {
                    rule,
                    outcome,
                    evidence,
                }),
        );
        if let Some(next) = next {
            self.queue.push_front(next);
        }
    }

    /// Whether every probe has been judged.
    pub fn is_done(&self) -> bool {
        self.asking.is_none() && self.queue.is_empty()
    }

    pub fn progress(&self) -> CheckProgress {
        CheckProgress {
            judged: self.verdicts.len(),
            rules: rules::ALL.len(),
        }
    }

    /// The card so far (complete once [`CheckRun::is_done`]), verdicts in the rules' order.
    pub fn report(&self) -> CheckReport {
        let mut verdicts = self.verdicts.clone();
        verdicts.sort_by_key(|verdict| {
            rules::ALL
                .iter()
                .position(|rule| rule.id == verdict.rule.id)
                .unwrap_or(usize::MAX)
        });
        CheckReport {
            target: self.target.clone(),
            verdicts,
            exchanges: self.exchanges.clone(),
        }
    }
}

#[cfg(test)]
mod tests;
