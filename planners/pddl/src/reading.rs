//! The reading context shared by the reader ([`crate::reader`]) and the
//! schema reader ([`crate::schema_reader`]): located errors, lists and
//! symbols, type expressions, variable scopes, terms and atoms.

use rustc_hash::FxHashMap;

use crate::sexp::Sexp;
use crate::syntax::{AtomTerm, Domain, Term, TypeId, TypeSet, MAX_ACTION_COST};
use crate::{Location, PddlError};

/// The requirements of PDDL 3.1: a domain or problem may declare any of
/// them. Those searchlab does not read (durative actions, timed initial
/// literals, preferences, constraints, object fluents) are refused where
/// a construct of theirs is used, not where they are declared: many IPC
/// files declare more than they use.
pub(crate) const REQUIREMENTS: [&str; 22] = [
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
    ":numeric-fluents",
    ":fluents",
    ":object-fluents",
    ":durative-actions",
    ":duration-inequalities",
    ":continuous-effects",
    ":timed-initial-literals",
    ":preferences",
    ":constraints",
    ":time",
];

/// The function every action's cost goes to (`:action-costs`).
pub(crate) const TOTAL_COST: &str = "total-cost";

/// A name of a typed list with its location and type expression.
pub(crate) type Typed<'s> = (&'s str, Location, Option<&'s Sexp>);

/// Reading context: the file's name for errors.
pub(crate) struct Reader<'f> {
    pub(crate) file: &'f str,
}

impl Reader<'_> {
    pub(crate) fn syntax(&self, at: Location, message: impl Into<String>) -> PddlError {
        PddlError::Syntax {
            file: self.file.to_owned(),
            at,
            message: message.into(),
        }
    }

    pub(crate) fn unsupported(&self, at: Location, construct: impl Into<String>) -> PddlError {
        PddlError::Unsupported {
            file: self.file.to_owned(),
            at,
            construct: construct.into(),
        }
    }

    pub(crate) fn undefined(&self, at: Location, kind: &'static str, name: &str) -> PddlError {
        PddlError::Undefined {
            file: self.file.to_owned(),
            at,
            kind,
            name: name.to_owned(),
        }
    }

    pub(crate) fn duplicate(&self, at: Location, kind: &'static str, name: &str) -> PddlError {
        PddlError::Duplicate {
            file: self.file.to_owned(),
            at,
            kind,
            name: name.to_owned(),
        }
    }

    /// A number for an action's cost or a function's value: an integer
    /// from 0 to [`MAX_ACTION_COST`] (`7.0` is 7).
    pub(crate) fn number(&self, sexp: &Sexp, what: &str) -> Result<u32, PddlError> {
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

    pub(crate) fn symbol<'s>(&self, sexp: &'s Sexp, what: &str) -> Result<&'s str, PddlError> {
        sexp.symbol()
            .ok_or_else(|| self.syntax(sexp.at(), format!("expected {what}, found a list")))
    }

    pub(crate) fn list<'s>(&self, sexp: &'s Sexp, what: &str) -> Result<&'s [Sexp], PddlError> {
        sexp.list().ok_or_else(|| {
            self.syntax(
                sexp.at(),
                format!("expected {what}, found `{}`", sexp.symbol().unwrap_or("")),
            )
        })
    }

    /// `(define (kind name) sections...)`: the name and the sections.
    pub(crate) fn header<'s>(
        &self,
        top: &'s Sexp,
        kind: &str,
    ) -> Result<(String, &'s [Sexp]), PddlError> {
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

    pub(crate) fn requirements(&self, items: &[Sexp]) -> Result<(), PddlError> {
        for item in items {
            let name = self.symbol(item, "a requirement")?;
            if !REQUIREMENTS.contains(&name) {
                return Err(self.syntax(item.at(), format!("unknown requirement `{name}`")));
            }
        }
        Ok(())
    }

    /// A typed list `a b - t c - (either t u) d`: names with their type
    /// expressions (`None`: untyped).
    pub(crate) fn typed_list<'s>(&self, items: &'s [Sexp]) -> Result<Vec<Typed<'s>>, PddlError> {
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

/// `(name arg ...)` of a declared function: its index and arguments.
pub(crate) fn read_function_term(
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
pub(crate) fn read_application(
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
pub(crate) fn is_total_cost(s: &Sexp) -> bool {
    s.list()
        .is_some_and(|items| items.len() == 1 && items[0].symbol() == Some(TOTAL_COST))
}

/// The type set of a type expression: a name, `(either ...)`, or none
/// (`object`).
pub(crate) fn type_set(
    r: &Reader<'_>,
    domain: &Domain,
    ty: Option<&Sexp>,
) -> Result<TypeSet, PddlError> {
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
pub(crate) struct Scope<'a> {
    pub(crate) vars: Vec<(String, TypeSet)>,
    pub(crate) objects: &'a FxHashMap<String, u32>,
}

impl Scope<'_> {
    /// Reads a quantifier's `(?x ?y - t)` and brings its variables into
    /// scope (until [`Scope::leave`]); returns their types.
    pub(crate) fn enter(
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

    pub(crate) fn leave(&mut self, count: usize) {
        self.vars.truncate(self.vars.len() - count);
    }
}

pub(crate) fn read_term(r: &Reader<'_>, scope: &Scope<'_>, s: &Sexp) -> Result<Term, PddlError> {
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

pub(crate) fn read_atom(
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
pub(crate) fn refuse_keyword(r: &Reader<'_>, head: &str, at: Location) -> Result<(), PddlError> {
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
