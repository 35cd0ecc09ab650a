//! `main!(bench_a, bench_b)`: the form of Iai and iai-callgrind 0.1, over plain functions.
//!
//! Each function takes no argument (it may return a value) and is one benchmark whose id is its
//! name. They become one library group without a name, so that the report's header line is the
//! function's name alone, as those versions printed it; everything after registration (plan,
//! measured window, report) is that of library benchmarks.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::parse::Parser;
use syn::punctuated::Punctuated;
use syn::{Path, Token};

/// The functions of `main!(a, b, ...)`, or `None` when the input is the `key = value` form.
pub fn functions(input: &TokenStream) -> syn::Result<Option<Vec<Path>>> {
    let parser = Punctuated::<Path, Token![,]>::parse_terminated;
    match parser.parse2(input.clone()) {
        Ok(list) if !list.is_empty() => Ok(Some(list.into_iter().collect())),
        _ => Ok(None),
    }
}

/// The bench binary's `main` for plain functions.
pub fn expand(functions: &[Path]) -> TokenStream {
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
                config: ::core::option::Option::None,
                groups: ::std::vec![::benchgrind::__private::Group {
                    // No name: the header is the function's name alone.
                    name: "",
                    config: ::core::option::Option::None,
                    compare_by_id: false,
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
