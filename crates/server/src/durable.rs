//! The one way the server opens a SQLite database whose commits must survive a crash (the
//! task store, the bookings): WAL with `synchronous=FULL`, so a commit is on disk before the
//! response that reports it.

use std::path::Path;
use std::time::Duration;

use rusqlite::Connection;

/// Open (or create) `file` in `dir`, durable, with `schema` applied.
pub fn open_durable(dir: &Path, file: &str, schema: &str) -> rusqlite::Result<Connection> {
    let connection = Connection::open(dir.join(file))?;
    connection.pragma_update(None, "journal_mode", "WAL")?;
    connection.pragma_update(None, "synchronous", "FULL")?;
    connection.busy_timeout(Duration::from_secs(5))?;
    connection.execute_batch(schema)?;
    Ok(connection)
}
