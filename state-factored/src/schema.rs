//! Schemas: the variables of a domain, with names and types, and the table
//! of interned strings.

use std::fmt;
use std::sync::{Arc, PoisonError, RwLock};

use rustc_hash::FxHashMap;

use crate::value::{float_key, int_key, key_float, key_int};
use crate::{FactoredError, State, Value, VarType};

/// A variable of a schema: its index and type. Cheap to copy.
///
/// ```
/// use state_factored::{Schema, VarType};
/// let mut schema = Schema::new();
/// schema.int("gold").unwrap();
/// let gold = schema.var("gold").unwrap();
/// assert_eq!((gold.index(), gold.var_type()), (0, VarType::Int));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Var {
    index: u32,
    ty: VarType,
}

impl Var {
    /// The variable's position in the schema (and its slot in a state).
    ///
    /// ```
    /// use state_factored::Schema;
    /// let mut schema = Schema::new();
    /// schema.bool("a").unwrap();
    /// schema.bool("b").unwrap();
    /// assert_eq!(schema.var("b").unwrap().index(), 1);
    /// ```
    pub fn index(self) -> usize {
        self.index as usize
    }

    /// The variable's type.
    ///
    /// ```
    /// use state_factored::{Schema, VarType};
    /// let mut schema = Schema::new();
    /// schema.float("noise").unwrap();
    /// assert_eq!(schema.var("noise").unwrap().var_type(), VarType::Float);
    /// ```
    pub fn var_type(self) -> VarType {
        self.ty
    }
}

macro_rules! typed_var {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub(crate) u32);

        impl $name {
            /// The variable's position in the schema.
            pub fn index(self) -> usize {
                self.0 as usize
            }
        }
    };
}

typed_var!(
    /// A bool variable, for fast typed access to a [`State`].
    BoolVar
);
typed_var!(
    /// An int variable, for fast typed access to a [`State`].
    IntVar
);
typed_var!(
    /// A float variable, for fast typed access to a [`State`].
    FloatVar
);
typed_var!(
    /// A string variable, for fast typed access to a [`State`].
    StrVar
);

/// An interned string: an index into the schema's string table.
///
/// ```
/// use state_factored::Schema;
/// let schema = Schema::new();
/// let shop = schema.intern("shop");
/// assert_eq!(schema.intern("shop"), shop);
/// assert_eq!(&*schema.symbol_name(shop).unwrap(), "shop");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Symbol(pub(crate) u32);

impl Symbol {
    /// The symbol's index in the string table; `""` is 0.
    pub fn index(self) -> u32 {
        self.0
    }
}

#[derive(Clone, Debug, Default)]
struct Interner {
    ids: FxHashMap<Arc<str>, u32>,
    names: Vec<Arc<str>>,
}

impl Interner {
    fn intern(&mut self, name: &str) -> u32 {
        if let Some(&id) = self.ids.get(name) {
            return id;
        }
        let id = u32::try_from(self.names.len()).unwrap_or(u32::MAX);
        let name: Arc<str> = name.into();
        self.names.push(name.clone());
        self.ids.insert(name, id);
        id
    }
}

/// The variables of a domain: names and types, in declaration order, and the
/// table of interned strings.
///
/// Declare every variable before building actions, goals and states. Strings
/// are interned on first use (the table is behind a lock, so a shared schema
/// can still learn new strings); `""` is always symbol 0.
///
/// ```
/// use state_factored::{Schema, VarType};
/// let mut schema = Schema::new();
/// let gold = schema.int("gold").unwrap();
/// schema.string("location").unwrap();
/// assert!(schema.int("gold").is_err()); // declared twice
/// assert_eq!(schema.len(), 2);
/// assert_eq!(schema.name(schema.var("location").unwrap()), "location");
/// let start = schema.state().set("gold", 20).set("location", "home").build().unwrap();
/// assert_eq!(start.int(gold), 20);
/// ```
pub struct Schema {
    names: Vec<Arc<str>>,
    types: Vec<VarType>,
    by_name: FxHashMap<Arc<str>, u32>,
    symbols: RwLock<Interner>,
    /// Variables owned by the world rather than by each agent.
    shared: Vec<Var>,
}

impl Default for Schema {
    fn default() -> Self {
        Self::new()
    }
}

