//! Grounding the numeric part of a task: each operator's comparisons and
//! numeric effects become linear conditions and effects over the changing
//! fluents, static fluents folded into constants; the metric's increases
//! become the operators' costs. Comparisons are left out of relaxed
//! reachability (an over-approximation), so an operator whose condition
//! folds to false, or that reads an undefined static value, is dropped
//! here.

use rustc_hash::FxHashMap;

use super::term_value;
use crate::adl::{EffectPart, Numbers, Truth, COMPARISONS};
use crate::numeric::{LinearCondition, LinearExpr, NumericEffect, NumericFluents, OperatorNumeric};
use crate::reading::TOTAL_COST;
use crate::syntax::{
    Arith, Assignment, CostTerm, Domain, NumCondition, NumEffect, NumExpr, Problem, Schema,
    MAX_ACTION_COST,
};
use crate::PddlError;

/// A ground fluent: function and objects.
type Key = (u32, Vec<u32>);

/// An operator's cost and numeric part, as grounding makes them.
type Grounded = (u32, Option<Box<OperatorNumeric>>);

/// Why an expression has no linear form.
enum Unfit {
    /// It reads an undefined value or divides by zero: the operator (or
    /// goal) can never apply.
    Undefined,
    /// A refusal, in words.
    Refused(String),
}

/// The numeric grounding of one task: which functions change, the metric's
/// weights, and the ground fluents met so far.
pub(super) struct NumericGrounding<'a> {
    domain: &'a Domain,
    problem: &'a Problem,
    /// Per function: whether some action changes it (the metric aside).
    changing: Vec<bool>,
    /// The metric's fluents and weights; `total-cost` with weight 1 for
    /// `minimize (total-cost)`.
    metric: FxHashMap<Key, f64>,
    /// The metric's weight of `(total-time)`, the plan's length: what each
    /// action adds to its cost.
    time_weight: f64,
    /// Per function: whether some action assigns it (`assign`,
    /// `scale-*`), which could define a fluent `:init` leaves undefined.
    assigned: Vec<bool>,
    index: FxHashMap<Key, u32>,
    keys: Vec<Key>,
    init: Vec<f64>,
    /// The comparisons met inside formulas, by their literal's fact number
    /// less [`COMPARISONS`].
    comparisons: Vec<LinearCondition>,
    /// The numeric effects met in `forall` and `when`, by their number
    /// in [`Variant::numeric`](crate::adl::Variant::numeric).
    conditional: Vec<NumericEffect>,
    /// Costs are multiplied by it to be whole numbers (a power of 10).
    scale: f64,
}

impl<'a> NumericGrounding<'a> {
    pub(super) fn new(domain: &'a Domain, problem: &'a Problem) -> Result<Self, PddlError> {
        let mut grounding = Self {
            domain,
            problem,
            changing: vec![false; domain.functions.len()],
            metric: FxHashMap::default(),
            time_weight: 0.0,
            assigned: vec![false; domain.functions.len()],
            index: FxHashMap::default(),
            keys: Vec::new(),
            init: Vec::new(),
            comparisons: Vec::new(),
            conditional: Vec::new(),
            scale: 1.0,
        };
        if let Some(&total) = domain.function_index.get(TOTAL_COST) {
            if problem.metric {
                grounding.metric.insert((total, Vec::new()), 1.0);
            }
        }
        if let Some(expr) = &problem.metric_expr {
            grounding.read_metric(expr)?;
        }
        for schema in domain.actions.iter().filter(|s| !s.axiom) {
            let conditional = schema.effects.iter().flat_map(|e| &e.numeric);
            for effect in schema.numeric_effects.iter().chain(conditional) {
                if !grounding.is_metric_function(effect.function) {
                    grounding.changing[effect.function as usize] = true;
                    grounding.assigned[effect.function as usize] |=
                        !matches!(effect.kind, Assignment::Increase | Assignment::Decrease);
                }
            }
        }
        grounding.scale = 10f64.powi(grounding.cost_decimals());
        Ok(grounding)
    }

