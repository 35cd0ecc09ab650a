//! The bench process under `--benchgrind-perf G F B`: opens the counters of one event set,
//! runs the bench (setup, body, teardown) again and again for the sample duration, one sample
//! per run with the counters on in the window only, and writes the samples to the file the
//! harness named ([`super::samples`] reads it). Runs natively, never under Valgrind.

use std::io::Write;
use std::time::Instant;

use super::samples::{Spec, FORMAT};
use super::{counters, events, pattern};

/// At most this many samples are kept, however short the body.
pub const MAX_SAMPLES: usize = 100_000;

/// Runs `bench` as the spec in the environment says and exits.
pub fn run(bench: fn(), out: &std::path::Path) -> ! {
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

fn sample(bench: fn(), out: &std::path::Path) -> Result<(), String> {
    let spec = std::env::var(crate::protocol::PERF_SPEC_ENV)
        .map_err(|_| format!("{} is not set", crate::protocol::PERF_SPEC_ENV))
        .and_then(|s| Spec::parse(&s))?;
    let wanted = events::parse_set(&spec.events)?;
    let opened = match counters::open(&wanted) {
        Ok(opened) => opened,
        Err(counters::OpenError::Denied(why)) => return Err(format!("denied\t{why}")),
        Err(counters::OpenError::Other(why)) => return Err(why),
    };
    if opened.events.is_empty() {
        // Nothing to sample: the harness notes the events this machine lacks.
        let text = format!(
            "{FORMAT}\nevents\t\nunsupported\t{}\nruns\t0\n",
            opened.unsupported.join("\t")
        );
        return crate::store::write_atomic(out, text.as_bytes())
            .map_err(|e| format!("cannot write the perf samples to {}: {e}", out.display()));
    }
    super::set_active(spec.default_entry);
    let n = opened.events.len();
    let (mut before, mut after) = (Vec::with_capacity(n), Vec::with_capacity(n));

    let mut calibration = vec![0f64; n];
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
        calibration = sums.iter().map(|&s| s as f64 / runs as f64).collect();
    }

    let nonzero: Vec<bool> = opened
        .events
        .iter()
        .map(|e| spec.nonzero.iter().any(|p| pattern::matches(p, &e.name)))
        .collect();
    let mut samples: Vec<Vec<f64>> = Vec::new();
    let (mut multiplexed, mut zero, mut runs) = (0usize, 0usize, 0usize);
    let mut first_kept = false;
    let start = Instant::now();
    loop {
        counters::read_all(&mut before);
        bench();
        counters::read_all(&mut after);
        runs += 1;
        let mut values = Vec::with_capacity(n);
        let mut low = false;
        for (b, a) in before.iter().zip(&after) {
            let value = a.value.saturating_sub(b.value) as f64;
            let enabled = a.enabled.saturating_sub(b.enabled);
            let running = a.running.saturating_sub(b.running);
            let pcnt = if enabled == 0 {
                100.0
            } else {
                running as f64 * 100.0 / enabled as f64
            };
            low |= pcnt < spec.min_pcnt_running;
            // perf stat's scaling of a multiplexed count to the whole time enabled.
            let scaled = if running > 0 && running < enabled {
                value * enabled as f64 / running as f64
            } else {
                value
            };
            values.push(scaled);
        }
        if low {
            multiplexed += 1;
        } else if values.iter().zip(&nonzero).any(|(v, nz)| *nz && *v == 0.0) {
            zero += 1;
        } else {
            if runs == 1 {
                first_kept = true;
            }
            samples.push(values);
        }
        let done = start.elapsed() >= spec.duration || samples.len() >= MAX_SAMPLES;
        if done && (!samples.is_empty() || runs >= 1000 || start.elapsed() > spec.duration * 10) {
            break;
        }
    }
    // The first run warms caches and pages in code: dropped where others were kept.
    if first_kept && samples.len() > 1 {
        samples.remove(0);
    }

    let mut text = String::new();
    let row = |label: &str, cells: &mut dyn Iterator<Item = String>| {
        let cells: Vec<String> = cells.collect();
        format!("{label}\t{}\n", cells.join("\t"))
    };
    text.push_str(FORMAT);
    text.push('\n');
    text += &row("events", &mut opened.events.iter().map(|e| e.name.clone()));
    text += &row(
        "time",
        &mut opened
            .events
            .iter()
            .map(|e| (e.is_time() as u8).to_string()),
    );
    if !opened.unsupported.is_empty() {
        text += &row("unsupported", &mut opened.unsupported.iter().cloned());
    }
    if opened.user_only {
        text.push_str("user-only\t1\n");
    }
    text += &format!("runs\t{runs}\nmultiplexed\t{multiplexed}\nzero\t{zero}\n");
    if !spec.calibrate.is_zero() {
        text += &row(
            "calibration",
            &mut calibration.iter().map(|c| c.to_string()),
        );
    }
    for values in &samples {
        text += &row("sample", &mut values.iter().map(|v| v.to_string()));
    }
    crate::store::write_atomic(out, text.as_bytes())
        .map_err(|e| format!("cannot write the perf samples to {}: {e}", out.display()))?;
    Ok(())
}
