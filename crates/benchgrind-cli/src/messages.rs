//! What the `benchgrind` command says on stderr besides its reports and tables, in one voice, as
//! the bench binaries speak through theirs: every line starts with `benchgrind COMMAND: `
//! (`benchgrind compare: `), warnings and errors say so next (`benchgrind suite: error: `), and
//! the lines that belong to a message (a list of what failed) are indented below it. Another
//! program's output that a command passes on (a bench binary's report) is relayed as it was.
//! The command's name is set once, when the command line is read ([`set_command`]).

use std::fmt::Arguments;
use std::sync::OnceLock;

/// The command running (`compare`, `suite`, ...).
static COMMAND: OnceLock<&'static str> = OnceLock::new();

/// Names the command for the rest of the process; the first name given stays.
pub fn set_command(name: &'static str) {
    let _ = COMMAND.set(name);
}

/// The start of every line: `benchgrind compare: `, or `benchgrind: ` before a command is known.
pub fn prefix() -> String {
    match COMMAND.get() {
        Some(name) => format!("benchgrind {name}: "),
        None => "benchgrind: ".to_owned(),
    }
}

/// The kinds of message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// What the command does or found that is not wrong (a step, a file written).
    Note,
    /// Something went wrong that does not stop the command.
    Warning,
    /// What failed: the command's end, or a part of it that failed.
    Error,
    /// A line of the message before it (one item of a list), indented.
    Item,
}

/// The line a message of `kind` is written as, without its newline.
pub fn line(kind: Kind, args: Arguments) -> String {
    match kind {
        Kind::Note => format!("{}{args}", prefix()),
        Kind::Warning => format!("{}warning: {args}", prefix()),
        Kind::Error => format!("{}error: {args}", prefix()),
        Kind::Item => format!("  {args}"),
    }
}

/// Writes a message of `kind` on stderr.
pub fn say(kind: Kind, args: Arguments) {
    eprintln!("{}", line(kind, args));
}

/// Passes on another program's output as it was (a bench binary's report and messages).
pub fn relay(text: &str) {
    eprint!("{text}");
}

/// A usage mistake's text ([`crate::usage::UsageError`]), its first line in the command's
/// voice; the hint below it as it is.
pub fn usage(text: &str) {
    eprint!("{}{text}", prefix());
}

/// A [`Kind::Note`] message, with `format!` arguments.
macro_rules! note {
    ($($arg:tt)*) => {
        $crate::messages::say($crate::messages::Kind::Note, format_args!($($arg)*))
    };
}

/// A [`Kind::Warning`] message, with `format!` arguments.
macro_rules! warning {
    ($($arg:tt)*) => {
        $crate::messages::say($crate::messages::Kind::Warning, format_args!($($arg)*))
    };
}

/// A [`Kind::Error`] message, with `format!` arguments.
macro_rules! error {
    ($($arg:tt)*) => {
        $crate::messages::say($crate::messages::Kind::Error, format_args!($($arg)*))
    };
}

/// A [`Kind::Item`] line, with `format!` arguments.
macro_rules! item {
    ($($arg:tt)*) => {
        $crate::messages::say($crate::messages::Kind::Item, format_args!($($arg)*))
    };
}

pub(crate) use {error, item, note, warning};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_speaks_in_the_commands_voice() {
        set_command("compare");
        let cases = [
            (Kind::Note, "benchgrind compare: wrote x"),
            (Kind::Warning, "benchgrind compare: warning: wrote x"),
            (Kind::Error, "benchgrind compare: error: wrote x"),
            (Kind::Item, "  wrote x"),
        ];
        for (kind, want) in cases {
            assert_eq!(line(kind, format_args!("wrote {}", "x")), want);
        }
    }
}
