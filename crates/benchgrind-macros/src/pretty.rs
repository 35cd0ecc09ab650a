//! Arguments as written, for the benchmark's header line: `vec![1, 2, 3]`, not the token
//! stream's `vec ! [1 , 2 , 3]`.

use proc_macro2::{Delimiter, TokenStream, TokenTree};

/// Renders tokens with the spacing a person would write.
pub fn tokens(stream: &TokenStream) -> String {
    let mut out = String::new();
    write(stream, &mut out);
    out
}

fn write(stream: &TokenStream, out: &mut String) {
    let mut prev: Option<TokenTree> = None;
    for tt in stream.clone() {
        if let Some(p) = &prev {
            if space_between(p, &tt) {
                out.push(' ');
            }
        }
        match &tt {
            TokenTree::Group(g) => {
                let (open, close) = match g.delimiter() {
                    Delimiter::Parenthesis => ("(", ")"),
                    Delimiter::Bracket => ("[", "]"),
                    Delimiter::Brace => ("{ ", " }"),
                    Delimiter::None => ("", ""),
                };
                out.push_str(open);
                write(&g.stream(), out);
                out.push_str(close);
            }
            other => out.push_str(&other.to_string()),
        }
        prev = Some(tt);
    }
}

fn space_between(prev: &TokenTree, next: &TokenTree) -> bool {
    match (prev, next) {
        (_, TokenTree::Punct(p)) if matches!(p.as_char(), ',' | '.' | ';' | '!' | '?' | ':') => {
            false
        }
        (TokenTree::Punct(p), _) if matches!(p.as_char(), '.' | '&' | '!' | '-' | ':' | '#') => {
            p.as_char() == '!' && !matches!(next, TokenTree::Group(_))
        }
        (TokenTree::Ident(_), TokenTree::Group(g)) => g.delimiter() == Delimiter::Brace,
        _ => true,
    }
}
