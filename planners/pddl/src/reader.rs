//! Domain and problem files: STRIPS with `:typing`,
//! `:negative-preconditions`, `:equality`, `:action-costs` and ADL
//! (`or`, `imply`, `not` over any formula, `exists`, `forall`, `when`).

use rustc_hash::{FxHashMap, FxHashSet};

use super::sexp::{read, Sexp};
use super::{Location, PddlError};

/// The requirements searchlab reads.
const SUPPORTED: [&str; 12] = [
    ":strips",
    ":typing",
    ":negative-preconditions",
    ":equality",
    ":action-costs",
    ":adl",
    ":disjunctive-preconditions",
    ":existential-preconditions",
    ":universal-preconditions",
    ":quantified-preconditions",
    ":conditional-effects",
    ":derived-predicates",
];

/// The most one action may cost: Fast Downward's translator refuses
/// numbers beyond a 32-bit signed integer, and so does searchlab.
pub const MAX_ACTION_COST: u32 = i32::MAX.unsigned_abs();

/// The function every action's cost goes to (`:action-costs`).
const TOTAL_COST: &str = "total-cost";

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
#[derive(Clone, Debug, PartialEq, Eq)]
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
}

/// A precondition or goal in negation normal form: `not` is pushed down
/// to the literals while reading, `imply` is read as `or`.
#[derive(Clone, Debug, PartialEq, Eq)]
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
    /// `(increase (total-cost) ...)`, if the action has one.
    pub(crate) cost: Option<CostTerm>,
    /// A derived predicate's rule (`:derived`): its body is the
    /// precondition and its head the one add effect; it costs nothing and
    /// is no action of a plan.
    pub(crate) axiom: bool,
}

/// A parsed PDDL domain.
///
/// ```
/// use planners::pddl::parse_domain;
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
    type_index: FxHashMap<String, TypeId>,
    predicate_index: FxHashMap<String, u32>,
    function_index: FxHashMap<String, u32>,
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
    /// use planners::pddl::parse_domain;
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

    /// How many functions it declares (`total-cost` included).
    ///
    /// ```
    /// use planners::pddl::parse_domain;
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
/// use planners::pddl::{parse_domain, parse_problem};
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
    /// Static functions' values from `:init`, by function and arguments.
    pub(crate) function_values: FxHashMap<(u32, Vec<u32>), u32>,
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
    /// use planners::pddl::{parse_domain, parse_problem};
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

/// A name of a typed list with its location and type expression.
type Typed<'s> = (&'s str, Location, Option<&'s Sexp>);

/// Reading context: the file's name for errors.
struct Reader<'f> {
    file: &'f str,
}

impl Reader<'_> {
    fn syntax(&self, at: Location, message: impl Into<String>) -> PddlError {
        PddlError::Syntax {
            file: self.file.to_owned(),
            at,
            message: message.into(),
        }
    }

    fn unsupported(&self, at: Location, construct: impl Into<String>) -> PddlError {
        PddlError::Unsupported {
            file: self.file.to_owned(),
            at,
            construct: construct.into(),
        }
    }

    fn undefined(&self, at: Location, kind: &'static str, name: &str) -> PddlError {
        PddlError::Undefined {
            file: self.file.to_owned(),
            at,
            kind,
            name: name.to_owned(),
        }
    }

    fn duplicate(&self, at: Location, kind: &'static str, name: &str) -> PddlError {
        PddlError::Duplicate {
            file: self.file.to_owned(),
            at,
            kind,
            name: name.to_owned(),
        }
    }

    /// A number for an action's cost or a function's value: an integer
    /// from 0 to [`MAX_ACTION_COST`] (`7.0` is 7).
    fn number(&self, sexp: &Sexp, what: &str) -> Result<u32, PddlError> {
        let text = self.symbol(sexp, &format!("a {what}"))?;
        let value: f64 = text
            .parse()
            .ok()
            .filter(|v: &f64| v.is_finite())
            .ok_or_else(|| self.syntax(sexp.at(), format!("expected a {what}, found `{text}`")))?;
        if value < 0.0 {
            return Err(self.syntax(
                sexp.at(),
                format!("negative {what} `{text}`: action costs are 0 or more"),
            ));
        }
        if value.fract() != 0.0 {
            return Err(self.syntax(sexp.at(), format!("{what} `{text}` is not an integer")));
        }
        if value > f64::from(MAX_ACTION_COST) {
            return Err(self.syntax(
                sexp.at(),
                format!("{what} `{text}` is larger than {MAX_ACTION_COST}"),
            ));
        }
        #[expect(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            reason = "an integer from 0 to MAX_ACTION_COST, checked above"
        )]
        Ok(value as u32)
    }

    fn symbol<'s>(&self, sexp: &'s Sexp, what: &str) -> Result<&'s str, PddlError> {
        sexp.symbol()
            .ok_or_else(|| self.syntax(sexp.at(), format!("expected {what}, found a list")))
    }

    fn list<'s>(&self, sexp: &'s Sexp, what: &str) -> Result<&'s [Sexp], PddlError> {
        sexp.list().ok_or_else(|| {
            self.syntax(
                sexp.at(),
                format!("expected {what}, found `{}`", sexp.symbol().unwrap_or("")),
            )
        })
    }

    /// `(define (kind name) sections...)`: the name and the sections.
    fn header<'s>(&self, top: &'s Sexp, kind: &str) -> Result<(String, &'s [Sexp]), PddlError> {
        let items = self.list(top, "`(define ...)`")?;
        match items.first().and_then(Sexp::symbol) {
            Some("define") => {}
            _ => return Err(self.syntax(top.at(), "expected `(define ...)`")),
        }
        let Some(head) = items.get(1) else {
            return Err(self.syntax(
                top.at(),
                format!("expected `({kind} <name>)` after `define`"),
            ));
        };
        let parts = self.list(head, &format!("`({kind} <name>)`"))?;
        match parts {
            [Sexp::Symbol(k, _), Sexp::Symbol(name, _)] if k == kind => {
                Ok((name.clone(), &items[2..]))
            }
            _ => Err(self.syntax(head.at(), format!("expected `({kind} <name>)`"))),
        }
    }

    fn requirements(&self, items: &[Sexp]) -> Result<(), PddlError> {
        for item in items {
            let name = self.symbol(item, "a requirement")?;
            if !SUPPORTED.contains(&name) {
                return Err(self.unsupported(item.at(), format!("requirement `{name}`")));
            }
        }
        Ok(())
    }

    /// A typed list `a b - t c - (either t u) d`: names with their type
    /// expressions (`None`: untyped).
    fn typed_list<'s>(&self, items: &'s [Sexp]) -> Result<Vec<Typed<'s>>, PddlError> {
        let mut out = Vec::new();
        let mut pending = Vec::new();
        let mut i = 0;
        while i < items.len() {
            let item = &items[i];
            let name = self.symbol(item, "a name")?;
            if name == "-" {
                let Some(ty) = items.get(i + 1) else {
                    return Err(self.syntax(item.at(), "expected a type after `-`"));
                };
                if pending.is_empty() {
                    return Err(self.syntax(item.at(), "`-` with no name before it"));
                }
                for (n, at) in pending.drain(..) {
                    out.push((n, at, Some(ty)));
                }
                i += 2;
            } else {
                pending.push((name, item.at()));
                i += 1;
            }
        }
        out.extend(pending.into_iter().map(|(n, at)| (n, at, None)));
        Ok(out)
    }
}

