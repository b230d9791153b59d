//! Stage I/O of graphics shaders: the Input/Output variables behind
//! `loadInput`/`storeOutput`, placed by a [`LinkPlan`], and the system values
//! as Vulkan built-ins. Shared by every graphics stage (VS, PS, GS; HS/DS
//! reuse the per-vertex arrays).
//!
//! Every element the plan puts at a Location is declared up front, on both
//! sides of each boundary exactly as the plan says, so the Vulkan interface
//! matches even where the shader never touches an element. Row/column
//! operands are relative to the element start: the variable of an element
//! is `[per-vertex array] of [rows array] of vector`, indexed by (vertex,
//! row, column + shift). `shift` is non-zero where a consumer declares the
//! producer's wider vector at the same Location (Vulkan matches whole
//! variables; D3D lets the consumer read a subset of the components).
//!
//! ZeroFill inputs load 0; Unused outputs are not declared and their
//! stores are dropped.

use rspirv::spirv::{BuiltIn as SpvBuiltIn, Capability, Decoration, Op, StorageClass, Word};

use super::{is_undef, malformed, unsupported, Fail, LResult, Lowerer, Scalar};
use crate::dxil::{ComponentType, InterpolationMode};
use crate::dxil_op::DxilOp;
use crate::ir::{InstId, Value};
use crate::link::{BuiltIn, ElementPlacement, LinkPlan, Placement, Stage, StagePlan};

/// A built-in variable, by meaning (clip/cull offsets are per element, not per variable).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Slot {
    Position,
    FragCoord,
    PointSize,
    ClipDistance,
    CullDistance,
    PrimitiveId,
    Layer,
    ViewportIndex,
    FragDepth,
    SampleMask,
    FrontFacing,
    SampleId,
    VertexIndex,
    InstanceIndex,
    BaseVertex,
    BaseInstance,
    InvocationId,
    FragStencilRef,
    ViewIndex,
    FullyCovered,
    HelperInvocation,
    BaryCoord,
    BaryCoordNoPersp,
    /// Pixel shaders' `ShadingRateKHR` input (SV_ShadingRate).
    ShadingRate,
    /// VS/GS `PrimitiveShadingRateKHR` output (SV_ShadingRate).
    PrimitiveShadingRate,
    /// Mesh shaders' per-primitive `CullPrimitiveEXT` (declared by `mesh`).
    CullPrimitive,
}

/// The SPIR-V shape of a built-in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shape {
    Scalar(Scalar),
    Vec(u32),
    /// `array<f32 | u32, n>`.
    Array(Scalar, u32),
}

/// One declared user-varying variable (graphics stages; hull/domain Location variables too).
#[derive(Debug, Clone, Copy)]
pub(crate) struct IoVar {
    pub var: Word,
    /// Declared component type (F32, U32 or I32).
    pub scalar: Scalar,
    pub width: u32,
    /// Element column c is vector component c + shift.
    pub shift: u32,
    /// Rows of the element (> 1: an array of rows).
    pub rows: u32,
    /// Per-vertex array length (GS inputs, HS/DS control-point arrays).
    pub per_vertex: Option<u32>,
}

/// Graphics state of one compile: the plan and the variables declared for it.
pub(crate) struct Gfx<'m> {
    pub plan: &'m LinkPlan,
    pub index: usize,
    pub stage: &'m StagePlan,
    inputs: Vec<Option<IoVar>>,
    outputs: Vec<Option<IoVar>>,
    builtins: Vec<(Slot, StorageClass, Word)>,
    /// Whether the stage writes PointSize before every vertex (VS always; GS with point output).
    pub writes_point_size: bool,
}

impl<'m> Gfx<'m> {
    pub fn new(plan: &'m LinkPlan, index: usize) -> Option<Gfx<'m>> {
        let stage = plan.stages.get(index)?;
        Some(Gfx {
            plan,
            index,
            stage,
            inputs: vec![None; stage.inputs.len()],
            outputs: vec![None; stage.outputs.len()],
            builtins: Vec::new(),
            writes_point_size: false,
        })
    }
}

/// The 32-bit scalar an element is declared with.
pub(super) fn decl_scalar(t: ComponentType) -> LResult<Scalar> {
    use ComponentType::*;
    Ok(match t {
        F16 | F32 | SNormF16 | UNormF16 | SNormF32 | UNormF32 => Scalar::F32,
        I16 | I32 => Scalar::I32,
        I1 | U16 | U32 | PackedS8x32 | PackedU8x32 => Scalar::U32,
        F64 | I64 | U64 | SNormF64 | UNormF64 => {
            return unsupported(format!("64-bit signature element ({})", t.name()))
        }
        Invalid => return malformed("signature element of invalid component type"),
    })
}

pub(super) fn sv_name(e: &ElementPlacement) -> String {
    let idx = e.semantic_indices.first().copied().unwrap_or(0);
    format!("{}{idx}", e.semantic_name)
}

impl<'m> Lowerer<'m> {
    fn gfx(&self) -> LResult<&Gfx<'m>> {
        self.gfx.as_ref().ok_or_else(|| Fail::Unsupported("stage I/O outside a graphics stage".into()))
    }

