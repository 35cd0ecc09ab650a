//! What passes between the harness and the bench process it starts under `--benchgrind-perf`:
//! the spec (in [`crate::protocol::PERF_SPEC_ENV`]) and the samples file the process writes.

use std::time::Duration;

use crate::error::Problem;
use crate::problem;

/// The first line of a samples file.
pub const FORMAT: &str = "benchgrind-perf 1";

/// What one perf run of a bench counts and for how long.
#[derive(Debug, Clone, PartialEq)]
pub struct Spec {
    /// One event set (`cycles,instructions`).
    pub events: String,
    /// Samples are taken until this much time passed (at least one).
    pub duration: Duration,
    /// The counters run in the window of the benchmark function (else between the user's
    /// `perf_enable!` and `perf_disable!`).
    pub default_entry: bool,
    /// Samples in which a counter ran less of its time enabled are dropped.
    pub min_pcnt_running: f64,
    /// How long the empty window is measured first, its mean subtracted (0: not).
    pub calibrate: Duration,
    /// Patterns of metrics whose zero drops a sample.
    pub nonzero: Vec<String>,
    /// A `perf record` run instead of sampling: the profile's path and the perf program's
    /// further arguments.
    pub record: Option<(std::path::PathBuf, Vec<String>)>,
}

impl Spec {
    /// The spec as the variable carries it: `key=value` lines.
    pub fn encode(&self) -> String {
        let entry = if self.default_entry {
            "default"
        } else {
            "none"
        };
        let mut text = format!(
            "events={}\nduration_ns={}\nentry={entry}\nmin_pcnt={}\ncalibrate_ns={}\nnonzero={}",
            self.events,
            self.duration.as_nanos(),
            self.min_pcnt_running,
            self.calibrate.as_nanos(),
            self.nonzero.join("\u{1f}")
        );
        if let Some((path, args)) = &self.record {
            text += &format!("\nrecord={}", path.display());
            text += &format!("\nrecord_args={}", args.join("\u{1f}"));
        }
        text
    }

    /// Reads [`Spec::encode`]'s text.
    pub fn parse(text: &str) -> Result<Spec, Problem> {
        let mut spec = Spec {
            events: String::new(),
            duration: Duration::from_secs(1),
            default_entry: true,
            min_pcnt_running: 100.0,
            calibrate: Duration::ZERO,
            nonzero: Vec::new(),
            record: None,
        };
        for line in text.lines() {
            let (key, value) = line.split_once('=').unwrap_or((line, ""));
            let nanos = || value.parse::<u64>().map(Duration::from_nanos);
            let bad = |e: &dyn std::fmt::Display| problem!("perf spec: {key}: {e}");
            match key {
                "events" => spec.events = value.to_owned(),
                "duration_ns" => spec.duration = nanos().map_err(|e| bad(&e))?,
                "calibrate_ns" => spec.calibrate = nanos().map_err(|e| bad(&e))?,
                "entry" => spec.default_entry = value != "none",
                "min_pcnt" => spec.min_pcnt_running = value.parse().map_err(|e| bad(&e))?,
                "record" => spec.record = Some((value.into(), Vec::new())),
                "record_args" => {
                    if let Some((_, args)) = &mut spec.record {
                        *args = value
                            .split('\u{1f}')
                            .filter(|a| !a.is_empty())
                            .map(str::to_owned)
                            .collect();
                    }
                }
                "nonzero" => {
                    spec.nonzero = value
                        .split('\u{1f}')
                        .filter(|p| !p.is_empty())
                        .map(str::to_owned)
                        .collect()
                }
                _ => {}
            }
        }
        Ok(spec)
    }
}

/// The first line of a `--perf-round` file; each further line is a [`RoundMean`] in JSON.
pub const ROUND_FORMAT: &str = "benchgrind-perf-round 1";

