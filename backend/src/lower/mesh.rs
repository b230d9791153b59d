//! Mesh (ms_6_5+) and amplification (as_6_5+) shaders → SPIR-V `MeshEXT` /
//! `TaskEXT` (SPV_EXT_mesh_shader, SPIR-V 1.4 at least).
//!
//! Mesh outputs: every per-vertex element the link plan places at a Location
//! is an `Output` array of `max_vertices` element values, every per-primitive
//! element (the primitive signature, the plan's `patch_constants`) an array of
//! `max_primitives` decorated `PerPrimitiveEXT`; system values are the
//! built-in arrays (`Position`, `ClipDistance`, `CullDistance` per vertex;
//! `PrimitiveId`, `Layer`, `ViewportIndex`, `CullPrimitiveEXT` per
//! primitive). `StoreVertexOutput`/`StorePrimitiveOutput` index them with the
//! vertex/primitive index operand, `EmitIndices` writes
//! `PrimitiveTriangleIndicesEXT`/`PrimitiveLineIndicesEXT`,
//! `SetMeshOutputCounts` is `OpSetMeshOutputsEXT`.
//!
//! Payload: the amplification shader's groupshared variable passed to
//! `DispatchMesh` is declared in `TaskPayloadWorkgroupEXT` (shared by the
//! workgroup like groupshared memory, and what `OpEmitMeshTasksEXT` sends);
//! `GetMeshPayload` in the mesh shader is a `TaskPayloadWorkgroupEXT`
//! variable of the same type. `OpEmitMeshTasksEXT` ends the invocation, so it
//! is emitted in a block of its own (`if (true) { emit }`) and the code after
//! it (DXC's `ret`) stays valid.

use rspirv::spirv::{
    BuiltIn as SpvBuiltIn, Capability, Decoration, ExecutionMode, ExecutionModel, Op, StorageClass, Word,
};

use super::io::{IoVar, Slot};
use super::{is_undef, malformed, unsupported, Fail, LResult, Lowerer, Scalar, Val};
use crate::dxil::MeshOutputTopology;
use crate::dxil_op::DxilOp;
use crate::ir::{InstId, InstKind, Value};
use crate::link::{BuiltIn, ElementPlacement, Placement, StagePlan};

/// Mesh-shader state of one compile: counts and the declared output variables.
#[derive(Debug, Default)]
pub(crate) struct Mesh {
    max_vertices: u32,
    max_primitives: u32,
    lines: bool,
    /// Per-vertex user outputs, by index into the plan's `outputs`.
    vertex: Vec<Option<IoVar>>,
    /// Per-primitive user outputs, by index into the plan's `patch_constants`.
    prims: Vec<Option<IoVar>>,
    /// Built-in output arrays, declared on first use.
    builtins: Vec<(Slot, Word)>,
    /// Per-invocation copies of the last row written to each output variable (see `store_component`).
    shadows: Vec<(Word, Word)>,
    indices: Word,
    payload: Word,
}

