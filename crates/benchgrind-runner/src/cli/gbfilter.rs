//! `--benchmark_filter=REGEX`, Google Benchmark's filter, over benchgrind ids
//! (`file::group::function::id`): a benchmark runs when the regular expression matches a part
//! of its id (a search, as Google Benchmark does it; `^` and `$` anchor it); `all` or nothing
//! selects every benchmark, a leading `-` keeps those that do not match.
//!
//! The expressions are a subset of the regular expressions Google Benchmark takes: one
//! character (`a`, `.`, `[a-z_]`, `[^:]`, `[[:digit:]]`, `\d`, `\w`, `\s` and their negations,
//! `\.` and every other escaped punctuation), groups `(...)` and `(?:...)`, alternatives `|`,
//! repetition `*`, `+`, `?`, `{m}`, `{m,}`, `{m,n}` (lazy forms alike), anchors `^` and `$`.
//! They are matched by `regex-lite` (small and dependency-free: every user's bench binary builds
//! it; its matching takes time linear in the id, whatever the expression). What is written here
//! is the translation into its syntax, which takes more than the subset: what the subset does not
//! have (back references, look-around, word boundaries, flags, Unicode classes) is a usage error
//! naming it and where it stands, and what only the subset reads literally (`{` without a count,
//! `[` inside `[...]`) is escaped. Part of the cli stage: the filter is checked with the other
//! flags, before anything runs.
use crate::error::Problem;
use crate::problem;

/// A compiled `--benchmark_filter`.
#[derive(Debug, Clone)]
pub struct GbFilter {
    /// The filter as given.
    pub source: String,
    /// A leading `-`: select what does not match.
    negative: bool,
    /// The expression, compiled.
    regex: regex_lite::Regex,
}

/// Two filters are the same when they were given the same.
impl PartialEq for GbFilter {
    fn eq(&self, other: &GbFilter) -> bool {
        self.source == other.source
    }
}

impl Eq for GbFilter {}

/// Repetition counts above this are refused.
const MAX_REPEAT: u32 = 1000;

/// The POSIX classes of `[[:name:]]` that Google Benchmark's users write.
const POSIX: [&str; 7] = [
    "digit", "alpha", "alnum", "upper", "lower", "space", "xdigit",
];

impl GbFilter {
    /// Compiles a filter; the error says what is not supported or malformed, and where.
    pub fn parse(spec: &str) -> Result<GbFilter, Problem> {
        let (negative, pattern) = match spec.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, spec),
        };
        let pattern = if pattern.is_empty() || pattern == "all" {
            "."
        } else {
            pattern
        };
        let fail = |what: &str| {
            problem!(
                "`{pattern}` has {what}; --benchmark_filter takes literal text, `.`, `[...]`, \
                 `\\d`, `\\w`, `\\s`, `(...)`, `|`, `*`, `+`, `?`, `{{m,n}}`, `^` and `$`"
            )
        };
        let regex = translate(pattern)
            .map_err(|(what, at)| fail(&format!("{what} at character {}", at + 1)))?;
        let regex = regex_lite::Regex::new(&regex).map_err(|e| fail(&e.to_string()))?;
        Ok(GbFilter {
            source: spec.to_owned(),
            negative,
            regex,
        })
    }

    /// Whether the benchmark with this id runs.
    pub fn selects(&self, id: &str) -> bool {
        self.regex.is_match(id) != self.negative
    }
}

