//! How a heuristic is made for one search: three factory traits (any
//! representation, atomic of any width, factored), and the table that
//! erases a factory into one entry per concrete task type.

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::sync::Arc;

use state_atomic::{ActionSet, Bits, PartialState, SparseBits, Wide, WorldState};
use state_factored::{Domain, Goal, State, Subgoal};

use super::TaskView;
use crate::BoxedHeuristic;

/// Makes a heuristic for any representation, reading the task through
/// [`TaskView`]: written once, it runs on atomic domains of every width,
/// grounded PDDL tasks and factored domains, in both directions.
///
/// Each method is called once per search (a portfolio makes one per
/// direction), so tables built here are the heuristic's setup time. A
/// method returns `None` when it cannot serve this task; the planner then
/// reports the heuristic unsupported there.
///
/// ```
/// use planners::heuristics::{HeuristicFactory, NamedHeuristic, TaskView};
/// use planners::{BoxedHeuristic, Planner, PlannerConfig};
/// use search_core::Admissible;
/// use state_atomic::ActionSet;
///
/// /// 1 while some goal condition is unmet: admissible with costs >= 1.
/// struct Unmet;
/// impl HeuristicFactory for Unmet {
///     fn forward<'a, T: TaskView>(&self, task: &'a T, _: &'a T::State, goal: &'a T::Goal)
///         -> Option<BoxedHeuristic<'a, T::State>> {
///         Some(Box::new(Admissible(move |s: &T::State| {
///             u32::from(!task.meets_goal(goal, s))
///         })))
///     }
///     fn regression<'a, T: TaskView>(&self, task: &'a T, start: &'a T::State, _: &'a T::Goal)
///         -> Option<BoxedHeuristic<'a, T::Subgoal>> {
///         Some(Box::new(Admissible(move |g: &T::Subgoal| {
///             u32::from(!task.start_meets(start, g))
///         })))
///     }
/// }
///
/// let unmet = NamedHeuristic::builder("unmet", "1 until the goal holds").admissible().generic(Unmet).build();
/// let mut actions = ActionSet::<u64>::new();
/// actions.add_action("eat", 5).pre("has_food", true).eff("fed", true);
/// let start = actions.state(["has_food"]).unwrap();
/// let goal = actions.partial([("fed", true)]).unwrap();
/// let planner = Planner::new(PlannerConfig { heuristic: unmet, ..PlannerConfig::default() });
/// assert_eq!(planner.plan(&actions, &start, &goal).unwrap().plan().unwrap().cost, 5);
/// ```
pub trait HeuristicFactory: Send + Sync + 'static {
    /// A heuristic for forward search from `start` towards `goal`.
    fn forward<'a, T: TaskView>(
        &self,
        task: &'a T,
        start: &'a T::State,
        goal: &'a T::Goal,
    ) -> Option<BoxedHeuristic<'a, T::State>>;

    /// A heuristic for regression: it estimates the cost from `start` to a
    /// subgoal.
    fn regression<'a, T: TaskView>(
        &self,
        task: &'a T,
        start: &'a T::State,
        goal: &'a T::Goal,
    ) -> Option<BoxedHeuristic<'a, T::Subgoal>>;

    /// [`forward`](Self::forward)'s heuristic in a form that owns what it
    /// reads (its tables, a copy of the goal: no borrow), if the factory
    /// has one; it must give `forward`'s values. A sliced
    /// [`PlanJob`](crate::PlanJob) keeps it from slice to slice, where it
    /// makes a borrowing one anew each slice, and over
    /// [`replan`](crate::PlanJob::replan)s toward the same goal from other
    /// starts: so it must not depend on `start`. `None`, the default: the
    /// job makes [`forward`](Self::forward)'s anew each slice.
    fn forward_owned<T: TaskView>(
        &self,
        task: &T,
        start: &T::State,
        goal: &T::Goal,
    ) -> Option<BoxedHeuristic<'static, T::State>> {
        let _ = (task, start, goal);
        None
    }

    /// [`regression`](Self::regression)'s heuristic in a form that owns
    /// what it reads; see [`forward_owned`](Self::forward_owned).
    fn regression_owned<T: TaskView>(
        &self,
        task: &T,
        start: &T::State,
        goal: &T::Goal,
    ) -> Option<BoxedHeuristic<'static, T::Subgoal>> {
        let _ = (task, start, goal);
        None
    }
}