impl Lowerer<'_> {
    fn mesh_state(&mut self) -> LResult<&mut Mesh> {
        self.mesh.as_mut().ok_or_else(|| Fail::Unsupported("mesh-shader op outside a mesh shader".into()))
    }

    fn mesh_caps(&mut self) {
        self.cap(Capability::MeshShadingEXT);
        self.ext("SPV_EXT_mesh_shader");
    }

    /// `MeshEXT`: the counts and topology from the mesh-shader state.
    pub(crate) fn mesh_model(&mut self) -> LResult<ExecutionModel> {
        self.mesh_caps();
        let Some(ms) = self.meta.ms.as_ref() else { return malformed("mesh shader without mesh-shader state") };
        let lines = match ms.output_topology {
            MeshOutputTopology::Triangle => false,
            MeshOutputTopology::Line => true,
            t => return malformed(format!("mesh shader output topology {t}")),
        };
        if ms.max_vertex_count > 256 || ms.max_primitive_count > 256 {
            return malformed(format!(
                "mesh shader with {} vertices and {} primitives (at most 256 each)",
                ms.max_vertex_count, ms.max_primitive_count
            ));
        }
        self.mesh = Some(Mesh {
            max_vertices: ms.max_vertex_count,
            max_primitives: ms.max_primitive_count,
            lines,
            ..Mesh::default()
        });
        Ok(ExecutionModel::MeshEXT)
    }

    /// `TaskEXT`: the groupshared variables passed to `DispatchMesh` become the task payload; a
    /// payload in a local variable (`alloca`) is copied to one at `DispatchMesh`.
    pub(crate) fn task_model(&mut self) -> LResult<ExecutionModel> {
        self.mesh_caps();
        self.mesh = Some(Mesh::default());
        let f = self.f;
        let sc = StorageClass::TaskPayloadWorkgroupEXT;
        for inst in &f.insts {
            let InstKind::DxOp { op: DxilOp::DispatchMesh, args, .. } = &inst.kind else { continue };
            let Some(&p) = f.values(*args).get(3) else { return malformed("DispatchMesh arguments") };
            match p {
                Value::Global(g) => {
                    if matches!(self.globals.get(g.index()), Some(Val::Ptr(..))) {
                        continue;
                    }
                    let gl = self.m.global(g);
                    if gl.addr_space != 3 {
                        return unsupported("DispatchMesh payload in a global that is not groupshared");
                    }
                    let t = self.payload_type(gl.value_ty)?;
                    let pt = self.pointer(sc, t);
                    let var = self.global_var(pt, sc, None);
                    if let Some(slot) = self.globals.get_mut(g.index()) {
                        *slot = Val::Ptr(var, sc);
                    }
                }
                Value::Inst(a) => {
                    let InstKind::Alloca { alloc_ty, .. } = f.inst(a).kind else {
                        return unsupported("DispatchMesh payload that is neither groupshared nor a local variable");
                    };
                    let t = self.payload_type(alloc_ty)?;
                    let m = self.mesh_state()?;
                    if m.payload != 0 {
                        continue;
                    }
                    let pt = self.pointer(sc, t);
                    let var = self.global_var(pt, sc, None);
                    self.mesh_state()?.payload = var;
                }
                _ => return unsupported("DispatchMesh payload that is neither groupshared nor a local variable"),
            }
        }
        Ok(ExecutionModel::TaskEXT)
    }

    /// `OutputVertices`, `OutputPrimitivesEXT` and the output topology.
    pub(crate) fn mesh_modes(&mut self, f: Word) -> LResult<()> {
        let Some(m) = self.mesh.as_ref().filter(|_| self.meta.kind == crate::ShaderKind::Mesh) else { return Ok(()) };
        // Vulkan needs both counts above 0 (a mesh shader may declare none and output nothing).
        let (v, p, lines) = (m.max_vertices.max(1), m.max_primitives.max(1), m.lines);
        self.b.execution_mode(f, ExecutionMode::OutputVertices, &[v]);
        self.b.execution_mode(f, ExecutionMode::OutputPrimitivesEXT, &[p]);
        let topo = if lines { ExecutionMode::OutputLinesEXT } else { ExecutionMode::OutputTrianglesEXT };
        self.b.execution_mode(f, topo, &[]);
        Ok(())
    }

    /// Declares every user output the plan places at a Location (both signatures).
    pub(crate) fn declare_mesh_io(&mut self, stage: &StagePlan) -> LResult<()> {
        let (nv, np) = {
            let m = self.mesh_state()?;
            (m.max_vertices, m.max_primitives)
        };
        let mut vertex = vec![None; stage.outputs.len()];
        for (k, e) in stage.outputs.iter().enumerate() {
            if let Placement::Location { location, component } = e.placement {
                vertex[k] = Some(self.mesh_varying(e, location, component, nv, false)?);
            }
        }
        let mut prims = vec![None; stage.patch_constants.len()];
        for (k, e) in stage.patch_constants.iter().enumerate() {
            if let Placement::Location { location, component } = e.placement {
                prims[k] = Some(self.mesh_varying(e, location, component, np, true)?);
            }
        }
        let m = self.mesh_state()?;
        m.vertex = vertex;
        m.prims = prims;
        Ok(())
    }

    /// One user output: `count` element values at `location`.
    fn mesh_varying(
        &mut self,
        e: &ElementPlacement,
        location: u32,
        component: u32,
        count: u32,
        per_primitive: bool,
    ) -> LResult<IoVar> {
        let scalar = super::io::decl_scalar(e.component_type)?;
        let width = u32::from(e.cols).clamp(1, 4);
        if component + width > 4 {
            return malformed(format!("signature element {} overflows its row", super::io::sv_name(e)));
        }
        let rows = e.rows.clamp(1, 64);
        let t = self.element_type(scalar, width, rows);
        let n = self.const_u32(count.max(1));
        let t = self.new_type(Op::TypeArray, &[t, n]);
        let pt = self.pointer(StorageClass::Output, t);
        let var = self.global_var(pt, StorageClass::Output, None);
        self.b.name_indexed(var, &e.semantic_name, e.semantic_indices.first().copied().unwrap_or(0));
        self.decorate(var, Decoration::Location, &[location]);
        if component != 0 {
            self.decorate(var, Decoration::Component, &[component]);
        }
        if per_primitive {
            self.decorate(var, Decoration::PerPrimitiveEXT, &[]);
        } else {
            self.interpolation(var, e.interpolation, scalar != Scalar::F32)?;
        }
        Ok(IoVar { var, scalar, width, shift: 0, rows, per_vertex: Some(count.max(1)) })
    }

    /// The output array of a built-in (`Position`, clip/cull distances per vertex; the rest per primitive).
    fn mesh_builtin(&mut self, s: Slot) -> LResult<Word> {
        if let Some(&(_, v)) = self.mesh_state()?.builtins.iter().find(|b| b.0 == s) {
            return Ok(v);
        }
        let (nv, np) = {
            let m = self.mesh_state()?;
            (m.max_vertices.max(1), m.max_primitives.max(1))
        };
        let (plan_clip, plan_cull) = match self.gfx.as_ref() {
            Some(g) => (g.stage.clip_distances_out, g.stage.cull_distances_out),
            None => (0, 0),
        };
        let f = self.f32();
        let u = self.u32();
        let (elem, count, bi, per_prim) = match s {
            Slot::Position => (self.vector(f, 4), nv, SpvBuiltIn::Position, false),
            Slot::ClipDistance | Slot::CullDistance => {
                let clip = s == Slot::ClipDistance;
                let n = self.const_u32(if clip { plan_clip } else { plan_cull }.max(1));
                let a = self.new_type(Op::TypeArray, &[f, n]);
                if clip {
                    self.cap(Capability::ClipDistance);
                    (a, nv, SpvBuiltIn::ClipDistance, false)
                } else {
                    self.cap(Capability::CullDistance);
                    (a, nv, SpvBuiltIn::CullDistance, false)
                }
            }
            Slot::PrimitiveId => (u, np, SpvBuiltIn::PrimitiveId, true),
            Slot::Layer => (u, np, SpvBuiltIn::Layer, true),
            Slot::ViewportIndex => (u, np, SpvBuiltIn::ViewportIndex, true),
            Slot::CullPrimitive => (self.bool(), np, SpvBuiltIn::CullPrimitiveEXT, true),
            other => return Err(Fail::Internal(format!("mesh built-in {other:?}"))),
        };
        let n = self.const_u32(count);
        let t = self.new_type(Op::TypeArray, &[elem, n]);
        let pt = self.pointer(StorageClass::Output, t);
        let var = self.global_var(pt, StorageClass::Output, None);
        self.decorate(var, Decoration::BuiltIn, &[bi as u32]);
        if per_prim {
            self.decorate(var, Decoration::PerPrimitiveEXT, &[]);
        }
        self.mesh_state()?.builtins.push((s, var));
        Ok(var)
    }

    /// `StoreVertexOutput` / `StorePrimitiveOutput` of element `id` (row, col) at `index`.
    fn mesh_store(
        &mut self,
        per_primitive: bool,
        id: u32,
        row: Value,
        col: Value,
        value: Value,
        index: Value,
    ) -> LResult<()> {
        let stage: &StagePlan = match self.gfx.as_ref() {
            Some(g) => g.stage,
            None => return unsupported("mesh outputs without a link plan"),
        };
        let list = if per_primitive { &stage.patch_constants } else { &stage.outputs };
        let Some((k, e)) = list.iter().enumerate().find(|(_, e)| e.id == id) else {
            return malformed(format!(
                "{} signature element {id} not in the signature",
                if per_primitive { "primitive output" } else { "output" }
            ));
        };
        let col = match self.m.const_uint(col) {
            Some(c @ 0..=3) => c as u32,
            Some(c) => return malformed(format!("signature column {c} out of range")),
            None => return unsupported("dynamic signature column index"),
        };
        if is_undef(self, value) {
            return Ok(());
        }
        let from = self
            .scalar_of(self.m.value_type(self.f, value))
            .ok_or(Fail::Unsupported("non-scalar mesh output".into()))?;
        match e.placement {
            Placement::Location { .. } => {
                let m = self.mesh_state()?;
                let v = if per_primitive { m.prims.get(k) } else { m.vertex.get(k) }.copied().flatten();
                let Some(v) = v else {
                    return Err(Fail::Internal(format!("mesh output {id} placed but not declared")));
                };
                let x = self.value(value)?;
                let x = self.convert_scalar(from, v.scalar, x)?;
                let i = self.mesh_index(index)?;
                let mut idx = vec![i];
                if v.rows > 1 {
                    let r = match self.m.const_uint(row) {
                        Some(r) if r < u64::from(v.rows) => self.const_u32(r as u32),
                        Some(r) => return malformed(format!("signature row {r} out of range ({} rows)", v.rows)),
                        None => self.index_u32(row)?,
                    };
                    idx.push(r);
                }
                let c = col + v.shift;
                if c >= v.width {
                    return malformed(format!("signature column {col} out of range"));
                }
                let st = self.scalar(v.scalar);
                let vt = if v.width > 1 { self.vector(st, v.width) } else { st };
                self.store_component(v.var, &idx, vt, v.width, c, x)
            }
            Placement::Unused | Placement::ZeroFill => Ok(()),
            Placement::BuiltIn(b) => {
                let x = self.value(value)?;
                let i = self.mesh_index(index)?;
                self.mesh_store_builtin(b, e, i, row, col, from, x)
            }
        }
    }

    /// Stores component `c` of the `width`-wide vector at `var[idx...]` as a whole vector.
    /// Mesa 25.0 lavapipe drops a mesh shader's primitives when `Position` is written one
    /// component at a time through an access chain, and crashes when a mesh shader reads its
    /// outputs back; DXIL writes every output component by component. So each output keeps a
    /// per-invocation shadow of its last written row (`Private`): a component store updates the
    /// shadow and writes the whole row. Exact whenever one invocation writes every component of
    /// a vertex or primitive it writes, which is how DXC emits element writes.
    fn store_component(&mut self, var: Word, idx: &[Word], vt: Word, width: u32, c: u32, x: Word) -> LResult<()> {
        let pt = self.pointer(StorageClass::Output, vt);
        let p = self.access_chain(pt, var, idx)?;
        if width <= 1 {
            return self.store(p, x);
        }
        let shadow = match self.mesh_state()?.shadows.iter().find(|s| s.0 == var) {
            Some(&(_, w)) => w,
            None => {
                let ppt = self.pointer(StorageClass::Private, vt);
                let w = self.global_var(ppt, StorageClass::Private, None);
                self.mesh_state()?.shadows.push((var, w));
                w
            }
        };
        let old = self.load(vt, shadow)?;
        let new = self.op(Op::CompositeInsert, vt, &[x, old, c])?;
        self.store(shadow, new)?;
        self.store(p, new)
    }

    /// A vertex or primitive index operand as a u32.
    fn mesh_index(&mut self, v: Value) -> LResult<Word> {
        if is_undef(self, v) {
            return malformed("mesh output written without a vertex or primitive index");
        }
        self.index_u32(v)
    }

    #[allow(clippy::too_many_arguments)]
    fn mesh_store_builtin(
        &mut self,
        b: BuiltIn,
        e: &ElementPlacement,
        index: Word,
        row: Value,
        col: u32,
        from: Scalar,
        x: Word,
    ) -> LResult<()> {
        let sc = StorageClass::Output;
        match b {
            BuiltIn::Position => {
                let var = self.mesh_builtin(Slot::Position)?;
                let c = (col + u32::try_from(e.start_col).unwrap_or(0)).min(3);
                let f = self.f32();
                let v4 = self.vector(f, 4);
                let v = self.convert_scalar(from, Scalar::F32, x)?;
                self.store_component(var, &[index], v4, 4, c, v)
            }
            BuiltIn::ClipDistance { offset } | BuiltIn::CullDistance { offset } => {
                let s = if matches!(b, BuiltIn::ClipDistance { .. }) { Slot::ClipDistance } else { Slot::CullDistance };
                let var = self.mesh_builtin(s)?;
                let k = self.clip_index(offset, e, row, col)?;
                let f = self.f32();
                let pt = self.pointer(sc, f);
                let p = self.access_chain(pt, var, &[index, k])?;
                let v = self.convert_scalar(from, Scalar::F32, x)?;
                self.store(p, v)
            }
            BuiltIn::PrimitiveId | BuiltIn::Layer | BuiltIn::ViewportIndex => {
                let s = match b {
                    BuiltIn::PrimitiveId => Slot::PrimitiveId,
                    BuiltIn::Layer => Slot::Layer,
                    _ => Slot::ViewportIndex,
                };
                let var = self.mesh_builtin(s)?;
                let u = self.u32();
                let pt = self.pointer(sc, u);
                let p = self.access_chain(pt, var, &[index])?;
                let v = self.convert_scalar(from, Scalar::U32, x)?;
                self.store(p, v)
            }
            BuiltIn::CullPrimitiveEXT => {
                let var = self.mesh_builtin(Slot::CullPrimitive)?;
                let bt = self.bool();
                let pt = self.pointer(sc, bt);
                let p = self.access_chain(pt, var, &[index])?;
                let v = self.convert_scalar(from, Scalar::Bool, x)?;
                self.store(p, v)
            }
            BuiltIn::PrimitiveShadingRateKHR => {
                unsupported("SV_ShadingRate in a mesh shader (needs VK_KHR_fragment_shading_rate)")
            }
            other => unsupported(format!("writing {} as {other:?} in a mesh shader", super::io::sv_name(e))),
        }
    }

    /// `EmitIndices(primitive, i0, i1, i2)`.
    fn emit_indices(&mut self, args: &[Value]) -> LResult<()> {
        let lines = self.mesh_state()?.lines;
        let np = self.mesh_state()?.max_primitives.max(1);
        let u = self.u32();
        let n = if lines { 2 } else { 3 };
        let vt = self.vector(u, n);
        let var = if self.mesh_state()?.indices != 0 {
            self.mesh_state()?.indices
        } else {
            let c = self.const_u32(np);
            let t = self.new_type(Op::TypeArray, &[vt, c]);
            let pt = self.pointer(StorageClass::Output, t);
            let var = self.global_var(pt, StorageClass::Output, None);
            let bi = if lines { SpvBuiltIn::PrimitiveLineIndicesEXT } else { SpvBuiltIn::PrimitiveTriangleIndicesEXT };
            self.decorate(var, Decoration::BuiltIn, &[bi as u32]);
            self.mesh_state()?.indices = var;
            var
        };
        let prim = self.mesh_index(args[0])?;
        let mut parts = [0; 3];
        for (k, p) in parts.iter_mut().take(n as usize).enumerate() {
            *p = self.mesh_index(args[1 + k])?;
        }
        let v = self.op(Op::CompositeConstruct, vt, &parts[..n as usize])?;
        let pt = self.pointer(StorageClass::Output, vt);
        let p = self.access_chain(pt, var, &[prim])?;
        self.store(p, v)
    }

    /// The type of a payload: identified structs (`%struct.Payload`) become plain SPIR-V structs,
    /// remembered as the lowering of their IR type for the access chains that follow.
    fn payload_type(&mut self, t: crate::ir::TypeId) -> LResult<Word> {
        if let Some(&w) = self.ir_types.get(t.0 as usize) {
            if w != 0 {
                return Ok(w);
            }
        }
        let elems = match self.m.types.get(t) {
            crate::ir::Type::Struct { elems, opaque: false, .. } => elems.clone(),
            crate::ir::Type::Array { len, elem } => {
                let (len, elem) = (*len, *elem);
                let e = self.payload_type(elem)?;
                let Ok(len) = u32::try_from(len) else { return unsupported("array longer than 2^32") };
                if len == 0 {
                    return unsupported("zero-length array in a payload");
                }
                let l = self.const_u32(len);
                let w = self.new_type(Op::TypeArray, &[e, l]);
                if let Some(slot) = self.ir_types.get_mut(t.0 as usize) {
                    *slot = w;
                }
                return Ok(w);
            }
            _ => return self.ty(t),
        };
        let mut ids = Vec::with_capacity(elems.len());
        for e in elems {
            ids.push(self.payload_type(e)?);
        }
        let w = self.new_type(Op::TypeStruct, &ids);
        if let Some(slot) = self.ir_types.get_mut(t.0 as usize) {
            *slot = w;
        }
        Ok(w)
    }

    /// `GetMeshPayload`: the mesh shader's `TaskPayloadWorkgroupEXT` variable.
    fn mesh_payload(&mut self, i: InstId) -> LResult<()> {
        let sc = StorageClass::TaskPayloadWorkgroupEXT;
        let var = self.mesh_state()?.payload;
        let var = if var != 0 {
            var
        } else {
            let t = self.f.inst(i).ty;
            let Some((pointee, _)) = self.m.types.pointee(t) else {
                return malformed("GetMeshPayload of non-pointer type");
            };
            let t = self.payload_type(pointee)?;
            let pt = self.pointer(sc, t);
            let var = self.global_var(pt, sc, None);
            self.mesh_state()?.payload = var;
            var
        };
        self.set(i, Val::Ptr(var, sc));
        Ok(())
    }

    /// `DispatchMesh(x, y, z, payload)`: `OpEmitMeshTasksEXT` in a block of its own.
    fn dispatch_mesh(&mut self, args: &[Value]) -> LResult<()> {
        if self.meta.kind != crate::ShaderKind::Amplification {
            return unsupported("DispatchMesh outside an amplification shader");
        }
        let mut dims = [0; 3];
        for (k, d) in dims.iter_mut().enumerate() {
            *d = self.value(args[k])?;
        }
        let (mut payload, sc) = self.pointer_value(args[3])?;
        if sc == StorageClass::Function {
            // A local payload: invocation 0's copy is sent (D3D leaves it to the implementation
            // when the invocations' payloads differ).
            let var = self.mesh_state()?.payload;
            if var == 0 {
                return Err(Fail::Internal("local DispatchMesh payload without a task payload variable".into()));
            }
            let idx = self.load_builtin(super::compute::Builtin::LocalInvocationIndex, None)?;
            let zero = self.const_u32(0);
            let bt = self.bool();
            let first = self.op(Op::IEqual, bt, &[idx, zero])?;
            self.guarded(first, |l| l.op_void(Op::CopyMemory, &[var, payload]))?;
            let wg = self.const_u32(rspirv::spirv::Scope::Workgroup as u32);
            let sem =
                rspirv::spirv::MemorySemantics::WORKGROUP_MEMORY | rspirv::spirv::MemorySemantics::ACQUIRE_RELEASE;
            let sem = self.const_u32(sem.bits());
            self.op_void(Op::ControlBarrier, &[wg, wg, sem])?;
            payload = var;
        } else if sc != StorageClass::TaskPayloadWorkgroupEXT {
            return unsupported("DispatchMesh payload that is neither groupshared nor a local variable");
        }
        let t = self.const_bool(true);
        let (body, merge) = (self.new_label(), self.new_label());
        self.b.selection_merge(merge).map_err(super::internal)?;
        self.b.branch_conditional(t, body, merge).map_err(super::internal)?;
        self.begin(body)?;
        self.b.terminator(Op::EmitMeshTasksEXT, &[dims[0], dims[1], dims[2], payload], &[]).map_err(super::internal)?;
        self.begin(merge)
    }
}

