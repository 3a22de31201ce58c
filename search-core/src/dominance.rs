//! Dominance pruning: skipping a node when a node reached earlier is at
//! least as good.

/// Decides whether a newly stored node may be skipped because the search
/// has already reached a node that *dominates* it: a node `t` dominates `s`
/// when every path from `s` to a goal is also a path from `t` to a goal, of
/// no greater cost. A node dominated by a node reached at no greater path
/// cost can wait: an optimal plan through it has an optimal twin through the
/// dominating node, so the optimal algorithms stay optimal.
///
/// The engine calls [`is_dominated`](Dominance::is_dominated) once for each
/// node it stores, with the node's path cost, and again with the new cost
/// when a cheaper path reaches a skipped node. An implementation answers
/// `true` only if a node it answered `false` for earlier, at a path cost no
/// greater than `g`, dominates `node` (domination is transitive, so the
/// nodes it skipped need not be remembered). A skipped node is neither
/// evaluated nor expanded unless a later call accepts it; skipped nodes are
/// counted in [`Statistics::dominated`](crate::Statistics::dominated).
///
/// Breadth-first search ignores dominance (it orders by edges, not cost).
///
/// ```
/// use search_core::{Algorithm, Dominance, Search, SearchSpace};
///
/// /// Mine a coin (cost 2) or rest (cost 1); the goal is 6 coins. A node
/// /// counts the turns too, so resting reaches new nodes forever.
/// struct Mine;
/// impl SearchSpace for Mine {
///     type Node = (u32, u32); // (coins, turns)
///     type Action = &'static str;
///     type Cost = u32;
///     fn is_goal(&self, n: &(u32, u32)) -> bool { n.0 >= 6 }
///     fn successors<F: FnMut(&'static str, (u32, u32), u32)>(&self, n: &(u32, u32), mut emit: F) {
///         emit("mine", (n.0 + 1, n.1 + 1), 2);
///         emit("rest", (n.0, n.1 + 1), 1);
///     }
/// }
///
/// /// Turns do not matter and more coins are never worse, so a node with at
/// /// least as many coins, reached as cheaply, dominates.
/// #[derive(Default)]
/// struct Richer(Vec<(u32, u32)>);
/// impl Dominance<(u32, u32), u32> for Richer {
///     fn is_dominated(&mut self, node: &(u32, u32), g: u32) -> bool {
///         if self.0.iter().any(|&(coins, cost)| coins >= node.0 && cost <= g) {
///             return true;
///         }
///         self.0.push((node.0, g));
///         false
///     }
/// }
///
/// let plain = Search::new(&Mine, (0, 0)).algorithm(Algorithm::Dijkstra).run().unwrap();
/// let pruned = Search::new(&Mine, (0, 0))
///     .algorithm(Algorithm::Dijkstra)
///     .dominance(Richer::default())
///     .run()
///     .unwrap();
/// assert_eq!(plain.outcome.solution().unwrap().cost, 12);
/// assert_eq!(pruned.outcome.solution().unwrap().cost, 12);
/// assert_eq!(pruned.stats.expanded, 7); // (0, 0), (1, 1), ..., (6, 6)
/// assert!(plain.stats.expanded > 40);
/// ```
pub trait Dominance<N, C> {
    /// Whether `node`, stored at path cost `g`, is dominated by a node this
    /// pruner accepted at a path cost no greater than `g`. A node it does not
    /// call dominated counts as accepted.
    fn is_dominated(&mut self, node: &N, g: C) -> bool;
}

impl<N, C, D: Dominance<N, C> + ?Sized> Dominance<N, C> for &mut D {
    fn is_dominated(&mut self, node: &N, g: C) -> bool {
        (**self).is_dominated(node, g)
    }
}

impl<N, C, D: Dominance<N, C> + ?Sized> Dominance<N, C> for Box<D> {
    fn is_dominated(&mut self, node: &N, g: C) -> bool {
        (**self).is_dominated(node, g)
    }
}
