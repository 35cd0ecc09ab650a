//! `#[library_benchmark]` with its `#[bench::id(...)]` and `#[benches::id(...)]` attributes.
//!
//! The function keeps its signature and body, never inlined, with the measured window opened
//! inside it: its body runs in a closure that [`window`](benchgrind::__private::window) brackets
//! with the requests when a bench has just armed it, so the arguments are in place before the
//! window opens and the return value is dropped after it closes; called anywhere else, it runs
//! as written. A module of the same name is generated beside it: `__benchgrind_function()`
//! returns its registration data and one `__run_N` per bench does setup, the call and teardown.

use std::collections::HashMap;

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, ToTokens};
use syn::spanned::Spanned;
use syn::{Attribute, Expr, FnArg, ItemFn, ReturnType, Type};

use crate::attrs::{
    arguments_without_bench, attr_id, bench_args, bench_attr_kind, check_count, duplicate_id,
    parse_defaults, parse_raw, read_lines, Defaults, Kind,
};
use crate::{generics, pretty};

/// One bench after `#[benches]` is spread out.
struct BenchCase {
    id: String,
    /// Arguments for setup (when there is one) or for the function.
    args: Vec<Expr>,
    /// Shown in the header line.
    display: String,
    config: Option<Expr>,
    setup: Option<Expr>,
    teardown: Option<Expr>,
    /// The const generic values (`consts = ...`), empty without.
    consts: Vec<Expr>,
    /// `iter = expr`: the bench stands for one bench per item, `id` is their ids' stem.
    iter: Option<Expr>,
}

