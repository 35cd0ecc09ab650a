//! The record of a run's inputs as its file (`inputs`) holds it, written and read here only.
//! Its lines, with fields separated by tabs (shown here as spaces):
//!
//! ```text
//! benchgrind inputs 3
//! measured 2026-12-04T03:10:00Z
//! input NAME VALUE        the machine, binaries, job, environment; in this order
//! file PATH STATE         a file the run looked at and what it held (`file DIGEST`, ...)
//! output PATH INDEX WHEN  a file it wrote, kept as `outputs/INDEX`; WHEN always|if-absent
//! end
//! ```
//!
//! or, for a run that cannot be reused, the first two lines, `unfit WHY` and `end`. No value holds a
//! tab or a newline ([`clean`]). The last line, `end`, tells a whole record from one cut short:
//! records are written without waiting for the disk (a record lost to a power cut means a run,
//! and one cut short is not read). The first line names the format's version, which names its
//! digests too (version 3: XXH3-128, [`super::digest`]); a record of another version is not read,
//! and its benchmark runs.

use std::fmt;
use std::path::Path;

use crate::dates::UtcDate;

/// The record's first line.
const HEADER: &str = "benchgrind inputs 3";

/// One line of a record below its head.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Entry {
    /// An input that does not come from the trace: `(name, value)`.
    Input(String, String),
    /// A path the run looked at (`{sandbox}/...` inside its sandbox) and its state then.
    File(String, String),
    /// A file the run wrote, kept as `outputs/INDEX`, to put back when it is reused: always
    /// (`always`), or only where it is gone.
    Output {
        /// Its path, as [`Entry::File`]'s.
        path: String,
        /// Its index in `outputs`.
        kept: usize,
        /// Whether it is put back even where a file is there.
        always: bool,
    },
}

/// Why a record cannot be used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Damaged {
    /// There is none.
    Missing,
    /// Its first line is another version's.
    OtherVersion,
    /// Its second line is not the date its results were measured.
    NoDate,
    /// A line is not of the format.
    Unreadable,
    /// It has no `end`.
    CutShort,
}

impl fmt::Display for Damaged {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Damaged::Missing => "no record of its inputs yet",
            Damaged::OtherVersion => "its record was written by another version",
            Damaged::NoDate => "its record has no date",
            Damaged::Unreadable => "its record cannot be read",
            Damaged::CutShort => "its record is cut short",
        })
    }
}

impl std::error::Error for Damaged {}

/// A record of inputs: when its results were measured, and either what the run read and wrote
/// or why it cannot be reused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// When its results were measured.
    pub measured: UtcDate,
    /// Why the run cannot be reused whatever its inputs hold, if it cannot.
    pub unfit: Option<String>,
    /// What it read and wrote, in order.
    pub entries: Vec<Entry>,
}

/// `text` with the tabs and newlines that would break a line replaced by spaces.
pub fn clean(text: &str) -> String {
    text.replace(['\n', '\t'], " ")
}

impl Record {
    /// An empty record of results measured now.
    pub fn now() -> Record {
        Record {
            measured: UtcDate::now(),
            unfit: None,
            entries: Vec::new(),
        }
    }

    /// This record, saying why its run cannot be reused (what it had listed is dropped).
    pub fn unfit(self, why: impl fmt::Display) -> Record {
        Record {
            unfit: Some(clean(&why.to_string())),
            entries: Vec::new(),
            ..self
        }
    }

    /// The record's text.
    pub fn to_text(&self) -> String {
        use std::fmt::Write as _;
        let mut text = format!("{HEADER}\nmeasured\t{}\n", self.measured);
        if let Some(why) = &self.unfit {
            let _ = writeln!(text, "unfit\t{why}\nend");
            return text;
        }
        for entry in &self.entries {
            let _ = match entry {
                Entry::Input(name, value) => writeln!(text, "input\t{name}\t{value}"),
                Entry::File(path, state) => writeln!(text, "file\t{path}\t{state}"),
                Entry::Output { path, kept, always } => {
                    let when = if *always { "always" } else { "if-absent" };
                    writeln!(text, "output\t{path}\t{kept} {when}")
                }
            };
        }
        text.push_str("end\n");
        text
    }

