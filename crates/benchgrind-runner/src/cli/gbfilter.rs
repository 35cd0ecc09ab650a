//! `--benchmark_filter=REGEX`, Google Benchmark's filter, over benchgrind ids
//! (`file::group::function::id`): a benchmark runs when the regular expression matches a part
//! of its id (a search, as Google Benchmark does it; `^` and `$` anchor it); `all` or nothing
//! selects every benchmark, a leading `-` keeps those that do not match.
//!
//! The expressions are a subset of the regular expressions Google Benchmark takes, matched here
//! instead of with the `regex` crate, which every user's bench binary would have to build: one
//! character (`a`, `.`, `[a-z_]`, `[^:]`, `[[:digit:]]`, `\d`, `\w`, `\s` and their negations,
//! `\.` and every other escaped punctuation), groups `(...)` and `(?:...)`, alternatives `|`,
//! repetition `*`, `+`, `?`, `{m}`, `{m,}`, `{m,n}` (lazy forms alike), anchors `^` and `$`.
//! Anything else (back references, look-around, word boundaries) is a usage error naming it.
//! Matching runs the expression's automaton over the id once (a Pike VM), so no expression can
//! take exponential time. Part of the cli stage: the filter is checked with the other flags,
//! before anything runs.
use crate::error::Problem;
use crate::problem;

/// A compiled `--benchmark_filter`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GbFilter {
    /// The filter as given.
    pub source: String,
    /// A leading `-`: select what does not match.
    negative: bool,
    /// The expression's automaton.
    program: Vec<Inst>,
}

/// Repetition counts above this are refused: each copy is compiled out.
const MAX_REPEAT: u32 = 1000;

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
        let mut parser = Parser {
            chars: pattern.chars().collect(),
            pos: 0,
        };
        let node = parser.alternation()?;
        if parser.pos < parser.chars.len() {
            return Err(parser.error("an unmatched `)`"));
        }
        let mut program = Vec::new();
        compile(&node, &mut program);
        program.push(Inst::Match);
        Ok(GbFilter {
            source: spec.to_owned(),
            negative,
            program,
        })
    }

    /// Whether the benchmark with this id runs.
    pub fn selects(&self, id: &str) -> bool {
        search(&self.program, id) != self.negative
    }
}

/// A set of characters.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Class {
    /// Any character but a newline.
    Any,
    /// Characters in (or, negated, outside) these inclusive ranges.
    Ranges {
        negated: bool,
        ranges: Vec<(char, char)>,
    },
}

impl Class {
    fn one(c: char) -> Class {
        Class::Ranges {
            negated: false,
            ranges: vec![(c, c)],
        }
    }

    fn matches(&self, c: char) -> bool {
        match self {
            Class::Any => c != '\n',
            Class::Ranges { negated, ranges } => {
                ranges.iter().any(|&(lo, hi)| lo <= c && c <= hi) != *negated
            }
        }
    }
}

/// The parsed expression.
#[derive(Debug)]
enum Node {
    Class(Class),
    Start,
    End,
    Concat(Vec<Node>),
    Alternation(Vec<Node>),
    Repeat {
        node: Box<Node>,
        min: u32,
        max: Option<u32>,
    },
}

/// An instruction of the automaton.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Inst {
    /// Consume one character of the class.
    Class(Class),
    /// Go on at both.
    Split(usize, usize),
    Jump(usize),
    /// Only at the start, or the end, of the id.
    Start,
    End,
    Match,
}

/// Recursive descent over the pattern's characters.
struct Parser {
    chars: Vec<char>,
    pos: usize,
}

