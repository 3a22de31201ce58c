//! Linear constraints of regression subgoals: `sum a_i x_i (<=, ==, !=) b`
//! over int variables, exact, in one canonical form; the affine maps that
//! actions apply to int variables; substitution and normalisation.

use std::fmt;

use crate::constraint::{Constraint, Intervals};
use crate::effect::{Eff, ExprKind};
use crate::linear::Linear;
use crate::predicate::int_solutions;
use crate::value::key_int;
use crate::{Op, State, VarType};

/// A linear constraint over int variables in a regression [`Subgoal`]:
/// `sum a_i * x_i op b`, with `op` one of `<=`, `==`, `!=`.
///
/// Canonical: terms sorted by variable, at least two of them (a constraint
/// on one variable is a per-variable constraint instead), coefficients
/// without a common divisor; `<`, `>=` and `>` are rewritten as `<=` over
/// the integers, and an `==` or `!=` has a positive first coefficient. So
/// equal constraints are equal values. The one exception is the
/// constraint with no term, `0 <= -1`, which no state satisfies: a subgoal
/// holds it when a linear goal is unsatisfiable outright.
///
/// [`Subgoal`]: crate::Subgoal
///
/// ```
/// use state_factored::{Domain, Expr, Op, Predicate, Schema};
/// let mut schema = Schema::new();
/// schema.int("x").unwrap();
/// schema.int("y").unwrap();
/// let domain = Domain::new(schema);
/// // 2x + 2y > 4 is x + y >= 3, that is -x - y <= -3.
/// let goal = domain
///     .goal([Predicate::linear(2 * Expr::var("x") + 2 * Expr::var("y"), Op::Gt, 4)])
///     .unwrap();
/// let node = domain.regression(&domain.schema().default_state(), &goal).unwrap().start_node();
/// let c = &node.linear_constraints()[0];
/// assert_eq!((c.terms(), c.op(), c.bound()), (&[(0, -1), (1, -1)][..], Op::Le, -3));
/// assert_eq!(node.describe(domain.schema()), "-x - y <= -3");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LinearConstraint {
    terms: Box<[(u32, i64)]>,
    op: Rel,
    bound: i64,
}

/// The relations of canonical constraints.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Rel {
    Le,
    Eq,
    Ne,
}

