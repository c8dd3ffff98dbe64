//! The probes: each a request written to ask one question of the server, and how its answer
//! is judged. Probes that could change the server's data are not here: a tool call goes out
//! only with a name that no tool has, refused before any tool is looked up.

use serde_json::Value;

use super::exchange::{Outcome, ProbeExchange, ProbeRequest, ProbeResponse};
use super::rules::{self, CheckRule};
use crate::builders::client::{Client, RequestOptions};
use crate::vocabulary::protocol::{
    HEADER_METHOD, HEADER_NAME, HEADER_PROTOCOL_VERSION, PROTOCOL_VERSION,
};

/// Where a request's `_meta` names its protocol version.
const META_PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
/// A version no server supports.
const ANCIENT_VERSION: &str = "1900-01-01";
/// A method no server has.
const UNKNOWN_METHOD: &str = "holdbay/no-such-method";
/// A tool name no server has: the name-mismatch probe's call cannot run anything.
const ABSENT_TOOL: &str = "holdbay-check-absent-tool";
const ABSENT_TASK: &str = "holdbay-check-absent-task";
const FOREIGN_CURSOR: &str = "holdbay-check-not-a-cursor";
/// tools/list pages followed at most (a server with thousands of tools has many).
pub(crate) const MAX_PAGES: usize = 5;
/// The headers a browser client sends on a tools/call with a mirrored argument.
pub(crate) const BROWSER_HEADERS: &[&str] = &[
    "content-type",
    "mcp-protocol-version",
    "mcp-method",
    "mcp-name",
    "mcp-param-region",
    "authorization",
];

/// What earlier answers taught the check.
#[derive(Debug, Clone, Default)]
pub(crate) struct Learned {
    /// The discover result's capabilities, once answered.
    pub capabilities: Option<Value>,
    /// Cursors given so far by tools/list.
    pub cursors: Vec<String>,
    /// The tools/list pages' evidence, and the first page that lacked cache hints.
    pub pages: Vec<usize>,
    pub uncached_page: Option<usize>,
    /// The chosen tool's first answer, when it asked for input.
    pub round: Option<AskedRound>,
    /// Why there is no round to retry (the tool answered without asking, or not at all).
    pub no_round: Option<String>,
}

/// An `input_required` answer of the chosen tool: what its retries echo.
#[derive(Debug, Clone)]
pub(crate) struct AskedRound {
    pub request_state: Option<String>,
    /// The keys asked, and whether each is an elicitation (the one kind a probe can decline).
    pub keys: Vec<(String, bool)>,
}

impl Learned {
    fn offers(&self, capability: &str) -> bool {
        self.capabilities
            .as_ref()
            .is_some_and(|capabilities| capabilities.get(capability).is_some_and(|v| !v.is_null()))
    }

    fn offers_tasks(&self) -> bool {
        self.capabilities
            .as_ref()
            .and_then(|capabilities| capabilities.get("extensions"))
            .and_then(|extensions| extensions.get(rmcp::model::TASKS_EXTENSION_ID))
            .is_some()
    }
}

/// One probe.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Probe {
    Discover,
    UnsupportedVersion,
    MethodMismatch,
    NameMismatch,
    UnknownMethod,
    MissingMeta,
    ListPage {
        cursor: Option<String>,
    },
    InvalidCursor,
    TasksWithoutExtension,
    UnknownTask,
    Get,
    Preflight,
    Expose,
    /// The tool the user chose, called as given.
    ChosenCall,
    /// Its retry with the requestState changed.
    TamperedState,
    /// Its retry with no input responses.
    MissingResponse,
    /// Its retry with the answers declined and one key more.
    ExtraKey,
}

/// A tool call the user chose and confirmed: the one probe that may change the server's
/// data (the tool runs, and its retries with it).
#[derive(Debug, Clone, PartialEq)]
pub struct ChosenCall {
    pub tool: String,
    pub arguments: rmcp::model::JsonObject,
}

/// What a judged answer gives: verdicts, and the probe to run next in its place (the next
/// page of a list).
pub(crate) type Judged = (Vec<(CheckRule, Outcome, Vec<usize>)>, Option<Probe>);

