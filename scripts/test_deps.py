"""Tests of scripts/deps.py on small made-up workspaces in a temporary directory.

Run: python3 -m unittest discover -s scripts -p 'test_*.py'
"""

import contextlib
import io
import os
import tempfile
import textwrap
import unittest

import deps
import rust_tokens


class Workspace:
    """A throwaway workspace with one crate, `demo`, whose files are given as {path: text}."""

    def __init__(self, files, members=("demo",)):
        self.dir = tempfile.TemporaryDirectory()
        root = self.dir.name
        quoted = ", ".join(f'"{m}"' for m in members)
        self.write("Cargo.toml", f"[workspace]\nmembers = [{quoted}]\n")
        for member in members:
            self.write(f"{member}/Cargo.toml", f'[package]\nname = "{member}"\nversion = "0.1.0"\n')
        for path, text in files.items():
            self.write(path, textwrap.dedent(text))
        self.root = root

    def write(self, rel, text):
        path = os.path.join(self.dir.name, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)

    def run(self):
        """deps.main on this workspace: (exit code, printed lines)."""
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            code = deps.main(["deps.py", self.root])
        return code, out.getvalue().splitlines()

    def close(self):
        self.dir.cleanup()


def check(test, files, members=("demo",)):
    ws = Workspace(files, members)
    test.addCleanup(ws.close)
    return ws.run()


class Tokens(unittest.TestCase):
    def test_comments_strings_and_lifetimes_are_not_code(self):
        src = textwrap.dedent(
            """\
            // crate::a::b in a comment
            /* crate::c /* nested crate::d */ still comment */
            fn f<'a>(x: &'a str) -> char {
                let _ = "crate::e \\" crate::f";
                let _ = r#"crate::g "quoted" "#;
                let _ = b'x';
                let c = '\\'';
                crate::h::go();
                c
            }
            """
        )
        idents = [t.text for t in rust_tokens.tokenize(src) if t.kind == "ident"]
        self.assertEqual(idents.count("crate"), 1)
        self.assertIn("h", idents)
        lines = {t.text: t.line for t in rust_tokens.tokenize(src) if t.kind == "ident"}
        self.assertEqual(lines["h"], 8)

    def test_use_trees_expand(self):
        tokens = rust_tokens.tokenize("crate::{a::{self, B as C}, d::*, e}, super::f")
        paths = [(segs, alias) for segs, _, alias in rust_tokens.use_paths(tokens)]
        self.assertEqual(
            paths,
            [
                (["crate", "a"], "a"),
                (["crate", "a", "B"], "C"),
                (["crate", "d"], None),
                (["crate", "e"], "e"),
                (["super", "f"], "f"),
            ],
        )


