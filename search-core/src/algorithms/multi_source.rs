//! Searches from several starts at once, through a virtual root whose
//! successors are the starts at cost zero: any algorithm then finds the
//! best path from whichever start is best, with no change to the engine.

use num_traits::Zero;

use crate::{Estimate, Heuristic, SearchSpace, Solution};

/// A node of a [`MultiSource`] space: the virtual root, or a node of the
/// space beneath.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Source<N> {
    /// The root the search starts from; its successors are the starts.
    Root,
    /// A node of the space beneath.
    Node(N),
}

/// `space` searched from every node of `starts`: start a search at
/// [`Source::Root`] (or call [`MultiSource::start`]) and read the path
/// with [`MultiSource::solution`].
///
/// ```
/// use search_core::{dijkstra, FnSpace, MultiSource};
///
/// // Two shops on a line of cells; the nearer to cell 7 is at 9.
/// let line = FnSpace::new(|&n: &i32| [(n - 1, 1_u32), (n + 1, 1)], |&n: &i32| n == 7);
/// let shops = MultiSource::new(&line, [0, 9]);
/// let result = dijkstra(&shops, shops.start()).unwrap();
/// let path = shops.solution(result.outcome.into_solution().unwrap());
/// assert_eq!(path.nodes, [9, 8, 7]);
/// assert_eq!(path.cost, 2);
/// ```
pub struct MultiSource<S: SearchSpace> {
    space: S,
    starts: Vec<S::Node>,
}

impl<S: SearchSpace> MultiSource<S> {
    /// `space` with several starts (a start given twice counts once).
    pub fn new(space: S, starts: impl IntoIterator<Item = S::Node>) -> Self {
        let mut unique = Vec::new();
        for start in starts {
            if !unique.contains(&start) {
                unique.push(start);
            }
        }
        Self {
            space,
            starts: unique,
        }
    }

    /// The node a search of this space starts from: [`Source::Root`].
    pub fn start(&self) -> Source<S::Node> {
        Source::Root
    }

    /// The starts.
    pub fn starts(&self) -> &[S::Node] {
        &self.starts
    }

    /// A solution of this space as one of the space beneath: the root and
    /// its zero-cost step left out, so the path begins at the start it
    /// came from.
    pub fn solution(
        &self,
        solution: Solution<Source<S::Node>, Option<S::Action>, S::Cost>,
    ) -> Solution<S::Node, S::Action, S::Cost> {
        Solution {
            actions: solution.actions.into_iter().flatten().collect(),
            nodes: solution
                .nodes
                .into_iter()
                .filter_map(|node| match node {
                    Source::Root => None,
                    Source::Node(node) => Some(node),
                })
                .collect(),
            cost: solution.cost,
        }
    }
}

impl<S: SearchSpace> SearchSpace for MultiSource<S> {
    type Node = Source<S::Node>;
    /// `None` for the root's step to a start.
    type Action = Option<S::Action>;
    type Cost = S::Cost;

    fn is_goal(&self, node: &Self::Node) -> bool {
        match node {
            Source::Root => false,
            Source::Node(node) => self.space.is_goal(node),
        }
    }

    fn successors<F>(&self, node: &Self::Node, mut emit: F)
    where
        F: FnMut(Self::Action, Self::Node, Self::Cost),
    {
        match node {
            Source::Root => {
                for start in &self.starts {
                    emit(None, Source::Node(start.clone()), S::Cost::zero());
                }
            }
            Source::Node(node) => self.space.successors(node, |action, next, cost| {
                emit(Some(action), Source::Node(next), cost);
            }),
        }
    }

    fn action_between(
        &self,
        parent: &Self::Node,
        child: &Self::Node,
    ) -> Option<(Self::Action, Self::Cost)> {
        match (parent, child) {
            (Source::Root, Source::Node(child)) => {
                self.starts.contains(child).then(|| (None, S::Cost::zero()))
            }
            (Source::Node(parent), Source::Node(child)) => self
                .space
                .action_between(parent, child)
                .map(|(action, cost)| (Some(action), cost)),
            (_, Source::Root) => None,
        }
    }

    /// The root is number 0; the space's nodes follow it.
    fn node_numbers(&self) -> Option<u64> {
        self.space.node_numbers()?.checked_add(1)
    }

    fn node_number(&self, node: &Self::Node) -> u64 {
        match node {
            Source::Root => 0,
            Source::Node(node) => self.space.node_number(node).saturating_add(1),
        }
    }

    fn node_heap_bytes(&self, node: &Self::Node) -> usize {
        match node {
            Source::Root => 0,
            Source::Node(node) => self.space.node_heap_bytes(node),
        }
    }
}

/// A heuristic of the space beneath, for a [`MultiSource`] search: zero at
/// the root (so it stays admissible and consistent).
///
/// ```
/// use search_core::{astar, FnSpace, MultiSource, OnSources};
///
/// let line = FnSpace::new(|&n: &i32| [(n - 1, 1_u32), (n + 1, 1)], |&n: &i32| n == 7);
/// let shops = MultiSource::new(&line, [0, 9]);
/// let distance = OnSources(search_core::Admissible(|&n: &i32| 7_i32.abs_diff(n)));
/// let result = astar(&shops, shops.start(), distance).unwrap();
/// assert_eq!(result.outcome.solution().unwrap().cost, 2);
/// ```
#[derive(Clone, Debug)]
pub struct OnSources<H>(pub H);

impl<N, C: Zero, H: Heuristic<N, C>> Heuristic<Source<N>, C> for OnSources<H> {
    fn estimate(&mut self, node: &Source<N>) -> Estimate<C> {
        match node {
            Source::Root => Estimate::Value(C::zero()),
            Source::Node(node) => self.0.estimate(node),
        }
    }

    fn is_admissible(&self) -> bool {
        self.0.is_admissible()
    }

    fn is_consistent(&self) -> bool {
        self.0.is_consistent()
    }

    fn notify_transition(&mut self, parent: &Source<N>, child: &Source<N>) {
        if let (Source::Node(parent), Source::Node(child)) = (parent, child) {
            self.0.notify_transition(parent, child);
        }
    }

    fn is_preferred(&mut self, parent: &Source<N>, child: &Source<N>) -> bool {
        match (parent, child) {
            (Source::Node(parent), Source::Node(child)) => self.0.is_preferred(parent, child),
            _ => false,
        }
    }

    fn memory_bytes(&self) -> usize {
        self.0.memory_bytes()
    }

    fn set_deadline(&mut self, deadline: Option<std::time::Instant>) {
        self.0.set_deadline(deadline);
    }

    fn set_memory_budget(&mut self, bytes: Option<usize>) {
        self.0.set_memory_budget(bytes);
    }
}
