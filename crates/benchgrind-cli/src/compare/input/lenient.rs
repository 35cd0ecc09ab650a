//! Reading JSON that holds the bare `NaN`, `Infinity` and `-Infinity` tokens Google Benchmark
//! writes for such counter values, which strict JSON (and so `serde_json`) rejects.
//!
//! The tokens are rewritten, outside strings only, into strings carrying a NUL marker that no
//! real JSON string from these tools contains; [`number`] turns them back into floats. Lines are
//! kept, so `serde_json`'s error positions still point at the right line of the file. Also
//! [`describe`]: a document's top level in a few words, for the errors of every reader.

use serde_json::Value;

/// What marks a rewritten non-finite number inside a JSON string (an escaped NUL).
const MARK: &str = "\\u0000";

/// Rewrites the non-finite number tokens of `text` into marked strings.
pub fn rewrite_non_finite(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut in_string = false;
    let mut escaped = false;
    let mut copied = 0;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if in_string {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            i += 1;
            continue;
        }
        if b == b'"' {
            in_string = true;
            i += 1;
            continue;
        }
        let token = ["-Infinity", "Infinity", "NaN"]
            .into_iter()
            .find(|t| bytes[i..].starts_with(t.as_bytes()));
        match token {
            Some(token) => {
                out.push_str(&text[copied..i]);
                out.push('"');
                out.push_str(MARK);
                out.push_str(token);
                out.push('"');
                i += token.len();
                copied = i;
            }
            None => i += 1,
        }
    }
    out.push_str(&text[copied..]);
    out
}

/// The number in `value`: a JSON number, or a non-finite token rewritten by
/// [`rewrite_non_finite`]; `None` for anything else.
pub fn number(value: &Value) -> Option<f64> {
    match value {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => match s.strip_prefix('\0')? {
            "NaN" => Some(f64::NAN),
            "Infinity" => Some(f64::INFINITY),
            "-Infinity" => Some(f64::NEG_INFINITY),
            _ => None,
        },
        _ => None,
    }
}

/// A short description of a JSON document's top level, for errors.
pub fn describe(doc: &Value) -> String {
    match doc {
        Value::Object(map) if map.is_empty() => "found an empty object".into(),
        Value::Object(map) => {
            let keys: Vec<_> = map.keys().take(6).map(|k| format!("`{k}`")).collect();
            let more = if map.len() > 6 { ", ..." } else { "" };
            format!("found keys {}{more}", keys.join(", "))
        }
        Value::Array(_) => "found an array".into(),
        Value::String(_) => "found a string".into(),
        Value::Number(_) => "found a number".into(),
        Value::Bool(_) => "found a boolean".into(),
        Value::Null => "found null".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rewrites_tokens_outside_strings_only() {
        let text =
            "{\"a\": NaN, \"b\": [Infinity, -Infinity],\n \"NaN\": \"x \\\" NaN\", \"c\": 1.5}";
        let value: Value = serde_json::from_str(&rewrite_non_finite(text)).unwrap();
        assert!(number(&value["a"]).unwrap().is_nan());
        assert_eq!(number(&value["b"][0]), Some(f64::INFINITY));
        assert_eq!(number(&value["b"][1]), Some(f64::NEG_INFINITY));
        assert_eq!(value["NaN"], Value::String("x \" NaN".into()));
        assert_eq!(number(&value["NaN"]), None);
        assert_eq!(number(&value["c"]), Some(1.5));
    }

    #[test]
    fn keeps_lines_for_error_positions() {
        let text = "{\"a\": NaN,\n\"b\": }";
        let err = serde_json::from_str::<Value>(&rewrite_non_finite(text)).unwrap_err();
        assert_eq!(err.line(), 2);
    }
}