/// One line of a `--perf-round` file: a benchmark's mean of one metric over one round, or why
/// its sampling failed (`error`, the other fields empty).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RoundMean {
    /// The benchmark's id, as its summary names it.
    pub id: String,
    /// perf's name of the metric.
    pub metric: String,
    /// Whether the values are nanoseconds.
    pub time: bool,
    /// The round's mean.
    pub mean: f64,
    /// Its number of samples.
    pub n: usize,
    /// The margin of the metric's verdict, in percent (the benchmark's perf settings).
    #[serde(default)]
    pub margin_pct: f64,
    /// The interval's confidence is `1 - alpha`.
    #[serde(default)]
    pub alpha: f64,
    /// Whether an inconclusive verdict fails.
    #[serde(default)]
    pub fail_inconclusive: bool,
    /// The hard limits on the metric's mean that the benchmark's perf settings set: each bound
    /// in the metric's own values (nanoseconds for times) with the pattern that set it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hard: Vec<(f64, String)>,
    /// Why the benchmark's sampling failed, if it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl RoundMean {
    /// The line of a benchmark whose sampling failed.
    pub fn failed(id: String, why: String) -> RoundMean {
        RoundMean {
            id,
            metric: String::new(),
            time: false,
            mean: 0.0,
            n: 0,
            margin_pct: 0.0,
            alpha: 0.0,
            fail_inconclusive: false,
            hard: Vec::new(),
            error: Some(why),
        }
    }

    /// Its line (without the newline).
    pub fn encode(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Reads a round file's text; the error names the line.
    pub fn parse_file(text: &str) -> Result<Vec<RoundMean>, Problem> {
        let mut lines = text.lines();
        if lines.next() != Some(ROUND_FORMAT) {
            return Err(problem!(
                "not a perf round file (its first line is not `{ROUND_FORMAT}`)"
            ));
        }
        lines
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
            .map(|(i, l)| serde_json::from_str(l).map_err(|e| problem!("line {}: {e}", i + 2)))
            .collect()
    }
}

/// One run's samples as the bench process wrote them.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Samples {
    /// The metrics counted, in order.
    pub events: Vec<String>,
    /// Which of them are times in nanoseconds.
    pub time: Vec<bool>,
    /// The events this machine cannot count.
    pub unsupported: Vec<String>,
    /// Kernel time was left out (perf_event_paranoid).
    pub user_only: bool,
    /// What the sampling process noted for the report.
    pub notes: Vec<String>,
    /// How often the bench ran.
    pub runs: usize,
    /// Samples dropped because a counter was multiplexed below the minimum.
    pub multiplexed: usize,
    /// Samples dropped because a metric that must not be zero was.
    pub zero: usize,
    /// The empty window's mean per metric, if calibrated.
    pub calibration: Option<Vec<f64>>,
    /// Per sample, a value per metric.
    pub samples: Vec<Vec<f64>>,
}

/// Why a samples file gave no samples.
#[derive(Debug, Clone, PartialEq)]
pub enum Failure {
    /// perf is not allowed for this user: what to change.
    Denied(String),
    /// Anything else.
    Other(String),
}

impl Samples {
    /// Reads a samples file's text.
    pub fn parse(text: &str) -> Result<Samples, Failure> {
        let mut lines = text.lines();
        if lines.next() != Some(FORMAT) {
            return Err(Failure::Other("not a benchgrind perf samples file".into()));
        }
        let mut out = Samples::default();
        for (n, line) in lines.enumerate() {
            let mut cells = line.split('\t');
            let label = cells.next().unwrap_or_default();
            let rest: Vec<&str> = cells.collect();
            let numbers = || -> Result<Vec<f64>, Failure> {
                rest.iter()
                    .map(|c| c.parse::<f64>())
                    .collect::<Result<_, _>>()
                    .map_err(|e| Failure::Other(format!("line {}: {e}", n + 2)))
            };
            let count = || rest.first().and_then(|c| c.parse().ok()).unwrap_or(0);
            match label {
                "error" if rest.first() == Some(&"denied") => {
                    return Err(Failure::Denied(rest[1..].join("\t")))
                }
                "error" => return Err(Failure::Other(rest.join("\t"))),
                "events" => {
                    out.events = rest
                        .iter()
                        .filter(|s| !s.is_empty())
                        .map(|s| s.to_string())
                        .collect()
                }
                "time" => out.time = rest.iter().map(|s| *s == "1").collect(),
                "unsupported" => {
                    out.unsupported = rest
                        .iter()
                        .filter(|s| !s.is_empty())
                        .map(|s| s.to_string())
                        .collect()
                }
                "user-only" => out.user_only = true,
                "note" => out.notes.push(rest.join(" ")),
                "runs" => out.runs = count(),
                "multiplexed" => out.multiplexed = count(),
                "zero" => out.zero = count(),
                "calibration" => out.calibration = Some(numbers()?),
                "sample" => {
                    let values = numbers()?;
                    if values.len() != out.events.len() {
                        return Err(Failure::Other(format!(
                            "line {}: {} values for {} metrics",
                            n + 2,
                            values.len(),
                            out.events.len()
                        )));
                    }
                    out.samples.push(values);
                }
                _ => {}
            }
        }
        Ok(out)
    }

