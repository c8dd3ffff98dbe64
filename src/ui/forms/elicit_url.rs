//! A URL-mode `elicitation/create`: a consent screen. The full address is shown with its
//! site emphasised; nothing is fetched, linked or embedded before the user consents, and the
//! page opens in a separate top-level tab the client cannot read (`noopener`).

use holdbay_engine::InputAnswer;
use leptos::prelude::*;

use super::decline::DeclineOrCancel;
use super::delivery::Delivery;
use crate::ui::checkbox::Checkbox;

/// What the page will open, as shown before consent.
struct Address {
    /// `https://host[:port]`: the part that says who the user is dealing with.
    site: String,
    /// The rest of the address (path, query, fragment), shown de-emphasised.
    rest: String,
    /// The normalised address that will be opened.
    href: String,
    warnings: Vec<&'static str>,
}

/// The address to open, or why it is refused.
fn read_address(url: &str) -> Result<Address, String> {
    let parsed = web_sys::Url::new(url).map_err(|_| "it is not a valid web address".to_owned())?;
    let scheme = parsed.protocol();
    if scheme != "https:" && scheme != "http:" {
        return Err(format!(
            "it is a `{scheme}` address; only http and https pages are opened"
        ));
    }
    let href = parsed.href();
    let site = format!("{scheme}//{}", parsed.host());
    let mut warnings = Vec::new();
    if scheme == "http:" {
        warnings.push("The page is not encrypted (http).");
    }
    if parsed
        .hostname()
        .split('.')
        .any(|label| label.starts_with("xn--"))
    {
        warnings.push(
            "The site name uses international characters (punycode), which can imitate another site's name.",
        );
    }
    let rest = match href.strip_prefix(&site) {
        Some(rest) => rest.to_owned(),
        None => {
            // A user name before the host (`https://bank.example@evil.example/`) disguises the site.
            warnings.push(
                "The address has a user name before the site, which can disguise the real site.",
            );
            href.clone()
        }
    };
    Ok(Address {
        site,
        rest,
        href,
        warnings,
    })
}

#[component]
pub fn UrlElicitation(message: String, url: String, delivery: Delivery) -> impl IntoView {
    let consented = RwSignal::new(false);
    let refusal = RwSignal::new(None::<InputAnswer>);
    let finished = RwSignal::new(false);
    // Gathered: accepting (consent only, no content) once the user says the page is done.
    if let Delivery::Gathered(slot) = delivery {
        Effect::new(move |_| {
            let answer = refusal
                .get()
                .or_else(|| finished.get().then_some(InputAnswer::Accept(None)));
            slot.set(answer);
        });
    }
    let opened = RwSignal::new(false);
    let open_problem = RwSignal::new(None::<String>);

    let address_view = match read_address(&url) {
        Err(why) => view! {
            <div class="url-refused" role="alert">
                <p><strong>"This address is refused: "</strong> {why} "."</p>
                <p class="url-full"><code>{url.clone()}</code></p>
            </div>
        }
        .into_any(),
        Ok(address) => {
            let href = address.href.clone();
            let open = move |_| {
                if !consented.get_untracked() {
                    return;
                }
                let result = web_sys::window().ok_or(()).and_then(|window| {
                    window
                        .open_with_url_and_target_and_features(
                            &href,
                            "_blank",
                            "noopener,noreferrer",
                        )
                        .map_err(|_| ())
                });
                match result {
                    Ok(_) => {
                        open_problem.set(None);
                        opened.set(true);
                    }
                    Err(()) => {
                        open_problem.set(Some("The browser did not open the page.".to_owned()))
                    }
                }
            };
            let warnings = address
                .warnings
                .iter()
                .map(|warning| view! { <li>{*warning}</li> })
                .collect_view();
            view! {
                <div class="url-address">
                    <p class="url-site-line">
                        "Site: " <strong class="url-site">{address.site.clone()}</strong>
                    </p>
                    <p class="url-full">
                        <span class="url-origin">{address.site}</span>
                        <span class="url-rest">{address.rest}</span>
                    </p>
                    <ul class="url-warnings">{warnings}</ul>
                </div>
                <p class="url-why">
                    "The server wants you to do something on this page, outside Holdbay (for example, sign in or approve access). "
                    "What you enter there goes to that site only: Holdbay never sees it. Afterwards, come back and say you have finished, "
                    "and the server checks the outcome on its side."
                </p>
                <Checkbox
                    class="url-consent-line"
                    input_class="url-consent"
                    checked=consented
                    label="I want to open this page in a new tab."
                />
                <div class="input-actions">
                    <button
                        type="button"
                        class="open-page primary"
                        disabled=move || !consented.get()
                        on:click=open
                    >
                        "Open page"
                    </button>
                    <button
                        type="button"
                        class="consent-finished"
                        aria-pressed=move || delivery.is_gathered().then(|| finished.get().to_string())
                        disabled=move || !opened.get()
                        on:click=move |_| {
                            finished.set(true);
                            if !delivery.is_gathered() {
                                delivery.give(InputAnswer::Accept(None));
                            }
                        }
                    >
                        "I have finished"
                    </button>
                </div>
                {move || open_problem.get().map(|why| view! { <p class="field-error">{why}</p> })}
            }
            .into_any()
        }
    };
    view! {
        <p class="input-message">{message}</p>
        {address_view}
        <div class="input-actions secondary-actions">
            <DeclineOrCancel delivery=delivery refusal=refusal />
        </div>
    }
}
