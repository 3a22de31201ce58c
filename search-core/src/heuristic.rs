//! Heuristics: estimates of the cost from a node to the nearest goal.

use std::time::Instant;

/// What a heuristic says about a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Estimate<C> {
    /// An estimate of the remaining cost.
    Value(C),
    /// No goal is reachable from this node; the engine never expands it.
    DeadEnd,
}

impl<C> From<C> for Estimate<C> {
    fn from(value: C) -> Self {
        Estimate::Value(value)
    }
}

/// A heuristic over nodes `N` with costs `C`.
///
/// One required method, [`estimate`](Heuristic::estimate), which may keep
/// state between calls (a cache, say): it takes `&mut self`. The engine calls
/// it once per distinct node and remembers the answer. Closures
/// `FnMut(&N) -> C` and `FnMut(&N) -> Estimate<C>` are heuristics; wrap one in
/// [`Admissible`] or [`Consistent`] to declare those properties.
///
/// A heuristic is *admissible* if it never overestimates the cheapest cost to
/// a goal, and *consistent* if `h(n) <= c(n, n') + h(n')` for every edge and
/// `h(goal) = 0`. A* returns optimal costs with an admissible heuristic
/// (reopening nodes when needed); with a consistent one it never reopens.
///
/// ```
/// use search_core::{Estimate, Heuristic};
///
/// struct Distance { goal: i64, calls: u32 }
///
/// impl Heuristic<i64, i64> for Distance {
///     fn estimate(&mut self, n: &i64) -> Estimate<i64> {
///         self.calls += 1;
///         if *n > 100 { Estimate::DeadEnd } else { Estimate::Value((self.goal - n).abs()) }
///     }
///     fn is_admissible(&self) -> bool { true }
///     fn is_consistent(&self) -> bool { true }
/// }
///
/// let mut h = Distance { goal: 5, calls: 0 };
/// assert_eq!(h.estimate(&2), Estimate::Value(3));
/// assert_eq!(h.estimate(&200), Estimate::DeadEnd);
/// assert_eq!(h.calls, 2);
/// ```
pub trait Heuristic<N, C> {
    /// The estimated cost from `node` to the nearest goal, or a dead end.
    fn estimate(&mut self, node: &N) -> Estimate<C>;

    /// Whether the estimate never exceeds the true remaining cost.
    fn is_admissible(&self) -> bool {
        false
    }

    /// Whether the estimate is consistent (and so admissible).
    fn is_consistent(&self) -> bool {
        false
    }

    /// Whether asking again for a node's estimate costs no more than
    /// reading a kept value, and gives the same answer: the estimate
    /// depends on the node alone (not on the path, see
    /// [`notify_transition`](Heuristic::notify_transition)) and is not a
    /// dead end where it once was a value. The eager engine then keeps no
    /// estimate per node (the size of a cost each) and asks again where it
    /// needs one: when a cheaper path reaches a stored node, say. The
    /// default is `false`; [`Blind`] says `true`.
    fn is_cheap(&self) -> bool {
        false
    }

    /// Tells a path-dependent heuristic (one whose estimate depends on how a
    /// node was reached, such as the landmark count) that `child` was reached
    /// from `parent`, just before `child` is estimated. The engine calls it
    /// before every estimate of a node other than the start; the default
    /// ignores it.
    fn notify_transition(&mut self, parent: &N, child: &N) {
        let _ = (parent, child);
    }

    /// Whether the step from `parent` to its successor `child` is preferred
    /// (Fast Downward's preferred operators, FF's helpful actions). Asked
    /// only after `parent` was estimated, for its successors, before any
    /// other node is estimated. The default prefers nothing.
    ///
    /// ```
    /// use search_core::{Estimate, Heuristic};
    ///
    /// /// Distance to 10 on a line; steps towards 10 are preferred.
    /// struct Towards10;
    /// impl Heuristic<i32, u32> for Towards10 {
    ///     fn estimate(&mut self, n: &i32) -> Estimate<u32> {
    ///         Estimate::Value((10 - n).unsigned_abs())
    ///     }
    ///     fn is_preferred(&mut self, parent: &i32, child: &i32) -> bool {
    ///         (10 - child).abs() < (10 - parent).abs()
    ///     }
    /// }
    /// assert!(Towards10.is_preferred(&3, &4));
    /// assert!(!Towards10.is_preferred(&3, &2));
    /// ```
    fn is_preferred(&mut self, parent: &N, child: &N) -> bool {
        let _ = (parent, child);
        false
    }

