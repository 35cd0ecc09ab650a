//! `benchgrind report` end to end: three real runs under real Valgrind with a change in the
//! middle, the history they leave, the site written from them, and that site opened in headless
//! Chromium: screenshots (kept as test artefacts in `target/benchgrind-test-artefacts/report/`)
//! and the numbers in the rendered DOM checked against the summaries.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{cli, run, stdout};

const REGRESS: &str = env!("CARGO_BIN_EXE_e2e_regress");
const TOOLS: &str = env!("CARGO_BIN_EXE_e2e_tools");

/// Chromium, which `.ci/deps --tests` installs; `None` (with a note) only where it is not installed
/// and this is not CI.
fn chromium() -> Option<PathBuf> {
    let found = std::env::var_os("PATH").and_then(|path| {
        std::env::split_paths(&path)
            .flat_map(|dir| ["chromium", "chromium-browser"].map(|n| dir.join(n)))
            .find(|p| p.is_file())
    });
    if found.is_none() {
        assert!(
            std::env::var_os("CI").is_none(),
            "chromium is missing: `.ci/deps --tests` installs it (apt-get install chromium)"
        );
        eprintln!(
            "NOTE: skipping the browser half: chromium is not installed (apt-get install chromium)"
        );
    }
    found
}

/// Runs headless Chromium on `url` with `args`; returns stdout.
fn browse(chromium: &Path, profile: &Path, args: &[&str], url: &str) -> String {
    let out = Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--no-first-run",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(args)
        .arg(url)
        .output()
        .expect("chromium starts");
    assert!(
        out.status.success(),
        "chromium {args:?} {url}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn summary(home: &Path, group: &str, leaf: &str) -> serde_json::Value {
    let path = home
        .join("benchgrind-e2e/e2e_regress")
        .join(group)
        .join(leaf)
        .join("summary.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The text of the first element after `marker` in `dom`, and its `data-value`.
fn cell_after<'a>(dom: &'a str, marker: &str, nth_td: usize) -> (&'a str, &'a str) {
    let at = dom
        .find(marker)
        .unwrap_or_else(|| panic!("no `{marker}` in the DOM"));
    let row = &dom[at..at + dom[at..].find("</tr>").unwrap()];
    let td = row.split("<td").nth(nth_td + 1).unwrap();
    let value = td
        .split("data-value=\"")
        .nth(1)
        .map_or("", |v| &v[..v.find('"').unwrap()]);
    let text = &td[td.find('>').unwrap() + 1..td.find("</td>").unwrap()];
    (text, value)
}

fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[test]
fn three_runs_with_a_change_in_the_middle_make_a_report_a_browser_shows() {
    let Some(cli) = cli() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let h = format!("--home={}", home.display());
    // A 10% instruction change in the second run (past strict's 5% limit), none in the third;
    // `fibonacci_and_extra` changes in every run, so its page explains the last change.
    for (work, extra, code) in [("1000", "100", 0), ("1100", "1000", 3), ("1100", "2000", 0)] {
        let out = run(
            REGRESS,
            &[&h, "--save-summary"],
            tmp.path(),
            &[("E2E_WORK", work)],
        );
        assert_eq!(out.status.code(), Some(code), "{}", stdout(&out));
        let out = run(
            TOOLS,
            &[&h, "--save-summary", "flame", "alloc_in_tail_call"],
            tmp.path(),
            &[("E2E_EXTRA", extra)],
        );
        assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    }
    let history: Vec<_> = std::fs::read_dir(home.join("history"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(history.len(), 6, "one record per run of each bench file");
    let schema = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../schemas/history.v1.schema.json");
    let schema: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(schema).unwrap()).unwrap();
    let validator = jsonschema::validator_for(&schema).expect("a valid JSON Schema");
    for file in &history {
        let record: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
        let errors: Vec<String> = validator
            .iter_errors(&record)
            .map(|e| e.to_string())
            .collect();
        assert!(errors.is_empty(), "{}: {errors:?}", file.display());
        let in_git = Path::new(env!("CARGO_MANIFEST_DIR"))
            .ancestors()
            .any(|d| d.join(".git").exists());
        assert_eq!(
            record["commit"].is_string(),
            in_git,
            "the commit of this checkout"
        );
    }
    // `--history=off` adds none.
    let out = run(
        REGRESS,
        &[&h, "--history=off"],
        tmp.path(),
        &[("E2E_WORK", "1100")],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert_eq!(std::fs::read_dir(home.join("history")).unwrap().count(), 6);

    let out = Command::new(&cli)
        .arg("report")
        .arg(&home)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(err.contains("6 benchmarks, 6 history records"), "{err}");
    let site = home.join("report");
    let page = site.join("bench/benchgrind-e2e.e2e_regress.limit_5.strict.loop_work.html");
    let page_text = std::fs::read_to_string(&page).unwrap();
    // The history plot of Ir marks the regressed middle run, and only it, in red.
    let ir_plot = page_text
        .split("<figure")
        .skip(1)
        .find(|f| f.contains("data-metric=\"Ir\""))
        .unwrap();
    assert_eq!(ir_plot.matches("<circle").count(), 3, "{ir_plot}");
    assert_eq!(ir_plot.matches("#E5484D").count(), 1, "{ir_plot}");
    let flame_page = site.join(
        "bench/benchgrind-e2e.e2e_tools.flame.fibonacci_and_extra.with_extra/\
         callgrind.Ir.diff.flamegraph.svg",
    );
    assert!(flame_page.exists(), "the differential flamegraph is copied");
    // What changed last, by function: extra_work's 1000 more loop iterations, and nothing on
    // the page of a benchmark whose last run changed nothing.
    let flame_text = std::fs::read_to_string(
        site.join("bench/benchgrind-e2e.e2e_tools.flame.fibonacci_and_extra.with_extra.html"),
    )
    .unwrap();
    let what = &flame_text[flame_text.find("id=\"attribution\"").expect("attributed")..];
    let body = &what[what.find("<tbody>").unwrap()..];
    let first_row = &body[..body.find("</tr>").unwrap()];
    assert!(first_row.contains("extra_work"), "{first_row}");
    assert!(first_row.contains("class=\"worse\">+"), "{first_row}");
    assert!(!page_text.contains("id=\"attribution\""));

    let Some(chromium) = chromium() else { return };
    check_in_browser(&chromium, &home, &site, &page, tmp.path());
}

fn check_in_browser(chromium: &Path, home: &Path, site: &Path, page: &Path, tmp: &Path) {
    let artefacts = common::target_dir().join("benchgrind-test-artefacts/report");
    std::fs::create_dir_all(&artefacts).unwrap();
    let profile = tmp.join("chromium-profile");
    let index = format!("file://{}", site.join("index.html").display());
    let page_url = format!("file://{}", page.display());
    let flame_url = format!(
        "file://{}",
        site.join("bench/benchgrind-e2e.e2e_tools.flame.fibonacci_and_extra.with_extra.html")
            .display()
    );
    let shots = [
        ("overview.png", "1280,800", &index, false),
        ("overview-phone.png", "390,844", &index, false),
        ("benchmark.png", "1280,2000", &page_url, false),
        ("benchmark-phone-dark.png", "390,1600", &page_url, true),
        ("flamegraphs.png", "1280,2400", &flame_url, false),
    ];
    for (name, size, url, dark) in shots {
        let path = artefacts.join(name);
        let _ = std::fs::remove_file(&path);
        let mut args = vec![
            format!("--screenshot={}", path.display()),
            format!("--window-size={size}"),
        ];
        if dark {
            args.push("--force-dark-mode".into());
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        browse(chromium, &profile, &args, url);
        let bytes = std::fs::read(&path).unwrap();
        assert!(
            bytes.starts_with(b"\x89PNG") && bytes.len() > 10_000,
            "{name}"
        );
        eprintln!("screenshot: {}", path.display());
    }

    let dom = browse(chromium, &profile, &["--dump-dom"], &index);
    // The script ran: it counts the rows it shows.
    assert!(dom.contains(">6 of 6</span>"), "{dom}");
    for (group, leaf) in [
        ("limit_5", "strict.loop_work"),
        ("limit_20", "lenient.loop_work"),
        ("limit_5", "unchanged.fixed"),
    ] {
        let summary = summary(home, group, leaf);
        let id = summary["id"].as_str().unwrap();
        let ir = summary["metrics"]["Ir"]["new"].as_u64().unwrap();
        let (text, value) = cell_after(&dom, &format!("data-id=\"{id}\""), 2);
        assert_eq!(
            (text, value),
            (grouped(ir).as_str(), ir.to_string().as_str())
        );
        let diff = summary["metrics"]["Ir"]["diff_pct"].as_f64().unwrap();
        let (_, shown_diff) = cell_after(&dom, &format!("data-id=\"{id}\""), 3);
        assert_eq!(shown_diff.parse::<f64>().unwrap(), diff, "{id}");
    }

    let dom = browse(chromium, &profile, &["--dump-dom"], &page_url);
    let summary = summary(home, "limit_5", "strict.loop_work");
    for (name, metric) in summary["metrics"].as_object().unwrap() {
        let new = metric["new"].as_u64().unwrap();
        let (text, value) = cell_after(&dom, &format!("<tr data-metric=\"{name}\">"), 1);
        assert_eq!(text, grouped(new), "{name}");
        assert_eq!(value, new.to_string(), "{name}");
    }
    interact(chromium, &profile, home, site, tmp);

    // Newest run first: ok, regressed (the change), ok.
    let runs = &dom[dom.find("id=\"runs\"").unwrap()..];
    let statuses: Vec<&str> = runs
        .split("<span class=\"badge ")
        .skip(1)
        .map(|s| &s[..s.find('"').unwrap()])
        .collect();
    assert_eq!(statuses, ["ok", "regressed", "ok"], "{runs}");
}

/// The overview's script at work: a probe page drives it in a frame (same origin for file
/// URLs with `--allow-file-access-from-files`) and writes what it saw into its title.
fn interact(chromium: &Path, profile: &Path, home: &Path, site: &Path, tmp: &Path) {
    let probe = tmp.join("probe.html");
    std::fs::write(
        &probe,
        format!(
            "<!DOCTYPE html><html><head><title>probe</title></head><body>\
             <iframe id=\"f\" src=\"file://{}\"></iframe><script>\
             document.getElementById('f').onload = function () {{\
               var d = this.contentDocument, out = [];\
               var col = function (i) {{ return Array.prototype.map.call(\
                 d.querySelectorAll('#benchmarks tbody tr:not([hidden])'),\
                 function (t) {{ return t.cells[i].dataset.value; }}).join(' '); }};\
               var th = d.querySelectorAll('#benchmarks th')[2];\
               th.click(); out.push(col(2)); th.click(); out.push(col(2));\
               var m = d.getElementById('metric');\
               m.value = String(Array.prototype.findIndex.call(m.options,\
                 function (o) {{ return o.text.indexOf('(EstimatedCycles)') >= 0; }}));\
               m.dispatchEvent(new Event('change'));\
               var f = d.getElementById('filter'); f.value = 'limit_5 strict';\
               f.dispatchEvent(new Event('input'));\
               out.push(col(2)); out.push(d.getElementById('shown').textContent);\
               document.title = out.join('|');\
             }};</script></body></html>",
            site.join("index.html").display()
        ),
    )
    .unwrap();
    let dom = browse(
        chromium,
        profile,
        &["--allow-file-access-from-files", "--dump-dom"],
        &format!("file://{}", probe.display()),
    );
    let title = dom
        .split("<title>")
        .nth(1)
        .and_then(|t| t.split("</title>").next())
        .unwrap();
    let seen: Vec<&str> = title.split('|').collect();
    assert_eq!(seen.len(), 4, "{title}");
    let numbers = |s: &str| -> Vec<u64> { s.split(' ').map(|v| v.parse().unwrap()).collect() };
    let (up, down) = (numbers(seen[0]), numbers(seen[1]));
    assert_eq!(up.len(), 6, "{title}");
    assert!(up.windows(2).all(|w| w[0] <= w[1]), "ascending: {title}");
    let mut reversed = up.clone();
    reversed.reverse();
    assert_eq!(down, reversed, "descending: {title}");
    let strict = summary(home, "limit_5", "strict.loop_work");
    let cycles = strict["metrics"]["EstimatedCycles"]["new"]
        .as_u64()
        .unwrap();
    assert_eq!(
        seen[2],
        cycles.to_string(),
        "the metric switched, filtered: {title}"
    );
    assert_eq!(seen[3], "1 of 6", "{title}");
}
