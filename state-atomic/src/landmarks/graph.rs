//! Fact landmarks and their orderings by Zhu and Givan's label propagation
//! over the relaxed planning graph.
//!
//! Facts are literals, `2 * atom + value`, as in the relaxed heuristics.
//! Each reached literal carries a label: the literals every relaxed plan
//! from the start must make true to reach it, itself included. An action's
//! label is the union of its preconditions' labels; a literal's is itself
//! plus the intersection of its achievers' labels. Labels only shrink once
//! set, so iterating to the fixed point in any order gives the same labels.
//! The goal literals' labels are the landmarks.

use std::collections::VecDeque;
use std::time::Instant;

use crate::relaxed::literals;
use crate::{ActionId, ActionSet, Bits, PartialState, WorldState};

/// How two landmarks are ordered: the first is true at some point before
/// the second first becomes true, in every plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Ordering {
    /// Somewhere before: the first is in the second's label.
    Natural,
    /// Immediately before the second first becomes true: the first is a
    /// precondition of every action that can achieve the second.
    GreedyNecessary,
}

/// A fact landmark: a literal every plan from the start makes true (or
/// finds true at the start).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Landmark {
    /// The atom's index in the registry.
    pub atom: usize,
    /// The value every plan gives it.
    pub value: bool,
    /// Whether the goal asks for it.
    pub is_goal: bool,
    /// The actions whose effects make it true, reachable from the start or
    /// not.
    pub achievers: Vec<ActionId>,
}

impl Landmark {
    /// Whether `state` has this landmark's literal.
    pub fn holds_in<B: Bits>(&self, state: &WorldState<B>) -> bool {
        state.as_bits().get(self.atom) == self.value
    }
}

/// The fact landmarks of a task (actions, start, goal) with their orderings,
/// found by Zhu and Givan's label propagation.
///
/// Sound: every landmark is made true (or true at the start) by every plan,
/// and every ordering holds in every plan. When a goal literal is not even
/// reachable in the delete relaxation, the task has no plan:
/// [`is_unsolvable`](Self::is_unsolvable).
///
/// ```
/// use state_atomic::landmarks::{LandmarkGraph, Ordering};
/// use state_atomic::ActionSet;
///
/// let mut actions = ActionSet::<u64>::new();
/// actions.add_action("buy", 1).pre("at_shop", true).eff("has_food", true);
/// actions.add_action("walk", 1).eff("at_shop", true);
/// actions.add_action("eat", 1).pre("has_food", true).eff("fed", true);
/// let start = actions.state([]).unwrap();
/// let goal = actions.partial([("fed", true)]).unwrap();
/// let graph = LandmarkGraph::zhu_givan(&actions, &start, &goal);
/// let atoms: Vec<&str> = actions.registry().names().collect();
/// let names: Vec<&str> = graph.landmarks().iter().map(|l| atoms[l.atom]).collect();
/// assert_eq!(names, ["at_shop", "has_food", "fed"]);
/// let at_shop = graph.find(0, true).unwrap();
/// let has_food = graph.find(1, true).unwrap();
/// assert!(graph.orderings().contains(&(at_shop, has_food, Ordering::GreedyNecessary)));
/// ```
#[derive(Clone, Debug, Default)]
pub struct LandmarkGraph {
    landmarks: Vec<Landmark>,
    orderings: Vec<(usize, usize, Ordering)>,
    /// The landmark of each literal, if it is one.
    by_literal: Vec<Option<u32>>,
    unsolvable: bool,
}

impl LandmarkGraph {
    /// The landmarks of reaching `goal` from `start` with `actions`.
    pub fn zhu_givan<B: Bits>(
        actions: &ActionSet<B>,
        start: &WorldState<B>,
        goal: &PartialState<B>,
    ) -> Self {
        Self::zhu_givan_within(actions, start, goal, Allowance::default()).unwrap_or_default()
    }

