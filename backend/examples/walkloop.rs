//! Walks the bitstream of DXIL containers (blocks and records, no IR) in a
//! loop, to profile the bitstream layer alone under callgrind. `ITERS`
//! (default 3) sets the passes.
//!
//! `walkloop FILE.dxil...`
use dxjit::bitcode::bitstream::{Cursor, CursorStorage, Entry, Record};
use dxjit::container::Container;

fn walk(bc: &[u8], st: &mut CursorStorage) -> usize {
    let mut c = Cursor::with_storage(bc, std::mem::take(st));
    let n = walk_with(&mut c);
    *st = c.into_storage();
    n
}

fn walk_with(c: &mut Cursor<'_>) -> usize {
    let mut rec = Record::default();
    let mut n = 0;
    let _ = c.bits.read(32);
    loop {
        match c.advance() {
            Ok(Entry::SubBlock(id)) => {
                if c.enter(id).is_err() {
                    return n;
                }
            }
            Ok(Entry::EndBlock) => {
                if c.depth() == 0 {
                    return n;
                }
                c.leave();
            }
            Ok(Entry::Record(a)) => {
                if let Err(e) = c.read_record(a, &mut rec) {
                    eprintln!("rec err {e:?}");
                    return n;
                }
                n += rec.ops.len();
            }
            Err(e) => {
                eprintln!("err {e:?} at {}", c.bits.pos());
                return n;
            }
        }
    }
}

fn main() {
    let iters: usize = std::env::var("ITERS").ok().and_then(|s| s.parse().ok()).unwrap_or(3);
    let blobs: Vec<Vec<u8>> = std::env::args().skip(1).filter_map(|p| std::fs::read(p).ok()).collect();
    let mut bitcodes = Vec::new();
    for b in &blobs {
        let Ok(c) = Container::parse(b) else { continue };
        let Ok(p) = c.dxil_program() else { continue };
        bitcodes.push(p.bitcode);
    }
    let mut ops = 0;
    let mut st = CursorStorage::default();
    for _ in 0..iters {
        for bc in &bitcodes {
            ops += walk(bc, &mut st);
        }
    }
    println!("{ops} operands");
}
