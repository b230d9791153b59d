//! Values and constants: literals, aggregates, constant expressions, and
//! references to globals, functions and (inside a body) local values.
//!
//! Constants are built as LLVM would build them, so that a printed module
//! reads back equal: integer and float zeros and all-zero aggregates are
//! `Null`, all-undef aggregates `Undef`, arrays and vectors of plain
//! numbers `Data` (LLVM's `ConstantDataSequential`), everything else
//! `Aggregate`.

use super::error::Result;
use super::lexer::Tok;
use super::state::Parser;
use crate::ir::*;

pub(super) fn bin_op(w: &str) -> Option<BinOp> {
    use BinOp::*;
    Some(match w {
        "add" => Add,
        "fadd" => FAdd,
        "sub" => Sub,
        "fsub" => FSub,
        "mul" => Mul,
        "fmul" => FMul,
        "udiv" => UDiv,
        "sdiv" => SDiv,
        "fdiv" => FDiv,
        "urem" => URem,
        "srem" => SRem,
        "frem" => FRem,
        "shl" => Shl,
        "lshr" => LShr,
        "ashr" => AShr,
        "and" => And,
        "or" => Or,
        "xor" => Xor,
        _ => return None,
    })
}

pub(super) fn cast_op(w: &str) -> Option<CastOp> {
    use CastOp::*;
    Some(match w {
        "trunc" => Trunc,
        "zext" => ZExt,
        "sext" => SExt,
        "fptoui" => FPToUI,
        "fptosi" => FPToSI,
        "uitofp" => UIToFP,
        "sitofp" => SIToFP,
        "fptrunc" => FPTrunc,
        "fpext" => FPExt,
        "ptrtoint" => PtrToInt,
        "inttoptr" => IntToPtr,
        "bitcast" => BitCast,
        "addrspacecast" => AddrSpaceCast,
        _ => return None,
    })
}

/// A comparison predicate of `icmp` (`float` false) or `fcmp`.
pub(super) fn cmp_pred(w: &str, float: bool) -> Option<CmpPred> {
    (0..=41u64).filter_map(CmpPred::from_u64).find(|p| p.is_float() == float && p.name() == w)
}

/// The half bits of `v` when it is exactly a half.
fn half_bits(v: f64) -> Option<u64> {
    let bits = v.to_bits();
    let sign = (bits >> 63) << 15;
    if v == 0.0 {
        return Some(sign);
    }
    let frac = bits & ((1u64 << 52) - 1);
    if v.is_nan() || v.is_infinite() {
        return (frac & ((1u64 << 42) - 1) == 0).then_some(sign | (0x1F << 10) | (frac >> 42));
    }
    let e = ((bits >> 52) & 0x7FF) as i64 - 1023;
    if (-14..=15).contains(&e) {
        return (frac & ((1u64 << 42) - 1) == 0).then_some(sign | (((e + 15) as u64) << 10) | (frac >> 42));
    }
    let m = v.abs() * 16_777_216.0; // 2^24: subnormal halves are m × 2^-24
    (m.fract() == 0.0 && m < 1024.0).then_some(sign | m as u64)
}

/// The float bits of `v` when it is exactly a float (NaN payloads kept).
fn float_bits(v: f64) -> Option<u64> {
    let bits = v.to_bits();
    if v.is_nan() || v.is_infinite() {
        let frac = bits & ((1u64 << 52) - 1);
        let sign = (bits >> 63) << 31;
        return (frac & ((1u64 << 29) - 1) == 0).then_some(sign | (0xFF << 23) | (frac >> 29));
    }
    let f = v as f32;
    (f64::from(f) == v).then_some(u64::from(f.to_bits()))
}

impl Parser {
    /// The type of a value.
    pub fn value_ty(&self, v: Value) -> TypeId {
        match v {
            Value::Global(g) => self.m.globals[g.index()].ptr_ty,
            Value::Function(f) => self.m.functions[f.index()].ptr_ty,
            Value::Const(c) => self.m.consts[c.index()].ty,
            Value::Arg(_) | Value::Inst(_) => match &self.fs {
                Some(fs) => fs.local_ty(v),
                None => TypeId(0),
            },
            Value::Metadata(_) => self.intern_metadata_ty(),
        }
    }