impl Probe {
    /// Every probe, in order; the pages of tools/list follow the first as they come.
    pub(crate) fn plan() -> Vec<Probe> {
        vec![
            Probe::Discover,
            Probe::UnsupportedVersion,
            Probe::MethodMismatch,
            Probe::UnknownMethod,
            Probe::MissingMeta,
            Probe::NameMismatch,
            Probe::ListPage { cursor: None },
            Probe::InvalidCursor,
            Probe::TasksWithoutExtension,
            Probe::UnknownTask,
            Probe::Get,
            Probe::Preflight,
            Probe::Expose,
            Probe::ChosenCall,
            Probe::TamperedState,
            Probe::MissingResponse,
            Probe::ExtraKey,
        ]
    }

    /// The rules this probe judges.
    pub(crate) fn rules(&self) -> &'static [CheckRule] {
        match self {
            Probe::Discover => &[
                rules::DISCOVER_ANSWERS,
                rules::DISCOVER_CACHE,
                rules::DISCOVER_SERVER_INFO,
            ],
            Probe::UnsupportedVersion => &[rules::VERSION_UNSUPPORTED],
            Probe::MethodMismatch => &[rules::HEADER_METHOD_MISMATCH],
            Probe::NameMismatch => &[rules::HEADER_NAME_MISMATCH],
            Probe::UnknownMethod => &[rules::ERROR_UNKNOWN_METHOD],
            Probe::MissingMeta => &[rules::ERROR_MISSING_META],
            Probe::ListPage { .. } => &[rules::LIST_CACHE, rules::LIST_CURSORS],
            Probe::InvalidCursor => &[rules::LIST_INVALID_CURSOR],
            Probe::TasksWithoutExtension => &[rules::TASKS_REQUIRE_EXTENSION],
            Probe::UnknownTask => &[rules::TASKS_UNKNOWN],
            Probe::Get => &[rules::TRANSPORT_GET],
            Probe::Preflight => &[rules::CORS_PREFLIGHT],
            Probe::Expose => &[rules::CORS_EXPOSE],
            Probe::ChosenCall => &[],
            Probe::TamperedState => &[rules::MRTR_TAMPERED],
            Probe::MissingResponse => &[rules::MRTR_MISSING],
            Probe::ExtraKey => &[rules::MRTR_EXTRA_KEY],
        }
    }

    /// The request to send, or why the probe does not apply to this server.
    pub(crate) fn request(
        &self,
        learned: &Learned,
        client: &mut Client,
        origin: Option<&str>,
        chosen: Option<&ChosenCall>,
    ) -> Result<ProbeRequest, String> {
        let needs_discover = || {
            learned.capabilities.is_none().then(|| {
                "server/discover was not answered, so what the server offers is unknown".to_owned()
            })
        };
        let needs = |capability: &str| -> Result<(), String> {
            if let Some(why) = needs_discover() {
                return Err(why);
            }
            if learned.offers(capability) {
                Ok(())
            } else {
                Err(format!("the server does not offer {capability}"))
            }
        };
        let needs_tasks = || -> Result<(), String> {
            if let Some(why) = needs_discover() {
                return Err(why);
            }
            if learned.offers_tasks() {
                Ok(())
            } else {
                Err("the server does not offer the tasks extension".to_owned())
            }
        };
        Ok(match self {
            Probe::Discover => ProbeRequest::of(&client.discover(), "server/discover"),
            Probe::UnsupportedVersion => {
                ProbeRequest::of(&client.discover(), "server/discover in version 1900-01-01")
                    .with_header(HEADER_PROTOCOL_VERSION, Some(ANCIENT_VERSION))
                    .with_body(|json| set_meta_version(json, ANCIENT_VERSION))
            }
            Probe::MethodMismatch => ProbeRequest::of(
                &client.discover(),
                "server/discover with Mcp-Method: tools/list",
            )
            .with_header(HEADER_METHOD, Some("tools/list")),
            Probe::UnknownMethod => ProbeRequest::of(&client.discover(), "a method no server has")
                .with_header(HEADER_METHOD, Some(UNKNOWN_METHOD))
                .with_body(|json| json["method"] = UNKNOWN_METHOD.into()),
            Probe::MissingMeta => {
                ProbeRequest::of(&client.discover(), "server/discover without _meta")
                    .with_body(|json| json["params"] = serde_json::json!({}))
            }
            Probe::NameMismatch => {
                needs("tools")?;
                let call = client
                    .call_tool(ABSENT_TOOL, None, &RequestOptions::default())
                    .map_err(|error| error.to_string())?;
                ProbeRequest::of(&call, "tools/call with an Mcp-Name that is not its tool's")
                    .with_header(HEADER_NAME, Some("holdbay-check-other-name"))
            }
            Probe::ListPage { cursor } => {
                needs("tools")?;
                let label = match cursor {
                    None => "tools/list".to_owned(),
                    Some(_) => format!("tools/list, page {}", learned.pages.len() + 1),
                };
                ProbeRequest::of(&client.list_tools(cursor.clone()), &label)
            }
            Probe::InvalidCursor => {
                needs("tools")?;
                ProbeRequest::of(
                    &client.list_tools(Some(FOREIGN_CURSOR.to_owned())),
                    "tools/list with a cursor the server never gave",
                )
            }
            Probe::TasksWithoutExtension => {
                needs_tasks()?;
                ProbeRequest::of(
                    &client.get_task(ABSENT_TASK),
                    "tasks/get without the extension",
                )
                .with_body(forget_tasks_extension)
            }
            Probe::UnknownTask => {
                needs_tasks()?;
                ProbeRequest::of(
                    &client.get_task(ABSENT_TASK),
                    "tasks/get of an unknown task",
                )
            }
            Probe::Get => ProbeRequest {
                http_method: "GET",
                headers: vec![
                    ("Accept".to_owned(), "text/event-stream".to_owned()),
                    (
                        HEADER_PROTOCOL_VERSION.to_owned(),
                        PROTOCOL_VERSION.to_owned(),
                    ),
                ],
                body: None,
                label: "GET of the endpoint".to_owned(),
            },
            Probe::Preflight => {
                let origin = origin.ok_or("no Origin to ask for (give one)")?;
                ProbeRequest {
                    http_method: "OPTIONS",
                    headers: vec![
                        ("Origin".to_owned(), origin.to_owned()),
                        (
                            "Access-Control-Request-Method".to_owned(),
                            "POST".to_owned(),
                        ),
                        (
                            "Access-Control-Request-Headers".to_owned(),
                            BROWSER_HEADERS.join(", "),
                        ),
                    ],
                    body: None,
                    label: format!("the preflight a browser at {origin} sends"),
                }
            }
            Probe::Expose => {
                let origin = origin.ok_or("no Origin to ask for (give one)")?;
                ProbeRequest::of(
                    &client.discover(),
                    &format!("server/discover from {origin}"),
                )
                .with_header("Origin", Some(origin))
            }
            Probe::ChosenCall => {
                let chosen = chosen.ok_or(NO_CHOSEN_CALL)?;
                chosen_call(
                    client,
                    chosen,
                    &format!("tools/call {} (your choice)", chosen.tool),
                )?
            }
            Probe::TamperedState | Probe::MissingResponse | Probe::ExtraKey => {
                let chosen = chosen.ok_or(NO_CHOSEN_CALL)?;
                let round = learned.round.as_ref().ok_or_else(|| {
                    learned
                        .no_round
                        .clone()
                        .unwrap_or_else(|| "the chosen tool did not ask for input".to_owned())
                })?;
                self.retry(client, chosen, round)?
            }
        })
    }

    /// A retry of the chosen call, changed as this probe asks.
    fn retry(
        &self,
        client: &mut Client,
        chosen: &ChosenCall,
        round: &AskedRound,
    ) -> Result<ProbeRequest, String> {
        let (label, state, responses) = match self {
            Probe::TamperedState => {
                let state = round
                    .request_state
                    .as_deref()
                    .ok_or("the tool's answer carries no requestState to change")?;
                (
                    "the retry with requestState changed",
                    Some(tampered(state)),
                    declined(&round.keys)?,
                )
            }
            Probe::MissingResponse => (
                "the retry without its input responses",
                round.request_state.clone(),
                serde_json::Map::new(),
            ),
            _ => {
                let mut responses = declined(&round.keys)?;
                responses.insert("holdbay-check-extra".to_owned(), decline());
                (
                    "the retry with one input response more",
                    round.request_state.clone(),
                    responses,
                )
            }
        };
        Ok(chosen_call(client, chosen, label)?.with_body(|json| {
            let params = &mut json["params"];
            params["inputResponses"] = Value::Object(responses);
            if let Some(state) = state {
                params["requestState"] = Value::String(state);
            }
        }))
    }

    /// Judge the answer to this probe's request (`evidence`: its index among the check's
    /// exchanges).
    pub(crate) fn judge(
        &self,
        exchange: &ProbeExchange,
        evidence: usize,
        learned: &mut Learned,
    ) -> Judged {
        let response = match &exchange.response {
            Ok(response) => response,
            Err(why) => {
                let outcome = Outcome::Fail {
                    why: format!("no HTTP answer: {why}"),
                };
                let verdicts = self
                    .rules()
                    .iter()
                    .map(|rule| (*rule, outcome.clone(), vec![evidence]))
                    .collect();
                return (verdicts, None);
            }
        };
        let one = |rule: CheckRule, outcome: Outcome| (vec![(rule, outcome, vec![evidence])], None);
        match self {
            Probe::Discover => (discover(response, evidence, learned), None),
            Probe::UnsupportedVersion => {
                one(rules::VERSION_UNSUPPORTED, unsupported_version(response))
            }
            Probe::MethodMismatch => one(
                rules::HEADER_METHOD_MISMATCH,
                refused(response, 400, -32020),
            ),
            Probe::NameMismatch => one(rules::HEADER_NAME_MISMATCH, refused(response, 400, -32020)),
            Probe::UnknownMethod => {
                one(rules::ERROR_UNKNOWN_METHOD, refused(response, 404, -32601))
            }
            Probe::MissingMeta => one(rules::ERROR_MISSING_META, refused(response, 400, -32602)),
            Probe::ListPage { .. } => list_page(response, evidence, learned),
            Probe::InvalidCursor => one(rules::LIST_INVALID_CURSOR, error_code(response, -32602)),
            Probe::TasksWithoutExtension => one(
                rules::TASKS_REQUIRE_EXTENSION,
                refused(response, 400, -32021),
            ),
            Probe::UnknownTask => one(rules::TASKS_UNKNOWN, error_code(response, -32602)),
            Probe::Get => one(rules::TRANSPORT_GET, get_refused(response)),
            Probe::Preflight => one(rules::CORS_PREFLIGHT, preflight(response)),
            Probe::Expose => one(rules::CORS_EXPOSE, exposes_www_authenticate(response)),
            Probe::ChosenCall => {
                learn_round(response, learned);
                (Vec::new(), None)
            }
            Probe::TamperedState => one(rules::MRTR_TAMPERED, not_acted_on(response)),
            Probe::MissingResponse => one(rules::MRTR_MISSING, asked_again(response)),
            Probe::ExtraKey => one(rules::MRTR_EXTRA_KEY, taken(response)),
        }
    }
}

