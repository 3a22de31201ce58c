//! Finalizing a grounding, in named steps: the matched operators are
//! instantiated (and compiled from ADL), the goal is grounded, operators
//! that can never apply or cannot matter to the goal are dropped, and the
//! facts left are renumbered.

use std::mem::size_of;

use super::numeric::NumericGrounding;
use super::{
    objects_by_type, term_value, GroundEffect, GroundOperator, GroundTask, GroundingStats,
    Interned, Out, GOAL_ACTION, GOAL_REACHED,
};
use crate::adl::{literal, Instantiate, Lit, Variant, COMPARISONS};
use crate::limits::{allocated, list_bytes, Budget, CHECK_MASK};
use crate::numeric::{LinearCondition, OperatorNumeric};
use crate::syntax::{AtomTerm, Condition, CostTerm, Domain, Problem, Schema};
use crate::PddlError;

/// Ground atoms to the facts matching found.
struct Facts<'a> {
    interned: &'a Interned,
    key: Vec<u32>,
}

impl Facts<'_> {
    /// The fact of `atom` under `binding`, if reachable.
    fn get(&mut self, atom: &AtomTerm, binding: &[u32]) -> Option<u32> {
        self.key.clear();
        self.key.push(atom.predicate);
        self.key
            .extend(atom.args.iter().map(|t| term_value(*t, binding)));
        self.interned.get(&self.key)
    }
}

/// What finalizing reads besides the operators: the task, which
/// predicates are static, the objects of each type.
struct Context<'a> {
    domain: &'a Domain,
    problem: &'a Problem,
    is_static: &'a [bool],
    objects: Vec<Vec<u32>>,
}

/// The operators and axioms found, with which facts any of them changes.
struct Found {
    operators: Vec<GroundOperator>,
    /// Parallel to `operators`: which are axioms.
    is_axiom: Vec<bool>,
    /// Per fact (and the goal action's fact, if any): whether some
    /// operator changes it.
    changed: Vec<bool>,
}

impl Found {
    /// Keeps the operators (and their axiom flags) whose `keep` is true.
    fn retain(&mut self, keep: &[bool]) {
        let mut kept = keep.iter();
        self.operators
            .retain(|_| kept.next().copied().unwrap_or(false));
        let mut kept = keep.iter();
        self.is_axiom
            .retain(|_| kept.next().copied().unwrap_or(false));
    }

    /// Counts `o` toward the budget and keeps it.
    fn push(&mut self, o: GroundOperator, axiom: bool, budget: &mut Budget) {
        if self.operators.len() == self.operators.capacity() {
            let before = self.operators.capacity();
            self.operators.reserve(1);
            budget.bytes += (self.operators.capacity() - before) * size_of::<GroundOperator>();
        }
        budget.bytes += allocated(o.name.capacity())
            + [&o.pre, &o.neg_pre, &o.add, &o.del]
                .into_iter()
                .map(list_bytes)
                .sum::<usize>()
            + o.effects_bytes();
        self.operators.push(o);
        self.is_axiom.push(axiom);
    }
}

/// The goal over reachable facts.
struct Wanted {
    goal: Vec<u32>,
    goal_false: Vec<u32>,
    /// Numeric comparisons of a goal formula's one disjunct.
    numeric: Vec<LinearCondition>,
    /// Disjunctions of comparisons the goal wants (each, one of its own).
    clauses: Vec<Vec<LinearCondition>>,
    unsolvable: bool,
}

