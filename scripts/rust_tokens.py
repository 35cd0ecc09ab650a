"""Reading Rust source for scripts/deps.py: tokens without comments, with literals as single
tokens and line numbers; matching brackets, the extent of an item, `#[cfg(test)]`, and the paths
of a `use` tree. Enough for imports; not a parser.
"""

import re

IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
RAW_STRING = re.compile(r"#*\"")


class Token:
    """One token: kind is 'ident', 'str' (a string literal, value unescaped roughly), 'lit'
    (another literal) or 'punct' ('::' or one character)."""

    __slots__ = ("kind", "text", "line")

    def __init__(self, kind, text, line):
        self.kind, self.text, self.line = kind, text, line

    def __repr__(self):
        return f"{self.kind}:{self.text}@{self.line}"


def _skip_quoted(src, i, quote):
    """Index after the closing `quote` of a literal whose opening quote is at i - 1."""
    n = len(src)
    while i < n:
        c = src[i]
        if c == "\\":
            i += 2
            continue
        if c == quote:
            return i + 1
        i += 1
    return n


def _word(src, i, line):
    """The token that starts with a letter at i: an identifier, or a literal with a prefix (raw
    strings `r#"..."#`, byte and C strings, byte chars, raw identifiers `r#type`); and the
    index after it."""
    n = len(src)
    m = IDENT.match(src, i)
    word, j = m.group(), m.end()
    raw = RAW_STRING.match(src, j) if word in ("r", "br", "cr") else None
    if raw:
        close = '"' + "#" * (raw.end() - j - 1)
        k = src.find(close, raw.end())
        k = n if k < 0 else k + len(close)
        return Token("str", src[raw.end() : k - len(close)], line), k
    if word in ("b", "c") and j < n and src[j] == '"':
        k = _skip_quoted(src, j + 1, '"')
        return Token("str", src[j + 1 : k - 1], line), k
    if word == "b" and j < n and src[j] == "'":
        k = _skip_quoted(src, j + 1, "'")
        return Token("lit", src[i:k], line), k
    if word == "r" and src.startswith("#", j) and IDENT.match(src, j + 1):
        m = IDENT.match(src, j + 1)
        return Token("ident", m.group(), line), m.end()
    return Token("ident", word, line), j


def tokenize(src):
    """Splits Rust source into tokens; comments are dropped, literals kept as one token."""
    tokens = []
    i, n, line = 0, len(src), 1
    while i < n:
        c = src[i]
        if c == "\n":
            line += 1
            i += 1
        elif c.isspace():
            i += 1
        elif src.startswith("//", i):
            j = src.find("\n", i)
            i = n if j < 0 else j
        elif src.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if src.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif src.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            line += src.count("\n", i, j)
            i = j
        elif c == '"':
            j = _skip_quoted(src, i + 1, '"')
            tokens.append(Token("str", src[i + 1 : j - 1], line))
            line += src.count("\n", i, j)
            i = j
        elif c == "'":
            # A char literal ('a', '\n', '\u{1F600}') or a lifetime ('a, 'static).
            if i + 1 < n and src[i + 1] == "\\":
                j = _skip_quoted(src, i + 1, "'")
                tokens.append(Token("lit", src[i:j], line))
                i = j
            elif i + 2 < n and src[i + 2] == "'":
                tokens.append(Token("lit", src[i : i + 3], line))
                i += 3
            else:
                m = IDENT.match(src, i + 1)
                i = m.end() if m else i + 1
        elif c.isdigit():
            j = i + 1
            while j < n and (src[j].isalnum() or src[j] == "_" or
                             (src[j] == "." and j + 1 < n and src[j + 1].isdigit())):
                j += 1
            tokens.append(Token("lit", src[i:j], line))
            i = j
        elif c.isalpha() or c == "_":
            token, j = _word(src, i, line)
            tokens.append(token)
            line += src.count("\n", i, j)
            i = j
        elif src.startswith("::", i):
            tokens.append(Token("punct", "::", line))
            i += 2
        else:
            tokens.append(Token("punct", c, line))
            i += 1
    return tokens


def matching(tokens, i, open_, close):
    """Index of the token closing the bracket opened at i."""
    depth = 0
    for j in range(i, len(tokens)):
        t = tokens[j]
        if t.kind == "punct":
            if t.text == open_:
                depth += 1
            elif t.text == close:
                depth -= 1
                if depth == 0:
                    return j
    return len(tokens) - 1


def item_end(tokens, i):
    """Index of the last token of the item starting at i: its `;` or its closing `}`."""
    depth = 0
    for j in range(i, len(tokens)):
        t = tokens[j]
        if t.kind != "punct":
            continue
        if t.text in "([":
            depth += 1
        elif t.text in ")]":
            depth -= 1
        elif depth == 0 and t.text == ";":
            return j
        elif depth == 0 and t.text == "{":
            return matching(tokens, j, "{", "}")
    return len(tokens) - 1


def is_test_cfg(attr):
    """Whether an attribute's tokens are a `cfg` that holds only under test: `cfg(test)`, or
    `cfg(all(...))` with `test` among the conditions (and no `not`)."""
    text = [t.text for t in attr]
    if text[:2] != ["cfg", "("]:
        return False
    if text[2:] == ["test", ")"]:
        return True
    return text[2:4] == ["all", "("] and "test" in text and "not" not in text


def use_paths(tokens):
    """Expands the tree of a `use` declaration into paths (lists of segments)."""
    paths = []

    def walk(i, prefix):
        # Parses one use tree at i; returns the index after it.
        segs = list(prefix)
        while i < len(tokens):
            t = tokens[i]
            if t.kind == "ident" and t.text != "as":
                segs.append(t.text)
                i += 1
            elif t.text == "::":
                i += 1
            elif t.text == "{":
                i += 1
                while i < len(tokens) and tokens[i].text != "}":
                    i = walk(i, segs)
                    if i < len(tokens) and tokens[i].text == ",":
                        i += 1
                return i + 1
            elif t.text == "*":
                paths.append((segs, t.line, None))
                return i + 1
            else:
                break
        if segs and segs[-1] == "self":
            segs = segs[:-1]
        alias = segs[-1] if segs else None
        if i < len(tokens) and tokens[i].text == "as":
            alias = tokens[i + 1].text if i + 1 < len(tokens) else None
            i += 2
        paths.append((segs, tokens[min(i, len(tokens) - 1)].line, alias))
        return i

    i = 0
    while i < len(tokens):
        if tokens[i].text == ",":
            i += 1
            continue
        j = walk(i, [])
        i = j if j > i else i + 1
    return [(p, line, alias) for p, line, alias in paths if p]
