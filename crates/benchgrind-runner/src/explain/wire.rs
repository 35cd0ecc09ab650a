//! The JSON form of an [`Explanation`], kept apart from the domain types so that the format
//! can stay put while they change. Versioned; `$defs/explanation` of this crate's
//! `schemas/explain.v1.schema.json` is its schema. Values per metric are objects keyed by the
//! metric's name (`"Ir": {"old", "new", "diff"}`); `metrics` gives the report order.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::model::{Change, Explanation, FunctionChange, LineChange, Status};
use crate::config::EventKind;

/// The version of this format.
pub const VERSION: u32 = 1;

/// An explanation as written to JSON.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WireExplanation {
    /// [`VERSION`].
    pub version: u32,
    /// The old profile's path.
    pub old: String,
    /// The new profile's path.
    pub new: String,
    /// The metrics, in report order.
    pub metrics: Vec<String>,
    /// The metric that ranks `functions`.
    pub rank_metric: String,
    /// The benchmark's totals.
    pub total: BTreeMap<String, WireChange>,
    /// Total change minus the sum of the functions' self-cost changes (zero when exact).
    pub unattributed: BTreeMap<String, i64>,
    /// Functions in both profiles with the same costs.
    pub unchanged_functions: usize,
    /// Every changed function, ranked.
    pub functions: Vec<WireFunction>,
}

/// Old, new and their difference.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct WireChange {
    /// The old value.
    pub old: u64,
    /// The new value.
    pub new: u64,
    /// `new - old`.
    pub diff: i64,
}

/// One function.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WireFunction {
    /// Full demangled name.
    pub name: String,
    /// Shortened name for display.
    pub short: String,
    /// Source file.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub file: Option<String>,
    /// Object.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub object: Option<String>,
    /// `changed`, `new` or `gone`.
    pub status: String,
    /// Self cost per metric.
    #[serde(rename = "self")]
    pub self_cost: BTreeMap<String, WireChange>,
    /// Inclusive cost per metric.
    pub inclusive: BTreeMap<String, WireChange>,
    /// Changed source lines, ranked.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub lines: Vec<WireLine>,
}

/// One source line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WireLine {
    /// Source file.
    pub file: String,
    /// Line, 1-based.
    pub line: u64,
    /// Self cost per metric.
    #[serde(rename = "self")]
    pub self_cost: BTreeMap<String, WireChange>,
}

impl Explanation {
    /// The JSON form.
    pub fn to_wire(&self) -> WireExplanation {
        let names: Vec<String> = self.metrics.iter().map(|k| k.name().to_owned()).collect();
        let map = |changes: &[Change]| -> BTreeMap<String, WireChange> {
            names
                .iter()
                .cloned()
                .zip(changes.iter().map(wire))
                .collect()
        };
        WireExplanation {
            version: VERSION,
            old: self.old.display().to_string(),
            new: self.new.display().to_string(),
            metrics: names.clone(),
            rank_metric: self.rank_metric().name().to_owned(),
            total: map(&self.total),
            unattributed: names
                .iter()
                .cloned()
                .zip(self.unattributed.iter().map(|&u| clamp(u)))
                .collect(),
            unchanged_functions: self.unchanged,
            functions: self.functions.iter().map(|f| function(f, &map)).collect(),
        }
    }
}

