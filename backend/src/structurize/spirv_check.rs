//! Reference emitter: a [`StructuredFunction`] of a small IR subset (i32/i1
//! integer arithmetic, comparisons, select, phis) as a SPIR-V function,
//! wrapped in a compute shader that reads the arguments from a storage
//! buffer and writes the results back, for `spirv-val`.
//!
//! The construct mapping is the one lowering must follow:
//! - `If` → `OpSelectionMerge %m` + `OpBranchConditional %c %then %else`,
//!   each arm its own block, falling arms branch to `%m`;
//! - `Switch` → `OpSelectionMerge %m` + `OpSwitch %sel %default (lit %case)*`;
//! - `Scope` → `OpSelectionMerge %m` + `OpSwitch %int_0 %body`;
//! - `Loop` → `OpBranch %h`; `%h: OpLoopMerge %m %cont; OpBranch %body`;
//!   the body falls to `%cont`; `%cont: OpBranch %h`;
//! - `Break` → `OpBranch` to the innermost loop/switch/scope merge,
//!   `Continue` → `OpBranch` to the innermost loop's `%cont`;
//! - a merge nothing reaches is `OpLabel; OpUnreachable`, and nodes after a
//!   point control cannot reach are not emitted;
//! - phis, demoted instructions and structurizer variables are `Function`
//!   variables; a phi is loaded where it stood (its `Block`), so copies on
//!   an edge read the old values (parallel-copy semantics for free).

use super::tree::{Cond, Node, StructuredFunction};
use crate::ir::{BinOp, CmpPred, ConstId, ConstKind, Function, InstKind, Module, Type, TypeId, Value};
use rspirv::binary::Assemble;
use rspirv::dr::{Builder, Instruction, Operand};
use rspirv::spirv::{self, Op, Word};
use std::collections::HashMap;

/// Words per function in the buffer: arguments, then the result at the end.
pub const SLOT: u32 = 8;

struct Common {
    u32_: Word,
    bool_: Word,
    ptr_fn_u32: Word,
    ptr_fn_bool: Word,
}

/// Emits one compute module calling every function (`items[k]` reads its
/// arguments from `data[k*SLOT..]` and writes its result to
/// `data[k*SLOT + SLOT-1]`). Returns the SPIR-V words.
pub fn emit_module(items: &[(&Module, &Function, &StructuredFunction)]) -> Result<Vec<u32>, String> {
    let mut b = Builder::new();
    b.set_version(1, 3);
    b.capability(spirv::Capability::Shader);
    b.memory_model(spirv::AddressingModel::Logical, spirv::MemoryModel::GLSL450);
    let void = b.type_void();
    let u32_ = b.type_int(32, 0);
    let bool_ = b.type_bool();
    let ptr_fn_u32 = b.type_pointer(None, spirv::StorageClass::Function, u32_);
    let ptr_fn_bool = b.type_pointer(None, spirv::StorageClass::Function, bool_);
    let c = Common { u32_, bool_, ptr_fn_u32, ptr_fn_bool };

    let rta = b.type_runtime_array(u32_);
    b.decorate(rta, spirv::Decoration::ArrayStride, [Operand::LiteralBit32(4)]);
    let st = b.type_struct([rta]);
    b.decorate(st, spirv::Decoration::Block, []);
    b.member_decorate(st, 0, spirv::Decoration::Offset, [Operand::LiteralBit32(0)]);
    let ptr_sb = b.type_pointer(None, spirv::StorageClass::StorageBuffer, st);
    let ptr_sb_u32 = b.type_pointer(None, spirv::StorageClass::StorageBuffer, u32_);
    let buf = b.variable(ptr_sb, None, spirv::StorageClass::StorageBuffer, None);
    b.decorate(buf, spirv::Decoration::DescriptorSet, [Operand::LiteralBit32(0)]);
    b.decorate(buf, spirv::Decoration::Binding, [Operand::LiteralBit32(0)]);

    let mut fns = Vec::new();
    for (m, f, sf) in items {
        let id = FnEmit::emit(&mut b, &c, m, f, sf).map_err(|e| format!("{}: {e}", f.name))?;
        fns.push((id, f.param_tys.len() as u32));
    }

    let main_ty = b.type_function(void, []);
    let main = b.begin_function(void, None, spirv::FunctionControl::NONE, main_ty).map_err(|e| e.to_string())?;
    b.begin_block(None).map_err(|e| e.to_string())?;
    let zero = b.constant_bit32(u32_, 0);
    for (k, (id, nargs)) in fns.iter().enumerate() {
        let mut args = Vec::new();
        for j in 0..*nargs {
            let idx = b.constant_bit32(u32_, k as u32 * SLOT + j);
            let p = b.access_chain(ptr_sb_u32, None, buf, [zero, idx]).map_err(|e| e.to_string())?;
            args.push(b.load(u32_, None, p, None, []).map_err(|e| e.to_string())?);
        }
        let r = b.function_call(u32_, None, *id, args).map_err(|e| e.to_string())?;
        let idx = b.constant_bit32(u32_, k as u32 * SLOT + SLOT - 1);
        let p = b.access_chain(ptr_sb_u32, None, buf, [zero, idx]).map_err(|e| e.to_string())?;
        b.store(p, r, None, []).map_err(|e| e.to_string())?;
    }
    b.ret().map_err(|e| e.to_string())?;
    b.end_function().map_err(|e| e.to_string())?;
    b.entry_point(spirv::ExecutionModel::GLCompute, main, "main", []);
    b.execution_mode(main, spirv::ExecutionMode::LocalSize, [1, 1, 1]);
    Ok(b.module().assemble())
}

