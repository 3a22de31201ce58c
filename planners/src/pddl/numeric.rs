//! Numeric PDDL on the factored state: a ground task with numeric
//! fluents ([`GroundTask::numeric`]) as a factored [`Domain`]: one bool
//! variable per fact (or, given a [`Packing`], one string variable per
//! group of mutually exclusive facts, naming the fact that holds, `""` for
//! none), one int or float variable per changing fluent, and one action per
//! ground operator, its linear conditions and effects as the factored
//! state's own.
//!
//! Groups matter to regression: with a bool per fact a subgoal may ask for
//! two facts no state holds together (a plane in two cities), which no
//! heuristic from the start refutes; one variable per group cannot say it.
//!
//! A fluent is an int when its initial value and everything its effects
//! add or assign are whole numbers (counters, capacities, most IPC
//! domains): its arithmetic is then exact, and equal states hash equally.
//! The others are floats, compared with the factored state's tolerance.

use std::time::{Duration, Instant};

use searchlab_pddl::{
    h2_mutexes_until, GroundOperator, GroundTask, IpcPlan, LinearCondition, LinearExpr, Mutexes,
    NumericEffect, NumericFluents, Packing, PddlError,
};
use state_factored::{
    Action, ActionBuilder, ActionId, Cost, Domain, Effect, Expr, FloatVar, Goal, IntVar, Op,
    Predicate, Schema, State,
};

use super::SolveError;
use crate::{PlanReport, PlanTrace, Planner, PlannerConfig};

/// A numeric ground task as a factored domain, with its start and goal.
///
/// ```
/// use planners::pddl::NumericTask;
/// use planners::{heuristics::heuristic, Planner, PlannerConfig};
/// use searchlab_pddl::{ground, parse_domain, parse_problem, GroundingLimits};
/// let domain = parse_domain("d", "(define (domain d) (:requirements :numeric-fluents)
///   (:functions (x) (step))
///   (:action up :parameters () :precondition (< (+ (x) (step)) 10) :effect (increase (x) (step))))").unwrap();
/// let problem = parse_problem(&domain, "p", "(define (problem p) (:domain d)
///   (:init (= (x) 0) (= (step) 2)) (:goal (>= (x) 5)))").unwrap();
/// let task = NumericTask::new(&ground(&domain, &problem, GroundingLimits::default()).unwrap()).unwrap();
/// // `step` never changes: grounding folds it, and `x` is the one variable.
/// assert_eq!(task.domain().schema().len(), 1);
/// let config = PlannerConfig { heuristic: heuristic("hrmax").unwrap(), ..PlannerConfig::default() };
/// let report = Planner::new(config).plan(task.domain(), task.start(), task.goal()).unwrap();
/// assert_eq!(report.plan().unwrap().cost, 3);
/// ```
pub struct NumericTask {
    domain: Domain,
    start: State,
    goal: Goal,
    /// Per factored action: the ground operator's name, as a plan names it.
    names: Vec<String>,
    /// Whether the task has a metric, and its costs' scale.
    action_costs: bool,
    cost_scale: u32,
}

/// How a fluent is held.
#[derive(Clone, Copy)]
enum Slot {
    Int(IntVar),
    Float(FloatVar),
}

/// How a fact is held: a bool of its own, or as the value of its group's
/// variable.
enum FactVar {
    Bool(String),
    Member { var: String, value: String },
}

impl FactVar {
    /// "The fact holds" (or, with `holds` false, "it does not").
    fn test(&self, holds: bool) -> Predicate {
        match (self, holds) {
            (FactVar::Bool(name), _) => Predicate::eq(name, holds),
            (FactVar::Member { var, value }, true) => Predicate::eq(var, value.as_str()),
            (FactVar::Member { var, value }, false) => Predicate::ne(var, value.as_str()),
        }
    }
}

