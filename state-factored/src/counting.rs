//! Operator counting: an admissible heuristic from an integer program over
//! how often each action occurs, which sees resource flows that `h_max`
//! cannot.

use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;

use search_core::{Estimate, Heuristic};

use crate::constraint::Constraint;
use crate::effect::{classify, Change};
use crate::simplex::{Simplex, Solved};
use crate::value::key_int;
use crate::{Cost, Domain, Goal, State, Subgoal, VarType};

/// Counts are integral when this close to an integer; rows hold when this
/// close to their right-hand side.
const TOLERANCE: f64 = 1e-6;

/// Ints and steps larger than these are left out of the flow rows, so
/// that `f64` arithmetic on them stays exact.
const LARGEST_VALUE: f64 = 1_125_899_906_842_624.0; // 2^50
const LARGEST_STEP: f64 = 1_099_511_627_776.0; // 2^40

/// A variable whose largest step is more than this many times its smallest
/// gets no flow rows: such rows make the simplex pivot on entries too small
/// to trust (a relaxation, so still admissible).
const LARGEST_STEP_RATIO: f64 = 1_048_576.0; // 2^20

/// How many linear programs one estimate may solve.
const DEFAULT_NODE_BUDGET: usize = 64;

/// Terms `(action, coefficient)` of a row.
type Terms = Vec<(u32, f64)>;

/// An int variable changed only by additions and subtractions.
#[derive(Clone, Debug)]
struct Flow {
    /// Each action's net change, for the actions that change it.
    deltas: Terms,
    /// The least value an action that lowers it can leave (`-inf` when one
    /// lowers it without a lower bound in its preconditions; `+inf` when
    /// none lowers it), and likewise the largest one that raises it can.
    floor: f64,
    ceiling: f64,
}

/// One variable as the program sees it.
#[derive(Clone, Debug)]
struct Variable {
    /// Every action's change of it, all its effects on it taken together.
    changes: Vec<(u32, Change)>,
    flow: Option<Flow>,
}

/// A precondition, with what a plan must contain before its action can
/// occur when a state violates it.
#[derive(Clone, Debug)]
struct Precondition<'a> {
    action: u32,
    var: u32,
    constraint: &'a Constraint,
    /// Flow variables: the increases by the other actions (the value must
    /// rise to the bound), the decreases, and every other mover.
    up: Terms,
    down: Terms,
    /// Any other action that can bring the variable into the constraint.
    achievers: Terms,
}

impl Precondition<'_> {
    fn terms(&self, need: Need) -> &[(u32, f64)] {
        match need {
            Need::Up => &self.up,
            Need::Down => &self.down,
            Need::Any => &self.achievers,
        }
    }
}

/// A row added by branching.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Branch {
    /// `x_j <= k`.
    AtMost(u32, f64),
    /// `x_j >= k`.
    AtLeast(u32, f64),
    /// The consequent of implication `i` holds.
    Implied(usize),
    /// No antecedent of implication `i` occurs.
    Excluded(usize),
}

/// An implication of the state: if any of `actions` occurs, the `need`
/// terms of precondition `pre` sum to `rhs` or more (the preconditions
/// that ask the same of the state share one).
#[derive(Clone, Debug, Default)]
struct Implication {
    actions: Vec<u32>,
    pre: usize,
    need: Need,
    rhs: f64,
}

/// Which consequent of a violated precondition applies.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Need {
    /// The other actions' increases of a flow variable.
    Up,
    /// Their decreases.
    Down,
    /// At least one achiever.
    #[default]
    Any,
}

/// A row of the model, `terms >= rhs`.
#[derive(Clone, Copy, Debug)]
enum Row {
    /// Variable `v`'s deltas times a sign.
    Flow(usize, f64, f64),
    /// An achiever of a goal condition, from the goal terms in this range
    /// (`rhs` 1), or nothing when the state meets it (`rhs` 0).
    Goal(usize, usize, f64),
    /// The action never occurs.
    Forbid(u32),
}