struct Frame {
    merge: Word,
    cont: Option<Word>,
    reached: bool,
}

struct FnEmit<'a> {
    b: &'a mut Builder,
    c: &'a Common,
    m: &'a Module,
    f: &'a Function,
    params: Vec<Word>,
    ssa: Vec<Word>,
    var: Vec<Word>,
    demoted: Vec<bool>,
    svars: Vec<Word>,
    consts: HashMap<ConstId, Word>,
    frames: Vec<Frame>,
    open: bool,
}

type R<T> = Result<T, String>;

fn e<T>(r: Result<T, rspirv::dr::Error>) -> R<T> {
    r.map_err(|e| e.to_string())
}

impl<'a> FnEmit<'a> {
    fn emit(b: &'a mut Builder, c: &'a Common, m: &'a Module, f: &'a Function, sf: &StructuredFunction) -> R<Word> {
        if !matches!(m.types.list.get(f.ret_ty.0 as usize), Some(Type::Int(32))) {
            return Err("only i32 functions".into());
        }
        let fty = b.type_function(c.u32_, vec![c.u32_; f.param_tys.len()]);
        let id = e(b.begin_function(c.u32_, None, spirv::FunctionControl::NONE, fty))?;
        let params = f.param_tys.iter().map(|_| e(b.function_parameter(c.u32_))).collect::<R<Vec<_>>>()?;
        e(b.begin_block(None))?;
        let n = f.insts.len();
        let mut demoted = vec![false; n];
        for i in &sf.demote {
            if let Some(d) = demoted.get_mut(i.index()) {
                *d = true;
            }
        }
        let mut me = FnEmit {
            b,
            c,
            m,
            f,
            params,
            ssa: vec![0; n],
            var: vec![0; n],
            demoted,
            svars: Vec::new(),
            consts: HashMap::new(),
            frames: Vec::new(),
            open: true,
        };
        // Variables: every phi, every demoted instruction, every structurizer variable.
        for i in 0..n {
            let is_phi = matches!(f.insts[i].kind, InstKind::Phi { .. });
            if is_phi || me.demoted[i] {
                let ptr = if me.is_bool(f.insts[i].ty)? { c.ptr_fn_bool } else { c.ptr_fn_u32 };
                me.var[i] = me.b.variable(ptr, None, spirv::StorageClass::Function, None);
            }
        }
        let zero = me.b.constant_bit32(c.u32_, 0);
        for _ in 0..sf.vars {
            let v = me.b.variable(c.ptr_fn_u32, None, spirv::StorageClass::Function, Some(zero));
            me.svars.push(v);
        }
        me.node(&sf.root)?;
        if me.open {
            e(me.b.unreachable())?;
        }
        e(me.b.end_function())?;
        Ok(id)
    }

