//! The size the report is built for: 1,000 benchmarks with 50 runs of history each. Generated
//! results (summaries and history records in the runner's own formats; the values follow a
//! pattern with a step in the middle), then `benchgrind report` timed, then the overview's load
//! timed in headless Chromium. Prints the figures; asserts no time (the machine's load decides
//! them): run with `cargo test -p benchgrind-cli --test report_scale -- --ignored --nocapture`.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;
use std::time::Instant;

use benchgrind_runner::report::history::{self, Entry, Record};

const BENCH_FILES: usize = 10;
const PER_FILE: usize = 100;
const RUNS: u64 = 50;
const METRICS: [&str; 6] = [
    "Ir",
    "L1hits",
    "LLhits",
    "RamHits",
    "TotalRW",
    "EstimatedCycles",
];

fn values(bench: usize, run: u64) -> BTreeMap<String, u64> {
    // A 3% step at run 25 for every seventh benchmark, a slow drift for the rest.
    let base = 10_000 + bench as u64 * 137;
    let step = if bench % 7 == 0 && run >= 25 {
        base * 3 / 100
    } else {
        0
    };
    METRICS
        .iter()
        .enumerate()
        .map(|(i, m)| (m.to_string(), (base + run + step) * (i as u64 + 1)))
        .collect()
}

fn generate(home: &Path) {
    let mut records: Vec<Record> = (0..RUNS * BENCH_FILES as u64)
        .map(|r| Record {
            version: history::VERSION,
            unix_ms: 1_700_000_000_000 + r * 60_000,
            date: history::utc_date(1_700_000_000 + r * 60),
            commit: Some(format!("{:040x}", r / BENCH_FILES as u64)),
            package: "pkg".into(),
            file: format!("file{}", r % BENCH_FILES as u64),
            fingerprint: None,
            benchmarks: BTreeMap::new(),
        })
        .collect();
    for bench in 0..BENCH_FILES * PER_FILE {
        let file = bench / PER_FILE;
        let id = format!("file{file}::group{}::bench_{bench}::case", bench % 5);
        let dir = format!("pkg/file{file}/group{}/bench_{bench}.case", bench % 5);
        for run in 0..RUNS {
            let regressed = if bench % 7 == 0 && run == 25 {
                vec!["Ir".to_owned()]
            } else {
                Vec::new()
            };
            let entry = Entry {
                status: if regressed.is_empty() {
                    "ok"
                } else {
                    "regressed"
                }
                .into(),
                dir: dir.clone(),
                metrics: values(bench, run),
                tools: BTreeMap::new(),
                regressed,
            };
            let record = &mut records[(run as usize) * BENCH_FILES + file];
            record.benchmarks.insert(id.clone(), entry);
        }
        let (new, old) = (values(bench, RUNS - 1), values(bench, RUNS - 2));
        let metrics: serde_json::Map<String, serde_json::Value> = METRICS
            .iter()
            .map(|m| {
                let (n, o) = (new[*m], old[*m]);
                let pct = (n as f64 - o as f64) / o as f64 * 100.0;
                let value = serde_json::json!({"new": n, "old": o, "diff_pct": pct,
                    "factor": n as f64 / o as f64});
                (m.to_string(), value)
            })
            .collect();
        let summary = serde_json::json!({
            "version": 1, "id": id, "package": "pkg", "file": format!("file{file}"),
            "group": format!("group{}", bench % 5), "function": format!("bench_{bench}"),
            "bench_id": "case", "args": "()", "command": null, "tool": "callgrind",
            "status": "ok", "error": null, "new_source": "run", "old_source": "previous run",
            "metrics": metrics, "regressions": [],
            "files": {"dir": home.join(&dir), "profile": home.join(&dir).join("callgrind.out"),
                      "log": null},
            "duration_secs": 0.01
        });
        std::fs::create_dir_all(home.join(&dir)).unwrap();
        std::fs::write(home.join(&dir).join("summary.json"), summary.to_string()).unwrap();
    }
    let bounds = history::Bounds {
        runs: 1000,
        bytes: 1 << 30,
    };
    for record in &records {
        history::append(&home.join(history::DIR), record, bounds).unwrap();
    }
}

#[test]
#[ignore = "a measurement: prints the time to write and load a report of 1,000 x 50 runs"]
fn a_thousand_benchmarks_with_fifty_runs_each() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    generate(&home);
    let start = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_benchgrind"))
        .arg("report")
        .arg(&home)
        .output()
        .unwrap();
    let written = start.elapsed().as_secs_f64();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("1000 benchmarks, 500 history records"),
        "{err}"
    );
    let site = home.join("report");
    let size = |p: &Path| std::fs::metadata(p).unwrap().len();
    let pages: u64 = std::fs::read_dir(site.join("bench"))
        .unwrap()
        .map(|e| size(&e.unwrap().path()))
        .sum();
    println!(
        "report of {} benchmarks x {RUNS} runs written in {written:.2} s (index.html {} KiB, \
         pages {} MiB)",
        BENCH_FILES * PER_FILE,
        size(&site.join("index.html")) / 1024,
        pages >> 20
    );

    let Ok(chromium) = which("chromium") else {
        println!("chromium is not installed: no load time (apt-get install chromium)");
        return;
    };
    // The overview in a frame: the frame's load event comes after its parse, styles and script.
    let probe = tmp.path().join("probe.html");
    std::fs::write(
        &probe,
        "<!DOCTYPE html><html><head><title>probe</title><script>var t0 = performance.now();\
         </script></head><body><iframe src=\"home/report/index.html\" style=\"width:1280px;\
         height:800px\" onload=\"document.title = 'loaded in ' + (performance.now() - t0)\
         .toFixed(0) + ' ms'\"></iframe></body></html>",
    )
    .unwrap();
    for _ in 0..3 {
        let dom = Command::new(&chromium)
            .args(["--headless", "--no-sandbox", "--disable-gpu", "--dump-dom"])
            .arg(format!(
                "--user-data-dir={}",
                tmp.path().join("profile").display()
            ))
            .arg(format!("file://{}", probe.display()))
            .output()
            .unwrap();
        let dom = String::from_utf8_lossy(&dom.stdout);
        let title = dom
            .split("<title>")
            .nth(1)
            .and_then(|t| t.split("</title>").next())
            .unwrap_or("no title");
        println!("overview (1,000 rows) in headless chromium: {title}");
    }
}

fn which(name: &str) -> Result<std::path::PathBuf, ()> {
    let path = std::env::var_os("PATH").ok_or(())?;
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
        .ok_or(())
}
