//! The attribution: two [`Profile`]s to the functions and lines whose costs changed.
//!
//! Functions are paired by (object, file, full demangled name). Those left without a partner
//! on both sides are then paired by name alone when the name is unique among them on each
//! side, so two builds at different paths (`prog-v1` and `prog-v2`) still line up. Whatever
//! stays unpaired is new or gone. Costs become metrics (`Ir`, `L1hits`, `EstimatedCycles`, ...)
//! function by function with [`Metrics::from_profile`]; the derived metrics are sums of event
//! counts with fixed weights, so a function's derived value is exact and the values add up.

use std::collections::HashMap;

use super::model::{Change, FunctionChange, LineChange, Status};
use crate::config::EventKind;
use crate::metrics::{derived, Metrics, CACHE_EVENTS};
use crate::parse::names;
use crate::parse::profile::{Function, Profile};

/// The metrics both profiles have, in report order.
pub fn common_metrics(old: &Profile, new: &Profile) -> Vec<EventKind> {
    let old_kinds = values(&old.events, &old.totals(), None);
    let new_kinds = values(&new.events, &new.totals(), None);
    old_kinds
        .iter()
        .map(|(k, _)| *k)
        .filter(|k| new_kinds.iter().any(|(n, _)| n == k))
        .collect()
}

/// The metrics of one cost vector, all of them or those of `kinds` in that order.
fn values(events: &[String], costs: &[u64], kinds: Option<&[EventKind]>) -> Vec<(EventKind, u64)> {
    let metrics = Metrics::from_costs(events, costs);
    match kinds {
        None => metrics.shown_by_default().collect(),
        Some(kinds) => kinds
            .iter()
            .map(|&k| (k, metrics.get(k).unwrap_or(0)))
            .collect(),
    }
}

/// The values of `kinds` for one cost vector.
pub fn metric_values(events: &[String], costs: &[u64], kinds: &[EventKind]) -> Vec<u64> {
    values(events, costs, Some(kinds))
        .into_iter()
        .map(|(_, v)| v)
        .collect()
}

/// How the values of `kinds` are read off one profile's cost vectors, worked out once per
/// profile (the attribution reads every function's and every line's costs): the columns of the
/// cache simulation's counts, and each metric's own column. Gives what [`metric_values`] gives.
pub struct Columns<'a> {
    kinds: &'a [EventKind],
    cache: Option<[usize; 9]>,
    direct: Vec<Option<usize>>,
}

impl<'a> Columns<'a> {
    /// The columns of `kinds` among a profile's `events`.
    pub fn new(events: &'a [String], kinds: &'a [EventKind]) -> Columns<'a> {
        let position = |name: &str| events.iter().position(|e| e == name);
        let found = CACHE_EVENTS.map(position);
        let cache = found
            .iter()
            .all(Option::is_some)
            .then(|| found.map(|i| i.unwrap_or(0)));
        let direct = kinds.iter().map(|k| position(k.name())).collect();
        Columns {
            kinds,
            cache,
            direct,
        }
    }

    /// The values of the kinds for one cost vector.
    pub fn values(&self, costs: &[u64]) -> Vec<u64> {
        let at = |i: usize| costs.get(i).copied().unwrap_or(0);
        let counts = self.cache.map(|c| c.map(at));
        self.kinds
            .iter()
            .zip(&self.direct)
            .map(|(&kind, column)| {
                if let Some(v) = counts.and_then(|c| derived(kind, c)) {
                    return v;
                }
                // A rate is no count: it has none here, as in `metric_values`.
                column.map_or(0, at)
            })
            .collect()
    }
}

/// Every function whose cost changed in any metric, and how many did not.
pub fn functions(
    old: &Profile,
    new: &Profile,
    kinds: &[EventKind],
) -> (Vec<FunctionChange>, usize) {
    let pairs = pair(old, new);
    let columns = (
        Columns::new(&old.events, kinds),
        Columns::new(&new.events, kinds),
    );
    let mut changed = Vec::new();
    let mut unchanged = 0;
    for (o, n) in pairs {
        let change = function_change(old, new, o, n, &columns);
        if change.is_unchanged() {
            unchanged += 1;
        } else {
            changed.push(change);
        }
    }
    (changed, unchanged)
}

