//! Dates, as benchgrind writes them: in UTC for the history, the summaries and the records
//! ([`utc_date`]), in local time with its offset as Google Benchmark's `context` has them
//! ([`local_date`], [`rfc3339`]).

/// The civil date and the time of day (seconds) of `secs` seconds since 1970-01-01 (proleptic
/// Gregorian, counting in 400-year eras from 0000-03-01, after H. Hinnant's algorithm).
fn civil(secs: i64) -> ((i64, i64, i64), i64) {
    let (days, rest) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    ((year, month, day), rest)
}

/// `YYYY-MM-DDTHH:MM:SS` of a civil date and a time of day.
fn date_time((year, month, day): (i64, i64, i64), rest: i64) -> String {
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}",
        rest / 3600,
        rest / 60 % 60,
        rest % 60
    )
}

/// `YYYY-MM-DDTHH:MM:SSZ` of seconds since the Unix epoch (UTC).
pub fn utc_date(secs: u64) -> String {
    let (date, rest) = civil(secs as i64);
    date_time(date, rest) + "Z"
}

/// Now, as Google Benchmark writes its `date`: RFC 3339 in local time with the offset.
pub fn local_date() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    rfc3339(secs, utc_offset(secs))
}

/// The local time zone's offset from UTC: 0 outside Unix (not looked up there).
#[cfg(not(unix))]
fn utc_offset(_secs: u64) -> i64 {
    0
}

/// The local time zone's offset from UTC at `secs`, in seconds (0 when unknown).
#[cfg(unix)]
fn utc_offset(secs: u64) -> i64 {
    // musl's `time_t` is marked deprecated by the libc crate (its width changed in musl 1.2);
    // it is the type `localtime_r` takes either way.
    #[allow(deprecated)]
    let Ok(t) = libc::time_t::try_from(secs) else {
        return 0;
    };
    // SAFETY: `tm` is plain data that localtime_r fills; both pointers are valid for the call.
    unsafe {
        let mut tm: libc::tm = std::mem::zeroed();
        if libc::localtime_r(&t, &mut tm).is_null() {
            return 0;
        }
        #[allow(clippy::unnecessary_cast)] // c_long: i64 on 64-bit targets, i32 on others
        let offset = tm.tm_gmtoff as i64;
        offset
    }
}

/// `secs` after the epoch, shifted by `offset` seconds, as `YYYY-MM-DDTHH:MM:SS+HH:MM`.
pub fn rfc3339(secs: u64, offset: i64) -> String {
    let (date, rest) = civil(secs as i64 + offset);
    let sign = if offset < 0 { '-' } else { '+' };
    let off = offset.unsigned_abs() / 60;
    format!(
        "{}{sign}{:02}:{:02}",
        date_time(date, rest),
        off / 60,
        off % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_rfc3339_with_the_offset() {
        assert_eq!(rfc3339(0, 0), "1970-01-01T00:00:00+00:00");
        assert_eq!(rfc3339(951_782_400, 0), "2000-02-29T00:00:00+00:00");
        assert_eq!(rfc3339(1_764_005_261, 0), "2025-11-24T17:27:41+00:00");
        assert_eq!(rfc3339(1_764_005_261, 3600), "2025-11-24T18:27:41+01:00");
        assert_eq!(rfc3339(0, -9000), "1969-12-31T21:30:00-02:30");
        assert_eq!(local_date().len(), "1970-01-01T00:00:00+00:00".len());
    }
}