    fn intern_metadata_ty(&self) -> TypeId {
        self.type_ids.get(&Type::Metadata).copied().unwrap_or(TypeId(0))
    }

    pub fn konst(&mut self, ty: TypeId, kind: ConstKind) -> ConstId {
        let c = Const { ty, kind };
        if let Some(&id) = self.const_ids.get(&c) {
            return id;
        }
        let id = ConstId(self.m.consts.len() as u32);
        self.m.consts.push(c.clone());
        self.const_ids.insert(c, id);
        id
    }

    /// `TYPE VALUE`.
    pub fn typed_value(&mut self) -> Result<(Value, TypeId)> {
        let ty = self.parse_type()?;
        Ok((self.value(ty)?, ty))
    }

    /// A value of type `ty`.
    pub fn value(&mut self, ty: TypeId) -> Result<Value> {
        let at = self.pos;
        match self.tok().clone() {
            Tok::Local(name, quoted) => {
                if self.fs.is_none() {
                    return Err(self.err(format!("local value %{name} outside a function body")));
                }
                self.bump();
                self.local_value(&name, quoted, ty, at)
            }
            Tok::Global(name) => {
                self.bump();
                let v = if let Some(&g) = self.global_ids.get(&name) {
                    Value::Global(g)
                } else if let Some(&f) = self.func_ids.get(&name) {
                    Value::Function(f)
                } else {
                    return Err(self.err_at(at, format!("@{name} is not defined")));
                };
                self.check_ty(v, ty, at)?;
                Ok(v)
            }
            Tok::MdId(_) | Tok::MdString(_) | Tok::MdOpen => {
                Err(self.err("metadata operands of instructions are not supported (the bitcode reader rejects them)"))
            }
            _ => Ok(Value::Const(self.constant(ty)?)),
        }
    }

    /// Checks that `v` has type `ty`.
    pub fn check_ty(&self, v: Value, ty: TypeId, at: usize) -> Result<()> {
        let vt = self.value_ty(v);
        if vt != ty {
            return Err(self.err_at(at, format!("value has type {}, not {}", self.show(vt), self.show(ty))));
        }
        Ok(())
    }

    fn is_int_like(&self, ty: TypeId) -> bool {
        match self.ty(ty) {
            Type::Int(_) => true,
            Type::Vector { elem, .. } => self.ty(*elem).is_int(),
            _ => false,
        }
    }

    fn is_float_like(&self, ty: TypeId) -> bool {
        match self.ty(ty) {
            t if t.is_float() => true,
            Type::Vector { elem, .. } => self.ty(*elem).is_float(),
            _ => false,
        }
    }

    /// Checks that a binary operator applies to operands of type `ty`.
    pub fn check_binop(&self, op: BinOp, ty: TypeId, at: usize) -> Result<()> {
        let ok = if op.is_float() { self.is_float_like(ty) } else { self.is_int_like(ty) };
        if !ok {
            return Err(self.err_at(at, format!("{} of {}", op.name(), self.show(ty))));
        }
        Ok(())
    }

    /// `i1`, or `<n x i1>` for a vector comparison.
    pub fn cmp_result(&mut self, lhs_ty: TypeId, pred: CmpPred, at: usize) -> Result<TypeId> {
        let ok = if pred.is_float() { self.is_float_like(lhs_ty) } else { self.is_int_like(lhs_ty) };
        let ptr = matches!(self.ty(lhs_ty), Type::Pointer { .. });
        if !ok && (!ptr || pred.is_float()) {
            return Err(self.err_at(at, format!("{} comparison of {}", pred.name(), self.show(lhs_ty))));
        }
        let i1 = self.intern(Type::Int(1));
        Ok(match self.ty(lhs_ty).clone() {
            Type::Vector { len, .. } => self.intern(Type::Vector { len, elem: i1 }),
            _ => i1,
        })
    }

