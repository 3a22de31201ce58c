//! Truncated and mutated PDDL files never panic: they parse (and ground,
//! and build a task) or fail with an error.

use planners::pddl::{
    ground, h2_mutexes, parse_domain, parse_problem, replay, GroundedTask, GroundingLimits, IpcPlan,
};

/// A small seeded generator (`SplitMix64`).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        usize::try_from(self.next() % (n.max(1) as u64)).unwrap_or(0)
    }
}

const PIECES: [&str; 32] = [
    "(",
    ")",
    "?x",
    "?y",
    " - ",
    "either",
    "(not ",
    "(and ",
    "(= ?x ?y)",
    ":typing",
    "object",
    " ",
    "\n",
    ";",
    "(forall (?z) ",
    "a",
    ":parameters",
    ":effect",
    "(:types t - s s - t)",
    "é",
    "\"",
    ":requirements",
    "(when ",
    ")))",
    "(increase (",
    "(>= (",
    "(* ",
    "(/ ",
    "1.5",
    "-0",
    "(:functions (f ?x) (g))",
    "(:metric minimize (total-time))",
];

fn mutate(rng: &mut Rng, text: &str) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    let rounds = 1 + rng.below(3);
    for _ in 0..rounds {
        let n = chars.len();
        match rng.below(6) {
            0 => chars.truncate(rng.below(n + 1)),
            1 => {
                let at = rng.below(n + 1);
                let len = (1 + rng.below(20)).min(n - at.min(n));
                chars.drain(at..at + len);
            }
            2 => {
                let at = rng.below(n + 1);
                let piece = PIECES[rng.below(PIECES.len())];
                chars.splice(at..at, piece.chars());
            }
            3 if n > 0 => {
                // Copy a span elsewhere.
                let from = rng.below(n);
                let len = (1 + rng.below(40)).min(n - from);
                let span: Vec<char> = chars[from..from + len].to_vec();
                let at = rng.below(n + 1);
                chars.splice(at..at, span);
            }
            4 if n > 0 => {
                let at = rng.below(n);
                chars[at] = ['(', ')', ' ', '-', '?', 'x', '0'][rng.below(7)];
            }
            _ => {
                // Swap two symbols' worth of text.
                if n > 2 {
                    let (a, b) = (rng.below(n), rng.below(n));
                    chars.swap(a, b);
                }
            }
        }
    }
    chars.into_iter().collect()
}

/// Parses, grounds, builds the task and its mutexes; any error is fine.
fn exercise(domain: &str, problem: &str) -> &'static str {
    let Ok(d) = parse_domain("d.pddl", domain) else {
        return "domain error";
    };
    let Ok(p) = parse_problem(&d, "p.pddl", problem) else {
        return "problem error";
    };
    let Ok(task) = ground(
        &d,
        &p,
        GroundingLimits {
            max_steps: 200_000,
            ..GroundingLimits::default()
        },
    ) else {
        return "too large";
    };
    if task.numeric.is_some() {
        let names: Vec<&str> = task
            .operators
            .iter()
            .take(3)
            .map(|o| o.name.as_str())
            .collect();
        let _ = replay(&task, &IpcPlan::from_names(names));
        return "grounded";
    }
    let Ok(grounded) = GroundedTask::new(&task) else {
        return "too many facts";
    };
    if task.facts.len() <= 512 && task.operators.len() <= 5_000 {
        let _ = h2_mutexes(&task);
    }
    let names: Vec<&str> = task
        .operators
        .iter()
        .take(3)
        .map(|o| o.name.as_str())
        .collect();
    let _ = grounded.validate(&IpcPlan::from_names(names));
    "grounded"
}

/// Reads each `(domain folder, task file)` of `root`, checking that it
/// grounds.
fn corpus(root: &std::path::Path, tasks: &[(&str, &str)]) -> Vec<(String, String)> {
    let mut corpus = Vec::new();
    for (domain, task) in tasks {
        let dir = root.join(domain);
        let d = std::fs::read_to_string(dir.join("domain.pddl")).unwrap();
        let p = std::fs::read_to_string(dir.join(task)).unwrap();
        assert_eq!(exercise(&d, &p), "grounded", "{domain}");
        corpus.push((d, p));
    }
    corpus
}

