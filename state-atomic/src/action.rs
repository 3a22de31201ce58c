//! Actions, the action set many agents share, and plan replay.

use std::fmt;
use std::sync::Arc;

use rustc_hash::FxHashMap;

use crate::{Atom, AtomRegistry, AtomicError, Bits, PartialState, WorldState};

/// The index of an action in its [`ActionSet`]; the edge label of both
/// search spaces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ActionId(pub(crate) u32);

impl ActionId {
    /// The index in the action set.
    ///
    /// ```
    /// use state_atomic::ActionSet;
    /// let mut actions = ActionSet::<u64>::new();
    /// let eat = actions.add_action("eat", 5).eff("fed", true).id().unwrap();
    /// assert_eq!(eat.index(), 0);
    /// ```
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A state-dependent cost: what an action costs when applied in a state
/// (see [`ActionBuilder::cost_fn`]).
pub type CostFn<B = u64> = Arc<dyn Fn(&WorldState<B>) -> u32 + Send + Sync>;

/// An action: a name, preconditions, effects and a cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Action<B: Bits = u64> {
    /// The action's name, unique in its set.
    pub name: String,
    /// What must hold before it.
    pub pre: PartialState<B>,
    /// What it sets.
    pub eff: PartialState<B>,
    /// What it sets where a condition holds ([`ActionSet::add_when`]);
    /// see [`WorldState::apply_when`].
    pub when: Vec<When<B>>,
    /// What it costs, unless its set gives it a cost function
    /// ([`ActionBuilder::cost_fn`]); then nothing reads this.
    pub cost: u32,
}

/// A conditional effect (PDDL's `when`): applied in a state where
/// `condition` holds, the action also sets `effect`.
///
/// Forward search, replay and validation apply them, and so do the delete
/// relaxation's heuristics (`h_max`, `h_add`, `h_FF`) and the landmark
/// count, which see each as an action of its own whose precondition adds
/// the condition (Fast Downward's unary operators). What needs every effect
/// unconditional (regression, LM-cut, pattern databases, stubborn sets)
/// refuses such a set through [`ActionSet::check_unconditional`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct When<B: Bits = u64> {
    /// What must hold, before the action, for the effect to happen.
    pub condition: PartialState<B>,
    /// What the action then also sets.
    pub effect: PartialState<B>,
}

/// The compact part of an action the search loops read.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Rule<B: Bits> {
    pub(crate) pre: PartialState<B>,
    pub(crate) eff: PartialState<B>,
    pub(crate) cost: u32,
    /// Whether the action has conditional effects ([`Action::when`]).
    pub(crate) conditional: bool,
}

/// One action of the delete relaxation: an action's precondition and
/// unconditional effect, or its precondition joined with a conditional
/// effect's condition, and that effect; see [`ActionSet::relaxed_parts`].
pub(crate) struct RelaxedPart<'a, B: Bits> {
    /// The action it comes from.
    pub(crate) action: usize,
    pub(crate) pre: PartialState<B>,
    pub(crate) eff: &'a PartialState<B>,
}

/// The cost functions of a set's actions, by index; empty while no action
/// has one, so that search loops test one length, not every action.
#[derive(Clone)]
pub(crate) struct CostFns<B: Bits>(pub(crate) Vec<Option<CostFn<B>>>);

impl<B: Bits> fmt::Debug for CostFns<B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let with: Vec<usize> = (0..self.0.len()).filter(|&i| self.0[i].is_some()).collect();
        f.debug_struct("CostFns").field("actions", &with).finish()
    }
}

/// A set of actions over one [`AtomRegistry`], shared by any number of
/// agents and searches.
///
/// Actions are declared with a builder; atoms named in it are declared on
/// first use. Builder errors (a 65th atom in a `u64` set, a duplicate action,
/// contradictory values) are kept and reported by [`check`](Self::check),
/// which the search spaces call; [`ActionBuilder::try_pre`] and
/// [`ActionBuilder::try_eff`] report them at once instead.
///
/// ```
/// use state_atomic::ActionSet;
/// let mut actions = ActionSet::<u64>::new();
/// actions.add_action("buy_groceries", 15).pre("has_supermarket", true).eff("has_groceries", true);
/// actions.add_action("cook", 10).pre("has_groceries", true).eff("has_food", true);
/// assert!(actions.check().is_ok());
/// assert_eq!(actions.len(), 2);
/// assert_eq!(actions.registry().len(), 3);
/// ```
#[derive(Clone, Debug)]
pub struct ActionSet<B: Bits = u64> {
    registry: AtomRegistry<B>,
    actions: Vec<Action<B>>,
    rules: Vec<Rule<B>>,
    by_name: FxHashMap<String, ActionId>,
    error: Option<AtomicError>,
    cost_fns: CostFns<B>,
    /// How many actions have conditional effects.
    conditional: usize,
    /// Groups of atoms of which at most one holds in any state the set is
    /// planned in, as the user or the PDDL front end declared them.
    mutex_groups: Vec<Vec<usize>>,
}

impl<B: Bits> Default for ActionSet<B> {
    fn default() -> Self {
        Self::new()
    }
}

