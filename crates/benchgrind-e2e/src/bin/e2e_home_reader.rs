//! `e2e_home_reader`: reads the user's home as command-line programs do (their configuration
//! files): `HOME`, or the password database's entry where it is not set, then every file there
//! up to 64 KiB each. Prints how many bytes it read: a program whose count follows whose account
//! runs it, for the end-to-end test of the measured processes' own home.

use std::io::Read;
use std::path::PathBuf;

fn home() -> Option<PathBuf> {
    if let Some(home) = std::env::var_os("HOME") {
        return Some(PathBuf::from(home));
    }
    // SAFETY: getpwuid returns a pointer to a static entry (or null), read at once.
    unsafe {
        let entry = libc::getpwuid(libc::getuid());
        if entry.is_null() || (*entry).pw_dir.is_null() {
            return None;
        }
        let dir = std::ffi::CStr::from_ptr((*entry).pw_dir);
        Some(PathBuf::from(dir.to_string_lossy().into_owned()))
    }
}

fn main() {
    let mut read = 0usize;
    if let Some(entries) = home().and_then(|h| std::fs::read_dir(h).ok()) {
        let mut paths: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
        paths.sort();
        for path in paths {
            let mut buf = Vec::new();
            if let Ok(file) = std::fs::File::open(&path) {
                read += file.take(64 * 1024).read_to_end(&mut buf).unwrap_or(0);
            }
        }
    }
    println!("{read}");
}
