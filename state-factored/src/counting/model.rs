//! The integer program of operator counting: one count per action, the rows
//! every plan from a state to a goal satisfies (flows, goal achievers,
//! forbidden actions) and the implications of the preconditions the state
//! violates. What each row means is in `OperatorCounting`'s documentation.
//! What the domain fixes is computed once; the rows and implications are
//! posed again for each state and goal.

use std::mem::size_of;

use super::TOLERANCE;
use crate::constraint::Constraint;
use crate::effect::{classify, Change};
use crate::linear::AtLeast;
use crate::simplex::Simplex;
use crate::value::key_int;
use crate::{Domain, State, VarType};

/// Ints and steps larger than these are left out of the flow rows, so
/// that `f64` arithmetic on them stays exact.
const LARGEST_VALUE: f64 = 1_125_899_906_842_624.0; // 2^50
const LARGEST_STEP: f64 = 1_099_511_627_776.0; // 2^40

/// A variable whose largest step is more than this many times its smallest
/// gets no flow rows: such rows make the simplex pivot on entries too small
/// to trust (a relaxation, so still admissible).
const LARGEST_STEP_RATIO: f64 = 1_048_576.0; // 2^20

/// Terms `(action, coefficient)` of a row.
type Terms = Vec<(u32, f64)>;

/// An int variable changed only by additions and subtractions.
#[derive(Clone, Debug)]
struct Flow {
    /// Each action's net change, for the actions that change it.
    deltas: Terms,
    /// The least value an action that lowers it can leave (`-inf` when one
    /// lowers it without a lower bound in its preconditions; `+inf` when
    /// none lowers it), and likewise the largest one that raises it can.
    floor: f64,
    ceiling: f64,
}

/// One variable as the program sees it.
#[derive(Clone, Debug)]
struct Variable {
    /// Every action's change of it, all its effects on it taken together.
    changes: Vec<(u32, Change)>,
    flow: Option<Flow>,
}

/// A precondition, with what a plan must contain before its action can
/// occur when a state violates it.
#[derive(Clone, Debug)]
struct Precondition<'a> {
    action: u32,
    var: u32,
    constraint: &'a Constraint,
    /// Flow variables: the increases by the other actions (the value must
    /// rise to the bound), the decreases, and every other mover.
    up: Terms,
    down: Terms,
    /// Any other action that can bring the variable into the constraint.
    achievers: Terms,
}

impl Precondition<'_> {
    fn terms(&self, need: Need) -> &[(u32, f64)] {
        match need {
            Need::Up => &self.up,
            Need::Down => &self.down,
            Need::Any => &self.achievers,
        }
    }
}

/// An implication of the state: if any of `actions` occurs, the `need`
/// terms of precondition `pre` sum to `rhs` or more (the preconditions
/// that ask the same of the state share one).
#[derive(Clone, Debug, Default)]
pub(super) struct Implication {
    pub(super) actions: Vec<u32>,
    pre: usize,
    need: Need,
    pub(super) rhs: f64,
}

/// Which consequent of a violated precondition applies.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Need {
    /// The other actions' increases of a flow variable.
    Up,
    /// Their decreases.
    Down,
    /// At least one achiever.
    #[default]
    Any,
}

/// A linear goal condition over flow variables, `Σ w_i v_i + k >= 0`, and
/// what each action adds to its sum.
#[derive(Clone, Debug)]
pub(super) struct LinearGoal {
    terms: Vec<(u32, f64)>,
    k: f64,
    deltas: Terms,
}

/// A row of the model, `terms >= rhs`.
#[derive(Clone, Copy, Debug)]
pub(super) enum Row {
    /// Variable `v`'s deltas times a sign.
    Flow(usize, f64, f64),
    /// An achiever of a goal condition, from the goal terms in this range
    /// (`rhs` 1), or nothing when the state meets it (`rhs` 0).
    Goal(usize, usize, f64),
    /// The action never occurs.
    Forbid(u32),
}

impl Row {
    /// The right-hand side.
    pub(super) fn rhs(self) -> f64 {
        match self {
            Row::Flow(_, _, rhs) | Row::Goal(_, _, rhs) => rhs,
            Row::Forbid(_) => 0.0,
        }
    }

