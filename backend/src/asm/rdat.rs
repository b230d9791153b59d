//! `RDAT` for assembled libraries: the runtime data part DXC writes for
//! `lib_*` modules (`container::rdat` reads it), made from the module.
//!
//! - State subobjects come from `!dx.subobjects`, the form DXC keeps them in
//!   while a library is being compiled or linked: one node per subobject,
//!   `!{!"name", i32 kind, …}` with, per kind, `i32 flags` (0, state object
//!   config); `!{[N x i8] bytes}, !"text"` (1 global, 2 local root signature,
//!   serialized RTS0); `!"subobject", !{!"export", …}` (8, association);
//!   `i32 payload, i32 attributes` (9, shader config); `i32 depth` (10,
//!   pipeline config); `i32 type, !"intersection", !"anyhit", !"closesthit"`
//!   (11, hit group); `i32 depth, i32 flags` (12, pipeline config 1). DXC
//!   moves them into `RDAT` and strips them from the module it writes into
//!   the `DXIL` part; [`without_named_md`] does the same here.
//! - The function table lists every defined function in module order: its
//!   name, plain export name, shader kind, payload and attribute sizes (entry
//!   properties), the resources it uses and the external functions it calls;
//!   the resource table lists CBVs, samplers, SRVs, UAVs in that order.
//! - Parts, strings, index arrays and raw bytes are laid out and shared as DXC
//!   does (strings and raw bytes once each; index arrays once each from
//!   validator 1.7; function records of 52 bytes from validator 1.8, else 44).
//!
//! Not made: per-function feature flags (`FeatureInfo1/2`, 0 here; DXC sets
//! them from the ops a function uses), the stage mask and minimum shader model
//! of non-entry functions (all stages and 6.0 here; DXC narrows them by the
//! ops used; an entry's are its own stage and its kind's first shader model),
//! and the shader-info records DXC adds for node, graphics and compute
//! entries of newer libraries (their reference is left null).

use std::collections::HashMap;
use std::fmt::Write as _;

use crate::container::rdat::{HitGroupType, Subobject, SubobjectData};
use crate::dxil::library::export_name;
use crate::dxil::DxilModuleInfo;
use crate::ir::{ConstExpr, ConstKind, MdId, Metadata, Module, Value};
use crate::ShaderKind;

/// The named metadata DXC keeps subobjects in.
pub const SUBOBJECTS_MD: &str = "dx.subobjects";

/// A `!dx.subobjects` entry that does not say a subobject.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("!dx.subobjects operand {index}{}: {rule}", name.as_ref().map(|n| format!(" (`{n}`)")).unwrap_or_default())]
pub struct SubobjectError {
    /// The operand of `!dx.subobjects`.
    pub index: usize,
    /// The subobject's name, when it was read.
    pub name: Option<String>,
    pub rule: String,
}

/// Reads the operands of one subobject node.
struct Ops<'m> {
    m: &'m Module,
    ops: &'m [Option<MdId>],
    index: usize,
    name: Option<String>,
}

impl<'m> Ops<'m> {
    fn err(&self, rule: impl Into<String>) -> SubobjectError {
        SubobjectError { index: self.index, name: self.name.clone(), rule: rule.into() }
    }

    fn op(&self, k: usize, what: &str) -> Result<MdId, SubobjectError> {
        match self.ops.get(k) {
            Some(Some(id)) => Ok(*id),
            Some(None) => Err(self.err(format!("operand {k} ({what}) is null"))),
            None => Err(self.err(format!("operand {k} ({what}) is missing"))),
        }
    }

    fn string(&self, k: usize, what: &str) -> Result<String, SubobjectError> {
        let id = self.op(k, what)?;
        self.m
            .md_string(id)
            .map(str::to_string)
            .ok_or_else(|| self.err(format!("operand {k} ({what}) is not a string")))
    }

    fn u32(&self, k: usize, what: &str) -> Result<u32, SubobjectError> {
        let id = self.op(k, what)?;
        let v = match self.m.metadata.get(id.index()) {
            Some(Metadata::Value { value, .. }) => self.m.const_uint(*value),
            _ => None,
        };
        v.and_then(|v| u32::try_from(v).ok())
            .ok_or_else(|| self.err(format!("operand {k} ({what}) is not a 32-bit integer constant")))
    }

