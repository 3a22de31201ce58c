//! Which changing fluents a numeric task keeps: those the goal, an
//! operator's condition or cost reads, and, through effects, those that
//! feed a kept fluent. Effects on the rest are dropped (a fluent only
//! ever increased and never read, like a cost counter outside the metric,
//! would only split equal states), and the kept ones are numbered from 0
//! in the order of their names.

use super::numeric::NumericGrounding;
use super::GroundTask;
use crate::numeric::LinearCondition;

/// Keeps the fluents read (see the module) in `task`, with the goal's
/// numeric conditions `goal`; a task without fluents left has no numeric
/// part.
pub(super) fn keep_read_fluents(
    task: &mut GroundTask,
    numeric: &NumericGrounding<'_>,
    goal: Vec<LinearCondition>,
    mut clauses: Vec<Vec<LinearCondition>>,
) {
    let mut read = vec![false; numeric.len()];
    let mark = |expr: &crate::LinearExpr, read: &mut [bool]| {
        let mut grew = false;
        for f in expr.fluents() {
            grew |= !read[f as usize];
            read[f as usize] = true;
        }
        grew
    };
    for c in goal.iter().chain(clauses.iter().flatten()) {
        mark(&c.expr, &mut read);
    }
    for n in task.operators.iter().filter_map(|o| o.numeric.as_deref()) {
        for c in &n.conditions {
            mark(&c.expr, &mut read);
        }
        if let Some(cost) = &n.cost {
            mark(cost, &mut read);
        }
    }
    let mut grew = true;
    while grew {
        grew = false;
        for n in task.operators.iter().filter_map(|o| o.numeric.as_deref()) {
            for e in &n.effects {
                if read[e.fluent() as usize] {
                    grew |= mark(e.expr(), &mut read);
                }
            }
        }
    }
    // Numbered in the order of their names, not as grounding met them, so
    // that the order of `:init` values and objects in the files reaches no
    // search (as facts and operators are numbered).
    let mut kept: Vec<usize> = (0..read.len()).filter(|&i| read[i]).collect();
    kept.sort_by_cached_key(|&i| numeric.name(i));
    let mut renumbered: Vec<Option<u32>> = vec![None; read.len()];
    for (new, &old) in kept.iter().enumerate() {
        renumbered[old] = Some(u32::try_from(new).unwrap_or(u32::MAX));
    }
    for o in &mut task.operators {
        let Some(n) = o.numeric.as_deref_mut() else {
            continue;
        };
        n.effects.retain(|e| read[e.fluent() as usize]);
        for e in &mut n.effects {
            *e.fluent_mut() = renumbered[e.fluent() as usize].unwrap_or(u32::MAX);
            e.expr_mut().renumbered(&renumbered);
        }
        n.effects.sort_by_key(crate::numeric::NumericEffect::fluent);
        for c in &mut n.conditions {
            c.expr.renumbered(&renumbered);
        }
        if let Some(cost) = &mut n.cost {
            cost.renumbered(&renumbered);
        }
        if n.effects.is_empty() && n.conditions.is_empty() && n.cost.is_none() {
            o.numeric = None;
        }
    }
    // Operators left with no effect at all change nothing.
    task.operators.retain(|o| {
        !o.add.is_empty()
            || !o.del.is_empty()
            || !o.effects.is_empty()
            || o.numeric.as_ref().is_some_and(|n| !n.effects.is_empty())
    });
    let mut goal = goal;
    for c in goal.iter_mut().chain(clauses.iter_mut().flatten()) {
        c.expr.renumbered(&renumbered);
    }
    task.stats.fluents = kept.len();
    task.numeric = (!kept.is_empty()).then(|| Box::new(numeric.fluents(&kept, goal, clauses)));
}
