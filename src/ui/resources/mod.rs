//! The Resources tab: the server's resources, each with Read; its resource templates, one
//! picked at a time with a form for its URI variables (completions offered) and the URI it
//! expands to shown before reading; and the reader, showing the reads of one URI (the
//! session's runs: MRTR rounds through the same input cards as a call).

mod template;

use holdbay_engine::model::{Resource, ResourceTemplate};
use holdbay_engine::{ListMethod, ListResourceTemplates, ListResources, NameMarks};
use leptos::prelude::*;

pub use template::TemplateForm;

use crate::catalog::{Listed, Loaded};
use crate::session::Session;
use crate::ui::call::CallOutcome;
use crate::ui::catalog_list::{CatalogSection, Named, named, not_ready, searched};
use crate::ui::library_drafts::LibraryDrafts;
use crate::ui::names::{ShownText, flags_of};
use crate::ui::state::UiState;

#[component]
pub fn ResourcesTab() -> impl IntoView {
    let session = Session::current();
    // Listed when first shown, not at connect (the first screen waits only for the tools).
    session.want_library();
    view! {
        {move || match session.catalog().resources().get() {
            Loaded::Ready(listed) => view! { <ResourceList listed=listed /> }.into_any(),
            other => not_ready(other, "resources"),
        }}
        {move || match session.catalog().templates().get() {
            Loaded::Ready(listed) => view! { <TemplateList listed=listed /> }.into_any(),
            other => not_ready(other, "resource templates"),
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

fn detail(uri: &str, mime: Option<&str>) -> String {
    match mime {
        Some(mime) => format!("{uri} · {mime}"),
        None => uri.to_owned(),
    }
}

#[component]
fn ResourceList(listed: Listed<Resource>) -> impl IntoView {
    let session = Session::current();
    let drafts = UiState::current().library();
    let total = listed.items.len();
    let items = StoredValue::new(named::<ListResources>(listed.items, &listed.names));
    let query = RwSignal::new(String::new());
    let shown = searched(items, query, |r| {
        [
            Some(r.shown_name.as_str()),
            r.shown_title.as_deref(),
            r.item.description.as_deref(),
            Some(r.item.uri.as_str()),
        ]
    });
    view! {
        <CatalogSection
            id="resources-panel"
            noun="resources"
            total=total
            shown=Signal::derive(move || shown().len())
            query=query
            stopped=listed.stopped
            left_out=listed.left_out
        >
                {move || {
                    shown()
                        .into_iter()
                        .map(|Named { item: resource, marks, .. }| {
                            let uri = resource.uri.clone();
                            let data_uri = uri.clone();
                            let detail = detail(&resource.uri, resource.mime_type.as_deref());
                            let note = RwSignal::new(None::<String>);
                            let flags = flags_of(&marks, ListResources::ITEM, &resource.name);
                            let NameMarks { name: shown, title, .. } = marks;
                            view! {
                                <li class="catalog-item resource-item" data-uri=data_uri>
                                    <code class="item-name shown-name"><ShownText shown=shown /></code>
                                    {title.map(|t| view! { <span class="tool-title shown-name"><ShownText shown=t /></span> })}
                                    <button
                                        type="button"
                                        class="read-resource"
                                        on:click=move |_| note.set(read(session, drafts, &uri).err())
                                    >
                                        "Read"
                                    </button>
                                    {flags}
                                    <p class="item-detail">{detail}</p>
                                    {resource.description.map(|d| view! { <p class="tool-description">{d}</p> })}
                                    {move || note.get().map(|n| view! { <p class="call-blocked">{n}</p> })}
                                </li>
                            }
                        })
                        .collect_view()
                }}
        </CatalogSection>
    }
}

#[component]
fn TemplateList(listed: Listed<ResourceTemplate>) -> impl IntoView {
    let drafts = UiState::current().library();
    let total = listed.items.len();
    let items = StoredValue::new(named::<ListResourceTemplates>(listed.items, &listed.names));
    let query = RwSignal::new(String::new());
    let shown = searched(items, query, |t| {
        [
            Some(t.shown_name.as_str()),
            t.shown_title.as_deref(),
            t.item.description.as_deref(),
            Some(t.item.uri_template.as_str()),
        ]
    });
    view! {
        <CatalogSection
            id="templates-panel"
            noun="resource templates"
            total=total
            shown=Signal::derive(move || shown().len())
            query=query
            stopped=listed.stopped
            left_out=listed.left_out
        >
                {move || {
                    shown()
                        .into_iter()
                        .map(|Named { item: template, marks, .. }| {
                            let key = template.uri_template.clone();
                            let picked = {
                                let key = key.clone();
                                move || drafts.template.get().as_deref() == Some(key.as_str())
                            };
                            let pick = {
                                let key = key.clone();
                                move |_| drafts.template.set(Some(key.clone()))
                            };
                            let detail = detail(&template.uri_template, template.mime_type.as_deref());
                            let flags = flags_of(&marks, ListResourceTemplates::ITEM, &template.name);
                            let NameMarks { name: shown, title, .. } = marks;
                            view! {
                                <li class="catalog-item">
                                    <button
                                        type="button"
                                        class="item-pick template-pick"
                                        data-template=key.clone()
                                        aria-pressed=move || picked().to_string()
                                        on:click=pick
                                    >
                                        <code class="item-name shown-name"><ShownText shown=shown /></code>
                                        {title.map(|t| view! { <span class="tool-title shown-name"><ShownText shown=t /></span> })}
                                    </button>
                                    {flags}
                                    <p class="item-detail">{detail}</p>
                                    {template.description.map(|d| view! { <p class="tool-description">{d}</p> })}
                                </li>
                            }
                        })
                        .collect_view()
                }}
        </CatalogSection>
    }
}

/// The picked template's form.
#[component]
fn TemplatePanel() -> impl IntoView {
    let session = Session::current();
    let drafts = UiState::current().library();
    move || {
        let key = drafts.template.get()?;
        let catalog = session.catalog();
        let template = catalog.template(&key)?;
        let marks = catalog
            .template_names()
            .marks(&template.name, template.title.as_deref());
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
