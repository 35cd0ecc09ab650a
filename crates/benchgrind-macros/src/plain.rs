//! `main!(bench_a, bench_b)`: the form of Iai and iai-callgrind 0.1, over plain functions, and
//! its later spelling `main!(callgrind_args = "--arg", ...; functions = bench_a, bench_b)`.
//!
//! Each function takes no argument (it may return a value) and is one benchmark whose id is its
//! name. They become one library group without a name, so that the report's header line is the
//! function's name alone, as those versions printed it; everything after registration (plan,
//! measured window, report) is that of library benchmarks.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::parse::{ParseStream, Parser};
use syn::punctuated::Punctuated;
use syn::{Ident, LitStr, Path, Token};

/// `main!` over plain functions: the functions and the Callgrind arguments for all of them.
pub struct Plain {
    pub functions: Vec<Path>,
    pub callgrind_args: Vec<LitStr>,
}

/// The plain-function forms, or `None` when the input is the `key = value` form of groups.
pub fn functions(input: &TokenStream) -> syn::Result<Option<Plain>> {
    let parser = Punctuated::<Path, Token![,]>::parse_terminated;
    if let Ok(list) = parser.parse2(input.clone()) {
        if !list.is_empty() {
            return Ok(Some(Plain {
                functions: list.into_iter().collect(),
                callgrind_args: Vec::new(),
            }));
        }
    }
    let first = input.clone().into_iter().next().map(|t| t.to_string());
    if !matches!(first.as_deref(), Some("callgrind_args" | "functions")) {
        return Ok(None);
    }
    keyed.parse2(input.clone()).map(Some)
}

/// `callgrind_args = "a", "b"; functions = f, g` (either part may come first).
fn keyed(input: ParseStream) -> syn::Result<Plain> {
    let mut plain = Plain {
        functions: Vec::new(),
        callgrind_args: Vec::new(),
    };
    while !input.is_empty() {
        let key: Ident = input.parse()?;
        input.parse::<Token![=]>()?;
        match key.to_string().as_str() {
            "callgrind_args" => {
                while input.peek(LitStr) {
                    plain.callgrind_args.push(input.parse()?);
                    if input.peek(Token![,]) {
                        input.parse::<Token![,]>()?;
                    }
                }
            }
            "functions" => {
                while input.peek(Ident) || input.peek(Token![::]) {
                    plain.functions.push(input.parse()?);
                    if input.peek(Token![,]) {
                        input.parse::<Token![,]>()?;
                    }
                }
            }
            other => {
                return Err(syn::Error::new(
                    key.span(),
                    format!(
                        "unknown key `{other}` in main!(callgrind_args = ...; functions = ...); \
                         expected callgrind_args or functions"
                    ),
                ))
            }
        }
        if input.peek(Token![;]) {
            input.parse::<Token![;]>()?;
        }
    }
    if plain.functions.is_empty() {
        return Err(input.error("main! needs `functions = <benchmark functions>`"));
    }
    Ok(plain)
}

/// `Some(config)` with the Callgrind arguments, or `None`.
fn config(args: &[LitStr]) -> TokenStream {
    if args.is_empty() {
        return quote!(::core::option::Option::None);
    }
    quote! {
        ::core::option::Option::Some(
            ::benchgrind::__private::LibraryBenchmarkConfig::default()
                .raw_callgrind_args([#(#args),*])
                .clone()
        )
    }
}

/// The bench binary's `main` for plain functions.
pub fn expand(plain: &Plain) -> TokenStream {
    let functions = &plain.functions;
    let config = config(&plain.callgrind_args);
    let runs: Vec<_> = functions
        .iter()
        .enumerate()
        .map(|(i, path)| {
            let run = format_ident!("__benchgrind_plain_{}", i);
            // Called through a pointer the optimizer cannot see through, as library benchmarks
            // are, so the call stays inside the measured window.
            let item = quote! {
                fn #run() {
                    let __function = ::benchgrind::__private::black_box(#path as fn() -> _);
                    let __out = ::benchgrind::__private::measure(move || __function());
                    ::core::mem::drop(::benchgrind::__private::black_box(__out));
                }
            };
            (run, item)
        })
        .collect();
    let names: Vec<_> = runs.iter().map(|(run, _)| run).collect();
    let items = runs.iter().map(|(_, item)| item);
    let entries = functions.iter().zip(&names).map(|(path, run)| {
        let name = path
            .segments
            .last()
            .map(|s| s.ident.to_string())
            .unwrap_or_default();
        quote! {
            ::benchgrind::__private::Function {
                name: #name,
                path: ::core::concat!(::core::module_path!(), "::", #name),
                config: ::core::option::Option::None,
                benches: ::std::vec![::benchgrind::__private::LibBench {
                    id: ::core::option::Option::None,
                    args: "",
                    config: ::core::option::Option::None,
                    run: #run,
                    iter: ::core::option::Option::None,
                }],
            }
        }
    });
    let workspace_root = crate::workspace::root().display().to_string();
    quote! {
        #(#items)*

        fn main() {
            static __BENCHGRIND_TABLE: &[&[&[fn()]]] = &[&[#(&[#names]),*]];
            ::benchgrind::__private::measured_process(__BENCHGRIND_TABLE);
            ::benchgrind::__private::run(::benchgrind::__private::Main {
                package: ::core::env!("CARGO_PKG_NAME"),
                bench_file: ::core::env!("CARGO_CRATE_NAME"),
                manifest_dir: ::core::env!("CARGO_MANIFEST_DIR"),
                workspace_root: #workspace_root,
                config: #config,
                groups: ::std::vec![::benchgrind::__private::Group {
                    // No name: the header is the function's name alone.
                    name: "",
                    config: ::core::option::Option::None,
                    compare_by_id: false,
                    max_parallel: ::core::option::Option::None,
                    setup: ::core::option::Option::None,
                    teardown: ::core::option::Option::None,
                    functions: ::std::vec![#(#entries),*],
                }],
                binary_config: ::core::option::Option::None,
                binary_groups: ::std::vec::Vec::new(),
                setup: ::core::option::Option::None,
                teardown: ::core::option::Option::None,
            })
        }
    }
}
