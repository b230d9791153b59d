//! An LLVM bitstream as a tree, read with dxjit's own cursor and written
//! back unabbreviated (abbreviations and BLOCKINFO dropped: every record is
//! UNABBREV_RECORD, every block uses 2-bit abbreviation ids).

use super::bitstream::{Cursor, Entry, Record};

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Item {
    Block { id: u32, items: Vec<Item> },
    Record { code: u32, ops: Vec<u64> },
}

const MAGIC: [u8; 4] = *b"BC\xC0\xDE";

/// Reads a bitcode stream (with its `BC\xC0\xDE` magic) into top-level items.
pub fn parse(data: &[u8]) -> Option<Vec<Item>> {
    if data.get(..4)? != MAGIC {
        return None;
    }
    let mut c = Cursor::new(data.get(4..)?);
    let mut stack: Vec<(u32, Vec<Item>)> = vec![(u32::MAX, Vec::new())];
    let mut rec = Record::default();
    loop {
        match c.advance().ok()? {
            Entry::EndBlock => {
                if stack.len() == 1 {
                    break;
                }
                c.leave();
                let (id, items) = stack.pop()?;
                stack.last_mut()?.1.push(Item::Block { id, items });
            }
            Entry::SubBlock(id) => {
                c.enter(id).ok()?;
                if id != 0 {
                    stack.push((id, Vec::new()));
                }
            }
            Entry::Record(abbrev) => {
                c.read_record(abbrev, &mut rec).ok()?;
                let mut ops = rec.ops.clone();
                if let Some((start, len)) = rec.blob {
                    let bytes = c.data().get(start..start + len)?;
                    ops.extend(bytes.iter().map(|b| u64::from(*b)));
                }
                stack.last_mut()?.1.push(Item::Record { code: rec.code, ops });
            }
        }
    }
    if stack.len() != 1 {
        return None;
    }
    stack.pop().map(|s| s.1)
}

struct Writer {
    words: Vec<u32>,
    cur: u64,
    bits: u32,
}

impl Writer {
    fn emit(&mut self, v: u64, width: u32) {
        for i in 0..width {
            if v >> i & 1 != 0 {
                self.cur |= 1 << self.bits;
            }
            self.bits += 1;
            if self.bits == 32 {
                self.words.push(self.cur as u32);
                self.cur = 0;
                self.bits = 0;
            }
        }
    }
    fn vbr(&mut self, mut v: u64, width: u32) {
        let hi = 1u64 << (width - 1);
        loop {
            if v < hi {
                self.emit(v, width);
                return;
            }
            self.emit((v & (hi - 1)) | hi, width);
            v >>= width - 1;
        }
    }
    fn align(&mut self) {
        if self.bits > 0 {
            self.words.push(self.cur as u32);
            self.cur = 0;
            self.bits = 0;
        }
    }
    fn items(&mut self, items: &[Item]) {
        const W: u32 = 2;
        for it in items {
            match it {
                Item::Block { id, items } => {
                    self.emit(1, W);
                    self.vbr(u64::from(*id), 8);
                    self.vbr(u64::from(W), 4);
                    self.align();
                    let at = self.words.len();
                    self.words.push(0);
                    self.items(items);
                    self.emit(0, W);
                    self.align();
                    self.words[at] = (self.words.len() - at - 1) as u32;
                }
                Item::Record { code, ops } => {
                    self.emit(3, W);
                    self.vbr(u64::from(*code), 6);
                    self.vbr(ops.len() as u64, 6);
                    for &o in ops {
                        self.vbr(o, 6);
                    }
                }
            }
        }
    }
}

/// Writes items back as a bitcode stream (magic included).
pub fn write(items: &[Item]) -> Vec<u8> {
    let mut w = Writer { words: Vec::new(), cur: 0, bits: 0 };
    w.items(items);
    w.align();
    let mut out = MAGIC.to_vec();
    for x in w.words {
        out.extend_from_slice(&x.to_le_bytes());
    }
    out
}

/// Visits every record with the id of its enclosing block.
pub fn records_mut<'a>(items: &'a mut [Item], block: u32, out: &mut Vec<(u32, &'a mut Item)>) {
    for it in items.iter_mut() {
        match it {
            Item::Block { id, items } => records_mut(items, *id, out),
            r @ Item::Record { .. } => out.push((block, r)),
        }
    }
}

/// Paths (child indices from the top level) of every block.
pub fn block_paths(items: &[Item], prefix: &mut Vec<usize>, out: &mut Vec<(u32, Vec<usize>)>) {
    for (k, it) in items.iter().enumerate() {
        if let Item::Block { id, items } = it {
            prefix.push(k);
            out.push((*id, prefix.clone()));
            block_paths(items, prefix, out);
            prefix.pop();
        }
    }
}

/// The item list of the block at `path`.
pub fn block_at<'a>(items: &'a mut Vec<Item>, path: &[usize]) -> Option<&'a mut Vec<Item>> {
    let mut cur = items;
    for &k in path {
        match cur.get_mut(k)? {
            Item::Block { items, .. } => cur = items,
            Item::Record { .. } => return None,
        }
    }
    Some(cur)
}
