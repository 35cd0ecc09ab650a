//! The calls of Valgrind's trace, one by one: how each uses its path arguments ([`shape`]),
//! the arguments as Valgrind prints them ([`arguments`]) and their results ([`success`]).

/// `AT_FDCWD` as Valgrind prints it on 64-bit targets, and as a signed number.
pub(super) const AT_FDCWD: [&str; 2] = ["4294967196", "-100"];

/// How a call uses the path arguments it has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Use {
    /// Reads it or looks at it.
    Read,
    /// Changes it.
    Change,
    /// Enters it (`chdir`).
    Enter,
}

/// The arguments of a call: which are directory descriptors for the path after them and how
/// the paths are used; `None` for a call this reader does not know.
pub(super) fn shape(name: &str) -> Option<(&'static [Option<usize>], Use)> {
    // Each slot: `Some(i)` is a path whose directory descriptor is argument `i`, `None` a path
    // relative to the working directory.
    const PATH: &[Option<usize>] = &[None];
    const AT: &[Option<usize>] = &[Some(0)];
    const TWO: &[Option<usize>] = &[None, None];
    const TWO_AT: &[Option<usize>] = &[Some(0), Some(2)];
    let shape: (&[Option<usize>], Use) = match name {
        "stat" | "newstat" | "stat64" | "lstat" | "newlstat" | "lstat64" | "access"
        | "readlink" | "statfs" | "statfs64" | "execve" | "getxattr" | "lgetxattr"
        | "listxattr" | "llistxattr" | "uselib" => (PATH, Use::Read),
        "newfstatat" | "fstatat64" | "statx" | "faccessat" | "faccessat2" | "readlinkat"
        | "execveat" | "name_to_handle_at" => (AT, Use::Read),
        "mkdir" | "rmdir" | "unlink" | "chmod" | "chown" | "lchown" | "utime" | "utimes"
        | "truncate" | "truncate64" | "setxattr" | "lsetxattr" | "removexattr" | "lremovexattr"
        | "mknod" => (PATH, Use::Change),
        "mkdirat" | "unlinkat" | "fchmodat" | "fchmodat2" | "fchownat" | "utimensat"
        | "futimesat" | "mknodat" => (AT, Use::Change),
        "rename" | "link" | "symlink" => (TWO, Use::Change),
        "renameat" | "renameat2" | "linkat" => (TWO_AT, Use::Change),
        "chdir" => (PATH, Use::Enter),
        _ => return None,
    };
    Some(shape)
}

/// One argument as Valgrind prints it: a number, or a string (`0x...(text)`).
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Arg<'a> {
    Number(&'a str),
    Text(&'a str),
}

/// The arguments of `sys_name ( ... )`, from the text after the opening parenthesis.
pub(super) fn arguments(mut rest: &str) -> Vec<Arg<'_>> {
    let mut args = Vec::new();
    loop {
        rest = rest.trim_start();
        if rest.is_empty() || rest.starts_with(')') {
            return args;
        }
        let hex_end = rest
            .strip_prefix("0x")
            .map(|h| 2 + h.find(|c: char| !c.is_ascii_hexdigit()).unwrap_or(h.len()));
        match hex_end.filter(|&end| rest[end..].starts_with('(')) {
            Some(end) => {
                let body = &rest[end + 1..];
                // The text ends at the parenthesis before the next argument or the list's end.
                let close = (0..body.len()).find(|&i| {
                    body.as_bytes()[i] == b')'
                        && (body[i + 1..].starts_with(',') || body[i + 1..].starts_with(" )"))
                });
                let Some(close) = close else {
                    args.push(Arg::Text(body));
                    return args;
                };
                args.push(Arg::Text(&body[..close]));
                rest = &body[close + 1..];
            }
            None => {
                let end = rest.find([',', ' ', ')']).unwrap_or(rest.len());
                args.push(Arg::Number(&rest[..end]));
                rest = &rest[end..];
            }
        }
        rest = rest.trim_start();
        match rest.strip_prefix(',') {
            Some(after) => rest = after,
            None => return args,
        }
    }
}

/// A number Valgrind printed, decimal or `0x` hexadecimal.
pub(super) fn number(text: &str) -> Option<u64> {
    match text.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => text.parse().ok(),
    }
}

/// The result of a call, from the text after `-->`: the descriptor or value of a success.
pub(super) fn success(text: &str) -> Option<u64> {
    let start = text.find("Success(")? + "Success(".len();
    let end = text[start..].find(')')? + start;
    number(&text[start..end])
}