    /// The result type of `getelementptr source_ty, base_ty base, indices…`.
    pub fn gep_result(&mut self, source_ty: TypeId, base_ty: TypeId, indices: &[Value], at: usize) -> Result<TypeId> {
        let Some((pointee, addr_space)) = self.m.types.pointee(base_ty) else {
            return Err(self.err_at(at, format!("getelementptr base of type {} is not a pointer", self.show(base_ty))));
        };
        if pointee != source_ty {
            return Err(self.err_at(
                at,
                format!("getelementptr of {} through a pointer to {}", self.show(source_ty), self.show(pointee)),
            ));
        }
        if indices.is_empty() {
            return Err(self.err_at(at, "getelementptr without indices"));
        }
        let mut cur = source_ty;
        for v in indices.iter().skip(1) {
            let k = match self.ty(cur) {
                Type::Struct { .. } => self
                    .m
                    .const_uint(*v)
                    .ok_or_else(|| self.err_at(at, "a struct index of getelementptr must be a constant"))?,
                _ => 0,
            };
            cur = self
                .m
                .types
                .element(cur, k)
                .ok_or_else(|| self.err_at(at, format!("getelementptr index {k} into {}", self.show(cur))))?;
        }
        Ok(self.ptr_to(cur, addr_space))
    }

    /// An integer literal of integer type `ty`, masked to its width.
    fn int_literal(&mut self, text: &str, bits: u32, at: usize) -> Result<u64> {
        let v: i128 = text.parse().map_err(|_| self.err_at(at, format!("integer {text} is too large")))?;
        let lo = -(1i128 << (bits - 1));
        let hi = 1i128 << bits;
        if v < lo || v >= hi {
            return Err(self.err_at(at, format!("{text} does not fit in i{bits}")));
        }
        Ok(mask_bits(v as u64, bits))
    }

    /// The bits of a float literal of float type `ty`.
    fn float_literal(&mut self, tok: &Tok, ty: TypeId, at: usize) -> Result<u64> {
        let t = self.ty(ty).clone();
        let name = self.show(ty);
        let v: f64 = match tok {
            Tok::Int(s) | Tok::Float(s) => s.parse().map_err(|_| self.err_at(at, format!("bad number {s}")))?,
            Tok::Hex(h) if h.starts_with('H') => {
                if t != Type::Half {
                    return Err(self.err_at(at, format!("0x{h} is a half, not a {name}")));
                }
                let b = u16::from_str_radix(&h[1..], 16).map_err(|_| self.err_at(at, format!("bad half 0x{h}")))?;
                return Ok(u64::from(b));
            }
            Tok::Hex(h) => {
                let b = u64::from_str_radix(h, 16).map_err(|_| self.err_at(at, format!("bad hex constant 0x{h}")))?;
                if t == Type::Double {
                    return Ok(b);
                }
                f64::from_bits(b)
            }
            _ => return Err(self.err_at(at, format!("expected a {name} constant"))),
        };
        let bits = match t {
            Type::Double => Some(v.to_bits()),
            Type::Float => float_bits(v),
            _ => half_bits(v),
        };
        bits.ok_or_else(|| self.err_at(at, format!("{} is not exactly a {name}", tok.describe())))
    }

    /// A constant of type `ty`.
    pub fn constant(&mut self, ty: TypeId) -> Result<ConstId> {
        let saved = self.rule;
        if self.fs.is_none() {
            self.rule = "constant";
        }
        let r = self.constant_inner(ty);
        self.rule = saved;
        r
    }

