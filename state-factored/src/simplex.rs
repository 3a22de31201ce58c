//! A small dense dual simplex for covering LPs: minimise `c·x` subject to
//! rows `a·x >= b` and `x >= 0`, where every cost `c_j >= 0`.
//!
//! With non-negative costs the all-slack basis is dual feasible, so the dual
//! simplex starts there with no first phase, and its objective only rises:
//! stopped at any pivot it is still a lower bound of the optimum, which is
//! what an admissible heuristic needs. The operator-counting heuristic
//! solves a few dozen of these per state, with a handful of rows and one
//! column per action, so a dense tableau in one flat buffer is fastest.

/// Entries smaller than this are zero.
const EPS: f64 = 1e-9;

/// How a solve ended.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Solved {
    /// Optimal with this objective; the solution is in the solver.
    Optimal(f64),
    /// No `x >= 0` satisfies the rows.
    Infeasible,
    /// Stopped after too many pivots: the objective so far, a lower bound.
    Stopped(f64),
}

/// A dual simplex tableau, reusable between problems; clone it to keep a
/// solved problem, then add rows to either copy and solve on (a warm start:
/// the old basis stays dual feasible).
#[derive(Debug, Default)]
pub(crate) struct Simplex {
    /// Row-major, `width` entries a row: row `i` reads
    /// `x_basis[i] + Σ t[i][j] x_j = rhs[i]` over the non-basic `j`.
    t: Vec<f64>,
    rhs: Vec<f64>,
    /// Reduced costs of every column (structural, then one slack per row).
    reduced: Vec<f64>,
    basis: Vec<usize>,
    x: Vec<f64>,
    objective: f64,
    width: usize,
    columns: usize,
}

impl Clone for Simplex {
    fn clone(&self) -> Self {
        let mut copy = Self::default();
        copy.clone_from(self);
        copy
    }

    /// Copies into the buffers already here, with room for every row.
    fn clone_from(&mut self, source: &Self) {
        let rows = source.width - source.columns;
        self.t
            .reserve((rows * source.width).saturating_sub(self.t.len()));
        self.t.clone_from(&source.t);
        self.rhs.clone_from(&source.rhs);
        self.reduced.clone_from(&source.reduced);
        self.basis.clone_from(&source.basis);
        self.x.clone_from(&source.x);
        self.objective = source.objective;
        self.width = source.width;
        self.columns = source.columns;
    }
}

impl Simplex {
    /// Starts a problem with these (non-negative) costs, one per column,
    /// and room for `rows` rows.
    pub(crate) fn reset(&mut self, cost: &[f64], rows: usize) {
        self.width = cost.len() + rows;
        self.columns = cost.len();
        self.t.clear();
        self.t.reserve(rows * self.width);
        self.rhs.clear();
        self.basis.clear();
        self.reduced.clear();
        self.reduced.extend_from_slice(cost);
        self.reduced.resize(self.width, 0.0);
        self.objective = 0.0;
    }

    /// Whether another row fits.
    pub(crate) fn has_room(&self) -> bool {
        self.columns + self.rhs.len() < self.width
    }

    /// Adds the row `Σ a_j x_j >= rhs` from its `(j, a_j)` terms, written
    /// in the current basis. The caller checks [`has_room`](Self::has_room).
    pub(crate) fn push_row(&mut self, terms: impl IntoIterator<Item = (u32, f64)>, rhs: f64) {
        let (i, width, n) = (self.rhs.len(), self.width, self.columns);
        self.t.resize((i + 1) * width, 0.0);
        let (done, line) = self.t.split_at_mut(i * width);
        let mut b = -rhs;
        for (j, a) in terms {
            line[j as usize] -= a;
        }
        for (k, &basic) in self.basis.iter().enumerate() {
            let f = line[basic];
            if f != 0.0 {
                let row = &done[k * width..(k + 1) * width];
                for (a, &r) in line.iter_mut().zip(row) {
                    *a -= f * r;
                }
                line[basic] = 0.0;
                b -= f * self.rhs[k];
            }
        }
        line[n + i] = 1.0;
        self.rhs.push(b);
        self.basis.push(n + i);
    }

