//! Domains (a schema and its actions) and goals.

use std::fmt;
use std::sync::Arc;

use rustc_hash::FxHashMap;

use crate::compiled::CompiledActions;
use crate::constraint::Constraint;
use crate::linear::LinearTest;
use crate::predicate::{linear_tests, per_variable, Test, Tests};
use crate::{
    Action, ActionBuilder, ActionId, BoolVar, FactoredError, FloatVar, ForwardSpace, IntVar,
    Predicate, RegressionSpace, Schema, State, StrVar, VarType,
};

/// A goal: a conjunction of predicates, checked against a schema.
///
/// ```
/// use state_factored::{Domain, Predicate, Schema};
/// let mut schema = Schema::new();
/// schema.bool("target_alive").unwrap();
/// schema.float("noise").unwrap();
/// let domain = Domain::new(schema);
/// let goal = domain
///     .goal([Predicate::eq("target_alive", false), Predicate::le("noise", 0.5)])
///     .unwrap();
/// assert_eq!(goal.len(), 2);
/// assert!(goal.is_satisfied(&domain.schema().default_state()));
/// ```
#[derive(Clone)]
pub struct Goal {
    pub(crate) tests: Vec<Test>,
    /// `tests`, compiled for speed.
    pub(crate) fast: Tests,
    pub(crate) constraints: Vec<(u32, Constraint)>,
    /// The linear predicates over several variables (or in `f64`), with
    /// their texts.
    pub(crate) linear: Vec<(LinearTest, Arc<str>)>,
    pub(crate) customs: Vec<Arc<str>>,
}

impl fmt::Debug for Goal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Goal")
            .field("constraints", &self.constraints)
            .field(
                "linear",
                &self.linear.iter().map(|(_, t)| t).collect::<Vec<_>>(),
            )
            .field("customs", &self.customs)
            .finish_non_exhaustive()
    }
}

impl Goal {
    /// Whether `state` satisfies every predicate.
    ///
    /// ```
    /// use state_factored::{Domain, Predicate, Schema};
    /// let mut schema = Schema::new();
    /// schema.int("gold").unwrap();
    /// let domain = Domain::new(schema);
    /// let goal = domain.goal([Predicate::ge("gold", 1)]).unwrap();
    /// assert!(!goal.is_satisfied(&domain.schema().default_state()));
    /// ```
    #[inline]
    pub fn is_satisfied(&self, state: &State) -> bool {
        self.fast.hold(state)
    }

    /// The number of predicates.
    ///
    /// ```
    /// use state_factored::{Domain, Schema};
    /// let domain = Domain::new(Schema::new());
    /// assert_eq!(domain.goal([]).unwrap().len(), 0);
    /// ```
    pub fn len(&self) -> usize {
        self.tests.len()
    }

    /// Whether the goal has no predicate (every state satisfies it).
    ///
    /// ```
    /// use state_factored::{Domain, Schema};
    /// let domain = Domain::new(Schema::new());
    /// assert!(domain.goal([]).unwrap().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.tests.is_empty()
    }

    /// The goal's conditions that `state` violates, one per constrained
    /// variable (`Some(index)`, the predicates on one variable taken
    /// together) and one per linear predicate over several variables and per
    /// custom predicate (`None`: it names no single variable). Heuristics
    /// that reason per variable read this.
    ///
    /// ```
    /// use state_factored::{Domain, Predicate, Schema};
    /// let mut schema = Schema::new();
    /// schema.int("gold").unwrap();
    /// schema.bool("armed").unwrap();
    /// let domain = Domain::new(schema);
    /// let goal = domain.goal([Predicate::ge("gold", 5), Predicate::eq("armed", false)]).unwrap();
    /// let unmet: Vec<_> = goal.unmet(&domain.schema().default_state()).collect();
    /// assert_eq!(unmet, [Some(0)]);
    /// ```
    pub fn unmet<'s>(&'s self, state: &'s State) -> impl Iterator<Item = Option<usize>> + 's {
        let variables = self
            .constraints
            .iter()
            .filter(|(v, c)| !c.allows(state.slot(*v as usize)))
            .map(|(v, _)| Some(*v as usize));
        let customs = self
            .tests
            .iter()
            .filter(|t| matches!(t, Test::Linear { .. } | Test::Custom { .. }) && !t.holds(state))
            .map(|_| None);
        variables.chain(customs)
    }

    /// How many predicates `state` violates.
    pub(crate) fn unsatisfied(&self, state: &State) -> u32 {
        let count = self.tests.iter().filter(|t| !t.holds(state)).count();
        u32::try_from(count).unwrap_or(u32::MAX)
    }
}

