//! `requestState` the client can carry but not forge: sealed with rmcp's HMAC codec,
//! bound to the user, the tool and its arguments, and valid for a limited time.

use std::fmt;
use std::path::Path;
use std::time::Duration;

use anyhow::Context;
use rmcp::ErrorData;
use rmcp::model::{JsonObject, RequestStateCodec, RequestStateError, SealOptions};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use sha2::{Digest, Sha256};

/// The file in the data dir that holds the generated key.
pub const KEY_FILE: &str = "state.key";

/// What a sealed state is bound to: replaying it for another user, tool or set of
/// arguments fails verification.
#[derive(Debug, Clone, Copy)]
pub struct Binding<'a> {
    pub principal: &'a str,
    pub tool: &'a str,
    pub arguments: Option<&'a JsonObject>,
}

impl Binding<'_> {
    fn associated_data(&self) -> Vec<u8> {
        let arguments = self
            .arguments
            .map(|arguments| canonical_json(&Value::Object(arguments.clone())));
        let digest = Sha256::digest(arguments.unwrap_or_default().as_bytes());
        format!(
            "holdbay/state/v1\0{}\0{}\0{}",
            self.principal,
            self.tool,
            hex::encode(digest)
        )
        .into_bytes()
    }
}

pub struct StateSealer {
    codec: RequestStateCodec,
    ttl: Duration,
}

impl fmt::Debug for StateSealer {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter
            .debug_struct("StateSealer")
            .field("ttl", &self.ttl)
            .finish_non_exhaustive()
    }
}

impl StateSealer {
    pub fn new(key: &[u8], ttl: Duration) -> anyhow::Result<Self> {
        let codec = RequestStateCodec::try_new(key.to_vec())
            .context("the requestState key is not usable")?;
        Ok(Self { codec, ttl })
    }

    /// Seal `payload` for this binding.
    pub fn seal<T: Serialize>(
        &self,
        binding: Binding<'_>,
        payload: &T,
    ) -> Result<String, ErrorData> {
        let associated = binding.associated_data();
        self.codec
            .seal_json_with(
                payload,
                &SealOptions::new()
                    .associated_data(&associated)
                    .ttl(self.ttl),
            )
            .map_err(|error| ErrorData::internal_error(error.to_string(), None))
    }

    /// Open a state the client echoed; every failure is a clear `-32602`.
    pub fn open<T: DeserializeOwned>(
        &self,
        binding: Binding<'_>,
        sealed: &str,
    ) -> Result<T, ErrorData> {
        let associated = binding.associated_data();
        self.codec
            .open_json_with(sealed, &associated)
            .map_err(|error| {
                let reason = match error {
                    RequestStateError::Expired => {
                        "requestState has expired; start the call again without it"
                    }
                    RequestStateError::IntegrityCheckFailed => {
                        "requestState failed integrity verification: it was altered, or it \
                         belongs to another user, tool or set of arguments"
                    }
                    _ => "requestState is malformed: send back exactly what the server gave",
                };
                ErrorData::invalid_params(reason, None)
            })
    }
}

/// The key from `--state-key`/`HOLDBAY_STATE_KEY`, else `data_dir/state.key`, created
/// with 32 random bytes on first run (readable by the owner only).
pub fn load_or_create_key(given: Option<&str>, data_dir: &Path) -> anyhow::Result<Vec<u8>> {
    if let Some(key) = given {
        anyhow::ensure!(
            key.len() >= RequestStateCodec::MIN_KEY_LENGTH,
            "the requestState key must be at least {} bytes",
            RequestStateCodec::MIN_KEY_LENGTH
        );
        return Ok(key.as_bytes().to_vec());
    }
    let path = data_dir.join(KEY_FILE);
    if let Ok(text) = std::fs::read_to_string(&path) {
        let key = hex::decode(text.trim())
            .with_context(|| format!("{} is not a hex key", path.display()))?;
        anyhow::ensure!(
            key.len() >= RequestStateCodec::MIN_KEY_LENGTH,
            "{} holds a key shorter than {} bytes",
            path.display(),
            RequestStateCodec::MIN_KEY_LENGTH
        );
        return Ok(key);
    }
    let mut key = vec![0u8; 32];
    getrandom::fill(&mut key).map_err(|error| anyhow::anyhow!("no randomness: {error}"))?;
    write_private(&path, hex::encode(&key).as_bytes())
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(key)
}

#[cfg(unix)]
fn write_private(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)?;
    file.write_all(contents)
}

#[cfg(not(unix))]
fn write_private(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    std::fs::write(path, contents)
}

/// JSON with object keys sorted at every level, so equal arguments bind equally.
fn canonical_json(value: &Value) -> String {
    fn sorted(value: &Value) -> Value {
        match value {
            Value::Object(map) => {
                let mut entries: Vec<_> = map.iter().collect();
                entries.sort_by(|left, right| left.0.cmp(right.0));
                Value::Object(
                    entries
                        .into_iter()
                        .map(|(key, value)| (key.clone(), sorted(value)))
                        .collect(),
                )
            }
            Value::Array(items) => Value::Array(items.iter().map(sorted).collect()),
            other => other.clone(),
        }
    }
    sorted(value).to_string()
}

#[cfg(test)]
mod tests;
