//! `cargo fuzz run response_path`: one HTTP response (status, Content-Type, chunking, body)
//! through the engine's readers and state machines. See `holdbay_engine_fuzz::response_path`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| holdbay_engine_fuzz::response_path(data));