impl NumericTask {
    /// The factored domain of `ground`, a task with numeric fluents.
    ///
    /// # Errors
    /// [`SolveError::Pddl`] for a task without numeric fluents or with
    /// axioms (both are the atomic state's), and what the factored domain
    /// refuses (a value out of its range).
    pub fn new(ground: &GroundTask) -> Result<Self, SolveError> {
        Self::grouped(ground, None)
    }

    /// [`NumericTask::new`], with the facts of each group of `packing`
    /// (two facts or more) as one string variable.
    ///
    /// # Errors
    /// As [`NumericTask::new`].
    pub fn grouped(ground: &GroundTask, packing: Option<&Packing>) -> Result<Self, SolveError> {
        let refuse = |message: String| {
            SolveError::Pddl(PddlError::Numeric {
                context: "the task".to_owned(),
                message,
            })
        };
        let Some(numeric) = ground.numeric.as_deref() else {
            return Err(refuse(
                "has no numeric fluents: plan it on the atomic state".to_owned(),
            ));
        };
        if !ground.axioms.is_empty() {
            return Err(refuse(
                "has axioms (`:derived`) beside numeric fluents, which searchlab does not combine"
                    .to_owned(),
            ));
        }
        let factored = |e: state_factored::FactoredError| refuse(e.to_string());
        let is_int = whole_fluents(ground);
        let mut schema = Schema::new();
        let facts = fact_vars(ground, packing);
        let mut declared = rustc_hash::FxHashSet::default();
        for fact in &facts {
            match fact {
                FactVar::Bool(name) => {
                    schema.bool(name).map_err(factored)?;
                }
                FactVar::Member { var, .. } => {
                    if declared.insert(var.as_str()) {
                        schema.string(var).map_err(factored)?;
                    }
                }
            }
        }
        let mut slots = Vec::with_capacity(numeric.names.len());
        for (name, &int) in numeric.names.iter().zip(&is_int) {
            slots.push(if int {
                Slot::Int(schema.int(name).map_err(factored)?)
            } else {
                Slot::Float(schema.float(name).map_err(factored)?)
            });
        }
        let mut start = schema.default_state();
        for &f in &ground.init {
            match &facts[f as usize] {
                FactVar::Bool(name) => schema.set(&mut start, name, true),
                FactVar::Member { var, value } => schema.set(&mut start, var, value.as_str()),
            }
            .map_err(factored)?;
        }
        for (slot, &value) in slots.iter().zip(&numeric.init) {
            match *slot {
                #[expect(
                    clippy::cast_possible_truncation,
                    reason = "a whole number, checked by whole_fluents"
                )]
                Slot::Int(var) => start.set_int(var, value as i64),
                Slot::Float(var) => {
                    // Finite: the reader takes finite numbers only.
                    let _ = start.set_float(var, value);
                }
            }
        }
        let mut domain = Domain::new(schema);
        let names = &numeric.names;
        let mut action_names = Vec::with_capacity(ground.operators.len());
        let mut taken = rustc_hash::FxHashMap::default();
        for o in &ground.operators {
            let count = taken.entry(o.name.as_str()).or_insert(0_usize);
            *count += 1;
            let unique = if *count == 1 {
                o.name.clone()
            } else {
                format!("{} #{count}", o.name)
            };
            let Some(action) = action(Action::builder(&unique), o, &facts, names, &slots) else {
                continue; // two facts of one group at once: never applies
            };
            domain.add_action(action).map_err(factored)?;
            action_names.push(o.name.clone());
        }
        let goal = domain
            .goal(goal_predicates(ground, numeric, &facts, &slots))
            .map_err(factored)?;
        Ok(Self {
            domain,
            start,
            goal,
            names: action_names,
            action_costs: ground.action_costs,
            cost_scale: ground.cost_scale,
        })
    }

    /// The factored domain.
    pub fn domain(&self) -> &Domain {
        &self.domain
    }

    /// The initial state.
    pub fn start(&self) -> &State {
        &self.start
    }

    /// The goal.
    pub fn goal(&self) -> &Goal {
        &self.goal
    }

    /// A plan of the domain's actions as an IPC plan, costing `cost` (in
    /// the task's units).
    pub fn to_ipc(&self, plan: &[ActionId], cost: u64) -> IpcPlan {
        let mut ipc = IpcPlan::from_names(plan.iter().map(|a| self.names[a.index()].as_str()));
        if self.action_costs {
            ipc.general_cost = Some(cost);
            ipc.cost_scale = self.cost_scale;
        }
        ipc
    }
}

