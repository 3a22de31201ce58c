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
    let a = Action::builder;
    let ge = Predicate::ge;
    let yes = |v: &str| Predicate::eq(v, true);
    let no = |v: &str| Predicate::eq(v, false);
    let actions = vec![
        // Gathering.
        a("chop_wood").cost(2).add("wood", 2),
        a("chop_with_tools")
            .cost(2)
            .pre(ge("tools", 1))
            .add("wood", 5),
        a("quarry").cost(3).add("stone", 2),
        a("quarry_with_tools")
            .cost(3)
            .pre(ge("tools", 1))
            .add("stone", 4),
        a("mine_iron").cost(4).pre(ge("tools", 1)).add("iron", 2),
        a("pan_gold").cost(5).add("gold", 1),
        a("forage").cost(2).add("food", 1),
        a("hunt").cost(3).pre(ge("tools", 1)).add("food", 3),
        a("farm").cost(1).pre(yes("farm")).add("food", 4),
        // Crafting.
        a("make_tools")
            .cost(2)
            .pre(ge("wood", 2))
            .pre(ge("stone", 1))
            .sub("wood", 2)
            .sub("stone", 1)
            .add("tools", 1),
        a("smith_tools")
            .cost(1)
            .pre(yes("forge"))
            .pre(ge("iron", 1))
            .sub("iron", 1)
            .add("tools", 2),
        // Building.
        a("build_house")
            .cost(5)
            .pre(no("house"))
            .pre(ge("wood", 10))
            .pre(ge("stone", 6))
            .sub("wood", 10)
            .sub("stone", 6)
            .set("house", true),
        a("build_forge")
            .cost(4)
            .pre(no("forge"))
            .pre(ge("stone", 8))
            .pre(ge("wood", 4))
            .sub("stone", 8)
            .sub("wood", 4)
            .set("forge", true),
        a("build_farm")
            .cost(3)
            .pre(no("farm"))
            .pre(ge("wood", 6))
            .pre(ge("food", 2))
            .sub("wood", 6)
            .sub("food", 2)
            .set("farm", true),
        a("build_market")
            .cost(4)
            .pre(no("market"))
            .pre(yes("house"))
            .pre(ge("food", 4))
            .pre(ge("gold", 2))
            .sub("food", 4)
            .sub("gold", 2)
            .set("market", true),
        // Trade.
        a("sell_wood")
            .cost(1)
            .pre(yes("market"))
            .pre(ge("wood", 3))
            .sub("wood", 3)
            .add("gold", 1),
        a("sell_food")
            .cost(1)
            .pre(ge("food", 4))
            .sub("food", 4)
            .add("gold", 1),
        a("sell_stone")
            .cost(1)
            .pre(ge("stone", 3))
            .sub("stone", 3)
            .add("gold", 1),
        a("sell_iron")
            .cost(1)
            .pre(ge("iron", 1))
            .sub("iron", 1)
            .add("gold", 2),
        a("buy_tools")
            .cost(1)
            .pre(ge("gold", 2))
            .sub("gold", 2)
            .add("tools", 1),
        a("buy_food")
            .cost(1)
            .pre(ge("gold", 1))
            .sub("gold", 1)
            .add("food", 2),
        // Distractions: legal, rarely useful.
        a("feast").cost(1).pre(ge("food", 5)).sub("food", 5),
        a("burn_wood").cost(1).pre(ge("wood", 1)).sub("wood", 1),
        a("drop_tools").cost(1).pre(ge("tools", 1)).sub("tools", 1),
        a("trade_wood_for_stone")
            .cost(1)
            .pre(ge("wood", 3))
            .sub("wood", 3)
            .add("stone", 1),
        a("trade_stone_for_wood")
            .cost(1)
            .pre(ge("stone", 3))
            .sub("stone", 3)
            .add("wood", 1),
        a("demolish_farm")
            .cost(2)
            .pre(yes("farm"))
            .set("farm", false)
            .add("wood", 2),
        a("demolish_forge")
            .cost(2)
            .pre(yes("forge"))
            .set("forge", false)
            .add("stone", 2),
        a("gamble")
            .cost(2)
            .pre(ge("gold", 3))
            .sub("gold", 3)
            .add("food", 1),
        a("rest").cost(3).pre(ge("food", 1)).sub("food", 1),
    ];
    for action in actions {
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
    let goal = d.goal([yes("house"), yes("market"), ge("gold", i64::from(size))])?;
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
