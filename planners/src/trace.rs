//! A plan's search with the domain's names: the debug view that shows why a
//! planner (or an agent) chose its plan.

use search_core::Trace;

use crate::{Direction, PlanningDomain};

/// The exploration of the search behind a plan, with states and actions
/// named by their domain ([`PlanningDomain::describe_state`],
/// [`PlanningDomain::describe_subgoal`], [`PlanningDomain::action_name`]),
/// so it owns everything it shows and outlives the search. Get one from
/// [`Planner::plan_traced`](crate::Planner::plan_traced), or from a search
/// of one's own ([`search_core::Search::trace`]) with
/// [`forward`](PlanTrace::forward) or [`regression`](PlanTrace::regression);
/// write it with [`to_text`](PlanTrace::to_text),
/// [`to_dot`](PlanTrace::to_dot) (Graphviz: `dot -Tsvg trace.dot`) or
/// [`to_html`](PlanTrace::to_html) (a page to open in a browser).
///
/// A forward search's nodes are states, from the start to a state that
/// meets the goal. A regression's nodes are subgoals, partial states (what
/// must hold, the rest left open), from the goal back to one the start
/// meets; its plan runs along the path backwards.
///
/// ```
/// use planners::{Planner, PlannerConfig};
/// use state_atomic::ActionSet;
///
/// let mut actions = ActionSet::<u64>::new();
/// actions.add_action("cook", 10).pre("has_groceries", true).eff("has_food", true);
/// actions.add_action("eat", 5).pre("has_food", true).eff("fed", true);
/// let start = actions.state(["has_groceries"]).unwrap();
/// let goal = actions.partial([("fed", true)]).unwrap();
///
/// let planner = Planner::new(PlannerConfig::default());
/// let (report, trace) = planner.plan_traced(&actions, &start, &goal).unwrap();
/// assert_eq!(report.plan().unwrap().cost, 15);
/// let trace = trace.unwrap();
/// let text = trace.to_text();
/// assert!(text.starts_with("forward search (nodes are states): 3 nodes stored"));
/// assert!(text.contains("cook -> {has_groceries, has_food}"));
/// let dot = trace.to_dot();
/// assert!(dot.contains("label=\"eat\", color="));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct PlanTrace {
    direction: Direction,
    trace: Trace<String, String, u32>,
}

impl PlanTrace {
    /// Names a forward search's trace with `domain`'s state descriptions
    /// and action names.
    ///
    /// ```
    /// use planners::{PlanTrace, PlanningDomain};
    /// use search_core::Search;
    /// use state_atomic::ActionSet;
    ///
    /// let mut actions = ActionSet::<u64>::new();
    /// actions.add_action("eat", 5).pre("has_food", true).eff("fed", true);
    /// let start = actions.state(["has_food"]).unwrap();
    /// let goal = actions.partial([("fed", true)]).unwrap();
    /// let space = actions.forward(&goal).unwrap();
    /// let mut search = Search::new(&space, start).record_trace(true);
    /// search.run().unwrap();
    /// let trace = PlanTrace::forward(&actions, search.trace().unwrap());
    /// assert_eq!(trace.trace().nodes()[1].node, "{has_food, fed}");
    /// assert_eq!(trace.trace().nodes()[1].action.as_deref(), Some("eat"));
    /// ```
    pub fn forward<D: PlanningDomain>(
        domain: &D,
        trace: Trace<D::State, D::ActionId, u32>,
    ) -> Self {
        let mut trace = trace.map(
            |state| domain.describe_state(state),
            |&action| domain.action_name(action).to_owned(),
        );
        trace.set_title("forward search (nodes are states)");
        Self {
            direction: Direction::Forward,
            trace,
        }
    }

    /// Names a regression's trace with `domain`'s subgoal descriptions and
    /// action names.
    pub fn regression<D: PlanningDomain>(
        domain: &D,
        trace: Trace<D::Subgoal, D::ActionId, u32>,
    ) -> Self {
        let mut trace = trace.map(
            |subgoal| domain.describe_subgoal(subgoal),
            |&action| domain.action_name(action).to_owned(),
        );
        trace.set_title(
            "regression (nodes are subgoals, partial states, from the goal back to the start)",
        );
        Self {
            direction: Direction::Regression,
            trace,
        }
    }

    /// The direction searched: [`Direction::Forward`] or
    /// [`Direction::Regression`].
    pub fn direction(&self) -> Direction {
        self.direction
    }

    /// The named trace: every node, its path cost, estimate and expansion
    /// number, and the goal.
    pub fn trace(&self) -> &Trace<String, String, u32> {
        &self.trace
    }

    /// Sets the most nodes written (default
    /// [`TRACE_MAX_NODES`](search_core::TRACE_MAX_NODES)); the plan's path
    /// is written whole.
    pub fn set_max_nodes(&mut self, max_nodes: usize) -> &mut Self {
        self.trace.set_max_nodes(max_nodes);
        self
    }

    /// The trace as an indented tree, one node a line; see
    /// [`Trace::to_text`].
    pub fn to_text(&self) -> String {
        self.trace.to_text(String::clone, String::clone)
    }

    /// The trace as a Graphviz DOT digraph; see [`Trace::to_dot`].
    pub fn to_dot(&self) -> String {
        self.trace.to_dot(String::clone, String::clone)
    }

    /// The trace as one self-contained HTML page: the search tree with
    /// `g`, `h` and `f`, the plan's path highlighted, and a slider over the
    /// expansions that lists the open list before each; see
    /// [`Trace::to_html`].
    ///
    /// ```
    /// use planners::{Planner, PlannerConfig};
    /// use state_atomic::ActionSet;
    ///
    /// let mut actions = ActionSet::<u64>::new();
    /// actions.add_action("eat", 5).pre("has_food", true).eff("fed", true);
    /// let start = actions.state(["has_food"]).unwrap();
    /// let goal = actions.partial([("fed", true)]).unwrap();
    /// let (_, trace) = Planner::new(PlannerConfig::default()).plan_traced(&actions, &start, &goal).unwrap();
    /// let html = trace.unwrap().to_html();
    /// assert!(html.contains(r#""action":"eat","label":"{has_food, fed}""#));
    /// ```
    pub fn to_html(&self) -> String {
        self.trace.to_html(String::clone, String::clone)
    }
}
