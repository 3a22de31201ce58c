//! Numeric `h_max`: an admissible relaxed-reachability heuristic that looks
//! through the preconditions of the actions behind each goal, and counts
//! repeated numeric effects.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use search_core::{Estimate, Heuristic};

use crate::constraint::{Check, Constraint};
use crate::effect::{classify, Change};
use crate::{Cost, Domain, Goal, NumericRmax, State, Subgoal, VarType};

/// How an enabled action can bring a condition about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Offer {
    /// By setting its variable: `P(a) + cost(a)`.
    Jump,
    /// By repeated additions, or subtractions: `P(a) + K(Δ)`.
    Up,
    Down,
}

/// "Unreachable" in the cost tables.
const INF: u64 = u64::MAX;

/// Relative slack on step counts, so that float error never rounds a
/// bound up past the truth.
const SLACK: f64 = 1e-9;

/// The cheapest way to move a variable by repeated additions in one
/// direction, from the actions that move it that way.
#[derive(Clone, Debug, Default)]
struct Mover {
    /// The actions.
    actions: Vec<u32>,
    /// The least cost per unit of change.
    ratio: f64,
    /// The largest change of one action.
    max_step: f64,
    /// The cheapest action's cost.
    min_cost: u64,
}

impl Mover {
    fn add(&mut self, action: u32, step: f64, cost: u64) {
        #[expect(clippy::cast_precision_loss, reason = "costs up to 2^32 are exact")]
        let ratio = cost as f64 / step;
        if self.actions.is_empty() {
            (self.ratio, self.max_step, self.min_cost) = (ratio, step, cost);
        } else {
            self.ratio = self.ratio.min(ratio);
            self.max_step = self.max_step.max(step);
            self.min_cost = self.min_cost.min(cost);
        }
        self.actions.push(action);
    }

    /// [`bound`](Self::bound), or `INF` when there is no distance to cover
    /// this way or no action to cover it.
    fn bound_of(&self, distance: Option<f64>) -> u64 {
        match distance {
            Some(d) if !self.actions.is_empty() => self.bound(d),
            _ => INF,
        }
    }

    /// `K(distance)`: a lower bound on the total cost of applications of
    /// these actions whose changes add up to at least `distance`: at least
    /// one action, at least `distance` times the best cost per unit, and at
    /// least the fewest actions that can cover it times the cheapest cost
    /// (costs are integers, so each bound rounds up, after the slack).
    fn bound(&self, distance: f64) -> u64 {
        let steps = (distance / self.max_step * (1.0 - SLACK)).ceil();
        #[expect(clippy::cast_precision_loss, reason = "costs up to 2^32 are exact")]
        let by_count = steps * self.min_cost as f64;
        let by_ratio = (distance * self.ratio * (1.0 - SLACK)).ceil();
        #[expect(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            reason = "saturating float-to-int of a non-negative bound"
        )]
        let bound = by_count.max(by_ratio) as u64;
        bound.max(self.min_cost)
    }
}

/// How the actions can change one variable.
#[derive(Clone, Debug, Default)]
struct Achievers {
    /// Actions that set it (to the slot, or anywhere for `None`).
    jumps: Vec<(u32, Option<u64>)>,
    /// Actions that add to it, and that subtract from it.
    up: Mover,
    down: Mover,
}

impl Achievers {
    fn is_additive(&self) -> bool {
        !self.up.actions.is_empty() || !self.down.actions.is_empty()
    }
}

/// A condition on one variable: a goal constraint or a precondition.
#[derive(Clone, Debug)]
struct Condition<'a> {
    var: u32,
    constraint: &'a Constraint,
    check: Option<Check>,
}

impl Condition<'_> {
    #[inline]
    fn holds(&self, state: &State) -> bool {
        let slot = state.slot(self.var as usize);
        match self.check {
            Some(check) => check.holds(slot),
            None => self.constraint.allows(slot),
        }
    }
}

