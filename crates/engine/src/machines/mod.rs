//! Floor 4, the machines: what spans exchanges. MRTR rounds within their bounds, tasks and
//! their polls, listen streams and when to reopen them, paginated lists, version
//! negotiation, the result cache, a recorded log read back through the live readers, and
//! a check of a server against the protocol's rules.

pub mod cache;
pub mod check;
pub mod era;
pub mod listen;
pub mod listen_schedule;
pub mod mrtr;
pub mod pages;
pub mod replay;
pub mod resumption;
pub mod session_stream;
pub mod task;
pub mod version;
