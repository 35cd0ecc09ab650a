//! The primitive under every request: the magic instruction sequence that Valgrind recognises,
//! emitted with inline assembly, so neither a C compiler nor Valgrind's headers are needed.
//!
//! Always compiled in, whatever the features: benchgrind's harness brackets its measured window
//! with it. Natively the sequence is a handful of rotations that leave every register as it was
//! and [`request`] returns its default. The request codes and the calling convention are those of
//! Valgrind 3.x (`valgrind.h`, `callgrind.h`, `memcheck.h`, `dhat.h`, `helgrind.h`, `drd.h`),
//! an ABI that Valgrind promises not to change.

/// Builds a tool's request base from its two-letter code, as `VG_USERREQ_TOOL_BASE` does.
pub const fn tool_base(a: u8, b: u8) -> usize {
    ((a as usize) << 24) | ((b as usize) << 16)
}

/// Whether requests reach Valgrind on this target; elsewhere [`request`] returns its default.
pub const SUPPORTED: bool = cfg!(any(target_arch = "x86_64", target_arch = "aarch64"));

/// Sends one request with up to five arguments and returns Valgrind's answer, or `default` when
/// not running under Valgrind (or on a target without support).
#[inline(always)]
pub fn request(default: usize, request: usize, args: [usize; 5]) -> usize {
    let block: [usize; 6] = [request, args[0], args[1], args[2], args[3], args[4]];
    imp::request(default, &block)
}

/// Sends a request whose block is fixed at compile time. Only the block's address is loaded
/// before the magic sequence, where [`request`] stores six words: that matters at the edges of
/// benchgrind's measured window, because without the cache simulation Callgrind counts a basic
/// block's instructions on entry, including those after the body's call.
#[inline(always)]
pub fn request_static(default: usize, block: &'static [usize; 6]) -> usize {
    imp::request(default, block)
}

