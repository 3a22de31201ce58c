//! Domain and problem files: the STRIPS subset with `:typing`,
//! `:negative-preconditions` and `:equality`.

use rustc_hash::{FxHashMap, FxHashSet};

use super::sexp::{read, Sexp};
use super::{Location, PddlError};

/// The requirements searchlab reads.
const SUPPORTED: [&str; 4] = [":strips", ":typing", ":negative-preconditions", ":equality"];

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

/// A predicate's declaration.
#[derive(Clone, Debug)]
pub(crate) struct Predicate {
    pub(crate) name: String,
    pub(crate) params: Vec<TypeSet>,
}

/// An action schema.
#[derive(Clone, Debug)]
pub(crate) struct Schema {
    pub(crate) name: String,
    pub(crate) params: Vec<(String, TypeSet)>,
    pub(crate) pre: Vec<Condition>,
    pub(crate) add: Vec<AtomTerm>,
    pub(crate) del: Vec<AtomTerm>,
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
    pub(crate) predicates: Vec<Predicate>,
    pub(crate) actions: Vec<Schema>,
    type_index: FxHashMap<String, TypeId>,
    predicate_index: FxHashMap<String, u32>,
}

impl Domain {
    /// The domain's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// How many action schemas it declares.
    pub fn action_count(&self) -> usize {
        self.actions.len()
    }