    /// Whether every dead end it reports is one: no goal is reachable from
    /// there. A search that dropped dead ends of a heuristic that does not
    /// promise this proves nothing by running dry: it ends in
    /// [`Outcome::NoSolutionFound`](crate::Outcome::NoSolutionFound), not
    /// [`Outcome::Exhausted`](crate::Outcome::Exhausted). The default is
    /// [`is_admissible`](Self::is_admissible): an admissible heuristic
    /// never calls a node a dead end wrongly (an infinite estimate would
    /// overestimate). Inadmissible heuristics whose dead ends are sound
    /// (`h_FF`'s, where the delete relaxation cannot reach the goal) say so
    /// here.
    fn dead_ends_are_reliable(&self) -> bool {
        self.is_admissible()
    }

    /// Heap memory the heuristic holds, in bytes: its tables, those made
    /// once (a compiled task, sized by the problem) and those that grow
    /// with the search (a table per node, say). The engine adds it to its
    /// memory estimate before each expansion, so that `max_memory_bytes`
    /// holds for it too (a table that doubles at once can pass the limit
    /// by that growth: the engine cannot foresee it). The default, 0,
    /// suits heuristics that hold little.
    fn memory_bytes(&self) -> usize {
        0
    }

    /// Tells the heuristic when the search's time limit runs out (`None`:
    /// no limit); the engine calls it at the start of each step. A
    /// heuristic whose one estimate can take long (many rounds, say) looks
    /// at the clock now and then and, past the deadline, returns at once
    /// with what it has (a lower bound if it is admissible); the engine
    /// then ends the search with the time limit. The default ignores it.
    fn set_deadline(&mut self, deadline: Option<Instant>) {
        let _ = deadline;
    }

    /// Tells the heuristic how many bytes it may hold (`None`: no limit):
    /// the search's `max_memory_bytes` less what the search itself holds;
    /// the engine calls it at the start of each step. A heuristic that
    /// builds large tables on first use (landmarks, say) stops building
    /// them past the budget and reports, through
    /// [`memory_bytes`](Heuristic::memory_bytes), what they would have
    /// held, so that the engine ends the search with the memory limit.
    /// The default ignores it.
    fn set_memory_budget(&mut self, bytes: Option<usize>) {
        let _ = bytes;
    }
}

impl<N, C, R, F> Heuristic<N, C> for F
where
    F: FnMut(&N) -> R,
    R: Into<Estimate<C>>,
{
    fn estimate(&mut self, node: &N) -> Estimate<C> {
        self(node).into()
    }
}

