//! [`StateIndex`]: stored complete states, found by the subgoals they
//! satisfy.

use super::{is_unbounded, lowest, NumberLists, END};
use crate::{vec_bytes, Bits, PartialState, WorldState};

/// A node of the binary trie.
#[derive(Clone, Debug)]
enum Node<B> {
    /// The stored states below differ first at `atom` (they agree on every
    /// lower atom): `sides[0]` holds those where it is false, `sides[1]`
    /// those where it is true.
    Branch { atom: usize, sides: [usize; 2] },
    /// One distinct state and the head of its list of numbers.
    Leaf { state: B, numbers: usize },
}

/// Stored complete states, each with a number, found by the subgoals they
/// satisfy without checking each state.
///
/// A binary trie over the atoms in index order with path compression (a
/// crit-bit tree): each branch tests the lowest atom on which the states
/// below it differ, so the trie has one branch per distinct state and no
/// chains. A query follows the one side a subgoal asks for at an atom it
/// cares about and both sides elsewhere, then checks the subgoal against
/// each state it reaches (the atoms no branch tested).
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
    nodes: Vec<Node<B>>,
    /// The root node, or [`END`] while no state is in the trie.
    root: usize,
    numbers: NumberLists,
    unbounded: Vec<(WorldState<B>, u32)>,
    /// The states' heap bytes (none for the fixed widths).
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
            nodes: Vec::new(),
            root: END,
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
        if self.root == END {
            self.root = self.push_leaf(bits, number);
            return;
        }
        // The stored state that agrees with `state` on every branch on its
        // way: where they first differ is where `state` branches off.
        let mut node = self.root;
        let differ = loop {
            match &self.nodes[node] {
                Node::Branch { atom, sides } => node = sides[usize::from(bits.get(*atom))],
                Node::Leaf { state: other, .. } => break lowest(&(bits.clone() ^ other)),
            }
        };
        let Some(differ) = differ else {
            if let Node::Leaf { numbers, .. } = &mut self.nodes[node] {
                self.numbers.push(numbers, number);
            }
            return;
        };
        // Every state below the first node past `differ` agrees with the
        // one found on the atoms before it, so has the other value there.
        let mut parent = None;
        let mut node = self.root;
        while let Node::Branch { atom, sides } = &self.nodes[node] {
            if *atom > differ {
                break;
            }
            let side = usize::from(bits.get(*atom));
            parent = Some((node, side));
            node = sides[side];
        }
        let leaf = self.push_leaf(bits, number);
        let mut sides = [node, node];
        sides[usize::from(bits.get(differ))] = leaf;
        self.nodes.push(Node::Branch {
            atom: differ,
            sides,
        });
        let branch = self.nodes.len() - 1;
        match parent {
            None => self.root = branch,
            Some((parent, side)) => {
                if let Node::Branch { sides, .. } = &mut self.nodes[parent] {
                    sides[side] = branch;
                }
            }
        }
    }

    /// A new leaf for `bits` with `number`.
    fn push_leaf(&mut self, bits: &B, number: u32) -> usize {
        let mut numbers = END;
        self.numbers.push(&mut numbers, number);
        self.heap_bytes += bits.heap_bytes();
        self.nodes.push(Node::Leaf {
            state: bits.clone(),
            numbers,
        });
        self.nodes.len() - 1
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
        let mut stack = Vec::new();
        if self.root != END {
            stack.push(self.root);
        }
        while let Some(node) = stack.pop() {
            match &self.nodes[node] {
                Node::Branch { atom, sides } => {
                    if care.get(*atom) {
                        stack.push(sides[usize::from(values.get(*atom))]);
                    } else {
                        stack.extend(sides);
                    }
                }
                Node::Leaf { state, numbers } => {
                    if state.agrees_on(values, care) {
                        self.numbers.for_each(*numbers, &mut found);
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
