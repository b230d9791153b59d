//! `ir::Module` → LLVM 3.7 bitcode, laid out as DXC writes it: a module
//! block (version 1: relative value ids) holding the attribute groups and
//! lists, the type table, triple and data layout, global variable and
//! function records, the module constants, the metadata (strings, values,
//! nodes, named nodes), the metadata kinds, the module value symbol table,
//! then one block per function body (constants, instructions, symbol table,
//! attachments). Records are unabbreviated; DXC's LLVM 3.7 writes no
//! identification block and neither does this.
//!
//! Reading the result with [`super::read_module`] gives back a module equal
//! to the one written (`ir::diff`); `conformance/tests/asm_roundtrip.rs`
//! checks that over the corpus, and that LLVM 14 reads it.

use super::bitwriter::BitWriter;
use crate::ir::*;
use std::collections::HashMap;

/// Why a module cannot be written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WriteError {
    /// Something the IR can hold but LLVM 3.7 bitcode for DXIL cannot (or
    /// this writer does not) express, named.
    #[error("cannot write {0}")]
    Unsupported(String),
    /// An inconsistent module: a dangling id, a bad alignment, named.
    #[error("invalid module: {0}")]
    Invalid(String),
}

type Result<T> = std::result::Result<T, WriteError>;

mod block {
    pub const MODULE: u32 = 8;
    pub const PARAMATTR: u32 = 9;
    pub const PARAMATTR_GROUP: u32 = 10;
    pub const CONSTANTS: u32 = 11;
    pub const FUNCTION: u32 = 12;
    pub const VALUE_SYMTAB: u32 = 14;
    pub const METADATA: u32 = 15;
    pub const METADATA_ATTACHMENT: u32 = 16;
    pub const TYPE: u32 = 17;
}

fn chars(s: &str) -> Vec<u64> {
    s.bytes().map(u64::from).collect()
}

fn signed(v: i64) -> u64 {
    if v >= 0 {
        (v as u64) << 1
    } else if v == i64::MIN {
        1
    } else {
        ((v.unsigned_abs()) << 1) | 1
    }
}

fn align_code(a: u32, what: &str) -> Result<u64> {
    if a == 0 {
        return Ok(0);
    }
    if !a.is_power_of_two() {
        return Err(WriteError::Invalid(format!("{what}: alignment {a} is not a power of two")));
    }
    Ok(u64::from(a.trailing_zeros()) + 1)
}

fn bin_code(op: BinOp) -> u64 {
    use BinOp::*;
    match op {
        Add | FAdd => 0,
        Sub | FSub => 1,
        Mul | FMul => 2,
        UDiv => 3,
        SDiv | FDiv => 4,
        URem => 5,
        SRem | FRem => 6,
        Shl => 7,
        LShr => 8,
        AShr => 9,
        And => 10,
        Or => 11,
        Xor => 12,
    }
}

fn cast_code(op: CastOp) -> u64 {
    op as u64
}

fn pred_code(p: CmpPred) -> u64 {
    (0..=41u64).find(|&c| CmpPred::from_u64(c) == Some(p)).unwrap_or(0)
}

fn ordering_code(o: Ordering) -> u64 {
    o as u64
}

fn rmw_code(o: RmwOp) -> u64 {
    o as u64
}

/// Writes `m` as LLVM 3.7 bitcode (the bytes start with `BC C0 DE`).
pub fn write_module(m: &Module) -> Result<Vec<u8>> {
    let mut w =
        Writer { m, out: BitWriter::new(), type_ids: Vec::new(), module_consts: HashMap::new(), n_module_values: 0 };
    w.module()?;
    Ok(w.out.finish())
}

struct Writer<'m> {
    m: &'m Module,
    out: BitWriter,
    /// Type ids in the bitcode's type table, by module type id.
    type_ids: Vec<u64>,
    /// Module-level constants → absolute value id.
    module_consts: HashMap<ConstId, u64>,
    n_module_values: u64,
}

/// Absolute value ids of one function's locals.
struct FnIds {
    consts: HashMap<ConstId, u64>,
    args: u64,
    insts: Vec<Option<u64>>,
}

impl<'m> Writer<'m> {
    fn ty_id(&self, t: TypeId) -> Result<u64> {
        self.type_ids
            .get(t.0 as usize)
            .copied()
            .ok_or_else(|| WriteError::Invalid(format!("type id {} outside the type table", t.0)))
    }

