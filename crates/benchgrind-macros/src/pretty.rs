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
        // A keyword before a group keeps its space (`&mut [1, 2]`, `move |x| ..`); a name
        // before one is a call or a macro's arguments (`f(x)`).
        (TokenTree::Ident(i), TokenTree::Group(g)) => {
            g.delimiter() == Delimiter::Brace || KEYWORDS.contains(&i.to_string().as_str())
        }
        _ => true,
    }
}

/// The keywords an argument's expression may hold before a bracket or parenthesis.
const KEYWORDS: [&str; 14] = [
    "as", "async", "dyn", "else", "for", "if", "impl", "in", "match", "move", "mut", "ref",
    "return", "while",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_read_as_written() {
        let read = |text: &str| tokens(&text.parse().unwrap());
        assert_eq!(read("&mut [1, 2]"), "&mut [1, 2]");
        assert_eq!(read("&mut vec![1, 2]"), "&mut vec![1, 2]");
        assert_eq!(read("vec![1, 2, 3]"), "vec![1, 2, 3]");
        assert_eq!(read("f(x, y)"), "f(x, y)");
        assert_eq!(read("(a, b)"), "(a, b)");
        assert_eq!(read("&[1u8, 2] as &[u8]"), "&[1u8, 2] as &[u8]");
    }
}
