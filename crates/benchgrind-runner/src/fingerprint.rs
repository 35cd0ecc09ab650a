//! The machine fingerprint: what, besides the code, decides the counts. Stored with every
//! summary and baseline, and compared wherever two sets of counts are (previous run, baseline,
//! `benchgrind compare`, `merge`), so that a change of Valgrind, of the CPU Valgrind shows the
//! program, of glibc, rustc, the cache geometry or the target is named instead of passing for a
//! change of the code.
//!
//! The CPU is the one Valgrind presents to the program, not the host's: Valgrind 3.19 shows an
//! AMD EPYC host as an Intel i7-4910MQ with AVX2 and no AVX-512, so most hosts look alike, and
//! code that picks an implementation by CPU features picks by what Valgrind shows. It is read
//! with CPUID by the bench binary itself, started under `valgrind --tool=none` with
//! [`PROBE_FLAG`]; the answer depends only on Valgrind and the host CPU, so it is cached per
//! pair in the home directory and the probe runs once per machine and Valgrind.

use std::path::Path;

use serde::{Deserialize, Serialize};

/// The flag that makes the bench binary print [`cpu_seen`] and exit.
pub const PROBE_FLAG: &str = "--benchgrind-cpu-probe";

/// The file in the home directory that caches probe answers.
pub const CACHE_FILE: &str = ".cpu-under-valgrind";

/// What decides the counts, besides the code.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fingerprint {
    /// `valgrind --version`, e.g. `valgrind-3.19.0`.
    pub valgrind: String,
    /// The CPU as Valgrind shows it to the program: vendor, brand, family/model/stepping and
    /// the features that decide code paths.
    pub cpu: String,
    /// The glibc version the bench binary runs with; for a build for musl, which C library:
    /// [`STATIC_MUSL`] (the portable way: linked into the binary, the same on every machine)
    /// or `musl (dynamic)` (the machine's).
    pub glibc: String,
    /// The rustc that built the bench binary.
    pub rustc: String,
    /// The simulated caches, as passed to Callgrind.
    pub cache: String,
    /// The target triple.
    pub target: String,
    /// Provenance, not the machine (never a [`Difference`]): the git revision of the checkout
    /// the values were measured in (`BENCHGRIND_REVISION`, else the checkout's `HEAD`); empty
    /// when not known.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub revision: String,
    /// Provenance: the benchgrind version that measured the values; empty in older files.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub benchgrind: String,
}

/// One field that differs between two fingerprints.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Difference {
    /// The field's name, as in the JSON summary.
    pub field: &'static str,
    /// Its value on the side compared with.
    pub old: String,
    /// Its value now.
    pub new: String,
}

