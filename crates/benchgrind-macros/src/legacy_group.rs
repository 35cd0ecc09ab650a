//! iai-callgrind 0.10's `binary_benchmark_group!(name = ...; before = ...; after = ...;
//! setup = ...; teardown = ...; config = ...; benchmark = |"my-exe", group: &mut
//! BinaryBenchmarkGroup| ...)`.
//!
//! The closure fills the group with `Run`s; `legacy_benchmarks` turns them into ordinary
//! binary benchmarks. `before`/`after` run once around the group (the 0.13 group's
//! `setup`/`teardown`), `setup`/`teardown` around every command. The command name after `|`
//! becomes the package's binary of that name (`CARGO_BIN_EXE_<name>`) when there is one, else the
//! name as written (an absolute path or a program in `PATH`). `bench = true` after a hook
//! (`before = run_before, bench = true;`) measures it (the group's `measured_hooks`).

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::{Expr, Pat};

use crate::hook::{bench_flag, hook, measured_hooks, Measured};
use crate::keyvalue::{Pair, Value};

/// The keys of a 0.10 group, as tokens of the generated code.
struct Keys {
    name: Option<Expr>,
    config: TokenStream,
    before: TokenStream,
    after: TokenStream,
    setup: TokenStream,
    teardown: TokenStream,
    closure: Option<Expr>,
    /// The hooks given `bench = true`.
    measured: Vec<Measured>,
}

fn keys(pairs: Vec<Pair>) -> syn::Result<Keys> {
    let none = quote!(::core::option::Option::None);
    let mut k = Keys {
        name: None,
        config: none.clone(),
        before: none.clone(),
        after: none.clone(),
        setup: none.clone(),
        teardown: none,
        closure: None,
        measured: Vec::new(),
    };
    // The hook a `bench = ...` may follow.
    let mut last_hook: Option<(String, Expr)> = None;
    for pair in pairs {
        let key = pair.key.to_string();
        let hook_before = last_hook.take();
        if key == "bench" && hook_before.is_none() {
            return Err(syn::Error::new(
                pair.key.span(),
                "`bench = ...` belongs after a hook: `before = my_function, bench = true;`",
            ));
        }
        let Value::Expr(value) = pair.value else {
            return Err(syn::Error::new(
                pair.key.span(),
                format!("`{key}` takes an expression"),
            ));
        };
        match key.as_str() {
            "name" => k.name = Some(value),
            "config" => {
                k.config = quote! {
                    ::core::option::Option::Some(::core::convert::Into::<
                        ::benchgrind::__private::BinaryBenchmarkConfig,
                    >::into(#value))
                }
            }
            "before" | "after" | "setup" | "teardown" => {
                let tokens = hook(&value);
                match key.as_str() {
                    "before" => k.before = tokens,
                    "after" => k.after = tokens,
                    "setup" => k.setup = tokens,
                    _ => k.teardown = tokens,
                }
                last_hook = Some((key, value));
            }
            "benchmark" => k.closure = Some(value),
            // `bench = true` measures the hook before it; `false` is the default.
            "bench" => {
                if bench_flag(&value)? {
                    let (kind, expr) = hook_before.expect("checked above");
                    k.measured.push(Measured { kind, expr });
                }
            }
            other => {
                return Err(syn::Error::new(
                    pair.key.span(),
                    format!(
                        "`{other}` is not a key of iai-callgrind 0.10's binary_benchmark_group!; \
                         it takes: name, before, after, setup, teardown, config, benchmark"
                    ),
                ))
            }
        }
    }
    Ok(k)
}

/// The group's function, returning a `BinaryGroup` whose benchmarks the closure's `Run`s make.
pub fn expand(pairs: Vec<Pair>) -> syn::Result<TokenStream> {
    let Keys {
        name,
        config,
        before,
        after,
        setup,
        teardown,
        closure,
        measured,
    } = keys(pairs)?;
    let measured = measured_hooks(&measured);
    let Some(Expr::Path(name)) = name else {
        return Err(syn::Error::new(
            Span::call_site(),
            "binary_benchmark_group! needs `name = <identifier>`",
        ));
    };
    let Some(Expr::Closure(closure)) = closure else {
        return Err(syn::Error::new(
            Span::call_site(),
            "`benchmark` takes a closure: |\"my-exe\", group: &mut BinaryBenchmarkGroup| ...",
        ));
    };
    let (cmd, group) = command_and_group(&closure)?;
    let body = &closure.body;
    let name_str = quote!(#name).to_string();
    let group_type = crate::hook::group_type();
    Ok(quote! {
        #group_type

        #[doc(hidden)]
        // The seed's `|"my-exe", group: &mut BinaryBenchmarkGroup| {}` leaves `group` unused.
        #[allow(non_snake_case, unused_variables)]
        pub fn #name() -> ::benchgrind::__private::BinaryGroup {
            ::benchgrind::__private::BinaryGroup {
                name: #name_str,
                config: #config,
                compare_by_id: false,
                max_parallel: ::core::option::Option::None,
                setup: #before,
                teardown: #after,
                benchmarks: ::benchgrind::__private::legacy_benchmarks(
                    ::benchgrind::__private::LegacyGroup {
                        cmd: #cmd,
                        setup: { let __setup: ::core::option::Option<fn()> = #setup; __setup },
                        teardown: {
                            let __teardown: ::core::option::Option<fn()> = #teardown;
                            __teardown
                        },
                    },
                    |#group| {
                        let _ = #body;
                    },
                ),
                measured_hooks: #measured,
            }
        }
    })
}

/// The command (`Some("my-exe")`, the package's binary of that name when there is one) and the
/// group parameter of `|"my-exe", group: &mut BinaryBenchmarkGroup|` or `|group: ...|`.
fn command_and_group(closure: &syn::ExprClosure) -> syn::Result<(TokenStream, &Pat)> {
    let inputs: Vec<&Pat> = closure.inputs.iter().collect();
    match inputs.as_slice() {
        [group] => Ok((quote!(::core::option::Option::None), *group)),
        [Pat::Lit(lit), group] => {
            let syn::Lit::Str(cmd) = &lit.lit else {
                return Err(syn::Error::new_spanned(
                    lit,
                    "the command is a string literal",
                ));
            };
            let key = syn::LitStr::new(&format!("CARGO_BIN_EXE_{}", cmd.value()), cmd.span());
            let cmd = quote! {
                ::core::option::Option::Some(
                    ::core::option::Option::unwrap_or(::core::option_env!(#key), #cmd)
                )
            };
            Ok((cmd, *group))
        }
        _ => Err(syn::Error::new_spanned(
            &closure.inputs,
            "`benchmark` takes |\"my-exe\", group: &mut BinaryBenchmarkGroup| or \
             |group: &mut BinaryBenchmarkGroup|",
        )),
    }
}
