//! Byte offsets in the file to lines and columns, and offsets inside a
//! TOML string back to the file.

use std::ops::Range;

use toml::Spanned;

use super::{Location, ProblemError};

/// The text being loaded, the name errors give it, and where its lines
/// start.
pub(crate) struct Source<'a> {
    pub(crate) text: &'a str,
    pub(crate) file: &'a str,
    /// The byte offset of each line's start, in order; built once, so that
    /// locating is a binary search, not a scan from the file's start.
    line_starts: Vec<usize>,
}

impl<'a> Source<'a> {
    /// `text`, named `file` in errors.
    pub(crate) fn new(text: &'a str, file: &'a str) -> Self {
        let line_starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        Self {
            text,
            file,
            line_starts,
        }
    }

    /// The line and column of byte `offset` (clamped to the text).
    pub(crate) fn location(&self, offset: usize) -> Location {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        // The last line starting at or before `offset`; line 0 starts at 0.
        let line = self.line_starts.partition_point(|&start| start <= offset) - 1;
        let line_start = self.line_starts[line];
        Location {
            file: self.file.to_owned(),
            line: line + 1,
            column: self.text[line_start..offset].chars().count() + 1,
        }
    }

    /// The location of the start of `span`.
    pub(crate) fn at(&self, span: &Range<usize>) -> Location {
        self.location(span.start)
    }

    /// An [`ProblemError::Invalid`] at `span`.
    pub(crate) fn invalid(&self, span: &Range<usize>, message: impl Into<String>) -> ProblemError {
        ProblemError::Invalid {
            at: self.at(span),
            message: message.into(),
        }
    }

    /// Where each byte of the decoded string `value` came from in the file.
    pub(crate) fn string_map(&self, value: &Spanned<String>) -> StringMap {
        let span = value.span();
        let offsets = self
            .text
            .get(span.clone())
            .and_then(|raw| decode_offsets(raw, span.start, value.get_ref()));
        StringMap {
            start: span.start,
            offsets,
        }
    }
}

/// Maps byte offsets in a decoded TOML string to byte offsets in the file.
/// Strings whose escapes cannot be followed (multi-line ones) map every
/// offset to the string's opening quote.
pub(crate) struct StringMap {
    start: usize,
    /// `decoded.len() + 1` file offsets, or `None`.
    offsets: Option<Vec<usize>>,
}

impl StringMap {
    /// The file offset of byte `i` of the decoded string.
    pub(crate) fn offset(&self, i: usize) -> usize {
        self.offsets
            .as_ref()
            .and_then(|o| o.get(i).or(o.last()).copied())
            .unwrap_or(self.start)
    }
}

/// The file offset of every byte of `decoded` (and one past its end), from
/// the string's raw text `raw` at file offset `start`; `None` if `raw` is not
/// a one-line string whose decoding gives `decoded`.
fn decode_offsets(raw: &str, start: usize, decoded: &str) -> Option<Vec<usize>> {
    if raw.starts_with("\"\"\"") || raw.starts_with("'''") || raw.len() < 2 {
        return None;
    }
    let quote = raw.chars().next()?;
    if !matches!(quote, '"' | '\'') || !raw.ends_with(quote) {
        return None;
    }
    let inner = &raw[1..raw.len() - 1];
    let base = start + 1;
    let mut offsets = Vec::with_capacity(decoded.len() + 1);
    if quote == '\'' {
        if inner != decoded {
            return None;
        }
        offsets.extend((0..=inner.len()).map(|i| base + i));
        return Some(offsets);
    }
    let mut out = String::with_capacity(decoded.len());
    let mut chars = inner.char_indices();
    while let Some((i, c)) = chars.next() {
        let produced = if c == '\\' {
            let (_, escape) = chars.next()?;
            match escape {
                'b' => '\u{8}',
                't' => '\t',
                'n' => '\n',
                'f' => '\u{c}',
                'r' => '\r',
                'e' => '\u{1b}',
                '"' => '"',
                '\\' => '\\',
                'x' => hex_char(&mut chars, 2)?,
                'u' => hex_char(&mut chars, 4)?,
                'U' => hex_char(&mut chars, 8)?,
                _ => return None,
            }
        } else {
            c
        };
        offsets.extend(std::iter::repeat_n(base + i, produced.len_utf8()));
        out.push(produced);
    }
    offsets.push(base + inner.len());
    (out == decoded).then_some(offsets)
}

fn hex_char(chars: &mut std::str::CharIndices<'_>, digits: usize) -> Option<char> {
    let mut value: u32 = 0;
    for _ in 0..digits {
        let (_, h) = chars.next()?;
        value = value.checked_mul(16)?.checked_add(h.to_digit(16)?)?;
    }
    char::from_u32(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_columns_count_from_one_in_characters() {
        let source = Source::new("ab\ncé d\n", "f");
        assert_eq!((source.location(0).line, source.location(0).column), (1, 1));
        assert_eq!((source.location(3).line, source.location(3).column), (2, 1));
        // `d` is byte 7 but character 4 of line 2.
        assert_eq!(source.location(7).column, 4);
        // Inside `é` and past the end: clamped, no panic.
        assert_eq!(source.location(5).column, 2);
        assert_eq!(source.location(999).line, 3);
    }

    #[test]
    fn escaped_quotes_map_back_to_the_file() {
        let raw = r#""location == \"shop\"""#;
        let map = decode_offsets(raw, 10, "location == \"shop\"").unwrap();
        // The decoded `"` at 12 is the raw `\"` at 1 + 12.
        assert_eq!(map[12], 10 + 1 + 12);
        // `s` of shop comes after one escape: one byte further on.
        assert_eq!(map[13], 10 + 1 + 14);
        assert_eq!(*map.last().unwrap(), 10 + raw.len() - 1);
        assert!(decode_offsets("'a'", 0, "a").is_some());
        assert!(decode_offsets(r#""a\q""#, 0, "a").is_none());
        assert!(decode_offsets(r#""\u00e9""#, 0, "é").is_some());
        assert!(decode_offsets("\"\"\"x\"\"\"", 0, "x").is_none());
    }
}
