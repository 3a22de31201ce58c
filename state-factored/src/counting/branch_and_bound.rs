//! Branch and bound for operator counting: solves the program of a
//! `Model` to an admissible bound within a budget of linear programs, each
//! a relaxation solved by the dual simplex (`simplex.rs`) warm-started from
//! its parent's tableau. The search order and what it returns when the
//! budget runs out are in `OperatorCounting`'s documentation.

use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;
use std::mem::size_of;
use std::time::Instant;

use super::model::{Model, Row};
use super::TOLERANCE;
use crate::simplex::{Simplex, Solved};

/// How many linear programs one estimate may solve.
const DEFAULT_NODE_BUDGET: usize = 64;

/// A row added by branching.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Branch {
    /// `x_j <= k`.
    AtMost(u32, f64),
    /// `x_j >= k`.
    AtLeast(u32, f64),
    /// The consequent of implication `i` holds.
    Implied(usize),
    /// No antecedent of implication `i` occurs.
    Excluded(usize),
}

/// A branch-and-bound node still to solve: its parent's bound, depth and
/// solved tableau, and the row it adds.
#[derive(Clone, Copy, Debug)]
struct Pending {
    bound: u64,
    depth: usize,
    tableau: usize,
    branch: Branch,
}

impl Pending {
    /// Best first: the least bound, then the deepest, then the newest
    /// (the tableau of the latest branching).
    fn priority(&self) -> (Reverse<u64>, usize, usize) {
        (Reverse(self.bound), self.depth, self.tableau)
    }
}

impl PartialEq for Pending {
    fn eq(&self, other: &Self) -> bool {
        self.priority() == other.priority()
    }
}

impl Eq for Pending {}

impl PartialOrd for Pending {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Pending {
    fn cmp(&self, other: &Self) -> Ordering {
        self.priority().cmp(&other.priority())
    }
}

/// The solver: its budget, its tableaux and the nodes still to solve.
#[derive(Clone, Debug)]
pub(super) struct BranchAndBound {
    node_budget: usize,
    lp: Simplex,
    pending: BinaryHeap<Pending>,
    /// Solved tableaux of the nodes with pending branches; the first
    /// `kept` belong to the current estimate.
    tableaux: Vec<Simplex>,
    kept: usize,
    /// Scratch for a rounded solution.
    rounded: Vec<f64>,
    /// The last forward relaxation of the flow and goal rows, solved, and
    /// those rows (empty when there is none to reuse).
    root: Simplex,
    root_rows: Vec<Row>,
    /// Whether `root` holds a solved relaxation (with no rows, `root_rows`
    /// cannot tell).
    has_root: bool,
    /// When a bound stops with what it has (`None`: no deadline).
    deadline: Option<Instant>,
    /// The bytes the tableaux may hold (`None`: no limit).
    memory_budget: Option<usize>,
    /// The bytes a program too large for the budget would have needed: a
    /// bound then stops, and reports them so that the search stops too.
    wanted: usize,
}

impl BranchAndBound {
    /// A solver with the default budget of linear programs per bound.
    pub(super) fn new() -> Self {
        Self {
            node_budget: DEFAULT_NODE_BUDGET,
            lp: Simplex::default(),
            pending: BinaryHeap::new(),
            tableaux: Vec::new(),
            kept: 0,
            rounded: Vec::new(),
            root: Simplex::default(),
            root_rows: Vec::new(),
            has_root: false,
            deadline: None,
            memory_budget: None,
            wanted: 0,
        }
    }

    /// Bounds stop at `deadline` with the bound so far.
    pub(super) fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
        self.lp.set_deadline(deadline);
    }

    /// Bounds keep their tableaux within `bytes`, stopping with the bound
    /// so far where one more would not fit.
    pub(super) fn set_memory_budget(&mut self, bytes: Option<usize>) {
        self.memory_budget = bytes;
    }

    /// The bytes the tableaux hold, and those a program too large for the
    /// budget would have needed.
    pub(super) fn memory_bytes(&self) -> usize {
        let tableaux: usize = self.tableaux.iter().map(Simplex::bytes).sum();
        self.lp.bytes() + self.root.bytes() + tableaux + self.wanted
    }

    /// Whether one more tableau the size of the current one fits the budget.
    fn fits_another_tableau(&self) -> bool {
        self.memory_budget
            .is_none_or(|budget| self.memory_bytes() + self.lp.bytes() <= budget)
    }

