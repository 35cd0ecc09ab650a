//! `main!(config = ...; library_benchmark_groups = a, b)`: the bench binary's `main`, which hands
//! everything registered to the runner.

use proc_macro2::{Span, TokenStream};
use quote::quote;

use crate::keyvalue::{parse_pairs, Value};

const KEYS: &[&str] = &["config", "library_benchmark_groups"];

pub fn expand(input: TokenStream) -> syn::Result<TokenStream> {
    let pairs = parse_pairs(input, "main!", KEYS, &["library_benchmark_groups"])?;
    let mut config = quote!(::core::option::Option::None);
    let mut groups = None;
    for pair in pairs {
        match pair.value {
            Value::Paths(paths) => groups = Some(paths),
            Value::Expr(e) => {
                config = quote! {
                    ::core::option::Option::Some(::core::convert::Into::<
                        ::benchgrind::__private::LibraryBenchmarkConfig,
                    >::into(#e))
                }
            }
        }
    }
    let Some(groups) = groups else {
        return Err(syn::Error::new(
            Span::call_site(),
            "main! needs `library_benchmark_groups = <groups>`",
        ));
    };
    Ok(quote! {
        fn main() {
            ::benchgrind::__private::run(::benchgrind::__private::Main {
                package: ::core::env!("CARGO_PKG_NAME"),
                bench_file: ::core::env!("CARGO_CRATE_NAME"),
                manifest_dir: ::core::env!("CARGO_MANIFEST_DIR"),
                config: #config,
                groups: ::std::vec![#(#groups()),*],
            })
        }
    })
}
