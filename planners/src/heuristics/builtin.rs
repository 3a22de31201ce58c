//! The built-in heuristics: each registered once, here.

use search_core::{Estimate, Heuristic};
use state_atomic::landmarks::{Allowance, LandmarkCount, Stopped};
use state_atomic::{
    ActionSet, AdmissibleMismatch, Bits, Ipdb, IpdbConfig, LmCut, LmCutRegression, Mismatch,
    PartialState, RelaxedForward, RelaxedRegression, WorldState,
};
use state_factored::{
    Combine, Domain, Goal, GoalCount, NumericDistance, NumericHmax, NumericRelaxedPlan,
    NumericRmax, OperatorCounting, State, Subgoal,
};

use super::{AtomicFactory, FactoredFactory, HeuristicFactory, NamedHeuristic, Registry, TaskView};
use crate::BoxedHeuristic;

/// The built-in registry, in the order `searchlab heuristics` lists it.
#[expect(
    clippy::too_many_lines,
    reason = "one entry per built-in heuristic, read as a list"
)]
pub(super) fn registry() -> Registry {
    let builtins = [
        NamedHeuristic::builder(
            "blind",
            "0 where the goal holds, else the cheapest action's cost (Fast Downward's blind)",
        )
        .aliases(&["zero"])
        .consistent()
        .generic(BlindFactory),
        NamedHeuristic::builder(
            "mismatch",
            "goal atoms a state gets wrong; factored: goal predicates it violates",
        )
        .aliases(&["goal-count", "goalcount", "unsatisfied"])
        .atomic(MismatchFactory)
        .factored(GoalCountFactory),
        NamedHeuristic::builder(
            "mismatch-admissible",
            "ceil(wrong goal atoms / most one action fixes) x the cheapest fixing cost",
        )
        .consistent()
        .fixed_costs()
        .atomic(AdmissibleMismatchFactory),
        NamedHeuristic::builder(
            "hmax",
            "h_max of the delete relaxation; factored: numeric h_max through preconditions, at least h^rmax where conditions are linear",
        )
        .aliases(&["h_max", "h-max"])
        .admissible()
        .fixed_costs()
        .atomic(HMaxFactory)
        .factored(NumericHmaxFactory),
        NamedHeuristic::builder("hadd", "h_add of the delete relaxation")
            .aliases(&["h_add", "h-add"])
            .fixed_costs()
            .atomic(HAddFactory),
        NamedHeuristic::builder("ff", "h_FF: the cost of a relaxed plan; forward, it prefers the plan's actions that apply (helpful actions)")
            .aliases(&["hff", "h_ff", "h-ff"])
            .fixed_costs()
            .atomic(FfFactory),
        NamedHeuristic::builder(
            "lmcut",
            "LM-cut: the costs of action landmarks cut from h_max's supporters (Fast Downward's lmcut); regression: from the start toward the subgoal",
        )
        .aliases(&["lm-cut", "lm_cut"])
        .admissible()
        .fixed_costs()
        .atomic(LmCutFactory),
        NamedHeuristic::builder(
            "ipdb",
            "pattern databases chosen by iPDB's hill climbing, combined canonically (Haslum et al. 2007) over the mutex groups packing finds; forward",
        )
        .aliases(&["pdb", "i-pdb"])
        .admissible()
        .fixed_costs()
        .unconditional()
        .forward_only()
        .mutex_groups()
        .atomic(IpdbFactory),
        NamedHeuristic::builder(
            "lmcount",
            "landmarks a path has yet to reach, or reach again (LAMA's landmark count over Zhu/Givan landmarks; path-dependent); prefers steps reaching one",
        )
        .aliases(&["landmark-count", "landmark_sum", "lm-count"])
        .forward_only()
        .atomic(LmCountFactory),
        NamedHeuristic::builder(
            "numeric",
            "numeric distance to the goal over the largest step, maxed over variables (admissible with costs >= 1)",
        )
        .aliases(&["numeric-max"])
        .admissible()
        .factored(NumericMaxFactory),
        NamedHeuristic::builder(
            "numeric-sum",
            "numeric distance to the goal, summed over variables",
        )
        .factored(NumericSumFactory),
        NamedHeuristic::builder(
            "hrmax",
            "ENHSP's h^rmax: h_max over the numeric relaxation, a linear condition short by n costing n times its supporters' least cost per unit (admissible; factored; regression: from the start toward the subgoal)",
        )
        .aliases(&["h_rmax", "rmax"])
        .admissible()
        .factored(RmaxFactory),
        NamedHeuristic::builder(
            "hmrp",
            "ENHSP's h^mrp (Metric-FF's relaxed plan with repetitions); prefers the plan's actions that apply (helpful actions; factored, forward)",
        )
        .aliases(&["mrp", "h_mrp"])
        .forward_only()
        .factored(RelaxedPlanFactory),
        NamedHeuristic::builder(
            "counting",
            "operator counting: an integer program over how often each action occurs",
        )
        .aliases(&["operator-counting", "oc", "lp"])
        .admissible()
        .factored(CountingFactory),
    ];
    let mut registry = Registry::new();
    for builder in builtins {
        let added = registry.add(builder.build()).is_ok();
        debug_assert!(added, "the built-in heuristics have distinct names");
    }
    registry
}