/// Numeric `h_max`: the cost of the most expensive goal condition, where a
/// condition costs what its cheapest achievement costs and an action costs
/// its own cost plus its most expensive precondition, with repeated numeric
/// effects counted. Admissible, for both directions.
///
/// For a condition `v ∈ C` that a state violates, with `P(a)` the cost of
/// action `a`'s most expensive precondition, the cost is the least of:
///
/// - for each action `a` that sets `v` (or toggles it, or changes it by a
///   custom effect): `P(a) + cost(a)`; when nothing adds to `v`, only the
///   actions that can leave `v` inside `C` count;
/// - moving up by repeated additions, when `C` has values above `v`'s:
///   `min P(a) + K(Δ)` over the actions that add to `v`, where `Δ` is the
///   distance to the nearest allowed value above and `K(Δ)` the least cost
///   of additions summing to `Δ` (at least one action, at least `Δ` times
///   the best cost per unit, at least `⌈Δ / largest step⌉` times the
///   cheapest of them); likewise downwards.
///
/// A satisfied condition costs 0. `P(a)` is the largest cost of `a`'s
/// preconditions, or, if larger, the sum of their `K` bounds over one-sided
/// numeric preconditions (`x >= c`, `x <= c` on variables nothing sets)
/// whose moving actions are disjoint sets (chosen once per action, in
/// precondition order). The estimate is the same combination over the
/// goal's conditions (a dead end when one is unreachable).
///
/// **Why it is admissible.** Let `h*(s, q)` be the cost of a cheapest plan
/// from `s` to a state satisfying `q` (not necessarily at its end). Every
/// fixpoint cost is at most `h*`, by induction on the length of such a plan
/// `π` for a violated `v ∈ C`:
///
/// - If `π` sets `v`, let `a` be its first action that does. The prefix
///   before `a` reaches a state satisfying `a`'s preconditions, so it costs
///   at least each of their `h*`, hence (induction: the prefix is shorter)
///   at least `P(a)`; `a` costs `cost(a)`. When nothing adds to `v`, the
///   action that first brings `v` into `C` is such an `a`, and it leaves
///   `v` inside `C`.
/// - Otherwise only additions and subtractions change `v` along `π`; when
///   `v` first enters `C`, say above its start value, the additions so far
///   sum to at least `Δ`, so they cost at least `K(Δ)`, and the prefix
///   before the first of them costs at least `min P(a)` over the adders.
///   The prefix and the additions are disjoint parts of `π`.
///
/// Preconditions and goals hold all at once, so their conjunction costs at
/// least its most expensive condition; and a plan reaching one-sided
/// conditions whose movers are disjoint contains, for each, additions that
/// cost at least its `K`, in disjoint sets of steps, so it costs at least
/// their sum. The computed costs are a fixpoint of the equations: a
/// generalised Dijkstra settles conditions in order of cost, since every
/// candidate costs at least the precondition cost of the action that
/// offers it. Custom predicates count 0 (a relaxation); each
/// action's fixed cost must be a lower bound of its cost function, if it
/// has one; float additions are taken as exact up to a relative `1e-9`.
///
/// Not consistent in general; A* reopens nodes, so its plans stay optimal.
///
/// Forward, each evaluation settles the conditions from the node, stopping
/// once the goal's are settled (no allocation after the first); in
/// regression, the costs from the start are settled once, and each subgoal
/// costs one pass over its constraints.
///
/// Linear conditions over several variables are relaxed away here (a
/// condition dropped only makes the relaxation easier) and an expression
/// effect is an achiever that can set its variable to any value; where the
/// goal or a precondition has linear conditions, the estimate is the larger
/// of this one and [`NumericRmax`](crate::NumericRmax)'s, which costs them
/// (both admissible, so their maximum is; the property tests of
/// `tests/linear.rs` check it against Dijkstra). On numeric PDDL's
/// counters 1 that takes A* from 3,731 expansions to 317.
///
/// ```
/// use search_core::{astar, Estimate, Heuristic};
/// use state_factored::{Action, Domain, NumericHmax, Predicate, Schema, State};
/// let mut schema = Schema::new();
/// schema.int("gold").unwrap();
/// schema.bool("at_mine").unwrap();
/// schema.bool("armed").unwrap();
/// let mut domain = Domain::new(schema);
/// domain.add_action(Action::builder("walk").cost(2).set("at_mine", true)).unwrap();
/// domain
///     .add_action(Action::builder("mine").cost(3).pre(Predicate::eq("at_mine", true)).increase("gold", 25))
///     .unwrap();
/// domain
///     .add_action(Action::builder("buy").pre(Predicate::ge("gold", 60)).decrease("gold", 60).set("armed", true))
///     .unwrap();
/// let goal = domain.goal([Predicate::eq("armed", true)]).unwrap();
/// let start = domain.schema().state().set("gold", 20).build().unwrap();
/// let mut h = NumericHmax::new(&domain, &start, &goal);
/// // buy (1) after gold >= 60: walk (2), then mine twice (2 * 3).
/// assert_eq!(Heuristic::<State, u32>::estimate(&mut h, &start), Estimate::Value(9));
/// let plan = astar(&domain.forward(&goal), start.clone(), h).unwrap();
/// assert_eq!(plan.outcome.solution().unwrap().cost, 9);
/// ```
#[derive(Clone, Debug)]
pub struct NumericHmax<'a> {
    start: &'a State,
    conditions: Vec<Condition<'a>>,
    /// Whether each condition is one of the goal's, and how many there are.
    is_goal: Vec<bool>,
    goal_len: usize,
    /// Each action's cost and number of preconditions.
    actions: Vec<(u64, u32)>,
    /// The actions each condition is a precondition of.
    users: Table<u32>,
    /// What each action offers to which conditions.
    offers: Table<(u32, Offer)>,
    /// Per variable.
    achievers: Vec<Achievers>,
    /// For each action, and for the goal (the last row): one-sided numeric
    /// conditions (`x >= c` or `x <= c`, on variables nothing sets) whose
    /// movers no two share, each with its direction (`true` for up).
    disjoint: Table<(u32, bool)>,
    scratch: Scratch,
    /// Each action's precondition cost from the start, for regression;
    /// computed on first use.
    start_pre_cost: Option<Vec<u64>>,
    /// `h^rmax`, where the task has linear conditions this relaxation
    /// drops.
    linear: Option<Box<NumericRmax>>,
}

