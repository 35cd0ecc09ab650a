//! The Callgrind profile format (`callgrind.out`): the one reader of it. A profile is read once,
//! and totals ([`Profile::totals`]), the breakdown per thread and process
//! ([`Profile::parts`]), the attribution to functions and lines ([`Profile::functions`], for
//! [`crate::explain`]) and the call graph ([`Profile::graph`], for the flamegraphs) all come from
//! that one read. [`Read::Totals`] reads the header and the `totals:` lines only, for when
//! nothing else is wanted.
//!
//! The whole format is followed: `ob=`/`fl=`/`fi=`/`fe=`/`fn=` and the callee's `cob=`/`cfi=`/
//! `cfn=`, with name compression (`(id) name` defines, `(id)` refers; one table each for
//! objects, files and functions; an id a profile never defines reads as the name `(id)`, as
//! some forked processes' profiles of older Callgrind runs have them), `positions:` (`line`,
//! `instr line`, ...) with subposition compression (`+n`, `-n`, `*` relative to the same column
//! of the previous cost line; `calls=` target positions are not cost lines and do not move it,
//! as `callgrind_annotate` reads them), and the cost line after `calls=`, which is the call's
//! inclusive cost and never the caller's self cost. Parts of several dumps add up. A joined
//! profile's parts are noted in comments ([`super::join`]).
//!
//! Definitions, both exact:
//! - self cost of F: the sum of F's cost lines (not those after `calls=`). Callgrind's contexts
//!   of a function (recursion levels `fib'2`, callers `helper'step` with `--separate-callers`)
//!   are merged into it in [`Profile::functions`], so the self costs add up to the total; the
//!   call graph keeps them apart, as the stacks of a flamegraph need them.
//! - inclusive cost of F: its self cost plus the inclusive cost of every call F makes to another
//!   function. Calls of F to itself (direct recursion, after the merge) are left out, as their
//!   cost is already in F's self cost and in the calls it makes. For a function that is not
//!   recursive this is what `callgrind_annotate --inclusive=yes` shows. Mutual recursion
//!   (`a -> b -> a`) is counted along each call, as Callgrind's own call costs count it.
//!
//! Functions are told apart by object, file (`fl=`, the file the function is defined in;
//! `fi=`/`fe=` only move the cost lines of inlined code to another file) and name.

use std::path::Path;

use super::join::PART_COMMENT;
use super::ParseError;
use reader::Reader;

pub use model::{CallGraph, Function, Node, Profile, Read};

mod model;
mod reader;

/// Reads and parses a Callgrind out file.
pub fn parse_file(path: &Path, read: Read) -> Result<Profile, ParseError> {
    let bytes = super::read(path, "read the Callgrind profile")?;
    parse(path, &bytes, read)
}

/// Parses the bytes of a Callgrind out file; `path` names it in errors and in the result.
pub fn parse(path: &Path, bytes: &[u8], read: Read) -> Result<Profile, ParseError> {
    let mut reader = Reader::new(path, read);
    for (i, raw) in bytes.split(|&b| b == b'\n').enumerate() {
        if raw.first() == Some(&b'#') {
            if let Some(rest) = raw.strip_prefix(PART_COMMENT.as_bytes()) {
                reader.part(&String::from_utf8_lossy(rest));
            }
            continue;
        }
        let line = String::from_utf8_lossy(raw);
        let line = line.trim_end_matches('\r');
        if line.is_empty() {
            continue;
        }
        reader.line(line).map_err(|message| ParseError::At {
            path: path.to_owned(),
            line: Some(i + 1),
            message: message.into(),
        })?;
    }
    reader.finish()
}

#[cfg(test)]
mod tests;