    fn constant_inner(&mut self, ty: TypeId) -> Result<ConstId> {
        let at = self.pos;
        let t = self.ty(ty).clone();
        if matches!(t, Type::Void | Type::Label | Type::Metadata | Type::Function { .. }) {
            return Err(self.err(format!("no constants of type {}", self.show(ty))));
        }
        let tok = self.tok().clone();
        let kind = match &tok {
            Tok::Word(w) if w == "undef" => {
                self.bump();
                ConstKind::Undef
            }
            Tok::Word(w) if w == "zeroinitializer" => {
                self.bump();
                ConstKind::Null
            }
            Tok::Word(w) if w == "null" => {
                if !matches!(t, Type::Pointer { .. }) {
                    return Err(self.err(format!("`null` of non-pointer type {}", self.show(ty))));
                }
                self.bump();
                ConstKind::Null
            }
            Tok::Word(w) if w == "true" || w == "false" => {
                if t != Type::Int(1) {
                    return Err(self.err(format!("`{w}` of type {}, not i1", self.show(ty))));
                }
                self.bump();
                if w == "true" {
                    ConstKind::Int(1)
                } else {
                    ConstKind::Null
                }
            }
            Tok::Int(s) if t.is_int() => {
                let bits = t.scalar_bits().unwrap_or(64);
                let s = s.clone();
                self.bump();
                match self.int_literal(&s, bits, at)? {
                    0 => ConstKind::Null,
                    v => ConstKind::Int(v),
                }
            }
            Tok::Int(_) | Tok::Float(_) | Tok::Hex(_) if t.is_float() => {
                self.bump();
                match self.float_literal(&tok, ty, at)? {
                    0 => ConstKind::Null,
                    b => ConstKind::Float(b),
                }
            }
            Tok::Int(_) | Tok::Float(_) | Tok::Hex(_) => {
                return Err(self.err(format!("a number is not a constant of type {}", self.show(ty))))
            }
            Tok::CStr(bytes) => {
                let Type::Array { len, elem } = t else {
                    return Err(self.err(format!("c\"…\" of type {}, not an i8 array", self.show(ty))));
                };
                if *self.ty(elem) != Type::Int(8) || len != bytes.len() as u64 {
                    return Err(self.err(format!("c\"…\" of {} bytes is not a {}", bytes.len(), self.show(ty))));
                }
                self.bump();
                let data: Vec<u64> = bytes.iter().map(|&b| u64::from(b)).collect();
                if data.iter().all(|&b| b == 0) {
                    ConstKind::Null
                } else {
                    ConstKind::Data(data)
                }
            }
            Tok::Punct('[') => {
                let Type::Array { len, elem } = t else {
                    return Err(self.err(format!("an array constant of type {}", self.show(ty))));
                };
                self.bump();
                let elems = self.elements(']', |_| Some(elem), at)?;
                if elems.len() as u64 != len {
                    return Err(self.err_at(at, format!("{} elements for {}", elems.len(), self.show(ty))));
                }
                self.aggregate(ty, elems)
            }
            Tok::Punct('<') if self.tok_at(1) == &Tok::Punct('{') => {
                let Type::Struct { packed: true, elems: tys, .. } = t else {
                    return Err(self.err(format!("a packed struct constant of type {}", self.show(ty))));
                };
                self.bump();
                self.bump();
                let elems = self.elements('}', |i| tys.get(i).copied(), at)?;
                self.expect_punct('>')?;
                if elems.len() != tys.len() {
                    return Err(self.err_at(at, format!("{} elements for {}", elems.len(), self.show(ty))));
                }
                self.aggregate(ty, elems)
            }
            Tok::Punct('<') => {
                let Type::Vector { len, elem } = t else {
                    return Err(self.err(format!("a vector constant of type {}", self.show(ty))));
                };
                self.bump();
                let elems = self.elements('>', |_| Some(elem), at)?;
                if elems.len() as u64 != u64::from(len) {
                    return Err(self.err_at(at, format!("{} elements for {}", elems.len(), self.show(ty))));
                }
                self.aggregate(ty, elems)
            }
            Tok::Punct('{') => {
                let Type::Struct { packed: false, elems: tys, opaque: false, .. } = t else {
                    return Err(self.err(format!("a struct constant of type {}", self.show(ty))));
                };
                self.bump();
                let elems = self.elements('}', |i| tys.get(i).copied(), at)?;
                if elems.len() != tys.len() {
                    return Err(self.err_at(at, format!("{} elements for {}", elems.len(), self.show(ty))));
                }
                self.aggregate(ty, elems)
            }
            Tok::Word(w) => {
                let w = w.clone();
                self.bump();
                let (kind, rty) = self.const_expr(&w, ty, at)?;
                if rty != ty {
                    return Err(self.err_at(at, format!("{w} gives {}, not {}", self.show(rty), self.show(ty))));
                }
                ConstKind::Expr(kind)
            }
            _ => return Err(self.expected(&format!("a constant of type {}", self.show(ty)))),
        };
        Ok(self.konst(ty, kind))
    }

