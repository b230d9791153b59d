//! LLVM-like text rendering of the IR (used by `dxjit dis`).
//!
//! Values print as `%N` (instruction id), `%argN`, `@name`; blocks as their
//! bitcode name or `bbN`. The syntax follows LLVM 3.7's assembly closely
//! enough to be read by anyone who knows it; it is not meant to be parsed.

use super::*;
use std::fmt::Write;

/// Renders the whole module as text.
pub fn print_module(m: &Module) -> String {
    let mut s = String::new();
    if !m.triple().is_empty() {
        let _ = writeln!(s, "target triple = \"{}\"", m.triple());
    }
    if !m.datalayout().is_empty() {
        let _ = writeln!(s, "target datalayout = \"{}\"", m.datalayout());
    }
    s.push('\n');
    for (_, t) in m.types.iter() {
        if let Type::Struct { name: Some(n), packed, opaque, elems } = t {
            if *opaque {
                let _ = writeln!(s, "%{n} = type opaque");
            } else {
                let body: Vec<String> = elems.iter().map(|e| m.types.display(*e)).collect();
                let (l, r) = if *packed { ("<{ ", " }>") } else { ("{ ", " }") };
                let _ = writeln!(s, "%{n} = type {l}{}{r}", body.join(", "));
            }
        }
    }
    s.push('\n');
    for g in &m.globals {
        let _ = write!(s, "@{} = ", g.name);
        if g.addr_space != 0 {
            let _ = write!(s, "addrspace({}) ", g.addr_space);
        }
        let _ = write!(s, "{} {}", if g.is_const { "constant" } else { "global" }, m.types.display(g.value_ty));
        if let Some(init) = g.init {
            s.push(' ');
            write_value(m, None, init, false, &mut s);
        }
        if g.align != 0 {
            let _ = write!(s, ", align {}", g.align);
        }
        s.push('\n');
    }
    for f in &m.functions {
        s.push('\n');
        print_function_into(m, f, &mut s);
    }
    if !m.named_metadata.is_empty() {
        s.push('\n');
    }
    for n in m.named_mds() {
        let ids: Vec<String> = n.ops.iter().map(|i| format!("!{}", i.0)).collect();
        let _ = writeln!(s, "!{} = !{{{}}}", n.name, ids.join(", "));
    }
    for (i, md) in m.metadata.iter().enumerate() {
        let _ = write!(s, "!{i} = ");
        write_md_body(m, md, &mut s);
        s.push('\n');
    }
    s
}

/// Renders one function.
pub fn print_function(m: &Module, f: &Function) -> String {
    let mut s = String::new();
    print_function_into(m, f, &mut s);
    s
}

fn local_name(f: &Function, n: LocalName) -> Option<&str> {
    f.names.iter().find(|x| x.0 == n).map(|x| x.1.as_str())
}

fn print_function_into(m: &Module, f: &Function, s: &mut String) {
    let _ =
        write!(s, "{} {} @{}(", if f.is_declaration { "declare" } else { "define" }, m.types.display(f.ret_ty), f.name);
    for (i, p) in f.param_tys.iter().enumerate() {
        if i > 0 {
            s.push_str(", ");
        }
        s.push_str(&m.types.display(*p));
        if !f.is_declaration {
            s.push(' ');
            write_value(m, Some(f), Value::Arg(i as u32), false, s);
        }
    }
    s.push(')');
    if f.attrs != 0 {
        let _ = write!(s, " #{}", f.attrs - 1);
    }
    if f.is_declaration {
        s.push('\n');
        return;
    }
    s.push_str(" {\n");
    for (bi, b) in f.blocks.iter().enumerate() {
        if bi > 0 {
            s.push('\n');
        }
        let _ = writeln!(s, "{}:", block_label(f, BlockId(bi as u32)));
        for id in b.insts() {
            s.push_str("  ");
            write_inst(m, f, id, s);
            s.push('\n');
        }
    }
    s.push_str("}\n");
}

fn block_label(f: &Function, b: BlockId) -> String {
    match local_name(f, LocalName::Block(b)) {
        Some(n) => n.to_string(),
        None => format!("bb{}", b.0),
    }
}

fn write_typed(m: &Module, f: Option<&Function>, v: Value, s: &mut String) {
    write_value(m, f, v, true, s);
}

