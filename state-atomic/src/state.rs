//! Complete world states and partial states (goals, preconditions, effects).

use crate::{Atom, Bits, When};

/// A complete world state: one bit per atom; atoms never set are false.
///
/// ```
/// use state_atomic::{PartialState, WorldState};
/// let s = WorldState::<u64>::new(0b011);
/// let p = PartialState::new(0b001, 0b101); // atom 0 true, atom 2 false
/// assert!(s.satisfies(&p));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct WorldState<B: Bits = u64>(B);

impl<B: Bits> std::fmt::Debug for WorldState<B> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "WorldState({:?})", self.0)
    }
}

impl<B: Bits> WorldState<B> {
    /// The state whose true atoms are the set bits of `bits`.
    ///
    /// ```
    /// use state_atomic::WorldState;
    /// assert_eq!(WorldState::<u64>::new(5).bits(), 5);
    /// ```
    #[inline]
    pub fn new(bits: B) -> Self {
        Self(bits)
    }

    /// The state where every atom is false.
    ///
    /// ```
    /// use state_atomic::WorldState;
    /// assert_eq!(WorldState::<u64>::empty().bits(), 0);
    /// ```
    #[inline]
    pub fn empty() -> Self {
        Self(B::zero())
    }

    /// The bits: a set bit is a true atom. A copy (a clone of a
    /// [`SparseBits`](crate::SparseBits)); [`as_bits`](Self::as_bits)
    /// borrows them.
    ///
    /// ```
    /// use state_atomic::WorldState;
    /// assert_eq!(WorldState::<u64>::new(2).bits(), 2);
    /// ```
    #[inline]
    pub fn bits(&self) -> B {
        self.0.clone()
    }

    /// The bits, borrowed.
    ///
    /// ```
    /// use state_atomic::{Bits, SparseBits, WorldState};
    /// let s = WorldState::new(SparseBits::bit(40_000));
    /// assert!(s.as_bits().get(40_000));
    /// ```
    #[inline]
    pub fn as_bits(&self) -> &B {
        &self.0
    }

    /// The value of `atom`.
    ///
    /// ```
    /// use state_atomic::AtomRegistry;
    /// let mut atoms = AtomRegistry::<u64>::new();
    /// let fed = atoms.add("fed").unwrap();
    /// assert!(!atoms.state([]).unwrap().get(fed));
    /// ```
    #[inline]
    pub fn get(&self, atom: Atom) -> bool {
        self.0.get(atom.index())
    }

    /// This state with `atom` set to `value`.
    ///
    /// ```
    /// use state_atomic::AtomRegistry;
    /// let mut atoms = AtomRegistry::<u64>::new();
    /// let fed = atoms.add("fed").unwrap();
    /// let s = atoms.state([]).unwrap().with(fed, true);
    /// assert!(s.get(fed));
    /// ```
    #[inline]
    #[must_use]
    pub fn with(self, atom: Atom, value: bool) -> Self {
        let bit = B::bit(atom.index());
        Self(if value { self.0 | bit } else { self.0 & !bit })
    }

    /// Whether this state satisfies `partial`:
    /// `(state ^ partial.values) & partial.care == 0`.
    ///
    /// ```
    /// use state_atomic::{PartialState, WorldState};
    /// let s = WorldState::<u64>::new(0b10);
    /// assert!(s.satisfies(&PartialState::new(0b10, 0b11)));
    /// assert!(!s.satisfies(&PartialState::new(0b01, 0b01)));
    /// ```
    #[inline]
    pub fn satisfies(&self, partial: &PartialState<B>) -> bool {
        self.0.agrees_on(&partial.values, &partial.care)
    }

    /// The state after applying `effect`:
    /// `(state & !effect.care) | (effect.values & effect.care)`.
    ///
    /// ```
    /// use state_atomic::{PartialState, WorldState};
    /// let s = WorldState::<u64>::new(0b01);
    /// let e = PartialState::new(0b10, 0b11); // atom 0 false, atom 1 true
    /// assert_eq!(s.apply(&e).bits(), 0b10);
    /// ```
    #[inline]
    #[must_use]
    pub fn apply(&self, effect: &PartialState<B>) -> Self {
        Self((self.0.clone() & !effect.care.clone()) | &effect.values)
    }

