//! Typed, checked access to metadata operands. Every accessor names the
//! field it reads (`what`) so a malformed module gives an error saying
//! exactly which node and field is wrong; nothing here indexes unchecked.

use std::fmt::{self, Display};

use super::error::DxilError;
use crate::ir::{ConstExpr, ConstId, ConstKind, FuncId, GlobalId, MdId, Metadata, Module, Type, TypeId, Value};

type Result<T> = std::result::Result<T, DxilError>;

/// A metadata operand: `None` is a `null` operand.
pub(crate) type Op = Option<MdId>;

/// The path `parent.field`, formatted only when an error message needs it.
pub(crate) struct Field<'a>(pub &'a dyn Display, pub &'a str);

impl Display for Field<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.0, self.1)
    }
}

/// The path `parent[index]`, formatted only when an error message needs it.
pub(crate) struct Index<'a>(pub &'a dyn Display, pub usize);

impl Display for Index<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}[{}]", self.0, self.1)
    }
}

#[derive(Clone, Copy)]
pub(crate) struct Reader<'m> {
    pub m: &'m Module,
}

fn wrong(what: &dyn Display, expected: &'static str, found: String) -> DxilError {
    DxilError::WrongKind { what: what.to_string(), expected, found }
}

impl<'m> Reader<'m> {
    pub fn new(m: &'m Module) -> Self {
        Reader { m }
    }

