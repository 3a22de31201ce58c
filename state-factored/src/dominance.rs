//! Dominance between complete states: more of a resource that conditions
//! only ever ask a minimum of is never worse.

use rustc_hash::FxHashMap;
use search_core::Dominance;

use crate::constraint::Constraint;
use crate::effect::Eff;
use crate::value::int_key;
use crate::{Cost, Domain, Goal, State, VarType};

/// How a variable's values compare for dominance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Order {
    /// Must be equal.
    Equal,
    /// No condition mentions it: any value will do.
    Free,
    /// Larger is never worse, for values up to `limit` (a slot key).
    Up { limit: u64 },
    /// Smaller is never worse, for values down to `limit` (a slot key).
    Down { limit: u64 },
}

/// Steps a plan can have: a search stores at most `u32::MAX` nodes, so no
/// plan it finds is longer.
const MAX_PLAN_STEPS: i64 = 1 << 32;

/// Forward-search dominance over the states of a domain (see
/// [`Dominance`]): a state `t` dominates `s` when they agree on every
/// variable that conditions compare for equality (strings, floats, bools
/// asked both ways, ints in ranges or sets), and `t` holds at least as much
/// of every int or bool that conditions only ask a minimum of (`>=`, `>`,
/// `== true`), and at most as much of every one they only ask a maximum of.
/// Effects add, subtract or set, the same in both states, so every plan
/// from `s` applies from `t`, at the same cost, and ends in a goal.
///
/// Sound for the optimal algorithms in forward search. Two edges are ruled
/// out where they would break that argument: domains with custom predicates,
/// custom effects, toggles on such a variable or state-dependent costs get
/// no dominance ([`new`](Self::new) returns `None`), and a state whose value
/// is within `2^32` steps of the largest change of overflowing never
/// dominates (the bigger value could overflow where the smaller does not).
///
/// In the economy benchmark it lets A* skip states such as "the same, with
/// less wood" (BENCHMARKS.md).
///
/// Variables that a linear condition or an expression effect reads or
/// writes must be equal: a linear condition may ask more of one variable
/// and less of another, and an expression copies a difference elsewhere.
///
/// ```
/// use search_core::{astar, Algorithm, Search};
/// use state_factored::{NumericHmax, ResourceDominance};
///
/// let p = state_factored::problems::economy(1).unwrap();
/// let space = p.domain.forward(&p.goal);
/// let dominance = ResourceDominance::new(&p.domain, &p.goal).unwrap();
/// let result = Search::new(&space, p.start.clone())
///     .heuristic(NumericHmax::new(&p.domain, &p.start, &p.goal))
///     .dominance(dominance)
///     .run()
///     .unwrap();
/// assert_eq!(result.outcome.solution().unwrap().cost, 29);
/// assert!(result.stats.dominated > 0);
/// ```
#[derive(Clone, Debug)]
pub struct ResourceDominance {
    /// The variables that must be equal.
    equal: Vec<usize>,
    /// The ordered variables, with their order.
    ordered: Vec<(usize, Order)>,
    /// Accepted states by their equal part: flat rows of `[g, ordered
    /// values...]`, none dominated by another row of the same bucket.
    accepted: FxHashMap<Box<[u64]>, Vec<u64>>,
    key: Vec<u64>,
    row: Vec<u64>,
}

/// How many of the latest accepted states of the same equal part a new
/// state is compared with. Checking fewer only prunes less; the latest are
/// the likeliest to dominate (a state and its detours through trades and
/// waste are reached close together), and a longer scan costs more than
/// the evaluations it saves (measured on the economy: BENCHMARKS.md).
const RECENT: usize = 64;

