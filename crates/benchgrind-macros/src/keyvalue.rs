//! `key = value` lists, separated by `;` (as the seed writes them) or `,`.
//!
//! Values are expressions, except for keys that take a list of paths (`benchmarks`,
//! `library_benchmark_groups`, ...): either in brackets (`[a, b]`, as gungraun writes them) or
//! bare (`a, b`), running to the next `;`, the end, or a `, key =`.

use proc_macro2::TokenStream;
use syn::parse::{ParseStream, Parser};
use syn::punctuated::Punctuated;
use syn::{Expr, Ident, Path, Token};

/// One value.
pub enum Value {
    /// An expression.
    Expr(Expr),
    /// A list of paths.
    Paths(Vec<Path>),
}

/// One `key = value` pair.
pub struct Pair {
    pub key: Ident,
    pub value: Value,
}

/// Parses `key = value` pairs; `list_keys` take comma-separated paths. Unknown keys are an error
/// naming the known ones, as are keys given twice.
pub fn parse_pairs(
    input: TokenStream,
    macro_name: &str,
    known: &[&str],
    list_keys: &[&str],
) -> syn::Result<Vec<Pair>> {
    let parser = |input: ParseStream| -> syn::Result<Vec<Pair>> {
        let mut pairs: Vec<Pair> = Vec::new();
        while !input.is_empty() {
            let key: Ident = input.parse().map_err(|e| {
                syn::Error::new(e.span(), format!("{macro_name} expects `key = value`"))
            })?;
            let name = key.to_string();
            if !known.contains(&name.as_str()) {
                return Err(syn::Error::new(
                    key.span(),
                    format!(
                        "unknown key `{name}` in {macro_name}; expected one of: {}",
                        known.join(", ")
                    ),
                ));
            }
            // `bench = ...` follows each hook of a 0.10 group (`before = a, bench = false;
            // after = b, bench = false;`), so it may come more than once.
            if name != "bench" && pairs.iter().any(|p| p.key == key) {
                return Err(syn::Error::new(
                    key.span(),
                    format!("`{name}` is given twice in {macro_name}"),
                ));
            }
            input.parse::<Token![=]>()?;
            let closure =
                input.peek(Token![|]) || input.peek(Token![||]) || input.peek(Token![move]);
            let value = if list_keys.contains(&name.as_str()) && !closure {
                Value::Paths(parse_paths(input, &key)?)
            } else {
                Value::Expr(input.parse().map_err(|e| {
                    syn::Error::new(
                        e.span(),
                        format!(
                            "`{name}` in {macro_name} takes an expression{}",
                            hint(&name)
                        ),
                    )
                })?)
            };
            pairs.push(Pair { key, value });
            if input.is_empty() {
                break;
            }
            if input.peek(Token![;]) {
                input.parse::<Token![;]>()?;
            } else if input.peek(Token![,]) {
                input.parse::<Token![,]>()?;
            } else {
                return Err(input.error(format!(
                    "expected `;` between the arguments of {macro_name}"
                )));
            }
        }
        Ok(pairs)
    };
    parser.parse2(input)
}

/// The paths of a list key: `[a, b::c]` or `a, b::c` (up to the next `;`, the end, or a
/// `, key =`). An empty list is an error naming the key.
fn parse_paths(input: ParseStream, key: &Ident) -> syn::Result<Vec<Path>> {
    let empty = |span| {
        syn::Error::new(
            span,
            format!(
                "`{key}` lists nothing; name at least one: `{key} = [first]` or \
                 `{key} = [first, second]`"
            ),
        )
    };
    if input.peek(syn::token::Bracket) {
        let content;
        let brackets = syn::bracketed!(content in input);
        let list = Punctuated::<Path, Token![,]>::parse_terminated(&content).map_err(|e| {
            syn::Error::new(
                e.span(),
                format!("`{key} = [...]` takes names separated by `,`: `{key} = [first, second]`"),
            )
        })?;
        if list.is_empty() {
            return Err(empty(brackets.span.join()));
        }
        return Ok(list.into_iter().collect());
    }
    if input.is_empty() || input.peek(Token![;]) || input.peek(Token![,]) {
        return Err(empty(input.span()));
    }
    let mut paths = vec![input.parse::<Path>()?];
    while input.peek(Token![,]) && !(input.peek2(Ident) && input.peek3(Token![=])) {
        input.parse::<Token![,]>()?;
        if input.is_empty() || input.peek(Token![;]) {
            break;
        }
        paths.push(input.parse()?);
    }
    Ok(paths)
}

/// What an expression key takes, after "takes an expression".
fn hint(key: &str) -> &'static str {
    match key {
        "max_parallel" => {
            " of type `usize`: how many of the group's benchmarks may run at once (`0`: no \
             limit), e.g. `max_parallel = 2`"
        }
        _ => "",
    }
}

/// Parses the comma-separated expressions of an attribute's parentheses.
pub fn parse_exprs(input: TokenStream) -> syn::Result<Vec<Expr>> {
    let parser = Punctuated::<Expr, Token![,]>::parse_terminated;
    Ok(parser.parse2(input)?.into_iter().collect())
}

/// `key = value` when the expression is an assignment to a bare identifier.
pub fn as_assignment(expr: &Expr) -> Option<(&Ident, &Expr)> {
    let Expr::Assign(assign) = expr else {
        return None;
    };
    let Expr::Path(path) = &*assign.left else {
        return None;
    };
    Some((path.path.get_ident()?, &assign.right))
}
