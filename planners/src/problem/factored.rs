//! `kind = "factored"`: variables, actions, start and goal into a
//! [`Domain`].

use std::collections::HashMap;
use std::ops::Range;

use state_factored::problems::Problem;
use state_factored::{
    Action, Domain, Effect, Expr as Linear, FactoredError, Op, Predicate, Schema, Value, VarType,
};
use toml::Spanned;

use super::atomic::article;
use super::expr::{Arith, At, Expr, Literal, Operator, Rhs};
use super::{Declared, Expression, Location, ProblemError, RawProblem, Source};

/// Builds the problem; `raw.kind` is `factored`.
pub(super) fn build(
    source: &Source<'_>,
    raw: &RawProblem,
    name: String,
) -> Result<Problem, ProblemError> {
    if let Some(list) = raw.atoms.as_ref().or(raw.shared.as_ref()) {
        return Err(source.invalid(
            &list.span(),
            "`atoms` and `shared` belong to atomic problems; a factored problem declares `[variables]`",
        ));
    }
    let Some(variables) = &raw.variables else {
        return Err(source.missing("`[variables]`"));
    };
    let mut schema = Schema::new();
    let mut declared = Declared::new("variable");
    let mut starts = Vec::new();
    for (key, value) in &variables.get_ref().0 {
        declared.insert(source, key)?;
        let (ty, start) = declaration(source, key.get_ref(), value)?;
        schema
            .add(key.get_ref(), ty)
            .map_err(|e| source.invalid(&key.span(), e.to_string()))?;
        if let Some(start) = start {
            starts.push((key.get_ref().clone(), start, value.span()));
        }
    }
    let mut domain = Domain::new(schema);

    if raw.action.is_empty() {
        return Err(source.missing("actions: add `[[action]]` tables"));
    }
    let mut names = HashMap::new();
    for action in &raw.action {
        let action = action.get_ref();
        super::action_name(source, &mut names, &action.name)?;
        let mut builder =
            Action::builder(action.name.get_ref()).cost(super::cost(source, action.cost.as_ref())?);
        for pre in &action.pre {
            builder = builder.pre(condition(source, domain.schema(), pre)?);
        }
        for eff in &action.eff {
            builder = builder.effect(effect(source, domain.schema(), eff)?);
        }
        domain
            .add_action(builder)
            .map_err(|e| located(source, &action.name.span(), e))?;
    }

    // `start` overrides `[variables]`, each variable once.
    let mut overridden = HashMap::new();
    for text in raw.start.iter().flat_map(Spanned::get_ref) {
        let (var, value, at) = start_value(source, domain.schema(), text)?;
        if let Some(first_line) = overridden.insert(var.clone(), at.line) {
            return Err(ProblemError::Invalid {
                at,
                message: format!(
                    "variable `{var}` is set twice in `start` (first on line {first_line})"
                ),
            });
        }
        starts.push((var, value, text.span()));
    }
    let mut state = domain.schema().state();
    for (var, value, span) in starts {
        // Checked one by one, so that an error points at its value.
        domain
            .schema()
            .state()
            .set(&var, value.clone())
            .build()
            .map_err(|e| located(source, &span, e))?;
        state = state.set(&var, value);
    }
    let start = state
        .build()
        .map_err(|e| located(source, &variables.span(), e))?;

    let Some(goal_list) = &raw.goal else {
        return Err(source.missing("`goal = [...]`"));
    };
    let predicates = goal_list
        .get_ref()
        .iter()
        .map(|text| condition(source, domain.schema(), text))
        .collect::<Result<Vec<_>, _>>()?;
    let goal = domain
        .goal(predicates)
        .map_err(|e| located(source, &goal_list.span(), e))?;

    Ok(Problem {
        name,
        domain,
        start,
        goal,
    })
}

/// A [`FactoredError`] the checks here did not foresee, at `span`.
fn located(source: &Source<'_>, span: &Range<usize>, error: FactoredError) -> ProblemError {
    let at = source.at(span);
    match error {
        FactoredError::UnknownVariable { name, .. } => ProblemError::Unknown {
            at,
            kind: "variable",
            name,
        },
        e @ (FactoredError::TypeMismatch { .. } | FactoredError::UnsupportedOperation { .. }) => {
            ProblemError::TypeMismatch {
                at,
                message: e.to_string(),
            }
        }
        e => ProblemError::Invalid {
            at,
            message: e.to_string(),
        },
    }
}

