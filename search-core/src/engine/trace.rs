//! A search's exploration, recorded on request ([`Search::record_trace`]),
//! and written as an indented tree of text or as Graphviz DOT: which nodes
//! the search stored and expanded, in what order, with what path costs and
//! estimates, and how the plan runs through them. This is the view that
//! shows why a search chose its plan.
//!
//! [`Search::record_trace`]: crate::Search::record_trace

use std::fmt::{Display, Write as _};

use crate::engine::store::NodeStore;
use crate::{Cost, SearchSpace};

mod html;

/// How many nodes [`Trace::to_text`] and [`Trace::to_dot`] write unless
/// told otherwise ([`Trace::set_max_nodes`]): a picture Graphviz still lays
/// out in about a second.
pub const TRACE_MAX_NODES: usize = 500;

/// One stored node of a [`Trace`].
#[derive(Clone, Debug, PartialEq)]
pub struct TracedNode<N, A, C> {
    /// The node.
    pub node: N,
    /// The parent's index on the node's best known path; `None` for the start.
    pub parent: Option<u32>,
    /// The action from the parent; `None` for the start.
    pub action: Option<A>,
    /// The best known path cost.
    pub g: C,
    /// The heuristic estimate; `None` when the algorithm uses none (Dijkstra,
    /// breadth-first search), for a dead end, and for a node the dominance
    /// pruner skipped before it was estimated.
    pub h: Option<C>,
    /// When the node was first expanded, counting from 1 as
    /// [`Statistics::expanded`](crate::Statistics::expanded) does; `None`
    /// for a node generated but never expanded.
    pub expanded: Option<u64>,
    /// Whether the heuristic called the node a dead end.
    pub dead_end: bool,
    /// Whether the dominance pruner skipped the node.
    pub dominated: bool,
}

/// The nodes a search stored, which it expanded in which order, and which
/// was the goal; see [`Search::record_trace`](crate::Search::record_trace).
///
/// The trace holds each stored node's best known path (its parent and the
/// action from it), so the nodes form a tree rooted at the start.
/// Rendering writes at most [`max_nodes`](Trace::max_nodes) nodes: the
/// plan's path first, then the expanded nodes in the order they were
/// expanded (each with its ancestors), then the other stored nodes; it says
/// how many it left out.
///
/// A restarting weighted A* trace is its last iteration's (each iteration
/// starts from an empty store).
///
/// ```
/// use search_core::{Search, SearchSpace};
///
/// /// Cells 0..=3 on a line; the goal is 3.
/// struct Line;
/// impl SearchSpace for Line {
///     type Node = u8;
///     type Action = char;
///     type Cost = u32;
///     fn is_goal(&self, n: &u8) -> bool { *n == 3 }
///     fn successors<F: FnMut(char, u8, u32)>(&self, n: &u8, mut emit: F) {
///         if *n < 3 { emit('R', n + 1, 1); }
///         if *n > 0 { emit('L', n - 1, 1); }
///     }
/// }
///
/// let mut search = Search::new(&Line, 0)
///     .heuristic(|n: &u8| u32::from(3 - n))
///     .record_trace(true);
/// let result = search.run().unwrap();
/// let trace = search.trace().unwrap();
/// assert_eq!(trace.expansions().len() as u64, result.stats.expanded);
/// assert_eq!(trace.path().len(), 4); // 0, 1, 2, 3
/// let text = trace.to_text(|n| n.to_string(), |a| a.to_string());
/// assert!(text.starts_with("4 nodes stored, 4 expanded, goal n3 at g=3"));
/// let dot = trace.to_dot(|n| format!("cell {n}"), |a| a.to_string());
/// assert!(dot.contains("n2 -> n3 [label=\"R\""));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Trace<N, A, C> {
    nodes: Vec<TracedNode<N, A, C>>,
    expansions: Vec<u32>,
    goal: Option<u32>,
    max_nodes: usize,
    title: Option<String>,
}

