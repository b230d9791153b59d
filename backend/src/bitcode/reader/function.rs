//! Function bodies: instructions with relative value ids, forward
//! references, phis, function-local constants, metadata and attachments.

use super::*;

/// Per-body state.
struct Body {
    func: Function,
    cur_block: usize,
    /// Instruction value ids → instruction, for names and forward references.
    first_inst_value: usize,
}

impl<'a> Reader<'a> {
    pub(super) fn read_function_body(&mut self) -> Result<()> {
        let Some(&fid) = self.bodies.get(self.next_body) else {
            return Err(E::Malformed("more function bodies than defined functions"));
        };
        if self.next_body == 0 {
            self.module_values = self.values.len();
            self.module_md_count = self.module.metadata.len() as u32;
        } else {
            self.values.truncate(self.module_values);
        }
        self.next_body += 1;
        self.cur_function = Some(fid);
        self.local_md_base = self.module.metadata.len() as u32;
        self.fwd.clear();
        self.facts_here = FunctionFacts::default();

        let mut func = std::mem::take(&mut self.module.functions[fid.index()]);
        for (i, &t) in func.param_tys.iter().enumerate() {
            self.values.push((Value::Arg(i as u32), t));
        }
        func.blocks.clear();
        let mut body = Body { func, cur_block: 0, first_inst_value: 0 };
        let r = self.function_entries(&mut body);
        self.module.functions[fid.index()] = body.func;
        r?;
        let here = self.facts_here;
        if here.forward_refs {
            self.facts.forward_refs.push(fid);
        }
        if here.phis {
            self.facts.phis.push(fid);
        }
        if here.late_phis {
            self.facts.late_phis.push(fid);
        }
        if here.untyped_calls {
            self.facts.untyped_calls.push(fid);
        }
        if here.untyped_operands {
            self.facts.untyped_operands.push(fid);
        }
        self.cur_function = None;
        Ok(())
    }

    fn function_entries(&mut self, b: &mut Body) -> Result<()> {
        b.first_inst_value = self.values.len();
        // Size the instruction storage from the body's length instead of
        // growing it one push at a time (instruction records average ~50 bits).
        let n = estimate(self.cur.block_bits_left(), 64);
        b.func.insts.reserve(n);
        b.func.value_pool.reserve(n);
        self.values.reserve(n);
        let mut declared = false;
        loop {
            match self.cur.advance()? {
                Entry::EndBlock => {
                    self.cur.leave();
                    self.cur_code = None;
                    break;
                }
                Entry::SubBlock(id) => {
                    self.cur_code = None;
                    match id {
                        block::CONSTANTS => {
                            self.cur.enter(id)?;
                            self.read_constants()?;
                            b.first_inst_value = self.values.len();
                        }
                        block::METADATA => {
                            self.cur.enter(id)?;
                            self.read_metadata(true)?;
                        }
                        block::METADATA_ATTACHMENT => {
                            self.cur.enter(id)?;
                            self.read_attachments(&mut b.func)?;
                        }
                        block::VALUE_SYMTAB => {
                            // Names need the blocks and values of this function.
                            let fi = b_index(self);
                            self.cur.enter(id)?;
                            std::mem::swap(&mut self.module.functions[fi], &mut b.func);
                            let r = self.read_vst(true);
                            std::mem::swap(&mut self.module.functions[fi], &mut b.func);
                            r?;
                        }
                        _ => self.cur.skip_block()?,
                    }
                }
                Entry::Record(a) => {
                    self.read_rec(a)?;
                    if self.rec.code == 1 {
                        // DECLAREBLOCKS
                        let n = op(&self.rec.ops, 0)?;
                        if declared || n == 0 || n > self.cur.bits.remaining() / 4 {
                            return Err(E::Malformed("invalid DECLAREBLOCKS"));
                        }
                        declared = true;
                        b.func.blocks = vec![Block { first: 0, end: 0 }; n as usize];
                        continue;
                    }
                    if matches!(self.rec.code, 33 | 35) {
                        continue; // debug locations
                    }
                    if !declared {
                        return Err(E::Malformed("instruction before DECLAREBLOCKS"));
                    }
                    let ops = std::mem::take(&mut self.rec.ops);
                    let r = self.instruction(b, &ops);
                    self.rec.ops = ops;
                    r?;
                }
            }
        }
        if !declared {
            return Err(E::Malformed("function body without blocks"));
        }
        if b.cur_block != b.func.blocks.len() {
            return Err(E::Malformed("function ends inside a basic block"));
        }
        self.resolve_forward(&mut b.func)
    }