    /// The state after applying `effect` and each conditional effect of
    /// `when` whose condition holds in this state (the state before: one
    /// effect does not enable another). An atom that one effect makes true
    /// and another false ends true, as PDDL has it.
    ///
    /// ```
    /// use state_atomic::{PartialState, When, WorldState};
    /// // Turning the cube: whatever is at 0 moves to 1, whatever is at 1 to 0.
    /// let turn = [
    ///     When { condition: PartialState::new(0b01, 0b01), effect: PartialState::new(0b10, 0b11) },
    ///     When { condition: PartialState::new(0b10, 0b10), effect: PartialState::new(0b01, 0b11) },
    /// ];
    /// let s = WorldState::<u64>::new(0b01);
    /// assert_eq!(s.apply_when(&PartialState::empty(), &turn).bits(), 0b10);
    /// assert_eq!(WorldState::<u64>::new(0b11).apply_when(&PartialState::empty(), &turn).bits(), 0b11);
    /// ```
    #[must_use]
    pub fn apply_when(&self, effect: &PartialState<B>, when: &[When<B>]) -> Self {
        let mut care = effect.care.clone();
        let mut values = effect.values.clone();
        for w in when.iter().filter(|w| self.satisfies(&w.condition)) {
            care = care | &w.effect.care;
            values = values | &w.effect.values;
        }
        Self((self.0.clone() & !care) | &values)
    }

    /// An agent's view: `world`'s atoms where `shared` is set, this state's
    /// elsewhere: `(world & shared) | (self & !shared)`.
    ///
    /// ```
    /// use state_atomic::WorldState;
    /// let own = WorldState::<u64>::new(0b0011);
    /// let world = WorldState::new(0b1100);
    /// assert_eq!(own.merge_shared(world, 0b0110).bits(), 0b0101);
    /// ```
    #[inline]
    #[must_use]
    pub fn merge_shared(self, world: Self, shared: B) -> Self {
        Self((world.0 & &shared) | (self.0 & !shared))
    }

    /// This state as a partial state that specifies the atoms in `mask`.
    ///
    /// ```
    /// use state_atomic::WorldState;
    /// let p = WorldState::<u64>::new(0b101).to_partial(0b011);
    /// assert_eq!((p.values(), p.care()), (0b001, 0b011));
    /// ```
    #[inline]
    pub fn to_partial(&self, mask: B) -> PartialState<B> {
        PartialState::new(self.0.clone(), mask)
    }
}

/// A partial state `(values, care)`: a set bit in `care` specifies its atom,
/// with the value in `values`. Goals, preconditions, effects and regression
/// subgoals are partial states. `values` never has a bit outside `care`.
///
/// ```
/// use state_atomic::PartialState;
/// let p = PartialState::<u64>::new(0b111, 0b101);
/// assert_eq!(p.values(), 0b101); // bits outside `care` are dropped
/// assert_eq!(p.len(), 2);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct PartialState<B: Bits = u64> {
    values: B,
    care: B,
}

impl<B: Bits> std::fmt::Debug for PartialState<B> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "PartialState {{ values: {:?}, care: {:?} }}",
            self.values, self.care
        )
    }
}

impl<B: Bits> PartialState<B> {
    /// The partial state that specifies the atoms in `care`, with the values
    /// in `values` (bits of `values` outside `care` are ignored).
    ///
    /// ```
    /// use state_atomic::PartialState;
    /// assert_eq!(PartialState::<u64>::new(0b11, 0b10).values(), 0b10);
    /// ```
    #[inline]
    pub fn new(values: B, care: B) -> Self {
        Self {
            values: values & &care,
            care,
        }
    }

    /// The partial state that specifies nothing (satisfied by every state).
    ///
    /// ```
    /// use state_atomic::{PartialState, WorldState};
    /// assert!(WorldState::<u64>::new(9).satisfies(&PartialState::empty()));
    /// ```
    #[inline]
    pub fn empty() -> Self {
        Self {
            values: B::zero(),
            care: B::zero(),
        }
    }

