//! Forward search: complete states from the start towards the goal.

use search_core::SearchSpace;

use crate::{ActionId, Cost, Domain, Goal, State};

/// Forward search over complete states.
///
/// The successors of a state are the states its applicable actions lead to,
/// with the action's cost in that state. States are nodes: a state reached by
/// different actions or paths is one node, stored once. Works with every
/// search-core algorithm; with unbounded numeric effects the space is
/// infinite, so an unsolvable problem ends only at a [`SearchLimits`]
/// limit.
///
/// [`SearchLimits`]: search_core::SearchLimits
///
/// ```
/// use search_core::{Algorithm, Outcome, Search, SearchLimits};
/// use state_factored::{Action, Domain, Predicate, Schema};
/// let mut schema = Schema::new();
/// schema.int("gold").unwrap();
/// schema.bool("flag").unwrap();
/// let mut domain = Domain::new(schema);
/// domain.add_action(Action::builder("mine").increase("gold", 1)).unwrap();
/// let goal = domain.goal([Predicate::eq("flag", true)]).unwrap(); // nothing sets it
/// let space = domain.forward(&goal);
/// let limits = SearchLimits { max_expansions: Some(1000), ..SearchLimits::default() };
/// let result = Search::new(&space, domain.schema().default_state())
///     .algorithm(Algorithm::Dijkstra)
///     .limits(limits)
///     .run()
///     .unwrap();
/// assert!(matches!(result.outcome, Outcome::LimitReached { .. }));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct ForwardSpace<'a> {
    domain: &'a Domain,
    goal: &'a Goal,
}

impl<'a> ForwardSpace<'a> {
    /// The forward space of `domain` towards `goal`; the start state is given
    /// to the search.
    ///
    /// ```
    /// use search_core::SearchSpace;
    /// use state_factored::{Domain, ForwardSpace, Predicate, Schema};
    /// let mut schema = Schema::new();
    /// schema.int("gold").unwrap();
    /// let domain = Domain::new(schema);
    /// let goal = domain.goal([Predicate::le("gold", 0)]).unwrap();
    /// let space = ForwardSpace::new(&domain, &goal);
    /// assert!(space.is_goal(&domain.schema().default_state()));
    /// ```
    pub fn new(domain: &'a Domain, goal: &'a Goal) -> Self {
        Self { domain, goal }
    }

    /// The domain.
    pub fn domain(&self) -> &'a Domain {
        self.domain
    }

    /// The goal.
    pub fn goal(&self) -> &'a Goal {
        self.goal
    }
}

impl SearchSpace for ForwardSpace<'_> {
    type Node = State;
    type Action = ActionId;
    type Cost = Cost;

    #[inline]
    fn is_goal(&self, node: &State) -> bool {
        self.goal.is_satisfied(node)
    }

    fn successors<F>(&self, node: &State, emit: F)
    where
        F: FnMut(ActionId, State, Cost),
    {
        self.domain
            .compiled()
            .successors(self.domain.actions(), node, emit);
    }

    fn node_heap_bytes(&self, node: &State) -> usize {
        node.heap_bytes()
    }

    /// States own their slots on the heap: lazy search keeps an action
    /// per edge, not a state, and makes the state when it takes the edge.
    fn makes_successors(&self) -> bool {
        true
    }

    fn successor(&self, node: &State, action: &ActionId) -> Option<State> {
        self.domain.apply(*action, node)
    }
}
