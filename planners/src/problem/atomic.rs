//! `kind = "atomic"`: atoms, actions, start and goal into an
//! [`ActionSet<u64>`].

use std::collections::HashMap;

use state_atomic::problems::Problem;
use state_atomic::ActionSet;
use toml::Spanned;

use super::expr::{Expr, Literal, Operator, Rhs};
use super::{Declared, Expression, ProblemError, RawProblem, Source};

/// Builds the problem; `raw.kind` is `atomic`.
pub(super) fn build(
    source: &Source<'_>,
    raw: &RawProblem,
    name: String,
) -> Result<Problem<u64>, ProblemError> {
    if let Some(variables) = &raw.variables {
        return Err(source.invalid(
            &variables.span(),
            "`[variables]` belongs to factored problems; an atomic problem lists `atoms` (and `shared`)",
        ));
    }
    if raw.atoms.is_none() && raw.shared.is_none() {
        return Err(source.missing("`atoms = [...]`"));
    }
    let mut actions = ActionSet::<u64>::new();
    let mut declared = Declared::new("atom");
    for (list, shared) in [(&raw.atoms, false), (&raw.shared, true)] {
        for atom in list.iter().flat_map(Spanned::get_ref) {
            declared.insert(source, atom)?;
            let added = if shared {
                actions.declare_shared(atom.get_ref())
            } else {
                actions.declare(atom.get_ref())
            };
            added.map_err(|e| source.invalid(&atom.span(), e.to_string()))?;
        }
    }

    if raw.action.is_empty() {
        return Err(source.missing("actions: add `[[action]]` tables"));
    }
    let mut names = HashMap::new();
    for action in &raw.action {
        let action = action.get_ref();
        super::action_name(source, &mut names, &action.name)?;
        let cost = super::cost(source, action.cost.as_ref())?;
        let mut checked = Vec::new();
        for pre in &action.pre {
            checked.push((true, condition(source, &actions, pre)?));
        }
        for eff in &action.eff {
            checked.push((false, effect(source, &actions, eff, "effect")?));
        }
        let mut builder = actions.add_action(action.name.get_ref(), cost);
        for (is_pre, (atom, value, at)) in checked {
            let result = if is_pre {
                builder.try_pre(&atom, value).map(|_| ())
            } else {
                builder.try_eff(&atom, value).map(|_| ())
            };
            result.map_err(|e| ProblemError::Invalid {
                at,
                message: e.to_string(),
            })?;
        }
    }
    actions
        .check()
        .map_err(|e| source.invalid(&(0..0), e.to_string()))?;

    let mut start = actions
        .state([])
        .map_err(|e| source.invalid(&(0..0), e.to_string()))?;
    let mut set = HashMap::new();
    for value in raw.start.iter().flat_map(Spanned::get_ref) {
        let (atom, truth, at) = effect(source, &actions, value, "start value")?;
        if set
            .insert(atom.clone(), truth)
            .is_some_and(|old| old != truth)
        {
            return Err(ProblemError::Invalid {
                at,
                message: format!("the start gives atom `{atom}` both values"),
            });
        }
        let atom_id = actions
            .registry()
            .atom(&atom)
            .map_err(|e| source.invalid(&value.span(), e.to_string()))?;
        start = start.with(atom_id, truth);
    }

    let Some(goal_list) = &raw.goal else {
        return Err(source.missing("`goal = [...]`"));
    };
    let mut wanted = HashMap::new();
    for condition_text in goal_list.get_ref() {
        let (atom, truth, at) = condition(source, &actions, condition_text)?;
        if wanted
            .insert(atom.clone(), truth)
            .is_some_and(|old| old != truth)
        {
            return Err(ProblemError::Invalid {
                at,
                message: format!("the goal asks for both values of atom `{atom}`"),
            });
        }
    }
    let goal = actions
        .partial(wanted.iter().map(|(atom, &truth)| (atom.as_str(), truth)))
        .map_err(|e| source.invalid(&goal_list.span(), e.to_string()))?;

    Ok(Problem {
        name,
        actions,
        start,
        goal,
    })
}

/// An atom, its value, and where the expression is.
type Checked = (String, bool, super::Location);

