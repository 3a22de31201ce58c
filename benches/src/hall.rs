//! A generated PDDL task of any number of facts: a robot in a corridor of
//! rooms and a hall of lamps that must stay lit. With more than 32,768
//! lamps it lies beyond the widest fixed-width state.

/// The domain and problem text of a robot that walks a corridor of `rooms`
/// rooms (at least 9), both ways, and may slide from room 2 down to room
/// 6, while `lamps` lamps stay lit (the goal wants them lit, and a
/// `blackout` action would put them all out for good).
///
/// The lamps' facts are the initial state's, so they come first: with
/// more than 32,768 lamps, every fact of the robot's lies beyond the
/// widest fixed-width state. From room 0 to room 8 the slide saves three
/// steps: the optimal plan is walk r0 r1, walk r1 r2, slide r2 r6, walk
/// r6 r7, walk r7 r8, cost [`HALL_OPTIMUM`].
///
/// ```
/// let (domain, problem) = benches::hall::hall(2, 9);
/// assert!(domain.contains("(:constants l0 l1 - lamp)"));
/// assert!(problem.contains("(:goal (and (at r8) (lit l0) (lit l1)))"));
/// ```
pub fn hall(lamps: usize, rooms: usize) -> (String, String) {
    let lit = each(lamps, |l| format!(" (lit l{l})"));
    let domain = format!(
        "(define (domain hall) (:requirements :strips :typing)
  (:types room lamp)
  (:constants{} - lamp)
  (:predicates (at ?r - room) (next ?a ?b - room) (slide ?a ?b - room) (lit ?l - lamp))
  (:action walk :parameters (?a ?b - room)
    :precondition (and (at ?a) (next ?a ?b))
    :effect (and (at ?b) (not (at ?a))))
  (:action slide :parameters (?a ?b - room)
    :precondition (and (at ?a) (slide ?a ?b))
    :effect (and (at ?b) (not (at ?a))))
  (:action blackout :parameters () :effect (and{})))",
        each(lamps, |l| format!(" l{l}")),
        each(lamps, |l| format!(" (not (lit l{l}))")),
    );
    let doors = each(rooms.saturating_sub(1), |r| {
        format!(" (next r{r} r{}) (next r{} r{r})", r + 1, r + 1)
    });
    let problem = format!(
        "(define (problem hall) (:domain hall) (:objects{} - room)
  (:init{lit}{doors} (slide r2 r6) (at r0))
  (:goal (and (at r8){lit})))",
        each(rooms, |r| format!(" r{r}")),
    );
    (domain, problem)
}

/// `item(i)` for each `i` below `n`, one after the other.
fn each(n: usize, item: impl Fn(usize) -> String) -> String {
    let mut out = String::new();
    for i in 0..n {
        out.push_str(&item(i));
    }
    out
}

/// The optimal cost of [`hall`]'s task.
pub const HALL_OPTIMUM: u64 = 5;
