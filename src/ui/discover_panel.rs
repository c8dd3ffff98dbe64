//! What `server/discover` said: identity, versions, capabilities, instructions; or why no
//! protocol revision could be agreed on.

use holdbay_engine::model::DiscoverResult;
use holdbay_engine::protocol::PROTOCOL_VERSION;
use holdbay_engine::{
    CLIENT_VERSIONS, LATEST_LEGACY_VERSION, NameMarks, Shown, VersionMismatch, server_name_marks,
};
use leptos::prelude::*;
use serde_json::Value;

use super::names::{ShownText, flags_of};

/// One advertised capability, with the flags it sets to `true`.
#[derive(Debug, Clone, PartialEq)]
struct CapabilityChip {
    name: String,
    flags: Vec<String>,
    is_extension: bool,
}

/// Flatten the capabilities object for display, extensions listed by id.
fn capability_chips(capabilities: &Value) -> Vec<CapabilityChip> {
    let Some(map) = capabilities.as_object() else {
        return Vec::new();
    };
    let mut chips = Vec::new();
    for (name, value) in map {
        let nested = value.as_object();
        if name == "extensions" || name == "experimental" {
            for id in nested.into_iter().flat_map(|m| m.keys()) {
                chips.push(CapabilityChip {
                    name: id.clone(),
                    flags: Vec::new(),
                    is_extension: true,
                });
            }
            continue;
        }
        let flags = nested
            .into_iter()
            .flat_map(|m| m.iter())
            .filter(|(_, v)| v.as_bool() == Some(true))
            .map(|(flag, _)| flag.clone())
            .collect();
        chips.push(CapabilityChip {
            name: name.clone(),
            flags,
            is_extension: false,
        });
    }
    chips
}

/// `fell_back`: set when the server speaks a legacy revision, saying why Holdbay opened a
/// session with `initialize`; the card then shows what that session agreed.
#[component]
pub fn DiscoverPanel(
    result: DiscoverResult,
    #[prop(optional_no_strip)] fell_back: Option<String>,
) -> impl IntoView {
    let info = result.server_info();
    // The title, else the name, as shown; the machine name too when a title hides it.
    let (identity, flags) = match (&info, server_name_marks(&result)) {
        (Some(info), Some(marks)) => {
            let flags = flags_of(&marks, "server", &info.name);
            let NameMarks { name, title, .. } = marks;
            let titled = info.title.as_ref().is_some_and(|title| *title != info.name);
            let (shown, id_name) = match title {
                Some(title) if titled => (title, Some(name)),
                _ => (name, None),
            };
            let identity = view! {
                <span id="server-name" class="shown-name"><ShownText shown=shown /></span>
                " "
                <span class="server-id shown-name">{id_name.map(|id| view! { <ShownText shown=id /> })}</span>
            };
            (identity.into_any(), Some(flags))
        }
        _ => (
            view! { <span id="server-name">"(the server did not name itself)"</span> }.into_any(),
            None,
        ),
    };
    let version = info
        .as_ref()
        .map(|i| Shown::of(&i.version).text())
        .unwrap_or_default();
    let versions: Vec<String> = result
        .supported_versions
        .iter()
        .map(|v| v.to_string())
        .collect();
    let chips = capability_chips(&serde_json::to_value(&result.capabilities).unwrap_or_default());
    let freshness = match result.ttl_ms {
        0 => "not to be reused (ttlMs 0)".to_owned(),
        ms => format!(
            "fresh for {} (ttlMs {ms})",
            crate::ui::format::exact_duration(ms)
        ),
    };
    let scope = match result.cache_scope {
        holdbay_engine::model::CacheScope::Public => "public: any client may share it",
        _ => "private: for this user only",
    };

    // The one line: who it is, the revision in common, what it offers. The rest on request.
    let legacy = fell_back.is_some();
    let speaks = if legacy {
        versions.first().cloned()
    } else {
        versions
            .iter()
            .any(|v| v == PROTOCOL_VERSION)
            .then(|| PROTOCOL_VERSION.to_owned())
    };
    let offers = chips
        .iter()
        .filter(|chip| !chip.is_extension)
        .map(|chip| chip.name.as_str())
        .collect::<Vec<_>>()
        .join(", ");
    let open = crate::ui::UiState::current().server_card_open();
    // A name that hides characters or passes for another is not for a folded line.
    if server_name_marks(&result).is_some_and(|marks| marks.is_flagged()) {
        open.set(true);
    }

    view! {
        <details
            class="panel server-card"
            id="discover-panel"
            prop:open=move || open.get()
            on:toggle=move |event| {
                use wasm_bindgen::JsCast;
                let opened = event
                    .target()
                    .and_then(|target| target.dyn_into::<web_sys::Element>().ok())
                    .is_some_and(|details| details.has_attribute("open"));
                if opened != open.get_untracked() {
                    open.set(opened);
                }
            }
        >
            <summary class="server-line">
                <h2>"Server"</h2>
                <span class="server-identity">
                    {identity}
                    " "
                    <span id="server-version">{version}</span>
                </span>
                {speaks.map(|v| view! { <span class="chip ours">{v}</span> })}
                {legacy.then(|| view! {
                    <span class="chip era-legacy" id="era-chip" title="A session opened with initialize (MCP 2025-11-25 and earlier)">
                        "legacy"
                    </span>
                })}
                <span class="server-offers quiet">{offers}</span>
            </summary>
            {flags}
            <dl class="facts">
                {fell_back.map(|why| view! {
                    <dt>"Era"</dt>
                    <dd id="era-note">{why}</dd>
                })}
                <dt>{if legacy { "Protocol version agreed" } else { "Protocol versions" }}</dt>
                <dd id="supported-versions">
                    {versions
                        .into_iter()
                        .map(|v| {
                            let ours = legacy || v == PROTOCOL_VERSION;
                            view! { <span class="chip" class:ours=ours>{v}</span> }
                        })
                        .collect_view()}
                </dd>
                <dt>"Capabilities"</dt>
                <dd id="capabilities">
                    {if chips.is_empty() {
                        view! { <span class="quiet">"none"</span> }.into_any()
                    } else {
                        chips
                            .into_iter()
                            .map(|chip| {
                                let flags = (!chip.flags.is_empty())
                                    .then(|| format!(" ({})", chip.flags.join(", ")));
                                view! {
                                    <span class="chip capability" class:extension=chip.is_extension>
                                        {chip.name}
                                        <small>{flags}</small>
                                    </span>
                                }
                            })
                            .collect_view()
                            .into_any()
                    }}
                </dd>
                {(!legacy).then(|| view! {
                    <dt>"Caching"</dt>
                    <dd class="cache-hints" id="cache-hints">
                        <span>{freshness}</span>
                        <span class="quiet">"cacheScope " {scope}</span>
                    </dd>
                })}
            </dl>
            {result
                .instructions
                .map(|text| {
                    view! {
                        <details class="instructions-box">
                            <summary>"Instructions from the server"</summary>
                            <p class="instructions" id="instructions">{text}</p>
                        </details>
                    }
                })}
        </details>
    }
}