impl<B: Bits> ActionSet<B> {
    /// An empty action set with an empty registry.
    ///
    /// ```
    /// use state_atomic::ActionSet;
    /// assert!(ActionSet::<u64>::new().is_empty());
    /// ```
    pub fn new() -> Self {
        Self::with_registry(AtomRegistry::new())
    }

    /// An empty action set over atoms declared already (for example shared
    /// ones).
    ///
    /// ```
    /// use state_atomic::{ActionSet, AtomRegistry};
    /// let mut atoms = AtomRegistry::<u64>::new();
    /// atoms.add_shared("night").unwrap();
    /// let actions = ActionSet::with_registry(atoms);
    /// assert_eq!(actions.registry().len(), 1);
    /// ```
    pub fn with_registry(registry: AtomRegistry<B>) -> Self {
        Self {
            registry,
            actions: Vec::new(),
            rules: Vec::new(),
            by_name: FxHashMap::default(),
            error: None,
            cost_fns: CostFns(Vec::new()),
            conditional: 0,
            mutex_groups: Vec::new(),
        }
    }

    /// Makes room for `additional` more actions at once, so that a large
    /// set is allocated once at its size rather than grown by doubling
    /// (which leaves up to half of it spare).
    ///
    /// ```
    /// use state_atomic::ActionSet;
    /// let mut actions = ActionSet::<u64>::new();
    /// actions.reserve(2);
    /// actions.add_action("eat", 5).eff("fed", true);
    /// assert_eq!(actions.len(), 1);
    /// ```
    pub fn reserve(&mut self, additional: usize) {
        self.actions.reserve_exact(additional);
        self.rules.reserve_exact(additional);
        self.by_name.reserve(additional);
    }

    /// The heap memory the set holds, in bytes: its actions and their
    /// compact copies (the masks the successor loop reads) at capacity,
    /// with the masks' own heap (a [`SparseBits`](crate::SparseBits)'s),
    /// the names twice (with each action and in the index by name) and the
    /// atom registry. A task's memory, counted toward a search's memory
    /// limit by planners that hold the set through the search.
    ///
    /// ```
    /// use state_atomic::ActionSet;
    /// let mut actions = ActionSet::<u64>::new();
    /// let empty = actions.heap_bytes();
    /// actions.add_action("eat", 5).eff("fed", true);
    /// assert!(actions.heap_bytes() > empty);
    /// ```
    pub fn heap_bytes(&self) -> usize {
        let names: usize = self.actions.iter().map(|a| a.name.capacity()).sum();
        let whens: usize = self
            .actions
            .iter()
            .map(|a| {
                crate::vec_bytes(&a.when)
                    + a.when
                        .iter()
                        .map(|w| w.condition.heap_bytes() + w.effect.heap_bytes())
                        .sum::<usize>()
            })
            .sum();
        let masks: usize = self
            .rules
            .iter()
            .map(|r| 2 * (r.pre.heap_bytes() + r.eff.heap_bytes()))
            .sum();
        crate::vec_bytes(&self.actions)
            + masks
            + whens
            + crate::vec_bytes(&self.rules)
            + 2 * names
            + self.by_name.capacity() * (std::mem::size_of::<(String, ActionId)>() + 1)
            + crate::vec_bytes(&self.cost_fns.0)
            + self.registry.heap_bytes()
            + crate::vec_bytes(&self.mutex_groups)
            + self
                .mutex_groups
                .iter()
                .map(crate::vec_bytes)
                .sum::<usize>()
    }

