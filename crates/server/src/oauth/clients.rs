//! Which client a `client_id` names: one registered here, or the app's own Client ID
//! Metadata Document when the id is that document's URL on this server's own origin. A
//! metadata URL anywhere else is refused, never fetched: this demo server reaches out to
//! nobody (no SSRF).

use super::store::{Client, ClientAuth};
use super::{AuthServer, CALLBACK_PATH, CLIENT_METADATA_PATH};

/// Why a `client_id` names no client this server will serve.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UnknownClient {
    Missing,
    NotRegistered(String),
    ForeignMetadata(String),
}

impl UnknownClient {
    pub fn message(&self) -> String {
        match self {
            Self::Missing => "The client sent no client_id.".to_owned(),
            Self::NotRegistered(id) => format!(
                "The client_id {id} is not registered with this authorization server \
                 (it forgets its clients when holdbay restarts): register again at \
                 /oauth/register."
            ),
            Self::ForeignMetadata(id) => format!(
                "The client_id {id} is a Client ID Metadata Document URL on another origin. \
                 This demo authorization server fetches nothing from other servers, so it \
                 accepts only its own app's document and registered clients."
            ),
        }
    }
}

impl AuthServer {
    /// The client `client_id` names, for a request that reached this server at `origin`.
    pub fn client(&self, origin: &str, client_id: Option<&str>) -> Result<Client, UnknownClient> {
        let Some(id) = client_id.filter(|id| !id.is_empty()) else {
            return Err(UnknownClient::Missing);
        };
        if id == format!("{origin}{CLIENT_METADATA_PATH}") {
            return Ok(Client {
                id: id.to_owned(),
                name: "Holdbay".to_owned(),
                redirect_uris: vec![format!("{origin}{CALLBACK_PATH}")],
                auth: ClientAuth::None,
                secret_digest: None,
            });
        }
        if id.starts_with("https://") || id.starts_with("http://") {
            return Err(UnknownClient::ForeignMetadata(id.to_owned()));
        }
        self.stores()
            .clients
            .get(id)
            .cloned()
            .ok_or_else(|| UnknownClient::NotRegistered(id.to_owned()))
    }
}