/// Instantiates the operators, drops facts no operator changes, renumbers.
pub(super) fn finalize(
    domain: &Domain,
    problem: &Problem,
    is_static: &[bool],
    out: &Out,
    init_count: usize,
) -> Result<GroundTask, PddlError> {
    let cx = Context {
        domain,
        problem,
        is_static,
        objects: objects_by_type(domain, problem),
    };
    let mut budget = Budget {
        steps: out.steps,
        limits: out.limits,
        began: out.began,
        bytes: out.bytes(),
    };
    let mut facts = Facts {
        interned: &out.facts,
        key: Vec::new(),
    };
    let mut numeric = NumericGrounding::new(domain, problem)?;
    let mut ops = instantiate_operators(&cx, &out.ops, &mut facts, &mut budget, &mut numeric)?;
    let reachable_operators = ops.is_axiom.iter().filter(|&&axiom| !axiom).count();
    let reachable_axioms = ops.operators.len() - reachable_operators;
    let mut goal = ground_goal(&cx, &mut facts, &mut budget, &mut ops, &mut numeric)?;
    let numeric_goal = numeric.goal()?.map(|mut top| {
        top.append(&mut goal.numeric);
        top
    });
    goal.unsolvable |= numeric_goal.is_none();
    let mut goal_clauses = std::mem::take(&mut goal.clauses);
    drop_inapplicable(&mut ops, &mut goal, init_count);
    keep_relevant(&mut ops, &goal);
    let names = fact_names(&cx, &out.facts, &ops.changed);
    let reachable_facts = ops.changed.len();
    let mut task = renumber(ops, goal, names, init_count);
    task.action_costs = problem.metric || problem.metric_expr.is_some();
    task.cost_scale = numeric.cost_scale();
    let clauses = std::mem::take(&mut goal_clauses);
    super::fluents::keep_read_fluents(
        &mut task,
        &numeric,
        numeric_goal.unwrap_or_default(),
        clauses,
    );
    task.stats = GroundingStats {
        reachable_facts,
        reachable_operators,
        facts: task.facts.len(),
        operators: task.operators.len(),
        conditional_operators: task
            .operators
            .iter()
            .filter(|o| !o.effects.is_empty())
            .count(),
        reachable_axioms,
        axioms: task.axioms.len(),
        fluents: task.stats.fluents,
        unsolvable: task.stats.unsolvable,
        elapsed: budget.began.elapsed(),
    };
    Ok(task)
}

/// Every matched operator (`[schema, binding...]` in `matched`) as ground
/// operators: one per STRIPS variant of its ADL compilation, less those
/// with a contradictory precondition and those that change nothing.
fn instantiate_operators(
    cx: &Context<'_>,
    matched: &Interned,
    facts: &mut Facts<'_>,
    budget: &mut Budget,
    numeric: &mut NumericGrounding<'_>,
) -> Result<Found, PddlError> {
    // Grown as operators come, not sized by `matched`: most matches of an
    // ADL schema may compile to no operator, and the unused capacity
    // would be memory the budget never saw.
    let mut ops = Found {
        operators: Vec::new(),
        is_axiom: Vec::new(),
        changed: vec![false; facts.interned.len()],
    };
    for i in 0..matched.len() {
        let op = matched.key(i);
        if i as u64 & CHECK_MASK == 0 {
            budget.limits.check(budget.began, budget.bytes)?;
        }
        let Some(schema) = cx.domain.actions.get(op[0] as usize) else {
            continue; // a conditional effect's matcher: it only found facts
        };
        let binding = &op[1..];
        let Some(cost) = operator_cost(cx.domain, cx.problem, schema, binding) else {
            continue;
        };
        let name_of = || operator_name(cx.problem, schema, binding);
        let Some((cost, parts)) = numeric.operator(schema, binding, cost, name_of)? else {
            continue;
        };
        let Some(variants) = variants(cx, schema, binding, facts, budget, numeric)? else {
            continue;
        };
        let mut name: Option<String> = None;
        // The variants' slots stay until all are operators; check as they
        // turn into operators, since one schema can make millions.
        let slots = variants.len() * size_of::<Variant>();
        for (k, variant) in variants.into_iter().enumerate() {
            if k as u64 & CHECK_MASK == CHECK_MASK {
                budget.limits.check(budget.began, budget.bytes + slots)?;
            }
            let parts = numeric.with_comparisons(parts.clone(), &variant.pre);
            let parts = numeric
                .with_effects(parts, &variant.numeric)
                .map_err(|message| PddlError::Numeric {
                    context: format!("action `{}`", name_of()),
                    message,
                })?;
            let Some(o) = variant_operator(variant, cost, parts, &mut ops.changed) else {
                continue;
            };
            let name = name.get_or_insert_with(name_of);
            let o = GroundOperator {
                name: name.clone(),
                ..o
            };
            ops.push(o, schema.axiom, budget);
        }
    }
    Ok(ops)
}