    fn node(&self, k: usize, what: &str) -> Result<&'m [Option<MdId>], SubobjectError> {
        let id = self.op(k, what)?;
        self.m.md_node(id).ok_or_else(|| self.err(format!("operand {k} ({what}) is not a node")))
    }

    /// `!{[N x i8] …}`: the bytes of a serialized root signature.
    fn bytes(&self, k: usize, what: &str) -> Result<Vec<u8>, SubobjectError> {
        let wrapper = self.node(k, what)?;
        let bad = || self.err(format!("operand {k} ({what}) is not `!{{[N x i8] …}}`"));
        let [Some(id)] = wrapper else { return Err(bad()) };
        let Some(Metadata::Value { ty, value: Value::Const(c) }) = self.m.metadata.get(id.index()) else {
            return Err(bad());
        };
        let (len, elem) = match self.m.types.get(*ty) {
            crate::ir::Type::Array { len, elem } => (*len, *elem),
            _ => return Err(bad()),
        };
        if self.m.types.get(elem).scalar_bits() != Some(8) || !self.m.types.get(elem).is_int() {
            return Err(bad());
        }
        let c = self.m.konst(*c);
        let bytes: Vec<u8> = match &c.kind {
            ConstKind::Data(d) => d.iter().map(|&b| b as u8).collect(),
            ConstKind::Null => vec![0; len as usize],
            ConstKind::Aggregate(vs) => vs
                .iter()
                .map(|v| self.m.const_uint(*v).map(|b| b as u8))
                .collect::<Option<Vec<u8>>>()
                .ok_or_else(bad)?,
            _ => return Err(bad()),
        };
        if bytes.len() as u64 != len {
            return Err(bad());
        }
        if !bytes.len().is_multiple_of(4) {
            return Err(self.err(format!("operand {k} ({what}): {} bytes, not a multiple of 4", bytes.len())));
        }
        crate::container::RootSignature::parse(&bytes)
            .map_err(|e| self.err(format!("operand {k} ({what}) is not a serialized root signature: {e}")))?;
        Ok(bytes)
    }

    fn arity(&self, n: usize) -> Result<(), SubobjectError> {
        if self.ops.len() == n {
            Ok(())
        } else {
            Err(self.err(format!("{} operands, {n} expected for this kind", self.ops.len())))
        }
    }
}

/// The subobjects of `!dx.subobjects`, in its order (none without it).
pub fn subobjects(m: &Module) -> Result<Vec<Subobject>, SubobjectError> {
    let Some(named) = m.named_md(SUBOBJECTS_MD) else { return Ok(Vec::new()) };
    let mut out: Vec<Subobject> = Vec::with_capacity(named.ops.len());
    for (index, &id) in named.ops.iter().enumerate() {
        let Some(ops) = m.md_node(id) else {
            return Err(SubobjectError { index, name: None, rule: "not a node".into() });
        };
        let mut o = Ops { m, ops, index, name: None };
        let name = o.string(0, "name")?;
        o.name = Some(name.clone());
        if out.iter().any(|s| s.name == name) {
            return Err(o.err("a second subobject of this name"));
        }
        let kind = o.u32(1, "kind")?;
        let data = match kind {
            0 => {
                o.arity(3)?;
                SubobjectData::StateObjectConfig { flags: o.u32(2, "flags")? }
            }
            1 | 2 => {
                o.arity(4)?;
                let data = o.bytes(2, "serialized root signature")?;
                o.string(3, "root signature text")?;
                if kind == 1 {
                    SubobjectData::GlobalRootSignature { data }
                } else {
                    SubobjectData::LocalRootSignature { data }
                }
            }
            8 => {
                o.arity(4)?;
                let subobject = o.string(2, "subobject")?;
                let list = o.node(3, "exports")?;
                let exports = (0..list.len())
                    .map(|k| {
                        list[k]
                            .and_then(|id| m.md_string(id))
                            .map(str::to_string)
                            .ok_or_else(|| o.err(format!("export {k} of the association is not a string")))
                    })
                    .collect::<Result<Vec<String>, _>>()?;
                SubobjectData::SubobjectToExportsAssociation { subobject, exports }
            }
            9 => {
                o.arity(4)?;
                SubobjectData::RaytracingShaderConfig {
                    max_payload_size: o.u32(2, "max payload size")?,
                    max_attribute_size: o.u32(3, "max attribute size")?,
                }
            }
            10 => {
                o.arity(3)?;
                SubobjectData::RaytracingPipelineConfig { max_trace_recursion_depth: o.u32(2, "max recursion depth")? }
            }
            11 => {
                o.arity(6)?;
                let hit_group_type = match o.u32(2, "hit group type")? {
                    0 => HitGroupType::Triangles,
                    1 => HitGroupType::ProceduralPrimitive,
                    t => return Err(o.err(format!("hit group type {t} (0 triangles, 1 procedural)"))),
                };
                SubobjectData::HitGroup {
                    hit_group_type,
                    intersection: o.string(3, "intersection export")?,
                    any_hit: o.string(4, "any-hit export")?,
                    closest_hit: o.string(5, "closest-hit export")?,
                }
            }
            12 => {
                o.arity(4)?;
                SubobjectData::RaytracingPipelineConfig1 {
                    max_trace_recursion_depth: o.u32(2, "max recursion depth")?,
                    flags: o.u32(3, "flags")?,
                }
            }
            k => return Err(o.err(format!("subobject kind {k} (0-2, 8-12 are subobjects a library holds)"))),
        };
        out.push(Subobject { name, data });
    }
    Ok(out)
}

