//! A small dense dual simplex for covering LPs: minimise `c·x` subject to
//! rows `a·x >= b` and `x >= 0`, where every cost `c_j >= 0`.
//!
//! With non-negative costs the all-slack basis is dual feasible, so the dual
//! simplex starts there with no first phase, and its objective only rises:
//! stopped at any pivot it is still a lower bound of the optimum, which is
//! what an admissible heuristic needs. The operator-counting heuristic
//! solves a few dozen of these per state, with a handful of rows and one
//! column per action, and copies solved ones for branch and bound, so the
//! tableau is condensed: one column per non-basic variable (as many as
//! there are structural columns, whatever the rows), in one flat buffer.

use std::mem::size_of;
use std::time::Instant;

/// Entries smaller than this are zero.
const EPS: f64 = 1e-9;

/// How a solve ended.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Solved {
    /// Optimal with this objective; the solution is in the solver.
    Optimal(f64),
    /// No `x >= 0` satisfies the rows.
    Infeasible,
    /// Stopped after too many pivots or at the deadline: the objective so
    /// far, a lower bound.
    Stopped(f64),
}

/// Where a variable (structural `0..n`, then one slack per row) is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Place {
    /// Basic in this row.
    Row(usize),
    /// Non-basic in this column.
    Column(usize),
}

/// A dual simplex tableau, reusable between problems; clone it to keep a
/// solved problem, then add rows to either copy and solve on (a warm start:
/// the old basis stays dual feasible).
#[derive(Debug, Default)]
pub(crate) struct Simplex {
    /// Row-major, `n` entries a row: row `i` reads
    /// `v_basic[i] + Σ_k t[i][k] v_column[k] = rhs[i]`.
    t: Vec<f64>,
    rhs: Vec<f64>,
    /// The reduced cost of each column's variable.
    reduced: Vec<f64>,
    /// The variable basic in each row, and the one in each column.
    basic: Vec<usize>,
    column: Vec<usize>,
    /// Each variable's place.
    place: Vec<Place>,
    x: Vec<f64>,
    /// Scratch for a row being pushed.
    terms: Vec<(u32, f64)>,
    /// What each row was divided by when pushed.
    scales: Vec<f64>,
    /// The structural variables that are basic (the only ones that can be
    /// non-zero) after the last optimal solve.
    support: Vec<u32>,
    objective: f64,
    /// Structural columns.
    n: usize,
    /// When a solve stops with the objective so far (not copied by
    /// `clone_from`: a copy keeps its own).
    deadline: Option<Instant>,
}

impl Clone for Simplex {
    fn clone(&self) -> Self {
        let mut copy = Self::default();
        copy.clone_from(self);
        copy
    }

    /// Copies into the buffers already here.
    fn clone_from(&mut self, source: &Self) {
        self.t.clone_from(&source.t);
        self.rhs.clone_from(&source.rhs);
        self.scales.clone_from(&source.scales);
        self.reduced.clone_from(&source.reduced);
        self.basic.clone_from(&source.basic);
        self.column.clone_from(&source.column);
        self.place.clone_from(&source.place);
        self.objective = source.objective;
        self.n = source.n;
    }
}

