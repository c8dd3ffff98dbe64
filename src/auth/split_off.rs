//! The page's sign-in work that only a signed-in page does, in the engine-work chunk.

use std::future::Future;
use std::pin::Pin;

use super::Auth;
use crate::split::{ChunkMissing, engine_work};

engine_work! {
    /// [`Auth::sign_out`], in the chunk: the first screen carries no writer of tokens.
    pub fn sign_out_with(
        auth: Auth,
        server: String,
    ) -> Result<Pin<Box<dyn Future<Output = ()>>>, ChunkMissing> {
        Ok(Box::pin(auth.forget(server)))
    }
}
