//! Function structure and SSA form: blocks, terminators, PHI placement,
//! operand ranges, and dominance of every use by its definition.

use super::{block_place, err, inst_place, Result};
use crate::analysis::{Cfg, DomTree};
use crate::ir::{BlockId, Function, InstId, InstKind, Module, Type, Value};

pub(crate) fn verify_function(m: &Module, f: &Function) -> Result<()> {
    structure(m, f)?;
    if f.blocks.len() == 1 {
        // Most DXIL functions are one block: no CFG or dominator tree needed.
        return single_block(m, f);
    }
    let cfg = Cfg::of_function(f).map_err(|e| err("cfg", format!("function `{}`", f.name), e.to_string()))?;
    let dom = DomTree::compute(&cfg);
    dominance(m, f, &cfg, &dom)
}

/// [`dominance`] for a function of one block (after [`structure`], which
/// rejects branches to the entry block): the block has no predecessors, so
/// a PHI with an incoming value names a non-predecessor, and a use is
/// dominated exactly when its definition comes earlier in the block.
fn single_block(m: &Module, f: &Function) -> Result<()> {
    for (i, inst) in f.insts.iter().enumerate() {
        let id = InstId(i as u32);
        if let InstKind::Phi { incoming } = &inst.kind {
            if let Some(&(_, from)) = f.phis(*incoming).first() {
                return Err(err(
                    "phi.incoming",
                    inst_place(f, id),
                    format!("incoming block {} is not a predecessor", from.0),
                ));
            }
            continue;
        }
        let mut bad: Option<(InstId, &'static str)> = None;
        f.for_each_operand(id, |v| {
            let Value::Inst(d) = v else { return };
            if bad.is_some() {
                return;
            }
            if d == id {
                bad = Some((d, "ssa.self-reference"));
            } else if is_void(m, f.inst(d).ty) {
                bad = Some((d, "ssa.void-use"));
            } else if d.0 > id.0 {
                bad = Some((d, "ssa.dominance"));
            }
        });
        if let Some((d, rule)) = bad {
            return Err(use_error(f, id, d, rule));
        }
    }
    Ok(())
}

fn use_error(f: &Function, id: InstId, d: InstId, rule: &'static str) -> super::VerifyError {
    let detail = match rule {
        "ssa.self-reference" => format!("%{} uses its own result", d.0),
        "ssa.void-use" => format!("uses %{}, which has no value", d.0),
        _ => format!("uses %{}, whose definition does not dominate the use", d.0),
    };
    err(rule, inst_place(f, id), detail)
}

/// Blocks are contiguous runs of instructions ending in their only
/// terminator, PHIs come first, branch targets and operands are in range.
fn structure(m: &Module, f: &Function) -> Result<()> {
    if f.blocks.is_empty() {
        return Err(err("function.blocks", format!("function `{}`", f.name), "a defined function without blocks"));
    }
    let mut next = 0u32;
    for (bi, b) in f.blocks.iter().enumerate() {
        let bid = BlockId(bi as u32);
        if b.first != next || b.end <= b.first || b.end as usize > f.insts.len() {
            return Err(err(
                "block.layout",
                block_place(f, bid),
                format!("instructions {}..{} do not follow the previous block or are empty", b.first, b.end),
            ));
        }
        next = b.end;
        let mut phis_done = false;
        for id in b.insts() {
            let inst = f.inst(id);
            if inst.block != bid {
                return Err(err("block.layout", inst_place(f, id), "instruction listed in another block"));
            }
            let is_last = id.0 + 1 == b.end;
            if inst.kind.is_terminator() != is_last {
                let what = if is_last {
                    "the block does not end with a terminator"
                } else {
                    "a terminator in the middle of a block"
                };
                return Err(err("block.terminator", inst_place(f, id), what));
            }
            if matches!(inst.kind, InstKind::Phi { .. }) {
                if phis_done {
                    return Err(err("phi.position", inst_place(f, id), "a PHI after a non-PHI instruction"));
                }
            } else {
                phis_done = true;
            }
            let mut bad = None;
            f.for_each_operand(id, |v| {
                if bad.is_none() && !in_range(m, f, v) {
                    bad = Some(v);
                }
            });
            if let Some(v) = bad {
                return Err(err("operand.range", inst_place(f, id), format!("operand {v:?} does not exist")));
            }
            let mut bad_target = None;
            let mut target = |t: BlockId| {
                if t.index() >= f.blocks.len() || t.0 == 0 {
                    bad_target.get_or_insert(t);
                }
            };
            match &inst.kind {
                InstKind::Br { target: t } => target(*t),
                InstKind::CondBr { if_true, if_false, .. } => {
                    target(*if_true);
                    target(*if_false)
                }
                InstKind::Switch { default, cases, .. } => {
                    target(*default);
                    for (c, t) in f.case_pool.get(cases.range()).unwrap_or(&[]) {
                        if c.index() >= m.consts.len() {
                            return Err(err("operand.range", inst_place(f, id), "switch case constant does not exist"));
                        }
                        target(*t)
                    }
                }
                InstKind::Phi { incoming } => {
                    if f.phi_pool.get(incoming.range()).is_none() {
                        return Err(err("operand.range", inst_place(f, id), "PHI incoming list out of range"));
                    }
                    for (_, b) in f.phis(*incoming) {
                        if b.index() >= f.blocks.len() {
                            bad_target.get_or_insert(*b);
                        }
                    }
                }
                _ => {}
            }
            if let Some(t) = bad_target {
                return Err(err(
                    "block.target",
                    inst_place(f, id),
                    format!(
                        "names block {} (the function has {} blocks; the entry block has no predecessors)",
                        t.0,
                        f.blocks.len()
                    ),
                ));
            }
        }
    }
    if next as usize != f.insts.len() {
        return Err(err("block.layout", format!("function `{}`", f.name), "instructions outside every block"));
    }
    Ok(())
}

fn in_range(m: &Module, f: &Function, v: Value) -> bool {
    match v {
        Value::Global(g) => g.index() < m.globals.len(),
        Value::Function(x) => x.index() < m.functions.len(),
        Value::Const(c) => c.index() < m.consts.len(),
        Value::Arg(a) => (a as usize) < f.param_tys.len(),
        Value::Inst(i) => i.index() < f.insts.len(),
        Value::Metadata(md) => md.index() < m.metadata.len(),
    }
}

/// Every use in a reachable block is dominated by its definition; a PHI's
/// incoming value by the end of the incoming block, which must be a
/// predecessor; every reachable predecessor has an incoming value.
fn dominance(m: &Module, f: &Function, cfg: &Cfg, dom: &DomTree) -> Result<()> {
    for (bi, b) in f.blocks.iter().enumerate() {
        if !cfg.is_reachable(bi as u32) {
            continue;
        }
        for id in b.insts() {
            let inst = f.inst(id);
            if let InstKind::Phi { incoming } = &inst.kind {
                let preds = cfg.preds(bi as u32);
                for &(v, from) in f.phis(*incoming) {
                    if !cfg.is_reachable(from.0) {
                        continue;
                    }
                    if !preds.contains(&from.0) {
                        return Err(err(
                            "phi.incoming",
                            inst_place(f, id),
                            format!("incoming block {} is not a predecessor", from.0),
                        ));
                    }
                    if let Value::Inst(d) = v {
                        let def = f.inst(d);
                        if is_void(m, def.ty) {
                            return Err(err(
                                "ssa.void-use",
                                inst_place(f, id),
                                format!("uses %{}, which has no value", d.0),
                            ));
                        }
                        if !dom.dominates(def.block.0, from.0) {
                            return Err(err(
                                "ssa.dominance",
                                inst_place(f, id),
                                format!("incoming %{} from block {} is not defined on that edge", d.0, from.0),
                            ));
                        }
                    }
                }
                for &p in preds {
                    if !f.phis(*incoming).iter().any(|(_, from)| from.0 == p) {
                        return Err(err(
                            "phi.incoming",
                            inst_place(f, id),
                            format!("no incoming value for predecessor block {p}"),
                        ));
                    }
                }
                continue;
            }
            let mut bad: Option<(InstId, &'static str)> = None;
            f.for_each_operand(id, |v| {
                let Value::Inst(d) = v else { return };
                if bad.is_some() {
                    return;
                }
                let def = f.inst(d);
                if d == id {
                    bad = Some((d, "ssa.self-reference"));
                } else if is_void(m, def.ty) {
                    bad = Some((d, "ssa.void-use"));
                } else if def.block.index() == bi {
                    if d.0 > id.0 {
                        bad = Some((d, "ssa.dominance"));
                    }
                } else if !dom.dominates(def.block.0, bi as u32) {
                    bad = Some((d, "ssa.dominance"));
                }
            });
            if let Some((d, rule)) = bad {
                return Err(use_error(f, id, d, rule));
            }
        }
    }
    Ok(())
}

fn is_void(m: &Module, t: crate::ir::TypeId) -> bool {
    matches!(m.types.list.get(t.0 as usize), Some(Type::Void) | None)
}