impl Row {
    /// The right-hand side.
    fn rhs(self) -> f64 {
        match self {
            Row::Flow(_, _, rhs) | Row::Goal(_, _, rhs) => rhs,
            Row::Forbid(_) => 0.0,
        }
    }

    /// Whether `self` and `other` have the same terms (their right-hand
    /// sides may differ).
    fn same_terms(self, other: Row) -> bool {
        match (self, other) {
            (Row::Flow(v, sign, _), Row::Flow(w, other_sign, _)) => {
                v == w && (sign > 0.0) == (other_sign > 0.0)
            }
            (Row::Goal(start, end, _), Row::Goal(other_start, other_end, _)) => {
                (start, end) == (other_start, other_end)
            }
            (Row::Forbid(a), Row::Forbid(b)) => a == b,
            _ => false,
        }
    }
}

/// A branch-and-bound node still to solve: its parent's bound, depth and
/// solved tableau, and the row it adds.
#[derive(Clone, Copy, Debug)]
struct Pending {
    bound: u64,
    depth: usize,
    tableau: usize,
    branch: Branch,
}

impl Pending {
    /// Best first: the least bound, then the deepest, then the newest
    /// (the tableau of the latest branching).
    fn priority(&self) -> (Reverse<u64>, usize, usize) {
        (Reverse(self.bound), self.depth, self.tableau)
    }
}

impl PartialEq for Pending {
    fn eq(&self, other: &Self) -> bool {
        self.priority() == other.priority()
    }
}

impl Eq for Pending {}

impl PartialOrd for Pending {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Pending {
    fn cmp(&self, other: &Self) -> Ordering {
        self.priority().cmp(&other.priority())
    }
}

/// Operator counting: the cost of the cheapest multiset of actions that a
/// plan could consist of, by an integer program with one count `x_a` per
/// action, minimising `Σ cost(a) x_a` under constraints that every plan
/// satisfies:
///
/// - **Flows.** For an int variable `v` that actions only add to or
///   subtract from, its final value is `v(s) + Σ Δ_a(v) x_a`, and must lie
///   in the goal's range. It must also stay within the bounds that every
///   reachable value keeps: an action that lowers `v` requires `v >= lo`
///   and leaves at least `lo + Δ`, so no value falls below the least of
///   those and `v(s)` (likewise upwards). These rows count resources: a
///   house that takes ten wood needs ten wood produced or held.
/// - **Goals on other variables.** A violated goal `v ∈ C` needs some
///   action that can leave `v` inside `C`: `Σ x_b >= 1` over them.
/// - **Preconditions.** If an action occurs whose precondition `v ∈ C` the
///   state violates, the plan first brings `v` into `C` with other
///   actions: for a flow variable below `C`, their increases sum to at
///   least the gap; otherwise at least one of the actions that can do it
///   occurs. These are implications ("`x_a >= 1` implies ..."), enforced
///   by branching; a precondition nothing else can bring about forbids its
///   action outright.
///
/// Branch and bound solves the program best first with the linear
/// relaxation (a dual simplex, warm-started from the parent's tableau),
/// branching on violated implications first and then on the fractional
/// count with the largest cost-weighted fraction; a relaxation whose counts
/// rounded up form a solution as cheap as its bound closes the search. It
/// stops after a budget of linear programs (64 by default,
/// [`node_budget`](Self::node_budget)) and returns the least bound among
/// the parts it has not closed: still a lower bound, so the estimate stays
/// admissible whatever the budget; a larger budget never lowers it. A
/// program with no solution proves a dead end.
///
/// **Admissible**, since every constraint holds for every plan from the
/// state (floats, strings and bools only through the achiever rows; custom
/// predicates are ignored, and an action with a custom effect can achieve
/// anything and breaks every flow). Each action's fixed cost must be a
/// lower bound of its cost function, if it has one. Not consistent in
/// general. Works forward (from each state to the goal) and in regression
/// (from the start to each subgoal).
///
/// Its strength is resource bookkeeping, where `h_max` takes only the most
/// expensive condition: on the economy benchmark it estimates the start at
/// 28 against an optimal cost of 29, where `h_max` says 16
/// (BENCHMARKS.md).
///
/// ```
/// use search_core::{astar, Estimate, Heuristic};
/// use state_factored::{Action, Domain, OperatorCounting, Predicate, Schema, State};
/// let mut schema = Schema::new();
/// schema.int("wood").unwrap();
/// schema.bool("house").unwrap();
/// let mut domain = Domain::new(schema);
/// domain.add_action(Action::builder("chop").cost(2).increase("wood", 3)).unwrap();
/// domain
///     .add_action(
///         Action::builder("build")
///             .cost(5)
///             .pre(Predicate::ge("wood", 10))
///             .decrease("wood", 10)
///             .set("house", true),
///     )
///     .unwrap();
/// let goal = domain.goal([Predicate::eq("house", true)]).unwrap();
/// let start = domain.schema().state().set("wood", 1).build().unwrap();
/// let mut h = OperatorCounting::new(&domain, &goal, &start);
/// // Nine more wood takes three whole chops: 3 * 2 + 5.
/// assert_eq!(Heuristic::<State, u32>::estimate(&mut h, &start), Estimate::Value(11));
/// let plan = astar(&domain.forward(&goal), start.clone(), h).unwrap();
/// assert_eq!(plan.outcome.solution().unwrap().cost, 11);
/// ```
#[derive(Clone, Debug)]
pub struct OperatorCounting<'a> {
    start: &'a State,
    goal: &'a Goal,
    costs: Vec<f64>,
    variables: Vec<Variable>,
    preconditions: Vec<Precondition<'a>>,
    /// Actions with custom effects: they may achieve anything.
    wildcards: Terms,
    node_budget: usize,
    lp: Simplex,
    rows: Vec<Row>,
    /// The goal rows' terms.
    goal_terms: Terms,
    /// The implications of the current state are the first `live`.
    implications: Vec<Implication>,
    live: usize,
    pending: BinaryHeap<Pending>,
    /// Solved tableaux of the nodes with pending branches; the first
    /// `kept` belong to the current estimate.
    tableaux: Vec<Simplex>,
    kept: usize,
    /// Scratch for a rounded solution.
    rounded: Vec<f64>,
    /// The last forward relaxation of the flow and goal rows, solved, and
    /// those rows (empty when there is none to reuse).
    root: Simplex,
    root_rows: Vec<Row>,
}

