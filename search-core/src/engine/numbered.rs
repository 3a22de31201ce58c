//! The flat node table of a space with a dense numbering
//! ([`SearchSpace::node_numbers`](crate::SearchSpace::node_numbers)).
//!
//! Slot `k` holds the store index of the node numbered `k`, plus one (0 is
//! empty). Pages of [`PAGE`] slots are allocated as the search first touches
//! them, so a search that visits a corner of a large numbering pays for that
//! corner. Entries are not cleared between searches: the store checks that
//! an entry points at a record of this search holding the same node, so a
//! stale entry is just an empty slot, and reusing a workspace costs nothing.

use std::mem::size_of;

const PAGE_BITS: u32 = 12;
/// Slots per page: 16 KiB of `u32`, a few rows of a typical grid.
const PAGE: usize = 1 << PAGE_BITS;
/// Bytes of one page.
pub(crate) const PAGE_BYTES: usize = PAGE * size_of::<u32>();

/// The largest numbering the table serves; above it the store hashes. Store
/// indices are `u32`, so a larger numbering could not be full anyway.
pub(crate) const MAX_NUMBERS: u64 = 1 << 32;

#[derive(Clone, Debug, Default)]
pub(crate) struct NumberTable {
    pages: Vec<Option<Box<[u32; PAGE]>>>,
    /// The numbering's size: numbers at or above it are refused.
    numbers: u64,
    allocated: usize,
}

impl NumberTable {
    /// Serves a numbering of `numbers` numbers (at most [`MAX_NUMBERS`]),
    /// keeping the pages it has. The page directory is sized here, once (8
    /// bytes a page: 2 KiB for a million numbers), so that only pages are
    /// allocated during the search and the memory projection is exact.
    pub(crate) fn set_numbers(&mut self, numbers: u64) {
        debug_assert!(numbers <= MAX_NUMBERS);
        self.numbers = numbers;
        let pages = usize::try_from(numbers.div_ceil(PAGE as u64)).unwrap_or(usize::MAX);
        if pages > self.pages.len() {
            self.pages.resize_with(pages, || None);
        }
    }

    /// The numbering's size.
    pub(crate) fn numbers(&self) -> u64 {
        self.numbers
    }

    /// The slot of `number`, allocating its page on first use; `None` when
    /// the number is out of range.
    #[inline]
    pub(crate) fn slot(&mut self, number: u64) -> Option<&mut u32> {
        if number >= self.numbers {
            return None;
        }
        // Below 2^32, so it fits a usize on the 64-bit targets we build for
        // and the conversion cannot fail there.
        let number = usize::try_from(number).ok()?;
        let page = self.pages.get_mut(number >> PAGE_BITS)?;
        if page.is_none() {
            *page = new_page();
            self.allocated += 1;
        }
        Some(&mut page.as_mut()?[number & (PAGE - 1)])
    }

    /// Allocated bytes.
    pub(crate) fn bytes(&self) -> usize {
        self.allocated * PAGE_BYTES + self.pages.capacity() * size_of::<usize>()
    }

    /// The bytes `room` more nodes could add: a page each, at most.
    pub(crate) fn growth(&self, room: usize) -> usize {
        let pages = usize::try_from(self.numbers.div_ceil(PAGE as u64)).unwrap_or(usize::MAX);
        room.min(pages.saturating_sub(self.allocated)) * PAGE_BYTES
    }
}

/// A zeroed page, straight from the allocator (no copy through the stack).
#[cold]
fn new_page() -> Option<Box<[u32; PAGE]>> {
    vec![0; PAGE].into_boxed_slice().try_into().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_arrive_as_slots_are_touched() {
        let mut table = NumberTable::default();
        table.set_numbers(3 * PAGE as u64);
        let directory = table.pages.capacity() * size_of::<usize>();
        assert!(directory >= 3 * 8, "a pointer a page");
        assert_eq!(table.bytes(), directory, "no page before the first slot");
        assert_eq!(table.slot(0).copied(), Some(0));
        *table.slot(PAGE as u64 * 2 + 5).unwrap() = 7;
        assert_eq!(table.allocated, 2);
        assert_eq!(table.bytes(), directory + 2 * PAGE_BYTES);
        assert_eq!(table.slot(PAGE as u64 * 2 + 5).copied(), Some(7));
        assert!(table.slot(3 * PAGE as u64).is_none());
        assert_eq!(table.growth(5), PAGE_BYTES, "one page is left");
    }
}