impl LinearConstraint {
    /// The constraint as conditions `Σ w_i x_i + k >= 0` a relaxation can
    /// read: `Σ a x <= b` is `-Σ a x + b >= 0`, `==` also `Σ a x - b >= 0`,
    /// `!=` none.
    #[expect(
        clippy::cast_precision_loss,
        reason = "ints as estimates' numbers: 2^53 is far beyond any plan's"
    )]
    pub(crate) fn at_least(&self) -> Vec<crate::linear::AtLeast> {
        let terms: Vec<(u32, f64)> = self.terms.iter().map(|&(v, a)| (v, a as f64)).collect();
        let bound = self.bound as f64;
        let negated = || terms.iter().map(|&(v, a)| (v, -a)).collect::<Vec<_>>();
        match self.op {
            Rel::Le => vec![(negated(), bound)],
            Rel::Eq => vec![(negated(), bound), (terms.clone(), -bound)],
            Rel::Ne => Vec::new(),
        }
    }

    /// The constraint no state satisfies.
    pub(crate) fn unsatisfiable() -> Self {
        Self {
            terms: Box::new([]),
            op: Rel::Le,
            bound: -1,
        }
    }

    /// The terms `(variable index, coefficient)`, sorted by variable.
    ///
    /// ```
    /// use state_factored::{Domain, Expr, Op, Predicate, Schema};
    /// let mut schema = Schema::new();
    /// schema.int("a").unwrap();
    /// schema.int("b").unwrap();
    /// let domain = Domain::new(schema);
    /// let goal = domain.goal([Predicate::linear(Expr::var("b") - Expr::var("a"), Op::Eq, 1)]).unwrap();
    /// let node = domain.regression(&domain.schema().default_state(), &goal).unwrap().start_node();
    /// assert_eq!(node.linear_constraints()[0].terms(), [(0, 1), (1, -1)]);
    /// ```
    pub fn terms(&self) -> &[(u32, i64)] {
        &self.terms
    }

    /// The relation: [`Op::Le`], [`Op::Eq`] or [`Op::Ne`].
    ///
    /// ```
    /// use state_factored::{Domain, Expr, Op, Predicate, Schema};
    /// let mut schema = Schema::new();
    /// schema.int("a").unwrap();
    /// schema.int("b").unwrap();
    /// let domain = Domain::new(schema);
    /// let goal = domain.goal([Predicate::linear(Expr::var("a"), Op::Ne, Expr::var("b"))]).unwrap();
    /// let node = domain.regression(&domain.schema().default_state(), &goal).unwrap().start_node();
    /// assert_eq!(node.linear_constraints()[0].op(), Op::Ne);
    /// ```
    pub fn op(&self) -> Op {
        match self.op {
            Rel::Le => Op::Le,
            Rel::Eq => Op::Eq,
            Rel::Ne => Op::Ne,
        }
    }

    /// The right-hand side `b`.
    ///
    /// ```
    /// use state_factored::{Domain, Expr, Op, Predicate, Schema};
    /// let mut schema = Schema::new();
    /// schema.int("a").unwrap();
    /// schema.int("b").unwrap();
    /// let domain = Domain::new(schema);
    /// let goal = domain.goal([Predicate::linear(Expr::var("a") + Expr::var("b"), Op::Lt, 5)]).unwrap();
    /// let node = domain.regression(&domain.schema().default_state(), &goal).unwrap().start_node();
    /// assert_eq!(node.linear_constraints()[0].bound(), 4);
    /// ```
    pub fn bound(&self) -> i64 {
        self.bound
    }

    /// Whether `state` satisfies the constraint (evaluated exactly).
    ///
    /// ```
    /// use state_factored::{Domain, Expr, Op, Predicate, Schema};
    /// let mut schema = Schema::new();
    /// schema.int("a").unwrap();
    /// schema.int("b").unwrap();
    /// let domain = Domain::new(schema);
    /// let goal = domain.goal([Predicate::linear(Expr::var("a") + Expr::var("b"), Op::Ge, 1)]).unwrap();
    /// let start = domain.schema().default_state();
    /// let node = domain.regression(&start, &goal).unwrap().start_node();
    /// assert!(!node.linear_constraints()[0].is_satisfied_by(&start));
    /// ```
    #[inline]
    pub fn is_satisfied_by(&self, state: &State) -> bool {
        let mut sum: i128 = 0;
        for &(v, a) in &self.terms {
            sum += i128::from(a) * i128::from(key_int(state.slot(v as usize)));
        }
        let b = i128::from(self.bound);
        match self.op {
            Rel::Le => sum <= b,
            Rel::Eq => sum == b,
            Rel::Ne => sum != b,
        }
    }

    /// Bytes owned on the heap.
    pub(crate) fn heap_bytes(&self) -> usize {
        crate::state::heap_block(size_of_val::<[(u32, i64)]>(&self.terms))
    }

    /// The constraint as an affine form `sum - bound` and its relation.
    pub(crate) fn to_affine(&self) -> (Affine, Op) {
        (
            Affine {
                terms: self
                    .terms
                    .iter()
                    .map(|&(v, a)| (v, i128::from(a)))
                    .collect(),
                constant: -i128::from(self.bound),
            },
            self.op(),
        )
    }

    /// The least and largest value of its sum where each variable ranges
    /// over `hull(var)` (`None` for an unbounded side).
    fn range(
        &self,
        hull: &dyn Fn(u32) -> (Option<i128>, Option<i128>),
    ) -> (Option<i128>, Option<i128>) {
        let mut low = Some(0_i128);
        let mut high = Some(0_i128);
        for &(v, a) in &self.terms {
            let (lo, hi) = hull(v);
            let a = i128::from(a);
            let (min, max) = if a > 0 { (lo, hi) } else { (hi, lo) };
            low = low
                .zip(min)
                .and_then(|(s, m)| s.checked_add(a.checked_mul(m)?));
            high = high
                .zip(max)
                .and_then(|(s, m)| s.checked_add(a.checked_mul(m)?));
        }
        (low, high)
    }

    /// The constraint in words with variable names.
    pub(crate) fn describe(&self, names: &[&str]) -> String {
        let mut out = String::new();
        for (k, &(v, a)) in self.terms.iter().enumerate() {
            let name = names.get(v as usize).copied().unwrap_or("?");
            let sign = if a < 0 { "-" } else { "+" };
            let magnitude = a.unsigned_abs();
            match (k, sign) {
                (0, "-") => out.push('-'),
                (0, _) => {}
                _ => {
                    out.push(' ');
                    out.push_str(sign);
                    out.push(' ');
                }
            }
            if magnitude == 1 {
                out.push_str(name);
            } else {
                out.push_str(&magnitude.to_string());
                out.push_str(" * ");
                out.push_str(name);
            }
        }
        if self.terms.is_empty() {
            out.push('0');
        }
        format!("{out} {} {}", self.op(), self.bound)
    }
}

