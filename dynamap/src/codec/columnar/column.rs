//! One column: the values found at one place in the record shape (one struct field of every
//! list element, say), kept as separate streams of tags, lengths, integers, floats and text
//! so that each holds similar bytes.

use std::collections::HashMap;

use super::CodecError;
use super::floats::{self, Floats};
use super::ints::{self, Forms};
use super::tags::Tag;
use super::varint::{self, Reader};

/// A column being written.
#[derive(Debug, Default)]
pub(crate) struct ColumnWriter {
    tags: Vec<u8>,
    /// Varints: lengths, counts and dictionary codes.
    lens: Vec<u8>,
    ints: Vec<u64>,
    floats: Vec<u64>,
    /// String and byte literals.
    text: Vec<u8>,
    /// Strings seen so far in this column, with their codes.
    dictionary: Dictionary,
}

/// Small dictionaries (an enum's names, a struct's field names) are scanned; larger ones
/// are hashed (with SipHash: the strings may come from end users).
#[derive(Debug, Default)]
struct Dictionary {
    entries: Vec<Box<str>>,
    index: HashMap<Box<str>, u64>,
}

impl Dictionary {
    const SCAN_UP_TO: usize = 16;

    fn get(&self, s: &str) -> Option<u64> {
        if self.entries.len() <= Self::SCAN_UP_TO {
            self.entries
                .iter()
                .position(|e| &**e == s)
                .map(|i| i as u64)
        } else {
            self.index.get(s).copied()
        }
    }

    fn insert(&mut self, s: &str) -> u64 {
        let code = self.entries.len() as u64;
        self.entries.push(s.into());
        if self.entries.len() > Self::SCAN_UP_TO {
            if self.index.is_empty() {
                let all = self.entries.iter().enumerate();
                self.index = all.map(|(i, e)| (e.clone(), i as u64)).collect();
            } else {
                self.index.insert(s.into(), code);
            }
        }
        code
    }
}

impl ColumnWriter {
    pub(crate) fn tag(&mut self, tag: Tag) {
        self.tags.push(tag as u8);
    }

    pub(crate) fn first_tag(&self) -> Option<u8> {
        self.tags.first().copied()
    }

    pub(crate) fn len(&mut self, len: usize) {
        varint::put(&mut self.lens, len as u64);
    }

    pub(crate) fn int(&mut self, bits: u64) {
        self.ints.push(bits);
    }

    pub(crate) fn float(&mut self, bits: u64) {
        self.floats.push(bits);
    }

    pub(crate) fn raw(&mut self, bytes: &[u8]) {
        self.len(bytes.len());
        self.text.extend_from_slice(bytes);
    }

    /// A dictionary-coded string: its code, then (the first time only) its text. Codes start
    /// at `offset`, leaving the codes below it for the caller's markers.
    /// Returns the string's code.
    pub(crate) fn string(&mut self, s: &str, offset: u64) -> u64 {
        if let Some(code) = self.dictionary.get(s) {
            self.code(code, offset);
            return code;
        }
        let code = self.dictionary.insert(s);
        self.code(code, offset);
        self.raw(s.as_bytes());
        code
    }

    /// The code of a string already in the dictionary.
    pub(crate) fn code(&mut self, code: u64, offset: u64) {
        varint::put(&mut self.lens, code + offset);
    }

    /// The floats, for [`Floats::new`].
    pub(crate) fn floats(&self) -> &[u64] {
        &self.floats
    }

    /// Appends the finished column: `floats` are this column's floats, `earlier` those of
    /// the columns finished before it.
    pub(crate) fn finish(&self, out: &mut Vec<u8>, floats: &Floats<'_>, earlier: &[Floats<'_>]) {
        put_block(out, &self.tags);
        put_block(out, &self.lens);
        ints::put_ints(out, &self.ints, Forms::Version1);
        floats::put_floats(out, floats, earlier, Forms::Version1, &[]);
        put_block(out, &self.text);
    }
}

fn put_block(out: &mut Vec<u8>, bytes: &[u8]) {
    varint::put(out, bytes.len() as u64);
    out.extend_from_slice(bytes);
}

/// A column being read.
#[derive(Debug)]
pub(crate) struct ColumnReader<'a> {
    tags: Reader<'a>,
    lens: Reader<'a>,
    ints: std::vec::IntoIter<u64>,
    floats: Vec<u64>,
    next_float: usize,
    text: Reader<'a>,
    dictionary: Vec<&'a str>,
}

impl<'a> ColumnReader<'a> {
    /// Reads a column written by [`ColumnWriter::finish`], after the columns `earlier`.
    pub(crate) fn read(
        input: &mut Reader<'a>,
        earlier: &[ColumnReader<'a>],
    ) -> Result<Self, CodecError> {
        let mut earlier: Vec<&[u64]> = earlier.iter().map(|c| c.floats.as_slice()).collect();
        Ok(Self {
            tags: Reader::new(input.block()?),
            lens: Reader::new(input.block()?),
            ints: ints::read_ints(input)?.into_iter(),
            floats: floats::read_floats(input, &mut earlier[..])?,
            next_float: 0,
            text: Reader::new(input.block()?),
            dictionary: Vec::new(),
        })
    }

    pub(crate) fn tag(&mut self) -> Result<Tag, CodecError> {
        Tag::try_from(self.tags.byte()?)
    }

    pub(crate) fn peek_tag(&self) -> Result<Tag, CodecError> {
        self.tags.clone_peek()
    }

    pub(crate) fn len(&mut self) -> Result<usize, CodecError> {
        self.lens.len()
    }

    pub(crate) fn int(&mut self) -> Result<u64, CodecError> {
        self.ints.next().ok_or(CodecError::Truncated("integer"))
    }

    pub(crate) fn float(&mut self) -> Result<u64, CodecError> {
        let bits = *self
            .floats
            .get(self.next_float)
            .ok_or(CodecError::Truncated("float"))?;
        self.next_float += 1;
        Ok(bits)
    }

    pub(crate) fn raw(&mut self) -> Result<&'a [u8], CodecError> {
        let len = self.lens.len()?;
        self.text.take(len)
    }

    /// A dictionary-coded string, or `None` for a code below `offset` (a marker).
    pub(crate) fn string(&mut self, offset: u64) -> Result<Option<&'a str>, CodecError> {
        let code = self.lens.varint()?;
        let Some(code) = code.checked_sub(offset) else {
            return Ok(None);
        };
        let index = usize::try_from(code).map_err(|_| CodecError::Corrupt("string code"))?;
        if let Some(&known) = self.dictionary.get(index) {
            return Ok(Some(known));
        }
        if index != self.dictionary.len() {
            return Err(CodecError::Corrupt(
                "string code points past the dictionary",
            ));
        }
        let text = std::str::from_utf8(self.raw()?)
            .map_err(|_| CodecError::Corrupt("string is not valid UTF-8"))?;
        self.dictionary.push(text);
        Ok(Some(text))
    }

    /// True when every stream was read to its end.
    pub(crate) fn is_exhausted(&self) -> bool {
        self.tags.is_empty()
            && self.lens.is_empty()
            && self.ints.len() == 0
            && self.next_float == self.floats.len()
            && self.text.is_empty()
    }
}