/// The pattern in `regex-lite`'s syntax, or what is wrong and at which character (from 0).
fn translate(pattern: &str) -> Result<String, (String, usize)> {
    let chars: Vec<char> = pattern.chars().collect();
    let literal = |c: char| regex_lite::escape(c.encode_utf8(&mut [0; 4]));
    let mut out = String::new();
    let (mut i, mut depth, mut repeatable) = (0, 0usize, false);
    // Inside `[...]`: where its items start (a `]` there is one) and the last literal.
    let mut class: Option<(usize, Option<char>)> = None;
    while let Some(&c) = chars.get(i) {
        let at = i;
        i += 1;
        if c == '\\' {
            let Some(&e) = chars.get(i) else {
                return Err(("a `\\` at the end".into(), at));
            };
            i += 1;
            match e {
                'd' | 'D' | 'w' | 'W' | 's' | 'S' | 'n' | 't' => out.extend(['\\', e]),
                e if e.is_ascii_alphanumeric() => {
                    return Err((format!("`\\{e}`, which is not supported"), at))
                }
                e => out.push_str(&literal(e)),
            }
            repeatable = true;
            continue;
        }
        if let Some((start, last)) = &mut class {
            match c {
                ']' if at > *start => {
                    out.push(']');
                    (class, repeatable) = (None, true);
                }
                '[' if chars.get(i) == Some(&':') => {
                    let rest: String = chars[i + 1..].iter().collect();
                    let Some(end) = rest.find(":]") else {
                        return Err(("an unclosed `[:`".into(), at));
                    };
                    let name = &rest[..end];
                    if !POSIX.contains(&name) {
                        let what = format!("the class `[:{name}:]`, which is not supported");
                        return Err((what, at));
                    }
                    out.push_str(&format!("[:{name}:]"));
                    i += name.chars().count() + 3;
                }
                '-' if last.is_some() && !matches!(chars.get(i), None | Some(']' | '\\')) => {
                    let (lo, hi) = (last.take().expect("checked"), chars[i]);
                    if hi < lo {
                        return Err((format!("the range `{lo}-{hi}` backwards"), at));
                    }
                    out.push_str(&format!("-{}", literal(hi)));
                    i += 1;
                }
                c => {
                    out.push_str(&literal(c));
                    *last = Some(c);
                }
            }
            continue;
        }
        let nothing = |what: String| Err((format!("{what} with nothing to repeat"), at));
        match c {
            '[' => {
                out.push('[');
                if chars.get(i) == Some(&'^') {
                    out.push('^');
                    i += 1;
                }
                class = Some((i, None));
            }
            '(' if chars.get(i) == Some(&'?') => {
                if chars.get(i + 1) != Some(&':') {
                    return Err(("a `(?` group other than `(?:`".into(), i));
                }
                out.push_str("(?:");
                (i, depth, repeatable) = (i + 2, depth + 1, false);
                continue;
            }
            '(' => {
                depth += 1;
                out.push('(');
            }
            ')' if depth == 0 => return Err(("an unmatched `)`".into(), at)),
            ')' => {
                depth -= 1;
                out.push(')');
            }
            '*' | '+' | '?' if !repeatable => return nothing(format!("`{c}`")),
            '*' | '+' | '?' => out.push(c),
            '{' => match counted(&chars[i..]) {
                Some(_) if !repeatable => return nothing("a count".into()),
                Some((min, max, _))
                    if max.is_some_and(|max| max < min)
                        || min.max(max.unwrap_or(0)) > MAX_REPEAT =>
                {
                    return Err((
                        format!("a count that is backwards or above {MAX_REPEAT}"),
                        at,
                    ));
                }
                Some((_, _, len)) => {
                    out.extend(&chars[at..i + len]);
                    i += len;
                }
                None => out.push_str("\\{"),
            },
            '^' | '$' | '.' | '|' => out.push(c),
            c => out.push_str(&literal(c)),
        }
        // A lazy repetition selects the same ids as a greedy one.
        if matches!(c, '*' | '+' | '?' | '{') && chars.get(i) == Some(&'?') {
            i += 1;
        }
        repeatable = !matches!(c, '(' | '|' | '[');
    }
    match (class, depth) {
        (Some(_), _) => Err(("an unclosed `[`".into(), chars.len())),
        (_, 1..) => Err(("an unclosed `(`".into(), chars.len())),
        _ => Ok(out),
    }
}

