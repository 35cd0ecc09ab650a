//! The rarer core requests: memory pools with flags, Wine's PDB debug info, source locations of
//! code addresses, and calling a function on the real CPU.

use crate::raw::valgrind as code;
use crate::{request, send, RawFd, ThreadId};

/// Flags for [`create_mempool_ext`], to be OR-ed together (values of `valgrind.h`).
#[allow(non_snake_case)]
pub mod MempoolFlags {
    /// No flag: a pool like [`create_mempool`](crate::valgrind::create_mempool) makes.
    pub const DEFAULT: u8 = 0;
    /// Freeing a chunk of the pool also frees the `malloclike_block`s inside it; only together
    /// with [`METAPOOL`].
    pub const AUTOFREE: u8 = 1;
    /// The pool's chunks are superblocks from which the program hands out blocks announced with
    /// [`malloclike_block`](crate::valgrind::malloclike_block), so that Memcheck accepts the
    /// overlap.
    pub const METAPOOL: u8 = 2;
}

/// Like [`create_mempool`](crate::valgrind::create_mempool), with [`MempoolFlags`] (`AUTOFREE`
/// without `METAPOOL` is an error Valgrind reports).
#[inline(always)]
pub fn create_mempool_ext<T: ?Sized>(pool: *const T, redzone: usize, is_zeroed: bool, flags: u8) {
    let args = [
        pool.cast::<u8>() as usize,
        redzone,
        usize::from(is_zeroed),
        usize::from(flags),
        0,
    ];
    send(code::CREATE_MEMPOOL, args);
}

/// Tells Valgrind to read the PDB debug info of a PE image that Wine mapped: `fd` is the open
/// image file, `ptr` and `total_size` where it is mapped, `delta` the relocation applied. Only
/// useful for Wine; a negative `fd` sends nothing.
#[inline(always)]
pub fn load_pdb_debuginfo<T: ?Sized>(fd: RawFd, ptr: *const T, total_size: usize, delta: usize) {
    if let Ok(fd) = usize::try_from(fd) {
        let args = [fd, ptr.cast::<u8>() as usize, total_size, delta, 0];
        send(code::LOAD_PDB_DEBUGINFO, args);
    }
}

/// Writes the source location of the code address `addr` (`file.rs:line`, NUL-terminated, an
/// empty string when Valgrind knows none) into the 64 bytes at `buf64`. Returns 0; natively
/// nothing is written. [`srcloc`] is the safe form.
///
/// # Safety
///
/// Under Valgrind, 64 bytes are written at `buf64`: it must be valid for writes of 64 bytes.
#[inline(always)]
pub unsafe fn map_ip_to_srcloc<A: ?Sized, B: ?Sized>(addr: *const A, buf64: *const B) -> usize {
    let args = [
        addr.cast::<u8>() as usize,
        buf64.cast::<u8>() as usize,
        0,
        0,
        0,
    ];
    request(0, code::MAP_IP_TO_SRCLOC, args)
}

/// The source location of the code address `addr` as Valgrind's debug info has it
/// (`file.rs:line`); `None` natively or when Valgrind knows none.
// `addr` is only named to Valgrind, never dereferenced.
#[allow(clippy::not_unsafe_ptr_arg_deref)]
pub fn srcloc<T: ?Sized>(addr: *const T) -> Option<String> {
    let mut buffer = [0u8; 64];
    // SAFETY: the buffer has the 64 bytes the request writes.
    unsafe { map_ip_to_srcloc(addr, buffer.as_mut_ptr()) };
    let len = buffer.iter().position(|&b| b == 0).unwrap_or(buffer.len());
    (len > 0).then(|| String::from_utf8_lossy(&buffer[..len]).into_owned())
}

/// Whether the running tool replaces `malloc` and friends. Valgrind 3.27 added a request for
/// this; its code is not in the Valgrind 3.19 headers this crate follows, so none is sent and
/// the answer is always `false`, as from a Valgrind without the request.
#[inline(always)]
pub fn replaces_malloc() -> bool {
    false
}

