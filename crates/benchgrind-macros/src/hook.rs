//! The `setup`/`teardown` (and iai-callgrind 0.10's `before`/`after`) of groups and `main!`:
//! an expression becomes an `Option<fn()>` in the generated code, shared by every macro that
//! takes one.

use proc_macro2::TokenStream;
use quote::quote;
use syn::Expr;

/// A bare function path (`setup = prepare`) is called, anything else (`setup = prepare()`) is
/// evaluated as written.
fn call_or_evaluate(expr: &Expr) -> TokenStream {
    match expr {
        Expr::Path(_) => quote! { (#expr)(); },
        other => quote! { let _ = #other; },
    }
}

/// `Some(fn())` running a `setup`/`teardown` of a group or of `main!`.
pub(crate) fn hook(expr: &Expr) -> TokenStream {
    let body = call_or_evaluate(expr);
    quote! {{
        let __hook: fn() = || { #body };
        ::core::option::Option::Some(__hook)
    }}
}

/// The hook a `bench = true` follows, as iai-callgrind 0.10's groups and the all-in-`main!`
/// form write it: `before = run_before, bench = true;`.
pub(crate) struct Measured {
    /// `before`, `after`, `setup` or `teardown`.
    pub kind: String,
    /// The hook as written.
    pub expr: Expr,
}

/// `&[MeasuredHook { .. }, ...]`: the hooks to measure, for the group's `measured_hooks`.
pub(crate) fn measured_hooks(hooks: &[Measured]) -> TokenStream {
    let items = hooks.iter().map(|Measured { kind, expr }| {
        let variant = syn::Ident::new(
            match kind.as_str() {
                "before" => "Before",
                "after" => "After",
                "setup" => "Setup",
                _ => "Teardown",
            },
            proc_macro2::Span::call_site(),
        );
        // As written: `my_mod::run_before`, `prepare()`.
        let name = crate::pretty::tokens(&quote!(#expr));
        quote! {
            ::benchgrind::__private::MeasuredHook {
                kind: ::benchgrind::__private::HookKind::#variant,
                name: #name,
            }
        }
    });
    quote!(&[#(#items),*])
}

/// The value of `bench = ...`: a `true` or `false` literal.
pub(crate) fn bench_flag(value: &Expr) -> syn::Result<bool> {
    match value {
        Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Bool(b),
            ..
        }) => Ok(b.value),
        other => Err(syn::Error::new_spanned(
            other,
            "`bench` takes `true` (measure the hook before it) or `false`",
        )),
    }
}

/// A glob import of `BinaryBenchmarkGroup`, beside a binary group's function: the closure
/// `|group: &mut BinaryBenchmarkGroup|` compiles whether or not the file imports the type, and
/// the file's own `use benchgrind::BinaryBenchmarkGroup;` (which shadows a glob import) is used,
/// not reported unused.
pub(crate) fn group_type() -> TokenStream {
    quote! {
        #[allow(unused_imports)]
        use ::benchgrind::__private::group_type::*;
    }
}