/// `m}`, `m,}` or `m,n}` after a `{`: (min, max, length).
fn counted(chars: &[char]) -> Option<(u32, Option<u32>, usize)> {
    let end = chars.iter().position(|&c| c == '}')?;
    let body: String = chars[..end].iter().collect();
    let (min, max) = match body.split_once(',') {
        None => (body.parse().ok()?, body.parse().ok()),
        Some((m, "")) => (m.parse().ok()?, None),
        Some((m, n)) => (m.parse().ok()?, Some(n.parse().ok()?)),
    };
    Some((min, max, end + 1))
}

#[cfg(test)]
mod tests {
    use super::GbFilter;

    const ID: &str = "e2e_regress::limit_5::strict::loop_work";

    #[test]
    fn selects_like_google_benchmark() {
        let cases: &[(&str, &str, bool)] = &[
            ("", ID, true),
            ("all", ID, true),
            (".", ID, true),
            ("strict", ID, true),
            ("lenient", ID, false),
            ("-strict", ID, false),
            ("-lenient", ID, true),
            ("^e2e_regress::", ID, true),
            ("^limit_5", ID, false),
            ("loop_work$", ID, true),
            ("loop$", ID, false),
            ("^e2e_regress::limit_5::strict::loop_work$", ID, true),
            ("limit_(5|20)::", ID, true),
            ("limit_(20|50)::", ID, false),
            ("strict|lenient", ID, true),
            ("limit_\\d+::s", ID, true),
            ("limit_\\d{2}", ID, false),
            ("limit_\\d{1,2}::", ID, true),
            ("limit_[0-9]::[a-t]+::", ID, true),
            ("limit_[0-9]::[a-s]+::", ID, false),
            ("limit_[\\d_]+::", ID, true),
            ("limit_[^5]", ID, false),
            ("limit_[[:digit:]]", ID, true),
            ("::(?:strict|lenient)::", ID, true),
            ("s.*t.*k", ID, true),
            ("^e.*?_work$", ID, true),
            ("x?y*loop_wor.$", ID, true),
            ("\\w+::\\w+::\\w+::\\w+", ID, true),
            ("\\s", ID, false),
            ("a.b\\.c", "a.b.c", true),
            ("a.b\\.c", "a.bxc", false),
            (
                "(a*)*b",
                "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaac",
                false,
            ),
            ("[]x]", "]", true),
            ("[a-]", "-", true),
            ("()", "anything", true),
            ("a|", "b", true),
            ("B", "b", false),
        ];
        for (spec, id, expected) in cases {
            let filter = GbFilter::parse(spec).unwrap_or_else(|e| panic!("{spec}: {e}"));
            assert_eq!(filter.selects(id), *expected, "`{spec}` on `{id}`");
        }
    }

    #[test]
    fn what_the_subset_reads_literally_stays_literal() {
        let cases = [
            ("a{b", "a{b"),
            ("a{,2}", "a{,2}"),
            ("[[x]", "["),
            ("[a&&b]", "&"),
            ("[~-~]", "~"),
            ("a\\<b\\>", "a<b>"),
            ("x{2}?y", "xxy"),
            ("1\\+1", "1+1"),
        ];
        for (spec, id) in cases {
            let filter = GbFilter::parse(spec).unwrap_or_else(|e| panic!("{spec}: {e}"));
            assert!(filter.selects(id), "`{spec}` on `{id}`");
        }
    }

    #[test]
    fn unsupported_or_broken_expressions_are_named() {
        let cases = [
            ("a\\bc", "`\\b`, which is not supported at character 2"),
            ("(a", "an unclosed `(`"),
            ("a)", "an unmatched `)`"),
            ("[ab", "an unclosed `[`"),
            ("*a", "`*` with nothing to repeat at character 1"),
            ("(?=a)", "a `(?` group other than `(?:`"),
            ("a{3,1}", "a count that is backwards"),
            ("[z-a]", "the range `z-a` backwards"),
            ("[[:word:]]", "the class `[:word:]`, which is not supported"),
            ("\\1", "`\\1`, which is not supported"),
        ];
        for (spec, message) in cases {
            let e = GbFilter::parse(spec).expect_err(spec);
            assert!(e.contains(message), "{spec}: {e}");
            assert!(e.starts_with(&format!("`{spec}` has")), "{e}");
        }
    }
}
