//! Reading the bodies of a domain: preconditions and goals into negation
//! normal form, effects (`forall`, `when`), action costs, action schemas
//! and axioms (`:derived`).

use rustc_hash::FxHashMap;

use crate::numeric_reader::{is_numeric_equality, read_comparison, read_numeric_effect};
use crate::reading::{
    is_total_cost, read_atom, read_function_term, read_term, refuse_keyword, type_set, Reader,
    Scope, TOTAL_COST,
};
use crate::sexp::Sexp;
use crate::syntax::{
    AtomTerm, CondEffect, Condition, CostTerm, Domain, Formula, NumCondition, NumEffect, Schema,
    Term, TypeSet,
};
use crate::{Location, PddlError};

/// Where a formula's numeric comparisons go.
pub(crate) struct Comparisons<'v> {
    /// Those of the top-level conjunction, when the formula is part of it.
    pub(crate) top: Option<&'v mut Vec<NumCondition>>,
    /// Whether the others (inside `or`, a quantifier, a `when` condition)
    /// may stay in the formula: not in an axiom's body, which grounding
    /// evaluates on facts alone.
    pub(crate) nested: bool,
    /// Whether the formula is a `when` condition, which grounding also
    /// negates (the variant where the effect does not fire): `a = b` is
    /// read as `a <= b and a >= b`, each with a one-comparison negation.
    pub(crate) negatable: bool,
}

impl Comparisons<'_> {
    /// No comparison anywhere.
    pub(crate) fn none() -> Comparisons<'static> {
        Comparisons {
            top: None,
            nested: false,
            negatable: false,
        }
    }

    /// Comparisons anywhere, each a literal grounding may negate.
    fn negatable() -> Comparisons<'static> {
        Comparisons {
            top: None,
            nested: true,
            negatable: true,
        }
    }

    /// The same, below a junction that keeps (`conjunctive`) or leaves
    /// the top-level conjunction.
    fn below(&mut self, conjunctive: bool) -> Comparisons<'_> {
        Comparisons {
            top: if conjunctive {
                self.top.as_deref_mut()
            } else {
                None
            },
            nested: self.nested,
            negatable: self.negatable,
        }
    }
}

/// A precondition or goal, read with the polarity `positive` (false under
/// an odd number of `not`s) into negation normal form. Numeric
/// comparisons go where `numeric` says.
pub(crate) fn read_formula(
    r: &Reader<'_>,
    domain: &Domain,
    scope: &mut Scope<'_>,
    s: &Sexp,
    positive: bool,
    mut numeric: Comparisons<'_>,
) -> Result<Formula, PddlError> {
    let items = r.list(s, "a condition `(...)`")?;
    let Some(head_sexp) = items.first() else {
        // `()`: no condition, true (and false under `not`).
        return Ok(if positive {
            Formula::And(Vec::new())
        } else {
            Formula::Or(Vec::new())
        });
    };
    let head = r.symbol(head_sexp, "a predicate or `and`, `or`, `not`, `=`")?;
    let junction = |conjunction: bool, parts: Vec<Formula>| {
        if conjunction {
            Formula::And(parts)
        } else {
            Formula::Or(parts)
        }
    };
    match head {
        "and" | "or" => {
            let conjunction = (head == "and") == positive;
            let mut parts = Vec::with_capacity(items.len() - 1);
            for item in &items[1..] {
                let below = numeric.below(conjunction);
                parts.push(read_formula(r, domain, scope, item, positive, below)?);
            }
            Ok(junction(conjunction, parts))
        }
        "not" => {
            let [_, inner] = items else {
                return Err(r.syntax(s.at(), "`not` takes one condition"));
            };
            read_formula(r, domain, scope, inner, !positive, numeric)
        }
        "<" | "<=" | ">" | ">=" | "=" if head != "=" || is_numeric_equality(items) => {
            read_comparison_formula(r, domain, scope, s, positive, numeric)
        }
        "imply" => {
            // `a -> b` is `not a or b`; negated, `a and not b`.
            let [_, a, b] = items else {
                return Err(r.syntax(s.at(), "`imply` takes two conditions"));
            };
            let parts = vec![
                read_formula(r, domain, scope, a, !positive, numeric.below(false))?,
                read_formula(r, domain, scope, b, positive, numeric.below(false))?,
            ];
            Ok(junction(!positive, parts))
        }
        "exists" | "forall" => {
            let [_, list, body] = items else {
                return Err(r.syntax(s.at(), format!("expected `({head} (?x ...) condition)`")));
            };
            let vars = scope.enter(r, domain, list)?;
            let body = read_formula(r, domain, scope, body, positive, numeric.below(false));
            scope.leave(vars.len());
            Ok(Formula::Quantified {
                universal: (head == "forall") == positive,
                vars,
                body: Box::new(body?),
            })
        }
        "=" => {
            let (left, right) = read_equality(r, scope, s)?;
            Ok(Formula::Literal(Condition::Equal {
                positive,
                left,
                right,
            }))
        }
        _ => {
            refuse_keyword(r, head, head_sexp.at())?;
            if head == "when" {
                return Err(r.syntax(head_sexp.at(), "`when` outside an effect"));
            }
            Ok(Formula::Literal(Condition::Atom {
                positive,
                atom: read_atom(r, domain, scope, s)?,
            }))
        }
    }
}

