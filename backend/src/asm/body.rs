//! Function bodies: blocks, instructions, local names and forward references.
//!
//! Local names: `%name` and `%"any name"` are names (kept in the module);
//! the unquoted forms the printer gives unnamed values (`%17`, `%arg2`,
//! `%bb3`, labels `bb3:` and `3:`) only identify values within the body.

use super::consts::{bin_op, cast_op, cmp_pred};
use super::error::Result;
use super::lexer::Tok;
use super::state::{FnState, Parser};
use crate::dxil_op::{split_function_name, DxilOp};
use crate::ir::print::is_synthetic_local;
use crate::ir::*;
use std::collections::HashMap;

use super::state::FWD_BASE;

/// The key of a local name: unquoted synthetic forms are not names.
fn key(name: &str, quoted: bool) -> String {
    if !quoted && is_synthetic_local(name) {
        format!("u:{name}")
    } else {
        format!("n:{name}")
    }
}

fn ordering(w: &str) -> Option<Ordering> {
    use Ordering::*;
    [NotAtomic, Unordered, Monotonic, Acquire, Release, AcqRel, SeqCst].into_iter().find(|o| o.name() == w)
}

fn rmw_op(w: &str) -> Option<RmwOp> {
    use RmwOp::*;
    [Xchg, Add, Sub, And, Nand, Or, Xor, Max, Min, UMax, UMin].into_iter().find(|o| o.name() == w)
}

/// Visits the operands stored inline in an instruction (pools excluded).
fn for_each_inline_operand(k: &mut InstKind, f: &mut impl FnMut(&mut Value)) {
    match k {
        InstKind::Binary { lhs, rhs, .. } | InstKind::Cmp { lhs, rhs, .. } => {
            f(lhs);
            f(rhs)
        }
        InstKind::Cast { value, .. } => f(value),
        InstKind::Select { cond, if_true, if_false } => {
            f(cond);
            f(if_true);
            f(if_false)
        }
        InstKind::Call { callee, .. } => f(callee),
        InstKind::Alloca { count, .. } => f(count),
        InstKind::Load { ptr, .. } => f(ptr),
        InstKind::Store { ptr, value, .. } => {
            f(ptr);
            f(value)
        }
        InstKind::Gep { base, .. } => f(base),
        InstKind::ExtractValue { agg, .. } => f(agg),
        InstKind::InsertValue { agg, value, .. } => {
            f(agg);
            f(value)
        }
        InstKind::ExtractElement { vector, index } => {
            f(vector);
            f(index)
        }
        InstKind::InsertElement { vector, value, index } => {
            f(vector);
            f(value);
            f(index)
        }
        InstKind::ShuffleVector { a, b, mask } => {
            f(a);
            f(b);
            f(mask)
        }
        InstKind::AtomicRmw { ptr, value, .. } => {
            f(ptr);
            f(value)
        }
        InstKind::CmpXchg { ptr, cmp, new, .. } => {
            f(ptr);
            f(cmp);
            f(new)
        }
        InstKind::CondBr { cond, .. } | InstKind::Switch { cond, .. } => f(cond),
        InstKind::Ret { value: Some(v) } => f(v),
        InstKind::Fence { .. }
        | InstKind::Br { .. }
        | InstKind::Ret { value: None }
        | InstKind::Unreachable
        | InstKind::Phi { .. }
        | InstKind::DxOp { .. } => {}
    }
}

impl Parser {
    fn fs(&mut self) -> &mut FnState {
        // Only called while a body is being read.
        self.fs.get_or_insert_with(|| FnState {
            func: Function::default(),
            locals: HashMap::new(),
            blocks: HashMap::new(),
            fwd: Vec::new(),
        })
    }

    /// A local value `%name` of type `ty` (a forward reference when not yet defined).
    pub fn local_value(&mut self, name: &str, quoted: bool, ty: TypeId, at: usize) -> Result<Value> {
        let k = key(name, quoted);
        if let Some(&v) = self.fs().locals.get(&k) {
            self.check_ty(v, ty, at)?;
            return Ok(v);
        }
        let fs = self.fs();
        fs.fwd.push((k, ty, at));
        Ok(Value::Inst(InstId(FWD_BASE + fs.fwd.len() as u32 - 1)))
    }

