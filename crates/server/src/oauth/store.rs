//! The authorization server's memory: registered clients, consent requests waiting for a
//! decision, authorization codes, access and refresh tokens. Every store is bounded, and
//! expired entries are dropped before a full store refuses a new one, so no client can grow
//! memory without limit. Secrets are kept only as SHA-256 digests and looked up by digest:
//! the lookup's timing depends on the digest, never on how much of a guess was right.

use std::collections::HashMap;
use std::time::Instant;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use sha2::{Digest, Sha256};

pub const MAX_CLIENTS: usize = 1000;
pub const MAX_PENDING: usize = 1000;
pub const MAX_CODES: usize = 1000;
pub const MAX_TOKENS: usize = 10_000;

pub type SecretDigest = [u8; 32];

/// A fresh opaque secret: 32 random bytes, base64url.
pub fn random_secret() -> Result<String, getrandom::Error> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes)?;
    Ok(URL_SAFE_NO_PAD.encode(bytes))
}

pub fn digest(secret: &str) -> SecretDigest {
    Sha256::digest(secret.as_bytes()).into()
}

/// How a client proves itself at the token endpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClientAuth {
    None,
    SecretPost,
    SecretBasic,
}

impl ClientAuth {
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "none" => Some(Self::None),
            "client_secret_post" => Some(Self::SecretPost),
            "client_secret_basic" => Some(Self::SecretBasic),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Self::None => "none",
            Self::SecretPost => "client_secret_post",
            Self::SecretBasic => "client_secret_basic",
        }
    }
}

/// A client that registered (RFC 7591), or the app's own metadata document.
#[derive(Debug, Clone)]
pub struct Client {
    pub id: String,
    pub name: String,
    pub redirect_uris: Vec<String>,
    pub auth: ClientAuth,
    pub secret_digest: Option<SecretDigest>,
}

/// An authorization request shown on the consent page, waiting for Allow or Deny.
#[derive(Debug, Clone)]
pub struct Pending {
    pub client_id: String,
    pub redirect_uri: String,
    pub scopes: Vec<String>,
    pub state: Option<String>,
    pub code_challenge: String,
    pub resource: String,
    pub issuer: String,
    pub expires: Instant,
}

/// What a code, an access token or a refresh token was granted for.
#[derive(Debug, Clone)]
pub struct Grant {
    pub client_id: String,
    pub scopes: Vec<String>,
    pub resource: String,
}

#[derive(Debug, Clone)]
pub struct Code {
    pub grant: Grant,
    pub redirect_uri: String,
    pub code_challenge: String,
    pub expires: Instant,
}

#[derive(Debug, Clone)]
pub struct IssuedToken {
    pub grant: Grant,
    pub expires: Instant,
}

/// A store is full even after its expired entries went.
#[derive(Debug, Clone, Copy)]
pub struct Full;

/// An entry that stops being valid at a moment.
pub trait Expiring {
    fn expires(&self) -> Instant;
}

impl Expiring for Pending {
    fn expires(&self) -> Instant {
        self.expires
    }
}

impl Expiring for Code {
    fn expires(&self) -> Instant {
        self.expires
    }
}

impl Expiring for IssuedToken {
    fn expires(&self) -> Instant {
        self.expires
    }
}

/// Entries keyed by their secret's digest, at most `max` of them: a full table first drops
/// its expired entries, then refuses.
#[derive(Debug)]
struct SecretTable<V> {
    entries: HashMap<SecretDigest, V>,
    max: usize,
}

impl<V: Expiring> SecretTable<V> {
    fn new(max: usize) -> Self {
        Self {
            entries: HashMap::new(),
            max,
        }
    }

    fn add(&mut self, secret: &str, value: V, now: Instant) -> Result<(), Full> {
        if self.entries.len() >= self.max {
            self.entries.retain(|_, entry| entry.expires() > now);
        }
        if self.entries.len() >= self.max {
            return Err(Full);
        }
        self.entries.insert(digest(secret), value);
        Ok(())
    }

    /// The live entry of `secret`.
    fn get(&self, secret: &str, now: Instant) -> Option<&V> {
        self.entries
            .get(&digest(secret))
            .filter(|entry| entry.expires() > now)
    }