/// Rows of values, stored flat.
#[derive(Clone, Debug)]
struct Table<T> {
    starts: Vec<u32>,
    values: Vec<T>,
}

impl<T> Default for Table<T> {
    fn default() -> Self {
        Self {
            starts: vec![0],
            values: Vec::new(),
        }
    }
}

impl<T> Table<T> {
    /// Ends the row of the values pushed since the last row.
    fn end_row(&mut self) {
        self.starts
            .push(u32::try_from(self.values.len()).unwrap_or(u32::MAX));
    }

    fn from_rows(rows: Vec<Vec<T>>) -> Self {
        let mut table = Self::default();
        for row in rows {
            table.values.extend(row);
            table.end_row();
        }
        table
    }

    #[inline]
    fn row(&self, index: usize) -> &[T] {
        &self.values[self.starts[index] as usize..self.starts[index + 1] as usize]
    }
}

/// Per-evaluation buffers, kept between evaluations.
#[derive(Clone, Debug, Default)]
struct Scratch {
    /// Each condition's cost (tentative until settled).
    cost: Vec<u64>,
    settled: Vec<bool>,
    /// Each violated condition's `K` upwards and downwards (`INF` if that
    /// way is closed).
    up: Vec<u64>,
    down: Vec<u64>,
    /// Each action's unsettled preconditions, and its `P(a)` once enabled.
    waiting: Vec<u32>,
    pre_cost: Vec<u64>,
    queue: Buckets,
}

/// A monotone priority queue of conditions by cost: one bucket per small
/// cost, a heap beyond. Costs pushed never fall below the last popped one.
#[derive(Clone, Debug, Default)]
struct Buckets {
    slots: Vec<Vec<u32>>,
    current: usize,
    overflow: BinaryHeap<Reverse<(u64, u32)>>,
}

/// Costs below this go to buckets.
const BUCKETS: u64 = 1024;

impl Buckets {
    fn clear(&mut self) {
        for bucket in &mut self.slots {
            bucket.clear();
        }
        self.current = 0;
        self.overflow.clear();
    }

    #[inline]
    fn push(&mut self, cost: u64, q: usize) {
        let q = u32::try_from(q).unwrap_or(u32::MAX);
        match usize::try_from(cost) {
            Ok(c) if cost < BUCKETS => {
                if self.slots.len() <= c {
                    self.slots.resize_with(c + 1, Vec::new);
                }
                self.slots[c.max(self.current)].push(q);
            }
            _ => self.overflow.push(Reverse((cost, q))),
        }
    }