const NO_CHOSEN_CALL: &str =
    "it runs a tool, so only on one you choose (holdbay check --call TOOL)";

fn chosen_call(
    client: &mut Client,
    chosen: &ChosenCall,
    label: &str,
) -> Result<ProbeRequest, String> {
    let call = client
        .call_tool(
            &chosen.tool,
            Some(chosen.arguments.clone()),
            &RequestOptions::default(),
        )
        .map_err(|error| error.to_string())?;
    Ok(ProbeRequest::of(&call, label))
}

fn decline() -> Value {
    serde_json::json!({"action": "decline"})
}

/// A decline for each key asked; only an elicitation can be declined.
fn declined(keys: &[(String, bool)]) -> Result<serde_json::Map<String, Value>, String> {
    keys.iter()
        .map(|(key, elicitation)| {
            if *elicitation {
                Ok((key.clone(), decline()))
            } else {
                Err(format!("it asked {key:?} of a kind a probe cannot decline"))
            }
        })
        .collect()
}

/// `state` with its first character changed.
fn tampered(state: &str) -> String {
    let mut chars: Vec<char> = state.chars().collect();
    match chars.first_mut() {
        Some(first) => *first = if *first == 'A' { 'B' } else { 'A' },
        None => chars.push('A'),
    }
    chars.into_iter().collect()
}