/// Makes a heuristic for atomic tasks of every width (`u64`,
/// [`Wide<N>`](state_atomic::Wide) and [`SparseBits`], grounded PDDL tasks
/// included), with full access to the [`ActionSet`]. Skipped on factored
/// problems.
pub trait AtomicFactory: Send + Sync + 'static {
    /// A heuristic for forward search from `start` towards `goal`.
    fn forward<'a, B: Bits>(
        &self,
        actions: &'a ActionSet<B>,
        start: &'a WorldState<B>,
        goal: &'a PartialState<B>,
    ) -> Option<BoxedHeuristic<'a, WorldState<B>>>;

    /// A heuristic for regression: it estimates the cost from `start` to a
    /// subgoal.
    fn regression<'a, B: Bits>(
        &self,
        actions: &'a ActionSet<B>,
        start: &'a WorldState<B>,
        goal: &'a PartialState<B>,
    ) -> Option<BoxedHeuristic<'a, PartialState<B>>>;

    /// [`forward`](Self::forward)'s heuristic owning what it reads; see
    /// [`HeuristicFactory::forward_owned`]. `None` by default.
    fn forward_owned<B: Bits>(
        &self,
        actions: &ActionSet<B>,
        start: &WorldState<B>,
        goal: &PartialState<B>,
    ) -> Option<BoxedHeuristic<'static, WorldState<B>>> {
        let _ = (actions, start, goal);
        None
    }

    /// [`regression`](Self::regression)'s heuristic owning what it reads;
    /// see [`HeuristicFactory::forward_owned`]. `None` by default.
    fn regression_owned<B: Bits>(
        &self,
        actions: &ActionSet<B>,
        start: &WorldState<B>,
        goal: &PartialState<B>,
    ) -> Option<BoxedHeuristic<'static, PartialState<B>>> {
        let _ = (actions, start, goal);
        None
    }
}

/// Makes a heuristic for factored domains. Skipped on atomic problems.
pub trait FactoredFactory: Send + Sync + 'static {
    /// A heuristic for forward search from `start` towards `goal`.
    fn forward<'a>(
        &self,
        domain: &'a Domain,
        start: &'a State,
        goal: &'a Goal,
    ) -> Option<BoxedHeuristic<'a, State>>;

    /// A heuristic for regression: it estimates the cost from `start` to a
    /// subgoal.
    fn regression<'a>(
        &self,
        domain: &'a Domain,
        start: &'a State,
        goal: &'a Goal,
    ) -> Option<BoxedHeuristic<'a, Subgoal>>;

    /// [`forward`](Self::forward)'s heuristic owning what it reads; see
    /// [`HeuristicFactory::forward_owned`]. `None` by default.
    fn forward_owned(
        &self,
        domain: &Domain,
        start: &State,
        goal: &Goal,
    ) -> Option<BoxedHeuristic<'static, State>> {
        let _ = (domain, start, goal);
        None
    }

    /// [`regression`](Self::regression)'s heuristic owning what it reads;
    /// see [`HeuristicFactory::forward_owned`]. `None` by default.
    fn regression_owned(
        &self,
        domain: &Domain,
        start: &State,
        goal: &Goal,
    ) -> Option<BoxedHeuristic<'static, Subgoal>> {
        let _ = (domain, start, goal);
        None
    }
}

/// A factory for one concrete task type `T`: what the table holds.
pub(crate) trait Make<T: TaskView>: Send + Sync {
    fn forward<'a>(
        &self,
        task: &'a T,
        start: &'a T::State,
        goal: &'a T::Goal,
    ) -> Option<BoxedHeuristic<'a, T::State>>;

    fn regression<'a>(
        &self,
        task: &'a T,
        start: &'a T::State,
        goal: &'a T::Goal,
    ) -> Option<BoxedHeuristic<'a, T::Subgoal>>;

    fn forward_owned(
        &self,
        task: &T,
        start: &T::State,
        goal: &T::Goal,
    ) -> Option<BoxedHeuristic<'static, T::State>>;

    fn regression_owned(
        &self,
        task: &T,
        start: &T::State,
        goal: &T::Goal,
    ) -> Option<BoxedHeuristic<'static, T::Subgoal>>;
}

struct Generic<F>(Arc<F>);

impl<F: HeuristicFactory, T: TaskView> Make<T> for Generic<F> {
    fn forward<'a>(
        &self,
        task: &'a T,
        start: &'a T::State,
        goal: &'a T::Goal,
    ) -> Option<BoxedHeuristic<'a, T::State>> {
        self.0.forward(task, start, goal)
    }

    fn regression<'a>(
        &self,
        task: &'a T,
        start: &'a T::State,
        goal: &'a T::Goal,
    ) -> Option<BoxedHeuristic<'a, T::Subgoal>> {
        self.0.regression(task, start, goal)
    }

    fn forward_owned(
        &self,
        task: &T,
        start: &T::State,
        goal: &T::Goal,
    ) -> Option<BoxedHeuristic<'static, T::State>> {
        self.0.forward_owned(task, start, goal)
    }

    fn regression_owned(
        &self,
        task: &T,
        start: &T::State,
        goal: &T::Goal,
    ) -> Option<BoxedHeuristic<'static, T::Subgoal>> {
        self.0.regression_owned(task, start, goal)
    }
}

struct Atomic<F>(Arc<F>);

