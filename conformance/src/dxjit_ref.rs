//! Renders dxjit's own IR into the neutral [`crate::refmodel`] so the
//! differential test can compare it with LLVM 14's reading of the same
//! bitcode. Follows the normalisation rules in the `refmodel` module doc.

use crate::refmodel::*;
use dxjit::ir::{self, ConstExpr, ConstKind, InstKind, Metadata, Module, Type, TypeId, Value};

/// Renders a module read by dxjit's bitcode reader.
pub fn render(m: &Module) -> RModule {
    let r = Renderer { m };
    let mut out = RModule {
        globals: m
            .globals
            .iter()
            .map(|g| RGlobal {
                name: g.name.clone(),
                ty: r.ty(g.value_ty),
                addr_space: g.addr_space,
                is_const: g.is_const,
                init: g.init.map(|v| r.const_value(v, 0)),
            })
            .collect(),
        functions: m.functions.iter().map(|f| r.function(f)).collect(),
        named_metadata: m
            .named_mds()
            .map(|n| RNamedMd {
                name: n.name.to_string(),
                ops: n.ops.iter().map(|&id| r.md(id, &mut Vec::new())).collect(),
            })
            .collect(),
    };
    out.canonicalize();
    out
}

struct Renderer<'m> {
    m: &'m Module,
}

fn fmf(flags: u32, extra: &mut Vec<String>) {
    if flags & ir::flags::FAST != 0 {
        extra.push("fast".into());
        return;
    }
    for (bit, name) in
        [(ir::flags::NNAN, "nnan"), (ir::flags::NINF, "ninf"), (ir::flags::NSZ, "nsz"), (ir::flags::ARCP, "arcp")]
    {
        if flags & bit != 0 {
            extra.push(name.into());
        }
    }
}

fn bin_flags(op: ir::BinOp, flags: u32, extra: &mut Vec<String>) {
    use ir::BinOp::*;
    match op {
        Add | Sub | Mul | Shl => {
            if flags & ir::flags::NUW != 0 {
                extra.push("nuw".into());
            }
            if flags & ir::flags::NSW != 0 {
                extra.push("nsw".into());
            }
        }
        UDiv | SDiv | LShr | AShr if flags & ir::flags::EXACT != 0 => {
            extra.push("exact".into());
        }
        _ if op.is_float() => fmf(flags, extra),
        _ => {}
    }
}

fn md_class(code: u32) -> &'static str {
    match code {
        7 => "DILocation",
        12 => "GenericDINode",
        13 => "DISubrange",
        14 => "DIEnumerator",
        15 => "DIBasicType",
        16 => "DIFile",
        17 => "DIDerivedType",
        18 => "DICompositeType",
        19 => "DISubroutineType",
        20 => "DICompileUnit",
        21 => "DISubprogram",
        22 => "DILexicalBlock",
        23 => "DILexicalBlockFile",
        24 => "DINamespace",
        25 => "DITemplateTypeParameter",
        26 => "DITemplateValueParameter",
        27 => "DIGlobalVariable",
        28 => "DILocalVariable",
        29 => "DIExpression",
        30 => "DIObjCProperty",
        31 => "DIImportedEntity",
        32 => "DIModule",
        33 => "DIMacro",
        34 => "DIMacroFile",
        _ => "unknown",
    }
}

