//! Operator counting: an admissible heuristic from an integer program over
//! how often each action occurs, which sees resource flows that `h_max`
//! cannot.
//!
//! Three parts, one file each: the program itself (`model.rs`: its
//! variables, rows and implications, built from the domain and posed for a
//! state and a goal), the branch and bound that solves it to a bound under a
//! budget (`branch_and_bound.rs`, over `simplex.rs`), and the heuristic here,
//! which owns one of each and answers for both directions.

mod branch_and_bound;
mod model;

use std::time::Instant;

use search_core::{Estimate, Heuristic};

use self::branch_and_bound::BranchAndBound;
use self::model::{LinearGoal, Model};
use crate::constraint::Constraint;
use crate::{Cost, Domain, Goal, State, Subgoal};

/// Counts are integral when this close to an integer; rows hold when this
/// close to their right-hand side.
const TOLERANCE: f64 = 1e-6;

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
/// The search's limits hold inside an estimate too (the tableaux are dense:
/// a float per row and action each, so a task of 26,000 actions and a
/// thousand rows takes 200 MB a tableau): past the search's deadline a
/// solve or the branching stops with the bound so far; branching stops
/// where one more tableau would pass the memory the search leaves it; and
/// a program whose tableaux alone would pass it gets the bound 0 and
/// reports the bytes it needed, so that the search ends at its memory
/// limit.
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
/// A linear goal condition `Σ w_i v_i + k >= 0` over flow variables poses
/// the row `Σ_a δ_a x_a >= -(Σ w_i v_i(s) + k)`, where `δ_a = Σ_i w_i
/// Δ_a(v_i)` is what action `a` adds to the sum (two counters that must
/// end apart need that many increments); linear preconditions over several
/// variables pose none (fewer rows, a lower bound still), and a variable an
/// expression effect changes gets no flow rows: such an action counts as an
/// achiever of any value.
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
/// let mut h = OperatorCounting::new(&domain, &start, &goal);
/// // Nine more wood takes three whole chops: 3 * 2 + 5.
/// assert_eq!(Heuristic::<State, u32>::estimate(&mut h, &start), Estimate::Value(11));
/// let plan = astar(&domain.forward(&goal), start.clone(), h).unwrap();
/// assert_eq!(plan.outcome.solution().unwrap().cost, 11);
/// ```
#[derive(Clone, Debug)]
pub struct OperatorCounting<'a> {
    start: &'a State,
    goal: &'a Goal,
    /// The goal's linear conditions over flow variables.
    goal_linear: Vec<LinearGoal>,
    model: Model<'a>,
    solver: BranchAndBound,
}

impl<'a> OperatorCounting<'a> {
    /// Operator counting for `domain` towards `goal`; `start` is where
    /// regression plans from (forward search passes its states instead).
    pub fn new(domain: &'a Domain, start: &'a State, goal: &'a Goal) -> Self {
        let model = Model::new(domain);
        Self {
            start,
            goal,
            goal_linear: model.linear_goals(goal.linear.iter().flat_map(|(t, _)| t.at_least())),
            model,
            solver: BranchAndBound::new(),
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
    /// let mut h = OperatorCounting::new(&p.domain, &p.start, &p.goal);
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
        self.solver.set_node_budget(nodes);
        self
    }

    /// A lower bound on the cost of every plan from `state` to `goal`,
    /// `None` if there is no plan; `warm` as in [`BranchAndBound::bound`].
    fn bound(
        &mut self,
        state: &State,
        goal: &[(u32, Constraint)],
        linear: Option<&[LinearGoal]>,
        warm: bool,
    ) -> Option<u64> {
        let linear = linear.unwrap_or(&self.goal_linear);
        if !self.model.pose(state, goal, linear) {
            return None;
        }
        self.solver.bound(&self.model, warm)
    }

    fn estimate_of(bound: Option<u64>) -> Estimate<Cost> {
        match bound {
            Some(b) => Estimate::Value(Cost::try_from(b).unwrap_or(Cost::MAX)),
            None => Estimate::DeadEnd,
        }
    }
}

impl Heuristic<State, Cost> for OperatorCounting<'_> {
    fn estimate(&mut self, node: &State) -> Estimate<Cost> {
        let goal = self.goal;
        let bound = self.bound(node, &goal.constraints, None, true);
        Self::estimate_of(bound)
    }

    fn is_admissible(&self) -> bool {
        true
    }

    fn memory_bytes(&self) -> usize {
        self.model.bytes() + self.solver.memory_bytes()
    }

    fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.solver.set_deadline(deadline);
    }

    fn set_memory_budget(&mut self, bytes: Option<usize>) {
        self.solver.set_memory_budget(bytes);
    }
}

impl Heuristic<Subgoal, Cost> for OperatorCounting<'_> {
    fn estimate(&mut self, node: &Subgoal) -> Estimate<Cost> {
        let start = self.start;
        let linear = self.model.linear_goals(
            node.linear_constraints()
                .iter()
                .flat_map(crate::LinearConstraint::at_least),
        );
        let bound = self.bound(start, node.constraints(), Some(&linear), false);
        Self::estimate_of(bound)
    }

    fn is_admissible(&self) -> bool {
        true
    }

    fn memory_bytes(&self) -> usize {
        self.model.bytes() + self.solver.memory_bytes()
    }

    fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.solver.set_deadline(deadline);
    }

    fn set_memory_budget(&mut self, bytes: Option<usize>) {
        self.solver.set_memory_budget(bytes);
    }
}