impl<'a> OperatorCounting<'a> {
    /// Operator counting for `domain` towards `goal`; `start` is where
    /// regression plans from (forward search passes its states instead).
    pub fn new(domain: &'a Domain, goal: &'a Goal, start: &'a State) -> Self {
        let actions = domain.actions();
        let index = |a: usize| u32::try_from(a).unwrap_or(u32::MAX);
        let wildcards: Terms = (0..actions.len())
            .filter(|&a| actions[a].has_custom_effect())
            .map(|a| (index(a), 1.0))
            .collect();
        let mut variables: Vec<Variable> = domain
            .schema()
            .vars()
            .map(|_| Variable {
                changes: Vec::new(),
                flow: None,
            })
            .collect();
        let types: Vec<VarType> = domain
            .schema()
            .vars()
            .map(crate::schema::Var::var_type)
            .collect();
        for (a, action) in actions.iter().enumerate() {
            for (v, chain) in &action.chains {
                if let Some(change) = classify(chain, types[*v as usize]) {
                    variables[*v as usize].changes.push((index(a), change));
                }
            }
        }
        for (v, variable) in variables.iter_mut().enumerate() {
            if wildcards.is_empty() && types[v] == VarType::Int {
                variable.flow = flow(domain, index(v), &variable.changes);
            }
        }
        let mut preconditions = Vec::new();
        for (a, action) in actions.iter().enumerate() {
            for (v, constraint) in &action.pre_constraints {
                let variable = &variables[*v as usize];
                let others = |keep: &dyn Fn(f64) -> bool| -> Terms {
                    variable
                        .flow
                        .iter()
                        .flat_map(|f| f.deltas.iter())
                        .filter(|&&(b, d)| b != index(a) && keep(d))
                        .map(|&(b, d)| (b, d.abs()))
                        .collect()
                };
                preconditions.push(Precondition {
                    action: index(a),
                    var: *v,
                    constraint,
                    up: others(&|d| d > 0.0),
                    down: others(&|d| d < 0.0),
                    achievers: {
                        let mut terms = Vec::new();
                        achievers(variable, constraint, &wildcards, Some(index(a)), &mut terms);
                        terms
                    },
                });
            }
        }
        Self {
            start,
            goal,
            costs: actions.iter().map(|a| f64::from(a.cost())).collect(),
            variables,
            preconditions,
            wildcards,
            node_budget: DEFAULT_NODE_BUDGET,
            lp: Simplex::default(),
            rows: Vec::new(),
            goal_terms: Vec::new(),
            implications: Vec::new(),
            live: 0,
            pending: BinaryHeap::new(),
            tableaux: Vec::new(),
            kept: 0,
            rounded: Vec::new(),
            root: Simplex::default(),
            root_rows: Vec::new(),
        }
    }

