//! Reading PDDL 2.1 numeric expressions, comparisons and effects.

use crate::reading::{read_function_term, Reader, Scope};
use crate::sexp::Sexp;
use crate::syntax::{Arith, Assignment, Comparison, Domain, NumCondition, NumEffect, NumExpr};
use crate::PddlError;

/// A number as PDDL writes it: `3`, `-2`, `12.5`, `.5` (and `1e6`, as
/// Fast Downward's translator reads it).
pub(crate) fn parse_number(text: &str) -> Option<f64> {
    let starts = text.starts_with(|c: char| c.is_ascii_digit() || c == '.')
        || text.starts_with('-') && text[1..].starts_with(|c: char| c.is_ascii_digit() || c == '.');
    let plain = text
        .chars()
        .all(|c| c.is_ascii_digit() || matches!(c, '.' | '-' | '+' | 'e' | 'E'));
    (starts && plain)
        .then(|| text.parse().ok())
        .flatten()
        .filter(|v: &f64| v.is_finite())
}

/// Whether `(= a b)` compares numbers rather than objects: a side is a
/// list (a function or arithmetic) or a number.
pub(crate) fn is_numeric_equality(items: &[Sexp]) -> bool {
    items[1..]
        .iter()
        .any(|s| s.list().is_some() || s.symbol().and_then(parse_number).is_some())
}

/// A numeric expression: a number, `(function arg ...)`, or arithmetic
/// `(+ a b)`, `(- a b)`, `(- a)`, `(* a b)`, `(/ a b)` (`+` and `*` also
/// take more than two).
pub(crate) fn read_num_expr(
    r: &Reader<'_>,
    domain: &Domain,
    scope: &Scope<'_>,
    s: &Sexp,
) -> Result<NumExpr, PddlError> {
    let items = match s {
        Sexp::Symbol(text, at) => {
            return parse_number(text).map(NumExpr::Number).ok_or_else(|| {
                r.syntax(
                    *at,
                    format!("expected a number or `(function ...)`, found `{text}`"),
                )
            });
        }
        Sexp::List(items, _) => items,
    };
    let Some(head) = items.first() else {
        return Err(r.syntax(s.at(), "empty expression `()`"));
    };
    let op = match head.symbol() {
        Some("+") => Arith::Add,
        Some("-") => Arith::Sub,
        Some("*") => Arith::Mul,
        Some("/") => Arith::Div,
        _ => {
            let (function, args) = read_function_term(r, domain, scope, s)?;
            return Ok(NumExpr::Fluent { function, args });
        }
    };
    let operands = items[1..]
        .iter()
        .map(|item| read_num_expr(r, domain, scope, item))
        .collect::<Result<Vec<_>, _>>()?;
    let symbol = head.symbol().unwrap_or("");
    let variadic = matches!(op, Arith::Add | Arith::Mul);
    match (op, operands.len()) {
        (Arith::Sub, 1) => Ok(apply(
            Arith::Sub,
            NumExpr::Number(0.0),
            operands.into_iter().next(),
        )),
        (_, 2) => {
            if op == Arith::Div && operands[1] == NumExpr::Number(0.0) {
                return Err(r.syntax(items[2].at(), "division by zero"));
            }
            let mut it = operands.into_iter();
            let left = it.next().unwrap_or(NumExpr::Number(0.0));
            Ok(apply(op, left, it.next()))
        }
        (_, n) if variadic && n > 2 => {
            let mut it = operands.into_iter();
            let first = it.next().unwrap_or(NumExpr::Number(0.0));
            Ok(it.fold(first, |acc, e| apply(op, acc, Some(e))))
        }
        _ => Err(r.syntax(
            head.at(),
            format!(
                "`{symbol}` takes {}, found {}",
                if variadic {
                    "two or more operands"
                } else if op == Arith::Sub {
                    "one or two operands"
                } else {
                    "two operands"
                },
                operands.len()
            ),
        )),
    }
}

fn apply(op: Arith, left: NumExpr, right: Option<NumExpr>) -> NumExpr {
    NumExpr::Apply {
        op,
        left: Box::new(left),
        right: Box::new(right.unwrap_or(NumExpr::Number(0.0))),
    }
}

/// `(op a b)` for a comparison `op`, read with the polarity `positive`:
/// under `not`, `<` becomes `>=` and so on; a negated `=` is refused (it
/// is a disjunction). `instead` reads it with another operator.
pub(crate) fn read_comparison(
    r: &Reader<'_>,
    domain: &Domain,
    scope: &Scope<'_>,
    s: &Sexp,
    positive: bool,
    instead: Option<&str>,
) -> Result<NumCondition, PddlError> {
    let items = r.list(s, "a comparison `(op a b)`")?;
    let head = items.first().and_then(Sexp::symbol).unwrap_or("");
    let Some(op) = Comparison::parse(instead.unwrap_or(head)) else {
        return Err(r.syntax(s.at(), format!("`{head}` is not a comparison")));
    };
    let [_, left, right] = items else {
        return Err(r.syntax(s.at(), format!("`{head}` takes two expressions")));
    };
    let op = if positive {
        op
    } else {
        op.negated()
            .ok_or_else(|| r.unsupported(s.at(), "negated numeric `=` (a disjunction)"))?
    };
    Ok(NumCondition {
        op,
        left: read_num_expr(r, domain, scope, left)?,
        right: read_num_expr(r, domain, scope, right)?,
    })
}

/// `(increase (f a ...) value)`, `decrease`, `assign`, `scale-up`,
/// `scale-down`: `None` if `head` is none of those.
pub(crate) fn read_numeric_effect(
    r: &Reader<'_>,
    domain: &Domain,
    scope: &Scope<'_>,
    s: &Sexp,
) -> Result<Option<NumEffect>, PddlError> {
    let items = r.list(s, "an effect")?;
    let head = items.first().and_then(Sexp::symbol).unwrap_or("");
    let kind = match head {
        "assign" => Assignment::Assign,
        "increase" => Assignment::Increase,
        "decrease" => Assignment::Decrease,
        "scale-up" => Assignment::ScaleUp,
        "scale-down" => Assignment::ScaleDown,
        _ => return Ok(None),
    };
    let [_, target, value] = items else {
        return Err(r.syntax(
            s.at(),
            format!("expected `({head} (function ...) expression)`"),
        ));
    };
    if target.list().is_none() {
        return Err(r.syntax(target.at(), format!("`{head}` needs a function `(f ...)`")));
    }
    let (function, args) = read_function_term(r, domain, scope, target)?;
    let value = read_num_expr(r, domain, scope, value)?;
    if kind == Assignment::ScaleDown && value == NumExpr::Number(0.0) {
        return Err(r.syntax(items[2].at(), "`scale-down` by zero"));
    }
    Ok(Some(NumEffect {
        kind,
        function,
        args,
        value,
    }))
}

#[cfg(test)]
mod tests {
    use super::parse_number;

    #[test]
    fn numbers_as_pddl_writes_them() {
        assert_eq!(parse_number("12.5"), Some(12.5));
        assert_eq!(parse_number("-3"), Some(-3.0));
        assert_eq!(parse_number(".5"), Some(0.5));
        assert_eq!(parse_number("1e5"), Some(1e5));
        for not_a_number in [
            "", "-", ".", "1.2.3", "inf", "NaN", "e5", "x1", "?x", "1e999",
        ] {
            assert_eq!(parse_number(not_a_number), None, "{not_a_number}");
        }
    }
}
