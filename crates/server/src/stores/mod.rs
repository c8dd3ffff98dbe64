//! The demo scenarios' own records, kept in [`crate::shared::Shared`]: `book_table`'s
//! bookings (SQLite in the data dir) and `connect_account`'s consents (in memory).

pub mod bookings;
pub mod consents;
