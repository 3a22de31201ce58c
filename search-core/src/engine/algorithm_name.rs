//! [`Algorithm`]'s names: `Display` writes one, `FromStr` reads it back.

use std::fmt;
use std::str::FromStr;

use crate::{Algorithm, SearchError};

/// The names [`Algorithm::from_str`] accepts, for error messages and help
/// texts.
const KNOWN: &str =
    "astar, wastar:W, gbfs, dijkstra, bfs, rwastar, lazygbfs, lazytype, lazyhelpful";

impl fmt::Display for Algorithm {
    /// The short name: `astar`, `wastar2` (the weight as `{}` writes it),
    /// `gbfs`, `dijkstra`, `bfs`, `rwastar`, `lazygbfs`, `lazytype` (no
    /// dash, so that it fits in a configuration name such as
    /// `fwd-lazygbfs-ff`). It parses back to the same value.
    ///
    /// ```
    /// use search_core::Algorithm;
    /// assert_eq!(Algorithm::AStar.to_string(), "astar");
    /// assert_eq!(Algorithm::WeightedAStar { weight: 2.0 }.to_string(), "wastar2");
    /// assert_eq!(Algorithm::WeightedAStar { weight: 1.5 }.to_string(), "wastar1.5");
    /// assert_eq!(Algorithm::GreedyBestFirst.to_string(), "gbfs");
    /// assert_eq!(Algorithm::Dijkstra.to_string(), "dijkstra");
    /// assert_eq!(Algorithm::BreadthFirst.to_string(), "bfs");
    /// assert_eq!(Algorithm::RestartingWeightedAStar.to_string(), "rwastar");
    /// assert_eq!(Algorithm::LazyGreedy.to_string(), "lazygbfs");
    /// assert_eq!(Algorithm::LazyTypeBased.to_string(), "lazytype");
    /// assert_eq!(Algorithm::LazyHelpful.to_string(), "lazyhelpful");
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Algorithm::AStar => f.write_str("astar"),
            Algorithm::WeightedAStar { weight } => write!(f, "wastar{weight}"),
            Algorithm::GreedyBestFirst => f.write_str("gbfs"),
            Algorithm::Dijkstra => f.write_str("dijkstra"),
            Algorithm::BreadthFirst => f.write_str("bfs"),
            Algorithm::RestartingWeightedAStar => f.write_str("rwastar"),
            Algorithm::LazyGreedy => f.write_str("lazygbfs"),
            Algorithm::LazyTypeBased => f.write_str("lazytype"),
            Algorithm::LazyHelpful => f.write_str("lazyhelpful"),
        }
    }
}

impl Algorithm {
    /// What the short name stands for, in words: for legends under tables
    /// whose columns are configuration names.
    ///
    /// ```
    /// use search_core::Algorithm;
    /// assert_eq!(Algorithm::GreedyBestFirst.description(), "greedy best-first search");
    /// assert_eq!(Algorithm::WeightedAStar { weight: 2.0 }.description(), "weighted A* with weight 2");
    /// ```
    pub fn description(&self) -> String {
        match self {
            Algorithm::AStar => "A*".to_owned(),
            Algorithm::WeightedAStar { weight } => format!("weighted A* with weight {weight}"),
            Algorithm::GreedyBestFirst => "greedy best-first search".to_owned(),
            Algorithm::Dijkstra => "Dijkstra's algorithm (no heuristic)".to_owned(),
            Algorithm::BreadthFirst => "breadth-first search".to_owned(),
            Algorithm::RestartingWeightedAStar => {
                "anytime weighted A*, restarted with weights 5, 3, 2, 1".to_owned()
            }
            Algorithm::LazyGreedy => {
                "lazy greedy best-first search with preferred operators".to_owned()
            }
            Algorithm::LazyTypeBased => {
                "lazy greedy best-first search with preferred operators and type-based exploration"
                    .to_owned()
            }
            Algorithm::LazyHelpful => {
                "lazy greedy best-first search with helpful-actions pruning (preferred successors only)"
                    .to_owned()
            }
        }
    }
}

impl FromStr for Algorithm {
    type Err = SearchError;