/// One function's change; `o` and `n` index the two profiles' functions.
fn function_change(
    old: &Profile,
    new: &Profile,
    o: Option<usize>,
    n: Option<usize>,
    columns: &(Columns, Columns),
) -> FunctionChange {
    let of = o.map(|i| &old.functions[i]);
    let nf = n.map(|i| &new.functions[i]);
    let len = columns.0.kinds.len();
    let side = |c: &Columns, f: Option<&Function>, pick: fn(&Function) -> &Vec<u64>| match f {
        Some(f) => c.values(pick(f)),
        None => vec![0; len],
    };
    let changes = |a: Vec<u64>, b: Vec<u64>| -> Vec<Change> {
        a.into_iter()
            .zip(b)
            .map(|(old, new)| Change { old, new })
            .collect()
    };
    let Some(named) = nf.or(of) else {
        unreachable!("a pair has at least one side");
    };
    FunctionChange {
        name: names::demangle(&named.name),
        short: names::shorten(&names::demangle(&named.name)),
        file: named.file.clone(),
        object: named.object.clone(),
        status: match (o, n) {
            (Some(_), Some(_)) => Status::Changed,
            (None, _) => Status::New,
            (_, None) => Status::Gone,
        },
        self_cost: changes(
            side(&columns.0, of, |f| &f.self_cost),
            side(&columns.1, nf, |f| &f.self_cost),
        ),
        inclusive: changes(
            side(&columns.0, of, |f| &f.inclusive),
            side(&columns.1, nf, |f| &f.inclusive),
        ),
        lines: lines(old, new, of, nf, columns),
    }
}

/// The changed lines of one function, unsorted.
fn lines(
    old: &Profile,
    new: &Profile,
    of: Option<&Function>,
    nf: Option<&Function>,
    columns: &(Columns, Columns),
) -> Vec<LineChange> {
    // (file, line) -> (old values, new values)
    type Sides = (Vec<u64>, Vec<u64>);
    let mut by_line: HashMap<(&str, u64), Sides> = HashMap::new();
    let zero = vec![0; columns.0.kinds.len()];
    let sides = [(old, of, &columns.0, false), (new, nf, &columns.1, true)];
    for (profile, function, columns, is_new) in sides {
        let Some(function) = function else { continue };
        for (&(file, line), costs) in &function.lines {
            let slot = by_line
                .entry((profile.files[file].as_str(), line))
                .or_insert_with(|| (zero.clone(), zero.clone()));
            let values = columns.values(costs);
            if is_new {
                slot.1 = values;
            } else {
                slot.0 = values;
            }
        }
    }
    by_line
        .into_iter()
        .filter(|(_, (a, b))| a != b)
        .map(|((file, line), (a, b))| LineChange {
            file: file.to_owned(),
            line,
            self_cost: a
                .into_iter()
                .zip(b)
                .map(|(old, new)| Change { old, new })
                .collect(),
        })
        .collect()
}

