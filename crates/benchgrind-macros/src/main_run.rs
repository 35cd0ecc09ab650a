//! iai-callgrind's first binary-benchmark form (0.3 to 0.12), all in `main!`:
//!
//! ```text
//! main!(
//!     options = "--callgrind-arg";
//!     before = f; after = f, bench = true; setup = f; teardown = f;
//!     sandbox = true;
//!     fixtures = "benches/fixtures", follow_symlinks = false;
//!     run = cmd = "my-exe", envs = ["KEY=VALUE"], id = "one", args = ["a"], id = "two", args = [];
//!     run = cmd = env!("CARGO_BIN_EXE_other"), id = "three", args = ["b"];
//!     run = cmd = "my-exe", args = ["no id"], args = [];
//! );
//! ```
//!
//! It becomes one 0.10 group without a name (`crate::legacy_group`'s runtime side), so the
//! headers read `file id:program args`: `options` are Callgrind arguments, `before`/`after` run
//! once, `setup`/`teardown` around every command, and every command runs in a sandbox unless
//! `sandbox = false`. `bench = true` after a hook measures it (`crate::hook::measured_hooks`).
//! `args` without an `id` (the form's first versions) get the ids `0`, `1`, ... in order.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::parse::{ParseStream, Parser};
use syn::{Expr, ExprArray, Ident, LitBool, LitStr, Path, Token};

use crate::hook::Measured;

/// The keys that only this form has; their presence selects it.
pub const KEYS: &[&str] = &["options", "before", "after", "sandbox", "fixtures", "run"];

/// One `run = cmd = ..., envs = [...], id = "...", args = [...], ...`.
struct RunSpec {
    cmd: Expr,
    envs: Option<ExprArray>,
    /// Each `id = "...", args = [...]` (or `args = [...]` alone).
    args: Vec<(Option<LitStr>, ExprArray)>,
}

#[derive(Default)]
struct Spec {
    options: Vec<LitStr>,
    hooks: Vec<(String, Path)>,
    sandbox: Option<LitBool>,
    fixtures: Option<(LitStr, Option<LitBool>)>,
    runs: Vec<RunSpec>,
    /// The hooks given `bench = true`.
    measured: Vec<Measured>,
}

/// Whether `main!`'s input is this form: one of its keys (`run = ...`, ...) at the top level,
/// wherever it comes (`setup = f;` may come first, as in the other form).
pub fn applies(input: &TokenStream) -> bool {
    let tokens: Vec<_> = input.clone().into_iter().collect();
    tokens.windows(2).any(|pair| match (&pair[0], &pair[1]) {
        (proc_macro2::TokenTree::Ident(key), proc_macro2::TokenTree::Punct(eq)) => {
            eq.as_char() == '=' && KEYS.contains(&key.to_string().as_str())
        }
        _ => false,
    })
}

pub fn expand(input: TokenStream) -> syn::Result<TokenStream> {
    let spec = parse.parse2(input)?;
    if spec.runs.is_empty() {
        return Err(syn::Error::new(
            Span::call_site(),
            "main! with `options`/`before`/.../`fixtures` needs at least one \
             `run = cmd = ..., id = \"...\", args = [...]`",
        ));
    }
    Ok(generate(&spec))
}

