//! ADL compiled to STRIPS with negative preconditions, one ground
//! operator at a time.
//!
//! A schema's formulas are instantiated for the operator's binding:
//! quantifiers expand over the objects of their types, static atoms,
//! unreachable atoms and equalities become constants and fold away as soon
//! as they appear, so a quantifier over a static condition costs nothing.
//! The precondition goes to disjunctive normal form; each disjunct is an
//! operator of its own. Conditional effects are then simplified against
//! that precondition and split: each variant of the operator chooses, per
//! remaining effect, that it fires (its condition joins the precondition)
//! or not (the negation of its condition joins, as mutually exclusive
//! alternatives `not l1`, `l1 and not l2`, ...). Exactly one variant of a
//! disjunct applies in any state, with exactly the effects PDDL gives it.
//! Every variant and every product of the normal form counts as a step of
//! the grounding limits.
//!
//! Splitting multiplies: an operator whose effects would split into more
//! than [`GroundingLimits::max_variants`](crate::GroundingLimits::max_variants)
//! variants (rubiks-cube's turns move every cubie at once, under a
//! condition each) keeps its conditional effects instead, as one
//! operator, when the task has no numeric fluents
//! ([`Instantiate::keep_conditional`]).

use std::mem::size_of;

use crate::limits::{list_bytes, Budget};
use crate::syntax::{
    AtomTerm, CondEffect, Condition, Formula, NumCondition, NumEffect, Term, TypeSet,
};
use crate::PddlError;

/// A ground literal: `fact << 1`, with the low bit set when negated.
pub(crate) type Lit = u32;

/// The literal that `fact` holds (`positive`) or not.
pub(crate) fn literal(fact: u32, positive: bool) -> Lit {
    fact << 1 | u32::from(!positive)
}

/// Above this many disjuncts, a normal form is not searched for
/// subsumed disjuncts (quadratic); they are harmless, only redundant.
const SUBSUMPTION_LIMIT: usize = 256;

/// A ground formula, negation already at the literals.
enum Ground {
    Const(bool),
    Lit(Lit),
    And(Vec<Ground>),
    Or(Vec<Ground>),
}

/// One conditional effect of a ground operator, its condition a
/// conjunction.
#[derive(Clone, Debug)]
struct Effect {
    condition: Vec<Lit>,
    add: Vec<u32>,
    del: Vec<u32>,
    /// Its numeric effects, as [`Numbers::effect`] numbers them.
    numeric: Vec<u32>,
    /// Whether a numeric effect reads an undefined value or divides by
    /// zero: where it fires, the operator does not apply (PDDL 2.1).
    undefined: bool,
}

impl Effect {
    fn changes_nothing(&self) -> bool {
        self.add.is_empty() && self.del.is_empty() && self.numeric.is_empty() && !self.undefined
    }
}

/// A STRIPS operator made from an ADL one: its precondition as sorted
/// literals, and its effects.
#[derive(Debug)]
pub(crate) struct Variant {
    pub(crate) pre: Vec<Lit>,
    pub(crate) add: Vec<u32>,
    pub(crate) del: Vec<u32>,
    /// The numeric effects of the conditional effects that fire, as
    /// [`Numbers::effect`] numbers them (the unconditional ones are the
    /// caller's).
    pub(crate) numeric: Vec<u32>,
    /// The conditional effects kept as such (none once split).
    pub(crate) effects: Vec<Conditional>,
}

impl Variant {
    /// Its estimated bytes, as the grounding budget counts them.
    fn bytes(&self) -> usize {
        let effects: usize = self
            .effects
            .iter()
            .map(|e| {
                size_of::<Conditional>()
                    + list_bytes(&e.condition)
                    + list_bytes(&e.add)
                    + list_bytes(&e.del)
            })
            .sum();
        size_of::<Variant>()
            + list_bytes(&self.pre)
            + list_bytes(&self.add)
            + list_bytes(&self.del)
            + list_bytes(&self.numeric)
            + effects
    }
}