    /// Sets how many linear programs one estimate may solve (at least one).
    /// A larger budget gives estimates as large or larger, at more time per
    /// estimate.
    ///
    /// ```
    /// use search_core::{Estimate, Heuristic};
    /// use state_factored::{OperatorCounting, State};
    /// let p = state_factored::problems::economy(1).unwrap();
    /// let mut h = OperatorCounting::new(&p.domain, &p.goal, &p.start);
    /// let Estimate::Value(exact) = Heuristic::<State, u32>::estimate(&mut h, &p.start) else {
    ///     unreachable!()
    /// };
    /// let Estimate::Value(relaxed) =
    ///     Heuristic::<State, u32>::estimate(h.node_budget(1), &p.start)
    /// else {
    ///     unreachable!()
    /// };
    /// assert!(relaxed <= exact && exact <= 29);
    /// ```
    pub fn node_budget(&mut self, nodes: usize) -> &mut Self {
        self.node_budget = nodes.max(1);
        self
    }

    /// The rows every plan from `state` to `goal` satisfies, and the
    /// implications of the preconditions `state` violates; `false` if a
    /// goal condition can never be brought about.
    fn model(&mut self, state: &State, goal: &[(u32, Constraint)]) -> bool {
        self.rows.clear();
        self.goal_terms.clear();
        self.live = 0;
        for (v, variable) in self.variables.iter().enumerate() {
            let Some(flow) = &variable.flow else {
                continue;
            };
            let now = value(state, v);
            if now.abs() > LARGEST_VALUE {
                continue;
            }
            let (mut lo, mut hi) = (now.min(flow.floor), now.max(flow.ceiling));
            for (_, constraint) in goal.iter().filter(|(g, _)| *g as usize == v) {
                let (goal_lo, goal_hi) = hull(constraint);
                (lo, hi) = (lo.max(goal_lo), hi.min(goal_hi));
            }
            if lo > hi {
                return false;
            }
            if lo.is_finite() {
                self.rows.push(Row::Flow(v, 1.0, lo - now));
            }
            if hi.is_finite() {
                self.rows.push(Row::Flow(v, -1.0, now - hi));
            }
        }
        for (v, constraint) in goal {
            let variable = &self.variables[*v as usize];
            if variable.flow.is_some() {
                continue;
            }
            // A met goal keeps its row, with nothing asked, so that every
            // state of one goal has rows of the same shape.
            let rhs = if constraint.allows(state.slot(*v as usize)) {
                0.0
            } else {
                1.0
            };
            let start = self.goal_terms.len();
            achievers(
                variable,
                constraint,
                &self.wildcards,
                None,
                &mut self.goal_terms,
            );
            if self.goal_terms.len() == start && rhs > 0.0 {
                return false;
            }
            self.rows.push(Row::Goal(start, self.goal_terms.len(), rhs));
        }
        for (p, pre) in self.preconditions.iter().enumerate() {
            let slot = state.slot(pre.var as usize);
            if pre.constraint.allows(slot) {
                continue;
            }
            // Contradictory preconditions (`x >= 5` and `x <= 3`): the
            // action never applies.
            if pre.constraint.is_empty() {
                self.rows.push(Row::Forbid(pre.action));
                continue;
            }
            let now = value(state, pre.var as usize);
            let (need, rhs) = match self.variables[pre.var as usize].flow {
                Some(_) if now.abs() <= LARGEST_VALUE => {
                    let (lo, hi) = hull(pre.constraint);
                    if now < lo {
                        (Need::Up, lo - now)
                    } else if now > hi {
                        (Need::Down, now - hi)
                    } else {
                        (Need::Any, 1.0)
                    }
                }
                _ => (Need::Any, 1.0),
            };
            let terms = pre.terms(need);
            if terms.is_empty() {
                self.rows.push(Row::Forbid(pre.action));
                continue;
            }
            let same = self.implications[..self.live].iter_mut().find(|i| {
                i.rhs.to_bits() == rhs.to_bits() && self.preconditions[i.pre].terms(i.need) == terms
            });
            if let Some(same) = same {
                same.actions.push(pre.action);
                continue;
            }
            if self.live == self.implications.len() {
                self.implications.push(Implication::default());
            }
            let implication = &mut self.implications[self.live];
            implication.actions.clear();
            implication.actions.push(pre.action);
            (implication.pre, implication.need, implication.rhs) = (p, need, rhs);
            self.live += 1;
        }
        true
    }