fn parse(input: ParseStream) -> syn::Result<Spec> {
    let mut spec = Spec::default();
    while !input.is_empty() {
        let key: Ident = input.parse()?;
        input.parse::<Token![=]>()?;
        match key.to_string().as_str() {
            "options" => {
                while input.peek(LitStr) {
                    spec.options.push(input.parse()?);
                    if input.peek(Token![,]) {
                        input.parse::<Token![,]>()?;
                    }
                }
            }
            name @ ("before" | "after" | "setup" | "teardown") => {
                if spec.hooks.iter().any(|(n, _)| n == name) {
                    return Err(syn::Error::new(
                        key.span(),
                        format!("`{name}` is given twice in main!"),
                    ));
                }
                let path: Path = input.parse()?;
                // `bench = true` measures the hook; `false` is the default.
                if input.peek(Token![,]) && input.peek2(Ident) {
                    input.parse::<Token![,]>()?;
                    expect_key(input, "bench")?;
                    if crate::hook::bench_flag(&input.parse()?)? {
                        spec.measured.push(Measured {
                            kind: name.to_owned(),
                            expr: syn::parse_quote!(#path),
                        });
                    }
                }
                spec.hooks.push((name.to_owned(), path));
            }
            "sandbox" => spec.sandbox = Some(input.parse()?),
            "fixtures" => {
                let path: LitStr = input.parse()?;
                let mut follow = None;
                if input.peek(Token![,]) {
                    input.parse::<Token![,]>()?;
                    expect_key(input, "follow_symlinks")?;
                    follow = Some(input.parse()?);
                }
                spec.fixtures = Some((path, follow));
            }
            "run" => spec.runs.push(parse_run(input)?),
            other => {
                return Err(syn::Error::new(
                    key.span(),
                    format!(
                        "unknown key `{other}` in main!; this form takes: options, before, \
                         after, setup, teardown, sandbox, fixtures, run"
                    ),
                ))
            }
        }
        if !input.is_empty() {
            input.parse::<Token![;]>()?;
        }
    }
    Ok(spec)
}

fn expect_key(input: ParseStream, name: &str) -> syn::Result<()> {
    let key: Ident = input.parse()?;
    if key != name {
        return Err(syn::Error::new(
            key.span(),
            format!("expected `{name} = ...`"),
        ));
    }
    input.parse::<Token![=]>()?;
    Ok(())
}

fn parse_run(input: ParseStream) -> syn::Result<RunSpec> {
    expect_key(input, "cmd")?;
    let mut run = RunSpec {
        cmd: input.parse()?,
        envs: None,
        args: Vec::new(),
    };
    while input.peek(Token![,]) {
        input.parse::<Token![,]>()?;
        if input.is_empty() || input.peek(Token![;]) {
            break;
        }
        let key: Ident = input.fork().parse()?;
        if key == "envs" {
            expect_key(input, "envs")?;
            run.envs = Some(input.parse()?);
        } else if key == "args" {
            // The first versions of this form had no ids: numbered ones are made.
            expect_key(input, "args")?;
            run.args.push((None, input.parse()?));
        } else {
            expect_key(input, "id")?;
            let id: LitStr = input.parse()?;
            input.parse::<Token![,]>()?;
            expect_key(input, "args")?;
            run.args.push((Some(id), input.parse()?));
        }
    }
    if run.args.is_empty() {
        return Err(input.error("a `run` needs at least one `id = \"...\", args = [...]`"));
    }
    Ok(run)
}

fn generate(spec: &Spec) -> TokenStream {
    let none = quote!(::core::option::Option::None);
    let hook = |name: &str| {
        spec.hooks
            .iter()
            .find(|(n, _)| n == name)
            .map_or(none.clone(), |(_, path)| {
                let expr: Expr = syn::parse_quote!(#path);
                crate::hook::hook(&expr)
            })
    };
    let (before, after) = (hook("before"), hook("after"));
    let (setup, teardown) = (hook("setup"), hook("teardown"));
    let options = &spec.options;
    let options =
        (!options.is_empty()).then(|| quote!(__config.raw_callgrind_args([#(#options),*]);));
    let sandbox = spec.sandbox.as_ref().map(|s| quote!(__config.sandbox(#s);));
    let fixtures = spec.fixtures.as_ref().map(|(path, follow)| {
        let follow = follow.as_ref().map(|f| quote!(.follow_symlinks(#f)));
        quote!(__config.fixtures(::benchgrind::__private::Fixtures::new(#path) #follow);)
    });
    // `args` without an id get the ids `0`, `1`, ... in the order written.
    let mut unnamed = 0..;
    let runs: Vec<TokenStream> = spec
        .runs
        .iter()
        .map(|run| run_tokens(run, &mut unnamed))
        .collect();
    let measured = crate::hook::measured_hooks(&spec.measured);
    let workspace_root = crate::workspace::root().display().to_string();
    quote! {
        fn main() {
            static __BENCHGRIND_TABLE: &[&[&[fn()]]] = &[];
            ::benchgrind::__private::measured_process(__BENCHGRIND_TABLE);
            let mut __config = ::benchgrind::__private::BinaryBenchmarkConfig::default();
            #options
            #sandbox
            #fixtures
            let __group = ::benchgrind::__private::BinaryGroup {
                // No name: the header is `file id:program args`.
                name: "",
                config: ::core::option::Option::Some(__config),
                compare_by_id: false,
                max_parallel: ::core::option::Option::None,
                setup: #before,
                teardown: #after,
                benchmarks: ::benchgrind::__private::legacy_benchmarks(
                    ::benchgrind::__private::LegacyGroup {
                        cmd: ::core::option::Option::None,
                        setup: { let __setup: ::core::option::Option<fn()> = #setup; __setup },
                        teardown: {
                            let __teardown: ::core::option::Option<fn()> = #teardown;
                            __teardown
                        },
                    },
                    |__group: &mut ::benchgrind::__private::BinaryBenchmarkGroup| {
                        #(#runs)*
                    },
                ),
                measured_hooks: #measured,
            };
            ::benchgrind::__private::run(::benchgrind::__private::Main {
                package: ::core::env!("CARGO_PKG_NAME"),
                bench_file: ::core::env!("CARGO_CRATE_NAME"),
                manifest_dir: ::core::env!("CARGO_MANIFEST_DIR"),
                workspace_root: #workspace_root,
                config: ::core::option::Option::None,
                groups: ::std::vec::Vec::new(),
                binary_config: ::core::option::Option::None,
                binary_groups: ::std::vec![__group],
                setup: ::core::option::Option::None,
                teardown: ::core::option::Option::None,
            })
        }
    }
}

/// `group.bench(Run::with_cmd_args(cmd, [Arg::new(id, args), ...]).envs(...))` of one `run`.
fn run_tokens(run: &RunSpec, unnamed: &mut std::ops::RangeFrom<usize>) -> TokenStream {
    // A name as a string literal is the package's binary of that name when there is one.
    let cmd = match &run.cmd {
        Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(name),
            ..
        }) => {
            let key = LitStr::new(&format!("CARGO_BIN_EXE_{}", name.value()), name.span());
            quote!(::core::option::Option::unwrap_or(::core::option_env!(#key), #name))
        }
        other => quote!(#other),
    };
    let args = run.args.iter().map(|(id, args)| {
        let id = id.clone().unwrap_or_else(|| {
            let n = unnamed.next().expect("an endless range");
            LitStr::new(&n.to_string(), Span::call_site())
        });
        let items = args.elems.iter();
        quote! {
            ::benchgrind::__private::Arg::new(
                #id,
                ::std::vec::Vec::<::std::ffi::OsString>::from([
                    #(::std::ffi::OsString::from(#items)),*
                ]),
            )
        }
    });
    let envs = run.envs.as_ref().map(|e| quote!(.envs(#e)));
    quote! {
        __group.bench(::benchgrind::__private::Run::with_cmd_args(#cmd, [#(#args),*]) #envs);
    }
}
