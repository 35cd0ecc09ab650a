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
