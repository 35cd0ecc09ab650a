//! Sampling: the bench process under `--benchgrind-perf G F B` opens the counters of one event
//! set, runs the bench (setup, body, teardown) again and again for the sample duration, one
//! sample per run with the counters on in the window only, and writes the samples to the file
//! the harness named ([`super::samples`] reads it). Runs natively, never under Valgrind. A
//! binary benchmark's command is sampled by the harness itself ([`Collector`] is shared).

use std::io::Write;
use std::path::Path;
use std::time::Instant;

use super::counters::{self, Counters, Reading};
use super::samples::{Spec, FORMAT};
use crate::config::perf::{events, pattern};
use crate::error::{FileResult, Problem};
use crate::problem;

/// At most this many samples are kept, however short the body.
pub const MAX_SAMPLES: usize = 100_000;

/// Runs `bench` as the spec in the environment says and exits.
pub fn run(bench: fn(), out: &Path) -> ! {
    let code = match sample(bench, out) {
        Ok(()) => 0,
        Err(e) => {
            let _ = std::fs::write(out, format!("{FORMAT}\nerror\t{e}\n"));
            3
        }
    };
    let _ = std::io::stdout().flush();
    std::process::exit(code);
}

/// The samples of one run, as they are taken.
#[derive(Debug)]
pub struct Collector {
    opened: Counters,
    min_pcnt_running: f64,
    duration: std::time::Duration,
    nonzero: Vec<bool>,
    runs: usize,
    multiplexed: usize,
    zero: usize,
    first_kept: bool,
    samples: Vec<Vec<f64>>,
    calibration: Option<Vec<f64>>,
    notes: Vec<String>,
}

impl Collector {
    /// A collector of the counters `opened`, as `spec` says.
    pub fn new(opened: Counters, spec: &Spec) -> Collector {
        let nonzero = opened
            .events
            .iter()
            .map(|e| spec.nonzero.iter().any(|p| pattern::matches(p, &e.name)))
            .collect();
        Collector {
            opened,
            min_pcnt_running: spec.min_pcnt_running,
            duration: spec.duration,
            nonzero,
            runs: 0,
            multiplexed: 0,
            zero: 0,
            first_kept: false,
            samples: Vec::new(),
            calibration: None,
            notes: Vec::new(),
        }
    }

    /// Whether nothing can be counted (every event unsupported here).
    pub fn is_empty(&self) -> bool {
        self.opened.events.is_empty()
    }

    /// Whether sampling is over `elapsed` after its start: after one run at least, the
    /// duration passed (or [`MAX_SAMPLES`] kept) and a sample kept, or, where none could be,
    /// after 1,000 runs or ten times the duration.
    pub fn done(&self, elapsed: std::time::Duration) -> bool {
        let kept = self.samples.len();
        self.runs > 0
            && (elapsed >= self.duration || kept >= MAX_SAMPLES)
            && (kept > 0 || self.runs >= 1000 || elapsed > self.duration * 10)
    }

    /// Whether no run was added yet.
    pub fn first(&self) -> bool {
        self.runs == 0
    }

    /// Adds a note for the report.
    pub fn note(&mut self, note: String) {
        self.notes.push(note);
    }

    /// The run between the readings `before` and `after`: kept, or dropped when a counter ran
    /// less than the minimum of its time (multiplexed) or a metric that must not be zero is.
    pub fn add(&mut self, before: &[Reading], after: &[Reading]) {
        self.runs += 1;
        let mut values = Vec::with_capacity(before.len());
        let mut low = false;
        for (b, a) in before.iter().zip(after) {
            let value = a.value.saturating_sub(b.value) as f64;
            let enabled = a.enabled.saturating_sub(b.enabled);
            let running = a.running.saturating_sub(b.running);
            let pcnt = if enabled == 0 {
                100.0
            } else {
                running as f64 * 100.0 / enabled as f64
            };
            low |= pcnt < self.min_pcnt_running;
            // perf stat's scaling of a multiplexed count to the whole time enabled.
            values.push(if running > 0 && running < enabled {
                value * enabled as f64 / running as f64
            } else {
                value
            });
        }
        if low {
            self.multiplexed += 1;
        } else if values
            .iter()
            .zip(&self.nonzero)
            .any(|(v, nz)| *nz && *v == 0.0)
        {
            self.zero += 1;
        } else {
            self.first_kept |= self.runs == 1;
            self.samples.push(values);
        }
    }

    /// The empty window's mean per metric, taken off every sample by the harness.
    pub fn calibrated(&mut self, means: Vec<f64>) {
        self.calibration = Some(means);
    }

