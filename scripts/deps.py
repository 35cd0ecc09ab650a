#!/usr/bin/env python3
"""Lists the module import cycles of every crate in the workspace, from the sources.

For each crate root (src/lib.rs, src/main.rs, src/bin/*.rs and the [lib]/[[bin]] paths of every
workspace member), the module tree is read from `mod` declarations (files, `#[path]` and inline
modules), and every reference from one module to another becomes an edge: `use` declarations
(groups expanded), and paths in code that start with `crate::`, `self::`, `super::` or the name
of a child module. A path is resolved down the tree as far as it names modules, so
`crate::report::json::Json` is an edge to `report/json`; a name re-exported with `use` is
followed to where it comes from. Comments, strings, visibilities (`pub(in crate::a)`), code
inside `quote!` (a proc macro's output, for another crate) and `#[cfg(test)]` items are left
out: tests may look anywhere. Reading the tokens is in scripts/rust_tokens.py.

Cycles are looked for at two granularities:
- module by module (a file, or an inline module): every strongly connected set;
- at each level of the tree, with every child's subtree collapsed into one node beside the
  parent's own code: a cycle between sibling modules counts even when no two files import each
  other (`a/x -> b -> a/y`). Such a cycle is listed unless a module-by-module cycle already
  touches every member.

A `#[macro_export]` macro is taken to live in the module that defines it (a use of
`crate::name` is an edge there, not to the crate root).

Besides cycles, imports that must not exist at all are listed (FORBIDDEN): benchgrind's own
configuration model imports nothing from the API of older generations (`config/compat`), which
is built on top of it; the command line (`cli`) imports nothing from `perf`, whose flags it reads
into the configuration's text forms.

Each strongly connected set is shown as a few short cycles that together visit all its members,
one line `crate: a -> b -> a` each, with one example `file:line` per edge. Exit code 1 when there
is any cycle, else a one-line OK with counts and exit code 0.

Usage: python3 scripts/deps.py [WORKSPACE_DIR]   (default: the repository holding this script)
"""

import os
import re
import sys
from collections import deque

import rust_tokens

# Imports that must not exist: (crate, importing subtree, imported subtree, why). A subtree is a
# module's display name and everything below it; the importing subtree's root (its `mod.rs`,
# which may re-export the whole API) and the imported subtree are left out of the importers.
FORBIDDEN = [
    ("benchgrind-runner", "config", "config/compat",
     "the configuration model imports nothing from the older generations' API built on it"),
    ("benchgrind-runner", "cli", "perf",
     "the command line reads perf's flags into config's text forms; counting is perf's alone"),
]

# Macros whose input is code generated for another crate (proc macros' output).
QUOTING_MACROS = {"quote", "quote_spanned", "parse_quote", "parse_quote_spanned"}

try:
    import tomllib
except ImportError:  # Python before 3.11: the few manifest keys needed are read by _mini_toml
    tomllib = None

# ---------------------------------------------------------------------------------------------
# The module tree and the references of one crate.


class Module:
    """A module: a file, or an inline `mod name { ... }` inside one."""

    def __init__(self, name, parent, file, inline=False):
        self.name = name
        self.parent = parent
        self.file = file
        self.inline = inline
        self.children = {}
        # (path segments, file, line): resolved once the tree is complete.
        self.refs = []
        # Names bound by this module's `use` declarations: name -> path segments, so that a
        # path through a re-export (`crate::Tool` after `pub use tools::Tool`) is followed.
        self.bindings = {}

    def ancestors(self):
        """This module, its parent, ... up to the root."""
        m = self
        while m is not None:
            yield m
            m = m.parent


