//! Actions compiled for forward search: every action's slot checks and
//! slot writes in two flat arrays, read with the state's slots borrowed
//! once per expansion.
//!
//! A game agent's plan expands a dozen states, so the interpreted path's
//! fixed costs (a call per action for its tests, an enum of effect kinds
//! behind each write) were most of a plan. The compiled rows hold plain
//! data; an action the rows cannot say (linear or custom tests, expression
//! or custom effects, a state-dependent cost) keeps the interpreted path.

use crate::action::Action;
use crate::constraint::Check;
use crate::effect::Eff;
use crate::value::{float_key, int_key, key_float, key_int};
use crate::{ActionId, Cost, State};

/// The compiled actions of a domain, in the domain's order.
#[derive(Clone, Debug, Default)]
pub(crate) struct CompiledActions {
    rows: Vec<Row>,
    checks: Vec<Check>,
    writes: Vec<Write>,
    /// How many actions are on the interpreted path.
    interpreted: usize,
}

/// One action: how many checks and writes it has in the flat arrays (they
/// start where the previous row's end), and its cost; `None` for an
/// action on the interpreted path.
#[derive(Clone, Copy, Debug)]
struct Row {
    checks: u32,
    writes: u32,
    cost: Option<Cost>,
}

/// One effect on one slot, as plain data.
#[derive(Clone, Copy, Debug)]
struct Write {
    slot: u32,
    kind: WriteKind,
    /// The slot written (`Set`), or the step's bits (`AddInt`, `AddFloat`).
    operand: u64,
}

#[derive(Clone, Copy, Debug)]
enum WriteKind {
    Set,
    /// Adds the operand as an `i64`, refusing on overflow.
    AddInt,
    /// Subtracts the operand as an `i64`, refusing on overflow.
    SubInt,
    /// Adds the operand as an `f64`, refusing a result that is not finite.
    AddFloat,
    Toggle,
}

impl CompiledActions {
    /// Adds `action` as the next row.
    pub(crate) fn push(&mut self, action: &Action) {
        let writes: Option<Vec<Write>> = action.effects.iter().map(Write::of).collect();
        let checks = action.pre_tests.checks_only();
        let row = match (checks, &writes, &action.cost_fn) {
            (Some(checks), Some(writes), None) => {
                self.checks.extend_from_slice(checks);
                self.writes.extend_from_slice(writes);
                Row {
                    checks: count(checks.len()),
                    writes: count(writes.len()),
                    cost: Some(action.cost),
                }
            }
            _ => Row {
                checks: 0,
                writes: 0,
                cost: None,
            },
        };
        self.interpreted += usize::from(row.cost.is_none());
        self.rows.push(row);
    }

    /// Whether every action is compiled (none on the interpreted path).
    pub(crate) fn is_complete(&self) -> bool {
        self.interpreted == 0
    }

    /// Calls `each` with every action's index, checks, writes and cost
    /// (`None`: the action is on the interpreted path), in the domain's order.
    #[inline]
    fn rows(&self, mut each: impl FnMut(ActionId, &[Check], &[Write], Option<Cost>)) {
        let (mut checks, mut writes) = (self.checks.as_slice(), self.writes.as_slice());
        for (id, row) in (0..).map(ActionId).zip(&self.rows) {
            let (own_checks, rest_checks) = checks.split_at(row.checks as usize);
            let (own_writes, rest_writes) = writes.split_at(row.writes as usize);
            each(id, own_checks, own_writes, row.cost);
            (checks, writes) = (rest_checks, rest_writes);
        }
    }