fn result_type(response: &ProbeResponse) -> Option<String> {
    response
        .result()?
        .get("resultType")?
        .as_str()
        .map(str::to_owned)
}

fn learn_round(response: &ProbeResponse, learned: &mut Learned) {
    let Some(result) = response.result() else {
        learned.no_round = Some(format!(
            "the chosen tool was answered {}",
            answered(response)
        ));
        return;
    };
    if result_type(response).as_deref() != Some("input_required") {
        learned.no_round = Some("the chosen tool answered without asking for input".to_owned());
        return;
    }
    let keys = result
        .get("inputRequests")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .map(|(key, request)| {
            let method = request.get("method").and_then(Value::as_str);
            (key.clone(), method == Some("elicitation/create"))
        })
        .collect();
    learned.round = Some(AskedRound {
        request_state: result
            .get("requestState")
            .and_then(Value::as_str)
            .map(str::to_owned),
        keys,
    });
}

/// Refused, or asked again: anything but a result that completes.
fn not_acted_on(response: &ProbeResponse) -> Outcome {
    let asked = result_type(response).as_deref() == Some("input_required");
    if response.error_code().is_some() || asked {
        Outcome::Pass
    } else {
        Outcome::Fail {
            why: format!(
                "answered {}: the changed requestState was acted on",
                answered(response)
            ),
        }
    }
}