impl fmt::Display for LinearConstraint {
    /// Variables are written by index (`x0`, `x1` ...);
    /// [`Subgoal::describe`](crate::Subgoal::describe) names them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let last = self.terms.last().map_or(0, |(v, _)| *v as usize);
        let names: Vec<String> = (0..=last).map(|v| format!("x{v}")).collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        f.write_str(&self.describe(&names))
    }
}

/// An affine form `sum a_i x_i + constant` over int variables, in `i128`.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Affine {
    pub(crate) terms: Vec<(u32, i128)>,
    pub(crate) constant: i128,
}

impl Affine {
    fn var(v: u32) -> Self {
        Self {
            terms: vec![(v, 1)],
            constant: 0,
        }
    }

    fn constant(c: i128) -> Self {
        Self {
            terms: Vec::new(),
            constant: c,
        }
    }

    /// The form of an exact linear expression; `None` for an `f64` one.
    pub(crate) fn of(linear: &Linear) -> Option<Self> {
        match linear {
            Linear::Exact { terms, constant } => Some(Self {
                terms: terms.iter().map(|&(v, a)| (v, i128::from(a))).collect(),
                constant: i128::from(*constant),
            }),
            Linear::Float { .. } => None,
        }
    }

    /// `self + factor * other`; `None` on overflow.
    fn add_scaled(mut self, factor: i128, other: &Affine) -> Option<Self> {
        for &(v, a) in &other.terms {
            let a = factor.checked_mul(a)?;
            match self.terms.iter_mut().find(|(w, _)| *w == v) {
                Some((_, b)) => *b = b.checked_add(a)?,
                None => self.terms.push((v, a)),
            }
        }
        self.constant = self
            .constant
            .checked_add(factor.checked_mul(other.constant)?)?;
        Some(self)
    }

    /// The form with each variable that `maps` names replaced by its map;
    /// `None` on overflow.
    pub(crate) fn substitute(&self, maps: &[(u32, Affine)]) -> Option<Self> {
        let mut out = Affine::constant(self.constant);
        for &(v, a) in &self.terms {
            match maps.binary_search_by_key(&v, |(w, _)| *w) {
                Ok(at) => out = out.add_scaled(a, &maps[at].1)?,
                Err(_) => out = out.add_scaled(a, &Affine::var(v))?,
            }
        }
        Some(out)
    }
}

