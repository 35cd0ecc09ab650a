//! The facts of Google Benchmark's `context` that are not counts: the date as Google Benchmark
//! writes it ([`local_date`], from [`crate::dates`]), the host's name, the caches Callgrind
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

pub use crate::dates::{local_date, rfc3339};

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