fn asked_again(response: &ProbeResponse) -> Outcome {
    if result_type(response).as_deref() == Some("input_required") {
        Outcome::Pass
    } else {
        Outcome::Fail {
            why: format!(
                "answered {}; the rule asks for input_required again",
                answered(response)
            ),
        }
    }
}

fn taken(response: &ProbeResponse) -> Outcome {
    if response.result().is_some() {
        Outcome::Pass
    } else {
        Outcome::Fail {
            why: format!(
                "answered {}: the extra key was not ignored",
                answered(response)
            ),
        }
    }
}

fn set_meta_version(json: &mut Value, version: &str) {
    if let Some(meta) = json
        .pointer_mut("/params/_meta")
        .and_then(Value::as_object_mut)
    {
        meta.insert(META_PROTOCOL_VERSION.to_owned(), version.into());
    }
}

/// The request's `_meta` without the tasks extension among its capabilities.
fn forget_tasks_extension(json: &mut Value) {
    if let Some(meta) = json
        .pointer_mut("/params/_meta")
        .and_then(Value::as_object_mut)
    {
        for value in meta.values_mut() {
            if let Some(extensions) = value.get_mut("extensions").and_then(Value::as_object_mut) {
                extensions.remove(rmcp::model::TASKS_EXTENSION_ID);
            }
        }
    }
}

/// What the server answered, in a few words.
fn answered(response: &ProbeResponse) -> String {
    match response.error_code() {
        Some(code) => format!("HTTP {} with {code}", response.status),
        None if response.result().is_some() => format!("HTTP {} with a result", response.status),
        None => format!("HTTP {} without a JSON-RPC answer", response.status),
    }
}

/// Refused with exactly `status` and `code`.
fn refused(response: &ProbeResponse, status: u16, code: i64) -> Outcome {
    if response.status == status && response.error_code() == Some(code) {
        Outcome::Pass
    } else {
        Outcome::Fail {
            why: format!(
                "answered {}; the rule asks for HTTP {status} with {code}",
                answered(response)
            ),
        }
    }
}

