//! LLVM-like text rendering of the IR (used by `dxjit dis`).
//!
//! The syntax follows LLVM 3.7's assembly, and it is lossless: the assembler
//! (`crate::asm`) parses it back into an equal module (see `docs/asm.md` for
//! what "equal" means and the few spellings of our own). Unnamed values print
//! as `%N` (instruction id), `%argN` (parameter), blocks as `bbN`; names that
//! are not plain identifiers, or that look like those synthetic names, are
//! quoted (`%"bb1"`, `@"\01?main@@YAXXZ"`).

use super::attr;
use super::*;
use std::fmt::Write;

/// Renders the whole module as text.
pub fn print_module(m: &Module) -> String {
    let mut s = String::new();
    if !m.triple().is_empty() {
        s.push_str("target triple = ");
        write_string(m.triple().as_bytes(), &mut s);
        s.push('\n');
    }
    if !m.datalayout().is_empty() {
        s.push_str("target datalayout = ");
        write_string(m.datalayout().as_bytes(), &mut s);
        s.push('\n');
    }
    s.push('\n');
    for (_, t) in m.types.iter() {
        if let Type::Struct { name: Some(n), packed, opaque, elems } = t {
            write_ident('%', n, false, &mut s);
            if *opaque {
                s.push_str(" = type opaque\n");
            } else {
                let body: Vec<String> = elems.iter().map(|e| m.types.display_quoted(*e)).collect();
                let (l, r) = match (*packed, body.is_empty()) {
                    (false, true) => ("{", "}"),
                    (true, true) => ("<{", "}>"),
                    (false, false) => ("{ ", " }"),
                    (true, false) => ("<{ ", " }>"),
                };
                let _ = writeln!(s, " = type {l}{}{r}", body.join(", "));
            }
        }
    }
    s.push('\n');
    for g in &m.globals {
        write_ident('@', &g.name, false, &mut s);
        s.push_str(" =");
        write_linkage(g.linkage, &mut s);
        match g.thread_local {
            0 => {}
            1 => s.push_str(" thread_local"),
            t => match attr::tls_name(t) {
                Some(n) => {
                    let _ = write!(s, " thread_local({n})");
                }
                None => {
                    let _ = write!(s, " thread_local({t})");
                }
            },
        }
        if g.unnamed_addr {
            s.push_str(" unnamed_addr");
        }
        if g.addr_space != 0 {
            let _ = write!(s, " addrspace({})", g.addr_space);
        }
        let _ = write!(s, " {} {}", if g.is_const { "constant" } else { "global" }, m.types.display_quoted(g.value_ty));
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
    let fn_groups: Vec<&AttrGroup> = m.attr_groups.iter().filter(|g| g.index == attr::FUNCTION_INDEX).collect();
    if !fn_groups.is_empty() {
        s.push('\n');
    }
    for g in fn_groups {
        let _ = write!(s, "attributes #{} = {{", g.id);
        write_attrs(m, m.group_attrs(g), &mut s);
        s.push_str(" }\n");
    }
    if !m.named_metadata.is_empty() {
        s.push('\n');
    }
    for n in m.named_mds() {
        write_md_name(n.name, &mut s);
        let ids: Vec<String> = n.ops.iter().map(|i| format!("!{}", i.0)).collect();
        let _ = writeln!(s, " = !{{{}}}", ids.join(", "));
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

/// Whether `s` can be written without quotes after `%`, `@` or `!`
/// (LLVM's `[-a-zA-Z$._][-a-zA-Z$._0-9]*`).
pub fn is_plain_name(s: &str) -> bool {
    let ok = |c: u8| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'$' | b'.' | b'_');
    let b = s.as_bytes();
    !b.is_empty() && !b[0].is_ascii_digit() && b.iter().all(|&c| ok(c))
}

/// Whether a local name has the form the printer gives unnamed values and
/// blocks (`17`, `arg2`, `bb3`): a real name of that form is quoted.
pub fn is_synthetic_local(s: &str) -> bool {
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|c| c.is_ascii_digit());
    digits(s) || s.strip_prefix("arg").is_some_and(digits) || s.strip_prefix("bb").is_some_and(digits)
}

/// Writes `"…"` with `"`, `\` and bytes outside printable ASCII as `\XX`.
pub fn write_string(bytes: &[u8], s: &mut String) {
    s.push('"');
    write_escaped(bytes, s);
    s.push('"');
}

fn write_escaped(bytes: &[u8], s: &mut String) {
    for &b in bytes {
        if b == b'"' || b == b'\\' || !(0x20..0x7f).contains(&b) {
            let _ = write!(s, "\\{b:02X}");
        } else {
            s.push(b as char);
        }
    }
}

/// Writes a global (`@`), local (`%`) or type (`%`) name, quoted when it is
/// not plain; with `local`, names of the synthetic forms are quoted too.
pub fn write_ident(prefix: char, name: &str, local: bool, s: &mut String) {
    s.push(prefix);
    if is_plain_name(name) && !(local && is_synthetic_local(name)) {
        s.push_str(name);
    } else {
        write_string(name.as_bytes(), s);
    }
}

/// Writes a metadata name (`!dx.entryPoints`, a kind `!dx.precise`) with
/// LLVM's `\XX` escapes for anything that is not a name character.
pub fn write_md_name(name: &str, s: &mut String) {
    s.push('!');
    for (i, &b) in name.as_bytes().iter().enumerate() {
        let ok = b.is_ascii_alphanumeric() || matches!(b, b'-' | b'$' | b'.' | b'_');
        if ok && !(i == 0 && b.is_ascii_digit()) {
            s.push(b as char);
        } else {
            let _ = write!(s, "\\{b:02X}");
        }
    }
}

fn write_linkage(code: u32, s: &mut String) {
    if code == 0 {
        return;
    }
    match attr::linkage_name(code) {
        Some(n) => {
            let _ = write!(s, " {n}");
        }
        None => {
            let _ = write!(s, " linkage({code})");
        }
    }
}

/// The attribute groups of list `list` (1-based, 0: none) with `index`.
fn groups_at(m: &Module, list: u32, index: u32) -> impl Iterator<Item = &AttrGroup> {
    m.attr_list(list).iter().filter_map(move |&gid| m.attr_groups.iter().find(|g| g.id == gid && g.index == index))
}

/// Writes ` attr attr …` (each with a leading space).
fn write_attrs(m: &Module, attrs: &[Attribute], s: &mut String) {
    for a in attrs {
        s.push(' ');
        match *a {
            Attribute::Enum(k) => match attr::enum_name(k) {
                Some(n) => s.push_str(n),
                None => {
                    let _ = write!(s, "kind({k})");
                }
            },
            Attribute::Int(k, v) => match attr::int_name(k) {
                Some(n) => {
                    let _ = write!(s, "{n}({v})");
                }
                None => {
                    let _ = write!(s, "kind({k}, {v})");
                }
            },
            Attribute::Str(k, v) => {
                write_string(m.str(k).as_bytes(), s);
                if !m.str(v).is_empty() {
                    s.push('=');
                    write_string(m.str(v).as_bytes(), s);
                }
            }
        }
    }
}

/// Parameter (or return, index 0) attributes of attribute list `list`.
fn write_index_attrs(m: &Module, list: u32, index: u32, s: &mut String) {
    for g in groups_at(m, list, index) {
        write_attrs(m, m.group_attrs(g), s);
    }
}

/// ` #G` for each function-attribute group of list `list`.
fn write_fn_groups(m: &Module, list: u32, s: &mut String) {
    for g in groups_at(m, list, attr::FUNCTION_INDEX) {
        let _ = write!(s, " #{}", g.id);
    }
}

fn print_function_into(m: &Module, f: &Function, s: &mut String) {
    s.push_str(if f.is_declaration { "declare" } else { "define" });
    write_linkage(f.linkage, s);
    if f.callconv != 0 {
        let _ = write!(s, " cc {}", f.callconv);
    }
    write_index_attrs(m, f.attrs, 0, s);
    let _ = write!(s, " {} ", m.types.display_quoted(f.ret_ty));
    write_ident('@', &f.name, false, s);
    s.push('(');
    for (i, p) in f.param_tys.iter().enumerate() {
        if i > 0 {
            s.push_str(", ");
        }
        s.push_str(&m.types.display_quoted(*p));
        write_index_attrs(m, f.attrs, i as u32 + 1, s);
        if !f.is_declaration {
            s.push(' ');
            write_value(m, Some(f), Value::Arg(i as u32), false, s);
        }
    }
    s.push(')');
    write_fn_groups(m, f.attrs, s);
    for (kind, md) in &f.fn_attachments {
        s.push(' ');
        write_md_name(m.md_kind_name(*kind).unwrap_or("?"), s);
        let _ = write!(s, " !{}", md.0);
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
        write_label_def(f, BlockId(bi as u32), s);
        s.push_str(":\n");
        for id in b.insts() {
            s.push_str("  ");
            write_inst(m, f, id, s);
            s.push('\n');
        }
    }
    s.push_str("}\n");
}

fn write_label_def(f: &Function, b: BlockId, s: &mut String) {
    match local_name(f, LocalName::Block(b)) {
        Some(n) if is_plain_name(n) && !is_synthetic_local(n) => s.push_str(n),
        Some(n) => write_string(n.as_bytes(), s),
        None => {
            let _ = write!(s, "bb{}", b.0);
        }
    }
}

/// `%name` or `%bbN` of a block, as a branch target.
fn write_block_ref(f: &Function, b: BlockId, s: &mut String) {
    match local_name(f, LocalName::Block(b)) {
        Some(n) => write_ident('%', n, true, s),
        None => {
            let _ = write!(s, "%bb{}", b.0);
        }
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
        s.push_str(&m.types.display_quoted(ty));
        s.push(' ');
    }
    match v {
        Value::Global(g) => write_ident('@', m.globals.get(g.index()).map_or("?", |g| g.name.as_str()), false, s),
        Value::Function(fi) => write_ident('@', m.functions.get(fi.index()).map_or("?", |f| f.name.as_str()), false, s),
        Value::Const(c) => write_const(m, c, s, 0),
        Value::Arg(i) => match f.and_then(|f| local_name(f, LocalName::Arg(i))) {
            Some(n) => write_ident('%', n, true, s),
            None => {
                let _ = write!(s, "%arg{i}");
            }
        },
        Value::Inst(i) => match f.and_then(|f| local_name(f, LocalName::Inst(i))) {
            Some(n) => write_ident('%', n, true, s),
            None => {
                let _ = write!(s, "%{}", i.0);
            }
        },
        Value::Metadata(md) => {
            let _ = write!(s, "!{}", md.0);
        }
    }
}

/// The bits of a float widened to a double exactly (NaN payloads included;
/// a hardware conversion would quieten a signalling NaN).
pub fn f32_bits_to_f64_bits(b: u32) -> u64 {
    let f = f32::from_bits(b);
    if f.is_nan() || f.is_infinite() {
        let sign = u64::from(b >> 31) << 63;
        sign | (0x7FFu64 << 52) | (u64::from(b & 0x7F_FFFF) << 29)
    } else {
        f64::from(f).to_bits()
    }
}

fn write_float(bits: u64, ty: &Type, s: &mut String) {
    let v = match ty {
        Type::Float => f64::from_bits(f32_bits_to_f64_bits(bits as u32)),
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
        let _ =
            write!(s, "0x{:016X}", if matches!(ty, Type::Float) { f32_bits_to_f64_bits(bits as u32) } else { bits });
    }
}

/// Longest rendering of one constant (constant DAGs can be exponentially
/// long when spelled out).
const MAX_CONST_LEN: usize = 4096;

fn write_const(m: &Module, c: ConstId, s: &mut String, depth: u32) {
    let limit = s.len() + MAX_CONST_LEN;
    write_const_limited(m, c, s, depth, limit);
}

fn write_int_flags(op: BinOp, flags: u32, s: &mut String) {
    if flags == 0 {
        return;
    }
    match op {
        BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Shl => {
            if flags & flags::NUW != 0 {
                s.push_str(" nuw");
            }
            if flags & flags::NSW != 0 {
                s.push_str(" nsw");
            }
        }
        BinOp::UDiv | BinOp::SDiv | BinOp::LShr | BinOp::AShr if flags & flags::EXACT != 0 => s.push_str(" exact"),
        _ if op.is_float() => write_fmf(flags, s),
        _ => {}
    }
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
            Type::Int(1) => "false",
            Type::Int(_) => "0",
            Type::Half | Type::Float | Type::Double => "0.0",
            _ => "zeroinitializer",
        }),
        ConstKind::Undef => s.push_str("undef"),
        ConstKind::Aggregate(vals) => {
            let (l, r) = match ty {
                Type::Struct { packed: true, .. } => ("<{ ", " }>"),
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
            let elem_id = m.types.element(k.ty, 0).unwrap_or(k.ty);
            let elem = m.types.get(elem_id).clone();
            let vector = matches!(ty, Type::Vector { .. });
            if matches!(elem, Type::Int(8)) && !vector {
                s.push_str("c\"");
                let bytes: Vec<u8> = d.iter().map(|&b| b as u8).collect();
                write_escaped(&bytes, s);
                s.push('"');
            } else {
                s.push(if vector { '<' } else { '[' });
                let elem_name = m.types.display_quoted(elem_id);
                for (i, &b) in d.iter().enumerate() {
                    if i > 0 {
                        s.push_str(", ");
                    }
                    if s.len() > limit {
                        s.push_str("...");
                        break;
                    }
                    let _ = write!(s, "{elem_name} ");
                    if elem.is_float() {
                        write_float(b, &elem, s);
                    } else if matches!(elem, Type::Int(1)) {
                        s.push_str(if b != 0 { "true" } else { "false" });
                    } else {
                        let _ = write!(s, "{}", sign_extend(b, elem.scalar_bits().unwrap_or(64)));
                    }
                }
                s.push(if vector { '>' } else { ']' });
            }
        }
        ConstKind::Expr(e) => {
            match e {
                ConstExpr::Binary { op, lhs, rhs, flags } => {
                    s.push_str(op.name());
                    write_int_flags(*op, *flags, s);
                    s.push_str(" (");
                    typed_const(m, depth, limit, *lhs, s);
                    s.push_str(", ");
                    typed_const(m, depth, limit, *rhs, s);
                }
                ConstExpr::Cast { op, value } => {
                    let _ = write!(s, "{} (", op.name());
                    typed_const(m, depth, limit, *value, s);
                    let _ = write!(s, " to {}", m.types.display_quoted(k.ty));
                }
                ConstExpr::Gep { inbounds, source_ty, base, indices } => {
                    let _ = write!(
                        s,
                        "getelementptr {}({}, ",
                        if *inbounds { "inbounds " } else { "" },
                        m.types.display_quoted(*source_ty)
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
            s.push_str(&m.types.display_quoted(m.konst(c).ty));
            s.push(' ');
            write_const_limited(m, c, s, depth + 1, limit);
        }
        other => write_value(m, None, other, true, s),
    }
}

/// Whether a call's function type is the one its callee declares (then the
/// call prints only the return type, as LLVM does).
fn callee_type_matches(m: &Module, f: &Function, callee: Value, fn_ty: TypeId) -> bool {
    match m.types.pointee(m.value_type(f, callee)) {
        Some((pointee, _)) => pointee == fn_ty,
        None => false,
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
            write_int_flags(*op, *flags, s);
            s.push(' ');
            tv(*lhs, s);
            s.push_str(", ");
            uv(*rhs, s);
        }
        InstKind::Cast { op, value } => {
            let _ = write!(s, "{} ", op.name());
            tv(*value, s);
            let _ = write!(s, " to {}", m.types.display_quoted(inst.ty));
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
            let _ = write!(s, "phi {} ", m.types.display_quoted(inst.ty));
            for (i, (v, b)) in f.phis(*incoming).iter().enumerate() {
                if i > 0 {
                    s.push_str(", ");
                }
                s.push_str("[ ");
                uv(*v, s);
                s.push_str(", ");
                write_block_ref(f, *b, s);
                s.push_str(" ]");
            }
        }
        InstKind::Call { callee, fn_ty, args, attrs, tail } => {
            s.push_str(if *tail { "tail call" } else { "call" });
            write_index_attrs(m, *attrs, 0, s);
            if callee_type_matches(m, f, *callee, *fn_ty) {
                let _ = write!(s, " {} ", m.types.display_quoted(inst.ty));
            } else {
                let _ = write!(s, " {} ", m.types.display_quoted(*fn_ty));
            }
            uv(*callee, s);
            s.push('(');
            for (i, a) in f.values(*args).iter().enumerate() {
                if i > 0 {
                    s.push_str(", ");
                }
                s.push_str(&m.types.display_quoted(m.value_type(f, *a)));
                write_index_attrs(m, *attrs, i as u32 + 1, s);
                s.push(' ');
                uv(*a, s);
            }
            s.push(')');
            write_fn_groups(m, *attrs, s);
        }
        InstKind::DxOp { op, callee, args, .. } => {
            let _ = write!(s, "call {} ", m.types.display_quoted(inst.ty));
            uv(Value::Function(*callee), s);
            let _ = write!(s, "(i32 {} /* {} */", *op as u32, op.name());
            for a in f.values(*args) {
                s.push_str(", ");
                tv(*a, s);
            }
            s.push(')');
        }
        InstKind::Alloca { alloc_ty, count, align } => {
            let _ = write!(s, "alloca {}", m.types.display_quoted(*alloc_ty));
            let i32_one =
                m.const_uint(*count) == Some(1) && matches!(m.types.get(m.value_type(f, *count)), Type::Int(32));
            if !i32_one {
                s.push_str(", ");
                tv(*count, s);
            }
            let _ = write!(s, ", align {align}");
        }
        InstKind::Load { ptr, align, volatile } => {
            let _ = write!(s, "load {}{}, ", if *volatile { "volatile " } else { "" }, m.types.display_quoted(inst.ty));
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
                m.types.display_quoted(*source_ty)
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
        InstKind::AtomicRmw { op, ptr, value, volatile, ordering, single_thread } => {
            let _ = write!(s, "atomicrmw {}{} ", if *volatile { "volatile " } else { "" }, op.name());
            tv(*ptr, s);
            s.push_str(", ");
            tv(*value, s);
            if *single_thread {
                s.push_str(" singlethread");
            }
            let _ = write!(s, " {}", ordering.name());
        }
        InstKind::CmpXchg { ptr, cmp, new, volatile, success, failure, weak, single_thread } => {
            let _ =
                write!(s, "cmpxchg {}{}", if *weak { "weak " } else { "" }, if *volatile { "volatile " } else { "" });
            tv(*ptr, s);
            s.push_str(", ");
            tv(*cmp, s);
            s.push_str(", ");
            tv(*new, s);
            if *single_thread {
                s.push_str(" singlethread");
            }
            let _ = write!(s, " {} {}", success.name(), failure.name());
        }
        InstKind::Fence { ordering, single_thread } => {
            s.push_str("fence");
            if *single_thread {
                s.push_str(" singlethread");
            }
            let _ = write!(s, " {}", ordering.name());
        }
        InstKind::Br { target } => {
            s.push_str("br label ");
            write_block_ref(f, *target, s);
        }
        InstKind::CondBr { cond, if_true, if_false } => {
            s.push_str("br ");
            tv(*cond, s);
            s.push_str(", label ");
            write_block_ref(f, *if_true, s);
            s.push_str(", label ");
            write_block_ref(f, *if_false, s);
        }
        InstKind::Switch { cond, default, cases } => {
            s.push_str("switch ");
            tv(*cond, s);
            s.push_str(", label ");
            write_block_ref(f, *default, s);
            s.push_str(" [");
            for (c, b) in f.cases(*cases) {
                s.push(' ');
                write_typed(m, Some(f), Value::Const(*c), s);
                s.push_str(", label ");
                write_block_ref(f, *b, s);
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
        s.push_str(", ");
        write_md_name(m.md_kind_name(a.kind).unwrap_or("?"), s);
        let _ = write!(s, " !{}", a.md.0);
    }
}

/// Fast-math flags: `fast` when all five are set (LLVM 3.7's `fast`), else
/// each by name (`unsafe_algebra` for bit 0 without the others).
fn write_fmf(flags: u32, s: &mut String) {
    const ALL: u32 = flags::FAST | flags::NNAN | flags::NINF | flags::NSZ | flags::ARCP;
    if flags & ALL == ALL {
        s.push_str(" fast");
        return;
    }
    for (bit, name) in [
        (flags::FAST, " unsafe_algebra"),
        (flags::NNAN, " nnan"),
        (flags::NINF, " ninf"),
        (flags::NSZ, " nsz"),
        (flags::ARCP, " arcp"),
    ] {
        if flags & bit != 0 {
            s.push_str(name);
        }
    }
}

fn write_md_body(m: &Module, md: &Metadata, s: &mut String) {
    match md {
        Metadata::String(t) => {
            s.push('!');
            write_string(m.str(*t).as_bytes(), s);
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