    #[inline]
    fn pop(&mut self) -> Option<(u64, usize)> {
        while let Some(bucket) = self.slots.get_mut(self.current) {
            if let Some(q) = bucket.pop() {
                return Some((self.current as u64, q as usize));
            }
            self.current += 1;
        }
        self.overflow
            .pop()
            .map(|Reverse((cost, q))| (cost, q as usize))
    }
}

/// The distinct conditions of the goal and the preconditions, the goal's
/// among them, and each action's.
fn conditions<'a>(
    domain: &'a Domain,
    goal: &'a Goal,
) -> (Vec<Condition<'a>>, Vec<u32>, Table<u32>) {
    let mut conditions: Vec<Condition<'a>> = Vec::new();
    let mut intern = |var: u32, constraint: &'a Constraint| -> u32 {
        let at = conditions
            .iter()
            .position(|c| c.var == var && *c.constraint == *constraint)
            .unwrap_or_else(|| {
                let check = match constraint.to_check(var) {
                    Some(Ok(check)) => Some(check),
                    _ => None,
                };
                conditions.push(Condition {
                    var,
                    constraint,
                    check,
                });
                conditions.len() - 1
            });
        u32::try_from(at).unwrap_or(u32::MAX)
    };
    let goal_conditions: Vec<u32> = goal
        .constraints
        .iter()
        .map(|(v, c)| intern(*v, c))
        .collect();
    let mut pre = Table::default();
    for action in domain.actions() {
        for (v, c) in &action.pre_constraints {
            pre.values.push(intern(*v, c));
        }
        pre.end_row();
    }
    (conditions, goal_conditions, pre)
}