    /// Whether `self` and `other` have the same terms (their right-hand
    /// sides may differ).
    pub(super) fn same_terms(self, other: Row) -> bool {
        match (self, other) {
            (Row::Flow(v, sign, _), Row::Flow(w, other_sign, _)) => {
                v == w && (sign > 0.0) == (other_sign > 0.0)
            }
            (Row::Goal(start, end, _), Row::Goal(other_start, other_end, _)) => {
                (start, end) == (other_start, other_end)
            }
            (Row::Forbid(a), Row::Forbid(b)) => a == b,
            _ => false,
        }
    }
}

/// The integer program: what the domain fixes, and the rows and
/// implications of the state and goal last posed.
#[derive(Clone, Debug)]
pub(super) struct Model<'a> {
    /// Each action's cost: the objective.
    costs: Vec<f64>,
    variables: Vec<Variable>,
    preconditions: Vec<Precondition<'a>>,
    /// Actions with custom effects: they may achieve anything.
    wildcards: Terms,
    rows: Vec<Row>,
    /// The goal rows' terms.
    goal_terms: Terms,
    /// The implications of the current state are the first `live`.
    implications: Vec<Implication>,
    live: usize,
    /// What the per-action tables hold (counted once: they are large on
    /// large tasks, and the engine asks for the bytes before each step).
    fixed_bytes: usize,
}

impl<'a> Model<'a> {
    /// Allocated bytes: the per-action tables made once, and the rows and
    /// implications of the state posed last.
    pub(super) fn bytes(&self) -> usize {
        let implications: usize = self
            .implications
            .iter()
            .map(|i| i.actions.capacity() * size_of::<u32>())
            .sum();
        self.fixed_bytes
            + self.goal_terms.capacity() * size_of::<(u32, f64)>()
            + self.rows.capacity() * size_of::<Row>()
            + self.implications.capacity() * size_of::<Implication>()
            + implications
    }

    /// The bytes of the per-action tables, which do not change once made.
    fn per_action_bytes(&self) -> usize {
        let term = size_of::<(u32, f64)>();
        let variables: usize = self
            .variables
            .iter()
            .map(|v| {
                v.changes.capacity() * size_of::<(u32, Change)>()
                    + v.flow.as_ref().map_or(0, |f| f.deltas.capacity() * term)
            })
            .sum();
        let preconditions: usize = self
            .preconditions
            .iter()
            .map(|p| (p.up.capacity() + p.down.capacity() + p.achievers.capacity()) * term)
            .sum();
        self.costs.capacity() * size_of::<f64>()
            + self.variables.capacity() * size_of::<Variable>()
            + variables
            + self.preconditions.capacity() * size_of::<Precondition<'_>>()
            + preconditions
            + self.wildcards.capacity() * term
    }

    /// The program of `domain`, with no rows until one is posed.
    pub(super) fn new(domain: &'a Domain) -> Self {
        let actions = domain.actions();
        let index = |a: usize| u32::try_from(a).unwrap_or(u32::MAX);
        let wildcards: Terms = (0..actions.len())
            .filter(|&a| actions[a].has_custom_effect())
            .map(|a| (index(a), 1.0))
            .collect();
        let mut variables: Vec<Variable> = domain
            .schema()
            .vars()
            .map(|_| Variable {
                changes: Vec::new(),
                flow: None,
            })
            .collect();
        let types: Vec<VarType> = domain
            .schema()
            .vars()
            .map(crate::schema::Var::var_type)
            .collect();
        for (a, action) in actions.iter().enumerate() {
            for (v, chain) in &action.chains {
                if let Some(change) = classify(chain, types[*v as usize]) {
                    variables[*v as usize].changes.push((index(a), change));
                }
            }
        }
        for (v, variable) in variables.iter_mut().enumerate() {
            if wildcards.is_empty() && types[v] == VarType::Int {
                variable.flow = flow(domain, index(v), &variable.changes);
            }
        }
        let mut preconditions = Vec::new();
        for (a, action) in actions.iter().enumerate() {
            for (v, constraint) in &action.pre_constraints {
                let variable = &variables[*v as usize];
                let others = |keep: &dyn Fn(f64) -> bool| -> Terms {
                    variable
                        .flow
                        .iter()
                        .flat_map(|f| f.deltas.iter())
                        .filter(|&&(b, d)| b != index(a) && keep(d))
                        .map(|&(b, d)| (b, d.abs()))
                        .collect()
                };
                preconditions.push(Precondition {
                    action: index(a),
                    var: *v,
                    constraint,
                    up: others(&|d| d > 0.0),
                    down: others(&|d| d < 0.0),
                    achievers: {
                        let mut terms = Vec::new();
                        achievers(variable, constraint, &wildcards, Some(index(a)), &mut terms);
                        terms
                    },
                });
            }
        }
        let mut model = Self {
            costs: actions.iter().map(|a| f64::from(a.cost())).collect(),
            variables,
            preconditions,
            wildcards,
            rows: Vec::new(),
            goal_terms: Vec::new(),
            implications: Vec::new(),
            live: 0,
            fixed_bytes: 0,
        };
        model.fixed_bytes = model.per_action_bytes();
        model
    }

