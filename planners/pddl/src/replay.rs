//! Replaying a plan on a ground task, numeric fluents included, with
//! PDDL 2.1's semantics: a step applies when its facts and conditions hold
//! in the state before it; its effects all read that state; the goal must
//! hold after the last step. This checks plans apart from any search
//! code: searchlab's own and a peer's (ENHSP, Fast Downward).

use rustc_hash::FxHashMap;

use crate::numeric::LinearCondition;
use crate::{GroundOperator, GroundTask, IpcPlan, Location, NumericEffect, PddlError};

/// What a valid plan costs: the value of the task's metric after it, the
/// sum of its steps' costs (its length without a metric), in the metric's
/// units (a task's scaled costs divided by its
/// [`cost_scale`](GroundTask::cost_scale)).
pub type PlanCost = f64;

/// Replays `plan` on `task` from its initial state and checks the goal:
/// the plan's cost, or a located error naming the first step that does not
/// apply (and the fact or condition that fails) or what of the goal is not
/// reached. Steps are matched by name (`action arg ...`, lower case); of
/// the ground operators of one name (the variants of an ADL action), the
/// first that applies is taken.
///
/// # Errors
/// [`PddlError::Plan`] at the step that is no action of the task or does
/// not apply (naming the fact or condition that fails), or at the last step
/// for a goal not reached; and for a task with axioms (`:derived`), which
/// the planner's validator (`planners::pddl`) evaluates instead.
///
/// ```
/// use searchlab_pddl::{ground, parse_domain, parse_problem, replay, GroundingLimits, IpcPlan};
/// let domain = parse_domain("d", "(define (domain d) (:requirements :numeric-fluents)
///   (:functions (x) (limit))
///   (:action up :parameters () :precondition (< (x) (limit)) :effect (increase (x) 0.1)))").unwrap();
/// let problem = parse_problem(&domain, "p", "(define (problem p) (:domain d)
///   (:init (= (x) 0) (= (limit) 1)) (:goal (= (x) 0.3)))").unwrap();
/// let task = ground(&domain, &problem, GroundingLimits::default()).unwrap();
/// let plan = IpcPlan::parse("plan", "(up)\n(up)\n(up)\n").unwrap();
/// assert_eq!(replay(&task, &plan).unwrap(), 3.0);
/// let short = IpcPlan::parse("plan", "(up)\n(up)\n").unwrap();
/// assert!(replay(&task, &short).unwrap_err().to_string().contains("goal"));
/// ```
pub fn replay(task: &GroundTask, plan: &IpcPlan) -> Result<PlanCost, PddlError> {
    let error = |at: Location, message: String| PddlError::Plan {
        file: plan.file.clone(),
        at,
        message,
    };
    if !task.axioms.is_empty() {
        return Err(error(
            Location::default(),
            "the task has axioms (`:derived`): replay it with the planner's validator".to_owned(),
        ));
    }
    let mut by_name: FxHashMap<&str, Vec<&GroundOperator>> = FxHashMap::default();
    for o in &task.operators {
        by_name.entry(o.name.as_str()).or_default().push(o);
    }
    let names = task.numeric.as_ref().map_or(&[][..], |n| &n.names[..]);
    let mut facts = vec![false; task.facts.len()];
    for &f in &task.init {
        facts[f as usize] = true;
    }
    let mut values = task
        .numeric
        .as_ref()
        .map_or_else(Vec::new, |n| n.init.clone());
    let mut cost = 0.0;
    for step in &plan.steps {
        let Some(candidates) = by_name.get(step.name.as_str()) else {
            return Err(error(
                step.at,
                format!("`({})` is no action of the task", step.name),
            ));
        };
        let mut why_not = String::new();
        let applied = candidates
            .iter()
            .find(|o| match first_failure(task, o, &facts, &values) {
                None => true,
                Some(reason) => {
                    if why_not.is_empty() {
                        why_not = reason;
                    }
                    false
                }
            });
        let Some(o) = applied else {
            return Err(error(
                step.at,
                format!("`({})` does not apply: {why_not}", step.name),
            ));
        };
        cost += match o.numeric.as_ref().and_then(|n| n.cost.as_ref()) {
            Some(expr) => expr.eval(&values),
            None => f64::from(o.cost),
        };
        apply(o, &mut facts, &mut values);
    }
    let end = plan.steps.last().map_or(Location::default(), |s| s.at);
    for &f in &task.goal {
        if !facts[f as usize] {
            return Err(error(
                end,
                format!(
                    "the goal is not reached: {} is false",
                    task.facts[f as usize]
                ),
            ));
        }
    }
    for &f in &task.goal_false {
        if facts[f as usize] {
            return Err(error(
                end,
                format!(
                    "the goal is not reached: {} is true",
                    task.facts[f as usize]
                ),
            ));
        }
    }
    if let Some(numeric) = &task.numeric {
        if let Some(c) = numeric.goal.iter().find(|c| !c.holds(&values)) {
            return Err(error(
                end,
                format!("the goal is not reached: {}", failed(c, names, &values)),
            ));
        }
        if let Some(clause) = numeric
            .goal_clauses
            .iter()
            .find(|clause| !clause.iter().any(|c| c.holds(&values)))
        {
            let each: Vec<String> = clause.iter().map(|c| failed(c, names, &values)).collect();
            return Err(error(
                end,
                format!("the goal is not reached: none of {}", each.join("; ")),
            ));
        }
    }
    Ok(cost / f64::from(task.cost_scale.max(1)))
}