class CrateReader:
    """Builds the module tree of one crate root, with every module's raw references."""

    def __init__(self, root_file, src_dir):
        self.src_dir = src_dir
        self.modules = []
        self.root = self._module("", None, root_file)
        self._read_file(self.root, root_file, os.path.dirname(root_file))

    def _module(self, name, parent, file, inline=False):
        m = Module(name, parent, file, inline)
        self.modules.append(m)
        if parent is not None:
            parent.children[name] = m
        return m

    def _read_file(self, module, path, child_dir):
        with open(path, encoding="utf-8") as f:
            tokens = rust_tokens.tokenize(f.read())
        self._read_items(module, tokens, 0, len(tokens), path, child_dir)

    def _child_file(self, name, child_dir, path_attr, current_file):
        if path_attr is not None:
            return os.path.normpath(os.path.join(os.path.dirname(current_file), path_attr))
        for candidate in (os.path.join(child_dir, name + ".rs"),
                          os.path.join(child_dir, name, "mod.rs")):
            if os.path.isfile(candidate):
                return candidate
        return None

    def _read_items(self, module, tokens, start, end, path, child_dir):
        i = start
        path_attr = None
        macro_export = False
        while i < end:
            t = tokens[i]
            if t.text == "#" and i + 1 < end and tokens[i + 1].text in ("[", "!"):
                open_at = i + 1 if tokens[i + 1].text == "[" else i + 2
                close = rust_tokens.matching(tokens, open_at, "[", "]")
                attr = tokens[open_at + 1 : close]
                inner = tokens[i + 1].text == "!"
                if attr and attr[0].text == "path" and len(attr) >= 3 and attr[2].kind == "str":
                    path_attr = attr[2].text
                if attr and attr[0].text == "macro_export":
                    macro_export = True
                i = close + 1
                if not inner and rust_tokens.is_test_cfg(attr):
                    i = rust_tokens.item_end(tokens, i) + 1
                    path_attr = None
                continue
            if t.kind == "ident" and t.text == "mod" and i + 2 < end and tokens[i + 1].kind == "ident":
                name, after = tokens[i + 1].text, tokens[i + 2].text
                if after == ";":
                    file = self._child_file(name, child_dir, path_attr, path)
                    if file is not None:
                        child = self._module(name, module, file)
                        own_dir = os.path.dirname(file)
                        stem = os.path.splitext(os.path.basename(file))[0]
                        grand_dir = own_dir if stem == "mod" else os.path.join(own_dir, stem)
                        self._read_file(child, file, grand_dir)
                    path_attr = None
                    i += 3
                    continue
                if after == "{":
                    close = rust_tokens.matching(tokens, i + 2, "{", "}")
                    child = self._module(name, module, path, inline=True)
                    self._read_items(child, tokens, i + 3, close, path, os.path.join(child_dir, name))
                    path_attr = None
                    i = close + 1
                    continue
            path_attr = None
            if (t.kind == "ident" and t.text == "macro_rules" and i + 2 < end
                    and tokens[i + 1].text == "!" and tokens[i + 2].kind == "ident"):
                # `#[macro_export]` puts the macro at the crate's root, but it lives here: a
                # use of `crate::name` is an edge to this module.
                if macro_export:
                    names = [m.name for m in module.ancestors()][:-1]
                    self.root.bindings[tokens[i + 2].text] = ["crate"] + names[::-1]
                macro_export = False
                i += 3
                continue
            if t.kind == "ident" and t.text not in ("pub", "macro_rules"):
                macro_export = False
            if (t.kind == "ident" and t.text in QUOTING_MACROS and i + 2 < end
                    and tokens[i + 1].text == "!" and tokens[i + 2].text in "([{"):
                # Code that a proc macro generates names the user's crate, not this one.
                open_ = tokens[i + 2].text
                i = rust_tokens.matching(tokens, i + 2, open_, {"(": ")", "[": "]", "{": "}"}[open_]) + 1
                continue
            if t.kind == "ident" and t.text == "use":
                semi = rust_tokens.item_end(tokens, i)
                for segs, line, alias in rust_tokens.use_paths(tokens[i + 1 : semi]):
                    module.refs.append((segs, path, line))
                    if alias not in (None, "_", "self", "super", "crate"):
                        module.bindings[alias] = segs
                i = semi + 1
                continue
            if (t.kind == "ident" and i + 1 < end and tokens[i + 1].text == "::"
                    and not (i > 0 and tokens[i - 1].text in ("::", "."))
                    and not (i > 1 and tokens[i - 1].text == "in" and tokens[i - 2].text == "(")):
                # (`pub(in crate::a)` is a visibility, not a use of `a`.)
                segs, j = [t.text], i + 1
                while j + 1 < end and tokens[j].text == "::" and tokens[j + 1].kind == "ident":
                    segs.append(tokens[j + 1].text)
                    j += 2
                module.refs.append((segs, path, t.line))
                i = j
                continue
            i += 1