/// Numeric effects under `forall` and `when`, numeric `when` conditions
/// (`=` among them), for the fuzzer to break.
const MILLS: &str =
    "(define (domain mills) (:requirements :typing :numeric-fluents :conditional-effects)
  (:types place)
  (:predicates (mill ?p - place) (busy))
  (:functions (wood ?p - place) (timber ?p - place) (rate ?p - place) (cut))
  (:action saw :parameters ()
    :effect (and (increase (cut) 1)
      (forall (?p - place) (when (and (mill ?p) (>= (wood ?p) 1))
        (and (decrease (wood ?p) 1) (increase (timber ?p) (rate ?p)))))
      (when (= (cut) 2) (busy)))))";

const MILLS_PROBLEM: &str = "(define (problem m) (:domain mills) (:objects a b c - place)
  (:init (mill a) (mill c) (= (wood a) 2) (= (wood b) 5) (= (wood c) 1)
         (= (timber a) 0) (= (timber b) 0) (= (timber c) 0) (= (rate a) 2) (= (rate b) 1)
         (= (cut) 0))
  (:goal (and (>= (timber a) 4) (busy))))";

#[test]
fn truncated_and_mutated_numeric_files_never_panic() {
    let root = tests::pddl_numeric_benchmarks();
    let corpus = corpus(
        &root,
        &[
            ("counters", "instances/instance-1.pddl"),
            ("fo-counters", "instances/instance-2.pddl"),
            ("drone", "instances/instance-1.pddl"),
            ("farmland", "instances/instance-1.pddl"),
            ("rover", "instances/instance-1.pddl"),
            ("sailing", "instances/instance-1.pddl"),
            ("sugar", "instances/instance-1.pddl"),
            ("zenotravel", "instances/instance-2.pddl"),
            ("block-grouping", "instances/instance-1.pddl"),
        ],
    );
    let mut corpus = corpus;
    corpus.push((MILLS.to_owned(), MILLS_PROBLEM.to_owned()));
    assert_eq!(exercise(MILLS, MILLS_PROBLEM), "grounded");
    fuzz(&corpus, 0x4E55_11EA, 2_000);
}

#[test]
fn truncated_and_mutated_files_never_panic() {
    let corpus = corpus(
        &tests::pddl_benchmarks(),
        &[
            ("blocks", "task01.pddl"),
            ("gripper", "task01.pddl"),
            ("logistics", "task01.pddl"),
            ("miconic", "task03.pddl"),
            ("elevators", "task01.pddl"),
            ("depot", "task01.pddl"),
            ("freecell", "task01.pddl"),
            ("visitall", "problem02-full.pddl"),
        ],
    );
    fuzz(&corpus, 0x5EA2_C41A, 3_000);
}

/// Mutates and truncates the corpus's files `cases` times from `seed`;
/// every kind of outcome must happen, so that mutations reach grounding.
fn fuzz(corpus: &[(String, String)], seed: u64, cases: usize) {
    let mut rng = Rng(seed);
    let mut outcomes = std::collections::BTreeMap::new();
    for case in 0..cases {
        let (d, p) = &corpus[case % corpus.len()];
        let (d, p) = match rng.below(3) {
            0 => (mutate(&mut rng, d), p.clone()),
            1 => (d.clone(), mutate(&mut rng, p)),
            _ => {
                // Plain truncation of either file.
                let cut = |rng: &mut Rng, t: &str| {
                    t.chars()
                        .take(rng.below(t.chars().count() + 1))
                        .collect::<String>()
                };
                if rng.below(2) == 0 {
                    (cut(&mut rng, d), p.clone())
                } else {
                    (d.clone(), cut(&mut rng, p))
                }
            }
        };
        *outcomes.entry(exercise(&d, &p)).or_insert(0) += 1;
        // Plans are read from mutated text too.
        let _ = IpcPlan::parse(
            "plan.txt",
            &mutate(
                &mut rng,
                "(pick-up a)\n(stack a b)\n; cost = 2 (unit cost)\n",
            ),
        );
    }
    // Every kind of outcome happens: the mutations reach the grounder.
    assert!(
        outcomes.get("domain error").copied().unwrap_or(0) > 100,
        "{outcomes:?}"
    );
    assert!(
        outcomes.get("problem error").copied().unwrap_or(0) > 100,
        "{outcomes:?}"
    );
    assert!(
        outcomes.get("grounded").copied().unwrap_or(0) > 50,
        "{outcomes:?}"
    );
}
