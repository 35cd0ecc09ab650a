//! Result files: rebar's CSV (its columns, its rounded units) for compatibility, and two
//! lossless forms that `cmp`, `diff`, `rank` and `report` read as well: full-precision CSV
//! (rebar's columns plus `metric`, values unrounded) and JSON (versioned, see
//! `schemas/suite-results.v1.schema.json`).
//!
//! A failed benchmark is a row with `err` set, never a missing row.

use benchgrind_runner::error::FileResult;
use benchgrind_runner::error::Problem;
use std::{collections::HashMap, io::Write, path::Path};

use anyhow::Context;
use serde::{Deserialize, Serialize};

use super::table::human_duration;

/// What the values of a measurement count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Metric {
    /// Wall-clock nanoseconds per iteration, as reported by the runner.
    #[default]
    Time,
    /// Instructions executed, counted by Callgrind.
    Instructions,
}

impl Metric {
    /// The name used in files and flags.
    pub fn as_str(self) -> &'static str {
        match self {
            Metric::Time => "time",
            Metric::Instructions => "instructions",
        }
    }
}

/// One benchmark measured with one engine. Values are nanoseconds (metric `time`) or
/// instructions (metric `instructions`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Measurement {
    /// Full benchmark name, `group/name`.
    pub name: String,
    /// The model.
    pub model: String,
    /// The version of the tool that measured (rebar's column name is kept).
    pub rebar_version: String,
    /// The engine.
    pub engine: String,
    /// The engine's version, from its `[engine.version]`.
    pub engine_version: String,
    /// Why the measurement failed; when set, the numbers are zero.
    pub err: Option<String>,
    /// Haystack length in bytes, for throughput (absent for `compile` and `regex-redux`).
    pub haystack_len: Option<u64>,
    /// The metric of the values below.
    pub metric: Metric,
    /// Number of samples.
    pub iters: u64,
    /// Time: wall time of the whole runner process. Instructions: instructions of the whole
    /// one-iteration run (the values below have the baseline run subtracted).
    pub total: f64,
    /// Median.
    pub median: f64,
    /// Median absolute deviation.
    pub mad: f64,
    /// Mean.
    pub mean: f64,
    /// Standard deviation.
    pub stddev: f64,
    /// Minimum.
    pub min: f64,
    /// Maximum.
    pub max: f64,
}

impl Measurement {
    /// The value of a statistic.
    pub fn stat(&self, stat: super::flags::Stat) -> f64 {
        use super::flags::Stat::*;
        match stat {
            Median => self.median,
            Mad => self.mad,
            Mean => self.mean,
            Stddev => self.stddev,
            Min => self.min,
            Max => self.max,
        }
    }
}

/// The output formats of `measure`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// rebar's columns and rounded units (time only).
    Rebar,
    /// rebar's columns plus `metric`, unrounded.
    Csv,
    /// Versioned JSON.
    Json,
}

impl std::str::FromStr for Format {
    type Err = Problem;

    fn from_str(s: &str) -> Result<Self, Problem> {
        match s {
            "rebar" => Ok(Format::Rebar),
            "csv" => Ok(Format::Csv),
            "json" => Ok(Format::Json),
            _ => Err(Problem::new("expected one of rebar, csv, json")),
        }
    }
}

/// rebar's CSV columns, in rebar's order.
pub const REBAR_COLUMNS: [&str; 15] = [
    "name",
    "model",
    "rebar_version",
    "engine",
    "engine_version",
    "err",
    "haystack_len",
    "iters",
    "total",
    "median",
    "mad",
    "mean",
    "stddev",
    "min",
    "max",
];

/// The JSON document: a format tag, a schema version and the measurements.
#[derive(Serialize, Deserialize)]
struct JsonDoc {
    /// Always `benchgrind-suite-results`.
    format: String,
    /// The schema version.
    version: u32,
    /// One per benchmark and engine.
    measurements: Vec<Measurement>,
}

/// The `format` field of the JSON results.
const JSON_FORMAT: &str = "benchgrind-suite-results";
/// The `version` field of the JSON results; see `schemas/suite-results.v1.schema.json`.
const JSON_VERSION: u32 = 1;

/// Quotes a CSV field when it needs it (commas, quotes, line breaks).
pub fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// The header line for a CSV format.
pub fn csv_header(format: Format) -> String {
    let mut cols = REBAR_COLUMNS.join(",");
    if format == Format::Csv {
        cols.push_str(",metric");
    }
    cols + "\n"
}