/// Answered with the JSON-RPC error `code` (any HTTP status: the spec leaves it open).
fn error_code(response: &ProbeResponse, code: i64) -> Outcome {
    if response.error_code() == Some(code) {
        Outcome::Pass
    } else {
        Outcome::Fail {
            why: format!("answered {}; the rule asks for {code}", answered(response)),
        }
    }
}

fn discover(
    response: &ProbeResponse,
    evidence: usize,
    learned: &mut Learned,
) -> Vec<(CheckRule, Outcome, Vec<usize>)> {
    let result = response.result();
    let field = |name: &str| result.as_ref().and_then(|result| result.get(name)).cloned();
    let answers = match (field("supportedVersions"), field("capabilities")) {
        (Some(Value::Array(versions)), Some(capabilities @ Value::Object(_))) => {
            learned.capabilities = Some(capabilities);
            if versions.iter().any(|version| {
                version.as_str() == Some(crate::vocabulary::protocol::PROTOCOL_VERSION)
            }) {
                Outcome::Pass
            } else {
                Outcome::Fail {
                    why: format!(
                        "supportedVersions {} leaves out 2026-07-28",
                        Value::Array(versions)
                    ),
                }
            }
        }
        _ => Outcome::Fail {
            why: format!(
                "answered {}, without supportedVersions and capabilities",
                answered(response)
            ),
        },
    };
    let Some(result) = result else {
        let why = "there is no discover result to read".to_owned();
        return vec![
            (rules::DISCOVER_ANSWERS, answers, vec![evidence]),
            (
                rules::DISCOVER_CACHE,
                Outcome::NotApplicable { why: why.clone() },
                vec![evidence],
            ),
            (
                rules::DISCOVER_SERVER_INFO,
                Outcome::NotApplicable { why },
                vec![evidence],
            ),
        ];
    };
    let server_info = result
        .pointer("/_meta/io.modelcontextprotocol~1serverInfo/name")
        .and_then(Value::as_str)
        .map_or_else(
            || Outcome::Fail {
                why: "the result's _meta has no io.modelcontextprotocol/serverInfo with a name"
                    .to_owned(),
            },
            |_| Outcome::Pass,
        );
    vec![
        (rules::DISCOVER_ANSWERS, answers, vec![evidence]),
        (rules::DISCOVER_CACHE, cache_hints(&result), vec![evidence]),
        (rules::DISCOVER_SERVER_INFO, server_info, vec![evidence]),
    ]
}

/// `ttlMs` a number at least 0, `cacheScope` public or private.
fn cache_hints(result: &Value) -> Outcome {
    let ttl = result.get("ttlMs").and_then(Value::as_f64);
    let scope = result.get("cacheScope").and_then(Value::as_str);
    match (ttl, scope) {
        (Some(ttl), Some("public" | "private")) if ttl >= 0.0 => Outcome::Pass,
        _ => Outcome::Fail {
            why: format!(
                "ttlMs is {} and cacheScope is {}",
                result
                    .get("ttlMs")
                    .map_or("absent".to_owned(), Value::to_string),
                result
                    .get("cacheScope")
                    .map_or("absent".to_owned(), Value::to_string),
            ),
        },
    }
}

fn unsupported_version(response: &ProbeResponse) -> Outcome {
    let plain = refused(response, 400, -32022);
    if plain != Outcome::Pass {
        return plain;
    }
    let data = response
        .message()
        .and_then(|message| message.pointer("/error/data").cloned());
    let supported = data
        .as_ref()
        .and_then(|data| data.get("supported"))
        .is_some_and(Value::is_array);
    let requested = data
        .as_ref()
        .and_then(|data| data.get("requested"))
        .and_then(Value::as_str);
    match (supported, requested) {
        (true, Some(ANCIENT_VERSION)) => Outcome::Pass,
        _ => Outcome::Fail {
            why: format!(
                "-32022 came, but its data is {} (it needs supported, a list, and requested, \"{ANCIENT_VERSION}\")",
                data.map_or("absent".to_owned(), |data| data.to_string())
            ),
        },
    }
}