impl<N: crate::Node, A: Clone, C: Cost> Trace<N, A, C> {
    /// The trace of a search's store over `space` (the actions are found
    /// again from it): `expansions` lists the expanded nodes' indices in
    /// order, `heuristic` says whether the store keeps estimates.
    pub(crate) fn of_store<S>(
        store: &NodeStore<N, C>,
        space: &S,
        expansions: &[u32],
        goal: Option<u32>,
        heuristic: bool,
    ) -> Self
    where
        S: SearchSpace<Node = N, Action = A, Cost = C>,
    {
        // The store's indices are u32.
        let nodes = (0_u32..)
            .zip(0..store.records.len())
            .map(|(index, i)| {
                let record = &store.records[i];
                let (dead_end, dominated) = (store.dead.get(index), store.dominated.get(index));
                let estimated = heuristic && !dead_end && !dominated;
                TracedNode {
                    node: record.node.clone(),
                    parent: (i > 0).then_some(record.parent),
                    action: (i > 0)
                        .then(|| space.action_between(store.node(record.parent), &record.node))
                        .flatten()
                        .map(|(action, _)| action),
                    g: record.g,
                    h: store.h(index).filter(|_| estimated),
                    expanded: None,
                    dead_end,
                    dominated,
                }
            })
            .collect();
        Self::new(nodes, expansions.to_vec(), goal)
    }
}

impl<N, A, C> Trace<N, A, C> {
    /// A trace of `nodes` (their expansion numbers not yet set), expanded
    /// in the order `expansions` gives, with `goal`.
    pub(crate) fn new(
        mut nodes: Vec<TracedNode<N, A, C>>,
        expansions: Vec<u32>,
        goal: Option<u32>,
    ) -> Self {
        for (order, &index) in (1..).zip(&expansions) {
            if let Some(node) = nodes.get_mut(index as usize) {
                node.expanded.get_or_insert(order);
            }
        }
        Self {
            nodes,
            expansions,
            goal,
            max_nodes: TRACE_MAX_NODES,
            title: None,
        }
    }

    /// The stored nodes; a node's index in this slice is the index that
    /// [`parent`](TracedNode::parent), [`goal`](Trace::goal) and
    /// [`expansions`](Trace::expansions) use. The start is index 0.
    pub fn nodes(&self) -> &[TracedNode<N, A, C>] {
        &self.nodes
    }

    /// The expanded nodes' indices in the order of expansion; a node that
    /// was reopened appears again. Its length is the search's expansion
    /// count (its last iteration's for restarting weighted A*).
    pub fn expansions(&self) -> &[u32] {
        &self.expansions
    }

    /// The goal node's index, if the search reached one.
    pub fn goal(&self) -> Option<u32> {
        self.goal
    }

    /// The indices from the start to the goal along the plan; empty without
    /// a goal.
    pub fn path(&self) -> Vec<u32> {
        let mut path = Vec::new();
        let mut next = self.goal;
        while let Some(index) = next {
            let Some(node) = self.nodes.get(index as usize) else {
                break;
            };
            // A parent is always an older node; the bound guards the loop.
            if path.len() > self.nodes.len() {
                break;
            }
            path.push(index);
            next = node.parent;
        }
        path.reverse();
        path
    }

    /// The most nodes [`to_text`](Trace::to_text) and
    /// [`to_dot`](Trace::to_dot) write ([`TRACE_MAX_NODES`] unless set).
    pub fn max_nodes(&self) -> usize {
        self.max_nodes
    }

    /// Sets the most nodes written; the plan's path is written whole even
    /// beyond it.
    pub fn set_max_nodes(&mut self, max_nodes: usize) -> &mut Self {
        self.max_nodes = max_nodes;
        self
    }

    /// Sets a title, which the text's first line and the DOT graph's label
    /// begin with (what the nodes are, say).
    pub fn set_title(&mut self, title: impl Into<String>) -> &mut Self {
        self.title = Some(title.into());
        self
    }

