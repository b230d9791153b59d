//! Hull shaders → Vulkan tessellation control shaders (TCS), domain shaders →
//! tessellation evaluation shaders (TES).
//!
//! # Interface
//!
//! Every element gets the Location/Component or built-in the [`LinkPlan`]
//! gives it; all Location-placed elements are declared up front so both
//! sides of each boundary match even where a shader never touches one.
//! Control-point data is arrayed per vertex: TCS inputs and TES inputs are
//! `[32]` arrays (the D3D/Vulkan maximum patch size; the real input count is
//! the pipeline's `patchControlPoints` = `TessellationPlan::input_control_points`),
//! TCS outputs `[OutputVertices]`. Patch constants are `Patch`-decorated
//! variables at `patch_constant_location_offset + row` (the plan puts them
//! past every control-point Location, identically on both sides);
//! `SV_TessFactor` row r is `TessLevelOuter[r]`, `SV_InsideTessFactor` row r
//! is `TessLevelInner[r]` (tri 3 + 1, quad 4 + 2, isoline 2 + 0: D3D's isoline
//! [0] = density, [1] = detail is Vulkan's outer[0], outer[1]). Factors are
//! clamped to the hull's declared max tess factor when stored (`v > max ?
//! max : v`, so a NaN still culls the patch). Position and clip/cull
//! distances of control points are arrayed built-ins (the merged
//! `ClipDistance[]`/`CullDistance[]` of the plan, per control point).
//!
//! # TCS structure
//!
//! A hull shader is two DXIL functions: the control-point function (the
//! entry) and the patch-constant function (named by the HS state). Each is
//! lowered to its own SPIR-V function; the TCS entry point is
//!
//! ```text
//! main() {
//!     control_point();            // storeOutput → out[InvocationId]; OutputControlPointID = InvocationId
//!     ControlBarrier(Workgroup)   // only when there is more than one output control point
//!     if (InvocationId == 0)      // PatchConstantInvocations::First (default)
//!         patch_constant();       // loadInput / LoadOutputControlPoint of any CP, StorePatchConstant
//! }
//! ```
//!
//! With [`PatchConstantInvocations::All`] every invocation runs the
//! patch-constant function and writes the same values (vkd3d-shader's
//! scheme; the barrier is still needed because the function may read any
//! output control point). Invocation 0 is the default: it does the
//! patch-constant work once instead of OutputVertices times and no two
//! invocations write the same patch output. Measured on lavapipe 22.3
//! (`conformance/benches/tess_patch_constants.rs`, medians of 21
//! interleaved fresh pipelines, `MESA_SHADER_CACHE_DISABLE=true`, 2 shared
//! cores) the two schemes are indistinguishable: first draw (JIT compile)
//! of a 1-patch draw 70.7 vs 68.2 ms (passthrough), 123.1 vs 119.4
//! (pc_outputpatch), 108.9 vs 108.7 (pc_center), 82.1 vs 88.6
//! (quad_fracodd_ccw); 20000 patches 107.3 vs 115.1, 239.0 vs 235.5, 198.0
//! vs 191.7, 368.3 vs 372.6 ms (invocation 0 vs all) — every difference
//! within the machine's run-to-run noise. Both schemes pass every fixture
//! pipeline (`conformance/tests/execute_tess_fixtures.rs`).
//!
//! A DXIL hull shader always has an explicit control-point function (DXC
//! lowers `return ip[i]` to loadInput/storeOutput; the "null control-point
//! phase" pass-through exists only in DXBC hs_5_0), so no implicit
//! pass-through is generated; input and output control-point counts are
//! independent (TCS inputs are `[32]`, outputs `[OutputVertices]`).
//!
//! # Execution modes
//!
//! The TCS gets `OutputVertices`, the domain (`Triangles`/`Quads`/`Isolines`),
//! the spacing (integer and pow2 → `SpacingEqual`: the fixed-function
//! tessellator treats pow2 like integer; fractional_odd/even →
//! `SpacingFractionalOdd`/`Even`), the vertex order (triangle_ccw →
//! `VertexOrderCcw`, otherwise `VertexOrderCw`) and `PointMode` for point
//! output. The TES repeats the domain, and the tessellator modes too when
//! the pipeline's hull shader is known (both stages agree). A TES with point
//! output that feeds the rasterizer writes `PointSize = 1`. `SV_DomainLocation`
//! is `TessCoord` unchanged: the fixture draws confirm D3D's and Vulkan's
//! (upper-left origin) domain orientation agree for all three domains.

use rspirv::spirv::{
    self, BuiltIn as SpvBuiltIn, Capability, Decoration, ExecutionMode, ExecutionModel, Op, StorageClass, Word,
};

use super::{internal, is_undef, malformed, resources, unsupported, Fail, LResult, Lowerer, Scalar, Val};
use crate::compiled::CompiledShader;
use crate::dxil::{ComponentType, TessDomain, TessOutputPrimitive, TessPartitioning};
use crate::dxil_op::DxilOp;
use crate::error::CompileError;
use crate::ir::{Function, InstId, Module, Value};
use crate::link::{BuiltIn, ElementPlacement, LinkPlan, Placement, Stage, StagePlan};
use crate::lower::io::IoVar as Var;
use crate::lower::meta::EntryMeta;
use crate::options::{CompileOptions, PatchConstantInvocations};
use crate::structurize::StructuredFunction;

