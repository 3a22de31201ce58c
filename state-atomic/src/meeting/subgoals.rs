//! [`SubgoalIndex`]: stored subgoals, found by the states that satisfy them.

use std::marker::PhantomData;

use super::{is_unbounded, NumberLists, END};
use crate::{vec_bytes, Bits, PartialState, WorldState};

/// One constraint of a subgoal: `atom` must be `value`. Ordered by atom,
/// the order every subgoal's literals are spelled in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Literal {
    atom: usize,
    value: bool,
}

/// A node of the set-trie: the literals on the edge into it (a range of
/// [`SubgoalIndex::literals`], so a chain of single children is one node),
/// its children and the subgoals that end here.
#[derive(Clone, Debug)]
struct Node {
    start: usize,
    end: usize,
    /// `(first literal of the child's edge, child)`, sorted: at most one
    /// child per literal.
    children: Vec<(Literal, usize)>,
    /// The head of this node's list in [`SubgoalIndex::numbers`].
    numbers: usize,
}

/// Stored subgoals, each with a number, found by the complete states that
/// satisfy them without checking each subgoal.
///
/// A set-trie (Hoffmann and Koehler's UBTree, "A new method to index and
/// query sets", 1999) over each subgoal's literals `(atom, value)` in atom
/// order, with chains of single children merged into one node. A query
/// walks only the edges whose literals the state makes true: every
/// subgoal down such a path is satisfied, and a whole subtree is skipped
/// at its first false literal. Subgoals that share literals (a regression
/// search's subgoals come from the same goal) share their path.
///
/// Generic over [`Bits`]; a [`SparseBits`](crate::SparseBits) complement
/// (infinitely many atoms) is kept aside and checked on every query.
///
/// ```
/// use state_atomic::{PartialState, SubgoalIndex, WorldState};
/// let mut index = SubgoalIndex::<u64>::new();
/// index.insert(&PartialState::new(0b01, 0b01), 7); // atom 0 true
/// index.insert(&PartialState::new(0b00, 0b10), 8); // atom 1 false
/// index.insert(&PartialState::empty(), 9); // every state
/// let mut found = Vec::new();
/// index.satisfied_by(&WorldState::new(0b11), |n| found.push(n));
/// found.sort_unstable();
/// assert_eq!(found, [7, 9]);
/// ```
#[derive(Clone, Debug)]
pub struct SubgoalIndex<B: Bits> {
    /// `nodes[0]` is the root, with no edge: the empty subgoal ends there.
    nodes: Vec<Node>,
    /// The edges' literals, each edge a range.
    literals: Vec<Literal>,
    numbers: NumberLists,
    unbounded: Vec<(PartialState<B>, u32)>,
    /// The children vectors' and the unbounded subgoals' heap bytes, kept
    /// as they grow so that [`memory_bytes`](Self::memory_bytes) does not
    /// walk the nodes.
    heap_bytes: usize,
    len: usize,
    bits: PhantomData<B>,
}

impl<B: Bits> Default for SubgoalIndex<B> {
    fn default() -> Self {
        Self::new()
    }
}

impl<B: Bits> SubgoalIndex<B> {
    /// An empty index.
    ///
    /// ```
    /// use state_atomic::SubgoalIndex;
    /// assert!(SubgoalIndex::<u64>::new().is_empty());
    /// ```
    pub fn new() -> Self {
        Self {
            nodes: vec![Node {
                start: 0,
                end: 0,
                children: Vec::new(),
                numbers: END,
            }],
            literals: Vec::new(),
            numbers: NumberLists::default(),
            unbounded: Vec::new(),
            heap_bytes: 0,
            len: 0,
            bits: PhantomData,
        }
    }

    /// Stores `subgoal` under `number`. Numbers need not be distinct, nor
    /// subgoals: a subgoal stored twice is reported once per number.
    ///
    /// ```
    /// use state_atomic::{PartialState, SubgoalIndex};
    /// let mut index = SubgoalIndex::<u64>::new();
    /// index.insert(&PartialState::new(1, 1), 0);
    /// index.insert(&PartialState::new(1, 1), 1);
    /// assert_eq!(index.len(), 2);
    /// ```
    pub fn insert(&mut self, subgoal: &PartialState<B>, number: u32) {
        self.len += 1;
        if is_unbounded(subgoal.as_care()) {
            self.heap_bytes += subgoal.heap_bytes();
            self.unbounded.push((subgoal.clone(), number));
            return;
        }
        let values = subgoal.as_values();
        let mut literals = Vec::with_capacity(subgoal.len());
        subgoal.as_care().for_each_one(|atom| {
            literals.push(Literal {
                atom,
                value: values.get(atom),
            });
        });
        let mut node = 0;
        let mut rest = literals.as_slice();
        while let Some(&first) = rest.first() {
            match self.nodes[node]
                .children
                .binary_search_by_key(&first, |&(literal, _)| literal)
            {
                Err(at) => {
                    let leaf = self.push_node(rest);
                    let children = &mut self.nodes[node].children;
                    self.heap_bytes -= vec_bytes(children);
                    children.insert(at, (first, leaf));
                    self.heap_bytes += vec_bytes(children);
                    node = leaf;
                    rest = &[];
                }
                Ok(at) => {
                    let child = self.nodes[node].children[at].1;
                    let (start, end) = (self.nodes[child].start, self.nodes[child].end);
                    let common = self.literals[start..end]
                        .iter()
                        .zip(rest)
                        .take_while(|(a, b)| a == b)
                        .count();
                    if common < end - start {
                        self.split(child, common);
                    }
                    node = child;
                    rest = &rest[common..];
                }
            }
        }
        self.numbers.push(&mut self.nodes[node].numbers, number);
    }