class Cycles(unittest.TestCase):
    def test_a_tree_that_points_down_is_ok(self):
        code, out = check(
            self,
            {
                "demo/src/main.rs": "mod a;\nmod b;\nfn main() { b::run(); }\n",
                "demo/src/a.rs": "pub fn f() {}\n",
                "demo/src/b.rs": "use crate::a;\npub fn run() { a::f(); crate::a::f(); }\n",
            },
        )
        self.assertEqual(code, 0, out)
        self.assertEqual(len(out), 1)
        self.assertTrue(out[0].startswith("deps: OK: 1 crates, 3 modules, 2 imports"), out)

    def test_siblings_that_import_each_other(self):
        code, out = check(
            self,
            {
                "demo/src/lib.rs": "mod a;\nmod b;\n",
                "demo/src/a.rs": "use crate::b::B;\npub struct A;\n",
                "demo/src/b.rs": "pub struct B;\n\nfn g() {\n    crate::a::A;\n}\n",
            },
        )
        self.assertEqual(code, 1)
        self.assertIn("demo: cycle among 2 modules: a, b", out)
        self.assertIn("demo: a -> b -> a", out)
        self.assertIn("    a -> b: demo/src/a.rs:1", out)
        self.assertIn("    b -> a: demo/src/b.rs:4", out)

    def test_super_is_resolved_from_the_file_it_is_in(self):
        code, out = check(
            self,
            {
                "demo/src/lib.rs": "mod outer;\n",
                "demo/src/outer/mod.rs": "mod x;\nmod y;\n",
                "demo/src/outer/x.rs": "use super::y::Y;\npub struct X;\n",
                "demo/src/outer/y.rs": "pub struct Y;\nfn f() -> super::super::outer::x::X { todo!() }\n",
            },
        )
        self.assertEqual(code, 1)
        self.assertIn("demo: outer/x -> outer/y -> outer/x", out)

    def test_a_parent_and_a_child_that_use_each_other(self):
        code, out = check(
            self,
            {
                "demo/src/lib.rs": "mod report;\n",
                "demo/src/report.rs": "mod json;\npub trait Reporter {}\npub fn pick() { json::Json; }\n",
                "demo/src/report/json.rs": "use super::Reporter;\npub struct Json;\n",
            },
        )
        self.assertEqual(code, 1)
        self.assertIn("demo: report -> report/json -> report", out)

    def test_tests_may_import_anything(self):
        code, out = check(
            self,
            {
                "demo/src/lib.rs": "mod a;\nmod b;\n#[cfg(test)]\nmod tests;\n",
                "demo/src/a.rs": "use crate::b;\n",
                "demo/src/b.rs": textwrap.dedent(
                    """\
                    #[cfg(test)]
                    use crate::a;
                    #[cfg(all(test, unix))]
                    fn only_in_tests() { crate::a::f(); }
                    #[cfg(test)]
                    mod tests {
                        use crate::a::*;
                    }
                    """
                ),
                "demo/src/tests.rs": "use crate::a;\nuse crate::b;\n",
            },
        )
        self.assertEqual(code, 0, out)

    def test_a_visibility_is_no_import(self):
        code, out = check(
            self,
            {
                "demo/src/lib.rs": "mod b;\n",
                "demo/src/b.rs": "mod inner;\npub fn g() { inner::f() }\n",
                "demo/src/b/inner.rs": "pub(in crate::b) fn f() {}\n",
            },
        )
        self.assertEqual(code, 0, out)

    def test_a_cfg_that_also_holds_outside_tests_counts(self):
        code, out = check(
            self,
            {
                "demo/src/lib.rs": "mod a;\nmod b;\n",
                "demo/src/a.rs": "use crate::b;\n",
                "demo/src/b.rs": "#[cfg(any(test, feature = \"x\"))]\nuse crate::a;\n",
            },
        )
        self.assertEqual(code, 1)
        self.assertIn("demo: a -> b -> a", out)

    def test_a_cycle_between_subtrees_counts(self):
        # a/x -> b -> a/y: no two files import each other, but `a` and `b` do.
        code, out = check(
            self,
            {
                "demo/src/lib.rs": "mod a;\nmod b;\n",
                "demo/src/a/mod.rs": "pub mod x;\npub mod y;\n",
                "demo/src/a/x.rs": "use crate::b::B;\n",
                "demo/src/a/y.rs": "pub struct Y;\n",
                "demo/src/b.rs": "pub struct B(crate::a::y::Y);\n",
            },
        )
        self.assertEqual(code, 1)
        self.assertIn("demo: cycle among 2 modules: a/*, b", out)
        self.assertIn("    a/* -> b: demo/src/a/x.rs:1", out)
        self.assertIn("    b -> a/*: demo/src/b.rs:1", out)

    def test_re_exports_are_followed(self):
        # `crate::T` is a's; `crate::Ext` comes from another crate and is no edge.
        code, out = check(
            self,
            {
                "demo/src/lib.rs": "mod a;\nmod b;\npub use a::T;\npub use other::thing as Ext;\n",
                "demo/src/a.rs": "pub struct T;\nfn f() { crate::Ext::go(); }\n",
                "demo/src/b.rs": "use crate::T;\n",
            },
        )
        self.assertEqual(code, 0, out)
        code, out = check(
            self,
            {
                "demo/src/lib.rs": "mod a;\nmod b;\npub use a::T;\n",
                "demo/src/a.rs": "pub struct T;\nfn f() { crate::b::g(); }\n",
                "demo/src/b.rs": "use crate::T;\npub fn g() {}\n",
            },
        )
        self.assertEqual(code, 1)
        self.assertIn("demo: a -> b -> a", out)

    def test_inline_modules_path_attributes_and_generated_code(self):
        code, out = check(
            self,
            {
                "demo/src/main.rs": textwrap.dedent(
                    """\
                    #[path = "../shared/helpers.rs"]
                    mod helpers;
                    mod inner {
                        pub fn f() { super::helpers::h(); }
                    }
                    fn main() { inner::f(); }
                    """
                ),
                "demo/shared/helpers.rs": textwrap.dedent(
                    """\
                    pub fn h() {
                        let _ = quote! { super::inner::f() };
                    }
                    """
                ),
            },
        )
        self.assertEqual(code, 0, out)
        self.assertTrue(out[0].startswith("deps: OK: 1 crates, 3 modules, 2 imports"), out)
        code, out = check(
            self,
            {
                "demo/src/main.rs": "mod inner {\n    pub fn f() { crate::g(); }\n}\nfn g() { inner::f(); }\n",
            },
        )
        self.assertEqual(code, 1)
        self.assertIn("demo: main -> main::inner -> main", out)

    def test_every_member_and_binary_is_read(self):
        code, out = check(
            self,
            {
                "demo/src/lib.rs": "pub fn f() {}\n",
                "demo/src/bin/tool.rs": "mod p;\nmod q;\n",
                "demo/src/bin/p.rs": "use crate::q;\n",
                "demo/src/bin/q.rs": "use crate::p;\n",
                "other/src/main.rs": "fn main() {}\n",
            },
            members=("demo", "other"),
        )
        self.assertEqual(code, 1)
        self.assertIn("demo (bin tool): cycle among 2 modules: p, q", out)
        self.assertTrue(out[-1].startswith("deps: 1 set(s) of modules in an import cycle, 0 forbidden"), out)


