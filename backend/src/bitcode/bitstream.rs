//! The LLVM bitstream container: bit-level reads, abbreviations, BLOCKINFO,
//! blocks and records. Knows nothing about IR.
//!
//! Every read is bounds-checked; array lengths are bounded by the bits left,
//! so hostile input cannot make it allocate without limit. Zero-width fixed
//! and VBR operands read as 0, as LLVM does.

use super::error::{ErrorKind, Result};

/// Abbreviation ids with fixed meaning.
pub const END_BLOCK: u32 = 0;
pub const ENTER_SUBBLOCK: u32 = 1;
pub const DEFINE_ABBREV: u32 = 2;
pub const UNABBREV_RECORD: u32 = 3;

const MAX_DEPTH: usize = 32;
const MAX_ABBREVS: usize = 1 << 12;
const MAX_ABBREV_OPS: u64 = 1 << 10;
/// Cap on the number of elements of one zero-width array operand.
const MAX_ZERO_WIDTH_ARRAY: u64 = 1 << 16;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    Literal(u64),
    Fixed(u8),
    Vbr(u8),
    Array,
    Char6,
    Blob,
}

/// An abbreviation: its operands `start..end` in [`Cursor::bi_ops`] (BLOCKINFO
/// abbreviations, kept for the whole stream) or [`Cursor::ops`] (those of
/// the open blocks, dropped when their block ends).
#[derive(Debug, Clone, Copy)]
struct Abbrev {
    start: u32,
    end: u32,
    blockinfo: bool,
}

/// A bit cursor over a byte slice.
#[derive(Debug, Clone)]
pub struct Bits<'a> {
    data: &'a [u8],
    pos: u64,
    end: u64,
}

