//! `library_benchmark_group!` and `binary_benchmark_group!` (`name = ...; config = ...;
//! compare_by_id = ...; max_parallel = ...; setup = ...; teardown = ...; benchmarks = a, b`, the
//! keys separated by `;` or `,`, the benchmarks also as a list `[a, b]`): a function named after
//! the group that returns the group's registration data. Binary groups also take the low-level
//! form `benchmarks = |group: &mut BinaryBenchmarkGroup| ...`.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::Expr;

use crate::hook::hook;
use crate::keyvalue::{parse_pairs, Pair, Value};
use crate::library::typed_config;

const KEYS: &[&str] = &[
    "name",
    "config",
    "compare_by_id",
    "max_parallel",
    "setup",
    "teardown",
    "benchmarks",
    // iai-callgrind 0.10's binary groups (`crate::legacy_group`).
    "benchmark",
    "before",
    "after",
    "bench",
];

/// Which kind of group.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `library_benchmark_group!`
    Library,
    /// `binary_benchmark_group!`
    Binary,
}

/// A group's function: its name, and the `Group`/`BinaryGroup` it returns.
pub fn expand(input: TokenStream, kind: Kind) -> syn::Result<TokenStream> {
    let macro_name = kind.macro_name();
    let pairs = parse_pairs(input, macro_name, KEYS, &["benchmarks"])?;
    if kind == Kind::Binary && pairs.iter().any(|p| p.key == "benchmark") {
        return crate::legacy_group::expand(pairs);
    }
    if let Some(pair) = pairs
        .iter()
        .find(|p| ["benchmark", "before", "after", "bench"].contains(&p.key.to_string().as_str()))
    {
        return Err(syn::Error::new(
            pair.key.span(),
            format!(
                "`{}` belongs to iai-callgrind 0.10's binary_benchmark_group! with \
                 `benchmark = |\"my-exe\", group: &mut BinaryBenchmarkGroup| ...`; {macro_name} \
                 with `benchmarks = ...` takes: name, config, compare_by_id, max_parallel, setup, \
                 teardown, benchmarks",
                pair.key
            ),
        ));
    }
    let keys = keys(pairs, kind)?;
    let name = &keys.name;
    let ty = match kind {
        Kind::Library => quote!(::benchgrind::__private::Group),
        Kind::Binary => quote!(::benchgrind::__private::BinaryGroup),
    };
    let body = body(&keys, kind);
    let table = match (kind, &keys.paths) {
        // In a module named as the group (beside its function), so that `pub use
        // inner::my_group;` takes both where `main!` looks for them.
        (Kind::Library, Some(paths)) => {
            // The paths as seen from the module: a relative one through `super::`.
            let paths = paths.iter().map(|path| {
                let first = path.segments.first().map(|s| s.ident.to_string());
                let absolute = path.leading_colon.is_some()
                    || matches!(first.as_deref(), Some("crate" | "super" | "self"));
                if absolute {
                    quote!(#path)
                } else {
                    quote!(super::#path)
                }
            });
            quote! {
                #[doc(hidden)]
                #[allow(non_snake_case)]
                pub mod #name {
                    pub const __BENCHGRIND_GROUP_RUNS: &[&[fn()]] =
                        &[#(#paths::__BENCHGRIND_RUNS),*];
                }
            }
        }
        // The low-level form's closure names the group's type (`|group: &mut
        // BinaryBenchmarkGroup|`); see `crate::hook::group_type`.
        (Kind::Binary, _) => crate::hook::group_type(),
        (Kind::Library, None) => quote!(),
    };
    Ok(quote! {
        #[doc(hidden)]
        #[allow(non_snake_case)]
        pub fn #name() -> #ty {
            #body
        }

        #table
    })
}

impl Kind {
    fn macro_name(self) -> &'static str {
        match self {
            Kind::Library => "library_benchmark_group!",
            Kind::Binary => "binary_benchmark_group!",
        }
    }
}

/// A group's keys, as tokens of the generated code.
struct Keys {
    name: syn::Ident,
    config: TokenStream,
    compare_by_id: TokenStream,
    max_parallel: TokenStream,
    setup: TokenStream,
    teardown: TokenStream,
    benchmarks: TokenStream,
    /// The benchmark functions of `benchmarks = a, b` (not of the closure form).
    paths: Option<Vec<syn::Path>>,
}

