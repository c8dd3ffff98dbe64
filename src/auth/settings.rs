//! How this app presents itself to authorization servers: a pre-registered client id and
//! secret, a Client ID Metadata Document URL, the redirect URI, and whether sign-ins are
//! remembered. Typed under "Headers and limits"; they apply to the next sign-in.

use holdbay_engine::auth::{
    APP_CALLBACK_PATH, APP_CLIENT_METADATA_PATH, ApplicationType, AuthClientConfig,
    ClientCredentials, PreRegisteredClient,
};

#[derive(Debug, Clone, PartialEq, Default)]
pub struct SignInSettings {
    /// A client id registered by hand at the authorization server (empty: none).
    pub client_id: String,
    pub client_secret: String,
    /// The HTTPS URL of this client's metadata document (empty: the app's own when it is
    /// served over HTTPS, else none).
    pub client_metadata_url: String,
    /// Empty: the app's own callback route on this origin.
    pub redirect_uri: String,
    /// Keep tokens and client credentials in this browser's localStorage.
    pub remember: bool,
}

impl SignInSettings {
    pub fn restore(remember: bool) -> Self {
        Self {
            remember,
            ..Self::default()
        }
    }

    /// The redirect URI the flow uses: the typed one, else `<origin>/oauth/callback`.
    pub fn redirect_uri_or_default(&self) -> String {
        match self.redirect_uri.trim() {
            "" => format!("{}{APP_CALLBACK_PATH}", page_origin()),
            typed => typed.to_owned(),
        }
    }

    /// The metadata document URL the flow offers: the typed one, else the app's own when
    /// the page is HTTPS (a client id must be an HTTPS URL).
    pub fn client_metadata_url_or_default(&self) -> Option<String> {
        match self.client_metadata_url.trim() {
            "" => {
                let origin = page_origin();
                origin
                    .starts_with("https://")
                    .then(|| format!("{origin}{APP_CLIENT_METADATA_PATH}"))
            }
            typed => Some(typed.to_owned()),
        }
    }

    /// The engine's view of the client, with the identities registered so far.
    pub fn config(&self, registered: Vec<ClientCredentials>) -> AuthClientConfig {
        let client_id = self.client_id.trim();
        let secret = self.client_secret.trim();
        AuthClientConfig {
            redirect_uri: self.redirect_uri_or_default(),
            client_name: "Holdbay".to_owned(),
            client_metadata_url: self.client_metadata_url_or_default(),
            pre_registered: (!client_id.is_empty()).then(|| PreRegisteredClient {
                issuer: None,
                client_id: client_id.to_owned(),
                client_secret: (!secret.is_empty()).then(|| secret.to_owned()),
            }),
            registered,
            application_type: ApplicationType::Web,
            want_refresh: true,
            dpop: super::dpop::available(),
        }
    }
}

/// `https://host:port` of this page.
pub fn page_origin() -> String {
    web_sys::window()
        .and_then(|window| window.location().origin().ok())
        .unwrap_or_default()
}
