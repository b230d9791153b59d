//! Inline ray tracing (DXIL `RayQuery_*` ops, SM 6.5) → `SPV_KHR_ray_query`.
//!
//! A DXIL ray query is an `i32` handle made by `AllocateRayQuery`; DXC passes
//! it through phis, selects, allocas and stores like any integer. Every
//! `AllocateRayQuery` of the function gets an index (instruction order) into
//! one `Private` array of `OpTypeRayQueryKHR`, and the handle value *is* that
//! index, so every data flow DXC produces for handles works unchanged; each
//! ray-query op addresses its query by an access chain with the handle.
//!
//! The `RAY_FLAG_*` bits of D3D and Vulkan's `RayFlags` are the same; the
//! template flags of `AllocateRayQuery` are OR'ed into those of
//! `TraceRayInline` (a constant when every query has the same, else a lookup
//! in a `Private` table indexed by the handle). The committed/candidate
//! status and type enums are numbered alike too.

use rspirv::spirv::{Capability, Op, StorageClass, Word};

use super::{malformed, unsupported, LResult, Lowerer};
use crate::dxil_op::DxilOp;
use crate::ir::{InstId, InstKind, Value};

/// `RAY_FLAG_SKIP_TRIANGLES | RAY_FLAG_SKIP_PROCEDURAL_PRIMITIVES` (need `RayTraversalPrimitiveCullingKHR`).
const SKIP_PRIMITIVE_FLAGS: u32 = 0x300;

/// The ray queries of the function being lowered.
#[derive(Debug, Default)]
pub(crate) struct RayQueries {
    /// The `Private RayQueryKHR[n]` array (0: not declared yet).
    var: Word,
    ty: Word,
    /// `OpTypeAccelerationStructureKHR` (0: not declared yet).
    accel_ty: Word,
    /// `mat4x3` of float (0: not declared yet).
    mat_ty: Word,
    /// Each `AllocateRayQuery` of the function, in instruction order, and its template flags.
    allocs: Vec<(InstId, u32)>,
    /// `Private uint[n]` of the template flags when they differ between queries (0: none).
    flags_var: Word,
}

impl RayQueries {
    /// Empties the state (keeping storage) for the next compile.
    pub fn reset(&mut self) {
        self.var = 0;
        self.ty = 0;
        self.accel_ty = 0;
        self.mat_ty = 0;
        self.allocs.clear();
        self.flags_var = 0;
    }
}

/// Whether shader kind `k` runs in a ray-tracing pipeline (raygen, hit, miss, callable stages).
pub(crate) fn is_ray_tracing_stage(k: crate::ShaderKind) -> bool {
    use crate::ShaderKind::*;
    matches!(k, RayGeneration | Intersection | AnyHit | ClosestHit | Miss | Callable)
}

