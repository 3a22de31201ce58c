//! The expression language inside problem files: one condition or effect
//! per string, such as `gold >= 60`, `!aim_ready`, `gold -= 60`,
//! `location = "shop"`, `noise in [0, 0.5]`, and linear arithmetic
//! (`gold + 2 * wood >= 10`, `x -= 2 * y + 1`).
//!
//! Parsing is the same for conditions and effects; the atomic and factored
//! builders then accept the forms that mean something to them.

use std::fmt;
use std::ops::Range;

use state_factored::Value;

/// A constant.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Literal {
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
}

impl Literal {
    /// The type's name as the format spells it.
    pub(crate) fn type_name(&self) -> &'static str {
        match self {
            Literal::Bool(_) => "bool",
            Literal::Int(_) => "int",
            Literal::Float(_) => "float",
            Literal::Str(_) => "string",
        }
    }

    pub(crate) fn to_value(&self) -> Value {
        match self {
            Literal::Bool(b) => Value::Bool(*b),
            Literal::Int(i) => Value::Int(*i),
            Literal::Float(x) => Value::Float(*x),
            Literal::Str(s) => Value::Str(s.clone()),
        }
    }
}

impl fmt::Display for Literal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Literal::Bool(b) => write!(f, "{b}"),
            Literal::Int(i) => write!(f, "{i}"),
            Literal::Float(x) => write!(f, "{x:?}"),
            Literal::Str(s) => write!(f, "{s:?}"),
        }
    }
}

/// Something with its byte range in the expression.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct At<T> {
    pub(crate) value: T,
    pub(crate) span: Range<usize>,
}

/// An operator between a name and its right-hand side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Operator {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    In,
    Assign,
    AddAssign,
    SubAssign,
}

impl Operator {
    pub(crate) fn symbol(self) -> &'static str {
        match self {
            Operator::Eq => "==",
            Operator::Ne => "!=",
            Operator::Lt => "<",
            Operator::Le => "<=",
            Operator::Gt => ">",
            Operator::Ge => ">=",
            Operator::In => "in",
            Operator::Assign => "=",
            Operator::AddAssign => "+=",
            Operator::SubAssign => "-=",
        }
    }

    /// Whether it compares (a condition) rather than assigns (an effect).
    pub(crate) fn is_comparison(self) -> bool {
        !matches!(
            self,
            Operator::Assign | Operator::AddAssign | Operator::SubAssign
        )
    }
}

/// What follows the operator.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Rhs {
    /// `60`, `"shop"`, `true`.
    Literal(At<Literal>),
    /// `!name`, as in `lit = !lit` (a toggle).
    Not(At<String>),
    /// `[low, high]`, after `in`.
    Range(At<Literal>, At<Literal>),
    /// `{a, b, ...}`, after `in`.
    Set(Vec<At<Literal>>),
    /// Arithmetic that is not one constant: `y`, `y - 2`, `2 * y + 1`.
    Arith(At<Arith>),
}

/// Arithmetic over names and constants, each node with its span.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Arith {
    /// A constant (the builders accept numbers only).
    Literal(Literal),
    /// A variable.
    Name(String),
    /// `-a`
    Neg(Box<At<Arith>>),
    /// `a + b`
    Add(Box<At<Arith>>, Box<At<Arith>>),
    /// `a - b`
    Sub(Box<At<Arith>>, Box<At<Arith>>),
    /// `a * b`
    Mul(Box<At<Arith>>, Box<At<Arith>>),
}

/// One condition or effect.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Expr {
    /// `name` (`negated == false`) or `!name`.
    Bare { name: At<String>, negated: bool },
    /// `name op rhs`.
    Binary {
        name: At<String>,
        op: At<Operator>,
        rhs: Rhs,
    },
    /// `lhs op rhs` with arithmetic on the left (`gold + 2 * wood >= 10`);
    /// `op` is a comparison other than `in`.
    Compare {
        lhs: At<Arith>,
        op: At<Operator>,
        rhs: At<Arith>,
    },
}

impl Expr {
    /// The variable or atom the expression is about; `None` for arithmetic
    /// on the left.
    pub(crate) fn name(&self) -> Option<&At<String>> {
        match self {
            Expr::Bare { name, .. } | Expr::Binary { name, .. } => Some(name),
            Expr::Compare { .. } => None,
        }
    }
}

/// Why an expression does not parse, and where in it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct ParseError {
    pub(crate) span: Range<usize>,
    pub(crate) message: String,
}