/// `o` as a factored action (`builder` names it): its facts as `facts`
/// holds them, its linear conditions and effects over the fluents `names`
/// (held in `slots`), its cost, fixed or read from the state. `None` for
/// an operator that wants or adds two facts of one group, which never
/// applies in a reachable state.
fn action(
    builder: ActionBuilder,
    o: &GroundOperator,
    facts: &[FactVar],
    names: &[String],
    slots: &[Slot],
) -> Option<ActionBuilder> {
    let mut action = builder.cost(o.cost);
    let mut wanted = rustc_hash::FxHashSet::default();
    for &f in &o.pre {
        if let FactVar::Member { var, .. } = &facts[f as usize] {
            if !wanted.insert(var) {
                return None;
            }
        }
        action = action.pre(facts[f as usize].test(true));
    }
    for &f in &o.neg_pre {
        action = action.pre(facts[f as usize].test(false));
    }
    let mut added = rustc_hash::FxHashSet::default();
    for &f in &o.add {
        if let FactVar::Member { var, .. } = &facts[f as usize] {
            if !added.insert(var) {
                return None;
            }
        }
    }
    for &f in &o.del {
        action = match &facts[f as usize] {
            FactVar::Bool(name) => action.set(name, false),
            // A group left with none of its facts (the packing groups a
            // fact deleted only where it holds).
            FactVar::Member { var, .. } if !added.contains(var) => action.set(var, ""),
            FactVar::Member { .. } => action,
        };
    }
    for &f in &o.add {
        action = match &facts[f as usize] {
            FactVar::Bool(name) => action.set(name, true),
            FactVar::Member { var, value } => action.set(var, value.as_str()),
        };
    }
    let Some(n) = o.numeric.as_deref() else {
        return Some(action);
    };
    for c in &n.conditions {
        action = action.pre(linear_predicate(c, names));
    }
    for e in &n.effects {
        let target = &names[e.fluent() as usize];
        action = action.effect(match e {
            NumericEffect::Assign { value, .. } => Effect::assign(target, expr(value, names)),
            NumericEffect::Increase { by, .. } => Effect::increase_by(target, expr(by, names)),
        });
    }
    if let Some(cost) = &n.cost {
        action = action.cost_fn(state_cost(cost, slots));
    }
    Some(action)
}

/// How each fact of `ground` is held: with `packing`, the facts of a group
/// of two or more as the values of one string variable (`group N`), the
/// others as bools named after themselves.
fn fact_vars(ground: &GroundTask, packing: Option<&Packing>) -> Vec<FactVar> {
    let mut facts: Vec<Option<FactVar>> = (0..ground.facts.len()).map(|_| None).collect();
    let groups = packing.into_iter().flat_map(Packing::groups);
    for (i, group) in groups.filter(|g| g.len() > 1).enumerate() {
        let var = format!("group {i}");
        for &f in group {
            facts[f as usize] = Some(FactVar::Member {
                var: var.clone(),
                value: ground.facts[f as usize].clone(),
            });
        }
    }
    facts
        .into_iter()
        .zip(&ground.facts)
        .map(|(fact, name)| fact.unwrap_or_else(|| FactVar::Bool(name.clone())))
        .collect()
}

