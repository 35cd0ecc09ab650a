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
