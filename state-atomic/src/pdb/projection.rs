//! One pattern database: the task projected onto a few variables, and the
//! goal distance of every abstract state, by Dijkstra backward from the
//! abstract goal states.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::variables::{Fact, Variables};

/// An abstract state the goal cannot be reached from.
pub(crate) const UNREACHABLE: u32 = u32::MAX;

/// The most regression operators one projection may hold: an operator
/// that sets variables without asking for their values is one regression
/// operator per value combination, which can multiply.
const MAX_REGRESSION_OPERATORS: usize = 1 << 22;

/// An operator read backward: it reaches an abstract state that matches
/// `conditions` (each `(position, value)`: the state's digit there), from
/// the state `offset` away.
struct Regression {
    conditions: Vec<(usize, u32)>,
    offset: isize,
    cost: u32,
}

impl Regression {
    fn matches(&self, digits: &[u32]) -> bool {
        self.conditions.iter().all(|&(p, value)| digits[p] == value)
    }
}

/// The goal distances of the abstract states of one pattern (a set of
/// variables), indexed in mixed radix: the pattern's `k`-th variable is
/// the `k`-th digit.
#[derive(Clone, Debug)]
pub(crate) struct PatternDatabase {
    /// The variables, increasing.
    pub(crate) pattern: Vec<u32>,
    multipliers: Vec<usize>,
    distances: Vec<u32>,
}

impl PatternDatabase {
    /// The database of `pattern` (distinct variables of `task`), or `None`
    /// if it would have more than `max_size` entries (or its operators
    /// would multiply beyond a bound of their own).
    pub(crate) fn new(task: &Variables, pattern: &[u32], max_size: usize) -> Option<Self> {
        let mut pattern = pattern.to_vec();
        pattern.sort_unstable();
        pattern.dedup();
        let mut multipliers = Vec::with_capacity(pattern.len());
        let mut size: usize = 1;
        for &v in &pattern {
            multipliers.push(size);
            size = size.checked_mul(task.domain(v as usize))?;
        }
        if size > max_size {
            return None;
        }
        let mut database = Self {
            pattern,
            multipliers,
            distances: vec![UNREACHABLE; size],
        };
        let operators = database.regression_operators(task)?;
        database.search_backward(task, &operators);
        Some(database)
    }

    /// How many abstract states there are.
    pub(crate) fn size(&self) -> usize {
        self.distances.len()
    }

    /// The position of variable `v` in the pattern.
    fn position(&self, v: u32) -> Option<usize> {
        self.pattern.binary_search(&v).ok()
    }

    /// The facts of `facts` on the pattern's variables, as
    /// `(position, value)`.
    fn project(&self, facts: &[Fact]) -> Vec<(usize, u32)> {
        facts
            .iter()
            .filter_map(|&(v, value)| Some((self.position(v)?, value)))
            .collect()
    }

    /// Every operator that changes a pattern variable, read backward; an
    /// operator that sets a variable without asking for its value becomes
    /// one regression operator per value it may have had.
    fn regression_operators(&self, task: &Variables) -> Option<Vec<Regression>> {
        let mut out = Vec::new();
        for op in &task.operators {
            let eff = self.project(&op.eff);
            if eff.is_empty() {
                continue;
            }
            let pre = self.project(&op.pre);
            let before = |p: usize| pre.iter().find(|&&(q, _)| q == p).map(|&(_, x)| x);
            let mut conditions = Vec::new();
            for &(p, value) in &pre {
                if !eff.iter().any(|&(q, _)| q == p) {
                    conditions.push((p, value));
                }
            }
            conditions.extend(eff.iter().copied());
            // Each free variable's possible earlier values, multiplied out.
            let mut offsets: Vec<isize> = vec![0];
            for &(p, value) in &eff {
                let m = isize::try_from(self.multipliers[p]).ok()?;
                let after = isize::try_from(value).ok()?;
                let earlier: Vec<isize> = match before(p) {
                    Some(x) => vec![isize::try_from(x).ok()?],
                    None => (0..self.domain(task, p))
                        .map(isize::try_from)
                        .collect::<Result<_, _>>()
                        .ok()?,
                };
                offsets = offsets
                    .iter()
                    .flat_map(|&o| earlier.iter().map(move |&x| o + (x - after) * m))
                    .collect();
                if out.len() + offsets.len() > MAX_REGRESSION_OPERATORS {
                    return None;
                }
            }
            for offset in offsets.into_iter().filter(|&o| o != 0) {
                out.push(Regression {
                    conditions: conditions.clone(),
                    offset,
                    cost: op.cost,
                });
            }
        }
        Some(out)
    }

