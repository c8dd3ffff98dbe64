//! What the timeline lists: the session's events as rows (routine polls of one task folded
//! into one row), and the window of rows that is actually rendered.

use std::collections::HashSet;

use holdbay_scene::{Lane, Part, Traffic, TrafficEvent};

/// Rows rendered at once; older ones are a click away, so thousands of polls stay fast.
pub const WINDOW: usize = 300;

/// One row of the sequence diagram.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// The first event the row stands for.
    pub first_seq: u64,
    /// The last event the row stands for (its `data-seq`).
    pub seq: u64,
    pub from: Lane,
    pub to: Lane,
    pub label: String,
    /// When the last event happened, ms after the session's first kept event.
    pub after_ms: f64,
    pub part: Part,
    /// The step it shows is a failure (drawn as such, whatever its label).
    pub failed: bool,
}

/// The rendered window and what lies outside it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Listing {
    pub rows: Vec<Row>,
    /// Events before / after the window.
    pub earlier: usize,
    pub later: usize,
    /// The `seq` of the last row before the window, to page back to.
    pub earlier_anchor: Option<u64>,
    /// The `seq` of the last row of the next page, `None` when that page is the newest.
    pub later_anchor: Option<u64>,
    /// Events in the whole session (what the scrubber spans).
    pub total: usize,
    pub dropped: u64,
}

/// A run of events shown as one row: `events[start..end]`, with `polls` answered polls
/// of `tasks` tasks when it is a folded run of routine polls.
#[derive(Debug, Clone, Copy)]
struct Span {
    start: usize,
    end: usize,
    polls: usize,
    tasks: usize,
}

/// List `traffic`'s events, ending with the row that holds `anchor` (`None`: the newest).
pub fn listing(traffic: &Traffic, anchor: Option<u64>) -> Listing {
    let events = traffic.events();
    let spans = spans(events);
    let end = anchor
        .and_then(|anchor| spans.iter().position(|s| events[s.end - 1].seq >= anchor))
        .map_or(spans.len(), |index| index + 1);
    let start = end.saturating_sub(WINDOW);
    let first_at = events.first().map_or(0.0, |event| event.at);
    let rows = spans[start..end]
        .iter()
        .map(|span| row(events, *span, first_at))
        .collect();
    let events_in = |spans: &[Span]| spans.iter().map(|s| s.end - s.start).sum::<usize>();
    let later_end = (end + WINDOW).min(spans.len());
    Listing {
        rows,
        earlier: events_in(&spans[..start]),
        later: events_in(&spans[end..]),
        earlier_anchor: start
            .checked_sub(1)
            .map(|last| events[spans[last].end - 1].seq),
        later_anchor: (later_end < spans.len()).then(|| events[spans[later_end - 1].end - 1].seq),
        total: events.len(),
        dropped: traffic.dropped_events(),
    }
}

fn row(events: &[TrafficEvent], span: Span, first_at: f64) -> Row {
    let first = &events[span.start];
    let last = &events[span.end - 1];
    let label = match (span.polls, span.tasks) {
        (polls, tasks) if polls > 1 && tasks > 1 => {
            format!("tasks/get ×{polls} for {tasks} tasks → {}", last.label)
        }
        (polls, _) if polls > 1 => format!("tasks/get ×{polls} → {}", last.label),
        _ => last.label.clone(),
    };
    Row {
        first_seq: first.seq,
        seq: last.seq,
        from: last.from,
        to: last.to,
        label,
        after_ms: last.at - first_at,
        part: last.part.clone(),
        failed: last.failed,
    }
}

/// Group the events into rows: consecutive routine polls (the requests and their unchanged
/// answers, of one task or of many followed at once) fold into one row; everything else is a
/// row of its own.
fn spans(events: &[TrafficEvent]) -> Vec<Span> {
    let mut spans: Vec<Span> = Vec::with_capacity(events.len());
    let mut run: Option<(HashSet<&str>, Span)> = None;
    for (index, event) in events.iter().enumerate() {
        let poll = routine_poll(event);
        if let (Some((tasks, span)), Some((of, is_request))) = (&mut run, &poll) {
            tasks.insert(of);
            span.end = index + 1;
            span.polls += usize::from(!is_request);
            continue;
        }
        if let Some((tasks, span)) = run.take() {
            let tasks = tasks.len();
            close(events, &mut spans, Span { tasks, ..span });
        }
        let span = Span {
            start: index,
            end: index + 1,
            polls: 0,
            tasks: 1,
        };
        match poll {
            Some((task, is_request)) => {
                let polls = usize::from(!is_request);
                run = Some((HashSet::from([task]), Span { polls, ..span }));
            }
            None => spans.push(span),
        }
    }
    if let Some((tasks, span)) = run {
        let tasks = tasks.len();
        close(events, &mut spans, Span { tasks, ..span });
    }
    spans
}

/// A run folds up to its last answer (a poll still out, or answered with news, stays a row
/// of its own); a run of fewer than two answered polls is not worth folding. Polls of many
/// tasks at once keep theirs still out in the run: a busy poller has several out at any
/// moment, and as many rows coming and going with every redraw is noise.
fn close(events: &[TrafficEvent], spans: &mut Vec<Span>, mut run: Span) {
    let full_end = run.end;
    while run.tasks <= 1 && run.end > run.start && events[run.end - 1].from == Lane::Client {
        run.end -= 1;
    }
    let single = |index| Span {
        start: index,
        end: index + 1,
        polls: 0,
        tasks: 1,
    };
    if run.polls > 1 {
        spans.push(run);
    } else {
        spans.extend((run.start..run.end).map(single));
    }
    spans.extend((run.end..full_end).map(single));
}

/// `Some((task, is_request))` when `event` is routine polling: a `tasks/get` going out, or
/// an answer that changed nothing (the model narrates every change, so it has no narration).
fn routine_poll(event: &TrafficEvent) -> Option<(&str, bool)> {
    match (&event.part, event.from, event.to) {
        // Read from the step: the flight itself may be long gone (a busy poller's are).
        (Part::Flight(_), Lane::Client, Lane::Server) => {
            event.polls.as_deref().map(|task| (task, true))
        }
        (Part::Cartridge(task), Lane::Server, Lane::Client) if event.narration.is_none() => {
            Some((task.as_str(), false))
        }
        _ => None,
    }
}

/// The lane's name in the DOM contract.
pub fn lane_name(lane: Lane) -> &'static str {
    match lane {
        Lane::User => "user",
        Lane::Client => "client",
        Lane::Server => "server",
    }
}

pub fn lane_title(lane: Lane) -> &'static str {
    match lane {
        Lane::User => "User",
        Lane::Client => "Client",
        Lane::Server => "Server",
    }
}

/// The event whose moment `position` shows: `picked` when it happened exactly then (several
/// events can share a millisecond), else the last one at or before it.
pub fn current_index(events: &[TrafficEvent], position: f64, picked: Option<u64>) -> Option<usize> {
    if let Some(index) = picked.and_then(|seq| events.iter().position(|e| e.seq == seq))
        && events[index].at == position
    {
        return Some(index);
    }
    events.iter().rposition(|event| event.at <= position)
}
