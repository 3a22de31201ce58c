//! The buffers of the eager engine, kept between searches.

use crate::engine::open::OpenList;
use crate::engine::store::NodeStore;
use crate::Cost;

/// Buffers a search allocates, kept between searches so that planning many
/// times a second does not reallocate. Get one back with
/// [`Search::into_workspace`](crate::Search::into_workspace) and hand it to
/// the next [`Search::workspace`](crate::Search::workspace).
#[derive(Clone, Debug)]
pub struct Workspace<N, C> {
    pub(crate) store: NodeStore<N, C>,
    pub(crate) open: OpenList<C>,
}

impl<N, C: Ord> Default for Workspace<N, C> {
    fn default() -> Self {
        Self {
            store: NodeStore::default(),
            open: OpenList::default(),
        }
    }
}

impl<N: crate::Node, C: Cost> Workspace<N, C> {
    /// The bytes the store and open list hold, and how much they would
    /// grow to take `room` more entries.
    pub(crate) fn bytes(&self, room: usize) -> (usize, usize) {
        let (store, store_growth) = self.store.bytes(room);
        let (open, open_growth) = self.open.bytes(room);
        (store + open, store_growth + open_growth)
    }
}