/// Fast Downward's blind heuristic: 0 where the goal holds, the cheapest
/// action's cost elsewhere; consistent, and it finds a goal first among
/// nodes of equal `g`.
struct BlindFactory;

pub(crate) struct BlindEstimate<F> {
    pub(crate) cheapest: u32,
    /// Whether a node does not meet the goal yet.
    pub(crate) unmet: F,
}

impl<N, F: FnMut(&N) -> bool> Heuristic<N, u32> for BlindEstimate<F> {
    fn estimate(&mut self, node: &N) -> Estimate<u32> {
        Estimate::Value(if (self.unmet)(node) { self.cheapest } else { 0 })
    }

    fn is_cheap(&self) -> bool {
        true
    }

    fn is_admissible(&self) -> bool {
        true
    }

    fn is_consistent(&self) -> bool {
        true
    }
}

fn cheapest<T: TaskView>(task: &T) -> u32 {
    task.action_views()
        .iter()
        .map(|a| a.cost)
        .min()
        .unwrap_or(0)
}

impl HeuristicFactory for BlindFactory {
    fn forward<'a, T: TaskView>(
        &self,
        task: &'a T,
        _start: &'a T::State,
        goal: &'a T::Goal,
    ) -> Option<BoxedHeuristic<'a, T::State>> {
        Some(Box::new(BlindEstimate {
            cheapest: cheapest(task),
            unmet: move |s: &T::State| !task.meets_goal(goal, s),
        }))
    }

    fn regression<'a, T: TaskView>(
        &self,
        task: &'a T,
        start: &'a T::State,
        _goal: &'a T::Goal,
    ) -> Option<BoxedHeuristic<'a, T::Subgoal>> {
        Some(Box::new(BlindEstimate {
            cheapest: cheapest(task),
            unmet: move |g: &T::Subgoal| !task.start_meets(start, g),
        }))
    }
}