    /// A new childless node whose edge is `edge`.
    fn push_node(&mut self, edge: &[Literal]) -> usize {
        let start = self.literals.len();
        self.literals.extend_from_slice(edge);
        self.nodes.push(Node {
            start,
            end: self.literals.len(),
            children: Vec::new(),
            numbers: END,
        });
        self.nodes.len() - 1
    }

    /// Cuts `node`'s edge after `keep` literals: a new node below takes the
    /// rest of the edge, the children and the numbers, so a subgoal that
    /// leaves the edge there can branch off or end.
    fn split(&mut self, node: usize, keep: usize) {
        let cut = self.nodes[node].start + keep;
        let below = Node {
            start: cut,
            end: self.nodes[node].end,
            children: std::mem::take(&mut self.nodes[node].children),
            numbers: std::mem::replace(&mut self.nodes[node].numbers, END),
        };
        self.nodes.push(below);
        let below = self.nodes.len() - 1;
        self.nodes[node].end = cut;
        self.nodes[node].children = vec![(self.literals[cut], below)];
        self.heap_bytes += vec_bytes(&self.nodes[node].children);
    }

    /// Calls `found` with the number of every stored subgoal that `state`
    /// satisfies (each stored subgoal once per time it was inserted), in no
    /// particular order.
    ///
    /// ```
    /// use state_atomic::{PartialState, SubgoalIndex, WorldState};
    /// let mut index = SubgoalIndex::<u64>::new();
    /// index.insert(&PartialState::new(0b10, 0b11), 3); // !atom 0, atom 1
    /// let mut found = Vec::new();
    /// index.satisfied_by(&WorldState::new(0b10), |n| found.push(n));
    /// index.satisfied_by(&WorldState::new(0b11), |n| found.push(n));
    /// assert_eq!(found, [3]);
    /// ```
    pub fn satisfied_by(&self, state: &WorldState<B>, mut found: impl FnMut(u32)) {
        let bits = state.as_bits();
        let holds = |literal: &Literal| bits.get(literal.atom) == literal.value;
        // A stack, not recursion: a subgoal may be as long as its atoms.
        let mut stack = vec![0];
        while let Some(index) = stack.pop() {
            let node = &self.nodes[index];
            // The parent checked the edge's first literal.
            if !self.literals[node.start..node.end]
                .iter()
                .skip(1)
                .all(holds)
            {
                continue;
            }
            self.numbers.for_each(node.numbers, &mut found);
            stack.extend(
                node.children
                    .iter()
                    .filter(|(first, _)| holds(first))
                    .map(|&(_, child)| child),
            );
        }
        for (subgoal, number) in &self.unbounded {
            if state.satisfies(subgoal) {
                found(*number);
            }
        }
    }

    /// How many subgoals were inserted (duplicates counted).
    ///
    /// ```
    /// use state_atomic::{PartialState, SubgoalIndex};
    /// let mut index = SubgoalIndex::<u64>::new();
    /// index.insert(&PartialState::empty(), 0);
    /// assert_eq!(index.len(), 1);
    /// ```
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no subgoal was inserted.
    ///
    /// ```
    /// use state_atomic::SubgoalIndex;
    /// assert!(SubgoalIndex::<u64>::default().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The heap memory the index holds at its capacity, in bytes: what a
    /// memory limit should count.
    ///
    /// ```
    /// use state_atomic::{PartialState, SubgoalIndex};
    /// let mut index = SubgoalIndex::<u64>::new();
    /// let before = index.memory_bytes();
    /// index.insert(&PartialState::new(0, 0b111), 0);
    /// assert!(index.memory_bytes() > before);
    /// ```
    pub fn memory_bytes(&self) -> usize {
        vec_bytes(&self.nodes)
            + vec_bytes(&self.literals)
            + self.numbers.memory_bytes()
            + vec_bytes(&self.unbounded)
            + self.heap_bytes
    }
}
