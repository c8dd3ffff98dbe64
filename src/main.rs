//! Browser entry point: mount the app on the page's body.

fn main() {
    console_error_panic_hook::set_once();
    holdbay::mount_app_to_body();
}
