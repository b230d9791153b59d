//! A bitstream writer: fixed-width and VBR fields, blocks with their
//! 32-bit length words back-patched, unabbreviated records (every record is
//! `UNABBREV_RECORD`; no abbreviations, no BLOCKINFO).

use super::bitstream::{END_BLOCK, ENTER_SUBBLOCK, UNABBREV_RECORD};

/// Abbreviation-id width of every block written (ids 0–3 are all that
/// unabbreviated streams use; 3 bits as LLVM's module block).
const ABBREV_WIDTH: u32 = 3;

#[derive(Default)]
pub struct BitWriter {
    words: Vec<u32>,
    cur: u64,
    bits: u32,
    /// Word index of each open block's length word.
    open: Vec<usize>,
}

impl BitWriter {
    pub fn new() -> BitWriter {
        BitWriter::default()
    }

    /// `width` (≤ 32) low bits of `v`.
    fn emit(&mut self, v: u64, width: u32) {
        debug_assert!(width <= 32);
        self.cur |= (v & ((1u64 << width) - 1)) << self.bits;
        self.bits += width;
        if self.bits >= 32 {
            self.words.push(self.cur as u32);
            self.cur >>= 32;
            self.bits -= 32;
        }
    }

    fn vbr(&mut self, mut v: u64, width: u32) {
        let hi = 1u64 << (width - 1);
        while v >= hi {
            self.emit((v & (hi - 1)) | hi, width);
            v >>= width - 1;
        }
        self.emit(v, width);
    }

    fn align32(&mut self) {
        if self.bits > 0 {
            self.words.push(self.cur as u32);
            self.cur = 0;
            self.bits = 0;
        }
    }

    /// Raw bytes at a word boundary (the `BC C0 DE` magic).
    pub fn magic(&mut self, bytes: [u8; 4]) {
        self.align32();
        self.words.push(u32::from_le_bytes(bytes));
    }

    /// Abbreviation-id width where the cursor is: 2 outside every block.
    fn width(&self) -> u32 {
        if self.open.is_empty() {
            2
        } else {
            ABBREV_WIDTH
        }
    }

    pub fn enter_block(&mut self, id: u32) {
        self.emit(u64::from(ENTER_SUBBLOCK), self.width());
        self.vbr(u64::from(id), 8);
        self.vbr(u64::from(ABBREV_WIDTH), 4);
        self.align32();
        self.open.push(self.words.len());
        self.words.push(0);
    }

    pub fn end_block(&mut self) {
        self.emit(u64::from(END_BLOCK), ABBREV_WIDTH);
        self.align32();
        if let Some(at) = self.open.pop() {
            let len = (self.words.len() - at - 1) as u32;
            if let Some(w) = self.words.get_mut(at) {
                *w = len;
            }
        }
    }

    pub fn record(&mut self, code: u32, ops: &[u64]) {
        self.emit(u64::from(UNABBREV_RECORD), ABBREV_WIDTH);
        self.vbr(u64::from(code), 6);
        self.vbr(ops.len() as u64, 6);
        for &o in ops {
            self.vbr(o, 6);
        }
    }

    /// The stream as bytes (every block closed).
    pub fn finish(mut self) -> Vec<u8> {
        while !self.open.is_empty() {
            self.end_block();
        }
        self.align32();
        self.words.iter().flat_map(|w| w.to_le_bytes()).collect()
    }
}
