//! Ready-made problems: the hitman reference scenario and two generated
//! families, used by the tests, the benches and the default suite.
//!
//! Each is first a [`Spec`], plain data that another planner can read too
//! (the benches hand the same specs to `dogoap`), then built into a
//! [`Problem`]. The generators are deterministic and take a size parameter.

use crate::{Action, Domain, FactoredError, Goal, Op, Predicate, Schema, State, Value};

/// A problem: a domain, a start state and a goal.
#[derive(Clone, Debug)]
pub struct Problem {
    /// A short name, e.g. `economy-1`.
    pub name: String,
    /// The variables and actions.
    pub domain: Domain,
    /// The start state.
    pub start: State,
    /// The goal.
    pub goal: Goal,
}

/// A condition of a [`Spec`]: variable, operator, constant.
pub type SpecCondition = (String, Op, Value);

/// An effect of a [`Spec`].
#[derive(Clone, Debug, PartialEq)]
pub enum SpecEffect {
    /// `var := value`.
    Set(Value),
    /// `var += value`.
    Add(Value),
    /// `var -= value`.
    Sub(Value),
}

/// An action of a [`Spec`].
#[derive(Clone, Debug, PartialEq)]
pub struct SpecAction {
    /// The name.
    pub name: String,
    /// The cost.
    pub cost: u32,
    /// The preconditions.
    pub pre: Vec<SpecCondition>,
    /// The effects, in order.
    pub effects: Vec<(String, SpecEffect)>,
}

/// A problem as plain data: variables with their start values (the value's
/// type is the variable's), actions, and a goal.
///
/// ```
/// let spec = state_factored::problems::chains_spec(1);
/// let problem = spec.build().unwrap();
/// assert_eq!(problem.domain.actions().len(), spec.actions.len());
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Spec {
    /// A short name.
    pub name: String,
    /// Each variable's name and start value.
    pub vars: Vec<(String, Value)>,
    /// The actions.
    pub actions: Vec<SpecAction>,
    /// The goal, a conjunction.
    pub goal: Vec<SpecCondition>,
}

impl Spec {
    /// The problem.
    ///
    /// # Errors
    /// Any [`FactoredError`] of the schema, actions, start or goal.
    ///
    /// ```
    /// let p = state_factored::problems::hitman_spec().build().unwrap();
    /// assert_eq!(p.name, "hitman");
    /// ```
    pub fn build(&self) -> Result<Problem, FactoredError> {
        let mut schema = Schema::new();
        for (name, value) in &self.vars {
            schema.add(name, value.var_type())?;
        }
        let mut domain = Domain::new(schema);
        for a in &self.actions {
            let mut action = Action::builder(&a.name).cost(a.cost);
            for (var, op, value) in &a.pre {
                action = action.pre(Predicate::compare(var, *op, value.clone()));
            }
            for (var, effect) in &a.effects {
                action = match effect {
                    SpecEffect::Set(v) => action.set(var, v.clone()),
                    SpecEffect::Add(v) => action.increase(var, v.clone()),
                    SpecEffect::Sub(v) => action.decrease(var, v.clone()),
                };
            }
            domain.add_action(action)?;
        }
        let mut start = domain.schema().state();
        for (name, value) in &self.vars {
            start = start.set(name, value.clone());
        }
        let start = start.build()?;
        let goal = domain.goal(
            self.goal
                .iter()
                .map(|(var, op, value)| Predicate::compare(var, *op, value.clone())),
        )?;
        Ok(Problem {
            name: self.name.clone(),
            domain,
            start,
            goal,
        })
    }
}

fn cond(var: &str, op: Op, value: impl Into<Value>) -> SpecCondition {
    (var.to_owned(), op, value.into())
}

fn action(
    name: &str,
    cost: u32,
    pre: Vec<SpecCondition>,
    effects: Vec<(&str, SpecEffect)>,
) -> SpecAction {
    SpecAction {
        name: name.to_owned(),
        cost,
        pre,
        effects: effects
            .into_iter()
            .map(|(v, e)| (v.to_owned(), e))
            .collect(),
    }
}

