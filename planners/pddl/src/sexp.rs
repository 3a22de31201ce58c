//! Tokens and s-expressions with their locations.
//!
//! Tokens split as Fast Downward's translator splits them (it pads `(` and
//! `)` with spaces, puts a space before every `?`, and splits on
//! whitespace): `(p?x)` is `p` and `?x`, `?x?y` is `?x` and `?y`. `-` is a
//! name character, as in the PDDL grammar, so `?x-type` is one variable
//! and a typed list needs `?x - type`. `;` starts a comment to the end of
//! the line; names are case-insensitive (lower-cased here). A non-ASCII
//! character outside a comment is refused, as the translator refuses it.

use crate::{Location, PddlError};

/// Deeper nesting than this is refused (no PDDL STRIPS file comes close),
/// so that recursive walks over the tree stay shallow.
const MAX_DEPTH: usize = 128;

/// An s-expression: a symbol (lower-cased, PDDL names are case-insensitive)
/// or a parenthesised list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Sexp {
    Symbol(String, Location),
    List(Vec<Sexp>, Location),
}

impl Sexp {
    pub(crate) fn at(&self) -> Location {
        match self {
            Sexp::Symbol(_, at) | Sexp::List(_, at) => *at,
        }
    }

    pub(crate) fn symbol(&self) -> Option<&str> {
        match self {
            Sexp::Symbol(s, _) => Some(s),
            Sexp::List(..) => None,
        }
    }

    pub(crate) fn list(&self) -> Option<&[Sexp]> {
        match self {
            Sexp::List(items, _) => Some(items),
            Sexp::Symbol(..) => None,
        }
    }

    /// The head symbol of a list (`and` in `(and ...)`).
    pub(crate) fn head(&self) -> Option<&str> {
        self.list()
            .and_then(|items| items.first())
            .and_then(Sexp::symbol)
    }
}

/// Reads the single top-level s-expression of `text`.
#[expect(clippy::too_many_lines, reason = "one pass over the characters")]
pub(crate) fn read(file: &str, text: &str) -> Result<Sexp, PddlError> {
    let syntax = |at: Location, message: String| PddlError::Syntax {
        file: file.to_owned(),
        at,
        message,
    };
    let mut stack: Vec<(Vec<Sexp>, Location)> = Vec::new();
    let mut top: Option<Sexp> = None;
    let mut line: u32 = 1;
    let mut column: u32 = 0;
    let mut chars = text.chars().peekable();
    let mut token = String::new();
    let mut token_at = Location::default();
    let push = |stack: &mut Vec<(Vec<Sexp>, Location)>,
                top: &mut Option<Sexp>,
                item: Sexp|
     -> Result<(), PddlError> {
        if let Some((items, _)) = stack.last_mut() {
            items.push(item);
            Ok(())
        } else if top.is_some() {
            Err(syntax(
                item.at(),
                "text after the end of the definition".to_owned(),
            ))
        } else {
            *top = Some(item);
            Ok(())
        }
    };
    loop {
        let c = chars.next();
        if c.is_some() {
            column += 1;
        }
        let is_delimiter = match c {
            None => true,
            Some(ch) => ch.is_whitespace() || matches!(ch, '(' | ')' | ';' | '?'),
        };
        if is_delimiter && !token.is_empty() {
            if token == "?" {
                return Err(syntax(token_at, "`?` without a variable name".to_owned()));
            }
            let mut name = std::mem::take(&mut token);
            if name.len() > 1
                && name.starts_with('-')
                && !name[1..].starts_with(|c: char| c.is_ascii_digit() || c == '.')
            {
                // No name starts with `-`: `-place` is `- place` without
                // its space (IPC 2023's tpp writes it so).
                push(&mut stack, &mut top, Sexp::Symbol("-".to_owned(), token_at))?;
                name.remove(0);
                token_at.column += 1;
            }
            push(&mut stack, &mut top, Sexp::Symbol(name, token_at))?;
        }
        let Some(ch) = c else { break };
        match ch {
            '\n' => {
                line += 1;
                column = 0;
            }
            ';' => {
                // A comment runs to the end of the line.
                for rest in chars.by_ref() {
                    if rest == '\n' {
                        line += 1;
                        column = 0;
                        break;
                    }
                }
            }
            '(' => {
                if stack.len() >= MAX_DEPTH {
                    return Err(syntax(
                        Location { line, column },
                        format!("nesting deeper than {MAX_DEPTH} levels"),
                    ));
                }
                stack.push((Vec::new(), Location { line, column }));
            }
            ')' => {
                let Some((items, at)) = stack.pop() else {
                    return Err(syntax(
                        Location { line, column },
                        "unbalanced `)`: no `(` to close".to_owned(),
                    ));
                };
                push(&mut stack, &mut top, Sexp::List(items, at))?;
            }
            c if !c.is_ascii() => {
                return Err(syntax(
                    Location { line, column },
                    format!("non-ASCII character `{c}` outside a comment"),
                ));
            }
            c if c.is_whitespace() => {}
            c => {
                if token.is_empty() {
                    token_at = Location { line, column };
                }
                token.push(c.to_ascii_lowercase());
            }
        }
    }
    if let Some((_, at)) = stack.first() {
        return Err(syntax(*at, "unbalanced `(`: never closed".to_owned()));
    }
    match top {
        Some(sexp @ Sexp::List(..)) => Ok(sexp),
        Some(other) => Err(syntax(other.at(), "expected `(define ...)`".to_owned())),
        None => Err(syntax(
            Location {
                line,
                column: column.max(1),
            },
            "empty file: expected `(define ...)`".to_owned(),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_lists_symbols_comments_and_locations() {
        let sexp = read(
            "f",
            "; c\n(define (Domain X) ; comment\n  (:predicates (p ?x)))",
        )
        .unwrap();
        let items = sexp.list().unwrap();
        assert_eq!(items[0].symbol(), Some("define"));
        assert_eq!(items[1].head(), Some("domain"));
        assert_eq!(items[1].list().unwrap()[1].symbol(), Some("x"));
        assert_eq!(sexp.at(), Location { line: 2, column: 1 });
        assert_eq!(items[2].at(), Location { line: 3, column: 3 });
    }

    #[test]
    fn unbalanced_parentheses_are_located() {
        let e = read("f", "(a (b)\n").unwrap_err();
        assert_eq!(e.location(), Some(Location { line: 1, column: 1 }));
        let e = read("f", "(a)\n )").unwrap_err();
        assert_eq!(e.location(), Some(Location { line: 2, column: 2 }));
        assert!(read("f", "").is_err());
        assert!(read("f", &"(".repeat(10_000)).is_err());
    }
}