    fn past_deadline(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Sets how many linear programs one bound may solve (at least one).
    pub(super) fn set_node_budget(&mut self, nodes: usize) {
        self.node_budget = nodes.max(1);
    }

    /// The bound of the program `model` posed last, by branch and bound;
    /// `None` if it has no solution.
    ///
    /// With `warm` (the goal is the same as at the last call), the
    /// relaxation of the model's flow and goal rows starts from the last
    /// one's optimal basis, with the new right-hand sides: the basis stays
    /// dual feasible, and a sibling state is a few pivots away.
    pub(super) fn bound(&mut self, model: &Model<'_>, warm: bool) -> Option<u64> {
        // The working tableau and the kept root, a float per row and column
        // each, beside the model. A program that would not fit gets the
        // bound 0 (it is admissible), and its bytes are reported.
        let needed = 2 * model.rows().len() * model.costs().len() * size_of::<f64>();
        self.wanted = 0;
        if self
            .memory_budget
            .is_some_and(|budget| model.bytes() + needed > budget)
        {
            self.wanted = needed;
            return Some(0);
        }
        self.load_model(model, warm);
        self.pending.clear();
        self.kept = 0;
        let mut best = u64::MAX;
        let mut unclosed = u64::MAX;
        // The bound and depth of the node in the tableau.
        let (mut bound, mut depth) = (0, 0);
        for solved in 1.. {
            let z = match self.lp.solve() {
                Solved::Infeasible => None,
                Solved::Stopped(z) => {
                    unclosed = unclosed.min(round_up(z).max(bound));
                    None
                }
                Solved::Optimal(z) => Some(round_up(z).max(bound)).filter(|&z| z < best),
            };
            let dive = match z.map(|z| (z, self.branch(model))) {
                None => None,
                Some((z, None)) => {
                    best = z;
                    None
                }
                Some((z, Some(_))) if self.rounded_cost(model).is_some_and(|c| c <= z) => {
                    // Rounded up, the relaxation's counts make a whole
                    // solution as cheap as its bound: nothing below it.
                    best = z;
                    None
                }
                Some((z, Some(_))) if !self.fits_another_tableau() => {
                    // Its branches would need one more tableau: the
                    // bound so far.
                    unclosed = unclosed.min(z);
                    None
                }
                Some((z, Some((first, second)))) => {
                    let tableau = self.keep_tableau();
                    let least = self.pending.peek().map(|n| n.bound);
                    let mut child = Pending {
                        bound: z,
                        depth: depth + 1,
                        tableau,
                        branch: second,
                    };
                    self.pending.push(child);
                    child.branch = first;
                    // Go on in place with the first branch while no pending
                    // node has a smaller bound: no copy needed.
                    if least.is_some_and(|least| least < z) {
                        self.pending.push(child);
                        None
                    } else {
                        Some(child)
                    }
                }
            };
            let next = match dive {
                Some(child) => Some(child),
                None => self.next_pending(best),
            };
            let Some(next) = next else {
                break;
            };
            if solved >= self.node_budget || self.past_deadline() {
                unclosed = unclosed.min(next.bound);
                break;
            }
            if dive.is_none() {
                self.lp.clone_from(&self.tableaux[next.tableau]);
            }
            (bound, depth) = (next.bound, next.depth);
            self.push_branch(model, next.branch);
        }
        let bound = best.min(unclosed);
        (bound != u64::MAX).then_some(bound)
    }

    /// The cost of the last relaxation's counts rounded up, if they satisfy
    /// every row of the model and every implication (whatever the
    /// branches): then the program has a solution that cheap.
    fn rounded_cost(&mut self, model: &Model<'_>) -> Option<u64> {
        self.rounded.clear();
        self.rounded.extend_from_slice(self.lp.solution());
        for &j in self.lp.support() {
            let v = &mut self.rounded[j as usize];
            let above = fraction(*v);
            if above > TOLERANCE {
                *v += 1.0 - above;
            } else {
                *v -= above;
            }
        }
        let x = &self.rounded;
        if !model.admits(x) {
            return None;
        }
        let cost: f64 = x.iter().zip(model.costs()).map(|(v, c)| v * c).sum();
        Some(round_up(cost))
    }

    /// Puts the model's rows in the tableau: from scratch, or (`warm`) from
    /// the last relaxation of the same flow and goal rows with the new
    /// right-hand sides, solved on from its basis and kept for the next.
    fn load_model(&mut self, model: &Model<'_>, warm: bool) {
        let base = model
            .rows()
            .iter()
            .position(|r| matches!(r, Row::Forbid(_)))
            .unwrap_or(model.rows().len());
        let reuse = warm
            && self.has_root
            && self.root_rows.len() == base
            && self
                .root_rows
                .iter()
                .zip(model.rows())
                .all(|(a, b)| a.same_terms(*b));
        if reuse {
            self.lp.clone_from(&self.root);
            for (r, (old, new)) in self.root_rows.iter().zip(model.rows()).enumerate() {
                let shift = old.rhs() - new.rhs();
                if shift != 0.0 {
                    self.lp.shift_row(r, shift);
                }
            }
        } else {
            self.fresh_rows(model, base);
        }
        if warm {
            if matches!(self.lp.solve(), Solved::Optimal(_)) {
                self.root.clone_from(&self.lp);
                self.root_rows.clear();
                self.root_rows.extend_from_slice(&model.rows()[..base]);
                self.has_root = true;
            } else {
                // A dead end or a stalled solve: keep nothing from it.
                self.root_rows.clear();
                self.has_root = false;
                self.fresh_rows(model, base);
            }
        }
        for r in base..model.rows().len() {
            model.push_row(r, &mut self.lp);
        }
    }

    /// A new tableau with the model's first `rows` rows.
    fn fresh_rows(&mut self, model: &Model<'_>, rows: usize) {
        self.lp.reset(model.costs());
        for r in 0..rows {
            model.push_row(r, &mut self.lp);
        }
    }

    /// Keeps a copy of the solved tableau for the branches of its node.
    fn keep_tableau(&mut self) -> usize {
        if self.kept == self.tableaux.len() {
            self.tableaux.push(self.lp.clone());
        } else {
            self.tableaux[self.kept].clone_from(&self.lp);
        }
        self.kept += 1;
        self.kept - 1
    }

    /// Takes the pending node of least bound (the deepest of equals), if
    /// any is below `best`: best first, so the bound of what is left only
    /// rises.
    fn next_pending(&mut self, best: u64) -> Option<Pending> {
        self.pending.pop().filter(|node| node.bound < best)
    }

    /// Adds a branch's row to the tableau.
    fn push_branch(&mut self, model: &Model<'_>, branch: Branch) {
        match branch {
            Branch::AtMost(j, k) => self.lp.push_row([(j, -1.0)], -k),
            Branch::AtLeast(j, k) => self.lp.push_row([(j, 1.0)], k),
            Branch::Implied(i) => {
                let implication = &model.implications()[i];
                let terms = model.consequent(implication);
                self.lp.push_row(terms.iter().copied(), implication.rhs);
            }
            Branch::Excluded(i) => {
                let actions = &model.implications()[i].actions;
                self.lp.push_row(actions.iter().map(|&a| (a, -1.0)), 0.0);
            }
        }
    }

    /// How to split the last relaxation's solution, the likelier part
    /// first: a violated implication (its consequent holds, or none of its
    /// actions occurs), else the count with the largest cost-weighted
    /// fraction (rounded up, or down); `None` if the solution is integral
    /// and satisfies every implication.
    fn branch(&self, model: &Model<'_>) -> Option<(Branch, Branch)> {
        let x = self.lp.solution();
        for (i, implication) in model.implications().iter().enumerate() {
            let lhs: f64 = model
                .consequent(implication)
                .iter()
                .map(|&(j, a)| a * x[j as usize])
                .sum();
            let occurs: f64 = implication.actions.iter().map(|&a| x[a as usize]).sum();
            if occurs > TOLERANCE && lhs < implication.rhs - TOLERANCE {
                return Some((Branch::Implied(i), Branch::Excluded(i)));
            }
        }
        let (j, _) = self
            .lp
            .support()
            .iter()
            .filter_map(|&j| {
                let above = fraction(x[j as usize]);
                let distance = above.min(1.0 - above);
                // The most fractional count, weighted by its cost.
                (distance > TOLERANCE).then_some((j, distance * (1.0 + model.costs()[j as usize])))
            })
            .max_by(|a, b| a.1.total_cmp(&b.1))?;
        let below = x[j as usize] - fraction(x[j as usize]);
        Some((Branch::AtLeast(j, below + 1.0), Branch::AtMost(j, below)))
    }
}

/// The smallest integer at least `z`, forgiving float error (costs are
/// integers, so an integral plan's cost is too); the slack grows with `z`,
/// since rounding error does. Rounding down is always safe: a lower bound.
fn round_up(z: f64) -> u64 {
    let slack = TOLERANCE + z.abs() * 1e-9;
    #[expect(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "a non-negative objective, saturating"
    )]
    let bound = (z - slack).ceil().max(0.0) as u64;
    bound
}

/// The fractional part of a count (counts are non-negative and small; a
/// cast is much cheaper than `floor`, a libm call on baseline x86-64).
#[expect(
    clippy::cast_possible_truncation,
    clippy::cast_precision_loss,
    reason = "counts are in 0..2^52"
)]
fn fraction(count: f64) -> f64 {
    // `i64`, not `u64`: one instruction each way on x86-64.
    count - (count as i64) as f64
}
