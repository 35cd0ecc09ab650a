//! The subset of GitHub's expressions (`${{ }}`, `if:`) that the workflow template uses, for
//! `workflow.rs`.

use std::collections::BTreeMap;

/// A value of an expression: null or a string (numbers and booleans as their text).
type Value = Option<String>;

pub fn truthy(v: &Value) -> bool {
    v.as_deref().is_some_and(|s| !s.is_empty() && s != "false")
}

pub struct Expr<'a> {
    tokens: Vec<String>,
    at: usize,
    context: &'a BTreeMap<String, String>,
}

impl Expr<'_> {
    pub fn eval(text: &str, context: &BTreeMap<String, String>) -> Value {
        let mut tokens = Vec::new();
        let chars: Vec<char> = text.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            if c.is_whitespace() {
                i += 1;
            } else if c == '\'' {
                let end = (i + 1..chars.len()).find(|&j| chars[j] == '\'').unwrap();
                tokens.push(chars[i..=end].iter().collect());
                i = end + 1;
            } else if "&|=!".contains(c) {
                tokens.push(chars[i..i + 2].iter().collect());
                i += 2;
            } else if "(),".contains(c) {
                tokens.push(c.to_string());
                i += 1;
            } else {
                let end = (i..chars.len())
                    .find(|&j| !(chars[j].is_alphanumeric() || "._-".contains(chars[j])))
                    .unwrap_or(chars.len());
                tokens.push(chars[i..end].iter().collect());
                i = end;
            }
        }
        let mut e = Expr {
            tokens,
            at: 0,
            context,
        };
        let v = e.or();
        assert_eq!(e.at, e.tokens.len(), "unparsed expression `{text}`");
        v
    }

    fn peek(&self) -> Option<&str> {
        self.tokens.get(self.at).map(String::as_str)
    }

    fn next(&mut self) -> String {
        self.at += 1;
        self.tokens[self.at - 1].clone()
    }

    fn or(&mut self) -> Value {
        let mut v = self.and();
        while self.peek() == Some("||") {
            self.next();
            let r = self.and();
            v = if truthy(&v) { v } else { r };
        }
        v
    }

    fn and(&mut self) -> Value {
        let mut v = self.cmp();
        while self.peek() == Some("&&") {
            self.next();
            let r = self.cmp();
            v = if truthy(&v) { r } else { v };
        }
        v
    }

    fn cmp(&mut self) -> Value {
        let v = self.primary();
        match self.peek() {
            Some(op @ ("==" | "!=")) => {
                let eq = op == "==";
                self.next();
                let r = self.primary();
                let same = v.unwrap_or_default() == r.unwrap_or_default();
                Some((same == eq).to_string())
            }
            _ => v,
        }
    }

    fn primary(&mut self) -> Value {
        let token = self.next();
        if let Some(text) = token.strip_prefix('\'') {
            return Some(text.trim_end_matches('\'').to_owned());
        }
        if token == "format" {
            assert_eq!(self.next(), "(");
            let mut args = vec![self.or()];
            while self.next() == "," {
                args.push(self.or());
            }
            let mut text = args[0].clone().unwrap();
            for (n, arg) in args[1..].iter().enumerate() {
                text = text.replace(&format!("{{{n}}}"), arg.as_deref().unwrap_or(""));
            }
            return Some(text);
        }
        if token.chars().all(|c| c.is_ascii_digit()) {
            return Some(token);
        }
        assert!(
            token.contains('.'),
            "an expression names a context the test does not know: `{token}`"
        );
        self.context.get(&token).cloned()
    }
}

/// `text` with every `${{ ... }}` replaced by its value.
pub fn substitute(text: &str, context: &BTreeMap<String, String>) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find("${{") {
        out.push_str(&rest[..start]);
        let end = rest[start..].find("}}").unwrap() + start;
        let value = Expr::eval(&rest[start + 3..end], context);
        out.push_str(value.as_deref().unwrap_or(""));
        rest = &rest[end + 2..];
    }
    out + rest
}