    fn is_bool(&self, ty: TypeId) -> R<bool> {
        match self.m.types.list.get(ty.0 as usize) {
            Some(Type::Int(1)) => Ok(true),
            Some(Type::Int(32)) => Ok(false),
            other => Err(format!("unsupported type {other:?}")),
        }
    }

    fn ty(&self, ty: TypeId) -> R<Word> {
        Ok(if self.is_bool(ty)? { self.c.bool_ } else { self.c.u32_ })
    }

    fn konst(&mut self, c: ConstId) -> R<Word> {
        if let Some(&id) = self.consts.get(&c) {
            return Ok(id);
        }
        let k = self.m.consts.get(c.index()).ok_or("bad constant")?;
        let v = match k.kind {
            ConstKind::Int(v) => v,
            ConstKind::Null => 0,
            _ => return Err("unsupported constant".into()),
        };
        let id = if self.is_bool(k.ty)? {
            if v & 1 == 1 {
                self.b.constant_true(self.c.bool_)
            } else {
                self.b.constant_false(self.c.bool_)
            }
        } else {
            self.b.constant_bit32(self.c.u32_, v as u32)
        };
        self.consts.insert(c, id);
        Ok(id)
    }

    fn value(&mut self, v: Value) -> R<Word> {
        match v {
            Value::Const(c) => self.konst(c),
            Value::Arg(i) => self.params.get(i as usize).copied().ok_or_else(|| "bad argument".into()),
            Value::Inst(i) => {
                let k = i.index();
                if self.demoted.get(k) == Some(&true) {
                    let ty = self.ty(self.f.insts[k].ty)?;
                    return e(self.b.load(ty, None, self.var[k], None, []));
                }
                match self.ssa.get(k) {
                    Some(&id) if id != 0 => Ok(id),
                    _ => Err(format!("%{} used but never emitted", i.0)),
                }
            }
            other => Err(format!("unsupported value {other:?}")),
        }
    }

    fn inst(&mut self, op: Op, ty: Word, operands: Vec<Word>) -> R<Word> {
        let id = self.b.id();
        let inst = Instruction::new(op, Some(ty), Some(id), operands.into_iter().map(Operand::IdRef).collect());
        e(self.b.insert_into_block(rspirv::dr::InsertPoint::End, inst))?;
        Ok(id)
    }

    fn block(&mut self, blk: crate::ir::BlockId) -> R<()> {
        let f = self.f;
        let b = *f.blocks.get(blk.index()).ok_or("bad block")?;
        let end = b.terminator().map_or(b.end, |t| t.0);
        for i in b.first..end {
            let k = i as usize;
            let inst = &f.insts[k];
            let ty = self.ty(inst.ty)?;
            let id = match &inst.kind {
                InstKind::Phi { .. } => e(self.b.load(ty, None, self.var[k], None, []))?,
                InstKind::Binary { op, lhs, rhs, .. } => {
                    let (a, c) = (self.value(*lhs)?, self.value(*rhs)?);
                    let bool_ = self.is_bool(inst.ty)?;
                    let op = match (op, bool_) {
                        (BinOp::Add, false) => Op::IAdd,
                        (BinOp::Sub, false) => Op::ISub,
                        (BinOp::Mul, false) => Op::IMul,
                        (BinOp::And, false) => Op::BitwiseAnd,
                        (BinOp::Or, false) => Op::BitwiseOr,
                        (BinOp::Xor, false) => Op::BitwiseXor,
                        (BinOp::Shl, false) => Op::ShiftLeftLogical,
                        (BinOp::LShr, false) => Op::ShiftRightLogical,
                        (BinOp::AShr, false) => Op::ShiftRightArithmetic,
                        (BinOp::And, true) => Op::LogicalAnd,
                        (BinOp::Or, true) => Op::LogicalOr,
                        (BinOp::Xor, true) => Op::LogicalNotEqual,
                        other => return Err(format!("unsupported binary {other:?}")),
                    };
                    self.inst(op, ty, vec![a, c])?
                }
                InstKind::Cmp { pred, lhs, rhs, .. } => {
                    let (a, c) = (self.value(*lhs)?, self.value(*rhs)?);
                    let op = match pred {
                        CmpPred::IEq => Op::IEqual,
                        CmpPred::INe => Op::INotEqual,
                        CmpPred::IUgt => Op::UGreaterThan,
                        CmpPred::IUge => Op::UGreaterThanEqual,
                        CmpPred::IUlt => Op::ULessThan,
                        CmpPred::IUle => Op::ULessThanEqual,
                        CmpPred::ISgt => Op::SGreaterThan,
                        CmpPred::ISge => Op::SGreaterThanEqual,
                        CmpPred::ISlt => Op::SLessThan,
                        CmpPred::ISle => Op::SLessThanEqual,
                        other => return Err(format!("unsupported predicate {other:?}")),
                    };
                    self.inst(op, ty, vec![a, c])?
                }
                InstKind::Select { cond, if_true, if_false } => {
                    let ops = vec![self.value(*cond)?, self.value(*if_true)?, self.value(*if_false)?];
                    self.inst(Op::Select, ty, ops)?
                }
                other => return Err(format!("unsupported instruction {}", other.opcode_name())),
            };
            self.ssa[k] = id;
            if self.demoted[k] && !matches!(inst.kind, InstKind::Phi { .. }) {
                e(self.b.store(self.var[k], id, None, []))?;
            }
        }
        Ok(())
    }