    /// The same trace with nodes and actions replaced by `node(..)` and
    /// `action(..)`: names, say, so that it no longer borrows the domain
    /// that knows them.
    ///
    /// ```
    /// # use search_core::{Search, SearchSpace};
    /// # struct Two;
    /// # impl SearchSpace for Two {
    /// #     type Node = u8; type Action = (); type Cost = u32;
    /// #     fn is_goal(&self, n: &u8) -> bool { *n == 1 }
    /// #     fn successors<F: FnMut((), u8, u32)>(&self, n: &u8, mut emit: F) { if *n == 0 { emit((), 1, 1) } }
    /// # }
    /// let mut search = Search::new(&Two, 0).record_trace(true);
    /// search.run().unwrap();
    /// let named = search.trace().unwrap().map(|n| format!("cell {n}"), |_| "step".to_owned());
    /// assert_eq!(named.nodes()[1].node, "cell 1");
    /// assert_eq!(named.nodes()[1].action.as_deref(), Some("step"));
    /// ```
    pub fn map<N2, A2>(
        self,
        mut node: impl FnMut(&N) -> N2,
        mut action: impl FnMut(&A) -> A2,
    ) -> Trace<N2, A2, C> {
        Trace {
            nodes: self
                .nodes
                .into_iter()
                .map(|n| TracedNode {
                    node: node(&n.node),
                    parent: n.parent,
                    action: n.action.as_ref().map(&mut action),
                    g: n.g,
                    h: n.h,
                    expanded: n.expanded,
                    dead_end: n.dead_end,
                    dominated: n.dominated,
                })
                .collect(),
            expansions: self.expansions,
            goal: self.goal,
            max_nodes: self.max_nodes,
            title: self.title,
        }
    }

    /// Which nodes to write, by index: the path, then the expanded nodes in
    /// expansion order, then the rest, each with its ancestors, while they
    /// fit in `max_nodes` (the path is kept whole).
    fn kept(&self) -> Vec<bool> {
        let mut kept = vec![false; self.nodes.len()];
        let mut count = 0;
        for index in self.path() {
            if !std::mem::replace(&mut kept[index as usize], true) {
                count += 1;
            }
        }
        let candidates = self
            .expansions
            .iter()
            .copied()
            .chain((0..self.nodes.len()).filter_map(|i| u32::try_from(i).ok()));
        for candidate in candidates {
            if count >= self.max_nodes {
                break;
            }
            // The candidate and its ancestors not yet kept, if all fit.
            let mut chain = Vec::new();
            let mut next = Some(candidate);
            while let Some(index) = next.filter(|&i| !kept.get(i as usize).copied().unwrap_or(true))
            {
                if chain.len() > self.nodes.len() {
                    break; // parents are older nodes; this guards the loop
                }
                chain.push(index);
                next = self.nodes[index as usize].parent;
            }
            if count + chain.len() > self.max_nodes {
                break;
            }
            count += chain.len();
            for index in chain {
                kept[index as usize] = true;
            }
        }
        kept
    }

    fn summary(&self) -> String
    where
        C: Display,
    {
        let expanded = self.nodes.iter().filter(|n| n.expanded.is_some()).count();
        let goal = match self
            .goal
            .and_then(|g| Some((g, self.nodes.get(g as usize)?)))
        {
            Some((index, node)) => format!("goal n{index} at g={}", node.g),
            None => "no goal".to_owned(),
        };
        let title = self
            .title
            .as_ref()
            .map_or_else(String::new, |t| format!("{t}: "));
        format!(
            "{title}{} nodes stored, {expanded} expanded, {goal}",
            self.nodes.len()
        )
    }

