//! The syntax model of PDDL domains and problems: what the reader
//! ([`crate::reader`]) builds and grounding reads. Names are resolved to
//! indices (types, predicates, objects); every schema keeps the formulas
//! ADL allows beside the literals of its top-level conjunction.

use rustc_hash::FxHashMap;

/// The most one action may cost: Fast Downward's translator refuses
/// numbers beyond a 32-bit signed integer, and so does searchlab.
pub const MAX_ACTION_COST: u32 = i32::MAX.unsigned_abs();

/// A type's index; 0 is `object`.
pub(crate) type TypeId = usize;

/// The types a parameter or object may have (more than one with `either`).
pub(crate) type TypeSet = Vec<TypeId>;

/// A term of an atom: a schema's parameter, or an object (a constant).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Term {
    Var(u32),
    Obj(u32),
}

/// A predicate applied to terms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct AtomTerm {
    pub(crate) predicate: u32,
    pub(crate) args: Vec<Term>,
}

/// A literal of a precondition or goal.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Condition {
    Atom {
        positive: bool,
        atom: AtomTerm,
    },
    Equal {
        positive: bool,
        left: Term,
        right: Term,
    },
    /// A numeric comparison inside `or` or a quantifier (one in the
    /// top-level conjunction is kept apart, in `numeric_pre` or
    /// `numeric_goal`); negation is folded into its operator.
    Compare(NumCondition),
}

/// A precondition or goal in negation normal form: `not` is pushed down
/// to the literals while reading, `imply` is read as `or`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Formula {
    Literal(Condition),
    And(Vec<Formula>),
    Or(Vec<Formula>),
    /// `forall` (`universal`) or `exists` over variables of these types;
    /// they are bound after every variable in scope, in order.
    Quantified {
        universal: bool,
        vars: Vec<TypeSet>,
        body: Box<Formula>,
    },
}

impl Formula {
    /// The literals of the top-level conjunction (through nested `and`s):
    /// what every state satisfying the formula satisfies.
    pub(crate) fn conjuncts(&self) -> Vec<&Condition> {
        let mut out = Vec::new();
        let mut stack = vec![self];
        while let Some(f) = stack.pop() {
            match f {
                Formula::Literal(c) => out.push(c),
                Formula::And(items) => stack.extend(items.iter().rev()),
                Formula::Or(_) | Formula::Quantified { .. } => {}
            }
        }
        out
    }
}

/// The effects of one `forall` or `when` (or both, nested): under a
/// condition, for every binding of its variables.
#[derive(Clone, Debug, Default)]
pub(crate) struct CondEffect {
    /// `forall` variables, bound after the schema's parameters.
    pub(crate) vars: Vec<TypeSet>,
    /// The conjunction of the enclosing `when` conditions (empty: true).
    pub(crate) condition: Vec<Formula>,
    pub(crate) add: Vec<AtomTerm>,
    pub(crate) del: Vec<AtomTerm>,
    /// Numeric effects, never on the metric.
    pub(crate) numeric: Vec<NumEffect>,
}

/// A predicate's declaration.
#[derive(Clone, Debug)]
pub(crate) struct Predicate {
    pub(crate) name: String,
    pub(crate) params: Vec<TypeSet>,
}

/// A function's declaration (`:functions`): `total-cost`, or a static
/// function whose values the problem's `:init` gives.
#[derive(Clone, Debug)]
pub(crate) struct Function {
    pub(crate) name: String,
    pub(crate) params: Vec<TypeSet>,
    /// A static function's hidden predicate, true of the arguments that
    /// have a value: an action whose cost is the function's value needs it
    /// as a precondition, so that grounding drops the operators whose cost
    /// has no value, as Fast Downward's translator does. `None` for
    /// `total-cost`.
    pub(crate) predicate: Option<u32>,
}

/// The amount of an action's `(increase (total-cost) amount)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum CostTerm {
    /// A number.
    Constant(u32),
    /// A static function's value for these arguments.
    Function { function: u32, args: Vec<Term> },
}

/// A numeric comparison's operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Comparison {
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `=`
    Eq,
    /// `>=`
    Ge,
    /// `>`
    Gt,
}

impl Comparison {
    /// The operator of `(op a b)`, if `op` is one.
    pub(crate) fn parse(op: &str) -> Option<Self> {
        Some(match op {
            "<" => Self::Lt,
            "<=" => Self::Le,
            "=" => Self::Eq,
            ">=" => Self::Ge,
            ">" => Self::Gt,
            _ => return None,
        })
    }

    /// The operator that holds exactly when this one does not, if there
    /// is one (`=` has none: its negation is a disjunction).
    pub(crate) fn negated(self) -> Option<Self> {
        Some(match self {
            Self::Lt => Self::Ge,
            Self::Le => Self::Gt,
            Self::Eq => return None,
            Self::Ge => Self::Lt,
            Self::Gt => Self::Le,
        })
    }