impl Lowerer<'_> {
    /// `OpTypeAccelerationStructureKHR`, declared once (the descriptor type of
    /// `RaytracingAccelerationStructure` SRVs).
    pub(crate) fn accel_type(&mut self) -> Word {
        if self.rq.accel_ty != 0 {
            return self.rq.accel_ty;
        }
        if is_ray_tracing_stage(self.meta.kind) {
            self.cap(Capability::RayTracingKHR);
            self.ext("SPV_KHR_ray_tracing");
        } else {
            self.cap(Capability::RayQueryKHR);
            self.ext("SPV_KHR_ray_query");
        }
        let t = self.new_type(Op::TypeAccelerationStructureKHR, &[]);
        self.rq.accel_ty = t;
        t
    }

    /// Loads the acceleration structure of an SRV handle.
    pub(crate) fn load_accel(&mut self, handle: Value) -> LResult<Word> {
        let h = self.handle(handle)?;
        let kind = self.decl(h).kind;
        if kind != super::meta::ResKind::RTAccelerationStructure {
            return malformed(format!("{} used as a ray-tracing acceleration structure", kind.name()));
        }
        self.ensure_var(h.res)?;
        let t = self.accel_type();
        if h.base != 0 {
            // A root SRV (binding model): the acceleration structure's device address.
            return self.op(Op::ConvertUToAccelerationStructureKHR, t, &[h.base]);
        }
        let var = self.res.info[h.res as usize].var;
        let p = self.descriptor_ptr(h, var, t, StorageClass::UniformConstant)?;
        let a = self.load(t, p)?;
        if h.nonuniform && h.index.is_some() {
            self.nonuniform(a);
        }
        Ok(a)
    }

    /// Declares the ray-query array on first use (one element per `AllocateRayQuery`).
    fn ray_queries(&mut self) -> LResult<Word> {
        if self.rq.var != 0 {
            return Ok(self.rq.var);
        }
        self.cap(Capability::RayQueryKHR);
        self.ext("SPV_KHR_ray_query");
        let f = self.f;
        let mut allocs = std::mem::take(&mut self.rq.allocs);
        allocs.clear();
        for (k, inst) in f.insts.iter().enumerate() {
            if let InstKind::DxOp { op: DxilOp::AllocateRayQuery, args, .. } = &inst.kind {
                let Some(flags) = f.values(*args).first().and_then(|&v| self.m.const_uint(v)) else {
                    return malformed("AllocateRayQuery: the ray flags are not a constant");
                };
                allocs.push((InstId(k as u32), flags as u32));
            }
        }
        if allocs.is_empty() {
            return malformed("ray-query op without any AllocateRayQuery in the function");
        }
        let n = allocs.len() as u32;
        let same = allocs.iter().all(|a| a.1 == allocs[0].1);
        let rq = self.new_type(Op::TypeRayQueryKHR, &[]);
        let len = self.const_u32(n);
        let arr = self.new_type(Op::TypeArray, &[rq, len]);
        let pt = self.pointer(StorageClass::Private, arr);
        let var = self.global_var(pt, StorageClass::Private, None);
        if !same {
            let u = self.u32();
            let ft = self.new_type(Op::TypeArray, &[u, len]);
            let elems: Vec<Word> = allocs.iter().map(|a| a.1).collect();
            let elems: Vec<Word> = elems.into_iter().map(|x| self.const_u32(x)).collect();
            let init = self.const_composite(ft, &elems);
            let fpt = self.pointer(StorageClass::Private, ft);
            self.rq.flags_var = self.global_var(fpt, StorageClass::Private, Some(init));
        }
        self.rq.allocs = allocs;
        self.rq.ty = rq;
        self.rq.var = var;
        Ok(var)
    }

    /// Pointer to the ray query a handle value stands for.
    fn ray_query_ptr(&mut self, handle: Value) -> LResult<Word> {
        let var = self.ray_queries()?;
        let idx = self.value(handle)?;
        let pt = self.pointer(StorageClass::Private, self.rq.ty);
        self.access_chain(pt, var, &[idx])
    }

    /// The template flags of the query `handle` (None: no flags).
    fn template_flags(&mut self, handle: Value) -> LResult<Option<Word>> {
        self.ray_queries()?;
        if self.rq.flags_var == 0 {
            let f = self.rq.allocs.first().map_or(0, |a| a.1);
            return Ok((f != 0).then(|| self.const_u32(f)));
        }
        let idx = self.value(handle)?;
        let u = self.u32();
        let pt = self.pointer(StorageClass::Private, u);
        let p = self.access_chain(pt, self.rq.flags_var, &[idx])?;
        Ok(Some(self.load(u, p)?))
    }
}

/// Where a getter reads: the candidate or committed intersection, or the ray itself.
#[derive(Clone, Copy)]
enum Isect {
    Ray,
    Candidate,
    Committed,
}