    /// [`zhu_givan`](Self::zhu_givan) within `allowance`: the propagation
    /// of labels, which can take long and hold much on a large task, looks
    /// at the clock every 1,024 actions and counts the bytes its tables and
    /// labels hold as they grow.
    ///
    /// # Errors
    /// [`Stopped`] once the deadline passes or the tables would hold more
    /// than the allowance's bytes.
    ///
    /// ```
    /// use std::time::Instant;
    /// use state_atomic::landmarks::{Allowance, LandmarkGraph, Stopped};
    /// use state_atomic::ActionSet;
    ///
    /// let mut actions = ActionSet::<u64>::new();
    /// actions.add_action("eat", 1).pre("has_food", true).eff("fed", true);
    /// let start = actions.state(["has_food"]).unwrap();
    /// let goal = actions.partial([("fed", true)]).unwrap();
    /// let past = Allowance { deadline: Some(Instant::now()), ..Allowance::default() };
    /// assert_eq!(LandmarkGraph::zhu_givan_within(&actions, &start, &goal, past).unwrap_err(), Stopped::Deadline);
    /// let tiny = Allowance { max_bytes: Some(8), ..Allowance::default() };
    /// assert!(matches!(
    ///     LandmarkGraph::zhu_givan_within(&actions, &start, &goal, tiny),
    ///     Err(Stopped::Memory { bytes }) if bytes > 8
    /// ));
    /// assert!(LandmarkGraph::zhu_givan_within(&actions, &start, &goal, Allowance::default()).is_ok());
    /// ```
    pub fn zhu_givan_within<B: Bits>(
        actions: &ActionSet<B>,
        start: &WorldState<B>,
        goal: &PartialState<B>,
        allowance: Allowance,
    ) -> Result<Self, Stopped> {
        let atoms = actions.registry().len();
        let literal_count = 2 * atoms;
        // By relaxed action: an action, or one of its conditional effects
        // with the condition joined to the precondition.
        let mut pre: Vec<Vec<u32>> = Vec::with_capacity(actions.len());
        let mut eff: Vec<Vec<u32>> = Vec::with_capacity(actions.len());
        let mut action_of: Vec<ActionId> = Vec::with_capacity(actions.len());
        let mut users: Vec<Vec<u32>> = vec![Vec::new(); literal_count];
        let mut achievers: Vec<Vec<u32>> = vec![Vec::new(); literal_count];
        for (a, part) in actions.relaxed_parts().enumerate() {
            let mut p = Vec::new();
            literals(&part.pre, atoms, &mut p);
            let mut e = Vec::new();
            literals(part.eff, atoms, &mut e);
            let id = u32::try_from(a).unwrap_or(u32::MAX);
            for &l in &p {
                users[l as usize].push(id);
            }
            for &l in &e {
                achievers[l as usize].push(id);
            }
            pre.push(p);
            eff.push(e);
            action_of.push(ActionId(u32::try_from(part.action).unwrap_or(u32::MAX)));
        }

        let lists = |lists: &Vec<Vec<u32>>| lists.iter().map(Vec::len).sum::<usize>();
        let achieving: usize = achievers.iter().map(Vec::len).sum();
        let tables = 4 * (lists(&pre) + lists(&eff) + lists(&users) + achieving)
            + std::mem::size_of::<Vec<u32>>() * (pre.len() + eff.len() + 2 * literal_count);
        let mut meter = Meter {
            allowance,
            bytes: tables,
        };
        meter.check()?;
        let labels = propagate(atoms, start, &pre, &eff, &users, &mut meter)?;

        let mut goal_literals = Vec::new();
        literals(goal, atoms, &mut goal_literals);
        // A goal atom no action knows must hold at the start already.
        let mut graph = Self {
            by_literal: vec![None; literal_count],
            unsolvable: goal.is_wrong_beyond(start.as_bits(), &B::low(atoms)),
            ..Self::default()
        };
        let mut members: Vec<u32> = Vec::new();
        for &g in &goal_literals {
            match &labels[g as usize] {
                Some(label) => members.extend_from_slice(label),
                None => graph.unsolvable = true,
            }
        }
        if graph.unsolvable {
            return Ok(graph);
        }
        members.sort_unstable();
        members.dedup();
        for &l in &members {
            let id = u32::try_from(graph.landmarks.len()).unwrap_or(u32::MAX);
            graph.by_literal[l as usize] = Some(id);
            graph.landmarks.push(Landmark {
                atom: (l / 2) as usize,
                value: l % 2 == 1,
                is_goal: goal_literals.contains(&l),
                achievers: {
                    let mut ids: Vec<ActionId> = achievers[l as usize]
                        .iter()
                        .map(|&a| action_of[a as usize])
                        .collect();
                    ids.dedup();
                    ids
                },
            });
        }
        let ordering_bytes = std::mem::size_of::<(usize, usize, Ordering)>();
        meter.bytes += graph.heap_bytes();
        meter.check()?;
        for &l in &members {
            let orderings = graph.orderings.len();
            graph.order_before(l, &labels, &achievers, &pre);
            meter.bytes += (graph.orderings.len() - orderings) * ordering_bytes;
            meter.check()?;
        }
        graph.orderings.sort_unstable();
        graph.orderings.dedup();
        Ok(graph)
    }

