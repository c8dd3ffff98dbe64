//! Who is calling: the bearer-token user, or the one local user when no tokens are set.

/// The authenticated caller of one HTTP request.
///
/// The HTTP edge puts it into the request's extensions; MCP handlers read it back through
/// rmcp's `http::request::Parts`. Tasks and sealed `requestState` are bound to it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Principal(pub String);

impl Principal {
    /// The single user of a server that has no `--token` configured.
    pub const LOCAL: &'static str = "local";

    pub fn local() -> Self {
        Self(Self::LOCAL.to_owned())
    }

    pub fn name(&self) -> &str {
        &self.0
    }

    /// The caller of an MCP request, as the HTTP edge recorded it.
    pub fn of(context: &rmcp::service::RequestContext<rmcp::RoleServer>) -> Self {
        context
            .extensions
            .get::<http::request::Parts>()
            .and_then(|parts| parts.extensions.get::<Principal>())
            .cloned()
            .unwrap_or_else(Self::local)
    }
}
