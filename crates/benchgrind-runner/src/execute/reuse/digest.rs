//! Digests of files and strings for the record of a benchmark's inputs: XXH3's 128 bits
//! (`xxhash-rust`, as cargo-nextest keys its cache), fast enough that a bench binary of tens of
//! megabytes is read and digested in a few milliseconds. It tells a changed input from an
//! unchanged one; it is not meant to withstand someone crafting a collision. A record names the
//! version of its format, which names this digest: another digest is another version.

use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use xxhash_rust::xxh3::Xxh3;

/// A digest being computed.
#[derive(Clone, Default)]
pub struct Digest(Xxh3);

impl std::fmt::Debug for Digest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Digest")
    }
}

impl Digest {
    /// Adds bytes.
    pub fn update(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
    }

    /// Adds a string and its end, so that ("ab", "c") and ("a", "bc") differ.
    pub fn field(&mut self, text: &[u8]) {
        self.update(&(text.len() as u64).to_le_bytes());
        self.update(text);
    }

    /// The digest in 32 hexadecimal digits.
    pub fn finish(self) -> String {
        format!("{:032x}", self.0.digest128())
    }
}

/// The digest of some bytes.
pub fn of_bytes(bytes: &[u8]) -> String {
    format!("{:032x}", xxhash_rust::xxh3::xxh3_128(bytes))
}

/// What identifies a file's contents between two reads within one run: a file digested once is
/// not read again unless one of these moved.
type Stamp = (u64, u64, u64, i64, i64);

#[cfg(unix)]
fn stamp(meta: &std::fs::Metadata) -> Stamp {
    use std::os::unix::fs::MetadataExt;
    (
        meta.dev(),
        meta.ino(),
        meta.size(),
        meta.mtime_nsec() + meta.mtime() * 1_000_000_000,
        meta.ctime_nsec() + meta.ctime() * 1_000_000_000,
    )
}

/// Where benchmarks are not measured (outside Linux) nothing is reused; the size and time
/// stand in.
#[cfg(not(unix))]
fn stamp(meta: &std::fs::Metadata) -> Stamp {
    let modified = meta
        .modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos() as i64);
    (0, 0, meta.len(), modified, 0)
}

/// The digest of a file's contents.
pub fn of_file(path: &Path) -> std::io::Result<String> {
    let mut file = std::fs::File::open(path)?;
    digest_of(&mut file)
}

/// The digest of what is left to read of `file`.
fn digest_of(file: &mut std::fs::File) -> std::io::Result<String> {
    let mut digest = Digest::default();
    let mut buffer = vec![0u8; 1 << 20];
    loop {
        let n = file.read(&mut buffer)?;
        if n == 0 {
            break;
        }
        digest.update(&buffer[..n]);
    }
    Ok(digest.finish())
}

/// The digests of files taken in one run, each file read once for as long as its stamp stays
/// (a bench binary's libraries are read once for all its benchmarks). One value per run, held
/// by its [`super::Run`].
#[derive(Debug, Default)]
pub struct Files(Mutex<HashMap<PathBuf, (Stamp, String)>>);

impl Files {
    /// The digest of a file's contents, read again only when its stamp moved.
    pub fn of(&self, path: &Path) -> std::io::Result<String> {
        let mut file = std::fs::File::open(path)?;
        let stamp = stamp(&file.metadata()?);
        let seen = |files: &Files| {
            let seen = files
                .0
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            seen.get(path)
                .filter(|(s, _)| *s == stamp)
                .map(|(_, d)| d.clone())
        };
        if let Some(digest) = seen(self) {
            return Ok(digest);
        }
        let digest = digest_of(&mut file)?;
        (self.0.lock())
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(path.to_owned(), (stamp, digest.clone()));
        Ok(digest)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_digest_as_the_whole_and_every_byte_matters() {
        let bytes: Vec<u8> = (0..1000u32).map(|i| (i * 7 % 251) as u8).collect();
        let whole = of_bytes(&bytes);
        for cut in [0, 1, 31, 32, 33, 500, 999, 1000] {
            let mut digest = Digest::default();
            digest.update(&bytes[..cut]);
            digest.update(&bytes[cut..]);
            assert_eq!(digest.finish(), whole, "cut at {cut}");
        }
        for at in [0, 17, 31, 32, 999] {
            let mut changed = bytes.clone();
            changed[at] ^= 1;
            assert_ne!(of_bytes(&changed), whole, "byte {at}");
        }
        // A trailing zero byte is a different input.
        let mut longer = bytes.clone();
        longer.push(0);
        assert_ne!(of_bytes(&longer), whole);
        assert_ne!(of_bytes(b""), of_bytes(b"\0"));
        assert_eq!(whole.len(), 32);
        // XXH3-128 itself (the reference implementation's digest of no bytes).
        assert_eq!(of_bytes(b""), "99aa06d3014798d86001c324468d497f");
    }

    #[test]
    fn a_file_digests_as_its_bytes_and_again_after_a_change() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        std::fs::write(&path, b"one").unwrap();
        let files = Files::default();
        assert_eq!(of_file(&path).unwrap(), of_bytes(b"one"));
        assert_eq!(files.of(&path).unwrap(), of_bytes(b"one"));
        std::fs::write(&path, b"two, longer").unwrap();
        assert_eq!(files.of(&path).unwrap(), of_bytes(b"two, longer"));
    }
}
