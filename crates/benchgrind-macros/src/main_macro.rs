//! `main!(config = ...; library_benchmark_groups = a, b)` or
//! `main!(config = ...; binary_benchmark_groups = a, b)`: the bench binary's `main`, which hands
//! everything registered to the runner.

use proc_macro2::{Span, TokenStream};
use quote::quote;

use crate::keyvalue::{parse_pairs, Value};
use crate::library::typed_config;

const KEYS: &[&str] = &[
    "config",
    "setup",
    "teardown",
    "library_benchmark_groups",
    "binary_benchmark_groups",
];

/// The bench binary's `main`, in whichever form `main!` was given.
pub fn expand(input: TokenStream) -> syn::Result<TokenStream> {
    if let Some(plain) = crate::plain::functions(&input)? {
        return Ok(crate::plain::expand(&plain));
    }
    if crate::main_run::applies(&input) {
        return crate::main_run::expand(input);
    }
    let pairs = parse_pairs(
        input,
        "main!",
        KEYS,
        &["library_benchmark_groups", "binary_benchmark_groups"],
    )?;
    let mut config = None;
    let mut library = None;
    let mut binary = None;
    let mut setup = quote!(::core::option::Option::None);
    let mut teardown = quote!(::core::option::Option::None);
    for pair in pairs {
        match (pair.key.to_string().as_str(), pair.value) {
            ("setup", Value::Expr(e)) => setup = crate::hook::hook(&e),
            ("teardown", Value::Expr(e)) => teardown = crate::hook::hook(&e),
            ("library_benchmark_groups", Value::Paths(paths)) => library = Some((pair.key, paths)),
            ("binary_benchmark_groups", Value::Paths(paths)) => binary = Some((pair.key, paths)),
            ("config", Value::Expr(e)) => config = Some(e),
            (_, Value::Expr(e)) => {
                return Err(syn::Error::new_spanned(e, "expected the names of groups"));
            }
            (_, Value::Paths(_)) => unreachable!("only the group keys take paths"),
        }
    }
    // The library groups' tables of bench code, for the measured process.
    let tables = library
        .as_ref()
        .map_or_else(Vec::new, |(_, groups)| runs_tables(groups));
    let [lib_config, lib_groups, bin_config, bin_groups] =
        by_kind(config.as_ref(), library, binary)?;
    let workspace_root = crate::workspace::root().display().to_string();
    Ok(quote! {
        fn main() {
            // Started by Valgrind to run benchmarks: only the static table is needed, so the
            // measured process's heap is the same whatever else this file registers.
            static __BENCHGRIND_TABLE: &[&[&[fn()]]] = &[#(#tables),*];
            ::benchgrind::__private::measured_process(__BENCHGRIND_TABLE);
            ::benchgrind::__private::run(::benchgrind::__private::Main {
                package: ::core::env!("CARGO_PKG_NAME"),
                bench_file: ::core::env!("CARGO_CRATE_NAME"),
                manifest_dir: ::core::env!("CARGO_MANIFEST_DIR"),
                workspace_root: #workspace_root,
                config: #lib_config,
                groups: #lib_groups,
                binary_config: #bin_config,
                binary_groups: #bin_groups,
                setup: #setup,
                teardown: #teardown,
            })
        }
    })
}

/// The tables of bench code of these library groups (`<group>::__BENCHGRIND_GROUP_RUNS`).
fn runs_tables(groups: &[syn::Path]) -> Vec<syn::Path> {
    groups
        .iter()
        .map(|path| syn::parse_quote!(#path::__BENCHGRIND_GROUP_RUNS))
        .collect()
}

/// The groups as `main!` names them: each runs, and is reported, under the last segment of its
/// path as written there (`use a::group as convex;` then `convex`), as iai-callgrind and
/// gungraun do, so that groups imported under other names from several modules are several
/// groups.
fn named_groups(groups: &[syn::Path]) -> TokenStream {
    let named = groups.iter().map(|path| {
        let name = path
            .segments
            .last()
            .map(|segment| segment.ident.to_string())
            .unwrap_or_default();
        quote!({
            let mut group = #path();
            group.name = #name;
            group
        })
    });
    quote!(::std::vec![#(#named),*])
}

/// A key and the groups it names.
type Groups = Option<(syn::Ident, Vec<syn::Path>)>;

/// The `Main` fields `config`, `groups`, `binary_config` and `binary_groups`: the config and
/// groups of the kind given, the other kind's empty. A file has one kind.
fn by_kind(
    config: Option<&syn::Expr>,
    library: Groups,
    binary: Groups,
) -> syn::Result<[TokenStream; 4]> {
    let none = quote!(::core::option::Option::None);
    let empty = quote!(::std::vec::Vec::new());
    match (library, binary) {
        (Some(_), Some((key, _))) => Err(syn::Error::new(
            key.span(),
            "library and binary benchmarks cannot share a bench file; put the binary \
             benchmark groups in a [[bench]] target of their own",
        )),
        (None, None) => Err(syn::Error::new(
            Span::call_site(),
            "main! needs `library_benchmark_groups = <groups>` or \
             `binary_benchmark_groups = <groups>`",
        )),
        (Some((_, groups)), None) => Ok([
            typed_config(
                config,
                quote!(::benchgrind::__private::LibraryBenchmarkConfig),
            ),
            named_groups(&groups),
            none,
            empty,
        ]),
        (None, Some((_, groups))) => Ok([
            none,
            empty,
            typed_config(
                config,
                quote!(::benchgrind::__private::BinaryBenchmarkConfig),
            ),
            named_groups(&groups),
        ]),
    }
}
