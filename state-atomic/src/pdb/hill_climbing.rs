//! iPDB's pattern collection (Haslum, Botea, Helmert, Bonet and Koenig
//! 2007): hill climbing in the space of pattern collections, from one
//! pattern per goal variable, each step adding the pattern (an existing
//! one grown by one causally relevant variable) that raises the canonical
//! heuristic on the most sampled states.

use std::collections::HashSet;
use std::time::{Duration, Instant};

use super::canonical::{additive, affecting, canonical, maximal_cliques};
use super::projection::{PatternDatabase, UNREACHABLE};
use super::variables::Variables;

/// How far iPDB's hill climbing may go. The defaults are Fast Downward's
/// (`hillclimbing`), but for a time limit of 10 seconds.
///
/// ```
/// use state_atomic::IpdbConfig;
/// let small = IpdbConfig { max_pdb_size: 1000, ..IpdbConfig::default() };
/// assert_eq!(small.samples, 1000);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IpdbConfig {
    /// The most abstract states one pattern database may have.
    pub max_pdb_size: usize,
    /// The most abstract states the collection may have, summed.
    pub max_collection_size: usize,
    /// States sampled by random walks at each step.
    pub samples: usize,
    /// A step must raise the estimate of at least this many samples, or
    /// the climb stops.
    pub min_improvement: usize,
    /// The climb stops after this long (with the collection so far).
    pub max_time: Duration,
    /// The random walks' seed: the same seed gives the same patterns
    /// (unless [`max_time`](Self::max_time) stops the climb).
    pub seed: u64,
}

impl Default for IpdbConfig {
    fn default() -> Self {
        Self {
            max_pdb_size: 2_000_000,
            max_collection_size: 20_000_000,
            samples: 1000,
            min_improvement: 10,
            max_time: Duration::from_secs(10),
            seed: 2007,
        }
    }
}

/// `SplitMix64`: a small seeded generator, enough for random walks.
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number below `n` (`n` > 0).
    fn below(&mut self, n: usize) -> usize {
        let n = n as u64;
        #[expect(clippy::cast_possible_truncation, reason = "below n, a usize")]
        let pick = (self.next() % n) as usize;
        pick
    }
}

/// A collection with its additivity tables.
struct Collection {
    databases: Vec<PatternDatabase>,
    affecting: Vec<Vec<u64>>,
    cliques: Vec<Vec<usize>>,
    size: usize,
}

impl Collection {
    fn add(&mut self, task: &Variables, database: PatternDatabase) {
        self.size += database.size();
        self.affecting.push(affecting(task, &database.pattern));
        self.databases.push(database);
        self.cliques = maximal_cliques(&self.affecting);
    }

    fn values(&self, state: &[u32]) -> Vec<u32> {
        self.databases.iter().map(|d| d.distance(state)).collect()
    }
}