    /// Each action's cost: the objective's coefficients.
    pub(super) fn costs(&self) -> &[f64] {
        &self.costs
    }

    /// The rows of the program posed last.
    pub(super) fn rows(&self) -> &[Row] {
        &self.rows
    }

    /// The implications of the program posed last.
    pub(super) fn implications(&self) -> &[Implication] {
        &self.implications[..self.live]
    }

    /// The terms that sum to `implication.rhs` or more if any of its
    /// actions occurs.
    pub(super) fn consequent(&self, implication: &Implication) -> &[(u32, f64)] {
        self.preconditions[implication.pre].terms(implication.need)
    }

    /// The rows every plan from `state` to `goal` satisfies, and the
    /// implications of the preconditions `state` violates; `false` if a
    /// goal condition can never be brought about.
    pub(super) fn pose(
        &mut self,
        state: &State,
        goal: &[(u32, Constraint)],
        linear: &[LinearGoal],
    ) -> bool {
        self.rows.clear();
        self.goal_terms.clear();
        self.live = 0;
        for (v, variable) in self.variables.iter().enumerate() {
            let Some(flow) = &variable.flow else {
                continue;
            };
            let now = value(state, v);
            if now.abs() > LARGEST_VALUE {
                continue;
            }
            let (mut lo, mut hi) = (now.min(flow.floor), now.max(flow.ceiling));
            for (_, constraint) in goal.iter().filter(|(g, _)| *g as usize == v) {
                let (goal_lo, goal_hi) = hull(constraint);
                (lo, hi) = (lo.max(goal_lo), hi.min(goal_hi));
            }
            if lo > hi {
                return false;
            }
            if lo.is_finite() {
                self.rows.push(Row::Flow(v, 1.0, lo - now));
            }
            if hi.is_finite() {
                self.rows.push(Row::Flow(v, -1.0, now - hi));
            }
        }
        for (v, constraint) in goal {
            let variable = &self.variables[*v as usize];
            if variable.flow.is_some() {
                continue;
            }
            // A met goal keeps its row, with nothing asked, so that every
            // state of one goal has rows of the same shape.
            let rhs = if constraint.allows(state.slot(*v as usize)) {
                0.0
            } else {
                1.0
            };
            let start = self.goal_terms.len();
            achievers(
                variable,
                constraint,
                &self.wildcards,
                None,
                &mut self.goal_terms,
            );
            if self.goal_terms.len() == start && rhs > 0.0 {
                return false;
            }
            self.rows.push(Row::Goal(start, self.goal_terms.len(), rhs));
        }
        for goal in linear {
            if !self.pose_linear(state, goal) {
                return false;
            }
        }
        for (p, pre) in self.preconditions.iter().enumerate() {
            let slot = state.slot(pre.var as usize);
            if pre.constraint.allows(slot) {
                continue;
            }
            // Contradictory preconditions (`x >= 5` and `x <= 3`): the
            // action never applies.
            if pre.constraint.is_empty() {
                self.rows.push(Row::Forbid(pre.action));
                continue;
            }
            let now = value(state, pre.var as usize);
            let (need, rhs) = match self.variables[pre.var as usize].flow {
                Some(_) if now.abs() <= LARGEST_VALUE => {
                    let (lo, hi) = hull(pre.constraint);
                    if now < lo {
                        (Need::Up, lo - now)
                    } else if now > hi {
                        (Need::Down, now - hi)
                    } else {
                        (Need::Any, 1.0)
                    }
                }
                _ => (Need::Any, 1.0),
            };
            let terms = pre.terms(need);
            if terms.is_empty() {
                self.rows.push(Row::Forbid(pre.action));
                continue;
            }
            let same = self.implications[..self.live].iter_mut().find(|i| {
                i.rhs.to_bits() == rhs.to_bits() && self.preconditions[i.pre].terms(i.need) == terms
            });
            if let Some(same) = same {
                same.actions.push(pre.action);
                continue;
            }
            if self.live == self.implications.len() {
                self.implications.push(Implication::default());
            }
            let implication = &mut self.implications[self.live];
            implication.actions.clear();
            implication.actions.push(pre.action);
            (implication.pre, implication.need, implication.rhs) = (p, need, rhs);
            self.live += 1;
        }
        true
    }