/// Heuristic objects, boxed or borrowed (with or without `Send`), are
/// heuristics too: a search can run on one lent to it and handed back.
macro_rules! boxed_heuristic {
    (@ $object:ty) => {
        impl<N, C> Heuristic<N, C> for $object {
            fn estimate(&mut self, node: &N) -> Estimate<C> {
                (**self).estimate(node)
            }
            fn is_admissible(&self) -> bool {
                (**self).is_admissible()
            }
            fn is_consistent(&self) -> bool {
                (**self).is_consistent()
            }
            fn dead_ends_are_reliable(&self) -> bool {
                (**self).dead_ends_are_reliable()
            }
            fn is_cheap(&self) -> bool {
                (**self).is_cheap()
            }
            fn notify_transition(&mut self, parent: &N, child: &N) {
                (**self).notify_transition(parent, child);
            }
            fn is_preferred(&mut self, parent: &N, child: &N) -> bool {
                (**self).is_preferred(parent, child)
            }
            fn memory_bytes(&self) -> usize {
                (**self).memory_bytes()
            }
            fn set_deadline(&mut self, deadline: Option<Instant>) {
                (**self).set_deadline(deadline);
            }
            fn set_memory_budget(&mut self, bytes: Option<usize>) {
                (**self).set_memory_budget(bytes);
            }
        }
    };
    ($($bounds:tt)*) => {
        boxed_heuristic!(@ Box<dyn Heuristic<N, C> $($bounds)* + '_>);
        boxed_heuristic!(@ &mut (dyn Heuristic<N, C> $($bounds)* + '_));
    };
}

boxed_heuristic!();
boxed_heuristic!(+ Send);

/// The blind heuristic: zero everywhere. Admissible and consistent.
#[derive(Clone, Copy, Debug, Default)]
pub struct Blind;

impl<N, C: num_traits::Zero> Heuristic<N, C> for Blind {
    fn estimate(&mut self, _: &N) -> Estimate<C> {
        Estimate::Value(C::zero())
    }
    fn is_cheap(&self) -> bool {
        true
    }
    fn is_admissible(&self) -> bool {
        true
    }
    fn is_consistent(&self) -> bool {
        true
    }
}

/// Declares the wrapped heuristic (often a closure) admissible.
///
/// ```
/// use search_core::{Admissible, Heuristic};
/// let h = Admissible(|n: &u32| 10 - n);
/// assert!(Heuristic::<u32, u32>::is_admissible(&h));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Admissible<H>(pub H);

impl<N, C, H: Heuristic<N, C>> Heuristic<N, C> for Admissible<H> {
    fn estimate(&mut self, node: &N) -> Estimate<C> {
        self.0.estimate(node)
    }
    fn notify_transition(&mut self, parent: &N, child: &N) {
        self.0.notify_transition(parent, child);
    }
    fn is_preferred(&mut self, parent: &N, child: &N) -> bool {
        self.0.is_preferred(parent, child)
    }
    fn memory_bytes(&self) -> usize {
        self.0.memory_bytes()
    }
    fn is_cheap(&self) -> bool {
        self.0.is_cheap()
    }
    fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.0.set_deadline(deadline);
    }
    fn set_memory_budget(&mut self, bytes: Option<usize>) {
        self.0.set_memory_budget(bytes);
    }
    fn is_admissible(&self) -> bool {
        true
    }
}

/// Declares the wrapped heuristic consistent (and so admissible).
#[derive(Clone, Copy, Debug)]
pub struct Consistent<H>(pub H);

impl<N, C, H: Heuristic<N, C>> Heuristic<N, C> for Consistent<H> {
    fn estimate(&mut self, node: &N) -> Estimate<C> {
        self.0.estimate(node)
    }
    fn notify_transition(&mut self, parent: &N, child: &N) {
        self.0.notify_transition(parent, child);
    }
    fn is_preferred(&mut self, parent: &N, child: &N) -> bool {
        self.0.is_preferred(parent, child)
    }
    fn memory_bytes(&self) -> usize {
        self.0.memory_bytes()
    }
    fn is_cheap(&self) -> bool {
        self.0.is_cheap()
    }
    fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.0.set_deadline(deadline);
    }
    fn set_memory_budget(&mut self, bytes: Option<usize>) {
        self.0.set_memory_budget(bytes);
    }
    fn is_admissible(&self) -> bool {
        true
    }
    fn is_consistent(&self) -> bool {
        true
    }
}

/// A heuristic over nodes `M` made from one over nodes `N`: each node is
/// read through `view` (a decoding, a projection) before `inner` sees it.
///
/// Every method of [`Heuristic`] passes through, transitions and preferred
/// steps included, so a path-dependent heuristic (the landmark count) keeps
/// learning from the search behind the view. Prefer it to a wrapper of your
/// own, which must remember to pass each method on.
///
/// ```
/// use search_core::{Estimate, Heuristic, Viewed};
///
/// // Nodes are (x, y); the inner heuristic reads x only.
/// let mut h = Viewed::new(|x: &i32| Estimate::Value(10 - x), |n: &(i32, i32)| n.0);
/// assert_eq!(h.estimate(&(3, 7)), Estimate::Value(7));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Viewed<H, F> {
    inner: H,
    view: F,
}

impl<H, F> Viewed<H, F> {
    /// `inner` reading each node through `view`.
    pub fn new(inner: H, view: F) -> Self {
        Viewed { inner, view }
    }

    /// The wrapped heuristic, for reading what it learned.
    pub fn into_inner(self) -> H {
        self.inner
    }
}

impl<M, N, C, H, F> Heuristic<M, C> for Viewed<H, F>
where
    H: Heuristic<N, C>,
    F: Fn(&M) -> N,
{
    #[inline]
    fn estimate(&mut self, node: &M) -> Estimate<C> {
        self.inner.estimate(&(self.view)(node))
    }
    fn is_admissible(&self) -> bool {
        self.inner.is_admissible()
    }
    fn is_consistent(&self) -> bool {
        self.inner.is_consistent()
    }
    fn dead_ends_are_reliable(&self) -> bool {
        self.inner.dead_ends_are_reliable()
    }
    fn is_cheap(&self) -> bool {
        self.inner.is_cheap()
    }
    fn notify_transition(&mut self, parent: &M, child: &M) {
        self.inner
            .notify_transition(&(self.view)(parent), &(self.view)(child));
    }
    fn is_preferred(&mut self, parent: &M, child: &M) -> bool {
        self.inner
            .is_preferred(&(self.view)(parent), &(self.view)(child))
    }
    fn memory_bytes(&self) -> usize {
        self.inner.memory_bytes()
    }
    fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.inner.set_deadline(deadline);
    }
    fn set_memory_budget(&mut self, bytes: Option<usize>) {
        self.inner.set_memory_budget(bytes);
    }
}