impl Fingerprint {
    /// The fields, named as in the JSON summary.
    fn fields(&self) -> [(&'static str, &str); 6] {
        [
            ("valgrind", &self.valgrind),
            ("cpu", &self.cpu),
            ("glibc", &self.glibc),
            ("rustc", &self.rustc),
            ("cache", &self.cache),
            ("target", &self.target),
        ]
    }

    /// The machine in one line, every field but the revision (which moves with every commit):
    /// what records of inputs and `ab`'s reuse of a base are keyed on.
    pub fn key(&self) -> String {
        format!(
            "{} | {} | {} | {} | {} | {} | {}",
            self.valgrind,
            self.cpu,
            self.glibc,
            self.rustc,
            self.cache,
            self.target,
            self.benchgrind
        )
    }

    /// Whether the bench binary is a portable build: linked statically with the musl that the
    /// Rust toolchain ships, so that nothing of the machine's userland runs inside it.
    pub fn portable(&self) -> bool {
        self.glibc == STATIC_MUSL
    }

    /// The fields in which `old` differs from `self`. A field empty on either side (written by
    /// an older version, or not known) is not a difference. Between two portable builds
    /// ([`Fingerprint::portable`]) Valgrind's version is not one either: measured, such a
    /// build counts the same under Valgrind 3.19, 3.24 and 3.27.1, each in its own userland
    /// (`scripts/portable.py`); what the CPU shows still is, since code picks its paths by it.
    pub fn differences(&self, old: &Fingerprint) -> Vec<Difference> {
        let portable = self.portable() && old.portable();
        self.fields()
            .into_iter()
            .zip(old.fields())
            .filter(|((field, _), _)| !(portable && *field == "valgrind"))
            .filter(|((_, new), (_, old))| !new.is_empty() && !old.is_empty() && new != old)
            .map(|((field, new), (_, old))| Difference {
                field,
                old: old.to_owned(),
                new: new.to_owned(),
            })
            .collect()
    }

    /// The fingerprint of this process and the given Valgrind: everything but the CPU, which
    /// [`crate::execute::valgrind::cpu_under_valgrind`] finds.
    pub fn local(valgrind_version: &str, cache: &str, cpu: String) -> Fingerprint {
        Fingerprint {
            valgrind: valgrind_version.to_owned(),
            cpu,
            glibc: glibc_version(),
            rustc: env!("BENCHGRIND_RUSTC_VERSION").to_owned(),
            cache: cache.to_owned(),
            target: env!("BENCHGRIND_TARGET_TRIPLE").to_owned(),
            revision: String::new(),
            benchgrind: env!("CARGO_PKG_VERSION").to_owned(),
        }
    }

    /// This fingerprint with the revision of the checkout at `dir` ([`revision`]).
    pub fn at_revision(mut self, dir: &Path) -> Fingerprint {
        self.revision = revision(dir).unwrap_or_default();
        self
    }
}

/// The git revision that values measured in the checkout at `dir` come from:
/// `BENCHGRIND_REVISION` when set (a CI job that knows it), else the commit of the `HEAD` of
/// the repository holding `dir` (a worktree too), read from its files without running git.
/// `None` outside a repository.
pub fn revision(dir: &Path) -> Option<String> {
    if let Some(revision) = std::env::var("BENCHGRIND_REVISION")
        .ok()
        .filter(|r| !r.trim().is_empty())
    {
        return Some(revision.trim().to_owned());
    }
    git_commit(dir)
}

/// The commit checked out in the repository that holds `start`, read from `.git` (worktrees
/// and packed refs included) without running git; `None` outside a repository or when it
/// cannot be read.
pub fn git_commit(start: &Path) -> Option<String> {
    let dot_git = start
        .ancestors()
        .map(|d| d.join(".git"))
        .find(|g| g.exists())?;
    let git_dir = if dot_git.is_file() {
        // A worktree: `gitdir: PATH`, relative to the worktree.
        let text = std::fs::read_to_string(&dot_git).ok()?;
        let path = Path::new(text.strip_prefix("gitdir:")?.trim());
        dot_git.parent()?.join(path)
    } else {
        dot_git
    };
    // The refs of a worktree live in the repository's own directory (`commondir`).
    let common = std::fs::read_to_string(git_dir.join("commondir"))
        .map(|c| git_dir.join(c.trim()))
        .unwrap_or_else(|_| git_dir.clone());
    let head = std::fs::read_to_string(git_dir.join("HEAD")).ok()?;
    let head = head.trim();
    let Some(name) = head.strip_prefix("ref:").map(str::trim) else {
        return Some(head.to_owned()).filter(|h| is_commit(h));
    };
    [&git_dir, &common]
        .iter()
        .find_map(|d| std::fs::read_to_string(d.join(name)).ok())
        .map(|r| r.trim().to_owned())
        .or_else(|| {
            let packed = std::fs::read_to_string(common.join("packed-refs")).ok()?;
            packed.lines().find_map(|l| {
                let (sha, r) = l.split_once(' ')?;
                (r == name).then(|| sha.to_owned())
            })
        })
        .filter(|h| is_commit(h))
}

/// A full hexadecimal object name (SHA-1 or SHA-256).
fn is_commit(text: &str) -> bool {
    matches!(text.len(), 40 | 64) && text.bytes().all(|b| b.is_ascii_hexdigit())
}

/// The `'static` name of a field read back from a file; unknown names read as `other`.
pub fn field_name(name: &str) -> &'static str {
    Fingerprint::default()
        .fields()
        .into_iter()
        .map(|(field, _)| field)
        .find(|field| *field == name)
        .unwrap_or("other")
}

/// Says which fields differ, for a report: `machine differs from the previous run: valgrind
/// valgrind-3.19.0 -> valgrind-3.22.0; cpu ...`; `None` when nothing does.
pub fn describe(differences: &[Difference], compared_with: &str) -> Option<String> {
    if differences.is_empty() {
        return None;
    }
    let fields: Vec<String> = differences
        .iter()
        .map(|d| format!("{} `{}` -> `{}`", d.field, d.old, d.new))
        .collect();
    Some(format!(
        "the machine differs from the {compared_with}: {}; counts may differ for that reason",
        fields.join("; ")
    ))
}

/// What [`Fingerprint::glibc`] says of a bench binary linked statically with musl.
pub const STATIC_MUSL: &str = "musl (static)";

/// Whether this program is linked statically (no dynamic loader, no shared library).
pub const STATIC_BUILD: bool = cfg!(target_feature = "crt-static");

