//! Atom names, bit positions and the shared/private split.

use std::marker::PhantomData;

use rustc_hash::FxHashMap;

use crate::{AtomicError, Bits, PartialState, WorldState};

/// An atom: a named boolean at a bit position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Atom(u32);

impl Atom {
    /// The atom's bit position.
    ///
    /// ```
    /// use state_atomic::AtomRegistry;
    /// let mut atoms = AtomRegistry::<u64>::new();
    /// let fed = atoms.add("fed").unwrap();
    /// assert_eq!(fed.index(), 0);
    /// ```
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Maps atom names to bit positions in states of type `B`, and marks some
/// atoms shared (owned by the world) and the rest private (owned by an agent).
///
/// ```
/// use state_atomic::AtomRegistry;
/// let mut atoms = AtomRegistry::<u64>::new();
/// atoms.add_shared("night").unwrap();
/// let hungry = atoms.add("hungry").unwrap();
/// assert_eq!(atoms.atom("hungry").unwrap(), hungry);
/// assert!(atoms.atom("thirsty").is_err());
/// assert!(atoms.is_shared(atoms.atom("night").unwrap()));
/// ```
#[derive(Clone, Debug)]
pub struct AtomRegistry<B: Bits = u64> {
    names: Vec<String>,
    index: FxHashMap<String, Atom>,
    shared: B,
    /// The declared atoms' bits.
    known: B,
    _bits: PhantomData<B>,
}

impl<B: Bits> Default for AtomRegistry<B> {
    fn default() -> Self {
        Self::new()
    }
}

impl<B: Bits> AtomRegistry<B> {
    /// An empty registry.
    ///
    /// ```
    /// use state_atomic::AtomRegistry;
    /// assert!(AtomRegistry::<u64>::new().is_empty());
    /// ```
    pub fn new() -> Self {
        Self {
            names: Vec::new(),
            index: FxHashMap::default(),
            shared: B::zero(),
            known: B::zero(),
            _bits: PhantomData,
        }
    }

    /// Declares a private atom.
    ///
    /// # Errors
    /// [`AtomicError::DuplicateAtom`] if `name` is declared already, and
    /// [`AtomicError::TooManyAtoms`] if the state type is full (the 65th
    /// atom of a `u64` state).
    ///
    /// ```
    /// use state_atomic::{AtomRegistry, AtomicError};
    /// let mut atoms = AtomRegistry::<u64>::new();
    /// for i in 0..64 {
    ///     atoms.add(&format!("a{i}")).unwrap();
    /// }
    /// assert!(matches!(atoms.add("a64"), Err(AtomicError::TooManyAtoms { name, .. }) if name == "a64"));
    /// ```
    pub fn add(&mut self, name: &str) -> Result<Atom, AtomicError> {
        if self.index.contains_key(name) {
            return Err(AtomicError::DuplicateAtom {
                name: name.to_owned(),
            });
        }
        self.push(name)
    }

    /// Declares a shared atom, owned by the world rather than an agent.
    ///
    /// # Errors
    /// As for [`add`](Self::add).
    ///
    /// ```
    /// use state_atomic::AtomRegistry;
    /// let mut atoms = AtomRegistry::<u64>::new();
    /// let night = atoms.add_shared("night").unwrap();
    /// assert!(atoms.is_shared(night));
    /// ```
    pub fn add_shared(&mut self, name: &str) -> Result<Atom, AtomicError> {
        let atom = self.add(name)?;
        let shared = std::mem::replace(&mut self.shared, B::zero());
        self.shared = shared | B::bit(atom.index());
        Ok(atom)
    }

    /// The atom called `name`, declaring it (private) if it is new.
    ///
    /// # Errors
    /// [`AtomicError::TooManyAtoms`] if `name` is new and the state type is full.
    ///
    /// ```
    /// use state_atomic::AtomRegistry;
    /// let mut atoms = AtomRegistry::<u64>::new();
    /// let a = atoms.intern("fed").unwrap();
    /// assert_eq!(atoms.intern("fed").unwrap(), a);
    /// assert_eq!(atoms.len(), 1);
    /// ```
    pub fn intern(&mut self, name: &str) -> Result<Atom, AtomicError> {
        match self.index.get(name) {
            Some(&atom) => Ok(atom),
            None => self.push(name),
        }
    }

    fn push(&mut self, name: &str) -> Result<Atom, AtomicError> {
        let position = self.names.len();
        let atom = u32::try_from(position)
            .ok()
            .filter(|_| position < B::CAPACITY)
            .map(Atom)
            .ok_or_else(|| AtomicError::TooManyAtoms {
                name: name.to_owned(),
                capacity: B::CAPACITY,
            })?;
        let known = std::mem::replace(&mut self.known, B::zero());
        self.known = known | B::bit(position);
        self.names.push(name.to_owned());
        self.index.insert(name.to_owned(), atom);
        Ok(atom)
    }