/// A schema and the actions over it.
///
/// ```
/// use state_factored::{Action, Domain, Predicate, Schema};
/// let mut schema = Schema::new();
/// schema.int("gold").unwrap();
/// let mut domain = Domain::new(schema);
/// let mine = domain.add_action(Action::builder("mine").cost(3).increase("gold", 25)).unwrap();
/// let start = domain.schema().default_state();
/// let (end, cost) = domain.replay(&start, &[mine, mine]).unwrap();
/// assert_eq!((domain.schema().value(&end, domain.schema().var("gold").unwrap()), cost),
///            (50.into(), 6));
/// ```
#[derive(Clone, Debug)]
pub struct Domain {
    schema: Arc<Schema>,
    actions: Vec<Action>,
    /// The actions again, compiled for forward search.
    compiled: CompiledActions,
    by_name: FxHashMap<Arc<str>, ActionId>,
}

impl Domain {
    /// A domain over `schema`, with no actions yet.
    ///
    /// ```
    /// use state_factored::{Domain, Schema};
    /// assert!(Domain::new(Schema::new()).actions().is_empty());
    /// ```
    pub fn new(schema: Schema) -> Self {
        Self {
            schema: Arc::new(schema),
            actions: Vec::new(),
            compiled: CompiledActions::default(),
            by_name: FxHashMap::default(),
        }
    }

    /// The schema.
    ///
    /// ```
    /// use state_factored::{Domain, Schema};
    /// let mut schema = Schema::new();
    /// schema.int("gold").unwrap();
    /// assert_eq!(Domain::new(schema).schema().len(), 1);
    /// ```
    pub fn schema(&self) -> &Schema {
        &self.schema
    }

    /// The typed handle of the bool variable `name`, for fast access to
    /// states after the schema moved into the domain.
    ///
    /// # Errors
    /// [`FactoredError::UnknownVariable`] for a name the schema lacks,
    /// [`FactoredError::WrongVarType`] for a variable of another type.
    ///
    /// ```
    /// use state_factored::{Domain, Schema};
    /// let mut schema = Schema::new();
    /// schema.int("gold").unwrap();
    /// schema.bool("armed").unwrap();
    /// let domain = Domain::new(schema);
    /// let mut state = domain.schema().default_state();
    /// let gold = domain.int("gold").unwrap();
    /// state.set_int(gold, 60);
    /// assert_eq!(state.int(gold), 60);
    /// assert!(!state.bool(domain.bool("armed").unwrap()));
    /// assert_eq!(domain.bool("gold").unwrap_err().to_string(), "variable `gold` is int, not bool");
    /// assert_eq!(domain.int("silver").unwrap_err().to_string(), "unknown variable `silver` in a typed handle");
    /// ```
    pub fn bool(&self, name: &str) -> Result<BoolVar, FactoredError> {
        self.handle(name, VarType::Bool).map(BoolVar)
    }

    /// The typed handle of the int variable `name`; see [`bool`](Self::bool).
    ///
    /// # Errors
    /// As for [`bool`](Self::bool).
    pub fn int(&self, name: &str) -> Result<IntVar, FactoredError> {
        self.handle(name, VarType::Int).map(IntVar)
    }