/// Writes a value reference; with `typed`, prefixed by its type.
pub fn write_value(m: &Module, f: Option<&Function>, v: Value, typed: bool, s: &mut String) {
    if typed {
        let ty = match f {
            Some(f) => m.value_type(f, v),
            None => match v {
                Value::Global(g) => m.global(g).ptr_ty,
                Value::Function(fi) => m.function(fi).ptr_ty,
                Value::Const(c) => m.konst(c).ty,
                _ => TypeId(0),
            },
        };
        s.push_str(&m.types.display(ty));
        s.push(' ');
    }
    match v {
        Value::Global(g) => {
            let _ = write!(s, "@{}", m.globals.get(g.index()).map_or("?", |g| g.name.as_str()));
        }
        Value::Function(fi) => {
            let _ = write!(s, "@{}", m.functions.get(fi.index()).map_or("?", |f| f.name.as_str()));
        }
        Value::Const(c) => write_const(m, c, s, 0),
        Value::Arg(i) => match f.and_then(|f| local_name(f, LocalName::Arg(i))) {
            Some(n) => {
                let _ = write!(s, "%{n}");
            }
            None => {
                let _ = write!(s, "%arg{i}");
            }
        },
        Value::Inst(i) => match f.and_then(|f| local_name(f, LocalName::Inst(i))) {
            Some(n) => {
                let _ = write!(s, "%{n}");
            }
            None => {
                let _ = write!(s, "%{}", i.0);
            }
        },
        Value::Metadata(md) => {
            let _ = write!(s, "!{}", md.0);
        }
    }
}

fn write_float(bits: u64, ty: &Type, s: &mut String) {
    let v = match ty {
        Type::Float => f64::from(f32::from_bits(bits as u32)),
        Type::Double => f64::from_bits(bits),
        _ => {
            // half: print the bits, as LLVM does.
            let _ = write!(s, "0xH{:04X}", bits);
            return;
        }
    };
    if v.is_finite() && v == v.trunc() && v.abs() < 1e15 {
        let _ = write!(s, "{v:.1}");
    } else if v.is_finite() && format!("{v}").parse::<f64>().ok() == Some(v) && format!("{v}").len() < 20 {
        let _ = write!(s, "{v}");
    } else {
        let _ = write!(
            s,
            "0x{:016X}",
            if matches!(ty, Type::Float) { f64::from(f32::from_bits(bits as u32)).to_bits() } else { bits }
        );
    }
}

/// Longest rendering of one constant (constant DAGs can be exponentially
/// long when spelled out).
const MAX_CONST_LEN: usize = 4096;

fn write_const(m: &Module, c: ConstId, s: &mut String, depth: u32) {
    let limit = s.len() + MAX_CONST_LEN;
    write_const_limited(m, c, s, depth, limit);
}