/// A getter's SPIR-V opcode, which intersection, and its result shape.
#[derive(Clone, Copy)]
enum Shape {
    /// Scalar of the DXIL result type.
    Scalar,
    /// `bool` inverted (`CandidateProceduralPrimitiveNonOpaque` from the opaque query).
    NotBool,
    /// `vecN` of float, DXIL picks a component.
    FloatVec(u32),
    /// `mat4x3`, DXIL picks (row, column) of the 3x4 matrix.
    Matrix,
}

fn getter(op: DxilOp) -> Option<(Op, Isect, Shape)> {
    use DxilOp::*;
    use Isect::{Candidate as Ca, Committed as Co, Ray};
    use Shape::*;
    Some(match op {
        RayQuery_CommittedStatus => (Op::RayQueryGetIntersectionTypeKHR, Co, Scalar),
        RayQuery_CandidateType => (Op::RayQueryGetIntersectionTypeKHR, Ca, Scalar),
        RayQuery_CandidateProceduralPrimitiveNonOpaque => {
            (Op::RayQueryGetIntersectionCandidateAABBOpaqueKHR, Ray, NotBool)
        }
        RayQuery_CandidateTriangleFrontFace => (Op::RayQueryGetIntersectionFrontFaceKHR, Ca, Scalar),
        RayQuery_CommittedTriangleFrontFace => (Op::RayQueryGetIntersectionFrontFaceKHR, Co, Scalar),
        RayQuery_RayFlags => (Op::RayQueryGetRayFlagsKHR, Ray, Scalar),
        RayQuery_RayTMin => (Op::RayQueryGetRayTMinKHR, Ray, Scalar),
        RayQuery_CandidateTriangleRayT => (Op::RayQueryGetIntersectionTKHR, Ca, Scalar),
        RayQuery_CommittedRayT => (Op::RayQueryGetIntersectionTKHR, Co, Scalar),
        // D3D's InstanceIndex is Vulkan's instance id; D3D's InstanceID the custom index.
        RayQuery_CandidateInstanceIndex => (Op::RayQueryGetIntersectionInstanceIdKHR, Ca, Scalar),
        RayQuery_CommittedInstanceIndex => (Op::RayQueryGetIntersectionInstanceIdKHR, Co, Scalar),
        RayQuery_CandidateInstanceID => (Op::RayQueryGetIntersectionInstanceCustomIndexKHR, Ca, Scalar),
        RayQuery_CommittedInstanceID => (Op::RayQueryGetIntersectionInstanceCustomIndexKHR, Co, Scalar),
        RayQuery_CandidateGeometryIndex => (Op::RayQueryGetIntersectionGeometryIndexKHR, Ca, Scalar),
        RayQuery_CommittedGeometryIndex => (Op::RayQueryGetIntersectionGeometryIndexKHR, Co, Scalar),
        RayQuery_CandidatePrimitiveIndex => (Op::RayQueryGetIntersectionPrimitiveIndexKHR, Ca, Scalar),
        RayQuery_CommittedPrimitiveIndex => (Op::RayQueryGetIntersectionPrimitiveIndexKHR, Co, Scalar),
        RayQuery_CandidateInstanceContributionToHitGroupIndex => {
            (Op::RayQueryGetIntersectionInstanceShaderBindingTableRecordOffsetKHR, Ca, Scalar)
        }
        RayQuery_CommittedInstanceContributionToHitGroupIndex => {
            (Op::RayQueryGetIntersectionInstanceShaderBindingTableRecordOffsetKHR, Co, Scalar)
        }
        RayQuery_CandidateTriangleBarycentrics => (Op::RayQueryGetIntersectionBarycentricsKHR, Ca, FloatVec(2)),
        RayQuery_CommittedTriangleBarycentrics => (Op::RayQueryGetIntersectionBarycentricsKHR, Co, FloatVec(2)),
        RayQuery_WorldRayOrigin => (Op::RayQueryGetWorldRayOriginKHR, Ray, FloatVec(3)),
        RayQuery_WorldRayDirection => (Op::RayQueryGetWorldRayDirectionKHR, Ray, FloatVec(3)),
        RayQuery_CandidateObjectRayOrigin => (Op::RayQueryGetIntersectionObjectRayOriginKHR, Ca, FloatVec(3)),
        RayQuery_CommittedObjectRayOrigin => (Op::RayQueryGetIntersectionObjectRayOriginKHR, Co, FloatVec(3)),
        RayQuery_CandidateObjectRayDirection => (Op::RayQueryGetIntersectionObjectRayDirectionKHR, Ca, FloatVec(3)),
        RayQuery_CommittedObjectRayDirection => (Op::RayQueryGetIntersectionObjectRayDirectionKHR, Co, FloatVec(3)),
        RayQuery_CandidateObjectToWorld3x4 => (Op::RayQueryGetIntersectionObjectToWorldKHR, Ca, Matrix),
        RayQuery_CommittedObjectToWorld3x4 => (Op::RayQueryGetIntersectionObjectToWorldKHR, Co, Matrix),
        RayQuery_CandidateWorldToObject3x4 => (Op::RayQueryGetIntersectionWorldToObjectKHR, Ca, Matrix),
        RayQuery_CommittedWorldToObject3x4 => (Op::RayQueryGetIntersectionWorldToObjectKHR, Co, Matrix),
        _ => return None,
    })
}

