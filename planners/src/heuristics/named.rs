//! Named heuristics and the registry that lists them.

use std::fmt::{self, Write as _};
use std::str::FromStr;
use std::sync::{Arc, LazyLock};

use super::factory::Slots;
use super::{AtomicFactory, FactoredFactory, HeuristicFactory, Representation, TaskView};
use crate::{BoxedHeuristic, Direction, PlanError};

/// What a heuristic is: its name, aliases, description and properties.
#[expect(
    clippy::struct_excessive_bools,
    reason = "independent properties, each a yes or no"
)]
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct HeuristicInfo {
    /// The name used on the command line and in configuration names.
    pub name: String,
    /// Other names it answers to.
    pub aliases: Vec<String>,
    /// One line on what it computes.
    pub description: String,
    /// Never above the true cost, so A* finds optimal plans with it.
    pub admissible: bool,
    /// Never drops by more than an action's cost along an action, so A*
    /// never reopens a node: on every representation it serves (an
    /// instance may say more, as atomic `h_max` does).
    pub consistent: bool,
    /// The directions it serves.
    pub directions: Directions,
    /// The representations it has a factory for.
    pub representations: Vec<Representation>,
    /// It reads actions' costs before search (cost tables), so it refuses
    /// a task whose costs depend on the state
    /// ([`TaskView::require_fixed_costs`]) rather than use a cost the
    /// search would not.
    pub fixed_costs: bool,
    /// It reads every effect as unconditional, so it refuses a task with
    /// conditional effects ([`TaskView::require_unconditional`]) rather
    /// than misjudge it.
    pub unconditional: bool,
    /// It reads the task's mutex groups as finite-domain variables
    /// ([`ActionSet::mutex_groups`](state_atomic::ActionSet::mutex_groups)),
    /// so the PDDL front end finds them (`h^2` mutexes, grouped as packing
    /// groups them) even where it would neither pack nor prune with them.
    pub mutex_groups: bool,
}

/// The search directions a heuristic serves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Directions {
    /// Forward search and regression.
    Both,
    /// Forward search only.
    Forward,
    /// Regression only.
    Regression,
    /// Neither (an alternation of heuristics that serve different
    /// directions).
    None,
}

impl Directions {
    /// Whether `direction` is served (a portfolio needs both).
    pub fn serve(self, direction: Direction) -> bool {
        matches!(
            (self, direction),
            (Directions::Both, _)
                | (Directions::Forward, Direction::Forward)
                | (Directions::Regression, Direction::Regression)
        )
    }
}

impl fmt::Display for Directions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Directions::Both => "both",
            Directions::Forward => "forward",
            Directions::Regression => "regression",
            Directions::None => "none",
        })
    }
}

struct Entry {
    info: HeuristicInfo,
    slots: Slots,
    /// The heuristics an alternation takes turns with; empty for one
    /// heuristic.
    parts: Vec<NamedHeuristic>,
}

/// A heuristic with its name and properties, and its factories: what a
/// [`Registry`] holds and a [`PlannerConfig`](crate::PlannerConfig) names.
/// Cloning is cheap.
///
/// The built-in ones come from [`heuristic`] (or [`str::parse`]); a user
/// heuristic is built with [`NamedHeuristic::builder`].
///
/// ```
/// use planners::heuristics::{heuristic, Representation};
/// use planners::Direction;
/// let hmax = heuristic("h_max").unwrap();
/// assert_eq!(hmax.name(), "hmax");
/// assert!(hmax.info().admissible);
/// assert!(hmax.supports(Representation::Factored, Direction::Regression));
/// assert!(!heuristic("ff").unwrap().supports(Representation::Factored, Direction::Forward));
/// ```
#[derive(Clone)]
pub struct NamedHeuristic(Arc<Entry>);

impl NamedHeuristic {
    /// A builder for a heuristic named `name`, described by `description`
    /// (one line). It serves both directions, and is neither admissible nor
    /// consistent, until said otherwise.
    pub fn builder(name: &str, description: &str) -> HeuristicBuilder {
        HeuristicBuilder {
            info: HeuristicInfo {
                name: name.to_owned(),
                aliases: Vec::new(),
                description: description.to_owned(),
                admissible: false,
                consistent: false,
                directions: Directions::Both,
                representations: Vec::new(),
                fixed_costs: false,
                unconditional: false,
                mutex_groups: false,
            },
            slots: Slots::default(),
        }
    }

