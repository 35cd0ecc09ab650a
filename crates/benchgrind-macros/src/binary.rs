//! `#[binary_benchmark]` with its `#[bench::id(...)]` and `#[benches::id(...)]` attributes.
//!
//! The function builds the `Command` to measure and is called when the benchmarks are
//! registered, not measured. A module of the same name is generated beside it;
//! `__benchgrind_binary()` returns the benchmark with one bench per attribute (per element of
//! `#[benches]`). `setup`/`teardown` given as a path are called with the bench's arguments;
//! given as any other expression they are evaluated as written.

use std::collections::HashMap;

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::{Attribute, Expr, ItemFn};

use crate::attrs::{
    arguments_without_bench, attr_id, bench_args, bench_attr_kind, check_count, duplicate_id,
    parse_defaults, parse_raw, read_lines, Defaults, Kind,
};
use crate::library::check_signature;

/// One bench after `#[benches]` is spread out.
struct Case {
    id: Option<String>,
    args: Vec<Expr>,
    config: Option<Expr>,
    setup: Option<Expr>,
    teardown: Option<Expr>,
    /// The const generic values (`consts = ...`), empty without.
    consts: Vec<Expr>,
    /// `iter = expr`: one bench per item, evaluated when the benchmarks are registered.
    iter: Option<Expr>,
}

