"""Every link in the README, CONTRIBUTING.md and docs/ resolves, and every repository path they
name in code exists.

A link is `[text](target)` outside code: a relative target must name a file or directory of the
repository, and a `#fragment` a heading of the target (GitHub's anchors: lower case, punctuation
but `-` and `_` dropped, spaces as `-`). A path in inline code that starts with one of the
repository's top-level directories (`crates/...`, `templates/...`) must exist; `*` and `?` match
as in a shell.

    python3 -m unittest discover -s scripts -p 'test_*.py'
"""

import glob
import os
import re
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
CODE_SPAN = re.compile(r"`([^`\n]+)`")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")


def documents():
    """The markdown files whose links are checked, relative to the root."""
    files = ["README.md", "CONTRIBUTING.md"]
    files += sorted(
        os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, "docs", "**", "*.md"), recursive=True)
    )
    return files


def prose_lines(text):
    """(line number, line) of the lines outside fenced code blocks."""
    fenced = False
    for number, line in enumerate(text.split("\n"), 1):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if not fenced:
            yield number, line


def slug(heading):
    """GitHub's anchor of a heading."""
    text = heading.replace("`", "").strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(text):
    """Every heading anchor of a markdown text, with GitHub's -1, -2 for repeated ones."""
    seen = {}
    result = set()
    for _, line in prose_lines(text):
        match = HEADING.match(line)
        if not match:
            continue
        base = slug(match.group(2))
        count = seen.get(base, 0)
        seen[base] = count + 1
        result.add(base if count == 0 else f"{base}-{count}")
    return result


def top_level_dirs(root):
    return {
        name
        for name in os.listdir(root)
        if os.path.isdir(os.path.join(root, name)) and name not in {"target", ".git"}
    }


def problems(path, text, root):
    """What does not resolve in one document, as 'path:line: message' strings."""
    found = []
    here = os.path.dirname(os.path.join(root, path))
    tops = top_level_dirs(root)
    for number, line in prose_lines(text):
        without_code = CODE_SPAN.sub("", line)
        for target in LINK.findall(without_code):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target):
                continue  # https:, mailto: and the like
            file_part, _, fragment = target.partition("#")
            resolved = os.path.normpath(os.path.join(here, file_part)) if file_part else os.path.join(root, path)
            if not os.path.exists(resolved):
                found.append(f"{path}:{number}: link to `{target}`: no such file")
                continue
            if fragment and resolved.endswith(".md"):
                if file_part:
                    with open(resolved, encoding="utf-8") as f:
                        headings = anchors(f.read())
                else:
                    headings = anchors(text)
                if fragment not in headings:
                    found.append(f"{path}:{number}: link to `{target}`: no heading `#{fragment}` there")
        for code in CODE_SPAN.findall(line):
            candidate = code.rstrip(".,:;)")
            first = candidate.split("/", 1)[0]
            if "/" not in candidate or " " in candidate or first not in tops:
                continue
            if not glob.glob(os.path.join(root, candidate)):
                found.append(f"{path}:{number}: `{candidate}`: no such path in the repository")
    return found


class DocsLinks(unittest.TestCase):
    def test_every_link_and_path_resolves(self):
        found = []
        for path in documents():
            with open(os.path.join(ROOT, path), encoding="utf-8") as f:
                found += problems(path, f.read(), ROOT)
        self.assertEqual(found, [], "\n" + "\n".join(found))

    def test_the_docs_are_there(self):
        for path in ["README.md", "CONTRIBUTING.md", "docs/guide.md", "docs/ci.md", "docs/migrating.md"]:
            self.assertIn(path, documents())

    def test_a_broken_link_an_anchor_and_a_path_are_named(self):
        text = (
            "# Title\n\nSee [the guide](docs/nothing.md), [title](#title), [gone](#gone),\n"
            "`crates/no-such-crate/src`, `crates/*/Cargo.toml` and `not/a/top/dir`.\n"
            "```\n[in code](nowhere.md)\n```\n"
        )
        self.assertEqual(
            problems("README.md", text, ROOT),
            [
                "README.md:3: link to `docs/nothing.md`: no such file",
                "README.md:3: link to `#gone`: no heading `#gone` there",
                "README.md:4: `crates/no-such-crate/src`: no such path in the repository",
            ],
        )

    def test_anchors_follow_github(self):
        self.assertEqual(slug("Speed: fork server, parallel runs, sharding"), "speed-fork-server-parallel-runs-sharding")
        self.assertEqual(slug("The `benchgrind` command"), "the-benchgrind-command")
        self.assertEqual(anchors("# A\n## A\n```\n# B\n```\n"), {"a", "a-1"})


if __name__ == "__main__":
    unittest.main()