    fn read_attachments(&mut self, func: &mut Function) -> Result<()> {
        loop {
            match self.cur.advance()? {
                Entry::EndBlock => {
                    self.cur.leave();
                    func.attachments.sort_by_key(|a| a.inst);
                    return self.check_md_refs();
                }
                Entry::SubBlock(_) => self.cur.skip_block()?,
                Entry::Record(a) => {
                    self.read_rec(a)?;
                    if self.rec.code != 11 {
                        continue;
                    }
                    let ops = std::mem::take(&mut self.rec.ops);
                    let r = (|| -> Result<()> {
                        if ops.len() % 2 == 1 {
                            let inst = ops[0];
                            if inst >= func.insts.len() as u64 {
                                return Err(E::BadValue(inst));
                            }
                            for pair in ops[1..].chunks_exact(2) {
                                let md = self.md_ref(pair[1])?;
                                func.attachments.push(Attachment {
                                    inst: InstId(inst as u32),
                                    kind: pair[0] as u32,
                                    md,
                                });
                            }
                        } else {
                            for pair in ops.chunks_exact(2) {
                                let md = self.md_ref(pair[1])?;
                                func.fn_attachments.push((pair[0] as u32, md));
                            }
                        }
                        Ok(())
                    })();
                    self.rec.ops = ops;
                    r?;
                }
            }
        }
    }

    // ------------------------------------------------------------ operands

    #[inline]
    fn value_id(&self, raw: u64) -> u32 {
        let next = self.values.len() as u32;
        if self.relative_ids {
            next.wrapping_sub(raw as u32)
        } else {
            raw as u32
        }
    }

    #[cold]
    fn forward(&mut self, id: u32) -> Result<Value> {
        if id as usize > MAX_VALUES + self.values.len() || self.fwd.len() >= MAX_VALUES {
            return Err(E::BadValue(u64::from(id)));
        }
        self.fwd.push(id);
        Ok(Value::Inst(InstId(FWD_BASE + self.fwd.len() as u32 - 1)))
    }

    /// A (value, type) pair: a defined value, or a forward reference followed by its type.
    #[inline(always)]
    fn pair(&mut self, ops: &[u64], i: &mut usize) -> Result<(Value, TypeId)> {
        let id = self.value_id(op(ops, *i)?);
        *i += 1;
        if (id as usize) < self.values.len() {
            return Ok(self.values[id as usize]);
        }
        let ty = self.ty(op(ops, *i)?)?;
        *i += 1;
        Ok((self.forward_plain(id)?, ty))
    }

    /// A value whose type is known from context.
    #[inline(always)]
    fn value(&mut self, ops: &[u64], i: &mut usize) -> Result<Value> {
        let id = self.value_id(op(ops, *i)?);
        *i += 1;
        if (id as usize) < self.values.len() {
            return Ok(self.values[id as usize].0);
        }
        self.forward_plain(id)
    }