/// The function as written, and a module of the same name whose `__benchgrind_binary()`
/// returns its benchmark.
pub fn expand(attr: TokenStream, item: TokenStream) -> syn::Result<TokenStream> {
    let mut func: ItemFn = syn::parse2(item)?;
    let defaults = parse_defaults(attr, "#[binary_benchmark]")?;
    check_signature(&func, "#[binary_benchmark]")?;
    let name = func.sig.ident.clone();
    let mut tracked = Vec::new();
    let cases = cases(&mut func, &defaults, &mut tracked)?;
    let benches = cases.iter().map(|case| bench_tokens(case, &func.sig));
    let name_str = name.to_string();
    let config = defaults.config.as_ref().map(|c| {
        quote!(__benchmark.config(::core::convert::Into::<
            ::benchgrind::__private::BinaryBenchmarkConfig,
        >::into(#c));)
    });
    Ok(quote! {
        #func

        #[doc(hidden)]
        #[allow(non_snake_case, unused_imports, clippy::all)]
        pub mod #name {
            use super::*;

            pub fn __benchgrind_binary() -> ::benchgrind::__private::BinaryBenchmark {
                let mut __benchmark = ::benchgrind::__private::BinaryBenchmark::new(#name_str);
                #config
                #(#benches)*
                __benchmark
            }

            // Rebuild when a `file = ...` input changes.
            #(const _: &str = ::core::include_str!(#tracked);)*
        }
    })
}

/// The benches of the function's `#[bench]`/`#[benches]` attributes (which are taken off it),
/// or its one bench without an id when it has none; `tracked` collects the `file = ...` inputs.
fn cases(
    func: &mut ItemFn,
    defaults: &Defaults,
    tracked: &mut Vec<String>,
) -> syn::Result<Vec<Case>> {
    let params = func.sig.inputs.len();
    let name = func.sig.ident.clone();
    let generics = func.sig.generics.clone();
    let mut cases = Vec::new();
    let mut seen: HashMap<String, Span> = HashMap::new();
    let mut kept = Vec::new();
    for attr in std::mem::take(&mut func.attrs) {
        let Some(kind) = bench_attr_kind(&attr) else {
            kept.push(attr);
            continue;
        };
        let (_, span) = attr_id(&attr);
        for case in cases_of(&attr, kind, defaults, (params, &name, &generics), tracked)? {
            let case_id = case.id.clone().unwrap_or_default();
            if case.iter.is_none() {
                check_count(span, &case_id, &name, case.args.len(), params, false)?;
            }
            if seen.insert(case_id.clone(), span).is_some() {
                return Err(duplicate_id(span, &case_id, &name, "binary"));
            }
            cases.push(case);
        }
    }
    func.attrs = kept;
    if cases.is_empty() {
        if params != 0 {
            return Err(arguments_without_bench(&name));
        }
        cases.push(Case {
            id: None,
            args: Vec::new(),
            config: None,
            setup: defaults.setup.clone(),
            teardown: defaults.teardown.clone(),
            consts: Vec::new(),
            iter: None,
        });
    }
    Ok(cases)
}

/// `__benchmark.bench(...)` of one case: its command, hooks and config, and its arguments as
/// written for the header.
fn bench_tokens(case: &Case, sig: &syn::Signature) -> TokenStream {
    let name = &sig.ident;
    let config_ty = quote!(::benchgrind::__private::BinaryBenchmarkConfig);
    let turbofish = crate::generics::turbofish(&sig.generics, &case.consts);
    let mut args = case.args.clone();
    let mut new = match &case.id {
        Some(id) => quote!(::benchgrind::__private::Bench::new(#id)),
        None => quote!(::benchgrind::__private::bench_without_id()),
    };
    // With `iter` the bench is made per item, in a loop: the item's parts are the arguments.
    let mut take_item = TokenStream::new();
    if case.iter.is_some() {
        let id = case.id.clone().unwrap_or_default();
        new = quote!(::benchgrind::__private::Bench::new(
            ::std::format!("{}_{}", #id, __index)
        ));
        args = (0..sig.inputs.len())
            .map(|i| {
                let ident = quote::format_ident!("__arg{}", i);
                syn::parse_quote!(#ident)
            })
            .collect();
        take_item = if args.len() == 1 {
            quote!(let __arg0 = __item;)
        } else {
            quote!(let (#(#args),*) = __item;)
        };
    }
    let args = &args;
    let setup = case.setup.as_ref().map(|s| {
        let hook = hook(s, args);
        quote!(.setup(#hook))
    });
    let teardown = case.teardown.as_ref().map(|t| {
        let hook = hook(t, args);
        quote!(.teardown(#hook))
    });
    let config = case
        .config
        .as_ref()
        .map(|c| quote!(.config(::core::convert::Into::<#config_ty>::into(#c))));
    let shown: Vec<&Expr> = match &case.iter {
        Some(iter) => vec![iter],
        None => args.iter().collect(),
    };
    let display = shown
        .iter()
        .map(|a| {
            crate::pretty::tokens(&quote::ToTokens::to_token_stream(a))
                .replace("::std::string::String::from(", "String::from(")
        })
        .collect::<Vec<_>>()
        .join(", ");
    let display = crate::generics::with_args(&case.consts, display);
    let bench = quote! {
        __benchmark.bench(
            ::benchgrind::__private::bench_with_args_display(#new, #display)
                .command(super::#name #turbofish(#(#args),*)) #setup #teardown #config
        );
    };
    match &case.iter {
        Some(iter) => quote! {
            for (__index, __item) in ::core::iter::Iterator::enumerate(
                ::core::iter::IntoIterator::into_iter(#iter),
            ) {
                #take_item
                #bench
            }
        },
        None => bench,
    }
}

/// A hook as a `fn()`: a path is called with the bench's arguments, anything else is evaluated.
fn hook(expr: &Expr, args: &[Expr]) -> TokenStream {
    let body = match expr {
        Expr::Path(_) => quote! { (#expr)(#(#args),*); },
        other => quote! { let _ = #other; },
    };
    quote! {{
        let __hook: fn() = || { #body };
        __hook
    }}
}

fn cases_of(
    attr: &Attribute,
    kind: Kind,
    defaults: &Defaults,
    (params, name, generics): (usize, &syn::Ident, &syn::Generics),
    tracked: &mut Vec<String>,
) -> syn::Result<Vec<Case>> {
    let (id, span) = attr_id(attr);
    let raw = parse_raw(attr, matches!(kind, Kind::Benches))?;
    let setup = raw.setup.clone().or_else(|| defaults.setup.clone());
    let teardown = raw.teardown.clone().or_else(|| defaults.teardown.clone());
    let case = |id: String, args: Vec<Expr>, consts: Vec<Expr>| Case {
        id: Some(id),
        args,
        config: raw.config.clone(),
        setup: setup.clone(),
        teardown: teardown.clone(),
        consts,
        iter: None,
    };
    let consts = match (&raw.consts, &kind) {
        (None, _) => Vec::new(),
        (Some(written), Kind::Bench) => vec![crate::generics::values(written)],
        (Some(written), Kind::Benches) => crate::generics::list(written)?,
    };
    if let Some(written) = &raw.consts {
        for values in &consts {
            crate::generics::check(generics, values, written, name)?;
        }
    }
    match kind {
        Kind::Bench => {
            let args = bench_args(raw.args.clone(), raw.positional.clone(), params == 1);
            Ok(vec![case(
                id,
                args,
                consts.into_iter().next().unwrap_or_default(),
            )])
        }
        Kind::Benches if raw.iter.is_some() => {
            iter_case(&raw, case(id, Vec::new(), Vec::new()), consts, params, name)
        }
        Kind::Benches => {
            let mut elements: Vec<Vec<Expr>> = Vec::new();
            if let Some(file) = &raw.file {
                let (path, lines) = read_lines(file)?;
                tracked.push(path);
                // Each line as a `String`, as library benchmarks and iai-callgrind 0.13 pass it.
                for line in lines {
                    elements.push(vec![syn::parse_quote!(::std::string::String::from(#line))]);
                }
            } else {
                let list = match raw.args.clone() {
                    Some(Expr::Array(array)) => array.elems.into_iter().collect(),
                    Some(other) => {
                        return Err(syn::Error::new_spanned(
                            other,
                            "#[benches] takes `args = [...]`: an array with the arguments of \
                             each bench",
                        ))
                    }
                    None => raw.positional.clone(),
                };
                for expr in list {
                    elements.push(match expr {
                        Expr::Tuple(t) => t.elems.into_iter().collect(),
                        other => vec![other],
                    });
                }
            }
            if elements.is_empty() && consts.is_empty() {
                return Err(syn::Error::new(
                    span,
                    format!("#[benches::{id}] has no arguments, so it makes no benchmark"),
                ));
            }
            let elements = match &raw.consts {
                Some(written) => crate::generics::pair(elements, consts, written)?,
                None => elements.into_iter().map(|e| (e, Vec::new())).collect(),
            };
            Ok(elements
                .into_iter()
                .enumerate()
                .map(|(i, (args, consts))| case(format!("{id}_{i}"), args, consts))
                .collect())
        }
    }
}

/// The one case of `#[benches::id(iter = ...)]`, which makes a bench per item when the
/// benchmarks are registered: the item is the function's argument (a tuple of them for several
/// parameters). Its setup and teardown are evaluated as written: a `fn()` cannot take the item.
fn iter_case(
    raw: &crate::attrs::Raw,
    mut case: Case,
    mut consts: Vec<Vec<Expr>>,
    params: usize,
    name: &syn::Ident,
) -> syn::Result<Vec<Case>> {
    let iter = raw.iter.clone().expect("an iter case");
    if consts.len() > 1 {
        return Err(syn::Error::new_spanned(
            &raw.consts,
            "with `iter`, `consts` takes one instantiation for every item: `consts = [4]`",
        ));
    }
    if params == 0 {
        return Err(syn::Error::new_spanned(
            &iter,
            format!(
                "`iter` gives each bench of `{name}` its arguments, but `{name}` takes none; \
                 give it a parameter for the item"
            ),
        ));
    }
    for hook in [&case.setup, &case.teardown].into_iter().flatten() {
        if matches!(hook, Expr::Path(_)) {
            return Err(syn::Error::new_spanned(
                hook,
                "with `iter`, a binary bench's setup and teardown cannot be given the item; \
                 write the hook as an expression to evaluate, e.g. `setup = prepare()`",
            ));
        }
    }
    case.consts = consts.pop().unwrap_or_default();
    case.iter = Some(iter);
    Ok(vec![case])
}