    /// The orderings into the landmark of literal `l`: natural from its
    /// label, greedy-necessary from the preconditions its achievers share.
    fn order_before(
        &mut self,
        l: u32,
        labels: &[Option<Vec<u32>>],
        achievers: &[Vec<u32>],
        pre: &[Vec<u32>],
    ) {
        let to = self.id(l);
        for &k in labels[l as usize].iter().flatten() {
            if k != l {
                self.orderings.push((self.id(k), to, Ordering::Natural));
            }
        }
        // Preconditions shared by every achiever that can fire in the
        // relaxation. A literal true at the start has no first achiever.
        if labels[l as usize].as_ref().is_some_and(|x| x.len() > 1) {
            let mut shared: Option<Vec<u32>> = None;
            for &a in &achievers[l as usize] {
                let p = &pre[a as usize];
                if p.iter().all(|&q| labels[q as usize].is_some()) {
                    let mut sorted = p.clone();
                    sorted.sort_unstable();
                    shared = Some(match shared {
                        None => sorted,
                        Some(s) => intersect(&s, &sorted),
                    });
                }
            }
            for k in shared.into_iter().flatten() {
                if k != l {
                    if let Some(from) = self.by_literal[k as usize] {
                        self.orderings
                            .push((from as usize, to, Ordering::GreedyNecessary));
                    }
                }
            }
        }
    }

    fn id(&self, literal: u32) -> usize {
        self.by_literal[literal as usize].map_or(usize::MAX, |i| i as usize)
    }

    /// The bytes the graph holds on the heap: landmarks with their
    /// achievers, orderings, and the literal index.
    pub fn heap_bytes(&self) -> usize {
        use crate::vec_bytes;
        vec_bytes(&self.landmarks)
            + self
                .landmarks
                .iter()
                .map(|l| vec_bytes(&l.achievers))
                .sum::<usize>()
            + vec_bytes(&self.orderings)
            + vec_bytes(&self.by_literal)
    }

    /// The landmarks, ordered by atom and then value (false first).
    pub fn landmarks(&self) -> &[Landmark] {
        &self.landmarks
    }

    /// The orderings, as `(before, after, kind)` indices into
    /// [`landmarks`](Self::landmarks); both a natural and a greedy-necessary
    /// ordering may join the same two landmarks.
    pub fn orderings(&self) -> &[(usize, usize, Ordering)] {
        &self.orderings
    }

    /// The index of the landmark `atom = value`, if it is one.
    pub fn find(&self, atom: usize, value: bool) -> Option<usize> {
        self.by_literal
            .get(2 * atom + usize::from(value))
            .copied()
            .flatten()
            .map(|i| i as usize)
    }

    /// Whether some goal literal is unreachable even in the delete
    /// relaxation: no plan exists (and there are no landmarks).
    pub fn is_unsolvable(&self) -> bool {
        self.unsolvable
    }
}