/// `!dx.subobjects` text for `subs` (DXC's form, which [`subobjects`] reads),
/// its nodes numbered from `first`: what `dxjit dis` appends to a library's
/// module text so that `dxjit asm` makes the same `RDAT` again. Root
/// signatures print with empty text (`RDAT` keeps only their bytes).
/// Subobjects of kinds this reader does not know print as comments.
pub fn subobjects_text(subs: &[Subobject], first: usize) -> String {
    let mut nodes: Vec<String> = Vec::new();
    let mut top: Vec<usize> = Vec::new();
    let q = |s: &str| {
        let mut t = String::from("!");
        crate::ir::print::write_string(s.as_bytes(), &mut t);
        t
    };
    let mut skipped = String::new();
    for s in subs {
        let n = q(&s.name);
        let body = match &s.data {
            SubobjectData::StateObjectConfig { flags } => format!("{n}, i32 0, i32 {flags}"),
            SubobjectData::GlobalRootSignature { data } | SubobjectData::LocalRootSignature { data } => {
                let kind = if matches!(s.data, SubobjectData::GlobalRootSignature { .. }) { 1 } else { 2 };
                let mut b = format!("!{{[{} x i8] c", data.len());
                crate::ir::print::write_string(data, &mut b);
                b.push('}');
                nodes.push(b);
                format!("{n}, i32 {kind}, !{}, !\"\"", first + nodes.len() - 1)
            }
            SubobjectData::SubobjectToExportsAssociation { subobject, exports } => {
                let list: Vec<String> = exports.iter().map(|e| q(e)).collect();
                nodes.push(format!("!{{{}}}", list.join(", ")));
                format!("{n}, i32 8, {}, !{}", q(subobject), first + nodes.len() - 1)
            }
            SubobjectData::RaytracingShaderConfig { max_payload_size, max_attribute_size } => {
                format!("{n}, i32 9, i32 {max_payload_size}, i32 {max_attribute_size}")
            }
            SubobjectData::RaytracingPipelineConfig { max_trace_recursion_depth } => {
                format!("{n}, i32 10, i32 {max_trace_recursion_depth}")
            }
            SubobjectData::HitGroup { hit_group_type, any_hit, closest_hit, intersection } => {
                let t = match hit_group_type {
                    HitGroupType::Triangles => 0,
                    HitGroupType::ProceduralPrimitive => 1,
                };
                format!("{n}, i32 11, i32 {t}, {}, {}, {}", q(intersection), q(any_hit), q(closest_hit))
            }
            SubobjectData::RaytracingPipelineConfig1 { max_trace_recursion_depth, flags } => {
                format!("{n}, i32 12, i32 {max_trace_recursion_depth}, i32 {flags}")
            }
            SubobjectData::Other { code } => {
                let _ = writeln!(skipped, "; subobject {n} of kind {code} is not printed (not a kind dxjit reads)");
                continue;
            }
        };
        nodes.push(format!("!{{{body}}}"));
        top.push(first + nodes.len() - 1);
    }
    let mut out = skipped;
    if top.is_empty() {
        return out;
    }
    let list: Vec<String> = top.iter().map(|k| format!("!{k}")).collect();
    let _ = writeln!(out, "!{SUBOBJECTS_MD} = !{{{}}}", list.join(", "));
    for (k, n) in nodes.iter().enumerate() {
        let _ = writeln!(out, "!{} = {n}", first + k);
    }
    out
}

/// `m` without the named metadata `name` and the metadata only it reached
/// (the rest keeps its order), as LLVM writes a module after the node is erased.
pub fn without_named_md(m: &Module, name: &str) -> Module {
    let mut live = vec![false; m.metadata.len()];
    let mut stack: Vec<MdId> = Vec::new();
    for n in m.named_mds().filter(|n| n.name != name) {
        stack.extend_from_slice(n.ops);
    }
    for f in &m.functions {
        stack.extend(f.attachments.iter().map(|a| a.md));
        stack.extend(f.fn_attachments.iter().map(|a| a.1));
        stack.extend(f.value_pool.iter().filter_map(|v| match v {
            Value::Metadata(id) => Some(*id),
            _ => None,
        }));
    }
    while let Some(id) = stack.pop() {
        let Some(l) = live.get_mut(id.index()) else { continue };
        if std::mem::replace(l, true) {
            continue;
        }
        if let Some(ops) = m.md_node(id) {
            stack.extend(ops.iter().flatten());
        }
    }
    let mut map = vec![None; m.metadata.len()];
    let mut next = 0u32;
    for (k, l) in live.iter().enumerate() {
        if *l {
            map[k] = Some(MdId(next));
            next += 1;
        }
    }
    let re = |id: MdId| map.get(id.index()).copied().flatten().unwrap_or(id);
    let mut out = m.clone();
    out.metadata.clear();
    out.md_ops.clear();
    for (k, md) in m.metadata.iter().enumerate() {
        if !live[k] {
            continue;
        }
        let md = match md {
            Metadata::Node { distinct, ops } => {
                let ops: Vec<Option<MdId>> = m.md_ops(*ops).iter().map(|o| o.map(re)).collect();
                out.new_md_node(*distinct, &ops)
            }
            other => other.clone(),
        };
        out.metadata.push(md);
    }
    let named: Vec<(String, Vec<MdId>)> = m
        .named_mds()
        .filter(|n| n.name != name)
        .map(|n| (n.name.to_string(), n.ops.iter().map(|&id| re(id)).collect()))
        .collect();
    out.named_metadata.clear();
    out.named_md_ops.clear();
    for (n, ops) in &named {
        out.add_named_md(n, ops);
    }
    for f in &mut out.functions {
        for a in &mut f.attachments {
            a.md = re(a.md);
        }
        for a in &mut f.fn_attachments {
            a.1 = re(a.1);
        }
        for v in &mut f.value_pool {
            if let Value::Metadata(id) = v {
                *id = re(*id);
            }
        }
    }
    out
}