impl<'a> Bits<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Bits { data, pos: 0, end: data.len() as u64 * 8 }
    }
    #[inline]
    pub fn pos(&self) -> u64 {
        self.pos
    }
    #[inline]
    pub fn remaining(&self) -> u64 {
        self.end - self.pos
    }
    #[inline]
    pub fn at_end(&self) -> bool {
        self.pos >= self.end
    }

    /// Reads `width` (0..=64) bits, least significant first.
    #[inline(always)]
    pub fn read(&mut self, width: u32) -> Result<u64> {
        if width <= 56 {
            let byte = (self.pos >> 3) as usize;
            if let Some(w) = self.data.get(byte..byte + 8) {
                // The 64-bit window from `byte` holds the `width` + 7 bits needed.
                let mut buf = [0u8; 8];
                buf.copy_from_slice(w);
                let v = (u64::from_le_bytes(buf) >> (self.pos & 7)) & ((1u64 << width) - 1);
                self.pos += u64::from(width);
                return Ok(v);
            }
        }
        self.read_general(width)
    }

    /// The next 57 or more bits (from the current position), when 8 bytes are left.
    fn window(&self) -> Option<u64> {
        let byte = (self.pos >> 3) as usize;
        let w = self.data.get(byte..byte + 8)?;
        let mut buf = [0u8; 8];
        buf.copy_from_slice(w);
        Some(u64::from_le_bytes(buf) >> (self.pos & 7))
    }

    /// Appends `n` values of `width` (1..=32) bits each to `out`, several
    /// from each 64-bit load, each mapped through `f`.
    #[inline]
    fn read_fixed_append(&mut self, width: u32, n: usize, out: &mut Vec<u64>, f: impl Fn(u64) -> u64) -> Result<()> {
        let mut left = n;
        if (1..=32).contains(&width) {
            let mask = (1u64 << width) - 1;
            // Whole values in every window: it holds at least 57 bits (one division per array,
            // not per window).
            let per_window = (57 / width) as usize;
            while left > 0 {
                let byte = (self.pos >> 3) as usize;
                let Some(w) = self.data.get(byte..byte + 8) else { break };
                let mut buf = [0u8; 8];
                buf.copy_from_slice(w);
                let shift = (self.pos & 7) as u32;
                let window = u64::from_le_bytes(buf) >> shift;
                // At least one: 57 bits ≥ 32.
                let k = per_window.min(left);
                out.extend((0..k).map(|j| f((window >> (j as u32 * width)) & mask)));
                self.pos += u64::from(width) * k as u64;
                left -= k;
            }
        }
        for _ in 0..left {
            let v = self.read(width)?;
            out.push(f(v));
        }
        Ok(())
    }

    #[cold]
    #[inline(never)]
    fn read_general(&mut self, width: u32) -> Result<u64> {
        if width == 0 {
            return Ok(0);
        }
        if u64::from(width) > self.remaining() {
            return Err(ErrorKind::UnexpectedEof);
        }
        let byte = (self.pos >> 3) as usize;
        let shift = (self.pos & 7) as u32;
        let v = if byte + 8 <= self.data.len() && width + shift <= 64 {
            let mut buf = [0u8; 8];
            buf.copy_from_slice(&self.data[byte..byte + 8]);
            u64::from_le_bytes(buf) >> shift
        } else {
            self.read_slow(width)
        };
        self.pos += u64::from(width);
        Ok(if width == 64 { v } else { v & ((1u64 << width) - 1) })
    }

    fn read_slow(&self, width: u32) -> u64 {
        let mut v = 0u64;
        for i in 0..u64::from(width) {
            let p = self.pos + i;
            let bit = (self.data[(p >> 3) as usize] >> (p & 7)) & 1;
            v |= u64::from(bit) << i;
        }
        v
    }

    /// Reads a variable-width integer in chunks of `width` bits.
    #[inline(always)]
    pub fn read_vbr(&mut self, width: u32) -> Result<u64> {
        if (2..=32).contains(&width) {
            let byte = (self.pos >> 3) as usize;
            if let Some(w) = self.data.get(byte..byte + 8) {
                let mut buf = [0u8; 8];
                buf.copy_from_slice(w);
                let window = u64::from_le_bytes(buf) >> (self.pos & 7);
                let hi = 1u64 << (width - 1);
                if window & hi == 0 {
                    // One chunk, inside the window (see `read`).
                    self.pos += u64::from(width);
                    return Ok(window & (hi - 1));
                }
            }
        }
        self.read_vbr_general(width)
    }

    #[inline(never)]
    fn read_vbr_general(&mut self, width: u32) -> Result<u64> {
        if width == 0 {
            return Ok(0);
        }
        if !(2..=32).contains(&width) {
            return Err(ErrorKind::InvalidAbbrev("VBR width out of range"));
        }
        // Fast path: decode from one 64-bit window when the value fits in it.
        let byte = (self.pos >> 3) as usize;
        if byte + 8 <= self.data.len() {
            let shift = (self.pos & 7) as u32;
            let mut buf = [0u8; 8];
            buf.copy_from_slice(&self.data[byte..byte + 8]);
            let mut window = u64::from_le_bytes(buf) >> shift;
            let avail = 64 - shift;
            let hi = 1u64 << (width - 1);
            let mask = (1u64 << width) - 1;
            let mut v = 0u64;
            let mut used = 0u32;
            let mut out_shift = 0u32;
            while used + width <= avail {
                let chunk = window & mask;
                window >>= width;
                used += width;
                v |= (chunk & (hi - 1)) << out_shift;
                if chunk & hi == 0 {
                    // `used` ≤ 64 - shift bits from `byte`, all inside the data.
                    self.pos += u64::from(used);
                    return Ok(v);
                }
                out_shift += width - 1;
            }
        }
        self.read_vbr_slow(width)
    }

    /// Reads a vbr6 value (record codes, lengths and unabbreviated operands),
    /// with a fast path for the common single-chunk value.
    #[inline(always)]
    pub fn read_vbr6(&mut self) -> Result<u64> {
        let byte = (self.pos >> 3) as usize;
        if let Some(w) = self.data.get(byte..byte + 8) {
            let mut buf = [0u8; 8];
            buf.copy_from_slice(w);
            let window = u64::from_le_bytes(buf) >> (self.pos & 7);
            // The window holds at least 57 bits, all before the end of the data.
            if window & 0x20 == 0 {
                self.pos += 6;
                return Ok(window & 0x1f);
            }
            if window & 0x800 == 0 {
                self.pos += 12;
                return Ok((window & 0x1f) | ((window >> 1) & 0x3e0));
            }
            // Up to 9 chunks end inside the window's 57 valid bits.
            let stops = !window & 0x0020_8208_2082_0820;
            if stops != 0 {
                let chunks = (stops.trailing_zeros() - 5) / 6 + 1;
                let mut v = 0u64;
                for j in 0..chunks {
                    v |= ((window >> (6 * j)) & 0x1f) << (5 * j);
                }
                self.pos += u64::from(6 * chunks);
                return Ok(v);
            }
        }
        self.read_vbr_general(6)
    }

    fn read_vbr_slow(&mut self, width: u32) -> Result<u64> {
        let hi = 1u64 << (width - 1);
        let mut chunk = self.read(width)?;
        if chunk & hi == 0 {
            return Ok(chunk);
        }
        let mut v = 0u64;
        let mut shift = 0u32;
        loop {
            if shift >= 64 {
                return Err(ErrorKind::Malformed("VBR value exceeds 64 bits"));
            }
            v |= (chunk & (hi - 1)) << shift;
            if chunk & hi == 0 {
                return Ok(v);
            }
            shift += width - 1;
            chunk = self.read(width)?;
        }
    }

    pub fn align32(&mut self) -> Result<()> {
        let p = (self.pos + 31) & !31;
        if p > self.end {
            return Err(ErrorKind::UnexpectedEof);
        }
        self.pos = p;
        Ok(())
    }

    /// Whether the `len` bits from the current position are `chunks` (as
    /// [`Bits::capture`] wrote them). Does not move.
    pub fn peek_equal(&self, chunks: &[u64], len: u64) -> bool {
        if len > self.remaining() {
            return false;
        }
        let mut p = self.clone();
        let mut left = len;
        for &c in chunks {
            let w = left.min(56) as u32;
            match p.read(w) {
                Ok(v) if v == c => left -= u64::from(w),
                _ => return false,
            }
        }
        left == 0
    }

    /// Appends the bits from `from` to the current position to `out` in
    /// 56-bit pieces, for [`Bits::peek_equal`]; returns how many bits.
    pub fn capture(&self, from: u64, out: &mut Vec<u64>) -> u64 {
        let mut p = Bits { data: self.data, pos: from.min(self.pos), end: self.pos };
        let len = p.remaining();
        while p.remaining() > 0 {
            let w = p.remaining().min(56) as u32;
            let Ok(v) = p.read(w) else { break };
            out.push(v);
        }
        len
    }

    pub fn skip_bits(&mut self, n: u64) -> Result<()> {
        if n > self.remaining() {
            return Err(ErrorKind::UnexpectedEof);
        }
        self.pos += n;
        Ok(())
    }
}

