//! The attributes both kinds of benchmark function share: the defaults in
//! `#[library_benchmark(...)]`/`#[binary_benchmark(...)]`, each `#[bench::id(...)]` and
//! `#[benches::id(...)]` (its id, arguments, `config`, `setup`, `teardown`, `file`), the
//! argument count checks and the errors both give.

use std::path::PathBuf;

use proc_macro2::{Span, TokenStream};
use syn::{Attribute, Expr, Meta};

use crate::keyvalue::{as_assignment, parse_exprs};

/// `config`, `setup` and `teardown` of `#[library_benchmark(...)]` or `#[binary_benchmark(...)]`.
#[derive(Default)]
pub(crate) struct Defaults {
    pub config: Option<Expr>,
    pub setup: Option<Expr>,
    pub teardown: Option<Expr>,
}

/// The error for a second bench with the id `id` in the `kind` (`library`, `binary`)
/// benchmark function `name`.
pub(crate) fn duplicate_id(span: Span, id: &str, name: &syn::Ident, kind: &str) -> syn::Error {
    syn::Error::new(
        span,
        format!(
            "duplicate benchmark id `{id}` in `{name}`; ids must be unique within a \
             #[{kind}_benchmark] function"
        ),
    )
}

/// The error for the function `name` that takes arguments but has no bench to give them.
pub(crate) fn arguments_without_bench(name: &syn::Ident) -> syn::Error {
    syn::Error::new(
        name.span(),
        format!(
            "`{name}` takes arguments but has no #[bench::id(...)] or #[benches::id(...)] \
             attribute to give them"
        ),
    )
}

pub(crate) enum Kind {
    Bench,
    Benches,
}

pub(crate) fn bench_attr_kind(attr: &Attribute) -> Option<Kind> {
    let segments = &attr.path().segments;
    if segments.len() != 2 {
        return None;
    }
    match segments[0].ident.to_string().as_str() {
        "bench" => Some(Kind::Bench),
        "benches" => Some(Kind::Benches),
        _ => None,
    }
}

/// Parses the attribute's own arguments; `name` is how errors name the attribute.
pub(crate) fn parse_defaults(attr: TokenStream, name: &str) -> syn::Result<Defaults> {
    let mut defaults = Defaults::default();
    for expr in parse_exprs(attr)? {
        let Some((key, value)) = as_assignment(&expr) else {
            return Err(syn::Error::new_spanned(
                &expr,
                format!("{name} takes `config = ...`, `setup = ...` and `teardown = ...`"),
            ));
        };
        let slot = match key.to_string().as_str() {
            "config" => &mut defaults.config,
            "setup" => &mut defaults.setup,
            "teardown" => &mut defaults.teardown,
            other => {
                return Err(syn::Error::new(
                    key.span(),
                    format!(
                        "unknown key `{other}` in {name}; expected one of: config, setup, \
                         teardown"
                    ),
                ))
            }
        };
        set_once(slot, key, value)?;
    }
    Ok(defaults)
}

pub(crate) fn set_once(slot: &mut Option<Expr>, key: &syn::Ident, value: &Expr) -> syn::Result<()> {
    if slot.is_some() {
        return Err(syn::Error::new(
            key.span(),
            format!("`{key}` is given twice"),
        ));
    }
    *slot = Some(value.clone());
    Ok(())
}

/// The raw contents of a `#[bench]`/`#[benches]` attribute.
pub(crate) struct Raw {
    pub positional: Vec<Expr>,
    pub args: Option<Expr>,
    pub config: Option<Expr>,
    pub setup: Option<Expr>,
    pub teardown: Option<Expr>,
    pub file: Option<Expr>,
    /// `iter = expr` of `#[benches]`: one bench per item, evaluated at run time.
    pub iter: Option<Expr>,
    /// `consts = (...)` of `#[bench]`, `consts = [...]` of `#[benches]`: const generic values.
    pub consts: Option<Expr>,
}

