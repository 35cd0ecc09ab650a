//! Massif's output (`massif.out`, as `ms_print` reads it), as far as the peak goes.
//!
//! The file is a list of snapshots, each with `mem_heap_B`, `mem_heap_extra_B` and
//! `mem_stacks_B`; Massif marks the peak with `heap_tree=peak`. Massif cannot tell the
//! benchmark's heap from setup's: the peak is the measured process's.

use std::path::Path;

use super::ParseError;

/// One snapshot's sizes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Snapshot {
    /// Useful heap bytes.
    pub heap: u64,
    /// Allocator overhead.
    pub heap_extra: u64,
    /// Stack bytes (zero without `--stacks=yes`).
    pub stacks: u64,
    /// Whether Massif marked it as the peak.
    pub peak: bool,
}

/// The snapshots of a Massif run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Profile {
    /// In file order.
    pub snapshots: Vec<Snapshot>,
}

impl Profile {
    /// The snapshot Massif marked as the peak, else the largest (heap plus extra plus stacks);
    /// all zero when there is none.
    pub fn peak(&self) -> Snapshot {
        self.snapshots
            .iter()
            .find(|s| s.peak)
            .or_else(|| {
                self.snapshots
                    .iter()
                    .max_by_key(|s| s.heap.saturating_add(s.heap_extra).saturating_add(s.stacks))
            })
            .copied()
            .unwrap_or_default()
    }
}

/// Reads and parses a Massif output file.
pub fn parse_file(path: &Path) -> Result<Profile, ParseError> {
    let bytes = super::read(path, "read the Massif profile")?;
    parse(path, &bytes)
}

/// Parses the bytes of a Massif output file; `path` is only used in errors.
pub fn parse(path: &Path, bytes: &[u8]) -> Result<Profile, ParseError> {
    let mut snapshots: Vec<Snapshot> = Vec::new();
    let mut seen_header = false;
    for (index, raw) in bytes.split(|&b| b == b'\n').enumerate() {
        let lineno = index + 1;
        let line = String::from_utf8_lossy(raw);
        let line = line.trim_end_matches('\r');
        // The header's values may hold `=` (`desc: --massif-out-file=...`), so look at it first.
        if line.starts_with("desc:") || line.starts_with("cmd:") {
            seen_header = true;
            continue;
        }
        // Only the snapshot keys matter; tree lines (`n2: ...`, indented) never match them.
        let Some((key, value)) = line.split_once('=') else {
            continue;
        };
        let number = || {
            value.trim().parse::<u64>().map_err(|_| ParseError::At {
                path: path.to_owned(),
                line: Some(lineno),
                message: format!("`{}` is not a count in `{line}`", value.trim()),
            })
        };
        let current = || ParseError::At {
            path: path.to_owned(),
            line: Some(lineno),
            message: format!("`{key}=` comes before the first `snapshot=`"),
        };
        match key {
            "snapshot" => {
                number()?;
                snapshots.push(Snapshot::default());
            }
            "mem_heap_B" => snapshots.last_mut().ok_or_else(current)?.heap = number()?,
            "mem_heap_extra_B" => snapshots.last_mut().ok_or_else(current)?.heap_extra = number()?,
            "mem_stacks_B" => snapshots.last_mut().ok_or_else(current)?.stacks = number()?,
            "heap_tree" => snapshots.last_mut().ok_or_else(current)?.peak = value == "peak",
            _ => {}
        }
    }
    if !seen_header {
        return Err(ParseError::At {
            path: path.to_owned(),
            line: None,
            message: "no `desc:` or `cmd:` line: this is not a Massif profile".into(),
        });
    }
    Ok(Profile { snapshots })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_marked_peak_wins_over_a_larger_snapshot() {
        let text = "desc: (none)\ncmd: x\ntime_unit: i\n#---\nsnapshot=0\n#---\ntime=0\n\
                    mem_heap_B=5\nmem_heap_extra_B=1\nmem_stacks_B=0\nheap_tree=peak\n\
                    n0: 5 (heap allocation functions)\n#---\nsnapshot=1\n#---\ntime=9\n\
                    mem_heap_B=9\nmem_heap_extra_B=1\nmem_stacks_B=0\nheap_tree=empty\n";
        let p = parse(Path::new("m.out"), text.as_bytes()).unwrap();
        assert_eq!(p.snapshots.len(), 2);
        assert_eq!(p.peak().heap, 5);
        let unmarked = text.replace("heap_tree=peak", "heap_tree=detailed");
        let p = parse(Path::new("m.out"), unmarked.as_bytes()).unwrap();
        assert_eq!(p.peak().heap, 9);
    }

    #[test]
    fn errors_name_the_line() {
        let with_equals =
            b"desc: --massif-out-file=m.out\ncmd: x --seed=1\nsnapshot=0\nmem_heap_B=7\n";
        assert_eq!(
            parse(Path::new("m.out"), with_equals)
                .unwrap()
                .snapshots
                .len(),
            1
        );
        let e = parse(Path::new("m.out"), b"cmd: x\nsnapshot=0\nmem_heap_B=lots\n").unwrap_err();
        assert_eq!(e.line(), Some(3));
        let e = parse(Path::new("m.out"), b"cmd: x\nmem_heap_B=1\n").unwrap_err();
        assert!(
            e.to_string().contains("before the first `snapshot=`"),
            "{e}"
        );
        assert!(parse(Path::new("m.out"), b"{}").is_err());
    }

    // Found by fuzzing (fuzz/fuzz_targets/massif.rs): a snapshot's sizes adding up past 2^64
    // overflowed when looking for the peak; they saturate.
    #[test]
    fn sizes_past_two_to_the_64_saturate() {
        let max = u64::MAX;
        let text = format!(
            "desc: (none)\ncmd: x\ntime_unit: i\n#---\nsnapshot=0\n#---\ntime=0\n\
             mem_heap_B={max}\nmem_heap_extra_B={max}\nmem_stacks_B=1\nheap_tree=empty\n\
             #---\nsnapshot=1\n#---\ntime=1\nmem_heap_B=3\nmem_heap_extra_B=0\n\
             mem_stacks_B=0\nheap_tree=empty\n"
        );
        let p = parse(Path::new("m.out"), text.as_bytes()).unwrap();
        assert_eq!(p.peak().heap, max);
    }
}