/// Pairs the functions of the two profiles: `(old index, new index)`, either may be missing.
/// Three rounds, each over what the one before left: (object, file, name), then (file, name)
/// and name alone where unique among the unpaired on each side.
fn pair(old: &Profile, new: &Profile) -> Vec<(Option<usize>, Option<usize>)> {
    type KeyFn = fn(&Function, String) -> String;
    let rounds: [(KeyFn, bool); 3] = [
        (
            |f, name| format!("{:?}\0{:?}\0{name}", f.object, f.file),
            false,
        ),
        (|f, name| format!("{:?}\0{name}", f.file), true),
        (|_, name| name, true),
    ];
    let old_names: Vec<String> = old
        .functions
        .iter()
        .map(|f| names::demangle(&f.name))
        .collect();
    let new_names: Vec<String> = new
        .functions
        .iter()
        .map(|f| names::demangle(&f.name))
        .collect();
    let mut lonely_old: Vec<usize> = (0..old.functions.len()).collect();
    let mut lonely_new: Vec<usize> = (0..new.functions.len()).collect();
    let mut pairs = Vec::new();
    for (key, unique_only) in rounds {
        let index = |p: &Profile, names: &[String], idx: &[usize]| {
            let mut map: HashMap<String, Vec<usize>> = HashMap::new();
            for &i in idx {
                map.entry(key(&p.functions[i], names[i].clone()))
                    .or_default()
                    .push(i);
            }
            map
        };
        let old_index = index(old, &old_names, &lonely_old);
        let new_index = index(new, &new_names, &lonely_new);
        let mut taken = vec![false; new.functions.len()];
        lonely_old.retain(|&i| {
            let k = key(&old.functions[i], old_names[i].clone());
            match (old_index.get(&k), new_index.get(&k)) {
                (Some(a), Some(b)) if !unique_only || (a.len() == 1 && b.len() == 1) => {
                    // Within one profile a key is unique in the first round.
                    pairs.push((Some(i), Some(b[0])));
                    taken[b[0]] = true;
                    false
                }
                _ => true,
            }
        });
        lonely_new.retain(|&j| !taken[j]);
    }
    pairs.extend(lonely_old.into_iter().map(|i| (Some(i), None)));
    pairs.extend(lonely_new.into_iter().map(|j| (None, Some(j))));
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::profile::{parse as parse_read, Read};

    fn parse(
        path: &std::path::Path,
        bytes: &[u8],
    ) -> Result<crate::parse::profile::Profile, crate::parse::ParseError> {
        parse_read(path, bytes, Read::Full)
    }
    use std::path::Path;

    fn profile(text: &str) -> Profile {
        parse(Path::new("t.out"), text.as_bytes()).unwrap()
    }

    #[test]
    fn columns_read_what_metric_values_reads() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../benchgrind-selfbench/fixtures/sort500.callgrind.out");
        let profile = crate::parse::profile::parse_file(&path, Read::Full).unwrap();
        let mut kinds: Vec<EventKind> = common_metrics(&profile, &profile);
        kinds.extend(EventKind::RATES);
        kinds.push(EventKind::Bc);
        let columns = Columns::new(&profile.events, &kinds);
        assert!(profile.functions.len() > 10);
        for function in &profile.functions {
            for costs in [&function.self_cost, &function.inclusive] {
                let expected = metric_values(&profile.events, costs, &kinds);
                assert_eq!(columns.values(costs), expected, "{}", function.name);
            }
        }
    }

    #[test]
    fn pairs_by_identity_then_by_unique_name() {
        let old = profile(
            "events: Ir\nob=/a/prog-v1\nfl=p.c\nfn=main\n1 10\nfn=helper\n2 5\nfn=gone\n3 1\n\
             fl=q.c\nfn=twin\n1 1\nfl=r.c\nfn=twin\n1 1\nfl=t.c\nfn=twin\n1 1\n",
        );
        let new = profile(
            "events: Ir\nob=/a/prog-v2\nfl=p.c\nfn=main\n1 12\nfn=helper\n2 5\nfn=fresh\n3 2\n\
             fl=q.c\nfn=twin\n1 1\nfl=s.c\nfn=twin\n1 1\nfl=u.c\nfn=twin\n1 1\n",
        );
        let (changes, unchanged) = functions(&old, &new, &[EventKind::Ir]);
        let status = |name: &str| {
            let mut found: Vec<_> = changes
                .iter()
                .filter(|c| c.name == name)
                .map(|c| (c.status, c.file.clone().unwrap_or_default()))
                .collect();
            found.sort_by(|a, b| a.1.cmp(&b.1));
            found
        };
        // Paired by file and name although the object differs: main changed, helper and the
        // twin of q.c not.
        assert_eq!(status("main"), [(Status::Changed, "p.c".to_string())]);
        assert_eq!(unchanged, 2);
        assert_eq!(status("gone"), [(Status::Gone, "p.c".to_string())]);
        assert_eq!(status("fresh"), [(Status::New, "p.c".to_string())]);
        // The other twins share a name in other files: none is paired by name alone.
        let twins: Vec<_> = status("twin")
            .into_iter()
            .map(|(s, f)| format!("{s:?} {f}"))
            .collect();
        assert_eq!(twins, ["Gone r.c", "New s.c", "Gone t.c", "New u.c"]);
    }
}