    /// `label %x`.
    fn label_ref(&mut self) -> Result<BlockId> {
        self.expect_word("label")?;
        let at = self.pos;
        let Tok::Local(name, quoted) = self.bump() else { return Err(self.err_at(at, "expected a block `%name`")) };
        self.fs()
            .blocks
            .get(&key(&name, quoted))
            .copied()
            .ok_or_else(|| self.err_at(at, format!("block %{name} is not defined")))
    }

    pub fn function_body(&mut self, fid: FuncId, end: usize) -> Result<()> {
        let func = std::mem::take(&mut self.m.functions[fid.index()]);
        let fname = func.name.clone();
        self.fs = Some(FnState { func, locals: HashMap::new(), blocks: HashMap::new(), fwd: Vec::new() });
        let r = self.body_inner(fid, end, &fname);
        if let Some(fs) = self.fs.take() {
            self.m.functions[fid.index()] = fs.func;
        }
        r
    }

    fn body_inner(&mut self, fid: FuncId, end: usize, fname: &str) -> Result<()> {
        let open = self.pos;
        self.expect_punct('{')?;
        // Parameters.
        let names = self.param_names.get(fid.index()).cloned().unwrap_or_default();
        for (i, n) in names.into_iter().enumerate() {
            match n {
                Some((name, quoted)) => {
                    let k = key(&name, quoted);
                    if k.starts_with("u:") && k != format!("u:arg{i}") {
                        return Err(self.err_at(open, format!("parameter {i} of @{fname} is named %{name}")));
                    }
                    if self.fs().locals.insert(k.clone(), Value::Arg(i as u32)).is_some() {
                        return Err(self.err_at(open, format!("parameter name %{name} is used twice")));
                    }
                    if k.starts_with("n:") {
                        self.fs().func.names.push((LocalName::Arg(i as u32), name));
                    }
                }
                None => {
                    self.fs().locals.insert(format!("u:arg{i}"), Value::Arg(i as u32));
                }
            }
        }
        // Blocks, in the order of their labels (a first block may have none).
        let close = end.saturating_sub(1);
        if self.toks.get(close).map(|t| &t.tok) != Some(&Tok::Punct('}')) {
            return Err(self.err_at(close, "expected `}` at the end of the function body"));
        }
        let implicit_first = !matches!(self.tok(), Tok::Label(..));
        let mut n_blocks = usize::from(implicit_first);
        for k in self.pos..close {
            if let Tok::Label(name, quoted) = &self.toks[k].tok {
                let (name, quoted) = (name.clone(), *quoted);
                let kk = key(&name, quoted);
                if self.fs().blocks.insert(kk.clone(), BlockId(n_blocks as u32)).is_some() {
                    return Err(self.err_at(k, format!("block {name} is defined twice")));
                }
                if kk.starts_with("n:") {
                    self.fs().func.names.push((LocalName::Block(BlockId(n_blocks as u32)), name));
                }
                n_blocks += 1;
            }
        }
        if n_blocks == 0 || (implicit_first && self.pos == close) {
            return Err(self.err_at(open, format!("@{fname} has a body without blocks")));
        }
        self.fs().func.blocks = vec![Block { first: 0, end: 0 }; n_blocks];
        let mut cur: Option<usize> = implicit_first.then_some(0);
        let mut next_block = usize::from(implicit_first);
        self.rule = "instruction";
        while self.pos < close {
            if let Tok::Label(name, _) = self.tok().clone() {
                if let Some(b) = cur {
                    return Err(self.err(format!("block {} does not end with a terminator before {name}:", b)));
                }
                self.bump();
                let first = self.fs().func.insts.len() as u32;
                self.fs().func.blocks[next_block] = Block { first, end: first };
                cur = Some(next_block);
                next_block += 1;
                continue;
            }
            let Some(b) = cur else {
                return Err(self.err("an instruction after a terminator must start a new block (a label)"));
            };
            let term = self.instruction(b as u32)?;
            if term {
                let n = self.fs().func.insts.len() as u32;
                self.fs().func.blocks[b].end = n;
                cur = None;
            }
        }
        if cur.is_some() {
            return Err(self.err("the last block does not end with a terminator"));
        }
        self.bump();
        self.resolve_forward(fname)
    }

