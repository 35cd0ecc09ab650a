//! DHAT's JSON output (`dhat.out`, `dhatFileVersion` 2, as `dh_view.html` reads it), restricted
//! to one function's allocations.
//!
//! The file lists program points (`pps`): one per distinct allocation stack, each with its
//! totals (`tb` bytes, `tbk` blocks, `mb`/`mbk` maximum live, `eb` live at the end, `rb`/`wb`
//! bytes read and written) and its stack as indices into a frame table (`ftbl`). A frame reads
//! `0x1234: crate::module::function (file.rs:12:5)`. The benchmark's allocations are the program
//! points whose stack passes through the measured window: setup, teardown and the harness never
//! do, so their allocations drop out exactly, whatever the allocator or the order.
//!
//! The window shows in a stack as the benchmark function's frame (the window inside it keeps the
//! frame, even where its last call could be a tail call), or, for a `const fn` benchmark, which is
//! measured around its call, as the inlined frame of the generated code around the call,
//! `measure<R, crate::f::__run_N::{closure_env#0}>` (which needs debug info: the `bench` profile
//! has it).
//!
//! A point's `mb` is updated only when the whole process reaches a new peak, so summing it
//! gives a lower bound of the window's peak. `gb`, the bytes live at the process's peak
//! (t-gmax), summed over the window's points, is the window's peak exactly when that peak
//! falls inside the window: the harness makes it so with a ballast block held across the
//! window (its point, marked by [`crate::protocol::BALLAST_SYMBOL`], counts in no total; see
//! [`Profile::ballast_at_peak`]).

use std::path::Path;

use serde::Deserialize;

use super::ParseError;

/// A DHAT profile: frames and program points.
#[derive(Debug, Clone, Deserialize)]
pub struct Profile {
    /// `heap`, `copy` or `ad-hoc`.
    pub mode: String,
    /// The frame table.
    pub ftbl: Vec<String>,
    /// The program points.
    pub pps: Vec<ProgramPoint>,
}

/// One allocation stack and its totals.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct ProgramPoint {
    /// Total bytes.
    #[serde(default)]
    pub tb: u64,
    /// Total blocks.
    #[serde(default)]
    pub tbk: u64,
    /// Maximum bytes live at once.
    #[serde(default)]
    pub mb: u64,
    /// Maximum blocks live at once.
    #[serde(default)]
    pub mbk: u64,
    /// Bytes live at the global peak (t-gmax: when the whole process had the most bytes live).
    #[serde(default)]
    pub gb: u64,
    /// Blocks live at the global peak.
    #[serde(default)]
    pub gbk: u64,
    /// Bytes live at the end.
    #[serde(default)]
    pub eb: u64,
    /// Bytes read.
    #[serde(default)]
    pub rb: u64,
    /// Bytes written.
    #[serde(default)]
    pub wb: u64,
    /// The stack: indices into the frame table, innermost first.
    pub fs: Vec<usize>,
}

/// Totals over a set of program points.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Totals {
    /// Bytes allocated.
    pub total_bytes: u64,
    /// Blocks allocated.
    pub total_blocks: u64,
    /// Sum of each point's maximum live bytes: a lower bound of the peak, since DHAT updates a
    /// point's maximum only when the whole process reaches a new peak.
    pub max_bytes: u64,
    /// Sum of each point's maximum live blocks (a lower bound likewise).
    pub max_blocks: u64,
    /// Bytes live at the global peak (t-gmax), summed over the points.
    pub gmax_bytes: u64,
    /// Blocks live at the global peak, summed over the points.
    pub gmax_blocks: u64,
    /// Bytes live at the end.
    pub end_bytes: u64,
    /// Bytes read.
    pub read_bytes: u64,
    /// Bytes written.
    pub write_bytes: u64,
}

/// Reads and parses a DHAT output file.
pub fn parse_file(path: &Path) -> Result<Profile, ParseError> {
    let bytes = super::read(path, "read the DHAT profile")?;
    parse(path, &bytes)
}

