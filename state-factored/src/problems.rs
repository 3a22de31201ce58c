//! Ready-made problems: the hitman reference scenario and two generated
//! families, used by the tests, the benches and the default suite.
//!
//! Each generator is deterministic and takes a size parameter; the docs give
//! the optimal cost where it is known.

use crate::{Action, Domain, FactoredError, Goal, Predicate, Schema, State};

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
    let mut schema = Schema::new();
    schema.int("gold")?;
    schema.string("location")?;
    schema.bool("has_weapon")?;
    schema.bool("target_alive")?;
    schema.float("noise")?;
    let mut d = Domain::new(schema);
    for (name, place, cost) in [
        ("walk_to_shop", "shop", 2),
        ("walk_to_mine", "mine", 2),
        ("walk_to_target", "target", 3),
    ] {
        d.add_action(
            Action::builder(name)
                .cost(cost)
                .pre(Predicate::ne("location", place))
                .set("location", place),
        )?;
    }
    d.add_action(
        Action::builder("mine_gold")
            .cost(3)
            .pre(Predicate::eq("location", "mine"))
            .add("gold", 25),
    )?;
    d.add_action(
        Action::builder("buy_weapon")
            .cost(1)
            .pre(Predicate::eq("location", "shop"))
            .pre(Predicate::ge("gold", 60))
            .pre(Predicate::eq("has_weapon", false))
            .set("has_weapon", true)
            .sub("gold", 60),
    )?;
    d.add_action(
        Action::builder("attack")
            .cost(1)
            .pre(Predicate::eq("location", "target"))
            .pre(Predicate::eq("has_weapon", true))
            .set("target_alive", false)
            .add("noise", 0.5),
    )?;
    let start = d
        .schema()
        .state()
        .set("gold", 20)
        .set("location", "home")
        .set("has_weapon", false)
        .set("target_alive", true)
        .set("noise", 0.0)
        .build()?;
    let goal = d.goal([
        Predicate::eq("target_alive", false),
        Predicate::le("noise", 0.5),
    ])?;
    Ok(Problem {
        name: "hitman".into(),
        domain: d,
        start,
        goal,
    })
}

/// A settlers' economy: 10 variables (6 ints: wood, stone, iron, food, gold,
/// tools; 4 bools: house, forge, farm, market) and 30 actions, a third of
/// them distractions. The goal asks for a house, a market and
/// `gold >= size`. At size 1 the optimal plan has 11 steps.
///
/// # Errors
/// None in practice; the domain is fixed and valid.
///
/// ```
/// let p = state_factored::problems::economy(1).unwrap();
/// assert_eq!((p.domain.schema().len(), p.domain.actions().len()), (10, 30));
/// ```
pub fn economy(size: u32) -> Result<Problem, FactoredError> {
    let mut schema = Schema::new();
    for name in ["wood", "stone", "iron", "food", "gold", "tools"] {
        schema.int(name)?;
    }
    for name in ["house", "forge", "farm", "market"] {
        schema.bool(name)?;
    }
    let mut d = Domain::new(schema);
    for (name, cost, pre, effects) in ECONOMY {
        let mut action = Action::builder(name).cost(*cost);
        for &(var, at_least) in *pre {
            action = action.pre(match at_least {
                Need::AtLeast(n) => Predicate::ge(var, n),
                Need::Is(b) => Predicate::eq(var, b),
            });
        }
        for &(var, change) in *effects {
            action = match change {
                Change::Add(n) => action.add(var, n),
                Change::Set(b) => action.set(var, b),
            };
        }
        d.add_action(action)?;
    }
    let start = d
        .schema()
        .state()
        .set("wood", 4)
        .set("stone", 2)
        .set("food", 3)
        .set("gold", 1)
        .build()?;
    let goal = d.goal([
        Predicate::eq("house", true),
        Predicate::eq("market", true),
        Predicate::ge("gold", i64::from(size)),
    ])?;
    Ok(Problem {
        name: format!("economy-{size}"),
        domain: d,
        start,
        goal,
    })
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
    let mut schema = Schema::new();
    for chain in ["a", "b"] {
        for k in 1..=5 {
            schema.int(&format!("{chain}{k}"))?;
        }
    }
    schema.bool("done")?;
    let mut d = Domain::new(schema);
    let size = i64::from(size);
    for chain in ["a", "b"] {
        d.add_action(Action::builder(&format!("make_{chain}1")).add(&format!("{chain}1"), 1))?;
        for k in 2..=5 {
            let from = format!("{chain}{}", k - 1);
            let to = format!("{chain}{k}");
            d.add_action(
                Action::builder(&format!("make_{to}"))
                    .pre(Predicate::ge(&from, 1))
                    .sub(&from, 1)
                    .add(&to, 1),
            )?;
        }
    }
    d.add_action(
        Action::builder("finish")
            .pre(Predicate::ge("a5", size))
            .pre(Predicate::ge("b5", size))
            .set("done", true),
    )?;
    let start = d.schema().default_state();
    let goal = d.goal([Predicate::eq("done", true)])?;
    Ok(Problem {
        name: format!("chains-{size}"),
        domain: d,
        start,
        goal,
    })
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