    /// How many predicates it declares.
    pub fn predicate_count(&self) -> usize {
        self.predicates.len()
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
    pub(crate) goal: Vec<Condition>,
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
/// name, a wrong arity, or a requirement or construct outside STRIPS with
/// `:typing`, `:negative-preconditions` and `:equality`.
///
/// ```
/// use planners::pddl::{parse_domain, PddlError};
/// let error = parse_domain("d.pddl", "(define (domain d)\n (:requirements :strips :conditional-effects))").unwrap_err();
/// assert!(matches!(error, PddlError::Unsupported { .. }));
/// assert_eq!(error.to_string().split(" (").next().unwrap(),
///     "d.pddl:2:25: unsupported requirement `:conditional-effects`");
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
        actions: Vec::new(),
        type_index: FxHashMap::default(),
        predicate_index: FxHashMap::default(),
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
            ":types" | ":action" => {} // read before and after
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
                    if name == "=" || domain.predicate_index.contains_key(name) {
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
            ":functions" => {
                return Err(r.unsupported(first.at(), "numeric fluents (`:functions`)"));
            }
            ":derived" => {
                return Err(r.unsupported(first.at(), "derived predicates (`:derived`)"));
            }
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
    Ok(domain)
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

/// What names a term may refer to: a schema's parameters (none in a
/// problem's goal) and the objects.
struct Scope<'a> {
    vars: &'a [(String, TypeSet)],
    objects: &'a FxHashMap<String, u32>,
}

fn read_term(r: &Reader<'_>, scope: &Scope<'_>, s: &Sexp) -> Result<Term, PddlError> {
    let name = r.symbol(s, "a variable or an object")?;
    if name.starts_with('?') {
        scope
            .vars
            .iter()
            .position(|(v, _)| v == name)
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
    let items = r.list(s, "an atom `(predicate ...)`")?;
    let Some(head) = items.first() else {
        return Err(r.syntax(s.at(), "empty atom `()`"));
    };
    let name = r.symbol(head, "a predicate name")?;
    let Some(&predicate) = domain.predicate_index.get(name) else {
        return Err(r.undefined(head.at(), "predicate", name));
    };
    let expected = domain.predicates[predicate as usize].params.len();
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
    Ok(AtomTerm { predicate, args })
}

/// Refuses a formula keyword outside the subset, naming it.
fn refuse_keyword(r: &Reader<'_>, head: &str, at: Location) -> Result<(), PddlError> {
    let construct = match head {
        "or" | "imply" => format!("disjunctive precondition `{head}`"),
        "forall" | "exists" => format!("quantifier `{head}`"),
        "when" => "conditional effect `when`".to_owned(),
        "<" | "<=" | ">" | ">=" => format!("numeric comparison `{head}`"),
        "increase" | "decrease" | "assign" | "scale-up" | "scale-down" => {
            format!("numeric effect `{head}` (action costs, numeric fluents)")
        }
        "preference" => "preference".to_owned(),
        _ => return Ok(()),
    };
    Err(r.unsupported(at, construct))
}

/// A precondition or goal: a conjunction of literals and (in)equalities.
fn read_condition(
    r: &Reader<'_>,
    domain: &Domain,
    scope: &Scope<'_>,
    s: &Sexp,
    out: &mut Vec<Condition>,
) -> Result<(), PddlError> {
    let items = r.list(s, "a condition `(...)`")?;
    let Some(head_sexp) = items.first() else {
        return Ok(()); // `()`: no condition
    };
    let head = r.symbol(head_sexp, "a predicate or `and`, `not`, `=`")?;
    match head {
        "and" => {
            for item in &items[1..] {
                read_condition(r, domain, scope, item, out)?;
            }
            Ok(())
        }
        "not" => {
            let [_, inner] = items else {
                return Err(r.syntax(s.at(), "`not` takes one condition"));
            };
            let inner_items = r.list(inner, "a condition `(...)`")?;
            let inner_head = inner_items.first().and_then(Sexp::symbol).unwrap_or("");
            if inner_head == "=" {
                let (left, right) = read_equality(r, scope, inner)?;
                out.push(Condition::Equal {
                    positive: false,
                    left,
                    right,
                });
                return Ok(());
            }
            if matches!(inner_head, "and" | "not") {
                return Err(r.unsupported(inner.at(), format!("negated `{inner_head}`")));
            }
            refuse_keyword(r, inner_head, inner.at())?;
            out.push(Condition::Atom {
                positive: false,
                atom: read_atom(r, domain, scope, inner)?,
            });
            Ok(())
        }
        "=" => {
            let (left, right) = read_equality(r, scope, s)?;
            out.push(Condition::Equal {
                positive: true,
                left,
                right,
            });
            Ok(())
        }
        _ => {
            refuse_keyword(r, head, head_sexp.at())?;
            out.push(Condition::Atom {
                positive: true,
                atom: read_atom(r, domain, scope, s)?,
            });
            Ok(())
        }
    }
}

fn read_equality(r: &Reader<'_>, scope: &Scope<'_>, s: &Sexp) -> Result<(Term, Term), PddlError> {
    match r.list(s, "`(= a b)`")? {
        [_, a, b] => Ok((read_term(r, scope, a)?, read_term(r, scope, b)?)),
        _ => Err(r.syntax(s.at(), "`=` takes two terms")),
    }
}

/// An effect: a conjunction of atoms and negated atoms.
fn read_effect(
    r: &Reader<'_>,
    domain: &Domain,
    scope: &Scope<'_>,
    s: &Sexp,
    schema: &mut Schema,
) -> Result<(), PddlError> {
    let items = r.list(s, "an effect `(...)`")?;
    let Some(head_sexp) = items.first() else {
        return Ok(());
    };
    let head = r.symbol(head_sexp, "a predicate or `and`, `not`")?;
    match head {
        "and" => {
            for item in &items[1..] {
                read_effect(r, domain, scope, item, schema)?;
            }
            Ok(())
        }
        "not" => {
            let [_, inner] = items else {
                return Err(r.syntax(s.at(), "`not` takes one atom"));
            };
            let inner_head = inner.head().unwrap_or("");
            refuse_keyword(r, inner_head, inner.at())?;
            if matches!(inner_head, "and" | "not" | "=") {
                return Err(r.syntax(
                    inner.at(),
                    format!("`{inner_head}` inside a negated effect"),
                ));
            }
            schema.del.push(read_atom(r, domain, scope, inner)?);
            Ok(())
        }
        "=" => Err(r.syntax(head_sexp.at(), "`=` in an effect")),
        _ => {
            refuse_keyword(r, head, head_sexp.at())?;
            schema.add.push(read_atom(r, domain, scope, s)?);
            Ok(())
        }
    }
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
    let mut schema = Schema {
        name: name.to_owned(),
        params: Vec::new(),
        pre: Vec::new(),
        add: Vec::new(),
        del: Vec::new(),
    };
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
                    if schema.params.iter().any(|(v, _)| v == var) {
                        return Err(r.duplicate(at, "variable", var));
                    }
                    schema
                        .params
                        .push((var.to_owned(), type_set(r, domain, ty)?));
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
    let scope = Scope {
        vars: &schema.params,
        objects: constants,
    };
    let mut pre = Vec::new();
    if let Some(p) = precondition {
        read_condition(r, domain, &scope, p, &mut pre)?;
    }
    let mut effects = Schema {
        name: String::new(),
        params: Vec::new(),
        pre: Vec::new(),
        add: Vec::new(),
        del: Vec::new(),
    };
    if let Some(e) = effect {
        read_effect(r, domain, &scope, e, &mut effects)?;
    }
    schema.pre = pre;
    schema.add = effects.add;
    schema.del = effects.del;
    Ok(schema)
}

/// Reads a problem file's text against `domain`; `file` names it in errors.
///
/// # Errors
/// A located [`PddlError`] for malformed text, a domain name that is not
/// `domain`'s, an undefined or duplicate name, a wrong arity or type, or a
/// construct outside the subset (numeric `:init` values, `:metric`).
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
                if objects.contains_key(name) {
                    // A constant repeated as an object is harmless.
                    if domain.constants.iter().any(|(c, _)| c == name) {
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
                    vars: &[],
                    objects: &objects,
                };
                for item in rest {
                    if item.head() == Some("=") {
                        return Err(
                            r.unsupported(item.at(), "numeric fluent value `(= ...)` in `:init`")
                        );
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
                let scope = Scope {
                    vars: &[],
                    objects: &objects,
                };
                read_condition(&r, domain, &scope, g, &mut problem.goal)?;
                seen_goal = true;
            }
            ":metric" => {
                return Err(r.unsupported(first.at(), "`:metric` (action costs, numeric fluents)"));
            }
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
