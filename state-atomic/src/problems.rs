//! Ready-made problems: the reference scenarios of searchlab's design and
//! seeded synthetic families that scale with a size parameter, for tests,
//! benches and examples.

use crate::{ActionSet, AtomicError, Bits, PartialState, WorldState};

/// An action set with a start state and a goal.
#[derive(Clone, Debug)]
pub struct Problem<B: Bits = u64> {
    /// A short name, such as `chains-40`.
    pub name: String,
    /// The actions (and their atom registry).
    pub actions: ActionSet<B>,
    /// The start state.
    pub start: WorldState<B>,
    /// The goal.
    pub goal: PartialState<B>,
}

impl<B: Bits> Problem<B> {
    fn new(
        name: &str,
        actions: ActionSet<B>,
        start: &[&str],
        goal: &[(&str, bool)],
    ) -> Result<Self, AtomicError> {
        actions.check()?;
        let start = actions.state(start.iter().copied())?;
        let goal = actions.partial(goal.iter().copied())?;
        Ok(Self {
            name: name.to_owned(),
            actions,
            start,
            goal,
        })
    }
}

/// Scenario 1, the hungry agent: the optimal plan is `buy_groceries`,
/// `cook`, `eat`, cost 30.
///
/// # Errors
/// Only if `B` holds fewer than 6 atoms.
///
/// ```
/// let p = state_atomic::problems::hungry_agent::<u64>().unwrap();
/// assert_eq!(p.actions.len(), 5);
/// ```
pub fn hungry_agent<B: Bits>() -> Result<Problem<B>, AtomicError> {
    let mut a = ActionSet::new();
    for atom in [
        "has_restaurant",
        "has_supermarket",
        "has_groceries",
        "has_food",
        "fridge_has_bread",
        "fed",
    ] {
        a.declare(atom)?;
    }
    a.add_action("go_to_restaurant", 30)
        .pre("has_restaurant", true)
        .eff("has_food", true);
    a.add_action("buy_groceries", 15)
        .pre("has_supermarket", true)
        .eff("has_groceries", true);
    a.add_action("cook", 10)
        .pre("has_groceries", true)
        .eff("has_food", true);
    a.add_action("search_fridge", 30)
        .pre("fridge_has_bread", true)
        .eff("has_food", true);
    a.add_action("eat", 5)
        .pre("has_food", true)
        .eff("fed", true);
    Problem::new(
        "hungry-agent",
        a,
        &["has_restaurant", "has_supermarket"],
        &[("fed", true)],
    )
}

/// Scenario 2, the enemy ship, from a start given by its true atoms (a
/// subset of `safe`, `in_safe_zone`, `ammo_full`, `player_weak`,
/// `aim_ready`, `player_killed`). The design's four starts and optimal costs:
/// `{safe, ammo_full}` 5, `{safe, ammo_full, player_weak}` 4, `{ammo_full}`
/// 2, `{safe, ammo_full, aim_ready}` 2.
///
/// # Errors
/// [`AtomicError::UnknownAtom`] for a start atom not in the list above.
///
/// ```
/// let p = state_atomic::problems::enemy_ship::<u64>(&["ammo_full"]).unwrap();
/// assert_eq!(p.actions.len(), 5);
/// ```
pub fn enemy_ship<B: Bits>(start: &[&str]) -> Result<Problem<B>, AtomicError> {
    let mut a = ActionSet::new();
    for atom in [
        "safe",
        "in_safe_zone",
        "ammo_full",
        "player_weak",
        "aim_ready",
        "player_killed",
    ] {
        a.declare(atom)?;
    }
    a.add_action("low_accuracy_shot", 1)
        .pre("in_safe_zone", true)
        .eff("player_killed", true);
    a.add_action("chase", 4)
        .pre("ammo_full", true)
        .pre("player_weak", true)
        .eff("player_killed", true);
    a.add_action("aim", 3)
        .pre("aim_ready", false)
        .eff("aim_ready", true);
    a.add_action("shoot", 2)
        .pre("aim_ready", true)
        .eff("player_killed", true);
    a.add_action("evade", 1)
        .pre("safe", false)
        .eff("in_safe_zone", true);
    Problem::new("enemy-ship", a, start, &[("player_killed", true)])
}