fn type_name(ty: VarType) -> &'static str {
    match ty {
        VarType::Bool => "bool",
        VarType::Int => "int",
        VarType::Float => "float",
        VarType::Str => "string",
    }
}

/// A variable's type and start value: `x = <value>` or
/// `x = { type = "...", start = <value> }`.
fn declaration(
    source: &Source<'_>,
    name: &str,
    value: &Spanned<toml::Value>,
) -> Result<(VarType, Option<Value>), ProblemError> {
    let span = value.span();
    let wrong = |what: &str| {
        source.invalid(
            &span,
            format!(
                "variable `{name}` {what}: give a start value (`{name} = 0`) \
                 or a type (`{name} = {{ type = \"int\", start = 0 }}`)"
            ),
        )
    };
    let inferred = |v: &toml::Value| match v {
        toml::Value::Boolean(b) => Some((VarType::Bool, Value::Bool(*b))),
        toml::Value::Integer(i) => Some((VarType::Int, Value::Int(*i))),
        toml::Value::Float(x) => Some((VarType::Float, Value::Float(*x))),
        toml::Value::String(s) => Some((VarType::Str, Value::Str(s.clone()))),
        _ => None,
    };
    match value.get_ref() {
        toml::Value::Table(table) => {
            if let Some(key) = table
                .keys()
                .find(|k| !matches!(k.as_str(), "type" | "start"))
            {
                return Err(wrong(&format!("has an unknown key `{key}`")));
            }
            let ty = match table.get("type") {
                None => return Err(wrong("has no `type`")),
                Some(toml::Value::String(t)) => match t.as_str() {
                    "bool" => VarType::Bool,
                    "int" => VarType::Int,
                    "float" => VarType::Float,
                    "string" | "str" => VarType::Str,
                    other => {
                        return Err(source.invalid(
                            &span,
                            format!(
                                "variable `{name}` has unknown type `{other}`: \
                                 the types are bool, int, float and string"
                            ),
                        ))
                    }
                },
                Some(_) => return Err(wrong("has a `type` that is not a string")),
            };
            let Some(start) = table.get("start") else {
                return Ok((ty, None));
            };
            let Some((found, value)) = inferred(start) else {
                return Err(wrong("has a `start` that is not a bool, number or string"));
            };
            if found == ty || (ty == VarType::Float && found == VarType::Int) {
                Ok((ty, Some(value)))
            } else {
                Err(ProblemError::TypeMismatch {
                    at: source.at(&span),
                    message: format!(
                        "variable `{name}` is {} {} but its start value is {} {}",
                        article(type_name(ty)),
                        type_name(ty),
                        article(type_name(found)),
                        type_name(found)
                    ),
                })
            }
        }
        other => match inferred(other) {
            Some((ty, value)) => Ok((ty, Some(value))),
            None => Err(wrong(&format!("cannot start as {}", other.type_str()))),
        },
    }
}

/// The declared variable an expression names, and its type.
fn variable(
    schema: &Schema,
    at: &Expression<'_>,
    name: &At<String>,
) -> Result<VarType, ProblemError> {
    schema
        .var(&name.value)
        .map(state_factored::Var::var_type)
        .ok_or_else(|| at.unknown("variable", name))
}

/// Checks that `literal` fits variable `name` of type `ty`.
fn fits(
    at: &Expression<'_>,
    name: &str,
    ty: VarType,
    literal: &At<Literal>,
) -> Result<Value, ProblemError> {
    let ok = matches!(
        (ty, &literal.value),
        (VarType::Bool, Literal::Bool(_))
            | (VarType::Int, Literal::Int(_))
            | (VarType::Float, Literal::Int(_) | Literal::Float(_))
            | (VarType::Str, Literal::Str(_))
    );
    if ok {
        Ok(literal.value.to_value())
    } else {
        let found = literal.value.type_name();
        Err(at.mismatch(
            &literal.span,
            format!(
                "variable `{name}` is {} {} but `{}` is {} {found}",
                article(type_name(ty)),
                type_name(ty),
                literal.value,
                article(found),
            ),
        ))
    }
}

/// `x` or `!x` on a variable that is not a bool.
fn not_bool(at: &Expression<'_>, name: &At<String>, ty: VarType) -> ProblemError {
    at.mismatch(
        &name.span,
        format!(
            "variable `{}` is {} {}, not a bool: write a comparison such as `{} == ...`",
            name.value,
            article(type_name(ty)),
            type_name(ty),
            name.value
        ),
    )
}