impl WireExplanation {
    /// The explanation again, as a summary recorded it (for `benchgrind merge`); `None` when it
    /// names a metric this version does not know or ranks by one it does not list.
    pub fn to_explanation(&self) -> Option<Explanation> {
        let metrics: Vec<EventKind> = self
            .metrics
            .iter()
            .map(|m| EventKind::from_name(m))
            .collect::<Option<_>>()?;
        let rank = self.metrics.iter().position(|m| *m == self.rank_metric)?;
        let changes = |map: &BTreeMap<String, WireChange>| -> Vec<Change> {
            self.metrics
                .iter()
                .map(|m| {
                    map.get(m).map_or(Change { old: 0, new: 0 }, |c| Change {
                        old: c.old,
                        new: c.new,
                    })
                })
                .collect()
        };
        let functions: Vec<FunctionChange> = self
            .functions
            .iter()
            .map(|f| FunctionChange {
                name: f.name.clone(),
                short: f.short.clone(),
                file: f.file.clone(),
                object: f.object.clone(),
                status: match f.status.as_str() {
                    "new" => Status::New,
                    "gone" => Status::Gone,
                    _ => Status::Changed,
                },
                self_cost: changes(&f.self_cost),
                inclusive: changes(&f.inclusive),
                lines: f
                    .lines
                    .iter()
                    .map(|l| LineChange {
                        file: l.file.clone(),
                        line: l.line,
                        self_cost: changes(&l.self_cost),
                    })
                    .collect(),
            })
            .collect();
        Some(Explanation {
            old: self.old.clone().into(),
            new: self.new.clone().into(),
            has_lines: functions.iter().any(|f| !f.lines.is_empty()),
            total: changes(&self.total),
            unattributed: self
                .metrics
                .iter()
                .map(|m| i128::from(self.unattributed.get(m).copied().unwrap_or(0)))
                .collect(),
            unchanged: self.unchanged_functions,
            functions,
            metrics,
            rank,
        })
    }
}

fn function(
    f: &FunctionChange,
    map: &dyn Fn(&[Change]) -> BTreeMap<String, WireChange>,
) -> WireFunction {
    WireFunction {
        name: f.name.clone(),
        short: f.short.clone(),
        file: f.file.clone(),
        object: f.object.clone(),
        status: match f.status {
            Status::Changed => "changed",
            Status::New => "new",
            Status::Gone => "gone",
        }
        .to_owned(),
        self_cost: map(&f.self_cost),
        inclusive: map(&f.inclusive),
        lines: f
            .lines
            .iter()
            .map(|l: &LineChange| WireLine {
                file: l.file.clone(),
                line: l.line,
                self_cost: map(&l.self_cost),
            })
            .collect(),
    }
}

fn wire(c: &Change) -> WireChange {
    WireChange {
        old: c.old,
        new: c.new,
        diff: clamp(c.diff()),
    }
}

/// Counts of one run stay far below `i64::MAX`; clamp rather than wrap if one did not.
fn clamp(v: i128) -> i64 {
    i64::try_from(v).unwrap_or(if v < 0 { i64::MIN } else { i64::MAX })
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
    fn the_json_form_names_metrics_and_statuses() {
        let parse = |t: &str| parse(Path::new("t.out"), t.as_bytes()).unwrap();
        let old = parse("events: Ir\nfl=a.c\nfn=main\n3 10\nfn=gone\n4 2\n");
        let new = parse("events: Ir\nfl=a.c\nfn=main\n3 15\n");
        let e = explain_profiles(&old, &new, &Options::default()).unwrap();
        let json = serde_json::to_value(e.to_wire()).unwrap();
        assert_eq!(json["version"], 1);
        assert_eq!(json["total"]["Ir"]["diff"], 3);
        assert_eq!(json["unattributed"]["Ir"], 0);
        assert_eq!(json["functions"][0]["name"], "main");
        assert_eq!(json["functions"][0]["self"]["Ir"]["diff"], 5);
        assert_eq!(json["functions"][0]["lines"][0]["line"], 3);
        assert_eq!(json["functions"][1]["status"], "gone");
        let back: super::WireExplanation = serde_json::from_value(json).unwrap();
        assert_eq!(back, e.to_wire());
        // And back to the explanation, as `merge` reads it from a summary.
        assert_eq!(back.to_explanation(), Some(e));
        let mut unknown = back;
        unknown.metrics.push("NotAnEvent".into());
        assert_eq!(unknown.to_explanation(), None);
    }
}