/// Why `o` does not apply in a state, or `None` if it does.
fn first_failure(
    task: &GroundTask,
    o: &GroundOperator,
    facts: &[bool],
    values: &[f64],
) -> Option<String> {
    if let Some(&f) = o.pre.iter().find(|&&f| !facts[f as usize]) {
        return Some(format!("{} is false", task.facts[f as usize]));
    }
    if let Some(&f) = o.neg_pre.iter().find(|&&f| facts[f as usize]) {
        return Some(format!("{} is true", task.facts[f as usize]));
    }
    let names = task.numeric.as_ref().map_or(&[][..], |n| &n.names[..]);
    let numeric = o.numeric.as_deref()?;
    numeric
        .conditions
        .iter()
        .find(|c| !c.holds(values))
        .map(|c| failed(c, names, values))
}

/// A condition that does not hold, with the values it read.
fn failed(c: &LinearCondition, names: &[String], values: &[f64]) -> String {
    let read: Vec<String> = c
        .expr
        .fluents()
        .map(|f| format!("{} = {}", names[f as usize], values[f as usize]))
        .collect();
    format!(
        "{} {} 0 does not hold ({})",
        c.expr.display(names),
        c.op.symbol(),
        read.join(", ")
    )
}

/// Applies `o`: deletes, then adds, the conditional effects' among them
/// where their conditions hold before; numeric effects read the state
/// before.
fn apply(o: &GroundOperator, facts: &mut [bool], values: &mut [f64]) {
    let fired: Vec<_> = o
        .effects
        .iter()
        .filter(|e| {
            e.pre.iter().all(|&f| facts[f as usize])
                && !e.neg_pre.iter().any(|&f| facts[f as usize])
        })
        .collect();
    for &f in o.del.iter().chain(fired.iter().flat_map(|e| &e.del)) {
        facts[f as usize] = false;
    }
    for &f in o.add.iter().chain(fired.iter().flat_map(|e| &e.add)) {
        facts[f as usize] = true;
    }
    let Some(numeric) = o.numeric.as_deref() else {
        return;
    };
    let before = values.to_vec();
    for effect in &numeric.effects {
        let slot = effect.fluent() as usize;
        match effect {
            NumericEffect::Assign { value, .. } => values[slot] = value.eval(&before),
            NumericEffect::Increase { by, .. } => values[slot] += by.eval(&before),
        }
    }
}