/// A conditional effect kept in its operator: its condition as sorted
/// literals, and what it adds and deletes.
#[derive(Debug)]
pub(crate) struct Conditional {
    pub(crate) condition: Vec<Lit>,
    pub(crate) add: Vec<u32>,
    pub(crate) del: Vec<u32>,
}

/// The numeric part of instantiation: comparisons in formulas and the
/// numeric effects of `forall` and `when`.
pub(crate) trait Numbers {
    /// A comparison under a binding, grounded.
    fn comparison(&mut self, c: &NumCondition, binding: &[u32]) -> Result<Truth, PddlError>;

    /// A conditional numeric effect under a binding, grounded.
    fn effect(&mut self, e: &NumEffect, binding: &[u32]) -> Result<EffectPart, PddlError>;
}

/// A conditional numeric effect grounded.
pub(crate) enum EffectPart {
    /// An effect, numbered for the caller.
    Effect(u32),
    /// No effect on the state (an increase of a fluent outside the metric).
    Nothing,
    /// It reads an undefined value or divides by zero.
    Undefined,
}

/// A numeric comparison grounded: decided, or a literal of its own (a
/// fact number from [`COMPARISONS`] on, which the caller maps back).
pub(crate) enum Truth {
    Known(bool),
    Comparison(u32),
}

/// The first fact number that stands for a numeric comparison in a
/// formula's literals: no task has that many facts.
pub(crate) const COMPARISONS: u32 = 1 << 30;

/// What instantiation reads: the facts found reachable, which predicates
/// are static, the objects of each type, and the grounding's budget.
pub(crate) struct Instantiate<'a, L, N> {
    /// A ground atom's fact, if reachable (static facts: if true).
    pub(crate) lookup: L,
    /// Comparisons and conditional numeric effects, grounded.
    pub(crate) numeric: &'a mut N,
    pub(crate) is_static: &'a [bool],
    /// Per type: its objects, subtypes' included.
    pub(crate) objects: &'a [Vec<u32>],
    pub(crate) budget: &'a mut Budget,
    /// Whether an operator may keep its conditional effects rather than
    /// split into more than the limits' `max_variants`: the atomic state has
    /// conditional effects, the factored one that numeric tasks ground
    /// onto does not.
    pub(crate) keep_conditional: bool,
}

