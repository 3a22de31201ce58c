//! [`StateIndex`]: stored complete states, found by the subgoals they
//! satisfy.

use super::{is_unbounded, lowest, track, NumberLists, BUCKET, END};
use crate::{vec_bytes, Bits, PartialState, WorldState};

/// A node of the binary trie.
#[derive(Clone, Debug)]
enum Node<B> {
    /// `sides[0]` holds the states below where `atom` is false,
    /// `sides[1]` those where it is true.
    Branch { atom: usize, sides: [usize; 2] },
    /// Up to [`BUCKET`] distinct states (more only if they are copies),
    /// each with the head of its list of numbers.
    Leaf { bucket: Vec<(B, usize)> },
}

/// Stored complete states, each with a number, found by the subgoals they
/// satisfy without checking each state.
///
/// A binary trie over the atoms in index order with path compression: a
/// leaf that grows too big splits at the lowest atom on which its states
/// differ, so atoms on which they all agree take no branch. A query
/// follows the one side a subgoal asks for at an atom it cares about and
/// both sides elsewhere, then checks the subgoal against each state of the
/// leaves it reaches (the atoms no branch tested). Leaves are buckets of
/// up to a few dozen states: checking them one after another in memory
/// costs less than reaching the scattered nodes that would tell them
/// apart.
///
/// Generic over [`Bits`]; a [`SparseBits`](crate::SparseBits) complement
/// (infinitely many true atoms) is kept aside and checked on every query.
///
/// ```
/// use state_atomic::{PartialState, StateIndex, WorldState};
/// let mut index = StateIndex::<u64>::new();
/// index.insert(&WorldState::new(0b011), 1);
/// index.insert(&WorldState::new(0b110), 2);
/// index.insert(&WorldState::new(0b011), 3);
/// let mut found = Vec::new();
/// index.satisfying(&PartialState::new(0b001, 0b001), |n| found.push(n)); // atom 0
/// found.sort_unstable();
/// assert_eq!(found, [1, 3]);
/// ```
#[derive(Clone, Debug)]
pub struct StateIndex<B: Bits> {
    /// `nodes[0]` is the root.
    nodes: Vec<Node<B>>,
    numbers: NumberLists,
    unbounded: Vec<(WorldState<B>, u32)>,
    /// The buckets' and the states' heap bytes, kept as they grow so that
    /// [`memory_bytes`](Self::memory_bytes) does not walk the nodes.
    heap_bytes: usize,
    len: usize,
}

impl<B: Bits> Default for StateIndex<B> {
    fn default() -> Self {
        Self::new()
    }
}

impl<B: Bits> StateIndex<B> {
    /// An empty index.
    ///
    /// ```
    /// use state_atomic::StateIndex;
    /// assert!(StateIndex::<u64>::new().is_empty());
    /// ```
    pub fn new() -> Self {
        Self {
            nodes: vec![Node::Leaf { bucket: Vec::new() }],
            numbers: NumberLists::default(),
            unbounded: Vec::new(),
            heap_bytes: 0,
            len: 0,
        }
    }

    /// Stores `state` under `number`. Numbers need not be distinct, nor
    /// states: a state stored twice is reported once per number.
    ///
    /// ```
    /// use state_atomic::{StateIndex, WorldState};
    /// let mut index = StateIndex::<u64>::new();
    /// index.insert(&WorldState::new(5), 0);
    /// index.insert(&WorldState::new(5), 1);
    /// assert_eq!(index.len(), 2);
    /// ```
    pub fn insert(&mut self, state: &WorldState<B>, number: u32) {
        self.len += 1;
        let bits = state.as_bits();
        if is_unbounded(bits) {
            self.heap_bytes += bits.heap_bytes();
            self.unbounded.push((state.clone(), number));
            return;
        }
        let mut node = 0;
        loop {
            match &mut self.nodes[node] {
                Node::Branch { atom, sides } => node = sides[usize::from(bits.get(*atom))],
                Node::Leaf { bucket } => {
                    if let Some((_, numbers)) = bucket.iter_mut().find(|(s, _)| s == bits) {
                        self.numbers.push(numbers, number);
                        return;
                    }
                    let mut numbers = END;
                    self.numbers.push(&mut numbers, number);
                    self.heap_bytes += bits.heap_bytes();
                    track(&mut self.heap_bytes, bucket, (bits.clone(), numbers));
                    if bucket.len() > BUCKET {
                        self.split(node);
                    }
                    return;
                }
            }
        }
    }