/// The pieces of an `RDAT` part as DXC's builder makes them.
#[derive(Default)]
struct Builder {
    strings: Vec<u8>,
    string_at: HashMap<String, u32>,
    index: Vec<u32>,
    index_at: HashMap<Vec<u32>, u32>,
    dedup_arrays: bool,
    raw: Vec<u8>,
    raw_at: HashMap<Vec<u8>, u32>,
}

const NULL_REF: u32 = u32::MAX;

impl Builder {
    fn string(&mut self, s: &str) -> u32 {
        if let Some(&at) = self.string_at.get(s) {
            return at;
        }
        let at = self.strings.len() as u32;
        self.strings.extend_from_slice(s.as_bytes());
        self.strings.push(0);
        self.string_at.insert(s.to_string(), at);
        at
    }

    fn array(&mut self, items: &[u32]) -> u32 {
        if self.dedup_arrays {
            if let Some(&at) = self.index_at.get(items) {
                return at;
            }
        }
        let at = self.index.len() as u32;
        self.index.push(items.len() as u32);
        self.index.extend_from_slice(items);
        if self.dedup_arrays {
            self.index_at.insert(items.to_vec(), at);
        }
        at
    }

    fn raw(&mut self, bytes: &[u8]) -> u32 {
        if let Some(&at) = self.raw_at.get(bytes) {
            return at;
        }
        let at = self.raw.len() as u32;
        self.raw.extend_from_slice(bytes);
        self.raw_at.insert(bytes.to_vec(), at);
        at
    }
}

