//! DHAT: record events of your own with `valgrind --tool=dhat --mode=ad-hoc`.
//!
//! Each call counts one event of the given weight at the calling stack; `dh_view.html` shows
//! them like allocations. Natively, and in DHAT's other modes, the call does nothing.
//!
//! ```rust
//! use benchgrind_client_requests::dhat;
//!
//! fn cache_miss(bytes_fetched: usize) {
//!     dhat::ad_hoc_event(bytes_fetched);
//! }
//! # cache_miss(64);
//! ```

use crate::raw::dhat as code;
use crate::send;

/// Records one ad-hoc event of weight `weight` (use 1 when no weight is meaningful).
#[inline(always)]
pub fn ad_hoc_event(weight: usize) {
    send(code::AD_HOC_EVENT, [weight, 0, 0, 0, 0]);
}

/// Asks DHAT (`--tool=dhat`, heap mode, the default) to keep an access histogram of the heap
/// block that contains `addr`: for each byte of the block, how often it was read and written,
/// shown by `dh_view.html`. Meant for blocks larger than DHAT's own histogram limit (1024
/// bytes). Needs a Valgrind newer than 3.19, whose DHAT does not know the request; an address
/// outside every heap block gets a warning in the log.
#[inline(always)]
pub fn histogram_memory<T: ?Sized>(addr: *const T) {
    send(
        code::HISTOGRAM_MEMORY,
        [addr.cast::<u8>() as usize, 0, 0, 0, 0],
    );
}