/// The mesh and amplification ops.
pub(super) fn lower(l: &mut Lowerer<'_>, i: InstId, op: DxilOp, args: &[Value]) -> LResult<()> {
    if args.len() < op.info().params.len() {
        return malformed(format!("{} arguments", op.name()));
    }
    if op == DxilOp::DispatchMesh {
        return l.dispatch_mesh(args);
    }
    if l.meta.kind != crate::ShaderKind::Mesh || l.mesh.is_none() {
        return unsupported(format!("DXIL op {} outside a mesh shader", op.name()));
    }
    let sig_id = |l: &Lowerer<'_>| -> LResult<u32> {
        match args.first().and_then(|a| l.m.const_uint(*a)) {
            Some(x) => Ok(x as u32),
            None => malformed("signature element id is not a constant"),
        }
    };
    match op {
        DxilOp::SetMeshOutputCounts => {
            let v = l.value(args[0])?;
            let p = l.value(args[1])?;
            l.op_void(Op::SetMeshOutputsEXT, &[v, p])
        }
        DxilOp::EmitIndices => l.emit_indices(args),
        DxilOp::GetMeshPayload => l.mesh_payload(i),
        DxilOp::StoreVertexOutput | DxilOp::StorePrimitiveOutput => {
            let id = sig_id(l)?;
            l.mesh_store(op == DxilOp::StorePrimitiveOutput, id, args[1], args[2], args[3], args[4])
        }
        _ => Err(Fail::Internal(format!("mesh::lower got {}", op.name()))),
    }
}
