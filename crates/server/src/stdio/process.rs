//! One stdio server's process: started at its first request, its stdout read line by line
//! (each line one JSON-RPC message), its stderr kept (the newest lines), how it ended
//! recorded. A response goes to the request waiting for its id; every other message (a
//! notification, a request of the server's own) to every open stream. An ended process
//! stays ended until a restart: the next request is told it is gone, and why.

use std::collections::{HashMap, VecDeque};
use std::process::{ExitStatus, Stdio};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use holdbay_engine::stdio::{StdioServerStatus, StdioState};
use serde_json::Value;
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, Command};
use tokio::sync::{broadcast, mpsc, oneshot};

use super::command::StdioCommand;

/// stderr lines kept per server, and the longest line kept whole.
const STDERR_LINES: usize = 200;
const STDERR_LINE_CHARS: usize = 2_000;
/// Messages of the server's own an open stream may fall behind by before it skips some.
const OTHERS_BACKLOG: usize = 256;
/// The longest stdout line read as a message.
const MAX_MESSAGE_BYTES: usize = 32 * 1024 * 1024;
/// How long stdout may stay open after the process ended (a child of its own may hold it).
const STDOUT_AFTER_EXIT: Duration = Duration::from_secs(1);

/// What a waiting request is given: its response, or why none will come.
#[derive(Debug)]
pub enum Delivery {
    Response(Value),
    Gone(String),
}

/// Why a message could not be handed to the process.
#[derive(Debug)]
pub enum Refusal {
    /// The process ended (or never started): how.
    Gone(String),
    /// A request with this id is still waiting for its response.
    IdInFlight,
}

/// Every configured stdio server, by name.
pub struct StdioServers {
    servers: HashMap<String, Arc<StdioServer>>,
}

impl StdioServers {
    pub fn new(commands: Vec<StdioCommand>) -> Self {
        let servers = commands
            .into_iter()
            .map(|command| (command.name.clone(), Arc::new(StdioServer::new(command))))
            .collect();
        Self { servers }
    }

    /// The server configured as `name`; no other can be reached.
    pub fn get(&self, name: &str) -> Option<Arc<StdioServer>> {
        self.servers.get(name).cloned()
    }

    /// How each server stands, by name.
    pub fn statuses(&self) -> Vec<StdioServerStatus> {
        let mut statuses: Vec<StdioServerStatus> =
            self.servers.values().map(|s| s.status()).collect();
        statuses.sort_by(|a, b| a.name.cmp(&b.name));
        statuses
    }
}

/// One configured server and its current process.
pub struct StdioServer {
    command: StdioCommand,
    state: Mutex<State>,
    stderr: Arc<Mutex<VecDeque<String>>>,
}

enum State {
    NotStarted,
    Running(Arc<Running>),
    Ended(String),
}

impl StdioServer {
    fn new(command: StdioCommand) -> Self {
        Self {
            command,
            state: Mutex::new(State::NotStarted),
            stderr: Arc::new(Mutex::new(VecDeque::new())),
        }
    }

    /// The running process, started if it never was; an ended one is gone until a restart.
    pub fn running(self: &Arc<Self>) -> Result<Arc<Running>, Refusal> {
        let mut state = lock(&self.state);
        match &*state {
            State::Running(running) => Ok(Arc::clone(running)),
            State::Ended(how) => Err(Refusal::Gone(self.gone(how))),
            State::NotStarted => {
                let running = self.spawn().map_err(Refusal::Gone)?;
                *state = State::Running(Arc::clone(&running));
                Ok(running)
            }
        }
    }

    /// End the process (if it runs) and start the command again.
    pub fn restart(self: &Arc<Self>) -> Result<StdioServerStatus, String> {
        let mut state = lock(&self.state);
        if let State::Running(running) = &*state {
            running.kill();
        }
        push_line(&self.stderr, "(holdbay: restarted)".to_owned());
        let spawned = self.spawn();
        *state = match &spawned {
            Ok(running) => State::Running(Arc::clone(running)),
            Err(why) => State::Ended(why.clone()),
        };
        drop(state);
        spawned.map(|_| self.status())
    }