/// The hitman (reference scenario 4 of DESIGN.md) as a [`Spec`].
///
/// ```
/// assert_eq!(state_factored::problems::hitman_spec().actions.len(), 6);
/// ```
pub fn hitman_spec() -> Spec {
    let mut actions: Vec<SpecAction> = [
        ("walk_to_shop", "shop", 2),
        ("walk_to_mine", "mine", 2),
        ("walk_to_target", "target", 3),
    ]
    .into_iter()
    .map(|(name, place, cost)| {
        action(
            name,
            cost,
            vec![cond("location", Op::Ne, place)],
            vec![("location", SpecEffect::Set(place.into()))],
        )
    })
    .collect();
    actions.push(action(
        "mine_gold",
        3,
        vec![cond("location", Op::Eq, "mine")],
        vec![("gold", SpecEffect::Add(25.into()))],
    ));
    actions.push(action(
        "buy_weapon",
        1,
        vec![
            cond("location", Op::Eq, "shop"),
            cond("gold", Op::Ge, 60),
            cond("has_weapon", Op::Eq, false),
        ],
        vec![
            ("has_weapon", SpecEffect::Set(true.into())),
            ("gold", SpecEffect::Sub(60.into())),
        ],
    ));
    actions.push(action(
        "attack",
        1,
        vec![
            cond("location", Op::Eq, "target"),
            cond("has_weapon", Op::Eq, true),
        ],
        vec![
            ("target_alive", SpecEffect::Set(false.into())),
            ("noise", SpecEffect::Add(0.5.into())),
        ],
    ));
    Spec {
        name: "hitman".into(),
        vars: vec![
            ("gold".into(), 20.into()),
            ("location".into(), "home".into()),
            ("has_weapon".into(), false.into()),
            ("target_alive".into(), true.into()),
            ("noise".into(), 0.0.into()),
        ],
        actions,
        goal: vec![
            cond("target_alive", Op::Eq, false),
            cond("noise", Op::Le, 0.5),
        ],
    }
}

/// The hitman (reference scenario 4 of DESIGN.md): gold 20, location "home",
/// no weapon, target alive, noise 0.0; optimal cost 15 (mine twice, buy the
/// weapon, walk to the target, attack).
///
/// # Errors
/// None in practice; the domain is fixed and valid.
///
/// ```
/// use search_core::dijkstra;
/// let p = state_factored::problems::hitman().unwrap();
/// let space = p.domain.forward(&p.goal);
/// let result = dijkstra(&space, p.start.clone()).unwrap();
/// assert_eq!(result.outcome.solution().unwrap().cost, 15);
/// ```
pub fn hitman() -> Result<Problem, FactoredError> {
    hitman_spec().build()
}

/// The settlers' economy as a [`Spec`]; see [`economy`].
///
/// ```
/// assert_eq!(state_factored::problems::economy_spec(1).actions.len(), 30);
/// ```
pub fn economy_spec(size: u32) -> Spec {
    let actions = ECONOMY
        .iter()
        .map(|(name, cost, pre, effects)| SpecAction {
            name: (*name).to_owned(),
            cost: *cost,
            pre: pre
                .iter()
                .map(|&(var, need)| match need {
                    Need::AtLeast(n) => cond(var, Op::Ge, n),
                    Need::Is(b) => cond(var, Op::Eq, b),
                })
                .collect(),
            effects: effects
                .iter()
                .map(|&(var, change)| {
                    let effect = match change {
                        Change::Add(n) if n < 0 => SpecEffect::Sub((-n).into()),
                        Change::Add(n) => SpecEffect::Add(n.into()),
                        Change::Set(b) => SpecEffect::Set(b.into()),
                    };
                    (var.to_owned(), effect)
                })
                .collect(),
        })
        .collect();
    let ints = [
        ("wood", 4),
        ("stone", 2),
        ("iron", 0),
        ("food", 3),
        ("gold", 1),
        ("tools", 0),
    ];
    let mut vars: Vec<(String, Value)> = ints
        .iter()
        .map(|(n, v)| ((*n).to_owned(), Value::Int(*v)))
        .collect();
    for name in ["house", "forge", "farm", "market"] {
        vars.push((name.to_owned(), false.into()));
    }
    Spec {
        name: format!("economy-{size}"),
        vars,
        actions,
        goal: vec![
            cond("house", Op::Eq, true),
            cond("market", Op::Eq, true),
            cond("gold", Op::Ge, i64::from(size)),
        ],
    }
}