fn write_const_limited(m: &Module, c: ConstId, s: &mut String, depth: u32, limit: usize) {
    let Some(k) = m.consts.get(c.index()) else {
        s.push_str("<bad const>");
        return;
    };
    if depth > 32 || s.len() > limit {
        s.push_str("...");
        return;
    }
    let ty = m.types.get(k.ty);
    match &k.kind {
        ConstKind::Int(v) => {
            if matches!(ty, Type::Int(1)) {
                s.push_str(if *v != 0 { "true" } else { "false" });
            } else {
                let _ = write!(s, "{}", k.as_int(&m.types).unwrap_or(*v as i64));
            }
        }
        ConstKind::WideInt(w) => {
            let _ = write!(s, "{w:?}");
        }
        ConstKind::Float(b) => write_float(*b, ty, s),
        ConstKind::Null => s.push_str(match ty {
            Type::Pointer { .. } => "null",
            Type::Int(_) => "0",
            Type::Half | Type::Float | Type::Double => "0.0",
            _ => "zeroinitializer",
        }),
        ConstKind::Undef => s.push_str("undef"),
        ConstKind::Aggregate(vals) => {
            let (l, r) = match ty {
                Type::Struct { .. } => ("{ ", " }"),
                Type::Vector { .. } => ("<", ">"),
                _ => ("[", "]"),
            };
            s.push_str(l);
            for (i, v) in vals.iter().enumerate() {
                if i > 0 {
                    s.push_str(", ");
                }
                typed_const(m, depth, limit, *v, s);
            }
            s.push_str(r);
        }
        ConstKind::Data(d) => {
            let elem = m.types.element(k.ty, 0).map(|e| m.types.get(e).clone()).unwrap_or(Type::Int(8));
            if matches!(elem, Type::Int(8)) && d.iter().all(|&b| (0x20..0x7f).contains(&b) || b == 0) {
                s.push_str("c\"");
                for &b in d {
                    if b == 0 {
                        s.push_str("\\00");
                    } else {
                        s.push(b as u8 as char);
                    }
                }
                s.push('"');
            } else {
                s.push('[');
                for (i, &b) in d.iter().enumerate() {
                    if i > 0 {
                        s.push_str(", ");
                    }
                    let _ = write!(s, "{} ", m.types.display(m.types.element(k.ty, 0).unwrap_or(k.ty)));
                    if elem.is_float() {
                        write_float(b, &elem, s);
                    } else {
                        let _ = write!(s, "{}", sign_extend(b, elem.scalar_bits().unwrap_or(64)));
                    }
                }
                s.push(']');
            }
        }
        ConstKind::Expr(e) => {
            match e {
                ConstExpr::Binary { op, lhs, rhs, .. } => {
                    let _ = write!(s, "{} (", op.name());
                    typed_const(m, depth, limit, *lhs, s);
                    s.push_str(", ");
                    typed_const(m, depth, limit, *rhs, s);
                }
                ConstExpr::Cast { op, value } => {
                    let _ = write!(s, "{} (", op.name());
                    typed_const(m, depth, limit, *value, s);
                    let _ = write!(s, " to {}", m.types.display(k.ty));
                }
                ConstExpr::Gep { inbounds, source_ty, base, indices } => {
                    let _ = write!(
                        s,
                        "getelementptr {}({}, ",
                        if *inbounds { "inbounds " } else { "" },
                        m.types.display(*source_ty)
                    );
                    typed_const(m, depth, limit, *base, s);
                    for i in indices {
                        s.push_str(", ");
                        typed_const(m, depth, limit, *i, s);
                    }
                }
                ConstExpr::Select { cond, if_true, if_false } => {
                    s.push_str("select (");
                    for (i, v) in [cond, if_true, if_false].into_iter().enumerate() {
                        if i > 0 {
                            s.push_str(", ");
                        }
                        typed_const(m, depth, limit, *v, s);
                    }
                }
                ConstExpr::Cmp { pred, lhs, rhs } => {
                    let _ = write!(s, "{} {} (", if pred.is_float() { "fcmp" } else { "icmp" }, pred.name());
                    typed_const(m, depth, limit, *lhs, s);
                    s.push_str(", ");
                    typed_const(m, depth, limit, *rhs, s);
                }
                ConstExpr::ExtractElement { vector, index } => {
                    s.push_str("extractelement (");
                    typed_const(m, depth, limit, *vector, s);
                    s.push_str(", ");
                    typed_const(m, depth, limit, *index, s);
                }
                ConstExpr::InsertElement { vector, value, index } => {
                    s.push_str("insertelement (");
                    typed_const(m, depth, limit, *vector, s);
                    s.push_str(", ");
                    typed_const(m, depth, limit, *value, s);
                    s.push_str(", ");
                    typed_const(m, depth, limit, *index, s);
                }
                ConstExpr::ShuffleVector { a, b, mask } => {
                    s.push_str("shufflevector (");
                    typed_const(m, depth, limit, *a, s);
                    s.push_str(", ");
                    typed_const(m, depth, limit, *b, s);
                    s.push_str(", ");
                    typed_const(m, depth, limit, *mask, s);
                }
            }
            s.push(')');
        }
    }
}

/// A typed operand inside a constant, sharing the constant's length limit.
fn typed_const(m: &Module, depth: u32, limit: usize, v: Value, s: &mut String) {
    match v {
        Value::Const(c) => {
            s.push_str(&m.types.display(m.konst(c).ty));
            s.push(' ');
            write_const_limited(m, c, s, depth + 1, limit);
        }
        other => write_value(m, None, other, true, s),
    }
}