/// The keys of a group; `name` and `benchmarks` must be there.
fn keys(pairs: Vec<Pair>, kind: Kind) -> syn::Result<Keys> {
    let none = quote!(::core::option::Option::None);
    let (mut name, mut benchmarks, mut paths) = (None, None, None);
    let mut config = none.clone();
    let mut compare_by_id = quote!(false);
    let mut max_parallel = none.clone();
    let mut setup = none.clone();
    let mut teardown = none;
    let config_ty = match kind {
        Kind::Library => quote!(::benchgrind::__private::LibraryBenchmarkConfig),
        Kind::Binary => quote!(::benchgrind::__private::BinaryBenchmarkConfig),
    };
    for pair in pairs {
        let key = pair.key.to_string();
        match (key.as_str(), pair.value) {
            ("benchmarks", Value::Paths(list)) => {
                benchmarks = Some(match kind {
                    Kind::Library => {
                        quote!(::std::vec![#(#list::__benchgrind_function()),*])
                    }
                    Kind::Binary => quote!(::std::vec![#(#list::__benchgrind_binary()),*]),
                });
                paths = Some(list);
            }
            ("benchmarks", Value::Expr(closure)) => benchmarks = Some(closure_form(kind, closure)?),
            ("name", Value::Expr(Expr::Path(p))) if p.path.get_ident().is_some() => {
                name = p.path.get_ident().cloned();
            }
            ("name", Value::Expr(other)) => {
                return Err(syn::Error::new_spanned(
                    other,
                    "`name` takes an identifier: name = my_group",
                ))
            }
            ("config", Value::Expr(e)) => config = typed_config(Some(&e), config_ty.clone()),
            ("compare_by_id", Value::Expr(e)) => compare_by_id = quote!(#e),
            // A `usize`, checked where it is written; 0 is no limit, as in gungraun.
            ("max_parallel", Value::Expr(e)) => {
                max_parallel = quote! {
                    ::core::option::Option::Some({
                        let __max_parallel: usize = #e;
                        __max_parallel
                    })
                }
            }
            ("setup", Value::Expr(e)) => setup = hook(&e),
            ("teardown", Value::Expr(e)) => teardown = hook(&e),
            _ => unreachable!("parse_pairs only returns known keys"),
        }
    }
    let needs = |key: &str| {
        syn::Error::new(
            Span::call_site(),
            format!("{} needs `{key}`", kind.macro_name()),
        )
    };
    Ok(Keys {
        name: name.ok_or_else(|| needs("name = <identifier>"))?,
        config,
        compare_by_id,
        max_parallel,
        setup,
        teardown,
        benchmarks: benchmarks.ok_or_else(|| needs("benchmarks = ..."))?,
        paths,
    })
}

/// `benchmarks = |group: &mut BinaryBenchmarkGroup| ...`, the low-level form of binary groups.
/// Whatever the closure's body ends in (the group, from a chain of calls, or nothing, from
/// statements or a function that returns `()`), its value is dropped: the body runs in a closure
/// that returns nothing. Another expression (a function's path) is called the same way.
fn closure_form(kind: Kind, closure: Expr) -> syn::Result<TokenStream> {
    if kind == Kind::Library {
        return Err(syn::Error::new_spanned(
            closure,
            "`benchmarks` takes the #[library_benchmark] functions: `benchmarks = [first, \
             second]` or `benchmarks = first, second`",
        ));
    }
    let closure: Expr = match closure {
        Expr::Closure(mut closure) => {
            let body = &closure.body;
            closure.body = Box::new(syn::parse_quote!({
                #[allow(clippy::let_unit_value)]
                let _ = #body;
            }));
            closure.output = syn::ReturnType::Default;
            Expr::Closure(closure)
        }
        other => syn::parse_quote!(|group: &mut ::benchgrind::__private::BinaryBenchmarkGroup| {
            #[allow(clippy::let_unit_value)]
            let _ = (#other)(group);
        }),
    };
    Ok(quote! {
        ::benchgrind::__private::benchmarks_from_statements(#closure)
    })
}

/// The `Group` or `BinaryGroup` value the group's function returns.
fn body(keys: &Keys, kind: Kind) -> TokenStream {
    let Keys {
        name,
        config,
        compare_by_id,
        max_parallel,
        setup,
        teardown,
        benchmarks,
        ..
    } = keys;
    let name_str = name.to_string();
    match kind {
        Kind::Library => quote! {
            ::benchgrind::__private::Group {
                name: #name_str,
                config: #config,
                compare_by_id: #compare_by_id,
                max_parallel: #max_parallel,
                setup: #setup,
                teardown: #teardown,
                functions: #benchmarks,
            }
        },
        Kind::Binary => quote! {
            ::benchgrind::__private::BinaryGroup {
                name: #name_str,
                config: #config,
                compare_by_id: #compare_by_id,
                max_parallel: #max_parallel,
                setup: #setup,
                teardown: #teardown,
                benchmarks: #benchmarks,
                measured_hooks: &[],
            }
        },
    }
}