/// Reads a domain file's text; `file` names it in errors.
///
/// # Errors
/// A located [`PddlError`] for malformed text, an undefined or duplicate
/// name, a wrong arity, an action cost that is not an integer from 0 to
/// [`MAX_ACTION_COST`], an action that changes a derived predicate, or a
/// requirement or construct outside ADL with `:action-costs` and
/// `:derived-predicates` (numeric fluents, durative actions, ...).
///
/// ```
/// use planners::pddl::{parse_domain, PddlError};
/// let error = parse_domain("d.pddl", "(define (domain d)\n (:requirements :adl :timed-initial-literals))").unwrap_err();
/// assert!(matches!(error, PddlError::Unsupported { .. }));
/// assert_eq!(error.to_string().split(" (").next().unwrap(),
///     "d.pddl:2:22: unsupported requirement `:timed-initial-literals`");
/// ```
#[expect(clippy::too_many_lines, reason = "one match over the sections")]
pub fn parse_domain(file: &str, text: &str) -> Result<Domain, PddlError> {
    let r = Reader { file };
    let top = read(file, text)?;
    let (name, sections) = r.header(&top, "domain")?;
    let mut domain = Domain {
        name,
        types: vec!["object".to_owned()],
        parents: vec![Vec::new()],
        ancestors: Vec::new(),
        constants: Vec::new(),
        predicates: Vec::new(),
        functions: Vec::new(),
        actions: Vec::new(),
        derived: Vec::new(),
        type_index: FxHashMap::default(),
        predicate_index: FxHashMap::default(),
        function_index: FxHashMap::default(),
    };
    domain.type_index.insert("object".to_owned(), 0);
    let mut constant_index = FxHashMap::default();
    // Types first: constants and predicates refer to them wherever they
    // stand in the file.
    for section in sections {
        if section.head() == Some(":types") {
            read_types(
                &r,
                &mut domain,
                section.list().and_then(|l| l.get(1..)).unwrap_or_default(),
            )?;
        }
    }
    domain.ancestors = (0..domain.types.len())
        .map(|t| ancestors(&domain.parents, t))
        .collect();
    for section in sections {
        let items = r.list(section, "a section such as `(:predicates ...)`")?;
        let Some(first) = items.first() else {
            return Err(r.syntax(section.at(), "empty section"));
        };
        let keyword = r.symbol(first, "a section keyword")?;
        let rest = &items[1..];
        match keyword {
            ":requirements" => r.requirements(rest)?,
            ":types" | ":action" | ":derived" => {} // read before and after
            ":constants" => {
                for (name, at, ty) in r.typed_list(rest)? {
                    let types = type_set(&r, &domain, ty)?;
                    if constant_index.contains_key(name) {
                        return Err(r.duplicate(at, "constant", name));
                    }
                    constant_index.insert(name.to_owned(), domain.constants.len());
                    domain.constants.push((name.to_owned(), types));
                }
            }
            ":predicates" => {
                for item in rest {
                    let parts = r.list(item, "a predicate `(name ?x ...)`")?;
                    let Some(head) = parts.first() else {
                        return Err(r.syntax(item.at(), "empty predicate declaration"));
                    };
                    let name = r.symbol(head, "a predicate name")?;
                    if name == "="
                        || domain.predicate_index.contains_key(name)
                        || domain.function_index.contains_key(name)
                    {
                        return Err(r.duplicate(head.at(), "predicate", name));
                    }
                    let mut params = Vec::new();
                    for (var, at, ty) in r.typed_list(&parts[1..])? {
                        if !var.starts_with('?') {
                            return Err(r.syntax(at, format!("expected a variable, found `{var}`")));
                        }
                        params.push(type_set(&r, &domain, ty)?);
                    }
                    let index = u32::try_from(domain.predicates.len())
                        .map_err(|_| r.syntax(item.at(), "too many predicates"))?;
                    domain.predicate_index.insert(name.to_owned(), index);
                    domain.predicates.push(Predicate {
                        name: name.to_owned(),
                        params,
                    });
                }
            }
            ":functions" => read_functions(&r, &mut domain, rest)?,
            ":durative-action" => {
                return Err(r.unsupported(first.at(), "durative actions (`:durative-action`)"));
            }
            ":constraints" => {
                return Err(r.unsupported(first.at(), "constraints (`:constraints`)"));
            }
            other => {
                return Err(r.syntax(first.at(), format!("unknown domain section `{other}`")));
            }
        }
    }
    let constants: FxHashMap<String, u32> = constant_index
        .into_iter()
        .map(|(name, i)| (name, u32::try_from(i).unwrap_or(u32::MAX)))
        .collect();
    domain.derived = vec![false; domain.predicates.len()];
    for section in sections {
        if section.head() == Some(":derived") {
            let axiom = read_axiom(&r, &domain, &constants, section)?;
            domain.derived[axiom.add[0].predicate as usize] = true;
            domain.actions.push(axiom);
        }
    }
    let axioms = std::mem::take(&mut domain.actions);
    let mut action_names = FxHashSet::default();
    for section in sections {
        if section.head() == Some(":action") {
            let schema = read_action(&r, &domain, &constants, section)?;
            if !action_names.insert(schema.name.clone()) {
                let at = section
                    .list()
                    .and_then(|l| l.get(1))
                    .map_or(section.at(), Sexp::at);
                return Err(r.duplicate(at, "action", &schema.name));
            }
            domain.actions.push(schema);
        }
    }
    domain.actions.extend(axioms);
    Ok(domain)
}

