//! The measured window inside a `#[library_benchmark]` function: its body becomes a closure that
//! `::benchgrind::__private::window` runs, opening the window around it when a bench armed it.

use quote::quote;
use syn::visit::Visit;
use syn::visit_mut::VisitMut;
use syn::{FnArg, ItemFn, Pat, ReturnType, Stmt, Type};

/// Puts the function's body in a closure run by `window`, which opens the measured window around
/// it when a bench armed it. The closure borrows the arguments rather than taking them, so an
/// argument that the body does not consume is dropped after the window (as the caller would drop
/// it); its return type is the function's (with `_` for each `impl Trait`), so `return`, `?` and
/// coercions in the body mean what they did. It is always inlined, so the body's code is the
/// function's own. A `const fn` keeps its body (a closure cannot run in one): its bench measures
/// the call.
pub(crate) fn open_window_inside(func: &mut ItemFn) {
    if func.sig.constness.is_some() {
        return;
    }
    let rebind = rebind_mut_references(func);
    let block = &func.block;
    let output = match &func.sig.output {
        ReturnType::Type(_, ty) => {
            let mut ty = (**ty).clone();
            ImplToInfer.visit_type_mut(&mut ty);
            quote!(-> #ty)
        }
        ReturnType::Default => quote!(),
    };
    func.block = syn::parse_quote!({
        ::benchgrind::__private::window(#[inline(always)] || #output { #(#rebind)* #block })
    });
}

/// For every parameter `name: &mut T` (or `mut name: &mut T`), a statement that moves the
/// reference into the closure. Editions 2015 and 2018 capture whole variables, so without it a
/// closure returning a borrow of `*name` borrows the local `name` and does not compile (E0597,
/// E0373); a reference has no drop, so moving it costs nothing in the window. The outer `mut`,
/// if any, moves to the rebinding (it would be unused outside).
fn rebind_mut_references(func: &mut ItemFn) -> Vec<Stmt> {
    let mut statements = Vec::new();
    for input in &mut func.sig.inputs {
        let FnArg::Typed(typed) = input else {
            continue;
        };
        let Type::Reference(reference) = &*typed.ty else {
            continue;
        };
        if reference.mutability.is_none() {
            continue;
        }
        let Pat::Ident(ident) = &mut *typed.pat else {
            continue;
        };
        if ident.by_ref.is_some() || ident.subpat.is_some() {
            continue;
        }
        let name = ident.ident.clone();
        let mutability = ident.mutability.take();
        statements.push(syn::parse_quote! {
            #[allow(unused_variables, unused_mut)]
            let #mutability #name = #name;
        });
    }
    statements
}

/// Replaces every `impl Trait` by `_`: a closure's return type cannot name an opaque type, and
/// `_` keeps the rest of the type as written for coercions (`Box<dyn Error>` with `?`).
struct ImplToInfer;

impl VisitMut for ImplToInfer {
    fn visit_type_mut(&mut self, ty: &mut Type) {
        if let Type::ImplTrait(_) = ty {
            *ty = syn::parse_quote!(_);
            return;
        }
        syn::visit_mut::visit_type_mut(self, ty);
    }
}

/// Whether an `impl Trait` appears anywhere in the type.
pub(crate) fn mentions_impl(ty: &Type) -> bool {
    struct Finder(bool);
    impl<'ast> Visit<'ast> for Finder {
        fn visit_type_impl_trait(&mut self, _: &'ast syn::TypeImplTrait) {
            self.0 = true;
        }
    }
    let mut finder = Finder(false);
    finder.visit_type(ty);
    finder.0
}