/// An atomic built-in that owns what it reads: one expression per
/// direction, made as the owned heuristic a sliced job keeps
/// ([`AtomicFactory::forward_owned`]) and lent to every other search.
macro_rules! atomic_factory {
    ($name:ident, |$a:ident, $s:ident, $g:ident| $forward:expr, $regression:expr) => {
        struct $name;

        impl AtomicFactory for $name {
            fn forward<'a, B: Bits>(
                &self,
                actions: &'a ActionSet<B>,
                start: &'a WorldState<B>,
                goal: &'a PartialState<B>,
            ) -> Option<BoxedHeuristic<'a, WorldState<B>>> {
                self.forward_owned(actions, start, goal)
            }

            fn regression<'a, B: Bits>(
                &self,
                actions: &'a ActionSet<B>,
                start: &'a WorldState<B>,
                goal: &'a PartialState<B>,
            ) -> Option<BoxedHeuristic<'a, PartialState<B>>> {
                self.regression_owned(actions, start, goal)
            }

            fn forward_owned<B: Bits>(
                &self,
                $a: &ActionSet<B>,
                $s: &WorldState<B>,
                $g: &PartialState<B>,
            ) -> Option<BoxedHeuristic<'static, WorldState<B>>> {
                let _ = $s;
                Some(Box::new($forward))
            }

            fn regression_owned<B: Bits>(
                &self,
                $a: &ActionSet<B>,
                $s: &WorldState<B>,
                $g: &PartialState<B>,
            ) -> Option<BoxedHeuristic<'static, PartialState<B>>> {
                let _ = $g;
                Some(Box::new($regression))
            }
        }
    };
}

atomic_factory!(
    MismatchFactory,
    |a, s, g| {
        let _ = a;
        Mismatch::forward(g.clone())
    },
    {
        let _ = a;
        Mismatch::regression(s)
    }
);
atomic_factory!(
    AdmissibleMismatchFactory,
    |a, s, g| AdmissibleMismatch::forward(a, g.clone()),
    AdmissibleMismatch::regression(a, s)
);
atomic_factory!(
    HMaxFactory,
    |a, s, g| RelaxedForward::h_max(a, g.clone()),
    RelaxedRegression::h_max(a, s.clone())
);
atomic_factory!(
    HAddFactory,
    |a, s, g| RelaxedForward::h_add(a, g.clone()),
    RelaxedRegression::h_add(a, s.clone())
);
atomic_factory!(
    FfFactory,
    |a, s, g| RelaxedForward::h_ff(a, g.clone()),
    RelaxedRegression::h_ff(a, s.clone())
);

/// LM-cut: forward it owns its tables; in regression it reads the task.
struct LmCutFactory;

impl AtomicFactory for LmCutFactory {
    fn forward<'a, B: Bits>(
        &self,
        actions: &'a ActionSet<B>,
        start: &'a WorldState<B>,
        goal: &'a PartialState<B>,
    ) -> Option<BoxedHeuristic<'a, WorldState<B>>> {
        self.forward_owned(actions, start, goal)
    }

    fn regression<'a, B: Bits>(
        &self,
        actions: &'a ActionSet<B>,
        start: &'a WorldState<B>,
        goal: &'a PartialState<B>,
    ) -> Option<BoxedHeuristic<'a, PartialState<B>>> {
        Some(Box::new(LmCutRegression::new(
            actions,
            start.clone(),
            goal.clone(),
        )))
    }

    fn forward_owned<B: Bits>(
        &self,
        actions: &ActionSet<B>,
        _start: &WorldState<B>,
        goal: &PartialState<B>,
    ) -> Option<BoxedHeuristic<'static, WorldState<B>>> {
        Some(Box::new(LmCut::new(actions, goal.clone())))
    }
}

/// iPDB: forward only (its databases hold distances to the goal).
struct IpdbFactory;

impl AtomicFactory for IpdbFactory {
    fn forward<'a, B: Bits>(
        &self,
        actions: &'a ActionSet<B>,
        start: &'a WorldState<B>,
        goal: &'a PartialState<B>,
    ) -> Option<BoxedHeuristic<'a, WorldState<B>>> {
        Some(Box::new(IpdbWhenAsked {
            actions,
            start,
            goal,
            config: IpdbConfig::default(),
            deadline: None,
            ipdb: None,
        }))
    }

    fn regression<'a, B: Bits>(
        &self,
        _: &'a ActionSet<B>,
        _: &'a WorldState<B>,
        _: &'a PartialState<B>,
    ) -> Option<BoxedHeuristic<'a, PartialState<B>>> {
        None
    }
}