/// `(:functions (total-cost) - number (road-length ?a ?b - place) - number)`:
/// every function's type must be `number`; the type may be left out.
fn read_functions(r: &Reader<'_>, domain: &mut Domain, items: &[Sexp]) -> Result<(), PddlError> {
    let mut pending = 0;
    let mut i = 0;
    while i < items.len() {
        let item = &items[i];
        match item {
            Sexp::Symbol(dash, at) if dash == "-" => {
                let Some(ty) = items.get(i + 1) else {
                    return Err(r.syntax(*at, "expected `number` after `-`"));
                };
                if pending == 0 {
                    return Err(r.syntax(*at, "`-` with no function before it"));
                }
                match ty.symbol() {
                    Some("number") => {}
                    Some(other) => {
                        return Err(r.unsupported(
                            ty.at(),
                            format!("function type `{other}` (object fluents)"),
                        ));
                    }
                    None => return Err(r.syntax(ty.at(), "expected `number` after `-`")),
                }
                pending = 0;
                i += 2;
            }
            Sexp::Symbol(other, at) => {
                return Err(r.syntax(
                    *at,
                    format!("expected a function `(name ?x ...)`, found `{other}`"),
                ));
            }
            Sexp::List(parts, at) => {
                let Some(head) = parts.first() else {
                    return Err(r.syntax(*at, "empty function declaration"));
                };
                let name = r.symbol(head, "a function name")?;
                if domain.function_index.contains_key(name)
                    || domain.predicate_index.contains_key(name)
                {
                    return Err(r.duplicate(head.at(), "function", name));
                }
                let mut params = Vec::new();
                for (var, at, ty) in r.typed_list(&parts[1..])? {
                    if !var.starts_with('?') {
                        return Err(r.syntax(at, format!("expected a variable, found `{var}`")));
                    }
                    params.push(type_set(r, domain, ty)?);
                }
                let predicate = if name == TOTAL_COST {
                    if !params.is_empty() {
                        return Err(r.syntax(head.at(), "`total-cost` takes no arguments"));
                    }
                    None
                } else {
                    let index = u32::try_from(domain.predicates.len())
                        .map_err(|_| r.syntax(*at, "too many functions"))?;
                    // A space: no name read from a file has one.
                    domain.predicates.push(Predicate {
                        name: format!("= {name}"),
                        params: params.clone(),
                    });
                    Some(index)
                };
                let index = u32::try_from(domain.functions.len())
                    .map_err(|_| r.syntax(*at, "too many functions"))?;
                domain.function_index.insert(name.to_owned(), index);
                domain.functions.push(Function {
                    name: name.to_owned(),
                    params,
                    predicate,
                });
                pending += 1;
                i += 1;
            }
        }
    }
    Ok(())
}

/// `(name arg ...)` of a declared function: its index and arguments.
fn read_function_term(
    r: &Reader<'_>,
    domain: &Domain,
    scope: &Scope<'_>,
    s: &Sexp,
) -> Result<(u32, Vec<Term>), PddlError> {
    let names = &domain.function_index;
    read_application(r, scope, s, "function", names, |f| {
        domain.functions[f as usize].params.len()
    })
}

/// `(name arg ...)` where `name` is a declared `kind` (`predicate`,
/// `function`) in `names`, with as many arguments as `arity` says: its
/// index and arguments.
fn read_application(
    r: &Reader<'_>,
    scope: &Scope<'_>,
    s: &Sexp,
    kind: &'static str,
    names: &FxHashMap<String, u32>,
    arity: impl Fn(u32) -> usize,
) -> Result<(u32, Vec<Term>), PddlError> {
    let items = r.list(s, &format!("a `({kind} ...)`"))?;
    let Some(head) = items.first() else {
        return Err(r.syntax(s.at(), format!("empty {kind} `()`")));
    };
    let name = r.symbol(head, &format!("a {kind} name"))?;
    let Some(&index) = names.get(name) else {
        return Err(r.undefined(head.at(), kind, name));
    };
    let expected = arity(index);
    if items.len() - 1 != expected {
        return Err(PddlError::Arity {
            file: r.file.to_owned(),
            at: head.at(),
            name: name.to_owned(),
            expected,
            found: items.len() - 1,
        });
    }
    let args = items[1..]
        .iter()
        .map(|t| read_term(r, scope, t))
        .collect::<Result<_, _>>()?;
    Ok((index, args))
}

