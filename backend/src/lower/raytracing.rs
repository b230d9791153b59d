//! Ray-tracing library exports (raygen, intersection, any hit, closest hit,
//! miss, callable) → `SPV_KHR_ray_tracing` entry points.
//!
//! * The export's parameters become interface variables: the payload of hit
//!   and miss shaders (`IncomingRayPayloadKHR`), the hit attributes of hit
//!   shaders (`HitAttributeKHR`), the parameter of callable shaders
//!   (`IncomingCallableDataKHR`).
//! * `TraceRay` / `CallShader` take DXIL's local (alloca) payload: it is
//!   copied into one `RayPayloadKHR` / `CallableDataKHR` variable per type
//!   around the call; `ReportHit` copies its attributes into the
//!   `HitAttributeKHR` variable first.
//! * `IgnoreHit` / `AcceptHitAndEndSearch` are SPIR-V block terminators:
//!   they end an always-taken branch so code after them stays well formed.
//! * Library resources are global variables: their loads (and element GEPs)
//!   only name a `dx.resources` range, resolved by `CreateHandleForLib`.
//! * System values are the `*KHR` builtins; D3D's `InstanceIndex` is Vulkan's
//!   `InstanceId`, D3D's `InstanceID` is `InstanceCustomIndexKHR`, and
//!   `RayTCurrent` is `RayTmaxKHR`. `ObjectToWorld`/`WorldToObject` read a
//!   `mat4x3` (DXC maps both the 3x4 and the 4x3 forms onto (row, column) of
//!   the 3x4 matrix).
//! * In a shader that calls `TraceRay` or `CallShader`, the system values of
//!   the current ray and hit it reads (all but `DispatchRaysIndex/Dimensions`)
//!   are loaded once, at the start of the function ([`preload_builtins`]).
//!   Vulkan keeps them constant for the invocation, so this is the same
//!   program; it also keeps them right on drivers that run a nested trace
//!   inline and reuse one hit state for it (Mesa 25 lavapipe reads
//!   `InstanceCustomIndexKHR`, `PrimitiveId`, `HitKindKHR`, … of the nested
//!   hit after `OpTraceRayKHR` returns; `docs/raytracing.md`).

use rspirv::spirv::{BuiltIn, Capability, Decoration, ExecutionModel, Op, StorageClass, Word};

use super::{malformed, unsupported, LResult, Lowerer, Val};
use crate::dxil_op::DxilOp;
use crate::ir::{ConstExpr, ConstKind, GlobalId, InstId, InstKind, Module, Type, Value};
use crate::ShaderKind;

/// Ray-tracing state of the export being lowered.
#[derive(Debug, Default)]
pub(crate) struct RayTracing {
    /// Library resource globals and their index in `EntryMeta::resources`.
    res_globals: Vec<(GlobalId, u32)>,
    /// Loads and GEPs of resource globals (instruction order): the range and the array index.
    lib_ptrs: Vec<(InstId, u32, Option<Value>)>,
    /// The export's parameters as interface variables (0: not declared yet).
    args: [(Word, Option<StorageClass>); 2],
    /// Builtin input variables: builtin, variable, the value loaded at the start of the function
    /// ([`preload_builtins`]; 0: none).
    builtins: Vec<(BuiltIn, Word, Word)>,
    /// `RayPayloadKHR` / `CallableDataKHR` variables by pointee type.
    outgoing: Vec<(StorageClass, Word, Word)>,
    /// The `HitAttributeKHR` variable of an intersection shader and its type.
    hit_attr: (Word, Word),
}

impl RayTracing {
    pub fn reset(&mut self) {
        self.res_globals.clear();
        self.lib_ptrs.clear();
        self.args = [(0, None); 2];
        self.builtins.clear();
        self.outgoing.clear();
        self.hit_attr = (0, 0);
    }

    /// Whether the export reaches library resource range `r` (loads or GEPs of its global).
    pub fn uses_range(&self, r: u32) -> bool {
        self.lib_ptrs.iter().any(|p| p.1 == r)
    }

    /// Whether instruction `i` only names a library resource (lowered to nothing).
    pub fn names_resource(&self, i: InstId) -> bool {
        !self.lib_ptrs.is_empty() && self.lib_ptrs.binary_search_by_key(&i.0, |p| p.0 .0).is_ok()
    }
}

/// Whether `name` is a user-defined struct (`struct.*`), which a ray-tracing
/// export may hold as a value (payloads, attributes, callable parameters).
pub(crate) fn is_user_struct(name: &str) -> bool {
    name.starts_with("struct.") && !name.starts_with("struct.RaytracingAccelerationStructure")
}