/// One CSV record (with its newline) in `format` (`Rebar` or `Csv`).
pub fn csv_record(m: &Measurement, format: Format) -> String {
    let value = |v: f64| match (format, m.metric) {
        (Format::Rebar, _) => human_duration(v),
        // `{}` on f64 is the shortest text that parses back to the same number: lossless.
        (_, Metric::Time) => format!("{v}ns"),
        (_, Metric::Instructions) => format!("{v}"),
    };
    let mut fields = vec![
        csv_field(&m.name),
        csv_field(&m.model),
        csv_field(&m.rebar_version),
        csv_field(&m.engine),
        csv_field(&m.engine_version),
        csv_field(m.err.as_deref().unwrap_or("")),
        m.haystack_len.map(|l| l.to_string()).unwrap_or_default(),
        m.iters.to_string(),
    ];
    for v in [m.total, m.median, m.mad, m.mean, m.stddev, m.min, m.max] {
        fields.push(value(v));
    }
    if format == Format::Csv {
        fields.push(m.metric.as_str().to_string());
    }
    fields.join(",") + "\n"
}

/// Writes all measurements in `format`.
pub fn write_all(w: &mut dyn Write, ms: &[Measurement], format: Format) -> std::io::Result<()> {
    match format {
        Format::Json => {
            let doc = JsonDoc {
                format: JSON_FORMAT.into(),
                version: JSON_VERSION,
                measurements: ms.to_vec(),
            };
            serde_json::to_writer_pretty(&mut *w, &doc)?;
            writeln!(w)
        }
        _ => {
            w.write_all(csv_header(format).as_bytes())?;
            for m in ms {
                w.write_all(csv_record(m, format).as_bytes())?;
            }
            Ok(())
        }
    }
}

/// Writes `ms` to `path` atomically: a temp file beside it, then a rename.
pub fn save(path: &Path, ms: &[Measurement], format: Format) -> anyhow::Result<()> {
    let tmp = path.with_extension(format!("tmp.{}", std::process::id()));
    let mut f = std::fs::File::create(&tmp).file_op("create", &tmp)?;
    write_all(&mut f, ms, format).file_op("write", &tmp)?;
    f.sync_all().ok();
    std::fs::rename(&tmp, path).file_op("move the new results into place at", path)?;
    Ok(())
}

/// Reads a results file of any of the three formats (JSON is recognized by its first `{`).
pub fn read_file(path: &Path) -> anyhow::Result<Vec<Measurement>> {
    let text = std::fs::read_to_string(path).context("cannot read the file")?;
    parse(path, &text)
}

/// Parses the text of a results file as [`read_file`] does; `path` is named in errors.
pub fn parse(path: &Path, text: &str) -> anyhow::Result<Vec<Measurement>> {
    if text.trim_start().starts_with('{') {
        let doc: JsonDoc = serde_json::from_str(text).context("invalid JSON results")?;
        anyhow::ensure!(
            doc.format == JSON_FORMAT,
            "not a benchgrind suite results file (format {:?})",
            doc.format
        );
        anyhow::ensure!(
            doc.version <= JSON_VERSION,
            "results format version {} is newer than this benchgrind understands ({JSON_VERSION})",
            doc.version
        );
        return Ok(doc.measurements);
    }
    read_csv(path, text)
}

/// Splits CSV text into records (RFC 4180 quoting), each with its starting line number.
fn csv_records(text: &str) -> Result<Vec<(usize, Vec<String>)>, usize> {
    let mut records = vec![];
    let (mut record, mut field) = (vec![], String::new());
    let (mut line, mut start_line, mut quoted, mut at_start) = (1, 1, false, true);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            (true, '"') => quoted = false,
            (true, c) => {
                if c == '\n' {
                    line += 1;
                }
                field.push(c);
            }
            (false, '"') if field.is_empty() => quoted = true,
            (false, ',') => record.push(std::mem::take(&mut field)),
            (false, '\r') => {}
            (false, '\n') => {
                record.push(std::mem::take(&mut field));
                records.push((start_line, std::mem::take(&mut record)));
                line += 1;
                start_line = line;
                at_start = true;
                continue;
            }
            (false, c) => field.push(c),
        }
        at_start = false;
    }
    if quoted {
        return Err(start_line);
    }
    if !at_start {
        record.push(field);
        records.push((start_line, record));
    }
    Ok(records)
}

