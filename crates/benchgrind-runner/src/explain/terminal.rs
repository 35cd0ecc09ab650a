//! The terminal form of an [`Explanation`]: the functions whose self cost changed most in the
//! ranking metric, an "other" line and the total, so that the column of differences adds up.

use std::io::{self, Write};

use super::model::{Explanation, FunctionChange, Status};

/// Width of a number column.
const W: usize = 12;

impl Explanation {
    /// Writes the first `top` functions (all with `usize::MAX`) and, when the profiles have
    /// source lines, up to `lines` lines under each.
    pub fn write_terminal(&self, out: &mut dyn Write, top: usize, lines: usize) -> io::Result<()> {
        let k = self.rank;
        let metric = self.rank_metric();
        let total = self.total[k];
        writeln!(
            out,
            "  Why {} changed: {} -> {} ({}), by function:",
            metric.name(),
            total.old,
            total.new,
            signed(total.diff())
        )?;
        writeln!(
            out,
            "  {:>W$} {:>W$} {:>W$} {:>W$}  function",
            "self diff", "old self", "new self", "incl. diff"
        )?;
        let shown = self.functions.len().min(top);
        for f in &self.functions[..shown] {
            self.function_line(out, f)?;
            if self.has_lines {
                let changed = f.lines.iter().filter(|l| l.self_cost[k].diff() != 0);
                for l in changed.take(lines) {
                    let c = l.self_cost[k];
                    writeln!(
                        out,
                        "  {:>W$} {:>W$} {:>W$} {:>W$}    at {}:{}",
                        signed(c.diff()),
                        c.old,
                        c.new,
                        "",
                        short_file(&l.file),
                        l.line
                    )?;
                }
            }
        }
        let rest = self.functions.len() - shown;
        let other = self.other(top)[k];
        if rest > 0 || other != 0 {
            let what = match rest {
                0 => "other: not attributed to a function".to_owned(),
                1 => "other: 1 more function".to_owned(),
                n => format!("other: {n} more functions"),
            };
            writeln!(
                out,
                "  {:>W$} {:>W$} {:>W$} {:>W$}  {what}",
                signed(other),
                "",
                "",
                ""
            )?;
        }
        writeln!(
            out,
            "  {:>W$} {:>W$} {:>W$} {:>W$}  total ({} functions changed, {} unchanged)",
            signed(total.diff()),
            total.old,
            total.new,
            "",
            self.functions.len(),
            self.unchanged
        )
    }

    fn function_line(&self, out: &mut dyn Write, f: &FunctionChange) -> io::Result<()> {
        let k = self.rank;
        let s = f.self_cost[k];
        let mark = match f.status {
            Status::Changed => "",
            Status::New => "  [new]",
            Status::Gone => "  [gone]",
        };
        let file = f.place().map(|p| format!("  ({p})")).unwrap_or_default();
        writeln!(
            out,
            "  {:>W$} {:>W$} {:>W$} {:>W$}  {}{file}{mark}",
            signed(s.diff()),
            s.old,
            s.new,
            signed(f.inclusive[k].diff()),
            f.short
        )
    }
}

impl FunctionChange {
    /// Where the function is, for display: its source file's last two components, else (no
    /// debug information) the file name of its object.
    pub fn place(&self) -> Option<&str> {
        match self.file.as_deref().filter(|f| *f != "???") {
            Some(file) => Some(short_file(file)),
            None => self
                .object
                .as_deref()
                .map(|o| o.rsplit('/').next().unwrap_or(o)),
        }
    }
}

/// `+12`, `-3`, `0`.
pub(crate) fn signed(v: i128) -> String {
    if v > 0 {
        format!("+{v}")
    } else {
        v.to_string()
    }
}

/// The last two components of a path: enough to find a file, short enough for a line.
pub(crate) fn short_file(path: &str) -> &str {
    let mut cut = path.len();
    for _ in 0..2 {
        match path[..cut].rfind('/') {
            Some(i) => cut = i,
            None => return path,
        }
    }
    &path[cut + 1..]
}

#[cfg(test)]
mod tests {
    use crate::explain::{explain_profiles, Options};
    use crate::parse::profile::{parse as parse_read, Read};

    fn parse(
        path: &std::path::Path,
        bytes: &[u8],
    ) -> Result<crate::parse::profile::Profile, crate::parse::ParseError> {
        parse_read(path, bytes, Read::Full)
    }
    use std::path::Path;

    #[test]
    fn the_listed_differences_and_other_add_up_to_the_total() {
        let old = "positions: line\nevents: Ir\nfl=/src/a/p.c\nfn=main\n1 10\ncfn=work\n\
            calls=1 5\n2 30\nfn=work\n5 20\ncfn=inl\ncalls=1 9\n6 10\nfn=inl\n9 10\nfn=x\n1 3\n";
        let new = "positions: line\nevents: Ir\nfl=/src/a/p.c\nfn=main\n1 11\ncfn=work\n\
            calls=1 5\n2 45\nfn=work\n5 40\n6 5\nfn=x\n1 1\n";
        let parse = |t: &str| parse(Path::new("t.out"), t.as_bytes()).unwrap();
        let e = explain_profiles(&parse(old), &parse(new), &Options::default()).unwrap();
        assert!(e.adds_up());
        let mut out = Vec::new();
        e.write_terminal(&mut out, 2, 1).unwrap();
        let text = String::from_utf8(out).unwrap();
        let expected = "  Why Ir changed: 43 -> 57 (+14), by function:
     self diff     old self     new self   incl. diff  function
           +25           20           45          +15  work  (a/p.c)
           +20           20           40                 at a/p.c:5
           -10           10            0          -10  inl  (a/p.c)  [gone]
           -10           10            0                 at a/p.c:9
            -1                                         other: 2 more functions
           +14           43           57               total (4 functions changed, 0 unchanged)
";
        assert_eq!(text, expected);
    }
}