struct Scope {
    block_id: u32,
    abbrev_width: u32,
    /// This block's abbreviations are `Cursor::abbrevs[abbrev_base..]` (the
    /// BLOCKINFO ones for its id first), their operands `Cursor::ops[ops_base..]`.
    abbrev_base: usize,
    ops_base: usize,
    /// End of this block in bits (from its length word).
    end: u64,
}

/// What comes next in a block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Entry {
    EndBlock,
    SubBlock(u32),
    /// A record with this abbreviation id; read it with [`Cursor::read_record`].
    Record(u32),
}

/// A record read into reusable storage: its code, operands and blob.
#[derive(Debug, Default)]
pub struct Record {
    pub code: u32,
    pub ops: Vec<u64>,
    /// Byte range of the blob operand, if the abbreviation had one.
    pub blob: Option<(usize, usize)>,
}

/// The storage of a [`Cursor`], reusable from one stream to the next so that
/// reading a module does not allocate for its block structure.
#[derive(Debug, Default)]
pub struct CursorStorage {
    scopes: Vec<Scope>,
    ops: Vec<Op>,
    abbrevs: Vec<Abbrev>,
    bi_ops: Vec<Op>,
    /// BLOCKINFO abbreviations: (block id, abbreviation), in definition order.
    blockinfo: Vec<(u32, Abbrev)>,
    /// The last BLOCKINFO blocks decoded, kept across streams: a DXC
    /// version writes the same one into every module, so a byte-equal block
    /// is not decoded again.
    bi_cache: Vec<BlockinfoCache>,
    /// Next entry of `bi_cache` to replace.
    bi_cache_next: usize,
    /// Abbreviation definitions decoded before, by their bits (a module's
    /// blocks define the same few abbreviations as every other module's).
    def_cache: Vec<DefCache>,
    def_ops: Vec<Op>,
    def_next: usize,
}

/// How many abbreviation definitions [`CursorStorage`] remembers: sets of
/// `DEF_WAYS` chosen by the definition's first 9 bits (every definition has
/// at least 9: a 5-bit operand count and one operand).
const DEF_SETS: usize = 16;
const DEF_WAYS: usize = 4;

/// First entry of the set of `def_cache` for a definition starting with `w`.
fn def_set(w: u64) -> usize {
    ((((w & 0x1ff) as u32).wrapping_mul(0x9e37_79b9) >> 28) as usize % DEF_SETS) * DEF_WAYS
}

/// A remembered abbreviation definition: its first `len` (≤ 57) bits and its
/// operands `def_ops[start..end]`.
#[derive(Debug, Clone, Copy)]
struct DefCache {
    bits: u64,
    len: u32,
    start: u32,
    end: u32,
}

impl DefCache {
    fn mask(&self) -> u64 {
        (1u64 << self.len) - 1
    }
}

/// How many BLOCKINFO blocks [`CursorStorage`] remembers.
const BLOCKINFO_CACHE: usize = 16;

#[derive(Debug, Default)]
struct BlockinfoCache {
    width: u32,
    body: Vec<u8>,
    ops: Vec<Op>,
    blockinfo: Vec<(u32, Abbrev)>,
}

impl std::fmt::Debug for Scope {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Scope({})", self.block_id)
    }
}

impl CursorStorage {
    /// Remembers the definition just decoded from `len` bits of `window` into `ops[start..]`.
    fn remember_def(&mut self, window: u64, len: u32, start: usize) {
        let ops = self.ops.get(start..).unwrap_or(&[]);
        if self.def_cache.is_empty() {
            self.def_cache = vec![DefCache { bits: 0, len: 0, start: 0, end: 0 }; DEF_SETS * DEF_WAYS];
        }
        if self.def_ops.len() > 64 * DEF_SETS * DEF_WAYS {
            // Start over rather than collect garbage: the working set is small.
            self.def_cache.iter_mut().for_each(|d| d.len = 0);
            self.def_ops.clear();
        }
        let d = DefCache {
            bits: window & ((1u64 << len) - 1),
            len,
            start: self.def_ops.len() as u32,
            end: (self.def_ops.len() + ops.len()) as u32,
        };
        self.def_ops.extend_from_slice(ops);
        let set = def_set(window);
        let way = self.def_next % DEF_WAYS;
        self.def_next = self.def_next.wrapping_add(1);
        if let Some(slot) = self.def_cache.get_mut(set + way) {
            *slot = d;
        }
    }

    fn clear(&mut self) {
        self.scopes.clear();
        self.ops.clear();
        self.abbrevs.clear();
        self.bi_ops.clear();
        self.blockinfo.clear();
    }
    /// Bytes held, to decide whether keeping it for reuse is worthwhile.
    pub fn capacity_bytes(&self) -> usize {
        self.scopes.capacity() * std::mem::size_of::<Scope>()
            + (self.ops.capacity() + self.bi_ops.capacity()) * std::mem::size_of::<Op>()
            + self.abbrevs.capacity() * std::mem::size_of::<Abbrev>()
            + self.def_cache.capacity() * std::mem::size_of::<DefCache>()
            + self.def_ops.capacity() * std::mem::size_of::<Op>()
            + self.blockinfo.capacity() * std::mem::size_of::<(u32, Abbrev)>()
            + self
                .bi_cache
                .iter()
                .map(|c| {
                    c.body.capacity()
                        + c.ops.capacity() * std::mem::size_of::<Op>()
                        + c.blockinfo.capacity() * std::mem::size_of::<(u32, Abbrev)>()
                })
                .sum::<usize>()
    }
}