    /// The atom called `name`.
    ///
    /// # Errors
    /// [`AtomicError::UnknownAtom`] if no atom has that name.
    ///
    /// ```
    /// use state_atomic::{AtomRegistry, AtomicError};
    /// let atoms = AtomRegistry::<u64>::new();
    /// assert_eq!(atoms.atom("x"), Err(AtomicError::UnknownAtom { name: "x".into() }));
    /// ```
    pub fn atom(&self, name: &str) -> Result<Atom, AtomicError> {
        self.index
            .get(name)
            .copied()
            .ok_or_else(|| AtomicError::UnknownAtom {
                name: name.to_owned(),
            })
    }

    /// The name of `atom`, or `"?"` for an atom of another registry.
    ///
    /// ```
    /// use state_atomic::AtomRegistry;
    /// let mut atoms = AtomRegistry::<u64>::new();
    /// let fed = atoms.add("fed").unwrap();
    /// assert_eq!(atoms.name(fed), "fed");
    /// ```
    pub fn name(&self, atom: Atom) -> &str {
        self.names.get(atom.index()).map_or("?", String::as_str)
    }

    /// The name of the atom at bit `index`, or `"?"`.
    pub(crate) fn name_at(&self, index: usize) -> &str {
        self.names.get(index).map_or("?", String::as_str)
    }

    /// The heap bytes of the names, twice (in order and in the index),
    /// and of the masks.
    pub(crate) fn heap_bytes(&self) -> usize {
        let names: usize = self.names.iter().map(String::capacity).sum();
        crate::vec_bytes(&self.names)
            + 2 * names
            + self.index.capacity() * (std::mem::size_of::<(String, Atom)>() + 1)
            + self.shared.heap_bytes()
            + self.known.heap_bytes()
    }

    /// How many atoms are declared.
    ///
    /// ```
    /// use state_atomic::AtomRegistry;
    /// let mut atoms = AtomRegistry::<u64>::new();
    /// atoms.add("a").unwrap();
    /// assert_eq!(atoms.len(), 1);
    /// ```
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether no atom is declared.
    ///
    /// ```
    /// use state_atomic::AtomRegistry;
    /// assert!(AtomRegistry::<u64>::new().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// The names in bit order.
    ///
    /// ```
    /// use state_atomic::AtomRegistry;
    /// let mut atoms = AtomRegistry::<u64>::new();
    /// atoms.add("a").unwrap();
    /// atoms.add("b").unwrap();
    /// assert_eq!(atoms.names().collect::<Vec<_>>(), ["a", "b"]);
    /// ```
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.names.iter().map(String::as_str)
    }

    /// Whether `atom` is shared (owned by the world).
    ///
    /// ```
    /// use state_atomic::AtomRegistry;
    /// let mut atoms = AtomRegistry::<u64>::new();
    /// let hungry = atoms.add("hungry").unwrap();
    /// assert!(!atoms.is_shared(hungry));
    /// ```
    pub fn is_shared(&self, atom: Atom) -> bool {
        self.shared.get(atom.index())
    }

    /// The mask of shared atoms.
    ///
    /// ```
    /// use state_atomic::AtomRegistry;
    /// let mut atoms = AtomRegistry::<u64>::new();
    /// atoms.add("hungry").unwrap();
    /// atoms.add_shared("night").unwrap();
    /// assert_eq!(atoms.shared_mask(), 0b10);
    /// ```
    pub fn shared_mask(&self) -> B {
        self.shared.clone()
    }

    /// The mask of every declared atom.
    ///
    /// ```
    /// use state_atomic::AtomRegistry;
    /// let mut atoms = AtomRegistry::<u64>::new();
    /// atoms.add("a").unwrap();
    /// atoms.add("b").unwrap();
    /// assert_eq!(atoms.mask(), 0b11);
    /// ```
    pub fn mask(&self) -> B {
        self.known.clone()
    }

    /// The mask of every declared atom, borrowed.
    pub(crate) fn as_mask(&self) -> &B {
        &self.known
    }

    /// An agent's view of the world: the world's shared atoms and the
    /// agent's own private ones, `(world & shared) | (own & !shared)`.
    ///
    /// ```
    /// use state_atomic::AtomRegistry;
    /// let mut atoms = AtomRegistry::<u64>::new();
    /// atoms.add_shared("night").unwrap();
    /// atoms.add("hungry").unwrap();
    /// let world = atoms.state(["night"]).unwrap();
    /// let own = atoms.state(["hungry"]).unwrap();
    /// let view = atoms.view(world, own);
    /// assert_eq!(view, atoms.state(["night", "hungry"]).unwrap());
    /// ```
    pub fn view(&self, world: WorldState<B>, own: WorldState<B>) -> WorldState<B> {
        own.merge_shared(world, self.shared.clone())
    }