impl ResourceDominance {
    /// Dominance for forward search in `domain` towards `goal`; `None` when
    /// the domain has custom predicates or effects or state-dependent costs,
    /// or when no variable is ordered (nothing could ever be dominated).
    pub fn new(domain: &Domain, goal: &Goal) -> Option<Self> {
        if !goal.customs.is_empty()
            || domain
                .actions()
                .iter()
                .any(|a| !a.customs.is_empty() || a.cost_fn.is_some())
        {
            return None;
        }
        let schema = domain.schema();
        let mut orders: Vec<Order> = schema
            .vars()
            .map(|v| match v.var_type() {
                VarType::Int | VarType::Bool => Order::Free,
                VarType::Float | VarType::Str => Order::Equal,
            })
            .collect();
        let conditions = domain
            .actions()
            .iter()
            .flat_map(|a| a.pre_constraints.iter())
            .chain(goal.constraints.iter());
        for (var, constraint) in conditions {
            let order = &mut orders[*var as usize];
            *order = meet(*order, direction(constraint));
        }
        // A linear condition may ask for more of one variable and less of
        // another: its variables must be equal.
        let linear = domain
            .actions()
            .iter()
            .flat_map(|a| a.pre_linear.iter())
            .chain(goal.linear.iter());
        for (test, _) in linear {
            for v in test.expr.vars() {
                orders[v as usize] = Order::Equal;
            }
        }
        let mut largest_change = vec![0_i64; orders.len()];
        for effect in domain.actions().iter().flat_map(|a| a.effects.iter()) {
            match *effect {
                Eff::AddInt { var, d } | Eff::SubInt { var, d } => {
                    let change = &mut largest_change[var as usize];
                    *change = (*change).max(d.checked_abs().unwrap_or(i64::MAX));
                }
                Eff::Toggle { var } => orders[var as usize] = Order::Equal,
                Eff::Set { .. } | Eff::AddFloat { .. } => {}
                // The same value in both states only when what it reads is
                // the same; the target may then be anything.
                Eff::Expr(ref e) => {
                    orders[e.var as usize] = Order::Equal;
                    for v in e.expr.vars() {
                        orders[v as usize] = Order::Equal;
                    }
                }
                Eff::Custom { .. } => return None,
            }
        }
        let mut equal = Vec::new();
        let mut ordered = Vec::new();
        for (var, order) in orders.into_iter().enumerate() {
            let reach = largest_change[var].checked_mul(MAX_PLAN_STEPS);
            // Limits are int slot keys; a bool's 0 and 1 are inside them.
            let order = match (order, reach) {
                (Order::Up { .. }, Some(reach)) => Order::Up {
                    limit: int_key(i64::MAX - reach),
                },
                (Order::Down { .. }, Some(reach)) => Order::Down {
                    limit: int_key(i64::MIN + reach),
                },
                // Unasked, unchanged by additions: it cannot matter. (An
                // addition could overflow in one state and not the other.)
                (Order::Free, _) if largest_change[var] == 0 => continue,
                _ => Order::Equal,
            };
            if order == Order::Equal {
                equal.push(var);
            } else {
                ordered.push((var, order));
            }
        }
        if ordered.is_empty() {
            return None;
        }
        Some(Self {
            equal,
            ordered,
            accepted: FxHashMap::default(),
            key: Vec::new(),
            row: Vec::new(),
        })
    }
}

/// Whether the values `t` are at least as good as `s` on every ordered
/// variable.
#[inline]
fn covers(ordered: &[(usize, Order)], t: &[u64], s: &[u64]) -> bool {
    ordered
        .iter()
        .zip(t.iter().zip(s))
        .all(|((_, order), (&t, &s))| match *order {
            Order::Up { limit } => t >= s && t <= limit,
            Order::Down { limit } => t <= s && t >= limit,
            Order::Equal | Order::Free => t == s,
        })
}

/// The order a condition allows: `Up` if it only asks a minimum, `Down` if
/// only a maximum, `Free` if it always holds, `Equal` otherwise.
fn direction(constraint: &Constraint) -> Order {
    if constraint.is_universal() {
        return Order::Free;
    }
    if let Constraint::Bool(_) = constraint {
        return match (constraint.allows(0), constraint.allows(1)) {
            (false, true) => Order::Up { limit: 0 },
            (true, false) => Order::Down { limit: 0 },
            _ => Order::Equal,
        };
    }
    match constraint.one_sided() {
        Some(true) => Order::Up { limit: 0 },
        Some(false) => Order::Down { limit: 0 },
        None => Order::Equal,
    }
}

/// The order that satisfies both.
fn meet(a: Order, b: Order) -> Order {
    match (a, b) {
        (Order::Free, x) | (x, Order::Free) => x,
        (Order::Up { .. }, Order::Up { .. }) | (Order::Down { .. }, Order::Down { .. }) => a,
        _ => Order::Equal,
    }
}

impl Dominance<State, Cost> for ResourceDominance {
    fn is_dominated(&mut self, node: &State, g: Cost) -> bool {
        self.key.clear();
        self.key.extend(self.equal.iter().map(|&v| node.slot(v)));
        self.row.clear();
        self.row.push(u64::from(g));
        self.row
            .extend(self.ordered.iter().map(|&(v, _)| node.slot(v)));
        let width = self.row.len();
        let rows = match self.accepted.get_mut(self.key.as_slice()) {
            Some(rows) => rows,
            None => self.accepted.entry(self.key.as_slice().into()).or_default(),
        };
        let (row, ordered) = (&self.row, &self.ordered);
        let dominated = rows
            .rchunks_exact(width)
            .take(RECENT)
            .any(|t| t[0] <= row[0] && covers(ordered, &t[1..], &row[1..]));
        if !dominated {
            rows.extend_from_slice(row);
        }
        dominated
    }
}
