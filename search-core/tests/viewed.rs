//! `Viewed` passes every method of `Heuristic` through to the heuristic it
//! wraps, the node read through the view: a method it forgot would leave a
//! path-dependent heuristic deaf (the landmark count proved false dead ends
//! on packed PDDL states that way), a memory table uncounted, a deadline
//! or a memory budget unheard.

use std::time::Instant;

use search_core::{Estimate, Heuristic, Viewed};

/// Records what reaches it.
#[derive(Default)]
struct Recorder {
    estimated: Vec<i32>,
    transitions: Vec<(i32, i32)>,
    preferred: Vec<(i32, i32)>,
    deadline: Option<Instant>,
    budget: Option<usize>,
}

impl Heuristic<i32, u32> for Recorder {
    fn estimate(&mut self, node: &i32) -> Estimate<u32> {
        self.estimated.push(*node);
        Estimate::DeadEnd
    }
    fn is_admissible(&self) -> bool {
        false
    }
    fn is_consistent(&self) -> bool {
        true
    }
    fn dead_ends_are_reliable(&self) -> bool {
        true
    }
    fn notify_transition(&mut self, parent: &i32, child: &i32) {
        self.transitions.push((*parent, *child));
    }
    fn is_preferred(&mut self, parent: &i32, child: &i32) -> bool {
        self.preferred.push((*parent, *child));
        true
    }
    fn memory_bytes(&self) -> usize {
        77
    }
    fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
    }
    fn set_memory_budget(&mut self, bytes: Option<usize>) {
        self.budget = bytes;
    }
}

#[test]
fn every_method_reaches_the_wrapped_heuristic_through_the_view() {
    let mut h = Viewed::new(Recorder::default(), |n: &(i32, &str)| n.0);
    let now = Instant::now();
    assert_eq!(h.estimate(&(1, "a")), Estimate::DeadEnd);
    assert!(!h.is_admissible());
    assert!(h.is_consistent());
    assert!(h.dead_ends_are_reliable());
    h.notify_transition(&(1, "a"), &(2, "b"));
    assert!(h.is_preferred(&(2, "b"), &(3, "c")));
    assert_eq!(h.memory_bytes(), 77);
    h.set_deadline(Some(now));
    h.set_memory_budget(Some(1234));
    let recorder = h.into_inner();
    assert_eq!(recorder.estimated, [1]);
    assert_eq!(recorder.transitions, [(1, 2)]);
    assert_eq!(recorder.preferred, [(2, 3)]);
    assert_eq!(recorder.deadline, Some(now));
    assert_eq!(recorder.budget, Some(1234));
}