/// Before lowering a library export: finds the library's resource globals and the
/// instructions that load them, and registers every `CreateHandleForLib` with the resource
/// scan (through the table heap handles use) so that resource uses are recorded.
pub(super) fn prepare(l: &mut Lowerer<'_>) {
    let m = l.m;
    let mut rt = std::mem::take(&mut l.rt);
    // The ranges' globals as `dx/` decoded them (a library's resources are its module's list).
    for (k, d) in l.meta.resources.iter().enumerate() {
        if let Some(g) = d.global {
            rt.res_globals.push((g, k as u32));
        }
    }
    let f = l.f;
    for (n, inst) in f.insts.iter().enumerate() {
        let id = InstId(n as u32);
        match &inst.kind {
            InstKind::Load { ptr, .. } => {
                if let Some((r, idx)) = resource_ptr(&rt, m, *ptr) {
                    rt.lib_ptrs.push((id, r, idx));
                }
            }
            InstKind::Gep { base, indices, .. } => {
                if let Some((r, None)) = resource_ptr(&rt, m, *base) {
                    let idx = f.values(*indices).get(1).copied();
                    rt.lib_ptrs.push((id, r, idx));
                }
            }
            InstKind::DxOp { op: DxilOp::CreateHandleForLib, args, .. } => {
                if let Some(Value::Inst(src)) = f.values(*args).first() {
                    if let Ok(p) = rt.lib_ptrs.binary_search_by_key(&src.0, |p| p.0 .0) {
                        l.res.heap_handles.push((id, rt.lib_ptrs[p].1));
                    }
                }
            }
            _ => {}
        }
    }
    l.rt = rt;
}

/// The resource range (and array index) a pointer to a resource global stands for.
fn resource_ptr(rt: &RayTracing, m: &Module, p: Value) -> Option<(u32, Option<Value>)> {
    match p {
        Value::Global(g) => rt.res_globals.iter().find(|x| x.0 == g).map(|x| (x.1, None)),
        Value::Inst(i) => {
            rt.lib_ptrs.binary_search_by_key(&i.0, |x| x.0 .0).ok().map(|k| (rt.lib_ptrs[k].1, rt.lib_ptrs[k].2))
        }
        Value::Const(c) => match &m.konst(c).kind {
            ConstKind::Expr(ConstExpr::Gep { base: Value::Global(g), indices, .. }) => {
                let r = rt.res_globals.iter().find(|x| x.0 == *g)?.1;
                Some((r, indices.get(1).copied()))
            }
            ConstKind::Expr(ConstExpr::Cast { value, .. }) => resource_ptr(rt, m, *value),
            _ => None,
        },
        _ => None,
    }
}

