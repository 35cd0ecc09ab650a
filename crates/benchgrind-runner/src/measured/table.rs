//! The bench code `main!` generates, as the measured process finds it: by indices, in a static
//! table, never in the registration data (whose heap footprint grows with every benchmark).

/// The table of bench code: group, function, bench.
pub type Table = &'static [&'static [&'static [fn()]]];

/// The bench at `[group, function, bench]`, if the table has one there.
pub(crate) fn lookup(table: Table, [g, f, b]: [usize; 3]) -> Option<fn()> {
    table.get(g)?.get(f)?.get(b).copied()
}
