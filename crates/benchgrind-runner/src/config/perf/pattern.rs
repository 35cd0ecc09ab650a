//! Patterns over perf's metric names, as limits and `non_zero_metrics` give them: `*` any run of
//! characters, `?` one, `[abc]`, `[a-z]`, `[!...]` a class, `\` escapes the next character. `:`
//! and `/` are the same (`task-clock:u` and `task-clock/u`), and case does not matter.

/// Whether `name` matches `pattern`, whole.
pub fn matches(pattern: &str, name: &str) -> bool {
    let norm = |s: &str| -> Vec<char> {
        s.chars()
            .map(|c| {
                if c == '/' {
                    ':'
                } else {
                    c.to_ascii_lowercase()
                }
            })
            .collect()
    };
    let name = norm(name);
    let pattern: Vec<char> = norm(pattern.trim());
    // A trailing `:` of `task-clock/u/` is perf's closing slash.
    let name: Vec<char> = match name.last() {
        Some(':') => name[..name.len() - 1].to_vec(),
        _ => name,
    };
    let pattern: Vec<char> = match (pattern.last(), pattern.len()) {
        (Some(':'), n) if n > 1 && pattern[n - 2] != '\\' => pattern[..n - 1].to_vec(),
        _ => pattern,
    };
    glob(&pattern, &name)
}

fn glob(p: &[char], s: &[char]) -> bool {
    match p.first() {
        None => s.is_empty(),
        Some('*') => (0..=s.len()).any(|i| glob(&p[1..], &s[i..])),
        Some('?') => !s.is_empty() && glob(&p[1..], &s[1..]),
        Some('\\') if p.len() > 1 => s.first() == Some(&p[1]) && glob(&p[2..], &s[1..]),
        Some('[') => match class(&p[1..]) {
            Some((set, negated, rest)) => match s.first() {
                Some(c) => {
                    let hit = set.iter().any(|&(lo, hi)| lo <= *c && *c <= hi);
                    hit != negated && glob(&p[1 + rest..], &s[1..])
                }
                None => false,
            },
            None => s.first() == Some(&'[') && glob(&p[1..], &s[1..]),
        },
        Some(c) => s.first() == Some(c) && glob(&p[1..], &s[1..]),
    }
}

/// A character class: its ranges, whether negated, and how many characters it took.
type Class = (Vec<(char, char)>, bool, usize);

/// The class after `[` (the `]` counted in its length); `None` when it is not closed.
fn class(p: &[char]) -> Option<Class> {
    let negated = p.first() == Some(&'!');
    let mut i = usize::from(negated);
    let mut set = Vec::new();
    let mut first = true;
    while i < p.len() {
        if p[i] == ']' && !first {
            return Some((set, negated, i + 1));
        }
        first = false;
        let c = p[i];
        if i + 2 < p.len() && p[i + 1] == '-' && p[i + 2] != ']' {
            set.push((c, p[i + 2]));
            i += 3;
        } else {
            set.push((c, c));
            i += 1;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::matches;

    #[test]
    fn wildcards_classes_and_escapes() {
        assert!(matches("task-clock*", "task-clock"));
        assert!(matches("task-clock*", "task-clock:u"));
        assert!(matches("*instructions*", "instructions:u"));
        assert!(!matches("cycles", "ref-cycles"));
        assert!(matches("?ycles", "cycles"));
        assert!(matches("[a-c]ycles", "cycles"));
        assert!(!matches("[!c]ycles", "cycles"));
        assert!(matches("task-clock/u", "task-clock:u"));
        assert!(matches("Task-Clock:U", "task-clock:u"));
        assert!(matches("a\\*", "a*"));
        assert!(!matches("a\\*", "ab"));
    }
}