    /// Starts declaring an action called `name` with cost `cost`; chain
    /// [`pre`](ActionBuilder::pre) and [`eff`](ActionBuilder::eff) on the
    /// result. A duplicate name is kept as an error for
    /// [`check`](Self::check) and the builder then does nothing.
    ///
    /// ```
    /// use state_atomic::ActionSet;
    /// let mut actions = ActionSet::<u64>::new();
    /// actions.add_action("eat", 5).pre("has_food", true).eff("fed", true).eff("has_food", false);
    /// let eat = actions.find("eat").unwrap();
    /// assert_eq!(actions.action(eat).unwrap().cost, 5);
    /// actions.add_action("eat", 1);
    /// assert!(actions.check().is_err());
    /// ```
    pub fn add_action(&mut self, name: &str, cost: u32) -> ActionBuilder<'_, B> {
        if self.by_name.contains_key(name) {
            self.keep(AtomicError::DuplicateAction {
                name: name.to_owned(),
            });
            return ActionBuilder {
                set: self,
                id: None,
            };
        }
        let Ok(index) = u32::try_from(self.actions.len()) else {
            // More than four billion actions: unreachable in practice.
            return ActionBuilder {
                set: self,
                id: None,
            };
        };
        let id = ActionId(index);
        self.by_name.insert(name.to_owned(), id);
        self.actions.push(Action {
            name: name.to_owned(),
            pre: PartialState::empty(),
            eff: PartialState::empty(),
            when: Vec::new(),
            cost,
        });
        self.rules.push(Rule {
            pre: PartialState::empty(),
            eff: PartialState::empty(),
            cost,
            conditional: false,
        });
        if !self.cost_fns.0.is_empty() {
            self.cost_fns.0.push(None);
        }
        ActionBuilder {
            set: self,
            id: Some(id),
        }
    }

    /// Adds an action whose preconditions and effects are given directly as
    /// partial states over atoms declared already (by bit position), for
    /// programs that build large action sets (a grounded PDDL task) without
    /// naming atoms one by one.
    ///
    /// # Errors
    /// [`AtomicError::DuplicateAction`] if `name` is taken, and
    /// [`AtomicError::UnknownAtom`] (naming the bit position) if `pre` or
    /// `eff` mentions an atom the registry does not hold.
    ///
    /// ```
    /// use state_atomic::{ActionSet, PartialState};
    /// let mut actions = ActionSet::<u64>::new();
    /// actions.declare("has_food").unwrap();
    /// actions.declare("fed").unwrap();
    /// let eat = actions
    ///     .add_partial("eat", 5, PartialState::new(0b01, 0b01), PartialState::new(0b10, 0b11))
    ///     .unwrap();
    /// assert_eq!(actions.action(eat).unwrap().eff.len(), 2);
    /// assert!(actions.add_partial("eat", 1, PartialState::empty(), PartialState::empty()).is_err());
    /// assert!(actions.add_partial("x", 1, PartialState::new(0, 0b100), PartialState::empty()).is_err());
    /// ```
    pub fn add_partial(
        &mut self,
        name: &str,
        cost: u32,
        pre: PartialState<B>,
        eff: PartialState<B>,
    ) -> Result<ActionId, AtomicError> {
        if self.by_name.contains_key(name) {
            return Err(AtomicError::DuplicateAction {
                name: name.to_owned(),
            });
        }
        self.check_known(&pre, &eff)?;
        let index = u32::try_from(self.actions.len()).map_err(|_| AtomicError::UnknownAction {
            index: self.actions.len(),
        })?;
        let id = ActionId(index);
        self.by_name.insert(name.to_owned(), id);
        self.rules.push(Rule {
            pre: pre.clone(),
            eff: eff.clone(),
            cost,
            conditional: false,
        });
        self.actions.push(Action {
            name: name.to_owned(),
            pre,
            eff,
            when: Vec::new(),
            cost,
        });
        if !self.cost_fns.0.is_empty() {
            self.cost_fns.0.push(None);
        }
        Ok(id)
    }

    /// [`AtomicError::UnknownAtom`] (naming the bit position) if `a` or `b`
    /// mentions an atom the registry does not hold.
    fn check_known(&self, a: &PartialState<B>, b: &PartialState<B>) -> Result<(), AtomicError> {
        let known = self.registry.as_mask();
        // `care` lies within `known` where `known` is set wherever `care` is.
        let within = |care: &B| known.agrees_on(&!B::zero(), care);
        if within(a.as_care()) && within(b.as_care()) {
            return Ok(());
        }
        let unknown = (a.care() | b.as_care()) & !known.clone();
        let first = (0..B::CAPACITY)
            .find(|&i| unknown.get(i))
            .unwrap_or_default();
        Err(AtomicError::UnknownAtom {
            name: format!("#{first}"),
        })
    }

    /// Gives action `id` a conditional effect: applied where `condition`
    /// holds, it also sets `effect` (see [`When`]).
    ///
    /// # Errors
    /// [`AtomicError::UnknownAction`] for an id of another set,
    /// [`AtomicError::UnknownAtom`] if `condition` or `effect` mentions an
    /// atom the registry does not hold.
    ///
    /// ```
    /// use state_atomic::{ActionSet, ForwardSpace, RelaxedForward};
    /// // A switch that toggles: on where it was off, off where it was on.
    /// let mut actions = ActionSet::<u64>::new();
    /// actions.declare("on").unwrap();
    /// let flip = actions.add_action("flip", 1).id().unwrap();
    /// let on = actions.partial([("on", true)]).unwrap();
    /// let off = actions.partial([("on", false)]).unwrap();
    /// actions.add_when(flip, on, off).unwrap();
    /// actions.add_when(flip, off, on).unwrap();
    /// let (dark, lit) = (actions.state([]).unwrap(), actions.state(["on"]).unwrap());
    /// assert_eq!(actions.replay(dark, &[flip]).unwrap(), lit);
    /// assert_eq!(actions.replay(lit, &[flip]).unwrap(), dark);
    /// assert!(actions.check_unconditional("regression").is_err());
    /// let space = ForwardSpace::new(&actions, on).unwrap();
    /// let found = search_core::astar(&space, dark, RelaxedForward::h_max(&actions, on)).unwrap();
    /// assert_eq!(found.outcome.solution().unwrap().cost, 1);
    /// ```
    pub fn add_when(
        &mut self,
        id: ActionId,
        condition: PartialState<B>,
        effect: PartialState<B>,
    ) -> Result<(), AtomicError> {
        if id.index() >= self.actions.len() {
            return Err(AtomicError::UnknownAction { index: id.index() });
        }
        self.check_known(&condition, &effect)?;
        self.actions[id.index()]
            .when
            .push(When { condition, effect });
        let rule = &mut self.rules[id.index()];
        self.conditional += usize::from(!rule.conditional);
        rule.conditional = true;
        Ok(())
    }

    /// Whether some action has conditional effects ([`add_when`](Self::add_when)).
    ///
    /// ```
    /// use state_atomic::ActionSet;
    /// assert!(!ActionSet::<u64>::new().has_conditional_effects());
    /// ```
    pub fn has_conditional_effects(&self) -> bool {
        self.conditional > 0
    }

    /// Checks that no action has conditional effects, for `needed_by` (a
    /// direction or heuristic that reads every effect as unconditional).
    ///
    /// # Errors
    /// [`AtomicError::ConditionalEffects`] naming the first action with
    /// conditional effects, and `needed_by`.
    ///
    /// ```
    /// use state_atomic::{ActionSet, AtomicError};
    /// let mut actions = ActionSet::<u64>::new();
    /// let flip = actions.add_action("flip", 1).eff("done", true).id().unwrap();
    /// assert!(actions.check_unconditional("heuristic `lmcut`").is_ok());
    /// let done = actions.partial([("done", true)]).unwrap();
    /// actions.add_when(flip, done, done).unwrap();
    /// let error = actions.check_unconditional("heuristic `lmcut`").unwrap_err();
    /// assert!(matches!(&error, AtomicError::ConditionalEffects { action, .. } if action == "flip"));
    /// ```
    pub fn check_unconditional(&self, needed_by: &str) -> Result<(), AtomicError> {
        match self.rules.iter().position(|r| r.conditional) {
            None => Ok(()),
            Some(index) => Err(AtomicError::ConditionalEffects {
                action: self.actions[index].name.clone(),
                needed_by: needed_by.to_owned(),
            }),
        }
    }

    /// The actions of the delete relaxation: each action's precondition
    /// and unconditional effect, then, for each of its conditional effects
    /// whose condition does not contradict the precondition, the two joined
    /// and that effect.
    pub(crate) fn relaxed_parts(&self) -> impl Iterator<Item = RelaxedPart<'_, B>> {
        self.actions.iter().enumerate().flat_map(|(action, a)| {
            let whole = RelaxedPart {
                action,
                pre: a.pre.clone(),
                eff: &a.eff,
            };
            let parts = a
                .when
                .iter()
                .filter(|w| !a.pre.conflicts_with(&w.condition))
                .map(move |w| RelaxedPart {
                    action,
                    pre: PartialState::new(
                        a.pre.values() | w.condition.as_values(),
                        a.pre.care() | w.condition.as_care(),
                    ),
                    eff: &w.effect,
                });
            std::iter::once(whole).chain(parts)
        })
    }

    /// Declares groups of atoms (by index) of which at most one holds in
    /// every state this set is planned in: a robot's place, a ball's
    /// place. Heuristics that see a task as finite-domain variables
    /// (pattern databases, [`Ipdb`](crate::Ipdb)) read each group as one
    /// variable; they stay admissible only if the groups are truly mutually
    /// exclusive in the states reachable from the start. Groups of fewer
    /// than two atoms say nothing and are dropped. The PDDL front end
    /// declares the `h^2`-mutex groups that packing finds.
    ///
    /// # Errors
    /// [`AtomicError::UnknownAtom`] for an index the registry does not
    /// hold, [`AtomicError::AtomInTwoGroups`] for an atom named twice; the
    /// groups are left as they were.
    ///
    /// ```
    /// use state_atomic::ActionSet;
    /// let mut actions = ActionSet::<u64>::new();
    /// actions.add_action("go_ab", 1).pre("at_a", true).eff("at_a", false).eff("at_b", true);
    /// actions.set_mutex_groups([vec![0, 1]]).unwrap();
    /// assert_eq!(actions.mutex_groups(), [vec![0, 1]]);
    /// assert!(actions.set_mutex_groups([vec![0, 7]]).is_err());
    /// assert!(actions.set_mutex_groups([vec![0, 1], vec![1]]).is_ok());
    /// assert!(actions.set_mutex_groups([vec![0, 1], vec![1, 0]]).is_err());
    /// ```
    pub fn set_mutex_groups<G: IntoIterator<Item = usize>>(
        &mut self,
        groups: impl IntoIterator<Item = G>,
    ) -> Result<(), AtomicError> {
        let atoms = self.registry.len();
        let mut seen = vec![false; atoms];
        let mut kept = Vec::new();
        for group in groups {
            let mut group: Vec<usize> = group.into_iter().collect();
            group.sort_unstable();
            group.dedup();
            for &atom in &group {
                if atom >= atoms {
                    return Err(AtomicError::UnknownAtom {
                        name: format!("#{atom}"),
                    });
                }
                if group.len() > 1 && std::mem::replace(&mut seen[atom], true) {
                    return Err(AtomicError::AtomInTwoGroups {
                        atom: self.registry.name_at(atom).to_owned(),
                    });
                }
            }
            if group.len() > 1 {
                kept.push(group);
            }
        }
        self.mutex_groups = kept;
        Ok(())
    }

    /// The mutex groups declared with
    /// [`set_mutex_groups`](Self::set_mutex_groups) (none by default):
    /// each sorted, of at least two atoms, no atom in two.
    ///
    /// ```
    /// use state_atomic::ActionSet;
    /// assert!(ActionSet::<u64>::new().mutex_groups().is_empty());
    /// ```
    pub fn mutex_groups(&self) -> &[Vec<usize>] {
        &self.mutex_groups
    }

    fn keep(&mut self, error: AtomicError) {
        self.error.get_or_insert(error);
    }

    /// The first error any builder call met, if any.
    ///
    /// # Errors
    /// The first [`AtomicError`] kept by a builder.
    ///
    /// ```
    /// use state_atomic::{ActionSet, AtomicError};
    /// let mut actions = ActionSet::<u64>::new();
    /// actions.add_action("flip", 1).pre("on", true).pre("on", false);
    /// assert!(matches!(actions.check(), Err(AtomicError::Contradiction { .. })));
    /// ```
    pub fn check(&self) -> Result<(), AtomicError> {
        match &self.error {
            Some(error) => Err(error.clone()),
            None => Ok(()),
        }
    }

    /// Declares a private atom that no action mentions yet (or returns the
    /// existing one).
    ///
    /// # Errors
    /// [`AtomicError::TooManyAtoms`] if the state type is full.
    ///
    /// ```
    /// use state_atomic::ActionSet;
    /// let mut actions = ActionSet::<u64>::new();
    /// let a = actions.declare("idle").unwrap();
    /// assert_eq!(actions.registry().atom("idle").unwrap(), a);
    /// ```
    pub fn declare(&mut self, name: &str) -> Result<Atom, AtomicError> {
        self.registry.intern(name)
    }

    /// Declares a shared atom (owned by the world).
    ///
    /// # Errors
    /// [`AtomicError::DuplicateAtom`] if `name` is declared already, and
    /// [`AtomicError::TooManyAtoms`] if the state type is full.
    ///
    /// ```
    /// use state_atomic::ActionSet;
    /// let mut actions = ActionSet::<u64>::new();
    /// let night = actions.declare_shared("night").unwrap();
    /// assert!(actions.registry().is_shared(night));
    /// ```
    pub fn declare_shared(&mut self, name: &str) -> Result<Atom, AtomicError> {
        self.registry.add_shared(name)
    }

    /// The registry of atom names.
    ///
    /// ```
    /// use state_atomic::ActionSet;
    /// let mut actions = ActionSet::<u64>::new();
    /// actions.add_action("eat", 1).eff("fed", true);
    /// assert!(actions.registry().atom("fed").is_ok());
    /// ```
    pub fn registry(&self) -> &AtomRegistry<B> {
        &self.registry
    }

    /// The complete state where exactly the named atoms are true; see
    /// [`AtomRegistry::state`].
    ///
    /// # Errors
    /// [`AtomicError::UnknownAtom`] for a name that is not declared.
    ///
    /// ```
    /// use state_atomic::ActionSet;
    /// let mut actions = ActionSet::<u64>::new();
    /// actions.add_action("eat", 1).pre("has_food", true).eff("fed", true);
    /// let start = actions.state(["has_food"]).unwrap();
    /// assert_eq!(start.bits(), 0b01);
    /// ```
    pub fn state<'n>(
        &self,
        true_atoms: impl IntoIterator<Item = &'n str>,
    ) -> Result<WorldState<B>, AtomicError> {
        self.registry.state(true_atoms)
    }

    /// A partial state (a goal, say); see [`AtomRegistry::partial`].
    ///
    /// # Errors
    /// [`AtomicError::UnknownAtom`] for a name that is not declared.
    ///
    /// ```
    /// use state_atomic::ActionSet;
    /// let mut actions = ActionSet::<u64>::new();
    /// actions.add_action("eat", 1).eff("fed", true);
    /// assert_eq!(actions.partial([("fed", true)]).unwrap().len(), 1);
    /// assert!(actions.partial([("rich", true)]).is_err());
    /// ```
    pub fn partial<'n>(
        &self,
        values: impl IntoIterator<Item = (&'n str, bool)>,
    ) -> Result<PartialState<B>, AtomicError> {
        self.registry.partial(values)
    }

    /// How many actions there are.
    ///
    /// ```
    /// use state_atomic::ActionSet;
    /// assert_eq!(ActionSet::<u64>::new().len(), 0);
    /// ```
    pub fn len(&self) -> usize {
        self.actions.len()
    }

    /// Whether there is no action.
    ///
    /// ```
    /// use state_atomic::ActionSet;
    /// assert!(ActionSet::<u64>::new().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.actions.is_empty()
    }

    /// The action with index `id`, or `None` for an id of another set.
    ///
    /// ```
    /// use state_atomic::ActionSet;
    /// let mut actions = ActionSet::<u64>::new();
    /// let id = actions.add_action("eat", 5).id().unwrap();
    /// assert_eq!(actions.action(id).unwrap().name, "eat");
    /// ```
    pub fn action(&self, id: ActionId) -> Option<&Action<B>> {
        self.actions.get(id.index())
    }

    /// The name of action `id`, or `"?"` for an id of another set.
    ///
    /// ```
    /// use state_atomic::ActionSet;
    /// let mut actions = ActionSet::<u64>::new();
    /// let id = actions.add_action("eat", 5).id().unwrap();
    /// assert_eq!(actions.name(id), "eat");
    /// ```
    pub fn name(&self, id: ActionId) -> &str {
        self.action(id).map_or("?", |a| a.name.as_str())
    }

    /// The names of a plan's actions.
    ///
    /// ```
    /// use state_atomic::ActionSet;
    /// let mut actions = ActionSet::<u64>::new();
    /// let a = actions.add_action("a", 1).id().unwrap();
    /// let b = actions.add_action("b", 1).id().unwrap();
    /// assert_eq!(actions.names(&[b, a]), ["b", "a"]);
    /// ```
    pub fn names(&self, plan: &[ActionId]) -> Vec<&str> {
        plan.iter().map(|&id| self.name(id)).collect()
    }

    /// The action called `name`.
    ///
    /// ```
    /// use state_atomic::ActionSet;
    /// let mut actions = ActionSet::<u64>::new();
    /// actions.add_action("eat", 5);
    /// assert!(actions.find("eat").is_some() && actions.find("sleep").is_none());
    /// ```
    pub fn find(&self, name: &str) -> Option<ActionId> {
        self.by_name.get(name).copied()
    }

    /// Every action, in index order.
    ///
    /// ```
    /// use state_atomic::ActionSet;
    /// let mut actions = ActionSet::<u64>::new();
    /// actions.add_action("eat", 5);
    /// assert_eq!(actions.iter().map(|a| a.cost).sum::<u32>(), 5);
    /// ```
    pub fn iter(&self) -> impl Iterator<Item = &Action<B>> {
        self.actions.iter()
    }

    pub(crate) fn rules(&self) -> &[Rule<B>] {
        &self.rules
    }

    /// Replays `plan` from `start` and returns the final state.
    ///
    /// # Errors
    /// [`AtomicError::NotApplicable`] naming the first step whose
    /// preconditions fail, [`AtomicError::UnknownAction`] for an id of
    /// another set.
    ///
    /// ```
    /// use state_atomic::ActionSet;
    /// let mut actions = ActionSet::<u64>::new();
    /// let cook = actions.add_action("cook", 10).pre("has_groceries", true).eff("has_food", true).id().unwrap();
    /// let start = actions.state(["has_groceries"]).unwrap();
    /// let end = actions.replay(start, &[cook]).unwrap();
    /// assert_eq!(end, actions.state(["has_groceries", "has_food"]).unwrap());
    /// assert!(actions.replay(actions.state([]).unwrap(), &[cook]).is_err());
    /// ```
    pub fn replay(
        &self,
        start: WorldState<B>,
        plan: &[ActionId],
    ) -> Result<WorldState<B>, AtomicError> {
        let mut state = start;
        for (step, &id) in plan.iter().enumerate() {
            let action = self
                .action(id)
                .ok_or(AtomicError::UnknownAction { index: id.index() })?;
            if !state.satisfies(&action.pre) {
                return Err(AtomicError::NotApplicable {
                    action: action.name.clone(),
                    step,
                    atom: self.first_wrong(&state, &action.pre).to_owned(),
                });
            }
            state = state.apply_when(&action.eff, &action.when);
        }
        Ok(state)
    }

    /// Replays `plan` from `start`, checks that it ends in a state that
    /// satisfies `goal`, and returns its cost.
    ///
    /// # Errors
    /// As for [`replay`](Self::replay), and [`AtomicError::GoalNotReached`]
    /// naming a goal atom that is wrong at the end.
    ///
    /// ```
    /// use state_atomic::ActionSet;
    /// let mut actions = ActionSet::<u64>::new();
    /// let eat = actions.add_action("eat", 5).pre("has_food", true).eff("fed", true).id().unwrap();
    /// let start = actions.state(["has_food"]).unwrap();
    /// let goal = actions.partial([("fed", true)]).unwrap();
    /// assert_eq!(actions.validate(start, &goal, &[eat]).unwrap(), 5);
    /// assert!(actions.validate(start, &goal, &[]).is_err());
    /// ```
    pub fn validate(
        &self,
        start: WorldState<B>,
        goal: &PartialState<B>,
        plan: &[ActionId],
    ) -> Result<u64, AtomicError> {
        let end = self.replay(start.clone(), plan)?;
        if !end.satisfies(goal) {
            return Err(AtomicError::GoalNotReached {
                atom: self.first_wrong(&end, goal).to_owned(),
            });
        }
        // The plan replays, so every step applies in the state before it.
        let mut state = start;
        let mut cost = 0u64;
        for &id in plan {
            cost += u64::from(self.cost_in(id, &state).unwrap_or(0));
            if let Some(action) = self.action(id) {
                state = state.apply_when(&action.eff, &action.when);
            }
        }
        Ok(cost)
    }

    /// What action `id` costs when applied in `state`: its cost function's
    /// value if it has one ([`ActionBuilder::cost_fn`]), else its fixed
    /// cost; `None` for an id of another set. `state` need not satisfy the
    /// action's preconditions.
    ///
    /// ```
    /// use state_atomic::ActionSet;
    /// let mut actions = ActionSet::<u64>::new();
    /// let tired = actions.declare("tired").unwrap();
    /// let walk = actions
    ///     .add_action("walk", 2)
    ///     .eff("at_shop", true)
    ///     .cost_fn(move |s| if s.get(tired) { 9 } else { 2 })
    ///     .id()
    ///     .unwrap();
    /// assert_eq!(actions.cost_in(walk, &actions.state([]).unwrap()), Some(2));
    /// assert_eq!(actions.cost_in(walk, &actions.state(["tired"]).unwrap()), Some(9));
    /// ```
    pub fn cost_in(&self, id: ActionId, state: &WorldState<B>) -> Option<u32> {
        match self.cost_fns.0.get(id.index()) {
            Some(Some(cost)) => Some(cost(state)),
            _ => self.action(id).map(|a| a.cost),
        }
    }

    /// Whether action `id`'s cost depends on the state (it has a cost
    /// function).
    ///
    /// ```
    /// use state_atomic::ActionSet;
    /// let mut actions = ActionSet::<u64>::new();
    /// let eat = actions.add_action("eat", 5).id().unwrap();
    /// let walk = actions.add_action("walk", 1).cost_fn(|_| 3).id().unwrap();
    /// assert!(!actions.has_cost_fn(eat) && actions.has_cost_fn(walk));
    /// ```
    pub fn has_cost_fn(&self, id: ActionId) -> bool {
        self.cost_fns.0.get(id.index()).is_some_and(Option::is_some)
    }

    /// Checks that every action's cost is fixed, for `needed_by` (a
    /// direction or heuristic that reads costs without a state: regression,
    /// cost tables made in advance).
    ///
    /// # Errors
    /// [`AtomicError::StateDependentCost`] naming the first action with a
    /// cost function, and `needed_by`.
    ///
    /// ```
    /// use state_atomic::{ActionSet, AtomicError};
    /// let mut actions = ActionSet::<u64>::new();
    /// actions.add_action("eat", 5).eff("fed", true);
    /// assert!(actions.check_fixed_costs("regression").is_ok());
    /// actions.add_action("walk", 1).eff("at_shop", true).cost_fn(|_| 3);
    /// let error = actions.check_fixed_costs("regression").unwrap_err();
    /// assert!(matches!(&error, AtomicError::StateDependentCost { action, .. } if action == "walk"));
    /// ```
    pub fn check_fixed_costs(&self, needed_by: &str) -> Result<(), AtomicError> {
        match self.cost_fns.0.iter().position(Option::is_some) {
            None => Ok(()),
            Some(index) => Err(AtomicError::StateDependentCost {
                action: self.actions[index].name.clone(),
                needed_by: needed_by.to_owned(),
            }),
        }
    }

    /// The cost functions by action index; empty when no action has one.
    pub(crate) fn cost_fns(&self) -> &CostFns<B> {
        &self.cost_fns
    }

    /// A lower bound of action `index`'s cost that holds in every state,
    /// for tables made before search: its fixed cost, or 0 if it has a
    /// cost function (whose least value is not known).
    pub(crate) fn least_cost(&self, index: usize) -> u32 {
        match self.cost_fns.0.get(index) {
            Some(Some(_)) => 0,
            _ => self.actions[index].cost,
        }
    }

    fn first_wrong(&self, state: &WorldState<B>, partial: &PartialState<B>) -> &str {
        let wrong = (state.bits() ^ partial.as_values()) & partial.as_care();
        let mut first = None;
        wrong.for_each_one(|i| {
            first.get_or_insert(i);
        });
        first.map_or("?", |i| self.registry.name_at(i))
    }
}

