//! Progress notifications that arrive on a request's own event stream.

use rmcp::model::{ProgressNotificationParam, ProgressToken};
use serde_json::Value;

/// The `notifications/progress` for `token` among a response's notifications, in order.
pub fn progress_updates(
    notifications: &[Value],
    token: &ProgressToken,
) -> Vec<ProgressNotificationParam> {
    notifications
        .iter()
        .filter(|n| n.get("method").and_then(Value::as_str) == Some("notifications/progress"))
        .filter_map(|n| {
            serde_json::from_value::<ProgressNotificationParam>(n.get("params")?.clone()).ok()
        })
        .filter(|p| &p.progress_token == token)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rmcp::model::NumberOrString;
    use serde_json::json;

    #[test]
    fn only_this_requests_progress_is_kept() {
        let token = ProgressToken(NumberOrString::String("p1".into()));
        let notes = vec![
            json!({"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p1","progress":0,"total":100}}),
            json!({"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}),
            json!({"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"other","progress":5}}),
            json!({"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p1","progress":50.5,"message":"half"}}),
        ];
        let updates = progress_updates(&notes, &token);
        assert_eq!(updates.len(), 2);
        assert_eq!(updates[1].progress, 50.5);
        assert_eq!(updates[1].message.as_deref(), Some("half"));
    }
}