    /// Reads an algorithm's name, in any case: `astar` or `a*`; `wastar:W`
    /// or `wastarW` (weighted A* with weight `W`, e.g. `wastar:2`,
    /// `wastar1.5`); `gbfs` or `greedy`; `dijkstra` or `ucs`; `bfs` or
    /// `breadth-first`; `rwastar` or `anytime` (restarting weighted A*);
    /// `lazygbfs`, `lazy-gbfs` or `lazy`; `lazytype` or `lazy-type`;
    /// `lazyhelpful` or `lazy-helpful`. What [`Display`](fmt::Display) writes reads back to
    /// the same value.
    ///
    /// # Errors
    /// [`SearchError::UnknownAlgorithm`] naming `s` and the known names, also
    /// for a weight that is not a number; [`SearchError::InvalidWeight`] (as
    /// the search itself gives) for a weight that is not finite or is below 1.
    ///
    /// ```
    /// use search_core::{Algorithm, SearchError};
    /// assert_eq!("gbfs".parse::<Algorithm>(), Ok(Algorithm::GreedyBestFirst));
    /// assert_eq!("A*".parse::<Algorithm>(), Ok(Algorithm::AStar));
    /// assert_eq!("wastar:2".parse::<Algorithm>(), Ok(Algorithm::WeightedAStar { weight: 2.0 }));
    /// let weighted = Algorithm::WeightedAStar { weight: 1.25 };
    /// assert_eq!(weighted.to_string().parse::<Algorithm>(), Ok(weighted));
    /// assert_eq!(
    ///     "dfs".parse::<Algorithm>().unwrap_err().to_string(),
    ///     "unknown algorithm `dfs` (known: astar, wastar:W, gbfs, dijkstra, bfs, rwastar, lazygbfs, lazytype, lazyhelpful)"
    /// );
    /// assert!(matches!(
    ///     "wastar:0.5".parse::<Algorithm>(),
    ///     Err(SearchError::InvalidWeight { weight: 0.5 })
    /// ));
    /// ```
    fn from_str(s: &str) -> Result<Self, SearchError> {
        let lower = s.to_ascii_lowercase();
        let unknown = || SearchError::UnknownAlgorithm {
            name: s.to_owned(),
            known: KNOWN,
        };
        if let Some(weight) = lower
            .strip_prefix("wastar:")
            .or_else(|| lower.strip_prefix("wastar"))
            .filter(|w| !w.is_empty())
        {
            let weight = weight.parse::<f64>().map_err(|_| unknown())?;
            let algorithm = Algorithm::WeightedAStar { weight };
            algorithm.validate()?;
            return Ok(algorithm);
        }
        match lower.as_str() {
            "astar" | "a*" => Ok(Algorithm::AStar),
            "gbfs" | "greedy" => Ok(Algorithm::GreedyBestFirst),
            "dijkstra" | "ucs" => Ok(Algorithm::Dijkstra),
            "bfs" | "breadth-first" => Ok(Algorithm::BreadthFirst),
            "rwastar" | "anytime" => Ok(Algorithm::RestartingWeightedAStar),
            "lazygbfs" | "lazy-gbfs" | "lazy" => Ok(Algorithm::LazyGreedy),
            "lazytype" | "lazy-type" => Ok(Algorithm::LazyTypeBased),
            "lazyhelpful" | "lazy-helpful" => Ok(Algorithm::LazyHelpful),
            _ => Err(unknown()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_display_parses_back() {
        for algorithm in [
            Algorithm::AStar,
            Algorithm::WeightedAStar { weight: 1.0 },
            Algorithm::WeightedAStar { weight: 2.0 },
            Algorithm::WeightedAStar { weight: 1.1 },
            Algorithm::WeightedAStar { weight: 1e300 },
            Algorithm::WeightedAStar { weight: f64::MAX },
            Algorithm::GreedyBestFirst,
            Algorithm::Dijkstra,
            Algorithm::BreadthFirst,
            Algorithm::RestartingWeightedAStar,
            Algorithm::LazyGreedy,
            Algorithm::LazyTypeBased,
            Algorithm::LazyHelpful,
        ] {
            assert_eq!(algorithm.to_string().parse(), Ok(algorithm), "{algorithm}");
        }
    }

    #[test]
    fn aliases_and_case() {
        for (name, algorithm) in [
            ("ASTAR", Algorithm::AStar),
            ("a*", Algorithm::AStar),
            ("WAStar:3", Algorithm::WeightedAStar { weight: 3.0 }),
            ("wastar1.5", Algorithm::WeightedAStar { weight: 1.5 }),
            ("Greedy", Algorithm::GreedyBestFirst),
            ("ucs", Algorithm::Dijkstra),
            ("Breadth-First", Algorithm::BreadthFirst),
            ("Anytime", Algorithm::RestartingWeightedAStar),
            ("lazy-gbfs", Algorithm::LazyGreedy),
            ("Lazy", Algorithm::LazyGreedy),
            ("Lazy-Type", Algorithm::LazyTypeBased),
            ("Lazy-Helpful", Algorithm::LazyHelpful),
        ] {
            assert_eq!(name.parse(), Ok(algorithm), "{name}");
        }
    }

    #[test]
    fn bad_names_and_weights_are_refused() {
        for name in ["", "dfs", "wastar", "wastar:", "wastar:two", "astar2"] {
            assert!(
                matches!(
                    name.parse::<Algorithm>(),
                    Err(SearchError::UnknownAlgorithm { .. })
                ),
                "{name}"
            );
        }
        for name in [
            "wastar:0.5",
            "wastar0",
            "wastar:-2",
            "wastar:nan",
            "wastar:inf",
        ] {
            let error = name.parse::<Algorithm>().unwrap_err();
            assert!(
                matches!(error, SearchError::InvalidWeight { .. }),
                "{name}: {error:?}"
            );
            assert!(
                error.to_string().contains("needs a finite weight >= 1"),
                "{error}"
            );
        }
    }
}