impl Simplex {
    /// Solves stop at `deadline` (`None`: no deadline) with the objective
    /// so far, a lower bound.
    pub(crate) fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
    }

    /// Allocated bytes.
    pub(crate) fn bytes(&self) -> usize {
        let floats = self.t.capacity()
            + self.rhs.capacity()
            + self.reduced.capacity()
            + self.x.capacity()
            + self.scales.capacity();
        let indices = self.basic.capacity() + self.column.capacity();
        floats * size_of::<f64>()
            + indices * size_of::<usize>()
            + self.place.capacity() * size_of::<Place>()
            + self.terms.capacity() * size_of::<(u32, f64)>()
            + self.support.capacity() * size_of::<u32>()
    }

    /// Starts a problem with these (non-negative) costs, one per column,
    /// and no rows.
    pub(crate) fn reset(&mut self, cost: &[f64]) {
        self.n = cost.len();
        self.t.clear();
        self.rhs.clear();
        self.scales.clear();
        self.basic.clear();
        self.reduced.clear();
        self.reduced.extend_from_slice(cost);
        self.column.clear();
        self.column.extend(0..self.n);
        self.place.clear();
        self.place.extend((0..self.n).map(Place::Column));
        self.objective = 0.0;
    }

    /// Adds the row `Σ a_j x_j >= rhs` from its `(j, a_j)` terms, written
    /// in the current basis (a new slack, basic).
    pub(crate) fn push_row(&mut self, terms: impl IntoIterator<Item = (u32, f64)>, rhs: f64) {
        let (row, n) = (self.rhs.len(), self.n);
        self.terms.clear();
        self.terms.extend(terms);
        // Scaled so its largest coefficient is 1, which keeps pivots on
        // rows of very different magnitudes well away from the tolerance.
        let largest = self
            .terms
            .iter()
            .fold(0.0_f64, |m, &(_, coefficient)| m.max(coefficient.abs()));
        let scale = if largest > 0.0 { largest } else { 1.0 };
        self.t.resize((row + 1) * n, 0.0);
        let (done, line) = self.t.split_at_mut(row * n);
        // slack - Σ a_j x_j = -rhs, with each basic x_j replaced by its row.
        let mut constant = -rhs / scale;
        for &(j, coefficient) in &self.terms {
            let coefficient = coefficient / scale;
            match self.place[j as usize] {
                Place::Column(k) => line[k] -= coefficient,
                Place::Row(r) => {
                    for (entry, &value) in line.iter_mut().zip(&done[r * n..(r + 1) * n]) {
                        *entry += coefficient * value;
                    }
                    constant += coefficient * self.rhs[r];
                }
            }
        }
        self.rhs.push(constant);
        self.scales.push(scale);
        self.place.push(Place::Row(row));
        self.basic.push(n + row);
    }

    /// Lowers row `row`'s right-hand side by `shift` (`a·x >= b - shift`),
    /// keeping the basis: it stays dual feasible, so [`solve`](Self::solve)
    /// goes on from it.
    pub(crate) fn shift_row(&mut self, row: usize, shift: f64) {
        // The row's slack `s` becomes `s + shift` in the old equations
        // (in the row's scaled units).
        let shift = shift / self.scales[row];
        match self.place[self.n + row] {
            Place::Row(i) => self.rhs[i] += shift,
            Place::Column(k) => {
                for (b, line) in self.rhs.iter_mut().zip(self.t.chunks_exact(self.n)) {
                    *b += line[k] * shift;
                }
                self.objective -= self.reduced[k] * shift;
            }
        }
    }

    /// Minimises the costs over `x >= 0` subject to the rows pushed since
    /// [`reset`](Self::reset), going on from the current basis.
    pub(crate) fn solve(&mut self) -> Solved {
        for pivots in 0..20 * (self.n + self.rhs.len() + 1) {
            // A pivot on a wide tableau takes a while: look at the clock
            // now and then.
            if pivots % 64 == 63 && self.deadline.is_some_and(|d| Instant::now() >= d) {
                return Solved::Stopped(self.objective);
            }
            let Some(row) = self.leaving_row() else {
                self.x.clear();
                self.x.resize(self.n, 0.0);
                self.support.clear();
                for (i, &v) in self.basic.iter().enumerate() {
                    if v < self.n {
                        self.x[v] = self.rhs[i].max(0.0);
                        self.support.push(u32::try_from(v).unwrap_or(u32::MAX));
                    }
                }
                return Solved::Optimal(self.objective);
            };
            let Some(col) = self.entering_column(row) else {
                // Entries too small to pivot on are not a proof.
                let line = &self.t[row * self.n..(row + 1) * self.n];
                return if line.iter().any(|&a| a < 0.0) {
                    Solved::Stopped(self.objective)
                } else {
                    Solved::Infeasible
                };
            };
            let before = self.objective;
            match self.pivot(row, col) {
                Some(rise) => self.objective += rise,
                // Rounding broke dual feasibility: the objective before
                // this pivot is the last one known to be a lower bound.
                None => return Solved::Stopped(before),
            }
        }
        Solved::Stopped(self.objective)
    }

    /// The optimal solution of the last solve that returned
    /// [`Solved::Optimal`].
    pub(crate) fn solution(&self) -> &[f64] {
        &self.x
    }

    /// The columns of [`solution`](Self::solution) that may be non-zero.
    pub(crate) fn support(&self) -> &[u32] {
        &self.support
    }

    /// The row whose basic variable is most negative, if any is.
    fn leaving_row(&self) -> Option<usize> {
        let mut best = None;
        let mut least = -EPS;
        for (i, &b) in self.rhs.iter().enumerate() {
            if b < least {
                (best, least) = (Some(i), b);
            }
        }
        best
    }

    /// The column that keeps every reduced cost non-negative when it enters
    /// in row `row` (the least ratio; the first of equals, against
    /// cycling).
    fn entering_column(&self, row: usize) -> Option<usize> {
        let line = &self.t[row * self.n..(row + 1) * self.n];
        let mut best = None;
        let mut least = f64::INFINITY;
        for (k, &a) in line.iter().enumerate() {
            if a < -EPS {
                let ratio = self.reduced[k] / -a;
                if ratio < least {
                    (best, least) = (Some(k), ratio);
                }
            }
        }
        best
    }

    /// Swaps column `col`'s variable into row `row`'s place in the basis;
    /// returns the objective's rise, or `None` if rounding left a reduced
    /// cost clearly negative (the tableau is then unusable).
    fn pivot(&mut self, row: usize, col: usize) -> Option<f64> {
        let n = self.n;
        let element = self.t[row * n + col];
        let (head, rest) = self.t.split_at_mut(row * n);
        let (pivot_line, tail) = rest.split_at_mut(n);
        for a in pivot_line.iter_mut() {
            *a /= element;
        }
        pivot_line[col] = 1.0 / element;
        self.rhs[row] /= element;
        let pivot_rhs = self.rhs[row];
        let others = head.chunks_exact_mut(n).chain(tail.chunks_exact_mut(n));
        let rhs = self.rhs.iter_mut().enumerate().filter(|&(i, _)| i != row);
        for (line, (_, b)) in others.zip(rhs) {
            let f = line[col];
            if f == 0.0 {
                continue;
            }
            for (a, &p) in line.iter_mut().zip(pivot_line.iter()) {
                *a -= f * p;
            }
            line[col] = -f / element;
            *b -= f * pivot_rhs;
        }
        let f = self.reduced[col];
        let mut feasible = true;
        if f != 0.0 {
            for (d, &p) in self.reduced.iter_mut().zip(pivot_line.iter()) {
                let updated = *d - f * p;
                feasible &= updated >= -EPS;
                // Within the tolerance, a negative is rounding: zero.
                *d = updated.max(0.0);
            }
        }
        self.reduced[col] = (-f / element).max(0.0);
        let (entering, leaving) = (self.column[col], self.basic[row]);
        (self.column[col], self.basic[row]) = (leaving, entering);
        self.place[entering] = Place::Row(row);
        self.place[leaving] = Place::Column(col);
        feasible.then_some(f * pivot_rhs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn solve(lp: &mut Simplex, cost: &[f64], rows: &[(&[(u32, f64)], f64)]) -> Solved {
        lp.reset(cost);
        for (terms, rhs) in rows {
            lp.push_row(terms.iter().copied(), *rhs);
        }
        lp.solve()
    }

    #[test]
    fn a_covering_lp_reaches_its_optimum() {
        // min 2x + 3y, x + y >= 4, x + 3y >= 6: optimum at (3, 1), cost 9.
        let mut lp = Simplex::default();
        let rows: [(&[(u32, f64)], f64); 2] =
            [(&[(0, 1.0), (1, 1.0)], 4.0), (&[(0, 1.0), (1, 3.0)], 6.0)];
        let Solved::Optimal(z) = solve(&mut lp, &[2.0, 3.0], &rows) else {
            panic!("feasible");
        };
        assert!((z - 9.0).abs() < 1e-9, "{z}");
        let x = lp.solution();
        assert!(
            (x[0] - 3.0).abs() < 1e-9 && (x[1] - 1.0).abs() < 1e-9,
            "{x:?}"
        );
    }

    #[test]
    fn upper_bounds_are_negated_rows() {
        // min x + y, x + y >= 3, x <= 1 (-x >= -1), y <= 1: infeasible.
        let mut lp = Simplex::default();
        let sum: &[(u32, f64)] = &[(0, 1.0), (1, 1.0)];
        let rows = [
            (sum, 3.0),
            (&[(0, -1.0)][..], -1.0),
            (&[(1, -1.0)][..], -1.0),
        ];
        assert_eq!(solve(&mut lp, &[1.0, 1.0], &rows), Solved::Infeasible);
        // With y <= 2 it is feasible at cost 3.
        let rows = [
            (sum, 3.0),
            (&[(0, -1.0)][..], -1.0),
            (&[(1, -1.0)][..], -2.0),
        ];
        assert_eq!(solve(&mut lp, &[1.0, 1.0], &rows), Solved::Optimal(3.0));
    }

    #[test]
    fn a_row_added_after_a_solve_warm_starts() {
        // min 2x + 3y, x + y >= 4 (optimum x = 4, cost 8); then y >= 1.5.
        let mut lp = Simplex::default();
        lp.reset(&[2.0, 3.0]);
        lp.push_row([(0, 1.0), (1, 1.0)], 4.0);
        assert_eq!(lp.solve(), Solved::Optimal(8.0));
        let kept = lp.clone();
        lp.push_row([(1, 1.0)], 1.5);
        let Solved::Optimal(z) = lp.solve() else {
            panic!("feasible");
        };
        assert!((z - 9.5).abs() < 1e-9, "{z}");
        assert!((lp.solution()[0] - 2.5).abs() < 1e-9);
        // The copy is untouched: x <= 1 there gives x = 1, y = 3, cost 11,
        // and y <= 2 on top makes it infeasible.
        let mut other = kept;
        other.push_row([(0, -1.0)], -1.0);
        assert_eq!(other.solve(), Solved::Optimal(11.0));
        assert_eq!(other.solution(), &[1.0, 3.0][..]);
        other.push_row([(1, -1.0)], -2.0);
        assert_eq!(other.solve(), Solved::Infeasible);
    }

    #[test]
    fn a_shifted_row_reuses_the_basis() {
        // min 2x + 3y, x + y >= 4, x + 3y >= 6: (3, 1), cost 9. Then the
        // second row asks 9 (b lowered by -3): (1.5, 2.5), cost 10.5.
        let mut lp = Simplex::default();
        let rows: [(&[(u32, f64)], f64); 2] =
            [(&[(0, 1.0), (1, 1.0)], 4.0), (&[(0, 1.0), (1, 3.0)], 6.0)];
        assert_eq!(solve(&mut lp, &[2.0, 3.0], &rows), Solved::Optimal(9.0));
        lp.shift_row(1, -3.0);
        let Solved::Optimal(z) = lp.solve() else {
            panic!("feasible");
        };
        assert!((z - 10.5).abs() < 1e-9, "{z}");
        // And back down to 2 and 1: x + y >= 2 alone binds, x = 2, cost 4.
        lp.shift_row(0, 2.0);
        lp.shift_row(1, 8.0);
        let Solved::Optimal(z) = lp.solve() else {
            panic!("feasible");
        };
        assert!((z - 4.0).abs() < 1e-9, "{z}");
        let x = lp.solution();
        assert!((x[0] - 2.0).abs() < 1e-9 && x[1].abs() < 1e-9, "{x:?}");
    }

    #[test]
    fn no_rows_cost_nothing() {
        let mut lp = Simplex::default();
        assert_eq!(solve(&mut lp, &[1.0], &[]), Solved::Optimal(0.0));
        assert_eq!(lp.solution(), &[0.0]);
    }
}