    /// Typed elements up to `close` (the opening bracket already read); each
    /// element's type must be `expect(i)`.
    fn elements(&mut self, close: char, expect: impl Fn(usize) -> Option<TypeId>, at: usize) -> Result<Vec<Value>> {
        let mut v = Vec::new();
        if self.eat_punct(close) {
            return Ok(v);
        }
        loop {
            let Some(want) = expect(v.len()) else { return Err(self.err_at(at, "too many elements")) };
            let t_at = self.pos;
            let t = self.parse_type()?;
            if t != want {
                return Err(
                    self.err_at(t_at, format!("element of type {}, expected {}", self.show(t), self.show(want)))
                );
            }
            let e = self.value(t)?;
            if !matches!(e, Value::Const(_) | Value::Global(_) | Value::Function(_)) {
                return Err(self.err_at(t_at, "elements of a constant must be constants"));
            }
            v.push(e);
            if self.eat_punct(close) {
                return Ok(v);
            }
            self.expect_punct(',')?;
        }
    }

    /// An aggregate as LLVM builds it (see the module comment).
    fn aggregate(&mut self, ty: TypeId, elems: Vec<Value>) -> ConstKind {
        let kind_of = |p: &Parser, v: &Value| match v {
            Value::Const(c) => Some(p.m.consts[c.index()].kind.clone()),
            _ => None,
        };
        if elems.iter().all(|e| kind_of(self, e) == Some(ConstKind::Null)) {
            return ConstKind::Null;
        }
        if elems.iter().all(|e| kind_of(self, e) == Some(ConstKind::Undef)) {
            return ConstKind::Undef;
        }
        let elem_ty = match self.ty(ty) {
            Type::Array { elem, .. } | Type::Vector { elem, .. } => Some(*elem),
            _ => None,
        };
        let sequential = elem_ty.is_some_and(|e| {
            matches!(self.ty(e), Type::Int(8 | 16 | 32 | 64) | Type::Half | Type::Float | Type::Double)
        });
        if sequential {
            let data: Option<Vec<u64>> = elems
                .iter()
                .map(|e| match kind_of(self, e)? {
                    ConstKind::Int(v) | ConstKind::Float(v) => Some(v),
                    ConstKind::Null => Some(0),
                    _ => None,
                })
                .collect();
            if let Some(d) = data {
                return ConstKind::Data(d);
            }
        }
        ConstKind::Aggregate(elems)
    }

    /// `( T v, … )` operands of a constant expression, each typed.
    fn const_operands(&mut self, n: usize) -> Result<Vec<(Value, TypeId)>> {
        self.expect_punct('(')?;
        let mut v = Vec::new();
        for i in 0..n {
            if i > 0 {
                self.expect_punct(',')?;
            }
            let (x, t) = self.typed_value()?;
            if !matches!(x, Value::Const(_) | Value::Global(_) | Value::Function(_)) {
                return Err(self.err("operands of a constant expression must be constants"));
            }
            v.push((x, t));
        }
        self.expect_punct(')')?;
        Ok(v)
    }