    /// Its name.
    pub fn name(&self) -> &str {
        &self.0.info.name
    }

    /// Its name, aliases, description and properties.
    pub fn info(&self) -> &HeuristicInfo {
        &self.0.info
    }

    /// Several heuristics that lazy greedy search
    /// ([`Algorithm::LazyGreedy`](search_core::Algorithm::LazyGreedy), and
    /// with type-based exploration)
    /// alternates between, one queue each, named by their names joined
    /// with `+` (`ff+lmcount`). It serves the directions and representations
    /// all of them serve, and is admissible (consistent) if all of them are.
    /// Other algorithms refuse it ([`PlanError::Alternation`]). A single
    /// heuristic is returned as it is.
    ///
    /// ```
    /// use planners::heuristics::{heuristic, NamedHeuristic, Representation};
    /// use planners::Direction;
    /// let ff = heuristic("ff").unwrap();
    /// let both = NamedHeuristic::alternation(&[ff.clone(), heuristic("lmcount").unwrap()]);
    /// assert_eq!(both.name(), "ff+lmcount");
    /// assert_eq!(both.parts().len(), 2);
    /// assert!(!both.supports(Representation::Atomic, Direction::Regression));
    /// assert_eq!(NamedHeuristic::alternation(&[ff.clone()]), ff);
    /// assert_eq!(heuristic("FF+lmcount").unwrap(), both);
    /// ```
    pub fn alternation(parts: &[NamedHeuristic]) -> NamedHeuristic {
        if let [one] = parts {
            return one.clone();
        }
        let name = parts
            .iter()
            .map(NamedHeuristic::name)
            .collect::<Vec<_>>()
            .join("+");
        let all = |p: fn(&HeuristicInfo) -> bool| parts.iter().all(|h| p(h.info()));
        let directions = if all(|i| i.directions == Directions::Both) {
            Directions::Both
        } else if all(|i| i.directions.serve(Direction::Forward)) {
            Directions::Forward
        } else if all(|i| i.directions.serve(Direction::Regression)) {
            Directions::Regression
        } else {
            Directions::None
        };
        let representations = Representation::ALL
            .into_iter()
            .filter(|r| parts.iter().all(|h| h.info().representations.contains(r)))
            .collect();
        let info = HeuristicInfo {
            description: format!(
                "lazy greedy search alternating between {}",
                name.replace('+', ", ")
            ),
            name,
            aliases: Vec::new(),
            admissible: all(|i| i.admissible),
            consistent: all(|i| i.consistent),
            directions,
            representations,
            fixed_costs: parts.iter().any(|h| h.info().fixed_costs),
            unconditional: parts.iter().any(|h| h.info().unconditional),
            mutex_groups: parts.iter().any(|h| h.info().mutex_groups),
        };
        NamedHeuristic(Arc::new(Entry {
            info,
            slots: Slots::default(),
            parts: parts.to_vec(),
        }))
    }

    /// The heuristics a search evaluates: an
    /// [`alternation`](Self::alternation)'s parts, or this one alone.
    pub fn parts(&self) -> Vec<NamedHeuristic> {
        if self.0.parts.is_empty() {
            vec![self.clone()]
        } else {
            self.0.parts.clone()
        }
    }

