//! The demo restaurant's booking book for `book_table`: SQLite in the data dir
//! (`bookings.sqlite3`, beside the tasks), so one booking can be told from four. A booking
//! is keyed by the id `book_table` seals into its `requestState` in the first round: the
//! final retry books once, and any replay of it (in sequence or at the same moment) finds
//! the booking already there.

use std::path::Path;
use std::sync::{Arc, Mutex};

use rusqlite::{Connection, OptionalExtension, params};

/// The database file in the data dir.
pub const FILE: &str = "bookings.sqlite3";

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS bookings (
    booking_id   TEXT PRIMARY KEY,
    owner        TEXT NOT NULL,
    restaurant   TEXT NOT NULL,
    party_size   INTEGER NOT NULL,
    time         TEXT NOT NULL,
    confirmation TEXT NOT NULL,
    created_ms   INTEGER NOT NULL
);
";

/// One booking.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Booking {
    pub booking_id: String,
    pub owner: String,
    pub restaurant: String,
    pub party_size: u8,
    pub time: String,
    pub confirmation: String,
}

/// What [`Bookings::book`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Booked {
    /// This request made the booking.
    New(Booking),
    /// The booking existed already: the request was a duplicate; this is the booking.
    Duplicate(Booking),
}

#[derive(Debug, thiserror::Error)]
pub enum BookingError {
    #[error("the booking database failed: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("the booking database lock was poisoned")]
    Poisoned,
    #[error("booking {0} was neither written nor found")]
    Lost(String),
}

/// A handle to the booking database; clones share one connection.
#[derive(Debug, Clone)]
pub struct Bookings {
    connection: Arc<Mutex<Connection>>,
}

impl Bookings {
    /// Open (or create) [`FILE`] in `dir`.
    pub fn open(dir: &Path) -> Result<Self, BookingError> {
        // As for tasks: a booking is on disk before the answer that confirms it.
        let connection = crate::durable::open_durable(dir, FILE, SCHEMA)?;
        Ok(Self {
            connection: Arc::new(Mutex::new(connection)),
        })
    }

    /// Book `booking` unless its `booking_id` is booked already; either way, the booking
    /// as stored. The primary key decides, so two requests at once still make one row.
    pub fn book(&self, booking: &Booking, now_ms: i64) -> Result<Booked, BookingError> {
        let connection = self.connection.lock().map_err(|_| BookingError::Poisoned)?;
        let inserted = connection.execute(
            "INSERT OR IGNORE INTO bookings VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            params![
                booking.booking_id,
                booking.owner,
                booking.restaurant,
                booking.party_size,
                booking.time,
                booking.confirmation,
                now_ms
            ],
        )?;
        if inserted == 1 {
            return Ok(Booked::New(booking.clone()));
        }
        connection
            .query_row(
                "SELECT booking_id, owner, restaurant, party_size, time, confirmation
                 FROM bookings WHERE booking_id = ?1",
                params![booking.booking_id],
                |row| {
                    Ok(Booking {
                        booking_id: row.get(0)?,
                        owner: row.get(1)?,
                        restaurant: row.get(2)?,
                        party_size: row.get(3)?,
                        time: row.get(4)?,
                        confirmation: row.get(5)?,
                    })
                },
            )
            .optional()?
            .map(Booked::Duplicate)
            .ok_or_else(|| BookingError::Lost(booking.booking_id.clone()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn booking(id: &str, size: u8) -> Booking {
        Booking {
            booking_id: id.to_owned(),
            owner: "alice".to_owned(),
            restaurant: "Chez Holdbay".to_owned(),
            party_size: size,
            time: "19:30".to_owned(),
            confirmation: format!("HB-{id}"),
        }
    }

    #[test]
    fn the_same_booking_id_books_once_and_returns_the_first_booking() {
        let dir = tempfile::tempdir().expect("dir");
        let bookings = Bookings::open(dir.path()).expect("open");
        let first = booking("A1", 4);
        assert_eq!(
            bookings.book(&first, 1).expect("book"),
            Booked::New(first.clone())
        );
        // A replay, even one that says something else, gets the stored booking.
        assert_eq!(
            bookings.book(&booking("A1", 6), 2).expect("book"),
            Booked::Duplicate(first)
        );
        let other = booking("B2", 6);
        assert_eq!(bookings.book(&other, 3).expect("book"), Booked::New(other));
        // Kept across a reopen.
        drop(bookings);
        let reopened = Bookings::open(dir.path()).expect("reopen");
        assert!(matches!(
            reopened.book(&booking("B2", 4), 4).expect("book"),
            Booked::Duplicate(found) if found.party_size == 6
        ));
    }
}
