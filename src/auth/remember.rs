//! "Remember sign-in on this browser": the tokens and client identities, in localStorage
//! under one key, only when the user ticked it. Unticked, nothing of a sign-in is written
//! anywhere (and what was written before is removed).

use holdbay_engine::auth::{ClientCredentials, TokenSet};
use serde::{Deserialize, Serialize};

use crate::split::{ChunkMissing, engine_work};

/// The one key a remembered sign-in lives under.
pub const KEY: &str = "holdbay/sign-in";

#[derive(Debug, Default, Serialize, Deserialize)]
pub struct Kept {
    #[serde(skip)]
    pub remembered: bool,
    pub tokens: Vec<(String, TokenSet)>,
    pub registered: Vec<ClientCredentials>,
}

/// Whether this browser remembers a sign-in (without reading it).
pub fn is_kept() -> bool {
    crate::storage::has(KEY)
}

engine_work! {
    /// [`load`], in the engine-work chunk: the first screen reads no tokens.
    pub fn load_kept() -> Result<Kept, ChunkMissing> {
        Ok(load())
    }
}

/// What this browser remembers (nothing unless the user asked).
pub fn load() -> Kept {
    match crate::storage::load::<Kept>(KEY) {
        Some(kept) => Kept {
            remembered: true,
            ..kept
        },
        None => Kept::default(),
    }
}

/// Keep `tokens` and `registered` when `remember`, else forget any kept before.
pub fn save(
    remember: bool,
    tokens: &[(String, TokenSet)],
    registered: &[ClientCredentials],
) -> Result<(), String> {
    if !remember {
        crate::storage::remove(KEY);
        return Ok(());
    }
    #[derive(Serialize)]
    struct Keeping<'a> {
        tokens: &'a [(String, TokenSet)],
        registered: &'a [ClientCredentials],
    }
    crate::storage::save(KEY, &Keeping { tokens, registered })
}