/// A cursor over a bitstream with its block scopes and BLOCKINFO abbreviations.
pub struct Cursor<'a> {
    pub bits: Bits<'a>,
    st: CursorStorage,
    /// Copies of the innermost scope's fields for the record loop (`in_block`
    /// false at top level).
    in_block: bool,
    cur_end: u64,
    cur_width: u32,
    cur_base: usize,
}

/// A block's header: abbreviation width and where its body ends.
#[derive(Debug, Clone, Copy)]
pub struct BlockHeader {
    pub width: u32,
    /// Bit offset of the body (after the length word) and of the block's end.
    pub start: u64,
    pub end: u64,
}

impl<'a> Cursor<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Self::with_storage(data, CursorStorage::default())
    }

    /// A cursor that uses (cleared) `storage` from an earlier cursor.
    pub fn with_storage(data: &'a [u8], mut storage: CursorStorage) -> Self {
        storage.clear();
        Cursor { bits: Bits::new(data), st: storage, in_block: false, cur_end: 0, cur_width: 2, cur_base: 0 }
    }

    /// Gives back the storage for reuse.
    pub fn into_storage(self) -> CursorStorage {
        self.st
    }

    pub fn data(&self) -> &'a [u8] {
        self.bits.data
    }

    /// The innermost block id.
    pub fn block_id(&self) -> Option<u32> {
        self.st.scopes.last().map(|s| s.block_id)
    }

    /// Bits left before the end of the innermost block (0 at top level), to size
    /// storage for what the block holds before reading it.
    pub fn block_bits_left(&self) -> u64 {
        self.st.scopes.last().map_or(0, |s| s.end.saturating_sub(self.bits.pos()))
    }

    pub fn depth(&self) -> usize {
        self.st.scopes.len()
    }

    #[inline]
    fn abbrev_width(&self) -> u32 {
        self.st.scopes.last().map_or(2, |s| s.abbrev_width)
    }

    fn sync(&mut self) {
        match self.st.scopes.last() {
            Some(s) => {
                self.in_block = true;
                self.cur_end = s.end;
                self.cur_width = s.abbrev_width;
                self.cur_base = s.abbrev_base;
            }
            None => {
                self.in_block = false;
                self.cur_width = 2;
                self.cur_base = 0;
            }
        }
    }

    /// Reads the next entry of the current block (or of the top level).
    /// DEFINE_ABBREV entries are consumed here.
    #[inline(always)]
    pub fn advance(&mut self) -> Result<Entry> {
        loop {
            if !self.in_block || self.bits.pos >= self.cur_end {
                return self.advance_edge();
            }
            let id = self.bits.read(self.cur_width)? as u32;
            if let Some(e) = self.entry(id)? {
                return Ok(e);
            }
        }
    }

    /// The entry that abbreviation id `id` (just read) starts, or `None` after consuming a
    /// DEFINE_ABBREV.
    #[inline(always)]
    fn entry(&mut self, id: u32) -> Result<Option<Entry>> {
        match id {
            END_BLOCK => {
                self.bits.align32()?;
                Ok(Some(Entry::EndBlock))
            }
            ENTER_SUBBLOCK => {
                let bid = self.bits.read_vbr(8)?;
                let bid = u32::try_from(bid).map_err(|_| ErrorKind::Malformed("block id too large"))?;
                Ok(Some(Entry::SubBlock(bid)))
            }
            DEFINE_ABBREV => {
                self.define_abbrev()?;
                Ok(None)
            }
            _ => Ok(Some(Entry::Record(id))),
        }
    }

    /// [`Cursor::advance`] at top level or at the end of a block.
    #[cold]
    #[inline(never)]
    fn advance_edge(&mut self) -> Result<Entry> {
        loop {
            let width = match self.st.scopes.last() {
                Some(s) => {
                    if self.bits.pos() >= s.end {
                        return Err(ErrorKind::Malformed("block ends without END_BLOCK"));
                    }
                    s.abbrev_width
                }
                None => {
                    if self.bits.remaining() < 32 {
                        // Top level: trailing padding ends the stream.
                        return Ok(Entry::EndBlock);
                    }
                    2
                }
            };
            let id = self.bits.read(width)? as u32;
            if id == END_BLOCK && self.st.scopes.is_empty() {
                return Err(ErrorKind::Malformed("END_BLOCK at top level"));
            }
            if let Some(e) = self.entry(id)? {
                return Ok(e);
            }
        }
    }

    #[inline(never)]
    fn define_abbrev(&mut self) -> Result<()> {
        let base = self.st.scopes.last().ok_or_else(|| ErrorKind::Malformed("DEFINE_ABBREV at top level"))?.abbrev_base;
        if self.st.abbrevs.len() - base >= MAX_ABBREVS {
            return Err(ErrorKind::Limit("too many abbreviations"));
        }
        let start = self.st.ops.len();
        let at = self.bits.pos;
        let window = self.bits.window();
        let st = &mut self.st;
        let hit = window.and_then(|w| {
            let set = def_set(w);
            st.def_cache.get(set..set + DEF_WAYS)?.iter().find(|d| d.len != 0 && (w ^ d.bits) & d.mask() == 0)
        });
        if let Some(d) = hit {
            // The same bits as a definition decoded before: the same operands.
            let ops = st.def_ops.get(d.start as usize..d.end as usize).unwrap_or(&[]);
            st.ops.extend_from_slice(ops);
            self.bits.pos = at + u64::from(d.len);
        } else {
            read_abbrev_def(&mut self.bits, &mut self.st.ops)?;
            let len = self.bits.pos - at;
            if let (Some(w), true) = (window, len <= 57) {
                self.st.remember_def(w, len as u32, start);
            }
        }
        let end = self.st.ops.len();
        self.st.abbrevs.push(Abbrev { start: start as u32, end: end as u32, blockinfo: false });
        Ok(())
    }

    /// Enters the block whose ENTER_SUBBLOCK id was just read.
    pub fn enter(&mut self, block_id: u32) -> Result<()> {
        let h = self.block_header()?;
        self.enter_block(block_id, h)
    }

    /// Reads the header of the block whose ENTER_SUBBLOCK id was just read;
    /// then [`Cursor::enter_block`] or [`Cursor::skip_body`].
    pub fn block_header(&mut self) -> Result<BlockHeader> {
        if self.st.scopes.len() >= MAX_DEPTH {
            return Err(ErrorKind::Limit("blocks nested too deeply"));
        }
        let width = self.bits.read_vbr(4)? as u32;
        if width > 32 {
            return Err(ErrorKind::Malformed("abbreviation width over 32"));
        }
        self.bits.align32()?;
        let words = self.bits.read(32)?;
        let start = self.bits.pos();
        let end = start + words * 32;
        if end > self.bits.end {
            return Err(ErrorKind::UnexpectedEof);
        }
        if let Some(outer) = self.st.scopes.last() {
            if end > outer.end {
                return Err(ErrorKind::Malformed("block extends past its parent"));
            }
        }
        Ok(BlockHeader { width, start, end })
    }

    /// The bytes of a block's body.
    pub fn body(&self, h: BlockHeader) -> &'a [u8] {
        self.bits.data.get((h.start / 8) as usize..(h.end / 8) as usize).unwrap_or(&[])
    }

    /// Whether BLOCKINFO defined abbreviations for `block_id` (a block's
    /// meaning depends only on its bytes when it did not).
    pub fn has_blockinfo_for(&self, block_id: u32) -> bool {
        self.st.blockinfo.iter().any(|b| b.0 == block_id)
    }

    /// Moves past a block whose header was read, without reading its body.
    pub fn skip_body(&mut self, h: BlockHeader) {
        self.bits.pos = h.end;
    }

    /// Enters a block whose header was read.
    pub fn enter_block(&mut self, block_id: u32, h: BlockHeader) -> Result<()> {
        let BlockHeader { width, end, .. } = h;
        let first_blockinfo = block_id == 0 && self.st.blockinfo.is_empty() && self.st.bi_ops.is_empty();
        if first_blockinfo {
            let body = self.body(h);
            if let Some(c) = self.st.bi_cache.iter().find(|c| c.width == width && c.body.as_slice() == body) {
                self.st.bi_ops.extend_from_slice(&c.ops);
                self.st.blockinfo.extend_from_slice(&c.blockinfo);
                self.bits.pos = end;
                return Ok(());
            }
        }
        let abbrev_base = self.st.abbrevs.len();
        let ops_base = self.st.ops.len();
        // The block starts with the BLOCKINFO abbreviations for its id.
        let st = &mut self.st;
        st.abbrevs.extend(st.blockinfo.iter().filter(|b| b.0 == block_id).map(|b| b.1));
        self.st.scopes.push(Scope { block_id, abbrev_width: width, abbrev_base, ops_base, end });
        self.sync();
        if block_id == 0 {
            self.read_blockinfo()?;
            if first_blockinfo && self.bits.pos == end {
                let body = self.body(h);
                let st = &mut self.st;
                if st.bi_cache.len() < BLOCKINFO_CACHE {
                    st.bi_cache.push(BlockinfoCache::default());
                }
                let slot = st.bi_cache_next % st.bi_cache.len();
                st.bi_cache_next = slot + 1;
                let Some(c) = st.bi_cache.get_mut(slot) else { return Ok(()) };
                c.body.clear();
                c.body.extend_from_slice(body);
                c.ops.clear();
                c.ops.extend_from_slice(&st.bi_ops);
                c.blockinfo.clear();
                c.blockinfo.extend_from_slice(&st.blockinfo);
                c.width = width;
            }
        }
        Ok(())
    }

    /// Skips the block whose ENTER_SUBBLOCK id was just read.
    pub fn skip_block(&mut self) -> Result<()> {
        self.bits.read_vbr(4)?;
        self.bits.align32()?;
        let words = self.bits.read(32)?;
        self.bits.skip_bits(words.checked_mul(32).ok_or_else(|| ErrorKind::UnexpectedEof)?)
    }

    /// Leaves the current block after its END_BLOCK was read.
    pub fn leave(&mut self) {
        if let Some(s) = self.st.scopes.pop() {
            self.st.abbrevs.truncate(s.abbrev_base);
            self.st.ops.truncate(s.ops_base);
        }
        self.sync();
    }

    fn read_blockinfo(&mut self) -> Result<()> {
        let mut cur: Option<u32> = None;
        let mut rec = Record::default();
        loop {
            let id = self.bits.read(self.abbrev_width())? as u32;
            match id {
                END_BLOCK => {
                    self.bits.align32()?;
                    self.leave();
                    return Ok(());
                }
                ENTER_SUBBLOCK => {
                    // Nested blocks in BLOCKINFO are skipped.
                    self.bits.read_vbr(8)?;
                    self.skip_block()?;
                }
                DEFINE_ABBREV => {
                    let bid = cur.ok_or_else(|| ErrorKind::Malformed("BLOCKINFO abbreviation before SETBID"))?;
                    if self.st.blockinfo.iter().filter(|b| b.0 == bid).count() >= MAX_ABBREVS {
                        return Err(ErrorKind::Limit("too many abbreviations"));
                    }
                    let start = self.st.bi_ops.len();
                    read_abbrev_def(&mut self.bits, &mut self.st.bi_ops)?;
                    let end = self.st.bi_ops.len();
                    self.st.blockinfo.push((bid, Abbrev { start: start as u32, end: end as u32, blockinfo: true }));
                }
                _ => {
                    self.read_record(id, &mut rec)?;
                    if rec.code == 1 {
                        // SETBID
                        let b = *rec.ops.first().ok_or_else(|| ErrorKind::Malformed("SETBID without operand"))?;
                        cur = Some(u32::try_from(b).map_err(|_| ErrorKind::Malformed("SETBID id too large"))?);
                    }
                    // BLOCKNAME / SETRECORDNAME are informational.
                }
            }
        }
    }

    /// Reads the record with abbreviation `id` (as returned by [`Cursor::advance`]).
    #[inline]
    pub fn read_record(&mut self, id: u32, rec: &mut Record) -> Result<()> {
        rec.ops.clear();
        rec.blob = None;
        if id == UNABBREV_RECORD {
            return read_unabbreviated(&mut self.bits, rec);
        }
        if id < 4 {
            return Err(ErrorKind::InvalidAbbrevId(id));
        }
        if !self.in_block {
            return Err(ErrorKind::InvalidAbbrevId(id));
        }
        let a = *self
            .cur_base
            .checked_add((id - 4) as usize)
            .and_then(|i| self.st.abbrevs.get(i))
            .ok_or_else(|| ErrorKind::InvalidAbbrevId(id))?;
        let pool = if a.blockinfo { &self.st.bi_ops } else { &self.st.ops };
        let ops = pool.get(a.start as usize..a.end as usize).ok_or_else(|| ErrorKind::InvalidAbbrevId(id))?;
        decode_abbreviated(&mut self.bits, ops, rec)
    }
}