/// A numeric comparison in a formula (see [`read_formula`]): into the
/// top-level conjunction's list, or a literal of the formula, or refused
/// where grounding evaluates facts alone.
fn read_comparison_formula(
    r: &Reader<'_>,
    domain: &Domain,
    scope: &Scope<'_>,
    s: &Sexp,
    positive: bool,
    numeric: Comparisons<'_>,
) -> Result<Formula, PddlError> {
    let head = s.head().unwrap_or("");
    if !positive && head == "=" {
        // `a != b` is `a < b or a > b`.
        let mut parts = Vec::new();
        for op in ["<", ">"] {
            let flipped = read_comparison(r, domain, scope, s, true, Some(op))?;
            parts.push(Formula::Literal(Condition::Compare(flipped)));
        }
        if !numeric.nested {
            return Err(r.unsupported(s.at(), "negated numeric `=` in an axiom"));
        }
        return Ok(Formula::Or(parts));
    }
    if positive && head == "=" && numeric.negatable {
        let mut parts = Vec::new();
        for op in ["<=", ">="] {
            let half = read_comparison(r, domain, scope, s, true, Some(op))?;
            parts.push(Formula::Literal(Condition::Compare(half)));
        }
        return Ok(Formula::And(parts));
    }
    let comparison = read_comparison(r, domain, scope, s, positive, None)?;
    if let Some(top) = numeric.top {
        top.push(comparison);
        return Ok(Formula::And(Vec::new()));
    }
    if !numeric.nested {
        return Err(r.unsupported(s.at(), format!("numeric comparison `{head}` in an axiom")));
    }
    Ok(Formula::Literal(Condition::Compare(comparison)))
}

/// A condition's literals at the top level, and the rest.
pub(crate) fn split_conjunction(formula: Formula) -> (Vec<Condition>, Vec<Formula>) {
    let mut literals = Vec::new();
    let mut rest = Vec::new();
    let mut stack = vec![formula];
    while let Some(f) = stack.pop() {
        match f {
            Formula::Literal(c) => literals.push(c),
            Formula::And(items) => stack.extend(items.into_iter().rev()),
            other => rest.push(other),
        }
    }
    (literals, rest)
}

fn read_equality(r: &Reader<'_>, scope: &Scope<'_>, s: &Sexp) -> Result<(Term, Term), PddlError> {
    match r.list(s, "`(= a b)`")? {
        [_, a, b] => Ok((read_term(r, scope, a)?, read_term(r, scope, b)?)),
        _ => Err(r.syntax(s.at(), "`=` takes two terms")),
    }
}

/// What an effect is read into: the action's unconditional effects and
/// its `forall`/`when` groups, and its cost.
#[derive(Default)]
struct Effects {
    groups: Vec<CondEffect>,
    cost: Option<CostTerm>,
    /// Unconditional numeric effects.
    numeric: Vec<NumEffect>,
}