/// Per fluent: whether it stays a whole number: its initial value is one,
/// and every effect on it adds or assigns whole multiples of whole fluents
/// plus a whole constant (a fixpoint: a fluent fed by a fractional one is
/// fractional too).
fn whole_fluents(ground: &GroundTask) -> Vec<bool> {
    let Some(numeric) = ground.numeric.as_deref() else {
        return Vec::new();
    };
    let whole = |v: f64| exact(v).is_some();
    let mut int: Vec<bool> = numeric.init.iter().map(|&v| whole(v)).collect();
    let effects = || {
        ground
            .operators
            .iter()
            .filter_map(|o| o.numeric.as_deref())
            .flat_map(|n| &n.effects)
    };
    loop {
        let mut changed = false;
        for e in effects() {
            let f = e.fluent() as usize;
            let expr = e.expr();
            let stays = whole(expr.constant)
                && expr.terms.iter().all(|&(g, c)| whole(c) && int[g as usize]);
            if int[f] && !stays {
                int[f] = false;
                changed = true;
            }
        }
        if !changed {
            return int;
        }
    }
}

/// A linear expression by the factored variables' names, its whole
/// numbers as integers, so that an expression over int fluents stays in
/// exact arithmetic (which regression needs).
fn expr(e: &LinearExpr, names: &[String]) -> Expr {
    let scaled = |term: Expr, c: f64| match exact(c) {
        Some(whole) => term * whole,
        None => term * c,
    };
    e.terms
        .iter()
        .fold(scaled(Expr::constant(1), e.constant), |sum, &(f, c)| {
            sum + scaled(Expr::var(&names[f as usize]), c)
        })
}

/// `value` as an `i64` when it is a whole number `f64` holds exactly.
fn exact(value: f64) -> Option<i64> {
    const EXACT: f64 = 9_007_199_254_740_992.0; // 2^53
    #[expect(clippy::cast_possible_truncation, reason = "whole and below 2^53")]
    (value.fract() == 0.0 && value.abs() < EXACT).then_some(value as i64)
}

/// `expr op 0` as a factored predicate.
fn linear_predicate(c: &LinearCondition, names: &[String]) -> Predicate {
    use searchlab_pddl::Comparison;
    let op = match c.op {
        Comparison::Lt => Op::Lt,
        Comparison::Le => Op::Le,
        Comparison::Eq => Op::Eq,
        Comparison::Ge => Op::Ge,
        Comparison::Gt => Op::Gt,
    };
    Predicate::linear(expr(&c.expr, names), op, Expr::constant(0))
}

/// The goal of `ground`: its facts, its linear conditions and its
/// clauses.
fn goal_predicates(
    ground: &GroundTask,
    numeric: &NumericFluents,
    facts: &[FactVar],
    slots: &[Slot],
) -> Vec<Predicate> {
    let names = &numeric.names;
    let true_facts = ground.goal.iter().map(|&f| facts[f as usize].test(true));
    let false_facts = ground
        .goal_false
        .iter()
        .map(|&f| facts[f as usize].test(false));
    true_facts
        .chain(false_facts)
        .chain(numeric.goal.iter().map(|c| linear_predicate(c, names)))
        .chain(
            numeric
                .goal_clauses
                .iter()
                .map(|clause| clause_predicate(clause, names, slots)),
        )
        .collect()
}

/// A linear expression over a state's slots: evaluated in `f64`, as
/// [`searchlab_pddl::replay`] does.
#[derive(Clone)]
struct SlotExpr {
    terms: Vec<(Slot, f64)>,
    constant: f64,
}

impl SlotExpr {
    fn new(expr: &LinearExpr, slots: &[Slot]) -> Self {
        Self {
            terms: expr
                .terms
                .iter()
                .map(|&(f, c)| (slots[f as usize], c))
                .collect(),
            constant: expr.constant,
        }
    }

