//! Browser entry point: mount the app on the page's body.

/// Counts the heap in use, for the memory tests ([`holdbay::heap`]).
#[global_allocator]
static HEAP: holdbay::heap::CountingHeap = holdbay::heap::CountingHeap;

fn main() {
    console_error_panic_hook::set_once();
    holdbay::mount_app_to_body();
}