/// Reads an unabbreviated record: vbr6 code, vbr6 count, vbr6 operands.
#[inline]
fn read_unabbreviated(bits: &mut Bits<'_>, rec: &mut Record) -> Result<()> {
    let code = bits.read_vbr6()?;
    rec.code = u32::try_from(code).map_err(|_| ErrorKind::Malformed("record code too large"))?;
    let n = bits.read_vbr6()?;
    // Each operand takes at least 6 bits.
    if n > bits.remaining() / 6 {
        return Err(ErrorKind::UnexpectedEof);
    }
    // Fill in place: no capacity check per operand.
    let start = rec.ops.len();
    rec.ops.resize(start + n as usize, 0);
    // The position lives in a local while the operands are written (`bits.pos` is a `u64`
    // like the slots, so the compiler would reload and store it around every write); a
    // single-chunk value, most operands, is taken here, any other by `read_vbr6`.
    let data = bits.data;
    let mut pos = bits.pos;
    for slot in rec.ops.iter_mut().skip(start) {
        let byte = (pos >> 3) as usize;
        if let Some(w) = data.get(byte..byte + 8) {
            let mut buf = [0u8; 8];
            buf.copy_from_slice(w);
            let window = u64::from_le_bytes(buf) >> (pos & 7);
            if window & 0x20 == 0 {
                *slot = window & 0x1f;
                pos += 6;
                continue;
            }
        }
        bits.pos = pos;
        *slot = bits.read_vbr6()?;
        pos = bits.pos;
    }
    bits.pos = pos;
    Ok(())
}