impl<F: AtomicFactory, B: Bits> Make<ActionSet<B>> for Atomic<F> {
    fn forward<'a>(
        &self,
        actions: &'a ActionSet<B>,
        start: &'a WorldState<B>,
        goal: &'a PartialState<B>,
    ) -> Option<BoxedHeuristic<'a, WorldState<B>>> {
        self.0.forward(actions, start, goal)
    }

    fn regression<'a>(
        &self,
        actions: &'a ActionSet<B>,
        start: &'a WorldState<B>,
        goal: &'a PartialState<B>,
    ) -> Option<BoxedHeuristic<'a, PartialState<B>>> {
        self.0.regression(actions, start, goal)
    }

    fn forward_owned(
        &self,
        actions: &ActionSet<B>,
        start: &WorldState<B>,
        goal: &PartialState<B>,
    ) -> Option<BoxedHeuristic<'static, WorldState<B>>> {
        self.0.forward_owned(actions, start, goal)
    }

    fn regression_owned(
        &self,
        actions: &ActionSet<B>,
        start: &WorldState<B>,
        goal: &PartialState<B>,
    ) -> Option<BoxedHeuristic<'static, PartialState<B>>> {
        self.0.regression_owned(actions, start, goal)
    }
}

struct Factored<F>(Arc<F>);

impl<F: FactoredFactory> Make<Domain> for Factored<F> {
    fn forward<'a>(
        &self,
        domain: &'a Domain,
        start: &'a State,
        goal: &'a Goal,
    ) -> Option<BoxedHeuristic<'a, State>> {
        self.0.forward(domain, start, goal)
    }

    fn regression<'a>(
        &self,
        domain: &'a Domain,
        start: &'a State,
        goal: &'a Goal,
    ) -> Option<BoxedHeuristic<'a, Subgoal>> {
        self.0.regression(domain, start, goal)
    }

    fn forward_owned(
        &self,
        domain: &Domain,
        start: &State,
        goal: &Goal,
    ) -> Option<BoxedHeuristic<'static, State>> {
        self.0.forward_owned(domain, start, goal)
    }

    fn regression_owned(
        &self,
        domain: &Domain,
        start: &State,
        goal: &Goal,
    ) -> Option<BoxedHeuristic<'static, Subgoal>> {
        self.0.regression_owned(domain, start, goal)
    }
}

/// A heuristic's factories, one per concrete task type, found by type.
///
/// Rust cannot call a generic factory through a trait object, so a factory
/// is instantiated here, once, for every task type a planner can meet: the
/// atomic widths below and the factored domain.
#[derive(Clone, Default)]
pub(crate) struct Slots {
    by_type: HashMap<TypeId, Arc<dyn Any + Send + Sync>>,
}

impl Slots {
    fn insert<T: TaskView>(&mut self, make: Arc<dyn Make<T>>) {
        self.by_type.insert(TypeId::of::<T>(), Arc::new(make));
    }

    /// The factory for task type `T`, if the heuristic serves it.
    pub(crate) fn get<T: TaskView>(&self) -> Option<&Arc<dyn Make<T>>> {
        self.by_type
            .get(&TypeId::of::<T>())?
            .downcast_ref::<Arc<dyn Make<T>>>()
    }

    /// Serves every task type with `factory`.
    pub(crate) fn generic<F: HeuristicFactory>(&mut self, factory: Arc<F>) {
        struct Fill<'s, F>(&'s mut Slots, Arc<F>);
        impl<F: HeuristicFactory> EachWidth for Fill<'_, F> {
            fn visit<B: Bits>(&mut self) {
                self.0
                    .insert::<ActionSet<B>>(Arc::new(Generic(Arc::clone(&self.1))));
            }
        }
        each_width(&mut Fill(self, Arc::clone(&factory)));
        self.insert::<Domain>(Arc::new(Generic(factory)));
    }

    /// Serves the atomic task types with `factory`.
    pub(crate) fn atomic<F: AtomicFactory>(&mut self, factory: Arc<F>) {
        struct Fill<'s, F>(&'s mut Slots, Arc<F>);
        impl<F: AtomicFactory> EachWidth for Fill<'_, F> {
            fn visit<B: Bits>(&mut self) {
                self.0
                    .insert::<ActionSet<B>>(Arc::new(Atomic(Arc::clone(&self.1))));
            }
        }
        each_width(&mut Fill(self, factory));
    }

    /// Serves the factored domain with `factory`.
    pub(crate) fn factored<F: FactoredFactory>(&mut self, factory: Arc<F>) {
        self.insert::<Domain>(Arc::new(Factored(factory)));
    }
}

/// Something to do for every atomic width.
trait EachWidth {
    fn visit<B: Bits>(&mut self);
}

/// The atomic widths a planner meets: `u64`, and the [`Wide`] widths and
/// [`SparseBits`] that [`GroundedTask`](crate::pddl::GroundedTask) puts
/// PDDL tasks on. A domain of another width gets no registered heuristic
/// (custom closures on the [`Planner`](crate::Planner) still work).
fn each_width(visit: &mut impl EachWidth) {
    visit.visit::<u64>();
    visit.visit::<Wide<2>>();
    visit.visit::<Wide<3>>();
    visit.visit::<Wide<4>>();
    visit.visit::<Wide<8>>();
    visit.visit::<Wide<16>>();
    visit.visit::<Wide<32>>();
    visit.visit::<Wide<64>>();
    visit.visit::<Wide<128>>();
    visit.visit::<Wide<256>>();
    visit.visit::<Wide<512>>();
    visit.visit::<SparseBits>();
}