    /// Adds row `r` of the model to the tableau.
    fn push_model_row(&mut self, r: usize) {
        match self.rows[r] {
            Row::Flow(v, sign, rhs) => {
                let flow = self.variables[v].flow.as_ref();
                let deltas = flow.map_or(&[][..], |f| &f.deltas);
                self.lp
                    .push_row(deltas.iter().map(|&(a, d)| (a, sign * d)), rhs);
            }
            Row::Goal(start, end, rhs) => {
                self.lp
                    .push_row(self.goal_terms[start..end].iter().copied(), rhs);
            }
            Row::Forbid(a) => self.lp.push_row([(a, -1.0)], 0.0),
        }
    }

    /// The program's bound by branch and bound, `None` if it has no
    /// solution.
    ///
    /// With `warm` (the goal is the same as at the last call), the
    /// relaxation of the model's flow and goal rows starts from the last
    /// one's optimal basis, with the new right-hand sides: the basis stays
    /// dual feasible, and a sibling state is a few pivots away.
    fn bound(&mut self, state: &State, goal: &[(u32, Constraint)], warm: bool) -> Option<u64> {
        if !self.model(state, goal) {
            return None;
        }
        self.load_model(warm);
        self.pending.clear();
        self.kept = 0;
        let mut best = u64::MAX;
        let mut unclosed = u64::MAX;
        // The bound and depth of the node in the tableau.
        let (mut bound, mut depth) = (0, 0);
        for solved in 1.. {
            let z = match self.lp.solve() {
                Solved::Infeasible => None,
                Solved::Stopped(z) => {
                    unclosed = unclosed.min(round_up(z).max(bound));
                    None
                }
                Solved::Optimal(z) => Some(round_up(z).max(bound)).filter(|&z| z < best),
            };
            let dive = match z.map(|z| (z, self.branch())) {
                None => None,
                Some((z, None)) => {
                    best = z;
                    None
                }
                Some((z, Some(_))) if self.rounded_cost().is_some_and(|c| c <= z) => {
                    // Rounded up, the relaxation's counts make a whole
                    // solution as cheap as its bound: nothing below it.
                    best = z;
                    None
                }
                Some((z, Some((first, second)))) => {
                    let tableau = self.keep_tableau();
                    let least = self.pending.peek().map(|n| n.bound);
                    let mut child = Pending {
                        bound: z,
                        depth: depth + 1,
                        tableau,
                        branch: second,
                    };
                    self.pending.push(child);
                    child.branch = first;
                    // Go on in place with the first branch while no pending
                    // node has a smaller bound: no copy needed.
                    if least.is_some_and(|least| least < z) {
                        self.pending.push(child);
                        None
                    } else {
                        Some(child)
                    }
                }
            };
            let next = match dive {
                Some(child) => Some(child),
                None => self.next_pending(best),
            };
            let Some(next) = next else {
                break;
            };
            if solved >= self.node_budget {
                unclosed = unclosed.min(next.bound);
                break;
            }
            if dive.is_none() {
                self.lp.clone_from(&self.tableaux[next.tableau]);
            }
            (bound, depth) = (next.bound, next.depth);
            self.push_branch(next.branch);
        }
        let bound = best.min(unclosed);
        (bound != u64::MAX).then_some(bound)
    }