    fn cond(&mut self, c: &Cond) -> R<Word> {
        match c {
            Cond::Value(v) => self.value(*v),
            Cond::VarEq(v, k) => {
                let var = *self.svars.get(v.0 as usize).ok_or("bad variable")?;
                let x = e(self.b.load(self.c.u32_, None, var, None, []))?;
                let k = self.b.constant_bit32(self.c.u32_, *k);
                self.inst(Op::IEqual, self.c.bool_, vec![x, k])
            }
            Cond::Not(c) => {
                let x = self.cond(c)?;
                self.inst(Op::LogicalNot, self.c.bool_, vec![x])
            }
        }
    }

    fn begin(&mut self, label: Word) -> R<()> {
        e(self.b.begin_block(Some(label)))?;
        self.open = true;
        Ok(())
    }

    /// Emits a construct's body starting at `label`; returns whether it falls off its end.
    fn arm(&mut self, label: Word, body: &Node, to: Word) -> R<bool> {
        self.begin(label)?;
        self.node(body)?;
        let falls = self.open;
        if falls {
            e(self.b.branch(to))?;
            self.open = false;
        }
        Ok(falls)
    }

    fn merge(&mut self, label: Word, reached: bool) -> R<()> {
        self.begin(label)?;
        if !reached {
            e(self.b.unreachable())?;
            self.open = false;
        }
        Ok(())
    }

