//! The task as finite-domain (SAS+) variables: each mutex group is a
//! variable whose value says which of its atoms holds, or that none does;
//! every other atom is a binary variable.

use crate::{ActionSet, Bits, PartialState, WorldState};

/// A variable's value and the value it is set to, as `(variable, value)`.
pub(crate) type Fact = (u32, u32);

/// An action over variables: conditions, changes and cost. Conditions on
/// a variable the action changes are in `pre` too.
#[derive(Clone, Debug)]
pub(crate) struct Operator {
    pub(crate) pre: Vec<Fact>,
    pub(crate) eff: Vec<Fact>,
    pub(crate) cost: u32,
}

/// The finite-domain view of an atomic task: variables, operators, goal.
///
/// A group stays one variable only where every action's effect on it is a
/// plain assignment: a member that some action deletes without requiring
/// a member true and without adding one ("becomes none if it held") leaves
/// its group, and so does a member some condition wants false (a value
/// "not this one" is no single value). Such atoms are binary variables,
/// as the PDDL front end's packing does.
///
/// Actions that want or add two members of one group never apply in a
/// state the groups describe, so they get no operator.
#[derive(Clone, Debug)]
pub(crate) struct Variables {
    /// Each variable's atoms: value `i` says `atoms[v][i]` holds, value
    /// `atoms[v].len()` that none does.
    atoms: Vec<Vec<usize>>,
    /// Per atom: its variable and value.
    place: Vec<Fact>,
    pub(crate) operators: Vec<Operator>,
    /// The goal's facts, sorted by variable; `None` if it wants two values
    /// of one variable (no state the groups describe meets it).
    pub(crate) goal: Option<Vec<Fact>>,
}

fn to_u32(i: usize) -> u32 {
    u32::try_from(i).unwrap_or(u32::MAX)
}

/// The set bits of `bits` below `atoms`.
fn ones<B: Bits>(bits: &B, atoms: usize) -> Vec<usize> {
    let mut out = Vec::new();
    bits.for_each_one(|i| {
        if i < atoms {
            out.push(i);
        }
    });
    out
}

impl Variables {
    /// The variables of `actions` (its [mutex
    /// groups](ActionSet::mutex_groups), the other atoms binary) toward
    /// `goal`. Actions with a cost function count at their least cost, 0.
    pub(crate) fn new<B: Bits>(actions: &ActionSet<B>, goal: &PartialState<B>) -> Self {
        let atoms = actions.registry().len();
        let mut group_of = vec![usize::MAX; atoms];
        for (g, group) in actions.mutex_groups().iter().enumerate() {
            for &a in group.iter().filter(|&&a| a < atoms) {
                group_of[a] = g;
            }
        }
        let mut alone = vec![false; atoms];
        let wants_false = |p: &PartialState<B>, alone: &mut Vec<bool>| {
            let falses = p.care() & !p.values();
            for a in ones(&falses, atoms) {
                alone[a] = true;
            }
        };
        wants_false(goal, &mut alone);
        for action in actions.iter() {
            wants_false(&action.pre, &mut alone);
            let deleted = action.eff.care() & !action.eff.values();
            let added = ones(action.eff.as_values(), atoms);
            let required = ones(action.pre.as_values(), atoms);
            for d in ones(&deleted, atoms) {
                let g = group_of[d];
                let in_group = |a: &usize| g != usize::MAX && group_of[*a] == g;
                if !added.iter().any(in_group) && !required.iter().any(in_group) {
                    alone[d] = true;
                }
            }
        }
        let mut variables: Vec<Vec<usize>> = Vec::new();
        let mut index_of_group = vec![usize::MAX; actions.mutex_groups().len()];
        for a in 0..atoms {
            let g = group_of[a];
            if g == usize::MAX || alone[a] {
                variables.push(vec![a]);
            } else {
                if index_of_group[g] == usize::MAX {
                    index_of_group[g] = variables.len();
                    variables.push(Vec::new());
                }
                variables[index_of_group[g]].push(a);
            }
        }
        let mut place = vec![(0, 0); atoms];
        for (v, members) in variables.iter().enumerate() {
            for (i, &a) in members.iter().enumerate() {
                place[a] = (to_u32(v), to_u32(i));
            }
        }
        let mut task = Self {
            atoms: variables,
            place,
            operators: Vec::new(),
            goal: None,
        };
        task.goal = task.condition(goal);
        task.operators = actions
            .iter()
            .enumerate()
            .filter_map(|(k, action)| {
                let pre = task.condition(&action.pre)?;
                let eff = task.effect(&pre, &action.eff)?;
                Some(Operator {
                    pre,
                    eff,
                    cost: actions.least_cost(k),
                })
            })
            .collect();
        task
    }

