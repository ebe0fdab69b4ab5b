//! LEB128 varints and zigzag, the building blocks of every stream.

use super::CodecError;

/// Appends `value` as an unsigned LEB128 varint.
pub(crate) fn put(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        out.push((value as u8) | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

/// Maps signed values to unsigned so small magnitudes of either sign stay short.
pub(crate) fn zigzag(value: i64) -> u64 {
    ((value << 1) ^ (value >> 63)) as u64
}

/// The inverse of [`zigzag`].
pub(crate) fn unzigzag(value: u64) -> i64 {
    ((value >> 1) as i64) ^ -((value & 1) as i64)
}

/// A read position in a byte slice; every read is bounds-checked. (Public, hidden, for the
/// signature of [`Columnar`](crate::codec::Columnar)'s generated methods.)
#[derive(Debug, Clone, Copy)]
pub struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    pub(crate) fn new(bytes: &'a [u8]) -> Self {
        Self { bytes, pos: 0 }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.pos >= self.bytes.len()
    }

    #[inline]
    pub(crate) fn remaining(&self) -> usize {
        self.bytes.len().saturating_sub(self.pos)
    }

    #[inline]
    pub(crate) fn byte(&mut self) -> Result<u8, CodecError> {
        match self.bytes.get(self.pos) {
            Some(&byte) => {
                self.pos += 1;
                Ok(byte)
            }
            None => Err(CodecError::Truncated("byte")),
        }
    }

    /// The next tag without consuming it.
    pub(crate) fn clone_peek(&self) -> Result<super::tags::Tag, CodecError> {
        self.clone().byte().and_then(super::tags::Tag::try_from)
    }

    pub(crate) fn take(&mut self, len: usize) -> Result<&'a [u8], CodecError> {
        let end = self
            .pos
            .checked_add(len)
            .filter(|&end| end <= self.bytes.len())
            .ok_or(CodecError::Truncated("bytes"))?;
        let slice = &self.bytes[self.pos..end];
        self.pos = end;
        Ok(slice)
    }

    #[inline]
    pub(crate) fn varint(&mut self) -> Result<u64, CodecError> {
        // Most varints of a column are one byte.
        if let Some(&byte) = self.bytes.get(self.pos)
            && byte < 0x80
        {
            self.pos += 1;
            return Ok(u64::from(byte));
        }
        self.long_varint()
    }

    fn long_varint(&mut self) -> Result<u64, CodecError> {
        let mut value = 0u64;
        for shift in (0..64).step_by(7) {
            let byte = self.byte()?;
            let bits = u64::from(byte & 0x7f);
            // The tenth byte may only carry the top bit of a u64.
            if shift == 63 && bits > 1 {
                return Err(CodecError::Corrupt("varint overflows 64 bits"));
            }
            value |= bits << shift;
            if byte & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err(CodecError::Corrupt("varint longer than 10 bytes"))
    }

    /// A varint used as a length or count, which must fit in `usize`.
    #[inline]
    pub(crate) fn len(&mut self) -> Result<usize, CodecError> {
        usize::try_from(self.varint()?).map_err(|_| CodecError::Corrupt("length overflows usize"))
    }

    /// A length-prefixed byte slice.
    pub(crate) fn block(&mut self) -> Result<&'a [u8], CodecError> {
        let len = self.len()?;
        self.take(len)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints_round_trip_at_every_width() {
        let values = [
            0,
            1,
            127,
            128,
            300,
            16_383,
            16_384,
            u64::from(u32::MAX),
            u64::MAX,
        ];
        let mut out = Vec::new();
        for v in values {
            put(&mut out, v);
        }
        let mut reader = Reader::new(&out);
        for v in values {
            assert_eq!(reader.varint().expect("reads"), v);
        }
        assert!(reader.is_empty());
    }

    #[test]
    fn zigzag_keeps_small_magnitudes_small() {
        for v in [0, -1, 1, -2, 2, i64::MIN, i64::MAX] {
            assert_eq!(unzigzag(zigzag(v)), v);
        }
        assert_eq!(zigzag(-1), 1);
        assert_eq!(zigzag(1), 2);
    }

    #[test]
    fn overlong_and_truncated_varints_are_errors() {
        assert!(Reader::new(&[0xff; 11]).varint().is_err());
        assert!(Reader::new(&[0x80]).varint().is_err());
        let mut too_big = vec![0xff; 9];
        too_big.push(0x02);
        assert!(Reader::new(&too_big).varint().is_err());
    }
}
