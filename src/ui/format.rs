//! How the page spells durations and sizes, in one place: `850 ms`, `1.2 s`, `42 s`,
//! `3 min 05 s`, `2 h 07 min`; `900 bytes`, `512 KiB`, `1.5 MiB`.

const SECOND: f64 = 1000.0;
const MINUTE: u64 = 60;
const HOUR: u64 = 60 * MINUTE;

/// A measured duration (ms), two or three significant figures: `850 ms`, `1.2 s`, `42 s`,
/// `3 min 05 s`, `2 h 07 min`.
pub fn duration(ms: f64) -> String {
    let ms = ms.max(0.0);
    if ms < SECOND {
        return format!("{ms:.0} ms");
    }
    let seconds = ms / SECOND;
    if seconds < 9.95 {
        return format!("{seconds:.1} s");
    }
    let whole = (seconds.round() as u64).min(u64::MAX / 2);
    match whole {
        ..MINUTE => format!("{whole} s"),
        MINUTE..HOUR => format!("{} min {:02} s", whole / MINUTE, whole % MINUTE),
        _ => format!("{} h {:02} min", whole / HOUR, (whole % HOUR) / MINUTE),
    }
}

/// A set duration (a TTL, an interval: whole ms), exact, in the largest unit it is a whole
/// number of: `2 h`, `5 min`, `30 s`, `1500 ms`.
pub fn exact_duration(ms: u64) -> String {
    const MS_PER_HOUR: u64 = HOUR * 1000;
    const MS_PER_MINUTE: u64 = MINUTE * 1000;
    match ms {
        ms if ms >= MS_PER_HOUR && ms.is_multiple_of(MS_PER_HOUR) => {
            format!("{} h", ms / MS_PER_HOUR)
        }
        ms if ms >= MS_PER_MINUTE && ms.is_multiple_of(MS_PER_MINUTE) => {
            format!("{} min", ms / MS_PER_MINUTE)
        }
        ms if ms >= 1000 && ms.is_multiple_of(1000) => format!("{} s", ms / 1000),
        ms => format!("{ms} ms"),
    }
}

/// A time since the session's first event, to the tenth of a second: `+0.0 s`, `+12.3 s`,
/// `+3 min 05 s` (from 100 s on).
pub fn offset(after_ms: f64) -> String {
    let seconds = (after_ms.max(0.0) / SECOND).min(1.0e9);
    if seconds < 100.0 {
        format!("+{seconds:.1} s")
    } else {
        let whole = seconds as u64;
        format!("+{} min {:02} s", whole / MINUTE, whole % MINUTE)
    }
}

/// A time still ahead, roughly (a countdown not redrawn each second): `42 s` under two
/// minutes, else whole minutes, `58 min`; `None` once it has passed.
pub fn rough_remaining(ms: f64) -> Option<String> {
    let seconds = (ms / SECOND).round();
    if seconds <= 0.0 {
        return None;
    }
    Some(if seconds < 120.0 {
        format!("{seconds} s")
    } else {
        format!("{} min", (seconds / 60.0).round())
    })
}

/// A byte count: `900 bytes`, `512 KiB` (rounded up), `1 MiB`, `1.5 MiB`.
pub fn bytes(bytes: usize) -> String {
    const KIB: usize = 1024;
    const MIB: usize = 1024 * KIB;
    if bytes >= MIB && bytes.is_multiple_of(MIB) {
        format!("{} MiB", bytes / MIB)
    } else if bytes >= MIB {
        format!("{:.1} MiB", bytes as f64 / MIB as f64)
    } else if bytes >= KIB {
        format!("{} KiB", bytes.div_ceil(KIB))
    } else {
        format!("{bytes} bytes")
    }
}