impl<L, N> Instantiate<'_, L, N>
where
    L: FnMut(&AtomTerm, &[u32]) -> Option<u32>,
    N: Numbers,
{
    /// The objects of a type set (several with `either`).
    fn candidates(&self, types: &TypeSet) -> Vec<u32> {
        if let [t] = types.as_slice() {
            return self.objects.get(*t).cloned().unwrap_or_default();
        }
        let mut all: Vec<u32> = types
            .iter()
            .filter_map(|&t| self.objects.get(t))
            .flatten()
            .copied()
            .collect();
        all.sort_unstable();
        all.dedup();
        all
    }

    fn condition(&mut self, c: &Condition, binding: &[u32]) -> Result<Ground, PddlError> {
        Ok(match c {
            Condition::Equal {
                positive,
                left,
                right,
            } => Ground::Const((value(*left, binding) == value(*right, binding)) == *positive),
            Condition::Compare(comparison) => match self.numeric.comparison(comparison, binding)? {
                Truth::Known(holds) => Ground::Const(holds),
                Truth::Comparison(f) => Ground::Lit(literal(f, true)),
            },
            Condition::Atom { positive, atom } => {
                let fact = (self.lookup)(atom, binding);
                if self.is_static[atom.predicate as usize] {
                    Ground::Const(fact.is_some() == *positive)
                } else {
                    match fact {
                        Some(f) => Ground::Lit(literal(f, *positive)),
                        // Never reachable: always false.
                        None => Ground::Const(!positive),
                    }
                }
            }
        })
    }

    /// `formula` under `binding` (extended by quantifiers, restored after).
    fn instantiate(
        &mut self,
        formula: &Formula,
        binding: &mut Vec<u32>,
    ) -> Result<Ground, PddlError> {
        Ok(match formula {
            Formula::Literal(c) => self.condition(c, binding)?,
            Formula::And(items) | Formula::Or(items) => {
                let conjunction = matches!(formula, Formula::And(_));
                let mut parts = Vec::new();
                for item in items {
                    let part = self.instantiate(item, binding)?;
                    if push(conjunction, part, &mut parts) {
                        return Ok(Ground::Const(!conjunction));
                    }
                }
                junction(conjunction, parts)
            }
            Formula::Quantified {
                universal,
                vars,
                body,
            } => {
                let mut parts = Vec::new();
                if self.expand(*universal, vars, body, binding, &mut parts)? {
                    return Ok(Ground::Const(!universal));
                }
                junction(*universal, parts)
            }
        })
    }

    /// The parts of a quantifier's conjunction (`universal`) or
    /// disjunction, one per binding of `vars`; true when one part decides
    /// it (a false part of a `forall`, a true part of an `exists`).
    fn expand(
        &mut self,
        universal: bool,
        vars: &[TypeSet],
        body: &Formula,
        binding: &mut Vec<u32>,
        parts: &mut Vec<Ground>,
    ) -> Result<bool, PddlError> {
        let Some((types, rest)) = vars.split_first() else {
            self.budget.step(0)?;
            let part = self.instantiate(body, binding)?;
            return Ok(push(universal, part, parts));
        };
        for object in self.candidates(types) {
            binding.push(object);
            let decided = self.expand(universal, rest, body, binding, parts);
            binding.pop();
            if decided? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// The disjunctive normal form of the conjunction of `formulas`:
    /// sorted, consistent conjunctions of literals, none a superset of
    /// another (up to [`SUBSUMPTION_LIMIT`]).
    pub(crate) fn dnf(
        &mut self,
        formulas: &[Formula],
        binding: &[u32],
    ) -> Result<Vec<Vec<Lit>>, PddlError> {
        let mut binding = binding.to_vec();
        let mut parts = Vec::new();
        for f in formulas {
            let part = self.instantiate(f, &mut binding)?;
            if push(true, part, &mut parts) {
                return Ok(Vec::new());
            }
        }
        self.normal_form(&junction(true, parts))
    }

    fn normal_form(&mut self, g: &Ground) -> Result<Vec<Vec<Lit>>, PddlError> {
        Ok(match g {
            Ground::Const(true) => vec![Vec::new()],
            Ground::Const(false) => Vec::new(),
            Ground::Lit(l) => vec![vec![*l]],
            Ground::Or(parts) => {
                let mut all = Vec::new();
                for part in parts {
                    all.extend(self.normal_form(part)?);
                }
                minimal(all)
            }
            Ground::And(parts) => {
                let mut forms = parts
                    .iter()
                    .map(|p| self.normal_form(p))
                    .collect::<Result<Vec<_>, _>>()?;
                // Small factors first: contradictions prune early.
                forms.sort_by_key(Vec::len);
                let mut product = vec![Vec::new()];
                // The factors and the product so far stay while the next is made.
                let forms_held: usize = forms.iter().map(|form| disjuncts_bytes(form)).sum();
                for form in forms {
                    let mut next = Vec::new();
                    let mut held = forms_held + disjuncts_bytes(&product);
                    for a in &product {
                        for b in &form {
                            if let Some(both) = merge(a, b) {
                                held += size_of::<Vec<Lit>>() + list_bytes(&both);
                                next.push(both);
                            }
                            self.budget.step(held)?;
                        }
                    }
                    product = minimal(next);
                    if product.is_empty() {
                        break;
                    }
                }
                product
            }
        })
    }

    /// An ADL operator under `binding`, compiled to STRIPS variants: `pre`
    /// is the precondition's literal part, `formulas` the rest; `add` and
    /// `del` are the unconditional effects, `effects` the others.
    pub(crate) fn compile(
        &mut self,
        binding: &[u32],
        pre: &[Lit],
        formulas: &[Formula],
        (add, del): (&[u32], &[u32]),
        effects: &[CondEffect],
    ) -> Result<Vec<Variant>, PddlError> {
        let disjuncts = self.dnf(formulas, binding)?;
        let mut conditional = Vec::new();
        let mut scratch = binding.to_vec();
        for effect in effects {
            self.effect(effect, &effect.vars, &mut scratch, &mut conditional)?;
        }
        let mut variants = Vec::new();
        // Every disjunct's variants stay, besides the disjuncts themselves.
        let mut held = disjuncts_bytes(&disjuncts);
        for disjunct in disjuncts {
            let Some(pre) = merge(pre, &disjunct) else {
                continue;
            };
            let mut always = Effect {
                condition: Vec::new(),
                add: add.to_vec(),
                del: del.to_vec(),
                numeric: Vec::new(),
                undefined: false,
            };
            let effects = simplify(&pre, &mut always, &conditional);
            if always.undefined {
                continue; // an effect that always fires reads an undefined value
            }
            // Split, unless that makes more variants than the limit and
            // the effects can stay conditional (no numeric part).
            let keepable = self.keep_conditional
                && effects.iter().all(|e| e.numeric.is_empty() && !e.undefined);
            let limit = if keepable {
                self.budget.limits.max_variants
            } else {
                usize::MAX
            };
            let before = (variants.len(), held);
            let mut split = Split {
                effects: &effects,
                always: &always,
                fired: Vec::new(),
                out: &mut variants,
                left: limit,
                overflowed: false,
                held,
                budget: &mut *self.budget,
            };
            split.branch(pre.clone(), 0)?;
            held = split.held;
            if split.overflowed {
                variants.truncate(before.0);
                held = before.1;
                let kept = Variant {
                    pre,
                    add: always.add,
                    del: always.del,
                    numeric: always.numeric,
                    effects: effects
                        .into_iter()
                        .map(|e| Conditional {
                            condition: e.condition,
                            add: e.add,
                            del: e.del,
                        })
                        .collect(),
                };
                held += kept.bytes();
                self.budget.step(held)?;
                variants.push(kept);
            }
        }
        Ok(variants)
    }

    /// The ground conditional effects of `effect`, one per binding of its
    /// `forall` variables and disjunct of its condition.
    fn effect(
        &mut self,
        effect: &CondEffect,
        vars: &[TypeSet],
        binding: &mut Vec<u32>,
        out: &mut Vec<Effect>,
    ) -> Result<(), PddlError> {
        if let Some((types, rest)) = vars.split_first() {
            for object in self.candidates(types) {
                binding.push(object);
                let result = self.effect(effect, rest, binding, out);
                binding.pop();
                result?;
            }
            return Ok(());
        }
        self.budget.step(0)?;
        let add: Vec<u32> = effect
            .add
            .iter()
            .filter_map(|a| (self.lookup)(a, binding))
            .collect();
        let del: Vec<u32> = effect
            .del
            .iter()
            .filter_map(|a| (self.lookup)(a, binding))
            .collect();
        let mut numeric = Vec::with_capacity(effect.numeric.len());
        let mut undefined = false;
        for e in &effect.numeric {
            match self.numeric.effect(e, binding)? {
                EffectPart::Effect(number) => numeric.push(number),
                EffectPart::Nothing => {}
                EffectPart::Undefined => undefined = true,
            }
        }
        if add.is_empty() && del.is_empty() && numeric.is_empty() && !undefined {
            return Ok(());
        }
        for condition in self.dnf(&effect.condition, binding)? {
            out.push(Effect {
                condition,
                add: add.clone(),
                del: del.clone(),
                numeric: numeric.clone(),
                undefined,
            });
        }
        Ok(())
    }
}

fn value(term: Term, binding: &[u32]) -> u32 {
    match term {
        Term::Obj(o) => o,
        Term::Var(v) => binding[v as usize],
    }
}

/// Adds `part` to a conjunction's (or disjunction's) parts; true when it
/// decides the whole (false in a conjunction, true in a disjunction).
fn push(conjunction: bool, part: Ground, parts: &mut Vec<Ground>) -> bool {
    match part {
        Ground::Const(c) => c != conjunction,
        Ground::And(inner) if conjunction => {
            parts.extend(inner);
            false
        }
        Ground::Or(inner) if !conjunction => {
            parts.extend(inner);
            false
        }
        other => {
            parts.push(other);
            false
        }
    }
}

fn junction(conjunction: bool, mut parts: Vec<Ground>) -> Ground {
    match parts.len() {
        0 => Ground::Const(conjunction),
        1 => parts.pop().unwrap_or(Ground::Const(conjunction)),
        _ if conjunction => Ground::And(parts),
        _ => Ground::Or(parts),
    }
}

/// The union of two sorted conjunctions, `None` if it holds a literal and
/// its negation.
fn merge(a: &[Lit], b: &[Lit]) -> Option<Vec<Lit>> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    out.extend_from_slice(a);
    out.extend_from_slice(b);
    out.sort_unstable();
    out.dedup();
    consistent(&out).then_some(out)
}

/// Whether a sorted conjunction holds no literal with its negation (they
/// sort next to each other).
fn consistent(lits: &[Lit]) -> bool {
    lits.windows(2).all(|w| w[0] >> 1 != w[1] >> 1)
}

/// Sorted, without duplicates or (when few) disjuncts that are supersets
/// of others.
fn minimal(mut disjuncts: Vec<Vec<Lit>>) -> Vec<Vec<Lit>> {
    disjuncts.sort_unstable_by(|a, b| a.len().cmp(&b.len()).then_with(|| a.cmp(b)));
    disjuncts.dedup();
    if disjuncts.len() > SUBSUMPTION_LIMIT {
        return disjuncts;
    }
    let mut kept: Vec<Vec<Lit>> = Vec::with_capacity(disjuncts.len());
    for d in disjuncts {
        // Shorter ones come first: only they can be subsets.
        if !kept.iter().any(|k| is_subset(k, &d)) {
            kept.push(d);
        }
    }
    kept
}

/// The heap bytes of a disjunctive normal form's conjunctions.
fn disjuncts_bytes(disjuncts: &[Vec<Lit>]) -> usize {
    disjuncts
        .iter()
        .map(|d| size_of::<Vec<Lit>>() + list_bytes(d))
        .sum()
}

fn is_subset(small: &[Lit], large: &[Lit]) -> bool {
    small.iter().all(|l| large.binary_search(l).is_ok())
}

fn holds(pre: &[Lit], lit: Lit) -> bool {
    pre.binary_search(&lit).is_ok()
}

/// The conditional effects left to split once the precondition `pre` is
/// known; `always` (the unconditional effects) gains those that turn out
/// unconditional.
///
/// A condition implied by `pre` is dropped, one contradicted drops its
/// effect; `when p: not p` deletes `p` unconditionally and `when (not p):
/// p` adds it unconditionally unless another effect deletes `p`; effects
/// that change nothing given `pre` go; effects with the same condition
/// are merged.
fn simplify(pre: &[Lit], always: &mut Effect, effects: &[Effect]) -> Vec<Effect> {
    let mut kept = Vec::new();
    for e in effects {
        if e.condition.iter().any(|&l| holds(pre, l ^ 1)) {
            continue;
        }
        let condition: Vec<Lit> = e
            .condition
            .iter()
            .copied()
            .filter(|&l| !holds(pre, l))
            .collect();
        if condition.is_empty() {
            always.add.extend_from_slice(&e.add);
            always.del.extend_from_slice(&e.del);
            always.numeric.extend_from_slice(&e.numeric);
            always.undefined |= e.undefined;
        } else {
            kept.push(Effect {
                condition,
                ..e.clone()
            });
        }
    }
    let deleted = |del: &[u32], kept: &[Effect]| -> Vec<u32> {
        let mut all: Vec<u32> = del
            .iter()
            .chain(kept.iter().flat_map(|e| &e.del))
            .copied()
            .collect();
        all.sort_unstable();
        all.dedup();
        all
    };
    let ever_deleted = deleted(&always.del, &kept);
    for e in &mut kept {
        if let [l] = e.condition[..] {
            let fact = l >> 1;
            if l & 1 == 0 {
                // `when p: not p`: deleting a false `p` changes nothing.
                if e.del.contains(&fact) {
                    e.del.retain(|&f| f != fact);
                    always.del.push(fact);
                }
            } else if e.add.contains(&fact) && ever_deleted.binary_search(&fact).is_err() {
                // `when (not p): p`: adding a true `p` changes nothing.
                e.add.retain(|&f| f != fact);
                always.add.push(fact);
            }
        }
    }
    let (add, del) = (&mut always.add, &mut always.del);
    add.sort_unstable();
    add.dedup();
    del.sort_unstable();
    del.dedup();
    let ever_deleted = deleted(del, &kept);
    for e in &mut kept {
        e.add.retain(|&f| {
            add.binary_search(&f).is_err()
                && !(holds(pre, literal(f, true)) && ever_deleted.binary_search(&f).is_err())
        });
        e.del.retain(|&f| {
            add.binary_search(&f).is_err()
                && del.binary_search(&f).is_err()
                && !holds(pre, literal(f, false))
        });
    }
    kept.retain(|e| !e.changes_nothing());
    kept.sort_by(|a, b| a.condition.cmp(&b.condition));
    let mut merged: Vec<Effect> = Vec::with_capacity(kept.len());
    for e in kept {
        match merged.last_mut() {
            Some(last) if last.condition == e.condition => {
                last.add.extend(e.add);
                last.del.extend(e.del);
                last.numeric.extend(e.numeric);
                last.undefined |= e.undefined;
            }
            _ => merged.push(e),
        }
    }
    merged
}

/// The split of one precondition disjunct's conditional effects.
struct Split<'s> {
    effects: &'s [Effect],
    /// The effects that fire on every branch.
    always: &'s Effect,
    /// The effects that fire on the current branch.
    fired: Vec<usize>,
    out: &'s mut Vec<Variant>,
    /// How many more variants may be made; past it the split stops, as
    /// `overflowed`.
    left: usize,
    overflowed: bool,
    /// Estimated bytes of the variants made.
    held: usize,
    budget: &'s mut Budget,
}