impl Lowerer<'_> {
    /// The execution model of a ray-tracing export.
    pub(crate) fn rt_execution_model(&mut self) -> LResult<ExecutionModel> {
        self.cap(Capability::RayTracingKHR);
        self.ext("SPV_KHR_ray_tracing");
        Ok(match self.meta.kind {
            ShaderKind::RayGeneration => ExecutionModel::RayGenerationKHR,
            ShaderKind::Intersection => ExecutionModel::IntersectionKHR,
            ShaderKind::AnyHit => ExecutionModel::AnyHitKHR,
            ShaderKind::ClosestHit => ExecutionModel::ClosestHitKHR,
            ShaderKind::Miss => ExecutionModel::MissKHR,
            ShaderKind::Callable => ExecutionModel::CallableKHR,
            k => return unsupported(format!("{} shaders", k.name())),
        })
    }

    /// Parameter `a` of the export as its interface variable.
    pub(crate) fn rt_arg(&mut self, a: u32) -> LResult<(Word, StorageClass)> {
        let kind = self.meta.kind;
        let sc = match (kind, a) {
            (ShaderKind::ClosestHit | ShaderKind::AnyHit | ShaderKind::Miss, 0) => StorageClass::IncomingRayPayloadKHR,
            (ShaderKind::ClosestHit | ShaderKind::AnyHit, 1) => StorageClass::HitAttributeKHR,
            (ShaderKind::Callable, 0) => StorageClass::IncomingCallableDataKHR,
            _ if super::rayquery::is_ray_tracing_stage(kind) => {
                return malformed(format!("{} shader with parameter {a}", kind.name()))
            }
            _ => return unsupported("entry point with parameters"),
        };
        let slot = self.rt.args[a as usize];
        if slot.0 != 0 {
            return Ok((slot.0, sc));
        }
        let Some(&pty) = self.f.param_tys.get(a as usize) else {
            return malformed(format!("{} shader without parameter {a}", kind.name()));
        };
        let pt = self.ptr_type_of(pty, sc)?;
        let var = self.global_var(pt, sc, None);
        self.rt.args[a as usize] = (var, Some(sc));
        Ok((var, sc))
    }

    /// The input variable of a ray-tracing builtin of type `ty`.
    fn rt_builtin(&mut self, b: BuiltIn, ty: Word) -> Word {
        if let Some(&(_, v, _)) = self.rt.builtins.iter().find(|x| x.0 == b) {
            return v;
        }
        let pt = self.pointer(StorageClass::Input, ty);
        let v = self.global_var(pt, StorageClass::Input, None);
        self.decorate(v, Decoration::BuiltIn, &[b as u32]);
        self.rt.builtins.push((b, v, 0));
        v
    }

    /// The `RayPayloadKHR` / `CallableDataKHR` variable for pointee type `ty`.
    fn outgoing_var(&mut self, sc: StorageClass, ty: Word) -> Word {
        if let Some(&(_, _, v)) = self.rt.outgoing.iter().find(|x| x.0 == sc && x.1 == ty) {
            return v;
        }
        let pt = self.pointer(sc, ty);
        let v = self.global_var(pt, sc, None);
        self.rt.outgoing.push((sc, ty, v));
        v
    }

    /// The pointee SPIR-V type of pointer value `v`.
    fn pointee_of(&mut self, v: Value) -> LResult<Word> {
        let t = self.m.value_type(self.f, v);
        let Some((p, _)) = self.m.types.pointee(t) else { return malformed("payload operand is not a pointer") };
        self.ty(p)
    }

    /// Ends the current block with terminator `op` inside an always-taken branch
    /// (what follows in DXIL continues in an unreachable merge block).
    fn terminate_with(&mut self, op: Op) -> LResult<()> {
        let c = self.const_bool(true);
        let (t, merge) = (self.new_label(), self.new_label());
        self.b.selection_merge(merge).map_err(super::internal)?;
        self.b.branch_conditional(c, t, merge).map_err(super::internal)?;
        self.begin(t)?;
        self.b.terminator(op, &[], &[]).map_err(super::internal)?;
        self.begin(merge)
    }
}

/// `CreateHandleForLib(resource)`: the range (and element) the loaded resource global names.
fn create_handle_for_lib(l: &mut Lowerer<'_>, i: InstId, args: &[Value]) -> LResult<()> {
    let Some(Value::Inst(src)) = args.first() else {
        return unsupported("CreateHandleForLib of a value that is not a load of a resource global");
    };
    let Ok(p) = l.rt.lib_ptrs.binary_search_by_key(&src.0, |p| p.0 .0) else {
        return unsupported("CreateHandleForLib of a value that is not a load of a resource global");
    };
    let (_, res, idx) = l.rt.lib_ptrs[p];
    let Some(d) = l.meta.resources.get(res as usize) else {
        return malformed(format!("CreateHandleForLib: resource {res} not in dx.resources"));
    };
    let index = match (d.size, idx) {
        (Some(1), _) | (_, None) => None,
        (_, Some(v)) => match l.m.const_uint(v) {
            Some(c) => Some(l.const_u32(c as u32)),
            None => Some(l.index_value(v)?),
        },
    };
    l.ensure_var(res)?;
    let k = l.res.handles.len() as u32;
    // Under a binding model the placement completes the handle (heap index, root or record
    // address, view bounds), as for `CreateHandle`.
    let hv = if l.res.info.get(res as usize).is_some_and(|i| i.model.is_some()) {
        l.model_handle(res, index, false)?
    } else {
        super::resources::HandleVal { res, index, nonuniform: false, base: 0, bounds: 0 }
    };
    l.res.handles.push(hv);
    l.set(i, Val::Handle(k));
    Ok(())
}

