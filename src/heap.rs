//! How much of the wasm heap is in use. The linear memory a page has grown to never shrinks
//! (WebAssembly cannot give it back), so only the allocator can tell whether what a refused
//! body or a cancelled round took was freed: the memory e2e tests read it through
//! `heapBytesInUse`, beside the memory's size.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use wasm_bindgen::prelude::wasm_bindgen;

/// Bytes allocated and not yet freed.
static IN_USE: AtomicUsize = AtomicUsize::new(0);

/// The system allocator, counting what it hands out (`main.rs` installs it).
pub struct CountingHeap;

// SAFETY: every call is forwarded to `System` unchanged; the counter only observes sizes.
unsafe impl GlobalAlloc for CountingHeap {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract for `alloc` is passed on as is.
        let block = unsafe { System.alloc(layout) };
        if !block.is_null() {
            IN_USE.fetch_add(layout.size(), Ordering::Relaxed);
        }
        block
    }

    unsafe fn dealloc(&self, block: *mut u8, layout: Layout) {
        // SAFETY: `block` came from `alloc`/`realloc` above with this layout.
        unsafe { System.dealloc(block, layout) };
        IN_USE.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as for `alloc`.
        let block = unsafe { System.alloc_zeroed(layout) };
        if !block.is_null() {
            IN_USE.fetch_add(layout.size(), Ordering::Relaxed);
        }
        block
    }

    unsafe fn realloc(&self, block: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's contract for `realloc` is passed on as is.
        let moved = unsafe { System.realloc(block, layout, new_size) };
        if !moved.is_null() {
            IN_USE.fetch_add(new_size, Ordering::Relaxed);
            IN_USE.fetch_sub(layout.size(), Ordering::Relaxed);
        }
        moved
    }
}

/// Bytes of the wasm heap in use now (a number for JavaScript).
#[wasm_bindgen(js_name = heapBytesInUse)]
pub fn heap_bytes_in_use() -> f64 {
    IN_USE.load(Ordering::Relaxed) as f64
}
