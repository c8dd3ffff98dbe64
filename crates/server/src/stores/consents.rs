//! The book where `connect_account`'s consent answers go: opened by the tool, decided on
//! the consent page (`crate::demo::consent`). In-memory on purpose: a consent is as
//! short-lived as the sealed state that names it.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use rmcp::ErrorData;

/// How long an unanswered consent request stays open.
const CONSENT_TTL: Duration = Duration::from_secs(10 * 60);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Consent {
    Pending,
    Granted,
    Denied,
}

#[derive(Debug)]
struct Entry {
    principal: String,
    provider: String,
    consent: Consent,
    opened: Instant,
}

#[derive(Debug, Default)]
pub struct ConsentBook {
    entries: Mutex<HashMap<String, Entry>>,
}

impl ConsentBook {
    /// Open a consent request; returns its unguessable nonce.
    pub fn open(&self, principal: &str, provider: &str) -> Result<String, ErrorData> {
        let mut bytes = [0u8; 16];
        getrandom::fill(&mut bytes)
            .map_err(|error| ErrorData::internal_error(format!("no randomness: {error}"), None))?;
        let nonce = hex::encode(bytes);
        let mut entries = self.lock();
        entries.retain(|_, entry| entry.opened.elapsed() < CONSENT_TTL);
        entries.insert(
            nonce.clone(),
            Entry {
                principal: principal.to_owned(),
                provider: provider.to_owned(),
                consent: Consent::Pending,
                opened: Instant::now(),
            },
        );
        Ok(nonce)
    }

    /// The answer so far, if the request exists, is fresh and belongs to `principal`.
    pub fn state(&self, nonce: &str, principal: &str) -> Option<Consent> {
        self.lock()
            .get(nonce)
            .filter(|entry| entry.principal == principal && entry.opened.elapsed() < CONSENT_TTL)
            .map(|entry| entry.consent)
    }

    /// The provider asked about and the answer so far, while the request is fresh.
    pub fn provider(&self, nonce: &str) -> Option<(String, Consent)> {
        self.lock()
            .get(nonce)
            .filter(|entry| entry.opened.elapsed() < CONSENT_TTL)
            .map(|entry| (entry.provider.clone(), entry.consent))
    }

    /// Record the answer; the provider it was for, while the request is fresh.
    pub fn decide(&self, nonce: &str, consent: Consent) -> Option<String> {
        let mut entries = self.lock();
        let entry = entries
            .get_mut(nonce)
            .filter(|entry| entry.opened.elapsed() < CONSENT_TTL)?;
        entry.consent = consent;
        Some(entry.provider.clone())
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Entry>> {
        self.entries
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}