/// Reads one DEFINE_ABBREV body, appending its operands to `ops`.
fn read_abbrev_def(bits: &mut Bits<'_>, ops: &mut Vec<Op>) -> Result<()> {
    let n = bits.read_vbr(5)?;
    if n > MAX_ABBREV_OPS {
        return Err(ErrorKind::Limit("abbreviation with too many operands"));
    }
    if n == 0 {
        return Err(ErrorKind::InvalidAbbrev("abbreviation without operands"));
    }
    let start = ops.len();
    for _ in 0..n {
        let literal = bits.read(1)? == 1;
        if literal {
            ops.push(Op::Literal(bits.read_vbr(8)?));
        } else {
            let enc = bits.read(3)?;
            let op = match enc {
                1 | 2 => {
                    let w = bits.read_vbr(5)?;
                    if enc == 1 && w > 64 {
                        return Err(ErrorKind::InvalidAbbrev("fixed width over 64"));
                    }
                    if enc == 2 && w > 32 {
                        return Err(ErrorKind::InvalidAbbrev("VBR width over 32"));
                    }
                    if enc == 2 && w == 1 {
                        return Err(ErrorKind::InvalidAbbrev("VBR width 1"));
                    }
                    // Zero-width operands always read 0.
                    if w == 0 {
                        Op::Literal(0)
                    } else if enc == 1 {
                        Op::Fixed(w as u8)
                    } else {
                        Op::Vbr(w as u8)
                    }
                }
                3 => Op::Array,
                4 => Op::Char6,
                5 => Op::Blob,
                _ => return Err(ErrorKind::InvalidAbbrev("unknown operand encoding")),
            };
            ops.push(op);
        }
    }
    // Validate shape: Array must be second to last followed by a scalar op; Blob last.
    let def = &ops[start..];
    for (k, op) in def.iter().enumerate() {
        match op {
            Op::Array => {
                if k + 2 != def.len() {
                    return Err(ErrorKind::InvalidAbbrev("array operand not second to last"));
                }
                if matches!(def.get(k + 1), Some(Op::Array | Op::Blob)) {
                    return Err(ErrorKind::InvalidAbbrev("array of arrays or blobs"));
                }
            }
            Op::Blob if k + 1 != def.len() => {
                return Err(ErrorKind::InvalidAbbrev("blob operand not last"));
            }
            _ => {}
        }
    }
    Ok(())
}

