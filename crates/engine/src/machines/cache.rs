//! Honouring `ttlMs`/`cacheScope` on cacheable results (discover, lists, resources/read).

use std::collections::BTreeMap;

use rmcp::model::CacheScope;
use serde_json::Value;

use crate::builders::outgoing::OutgoingRequest;
use crate::vocabulary::method::McpMethod;

/// Who the client is acting for: private entries are never served across these.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct AuthContext(pub String);

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Key {
    method: &'static str,
    /// The params as canonical JSON (`_meta` is not part of them).
    params: String,
    /// `None` for public entries.
    auth: Option<AuthContext>,
}

#[derive(Debug, Clone)]
struct Entry {
    raw_result: Value,
    fresh_until_ms: u64,
}

/// Cached `result` objects, fresh while `now < received + ttlMs`.
#[derive(Debug, Clone, Default)]
pub struct ResultCache {
    entries: BTreeMap<Key, Entry>,
}

fn params_key<M: McpMethod>(params: &M::Params) -> Option<String> {
    let value = serde_json::to_value(params).ok()?;
    // MRTR retries are never cached.
    let is_retry = value.get("inputResponses").is_some() || value.get("requestState").is_some();
    (!is_retry).then(|| value.to_string())
}

impl ResultCache {
    /// Keep a `complete` result of a cacheable method. Results without a positive `ttlMs`
    /// are stale at once and are not kept.
    pub fn store<M: McpMethod>(
        &mut self,
        request: &OutgoingRequest<M>,
        raw_result: &Value,
        auth: &AuthContext,
        now_ms: u64,
    ) {
        if !M::CACHEABLE || raw_result.get("resultType").and_then(Value::as_str) != Some("complete")
        {
            return;
        }
        let Some(params) = params_key::<M>(request.params()) else {
            return;
        };
        let ttl = raw_result
            .get("ttlMs")
            .and_then(Value::as_i64)
            .unwrap_or(0)
            .max(0) as u64;
        if ttl == 0 {
            return;
        }
        let scope: CacheScope = raw_result
            .get("cacheScope")
            .and_then(|v| serde_json::from_value(v.clone()).ok())
            .unwrap_or(CacheScope::Private);
        let auth = (scope != CacheScope::Public).then(|| auth.clone());
        self.entries.insert(
            Key {
                method: M::name(),
                params,
                auth,
            },
            Entry {
                raw_result: raw_result.clone(),
                fresh_until_ms: now_ms.saturating_add(ttl),
            },
        );
    }

    /// A fresh cached result for these params, if any.
    pub fn get<M: McpMethod>(
        &self,
        params: &M::Params,
        auth: &AuthContext,
        now_ms: u64,
    ) -> Option<&Value> {
        let params = params_key::<M>(params)?;
        [Some(auth.clone()), None].into_iter().find_map(|auth| {
            self.entries
                .get(&Key {
                    method: M::name(),
                    params: params.clone(),
                    auth,
                })
                .filter(|entry| now_ms < entry.fresh_until_ms)
                .map(|entry| &entry.raw_result)
        })
    }

    /// Drop every entry of a method (on `list_changed`, or an invalid cursor).
    pub fn invalidate(&mut self, method: &str) {
        self.entries.retain(|key, _| key.method != method);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builders::client::Client;
    use crate::vocabulary::method::{Discover, ListTools};
    use serde_json::json;

    fn discover_result(ttl: i64, scope: &str) -> Value {
        json!({"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{},
               "ttlMs":ttl,"cacheScope":scope})
    }

    #[test]
    fn fresh_until_ttl_then_stale() {
        let mut cache = ResultCache::default();
        let request = Client::default().discover();
        let me = AuthContext("alice".into());
        cache.store(&request, &discover_result(1000, "public"), &me, 10);
        assert!(cache.get::<Discover>(request.params(), &me, 1009).is_some());
        assert!(cache.get::<Discover>(request.params(), &me, 1010).is_none());
    }

    #[test]
    fn private_entries_are_not_shared_across_auth_contexts() {
        let mut cache = ResultCache::default();
        let request = Client::default().discover();
        cache.store(
            &request,
            &discover_result(1000, "private"),
            &AuthContext("alice".into()),
            0,
        );
        assert!(
            cache
                .get::<Discover>(request.params(), &AuthContext("alice".into()), 1)
                .is_some()
        );
        assert!(
            cache
                .get::<Discover>(request.params(), &AuthContext("bob".into()), 1)
                .is_none()
        );
    }

    #[test]
    fn zero_ttl_and_other_params_are_never_served() {
        let mut cache = ResultCache::default();
        let mut client = Client::default();
        let me = AuthContext::default();
        let first = client.list_tools(None);
        cache.store(
            &first,
            &json!({"resultType":"complete","tools":[],"ttlMs":0,"cacheScope":"public"}),
            &me,
            0,
        );
        assert!(cache.get::<ListTools>(first.params(), &me, 0).is_none());
        cache.store(
            &first,
            &json!({"resultType":"complete","tools":[],"ttlMs":500,"cacheScope":"public"}),
            &me,
            0,
        );
        let page_two = client.list_tools(Some("2".into()));
        assert!(cache.get::<ListTools>(page_two.params(), &me, 1).is_none());
        cache.invalidate("tools/list");
        assert!(cache.get::<ListTools>(first.params(), &me, 1).is_none());
    }

    #[test]
    fn mrtr_retries_are_never_cached() {
        use crate::vocabulary::method::ReadResource;
        let mut client = Client::default();
        let mut params = rmcp::model::ReadResourceRequestParams::new("file:///a");
        params.request_state = Some("s".into());
        let retry = client.request::<ReadResource>(params, &Default::default());
        let mut cache = ResultCache::default();
        let me = AuthContext::default();
        cache.store(
            &retry,
            &json!({"resultType":"complete","contents":[],"ttlMs":1000,"cacheScope":"public"}),
            &me,
            0,
        );
        assert!(cache.get::<ReadResource>(retry.params(), &me, 1).is_none());
    }
}