    /// Its name if it is a built-in heuristic itself (the registry's
    /// entry, not another heuristic of the same name); `None` otherwise.
    pub(crate) fn builtin_name(&self) -> Option<&'static str> {
        BUILTIN
            .heuristics
            .iter()
            .find(|h| Arc::ptr_eq(&h.0, &self.0))
            .map(NamedHeuristic::name)
    }

    /// Whether it answers to `name` (its name or an alias, in any case).
    pub fn answers_to(&self, name: &str) -> bool {
        let info = &self.0.info;
        info.name.eq_ignore_ascii_case(name)
            || info.aliases.iter().any(|a| a.eq_ignore_ascii_case(name))
    }

    /// Whether it serves `direction` (a portfolio needs both) on problems
    /// of `representation`.
    pub fn supports(&self, representation: Representation, direction: Direction) -> bool {
        let info = &self.0.info;
        info.representations.contains(&representation) && info.directions.serve(direction)
    }

    /// A heuristic for forward search on `task`.
    ///
    /// # Errors
    /// [`PlanError::UnsupportedHeuristic`] when it does not serve forward
    /// search on this kind of task, or its factory declined the task;
    /// [`PlanError::Alternation`] for an [`alternation`](Self::alternation)
    /// (make each of its [`parts`](Self::parts)); for a heuristic of
    /// [fixed costs](HeuristicInfo::fixed_costs), the task's refusal of a
    /// state-dependent cost ([`TaskView::require_fixed_costs`]).
    pub fn forward<'a, T: TaskView>(
        &self,
        task: &'a T,
        start: &'a T::State,
        goal: &'a T::Goal,
    ) -> Result<BoxedHeuristic<'a, T::State>, PlanError> {
        self.single()?;
        self.fixed_costs_of(task)?;
        self.0
            .slots
            .get::<T>()
            .filter(|_| self.0.info.directions.serve(Direction::Forward))
            .and_then(|make| make.forward(task, start, goal))
            .ok_or_else(|| self.unsupported::<T>(Direction::Forward))
    }

    /// A heuristic for regression on `task`, estimating the cost from
    /// `start` to a subgoal.
    ///
    /// # Errors
    /// As for [`forward`](Self::forward).
    pub fn regression<'a, T: TaskView>(
        &self,
        task: &'a T,
        start: &'a T::State,
        goal: &'a T::Goal,
    ) -> Result<BoxedHeuristic<'a, T::Subgoal>, PlanError> {
        self.single()?;
        self.fixed_costs_of(task)?;
        self.0
            .slots
            .get::<T>()
            .filter(|_| self.0.info.directions.serve(Direction::Regression))
            .and_then(|make| make.regression(task, start, goal))
            .ok_or_else(|| self.unsupported::<T>(Direction::Regression))
    }

    /// The forward heuristic in the form that owns what it reads
    /// ([`HeuristicFactory::forward_owned`](super::HeuristicFactory::forward_owned)),
    /// where [`forward`](Self::forward) would make one and the factory has
    /// that form; `None` otherwise.
    pub(crate) fn forward_owned<T: TaskView>(
        &self,
        task: &T,
        start: &T::State,
        goal: &T::Goal,
    ) -> Option<BoxedHeuristic<'static, T::State>> {
        self.single().ok()?;
        self.fixed_costs_of(task).ok()?;
        self.0
            .slots
            .get::<T>()
            .filter(|_| self.0.info.directions.serve(Direction::Forward))?
            .forward_owned(task, start, goal)
    }

    /// The regression heuristic in the form that owns what it reads; see
    /// [`forward_owned`](Self::forward_owned).
    pub(crate) fn regression_owned<T: TaskView>(
        &self,
        task: &T,
        start: &T::State,
        goal: &T::Goal,
    ) -> Option<BoxedHeuristic<'static, T::Subgoal>> {
        self.single().ok()?;
        self.fixed_costs_of(task).ok()?;
        self.0
            .slots
            .get::<T>()
            .filter(|_| self.0.info.directions.serve(Direction::Regression))?
            .regression_owned(task, start, goal)
    }

    /// An alternation makes no single heuristic.
    fn single(&self) -> Result<(), PlanError> {
        if self.0.parts.is_empty() {
            Ok(())
        } else {
            Err(PlanError::Alternation {
                heuristic: self.name().to_owned(),
            })
        }
    }

    /// A heuristic of fixed costs refuses a task whose costs are not.
    fn fixed_costs_of<T: TaskView>(&self, task: &T) -> Result<(), PlanError> {
        if self.0.info.unconditional {
            task.require_unconditional(&format!("heuristic `{}`", self.name()))?;
        }
        if self.0.info.fixed_costs {
            task.require_fixed_costs(&format!("heuristic `{}`", self.name()))?;
        }
        Ok(())
    }

    fn unsupported<T: TaskView>(&self, direction: Direction) -> PlanError {
        PlanError::UnsupportedHeuristic {
            heuristic: self.name().to_owned(),
            representation: T::REPRESENTATION,
            direction,
        }
    }
}

impl fmt::Debug for NamedHeuristic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("NamedHeuristic").field(&self.name()).finish()
    }
}

impl fmt::Display for NamedHeuristic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Two named heuristics are equal when they have the same name: a registry
/// holds one heuristic per name.
impl PartialEq for NamedHeuristic {
    fn eq(&self, other: &Self) -> bool {
        self.name() == other.name()
    }
}

impl Eq for NamedHeuristic {}

impl Default for NamedHeuristic {
    /// `blind`.
    fn default() -> Self {
        BUILTIN.heuristics[0].clone()
    }
}