/// Decodes one abbreviated record's operands.
///
/// The first scalar operand is the record code; the rest go to `rec.ops`.
/// Array elements are decoded by a loop per element kind, so the per-element
/// work is one bit read and one push into reserved storage.
fn decode_abbreviated(bits: &mut Bits<'_>, ops: &[Op], rec: &mut Record) -> Result<()> {
    let (code_op, rest) = match ops.split_first() {
        Some((&op, rest)) => (op, rest),
        None => return Err(ErrorKind::InvalidAbbrev("record without code")),
    };
    let (code, rest) = match code_op {
        Op::Array => {
            // The code is the array's first element; the rest of the array are operands.
            let elt = *rest.first().ok_or_else(|| ErrorKind::InvalidAbbrev("array without element"))?;
            let n = read_array_len(bits, elt)?;
            if n == 0 {
                return Err(ErrorKind::InvalidAbbrev("record without code"));
            }
            let code = read_scalar(bits, elt)?;
            read_array(bits, elt, n - 1, rec)?;
            (code, &rest[1..])
        }
        Op::Blob => return Err(ErrorKind::InvalidAbbrev("blob as record code")),
        op => (read_scalar(bits, op)?, rest),
    };
    rec.code = u32::try_from(code).map_err(|_| ErrorKind::Malformed("record code too large"))?;
    rec.ops.reserve(rest.len());
    let mut k = 0;
    while k < rest.len() {
        match rest[k] {
            Op::Array => {
                let elt = *rest.get(k + 1).ok_or_else(|| ErrorKind::InvalidAbbrev("array without element"))?;
                let n = read_array_len(bits, elt)?;
                read_array(bits, elt, n, rec)?;
                k += 2;
                continue;
            }
            Op::Blob => {
                let n = bits.read_vbr(6)?;
                bits.align32()?;
                let start = (bits.pos() / 8) as usize;
                let nbits = n.checked_mul(8).ok_or_else(|| ErrorKind::UnexpectedEof)?;
                bits.skip_bits(nbits)?;
                bits.align32()?;
                rec.blob = Some((start, start + n as usize));
            }
            op => rec.ops.push(read_scalar(bits, op)?),
        }
        k += 1;
    }
    Ok(())
}

/// Reads an array operand's length, bounded by the bits left (each element
/// takes at least its width) or by [`MAX_ZERO_WIDTH_ARRAY`].
#[inline]
fn read_array_len(bits: &mut Bits<'_>, elt: Op) -> Result<u64> {
    let n = bits.read_vbr(6)?;
    let min_bits = match elt {
        Op::Fixed(w) | Op::Vbr(w) => u64::from(w),
        Op::Char6 => 6,
        _ => 0,
    };
    if (min_bits == 0 && n > MAX_ZERO_WIDTH_ARRAY) || (min_bits > 0 && n > bits.remaining() / min_bits) {
        return Err(ErrorKind::UnexpectedEof);
    }
    Ok(n)
}

/// Appends `n` array elements of kind `elt` to `rec.ops` (`n` was bounded
/// by [`read_array_len`]).
#[inline]
fn read_array(bits: &mut Bits<'_>, elt: Op, n: u64, rec: &mut Record) -> Result<()> {
    let n = n as usize;
    rec.ops.reserve(n);
    match elt {
        Op::Fixed(w) => bits.read_fixed_append(u32::from(w), n, &mut rec.ops, |v| v)?,
        Op::Vbr(w) => {
            for _ in 0..n {
                rec.ops.push(bits.read_vbr(u32::from(w))?);
            }
        }
        Op::Char6 => bits.read_fixed_append(6, n, &mut rec.ops, |v| u64::from(char6(v as u8)))?,
        Op::Literal(v) => {
            for _ in 0..n {
                rec.ops.push(v);
            }
        }
        Op::Array | Op::Blob => return Err(ErrorKind::InvalidAbbrev("nested array or blob")),
    }
    Ok(())
}