/// Reads rebar's CSV or the full-precision CSV (a header row, then one row per measurement).
fn read_csv(path: &Path, text: &str) -> anyhow::Result<Vec<Measurement>> {
    let p = path.display();
    let records =
        csv_records(text).map_err(|l| anyhow::anyhow!("{p}:{l}: unterminated quoted field"))?;
    let mut it = records
        .into_iter()
        .filter(|(_, r)| !(r.len() == 1 && r[0].is_empty()));
    let (_, header) = it
        .next()
        .with_context(|| format!("{p}: the file is empty"))?;
    let col: HashMap<&str, usize> = header
        .iter()
        .enumerate()
        .map(|(i, h)| (h.as_str(), i))
        .collect();
    for need in ["name", "engine", "median"] {
        anyhow::ensure!(col.contains_key(need), "{p}:1: no `{need}` column; is this a `benchgrind suite measure` or rebar results file?");
    }
    it.map(|(line, rec)| csv_row(&p.to_string(), line, &col, &rec))
        .collect()
}

/// One CSV record as a measurement; `col` maps column names to their index.
fn csv_row(
    p: &str,
    line: usize,
    col: &HashMap<&str, usize>,
    rec: &[String],
) -> anyhow::Result<Measurement> {
    let get = |name: &str| {
        col.get(name)
            .and_then(|&i| rec.get(i))
            .map(String::as_str)
            .unwrap_or("")
    };
    let metric = match get("metric") {
        "" | "time" => Metric::Time,
        "instructions" => Metric::Instructions,
        other => anyhow::bail!("{p}:{line}: unknown metric {other:?}"),
    };
    let num = |name: &str| -> anyhow::Result<f64> {
        let s = get(name);
        if s.is_empty() {
            return Ok(0.0);
        }
        match metric {
            Metric::Time => {
                parse_duration_ns(s).with_context(|| format!("{p}:{line}: column `{name}`"))
            }
            Metric::Instructions => s
                .parse()
                .ok()
                .filter(|v: &f64| v.is_finite())
                .with_context(|| format!("{p}:{line}: column `{name}`: {s:?} is not a number")),
        }
    };
    let err = get("err");
    Ok(Measurement {
        name: get("name").to_string(),
        model: get("model").to_string(),
        rebar_version: get("rebar_version").to_string(),
        engine: get("engine").to_string(),
        // Older rebar files call it `version`.
        engine_version: if col.contains_key("engine_version") {
            get("engine_version")
        } else {
            get("version")
        }
        .to_string(),
        err: (!err.is_empty()).then(|| err.to_string()),
        haystack_len: match get("haystack_len") {
            "" => None,
            s => Some(s.parse().with_context(|| {
                format!("{p}:{line}: column `haystack_len`: {s:?} is not a number")
            })?),
        },
        metric,
        iters: match get("iters") {
            "" => 0,
            s => s
                .parse()
                .with_context(|| format!("{p}:{line}: column `iters`: {s:?} is not a number"))?,
        },
        total: num("total")?,
        median: num("median")?,
        mad: num("mad")?,
        mean: num("mean")?,
        stddev: num("stddev")?,
        min: num("min")?,
        max: num("max")?,
    })
}

