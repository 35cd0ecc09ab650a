//! Digests of files and strings for the record of a benchmark's inputs: 128 bits, four
//! independent lanes of 64 bits over 32-byte blocks, so that a bench binary of tens of megabytes
//! is read and digested in a few milliseconds. It tells a changed input from an unchanged one;
//! it is not meant to withstand someone crafting a collision.

use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

const PRIMES: [u64; 4] = [
    0x9e37_79b9_7f4a_7c15,
    0xc2b2_ae3d_27d4_eb4f,
    0x1656_67b1_9e37_79f9,
    0xd6e8_feb8_6659_fd93,
];

/// A digest being computed.
#[derive(Debug, Clone)]
pub struct Digest {
    lanes: [u64; 4],
    pending: [u8; 32],
    filled: usize,
    length: u64,
}

impl Default for Digest {
    fn default() -> Digest {
        Digest {
            lanes: [PRIMES[0], PRIMES[1], PRIMES[2], PRIMES[3]],
            pending: [0; 32],
            filled: 0,
            length: 0,
        }
    }
}

fn round(lane: u64, word: u64, prime: u64) -> u64 {
    (lane ^ word)
        .wrapping_mul(prime)
        .rotate_left(31)
        .wrapping_add(word)
}

impl Digest {
    fn block(&mut self, block: &[u8]) {
        for (i, lane) in self.lanes.iter_mut().enumerate() {
            let word = u64::from_le_bytes(block[i * 8..i * 8 + 8].try_into().expect("8 bytes"));
            *lane = round(*lane, word, PRIMES[i]);
        }
    }

    /// Adds bytes.
    pub fn update(&mut self, mut bytes: &[u8]) {
        self.length += bytes.len() as u64;
        if self.filled > 0 {
            let take = (32 - self.filled).min(bytes.len());
            self.pending[self.filled..self.filled + take].copy_from_slice(&bytes[..take]);
            self.filled += take;
            bytes = &bytes[take..];
            if self.filled < 32 {
                return;
            }
            let block = self.pending;
            self.block(&block);
            self.filled = 0;
        }
        let mut blocks = bytes.chunks_exact(32);
        for block in &mut blocks {
            self.block(block);
        }
        let rest = blocks.remainder();
        self.pending[..rest.len()].copy_from_slice(rest);
        self.filled = rest.len();
    }

    /// Adds a string and its end, so that ("ab", "c") and ("a", "bc") differ.
    pub fn field(&mut self, text: &[u8]) {
        self.update(&(text.len() as u64).to_le_bytes());
        self.update(text);
    }

    /// The digest in 32 hexadecimal digits.
    pub fn finish(mut self) -> String {
        let mut tail = [0u8; 32];
        tail[..self.filled].copy_from_slice(&self.pending[..self.filled]);
        tail[self.filled] = 0x80;
        let length = self.length;
        self.block(&tail);
        let [a, b, c, d] = self.lanes;
        let mix = |x: u64, y: u64, k: u64| {
            let mut h = x.rotate_left(7) ^ y.rotate_left(41) ^ length.wrapping_mul(k);
            h ^= h >> 33;
            h = h.wrapping_mul(k);
            h ^= h >> 29;
            h = h.wrapping_mul(PRIMES[2]);
            h ^ (h >> 32)
        };
        let high = mix(a ^ c.rotate_left(17), b, PRIMES[0]);
        let low = mix(d ^ b.rotate_left(23), c ^ a, PRIMES[3]);
        format!("{high:016x}{low:016x}")
    }
}

/// The digest of some bytes.
pub fn of_bytes(bytes: &[u8]) -> String {
    let mut digest = Digest::default();
    digest.update(bytes);
    digest.finish()
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

/// The digest of a file's contents, read once per run for as long as its stamp stays (a bench
/// binary's libraries are read once for all its benchmarks).
pub fn of_file(path: &Path) -> std::io::Result<String> {
    static SEEN: Mutex<Option<HashMap<PathBuf, (Stamp, String)>>> = Mutex::new(None);
    let mut file = std::fs::File::open(path)?;
    let stamp = stamp(&file.metadata()?);
    if let Some((seen, digest)) = SEEN
        .lock()
        .expect("not poisoned")
        .as_ref()
        .and_then(|m| m.get(path))
    {
        if *seen == stamp {
            return Ok(digest.clone());
        }
    }
    let mut digest = Digest::default();
    let mut buffer = vec![0u8; 1 << 20];
    loop {
        let n = file.read(&mut buffer)?;
        if n == 0 {
            break;
        }
        digest.update(&buffer[..n]);
    }
    let digest = digest.finish();
    SEEN.lock()
        .expect("not poisoned")
        .get_or_insert_with(HashMap::new)
        .insert(path.to_owned(), (stamp, digest.clone()));
    Ok(digest)
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
    }

    #[test]
    fn a_file_digests_as_its_bytes_and_again_after_a_change() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        std::fs::write(&path, b"one").unwrap();
        assert_eq!(of_file(&path).unwrap(), of_bytes(b"one"));
        std::fs::write(&path, b"two, longer").unwrap();
        assert_eq!(of_file(&path).unwrap(), of_bytes(b"two, longer"));
    }
}