/// What an operator of `schema` under `binding` costs: 1 without a
/// metric (0 for an axiom); with one, its `increase`'s amount. `None`
/// when that amount is a function without a value for the arguments: the
/// operator does not exist. A numeric domain's values may be decimals
/// (its grounding scales them to whole numbers).
fn operator_cost(
    domain: &Domain,
    problem: &Problem,
    schema: &Schema,
    binding: &[u32],
) -> Option<f64> {
    if !problem.metric || schema.axiom {
        return Some(f64::from(u32::from(!schema.axiom)));
    }
    match &schema.cost {
        None => Some(0.0),
        Some(CostTerm::Constant(c)) => Some(f64::from(*c)),
        Some(CostTerm::Function { function, args }) => {
            let key = (
                *function,
                args.iter().map(|t| term_value(*t, binding)).collect(),
            );
            // Matching required the value's hidden fact.
            if domain.is_numeric() {
                problem.fluent_values.get(&key).copied()
            } else {
                problem.function_values.get(&key).copied().map(f64::from)
            }
        }
    }
}

/// The operator's name: the schema's, then the objects bound.
fn operator_name(problem: &Problem, schema: &Schema, binding: &[u32]) -> String {
    let mut name = schema.name.clone();
    for &obj in binding {
        name.push(' ');
        name.push_str(&problem.objects[obj as usize].0);
    }
    name
}

/// The STRIPS variants of `schema` under `binding`: its literals as
/// facts, compiled from ADL where it has formulas or conditional effects.
/// `None` when a positive precondition has no fact (which matching
/// rules out).
fn variants(
    cx: &Context<'_>,
    schema: &Schema,
    binding: &[u32],
    facts: &mut Facts<'_>,
    budget: &mut Budget,
    numeric: &mut NumericGrounding<'_>,
) -> Result<Option<Vec<Variant>>, PddlError> {
    let mut pre: Vec<Lit> = Vec::new();
    for c in &schema.pre {
        if let Condition::Atom { positive, atom } = c {
            if cx.is_static[atom.predicate as usize] {
                continue; // checked during matching
            }
            match (positive, facts.get(atom, binding)) {
                (true, None) => return Ok(None), // cannot happen: matched
                (&positive, Some(f)) => pre.push(literal(f, positive)),
                (false, None) => {} // never true
            }
        }
    }
    let add: Vec<u32> = schema
        .add
        .iter()
        .filter_map(|a| facts.get(a, binding))
        .collect();
    let del: Vec<u32> = schema
        .del
        .iter()
        .filter_map(|a| facts.get(a, binding))
        .collect();
    if schema.pre_formulas.is_empty() && schema.effects.is_empty() {
        return Ok(Some(vec![Variant {
            pre,
            add,
            del,
            numeric: Vec::new(),
            effects: Vec::new(),
        }]));
    }
    pre.sort_unstable();
    pre.dedup();
    Instantiate {
        lookup: |atom: &AtomTerm, binding: &[u32]| facts.get(atom, binding),
        numeric,
        is_static: cx.is_static,
        objects: &cx.objects,
        budget,
        keep_conditional: !cx.domain.is_numeric(),
    }
    .compile(
        binding,
        &pre,
        &schema.pre_formulas,
        (&add, &del),
        &schema.effects,
    )
    .map(Some)
}

