//! A road-like sparse graph for the closure and bidirectional benches.

use crate::grid::SplitMix64;

/// A road network: junctions on a jittered lattice, most neighbouring
/// junctions joined, a few long highways; costs are lengths (rounded up),
/// so the straight-line distance (rounded down) never overestimates.
pub struct Roads {
    /// Each junction's place.
    pub at: Vec<(f64, f64)>,
    /// The streets out of each junction: `(junction, length)`; every
    /// street goes both ways at the same length.
    pub edges: Vec<Vec<(u32, u32)>>,
    /// The junction reachable from junction 0 that lies farthest from it.
    pub goal: u32,
}

/// A distance in whole units, `round`ed (`f64::ceil` or `f64::floor`).
#[expect(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "distances are positive and below 2^32"
)]
fn whole(a: (f64, f64), b: (f64, f64), round: fn(f64) -> f64) -> u32 {
    round((a.0 - b.0).hypot(a.1 - b.1)) as u32
}

impl Roads {
    /// A network of `side * side` junctions drawn from `seed`.
    ///
    /// # Panics
    /// If `side * side` does not fit `u32`.
    pub fn new(side: u32, seed: u64) -> Self {
        let mut rng = SplitMix64::new(seed);
        let n = side * side;
        let at: Vec<(f64, f64)> = (0..n)
            .map(|k| {
                let (x, y) = (f64::from(k % side), f64::from(k / side));
                (
                    100.0 * x + 60.0 * rng.next_f64(),
                    100.0 * y + 60.0 * rng.next_f64(),
                )
            })
            .collect();
        let mut edges = vec![Vec::new(); n as usize];
        let join = |a: u32, b: u32, edges: &mut Vec<Vec<(u32, u32)>>| {
            let length = whole(at[a as usize], at[b as usize], f64::ceil);
            edges[a as usize].push((b, length));
            edges[b as usize].push((a, length));
        };
        for k in 0..n {
            if k % side + 1 < side && rng.next_f64() < 0.8 {
                join(k, k + 1, &mut edges);
            }
            if k / side + 1 < side && rng.next_f64() < 0.8 {
                join(k, k + side, &mut edges);
            }
        }
        let pick = |rng: &mut SplitMix64| u32::try_from(rng.below(n as usize)).expect("small");
        for _ in 0..n / 100 {
            let (a, b) = (pick(&mut rng), pick(&mut rng));
            if a != b {
                join(a, b, &mut edges);
            }
        }
        // The goal: the junction reachable from 0 that is farthest away.
        let mut reached = vec![false; n as usize];
        let mut stack = vec![0_u32];
        reached[0] = true;
        let mut goal = 0;
        let far = |k: u32| at[k as usize].0 + at[k as usize].1;
        while let Some(k) = stack.pop() {
            if far(k) > far(goal) {
                goal = k;
            }
            for &(next, _) in &edges[k as usize] {
                if !std::mem::replace(&mut reached[next as usize], true) {
                    stack.push(next);
                }
            }
        }
        Self { at, edges, goal }
    }

    /// The straight-line distance from junction `k` to the goal, rounded
    /// down: never more than the length of a path.
    pub fn distance(&self, k: u32) -> u32 {
        self.distance_between(k, self.goal)
    }

    /// The straight-line distance between junctions `a` and `b`, rounded
    /// down.
    pub fn distance_between(&self, a: u32, b: u32) -> u32 {
        whole(self.at[a as usize], self.at[b as usize], f64::floor)
    }
}
