//! `h_FF`: the cost of a relaxed plan extracted from `h_add`'s best
//! supporters. Informative, not admissible.
//!
//! The exploration is `h_add`'s, which records each literal's best
//! supporter as it settles; what is `h_FF`'s own is reading the plan back
//! from the goal, counting each action once however many literals it
//! supports.

use super::costs::{to_u32, Relaxation, NONE};
use crate::Bits;

/// The scratch of a relaxed plan's extraction.
#[derive(Clone, Debug)]
pub(super) struct RelaxedPlan {
    /// Relaxed actions (parts) already in the plan, and their list (to
    /// unmark them).
    marked: Vec<bool>,
    marked_list: Vec<u32>,
    /// Actions whose cost the plan counts: an action with conditional
    /// effects is one relaxed action per effect, but is paid once.
    charged: Vec<bool>,
    /// Literals still to support.
    stack: Vec<u32>,
    /// The actions of the last plan extracted, for helpful actions.
    pub(super) last: Vec<u32>,
}

impl RelaxedPlan {
    pub(super) fn heap_bytes(&self) -> usize {
        use crate::vec_bytes;
        vec_bytes(&self.marked)
            + vec_bytes(&self.marked_list)
            + vec_bytes(&self.charged)
            + vec_bytes(&self.stack)
            + vec_bytes(&self.last)
    }

    /// Scratch for a task of `parts` relaxed actions made of `actions`
    /// actions.
    pub(super) fn new(parts: usize, actions: usize) -> Self {
        Self {
            marked: vec![false; parts],
            marked_list: Vec::new(),
            charged: vec![false; actions],
            stack: Vec::new(),
            last: Vec::new(),
        }
    }
}

impl<B: Bits> Relaxation<B> {
    /// The cost of the relaxed plan that follows best supporters back from
    /// `goal`; literals true at the start have no supporter.
    pub(super) fn relaxed_plan_cost(&mut self, goal: &[u32]) -> u64 {
        let plan = &mut self.plan;
        let mut total: u64 = 0;
        plan.stack.clear();
        plan.stack.extend_from_slice(goal);
        plan.last.clear();
        while let Some(l) = plan.stack.pop() {
            let a = self.supporter[l as usize];
            if a == NONE || plan.marked[a as usize] {
                continue;
            }
            let a = a as usize;
            plan.marked[a] = true;
            plan.marked_list.push(to_u32(a));
            let action = self.action_of[a];
            if !std::mem::replace(&mut plan.charged[action as usize], true) {
                plan.last.push(action);
                total = total.saturating_add(self.cost[a]);
            }
            for k in self.pre_start[a] as usize..self.pre_start[a + 1] as usize {
                let p = self.pre[k];
                plan.stack.push(p);
            }
        }
        for &a in &plan.marked_list {
            plan.marked[a as usize] = false;
        }
        for &action in &plan.last {
            plan.charged[action as usize] = false;
        }
        plan.marked_list.clear();
        total
    }
}