/// Checks that the atom an expression names is declared.
fn known(actions: &ActionSet<u64>, at: &Expression<'_>, expr: &Expr) -> Result<(), ProblemError> {
    let Some(name) = expr.name() else {
        return Err(at.malformed(
            &(0..0),
            "atoms take no arithmetic: arithmetic is for factored problems",
        ));
    };
    if actions.registry().atom(&name.value).is_err() {
        return Err(at.unknown("atom", name));
    }
    Ok(())
}

/// `atom`, `!atom`, `atom == true|false`, `atom != true|false`.
fn condition(
    source: &Source<'_>,
    actions: &ActionSet<u64>,
    text: &Spanned<String>,
) -> Result<Checked, ProblemError> {
    let (expr, at) = source.expression(text, "condition")?;
    known(actions, &at, &expr)?;
    let whole = at.at(&(0..0));
    match expr {
        Expr::Bare { name, negated } => Ok((name.value, !negated, whole)),
        // `known` refuses arithmetic.
        Expr::Compare { op, .. } => Err(at.malformed(&op.span, "atoms take no arithmetic")),
        Expr::Binary { name, op, rhs } => {
            let negate = match op.value {
                Operator::Eq => false,
                Operator::Ne => true,
                Operator::Assign | Operator::AddAssign | Operator::SubAssign => {
                    return Err(at.malformed(
                        &op.span,
                        format!(
                            "`{}` assigns; a condition compares with `==` or `!=`",
                            op.value.symbol()
                        ),
                    ))
                }
                _ => {
                    return Err(at.malformed(
                        &op.span,
                        format!(
                            "atoms are compared with `==` and `!=` only, not `{}`",
                            op.value.symbol()
                        ),
                    ))
                }
            };
            let value = truth(&at, &name.value, &rhs)?;
            Ok((name.value, value != negate, whole))
        }
    }
}

/// `atom`, `!atom`, `atom = true|false`.
fn effect(
    source: &Source<'_>,
    actions: &ActionSet<u64>,
    text: &Spanned<String>,
    part: &'static str,
) -> Result<Checked, ProblemError> {
    let (expr, at) = source.expression(text, part)?;
    known(actions, &at, &expr)?;
    let whole = at.at(&(0..0));
    match expr {
        Expr::Bare { name, negated } => Ok((name.value, !negated, whole)),
        Expr::Compare { op, .. } => Err(at.malformed(&op.span, "atoms take no arithmetic")),
        Expr::Binary { name, op, rhs } => match op.value {
            Operator::Assign => {
                if let Rhs::Not(_) = rhs {
                    return Err(at.malformed(
                        &op.span,
                        "an atomic effect cannot toggle: it sets an atom to true or false",
                    ));
                }
                let value = truth(&at, &name.value, &rhs)?;
                Ok((name.value, value, whole))
            }
            Operator::AddAssign | Operator::SubAssign => Err(at.mismatch(
                &op.span,
                format!(
                    "`{}` does not apply to atom `{}`, which is true or false",
                    op.value.symbol(),
                    name.value
                ),
            )),
            _ => Err(at.malformed(
                &op.span,
                format!(
                    "`{}` compares; {} `{}` or `!{}` or `{} = true|false`",
                    op.value.symbol(),
                    if part == "effect" {
                        "an effect is"
                    } else {
                        "a start value is"
                    },
                    name.value,
                    name.value,
                    name.value,
                ),
            )),
        },
    }
}

/// The `true` or `false` on the right of `==`, `!=` or `=`.
fn truth(at: &Expression<'_>, atom: &str, rhs: &Rhs) -> Result<bool, ProblemError> {
    match rhs {
        Rhs::Literal(literal) => match &literal.value {
            Literal::Bool(b) => Ok(*b),
            other => Err(at.mismatch(
                &literal.span,
                format!(
                    "atom `{atom}` is true or false but `{other}` is {} {}",
                    article(other.type_name()),
                    other.type_name()
                ),
            )),
        },
        Rhs::Not(name) => Err(at.malformed(&name.span, "expected `true` or `false`")),
        Rhs::Arith(arith) => Err(at.malformed(&arith.span, "expected `true` or `false`")),
        Rhs::Range(low, _) => Err(at.malformed(&low.span, "expected `true` or `false`")),
        Rhs::Set(values) => Err(at.malformed(
            &values.first().map_or(0..0, |v| v.span.clone()),
            "expected `true` or `false`",
        )),
    }
}

pub(super) fn article(type_name: &str) -> &'static str {
    if type_name.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    }
}