impl Renderer<'_> {
    fn ty(&self, t: TypeId) -> String {
        self.m.types.display(t)
    }

    fn is_zero(c: &RConst) -> bool {
        matches!(
            c,
            RConst::Int { value: 0, .. } | RConst::Float { bits: 0, .. } | RConst::Null(_) | RConst::AggregateZero(_)
        )
    }

    fn fold_aggregate(ty: String, elems: Vec<RConst>) -> RConst {
        if !elems.is_empty() && elems.iter().all(Self::is_zero) {
            RConst::AggregateZero(ty)
        } else if !elems.is_empty() && elems.iter().all(|e| matches!(e, RConst::Undef(_))) {
            RConst::Undef(ty)
        } else if elems.is_empty() {
            RConst::AggregateZero(ty)
        } else {
            RConst::Aggregate { ty, elems }
        }
    }

    fn scalar(&self, ty: TypeId, bits: u64) -> RConst {
        match self.m.types.get(ty) {
            Type::Int(w) => RConst::Int { bits: *w, value: ir::mask_bits(bits, *w) },
            _ => RConst::Float { ty: self.ty(ty), bits },
        }
    }

    fn const_value(&self, v: Value, depth: u32) -> RConst {
        match v {
            Value::Global(g) => RConst::Global(self.m.global(g).name.clone()),
            Value::Function(f) => RConst::Function(self.m.function(f).name.clone()),
            Value::Const(c) => self.konst(c, depth),
            other => RConst::Expr {
                opcode: format!("<non-constant {other:?}>"),
                ty: String::new(),
                operands: vec![],
                extra: vec![],
            },
        }
    }

    fn konst(&self, id: ir::ConstId, depth: u32) -> RConst {
        let c = self.m.konst(id);
        let ty = self.ty(c.ty);
        if depth > 64 {
            return RConst::Undef(ty);
        }
        match &c.kind {
            ConstKind::Int(v) => self.scalar(c.ty, *v),
            ConstKind::WideInt(w) => {
                RConst::Int { bits: self.m.types.get(c.ty).scalar_bits().unwrap_or(0), value: *w.first().unwrap_or(&0) }
            }
            ConstKind::Float(b) => RConst::Float { ty, bits: *b },
            ConstKind::Null => match self.m.types.get(c.ty) {
                Type::Int(w) => RConst::Int { bits: *w, value: 0 },
                Type::Half | Type::Float | Type::Double => RConst::Float { ty, bits: 0 },
                Type::Pointer { .. } => RConst::Null(ty),
                _ => RConst::AggregateZero(ty),
            },
            ConstKind::Undef => RConst::Undef(ty),
            ConstKind::Aggregate(vals) => {
                let elems = vals.iter().map(|v| self.const_value(*v, depth + 1)).collect();
                Self::fold_aggregate(ty, elems)
            }
            ConstKind::Data(d) => {
                let elem = self.m.types.element(c.ty, 0).unwrap_or(c.ty);
                let elems = d.iter().map(|&b| self.scalar(elem, b)).collect();
                Self::fold_aggregate(ty, elems)
            }
            ConstKind::Expr(e) => {
                let mut extra = Vec::new();
                let cv = |v: &Value| self.const_value(*v, depth + 1);
                let (opcode, operands): (String, Vec<RConst>) = match e {
                    ConstExpr::Binary { op, lhs, rhs, flags } => {
                        bin_flags(*op, *flags, &mut extra);
                        (op.name().into(), vec![cv(lhs), cv(rhs)])
                    }
                    ConstExpr::Cast { op, value } => (op.name().into(), vec![cv(value)]),
                    ConstExpr::Gep { inbounds, base, indices, .. } => {
                        if *inbounds {
                            extra.push("inbounds".into());
                        }
                        let mut ops = vec![cv(base)];
                        ops.extend(indices.iter().map(cv));
                        ("getelementptr".into(), ops)
                    }
                    ConstExpr::Select { cond, if_true, if_false } => {
                        ("select".into(), vec![cv(cond), cv(if_true), cv(if_false)])
                    }
                    ConstExpr::Cmp { pred, lhs, rhs } => {
                        extra.push(format!("pred={}", pred.name()));
                        ((if pred.is_float() { "fcmp" } else { "icmp" }).into(), vec![cv(lhs), cv(rhs)])
                    }
                    ConstExpr::ExtractElement { vector, index } => {
                        ("extractelement".into(), vec![cv(vector), cv(index)])
                    }
                    ConstExpr::InsertElement { vector, value, index } => {
                        ("insertelement".into(), vec![cv(vector), cv(value), cv(index)])
                    }
                    ConstExpr::ShuffleVector { a, b, mask } => ("shufflevector".into(), vec![cv(a), cv(b), cv(mask)]),
                };
                RConst::Expr { opcode, ty, operands, extra }
            }
        }
    }

    fn operand(&self, v: Value) -> ROperand {
        match v {
            Value::Global(g) => ROperand::Global(self.m.global(g).name.clone()),
            Value::Function(f) => ROperand::Function(self.m.function(f).name.clone()),
            Value::Const(_) => ROperand::Const(self.const_value(v, 0)),
            Value::Arg(i) => ROperand::Arg(i),
            Value::Inst(i) => ROperand::Inst(i.0),
            Value::Metadata(md) => {
                // A one-operand node holding a value renders as that value.
                if let Metadata::Node { ops, .. } = self.m.md(md) {
                    if let [Some(inner)] = self.m.md_ops(*ops) {
                        if let Metadata::Value { value, .. } = self.m.md(*inner) {
                            return ROperand::Metadata(RMd::Value(Box::new(self.operand(*value))));
                        }
                    }
                }
                ROperand::Metadata(self.md(md, &mut Vec::new()))
            }
        }
    }

    fn md(&self, id: ir::MdId, stack: &mut Vec<ir::MdId>) -> RMd {
        match self.m.md(id) {
            Metadata::String(s) => RMd::String(self.m.str(*s).to_string()),
            Metadata::Value { value, .. } => RMd::Value(Box::new(self.operand(*value))),
            Metadata::Other { code } => RMd::Other(md_class(*code).into()),
            Metadata::Node { ops, .. } => {
                let ops = self.m.md_ops(*ops);
                if stack.contains(&id) {
                    return RMd::Other("cycle".into());
                }
                if stack.len() >= MD_DEPTH_LIMIT {
                    return RMd::Other("depth".into());
                }
                if ops == [None] {
                    return RMd::Node(vec![]);
                }
                stack.push(id);
                let v = ops.iter().map(|o| o.map(|o| self.md(o, stack))).collect();
                stack.pop();
                RMd::Node(v)
            }
        }
    }

    fn function(&self, f: &ir::Function) -> RFunction {
        let blocks = f.blocks.iter().map(|b| RBlock { insts: b.insts().map(|i| self.inst(f, i)).collect() }).collect();
        RFunction { name: f.name.clone(), ty: self.ty(f.ty), is_declaration: f.is_declaration, blocks }
    }

    fn inst(&self, f: &ir::Function, id: ir::InstId) -> RInst {
        let inst = f.inst(id);
        let mut extra = Vec::new();
        let o = |v: Value| self.operand(v);
        let blk = |b: ir::BlockId| ROperand::Block(b.0);
        let operands = match &inst.kind {
            InstKind::Binary { op, lhs, rhs, flags } => {
                bin_flags(*op, *flags, &mut extra);
                vec![o(*lhs), o(*rhs)]
            }
            InstKind::Cast { value, .. } => vec![o(*value)],
            InstKind::Cmp { pred, lhs, rhs, flags } => {
                extra.push(format!("pred={}", pred.name()));
                if pred.is_float() {
                    fmf(*flags, &mut extra);
                }
                vec![o(*lhs), o(*rhs)]
            }
            InstKind::Select { cond, if_true, if_false } => vec![o(*cond), o(*if_true), o(*if_false)],
            InstKind::Phi { incoming } => f.phis(*incoming).iter().flat_map(|(v, b)| [o(*v), blk(*b)]).collect(),
            InstKind::Call { callee, args, .. } => {
                std::iter::once(o(*callee)).chain(f.values(*args).iter().map(|v| o(*v))).collect()
            }
            InstKind::DxOp { op, callee, args, .. } => [
                ROperand::Function(self.m.function(*callee).name.clone()),
                ROperand::Const(RConst::Int { bits: 32, value: *op as u64 }),
            ]
            .into_iter()
            .chain(f.values(*args).iter().map(|v| o(*v)))
            .collect(),
            InstKind::Alloca { count, align, alloc_ty } => {
                extra.push(format!("align={}", self.align_or_abi(*align, *alloc_ty)));
                vec![o(*count)]
            }
            InstKind::Load { ptr, align, volatile } => {
                extra.push(format!("align={}", self.align_or_abi(*align, inst.ty)));
                if *volatile {
                    extra.push("volatile".into());
                }
                vec![o(*ptr)]
            }
            InstKind::Store { ptr, value, align, volatile } => {
                extra.push(format!("align={}", self.align_or_abi(*align, self.m.value_type(f, *value))));
                if *volatile {
                    extra.push("volatile".into());
                }
                vec![o(*value), o(*ptr)]
            }
            InstKind::Gep { inbounds, base, indices, .. } => {
                if *inbounds {
                    extra.push("inbounds".into());
                }
                std::iter::once(o(*base)).chain(f.values(*indices).iter().map(|v| o(*v))).collect()
            }
            InstKind::ExtractValue { agg, indices } => {
                extra.push(idx_list(f.indices(*indices)));
                vec![o(*agg)]
            }
            InstKind::InsertValue { agg, value, indices } => {
                extra.push(idx_list(f.indices(*indices)));
                vec![o(*agg), o(*value)]
            }
            InstKind::ExtractElement { vector, index } => vec![o(*vector), o(*index)],
            InstKind::InsertElement { vector, value, index } => vec![o(*vector), o(*value), o(*index)],
            InstKind::ShuffleVector { a, b, mask } => {
                extra.push(format!("mask={}", self.shuffle_mask(*mask)));
                vec![o(*a), o(*b)]
            }
            InstKind::AtomicRmw { op, ptr, value, volatile, ordering, single_thread } => {
                extra.push(format!("rmw={}", op.name()));
                extra.push(format!("ordering={}", ordering.name()));
                if *volatile {
                    extra.push("volatile".into());
                }
                if *single_thread {
                    extra.push("syncscope=singlethread".into());
                }
                vec![o(*ptr), o(*value)]
            }
            InstKind::CmpXchg { ptr, cmp, new, volatile, success, failure, single_thread, weak } => {
                extra.push(format!("success={}", success.name()));
                extra.push(format!("failure={}", failure.name()));
                if *volatile {
                    extra.push("volatile".into());
                }
                if *weak {
                    extra.push("weak".into());
                }
                if *single_thread {
                    extra.push("syncscope=singlethread".into());
                }
                vec![o(*ptr), o(*cmp), o(*new)]
            }
            InstKind::Fence { ordering, single_thread } => {
                extra.push(format!("ordering={}", ordering.name()));
                if *single_thread {
                    extra.push("syncscope=singlethread".into());
                }
                vec![]
            }
            InstKind::Br { target } => vec![blk(*target)],
            InstKind::CondBr { cond, if_true, if_false } => vec![o(*cond), blk(*if_true), blk(*if_false)],
            InstKind::Switch { cond, default, cases } => {
                let mut v = vec![o(*cond), blk(*default)];
                for (c, b) in f.cases(*cases) {
                    v.push(o(Value::Const(*c)));
                    v.push(blk(*b));
                }
                v
            }
            InstKind::Ret { value } => value.iter().map(|v| o(*v)).collect(),
            InstKind::Unreachable => vec![],
        };
        let md = f
            .attachments
            .iter()
            .filter(|a| a.inst == id)
            .map(|a| (self.m.md_kind_name(a.kind).unwrap_or("?").to_string(), self.md(a.md, &mut Vec::new())))
            .filter(|(k, _)| k != "dbg")
            .collect();
        RInst { opcode: inst.kind.opcode_name().into(), ty: self.ty(inst.ty), operands, extra, md }
    }

    /// LLVM 14 replaces an alignment of 0 by the type's ABI alignment.
    fn align_or_abi(&self, align: u32, ty: TypeId) -> u32 {
        if align != 0 {
            return align;
        }
        abi_align(self.m, ty, 0)
    }

    fn shuffle_mask(&self, mask: Value) -> String {
        let Value::Const(c) = mask else { return "?".into() };
        let k = self.m.konst(c);
        let lane = |v: &Value| match v {
            Value::Const(e) => match self.m.konst(*e).kind {
                ConstKind::Int(x) => (x as u32 as i32).to_string(),
                ConstKind::Null => "0".into(),
                _ => "-1".into(),
            },
            _ => "?".into(),
        };
        let len = match self.m.types.get(k.ty) {
            Type::Vector { len, .. } => *len as usize,
            _ => 0,
        };
        match &k.kind {
            ConstKind::Aggregate(v) => v.iter().map(lane).collect::<Vec<_>>().join(","),
            ConstKind::Data(d) => d.iter().map(|x| (*x as u32 as i32).to_string()).collect::<Vec<_>>().join(","),
            ConstKind::Null => vec!["0"; len].join(","),
            ConstKind::Undef => vec!["-1"; len].join(","),
            _ => "?".into(),
        }
    }
}

