//! Grounding by relaxed reachability.
//!
//! Facts are processed one at a time from a queue. When a fact is taken, it
//! is matched against every positive precondition of every schema that
//! mentions its predicate, and the schema's other positive preconditions are
//! joined with the facts processed so far; so every binding is found when
//! the last of its facts arrives, and the fixpoint needs no rounds. The add
//! effects of each new ground operator enter the queue. Static predicates
//! (no schema changes them) are matched like the others and folded away
//! afterwards; `=` and static negative preconditions are checked on complete
//! bindings; other negative preconditions are ignored by the relaxation and
//! kept in the operators. Finally facts no operator changes are folded into
//! the operators as constants, and operators and facts the goal does not
//! depend on (backward relevance, as in Fast Downward's translator) are
//! dropped.
//!
//! ADL: a schema is matched on its precondition's top-level literals (the
//! rest only prunes later, so reachability over-approximates), and each
//! conditional effect that adds something is matched as a rule of its own,
//! its condition's top-level literals beside the schema's, its `forall`
//! variables as parameters. Each operator found is then compiled to STRIPS
//! variants by `adl.rs`.

mod finalize;
mod fluents;
mod numeric;

use std::hash::{Hash, Hasher};
use std::mem::size_of;
use std::time::{Duration, Instant};

use hashbrown::HashTable;
use rustc_hash::{FxHashMap, FxHasher};

use crate::limits::{allocated, list_bytes, CHECK_MASK};
use crate::numeric::{NumericFluents, OperatorNumeric};
use crate::syntax::{fits, AtomTerm, Condition, Domain, Problem, Term, TypeSet};
use crate::{GroundingExceeded, GroundingLimits, PddlError};

const UNBOUND: u32 = u32::MAX;

/// What grounding found and kept.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GroundingStats {
    /// Facts reachable in the delete relaxation.
    pub reachable_facts: usize,
    /// Ground operators reachable in the delete relaxation.
    pub reachable_operators: usize,
    /// Facts kept: those some operator changes and the goal depends on
    /// (plus an unreachable goal fact, if any).
    pub facts: usize,
    /// Operators kept: those that change a fact the goal depends on.
    pub operators: usize,
    /// Of those, the operators that keep conditional effects rather than
    /// split into more than
    /// [`max_variants`](crate::GroundingLimits::max_variants) STRIPS
    /// variants.
    pub conditional_operators: usize,
    /// Ground axioms (`:derived`) reachable in the delete relaxation.
    pub reachable_axioms: usize,
    /// Ground axioms kept: those that derive a fact the goal depends on.
    pub axioms: usize,
    /// Changing numeric fluents kept (0 for a task without numeric
    /// fluents, or whose fluents are all static).
    pub fluents: usize,
    /// Whether the goal asks for a fact that can never hold as wanted.
    pub unsolvable: bool,
    /// Wall time of grounding (after parsing).
    pub elapsed: Duration,
}

/// A ground operator over fact indices.
#[derive(Clone, Debug, PartialEq)]
pub struct GroundOperator {
    /// `schema arg ...`, lower case. The variants an ADL operator
    /// compiles to (one per precondition disjunct and choice of conditional
    /// effects) share it.
    pub name: String,
    /// Facts that must be true.
    pub pre: Vec<u32>,
    /// Facts that must be false.
    pub neg_pre: Vec<u32>,
    /// Facts made true.
    pub add: Vec<u32>,
    /// Facts made false (none that it also adds).
    pub del: Vec<u32>,
    /// Its conditional effects, where grounding kept them rather than
    /// split the operator into more than a few hundred variants (see
    /// [`GroundEffect`]); empty for every STRIPS operator.
    pub effects: Vec<GroundEffect>,
    /// What it costs: 1 without action costs; with them, what it adds to
    /// `total-cost` or the metric (0 if nothing; see also
    /// [`OperatorNumeric::cost`]).
    pub cost: u32,
    /// Its numeric conditions, effects and state-dependent cost, in a task
    /// with numeric fluents ([`GroundTask::numeric`]).
    pub numeric: Option<Box<OperatorNumeric>>,
}

/// A conditional effect of a [`GroundOperator`]: where its condition
/// holds in the state the operator is applied in, it adds and deletes
/// facts too. All conditions are read in the state before the operator;
/// a fact one effect adds and another deletes ends true.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct GroundEffect {
    /// Facts the condition wants true.
    pub pre: Vec<u32>,
    /// Facts the condition wants false.
    pub neg_pre: Vec<u32>,
    /// Facts made true.
    pub add: Vec<u32>,
    /// Facts made false (none that it also adds).
    pub del: Vec<u32>,
}