pub(super) fn lower(l: &mut Lowerer<'_>, i: InstId, op: DxilOp, args: &[Value]) -> LResult<()> {
    let arg = |k: usize| match args.get(k) {
        Some(&v) => Ok(v),
        None => malformed(format!("{}: missing operand {k}", op.name())),
    };
    match op {
        DxilOp::AllocateRayQuery => {
            l.ray_queries()?;
            let Ok(k) = l.rq.allocs.binary_search_by_key(&i.0, |a| a.0 .0) else {
                return Err(super::Fail::Internal(format!("AllocateRayQuery %{} not in the scan", i.0)));
            };
            let c = l.const_u32(k as u32);
            l.set_id(i, c);
            Ok(())
        }
        DxilOp::RayQuery_TraceRayInline => {
            if args.len() < 12 {
                return malformed(format!("{}: {} operands (12 expected)", op.name(), args.len()));
            }
            let q = l.ray_query_ptr(args[0])?;
            let accel = l.load_accel(args[1])?;
            let mut flags = l.value(args[2])?;
            let constant = l.m.const_uint(args[2]).map(|f| f as u32);
            let template = l.template_flags(args[0])?;
            let u = l.u32();
            if let Some(t) = template {
                flags = l.op(Op::BitwiseOr, u, &[flags, t])?;
            }
            let all_const = match (constant, l.rq.flags_var) {
                (Some(c), 0) => Some(c | l.rq.allocs.first().map_or(0, |a| a.1)),
                _ => None,
            };
            if all_const.is_some_and(|c| c & SKIP_PRIMITIVE_FLAGS != 0) {
                l.cap(Capability::RayTraversalPrimitiveCullingKHR);
            }
            let mask = l.value(args[3])?;
            let f = l.f32();
            let v3 = l.vector(f, 3);
            let mut c = [0; 8];
            for (k, slot) in c.iter_mut().enumerate() {
                *slot = l.value(args[4 + k])?;
            }
            let origin = l.op(Op::CompositeConstruct, v3, &c[0..3])?;
            let dir = l.op(Op::CompositeConstruct, v3, &c[4..7])?;
            l.op_void(Op::RayQueryInitializeKHR, &[q, accel, flags, mask, origin, c[3], dir, c[7]])
        }
        DxilOp::RayQuery_Proceed => {
            let q = l.ray_query_ptr(arg(0)?)?;
            let bt = l.bool();
            let r = l.op(Op::RayQueryProceedKHR, bt, &[q])?;
            l.set_id(i, r);
            Ok(())
        }
        DxilOp::RayQuery_Abort => {
            let q = l.ray_query_ptr(arg(0)?)?;
            l.op_void(Op::RayQueryTerminateKHR, &[q])
        }
        DxilOp::RayQuery_CommitNonOpaqueTriangleHit => {
            let q = l.ray_query_ptr(arg(0)?)?;
            l.op_void(Op::RayQueryConfirmIntersectionKHR, &[q])
        }
        DxilOp::RayQuery_CommitProceduralPrimitiveHit => {
            let q = l.ray_query_ptr(arg(0)?)?;
            let t = l.value(arg(1)?)?;
            l.op_void(Op::RayQueryGenerateIntersectionKHR, &[q, t])
        }
        _ => {
            let Some((sop, isect, shape)) = getter(op) else {
                return unsupported(format!("DXIL op {}", op.name()));
            };
            let q = l.ray_query_ptr(arg(0)?)?;
            let mut ops = [q, 0];
            let n = match isect {
                Isect::Ray => 1,
                Isect::Candidate => {
                    ops[1] = l.const_u32(0);
                    2
                }
                Isect::Committed => {
                    ops[1] = l.const_u32(1);
                    2
                }
            };
            let ops = &ops[..n];
            let r = match shape {
                Shape::Scalar => {
                    let t = l.result_ty(i)?;
                    l.op(sop, t, ops)?
                }
                Shape::NotBool => {
                    let bt = l.bool();
                    let x = l.op(sop, bt, ops)?;
                    l.op(Op::LogicalNot, bt, &[x])?
                }
                Shape::FloatVec(len) => {
                    let f = l.f32();
                    let vt = l.vector(f, len);
                    let v = l.op(sop, vt, ops)?;
                    component(l, op, v, f, arg(1)?, len)?
                }
                Shape::Matrix => {
                    let mt = l.matrix_4x3();
                    let m = l.op(sop, mt, ops)?;
                    matrix_element(l, op, m, arg(1)?, arg(2)?, false)?
                }
            };
            l.set_id(i, r);
            Ok(())
        }
    }
}