/// A settlers' economy: 10 variables (6 ints: wood, stone, iron, food, gold,
/// tools; 4 bools: house, forge, farm, market) and 30 actions: gathering,
/// crafting, building, trade, and costly distractions. The goal asks for a
/// house, a market and `gold >= size`. At size 1 the optimal plan costs 29
/// in 11 steps.
///
/// # Errors
/// None in practice; the domain is fixed and valid.
///
/// ```
/// let p = state_factored::problems::economy(1).unwrap();
/// assert_eq!((p.domain.schema().len(), p.domain.actions().len()), (10, 30));
/// ```
pub fn economy(size: u32) -> Result<Problem, FactoredError> {
    economy_spec(size).build()
}

/// Two chains of numeric prerequisites as a [`Spec`]; see [`chains`].
///
/// ```
/// assert_eq!(state_factored::problems::chains_spec(2).vars.len(), 11);
/// ```
pub fn chains_spec(size: u32) -> Spec {
    let mut vars: Vec<(String, Value)> = Vec::new();
    let mut actions = Vec::new();
    for chain in ["a", "b"] {
        for k in 1..=5 {
            vars.push((format!("{chain}{k}"), 0.into()));
        }
        actions.push(action(
            &format!("make_{chain}1"),
            1,
            vec![],
            vec![(&format!("{chain}1"), SpecEffect::Add(1.into()))],
        ));
        for k in 2..=5 {
            let from = format!("{chain}{}", k - 1);
            let to = format!("{chain}{k}");
            actions.push(action(
                &format!("make_{to}"),
                1,
                vec![cond(&from, Op::Ge, 1)],
                vec![
                    (&from, SpecEffect::Sub(1.into())),
                    (&to, SpecEffect::Add(1.into())),
                ],
            ));
        }
    }
    vars.push(("done".into(), false.into()));
    let size = i64::from(size);
    actions.push(action(
        "finish",
        1,
        vec![cond("a5", Op::Ge, size), cond("b5", Op::Ge, size)],
        vec![("done", SpecEffect::Set(true.into()))],
    ));
    Spec {
        name: format!("chains-{size}"),
        vars,
        actions,
        goal: vec![cond("done", Op::Eq, true)],
    }
}

/// Two chains of five numeric prerequisites over 11 variables: `a1..a5`,
/// `b1..b5` and `done`. `make_a1` adds one `a1`; `make_ak` turns one
/// `a(k-1)` into one `ak`; likewise for `b`; `finish` needs `a5 >= size` and
/// `b5 >= size`. The optimal plan has `10 * size + 1` steps, all of cost 1.
///
/// # Errors
/// None in practice; the domain is fixed and valid.
///
/// ```
/// let p = state_factored::problems::chains(1).unwrap();
/// assert_eq!(p.domain.schema().len(), 11);
/// ```
pub fn chains(size: u32) -> Result<Problem, FactoredError> {
    chains_spec(size).build()
}

/// A precondition of the economy table.
#[derive(Clone, Copy)]
enum Need {
    AtLeast(i64),
    Is(bool),
}

/// An effect of the economy table.
#[derive(Clone, Copy)]
enum Change {
    Add(i64),
    Set(bool),
}

type Row = (
    &'static str,
    u32,
    &'static [(&'static str, Need)],
    &'static [(&'static str, Change)],
);

use Change::{Add, Set};
use Need::{AtLeast, Is};

