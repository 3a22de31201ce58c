//! [`SubgoalIndex`]: stored subgoals, found by the states that satisfy them.

use super::{is_unbounded, track, NumberLists, BUCKET, END, GROUP};
use crate::{vec_bytes, Bits, PartialState, WorldState};

/// One constraint of a subgoal: `atom` must be `value`. Ordered by atom,
/// the order every subgoal's literals are spelled in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Literal {
    atom: usize,
    value: bool,
}

/// A node of the set-trie, reached by the literals on the path from the
/// root.
#[derive(Clone, Debug)]
struct Node<B: Bits> {
    /// The atom of the last literal on the path (`None` at the root): a
    /// subgoal's next literal is its lowest atom above it.
    after: Option<usize>,
    /// `(literal, child)`, sorted.
    children: Vec<(Literal, usize)>,
    /// The head of the list of subgoals whose every literal is on the
    /// path: reaching the node satisfies them.
    numbers: usize,
    /// The distinct subgoals with literals left whose next literal has no
    /// child, each with the head of its list of numbers: checked whole.
    bucket: Vec<(PartialState<B>, usize)>,
}

impl<B: Bits> Node<B> {
    fn new(after: Option<usize>) -> Self {
        Self {
            after,
            children: Vec::new(),
            numbers: END,
            bucket: Vec::new(),
        }
    }
}

/// The literal of `subgoal` with the lowest atom above `after`.
fn next_literal<B: Bits>(subgoal: &PartialState<B>, after: Option<usize>) -> Option<Literal> {
    let mut next = None;
    subgoal.as_care().for_each_one(|atom| {
        if next.is_none() && after.is_none_or(|after| atom > after) {
            next = Some(atom);
        }
    });
    next.map(|atom| Literal {
        atom,
        value: subgoal.as_values().get(atom),
    })
}

/// Stored subgoals, each with a number, found by the complete states that
/// satisfy them without checking each subgoal.
///
/// A set-trie (Hoffmann and Koehler's `UBTree`, "A new method to index and
/// query sets", 1999) over each subgoal's literals `(atom, value)` in atom
/// order. A query walks only the edges whose literals the state makes
/// true, so a whole subtree is skipped at its first false literal, and
/// subgoals that share literals (a regression search's subgoals come from
/// the same goal) share their path. A node makes a child only for a
/// literal that a few of its subgoals have next; the others wait in the
/// node's bucket of up to a few dozen subgoals, checked whole, which costs
/// less than reaching scattered nodes that would spell each one out.
///
/// On random subgoals over 64 atoms (the `meeting_index` bench) it is
/// about half as fast as a scan of `u64` subgoals: they share few
/// literals, so its pruning does not pay for reaching its nodes.
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
    /// `nodes[0]` is the root.
    nodes: Vec<Node<B>>,
    numbers: NumberLists,
    unbounded: Vec<(PartialState<B>, u32)>,
    /// The nodes' vectors' and the subgoals' heap bytes, kept as they grow
    /// so that [`memory_bytes`](Self::memory_bytes) does not walk the
    /// nodes.
    heap_bytes: usize,
    len: usize,
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
            nodes: vec![Node::new(None)],
            numbers: NumberLists::default(),
            unbounded: Vec::new(),
            heap_bytes: 0,
            len: 0,
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
        let mut head = END;
        self.numbers.push(&mut head, number);
        let node = self.place(0, subgoal, head);
        // Tried each time the bucket has grown by `BUCKET`, so that a
        // bucket of small groups costs its inserts little; one level at a
        // time, with no recursion.
        let size = self.nodes[node].bucket.len();
        if size > BUCKET && size % BUCKET == 1 {
            self.split(node);
        }
    }

    /// Puts `subgoal` with the number list `head` at or below `node`, in
    /// the child of its next literal while there is one, and returns the
    /// node that took it.
    fn place(&mut self, mut node: usize, subgoal: &PartialState<B>, head: usize) -> usize {
        loop {
            let Some(next) = next_literal(subgoal, self.nodes[node].after) else {
                self.numbers.append(&mut self.nodes[node].numbers, head);
                return node;
            };
            let children = &self.nodes[node].children;
            if let Ok(at) = children.binary_search_by_key(&next, |&(l, _)| l) {
                node = children[at].1;
                continue;
            }
            let bucket = &mut self.nodes[node].bucket;
            if let Some((_, numbers)) = bucket.iter_mut().find(|(g, _)| g == subgoal) {
                self.numbers.append(numbers, head);
            } else {
                self.heap_bytes += subgoal.heap_bytes();
                track(&mut self.heap_bytes, bucket, (subgoal.clone(), head));
            }
            return node;
        }
    }

    /// A new child of `node` by `literal`.
    fn add_child(&mut self, node: usize, literal: Literal) -> usize {
        let child = self.nodes.len();
        self.nodes.push(Node::new(Some(literal.atom)));
        let children = &mut self.nodes[node].children;
        let at = children.partition_point(|&(l, _)| l < literal);
        self.heap_bytes -= vec_bytes(children);
        children.insert(at, (literal, child));
        self.heap_bytes += vec_bytes(children);
        child
    }

    /// Moves each group of at least [`GROUP`] subgoals of `node`'s bucket
    /// that share their next literal into a new child for it. Smaller
    /// groups stay: a child that holds one subgoal costs a query more to
    /// reach than to check the subgoal in the bucket.
    fn split(&mut self, node: usize) {
        let after = self.nodes[node].after;
        let mut next: Vec<Literal> = self.nodes[node]
            .bucket
            .iter()
            .filter_map(|(g, _)| next_literal(g, after))
            .collect();
        next.sort_unstable();
        let mut grew = false;
        for group in next.chunk_by(PartialEq::eq) {
            if group.len() >= GROUP {
                self.add_child(node, group[0]);
                grew = true;
            }
        }
        if !grew {
            return;
        }
        // `place` sends each subgoal of a big group to its new child and
        // the others back to the bucket.
        let bucket = std::mem::take(&mut self.nodes[node].bucket);
        self.heap_bytes -= vec_bytes(&bucket);
        for (subgoal, head) in bucket {
            self.heap_bytes -= subgoal.heap_bytes();
            self.place(node, &subgoal, head);
        }
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
        // A stack, not recursion: a path may be as long as a subgoal.
        let mut stack = vec![0];
        while let Some(index) = stack.pop() {
            let node = &self.nodes[index];
            self.numbers.for_each(node.numbers, &mut found);
            for (subgoal, numbers) in &node.bucket {
                if state.satisfies(subgoal) {
                    self.numbers.for_each(*numbers, &mut found);
                }
            }
            stack.extend(
                node.children
                    .iter()
                    .filter(|(literal, _)| bits.get(literal.atom) == literal.value)
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
            + self.numbers.memory_bytes()
            + vec_bytes(&self.unbounded)
            + self.heap_bytes
    }
}