/// The variables whose values the operators that change `pattern` ask
/// for, and goal variables they change too: the candidates to grow it by.
fn relevant(task: &Variables, pattern: &[u32], goal_variables: &[u32]) -> Vec<u32> {
    let mut out = Vec::new();
    for op in &task.operators {
        if !op.eff.iter().any(|(v, _)| pattern.contains(v)) {
            continue;
        }
        let asked = op.pre.iter().map(|&(v, _)| v);
        let goals = op
            .eff
            .iter()
            .map(|&(v, _)| v)
            .filter(|v| goal_variables.contains(v));
        out.extend(asked.chain(goals).filter(|v| !pattern.contains(v)));
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// A random walk of random length from `start`, about twice as long as
/// the estimate `h_start` divided by the mean operator cost.
fn sample(task: &Variables, start: &[u32], h_start: u64, random: &mut Random) -> Vec<u32> {
    let costs: u64 = task.operators.iter().map(|op| u64::from(op.cost)).sum();
    let count = task.operators.len().max(1) as u64;
    let mean = (costs / count).max(1);
    let depth = usize::try_from((2 * h_start / mean).clamp(1, 10_000)).unwrap_or(1);
    let steps = random.below(depth + 1);
    let mut state = start.to_vec();
    let mut applicable = Vec::new();
    for _ in 0..steps {
        applicable.clear();
        applicable.extend(task.operators.iter().enumerate().filter_map(|(k, op)| {
            op.pre
                .iter()
                .all(|&(v, x)| state[v as usize] == x)
                .then_some(k)
        }));
        if applicable.is_empty() {
            break;
        }
        let op = &task.operators[applicable[random.below(applicable.len())]];
        for &(v, x) in &op.eff {
            state[v as usize] = x;
        }
    }
    state
}

/// A candidate pattern's database, with the operators that change it.
type Candidate = (PatternDatabase, Vec<u64>);

/// For each candidate, on how many of `samples` random-walk states from
/// `start` (whose estimate is `h_start`) adding it to `collection` raises
/// the canonical estimate.
fn improvements(
    task: &Variables,
    (start, h_start): (&[u32], u64),
    collection: &Collection,
    candidates: &[Candidate],
    samples: usize,
    random: &mut Random,
) -> Vec<usize> {
    let mut improved = vec![0_usize; candidates.len()];
    for _ in 0..samples {
        let state = sample(task, start, h_start, random);
        let values = collection.values(&state);
        let Some(current) = canonical(&values, &collection.cliques) else {
            continue;
        };
        for (count, (database, changing)) in improved.iter_mut().zip(candidates) {
            let own = database.distance(&state);
            if own == UNREACHABLE {
                *count += 1;
                continue;
            }
            // The cliques with the candidate: each old clique's patterns
            // additive with it, plus the candidate.
            let best = collection
                .cliques
                .iter()
                .map(|clique| {
                    clique
                        .iter()
                        .filter(|&&p| additive(&collection.affecting[p], changing))
                        .map(|&p| u64::from(values[p]))
                        .sum::<u64>()
                })
                .max()
                .unwrap_or(0)
                + u64::from(own);
            if best > current {
                *count += 1;
            }
        }
    }
    improved
}

/// The pattern databases iPDB's hill climbing chooses for `task` from the
/// variable values `start`, within `config`.
pub(crate) fn hill_climb(
    task: &Variables,
    start: &[u32],
    config: &IpdbConfig,
) -> Vec<PatternDatabase> {
    let began = Instant::now();
    let mut random = Random(config.seed);
    let goal_variables: Vec<u32> = task.goal.iter().flatten().map(|&(v, _)| v).collect();
    let mut collection = Collection {
        databases: Vec::new(),
        affecting: Vec::new(),
        cliques: Vec::new(),
        size: 0,
    };
    for &v in &goal_variables {
        if let Some(database) = PatternDatabase::new(task, &[v], config.max_pdb_size) {
            if collection.size + database.size() <= config.max_collection_size {
                collection.add(task, database);
            }
        }
    }
    collection.cliques = maximal_cliques(&collection.affecting);
    let mut seen: HashSet<Vec<u32>> = collection
        .databases
        .iter()
        .map(|d| d.pattern.clone())
        .collect();
    // Candidates built so far, with the operators that change them.
    let mut candidates: Vec<Candidate> = Vec::new();
    let mut cached = 0;
    let mut grown = 0;
    loop {
        // Grow the patterns added since the last step.
        for index in grown..collection.databases.len() {
            let pattern = collection.databases[index].pattern.clone();
            for v in relevant(task, &pattern, &goal_variables) {
                if began.elapsed() > config.max_time {
                    break;
                }
                let mut bigger = pattern.clone();
                bigger.push(v);
                bigger.sort_unstable();
                if !seen.insert(bigger.clone()) {
                    continue;
                }
                // The candidates kept between steps take no more room
                // than the collection may: their tables bound the memory.
                let room = config.max_collection_size.saturating_sub(collection.size);
                let spare = config.max_collection_size.saturating_sub(cached);
                let limit = config.max_pdb_size.min(room).min(spare);
                if let Some(database) = PatternDatabase::new(task, &bigger, limit) {
                    cached += database.size();
                    let changing = affecting(task, &database.pattern);
                    candidates.push((database, changing));
                }
            }
            if began.elapsed() > config.max_time {
                break;
            }
        }
        grown = collection.databases.len();
        let room = config.max_collection_size.saturating_sub(collection.size);
        candidates.retain(|(database, _)| database.size() <= room);
        cached = candidates.iter().map(|(database, _)| database.size()).sum();
        if candidates.is_empty() || began.elapsed() > config.max_time {
            break;
        }
        let start_values = collection.values(start);
        let Some(h_start) = canonical(&start_values, &collection.cliques) else {
            break;
        };
        let improved = improvements(
            task,
            (start, h_start),
            &collection,
            &candidates,
            config.samples,
            &mut random,
        );
        let best = (0..candidates.len()).max_by_key(|&k| (improved[k], std::cmp::Reverse(k)));
        match best {
            Some(k) if improved[k] >= config.min_improvement.max(1) => {
                let (database, _) = candidates.swap_remove(k);
                cached -= database.size();
                collection.add(task, database);
            }
            _ => break,
        }
    }
    collection.databases
}