/// The economy's actions: name, cost, preconditions, effects.
const ECONOMY: &[Row] = &[
    // Gathering.
    ("chop_wood", 2, &[], &[("wood", Add(2))]),
    (
        "chop_with_tools",
        2,
        &[("tools", AtLeast(1))],
        &[("wood", Add(5))],
    ),
    ("quarry", 3, &[], &[("stone", Add(2))]),
    (
        "quarry_with_tools",
        3,
        &[("tools", AtLeast(1))],
        &[("stone", Add(4))],
    ),
    (
        "mine_iron",
        4,
        &[("tools", AtLeast(1))],
        &[("iron", Add(2))],
    ),
    ("pan_gold", 5, &[], &[("gold", Add(1))]),
    ("forage", 2, &[], &[("food", Add(1))]),
    ("hunt", 3, &[("tools", AtLeast(1))], &[("food", Add(3))]),
    ("farm", 1, &[("farm", Is(true))], &[("food", Add(4))]),
    // Crafting.
    (
        "make_tools",
        2,
        &[("wood", AtLeast(2)), ("stone", AtLeast(1))],
        &[("wood", Add(-2)), ("stone", Add(-1)), ("tools", Add(1))],
    ),
    (
        "smith_tools",
        1,
        &[("forge", Is(true)), ("iron", AtLeast(1))],
        &[("iron", Add(-1)), ("tools", Add(2))],
    ),
    // Building.
    (
        "build_house",
        5,
        &[
            ("house", Is(false)),
            ("wood", AtLeast(10)),
            ("stone", AtLeast(6)),
        ],
        &[("wood", Add(-10)), ("stone", Add(-6)), ("house", Set(true))],
    ),
    (
        "build_forge",
        4,
        &[
            ("forge", Is(false)),
            ("stone", AtLeast(8)),
            ("wood", AtLeast(4)),
        ],
        &[("stone", Add(-8)), ("wood", Add(-4)), ("forge", Set(true))],
    ),
    (
        "build_farm",
        3,
        &[
            ("farm", Is(false)),
            ("wood", AtLeast(6)),
            ("food", AtLeast(2)),
        ],
        &[("wood", Add(-6)), ("food", Add(-2)), ("farm", Set(true))],
    ),
    (
        "build_market",
        4,
        &[
            ("market", Is(false)),
            ("house", Is(true)),
            ("food", AtLeast(4)),
            ("gold", AtLeast(2)),
        ],
        &[("food", Add(-4)), ("gold", Add(-2)), ("market", Set(true))],
    ),
    // Trade.
    (
        "sell_wood",
        2,
        &[("market", Is(true)), ("wood", AtLeast(3))],
        &[("wood", Add(-3)), ("gold", Add(1))],
    ),
    (
        "sell_food",
        2,
        &[("food", AtLeast(4))],
        &[("food", Add(-4)), ("gold", Add(1))],
    ),
    (
        "sell_stone",
        2,
        &[("stone", AtLeast(3))],
        &[("stone", Add(-3)), ("gold", Add(1))],
    ),
    (
        "sell_iron",
        2,
        &[("iron", AtLeast(1))],
        &[("iron", Add(-1)), ("gold", Add(2))],
    ),
    (
        "buy_tools",
        2,
        &[("gold", AtLeast(2))],
        &[("gold", Add(-2)), ("tools", Add(1))],
    ),
    (
        "buy_food",
        2,
        &[("gold", AtLeast(1))],
        &[("gold", Add(-1)), ("food", Add(2))],
    ),
    // Distractions: legal, costly, never useful here.
    ("feast", 6, &[("food", AtLeast(5))], &[("food", Add(-5))]),
    (
        "burn_wood",
        6,
        &[("wood", AtLeast(1))],
        &[("wood", Add(-1))],
    ),
    (
        "drop_tools",
        6,
        &[("tools", AtLeast(1))],
        &[("tools", Add(-1))],
    ),
    (
        "trade_wood_for_stone",
        6,
        &[("wood", AtLeast(3))],
        &[("wood", Add(-3)), ("stone", Add(1))],
    ),
    (
        "trade_stone_for_wood",
        6,
        &[("stone", AtLeast(3))],
        &[("stone", Add(-3)), ("wood", Add(1))],
    ),
    (
        "demolish_farm",
        8,
        &[("farm", Is(true))],
        &[("farm", Set(false)), ("wood", Add(2))],
    ),
    (
        "demolish_forge",
        8,
        &[("forge", Is(true))],
        &[("forge", Set(false)), ("stone", Add(2))],
    ),
    (
        "gamble",
        6,
        &[("gold", AtLeast(3))],
        &[("gold", Add(-3)), ("food", Add(1))],
    ),
    ("rest", 6, &[("food", AtLeast(1))], &[("food", Add(-1))]),
];
