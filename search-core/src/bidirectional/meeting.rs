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

/// A node a side stored, or reached more cheaply: the search checks it
/// against the other side.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Arrival {
    pub(crate) number: u32,
    /// First seen (then the meeting's index is told of it).
    pub(crate) new: bool,
    /// A goal of this side's space.
    pub(crate) is_goal: bool,
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

/// The meetings of a bidirectional search so far: the meeting test, told
/// of every node each side stores, and the cheapest solution the meetings
/// gave within the cost bound.
#[derive(Clone, Debug)]
pub(crate) struct Meetings<M, C> {
    pub(crate) test: M,
    best: Option<(C, Meet)>,
    /// Whether the cost bound left a solution out.
    pub(crate) pruned: bool,
}

impl<M, C: Cost> Meetings<M, C> {
    pub(crate) fn new(test: M) -> Self {
        Self {
            test,
            best: None,
            pruned: false,
        }
    }

    /// The cheapest solution found: its cost and where it joins the sides.
    pub(crate) fn best(&self) -> Option<(C, Meet)> {
        self.best
    }

    /// Keeps the solution of `cost` joined at `meet` if it is within
    /// `bound` and the cheapest; whether it is within `bound`.
    fn keep(&mut self, cost: C, meet: Meet, bound: Option<C>) -> bool {
        if bound.is_some_and(|bound| cost > bound) {
            self.pruned = true;
            return false;
        }
        if self.best.is_none_or(|(least, _)| cost < least) {
            self.best = Some((cost, meet));
        }
        true
    }

    /// Forward node `number`, just stored (`new`) or reached more cheaply:
    /// tells the test of it, and keeps the solution it ends (a goal of the
    /// forward space) or, else, the cheapest one through a stored
    /// backward node it meets. Whether it gave a solution within `bound`.
    pub(crate) fn forward_stored<F: Node, B: Node, A: Clone>(
        &mut self,
        forward: &Store<F, A, C>,
        backward: &Store<B, A, C>,
        Arrival {
            number,
            new,
            is_goal,
        }: Arrival,
        bound: Option<C>,
    ) -> bool
    where
        M: Meeting<F, B>,
    {
        let (node, g) = (forward.node(number), forward.g(number));
        if new {
            self.test.insert_forward(node, number);
        }
        let at = |backward| Meet {
            forward: Some(number),
            backward,
        };
        if is_goal {
            // The backward side's `g`s are not negative: no meeting is
            // cheaper.
            return self.keep(g, at(None), bound);
        }
        let met = cheapest(
            |met| self.test.forward_meets(node, backward.stored(), met),
            |b| g.saturating_add(backward.g(b)),
        );
        met.is_some_and(|(cost, b)| self.keep(cost, at(Some(b)), bound))
    }

    /// Backward node `number`, just stored (`new`) or reached more
    /// cheaply: tells the test of it, and keeps the solution it is if the
    /// start meets it (`is_goal`: a goal of the backward space). Whether it
    /// gave a solution within `bound`. Whether it meets a stored forward
    /// node is asked when it is expanded
    /// ([`backward_expanded`](Self::backward_expanded)).
    pub(crate) fn backward_stored<F, B: Node, A: Clone>(
        &mut self,
        backward: &Store<B, A, C>,
        Arrival {
            number,
            new,
            is_goal,
        }: Arrival,
        bound: Option<C>,
    ) -> bool
    where
        M: Meeting<F, B>,
    {
        if new {
            self.test.insert_backward(backward.node(number), number);
        }
        let at = Meet {
            forward: None,
            backward: Some(number),
        };
        is_goal && self.keep(backward.g(number), at, bound)
    }

    /// Backward node `number`, about to be expanded: keeps the cheapest
    /// solution through a stored forward node it meets; whether that is
    /// within `bound`.
    ///
    /// Asking when a backward node is expanded, not when it is stored,
    /// asks once per expansion instead of once per successor (the query on
    /// stored states is the costlier of the two). No meeting on a path is
    /// missed: where the sides' stored nodes overlap on it, either the
    /// forward node was stored after the backward one it meets (and asked
    /// then), or the backward one is expanded after both were stored, or
    /// both are still open, and a search that ends with open nodes on a
    /// cheaper path than its solution says why it may (NBS's bound, TTBS's
    /// first meeting).
    pub(crate) fn backward_expanded<F: Node, B: Node, A: Clone>(
        &mut self,
        forward: &Store<F, A, C>,
        backward: &Store<B, A, C>,
        number: u32,
        bound: Option<C>,
    ) -> bool
    where
        M: Meeting<F, B>,
    {
        let (node, g) = (backward.node(number), backward.g(number));
        let met = cheapest(
            |met| self.test.backward_meets(node, forward.stored(), met),
            |f| forward.g(f).saturating_add(g),
        );
        let at = |f| Meet {
            forward: Some(f),
            backward: Some(number),
        };
        met.is_some_and(|(cost, f)| self.keep(cost, at(f), bound))
    }
}

/// The cheapest of the nodes `meets` reports, by `cost`, with its cost.
fn cheapest<C: Cost>(
    meets: impl FnOnce(&mut dyn FnMut(u32)),
    cost: impl Fn(u32) -> C,
) -> Option<(C, u32)> {
    let mut met = None;
    meets(&mut |number| {
        let cost = cost(number);
        if met.is_none_or(|(least, _)| cost < least) {
            met = Some((cost, number));
        }
    });
    met
}