impl Parser {
    fn error(&self, what: &str) -> Problem {
        let pattern: String = self.chars.iter().collect();
        problem!(
            "`{pattern}` has {what} at character {}; --benchmark_filter takes literal text, `.`, \
             `[...]`, `\\d`, `\\w`, `\\s`, `(...)`, `|`, `*`, `+`, `?`, `{{m,n}}`, `^` and `$`",
            self.pos + 1
        )
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn eat(&mut self, c: char) -> bool {
        let hit = self.peek() == Some(c);
        self.pos += usize::from(hit);
        hit
    }

    fn alternation(&mut self) -> Result<Node, Problem> {
        let mut branches = vec![self.concat()?];
        while self.eat('|') {
            branches.push(self.concat()?);
        }
        Ok(if branches.len() == 1 {
            branches.pop().expect("one branch")
        } else {
            Node::Alternation(branches)
        })
    }

    fn concat(&mut self) -> Result<Node, Problem> {
        let mut items = Vec::new();
        while let Some(c) = self.peek() {
            if c == '|' || c == ')' {
                break;
            }
            let atom = self.atom()?;
            items.push(self.repeats(atom)?);
        }
        Ok(Node::Concat(items))
    }

    fn atom(&mut self) -> Result<Node, Problem> {
        let c = self.peek().expect("concat checked");
        if c == '{' && self.counted().is_some() {
            return Err(self.error("a count with nothing to repeat"));
        }
        self.pos += 1;
        Ok(match c {
            '(' => {
                if self.eat('?') && !self.eat(':') {
                    self.pos -= 1;
                    return Err(self.error("a `(?` group other than `(?:`"));
                }
                let inner = self.alternation()?;
                if !self.eat(')') {
                    return Err(self.error("an unclosed `(`"));
                }
                inner
            }
            '[' => Node::Class(self.bracket()?),
            '.' => Node::Class(Class::Any),
            '^' => Node::Start,
            '$' => Node::End,
            '\\' => Node::Class(self.escape()?),
            '*' | '+' | '?' => {
                self.pos -= 1;
                return Err(self.error(&format!("`{c}` with nothing to repeat")));
            }
            c => Node::Class(Class::one(c)),
        })
    }

    /// The class after a backslash (which is consumed).
    fn escape(&mut self) -> Result<Class, Problem> {
        let Some(c) = self.peek() else {
            return Err(self.error("a `\\` at the end"));
        };
        self.pos += 1;
        let named = |negated, ranges: &[(char, char)]| Class::Ranges {
            negated,
            ranges: ranges.to_vec(),
        };
        Ok(match c {
            'd' | 'D' => named(c == 'D', DIGIT),
            'w' | 'W' => named(c == 'W', WORD),
            's' | 'S' => named(c == 'S', SPACE),
            'n' => Class::one('\n'),
            't' => Class::one('\t'),
            c if c.is_ascii_alphanumeric() => {
                self.pos -= 2;
                return Err(self.error(&format!("`\\{c}`, which is not supported")));
            }
            c => Class::one(c),
        })
    }

    /// `[...]` after the `[`.
    fn bracket(&mut self) -> Result<Class, Problem> {
        let negated = self.eat('^');
        let mut ranges = Vec::new();
        let mut first = true;
        loop {
            let Some(c) = self.peek() else {
                return Err(self.error("an unclosed `[`"));
            };
            self.pos += 1;
            let lo = match c {
                ']' if !first => break,
                '[' if self.peek() == Some(':') => {
                    ranges.extend_from_slice(self.posix_class()?);
                    first = false;
                    continue;
                }
                '\\' => match self.escape()? {
                    Class::Ranges {
                        negated: false,
                        ranges: r,
                    } if r == [(r[0].0, r[0].0)] => r[0].0,
                    Class::Ranges {
                        negated: false,
                        ranges: r,
                    } => {
                        ranges.extend(r);
                        first = false;
                        continue;
                    }
                    _ => return Err(self.error("a negated class inside `[...]`")),
                },
                c => c,
            };
            first = false;
            let is_range = self.peek() == Some('-') && self.chars.get(self.pos + 1) != Some(&']');
            if is_range && self.chars.get(self.pos + 1).is_some() {
                let hi = self.chars[self.pos + 1];
                self.pos += 2;
                if hi < lo {
                    return Err(self.error(&format!("the range `{lo}-{hi}` backwards")));
                }
                ranges.push((lo, hi));
            } else {
                ranges.push((lo, lo));
            }
        }
        Ok(Class::Ranges { negated, ranges })
    }

    /// `[:name:]` inside brackets, after the `[`.
    fn posix_class(&mut self) -> Result<&'static [(char, char)], Problem> {
        let rest = &self.chars[self.pos + 1..];
        let Some(end) = rest.windows(2).position(|w| w == [':', ']']) else {
            return Err(self.error("an unclosed `[:`"));
        };
        let name: String = rest[..end].iter().collect();
        let ranges: &[(char, char)] = match name.as_str() {
            "digit" => DIGIT,
            "alpha" => &[('a', 'z'), ('A', 'Z')],
            "alnum" => &[('a', 'z'), ('A', 'Z'), ('0', '9')],
            "upper" => &[('A', 'Z')],
            "lower" => &[('a', 'z')],
            "space" => SPACE,
            "xdigit" => &[('0', '9'), ('a', 'f'), ('A', 'F')],
            _ => return Err(self.error(&format!("the class `[:{name}:]`, which is not supported"))),
        };
        self.pos += end + 3;
        Ok(ranges)
    }

    /// `{m}`, `{m,}` or `{m,n}` at the position, without consuming it: (min, max, length).
    fn counted(&self) -> Option<(u32, Option<u32>, usize)> {
        let rest: String = self.chars[self.pos..].iter().collect();
        let body = rest.strip_prefix('{')?;
        let end = body.find('}')?;
        let (min, max) = match body[..end].split_once(',') {
            None => {
                let n = body[..end].parse().ok()?;
                (n, Some(n))
            }
            Some((m, "")) => (m.parse().ok()?, None),
            Some((m, n)) => (m.parse().ok()?, Some(n.parse().ok()?)),
        };
        Some((min, max, body[..end].chars().count() + 2))
    }