    /// How many decimal places the task's costs may have (at most
    /// [`MAX_DECIMALS`]): those of the metric's weights times those of what
    /// the actions add to it, a product having the places of both factors.
    fn cost_decimals(&self) -> i32 {
        if !self.domain.is_numeric() {
            return 0;
        }
        let mut by_function = vec![0; self.domain.functions.len()];
        for ((function, _), &value) in &self.problem.fluent_values {
            let places = &mut by_function[*function as usize];
            *places = (*places).max(decimals(value));
        }
        let places = |e: &NumExpr| expr_decimals(e, &by_function);
        let mut most = decimals(self.time_weight);
        for schema in self.domain.actions.iter().filter(|s| !s.axiom) {
            if let Some(CostTerm::Function { function, .. }) = &schema.cost {
                most = most.max(by_function[*function as usize]);
            }
            for effect in schema
                .numeric_effects
                .iter()
                .filter(|e| self.is_metric_function(e.function))
            {
                let weight = self
                    .metric
                    .iter()
                    .filter(|((f, _), _)| *f == effect.function)
                    .map(|(_, &w)| decimals(w))
                    .max()
                    .unwrap_or(0);
                most = most.max(weight + places(&effect.value));
            }
        }
        most.min(MAX_DECIMALS)
    }

    /// What a cost of 1 stands for, as [`GroundTask::cost_scale`](crate::GroundTask::cost_scale) says.
    pub(super) fn cost_scale(&self) -> u32 {
        #[expect(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            reason = "10^MAX_DECIMALS at most"
        )]
        let scale = self.scale as u32;
        scale
    }

    /// Whether `function` is `total-cost` or a fluent of the metric: its
    /// increases are costs, not state.
    fn is_metric_function(&self, function: u32) -> bool {
        self.domain.functions[function as usize].name == TOTAL_COST
            || self.metric.keys().any(|(f, _)| *f == function)
    }

    /// `minimize expr`: a weighted sum of fluents, each weight positive.
    fn read_metric(&mut self, expr: &NumExpr) -> Result<(), PddlError> {
        let refuse = |message: String| PddlError::Numeric {
            context: "the metric".to_owned(),
            message,
        };
        let mut weights = Vec::new();
        collect_weighted(expr, 1.0, &mut weights).map_err(refuse)?;
        for (function, args, weight) in weights {
            if function == TIME {
                self.time_weight += weight;
                continue;
            }
            if weight < 0.0 {
                return Err(refuse(format!(
                    "`{}` has a negative weight (only `minimize` of fluents that actions increase is read)",
                    self.describe(&NumExpr::Fluent { function, args }, &[])
                )));
            }
            let args = args.iter().map(|&t| term_value(t, &[])).collect();
            *self.metric.entry((function, args)).or_insert(0.0) += weight;
        }
        Ok(())
    }

    /// The numeric part and cost of `schema` under `binding`, whose cost
    /// without it is `base`: `None` when a comparison is false or a value
    /// undefined (the operator never applies).
    pub(super) fn operator(
        &mut self,
        schema: &Schema,
        binding: &[u32],
        base: f64,
        name: impl Fn() -> String,
    ) -> Result<Option<Grounded>, PddlError> {
        let refuse = |message: String| PddlError::Numeric {
            context: format!("action `{}`", name()),
            message,
        };
        let mut parts = OperatorNumeric::default();
        for condition in &schema.numeric_pre {
            match self.condition(condition, binding) {
                Ok(Some(c)) => parts.conditions.push(c),
                Ok(None) => {}
                Err(Unfit::Undefined) => return Ok(None),
                Err(Unfit::Refused(m)) => return Err(refuse(m)),
            }
        }
        let metric_in_use = self.problem.metric || self.problem.metric_expr.is_some();
        let mut cost = LinearExpr::constant(if self.problem.metric_expr.is_some() {
            if schema.axiom {
                0.0
            } else {
                self.time_weight
            }
        } else {
            base
        });
        for effect in &schema.numeric_effects {
            if self.is_metric_function(effect.function) {
                let key = Self::key(effect, binding);
                let Some(&weight) = self.metric.get(&key) else {
                    continue; // `total-cost` without the metric, or a fluent outside it
                };
                if effect.kind != Assignment::Increase {
                    return Err(refuse(format!(
                        "the metric's fluent `{}` must only increase",
                        self.key_name(&key)
                    )));
                }
                match self.linear(&effect.value, binding) {
                    Ok(value) => cost = cost.add_scaled(&value, weight),
                    Err(Unfit::Undefined) => return Ok(None),
                    Err(Unfit::Refused(m)) => return Err(refuse(m)),
                }
                continue;
            }
            match self.effect(effect, binding) {
                Ok(e) => parts.effects.push(e),
                Err(Unfit::Undefined) => return Ok(None),
                Err(Unfit::Refused(m)) => return Err(refuse(m)),
            }
        }
        let cost = cost.scaled(self.scale);
        let cost = if !metric_in_use {
            whole_cost(base, 1.0).map_err(refuse)?
        } else if cost.is_constant() {
            whole_cost(cost.constant, self.scale).map_err(refuse)?
        } else {
            parts.cost = Some(cost);
            0
        };
        let empty = parts.conditions.is_empty() && parts.effects.is_empty() && parts.cost.is_none();
        Ok(Some((cost, (!empty).then(|| Box::new(parts)))))
    }

    /// The ground fluent an effect changes.
    fn key(effect: &NumEffect, binding: &[u32]) -> Key {
        let args = effect.args.iter().map(|&t| term_value(t, binding));
        (effect.function, args.collect())
    }

    /// A numeric effect on a changing fluent under `binding`, linear.
    fn effect(&mut self, effect: &NumEffect, binding: &[u32]) -> Result<NumericEffect, Unfit> {
        let key = Self::key(effect, binding);
        let value = self.linear(&effect.value, binding)?;
        let fluent = self.fluent(&key)?;
        let target = LinearExpr::fluent(fluent);
        Ok(match effect.kind {
            Assignment::Assign => NumericEffect::Assign { fluent, value },
            Assignment::Increase => NumericEffect::Increase { fluent, by: value },
            Assignment::Decrease => NumericEffect::Increase {
                fluent,
                by: value.scaled(-1.0),
            },
            Assignment::ScaleUp | Assignment::ScaleDown => {
                if !value.is_constant() {
                    return Err(Unfit::Refused(
                        "scales a fluent by a changing fluent (not linear)".to_owned(),
                    ));
                }
                let factor = match (effect.kind, value.constant) {
                    (Assignment::ScaleUp, c) => c,
                    (_, 0.0) => return Err(Unfit::Undefined),
                    (_, c) => 1.0 / c,
                };
                NumericEffect::Assign {
                    fluent,
                    value: target.scaled(factor),
                }
            }
        })
    }

    /// `parts` with the comparisons among `literals` added to its
    /// conditions (a negated one with its operator flipped).
    pub(super) fn with_comparisons(
        &self,
        parts: Option<Box<OperatorNumeric>>,
        literals: &[u32],
    ) -> Option<Box<OperatorNumeric>> {
        let mut found = literals
            .iter()
            .filter_map(|&l| self.comparison_of(l))
            .peekable();
        if found.peek().is_none() {
            return parts;
        }
        let mut parts = parts.unwrap_or_default();
        for c in found {
            if !parts.conditions.contains(&c) {
                parts.conditions.push(c);
            }
        }
        Some(parts)
    }

    /// The comparison a literal stands for, if it stands for one. A `when`
    /// condition's literals may be negated; the reader splits its `=`
    /// into `<=` and `>=`, so every negation is one comparison.
    pub(super) fn comparison_of(&self, literal: u32) -> Option<LinearCondition> {
        let k = (literal >> 1).checked_sub(COMPARISONS)?;
        let c = self.comparisons.get(k as usize)?;
        if literal & 1 == 0 {
            return Some(c.clone());
        }
        let op = c.op.negated();
        debug_assert!(op.is_some(), "a negated `=` reached grounding");
        Some(LinearCondition {
            op: op?,
            expr: c.expr.clone(),
        })
    }

    /// `parts` with the conditional effects numbered in `numbers` added,
    /// and increases of one fluent summed (PDDL 2.1's effects are
    /// simultaneous and increases commute). Two effects on one fluent of
    /// which one assigns are refused, naming the fluent.
    pub(super) fn with_effects(
        &self,
        parts: Option<Box<OperatorNumeric>>,
        numbers: &[u32],
    ) -> Result<Option<Box<OperatorNumeric>>, String> {
        let Some(mut parts) = parts.or_else(|| (!numbers.is_empty()).then(Box::default)) else {
            return Ok(None);
        };
        let conditional = numbers
            .iter()
            .filter_map(|&k| self.conditional.get(k as usize));
        let mut effects: Vec<NumericEffect> = Vec::with_capacity(parts.effects.len());
        for e in std::mem::take(&mut parts.effects)
            .into_iter()
            .chain(conditional.cloned())
        {
            let same = effects.iter_mut().find(|old| old.fluent() == e.fluent());
            match (same, e) {
                (None, e) => effects.push(e),
                (
                    Some(NumericEffect::Increase { by: old, .. }),
                    NumericEffect::Increase { by, .. },
                ) => *old = old.add_scaled(&by, 1.0),
                (Some(old), _) => {
                    return Err(format!(
                        "changes `{}` twice in one step (only increases may share a fluent)",
                        self.key_name(&self.keys[old.fluent() as usize])
                    ))
                }
            }
        }
        parts.effects = effects;
        Ok(Some(parts))
    }

    /// The goal's numeric conditions: `None` when one can never hold.
    pub(super) fn goal(&mut self) -> Result<Option<Vec<LinearCondition>>, PddlError> {
        let mut out = Vec::new();
        for condition in &self.problem.numeric_goal {
            match self.condition(condition, &[]) {
                Ok(Some(c)) => out.push(c),
                Ok(None) => {}
                Err(Unfit::Undefined) => return Ok(None),
                Err(Unfit::Refused(message)) => {
                    return Err(PddlError::Numeric {
                        context: "the goal".to_owned(),
                        message,
                    })
                }
            }
        }
        Ok(Some(out))
    }

    /// A comparison as a linear condition; `None` when it folds to true,
    /// [`Unfit::Undefined`] when it folds to false.
    fn condition(
        &mut self,
        condition: &NumCondition,
        binding: &[u32],
    ) -> Result<Option<LinearCondition>, Unfit> {
        let left = self.linear(&condition.left, binding)?;
        let right = self.linear(&condition.right, binding)?;
        let expr = left.add_scaled(&right, -1.0);
        if expr.is_constant() {
            return if condition.op.holds(expr.constant, 0.0) {
                Ok(None)
            } else {
                Err(Unfit::Undefined)
            };
        }
        Ok(Some(LinearCondition {
            expr,
            op: condition.op,
        }))
    }

    /// `expr` under `binding` as a linear expression over changing fluents.
    fn linear(&mut self, expr: &NumExpr, binding: &[u32]) -> Result<LinearExpr, Unfit> {
        match expr {
            NumExpr::Number(c) => Ok(LinearExpr::constant(*c)),
            NumExpr::TotalTime => Err(Unfit::Refused(
                "`(total-time)` outside the metric".to_owned(),
            )),
            NumExpr::Fluent { function, args } => {
                let key: Key = (
                    *function,
                    args.iter().map(|&t| term_value(t, binding)).collect(),
                );
                if self.is_metric_function(*function) {
                    return Err(Unfit::Refused(format!(
                        "reads `{}`, the metric (or `total-cost`), which only actions' costs may change",
                        self.key_name(&key)
                    )));
                }
                if self.changing[*function as usize] {
                    return self.fluent(&key).map(LinearExpr::fluent);
                }
                self.problem
                    .fluent_values
                    .get(&key)
                    .map(|&v| LinearExpr::constant(v))
                    .ok_or(Unfit::Undefined)
            }
            NumExpr::Apply { op, left, right } => {
                let l = self.linear(left, binding)?;
                let r = self.linear(right, binding)?;
                match op {
                    Arith::Add => Ok(l.add_scaled(&r, 1.0)),
                    Arith::Sub => Ok(l.add_scaled(&r, -1.0)),
                    Arith::Mul if l.is_constant() => Ok(r.scaled(l.constant)),
                    Arith::Mul if r.is_constant() => Ok(l.scaled(r.constant)),
                    Arith::Div if r.is_constant() && r.constant == 0.0 => Err(Unfit::Undefined),
                    Arith::Div if r.is_constant() => Ok(l.scaled(1.0 / r.constant)),
                    Arith::Mul | Arith::Div => Err(Unfit::Refused(format!(
                        "`{}` {} changing fluents (not linear)",
                        self.describe(expr, binding),
                        if *op == Arith::Mul {
                            "multiplies"
                        } else {
                            "divides by"
                        },
                    ))),
                }
            }
        }
    }

    /// The index of a changing ground fluent, numbered as first met; an
    /// error if `:init` gives it no value.
    fn fluent(&mut self, key: &Key) -> Result<u32, Unfit> {
        if let Some(&i) = self.index.get(key) {
            return Ok(i);
        }
        let Some(&value) = self.problem.fluent_values.get(key) else {
            if !self.assigned[key.0 as usize] {
                // Undefined for good: whatever reads or changes it never applies.
                return Err(Unfit::Undefined);
            }
            return Err(Unfit::Refused(format!(
                "fluent `{}` has no value in `:init` (an action may assign it later; searchlab needs every changing fluent defined at the start)",
                self.key_name(key)
            )));
        };
        let i = u32::try_from(self.keys.len()).unwrap_or(u32::MAX);
        self.index.insert(key.clone(), i);
        self.keys.push(key.clone());
        self.init.push(value);
        Ok(i)
    }

    fn key_name(&self, (function, args): &Key) -> String {
        let mut name = format!("({}", self.domain.functions[*function as usize].name);
        for &o in args {
            name.push(' ');
            name.push_str(&self.problem.objects[o as usize].0);
        }
        name.push(')');
        name
    }

    /// `expr` in PDDL, its variables bound.
    fn describe(&self, expr: &NumExpr, binding: &[u32]) -> String {
        match expr {
            NumExpr::Number(c) => format!("{c}"),
            NumExpr::TotalTime => "(total-time)".to_owned(),
            NumExpr::Fluent { function, args } => self.key_name(&(
                *function,
                args.iter().map(|&t| term_value(t, binding)).collect(),
            )),
            NumExpr::Apply { op, left, right } => {
                let symbol = match op {
                    Arith::Add => "+",
                    Arith::Sub => "-",
                    Arith::Mul => "*",
                    Arith::Div => "/",
                };
                format!(
                    "({symbol} {} {})",
                    self.describe(left, binding),
                    self.describe(right, binding)
                )
            }
        }
    }

    /// The fluents as the task keeps them: those met at the indices
    /// `kept`, numbered in that order; their names and initial values.
    pub(super) fn fluents(
        &self,
        kept: &[usize],
        goal: Vec<LinearCondition>,
        goal_clauses: Vec<Vec<LinearCondition>>,
    ) -> NumericFluents {
        let mut fluents = NumericFluents {
            goal,
            goal_clauses,
            ..NumericFluents::default()
        };
        for &i in kept {
            fluents.names.push(self.name(i));
            fluents.init.push(self.init[i]);
        }
        fluents
    }

    /// The name of the changing fluent met at index `i`.
    pub(super) fn name(&self, i: usize) -> String {
        self.key_name(&self.keys[i])
    }

    /// How many changing ground fluents were met.
    pub(super) fn len(&self) -> usize {
        self.keys.len()
    }
}