fn words(w: &[u32]) -> Vec<u8> {
    w.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn table(records: &[Vec<u32>], stride_words: usize) -> Vec<u8> {
    let mut out = words(&[records.len() as u32, (stride_words * 4) as u32]);
    for r in records {
        let mut r = r.clone();
        r.resize(stride_words, 0);
        out.extend(words(&r));
    }
    out
}

/// The operand values of `f`'s instructions.
fn operand_values(f: &crate::ir::Function) -> Vec<Value> {
    let mut out = Vec::new();
    for k in 0..f.insts.len() {
        f.for_each_operand(crate::ir::InstId(k as u32), |v| out.push(v));
    }
    out
}

/// Whether `v` is global `g` or a constant expression or aggregate containing it.
fn names_global(m: &Module, v: Value, g: crate::ir::GlobalId, depth: u32) -> bool {
    match v {
        Value::Global(x) => x == g,
        Value::Const(c) if depth < 64 => {
            let Some(c) = m.consts.get(c.index()) else { return false };
            let sub = |vs: &[Value]| vs.iter().any(|&v| names_global(m, v, g, depth + 1));
            match &c.kind {
                ConstKind::Aggregate(vs) => sub(vs),
                ConstKind::Expr(e) => match e {
                    ConstExpr::Binary { lhs, rhs, .. } | ConstExpr::Cmp { lhs, rhs, .. } => sub(&[*lhs, *rhs]),
                    ConstExpr::Cast { value, .. } => sub(&[*value]),
                    ConstExpr::Gep { base, indices, .. } => sub(&[*base]) || sub(indices),
                    ConstExpr::Select { cond, if_true, if_false } => sub(&[*cond, *if_true, *if_false]),
                    ConstExpr::ExtractElement { vector, index } => sub(&[*vector, *index]),
                    ConstExpr::InsertElement { vector, value, index } => sub(&[*vector, *value, *index]),
                    ConstExpr::ShuffleVector { a, b, mask } => sub(&[*a, *b, *mask]),
                },
                _ => false,
            }
        }
        _ => false,
    }
}

/// The first shader model (major, minor) of a shader kind.
fn first_shader_model(kind: ShaderKind) -> (u32, u32) {
    use ShaderKind::*;
    match kind {
        RayGeneration | Intersection | AnyHit | ClosestHit | Miss | Callable => (6, 3),
        Mesh | Amplification => (6, 5),
        Node => (6, 8),
        _ => (6, 0),
    }
}

/// The `RDAT` payload of library module `m` (`info` its metadata) with subobjects `subs`.
pub fn rdat_part(m: &Module, info: &DxilModuleInfo, subs: &[Subobject]) -> Vec<u8> {
    let val = info.validator_version.unwrap_or((1, 8));
    let mut b = Builder { dedup_arrays: val >= (1, 7), ..Default::default() };
    b.string("");

    // Resources: CBVs, samplers, SRVs, UAVs; which functions use each.
    let r = &info.resources;
    let mut resources: Vec<Vec<u32>> = Vec::new();
    let mut used_by: Vec<Vec<u32>> = vec![Vec::new(); m.functions.len()];
    let operands: Vec<Vec<Value>> = m.functions.iter().map(operand_values).collect();
    let classes = r
        .cbvs
        .iter()
        .map(|c| (2u32, 13u32, &c.binding, 0u32))
        .chain(r.samplers.iter().map(|s| (3, 14, &s.binding, 0)))
        .chain(r.srvs.iter().map(|s| (0, s.kind.to_u32(), &s.binding, 0)))
        .chain(r.uavs.iter().map(|u| {
            let flags = u32::from(u.globally_coherent)
                | u32::from(u.has_counter) << 1
                | u32::from(u.rasterizer_ordered) << 2
                | u32::from(u.props.atomic64_use) << 4;
            (1, u.kind.to_u32(), &u.binding, flags)
        }));
    for (k, (class, kind, binding, flags)) in classes.enumerate() {
        let name = b.string(&binding.name);
        let upper = match binding.range_size {
            Some(n) => binding.lower_bound.wrapping_add(n.wrapping_sub(1)),
            None => u32::MAX,
        };
        resources.push(vec![class, kind, binding.id, binding.space, binding.lower_bound, upper, name, flags]);
        if let Some(g) = binding.global {
            for (fi, f) in m.functions.iter().enumerate() {
                if !f.is_declaration && operands[fi].iter().any(|&v| names_global(m, v, g, 0)) {
                    used_by[fi].push(k as u32);
                }
            }
        }
    }

    // External functions each function calls (not dx.op or LLVM intrinsics).
    let mut deps: Vec<Vec<u32>> = vec![Vec::new(); m.functions.len()];
    for (ci, callee) in m.functions.iter().enumerate() {
        let external = callee.is_declaration
            && callee.linkage == 0
            && !callee.name.starts_with("dx.op.")
            && !callee.name.starts_with("llvm.");
        if !external {
            continue;
        }
        for (fi, f) in m.functions.iter().enumerate() {
            if !f.is_declaration && operands[fi].contains(&Value::Function(crate::ir::FuncId(ci as u32))) {
                let s = b.string(&callee.name);
                if !deps[fi].contains(&s) {
                    deps[fi].push(s);
                }
            }
        }
    }

    // Functions.
    let stride = if val >= (1, 8) { 13 } else { 11 };
    let mut functions: Vec<Vec<u32>> = Vec::new();
    for (fi, f) in m.functions.iter().enumerate() {
        if f.is_declaration {
            continue;
        }
        let name = b.string(&f.name);
        let plain = b.string(export_name(&f.name));
        let res = if used_by[fi].is_empty() { NULL_REF } else { b.array(&used_by[fi]) };
        let dep = if deps[fi].is_empty() { NULL_REF } else { b.array(&deps[fi]) };
        let entry = info.functions().find(|e| e.function.map(|id| id.index()) == Some(fi));
        let props = entry.map(|e| &e.properties);
        let kind = props.and_then(|p| p.shader_kind).unwrap_or(ShaderKind::Library);
        let payload = props.and_then(|p| p.ray_payload_size).unwrap_or(0);
        let attrib = props.and_then(|p| p.ray_attrib_size).unwrap_or(0);
        let (payload, attrib) = match kind {
            ShaderKind::ClosestHit | ShaderKind::AnyHit => (payload, attrib),
            ShaderKind::Miss | ShaderKind::Callable => (payload, 0),
            _ => (0, 0),
        };
        let (mask, (major, minor)) = if kind == ShaderKind::Library {
            (0xFFFF, (6, 0))
        } else {
            (1u32 << kind as u32, first_shader_model(kind))
        };
        let target = ((kind as u32) << 16) | (major << 4) | minor;
        let mut rec = vec![name, plain, res, dep, kind as u32, payload, attrib, 0, 0, mask, target];
        if stride == 13 {
            let wave = props.and_then(|p| p.wave_size.as_ref());
            let (min, max) = match wave {
                Some(w) => (w.min, w.max.unwrap_or(w.min)),
                None => (0, 0),
            };
            rec.push((min & 0xFF) | (max & 0xFF) << 8);
            rec.push(NULL_REF);
        }
        functions.push(rec);
    }

    // Subobjects.
    let mut objects: Vec<Vec<u32>> = Vec::new();
    for s in subs {
        let name = b.string(&s.name);
        let rec = match &s.data {
            SubobjectData::StateObjectConfig { flags } => vec![0, name, *flags],
            SubobjectData::GlobalRootSignature { data } => vec![1, name, b.raw(data), data.len() as u32],
            SubobjectData::LocalRootSignature { data } => vec![2, name, b.raw(data), data.len() as u32],
            SubobjectData::SubobjectToExportsAssociation { subobject, exports } => {
                let so = b.string(subobject);
                let list: Vec<u32> = exports.iter().map(|e| b.string(e)).collect();
                vec![8, name, so, b.array(&list)]
            }
            SubobjectData::RaytracingShaderConfig { max_payload_size, max_attribute_size } => {
                vec![9, name, *max_payload_size, *max_attribute_size]
            }
            SubobjectData::RaytracingPipelineConfig { max_trace_recursion_depth } => {
                vec![10, name, *max_trace_recursion_depth]
            }
            SubobjectData::HitGroup { hit_group_type, any_hit, closest_hit, intersection } => {
                let t = match hit_group_type {
                    HitGroupType::Triangles => 0,
                    HitGroupType::ProceduralPrimitive => 1,
                };
                vec![11, name, t, b.string(any_hit), b.string(closest_hit), b.string(intersection)]
            }
            SubobjectData::RaytracingPipelineConfig1 { max_trace_recursion_depth, flags } => {
                vec![12, name, *max_trace_recursion_depth, *flags]
            }
            SubobjectData::Other { code } => vec![*code, name],
        };
        objects.push(rec);
    }

    // Parts in the order DXC's builder makes them; empty ones are left out.
    let mut strings = b.strings.clone();
    while !strings.len().is_multiple_of(4) {
        strings.push(0);
    }
    let mut raw = b.raw.clone();
    while !raw.len().is_multiple_of(4) {
        raw.push(0);
    }
    let mut parts: Vec<(u32, Vec<u8>)> = vec![(1, strings)];
    if !resources.is_empty() {
        parts.push((3, table(&resources, 8)));
    }
    if !functions.is_empty() {
        parts.push((4, table(&functions, stride)));
    }
    if !b.index.is_empty() {
        parts.push((2, words(&b.index)));
    }
    if !raw.is_empty() {
        parts.push((5, raw));
    }
    if !objects.is_empty() {
        parts.push((6, table(&objects, 6)));
    }
    let mut out = words(&[0x10, parts.len() as u32]);
    let mut at = 8 + 4 * parts.len();
    for (_, p) in &parts {
        out.extend(words(&[at as u32]));
        at += 8 + p.len();
    }
    for (t, p) in &parts {
        out.extend(words(&[*t, p.len() as u32]));
        out.extend_from_slice(p);
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::container::rdat::{HitGroupType, Rdat, SubobjectData};
    use crate::container::Container;
    use crate::ShaderKind;

    /// A library with a raygen export and a closest hit reading a UAV, and `extra` metadata text.
    fn library(extra: &str) -> String {
        format!(
            r#"target triple = "dxil-ms-dx"
%u = type {{ i32 }}
%dx.types.Handle = type {{ i8* }}
@"\01?Out@@3UU@@A" = constant %u, align 4
define void @"\01?RayGen@@YAXXZ"() {{
  ret void
}}
define void @"\01?Hit@@YAXUP@@UA@@@Z"(%u* %p, %u* %a) {{
  %0 = load %u, %u* @"\01?Out@@3UU@@A", align 4
  %1 = call %dx.types.Handle @dx.op.createHandleForLib.u(i32 160, %u %0)
  ret void
}}
declare %dx.types.Handle @dx.op.createHandleForLib.u(i32, %u) #1
attributes #1 = {{ nounwind readonly }}
!dx.version = !{{!0}}
!dx.valver = !{{!1}}
!dx.shaderModel = !{{!2}}
!dx.resources = !{{!6}}
!dx.entryPoints = !{{!3, !4, !9}}
!0 = !{{i32 1, i32 3}}
!1 = !{{i32 1, i32 10}}
!2 = !{{!"lib", i32 6, i32 3}}
!3 = !{{null, !"", null, !6, null}}
!4 = !{{void ()* @"\01?RayGen@@YAXXZ", !"\01?RayGen@@YAXXZ", null, null, !5}}
!5 = !{{i32 8, i32 7}}
!6 = !{{null, !7, null, null}}
!7 = !{{!8}}
!8 = !{{i32 0, %u* @"\01?Out@@3UU@@A", !"Out", i32 0, i32 3, i32 1, i32 11, i1 false, i1 false, i1 false, null}}
!9 = !{{void (%u*, %u*)* @"\01?Hit@@YAXUP@@UA@@@Z", !"\01?Hit@@YAXUP@@UA@@@Z", null, null, !10}}
!10 = !{{i32 8, i32 10, i32 6, i32 12, i32 7, i32 8}}
{extra}"#
        )
    }

    /// Version 1.1, no parameters, no static samplers.
    const EMPTY_RS: &str = r#"[24 x i8] c"\02\00\00\00\00\00\00\00\18\00\00\00\00\00\00\00\18\00\00\00\00\00\00\00""#;

    fn assemble(extra: &str) -> Result<Vec<u8>, super::super::AssembleError> {
        super::super::assemble(&library(extra), &Default::default())
    }

    #[test]
    fn every_subobject_kind_goes_into_rdat() {
        let extra = format!(
            r#"!dx.subobjects = !{{!20, !21, !23, !24, !26, !27, !28, !29}}
!20 = !{{!"cfg", i32 0, i32 1}}
!21 = !{{!"grs", i32 1, !22, !"RootFlags(0)"}}
!22 = !{{{EMPTY_RS}}}
!23 = !{{!"lrs", i32 2, !22, !""}}
!24 = !{{!"toHit", i32 8, !"lrs", !25}}
!25 = !{{!"HG", !"Hit"}}
!26 = !{{!"sc", i32 9, i32 12, i32 8}}
!27 = !{{!"pc", i32 10, i32 3}}
!28 = !{{!"HG", i32 11, i32 1, !"Isect", !"", !"Hit"}}
!29 = !{{!"pc1", i32 12, i32 2, i32 256}}
"#
        );
        let bytes = assemble(&extra).unwrap();
        let c = Container::parse(&bytes).unwrap();
        let r = Rdat::parse(c.rdat().unwrap()).unwrap();
        let f: Vec<(&str, &str, Option<ShaderKind>, u32, u32)> = r
            .functions
            .iter()
            .map(|f| (f.name.as_str(), f.unmangled_name.as_str(), f.shader_kind, f.payload_size, f.attribute_size))
            .collect();
        assert_eq!(
            f,
            [
                ("\u{1}?RayGen@@YAXXZ", "RayGen", Some(ShaderKind::RayGeneration), 0, 0),
                ("\u{1}?Hit@@YAXUP@@UA@@@Z", "Hit", Some(ShaderKind::ClosestHit), 12, 8),
            ]
        );
        let data: Vec<&SubobjectData> = r.subobjects.iter().map(|s| &s.data).collect();
        let rs = vec![2u8, 0, 0, 0, 0, 0, 0, 0, 24, 0, 0, 0, 0, 0, 0, 0, 24, 0, 0, 0, 0, 0, 0, 0];
        assert_eq!(
            data,
            [
                &SubobjectData::StateObjectConfig { flags: 1 },
                &SubobjectData::GlobalRootSignature { data: rs.clone() },
                &SubobjectData::LocalRootSignature { data: rs.clone() },
                &SubobjectData::SubobjectToExportsAssociation {
                    subobject: "lrs".into(),
                    exports: vec!["HG".into(), "Hit".into()]
                },
                &SubobjectData::RaytracingShaderConfig { max_payload_size: 12, max_attribute_size: 8 },
                &SubobjectData::RaytracingPipelineConfig { max_trace_recursion_depth: 3 },
                &SubobjectData::HitGroup {
                    hit_group_type: HitGroupType::ProceduralPrimitive,
                    any_hit: String::new(),
                    closest_hit: "Hit".into(),
                    intersection: "Isect".into()
                },
                &SubobjectData::RaytracingPipelineConfig1 { max_trace_recursion_depth: 2, flags: 256 },
            ]
        );
        // The association reaches the closest hit through its hit group; the two root signatures
        // share their bytes in the raw-bytes part.
        assert_eq!(r.root_signature_for("Hit", true), Some(&rs[..]));
        assert_eq!(r.root_signature_for("RayGen", false), Some(&rs[..]));
        // The DXIL part keeps no subobject (nor the metadata only they used).
        let m = crate::bitcode::read_module(c.dxil_program().unwrap().bitcode).unwrap();
        assert!(m.named_md(super::SUBOBJECTS_MD).is_none());
        assert!(!m.metadata.iter().any(|md| matches!(md, crate::ir::Metadata::String(s) if m.str(*s) == "toHit")));
        let plain = crate::bitcode::read_module(
            Container::parse(&assemble("").unwrap()).unwrap().dxil_program().unwrap().bitcode,
        )
        .unwrap();
        assert_eq!(m.metadata.len(), plain.metadata.len());
    }

    #[test]
    fn functions_list_the_resources_they_use() {
        let bytes = assemble("").unwrap();
        let rdat = Container::parse(&bytes).unwrap().rdat().unwrap().to_vec();
        let w = |o: usize| u32::from_le_bytes([rdat[o], rdat[o + 1], rdat[o + 2], rdat[o + 3]]);
        // Parts: strings, resources, functions, index arrays.
        assert_eq!(w(4), 4);
        let table = |k: usize| (w(8 + 4 * k) as usize, w(w(8 + 4 * k) as usize));
        assert_eq!([table(0).1, table(1).1, table(2).1, table(3).1], [1, 3, 4, 2]);
        // The UAV: class 1, kind 11 (raw buffer), id 0, space 0, registers u3..u3, no flags.
        let res = table(1).0 + 16;
        assert_eq!([w(res), w(res + 4), w(res + 8), w(res + 12), w(res + 16), w(res + 20)], [1, 11, 0, 0, 3, 3]);
        // RayGen uses none (null), Hit uses resource 0 (index array at 0: [1, 0]).
        let f = table(2).0 + 16;
        assert_eq!((w(f + 8), w(f + 52 + 8)), (u32::MAX, 0));
        assert_eq!((w(table(3).0 + 8), w(table(3).0 + 12)), (1, 0));
        // Kinds, stage masks and minimum targets: raygen 7 and closest hit 10, from 6.3.
        assert_eq!((w(f + 16), w(f + 36), w(f + 40)), (7, 1 << 7, 0x70063));
        assert_eq!((w(f + 52 + 16), w(f + 52 + 36), w(f + 52 + 40)), (10, 1 << 10, 0xa0063));
    }

    fn rule(extra: &str) -> String {
        match assemble(extra) {
            Ok(_) => panic!("assembled:\n{extra}"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn malformed_subobjects_are_named() {
        let cases: &[(&str, &str)] = &[
            ("!20 = !{!\"x\", i32 5}", "operand 0 (`x`): subobject kind 5"),
            ("!20 = !{!\"x\", i32 9, i32 1}", "operand 0 (`x`): 3 operands, 4 expected"),
            ("!20 = !{i32 1, i32 9, i32 1, i32 2}", "operand 0: operand 0 (name) is not a string"),
            ("!20 = !{!\"x\", i32 9, !\"a\", i32 2}", "operand 2 (max payload size) is not a 32-bit integer"),
            ("!20 = !{!\"x\", i32 11, i32 2, !\"\", !\"\", !\"H\"}", "hit group type 2"),
            ("!20 = !{!\"x\", i32 1, !21, !\"\"}\n!21 = !{[3 x i8] c\"abc\"}", "3 bytes, not a multiple of 4"),
            ("!20 = !{!\"x\", i32 1, !21, !\"\"}\n!21 = !{[4 x i8] c\"abcd\"}", "not a serialized root signature"),
            ("!20 = !{!\"x\", i32 1, !21, !\"\"}\n!21 = !{i32 7}", "is not `!{[N x i8] …}`"),
            ("!20 = !{!\"x\", i32 8, !\"y\", !21}\n!21 = !{i32 7}", "export 0 of the association is not a string"),
            ("!20 = !{!\"x\", i32 10, null}", "operand 2 (max recursion depth) is null"),
        ];
        for (md, want) in cases {
            let e = rule(&format!("!dx.subobjects = !{{!20}}\n{md}\n"));
            assert!(e.starts_with("subobjects: !dx.subobjects operand 0"), "{md}\n-> {e}");
            assert!(e.contains(want), "{md}\n-> {e} (wanted {want:?})");
        }
        let dup = "!dx.subobjects = !{!20, !21}\n!20 = !{!\"x\", i32 10, i32 1}\n!21 = !{!\"x\", i32 10, i32 2}\n";
        assert!(rule(dup).contains("operand 1 (`x`): a second subobject of this name"), "{}", rule(dup));
    }

    #[test]
    fn subobjects_belong_to_libraries() {
        let text = r#"target triple = "dxil-ms-dx"
define void @main() {
  ret void
}
!dx.version = !{!0}
!dx.shaderModel = !{!1}
!dx.entryPoints = !{!2}
!dx.subobjects = !{!4}
!0 = !{i32 1, i32 0}
!1 = !{!"cs", i32 6, i32 0}
!2 = !{void ()* @main, !"main", null, null, !3}
!3 = !{i32 4, !5}
!4 = !{!"pc", i32 10, i32 1}
!5 = !{i32 1, i32 1, i32 1}
"#;
        let e = super::super::assemble(text, &Default::default()).unwrap_err().to_string();
        assert!(e.contains("subobjects belong to libraries"), "{e}");
    }

    #[test]
    fn printed_subobjects_read_back() {
        let bytes = assemble(&format!(
            "!dx.subobjects = !{{!20, !21, !23}}\n!20 = !{{!\"grs\", i32 1, !22, !\"\"}}\n!22 = !{{{EMPTY_RS}}}\n\
             !21 = !{{!\"a b\\22\", i32 8, !\"grs\", !24}}\n!24 = !{{}}\n!23 = !{{!\"so\", i32 0, i32 4}}\n"
        ))
        .unwrap();
        let r = Container::parse(&bytes).unwrap().runtime_data().unwrap().unwrap();
        assert_eq!(r.subobjects[1].name, "a b\"");
        // Text for them, numbered after a module's metadata, parses back to the same subobjects.
        let m = crate::bitcode::read_module(Container::parse(&bytes).unwrap().dxil_program().unwrap().bitcode).unwrap();
        let mut text = crate::ir::print::print_module(&m);
        text.push_str(&super::subobjects_text(&r.subobjects, m.metadata.len()));
        let again = super::super::assemble(&text, &Default::default()).unwrap();
        assert_eq!(Container::parse(&again).unwrap().runtime_data().unwrap().unwrap(), r);
        assert_eq!(Container::parse(&again).unwrap().rdat(), Container::parse(&bytes).unwrap().rdat());
    }
}