    /// The repetitions after an atom.
    fn repeats(&mut self, mut node: Node) -> Result<Node, Problem> {
        loop {
            let (min, max) = match self.peek() {
                Some('*') => (0, None),
                Some('+') => (1, None),
                Some('?') => (0, Some(1)),
                Some('{') => match self.counted() {
                    Some((min, max, len)) => {
                        if max.is_some_and(|max| max < min)
                            || min.max(max.unwrap_or(0)) > MAX_REPEAT
                        {
                            return Err(self.error(&format!(
                                "a count that is backwards or above {MAX_REPEAT}"
                            )));
                        }
                        self.pos += len - 1;
                        (min, max)
                    }
                    None => return Ok(node),
                },
                _ => return Ok(node),
            };
            self.pos += 1;
            // A lazy repetition selects the same ids as a greedy one.
            self.eat('?');
            node = Node::Repeat {
                node: Box::new(node),
                min,
                max,
            };
        }
    }
}

const DIGIT: &[(char, char)] = &[('0', '9')];
const WORD: &[(char, char)] = &[('a', 'z'), ('A', 'Z'), ('0', '9'), ('_', '_')];
const SPACE: &[(char, char)] = &[(' ', ' '), ('\t', '\r')];

/// Appends the instructions of `node`.
fn compile(node: &Node, program: &mut Vec<Inst>) {
    match node {
        Node::Class(class) => program.push(Inst::Class(class.clone())),
        Node::Start => program.push(Inst::Start),
        Node::End => program.push(Inst::End),
        Node::Concat(items) => items.iter().for_each(|n| compile(n, program)),
        Node::Alternation(branches) => {
            let mut jumps = Vec::new();
            for (i, branch) in branches.iter().enumerate() {
                let split = program.len();
                let last = i + 1 == branches.len();
                if !last {
                    program.push(Inst::Split(split + 1, 0));
                }
                compile(branch, program);
                if !last {
                    jumps.push(program.len());
                    program.push(Inst::Jump(0));
                    let next = program.len();
                    program[split] = Inst::Split(split + 1, next);
                }
            }
            let end = program.len();
            for j in jumps {
                program[j] = Inst::Jump(end);
            }
        }
        Node::Repeat { node, min, max } => {
            for _ in 0..*min {
                compile(node, program);
            }
            match max {
                None => {
                    // L: split(L+1, out); node; jump L; out:
                    let split = program.len();
                    program.push(Inst::Split(0, 0));
                    compile(node, program);
                    program.push(Inst::Jump(split));
                    program[split] = Inst::Split(split + 1, program.len());
                }
                Some(max) => {
                    for _ in *min..*max {
                        let split = program.len();
                        program.push(Inst::Split(0, 0));
                        compile(node, program);
                        program[split] = Inst::Split(split + 1, program.len());
                    }
                }
            }
        }
    }
}

/// Whether the program matches somewhere in `text`: every thread advanced a character at a
/// time, a new one started at each position.
fn search(program: &[Inst], text: &str) -> bool {
    let chars: Vec<char> = text.chars().collect();
    // The position at which each instruction was last added, so that none is added twice.
    let mut added = vec![usize::MAX; program.len()];
    let (mut current, mut next) = (Vec::new(), Vec::new());
    for pos in 0..=chars.len() {
        add(program, &mut current, &mut added, 0, pos, chars.len());
        if current.iter().any(|&pc| program[pc] == Inst::Match) {
            return true;
        }
        let Some(&c) = chars.get(pos) else { break };
        for &pc in &current {
            if let Inst::Class(class) = &program[pc] {
                if class.matches(c) {
                    add(program, &mut next, &mut added, pc + 1, pos + 1, chars.len());
                }
            }
        }
        std::mem::swap(&mut current, &mut next);
        next.clear();
    }
    false
}

/// Adds the instructions reachable from `pc` at `pos` without consuming a character.
fn add(
    program: &[Inst],
    list: &mut Vec<usize>,
    added: &mut [usize],
    pc: usize,
    pos: usize,
    len: usize,
) {
    let mut stack = vec![pc];
    while let Some(pc) = stack.pop() {
        if added[pc] == pos {
            continue;
        }
        added[pc] = pos;
        match &program[pc] {
            Inst::Jump(to) => stack.push(*to),
            Inst::Split(a, b) => stack.extend([*b, *a]),
            Inst::Start if pos == 0 => stack.push(pc + 1),
            Inst::End if pos == len => stack.push(pc + 1),
            Inst::Start | Inst::End => {}
            Inst::Class(_) | Inst::Match => list.push(pc),
        }
    }
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
