//! Dates, as benchgrind writes them: in UTC for the history, the summaries and the records
//! ([`utc_date`], [`UtcDate`]), in local time with its offset as Google Benchmark's `context` has them
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
    UtcDate(secs).to_string()
}

/// A moment to the second, in UTC: when results were measured. Written and read as
/// `YYYY-MM-DDTHH:MM:SSZ`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct UtcDate(u64);

impl UtcDate {
    /// Now (the epoch where the clock is set before it).
    pub fn now() -> UtcDate {
        let since = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
        UtcDate(since.map_or(0, |d| d.as_secs()))
    }

    /// `secs` seconds after 1970-01-01T00:00:00Z.
    pub fn from_secs(secs: u64) -> UtcDate {
        UtcDate(secs)
    }
}

impl std::fmt::Display for UtcDate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (date, rest) = civil(self.0 as i64);
        write!(f, "{}Z", date_time(date, rest))
    }
}

/// A text that is not `YYYY-MM-DDTHH:MM:SSZ` of a date from 1970 on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotADate(pub String);

impl std::fmt::Display for NotADate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "`{}` is not a date as YYYY-MM-DDTHH:MM:SSZ", self.0)
    }
}

impl std::error::Error for NotADate {}

impl std::str::FromStr for UtcDate {
    type Err = NotADate;

    fn from_str(text: &str) -> Result<UtcDate, NotADate> {
        let wrong = || NotADate(text.to_owned());
        let b = text.as_bytes();
        let shape = b"dddd-dd-ddTdd:dd:ddZ";
        let shaped = b.len() == shape.len()
            && (b.iter().zip(shape)).all(|(c, s)| match s {
                b'd' => c.is_ascii_digit(),
                s => c == s,
            });
        if !shaped {
            return Err(wrong());
        }
        let n = |range: std::ops::Range<usize>| text[range].parse::<i64>().map_err(|_| wrong());
        let (year, month, day) = (n(0..4)?, n(5..7)?, n(8..10)?);
        let secs =
            days(year, month, day) * 86_400 + n(11..13)? * 3600 + n(14..16)? * 60 + n(17..19)?;
        // Read back as written: a day or an hour out of range is refused, not carried over.
        let date = u64::try_from(secs).map(UtcDate).map_err(|_| wrong())?;
        if date.to_string() != text {
            return Err(wrong());
        }
        Ok(date)
    }
}

/// The days from 1970-01-01 to a civil date ([`civil`]'s inverse, after H. Hinnant).
fn days(year: i64, month: i64, day: i64) -> i64 {
    let year = year - i64::from(month <= 2);
    let era = year.div_euclid(400);
    let yoe = year.rem_euclid(400);
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
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

    #[test]
    fn utc_dates_read_back_as_written_and_nothing_else() {
        for secs in [0, 951_782_400, 1_700_000_000, 4_102_444_799] {
            let date = UtcDate::from_secs(secs);
            assert_eq!(date.to_string().parse(), Ok(date));
        }
        assert_eq!(
            UtcDate::from_secs(951_782_400).to_string(),
            "2000-02-29T00:00:00Z"
        );
        for wrong in [
            "",
            "2026-12-04",
            "2026-12-04T03:10:00",
            "2026-02-30T00:00:00Z",
            "2026-12-04T24:00:00Z",
            "1969-12-31T23:59:59Z",
            "2026-1a-04T03:10:00Z",
        ] {
            assert!(wrong.parse::<UtcDate>().is_err(), "{wrong}");
        }
    }
}
