//! Valgrind client requests: the magic instruction sequence that Valgrind recognises, emitted
//! with inline assembly, so no C compiler or Valgrind headers are needed to build.
//!
//! Natively (not under Valgrind) the sequence is a handful of rotations that leave every register
//! as it was: the default value comes back and nothing else happens. The request codes and the
//! calling convention are those of `valgrind.h` and `callgrind.h` (Valgrind 3.x ABI).

/// Builds a tool's request base from its two-letter code, as `VG_USERREQ_TOOL_BASE` does.
pub const fn tool_base(a: u8, b: u8) -> usize {
    ((a as usize) << 24) | ((b as usize) << 16)
}

/// Callgrind's request codes.
pub mod callgrind {
    use super::tool_base;

    const BASE: usize = tool_base(b'C', b'T');
    /// `CALLGRIND_DUMP_STATS`
    pub const DUMP_STATS: usize = BASE;
    /// `CALLGRIND_ZERO_STATS`
    pub const ZERO_STATS: usize = BASE + 1;
    /// `CALLGRIND_TOGGLE_COLLECT`
    pub const TOGGLE_COLLECT: usize = BASE + 2;
    /// `CALLGRIND_DUMP_STATS_AT`
    pub const DUMP_STATS_AT: usize = BASE + 3;
    /// `CALLGRIND_START_INSTRUMENTATION`
    pub const START_INSTRUMENTATION: usize = BASE + 4;
    /// `CALLGRIND_STOP_INSTRUMENTATION`
    pub const STOP_INSTRUMENTATION: usize = BASE + 5;
}

/// Whether client requests are compiled in on this target.
pub const SUPPORTED: bool = cfg!(any(target_arch = "x86_64", target_arch = "aarch64"));

/// Sends one request with up to five arguments and returns Valgrind's answer, or `default` when
/// not running under Valgrind.
#[inline(always)]
pub fn request(default: usize, request: usize, args: [usize; 5]) -> usize {
    let block: [usize; 6] = [request, args[0], args[1], args[2], args[3], args[4]];
    imp::request(default, &block)
}

/// Sends a request whose block is fixed at compile time. Only the block's address is loaded
/// before the magic sequence, where [`request`] stores six words: that matters at the edges of
/// the measured window, because without the cache simulation Callgrind counts a basic block's
/// instructions on entry, including those after the body's call.
#[inline(always)]
pub fn request_static(default: usize, block: &'static [usize; 6]) -> usize {
    imp::request(default, block)
}

#[cfg(target_arch = "x86_64")]
mod imp {
    #[inline(always)]
    pub(super) fn request(default: usize, block: &[usize; 6]) -> usize {
        let mut result = default;
        // SAFETY: the four rotations of rdi by 3+13+61+51 = 128 bits leave rdi unchanged, and
        // `xchg rbx, rbx` is a no-op, so natively nothing changes but rdx keeps the default.
        // Under Valgrind the sequence reads the request block through rax (valid for the whole
        // asm, it borrows `block`) and writes the answer to rdx, which is declared inout.
        unsafe {
            core::arch::asm!(
                "rol rdi, 3",
                "rol rdi, 13",
                "rol rdi, 61",
                "rol rdi, 51",
                "xchg rbx, rbx",
                inout("rdx") result,
                in("rax") block.as_ptr(),
                options(nostack, preserves_flags),
            );
        }
        result
    }
}

#[cfg(target_arch = "aarch64")]
mod imp {
    #[inline(always)]
    pub(super) fn request(default: usize, block: &[usize; 6]) -> usize {
        let mut result = default;
        // SAFETY: the rotations of x12 by 3+13+51+61 = 128 bits leave it unchanged and
        // `orr x10, x10, x10` is a no-op, so natively only x3 (the default) is read back. Under
        // Valgrind the block is read through x4 and the answer written to x3, declared inout.
        unsafe {
            core::arch::asm!(
                "ror x12, x12, #3",
                "ror x12, x12, #13",
                "ror x12, x12, #51",
                "ror x12, x12, #61",
                "orr x10, x10, x10",
                inout("x3") result,
                in("x4") block.as_ptr(),
                options(nostack, preserves_flags),
            );
        }
        result
    }
}

#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
mod imp {
    #[inline(always)]
    pub(super) fn request(default: usize, _block: &[usize; 6]) -> usize {
        default
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn natively_a_request_returns_its_default() {
        assert_eq!(super::request(7, super::callgrind::ZERO_STATS, [0; 5]), 7);
    }
}