/// A variant as a ground operator (without its name), its lists sorted,
/// marking the facts it changes in `changed`; `None` for a variant whose
/// precondition contradicts itself or that changes nothing.
fn variant_operator(
    variant: Variant,
    cost: u32,
    numeric: Option<Box<OperatorNumeric>>,
    changed: &mut [bool],
) -> Option<GroundOperator> {
    let (pos, neg): (Vec<Lit>, Vec<Lit>) = variant
        .pre
        .iter()
        .filter(|&&l| l >> 1 < COMPARISONS)
        .partition(|&&l| l & 1 == 0);
    let effects = variant
        .effects
        .into_iter()
        .map(|e| {
            let (pos, neg): (Vec<Lit>, Vec<Lit>) = e.condition.iter().partition(|&&l| l & 1 == 0);
            let mut effect = GroundEffect {
                pre: pos.iter().map(|l| l >> 1).collect(),
                neg_pre: neg.iter().map(|l| l >> 1).collect(),
                add: e.add,
                del: e.del,
            };
            for list in [
                &mut effect.pre,
                &mut effect.neg_pre,
                &mut effect.add,
                &mut effect.del,
            ] {
                list.sort_unstable();
                list.dedup();
            }
            let add = effect.add.clone();
            effect.del.retain(|f| add.binary_search(f).is_err());
            effect
        })
        .collect();
    let mut o = GroundOperator {
        name: String::new(),
        pre: pos.iter().map(|l| l >> 1).collect(),
        neg_pre: neg.iter().map(|l| l >> 1).collect(),
        add: variant.add,
        del: variant.del,
        effects,
        cost,
        numeric,
    };
    for list in [&mut o.pre, &mut o.neg_pre, &mut o.add, &mut o.del] {
        list.sort_unstable();
        list.dedup();
    }
    if o.pre.iter().any(|f| o.neg_pre.binary_search(f).is_ok()) {
        return None; // contradictory precondition
    }
    let add = o.add.clone();
    o.del.retain(|f| add.binary_search(f).is_err());
    // Effects that change nothing (making true what the precondition
    // wants true, false what it wants false) go: kept, they would make
    // the operator touch facts it only reads, and relevance would keep
    // it for them (rovers' `communicate_*` re-adding `channel_free`).
    o.add.retain(|f| o.pre.binary_search(f).is_err());
    o.del.retain(|f| o.neg_pre.binary_search(f).is_err());
    let numeric_effects = o.numeric.as_ref().is_some_and(|n| !n.effects.is_empty());
    if o.add.is_empty() && o.del.is_empty() && o.effects.is_empty() && !numeric_effects {
        return None; // changes nothing
    }
    for &f in o.add.iter().chain(&o.del) {
        changed[f as usize] = true;
    }
    for e in &o.effects {
        for &f in e.add.iter().chain(&e.del) {
            changed[f as usize] = true;
        }
    }
    Some(o)
}