/// `TraceRay(accel, flags, mask, hit-group offset, geometry multiplier, miss index, origin, tmin,
/// direction, tmax, payload)` and `CallShader(index, parameter)`.
fn trace_or_call(l: &mut Lowerer<'_>, op: DxilOp, args: &[Value]) -> LResult<()> {
    let (data, sc) = match op {
        DxilOp::TraceRay => (14, StorageClass::RayPayloadKHR),
        _ => (1, StorageClass::CallableDataKHR),
    };
    if args.len() <= data {
        return malformed(format!("{}: {} operands", op.name(), args.len()));
    }
    let ty = l.pointee_of(args[data])?;
    let (local, local_sc) = l.pointer_value(args[data])?;
    let direct = matches!(local_sc, StorageClass::RayPayloadKHR | StorageClass::IncomingRayPayloadKHR)
        && sc == StorageClass::RayPayloadKHR
        || matches!(local_sc, StorageClass::CallableDataKHR | StorageClass::IncomingCallableDataKHR)
            && sc == StorageClass::CallableDataKHR;
    let var = if direct { local } else { l.outgoing_var(sc, ty) };
    if !direct {
        let v = l.load(ty, local)?;
        l.store(var, v)?;
    }
    if op == DxilOp::TraceRay {
        let accel = l.load_accel(args[0])?;
        let mut w = [0; 5];
        for (k, slot) in w.iter_mut().enumerate() {
            *slot = l.value(args[1 + k])?;
        }
        let f = l.f32();
        let v3 = l.vector(f, 3);
        let mut c = [0; 8];
        for (k, slot) in c.iter_mut().enumerate() {
            *slot = l.value(args[6 + k])?;
        }
        let origin = l.op(Op::CompositeConstruct, v3, &c[0..3])?;
        let dir = l.op(Op::CompositeConstruct, v3, &c[4..7])?;
        l.op_void(Op::TraceRayKHR, &[accel, w[0], w[1], w[2], w[3], w[4], origin, c[3], dir, c[7], var])?;
    } else {
        let idx = l.value(args[0])?;
        l.op_void(Op::ExecuteCallableKHR, &[idx, var])?;
    }
    if !direct {
        let v = l.load(ty, var)?;
        l.store(local, v)?;
    }
    Ok(())
}

/// `ReportHit(t, kind, attributes) -> i1`.
fn report_hit(l: &mut Lowerer<'_>, i: InstId, args: &[Value]) -> LResult<()> {
    let [t, kind, attr] = args else { return malformed(format!("ReportHit: {} operands", args.len())) };
    let ty = l.pointee_of(*attr)?;
    let (local, _) = l.pointer_value(*attr)?;
    if l.rt.hit_attr.0 == 0 {
        let pt = l.pointer(StorageClass::HitAttributeKHR, ty);
        let v = l.global_var(pt, StorageClass::HitAttributeKHR, None);
        l.rt.hit_attr = (ty, v);
    } else if l.rt.hit_attr.0 != ty {
        return unsupported("ReportHit with attributes of two different types in one intersection shader");
    }
    let var = l.rt.hit_attr.1;
    let v = l.load(ty, local)?;
    l.store(var, v)?;
    let (t, kind) = (l.value(*t)?, l.value(*kind)?);
    let bt = l.bool();
    let r = l.op(Op::ReportIntersectionKHR, bt, &[t, kind])?;
    l.set_id(i, r);
    Ok(())
}

/// A system value: (builtin, element kind) — `u32`, `f32`, `uvec3`, `vec3` or `mat4x3`.
#[derive(Clone, Copy, PartialEq)]
enum Sv {
    U32,
    F32,
    UVec3,
    Vec3,
    Mat,
}

fn system_value(op: DxilOp) -> Option<(BuiltIn, Sv)> {
    use DxilOp::*;
    Some(match op {
        DispatchRaysIndex => (BuiltIn::LaunchIdKHR, Sv::UVec3),
        DispatchRaysDimensions => (BuiltIn::LaunchSizeKHR, Sv::UVec3),
        WorldRayOrigin => (BuiltIn::WorldRayOriginKHR, Sv::Vec3),
        WorldRayDirection => (BuiltIn::WorldRayDirectionKHR, Sv::Vec3),
        ObjectRayOrigin => (BuiltIn::ObjectRayOriginKHR, Sv::Vec3),
        ObjectRayDirection => (BuiltIn::ObjectRayDirectionKHR, Sv::Vec3),
        RayTMin => (BuiltIn::RayTminKHR, Sv::F32),
        RayTCurrent => (BuiltIn::RayTmaxKHR, Sv::F32),
        RayFlags => (BuiltIn::IncomingRayFlagsKHR, Sv::U32),
        InstanceIndex => (BuiltIn::InstanceId, Sv::U32),
        InstanceID => (BuiltIn::InstanceCustomIndexKHR, Sv::U32),
        GeometryIndex => (BuiltIn::RayGeometryIndexKHR, Sv::U32),
        PrimitiveIndex => (BuiltIn::PrimitiveId, Sv::U32),
        HitKind => (BuiltIn::HitKindKHR, Sv::U32),
        ObjectToWorld => (BuiltIn::ObjectToWorldKHR, Sv::Mat),
        WorldToObject => (BuiltIn::WorldToObjectKHR, Sv::Mat),
        _ => return None,
    })
}

