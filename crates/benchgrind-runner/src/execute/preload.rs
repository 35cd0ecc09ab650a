//! The preload library (`preload/preload.rs`, built by the build script): loaded with
//! `LD_PRELOAD` into the programs benchgrind measures without linking them (a binary benchmark's
//! command and the processes it starts, a suite's runner program), it serves `getrandom` and
//! `getentropy` from the fixed stream of `BENCHGRIND_RANDOM_SEED`, so that their hash seeds and
//! other random draws are the same on every run (Python's `hash` and `os.urandom`, for one).
//! Reads of `/dev/urandom`, raw `getrandom` system calls and statically linked programs are out
//! of its reach. With [`FIXED_CLOCK_ENV`] set it also serves the time from a clock of the
//! process's own (`benchgrind suite measure --metric instructions`).

use std::path::{Path, PathBuf};

/// Where in the home the library is written.
pub const DIR: &str = ".preload";

/// Set for a process whose clock readings are to be fixed (see `preload/preload.rs`).
pub const FIXED_CLOCK_ENV: &str = "BENCHGRIND_FIXED_CLOCK";

#[cfg(benchgrind_preload)]
const LIBRARY: Option<&[u8]> = Some(include_bytes!(concat!(
    env!("OUT_DIR"),
    "/libbenchgrind_preload.so"
)));
#[cfg(not(benchgrind_preload))]
const LIBRARY: Option<&[u8]> = None;

/// The library's path in `dir` (created if need be), written there unless a file of the same
/// contents is; `None` where it was not built (see the build script) or cannot be written.
pub fn install(dir: &Path) -> Option<PathBuf> {
    let bytes = LIBRARY?;
    // Named by its contents, so that runs of different versions sharing `dir` keep their own.
    let hash = bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    let path = dir.join(format!("libbenchgrind_preload-{hash:016x}.so"));
    if std::fs::read(&path).is_ok_and(|existing| existing == bytes) {
        return Some(path);
    }
    std::fs::create_dir_all(dir).ok()?;
    crate::store::write_atomic(&path, bytes).ok()?;
    Some(path)
}
