//! [`StateIndex`]: stored complete states, found by the subgoals they
//! satisfy.

use rustc_hash::FxHashMap;

use super::is_unbounded;
use crate::{vec_bytes, Bits, PartialState, WorldState};

/// Stored complete states, each with a number, found by the subgoals they
/// satisfy without checking each state.
///
/// A bitmap index (bit-sliced): one column of bits per atom, bit `i` set
/// when the `i`th stored state makes the atom true. A subgoal's answer is
/// the `and` of its atoms' columns (negated where it wants an atom false),
/// 64 states a word, reading only the columns of the atoms it cares about,
/// and a word is left as soon as no state in it remains. A query costs
/// about `care × states / 64` word operations, against `states` checks for
/// a scan. (A binary trie over the atoms in index order was 2 to 28 times
/// slower than a scan on random states in the `meeting_index` bench: a
/// subgoal that cares about few atoms prunes few of its branches.)
///
/// Generic over [`Bits`]; a [`SparseBits`](crate::SparseBits) complement
/// (infinitely many true atoms) is kept aside and checked on every query,
/// and so is every state against a subgoal that cares about infinitely
/// many atoms.
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
    /// The stored states in insertion order (for the subgoals no column
    /// walk can answer), with their numbers.
    states: Vec<(WorldState<B>, u32)>,
    /// By atom: bit `i % 64` of word `i / 64` is state `i`'s value. A
    /// column ends at its last true bit; the words past it are zero.
    columns: FxHashMap<usize, Vec<u64>>,
    unbounded: Vec<(WorldState<B>, u32)>,
    /// The columns' and the states' heap bytes, kept as they grow so that
    /// [`memory_bytes`](Self::memory_bytes) does not walk the columns.
    heap_bytes: usize,
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
            states: Vec::new(),
            columns: FxHashMap::default(),
            unbounded: Vec::new(),
            heap_bytes: 0,
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
        let bits = state.as_bits();
        self.heap_bytes += bits.heap_bytes();
        if is_unbounded(bits) {
            self.unbounded.push((state.clone(), number));
            return;
        }
        let position = self.states.len();
        let (word, bit) = (position / 64, position % 64);
        bits.for_each_one(|atom| {
            let column = self.columns.entry(atom).or_default();
            self.heap_bytes -= vec_bytes(column);
            if column.len() <= word {
                column.resize(word + 1, 0);
            }
            column[word] |= 1 << bit;
            self.heap_bytes += vec_bytes(column);
        });
        self.states.push((state.clone(), number));
    }

    /// Calls `found` with the number of every stored state that satisfies
    /// `subgoal` (each stored state once per time it was inserted), in
    /// insertion order but for [`SparseBits`](crate::SparseBits)
    /// complements, which come last.
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
        if is_unbounded(subgoal.as_care()) {
            for (state, number) in &self.states {
                if state.satisfies(subgoal) {
                    found(*number);
                }
            }
        } else {
            self.satisfying_by_columns(subgoal, &mut found);
        }
        for (state, number) in &self.unbounded {
            if state.satisfies(subgoal) {
                found(*number);
            }
        }
    }

    /// The column walk of [`satisfying`](Self::satisfying), for a subgoal
    /// with finitely many atoms.
    fn satisfying_by_columns(&self, subgoal: &PartialState<B>, found: &mut impl FnMut(u32)) {
        // A block of words at a time, one column after another: the inner
        // loop has no branch and runs over memory in order.
        const BLOCK: usize = 16;
        let values = subgoal.as_values();
        // `(column, wanted value)`; an atom no state makes true has no
        // column, so a subgoal that wants it true meets nothing.
        let mut wanted = Vec::with_capacity(subgoal.len());
        let mut impossible = false;
        subgoal.as_care().for_each_one(|atom| {
            let value = values.get(atom);
            match self.columns.get(&atom) {
                Some(column) => wanted.push((column.as_slice(), value)),
                None if value => impossible = true,
                None => {}
            }
        });
        if impossible {
            return;
        }
        let words = self.states.len().div_ceil(64);
        let mut block = [0_u64; BLOCK];
        for start in (0..words).step_by(BLOCK) {
            let meet = &mut block[..BLOCK.min(words - start)];
            meet.fill(u64::MAX);
            for &(column, value) in &wanted {
                let flip = if value { 0 } else { u64::MAX };
                let here = column.get(start..).unwrap_or_default();
                for (m, &c) in meet.iter_mut().zip(here) {
                    *m &= c ^ flip;
                }
                for m in meet.iter_mut().skip(here.len()) {
                    *m &= flip;
                }
                if meet.iter().all(|&m| m == 0) {
                    break;
                }
            }
            for (word, m) in (start..).zip(meet.iter()) {
                // Bits past the last state stay set; `get` skips them.
                m.for_each_one(|bit| {
                    if let Some((_, number)) = self.states.get(64 * word + bit) {
                        found(*number);
                    }
                });
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
        self.states.len() + self.unbounded.len()
    }

    /// Whether no state was inserted.
    ///
    /// ```
    /// use state_atomic::StateIndex;
    /// assert!(StateIndex::<u64>::default().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len() == 0
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
        vec_bytes(&self.states)
            + self.columns.capacity() * std::mem::size_of::<(usize, Vec<u64>)>()
            + vec_bytes(&self.unbounded)
            + self.heap_bytes
    }
}