/// Scenario 3, the consumed fact: ore must be mined twice; optimal cost 7.
///
/// # Errors
/// Only if `B` holds fewer than 4 atoms.
///
/// ```
/// let p = state_atomic::problems::consumed_fact::<u64>().unwrap();
/// assert_eq!(p.actions.len(), 4);
/// ```
pub fn consumed_fact<B: Bits>() -> Result<Problem<B>, AtomicError> {
    let mut a = ActionSet::new();
    a.add_action("mine_ore", 2).eff("has_ore", true);
    a.add_action("sell_ore", 1)
        .pre("has_ore", true)
        .eff("has_money", true)
        .eff("has_ore", false);
    a.add_action("buy_food", 1)
        .pre("has_money", true)
        .eff("has_food", true)
        .eff("has_money", false);
    a.add_action("craft", 1)
        .pre("has_ore", true)
        .pre("has_food", true)
        .eff("crafted", true);
    Problem::new("consumed-fact", a, &[], &[("crafted", true)])
}

/// A small seeded generator (`SplitMix64`), so problems are the same on every
/// machine.
#[derive(Clone, Debug)]
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n > 0`).
    fn below(&mut self, n: usize) -> usize {
        #[expect(clippy::cast_possible_truncation, reason = "the result is below n")]
        let r = (self.next() % n as u64) as usize;
        r
    }

    fn cost(&mut self, low: u32, high: u32) -> u32 {
        low + u32::try_from(self.below((high - low + 1) as usize)).unwrap_or(0)
    }
}

/// The shared skeleton: `chains` chains of `length` atoms `c{i}_{j}`, where
/// step `s{i}_{j}` needs `c{i}_{j-1}` and sets `c{i}_{j}` (cost 1 to 4).
/// Returns the actions and each step's cost.
fn chain_skeleton<B: Bits>(
    chains: usize,
    length: usize,
    rng: &mut Rng,
) -> Result<(ActionSet<B>, Vec<Vec<u32>>), AtomicError> {
    let mut a = ActionSet::new();
    for i in 0..chains {
        for j in 0..length {
            a.declare(&format!("c{i}_{j}"))?;
        }
    }
    let mut costs = vec![Vec::new(); chains];
    for (i, chain_costs) in costs.iter_mut().enumerate() {
        for j in 0..length {
            let cost = rng.cost(1, 4);
            chain_costs.push(cost);
            let mut step = a.add_action(&format!("s{i}_{j}"), cost);
            if j > 0 {
                step.pre(&format!("c{i}_{}", j - 1), true);
            }
            step.eff(&format!("c{i}_{j}"), true);
        }
    }
    a.check()?;
    Ok((a, costs))
}

/// The goal shared by the chain families: the end of chain 0 and the
/// middle atom of chain 1 (15 steps at size 40).
fn chain_goal(length: usize) -> [(String, bool); 2] {
    [
        (format!("c0_{}", length - 1), true),
        (format!("c1_{}", length.div_ceil(2) - 1), true),
    ]
}

fn finish<B: Bits>(
    name: &str,
    actions: ActionSet<B>,
    goal: &[(String, bool)],
) -> Result<Problem<B>, AtomicError> {
    let goal: Vec<(&str, bool)> = goal.iter().map(|(n, v)| (n.as_str(), *v)).collect();
    Problem::new(name, actions, &[], &goal)
}

/// Parallel chains of prerequisites: four chains of `size / 4` atoms (at
/// least 3), one step action per atom, and `size / 2` cross-linked steps that
/// set a chain atom more cheaply but also need an atom of another chain.
/// The goal is the end of chain 0 and the middle of chain 1. At size 40: 40 atoms,
/// 60 actions, optimal plans of 15 steps or a few more.
///
/// # Errors
/// [`AtomicError::TooManyAtoms`] if `B` cannot hold `size` atoms.
///
/// ```
/// let p = state_atomic::problems::chains::<u64>(40, 1).unwrap();
/// assert_eq!((p.actions.registry().len(), p.actions.len()), (40, 60));
/// ```
pub fn chains<B: Bits>(size: usize, seed: u64) -> Result<Problem<B>, AtomicError> {
    let length = (size / 4).max(3);
    let mut rng = Rng(seed);
    let (mut a, costs) = chain_skeleton::<B>(4, length, &mut rng)?;
    for k in 0..size / 2 {
        let i = rng.below(4);
        let j = 1 + rng.below(length - 1);
        let other = (i + 1 + rng.below(3)) % 4;
        let at = rng.below(length);
        let cost = costs[i][j].saturating_sub(1).max(1);
        a.add_action(&format!("x{k}_c{i}_{j}"), cost)
            .pre(&format!("c{i}_{}", j - 1), true)
            .pre(&format!("c{other}_{at}"), true)
            .eff(&format!("c{i}_{j}"), true);
    }
    finish(&format!("chains-{size}"), a, &chain_goal(length))
}