/// Whether `s` is `(total-cost)`.
fn is_total_cost(s: &Sexp) -> bool {
    s.list()
        .is_some_and(|items| items.len() == 1 && items[0].symbol() == Some(TOTAL_COST))
}

fn read_types(r: &Reader<'_>, domain: &mut Domain, items: &[Sexp]) -> Result<(), PddlError> {
    let declare = |domain: &mut Domain, name: &str| -> TypeId {
        if let Some(&t) = domain.type_index.get(name) {
            return t;
        }
        let t = domain.types.len();
        domain.types.push(name.to_owned());
        domain.parents.push(Vec::new());
        domain.type_index.insert(name.to_owned(), t);
        t
    };
    for (name, _, parent) in r.typed_list(items)? {
        let t = declare(domain, name);
        let parent = match parent {
            None => 0,
            Some(Sexp::Symbol(p, _)) => declare(domain, p),
            Some(other) => {
                return Err(r.syntax(other.at(), "a type's parent must be one type, not `either`"));
            }
        };
        if t != 0 && t != parent && !domain.parents[t].contains(&parent) {
            domain.parents[t].push(parent);
        }
    }
    Ok(())
}

/// `t` and every ancestor of `t` (cycles are tolerated).
fn ancestors(parents: &[Vec<TypeId>], t: TypeId) -> Vec<TypeId> {
    let mut seen = vec![t];
    let mut i = 0;
    while i < seen.len() {
        for &p in &parents[seen[i]] {
            if !seen.contains(&p) {
                seen.push(p);
            }
        }
        i += 1;
    }
    if !seen.contains(&0) {
        seen.push(0);
    }
    seen
}

/// The type set of a type expression: a name, `(either ...)`, or none
/// (`object`).
fn type_set(r: &Reader<'_>, domain: &Domain, ty: Option<&Sexp>) -> Result<TypeSet, PddlError> {
    let resolve = |s: &Sexp| -> Result<TypeId, PddlError> {
        let name = r.symbol(s, "a type name")?;
        domain
            .type_index
            .get(name)
            .copied()
            .ok_or_else(|| r.undefined(s.at(), "type", name))
    };
    match ty {
        None => Ok(vec![0]),
        Some(s @ Sexp::Symbol(..)) => Ok(vec![resolve(s)?]),
        Some(Sexp::List(items, at)) => {
            if items.first().and_then(Sexp::symbol) != Some("either") || items.len() < 2 {
                return Err(r.syntax(*at, "expected a type or `(either type ...)`"));
            }
            items[1..].iter().map(resolve).collect()
        }
    }
}

/// What names a term may refer to: a schema's parameters and the
/// variables of the quantifiers around the term (none in a problem's
/// goal, outside quantifiers), and the objects.
struct Scope<'a> {
    vars: Vec<(String, TypeSet)>,
    objects: &'a FxHashMap<String, u32>,
}

impl Scope<'_> {
    /// Reads a quantifier's `(?x ?y - t)` and brings its variables into
    /// scope (until [`Scope::leave`]); returns their types.
    fn enter(
        &mut self,
        r: &Reader<'_>,
        domain: &Domain,
        list: &Sexp,
    ) -> Result<Vec<TypeSet>, PddlError> {
        let mut types = Vec::new();
        let first = self.vars.len();
        for (var, at, ty) in r.typed_list(r.list(list, "a variable list `(?x - type)`")?)? {
            if !var.starts_with('?') {
                return Err(r.syntax(at, format!("expected a variable, found `{var}`")));
            }
            if self.vars[first..].iter().any(|(v, _)| v == var) {
                return Err(r.duplicate(at, "variable", var));
            }
            let set = type_set(r, domain, ty)?;
            self.vars.push((var.to_owned(), set.clone()));
            types.push(set);
        }
        Ok(types)
    }

    fn leave(&mut self, count: usize) {
        self.vars.truncate(self.vars.len() - count);
    }
}

fn read_term(r: &Reader<'_>, scope: &Scope<'_>, s: &Sexp) -> Result<Term, PddlError> {
    let name = r.symbol(s, "a variable or an object")?;
    if name.starts_with('?') {
        // The innermost variable of that name.
        scope
            .vars
            .iter()
            .rposition(|(v, _)| v == name)
            .map(|i| Term::Var(u32::try_from(i).unwrap_or(u32::MAX)))
            .ok_or_else(|| r.undefined(s.at(), "variable", name))
    } else {
        scope
            .objects
            .get(name)
            .map(|&o| Term::Obj(o))
            .ok_or_else(|| r.undefined(s.at(), "object", name))
    }
}

fn read_atom(
    r: &Reader<'_>,
    domain: &Domain,
    scope: &Scope<'_>,
    s: &Sexp,
) -> Result<AtomTerm, PddlError> {
    let names = &domain.predicate_index;
    let (predicate, args) = read_application(r, scope, s, "predicate", names, |p| {
        domain.predicates[p as usize].params.len()
    })?;
    Ok(AtomTerm { predicate, args })
}

/// Refuses a formula keyword outside the subset, naming it.
fn refuse_keyword(r: &Reader<'_>, head: &str, at: Location) -> Result<(), PddlError> {
    let construct = match head {
        "<" | "<=" | ">" | ">=" => format!("numeric comparison `{head}`"),
        "increase" | "decrease" | "assign" | "scale-up" | "scale-down" => {
            format!("numeric effect `{head}` (action costs, numeric fluents)")
        }
        "preference" => "preference".to_owned(),
        _ => return Ok(()),
    };
    Err(r.unsupported(at, construct))
}