    /// The samples of metric `i`, the calibration's mean taken off (never below 0).
    pub fn column(&self, i: usize) -> Vec<f64> {
        let off = self.calibration.as_ref().map_or(0.0, |c| c[i]);
        self.samples.iter().map(|s| (s[i] - off).max(0.0)).collect()
    }

    /// Several runs' samples per metric, in the order first counted: each metric's samples per
    /// run (each event set runs in several rounds, each a process of its own).
    pub fn rounds(files: &[Samples]) -> Vec<Metric> {
        let mut out: Vec<Metric> = Vec::new();
        for file in files {
            for (i, name) in file.events.iter().enumerate() {
                let values = file.column(i);
                if values.is_empty() {
                    continue;
                }
                match out.iter_mut().find(|m| m.name == *name) {
                    Some(metric) => metric.rounds.push(values),
                    None => out.push(Metric {
                        name: name.clone(),
                        time: file.time.get(i).copied().unwrap_or(false),
                        rounds: vec![values],
                    }),
                }
            }
        }
        out
    }
}

/// One metric's samples, per round.
#[derive(Debug, Clone, PartialEq)]
pub struct Metric {
    /// perf's name.
    pub name: String,
    /// Whether the values are nanoseconds.
    pub time: bool,
    /// The samples of each round.
    pub rounds: Vec<Vec<f64>>,
}

impl Metric {
    /// Every sample.
    pub fn all(&self) -> Vec<f64> {
        self.rounds.concat()
    }

    /// Each round's mean.
    pub fn means(&self) -> Vec<f64> {
        self.rounds
            .iter()
            .map(|r| r.iter().sum::<f64>() / r.len() as f64)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_round_trip() {
        let spec = Spec {
            events: "task-clock,cycles".into(),
            duration: Duration::from_millis(250),
            default_entry: false,
            min_pcnt_running: 80.0,
            calibrate: Duration::from_millis(5),
            nonzero: vec!["task-clock*".into(), "*instructions*".into()],
            record: Some((
                "/tmp/perf.data".into(),
                vec!["--freq=999".into(), "-g".into()],
            )),
        };
        assert_eq!(Spec::parse(&spec.encode()).unwrap(), spec);
    }

    #[test]
    fn round_files_round_trip_and_name_a_bad_line() {
        let lines = [
            RoundMean {
                id: "b::g::f".into(),
                metric: "task-clock".into(),
                time: true,
                mean: 1234.5,
                n: 7,
                margin_pct: 5.0,
                alpha: 0.05,
                fail_inconclusive: true,
                hard: vec![(2.5e6, "task-clock".into())],
                error: None,
            },
            RoundMean::failed("b::g::h".into(), "perf is not allowed".into()),
        ];
        let text = format!(
            "{ROUND_FORMAT}\n{}\n{}\n",
            lines[0].encode(),
            lines[1].encode()
        );
        assert_eq!(RoundMean::parse_file(&text).unwrap(), lines);
        let bad = format!("{ROUND_FORMAT}\n{}\nnope\n", lines[0].encode());
        assert!(RoundMean::parse_file(&bad)
            .unwrap_err()
            .starts_with("line 3"));
        assert!(RoundMean::parse_file("x\n").is_err());
    }

    #[test]
    fn samples_files_are_read_and_calibrated() {
        let text = format!(
            "{FORMAT}\nevents\ttask-clock\tpage-faults\ntime\t1\t0\nunsupported\tcycles\n\
             runs\t3\nmultiplexed\t0\nzero\t0\ncalibration\t100\t0\nsample\t1100\t2\n\
             sample\t50\t3\n"
        );
        let s = Samples::parse(&text).unwrap();
        assert_eq!(s.events, ["task-clock", "page-faults"]);
        assert_eq!(s.unsupported, ["cycles"]);
        assert_eq!(s.column(0), [1000.0, 0.0]);
        assert_eq!(s.column(1), [2.0, 3.0]);
        let bad = format!("{FORMAT}\nevents\ta\nsample\t1\t2\n");
        assert!(matches!(Samples::parse(&bad), Err(Failure::Other(m)) if m.contains("line 3")));
        let denied = format!("{FORMAT}\nerror\tdenied\tperf is not allowed\n");
        assert_eq!(
            Samples::parse(&denied),
            Err(Failure::Denied("perf is not allowed".into()))
        );
    }
}
