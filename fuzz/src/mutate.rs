//! Record-level mutations of a container's bitcode. Blocks are picked with
//! a bias towards the ones that carry meaning — FUNCTION (12), CONSTANTS
//! (11), METADATA (15), TYPE (17), MODULE (8) — and the bitstream is always
//! rewritten well-formed ([`crate::tree::write`]).

use crate::tree::{block_at, block_paths, records_mut, Item};
use crate::Rng;

const INTERESTING: [u64; 18] = [0, 1, 2, 3, 4, 5, 7, 8, 15, 16, 31, 32, 33, 64, 1024, 65535, 0x7FFF_FFFF, 0xFFFF_FFFF];

fn weight(block: u32) -> u64 {
    match block {
        12 => 8,
        11 | 15 => 6,
        17 => 3,
        8 => 2,
        _ => 1,
    }
}

/// Applies 1 to 3 mutations to a parsed bitcode tree; `false` when nothing
/// could be changed.
pub fn mutate_tree(items: &mut Vec<Item>, rng: &mut Rng) -> bool {
    let n = 1 + rng.below(3);
    let mut any = false;
    for _ in 0..n {
        any |= if rng.chance(3, 4) { mutate_record(items, rng) } else { shuffle(items, rng) };
    }
    any
}

fn mutate_record(items: &mut [Item], rng: &mut Rng) -> bool {
    let mut recs = Vec::new();
    records_mut(items, u32::MAX, &mut recs);
    if recs.is_empty() {
        return false;
    }
    let total: u64 = recs.iter().map(|(b, _)| weight(*b)).sum();
    let mut pick = rng.next_u64() % total.max(1);
    let mut idx = 0;
    for (i, (b, _)) in recs.iter().enumerate() {
        let w = weight(*b);
        if pick < w {
            idx = i;
            break;
        }
        pick -= w;
    }
    let Some((_, Item::Record { code, ops })) = recs.into_iter().nth(idx) else { return false };
    match rng.below(10) {
        0 => {
            // another record code
            *code = if rng.chance(1, 2) { code.wrapping_add(1) } else { rng.below(64) as u32 };
        }
        1 if !ops.is_empty() => {
            let k = rng.below(ops.len());
            ops.remove(k);
        }
        2 => {
            let v = ops.get(rng.below(ops.len().max(1))).copied().unwrap_or(0);
            let k = rng.below(ops.len() + 1);
            ops.insert(k, v);
        }
        _ if !ops.is_empty() => {
            let k = rng.below(ops.len());
            let v = ops[k];
            ops[k] = match rng.below(7) {
                0 => v.wrapping_add(1 + rng.below(4) as u64),
                1 => v.wrapping_sub(1 + rng.below(4) as u64),
                2 => v ^ (1 << rng.below(33)),
                3 => INTERESTING[rng.below(INTERESTING.len())],
                4 => ops[rng.below(ops.len())],
                5 => rng.below(16) as u64,
                _ => v.wrapping_mul(2 + rng.below(512) as u64),
            };
        }
        _ => return false,
    }
    true
}

fn shuffle(items: &mut Vec<Item>, rng: &mut Rng) -> bool {
    let mut paths = Vec::new();
    block_paths(items, &mut Vec::new(), &mut paths);
    if paths.is_empty() {
        return false;
    }
    let weights: Vec<u64> = paths.iter().map(|(id, _)| weight(*id)).collect();
    let total: u64 = weights.iter().sum();
    let mut pick = rng.next_u64() % total.max(1);
    let mut idx = 0;
    for (i, w) in weights.iter().enumerate() {
        if pick < *w {
            idx = i;
            break;
        }
        pick -= w;
    }
    let Some(list) = block_at(items, &paths[idx].1) else { return false };
    let recs: Vec<usize> = (0..list.len()).filter(|&i| matches!(list[i], Item::Record { .. })).collect();
    if recs.is_empty() {
        return false;
    }
    let a = recs[rng.below(recs.len())];
    match rng.below(3) {
        0 => {
            let b = recs[rng.below(recs.len())];
            list.swap(a, b);
        }
        1 => {
            let r = list[a].clone();
            list.insert(a, r);
        }
        _ => {
            list.remove(a);
        }
    }
    true
}

/// A mutant of a DXBC container (its DXIL bitcode mutated at record level),
/// or `None` when the seed has no readable bitcode.
pub fn mutate_container(seed: &[u8], rng: &mut Rng) -> Option<Vec<u8>> {
    let (_, bc) = crate::container::bitcode(seed)?;
    let mut tree = crate::tree::parse(bc)?;
    mutate_tree(&mut tree, rng);
    crate::container::with_bitcode(seed, &crate::tree::write(&tree))
}
