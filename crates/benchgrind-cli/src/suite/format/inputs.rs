//! The `regex` and `haystack` fields of a definition: inline values or files under `regexes/`
//! and `haystacks/`, with rebar's transformations applied in rebar's order.
//!
//! Files are read once and shared between benchmarks. Errors are plain messages; the caller
//! adds the file:line of the field and the benchmark name.

use benchgrind_runner::error::FileResult;
use benchgrind_runner::error::Problem;
use benchgrind_runner::problem;
use std::{collections::HashMap, path::PathBuf, sync::Arc};

use toml::{value::Table, Value};

/// The largest haystack `repeat` may make (1 GiB): far beyond any benchmark's, and short of
/// exhausting the memory of the machine running the suite.
const MAX_HAYSTACK: usize = 1 << 30;

/// Files already read, by path.
pub struct Cache {
    /// The suite directory.
    dir: PathBuf,
    /// What was read, by path.
    files: HashMap<PathBuf, Arc<[u8]>>,
}

impl Cache {
    /// A cache for the suite directory `dir`.
    pub fn new(dir: &std::path::Path) -> Cache {
        Cache {
            dir: dir.to_path_buf(),
            files: HashMap::new(),
        }
    }

    /// Reads `sub/rel` below the suite directory once; later reads share the bytes. Only a
    /// regular file below `sub/` is read: an absolute path or `..` could name anything, and a
    /// device such as `/dev/zero` would never end.
    fn read(&mut self, sub: &str, rel: &str) -> Result<Arc<[u8]>, Problem> {
        let below = std::path::Path::new(rel)
            .components()
            .all(|c| matches!(c, std::path::Component::Normal(_)));
        if rel.is_empty() || !below {
            return Err(problem!(
                "path {rel:?} must be relative to {sub}/, without `..` (e.g. \"file.txt\")"
            ));
        }
        let path = self.dir.join(sub).join(rel);
        if let Some(data) = self.files.get(&path) {
            return Ok(data.clone());
        }
        match std::fs::metadata(&path) {
            Ok(meta) if !meta.is_file() => {
                return Err(problem!("{} is not a regular file", path.display()))
            }
            _ => {}
        }
        let data: Arc<[u8]> = std::fs::read(&path).file_op("read", &path)?.into();
        self.files.insert(path, data.clone());
        Ok(data)
    }
}

/// Rejects keys of an inline table other than `allowed`.
fn check_keys(t: &Table, allowed: &[&str]) -> Result<(), Problem> {
    match t.keys().find(|k| !allowed.contains(&k.as_str())) {
        Some(k) => Err(problem!(
            "unknown key `{k}` (expected one of: {})",
            allowed.join(", ")
        )),
        None => Ok(()),
    }
}

/// An optional string key.
fn opt_str<'a>(t: &'a Table, key: &str) -> Result<Option<&'a str>, Problem> {
    match t.get(key) {
        None => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(problem!("`{key}` must be a string")),
    }
}

/// An optional boolean key (false when absent).
fn opt_bool(t: &Table, key: &str) -> Result<bool, Problem> {
    match t.get(key) {
        None => Ok(false),
        Some(Value::Boolean(b)) => Ok(*b),
        Some(_) => Err(problem!("`{key}` must be true or false")),
    }
}

/// An optional non-negative integer key.
fn opt_usize(t: &Table, key: &str) -> Result<Option<usize>, Problem> {
    match t.get(key) {
        None => Ok(None),
        Some(Value::Integer(n)) => usize::try_from(*n)
            .map(Some)
            .map_err(|_| problem!("`{key}` must not be negative")),
        Some(_) => Err(problem!("`{key}` must be a number")),
    }
}

/// A string or a list of strings.
fn string_list(v: &Value) -> Result<Vec<String>, Problem> {
    match v {
        Value::String(s) => Ok(vec![s.clone()]),
        Value::Array(items) => items
            .iter()
            .map(|i| {
                i.as_str()
                    .map(str::to_string)
                    .ok_or_else(|| Problem::new("every pattern must be a string"))
            })
            .collect(),
        _ => Err(Problem::new("expected a string or an array of strings")),
    }
}