    /// Turns the leaf `node` into a branch at the lowest atom on which its
    /// states differ, with a leaf on each side.
    fn split(&mut self, node: usize) {
        let Node::Leaf { bucket } = &mut self.nodes[node] else {
            return;
        };
        let Some((first, _)) = bucket.first() else {
            return;
        };
        let (all, any) = bucket.iter().fold(
            (first.clone(), first.clone()),
            |(all, any), (state, _)| (all & state, any | state),
        );
        let Some(atom) = lowest(&(all ^ any)) else {
            return; // copies: nothing tells them apart
        };
        let bucket = std::mem::take(bucket);
        self.heap_bytes -= vec_bytes(&bucket);
        let mut halves = [Vec::new(), Vec::new()];
        for (state, numbers) in bucket {
            let half = &mut halves[usize::from(state.get(atom))];
            track(&mut self.heap_bytes, half, (state, numbers));
        }
        let sides = [self.nodes.len(), self.nodes.len() + 1];
        self.nodes
            .extend(halves.map(|bucket| Node::Leaf { bucket }));
        self.nodes[node] = Node::Branch { atom, sides };
    }

    /// Calls `found` with the number of every stored state that satisfies
    /// `subgoal` (each stored state once per time it was inserted), in no
    /// particular order.
    ///
    /// ```
    /// use state_atomic::{PartialState, StateIndex, WorldState};
    /// let mut index = StateIndex::<u64>::new();
    /// index.insert(&WorldState::new(0b10), 4);
    /// let mut found = Vec::new();
    /// index.satisfying(&PartialState::new(0b00, 0b01), |n| found.push(n)); // !atom 0
    /// index.satisfying(&PartialState::new(0b01, 0b01), |n| found.push(n)); // atom 0
    /// assert_eq!(found, [4]);
    /// ```
    pub fn satisfying(&self, subgoal: &PartialState<B>, mut found: impl FnMut(u32)) {
        let (care, values) = (subgoal.as_care(), subgoal.as_values());
        let mut stack = vec![0];
        while let Some(node) = stack.pop() {
            match &self.nodes[node] {
                Node::Branch { atom, sides } => {
                    if care.get(*atom) {
                        stack.push(sides[usize::from(values.get(*atom))]);
                    } else {
                        stack.extend(sides);
                    }
                }
                Node::Leaf { bucket } => {
                    for (state, numbers) in bucket {
                        if state.agrees_on(values, care) {
                            self.numbers.for_each(*numbers, &mut found);
                        }
                    }
                }
            }
        }
        for (state, number) in &self.unbounded {
            if state.satisfies(subgoal) {
                found(*number);
            }
        }
    }

    /// How many states were inserted (duplicates counted).
    ///
    /// ```
    /// use state_atomic::{StateIndex, WorldState};
    /// let mut index = StateIndex::<u64>::new();
    /// index.insert(&WorldState::new(0), 0);
    /// assert_eq!(index.len(), 1);
    /// ```
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no state was inserted.
    ///
    /// ```
    /// use state_atomic::StateIndex;
    /// assert!(StateIndex::<u64>::default().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The heap memory the index holds at its capacity, in bytes: what a
    /// memory limit should count.
    ///
    /// ```
    /// use state_atomic::{StateIndex, WorldState};
    /// let mut index = StateIndex::<u64>::new();
    /// let before = index.memory_bytes();
    /// index.insert(&WorldState::new(1), 0);
    /// assert!(index.memory_bytes() > before);
    /// ```
    pub fn memory_bytes(&self) -> usize {
        vec_bytes(&self.nodes)
            + self.numbers.memory_bytes()
            + vec_bytes(&self.unbounded)
            + self.heap_bytes
    }
}