/// An operator the variable's type does not have.
fn unsupported(at: &Expression<'_>, op: &At<Operator>, name: &str, ty: VarType) -> ProblemError {
    at.mismatch(
        &op.span,
        format!(
            "`{}` does not apply to {} variable `{name}`",
            op.value.symbol(),
            type_name(ty)
        ),
    )
}

/// A linear expression from arithmetic: declared numeric variables and
/// number constants, products only by a constant.
fn linear(at: &Expression<'_>, schema: &Schema, arith: &At<Arith>) -> Result<Linear, ProblemError> {
    let part = |a: &At<Arith>| linear(at, schema, a);
    Ok(match &arith.value {
        Arith::Name(name) => {
            let named = At {
                value: name.clone(),
                span: arith.span.clone(),
            };
            let ty = variable(schema, at, &named)?;
            if !matches!(ty, VarType::Int | VarType::Float) {
                return Err(at.mismatch(
                    &arith.span,
                    format!(
                        "variable `{name}` is {} {}, not a number: arithmetic takes ints and floats",
                        article(type_name(ty)),
                        type_name(ty)
                    ),
                ));
            }
            Linear::var(name)
        }
        Arith::Literal(Literal::Int(i)) => Linear::from(*i),
        Arith::Literal(Literal::Float(x)) => Linear::from(*x),
        Arith::Literal(other) => {
            return Err(at.mismatch(
                &arith.span,
                format!(
                    "`{other}` is {} {}, not a number: arithmetic takes ints and floats",
                    article(other.type_name()),
                    other.type_name()
                ),
            ))
        }
        Arith::Neg(a) => -part(a)?,
        Arith::Add(a, b) => part(a)? + part(b)?,
        Arith::Sub(a, b) => part(a)? - part(b)?,
        Arith::Mul(a, b) => Linear::product(part(a)?, part(b)?).ok_or_else(|| {
            at.malformed(
                &arith.span,
                format!(
                    "not linear: `{}` multiplies two variables",
                    &at.text[arith.span.clone()]
                ),
            )
        })?,
    })
}

/// The comparison an operator makes.
fn comparison(op: Operator) -> Option<Op> {
    match op {
        Operator::Eq => Some(Op::Eq),
        Operator::Ne => Some(Op::Ne),
        Operator::Lt => Some(Op::Lt),
        Operator::Le => Some(Op::Le),
        Operator::Gt => Some(Op::Gt),
        Operator::Ge => Some(Op::Ge),
        Operator::In | Operator::Assign | Operator::AddAssign | Operator::SubAssign => None,
    }
}

/// `name op arithmetic` in a condition or effect on a variable that is not
/// a number: a hint for the unquoted string, else a type error.
fn not_numeric(
    at: &Expression<'_>,
    schema: &Schema,
    name: &At<String>,
    (ty, op): (VarType, Operator),
    rhs: &At<Arith>,
) -> ProblemError {
    if let Arith::Name(word) = &rhs.value {
        if schema.var(word).is_none() {
            return at.malformed(
                &rhs.span,
                format!(
                    "expected a value after `{}`, found the name `{word}` (write strings in quotes: \"{word}\")",
                    op.symbol()
                ),
            );
        }
    }
    at.mismatch(
        &name.span,
        format!(
            "variable `{}` is {} {}, not a number: arithmetic takes ints and floats",
            name.value,
            article(type_name(ty)),
            type_name(ty)
        ),
    )
}

/// A condition with arithmetic on either side (`gold + wood >= 10`,
/// `x < y - 2`); `None` for the other forms.
fn linear_condition(
    at: &Expression<'_>,
    schema: &Schema,
    expr: &Expr,
) -> Option<Result<Predicate, ProblemError>> {
    match expr {
        Expr::Compare { lhs, op, rhs } => Some((|| {
            let compare = comparison(op.value).ok_or_else(|| {
                at.malformed(
                    &op.span,
                    "a condition compares with `==`, `!=`, `<`, `<=`, `>` or `>=`",
                )
            })?;
            Ok(Predicate::linear(
                linear(at, schema, lhs)?,
                compare,
                linear(at, schema, rhs)?,
            ))
        })()),
        Expr::Binary {
            name,
            op,
            rhs: Rhs::Arith(arith),
        } => Some((|| {
            let ty = variable(schema, at, name)?;
            let Some(compare) = comparison(op.value) else {
                return Err(at.malformed(
                    &op.span,
                    format!(
                        "`{}` assigns; a condition compares with `==`, `!=`, `<`, `<=`, `>`, `>=` or `in`",
                        op.value.symbol()
                    ),
                ));
            };
            if !matches!(ty, VarType::Int | VarType::Float) {
                return Err(not_numeric(at, schema, name, (ty, op.value), arith));
            }
            Ok(Predicate::linear(
                Linear::var(&name.value),
                compare,
                linear(at, schema, arith)?,
            ))
        })()),
        _ => None,
    }
}

