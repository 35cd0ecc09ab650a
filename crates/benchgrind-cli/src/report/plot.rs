//! `benchgrind report`: the history plot of one metric, drawn by plotters into an SVG string
//! that the benchmark's page inlines. The x axis is the run (labelled with its date), the y axis
//! the value; runs where the metric passed a limit are marked in red.
//!
//! Colors are chosen to read on a light and a dark page alike; the text takes the page's color
//! from the stylesheet, and the background is left transparent for the same reason.

use benchgrind_runner::error::Problem;
use benchgrind_runner::problem;
use plotters::prelude::*;

/// One run: its date (`YYYY-MM-DDTHH:MM:SSZ`), the value, and whether a limit was passed.
pub struct Run<'a> {
    /// When it ran.
    pub date: &'a str,
    /// The metric's value.
    pub value: u64,
    /// Whether the metric regressed in that run.
    pub regressed: bool,
}

const WIDTH: u32 = 420;
const HEIGHT: u32 = 200;
const SERIES: RGBColor = RGBColor(0x3b, 0x82, 0xf6);
const REGRESSED: RGBColor = RGBColor(0xe5, 0x48, 0x4d);
const GRID: RGBColor = RGBColor(0x80, 0x80, 0x80);

/// The SVG of `runs` (oldest first) under the title `title`.
pub fn history(title: &str, runs: &[Run]) -> Result<String, Problem> {
    let mut svg = String::new();
    draw(&mut svg, title, runs).map_err(|e| problem!("cannot draw the {title} plot: {e}"))?;
    Ok(svg)
}

fn draw(svg: &mut String, title: &str, runs: &[Run]) -> Result<(), Box<dyn std::error::Error>> {
    let root = SVGBackend::with_string(svg, (WIDTH, HEIGHT)).into_drawing_area();
    let last = runs.len().saturating_sub(1) as f64;
    let x_range = if runs.len() > 1 { 0.0..last } else { -0.5..0.5 };
    let min = runs.iter().map(|r| r.value).min().unwrap_or(0) as f64;
    let max = runs.iter().map(|r| r.value).max().unwrap_or(0) as f64;
    // Room above and below the line; a flat line sits in the middle of a small band.
    let pad = if max > min {
        (max - min) * 0.12
    } else {
        (max * 0.01).max(1.0)
    };
    let y_range = (min - pad).max(0.0)..(max + pad);
    let mut chart = ChartBuilder::on(&root)
        .margin(6)
        .margin_right(28)
        .caption(title, ("sans-serif", 17))
        .x_label_area_size(26)
        .y_label_area_size(62)
        .build_cartesian_2d(x_range, y_range)?;
    // Runs of one day are told apart by the time, others by the day.
    let one_day =
        runs.first().and_then(|r| r.date.get(..10)) == runs.last().and_then(|r| r.date.get(..10));
    let part = if one_day { 11..19 } else { 5..10 };
    let date_label = |x: &f64| {
        let i = x.round();
        if (x - i).abs() > 1e-6 || i < 0.0 {
            return String::new();
        }
        runs.get(i as usize)
            .and_then(|r| r.date.get(part.clone()))
            .unwrap_or_default()
            .to_owned()
    };
    chart
        .configure_mesh()
        .disable_x_mesh()
        .bold_line_style(GRID.mix(0.25))
        .light_line_style(TRANSPARENT)
        .axis_style(GRID)
        .label_style(("sans-serif", 13))
        .x_labels(runs.len().clamp(1, 4))
        .y_labels(4)
        .x_label_formatter(&date_label)
        // Counts are whole: no label between two of them (a band of 0..1 would say 0, 0, 1).
        .y_label_formatter(&|y| {
            if (y - y.round()).abs() > 1e-9 && y.abs() < 1e4 {
                String::new()
            } else {
                short(*y)
            }
        })
        .draw()?;
    let points = runs
        .iter()
        .enumerate()
        .map(|(i, r)| (i as f64, r.value as f64));
    chart.draw_series(LineSeries::new(points, SERIES.stroke_width(2)))?;
    chart.draw_series(runs.iter().enumerate().map(|(i, r)| {
        let color = if r.regressed { REGRESSED } else { SERIES };
        let size = if r.regressed { 4 } else { 2 };
        Circle::new((i as f64, r.value as f64), size, color.filled())
    }))?;
    root.present()?;
    Ok(())
}

/// An axis label: exact below ten thousand, else with a k, M or G suffix.
fn short(value: f64) -> String {
    let a = value.abs();
    let (scaled, suffix) = if a >= 1e9 {
        (value / 1e9, "G")
    } else if a >= 1e6 {
        (value / 1e6, "M")
    } else if a >= 1e4 {
        (value / 1e3, "k")
    } else {
        return format!("{value:.0}");
    };
    let text = format!("{scaled:.3}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    format!("{text}{suffix}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plots_a_line_with_the_regression_marked() {
        let runs = [
            Run {
                date: "2026-11-24T17:00:00Z",
                value: 9008,
                regressed: false,
            },
            Run {
                date: "2026-11-24T17:05:00Z",
                value: 9908,
                regressed: true,
            },
            Run {
                date: "2026-11-24T17:10:00Z",
                value: 9908,
                regressed: false,
            },
        ];
        let svg = history("Instructions", &runs).unwrap();
        assert!(svg.starts_with("<svg"), "{svg}");
        assert!(svg.contains("viewBox"), "scales with the page");
        assert!(svg.contains("Instructions"));
        assert!(
            svg.contains("17:05:00") && !svg.contains("11-24"),
            "runs of one day are labelled by time"
        );
        assert_eq!(svg.matches("<circle").count(), 3);
        assert_eq!(svg.matches("#E5484D").count(), 1, "one red point: {svg}");
        // One run and a flat line draw too.
        assert!(history("Ir", &runs[..1]).is_ok());
    }

    #[test]
    fn short_labels() {
        assert_eq!(short(9908.0), "9908");
        assert_eq!(short(12_500.0), "12.5k");
        assert_eq!(short(27_046_772.0), "27.047M");
        assert_eq!(short(2e9), "2G");
    }
}