    fn get(&self, id: MdId, what: &dyn Display) -> Result<&'m Metadata> {
        self.m.metadata.get(id.index()).ok_or_else(|| DxilError::Dangling { what: what.to_string(), id: id.0 })
    }

    /// A short description of an operand for error messages.
    pub fn describe(&self, op: Op) -> String {
        let Some(id) = op else { return "null".into() };
        match self.m.metadata.get(id.index()) {
            None => format!("dangling !{}", id.0),
            Some(Metadata::String(s)) => format!("string {:?} (!{})", self.m.str(*s), id.0),
            Some(Metadata::Node { ops, .. }) => {
                format!("node !{} with {} operands", id.0, self.m.md_ops(*ops).len())
            }
            Some(Metadata::Value { ty, .. }) => {
                format!("{} value (!{})", self.m.types.display(*ty), id.0)
            }
            Some(Metadata::Other { code }) => {
                format!("specialised node (record {code}, !{})", id.0)
            }
        }
    }

    /// A tuple's operands; `null` is an error.
    pub fn node(&self, op: Op, what: &dyn Display) -> Result<&'m [Op]> {
        match self.opt_node(op, what)? {
            Some(ops) => Ok(ops),
            None => Err(wrong(what, "a metadata tuple", "null".into())),
        }
    }

    /// A tuple's operands, or `None` for a `null` operand.
    pub fn opt_node(&self, op: Op, what: &dyn Display) -> Result<Option<&'m [Op]>> {
        let Some(id) = op else { return Ok(None) };
        match self.get(id, what)? {
            Metadata::Node { ops, .. } => Ok(Some(self.m.md_ops(*ops))),
            _ => Err(wrong(what, "a metadata tuple", self.describe(op))),
        }
    }

    /// A tuple with exactly `n` operands.
    pub fn node_n(&self, op: Op, n: usize, what: &dyn Display) -> Result<&'m [Op]> {
        let ops = self.node(op, what)?;
        arity(ops, n, what)?;
        Ok(ops)
    }

    pub fn string(&self, op: Op, what: &dyn Display) -> Result<&'m str> {
        let id = op.ok_or_else(|| wrong(what, "a metadata string", "null".into()))?;
        match self.get(id, what)? {
            Metadata::String(s) => Ok(self.m.str(*s)),
            _ => Err(wrong(what, "a metadata string", self.describe(op))),
        }
    }

    /// A constant-as-metadata operand: its type and value.
    pub fn value(&self, op: Op, what: &dyn Display) -> Result<(TypeId, Value)> {
        let id = op.ok_or_else(|| wrong(what, "a constant", "null".into()))?;
        match self.get(id, what)? {
            Metadata::Value { ty, value } => Ok((*ty, *value)),
            _ => Err(wrong(what, "a constant", self.describe(op))),
        }
    }

    /// The value of an integer constant operand and its width, `None` for
    /// anything else (the error path, [`Reader::int_error`], says why).
    #[inline]
    fn int_fast(&self, op: Op) -> Option<(u64, u32)> {
        let Metadata::Value { value: Value::Const(c), .. } = self.m.metadata.get(op?.index())? else {
            return None;
        };
        let c = self.m.consts.get(c.index())?;
        let Some(Type::Int(width)) = self.m.types.list.get(c.ty.0 as usize) else {
            return None;
        };
        let width = (*width).min(64);
        match &c.kind {
            ConstKind::Int(bits) => Some((crate::ir::mask_bits(*bits, width), width)),
            ConstKind::Null => Some((0, width)),
            _ => None,
        }
    }

    #[cold]
    #[inline(never)]
    fn int_error(&self, op: Op, what: &dyn Display) -> DxilError {
        match self.value(op, what) {
            Err(e) => e,
            Ok(_) => wrong(what, "an integer constant", self.describe(op)),
        }
    }

    #[inline]
    fn int_bits(&self, op: Op, what: &dyn Display) -> Result<(u64, u32)> {
        match self.int_fast(op) {
            Some(x) => Ok(x),
            None => Err(self.int_error(op, what)),
        }
    }

    /// An integer constant, zero-extended from its width.
    #[inline]
    pub fn uint(&self, op: Op, what: &dyn Display) -> Result<u64> {
        Ok(self.int_bits(op, what)?.0)
    }

    /// An integer constant, sign-extended from its width.
    #[inline]
    pub fn int(&self, op: Op, what: &dyn Display) -> Result<i64> {
        let (bits, width) = self.int_bits(op, what)?;
        Ok(crate::ir::sign_extend(bits, width))
    }

    #[inline]
    pub fn u32(&self, op: Op, what: &dyn Display) -> Result<u32> {
        match self.int_fast(op).and_then(|(v, _)| u32::try_from(v).ok()) {
            Some(v) => Ok(v),
            None => Err(self.range_error(op, what, "u32", false)),
        }
    }

    #[inline]
    pub fn u8(&self, op: Op, what: &dyn Display) -> Result<u8> {
        match self.int_fast(op).and_then(|(v, _)| u8::try_from(v).ok()) {
            Some(v) => Ok(v),
            None => Err(self.range_error(op, what, "u8", false)),
        }
    }

    #[inline]
    pub fn i32(&self, op: Op, what: &dyn Display) -> Result<i32> {
        match self.int_fast(op).and_then(|(b, w)| i32::try_from(crate::ir::sign_extend(b, w)).ok()) {
            Some(v) => Ok(v),
            None => Err(self.range_error(op, what, "i32", true)),
        }
    }

    #[inline]
    pub fn i8(&self, op: Op, what: &dyn Display) -> Result<i8> {
        match self.int_fast(op).and_then(|(b, w)| i8::try_from(crate::ir::sign_extend(b, w)).ok()) {
            Some(v) => Ok(v),
            None => Err(self.range_error(op, what, "i8", true)),
        }
    }

    /// Why an operand is not an integer constant in `range` (read signed or unsigned).
    #[cold]
    #[inline(never)]
    fn range_error(&self, op: Op, what: &dyn Display, range: &'static str, signed: bool) -> DxilError {
        let value = match self.int_bits(op, what) {
            Err(e) => return e,
            Ok((b, w)) if signed => i128::from(crate::ir::sign_extend(b, w)),
            Ok((b, _)) => i128::from(b),
        };
        DxilError::OutOfRange { what: what.to_string(), value, range }
    }

    pub fn bool(&self, op: Op, what: &dyn Display) -> Result<bool> {
        Ok(self.uint(op, what)? != 0)
    }

    /// A floating-point constant (half, float or double) as `f32`.
    pub fn float(&self, op: Op, what: &dyn Display) -> Result<f32> {
        let (_, v) = self.value(op, what)?;
        let not_float = || wrong(what, "a floating-point constant", self.describe(op));
        let Value::Const(c) = v else {
            return Err(not_float());
        };
        let c = self.m.consts.get(c.index()).ok_or_else(not_float)?;
        let ty = self.m.types.list.get(c.ty.0 as usize).ok_or_else(not_float)?;
        let bits = match &c.kind {
            ConstKind::Float(b) => *b,
            ConstKind::Null if ty.is_float() => 0,
            _ => return Err(not_float()),
        };
        match ty {
            Type::Float => Ok(f32::from_bits(bits as u32)),
            Type::Double => Ok(f64::from_bits(bits) as f32),
            Type::Half => Ok(half_to_f32(bits as u16)),
            _ => Err(not_float()),
        }
    }

    /// Whether constant `c` is `null` or `undef` (an absent optional reference).
    fn null_or_undef(&self, c: ConstId) -> bool {
        matches!(self.m.consts.get(c.index()).map(|c| &c.kind), Some(ConstKind::Null | ConstKind::Undef))
    }

    /// A function reference, or `None` for a `null` operand / null constant.
    pub fn function(&self, op: Op, what: &dyn Display) -> Result<Option<FuncId>> {
        if op.is_none() {
            return Ok(None);
        }
        let (_, v) = self.value(op, what)?;
        match self.strip_casts(v, 0) {
            Some(Value::Function(f)) if f.index() < self.m.functions.len() => Ok(Some(f)),
            Some(Value::Const(c)) if self.null_or_undef(c) => Ok(None),
            _ => Err(wrong(what, "a function", self.describe(op))),
        }
    }

    /// A global-variable reference: `Some` for a global (possibly behind
    /// constant casts), `None` for `undef`/`null` or a `null` operand.
    pub fn global(&self, op: Op, what: &dyn Display) -> Result<Option<GlobalId>> {
        if op.is_none() {
            return Ok(None);
        }
        let (_, v) = self.value(op, what)?;
        match self.strip_casts(v, 0) {
            Some(Value::Global(g)) if g.index() < self.m.globals.len() => Ok(Some(g)),
            Some(Value::Const(c)) if self.null_or_undef(c) => Ok(None),
            _ => Err(wrong(what, "a global variable or undef", self.describe(op))),
        }
    }

    /// Looks through constant-expression casts and zero-index GEPs.
    fn strip_casts(&self, v: Value, depth: u32) -> Option<Value> {
        if depth > 16 {
            return None;
        }
        let Value::Const(c) = v else { return Some(v) };
        match &self.m.consts.get(c.index())?.kind {
            ConstKind::Expr(ConstExpr::Cast { value, .. }) => self.strip_casts(*value, depth + 1),
            ConstKind::Expr(ConstExpr::Gep { base, .. }) => self.strip_casts(*base, depth + 1),
            _ => Some(v),
        }
    }

    /// A flat tag/value list (`!{i32 tag, value, i32 tag, value, …}`): its
    /// operands, every tag checked to be a `u32` (empty for `null`). Walk it
    /// with [`Reader::tags`].
    pub fn tag_pairs(&self, op: Op, what: &dyn Display) -> Result<&'m [Op]> {
        let Some(ops) = self.opt_node(op, what)? else {
            return Ok(&[]);
        };
        if ops.len() % 2 != 0 {
            return Err(DxilError::OddTagList { what: what.to_string(), len: ops.len() });
        }
        for (i, pair) in ops.chunks_exact(2).enumerate() {
            self.u32(pair[0], &format_args!("{what}.tag[{i}]"))?;
        }
        Ok(ops)
    }

    /// The (tag, value) pairs of a list [`Reader::tag_pairs`] checked.
    pub fn tags(&self, checked: &'m [Op]) -> impl Iterator<Item = (u32, Op)> + 'm {
        let r = Reader { m: self.m };
        checked.chunks_exact(2).map(move |pair| {
            let tag = r.int_fast(pair[0]).and_then(|(v, _)| u32::try_from(v).ok()).unwrap_or(u32::MAX);
            (tag, pair[1])
        })
    }

    /// Renders an operand compactly, LLVM-like, for "other tag" records.
    pub fn render(&self, op: Op) -> String {
        let mut s = String::new();
        self.render_into(op, &mut s, 0);
        s
    }

    fn render_into(&self, op: Op, s: &mut String, depth: u32) {
        use std::fmt::Write;
        let Some(id) = op else {
            s.push_str("null");
            return;
        };
        if depth > 8 {
            s.push('…');
            return;
        }
        match self.m.metadata.get(id.index()) {
            None => {
                let _ = write!(s, "!<dangling {}>", id.0);
            }
            Some(Metadata::String(t)) => {
                let _ = write!(s, "{:?}", self.m.str(*t));
            }
            Some(Metadata::Node { ops, .. }) => {
                s.push_str("!{");
                for (i, o) in self.m.md_ops(*ops).iter().enumerate() {
                    if i > 0 {
                        s.push_str(", ");
                    }
                    self.render_into(*o, s, depth + 1);
                }
                s.push('}');
            }
            Some(Metadata::Value { ty, value }) => {
                let ty_s = self.m.types.display(*ty);
                match self.strip_casts(*value, 0) {
                    Some(Value::Function(f)) => {
                        let name = self.m.functions.get(f.index()).map_or("?", |f| f.name.as_str());
                        let _ = write!(s, "@{name}");
                    }
                    Some(Value::Global(g)) => {
                        let name = self.m.globals.get(g.index()).map_or("?", |g| g.name.as_str());
                        let _ = write!(s, "@{name}");
                    }
                    _ => {
                        if let Ok(v) = self.int(op, &"") {
                            let _ = write!(s, "{ty_s} {v}");
                        } else if let Ok(f) = self.float(op, &"") {
                            let _ = write!(s, "{ty_s} {f}");
                        } else {
                            let _ = write!(s, "{ty_s} <value>");
                        }
                    }
                }
            }
            Some(Metadata::Other { code }) => {
                let _ = write!(s, "!<record {code}>");
            }
        }
    }
}

/// Checks that a tuple has exactly `n` operands.
pub(crate) fn arity(ops: &[Op], n: usize, what: &dyn Display) -> Result<()> {
    if ops.len() != n {
        return Err(DxilError::Arity { what: what.to_string(), expected: n.to_string(), found: ops.len() });
    }
    Ok(())
}

fn half_to_f32(h: u16) -> f32 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exp = i32::from((h >> 10) & 0x1F);
    let frac = f32::from(h & 0x3FF);
    match exp {
        0 => sign * frac * 2f32.powi(-24),
        31 if frac == 0.0 => sign * f32::INFINITY,
        31 => f32::NAN,
        _ => sign * (1.0 + frac / 1024.0) * 2f32.powi(exp - 15),
    }
}