fn idx_list(idx: &[u32]) -> String {
    format!("idx={}", idx.iter().map(|i| i.to_string()).collect::<Vec<_>>().join(","))
}

/// ABI alignment in bytes of a type under the module's data layout
/// (`iN:abi`, `fN:abi`, `p:size:abi` entries; LLVM's defaults otherwise).
fn abi_align(m: &Module, ty: TypeId, depth: u32) -> u32 {
    let spec = |prefix: char, bits: u32| -> Option<u32> {
        m.datalayout().split('-').find_map(|e| {
            let mut parts = e.strip_prefix(prefix)?.split(':');
            let size: u32 = parts.next()?.parse().ok()?;
            let abi: u32 = parts.next()?.parse().ok()?;
            (size == bits).then_some(abi / 8)
        })
    };
    if depth > 32 {
        return 1;
    }
    match m.types.get(ty) {
        Type::Int(w) => spec('i', *w).unwrap_or(match *w {
            0..=8 => 1,
            9..=16 => 2,
            17..=32 => 4,
            _ => 4,
        }),
        Type::Half => spec('f', 16).unwrap_or(2),
        Type::Float => spec('f', 32).unwrap_or(4),
        Type::Double => spec('f', 64).unwrap_or(8),
        Type::Pointer { .. } => m
            .datalayout()
            .split('-')
            .find_map(|e| e.strip_prefix("p:")?.split(':').nth(1)?.parse::<u32>().ok())
            .map_or(8, |b| b / 8),
        Type::Array { elem, .. } => abi_align(m, *elem, depth + 1),
        Type::Vector { len, elem } => {
            let bytes = (m.types.get(*elem).scalar_bits().unwrap_or(8) * len).div_ceil(8);
            bytes.next_power_of_two()
        }
        Type::Struct { packed: true, .. } => 1,
        Type::Struct { elems, .. } => elems.iter().map(|e| abi_align(m, *e, depth + 1)).max().unwrap_or(1),
        _ => 1,
    }
}
