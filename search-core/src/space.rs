//! The boundary between the engine and a state representation.

use std::fmt::Debug;
use std::hash::Hash;

use crate::Cost;

/// A search node: anything cloneable, hashable and comparable.
///
/// `Debug` lets errors name the node where a bad edge cost appeared.
/// Implemented for every type with those traits.
pub trait Node: Clone + Eq + Hash + Debug {}

impl<T: Clone + Eq + Hash + Debug> Node for T {}

/// A search space: the successors of a node and a goal test.
///
/// The engine never looks inside a node; it only stores, hashes and compares
/// them. The start node is given to the search, not to the space, so one space
/// serves many searches.
///
/// ```
/// use search_core::{astar, SearchSpace};
///
/// /// Counting from a number up to `target` by +1 (cost 1) or *2 (cost 3).
/// struct Counter { target: u32 }
///
/// impl SearchSpace for Counter {
///     type Node = u32;
///     type Action = char;
///     type Cost = u32;
///
///     fn is_goal(&self, n: &u32) -> bool { *n == self.target }
///
///     fn successors<F: FnMut(char, u32, u32)>(&self, n: &u32, mut emit: F) {
///         if *n < self.target { emit('+', n + 1, 1); }
///         if *n * 2 <= self.target { emit('*', n * 2, 3); }
///     }
/// }
///
/// let result = astar(&Counter { target: 10 }, 1, |_: &u32| 0).unwrap();
/// let plan = result.outcome.solution().unwrap();
/// assert_eq!(plan.cost, 7); // 1 +1 2 +1 3 +1 4 +1 5 *2 10
/// assert_eq!(plan.actions, vec!['+', '+', '+', '+', '*']);
/// ```
pub trait SearchSpace {
    /// The node type.
    type Node: Node;
    /// The label of an edge (an action), returned with the solution path.
    type Action: Clone;
    /// The cost type of edges and paths.
    type Cost: Cost;

    /// Whether `node` is a goal.
    fn is_goal(&self, node: &Self::Node) -> bool;

    /// Calls `emit(action, successor, edge_cost)` once for each successor of
    /// `node`. Edge costs must be non-negative and not NaN; the engine checks.
    ///
    /// The eager engine keeps no action per stored node: it finds a plan's
    /// steps again with [`action_between`](Self::action_between), which by
    /// default calls this again for each of the plan's nodes.
    fn successors<F>(&self, node: &Self::Node, emit: F)
    where
        F: FnMut(Self::Action, Self::Node, Self::Cost);

    /// How many numbers a dense numbering of the nodes uses, if the space
    /// has one (a grid numbers its cells row by row). Then
    /// [`node_number`](Self::node_number) gives every node a distinct number
    /// below this, and the engine finds stored nodes in a flat table indexed
    /// by that number instead of a hash table: no hashing, and nodes that are
    /// near in the space are near in memory. The default is `None`.
    ///
    /// Used when the count is at most `2^32`; above that the engine hashes.
    /// The table is allocated in pages of 4,096 numbers as the search
    /// touches them, so a large numbering costs only what a search visits.
    ///
    /// ```
    /// use search_core::{bfs, SearchSpace};
    ///
    /// /// Cells 0..100 of a line, numbered by position.
    /// struct Line;
    /// impl SearchSpace for Line {
    ///     type Node = u8;
    ///     type Action = i8;
    ///     type Cost = u32;
    ///     fn is_goal(&self, n: &u8) -> bool { *n == 99 }
    ///     fn successors<F: FnMut(i8, u8, u32)>(&self, n: &u8, mut emit: F) {
    ///         if *n > 0 { emit(-1, n - 1, 1); }
    ///         if *n < 99 { emit(1, n + 1, 1); }
    ///     }
    ///     fn node_numbers(&self) -> Option<u64> { Some(100) }
    ///     fn node_number(&self, n: &u8) -> u64 { u64::from(*n) }
    /// }
    ///
    /// let result = bfs(&Line, 0).unwrap();
    /// assert_eq!(result.outcome.solution().unwrap().cost, 99);
    /// assert_eq!(result.stats.stored, 100);
    /// ```
    fn node_numbers(&self) -> Option<u64> {
        None
    }