    /// The linear goal conditions `Σ w_i v_i + k >= 0` among `conds` whose
    /// variables are all flows, each with what every action adds to its sum
    /// (`δ_a = Σ_i w_i Δ_a(v_i)`): they depend on the goal alone, so they
    /// are found once per goal. A condition over a variable that an
    /// assignment or an expression moves poses no row.
    pub(super) fn linear_goals(&self, conds: impl IntoIterator<Item = AtLeast>) -> Vec<LinearGoal> {
        let mut goals = Vec::new();
        'conds: for (terms, k) in conds {
            let mut deltas: Terms = Vec::new();
            for &(v, w) in &terms {
                let Some(flow) = &self.variables[v as usize].flow else {
                    continue 'conds;
                };
                deltas.extend(flow.deltas.iter().map(|&(a, d)| (a, w * d)));
            }
            deltas.sort_unstable_by_key(|t| t.0);
            let mut merged: Terms = Vec::with_capacity(deltas.len());
            for (a, d) in deltas {
                match merged.last_mut() {
                    Some(last) if last.0 == a => last.1 += d,
                    _ => merged.push((a, d)),
                }
            }
            merged.retain(|t| t.1.abs() > 1e-12);
            goals.push(LinearGoal {
                terms,
                k,
                deltas: merged,
            });
        }
        goals
    }

    /// The row of a linear goal: its sum ends at its value in `state` plus
    /// `Σ_a δ_a x_a`, so `Σ_a δ_a x_a` must reach what the state lacks.
    /// `false` when no plan can meet it.
    fn pose_linear(&mut self, state: &State, goal: &LinearGoal) -> bool {
        let mut now = goal.k;
        for &(v, w) in &goal.terms {
            let value = value(state, v as usize);
            if value.abs() > LARGEST_VALUE {
                return true;
            }
            now += w * value;
        }
        let need = -now;
        if goal.deltas.is_empty() {
            return need <= TOLERANCE;
        }
        let start = self.goal_terms.len();
        self.goal_terms.extend_from_slice(&goal.deltas);
        self.rows
            .push(Row::Goal(start, self.goal_terms.len(), need));
        true
    }

    /// Adds row `r` of the model to the tableau `lp`.
    pub(super) fn push_row(&self, r: usize, lp: &mut Simplex) {
        match self.rows[r] {
            Row::Flow(v, sign, rhs) => {
                let flow = self.variables[v].flow.as_ref();
                let deltas = flow.map_or(&[][..], |f| &f.deltas);
                lp.push_row(deltas.iter().map(|&(a, d)| (a, sign * d)), rhs);
            }
            Row::Goal(start, end, rhs) => {
                lp.push_row(self.goal_terms[start..end].iter().copied(), rhs);
            }
            Row::Forbid(a) => lp.push_row([(a, -1.0)], 0.0),
        }
    }

    /// Whether the counts `x` satisfy every row and every implication of the
    /// program posed last.
    pub(super) fn admits(&self, x: &[f64]) -> bool {
        let sum =
            |terms: &[(u32, f64)]| -> f64 { terms.iter().map(|&(j, a)| a * x[j as usize]).sum() };
        for row in &self.rows {
            let holds = match *row {
                Row::Flow(v, sign, rhs) => {
                    let deltas = self.variables[v]
                        .flow
                        .as_ref()
                        .map_or(&[][..], |f| &f.deltas);
                    sign * sum(deltas) >= rhs - TOLERANCE
                }
                Row::Goal(start, end, rhs) => sum(&self.goal_terms[start..end]) >= rhs - TOLERANCE,
                Row::Forbid(a) => x[a as usize] <= TOLERANCE,
            };
            if !holds {
                return false;
            }
        }
        for implication in self.implications() {
            let occurs = implication
                .actions
                .iter()
                .any(|&a| x[a as usize] > TOLERANCE);
            if occurs && sum(self.consequent(implication)) < implication.rhs - TOLERANCE {
                return false;
            }
        }
        true
    }
}

