//! The `getrandom` symbol the runner defines, in a process of its own: the switch is
//! process-wide, and the tests of a binary run in parallel threads, whose hash maps draw keys
//! through it.

#![cfg(target_os = "linux")]

use benchgrind_runner::random::{enable, fill, is_enabled};

#[test]
fn the_symbol_passes_through_until_enabled_then_serves_the_stream() {
    // One test for all of it: the switch is process-wide.
    let draw = |flags| {
        let mut buf = [0u8; 24];
        // SAFETY: `buf` is valid for 24 bytes.
        let n = unsafe { libc::getrandom(buf.as_mut_ptr().cast(), buf.len(), flags) };
        (n, buf)
    };
    let (n, first) = draw(0);
    assert_eq!(n, 24);
    let (_, second) = draw(0);
    assert_ne!(first, second, "the kernel's bytes differ from call to call");
    let mut expected = [0u8; 48];
    fill(7, 0, &mut expected);
    assert_ne!(first[..], expected[..24], "not the stream before enable");

    enable(7);
    assert!(is_enabled());
    assert_eq!(
        draw(libc::GRND_INSECURE),
        (24, expected[..24].try_into().unwrap())
    );
    assert_eq!(
        draw(libc::GRND_NONBLOCK),
        (24, expected[24..].try_into().unwrap())
    );
    let (n, _) = draw(0x100);
    assert_eq!(n, -1);
    assert_eq!(
        std::io::Error::last_os_error().raw_os_error(),
        Some(libc::EINVAL)
    );

    // std's RandomState takes its keys through the symbol: with the same stream position,
    // the same keys.
    use std::hash::{BuildHasher, RandomState};
    let hash_in_new_thread = || {
        std::thread::spawn(|| RandomState::new().hash_one(12345u64))
            .join()
            .unwrap()
    };
    enable(7);
    let a = hash_in_new_thread();
    enable(7);
    let b = hash_in_new_thread();
    enable(8);
    let c = hash_in_new_thread();
    assert_eq!(a, b);
    assert_ne!(a, c);
}