    /// [`Reader::value`] with its type, for [`FunctionFacts::untyped_operands`]: a forward
    /// reference's is `TypeId(u32::MAX)` (its function is noted in
    /// [`FunctionFacts::forward_refs`], whose operand types the verifier checks).
    #[inline(always)]
    fn value_typed(&mut self, ops: &[u64], i: &mut usize) -> Result<(Value, TypeId)> {
        let id = self.value_id(op(ops, *i)?);
        *i += 1;
        if (id as usize) < self.values.len() {
            return Ok(self.values[id as usize]);
        }
        Ok((self.forward_plain(id)?, TypeId(u32::MAX)))
    }

    /// `ok` is false: an instruction's operand types are not the ones its rules want
    /// ([`FunctionFacts::untyped_operands`]).
    #[inline(always)]
    fn note_typed(&mut self, ok: bool) {
        if !ok {
            self.facts_here.untyped_operands = true;
        }
    }

    /// Type `t` is `i1`.
    #[inline(always)]
    fn is_i1(&self, t: TypeId) -> bool {
        matches!(self.module.types.list.get(t.0 as usize), Some(Type::Int(1)))
    }

    /// A PHI is about to be added to the current block: [`FunctionFacts::phis`], and
    /// [`FunctionFacts::late_phis`] when the block already holds a non-PHI.
    fn note_phi(&mut self, b: &Body) {
        self.facts_here.phis = true;
        let first = b.func.blocks.get(b.cur_block).map_or(0, |k| k.first as usize);
        if b.func.insts.len() > first && !matches!(b.func.insts.last().map(|i| &i.kind), Some(InstKind::Phi { .. })) {
            self.facts_here.late_phis = true;
        }
    }

    /// A forward reference from an instruction other than a PHI (PHIs read theirs through
    /// [`Reader::value_signed`]): the function is listed in
    /// [`crate::bitcode::ReadFacts::forward_refs`] (its uses need checking one by one).
    #[cold]
    fn forward_plain(&mut self, id: u32) -> Result<Value> {
        self.facts_here.forward_refs = true;
        self.forward(id)
    }

    fn value_signed(&mut self, raw: u64) -> Result<Value> {
        let d = decode_signed(raw);
        let id = if self.relative_ids { self.values.len() as i64 - d } else { d };
        if id < 0 || id > u32::MAX as i64 {
            return Err(E::BadValue(raw));
        }
        let id = id as u32;
        if (id as usize) < self.values.len() {
            return Ok(self.values[id as usize].0);
        }
        self.forward(id)
    }

    fn absolute(&self, raw: u64) -> Result<(Value, TypeId)> {
        usize::try_from(raw).ok().and_then(|i| self.values.get(i)).copied().ok_or_else(|| E::BadValue(raw))
    }

    fn bb(&self, b: &Body, raw: u64) -> Result<BlockId> {
        if raw < b.func.blocks.len() as u64 {
            Ok(BlockId(raw as u32))
        } else {
            Err(E::BadBlock(raw))
        }
    }

    pub(super) fn list(pool_len: usize, n: usize) -> Result<List> {
        let start = u32::try_from(pool_len).map_err(|_| E::Limit("operand pool too large"))?;
        Ok(List { start, len: n as u32 })
    }

    // -------------------------------------------------------- instructions