impl Split<'_> {
    /// The variants that decide effects `next..` under `pre`.
    fn branch(&mut self, pre: Vec<Lit>, next: usize) -> Result<(), PddlError> {
        if self.overflowed {
            return Ok(());
        }
        let Some(effect) = self.effects.get(next) else {
            return self.emit(pre);
        };
        if effect.condition.iter().any(|&l| holds(&pre, l ^ 1)) {
            return self.branch(pre, next + 1);
        }
        let open: Vec<Lit> = effect
            .condition
            .iter()
            .copied()
            .filter(|&l| !holds(&pre, l))
            .collect();
        // Does not fire: the first open literal that is false decides.
        for (k, &l) in open.iter().enumerate() {
            let mut alternative = open[..k].to_vec();
            alternative.push(l ^ 1);
            if let Some(pre) = merge(&pre, &alternative) {
                self.branch(pre, next + 1)?;
            }
        }
        // Fires (unless that makes the operator inapplicable).
        if effect.undefined {
            return Ok(());
        }
        if let Some(pre) = merge(&pre, &open) {
            self.fired.push(next);
            let result = self.branch(pre, next + 1);
            self.fired.pop();
            result?;
        }
        Ok(())
    }

    fn emit(&mut self, pre: Vec<Lit>) -> Result<(), PddlError> {
        let Some(left) = self.left.checked_sub(1) else {
            self.overflowed = true;
            return Ok(());
        };
        self.left = left;
        let mut add = self.always.add.clone();
        let mut del = self.always.del.clone();
        let mut numeric = self.always.numeric.clone();
        for &i in &self.fired {
            add.extend_from_slice(&self.effects[i].add);
            del.extend_from_slice(&self.effects[i].del);
            numeric.extend_from_slice(&self.effects[i].numeric);
        }
        let variant = Variant {
            pre,
            add,
            del,
            numeric,
            effects: Vec::new(),
        };
        self.held += variant.bytes();
        self.budget.step(self.held)?;
        self.out.push(variant);
        Ok(())
    }
}
