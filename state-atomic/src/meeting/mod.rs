//! Where the two halves of a bidirectional search meet: a forward state
//! meets a regression subgoal when it satisfies it. Each new node on one
//! side is checked against the stored nodes of the other, so both checks
//! are index queries rather than comparisons with each stored node; the
//! state index still reads a bit per stored state and fixed atom, so its
//! queries grow with the states stored (64 to a word).
//!
//! - [`SubgoalIndex`]: stored subgoals, queried with a state (a subset
//!   query, in a set-trie over the subgoals' literals).
//! - [`StateIndex`]: stored states, queried with a subgoal (a pattern
//!   query, in a bitmap index: one column of bits per atom).

mod states;
mod subgoals;

pub use states::StateIndex;
pub use subgoals::SubgoalIndex;

use search_core::bidirectional::{Meeting, Stored};

use crate::{Bits, PartialState, WorldState};

/// The meeting test of a bidirectional search over atomic states: both
/// indexes, told of every node each side stores.
///
/// ```
/// use search_core::bidirectional::{Meeting, Nbs, Side};
/// use state_atomic::{ActionSet, AtomicMeeting, ForwardSpace, RegressionSpace};
///
/// let mut actions = ActionSet::<u64>::new();
/// actions.add_action("cook", 10).pre("has_groceries", true).eff("has_food", true);
/// actions.add_action("eat", 5).pre("has_food", true).eff("fed", true);
/// let start = actions.state(["has_groceries"]).unwrap();
/// let goal = actions.partial([("fed", true)]).unwrap();
/// let forward = ForwardSpace::new(&actions, goal.clone()).unwrap();
/// let regression = RegressionSpace::new(&actions, start.clone(), goal.clone()).unwrap();
/// let result = Nbs::new(&forward, start, &regression, goal, AtomicMeeting::default())
///     .run()
///     .unwrap();
/// assert_eq!(result.outcome.solution().unwrap().cost, 15);
/// ```
#[derive(Clone, Debug)]
pub struct AtomicMeeting<B: Bits> {
    states: StateIndex<B>,
    subgoals: SubgoalIndex<B>,
}

impl<B: Bits> Default for AtomicMeeting<B> {
    fn default() -> Self {
        Self {
            states: StateIndex::new(),
            subgoals: SubgoalIndex::new(),
        }
    }
}

impl<B: Bits> Meeting<WorldState<B>, PartialState<B>> for AtomicMeeting<B> {
    fn forward_meets(
        &self,
        node: &WorldState<B>,
        _: Stored<'_, PartialState<B>>,
        met: impl FnMut(u32),
    ) {
        self.subgoals.satisfied_by(node, met);
    }

    fn backward_meets(
        &self,
        node: &PartialState<B>,
        _: Stored<'_, WorldState<B>>,
        met: impl FnMut(u32),
    ) {
        self.states.satisfying(node, met);
    }

    fn insert_forward(&mut self, node: &WorldState<B>, number: u32) {
        self.states.insert(node, number);
    }

    fn insert_backward(&mut self, node: &PartialState<B>, number: u32) {
        self.subgoals.insert(node, number);
    }

    fn memory_bytes(&self) -> usize {
        self.states.memory_bytes() + self.subgoals.memory_bytes()
    }
}

/// The end of a list in [`NumberLists`].
const END: usize = usize::MAX;

/// How many distinct subgoals a node of the set-trie holds in its bucket
/// before it tries to split it. A bucket's subgoals are checked one after
/// another in memory, which costs less per subgoal than reaching scattered
/// nodes.
const BUCKET: usize = 32;

/// The fewest subgoals that share their next literal for which a node of
/// the set-trie makes a child.
const GROUP: usize = 4;

/// Pushes `item` onto `v`, keeping `bytes`, which counts `v`'s capacity,
/// up to date.
fn track<T>(bytes: &mut usize, v: &mut Vec<T>, item: T) {
    *bytes -= crate::vec_bytes(v);
    v.push(item);
    *bytes += crate::vec_bytes(v);
}

/// Every trie node's numbers as a linked list in one vector: most nodes
/// hold one number, so a vector per node would waste its header.
#[derive(Clone, Debug, Default)]
struct NumberLists {
    /// `(number, next)`; `next` is [`END`] at a list's end.
    cells: Vec<(u32, usize)>,
}

impl NumberLists {
    /// Adds `number` to the list that starts at `head`.
    fn push(&mut self, head: &mut usize, number: u32) {
        self.cells.push((number, *head));
        *head = self.cells.len() - 1;
    }

    /// Puts the list that starts at `other` in front of the one at `head`.
    fn append(&mut self, head: &mut usize, other: usize) {
        let mut tail = other;
        while let Some(&(_, next)) = self.cells.get(tail) {
            if next == END {
                break;
            }
            tail = next;
        }
        if let Some(cell) = self.cells.get_mut(tail) {
            cell.1 = *head;
            *head = other;
        }
    }

    /// Calls `found` with every number of the list that starts at `head`.
    fn for_each(&self, mut head: usize, found: &mut impl FnMut(u32)) {
        while let Some(&(number, next)) = self.cells.get(head) {
            found(number);
            head = next;
        }
    }

    fn memory_bytes(&self) -> usize {
        crate::vec_bytes(&self.cells)
    }
}

/// Whether `bits` holds so many atoms (a [`SparseBits`](crate::SparseBits)
/// complement holds infinitely many) that no trie path can spell them:
/// such items are kept aside and checked one by one.
fn is_unbounded<B: Bits>(bits: &B) -> bool {
    bits.count_ones() == u32::MAX
}