/// For each action, the conditions its changes can bring about, and how: a
/// set counts for every condition on its variable when additions also
/// change it (a set to any value may start the way in), and otherwise only
/// where it lands inside the condition.
fn offers(
    conditions: &[Condition<'_>],
    achievers: &[Achievers],
    changes: &Table<(u32, Change)>,
    vars: usize,
) -> Table<(u32, Offer)> {
    let mut on_var: Vec<Vec<u32>> = vec![Vec::new(); vars];
    for (q, c) in conditions.iter().enumerate() {
        on_var[c.var as usize].push(u32::try_from(q).unwrap_or(u32::MAX));
    }
    let mut offers = Table::default();
    for a in 0..changes.starts.len() - 1 {
        for &(v, change) in changes.row(a) {
            let additive = achievers[v as usize].is_additive();
            for &q in &on_var[v as usize] {
                let offer = match change {
                    Change::Const(k)
                        if !additive && !conditions[q as usize].constraint.allows(k) =>
                    {
                        continue
                    }
                    Change::Const(_) | Change::Any => Offer::Jump,
                    Change::Delta(d) if d > 0.0 => Offer::Up,
                    Change::Delta(_) => Offer::Down,
                };
                offers.values.push((q, offer));
            }
        }
        offers.end_row();
    }
    offers
}

/// For each condition, the actions it is a precondition of.
fn users(pre: &Table<u32>, conditions: usize) -> Table<u32> {
    let mut rows: Vec<Vec<u32>> = vec![Vec::new(); conditions];
    for a in 0..pre.starts.len() - 1 {
        for &q in pre.row(a) {
            rows[q as usize].push(u32::try_from(a).unwrap_or(u32::MAX));
        }
    }
    Table::from_rows(rows)
}

/// How the actions change each variable, and each action's changes.
fn achievers(domain: &Domain, types: &[VarType]) -> (Vec<Achievers>, Table<(u32, Change)>) {
    let mut achievers = vec![Achievers::default(); types.len()];
    let mut changes = Table::default();
    for (index, action) in domain.actions().iter().enumerate() {
        let index = u32::try_from(index).unwrap_or(u32::MAX);
        let cost = u64::from(action.cost());
        if action.has_custom_effect() {
            for (v, entry) in achievers.iter_mut().enumerate() {
                entry.jumps.push((index, None));
                changes
                    .values
                    .push((u32::try_from(v).unwrap_or(u32::MAX), Change::Any));
            }
            changes.end_row();
            continue;
        }
        for (v, chain) in &action.chains {
            let entry = &mut achievers[*v as usize];
            let Some(change) = classify(chain, types[*v as usize]) else {
                continue;
            };
            match change {
                Change::Const(slot) => entry.jumps.push((index, Some(slot))),
                Change::Any => entry.jumps.push((index, None)),
                Change::Delta(d) if d > 0.0 => entry.up.add(index, d, cost),
                Change::Delta(d) => entry.down.add(index, -d, cost),
            }
            changes.values.push((*v, change));
        }
        changes.end_row();
    }
    (achievers, changes)
}

/// Among `qs`, the one-sided numeric conditions on variables nothing sets
/// whose movers share no action (greedily, in order), with their
/// directions; none if fewer than two (one bound alone never beats the
/// largest condition cost).
fn disjoint_conditions(
    conditions: &[Condition<'_>],
    achievers: &[Achievers],
    qs: &[u32],
) -> Vec<(u32, bool)> {
    let mut picked: Vec<(u32, bool)> = Vec::new();
    let mut used: Vec<u32> = Vec::new();
    for &q in qs {
        let c = &conditions[q as usize];
        let achievers = &achievers[c.var as usize];
        let Some(up) = c.constraint.one_sided() else {
            continue;
        };
        let mover = if up { &achievers.up } else { &achievers.down };
        if !achievers.jumps.is_empty() || mover.actions.iter().any(|a| used.contains(a)) {
            continue;
        }
        used.extend(&mover.actions);
        picked.push((q, up));
    }
    if picked.len() < 2 {
        picked.clear();
    }
    picked
}

impl<'a> NumericHmax<'a> {
    /// The heuristic for `domain` and `goal`; `start` is used only in
    /// regression.
    ///
    /// ```
    /// use search_core::{Estimate, Heuristic};
    /// use state_factored::{Domain, NumericHmax, Predicate, Schema, State};
    /// let mut schema = Schema::new();
    /// schema.bool("flag").unwrap();
    /// let domain = Domain::new(schema);
    /// let goal = domain.goal([Predicate::eq("flag", true)]).unwrap(); // nothing sets it
    /// let start = domain.schema().default_state();
    /// let mut h = NumericHmax::new(&domain, &start, &goal);
    /// assert_eq!(Heuristic::<State, u32>::estimate(&mut h, &start), Estimate::DeadEnd);
    /// assert!(Heuristic::<State, u32>::is_admissible(&h));
    /// ```
    pub fn new(domain: &'a Domain, start: &'a State, goal: &'a Goal) -> Self {
        let types: Vec<VarType> = domain.schema().vars().map(crate::Var::var_type).collect();
        let (conditions, goal_conditions, pre) = conditions(domain, goal);
        let (achievers, changes) = achievers(domain, &types);
        let users = users(&pre, conditions.len());
        let offers = offers(&conditions, &achievers, &changes, types.len());
        let mut disjoint: Vec<Vec<(u32, bool)>> = (0..domain.actions().len())
            .map(|a| disjoint_conditions(&conditions, &achievers, pre.row(a)))
            .collect();
        disjoint.push(disjoint_conditions(
            &conditions,
            &achievers,
            &goal_conditions,
        ));
        let mut is_goal = vec![false; conditions.len()];
        for &q in &goal_conditions {
            is_goal[q as usize] = true;
        }
        let goal_len = is_goal.iter().filter(|&&g| g).count();
        let actions = domain
            .actions()
            .iter()
            .enumerate()
            .map(|(a, action)| {
                let pre_len = u32::try_from(pre.row(a).len()).unwrap_or(u32::MAX);
                (u64::from(action.cost()), pre_len)
            })
            .collect::<Vec<_>>();
        let (conditions_len, actions_len) = (conditions.len(), actions.len());
        Self {
            start,
            conditions,
            is_goal,
            goal_len,
            actions,
            users,
            offers,
            achievers,
            disjoint: Table::from_rows(disjoint),
            scratch: Scratch {
                cost: vec![INF; conditions_len],
                settled: vec![false; conditions_len],
                up: vec![INF; conditions_len],
                down: vec![INF; conditions_len],
                waiting: vec![0; actions_len],
                pre_cost: vec![INF; actions_len],
                queue: Buckets::default(),
            },
            start_pre_cost: None,
            linear: has_linear(domain, goal)
                .then(|| NumericRmax::regression(domain, start, goal))
                .flatten()
                .map(Box::new),
        }
    }

    /// The cost of `var ∈ constraint` from a state where `var` holds
    /// `slot`, given each action's precondition cost (`INF` if never
    /// enabled).
    fn condition_cost(
        &self,
        var: u32,
        constraint: &Constraint,
        slot: u64,
        pre_cost: &[u64],
    ) -> u64 {
        if constraint.allows(slot) {
            return 0;
        }
        if constraint.is_empty() {
            return INF;
        }
        let achievers = &self.achievers[var as usize];
        let additive = achievers.is_additive();
        let mut best = INF;
        for &(a, result) in &achievers.jumps {
            // With additions about, a set to any value may start the way in.
            if additive || result.is_none_or(|k| constraint.allows(k)) {
                let a = a as usize;
                best = best.min(pre_cost[a].saturating_add(self.actions[a].0));
            }
        }
        let (up, down) = constraint.gaps(slot);
        for (mover, distance) in [(&achievers.up, up), (&achievers.down, down)] {
            let Some(distance) = distance else { continue };
            if mover.actions.is_empty() {
                continue;
            }
            let first = mover
                .actions
                .iter()
                .map(|&a| pre_cost[a as usize])
                .min()
                .unwrap_or(INF);
            best = best.min(first.saturating_add(mover.bound(distance)));
        }
        best
    }

    /// Settles condition costs from `state` in order of cost (a generalised
    /// Dijkstra: every candidate cost is at least the cost of the condition
    /// whose settling produced it). With `goal_only`, stops once every goal
    /// condition is settled and returns the largest goal cost; otherwise
    /// settles everything and leaves each action's `P(a)` in the scratch
    /// (`INF` if never enabled).
    fn settle(&mut self, state: &State, goal_only: bool) -> u64 {
        let scratch = &mut self.scratch;
        scratch.queue.clear();
        for (q, condition) in self.conditions.iter().enumerate() {
            scratch.settled[q] = false;
            let slot = state.slot(condition.var as usize);
            if condition.holds(state) {
                scratch.cost[q] = 0;
                (scratch.up[q], scratch.down[q]) = (0, 0);
                scratch.queue.push(0, q);
                continue;
            }
            scratch.cost[q] = INF;
            let achievers = &self.achievers[condition.var as usize];
            (scratch.up[q], scratch.down[q]) = if achievers.is_additive() {
                let (up, down) = condition.constraint.gaps(slot);
                (achievers.up.bound_of(up), achievers.down.bound_of(down))
            } else {
                (INF, INF)
            };
        }
        for (a, &(_, pre_len)) in self.actions.iter().enumerate() {
            scratch.waiting[a] = pre_len;
            scratch.pre_cost[a] = INF;
        }
        for a in 0..self.actions.len() {
            if self.actions[a].1 == 0 {
                self.enable(a, 0);
            }
        }
        let mut goals_left = self.goal_len;
        if goal_only && goals_left == 0 {
            // No goal condition (a goal of linear conditions only): nothing
            // to settle.
            return 0;
        }
        let mut last = 0;
        while let Some((cost, q)) = self.scratch.queue.pop() {
            if self.scratch.settled[q] || cost != self.scratch.cost[q] {
                continue;
            }
            self.scratch.settled[q] = true;
            last = cost;
            if self.is_goal[q] {
                goals_left -= 1;
                if goal_only && goals_left == 0 {
                    return last;
                }
            }
            for i in self.users.starts[q] as usize..self.users.starts[q + 1] as usize {
                let a = self.users.values[i] as usize;
                self.scratch.waiting[a] -= 1;
                if self.scratch.waiting[a] == 0 {
                    self.enable(a, cost);
                }
            }
        }
        if goals_left == 0 {
            last
        } else {
            INF
        }
    }

    /// Action `a` becomes applicable at precondition cost `p`: offers its
    /// changes to the conditions on the variables it changes.
    fn enable(&mut self, a: usize, p: u64) {
        let p = p.max(self.disjoint_bound(a));
        let scratch = &mut self.scratch;
        scratch.pre_cost[a] = p;
        let with_cost = p.saturating_add(self.actions[a].0);
        for &(q, offer) in self.offers.row(a) {
            let q = q as usize;
            if scratch.settled[q] || scratch.cost[q] == 0 {
                continue;
            }
            let candidate = match offer {
                Offer::Jump => with_cost,
                Offer::Up => p.saturating_add(scratch.up[q]),
                Offer::Down => p.saturating_add(scratch.down[q]),
            };
            if candidate < scratch.cost[q] {
                scratch.cost[q] = candidate;
                scratch.queue.push(candidate, q);
            }
        }
    }

    /// The sum of the `K` bounds of row `row` of `disjoint` (an action's
    /// preconditions, or the goal): the additions they need come from
    /// disjoint sets of actions, so a plan reaching them all pays them all.
    #[inline]
    fn disjoint_bound(&self, row: usize) -> u64 {
        self.disjoint.row(row).iter().fold(0, |sum: u64, &(q, up)| {
            let q = q as usize;
            let k = if up {
                self.scratch.up[q]
            } else {
                self.scratch.down[q]
            };
            sum.saturating_add(k)
        })
    }

    fn estimate_of(cost: u64) -> Estimate<Cost> {
        if cost == INF {
            Estimate::DeadEnd
        } else {
            Estimate::Value(Cost::try_from(cost).unwrap_or(Cost::MAX))
        }
    }
}

impl Heuristic<State, Cost> for NumericHmax<'_> {
    fn estimate(&mut self, node: &State) -> Estimate<Cost> {
        let cost = self.settle(node, true);
        if cost == INF {
            return Estimate::DeadEnd;
        }
        let own = Self::estimate_of(cost.max(self.disjoint_bound(self.actions.len())));
        match &mut self.linear {
            Some(linear) => larger(own, Heuristic::<State, Cost>::estimate(&mut **linear, node)),
            None => own,
        }
    }

    fn is_admissible(&self) -> bool {
        true
    }
}

impl Heuristic<Subgoal, Cost> for NumericHmax<'_> {
    fn estimate(&mut self, node: &Subgoal) -> Estimate<Cost> {
        let pre_cost = if let Some(pre_cost) = self.start_pre_cost.take() {
            pre_cost
        } else {
            self.settle(self.start, false);
            self.scratch.pre_cost.clone()
        };
        let cost = node
            .constraints()
            .iter()
            .map(|(v, c)| self.condition_cost(*v, c, self.start.slot(*v as usize), &pre_cost))
            .max()
            .unwrap_or(0);
        self.start_pre_cost = Some(pre_cost);
        let own = Self::estimate_of(cost);
        match &mut self.linear {
            Some(linear) => larger(
                own,
                Heuristic::<Subgoal, Cost>::estimate(&mut **linear, node),
            ),
            None => own,
        }
    }

    fn is_admissible(&self) -> bool {
        true
    }
}

