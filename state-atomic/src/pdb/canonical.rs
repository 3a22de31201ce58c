//! The canonical heuristic of a pattern collection (Haslum, Botea,
//! Helmert, Bonet and Koenig 2007): patterns are additive when no operator
//! changes variables of both, and the estimate is the largest sum of
//! database values over the maximal sets of pairwise additive patterns
//! (maximal cliques of the additivity graph).

use super::projection::UNREACHABLE;
use super::variables::Variables;

/// The operators that change some variable of `pattern`, as a bitset over
/// the task's operators.
pub(crate) fn affecting(task: &Variables, pattern: &[u32]) -> Vec<u64> {
    let mut bits = vec![0_u64; task.operators.len().div_ceil(64)];
    for (k, op) in task.operators.iter().enumerate() {
        if op.eff.iter().any(|(v, _)| pattern.contains(v)) {
            bits[k / 64] |= 1 << (k % 64);
        }
    }
    bits
}

/// Whether two patterns, given by the operators that change them, are
/// additive: no operator changes both.
pub(crate) fn additive(a: &[u64], b: &[u64]) -> bool {
    a.iter().zip(b).all(|(x, y)| x & y == 0)
}

/// The maximal cliques of the additivity graph over patterns whose
/// changing operators are `affecting`, each a list of pattern indices.
pub(crate) fn maximal_cliques(affecting: &[Vec<u64>]) -> Vec<Vec<usize>> {
    let n = affecting.len();
    let neighbours: Vec<Vec<usize>> = (0..n)
        .map(|i| {
            (0..n)
                .filter(|&j| j != i && additive(&affecting[i], &affecting[j]))
                .collect()
        })
        .collect();
    let mut cliques = Vec::new();
    let mut clique = Vec::new();
    bron_kerbosch(
        &neighbours,
        &mut clique,
        (0..n).collect(),
        Vec::new(),
        &mut cliques,
    );
    cliques
}

/// Bron and Kerbosch's enumeration with a pivot: every maximal clique
/// that extends `clique` by members of `candidates` and none of
/// `excluded`.
fn bron_kerbosch(
    neighbours: &[Vec<usize>],
    clique: &mut Vec<usize>,
    mut candidates: Vec<usize>,
    mut excluded: Vec<usize>,
    cliques: &mut Vec<Vec<usize>>,
) {
    if candidates.is_empty() {
        if excluded.is_empty() {
            cliques.push(clique.clone());
        }
        return;
    }
    let Some(&pivot) = candidates
        .iter()
        .chain(&excluded)
        .max_by_key(|&&u| neighbours[u].len())
    else {
        return;
    };
    let branch: Vec<usize> = candidates
        .iter()
        .copied()
        .filter(|v| !neighbours[pivot].contains(v))
        .collect();
    for v in branch {
        let keep = |list: &[usize]| -> Vec<usize> {
            list.iter()
                .copied()
                .filter(|u| neighbours[v].contains(u))
                .collect()
        };
        clique.push(v);
        bron_kerbosch(
            neighbours,
            clique,
            keep(&candidates),
            keep(&excluded),
            cliques,
        );
        clique.pop();
        candidates.retain(|&u| u != v);
        excluded.push(v);
    }
}

/// The canonical value of per-pattern distances `values` over `cliques`:
/// `None` (a dead end) if a database says the goal is unreachable.
pub(crate) fn canonical(values: &[u32], cliques: &[Vec<usize>]) -> Option<u64> {
    if values.contains(&UNREACHABLE) {
        return None;
    }
    Some(
        cliques
            .iter()
            .map(|clique| clique.iter().map(|&p| u64::from(values[p])).sum::<u64>())
            .max()
            .unwrap_or(0),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cliques_are_the_maximal_additive_sets() {
        // 0 and 1 share an operator; 2 shares none.
        let affecting = [vec![0b011], vec![0b010], vec![0b100]];
        let mut cliques = maximal_cliques(&affecting);
        for clique in &mut cliques {
            clique.sort_unstable();
        }
        cliques.sort();
        assert_eq!(cliques, [vec![0, 2], vec![1, 2]]);
        assert_eq!(canonical(&[4, 5, 1], &cliques), Some(6));
        assert_eq!(canonical(&[4, UNREACHABLE, 1], &cliques), None);
        assert_eq!(canonical(&[], &[]), Some(0));
    }
}