/// Parses `<decimal>(s|ms|us|ns)` into nanoseconds, without rounding; the result is finite.
fn parse_duration_ns(s: &str) -> anyhow::Result<f64> {
    let split =
        s.find(|c: char| !(c.is_ascii_digit() || c == '.' || c == 'e' || c == '-' || c == '+'));
    let (num, unit) =
        s.split_at(split.with_context(|| format!("{s:?} has no unit (s, ms, us, ns)"))?);
    let v: f64 = num
        .parse()
        .with_context(|| format!("{s:?} is not a duration"))?;
    let scale = match unit {
        "s" => 1e9,
        "ms" => 1e6,
        "us" => 1e3,
        "ns" => 1.0,
        _ => anyhow::bail!("{s:?} has an unknown unit (use s, ms, us or ns)"),
    };
    // A decimal too long for f64 parses as infinity, which could not be written back.
    Some(v * scale)
        .filter(|ns| ns.is_finite())
        .with_context(|| format!("{s:?} is past the largest duration"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Measurement {
        Measurement {
            name: "memmem/sherlock-holmes".into(),
            model: "iter".into(),
            rebar_version: "0.1.0 (benchgrind)".into(),
            engine: "libc/memmem".into(),
            engine_version: "0.1.0".into(),
            err: None,
            haystack_len: Some(607_430),
            metric: Metric::Time,
            iters: 3,
            total: 4.57e9,
            median: 59_280.5,
            mad: 1.0 / 3.0,
            mean: 59_281.123456789,
            stddev: 3160.0,
            min: 53_540.0,
            max: 70_320.0,
        }
    }

    #[test]
    fn rebar_record() {
        assert_eq!(
            csv_record(&sample(), Format::Rebar),
            "memmem/sherlock-holmes,iter,0.1.0 (benchgrind),libc/memmem,0.1.0,,607430,3,4.57s,59.28us,0.33ns,59.28us,3.16us,53.54us,70.32us\n"
        );
    }

    #[test]
    fn lossless_round_trips() {
        let dir = std::env::temp_dir().join(format!("bg-results-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut err = sample();
        err.engine = "rust/memmem".into();
        err.err = Some("count mismatch, \"expected\" 91,\ngot 90".into());
        let mut instr = sample();
        instr.metric = Metric::Instructions;
        instr.median = 123_456_789.0;
        for format in [Format::Csv, Format::Json] {
            let path = dir.join(format!("r.{format:?}"));
            let ms = vec![sample(), err.clone(), instr.clone()];
            save(&path, &ms, format).unwrap();
            assert_eq!(read_file(&path).unwrap(), ms, "{format:?}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn reads_rebar_csv() {
        let text = "name,model,rebar_version,engine,engine_version,err,haystack_len,iters,total,median,mad,mean,stddev,min,max\n\
memmem/sherlock-holmes,iter,0.0.1 (rev e5d648ff17),libc/memmem,0.1.0,,607430,50577,4.57s,59.28us,0.00ns,59.28us,3.16us,53.54us,70.32us\n";
        let ms = read_csv(Path::new("x.csv"), text).unwrap();
        assert_eq!(ms.len(), 1);
        assert!((ms[0].median - 59_280.0).abs() < 1e-6);
        assert_eq!(ms[0].haystack_len, Some(607_430));
        assert!(read_csv(Path::new("x.csv"), "a,b\n1,2\n")
            .unwrap_err()
            .to_string()
            .contains("x.csv:1"));
        let bad = read_csv(Path::new("x.csv"), &text.replace("59.28us", "fast")).unwrap_err();
        assert!(format!("{bad:#}").contains("x.csv:2"), "{bad:#}");
    }

    // Found by fuzzing (fuzz/fuzz_targets/rebar_csv.rs): a number too long for f64 read as an
    // infinite duration, written back as `infs`, which no reader takes; now it is an error.
    #[test]
    fn durations_and_counts_past_f64_are_errors() {
        let header = "name,model,rebar_version,engine,engine_version,err,haystack_len,iters,total,median,mad,mean,stddev,min,max,metric\n";
        let row = |value: &str, metric: &str| {
            let other = if metric == "time" { "1ns" } else { "1" };
            let mut fields = vec!["a/b", "iter", "1", "e", "1", "", "1", "1", other, value];
            fields.extend([other; 5]);
            format!("{header}{},{metric}\n", fields.join(","))
        };
        let huge = format!("1{}.5us", "4".repeat(400));
        for (median, metric, what) in [
            (huge.as_str(), "time", "past the largest duration"),
            ("1e308s", "time", "past the largest duration"),
            ("inf", "instructions", "not a number"),
            ("NaN", "instructions", "not a number"),
        ] {
            let e = read_csv(Path::new("x.csv"), &row(median, metric)).unwrap_err();
            let e = format!("{e:#}");
            assert!(
                e.contains("x.csv:2: column `median`") && e.contains(what),
                "{e}"
            );
        }
        let ms = read_csv(Path::new("x.csv"), &row("1e290s", "time")).unwrap();
        assert_eq!(ms[0].median, 1e290 * 1e9);
    }

    #[test]
    fn json_matches_the_committed_schema() {
        let schema: serde_json::Value = serde_json::from_str(include_str!(
            "../../../../schemas/suite-results.v1.schema.json"
        ))
        .unwrap();
        let item = &schema["properties"]["measurements"]["items"];
        let mut required: Vec<&str> = item["required"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        let mut props: Vec<&str> = item["properties"]
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        let value = serde_json::to_value(sample()).unwrap();
        let mut keys: Vec<&str> = value
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        required.sort_unstable();
        props.sort_unstable();
        keys.sort_unstable();
        assert_eq!(keys, required);
        assert_eq!(keys, props);
        assert_eq!(schema["properties"]["format"]["const"], JSON_FORMAT);
        assert_eq!(schema["properties"]["version"]["const"], JSON_VERSION);
    }
}
