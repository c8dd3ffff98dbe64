//! Code the first screen does not need, fetched when first used. In the release build (cfg
//! `holdbay_split`, set by `scripts/build-app.sh`) `wasm-split-cli` cuts the wasm at split
//! functions; elsewhere (tests, debug builds) the same functions are linked in and called
//! directly.
//!
//! Three kinds of split function:
//! - views (`#[cfg_attr(holdbay_split, leptos::lazy)]`, each its own chunk): a tool's call
//!   form, an opened wire-log entry, the prompts tab… (`ui::on_demand` and beside their views);
//! - the **after-first-screen** chunk (`after_first_screen!`): the dock, the tasks panel, the
//!   Scene view, the wire log's keep (IndexedDB) and the call history's recorder (it
//!   starts at the dock's first read), fetched once the tool list is drawn;
//! - the **engine work** chunk, one chunk for all of it (`wasm_split(engine_work, …)`,
//!   `fallible`): driving a call's rounds, following tasks (and drawing their rows), listing
//!   prompts and resources, decoding a recorded log of other methods than discovery and the
//!   tool list, and signing in (`crate::auth::flow`, the sign-in card and settings). These
//!   pull in the decoders of input requests, task snapshots and those methods' results, and
//!   the authorization rules, which the first screen never meets. One chunk, not one per function,
//!   so the code they share is fetched once and never in a combination chunk of its own.
//!   (Code they share with a view chunk still gets a combination chunk, fetched with either.)

use std::fmt;

/// Call a split function: awaited where it is split off, called directly where it is
/// linked in.
macro_rules! chunk {
    ($function:ident($($argument:expr),* $(,)?)) => {{
        #[cfg(holdbay_split)]
        {
            $function($($argument),*).await
        }
        #[cfg(not(holdbay_split))]
        {
            $function($($argument),*)
        }
    }};
}
pub(crate) use chunk;

/// A function split off into chunk `$module` in the release build, `fallible` (a load that
/// fails is `Err(ChunkMissing)`, never a panic), so it must return `Result<_, ChunkMissing>`.
/// Call it with [`chunk!`].
macro_rules! split_off {
    ($module:ident: $(#[$attr:meta])* $vis:vis fn $name:ident($($arg:ident: $ty:ty),* $(,)?) -> $ret:ty $body:block) => {
        $(#[$attr])*
        #[cfg_attr(
            holdbay_split,
            leptos::wasm_split::wasm_split(
                $module,
                wasm_split_path = ::leptos::wasm_split,
                fallible
            )
        )]
        $vis fn $name($($arg: $ty),*) -> $ret $body
    };
}
pub(crate) use split_off;

/// A function of the engine-work chunk (see the module's notes).
macro_rules! engine_work {
    ($($function:tt)*) => {
        $crate::split::split_off!(engine_work: $($function)*);
    };
}
pub(crate) use engine_work;

/// A function of the after-first-screen chunk, fetched once the tool list is drawn: the dock
/// and the workbench's tasks panel (`ui::first_screen`), the Scene view, and attaching the
/// wire log's keep (`wire::keep`). One chunk, fetched once, so the code they share makes no
/// combination chunk of its own.
macro_rules! after_first_screen {
    ($($function:tt)*) => {
        $crate::split::split_off!(after_first_screen: $($function)*);
    };
}
pub(crate) use after_first_screen;

/// Room for the splitter to lay out the read-only data segment. `wasm-split-cli` 0.2.3
/// (`emit.rs`) packs each module's share of `.rodata` anew, every module's block aligned
/// to the segment's alignment, and when the result comes out longer than the linker's
/// segment it gives up and leaves every chunk's data in the first-screen module (+130 KB
/// there). No code reads this array, so the splitter puts it in no module and emits none
/// of it: its length is room in the layout, not bytes shipped. `#[used]` keeps the linker
/// from dropping it. `scripts/split/wasm-bindgen` fails the build if the room runs out.
#[cfg(holdbay_split)]
#[used]
static SPLITTER_ROOM: [u8; 16 * 1024] = [0xA5; 16 * 1024];

/// The page could not fetch a chunk of its own code. A later call tries again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChunkMissing;

impl From<leptos::wasm_split::SplitLoaderError> for ChunkMissing {
    fn from(_: leptos::wasm_split::SplitLoaderError) -> Self {
        Self
    }
}

impl fmt::Display for ChunkMissing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(
            "this page could not fetch part of its own code from the server that served it \
             (stopped, or rebuilt since the page loaded); reload the page",
        )
    }
}

impl std::error::Error for ChunkMissing {}