/// A precondition or goal, read with the polarity `positive` (false under
/// an odd number of `not`s) into negation normal form.
fn read_formula(
    r: &Reader<'_>,
    domain: &Domain,
    scope: &mut Scope<'_>,
    s: &Sexp,
    positive: bool,
) -> Result<Formula, PddlError> {
    let items = r.list(s, "a condition `(...)`")?;
    let Some(head_sexp) = items.first() else {
        // `()`: no condition, true (and false under `not`).
        return Ok(if positive {
            Formula::And(Vec::new())
        } else {
            Formula::Or(Vec::new())
        });
    };
    let head = r.symbol(head_sexp, "a predicate or `and`, `or`, `not`, `=`")?;
    let junction = |conjunction: bool, parts: Vec<Formula>| {
        if conjunction {
            Formula::And(parts)
        } else {
            Formula::Or(parts)
        }
    };
    match head {
        "and" | "or" => {
            let parts = items[1..]
                .iter()
                .map(|item| read_formula(r, domain, scope, item, positive))
                .collect::<Result<_, _>>()?;
            Ok(junction((head == "and") == positive, parts))
        }
        "not" => {
            let [_, inner] = items else {
                return Err(r.syntax(s.at(), "`not` takes one condition"));
            };
            read_formula(r, domain, scope, inner, !positive)
        }
        "imply" => {
            // `a -> b` is `not a or b`; negated, `a and not b`.
            let [_, a, b] = items else {
                return Err(r.syntax(s.at(), "`imply` takes two conditions"));
            };
            let parts = vec![
                read_formula(r, domain, scope, a, !positive)?,
                read_formula(r, domain, scope, b, positive)?,
            ];
            Ok(junction(!positive, parts))
        }
        "exists" | "forall" => {
            let [_, list, body] = items else {
                return Err(r.syntax(s.at(), format!("expected `({head} (?x ...) condition)`")));
            };
            let vars = scope.enter(r, domain, list)?;
            let body = read_formula(r, domain, scope, body, positive);
            scope.leave(vars.len());
            Ok(Formula::Quantified {
                universal: (head == "forall") == positive,
                vars,
                body: Box::new(body?),
            })
        }
        "=" => {
            let (left, right) = read_equality(r, scope, s)?;
            Ok(Formula::Literal(Condition::Equal {
                positive,
                left,
                right,
            }))
        }
        _ => {
            refuse_keyword(r, head, head_sexp.at())?;
            if head == "when" {
                return Err(r.syntax(head_sexp.at(), "`when` outside an effect"));
            }
            Ok(Formula::Literal(Condition::Atom {
                positive,
                atom: read_atom(r, domain, scope, s)?,
            }))
        }
    }
}

/// A condition's literals at the top level, and the rest.
fn split_conjunction(formula: Formula) -> (Vec<Condition>, Vec<Formula>) {
    let mut literals = Vec::new();
    let mut rest = Vec::new();
    let mut stack = vec![formula];
    while let Some(f) = stack.pop() {
        match f {
            Formula::Literal(c) => literals.push(c),
            Formula::And(items) => stack.extend(items.into_iter().rev()),
            other => rest.push(other),
        }
    }
    (literals, rest)
}

fn read_equality(r: &Reader<'_>, scope: &Scope<'_>, s: &Sexp) -> Result<(Term, Term), PddlError> {
    match r.list(s, "`(= a b)`")? {
        [_, a, b] => Ok((read_term(r, scope, a)?, read_term(r, scope, b)?)),
        _ => Err(r.syntax(s.at(), "`=` takes two terms")),
    }
}

/// What an effect is read into: the action's unconditional effects and
/// its `forall`/`when` groups, and its cost.
#[derive(Default)]
struct Effects {
    effects: Vec<CondEffect>,
    cost: Option<CostTerm>,
}

/// An effect: atoms and negated atoms, in `and`, `forall` and `when`,
/// nested as PDDL allows; `group` collects the literals at this level
/// (index 0 of `out.effects` is the unconditional group).
fn read_effect(
    r: &Reader<'_>,
    domain: &Domain,
    scope: &mut Scope<'_>,
    s: &Sexp,
    group: usize,
    out: &mut Effects,
) -> Result<(), PddlError> {
    let items = r.list(s, "an effect `(...)`")?;
    let Some(head_sexp) = items.first() else {
        return Ok(());
    };
    let head = r.symbol(head_sexp, "a predicate or `and`, `not`, `forall`, `when`")?;
    match head {
        "and" => {
            for item in &items[1..] {
                read_effect(r, domain, scope, item, group, out)?;
            }
            Ok(())
        }
        "forall" => {
            let [_, list, body] = items else {
                return Err(r.syntax(s.at(), "expected `(forall (?x ...) effect)`"));
            };
            let vars = scope.enter(r, domain, list)?;
            let mut inner = CondEffect {
                condition: out.effects[group].condition.clone(),
                vars: out.effects[group].vars.clone(),
                ..CondEffect::default()
            };
            inner.vars.extend(vars.iter().cloned());
            out.effects.push(inner);
            let result = read_effect(r, domain, scope, body, out.effects.len() - 1, out);
            scope.leave(vars.len());
            result
        }
        "when" => {
            let [_, condition, body] = items else {
                return Err(r.syntax(s.at(), "expected `(when condition effect)`"));
            };
            let mut inner = CondEffect {
                condition: out.effects[group].condition.clone(),
                vars: out.effects[group].vars.clone(),
                ..CondEffect::default()
            };
            inner
                .condition
                .push(read_formula(r, domain, scope, condition, true)?);
            out.effects.push(inner);
            read_effect(r, domain, scope, body, out.effects.len() - 1, out)
        }
        "not" => {
            let [_, inner] = items else {
                return Err(r.syntax(s.at(), "`not` takes one atom"));
            };
            let inner_head = inner.head().unwrap_or("");
            refuse_keyword(r, inner_head, inner.at())?;
            if matches!(inner_head, "and" | "not" | "=" | "forall" | "when") {
                return Err(r.syntax(
                    inner.at(),
                    format!("`{inner_head}` inside a negated effect"),
                ));
            }
            let atom = read_atom(r, domain, scope, inner)?;
            refuse_derived(r, domain, &atom, inner.at())?;
            out.effects[group].del.push(atom);
            Ok(())
        }
        "=" => Err(r.syntax(head_sexp.at(), "`=` in an effect")),
        "increase" if items.get(1).is_some_and(is_total_cost) => {
            if group != 0 {
                return Err(r.unsupported(head_sexp.at(), "action cost inside `forall` or `when`"));
            }
            if out.cost.is_some() {
                return Err(r.syntax(
                    head_sexp.at(),
                    "a second `(increase (total-cost) ...)` in one action",
                ));
            }
            out.cost = Some(read_cost(r, domain, scope, s)?);
            Ok(())
        }
        _ => {
            refuse_keyword(r, head, head_sexp.at())?;
            if matches!(head, "or" | "imply" | "exists") {
                return Err(r.syntax(head_sexp.at(), format!("`{head}` in an effect")));
            }
            let atom = read_atom(r, domain, scope, s)?;
            refuse_derived(r, domain, &atom, s.at())?;
            out.effects[group].add.push(atom);
            Ok(())
        }
    }
}