def resolve(module, segs, root, depth=0):
    """The module a path used in `module` leads to, or None when it leaves the crate. Names that
    a module re-exports with `use` are followed to where they come from."""
    if depth > 16:
        return None  # a `use` loop; rustc rejects those
    first = segs[0]
    rest = segs[1:]
    if first == "crate":
        cur = root
    elif first == "self":
        cur = module
    elif first == "super":
        cur = module.parent
        while rest and rest[0] == "super" and cur is not None:
            cur, rest = cur.parent, rest[1:]
        if cur is None:
            return None
    elif first in module.children:
        cur, rest = module.children[first], rest
    else:
        return None  # another crate, or a name imported by a `use` (counted there)
    for k, seg in enumerate(rest):
        if seg in cur.children:
            cur = cur.children[seg]
        elif seg in cur.bindings:
            target = resolve(cur, cur.bindings[seg], root, depth + 1)
            if target is None:
                return None
            return resolve(target, ["self"] + rest[k + 1 :], root, depth + 1)
        else:
            break
    return cur


def display_name(module, src_dir):
    """`args`, `tools/mod`, `tools/metrics`, `lib`; inline modules as `file::name`."""
    if module.inline:
        return display_name(module.parent, src_dir) + "::" + module.name
    rel = os.path.relpath(module.file, src_dir)
    return os.path.splitext(rel)[0]


# ---------------------------------------------------------------------------------------------
# Cycles.


def strongly_connected(nodes, edges):
    """Tarjan's algorithm, iterative; returns the sets of more than one node."""
    index, low, on_stack, stack, result = {}, {}, set(), [], []
    counter = [0]
    for start in nodes:
        if start in index:
            continue
        work = [(start, iter(sorted(edges.get(start, ()))))]
        index[start] = low[start] = counter[0]
        counter[0] += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, it = work[-1]
            advanced = False
            for nxt in it:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter[0]
                    counter[0] += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(edges.get(nxt, ())))))
                    advanced = True
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    group.append(top)
                    if top == node:
                        break
                if len(group) > 1:
                    result.append(sorted(group))
    return result


def shortest_cycle(node, members, edges):
    """The shortest cycle from `node` back to it inside `members`, as a node list."""
    prev = {node: None}
    queue = deque([node])
    while queue:
        cur = queue.popleft()
        for nxt in sorted(edges.get(cur, ())):
            if nxt not in members:
                continue
            if nxt == node:
                path = [cur]
                while prev[path[-1]] is not None:
                    path.append(prev[path[-1]])
                return list(reversed(path)) + [node]
            if nxt not in prev:
                prev[nxt] = cur
                queue.append(nxt)
    return None


def covering_cycles(members, edges):
    """Short cycles that together visit every member of a strongly connected set."""
    cycles, seen, visited = [], set(), set()
    for node in members:
        if node in visited:
            continue
        cycle = shortest_cycle(node, set(members), edges)
        if cycle is None:
            continue
        body = cycle[:-1]
        k = body.index(min(body))
        key = tuple(body[k:] + body[:k])
        if key not in seen:
            seen.add(key)
            cycles.append(list(key) + [key[0]])
        visited.update(body)
    return cycles