    /// The entry of `secret`, removed whether or not it is still live: used at most once.
    fn take(&mut self, secret: &str, now: Instant) -> Option<V> {
        self.entries
            .remove(&digest(secret))
            .filter(|entry| entry.expires() > now)
    }
}

#[derive(Debug)]
pub struct Stores {
    pub clients: HashMap<String, Client>,
    pending: SecretTable<Pending>,
    codes: SecretTable<Code>,
    access: SecretTable<IssuedToken>,
    refresh: SecretTable<IssuedToken>,
}

impl Default for Stores {
    fn default() -> Self {
        Self {
            clients: HashMap::new(),
            pending: SecretTable::new(MAX_PENDING),
            codes: SecretTable::new(MAX_CODES),
            access: SecretTable::new(MAX_TOKENS),
            refresh: SecretTable::new(MAX_TOKENS),
        }
    }
}

impl Stores {
    pub fn add_client(&mut self, client: Client) -> Result<(), Full> {
        if self.clients.len() >= MAX_CLIENTS {
            return Err(Full);
        }
        self.clients.insert(client.id.clone(), client);
        Ok(())
    }

    pub fn add_pending(&mut self, id: &str, pending: Pending, now: Instant) -> Result<(), Full> {
        self.pending.add(id, pending, now)
    }

    /// The pending request `id`, removed: a decision is made once.
    pub fn take_pending(&mut self, id: &str, now: Instant) -> Option<Pending> {
        self.pending.take(id, now)
    }

    pub fn add_code(&mut self, code: &str, record: Code, now: Instant) -> Result<(), Full> {
        self.codes.add(code, record, now)
    }

    /// The code, removed whatever happens next: a code is used at most once.
    pub fn take_code(&mut self, code: &str, now: Instant) -> Option<Code> {
        self.codes.take(code, now)
    }

    pub fn add_access(
        &mut self,
        token: &str,
        record: IssuedToken,
        now: Instant,
    ) -> Result<(), Full> {
        self.access.add(token, record, now)
    }

    /// The live access token's grant.
    pub fn access(&self, token: &str, now: Instant) -> Option<&IssuedToken> {
        self.access.get(token, now)
    }

    pub fn add_refresh(
        &mut self,
        token: &str,
        record: IssuedToken,
        now: Instant,
    ) -> Result<(), Full> {
        self.refresh.add(token, record, now)
    }

    /// The refresh token, removed: rotation makes every refresh token single-use.
    pub fn take_refresh(&mut self, token: &str, now: Instant) -> Option<IssuedToken> {
        self.refresh.take(token, now)
    }
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use super::{Grant, IssuedToken, MAX_TOKENS, Stores};

    fn token(expires: Instant) -> IssuedToken {
        IssuedToken {
            grant: Grant {
                client_id: "c".to_owned(),
                scopes: Vec::new(),
                resource: "r".to_owned(),
            },
            expires,
        }
    }

    #[test]
    fn a_full_store_drops_expired_entries_then_refuses() {
        let now = Instant::now();
        let mut stores = Stores::default();
        for index in 0..MAX_TOKENS {
            let expires = if index == 0 {
                now
            } else {
                now + Duration::from_secs(60)
            };
            assert!(
                stores
                    .add_access(&index.to_string(), token(expires), now)
                    .is_ok()
            );
        }
        assert!(
            stores
                .add_access("one more", token(now + Duration::from_secs(60)), now)
                .is_ok()
        );
        assert!(
            stores
                .add_access("too many", token(now + Duration::from_secs(60)), now)
                .is_err()
        );
        assert!(stores.access("one more", now).is_some());
        assert!(stores.access("0", now).is_none());
    }

    #[test]
    fn refresh_tokens_are_single_use() {
        let now = Instant::now();
        let mut stores = Stores::default();
        assert!(
            stores
                .add_refresh("r1", token(now + Duration::from_secs(60)), now)
                .is_ok()
        );
        assert!(stores.take_refresh("r1", now).is_some());
        assert!(stores.take_refresh("r1", now).is_none());
    }
}