    fn instruction(&mut self, b: &mut Body, ops: &[u64]) -> Result<()> {
        if b.cur_block >= b.func.blocks.len() {
            return Err(E::Malformed("instruction after the last basic block"));
        }
        if b.func.insts.len() >= FWD_BASE as usize {
            return Err(E::Limit("too many instructions"));
        }
        let code = self.rec.code;
        let void = self.void_ty();
        let mut i = 0usize;
        let (kind, ty) = match code {
            2 => {
                let (lhs, lty) = self.pair(ops, &mut i)?;
                let (rhs, rty) = self.value_typed(ops, &mut i)?;
                let opc = op(ops, i)?;
                let scalar = self.module.types.get(self.elem_scalar(lty));
                let float = scalar.is_float();
                // (`bin_op` gives a floating-point op for a float type, an integer op otherwise.)
                let typed = rty == lty && (float || scalar.is_int());
                self.note_typed(typed);
                let flags = ops.get(i + 1).copied().unwrap_or(0) as u32;
                (InstKind::Binary { op: bin_op(opc, float)?, lhs, rhs, flags }, lty)
            }
            3 => {
                let (value, _) = self.pair(ops, &mut i)?;
                let dest = self.ty(op(ops, i)?)?;
                (InstKind::Cast { op: cast_op(op(ops, i + 1)?)?, value }, dest)
            }
            4 | 30 | 43 => {
                let (inbounds, explicit) = match code {
                    43 => {
                        let inb = op(ops, 0)? != 0;
                        i = 2;
                        (inb, Some(self.ty(op(ops, 1)?)?))
                    }
                    30 => (true, None),
                    _ => (false, None),
                };
                let (base, base_ty) = self.pair(ops, &mut i)?;
                let (pointee, addr_space) =
                    self.module.types.pointee(base_ty).ok_or_else(|| E::TypeMismatch("GEP base is not a pointer"))?;
                let source_ty = explicit.unwrap_or(pointee);
                let mut idx = Vec::new();
                while i < ops.len() {
                    idx.push(self.pair(ops, &mut i)?.0);
                }
                let mut cur = source_ty;
                for v in idx.iter().skip(1) {
                    let k = match self.module.types.get(cur) {
                        Type::Struct { .. } => {
                            self.module.const_uint(*v).ok_or_else(|| E::Malformed("non-constant struct index"))?
                        }
                        _ => 0,
                    };
                    cur = self
                        .module
                        .types
                        .element(cur, k)
                        .ok_or_else(|| E::TypeMismatch("GEP index into non-aggregate"))?;
                }
                let ty = self.ptr_to(cur, addr_space);
                let indices = Self::list(b.func.value_pool.len(), idx.len())?;
                b.func.value_pool.extend(idx);
                (InstKind::Gep { inbounds, source_ty, base, indices }, ty)
            }
            5 | 29 => {
                let (if_true, tty) = self.pair(ops, &mut i)?;
                let (if_false, fty) = self.value_typed(ops, &mut i)?;
                let (cond, cty) = if code == 29 { self.pair(ops, &mut i)? } else { self.value_typed(ops, &mut i)? };
                let typed = fty == tty && self.is_i1(cty);
                self.note_typed(typed);
                (InstKind::Select { cond, if_true, if_false }, tty)
            }
            6 => {
                let (vector, vty) = self.pair(ops, &mut i)?;
                let (index, _) = self.pair(ops, &mut i)?;
                let e =
                    self.module.types.element(vty, 0).ok_or_else(|| E::TypeMismatch("extractelement of non-vector"))?;
                (InstKind::ExtractElement { vector, index }, e)
            }
            7 => {
                let (vector, vty) = self.pair(ops, &mut i)?;
                let value = self.value(ops, &mut i)?;
                let (index, _) = self.pair(ops, &mut i)?;
                (InstKind::InsertElement { vector, value, index }, vty)
            }
            8 => {
                let (a, vty) = self.pair(ops, &mut i)?;
                let bv = self.value(ops, &mut i)?;
                let (mask, mty) = self.pair(ops, &mut i)?;
                let (Type::Vector { elem, .. }, Type::Vector { len, .. }) =
                    (self.module.types.get(vty).clone(), self.module.types.get(mty).clone())
                else {
                    return Err(E::TypeMismatch("shufflevector of non-vectors"));
                };
                let ty = self.module.types.intern(Type::Vector { len, elem });
                (InstKind::ShuffleVector { a, b: bv, mask }, ty)
            }
            9 | 28 => {
                let (lhs, lty) = self.pair(ops, &mut i)?;
                let (rhs, rty) = self.value_typed(ops, &mut i)?;
                let pred =
                    CmpPred::from_u64(op(ops, i)?).ok_or_else(|| E::Malformed("invalid comparison predicate"))?;
                let scalar = self.module.types.get(self.elem_scalar(lty));
                let typed = rty == lty
                    && if pred.is_float() {
                        scalar.is_float()
                    } else {
                        matches!(scalar, Type::Int(_) | Type::Pointer { .. })
                    };
                self.note_typed(typed);
                let flags = ops.get(i + 1).copied().unwrap_or(0) as u32;
                let i1 = self.int_ty(1);
                let ty = match self.module.types.get(lty) {
                    Type::Vector { len, .. } => {
                        let len = *len;
                        self.module.types.intern(Type::Vector { len, elem: i1 })
                    }
                    _ => i1,
                };
                (InstKind::Cmp { pred, lhs, rhs, flags }, ty)
            }
            10 => {
                if ops.is_empty() {
                    let typed = matches!(self.module.types.list.get(b.func.ret_ty.0 as usize), Some(Type::Void));
                    self.note_typed(typed);
                    (InstKind::Ret { value: None }, void)
                } else {
                    let (v, vty) = self.pair(ops, &mut i)?;
                    if i != ops.len() {
                        return Err(E::Unsupported("multiple return values".into()));
                    }
                    self.note_typed(vty == b.func.ret_ty);
                    (InstKind::Ret { value: Some(v) }, void)
                }
            }
            11 => {
                let t = self.bb(b, op(ops, 0)?)?;
                if ops.len() == 1 {
                    (InstKind::Br { target: t }, void)
                } else {
                    let f = self.bb(b, op(ops, 1)?)?;
                    i = 2;
                    let (cond, cty) = self.value_typed(ops, &mut i)?;
                    let typed = self.is_i1(cty);
                    self.note_typed(typed);
                    (InstKind::CondBr { cond, if_true: t, if_false: f }, void)
                }
            }
            12 => {
                if op(ops, 0)? >> 16 == 0x4B5 {
                    return Err(E::Unsupported("case-range switch encoding".into()));
                }
                let cty = self.ty(op(ops, 0)?)?;
                i = 1;
                let cond = self.value(ops, &mut i)?;
                let default = self.bb(b, op(ops, 2)?)?;
                let rest = ops.get(3..).unwrap_or(&[]);
                if rest.len() % 2 != 0 {
                    return Err(E::Malformed("switch with odd case list"));
                }
                let mut cases = Vec::with_capacity(rest.len() / 2);
                for c in rest.chunks_exact(2) {
                    let (v, vty) = self.absolute(c[0])?;
                    let Value::Const(k) = v else { return Err(E::Malformed("switch case is not a constant")) };
                    if vty != cty {
                        return Err(E::TypeMismatch("switch case type"));
                    }
                    cases.push((k, self.bb(b, c[1])?));
                }
                let l = Self::list(b.func.case_pool.len(), cases.len())?;
                b.func.case_pool.extend(cases);
                (InstKind::Switch { cond, default, cases: l }, void)
            }
            15 => (InstKind::Unreachable, void),
            16 => {
                let ty = self.ty(op(ops, 0)?)?;
                if ops.len() % 2 != 1 {
                    return Err(E::Malformed("phi with odd operand list"));
                }
                let mut inc = Vec::with_capacity(ops.len() / 2);
                for c in ops[1..].chunks_exact(2) {
                    let v = self.value_signed(c[0])?;
                    inc.push((v, self.bb(b, c[1])?));
                }
                let l = Self::list(b.func.phi_pool.len(), inc.len())?;
                b.func.phi_pool.extend(inc);
                self.note_phi(b);
                (InstKind::Phi { incoming: l }, ty)
            }
            19 => {
                let mut alloc_ty = self.ty(op(ops, 0)?)?;
                let _opty = self.ty(op(ops, 1)?)?;
                let (count, _) = self.absolute(op(ops, 2)?)?;
                let a = op(ops, 3)?;
                if a & (1 << 5) != 0 {
                    return Err(E::Unsupported("inalloca".into()));
                }
                if a & (1 << 6) == 0 {
                    alloc_ty = self
                        .module
                        .types
                        .pointee(alloc_ty)
                        .ok_or_else(|| E::TypeMismatch("alloca type is not a pointer"))?
                        .0;
                }
                let align = align_from(a & 31)?;
                let ty = self.ptr_to(alloc_ty, 0);
                (InstKind::Alloca { alloc_ty, count, align }, ty)
            }
            20 | 41 => {
                let (ptr, pty) = self.pair(ops, &mut i)?;
                let extra = if code == 41 { 2 } else { 0 };
                let ty = if i + 3 + extra == ops.len() {
                    let t = self.ty(ops[i])?;
                    i += 1;
                    t
                } else {
                    self.module.types.pointee(pty).ok_or_else(|| E::TypeMismatch("load from non-pointer"))?.0
                };
                let align = align_from(op(ops, i)?)?;
                let volatile = op(ops, i + 1)? != 0;
                if code == 41 {
                    return Err(E::Unsupported("atomic load".into()));
                }
                (InstKind::Load { ptr, align, volatile }, ty)
            }
            44 | 24 | 45 | 42 => {
                let (ptr, pty) = self.pair(ops, &mut i)?;
                let value = if code == 44 || code == 45 { self.pair(ops, &mut i)?.0 } else { self.value(ops, &mut i)? };
                let _ = pty;
                let align = align_from(op(ops, i)?)?;
                let volatile = op(ops, i + 1)? != 0;
                if code == 45 || code == 42 {
                    return Err(E::Unsupported("atomic store".into()));
                }
                (InstKind::Store { ptr, value, align, volatile }, void)
            }
            46 | 37 => {
                let (ptr, pty) = self.pair(ops, &mut i)?;
                let (cmp, cty) = if code == 46 {
                    self.pair(ops, &mut i)?
                } else {
                    let v = self.value(ops, &mut i)?;
                    (v, TypeId(u32::MAX))
                };
                let new = self.value(ops, &mut i)?;
                let volatile = op(ops, i)? != 0;
                let success = ordering(op(ops, i + 1)?)?;
                let single_thread = op(ops, i + 2)? == 0;
                let failure = match ops.get(i + 3) {
                    Some(&f) => ordering(f)?,
                    None => success,
                };
                let weak = ops.get(i + 4).copied().unwrap_or(0) != 0;
                let elem = if cty.0 == u32::MAX {
                    // The pointer's type as the record gives it (a forward reference's type is
                    // in the record; its value is not read yet).
                    self.module.types.pointee(pty).ok_or_else(|| E::TypeMismatch("cmpxchg on non-pointer"))?.0
                } else {
                    cty
                };
                let i1 = self.int_ty(1);
                let ty = self.module.types.intern(Type::Struct {
                    name: None,
                    packed: false,
                    opaque: false,
                    elems: vec![elem, i1],
                });
                (InstKind::CmpXchg { ptr, cmp, new, volatile, success, failure, single_thread, weak }, ty)
            }
            38 => {
                let (ptr, pty) = self.pair(ops, &mut i)?;
                let value = self.value(ops, &mut i)?;
                let rop = rmw_op(op(ops, i)?)?;
                let volatile = op(ops, i + 1)? != 0;
                let ord = ordering(op(ops, i + 2)?)?;
                let single_thread = op(ops, i + 3)? == 0;
                let ty = self.module.types.pointee(pty).ok_or_else(|| E::TypeMismatch("atomicrmw on non-pointer"))?.0;
                (InstKind::AtomicRmw { op: rop, ptr, value, volatile, ordering: ord, single_thread }, ty)
            }
            36 => {
                let ord = ordering(op(ops, 0)?)?;
                let single_thread = op(ops, 1)? == 0;
                (InstKind::Fence { ordering: ord, single_thread }, void)
            }
            34 => {
                let attrs = u32::try_from(op(ops, 0)?).map_err(|_| E::Malformed("attribute list id"))?;
                let cc = op(ops, 1)?;
                i = 2;
                let mut fty = None;
                if (cc >> 15) & 1 != 0 {
                    fty = Some(self.ty(op(ops, 2)?)?);
                    i = 3;
                }
                let (callee, cty) = self.pair(ops, &mut i)?;
                let fty = match fty {
                    Some(t) => t,
                    None => self.module.types.pointee(cty).ok_or_else(|| E::TypeMismatch("call of non-pointer"))?.0,
                };
                // Whether the call's arguments have the callee's parameter types
                // ([`FunctionFacts::untyped_calls`]): it calls a function of the type it names,
                // and each argument named before it has its parameter's type.
                let mut typed = match callee {
                    Value::Function(g) => self.module.functions.get(g.index()).is_some_and(|g| g.ty == fty),
                    _ => false,
                };
                let types = &self.module.types;
                let (ret, params) = match types.get(fty) {
                    Type::Function { vararg: true, .. } => return Err(E::Unsupported("variadic call".into())),
                    Type::Function { ret, params, .. } => {
                        for &p in params {
                            match types.get(p) {
                                Type::Label => return Err(E::Unsupported("label call argument".into())),
                                Type::Metadata => return Err(E::Unsupported("metadata call argument".into())),
                                _ => {}
                            }
                        }
                        (*ret, &params[..])
                    }
                    _ => return Err(E::TypeMismatch("call type is not a function type")),
                };
                let nparams = params.len();
                let start = b.func.value_pool.len();
                // Arguments named before the call, each compared with its parameter's type.
                let raw = ops.get(i..).unwrap_or_default();
                let n = nparams.min(raw.len());
                let (raw, params) = (&raw[..n], &params[..n]);
                let (k, args_typed) = known_args(&self.values, raw, params, self.relative_ids, &mut b.func.value_pool);
                typed &= args_typed;
                i += k;
                // From the first forward reference on (or past the record's end), one at a time.
                for _ in k..nparams {
                    let v = self.value(ops, &mut i)?;
                    b.func.value_pool.push(v);
                }
                if !typed {
                    self.facts_here.untyped_calls = true;
                }
                if i != ops.len() {
                    return Err(E::Malformed("call with extra operands"));
                }
                let l = Self::list(start, nparams)?;
                (InstKind::Call { callee, fn_ty: fty, args: l, attrs, tail: cc & 1 != 0 }, ret)
            }
            26 => {
                let (agg, aty) = self.pair(ops, &mut i)?;
                let (l, ty) = self.agg_indices(aty, &ops[i..], &mut b.func.index_pool)?;
                (InstKind::ExtractValue { agg, indices: l }, ty)
            }
            27 => {
                let (agg, aty) = self.pair(ops, &mut i)?;
                let (value, _) = self.pair(ops, &mut i)?;
                let (l, _) = self.agg_indices(aty, &ops[i..], &mut b.func.index_pool)?;
                (InstKind::InsertValue { agg, value, indices: l }, aty)
            }
            13 => return Err(E::Unsupported("invoke instruction".into())),
            31 => return Err(E::Unsupported("indirectbr instruction".into())),
            23 => return Err(E::Unsupported("va_arg instruction".into())),
            39 | 40 | 47 => return Err(E::Unsupported("exception handling instruction".into())),
            c => return Err(E::Unsupported(format!("instruction record code {c}"))),
        };
        let id = InstId(b.func.insts.len() as u32);
        b.func.insts.push(Inst { kind, ty, block: BlockId(b.cur_block as u32) });
        if ty != void {
            self.push_value(Value::Inst(id), ty)?;
        }
        if b.func.insts[id.index()].kind.is_terminator() {
            b.func.blocks[b.cur_block].end = b.func.insts.len() as u32;
            b.cur_block += 1;
            if let Some(next) = b.func.blocks.get_mut(b.cur_block) {
                next.first = b.func.insts.len() as u32;
                next.end = next.first;
            }
        }
        Ok(())
    }

