//! Whether the bench binary's counts can move with code they do not run. rustc splits a crate
//! into code-generation units (up to 16 in cargo's bench and release profiles) and optimizes
//! each on its own: which functions share a unit decides what is inlined where, and adding a
//! function anywhere in the file can move functions between units. Measured on a published
//! crate's bench file of 43 benchmarks: adding one benchmark changed another's instructions by
//! +0.14 % with the default units and moved none with `codegen-units = 1`.
//!
//! The binary says how its own crate was split: with debug information (line tables are
//! enough) each unit is a compilation unit named `<file>/@/<crate>.<hash>-cgu.<n>`. A binary
//! built from more than one says so once per build, after a run that measured something
//! ([`note_once`]); for one without debug information
//! the bench profile's setting in the workspace's manifest (or cargo's variable) decides. What was found is kept in the home (`.units/<binary>`) with the binary's size
//! and modification time, so that the binary is read once per build.

use std::collections::BTreeSet;
use std::path::Path;

/// The units of crate `name` that `binary` holds compilation units of.
fn units(binary: &[u8], name: &str) -> BTreeSet<u32> {
    let needle = format!("/@/{name}.");
    let needle = needle.as_bytes();
    let mut found = BTreeSet::new();
    let mut at = 0;
    while let Some(i) = find(&binary[at..], needle) {
        let rest = &binary[at + i + needle.len()..];
        let hash = rest.iter().take_while(|b| b.is_ascii_hexdigit()).count();
        if let Some(digits) = rest[hash..].strip_prefix(b"-cgu.") {
            let n = digits.iter().take_while(|b| b.is_ascii_digit()).count();
            if let Some(unit) = std::str::from_utf8(&digits[..n])
                .ok()
                .and_then(|s| s.parse().ok())
            {
                found.insert(unit);
            }
        }
        at += i + needle.len();
    }
    found
}

/// Where `needle` first is in `haystack`.
fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    let first = *needle.first()?;
    let mut start = 0;
    while let Some(i) = haystack[start..].iter().position(|&b| b == first) {
        let at = start + i;
        if haystack[at..].starts_with(needle) {
            return Some(at);
        }
        start = at + 1;
    }
    None
}

/// The crate name of a bench binary cargo built: its file name without cargo's `-<hash>`.
fn crate_name(exe: &Path) -> Option<String> {
    let stem = exe.file_name()?.to_str()?;
    let name = match stem.rsplit_once('-') {
        Some((name, hash)) if hash.len() == 16 && hash.chars().all(|c| c.is_ascii_hexdigit()) => {
            name
        }
        _ => stem,
    };
    Some(name.to_owned())
}

/// How many units `exe`'s own crate was compiled in, if its debug information says; read from
/// `cache` when it was written for the same build.
fn count(exe: &Path, cache: &Path) -> Option<usize> {
    let key = build(exe)?;
    if let Ok(text) = std::fs::read_to_string(cache) {
        if let Some(n) = text.strip_prefix(&format!("{key} ")) {
            return n.trim().parse().ok().filter(|&n| n > 0);
        }
    }
    let n = units(&std::fs::read(exe).ok()?, &crate_name(exe)?).len();
    if let Some(dir) = cache.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    let _ = crate::store::write_atomic(cache, format!("{key} {n}\n").as_bytes());
    (n > 0).then_some(n)
}

/// What tells one build of `exe` from another: its size and modification time.
fn build(exe: &Path) -> Option<String> {
    let meta = std::fs::metadata(exe).ok()?;
    let modified = meta
        .modified()
        .ok()?
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?
        .as_nanos();
    Some(format!("{} {modified}", meta.len()))
}

/// [`note`], once per build of `exe`: `None` when this build already said it (kept in the home
/// as `.units/<binary>.noted`). Called after a run that measured something, so that a run whose
/// results were all reused says nothing.
pub fn note_once(exe: &Path, home: &Path, workspace_root: &Path) -> Option<String> {
    let marker = home
        .join(".units")
        .join(format!("{}.noted", exe.file_name()?.to_string_lossy()));
    let key = build(exe)?;
    if std::fs::read_to_string(&marker).is_ok_and(|said| said.trim() == key) {
        return None;
    }
    let note = note(exe, home, workspace_root)?;
    let _ = crate::store::write_atomic(&marker, format!("{key}\n").as_bytes());
    Some(note)
}

/// The `codegen-units` the bench profile is given, where a binary without debug information
/// cannot tell: `CARGO_PROFILE_BENCH_CODEGEN_UNITS`, else `[profile.bench]` of the workspace's
/// manifest, else `[profile.release]` (which the bench profile inherits); `None` where none
/// says.
fn configured(workspace_root: &Path) -> Option<u32> {
    if let Some(n) = std::env::var("CARGO_PROFILE_BENCH_CODEGEN_UNITS")
        .ok()
        .and_then(|v| v.trim().parse().ok())
    {
        return Some(n);
    }
    let manifest = std::fs::read_to_string(workspace_root.join("Cargo.toml")).ok()?;
    ["bench", "release"]
        .into_iter()
        .find_map(|profile| in_profile(&manifest, profile))
}