/// Zhu and Givan's labels of every literal reached from `start`; `None`
/// for a literal unreachable in the relaxation.
fn propagate<B: Bits>(
    atoms: usize,
    start: &WorldState<B>,
    pre: &[Vec<u32>],
    eff: &[Vec<u32>],
    users: &[Vec<u32>],
    meter: &mut Meter,
) -> Result<Vec<Option<Vec<u32>>>, Stopped> {
    let mut labels: Vec<Option<Vec<u32>>> = vec![None; 2 * atoms];
    for atom in 0..atoms {
        let l = 2 * atom + usize::from(start.as_bits().get(atom));
        labels[l] = Some(vec![u32::try_from(l).unwrap_or(u32::MAX)]);
    }
    meter.bytes += LABEL_BYTES * labels.len() + 4 * atoms + pre.len() * 9;
    let mut queued = vec![true; pre.len()];
    let mut queue: VecDeque<usize> = (0..pre.len()).collect();
    let mut label = Vec::new();
    let mut popped: u32 = 0;
    while let Some(a) = queue.pop_front() {
        if popped.is_multiple_of(1024) && meter.past_deadline() {
            return Err(Stopped::Deadline);
        }
        popped = popped.wrapping_add(1);
        queued[a] = false;
        if !pre[a].iter().all(|&p| labels[p as usize].is_some()) {
            continue;
        }
        label.clear();
        for &p in &pre[a] {
            label.extend(labels[p as usize].iter().flatten().copied());
        }
        label.sort_unstable();
        label.dedup();
        for &e in &eff[a] {
            let changed = match &mut labels[e as usize] {
                Some(old) => {
                    let mut with_e = label.clone();
                    if let Err(at) = with_e.binary_search(&e) {
                        with_e.insert(at, e);
                    }
                    let new = intersect(old, &with_e);
                    let changed = new.len() != old.len();
                    meter.bytes -= 4 * (old.len() - new.len());
                    *old = new;
                    changed
                }
                slot @ None => {
                    let mut new = label.clone();
                    if let Err(at) = new.binary_search(&e) {
                        new.insert(at, e);
                    }
                    meter.bytes += 4 * new.len();
                    meter.check()?;
                    *slot = Some(new);
                    true
                }
            };
            if changed {
                for &u in &users[e as usize] {
                    if !queued[u as usize] {
                        queued[u as usize] = true;
                        queue.push_back(u as usize);
                    }
                }
            }
        }
    }
    Ok(labels)
}

/// The bytes of one literal's label slot, before its literals.
const LABEL_BYTES: usize = std::mem::size_of::<Option<Vec<u32>>>();

/// What landmark generation may spend: time until `deadline`, and at most
/// `max_bytes` in its tables and labels (`None`: no limit).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Allowance {
    /// When generation gives up.
    pub deadline: Option<Instant>,
    /// The most its tables and labels may hold.
    pub max_bytes: Option<usize>,
}

/// Why landmark generation gave up before its fixed point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Stopped {
    /// The allowance's deadline passed.
    Deadline,
    /// The tables and labels would hold `bytes`, more than the allowance.
    Memory {
        /// What they would have held when generation stopped.
        bytes: usize,
    },
}

/// Generation's spending against its allowance.
struct Meter {
    allowance: Allowance,
    bytes: usize,
}

impl Meter {
    fn check(&self) -> Result<(), Stopped> {
        match self.allowance.max_bytes {
            Some(max) if self.bytes > max => Err(Stopped::Memory { bytes: self.bytes }),
            _ => Ok(()),
        }
    }

    fn past_deadline(&self) -> bool {
        self.allowance
            .deadline
            .is_some_and(|deadline| Instant::now() >= deadline)
    }
}

/// The intersection of two sorted lists.
fn intersect(a: &[u32], b: &[u32]) -> Vec<u32> {
    let (mut i, mut j) = (0, 0);
    let mut out = Vec::with_capacity(a.len().min(b.len()));
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                out.push(a[i]);
                i += 1;
                j += 1;
            }
        }
    }
    out
}