/// The goal over reachable facts: its top-level literals, then its
/// formulas in disjunctive normal form. A goal of several disjuncts gets
/// one goal action per disjunct (added to `ops`) reaching a fact of its
/// own, which becomes the goal.
fn ground_goal(
    cx: &Context<'_>,
    facts: &mut Facts<'_>,
    budget: &mut Budget,
    ops: &mut Found,
    numeric: &mut NumericGrounding<'_>,
) -> Result<Wanted, PddlError> {
    let mut goal = Wanted {
        goal: Vec::new(),
        goal_false: Vec::new(),
        numeric: Vec::new(),
        clauses: Vec::new(),
        unsolvable: false,
    };
    for c in &cx.problem.goal {
        match c {
            Condition::Atom { positive, atom } => match (positive, facts.get(atom, &[])) {
                (true, Some(f)) => goal.goal.push(f),
                (true, None) => goal.unsolvable = true,
                (false, Some(f)) => goal.goal_false.push(f),
                (false, None) => {}
            },
            Condition::Equal {
                positive,
                left,
                right,
            } => {
                if (term_value(*left, &[]) == term_value(*right, &[])) != *positive {
                    goal.unsolvable = true;
                }
            }
            // The reader keeps the top level's comparisons in `numeric_goal`.
            Condition::Compare(_) => {}
        }
    }
    if !cx.problem.goal_formulas.is_empty() {
        let reached = u32::try_from(facts.interned.len()).unwrap_or(u32::MAX);
        let mut instantiate = Instantiate {
            lookup: |atom: &AtomTerm, binding: &[u32]| facts.get(atom, binding),
            numeric,
            is_static: cx.is_static,
            objects: &cx.objects,
            budget,
            keep_conditional: false,
        };
        // A formula that is a disjunction of comparisons alone stays a
        // clause of the numeric goal: in the normal form of the whole
        // goal, such clauses would multiply (IPC 2023's block-grouping
        // has dozens).
        let mut rest = Vec::new();
        let mut clauses = Vec::new();
        for formula in &cx.problem.goal_formulas {
            let disjuncts = instantiate.dnf(std::slice::from_ref(formula), &[])?;
            let comparisons_only = disjuncts.len() > 1
                && disjuncts
                    .iter()
                    .all(|d| d.len() == 1 && d[0] >> 1 >= COMPARISONS);
            if comparisons_only {
                clauses.push(disjuncts.concat());
            } else {
                rest.push(formula.clone());
            }
        }
        let disjuncts = instantiate.dnf(&rest, &[])?;
        for clause in clauses {
            let clause = clause
                .iter()
                .filter_map(|&l| numeric.comparison_of(l))
                .collect();
            goal.clauses.push(clause);
        }
        add_goal_disjuncts(&mut goal, &disjuncts, reached, ops, numeric);
    }
    // A goal that wants a fact both true and false cannot hold (the
    // impossible fact `renumber` adds stands for it).
    goal.goal.sort_unstable();
    goal.goal.dedup();
    let wanted_false = goal.goal_false.len();
    let true_goal = &goal.goal;
    goal.goal_false
        .retain(|f| true_goal.binary_search(f).is_err());
    goal.unsolvable |= goal.goal_false.len() < wanted_false;
    Ok(goal)
}

/// Joins the goal formulas' `disjuncts` to `goal`: none makes it
/// unsolvable, one joins its literals, several make a goal action each
/// (cost 0) reaching the fact `reached`, the goal from then on.
fn add_goal_disjuncts(
    goal: &mut Wanted,
    disjuncts: &[Vec<Lit>],
    reached: u32,
    ops: &mut Found,
    numeric: &NumericGrounding<'_>,
) {
    match disjuncts {
        [] => goal.unsolvable = true,
        [only] => {
            let comparisons = numeric.with_comparisons(None, only);
            goal.numeric
                .extend(comparisons.map(|c| c.conditions).unwrap_or_default());
            for &l in only.iter().filter(|&&l| l >> 1 < COMPARISONS) {
                if l & 1 == 0 {
                    goal.goal.push(l >> 1);
                } else {
                    goal.goal_false.push(l >> 1);
                }
            }
        }
        alternatives => {
            let base: Vec<Lit> = goal
                .goal
                .iter()
                .map(|&f| literal(f, true))
                .chain(goal.goal_false.iter().map(|&f| literal(f, false)))
                .collect();
            for alternative in alternatives {
                let mut lits: Vec<Lit> = base.iter().chain(alternative).copied().collect();
                lits.sort_unstable();
                lits.dedup();
                let (pos, neg): (Vec<Lit>, Vec<Lit>) = lits
                    .iter()
                    .filter(|&&l| l >> 1 < COMPARISONS)
                    .partition(|&&l| l & 1 == 0);
                ops.operators.push(GroundOperator {
                    name: GOAL_ACTION.to_owned(),
                    pre: pos.iter().map(|l| l >> 1).collect(),
                    neg_pre: neg.iter().map(|l| l >> 1).collect(),
                    add: vec![reached],
                    del: Vec::new(),
                    effects: Vec::new(),
                    cost: 0,
                    numeric: numeric.with_comparisons(None, &lits),
                });
                ops.is_axiom.push(false);
            }
            goal.goal = vec![reached];
            goal.goal_false.clear();
            ops.changed.push(true);
        }
    }
}