    fn value(&self, state: &State) -> f64 {
        self.terms.iter().fold(self.constant, |sum, &(slot, c)| {
            sum + c * match slot {
                #[expect(clippy::cast_precision_loss, reason = "fluents are far below 2^53")]
                Slot::Int(var) => state.int(var) as f64,
                Slot::Float(var) => state.float(var),
            }
        })
    }
}

/// A goal clause (at least one of its linear conditions holds) as a
/// custom predicate: the goal test is exact, heuristics count it 0 (a
/// relaxation, so admissible ones stay admissible), and regression
/// refuses it by name.
fn clause_predicate(clause: &[LinearCondition], names: &[String], slots: &[Slot]) -> Predicate {
    let text: Vec<String> = clause
        .iter()
        .map(|c| format!("{} {} 0", c.expr.display(names), c.op.symbol()))
        .collect();
    let parts: Vec<(SlotExpr, searchlab_pddl::Comparison)> = clause
        .iter()
        .map(|c| (SlotExpr::new(&c.expr, slots), c.op))
        .collect();
    Predicate::custom(
        &format!("goal clause {}", text.join(" or ")),
        move |state| {
            parts
                .iter()
                .any(|(expr, op)| op.holds(expr.value(state), 0.0))
        },
    )
}

/// A cost that depends on the state: the expression's value, rounded to a
/// whole number (at least 0).
fn state_cost(
    cost: &LinearExpr,
    slots: &[Slot],
) -> impl Fn(&State) -> Cost + Send + Sync + 'static {
    let cost = SlotExpr::new(cost, slots);
    move |state: &State| {
        let value = cost.value(state);
        #[expect(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            reason = "clamped to Cost's range"
        )]
        let cost = value.round().clamp(0.0, f64::from(Cost::MAX)) as Cost;
        cost
    }
}

/// What [`solve_numeric`] returns besides the report: the plan in IPC
/// form and the time it took.
pub(super) struct NumericRun {
    pub(super) report: PlanReport<usize>,
    pub(super) plan: Option<IpcPlan>,
    pub(super) elapsed: Duration,
    /// The search's exploration, if asked for.
    pub(super) trace: Option<PlanTrace>,
}

/// Plans `ground` on the factored state and replays the plan found on the
/// ground task ([`searchlab_pddl::replay`]); with `trace`, records the
/// search's exploration ([`Planner::plan_traced`]).
pub(super) fn solve_numeric(
    ground: &GroundTask,
    config: &PlannerConfig,
    trace: bool,
) -> Result<NumericRun, SolveError> {
    let began = Instant::now();
    let deadline = config.limits.max_time.map(|t| began + t);
    let packing = mutexes(ground, config, deadline).map(|m| Packing::new(ground, &m));
    let task = NumericTask::grouped(ground, packing.as_ref())?;
    let planner = Planner::new(config.clone());
    let (report, trace) = if trace {
        planner.plan_traced(&task.domain, &task.start, &task.goal)?
    } else {
        (planner.plan(&task.domain, &task.start, &task.goal)?, None)
    };
    let plan = match report.outcome.plan() {
        Some(p) => {
            let ipc = task.to_ipc(&p.actions, p.cost);
            searchlab_pddl::replay(ground, &ipc)?;
            Some(ipc)
        }
        None => None,
    };
    Ok(NumericRun {
        report: report.map_actions(ActionId::index),
        plan,
        elapsed: began.elapsed(),
        trace,
    })
}

/// `ground`'s `h^2` mutexes for grouping its facts, or `None` (facts stay
/// bools) past `deadline` or where their tables would take more than a
/// quarter of the memory limit.
fn mutexes(
    ground: &GroundTask,
    config: &PlannerConfig,
    deadline: Option<Instant>,
) -> Option<Mutexes> {
    let tables = Mutexes::bytes_to_find(ground.facts.len());
    if config
        .limits
        .max_memory_bytes
        .is_some_and(|limit| tables > limit / 4)
    {
        return None;
    }
    h2_mutexes_until(ground, deadline)
}