#[cfg(target_arch = "x86_64")]
mod imp {
    #[inline(always)]
    pub(super) fn request(default: usize, block: &[usize; 6]) -> usize {
        let mut result = default;
        // SAFETY: the four rotations of rdi by 3+13+61+51 = 128 bits leave rdi unchanged and
        // `xchg rbx, rbx` is a no-op, so natively only the flags change (hence no
        // `preserves_flags`: `rol` writes CF and OF) and rdx keeps the default. Under Valgrind
        // the request block is read through rax (valid for the whole asm: it borrows `block`)
        // and the answer lands in rdx, declared inout. Requests may read or write the memory
        // their arguments point to, which the absence of `nomem`/`readonly` allows.
        unsafe {
            ::core::arch::asm!(
                "rol rdi, 3",
                "rol rdi, 13",
                "rol rdi, 61",
                "rol rdi, 51",
                "xchg rbx, rbx",
                inout("rdx") result,
                in("rax") block.as_ptr(),
                options(nostack),
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
        // `orr x10, x10, x10` is a no-op (neither touches the flags), so natively only x3 (the
        // default) is read back. Under Valgrind the block is read through x4 and the answer
        // written to x3, declared inout; requests may touch the memory their arguments name.
        unsafe {
            ::core::arch::asm!(
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

/// Core request codes (`valgrind.h`, `Vg_ClientRequest`).
// The codes keep the names of the Valgrind header, where each is documented.
#[allow(missing_docs)]
pub mod valgrind {
    pub const RUNNING_ON_VALGRIND: usize = 0x1001;
    pub const DISCARD_TRANSLATIONS: usize = 0x1002;
    pub const CLIENT_CALL0: usize = 0x1101;
    pub const CLIENT_CALL1: usize = 0x1102;
    pub const CLIENT_CALL2: usize = 0x1103;
    pub const CLIENT_CALL3: usize = 0x1104;
    pub const COUNT_ERRORS: usize = 0x1201;
    pub const GDB_MONITOR_COMMAND: usize = 0x1202;
    pub const CLO_CHANGE: usize = 0x1203;
    pub const MALLOCLIKE_BLOCK: usize = 0x1301;
    pub const FREELIKE_BLOCK: usize = 0x1302;
    pub const CREATE_MEMPOOL: usize = 0x1303;
    pub const DESTROY_MEMPOOL: usize = 0x1304;
    pub const MEMPOOL_ALLOC: usize = 0x1305;
    pub const MEMPOOL_FREE: usize = 0x1306;
    pub const MEMPOOL_TRIM: usize = 0x1307;
    pub const MOVE_MEMPOOL: usize = 0x1308;
    pub const MEMPOOL_CHANGE: usize = 0x1309;
    pub const MEMPOOL_EXISTS: usize = 0x130a;
    pub const RESIZEINPLACE_BLOCK: usize = 0x130b;
    pub const PRINTF_VALIST_BY_REF: usize = 0x1403;
    pub const PRINTF_BACKTRACE_VALIST_BY_REF: usize = 0x1404;
    pub const STACK_REGISTER: usize = 0x1501;
    pub const STACK_DEREGISTER: usize = 0x1502;
    pub const STACK_CHANGE: usize = 0x1503;
    pub const LOAD_PDB_DEBUGINFO: usize = 0x1601;
    pub const MAP_IP_TO_SRCLOC: usize = 0x1701;
    pub const CHANGE_ERR_DISABLEMENT: usize = 0x1801;
}

/// Callgrind's request codes (`callgrind.h`).
// The codes keep the names of the Valgrind header, where each is documented.
#[allow(missing_docs)]
pub mod callgrind {
    use super::tool_base;

    const BASE: usize = tool_base(b'C', b'T');
    pub const DUMP_STATS: usize = BASE;
    pub const ZERO_STATS: usize = BASE + 1;
    pub const TOGGLE_COLLECT: usize = BASE + 2;
    pub const DUMP_STATS_AT: usize = BASE + 3;
    pub const START_INSTRUMENTATION: usize = BASE + 4;
    pub const STOP_INSTRUMENTATION: usize = BASE + 5;
}

/// Cachegrind's request codes (`cachegrind.h`, new in Valgrind 3.22: the 3.19 headers have no
/// such file; older Cachegrinds ignore both requests).
// The codes keep the names of the Valgrind header, where each is documented.
#[allow(missing_docs)]
pub mod cachegrind {
    use super::tool_base;

    const BASE: usize = tool_base(b'C', b'G');
    pub const START_INSTRUMENTATION: usize = BASE;
    pub const STOP_INSTRUMENTATION: usize = BASE + 1;
}

/// Memcheck's request codes (`memcheck.h`).
// The codes keep the names of the Valgrind header, where each is documented.
#[allow(missing_docs)]
pub mod memcheck {
    use super::tool_base;

    const BASE: usize = tool_base(b'M', b'C');
    pub const MAKE_MEM_NOACCESS: usize = BASE;
    pub const MAKE_MEM_UNDEFINED: usize = BASE + 1;
    pub const MAKE_MEM_DEFINED: usize = BASE + 2;
    pub const DISCARD: usize = BASE + 3;
    pub const CHECK_MEM_IS_ADDRESSABLE: usize = BASE + 4;
    pub const CHECK_MEM_IS_DEFINED: usize = BASE + 5;
    pub const DO_LEAK_CHECK: usize = BASE + 6;
    pub const COUNT_LEAKS: usize = BASE + 7;
    pub const GET_VBITS: usize = BASE + 8;
    pub const SET_VBITS: usize = BASE + 9;
    pub const CREATE_BLOCK: usize = BASE + 10;
    pub const MAKE_MEM_DEFINED_IF_ADDRESSABLE: usize = BASE + 11;
    pub const COUNT_LEAK_BLOCKS: usize = BASE + 12;
    pub const ENABLE_ADDR_ERROR_REPORTING_IN_RANGE: usize = BASE + 13;
    pub const DISABLE_ADDR_ERROR_REPORTING_IN_RANGE: usize = BASE + 14;
}

/// DHAT's request codes (`dhat.h`).
// The codes keep the names of the Valgrind header, where each is documented.
#[allow(missing_docs)]
pub mod dhat {
    pub const AD_HOC_EVENT: usize = super::tool_base(b'D', b'H');
    /// Follows `AD_HOC_EVENT` in `dhat.h` of Valgrind versions after 3.19 (not in 3.19's).
    pub const HISTOGRAM_MEMORY: usize = AD_HOC_EVENT + 1;
}

/// Helgrind's request codes (`helgrind.h`). Only the ones its public macros use.
// The codes keep the names of the Valgrind header, where each is documented.
#[allow(missing_docs)]
pub mod helgrind {
    use super::tool_base;

    const BASE: usize = tool_base(b'H', b'G');
    /// Start of the range the header calls implementation-only; its public macros use it too.
    const PRIVATE: usize = BASE + 256;
    pub const CLEAN_MEMORY: usize = BASE;
    pub const PTHREAD_MUTEX_INIT_POST: usize = PRIVATE + 3;
    pub const PTHREAD_MUTEX_DESTROY_PRE: usize = PRIVATE + 4;
    pub const PTHREAD_MUTEX_UNLOCK_PRE: usize = PRIVATE + 5;
    pub const PTHREAD_MUTEX_UNLOCK_POST: usize = PRIVATE + 6;
    pub const PTHREAD_MUTEX_ACQUIRE_PRE: usize = PRIVATE + 7;
    pub const PTHREAD_MUTEX_ACQUIRE_POST: usize = PRIVATE + 8;
    pub const PTHREAD_RWLOCK_INIT_POST: usize = PRIVATE + 14;
    pub const PTHREAD_RWLOCK_DESTROY_PRE: usize = PRIVATE + 15;
    pub const PTHREAD_RWLOCK_ACQUIRED: usize = PRIVATE + 17;
    pub const PTHREAD_RWLOCK_RELEASED: usize = PRIVATE + 18;
    pub const POSIX_SEM_INIT_POST: usize = PRIVATE + 20;
    pub const POSIX_SEM_DESTROY_PRE: usize = PRIVATE + 21;
    pub const POSIX_SEM_RELEASED: usize = PRIVATE + 22;
    pub const POSIX_SEM_ACQUIRED: usize = PRIVATE + 23;
    pub const PTHREAD_BARRIER_INIT_PRE: usize = PRIVATE + 24;
    pub const PTHREAD_BARRIER_WAIT_PRE: usize = PRIVATE + 25;
    pub const PTHREAD_BARRIER_DESTROY_PRE: usize = PRIVATE + 26;
    pub const USERSO_SEND_PRE: usize = PRIVATE + 33;
    pub const USERSO_RECV_POST: usize = PRIVATE + 34;
    pub const USERSO_FORGET_ALL: usize = PRIVATE + 35;
    pub const ARANGE_MAKE_UNTRACKED: usize = PRIVATE + 39;
    pub const ARANGE_MAKE_TRACKED: usize = PRIVATE + 40;
    pub const PTHREAD_BARRIER_RESIZE_PRE: usize = PRIVATE + 41;
    pub const CLEAN_MEMORY_HEAPBLOCK: usize = PRIVATE + 42;
    pub const GET_ABITS: usize = PRIVATE + 46;
    pub const GNAT_DEPENDENT_MASTER_JOIN: usize = PRIVATE + 61;
}

/// DRD's request codes (`drd.h`).
// The codes keep the names of the Valgrind header, where each is documented.
#[allow(missing_docs)]
pub mod drd {
    use super::tool_base;

    const HG: usize = tool_base(b'H', b'G');
    const BASE: usize = tool_base(b'D', b'R');
    pub const CLEAN_MEMORY: usize = HG;
    pub const GET_VALGRIND_THREAD_ID: usize = BASE;
    pub const GET_DRD_THREAD_ID: usize = BASE + 1;
    pub const START_SUPPRESSION: usize = BASE + 2;
    pub const FINISH_SUPPRESSION: usize = BASE + 3;
    pub const START_TRACE_ADDR: usize = BASE + 4;
    pub const STOP_TRACE_ADDR: usize = BASE + 5;
    pub const RECORD_LOADS: usize = BASE + 6;
    pub const RECORD_STORES: usize = BASE + 7;
    pub const SET_THREAD_NAME: usize = BASE + 8;
    pub const ANNOTATION_UNIMP: usize = BASE + 9;
    pub const ANNOTATE_SEM_INIT_PRE: usize = BASE + 10;
    pub const ANNOTATE_SEM_DESTROY_POST: usize = BASE + 11;
    pub const ANNOTATE_SEM_WAIT_PRE: usize = BASE + 12;
    pub const ANNOTATE_SEM_WAIT_POST: usize = BASE + 13;
    pub const ANNOTATE_SEM_POST_PRE: usize = BASE + 14;
    pub const ANNOTATE_RWLOCK_CREATE: usize = HG + 256 + 14;
    pub const ANNOTATE_RWLOCK_DESTROY: usize = HG + 256 + 15;
    pub const ANNOTATE_RWLOCK_ACQUIRED: usize = HG + 256 + 17;
    pub const ANNOTATE_RWLOCK_RELEASED: usize = HG + 256 + 18;
    pub const ANNOTATE_HAPPENS_BEFORE: usize = HG + 256 + 33;
    pub const ANNOTATE_HAPPENS_AFTER: usize = HG + 256 + 34;
}

#[cfg(test)]
mod tests {
    #[test]
    fn natively_a_request_returns_its_default() {
        assert_eq!(super::request(7, super::callgrind::ZERO_STATS, [0; 5]), 7);
    }
}