    /// The cost of the last relaxation's counts rounded up, if they satisfy
    /// every row of the model and every implication (whatever the
    /// branches): then the program has a solution that cheap.
    fn rounded_cost(&mut self) -> Option<u64> {
        self.rounded.clear();
        self.rounded.extend_from_slice(self.lp.solution());
        for &j in self.lp.support() {
            let v = &mut self.rounded[j as usize];
            let above = fraction(*v);
            if above > TOLERANCE {
                *v += 1.0 - above;
            } else {
                *v -= above;
            }
        }
        let x = &self.rounded;
        let sum =
            |terms: &[(u32, f64)]| -> f64 { terms.iter().map(|&(j, a)| a * x[j as usize]).sum() };
        for row in &self.rows {
            let holds = match *row {
                Row::Flow(v, sign, rhs) => {
                    let deltas = self.variables[v]
                        .flow
                        .as_ref()
                        .map_or(&[][..], |f| &f.deltas);
                    sign * sum(deltas) >= rhs - TOLERANCE
                }
                Row::Goal(start, end, rhs) => sum(&self.goal_terms[start..end]) >= rhs - TOLERANCE,
                Row::Forbid(a) => x[a as usize] <= TOLERANCE,
            };
            if !holds {
                return None;
            }
        }
        for implication in &self.implications[..self.live] {
            let occurs = implication
                .actions
                .iter()
                .any(|&a| x[a as usize] > TOLERANCE);
            let terms = self.preconditions[implication.pre].terms(implication.need);
            if occurs && sum(terms) < implication.rhs - TOLERANCE {
                return None;
            }
        }
        let cost: f64 = x.iter().zip(&self.costs).map(|(v, c)| v * c).sum();
        Some(round_up(cost))
    }

    /// Puts the model's rows in the tableau: from scratch, or (`warm`) from
    /// the last relaxation of the same flow and goal rows with the new
    /// right-hand sides, solved on from its basis and kept for the next.
    fn load_model(&mut self, warm: bool) {
        let base = self
            .rows
            .iter()
            .position(|r| matches!(r, Row::Forbid(_)))
            .unwrap_or(self.rows.len());
        let reuse = warm
            && self.root_rows.len() == base
            && self
                .root_rows
                .iter()
                .zip(&self.rows)
                .all(|(a, b)| a.same_terms(*b));
        if reuse {
            self.lp.clone_from(&self.root);
            for (r, (old, new)) in self.root_rows.iter().zip(&self.rows).enumerate() {
                let shift = old.rhs() - new.rhs();
                if shift != 0.0 {
                    self.lp.shift_row(r, shift);
                }
            }
        } else {
            self.fresh_rows(base);
        }
        if warm {
            if matches!(self.lp.solve(), Solved::Optimal(_)) {
                self.root.clone_from(&self.lp);
                self.root_rows.clear();
                self.root_rows.extend_from_slice(&self.rows[..base]);
            } else {
                // A dead end or a stalled solve: keep nothing from it.
                self.root_rows.clear();
                self.fresh_rows(base);
            }
        }
        for r in base..self.rows.len() {
            self.push_model_row(r);
        }
    }

    /// A new tableau with the model's first `rows` rows.
    fn fresh_rows(&mut self, rows: usize) {
        self.lp.reset(&self.costs);
        for r in 0..rows {
            self.push_model_row(r);
        }
    }