/// A condition: a comparison, a range, a set, or a bool by itself.
fn condition(
    source: &Source<'_>,
    schema: &Schema,
    text: &Spanned<String>,
) -> Result<Predicate, ProblemError> {
    let (expr, at) = source.expression(text, "condition")?;
    if let Some(predicate) = linear_condition(&at, schema, &expr) {
        return predicate;
    }
    let Some(name) = expr.name() else {
        unreachable!("linear_condition takes arithmetic on the left")
    };
    let ty = variable(schema, &at, name)?;
    match expr {
        Expr::Compare { .. } => unreachable!("handled above"),
        Expr::Bare { name, negated } => {
            if ty == VarType::Bool {
                Ok(Predicate::eq(&name.value, !negated))
            } else {
                Err(not_bool(&at, &name, ty))
            }
        }
        Expr::Binary { name, op, rhs } => {
            let var = name.value.as_str();
            let compare = match op.value {
                Operator::Eq => Op::Eq,
                Operator::Ne => Op::Ne,
                Operator::Lt => Op::Lt,
                Operator::Le => Op::Le,
                Operator::Gt => Op::Gt,
                Operator::Ge => Op::Ge,
                Operator::In => {
                    return match rhs {
                        Rhs::Range(low, high) => {
                            if !matches!(ty, VarType::Int | VarType::Float) {
                                return Err(unsupported(&at, &op, var, ty));
                            }
                            let low_value = fits(&at, var, ty, &low)?;
                            let high_value = fits(&at, var, ty, &high)?;
                            if is_above(&low_value, &high_value) {
                                return Err(at.malformed(
                                    &low.span,
                                    format!(
                                        "the range is empty: its low end {} is above its high end {}",
                                        low.value, high.value
                                    ),
                                ));
                            }
                            Ok(Predicate::in_range(var, low_value, high_value))
                        }
                        Rhs::Set(values) => {
                            let values = values
                                .iter()
                                .map(|v| fits(&at, var, ty, v))
                                .collect::<Result<Vec<_>, _>>()?;
                            Ok(Predicate::one_of(var, values))
                        }
                        Rhs::Literal(_) | Rhs::Not(_) | Rhs::Arith(_) => {
                            Err(at.malformed(&op.span, "expected `[low, high]` or `{a, b}` after `in`"))
                        }
                    };
                }
                Operator::Assign | Operator::AddAssign | Operator::SubAssign => {
                    return Err(at.malformed(
                        &op.span,
                        format!(
                            "`{}` assigns; a condition compares with `==`, `!=`, `<`, `<=`, `>`, `>=` or `in`",
                            op.value.symbol()
                        ),
                    ))
                }
            };
            let literal = match rhs {
                Rhs::Literal(literal) => literal,
                Rhs::Not(n) => {
                    return Err(at.malformed(&n.span, "a condition compares with a constant"))
                }
                Rhs::Range(..) | Rhs::Set(_) => {
                    return Err(at.malformed(&op.span, "a range or set follows `in`"))
                }
                Rhs::Arith(_) => unreachable!("handled above"),
            };
            let value = fits(&at, var, ty, &literal)?;
            if matches!(ty, VarType::Bool | VarType::Str) && !matches!(compare, Op::Eq | Op::Ne) {
                return Err(unsupported(&at, &op, var, ty));
            }
            Ok(Predicate::compare(var, compare, value))
        }
    }
}

/// Whether number `a` is above number `b` (ints compare exactly; an int
/// stands for a float beside a float).
#[expect(clippy::cast_precision_loss, reason = "as the float variable holds it")]
fn is_above(a: &Value, b: &Value) -> bool {
    let float = |v: &Value| match *v {
        Value::Int(i) => Some(i as f64),
        Value::Float(x) => Some(x),
        _ => None,
    };
    match (a, b) {
        (Value::Int(a), Value::Int(b)) => a > b,
        _ => matches!((float(a), float(b)), (Some(a), Some(b)) if a > b),
    }
}

