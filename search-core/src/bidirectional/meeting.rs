//! Where the two sides of a bidirectional search meet.

use super::store::Store;
use super::{Side, Stored};
use crate::{Cost, Node, Solution};

/// The meeting test of a bidirectional search: which nodes stored by one
/// side a new node of the other side meets.
///
/// A forward node `f` meets a backward node `b` when every path from `b`
/// back to the backward root (the goal) also leads from `f`: on a graph,
/// when they are the same node ([`SameNode`]); in planning, when the
/// forward state satisfies the regression subgoal. Then the start's path
/// to `f`, followed by `b`'s path to the goal, is a solution.
///
/// The search tells the meeting every node it stores, so that an index
/// can answer without comparing against each stored node in turn (a
/// planner's index of subgoals by the atoms they fix); one that needs no
/// index of its own, such as
/// [`SameNode`], looks the node up among the other side's [`Stored`]
/// nodes instead.
pub trait Meeting<F, B> {
    /// Calls `met` with the number of every stored backward node that the
    /// forward node `node` meets.
    fn forward_meets(&self, node: &F, backward: Stored<'_, B>, met: impl FnMut(u32));

    /// Calls `met` with the number of every stored forward node that meets
    /// the backward node `node`.
    fn backward_meets(&self, node: &B, forward: Stored<'_, F>, met: impl FnMut(u32));

    /// The forward side stored `node` under `number`. The default ignores
    /// it.
    fn insert_forward(&mut self, node: &F, number: u32) {
        let _ = (node, number);
    }

    /// The backward side stored `node` under `number`. The default ignores
    /// it.
    fn insert_backward(&mut self, node: &B, number: u32) {
        let _ = (node, number);
    }

    /// Bytes the meeting's own index holds, for
    /// [`max_memory_bytes`](crate::SearchLimits::max_memory_bytes). The
    /// default is 0.
    fn memory_bytes(&self) -> usize {
        0
    }
}

/// Nodes meet when they are equal: the meeting of explicit graphs, where
/// the backward side searches the reversed edges over the same nodes. It
/// finds a node among the other side's stored nodes with one hash lookup.
///
/// ```
/// use search_core::bidirectional::{Meeting, Nbs, SameNode};
/// use search_core::FnSpace;
///
/// // A line of cells 0..=20: both sides step by one.
/// let forward = FnSpace::new(|&n: &u32| [(n + 1, 1_u32)], |&n: &u32| n == 20);
/// let backward = FnSpace::new(|&n: &u32| n.checked_sub(1).map(|p| (p, 1)), |&n: &u32| n == 0);
/// let result = Nbs::new(&forward, 0, &backward, 20, SameNode).run().unwrap();
/// assert_eq!(result.outcome.solution().unwrap().cost, 20);
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct SameNode;

impl<N: Node> Meeting<N, N> for SameNode {
    fn forward_meets(&self, node: &N, backward: Stored<'_, N>, mut met: impl FnMut(u32)) {
        if let Some(number) = backward.find(node) {
            met(number);
        }
    }

    fn backward_meets(&self, node: &N, forward: Stored<'_, N>, mut met: impl FnMut(u32)) {
        if let Some(number) = forward.find(node) {
            met(number);
        }
    }
}

/// Where a solution joins the two sides.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Meet {
    /// The forward node it leaves the forward side at; `None` for the
    /// start itself (met by a backward node that the backward space calls
    /// a goal).
    pub(crate) forward: Option<u32>,
    /// The backward node it joins the backward side at; `None` when the
    /// forward node is a goal of the forward space itself.
    pub(crate) backward: Option<u32>,
}

/// The solution of `cost` joined at `meet`: the forward path from `start`
/// to the meeting node, then the backward path from the node it meets on
/// to the goal, tagged by side.
pub(crate) fn join<F: Node, B: Node, A: Clone, C: Cost>(
    start: &F,
    forward: &Store<F, A, C>,
    backward: &Store<B, A, C>,
    cost: C,
    meet: Meet,
) -> Solution<Side<F, B>, A, C> {
    let (mut nodes, mut actions) = match meet.forward {
        Some(number) => {
            let (nodes, actions) = forward.path(number);
            (nodes.into_iter().map(Side::Forward).collect(), actions)
        }
        None => (vec![Side::Forward(start.clone())], Vec::new()),
    };
    if let Some(number) = meet.backward {
        // The backward path runs from the goal to the meeting node, which
        // the forward node stands for: passed in reverse, without it.
        let (mut back, back_actions) = backward.path(number);
        back.pop();
        nodes.extend(back.into_iter().rev().map(Side::Backward));
        actions.extend(back_actions.into_iter().rev());
    }
    Solution {
        actions,
        nodes,
        cost,
    }
}