/// iPDB's databases, built at the first estimate, once the search has set
/// its deadline and memory budget: hill climbing stops at the deadline
/// (keeping the collection so far) and its tables stay within the budget,
/// so the search's limits hold for the set-up too.
struct IpdbWhenAsked<'a, B: Bits> {
    actions: &'a ActionSet<B>,
    start: &'a WorldState<B>,
    goal: &'a PartialState<B>,
    config: IpdbConfig,
    deadline: Option<std::time::Instant>,
    ipdb: Option<Ipdb<B>>,
}

impl<B: Bits> IpdbWhenAsked<'_, B> {
    fn ipdb(&mut self) -> &mut Ipdb<B> {
        let Self {
            actions,
            start,
            goal,
            config,
            deadline,
            ipdb,
        } = self;
        ipdb.get_or_insert_with(|| {
            if let Some(deadline) = deadline {
                let left = deadline.saturating_duration_since(std::time::Instant::now());
                config.max_time = config.max_time.min(left);
            }
            Ipdb::with_config(actions, start, (*goal).clone(), config)
        })
    }
}

impl<B: Bits> Heuristic<WorldState<B>, u32> for IpdbWhenAsked<'_, B> {
    fn estimate(&mut self, state: &WorldState<B>) -> Estimate<u32> {
        self.ipdb().estimate(state)
    }
    fn is_admissible(&self) -> bool {
        true
    }
    fn is_consistent(&self) -> bool {
        false
    }
    fn memory_bytes(&self) -> usize {
        self.ipdb.as_ref().map_or(0, Heuristic::memory_bytes)
    }
    fn set_deadline(&mut self, deadline: Option<std::time::Instant>) {
        self.deadline = deadline;
    }
    fn set_memory_budget(&mut self, bytes: Option<usize>) {
        if let Some(bytes) = bytes {
            // Distances of 4 bytes, the collection and the candidates
            // beside it, and Dijkstra's queue while a table is built.
            let entries = bytes / 16;
            let config = &mut self.config;
            config.max_collection_size = config.max_collection_size.min(entries);
            config.max_pdb_size = config.max_pdb_size.min(entries);
        }
    }
}

/// The landmark count: forward only (its landmarks are the start's).
struct LmCountFactory;

impl AtomicFactory for LmCountFactory {
    fn forward<'a, B: Bits>(
        &self,
        actions: &'a ActionSet<B>,
        start: &'a WorldState<B>,
        goal: &'a PartialState<B>,
    ) -> Option<BoxedHeuristic<'a, WorldState<B>>> {
        Some(Box::new(LandmarksWhenAsked {
            actions,
            start: start.clone(),
            goal: goal.clone(),
            allowance: Allowance::default(),
            count: None,
        }))
    }

    fn regression<'a, B: Bits>(
        &self,
        _: &'a ActionSet<B>,
        _: &'a WorldState<B>,
        _: &'a PartialState<B>,
    ) -> Option<BoxedHeuristic<'a, PartialState<B>>> {
        None
    }
}

/// The landmark count, made when the search first asks for an estimate
/// (inside its first step, once the engine has told its deadline and
/// memory budget): landmark generation, long and large on a large task,
/// then stops at the search's limits ([`LandmarkCount::new_within`]). A
/// generation stopped at the deadline counts 0 (the search ends at its time
/// limit next); one stopped at the budget reports the bytes it wanted, so
/// the search ends at its memory limit.
struct LandmarksWhenAsked<'a, B: Bits> {
    actions: &'a ActionSet<B>,
    start: WorldState<B>,
    goal: PartialState<B>,
    allowance: Allowance,
    count: Option<Result<LandmarkCount<B>, Stopped>>,
}

