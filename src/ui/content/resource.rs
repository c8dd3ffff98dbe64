//! A resource's contents (text or blob), a `resources/read` result, and the Read button of a
//! resource link (the read runs in the session, like a call, MRTR rounds included).

use holdbay_engine::model::{ReadResourceResult, ResourceContents};
use holdbay_engine::{ResourceBody, resource_body};
use leptos::prelude::*;

use super::ShowResult;
use super::media::MediaView;
use crate::session::Session;
use crate::ui::call::CallOutcome;

/// One contents item: its URI and MIME type, then its text or its blob.
#[component]
pub fn ResourceContentsView(contents: ResourceContents) -> impl IntoView {
    match resource_body(&contents) {
        ResourceBody::Text {
            uri,
            mime_type,
            text,
        } => {
            let header = contents_header(uri, mime_type);
            let text = text.to_owned();
            view! {
                <div class="content-resource">
                    {header}
                    <pre class="resource-text">{text}</pre>
                </div>
            }
            .into_any()
        }
        ResourceBody::Blob {
            uri,
            mime_type,
            blob,
            ..
        } => {
            let header = contents_header(uri, mime_type);
            let (mime_type, blob) = (mime_type.map(str::to_owned), blob.to_owned());
            view! {
                <div class="content-resource">
                    {header}
                    <MediaView mime_type=mime_type data=blob what="blob" />
                </div>
            }
            .into_any()
        }
        ResourceBody::Unknown => {
            view! { <p class="quiet">"Resource contents of a kind this client does not know."</p> }
                .into_any()
        }
    }
}

fn contents_header(uri: &str, mime_type: Option<&str>) -> impl IntoView + use<> {
    let (uri, mime_type) = (uri.to_owned(), mime_type.map(str::to_owned));
    view! {
        <p class="contents-head">
            <code class="link-uri">{uri}</code>
            {mime_type.map(|m| view! { <span class="quiet contents-mime">" " {m}</span> })}
        </p>
    }
}

/// A completed `resources/read`: every contents item.
#[component]
pub fn ReadResult(result: ReadResourceResult) -> impl IntoView {
    let count = result.contents.len();
    let summary = match count {
        1 => "1 contents item".to_owned(),
        n => format!("{n} contents items"),
    };
    view! {
        <section class="read-result" aria-label="Resource contents">
            <p class="result-ok">"Complete " <span class="quiet">{summary}</span></p>
            {(count == 0).then(|| view! { <p class="quiet">"The resource has no contents."</p> })}
            {result
                .contents
                .into_iter()
                .map(|contents| view! { <ResourceContentsView contents=contents /> })
                .collect_view()}
        </section>
    }
}

impl ShowResult for ReadResourceResult {
    fn show(self) -> AnyView {
        view! { <ReadResult result=self /> }.into_any()
    }
}

/// A resource link's Read button, and the read below it (the session's run for that URI).
/// Outside an app (a result shown alone) there is no session, so no button.
#[component]
pub fn LinkReader(uri: String) -> impl IntoView {
    let session = use_context::<Session>()?;
    let run = session.read(&uri);
    let note = RwSignal::new(None::<String>);
    let read = move |_| {
        if let Err(why) = run.read() {
            note.set(Some(why));
        }
    };
    Some(view! {
        <div class="link-reader">
            <button type="button" class="read-link" on:click=read>
                "Read"
            </button>
            {move || note.get().map(|n| view! { <span class="call-blocked">{n}</span> })}
            <CallOutcome run=run />
        </div>
    })
}
