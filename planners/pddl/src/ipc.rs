//! Plans in the IPC format: one `(action arg ...)` per line, then
//! `; cost = N (unit cost)`, or `; cost = N (general cost)` for a task with
//! action costs, as Fast Downward writes it.

use std::fmt::Write as _;

use crate::{Location, PddlError};

/// One step of an [`IpcPlan`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlanStep {
    /// `action arg ...`, lower case, single spaces.
    pub name: String,
    /// Where the step stands in its file (line 0 for a plan not read from
    /// text).
    pub at: Location,
}

/// A plan in the IPC format.
///
/// ```
/// use searchlab_pddl::IpcPlan;
/// let plan = IpcPlan::from_names(["pick-up a", "stack a b"]);
/// let text = plan.to_ipc_string();
/// assert_eq!(text, "(pick-up a)\n(stack a b)\n; cost = 2 (unit cost)\n");
/// let back = IpcPlan::parse("plan.txt", &text).unwrap();
/// assert_eq!(back.names(), ["pick-up a", "stack a b"]);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IpcPlan {
    /// The file the plan was read from (empty if none).
    pub file: String,
    /// The steps in execution order.
    pub steps: Vec<PlanStep>,
    /// The plan's cost on a task with action costs; `None` with unit
    /// costs, where the cost is the length. Reading a plan leaves it
    /// `None`: the planner's `Task::validate` (`planners::pddl`) tells the real
    /// cost.
    pub general_cost: Option<u64>,
    /// What a cost of 1 stands for: `1 / cost_scale` of the metric (a
    /// numeric task's [`GroundTask::cost_scale`](crate::GroundTask::cost_scale));
    /// 0 or 1 for whole units.
    pub cost_scale: u32,
}

/// `cost` in units of `1 / scale`, written as a decimal: `decimal_cost(228393, 100)` is `2283.93`.
pub fn decimal_cost(cost: u64, scale: u32) -> String {
    if scale <= 1 {
        return cost.to_string();
    }
    let scale = u64::from(scale);
    let places = scale.ilog10() as usize;
    let fraction = format!("{:0places$}", cost % scale);
    let fraction = fraction.trim_end_matches('0');
    if fraction.is_empty() {
        (cost / scale).to_string()
    } else {
        format!("{}.{fraction}", cost / scale)
    }
}

impl IpcPlan {
    /// A plan of the actions called `names` (`action arg ...`).
    pub fn from_names<'n>(names: impl IntoIterator<Item = &'n str>) -> Self {
        Self {
            file: String::new(),
            steps: names
                .into_iter()
                .map(|name| PlanStep {
                    name: name.to_owned(),
                    at: Location::default(),
                })
                .collect(),
            general_cost: None,
            cost_scale: 1,
        }
    }

    /// The steps' names.
    pub fn names(&self) -> Vec<&str> {
        self.steps.iter().map(|s| s.name.as_str()).collect()
    }

    /// The plan's cost: [`general_cost`](Self::general_cost) if set,
    /// otherwise (unit costs) its length.
    ///
    /// ```
    /// use searchlab_pddl::IpcPlan;
    /// let mut plan = IpcPlan::from_names(["drive a b", "drive b c"]);
    /// assert_eq!(plan.cost(), 2);
    /// plan.general_cost = Some(17);
    /// assert_eq!(plan.cost(), 17);
    /// assert!(plan.to_ipc_string().ends_with("; cost = 17 (general cost)\n"));
    /// ```
    pub fn cost(&self) -> u64 {
        self.general_cost.unwrap_or(self.steps.len() as u64)
    }

    /// The plan as IPC text, ending with `; cost = N (unit cost)` or, with
    /// action costs, `; cost = N (general cost)`, `N` in the metric's units
    /// (`2283.93` for 228393 at a [`cost_scale`](Self::cost_scale) of 100).
    ///
    /// ```
    /// use searchlab_pddl::IpcPlan;
    /// let mut plan = IpcPlan::from_names(["buy goods0 market1"]);
    /// (plan.general_cost, plan.cost_scale) = (Some(228_393), 100);
    /// assert!(plan.to_ipc_string().ends_with("; cost = 2283.93 (general cost)\n"));
    /// ```
    pub fn to_ipc_string(&self) -> String {
        let mut text = String::new();
        for step in &self.steps {
            let _ = writeln!(text, "({})", step.name);
        }
        let kind = if self.general_cost.is_some() {
            "general cost"
        } else {
            "unit cost"
        };
        let _ = writeln!(
            text,
            "; cost = {} ({kind})",
            decimal_cost(self.cost(), self.cost_scale)
        );
        text
    }

    /// Reads IPC plan text (as Fast Downward and the IPC validators write
    /// it): `(action arg ...)` per line; `;` starts a comment; blank lines are
    /// skipped; names are case-insensitive.
    ///
    /// # Errors
    /// [`PddlError::Plan`] with the line and column of a line that is not a
    /// step.
    ///
    /// ```
    /// use searchlab_pddl::IpcPlan;
    /// let plan = IpcPlan::parse("p", "; plan\n(PICK-UP  a)\n\n(stack a b) ; second\n").unwrap();
    /// assert_eq!(plan.names(), ["pick-up a", "stack a b"]);
    /// assert_eq!(plan.steps[1].at.line, 4);
    /// assert!(IpcPlan::parse("p", "(pick-up a\n").is_err());
    /// ```
    pub fn parse(file: &str, text: &str) -> Result<Self, PddlError> {
        let mut steps = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let line = u32::try_from(i + 1).unwrap_or(u32::MAX);
            let content = raw.split(';').next().unwrap_or("");
            let trimmed = content.trim();
            if trimmed.is_empty() {
                continue;
            }
            let column = content.find(trimmed).unwrap_or(0);
            let at = Location {
                line,
                column: u32::try_from(content[..column].chars().count() + 1).unwrap_or(u32::MAX),
            };
            let inner = trimmed
                .strip_prefix('(')
                .and_then(|t| t.strip_suffix(')'))
                .filter(|t| !t.contains(['(', ')']))
                .ok_or_else(|| PddlError::Plan {
                    file: file.to_owned(),
                    at,
                    message: "expected a step `(action arg ...)`".to_owned(),
                })?;
            let words: Vec<String> = inner.split_whitespace().map(str::to_lowercase).collect();
            if words.is_empty() {
                return Err(PddlError::Plan {
                    file: file.to_owned(),
                    at,
                    message: "empty step `()`".to_owned(),
                });
            }
            steps.push(PlanStep {
                name: words.join(" "),
                at,
            });
        }
        Ok(Self {
            file: file.to_owned(),
            steps,
            general_cost: None,
            cost_scale: 1,
        })
    }
}