    fn gfx_mut(&mut self) -> LResult<&mut Gfx<'m>> {
        self.gfx.as_mut().ok_or_else(|| Fail::Unsupported("stage I/O outside a graphics stage".into()))
    }

    pub(crate) fn stage(&self) -> Option<Stage> {
        self.gfx.as_ref().map(|g| g.stage.stage)
    }

    /// Per-vertex input array length of the stage (GS: vertices per input primitive).
    fn input_vertices(&self) -> Option<u32> {
        let g = self.gfx.as_ref()?;
        match g.stage.stage {
            Stage::Geometry => Some(g.plan.geometry.as_ref().map_or(1, |x| x.input_vertices.max(1))),
            _ => None,
        }
    }

    /// Converts a loaded value of scalar `from` to scalar `to` (the op's overload).
    pub(crate) fn convert_scalar(&mut self, from: Scalar, to: Scalar, v: Word) -> LResult<Word> {
        if from == to {
            return Ok(v);
        }
        let t = self.scalar(to);
        match (from, to) {
            (Scalar::I32 | Scalar::U32 | Scalar::F32, Scalar::I32 | Scalar::U32 | Scalar::F32) => {
                self.op(Op::Bitcast, t, &[v])
            }
            (Scalar::F32, Scalar::F16) | (Scalar::F16, Scalar::F32) => self.op(Op::FConvert, t, &[v]),
            (Scalar::U32 | Scalar::I32, Scalar::U16) | (Scalar::U16, Scalar::U32) => self.op(Op::UConvert, t, &[v]),
            (Scalar::U16, Scalar::I32) => self.op(Op::SConvert, t, &[v]),
            (Scalar::F16, Scalar::U32 | Scalar::I32) => {
                // The half's bits, zero-extended (OpUConvert has an unsigned result).
                let h = self.scalar(Scalar::U16);
                let bits = self.op(Op::Bitcast, h, &[v])?;
                let u = self.u32();
                let w = self.op(Op::UConvert, u, &[bits])?;
                if to == Scalar::I32 {
                    self.op(Op::Bitcast, t, &[w])
                } else {
                    Ok(w)
                }
            }
            (Scalar::U32 | Scalar::I32, Scalar::Bool) => {
                let u = self.u32();
                let w = if from == Scalar::I32 { self.op(Op::Bitcast, u, &[v])? } else { v };
                let z = self.const_u32(0);
                self.op(Op::INotEqual, t, &[w, z])
            }
            (Scalar::Bool, Scalar::U32 | Scalar::I32) => {
                let one = self.const_scalar(to, 1);
                let zero = self.const_scalar(to, 0);
                self.op(Op::Select, t, &[v, one, zero])
            }
            (Scalar::F32, Scalar::U16) => {
                let u = self.u32();
                let w = self.op(Op::Bitcast, u, &[v])?;
                self.op(Op::UConvert, t, &[w])
            }
            _ => unsupported(format!("signature value conversion {from:?} → {to:?}")),
        }
    }

    fn value_scalar(&self, v: Value) -> LResult<Scalar> {
        let t = self.m.value_type(self.f, v);
        self.scalar_of(t).map_or_else(|| unsupported("non-scalar stage I/O value"), Ok)
    }

    // ---- declaration ---------------------------------------------------

    /// Declares every element the plan places at a Location (both signatures).
    pub(crate) fn declare_io(&mut self) -> LResult<()> {
        let Some(g) = self.gfx.as_ref() else { return Ok(()) };
        let stage: &'m StagePlan = g.stage;
        if stage.stage == Stage::Mesh {
            return self.declare_mesh_io(stage);
        }
        // Pixel inputs read per vertex (AttributeAtVertex, VK_KHR_fragment_shader_barycentric).
        let per_vertex_ids = self.attribute_at_vertex_ids();
        for (k, e) in stage.inputs.iter().enumerate() {
            if let Placement::Location { location, component } = e.placement {
                let v = if per_vertex_ids.contains(&e.id) {
                    self.declare_per_vertex_input(e, location, component)?
                } else {
                    self.declare_varying(e, location, component, StorageClass::Input)?
                };
                if let Some(slot) = self.gfx_mut()?.inputs.get_mut(k) {
                    *slot = Some(v);
                }
            }
        }
        for (k, e) in stage.outputs.iter().enumerate() {
            if let Placement::Location { location, component } = e.placement {
                let v = self.declare_varying(e, location, component, StorageClass::Output)?;
                if let Some(slot) = self.gfx_mut()?.outputs.get_mut(k) {
                    *slot = Some(v);
                }
            }
        }
        self.declare_xfb()?;
        // Outputs that change execution modes or need capabilities exist even when never stored.
        for e in &stage.outputs {
            if let Placement::BuiltIn(b) = e.placement {
                match b {
                    BuiltIn::FragDepth => {
                        self.builtin_var(Slot::FragDepth, StorageClass::Output)?;
                    }
                    BuiltIn::FragStencilRefEXT => {
                        self.builtin_var(Slot::FragStencilRef, StorageClass::Output)?;
                    }
                    _ => {}
                }
            }
        }
        Ok(())
    }

    /// Whether this stage's outputs are captured by transform feedback (`Xfb` execution mode).
    pub(crate) fn captures_xfb(&self) -> bool {
        self.xfb_stage()
            .is_some_and(|(plan, stage)| plan.stream_output.as_ref().is_some_and(|so| so.stage == stage.stage))
    }

    /// The plan and stage of a graphics compile (VS/GS/PS through `Gfx`, HS/DS through `Tess`).
    fn xfb_stage(&self) -> Option<(&'m LinkPlan, &'m StagePlan)> {
        match (&self.gfx, &self.tess) {
            (Some(g), _) => Some((g.plan, g.stage)),
            (None, Some(t)) => Some(t.plan_stage()),
            (None, None) => None,
        }
    }

    /// The declared output variable of element `k`: (variable, rows, shift, width).
    fn xfb_output_var(&mut self, k: usize) -> LResult<Option<(Word, u32, u32, u32)>> {
        if self.tess.is_some() {
            return self.tess_output_var(k);
        }
        Ok(self.gfx()?.outputs.get(k).copied().flatten().map(|v| (v.var, v.rows, v.shift, v.width)))
    }

    fn xfb_position_var(&mut self) -> LResult<Word> {
        if self.tess.is_some() {
            return self.tess_position_output();
        }
        self.builtin_var(Slot::Position, StorageClass::Output)
    }

    /// Stream output: `XfbBuffer`/`XfbStride`/`Offset` on every captured output variable. One
    /// declaration must capture a whole variable (every component of a one-row element, or all of
    /// `SV_Position`): partial or split captures would need their own variables and are reported
    /// unsupported, as is capturing one element twice.
    pub(crate) fn declare_xfb(&mut self) -> LResult<()> {
        if !self.captures_xfb() {
            return Ok(());
        }
        let Some((plan, stage)) = self.xfb_stage() else { return Ok(()) };
        let Some(so) = plan.stream_output.as_ref() else { return Ok(()) };
        let rasterized = plan.geometry.as_ref().map(|gp| gp.rasterized_stream);
        let mut done: Vec<Word> = Vec::new();
        for x in &so.outputs {
            let Some((k, e)) = stage.outputs.iter().enumerate().find(|(_, e)| e.id == x.element) else {
                return Err(Fail::Internal(format!("stream output element {} is not an output", x.element)));
            };
            let name =
                format!("stream output of {}{}", e.semantic_name, e.semantic_indices.get(x.row as usize).unwrap_or(&0));
            let var = match e.placement {
                Placement::Location { .. } => {
                    let Some((var, rows, shift, width)) = self.xfb_output_var(k)? else {
                        return Err(Fail::Internal(format!("{name}: output placed but not declared")));
                    };
                    if rows != 1 || x.row != 0 || shift != 0 || x.first_component != 0 || x.components != width {
                        return unsupported(format!(
                            "{name}: components {}..+{} of a {rows}-row, {width}-component element \
                             (only whole one-row elements are captured)",
                            x.first_component, x.components
                        ));
                    }
                    var
                }
                Placement::BuiltIn(BuiltIn::Position) => {
                    let col = u32::try_from(e.start_col).unwrap_or(0);
                    if col + x.first_component != 0 || x.components != 4 {
                        return unsupported(format!(
                            "{name}: components {}..+{} of SV_Position (only all four are captured)",
                            x.first_component, x.components
                        ));
                    }
                    if let Some(rs) = rasterized {
                        if rs.unwrap_or(0) != e.stream {
                            return unsupported(format!("{name}: SV_Position of a stream that is not rasterized"));
                        }
                    }
                    self.xfb_position_var()?
                }
                other => return unsupported(format!("{name}: capturing {other:?}")),
            };
            if done.contains(&var) {
                return unsupported(format!("{name}: the element is captured twice"));
            }
            done.push(var);
            self.decorate(var, Decoration::XfbBuffer, &[x.buffer]);
            self.decorate(var, Decoration::XfbStride, &[x.stride]);
            self.decorate(var, Decoration::Offset, &[x.offset]);
        }
        self.cap(Capability::TransformFeedback);
        Ok(())
    }

    /// The declared (component, width) of a consumer element: the producer's
    /// vector when it is wider at the same Location.
    fn declared_shape(&self, e: &ElementPlacement, location: u32, component: u32, sc: StorageClass) -> (u32, u32) {
        let own = (component, u32::from(e.cols).clamp(1, 4));
        let Some(g) = self.gfx.as_ref() else { return own };
        if sc != StorageClass::Input || g.index == 0 {
            return own;
        }
        let Some(prev) = g.plan.stages.get(g.index - 1) else { return own };
        for p in &prev.outputs {
            if let Placement::Location { location: pl, component: pc } = p.placement {
                let pw = u32::from(p.cols).clamp(1, 4);
                if pl == location && pc <= component && component + own.1 <= pc + pw && p.rows == e.rows {
                    return (pc, pw);
                }
            }
        }
        own
    }

    /// The type of one signature element's variable: `width` components of
    /// `scalar`, an array of `rows` rows when it has more than one.
    pub(super) fn element_type(&mut self, scalar: Scalar, width: u32, rows: u32) -> Word {
        let st = self.scalar(scalar);
        let t = if width > 1 { self.vector(st, width) } else { st };
        if rows > 1 {
            let n = self.const_u32(rows);
            return self.new_type(Op::TypeArray, &[t, n]);
        }
        t
    }

    /// The input signature ids a pixel shader reads with `AttributeAtVertex` (none without
    /// `CompileOptions::fragment_barycentrics`: the op is then refused).
    fn attribute_at_vertex_ids(&self) -> Vec<u32> {
        if !self.opts.fragment_barycentrics || self.stage() != Some(Stage::Pixel) {
            return Vec::new();
        }
        let mut ids = Vec::new();
        for inst in &self.f.insts {
            if let crate::ir::InstKind::DxOp { op: crate::dxil_op::DxilOp::AttributeAtVertex, args, .. } = &inst.kind {
                if let Some(id) = self.f.values(*args).first().and_then(|&v| self.m.const_uint(v)) {
                    ids.push(id as u32);
                }
            }
        }
        ids
    }

    /// A pixel input read per vertex: `PerVertexKHR` array of the primitive's 3 vertices (no
    /// interpolation decorations), matched by the producer's plain output at the same Location.
    fn declare_per_vertex_input(&mut self, e: &ElementPlacement, location: u32, component: u32) -> LResult<IoVar> {
        let scalar = decl_scalar(e.component_type)?;
        let (dcomp, width) = self.declared_shape(e, location, component, StorageClass::Input);
        if dcomp + width > 4 {
            return malformed(format!("signature element {} overflows its row", sv_name(e)));
        }
        let rows = e.rows.clamp(1, 64);
        let t = self.element_type(scalar, width, rows);
        let n = self.const_u32(3);
        let t = self.new_type(Op::TypeArray, &[t, n]);
        let pt = self.pointer(StorageClass::Input, t);
        let var = self.global_var(pt, StorageClass::Input, None);
        self.b.name_indexed(var, &e.semantic_name, e.semantic_indices.first().copied().unwrap_or(0));
        self.decorate(var, Decoration::Location, &[location]);
        if dcomp != 0 {
            self.decorate(var, Decoration::Component, &[dcomp]);
        }
        self.cap(Capability::FragmentBarycentricKHR);
        self.ext("SPV_KHR_fragment_shader_barycentric");
        self.decorate(var, Decoration::PerVertexKHR, &[]);
        Ok(IoVar { var, scalar, width, shift: component - dcomp, rows, per_vertex: Some(3) })
    }

    fn declare_varying(
        &mut self,
        e: &ElementPlacement,
        location: u32,
        component: u32,
        sc: StorageClass,
    ) -> LResult<IoVar> {
        let scalar = decl_scalar(e.component_type)?;
        let (dcomp, width) = self.declared_shape(e, location, component, sc);
        if dcomp + width > 4 {
            return malformed(format!("signature element {} overflows its row", sv_name(e)));
        }
        let rows = e.rows.clamp(1, 64);
        let mut t = self.element_type(scalar, width, rows);
        let per_vertex = if sc == StorageClass::Input { self.input_vertices() } else { None };
        if let Some(nv) = per_vertex {
            let n = self.const_u32(nv);
            t = self.new_type(Op::TypeArray, &[t, n]);
        }
        let pt = self.pointer(sc, t);
        let var = self.global_var(pt, sc, None);
        self.b.name_indexed(var, &e.semantic_name, e.semantic_indices.first().copied().unwrap_or(0));
        let stage = self.stage();
        // Dual-source blending (pipeline state): SV_Target0 and SV_Target1 are the two sources of
        // attachment 0 (Location 0, Index 0 and 1).
        let dual = self.opts.state.dual_source_blending
            && sc == StorageClass::Output
            && stage == Some(Stage::Pixel)
            && location <= 1
            && e.semantic_name.eq_ignore_ascii_case("SV_Target");
        if dual {
            self.decorate(var, Decoration::Location, &[0]);
            self.decorate(var, Decoration::Index, &[location]);
        } else {
            self.decorate(var, Decoration::Location, &[location]);
        }
        if dcomp != 0 {
            self.decorate(var, Decoration::Component, &[dcomp]);
        }
        // Pixel inputs interpolate as declared; pre-raster outputs repeat their own element's mode
        // (Vulkan ignores it there, but drivers such as llvmpipe set up interpolation from the producer).
        let pre_raster_out = sc == StorageClass::Output && matches!(stage, Some(Stage::Vertex | Stage::Geometry));
        if (sc == StorageClass::Input && stage == Some(Stage::Pixel)) || pre_raster_out {
            self.interpolation(var, e.interpolation, scalar != Scalar::F32)?;
        }
        if sc == StorageClass::Output && stage == Some(Stage::Geometry) {
            self.stream_decoration(var, e.stream);
        }
        if e.per_primitive && sc == StorageClass::Input {
            // A pixel input fed by a mesh shader's per-primitive output.
            self.cap(Capability::MeshShadingEXT);
            self.ext("SPV_EXT_mesh_shader");
            self.decorate(var, Decoration::PerPrimitiveEXT, &[]);
        }
        Ok(IoVar { var, scalar, width, shift: component - dcomp, rows, per_vertex })
    }

    pub(crate) fn interpolation(&mut self, var: Word, mode: InterpolationMode, integer: bool) -> LResult<()> {
        use InterpolationMode::*;
        if integer || mode == Constant {
            self.b.decorate(var, Decoration::Flat, &[]);
            return Ok(());
        }
        let (noperspective, centroid, sample) = match mode {
            Undefined | Linear => (false, false, false),
            LinearCentroid => (false, true, false),
            LinearSample => (false, false, true),
            LinearNoperspective => (true, false, false),
            LinearNoperspectiveCentroid => (true, true, false),
            LinearNoperspectiveSample => (true, false, true),
            Constant => (false, false, false),
            Invalid => return malformed("invalid interpolation mode"),
        };
        if noperspective {
            self.b.decorate(var, Decoration::NoPerspective, &[]);
        }
        if centroid {
            self.b.decorate(var, Decoration::Centroid, &[]);
        }
        if sample {
            self.cap(Capability::SampleRateShading);
            self.b.decorate(var, Decoration::Sample, &[]);
        }
        Ok(())
    }

    /// `Stream n` on a GS output when the shader uses several streams.
    fn stream_decoration(&mut self, var: Word, stream: u32) {
        let multi = self.gfx.as_ref().and_then(|g| g.plan.geometry.as_ref()).is_some_and(|g| g.active_stream_mask > 1);
        if multi || stream != 0 {
            self.cap(Capability::GeometryStreams);
            self.decorate(var, Decoration::Stream, &[stream]);
        }
    }

    fn builtin_shape(&self, s: Slot) -> LResult<Shape> {
        let g = self.gfx()?;
        Ok(match s {
            Slot::Position | Slot::FragCoord => Shape::Vec(4),
            Slot::BaryCoord | Slot::BaryCoordNoPersp => Shape::Vec(3),
            Slot::PointSize | Slot::FragDepth => Shape::Scalar(Scalar::F32),
            Slot::FrontFacing | Slot::FullyCovered | Slot::HelperInvocation => Shape::Scalar(Scalar::Bool),
            Slot::SampleMask => Shape::Array(Scalar::U32, 1),
            Slot::ClipDistance | Slot::CullDistance => {
                let st = g.stage;
                let clip = s == Slot::ClipDistance;
                // Both directions are sized by the plan; take the larger when a stage passes them on.
                let n = if clip {
                    st.clip_distances_in.max(st.clip_distances_out)
                } else {
                    st.cull_distances_in.max(st.cull_distances_out)
                };
                Shape::Array(Scalar::F32, n.max(1))
            }
            _ => Shape::Scalar(Scalar::U32),
        })
    }

    fn builtin_size(&self, s: Slot, sc: StorageClass) -> LResult<u32> {
        let st = self.gfx()?.stage;
        let n = match (s, sc) {
            (Slot::ClipDistance, StorageClass::Input) => st.clip_distances_in,
            (Slot::ClipDistance, _) => st.clip_distances_out,
            (Slot::CullDistance, StorageClass::Input) => st.cull_distances_in,
            (_, _) => st.cull_distances_out,
        };
        Ok(n.max(1))
    }

    /// The variable of a built-in, declared on first use.
    pub(crate) fn builtin_var(&mut self, s: Slot, sc: StorageClass) -> LResult<Word> {
        if let Some(&(_, _, v)) = self.gfx()?.builtins.iter().find(|b| b.0 == s && b.1 == sc) {
            return Ok(v);
        }
        let stage = self.stage();
        let mut shape = self.builtin_shape(s)?;
        if let Shape::Array(sc0, _) = shape {
            if matches!(s, Slot::ClipDistance | Slot::CullDistance) {
                shape = Shape::Array(sc0, self.builtin_size(s, sc)?);
            }
        }
        let mut t = match shape {
            Shape::Scalar(x) => self.scalar(x),
            Shape::Vec(n) => {
                let f = self.f32();
                self.vector(f, n)
            }
            Shape::Array(x, n) => {
                let e = self.scalar(x);
                let c = self.const_u32(n);
                self.new_type(Op::TypeArray, &[e, c])
            }
        };
        let per_vertex = sc == StorageClass::Input
            && matches!(s, Slot::Position | Slot::PointSize | Slot::ClipDistance | Slot::CullDistance);
        if per_vertex {
            if let Some(nv) = self.input_vertices() {
                let c = self.const_u32(nv);
                t = self.new_type(Op::TypeArray, &[t, c]);
            }
        }
        let pt = self.pointer(sc, t);
        let var = self.global_var(pt, sc, None);
        let pixel = stage == Some(Stage::Pixel);
        let bi = match s {
            Slot::Position => SpvBuiltIn::Position,
            Slot::FragCoord => SpvBuiltIn::FragCoord,
            Slot::PointSize => {
                if stage == Some(Stage::Geometry) {
                    self.cap(Capability::GeometryPointSize);
                }
                SpvBuiltIn::PointSize
            }
            Slot::ClipDistance => {
                self.cap(Capability::ClipDistance);
                SpvBuiltIn::ClipDistance
            }
            Slot::CullDistance => {
                self.cap(Capability::CullDistance);
                SpvBuiltIn::CullDistance
            }
            Slot::PrimitiveId => {
                self.cap(Capability::Geometry);
                SpvBuiltIn::PrimitiveId
            }
            Slot::Layer => {
                if pixel || stage == Some(Stage::Geometry) {
                    self.cap(Capability::Geometry);
                } else {
                    self.cap(Capability::ShaderViewportIndexLayerEXT);
                    self.ext("SPV_EXT_shader_viewport_index_layer");
                }
                SpvBuiltIn::Layer
            }
            Slot::ViewportIndex => {
                if pixel || stage == Some(Stage::Geometry) {
                    self.cap(Capability::MultiViewport);
                } else {
                    self.cap(Capability::ShaderViewportIndexLayerEXT);
                    self.ext("SPV_EXT_shader_viewport_index_layer");
                }
                SpvBuiltIn::ViewportIndex
            }
            Slot::FragDepth => SpvBuiltIn::FragDepth,
            Slot::SampleMask => SpvBuiltIn::SampleMask,
            Slot::FrontFacing => SpvBuiltIn::FrontFacing,
            Slot::SampleId => {
                self.cap(Capability::SampleRateShading);
                SpvBuiltIn::SampleId
            }
            Slot::VertexIndex => SpvBuiltIn::VertexIndex,
            Slot::InstanceIndex => SpvBuiltIn::InstanceIndex,
            Slot::BaseVertex => {
                self.cap(Capability::DrawParameters);
                SpvBuiltIn::BaseVertex
            }
            Slot::BaseInstance => {
                self.cap(Capability::DrawParameters);
                SpvBuiltIn::BaseInstance
            }
            Slot::InvocationId => SpvBuiltIn::InvocationId,
            Slot::FragStencilRef => {
                self.cap(Capability::StencilExportEXT);
                self.ext("SPV_EXT_shader_stencil_export");
                SpvBuiltIn::FragStencilRefEXT
            }
            Slot::ViewIndex => {
                self.cap(Capability::MultiView);
                SpvBuiltIn::ViewIndex
            }
            Slot::FullyCovered => {
                self.cap(Capability::FragmentFullyCoveredEXT);
                self.ext("SPV_EXT_fragment_fully_covered");
                SpvBuiltIn::FullyCoveredEXT
            }
            Slot::HelperInvocation => SpvBuiltIn::HelperInvocation,
            Slot::CullPrimitive => return Err(Fail::Internal("CullPrimitiveEXT outside a mesh shader".into())),
            Slot::ShadingRate | Slot::PrimitiveShadingRate => {
                self.cap(Capability::FragmentShadingRateKHR);
                self.ext("SPV_KHR_fragment_shading_rate");
                if s == Slot::ShadingRate {
                    SpvBuiltIn::ShadingRateKHR
                } else {
                    SpvBuiltIn::PrimitiveShadingRateKHR
                }
            }
            Slot::BaryCoord | Slot::BaryCoordNoPersp => {
                self.cap(Capability::FragmentBarycentricKHR);
                self.ext("SPV_KHR_fragment_shader_barycentric");
                if s == Slot::BaryCoord {
                    SpvBuiltIn::BaryCoordKHR
                } else {
                    SpvBuiltIn::BaryCoordNoPerspKHR
                }
            }
        };
        self.b.decorate(var, Decoration::BuiltIn, &[bi as u32]);
        if s == Slot::Position && sc == StorageClass::Output && self.opts.state.invariant_position {
            // Pipeline state: the position is computed identically in every pipeline that shares
            // the computation (D3D12 `precise` position across depth pre-passes).
            self.b.decorate(var, Decoration::Invariant, &[]);
        }
        if pixel
            && sc == StorageClass::Input
            && matches!(
                s,
                Slot::PrimitiveId
                    | Slot::SampleId
                    | Slot::Layer
                    | Slot::ViewportIndex
                    | Slot::ViewIndex
                    | Slot::ShadingRate
            )
        {
            self.b.decorate(var, Decoration::Flat, &[]);
        }
        if sc == StorageClass::Output && stage == Some(Stage::Geometry) {
            let stream = self.gfx.as_ref().and_then(|g| g.plan.geometry.as_ref()).and_then(|g| g.rasterized_stream);
            self.stream_decoration(var, stream.unwrap_or(0));
        }
        self.gfx_mut()?.builtins.push((s, sc, var));
        Ok(var)
    }

    /// Loads a scalar built-in as a u32 (bools as 0/1 unless `mask_true`: 0/0xFFFFFFFF).
    pub(crate) fn load_scalar_builtin(&mut self, s: Slot) -> LResult<Word> {
        let var = self.builtin_var(s, StorageClass::Input)?;
        let u = self.u32();
        match self.builtin_shape(s)? {
            Shape::Scalar(Scalar::Bool) => {
                let bt = self.bool();
                let b = self.load(bt, var)?;
                let t = self.const_u32(if s == Slot::FrontFacing { u32::MAX } else { 1 });
                let z = self.const_u32(0);
                self.op(Op::Select, u, &[b, t, z])
            }
            Shape::Scalar(Scalar::U32) => {
                let x = self.load(u, var)?;
                let base = match s {
                    Slot::VertexIndex => Some(Slot::BaseVertex),
                    Slot::InstanceIndex => Some(Slot::BaseInstance),
                    _ => None,
                };
                match base {
                    Some(b) => {
                        let bv = self.builtin_var(b, StorageClass::Input)?;
                        let y = self.load(u, bv)?;
                        self.op(Op::ISub, u, &[x, y])
                    }
                    None => Ok(x),
                }
            }
            Shape::Array(Scalar::U32, _) => {
                let pt = self.pointer(StorageClass::Input, u);
                let z = self.const_u32(0);
                let p = self.access_chain(pt, var, &[z])?;
                self.load(u, p)
            }
            _ => Err(Fail::Internal(format!("load_scalar_builtin {s:?}"))),
        }
    }

    // ---- element access -------------------------------------------------

    fn row_index(&mut self, row: Value, rows: u32) -> LResult<Option<Word>> {
        if rows <= 1 {
            return Ok(None);
        }
        if let Some(r) = self.m.const_uint(row) {
            if r >= u64::from(rows) {
                return malformed(format!("signature row {r} out of range ({rows} rows)"));
            }
            return Ok(Some(self.const_u32(r as u32)));
        }
        Ok(Some(self.index_u32(row)?))
    }

    /// An integer value as a u32 id.
    pub(super) fn index_u32(&mut self, v: Value) -> LResult<Word> {
        let s = self.value_scalar(v)?;
        let x = self.value(v)?;
        match s {
            Scalar::U32 => Ok(x),
            Scalar::U8 | Scalar::U16 | Scalar::U64 => {
                let u = self.u32();
                self.op(Op::UConvert, u, &[x])
            }
            Scalar::Bool => {
                // Sign-extended like any integer: true is -1.
                let u = self.u32();
                let (all, zero) = (self.const_u32(u32::MAX), self.const_u32(0));
                self.op(Op::Select, u, &[x, all, zero])
            }
            _ => malformed("non-integer signature index"),
        }
    }

    fn const_col(&self, col: Value) -> LResult<u32> {
        match self.m.const_uint(col) {
            Some(c @ 0..=3) => Ok(c as u32),
            Some(c) => malformed(format!("signature column {c} out of range")),
            None => unsupported("dynamic signature column index"),
        }
    }

    /// Pointer to component `col` of row `row` (of vertex `vertex`) of a varying.
    pub(super) fn varying_ptr(
        &mut self,
        v: IoVar,
        sc: StorageClass,
        vertex: Option<Value>,
        row: Value,
        col: u32,
    ) -> LResult<Word> {
        let mut idx = ChainIdx::default();
        if v.per_vertex.is_some() {
            match vertex.filter(|x| !is_undef(self, *x)) {
                Some(vx) => idx.push(self.index_u32(vx)?),
                // A pixel input also read with AttributeAtVertex (nointerpolation, as D3D requires):
                // a plain read is the provoking (first) vertex's value.
                None if self.stage() == Some(Stage::Pixel) => idx.push(self.const_u32(0)),
                None => return malformed("per-vertex input read without a vertex index"),
            }
        }
        if let Some(r) = self.row_index(row, v.rows)? {
            idx.push(r);
        }
        self.component_ptr(v, sc, col, &mut idx)
    }

    /// Pointer to column `col` of `v` after the vertex and row indices in `idx` (the variable
    /// itself when no index is needed).
    pub(crate) fn component_ptr(&mut self, v: IoVar, sc: StorageClass, col: u32, idx: &mut ChainIdx) -> LResult<Word> {
        let c = col + v.shift;
        if c >= v.width {
            return malformed(format!("signature column {col} out of range"));
        }
        if v.width > 1 {
            idx.push(self.const_u32(c));
        }
        if idx.is_empty() {
            return Ok(v.var);
        }
        let st = self.scalar(v.scalar);
        let pt = self.pointer(sc, st);
        self.access_chain(pt, v.var, idx.as_slice())
    }

    /// Index into a merged clip/cull array for element (row, col).
    pub(crate) fn clip_index(&mut self, offset: u32, e: &ElementPlacement, row: Value, col: u32) -> LResult<Word> {
        let cols = u32::from(e.cols).max(1);
        match self.m.const_uint(row) {
            Some(r) => Ok(self.const_u32(offset + (r as u32) * cols + col)),
            None => {
                let u = self.u32();
                let r = self.index_u32(row)?;
                let c = self.const_u32(cols);
                let m = self.op(Op::IMul, u, &[r, c])?;
                let k = self.const_u32(offset + col);
                self.op(Op::IAdd, u, &[m, k])
            }
        }
    }

    fn element(&self, sig_input: bool, id: u32) -> LResult<(usize, &'m ElementPlacement)> {
        let st: &'m StagePlan = self.gfx()?.stage;
        let v = if sig_input { &st.inputs } else { &st.outputs };
        match v.iter().enumerate().find(|(_, e)| e.id == id) {
            Some(x) => Ok(x),
            None => malformed(format!(
                "{} signature element {id} not in the signature",
                if sig_input { "input" } else { "output" }
            )),
        }
    }

    /// `loadInput(id, row, col, vertex)` and friends reading the same element.
    pub(crate) fn load_input(
        &mut self,
        id: u32,
        row: Value,
        col: Value,
        vertex: Option<Value>,
        to: Scalar,
    ) -> LResult<Word> {
        let (k, e) = self.element(true, id)?;
        let col = self.const_col(col)?;
        match e.placement {
            Placement::Location { .. } => {
                let Some(v) = self.gfx()?.inputs.get(k).copied().flatten() else {
                    return Err(Fail::Internal(format!("input {id} placed but not declared")));
                };
                let p = self.varying_ptr(v, StorageClass::Input, vertex, row, col)?;
                let st = self.scalar(v.scalar);
                let x = self.load(st, p)?;
                self.convert_scalar(v.scalar, to, x)
            }
            Placement::ZeroFill | Placement::Unused => Ok(self.const_scalar(to, 0)),
            Placement::BuiltIn(_)
                if self.stage() == Some(Stage::Pixel) && vertex.is_some_and(|v| !is_undef(self, v)) =>
            {
                unsupported(format!("AttributeAtVertex of the system value {}", sv_name(e)))
            }
            Placement::BuiltIn(b) => {
                let (x, from) = self.load_builtin_element(b, e, vertex, row, col)?;
                self.convert_scalar(from, to, x)
            }
        }
    }

    fn per_vertex_index(&mut self, vertex: Option<Value>) -> LResult<Option<Word>> {
        if self.input_vertices().is_none() {
            return Ok(None);
        }
        match vertex.filter(|x| !is_undef(self, *x)) {
            Some(v) => Ok(Some(self.index_u32(v)?)),
            None => malformed("per-vertex input read without a vertex index"),
        }
    }

    fn load_builtin_element(
        &mut self,
        b: BuiltIn,
        e: &ElementPlacement,
        vertex: Option<Value>,
        row: Value,
        col: u32,
    ) -> LResult<(Word, Scalar)> {
        let f = self.f32();
        let sc = StorageClass::Input;
        match b {
            BuiltIn::Position | BuiltIn::FragCoord => {
                let s = if b == BuiltIn::Position { Slot::Position } else { Slot::FragCoord };
                let var = self.builtin_var(s, sc)?;
                let mut idx = Vec::new();
                if s == Slot::Position {
                    idx.extend(self.per_vertex_index(vertex)?);
                }
                let c = col + u32::try_from(e.start_col).unwrap_or(0).min(3);
                idx.push(self.const_u32(c.min(3)));
                let pt = self.pointer(sc, f);
                let p = self.access_chain(pt, var, &idx)?;
                let x = self.load(f, p)?;
                if s == Slot::FragCoord && c == 3 {
                    let one = self.const_f32(1.0);
                    return Ok((self.op(Op::FDiv, f, &[one, x])?, Scalar::F32));
                }
                Ok((x, Scalar::F32))
            }
            BuiltIn::ClipDistance { offset } | BuiltIn::CullDistance { offset } => {
                let s = if matches!(b, BuiltIn::ClipDistance { .. }) { Slot::ClipDistance } else { Slot::CullDistance };
                let var = self.builtin_var(s, sc)?;
                let mut idx = Vec::new();
                idx.extend(self.per_vertex_index(vertex)?);
                idx.push(self.clip_index(offset, e, row, col)?);
                let pt = self.pointer(sc, f);
                let p = self.access_chain(pt, var, &idx)?;
                Ok((self.load(f, p)?, Scalar::F32))
            }
            BuiltIn::BaryCoordKHR | BuiltIn::BaryCoordNoPerspKHR => {
                if !self.opts.fragment_barycentrics {
                    return unsupported(
                        "SV_Barycentrics (needs VK_KHR_fragment_shader_barycentric: CompileOptions::fragment_barycentrics)",
                    );
                }
                let s = if b == BuiltIn::BaryCoordKHR { Slot::BaryCoord } else { Slot::BaryCoordNoPersp };
                let var = self.builtin_var(s, sc)?;
                let k = self.const_u32(col.min(2));
                let pt = self.pointer(sc, f);
                let p = self.access_chain(pt, var, &[k])?;
                Ok((self.load(f, p)?, Scalar::F32))
            }
            _ => {
                let s = match b {
                    BuiltIn::PrimitiveId => Slot::PrimitiveId,
                    BuiltIn::Layer => Slot::Layer,
                    BuiltIn::ViewportIndex => Slot::ViewportIndex,
                    BuiltIn::SampleMask => Slot::SampleMask,
                    BuiltIn::FrontFacing => Slot::FrontFacing,
                    BuiltIn::SampleId => Slot::SampleId,
                    BuiltIn::VertexIndex => Slot::VertexIndex,
                    BuiltIn::InstanceIndex => Slot::InstanceIndex,
                    BuiltIn::InvocationId => Slot::InvocationId,
                    BuiltIn::ViewIndex => Slot::ViewIndex,
                    BuiltIn::FullyCoveredEXT => Slot::FullyCovered,
                    // D3D12_SHADING_RATE is (log2 width) << 2 | log2 height, the same bits as
                    // Vulkan's ShadingRateKHR (Horizontal2/4Pixels = 4/8, Vertical2/4Pixels = 1/2).
                    BuiltIn::ShadingRateKHR => {
                        self.require_shading_rate()?;
                        Slot::ShadingRate
                    }
                    other => return unsupported(format!("reading {} as {other:?}", sv_name(e))),
                };
                Ok((self.load_scalar_builtin(s)?, Scalar::U32))
            }
        }
    }

    /// `storeOutput(id, row, col, value)`.
    pub(crate) fn store_output(&mut self, id: u32, row: Value, col: Value, value: Value) -> LResult<()> {
        let (k, e) = self.element(false, id)?;
        let col = self.const_col(col)?;
        if is_undef(self, value) {
            return Ok(());
        }
        let from = self.value_scalar(value)?;
        match e.placement {
            Placement::Location { .. } => {
                let Some(v) = self.gfx()?.outputs.get(k).copied().flatten() else {
                    return Err(Fail::Internal(format!("output {id} placed but not declared")));
                };
                let x = self.value(value)?;
                let x = self.convert_scalar(from, v.scalar, x)?;
                if let Some(sw) = self.target_swizzle(e) {
                    return self.store_swizzled(v, row, col, x, sw);
                }
                let p = self.varying_ptr(v, StorageClass::Output, None, row, col)?;
                self.store(p, x)
            }
            Placement::Unused | Placement::ZeroFill => Ok(()),
            Placement::BuiltIn(b) => {
                // GS: only the rasterized stream's system values reach built-ins.
                if self.stage() == Some(Stage::Geometry) {
                    let rs = self.gfx()?.plan.geometry.as_ref().and_then(|g| g.rasterized_stream).unwrap_or(0);
                    if e.stream != rs {
                        return Ok(());
                    }
                }
                let x = self.value(value)?;
                self.store_builtin_element(b, e, row, col, from, x)
            }
        }
    }

    /// The output swizzle of a pixel shader's `SV_Target<n>` (pipeline state), if any.
    fn target_swizzle(&self, e: &ElementPlacement) -> Option<[u8; 4]> {
        if self.stage() != Some(Stage::Pixel) || !e.semantic_name.eq_ignore_ascii_case("SV_Target") {
            return None;
        }
        let n = e.semantic_indices.first().copied().unwrap_or(0) as usize;
        self.opts.state.output_swizzle.get(n).copied().flatten()
    }

    /// Stores shader output column `col` into every attachment component `c` whose swizzle
    /// selects it (`sw[c] == col`), and the constant components (`4` = 0, `5` = 1) alongside.
    fn store_swizzled(&mut self, v: IoVar, row: Value, col: u32, x: Word, sw: [u8; 4]) -> LResult<()> {
        let width = v.width.saturating_sub(v.shift);
        for (c, &src) in sw.iter().enumerate() {
            let c = c as u32;
            if c >= width {
                break;
            }
            let value = match src {
                s if u32::from(s) == col => x,
                4 | 5 => {
                    let one = src == 5;
                    match v.scalar {
                        Scalar::F32 => self.const_f32(if one { 1.0 } else { 0.0 }),
                        _ => {
                            let u = self.const_u32(u32::from(one));
                            self.convert_scalar(Scalar::U32, v.scalar, u)?
                        }
                    }
                }
                _ => continue,
            };
            let p = self.varying_ptr(v, StorageClass::Output, None, row, c)?;
            self.store(p, value)?;
        }
        Ok(())
    }

    fn store_builtin_element(
        &mut self,
        b: BuiltIn,
        e: &ElementPlacement,
        row: Value,
        col: u32,
        from: Scalar,
        x: Word,
    ) -> LResult<()> {
        let sc = StorageClass::Output;
        let f = self.f32();
        match b {
            BuiltIn::Position => {
                let var = self.builtin_var(Slot::Position, sc)?;
                let c = col + u32::try_from(e.start_col).unwrap_or(0).min(3);
                let k = self.const_u32(c.min(3));
                let pt = self.pointer(sc, f);
                let p = self.access_chain(pt, var, &[k])?;
                let v = self.convert_scalar(from, Scalar::F32, x)?;
                self.store(p, v)
            }
            BuiltIn::ClipDistance { offset } | BuiltIn::CullDistance { offset } => {
                let s = if matches!(b, BuiltIn::ClipDistance { .. }) { Slot::ClipDistance } else { Slot::CullDistance };
                let var = self.builtin_var(s, sc)?;
                let k = self.clip_index(offset, e, row, col)?;
                let pt = self.pointer(sc, f);
                let p = self.access_chain(pt, var, &[k])?;
                let v = self.convert_scalar(from, Scalar::F32, x)?;
                self.store(p, v)
            }
            BuiltIn::FragDepth => {
                let var = self.builtin_var(Slot::FragDepth, sc)?;
                let v = self.convert_scalar(from, Scalar::F32, x)?;
                self.store(var, v)
            }
            BuiltIn::SampleMask => {
                let var = self.builtin_var(Slot::SampleMask, sc)?;
                let u = self.u32();
                let pt = self.pointer(sc, u);
                let z = self.const_u32(0);
                let p = self.access_chain(pt, var, &[z])?;
                let v = self.convert_scalar(from, Scalar::U32, x)?;
                self.store(p, v)
            }
            BuiltIn::PrimitiveId
            | BuiltIn::Layer
            | BuiltIn::ViewportIndex
            | BuiltIn::FragStencilRefEXT
            | BuiltIn::PrimitiveShadingRateKHR => {
                if b == BuiltIn::PrimitiveShadingRateKHR {
                    self.require_shading_rate()?;
                }
                let s = match b {
                    BuiltIn::PrimitiveShadingRateKHR => Slot::PrimitiveShadingRate,
                    BuiltIn::PrimitiveId => Slot::PrimitiveId,
                    BuiltIn::Layer => Slot::Layer,
                    BuiltIn::ViewportIndex => Slot::ViewportIndex,
                    _ => Slot::FragStencilRef,
                };
                let var = self.builtin_var(s, sc)?;
                let v = self.convert_scalar(from, Scalar::U32, x)?;
                self.store(var, v)
            }
            other => unsupported(format!("writing {} as {other:?}", sv_name(e))),
        }
    }

    fn require_shading_rate(&self) -> LResult<()> {
        if !self.opts.fragment_shading_rate {
            return unsupported(
                "SV_ShadingRate (needs VK_KHR_fragment_shading_rate: CompileOptions::fragment_shading_rate)",
            );
        }
        Ok(())
    }

    /// Writes PointSize = 1.0 (D3D has no point size; Vulkan point draws need it written).
    pub(crate) fn write_point_size(&mut self) -> LResult<()> {
        if !self.gfx.as_ref().is_some_and(|g| g.writes_point_size) {
            return Ok(());
        }
        let var = self.builtin_var(Slot::PointSize, StorageClass::Output)?;
        let one = self.const_f32(1.0);
        self.store(var, one)
    }

    /// The input variable behind an element for `EvalSnapped`/`EvalSampleIndex`/`EvalCentroid`:
    /// a pointer to the element's row vector (or scalar) and the component to extract.
    pub(crate) fn interpolant(
        &mut self,
        id: u32,
        row: Value,
        col: Value,
    ) -> LResult<Option<(Word, Word, Option<u32>)>> {
        let (k, e) = self.element(true, id)?;
        let col = self.const_col(col)?;
        match e.placement {
            Placement::Location { .. } => {
                let Some(v) = self.gfx()?.inputs.get(k).copied().flatten() else {
                    return Err(Fail::Internal(format!("input {id} placed but not declared")));
                };
                if v.scalar != Scalar::F32 {
                    return malformed("evaluating an integer input");
                }
                let f = self.f32();
                let vt = if v.width > 1 { self.vector(f, v.width) } else { f };
                let ptr = match self.row_index(row, v.rows)? {
                    Some(r) => {
                        let pt = self.pointer(StorageClass::Input, vt);
                        self.access_chain(pt, v.var, &[r])?
                    }
                    None => v.var,
                };
                // As for loadInput ([`Self::component_ptr`]): a column past the element's is malformed.
                let c = col + v.shift;
                if c >= v.width {
                    return malformed(format!("signature column {col} out of range"));
                }
                let comp = if v.width > 1 { Some(c) } else { None };
                Ok(Some((ptr, vt, comp)))
            }
            Placement::BuiltIn(BuiltIn::FragCoord) => Ok(None),
            Placement::ZeroFill | Placement::Unused => Ok(None),
            Placement::BuiltIn(other) => unsupported(format!("evaluating {} ({other:?}) at an offset", sv_name(e))),
        }
    }
}