fn error<T>(span: Range<usize>, message: impl Into<String>) -> Result<T, ParseError> {
    Err(ParseError {
        span,
        message: message.into(),
    })
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Ident(String),
    Lit(Literal),
    Op(Operator),
    Plus,
    Minus,
    Star,
    Bang,
    Open(char),
    Close(char),
    Comma,
}

impl fmt::Display for Tok {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tok::Ident(s) => write!(f, "`{s}`"),
            Tok::Lit(l) => write!(f, "`{l}`"),
            Tok::Op(op) => write!(f, "`{}`", op.symbol()),
            Tok::Plus => f.write_str("`+`"),
            Tok::Minus => f.write_str("`-`"),
            Tok::Star => f.write_str("`*`"),
            Tok::Bang => f.write_str("`!`"),
            Tok::Open(c) | Tok::Close(c) => write!(f, "`{c}`"),
            Tok::Comma => f.write_str("`,`"),
        }
    }
}

fn is_ident_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_'
}

fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

fn lex(text: &str) -> Result<Vec<At<Tok>>, ParseError> {
    let bytes = text.as_bytes();
    let mut tokens = Vec::new();
    let mut i = 0;
    while let Some(c) = text[i..].chars().next() {
        let start = i;
        let next = bytes.get(i + 1).copied();
        let (tok, len) = match c {
            c if c.is_whitespace() => {
                i += c.len_utf8();
                continue;
            }
            c if is_ident_start(c) => {
                let len = text[i..]
                    .find(|c: char| !is_ident_char(c))
                    .unwrap_or(text.len() - i);
                let word = &text[i..i + len];
                let tok = match word {
                    "true" => Tok::Lit(Literal::Bool(true)),
                    "false" => Tok::Lit(Literal::Bool(false)),
                    "in" => Tok::Op(Operator::In),
                    _ => Tok::Ident(word.to_owned()),
                };
                (tok, len)
            }
            '0'..='9' => number(text, i)?,
            // A sign belongs to the number where no value precedes it
            // (`x >= -3`, `x - -3`); after a value it is an operator.
            '-' | '+'
                if next.is_some_and(|b| b.is_ascii_digit() || b == b'.')
                    && !tokens.last().is_some_and(|t: &At<Tok>| {
                        matches!(t.value, Tok::Ident(_) | Tok::Lit(_) | Tok::Close(')'))
                    }) =>
            {
                number(text, i)?
            }
            '"' | '\'' => string(text, i, c)?,
            '=' if next == Some(b'=') => (Tok::Op(Operator::Eq), 2),
            '!' if next == Some(b'=') => (Tok::Op(Operator::Ne), 2),
            '<' if next == Some(b'=') => (Tok::Op(Operator::Le), 2),
            '>' if next == Some(b'=') => (Tok::Op(Operator::Ge), 2),
            '+' if next == Some(b'=') => (Tok::Op(Operator::AddAssign), 2),
            '-' if next == Some(b'=') => (Tok::Op(Operator::SubAssign), 2),
            '=' => (Tok::Op(Operator::Assign), 1),
            '<' => (Tok::Op(Operator::Lt), 1),
            '>' => (Tok::Op(Operator::Gt), 1),
            '!' => (Tok::Bang, 1),
            '[' | '{' | '(' => (Tok::Open(c), 1),
            ']' | '}' | ')' => (Tok::Close(c), 1),
            ',' => (Tok::Comma, 1),
            '+' => (Tok::Plus, 1),
            '-' => (Tok::Minus, 1),
            '*' => (Tok::Star, 1),
            _ => {
                return error(
                    start..start + c.len_utf8(),
                    format!("unexpected character `{c}`"),
                )
            }
        };
        i += len;
        tokens.push(At {
            value: tok,
            span: start..i,
        });
    }
    Ok(tokens)
}