/// The affine map that an int variable's effect chain applies, read in the
/// state before the action; `None` when the chain has an `f64` expression
/// (which regression refuses before searching) or overflows.
pub(crate) fn chain_map(var: u32, chain: &[Eff]) -> Option<Affine> {
    let mut map = Affine::var(var);
    for effect in chain {
        map = match effect {
            Eff::Set { slot, .. } => Affine::constant(i128::from(key_int(*slot))),
            Eff::AddInt { d, .. } => map.add_scaled(1, &Affine::constant(i128::from(*d)))?,
            Eff::SubInt { d, .. } => map.add_scaled(-1, &Affine::constant(i128::from(*d)))?,
            Eff::Expr(e) => {
                let expr = Affine::of(&e.expr)?;
                match e.kind {
                    ExprKind::Assign => expr,
                    ExprKind::Increase => map.add_scaled(1, &expr)?,
                    ExprKind::Decrease => map.add_scaled(-1, &expr)?,
                }
            }
            Eff::AddFloat { .. } | Eff::Toggle { .. } | Eff::Custom { .. } => return None,
        };
    }
    Some(map)
}

/// What `form op 0` comes to.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Normal {
    /// Always true.
    True,
    /// Never true.
    False,
    /// A constraint on one variable.
    Var(u32, Constraint),
    /// A linear constraint.
    Linear(LinearConstraint),
    /// Coefficients beyond `i64`: the regression does not generate it.
    Overflow,
}

