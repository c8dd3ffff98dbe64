//! A request refused with an authorization challenge (401, or 403 with one), answered in
//! the engine-work chunk: the first screen only sees that the refusal was of that kind.
//! A demand for a DPoP nonce goes again at once with it; a challenge waits for a sign-in.

use std::future::Future;
use std::pin::Pin;

use holdbay_engine::ResponseError;

use super::Auth;
use crate::link::{Link, Refusal};
use crate::split::{ChunkMissing, engine_work};

/// Whether the refused request may go again.
pub type Answering = Pin<Box<dyn Future<Output = bool>>>;

engine_work! {
    /// [`answer`], in the engine-work chunk.
    pub fn answer_with(
        auth: Auth,
        link: Link,
        refusal: Refusal,
        nonce_sent: Option<String>,
    ) -> Result<Answering, ChunkMissing> {
        let (status, challenge, dpop_nonce) = refusal;
        let refusal = ResponseError::Unauthorized {
            status,
            challenge,
            dpop_nonce,
        };
        Ok(Box::pin(answer(auth, link, refusal, nonce_sent)))
    }
}

/// `nonce_sent`: the DPoP nonce the refused request's proof carried.
async fn answer(
    auth: Auth,
    link: Link,
    refusal: ResponseError,
    nonce_sent: Option<String>,
) -> bool {
    let server = link.connection_now().server;
    if let Some(nonce) = refusal.dpop_nonce_demand() {
        // A nonce the proof already carried is not obeyed again: the server refuses the
        // proof for another reason. (Requests sent side by side each get the demand; each
        // goes again with the nonce.)
        let again = nonce_sent.as_deref() != Some(nonce.as_str());
        auth.note_resource_nonce(&server, nonce);
        return again;
    }
    match refusal.sign_in_needed() {
        Some(needed) => auth.wait_for_sign_in(link, &server, needed).await,
        None => false,
    }
}