/// Why Holdbay and the server found no protocol revision to speak, in plain words, with
/// what to do. The server's own error text is not repeated as the cause: an older server
/// says "not initialized" because it expects a handshake 2026-07-28 no longer has.
#[component]
pub fn VersionNotice(mismatch: VersionMismatch) -> impl IntoView {
    let ours = CLIENT_VERSIONS.join(", ");
    let chips = |versions: Vec<String>| {
        versions
            .into_iter()
            .map(|v| {
                let is_ours = CLIENT_VERSIONS.contains(&v.as_str());
                view! { <span class="chip" class:ours=is_ours>{v}</span> }
            })
            .collect_view()
    };
    let (kind, title, body) = match mismatch {
        VersionMismatch::Legacy { status } => {
            // A 404 or 405 is also what a URL that is no MCP endpoint at all answers.
            let (title, maybe_elsewhere) = if status == 400 {
                ("This server speaks an older MCP revision", None)
            } else {
                (
                    "No MCP 2026-07-28 endpoint at this URL",
                    Some(view! {
                        <p>
                            "A URL that is not an MCP endpoint answers HTTP " {status}
                            " too: check the address first (the endpoint is often /mcp)."
                        </p>
                    }),
                )
            };
            let body = view! {
                <p class="error-message">
                    "It answered Holdbay's first request with HTTP " {status}
                    " and no MCP 2026-07-28 error, which is how a server of MCP "
                    {LATEST_LEGACY_VERSION} " or earlier answers: those revisions start "
                    "every session with an initialize handshake, which 2026-07-28 no longer "
                    "has. Whatever error text it sends follows from that; it is not the cause."
                </p>
                {maybe_elsewhere}
                <p>
                    "Holdbay speaks MCP " <strong>{ours}</strong>
                    ", so it cannot inspect this server."
                </p>
                <p class="what-to-do">
                    <strong>"What to do: "</strong>
                    "upgrade the server, or the MCP SDK it is built on, to a release that "
                    "supports MCP 2026-07-28; or inspect it with a client for the older "
                    "revision (for example the MCP Inspector in its legacy era). The wire log "
                    "shows the exchange."
                </p>
            }
            .into_any();
            ("legacy", title, body)
        }
        VersionMismatch::NoCommonVersion { supported, ours } => {
            let named = !supported.is_empty();
            let body = view! {
                <p class="error-message">
                    "The server refused Holdbay's protocol version (error -32022, unsupported "
                    "protocol version), and none of the versions it supports is one Holdbay "
                    "speaks."
                </p>
                <dl class="facts">
                    <dt>"The server supports"</dt>
                    <dd id="server-supported-versions">
                        {if named {
                            chips(supported).into_any()
                        } else {
                            view! { <span class="quiet">"(it did not say)"</span> }.into_any()
                        }}
                    </dd>
                    <dt>"Holdbay speaks"</dt>
                    <dd id="client-versions">{chips(ours)}</dd>
                </dl>
                <p class="what-to-do">
                    <strong>"What to do: "</strong>
                    "run a release of the server that also supports MCP 2026-07-28, or use a "
                    "client that speaks one of the server's versions."
                </p>
            }
            .into_any();
            ("no-common-version", "No protocol version in common", body)
        }
        VersionMismatch::RejectedAgain { sent, supported } => {
            let body = view! {
                <p class="error-message">
                    "It answered error -32022 (unsupported protocol version) to Holdbay's "
                    "first request. Holdbay retried once with " <strong>{sent}</strong>
                    ", a version the server lists, and the server refused that too. Holdbay "
                    "retries only once."
                </p>
                <dl class="facts">
                    <dt>"The server supports"</dt>
                    <dd id="server-supported-versions">{chips(supported)}</dd>
                </dl>
                <p class="what-to-do">
                    <strong>"What to do: "</strong>
                    "the server contradicts itself; the wire log shows both exchanges."
                </p>
            }
            .into_any();
            (
                "rejected-again",
                "The server refused the protocol version twice",
                body,
            )
        }
    };
    view! {
        <section class="error-notice version-notice" role="alert" id="version-notice" data-kind=kind>
            <h2>{title}</h2>
            {body}
        </section>
    }
}