/// Length of per-control-point input arrays (D3D's and Vulkan's maximum patch size).
pub(crate) const MAX_PATCH: u32 = 32;

/// The built-in variables of the tessellation stages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Bi {
    InvocationId,
    PrimitiveId,
    TessCoord,
    TessLevelOuter,
    TessLevelInner,
    Position,
    PointSize,
    ClipDistance,
    CullDistance,
    Layer,
    ViewportIndex,
    ViewIndex,
}

/// Which signature an element is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Sig {
    Input,
    Output,
    Patch,
}

/// Tessellation state of one compile.
impl<'m> Tess<'m> {
    pub(crate) fn plan_stage(&self) -> (&'m LinkPlan, &'m StagePlan) {
        (self.plan, self.stage)
    }
}

pub(crate) struct Tess<'m> {
    plan: &'m LinkPlan,
    stage: &'m StagePlan,
    hull: bool,
    domain: TessDomain,
    /// Output control points (hull) — the length of the TCS output arrays.
    output_cps: u32,
    max_tess_factor: f32,
    inputs: Vec<Option<Var>>,
    outputs: Vec<Option<Var>>,
    patch: Vec<Option<Var>>,
    builtins: Vec<(Bi, StorageClass, Word)>,
    /// Lowering the patch-constant function.
    in_patch_constant: bool,
}

impl Tess<'_> {
    /// The Location patch constants start at: the hull's, from its plan; the domain's, as
    /// compiled (`given`: the caller's offset).
    pub(crate) fn patch_location_offset(&self, given: Option<u32>) -> Option<u32> {
        if self.hull {
            self.plan.tessellation.as_ref().map(|t| t.patch_constant_location_offset)
        } else {
            given
        }
    }
}

/// Lowers a hull or domain shader against stage `plan.1` of `plan.0` (alone: [`LinkPlan::single`]).
pub(super) fn lower(
    m: &Module,
    meta: &EntryMeta,
    opts: &CompileOptions,
    plan: Option<(&LinkPlan, usize)>,
    flows: &mut crate::analysis::Flows,
    clock: &mut impl crate::phase::PhaseClock,
) -> Result<CompiledShader, CompileError> {
    let unsup = |feature: String, function: &str, block: Option<u32>| CompileError::Unsupported {
        feature,
        function: function.to_string(),
        block,
        shader_model: meta.sm_string(),
    };
    let owned;
    let (plan, index) = match plan {
        Some(p) => p,
        None => {
            let info = crate::dxil::decode(m).map_err(|e| CompileError::Malformed(format!("metadata: {e}")))?;
            let io = crate::link::StageIo::from_module(&info, m)
                .map_err(|e| CompileError::Malformed(format!("signatures: {e}")))?;
            owned = LinkPlan::single(&io).map_err(|e| unsup(format!("signature: {e}"), &meta.name, None))?;
            (&owned, 0)
        }
    };
    let Some(stage) = plan.stages.get(index) else {
        return Err(CompileError::Internal(format!("link plan has no stage {index}")));
    };
    let hull = meta.kind == crate::ShaderKind::Hull;
    let (domain, output_cps, max_tess_factor, pc_func) = match (&meta.hs, &meta.ds) {
        (Some(h), _) if hull => (h.domain, h.output_control_points, h.max_tess_factor, h.patch_constant_function),
        (_, Some(d)) if !hull => (d.domain, d.input_control_points, 64.0, None),
        _ => return Err(CompileError::Malformed(format!("{} shader without its state", meta.kind.name()))),
    };
    if hull && !(1..=MAX_PATCH).contains(&output_cps) {
        return Err(CompileError::Malformed(format!("hull shader with {output_cps} output control points")));
    }
    if !matches!(domain, TessDomain::Tri | TessDomain::Quad | TessDomain::IsoLine) {
        return Err(CompileError::Malformed("tessellator domain undefined".into()));
    }
    let pc = match pc_func {
        Some(fid) => match m.functions.get(fid.index()) {
            Some(f) if !f.is_declaration => Some(f),
            _ => return Err(CompileError::Malformed("patch-constant function is not defined".into())),
        },
        None if hull => return Err(CompileError::Malformed("hull shader without a patch-constant function".into())),
        None => None,
    };
    let Some(f) = m.functions.get(meta.func.index()) else {
        return Err(CompileError::Malformed("entry function out of range".into()));
    };
    let mut structure = |fid: crate::ir::FuncId, f: &Function| {
        crate::structurize::structurize_with(m, f, flows.take(fid))
            .map_err(|e| unsup(format!("control flow: {e}"), &f.name, None))
    };
    let sf = structure(meta.func, f)?;
    let pc_sf = match (pc, pc_func) {
        (Some(p), Some(pid)) => Some((p, structure(pid, p)?)),
        _ => None,
    };
    clock.lap(crate::phase::Phase::Structurize);
    let mut l = Lowerer::new(m, f, meta, opts);
    l.hints = Some(&flows.hints);
    l.tess = Some(Tess {
        plan,
        stage,
        hull,
        domain,
        output_cps,
        max_tess_factor,
        inputs: vec![None; stage.inputs.len()],
        outputs: vec![None; stage.outputs.len()],
        patch: vec![None; stage.patch_constants.len()],
        builtins: Vec::new(),
        in_patch_constant: false,
    });
    let r = if hull { l.run_hull(&sf, pc_sf.as_ref().map(|(f, s)| (*f, s))) } else { l.run_domain(&sf) };
    match r {
        Ok(()) => {}
        Err(Fail::Unsupported(s)) => return Err(unsup(s, &l.f.name, l.cur_block.map(|b| b.0))),
        Err(Fail::Malformed(s)) => {
            let at = l.cur_block.map(|b| format!(", block {}", b.0)).unwrap_or_default();
            return Err(CompileError::Malformed(format!("{s} (function {}{at})", l.f.name)));
        }
        Err(Fail::Binding(e)) => return Err(CompileError::Binding(e)),
        Err(Fail::Internal(s)) => return Err(CompileError::Internal(s)),
    }
    clock.lap(crate::phase::Phase::Lowering);
    let out = l.finish();
    clock.lap(crate::phase::Phase::Assembly);
    out
}