impl<B: Bits> LandmarksWhenAsked<'_, B> {
    fn count(&mut self) -> Option<&mut LandmarkCount<B>> {
        let Self {
            actions,
            start,
            goal,
            allowance,
            count,
        } = self;
        count
            .get_or_insert_with(|| {
                LandmarkCount::new_within(actions, start, goal.clone(), *allowance)
            })
            .as_mut()
            .ok()
    }
}

impl<B: Bits> Heuristic<WorldState<B>, u32> for LandmarksWhenAsked<'_, B> {
    fn estimate(&mut self, state: &WorldState<B>) -> Estimate<u32> {
        self.count()
            .map_or(Estimate::Value(0), |count| count.estimate(state))
    }
    // The count's own answers, which do not depend on its landmarks.
    fn is_admissible(&self) -> bool {
        false
    }
    fn is_consistent(&self) -> bool {
        false
    }
    fn dead_ends_are_reliable(&self) -> bool {
        true
    }
    fn notify_transition(&mut self, parent: &WorldState<B>, child: &WorldState<B>) {
        if let Some(count) = self.count() {
            count.notify_transition(parent, child);
        }
    }
    fn is_preferred(&mut self, parent: &WorldState<B>, child: &WorldState<B>) -> bool {
        self.count()
            .is_some_and(|count| count.is_preferred(parent, child))
    }
    fn memory_bytes(&self) -> usize {
        match &self.count {
            Some(Ok(count)) => count.memory_bytes(),
            Some(Err(Stopped::Memory { bytes })) => *bytes,
            _ => 0,
        }
    }
    fn set_deadline(&mut self, deadline: Option<std::time::Instant>) {
        self.allowance.deadline = deadline;
    }
    fn set_memory_budget(&mut self, bytes: Option<usize>) {
        self.allowance.max_bytes = bytes;
    }
}

/// A factored built-in: one value serves both directions (factored
/// heuristics measure a state against constraints: forward the node against
/// the goal's, in regression the start against the subgoal's). With an
/// `owned` expression, it also makes the form that holds copies of the
/// start and goal, which a sliced job keeps.
macro_rules! factored_factory {
    ($name:ident, |$d:ident, $s:ident, $g:ident| $make:expr $(, owned $owned:expr)?) => {
        struct $name;

        impl FactoredFactory for $name {
            fn forward<'a>(
                &self,
                $d: &'a Domain,
                $s: &'a State,
                $g: &'a Goal,
            ) -> Option<BoxedHeuristic<'a, State>> {
                Some(Box::new($make))
            }

            fn regression<'a>(
                &self,
                $d: &'a Domain,
                $s: &'a State,
                $g: &'a Goal,
            ) -> Option<BoxedHeuristic<'a, Subgoal>> {
                Some(Box::new($make))
            }

            $(
                fn forward_owned(
                    &self,
                    $d: &Domain,
                    $s: &State,
                    $g: &Goal,
                ) -> Option<BoxedHeuristic<'static, State>> {
                    Some(Box::new($owned))
                }

                fn regression_owned(
                    &self,
                    $d: &Domain,
                    $s: &State,
                    $g: &Goal,
                ) -> Option<BoxedHeuristic<'static, Subgoal>> {
                    Some(Box::new($owned))
                }
            )?
        }
    };
}

/// A factored built-in for forward search only: it estimates states, not
/// subgoals.
macro_rules! forward_factored_factory {
    ($name:ident, |$d:ident, $g:ident| $make:expr) => {
        struct $name;

        impl FactoredFactory for $name {
            fn forward<'a>(
                &self,
                $d: &'a Domain,
                _start: &'a State,
                $g: &'a Goal,
            ) -> Option<BoxedHeuristic<'a, State>> {
                Some(Box::new($make?))
            }

            fn regression<'a>(
                &self,
                _domain: &'a Domain,
                _start: &'a State,
                _goal: &'a Goal,
            ) -> Option<BoxedHeuristic<'a, Subgoal>> {
                None
            }
        }
    };
}