    pub fn status(&self) -> StdioServerStatus {
        let (state, pid, ended) = match &*lock(&self.state) {
            State::NotStarted => (StdioState::NotStarted, None, None),
            State::Running(running) => (StdioState::Running, running.pid, None),
            State::Ended(how) => (StdioState::Ended, None, Some(how.clone())),
        };
        StdioServerStatus {
            name: self.command.name.clone(),
            command: self.command.to_string(),
            state,
            pid,
            ended,
            stderr: lock(&self.stderr).iter().cloned().collect(),
        }
    }

    /// The newest stderr lines, for an error's `data`.
    pub fn stderr_tail(&self, lines: usize) -> Vec<String> {
        let stderr = lock(&self.stderr);
        stderr
            .iter()
            .skip(stderr.len().saturating_sub(lines))
            .cloned()
            .collect()
    }

    fn gone(&self, how: &str) -> String {
        format!(
            "the stdio server {} is not running: {how}. Restart it (POST /stdio/{}/restart) to \
             call it again",
            self.command.name, self.command.name
        )
    }

    fn spawn(self: &Arc<Self>) -> Result<Arc<Running>, String> {
        let command = &self.command;
        let mut child = Command::new(&command.program)
            .args(&command.args)
            .envs(command.env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .map_err(|error| format!("`{command}` could not start: {error}"))?;
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            return Err(format!("`{command}` started without its pipes"));
        };
        let (kill, killed) = oneshot::channel();
        let running = Arc::new(Running {
            pid: child.id(),
            stdin: tokio::sync::Mutex::new(stdin),
            waiting: Mutex::new(HashMap::new()),
            others: broadcast::channel(OTHERS_BACKLOG).0,
            kill: Mutex::new(Some(kill)),
        });
        tokio::spawn(keep_stderr(stderr, Arc::clone(&self.stderr)));
        let reader = tokio::spawn(read_stdout(
            stdout,
            Arc::clone(&running),
            Arc::clone(&self.stderr),
        ));
        tokio::spawn(supervise(
            Arc::clone(self),
            Arc::clone(&running),
            child,
            killed,
            reader,
        ));
        Ok(running)
    }

    /// `running`'s process ended `how`: record it, unless a restart replaced it already.
    fn ended(&self, running: &Arc<Running>, how: &str) {
        let mut state = lock(&self.state);
        if let State::Running(current) = &*state
            && Arc::ptr_eq(current, running)
        {
            *state = State::Ended(how.to_owned());
        }
        drop(state);
        push_line(&self.stderr, format!("(holdbay: the process ended: {how})"));
        running.fail_waiting(&format!(
            "the process of the stdio server {} ended before it answered: {how}",
            self.command.name
        ));
    }
}

/// After a failed write, how long (tries × step) to wait for the process's end to be seen.
const ENDING_SEEN_TRIES: u32 = 40;
const ENDING_SEEN_STEP: Duration = Duration::from_millis(50);

/// A started process: where to write, and who waits for what.
pub struct Running {
    pid: Option<u32>,
    stdin: tokio::sync::Mutex<ChildStdin>,
    /// Requests waiting for their response, by their id as JSON text.
    waiting: Mutex<HashMap<String, mpsc::UnboundedSender<Delivery>>>,
    /// Every message that is not a response to a waiting request.
    others: broadcast::Sender<Value>,
    kill: Mutex<Option<oneshot::Sender<()>>>,
}

/// A request on its way: its response (or why none comes) and the server's other messages
/// meanwhile. Dropping it stops waiting.
pub struct Waiting {
    pub response: mpsc::UnboundedReceiver<Delivery>,
    pub others: broadcast::Receiver<Value>,
    key: String,
    running: Arc<Running>,
}

