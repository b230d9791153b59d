//! A small bounds-checked little-endian reader over a byte slice. Every read
//! either succeeds or returns [`ContainerError::Truncated`] naming the region
//! being read; nothing here can panic.

use super::error::{ContainerError, Result};

#[derive(Clone, Debug)]
pub(crate) struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
    what: &'static str,
}

impl<'a> Reader<'a> {
    /// A reader over `data`; `what` names the region in error messages.
    pub(crate) fn new(data: &'a [u8], what: &'static str) -> Self {
        Reader { data, pos: 0, what }
    }

    /// A reader over `data` starting at `pos` (which may be past the end:
    /// the first read then fails).
    pub(crate) fn at(data: &'a [u8], pos: usize, what: &'static str) -> Self {
        Reader { data, pos, what }
    }

    pub(crate) fn pos(&self) -> usize {
        self.pos
    }

    pub(crate) fn remaining(&self) -> usize {
        self.data.len().saturating_sub(self.pos)
    }

    /// The bytes not yet read.
    pub(crate) fn rest(&self) -> &'a [u8] {
        self.data.get(self.pos..).unwrap_or(&[])
    }

    fn truncated(&self, need: usize) -> ContainerError {
        ContainerError::Truncated { what: self.what, offset: self.pos, need, have: self.remaining() }
    }

    /// The next `n` bytes.
    pub(crate) fn bytes(&mut self, n: usize) -> Result<&'a [u8]> {
        let end = self.pos.checked_add(n).ok_or_else(|| self.truncated(n))?;
        let s = self.data.get(self.pos..end).ok_or_else(|| self.truncated(n))?;
        self.pos = end;
        Ok(s)
    }

    /// `count` records of `size` bytes each, checking that they all exist
    /// before anything is allocated by the caller.
    pub(crate) fn array(&mut self, count: usize, size: usize) -> Result<&'a [u8]> {
        let total = count.checked_mul(size).ok_or(ContainerError::Truncated {
            what: self.what,
            offset: self.pos,
            need: usize::MAX,
            have: self.remaining(),
        })?;
        self.bytes(total)
    }

    pub(crate) fn array_n<const N: usize>(&mut self) -> Result<[u8; N]> {
        let s = self.bytes(N)?;
        let mut out = [0u8; N];
        out.copy_from_slice(s);
        Ok(out)
    }

    pub(crate) fn u8(&mut self) -> Result<u8> {
        Ok(self.array_n::<1>()?[0])
    }

    pub(crate) fn u16(&mut self) -> Result<u16> {
        Ok(u16::from_le_bytes(self.array_n()?))
    }

    pub(crate) fn u32(&mut self) -> Result<u32> {
        Ok(u32::from_le_bytes(self.array_n()?))
    }

    pub(crate) fn u64(&mut self) -> Result<u64> {
        Ok(u64::from_le_bytes(self.array_n()?))
    }

    pub(crate) fn f32(&mut self) -> Result<f32> {
        Ok(f32::from_le_bytes(self.array_n()?))
    }

    /// A little-endian u32 read as a `usize` count/offset.
    pub(crate) fn u32_usize(&mut self) -> Result<usize> {
        Ok(self.u32()? as usize)
    }
}

/// The NUL-terminated UTF-8 string starting at `offset` of `data`, or why not.
pub(crate) fn cstr_at(data: &[u8], offset: usize) -> std::result::Result<&str, &'static str> {
    let tail = data.get(offset..).ok_or("offset out of range")?;
    let len = tail.iter().position(|&b| b == 0).ok_or("no NUL terminator")?;
    std::str::from_utf8(tail.get(..len).unwrap_or(&[])).map_err(|_| "not UTF-8")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_little_endian_and_reports_truncation() {
        let data = [1u8, 0, 0, 0, 0x34, 0x12, 9];
        let mut r = Reader::new(&data, "test");
        assert_eq!(r.u32().unwrap(), 1);
        assert_eq!(r.u16().unwrap(), 0x1234);
        assert_eq!(r.remaining(), 1);
        let e = r.u32().unwrap_err();
        assert_eq!(e, ContainerError::Truncated { what: "test", offset: 6, need: 4, have: 1 });
        // A failed read does not move the position.
        assert_eq!(r.pos(), 6);
        assert_eq!(r.u8().unwrap(), 9);
    }

    #[test]
    fn huge_arrays_fail_without_overflow() {
        let data = [0u8; 8];
        let mut r = Reader::new(&data, "test");
        assert!(r.array(usize::MAX, 16).is_err());
        assert!(r.array(3, 4).is_err());
        assert_eq!(r.array(2, 4).unwrap().len(), 8);
        let mut far = Reader::at(&data, usize::MAX, "test");
        assert!(far.u8().is_err());
        assert!(far.rest().is_empty());
    }

    #[test]
    fn c_strings() {
        let data = b"abc\0\xff\0";
        assert_eq!(cstr_at(data, 0), Ok("abc"));
        assert_eq!(cstr_at(data, 3), Ok(""));
        assert_eq!(cstr_at(data, 4), Err("not UTF-8"));
        assert_eq!(cstr_at(data, 7), Err("offset out of range"));
        assert_eq!(cstr_at(b"ab", 0), Err("no NUL terminator"));
    }
}
