//! Fetching a server's whole list (`tools/list`, `prompts/list`, `resources/list`,
//! `resources/templates/list`), page by page, without IO. A list that stops early says why.

use std::collections::BTreeSet;
use std::fmt::Debug;

use rmcp::model::{DiscoverResult, Tool};

use crate::builders::client::Client;
use crate::builders::outgoing::OutgoingRequest;
use crate::readers::names::{NameBook, Shown};
use crate::readers::response::Reply;
use crate::vocabulary::findings::{Finding, Rule};
use crate::vocabulary::limits::{Limits, excerpt, grouped};
pub use crate::vocabulary::list_method::{ListMethod, tool_display_name, tool_title};

/// More pages than any sane server sends; past this a listing stops with an error.
pub const MAX_PAGES: usize = 100;
/// The same bound, under the name it had when only tools were paged.
pub const MAX_TOOL_PAGES: usize = MAX_PAGES;

/// Why a listing stopped before its end.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PagesError {
    #[error("the server kept sending nextCursor after {pages} pages of {method}; stopped")]
    TooManyPages { method: &'static str, pages: usize },
    #[error("the server sent the cursor {cursor:?} twice; {method} would never end")]
    RepeatedCursor {
        method: &'static str,
        cursor: String,
    },
    #[error("page {page} of {method} failed: {reason}")]
    PageFailed {
        method: &'static str,
        page: usize,
        reason: String,
    },
    #[error("{method} was left after {pages} pages, before its last")]
    Unfinished { method: &'static str, pages: usize },
}

/// A whole list as fetched, with what the server did against the spec on the way. When
/// `stopped` is set the items are only the pages before it.
#[derive(Debug, Clone, PartialEq)]
pub struct Listing<T> {
    pub items: Vec<T>,
    /// Every page's findings, in order.
    pub findings: Vec<Finding>,
    pub stopped: Option<PagesError>,
    /// Why each item the client will not offer was left out (its name is over
    /// [`Limits::max_name_bytes`]); each is one of `findings` too.
    pub left_out: Vec<String>,
    /// The items' names, for showing them and flagging the ones that pass for others; each
    /// flag is one of `findings` too.
    pub names: NameBook,
}

impl<T> Listing<T> {
    /// The list reached its last page.
    pub fn is_complete(&self) -> bool {
        self.stopped.is_none()
    }
}

impl Listing<Tool> {
    /// Hand the tools to `client`, which keeps their mirrored headers; tools with invalid
    /// `x-mcp-header` annotations are dropped (§6.2), each with a finding of its own.
    pub fn learn(self, client: &mut Client) -> Self {
        let (kept, dropped) = client.learn_tools(self.items);
        let mut findings = self.findings;
        findings.extend(dropped);
        Self {
            items: kept,
            findings,
            stopped: self.stopped,
            left_out: self.left_out,
            names: self.names,
        }
    }
}

/// Walks a list method until a page comes without `nextCursor` (an empty string is a valid
/// cursor; only absence ends the list, §11), or something stops it.
#[derive(Debug, Clone)]
pub struct Pages<M: ListMethod> {
    items: Vec<M::Item>,
    findings: Vec<Finding>,
    left_out: Vec<String>,
    limits: Limits,
    /// The cursor of the next page to ask for (`Some(None)`: the first); `None` at the end.
    next_cursor: Option<Option<String>>,
    seen_cursors: BTreeSet<String>,
    pages: usize,
    stopped: Option<PagesError>,
    /// The items a 2025-11-25 server runs as tasks when asked.
    task_capable: Vec<String>,
}

impl<M: ListMethod> Pages<M> {
    /// A listing for this server, or `None` when its capabilities do not offer the list.
    pub fn for_server(discover: &DiscoverResult) -> Option<Self> {
        M::offered_by(&discover.capabilities).then(|| Self {
            items: Vec::new(),
            findings: Vec::new(),
            left_out: Vec::new(),
            limits: Limits::default(),
            next_cursor: Some(None),
            seen_cursors: BTreeSet::new(),
            pages: 0,
            stopped: None,
            task_capable: Vec::new(),
        })
    }

    /// The first page's request, sent before discovery says whether the server offers the
    /// list (servers must answer `server/discover`; clients may skip it, wire reference §1).
    /// Its answer counts only if [`Pages::for_server`] then gives a listing: hand it to
    /// [`Pages::accept`] in place of that listing's first request.
    pub fn first_request(client: &mut Client) -> OutgoingRequest<M> {
        client.list_page::<M>(None)
    }

    /// The next page's request, or `None` when the list is over.
    pub fn next_request(&mut self, client: &mut Client) -> Option<OutgoingRequest<M>> {
        let cursor = self.next_cursor.clone()?;
        Some(client.list_page::<M>(cursor))
    }

    /// Take in the page answering the last request: its items and its findings. A page that
    /// arrives after the listing stopped is ignored.
    pub fn accept(&mut self, reply: Reply<M::Output>) -> Result<(), PagesError> {
        if let Some(stopped) = &self.stopped {
            return Err(stopped.clone());
        }
        self.pages += 1;
        self.findings.extend(reply.findings);
        self.task_capable.extend(M::task_capable(&reply.raw_result));
        let (items, next_cursor) = M::split_page(reply.result);
        for item in items {
            match overlong_name::<M>(&item, &self.limits) {
                None => self.items.push(item),
                Some(finding) => {
                    self.left_out.push(finding.explanation.clone());
                    self.findings.push(finding);
                }
            }
        }
        match next_cursor {
            None => self.next_cursor = None,
            Some(_) if self.pages >= MAX_PAGES => {
                return Err(self.stop(PagesError::TooManyPages {
                    method: M::name(),
                    pages: self.pages,
                }));
            }
            Some(cursor) if self.seen_cursors.contains(&cursor) => {
                return Err(self.stop(PagesError::RepeatedCursor {
                    method: M::name(),
                    cursor,
                }));
            }
            Some(cursor) => {
                self.seen_cursors.insert(cursor.clone());
                self.next_cursor = Some(Some(cursor));
            }
        }
        Ok(())
    }

    /// The last request got no page (a transport failure, an error response): the listing
    /// stops, and says so.
    pub fn page_failed(&mut self, reason: impl Into<String>) -> PagesError {
        let error = PagesError::PageFailed {
            method: M::name(),
            page: self.pages + 1,
            reason: reason.into(),
        };
        match &self.stopped {
            Some(stopped) => stopped.clone(),
            None => self.stop(error),
        }
    }

    fn stop(&mut self, error: PagesError) -> PagesError {
        self.next_cursor = None;
        self.stopped = Some(error.clone());
        error
    }

    /// The items gathered so far, in server order.
    pub fn items(&self) -> &[M::Item] {
        &self.items
    }

    /// The items so far a 2025-11-25 server runs as tasks when asked (for
    /// [`Client::learn_task_tools`]).
    pub fn task_capable(&self) -> &[String] {
        &self.task_capable
    }

    /// The findings of the pages so far.
    pub fn findings(&self) -> &[Finding] {
        &self.findings
    }

    /// Pages taken in so far.
    pub fn pages(&self) -> usize {
        self.pages
    }

    /// Why the listing stopped early, if it did.
    pub fn stopped(&self) -> Option<&PagesError> {
        self.stopped.as_ref()
    }

    /// No more requests: the last page came, or the listing stopped.
    pub fn is_over(&self) -> bool {
        self.next_cursor.is_none()
    }

    /// The list as gathered. Finishing before the last page counts as stopping there, so a
    /// truncated list is never taken for a whole one.
    pub fn finish(self) -> Listing<M::Item> {
        let stopped = match (self.stopped, self.next_cursor) {
            (Some(stopped), _) => Some(stopped),
            (None, Some(_)) => Some(PagesError::Unfinished {
                method: M::name(),
                pages: self.pages,
            }),
            (None, None) => None,
        };
        let names = name_book::<M>(&self.items);
        let mut findings = self.findings;
        findings.extend(
            names.findings(
                self.items
                    .iter()
                    .map(|item| (M::name_of(item), M::title_of(item))),
            ),
        );
        Listing {
            items: self.items,
            findings,
            stopped,
            left_out: self.left_out,
            names,
        }
    }
}

/// Characters of an over-long name quoted in its finding.
const NAME_EXCERPT_CHARS: usize = 40;

/// Why `item` is left out of its list, when its name is over [`Limits::max_name_bytes`]: it
/// could not be shown, nor sent back in `Mcp-Name`, as the server wrote it.
fn overlong_name<M: ListMethod>(item: &M::Item, limits: &Limits) -> Option<Finding> {
    let name = M::name_of(item);
    (name.len() > limits.max_name_bytes).then(|| {
        Finding::new(
            Rule::NameTooLong,
            format!(
                "{} {:?} was left out: its name is {} bytes, over the bound of {} bytes \
                 (Limits::max_name_bytes)",
                M::ITEM,
                excerpt(&Shown::of(name).text(), NAME_EXCERPT_CHARS),
                grouped(name.len()),
                grouped(limits.max_name_bytes)
            ),
            None,
        )
    })
}

/// The names of a list's items, as one book: how each is shown, and which look alike.
pub fn name_book<M: ListMethod>(items: &[M::Item]) -> NameBook {
    NameBook::new(M::ITEM, items.iter().map(M::name_of))
}

#[cfg(test)]
mod tests;