impl Waiting {
    /// The request's id.
    pub fn id(&self) -> Value {
        serde_json::from_str(&self.key).unwrap_or(Value::Null)
    }
}

impl Drop for Waiting {
    fn drop(&mut self) {
        lock(&self.running.waiting).remove(&self.key);
    }
}

impl Running {
    /// Write request `message` (its `id` is `id`) and wait for its response.
    pub async fn request(
        self: &Arc<Self>,
        id: &Value,
        message: &Value,
    ) -> Result<Waiting, Refusal> {
        let key = id.to_string();
        let (sender, response) = mpsc::unbounded_channel();
        {
            let mut waiting = lock(&self.waiting);
            if waiting.contains_key(&key) {
                return Err(Refusal::IdInFlight);
            }
            waiting.insert(key.clone(), sender);
        }
        let waiting = Waiting {
            response,
            others: self.others.subscribe(),
            key,
            running: Arc::clone(self),
        };
        if let Err(why) = self.write(message).await {
            // A process that just ended breaks the pipe before its end is seen: how it
            // ended (said to every waiting request) is the better answer, if it comes soon.
            for _ in 0..ENDING_SEEN_TRIES {
                if !lock(&self.waiting).contains_key(&waiting.key) {
                    return Ok(waiting);
                }
                tokio::time::sleep(ENDING_SEEN_STEP).await;
            }
            return Err(Refusal::Gone(why));
        }
        Ok(waiting)
    }

    /// Write a notification or a response of the client's.
    pub async fn send(&self, message: &Value) -> Result<(), String> {
        self.write(message).await
    }

    /// The server's messages that answer no waiting request, from now on.
    pub fn others(&self) -> broadcast::Receiver<Value> {
        self.others.subscribe()
    }

    /// One message, one line: serde_json escapes every newline inside strings.
    async fn write(&self, message: &Value) -> Result<(), String> {
        let mut line = message.to_string();
        line.push('\n');
        let mut stdin = self.stdin.lock().await;
        stdin
            .write_all(line.as_bytes())
            .await
            .and(stdin.flush().await)
            .map_err(|error| format!("could not write to the process: {error}"))
    }

    fn kill(&self) {
        if let Some(kill) = lock(&self.kill).take() {
            let _ = kill.send(());
        }
    }

    fn fail_waiting(&self, why: &str) {
        for (_, waiting) in lock(&self.waiting).drain() {
            let _ = waiting.send(Delivery::Gone(why.to_owned()));
        }
    }

    fn deliver(&self, message: Value) {
        let is_response = message.get("method").is_none()
            && (message.get("result").is_some() || message.get("error").is_some());
        let waiting = is_response
            .then(|| message.get("id").map(Value::to_string))
            .flatten()
            .and_then(|key| lock(&self.waiting).remove(&key));
        match waiting {
            Some(waiting) => {
                let _ = waiting.send(Delivery::Response(message));
            }
            // No one listening is no error: the message is simply not shown.
            None => {
                let _ = self.others.send(message);
            }
        }
    }
}

/// stdout's messages to the waiting requests and open streams, its other lines to stderr's.
async fn read_stdout(
    stdout: impl AsyncRead + Unpin,
    running: Arc<Running>,
    stderr: Arc<Mutex<VecDeque<String>>>,
) {
    read_messages(
        stdout,
        MAX_MESSAGE_BYTES,
        |message| running.deliver(message),
        |note| push_line(&stderr, note),
    )
    .await;
}