    /// The typed handle of the float variable `name`; see
    /// [`bool`](Self::bool).
    ///
    /// # Errors
    /// As for [`bool`](Self::bool).
    pub fn float(&self, name: &str) -> Result<FloatVar, FactoredError> {
        self.handle(name, VarType::Float).map(FloatVar)
    }

    /// The typed handle of the string variable `name`; see
    /// [`bool`](Self::bool).
    ///
    /// # Errors
    /// As for [`bool`](Self::bool).
    pub fn string(&self, name: &str) -> Result<StrVar, FactoredError> {
        self.handle(name, VarType::Str).map(StrVar)
    }

    /// The index of variable `name` if it has type `asked`.
    fn handle(&self, name: &str, asked: VarType) -> Result<u32, FactoredError> {
        let var = self.schema.resolve(name, "a typed handle")?;
        if var.var_type() == asked {
            Ok(u32::try_from(var.index()).unwrap_or(u32::MAX))
        } else {
            Err(FactoredError::WrongVarType {
                name: name.to_owned(),
                is: var.var_type(),
                asked,
            })
        }
    }

    /// Checks an action against the schema and adds it.
    ///
    /// # Errors
    /// [`FactoredError::UnknownVariable`], [`FactoredError::TypeMismatch`],
    /// [`FactoredError::UnsupportedOperation`] or [`FactoredError::NonFinite`]
    /// naming the variable and the action; [`FactoredError::DuplicateAction`]
    /// if the name is taken.
    ///
    /// ```
    /// use state_factored::{Action, Domain, Predicate, Schema};
    /// let mut schema = Schema::new();
    /// schema.string("location").unwrap();
    /// let mut domain = Domain::new(schema);
    /// let error = domain
    ///     .add_action(Action::builder("go").pre(Predicate::lt("location", "shop")))
    ///     .unwrap_err();
    /// assert_eq!(error.to_string(), "`<` does not apply to string variable `location` in action `go`");
    /// ```
    pub fn add_action(&mut self, action: ActionBuilder) -> Result<ActionId, FactoredError> {
        let action = action.build(&self.schema)?;
        if self.by_name.contains_key(&*action.name) {
            return Err(FactoredError::DuplicateAction {
                name: action.name.to_string(),
            });
        }
        let id = ActionId(u32::try_from(self.actions.len()).map_err(|_| {
            FactoredError::DuplicateAction {
                name: action.name.to_string(),
            }
        })?);
        self.by_name.insert(action.name.clone(), id);
        self.compiled.push(&action);
        self.actions.push(action);
        Ok(id)
    }

    /// The actions, indexed by [`ActionId::index`].
    ///
    /// ```
    /// use state_factored::{Action, Domain, Schema};
    /// let mut domain = Domain::new(Schema::new());
    /// domain.add_action(Action::builder("a")).unwrap();
    /// assert_eq!(domain.actions()[0].name(), "a");
    /// ```
    pub fn actions(&self) -> &[Action] {
        &self.actions
    }

    /// The actions compiled for forward search.
    pub(crate) fn compiled(&self) -> &CompiledActions {
        &self.compiled
    }

    /// The action with identifier `id`.
    ///
    /// # Panics
    /// If `id` comes from another domain with more actions.
    ///
    /// ```
    /// use state_factored::{Action, Domain, Schema};
    /// let mut domain = Domain::new(Schema::new());
    /// let id = domain.add_action(Action::builder("a").cost(5)).unwrap();
    /// assert_eq!(domain.action(id).cost(), 5);
    /// ```
    pub fn action(&self, id: ActionId) -> &Action {
        &self.actions[id.index()]
    }