    fn node(&mut self, n: &Node) -> R<()> {
        if !self.open {
            return Ok(()); // unreachable code is not emitted
        }
        match n {
            Node::Seq(v) => v.iter().try_for_each(|n| self.node(n))?,
            Node::Block(b) => self.block(*b)?,
            Node::If { cond, then_, else_ } => {
                let c = self.cond(cond)?;
                let (t, f, m) = (self.b.id(), self.b.id(), self.b.id());
                e(self.b.selection_merge(m, spirv::SelectionControl::NONE))?;
                e(self.b.branch_conditional(c, t, f, []))?;
                let a = self.arm(t, then_, m)?;
                let b = self.arm(f, else_, m)?;
                self.merge(m, a || b)?;
            }
            Node::Switch { selector, cases, default } => {
                let sel = self.value(*selector)?;
                let m = self.b.id();
                let d = self.b.id();
                let mut targets = Vec::new();
                let mut labels = Vec::new();
                for (lits, _) in cases {
                    let l = self.b.id();
                    labels.push(l);
                    for c in lits {
                        let k =
                            self.m.consts.get(c.index()).and_then(|k| k.as_uint(&self.m.types)).ok_or("bad case")?;
                        targets.push((Operand::LiteralBit32(k as u32), l));
                    }
                }
                e(self.b.selection_merge(m, spirv::SelectionControl::NONE))?;
                e(self.b.switch(sel, d, targets))?;
                self.frames.push(Frame { merge: m, cont: None, reached: false });
                let mut reached = false;
                for ((_, body), l) in cases.iter().zip(labels) {
                    reached |= self.arm(l, body, m)?;
                }
                reached |= self.arm(d, default, m)?;
                let fr = self.frames.pop().ok_or("frames")?;
                self.merge(m, reached || fr.reached)?;
            }
            Node::Scope { body } => {
                let zero = self.b.constant_bit32(self.c.u32_, 0);
                let (m, l) = (self.b.id(), self.b.id());
                e(self.b.selection_merge(m, spirv::SelectionControl::NONE))?;
                e(self.b.switch(zero, l, []))?;
                self.frames.push(Frame { merge: m, cont: None, reached: false });
                let falls = self.arm(l, body, m)?;
                let fr = self.frames.pop().ok_or("frames")?;
                self.merge(m, falls || fr.reached)?;
            }
            Node::Loop { body } => {
                let (h, l, k, m) = (self.b.id(), self.b.id(), self.b.id(), self.b.id());
                e(self.b.branch(h))?;
                self.begin(h)?;
                e(self.b.loop_merge(m, k, spirv::LoopControl::NONE, []))?;
                e(self.b.branch(l))?;
                self.frames.push(Frame { merge: m, cont: Some(k), reached: false });
                self.arm(l, body, k)?;
                let fr = self.frames.pop().ok_or("frames")?;
                self.begin(k)?;
                e(self.b.branch(h))?;
                self.open = false;
                self.merge(m, fr.reached)?;
            }
            Node::Break => {
                let fr = self.frames.last_mut().ok_or("break outside a construct")?;
                fr.reached = true;
                let m = fr.merge;
                e(self.b.branch(m))?;
                self.open = false;
            }
            Node::Continue => {
                let k = self.frames.iter().rev().find_map(|f| f.cont).ok_or("continue outside a loop")?;
                e(self.b.branch(k))?;
                self.open = false;
            }
            Node::Return(v) => {
                match v {
                    Some(v) => {
                        let x = self.value(*v)?;
                        e(self.b.ret_value(x))?
                    }
                    None => e(self.b.ret())?,
                }
                self.open = false;
            }
            Node::Unreachable => {
                e(self.b.unreachable())?;
                self.open = false;
            }
            Node::PhiCopy { phi, value } => {
                let x = self.value(*value)?;
                let var = *self.var.get(phi.index()).filter(|&&v| v != 0).ok_or("phi copy to a non-phi")?;
                e(self.b.store(var, x, None, []))?;
            }
            Node::SetVar { var, value } => {
                let v = *self.svars.get(var.0 as usize).ok_or("bad variable")?;
                let k = self.b.constant_bit32(self.c.u32_, *value);
                e(self.b.store(v, k, None, []))?;
            }
        }
        Ok(())
    }
}

/// The validator: `$DXJIT_SPIRV_VAL`, else `spirv-val` on PATH.
pub fn validator() -> Option<std::path::PathBuf> {
    if let Some(p) = std::env::var_os("DXJIT_SPIRV_VAL") {
        return Some(p.into());
    }
    std::env::var_os("PATH")?
        .to_str()?
        .split(':')
        .map(|d| std::path::Path::new(d).join("spirv-val"))
        .find(|p| p.is_file())
}

/// Runs `spirv-val --target-env vulkan1.1` on the words; Err carries its output.
pub fn validate(val: &std::path::Path, words: &[u32], tag: &str) -> Result<(), String> {
    let dir = std::env::temp_dir().join(format!("dxjit-structurize-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let path = dir.join(format!("{tag}.spv"));
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    std::fs::write(&path, bytes).map_err(|e| e.to_string())?;
    let out = std::process::Command::new(val)
        .args(["--target-env", "vulkan1.1"])
        .arg(&path)
        .output()
        .map_err(|e| format!("{}: {e}", val.display()))?;
    if out.status.success() {
        let _ = std::fs::remove_file(&path);
        Ok(())
    } else {
        Err(format!(
            "spirv-val failed on {}:\n{}{}",
            path.display(),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}