    /// The complete state where exactly the named atoms are true.
    ///
    /// # Errors
    /// [`AtomicError::UnknownAtom`] for a name that is not declared.
    ///
    /// ```
    /// use state_atomic::AtomRegistry;
    /// let mut atoms = AtomRegistry::<u64>::new();
    /// let fed = atoms.add("fed").unwrap();
    /// assert!(atoms.state(["fed"]).unwrap().get(fed));
    /// assert!(atoms.state(["hungry"]).is_err());
    /// ```
    pub fn state<'n>(
        &self,
        true_atoms: impl IntoIterator<Item = &'n str>,
    ) -> Result<WorldState<B>, AtomicError> {
        let mut state = WorldState::empty();
        for name in true_atoms {
            state = state.with(self.atom(name)?, true);
        }
        Ok(state)
    }

    /// The partial state that specifies the named atoms' values and leaves
    /// every other atom unspecified.
    ///
    /// # Errors
    /// [`AtomicError::UnknownAtom`] for a name that is not declared.
    ///
    /// ```
    /// use state_atomic::AtomRegistry;
    /// let mut atoms = AtomRegistry::<u64>::new();
    /// let fed = atoms.add("fed").unwrap();
    /// let goal = atoms.partial([("fed", true)]).unwrap();
    /// assert_eq!(goal.get(fed), Some(true));
    /// ```
    pub fn partial<'n>(
        &self,
        values: impl IntoIterator<Item = (&'n str, bool)>,
    ) -> Result<PartialState<B>, AtomicError> {
        let mut partial = PartialState::empty();
        for (name, value) in values {
            partial = partial.with(self.atom(name)?, value);
        }
        Ok(partial)
    }

    /// Shows `value` (a state or partial state) with atom names, through
    /// `Display` and `Debug`.
    ///
    /// ```
    /// use state_atomic::AtomRegistry;
    /// let mut atoms = AtomRegistry::<u64>::new();
    /// atoms.add("fed").unwrap();
    /// atoms.add("hungry").unwrap();
    /// let goal = atoms.partial([("fed", true), ("hungry", false)]).unwrap();
    /// assert_eq!(atoms.named(&goal).to_string(), "{fed, !hungry}");
    /// ```
    pub fn named<'a, T>(&'a self, value: &'a T) -> Named<'a, T, B> {
        Named {
            value,
            registry: self,
        }
    }
}

/// A state or partial state shown with atom names; see
/// [`AtomRegistry::named`].
///
/// `Display` lists true atoms as `name` and false ones as `!name`; for a
/// complete state only true atoms are listed. `Debug` lists every declared
/// atom as `name: true`, `name: false` or `name: _` (don't care).
pub struct Named<'a, T, B: Bits> {
    value: &'a T,
    registry: &'a AtomRegistry<B>,
}

impl<B: Bits> Named<'_, PartialState<B>, B> {
    fn fmt_with(&self, f: &mut std::fmt::Formatter<'_>, every: bool) -> std::fmt::Result {
        let p = self.value;
        f.write_str("{")?;
        let mut first = true;
        for (i, name) in self.registry.names.iter().enumerate() {
            let value = if p.as_care().get(i) {
                Some(p.as_values().get(i))
            } else {
                None
            };
            if !every && value.is_none() {
                continue;
            }
            if !first {
                f.write_str(", ")?;
            }
            first = false;
            match (every, value) {
                (false, Some(true)) => write!(f, "{name}")?,
                (false, _) => write!(f, "!{name}")?,
                (true, Some(v)) => write!(f, "{name}: {v}")?,
                (true, None) => write!(f, "{name}: _")?,
            }
        }
        f.write_str("}")
    }
}

impl<B: Bits> std::fmt::Display for Named<'_, PartialState<B>, B> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.fmt_with(f, false)
    }
}

impl<B: Bits> std::fmt::Debug for Named<'_, PartialState<B>, B> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.fmt_with(f, true)
    }
}

impl<B: Bits> std::fmt::Display for Named<'_, WorldState<B>, B> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let bits = self.value.bits() & self.registry.as_mask();
        let as_partial = PartialState::new(bits.clone(), bits);
        std::fmt::Display::fmt(&self.registry.named(&as_partial), f)
    }
}

impl<B: Bits> std::fmt::Debug for Named<'_, WorldState<B>, B> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let as_partial = PartialState::new(self.value.bits(), self.registry.mask());
        std::fmt::Debug::fmt(&self.registry.named(&as_partial), f)
    }
}