fn write_inst(m: &Module, f: &Function, id: InstId, s: &mut String) {
    let inst = f.inst(id);
    let void = matches!(m.types.get(inst.ty), Type::Void);
    if !void {
        write_value(m, Some(f), Value::Inst(id), false, s);
        s.push_str(" = ");
    }
    let tv = |v: Value, s: &mut String| write_typed(m, Some(f), v, s);
    let uv = |v: Value, s: &mut String| write_value(m, Some(f), v, false, s);
    match &inst.kind {
        InstKind::Binary { op, lhs, rhs, flags } => {
            s.push_str(op.name());
            if *flags != 0 {
                match op {
                    BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Shl => {
                        if flags & flags::NUW != 0 {
                            s.push_str(" nuw");
                        }
                        if flags & flags::NSW != 0 {
                            s.push_str(" nsw");
                        }
                    }
                    BinOp::UDiv | BinOp::SDiv | BinOp::LShr | BinOp::AShr => s.push_str(" exact"),
                    _ if op.is_float() => write_fmf(*flags, s),
                    _ => {}
                }
            }
            s.push(' ');
            tv(*lhs, s);
            s.push_str(", ");
            uv(*rhs, s);
        }
        InstKind::Cast { op, value } => {
            let _ = write!(s, "{} ", op.name());
            tv(*value, s);
            let _ = write!(s, " to {}", m.types.display(inst.ty));
        }
        InstKind::Cmp { pred, lhs, rhs, flags } => {
            let _ = write!(s, "{}", if pred.is_float() { "fcmp" } else { "icmp" });
            write_fmf(*flags, s);
            let _ = write!(s, " {} ", pred.name());
            tv(*lhs, s);
            s.push_str(", ");
            uv(*rhs, s);
        }
        InstKind::Select { cond, if_true, if_false } => {
            s.push_str("select ");
            tv(*cond, s);
            s.push_str(", ");
            tv(*if_true, s);
            s.push_str(", ");
            tv(*if_false, s);
        }
        InstKind::Phi { incoming } => {
            let _ = write!(s, "phi {} ", m.types.display(inst.ty));
            for (i, (v, b)) in f.phis(*incoming).iter().enumerate() {
                if i > 0 {
                    s.push_str(", ");
                }
                s.push_str("[ ");
                uv(*v, s);
                let _ = write!(s, ", %{} ]", block_label(f, *b));
            }
        }
        InstKind::Call { callee, args, .. } => {
            let _ = write!(s, "call {} ", m.types.display(inst.ty));
            uv(*callee, s);
            s.push('(');
            for (i, a) in f.values(*args).iter().enumerate() {
                if i > 0 {
                    s.push_str(", ");
                }
                tv(*a, s);
            }
            s.push(')');
        }
        InstKind::DxOp { op, callee, args, .. } => {
            let _ = write!(s, "call {} ", m.types.display(inst.ty));
            uv(Value::Function(*callee), s);
            let _ = write!(s, "(i32 {} /* {} */", *op as u32, op.name());
            for a in f.values(*args) {
                s.push_str(", ");
                tv(*a, s);
            }
            s.push(')');
        }
        InstKind::Alloca { alloc_ty, count, align } => {
            let _ = write!(s, "alloca {}", m.types.display(*alloc_ty));
            if m.const_uint(*count) != Some(1) {
                s.push_str(", ");
                tv(*count, s);
            }
            let _ = write!(s, ", align {align}");
        }
        InstKind::Load { ptr, align, volatile } => {
            let _ = write!(s, "load {}{}, ", if *volatile { "volatile " } else { "" }, m.types.display(inst.ty));
            tv(*ptr, s);
            let _ = write!(s, ", align {align}");
        }
        InstKind::Store { ptr, value, align, volatile } => {
            s.push_str(if *volatile { "store volatile " } else { "store " });
            tv(*value, s);
            s.push_str(", ");
            tv(*ptr, s);
            let _ = write!(s, ", align {align}");
        }
        InstKind::Gep { inbounds, source_ty, base, indices } => {
            let _ = write!(
                s,
                "getelementptr {}{}, ",
                if *inbounds { "inbounds " } else { "" },
                m.types.display(*source_ty)
            );
            tv(*base, s);
            for i in f.values(*indices) {
                s.push_str(", ");
                tv(*i, s);
            }
        }
        InstKind::ExtractValue { agg, indices } => {
            s.push_str("extractvalue ");
            tv(*agg, s);
            for i in f.indices(*indices) {
                let _ = write!(s, ", {i}");
            }
        }
        InstKind::InsertValue { agg, value, indices } => {
            s.push_str("insertvalue ");
            tv(*agg, s);
            s.push_str(", ");
            tv(*value, s);
            for i in f.indices(*indices) {
                let _ = write!(s, ", {i}");
            }
        }
        InstKind::ExtractElement { vector, index } => {
            s.push_str("extractelement ");
            tv(*vector, s);
            s.push_str(", ");
            tv(*index, s);
        }
        InstKind::InsertElement { vector, value, index } => {
            s.push_str("insertelement ");
            tv(*vector, s);
            s.push_str(", ");
            tv(*value, s);
            s.push_str(", ");
            tv(*index, s);
        }
        InstKind::ShuffleVector { a, b, mask } => {
            s.push_str("shufflevector ");
            tv(*a, s);
            s.push_str(", ");
            tv(*b, s);
            s.push_str(", ");
            tv(*mask, s);
        }
        InstKind::AtomicRmw { op, ptr, value, volatile, ordering, .. } => {
            let _ = write!(s, "atomicrmw {}{} ", if *volatile { "volatile " } else { "" }, op.name());
            tv(*ptr, s);
            s.push_str(", ");
            tv(*value, s);
            let _ = write!(s, " {}", ordering.name());
        }
        InstKind::CmpXchg { ptr, cmp, new, volatile, success, failure, weak, .. } => {
            let _ =
                write!(s, "cmpxchg {}{}", if *weak { "weak " } else { "" }, if *volatile { "volatile " } else { "" });
            tv(*ptr, s);
            s.push_str(", ");
            tv(*cmp, s);
            s.push_str(", ");
            tv(*new, s);
            let _ = write!(s, " {} {}", success.name(), failure.name());
        }
        InstKind::Fence { ordering, .. } => {
            let _ = write!(s, "fence {}", ordering.name());
        }
        InstKind::Br { target } => {
            let _ = write!(s, "br label %{}", block_label(f, *target));
        }
        InstKind::CondBr { cond, if_true, if_false } => {
            s.push_str("br ");
            tv(*cond, s);
            let _ = write!(s, ", label %{}, label %{}", block_label(f, *if_true), block_label(f, *if_false));
        }
        InstKind::Switch { cond, default, cases } => {
            s.push_str("switch ");
            tv(*cond, s);
            let _ = write!(s, ", label %{} [", block_label(f, *default));
            for (c, b) in f.cases(*cases) {
                s.push(' ');
                write_typed(m, Some(f), Value::Const(*c), s);
                let _ = write!(s, ", label %{}", block_label(f, *b));
            }
            s.push_str(" ]");
        }
        InstKind::Ret { value } => match value {
            Some(v) => {
                s.push_str("ret ");
                tv(*v, s);
            }
            None => s.push_str("ret void"),
        },
        InstKind::Unreachable => s.push_str("unreachable"),
    }
    let atts = f.attachments.iter().filter(|a| a.inst == id);
    for a in atts {
        let _ = write!(s, ", !{} !{}", m.md_kind_name(a.kind).unwrap_or("?"), a.md.0);
    }
}

