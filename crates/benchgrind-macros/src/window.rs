//! The measured window inside a `#[library_benchmark]` function: its body becomes a closure that
//! `::benchgrind::__private::window` runs, opening the window around it when a bench armed it.

use quote::quote;
use syn::visit::Visit;
use syn::visit_mut::VisitMut;
use syn::{FnArg, ItemFn, Pat, ReturnType, Stmt, Type};

/// Puts the function's body in a closure run by `window`, which opens the measured window around
/// it when a bench armed it. The closure takes every argument (see [`rebind_parameters`]), so an
/// argument the body does not consume is dropped at the end of the body, inside the window, as
/// Rust drops a function's arguments and as Callgrind counts the function's inclusive cost; its
/// return type is the function's (with `_` for each `impl Trait`), so `return`, `?` and coercions
/// in the body mean what they did. The compiler decides whether to inline it, as it decides for
/// the body of a plain function that the peers call: forced inline, the body's calls were
/// inlined otherwise than in a plain function (`HashSlabMap::get_full` stayed a call in
/// hashslab's `lookup_key_size`, 1.4 % more than iai-callgrind, and a `BTreeMap` count of words
/// counted 68,690 instructions against 62,332; 62,551 and 61,783 since). A `const fn` keeps its
/// body (a closure cannot run in one): its bench measures the call.
pub(crate) fn open_window_inside(func: &mut ItemFn) {
    if func.sig.constness.is_some() {
        return;
    }
    let rebind = rebind_parameters(func);
    // The body's statements, not its block: a block as the closure's only expression would be
    // `unused_braces` at the user's braces (`fn f(s: &str) -> usize { s.len() }` on one line).
    let statements = &func.block.stmts;
    let output = match &func.sig.output {
        ReturnType::Type(_, ty) => {
            let mut ty = (**ty).clone();
            ImplToInfer.visit_type_mut(&mut ty);
            quote!(-> #ty)
        }
        ReturnType::Default => quote!(),
    };
    func.block = syn::parse_quote!({
        ::benchgrind::__private::window(move || #output { #(#rebind)* #(#statements)* })
    });
}

/// For every parameter, a statement that makes the closure (a `move` closure) take it whole:
/// `let _ = &name;` for each name its pattern binds (a `_` parameter is given a hidden name
/// first), so that every argument is the closure's and is dropped when the body ends, inside
/// the window, as Rust drops a function's arguments when it returns, even where the body only
/// reads a field (edition 2021 would capture the field alone). The body then reads each argument
/// where the closure holds it: nothing is copied inside the window (a 64-byte struct read
/// through a reference counted 16 instructions with a rebinding `let name = name;`, 8 now, one
/// less than a `u64`). A reference moves for nothing; for `&mut T` it is also what makes a
/// closure returning a borrow of `*name` compile (E0597, E0373).
fn rebind_parameters(func: &mut ItemFn) -> Vec<Stmt> {
    let mut statements = Vec::new();
    for (index, input) in func.sig.inputs.iter_mut().enumerate() {
        let FnArg::Typed(typed) = input else {
            continue;
        };
        if let Pat::Wild(wild) = &*typed.pat {
            let name = quote::format_ident!(
                "__benchgrind_unnamed_{}",
                index,
                span = wild.underscore_token.span
            );
            *typed.pat = syn::parse_quote!(#name);
        }
        if leaves_parts_unbound(&typed.pat) {
            // `(a, _)` or `S { a, .. }`: the parts no name binds would be dropped when the
            // function returns, after the window. The whole argument moves into the closure
            // under a hidden name and is destructured there; what the pattern leaves is dropped
            // with it at the end of the body, inside the window.
            let hidden = quote::format_ident!("__benchgrind_argument_{}", index);
            let pattern = std::mem::replace(&mut *typed.pat, syn::parse_quote!(#hidden));
            statements.push(syn::parse_quote! {
                #[allow(clippy::redundant_locals)]
                let #hidden = #hidden;
            });
            statements.push(syn::parse_quote! {
                #[allow(unused_variables, unused_mut)]
                let #pattern = #hidden;
            });
            continue;
        }
        let mut names = Bindings(Vec::new());
        names.visit_pat_mut(&mut typed.pat);
        for name in names.0 {
            statements.push(syn::parse_quote! {
                let _ = &#name;
            });
        }
    }
    statements
}

/// Whether a parameter's pattern leaves a part of a by-value argument without a name: a `_` or
/// `..` below the top (a top-level `_` is renamed instead), not behind a `&` pattern (the part
/// then belongs to the caller).
fn leaves_parts_unbound(pat: &Pat) -> bool {
    struct Finder(bool);
    impl<'ast> Visit<'ast> for Finder {
        fn visit_pat(&mut self, pat: &'ast Pat) {
            match pat {
                Pat::Wild(_) | Pat::Rest(_) => self.0 = true,
                Pat::Reference(_) => {}
                Pat::Ident(ident) if ident.by_ref.is_some() => {}
                _ => syn::visit::visit_pat(self, pat),
            }
        }
        fn visit_field_pat(&mut self, field: &'ast syn::FieldPat) {
            self.visit_pat(&field.pat);
        }
        fn visit_pat_struct(&mut self, pat: &'ast syn::PatStruct) {
            if pat.rest.is_some() {
                self.0 = true;
            }
            syn::visit::visit_pat_struct(self, pat);
        }
    }
    if matches!(pat, Pat::Wild(_) | Pat::Ident(_)) {
        return false;
    }
    let mut finder = Finder(false);
    finder.visit_pat(pat);
    finder.0
}

/// The names a pattern binds by value (`ref` bindings and their sub-patterns left alone).
struct Bindings(Vec<syn::Ident>);

impl VisitMut for Bindings {
    fn visit_pat_ident_mut(&mut self, ident: &mut syn::PatIdent) {
        if ident.by_ref.is_some() {
            return;
        }
        self.0.push(ident.ident.clone());
        if let Some((_, sub)) = &mut ident.subpat {
            self.visit_pat_mut(sub);
        }
    }
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
