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

/// One mutation applied: its kind (for the driver's statistics) and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mutation {
    pub kind: &'static str,
    pub detail: String,
}

/// Applies 1 to 3 mutations to a parsed bitcode tree; `false` when nothing
/// could be changed.
pub fn mutate_tree(items: &mut Vec<Item>, rng: &mut Rng) -> bool {
    mutate_tree_logged(items, rng, &mut Vec::new())
}

/// [`mutate_tree`], adding each mutation applied to `log`. One mutation
/// half of the time, two or three otherwise (each one more mutation is one
/// more chance to die in the reader); tries again (up to 16 times) when a
/// pick changes nothing, so a mutant differs from its seed.
pub fn mutate_tree_logged(items: &mut Vec<Item>, rng: &mut Rng, log: &mut Vec<Mutation>) -> bool {
    let n = match rng.below(10) {
        0..=4 => 1,
        5..=7 => 2,
        _ => 3,
    };
    let before = log.len();
    let mut tries = 0;
    while log.len() - before < n && tries < 16 {
        tries += 1;
        let m = match rng.below(20) {
            0..=4 => retarget_md_value(items, rng),
            5..=8 => shuffle(items, rng),
            _ => mutate_record(items, rng),
        };
        log.extend(m);
    }
    log.len() > before
}

fn mutate_record(items: &mut [Item], rng: &mut Rng) -> Option<Mutation> {
    let mut recs = Vec::new();
    records_mut(items, u32::MAX, &mut recs);
    if recs.is_empty() {
        return None;
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
    let Some((block, Item::Record { code, ops })) = recs.into_iter().nth(idx) else { return None };
    let at = format!("block {block} record code {code}");
    let kind = match rng.below(12) {
        // Another record code: rarely survives the reader (6 % past the verifier in a 3-minute run).
        0 if rng.chance(1, 3) => {
            // another record code
            *code = if rng.chance(1, 2) { code.wrapping_add(1) } else { rng.below(64) as u32 };
            "record-code"
        }
        1 if !ops.is_empty() => {
            let k = rng.below(ops.len());
            ops.remove(k);
            "drop-operand"
        }
        2 => {
            let v = ops.get(rng.below(ops.len().max(1))).copied().unwrap_or(0);
            let k = rng.below(ops.len() + 1);
            ops.insert(k, v);
            "add-operand"
        }
        _ if !ops.is_empty() => {
            let k = rng.below(ops.len());
            let v = ops[k];
            let (kind, w) = match rng.below(7) {
                0 => ("operand+", v.wrapping_add(1 + rng.below(4) as u64)),
                1 => ("operand-", v.wrapping_sub(1 + rng.below(4) as u64)),
                2 => ("operand-bitflip", v ^ (1 << rng.below(33))),
                3 => ("operand-interesting", INTERESTING[rng.below(INTERESTING.len())]),
                4 => ("operand-copy", ops[rng.below(ops.len())]),
                5 => ("operand-small", rng.below(16) as u64),
                _ => ("operand-mul", v.wrapping_mul(2 + rng.below(512) as u64)),
            };
            if w == v {
                return None;
            }
            ops[k] = w;
            return Some(Mutation { kind, detail: format!("{at} op[{k}] {v} -> {w}") });
        }
        _ => return None,
    };
    Some(Mutation { kind, detail: at })
}

fn shuffle(items: &mut Vec<Item>, rng: &mut Rng) -> Option<Mutation> {
    let mut paths = Vec::new();
    block_paths(items, &mut Vec::new(), &mut paths);
    if paths.is_empty() {
        return None;
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
    let block = paths[idx].0;
    let list = block_at(items, &paths[idx].1)?;
    let recs: Vec<usize> = (0..list.len()).filter(|&i| matches!(list[i], Item::Record { .. })).collect();
    if recs.is_empty() {
        return None;
    }
    let a = recs[rng.below(recs.len())];
    let (kind, detail) = match rng.below(3) {
        0 => {
            let b = recs[rng.below(recs.len())];
            if list[a] == list[b] {
                return None;
            }
            list.swap(a, b);
            ("swap-records", format!("block {block} items {a} and {b}"))
        }
        1 => {
            let r = list[a].clone();
            list.insert(a, r);
            ("duplicate-record", format!("block {block} item {a}"))
        }
        _ => {
            list.remove(a);
            ("delete-record", format!("block {block} item {a}"))
        }
    };
    Some(Mutation { kind, detail })
}

/// Re-points a module-level metadata value (`METADATA_VALUE [type, value
/// id]`) at another module constant of the same type. The metadata stays
/// well-formed and decodable while its meaning changes — a resource kind,
/// an element type, a register, a semantic kind, a thread count — which
/// operand mutations rarely achieve (most leave a reference dangling or a
/// tuple of the wrong shape, rejected before the verifier's rules).
fn retarget_md_value(items: &mut [Item], rng: &mut Rng) -> Option<Mutation> {
    let module = items.iter_mut().find_map(|it| match it {
        Item::Block { id: 8, items } => Some(items),
        _ => None,
    })?;
    // Module-level value ids: globals, functions and aliases in record order, then the
    // module constants (each CONSTANTS record but SETTYPE defines one, of the type last set).
    let mut next = 0u64;
    let mut consts: Vec<(u64, u64)> = Vec::new();
    for it in module.iter() {
        match it {
            Item::Record { code: 7 | 8 | 9 | 14, .. } => next += 1,
            Item::Block { id: 11, items } => {
                let mut ty = u64::MAX;
                for r in items {
                    if let Item::Record { code, ops } = r {
                        if *code == 1 {
                            ty = ops.first().copied().unwrap_or(u64::MAX);
                        } else {
                            consts.push((ty, next));
                            next += 1;
                        }
                    }
                }
            }
            _ => {}
        }
    }
    let md = module.iter_mut().find_map(|it| match it {
        Item::Block { id: 15, items } => Some(items),
        _ => None,
    })?;
    let mut values: Vec<(usize, &mut Vec<u64>)> = md
        .iter_mut()
        .enumerate()
        .filter_map(|(k, it)| match it {
            Item::Record { code: 2, ops } if ops.len() == 2 => Some((k, ops)),
            _ => None,
        })
        .collect();
    if values.is_empty() {
        return None;
    }
    let (k, ops) = values.swap_remove(rng.below(values.len()));
    let (ty, old) = (ops[0], ops[1]);
    let same: Vec<u64> = consts.iter().filter(|(t, id)| *t == ty && *id != old).map(|(_, id)| *id).collect();
    if same.is_empty() {
        return None;
    }
    let new = same[rng.below(same.len())];
    ops[1] = new;
    Some(Mutation { kind: "metadata-value", detail: format!("metadata item {k}: value #{old} -> #{new} (type {ty})") })
}

/// A mutant of a DXBC container (its DXIL bitcode mutated at record level),
/// or `None` when the seed has no readable bitcode.
pub fn mutate_container(seed: &[u8], rng: &mut Rng) -> Option<Vec<u8>> {
    mutate_container_logged(seed, rng).map(|(m, _)| m)
}

/// [`mutate_container`] with the mutations applied.
pub fn mutate_container_logged(seed: &[u8], rng: &mut Rng) -> Option<(Vec<u8>, Vec<Mutation>)> {
    let (_, bc) = crate::container::bitcode(seed)?;
    let mut tree = crate::tree::parse(bc)?;
    let mut log = Vec::new();
    mutate_tree_logged(&mut tree, rng, &mut log);
    Some((crate::container::with_bitcode(seed, &crate::tree::write(&tree))?, log))
}
