//! The terminal output of `benchgrind gbench`: what was counted, then one block per benchmark
//! with every metric per iteration, the chosen one first; failures say why.

use std::io::{self, Write};

use benchgrind_runner::config::EventKind;

use super::measure::Measurement;

/// Writes the table of `m` into `out`.
pub fn write(m: &Measurement, first: EventKind, out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "{} under Callgrind", m.binary.display())?;
    writeln!(out, "counted: {}", m.counting.describe())?;
    let width = m
        .benchmarks
        .iter()
        .map(|b| b.name.len())
        .max()
        .unwrap_or(0)
        .max("Benchmark".len());
    writeln!(
        out,
        "\n{:<width$}  {:<16} {:>18}  {:>10}",
        "Benchmark", "Metric", "per iteration", "iterations"
    )?;
    writeln!(out, "{}", "-".repeat(width + 50))?;
    for b in &m.benchmarks {
        let counts = match &b.outcome {
            Ok(counts) => counts,
            Err(e) => {
                writeln!(out, "{:<width$}  FAILED: {e}", b.name)?;
                continue;
            }
        };
        let mut values = counts.values.clone();
        if let Some(i) = values.iter().position(|(k, _)| *k == first) {
            let chosen = values.remove(i);
            values.insert(0, chosen);
        }
        for (i, (kind, value)) in values.iter().enumerate() {
            let (name, iterations) = if i == 0 {
                (b.name.as_str(), counts.iterations.to_string())
            } else {
                ("", String::new())
            };
            writeln!(
                out,
                "{name:<width$}  {:<16} {:>18}  {iterations:>10}",
                kind.name(),
                number(*value)
            )?;
        }
    }
    Ok(())
}

/// A count as is; an average with the decimals it has (at most 4).
fn number(value: f64) -> String {
    if value.fract() == 0.0 && value.abs() < 1e15 {
        format!("{value:.0}")
    } else {
        let text = format!("{value:.4}");
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::gbench::callgrind::RunInfo;
    use crate::compare::gbench::measure::{Counting, Counts, Measured};

    #[test]
    fn blocks_per_benchmark_with_the_chosen_metric_first() {
        let m = Measurement {
            binary: "./b".into(),
            counting: Counting::Difference(10),
            benchmarks: vec![
                Measured {
                    name: "BM_a".into(),
                    outcome: Ok(Counts {
                        values: vec![(EventKind::Ir, 4093.0), (EventKind::D1mr, 0.1)],
                        iterations: 10,
                    }),
                    info: RunInfo::default(),
                },
                Measured {
                    name: "BM_crash".into(),
                    outcome: Err("it was killed by signal 11".into()),
                    info: RunInfo::default(),
                },
            ],
        };
        let mut out = Vec::new();
        write(&m, EventKind::D1mr, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "./b under Callgrind");
        assert!(lines[1].starts_with("counted: the benchmark loop, per iteration"));
        assert_eq!(
            lines[5],
            "BM_a       D1mr                            0.1          10"
        );
        assert_eq!(
            lines[6],
            "           Ir                             4093            "
        );
        assert_eq!(lines[7], "BM_crash   FAILED: it was killed by signal 11");
    }
}
