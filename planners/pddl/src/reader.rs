//! Domain and problem files: STRIPS with `:typing`,
//! `:negative-preconditions`, `:equality`, `:action-costs` and ADL
//! (`or`, `imply`, `not` over any formula, `exists`, `forall`, `when`).
//!
//! This module reads the files' sections, types and the problem;
//! [`crate::schema_reader`] reads formulas, effects and action schemas,
//! both with the context of [`crate::reading`].

use rustc_hash::{FxHashMap, FxHashSet};

use crate::numeric_reader::{parse_number, read_num_expr};
use crate::reading::{
    is_total_cost, read_atom, read_function_term, type_set, Reader, Scope, TOTAL_COST,
};
use crate::schema_reader::{read_action, read_axiom, read_formula, split_conjunction, Comparisons};
use crate::sexp::{read, Sexp};
use crate::syntax::{
    fits, Arith, AtomTerm, CostTerm, Domain, Function, NumExpr, Predicate, Problem, Term, TypeId,
};
use crate::PddlError;

/// Reads a domain file's text; `file` names it in errors.
///
/// # Errors
/// A located [`PddlError`] for malformed text, an undefined or duplicate
/// name, a wrong arity, an action cost that is not an integer from 0 to
/// [`MAX_ACTION_COST`](crate::MAX_ACTION_COST), an action that changes a
/// derived predicate, an unknown requirement, or a construct outside ADL
/// with `:action-costs`, `:derived-predicates` and numeric fluents
/// (durative actions, constraints, object fluents, ...). A requirement
/// of PDDL 3.1 is refused only where the domain uses it, not where it is
/// declared.
///
/// ```
/// use searchlab_pddl::{parse_domain, PddlError};
/// // Declared, not used: read.
/// let domain = parse_domain("d.pddl", "(define (domain d)
///   (:requirements :strips :durative-actions :timed-initial-literals))").unwrap();
/// assert_eq!(domain.name(), "d");
/// // Used: refused where it is used.
/// let error = parse_domain("d.pddl", "(define (domain d) (:requirements :durative-actions)
///   (:durative-action a :parameters () :duration (= ?duration 1)))").unwrap_err();
/// assert!(matches!(error, PddlError::Unsupported { .. }));
/// assert_eq!(error.to_string().split(" (").next().unwrap(),
///     "d.pddl:2:4: unsupported durative actions");
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
        numeric_declared: false,
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
            ":requirements" => {
                r.requirements(rest)?;
                domain.numeric_declared |= rest
                    .iter()
                    .any(|s| matches!(s.symbol(), Some(":numeric-fluents" | ":fluents")));
            }
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
                // A predicate of the same name is another thing: where a
                // name stands says which (IPC 2023's sugar declares both).
                if domain.function_index.contains_key(name) {
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

/// Reads a problem file's text against `domain`; `file` names it in errors.
///
/// # Errors
/// A located [`PddlError`] for malformed text, a domain name that is not
/// `domain`'s, an undefined or duplicate name, a wrong arity or type, a
/// function value that is not an integer from 0 to [`MAX_ACTION_COST`](crate::MAX_ACTION_COST), or
/// a construct outside the subset (a `:metric` other than `minimize
/// (total-cost)`).
///
/// ```
/// use searchlab_pddl::{parse_domain, parse_problem, PddlError};
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
        fluent_values: FxHashMap::default(),
        numeric_goal: Vec::new(),
        metric_expr: None,
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
                let comparisons = Comparisons {
                    top: Some(&mut problem.numeric_goal),
                    nested: true,
                    negatable: false,
                };
                let goal = read_formula(&r, domain, &mut scope, g, true, comparisons)?;
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
                [Sexp::Symbol(how, _), target] if how == "minimize" => {
                    let scope = Scope {
                        vars: Vec::new(),
                        objects: &objects,
                    };
                    problem.metric_expr = Some(read_metric(&r, domain, &scope, target)?);
                }
                _ => {
                    return Err(r.unsupported(
                        first.at(),
                        "`:metric` other than `minimize` of an expression",
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

/// A metric's expression, where `(total-time)`, unless the domain
/// declares it, is the plan's length (PDDL 2.1's time of a sequential
/// plan, as VAL counts it).
fn read_metric(
    r: &Reader<'_>,
    domain: &Domain,
    scope: &Scope<'_>,
    s: &Sexp,
) -> Result<NumExpr, PddlError> {
    let total_time = |s: &Sexp| {
        s.list()
            .is_some_and(|l| l.len() == 1 && l[0].symbol() == Some("total-time"))
            && !domain.function_index.contains_key("total-time")
    };
    if total_time(s) {
        return Ok(NumExpr::TotalTime);
    }
    match s.list() {
        Some([head, operands @ ..])
            if matches!(head.symbol(), Some("+" | "-" | "*")) && !operands.is_empty() =>
        {
            let op = match head.symbol() {
                Some("+") => Arith::Add,
                Some("-") => Arith::Sub,
                _ => Arith::Mul,
            };
            let mut parts = operands
                .iter()
                .map(|o| read_metric(r, domain, scope, o))
                .collect::<Result<Vec<_>, _>>()?
                .into_iter();
            let first = parts.next().unwrap_or(NumExpr::Number(0.0));
            let first = if operands.len() == 1 && op == Arith::Sub {
                NumExpr::Apply {
                    op,
                    left: Box::new(NumExpr::Number(0.0)),
                    right: Box::new(first),
                }
            } else {
                first
            };
            Ok(parts.fold(first, |left, right| NumExpr::Apply {
                op,
                left: Box::new(left),
                right: Box::new(right),
            }))
        }
        _ => read_num_expr(r, domain, scope, s),
    }
}

/// `(= (function object ...) value)` in `:init`. A function some
/// action's cost reads takes whole numbers that are valid costs; the
/// others any number.
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
    let Some(predicate) = domain.functions[function as usize].predicate else {
        r.number(value, "function value")?;
        return Ok(()); // `total-cost`: plans are costed from 0
    };
    let text = r.symbol(value, "a number")?;
    let number = parse_number(text)
        .ok_or_else(|| r.syntax(value.at(), format!("expected a number, found `{text}`")))?;
    let args: Vec<u32> = args
        .iter()
        .map(|t| match t {
            Term::Obj(o) => *o,
            Term::Var(_) => u32::MAX,
        })
        .collect();
    if let Some(old) = problem
        .fluent_values
        .insert((function, args.clone()), number)
    {
        if old.to_bits() != number.to_bits() {
            let name = &domain.functions[function as usize].name;
            return Err(r.syntax(
                item.at(),
                format!("`{name}` is given two values for the same arguments ({old} and {number})"),
            ));
        }
    }
    // A numeric task's costs may be decimals (its grounding scales them).
    if is_cost_function(domain, function) && !domain.is_numeric() {
        let cost = r.number(value, "function value")?;
        problem
            .function_values
            .insert((function, args.clone()), cost);
    }
    problem.init.push((predicate, args));
    Ok(())
}

/// Whether some action's cost is `function`'s value.
fn is_cost_function(domain: &Domain, function: u32) -> bool {
    domain
        .actions
        .iter()
        .any(|a| matches!(&a.cost, Some(CostTerm::Function { function: f, .. }) if *f == function))
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
