//! The Resources tab: the server's resources, each with Read; its resource templates, one
//! picked at a time with a form for its URI variables (completions offered) and the URI it
//! expands to shown before reading; and the reader, showing the reads of one URI (the
//! session's runs: MRTR rounds through the same input cards as a call).

mod template;

use holdbay_engine::model::{Resource, ResourceTemplate};
use holdbay_engine::{ListMethod, ListResourceTemplates, ListResources};
use leptos::prelude::*;

pub use template::TemplateForm;

use crate::catalog::{Listed, Loaded};
use crate::session::Session;
use crate::ui::call::CallOutcome;
use crate::ui::catalog_list::not_ready;
use crate::ui::library_drafts::LibraryDrafts;
use crate::ui::pick_list::{PickButton, PickList, PickRow};
use crate::ui::state::UiState;

#[component]
pub fn ResourcesTab() -> impl IntoView {
    let session = Session::current();
    // Listed when first shown, not at connect (the first screen waits only for the tools).
    session.want_library();
    view! {
        {move || match session.catalog().resources().get() {
            Loaded::Ready(listed) => view! { <ResourceList listed=listed /> }.into_any(),
            other => not_ready(other, ListResources::ITEMS),
        }}
        {move || match session.catalog().templates().get() {
            Loaded::Ready(listed) => view! { <TemplateList listed=listed /> }.into_any(),
            other => not_ready(other, ListResourceTemplates::ITEMS),
        }}
        <TemplatePanel />
        <Reader />
    }
}

/// Read `uri` and show it in the reader.
pub fn read(session: Session, drafts: LibraryDrafts, uri: &str) -> Result<(), String> {
    drafts.reading.set(Some(uri.to_owned()));
    session.read(uri).read()
}

/// A catalog row's lines under its name: the address with its media type, and the description.
fn item_detail(
    uri: &str,
    mime: Option<&str>,
    description: Option<String>,
) -> impl IntoView + use<> {
    let detail = match mime {
        Some(mime) => format!("{uri} · {mime}"),
        None => uri.to_owned(),
    };
    view! {
        <p class="item-detail">{detail}</p>
        {description.map(|d| view! { <p class="tool-description">{d}</p> })}
    }
}

#[component]
fn ResourceList(listed: Listed<Resource>) -> impl IntoView {
    let session = Session::current();
    let drafts = UiState::current().library();
    let row = move |row: PickRow<Resource>| {
        let resource = row.item;
        let uri = resource.uri.clone();
        let data_uri = uri.clone();
        let detail = item_detail(
            &resource.uri,
            resource.mime_type.as_deref(),
            resource.description,
        );
        let note = RwSignal::new(None::<String>);
        view! {
            <li class="catalog-item resource-item" data-uri=data_uri>
                {row.names}
                <button
                    type="button"
                    class="read-resource"
                    on:click=move |_| note.set(read(session, drafts, &uri).err())
                >
                    "Read"
                </button>
                {row.flags}
                {detail}
                {move || note.get().map(|n| view! { <p class="call-blocked">{n}</p> })}
            </li>
        }
        .into_any()
    };
    view! { <PickList method=ListResources listed=listed row=row /> }
}

#[component]
fn TemplateList(listed: Listed<ResourceTemplate>) -> impl IntoView {
    let drafts = UiState::current().library();
    let row = move |row: PickRow<ResourceTemplate>| {
        let template = row.item;
        let detail = item_detail(
            &template.uri_template,
            template.mime_type.as_deref(),
            template.description,
        );
        view! {
            <li class="catalog-item">
                <PickButton
                    picked=drafts.template
                    key=template.uri_template.clone()
                    class="template-pick"
                    attr:data-template=template.uri_template.clone()
                >
                    {row.names}
                </PickButton>
                {row.flags}
                {detail}
            </li>
        }
        .into_any()
    };
    view! { <PickList method=ListResourceTemplates listed=listed row=row /> }
}

/// The picked template's form.
#[component]
fn TemplatePanel() -> impl IntoView {
    let session = Session::current();
    let drafts = UiState::current().library();
    // A memo: the form is built again only when the template itself changes, never under
    // the user's typing because a list was set again.
    let picked = Memo::new(move |_| {
        let key = drafts.template.get()?;
        let catalog = session.catalog();
        let template = catalog.template(&key)?;
        let marks = catalog
            .template_names()
            .marks(&template.name, template.title.as_deref());
        Some((template, marks))
    });
    move || {
        let (template, marks) = picked.get()?;
        Some(view! { <TemplateForm template=template marks=marks /> })
    }
}

/// The reads of the URI last read here.
#[component]
fn Reader() -> impl IntoView {
    let session = Session::current();
    let drafts = UiState::current().library();
    move || {
        let uri = drafts.reading.get()?;
        let run = session.read(&uri);
        Some(view! {
            <section class="panel" id="resource-reader" data-uri=uri.clone()>
                <h2>"Read resource"</h2>
                <p class="reader-uri"><code class="link-uri">{uri.clone()}</code></p>
                <CallOutcome run=run />
            </section>
        })
    }
}