    /// The operator as PDDL writes it.
    pub fn symbol(self) -> &'static str {
        match self {
            Self::Lt => "<",
            Self::Le => "<=",
            Self::Eq => "=",
            Self::Ge => ">=",
            Self::Gt => ">",
        }
    }
}

/// An arithmetic operator of a numeric expression.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Arith {
    Add,
    Sub,
    Mul,
    Div,
}

/// A numeric expression (PDDL 2.1): numbers, fluents and arithmetic;
/// `(- e)` is read as `0 - e`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum NumExpr {
    Number(f64),
    Fluent {
        function: u32,
        args: Vec<Term>,
    },
    /// `(total-time)` in a metric: the plan's length.
    TotalTime,
    Apply {
        op: Arith,
        left: Box<NumExpr>,
        right: Box<NumExpr>,
    },
}

/// A numeric comparison in a precondition or goal: `left op right`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct NumCondition {
    pub(crate) op: Comparison,
    pub(crate) left: NumExpr,
    pub(crate) right: NumExpr,
}

/// How a numeric effect changes its fluent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Assignment {
    Assign,
    Increase,
    Decrease,
    ScaleUp,
    ScaleDown,
}

/// A numeric effect: `(increase (f a b) value)` and its kin.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct NumEffect {
    pub(crate) kind: Assignment,
    pub(crate) function: u32,
    pub(crate) args: Vec<Term>,
    pub(crate) value: NumExpr,
}

/// An action schema.
#[derive(Clone, Debug)]
pub(crate) struct Schema {
    pub(crate) name: String,
    pub(crate) params: Vec<(String, TypeSet)>,
    /// The literals of the precondition's top-level conjunction.
    pub(crate) pre: Vec<Condition>,
    /// The rest of that conjunction: `or` and quantifiers (ADL).
    pub(crate) pre_formulas: Vec<Formula>,
    /// Unconditional effects outside any `forall`.
    pub(crate) add: Vec<AtomTerm>,
    pub(crate) del: Vec<AtomTerm>,
    /// `forall` and `when` effects (ADL).
    pub(crate) effects: Vec<CondEffect>,
    /// `(increase (total-cost) ...)`, if the action has one and its
    /// amount is a number or a function's value.
    pub(crate) cost: Option<CostTerm>,
    /// The numeric comparisons of the precondition's top-level conjunction.
    pub(crate) numeric_pre: Vec<NumCondition>,
    /// The unconditional numeric effects (an action cost given by
    /// arithmetic among them).
    pub(crate) numeric_effects: Vec<NumEffect>,
    /// A derived predicate's rule (`:derived`): its body is the
    /// precondition and its head the one add effect; it costs nothing and
    /// is no action of a plan.
    pub(crate) axiom: bool,
}

/// A parsed PDDL domain.
///
/// ```
/// use searchlab_pddl::parse_domain;
/// let domain = parse_domain("d.pddl", "(define (domain d) (:predicates (p ?x)) \
///     (:action a :parameters (?x) :precondition (p ?x) :effect (not (p ?x))))").unwrap();
/// assert_eq!(domain.name(), "d");
/// assert_eq!(domain.action_count(), 1);
/// ```
#[derive(Clone, Debug)]
pub struct Domain {
    pub(crate) name: String,
    pub(crate) types: Vec<String>,
    /// Per type: its parents.
    pub(crate) parents: Vec<Vec<TypeId>>,
    /// Per type: itself and every ancestor.
    pub(crate) ancestors: Vec<Vec<TypeId>>,
    pub(crate) constants: Vec<(String, TypeSet)>,
    /// The declared predicates, then the functions' hidden predicates.
    pub(crate) predicates: Vec<Predicate>,
    pub(crate) functions: Vec<Function>,
    /// The action schemas, then the axioms ([`Schema::axiom`]).
    pub(crate) actions: Vec<Schema>,
    /// Per predicate: whether some axiom derives it.
    pub(crate) derived: Vec<bool>,
    pub(crate) type_index: FxHashMap<String, TypeId>,
    pub(crate) predicate_index: FxHashMap<String, u32>,
    pub(crate) function_index: FxHashMap<String, u32>,
    /// Whether `:requirements` declares numeric fluents: then a decimal
    /// `(increase (total-cost) 1.25)` is a metric's increase, scaled at
    /// grounding, not a refused action cost.
    pub(crate) numeric_declared: bool,
}

impl Domain {
    /// The domain's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// How many action schemas it declares.
    pub fn action_count(&self) -> usize {
        self.actions.iter().filter(|s| !s.axiom).count()
    }

    /// How many axioms (`:derived` rules) it declares.
    ///
    /// ```
    /// use searchlab_pddl::parse_domain;
    /// let domain = parse_domain("d.pddl", "(define (domain d) (:requirements :derived-predicates) \
    ///     (:predicates (p ?x) (q ?x)) (:derived (q ?x) (not (p ?x))))").unwrap();
    /// assert_eq!((domain.action_count(), domain.axiom_count()), (0, 1));
    /// ```
    pub fn axiom_count(&self) -> usize {
        self.actions.iter().filter(|s| s.axiom).count()
    }