    fn resolve_forward(&mut self, fname: &str) -> Result<()> {
        let fwd = std::mem::take(&mut self.fs().fwd);
        if fwd.is_empty() {
            return Ok(());
        }
        let mut resolved = Vec::with_capacity(fwd.len());
        for (k, ty, at) in &fwd {
            let Some(&v) = self.fs().locals.get(k) else {
                let name = k.get(2..).unwrap_or("");
                return Err(self.err_at(*at, format!("%{name} is not defined in @{fname}")));
            };
            let actual = self.fs().local_ty(v);
            if actual != *ty {
                return Err(self.err_at(*at, format!("value has type {}, not {}", self.show(actual), self.show(*ty))));
            }
            resolved.push(v);
        }
        let fix = |v: &mut Value| {
            if let Value::Inst(InstId(k)) = *v {
                if k >= FWD_BASE {
                    if let Some(&r) = resolved.get((k - FWD_BASE) as usize) {
                        *v = r;
                    }
                }
            }
        };
        let mut fix = fix;
        let fs = self.fs();
        for inst in &mut fs.func.insts {
            for_each_inline_operand(&mut inst.kind, &mut fix);
        }
        for v in &mut fs.func.value_pool {
            fix(v);
        }
        for p in &mut fs.func.phi_pool {
            fix(&mut p.0);
        }
        Ok(())
    }

    /// `, align N` (0 when absent).
    fn opt_align(&mut self) -> Result<u32> {
        if self.is_punct(',') && self.tok_at(1) == &Tok::Word("align".into()) {
            self.bump();
            self.bump();
            return self.alignment();
        }
        Ok(0)
    }

    fn single_thread(&mut self) -> bool {
        self.eat_word("singlethread")
    }

    fn ordering(&mut self) -> Result<Ordering> {
        let at = self.pos;
        match self.bump() {
            Tok::Word(w) => ordering(&w),
            _ => None,
        }
        .ok_or_else(|| self.err_at(at, "expected an atomic ordering"))
    }

    fn pointer_operand(&mut self) -> Result<(Value, TypeId, TypeId)> {
        let at = self.pos;
        let (v, t) = self.typed_value()?;
        let (pointee, _) =
            self.m.types.pointee(t).ok_or_else(|| self.err_at(at, format!("{} is not a pointer", self.show(t))))?;
        Ok((v, t, pointee))
    }

    fn list_of(&mut self, pool_len: usize, n: usize) -> List {
        List { start: pool_len as u32, len: n as u32 }
    }

    /// Aggregate indices `, N, N…` of extractvalue/insertvalue; the type reached.
    fn agg_indices(&mut self, mut ty: TypeId, at: usize) -> Result<(List, TypeId)> {
        let mut idx = Vec::new();
        while self.is_punct(',') && matches!(self.tok_at(1), Tok::Int(_)) {
            self.bump();
            let k = self.uint32("aggregate index")?;
            match self.ty(ty) {
                Type::Array { len, .. } if u64::from(k) >= *len => {
                    return Err(self.err_at(at, "aggregate index out of range"))
                }
                Type::Struct { .. } | Type::Array { .. } => {}
                _ => return Err(self.err_at(at, format!("aggregate index into {}", self.show(ty)))),
            }
            ty = self
                .m
                .types
                .element(ty, u64::from(k))
                .ok_or_else(|| self.err_at(at, "aggregate index out of range"))?;
            idx.push(k);
        }
        if idx.is_empty() {
            return Err(self.expected("an aggregate index"));
        }
        let pool = &mut self.fs().func.index_pool;
        let l = List { start: pool.len() as u32, len: idx.len() as u32 };
        pool.extend(idx);
        Ok((l, ty))
    }

