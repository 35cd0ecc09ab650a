//! The measured window inside a `#[library_benchmark]` function: its body becomes a closure that
//! `::benchgrind::__private::window` runs, opening the window around it when a bench armed it.

use quote::{quote, ToTokens};
use syn::{ItemFn, ReturnType, Type};

/// Puts the function's body in a closure run by `window`, which opens the measured window around
/// it when a bench armed it. The closure borrows the arguments rather than taking them, so an
/// argument that the body does not consume is dropped after the window (as the caller would drop
/// it); its return type is the function's, so `return` and `?` in the body mean what they did.
/// A `const fn` keeps its body (a closure cannot run in one): its bench measures the call.
pub(crate) fn open_window_inside(func: &mut ItemFn) {
    if func.sig.constness.is_some() {
        return;
    }
    let block = &func.block;
    let output = match &func.sig.output {
        // `impl Trait` cannot be written as a closure's return type: the closure infers it.
        ReturnType::Type(_, ty) if !mentions_impl(ty) => quote!(-> #ty),
        _ => quote!(),
    };
    func.block = syn::parse_quote!({
        ::benchgrind::__private::window(|| #output #block)
    });
}

/// Whether `impl` appears anywhere in the type.
pub(crate) fn mentions_impl(ty: &Type) -> bool {
    ty.to_token_stream()
        .to_string()
        .split_whitespace()
        .any(|t| t == "impl")
}