    /// How many predicates it declares.
    pub fn predicate_count(&self) -> usize {
        self.predicate_index.len()
    }

    /// Whether some action changes a numeric fluent other than
    /// `total-cost`, or compares numbers: a numeric domain (PDDL 2.1).
    ///
    /// ```
    /// use searchlab_pddl::parse_domain;
    /// let domain = parse_domain("d.pddl", "(define (domain d) (:functions (x))
    ///     (:action up :parameters () :effect (increase (x) 1)))").unwrap();
    /// assert!(domain.is_numeric());
    /// ```
    pub fn is_numeric(&self) -> bool {
        self.actions.iter().any(|s| {
            !s.numeric_pre.is_empty()
                || s.numeric_effects
                    .iter()
                    .chain(s.effects.iter().flat_map(|e| &e.numeric))
                    .any(|e| self.functions[e.function as usize].name != "total-cost")
        })
    }

    /// How many functions it declares (`total-cost` included).
    ///
    /// ```
    /// use searchlab_pddl::parse_domain;
    /// let domain = parse_domain("d.pddl", "(define (domain d) (:requirements :action-costs) \
    ///     (:predicates (at ?x)) (:functions (total-cost) (road-length ?a ?b) - number))").unwrap();
    /// assert_eq!((domain.predicate_count(), domain.function_count()), (1, 2));
    /// ```
    pub fn function_count(&self) -> usize {
        self.functions.len()
    }
}

/// A parsed PDDL problem, resolved against its [`Domain`].
///
/// ```
/// use searchlab_pddl::{parse_domain, parse_problem};
/// let domain = parse_domain("d.pddl", "(define (domain d) (:predicates (p ?x)) \
///     (:action a :parameters (?x) :precondition (p ?x) :effect (not (p ?x))))").unwrap();
/// let problem = parse_problem(&domain, "p.pddl", "(define (problem q) (:domain d) \
///     (:objects o1 o2) (:init (p o1)) (:goal (not (p o1))))").unwrap();
/// assert_eq!(problem.name(), "q");
/// assert_eq!(problem.object_count(), 2);
/// ```
#[derive(Clone, Debug)]
pub struct Problem {
    pub(crate) name: String,
    /// Every object: the domain's constants first, then the problem's.
    pub(crate) objects: Vec<(String, TypeSet)>,
    pub(crate) init: Vec<(u32, Vec<u32>)>,
    /// The literals of the goal's top-level conjunction.
    pub(crate) goal: Vec<Condition>,
    /// The rest of it: `or` and quantifiers (ADL).
    pub(crate) goal_formulas: Vec<Formula>,
    /// `(:metric minimize (total-cost))`: actions cost what they add to
    /// `total-cost` (0 without an `increase`); without it every action
    /// costs 1, as in Fast Downward.
    pub(crate) metric: bool,
    /// The values from `:init` of the functions some action's cost reads
    /// (whole numbers that are valid costs), by function and arguments.
    pub(crate) function_values: FxHashMap<(u32, Vec<u32>), u32>,
    /// Every function's value from `:init`, by function and arguments.
    pub(crate) fluent_values: FxHashMap<(u32, Vec<u32>), f64>,
    /// The numeric comparisons of the goal's top-level conjunction.
    pub(crate) numeric_goal: Vec<NumCondition>,
    /// `(:metric minimize expression)` for an expression other than
    /// `(total-cost)` (which sets `metric`).
    pub(crate) metric_expr: Option<NumExpr>,
}

impl Problem {
    /// The problem's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// How many objects there are, the domain's constants included.
    pub fn object_count(&self) -> usize {
        self.objects.len()
    }

    /// Whether actions have costs: the problem says `(:metric minimize
    /// (total-cost))`. Without it every action costs 1.
    ///
    /// ```
    /// use searchlab_pddl::{parse_domain, parse_problem};
    /// let domain = parse_domain("d.pddl", "(define (domain d) (:predicates (p)) \
    ///     (:functions (total-cost) - number))").unwrap();
    /// let problem = parse_problem(&domain, "p.pddl", "(define (problem q) (:domain d) \
    ///     (:init (= (total-cost) 0)) (:goal (p)) (:metric minimize (total-cost)))").unwrap();
    /// assert!(problem.has_action_costs());
    /// ```
    pub fn has_action_costs(&self) -> bool {
        self.metric
    }
}

/// Whether an object of declared types `types` belongs to one of `wanted`.
pub(crate) fn fits(domain: &Domain, types: &[TypeId], wanted: &[TypeId]) -> bool {
    types.iter().any(|&t| {
        domain
            .ancestors
            .get(t)
            .is_some_and(|a| a.iter().any(|x| wanted.contains(x)))
    })
}
