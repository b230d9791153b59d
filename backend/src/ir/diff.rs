//! Structural comparison of two modules: the oracle of the assembler's and
//! the bitcode writer's round trips.
//!
//! Two modules are equal when everything a pass can observe is equal:
//! globals, functions, blocks, instructions and metadata by index (ids are
//! compared as ids), types and constants by structure (their ids depend on
//! interning order, which text does not fix), attribute lists by what they
//! say per index (group ids and list order are bookkeeping), attachment kinds
//! by name, local names as sets. String pools and operand-pool layout are
//! never compared, only what they hold.

use super::*;
use std::collections::HashSet;

/// Differences between `a` and `b`, at most `limit`, each naming where.
pub fn diff_modules(a: &Module, b: &Module, limit: usize) -> Vec<String> {
    let mut d = Diff { a, b, types: HashSet::new(), consts: HashSet::new(), out: Vec::new(), limit };
    d.module();
    d.out
}

struct Diff<'m> {
    a: &'m Module,
    b: &'m Module,
    /// Type pairs known (or assumed, while recursing) equal.
    types: HashSet<(TypeId, TypeId)>,
    consts: HashSet<(ConstId, ConstId)>,
    out: Vec<String>,
    limit: usize,
}

/// A function's attributes per index, in a comparable form.
type AttrSets = Vec<(u32, Vec<String>)>;

fn attr_sets(m: &Module, list: u32) -> AttrSets {
    let mut v: AttrSets = m
        .attr_list(list)
        .iter()
        .filter_map(|gid| m.attr_groups.iter().find(|g| g.id == *gid))
        .map(|g| {
            let attrs = m
                .group_attrs(g)
                .iter()
                .map(|a| match a {
                    Attribute::Enum(k) => format!("enum {k}"),
                    Attribute::Int(k, v) => format!("int {k} {v}"),
                    Attribute::Str(k, v) => format!("str {:?}={:?}", m.str(*k), m.str(*v)),
                })
                .collect();
            (g.index, attrs)
        })
        .collect();
    v.sort();
    v
}

impl<'m> Diff<'m> {
    fn full(&self) -> bool {
        self.out.len() >= self.limit
    }

    fn note(&mut self, msg: String) {
        if !self.full() {
            self.out.push(msg);
        }
    }

    fn ty_eq(&mut self, x: TypeId, y: TypeId) -> bool {
        if self.types.contains(&(x, y)) {
            return true;
        }
        let (Some(tx), Some(ty)) = (self.a.types.list.get(x.0 as usize), self.b.types.list.get(y.0 as usize)) else {
            return false;
        };
        match (tx, ty) {
            (Type::Struct { name: Some(n1), .. }, Type::Struct { name: Some(n2), .. }) => n1 == n2,
            (Type::Pointer { pointee: p1, addr_space: a1 }, Type::Pointer { pointee: p2, addr_space: a2 }) => {
                a1 == a2 && self.assume(x, y, |d| d.ty_eq(*p1, *p2))
            }
            (Type::Array { len: l1, elem: e1 }, Type::Array { len: l2, elem: e2 }) => {
                l1 == l2 && self.assume(x, y, |d| d.ty_eq(*e1, *e2))
            }
            (Type::Vector { len: l1, elem: e1 }, Type::Vector { len: l2, elem: e2 }) => {
                l1 == l2 && self.assume(x, y, |d| d.ty_eq(*e1, *e2))
            }
            (
                Type::Struct { name: None, packed: p1, opaque: o1, elems: e1 },
                Type::Struct { name: None, packed: p2, opaque: o2, elems: e2 },
            ) => p1 == p2 && o1 == o2 && self.assume(x, y, |d| d.tys_eq(e1, e2)),
            (
                Type::Function { ret: r1, params: p1, vararg: v1 },
                Type::Function { ret: r2, params: p2, vararg: v2 },
            ) => v1 == v2 && self.assume(x, y, |d| d.ty_eq(*r1, *r2) && d.tys_eq(p1, p2)),
            (t1, t2) => t1 == t2,
        }
    }

    fn assume(&mut self, x: TypeId, y: TypeId, f: impl FnOnce(&mut Self) -> bool) -> bool {
        self.types.insert((x, y));
        let r = f(self);
        if !r {
            self.types.remove(&(x, y));
        }
        r
    }

    fn tys_eq(&mut self, x: &[TypeId], y: &[TypeId]) -> bool {
        x.len() == y.len() && x.iter().zip(y).all(|(p, q)| self.ty_eq(*p, *q))
    }