/// Drops the operators whose precondition a fact no operator changes
/// contradicts (such facts keep their initial value; the first
/// `init_count` facts are the initial state's), and marks the goal
/// unsolvable if it wants such a fact otherwise.
fn drop_inapplicable(ops: &mut Found, goal: &mut Wanted, init_count: usize) {
    let changed = &ops.changed;
    let constant = |f: u32| (!changed[f as usize]).then_some((f as usize) < init_count);
    let applicable = |o: &GroundOperator| {
        !o.pre.iter().any(|&f| constant(f) == Some(false))
            && !o.neg_pre.iter().any(|&f| constant(f) == Some(true))
    };
    let keep: Vec<bool> = ops.operators.iter().map(applicable).collect();
    goal.unsolvable |= goal.goal.iter().any(|&f| constant(f) == Some(false))
        || goal.goal_false.iter().any(|&f| constant(f) == Some(true));
    // So do conditional effects whose condition cannot hold.
    for o in &mut ops.operators {
        o.effects.retain(|e| {
            !e.pre.iter().any(|&f| constant(f) == Some(false))
                && !e.neg_pre.iter().any(|&f| constant(f) == Some(true))
        });
    }
    ops.retain(&keep);
}

/// Relevance, as Fast Downward's translator does it: goal facts are
/// relevant; an operator that adds or deletes a relevant fact is
/// relevant, and so are its preconditions. Other operators are dropped,
/// and other facts count as unchanged (so `renumber` drops them).
fn keep_relevant(ops: &mut Found, goal: &Wanted) {
    let n = ops.changed.len(); // with the goal action's fact, if any
    let mut touching: Vec<Vec<u32>> = vec![Vec::new(); n];
    for (i, o) in ops.operators.iter().enumerate() {
        let effects = o.effects.iter().flat_map(|e| e.add.iter().chain(&e.del));
        for &f in o.add.iter().chain(&o.del).chain(effects) {
            touching[f as usize].push(u32::try_from(i).unwrap_or(u32::MAX));
        }
    }
    let mut relevant = vec![false; n];
    let mut useful = vec![false; ops.operators.len()];
    let mut stack: Vec<u32> = goal.goal.iter().chain(&goal.goal_false).copied().collect();
    for &f in &stack {
        relevant[f as usize] = true;
    }
    // Operators with numeric effects count as relevant: which fluents
    // matter is decided later, over the fluents (`keep_read_fluents`).
    let mut pending: Vec<u32> = (0..ops.operators.len())
        .filter(|&i| {
            ops.operators[i]
                .numeric
                .as_ref()
                .is_some_and(|n| !n.effects.is_empty())
        })
        .map(|i| u32::try_from(i).unwrap_or(u32::MAX))
        .collect();
    loop {
        while let Some(f) = stack.pop() {
            pending.extend(&touching[f as usize]);
        }
        let Some(i) = pending.pop() else { break };
        if useful[i as usize] {
            continue;
        }
        useful[i as usize] = true;
        let o = &ops.operators[i as usize];
        // A conditional effect's condition counts as the operator's.
        let conditions = o
            .effects
            .iter()
            .flat_map(|e| e.pre.iter().chain(&e.neg_pre));
        for &p in o.pre.iter().chain(&o.neg_pre).chain(conditions) {
            if !relevant[p as usize] {
                relevant[p as usize] = true;
                stack.push(p);
            }
        }
    }
    ops.retain(&useful);
    for (c, r) in ops.changed.iter_mut().zip(&relevant) {
        *c &= *r;
    }
}

/// The names of the facts kept (those `changed`), in order: `(p a b)`,
/// or [`GOAL_REACHED`] for the goal action's fact.
fn fact_names(cx: &Context<'_>, facts: &Interned, changed: &[bool]) -> Vec<String> {
    let mut names = Vec::new();
    for (f, _) in changed.iter().enumerate().filter(|(_, &c)| c) {
        if f == facts.len() {
            names.push(GOAL_REACHED.to_owned());
            continue;
        }
        let k = facts.key(f);
        let mut name = format!("({}", cx.domain.predicates[k[0] as usize].name);
        for &obj in &k[1..] {
            name.push(' ');
            name.push_str(&cx.problem.objects[obj as usize].0);
        }
        name.push(')');
        names.push(name);
    }
    names
}