/// Resolves `regex = ...` into the list of patterns sent to the runner.
pub fn patterns(cache: &mut Cache, v: &Value) -> Result<Vec<String>, Problem> {
    let t = match v {
        Value::Table(t) => t,
        other => return string_list(other),
    };
    check_keys(
        t,
        &[
            "patterns", "path", "literal", "per-line", "prepend", "append",
        ],
    )?;
    let literal = opt_bool(t, "literal")?;
    let prepend = opt_str(t, "prepend")?.unwrap_or("");
    let append = opt_str(t, "append")?.unwrap_or("");
    let transform = |pats: Vec<String>| -> Vec<String> {
        pats.into_iter()
            .map(|p| {
                let p = if literal { regex::escape(&p) } else { p };
                format!("{prepend}{p}{append}")
            })
            .collect()
    };
    match (t.get("patterns"), opt_str(t, "path")?) {
        (Some(_), Some(_)) => Err(Problem::new("give either `patterns` or `path`, not both")),
        (None, None) => Err(Problem::new("a regex table needs `patterns` or `path`")),
        (Some(p), None) => {
            if t.contains_key("per-line") {
                return Err(Problem::new("`per-line` only applies with `path`"));
            }
            Ok(transform(string_list(p)?))
        }
        (None, Some(path)) => {
            let raw = cache.read("regexes", path)?;
            let raw = std::str::from_utf8(&raw)
                .map_err(|_| problem!("regexes/{path} is not valid UTF-8"))?;
            let lines = || raw.lines().map(str::to_string).collect::<Vec<_>>();
            match opt_str(t, "per-line")? {
                None => Ok(transform(vec![raw.trim().to_string()])),
                Some("pattern") => Ok(transform(lines())),
                Some("alternate") => {
                    let alts: Vec<String> = transform(lines())
                        .into_iter()
                        .map(|p| format!("(?:{p})"))
                        .collect();
                    Ok(vec![alts.join("|")])
                }
                Some(other) => Err(problem!(
                    "`per-line` must be \"alternate\" or \"pattern\", got {other:?}"
                )),
            }
        }
    }
}

/// Trims leading and trailing whitespace (Unicode whitespace when the bytes are UTF-8, else
/// ASCII).
fn trim(raw: &[u8]) -> Vec<u8> {
    match std::str::from_utf8(raw) {
        Ok(s) => s.trim().as_bytes().to_vec(),
        Err(_) => raw.trim_ascii().to_vec(),
    }
}