/// A borrowed `NumericHmax` is a heuristic too, so that one built for a
/// domain and goal serves many searches (an agent replanning from new
/// states) without being built again.
///
/// ```
/// use search_core::astar;
/// use state_factored::NumericHmax;
/// let p = state_factored::problems::hitman().unwrap();
/// let space = p.domain.forward(&p.goal);
/// let mut h = NumericHmax::new(&p.domain, &p.start, &p.goal);
/// for _ in 0..3 {
///     let result = astar(&space, p.start.clone(), &mut h).unwrap();
///     assert_eq!(result.outcome.solution().unwrap().cost, 15);
/// }
/// ```
impl<'a, N> Heuristic<N, Cost> for &mut NumericHmax<'a>
where
    NumericHmax<'a>: Heuristic<N, Cost>,
{
    fn estimate(&mut self, node: &N) -> Estimate<Cost> {
        (**self).estimate(node)
    }

    fn is_admissible(&self) -> bool {
        true
    }
}

/// Whether the goal or a precondition of `domain` has linear conditions
/// over several variables.
fn has_linear(domain: &Domain, goal: &Goal) -> bool {
    !goal.linear.is_empty() || domain.actions().iter().any(|a| !a.pre_linear.is_empty())
}

/// The larger of two admissible estimates (a dead end is the largest).
fn larger(a: Estimate<Cost>, b: Estimate<Cost>) -> Estimate<Cost> {
    match (a, b) {
        (Estimate::Value(x), Estimate::Value(y)) => Estimate::Value(x.max(y)),
        _ => Estimate::DeadEnd,
    }
}