fn write_fmf(flags: u32, s: &mut String) {
    if flags & flags::FAST != 0 {
        s.push_str(" fast");
        return;
    }
    for (bit, name) in [(flags::NNAN, " nnan"), (flags::NINF, " ninf"), (flags::NSZ, " nsz"), (flags::ARCP, " arcp")] {
        if flags & bit != 0 {
            s.push_str(name);
        }
    }
}

fn write_md_body(m: &Module, md: &Metadata, s: &mut String) {
    match md {
        Metadata::String(t) => {
            s.push_str("!\"");
            for c in m.str(*t).chars() {
                if c == '"' || c == '\\' || !(' '..='~').contains(&c) {
                    let mut buf = [0u8; 4];
                    for b in c.encode_utf8(&mut buf).bytes() {
                        let _ = write!(s, "\\{b:02X}");
                    }
                } else {
                    s.push(c);
                }
            }
            s.push('"');
        }
        Metadata::Node { distinct, ops } => {
            if *distinct {
                s.push_str("distinct ");
            }
            s.push_str("!{");
            for (i, o) in m.md_ops(*ops).iter().enumerate() {
                if i > 0 {
                    s.push_str(", ");
                }
                match o {
                    None => s.push_str("null"),
                    Some(id) => match m.metadata.get(id.index()) {
                        Some(Metadata::Value { value, .. }) => write_typed(m, None, *value, s),
                        Some(t @ Metadata::String(_)) => write_md_body(m, t, s),
                        _ => {
                            let _ = write!(s, "!{}", id.0);
                        }
                    },
                }
            }
            s.push('}');
        }
        Metadata::Value { value, .. } => write_typed(m, None, *value, s),
        Metadata::Other { code } => {
            let _ = write!(s, "<metadata record {code}>");
        }
    }
}