impl GroundOperator {
    /// The heap bytes of its conditional effects.
    pub(crate) fn effects_bytes(&self) -> usize {
        let slots = match self.effects.capacity() {
            0 => 0,
            capacity => allocated(capacity * size_of::<GroundEffect>()),
        };
        slots
            + self
                .effects
                .iter()
                .map(|e| {
                    [&e.pre, &e.neg_pre, &e.add, &e.del]
                        .into_iter()
                        .map(list_bytes)
                        .sum::<usize>()
                })
                .sum::<usize>()
    }
}

/// The name of the goal actions that a disjunctive goal compiles to: one
/// per disjunct of the goal's normal form, of cost 0, each making
/// [`GOAL_REACHED`] true, which is then the goal. Plans leave them out.
pub const GOAL_ACTION: &str = "<goal>";

/// The fact that [`GOAL_ACTION`]s make true.
pub const GOAL_REACHED: &str = "<goal reached>";

/// A grounded STRIPS task: facts, operators, the initial state and the
/// goal, independent of any state width.
#[derive(Clone, Debug)]
pub struct GroundTask {
    /// Fact names, `(predicate arg ...)`.
    pub facts: Vec<String>,
    /// The operators.
    pub operators: Vec<GroundOperator>,
    /// The ground axioms of derived predicates (`:derived`), as rules of
    /// cost 0 whose one add effect is the derived fact, named by the fact's
    /// predicate and arguments; a body in disjunctive normal form gives one
    /// rule per disjunct. Derived facts are false unless a rule derives
    /// them from the state's other facts (see [`Axioms`](crate::Axioms)).
    pub axioms: Vec<GroundOperator>,
    /// Facts true initially (every other fact is false).
    pub init: Vec<u32>,
    /// Facts the goal wants true.
    pub goal: Vec<u32>,
    /// Facts the goal wants false.
    pub goal_false: Vec<u32>,
    /// Whether the operators have their own costs (the problem has a
    /// `:metric`); otherwise each costs 1.
    pub action_costs: bool,
    /// What a cost of 1 stands for: `1 / cost_scale` of the metric. It is
    /// 1 but for a numeric task whose costs have decimals (IPC 2023's tpp
    /// has prices in cents: 100), scaled to whole numbers so that search
    /// adds them exactly.
    pub cost_scale: u32,
    /// The changing numeric fluents, when the task has any (PDDL 2.1
    /// numeric fluents that some action changes and something reads).
    pub numeric: Option<Box<NumericFluents>>,
    /// Counts and time.
    pub stats: GroundingStats,
}

impl GroundTask {
    /// Whether some operator kept conditional effects
    /// ([`GroundOperator::effects`]).
    pub fn has_conditional_effects(&self) -> bool {
        self.operators.iter().any(|o| !o.effects.is_empty())
    }

    /// The heap memory the task holds, in bytes: fact names, and each
    /// operator's and axiom's name and lists. It counts toward a search's
    /// memory limit while the task is held beside the search.
    pub fn heap_bytes(&self) -> usize {
        let names: usize = self.facts.iter().map(|f| allocated(f.capacity())).sum();
        let operators: usize = self
            .operators
            .iter()
            .chain(&self.axioms)
            .map(|o| {
                allocated(o.name.capacity())
                    + [&o.pre, &o.neg_pre, &o.add, &o.del]
                        .into_iter()
                        .map(list_bytes)
                        .sum::<usize>()
                    + o.effects_bytes()
            })
            .sum();
        let lists = [&self.init, &self.goal, &self.goal_false];
        (self.facts.capacity()) * size_of::<String>()
            + names
            + (self.operators.capacity() + self.axioms.capacity()) * size_of::<GroundOperator>()
            + operators
            + lists.into_iter().map(list_bytes).sum::<usize>()
    }
}

/// Keys `[u32]` (facts `[predicate, args...]`, operators `[schema,
/// binding...]`) stored end to end and numbered in the order they first
/// came: a few large allocations rather than one per key, so that millions
/// of them cost little memory and free at once.
struct Interned {
    words: Vec<u32>,
    /// Where each key starts in `words`, and where the last one ends.
    starts: Vec<usize>,
    /// Key numbers with the high half of the key's hash, in [`SHARDS`]
    /// tables by its low byte: each table grows (and rehashes, from the
    /// stored hash) a small part at a time, so no insertion pauses long
    /// between two limit checks.
    shards: Vec<HashTable<(u32, u32)>>,
}