    fn konst(&self, c: ConstId) -> Result<&'m Const> {
        self.m.consts.get(c.index()).ok_or_else(|| WriteError::Invalid(format!("constant id {}", c.0)))
    }

    /// The constants a value needs, operands first, into `out` (once each).
    fn collect_const(&self, v: Value, seen: &mut [bool], out: &mut Vec<ConstId>) -> Result<()> {
        let Value::Const(c) = v else { return Ok(()) };
        let mut stack = vec![c];
        while let Some(c) = stack.pop() {
            let Some(slot) = seen.get_mut(c.index()) else {
                return Err(WriteError::Invalid(format!("constant id {}", c.0)));
            };
            if *slot {
                continue;
            }
            *slot = true;
            out.push(c);
            let mut push = |v: &Value| {
                if let Value::Const(x) = v {
                    stack.push(*x);
                }
            };
            match &self.konst(c)?.kind {
                ConstKind::Aggregate(vals) => vals.iter().for_each(&mut push),
                ConstKind::Expr(e) => match e {
                    ConstExpr::Binary { lhs, rhs, .. } | ConstExpr::Cmp { lhs, rhs, .. } => {
                        push(lhs);
                        push(rhs)
                    }
                    ConstExpr::Cast { value, .. } => push(value),
                    ConstExpr::Gep { base, indices, .. } => {
                        push(base);
                        indices.iter().for_each(&mut push)
                    }
                    ConstExpr::Select { cond, if_true, if_false } => {
                        push(cond);
                        push(if_true);
                        push(if_false)
                    }
                    ConstExpr::ExtractElement { vector, index } => {
                        push(vector);
                        push(index)
                    }
                    ConstExpr::InsertElement { vector, value, index } => {
                        push(vector);
                        push(value);
                        push(index)
                    }
                    ConstExpr::ShuffleVector { a, b, mask } => {
                        push(a);
                        push(b);
                        push(mask)
                    }
                },
                _ => {}
            }
        }
        Ok(())
    }

    fn module(&mut self) -> Result<()> {
        let m = self.m;
        self.out.magic(*b"BC\xC0\xDE");
        self.out.enter_block(block::MODULE);
        self.out.record(1, &[1]);
        self.attributes()?;
        self.types()?;
        if !m.triple().is_empty() {
            self.out.record(2, &chars(m.triple()));
        }
        if !m.datalayout().is_empty() {
            self.out.record(3, &chars(m.datalayout()));
        }
        // Module-level constants: those of global initialisers and metadata.
        let mut seen = vec![false; m.consts.len()];
        let mut module_consts = Vec::new();
        for g in &m.globals {
            if let Some(v) = g.init {
                self.collect_const(v, &mut seen, &mut module_consts)?;
            }
        }
        for md in &m.metadata {
            if let Metadata::Value { value, .. } = md {
                match value {
                    Value::Arg(_) | Value::Inst(_) => {
                        return Err(WriteError::Unsupported("function-local metadata".into()))
                    }
                    Value::Metadata(_) => return Err(WriteError::Unsupported("metadata as a metadata value".into())),
                    v => self.collect_const(*v, &mut seen, &mut module_consts)?,
                }
            }
        }
        module_consts.sort();
        let base = (m.globals.len() + m.functions.len()) as u64;
        for (k, c) in module_consts.iter().enumerate() {
            self.module_consts.insert(*c, base + k as u64);
        }
        self.n_module_values = base + module_consts.len() as u64;
        for (i, g) in m.globals.iter().enumerate() {
            let init = match g.init {
                Some(v) => self.abs_module(v)? + 1,
                None => 0,
            };
            let flags = (u64::from(g.addr_space) << 2) | 2 | u64::from(g.is_const);
            let mut ops = vec![
                self.ty_id(g.value_ty)?,
                flags,
                init,
                u64::from(g.linkage),
                align_code(g.align, &format!("global #{i}"))?,
                0,
            ];
            if g.thread_local != 0 || g.unnamed_addr {
                ops.extend_from_slice(&[0, u64::from(g.thread_local), u64::from(g.unnamed_addr), 0, 0, 0]);
            }
            self.out.record(7, &ops);
        }
        for f in &m.functions {
            let ops = [
                self.ty_id(f.ty)?,
                u64::from(f.callconv),
                u64::from(f.is_declaration),
                u64::from(f.linkage),
                u64::from(f.attrs),
                0,
                0,
                0,
                0,
                0,
                0,
                0,
                0,
                0,
                0,
            ];
            self.out.record(8, &ops);
        }
        if !module_consts.is_empty() {
            let ids = self.module_consts.clone();
            self.constants(&module_consts, &|v| Self::abs_in(&ids, m, v))?;
        }
        self.metadata()?;
        self.kinds();
        self.module_symtab();
        for f in &m.functions {
            if !f.is_declaration {
                self.function(f)?;
            }
        }
        self.out.end_block();
        Ok(())
    }

    /// Absolute id of a module-level value (globals, functions, module constants).
    fn abs_in(consts: &HashMap<ConstId, u64>, m: &Module, v: Value) -> Result<u64> {
        match v {
            Value::Global(g) if g.index() < m.globals.len() => Ok(u64::from(g.0)),
            Value::Function(f) if f.index() < m.functions.len() => Ok((m.globals.len() + f.index()) as u64),
            Value::Const(c) => consts
                .get(&c)
                .copied()
                .ok_or_else(|| WriteError::Invalid(format!("constant {} is not a module-level constant", c.0))),
            other => Err(WriteError::Invalid(format!("{other:?} at module level"))),
        }
    }

    fn abs_module(&self, v: Value) -> Result<u64> {
        Self::abs_in(&self.module_consts, self.m, v)
    }

    fn attributes(&mut self) -> Result<()> {
        let m = self.m;
        if !m.attr_groups.is_empty() {
            self.out.enter_block(block::PARAMATTR_GROUP);
            for g in &m.attr_groups {
                let mut ops = vec![u64::from(g.id), u64::from(g.index)];
                for a in m.group_attrs(g) {
                    match *a {
                        Attribute::Enum(k) => ops.extend_from_slice(&[0, u64::from(k)]),
                        Attribute::Int(k, v) => ops.extend_from_slice(&[1, u64::from(k), v]),
                        Attribute::Str(k, v) => {
                            let (k, v) = (m.str(k), m.str(v));
                            ops.push(if v.is_empty() { 3 } else { 4 });
                            ops.extend(chars(k));
                            ops.push(0);
                            if !v.is_empty() {
                                ops.extend(chars(v));
                                ops.push(0);
                            }
                        }
                    }
                }
                self.out.record(3, &ops);
            }
            self.out.end_block();
        }
        if !m.attr_lists.is_empty() {
            self.out.enter_block(block::PARAMATTR);
            for (i, _) in m.attr_lists.iter().enumerate() {
                let groups: Vec<u64> = m.attr_list(i as u32 + 1).iter().map(|&g| u64::from(g)).collect();
                self.out.record(2, &groups);
            }
            self.out.end_block();
        }
        Ok(())
    }

    /// The order the type table is written in: the module's, except that a
    /// type only refers to earlier ones or to named structs (the one forward
    /// reference bitcode allows), so each type's parts go first. A module the
    /// reader made is already in such an order and keeps it.
    fn type_order(&mut self) -> Result<Vec<TypeId>> {
        let m = self.m;
        let n = m.types.len();
        let named = |t: TypeId| matches!(m.types.list.get(t.0 as usize), Some(Type::Struct { name: Some(_), .. }));
        let children = |t: &Type| -> Vec<TypeId> {
            match t {
                Type::Pointer { pointee, .. } => vec![*pointee],
                Type::Array { elem, .. } | Type::Vector { elem, .. } => vec![*elem],
                Type::Function { ret, params, .. } => std::iter::once(*ret).chain(params.iter().copied()).collect(),
                Type::Struct { elems, .. } => elems.clone(),
                _ => Vec::new(),
            }
        };
        let mut done = vec![false; n];
        let mut order = Vec::with_capacity(n);
        for root in 0..n {
            // Iterative post-order: (type, children pushed?).
            let mut stack = vec![(TypeId(root as u32), false)];
            while let Some((t, expanded)) = stack.pop() {
                let i = t.0 as usize;
                if i >= n {
                    return Err(WriteError::Invalid(format!("type id {i} outside the type table")));
                }
                if done[i] {
                    continue;
                }
                if expanded {
                    done[i] = true;
                    order.push(t);
                    continue;
                }
                if stack.len() > n + 1 {
                    return Err(WriteError::Invalid(
                        "a type that contains itself other than through a named struct".into(),
                    ));
                }
                stack.push((t, true));
                for c in children(m.types.get(t)).into_iter().rev() {
                    if !named(c) && !done.get(c.0 as usize).copied().unwrap_or(true) {
                        stack.push((c, false));
                    }
                }
            }
        }
        self.type_ids = vec![0; n];
        for (k, t) in order.iter().enumerate() {
            self.type_ids[t.0 as usize] = k as u64;
        }
        Ok(order)
    }

    fn types(&mut self) -> Result<()> {
        let m = self.m;
        let order = self.type_order()?;
        self.out.enter_block(block::TYPE);
        self.out.record(1, &[m.types.len() as u64]);
        for id in order {
            let t = m.types.get(id);
            let ids = &self.type_ids;
            let ty = |x: &TypeId| {
                ids.get(x.0 as usize)
                    .copied()
                    .ok_or_else(|| WriteError::Invalid(format!("type id {} outside the type table", x.0)))
            };
            let mut name_record = None;
            let (code, ops): (u32, Vec<u64>) = match t {
                Type::Void => (2, vec![]),
                Type::Float => (3, vec![]),
                Type::Double => (4, vec![]),
                Type::Label => (5, vec![]),
                Type::Half => (10, vec![]),
                Type::Metadata => (16, vec![]),
                Type::Int(w) => (7, vec![u64::from(*w)]),
                Type::Pointer { pointee, addr_space } => (8, vec![ty(pointee)?, u64::from(*addr_space)]),
                Type::Array { len, elem } => (11, vec![*len, ty(elem)?]),
                Type::Vector { len, elem } => (12, vec![u64::from(*len), ty(elem)?]),
                Type::Function { ret, params, vararg } => {
                    let mut ops = vec![u64::from(*vararg), ty(ret)?];
                    for p in params {
                        ops.push(ty(p)?);
                    }
                    (21, ops)
                }
                Type::Struct { name, packed, opaque, elems } => {
                    name_record = name.as_ref().map(|n| chars(n));
                    if *opaque {
                        if name.is_none() {
                            return Err(WriteError::Invalid("an opaque struct without a name".into()));
                        }
                        (6, vec![0])
                    } else {
                        let mut ops = vec![u64::from(*packed)];
                        for e in elems {
                            ops.push(ty(e)?);
                        }
                        (if name.is_some() { 20 } else { 18 }, ops)
                    }
                }
            };
            if let Some(n) = name_record {
                self.out.record(19, &n);
            }
            self.out.record(code, &ops);
        }
        self.out.end_block();
        Ok(())
    }

    /// A constants block for `consts` (in this order), ids by `abs`.
    fn constants(&mut self, consts: &[ConstId], abs: &dyn Fn(Value) -> Result<u64>) -> Result<()> {
        let m = self.m;
        self.out.enter_block(block::CONSTANTS);
        let mut cur_ty = None;
        for &c in consts {
            let k = self.konst(c)?;
            if cur_ty != Some(k.ty) {
                self.out.record(1, &[self.ty_id(k.ty)?]);
                cur_ty = Some(k.ty);
            }
            let ty = m.types.get(k.ty);
            let typed =
                |v: Value| -> Result<[u64; 2]> { Ok([self.ty_id(m.value_type(&Function::default(), v))?, abs(v)?]) };
            match &k.kind {
                ConstKind::Null => self.out.record(2, &[]),
                ConstKind::Undef => self.out.record(3, &[]),
                ConstKind::Int(v) => {
                    let bits = ty.scalar_bits().unwrap_or(64);
                    self.out.record(4, &[signed(sign_extend(*v, bits))])
                }
                ConstKind::WideInt(words) => {
                    let ops: Vec<u64> = words.iter().map(|&w| signed(w as i64)).collect();
                    self.out.record(5, &ops)
                }
                ConstKind::Float(b) => self.out.record(6, &[*b]),
                ConstKind::Aggregate(vals) => {
                    let ops = vals.iter().map(|v| abs(*v)).collect::<Result<Vec<_>>>()?;
                    self.out.record(7, &ops)
                }
                ConstKind::Data(d) => {
                    let i8_array = matches!(ty, Type::Array { elem, .. } if *m.types.get(*elem) == Type::Int(8));
                    if i8_array {
                        let cstring = d.last() == Some(&0) && d.iter().filter(|&&b| b == 0).count() == 1;
                        if cstring {
                            self.out.record(9, &d[..d.len() - 1])
                        } else {
                            self.out.record(8, d)
                        }
                    } else {
                        self.out.record(22, d)
                    }
                }
                ConstKind::Expr(e) => match e {
                    ConstExpr::Binary { op, lhs, rhs, flags } => {
                        let mut ops = vec![bin_code(*op), abs(*lhs)?, abs(*rhs)?];
                        if *flags != 0 {
                            ops.push(u64::from(*flags));
                        }
                        self.out.record(10, &ops)
                    }
                    ConstExpr::Cast { op, value } => {
                        let [t, v] = typed(*value)?;
                        self.out.record(11, &[cast_code(*op), t, v])
                    }
                    ConstExpr::Gep { inbounds, source_ty, base, indices } => {
                        let mut ops = vec![self.ty_id(*source_ty)?];
                        ops.extend(typed(*base)?);
                        for i in indices {
                            ops.extend(typed(*i)?);
                        }
                        self.out.record(if *inbounds { 20 } else { 12 }, &ops)
                    }
                    ConstExpr::Select { cond, if_true, if_false } => {
                        self.out.record(13, &[abs(*cond)?, abs(*if_true)?, abs(*if_false)?])
                    }
                    ConstExpr::ExtractElement { vector, index } => {
                        let mut ops = typed(*vector)?.to_vec();
                        ops.extend(typed(*index)?);
                        self.out.record(14, &ops)
                    }
                    ConstExpr::InsertElement { vector, value, index } => {
                        let mut ops = vec![abs(*vector)?, abs(*value)?];
                        ops.extend(typed(*index)?);
                        self.out.record(15, &ops)
                    }
                    ConstExpr::ShuffleVector { a, b, mask } => {
                        let at = m.value_type(&Function::default(), *a);
                        let same = match (m.types.get(at), ty) {
                            (Type::Vector { len: l1, .. }, Type::Vector { len: l2, .. }) => l1 == l2,
                            _ => false,
                        };
                        if same {
                            self.out.record(16, &[abs(*a)?, abs(*b)?, abs(*mask)?])
                        } else {
                            self.out.record(19, &[self.ty_id(at)?, abs(*a)?, abs(*b)?, abs(*mask)?])
                        }
                    }
                    ConstExpr::Cmp { pred, lhs, rhs } => {
                        let [t, l] = typed(*lhs)?;
                        self.out.record(17, &[t, l, abs(*rhs)?, pred_code(*pred)])
                    }
                },
            }
        }
        self.out.end_block();
        Ok(())
    }

    fn md_id(&self, id: MdId) -> Result<u64> {
        if id.index() < self.m.metadata.len() {
            Ok(u64::from(id.0))
        } else {
            Err(WriteError::Invalid(format!("metadata id !{}", id.0)))
        }
    }

    fn metadata(&mut self) -> Result<()> {
        let m = self.m;
        if m.metadata.is_empty() && m.named_metadata.is_empty() {
            return Ok(());
        }
        self.out.enter_block(block::METADATA);
        for (i, md) in m.metadata.iter().enumerate() {
            match md {
                Metadata::String(s) => self.out.record(1, &chars(m.str(*s))),
                Metadata::Value { ty, value } => {
                    let v = self.abs_module(*value)?;
                    self.out.record(2, &[self.ty_id(*ty)?, v])
                }
                Metadata::Node { distinct, ops } => {
                    let ops = m
                        .md_ops(*ops)
                        .iter()
                        .map(|o| match o {
                            None => Ok(0),
                            Some(id) => Ok(self.md_id(*id)? + 1),
                        })
                        .collect::<Result<Vec<u64>>>()?;
                    self.out.record(if *distinct { 5 } else { 3 }, &ops)
                }
                Metadata::Other { code } => {
                    return Err(WriteError::Unsupported(format!(
                        "metadata !{i}: a specialised node (record {code}) whose operands the reader does not keep"
                    )))
                }
            }
        }
        for n in m.named_mds() {
            self.out.record(4, &chars(n.name));
            let ops = n.ops.iter().map(|id| self.md_id(*id)).collect::<Result<Vec<u64>>>()?;
            self.out.record(10, &ops);
        }
        self.out.end_block();
        Ok(())
    }

    fn kinds(&mut self) {
        let m = self.m;
        if m.md_kinds.is_empty() {
            return;
        }
        self.out.enter_block(block::METADATA);
        for (k, name) in &m.md_kinds {
            let mut ops = vec![u64::from(*k)];
            ops.extend(chars(m.str(*name)));
            self.out.record(6, &ops);
        }
        self.out.end_block();
    }

    fn module_symtab(&mut self) {
        let m = self.m;
        let names: Vec<(u64, &str)> = m
            .globals
            .iter()
            .map(|g| g.name.as_str())
            .chain(m.functions.iter().map(|f| f.name.as_str()))
            .enumerate()
            .filter(|(_, n)| !n.is_empty())
            .map(|(i, n)| (i as u64, n))
            .collect();
        if names.is_empty() {
            return;
        }
        self.out.enter_block(block::VALUE_SYMTAB);
        for (id, n) in names {
            let mut ops = vec![id];
            ops.extend(chars(n));
            self.out.record(1, &ops);
        }
        self.out.end_block();
    }

    // ------------------------------------------------------------ functions

    fn function(&mut self, f: &'m Function) -> Result<()> {
        let m = self.m;
        let at = |what: String| WriteError::Invalid(format!("@{}: {what}", f.name));
        if f.blocks.is_empty() {
            return Err(at("a defined function without blocks".into()));
        }
        // The constants this body uses that are not module-level.
        let mut seen = vec![false; m.consts.len()];
        for c in self.module_consts.keys() {
            if let Some(s) = seen.get_mut(c.index()) {
                *s = true;
            }
        }
        let mut local = Vec::new();
        for i in 0..f.insts.len() {
            let id = InstId(i as u32);
            let mut vals = f.operands(id);
            match &f.inst(id).kind {
                InstKind::Switch { cases, .. } => vals.extend(f.cases(*cases).iter().map(|c| Value::Const(c.0))),
                InstKind::DxOp { args, .. } => vals.push(self.dx_opcode(f, *args)?),
                _ => {}
            }
            for v in vals {
                self.collect_const(v, &mut seen, &mut local)?;
            }
        }
        local.sort();
        let n_args = f.param_tys.len() as u64;
        let mut ids = FnIds { consts: HashMap::new(), args: self.n_module_values, insts: vec![None; f.insts.len()] };
        let first_const = self.n_module_values + n_args;
        for (k, c) in local.iter().enumerate() {
            ids.consts.insert(*c, first_const + k as u64);
        }
        let mut next = first_const + local.len() as u64;
        let void = |t: TypeId| matches!(m.types.list.get(t.0 as usize), Some(Type::Void));
        for (i, inst) in f.insts.iter().enumerate() {
            if !void(inst.ty) {
                ids.insts[i] = Some(next);
                next += 1;
            }
        }
        self.out.enter_block(block::FUNCTION);
        self.out.record(1, &[f.blocks.len() as u64]);
        if !local.is_empty() {
            // Constant operands are absolute ids: this body's constants, then
            // module-level ones and globals.
            let lookup = ids.consts.clone();
            let mc = self.module_consts.clone();
            let (nglob, nfun) = (m.globals.len() as u64, m.functions.len() as u64);
            self.constants(&local, &move |v| match v {
                Value::Const(c) => lookup
                    .get(&c)
                    .or_else(|| mc.get(&c))
                    .copied()
                    .ok_or_else(|| WriteError::Invalid(format!("constant {}", c.0))),
                Value::Global(g) if u64::from(g.0) < nglob => Ok(u64::from(g.0)),
                Value::Function(x) if u64::from(x.0) < nfun => Ok(nglob + u64::from(x.0)),
                other => Err(WriteError::Invalid(format!("{other:?} in a constant"))),
            })?;
        }
        let mut cur = first_const + local.len() as u64;
        for i in 0..f.insts.len() {
            let id = InstId(i as u32);
            let (code, ops) = self.instruction(f, &ids, id, cur)?;
            self.out.record(code, &ops);
            if ids.insts[i].is_some() {
                cur += 1;
            }
        }
        // Names.
        if !f.names.is_empty() {
            self.out.enter_block(block::VALUE_SYMTAB);
            for (what, name) in &f.names {
                let (code, id) = match *what {
                    LocalName::Arg(a) => (1, ids.args + u64::from(a)),
                    LocalName::Inst(x) => match ids.insts.get(x.index()).copied().flatten() {
                        Some(v) => (1, v),
                        None => return Err(at(format!("a name for instruction {} that has no value", x.0))),
                    },
                    LocalName::Block(b) => (2, u64::from(b.0)),
                };
                let mut ops = vec![id];
                ops.extend(chars(name));
                self.out.record(code, &ops);
            }
            self.out.end_block();
        }
        // Attachments.
        if !f.attachments.is_empty() || !f.fn_attachments.is_empty() {
            self.out.enter_block(block::METADATA_ATTACHMENT);
            if !f.fn_attachments.is_empty() {
                let mut ops = Vec::new();
                for (k, md) in &f.fn_attachments {
                    ops.extend_from_slice(&[u64::from(*k), self.md_id(*md)?]);
                }
                self.out.record(11, &ops);
            }
            let mut k = 0;
            while k < f.attachments.len() {
                let inst = f.attachments[k].inst;
                let mut ops = vec![u64::from(inst.0)];
                while k < f.attachments.len() && f.attachments[k].inst == inst {
                    ops.extend_from_slice(&[u64::from(f.attachments[k].kind), self.md_id(f.attachments[k].md)?]);
                    k += 1;
                }
                self.out.record(11, &ops);
            }
            self.out.end_block();
        }
        self.out.end_block();
        Ok(())
    }

    /// The opcode constant of a decoded `dx.op` call (the argument before `args`).
    fn dx_opcode(&self, f: &Function, args: List) -> Result<Value> {
        let at = args.start.checked_sub(1).and_then(|i| f.value_pool.get(i as usize)).copied();
        match at {
            Some(v @ Value::Const(_)) => Ok(v),
            _ => Err(WriteError::Invalid(format!("@{}: a dx.op call without its opcode constant", f.name))),
        }
    }

    fn abs_fn(&self, ids: &FnIds, f: &Function, v: Value) -> Result<u64> {
        match v {
            Value::Const(c) => ids
                .consts
                .get(&c)
                .or_else(|| self.module_consts.get(&c))
                .copied()
                .ok_or_else(|| WriteError::Invalid(format!("@{}: constant {}", f.name, c.0))),
            Value::Arg(a) if (a as usize) < f.param_tys.len() => Ok(ids.args + u64::from(a)),
            Value::Inst(i) => ids.insts.get(i.index()).copied().flatten().ok_or_else(|| {
                WriteError::Invalid(format!("@{}: operand %{} is not an instruction with a value", f.name, i.0))
            }),
            Value::Metadata(_) => Err(WriteError::Unsupported(format!("@{}: metadata operands", f.name))),
            other => self.abs_module(other),
        }
    }

    fn instruction(&self, f: &Function, ids: &FnIds, id: InstId, cur: u64) -> Result<(u32, Vec<u64>)> {
        let m = self.m;
        let inst = f.inst(id);
        let mut ops: Vec<u64> = Vec::new();
        // LLVM's pushValue / pushValueAndType: relative ids (32-bit), the
        // type after a forward reference.
        let rel = |abs: u64| u64::from((cur as u32).wrapping_sub(abs as u32));
        let val = |ops: &mut Vec<u64>, v: Value| -> Result<()> {
            ops.push(rel(self.abs_fn(ids, f, v)?));
            Ok(())
        };
        let pair = |ops: &mut Vec<u64>, v: Value| -> Result<()> {
            let a = self.abs_fn(ids, f, v)?;
            ops.push(rel(a));
            if a >= cur {
                ops.push(self.ty_id(m.value_type(f, v))?);
            }
            Ok(())
        };
        let bb = |b: BlockId| -> Result<u64> {
            if b.index() < f.blocks.len() {
                Ok(u64::from(b.0))
            } else {
                Err(WriteError::Invalid(format!("@{}: block {}", f.name, b.0)))
            }
        };
        let what = || format!("@{} instruction {}", f.name, id.0);
        let code = match &inst.kind {
            InstKind::Binary { op, lhs, rhs, flags } => {
                pair(&mut ops, *lhs)?;
                val(&mut ops, *rhs)?;
                ops.push(bin_code(*op));
                if *flags != 0 {
                    ops.push(u64::from(*flags));
                }
                2
            }
            InstKind::Cast { op, value } => {
                pair(&mut ops, *value)?;
                ops.push(self.ty_id(inst.ty)?);
                ops.push(cast_code(*op));
                3
            }
            InstKind::Gep { inbounds, source_ty, base, indices } => {
                ops.push(u64::from(*inbounds));
                ops.push(self.ty_id(*source_ty)?);
                pair(&mut ops, *base)?;
                for i in f.values(*indices) {
                    pair(&mut ops, *i)?;
                }
                43
            }
            InstKind::Select { cond, if_true, if_false } => {
                pair(&mut ops, *if_true)?;
                val(&mut ops, *if_false)?;
                pair(&mut ops, *cond)?;
                29
            }
            InstKind::ExtractElement { vector, index } => {
                pair(&mut ops, *vector)?;
                pair(&mut ops, *index)?;
                6
            }
            InstKind::InsertElement { vector, value, index } => {
                pair(&mut ops, *vector)?;
                val(&mut ops, *value)?;
                pair(&mut ops, *index)?;
                7
            }
            InstKind::ShuffleVector { a, b, mask } => {
                pair(&mut ops, *a)?;
                val(&mut ops, *b)?;
                pair(&mut ops, *mask)?;
                8
            }
            InstKind::Cmp { pred, lhs, rhs, flags } => {
                pair(&mut ops, *lhs)?;
                val(&mut ops, *rhs)?;
                ops.push(pred_code(*pred));
                if *flags != 0 {
                    ops.push(u64::from(*flags));
                }
                28
            }
            InstKind::Ret { value } => {
                if let Some(v) = value {
                    pair(&mut ops, *v)?;
                }
                10
            }
            InstKind::Br { target } => {
                ops.push(bb(*target)?);
                11
            }
            InstKind::CondBr { cond, if_true, if_false } => {
                ops.push(bb(*if_true)?);
                ops.push(bb(*if_false)?);
                val(&mut ops, *cond)?;
                11
            }
            InstKind::Switch { cond, default, cases } => {
                ops.push(self.ty_id(m.value_type(f, *cond))?);
                val(&mut ops, *cond)?;
                ops.push(bb(*default)?);
                for (c, b) in f.cases(*cases) {
                    ops.push(self.abs_fn(ids, f, Value::Const(*c))?);
                    ops.push(bb(*b)?);
                }
                12
            }
            InstKind::Unreachable => 15,
            InstKind::Phi { incoming } => {
                ops.push(self.ty_id(inst.ty)?);
                for (v, b) in f.phis(*incoming) {
                    let a = self.abs_fn(ids, f, *v)?;
                    ops.push(signed(cur as i64 - a as i64));
                    ops.push(bb(*b)?);
                }
                16
            }
            InstKind::Alloca { alloc_ty, count, align } => {
                ops.push(self.ty_id(*alloc_ty)?);
                ops.push(self.ty_id(m.value_type(f, *count))?);
                ops.push(self.abs_fn(ids, f, *count)?);
                ops.push(align_code(*align, &what())? | (1 << 6));
                19
            }
            InstKind::Load { ptr, align, volatile } => {
                pair(&mut ops, *ptr)?;
                ops.push(self.ty_id(inst.ty)?);
                ops.push(align_code(*align, &what())?);
                ops.push(u64::from(*volatile));
                20
            }
            InstKind::Store { ptr, value, align, volatile } => {
                pair(&mut ops, *ptr)?;
                pair(&mut ops, *value)?;
                ops.push(align_code(*align, &what())?);
                ops.push(u64::from(*volatile));
                44
            }
            InstKind::CmpXchg { ptr, cmp, new, volatile, success, failure, single_thread, weak } => {
                pair(&mut ops, *ptr)?;
                pair(&mut ops, *cmp)?;
                val(&mut ops, *new)?;
                ops.push(u64::from(*volatile));
                ops.push(ordering_code(*success));
                ops.push(u64::from(!*single_thread));
                ops.push(ordering_code(*failure));
                ops.push(u64::from(*weak));
                46
            }
            InstKind::AtomicRmw { op, ptr, value, volatile, ordering, single_thread } => {
                pair(&mut ops, *ptr)?;
                val(&mut ops, *value)?;
                ops.push(rmw_code(*op));
                ops.push(u64::from(*volatile));
                ops.push(ordering_code(*ordering));
                ops.push(u64::from(!*single_thread));
                38
            }
            InstKind::Fence { ordering, single_thread } => {
                ops.push(ordering_code(*ordering));
                ops.push(u64::from(!*single_thread));
                36
            }
            InstKind::Call { callee, fn_ty, args, attrs, tail } => {
                ops.push(u64::from(*attrs));
                ops.push(u64::from(*tail) | (1 << 15));
                ops.push(self.ty_id(*fn_ty)?);
                pair(&mut ops, *callee)?;
                for a in f.values(*args) {
                    val(&mut ops, *a)?;
                }
                34
            }
            InstKind::DxOp { callee, args, .. } => {
                let callee_f = m
                    .functions
                    .get(callee.index())
                    .ok_or_else(|| WriteError::Invalid(format!("{}: callee {}", what(), callee.0)))?;
                ops.push(0);
                ops.push(1 << 15);
                ops.push(self.ty_id(callee_f.ty)?);
                pair(&mut ops, Value::Function(*callee))?;
                val(&mut ops, self.dx_opcode(f, *args)?)?;
                for a in f.values(*args) {
                    val(&mut ops, *a)?;
                }
                34
            }
            InstKind::ExtractValue { agg, indices } => {
                pair(&mut ops, *agg)?;
                ops.extend(f.indices(*indices).iter().map(|&i| u64::from(i)));
                26
            }
            InstKind::InsertValue { agg, value, indices } => {
                pair(&mut ops, *agg)?;
                pair(&mut ops, *value)?;
                ops.extend(f.indices(*indices).iter().map(|&i| u64::from(i)));
                27
            }
        };
        Ok((code, ops))
    }
}