    /// Reads one instruction into block `b`; whether it is a terminator.
    fn instruction(&mut self, b: u32) -> Result<bool> {
        let start = self.pos;
        let def = match (self.tok().clone(), self.tok_at(1)) {
            (Tok::Local(n, q), Tok::Punct('=')) => {
                self.bump();
                self.bump();
                Some((n, q))
            }
            _ => None,
        };
        let op_at = self.pos;
        let Tok::Word(op) = self.bump() else { return Err(self.err_at(op_at, "expected an instruction")) };
        let void = self.intern(Type::Void);
        let (kind, ty) = self.inst_kind(&op, op_at)?;
        // Attachments.
        let id = InstId(self.fs().func.insts.len() as u32);
        while self.is_punct(',') && matches!(self.tok_at(1), Tok::MdName(_)) {
            self.bump();
            let Tok::MdName(k) = self.bump() else { break };
            let at = self.pos;
            let Tok::MdId(n) = self.bump() else {
                return Err(self.err_at(at, "expected `!N` after an attachment kind"));
            };
            let md = self.md_ref(n, at)?;
            let kind = self.kind_id(&k);
            self.fs().func.attachments.push(Attachment { inst: id, kind, md });
        }
        let term = kind.is_terminator();
        self.fs().func.insts.push(Inst { kind, ty, block: BlockId(b) });
        if let Some((name, quoted)) = def {
            if ty == void {
                return Err(self.err_at(start, format!("`{op}` has no result to name %{name}")));
            }
            let k = key(&name, quoted);
            if self.fs().locals.insert(k.clone(), Value::Inst(id)).is_some() {
                return Err(self.err_at(start, format!("%{name} is defined twice")));
            }
            if k.starts_with("n:") {
                self.fs().func.names.push((LocalName::Inst(id), name));
            }
        }
        Ok(term)
    }