/// The 32-bit scalar an element is declared with.
fn decl_scalar(t: ComponentType) -> LResult<Scalar> {
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

impl<'m> Lowerer<'m> {
    fn tess_state(&self) -> LResult<&Tess<'m>> {
        self.tess.as_ref().ok_or_else(|| Fail::Internal("tessellation state missing".into()))
    }

    fn tess_mut(&mut self) -> LResult<&mut Tess<'m>> {
        self.tess.as_mut().ok_or_else(|| Fail::Internal("tessellation state missing".into()))
    }

    // ---- functions -----------------------------------------------------

    /// Makes `f` the function being lowered (per-function value tables, resource handles).
    fn enter_function(&mut self, f: &'m Function) -> LResult<()> {
        let n = f.insts.len();
        self.f = f;
        super::refill(&mut self.vals, n, Val::Unset);
        super::refill(&mut self.used, n, 0);
        self.phi_vars.clear();
        self.demote_vars.clear();
        self.struct_vars.clear();
        self.stack.clear();
        self.cur_block = None;
        resources::scan_function(self)
    }

    /// Emits the current function as a SPIR-V `void()` function; returns its id.
    fn emit_function(
        &mut self,
        sf: &StructuredFunction,
        preamble: impl FnOnce(&mut Self) -> LResult<()>,
    ) -> LResult<Word> {
        let void = self.scalar(Scalar::Void);
        let fn_ty = self.fn_void_type();
        let fn_id = self.b.id();
        self.b.begin_function(void, fn_id, spirv::FunctionControl::NONE, fn_ty).map_err(internal)?;
        let entry = self.new_label();
        self.begin(entry)?;
        self.declare_locals(sf)?;
        preamble(self)?;
        let first = self.new_label();
        self.branch(first)?;
        self.begin(first)?;
        if self.node(&sf.root)? {
            self.b.terminator(Op::Return, &[], &[]).map_err(internal)?;
            self.open = false;
        }
        self.b.end_function().map_err(internal)?;
        Ok(fn_id)
    }

    fn fn_void_type(&mut self) -> Word {
        let void = self.scalar(Scalar::Void);
        if let Some(&c) = self.consts.get(&(void, u64::MAX - 2)) {
            return c;
        }
        let t = self.new_type(Op::TypeFunction, &[void]);
        self.consts.insert((void, u64::MAX - 2), t);
        t
    }

    fn run_hull(&mut self, sf: &StructuredFunction, pc: Option<(&'m Function, &StructuredFunction)>) -> LResult<()> {
        self.cap(Capability::Tessellation);
        resources::scan(self)?;
        let cp_func = self.f;
        if let Some((pf, _)) = pc {
            // Resource uses of both functions are known before any descriptor is declared.
            self.enter_function(pf)?;
            self.enter_function(cp_func)?;
        }
        self.declare_tess_io()?;
        let cp_fn = self.emit_function(sf, |_| Ok(()))?;
        let pc_fn = match pc {
            Some((pf, psf)) => {
                self.enter_function(pf)?;
                self.tess_mut()?.in_patch_constant = true;
                let id = self.emit_function(psf, |_| Ok(()))?;
                self.tess_mut()?.in_patch_constant = false;
                self.enter_function(cp_func)?;
                Some(id)
            }
            None => None,
        };
        // The entry point.
        let void = self.scalar(Scalar::Void);
        let fn_ty = self.fn_void_type();
        let main = self.b.id();
        self.b.begin_function(void, main, spirv::FunctionControl::NONE, fn_ty).map_err(internal)?;
        let entry = self.new_label();
        self.begin(entry)?;
        self.op(Op::FunctionCall, void, &[cp_fn])?;
        if let Some(pc_fn) = pc_fn {
            if self.tess_state()?.output_cps > 1 {
                let wg = self.const_u32(spirv::Scope::Workgroup as u32);
                let inv = self.const_u32(spirv::Scope::Invocation as u32);
                let none = self.const_u32(0);
                self.op_void(Op::ControlBarrier, &[wg, inv, none])?;
            }
            match self.opts.hull_patch_constants {
                PatchConstantInvocations::All => {
                    self.op(Op::FunctionCall, void, &[pc_fn])?;
                }
                PatchConstantInvocations::First => {
                    let id = self.load_bi(Bi::InvocationId)?;
                    let zero = self.const_u32(0);
                    let bt = self.bool();
                    let first = self.op(Op::IEqual, bt, &[id, zero])?;
                    self.guarded(first, |l| {
                        l.op(Op::FunctionCall, void, &[pc_fn])?;
                        Ok(())
                    })?;
                }
            }
        }
        self.b.terminator(Op::Return, &[], &[]).map_err(internal)?;
        self.open = false;
        self.b.end_function().map_err(internal)?;
        let interface = std::mem::take(&mut self.interface);
        self.b.entry_point(ExecutionModel::TessellationControl, main, self.meta.name.as_str(), &interface);
        let n = self.tess_state()?.output_cps;
        self.b.execution_mode(main, ExecutionMode::OutputVertices, &[n]);
        self.tess_modes(main, true)
    }

    fn run_domain(&mut self, sf: &StructuredFunction) -> LResult<()> {
        self.cap(Capability::Tessellation);
        resources::scan(self)?;
        self.declare_tess_io()?;
        self.declare_xfb()?;
        let t = self.tess_state()?;
        let points = t.plan.tessellation.as_ref().is_some_and(|tp| tp.output_primitive == TessOutputPrimitive::Point);
        let last = !t.plan.stages.iter().any(|s| s.stage == Stage::Geometry);
        let main = self.emit_function(sf, |l| {
            if points && last {
                let var = l.bi_var(Bi::PointSize, StorageClass::Output)?;
                let one = l.const_f32(1.0);
                l.store(var, one)?;
            }
            Ok(())
        })?;
        let interface = std::mem::take(&mut self.interface);
        self.b.entry_point(ExecutionModel::TessellationEvaluation, main, self.meta.name.as_str(), &interface);
        if self.captures_xfb() {
            self.b.execution_mode(main, ExecutionMode::Xfb, &[]);
        }
        self.tess_modes(main, false)
    }

    /// Domain, spacing, vertex order and point mode.
    fn tess_modes(&mut self, f: Word, hull: bool) -> LResult<()> {
        let t = self.tess_state()?;
        let domain = t.domain;
        let tp = t.plan.tessellation.clone();
        let d = match domain {
            TessDomain::Tri => ExecutionMode::Triangles,
            TessDomain::Quad => ExecutionMode::Quads,
            TessDomain::IsoLine => ExecutionMode::Isolines,
            TessDomain::Undefined => return malformed("tessellator domain undefined"),
        };
        self.b.execution_mode(f, d, &[]);
        let Some(tp) = tp else {
            if hull {
                return Err(Fail::Internal("hull shader plan without tessellation state".into()));
            }
            return Ok(());
        };
        let spacing = match tp.partitioning {
            TessPartitioning::Integer | TessPartitioning::Pow2 => ExecutionMode::SpacingEqual,
            TessPartitioning::FractionalOdd => ExecutionMode::SpacingFractionalOdd,
            TessPartitioning::FractionalEven => ExecutionMode::SpacingFractionalEven,
            TessPartitioning::Undefined => return malformed("tessellator partitioning undefined"),
        };
        self.b.execution_mode(f, spacing, &[]);
        let order = match tp.output_primitive {
            TessOutputPrimitive::TriangleCCW => ExecutionMode::VertexOrderCcw,
            _ => ExecutionMode::VertexOrderCw,
        };
        self.b.execution_mode(f, order, &[]);
        match tp.output_primitive {
            TessOutputPrimitive::Point => self.b.execution_mode(f, ExecutionMode::PointMode, &[]),
            TessOutputPrimitive::TriangleCW | TessOutputPrimitive::TriangleCCW if domain == TessDomain::IsoLine => {
                return malformed("isoline domain with triangle output");
            }
            TessOutputPrimitive::Line if domain != TessDomain::IsoLine => {
                return malformed("line output outside the isoline domain");
            }
            TessOutputPrimitive::Undefined => return malformed("tessellator output primitive undefined"),
            _ => {}
        }
        Ok(())
    }

    // ---- declarations --------------------------------------------------

    /// A domain shader's output variable of element `k` for stream output: (variable, rows, shift, width).
    pub(super) fn tess_output_var(&mut self, k: usize) -> LResult<Option<(Word, u32, u32, u32)>> {
        let t = self.tess_state()?;
        if t.hull {
            return unsupported("stream output of a hull shader");
        }
        Ok(t.outputs.get(k).copied().flatten().map(|v| (v.var, v.rows, v.shift, v.width)))
    }

    /// A domain shader's `Position` output (stream output of `SV_Position`).
    pub(super) fn tess_position_output(&mut self) -> LResult<Word> {
        self.bi_var(Bi::Position, StorageClass::Output)
    }

    /// Declares every element the plan puts at a Location (all three signatures).
    fn declare_tess_io(&mut self) -> LResult<()> {
        let t = self.tess_state()?;
        let stage: &'m StagePlan = t.stage;
        let hull = t.hull;
        for sig in [Sig::Input, Sig::Output, Sig::Patch] {
            let elems = match sig {
                Sig::Input => &stage.inputs,
                Sig::Output => &stage.outputs,
                Sig::Patch => &stage.patch_constants,
            };
            for (k, e) in elems.iter().enumerate() {
                let Placement::Location { location, component } = e.placement else { continue };
                let v = self.declare_tess_var(e, sig, location, component, hull)?;
                let t = self.tess_mut()?;
                let slot = match sig {
                    Sig::Input => t.inputs.get_mut(k),
                    Sig::Output => t.outputs.get_mut(k),
                    Sig::Patch => t.patch.get_mut(k),
                };
                if let Some(s) = slot {
                    *s = Some(v);
                }
            }
        }
        Ok(())
    }

    /// The per-vertex array length of a signature (`None`: not arrayed).
    fn per_vertex_len(&self, sig: Sig) -> LResult<Option<u32>> {
        let t = self.tess_state()?;
        Ok(match (t.hull, sig) {
            (_, Sig::Patch) => None,
            (true, Sig::Input) | (false, Sig::Input) => Some(MAX_PATCH),
            (true, Sig::Output) => Some(t.output_cps),
            (false, Sig::Output) => None,
        })
    }

    /// The declared (component, width) of a consumer element: the producer's
    /// vector when it is wider at the same Location (Vulkan matches whole
    /// variables; D3D lets a consumer read a subset of the components).
    fn consumer_shape(&self, e: &ElementPlacement, sig: Sig, location: u32, component: u32) -> (u32, u32) {
        let own = (component, u32::from(e.cols).clamp(1, 4));
        let Some(t) = self.tess.as_ref() else { return own };
        let hull = t.hull;
        let producer_outputs = match (hull, sig) {
            (_, Sig::Output) | (true, Sig::Patch) => return own,
            (_, Sig::Input) | (false, Sig::Patch) => {
                let Some(i) = t.plan.stages.iter().position(|s| std::ptr::eq(s, t.stage)) else { return own };
                let Some(prev) = i.checked_sub(1).and_then(|p| t.plan.stages.get(p)) else { return own };
                if sig == Sig::Patch {
                    &prev.patch_constants
                } else {
                    &prev.outputs
                }
            }
        };
        for p in producer_outputs {
            if let Placement::Location { location: pl, component: pc } = p.placement {
                let pw = u32::from(p.cols).clamp(1, 4);
                if pl == location && pc <= component && component + own.1 <= pc + pw && p.rows == e.rows {
                    return (pc, pw);
                }
            }
        }
        own
    }

    fn declare_tess_var(
        &mut self,
        e: &ElementPlacement,
        sig: Sig,
        location: u32,
        component: u32,
        hull: bool,
    ) -> LResult<Var> {
        let scalar = decl_scalar(e.component_type)?;
        let (dcomp, width) = self.consumer_shape(e, sig, location, component);
        if dcomp + width > 4 {
            return malformed(format!("signature element {} overflows its row", super::io::sv_name(e)));
        }
        let rows = e.rows.clamp(1, 64);
        let mut t = self.element_type(scalar, width, rows);
        let per_vertex = self.per_vertex_len(sig)?;
        if let Some(nv) = per_vertex {
            let n = self.const_u32(nv);
            t = self.new_type(Op::TypeArray, &[t, n]);
        }
        let sc = match (sig, hull) {
            (Sig::Input, _) | (Sig::Patch, false) => StorageClass::Input,
            _ => StorageClass::Output,
        };
        let pt = self.pointer(sc, t);
        let var = self.global_var(pt, sc, None);
        self.b.name_indexed(var, &e.semantic_name, e.semantic_indices.first().copied().unwrap_or(0));
        self.decorate(var, Decoration::Location, &[location]);
        if dcomp != 0 {
            self.decorate(var, Decoration::Component, &[dcomp]);
        }
        if sig == Sig::Patch {
            self.b.decorate(var, Decoration::Patch, &[]);
        }
        if sig == Sig::Output && !hull {
            // As io.rs does for VS/GS outputs: llvmpipe sets up interpolation from the producer's decorations.
            self.interpolation(var, e.interpolation, scalar != Scalar::F32)?;
        }
        Ok(Var { var, scalar, width, shift: component - dcomp, rows, per_vertex })
    }

    /// The built-in variable `b` in storage class `sc`, declared on first use.
    fn bi_var(&mut self, b: Bi, sc: StorageClass) -> LResult<Word> {
        if let Some(&(_, _, v)) = self.tess_state()?.builtins.iter().find(|x| x.0 == b && x.1 == sc) {
            return Ok(v);
        }
        let t = self.tess_state()?;
        let hull = t.hull;
        let st = t.stage;
        let output_cps = t.output_cps;
        // Per-control-point built-ins: TCS inputs and outputs, TES inputs.
        let per_vertex = match (hull, sc) {
            (true, StorageClass::Input) | (false, StorageClass::Input) => Some(MAX_PATCH),
            (true, _) => Some(output_cps),
            (false, _) => None,
        };
        let f = self.f32();
        let u = self.u32();
        let (ty, arrayed, spv) = match b {
            Bi::InvocationId => (u, false, SpvBuiltIn::InvocationId),
            Bi::PrimitiveId => (u, false, SpvBuiltIn::PrimitiveId),
            Bi::ViewIndex => {
                self.cap(Capability::MultiView);
                (u, false, SpvBuiltIn::ViewIndex)
            }
            Bi::Layer | Bi::ViewportIndex => {
                if self.opts.spirv_version < (1, 5) {
                    self.ext("SPV_EXT_shader_viewport_index_layer");
                    self.cap(Capability::ShaderViewportIndexLayerEXT);
                } else if b == Bi::Layer {
                    self.cap(Capability::ShaderLayer);
                } else {
                    self.cap(Capability::ShaderViewportIndex);
                }
                if b == Bi::ViewportIndex {
                    self.cap(Capability::MultiViewport);
                }
                (u, false, if b == Bi::Layer { SpvBuiltIn::Layer } else { SpvBuiltIn::ViewportIndex })
            }
            Bi::TessCoord => (self.vector(f, 3), false, SpvBuiltIn::TessCoord),
            Bi::TessLevelOuter | Bi::TessLevelInner => {
                let n = self.const_u32(if b == Bi::TessLevelOuter { 4 } else { 2 });
                let a = self.new_type(Op::TypeArray, &[f, n]);
                let spv = if b == Bi::TessLevelOuter { SpvBuiltIn::TessLevelOuter } else { SpvBuiltIn::TessLevelInner };
                (a, false, spv)
            }
            Bi::Position => (self.vector(f, 4), true, SpvBuiltIn::Position),
            Bi::PointSize => (f, false, SpvBuiltIn::PointSize),
            Bi::ClipDistance | Bi::CullDistance => {
                let clip = b == Bi::ClipDistance;
                let n = match (clip, sc) {
                    (true, StorageClass::Input) => st.clip_distances_in,
                    (true, _) => st.clip_distances_out,
                    (false, StorageClass::Input) => st.cull_distances_in,
                    (false, _) => st.cull_distances_out,
                };
                self.cap(if clip { Capability::ClipDistance } else { Capability::CullDistance });
                let n = self.const_u32(n.max(1));
                let a = self.new_type(Op::TypeArray, &[f, n]);
                (a, true, if clip { SpvBuiltIn::ClipDistance } else { SpvBuiltIn::CullDistance })
            }
        };
        let ty = match (arrayed, per_vertex) {
            (true, Some(nv)) => {
                let n = self.const_u32(nv);
                self.new_type(Op::TypeArray, &[ty, n])
            }
            _ => ty,
        };
        let pt = self.pointer(sc, ty);
        let var = self.global_var(pt, sc, None);
        self.b.decorate(var, Decoration::BuiltIn, &[spv as u32]);
        if matches!(b, Bi::TessLevelOuter | Bi::TessLevelInner) {
            self.b.decorate(var, Decoration::Patch, &[]);
        }
        self.tess_mut()?.builtins.push((b, sc, var));
        Ok(var)
    }

    /// Loads a scalar u32 input built-in.
    fn load_bi(&mut self, b: Bi) -> LResult<Word> {
        let var = self.bi_var(b, StorageClass::Input)?;
        let u = self.u32();
        self.load(u, var)
    }

    // ---- element access -----------------------------------------------

    fn tess_element(&self, sig: Sig, id: u32) -> LResult<(usize, &'m ElementPlacement)> {
        let st: &'m StagePlan = self.tess_state()?.stage;
        let v = match sig {
            Sig::Input => &st.inputs,
            Sig::Output => &st.outputs,
            Sig::Patch => &st.patch_constants,
        };
        match v.iter().enumerate().find(|(_, e)| e.id == id) {
            Some(x) => Ok(x),
            None => malformed(format!("{sig:?} signature element {id} not in the signature")),
        }
    }

    fn tess_var(&self, sig: Sig, k: usize) -> LResult<Var> {
        let t = self.tess_state()?;
        let v = match sig {
            Sig::Input => t.inputs.get(k),
            Sig::Output => t.outputs.get(k),
            Sig::Patch => t.patch.get(k),
        };
        v.copied().flatten().ok_or_else(|| Fail::Internal(format!("{sig:?} element {k} placed but not declared")))
    }

    /// A 32-bit index from an IR integer value.
    fn tess_index(&mut self, v: Value) -> LResult<Word> {
        if let Some(c) = self.m.const_uint(v) {
            let Ok(c) = u32::try_from(c) else { return malformed("index beyond 32 bits") };
            return Ok(self.const_u32(c));
        }
        self.index_value(v)
    }

    fn tess_col(&self, col: Value) -> LResult<u32> {
        match self.m.const_uint(col) {
            Some(c @ 0..=3) => Ok(c as u32),
            Some(_) => malformed("signature column out of range"),
            None => malformed("signature column is not a constant"),
        }
    }

    /// Pointer to component `col` of row `row` of control point `vertex` of a Location variable.
    fn var_ptr(&mut self, v: Var, sc: StorageClass, vertex: Option<Word>, row: Value, col: u32) -> LResult<Word> {
        let mut idx = super::io::ChainIdx::default();
        if v.per_vertex.is_some() {
            let Some(vx) = vertex else { return malformed("per-vertex element accessed without a vertex index") };
            idx.push(vx);
        }
        if v.rows > 1 {
            idx.push(self.tess_index(row)?);
        } else if self.m.const_uint(row).is_some_and(|r| r != 0) {
            return malformed("signature row out of range");
        }
        self.component_ptr(v, sc, col, &mut idx)
    }

    /// Pointer to the f32 built-in behind element component (row, col).
    fn bi_ptr(
        &mut self,
        b: BuiltIn,
        e: &ElementPlacement,
        sc: StorageClass,
        vertex: Option<Word>,
        row: Value,
        col: u32,
    ) -> LResult<Word> {
        let f = self.f32();
        let (bi, idx) = match b {
            BuiltIn::Position => {
                let c = col + u32::try_from(e.start_col).unwrap_or(0);
                if c > 3 {
                    return malformed("SV_Position column out of range");
                }
                (Bi::Position, self.const_u32(c))
            }
            BuiltIn::ClipDistance { offset } => (Bi::ClipDistance, self.clip_index(offset, e, row, col)?),
            BuiltIn::CullDistance { offset } => (Bi::CullDistance, self.clip_index(offset, e, row, col)?),
            BuiltIn::TessLevelOuter | BuiltIn::TessLevelInner => {
                let outer = b == BuiltIn::TessLevelOuter;
                if let Some(r) = self.m.const_uint(row) {
                    if r >= if outer { 4 } else { 2 } {
                        return malformed(format!("{} row {r} out of range", super::io::sv_name(e)));
                    }
                }
                let bi = if outer { Bi::TessLevelOuter } else { Bi::TessLevelInner };
                (bi, self.tess_index(row)?)
            }
            other => {
                return unsupported(format!("{} as {other:?} in a {} shader", super::io::sv_name(e), self.tess_kind()))
            }
        };
        let var = self.bi_var(bi, sc)?;
        let per_vertex = matches!(bi, Bi::Position | Bi::ClipDistance | Bi::CullDistance)
            && (sc == StorageClass::Input || self.tess_state()?.hull);
        let mut chain = Vec::with_capacity(2);
        if per_vertex {
            let Some(vx) = vertex else { return malformed("per-vertex built-in accessed without a vertex index") };
            chain.push(vx);
        }
        chain.push(idx);
        let pt = self.pointer(sc, f);
        self.access_chain(pt, var, &chain)
    }

    fn tess_kind(&self) -> &'static str {
        if self.tess.as_ref().is_some_and(|t| t.hull) {
            "hull"
        } else {
            "domain"
        }
    }

    /// Loads component (row, col) of element `id` of `sig` (of control point `vertex`).
    fn tess_load(
        &mut self,
        sig: Sig,
        id: u32,
        row: Value,
        col: Value,
        vertex: Option<Word>,
        to: Scalar,
    ) -> LResult<Word> {
        let (k, e) = self.tess_element(sig, id)?;
        let col = self.tess_col(col)?;
        let hull = self.tess_state()?.hull;
        let sc = if hull && sig != Sig::Input { StorageClass::Output } else { StorageClass::Input };
        match e.placement {
            Placement::Location { .. } => {
                let v = self.tess_var(sig, k)?;
                let p = self.var_ptr(v, sc, vertex, row, col)?;
                let st = self.scalar(v.scalar);
                let x = self.load(st, p)?;
                self.convert_scalar(v.scalar, to, x)
            }
            Placement::ZeroFill | Placement::Unused => Ok(self.const_scalar(to, 0)),
            Placement::BuiltIn(BuiltIn::PrimitiveId) => {
                let x = self.load_bi(Bi::PrimitiveId)?;
                self.convert_scalar(Scalar::U32, to, x)
            }
            Placement::BuiltIn(BuiltIn::TessCoord) => {
                let var = self.bi_var(Bi::TessCoord, StorageClass::Input)?;
                let f = self.f32();
                let pt = self.pointer(StorageClass::Input, f);
                let c = self.const_u32(col.min(2));
                let p = self.access_chain(pt, var, &[c])?;
                let x = self.load(f, p)?;
                self.convert_scalar(Scalar::F32, to, x)
            }
            Placement::BuiltIn(BuiltIn::InvocationId) => {
                let x = self.load_bi(Bi::InvocationId)?;
                self.convert_scalar(Scalar::U32, to, x)
            }
            Placement::BuiltIn(b) => {
                let p = self.bi_ptr(b, e, sc, vertex, row, col)?;
                let f = self.f32();
                let x = self.load(f, p)?;
                self.convert_scalar(Scalar::F32, to, x)
            }
        }
    }

    /// Stores `value` to component (row, col) of element `id` of `sig` (of control point `vertex`).
    fn tess_store(
        &mut self,
        sig: Sig,
        id: u32,
        row: Value,
        col: Value,
        vertex: Option<Word>,
        value: Value,
    ) -> LResult<()> {
        let (k, e) = self.tess_element(sig, id)?;
        let col = self.tess_col(col)?;
        if is_undef(self, value) {
            return Ok(());
        }
        let ty = self.m.value_type(self.f, value);
        let Some(from) = self.scalar_of(ty) else { return malformed("non-scalar value stored to a signature") };
        let x = self.value(value)?;
        let sc = StorageClass::Output;
        match e.placement {
            Placement::Location { .. } => {
                let v = self.tess_var(sig, k)?;
                let p = self.var_ptr(v, sc, vertex, row, col)?;
                let x = self.convert_scalar(from, v.scalar, x)?;
                self.store(p, x)
            }
            Placement::Unused | Placement::ZeroFill => Ok(()),
            Placement::BuiltIn(b @ (BuiltIn::Layer | BuiltIn::ViewportIndex | BuiltIn::PrimitiveId)) => {
                if self.tess_state()?.hull {
                    return unsupported(format!("{} written by a hull shader", super::io::sv_name(e)));
                }
                let bi = match b {
                    BuiltIn::Layer => Bi::Layer,
                    BuiltIn::ViewportIndex => Bi::ViewportIndex,
                    _ => Bi::PrimitiveId,
                };
                let var = self.bi_var(bi, sc)?;
                let x = self.convert_scalar(from, Scalar::U32, x)?;
                self.store(var, x)
            }
            Placement::BuiltIn(b) => {
                let mut x = self.convert_scalar(from, Scalar::F32, x)?;
                if matches!(b, BuiltIn::TessLevelOuter | BuiltIn::TessLevelInner) {
                    x = self.clamp_factor(x)?;
                }
                let p = self.bi_ptr(b, e, sc, vertex, row, col)?;
                self.store(p, x)
            }
        }
    }

    /// `v > max ? max : v` (NaN stays NaN and still culls the patch).
    fn clamp_factor(&mut self, v: Word) -> LResult<Word> {
        let max = self.tess_state()?.max_tess_factor;
        if !max.is_finite() || max <= 0.0 {
            return Ok(v);
        }
        let f = self.f32();
        let bt = self.bool();
        let m = self.const_f32(max);
        let gt = self.op(Op::FOrdGreaterThan, bt, &[v, m])?;
        self.op(Op::Select, f, &[gt, m, v])
    }
}