/// `hrmax`: forward toward the goal, in regression from the start; it
/// owns its tables, so a sliced job keeps it.
struct RmaxFactory;

impl FactoredFactory for RmaxFactory {
    fn forward<'a>(
        &self,
        domain: &'a Domain,
        start: &'a State,
        goal: &'a Goal,
    ) -> Option<BoxedHeuristic<'a, State>> {
        self.forward_owned(domain, start, goal)
    }

    fn regression<'a>(
        &self,
        domain: &'a Domain,
        start: &'a State,
        goal: &'a Goal,
    ) -> Option<BoxedHeuristic<'a, Subgoal>> {
        self.regression_owned(domain, start, goal)
    }

    fn forward_owned(
        &self,
        domain: &Domain,
        _start: &State,
        goal: &Goal,
    ) -> Option<BoxedHeuristic<'static, State>> {
        Some(Box::new(NumericRmax::new(domain, goal)?))
    }

    fn regression_owned(
        &self,
        domain: &Domain,
        start: &State,
        goal: &Goal,
    ) -> Option<BoxedHeuristic<'static, Subgoal>> {
        Some(Box::new(NumericRmax::regression(domain, start, goal)?))
    }
}

forward_factored_factory!(RelaxedPlanFactory, |d, g| NumericRelaxedPlan::new(d, g));

factored_factory!(
    GoalCountFactory,
    |d, s, g| GoalCount::new(d, s, g),
    owned GoalCount::owned(d, s, g)
);
factored_factory!(NumericHmaxFactory, |d, s, g| NumericHmax::new(d, s, g));
factored_factory!(
    NumericMaxFactory,
    |d, s, g| NumericDistance::new(d, s, g, Combine::Max),
    owned NumericDistance::owned(d, s, g, Combine::Max)
);
factored_factory!(
    NumericSumFactory,
    |d, s, g| NumericDistance::new(d, s, g, Combine::Sum),
    owned NumericDistance::owned(d, s, g, Combine::Sum)
);
factored_factory!(CountingFactory, |d, s, g| OperatorCounting::new(d, s, g));

#[cfg(test)]
mod tests {
    use super::{IpdbConfig, IpdbWhenAsked};
    use search_core::{Estimate, Heuristic};
    use state_atomic::ActionSet;

    /// iPDB is built at the first estimate, within the deadline and memory
    /// budget the search set before it: a passed deadline leaves the goal's
    /// patterns alone, where hill climbing would grow them.
    #[test]
    fn ipdb_is_built_within_the_searchs_deadline_and_budget() {
        let mut actions = ActionSet::<u64>::new();
        actions
            .add_action("cook", 10)
            .pre("has_groceries", true)
            .eff("has_food", true);
        actions.add_action("shop", 5).eff("has_groceries", true);
        let start = actions.state([]).unwrap();
        let goal = actions.partial([("has_food", true)]).unwrap();
        let make = || IpdbWhenAsked {
            actions: &actions,
            start: &start,
            goal: &goal,
            config: IpdbConfig {
                min_improvement: 1,
                ..IpdbConfig::default()
            },
            deadline: None,
            ipdb: None,
        };
        let mut free = make();
        assert_eq!(
            free.memory_bytes(),
            0,
            "nothing built before the first estimate"
        );
        assert_eq!(free.estimate(&start), Estimate::Value(15));
        assert_eq!(free.ipdb().patterns().len(), 2);
        let mut late = make();
        late.set_deadline(Some(std::time::Instant::now()));
        assert_eq!(late.estimate(&start), Estimate::Value(10));
        assert_eq!(late.ipdb().patterns(), [vec![1]], "has_food alone");
        let mut small = make();
        small.set_memory_budget(Some(16 * 3));
        small.estimate(&start);
        assert!(small.ipdb().abstract_states() <= 3);
    }
}