    /// The identifier of the action named `name`.
    ///
    /// ```
    /// use state_factored::{Action, Domain, Schema};
    /// let mut domain = Domain::new(Schema::new());
    /// let id = domain.add_action(Action::builder("a")).unwrap();
    /// assert_eq!(domain.action_id("a"), Some(id));
    /// assert_eq!(domain.action_id("b"), None);
    /// ```
    pub fn action_id(&self, name: &str) -> Option<ActionId> {
        self.by_name.get(name).copied()
    }

    /// The names of the actions of a plan.
    ///
    /// ```
    /// use state_factored::{Action, Domain, Schema};
    /// let mut domain = Domain::new(Schema::new());
    /// let a = domain.add_action(Action::builder("a")).unwrap();
    /// assert_eq!(domain.names(&[a, a]), ["a", "a"]);
    /// ```
    pub fn names(&self, plan: &[ActionId]) -> Vec<&str> {
        plan.iter()
            .map(|&id| self.actions.get(id.index()).map_or("?", Action::name))
            .collect()
    }

    /// Checks a goal against the schema.
    ///
    /// # Errors
    /// As for [`add_action`](Self::add_action), naming the variable and "goal".
    ///
    /// ```
    /// use state_factored::{Domain, Predicate, Schema};
    /// let mut schema = Schema::new();
    /// schema.int("gold").unwrap();
    /// let domain = Domain::new(schema);
    /// let error = domain.goal([Predicate::eq("gold", "lots")]).unwrap_err();
    /// assert_eq!(error.to_string(), "variable `gold` is int but goal gives it a string value");
    /// ```
    pub fn goal(
        &self,
        predicates: impl IntoIterator<Item = Predicate>,
    ) -> Result<Goal, FactoredError> {
        let tests = predicates
            .into_iter()
            .map(|p| p.compile(&self.schema, "goal"))
            .collect::<Result<Vec<_>, _>>()?;
        let (constraints, customs) = per_variable(&tests);
        Ok(Goal {
            fast: Tests::new(&tests),
            linear: linear_tests(&tests),
            tests,
            constraints,
            customs,
        })
    }

    /// The state after action `id` in `state`, or `None` if a precondition
    /// fails or an effect overflows.
    ///
    /// # Panics
    /// If `id` comes from another domain with more actions.
    ///
    /// ```
    /// use state_factored::{Action, Domain, Predicate, Schema};
    /// let mut schema = Schema::new();
    /// schema.int("gold").unwrap();
    /// let mut domain = Domain::new(schema);
    /// let buy = domain.add_action(Action::builder("buy").pre(Predicate::ge("gold", 60)).decrease("gold", 60)).unwrap();
    /// assert!(domain.apply(buy, &domain.schema().default_state()).is_none());
    /// ```
    pub fn apply(&self, id: ActionId, state: &State) -> Option<State> {
        let action = &self.actions[id.index()];
        if action.is_applicable(state) {
            action.effects_on(state)
        } else {
            None
        }
    }

    /// Replays `plan` from `start`: the final state and the total cost.
    ///
    /// # Errors
    /// [`FactoredError::NotApplicable`] naming the first step that cannot be
    /// applied, [`FactoredError::UnknownAction`] for a foreign identifier.
    ///
    /// ```
    /// use state_factored::{Action, Domain, FactoredError, Predicate, Schema};
    /// let mut schema = Schema::new();
    /// schema.bool("done").unwrap();
    /// let mut domain = Domain::new(schema);
    /// let finish = domain
    ///     .add_action(Action::builder("finish").pre(Predicate::eq("done", false)).set("done", true))
    ///     .unwrap();
    /// let start = domain.schema().default_state();
    /// assert_eq!(domain.replay(&start, &[finish]).unwrap().1, 1);
    /// assert!(matches!(
    ///     domain.replay(&start, &[finish, finish]),
    ///     Err(FactoredError::NotApplicable { step: 1, .. })
    /// ));
    /// ```
    pub fn replay(&self, start: &State, plan: &[ActionId]) -> Result<(State, u64), FactoredError> {
        let mut state = start.clone();
        let mut cost = 0_u64;
        for (step, &id) in plan.iter().enumerate() {
            let action = self
                .actions
                .get(id.index())
                .ok_or(FactoredError::UnknownAction { index: id.index() })?;
            cost += u64::from(action.cost_in(&state));
            state = self
                .apply(id, &state)
                .ok_or_else(|| FactoredError::NotApplicable {
                    step,
                    action: action.name().to_owned(),
                })?;
        }
        Ok((state, cost))
    }