fn list_page(response: &ProbeResponse, evidence: usize, learned: &mut Learned) -> Judged {
    learned.pages.push(evidence);
    let Some(result) = response.result() else {
        let why = format!("a tools/list page was answered {}", answered(response));
        let fail = Outcome::Fail { why };
        let pages = learned.pages.clone();
        return (
            vec![
                (rules::LIST_CACHE, fail.clone(), pages.clone()),
                (rules::LIST_CURSORS, fail, pages),
            ],
            None,
        );
    };
    if learned.uncached_page.is_none() && cache_hints(&result) != Outcome::Pass {
        learned.uncached_page = Some(evidence);
    }
    let cursors = match result.get("nextCursor") {
        None => Some(Outcome::Pass),
        Some(Value::String(cursor)) if learned.cursors.contains(cursor) => Some(Outcome::Fail {
            why: format!(
                "page {} gave the cursor {cursor:?} again",
                learned.pages.len()
            ),
        }),
        Some(Value::String(cursor)) => {
            learned.cursors.push(cursor.clone());
            if learned.pages.len() < MAX_PAGES {
                return (
                    Vec::new(),
                    Some(Probe::ListPage {
                        cursor: Some(cursor.clone()),
                    }),
                );
            }
            Some(Outcome::Pass)
        }
        Some(other) => Some(Outcome::Fail {
            why: format!("nextCursor is {other}, not a string"),
        }),
    };
    let cache = match learned.uncached_page {
        None => Outcome::Pass,
        Some(page) => Outcome::Fail {
            why: format!("a page lacks ttlMs or cacheScope (exchange #{})", page + 1),
        },
    };
    let pages = learned.pages.clone();
    let mut verdicts = vec![(rules::LIST_CACHE, cache, pages.clone())];
    if let Some(cursors) = cursors {
        verdicts.push((rules::LIST_CURSORS, cursors, pages));
    }
    (verdicts, None)
}

fn get_refused(response: &ProbeResponse) -> Outcome {
    if response.status == 405 {
        Outcome::Pass
    } else {
        Outcome::Fail {
            why: format!("GET was answered with HTTP {}", response.status),
        }
    }
}

/// The comma-separated names of header `name`, lowercased.
fn listed(response: &ProbeResponse, name: &str) -> Vec<String> {
    response
        .header(name)
        .unwrap_or_default()
        .split(',')
        .map(|item| item.trim().to_ascii_lowercase())
        .filter(|item| !item.is_empty())
        .collect()
}

fn preflight(response: &ProbeResponse) -> Outcome {
    if !(200..300).contains(&response.status) {
        return Outcome::Fail {
            why: format!("the preflight was answered with HTTP {}", response.status),
        };
    }
    if response.header("Access-Control-Allow-Origin").is_none() {
        return Outcome::Fail {
            why: "the preflight's answer has no Access-Control-Allow-Origin".to_owned(),
        };
    }
    let allowed = listed(response, "Access-Control-Allow-Headers");
    let wildcard = allowed.iter().any(|item| item == "*");
    // `*` covers every header but Authorization (Fetch standard).
    let missing: Vec<&str> = BROWSER_HEADERS
        .iter()
        .copied()
        .filter(|header| !allowed.iter().any(|item| item == header))
        .filter(|header| !wildcard || *header == "authorization")
        .collect();
    if missing.is_empty() {
        Outcome::Pass
    } else {
        Outcome::Fail {
            why: format!(
                "Access-Control-Allow-Headers leaves out {}: a browser will not send the request",
                missing.join(", ")
            ),
        }
    }
}

fn exposes_www_authenticate(response: &ProbeResponse) -> Outcome {
    if response.header("Access-Control-Allow-Origin").is_none() {
        return Outcome::Fail {
            why: "the response has no Access-Control-Allow-Origin: a browser cannot read it at all"
                .to_owned(),
        };
    }
    let exposed = listed(response, "Access-Control-Expose-Headers");
    if exposed
        .iter()
        .any(|item| item == "www-authenticate" || item == "*")
    {
        Outcome::Pass
    } else {
        Outcome::Fail {
            why: "Access-Control-Expose-Headers leaves out WWW-Authenticate: a browser cannot read a 401's resource_metadata".to_owned(),
        }
    }
}