impl Numbers for NumericGrounding<'_> {
    /// A comparison inside a formula, grounded: decided, or a literal that
    /// [`with_comparisons`](NumericGrounding::with_comparisons) maps back.
    fn comparison(
        &mut self,
        condition: &NumCondition,
        binding: &[u32],
    ) -> Result<Truth, PddlError> {
        match self.condition(condition, binding) {
            Ok(None) => Ok(Truth::Known(true)),
            Err(Unfit::Undefined) => Ok(Truth::Known(false)),
            Ok(Some(c)) => {
                let k = u32::try_from(self.comparisons.len()).unwrap_or(u32::MAX);
                self.comparisons.push(c);
                Ok(Truth::Comparison(COMPARISONS.saturating_add(k)))
            }
            Err(Unfit::Refused(message)) => Err(PddlError::Numeric {
                context: "a condition".to_owned(),
                message,
            }),
        }
    }

    fn effect(&mut self, effect: &NumEffect, binding: &[u32]) -> Result<EffectPart, PddlError> {
        let refuse = |message: String| PddlError::Numeric {
            context: "a conditional effect".to_owned(),
            message,
        };
        if self.is_metric_function(effect.function) {
            let key = Self::key(effect, binding);
            if !self.metric.contains_key(&key) {
                return Ok(EffectPart::Nothing); // outside the metric
            }
            return Err(refuse(format!(
                "changes the metric's fluent `{}` under a condition (searchlab's costs are the operators')",
                self.key_name(&key)
            )));
        }
        match NumericGrounding::effect(self, effect, binding) {
            Ok(e) => {
                let k = u32::try_from(self.conditional.len())
                    .map_err(|_| refuse("more than 2^32 conditional numeric effects".to_owned()))?;
                self.conditional.push(e);
                Ok(EffectPart::Effect(k))
            }
            Err(Unfit::Undefined) => Ok(EffectPart::Undefined),
            Err(Unfit::Refused(message)) => Err(refuse(message)),
        }
    }
}