    /// Reads a record's text; the error says why it cannot be used (and so why the benchmark
    /// runs).
    pub fn parse(text: &str) -> Result<Record, Damaged> {
        let mut lines = text.lines();
        if lines.next() != Some(HEADER) {
            return Err(Damaged::OtherVersion);
        }
        let measured = lines.next().and_then(|l| l.strip_prefix("measured\t"));
        let Some(measured) = measured.and_then(|m| m.parse().ok()) else {
            return Err(Damaged::NoDate);
        };
        let mut record = Record {
            measured,
            unfit: None,
            entries: Vec::new(),
        };
        let mut ended = false;
        for line in lines {
            if ended {
                return Err(Damaged::Unreadable);
            }
            if line == "end" {
                ended = true;
                continue;
            }
            let mut fields = line.splitn(3, '\t');
            let (kind, name, value) = (fields.next(), fields.next(), fields.next());
            let entry = match (kind, name, value) {
                (Some("unfit"), Some(why), None) => {
                    record.unfit = Some(why.to_owned());
                    continue;
                }
                (Some("input"), Some(name), value) => {
                    Entry::Input(name.to_owned(), value.unwrap_or("").to_owned())
                }
                (Some("file"), Some(path), Some(state)) => {
                    Entry::File(path.to_owned(), state.to_owned())
                }
                (Some("output"), Some(path), Some(kept)) => {
                    let (kept, when) = kept.split_once(' ').unwrap_or((kept, "always"));
                    let Ok(kept) = kept.parse() else {
                        return Err(Damaged::Unreadable);
                    };
                    let always = when != "if-absent";
                    Entry::Output {
                        path: path.to_owned(),
                        kept,
                        always,
                    }
                }
                _ => return Err(Damaged::Unreadable),
            };
            record.entries.push(entry);
        }
        if !ended {
            return Err(Damaged::CutShort);
        }
        Ok(record)
    }

    /// The record at `path`; the error says why there is none to use.
    pub fn read(path: &Path) -> Result<Record, Damaged> {
        match std::fs::read_to_string(path) {
            Ok(text) => Record::parse(&text),
            Err(_) => Err(Damaged::Missing),
        }
    }

    /// Writes the record at `path`, whole or not at all, without waiting for the disk.
    pub fn write(&self, path: &Path) -> std::io::Result<()> {
        crate::store::write_hint(path, self.to_text().as_bytes())
    }

    /// The names of the entries this record holds and `older` does not (at most five), or its
    /// reason when it is unfit: what `--verify-reuse` shows of a record that did not hold.
    pub fn differences(&self, older: &Record) -> Vec<String> {
        if let Some(why) = &self.unfit {
            return vec![why.clone()];
        }
        let name = |entry: &Entry| match entry {
            Entry::Input(name, _) => name.clone(),
            Entry::File(path, _) | Entry::Output { path, .. } => path.clone(),
        };
        (self.entries.iter())
            .filter(|entry| !older.entries.contains(entry))
            .map(name)
            .take(5)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record() -> Record {
        Record {
            measured: "2026-12-04T03:10:00Z".parse().unwrap(),
            unfit: None,
            entries: vec![
                Entry::Input("machine".into(), "valgrind-3.19.0 | x86".into()),
                Entry::Input("environment".into(), String::new()),
                Entry::File("{sandbox}/data.txt".into(), "file 0123".into()),
                Entry::Output {
                    path: "/tmp/out".into(),
                    kept: 0,
                    always: false,
                },
            ],
        }
    }

    #[test]
    fn a_record_reads_back_as_it_was_written() {
        let written = record();
        let text = written.to_text();
        assert!(text.starts_with("benchgrind inputs 3\nmeasured\t2026-12-04T03:10:00Z\n"));
        assert!(text.ends_with("output\t/tmp/out\t0 if-absent\nend\n"));
        assert_eq!(Record::parse(&text), Ok(written.clone()));
        let unfit = written.unfit("it reads\tthe terminal\n");
        assert_eq!(
            unfit.to_text().lines().nth(2),
            Some("unfit\tit reads the terminal ")
        );
        assert_eq!(Record::parse(&unfit.to_text()), Ok(unfit));
    }

    #[test]
    fn records_of_another_shape_say_why_they_are_not_used() {
        assert_eq!(
            Record::parse("benchgrind inputs 0\n"),
            Err(Damaged::OtherVersion)
        );
        assert_eq!(
            Damaged::OtherVersion.to_string(),
            "its record was written by another version"
        );
        assert_eq!(Record::parse("benchgrind inputs 3\n"), Err(Damaged::NoDate));
        let undated = "benchgrind inputs 3\nmeasured\tX\nend\n";
        assert_eq!(Record::parse(undated), Err(Damaged::NoDate));
        let whole = record().to_text();
        let cut = &whole[..whole.len() - "end\n".len()];
        assert_eq!(Record::parse(cut), Err(Damaged::CutShort));
        let text = "benchgrind inputs 3\nmeasured\t2026-12-04T03:10:00Z\nnew-kind\ta\tb\n";
        assert_eq!(Record::parse(text), Err(Damaged::Unreadable));
    }

    #[test]
    fn differences_name_what_the_older_record_lacks() {
        let older = record();
        let mut newer = record();
        newer.entries[2] = Entry::File("{sandbox}/data.txt".into(), "file 4567".into());
        assert_eq!(newer.differences(&older), ["{sandbox}/data.txt"]);
        assert!(older.differences(&older).is_empty());
        assert_eq!(newer.unfit("why").differences(&older), ["why"]);
    }
}
