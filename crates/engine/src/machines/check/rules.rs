//! The rules a server is checked against: each one a sentence of the specification (or, for
//! CORS, of the Fetch standard a browser client lives by), with how binding it is and where
//! it is written.

use serde::Serialize;

/// How binding a rule is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Level {
    Must,
    Should,
}

impl Level {
    pub fn name(self) -> &'static str {
        match self {
            Self::Must => "MUST",
            Self::Should => "SHOULD",
        }
    }
}

/// The part of the protocol a rule belongs to (the card groups by it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Area {
    Discovery,
    Versions,
    Headers,
    Errors,
    Pagination,
    Mrtr,
    Tasks,
    Transport,
    Cors,
}

impl Area {
    pub fn name(self) -> &'static str {
        match self {
            Self::Discovery => "Discovery",
            Self::Versions => "Versions",
            Self::Headers => "Routing headers",
            Self::Errors => "Errors",
            Self::Pagination => "Pagination and caching",
            Self::Mrtr => "Multi round-trip requests",
            Self::Tasks => "Tasks extension",
            Self::Transport => "Streamable HTTP",
            Self::Cors => "CORS (browser clients)",
        }
    }
}

/// One rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct CheckRule {
    /// Stable, for CI and for diffs between cards.
    pub id: &'static str,
    pub level: Level,
    pub area: Area,
    /// Where it is written: a page of the 2026-07-28 specification (under
    /// [`SPEC_BASE`]), or the standard named.
    pub section: &'static str,
    /// What the server must (or should) do, in one sentence.
    pub says: &'static str,
}

/// Where the 2026-07-28 specification's pages are.
pub const SPEC_BASE: &str = "https://modelcontextprotocol.io/specification/2026-07-28/";

impl CheckRule {
    /// The rule's page, as a link.
    pub fn link(&self) -> String {
        if self.section.starts_with("https://") {
            self.section.to_owned()
        } else {
            format!("{SPEC_BASE}{}", self.section)
        }
    }
}

const TRANSPORT: &str = "basic/transports/streamable-http";
const MRTR: &str = "basic/patterns/mrtr";
const FETCH_CORS: &str = "https://fetch.spec.whatwg.org/#http-cors-protocol";

macro_rules! rules {
    ($($name:ident = $id:literal, $level:ident, $area:ident, $section:expr, $says:literal;)*) => {
        $(pub const $name: CheckRule = CheckRule {
            id: $id,
            level: Level::$level,
            area: Area::$area,
            section: $section,
            says: $says,
        };)*
        /// Every rule, in the card's order.
        pub const ALL: &[CheckRule] = &[$($name),*];
    };
}

rules! {
    DISCOVER_ANSWERS = "discover.answers", Must, Discovery, "server/discover",
        "server/discover is answered with supportedVersions and capabilities.";
    DISCOVER_CACHE = "discover.cache-hints", Must, Discovery, "server/utilities/caching",
        "A cacheable result carries ttlMs (a number, at least 0) and cacheScope (public or private).";
    DISCOVER_SERVER_INFO = "discover.server-info", Should, Discovery, "server/discover",
        "The discover result names the server in _meta[\"io.modelcontextprotocol/serverInfo\"].";
    VERSION_UNSUPPORTED = "version.unsupported", Must, Versions, "basic/versioning",
        "An unsupported protocol version is refused with HTTP 400 and -32022, data naming the supported versions and the one requested.";
    HEADER_METHOD_MISMATCH = "headers.method-mismatch", Must, Headers, TRANSPORT,
        "A request whose Mcp-Method header disagrees with its body is refused with HTTP 400 and -32020.";
    HEADER_NAME_MISMATCH = "headers.name-mismatch", Must, Headers, TRANSPORT,
        "A tools/call whose Mcp-Name header disagrees with params.name is refused with HTTP 400 and -32020 (before the tool is looked up).";
    ERROR_UNKNOWN_METHOD = "errors.unknown-method", Must, Errors, TRANSPORT,
        "An unknown method is answered with HTTP 404 and -32601.";
    ERROR_MISSING_META = "errors.missing-meta", Must, Errors, "basic/index",
        "A request without its required _meta fields is refused with HTTP 400 and -32602.";
    LIST_CACHE = "pagination.cache-hints", Must, Pagination, "server/utilities/caching",
        "Each tools/list page carries ttlMs and cacheScope.";
    LIST_CURSORS = "pagination.cursors", Must, Pagination, "server/utilities/pagination",
        "Pages follow one another: each nextCursor is a string, and none comes twice.";
    LIST_INVALID_CURSOR = "pagination.invalid-cursor", Should, Pagination, "server/utilities/pagination",
        "A cursor the server never gave is refused with -32602.";
    MRTR_TAMPERED = "mrtr.tampered-state", Should, Mrtr, MRTR,
        "A retry whose requestState the client changed is not acted on (refused, or asked again).";
    MRTR_MISSING = "mrtr.missing-response", Should, Mrtr, MRTR,
        "A retry that leaves out a needed input response is asked again (input_required), not refused.";
    MRTR_EXTRA_KEY = "mrtr.extra-keys", Should, Mrtr, MRTR,
        "A retry with an input response nobody asked for is taken, the extra key ignored.";
    TASKS_REQUIRE_EXTENSION = "tasks.require-extension", Must, Tasks, "extensions/tasks",
        "tasks/* without the tasks extension declared on the request is refused with HTTP 400 and -32021.";
    TASKS_UNKNOWN = "tasks.unknown-task", Must, Tasks, "extensions/tasks",
        "tasks/get for a task the server does not know is refused with -32602.";
    TRANSPORT_GET = "transport.get-405", Should, Transport, TRANSPORT,
        "A 2026-07-28 endpoint answers GET with 405 (there is no GET stream).";
    CORS_PREFLIGHT = "cors.preflight", Should, Cors, FETCH_CORS,
        "The preflight allows every header a browser client sends (Content-Type, MCP-Protocol-Version, Mcp-Method, Mcp-Name, Mcp-Param-*, Authorization).";
    CORS_EXPOSE = "cors.expose-www-authenticate", Should, Cors, FETCH_CORS,
        "Responses expose WWW-Authenticate, so a browser client can read a 401's resource_metadata.";
}

/// The rule with `id`, if there is one.
pub fn rule(id: &str) -> Option<&'static CheckRule> {
    ALL.iter().find(|rule| rule.id == id)
}