/// Refuses an effect on a derived predicate: axioms alone decide those.
fn refuse_derived(
    r: &Reader<'_>,
    domain: &Domain,
    atom: &AtomTerm,
    at: Location,
) -> Result<(), PddlError> {
    if domain.derived.get(atom.predicate as usize) == Some(&true) {
        let name = &domain.predicates[atom.predicate as usize].name;
        return Err(r.syntax(
            at,
            format!("an action changes derived predicate `{name}`, which only axioms (`:derived`) may set"),
        ));
    }
    Ok(())
}

/// `(:derived (p ?x - t ...) body)`: a rule whose parameters are the
/// head's variables (distinct) and the body's free variables none else.
fn read_axiom(
    r: &Reader<'_>,
    domain: &Domain,
    constants: &FxHashMap<String, u32>,
    section: &Sexp,
) -> Result<Schema, PddlError> {
    let [_, head, body] = r.list(section, "`(:derived (p ?x ...) condition)`")? else {
        return Err(r.syntax(section.at(), "expected `(:derived (p ?x ...) condition)`"));
    };
    let parts = r.list(head, "a derived atom `(p ?x ...)`")?;
    let Some(name_sexp) = parts.first() else {
        return Err(r.syntax(head.at(), "empty derived atom"));
    };
    let name = r.symbol(name_sexp, "a predicate name")?;
    let Some(&predicate) = domain.predicate_index.get(name) else {
        return Err(r.undefined(name_sexp.at(), "predicate", name));
    };
    let mut params: Vec<(String, TypeSet)> = Vec::new();
    for (var, at, ty) in r.typed_list(&parts[1..])? {
        if !var.starts_with('?') {
            return Err(r.syntax(at, format!("expected a variable, found `{var}`")));
        }
        if params.iter().any(|(v, _)| v == var) {
            return Err(r.duplicate(at, "variable", var));
        }
        params.push((var.to_owned(), type_set(r, domain, ty)?));
    }
    let declared = domain.predicates[predicate as usize].params.len();
    if params.len() != declared {
        return Err(PddlError::Arity {
            file: r.file.to_owned(),
            at: name_sexp.at(),
            name: name.to_owned(),
            expected: declared,
            found: params.len(),
        });
    }
    let mut scope = Scope {
        vars: params.clone(),
        objects: constants,
    };
    let (pre, pre_formulas) = split_conjunction(read_formula(r, domain, &mut scope, body, true)?);
    let args = (0..params.len())
        .map(|v| Term::Var(u32::try_from(v).unwrap_or(u32::MAX)))
        .collect();
    Ok(Schema {
        name: name.to_owned(),
        params,
        pre,
        pre_formulas,
        add: vec![AtomTerm { predicate, args }],
        del: Vec::new(),
        effects: Vec::new(),
        cost: None,
        axiom: true,
    })
}

/// `(increase (total-cost) amount)`: the amount.
fn read_cost(
    r: &Reader<'_>,
    domain: &Domain,
    scope: &Scope<'_>,
    s: &Sexp,
) -> Result<CostTerm, PddlError> {
    let [_, target, amount] = r.list(s, "an effect")? else {
        return Err(r.syntax(s.at(), "expected `(increase (total-cost) amount)`"));
    };
    if !domain.function_index.contains_key(TOTAL_COST) {
        let at = target.list().map_or(target.at(), |l| l[0].at());
        return Err(r.undefined(at, "function", TOTAL_COST));
    }
    Ok(match amount {
        Sexp::Symbol(..) => CostTerm::Constant(r.number(amount, "cost")?),
        Sexp::List(..) => {
            let head = amount.head().unwrap_or("");
            if matches!(head, "+" | "-" | "*" | "/") {
                return Err(r.unsupported(
                    amount.at(),
                    format!("arithmetic `{head}` in an action's cost"),
                ));
            }
            let (function, args) = read_function_term(r, domain, scope, amount)?;
            if domain.functions[function as usize].predicate.is_none() {
                return Err(r.syntax(amount.at(), "`(total-cost)` cannot be an action's cost"));
            }
            CostTerm::Function { function, args }
        }
    })
}

