//! A Scene with the authorization lane at 1280x720, left on the page for a screenshot.
//! Ignored: run it with `--include-ignored` and `NO_HEADLESS=1`, then point
//! `chromium --screenshot` at the runner's page.

use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::HtmlElement;

use super::{jwt, mount_scene, record_sign_in, tokens};
use crate::dom::{answered_json, document, record_exchange, wait_for};

const STYLES: [&str; 2] = [
    include_str!("../../style/holdbay.css"),
    include_str!("../../style/scene.css"),
];

#[wasm_bindgen_test]
#[ignore = "a screenshot fixture, not a check"]
async fn scene_with_the_authorization_lane_for_a_screenshot() {
    show_scene_with_token_inspected().await;
}

/// The same, scrolled to the inspector: the token's decoded header and claims.
#[wasm_bindgen_test]
#[ignore = "a screenshot fixture, not a check"]
async fn inspected_token_for_a_screenshot() {
    let host = show_scene_with_token_inspected().await;
    if let Some(inspector) = host.query_selector("#inspect").ok().flatten() {
        inspector.scroll_into_view();
    }
}

async fn show_scene_with_token_inspected() -> HtmlElement {
    let style = document().create_element("style").expect("style");
    style.set_text_content(Some(&STYLES.join("\n")));
    document()
        .head()
        .expect("head")
        .append_child(&style)
        .expect("append");

    let (host, wire) = mount_scene("scene-shot-host", Signal::stored(Some(tokens(jwt()))));
    record_sign_in(&wire);
    // The request the challenge held, sent again with the token, and answered.
    let retried = holdbay::wire::WireEntry {
        status: None,
        response_headers: Vec::new(),
        ..super::refused(200, "")
    };
    record_exchange(
        &wire,
        answered_json(
            retried,
            40.0,
            r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","content":[{"type":"text","text":"Booked for 4 at 19:00"}]}}"#,
        ),
    );
    wait_for(&host, "#auth-lane .auth-token").await;
    // Laid out as the app's scene view: the side column, then the scene.
    let frame = document().create_element("main").expect("main");
    frame.set_class_name("scene-view");
    frame
        .set_attribute(
            "style",
            "position:fixed;inset:0;z-index:10000;background:var(--paper);color:var(--ink);\
             overflow:hidden;font-family:system-ui,sans-serif",
        )
        .expect("style");
    let side = document().create_element("div").expect("div");
    side.set_class_name("column scene-side");
    side.set_text_content(Some("(lessons, call and tasks)"));
    let main = document().create_element("div").expect("div");
    main.set_class_name("column scene-main");
    frame.append_child(&side).expect("append");
    frame.append_child(&main).expect("append");
    main.append_child(&host).expect("append");
    document()
        .body()
        .expect("body")
        .append_child(&frame)
        .expect("append");
    wait_for(&host, ".auth-token")
        .await
        .unchecked_into::<HtmlElement>()
        .click();
    wait_for(&host, "#inspect .inspect-json").await;
    host
}
