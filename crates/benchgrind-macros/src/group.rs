//! `library_benchmark_group!(name = ...; config = ...; compare_by_id = ...; setup = ...;
//! teardown = ...; benchmarks = a, b)`: a function named after the group that returns the
//! group's registration data.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::Expr;

use crate::keyvalue::{parse_pairs, Value};

const KEYS: &[&str] = &[
    "name",
    "config",
    "compare_by_id",
    "setup",
    "teardown",
    "benchmarks",
];

pub fn expand(input: TokenStream) -> syn::Result<TokenStream> {
    let pairs = parse_pairs(input, "library_benchmark_group!", KEYS, &["benchmarks"])?;
    let mut name = None;
    let mut config = quote!(::core::option::Option::None);
    let mut compare_by_id = quote!(false);
    let mut setup = quote!(::core::option::Option::None);
    let mut teardown = quote!(::core::option::Option::None);
    let mut benchmarks = None;
    for pair in pairs {
        let key = pair.key.to_string();
        match (key.as_str(), pair.value) {
            ("benchmarks", Value::Paths(paths)) => benchmarks = Some(paths),
            ("name", Value::Expr(Expr::Path(p))) if p.path.get_ident().is_some() => {
                name = p.path.get_ident().cloned();
            }
            ("name", Value::Expr(other)) => {
                return Err(syn::Error::new_spanned(
                    other,
                    "`name` takes an identifier: name = my_group",
                ))
            }
            ("config", Value::Expr(e)) => {
                config = quote! {
                    ::core::option::Option::Some(::core::convert::Into::<
                        ::benchgrind::__private::LibraryBenchmarkConfig,
                    >::into(#e))
                }
            }
            ("compare_by_id", Value::Expr(e)) => compare_by_id = quote!(#e),
            ("setup", Value::Expr(e)) => {
                setup = quote! {{
                    let __setup: fn() = || { let _ = #e; };
                    ::core::option::Option::Some(__setup)
                }}
            }
            ("teardown", Value::Expr(e)) => {
                teardown = quote! {{
                    let __teardown: fn() = || { let _ = #e; };
                    ::core::option::Option::Some(__teardown)
                }}
            }
            _ => unreachable!("parse_pairs only returns known keys"),
        }
    }
    let Some(name) = name else {
        return Err(syn::Error::new(
            Span::call_site(),
            "library_benchmark_group! needs `name = <identifier>`",
        ));
    };
    let Some(benchmarks) = benchmarks else {
        return Err(syn::Error::new(
            Span::call_site(),
            "library_benchmark_group! needs `benchmarks = <#[library_benchmark] functions>`",
        ));
    };
    let name_str = name.to_string();
    Ok(quote! {
        #[doc(hidden)]
        #[allow(non_snake_case)]
        pub fn #name() -> ::benchgrind::__private::Group {
            ::benchgrind::__private::Group {
                name: #name_str,
                config: #config,
                compare_by_id: #compare_by_id,
                setup: #setup,
                teardown: #teardown,
                functions: ::std::vec![#(#benchmarks::__benchgrind_function()),*],
            }
        }
    })
}