/// The glibc version, from `gnu_get_libc_version`; for a build for musl, whether the C
/// library is linked in ([`STATIC_MUSL`]) or the machine's.
fn glibc_version() -> String {
    #[cfg(all(target_env = "musl", target_feature = "crt-static"))]
    {
        STATIC_MUSL.to_owned()
    }
    #[cfg(all(target_env = "musl", not(target_feature = "crt-static")))]
    {
        "musl (dynamic)".to_owned()
    }
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        extern "C" {
            fn gnu_get_libc_version() -> *const std::ffi::c_char;
        }
        // SAFETY: glibc returns a pointer to a static, NUL-terminated string.
        unsafe { std::ffi::CStr::from_ptr(gnu_get_libc_version()) }
            .to_string_lossy()
            .into_owned()
    }
    #[cfg(not(any(all(target_os = "linux", target_env = "gnu"), target_env = "musl")))]
    {
        String::new()
    }
}

/// The CPU as this process sees it through CPUID: `vendor | brand | fms HEX | features`.
/// Under Valgrind it is Valgrind's answer.
pub fn cpu_seen() -> String {
    #[cfg(target_arch = "x86_64")]
    {
        x86::describe()
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        std::env::consts::ARCH.to_owned()
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use std::arch::x86_64::{__cpuid, __cpuid_count, CpuidResult};

    fn bytes(registers: &[u32]) -> String {
        let raw: Vec<u8> = registers.iter().flat_map(|r| r.to_le_bytes()).collect();
        String::from_utf8_lossy(&raw)
            .trim_matches(char::from(0))
            .trim()
            .to_owned()
    }

    // `unsafe` until Rust 1.87 made CPUID safe; the MSRV is older.
    #[allow(unused_unsafe)]
    fn leaf(leaf: u32) -> CpuidResult {
        // SAFETY: CPUID exists on every x86_64 CPU and has no side effects.
        unsafe { __cpuid(leaf) }
    }

    /// Vendor, brand, family/model/stepping and the features that decide code paths.
    #[allow(unused_unsafe)]
    pub(super) fn describe() -> String {
        let l0 = leaf(0);
        let vendor = bytes(&[l0.ebx, l0.edx, l0.ecx]);
        let brand = if leaf(0x8000_0000).eax >= 0x8000_0004 {
            let regs: Vec<u32> = (0x8000_0002..=0x8000_0004)
                .map(leaf)
                .flat_map(|r| [r.eax, r.ebx, r.ecx, r.edx])
                .collect();
            bytes(&regs)
        } else {
            String::new()
        };
        let l1 = leaf(1);
        let l7 = if l0.eax >= 7 {
            // SAFETY: as above; leaf 7 exists (checked against the highest leaf).
            unsafe { __cpuid_count(7, 0) }
        } else {
            CpuidResult {
                eax: 0,
                ebx: 0,
                ecx: 0,
                edx: 0,
            }
        };
        let flags = [
            ("sse4.2", l1.ecx >> 20),
            ("popcnt", l1.ecx >> 23),
            ("aes", l1.ecx >> 25),
            ("avx", l1.ecx >> 28),
            ("fma", l1.ecx >> 12),
            ("bmi1", l7.ebx >> 3),
            ("avx2", l7.ebx >> 5),
            ("bmi2", l7.ebx >> 8),
            ("avx512f", l7.ebx >> 16),
            ("sha", l7.ebx >> 29),
        ];
        let features: Vec<&str> = flags
            .iter()
            .filter(|(_, bit)| bit & 1 == 1)
            .map(|(name, _)| *name)
            .collect();
        format!(
            "{vendor} | {brand} | fms {:x} | {}",
            l1.eax,
            features.join(",")
        )
    }
}

/// The answer cached for `key` in the cache file's text (`KEY\tANSWER` lines).
pub fn cached_answer<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    text.lines()
        .find_map(|l| l.split_once('\t').filter(|(k, _)| *k == key))
        .map(|(_, answer)| answer)
        .filter(|a| !a.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Fingerprint {
        Fingerprint {
            valgrind: "valgrind-3.19.0".into(),
            cpu: "GenuineIntel | Intel(R) Core(TM) i7-4910MQ CPU @ 2.90GHz | fms 306c3 | avx2"
                .into(),
            glibc: "2.36".into(),
            rustc: "1.95.0".into(),
            cache: "--I1=32768,8,64 --D1=32768,8,64 --LL=8388608,16,64".into(),
            target: "x86_64-unknown-linux-gnu".into(),
            revision: String::new(),
            benchgrind: String::new(),
        }
    }

    #[test]
    fn provenance_is_no_difference_and_the_revision_is_read_from_git_files() {
        let old = sample();
        let mut new = sample();
        new.revision = "a".repeat(40);
        new.benchgrind = "9.9.9".into();
        assert!(new.differences(&old).is_empty());
        // A repository with HEAD on a branch whose ref is packed, and a worktree detached at
        // another commit.
        let dir = tempfile::tempdir().unwrap();
        let git = dir.path().join("repo/.git");
        std::fs::create_dir_all(git.join("worktrees/side")).unwrap();
        std::fs::create_dir_all(dir.path().join("repo/crate/src")).unwrap();
        std::fs::write(git.join("HEAD"), "ref: refs/heads/main\n").unwrap();
        let main = "1".repeat(40);
        let side = "2".repeat(40);
        std::fs::write(
            git.join("packed-refs"),
            format!("# pack\n{main} refs/heads/main\n"),
        )
        .unwrap();
        std::fs::write(git.join("worktrees/side/HEAD"), format!("{side}\n")).unwrap();
        std::fs::write(git.join("worktrees/side/commondir"), "../..\n").unwrap();
        std::fs::create_dir_all(dir.path().join("side")).unwrap();
        std::fs::write(
            dir.path().join("side/.git"),
            format!("gitdir: {}\n", git.join("worktrees/side").display()),
        )
        .unwrap();
        if std::env::var_os("BENCHGRIND_REVISION").is_none() {
            assert_eq!(revision(&dir.path().join("repo/crate/src")), Some(main));
            assert_eq!(revision(&dir.path().join("side")), Some(side));
            assert_eq!(revision(dir.path()), None);
        }
    }

    #[test]
    fn names_each_differing_field() {
        let old = sample();
        assert!(old.differences(&old).is_empty());
        let mut new = sample();
        new.valgrind = "valgrind-3.22.0".into();
        new.glibc = "2.40".into();
        let d = new.differences(&old);
        let fields: Vec<&str> = d.iter().map(|d| d.field).collect();
        assert_eq!(fields, ["valgrind", "glibc"]);
        assert_eq!(
            (d[0].old.as_str(), d[0].new.as_str()),
            ("valgrind-3.19.0", "valgrind-3.22.0")
        );
        let text = describe(&d, "previous run").unwrap();
        assert!(
            text.contains("valgrind `valgrind-3.19.0` -> `valgrind-3.22.0`"),
            "{text}"
        );
        assert!(text.contains("glibc `2.36` -> `2.40`"), "{text}");
        assert_eq!(describe(&[], "previous run"), None);
    }

    #[test]
    fn between_portable_builds_valgrind_is_no_difference_but_the_cpu_is() {
        let portable = |valgrind: &str| Fingerprint {
            valgrind: valgrind.into(),
            glibc: STATIC_MUSL.into(),
            target: "x86_64-unknown-linux-musl".into(),
            ..sample()
        };
        let old = portable("valgrind-3.19.0");
        let new = portable("valgrind-3.27.1");
        assert!(old.portable() && new.portable());
        assert!(new.differences(&old).is_empty());
        let mut other_cpu = portable("valgrind-3.27.1");
        other_cpu.cpu = "AuthenticAMD | x | fms 1 | avx2".into();
        let fields: Vec<&str> = other_cpu
            .differences(&old)
            .iter()
            .map(|d| d.field)
            .collect();
        assert_eq!(fields, ["cpu"]);
        // A glibc build against a portable one: everything that differs is named.
        let fields: Vec<&str> = sample().differences(&new).iter().map(|d| d.field).collect();
        assert_eq!(fields, ["valgrind", "glibc", "target"]);
    }

    #[test]
    fn unknown_fields_are_no_difference() {
        let old = Fingerprint {
            cpu: String::new(),
            ..sample()
        };
        let mut new = sample();
        new.cpu = "AuthenticAMD | x | fms 1 | avx2".into();
        assert!(new.differences(&old).is_empty());
        assert!(new.differences(&Fingerprint::default()).is_empty());
    }

    #[test]
    fn local_values() {
        let local = Fingerprint::local("valgrind-3.19.0", "geometry", String::new());
        assert!(local.rustc.starts_with("1."), "{}", local.rustc);
        assert!(!local.target.is_empty());
        #[cfg(all(target_os = "linux", target_env = "gnu"))]
        assert!(local.glibc.starts_with("2."), "{}", local.glibc);
        #[cfg(target_arch = "x86_64")]
        assert!(cpu_seen().contains(" | fms "), "{}", cpu_seen());
    }

    #[test]
    fn cache_lines() {
        let text = "v1 on a\tanswer a\nv2 on b\tanswer b\nv3 on c\t\n";
        assert_eq!(cached_answer(text, "v2 on b"), Some("answer b"));
        assert_eq!(cached_answer(text, "v3 on c"), None);
        assert_eq!(cached_answer(text, "v9"), None);
    }
}