/// `loadInput`, `storeOutput`, the control-point and patch-constant ops and
/// the tessellation system values.
pub(super) fn lower_op(l: &mut Lowerer<'_>, i: InstId, op: DxilOp, args: &[Value]) -> LResult<()> {
    let Some(t) = l.tess.as_ref() else {
        return unsupported(format!("DXIL op {} outside a hull or domain shader", op.name()));
    };
    let (hull, in_pc) = (t.hull, t.in_patch_constant);
    if args.len() < op.info().params.len() {
        return malformed(format!("{} arguments", op.name()));
    }
    let arg = |k: usize| args.get(k).copied().ok_or_else(|| Fail::Malformed(format!("{} arguments", op.name())));
    let sig_id = |l: &Lowerer<'_>| -> LResult<u32> {
        match args.first().and_then(|a| l.m.const_uint(*a)) {
            Some(x) => u32::try_from(x).map_err(|_| Fail::Malformed("signature element id out of range".into())),
            None => malformed("signature element id is not a constant"),
        }
    };
    let result_scalar = |l: &Lowerer<'_>| -> LResult<Scalar> {
        let t = l.f.inst(i).ty;
        l.scalar_of(t).ok_or_else(|| Fail::Malformed(format!("{} of non-scalar type", op.name())))
    };
    let wrong_stage =
        || unsupported(format!("DXIL op {} in a {} shader", op.name(), if hull { "hull" } else { "domain" }));
    let r = match op {
        DxilOp::LoadInput => {
            let id = sig_id(l)?;
            let to = result_scalar(l)?;
            let vx = arg(3)?;
            if is_undef(l, vx) {
                return malformed("control-point input read without a control-point index");
            }
            let vx = l.tess_index(vx)?;
            l.tess_load(Sig::Input, id, arg(1)?, arg(2)?, Some(vx), to)?
        }
        DxilOp::StoreOutput => {
            if hull && in_pc {
                return wrong_stage();
            }
            let id = sig_id(l)?;
            let vx = if hull { Some(l.load_bi(Bi::InvocationId)?) } else { None };
            return l.tess_store(Sig::Output, id, arg(1)?, arg(2)?, vx, arg(3)?);
        }
        DxilOp::LoadOutputControlPoint => {
            if !hull {
                return wrong_stage();
            }
            let id = sig_id(l)?;
            let to = result_scalar(l)?;
            let vx = l.tess_index(arg(3)?)?;
            l.tess_load(Sig::Output, id, arg(1)?, arg(2)?, Some(vx), to)?
        }
        DxilOp::StorePatchConstant => {
            if !hull {
                return wrong_stage();
            }
            let id = sig_id(l)?;
            return l.tess_store(Sig::Patch, id, arg(1)?, arg(2)?, None, arg(3)?);
        }
        DxilOp::LoadPatchConstant => {
            if hull {
                return wrong_stage();
            }
            let id = sig_id(l)?;
            let to = result_scalar(l)?;
            l.tess_load(Sig::Patch, id, arg(1)?, arg(2)?, None, to)?
        }
        DxilOp::DomainLocation => {
            if hull {
                return wrong_stage();
            }
            let c = match l.m.const_uint(arg(0)?) {
                Some(c @ 0..=2) => c as u32,
                _ => return malformed("DomainLocation component is not a constant 0..=2"),
            };
            let var = l.bi_var(Bi::TessCoord, StorageClass::Input)?;
            let f = l.f32();
            let pt = l.pointer(StorageClass::Input, f);
            let k = l.const_u32(c);
            let p = l.access_chain(pt, var, &[k])?;
            let x = l.load(f, p)?;
            let to = result_scalar(l)?;
            l.convert_scalar(Scalar::F32, to, x)?
        }
        DxilOp::OutputControlPointID => {
            if !hull || in_pc {
                return wrong_stage();
            }
            l.load_bi(Bi::InvocationId)?
        }
        DxilOp::PrimitiveID => l.load_bi(Bi::PrimitiveId)?,
        DxilOp::ViewID => l.load_bi(Bi::ViewIndex)?,
        _ => return Err(Fail::Internal(format!("tessellation::lower_op got {}", op.name()))),
    };
    l.set_id(i, r);
    Ok(())
}

#[cfg(test)]
mod tests;