    fn val_eq(&mut self, x: Value, y: Value) -> bool {
        match (x, y) {
            (Value::Const(c1), Value::Const(c2)) => self.const_eq(c1, c2),
            _ => x == y,
        }
    }

    fn vals_eq(&mut self, x: &[Value], y: &[Value]) -> bool {
        x.len() == y.len() && x.iter().zip(y).all(|(p, q)| self.val_eq(*p, *q))
    }

    fn const_eq(&mut self, x: ConstId, y: ConstId) -> bool {
        if self.consts.contains(&(x, y)) {
            return true;
        }
        let (Some(cx), Some(cy)) = (self.a.consts.get(x.index()), self.b.consts.get(y.index())) else {
            return false;
        };
        if !self.ty_eq(cx.ty, cy.ty) {
            return false;
        }
        let r = match (&cx.kind, &cy.kind) {
            (ConstKind::Aggregate(v1), ConstKind::Aggregate(v2)) => self.vals_eq(v1, v2),
            (ConstKind::Expr(e1), ConstKind::Expr(e2)) => self.expr_eq(e1, e2),
            (k1, k2) => k1 == k2,
        };
        if r {
            self.consts.insert((x, y));
        }
        r
    }

    fn expr_eq(&mut self, x: &ConstExpr, y: &ConstExpr) -> bool {
        use ConstExpr as E;
        match (x, y) {
            (E::Binary { op: o1, lhs: l1, rhs: r1, flags: f1 }, E::Binary { op: o2, lhs: l2, rhs: r2, flags: f2 }) => {
                o1 == o2 && f1 == f2 && self.val_eq(*l1, *l2) && self.val_eq(*r1, *r2)
            }
            (E::Cast { op: o1, value: v1 }, E::Cast { op: o2, value: v2 }) => o1 == o2 && self.val_eq(*v1, *v2),
            (
                E::Gep { inbounds: i1, source_ty: s1, base: b1, indices: x1 },
                E::Gep { inbounds: i2, source_ty: s2, base: b2, indices: x2 },
            ) => i1 == i2 && self.ty_eq(*s1, *s2) && self.val_eq(*b1, *b2) && self.vals_eq(x1, x2),
            (E::Select { cond: c1, if_true: t1, if_false: f1 }, E::Select { cond: c2, if_true: t2, if_false: f2 }) => {
                self.vals_eq(&[*c1, *t1, *f1], &[*c2, *t2, *f2])
            }
            (E::Cmp { pred: p1, lhs: l1, rhs: r1 }, E::Cmp { pred: p2, lhs: l2, rhs: r2 }) => {
                p1 == p2 && self.vals_eq(&[*l1, *r1], &[*l2, *r2])
            }
            (E::ExtractElement { vector: v1, index: i1 }, E::ExtractElement { vector: v2, index: i2 }) => {
                self.vals_eq(&[*v1, *i1], &[*v2, *i2])
            }
            (
                E::InsertElement { vector: v1, value: x1, index: i1 },
                E::InsertElement { vector: v2, value: x2, index: i2 },
            ) => self.vals_eq(&[*v1, *x1, *i1], &[*v2, *x2, *i2]),
            (E::ShuffleVector { a: a1, b: b1, mask: m1 }, E::ShuffleVector { a: a2, b: b2, mask: m2 }) => {
                self.vals_eq(&[*a1, *b1, *m1], &[*a2, *b2, *m2])
            }
            _ => false,
        }
    }

    fn opt_val_eq(&mut self, x: Option<Value>, y: Option<Value>) -> bool {
        match (x, y) {
            (Some(p), Some(q)) => self.val_eq(p, q),
            (None, None) => true,
            _ => false,
        }
    }

    fn module(&mut self) {
        let (a, b) = (self.a, self.b);
        if a.triple() != b.triple() {
            self.note(format!("target triple {:?} vs {:?}", a.triple(), b.triple()));
        }
        if a.datalayout() != b.datalayout() {
            self.note(format!("target datalayout {:?} vs {:?}", a.datalayout(), b.datalayout()));
        }
        self.named_structs();
        if a.globals.len() != b.globals.len() {
            self.note(format!("{} vs {} globals", a.globals.len(), b.globals.len()));
        }
        for (i, (g1, g2)) in a.globals.iter().zip(&b.globals).enumerate() {
            let same = g1.name == g2.name
                && g1.addr_space == g2.addr_space
                && g1.is_const == g2.is_const
                && g1.linkage == g2.linkage
                && g1.align == g2.align
                && g1.thread_local == g2.thread_local
                && g1.unnamed_addr == g2.unnamed_addr
                && self.ty_eq(g1.value_ty, g2.value_ty)
                && self.ty_eq(g1.ptr_ty, g2.ptr_ty)
                && self.opt_val_eq(g1.init, g2.init);
            if !same {
                self.note(format!("global #{i} @{} differs from @{}", g1.name, g2.name));
            }
        }
        if a.functions.len() != b.functions.len() {
            self.note(format!("{} vs {} functions", a.functions.len(), b.functions.len()));
        }
        for (f1, f2) in a.functions.iter().zip(&b.functions) {
            if self.full() {
                return;
            }
            self.function(f1, f2);
        }
        self.metadata();
    }

