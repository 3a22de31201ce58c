//! What the property tests share.

/// Reads choices from a byte tape (proptest shrinks the tape); past its end
/// every choice is 0.
pub struct Tape<'a>(pub &'a [u8], pub usize);

impl Tape<'_> {
    /// The next choice, below `below`.
    pub fn next(&mut self, below: u8) -> u8 {
        let b = self.0.get(self.1).copied().unwrap_or(0);
        self.1 += 1;
        b % below
    }
}