/// Parses a `#[bench]` (`benches == false`) or `#[benches]` attribute.
pub(crate) fn parse_raw(attr: &Attribute, benches: bool) -> syn::Result<Raw> {
    let tokens = match &attr.meta {
        Meta::Path(_) => TokenStream::new(),
        Meta::List(list) => list.tokens.clone(),
        Meta::NameValue(nv) => {
            return Err(syn::Error::new_spanned(
                nv,
                "write the arguments in parentheses: #[bench::id(1, 2)]",
            ))
        }
    };
    let mut raw = Raw {
        positional: Vec::new(),
        args: None,
        config: None,
        setup: None,
        teardown: None,
        file: None,
        iter: None,
        consts: None,
    };
    let known = if benches {
        "args, config, setup, teardown, file, iter, consts"
    } else {
        "args, config, setup, teardown, consts"
    };
    for expr in parse_exprs(tokens)? {
        let Some((key, value)) = as_assignment(&expr) else {
            raw.positional.push(expr);
            continue;
        };
        let slot = match key.to_string().as_str() {
            "args" => &mut raw.args,
            "config" => &mut raw.config,
            "setup" => &mut raw.setup,
            "teardown" => &mut raw.teardown,
            "file" if benches => &mut raw.file,
            "iter" if benches => &mut raw.iter,
            "consts" => &mut raw.consts,
            other => {
                return Err(syn::Error::new(
                    key.span(),
                    format!("unknown key `{other}`; expected one of: {known}"),
                ))
            }
        };
        set_once(slot, key, value)?;
    }
    if let (Some(args), false) = (&raw.args, raw.positional.is_empty()) {
        return Err(syn::Error::new_spanned(
            args,
            "give the arguments either as `args = ...` or as a plain list, not both",
        ));
    }
    if raw.iter.is_some() {
        let other = [&raw.args, &raw.file].into_iter().flatten().next();
        if let Some(other) = other.or(raw.positional.first()) {
            return Err(syn::Error::new_spanned(
                other,
                "`iter` gives the arguments of each bench; leave out `args`, `file` and the \
                 plain list",
            ));
        }
    }
    Ok(raw)
}

/// The arguments of one `#[bench]`: `args = (a, b)` and, as iai-callgrind reads it,
/// `args = [a, b]` are two arguments, `args = (a)` or `args = x` one, and without `args` the
/// plain list. `one_value` is set for a function of one parameter without a setup: an array of
/// several elements is then that one argument (an array value), not a list of arguments.
pub(crate) fn bench_args(args: Option<Expr>, positional: Vec<Expr>, one_value: bool) -> Vec<Expr> {
    match args {
        Some(Expr::Tuple(t)) => t.elems.into_iter().collect(),
        Some(Expr::Paren(p)) => vec![*p.expr],
        Some(Expr::Array(a)) if !one_value || a.elems.len() == 1 => a.elems.into_iter().collect(),
        Some(other) => vec![other],
        None => positional,
    }
}

pub(crate) fn attr_id(attr: &Attribute) -> (String, Span) {
    let ident = &attr.path().segments[1].ident;
    (ident.to_string(), ident.span())
}

pub(crate) fn check_count(
    span: Span,
    id: &str,
    name: &syn::Ident,
    given: usize,
    params: usize,
    has_setup: bool,
) -> syn::Result<()> {
    if has_setup {
        if params != 1 {
            return Err(syn::Error::new(
                span,
                format!(
                    "`{id}` has a setup, so `{name}` must take exactly one argument (the setup's \
                     return value), but it takes {params}"
                ),
            ));
        }
        return Ok(());
    }
    if given != params {
        return Err(syn::Error::new(
            span,
            format!(
                "`{id}` passes {given} argument{} but `{name}` takes {params}",
                if given == 1 { "" } else { "s" }
            ),
        ));
    }
    Ok(())
}

/// The lines of a `file = "..."` input, relative paths from the workspace root.
pub(crate) fn read_lines(file: &Expr) -> syn::Result<(String, Vec<String>)> {
    let Expr::Lit(syn::ExprLit {
        lit: syn::Lit::Str(lit),
        ..
    }) = file
    else {
        return Err(syn::Error::new_spanned(
            file,
            "`file` takes a string literal path",
        ));
    };
    let given = PathBuf::from(lit.value());
    let root = crate::workspace::root();
    let path = if given.is_absolute() {
        given
    } else {
        root.join(given)
    };
    let text = std::fs::read_to_string(&path).map_err(|e| {
        syn::Error::new(
            lit.span(),
            format!(
                "cannot read {} (relative paths start at the workspace root {}): {e}",
                path.display(),
                root.display()
            ),
        )
    })?;
    let path = path.display().to_string();
    Ok((path, text.lines().map(str::to_owned).collect()))
}