/// The char6 alphabet: `a`–`z`, `A`–`Z`, `0`–`9`, `.`, `_`.
const CHAR6: &[u8; 64] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._";

#[inline(always)]
fn char6(v: u8) -> u8 {
    CHAR6[usize::from(v & 63)]
}

#[inline(always)]
fn read_scalar(bits: &mut Bits<'_>, op: Op) -> Result<u64> {
    match op {
        Op::Literal(v) => Ok(v),
        Op::Fixed(w) => bits.read(u32::from(w)),
        Op::Vbr(w) => bits.read_vbr(u32::from(w)),
        Op::Char6 => Ok(u64::from(char6(bits.read(6)? as u8))),
        Op::Array | Op::Blob => Err(ErrorKind::InvalidAbbrev("nested array or blob")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_fixed_and_vbr() {
        // 0b101 (3 bits) then vbr6 value 40 = chunks: 40 = 0b101000 → needs 2 chunks: low 5 bits 01000 | cont, then 1.
        let mut bytes = [0u8; 8];
        let mut w = 0u64;
        let mut pos = 0;
        let mut put = |v: u64, n: u32| {
            w |= v << pos;
            pos += n;
        };
        put(0b101, 3);
        put(0b01000 | 0b100000, 6);
        put(0b000001, 6);
        bytes.copy_from_slice(&w.to_le_bytes());
        let mut b = Bits::new(&bytes);
        assert_eq!(b.read(3).unwrap(), 5);
        assert_eq!(b.read_vbr(6).unwrap(), 40);
        assert_eq!(b.pos(), 15);
        assert_eq!(b.read(0).unwrap(), 0);
    }

    #[test]
    fn eof_is_an_error() {
        let mut b = Bits::new(&[0xff]);
        assert_eq!(b.read(8).unwrap(), 0xff);
        assert_eq!(b.read(1), Err(ErrorKind::UnexpectedEof));
        let mut b = Bits::new(&[0xff, 0xff]);
        assert_eq!(b.read_vbr(4), Err(ErrorKind::UnexpectedEof));
    }

    #[test]
    fn vbr_overflow_is_an_error() {
        let bytes = [0xffu8; 32];
        let mut b = Bits::new(&bytes);
        assert_eq!(b.read_vbr(8), Err(ErrorKind::Malformed("VBR value exceeds 64 bits")));
    }

    /// Appends `v` as vbr6 chunks to the bit string `out` (LSB-first bits).
    fn vbr6(out: &mut Vec<bool>, mut v: u64) {
        loop {
            let more = v >= 32;
            let chunk = (v & 31) | if more { 32 } else { 0 };
            out.extend((0..6).map(|k| chunk >> k & 1 != 0));
            v >>= 5;
            if !more {
                break;
            }
        }
    }

    #[test]
    fn unabbreviated_operands_of_one_and_several_chunks_up_to_the_end() {
        // code 7, 9 operands mixing one-chunk and multi-chunk values, the last ones within
        // the final 8 bytes (where no 64-bit window is left).
        let values = [0u64, 31, 32, 5, 1023, 1 << 40, 17, 3, 30];
        let mut bits = Vec::new();
        vbr6(&mut bits, 7);
        vbr6(&mut bits, values.len() as u64);
        values.iter().for_each(|&v| vbr6(&mut bits, v));
        let mut bytes = vec![0u8; bits.len().div_ceil(8)];
        for (i, b) in bits.iter().enumerate() {
            bytes[i / 8] |= u8::from(*b) << (i % 8);
        }
        let mut b = Bits::new(&bytes);
        let mut rec = Record::default();
        read_unabbreviated(&mut b, &mut rec).unwrap();
        assert_eq!(rec.code, 7);
        assert_eq!(rec.ops, values);
        assert_eq!(b.pos(), bits.len() as u64);
        // One operand fewer in the data than the count says: out of data, not a wrong value.
        let cut = &bytes[..bytes.len() - 2];
        assert_eq!(read_unabbreviated(&mut Bits::new(cut), &mut Record::default()), Err(ErrorKind::UnexpectedEof));
    }

    #[test]
    fn char6_and_fixed_arrays_from_every_start_bit() {
        let alphabet: Vec<u8> = (0..64u8).map(char6).collect();
        assert_eq!(alphabet, b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._".to_vec());
        // Values of each width from every start bit, more than one window's worth, checked
        // against single reads.
        let bytes: Vec<u8> = (0..256u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
        for width in [1u32, 6, 7, 8, 13, 32] {
            for start in 0..8u64 {
                let n = 40;
                let (mut a, mut b) = (Bits::new(&bytes), Bits::new(&bytes));
                a.skip_bits(start).unwrap();
                b.skip_bits(start).unwrap();
                let mut got = Vec::new();
                a.read_fixed_append(width, n, &mut got, |v| v).unwrap();
                let want: Vec<u64> = (0..n).map(|_| b.read(width).unwrap()).collect();
                assert_eq!(got, want, "width {width} from bit {start}");
                assert_eq!(a.pos(), b.pos());
            }
        }
    }
}