/// Component `c` of a float vector of `len` (constant or dynamic index).
pub(crate) fn component(l: &mut Lowerer<'_>, op: DxilOp, v: Word, f: Word, c: Value, len: u32) -> LResult<Word> {
    match l.m.const_uint(c) {
        Some(k) if k < u64::from(len) => l.op(Op::CompositeExtract, f, &[v, k as u32]),
        Some(k) => malformed(format!("{}: component {k} of a {len}-component vector", op.name())),
        None => {
            let k = l.value(c)?;
            l.op(Op::VectorExtractDynamic, f, &[v, k])
        }
    }
}

/// Element (`row`, `col`) of a 3x4 matrix (`transposed`: of a 4x3 one) held as SPIR-V
/// `mat4x3` (4 columns of `vec3`).
pub(crate) fn matrix_element(
    l: &mut Lowerer<'_>,
    op: DxilOp,
    m: Word,
    row: Value,
    col: Value,
    transposed: bool,
) -> LResult<Word> {
    let (Some(r), Some(c)) = (l.m.const_uint(row), l.m.const_uint(col)) else {
        return unsupported(format!("{} with a dynamic row or column", op.name()));
    };
    let (r, c) = if transposed { (c, r) } else { (r, c) };
    if r > 2 || c > 3 {
        return malformed(format!("{}: element ({r}, {c}) of a 3x4 matrix", op.name()));
    }
    let f = l.f32();
    l.op(Op::CompositeExtract, f, &[m, c as u32, r as u32])
}

impl Lowerer<'_> {
    /// `mat4x3` of float (4 columns of `vec3`): the object/world transforms.
    pub(crate) fn matrix_4x3(&mut self) -> Word {
        if self.rq.mat_ty != 0 {
            return self.rq.mat_ty;
        }
        let f = self.f32();
        let v3 = self.vector(f, 3);
        let t = self.new_type(Op::TypeMatrix, &[v3, 4]);
        self.rq.mat_ty = t;
        t
    }
}