impl FromStr for NamedHeuristic {
    type Err = PlanError;

    /// The built-in heuristic called `name`; see [`heuristic`].
    fn from_str(name: &str) -> Result<Self, PlanError> {
        heuristic(name)
    }
}

/// Builds a [`NamedHeuristic`]: properties, then at least one factory.
#[must_use]
pub struct HeuristicBuilder {
    info: HeuristicInfo,
    slots: Slots,
}

impl HeuristicBuilder {
    /// Other names it answers to.
    pub fn aliases(mut self, aliases: &[&str]) -> Self {
        self.info.aliases = aliases.iter().map(|&a| a.to_owned()).collect();
        self
    }

    /// Declares it admissible.
    pub fn admissible(mut self) -> Self {
        self.info.admissible = true;
        self
    }

    /// Declares it consistent (and so admissible).
    pub fn consistent(mut self) -> Self {
        self.info.admissible = true;
        self.info.consistent = true;
        self
    }

    /// Declares that it reads actions' costs before search (tables of
    /// costs), so that it refuses a task whose costs depend on the state
    /// ([`HeuristicInfo::fixed_costs`]).
    ///
    /// ```
    /// use planners::heuristics::{heuristic, NamedHeuristic, TaskView};
    /// use planners::{BoxedHeuristic, PlanError, Planner, PlannerConfig};
    /// use state_atomic::{ActionSet, AtomicError};
    ///
    /// struct Blind;
    /// impl planners::heuristics::HeuristicFactory for Blind {
    ///     fn forward<'a, T: TaskView>(&self, _: &'a T, _: &'a T::State, _: &'a T::Goal)
    ///         -> Option<BoxedHeuristic<'a, T::State>> {
    ///         Some(Box::new(|_: &T::State| 0u32))
    ///     }
    ///     fn regression<'a, T: TaskView>(&self, _: &'a T, _: &'a T::State, _: &'a T::Goal)
    ///         -> Option<BoxedHeuristic<'a, T::Subgoal>> {
    ///         Some(Box::new(|_: &T::Subgoal| 0u32))
    ///     }
    /// }
    /// let tabled = NamedHeuristic::builder("tabled", "a table of costs").fixed_costs().generic(Blind).build();
    /// assert!(tabled.info().fixed_costs && heuristic("hmax").unwrap().info().fixed_costs);
    ///
    /// let mut actions = ActionSet::<u64>::new();
    /// actions.add_action("walk", 1).eff("at_shop", true).cost_fn(|_| 3);
    /// let (start, goal) = (actions.state([]).unwrap(), actions.partial([("at_shop", true)]).unwrap());
    /// let planner = Planner::new(PlannerConfig { heuristic: tabled, ..PlannerConfig::default() });
    /// let error = planner.plan(&actions, &start, &goal).unwrap_err();
    /// assert!(matches!(error, PlanError::Atomic(AtomicError::StateDependentCost { .. })));
    /// assert!(error.to_string().starts_with("heuristic `tabled` needs fixed action costs"), "{error}");
    /// ```
    pub fn fixed_costs(mut self) -> Self {
        self.info.fixed_costs = true;
        self
    }

    /// It reads every effect as unconditional
    /// ([`HeuristicInfo::unconditional`]).
    ///
    /// ```
    /// use planners::heuristics::heuristic;
    /// assert!(heuristic("ipdb").unwrap().info().unconditional);
    /// assert!(!heuristic("ff").unwrap().info().unconditional);
    /// ```
    pub fn unconditional(mut self) -> Self {
        self.info.unconditional = true;
        self
    }

    /// It reads the task's mutex groups ([`HeuristicInfo::mutex_groups`]).
    ///
    /// ```
    /// use planners::heuristics::heuristic;
    /// assert!(heuristic("ipdb").unwrap().info().mutex_groups);
    /// assert!(!heuristic("lmcut").unwrap().info().mutex_groups);
    /// ```
    pub fn mutex_groups(mut self) -> Self {
        self.info.mutex_groups = true;
        self
    }

    /// It serves forward search only.
    pub fn forward_only(mut self) -> Self {
        self.info.directions = Directions::Forward;
        self
    }

    /// It serves regression only.
    pub fn regression_only(mut self) -> Self {
        self.info.directions = Directions::Regression;
        self
    }