/// The value of builtin `b` loaded at the start of the function, if it was.
fn preloaded(l: &Lowerer<'_>, b: BuiltIn) -> Option<Word> {
    l.rt.builtins.iter().find(|x| x.0 == b && x.2 != 0).map(|x| x.2)
}

/// The SPIR-V type of a system value's builtin variable.
fn sv_type(l: &mut Lowerer<'_>, sv: Sv) -> Word {
    match sv {
        Sv::U32 => l.u32(),
        Sv::F32 => l.f32(),
        Sv::UVec3 => {
            let u = l.u32();
            l.vector(u, 3)
        }
        Sv::Vec3 => {
            let f = l.f32();
            l.vector(f, 3)
        }
        Sv::Mat => l.matrix_4x3(),
    }
}

/// In a ray-tracing shader that calls `TraceRay` or `CallShader`: loads the ray and hit system
/// values it reads (every one but the launch index and size) at the current point, the start
/// of the function, so that every later read uses that value (see the module comment).
pub(super) fn preload_builtins(l: &mut Lowerer<'_>) -> LResult<()> {
    if !super::rayquery::is_ray_tracing_stage(l.meta.kind) {
        return Ok(());
    }
    let f = l.f;
    let calls = |k: &InstKind| matches!(k, InstKind::DxOp { op: DxilOp::TraceRay | DxilOp::CallShader, .. });
    if !f.insts.iter().any(|i| calls(&i.kind)) {
        return Ok(());
    }
    for inst in &f.insts {
        let InstKind::DxOp { op, .. } = &inst.kind else { continue };
        let Some((b, sv)) = system_value(*op) else { continue };
        if matches!(b, BuiltIn::LaunchIdKHR | BuiltIn::LaunchSizeKHR) || preloaded(l, b).is_some() {
            continue;
        }
        let t = sv_type(l, sv);
        let var = l.rt_builtin(b, t);
        let v = l.load(t, var)?;
        if let Some(slot) = l.rt.builtins.iter_mut().find(|x| x.0 == b) {
            slot.2 = v;
        }
    }
    Ok(())
}

pub(super) fn lower(l: &mut Lowerer<'_>, i: InstId, op: DxilOp, args: &[Value]) -> LResult<()> {
    if op == DxilOp::CreateHandleForLib {
        return create_handle_for_lib(l, i, args);
    }
    if !super::rayquery::is_ray_tracing_stage(l.meta.kind) {
        return malformed(format!("{} in a {} shader", op.name(), l.meta.kind.name()));
    }
    match op {
        DxilOp::TraceRay | DxilOp::CallShader => trace_or_call(l, op, args),
        DxilOp::ReportHit => report_hit(l, i, args),
        DxilOp::IgnoreHit => l.terminate_with(Op::IgnoreIntersectionKHR),
        DxilOp::AcceptHitAndEndSearch => l.terminate_with(Op::TerminateRayKHR),
        _ => {
            let Some((b, sv)) = system_value(op) else { return unsupported(format!("DXIL op {}", op.name())) };
            // u32 and f32 first: the type ids come out in the order they always had.
            let (u, f) = (l.u32(), l.f32());
            let t = sv_type(l, sv);
            let v = match preloaded(l, b) {
                Some(v) => v,
                None => {
                    let var = l.rt_builtin(b, t);
                    l.load(t, var)?
                }
            };
            let r = match sv {
                Sv::U32 | Sv::F32 => v,
                Sv::UVec3 | Sv::Vec3 => {
                    let e = if sv == Sv::UVec3 { u } else { f };
                    let Some(&c) = args.first() else { return malformed(format!("{} without component", op.name())) };
                    super::rayquery::component(l, op, v, e, c, 3)?
                }
                Sv::Mat => {
                    let [row, col] = args else { return malformed(format!("{}: {} operands", op.name(), args.len())) };
                    super::rayquery::matrix_element(l, op, v, *row, *col, false)?
                }
            };
            l.set_id(i, r);
            Ok(())
        }
    }
}

/// Whether type `t` is (or holds) a user struct a ray-tracing export may use as a value.
pub(crate) fn user_struct(m: &Module, t: crate::ir::TypeId) -> bool {
    matches!(m.types.get(t), Type::Struct { name: Some(n), .. } if is_user_struct(n))
}