def crate_cycles(reader, crate, repo):
    """Finds the cycles of one crate; returns (report lines, module count, edge count)."""
    src_dir = os.path.dirname(reader.root.file)
    name = {m: display_name(m, src_dir) for m in reader.modules}
    # Fine edges: module -> module, one example each.
    fine = {}
    for m in reader.modules:
        for segs, file, line in m.refs:
            target = resolve(m, segs, reader.root)
            if target is None or target is m:
                continue
            fine.setdefault(m, {}).setdefault(target, (file, line))
    fine_names = {name[a]: {name[b] for b in bs} for a, bs in fine.items()}
    example = {(name[a], name[b]): ex for a, bs in fine.items() for b, ex in bs.items()}
    lines = []
    fine_sets = strongly_connected(sorted(name.values()), fine_names)
    for members in fine_sets:
        lines += _describe(crate, members, fine_names, example, repo)

    # Collapsed levels: each edge counts at the level of its endpoints' lowest common ancestor.
    levels = {}
    for a, bs in fine.items():
        for b, ex in bs.items():
            up_a, up_b = list(a.ancestors()), list(b.ancestors())
            common = next(x for x in up_a if x in up_b)
            side_a = a if common is a else up_a[up_a.index(common) - 1]
            side_b = b if common is b else up_b[up_b.index(common) - 1]
            label = lambda m: name[m] if m is common else _subtree(name[m], m)
            edges, examples = levels.setdefault(common, ({}, {}))
            edges.setdefault(label(side_a), set()).add(label(side_b))
            examples.setdefault((label(side_a), label(side_b)), ex)
    covered = [set(s) for s in fine_sets]
    for common in sorted(levels, key=lambda m: name[m]):
        edges, examples = levels[common]
        for members in strongly_connected(sorted(edges), edges):
            if any(all(_touches(mem, fs) for mem in members) for fs in covered):
                continue
            lines += _describe(crate, members, edges, examples, repo)
    for rule_crate, importer, imported, why in FORBIDDEN:
        if rule_crate != crate:
            continue
        for (a, b), (file, line) in sorted(example.items()):
            root = a in (importer, importer + "/mod")
            if _within(a, importer) and not root and not _within(a, imported) \
                    and _within(b, imported):
                rel = os.path.relpath(file, repo)
                lines.append(f"{crate}: forbidden import {a} -> {b} ({rel}:{line}): {why}")
    edge_count = sum(len(bs) for bs in fine.values())
    return lines, len(reader.modules), edge_count


def _within(name, subtree):
    """Whether a module's display name is the subtree's root or below it."""
    return name in (subtree, subtree + "/mod") or name.startswith(subtree + "/") \
        or name.startswith(subtree + "::")


def _subtree(label, module):
    """The label of a collapsed child: `report/*` for a module with children of its own."""
    if not module.children:
        return label
    base = label[: -len("/mod")] if label.endswith("/mod") else label
    return base + "/*"


def _touches(label, fine_set):
    """Whether a collapsed node (a module or `dir/*`) holds a member of a fine cycle."""
    if label.endswith("/*"):
        base = label[:-2]
        return any(f == base or f.startswith(base + "/") or f.startswith(base + "::")
                   for f in fine_set)
    return label in fine_set


def _describe(crate, members, edges, examples, repo):
    lines = [f"{crate}: cycle among {len(members)} modules: {', '.join(members)}"]
    for cycle in covering_cycles(members, edges):
        lines.append(f"{crate}: {' -> '.join(cycle)}")
        for a, b in zip(cycle, cycle[1:]):
            file, line = examples[(a, b)]
            lines.append(f"    {a} -> {b}: {os.path.relpath(file, repo)}:{line}")
    return lines


# ---------------------------------------------------------------------------------------------
# The workspace.