/// An effect: atoms and negated atoms, in `and`, `forall` and `when`,
/// nested as PDDL allows; `group` collects the literals at this level
/// (index 0 of `out.groups` is the unconditional group).
fn read_effect(
    r: &Reader<'_>,
    domain: &Domain,
    scope: &mut Scope<'_>,
    s: &Sexp,
    group: usize,
    out: &mut Effects,
) -> Result<(), PddlError> {
    let items = r.list(s, "an effect `(...)`")?;
    let Some(head_sexp) = items.first() else {
        return Ok(());
    };
    let head = r.symbol(head_sexp, "a predicate or `and`, `not`, `forall`, `when`")?;
    match head {
        "and" => {
            for item in &items[1..] {
                read_effect(r, domain, scope, item, group, out)?;
            }
            Ok(())
        }
        "forall" => {
            let [_, list, body] = items else {
                return Err(r.syntax(s.at(), "expected `(forall (?x ...) effect)`"));
            };
            let vars = scope.enter(r, domain, list)?;
            let mut inner = CondEffect {
                condition: out.groups[group].condition.clone(),
                vars: out.groups[group].vars.clone(),
                ..CondEffect::default()
            };
            inner.vars.extend(vars.iter().cloned());
            out.groups.push(inner);
            let result = read_effect(r, domain, scope, body, out.groups.len() - 1, out);
            scope.leave(vars.len());
            result
        }
        "when" => {
            let [_, condition, body] = items else {
                return Err(r.syntax(s.at(), "expected `(when condition effect)`"));
            };
            let mut inner = CondEffect {
                condition: out.groups[group].condition.clone(),
                vars: out.groups[group].vars.clone(),
                ..CondEffect::default()
            };
            inner.condition.push(read_formula(
                r,
                domain,
                scope,
                condition,
                true,
                Comparisons::negatable(),
            )?);
            out.groups.push(inner);
            read_effect(r, domain, scope, body, out.groups.len() - 1, out)
        }
        "not" => {
            let [_, inner] = items else {
                return Err(r.syntax(s.at(), "`not` takes one atom"));
            };
            let inner_head = inner.head().unwrap_or("");
            refuse_keyword(r, inner_head, inner.at())?;
            if matches!(inner_head, "and" | "not" | "=" | "forall" | "when") {
                return Err(r.syntax(
                    inner.at(),
                    format!("`{inner_head}` inside a negated effect"),
                ));
            }
            let atom = read_atom(r, domain, scope, inner)?;
            refuse_derived(r, domain, &atom, inner.at())?;
            out.groups[group].del.push(atom);
            Ok(())
        }
        "=" => Err(r.syntax(head_sexp.at(), "`=` in an effect")),
        "increase"
            if items.get(1).is_some_and(is_total_cost) && !is_arithmetic(domain, items.get(2)) =>
        {
            if group != 0 {
                return Err(r.unsupported(head_sexp.at(), "action cost inside `forall` or `when`"));
            }
            if out.cost.is_some() {
                return Err(r.syntax(
                    head_sexp.at(),
                    "a second `(increase (total-cost) ...)` in one action",
                ));
            }
            out.cost = Some(read_cost(r, domain, scope, s)?);
            Ok(())
        }
        "assign" | "increase" | "decrease" | "scale-up" | "scale-down" => {
            read_numeric(r, domain, scope, s, group, out)
        }
        _ => {
            refuse_keyword(r, head, head_sexp.at())?;
            if matches!(head, "or" | "imply" | "exists") {
                return Err(r.syntax(head_sexp.at(), format!("`{head}` in an effect")));
            }
            let atom = read_atom(r, domain, scope, s)?;
            refuse_derived(r, domain, &atom, s.at())?;
            out.groups[group].add.push(atom);
            Ok(())
        }
    }
}

/// A numeric effect (see [`read_effect`]) into its group: never on
/// `total-cost` but as an unconditional `increase`.
fn read_numeric(
    r: &Reader<'_>,
    domain: &Domain,
    scope: &Scope<'_>,
    s: &Sexp,
    group: usize,
    out: &mut Effects,
) -> Result<(), PddlError> {
    let items = r.list(s, "an effect `(...)`")?;
    let head_sexp = &items[0];
    let head = head_sexp.symbol().unwrap_or("");
    if items.get(1).is_some_and(is_total_cost) {
        if group != 0 {
            return Err(r.unsupported(head_sexp.at(), "action cost inside `forall` or `when`"));
        }
        if head != "increase" {
            return Err(r.unsupported(
                head_sexp.at(),
                format!("numeric effect `{head}` on `total-cost` (actions only increase it)"),
            ));
        }
    }
    if let Some(effect) = read_numeric_effect(r, domain, scope, s)? {
        if group == 0 {
            out.numeric.push(effect);
        } else {
            out.groups[group].numeric.push(effect);
        }
    }
    Ok(())
}

