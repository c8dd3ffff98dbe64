//! The sign-ins as the link sees them: [`Auth`] answers the link's [`SignIns`] questions.

use crate::link::{Later, Link, Refusal, SignIns};

use super::Auth;

impl SignIns for Auth {
    fn credentials_for(&self, server: String) -> Later<Vec<(String, String)>> {
        let auth = *self;
        Box::pin(async move { auth.credentials_for(&server).await })
    }

    fn resource_nonce(&self, server: &str) -> Option<String> {
        Auth::resource_nonce(self, server)
    }

    fn answer_refusal(
        &self,
        link: Link,
        refusal: Refusal,
        nonce_sent: Option<String>,
    ) -> Later<bool> {
        let auth = *self;
        Box::pin(async move { auth.answer_refusal(link, refusal, nonce_sent).await })
    }

    fn note_accepted(&self) {
        Auth::note_accepted(self);
    }
}