def _mini_toml(text):
    """The tables and string (or array of strings) values of a Cargo manifest, without tomllib:
    enough for `workspace.members`, `package.name`, `lib.path` and `[[bin]]` entries."""
    root = {}
    table = root
    pending = None  # (key, text so far) of an array that spans lines
    for raw in text.splitlines():
        line = re.sub(r"#[^\"]*$", "", raw).strip()
        if pending is not None:
            key, so_far = pending
            so_far += " " + line
            if "]" in line:
                table[key] = re.findall(r'"([^"]*)"', so_far)
                pending = None
            else:
                pending = (key, so_far)
            continue
        header = re.fullmatch(r"\[\[\s*([\w.-]+)\s*\]\]|\[\s*([\w.-]+)\s*\]", line)
        if header:
            if header.group(1):
                table = {}
                root.setdefault(header.group(1), []).append(table)
            else:
                table = root
                for part in header.group(2).split("."):
                    table = table.setdefault(part, {})
            continue
        kv = re.match(r"([\w-]+)\s*=\s*(.*)", line)
        if not kv:
            continue
        key, value = kv.groups()
        if value.startswith("[") and "]" not in value:
            pending = (key, value)
        elif value.startswith("["):
            table[key] = re.findall(r'"([^"]*)"', value)
        elif value.startswith('"'):
            table[key] = value.strip('"')
    return root


def _load_toml(path):
    if tomllib is not None:
        with open(path, "rb") as f:
            return tomllib.load(f)
    with open(path, encoding="utf-8") as f:
        return _mini_toml(f.read())


def crate_roots(repo):
    """(crate label, root file) for every library and binary of every workspace member."""
    workspace = _load_toml(os.path.join(repo, "Cargo.toml"))
    members = workspace.get("workspace", {}).get("members", ["."])
    roots = []
    for member in members:
        pkg_dir = os.path.join(repo, member)
        manifest = os.path.join(pkg_dir, "Cargo.toml")
        if not os.path.isfile(manifest):
            continue
        cargo = _load_toml(manifest)
        pkg = cargo.get("package", {}).get("name", os.path.basename(member))
        files = []
        lib = cargo.get("lib", {}).get("path", "src/lib.rs")
        if os.path.isfile(os.path.join(pkg_dir, lib)):
            files.append(("lib", lib))
        bins = [(b.get("name", pkg), b["path"]) for b in cargo.get("bin", []) if "path" in b]
        if os.path.isfile(os.path.join(pkg_dir, "src/main.rs")):
            bins.append((pkg, "src/main.rs"))
        bin_dir = os.path.join(pkg_dir, "src/bin")
        if os.path.isdir(bin_dir):
            for entry in sorted(os.listdir(bin_dir)):
                if entry.endswith(".rs"):
                    bins.append((entry[:-3], os.path.join("src/bin", entry)))
                elif os.path.isfile(os.path.join(bin_dir, entry, "main.rs")):
                    bins.append((entry, os.path.join("src/bin", entry, "main.rs")))
        seen = set()
        for kind, rel in files + bins:
            path = os.path.normpath(os.path.join(pkg_dir, rel))
            if path in seen:
                continue
            seen.add(path)
            label = pkg if kind in ("lib", pkg) else f"{pkg} (bin {kind})"
            if kind == pkg and files:
                label = f"{pkg} (bin)"
            roots.append((label, path))
    return roots


def main(argv):
    repo = os.path.abspath(argv[1] if len(argv) > 1 else
                           os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    roots = crate_roots(repo)
    lines, modules, edges = [], 0, 0
    for label, root in roots:
        reader = CrateReader(root, os.path.dirname(root))
        found, m, e = crate_cycles(reader, label, repo)
        lines += found
        modules += m
        edges += e
    if lines:
        print("\n".join(lines))
        cycles = sum(1 for line in lines if " cycle among " in line)
        forbidden = sum(1 for line in lines if " forbidden import " in line)
        print(f"deps: {cycles} set(s) of modules in an import cycle, {forbidden} forbidden "
              "import(s); imports should only point down the pipeline")
        return 1
    print(f"deps: OK: {len(roots)} crates, {modules} modules, {edges} imports between modules, "
          "no cycles")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