    /// Emits each successor of `node` as `(action, state, cost)`, in the
    /// domain's order of actions: what applying each applicable action of
    /// `actions` (the domain's, in the order the rows were pushed) gives.
    #[inline]
    pub(crate) fn successors<F>(&self, actions: &[Action], node: &State, mut emit: F)
    where
        F: FnMut(ActionId, State, Cost),
    {
        let slots = node.as_slots();
        self.rows(|id, checks, writes, cost| {
            let Some(cost) = cost else {
                let action = &actions[id.index()];
                if action.is_applicable(node) {
                    if let Some(next) = action.effects_on(node) {
                        emit(id, next, action.cost_in(node));
                    }
                }
                return;
            };
            if holds(checks, slots) {
                let mut next = node.clone();
                if apply(writes, next.as_slots_mut()) {
                    emit(id, next, cost);
                }
            }
        });
    }

    /// Emits each successor of the fixed-width `slots` (every action
    /// compiled: see [`is_complete`](Self::is_complete)).
    #[inline]
    pub(crate) fn fixed_successors<const W: usize, F>(&self, slots: &[u64; W], mut emit: F)
    where
        F: FnMut(ActionId, [u64; W], Cost),
    {
        self.rows(|id, checks, writes, cost| {
            if let Some(cost) = cost {
                if holds_fixed(checks, slots) {
                    let mut next = *slots;
                    if apply(writes, &mut next) {
                        emit(id, next, cost);
                    }
                }
            }
        });
    }
}

/// Whether every check holds on `slots`.
#[inline]
pub(crate) fn holds(checks: &[Check], slots: &[u64]) -> bool {
    checks.iter().all(|c| c.holds(slots[c.var as usize]))
}

/// [`holds`] on a fixed-width state, every check's variable below `W`:
/// the remainder is that variable, and tells the compiler so (no bounds
/// check: a mask where `W` is a power of two; `W = 0` has no checks).
#[inline]
pub(crate) fn holds_fixed<const W: usize>(checks: &[Check], slots: &[u64; W]) -> bool {
    checks
        .iter()
        .all(|c| c.holds(slots[c.var as usize % W.max(1)]))
}

/// A row's count of checks or writes; an action never holds `u32::MAX`.
fn count(len: usize) -> u32 {
    u32::try_from(len).unwrap_or(u32::MAX)
}

/// Applies `writes` in order to `slots`; `false` if one refuses (an
/// overflow, or a float that is not finite), as the effects would.
#[inline]
fn apply(writes: &[Write], slots: &mut [u64]) -> bool {
    for w in writes {
        let slot = &mut slots[w.slot as usize];
        *slot = match w.kind {
            WriteKind::Set => w.operand,
            WriteKind::Toggle => *slot ^ 1,
            WriteKind::AddInt | WriteKind::SubInt => {
                let (x, step) = (key_int(*slot), i64::from_ne_bytes(w.operand.to_ne_bytes()));
                let next = match w.kind {
                    WriteKind::AddInt => x.checked_add(step),
                    _ => x.checked_sub(step),
                };
                match next {
                    Some(x) => int_key(x),
                    None => return false,
                }
            }
            WriteKind::AddFloat => {
                let x = key_float(*slot) + f64::from_bits(w.operand);
                if !x.is_finite() {
                    return false;
                }
                float_key(x)
            }
        };
    }
    true
}

impl Write {
    /// `effect` as a write; `None` for the effects that read other
    /// variables or run the caller's code.
    fn of(effect: &Eff) -> Option<Self> {
        let (slot, kind, operand) = match *effect {
            Eff::Set { var, slot } => (var, WriteKind::Set, slot),
            Eff::AddInt { var, d } => (var, WriteKind::AddInt, u64::from_ne_bytes(d.to_ne_bytes())),
            Eff::SubInt { var, d } => (var, WriteKind::SubInt, u64::from_ne_bytes(d.to_ne_bytes())),
            Eff::AddFloat { var, d } => (var, WriteKind::AddFloat, d.to_bits()),
            Eff::Toggle { var } => (var, WriteKind::Toggle, 0),
            Eff::Expr(_) | Eff::Custom { .. } => return None,
        };
        Some(Self {
            slot,
            kind,
            operand,
        })
    }
}
