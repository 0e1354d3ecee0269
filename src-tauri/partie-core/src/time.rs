//! UTC timestamps as `YYYY-MM-DDTHH:MM:SS.mmmZ`, the form exported records carry; the clock
//! and the ids that records and tournaments are given.

use std::hash::{BuildHasher, Hasher};
use std::time::{SystemTime, UNIX_EPOCH};

/// Days since 1970-01-01 to a civil date (proleptic Gregorian), after Howard Hinnant.
fn civil(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let mp = i64::from((m + 9) % 12);
    let doy = (153 * mp + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// Milliseconds since the epoch as an ISO 8601 UTC timestamp.
pub fn iso(ms: i64) -> String {
    let (days, rest) = (ms.div_euclid(86_400_000), ms.rem_euclid(86_400_000));
    let (y, m, d) = civil(days);
    let (h, min, s, milli) = (
        rest / 3_600_000,
        rest / 60_000 % 60,
        rest / 1000 % 60,
        rest % 1000,
    );
    format!("{y:04}-{m:02}-{d:02}T{h:02}:{min:02}:{s:02}.{milli:03}Z")
}

/// Reads `YYYY-MM-DDTHH:MM:SS[.mmm]Z` back into milliseconds; `None` when it is not that form.
pub fn parse_iso(s: &str) -> Option<i64> {
    let b = s.as_bytes();
    if b.len() < 20
        || b[4] != b'-'
        || b[7] != b'-'
        || b[10] != b'T'
        || b[13] != b':'
        || b[16] != b':'
        || !s.ends_with('Z')
    {
        return None;
    }
    let num = |r: std::ops::Range<usize>| s.get(r)?.parse::<i64>().ok();
    let (y, m, d) = (num(0..4)?, num(5..7)?, num(8..10)?);
    let (h, min, sec) = (num(11..13)?, num(14..16)?, num(17..19)?);
    let milli = match &s[19..s.len() - 1] {
        "" => 0,
        frac if frac.starts_with('.') && frac.len() == 4 => frac[1..].parse::<i64>().ok()?,
        _ => return None,
    };
    // A day the month has: 2026-02-30 is no date (it was read as 2 March).
    let leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
    let month_days = match m {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    };
    if !(1..=12).contains(&m) || !(1..=month_days).contains(&d) || h > 23 || min > 59 || sec > 60 {
        return None;
    }
    Some(
        days_from_civil(y, m as u32, d as u32) * 86_400_000
            + h * 3_600_000
            + min * 60_000
            + sec * 1000
            + milli,
    )
}

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// A stable, random-enough id for a match or a tournament, kept across export and import.
pub fn new_uid() -> String {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(nanos);
    h.write_u32(std::process::id());
    format!(
        "{:012x}-{:016x}",
        (nanos / 1_000_000) as u64 & 0xffff_ffff_ffff,
        h.finish()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_dates_round_trip() {
        assert_eq!(iso(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(iso(951_782_400_000), "2000-02-29T00:00:00.000Z");
        assert_eq!(iso(1_795_275_277_318), "2026-11-21T15:34:37.318Z");
        for ms in [0, 951_782_400_000, 1_795_275_277_318, 4_102_444_799_999] {
            assert_eq!(parse_iso(&iso(ms)), Some(ms));
        }
        assert_eq!(parse_iso("2026-11-21T15:34:37Z"), Some(1_795_275_277_000));
        assert_eq!(parse_iso("2026-13-01T00:00:00Z"), None);
        // A day the month does not have is no date; a leap year's 29 February is one.
        assert_eq!(parse_iso("2026-02-29T00:00:00Z"), None);
        assert_eq!(parse_iso("2026-04-31T00:00:00Z"), None);
        assert!(parse_iso("2028-02-29T00:00:00Z").is_some());
        assert_eq!(parse_iso("1900-02-29T00:00:00Z"), None);
        assert!(parse_iso("2000-02-29T00:00:00Z").is_some());
        assert_eq!(parse_iso("yesterday"), None);
    }
}