    /// The trace as an indented tree, one node a line under its parent:
    /// `n<index>`, the action that reached it, the node, `g` and `h`, and
    /// `#k` for the k-th expansion. `*` marks the plan's path. The first
    /// line sums up; a last line says how many nodes were left out.
    ///
    /// `node_label` and `action_label` name the nodes and actions.
    ///
    /// ```
    /// # use search_core::{Search, SearchSpace};
    /// # struct Two;
    /// # impl SearchSpace for Two {
    /// #     type Node = u8; type Action = &'static str; type Cost = u32;
    /// #     fn is_goal(&self, n: &u8) -> bool { *n == 1 }
    /// #     fn successors<F: FnMut(&'static str, u8, u32)>(&self, n: &u8, mut emit: F) {
    /// #         if *n == 0 { emit("go", 1, 1); emit("stay", 2, 5) }
    /// #     }
    /// # }
    /// let mut search = Search::new(&Two, 0).record_trace(true);
    /// search.run().unwrap();
    /// let text = search.trace().unwrap().to_text(|n| format!("at {n}"), |a| a.to_string());
    /// assert_eq!(text, "3 nodes stored, 2 expanded, goal n1 at g=1\n\
    ///     * n0 at 0  g=0 h=0  #1\n\
    ///     *   n1 go -> at 1  g=1 h=0  #2 goal\n    \
    ///           n2 stay -> at 2  g=5 h=0\n");
    /// ```
    pub fn to_text(
        &self,
        node_label: impl Fn(&N) -> String,
        action_label: impl Fn(&A) -> String,
    ) -> String
    where
        C: Display,
    {
        let kept = self.kept();
        let on_path = self.on_path();
        let mut out = self.summary();
        out.push('\n');
        // Depth-first from the start, children in store order.
        let children = self.children(&kept);
        let mut stack = vec![(0_u32, 0_usize)];
        let mut written = vec![false; self.nodes.len()];
        while let Some((index, depth)) = stack.pop() {
            let i = index as usize;
            if !kept.get(i).copied().unwrap_or(false) || std::mem::replace(&mut written[i], true) {
                continue;
            }
            let n = &self.nodes[i];
            let mark = if on_path[i] { '*' } else { ' ' };
            let _ = write!(out, "{mark} {:indent$}n{index} ", "", indent = depth * 2);
            if let Some(action) = &n.action {
                let _ = write!(out, "{} -> ", action_label(action));
            }
            let _ = write!(out, "{}  g={}", one_line(&node_label(&n.node)), n.g);
            if let Some(h) = &n.h {
                let _ = write!(out, " h={h}");
            }
            if let Some(k) = n.expanded {
                let _ = write!(out, "  #{k}");
            }
            for (flag, word) in [
                (Some(index) == self.goal, " goal"),
                (n.dead_end, " dead end"),
                (n.dominated, " dominated"),
            ] {
                if flag {
                    out.push_str(word);
                }
            }
            out.push('\n');
            for &child in children[i].iter().rev() {
                stack.push((child, depth + 1));
            }
        }
        let left_out = written.iter().filter(|w| !**w).count();
        if left_out > 0 {
            let _ = writeln!(out, "... {left_out} more nodes not shown");
        }
        out
    }

