//! A PDDL task as a suite holds it: the two files' texts and names.

use serde::{Deserialize, Serialize};

/// The text of a PDDL domain and problem.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PddlTask {
    /// The domain file's path, for messages.
    pub domain_file: String,
    /// The domain's PDDL text.
    pub domain: String,
    /// The problem file's path, for messages.
    pub problem_file: String,
    /// The problem's PDDL text.
    pub problem: String,
}

impl PddlTask {
    /// Whether the domain has numeric fluents that actions change or
    /// conditions compare (it is planned on the factored state); `false`
    /// for a domain that does not parse (its runs report the error).
    pub fn is_numeric(&self) -> bool {
        planners::pddl::parse_domain(&self.domain_file, &self.domain).is_ok_and(|d| d.is_numeric())
    }
}