/// Refuses an effect on a derived predicate: axioms alone decide those.
fn refuse_derived(
    r: &Reader<'_>,
    domain: &Domain,
    atom: &AtomTerm,
    at: Location,
) -> Result<(), PddlError> {
    if domain.derived.get(atom.predicate as usize) == Some(&true) {
        let name = &domain.predicates[atom.predicate as usize].name;
        return Err(r.syntax(
            at,
            format!("an action changes derived predicate `{name}`, which only axioms (`:derived`) may set"),
        ));
    }
    Ok(())
}

/// `(:derived (p ?x - t ...) body)`: a rule whose parameters are the
/// head's variables (distinct) and the body's free variables none else.
pub(crate) fn read_axiom(
    r: &Reader<'_>,
    domain: &Domain,
    constants: &FxHashMap<String, u32>,
    section: &Sexp,
) -> Result<Schema, PddlError> {
    let [_, head, body] = r.list(section, "`(:derived (p ?x ...) condition)`")? else {
        return Err(r.syntax(section.at(), "expected `(:derived (p ?x ...) condition)`"));
    };
    let parts = r.list(head, "a derived atom `(p ?x ...)`")?;
    let Some(name_sexp) = parts.first() else {
        return Err(r.syntax(head.at(), "empty derived atom"));
    };
    let name = r.symbol(name_sexp, "a predicate name")?;
    let Some(&predicate) = domain.predicate_index.get(name) else {
        return Err(r.undefined(name_sexp.at(), "predicate", name));
    };
    let mut params: Vec<(String, TypeSet)> = Vec::new();
    for (var, at, ty) in r.typed_list(&parts[1..])? {
        if !var.starts_with('?') {
            return Err(r.syntax(at, format!("expected a variable, found `{var}`")));
        }
        if params.iter().any(|(v, _)| v == var) {
            return Err(r.duplicate(at, "variable", var));
        }
        params.push((var.to_owned(), type_set(r, domain, ty)?));
    }
    let declared = domain.predicates[predicate as usize].params.len();
    if params.len() != declared {
        return Err(PddlError::Arity {
            file: r.file.to_owned(),
            at: name_sexp.at(),
            name: name.to_owned(),
            expected: declared,
            found: params.len(),
        });
    }
    let mut scope = Scope {
        vars: params.clone(),
        objects: constants,
    };
    let (pre, pre_formulas) = split_conjunction(read_formula(
        r,
        domain,
        &mut scope,
        body,
        true,
        Comparisons::none(),
    )?);
    let args = (0..params.len())
        .map(|v| Term::Var(u32::try_from(v).unwrap_or(u32::MAX)))
        .collect();
    Ok(Schema {
        name: name.to_owned(),
        params,
        pre,
        pre_formulas,
        add: vec![AtomTerm { predicate, args }],
        del: Vec::new(),
        effects: Vec::new(),
        cost: None,
        numeric_pre: Vec::new(),
        numeric_effects: Vec::new(),
        axiom: true,
    })
}

/// Whether an amount is arithmetic `(+ ...)`, or in a domain that
/// declares numeric fluents a positive number that is not a whole one
/// (`1.25`): read as a numeric effect (grounding scales the metric to
/// whole numbers) rather than as an action cost (a whole number or a
/// function's value).
fn is_arithmetic(domain: &Domain, amount: Option<&Sexp>) -> bool {
    match amount {
        Some(Sexp::Symbol(text, _)) => {
            domain.numeric_declared
                && text.parse::<u32>().is_err()
                && text.parse::<f64>().is_ok_and(|v| v.is_finite() && v > 0.0)
        }
        amount => matches!(amount.and_then(Sexp::head), Some("+" | "-" | "*" | "/")),
    }
}