class Forbidden(unittest.TestCase):
    def test_the_configuration_model_may_not_import_the_compatibility_api(self):
        files = {
            "benchgrind-runner/src/lib.rs": "pub mod config;\n",
            "benchgrind-runner/src/config/mod.rs": (
                "pub mod compat;\npub mod library;\npub mod metric;\npub mod tool;\n"
                "pub use compat::v0_10::Run;\n"
            ),
            "benchgrind-runner/src/config/compat/mod.rs": "pub mod v0_10;\n",
            "benchgrind-runner/src/config/compat/v0_10.rs": (
                "use crate::config::metric::Metric;\npub struct Run(Metric);\n"
            ),
            "benchgrind-runner/src/config/metric.rs": "pub struct Metric;\n",
            "benchgrind-runner/src/config/tool.rs": "pub struct Tool;\n",
            "benchgrind-runner/src/config/library.rs": (
                "use super::tool::Tool;\npub struct Config(Tool);\n"
            ),
        }
        code, out = check(self, files, members=("benchgrind-runner",))
        self.assertEqual(code, 0, out)

        files["benchgrind-runner/src/config/tool.rs"] = (
            "use super::compat::v0_10::Run;\npub struct Tool(Option<Box<Run>>);\n"
        )
        code, out = check(self, files, members=("benchgrind-runner",))
        self.assertEqual(code, 1, out)
        self.assertEqual(len(out), 2, out)
        self.assertTrue(out[0].startswith(
            "benchgrind-runner: forbidden import config/tool -> config/compat/v0_10 "
            "(benchgrind-runner/src/config/tool.rs:1)"), out)
        self.assertTrue(out[-1].endswith(", 1 forbidden import(s); imports should only point "
                                         "down the pipeline"), out)


class ExportedMacros(unittest.TestCase):
    def test_an_exported_macro_is_an_edge_to_the_module_that_defines_it(self):
        code, out = check(
            self,
            {
                "demo/src/lib.rs": "pub mod config;\npub mod error;\npub use config::Config;\n",
                "demo/src/error.rs": (
                    "pub struct Problem;\n#[macro_export]\nmacro_rules! problem {\n"
                    "    () => { $crate::error::Problem };\n}\n"
                ),
                "demo/src/config.rs": (
                    "use crate::problem;\npub struct Config;\npub fn f() { let _ = problem!(); }\n"
                ),
            },
        )
        # Read as an edge to lib, `config -> lib -> config` would be a cycle.
        self.assertEqual(code, 0, out)
        self.assertTrue(out[0].startswith("deps: OK: 1 crates, 3 modules, 2 imports"), out)


class Manifests(unittest.TestCase):
    def test_without_tomllib_the_same_keys_are_read(self):
        text = textwrap.dedent(
            """\
            [workspace]
            resolver = "2"  # a comment
            members = [
                "crates/a",   # the first
                "crates/b",
            ]

            [package]
            name = "demo"
            version.workspace = true

            [lib]
            path = "src/top.rs"

            [[bin]]
            name = "one"
            path = "src/one.rs"

            [[bin]]
            name = "two"
            path = "src/two.rs"

            [dependencies]
            x = { version = "1", features = ["y"] }
            """
        )
        got = deps._mini_toml(text)
        self.assertEqual(got["workspace"]["members"], ["crates/a", "crates/b"])
        self.assertEqual(got["package"]["name"], "demo")
        self.assertEqual(got["lib"]["path"], "src/top.rs")
        self.assertEqual([b["path"] for b in got["bin"]], ["src/one.rs", "src/two.rs"])


if __name__ == "__main__":
    unittest.main()