/// Declares an action's preconditions and effects; see [`ActionSet::add_action`].
pub struct ActionBuilder<'a, B: Bits = u64> {
    set: &'a mut ActionSet<B>,
    id: Option<ActionId>,
}

/// Which half of an action a builder call sets.
#[derive(Clone, Copy)]
enum Part {
    Pre,
    Eff,
}

impl<B: Bits> ActionBuilder<'_, B> {
    /// The new action's id, or `None` if its name was a duplicate.
    ///
    /// ```
    /// use state_atomic::ActionSet;
    /// let mut actions = ActionSet::<u64>::new();
    /// assert!(actions.add_action("eat", 1).id().is_some());
    /// assert!(actions.add_action("eat", 1).id().is_none());
    /// ```
    pub fn id(&self) -> Option<ActionId> {
        self.id
    }

    /// Requires `atom` to be `value` before the action (declaring the atom
    /// if it is new). An error is kept for [`ActionSet::check`].
    ///
    /// ```
    /// use state_atomic::ActionSet;
    /// let mut actions = ActionSet::<u64>::new();
    /// let id = actions.add_action("eat", 1).pre("has_food", true).id().unwrap();
    /// assert_eq!(actions.action(id).unwrap().pre.len(), 1);
    /// ```
    pub fn pre(&mut self, atom: &str, value: bool) -> &mut Self {
        self.set_or_keep(Part::Pre, atom, value)
    }

    /// Makes the action set `atom` to `value` (declaring the atom if it is
    /// new). An error is kept for [`ActionSet::check`].
    ///
    /// ```
    /// use state_atomic::ActionSet;
    /// let mut actions = ActionSet::<u64>::new();
    /// let id = actions.add_action("eat", 1).eff("fed", true).id().unwrap();
    /// assert_eq!(actions.action(id).unwrap().eff.len(), 1);
    /// ```
    pub fn eff(&mut self, atom: &str, value: bool) -> &mut Self {
        self.set_or_keep(Part::Eff, atom, value)
    }

    /// Makes the action's cost a function of the state it is applied in
    /// (walking costs more when tired), in place of the fixed cost given to
    /// [`ActionSet::add_action`], which search and validation then ignore.
    ///
    /// Forward search ([`ForwardSpace`](crate::ForwardSpace)) and
    /// [`ActionSet::validate`] call it with the state before the action.
    /// Regression cannot know that state, so
    /// [`RegressionSpace::new`](crate::RegressionSpace::new) refuses the set
    /// ([`AtomicError::StateDependentCost`], naming the action). The
    /// relaxation heuristics (`h_max`, `h_add`, `h_FF`, LM-cut) and
    /// [`AdmissibleMismatch`](crate::AdmissibleMismatch), whose tables are
    /// made before search, count such an action as free (0, the only
    /// bound known), so they stay admissible where they were but inform
    /// less; planners refuse them on such a set.
    ///
    /// ```
    /// use search_core::astar;
    /// use state_atomic::{ActionSet, ForwardSpace, Mismatch};
    ///
    /// let mut actions = ActionSet::<u64>::new();
    /// let raining = actions.declare_shared("raining").unwrap();
    /// // Walking is cheap in the dry and dear in the rain; the bus costs 4 always.
    /// actions
    ///     .add_action("walk", 1)
    ///     .eff("in_town", true)
    ///     .cost_fn(move |s| if s.get(raining) { 10 } else { 1 });
    /// actions.add_action("bus", 4).eff("in_town", true);
    /// let goal = actions.partial([("in_town", true)]).unwrap();
    /// let space = ForwardSpace::new(&actions, goal).unwrap();
    ///
    /// for (start, way, cost) in [([].as_slice(), "walk", 1), (["raining"].as_slice(), "bus", 4)] {
    ///     let start = actions.state(start.iter().copied()).unwrap();
    ///     let plan = astar(&space, start, Mismatch::forward(goal)).unwrap().outcome.into_solution().unwrap();
    ///     assert_eq!(actions.names(&plan.actions), [way]);
    ///     assert_eq!(plan.cost, cost);
    ///     assert_eq!(actions.validate(start, &goal, &plan.actions).unwrap(), u64::from(cost));
    /// }
    /// ```
    pub fn cost_fn(
        &mut self,
        cost: impl Fn(&WorldState<B>) -> u32 + Send + Sync + 'static,
    ) -> &mut Self {
        let Some(id) = self.id else {
            return self;
        };
        let fns = &mut self.set.cost_fns.0;
        if fns.len() < self.set.actions.len() {
            fns.resize(self.set.actions.len(), None);
        }
        fns[id.index()] = Some(Arc::new(cost));
        self
    }

    /// Like [`pre`](Self::pre), but reports an error at once.
    ///
    /// # Errors
    /// [`AtomicError::TooManyAtoms`] for a new atom that does not fit,
    /// [`AtomicError::Contradiction`] if the action already requires the
    /// other value.
    ///
    /// ```
    /// use state_atomic::ActionSet;
    /// let mut actions = ActionSet::<u64>::new();
    /// let mut eat = actions.add_action("eat", 1);
    /// assert!(eat.try_pre("has_food", true).is_ok());
    /// assert!(eat.try_pre("has_food", false).is_err());
    /// ```
    pub fn try_pre(&mut self, atom: &str, value: bool) -> Result<&mut Self, AtomicError> {
        self.try_set(Part::Pre, atom, value)
    }

    /// Like [`eff`](Self::eff), but reports an error at once.
    ///
    /// # Errors
    /// As for [`try_pre`](Self::try_pre).
    ///
    /// ```
    /// use state_atomic::ActionSet;
    /// let mut actions = ActionSet::<u64>::new();
    /// assert!(actions.add_action("eat", 1).try_eff("fed", true).is_ok());
    /// ```
    pub fn try_eff(&mut self, atom: &str, value: bool) -> Result<&mut Self, AtomicError> {
        self.try_set(Part::Eff, atom, value)
    }

    fn set_or_keep(&mut self, part: Part, atom: &str, value: bool) -> &mut Self {
        if let Err(error) = self.set_part(part, atom, value) {
            self.set.keep(error);
        }
        self
    }

    fn try_set(&mut self, part: Part, atom: &str, value: bool) -> Result<&mut Self, AtomicError> {
        self.set_part(part, atom, value)?;
        Ok(self)
    }

    fn set_part(&mut self, part: Part, name: &str, value: bool) -> Result<(), AtomicError> {
        let Some(id) = self.id else {
            return Ok(());
        };
        let atom = self.set.registry.intern(name)?;
        let action = &mut self.set.actions[id.index()];
        let (partial, label) = match part {
            Part::Pre => (&mut action.pre, "preconditions"),
            Part::Eff => (&mut action.eff, "effects"),
        };
        if partial.get(atom).is_some_and(|v| v != value) {
            return Err(AtomicError::Contradiction {
                action: action.name.clone(),
                atom: name.to_owned(),
                part: label,
            });
        }
        *partial = partial.clone().with(atom, value);
        let rule = &mut self.set.rules[id.index()];
        rule.pre.clone_from(&action.pre);
        rule.eff.clone_from(&action.eff);
        Ok(())
    }
}