    /// Keeps a copy of the solved tableau for the branches of its node.
    fn keep_tableau(&mut self) -> usize {
        if self.kept == self.tableaux.len() {
            self.tableaux.push(self.lp.clone());
        } else {
            self.tableaux[self.kept].clone_from(&self.lp);
        }
        self.kept += 1;
        self.kept - 1
    }

    /// Takes the pending node of least bound (the deepest of equals), if
    /// any is below `best`: best first, so the bound of what is left only
    /// rises.
    fn next_pending(&mut self, best: u64) -> Option<Pending> {
        self.pending.pop().filter(|node| node.bound < best)
    }

    /// Adds a branch's row to the tableau.
    fn push_branch(&mut self, branch: Branch) {
        match branch {
            Branch::AtMost(j, k) => self.lp.push_row([(j, -1.0)], -k),
            Branch::AtLeast(j, k) => self.lp.push_row([(j, 1.0)], k),
            Branch::Implied(i) => {
                let implication = &self.implications[i];
                let terms = self.preconditions[implication.pre].terms(implication.need);
                self.lp.push_row(terms.iter().copied(), implication.rhs);
            }
            Branch::Excluded(i) => {
                let actions = &self.implications[i].actions;
                self.lp.push_row(actions.iter().map(|&a| (a, -1.0)), 0.0);
            }
        }
    }

    /// How to split the last relaxation's solution, the likelier part
    /// first: a violated implication (its consequent holds, or none of its
    /// actions occurs), else the count with the largest cost-weighted
    /// fraction (rounded up, or down); `None` if the solution is integral
    /// and satisfies every implication.
    fn branch(&self) -> Option<(Branch, Branch)> {
        let x = self.lp.solution();
        for (i, implication) in self.implications[..self.live].iter().enumerate() {
            let lhs: f64 = self.preconditions[implication.pre]
                .terms(implication.need)
                .iter()
                .map(|&(j, a)| a * x[j as usize])
                .sum();
            let occurs: f64 = implication.actions.iter().map(|&a| x[a as usize]).sum();
            if occurs > TOLERANCE && lhs < implication.rhs - TOLERANCE {
                return Some((Branch::Implied(i), Branch::Excluded(i)));
            }
        }
        let (j, _) = self
            .lp
            .support()
            .iter()
            .filter_map(|&j| {
                let above = fraction(x[j as usize]);
                let distance = above.min(1.0 - above);
                // The most fractional count, weighted by its cost.
                (distance > TOLERANCE).then_some((j, distance * (1.0 + self.costs[j as usize])))
            })
            .max_by(|a, b| a.1.total_cmp(&b.1))?;
        let below = x[j as usize] - fraction(x[j as usize]);
        Some((Branch::AtLeast(j, below + 1.0), Branch::AtMost(j, below)))
    }

    fn estimate_of(bound: Option<u64>) -> Estimate<Cost> {
        match bound {
            Some(b) => Estimate::Value(Cost::try_from(b).unwrap_or(Cost::MAX)),
            None => Estimate::DeadEnd,
        }
    }
}

/// The smallest integer at least `z`, forgiving float error (costs are
/// integers, so an integral plan's cost is too); the slack grows with `z`,
/// since rounding error does. Rounding down is always safe: a lower bound.
fn round_up(z: f64) -> u64 {
    let slack = TOLERANCE + z.abs() * 1e-9;
    #[expect(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "a non-negative objective, saturating"
    )]
    let bound = (z - slack).ceil().max(0.0) as u64;
    bound
}

/// The fractional part of a count (counts are non-negative and small; a
/// cast is much cheaper than `floor`, a libm call on baseline x86-64).
#[expect(
    clippy::cast_possible_truncation,
    clippy::cast_precision_loss,
    reason = "counts are in 0..2^52"
)]
fn fraction(count: f64) -> f64 {
    // `i64`, not `u64`: one instruction each way on x86-64.
    count - (count as i64) as f64
}

/// An int variable's value in `state`, as a float.
#[expect(clippy::cast_precision_loss, reason = "values beyond 2^50 are skipped")]
fn value(state: &State, v: usize) -> f64 {
    key_int(state.slot(v)) as f64
}