/// The task on the kept facts, numbered from 0 in the order of their
/// names, operators (and axioms, apart) in the order of theirs: an order
/// that the order of the files' `:init` facts, objects, predicates and
/// actions does not change, so that neither do the searches' tie-breaking,
/// expansions and plans. Then the initial state and the goal, and for an
/// unsolvable goal a fact nothing makes true. Its statistics are left for
/// the caller but `unsolvable`.
fn renumber(ops: Found, mut goal: Wanted, names: Vec<String>, init_count: usize) -> GroundTask {
    let mut by_name: Vec<usize> = (0..names.len()).collect();
    by_name.sort_unstable_by(|&a, &b| names[a].cmp(&names[b]));
    let mut rank = vec![0; names.len()];
    for (r, &k) in by_name.iter().enumerate() {
        rank[k] = u32::try_from(r).unwrap_or(u32::MAX);
    }
    let mut renumbered = vec![u32::MAX; ops.changed.len()];
    let kept = ops.changed.iter().enumerate().filter(|(_, &c)| c);
    for (next, (f, _)) in kept.enumerate() {
        renumbered[f] = rank[next];
    }
    let mut slots: Vec<Option<String>> = names.into_iter().map(Some).collect();
    let mut names: Vec<String> = by_name
        .iter()
        .map(|&k| slots[k].take().unwrap_or_default())
        .collect();
    let map = |list: &mut Vec<u32>| {
        list.retain(|&f| renumbered[f as usize] != u32::MAX);
        for f in list.iter_mut() {
            *f = renumbered[*f as usize];
        }
        list.sort_unstable();
    };
    let (axioms, operators): (Vec<_>, Vec<_>) = ops
        .operators
        .into_iter()
        .zip(ops.is_axiom)
        .partition(|(_, axiom)| *axiom);
    let mut operators: Vec<GroundOperator> = operators.into_iter().map(|(o, _)| o).collect();
    let mut axioms: Vec<GroundOperator> = axioms.into_iter().map(|(o, _)| o).collect();
    for o in operators.iter_mut().chain(&mut axioms) {
        map(&mut o.pre);
        map(&mut o.neg_pre);
        map(&mut o.add);
        map(&mut o.del);
        for e in &mut o.effects {
            map(&mut e.pre);
            map(&mut e.neg_pre);
            map(&mut e.add);
            map(&mut e.del);
        }
        // Effects on facts the goal does not depend on are gone.
        o.effects.retain(|e| !e.add.is_empty() || !e.del.is_empty());
        o.effects.sort();
    }
    // By name; the variants of one ADL operator by what they need and do.
    let order = |a: &GroundOperator, b: &GroundOperator| {
        (
            &a.name, &a.pre, &a.neg_pre, &a.add, &a.del, &a.effects, a.cost,
        )
            .cmp(&(
                &b.name, &b.pre, &b.neg_pre, &b.add, &b.del, &b.effects, b.cost,
            ))
    };
    operators.sort_by(order);
    axioms.sort_by(order);
    let mut init: Vec<u32> = (0..init_count)
        .map(|f| u32::try_from(f).unwrap_or(u32::MAX))
        .collect();
    map(&mut init);
    map(&mut goal.goal);
    map(&mut goal.goal_false);
    if goal.unsolvable {
        // A fact nothing makes true stands for the impossible goal.
        goal.goal
            .push(u32::try_from(names.len()).unwrap_or(u32::MAX));
        names.push("<unreachable goal>".to_owned());
    }
    GroundTask {
        facts: names,
        operators,
        axioms,
        init,
        goal: goal.goal,
        goal_false: goal.goal_false,
        action_costs: false,
        cost_scale: 1,
        numeric: None,
        stats: GroundingStats {
            unsolvable: goal.unsolvable,
            ..GroundingStats::default()
        },
    }
}