    /// Minimises the costs over `x >= 0` subject to the rows pushed since
    /// [`reset`](Self::reset), going on from the current basis.
    pub(crate) fn solve(&mut self) -> Solved {
        let (width, n) = (self.width, self.columns);
        for _ in 0..20 * (width + 1) {
            let Some(r) = self.leaving_row() else {
                self.x.clear();
                self.x.resize(n, 0.0);
                for (i, &b) in self.basis.iter().enumerate() {
                    if b < n {
                        self.x[b] = self.rhs[i].max(0.0);
                    }
                }
                return Solved::Optimal(self.objective);
            };
            let Some(q) = self.entering_column(r) else {
                return Solved::Infeasible;
            };
            self.objective += self.pivot(r, q);
        }
        Solved::Stopped(self.objective)
    }

    /// The optimal solution of the last solve that returned
    /// [`Solved::Optimal`].
    pub(crate) fn solution(&self) -> &[f64] {
        &self.x
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
    /// in row `r` (the least ratio; the first of equals, against cycling).
    fn entering_column(&self, r: usize) -> Option<usize> {
        let width = self.width;
        let line = &self.t[r * width..r * width + self.columns + self.rhs.len()];
        let mut best = None;
        let mut least = f64::INFINITY;
        for (j, &a) in line.iter().enumerate() {
            if a < -EPS {
                let ratio = self.reduced[j] / -a;
                if ratio < least {
                    (best, least) = (Some(j), ratio);
                }
            }
        }
        best
    }

    /// Pivots column `col` into row `row`; returns the objective's rise.
    fn pivot(&mut self, row: usize, col: usize) -> f64 {
        let (width, active) = (self.width, self.columns + self.rhs.len());
        let element = self.t[row * width + col];
        for a in &mut self.t[row * width..row * width + active] {
            *a /= element;
        }
        self.rhs[row] /= element;
        let (pivot_rhs, m) = (self.rhs[row], self.rhs.len());
        for i in (0..m).filter(|&i| i != row) {
            let f = self.t[i * width + col];
            if f.abs() <= EPS {
                continue;
            }
            let (line, pivot_line) = if i < row {
                let (head, tail) = self.t.split_at_mut(row * width);
                (&mut head[i * width..i * width + active], &tail[..active])
            } else {
                let (head, tail) = self.t.split_at_mut(i * width);
                (
                    &mut tail[..active],
                    &head[row * width..row * width + active],
                )
            };
            for (a, &b) in line.iter_mut().zip(pivot_line) {
                *a -= f * b;
            }
            line[col] = 0.0;
            self.rhs[i] -= f * pivot_rhs;
        }
        let f = self.reduced[col];
        if f != 0.0 {
            let pivot_line = &self.t[row * width..row * width + active];
            for (d, &b) in self.reduced.iter_mut().zip(pivot_line) {
                *d = (*d - f * b).max(0.0);
            }
        }
        self.reduced[col] = 0.0;
        self.basis[row] = col;
        f * pivot_rhs
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn solve(lp: &mut Simplex, cost: &[f64], rows: &[(&[(u32, f64)], f64)]) -> Solved {
        lp.reset(cost, rows.len());
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
        lp.reset(&[2.0, 3.0], 2);
        lp.push_row([(0, 1.0), (1, 1.0)], 4.0);
        assert_eq!(lp.solve(), Solved::Optimal(8.0));
        let kept = lp.clone();
        lp.push_row([(1, 1.0)], 1.5);
        let Solved::Optimal(z) = lp.solve() else {
            panic!("feasible");
        };
        assert!((z - 9.5).abs() < 1e-9, "{z}");
        assert!((lp.solution()[0] - 2.5).abs() < 1e-9);
        // The copy is untouched: x <= 1 there gives x = 1, y = 3, cost 11.
        let mut other = kept;
        other.push_row([(0, -1.0)], -1.0);
        assert_eq!(other.solve(), Solved::Optimal(11.0));
        assert!(!other.has_room());
    }

    #[test]
    fn no_rows_cost_nothing() {
        let mut lp = Simplex::default();
        assert_eq!(solve(&mut lp, &[1.0], &[]), Solved::Optimal(0.0));
        assert_eq!(lp.solution(), &[0.0]);
    }
}