    /// The values of the specified atoms (zero elsewhere). A copy (a clone
    /// of a [`SparseBits`](crate::SparseBits)); [`as_values`](Self::as_values)
    /// borrows them.
    ///
    /// ```
    /// use state_atomic::PartialState;
    /// assert_eq!(PartialState::<u64>::new(1, 3).values(), 1);
    /// ```
    #[inline]
    pub fn values(&self) -> B {
        self.values.clone()
    }

    /// The values, borrowed.
    ///
    /// ```
    /// use state_atomic::{Bits, PartialState, SparseBits};
    /// let p = PartialState::new(SparseBits::zero(), SparseBits::bit(40_000));
    /// assert!(p.as_values().is_zero());
    /// ```
    #[inline]
    pub fn as_values(&self) -> &B {
        &self.values
    }

    /// The mask of specified atoms. A copy (a clone of a
    /// [`SparseBits`](crate::SparseBits)); [`as_care`](Self::as_care)
    /// borrows it.
    ///
    /// ```
    /// use state_atomic::PartialState;
    /// assert_eq!(PartialState::<u64>::new(1, 3).care(), 3);
    /// ```
    #[inline]
    pub fn care(&self) -> B {
        self.care.clone()
    }

    /// The mask of specified atoms, borrowed.
    ///
    /// ```
    /// use state_atomic::{Bits, PartialState, SparseBits};
    /// let p = PartialState::new(SparseBits::zero(), SparseBits::bit(40_000));
    /// assert!(p.as_care().get(40_000));
    /// ```
    #[inline]
    pub fn as_care(&self) -> &B {
        &self.care
    }

    /// The value `atom` must have, or `None` if unspecified.
    ///
    /// ```
    /// use state_atomic::AtomRegistry;
    /// let mut atoms = AtomRegistry::<u64>::new();
    /// let (a, b) = (atoms.add("a").unwrap(), atoms.add("b").unwrap());
    /// let p = atoms.partial([("a", false)]).unwrap();
    /// assert_eq!((p.get(a), p.get(b)), (Some(false), None));
    /// ```
    #[inline]
    pub fn get(&self, atom: Atom) -> Option<bool> {
        let i = atom.index();
        self.care.get(i).then(|| self.values.get(i))
    }

    /// This partial state with `atom` specified as `value`.
    ///
    /// ```
    /// use state_atomic::AtomRegistry;
    /// let mut atoms = AtomRegistry::<u64>::new();
    /// let a = atoms.add("a").unwrap();
    /// let p = state_atomic::PartialState::<u64>::empty().with(a, true);
    /// assert_eq!(p.get(a), Some(true));
    /// ```
    #[inline]
    #[must_use]
    pub fn with(self, atom: Atom, value: bool) -> Self {
        let bit = B::bit(atom.index());
        Self {
            values: if value {
                self.values | &bit
            } else {
                self.values & !bit.clone()
            },
            care: self.care | bit,
        }
    }

    /// This partial state with `atom` unspecified.
    ///
    /// ```
    /// use state_atomic::AtomRegistry;
    /// let mut atoms = AtomRegistry::<u64>::new();
    /// let a = atoms.add("a").unwrap();
    /// let p = atoms.partial([("a", true)]).unwrap().without(a);
    /// assert!(p.is_empty());
    /// ```
    #[inline]
    #[must_use]
    pub fn without(self, atom: Atom) -> Self {
        let keep = !B::bit(atom.index());
        Self {
            values: self.values & &keep,
            care: self.care & keep,
        }
    }

    /// How many atoms are specified.
    ///
    /// ```
    /// use state_atomic::PartialState;
    /// assert_eq!(PartialState::<u64>::new(0, 0b1011).len(), 3);
    /// ```
    #[inline]
    pub fn len(&self) -> usize {
        self.care.count_ones() as usize
    }