    /// Writes the samples file: the first run dropped where others were kept (it warms caches
    /// and pages code in).
    pub fn write(mut self, out: &Path) -> Result<(), Problem> {
        if self.first_kept && self.samples.len() > 1 {
            self.samples.remove(0);
        }
        let row = |label: &str, cells: Vec<String>| format!("{label}\t{}\n", cells.join("\t"));
        let events = &self.opened.events;
        let mut text = format!("{FORMAT}\n");
        text += &row("events", events.iter().map(|e| e.name.clone()).collect());
        text += &row(
            "time",
            events
                .iter()
                .map(|e| u8::from(e.is_time()).to_string())
                .collect(),
        );
        if !self.opened.unsupported.is_empty() {
            text += &row("unsupported", self.opened.unsupported.clone());
        }
        if self.opened.user_only {
            text.push_str("user-only\t1\n");
        }
        for note in &self.notes {
            text += &format!("note\t{}\n", note.replace(['\t', '\n'], " "));
        }
        text += &format!(
            "runs\t{}\nmultiplexed\t{}\nzero\t{}\n",
            self.runs, self.multiplexed, self.zero
        );
        if let Some(calibration) = &self.calibration {
            text += &row(
                "calibration",
                calibration.iter().map(f64::to_string).collect(),
            );
        }
        for values in &self.samples {
            text += &row("sample", values.iter().map(f64::to_string).collect());
        }
        crate::store::write_atomic(out, text.as_bytes())
            .file_op("write the perf samples to", out)
            .map_err(Problem::from)
    }
}

fn sample(bench: fn(), out: &Path) -> Result<(), Problem> {
    let spec = std::env::var(crate::protocol::PERF_SPEC_ENV)
        .map_err(|_| problem!("{} is not set", crate::protocol::PERF_SPEC_ENV))
        .and_then(|s| Spec::parse(&s))?;
    let wanted = events::parse_set(&spec.events)?;
    let opened = match counters::open(&wanted) {
        Ok(opened) => opened,
        Err(counters::OpenError::Denied(why)) => return Err(problem!("denied\t{why}")),
        Err(counters::OpenError::Other(why)) => return Err(Problem::new(why)),
    };
    let n = opened.events.len();
    let mut collector = Collector::new(opened, &spec);
    if collector.is_empty() {
        // Nothing to sample: the harness notes the events this machine lacks.
        return collector.write(out);
    }
    super::set_active(spec.default_entry);
    let (mut before, mut after) = (Vec::with_capacity(n), Vec::with_capacity(n));

    if !spec.calibrate.is_zero() {
        let (start, mut runs) = (Instant::now(), 0u64);
        let mut sums = vec![0u64; n];
        while runs == 0 || start.elapsed() < spec.calibrate {
            counters::read_all(&mut before);
            counters::switch(true);
            counters::switch(false);
            counters::read_all(&mut after);
            for (i, (b, a)) in before.iter().zip(&after).enumerate() {
                sums[i] += a.value.saturating_sub(b.value);
            }
            runs += 1;
        }
        collector.calibrated(sums.iter().map(|&s| s as f64 / runs as f64).collect());
    }

    let start = Instant::now();
    while !collector.done(start.elapsed()) {
        counters::read_all(&mut before);
        bench();
        counters::read_all(&mut after);
        collector.add(&before, &after);
    }
    collector.write(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn collector(duration: Duration) -> Collector {
        let events = events::parse_set("task-clock").unwrap();
        let opened = Counters {
            events,
            unsupported: Vec::new(),
            user_only: false,
        };
        let spec = Spec {
            events: "task-clock".into(),
            duration,
            default_entry: true,
            min_pcnt_running: 100.0,
            calibrate: Duration::ZERO,
            nonzero: vec!["task-clock*".into()],
            record: None,
        };
        Collector::new(opened, &spec)
    }

    fn run(value: u64, running: u64) -> [Reading; 2] {
        [
            Reading::default(),
            Reading {
                value,
                enabled: 100,
                running,
            },
        ]
    }

    #[test]
    fn sampling_ends_after_a_run_and_the_duration_with_a_sample_kept() {
        let second = Duration::from_secs(1);
        // No sampling duration: one run, however long it took.
        let mut c = collector(Duration::ZERO);
        assert!(!c.done(second));
        let [before, after] = run(10, 100);
        c.add(&[before], &[after]);
        assert!(c.done(Duration::ZERO));

        let mut c = collector(second);
        c.add(&[before], &[after]);
        assert!(!c.done(second / 2));
        assert!(c.done(second));

        // Runs dropped (a zero task-clock; multiplexed to half its time) do not end it until
        // ten times the duration.
        let mut c = collector(second);
        let [b, a] = run(0, 100);
        c.add(&[b], &[a]);
        let [b, a] = run(10, 50);
        c.add(&[b], &[a]);
        assert!(!c.done(second * 2));
        assert!(c.done(second * 11));
    }
}