/// An effect: `x = c`, `x += c`, `x -= c`, `x = !x`, or a bool by itself.
fn effect(
    source: &Source<'_>,
    schema: &Schema,
    text: &Spanned<String>,
) -> Result<Effect, ProblemError> {
    let (expr, at) = source.expression(text, "effect")?;
    let Some(name) = expr.name() else {
        let Expr::Compare { op, .. } = &expr else {
            unreachable!("only arithmetic comparisons have no name")
        };
        return Err(at.malformed(
            &op.span,
            "an effect changes one variable: `x = ...`, `x += ...` or `x -= ...`",
        ));
    };
    let ty = variable(schema, &at, name)?;
    match expr {
        Expr::Compare { .. } => unreachable!("handled above"),
        Expr::Binary {
            name,
            op,
            rhs: Rhs::Arith(arith),
        } => {
            let var = name.value.as_str();
            if op.value.is_comparison() {
                return Err(at.malformed(
                    &op.span,
                    format!(
                        "`{}` compares; an effect assigns with `=`, `+=` or `-=`",
                        op.value.symbol()
                    ),
                ));
            }
            if !matches!(ty, VarType::Int | VarType::Float) {
                return Err(not_numeric(&at, schema, &name, (ty, op.value), &arith));
            }
            let value = linear(&at, schema, &arith)?;
            Ok(match op.value {
                Operator::AddAssign => Effect::increase_by(var, value),
                Operator::SubAssign => Effect::decrease_by(var, value),
                _ => Effect::assign(var, value),
            })
        }
        Expr::Bare { name, negated } => {
            if ty == VarType::Bool {
                Ok(Effect::set(&name.value, !negated))
            } else {
                Err(not_bool(&at, &name, ty))
            }
        }
        Expr::Binary { name, op, rhs } => {
            let var = name.value.as_str();
            if op.value.is_comparison() {
                return Err(at.malformed(
                    &op.span,
                    format!(
                        "`{}` compares; an effect assigns with `=`, `+=` or `-=`",
                        op.value.symbol()
                    ),
                ));
            }
            let literal = match rhs {
                Rhs::Literal(literal) => literal,
                Rhs::Not(other) => {
                    if op.value != Operator::Assign || other.value != var {
                        return Err(at.malformed(
                            &other.span,
                            format!("a toggle is written `{var} = !{var}`"),
                        ));
                    }
                    if ty != VarType::Bool {
                        return Err(at.mismatch(
                            &other.span,
                            format!(
                                "only bools toggle, and `{var}` is {} {}",
                                article(type_name(ty)),
                                type_name(ty)
                            ),
                        ));
                    }
                    return Ok(Effect::toggle(var));
                }
                // The parser gives ranges and sets only after `in`.
                Rhs::Range(..) | Rhs::Set(_) => {
                    return Err(at.malformed(&op.span, "an effect assigns a constant"))
                }
                Rhs::Arith(_) => unreachable!("handled above"),
            };
            if matches!(op.value, Operator::AddAssign | Operator::SubAssign)
                && !matches!(ty, VarType::Int | VarType::Float)
            {
                return Err(unsupported(&at, &op, var, ty));
            }
            let value = fits(&at, var, ty, &literal)?;
            match op.value {
                Operator::AddAssign => Ok(Effect::increase(var, value)),
                Operator::SubAssign => Ok(Effect::decrease(var, value)),
                _ => Ok(Effect::set(var, value)),
            }
        }
    }
}

/// A start override: `x = c`, with where `x` is.
fn start_value(
    source: &Source<'_>,
    schema: &Schema,
    text: &Spanned<String>,
) -> Result<(String, Value, Location), ProblemError> {
    let (expr, at) = source.expression(text, "start value")?;
    let Some(name) = expr.name() else {
        return Err(at.malformed(&(0..0), "a start value is written `name = value`"));
    };
    let ty = variable(schema, &at, name)?;
    if let Expr::Binary {
        name,
        op,
        rhs: Rhs::Literal(literal),
    } = &expr
    {
        if op.value == Operator::Assign {
            let value = fits(&at, &name.value, ty, literal)?;
            return Ok((name.value.clone(), value, at.at(&name.span)));
        }
    }
    let name = &expr.name().map_or("name", |n| n.value.as_str());
    Err(at.malformed(
        &(0..0),
        format!("a start value is written `{name} = value`"),
    ))
}