    /// Makes it with `factory` on every representation.
    pub fn generic<F: HeuristicFactory>(mut self, factory: F) -> Self {
        self.slots.generic(Arc::new(factory));
        self.info.representations = Representation::ALL.to_vec();
        self
    }

    /// Makes it with `factory` on atomic problems of every width (PDDL
    /// included).
    pub fn atomic<F: AtomicFactory>(mut self, factory: F) -> Self {
        self.slots.atomic(Arc::new(factory));
        self.represent(Representation::Atomic)
    }

    /// Makes it with `factory` on factored problems.
    pub fn factored<F: FactoredFactory>(mut self, factory: F) -> Self {
        self.slots.factored(Arc::new(factory));
        self.represent(Representation::Factored)
    }

    fn represent(mut self, representation: Representation) -> Self {
        if !self.info.representations.contains(&representation) {
            self.info.representations.push(representation);
            self.info.representations.sort_by_key(|r| *r as u8);
        }
        self
    }

    /// The heuristic.
    pub fn build(self) -> NamedHeuristic {
        NamedHeuristic(Arc::new(Entry {
            info: self.info,
            slots: self.slots,
            parts: Vec::new(),
        }))
    }
}

/// The heuristics a planner, the command line and a suite know by name:
/// the built-in ones, and any a program adds.
///
/// ```
/// use planners::heuristics::{NamedHeuristic, Registry};
/// let mut registry = Registry::builtin();
/// assert!(registry.get("goal-count").is_ok());
/// let error = registry.get("hmx").unwrap_err().to_string();
/// assert!(error.contains("hmax, hadd"), "{error}");
/// ```
#[derive(Clone, Debug, Default)]
pub struct Registry {
    heuristics: Vec<NamedHeuristic>,
}

static BUILTIN: LazyLock<Registry> = LazyLock::new(super::builtin::registry);

impl Registry {
    /// No heuristic.
    pub fn new() -> Self {
        Self::default()
    }

    /// The built-in heuristics.
    pub fn builtin() -> Self {
        BUILTIN.clone()
    }