/// `loadInput`, `storeOutput` and the system-value ops.
/// (Hull and domain shaders take these ops to `tessellation`, see `lower::io_op`.)
pub(super) fn lower(l: &mut Lowerer<'_>, i: InstId, op: DxilOp, args: &[Value]) -> LResult<()> {
    if args.len() < op.info().params.len() {
        return malformed(format!("{} arguments", op.name()));
    }
    let sig_id = |l: &Lowerer<'_>| -> LResult<u32> {
        match args.first().and_then(|a| l.m.const_uint(*a)) {
            Some(x) => Ok(x as u32),
            None => malformed("signature element id is not a constant"),
        }
    };
    match op {
        DxilOp::LoadInput => {
            let id = sig_id(l)?;
            let t = l.f.inst(i).ty;
            let Some(to) = l.scalar_of(t) else { return malformed("loadInput of non-scalar type") };
            let r = l.load_input(id, args[1], args[2], args.get(3).copied(), to)?;
            l.set_id(i, r);
            Ok(())
        }
        DxilOp::StoreOutput => {
            let id = sig_id(l)?;
            l.store_output(id, args[1], args[2], args[3])
        }
        _ => {
            let slot = match op {
                DxilOp::PrimitiveID => Slot::PrimitiveId,
                DxilOp::ViewID => Slot::ViewIndex,
                DxilOp::StartVertexLocation => Slot::BaseVertex,
                DxilOp::StartInstanceLocation => Slot::BaseInstance,
                DxilOp::GSInstanceID => Slot::InvocationId,
                DxilOp::SampleIndex => Slot::SampleId,
                DxilOp::Coverage => Slot::SampleMask,
                DxilOp::InnerCoverage => Slot::FullyCovered,
                _ => return Err(Fail::Internal(format!("io::lower got {}", op.name()))),
            };
            if l.gfx.is_none() {
                return unsupported(format!("DXIL op {} outside a graphics stage", op.name()));
            }
            let r = l.load_scalar_builtin(slot)?;
            l.set_id(i, r);
            Ok(())
        }
    }
}

/// The indices of a varying's access chain (vertex, row, column: at most three), kept on the
/// stack: varyings are reached once per input load and output store.
#[derive(Default)]
pub(crate) struct ChainIdx {
    words: [Word; 3],
    len: usize,
}

impl ChainIdx {
    pub(crate) fn push(&mut self, w: Word) {
        // Three indices at most: vertex, row, column (`component_ptr` adds the last).
        if let Some(slot) = self.words.get_mut(self.len) {
            *slot = w;
            self.len += 1;
        }
    }
    pub(crate) fn is_empty(&self) -> bool {
        self.len == 0
    }
    pub(crate) fn as_slice(&self) -> &[Word] {
        &self.words[..self.len]
    }
}