/// Chains plus costlier shortcuts: the chains of [`chains`] and `size / 2`
/// shortcuts that jump two atoms ahead for more than the two steps cost, so
/// the cheapest plan takes the long way and breadth-first search the short
/// one. At size 40: 40 atoms, 60 actions.
///
/// # Errors
/// [`AtomicError::TooManyAtoms`] if `B` cannot hold `size` atoms.
///
/// ```
/// let p = state_atomic::problems::shortcuts::<u64>(40, 1).unwrap();
/// assert_eq!((p.actions.registry().len(), p.actions.len()), (40, 60));
/// ```
pub fn shortcuts<B: Bits>(size: usize, seed: u64) -> Result<Problem<B>, AtomicError> {
    let length = (size / 4).max(3);
    let mut rng = Rng(seed);
    let (mut a, costs) = chain_skeleton::<B>(4, length, &mut rng)?;
    for k in 0..size / 2 {
        let i = rng.below(4);
        let j = rng.below(length - 2);
        let cost = costs[i][j + 1] + costs[i][j + 2] + 1 + rng.cost(0, 2);
        a.add_action(&format!("jump{k}_c{i}_{j}"), cost)
            .pre(&format!("c{i}_{j}"), true)
            .eff(&format!("c{i}_{}", j + 2), true);
    }
    finish(&format!("shortcuts-{size}"), a, &chain_goal(length))
}

/// Chains plus irrelevant toggle atoms: four chains of `size * 4 / 20` atoms
/// (8 at size 40), `size / 5` toggle atoms that two actions each switch on
/// and off at cost 1 (multiplying the reachable states by `2^(size / 5)`),
/// and cross-linked steps as in [`chains`] up to `1.5 * size` actions. At
/// size 40: 40 atoms, 60 actions, optimal plans of 12 steps or a few more.
///
/// # Errors
/// [`AtomicError::TooManyAtoms`] if `B` cannot hold `size` atoms.
///
/// ```
/// let p = state_atomic::problems::toggles::<u64>(40, 1).unwrap();
/// assert_eq!((p.actions.registry().len(), p.actions.len()), (40, 60));
/// ```
pub fn toggles<B: Bits>(size: usize, seed: u64) -> Result<Problem<B>, AtomicError> {
    let toggles = size / 5;
    let length = ((size - toggles) / 4).max(3);
    let mut rng = Rng(seed);
    let (mut a, costs) = chain_skeleton::<B>(4, length, &mut rng)?;
    for t in 0..toggles {
        a.declare(&format!("t{t}"))?;
        a.add_action(&format!("on{t}"), 1)
            .eff(&format!("t{t}"), true);
        a.add_action(&format!("off{t}"), 1)
            .pre(&format!("t{t}"), true)
            .eff(&format!("t{t}"), false);
    }
    let mut k = 0;
    while a.len() < size * 3 / 2 {
        let i = rng.below(4);
        let j = 1 + rng.below(length - 1);
        let other = (i + 1 + rng.below(3)) % 4;
        let at = rng.below(length);
        let cost = costs[i][j].saturating_sub(1).max(1);
        a.add_action(&format!("x{k}_c{i}_{j}"), cost)
            .pre(&format!("c{i}_{}", j - 1), true)
            .pre(&format!("c{other}_{at}"), true)
            .eff(&format!("c{i}_{j}"), true);
        k += 1;
    }
    finish(&format!("toggles-{size}"), a, &chain_goal(length))
}