    /// The number of `node` in the dense numbering: below
    /// [`node_numbers`](Self::node_numbers), and different for different
    /// nodes. Called only when `node_numbers` is `Some`. A number out of
    /// range, or one shared by two nodes the search meets, ends the search
    /// with an error naming the nodes, never a wrong answer.
    fn node_number(&self, node: &Self::Node) -> u64 {
        let _ = node;
        0
    }

    /// Bytes that `node` owns on the heap (the buffers of a `Vec` or `Box`
    /// inside it), which the engine adds to its memory estimate for every
    /// node it stores, so that
    /// [`max_memory_bytes`](crate::SearchLimits::max_memory_bytes) holds
    /// for nodes that allocate. Count the allocated capacity, and the
    /// allocator's overhead on each block if it matters (many small
    /// blocks), since the limit is meant for the process's memory. The
    /// default is 0, right for nodes without heap memory.
    ///
    /// ```
    /// use search_core::{bfs, SearchSpace};
    ///
    /// /// Strings of up to 8 letters `a` and `b`; the goal is "abba".
    /// struct Words;
    /// impl SearchSpace for Words {
    ///     type Node = String;
    ///     type Action = char;
    ///     type Cost = u32;
    ///     fn is_goal(&self, n: &String) -> bool { n == "abba" }
    ///     fn successors<F: FnMut(char, String, u32)>(&self, n: &String, mut emit: F) {
    ///         if n.len() < 8 {
    ///             for c in ['a', 'b'] { emit(c, format!("{n}{c}"), 1); }
    ///         }
    ///     }
    ///     fn node_heap_bytes(&self, n: &String) -> usize { n.capacity() }
    /// }
    ///
    /// let counted = bfs(&Words, String::new()).unwrap().stats.estimated_bytes;
    /// assert!(counted > 0);
    /// ```
    fn node_heap_bytes(&self, node: &Self::Node) -> usize {
        let _ = node;
        0
    }

    /// Whether [`successor`](Self::successor) makes every successor that
    /// [`successors`](Self::successors) emits. The default is `false`.
    /// Lazy search ([`LazyGreedy`](crate::LazyGreedy)) then keeps only
    /// the parent and the action of each edge on its open list, and makes
    /// the successor when it takes the edge, as Fast Downward's lazy
    /// search does: for large nodes (a planning state of hundreds of
    /// variables) the open list shrinks from a node an edge to a few bytes.
    fn makes_successors(&self) -> bool {
        false
    }

    /// The successor of `node` by `action`, the one
    /// [`successors`](Self::successors) emits with that action; `None` if
    /// the action does not apply. Called only where
    /// [`makes_successors`](Self::makes_successors) says so.
    ///
    /// ```
    /// use search_core::{LazyGreedy, SearchSpace};
    ///
    /// /// Count up by one or two from 0 to 9; the node is a large vector.
    /// struct Count;
    /// impl SearchSpace for Count {
    ///     type Node = Vec<u8>;
    ///     type Action = u8;
    ///     type Cost = u32;
    ///     fn is_goal(&self, n: &Vec<u8>) -> bool { n[0] == 9 }
    ///     fn successors<F: FnMut(u8, Vec<u8>, u32)>(&self, n: &Vec<u8>, mut emit: F) {
    ///         for step in [1, 2] {
    ///             if let Some(next) = self.successor(n, &step) { emit(step, next, 1); }
    ///         }
    ///     }
    ///     fn node_heap_bytes(&self, n: &Vec<u8>) -> usize { n.capacity() }
    ///     fn makes_successors(&self) -> bool { true }
    ///     fn successor(&self, n: &Vec<u8>, step: &u8) -> Option<Vec<u8>> {
    ///         (n[0] + step <= 9).then(|| { let mut next = n.clone(); next[0] += step; next })
    ///     }
    /// }
    ///
    /// let h = |n: &Vec<u8>| u32::from(9 - n[0]);
    /// let result = LazyGreedy::new(&Count, vec![0; 1000], vec![h]).run().unwrap();
    /// assert_eq!(result.outcome.solution().unwrap().nodes.last().unwrap()[0], 9);
    /// ```
    fn successor(&self, node: &Self::Node, action: &Self::Action) -> Option<Self::Node> {
        let _ = (node, action);
        None
    }

