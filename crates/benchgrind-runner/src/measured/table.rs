//! The bench code `main!` generates, as the measured process finds it: by indices, in a static
//! table, never in the registration data (whose heap footprint grows with every benchmark).

use std::sync::atomic::{AtomicUsize, Ordering};

/// The table of bench code: group, function, bench.
pub type Table = &'static [&'static [&'static [fn()]]];

/// The bench at `[group, function, bench]`, if the table has one there. For an item of an
/// `iter` bench ([`crate::protocol::item_index`]) the item is noted for [`iter_item`] first.
pub(crate) fn lookup(table: Table, [g, f, b]: [usize; 3]) -> Option<fn()> {
    let (slot, item) = crate::protocol::split_index(b);
    let bench = table.get(g)?.get(f)?.get(slot).copied()?;
    ITEM.store(item.unwrap_or(0), Ordering::Relaxed);
    Some(bench)
}

/// The item the measured process runs, of an `iter` bench (0 for any other bench).
static ITEM: AtomicUsize = AtomicUsize::new(0);

/// Which item of its `iter` expression the running bench measures: the code `#[benches::id(iter
/// = ...)]` generates takes that item of the iterator.
pub fn iter_item() -> usize {
    ITEM.load(Ordering::Relaxed)
}

/// Ends the measured process when the `iter` expression of `bench` has fewer items than when
/// the benchmarks were planned (it must give the same items every time it is evaluated).
pub fn iter_item_missing(bench: &str) -> ! {
    crate::messages::error!(
        "`{bench}` has no item {} in its `iter` expression this time; `iter = ...` must give \
         the same items every time it is evaluated",
        iter_item()
    );
    std::process::exit(1);
}