/// Hash tables per [`Interned`].
const SHARDS: usize = 256;

/// The shard and the stored half of `key`'s hash.
fn hash_of(key: &[u32]) -> (usize, u32) {
    let mut hasher = FxHasher::default();
    key.hash(&mut hasher);
    let hash = hasher.finish();
    ((hash & 0xff) as usize, (hash >> 32) as u32)
}

/// The tables' hash of a stored half: spread over 64 bits.
fn spread(high: u32) -> u64 {
    u64::from(high).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

impl Interned {
    fn new() -> Self {
        Self {
            words: Vec::new(),
            starts: vec![0],
            shards: (0..SHARDS).map(|_| HashTable::new()).collect(),
        }
    }

    fn len(&self) -> usize {
        self.starts.len() - 1
    }

    fn key(&self, id: usize) -> &[u32] {
        &self.words[self.starts[id]..self.starts[id + 1]]
    }

    /// The key's number, and whether it is new.
    fn intern(&mut self, key: &[u32]) -> (u32, bool) {
        let (shard, high) = hash_of(key);
        let Self {
            words,
            starts,
            shards,
        } = self;
        let table = &mut shards[shard];
        let same = |&(id, h): &(u32, u32)| {
            h == high && &words[starts[id as usize]..starts[id as usize + 1]] == key
        };
        if let Some(&(id, _)) = table.find(spread(high), same) {
            return (id, false);
        }
        let id = u32::try_from(starts.len() - 1).unwrap_or(u32::MAX);
        table.insert_unique(spread(high), (id, high), |&(_, h)| spread(h));
        words.extend_from_slice(key);
        starts.push(words.len());
        (id, true)
    }

    fn get(&self, key: &[u32]) -> Option<u32> {
        let (shard, high) = hash_of(key);
        self.shards[shard]
            .find(spread(high), |&(id, h)| {
                h == high && self.key(id as usize) == key
            })
            .map(|&(id, _)| id)
    }

    /// Estimated bytes: the keys and their starts as stored (the lists'
    /// spare capacity is not touched, so not resident), and the tables at
    /// their capacity (8 buckets for 7 entries, each with a control byte).
    fn bytes(&self) -> usize {
        let entries: usize = self.shards.iter().map(HashTable::capacity).sum();
        self.words.len() * size_of::<u32>()
            + self.starts.len() * size_of::<usize>()
            + entries * (size_of::<(u32, u32)>() + 1) * 8 / 7
    }
}

/// Processed facts of one predicate, with an index by argument.
#[derive(Default)]
struct PredicateIndex {
    arity: usize,
    args: Vec<u32>,
    count: u32,
    by_arg: FxHashMap<(u32, u32), Vec<u32>>,
}

impl PredicateIndex {
    fn push(&mut self, args: &[u32]) {
        let entry = self.count;
        self.count += 1;
        self.args.extend_from_slice(args);
        for (pos, &obj) in args.iter().enumerate() {
            self.by_arg
                .entry((u32::try_from(pos).unwrap_or(u32::MAX), obj))
                .or_default()
                .push(entry);
        }
    }

    fn entry(&self, k: u32) -> &[u32] {
        let k = k as usize;
        &self.args[k * self.arity..(k + 1) * self.arity]
    }

    /// Estimated bytes: the arguments, the index and its lists (without
    /// their spare capacity).
    fn bytes(&self) -> usize {
        self.args.capacity() * size_of::<u32>()
            + self.by_arg.capacity() * (size_of::<((u32, u32), Vec<u32>)>() + 1)
            + self.count as usize * self.arity * size_of::<u32>()
            + self.by_arg.len() * 16
    }
}

/// A schema prepared for matching.
struct Prepared {
    /// Per parameter: whether each object fits its type.
    allowed: Vec<Vec<bool>>,
    /// Per parameter: the objects that fit.
    candidates: Vec<Vec<u32>>,
    /// Positive atom preconditions.
    positive: Vec<AtomTerm>,
    /// Equalities and negative preconditions on static predicates.
    checks: Vec<Condition>,
    /// Add effects.
    add: Vec<AtomTerm>,
}

/// What matching produces, and the limits it runs under.
struct Out {
    facts: Interned,
    /// Operators as `[schema, binding...]`.
    ops: Interned,
    /// The predicate indices' estimated bytes.
    index_bytes: usize,
    steps: u64,
    limits: GroundingLimits,
    began: Instant,
    key: Vec<u32>,
    op_key: Vec<u32>,
}

impl Out {
    fn step(&mut self) -> Result<(), PddlError> {
        self.steps += 1;
        if self.steps > self.limits.max_steps {
            return Err(GroundingExceeded::Steps {
                limit: self.limits.max_steps,
            }
            .into());
        }
        if self.steps & CHECK_MASK == 0 {
            self.limits.check(self.began, self.bytes())?;
        }
        Ok(())
    }

    /// Estimated bytes of everything grounding holds so far.
    fn bytes(&self) -> usize {
        self.facts.bytes() + self.ops.bytes() + self.index_bytes
    }
}

fn term_value(term: Term, binding: &[u32]) -> u32 {
    match term {
        Term::Obj(o) => o,
        Term::Var(v) => binding[v as usize],
    }
}

/// Binds `atom`'s variables to `args`; on failure nothing stays bound.
fn unify(
    atom: &AtomTerm,
    args: &[u32],
    binding: &mut [u32],
    allowed: &[Vec<bool>],
    bound: &mut Vec<u32>,
) -> bool {
    let mark = bound.len();
    for (term, &obj) in atom.args.iter().zip(args) {
        let ok = match *term {
            Term::Obj(o) => o == obj,
            Term::Var(v) => {
                let slot = &mut binding[v as usize];
                if *slot == UNBOUND {
                    if allowed[v as usize]
                        .get(obj as usize)
                        .copied()
                        .unwrap_or(false)
                    {
                        *slot = obj;
                        bound.push(v);
                        true
                    } else {
                        false
                    }
                } else {
                    *slot == obj
                }
            }
        };
        if !ok {
            for &v in &bound[mark..] {
                binding[v as usize] = UNBOUND;
            }
            bound.truncate(mark);
            return false;
        }
    }
    true
}

fn release(binding: &mut [u32], bound: &mut Vec<u32>, mark: usize) {
    for &v in &bound[mark..] {
        binding[v as usize] = UNBOUND;
    }
    bound.truncate(mark);
}

/// Joins the schema's positive preconditions not yet `done` with the
/// processed facts, then enumerates unbound parameters and emits.
fn join(
    schema: u32,
    prep: &Prepared,
    index: &[PredicateIndex],
    binding: &mut [u32],
    done: &mut [bool],
    bound: &mut Vec<u32>,
    out: &mut Out,
) -> Result<(), PddlError> {
    // The next precondition: the one with the most bound arguments.
    let mut best: Option<(usize, usize)> = None;
    for (j, atom) in prep.positive.iter().enumerate() {
        if done[j] {
            continue;
        }
        let bound_args = atom
            .args
            .iter()
            .filter(|t| term_value(**t, binding) != UNBOUND)
            .count();
        if best.is_none_or(|(_, b)| bound_args > b) {
            best = Some((j, bound_args));
        }
    }
    let Some((j, _)) = best else {
        return enumerate(schema, prep, binding, 0, out);
    };
    let atom = &prep.positive[j];
    let pi = &index[atom.predicate as usize];
    // The smallest list of candidates by a bound argument, or all facts.
    let mut list: Option<&[u32]> = None;
    for (pos, term) in atom.args.iter().enumerate() {
        let value = term_value(*term, binding);
        if value != UNBOUND {
            let entries = pi
                .by_arg
                .get(&(u32::try_from(pos).unwrap_or(u32::MAX), value))
                .map_or(&[][..], Vec::as_slice);
            if list.is_none_or(|l| entries.len() < l.len()) {
                list = Some(entries);
            }
        }
    }
    done[j] = true;
    let mut visit = |k: u32, binding: &mut [u32], out: &mut Out| -> Result<(), PddlError> {
        out.step()?;
        let mark = bound.len();
        if unify(atom, pi.entry(k), binding, &prep.allowed, bound) {
            join(schema, prep, index, binding, done, bound, out)?;
            release(binding, bound, mark);
        }
        Ok(())
    };
    let result = match list {
        Some(entries) => entries.iter().try_for_each(|&k| visit(k, binding, out)),
        None => (0..pi.count).try_for_each(|k| visit(k, binding, out)),
    };
    done[j] = false;
    result
}

/// Binds the parameters no precondition bound, from `from` on, then checks
/// and emits the operator.
fn enumerate(
    schema: u32,
    prep: &Prepared,
    binding: &mut [u32],
    from: usize,
    out: &mut Out,
) -> Result<(), PddlError> {
    if let Some(v) = (from..binding.len()).find(|&v| binding[v] == UNBOUND) {
        for &obj in &prep.candidates[v] {
            binding[v] = obj;
            out.step()?;
            enumerate(schema, prep, binding, v + 1, out)?;
        }
        binding[v] = UNBOUND;
        return Ok(());
    }
    for check in &prep.checks {
        let holds = match check {
            Condition::Equal {
                positive,
                left,
                right,
            } => (term_value(*left, binding) == term_value(*right, binding)) == *positive,
            Condition::Atom { positive, atom } => {
                out.key.clear();
                out.key.push(atom.predicate);
                out.key
                    .extend(atom.args.iter().map(|t| term_value(*t, binding)));
                out.facts.get(&out.key).is_some() == *positive
            }
            Condition::Compare(_) => true, // never a check (see `prepare`)
        };
        if !holds {
            return Ok(());
        }
    }
    out.op_key.clear();
    out.op_key.push(schema);
    out.op_key.extend_from_slice(binding);
    let (_, new) = out.ops.intern(&out.op_key);
    if !new {
        return Ok(());
    }
    for atom in &prep.add {
        out.key.clear();
        out.key.push(atom.predicate);
        out.key
            .extend(atom.args.iter().map(|t| term_value(*t, binding)));
        out.facts.intern(&out.key);
    }
    Ok(())
}

/// Grounds `problem` over `domain`: relaxed reachability, static predicates
/// folded away, facts no operator changes dropped.
///
/// # Errors
/// [`PddlError::GroundingExceeded`] if grounding takes more steps, time or
/// (estimated) memory than `limits` allow.
///
/// ```
/// use searchlab_pddl::{ground, parse_domain, parse_problem, GroundingLimits};
/// let domain = parse_domain("d", "(define (domain d) (:predicates (at ?x) (road ?x ?y)) \
///     (:action go :parameters (?x ?y) :precondition (and (at ?x) (road ?x ?y)) \
///      :effect (and (at ?y) (not (at ?x)))))").unwrap();
/// let problem = parse_problem(&domain, "p", "(define (problem p) (:domain d) (:objects a b c z) \
///     (:init (at a) (road a b) (road b c) (road z a)) (:goal (at c)))").unwrap();
/// let task = ground(&domain, &problem, GroundingLimits::default()).unwrap();
/// // `(at z)` is unreachable, `road` is static: facts (at a), (at b), (at c).
/// assert_eq!(task.stats.facts, 3);
/// assert_eq!(task.stats.operators, 2);
/// assert_eq!(task.operators[0].name, "go a b");
/// ```
#[expect(clippy::too_many_lines, reason = "one pass: match, then finalize")]
pub fn ground(
    domain: &Domain,
    problem: &Problem,
    limits: GroundingLimits,
) -> Result<GroundTask, PddlError> {
    let began = Instant::now();
    let n_preds = domain.predicates.len();
    let mut is_static = vec![true; n_preds];
    for schema in &domain.actions {
        let conditional = schema
            .effects
            .iter()
            .flat_map(|e| e.add.iter().chain(&e.del));
        for atom in schema.add.iter().chain(&schema.del).chain(conditional) {
            is_static[atom.predicate as usize] = false;
        }
    }
    // One matcher per schema, then one per conditional effect that adds
    // something: its condition's top-level atoms join the schema's
    // precondition, its `forall` variables its parameters.
    let mut prepared: Vec<Prepared> = domain
        .actions
        .iter()
        .map(|schema| {
            let params: Vec<&TypeSet> = schema.params.iter().map(|(_, t)| t).collect();
            prepare(
                domain,
                problem,
                &is_static,
                &params,
                schema.pre.iter(),
                &schema.add,
            )
        })
        .collect();
    for schema in &domain.actions {
        for effect in schema.effects.iter().filter(|e| !e.add.is_empty()) {
            let params: Vec<&TypeSet> = schema
                .params
                .iter()
                .map(|(_, t)| t)
                .chain(&effect.vars)
                .collect();
            let condition = effect.condition.iter().flat_map(|f| f.conjuncts());
            let literals = schema.pre.iter().chain(condition);
            prepared.push(prepare(
                domain,
                problem,
                &is_static,
                &params,
                literals,
                &effect.add,
            ));
        }
    }
    let mut triggers: Vec<Vec<(u32, usize)>> = vec![Vec::new(); n_preds];
    for (s, prep) in prepared.iter().enumerate() {
        for (j, atom) in prep.positive.iter().enumerate() {
            triggers[atom.predicate as usize].push((u32::try_from(s).unwrap_or(u32::MAX), j));
        }
    }
    let mut index: Vec<PredicateIndex> = domain
        .predicates
        .iter()
        .map(|p| PredicateIndex {
            arity: p.params.len(),
            ..PredicateIndex::default()
        })
        .collect();
    let mut out = Out {
        facts: Interned::new(),
        ops: Interned::new(),
        index_bytes: 0,
        steps: 0,
        limits,
        began,
        key: Vec::new(),
        op_key: Vec::new(),
    };
    let mut key = Vec::new();
    for (predicate, args) in &problem.init {
        key.clear();
        key.push(*predicate);
        key.extend_from_slice(args);
        out.facts.intern(&key);
    }
    let init_count = out.facts.len();
    let mut bound = Vec::new();
    for (s, prep) in prepared.iter().enumerate() {
        if prep.positive.is_empty() {
            let mut binding = vec![UNBOUND; prep.allowed.len()];
            let s = u32::try_from(s).unwrap_or(u32::MAX);
            enumerate(s, prep, &mut binding, 0, &mut out)?;
        }
    }
    let mut next = 0;
    let mut fact = Vec::new();
    while next < out.facts.len() {
        fact.clear();
        fact.extend_from_slice(out.facts.key(next));
        let predicate = fact[0] as usize;
        let before = index[predicate].bytes();
        index[predicate].push(&fact[1..]);
        out.index_bytes += index[predicate].bytes() - before;
        for &(s, j) in &triggers[predicate] {
            let prep = &prepared[s as usize];
            let mut binding = vec![UNBOUND; prep.allowed.len()];
            let mut done = vec![false; prep.positive.len()];
            bound.clear();
            out.step()?;
            if unify(
                &prep.positive[j],
                &fact[1..],
                &mut binding,
                &prep.allowed,
                &mut bound,
            ) {
                done[j] = true;
                join(
                    s,
                    prep,
                    &index,
                    &mut binding,
                    &mut done,
                    &mut bound,
                    &mut out,
                )?;
            }
        }
        next += 1;
    }
    drop(index);
    out.index_bytes = 0;
    finalize::finalize(domain, problem, &is_static, &out, init_count)
}

/// A matcher for a schema (or one of its conditional effects) with
/// parameters of types `params`, precondition `literals` and add effects
/// `add`.
fn prepare<'c>(
    domain: &Domain,
    problem: &Problem,
    is_static: &[bool],
    params: &[&TypeSet],
    literals: impl Iterator<Item = &'c Condition>,
    add: &[AtomTerm],
) -> Prepared {
    let n_objects = problem.objects.len();
    let allowed: Vec<Vec<bool>> = params
        .iter()
        .map(|wanted| {
            problem
                .objects
                .iter()
                .map(|(_, types)| fits(domain, types, wanted))
                .collect()
        })
        .collect();
    let candidates = allowed
        .iter()
        .map(|a| {
            (0..n_objects)
                .filter(|&o| a[o])
                .map(|o| u32::try_from(o).unwrap_or(u32::MAX))
                .collect()
        })
        .collect();
    let mut positive = Vec::new();
    let mut checks = Vec::new();
    for c in literals {
        match c {
            Condition::Atom {
                positive: true,
                atom,
            } => positive.push(atom.clone()),
            Condition::Atom {
                positive: false,
                atom,
            } if is_static[atom.predicate as usize] => checks.push(c.clone()),
            // Comparisons are left to finalizing: reachability ignores them.
            Condition::Atom { .. } | Condition::Compare(_) => {}
            Condition::Equal { .. } => checks.push(c.clone()),
        }
    }
    Prepared {
        allowed,
        candidates,
        positive,
        checks,
        add: add.to_vec(),
    }
}

/// Per type: its objects, those of its subtypes included.
fn objects_by_type(domain: &Domain, problem: &Problem) -> Vec<Vec<u32>> {
    let mut objects = vec![Vec::new(); domain.types.len()];
    for (o, (_, types)) in problem.objects.iter().enumerate() {
        let o = u32::try_from(o).unwrap_or(u32::MAX);
        for (t, list) in objects.iter_mut().enumerate() {
            if fits(domain, types, &[t]) {
                list.push(o);
            }
        }
    }
    objects
}