/// Parses the bytes of a DHAT output file; `path` is only used in errors.
pub fn parse(path: &Path, bytes: &[u8]) -> Result<Profile, ParseError> {
    let profile: Profile = serde_json::from_slice(bytes).map_err(|e| ParseError::At {
        path: path.to_owned(),
        line: Some(e.line()),
        message: format!("not a DHAT profile: {e}"),
    })?;
    for (i, pp) in profile.pps.iter().enumerate() {
        if let Some(&bad) = pp.fs.iter().find(|&&f| f >= profile.ftbl.len()) {
            return Err(ParseError::At {
                path: path.to_owned(),
                line: None,
                message: format!(
                    "program point {i} names frame {bad}, but the frame table has {}",
                    profile.ftbl.len()
                ),
            });
        }
    }
    Ok(profile)
}

/// The function name of a frame: `0x1234: name (file:line)` or `0x1234: name (in object)`.
pub fn frame_function(frame: &str) -> &str {
    let rest = match frame.split_once(": ") {
        Some((addr, rest)) if addr.starts_with("0x") => rest,
        _ => frame,
    };
    match rest.rfind(" (") {
        Some(i) if rest.ends_with(')') => &rest[..i],
        _ => rest,
    }
}

/// Whether a frame's function is part of the measured window of the benchmark `function`
/// (compared with whole names, so `crate::f::__run_0` itself, which also runs setup, is not).
pub fn in_window(name: &str, function: &str) -> bool {
    if name == function {
        return true;
    }
    // For a `const fn` benchmark, the generated `__run_N` calls the function inside `measure`
    // (always inlined, so it is named from debug info) and setup outside it; the closure's type
    // names the benchmark.
    name.starts_with("measure<")
        && name.contains(&format!(", {function}::__run_"))
        && name.contains("::{closure_env#")
}

impl Profile {
    /// Totals of the program points whose stack passes through the measured window of the
    /// benchmark `function` (see [`in_window`]); all of them when `function` is empty (a binary
    /// benchmark measured whole).
    pub fn restricted_to(&self, function: &str) -> Totals {
        let hits: Vec<bool> = self
            .ftbl
            .iter()
            .map(|f| function.is_empty() || in_window(frame_function(f), function))
            .collect();
        self.sum(|pp| pp.fs.iter().any(|&f| hits[f]) && !self.is_ballast(pp))
    }

    /// Whether a program point is the ballast block (its stack has
    /// [`BALLAST_SYMBOL`](crate::protocol::BALLAST_SYMBOL)), which no metric counts.
    pub fn is_ballast(&self, pp: &ProgramPoint) -> bool {
        pp.fs
            .iter()
            .any(|&f| frame_function(&self.ftbl[f]) == crate::protocol::BALLAST_SYMBOL)
    }

    /// The ballast's bytes live at the global peak, if the profile has a ballast: its size if
    /// the global peak fell inside the measured window, 0 if not.
    pub fn ballast_at_peak(&self) -> Option<u64> {
        let mut ballast = self.pps.iter().filter(|pp| self.is_ballast(pp)).peekable();
        ballast.peek()?;
        Some(ballast.fold(0u64, |sum, pp| sum.saturating_add(pp.gb)))
    }

    /// The whole process's peak: the bytes live at the global peak over all points.
    pub fn global_peak(&self) -> u64 {
        self.sum(|_| true).gmax_bytes
    }