    /// Replays `plan` and checks that it reaches `goal`; returns its cost.
    ///
    /// # Errors
    /// As for [`replay`](Self::replay), and [`FactoredError::GoalNotReached`].
    ///
    /// ```
    /// use state_factored::{Action, Domain, Predicate, Schema};
    /// let mut schema = Schema::new();
    /// schema.bool("done").unwrap();
    /// let mut domain = Domain::new(schema);
    /// let finish = domain.add_action(Action::builder("finish").cost(3).set("done", true)).unwrap();
    /// let goal = domain.goal([Predicate::eq("done", true)]).unwrap();
    /// let start = domain.schema().default_state();
    /// assert_eq!(domain.validate(&start, &goal, &[finish]), Ok(3));
    /// assert!(domain.validate(&start, &goal, &[]).is_err());
    /// ```
    pub fn validate(
        &self,
        start: &State,
        goal: &Goal,
        plan: &[ActionId],
    ) -> Result<u64, FactoredError> {
        let (end, cost) = self.replay(start, plan)?;
        if goal.is_satisfied(&end) {
            Ok(cost)
        } else {
            Err(FactoredError::GoalNotReached)
        }
    }

    /// The forward search space towards `goal`.
    ///
    /// ```
    /// use search_core::astar;
    /// use state_factored::{Action, Domain, GoalCount, Predicate, Schema};
    /// let mut schema = Schema::new();
    /// schema.int("gold").unwrap();
    /// let mut domain = Domain::new(schema);
    /// domain.add_action(Action::builder("mine").cost(3).increase("gold", 25)).unwrap();
    /// let goal = domain.goal([Predicate::ge("gold", 60)]).unwrap();
    /// let start = domain.schema().default_state();
    /// let space = domain.forward(&goal);
    /// let result = astar(&space, start.clone(), GoalCount::new(&domain, &start, &goal)).unwrap();
    /// assert_eq!(result.outcome.solution().unwrap().cost, 9);
    /// ```
    pub fn forward<'a>(&'a self, goal: &'a Goal) -> ForwardSpace<'a> {
        ForwardSpace::new(self, goal)
    }

    /// The regression search space from `goal` back to `start`.
    ///
    /// # Errors
    /// [`FactoredError::NotRegressable`] naming every custom predicate,
    /// custom effect and cost function of the domain and goal.
    ///
    /// ```
    /// use search_core::dijkstra;
    /// use state_factored::{Action, Domain, Predicate, Schema};
    /// let mut schema = Schema::new();
    /// schema.int("gold").unwrap();
    /// let mut domain = Domain::new(schema);
    /// domain.add_action(Action::builder("mine").cost(3).increase("gold", 25)).unwrap();
    /// let goal = domain.goal([Predicate::ge("gold", 60)]).unwrap();
    /// let start = domain.schema().default_state();
    /// let space = domain.regression(&start, &goal).unwrap();
    /// let result = dijkstra(&space, space.start_node()).unwrap();
    /// let solution = result.outcome.solution().unwrap();
    /// assert_eq!(solution.cost, 9);
    /// assert_eq!(domain.names(&space.plan(solution)), ["mine", "mine", "mine"]);
    /// ```
    pub fn regression<'a>(
        &'a self,
        start: &'a State,
        goal: &'a Goal,
    ) -> Result<RegressionSpace<'a>, FactoredError> {
        RegressionSpace::new(self, start, goal)
    }
}