/// An int variable's value in `state`, as a float.
#[expect(clippy::cast_precision_loss, reason = "values beyond 2^50 are skipped")]
fn value(state: &State, v: usize) -> f64 {
    key_int(state.slot(v)) as f64
}

/// The smallest interval holding an int constraint's values, `±inf` where
/// it is unbounded.
#[expect(
    clippy::cast_precision_loss,
    reason = "an outer bound may round outwards only as far as the next float"
)]
fn hull(constraint: &Constraint) -> (f64, f64) {
    let Constraint::Int(set) = constraint else {
        return (f64::NEG_INFINITY, f64::INFINITY);
    };
    let (Some(&(lo, _)), Some(&(_, hi))) = (set.0.first(), set.0.last()) else {
        return (f64::INFINITY, f64::NEG_INFINITY);
    };
    let lo = match key_int(lo) {
        i64::MIN => f64::NEG_INFINITY,
        lo if (lo as f64).abs() > LARGEST_VALUE => f64::NEG_INFINITY,
        lo => lo as f64,
    };
    let hi = match key_int(hi) {
        i64::MAX => f64::INFINITY,
        hi if (hi as f64).abs() > LARGEST_VALUE => f64::INFINITY,
        hi => hi as f64,
    };
    (lo, hi)
}

/// The flow of int variable `v` from its changes, if only additions and
/// subtractions change it.
fn flow(domain: &Domain, v: u32, changes: &[(u32, Change)]) -> Option<Flow> {
    let mut flow = Flow {
        deltas: Vec::new(),
        floor: f64::INFINITY,
        ceiling: f64::NEG_INFINITY,
    };
    for &(a, change) in changes {
        let Change::Delta(d) = change else {
            return None;
        };
        if d.abs() > LARGEST_STEP {
            return None;
        }
        let pre = domain.actions()[a as usize]
            .pre_constraints
            .iter()
            .find(|(w, _)| *w == v)
            .map_or((f64::NEG_INFINITY, f64::INFINITY), |(_, c)| hull(c));
        if d < 0.0 {
            flow.floor = flow.floor.min(pre.0 + d);
        } else {
            flow.ceiling = flow.ceiling.max(pre.1 + d);
        }
        flow.deltas.push((a, d));
    }
    let steps = flow.deltas.iter().map(|&(_, d)| d.abs());
    let (least, largest) = steps.fold((f64::INFINITY, 0.0_f64), |(lo, hi), d| {
        (lo.min(d), hi.max(d))
    });
    if largest > least * LARGEST_STEP_RATIO {
        return None;
    }
    Some(flow)
}

/// Appends to `terms` the actions (but `except`) whose changes of
/// `variable` could leave it inside `constraint`, and the wildcards.
fn achievers(
    variable: &Variable,
    constraint: &Constraint,
    wildcards: &Terms,
    except: Option<u32>,
    terms: &mut Terms,
) {
    let start = terms.len();
    let possible = variable
        .changes
        .iter()
        .filter(|&&(_, change)| match change {
            Change::Const(slot) => constraint.allows(slot),
            Change::Delta(_) | Change::Any => true,
        })
        .map(|&(a, _)| (a, 1.0))
        .chain(wildcards.iter().copied())
        .filter(|&(a, _)| Some(a) != except);
    terms.extend(possible);
    terms[start..].sort_unstable_by_key(|&(a, _)| a);
    let mut kept = start;
    for i in start..terms.len() {
        if kept == start || terms[kept - 1].0 != terms[i].0 {
            terms[kept] = terms[i];
            kept += 1;
        }
    }
    terms.truncate(kept);
}