    /// How many variables there are.
    pub(crate) fn len(&self) -> usize {
        self.atoms.len()
    }

    /// How many values variable `v` has (its atoms and "none").
    pub(crate) fn domain(&self, v: usize) -> usize {
        self.atoms[v].len() + 1
    }

    /// The value of variable `v` in `state`.
    pub(crate) fn value<B: Bits>(&self, v: usize, state: &WorldState<B>) -> u32 {
        let members = &self.atoms[v];
        let held = members.iter().position(|&a| state.as_bits().get(a));
        to_u32(held.unwrap_or(members.len()))
    }

    /// The facts `partial` asks for: an atom true is its value, an atom
    /// false is a binary variable's "none" (a group member wanted false is
    /// a binary variable; see the type's docs). `None` if it wants two
    /// values of one variable.
    fn condition<B: Bits>(&self, partial: &PartialState<B>) -> Option<Vec<Fact>> {
        let atoms = self.place.len();
        let mut facts: Vec<Fact> = ones(partial.as_values(), atoms)
            .into_iter()
            .map(|a| self.place[a])
            .collect();
        let falses = partial.care() & !partial.values();
        for a in ones(&falses, atoms) {
            let (v, _) = self.place[a];
            if self.atoms[v as usize].len() == 1 {
                facts.push((v, 1));
            }
        }
        facts.sort_unstable();
        facts.dedup();
        let clash = facts.windows(2).any(|w| w[0].0 == w[1].0);
        (!clash).then_some(facts)
    }

    /// The assignments of an effect on top of conditions `pre`: an added
    /// atom sets its value; a deleted one sets "none" where `pre` says it
    /// held (elsewhere it was false already). Values `pre` already fixes
    /// are left out. `None` if it adds two members of one group.
    fn effect<B: Bits>(&self, pre: &[Fact], eff: &PartialState<B>) -> Option<Vec<Fact>> {
        let atoms = self.place.len();
        let mut facts: Vec<Fact> = ones(eff.as_values(), atoms)
            .into_iter()
            .map(|a| self.place[a])
            .collect();
        let deleted = eff.care() & !eff.values();
        for a in ones(&deleted, atoms) {
            let (v, value) = self.place[a];
            if facts.iter().any(|&(w, _)| w == v) {
                continue;
            }
            let none = to_u32(self.atoms[v as usize].len());
            let held_before = self.atoms[v as usize].len() == 1 || pre.contains(&(v, value));
            if held_before {
                facts.push((v, none));
            }
        }
        facts.sort_unstable();
        facts.dedup();
        if facts.windows(2).any(|w| w[0].0 == w[1].0) {
            return None;
        }
        facts.retain(|fact| !pre.contains(fact));
        Some(facts)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_group_is_one_variable_and_the_rest_binary() {
        let mut actions = ActionSet::<u64>::new();
        actions
            .add_action("go_ab", 1)
            .pre("at_a", true)
            .eff("at_a", false)
            .eff("at_b", true);
        actions.add_action("paint", 2).eff("painted", true);
        actions.set_mutex_groups([vec![0, 1]]).unwrap();
        let goal = actions
            .partial([("at_b", true), ("painted", true)])
            .unwrap();
        let task = Variables::new(&actions, &goal);
        assert_eq!(task.len(), 2);
        assert_eq!(task.domain(0), 3);
        assert_eq!(task.goal, Some(vec![(0, 1), (1, 0)]));
        assert_eq!(task.operators[0].pre, [(0, 0)]);
        assert_eq!(task.operators[0].eff, [(0, 1)]);
        let start = actions.state(["at_a"]).unwrap();
        assert_eq!((task.value(0, &start), task.value(1, &start)), (0, 1));
    }

    #[test]
    fn a_member_deleted_without_being_required_leaves_its_group() {
        let mut actions = ActionSet::<u64>::new();
        actions.add_action("drop_a", 1).eff("at_a", false);
        actions.add_action("go_b", 1).eff("at_b", true);
        actions.set_mutex_groups([vec![0, 1]]).unwrap();
        let goal = actions.partial([("at_b", true)]).unwrap();
        let task = Variables::new(&actions, &goal);
        assert_eq!(task.len(), 2);
        assert_eq!(task.operators[0].eff, [(0, 1)]);
    }
}
