//! Complete states: one 8-byte slot per variable.
//!
//! Up to [`INLINE`] slots live inside the state itself, so cloning a state
//! (once per successor in forward search) does not allocate; larger schemas
//! fall back to a boxed slice.

use std::fmt;
use std::hash::{Hash, Hasher};

use crate::schema::{BoolVar, FloatVar, IntVar, StrVar, Symbol};
use crate::value::{float_key, int_key, key_float, key_int};

/// A complete state: a value for every variable of a schema, one 8-byte slot
/// each (strings as symbol ids), so hashing and comparing are cheap. States
/// of up to 12 variables are stored inline (no heap allocation).
///
/// Build one with [`Schema::state`](crate::Schema::state). The typed
/// accessors take handles from the schema (`Schema::int` and friends).
///
/// ```
/// use state_factored::Schema;
/// let mut schema = Schema::new();
/// let gold = schema.int("gold").unwrap();
/// let mut s = schema.state().set("gold", 3).build().unwrap();
/// s.set_int(gold, 40);
/// assert_eq!(s.int(gold), 40);
/// ```
#[derive(Clone)]
pub struct State {
    slots: Slots,
}

/// The most slots a state holds without allocating.
pub(crate) const INLINE: usize = 12;

/// Bytes a heap allocation of `bytes` takes, as glibc's `malloc` takes it:
/// an 8-byte header, 16-byte granules, 32 bytes at least (other allocators
/// take about as much or less). Nodes report their heap memory this way so
/// that the search's memory limit holds for the process, not just for the
/// bytes asked for: a regression subgoal is several small lists, where the
/// overhead is a good part of the whole.
pub(crate) fn heap_block(bytes: usize) -> usize {
    if bytes == 0 {
        0
    } else {
        ((bytes + 8 + 15) & !15).max(32)
    }
}

/// A state's slots: inline when they fit (unused slots stay 0), boxed
/// otherwise. The choice depends on the length only, so equal states always
/// use the same variant.
#[derive(Clone)]
enum Slots {
    Inline { len: u8, slots: [u64; INLINE] },
    Heap(Box<[u64]>),
}

impl PartialEq for State {
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        match (&self.slots, &other.slots) {
            // Whole arrays (unused slots are 0), their differences folded
            // without a branch a word: `memcmp` costs more than the compare
            // on a dozen words.
            (Slots::Inline { len: a, slots: x }, Slots::Inline { len: b, slots: y }) => {
                a == b && x.iter().zip(y).fold(0, |d, (p, q)| d | (p ^ q)) == 0
            }
            _ => self.as_slots() == other.as_slots(),
        }
    }
}

impl Eq for State {}

impl Hash for State {
    #[inline]
    fn hash<H: Hasher>(&self, state: &mut H) {
        // Word by word: a hasher takes a `u64` in one step, where a slice
        // goes through its loop over bytes. The length is left out: states
        // of one schema have the same, and unequal lengths compare unequal.
        for &slot in self.as_slots() {
            state.write_u64(slot);
        }
    }
}

impl fmt::Debug for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slots()).finish()
    }
}

impl State {
    pub(crate) fn from_slots(slots: &[u64]) -> Self {
        let slots = match u8::try_from(slots.len()) {
            Ok(len) if slots.len() <= INLINE => {
                let mut inline = [0; INLINE];
                inline[..slots.len()].copy_from_slice(slots);
                Slots::Inline { len, slots: inline }
            }
            _ => Slots::Heap(slots.into()),
        };
        Self { slots }
    }

    /// The state of the first `len` words of `slots`, whose others are 0
    /// (a fixed-width state's): the whole array copied, a length the
    /// compiler knows, where [`from_slots`](Self::from_slots) calls `memcpy`.
    #[inline]
    pub(crate) fn from_fixed<const W: usize>(slots: &[u64; W], len: usize) -> Self {
        debug_assert!(slots
            .get(len..)
            .is_some_and(|rest| rest.iter().all(|&s| s == 0)));
        match u8::try_from(len) {
            Ok(short) if W <= INLINE => {
                let mut inline = [0; INLINE];
                inline[..W].copy_from_slice(slots);
                Self {
                    slots: Slots::Inline {
                        len: short,
                        slots: inline,
                    },
                }
            }
            _ => Self::from_slots(&slots[..len]),
        }
    }

    #[inline]
    pub(crate) fn as_slots(&self) -> &[u64] {
        match &self.slots {
            Slots::Inline { len, slots } => &slots[..usize::from(*len)],
            Slots::Heap(slots) => slots,
        }
    }

    #[inline]
    pub(crate) fn as_slots_mut(&mut self) -> &mut [u64] {
        match &mut self.slots {
            Slots::Inline { len, slots } => &mut slots[..usize::from(*len)],
            Slots::Heap(slots) => slots,
        }
    }

    #[inline]
    pub(crate) fn slot(&self, index: usize) -> u64 {
        self.as_slots()[index]
    }

    #[inline]
    pub(crate) fn set_slot(&mut self, index: usize, slot: u64) {
        self.as_slots_mut()[index] = slot;
    }

    /// The number of variables.
    ///
    /// ```
    /// use state_factored::Schema;
    /// let mut schema = Schema::new();
    /// schema.int("a").unwrap();
    /// assert_eq!(schema.default_state().len(), 1);
    /// ```
    pub fn len(&self) -> usize {
        self.as_slots().len()
    }