/// Each line is one message (`on_message`); a line that is not a JSON object is noted, and one
/// longer than `max_bytes` is dropped and noted (it is never held whole in memory).
async fn read_messages(
    reader: impl AsyncRead + Unpin,
    max_bytes: usize,
    mut on_message: impl FnMut(Value),
    mut on_note: impl FnMut(String),
) {
    let mut reader = BufReader::new(reader);
    let mut line = Vec::new();
    let limit = u64::try_from(max_bytes).unwrap_or(u64::MAX);
    loop {
        line.clear();
        match (&mut reader).take(limit).read_until(b'\n', &mut line).await {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        if !line.ends_with(b"\n") && line.len() >= max_bytes {
            on_note(format!(
                "(holdbay: a stdout message over {max_bytes} bytes was dropped)"
            ));
            if !skip_line(&mut reader).await {
                return;
            }
            continue;
        }
        let text = String::from_utf8_lossy(&line);
        let text = text.trim();
        if text.is_empty() {
            continue;
        }
        match serde_json::from_str::<Value>(text) {
            Ok(message) if message.is_object() => on_message(message),
            _ => on_note(format!(
                "(holdbay: stdout line that is not a message) {text}"
            )),
        }
    }
}

/// Pass over the rest of a line, up to its newline, holding none of it; false at the end.
async fn skip_line(reader: &mut (impl AsyncBufRead + Unpin)) -> bool {
    loop {
        let (used, found) = match reader.fill_buf().await {
            Ok([]) | Err(_) => return false,
            Ok(buffer) => match buffer.iter().position(|&byte| byte == b'\n') {
                Some(at) => (at + 1, true),
                None => (buffer.len(), false),
            },
        };
        reader.consume(used);
        if found {
            return true;
        }
    }
}

async fn keep_stderr(stderr: impl AsyncRead + Unpin, kept: Arc<Mutex<VecDeque<String>>>) {
    let mut lines = BufReader::new(stderr).lines();
    while let Ok(Some(line)) = lines.next_line().await {
        push_line(&kept, line);
    }
}

/// Wait for the process to end (or kill it when asked), let stdout drain, then record how
/// it ended and tell every waiting request.
async fn supervise(
    server: Arc<StdioServer>,
    running: Arc<Running>,
    mut child: Child,
    killed: oneshot::Receiver<()>,
    reader: tokio::task::JoinHandle<()>,
) {
    let status = tokio::select! {
        status = child.wait() => status,
        _ = killed => {
            let _ = child.start_kill();
            child.wait().await
        }
    };
    let _ = tokio::time::timeout(STDOUT_AFTER_EXIT, reader).await;
    let how = match status {
        Ok(status) => describe(status),
        Err(error) => format!("its end could not be read: {error}"),
    };
    server.ended(&running, &how);
}

fn describe(status: ExitStatus) -> String {
    if let Some(code) = status.code() {
        return format!("it exited with status {code}");
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            return format!("it was ended by signal {signal}");
        }
    }
    format!("it ended ({status})")
}

fn push_line(kept: &Mutex<VecDeque<String>>, mut line: String) {
    if line.chars().count() > STDERR_LINE_CHARS {
        line = line.chars().take(STDERR_LINE_CHARS).collect::<String>() + "…";
    }
    let mut kept = lock(kept);
    if kept.len() == STDERR_LINES {
        kept.pop_front();
    }
    kept.push_back(line);
}

/// A poisoned lock still holds usable data here (lines, maps of senders).
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[tokio::test]
    async fn lines_are_messages_and_the_rest_is_noted_without_holding_a_long_line() {
        let long = "x".repeat(100);
        let stdout = format!("{{\"id\":1}}\n\nnot json\n[1]\n{long}\n{{\"id\":2}}\n{{\"id\":3}}");
        let (mut messages, mut notes) = (Vec::new(), Vec::new());
        read_messages(
            stdout.as_bytes(),
            50,
            |m| messages.push(m),
            |n| notes.push(n),
        )
        .await;
        assert_eq!(
            messages,
            [json!({"id": 1}), json!({"id": 2}), json!({"id": 3})]
        );
        assert_eq!(notes.len(), 3, "{notes:?}");
        assert!(notes[0].ends_with("not a message) not json"));
        assert!(notes[1].ends_with("not a message) [1]"));
        assert!(notes[2].contains("over 50 bytes was dropped"));
    }
}
