//! What the link asks of the page's sign-ins, as a trait the sign-ins (`crate::auth`)
//! implement: the link stays below them and never names them.

use std::future::Future;
use std::pin::Pin;

use super::Link;

/// What a refusal that asks for authorization said: its status, its `WWW-Authenticate` and
/// its `DPoP-Nonce`.
pub type Refusal = (u16, String, Option<String>);

/// A future the link awaits on the page's one thread.
pub type Later<T> = Pin<Box<dyn Future<Output = T>>>;

/// The sign-ins each exchange consults: what it carries, and what a refusal leads to.
pub trait SignIns {
    /// The headers each request to `server` carries (`Authorization`, a DPoP proof).
    fn credentials_for(&self, server: String) -> Later<Vec<(String, String)>>;

    /// The DPoP nonce `server` last demanded.
    fn resource_nonce(&self, server: &str) -> Option<String>;

    /// A request was refused with `refusal`: `true` when it may go again.
    /// `nonce_sent`: the DPoP nonce its proof carried.
    fn answer_refusal(
        &self,
        link: Link,
        refusal: Refusal,
        nonce_sent: Option<String>,
    ) -> Later<bool>;

    /// A request with the current credentials was accepted.
    fn note_accepted(&self);
}