    /// The action, with its cost, that makes `child` from `parent`: of
    /// several, the cheapest, and the first of equally cheap ones in the
    /// order [`successors`](Self::successors) emits them, which is the one
    /// a search goes by. `None` if none does.
    ///
    /// The eager engine keeps no action per stored node (4 bytes or more
    /// each) and asks this for each step of the plan it writes. The
    /// default asks `successors` again, so a node must get the same
    /// successors every time. A space whose successors depend on what it
    /// has seen (pruning by the nodes it expanded, say) answers from the
    /// plain relation instead, and a space that wraps another passes the
    /// question on. A plan step that is not found ends the search with
    /// [`SearchError::SuccessorsChanged`](crate::SearchError).
    ///
    /// ```
    /// use search_core::{astar, SearchSpace};
    ///
    /// /// From 0, `a` and `b` both reach 1; `b` is cheaper.
    /// struct Two;
    /// impl SearchSpace for Two {
    ///     type Node = u8;
    ///     type Action = char;
    ///     type Cost = u32;
    ///     fn is_goal(&self, n: &u8) -> bool { *n == 1 }
    ///     fn successors<F: FnMut(char, u8, u32)>(&self, n: &u8, mut emit: F) {
    ///         if *n == 0 { emit('a', 1, 5); emit('b', 1, 2); }
    ///     }
    /// }
    ///
    /// assert_eq!(Two.action_between(&0, &1), Some(('b', 2)));
    /// let result = astar(&Two, 0, |_: &u8| 0).unwrap();
    /// assert_eq!(result.outcome.solution().unwrap().actions, ['b']);
    /// ```
    fn action_between(
        &self,
        parent: &Self::Node,
        child: &Self::Node,
    ) -> Option<(Self::Action, Self::Cost)> {
        let mut cheapest = CheapestStep::to(child);
        self.successors(parent, |action, node, cost| {
            cheapest.offer(action, &node, cost);
        });
        cheapest.found()
    }
}

/// The cheapest of the steps offered to it that reach one node, the first
/// of equally cheap ones: the answer of
/// [`SearchSpace::action_between`], for spaces that answer it from their
/// own enumeration of steps.
///
/// ```
/// use search_core::CheapestStep;
///
/// let mut cheapest = CheapestStep::to(&7);
/// cheapest.offer('a', &7, 3);
/// cheapest.offer('b', &6, 1);
/// cheapest.offer('c', &7, 2);
/// cheapest.offer('d', &7, 2);
/// assert_eq!(cheapest.found(), Some(('c', 2)));
/// ```
#[derive(Debug)]
pub struct CheapestStep<'n, N, A, C> {
    child: &'n N,
    found: Option<(A, C)>,
}

impl<'n, N: PartialEq, A, C: Ord> CheapestStep<'n, N, A, C> {
    /// Looks for the cheapest step to `child`.
    pub fn to(child: &'n N) -> Self {
        Self { child, found: None }
    }

    /// A step by `action` to `node` at `cost`: kept if it reaches the child
    /// more cheaply than any before it.
    pub fn offer(&mut self, action: A, node: &N, cost: C) {
        if node == self.child && self.found.as_ref().is_none_or(|(_, best)| cost < *best) {
            self.found = Some((action, cost));
        }
    }

    /// The cheapest step to the child offered, if any.
    pub fn found(self) -> Option<(A, C)> {
        self.found
    }
}

impl<S: SearchSpace + ?Sized> SearchSpace for &S {
    type Node = S::Node;
    type Action = S::Action;
    type Cost = S::Cost;

    fn is_goal(&self, node: &Self::Node) -> bool {
        (**self).is_goal(node)
    }

    fn successors<F>(&self, node: &Self::Node, emit: F)
    where
        F: FnMut(Self::Action, Self::Node, Self::Cost),
    {
        (**self).successors(node, emit);
    }

    fn node_numbers(&self) -> Option<u64> {
        (**self).node_numbers()
    }

    fn node_number(&self, node: &Self::Node) -> u64 {
        (**self).node_number(node)
    }

    fn node_heap_bytes(&self, node: &Self::Node) -> usize {
        (**self).node_heap_bytes(node)
    }

    fn makes_successors(&self) -> bool {
        (**self).makes_successors()
    }

    fn successor(&self, node: &Self::Node, action: &Self::Action) -> Option<Self::Node> {
        (**self).successor(node, action)
    }

    fn action_between(
        &self,
        parent: &Self::Node,
        child: &Self::Node,
    ) -> Option<(Self::Action, Self::Cost)> {
        (**self).action_between(parent, child)
    }
}
