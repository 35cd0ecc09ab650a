//! Valgrind's trace of a run's system calls (`--trace-syscalls=yes`) as the record of inputs
//! reads it, and the record itself: the reader places every call or says why it cannot, and a
//! record reads back as it was written.
#![no_main]

use std::path::Path;

use benchgrind_runner::execute::reuse::record::Record;
use benchgrind_runner::execute::reuse::trace::{self, Tracer};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    // As a log of one process, and as the fork server's calls before its child's.
    let mut tracer = Tracer::new(Path::new("/work/package"));
    tracer.log(&text);
    let traced = tracer.finish();
    for path in traced
        .inputs
        .keys()
        .chain(&traced.written)
        .chain(&traced.changed)
    {
        assert!(
            path.is_absolute(),
            "a path left relative: {}",
            path.display()
        );
        assert!(
            !trace::pseudo(path),
            "a pseudo-file kept: {}",
            path.display()
        );
    }
    if let Some(why) = &traced.unplaced {
        assert!(!why.is_empty(), "unplaced without a reason");
    }
    let mut twice = Tracer::new(Path::new("/"));
    twice.log(&text);
    twice.log(&text);
    let _ = twice.finish();
    // The same bytes as a record: read or refused, never a panic; what reads, writes back to
    // the same record.
    if let Ok(record) = Record::parse(&text) {
        assert_eq!(Record::parse(&record.to_text()), Ok(record));
    }
});