/// A number at `start`: an optional sign, digits (with `_` between them),
/// an optional fraction and exponent. Integers are `i64`, the rest `f64`.
fn number(text: &str, start: usize) -> Result<(Tok, usize), ParseError> {
    let bytes = text.as_bytes();
    let mut end = start;
    if matches!(bytes.get(end), Some(b'-' | b'+')) {
        end += 1;
    }
    let mut float = false;
    while let Some(&b) = bytes.get(end) {
        let exponent_sign = matches!(b, b'-' | b'+')
            && end > start
            && matches!(bytes.get(end - 1), Some(b'e' | b'E'));
        if matches!(b, b'.' | b'e' | b'E') {
            float = true;
        } else if !(exponent_sign || is_ident_char(char::from(b))) {
            // Digits, `_` and letters glued to a number (`60gold`) make one
            // token, reported whole as malformed.
            break;
        }
        end += 1;
    }
    let word = &text[start..end];
    let digits: String = word.chars().filter(|&c| c != '_').collect();
    let malformed = || error(start..end, format!("malformed number `{word}`"));
    if float {
        match digits.parse::<f64>() {
            Ok(x) if x.is_finite() => Ok((Tok::Lit(Literal::Float(x)), end - start)),
            Ok(_) => error(start..end, format!("number `{word}` is too large")),
            Err(_) => malformed(),
        }
    } else {
        match digits.parse::<i64>() {
            Ok(i) => Ok((Tok::Lit(Literal::Int(i)), end - start)),
            Err(e)
                if matches!(
                    e.kind(),
                    std::num::IntErrorKind::PosOverflow | std::num::IntErrorKind::NegOverflow
                ) =>
            {
                error(
                    start..end,
                    format!("integer `{word}` does not fit in 64 bits"),
                )
            }
            Err(_) => malformed(),
        }
    }
}

/// A string in `quote`s at `start`: `"..."` takes the escapes `\"`, `\'`
/// and `\\`; `'...'` takes none.
fn string(text: &str, start: usize, quote: char) -> Result<(Tok, usize), ParseError> {
    let mut out = String::new();
    let mut chars = text[start + 1..].char_indices();
    while let Some((i, c)) = chars.next() {
        if c == quote {
            return Ok((Tok::Lit(Literal::Str(out)), i + 2));
        }
        if c == '\\' && quote == '"' {
            match chars.next() {
                Some((_, e @ ('"' | '\'' | '\\'))) => out.push(e),
                Some((j, e)) => {
                    let at = start + 1 + i;
                    return error(
                        at..start + 1 + j + e.len_utf8(),
                        format!("unknown escape `\\{e}` (strings take `\\\"`, `\\'` and `\\\\`)"),
                    );
                }
                None => break,
            }
        } else {
            out.push(c);
        }
    }
    error(
        start..text.len(),
        format!("string not closed: add `{quote}`"),
    )
}

/// Parses one condition or effect.
pub(crate) fn parse(text: &str) -> Result<Expr, ParseError> {
    let tokens = lex(text)?;
    let mut parser = Parser {
        tokens: &tokens,
        next: 0,
        end: text.len(),
        text,
    };
    let expr = parser.expr()?;
    if let Some(extra) = parser.peek() {
        return error(
            extra.span.clone(),
            format!("unexpected {} after the end of the expression", extra.value),
        );
    }
    Ok(expr)
}

struct Parser<'t> {
    tokens: &'t [At<Tok>],
    next: usize,
    end: usize,
    text: &'t str,
}

const AFTER_NAME: &str = "a comparison (`==`, `!=`, `<`, `<=`, `>`, `>=`, `in`) \
                          or an assignment (`=`, `+=`, `-=`)";