    /// Adds `heuristic`.
    ///
    /// # Errors
    /// [`PlanError::HeuristicRefused`] when its name or an alias is taken,
    /// or it has no factory.
    pub fn add(&mut self, heuristic: NamedHeuristic) -> Result<&mut Self, PlanError> {
        let info = heuristic.info();
        let refuse = |why: String| PlanError::HeuristicRefused {
            name: info.name.clone(),
            why,
        };
        if info.representations.is_empty() {
            return Err(refuse("it has no factory".to_owned()));
        }
        for name in std::iter::once(&info.name).chain(&info.aliases) {
            let well_formed = !name.is_empty()
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "_-:".contains(c));
            if !well_formed {
                return Err(refuse(format!(
                    "`{name}`: a name is one or more letters, digits, `-`, `_` and `:`"
                )));
            }
            if let Some(taken) = self.heuristics.iter().find(|h| h.answers_to(name)) {
                return Err(refuse(format!("`{name}` already names `{taken}`")));
            }
        }
        self.heuristics.push(heuristic);
        Ok(self)
    }

    /// The heuristic called `name` (or with that alias), in any case;
    /// names joined with `+` (`ff+lmcount`) make their
    /// [`alternation`](NamedHeuristic::alternation).
    ///
    /// # Errors
    /// [`PlanError::UnknownName`] listing the names there are.
    pub fn get(&self, name: &str) -> Result<NamedHeuristic, PlanError> {
        if name.contains('+') {
            let parts = name
                .split('+')
                .map(|part| self.get(part))
                .collect::<Result<Vec<_>, _>>()?;
            return Ok(NamedHeuristic::alternation(&parts));
        }
        self.heuristics
            .iter()
            .find(|h| h.answers_to(name))
            .cloned()
            .ok_or_else(|| PlanError::UnknownName {
                kind: "heuristic",
                name: name.to_owned(),
                known: self.names().join(", "),
            })
    }

    /// Every heuristic, in the order added.
    pub fn iter(&self) -> impl Iterator<Item = &NamedHeuristic> {
        self.heuristics.iter()
    }

    /// Every heuristic's name.
    pub fn names(&self) -> Vec<&str> {
        self.heuristics.iter().map(NamedHeuristic::name).collect()
    }

    /// The heuristics as a Markdown table: name (aliases), representations,
    /// directions, admissible, consistent, description. The crate's README
    /// shows the built-in registry's; a test keeps the two equal.
    pub fn markdown_table(&self) -> String {
        let mut table = String::from(
            "| heuristic | atomic | factored | directions | admissible | consistent | what it computes |\n\
             |---|---|---|---|---|---|---|\n",
        );
        let yes = |b: bool| if b { "yes" } else { "no" };
        for h in &self.heuristics {
            let info = h.info();
            let aliases = if info.aliases.is_empty() {
                String::new()
            } else {
                format!(
                    " ({})",
                    info.aliases
                        .iter()
                        .map(|a| format!("`{a}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            };
            let _ = writeln!(
                table,
                "| `{}`{aliases} | {} | {} | {} | {} | {} | {} |",
                info.name,
                yes(info.representations.contains(&Representation::Atomic)),
                yes(info.representations.contains(&Representation::Factored)),
                info.directions,
                yes(info.admissible),
                yes(info.consistent),
                info.description
            );
        }
        table
    }
}

/// The built-in heuristic called `name` (or with that alias), in any case.
///
/// # Errors
/// [`PlanError::UnknownName`] listing the built-in names.
///
/// ```
/// assert_eq!(planners::heuristics::heuristic("goal-count").unwrap().name(), "mismatch");
/// ```
pub fn heuristic(name: &str) -> Result<NamedHeuristic, PlanError> {
    BUILTIN.get(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The docs table is the registry's. `SEARCHLAB_BLESS=1 cargo test -p
    /// planners` rewrites it after a change to the built-in heuristics.
    #[test]
    fn the_docs_table_is_the_builtin_registry() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/heuristics/heuristics.md");
        let table = Registry::builtin().markdown_table();
        if std::env::var_os("SEARCHLAB_BLESS").is_some() {
            std::fs::write(path, &table).unwrap();
        }
        assert_eq!(
            include_str!("heuristics.md"),
            table,
            "run `SEARCHLAB_BLESS=1 cargo test -p planners` to update the table"
        );
    }

    #[test]
    fn every_builtin_name_and_alias_is_found_and_unique() {
        let registry = Registry::builtin();
        let mut seen = Vec::new();
        for h in registry.iter() {
            for name in std::iter::once(&h.info().name).chain(&h.info().aliases) {
                assert_eq!(registry.get(name).unwrap(), *h);
                assert_eq!(registry.get(&name.to_uppercase()).unwrap(), *h);
                assert!(!seen.contains(name), "{name} twice");
                seen.push(name.clone());
            }
        }
        assert_eq!(NamedHeuristic::default().name(), "blind");
    }

    /// A factored factory that makes nothing.
    struct Never;
    impl crate::heuristics::FactoredFactory for Never {
        fn forward<'a>(
            &self,
            _: &'a state_factored::Domain,
            _: &'a state_factored::State,
            _: &'a state_factored::Goal,
        ) -> Option<BoxedHeuristic<'a, state_factored::State>> {
            None
        }
        fn regression<'a>(
            &self,
            _: &'a state_factored::Domain,
            _: &'a state_factored::State,
            _: &'a state_factored::Goal,
        ) -> Option<BoxedHeuristic<'a, state_factored::Subgoal>> {
            None
        }
    }

    #[test]
    fn a_taken_name_or_alias_is_refused() {
        let mut registry = Registry::builtin();
        let hmax = registry.get("hmax").unwrap();
        let error = registry.add(hmax).unwrap_err().to_string();
        assert!(error.contains("`hmax` already names `hmax`"), "{error}");
        let alias = NamedHeuristic::builder("mine", "x")
            .aliases(&["H_MAX"])
            .factored(Never)
            .build();
        assert!(registry.add(alias).is_err());
        let bare = NamedHeuristic::builder("bare", "x").build();
        assert!(registry
            .add(bare)
            .unwrap_err()
            .to_string()
            .contains("no factory"));
        let spaced = NamedHeuristic::builder("my h", "x").factored(Never).build();
        assert!(registry.add(spaced).is_err());
        let empty = NamedHeuristic::builder("", "x").factored(Never).build();
        assert!(registry.add(empty).is_err());
        let bad_alias = NamedHeuristic::builder("good", "x")
            .aliases(&["bad alias"])
            .factored(Never)
            .build();
        assert!(registry.add(bad_alias).is_err());
        let fine = NamedHeuristic::builder("mine", "x").factored(Never).build();
        assert!(registry.add(fine).is_ok());
    }
}