fn read_action(
    r: &Reader<'_>,
    domain: &Domain,
    constants: &FxHashMap<String, u32>,
    section: &Sexp,
) -> Result<Schema, PddlError> {
    let items = r.list(section, "`(:action ...)`")?;
    let Some(name_sexp) = items.get(1) else {
        return Err(r.syntax(section.at(), "`:action` without a name"));
    };
    let name = r.symbol(name_sexp, "an action name")?;
    let mut params: Vec<(String, TypeSet)> = Vec::new();
    let mut precondition = None;
    let mut effect = None;
    let mut i = 2;
    while i < items.len() {
        let key = r.symbol(&items[i], "`:parameters`, `:precondition` or `:effect`")?;
        let Some(value) = items.get(i + 1) else {
            return Err(r.syntax(items[i].at(), format!("`{key}` without a value")));
        };
        match key {
            ":parameters" => {
                for (var, at, ty) in r.typed_list(r.list(value, "a parameter list")?)? {
                    if !var.starts_with('?') {
                        return Err(r.syntax(at, format!("expected a variable, found `{var}`")));
                    }
                    if params.iter().any(|(v, _)| v == var) {
                        return Err(r.duplicate(at, "variable", var));
                    }
                    params.push((var.to_owned(), type_set(r, domain, ty)?));
                }
            }
            ":precondition" => precondition = Some(value),
            ":effect" => effect = Some(value),
            ":duration" | ":condition" => {
                return Err(r.unsupported(items[i].at(), format!("durative action key `{key}`")));
            }
            other => {
                return Err(r.syntax(items[i].at(), format!("unknown action key `{other}`")));
            }
        }
        i += 2;
    }
    let mut scope = Scope {
        vars: params.clone(),
        objects: constants,
    };
    let (mut pre, pre_formulas) = match precondition {
        Some(p) => split_conjunction(read_formula(r, domain, &mut scope, p, true)?),
        None => (Vec::new(), Vec::new()),
    };
    let mut effects = Effects {
        effects: vec![CondEffect::default()],
        cost: None,
    };
    if let Some(e) = effect {
        read_effect(r, domain, &mut scope, e, 0, &mut effects)?;
    }
    if let Some(CostTerm::Function { function, args }) = &effects.cost {
        // Only the operators whose cost has a value exist (see `Function`).
        if let Some(predicate) = domain.functions[*function as usize].predicate {
            pre.push(Condition::Atom {
                positive: true,
                atom: AtomTerm {
                    predicate,
                    args: args.clone(),
                },
            });
        }
    }
    let mut groups = effects.effects.into_iter();
    let unconditional = groups.next().unwrap_or_default();
    Ok(Schema {
        name: name.to_owned(),
        params,
        pre,
        pre_formulas,
        add: unconditional.add,
        del: unconditional.del,
        effects: groups
            .filter(|g| !g.add.is_empty() || !g.del.is_empty())
            .collect(),
        cost: effects.cost,
        axiom: false,
    })
}

