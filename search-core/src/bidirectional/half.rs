//! One side of a bidirectional search: its space, heuristic and frontier,
//! and the expansion of its nodes.

use super::frontier::Frontier;
use super::meeting::Arrival;
use super::store::Inserted;
use num_traits::Zero;

use crate::engine::driver::End;
use crate::{Cost, Estimate, Heuristic, Limit, SearchError, SearchLimits, SearchSpace};

/// What expanding a node may stop on, shared with the search.
pub(crate) struct Guard<'a, C> {
    pub(crate) limits: &'a SearchLimits<C>,
    pub(crate) end: &'a mut Option<End>,
    /// The first path cost that passed the cost type, if one was left out.
    pub(crate) overflow: &'a mut Option<SearchError>,
    /// Whether the cost bound pruned a path.
    pub(crate) pruned: &'a mut bool,
}

pub(crate) struct Half<'s, S: SearchSpace, H> {
    pub(crate) space: &'s S,
    pub(crate) frontier: Frontier<S::Node, S::Action, S::Cost>,
    pub(crate) heuristic: H,
    /// The most successors one expansion gave, for the memory estimate.
    pub(crate) max_branching: usize,
    children: Vec<(S::Action, S::Node, S::Cost)>,
}

impl<'s, S: SearchSpace, H: Heuristic<S::Node, S::Cost>> Half<'s, S, H> {
    pub(crate) fn new(space: &'s S, heuristic: H) -> Self {
        Self {
            space,
            frontier: Frontier::new(),
            heuristic,
            max_branching: 1,
            children: Vec::new(),
        }
    }

    /// The same side with another heuristic (before the search begins).
    pub(crate) fn with_heuristic<H2>(self, heuristic: H2) -> Half<'s, S, H2> {
        Half {
            space: self.space,
            frontier: self.frontier,
            heuristic,
            max_branching: self.max_branching,
            children: self.children,
        }
    }

    /// Expands ready node `number`, reached at `g`, calling `stored` for
    /// each successor stored or reached more cheaply.
    pub(crate) fn expand(
        &mut self,
        (g, number): (S::Cost, u32),
        guard: &mut Guard<'_, S::Cost>,
        mut stored: impl FnMut(&Self, Arrival),
    ) {
        self.frontier.close((g, number));
        let node = self.frontier.node(number).clone();
        let mut children = std::mem::take(&mut self.children);
        self.space.successors(&node, |action, child, cost| {
            children.push((action, child, cost));
        });
        self.max_branching = self.max_branching.max(children.len());
        for (action, child, cost) in children.drain(..) {
            self.frontier.stats.generated += 1;
            let Some(child_g) = edge(guard, &node, g, cost) else {
                if guard.end.is_some() {
                    break;
                }
                continue;
            };
            if let Some(found) = self.offer(guard, Some((number, action)), child, child_g) {
                stored(self, found);
            }
            if guard.end.is_some() {
                break;
            }
        }
        self.children = children;
    }

    /// Offers `node` at `g`: stores it if it is new (not a dead end, not
    /// past the cost bound) or cheaper than before.
    pub(crate) fn offer(
        &mut self,
        guard: &mut Guard<'_, S::Cost>,
        parent: Option<(u32, S::Action)>,
        node: S::Node,
        g: S::Cost,
    ) -> Option<Arrival> {
        let bound = guard.limits.cost_bound;
        if bound.is_some_and(|bound| g > bound) {
            *guard.pruned = true;
            return None;
        }
        // A stored node keeps its estimate.
        let h = if self.frontier.find(&node).is_some() {
            S::Cost::zero()
        } else {
            self.frontier.stats.evaluated += 1;
            match self.heuristic.estimate(&node) {
                Estimate::Value(h) => h,
                Estimate::DeadEnd => {
                    self.frontier.stats.dead_ends += 1;
                    return None;
                }
            }
        };
        if self.heuristic.is_admissible() && bound.is_some_and(|bound| g.saturating_add(h) > bound)
        {
            *guard.pruned = true;
            return None;
        }
        if self.frontier.len() >= u32::MAX as usize {
            *guard.end = Some(End::Limit(Limit::StoredNodes));
            return None;
        }
        let heap = self.space.node_heap_bytes(&node);
        let (number, new) = match self.frontier.insert(node, parent, g, h, heap) {
            Inserted::New(number) => (number, true),
            Inserted::Cheaper(number, _) => (number, false),
            Inserted::NotCheaper => {
                self.frontier.stats.duplicates += 1;
                return None;
            }
        };
        // Asked only of a node kept, not of every duplicate.
        let is_goal = self.space.is_goal(self.frontier.node(number));
        Some(Arrival {
            number,
            new,
            is_goal,
        })
    }
}

/// The path cost of an edge of `cost` from `node` at `g`, if the edge is
/// valid and the sum fits: a path past the cost type is left out (the
/// first such is the error if no solution is found), and a negative or
/// NaN cost ends the search.
pub(crate) fn edge<N: std::fmt::Debug, C: Cost>(
    guard: &mut Guard<'_, C>,
    node: &N,
    g: C,
    cost: C,
) -> Option<C> {
    if !cost.is_valid_edge() {
        *guard.end = Some(End::Failed(SearchError::InvalidCost {
            node: format!("{node:?}"),
            cost: format!("{cost:?}"),
        }));
        return None;
    }
    let sum = g.checked_add(&cost);
    if sum.is_none() && guard.overflow.is_none() {
        *guard.overflow = Some(SearchError::CostOverflow {
            node: format!("{node:?}"),
            path_cost: g.to_string(),
            action_cost: cost.to_string(),
            cost_type: std::any::type_name::<C>(),
            max: C::largest().to_string(),
        });
    }
    sum
}