/// The running tool's name, written NUL-terminated into `buffer` (at most `len` bytes), and its
/// length. Valgrind 3.27 added this request; its code is not in the Valgrind 3.19 headers this
/// crate follows, so none is sent: the answer is always 0 and `buffer` is left alone.
#[inline(always)]
pub fn get_toolname(buffer: *mut u8, len: usize) -> usize {
    let _ = (buffer, len);
    0
}

/// A function and its arguments, read by the trampolines on the real CPU.
struct Call<F> {
    func: F,
    args: [usize; 3],
}

extern "C" fn trampoline0(tid: ThreadId, call: *const Call<fn(ThreadId) -> usize>) -> usize {
    // SAFETY: `call` points to the `Call` that `non_simd_call0` keeps alive during the request.
    let call = unsafe { &*call };
    (call.func)(tid)
}

extern "C" fn trampoline1(tid: ThreadId, call: *const Call<fn(ThreadId, usize) -> usize>) -> usize {
    // SAFETY: as in `trampoline0`.
    let call = unsafe { &*call };
    (call.func)(tid, call.args[0])
}

type Fn2 = fn(ThreadId, usize, usize) -> usize;
type Fn3 = fn(ThreadId, usize, usize, usize) -> usize;

extern "C" fn trampoline2(tid: ThreadId, call: *const Call<Fn2>) -> usize {
    // SAFETY: as in `trampoline0`.
    let call = unsafe { &*call };
    (call.func)(tid, call.args[0], call.args[1])
}

extern "C" fn trampoline3(tid: ThreadId, call: *const Call<Fn3>) -> usize {
    // SAFETY: as in `trampoline0`.
    let call = unsafe { &*call };
    (call.func)(tid, call.args[0], call.args[1], call.args[2])
}

/// Valgrind calls `trampoline(tid, call)` with the C calling convention, on the real CPU.
#[inline(always)]
fn client_call<F>(trampoline: usize, call: &Call<F>) -> usize {
    let args = [trampoline, call as *const Call<F> as usize, 0, 0, 0];
    request(0, code::CLIENT_CALL1, args)
}

/// Calls `func` with Valgrind's id of the calling thread **on the real CPU**, outside the
/// simulation, and returns its answer; natively `func` is not called and the answer is 0.
///
/// # Safety
///
/// `func` runs inside Valgrind, not in the program: the tool sees none of its memory accesses
/// and the thread's registers are Valgrind's. It must not panic (that aborts the program), touch
/// thread-locals (including through `std::thread::current`, allocation or locks, which may use
/// them), make system calls or call into libc, nor read or write memory whose state the tool
/// tracks. Plain arithmetic on its arguments, and reads of memory nobody writes meanwhile, are
/// what it is for.
#[inline(always)]
pub unsafe fn non_simd_call0(func: fn(ThreadId) -> usize) -> usize {
    let call = Call { func, args: [0; 3] };
    client_call(trampoline0 as *const () as usize, &call)
}

/// [`non_simd_call0`] with one argument passed on to `func`.
///
/// # Safety
///
/// As for [`non_simd_call0`].
#[inline(always)]
pub unsafe fn non_simd_call1(func: fn(ThreadId, usize) -> usize, arg1: usize) -> usize {
    let call = Call {
        func,
        args: [arg1, 0, 0],
    };
    client_call(trampoline1 as *const () as usize, &call)
}

/// [`non_simd_call0`] with two arguments passed on to `func`.
///
/// # Safety
///
/// As for [`non_simd_call0`].
#[inline(always)]
pub unsafe fn non_simd_call2(func: Fn2, arg1: usize, arg2: usize) -> usize {
    let call = Call {
        func,
        args: [arg1, arg2, 0],
    };
    client_call(trampoline2 as *const () as usize, &call)
}

/// [`non_simd_call0`] with three arguments passed on to `func`.
///
/// # Safety
///
/// As for [`non_simd_call0`].
#[inline(always)]
pub unsafe fn non_simd_call3(func: Fn3, arg1: usize, arg2: usize, arg3: usize) -> usize {
    let call = Call {
        func,
        args: [arg1, arg2, arg3],
    };
    client_call(trampoline3 as *const () as usize, &call)
}