    /// Whether no atom is specified.
    ///
    /// ```
    /// use state_atomic::PartialState;
    /// assert!(PartialState::<u64>::empty().is_empty());
    /// ```
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.care.is_zero()
    }

    /// Whether `state` satisfies this partial state.
    ///
    /// ```
    /// use state_atomic::{PartialState, WorldState};
    /// assert!(PartialState::<u64>::new(1, 1).is_satisfied_by(&WorldState::new(3)));
    /// ```
    #[inline]
    pub fn is_satisfied_by(&self, state: &WorldState<B>) -> bool {
        state.satisfies(self)
    }

    /// Whether every constraint of `self` is also a constraint of `other`
    /// (so every state that satisfies `other` satisfies `self`).
    ///
    /// ```
    /// use state_atomic::PartialState;
    /// let weak = PartialState::<u64>::new(0b01, 0b01);
    /// let strong = PartialState::new(0b01, 0b11);
    /// assert!(weak.is_subset_of(&strong) && !strong.is_subset_of(&weak));
    /// ```
    #[inline]
    pub fn is_subset_of(&self, other: &Self) -> bool {
        (self.care.clone() & !other.care.clone()).is_zero()
            && self.values.agrees_on(&other.values, &self.care)
    }

    /// Whether some atom is specified by both with different values.
    ///
    /// ```
    /// use state_atomic::PartialState;
    /// let a = PartialState::<u64>::new(0b01, 0b01);
    /// assert!(a.conflicts_with(&PartialState::new(0, 0b01)));
    /// assert!(!a.conflicts_with(&PartialState::new(0, 0b10)));
    /// ```
    #[inline]
    pub fn conflicts_with(&self, other: &Self) -> bool {
        !self
            .values
            .agrees_on(&other.values, &(self.care.clone() & &other.care))
    }

    /// How many atoms both specify with different values.
    ///
    /// ```
    /// use state_atomic::PartialState;
    /// let a = PartialState::<u64>::new(0b011, 0b111);
    /// assert_eq!(a.mismatches(&PartialState::new(0b100, 0b110)), 2);
    /// ```
    #[inline]
    pub fn mismatches(&self, other: &Self) -> u32 {
        ((self.values.clone() ^ &other.values) & &self.care & &other.care).count_ones()
    }

    /// The heap memory of the masks (none for the fixed widths).
    #[inline]
    pub(crate) fn heap_bytes(&self) -> usize {
        self.values.heap_bytes() + self.care.heap_bytes()
    }

    /// Whether `state` gives an atom this partial state specifies beyond
    /// `known` (the atoms a heuristic's tables hold) the other value: no
    /// action changes such an atom, so nothing mends it.
    #[inline]
    pub(crate) fn is_wrong_beyond(&self, state: &B, known: &B) -> bool {
        if known.agrees_on(&!B::zero(), &self.care) {
            return false;
        }
        !state.agrees_on(&self.values, &(self.care.clone() & !known.clone()))
    }

    /// Regresses this subgoal through an action with preconditions `pre`
    /// and effects `eff`: `None` if the action is irrelevant (its effects
    /// give no atom of the subgoal the wanted value, or give one the opposite
    /// value) or inconsistent (its preconditions contradict the subgoal on
    /// atoms its effects leave alone); otherwise the subgoal before it,
    /// `(self without eff's atoms) and pre`.
    ///
    /// ```
    /// use state_atomic::PartialState;
    /// let goal = PartialState::<u64>::new(0b100, 0b100); // atom 2
    /// let pre = PartialState::new(0b001, 0b001); // atom 0
    /// let eff = PartialState::new(0b100, 0b100); // sets atom 2
    /// assert_eq!(goal.regress(&pre, &eff), Some(pre));
    /// assert_eq!(goal.regress(&pre, &PartialState::new(0, 0b100)), None);
    /// ```
    #[inline]
    pub fn regress(&self, pre: &Self, eff: &Self) -> Option<Self> {
        let touched = eff.care.clone() & &self.care;
        if touched.is_zero() || !eff.values.agrees_on(&self.values, &touched) {
            return None;
        }
        let kept = self.care.clone() & !eff.care.clone();
        if !pre
            .values
            .agrees_on(&self.values, &(pre.care.clone() & &kept))
        {
            return None;
        }
        Some(Self {
            values: (self.values.clone() & &kept) | &pre.values,
            care: kept | &pre.care,
        })
    }
}
