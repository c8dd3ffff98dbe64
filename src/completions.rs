//! `completion/complete`: the suggestions a server offers for one argument of a prompt or a
//! resource template, given what was typed and the other arguments filled in so far.

use std::collections::BTreeMap;

use holdbay_engine::CompletionTarget;

use crate::link::Link;

/// The server's suggestions (at most 100, as the spec caps them), or why there are none.
pub async fn suggest(
    link: Link,
    target: CompletionTarget,
    argument: String,
    typed: String,
    context: BTreeMap<String, String>,
) -> Result<Vec<String>, String> {
    let request = link
        .build(|client| client.complete(&target, &argument, &typed, &context))
        .ok_or_else(|| "the app is closing".to_owned())?;
    let reply = link.exchange(&request).await.map_err(|e| e.to_string())?;
    let mut values = reply.result.completion.values;
    values.truncate(100);
    Ok(values)
}
