//! The facts of Google Benchmark's `context` that are not counts: the date as Google Benchmark
//! writes it (RFC 3339, local time with its offset), the host's name, the caches Callgrind
//! simulates (from the cache arguments it was given) and the clock rate the CPU Valgrind shows
//! claims. Used by the bench binaries' `--benchmark_out` and by `benchgrind gbench --out`.

use serde::Serialize;

use crate::execute::args::CACHE_GEOMETRY;

/// One cache, as Google Benchmark lists a machine's.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Cache {
    /// `Data`, `Instruction` or `Unified`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// 1 for L1, 2 for Callgrind's last level (it simulates two levels).
    pub level: u32,
    /// Bytes.
    pub size: u64,
    /// The simulated program runs one thread at a time: no cache is shared.
    pub num_sharing: u32,
}

/// The cache arguments a Callgrind command line ends up with: benchgrind's fixed geometry,
/// each replaced by the last `--I1`, `--D1` or `--LL` among `args`.
pub fn cache_args(args: &[String]) -> Vec<String> {
    CACHE_GEOMETRY
        .iter()
        .map(|default| {
            let prefix = &default[..default.find('=').map_or(default.len(), |i| i + 1)];
            args.iter()
                .rev()
                .find(|a| a.starts_with(prefix))
                .map_or_else(|| (*default).to_owned(), Clone::clone)
        })
        .collect()
}

/// The caches that cache arguments (`--I1=SIZE,ASSOC,LINE`, ...) describe, in Google
/// Benchmark's order (L1 data, L1 instruction, then the last level); an argument that does not
/// parse is left out.
pub fn simulated_caches(cache_args: &[String]) -> Vec<Cache> {
    let mut caches: Vec<Cache> = cache_args
        .iter()
        .filter_map(|arg| {
            let (name, spec) = arg.strip_prefix("--")?.split_once('=')?;
            let (kind, level) = match name {
                "D1" => ("Data", 1),
                "I1" => ("Instruction", 1),
                "LL" => ("Unified", 2),
                _ => return None,
            };
            let size = spec.split(',').next()?.trim().parse().ok()?;
            Some(Cache {
                kind,
                level,
                size,
                num_sharing: 1,
            })
        })
        .collect();
    caches.sort_by_key(|c| (c.level, c.kind != "Data"));
    caches
}

/// The clock rate in MHz a CPU's brand string claims (`... CPU @ 2.90GHz`), else 0.
pub fn mhz_per_cpu(cpu: &str) -> u64 {
    let Some((_, rate)) = cpu.rsplit_once('@') else {
        return 0;
    };
    let rate = rate.split('|').next().unwrap_or("").trim();
    let (number, scale) = if let Some(ghz) = rate.strip_suffix("GHz") {
        (ghz, 1000.0)
    } else if let Some(mhz) = rate.strip_suffix("MHz") {
        (mhz, 1.0)
    } else {
        return 0;
    };
    number
        .trim()
        .parse::<f64>()
        .map_or(0, |n| (n * scale).round() as u64)
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
    let local = secs as i64 + offset;
    let (days, rem) = (local.div_euclid(86_400), local.rem_euclid(86_400));
    // Days since 1970-01-01 to a civil date (proleptic Gregorian), after H. Hinnant's algorithm.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    let sign = if offset < 0 { '-' } else { '+' };
    let off = offset.unsigned_abs() / 60;
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}{sign}{:02}:{:02}",
        rem / 3600,
        rem / 60 % 60,
        rem % 60,
        off / 60,
        off % 60
    )
}

/// The machine's name, as Windows has it in `COMPUTERNAME`.
#[cfg(not(unix))]
pub fn host_name() -> String {
    std::env::var("COMPUTERNAME").unwrap_or_else(|_| "unknown".into())
}

/// The machine's name, as `gethostname` has it.
#[cfg(unix)]
pub fn host_name() -> String {
    let mut buf = [0u8; 256];
    // SAFETY: the buffer is valid for its length; gethostname writes at most that many bytes.
    let ok = unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) } == 0;
    let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    Some(String::from_utf8_lossy(&buf[..end]).into_owned())
        .filter(|h| ok && !h.is_empty())
        .unwrap_or_else(|| "unknown".into())
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
    fn caches_follow_the_last_cache_arguments() {
        let fixed = cache_args(&[]);
        assert_eq!(fixed, CACHE_GEOMETRY);
        let caches = simulated_caches(&fixed);
        let sizes: Vec<_> = caches.iter().map(|c| (c.kind, c.level, c.size)).collect();
        assert_eq!(
            sizes,
            [
                ("Data", 1, 32_768),
                ("Instruction", 1, 32_768),
                ("Unified", 2, 8_388_608)
            ]
        );
        let args: Vec<String> = ["--tool=callgrind", "--LL=4194304,8,64", "--LL=2097152,8,64"]
            .map(String::from)
            .to_vec();
        let overridden = cache_args(&args);
        assert_eq!(overridden[2], "--LL=2097152,8,64");
        assert_eq!(simulated_caches(&overridden)[2].size, 2_097_152);
    }

    #[test]
    fn clock_rates_of_brand_strings() {
        let valgrind_cpu =
            "GenuineIntel | Intel(R) Core(TM) i7-4910MQ CPU @ 2.90GHz | fms 306c3 | avx2";
        assert_eq!(mhz_per_cpu(valgrind_cpu), 2900);
        assert_eq!(mhz_per_cpu("x | Some CPU @ 800MHz | fms 1 | "), 800);
        assert_eq!(
            mhz_per_cpu("AuthenticAMD | AMD EPYC 7B13 | fms 1 | avx2"),
            0
        );
        assert_eq!(mhz_per_cpu(""), 0);
        assert!(!host_name().is_empty());
    }
}