impl Clone for Schema {
    fn clone(&self) -> Self {
        Self {
            names: self.names.clone(),
            types: self.types.clone(),
            by_name: self.by_name.clone(),
            symbols: RwLock::new(self.interner().clone()),
            shared: self.shared.clone(),
        }
    }
}

impl fmt::Debug for Schema {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map()
            .entries(self.names.iter().zip(&self.types))
            .finish()
    }
}

impl Schema {
    /// An empty schema.
    ///
    /// ```
    /// use state_factored::Schema;
    /// assert!(Schema::new().is_empty());
    /// ```
    pub fn new() -> Self {
        let mut interner = Interner::default();
        interner.intern("");
        Self {
            names: Vec::new(),
            types: Vec::new(),
            by_name: FxHashMap::default(),
            symbols: RwLock::new(interner),
            shared: Vec::new(),
        }
    }

    fn interner(&self) -> std::sync::RwLockReadGuard<'_, Interner> {
        self.symbols.read().unwrap_or_else(PoisonError::into_inner)
    }

    /// Declares a variable named `name` of type `ty`.
    ///
    /// # Errors
    /// [`FactoredError::DuplicateVariable`] if the name is taken.
    ///
    /// ```
    /// use state_factored::{Schema, VarType};
    /// let mut schema = Schema::new();
    /// let v = schema.add("hungry", VarType::Bool).unwrap();
    /// assert_eq!(v.var_type(), VarType::Bool);
    /// ```
    pub fn add(&mut self, name: &str, ty: VarType) -> Result<Var, FactoredError> {
        if self.by_name.contains_key(name) {
            return Err(FactoredError::DuplicateVariable {
                name: name.to_owned(),
            });
        }
        let index =
            u32::try_from(self.names.len()).map_err(|_| FactoredError::DuplicateVariable {
                name: name.to_owned(),
            })?;
        let name: Arc<str> = name.into();
        self.names.push(name.clone());
        self.types.push(ty);
        self.by_name.insert(name, index);
        Ok(Var { index, ty })
    }

    /// Marks a declared variable as shared: owned by the world (the time of
    /// day), not by each agent. An agent's view of the world takes shared
    /// variables from the world and the rest from the agent
    /// ([`view`](Schema::view)).
    ///
    /// # Errors
    /// [`FactoredError::UnknownVariable`] if no variable has that name.
    ///
    /// ```
    /// use state_factored::Schema;
    /// let mut schema = Schema::new();
    /// schema.int("hour").unwrap();
    /// let hour = schema.share("hour").unwrap();
    /// assert!(schema.is_shared(hour));
    /// assert!(schema.share("minute").is_err());
    /// ```
    pub fn share(&mut self, name: &str) -> Result<Var, FactoredError> {
        let var = self
            .var(name)
            .ok_or_else(|| FactoredError::UnknownVariable {
                name: name.to_owned(),
                context: "the shared variables".to_owned(),
            })?;
        if !self.shared.contains(&var) {
            self.shared.push(var);
        }
        Ok(var)
    }

    /// Whether `var` is shared ([`share`](Schema::share)).
    pub fn is_shared(&self, var: Var) -> bool {
        self.shared.contains(&var)
    }

    /// An agent's view: the shared variables of `world` and the rest of
    /// `own`.
    ///
    /// ```
    /// use state_factored::Schema;
    /// let mut schema = Schema::new();
    /// let hour = schema.int("hour").unwrap();
    /// let gold = schema.int("gold").unwrap();
    /// schema.share("hour").unwrap();
    /// let world = schema.state().set("hour", 20).set("gold", 1).build().unwrap();
    /// let own = schema.state().set("hour", 3).set("gold", 50).build().unwrap();
    /// let view = schema.view(&world, &own);
    /// assert_eq!((view.int(hour), view.int(gold)), (20, 50));
    /// ```
    pub fn view(&self, world: &State, own: &State) -> State {
        let mut view = own.clone();
        for var in &self.shared {
            view.set_slot(var.index(), world.slot(var.index()));
        }
        view
    }

    /// Copies the shared variables of `view` into `world` (after an agent
    /// acted on its view).
    pub fn store_shared(&self, view: &State, world: &mut State) {
        for var in &self.shared {
            world.set_slot(var.index(), view.slot(var.index()));
        }
    }

    /// Declares a bool variable.
    ///
    /// # Errors
    /// [`FactoredError::DuplicateVariable`] if the name is taken.
    ///
    /// ```
    /// use state_factored::Schema;
    /// let mut schema = Schema::new();
    /// let armed = schema.bool("armed").unwrap();
    /// assert!(!schema.default_state().bool(armed));
    /// ```
    pub fn bool(&mut self, name: &str) -> Result<BoolVar, FactoredError> {
        self.add(name, VarType::Bool).map(|v| BoolVar(v.index))
    }

    /// Declares an int variable.
    ///
    /// # Errors
    /// [`FactoredError::DuplicateVariable`] if the name is taken.
    ///
    /// ```
    /// use state_factored::Schema;
    /// let mut schema = Schema::new();
    /// let gold = schema.int("gold").unwrap();
    /// assert_eq!(schema.default_state().int(gold), 0);
    /// ```
    pub fn int(&mut self, name: &str) -> Result<IntVar, FactoredError> {
        self.add(name, VarType::Int).map(|v| IntVar(v.index))
    }

    /// Declares a float variable.
    ///
    /// # Errors
    /// [`FactoredError::DuplicateVariable`] if the name is taken.
    ///
    /// ```
    /// use state_factored::Schema;
    /// let mut schema = Schema::new();
    /// let noise = schema.float("noise").unwrap();
    /// assert_eq!(schema.default_state().float(noise), 0.0);
    /// ```
    pub fn float(&mut self, name: &str) -> Result<FloatVar, FactoredError> {
        self.add(name, VarType::Float).map(|v| FloatVar(v.index))
    }

    /// Declares a string variable.
    ///
    /// # Errors
    /// [`FactoredError::DuplicateVariable`] if the name is taken.
    ///
    /// ```
    /// use state_factored::Schema;
    /// let mut schema = Schema::new();
    /// let place = schema.string("place").unwrap();
    /// assert_eq!(schema.default_state().symbol(place), schema.intern(""));
    /// ```
    pub fn string(&mut self, name: &str) -> Result<StrVar, FactoredError> {
        self.add(name, VarType::Str).map(|v| StrVar(v.index))
    }

    /// The variable named `name`, if declared.
    ///
    /// ```
    /// use state_factored::Schema;
    /// let mut schema = Schema::new();
    /// schema.int("gold").unwrap();
    /// assert!(schema.var("gold").is_some());
    /// assert!(schema.var("silver").is_none());
    /// ```
    pub fn var(&self, name: &str) -> Option<Var> {
        self.by_name.get(name).map(|&index| Var {
            index,
            ty: self.types[index as usize],
        })
    }

    /// The variable named `name`, or an error naming it and `context`.
    pub(crate) fn resolve(&self, name: &str, context: &str) -> Result<Var, FactoredError> {
        self.var(name)
            .ok_or_else(|| FactoredError::UnknownVariable {
                name: name.to_owned(),
                context: context.to_owned(),
            })
    }

    /// The number of variables.
    ///
    /// ```
    /// use state_factored::Schema;
    /// assert_eq!(Schema::new().len(), 0);
    /// ```
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether the schema declares no variable.
    ///
    /// ```
    /// use state_factored::Schema;
    /// assert!(Schema::new().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// The name of a variable.
    ///
    /// # Panics
    /// If `var` comes from a schema with more variables.
    ///
    /// ```
    /// use state_factored::Schema;
    /// let mut schema = Schema::new();
    /// schema.int("gold").unwrap();
    /// assert_eq!(schema.name(schema.var("gold").unwrap()), "gold");
    /// ```
    pub fn name(&self, var: Var) -> &str {
        &self.names[var.index()]
    }

    /// The variables in declaration order.
    ///
    /// ```
    /// use state_factored::{Schema, VarType};
    /// let mut schema = Schema::new();
    /// schema.int("gold").unwrap();
    /// schema.bool("armed").unwrap();
    /// let names: Vec<&str> = schema.vars().map(|v| schema.name(v)).collect();
    /// assert_eq!(names, ["gold", "armed"]);
    /// ```
    pub fn vars(&self) -> impl Iterator<Item = Var> + '_ {
        self.types.iter().enumerate().map(|(i, &ty)| Var {
            index: u32::try_from(i).unwrap_or(u32::MAX),
            ty,
        })
    }

    /// The symbol of `text`, interning it on first use.
    ///
    /// ```
    /// use state_factored::Schema;
    /// let schema = Schema::new();
    /// assert_ne!(schema.intern("mine"), schema.intern("shop"));
    /// ```
    pub fn intern(&self, text: &str) -> Symbol {
        if let Some(&id) = self.interner().ids.get(text) {
            return Symbol(id);
        }
        let mut interner = self.symbols.write().unwrap_or_else(PoisonError::into_inner);
        Symbol(interner.intern(text))
    }

    /// The symbol of `text` if it was interned, without interning it.
    ///
    /// ```
    /// use state_factored::Schema;
    /// let schema = Schema::new();
    /// assert!(schema.symbol("mine").is_none());
    /// schema.intern("mine");
    /// assert!(schema.symbol("mine").is_some());
    /// ```
    pub fn symbol(&self, text: &str) -> Option<Symbol> {
        self.interner().ids.get(text).map(|&id| Symbol(id))
    }

    /// The text of a symbol.
    ///
    /// ```
    /// use state_factored::Schema;
    /// let schema = Schema::new();
    /// let s = schema.intern("target");
    /// assert_eq!(schema.symbol_name(s).as_deref(), Some("target"));
    /// ```
    pub fn symbol_name(&self, symbol: Symbol) -> Option<Arc<str>> {
        self.interner().names.get(symbol.0 as usize).cloned()
    }

    /// The state that gives every variable its type's default: `false`, `0`,
    /// `0.0`, `""`.
    ///
    /// ```
    /// use state_factored::Schema;
    /// let mut schema = Schema::new();
    /// let gold = schema.int("gold").unwrap();
    /// assert_eq!(schema.default_state().int(gold), 0);
    /// ```
    pub fn default_state(&self) -> State {
        let slots: Vec<u64> = self
            .types
            .iter()
            .map(|ty| match ty {
                VarType::Bool | VarType::Str => 0,
                VarType::Int => int_key(0),
                VarType::Float => float_key(0.0),
            })
            .collect();
        State::from_slots(&slots)
    }

    /// A builder for a state; variables it does not set take their defaults.
    ///
    /// ```
    /// use state_factored::Schema;
    /// let mut schema = Schema::new();
    /// let noise = schema.float("noise").unwrap();
    /// let s = schema.state().set("noise", 0.5).build().unwrap();
    /// assert_eq!(s.float(noise), 0.5);
    /// assert!(schema.state().set("noise", f64::NAN).build().is_err());
    /// ```
    pub fn state(&self) -> StateBuilder<'_> {
        StateBuilder {
            schema: self,
            values: Vec::new(),
        }
    }

    /// Sets variable `name` of `state` to `value`, by name (the typed
    /// setters of [`State`] are faster in a loop).
    ///
    /// # Errors
    /// [`FactoredError::UnknownVariable`], [`FactoredError::TypeMismatch`],
    /// or [`FactoredError::NonFinite`] for a float that is not finite; the
    /// state is unchanged.
    ///
    /// # Panics
    /// If `state` comes from a schema with fewer variables.
    ///
    /// ```
    /// use state_factored::Schema;
    /// let mut schema = Schema::new();
    /// let gold = schema.int("gold").unwrap();
    /// schema.string("location").unwrap();
    /// let mut state = schema.default_state();
    /// schema.set(&mut state, "gold", 60).unwrap();
    /// schema.set(&mut state, "location", "shop").unwrap();
    /// assert_eq!(state.int(gold), 60);
    /// let error = schema.set(&mut state, "gold", "lots").unwrap_err();
    /// assert_eq!(error.to_string(), "variable `gold` is int but an update gives it a string value");
    /// assert!(schema.set(&mut state, "silver", 1).is_err());
    /// assert_eq!(state.int(gold), 60);
    /// ```
    pub fn set(
        &self,
        state: &mut State,
        name: &str,
        value: impl Into<Value>,
    ) -> Result<(), FactoredError> {
        let var = self.resolve(name, "an update")?;
        let slot = self.encode(var, &value.into(), "an update")?;
        state.set_slot(var.index(), slot);
        Ok(())
    }

    /// The slot that encodes `value` for variable `var`, checked.
    pub(crate) fn encode(
        &self,
        var: Var,
        value: &Value,
        context: &str,
    ) -> Result<u64, FactoredError> {
        let name = || self.name(var).to_owned();
        let mismatch = || FactoredError::TypeMismatch {
            variable: name(),
            expected: var.ty,
            found: value.var_type(),
            context: context.to_owned(),
        };
        match (var.ty, value) {
            (VarType::Bool, Value::Bool(b)) => Ok(u64::from(*b)),
            (VarType::Int, Value::Int(i)) => Ok(int_key(*i)),
            (VarType::Float, Value::Float(x)) => self.finite(var, *x, context).map(float_key),
            #[expect(
                clippy::cast_precision_loss,
                reason = "an int constant for a float variable is rounded like `as f64`"
            )]
            (VarType::Float, Value::Int(i)) => Ok(float_key(*i as f64)),
            (VarType::Str, Value::Str(s)) => Ok(u64::from(self.intern(s).0)),
            _ => Err(mismatch()),
        }
    }

    /// `value` if it is finite, or an error naming the variable.
    pub(crate) fn finite(&self, var: Var, value: f64, context: &str) -> Result<f64, FactoredError> {
        if value.is_finite() {
            Ok(value)
        } else {
            Err(FactoredError::NonFinite {
                variable: self.name(var).to_owned(),
                value,
                context: context.to_owned(),
            })
        }
    }

    /// The value of `var` in `state`, with strings resolved.
    ///
    /// # Panics
    /// If `var` or `state` comes from a schema with more variables.
    ///
    /// ```
    /// use state_factored::{Schema, Value};
    /// let mut schema = Schema::new();
    /// schema.string("location").unwrap();
    /// let s = schema.state().set("location", "mine").build().unwrap();
    /// let location = schema.var("location").unwrap();
    /// assert_eq!(schema.value(&s, location), Value::Str("mine".into()));
    /// ```
    pub fn value(&self, state: &State, var: Var) -> Value {
        let slot = state.slot(var.index());
        match var.ty {
            VarType::Bool => Value::Bool(slot != 0),
            VarType::Int => Value::Int(key_int(slot)),
            VarType::Float => Value::Float(key_float(slot)),
            VarType::Str => Value::Str(
                u32::try_from(slot)
                    .ok()
                    .and_then(|id| self.symbol_name(Symbol(id)))
                    .map(|s| s.to_string())
                    .unwrap_or_default(),
            ),
        }
    }

    /// `state` as `name=value` pairs, for messages and logs.
    ///
    /// ```
    /// use state_factored::Schema;
    /// let mut schema = Schema::new();
    /// schema.int("gold").unwrap();
    /// schema.string("location").unwrap();
    /// let s = schema.state().set("gold", 5).set("location", "home").build().unwrap();
    /// assert_eq!(schema.describe(&s), "gold=5 location=\"home\"");
    /// ```
    pub fn describe(&self, state: &State) -> String {
        self.vars()
            .map(|v| format!("{}={}", self.name(v), self.value(state, v)))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// Builds a [`State`] by variable names; see [`Schema::state`].
#[derive(Debug)]
#[must_use]
pub struct StateBuilder<'s> {
    schema: &'s Schema,
    values: Vec<(String, Value)>,
}

