//! `consts = ...` of `#[bench]` and `#[benches]`: the values of a benchmark function's const
//! generic parameters, in the order they are declared. `#[bench::id(consts = (4, 8))]` is one
//! instantiation (`(4)` or a bare `4` for one parameter, `{ expr }` blocks allowed);
//! `#[benches::id(consts = [4, 8])]` or `[(4, 8), (16, 32)]` is one per element.

use proc_macro2::TokenStream;
use quote::{quote, ToTokens};
use syn::{Expr, GenericParam, Generics};

/// The values of one instantiation: a tuple's elements, a parenthesized value, or the value.
pub(crate) fn values(expr: &Expr) -> Vec<Expr> {
    match expr {
        Expr::Tuple(t) => t.elems.iter().cloned().collect(),
        Expr::Paren(p) => vec![(*p.expr).clone()],
        other => vec![other.clone()],
    }
}

/// The instantiations of `#[benches]`'s `consts = [...]`, one per element.
pub(crate) fn list(expr: &Expr) -> syn::Result<Vec<Vec<Expr>>> {
    match expr {
        Expr::Array(array) if !array.elems.is_empty() => {
            Ok(array.elems.iter().map(values).collect())
        }
        _ => Err(syn::Error::new_spanned(
            expr,
            "`consts` of #[benches] takes an array with one element per bench: `consts = [4, \
             8]`, or with several const parameters `consts = [(4, 8), (16, 32)]`",
        )),
    }
}

/// Checks that `given` (written as `written`) has a value for each const parameter of the
/// function `name`.
pub(crate) fn check(
    generics: &Generics,
    given: &[Expr],
    written: &Expr,
    name: &syn::Ident,
) -> syn::Result<()> {
    let params: Vec<String> = generics
        .const_params()
        .map(|c| c.ident.to_string())
        .collect();
    if params.len() == given.len() {
        return Ok(());
    }
    let message = if params.is_empty() {
        format!("`consts` gives const generic values, but `{name}` has no const generic parameter")
    } else {
        format!(
            "`consts` gives {} value{} but `{name}` has {} const generic parameter{} ({}); give \
             one value per parameter, in order: `consts = ({})`",
            given.len(),
            if given.len() == 1 { "" } else { "s" },
            params.len(),
            if params.len() == 1 { "" } else { "s" },
            params.join(", "),
            params.join(", ")
        )
    };
    Err(syn::Error::new_spanned(written, message))
}

/// The generic arguments after the function's name, `::<_, { 4 }>`: the const values in the
/// order of the const parameters, every type parameter inferred, lifetimes left out. Empty
/// without consts.
pub(crate) fn turbofish(generics: &Generics, consts: &[Expr]) -> TokenStream {
    if consts.is_empty() {
        return TokenStream::new();
    }
    let mut values = consts.iter();
    let args = generics.params.iter().filter_map(|param| match param {
        GenericParam::Lifetime(_) => None,
        GenericParam::Type(_) => Some(quote!(_)),
        GenericParam::Const(_) => values.next().map(const_arg),
    });
    quote!(::<#(#args),*>)
}

/// A value as a const generic argument: literals, names and blocks as written (braces around
/// them would be a warning), anything else in braces.
fn const_arg(value: &Expr) -> TokenStream {
    match value {
        Expr::Lit(_) | Expr::Block(_) => value.to_token_stream(),
        Expr::Path(p) if p.path.segments.len() == 1 && p.qself.is_none() => value.to_token_stream(),
        other => quote!({ #other }),
    }
}

/// How an instantiation shows in a header, before the arguments: `<4, 8>`.
pub(crate) fn display(consts: &[Expr]) -> String {
    let values: Vec<String> = consts
        .iter()
        .map(|c| crate::pretty::tokens(&c.to_token_stream()))
        .collect();
    format!("<{}>", values.join(", "))
}

/// `display` of the arguments with the instantiation before them, if there is one.
pub(crate) fn with_args(consts: &[Expr], args: String) -> String {
    match (consts.is_empty(), args.is_empty()) {
        (true, _) => args,
        (false, true) => display(consts),
        (false, false) => format!("{} {args}", display(consts)),
    }
}

/// Pairs the benches' arguments with the instantiations of `consts` (written as `written`):
/// as many of each, or one of either for all of the other; without arguments, one bench per
/// instantiation.
pub(crate) fn pair<T: Clone + Default>(
    args: Vec<T>,
    consts: Vec<Vec<Expr>>,
    written: &Expr,
) -> syn::Result<Vec<(T, Vec<Expr>)>> {
    match (args.len(), consts.len()) {
        (_, 0) => Ok(args.into_iter().map(|a| (a, Vec::new())).collect()),
        (0, _) => Ok(consts.into_iter().map(|c| (T::default(), c)).collect()),
        (a, c) if a == c => Ok(args.into_iter().zip(consts).collect()),
        (_, 1) => Ok(args.into_iter().map(|a| (a, consts[0].clone())).collect()),
        (1, _) => Ok(consts.into_iter().map(|c| (args[0].clone(), c)).collect()),
        (a, c) => Err(syn::Error::new_spanned(
            written,
            format!(
                "`consts` has {c} elements and the arguments {a}: give as many of each, or one \
                 of either for all of the other"
            ),
        )),
    }
}
