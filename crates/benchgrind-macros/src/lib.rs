//! The macros of benchgrind: `#[library_benchmark]` (with `#[bench]` and `#[benches]`),
//! `library_benchmark_group!` and `main!`.
//!
//! Stage 1 of the pipeline, register: the attributes and macro arguments become plain data
//! (`::benchgrind::__private::{Main, Group, Function, LibBench, ...}`) that the runner plans from.
//! Generated code names only absolute paths below `::benchgrind::__private`, and every misuse is
//! a compile error pointing at the offending token. Documented where `benchgrind` re-exports
//! them.

#![warn(missing_docs)]

mod attrs;
mod binary;
mod generics;
mod group;
mod hook;
mod keyvalue;
mod legacy_group;
mod library;
mod main_macro;
mod main_run;
mod manifest;
mod plain;
mod pretty;
mod renamed;
mod window;
mod workspace;

use proc_macro::TokenStream;

/// Turns a function into a library benchmark; see the `benchgrind` crate.
#[proc_macro_attribute]
pub fn library_benchmark(attr: TokenStream, item: TokenStream) -> TokenStream {
    let item = proc_macro2::TokenStream::from(item);
    renamed::rename(
        library::expand(attr.into(), item.clone())
            .unwrap_or_else(|e| stand_in(e, &item, Kind::Library)),
    )
    .into()
}

/// Which attribute a [`stand_in`] is for.
enum Kind {
    Library,
    Binary,
}

/// The error of a benchmark attribute, and in place of the function a module of its name with
/// the items groups and `main!` refer to, so that the error is the only one reported.
fn stand_in(
    error: syn::Error,
    item: &proc_macro2::TokenStream,
    kind: Kind,
) -> proc_macro2::TokenStream {
    let error = error.into_compile_error();
    let Ok(func) = syn::parse2::<syn::ItemFn>(item.clone()) else {
        return error;
    };
    let name = func.sig.ident;
    let items = match kind {
        Kind::Library => quote::quote! {
            pub fn __benchgrind_function() -> ::benchgrind::__private::Function {
                ::core::unreachable!()
            }
            pub const __BENCHGRIND_RUNS: &[fn()] = &[];
        },
        Kind::Binary => quote::quote! {
            pub fn __benchgrind_binary() -> ::benchgrind::__private::BinaryBenchmark {
                ::core::unreachable!()
            }
        },
    };
    quote::quote! {
        #error
        #[doc(hidden)]
        #[allow(non_snake_case, dead_code)]
        pub mod #name {
            #items
        }
    }
}

/// Declares a group of library benchmarks; see the `benchgrind` crate.
#[proc_macro]
pub fn library_benchmark_group(input: TokenStream) -> TokenStream {
    renamed::rename(
        group::expand(input.into(), group::Kind::Library)
            .unwrap_or_else(syn::Error::into_compile_error),
    )
    .into()
}

/// Turns a function returning a `Command` into a binary benchmark; see the `benchgrind` crate.
#[proc_macro_attribute]
pub fn binary_benchmark(attr: TokenStream, item: TokenStream) -> TokenStream {
    let item = proc_macro2::TokenStream::from(item);
    renamed::rename(
        binary::expand(attr.into(), item.clone())
            .unwrap_or_else(|e| stand_in(e, &item, Kind::Binary)),
    )
    .into()
}

/// Declares a group of binary benchmarks; see the `benchgrind` crate.
#[proc_macro]
pub fn binary_benchmark_group(input: TokenStream) -> TokenStream {
    renamed::rename(
        group::expand(input.into(), group::Kind::Binary)
            .unwrap_or_else(syn::Error::into_compile_error),
    )
    .into()
}

/// The `BinaryBenchmark` of a `#[binary_benchmark]` function, for the low-level API; see the
/// `benchgrind` crate.
#[proc_macro]
pub fn binary_benchmark_attribute(input: TokenStream) -> TokenStream {
    match syn::parse::<syn::Path>(input) {
        Ok(path) => quote::quote!(#path::__benchgrind_binary()).into(),
        Err(e) => syn::Error::new(
            e.span(),
            "binary_benchmark_attribute! takes the name of a #[binary_benchmark] function",
        )
        .into_compile_error()
        .into(),
    }
}

/// Generates the bench binary's `main`; see the `benchgrind` crate.
#[proc_macro]
pub fn main(input: TokenStream) -> TokenStream {
    // On error an empty `main` comes along, so the only error shown is the one that matters.
    renamed::rename(main_macro::expand(input.into()).unwrap_or_else(|e| {
        let error = e.into_compile_error();
        quote::quote! { #error fn main() {} }
    }))
    .into()
}