    fn inst_kind(&mut self, op: &str, at: usize) -> Result<(InstKind, TypeId)> {
        let void = self.intern(Type::Void);
        if let Some(bop) = bin_op(op) {
            let flags = self.bin_flags(bop)?;
            let (lhs, ty) = self.typed_value()?;
            self.check_binop(bop, ty, at)?;
            self.expect_punct(',')?;
            let rhs = self.value(ty)?;
            return Ok((InstKind::Binary { op: bop, lhs, rhs, flags }, ty));
        }
        if let Some(cop) = cast_op(op) {
            let (value, _) = self.typed_value()?;
            self.expect_word("to")?;
            let to = self.parse_type()?;
            return Ok((InstKind::Cast { op: cop, value }, to));
        }
        Ok(match op {
            "icmp" | "fcmp" => {
                let flags = if op == "fcmp" { self.fmf() } else { 0 };
                let p_at = self.pos;
                let pred = match self.bump() {
                    Tok::Word(p) => cmp_pred(&p, op == "fcmp"),
                    _ => None,
                }
                .ok_or_else(|| self.err_at(p_at, format!("expected a predicate of {op}")))?;
                let (lhs, ty) = self.typed_value()?;
                self.expect_punct(',')?;
                let rhs = self.value(ty)?;
                let rty = self.cmp_result(ty, pred, at)?;
                (InstKind::Cmp { pred, lhs, rhs, flags }, rty)
            }
            "select" => {
                let (cond, _) = self.typed_value()?;
                self.expect_punct(',')?;
                let (if_true, ty) = self.typed_value()?;
                self.expect_punct(',')?;
                let f_at = self.pos;
                let (if_false, fty) = self.typed_value()?;
                if fty != ty {
                    return Err(self.err_at(f_at, "select operands of different types"));
                }
                (InstKind::Select { cond, if_true, if_false }, ty)
            }
            "phi" => {
                let ty = self.parse_type()?;
                let mut inc = Vec::new();
                loop {
                    self.expect_punct('[')?;
                    let v = self.value(ty)?;
                    self.expect_punct(',')?;
                    let b_at = self.pos;
                    let Tok::Local(name, quoted) = self.bump() else {
                        return Err(self.err_at(b_at, "expected a block `%name`"));
                    };
                    let bb = self
                        .fs()
                        .blocks
                        .get(&key(&name, quoted))
                        .copied()
                        .ok_or_else(|| self.err_at(b_at, format!("block %{name} is not defined")))?;
                    self.expect_punct(']')?;
                    inc.push((v, bb));
                    if !(self.is_punct(',') && self.tok_at(1) == &Tok::Punct('[')) {
                        break;
                    }
                    self.bump();
                }
                let pool = &mut self.fs().func.phi_pool;
                let l = List { start: pool.len() as u32, len: inc.len() as u32 };
                pool.extend(inc);
                (InstKind::Phi { incoming: l }, ty)
            }
            "tail" | "call" => {
                let tail = op == "tail";
                if tail {
                    self.expect_word("call")?;
                }
                self.call(tail, at)?
            }
            "alloca" => {
                let alloc_ty = self.parse_type()?;
                let count = if self.is_punct(',') && self.tok_at(1) != &Tok::Word("align".into()) {
                    self.bump();
                    self.typed_value()?.0
                } else {
                    let i32t = self.intern(Type::Int(32));
                    Value::Const(self.konst(i32t, ConstKind::Int(1)))
                };
                let align = self.opt_align()?;
                let ty = self.ptr_to(alloc_ty, 0);
                (InstKind::Alloca { alloc_ty, count, align }, ty)
            }
            "load" => {
                let volatile = self.eat_word("volatile");
                let ty = self.parse_type()?;
                self.expect_punct(',')?;
                let (ptr, _, _) = self.pointer_operand()?;
                let align = self.opt_align()?;
                (InstKind::Load { ptr, align, volatile }, ty)
            }
            "store" => {
                let volatile = self.eat_word("volatile");
                let (value, _) = self.typed_value()?;
                self.expect_punct(',')?;
                let (ptr, _, _) = self.pointer_operand()?;
                let align = self.opt_align()?;
                (InstKind::Store { ptr, value, align, volatile }, void)
            }
            "getelementptr" => {
                let inbounds = self.eat_word("inbounds");
                let source_ty = self.parse_type()?;
                self.expect_punct(',')?;
                let (base, base_ty) = self.typed_value()?;
                let mut idx = Vec::new();
                while self.is_punct(',') && !matches!(self.tok_at(1), Tok::MdName(_)) {
                    self.bump();
                    idx.push(self.typed_value()?.0);
                }
                let ty = self.gep_result(source_ty, base_ty, &idx, at)?;
                let pool_len = self.fs().func.value_pool.len();
                let indices = self.list_of(pool_len, idx.len());
                self.fs().func.value_pool.extend(idx);
                (InstKind::Gep { inbounds, source_ty, base, indices }, ty)
            }
            "extractvalue" => {
                let (agg, aty) = self.typed_value()?;
                let (indices, ty) = self.agg_indices(aty, at)?;
                (InstKind::ExtractValue { agg, indices }, ty)
            }
            "insertvalue" => {
                let (agg, aty) = self.typed_value()?;
                self.expect_punct(',')?;
                let (value, _) = self.typed_value()?;
                let (indices, _) = self.agg_indices(aty, at)?;
                (InstKind::InsertValue { agg, value, indices }, aty)
            }
            "extractelement" => {
                let (vector, vty) = self.typed_value()?;
                self.expect_punct(',')?;
                let (index, _) = self.typed_value()?;
                let e = match self.ty(vty) {
                    Type::Vector { elem, .. } => *elem,
                    _ => return Err(self.err_at(at, "extractelement of a non-vector")),
                };
                (InstKind::ExtractElement { vector, index }, e)
            }
            "insertelement" => {
                let (vector, vty) = self.typed_value()?;
                self.expect_punct(',')?;
                let (value, _) = self.typed_value()?;
                self.expect_punct(',')?;
                let (index, _) = self.typed_value()?;
                (InstKind::InsertElement { vector, value, index }, vty)
            }
            "shufflevector" => {
                let (a, aty) = self.typed_value()?;
                self.expect_punct(',')?;
                let (bv, _) = self.typed_value()?;
                self.expect_punct(',')?;
                let (mask, mty) = self.typed_value()?;
                let ty = self.shuffle_result(aty, mty, at)?;
                (InstKind::ShuffleVector { a, b: bv, mask }, ty)
            }
            "atomicrmw" => {
                let volatile = self.eat_word("volatile");
                let r_at = self.pos;
                let rop = match self.bump() {
                    Tok::Word(w) => rmw_op(&w),
                    _ => None,
                }
                .ok_or_else(|| self.err_at(r_at, "expected an atomicrmw operation"))?;
                let (ptr, _, pointee) = self.pointer_operand()?;
                self.expect_punct(',')?;
                let (value, _) = self.typed_value()?;
                let single_thread = self.single_thread();
                let ordering = self.ordering()?;
                (InstKind::AtomicRmw { op: rop, ptr, value, volatile, ordering, single_thread }, pointee)
            }
            "cmpxchg" => {
                let weak = self.eat_word("weak");
                let volatile = self.eat_word("volatile");
                let (ptr, _, _) = self.pointer_operand()?;
                self.expect_punct(',')?;
                let (cmp, cty) = self.typed_value()?;
                self.expect_punct(',')?;
                let (new, _) = self.typed_value()?;
                let single_thread = self.single_thread();
                let success = self.ordering()?;
                let failure = self.ordering()?;
                let i1 = self.intern(Type::Int(1));
                let ty = self.intern(Type::Struct { name: None, packed: false, opaque: false, elems: vec![cty, i1] });
                (InstKind::CmpXchg { ptr, cmp, new, volatile, success, failure, single_thread, weak }, ty)
            }
            "fence" => {
                let single_thread = self.single_thread();
                let ordering = self.ordering()?;
                (InstKind::Fence { ordering, single_thread }, void)
            }
            "br" => {
                if self.is_word("label") {
                    let target = self.label_ref()?;
                    (InstKind::Br { target }, void)
                } else {
                    let c_at = self.pos;
                    let (cond, cty) = self.typed_value()?;
                    if *self.ty(cty) != Type::Int(1) {
                        return Err(self.err_at(c_at, format!("branch condition of type {}", self.show(cty))));
                    }
                    self.expect_punct(',')?;
                    let if_true = self.label_ref()?;
                    self.expect_punct(',')?;
                    let if_false = self.label_ref()?;
                    (InstKind::CondBr { cond, if_true, if_false }, void)
                }
            }
            "switch" => {
                let (cond, cty) = self.typed_value()?;
                if !self.ty(cty).is_int() {
                    return Err(self.err_at(at, format!("switch on {}", self.show(cty))));
                }
                self.expect_punct(',')?;
                let default = self.label_ref()?;
                self.expect_punct('[')?;
                let mut cases = Vec::new();
                while !self.eat_punct(']') {
                    let t_at = self.pos;
                    let t = self.parse_type()?;
                    if t != cty {
                        return Err(self.err_at(t_at, "switch case of another type than the condition"));
                    }
                    let c = self.constant(t)?;
                    self.expect_punct(',')?;
                    let bb = self.label_ref()?;
                    cases.push((c, bb));
                }
                let pool = &mut self.fs().func.case_pool;
                let l = List { start: pool.len() as u32, len: cases.len() as u32 };
                pool.extend(cases);
                (InstKind::Switch { cond, default, cases: l }, void)
            }
            "ret" => {
                let ret_ty = self.fs().func.ret_ty;
                if self.is_word("void") && self.ty(ret_ty) == &Type::Void {
                    self.bump();
                    (InstKind::Ret { value: None }, void)
                } else {
                    let v_at = self.pos;
                    let (v, t) = self.typed_value()?;
                    if t != ret_ty {
                        return Err(self.err_at(
                            v_at,
                            format!("ret {} in a function returning {}", self.show(t), self.show(ret_ty)),
                        ));
                    }
                    (InstKind::Ret { value: Some(v) }, void)
                }
            }
            "unreachable" => (InstKind::Unreachable, void),
            _ => return Err(self.err_at(at, format!("unknown instruction `{op}`"))),
        })
    }