/// Resolves `haystack = ...` into the bytes sent to the runner. Order (rebar's): read,
/// `utf8-lossy`, `trim`, `line-start`/`line-end`, `repeat`, `prepend`, `append`.
pub fn haystack(cache: &mut Cache, v: &Value) -> Result<Arc<[u8]>, Problem> {
    let t = match v {
        Value::String(s) => return Ok(Arc::from(s.as_bytes())),
        Value::Table(t) => t,
        _ => {
            return Err(Problem::new(
                "expected a string or a table with `contents` or `path`",
            ))
        }
    };
    check_keys(
        t,
        &[
            "contents",
            "path",
            "utf8-lossy",
            "trim",
            "line-start",
            "line-end",
            "repeat",
            "prepend",
            "append",
        ],
    )?;
    let mut raw: Vec<u8> = match (opt_str(t, "contents")?, opt_str(t, "path")?) {
        (Some(_), Some(_)) => {
            return Err(Problem::new("give either `contents` or `path`, not both"))
        }
        (None, None) => return Err(Problem::new("a haystack table needs `contents` or `path`")),
        (Some(c), None) => c.as_bytes().to_vec(),
        (None, Some(p)) => cache.read("haystacks", p)?.to_vec(),
    };
    if opt_bool(t, "utf8-lossy")? {
        raw = String::from_utf8_lossy(&raw).into_owned().into_bytes();
    }
    if opt_bool(t, "trim")? {
        raw = trim(&raw);
    }
    let (start, end) = (opt_usize(t, "line-start")?, opt_usize(t, "line-end")?);
    if start.is_some() || end.is_some() {
        let lines = raw.split_inclusive(|&b| b == b'\n');
        raw = lines
            .take(end.unwrap_or(usize::MAX))
            .skip(start.unwrap_or(0))
            .flatten()
            .copied()
            .collect();
    }
    if let Some(n) = opt_usize(t, "repeat")? {
        let len = raw.len().checked_mul(n).filter(|&len| len <= MAX_HAYSTACK);
        if len.is_none() {
            return Err(problem!(
                "`repeat = {n}` makes a haystack of more than {} bytes",
                MAX_HAYSTACK
            ));
        }
        raw = raw.repeat(n);
    }
    if let Some(p) = opt_str(t, "prepend")? {
        raw.splice(0..0, p.bytes());
    }
    if let Some(a) = opt_str(t, "append")? {
        raw.extend_from_slice(a.as_bytes());
    }
    Ok(raw.into())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn val(s: &str) -> Value {
        let t: Table = toml::from_str(&format!("v = {s}")).unwrap();
        t["v"].clone()
    }

    #[test]
    fn regex_forms() {
        let mut c = Cache::new(std::path::Path::new("/nonexistent"));
        let table = [
            (r#""a+""#, vec!["a+"]),
            (r#"["a", "b"]"#, vec!["a", "b"]),
            (r#"[]"#, vec![]),
            (r#"{ patterns = "f*oo", literal = true }"#, vec![r"f\*oo"]),
            (
                r#"{ patterns = ["x"], prepend = "(?m)^", append = "$" }"#,
                vec!["(?m)^x$"],
            ),
        ];
        for (input, want) in table {
            assert_eq!(patterns(&mut c, &val(input)).unwrap(), want, "{input}");
        }
        assert!(patterns(&mut c, &val(r#"{ patterns = "a", path = "b" }"#)).is_err());
        assert!(patterns(&mut c, &val(r#"{ pattern = "a" }"#))
            .unwrap_err()
            .contains("unknown key `pattern`"));
        assert!(patterns(&mut c, &val("{ path = \"missing\" }"))
            .unwrap_err()
            .contains("cannot read"));
    }

    #[test]
    fn haystack_transforms() {
        let mut c = Cache::new(std::path::Path::new("/nonexistent"));
        let table = [
            (r#""foobar""#, "foobar"),
            (r#"{ contents = "foobar" }"#, "foobar"),
            (
                r#"{ contents = "  ab \n", trim = true, append = "Z", prepend = "A" }"#,
                "AabZ",
            ),
            (r#"{ contents = "ab", repeat = 3 }"#, "ababab"),
            (
                r#"{ contents = "0\n1\n2\n3\n", line-start = 1, line-end = 3 }"#,
                "1\n2\n",
            ),
            (r#"{ contents = "0\n1\n2", line-start = 2 }"#, "2"),
            (
                r#"{ contents = "0\n1\n2", line-end = 1, repeat = 2 }"#,
                "0\n0\n",
            ),
        ];
        for (input, want) in table {
            assert_eq!(
                &*haystack(&mut c, &val(input)).unwrap(),
                want.as_bytes(),
                "{input}"
            );
        }
        assert!(haystack(&mut c, &val("3")).is_err());
        assert!(haystack(&mut c, &val(r#"{ contents = "a", trim = "yes" }"#)).is_err());
    }

    // A hostile suite: a haystack that cannot fit in memory, a file outside the suite or one
    // that never ends must be an error, not an abort or a hang.
    #[test]
    fn haystacks_stay_bounded_and_inside_the_suite() {
        let mut c = Cache::new(std::path::Path::new("/"));
        let huge = r#"{ contents = "ab", repeat = 9223372036854775807 }"#;
        let e = haystack(&mut c, &val(huge)).unwrap_err();
        assert!(e.contains("more than 1073741824 bytes"), "{e}");
        for path in ["/dev/zero", "../dev/zero", "a/../../etc/passwd", ""] {
            let e = haystack(&mut c, &val(&format!("{{ path = {path:?} }}"))).unwrap_err();
            assert!(e.contains("must be relative to haystacks/"), "{path}: {e}");
        }
        let mut dev = Cache::new(std::path::Path::new("/dev"));
        let e = dev.read(".", "zero").unwrap_err();
        assert!(e.contains("not a regular file"), "{e}");
    }
}