/// `(total-time)`'s place among the functions, in a metric's weights.
const TIME: u32 = u32::MAX;

/// The fluents of a metric `expr` with their weights: a sum of weighted
/// fluents (constants ignored: they do not change which plan is best),
/// `(total-time)` as function [`TIME`].
fn collect_weighted(
    expr: &NumExpr,
    weight: f64,
    out: &mut Vec<(u32, Vec<crate::syntax::Term>, f64)>,
) -> Result<(), String> {
    match expr {
        NumExpr::Number(_) => Ok(()),
        NumExpr::TotalTime => {
            out.push((TIME, Vec::new(), weight));
            Ok(())
        }
        NumExpr::Fluent { function, args } => {
            out.push((*function, args.clone(), weight));
            Ok(())
        }
        NumExpr::Apply { op, left, right } => match (op, &**left, &**right) {
            (Arith::Add, l, r) => {
                collect_weighted(l, weight, out)?;
                collect_weighted(r, weight, out)
            }
            (Arith::Sub, l, r) => {
                collect_weighted(l, weight, out)?;
                collect_weighted(r, -weight, out)
            }
            (Arith::Mul, NumExpr::Number(c), e) | (Arith::Mul, e, NumExpr::Number(c)) => {
                collect_weighted(e, weight * c, out)
            }
            _ => Err("only a weighted sum of fluents is read as a metric".to_owned()),
        },
    }
}