    /// `call` after `[tail] call`: the callee, arguments and attributes; a
    /// call of a `dx.op.*` function becomes [`InstKind::DxOp`], as the
    /// bitcode reader makes it.
    fn call(&mut self, tail: bool, at: usize) -> Result<(InstKind, TypeId)> {
        let ret_attrs = self.attr_list()?;
        let t_at = self.pos;
        let t = self.parse_type()?;
        let c_at = self.pos;
        let (callee, fn_ty) = if matches!(self.ty(t), Type::Function { .. }) {
            let pt = self.ptr_to(t, 0);
            (self.value(pt)?, t)
        } else {
            let callee = match self.tok().clone() {
                Tok::Global(name) => match self.func_ids.get(&name) {
                    Some(&f) => {
                        self.bump();
                        Value::Function(f)
                    }
                    None => return Err(self.err(format!("@{name} is not a declared function"))),
                },
                Tok::Local(name, quoted) => {
                    let k = key(&name, quoted);
                    match self.fs().locals.get(&k) {
                        Some(&v) => {
                            self.bump();
                            v
                        }
                        None => {
                            return Err(self.err(format!("call of %{name}: an indirect call names its function type")))
                        }
                    }
                }
                _ => return Err(self.expected("the called function")),
            };
            let cty = self.value_ty(callee);
            let fn_ty = self
                .m
                .types
                .pointee(cty)
                .map(|p| p.0)
                .filter(|p| matches!(self.ty(*p), Type::Function { .. }))
                .ok_or_else(|| self.err_at(c_at, "the callee is not a function"))?;
            (callee, fn_ty)
        };
        let Type::Function { ret, params, vararg } = self.ty(fn_ty).clone() else {
            return Err(self.err_at(c_at, "the callee is not a function"));
        };
        if vararg {
            return Err(self.err_at(c_at, "variadic calls are not supported"));
        }
        if fn_ty != t && ret != t {
            return Err(self.err_at(t_at, format!("call returns {}, not {}", self.show(ret), self.show(t))));
        }
        self.expect_punct('(')?;
        let mut args = Vec::new();
        let mut param_attrs = Vec::new();
        if !self.eat_punct(')') {
            loop {
                let a_at = self.pos;
                let Some(&want) = params.get(args.len()) else {
                    return Err(self.err_at(a_at, format!("too many arguments (the function takes {})", params.len())));
                };
                let pt = self.parse_type()?;
                if pt != want {
                    return Err(self.err_at(
                        a_at,
                        format!("argument {} of type {}, expected {}", args.len(), self.show(pt), self.show(want)),
                    ));
                }
                param_attrs.push(self.attr_list()?);
                args.push(self.value(pt)?);
                if self.eat_punct(')') {
                    break;
                }
                self.expect_punct(',')?;
            }
        }
        if args.len() != params.len() {
            return Err(self.err_at(at, format!("{} arguments, the function takes {}", args.len(), params.len())));
        }
        let fn_groups = self.fn_group_refs()?;
        let attrs = self.attr_list_id(&ret_attrs, &param_attrs, &fn_groups);
        let pool_len = self.fs().func.value_pool.len();
        let list = self.list_of(pool_len, args.len());
        self.fs().func.value_pool.extend(args);
        if let Value::Function(f) = callee {
            let name = self.m.functions[f.index()].name.clone();
            if name.starts_with("dx.op.") {
                return Ok((self.dx_op(f, &name, list, at)?, ret));
            }
        }
        Ok((InstKind::Call { callee, fn_ty, args: list, attrs, tail }, ret))
    }