    /// Totals of the program points that `keep` accepts.
    fn sum(&self, keep: impl Fn(&ProgramPoint) -> bool) -> Totals {
        let mut t = Totals::default();
        // Saturating: a damaged file may hold any counts; a real one is far below 2^64.
        for pp in self.pps.iter().filter(|pp| keep(pp)) {
            t.total_bytes = t.total_bytes.saturating_add(pp.tb);
            t.total_blocks = t.total_blocks.saturating_add(pp.tbk);
            t.max_bytes = t.max_bytes.saturating_add(pp.mb);
            t.max_blocks = t.max_blocks.saturating_add(pp.mbk);
            t.gmax_bytes = t.gmax_bytes.saturating_add(pp.gb);
            t.gmax_blocks = t.gmax_blocks.saturating_add(pp.gbk);
            t.end_bytes = t.end_bytes.saturating_add(pp.eb);
            t.read_bytes = t.read_bytes.saturating_add(pp.rb);
            t.write_bytes = t.write_bytes.saturating_add(pp.wb);
        }
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frame_names() {
        assert_eq!(
            frame_function("0x15F5B7: e2e_tools::alloc_one_mib (e2e_tools.rs:17)"),
            "e2e_tools::alloc_one_mib"
        );
        assert_eq!(
            frame_function("0x48417B4: malloc (in /usr/libexec/valgrind/vgpreload_dhat.so)"),
            "malloc"
        );
        assert_eq!(
            frame_function("0x21B217: call_once<fn(&str) -> Box<str>, (&str)> (function.rs:250)"),
            "call_once<fn(&str) -> Box<str>, (&str)>"
        );
        assert_eq!(frame_function("[root]"), "[root]");
    }

    #[test]
    fn the_window_is_the_function_or_the_generated_code_around_its_call() {
        let f = "c::f";
        assert!(in_window("c::f", f));
        assert!(in_window("measure<(), c::f::__run_0::{closure_env#0}>", f));
        assert!(in_window("measure<u8, c::f::__run_1::{closure_env#1}>", f));
        assert!(!in_window("c::f::__run_0::{{closure}}", f), "maybe setup's");
        assert!(!in_window("c::f::__run_0", f), "it runs setup too");
        assert!(!in_window("c::fg", f));
        assert!(!in_window(
            "measure<(), c::fg::__run_0::{closure_env#0}>",
            f
        ));
        assert!(!in_window("measure<u8>", f));
        assert!(!in_window(
            "measure<(), b::c::f::__run_0::{closure_env#0}>",
            f
        ));
    }

    #[test]
    fn only_stacks_through_the_function_count() {
        let json = r#"{"mode":"heap","ftbl":["[root]","0x1: malloc (in x)",
            "0x2: c::f (a.rs:1)","0x3: c::f::__run_0 (a.rs:9)"],
            "pps":[{"tb":10,"tbk":1,"mb":10,"mbk":1,"eb":0,"rb":3,"wb":10,"fs":[1,2,3]},
                   {"tb":100,"tbk":2,"mb":50,"mbk":1,"eb":50,"rb":0,"wb":100,"fs":[1,3]}]}"#;
        let p = parse(Path::new("d.out"), json.as_bytes()).unwrap();
        let t = p.restricted_to("c::f");
        assert_eq!((t.total_bytes, t.total_blocks, t.read_bytes), (10, 1, 3));
        assert_eq!(p.restricted_to("c::f::__run_0").total_bytes, 110);
        assert_eq!(p.restricted_to("c::g"), Totals::default());
    }

    #[test]
    fn errors_name_the_file() {
        let e = parse(Path::new("d.out"), b"{\"mode\":").unwrap_err();
        assert!(
            e.to_string().starts_with("d.out:1: not a DHAT profile"),
            "{e}"
        );
        let json = r#"{"mode":"heap","ftbl":["[root]"],"pps":[{"fs":[3]}]}"#;
        let e = parse(Path::new("d.out"), json.as_bytes()).unwrap_err();
        assert!(e.to_string().contains("names frame 3"), "{e}");
    }

    // Found by fuzzing (fuzz/fuzz_targets/dhat_json.rs): the totals of points whose counts add
    // up past 2^64 overflowed; they saturate.
    #[test]
    fn totals_past_two_to_the_64_saturate() {
        let max = u64::MAX;
        let point = format!(
            r#"{{"tb":{max},"tbk":{max},"mb":{max},"mbk":1,"gb":{max},"gbk":1,"eb":{max},"rb":{max},"wb":{max},"fs":[0]}}"#
        );
        let text = format!(
            r#"{{"mode":"heap","ftbl":["[root]","0x1: {BALLAST} (b.rs:1)"],"pps":[{point},{point},{ballast},{ballast}]}}"#,
            BALLAST = crate::protocol::BALLAST_SYMBOL,
            ballast = point.replace("[0]", "[1]"),
        );
        let p = parse(Path::new("dhat.out"), text.as_bytes()).unwrap();
        let t = p.restricted_to("");
        assert_eq!((t.total_bytes, t.max_blocks, t.write_bytes), (max, 2, max));
        assert_eq!(p.global_peak(), max);
        assert_eq!(p.ballast_at_peak(), Some(max));
    }
}