/// The most decimal places a cost keeps (a cost scale of a million).
const MAX_DECIMALS: i32 = 6;

/// How many decimal places `v` has (up to 9).
fn decimals(v: f64) -> i32 {
    (0..9)
        .find(|&k| {
            let scaled = v * 10f64.powi(k);
            (scaled - scaled.round()).abs() <= 1e-9 * scaled.abs().max(1.0)
        })
        .unwrap_or(9)
}

/// The decimal places of `e`'s value: those of its numbers and of the
/// values its functions take (`places`, per function), added over products
/// (a quotient may have any: [`MAX_DECIMALS`]).
fn expr_decimals(e: &NumExpr, places: &[i32]) -> i32 {
    match e {
        NumExpr::Number(c) => decimals(*c),
        NumExpr::TotalTime => 0,
        NumExpr::Fluent { function, .. } => places[*function as usize],
        NumExpr::Apply { op, left, right } => {
            let (l, r) = (expr_decimals(left, places), expr_decimals(right, places));
            match op {
                Arith::Add | Arith::Sub => l.max(r),
                Arith::Mul => l + r,
                Arith::Div => MAX_DECIMALS,
            }
        }
    }
}

/// A cost, already multiplied by `scale`, as a whole number from 0 to
/// [`MAX_ACTION_COST`].
fn whole_cost(cost: f64, scale: f64) -> Result<u32, String> {
    let rounded = cost.round();
    let shown = cost / scale;
    if (cost - rounded).abs() > 1e-9 * cost.abs().max(1.0) {
        // Only numeric domains scale their costs.
        return Err(if scale <= 1.0 {
            format!("costs {shown}: without numeric fluents action costs are whole numbers (`:action-costs`)")
        } else {
            format!("costs {shown}, more decimal places than searchlab keeps ({MAX_DECIMALS})")
        });
    }
    if rounded < 0.0 {
        return Err(format!("costs {shown}: costs are 0 or more"));
    }
    if rounded > f64::from(MAX_ACTION_COST) {
        return Err(format!(
            "costs {shown}, more than {} (at {} decimal places)",
            f64::from(MAX_ACTION_COST) / scale,
            scale.log10()
        ));
    }
    #[expect(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "a whole number from 0 to MAX_ACTION_COST, checked above"
    )]
    Ok(rounded as u32)
}