impl StateBuilder<'_> {
    /// Gives variable `name` a value (checked in [`build`](Self::build)).
    ///
    /// ```
    /// use state_factored::Schema;
    /// let mut schema = Schema::new();
    /// let armed = schema.bool("armed").unwrap();
    /// assert!(schema.state().set("armed", true).build().unwrap().bool(armed));
    /// ```
    pub fn set(mut self, name: &str, value: impl Into<Value>) -> Self {
        self.values.push((name.to_owned(), value.into()));
        self
    }

    /// The state.
    ///
    /// # Errors
    /// [`FactoredError::UnknownVariable`], [`FactoredError::TypeMismatch`] or
    /// [`FactoredError::NonFinite`], naming the variable.
    ///
    /// ```
    /// use state_factored::Schema;
    /// let mut schema = Schema::new();
    /// schema.int("gold").unwrap();
    /// let error = schema.state().set("gold", "lots").build().unwrap_err();
    /// assert_eq!(error.to_string(), "variable `gold` is int but state gives it a string value");
    /// ```
    pub fn build(self) -> Result<State, FactoredError> {
        let mut state = self.schema.default_state();
        for (name, value) in &self.values {
            let var = self.schema.resolve(name, "state")?;
            let slot = self.schema.encode(var, value, "state")?;
            state.set_slot(var.index(), slot);
        }
        Ok(state)
    }
}