    /// Integer or fast-math flags of a binary operator.
    pub fn bin_flags(&mut self, op: BinOp) -> Result<u32> {
        let mut f = 0;
        loop {
            let bit = match self.tok() {
                Tok::Word(w) => match w.as_str() {
                    "nuw" if matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Shl) => flags::NUW,
                    "nsw" if matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Shl) => flags::NSW,
                    "exact" if matches!(op, BinOp::UDiv | BinOp::SDiv | BinOp::LShr | BinOp::AShr) => flags::EXACT,
                    w if op.is_float() => match fmf_bit(w) {
                        Some(b) => b,
                        None => return Ok(f),
                    },
                    _ => return Ok(f),
                },
                _ => return Ok(f),
            };
            self.bump();
            f |= bit;
        }
    }

    /// Fast-math flags (of `fcmp`).
    pub fn fmf(&mut self) -> u32 {
        let mut f = 0;
        while let Tok::Word(w) = self.tok() {
            let Some(b) = fmf_bit(w) else { break };
            self.bump();
            f |= b;
        }
        f
    }

    /// A constant expression after its keyword `w`: the expression and its type.
    fn const_expr(&mut self, w: &str, ty: TypeId, at: usize) -> Result<(ConstExpr, TypeId)> {
        if let Some(op) = bin_op(w) {
            let flags = self.bin_flags(op)?;
            let ops = self.const_operands(2)?;
            if ops[0].1 != ops[1].1 {
                return Err(self.err_at(at, format!("{w} of {} and {}", self.show(ops[0].1), self.show(ops[1].1))));
            }
            self.check_binop(op, ops[0].1, at)?;
            return Ok((ConstExpr::Binary { op, lhs: ops[0].0, rhs: ops[1].0, flags }, ops[0].1));
        }
        if let Some(op) = cast_op(w) {
            self.expect_punct('(')?;
            let (value, _) = self.typed_value()?;
            self.expect_word("to")?;
            let to = self.parse_type()?;
            self.expect_punct(')')?;
            return Ok((ConstExpr::Cast { op, value }, to));
        }
        match w {
            "getelementptr" => {
                let inbounds = self.eat_word("inbounds");
                self.expect_punct('(')?;
                let source_ty = self.parse_type()?;
                let mut vals = Vec::new();
                let mut base_ty = None;
                while self.eat_punct(',') {
                    let (v, t) = self.typed_value()?;
                    base_ty.get_or_insert(t);
                    vals.push(v);
                }
                self.expect_punct(')')?;
                let Some(base_ty) = base_ty else { return Err(self.err_at(at, "getelementptr without a base")) };
                let base = vals.remove(0);
                let rty = self.gep_result(source_ty, base_ty, &vals, at)?;
                Ok((ConstExpr::Gep { inbounds, source_ty, base, indices: vals }, rty))
            }
            "select" => {
                let ops = self.const_operands(3)?;
                Ok((ConstExpr::Select { cond: ops[0].0, if_true: ops[1].0, if_false: ops[2].0 }, ops[1].1))
            }
            "icmp" | "fcmp" => {
                let p_at = self.pos;
                let pred = match self.bump() {
                    Tok::Word(p) => cmp_pred(&p, w == "fcmp"),
                    _ => None,
                }
                .ok_or_else(|| self.err_at(p_at, format!("expected a predicate of {w}")))?;
                let ops = self.const_operands(2)?;
                let rty = self.cmp_result(ops[0].1, pred, at)?;
                Ok((ConstExpr::Cmp { pred, lhs: ops[0].0, rhs: ops[1].0 }, rty))
            }
            "extractelement" => {
                let ops = self.const_operands(2)?;
                let e = self.m.types.element(ops[0].1, 0).filter(|_| matches!(self.ty(ops[0].1), Type::Vector { .. }));
                let e = e.ok_or_else(|| self.err_at(at, "extractelement of a non-vector"))?;
                Ok((ConstExpr::ExtractElement { vector: ops[0].0, index: ops[1].0 }, e))
            }
            "insertelement" => {
                let ops = self.const_operands(3)?;
                Ok((ConstExpr::InsertElement { vector: ops[0].0, value: ops[1].0, index: ops[2].0 }, ops[0].1))
            }
            "shufflevector" => {
                let ops = self.const_operands(3)?;
                let rty = self.shuffle_result(ops[0].1, ops[2].1, at)?;
                Ok((ConstExpr::ShuffleVector { a: ops[0].0, b: ops[1].0, mask: ops[2].0 }, rty))
            }
            _ => Err(self.err_at(at, format!("expected a constant of type {}, found `{w}`", self.show(ty)))),
        }
    }

    /// `<mask length x element of a>`.
    pub fn shuffle_result(&mut self, a_ty: TypeId, mask_ty: TypeId, at: usize) -> Result<TypeId> {
        match (self.ty(a_ty).clone(), self.ty(mask_ty).clone()) {
            (Type::Vector { elem, .. }, Type::Vector { len, .. }) => Ok(self.intern(Type::Vector { len, elem })),
            _ => Err(self.err_at(at, "shufflevector of non-vectors")),
        }
    }
}

fn fmf_bit(w: &str) -> Option<u32> {
    Some(match w {
        "fast" => flags::FAST | flags::NNAN | flags::NINF | flags::NSZ | flags::ARCP,
        "unsafe_algebra" => flags::FAST,
        "nnan" => flags::NNAN,
        "ninf" => flags::NINF,
        "nsz" => flags::NSZ,
        "arcp" => flags::ARCP,
        _ => return None,
    })
}