/// `(increase (total-cost) amount)`: the amount.
fn read_cost(
    r: &Reader<'_>,
    domain: &Domain,
    scope: &Scope<'_>,
    s: &Sexp,
) -> Result<CostTerm, PddlError> {
    let [_, target, amount] = r.list(s, "an effect")? else {
        return Err(r.syntax(s.at(), "expected `(increase (total-cost) amount)`"));
    };
    if !domain.function_index.contains_key(TOTAL_COST) {
        let at = target.list().map_or(target.at(), |l| l[0].at());
        return Err(r.undefined(at, "function", TOTAL_COST));
    }
    Ok(match amount {
        Sexp::Symbol(..) => CostTerm::Constant(r.number(amount, "cost")?),
        Sexp::List(..) => {
            let (function, args) = read_function_term(r, domain, scope, amount)?;
            if domain.functions[function as usize].predicate.is_none() {
                return Err(r.syntax(amount.at(), "`(total-cost)` cannot be an action's cost"));
            }
            CostTerm::Function { function, args }
        }
    })
}

pub(crate) fn read_action(
    r: &Reader<'_>,
    domain: &Domain,
    constants: &FxHashMap<String, u32>,
    section: &Sexp,
) -> Result<Schema, PddlError> {
    let items = r.list(section, "`(:action ...)`")?;
    let Some(name_sexp) = items.get(1) else {
        return Err(r.syntax(section.at(), "`:action` without a name"));
    };
    let name = r.symbol(name_sexp, "an action name")?;
    let mut params: Vec<(String, TypeSet)> = Vec::new();
    let mut precondition = None;
    let mut effect = None;
    let mut i = 2;
    while i < items.len() {
        let key = r.symbol(&items[i], "`:parameters`, `:precondition` or `:effect`")?;
        let Some(value) = items.get(i + 1) else {
            return Err(r.syntax(items[i].at(), format!("`{key}` without a value")));
        };
        match key {
            ":parameters" => {
                for (var, at, ty) in r.typed_list(r.list(value, "a parameter list")?)? {
                    if !var.starts_with('?') {
                        return Err(r.syntax(at, format!("expected a variable, found `{var}`")));
                    }
                    if params.iter().any(|(v, _)| v == var) {
                        return Err(r.duplicate(at, "variable", var));
                    }
                    params.push((var.to_owned(), type_set(r, domain, ty)?));
                }
            }
            ":precondition" => precondition = Some(value),
            ":effect" => effect = Some(value),
            ":duration" | ":condition" => {
                return Err(r.unsupported(items[i].at(), format!("durative action key `{key}`")));
            }
            other => {
                return Err(r.syntax(items[i].at(), format!("unknown action key `{other}`")));
            }
        }
        i += 2;
    }
    let mut scope = Scope {
        vars: params.clone(),
        objects: constants,
    };
    let mut numeric_pre = Vec::new();
    let (mut pre, pre_formulas) = match precondition {
        Some(p) => {
            let comparisons = Comparisons {
                top: Some(&mut numeric_pre),
                nested: true,
                negatable: false,
            };
            let formula = read_formula(r, domain, &mut scope, p, true, comparisons)?;
            split_conjunction(formula)
        }
        None => (Vec::new(), Vec::new()),
    };
    let mut effects = Effects {
        groups: vec![CondEffect::default()],
        cost: None,
        numeric: Vec::new(),
    };
    if let Some(e) = effect {
        read_effect(r, domain, &mut scope, e, 0, &mut effects)?;
    }
    if let Some(CostTerm::Function { function, args }) = &effects.cost {
        // Only the operators whose cost has a value exist (see `Function`).
        if let Some(predicate) = domain.functions[*function as usize].predicate {
            pre.push(Condition::Atom {
                positive: true,
                atom: AtomTerm {
                    predicate,
                    args: args.clone(),
                },
            });
        }
    }
    let mut groups = effects.groups.into_iter();
    let unconditional = groups.next().unwrap_or_default();
    Ok(Schema {
        name: name.to_owned(),
        params,
        pre,
        pre_formulas,
        add: unconditional.add,
        del: unconditional.del,
        effects: groups
            .filter(|g| !g.add.is_empty() || !g.del.is_empty() || !g.numeric.is_empty())
            .collect(),
        cost: effects.cost,
        numeric_pre,
        numeric_effects: effects.numeric,
        axiom: false,
    })
}