    fn domain(&self, task: &Variables, p: usize) -> usize {
        task.domain(self.pattern[p] as usize)
    }

    /// Dijkstra from every abstract goal state along the operators read
    /// backward. Zero-cost operators need nothing special: a state is
    /// settled when popped at its distance.
    fn search_backward(&mut self, task: &Variables, operators: &[Regression]) {
        let Some(goal) = &task.goal else {
            return;
        };
        let goal: Vec<(usize, usize, usize)> = self
            .project(goal)
            .into_iter()
            .map(|(p, value)| (self.multipliers[p], self.domain(task, p), value as usize))
            .collect();
        // Operators by their first condition's variable and value, so a
        // state looks only at those whose first condition it meets.
        let mut by_first: Vec<Vec<Vec<usize>>> = (0..self.pattern.len())
            .map(|p| vec![Vec::new(); self.domain(task, p)])
            .collect();
        for (k, op) in operators.iter().enumerate() {
            if let Some(&(p, value)) = op.conditions.first() {
                by_first[p][value as usize].push(k);
            }
        }
        let mut queue = BinaryHeap::new();
        for index in 0..self.size() {
            if goal
                .iter()
                .all(|&(multiplier, domain, value)| index / multiplier % domain == value)
            {
                self.distances[index] = 0;
                queue.push(Reverse((0, index)));
            }
        }
        let mut digits = vec![0_u32; self.pattern.len()];
        while let Some(Reverse((distance, index))) = queue.pop() {
            if distance > self.distances[index] {
                continue;
            }
            let mut rest = index;
            for (digit, buckets) in digits.iter_mut().zip(&by_first) {
                *digit = u32::try_from(rest % buckets.len()).unwrap_or(u32::MAX);
                rest /= buckets.len();
            }
            for (p, buckets) in by_first.iter().enumerate() {
                for &k in &buckets[digits[p] as usize] {
                    let op = &operators[k];
                    if !op.matches(&digits) {
                        continue;
                    }
                    let Some(before) = index.checked_add_signed(op.offset) else {
                        continue;
                    };
                    let through = distance.saturating_add(op.cost).min(UNREACHABLE - 1);
                    if through < self.distances[before] {
                        self.distances[before] = through;
                        queue.push(Reverse((through, before)));
                    }
                }
            }
        }
    }

    /// The abstract state of the variable values `values` (one per task
    /// variable).
    pub(crate) fn index(&self, values: &[u32]) -> usize {
        self.pattern
            .iter()
            .zip(&self.multipliers)
            .map(|(&v, &m)| values[v as usize] as usize * m)
            .sum()
    }

    /// The goal distance of the abstract state of `values`, or
    /// [`UNREACHABLE`].
    pub(crate) fn distance(&self, values: &[u32]) -> u32 {
        self.distances[self.index(values)]
    }

    /// The heap bytes of the table.
    pub(crate) fn heap_bytes(&self) -> usize {
        crate::vec_bytes(&self.distances)
            + crate::vec_bytes(&self.multipliers)
            + crate::vec_bytes(&self.pattern)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ActionSet;

    #[test]
    fn distances_follow_zero_cost_actions_backward() {
        let mut actions = ActionSet::<u64>::new();
        actions
            .add_action("ab", 0)
            .pre("at_a", true)
            .eff("at_a", false)
            .eff("at_b", true);
        actions
            .add_action("bc", 3)
            .pre("at_b", true)
            .eff("at_b", false)
            .eff("at_c", true);
        actions.set_mutex_groups([vec![0, 1, 2]]).unwrap();
        let goal = actions.partial([("at_c", true)]).unwrap();
        let task = Variables::new(&actions, &goal);
        let database = PatternDatabase::new(&task, &[0], 100).unwrap();
        assert_eq!(database.size(), 4);
        let distances: Vec<u32> = (0..4).map(|x| database.distance(&[x])).collect();
        assert_eq!(distances, [3, 3, 0, UNREACHABLE]);
        assert!(PatternDatabase::new(&task, &[0], 3).is_none());
    }
}