/// Reads a problem file's text against `domain`; `file` names it in errors.
///
/// # Errors
/// A located [`PddlError`] for malformed text, a domain name that is not
/// `domain`'s, an undefined or duplicate name, a wrong arity or type, a
/// function value that is not an integer from 0 to [`MAX_ACTION_COST`], or
/// a construct outside the subset (a `:metric` other than `minimize
/// (total-cost)`).
///
/// ```
/// use planners::pddl::{parse_domain, parse_problem, PddlError};
/// let domain = parse_domain("d.pddl", "(define (domain d) (:predicates (p ?x)))").unwrap();
/// let error = parse_problem(&domain, "p.pddl", "(define (problem q) (:domain d)\n (:objects a) (:init (p b)) (:goal (p a)))").unwrap_err();
/// assert_eq!(error.to_string(), "p.pddl:2:25: undefined object `b`");
/// ```
#[expect(clippy::too_many_lines, reason = "one match over the sections")]
pub fn parse_problem(domain: &Domain, file: &str, text: &str) -> Result<Problem, PddlError> {
    let r = Reader { file };
    let top = read(file, text)?;
    let (name, sections) = r.header(&top, "problem")?;
    let mut problem = Problem {
        name,
        objects: domain.constants.clone(),
        init: Vec::new(),
        goal: Vec::new(),
        goal_formulas: Vec::new(),
        metric: false,
        function_values: FxHashMap::default(),
    };
    let mut objects: FxHashMap<String, u32> = FxHashMap::default();
    for (i, (name, _)) in domain.constants.iter().enumerate() {
        objects.insert(name.clone(), u32::try_from(i).unwrap_or(u32::MAX));
    }
    // Objects first: `:init` and `:goal` refer to them.
    for section in sections {
        if section.head() == Some(":objects") {
            let items = section.list().and_then(|l| l.get(1..)).unwrap_or_default();
            for (name, at, ty) in r.typed_list(items)? {
                let types = type_set(&r, domain, ty)?;
                if let Some(&known) = objects.get(name) {
                    // A constant repeated as an object of the same type is
                    // harmless (Fast Downward accepts it).
                    let same_type = || {
                        let mut a = types.clone();
                        let mut b = problem.objects[known as usize].1.clone();
                        a.sort_unstable();
                        b.sort_unstable();
                        a == b
                    };
                    if (known as usize) < domain.constants.len() && (ty.is_none() || same_type()) {
                        continue;
                    }
                    return Err(r.duplicate(at, "object", name));
                }
                let index = u32::try_from(problem.objects.len())
                    .map_err(|_| r.syntax(at, "too many objects"))?;
                objects.insert(name.to_owned(), index);
                problem.objects.push((name.to_owned(), types));
            }
        }
    }
    let mut seen_goal = false;
    let mut seen_domain = false;
    for section in sections {
        let items = r.list(section, "a section such as `(:init ...)`")?;
        let Some(first) = items.first() else {
            return Err(r.syntax(section.at(), "empty section"));
        };
        let keyword = r.symbol(first, "a section keyword")?;
        let rest = &items[1..];
        match keyword {
            ":domain" => {
                let [d] = rest else {
                    return Err(r.syntax(first.at(), "expected `(:domain <name>)`"));
                };
                let d_name = r.symbol(d, "the domain's name")?;
                if d_name != domain.name {
                    return Err(r.syntax(
                        d.at(),
                        format!("problem is for domain `{d_name}`, not `{}`", domain.name),
                    ));
                }
                seen_domain = true;
            }
            ":requirements" => r.requirements(rest)?,
            ":objects" => {}
            ":init" => {
                let scope = Scope {
                    vars: Vec::new(),
                    objects: &objects,
                };
                for item in rest {
                    if item.head() == Some("=") {
                        read_function_value(&r, domain, &scope, &mut problem, item)?;
                        continue;
                    }
                    if item.head() == Some("at")
                        && item.list().is_some_and(|l| {
                            l.get(1)
                                .and_then(Sexp::symbol)
                                .is_some_and(|s| s.parse::<f64>().is_ok())
                        })
                    {
                        return Err(r.unsupported(item.at(), "timed initial literal"));
                    }
                    if item.head() == Some("not") {
                        continue; // closed world: false anyway
                    }
                    let atom = read_atom(&r, domain, &scope, item)?;
                    if domain.derived.get(atom.predicate as usize) == Some(&true) {
                        let name = &domain.predicates[atom.predicate as usize].name;
                        return Err(r.syntax(
                            item.at(),
                            format!("derived predicate `{name}` in `:init` (axioms compute it)"),
                        ));
                    }
                    check_types(&r, domain, &problem, &atom, item)?;
                    let args = atom
                        .args
                        .iter()
                        .map(|t| match t {
                            Term::Obj(o) => *o,
                            Term::Var(_) => u32::MAX,
                        })
                        .collect();
                    problem.init.push((atom.predicate, args));
                }
            }
            ":goal" => {
                let [g] = rest else {
                    return Err(r.syntax(first.at(), "expected `(:goal <condition>)`"));
                };
                let mut scope = Scope {
                    vars: Vec::new(),
                    objects: &objects,
                };
                let goal = read_formula(&r, domain, &mut scope, g, true)?;
                (problem.goal, problem.goal_formulas) = split_conjunction(goal);
                seen_goal = true;
            }
            ":metric" => match rest {
                [Sexp::Symbol(how, _), target] if how == "minimize" && is_total_cost(target) => {
                    if !domain.function_index.contains_key(TOTAL_COST) {
                        let at = target.list().map_or(target.at(), |l| l[0].at());
                        return Err(r.undefined(at, "function", TOTAL_COST));
                    }
                    problem.metric = true;
                }
                _ => {
                    return Err(r.unsupported(
                        first.at(),
                        "`:metric` other than `minimize (total-cost)` (numeric fluents)",
                    ));
                }
            },
            ":constraints" => {
                return Err(r.unsupported(first.at(), "constraints (`:constraints`)"));
            }
            other => {
                return Err(r.syntax(first.at(), format!("unknown problem section `{other}`")));
            }
        }
    }
    if !seen_domain {
        return Err(r.syntax(top.at(), "missing `(:domain <name>)`"));
    }
    if !seen_goal {
        return Err(r.syntax(top.at(), "missing `(:goal ...)`"));
    }
    Ok(problem)
}

/// `(= (function object ...) value)` in `:init`.
fn read_function_value(
    r: &Reader<'_>,
    domain: &Domain,
    scope: &Scope<'_>,
    problem: &mut Problem,
    item: &Sexp,
) -> Result<(), PddlError> {
    let [_, target, value] = r.list(item, "`(= (function ...) value)`")? else {
        return Err(r.syntax(item.at(), "expected `(= (function ...) value)`"));
    };
    let (function, args) = read_function_term(r, domain, scope, target)?;
    let value = r.number(value, "function value")?;
    let Some(predicate) = domain.functions[function as usize].predicate else {
        return Ok(()); // `total-cost`: plans are costed from 0
    };
    let args: Vec<u32> = args
        .iter()
        .map(|t| match t {
            Term::Obj(o) => *o,
            Term::Var(_) => u32::MAX,
        })
        .collect();
    if let Some(old) = problem
        .function_values
        .insert((function, args.clone()), value)
    {
        if old != value {
            let name = &domain.functions[function as usize].name;
            return Err(r.syntax(
                item.at(),
                format!("`{name}` is given two values for the same arguments ({old} and {value})"),
            ));
        }
    }
    problem.init.push((predicate, args));
    Ok(())
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

fn check_types(
    r: &Reader<'_>,
    domain: &Domain,
    problem: &Problem,
    atom: &AtomTerm,
    item: &Sexp,
) -> Result<(), PddlError> {
    let predicate = &domain.predicates[atom.predicate as usize];
    for (k, (term, wanted)) in atom.args.iter().zip(&predicate.params).enumerate() {
        if let Term::Obj(o) = term {
            let (object, types) = &problem.objects[*o as usize];
            if !fits(domain, types, wanted) {
                let at = item
                    .list()
                    .and_then(|l| l.get(k + 1))
                    .map_or(item.at(), Sexp::at);
                return Err(PddlError::WrongType {
                    file: r.file.to_owned(),
                    at,
                    name: predicate.name.clone(),
                    position: k + 1,
                    object: object.clone(),
                    expected: wanted
                        .iter()
                        .map(|&t| domain.types[t].as_str())
                        .collect::<Vec<_>>()
                        .join(" or "),
                });
            }
        }
    }
    Ok(())
}