impl Parser<'_> {
    fn peek(&self) -> Option<&At<Tok>> {
        self.tokens.get(self.next)
    }

    fn bump(&mut self) -> Option<&At<Tok>> {
        let token = self.tokens.get(self.next);
        self.next += 1;
        token
    }

    /// The span for "expected ... here": the next token, or the end.
    fn here(&self) -> Range<usize> {
        self.peek()
            .map_or(self.end..self.end, |token| token.span.clone())
    }

    fn found(&self) -> String {
        self.peek()
            .map_or_else(|| "the end".to_owned(), |token| token.value.to_string())
    }

    fn name(&mut self, what: &str) -> Result<At<String>, ParseError> {
        match self.peek() {
            Some(At {
                value: Tok::Ident(name),
                span,
            }) => {
                let name = At {
                    value: name.clone(),
                    span: span.clone(),
                };
                self.next += 1;
                Ok(name)
            }
            _ => error(
                self.here(),
                format!("expected {what}, found {}", self.found()),
            ),
        }
    }

    fn expr(&mut self) -> Result<Expr, ParseError> {
        if self.tokens.is_empty() {
            return error(0..self.end, "the expression is empty");
        }
        if matches!(self.peek().map(|t| &t.value), Some(Tok::Bang)) {
            self.next += 1;
            let name = self.name("a name after `!`")?;
            if let Some(extra) = self.peek() {
                return error(
                    extra.span.clone(),
                    format!("unexpected {} after `!{}`", extra.value, name.value),
                );
            }
            return Ok(Expr::Bare {
                name,
                negated: true,
            });
        }
        if !matches!(
            self.peek().map(|t| &t.value),
            Some(Tok::Ident(_) | Tok::Lit(_) | Tok::Minus | Tok::Open('('))
        ) {
            return error(
                self.here(),
                format!("expected a variable or atom name, found {}", self.found()),
            );
        }
        let lhs = self.sum()?;
        let name = match &lhs.value {
            Arith::Name(name) => Some(At {
                value: name.clone(),
                span: lhs.span.clone(),
            }),
            _ => None,
        };
        let op = match self.peek() {
            None => {
                if let Some(name) = name {
                    return Ok(Expr::Bare {
                        name,
                        negated: false,
                    });
                }
                let hint = if matches!(lhs.value, Arith::Add(..) | Arith::Sub(..)) {
                    " (effects add with `+=` and subtract with `-=`)"
                } else {
                    ""
                };
                return error(
                    self.here(),
                    format!(
                        "expected {AFTER_NAME} after `{}`{hint}",
                        &self.text[lhs.span.clone()]
                    ),
                );
            }
            Some(At {
                value: Tok::Op(op),
                span,
            }) => At {
                value: *op,
                span: span.clone(),
            },
            Some(_) => {
                return error(
                    self.here(),
                    format!(
                        "expected {AFTER_NAME} after `{}`, found {}",
                        &self.text[lhs.span.clone()],
                        self.found()
                    ),
                )
            }
        };
        self.next += 1;
        let Some(name) = name else {
            if !op.value.is_comparison() || op.value == Operator::In {
                return error(
                    op.span.clone(),
                    format!(
                        "`{}` needs one variable on its left, not arithmetic",
                        op.value.symbol()
                    ),
                );
            }
            let rhs = self.sum()?;
            return Ok(Expr::Compare { lhs, op, rhs });
        };
        let rhs = self.rhs(op.value)?;
        Ok(Expr::Binary { name, op, rhs })
    }

    /// What follows `name op`.
    fn rhs(&mut self, op: Operator) -> Result<Rhs, ParseError> {
        Ok(if op == Operator::In {
            self.collection()?
        } else if matches!(self.peek().map(|t| &t.value), Some(Tok::Bang)) {
            self.next += 1;
            Rhs::Not(self.name("a name after `!`")?)
        } else {
            if !matches!(
                self.peek().map(|t| &t.value),
                Some(Tok::Ident(_) | Tok::Lit(_) | Tok::Minus | Tok::Open('('))
            ) {
                return error(
                    self.here(),
                    format!(
                        "expected a value after `{}`, found {}",
                        op.symbol(),
                        self.found()
                    ),
                );
            }
            let rhs = self.sum()?;
            match rhs.value {
                Arith::Literal(literal) => Rhs::Literal(At {
                    value: literal,
                    span: rhs.span,
                }),
                _ => Rhs::Arith(rhs),
            }
        })
    }

    /// `term (('+' | '-') term)*`
    fn sum(&mut self) -> Result<At<Arith>, ParseError> {
        let mut left = self.term()?;
        loop {
            let add = match self.peek().map(|t| &t.value) {
                Some(Tok::Plus) => true,
                Some(Tok::Minus) => false,
                _ => return Ok(left),
            };
            self.next += 1;
            let right = self.term()?;
            let span = left.span.start..right.span.end;
            let (l, r) = (Box::new(left), Box::new(right));
            left = At {
                value: if add {
                    Arith::Add(l, r)
                } else {
                    Arith::Sub(l, r)
                },
                span,
            };
        }
    }

    /// `factor ('*' factor)*`
    fn term(&mut self) -> Result<At<Arith>, ParseError> {
        let mut left = self.factor()?;
        while matches!(self.peek().map(|t| &t.value), Some(Tok::Star)) {
            self.next += 1;
            let right = self.factor()?;
            let span = left.span.start..right.span.end;
            left = At {
                value: Arith::Mul(Box::new(left), Box::new(right)),
                span,
            };
        }
        Ok(left)
    }

    /// `'-' factor | '(' sum ')' | literal | name`
    fn factor(&mut self) -> Result<At<Arith>, ParseError> {
        let Some(token) = self.peek().cloned() else {
            return error(self.here(), "expected a value, found the end");
        };
        self.next += 1;
        match token.value {
            Tok::Minus => {
                let inner = self.factor()?;
                let span = token.span.start..inner.span.end;
                Ok(At {
                    value: Arith::Neg(Box::new(inner)),
                    span,
                })
            }
            Tok::Open('(') => {
                let inner = self.sum()?;
                self.expect(&Tok::Close(')'), "`)`")?;
                let span = token.span.start..self.tokens[self.next - 1].span.end;
                Ok(At {
                    value: inner.value,
                    span,
                })
            }
            Tok::Lit(literal) => Ok(At {
                value: Arith::Literal(literal),
                span: token.span,
            }),
            Tok::Ident(name) => Ok(At {
                value: Arith::Name(name),
                span: token.span,
            }),
            other => {
                self.next -= 1;
                error(token.span, format!("expected a value, found {other}"))
            }
        }
    }

    fn literal(&mut self, what: &str) -> Result<At<Literal>, ParseError> {
        match self.peek() {
            Some(At {
                value: Tok::Lit(literal),
                span,
            }) => {
                let literal = At {
                    value: literal.clone(),
                    span: span.clone(),
                };
                self.next += 1;
                Ok(literal)
            }
            Some(At {
                value: Tok::Ident(word),
                span,
            }) => error(
                span.clone(),
                format!(
                    "expected {what}, found the name `{word}` (write strings in quotes: \"{word}\")"
                ),
            ),
            _ => error(
                self.here(),
                format!("expected {what}, found {}", self.found()),
            ),
        }
    }

    fn expect(&mut self, tok: &Tok, what: &str) -> Result<(), ParseError> {
        if self.peek().map(|t| &t.value) == Some(tok) {
            self.next += 1;
            Ok(())
        } else {
            error(
                self.here(),
                format!("expected {what}, found {}", self.found()),
            )
        }
    }

    /// `[low, high]` or `{a, b, ...}` after `in`.
    fn collection(&mut self) -> Result<Rhs, ParseError> {
        match self.peek().map(|t| &t.value) {
            Some(Tok::Open('[')) => {
                self.next += 1;
                let low = self.literal("the low end of a range")?;
                self.expect(&Tok::Comma, "`,` between the ends of a range")?;
                let high = self.literal("the high end of a range")?;
                self.expect(&Tok::Close(']'), "`]` closing the range")?;
                Ok(Rhs::Range(low, high))
            }
            Some(Tok::Open('{')) => {
                self.next += 1;
                let mut values = Vec::new();
                loop {
                    if matches!(self.peek().map(|t| &t.value), Some(Tok::Close('}'))) {
                        self.next += 1;
                        break;
                    }
                    values.push(self.literal("a value or `}`")?);
                    match self.bump().map(|t| &t.value) {
                        Some(Tok::Comma) => {}
                        Some(Tok::Close('}')) => break,
                        _ => {
                            self.next -= 1;
                            return error(
                                self.here(),
                                format!("expected `,` or `}}` in a set, found {}", self.found()),
                            );
                        }
                    }
                }
                if values.is_empty() {
                    return error(self.here(), "the set after `in` is empty");
                }
                Ok(Rhs::Set(values))
            }
            _ => error(
                self.here(),
                format!(
                    "expected `[low, high]` or `{{a, b}}` after `in`, found {}",
                    self.found()
                ),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lit(value: Literal, span: Range<usize>) -> At<Literal> {
        At { value, span }
    }

    #[test]
    fn parses_every_form() {
        let e = parse("gold >= 60").unwrap();
        let Expr::Binary { name, op, rhs } = e else {
            panic!("{e:?}")
        };
        assert_eq!((name.value.as_str(), name.span), ("gold", 0..4));
        assert_eq!((op.value, op.span), (Operator::Ge, 5..7));
        assert_eq!(rhs, Rhs::Literal(lit(Literal::Int(60), 8..10)));

        assert!(matches!(
            parse("!aim_ready").unwrap(),
            Expr::Bare { negated: true, .. }
        ));
        assert!(matches!(
            parse(" fed ").unwrap(),
            Expr::Bare { negated: false, .. }
        ));
        let Expr::Binary { rhs, .. } = parse(r#"location == "shop""#).unwrap() else {
            panic!()
        };
        assert_eq!(rhs, Rhs::Literal(lit(Literal::Str("shop".into()), 12..18)));
        let Expr::Binary { rhs, .. } = parse("at = 'mine'").unwrap() else {
            panic!()
        };
        assert_eq!(rhs, Rhs::Literal(lit(Literal::Str("mine".into()), 5..11)));
        let Expr::Binary { rhs, .. } = parse("noise in [0, 0.5]").unwrap() else {
            panic!()
        };
        assert!(matches!(rhs, Rhs::Range(..)));
        let Expr::Binary { rhs, .. } = parse(r#"at in {"a", 'b',}"#).unwrap() else {
            panic!()
        };
        assert!(matches!(rhs, Rhs::Set(v) if v.len() == 2));
        let Expr::Binary { op, rhs, .. } = parse("lit = !lit").unwrap() else {
            panic!()
        };
        assert_eq!(op.value, Operator::Assign);
        assert!(matches!(rhs, Rhs::Not(n) if n.value == "lit"));
        let Expr::Binary { rhs, .. } = parse("gold -= -1_000").unwrap() else {
            panic!()
        };
        assert_eq!(rhs, Rhs::Literal(lit(Literal::Int(-1000), 8..14)));
        let Expr::Binary { rhs, .. } = parse("x<1e3").unwrap() else {
            panic!()
        };
        assert_eq!(rhs, Rhs::Literal(lit(Literal::Float(1000.0), 2..5)));
    }

    #[test]
    fn parses_arithmetic() {
        let Expr::Compare { lhs, op, rhs } = parse("gold + 2 * wood >= 10").unwrap() else {
            panic!()
        };
        assert_eq!(op.value, Operator::Ge);
        assert_eq!(lhs.span, 0..15);
        assert!(matches!(lhs.value, Arith::Add(..)));
        assert_eq!(rhs.value, Arith::Literal(Literal::Int(10)));
        let Expr::Binary { rhs, .. } = parse("x -= 2 * (y + 1)").unwrap() else {
            panic!()
        };
        let Rhs::Arith(sum) = rhs else { panic!() };
        assert_eq!(sum.span, 5..16);
        assert!(matches!(sum.value, Arith::Mul(..)));
        // A sign after a value is an operator; elsewhere it is the number's.
        let Expr::Compare { lhs, .. } = parse("x -3 < y").unwrap() else {
            panic!()
        };
        assert!(matches!(lhs.value, Arith::Sub(..)));
        let Expr::Binary { rhs, .. } = parse("x = y - -3").unwrap() else {
            panic!()
        };
        let Rhs::Arith(At {
            value: Arith::Sub(_, three),
            ..
        }) = rhs
        else {
            panic!()
        };
        assert_eq!(three.value, Arith::Literal(Literal::Int(-3)));
        let Expr::Binary { rhs, .. } = parse("x = y").unwrap() else {
            panic!()
        };
        assert!(matches!(
            rhs,
            Rhs::Arith(At {
                value: Arith::Name(_),
                ..
            })
        ));
    }

    #[test]
    fn errors_point_into_the_expression() {
        let cases = [
            ("", 0..0, "empty"),
            (
                "gold >=",
                7..7,
                "expected a value after `>=`, found the end",
            ),
            ("gold ! 3", 5..6, "expected a comparison"),
            ("gold >= 60 60", 11..13, "unexpected `60` after the end"),
            ("location == \"shop", 12..17, "string not closed"),
            ("gold >= 6x", 8..10, "malformed number `6x`"),
            (
                "gold >= 99999999999999999999",
                8..28,
                "does not fit in 64 bits",
            ),
            ("x in [1 2]", 8..9, "expected `,`"),
            ("x in {}", 7..7, "empty"),
            ("x in 3", 5..6, "after `in`"),
            ("gold # 1", 5..6, "unexpected character `#`"),
            ("gold + 25", 9..9, "expected a comparison"),
            ("gold + 25 += 1", 10..12, "needs one variable on its left"),
            ("x >= (y + 1", 11..11, "expected `)`"),
            ("x >= 2 * ", 9..9, "expected a value, found the end"),
            ("x >= y +", 8..8, "found the end"),
            ("!", 1..1, "a name after `!`"),
            ("x = 1e999", 4..9, "too large"),
            (r#"x = "a\q""#, 6..8, "unknown escape"),
        ];
        for (text, span, message) in cases {
            let e = parse(text).unwrap_err();
            assert_eq!(e.span, span, "{text}: {e:?}");
            assert!(e.message.contains(message), "{text}: {}", e.message);
        }
    }
}