    /// Bytes the state owns on the heap, the allocator's overhead included
    /// (as glibc's `malloc` takes a block: an 8-byte header, 16-byte
    /// granules, 32 bytes at least): none for up to 12 variables (they are
    /// stored inline), else one block of 8 bytes a variable. The search engine
    /// counts them against its memory limit
    /// ([`SearchSpace::node_heap_bytes`](search_core::SearchSpace::node_heap_bytes)).
    ///
    /// ```
    /// use state_factored::Schema;
    /// let mut schema = Schema::new();
    /// for i in 0..12 {
    ///     schema.int(&format!("v{i}")).unwrap();
    /// }
    /// assert_eq!(schema.default_state().heap_bytes(), 0);
    /// schema.int("v12").unwrap();
    /// assert!(schema.default_state().heap_bytes() >= 13 * 8);
    /// ```
    pub fn heap_bytes(&self) -> usize {
        match &self.slots {
            Slots::Inline { .. } => 0,
            Slots::Heap(slots) => heap_block(size_of_val::<[u64]>(slots)),
        }
    }

    /// Whether the state has no variable.
    ///
    /// ```
    /// use state_factored::Schema;
    /// assert!(Schema::new().default_state().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.as_slots().is_empty()
    }

    /// A bool variable's value.
    ///
    /// # Panics
    /// If the handle comes from a schema with more variables.
    ///
    /// ```
    /// use state_factored::Schema;
    /// let mut schema = Schema::new();
    /// let armed = schema.bool("armed").unwrap();
    /// assert!(!schema.default_state().bool(armed));
    /// ```
    pub fn bool(&self, var: BoolVar) -> bool {
        self.slot(var.index()) != 0
    }

    /// An int variable's value.
    ///
    /// # Panics
    /// If the handle comes from a schema with more variables.
    ///
    /// ```
    /// use state_factored::Schema;
    /// let mut schema = Schema::new();
    /// let gold = schema.int("gold").unwrap();
    /// assert_eq!(schema.state().set("gold", -4).build().unwrap().int(gold), -4);
    /// ```
    pub fn int(&self, var: IntVar) -> i64 {
        key_int(self.slot(var.index()))
    }

    /// A float variable's value.
    ///
    /// # Panics
    /// If the handle comes from a schema with more variables.
    ///
    /// ```
    /// use state_factored::Schema;
    /// let mut schema = Schema::new();
    /// let noise = schema.float("noise").unwrap();
    /// assert_eq!(schema.state().set("noise", 1.5).build().unwrap().float(noise), 1.5);
    /// ```
    pub fn float(&self, var: FloatVar) -> f64 {
        key_float(self.slot(var.index()))
    }

    /// A string variable's symbol.
    ///
    /// # Panics
    /// If the handle comes from a schema with more variables.
    ///
    /// ```
    /// use state_factored::Schema;
    /// let mut schema = Schema::new();
    /// let place = schema.string("place").unwrap();
    /// let s = schema.state().set("place", "mine").build().unwrap();
    /// assert_eq!(s.symbol(place), schema.intern("mine"));
    /// ```
    pub fn symbol(&self, var: StrVar) -> Symbol {
        Symbol(u32::try_from(self.slot(var.index())).unwrap_or(0))
    }

    /// Sets a bool variable.
    ///
    /// # Panics
    /// If the handle comes from a schema with more variables.
    ///
    /// ```
    /// use state_factored::Schema;
    /// let mut schema = Schema::new();
    /// let armed = schema.bool("armed").unwrap();
    /// let mut s = schema.default_state();
    /// s.set_bool(armed, true);
    /// assert!(s.bool(armed));
    /// ```
    pub fn set_bool(&mut self, var: BoolVar, value: bool) {
        self.set_slot(var.index(), u64::from(value));
    }

    /// Sets an int variable.
    ///
    /// # Panics
    /// If the handle comes from a schema with more variables.
    ///
    /// ```
    /// use state_factored::Schema;
    /// let mut schema = Schema::new();
    /// let gold = schema.int("gold").unwrap();
    /// let mut s = schema.default_state();
    /// s.set_int(gold, 7);
    /// assert_eq!(s.int(gold), 7);
    /// ```
    pub fn set_int(&mut self, var: IntVar, value: i64) {
        self.set_slot(var.index(), int_key(value));
    }

    /// Sets a float variable if `value` is finite; returns whether it did.
    /// `-0.0` is stored as `0.0`.
    ///
    /// # Panics
    /// If the handle comes from a schema with more variables.
    ///
    /// ```
    /// use state_factored::Schema;
    /// let mut schema = Schema::new();
    /// let noise = schema.float("noise").unwrap();
    /// let mut s = schema.default_state();
    /// assert!(s.set_float(noise, 0.25));
    /// assert!(!s.set_float(noise, f64::INFINITY));
    /// assert_eq!(s.float(noise), 0.25);
    /// ```
    #[must_use = "a non-finite value is not stored"]
    pub fn set_float(&mut self, var: FloatVar, value: f64) -> bool {
        if value.is_finite() {
            self.set_slot(var.index(), float_key(value));
            true
        } else {
            false
        }
    }

    /// Sets a string variable.
    ///
    /// # Panics
    /// If the handle comes from a schema with more variables.
    ///
    /// ```
    /// use state_factored::Schema;
    /// let mut schema = Schema::new();
    /// let place = schema.string("place").unwrap();
    /// let mut s = schema.default_state();
    /// s.set_symbol(place, schema.intern("shop"));
    /// assert_eq!(s.symbol(place), schema.intern("shop"));
    /// ```
    pub fn set_symbol(&mut self, var: StrVar, value: Symbol) {
        self.set_slot(var.index(), u64::from(value.0));
    }
}