/// The function as written (kept out of line), and a module of the same name with its
/// registration (`__benchgrind_function()`) and the benches' code (`__BENCHGRIND_RUNS`).
pub fn expand(attr: TokenStream, item: TokenStream) -> syn::Result<TokenStream> {
    let mut func: ItemFn = syn::parse2(item)?;
    let defaults = parse_defaults(attr, "#[library_benchmark]")?;
    check_signature(&func, "#[library_benchmark]")?;
    let name = func.sig.ident.clone();
    let mut tracked = Vec::new();
    let cases = cases(&mut func, &defaults, &mut tracked)?;
    let no_id = cases.len() == 1 && cases[0].id.is_empty();

    let fn_ptr = fn_pointer_type(&func);
    let mut runs = Vec::new();
    let mut run_names = Vec::new();
    let mut entries = Vec::new();
    for (i, case) in cases.iter().enumerate() {
        let run = format_ident!("__run_{}", i);
        run_names.push(run.clone());
        let body = run_body(&func, case, fn_ptr.as_ref());
        runs.push(quote! { fn #run() { #body } });
        let iter = match &case.iter {
            Some(expr) => {
                let count = format_ident!("__count_{}", i);
                runs.push(quote! {
                    fn #count() -> usize {
                        ::core::iter::Iterator::count(::core::iter::IntoIterator::into_iter(#expr))
                    }
                });
                quote!(::core::option::Option::Some(#count))
            }
            None => quote!(::core::option::Option::None),
        };
        let id = if no_id {
            quote!(::core::option::Option::None)
        } else {
            let id = &case.id;
            quote!(::core::option::Option::Some(#id))
        };
        let display = &case.display;
        let config = config_tokens(case.config.as_ref());
        entries.push(quote! {
            ::benchgrind::__private::LibBench {
                id: #id, args: #display, config: #config, run: #run, iter: #iter,
            }
        });
    }
    let fn_config = config_tokens(defaults.config.as_ref());
    let name_str = name.to_string();
    // Never inlined, whatever the function said: the window and DHAT's frame need its own
    // frame (a second `inline` attribute would also be a warning).
    func.attrs.retain(|a| !a.path().is_ident("inline"));
    func.attrs.push(syn::parse_quote!(#[inline(never)]));
    crate::window::open_window_inside(&mut func);
    // `super::<name>::__BENCHGRIND_RUNS`, every token spanned at the user's name.
    let parent = syn::Ident::new("super", name.span());
    let qualified = quote::quote_spanned! {name.span()=>
        const _: &[fn()] = #parent::#name::__BENCHGRIND_RUNS;
    };
    Ok(quote! {
        #func

        #[doc(hidden)]
        #[allow(non_snake_case, unused_imports, clippy::all)]
        pub mod #name {
            use super::*;

            pub fn __benchgrind_function() -> ::benchgrind::__private::Function {
                ::benchgrind::__private::Function {
                    name: #name_str,
                    // This module is named after the function and sits next to it, so its
                    // path is the function's: what Valgrind's tools print in stacks.
                    path: ::core::module_path!(),
                    config: #fn_config,
                    benches: ::std::vec![#(#entries),*],
                }
            }

            /// The benches' code in registration order: the measured process finds its bench
            /// here, without building the registration data on the heap.
            pub const __BENCHGRIND_RUNS: &[fn()] = &[#(#run_names),*];

            #(#runs)*

            // One needless qualification, written at the function's name: gungraun's and
            // iai-callgrind's expansions raise `unused_qualifications` there, so a file that turns
            // the lint on expects it (`#[expect(unused_qualifications)]`), and an expectation
            // nothing meets is a warning of its own.
            #qualified

            // Rebuild when a `file = ...` input changes.
            #(const _: &str = ::core::include_str!(#tracked);)*
        }
    })
}

/// The benches of the function's `#[bench]`/`#[benches]` attributes (which are taken off it),
/// or its one bench without an id (an empty `id`) when it has none; `tracked` collects the
/// `file = ...` inputs.
fn cases(
    func: &mut ItemFn,
    defaults: &Defaults,
    tracked: &mut Vec<String>,
) -> syn::Result<Vec<BenchCase>> {
    let sig = func.sig.clone();
    let mut cases = Vec::new();
    let mut seen: HashMap<String, Span> = HashMap::new();
    let mut kept = Vec::new();
    for attr in std::mem::take(&mut func.attrs) {
        let kind = bench_attr_kind(&attr);
        let Some(kind) = kind else {
            kept.push(attr);
            continue;
        };
        let id_ident = attr.path().segments[1].ident.clone();
        let new = match kind {
            Kind::Bench => vec![parse_bench(&attr, defaults, &sig)?],
            Kind::Benches => parse_benches(tracked, &attr, defaults, &sig)?,
        };
        for case in new {
            if seen.insert(case.id.clone(), id_ident.span()).is_some() {
                return Err(duplicate_id(
                    id_ident.span(),
                    &case.id,
                    &sig.ident,
                    "library",
                ));
            }
            cases.push(case);
        }
    }
    func.attrs = kept;

    if cases.is_empty() {
        if !sig.inputs.is_empty() {
            return Err(arguments_without_bench(&sig.ident));
        }
        cases.push(BenchCase {
            id: String::new(),
            args: Vec::new(),
            display: String::new(),
            config: None,
            setup: defaults.setup.clone(),
            teardown: defaults.teardown.clone(),
            consts: Vec::new(),
            iter: None,
        });
    }
    Ok(cases)
}

pub(crate) fn config_tokens(config: Option<&Expr>) -> TokenStream {
    typed_config(
        config,
        quote!(::benchgrind::__private::LibraryBenchmarkConfig),
    )
}

/// `Some(Into::<ty>::into(expr))` or `None`.
pub(crate) fn typed_config(config: Option<&Expr>, ty: TokenStream) -> TokenStream {
    match config {
        Some(expr) => quote! {
            ::core::option::Option::Some(::core::convert::Into::<#ty>::into(#expr))
        },
        None => quote!(::core::option::Option::None),
    }
}

/// The body of one `__run_N`: setup and arguments, then the call, which opens the window inside
/// the function (see [`crate::window::open_window_inside`]), then teardown. The function is called through a
/// pointer that the optimizer cannot see through, so the call is never removed or inlined.
fn run_body(func: &ItemFn, case: &BenchCase, fn_ptr: Option<&TokenStream>) -> TokenStream {
    let name = &func.sig.ident;
    let const_fn = func.sig.constness.is_some();
    let args = &case.args;
    let (inputs, count) = match (&case.iter, &case.setup) {
        (None, Some(setup)) => (quote! { ((#setup)(#(#args),*),) }, 1),
        (None, None) => (quote! { (#(#args,)*) }, args.len()),
        (Some(expr), setup) => {
            let id = format!("{name} {}", case.id);
            let item = quote! {
                match ::core::iter::Iterator::nth(
                    &mut ::core::iter::IntoIterator::into_iter(#expr),
                    ::benchgrind::__private::iter_item(),
                ) {
                    ::core::option::Option::Some(__item) => __item,
                    ::core::option::Option::None => ::benchgrind::__private::iter_item_missing(#id),
                }
            };
            match (setup, func.sig.inputs.len()) {
                (Some(setup), _) => (quote! { ((#setup)(#item),) }, 1),
                (None, 1) => (quote! { (#item,) }, 1),
                // Several parameters: each item is a tuple of the arguments.
                (None, params) => (item, params),
            }
        }
    };
    let fields = (0..count).map(syn::Index::from);
    let turbofish = crate::generics::turbofish(&func.sig.generics, &case.consts);
    let function = match fn_ptr {
        // A typed binding, not `as`: the pointer's type (with a generic function's holes) is
        // settled before the call, so arguments coerce as in a direct call (`&String` to
        // `&str`).
        Some(ty) => quote! {{
            let __pointer: #ty = super::#name #turbofish;
            ::benchgrind::__private::black_box(__pointer)
        }},
        None => quote! { super::#name #turbofish },
    };
    let teardown = match &case.teardown {
        Some(teardown) => quote! { (#teardown)(__out); },
        None => quote! { ::core::mem::drop(__out); },
    };
    let call = if const_fn {
        quote! { ::benchgrind::__private::measure(move || __function(#(__inputs.#fields),*)) }
    } else {
        quote! { ::benchgrind::__private::armed(move || __function(#(__inputs.#fields),*)) }
    };
    // A `match` keeps the temporaries of the arguments (`&"1".repeat(100)`) alive until the
    // bench is done, as a direct call with the arguments written inline would.
    quote! {
        match ::benchgrind::__private::black_box(#inputs) {
            __inputs => {
                let __function = #function;
                let __out = #call;
                let __out = ::benchgrind::__private::black_box(__out);
                #teardown
            }
        }
    }
}

/// `fn(A, B) -> R` of the benchmark function, or `None` where a pointer type cannot be written
/// (`impl Trait` in the signature); then the function is called directly. A generic function's
/// pointer is `fn(_, _) -> _`: the compiler instantiates it from the bench's argument types, as
/// a direct call would.
fn fn_pointer_type(func: &ItemFn) -> Option<TokenStream> {
    if !func.sig.generics.params.is_empty() {
        let holes = func.sig.inputs.iter().map(|_| quote!(_));
        let output = match &func.sig.output {
            ReturnType::Default => quote!(),
            ReturnType::Type(..) => quote!(-> _),
        };
        return Some(quote!(fn(#(#holes),*) #output));
    }
    let types: Vec<&Type> = func
        .sig
        .inputs
        .iter()
        .filter_map(|arg| match arg {
            FnArg::Typed(t) => Some(&*t.ty),
            FnArg::Receiver(_) => None,
        })
        .collect();
    let output = match &func.sig.output {
        ReturnType::Default => quote!(),
        ReturnType::Type(_, ty) => quote!(-> #ty),
    };
    let tokens = quote!(fn(#(#types),*) #output);
    let has_impl = types.iter().any(|ty| crate::window::mentions_impl(ty))
        || matches!(&func.sig.output, ReturnType::Type(_, ty) if crate::window::mentions_impl(ty));
    (!has_impl).then_some(tokens)
}

pub(crate) fn check_signature(func: &ItemFn, attribute: &str) -> syn::Result<()> {
    let sig = &func.sig;
    let reject = |span: Span, what: &str| {
        Err(syn::Error::new(
            span,
            format!("a {attribute} function cannot be {what}"),
        ))
    };
    if let Some(a) = &sig.asyncness {
        return reject(a.span(), "async");
    }
    if let Some(u) = &sig.unsafety {
        return reject(
            u.span(),
            "unsafe (call the unsafe code from a safe benchmark function, in an `unsafe` block)",
        );
    }
    if let Some(abi) = &sig.abi {
        return reject(
            abi.span(),
            "`extern` (call the `extern` function from a Rust benchmark function)",
        );
    }
    if let Some(FnArg::Receiver(r)) = sig.inputs.first() {
        return reject(r.span(), "a method");
    }
    Ok(())
}

fn parse_bench(
    attr: &Attribute,
    defaults: &Defaults,
    sig: &syn::Signature,
) -> syn::Result<BenchCase> {
    let (params, name) = (sig.inputs.len(), &sig.ident);
    let raw = parse_raw(attr, false)?;
    let (id, span) = attr_id(attr);
    let setup = raw.setup.or_else(|| defaults.setup.clone());
    // With a setup the arguments are the setup's, however many the function takes.
    let args = bench_args(raw.args, raw.positional, params == 1 && setup.is_none());
    check_count(span, &id, name, args.len(), params, setup.is_some())?;
    let consts = raw.consts.as_ref().map_or_else(Vec::new, generics::values);
    if let Some(written) = &raw.consts {
        generics::check(&sig.generics, &consts, written, name)?;
    }
    let display = generics::with_args(&consts, display(&args, setup.as_ref()));
    Ok(BenchCase {
        id,
        args,
        display,
        config: raw.config,
        setup,
        teardown: raw.teardown.or_else(|| defaults.teardown.clone()),
        consts,
        iter: None,
    })
}

/// How a bench's arguments appear in its header: as written, joined by `, `, and inside the
/// setup's call when there is a setup (`setup_worst_case_array(5)`), as iai-callgrind shows them.
fn display(args: &[Expr], setup: Option<&Expr>) -> String {
    let args = args
        .iter()
        .map(|a| pretty::tokens(&a.to_token_stream()))
        .collect::<Vec<_>>()
        .join(", ");
    match setup {
        Some(setup) => format!("{}({args})", pretty::tokens(&setup.to_token_stream())),
        None => args,
    }
}

fn parse_benches(
    tracked: &mut Vec<String>,
    attr: &Attribute,
    defaults: &Defaults,
    sig: &syn::Signature,
) -> syn::Result<Vec<BenchCase>> {
    let (params, name) = (sig.inputs.len(), &sig.ident);
    let raw = parse_raw(attr, true)?;
    let (id, span) = attr_id(attr);
    let setup = raw.setup.clone().or_else(|| defaults.setup.clone());
    let teardown = raw.teardown.clone().or_else(|| defaults.teardown.clone());
    let consts = match &raw.consts {
        Some(written) => {
            let list = generics::list(written)?;
            for values in &list {
                generics::check(&sig.generics, values, written, name)?;
            }
            list
        }
        None => Vec::new(),
    };
    if let Some(iter) = &raw.iter {
        return iter_case(&raw, iter, consts, sig, &id, span, (setup, teardown));
    }

    // Each element is the arguments of one bench, as (display, exprs).
    let mut elements: Vec<(String, Vec<Expr>)> = Vec::new();
    let spread = |expr: Expr| -> Vec<Expr> {
        match expr {
            Expr::Tuple(t) if setup.is_some() || params != 1 => t.elems.into_iter().collect(),
            other => vec![other],
        }
    };
    if let Some(file) = &raw.file {
        if raw.args.is_some() || !raw.positional.is_empty() {
            return Err(syn::Error::new_spanned(
                file,
                "`file` gives the arguments; leave out `args` and the plain list",
            ));
        }
        let (path, lines) = read_lines(file)?;
        tracked.push(path);
        for line in lines {
            let expr: Expr = syn::parse_quote!(::std::string::String::from(#line));
            // The line as it is, inside the setup's call as with `args` (`parse(11)`).
            let shown = match &setup {
                Some(setup) => format!("{}({line})", pretty::tokens(&setup.to_token_stream())),
                None => line,
            };
            elements.push((shown, vec![expr]));
        }
    } else {
        let list =
            match raw.args {
                Some(Expr::Array(array)) => array.elems.into_iter().collect(),
                Some(other) => return Err(syn::Error::new_spanned(
                    other,
                    "#[benches] takes `args = [...]`: an array with the arguments of each bench",
                )),
                None => raw.positional,
            };
        for expr in list {
            let args = spread(expr);
            elements.push((display(&args, setup.as_ref()), args));
        }
    }
    if elements.is_empty() && consts.is_empty() {
        return Err(syn::Error::new(
            span,
            format!("#[benches::{id}] has no arguments, so it makes no benchmark"),
        ));
    }
    let elements = match &raw.consts {
        Some(written) => generics::pair(elements, consts, written)?,
        None => elements.into_iter().map(|e| (e, Vec::new())).collect(),
    };
    let mut cases = Vec::new();
    for (i, ((display, args), consts)) in elements.into_iter().enumerate() {
        let case_id = format!("{id}_{i}");
        check_count(span, &case_id, name, args.len(), params, setup.is_some())?;
        cases.push(BenchCase {
            id: case_id,
            args,
            display: generics::with_args(&consts, display),
            config: raw.config.clone(),
            setup: setup.clone(),
            teardown: teardown.clone(),
            consts,
            iter: None,
        });
    }
    Ok(cases)
}

/// The one case of `#[benches::id(iter = ...)]`, which stands for a bench per item: the item is
/// the setup's argument, else the function's (a tuple of them for several parameters).
fn iter_case(
    raw: &crate::attrs::Raw,
    iter: &Expr,
    mut consts: Vec<Vec<Expr>>,
    sig: &syn::Signature,
    id: &str,
    span: Span,
    (setup, teardown): (Option<Expr>, Option<Expr>),
) -> syn::Result<Vec<BenchCase>> {
    let name = &sig.ident;
    if consts.len() > 1 {
        return Err(syn::Error::new_spanned(
            &raw.consts,
            "with `iter`, `consts` takes one instantiation for every item: `consts = [4]`",
        ));
    }
    if setup.is_some() {
        check_count(span, id, name, 1, sig.inputs.len(), true)?;
    } else if sig.inputs.is_empty() {
        return Err(syn::Error::new_spanned(
            iter,
            format!(
                "`iter` gives each bench of `{name}` its arguments, but `{name}` takes none; \
                 give it a parameter for the item"
            ),
        ));
    }
    let consts = consts.pop().unwrap_or_default();
    let shown = pretty::tokens(&iter.to_token_stream());
    let shown = match &setup {
        Some(setup) => format!("{}({shown})", pretty::tokens(&setup.to_token_stream())),
        None => shown,
    };
    Ok(vec![BenchCase {
        id: id.to_owned(),
        args: Vec::new(),
        display: generics::with_args(&consts, shown),
        config: raw.config.clone(),
        setup,
        teardown,
        consts,
        iter: Some(iter.clone()),
    }])
}