    /// The trace as a Graphviz DOT digraph (`dot -Tsvg`): one box per node,
    /// labelled with its index, `#k` if it was the k-th expansion, the node,
    /// and `g`/`h`; an edge from each node's parent, labelled with the
    /// action. Expanded nodes are filled, nodes only generated are dashed,
    /// dead ends grey; the plan's path is bold red and the goal has a
    /// double border. A note says how many nodes were left out.
    ///
    /// `node_label` and `action_label` name the nodes and actions (any
    /// text: quotes and line breaks are escaped).
    ///
    /// ```
    /// # use search_core::{Search, SearchSpace};
    /// # struct Two;
    /// # impl SearchSpace for Two {
    /// #     type Node = u8; type Action = &'static str; type Cost = u32;
    /// #     fn is_goal(&self, n: &u8) -> bool { *n == 1 }
    /// #     fn successors<F: FnMut(&'static str, u8, u32)>(&self, n: &u8, mut emit: F) {
    /// #         if *n == 0 { emit("go", 1, 1); emit("stay", 2, 5) }
    /// #     }
    /// # }
    /// let mut search = Search::new(&Two, 0).record_trace(true);
    /// search.run().unwrap();
    /// let dot = search.trace().unwrap().to_dot(|n| format!("at \"{n}\""), |a| a.to_string());
    /// assert!(dot.starts_with("digraph search {"));
    /// assert!(dot.contains(r#"n1 [label="n1 #2\nat \"1\"\ng=1 h=0""#));
    /// assert!(dot.contains(r##"n0 -> n1 [label="go", color="#c0392b""##));
    /// assert!(dot.contains(r#"n0 -> n2 [label="stay"]"#));
    /// ```
    pub fn to_dot(
        &self,
        node_label: impl Fn(&N) -> String,
        action_label: impl Fn(&A) -> String,
    ) -> String
    where
        C: Display,
    {
        const PATH: &str = "#c0392b";
        let kept = self.kept();
        let on_path = self.on_path();
        let mut out = String::from("digraph search {\n");
        let _ = writeln!(
            out,
            "  graph [label=\"{}\", labelloc=t, fontname=\"Helvetica\"];",
            escape(&self.summary())
        );
        out.push_str(
            "  node [shape=box, style=\"rounded,filled\", fillcolor=white, fontname=\"Helvetica\"];\n",
        );
        out.push_str("  edge [fontname=\"Helvetica\", fontsize=10];\n");
        let mut left_out = 0;
        for (i, n) in self.nodes.iter().enumerate() {
            if !kept[i] {
                left_out += 1;
                continue;
            }
            let mut label = format!("n{i}");
            if let Some(k) = n.expanded {
                let _ = write!(label, " #{k}");
            }
            let _ = write!(label, "\n{}\ng={}", node_label(&n.node), n.g);
            if let Some(h) = &n.h {
                let _ = write!(label, " h={h}");
            }
            if n.dead_end {
                label.push_str("\ndead end");
            } else if n.dominated {
                label.push_str("\ndominated");
            }
            let mut attributes = format!("label=\"{}\"", escape(&label));
            attributes.push_str(match (n.expanded, n.dead_end) {
                (_, true) => ", fillcolor=\"#dddddd\"",
                (Some(_), false) => ", fillcolor=\"#dbe9f6\"",
                (None, false) => ", style=\"rounded,dashed\"",
            });
            if on_path[i] {
                let _ = write!(attributes, ", color=\"{PATH}\", penwidth=2.5");
            }
            if self.goal == u32::try_from(i).ok() {
                attributes.push_str(", peripheries=2");
            }
            let _ = writeln!(out, "  n{i} [{attributes}];");
        }
        for (i, n) in self.nodes.iter().enumerate() {
            let (Some(parent), Some(action)) = (n.parent, &n.action) else {
                continue;
            };
            if !kept[i] || !kept.get(parent as usize).copied().unwrap_or(false) {
                continue;
            }
            let label = escape(&action_label(action));
            if on_path[i] {
                let _ = writeln!(
                    out,
                    "  n{parent} -> n{i} [label=\"{label}\", color=\"{PATH}\", fontcolor=\"{PATH}\", penwidth=2.5];"
                );
            } else {
                let _ = writeln!(out, "  n{parent} -> n{i} [label=\"{label}\"];");
            }
        }
        if left_out > 0 {
            let _ = writeln!(
                out,
                "  left_out [shape=note, style=filled, fillcolor=\"#fff5cc\", label=\"{left_out} more nodes not shown\"];"
            );
        }
        out.push_str("}\n");
        out
    }

    /// Whether each node is on the plan's path.
    fn on_path(&self) -> Vec<bool> {
        let mut on_path = vec![false; self.nodes.len()];
        for index in self.path() {
            on_path[index as usize] = true;
        }
        on_path
    }

    /// Each kept node's kept children, in store order.
    fn children(&self, kept: &[bool]) -> Vec<Vec<u32>> {
        let mut children = vec![Vec::new(); self.nodes.len()];
        for (i, n) in self.nodes.iter().enumerate() {
            if let (true, Some(parent), Ok(index)) = (kept[i], n.parent, u32::try_from(i)) {
                if let Some(siblings) = children.get_mut(parent as usize) {
                    siblings.push(index);
                }
            }
        }
        children
    }
}

/// `label` on one line, for the text tree.
fn one_line(label: &str) -> String {
    label.replace(['\n', '\r'], " ")
}

/// `text` inside a DOT string: quotes and backslashes escaped, line breaks
/// as `\n`.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => {}
            c => out.push(c),
        }
    }
    out
}
