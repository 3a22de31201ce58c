//! LM-cut heeds the search's deadline: past it, an estimate stops after its
//! round with the cuts so far, still a lower bound (issue 27: regression
//! with LM-cut ran 37 s past a 1 s limit).

use std::time::{Duration, Instant};

use search_core::{Estimate, Heuristic};
use state_atomic::{ActionSet, LmCut, LmCutRegression};

/// Eight goal atoms, each made by an action of its own at cost 1: LM-cut
/// takes one round per atom.
fn eight_chores() -> ActionSet<u64> {
    let mut actions = ActionSet::<u64>::new();
    for k in 0..8 {
        actions
            .add_action(&format!("do{k}"), 1)
            .eff(&format!("done{k}"), true);
    }
    actions
}

#[test]
fn a_passed_deadline_stops_after_one_round() {
    let actions = eight_chores();
    let names: Vec<String> = (0..8).map(|k| format!("done{k}")).collect();
    let goal = actions
        .partial(names.iter().map(|n| (n.as_str(), true)))
        .unwrap();
    let start = actions.state(std::iter::empty::<&str>()).unwrap();

    let mut full = LmCut::new(&actions, goal);
    assert_eq!(full.estimate(&start), Estimate::Value(8));
    let mut hurried = LmCut::new(&actions, goal);
    hurried.set_deadline(Some(Instant::now()));
    assert_eq!(hurried.estimate(&start), Estimate::Value(1));
    hurried.set_deadline(Some(Instant::now() + Duration::from_secs(3600)));
    assert_eq!(hurried.estimate(&start), Estimate::Value(8));

    let mut regression = LmCutRegression::new(&actions, start, goal);
    regression.set_deadline(Some(Instant::now()));
    assert_eq!(regression.estimate(&goal), Estimate::Value(1));
    regression.set_deadline(None);
    assert_eq!(regression.estimate(&goal), Estimate::Value(8));
}