    /// The checks of `bitcode::reader`'s `dx.op` decoding, with positions.
    fn dx_op(&mut self, f: FuncId, name: &str, args: List, at: usize) -> Result<InstKind> {
        let (class, suffix) =
            split_function_name(name).ok_or_else(|| self.err_at(at, format!("unknown DXIL intrinsic @{name}")))?;
        let suffix = name.get(name.len() - suffix.len()..).unwrap_or("").to_string();
        let first = self.fs().func.value_pool.get(args.start as usize).copied();
        let opcode = first
            .filter(|_| args.len > 0)
            .and_then(|v| self.m.const_uint(v))
            .ok_or_else(|| self.err_at(at, format!("call of @{name} without a constant opcode")))?;
        let op = u32::try_from(opcode)
            .ok()
            .and_then(DxilOp::from_u32)
            .ok_or_else(|| self.err_at(at, format!("unknown DXIL opcode {opcode} (call of @{name})")))?;
        let info = op.info();
        if info.class != class {
            return Err(self.err_at(
                at,
                format!(
                    "opcode {opcode} ({}) called through @{name}, which is of class {}",
                    op.name(),
                    class.llvm_name()
                ),
            ));
        }
        let overload = info
            .overload_from_suffix(&suffix)
            .ok_or_else(|| self.err_at(at, format!("{} has no overload '{suffix}' (@{name})", op.name())))?;
        if args.len as usize != info.call_arg_count() {
            return Err(self.err_at(
                at,
                format!("{} takes {} arguments, call of @{name} has {}", op.name(), info.call_arg_count(), args.len),
            ));
        }
        Ok(InstKind::DxOp { op, overload, callee: f, args: List { start: args.start + 1, len: args.len - 1 } })
    }
}