/// The smallest interval holding an int constraint's values, `±inf` where
/// it is unbounded.
#[expect(
    clippy::cast_precision_loss,
    reason = "an outer bound may round outwards only as far as the next float"
)]
fn hull(constraint: &Constraint) -> (f64, f64) {
    let Constraint::Int(set) = constraint else {
        return (f64::NEG_INFINITY, f64::INFINITY);
    };
    let (Some(&(lo, _)), Some(&(_, hi))) = (set.0.first(), set.0.last()) else {
        return (f64::INFINITY, f64::NEG_INFINITY);
    };
    let lo = match key_int(lo) {
        i64::MIN => f64::NEG_INFINITY,
        lo if (lo as f64).abs() > LARGEST_VALUE => f64::NEG_INFINITY,
        lo => lo as f64,
    };
    let hi = match key_int(hi) {
        i64::MAX => f64::INFINITY,
        hi if (hi as f64).abs() > LARGEST_VALUE => f64::INFINITY,
        hi => hi as f64,
    };
    (lo, hi)
}

/// The flow of int variable `v` from its changes, if only additions and
/// subtractions change it.
fn flow(domain: &Domain, v: u32, changes: &[(u32, Change)]) -> Option<Flow> {
    let mut flow = Flow {
        deltas: Vec::new(),
        floor: f64::INFINITY,
        ceiling: f64::NEG_INFINITY,
    };
    for &(a, change) in changes {
        let Change::Delta(d) = change else {
            return None;
        };
        if d.abs() > LARGEST_STEP {
            return None;
        }
        let pre = domain.actions()[a as usize]
            .pre_constraints
            .iter()
            .find(|(w, _)| *w == v)
            .map_or((f64::NEG_INFINITY, f64::INFINITY), |(_, c)| hull(c));
        if d < 0.0 {
            flow.floor = flow.floor.min(pre.0 + d);
        } else {
            flow.ceiling = flow.ceiling.max(pre.1 + d);
        }
        flow.deltas.push((a, d));
    }
    let steps = flow.deltas.iter().map(|&(_, d)| d.abs());
    let (least, largest) = steps.fold((f64::INFINITY, 0.0_f64), |(lo, hi), d| {
        (lo.min(d), hi.max(d))
    });
    if largest > least * LARGEST_STEP_RATIO {
        return None;
    }
    Some(flow)
}

/// Appends to `terms` the actions (but `except`) whose changes of
/// `variable` could leave it inside `constraint`, and the wildcards.
fn achievers(
    variable: &Variable,
    constraint: &Constraint,
    wildcards: &Terms,
    except: Option<u32>,
    terms: &mut Terms,
) {
    let start = terms.len();
    let possible = variable
        .changes
        .iter()
        .filter(|&&(_, change)| match change {
            Change::Const(slot) => constraint.allows(slot),
            Change::Delta(_) | Change::Any => true,
        })
        .map(|&(a, _)| (a, 1.0))
        .chain(wildcards.iter().copied())
        .filter(|&(a, _)| Some(a) != except);
    terms.extend(possible);
    terms[start..].sort_unstable_by_key(|&(a, _)| a);
    let mut kept = start;
    for i in start..terms.len() {
        if kept == start || terms[kept - 1].0 != terms[i].0 {
            terms[kept] = terms[i];
            kept += 1;
        }
    }
    terms.truncate(kept);
}

impl Heuristic<State, Cost> for OperatorCounting<'_> {
    fn estimate(&mut self, node: &State) -> Estimate<Cost> {
        let goal = self.goal;
        let bound = self.bound(node, &goal.constraints, true);
        Self::estimate_of(bound)
    }

    fn is_admissible(&self) -> bool {
        true
    }
}

impl Heuristic<Subgoal, Cost> for OperatorCounting<'_> {
    fn estimate(&mut self, node: &Subgoal) -> Estimate<Cost> {
        let start = self.start;
        let bound = self.bound(start, node.constraints(), false);
        Self::estimate_of(bound)
    }

    fn is_admissible(&self) -> bool {
        true
    }
}