fn gcd(mut a: i128, mut b: i128) -> i128 {
    a = a.abs();
    b = b.abs();
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// `form op 0` in canonical form.
pub(crate) fn normalise(form: &Affine, op: Op) -> Normal {
    let mut terms = form.terms.clone();
    terms.sort_unstable_by_key(|(v, _)| *v);
    let mut merged: Vec<(u32, i128)> = Vec::with_capacity(terms.len());
    for (v, a) in terms {
        match merged.last_mut() {
            Some((w, b)) if *w == v => match b.checked_add(a) {
                Some(s) => *b = s,
                None => return Normal::Overflow,
            },
            _ => merged.push((v, a)),
        }
    }
    merged.retain(|(_, a)| *a != 0);
    let c = form.constant;
    match merged.as_slice() {
        [] => {
            return if crate::linear::exact_holds(c, op) {
                Normal::True
            } else {
                Normal::False
            }
        }
        [(v, a)] => {
            let raw = int_solutions(*a, c, op);
            return Normal::Var(*v, Constraint::Int(Intervals::new(VarType::Int, raw)));
        }
        _ => {}
    }
    // sum + c op 0, as sum rel bound.
    let (negate, rel, bound) = match op {
        Op::Le => (false, Rel::Le, c.checked_neg()),
        Op::Lt => (
            false,
            Rel::Le,
            c.checked_neg().and_then(|b| b.checked_sub(1)),
        ),
        Op::Ge => (true, Rel::Le, Some(c)),
        Op::Gt => (true, Rel::Le, c.checked_sub(1)),
        Op::Eq | Op::Ne => {
            let rel = if op == Op::Eq { Rel::Eq } else { Rel::Ne };
            if merged[0].1 < 0 {
                (true, rel, Some(c))
            } else {
                (false, rel, c.checked_neg())
            }
        }
    };
    let Some(mut bound) = bound else {
        return Normal::Overflow;
    };
    if negate {
        for (_, a) in &mut merged {
            *a = -*a;
        }
    }
    let g = merged.iter().fold(0, |g, &(_, a)| gcd(g, a));
    if g > 1 {
        for (_, a) in &mut merged {
            *a /= g;
        }
        let divisible = bound % g == 0;
        match rel {
            Rel::Le => bound = bound.div_euclid(g),
            Rel::Eq if !divisible => return Normal::False,
            Rel::Ne if !divisible => return Normal::True,
            Rel::Eq | Rel::Ne => bound /= g,
        }
    }
    let terms: Option<Box<[(u32, i64)]>> = merged
        .iter()
        .map(|&(v, a)| i64::try_from(a).ok().map(|a| (v, a)))
        .collect();
    match (terms, i64::try_from(bound)) {
        (Some(terms), Ok(bound)) => Normal::Linear(LinearConstraint {
            terms,
            op: rel,
            bound,
        }),
        _ => Normal::Overflow,
    }
}

/// Sorts and simplifies a subgoal's linear constraints where one implies
/// another (same terms: the tighter `<=`, an `==` over a `<=` it meets, an
/// `!=` that an `==` or a `<=` settles) or where the per-variable bounds
/// (`hull`) imply it, and reports `false` when they are provably
/// inconsistent: contradicting constraints with the same terms, or one that
/// the per-variable bounds cannot meet.
pub(crate) fn simplify(
    linear: &mut Vec<LinearConstraint>,
    hull: &dyn Fn(u32) -> (Option<i128>, Option<i128>),
) -> bool {
    linear.sort_unstable();
    linear.dedup();
    let mut kept: Vec<LinearConstraint> = Vec::with_capacity(linear.len());
    let mut i = 0;
    while i < linear.len() {
        let mut j = i;
        while j < linear.len() && linear[j].terms == linear[i].terms {
            j += 1;
        }
        // Same terms, sorted Le, Eq, Ne then by bound.
        let group = &linear[i..j];
        let le = group.iter().find(|c| c.op == Rel::Le).map(|c| c.bound);
        let eqs: Vec<i64> = group
            .iter()
            .filter(|c| c.op == Rel::Eq)
            .map(|c| c.bound)
            .collect();
        if eqs.len() > 1 {
            return false;
        }
        if let Some(&eq) = eqs.first() {
            if le.is_some_and(|le| eq > le)
                || group.iter().any(|c| c.op == Rel::Ne && c.bound == eq)
            {
                return false;
            }
            kept.push(LinearConstraint {
                terms: group[0].terms.clone(),
                op: Rel::Eq,
                bound: eq,
            });
        } else {
            if let Some(le) = le {
                kept.push(LinearConstraint {
                    terms: group[0].terms.clone(),
                    op: Rel::Le,
                    bound: le,
                });
            }
            for c in group.iter().filter(|c| c.op == Rel::Ne) {
                if le.is_none_or(|le| c.bound <= le) {
                    kept.push(c.clone());
                }
            }
        }
        i = j;
    }
    // Against the per-variable bounds: a constraint they contradict makes
    // the subgoal inconsistent; one they imply is dropped (so that with
    // bounded variables only finitely many subgoals exist).
    let mut consistent = true;
    kept.retain(|c| {
        let (low, high) = c.range(hull);
        let b = i128::from(c.bound);
        let (possible, implied) = match c.op {
            _ if c.terms.is_empty() => (false, false),
            Rel::Le => (
                low.is_none_or(|low| low <= b),
                high.is_some_and(|high| high <= b),
            ),
            Rel::Eq => (
                low.is_none_or(|low| low <= b) && high.is_none_or(|high| high >= b),
                low == high && low == Some(b),
            ),
            Rel::Ne => (
                !(low == high && low == Some(b)),
                low.is_some_and(|low| low > b) || high.is_some_and(|high| high < b),
            ),
        };
        consistent &= possible;
        !implied
    });
    *linear = kept;
    consistent
}

/// `form ∈ set` (an int set) as constraints: the hull's two sides and one
/// `!=` per value in each gap; `None` if a gap is too wide to list.
pub(crate) fn membership(form: &Affine, set: &Intervals) -> Option<Vec<Normal>> {
    /// Gaps wider than this are not listed (regression refuses domains
    /// whose conditions make them before searching).
    const WIDEST_GAP: i128 = 4096;
    let ints = set.to_ints();
    let (Some(&(lo, _)), Some(&(_, hi))) = (ints.first(), ints.last()) else {
        return Some(vec![Normal::False]);
    };
    let mut out = Vec::new();
    let shifted = |k: i64| Affine {
        terms: form.terms.clone(),
        constant: form.constant - i128::from(k),
    };
    if lo > i64::MIN {
        out.push(normalise(&shifted(lo), Op::Ge));
    }
    if hi < i64::MAX {
        out.push(normalise(&shifted(hi), Op::Le));
    }
    for pair in ints.windows(2) {
        let (from, to) = (i128::from(pair[0].1) + 1, i128::from(pair[1].0) - 1);
        if to - from + 1 > WIDEST_GAP {
            return None;
        }
        for p in from..=to {
            out.push(normalise(
                &Affine {
                    terms: form.terms.clone(),
                    constant: form.constant - p,
                },
                Op::Ne,
            ));
        }
    }
    Some(out)
}

/// The widest gap of an int constraint, in values (0 for an interval).
pub(crate) fn widest_gap(constraint: &Constraint) -> i128 {
    let Constraint::Int(set) = constraint else {
        return 0;
    };
    set.to_ints()
        .windows(2)
        .map(|p| i128::from(p[1].0) - i128::from(p[0].1) - 1)
        .max()
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form(terms: &[(u32, i128)], constant: i128) -> Affine {
        Affine {
            terms: terms.to_vec(),
            constant,
        }
    }

    #[test]
    fn normal_forms_are_canonical() {
        // x + y >= 3 and -2x - 2y <= -5 (that is x + y >= 2.5) agree.
        let a = normalise(&form(&[(0, 1), (1, 1)], -3), Op::Ge);
        let b = normalise(&form(&[(1, -2), (0, -2)], 5), Op::Le);
        assert_eq!(a, b);
        // 2x + 4y == 3 has no integer solution; != 3 always holds.
        assert_eq!(
            normalise(&form(&[(0, 2), (1, 4)], -3), Op::Eq),
            Normal::False
        );
        assert_eq!(
            normalise(&form(&[(0, 2), (1, 4)], -3), Op::Ne),
            Normal::True
        );
        // -x + y == 1 is x - y == -1.
        let Normal::Linear(c) = normalise(&form(&[(0, -1), (1, 1)], -1), Op::Eq) else {
            panic!()
        };
        assert_eq!((c.terms(), c.bound()), (&[(0, 1), (1, -1)][..], -1));
        // One variable: 3x < 7 is x <= 2.
        let Normal::Var(0, Constraint::Int(set)) = normalise(&form(&[(0, 3)], -7), Op::Lt) else {
            panic!()
        };
        assert_eq!(set.to_ints(), [(i64::MIN, 2)]);
        // Terms that cancel leave a constant.
        assert_eq!(
            normalise(&form(&[(0, 1), (0, -1)], 0), Op::Eq),
            Normal::True
        );
    }

    #[test]
    fn simplify_keeps_the_tighter_and_finds_contradictions() {
        let le = |b| LinearConstraint {
            terms: Box::new([(0, 1), (1, 1)]),
            op: Rel::Le,
            bound: b,
        };
        let eq = |b| LinearConstraint {
            op: Rel::Eq,
            ..le(b)
        };
        let free = |_| (None, None);
        let mut set = vec![le(5), le(3)];
        assert!(simplify(&mut set, &free));
        assert_eq!(set, [le(3)]);
        let mut set = vec![le(5), eq(4)];
        assert!(simplify(&mut set, &free));
        assert_eq!(set, [eq(4)]);
        assert!(!simplify(&mut vec![le(3), eq(4)], &free));
        // x, y >= 2 cannot meet x + y <= 3.
        let bounded = |_| (Some(2), None);
        assert!(!simplify(&mut vec![le(3)], &bounded));
        assert!(simplify(&mut vec![le(4)], &bounded));
    }
}