/// `codegen-units` of `[profile.<profile>]` in a manifest's text.
fn in_profile(manifest: &str, profile: &str) -> Option<u32> {
    let header = format!("[profile.{profile}]");
    let mut inside = false;
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            inside = line == header;
        } else if inside {
            if let Some((key, value)) = line.split_once('=') {
                if key.trim() == "codegen-units" {
                    let value = value.split('#').next().unwrap_or("").trim();
                    return value.parse().ok();
                }
            }
        }
    }
    None
}

/// What a run says when its bench binary was compiled in more than one unit, with the lines
/// that make it one; `None` for one unit. Where the binary has no debug information to tell,
/// the profile's setting decides (cargo's default is up to 16).
pub fn note(exe: &Path, home: &Path, workspace_root: &Path) -> Option<String> {
    let found = count(exe, &home.join(".units").join(exe.file_name()?));
    let how = match found {
        Some(1) => return None,
        Some(n) => format!("was compiled in {n} code-generation units"),
        None => match configured(workspace_root) {
            Some(1) => return None,
            Some(n) => format!("is built in up to {n} code-generation units"),
            None => "is built in up to 16 code-generation units (cargo's default)".to_owned(),
        },
    };
    Some(format!(
        "this bench binary {how}, so changing code it does not run (adding a benchmark, say) can \
         move its counts: how functions share a unit decides what is inlined where. For counts \
         that move only with the code they measure, build benchmarks in one unit, in the \
         workspace's Cargo.toml:\n\n    [profile.bench]\n    codegen-units = 1\n"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_are_read_from_compilation_unit_names() {
        let binary = b"\0benches/work.rs/@/work.8366d860f42321ec-cgu.3\0x\0\
            benches/work.rs/@/work.8366d860f42321ec-cgu.0\0/@/work.8366d860f42321ec-cgu.3\0\
            /@/workers.1234abcd-cgu.7\0/@/work.ffff-cgu.\0";
        assert_eq!(units(binary, "work"), BTreeSet::from([0, 3]));
        assert_eq!(units(b"nothing here", "work"), BTreeSet::new());
    }

    #[test]
    fn the_crate_name_is_the_file_name_without_cargos_hash() {
        let name = |p: &str| crate_name(Path::new(p));
        assert_eq!(
            name("/t/release/deps/my_bench-e8cfca0643f849dc").unwrap(),
            "my_bench"
        );
        assert_eq!(name("/t/debug/e2e-shells").unwrap(), "e2e-shells");
        assert_eq!(name("/t/debug/plain").unwrap(), "plain");
    }

    #[test]
    fn a_build_is_read_once() {
        let dir = tempfile::tempdir().unwrap();
        let exe = dir.path().join("work-0123456789abcdef");
        std::fs::write(&exe, b"/@/work.aa-cgu.0\0/@/work.aa-cgu.1\0").unwrap();
        let cache = dir.path().join("home/.units/work-0123456789abcdef");
        assert_eq!(count(&exe, &cache), Some(2));
        let kept = std::fs::read_to_string(&cache).unwrap();
        assert!(kept.ends_with(" 2\n"), "{kept}");
        // The same build is not read again: the cache answers.
        std::fs::write(&cache, kept.replace(" 2\n", " 5\n")).unwrap();
        assert_eq!(count(&exe, &cache), Some(5));
        let home = dir.path().join("home");
        assert!(note(&exe, &home, dir.path())
            .unwrap()
            .contains("5 code-generation"));
    }

    #[test]
    fn without_debug_information_the_profile_decides() {
        let manifest = "[package]\nname = \"x\"\n\n[profile.release]\ncodegen-units = 4\n\
                        \n[profile.bench]\ndebug = true\ncodegen-units = 1 # one\n";
        assert_eq!(in_profile(manifest, "bench"), Some(1));
        assert_eq!(in_profile(manifest, "release"), Some(4));
        assert_eq!(
            in_profile("[profile.dev]\ncodegen-units = 2\n", "bench"),
            None
        );

        let dir = tempfile::tempdir().unwrap();
        let exe = dir.path().join("work-0123456789abcdef");
        std::fs::write(&exe, b"no debug information").unwrap();
        let home = dir.path().join("home");
        let manifest = dir.path().join("Cargo.toml");
        std::fs::write(&manifest, "[profile.bench]\ncodegen-units = 1\n").unwrap();
        assert_eq!(note(&exe, &home, dir.path()), None);
        std::fs::write(&manifest, "[package]\n").unwrap();
        let said = note(&exe, &home, dir.path()).unwrap();
        assert!(said.contains("up to 16 code-generation units"), "{said}");
    }

    #[test]
    fn the_note_is_said_once_per_build() {
        let dir = tempfile::tempdir().unwrap();
        let exe = dir.path().join("work-0123456789abcdef");
        std::fs::write(&exe, b"/@/work.aa-cgu.0\0/@/work.aa-cgu.1\0").unwrap();
        let home = dir.path().join("home");
        assert!(note_once(&exe, &home, dir.path()).is_some());
        assert_eq!(note_once(&exe, &home, dir.path()), None);
        // Another build (another size) says it again.
        std::fs::write(
            &exe,
            b"/@/work.aa-cgu.0\0/@/work.aa-cgu.1\0/@/work.aa-cgu.2\0",
        )
        .unwrap();
        let said = note_once(&exe, &home, dir.path()).unwrap();
        assert!(said.contains("3 code-generation"), "{said}");
        assert_eq!(note_once(&exe, &home, dir.path()), None);
    }
}