    fn named_structs(&mut self) {
        let named = |m: &'m Module| -> Vec<(&'m str, TypeId)> {
            let mut v: Vec<(&str, TypeId)> = m
                .types
                .iter()
                .filter_map(|(id, t)| match t {
                    Type::Struct { name: Some(n), .. } => Some((n.as_str(), id)),
                    _ => None,
                })
                .collect();
            v.sort();
            v.dedup_by(|x, y| x.0 == y.0);
            v
        };
        let (na, nb) = (named(self.a), named(self.b));
        let names = |v: &[(&str, TypeId)]| v.iter().map(|x| x.0.to_string()).collect::<Vec<_>>();
        if names(&na) != names(&nb) {
            self.note(format!("named structs {:?} vs {:?}", names(&na), names(&nb)));
            return;
        }
        for ((n, x), (_, y)) in na.iter().zip(&nb) {
            let (
                Type::Struct { packed: p1, opaque: o1, elems: e1, .. },
                Type::Struct { packed: p2, opaque: o2, elems: e2, .. },
            ) = (self.a.types.get(*x), self.b.types.get(*y))
            else {
                continue;
            };
            if p1 != p2 || o1 != o2 || !self.tys_eq(e1, e2) {
                self.note(format!("struct %{n} has different bodies"));
            }
        }
    }

    fn kind_name(m: &Module, kind: u32) -> &str {
        m.md_kind_name(kind).unwrap_or("?")
    }

    fn function(&mut self, f1: &Function, f2: &Function) {
        let (a, b) = (self.a, self.b);
        let at = format!("@{}", f1.name);
        let header = f1.name == f2.name
            && f1.is_declaration == f2.is_declaration
            && f1.linkage == f2.linkage
            && f1.callconv == f2.callconv
            && self.ty_eq(f1.ty, f2.ty)
            && self.ty_eq(f1.ptr_ty, f2.ptr_ty)
            && self.ty_eq(f1.ret_ty, f2.ret_ty)
            && self.tys_eq(&f1.param_tys, &f2.param_tys);
        if !header {
            self.note(format!("{at}: signature or header differs from @{}", f2.name));
            return;
        }
        if attr_sets(a, f1.attrs) != attr_sets(b, f2.attrs) {
            self.note(format!("{at}: attributes {:?} vs {:?}", attr_sets(a, f1.attrs), attr_sets(b, f2.attrs)));
        }
        if f1.blocks != f2.blocks {
            self.note(format!("{at}: blocks {:?} vs {:?}", f1.blocks, f2.blocks));
            return;
        }
        if f1.insts.len() != f2.insts.len() {
            self.note(format!("{at}: {} vs {} instructions", f1.insts.len(), f2.insts.len()));
            return;
        }
        for (k, (i1, i2)) in f1.insts.iter().zip(&f2.insts).enumerate() {
            if self.full() {
                return;
            }
            if i1.block != i2.block || !self.ty_eq(i1.ty, i2.ty) || !self.inst_eq(f1, f2, &i1.kind, &i2.kind) {
                let t1 = inst_text(a, f1, InstId(k as u32));
                let t2 = inst_text(b, f2, InstId(k as u32));
                self.note(format!("{at}: instruction {k} differs:\n    {t1}\n    {t2}"));
            }
        }
        let att = |m: &Module, f: &Function| -> Vec<(u32, String, u32)> {
            f.attachments.iter().map(|x| (x.inst.0, Self::kind_name(m, x.kind).to_string(), x.md.0)).collect()
        };
        if att(a, f1) != att(b, f2) {
            self.note(format!("{at}: attachments {:?} vs {:?}", att(a, f1), att(b, f2)));
        }
        let fatt = |m: &Module, f: &Function| -> Vec<(String, u32)> {
            f.fn_attachments.iter().map(|x| (Self::kind_name(m, x.0).to_string(), x.1 .0)).collect()
        };
        if fatt(a, f1) != fatt(b, f2) {
            self.note(format!("{at}: function attachments {:?} vs {:?}", fatt(a, f1), fatt(b, f2)));
        }
        let names = |f: &Function| {
            let mut v: Vec<String> = f.names.iter().map(|(n, s)| format!("{n:?}={s}")).collect();
            v.sort();
            v
        };
        if names(f1) != names(f2) {
            self.note(format!("{at}: local names {:?} vs {:?}", names(f1), names(f2)));
        }
    }

    fn inst_eq(&mut self, f1: &Function, f2: &Function, x: &InstKind, y: &InstKind) -> bool {
        use InstKind as K;
        match (x, y) {
            (K::Binary { op: o1, lhs: l1, rhs: r1, flags: g1 }, K::Binary { op: o2, lhs: l2, rhs: r2, flags: g2 }) => {
                o1 == o2 && g1 == g2 && self.vals_eq(&[*l1, *r1], &[*l2, *r2])
            }
            (K::Cast { op: o1, value: v1 }, K::Cast { op: o2, value: v2 }) => o1 == o2 && self.val_eq(*v1, *v2),
            (K::Cmp { pred: p1, lhs: l1, rhs: r1, flags: g1 }, K::Cmp { pred: p2, lhs: l2, rhs: r2, flags: g2 }) => {
                p1 == p2 && g1 == g2 && self.vals_eq(&[*l1, *r1], &[*l2, *r2])
            }
            (K::Select { cond: c1, if_true: t1, if_false: e1 }, K::Select { cond: c2, if_true: t2, if_false: e2 }) => {
                self.vals_eq(&[*c1, *t1, *e1], &[*c2, *t2, *e2])
            }
            (K::Phi { incoming: i1 }, K::Phi { incoming: i2 }) => {
                let (p1, p2) = (f1.phis(*i1), f2.phis(*i2));
                p1.len() == p2.len() && p1.iter().zip(p2).all(|(u, v)| u.1 == v.1 && self.val_eq(u.0, v.0))
            }
            (
                K::Call { callee: c1, fn_ty: t1, args: a1, attrs: x1, tail: l1 },
                K::Call { callee: c2, fn_ty: t2, args: a2, attrs: x2, tail: l2 },
            ) => {
                l1 == l2
                    && attr_sets(self.a, *x1) == attr_sets(self.b, *x2)
                    && self.ty_eq(*t1, *t2)
                    && self.val_eq(*c1, *c2)
                    && self.vals_eq(f1.values(*a1), f2.values(*a2))
            }
            (
                K::DxOp { op: o1, overload: v1, callee: c1, args: a1 },
                K::DxOp { op: o2, overload: v2, callee: c2, args: a2 },
            ) => o1 == o2 && v1 == v2 && c1 == c2 && self.vals_eq(f1.values(*a1), f2.values(*a2)),
            (K::Alloca { alloc_ty: t1, count: c1, align: a1 }, K::Alloca { alloc_ty: t2, count: c2, align: a2 }) => {
                a1 == a2 && self.ty_eq(*t1, *t2) && self.val_eq(*c1, *c2)
            }
            (K::Load { ptr: p1, align: a1, volatile: v1 }, K::Load { ptr: p2, align: a2, volatile: v2 }) => {
                a1 == a2 && v1 == v2 && self.val_eq(*p1, *p2)
            }
            (
                K::Store { ptr: p1, value: x1, align: a1, volatile: v1 },
                K::Store { ptr: p2, value: x2, align: a2, volatile: v2 },
            ) => a1 == a2 && v1 == v2 && self.vals_eq(&[*p1, *x1], &[*p2, *x2]),
            (
                K::Gep { inbounds: i1, source_ty: s1, base: b1, indices: x1 },
                K::Gep { inbounds: i2, source_ty: s2, base: b2, indices: x2 },
            ) => {
                i1 == i2
                    && self.ty_eq(*s1, *s2)
                    && self.val_eq(*b1, *b2)
                    && self.vals_eq(f1.values(*x1), f2.values(*x2))
            }
            (K::ExtractValue { agg: a1, indices: i1 }, K::ExtractValue { agg: a2, indices: i2 }) => {
                f1.indices(*i1) == f2.indices(*i2) && self.val_eq(*a1, *a2)
            }
            (
                K::InsertValue { agg: a1, value: v1, indices: i1 },
                K::InsertValue { agg: a2, value: v2, indices: i2 },
            ) => f1.indices(*i1) == f2.indices(*i2) && self.vals_eq(&[*a1, *v1], &[*a2, *v2]),
            (K::ExtractElement { vector: v1, index: i1 }, K::ExtractElement { vector: v2, index: i2 }) => {
                self.vals_eq(&[*v1, *i1], &[*v2, *i2])
            }
            (
                K::InsertElement { vector: v1, value: x1, index: i1 },
                K::InsertElement { vector: v2, value: x2, index: i2 },
            ) => self.vals_eq(&[*v1, *x1, *i1], &[*v2, *x2, *i2]),
            (K::ShuffleVector { a: a1, b: b1, mask: m1 }, K::ShuffleVector { a: a2, b: b2, mask: m2 }) => {
                self.vals_eq(&[*a1, *b1, *m1], &[*a2, *b2, *m2])
            }
            (
                K::AtomicRmw { op: o1, ptr: p1, value: v1, volatile: l1, ordering: r1, single_thread: s1 },
                K::AtomicRmw { op: o2, ptr: p2, value: v2, volatile: l2, ordering: r2, single_thread: s2 },
            ) => o1 == o2 && l1 == l2 && r1 == r2 && s1 == s2 && self.vals_eq(&[*p1, *v1], &[*p2, *v2]),
            (
                K::CmpXchg {
                    ptr: p1,
                    cmp: c1,
                    new: n1,
                    volatile: l1,
                    success: s1,
                    failure: e1,
                    single_thread: t1,
                    weak: w1,
                },
                K::CmpXchg {
                    ptr: p2,
                    cmp: c2,
                    new: n2,
                    volatile: l2,
                    success: s2,
                    failure: e2,
                    single_thread: t2,
                    weak: w2,
                },
            ) => (l1, s1, e1, t1, w1) == (l2, s2, e2, t2, w2) && self.vals_eq(&[*p1, *c1, *n1], &[*p2, *c2, *n2]),
            (K::Switch { cond: c1, default: d1, cases: x1 }, K::Switch { cond: c2, default: d2, cases: x2 }) => {
                let (k1, k2) = (f1.cases(*x1), f2.cases(*x2));
                d1 == d2
                    && self.val_eq(*c1, *c2)
                    && k1.len() == k2.len()
                    && k1.iter().zip(k2).all(|(u, v)| u.1 == v.1 && self.const_eq(u.0, v.0))
            }
            (K::CondBr { cond: c1, if_true: t1, if_false: e1 }, K::CondBr { cond: c2, if_true: t2, if_false: e2 }) => {
                t1 == t2 && e1 == e2 && self.val_eq(*c1, *c2)
            }
            (K::Ret { value: v1 }, K::Ret { value: v2 }) => self.opt_val_eq(*v1, *v2),
            (K::Fence { .. }, K::Fence { .. }) | (K::Br { .. }, K::Br { .. }) | (K::Unreachable, K::Unreachable) => {
                x == y
            }
            _ => false,
        }
    }

    fn metadata(&mut self) {
        let (a, b) = (self.a, self.b);
        if a.metadata.len() != b.metadata.len() {
            self.note(format!("{} vs {} metadata entries", a.metadata.len(), b.metadata.len()));
        }
        for (i, (m1, m2)) in a.metadata.iter().zip(&b.metadata).enumerate() {
            let same = match (m1, m2) {
                (Metadata::String(s1), Metadata::String(s2)) => a.str(*s1) == b.str(*s2),
                (Metadata::Node { distinct: d1, ops: o1 }, Metadata::Node { distinct: d2, ops: o2 }) => {
                    d1 == d2 && a.md_ops(*o1) == b.md_ops(*o2)
                }
                (Metadata::Value { ty: t1, value: v1 }, Metadata::Value { ty: t2, value: v2 }) => {
                    self.ty_eq(*t1, *t2) && self.val_eq(*v1, *v2)
                }
                (x, y) => x == y,
            };
            if !same {
                self.note(format!("metadata !{i} differs"));
            }
        }
        let named = |m: &Module| -> Vec<(String, Vec<MdId>)> {
            m.named_mds().map(|n| (n.name.to_string(), n.ops.to_vec())).collect()
        };
        if named(a) != named(b) {
            self.note(format!("named metadata {:?} vs {:?}", named(a), named(b)));
        }
    }
}

/// One instruction as the printer writes it (for difference reports).
fn inst_text(m: &Module, f: &Function, id: InstId) -> String {
    let text = super::print::print_function(m, f);
    let mut k = 0usize;
    for line in text.lines() {
        let t = line.trim_start();
        if line.starts_with("  ") && !t.is_empty() {
            if k == id.index() {
                return t.to_string();
            }
            k += 1;
        }
    }
    format!("instruction {}", id.0)
}