    /// Appends the indices of an extractvalue/insertvalue to `pool`.
    fn agg_indices(&self, mut ty: TypeId, ops: &[u64], pool: &mut Vec<u32>) -> Result<(List, TypeId)> {
        if ops.is_empty() {
            return Err(E::Malformed("extractvalue/insertvalue without indices"));
        }
        let l = Self::list(pool.len(), ops.len())?;
        let v = pool;
        for &k in ops {
            let k32 = u32::try_from(k).map_err(|_| E::Malformed("aggregate index too large"))?;
            match self.module.types.get(ty) {
                Type::Array { len, .. } if k >= *len => return Err(E::Malformed("aggregate index out of range")),
                Type::Struct { .. } | Type::Array { .. } => {}
                _ => return Err(E::TypeMismatch("aggregate index into non-aggregate")),
            }
            ty = self.module.types.element(ty, k).ok_or_else(|| E::Malformed("aggregate index out of range"))?;
            v.push(k32);
        }
        Ok((l, ty))
    }

    /// Replaces forward-reference placeholders by the values they name.
    fn resolve_forward(&mut self, func: &mut Function) -> Result<()> {
        if self.fwd.is_empty() {
            return Ok(());
        }
        let fwd = std::mem::take(&mut self.fwd);
        let values = &self.values;
        let mut err = None;
        let mut fix = |v: &mut Value| {
            if let Value::Inst(InstId(k)) = *v {
                if k >= FWD_BASE {
                    let id = fwd[(k - FWD_BASE) as usize];
                    match values.get(id as usize) {
                        Some(&(nv, _)) => *v = nv,
                        None => err = Some(E::BadValue(u64::from(id))),
                    }
                }
            }
        };
        for inst in &mut func.insts {
            for_each_operand_mut(&mut inst.kind, &mut fix);
        }
        for v in &mut func.value_pool {
            fix(v);
        }
        for p in &mut func.phi_pool {
            fix(&mut p.0);
        }
        match err {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}

fn b_index(r: &Reader<'_>) -> usize {
    r.cur_function.map_or(0, |f| f.index())
}

/// Visits the operands stored inline in an instruction (pools excluded).
fn for_each_operand_mut(k: &mut InstKind, f: &mut impl FnMut(&mut Value)) {
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
        InstKind::CondBr { cond, .. } => f(cond),
        InstKind::Switch { cond, .. } => f(cond),
        InstKind::Ret { value: Some(v) } => f(v),
        InstKind::Fence { .. }
        | InstKind::Br { .. }
        | InstKind::Ret { value: None }
        | InstKind::Unreachable
        | InstKind::Phi { .. }
        | InstKind::DxOp { .. } => {}
    }
}

/// A call's leading arguments named before it (`raw`, value numbers as the record has them,
/// with `relative` ids against `values.len()`): each value, in order, onto `out` up to the
/// first that is not read yet. Returns how many, and whether each has its parameter's type
/// (`params`). `value_id` and the lookup of `value`, in a loop of its own so its state stays
/// in registers (inside `instruction` it did not).
#[inline(never)]
fn known_args(
    values: &[(Value, TypeId)],
    raw: &[u64],
    params: &[TypeId],
    relative: bool,
    out: &mut Vec<Value>,
) -> (usize, bool) {
    let next = values.len() as u32;
    let mut typed = true;
    out.reserve(raw.len());
    for (k, (&r, &p)) in raw.iter().zip(params).enumerate() {
        let id = if relative { next.wrapping_sub(r as u32) } else { r as u32 };
        let Some(&(v, t)) = values.get(id as usize) else { return (k, typed) };
        typed &= t == p;
        out.push(v);
    }
    (raw.len().min(params.len()), typed)
}
