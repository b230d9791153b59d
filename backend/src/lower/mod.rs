//! Lowering of shaders from dxjit IR to SPIR-V words ([`emit`]).
//!
//! One [`Lowerer`] per compile. This file owns the module skeleton (entry
//! point, capabilities, types, constants, variables), the value table and
//! the control flow, emitted from the structurizer's tree
//! ([`crate::structurize::tree`]). Instructions are lowered by family:
//! [`llvm`] (LLVM instructions), and one file per DXIL op family, all
//! dispatched from the single table [`handler`].
//!
//! Values: every IR instruction has a [`Val`] slot (indexed by `InstId`):
//! a SPIR-V id, a pointer with its storage class, the parts of a `dx.types`
//! aggregate (`ResRet`, `CBufRet`, `Dimensions`, …: extractvalue just picks
//! a part), or a resource handle (compile-time: resource + array index).

pub mod meta;

mod atomics;
mod bindless;
mod compute;
pub(crate) mod emit;
mod entry;
mod feedback;
mod geometry;
pub(crate) mod io;
mod llvm;
mod math;
mod mesh;
mod pixel;
mod quad;
mod rayquery;
mod raytracing;
mod refused;
mod resources;
mod sampling;
mod tessellation;
mod wave;

use rspirv::spirv::{self, Capability, Decoration, GlslStd450Op, Op, StorageClass, Word};

use crate::compiled::CompiledShader;
use crate::dxil_op::DxilOp;
use crate::error::CompileError;
use crate::fxhash::FxHashMap;
use crate::ir::{
    BlockId, ConstExpr, ConstId, ConstKind, Function, GlobalId, InstId, InstKind, Module, Type, TypeId, Value,
};
use crate::options::{CompileOptions, Robustness};
use crate::structurize::{Cond, Node, StructuredFunction};
use emit::Emitter;
use meta::EntryMeta;
pub(crate) use rayquery::is_ray_tracing_stage;

/// Why lowering stopped (turned into [`CompileError`] with function, block and SM).
#[derive(Debug)]
pub(crate) enum Fail {
    Unsupported(String),
    Malformed(String),
    /// The binding model cannot place a resource.
    Binding(crate::binding::BindError),
    Internal(String),
}

pub(crate) type LResult<T> = Result<T, Fail>;

/// Whether `v` is an `undef` constant (DXIL passes undef for unused operands).
pub(crate) fn is_undef(l: &Lowerer<'_>, v: Value) -> bool {
    matches!(v, Value::Const(c) if matches!(l.m.konst(c).kind, crate::ir::ConstKind::Undef))
}

pub(crate) fn unsupported<T>(what: impl Into<String>) -> LResult<T> {
    Err(Fail::Unsupported(what.into()))
}

pub(crate) fn malformed<T>(what: impl Into<String>) -> LResult<T> {
    Err(Fail::Malformed(what.into()))
}

pub(crate) fn internal(e: impl std::fmt::Display) -> Fail {
    Fail::Internal(e.to_string())
}

/// The lowered form of an IR value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Val {
    Unset,
    Id(Word),
    /// A pointer and the storage class it points into.
    Ptr(Word, StorageClass),
    /// `parts[start..start + len]` of a `dx.types` aggregate (0 = part not computed).
    Parts(u32, u8),
    /// Index into [`Lowerer::handles`].
    Handle(u32),
}

/// Scalar SPIR-V types, cached by kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(usize)]
pub(crate) enum Scalar {
    Void,
    Bool,
    U8,
    U16,
    U32,
    U64,
    I32,
    F16,
    F32,
    F64,
}
const SCALARS: usize = 10;
/// How many small `u32` constants [`Lowerer::const_u32`] keeps in a dense table.
const SMALL_U32: usize = 64;

/// A loop or switch the current code is inside of.
#[derive(Debug, Clone, Copy)]
enum Construct {
    Loop { merge: Word, cont: Word, broken: bool },
    Switch { merge: Word, broken: bool },
}

pub(crate) struct Lowerer<'m> {
    pub m: &'m Module,
    pub f: &'m Function,
    /// What the verifier found that spares the pre-passes walks ([`crate::analysis::Hints`]).
    pub hints: Option<&'m crate::analysis::Hints>,
    pub meta: &'m EntryMeta,
    pub opts: &'m CompileOptions,
    pub b: Emitter,
    glsl: Word,
    caps: Vec<Capability>,
    exts: Vec<&'static str>,
    scalars: [Word; SCALARS],
    vectors: Vec<(Word, u32, Word)>,
    pointers: Vec<(StorageClass, Word, Word)>,
    ir_types: Vec<Word>,
    ir_consts: Vec<Word>,
    consts: FxHashMap<(Word, u64), Word>,
    /// `const_u32(v)` for small `v` (0: not made yet), in front of `consts`.
    small_u32: [Word; SMALL_U32],
    pub vals: Vec<Val>,
    pub parts: Vec<Word>,
    globals: Vec<Val>,
    phi_vars: Vec<Word>,
    demote_vars: Vec<Word>,
    struct_vars: Vec<Word>,
    /// Builtin input variables (by [`compute::Builtin`] index).
    builtins: [Word; 8],
    pub interface: Vec<Word>,
    stack: Vec<Construct>,
    /// Whether a block is open (code after a branch is unreachable and skipped).
    open: bool,
    /// Label of the SPIR-V block being emitted.
    pub cur_label: Word,
    pub cur_block: Option<BlockId>,
    /// Bitmask of the components of each instruction's aggregate result that `extractvalue` reads.
    pub used: Vec<u8>,
    pub res: resources::Resources,
    /// Some op needs derivatives (implicit-LOD sampling, CalculateLOD, ddx/ddy).
    derivatives: bool,
    /// Hull and domain shaders: the link plan and the stage's I/O variables.
    pub tess: Option<tessellation::Tess<'m>>,
    /// Graphics stages: the link plan and the stage's I/O variables.
    pub gfx: Option<io::Gfx<'m>>,
    /// Mesh shaders: output counts and variables.
    mesh: Option<mesh::Mesh>,
    /// Inline ray queries and acceleration-structure types.
    rq: rayquery::RayQueries,
    /// Ray-tracing exports: parameters, builtins, library resource globals.
    rt: raytracing::RayTracing,
    /// The rasterizer-sample-count specialization constant (0: not declared).
    sample_count_spec: Word,
    /// The subgroup sizes the stage runs with (`WaveGetLaneCount`, the required size).
    pub subgroups: wave::SubgroupPlan,
    /// Min-precision 16-bit types are computed at 32 bits (`half` as `float`, `i16` as a 32-bit
    /// integer): a shader with min-precision types (the low-precision flag without the native one),
    /// compiled without `PipelineStateOptions::native_min_precision`.
    pub widen16: bool,
}

/// DXIL shader flag: 16-bit types are native (`-enable-16bit-types`), not min precision.
const FLAG_NATIVE_LOW_PRECISION: u64 = 1 << 23;
/// DXIL shader flag: the shader uses 16-bit (min-precision or native) types.
const FLAG_LOW_PRECISION_PRESENT: u64 = 1 << 5;

/// Lowers the entry point described by `meta`; graphics stages take their
/// interface from stage `plan.1` of the link plan `plan.0`.
pub fn lower(
    m: &Module,
    meta: &EntryMeta,
    opts: &CompileOptions,
    plan: Option<(&crate::link::LinkPlan, usize)>,
) -> Result<CompiledShader, CompileError> {
    lower_timed(m, meta, opts, plan, &mut crate::analysis::Flows::default(), &mut ())
}

/// [`lower`], reporting the end of the structurize, lowering and assembly phases to `clock`;
/// `flows`: CFGs and dominator trees an earlier pass (the verifier) built, for the structurizer.
pub(crate) fn lower_timed(
    m: &Module,
    meta: &EntryMeta,
    opts: &CompileOptions,
    plan: Option<(&crate::link::LinkPlan, usize)>,
    flows: &mut crate::analysis::Flows,
    clock: &mut impl crate::phase::PhaseClock,
) -> Result<CompiledShader, CompileError> {
    if matches!(meta.kind, crate::ShaderKind::Hull | crate::ShaderKind::Domain) {
        return tessellation::lower(m, meta, opts, plan, flows, clock);
    }
    let f = &m.functions[meta.func.index()];
    let unsup = |feature: String, block: Option<BlockId>| CompileError::Unsupported {
        feature,
        function: f.name.clone(),
        block: block.map(|b| b.0),
        shader_model: meta.sm_string(),
    };
    let sf = match structure_with(m, f, flows.take(meta.func)) {
        Ok(sf) => sf,
        Err(e) => return Err(unsup(e, None)),
    };
    clock.lap(crate::phase::Phase::Structurize);
    // SM 6.6 descriptor-heap handles become extra (synthetic) ranges after the declared ones.
    let hints = &flows.hints;
    let heap = if hints.may_have_heap_handles() { resources::heap_decls(m, f) } else { Ok(Default::default()) };
    let (heap_decls, heap_handles) = match heap {
        Ok(x) => x,
        Err(Fail::Unsupported(s)) => return Err(unsup(s, None)),
        Err(Fail::Malformed(s)) => return Err(CompileError::Malformed(format!("{s} (function {})", f.name))),
        Err(Fail::Binding(e)) => return Err(CompileError::Binding(e)),
        Err(Fail::Internal(s)) => return Err(CompileError::Internal(s)),
    };
    let extended;
    let (meta, heap_handles) = if heap_decls.is_empty() {
        (meta, Vec::new())
    } else {
        let mut x = meta.clone();
        let base = x.resources.len() as u32;
        x.resources.extend(heap_decls);
        extended = x;
        (&extended, heap_handles.into_iter().map(|(h, r)| (h, base + r)).collect())
    };
    // SPV_EXT_mesh_shader, ray-tracing pipelines and ray queries need SPIR-V 1.4.
    let raised;
    let mesh_io = matches!(meta.kind, crate::ShaderKind::Mesh | crate::ShaderKind::Amplification)
        || plan.and_then(|(p, k)| p.stages.get(k)).is_some_and(|s| s.inputs.iter().any(|e| e.per_primitive));
    let rt_stage = rayquery::is_ray_tracing_stage(meta.kind);
    let opts = if opts.spirv_version < (1, 4)
        && (mesh_io || rt_stage || meta.resources.iter().any(|d| d.kind == meta::ResKind::RTAccelerationStructure))
    {
        raised = CompileOptions { spirv_version: (1, 4), ..opts.clone() };
        &raised
    } else {
        opts
    };
    let subgroups = match (&meta.wave_size, opts.state.subgroup_size) {
        (None, None) => wave::SubgroupPlan::default(),
        (w, r) => wave::subgroup_plan(w.as_ref(), r).map_err(|s| unsup(s, None))?,
    };
    let mut l = Lowerer::new(m, f, meta, opts);
    l.hints = Some(hints);
    l.res.heap_handles = heap_handles;
    l.subgroups = subgroups;
    if meta.library {
        raytracing::prepare(&mut l);
    }
    if let Some((plan, index)) = plan {
        match io::Gfx::new(plan, index) {
            Some(g) => l.gfx = Some(g),
            None => return Err(CompileError::Internal(format!("link plan has no stage {index}"))),
        }
    }
    match l.run(&sf) {
        Ok(()) => {}
        Err(Fail::Unsupported(s)) => return Err(unsup(s, l.cur_block)),
        Err(Fail::Malformed(s)) => {
            let at = l.cur_block.map(|b| format!(", block {}", b.0)).unwrap_or_default();
            return Err(CompileError::Malformed(format!("{s} (function {}{at})", f.name)));
        }
        Err(Fail::Binding(e)) => return Err(CompileError::Binding(e)),
        Err(Fail::Internal(s)) => return Err(CompileError::Internal(s)),
    }
    clock.lap(crate::phase::Phase::Lowering);
    let out = l.finish();
    clock.lap(crate::phase::Phase::Assembly);
    out
}

/// The structured form of `f`.
#[cfg(test)]
fn structure(m: &Module, f: &Function) -> Result<StructuredFunction, String> {
    structure_with(m, f, None)
}

/// The structured form of `f` (`flow`: its CFG and dominator tree, if built already).
fn structure_with(
    m: &Module,
    f: &Function,
    flow: Option<(crate::analysis::Cfg, crate::analysis::DomTree)>,
) -> Result<StructuredFunction, String> {
    crate::structurize::structurize_with(m, f, flow).map_err(|e| format!("control flow: {e}"))
}

impl<'m> Lowerer<'m> {
    fn new(m: &'m Module, f: &'m Function, meta: &'m EntryMeta, opts: &'m CompileOptions) -> Self {
        let mut s = SCRATCH.with(|c| c.take()).unwrap_or_default();
        let n = f.insts.len();
        // About 6 words of SPIR-V per IR instruction on the corpus (some room on top).
        let (major, minor) = opts.spirv_version;
        let mut b = match s.b.take() {
            Some(mut b) => {
                b.reset(major, minor, 8 * n);
                b
            }
            None => Emitter::new(major, minor, 8 * n),
        };
        let glsl = b.ext_inst_import("GLSL.std.450");
        b.memory_model(spirv::AddressingModel::Logical, spirv::MemoryModel::GLSL450);
        s.caps.clear();
        s.caps.push(Capability::Shader);
        s.exts.clear();
        s.vectors.clear();
        s.pointers.clear();
        refill(&mut s.ir_types, m.types.len(), 0);
        refill(&mut s.ir_consts, m.consts.len(), 0);
        s.consts.clear();
        refill(&mut s.vals, n, Val::Unset);
        s.parts.clear();
        refill(&mut s.globals, m.globals.len(), Val::Unset);
        s.phi_vars.clear();
        s.demote_vars.clear();
        s.struct_vars.clear();
        s.interface.clear();
        s.stack.clear();
        refill(&mut s.used, n, 0);
        s.res.reset();
        s.rq.reset();
        s.rt.reset();
        Lowerer {
            m,
            f,
            hints: None,
            meta,
            opts,
            b,
            glsl,
            caps: s.caps,
            exts: s.exts,
            scalars: [0; SCALARS],
            vectors: s.vectors,
            pointers: s.pointers,
            ir_types: s.ir_types,
            ir_consts: s.ir_consts,
            consts: s.consts,
            small_u32: [0; SMALL_U32],
            vals: s.vals,
            parts: s.parts,
            globals: s.globals,
            phi_vars: s.phi_vars,
            demote_vars: s.demote_vars,
            struct_vars: s.struct_vars,
            builtins: [0; 8],
            interface: s.interface,
            stack: s.stack,
            open: false,
            cur_label: 0,
            cur_block: None,
            used: s.used,
            res: s.res,
            derivatives: false,
            tess: None,
            gfx: None,
            mesh: None,
            rq: s.rq,
            rt: s.rt,
            sample_count_spec: 0,
            subgroups: wave::SubgroupPlan {
                lane_count: opts.state.subgroup_size.filter(|r| r.min == r.max).map(|r| r.min),
                required: None,
            },
            widen16: meta.flags & (FLAG_LOW_PRECISION_PRESENT | FLAG_NATIVE_LOW_PRECISION)
                == FLAG_LOW_PRECISION_PRESENT
                && !opts.state.native_min_precision,
        }
    }

    /// 16-bit values occupy 16 bits in buffers and constant buffers (native 16-bit types); min
    /// precision values occupy 32.
    pub fn native16(&self) -> bool {
        self.meta.flags & FLAG_NATIVE_LOW_PRECISION != 0
    }

    // ---- capabilities -------------------------------------------------

    /// Marks the shader as using derivatives (the execution mode is chosen in [`Self::run`]).
    pub fn need_derivatives(&mut self) {
        self.derivatives = true;
    }

    pub fn cap(&mut self, c: Capability) {
        if !self.caps.contains(&c) {
            self.caps.push(c);
        }
    }

    pub fn ext(&mut self, e: &'static str) {
        if !self.exts.contains(&e) {
            self.exts.push(e);
        }
    }

    pub fn robust_explicit(&self) -> bool {
        self.opts.robustness == Robustness::Explicit
    }

    // ---- raw emission -------------------------------------------------

    /// `%r = op %ty args...` (ids, or literal/enum words where the opcode takes them).
    #[inline]
    pub fn op(&mut self, op: Op, ty: Word, args: &[Word]) -> LResult<Word> {
        self.b.inst(op, ty, args, &[]).map_err(internal)
    }

    /// `%r = op %ty pre... rest...` (saves building one operand list from two).
    #[inline]
    pub fn op2(&mut self, op: Op, ty: Word, pre: &[Word], rest: &[Word]) -> LResult<Word> {
        self.b.inst(op, ty, pre, rest).map_err(internal)
    }

    /// An instruction without result (not a block terminator).
    #[inline]
    pub fn op_void(&mut self, op: Op, operands: &[Word]) -> LResult<()> {
        self.b.inst_void(op, operands, &[]).map_err(internal)
    }

    /// `OpSelect` with a scalar condition, splatted for vector results (SPIR-V < 1.4).
    pub fn select(&mut self, cond: Word, ty: Word, a: Word, b: Word) -> LResult<Word> {
        let n = self.vectors.iter().find(|v| v.2 == ty).map(|v| v.1);
        let c = match n {
            Some(n) => {
                let bt = self.bool();
                let bv = self.vector(bt, n);
                let splat = [cond; 16];
                match splat.get(..n as usize) {
                    Some(parts) => self.op(Op::CompositeConstruct, bv, parts)?,
                    None => self.op(Op::CompositeConstruct, bv, &vec![cond; n as usize])?,
                }
            }
            None => cond,
        };
        self.op(Op::Select, ty, &[c, a, b])
    }

    pub fn glsl(&mut self, op: GlslStd450Op, ty: Word, args: &[Word]) -> LResult<Word> {
        self.op2(Op::ExtInst, ty, &[self.glsl, op as u32], args)
    }

    pub fn load(&mut self, ty: Word, ptr: Word) -> LResult<Word> {
        self.op(Op::Load, ty, &[ptr])
    }

    pub fn store(&mut self, ptr: Word, v: Word) -> LResult<()> {
        self.op_void(Op::Store, &[ptr, v])
    }

    pub fn access_chain(&mut self, ptr_ty: Word, base: Word, idx: &[Word]) -> LResult<Word> {
        self.op2(Op::AccessChain, ptr_ty, &[base], idx)
    }

    pub fn decorate(&mut self, id: Word, d: Decoration, lits: &[u32]) {
        self.b.decorate(id, d, lits);
    }

    pub fn member_decorate(&mut self, id: Word, member: u32, d: Decoration, lits: &[u32]) {
        self.b.member_decorate(id, member, d, lits);
    }

    /// A module-scope variable (added to the entry point's interface where the version needs it).
    pub fn global_var(&mut self, ptr_ty: Word, sc: StorageClass, init: Option<Word>) -> Word {
        let id = match init {
            Some(i) => self.b.global_value(Op::Variable, ptr_ty, &[sc as u32, i]),
            None => self.b.global_value(Op::Variable, ptr_ty, &[sc as u32]),
        };
        if self.opts.spirv_version >= (1, 4) || matches!(sc, StorageClass::Input | StorageClass::Output) {
            self.interface.push(id);
        }
        id
    }

    // ---- types --------------------------------------------------------

    pub fn scalar(&mut self, s: Scalar) -> Word {
        let slot = self.scalars[s as usize];
        if slot != 0 {
            return slot;
        }
        let id = match s {
            Scalar::Void => self.b.type_decl(Op::TypeVoid, &[]),
            Scalar::Bool => self.b.type_decl(Op::TypeBool, &[]),
            Scalar::U8 => {
                self.cap(Capability::Int8);
                self.b.type_decl(Op::TypeInt, &[8, 0])
            }
            Scalar::U16 => {
                self.cap(Capability::Int16);
                self.b.type_decl(Op::TypeInt, &[16, 0])
            }
            Scalar::U32 => self.b.type_decl(Op::TypeInt, &[32, 0]),
            Scalar::U64 => {
                self.cap(Capability::Int64);
                self.b.type_decl(Op::TypeInt, &[64, 0])
            }
            Scalar::I32 => self.b.type_decl(Op::TypeInt, &[32, 1]),
            Scalar::F16 => {
                self.cap(Capability::Float16);
                self.b.type_decl(Op::TypeFloat, &[16])
            }
            Scalar::F32 => self.b.type_decl(Op::TypeFloat, &[32]),
            Scalar::F64 => {
                self.cap(Capability::Float64);
                self.b.type_decl(Op::TypeFloat, &[64])
            }
        };
        self.scalars[s as usize] = id;
        id
    }

    pub fn u32(&mut self) -> Word {
        self.scalar(Scalar::U32)
    }
    pub fn f32(&mut self) -> Word {
        self.scalar(Scalar::F32)
    }
    pub fn bool(&mut self) -> Word {
        self.scalar(Scalar::Bool)
    }

    pub fn vector(&mut self, elem: Word, n: u32) -> Word {
        if let Some(v) = self.vectors.iter().find(|v| v.0 == elem && v.1 == n) {
            return v.2;
        }
        let id = self.b.type_decl(Op::TypeVector, &[elem, n]);
        self.vectors.push((elem, n, id));
        id
    }

    pub fn pointer(&mut self, sc: StorageClass, pointee: Word) -> Word {
        if let Some(p) = self.pointers.iter().find(|p| p.0 == sc && p.1 == pointee) {
            return p.2;
        }
        let id = self.b.type_decl(Op::TypePointer, &[sc as u32, pointee]);
        self.pointers.push((sc, pointee, id));
        id
    }

    /// A new (never deduplicated) aggregate type.
    pub fn new_type(&mut self, op: Op, operands: &[Word]) -> Word {
        self.b.type_decl(op, operands)
    }

    /// The SPIR-V type of an IR type (pointers: use [`Self::ptr_type_of`]).
    pub fn ty(&mut self, t: TypeId) -> LResult<Word> {
        if let Some(&w) = self.ir_types.get(t.0 as usize) {
            if w != 0 {
                return Ok(w);
            }
        }
        let w = match self.m.types.get(t) {
            Type::Void => self.scalar(Scalar::Void),
            Type::Half if self.widen16 => self.scalar(Scalar::F32),
            Type::Half => self.scalar(Scalar::F16),
            Type::Float => self.scalar(Scalar::F32),
            Type::Double => self.scalar(Scalar::F64),
            Type::Int(1) => self.scalar(Scalar::Bool),
            Type::Int(8) => self.scalar(Scalar::U8),
            Type::Int(16) if self.widen16 => self.scalar(Scalar::U32),
            Type::Int(16) => self.scalar(Scalar::U16),
            Type::Int(32) => self.scalar(Scalar::U32),
            Type::Int(64) => self.scalar(Scalar::U64),
            Type::Vector { len, elem } => {
                let (len, elem) = (*len, *elem);
                if !(2..=4).contains(&len) {
                    return unsupported(format!("vectors of {len} components (SPIR-V vectors have 2 to 4)"));
                }
                let e = self.ty(elem)?;
                self.vector(e, len)
            }
            Type::Array { len, elem } => {
                let (len, elem) = (*len, *elem);
                let e = self.ty(elem)?;
                let Ok(len) = u32::try_from(len) else { return unsupported("array longer than 2^32") };
                if len == 0 {
                    return unsupported("zero-length array");
                }
                let l = self.const_u32(len);
                self.new_type(Op::TypeArray, &[e, l])
            }
            Type::Struct { name, elems, .. }
                if name.is_none()
                    || (rayquery::is_ray_tracing_stage(self.meta.kind) && raytracing::user_struct(self.m, t)) =>
            {
                let mut ids = Vec::with_capacity(elems.len());
                for &e in elems {
                    ids.push(self.ty(e)?);
                }
                self.new_type(Op::TypeStruct, &ids)
            }
            other => {
                let other = other.clone();
                return unsupported(format!("values of type {}", type_name(self.m, t, &other)));
            }
        };
        if let Some(slot) = self.ir_types.get_mut(t.0 as usize) {
            *slot = w;
        }
        Ok(w)
    }

    /// SPIR-V pointer type for IR pointer type `t` in storage class `sc`.
    pub fn ptr_type_of(&mut self, t: TypeId, sc: StorageClass) -> LResult<Word> {
        let Some((pointee, _)) = self.m.types.pointee(t) else {
            return malformed("pointer operand of non-pointer type");
        };
        let p = self.ty(pointee)?;
        Ok(self.pointer(sc, p))
    }

    // ---- constants ----------------------------------------------------

    pub fn const_bits(&mut self, ty: Word, wide: bool, bits: u64) -> Word {
        if let Some(&c) = self.consts.get(&(ty, bits)) {
            return c;
        }
        let id = if wide {
            self.b.global_value(Op::Constant, ty, &emit::lit64(bits))
        } else {
            self.b.global_value(Op::Constant, ty, &[bits as u32])
        };
        self.consts.insert((ty, bits), id);
        id
    }

    pub fn const_u32(&mut self, v: u32) -> Word {
        if let Some(&c) = self.small_u32.get(v as usize) {
            if c != 0 {
                return c;
            }
        }
        let t = self.u32();
        let c = self.const_bits(t, false, v as u64);
        if let Some(slot) = self.small_u32.get_mut(v as usize) {
            *slot = c;
        }
        c
    }

    pub fn const_i32(&mut self, v: i32) -> Word {
        self.const_u32(v as u32)
    }

    pub fn const_f32(&mut self, v: f32) -> Word {
        let t = self.f32();
        self.const_bits(t, false, v.to_bits() as u64)
    }

    pub fn const_bool(&mut self, v: bool) -> Word {
        let t = self.bool();
        let key = if v { 1 } else { 0 };
        if let Some(&c) = self.consts.get(&(t, key)) {
            return c;
        }
        let id = self.b.global_value(if v { Op::ConstantTrue } else { Op::ConstantFalse }, t, &[]);
        self.consts.insert((t, key), id);
        id
    }

    /// Constant of scalar kind `s` with the given bits (bool: non-zero = true).
    pub fn const_scalar(&mut self, s: Scalar, bits: u64) -> Word {
        match s {
            Scalar::Bool => self.const_bool(bits != 0),
            Scalar::U64 | Scalar::F64 => {
                let t = self.scalar(s);
                self.const_bits(t, true, bits)
            }
            Scalar::U8 => {
                let t = self.scalar(s);
                self.const_bits(t, false, bits & 0xff)
            }
            Scalar::U16 | Scalar::F16 => {
                let t = self.scalar(s);
                self.const_bits(t, false, bits & 0xffff)
            }
            _ => {
                let t = self.scalar(s);
                self.const_bits(t, false, bits & 0xffff_ffff)
            }
        }
    }

    /// A (never deduplicated) composite constant.
    pub fn const_composite(&mut self, ty: Word, elems: &[Word]) -> Word {
        self.b.global_value(Op::ConstantComposite, ty, elems)
    }

    pub fn null(&mut self, ty: Word) -> Word {
        if let Some(&c) = self.consts.get(&(ty, u64::MAX)) {
            return c;
        }
        let id = self.b.global_value(Op::ConstantNull, ty, &[]);
        self.consts.insert((ty, u64::MAX), id);
        id
    }

    pub fn undef(&mut self, ty: Word) -> Word {
        if let Some(&c) = self.consts.get(&(ty, u64::MAX - 1)) {
            return c;
        }
        let id = self.b.global_value(Op::Undef, ty, &[]);
        self.consts.insert((ty, u64::MAX - 1), id);
        id
    }

    /// The scalar kind of an IR type.
    pub fn scalar_of(&self, t: TypeId) -> Option<Scalar> {
        Some(match self.m.types.get(t) {
            Type::Half if self.widen16 => Scalar::F32,
            Type::Half => Scalar::F16,
            Type::Float => Scalar::F32,
            Type::Double => Scalar::F64,
            Type::Int(1) => Scalar::Bool,
            Type::Int(8) => Scalar::U8,
            Type::Int(16) if self.widen16 => Scalar::U32,
            Type::Int(16) => Scalar::U16,
            Type::Int(32) => Scalar::U32,
            Type::Int(64) => Scalar::U64,
            _ => return None,
        })
    }

    /// The bits of a constant of IR type `t` as its SPIR-V type holds them: min-precision `half`
    /// constants computed at 32 bits become the equal `float`, `i16` ones are sign-extended.
    fn widened_bits(&self, t: TypeId, bits: u64) -> u64 {
        if !self.widen16 {
            return bits;
        }
        match self.m.types.get(t) {
            Type::Half => u64::from(math::f16_bits_to_f32(bits as u16).to_bits()),
            Type::Int(16) => u64::from(bits as u16 as i16 as i32 as u32),
            _ => bits,
        }
    }

    fn constant(&mut self, c: ConstId) -> LResult<Word> {
        let Some(&w) = self.ir_consts.get(c.index()) else {
            return malformed(format!("constant #{} out of range", c.0));
        };
        if w != 0 {
            return Ok(w);
        }
        let k = self.m.konst(c);
        let w = match &k.kind {
            ConstKind::Int(v) => match self.scalar_of(k.ty) {
                Some(s) => {
                    let v = self.widened_bits(k.ty, *v);
                    self.const_scalar(s, v)
                }
                None => return unsupported("integer constant of non-scalar type"),
            },
            ConstKind::Float(bits) => match self.scalar_of(k.ty) {
                Some(s) => {
                    let bits = self.widened_bits(k.ty, *bits);
                    self.const_scalar(s, bits)
                }
                None => return unsupported("float constant of non-scalar type"),
            },
            ConstKind::Null => match self.scalar_of(k.ty) {
                Some(s) => self.const_scalar(s, 0),
                None => {
                    let t = self.ty(k.ty)?;
                    self.null(t)
                }
            },
            ConstKind::Undef => {
                let t = self.ty(k.ty)?;
                self.undef(t)
            }
            ConstKind::Aggregate(vals) => {
                let t = self.ty(k.ty)?;
                let mut ops = Vec::with_capacity(vals.len());
                for v in vals {
                    let Value::Const(e) = v else { return unsupported("aggregate constant with non-constant element") };
                    ops.push(self.constant(*e)?);
                }
                self.b.global_value(Op::ConstantComposite, t, &ops)
            }
            ConstKind::Data(elems) => {
                let t = self.ty(k.ty)?;
                let elem_ty = match self.m.types.get(k.ty) {
                    Type::Array { elem, .. } | Type::Vector { elem, .. } => *elem,
                    _ => return malformed("data constant of non-sequence type"),
                };
                let Some(s) = self.scalar_of(elem_ty) else {
                    return unsupported("data constant of non-scalar elements");
                };
                let mut ops = Vec::with_capacity(elems.len());
                for &e in elems {
                    let e = self.widened_bits(elem_ty, e);
                    ops.push(self.const_scalar(s, e));
                }
                self.b.global_value(Op::ConstantComposite, t, &ops)
            }
            ConstKind::WideInt(_) => return unsupported("integer constant wider than 64 bits"),
            ConstKind::Expr(_) => return unsupported("constant expression used as a value"),
        };
        self.ir_consts[c.index()] = w;
        Ok(w)
    }

    // ---- values -------------------------------------------------------

    /// The SPIR-V id of a (non-pointer, non-aggregate) value.
    pub fn value(&mut self, v: Value) -> LResult<Word> {
        match v {
            Value::Const(c) => self.constant(c),
            Value::Inst(i) => {
                if let Some(&var) = self.demote_vars.get(i.index()) {
                    if var != 0 {
                        let t = self.ty(self.f.inst(i).ty)?;
                        return self.load(t, var);
                    }
                }
                match self.vals.get(i.index()) {
                    Some(Val::Id(w)) | Some(Val::Ptr(w, _)) => Ok(*w),
                    Some(Val::Unset) => Err(Fail::Internal(format!("%{} used before its definition was lowered", i.0))),
                    Some(Val::Parts(..)) => unsupported("a dx.types aggregate used as a whole value"),
                    Some(Val::Handle(_)) => unsupported("a resource handle used as a value"),
                    None => malformed(format!("instruction %{} out of range", i.0)),
                }
            }
            Value::Global(g) => Ok(self.global(g)?.0),
            Value::Arg(a) => Ok(self.rt_arg(a)?.0),
            Value::Function(_) => unsupported("function pointers"),
            Value::Metadata(_) => unsupported("metadata as a value"),
        }
    }

    /// A pointer value and its storage class.
    pub fn pointer_value(&mut self, v: Value) -> LResult<(Word, StorageClass)> {
        match v {
            Value::Global(g) => self.global(g),
            Value::Inst(i) => match self.vals.get(i.index()) {
                Some(Val::Ptr(w, sc)) => Ok((*w, *sc)),
                _ => unsupported("pointer that is not a variable or element of one (phi/select of pointers?)"),
            },
            Value::Const(c) => {
                let k = self.m.konst(c);
                match &k.kind {
                    ConstKind::Expr(ConstExpr::Gep { base, indices, .. }) => {
                        let (base, indices, ty) = (*base, indices.clone(), k.ty);
                        self.gep(base, &indices, ty)
                    }
                    ConstKind::Expr(ConstExpr::Cast { op: crate::ir::CastOp::AddrSpaceCast, value }) => {
                        self.pointer_value(*value)
                    }
                    _ => unsupported("pointer constant expression other than getelementptr"),
                }
            }
            Value::Arg(a) => self.rt_arg(a),
            _ => unsupported("pointer argument"),
        }
    }

    /// `getelementptr base, 0, idx...` as an access chain.
    pub fn gep(&mut self, base: Value, indices: &[Value], result_ty: TypeId) -> LResult<(Word, StorageClass)> {
        let (b, sc) = self.pointer_value(base)?;
        let Some((first, rest)) = indices.split_first() else { return Ok((b, sc)) };
        if self.m.const_uint(*first) != Some(0) {
            return unsupported("getelementptr with a non-zero first index (pointer arithmetic)");
        }
        if rest.is_empty() {
            return Ok((b, sc));
        }
        let pt = self.ptr_type_of(result_ty, sc)?;
        let mut idx = Vec::with_capacity(rest.len());
        for &i in rest {
            idx.push(self.index_value(i)?);
        }
        Ok((self.access_chain(pt, b, &idx)?, sc))
    }

    /// An index operand as a 32-bit integer id (64-bit indices are narrowed).
    fn index_value(&mut self, v: Value) -> LResult<Word> {
        if let Some(c) = self.m.const_uint(v) {
            let Ok(c) = u32::try_from(c) else { return unsupported("index beyond 32 bits") };
            return Ok(self.const_u32(c));
        }
        let ty = self.m.value_type(self.f, v);
        let id = self.value(v)?;
        match self.m.types.get(ty) {
            Type::Int(32) => Ok(id),
            // An i1 index is sign-extended like any other: true is -1.
            Type::Int(1) => {
                let t = self.u32();
                let (all, zero) = (self.const_u32(u32::MAX), self.const_u32(0));
                self.op(Op::Select, t, &[id, all, zero])
            }
            Type::Int(_) => {
                let t = self.u32();
                self.op(Op::UConvert, t, &[id])
            }
            _ => malformed("non-integer index"),
        }
    }

    fn global(&mut self, g: GlobalId) -> LResult<(Word, StorageClass)> {
        match self.globals.get(g.index()) {
            Some(Val::Ptr(w, sc)) => return Ok((*w, *sc)),
            Some(_) => {}
            None => return malformed(format!("global #{} out of range", g.0)),
        }
        let gl = self.m.global(g);
        let sc = match gl.addr_space {
            3 => StorageClass::Workgroup,
            0 => StorageClass::Private,
            a => return unsupported(format!("global variable in address space {a}")),
        };
        let t = self.ty(gl.value_ty)?;
        let pt = self.pointer(sc, t);
        let init = match gl.init {
            Some(Value::Const(c)) if sc == StorageClass::Private => {
                if matches!(self.m.konst(c).kind, ConstKind::Undef) {
                    None
                } else {
                    Some(self.constant(c)?)
                }
            }
            _ => None,
        };
        let var = self.global_var(pt, sc, init);
        self.globals[g.index()] = Val::Ptr(var, sc);
        Ok((var, sc))
    }

    /// Records the lowered result of instruction `i`.
    pub fn set(&mut self, i: InstId, v: Val) {
        if let Some(s) = self.vals.get_mut(i.index()) {
            *s = v;
        }
    }

    pub fn set_id(&mut self, i: InstId, id: Word) {
        self.set(i, Val::Id(id));
    }

    /// Records aggregate parts as the result of `i`.
    pub fn set_parts(&mut self, i: InstId, parts: &[Word]) {
        let start = self.parts.len() as u32;
        self.parts.extend_from_slice(parts);
        self.set(i, Val::Parts(start, parts.len() as u8));
    }

    /// The result type of instruction `i`.
    pub fn result_ty(&mut self, i: InstId) -> LResult<Word> {
        self.ty(self.f.inst(i).ty)
    }

    // ---- control flow -------------------------------------------------

    pub fn new_label(&mut self) -> Word {
        self.b.id()
    }

    pub fn begin(&mut self, label: Word) -> LResult<()> {
        self.b.label(label).map_err(internal)?;
        self.open = true;
        self.cur_label = label;
        Ok(())
    }

    pub fn branch(&mut self, target: Word) -> LResult<()> {
        self.b.branch(target).map_err(internal)?;
        self.open = false;
        Ok(())
    }

    /// Emits `if (cond) { then() }` inline in the current block; code after it continues in the merge block.
    pub fn guarded(&mut self, cond: Word, then: impl FnOnce(&mut Self) -> LResult<()>) -> LResult<()> {
        let (t, merge) = (self.new_label(), self.new_label());
        self.b.selection_merge(merge).map_err(internal)?;
        self.b.branch_conditional(cond, t, merge).map_err(internal)?;
        self.begin(t)?;
        then(self)?;
        self.branch(merge)?;
        self.begin(merge)
    }

    /// Emits `do { (done, r) = body() } while (!done)` inline and returns the `r` of the last
    /// iteration (the body dominates the loop's merge block, where code continues).
    pub fn do_until<R>(&mut self, body: impl FnOnce(&mut Self) -> LResult<(Word, R)>) -> LResult<R> {
        let (header, bl, cont, merge) = (self.new_label(), self.new_label(), self.new_label(), self.new_label());
        self.branch(header)?;
        self.begin(header)?;
        self.b.loop_merge(merge, cont).map_err(internal)?;
        self.branch(bl)?;
        self.begin(bl)?;
        let (done, r) = body(self)?;
        self.branch(cont)?;
        self.begin(cont)?;
        self.b.branch_conditional(done, merge, header).map_err(internal)?;
        self.open = false;
        self.begin(merge)?;
        Ok(r)
    }

    /// Like [`Self::guarded`] for code with a result: `cond ? then() : zero of ty`.
    pub fn guarded_value(
        &mut self,
        cond: Word,
        ty: Word,
        then: impl FnOnce(&mut Self) -> LResult<Word>,
    ) -> LResult<Word> {
        let pre = self.cur_label;
        let (t, merge) = (self.new_label(), self.new_label());
        self.b.selection_merge(merge).map_err(internal)?;
        self.b.branch_conditional(cond, t, merge).map_err(internal)?;
        self.begin(t)?;
        let r = then(self)?;
        let t_end = self.cur_label;
        self.branch(merge)?;
        self.begin(merge)?;
        let z = self.null(ty);
        self.op(Op::Phi, ty, &[r, t_end, z, pre])
    }

    fn cond(&mut self, c: &Cond) -> LResult<Word> {
        match c {
            Cond::Value(v) => self.value(*v),
            Cond::VarEq(var, k) => {
                let Some(&p) = self.struct_vars.get(var.0 as usize) else {
                    return Err(Fail::Internal(format!("structurizer variable {} out of range", var.0)));
                };
                let t = self.u32();
                let x = self.load(t, p)?;
                let k = self.const_u32(*k);
                let bt = self.bool();
                self.op(Op::IEqual, bt, &[x, k])
            }
            Cond::Not(c) => {
                let x = self.cond(c)?;
                let bt = self.bool();
                self.op(Op::LogicalNot, bt, &[x])
            }
        }
    }

    /// Opens a construct's merge block; when nothing reaches it (`reached` false) it is closed
    /// with OpUnreachable and the code after the construct is unreachable (false).
    fn merge_block(&mut self, merge: Word, reached: bool) -> LResult<bool> {
        self.begin(merge)?;
        if !reached {
            self.unreachable()?;
        }
        Ok(reached)
    }

    /// Ends the open block with OpUnreachable.
    fn unreachable(&mut self) -> LResult<()> {
        self.b.terminator(Op::Unreachable, &[], &[]).map_err(internal)?;
        self.open = false;
        Ok(())
    }

    /// Emits a tree node; returns whether control falls through its end.
    fn node(&mut self, n: &Node) -> LResult<bool> {
        if !self.open {
            return Ok(false);
        }
        match n {
            Node::Seq(v) => {
                for c in v {
                    if !self.node(c)? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            Node::Block(b) => {
                self.block(*b)?;
                Ok(true)
            }
            Node::If { cond, then_, else_ } => {
                let c = self.cond(cond)?;
                let (t, e, merge) = (self.new_label(), self.new_label(), self.new_label());
                self.b.selection_merge(merge).map_err(internal)?;
                self.b.branch_conditional(c, t, e).map_err(internal)?;
                self.begin(t)?;
                let r1 = self.node(then_)?;
                if r1 {
                    self.branch(merge)?;
                }
                self.begin(e)?;
                let r2 = self.node(else_)?;
                if r2 {
                    self.branch(merge)?;
                }
                self.merge_block(merge, r1 || r2)
            }
            Node::Switch { selector, cases, default } => {
                let sel = self.value(*selector)?;
                let ty = self.m.value_type(self.f, *selector);
                let wide = matches!(self.m.types.get(ty), Type::Int(64));
                let merge = self.new_label();
                let dl = self.new_label();
                let mut targets = Vec::new();
                let mut labels = Vec::with_capacity(cases.len());
                for (consts, _) in cases {
                    let l = self.new_label();
                    labels.push(l);
                    for &c in consts {
                        let Some(v) = self.m.konst(c).as_uint(&self.m.types) else {
                            return malformed("switch case label is not an integer constant");
                        };
                        if wide {
                            targets.extend_from_slice(&emit::lit64(v));
                        } else {
                            targets.push(v as u32);
                        }
                        targets.push(l);
                    }
                }
                self.b.selection_merge(merge).map_err(internal)?;
                self.b.switch(sel, dl, &targets).map_err(internal)?;
                self.open = false;
                self.stack.push(Construct::Switch { merge, broken: false });
                let mut falls = false;
                for ((_, body), l) in cases.iter().zip(labels) {
                    self.begin(l)?;
                    if self.node(body)? {
                        falls = true;
                        self.branch(merge)?;
                    }
                }
                self.begin(dl)?;
                if self.node(default)? {
                    falls = true;
                    self.branch(merge)?;
                }
                let broken = matches!(self.stack.pop(), Some(Construct::Switch { broken: true, .. }));
                self.merge_block(merge, falls || broken)
            }
            Node::Scope { body } => {
                // A breakable region: a switch with only a default target.
                let sel = self.const_u32(0);
                let (bl, merge) = (self.new_label(), self.new_label());
                self.b.selection_merge(merge).map_err(internal)?;
                self.b.switch(sel, bl, &[]).map_err(internal)?;
                self.open = false;
                self.stack.push(Construct::Switch { merge, broken: false });
                self.begin(bl)?;
                let falls = self.node(body)?;
                if falls {
                    self.branch(merge)?;
                }
                let broken = matches!(self.stack.pop(), Some(Construct::Switch { broken: true, .. }));
                self.merge_block(merge, falls || broken)
            }
            Node::Loop { body } => {
                let (header, bl, cont, merge) =
                    (self.new_label(), self.new_label(), self.new_label(), self.new_label());
                self.branch(header)?;
                self.begin(header)?;
                self.b.loop_merge(merge, cont).map_err(internal)?;
                self.branch(bl)?;
                self.begin(bl)?;
                self.stack.push(Construct::Loop { merge, cont, broken: false });
                if self.node(body)? {
                    self.branch(cont)?;
                }
                let broken = matches!(self.stack.pop(), Some(Construct::Loop { broken: true, .. }));
                self.begin(cont)?;
                self.branch(header)?;
                self.merge_block(merge, broken)
            }
            Node::Break => {
                let target = match self.stack.last_mut() {
                    Some(Construct::Loop { merge, broken, .. }) | Some(Construct::Switch { merge, broken }) => {
                        *broken = true;
                        *merge
                    }
                    None => return Err(Fail::Internal("break outside of a loop or switch".into())),
                };
                self.branch(target)?;
                Ok(false)
            }
            Node::Continue => {
                let Some(cont) = self.stack.iter().rev().find_map(|c| match c {
                    Construct::Loop { cont, .. } => Some(*cont),
                    _ => None,
                }) else {
                    return Err(Fail::Internal("continue outside of a loop".into()));
                };
                self.branch(cont)?;
                Ok(false)
            }
            Node::Return(v) => {
                if v.is_some() {
                    return unsupported("returning a value from the entry point");
                }
                self.b.terminator(Op::Return, &[], &[]).map_err(internal)?;
                self.open = false;
                Ok(false)
            }
            Node::Unreachable => {
                self.unreachable()?;
                Ok(false)
            }
            Node::PhiCopy { phi, value } => {
                let Some(&var) = self.phi_vars.get(phi.index()) else {
                    return Err(Fail::Internal(format!("phi copy for %{} that is not a phi", phi.0)));
                };
                if var == 0 {
                    return Err(Fail::Internal(format!("phi copy for %{} that is not a phi", phi.0)));
                }
                if let Value::Const(c) = value {
                    if matches!(self.m.konst(*c).kind, ConstKind::Undef) {
                        return Ok(true);
                    }
                }
                let v = self.value(*value)?;
                self.store(var, v)?;
                Ok(true)
            }
            Node::SetVar { var, value } => {
                let Some(&p) = self.struct_vars.get(var.0 as usize) else {
                    return Err(Fail::Internal(format!("structurizer variable {} out of range", var.0)));
                };
                let k = self.const_u32(*value);
                self.store(p, k)?;
                Ok(true)
            }
        }
    }

    /// Emits the instructions of an original block (phis are read from their variables).
    fn block(&mut self, b: BlockId) -> LResult<()> {
        let first_new = self.b.bound();
        let Some(blk) = self.f.blocks.get(b.index()).copied() else {
            return Err(Fail::Internal(format!("block {} out of range", b.0)));
        };
        self.cur_block = Some(b);
        let n = blk.insts().len();
        for (k, i) in blk.insts().enumerate() {
            if k + 1 == n && self.f.inst(i).kind.is_terminator() {
                break;
            }
            if let InstKind::Phi { .. } = self.f.inst(i).kind {
                let var = self.phi_vars.get(i.index()).copied().unwrap_or(0);
                if var == 0 {
                    return Err(Fail::Internal(format!("phi %{} without variable", i.0)));
                }
                let t = self.result_ty(i)?;
                let x = self.load(t, var)?;
                self.set_id(i, x);
            } else {
                self.inst(i)?;
            }
            if let Some(&dv) = self.demote_vars.get(i.index()) {
                if dv != 0 {
                    let x = match self.vals[i.index()] {
                        Val::Id(x) => x,
                        Val::Unset => continue,
                        _ => {
                            return unsupported(
                                "a handle, pointer or dx.types aggregate live across structured control flow",
                            )
                        }
                    };
                    self.store(dv, x)?;
                }
            }
        }
        if self.widen16 {
            self.relax(blk, first_new);
        }
        Ok(())
    }

    /// Lowers one instruction.
    fn inst(&mut self, i: InstId) -> LResult<()> {
        let f = self.f;
        match &f.inst(i).kind {
            InstKind::DxOp { op, args, .. } => {
                let args = f.values(*args);
                let Some(h) = handler(*op) else {
                    return unsupported(format!("DXIL op {}", op.name()));
                };
                h(self, i, *op, args)
            }
            _ if self.rt.names_resource(i) => Ok(()),
            _ => llvm::lower(self, i),
        }
    }

    /// Min precision computed at 32 bits: the `half` results the instructions of a block made
    /// (ids from `first_new` on: not constants or values made before) become `RelaxedPrecision`,
    /// each once.
    #[cold]
    #[inline(never)]
    fn relax(&mut self, blk: crate::ir::Block, first_new: Word) {
        let half = |t: TypeId| matches!(self.m.types.get(t), Type::Half);
        let mut ids = Vec::new();
        for i in blk.insts() {
            let relaxed = match self.m.types.get(self.f.inst(i).ty) {
                Type::Half => true,
                Type::Vector { elem, .. } => half(*elem),
                Type::Struct { elems, .. } => elems.first().is_some_and(|e| half(*e)),
                _ => false,
            };
            match self.vals.get(i.index()) {
                Some(Val::Id(x)) if relaxed => ids.push(*x),
                Some(Val::Parts(start, n)) if relaxed => {
                    let (s, n) = (*start as usize, usize::from(*n));
                    ids.extend_from_slice(self.parts.get(s..s + n).unwrap_or(&[]));
                }
                _ => {}
            }
        }
        ids.retain(|&x| x >= first_new);
        ids.sort_unstable();
        ids.dedup();
        for x in ids {
            self.b.decorate(x, Decoration::RelaxedPrecision, &[]);
        }
    }

    // ---- function and module -----------------------------------------

    fn run(&mut self, sf: &StructuredFunction) -> LResult<()> {
        resources::scan(self)?;
        let model = self.execution_model()?;
        self.declare_io()?;
        let void = self.scalar(Scalar::Void);
        let fn_ty = self.new_type(Op::TypeFunction, &[void]);
        let fn_id = self.b.id();
        self.b.begin_function(void, fn_id, spirv::FunctionControl::NONE, fn_ty).map_err(internal)?;
        let entry = self.new_label();
        self.begin(entry)?;
        self.declare_locals(sf)?;
        let first = self.new_label();
        self.branch(first)?;
        self.begin(first)?;
        if model == spirv::ExecutionModel::Vertex {
            self.write_point_size()?;
        }
        if rayquery::is_ray_tracing_stage(self.meta.kind) {
            raytracing::preload_builtins(self)?;
        }
        if self.node(&sf.root)? {
            self.b.terminator(Op::Return, &[], &[]).map_err(internal)?;
            self.open = false;
        }
        self.b.end_function().map_err(internal)?;
        let interface = std::mem::take(&mut self.interface);
        self.b.entry_point(model, fn_id, self.meta.name.as_str(), &interface);
        use spirv::ExecutionModel::{GLCompute, MeshEXT, TaskEXT};
        if !matches!(model, GLCompute | MeshEXT | TaskEXT) {
            return self.execution_modes(fn_id);
        }
        let [x, y, z] = self.meta.numthreads;
        if x == 0 || y == 0 || z == 0 {
            return malformed("numthreads has a zero dimension");
        }
        self.b.execution_mode(fn_id, spirv::ExecutionMode::LocalSize, &[x, y, z]);
        if self.derivatives {
            // D3D SM 6.6: 2D quads when X and Y are even, 1D quads (4 consecutive flattened
            // indices) when X is a multiple of 4 and Y = Z = 1. Other sizes whose thread count is
            // a multiple of 4 (D3D calls them invalid, DXC accepts them) get the 1D grouping too.
            let (mode, cap) = if x % 2 == 0 && y % 2 == 0 {
                (spirv::ExecutionMode::DerivativeGroupQuadsKHR, Capability::ComputeDerivativeGroupQuadsKHR)
            } else if (u64::from(x) * u64::from(y) * u64::from(z)) % 4 == 0 {
                (spirv::ExecutionMode::DerivativeGroupLinearKHR, Capability::ComputeDerivativeGroupLinearKHR)
            } else {
                return unsupported(format!(
                    "derivatives in a compute shader with numthreads({x}, {y}, {z}) (quads need X and Y even, \
                     or a thread count that is a multiple of 4)"
                ));
            };
            self.cap(cap);
            // The NV extension allows these modes in GLCompute only, the KHR one in mesh/task shaders too.
            self.ext(if model == GLCompute {
                "SPV_NV_compute_shader_derivatives"
            } else {
                "SPV_KHR_compute_shader_derivatives"
            });
            self.b.execution_mode(fn_id, mode, &[]);
        }
        self.mesh_modes(fn_id)
    }

    /// Function-scope variables: allocas, phi variables, structurizer variables, demoted values.
    fn declare_locals(&mut self, sf: &StructuredFunction) -> LResult<()> {
        let f = self.f;
        let mut has_phi = false;
        // (A function the verifier found without an `alloca` or a PHI needs no walk.)
        let insts = if self.hints.is_some_and(|h| h.no_locals(self.m, f)) { &[][..] } else { &f.insts[..] };
        for (k, inst) in insts.iter().enumerate() {
            match &inst.kind {
                InstKind::Alloca { alloc_ty, count, .. } => {
                    if self.m.const_uint(*count) != Some(1) {
                        return unsupported("alloca of a dynamic or multi-element count");
                    }
                    let t = self.ty(*alloc_ty)?;
                    let pt = self.pointer(StorageClass::Function, t);
                    let v = self.op(Op::Variable, pt, &[StorageClass::Function as u32])?;
                    self.vals[k] = Val::Ptr(v, StorageClass::Function);
                }
                InstKind::Phi { .. } => {
                    if !has_phi {
                        has_phi = true;
                        refill(&mut self.phi_vars, f.insts.len(), 0);
                    }
                    if self.scalar_of(inst.ty).is_none() {
                        return unsupported(format!("phi of type {}", self.m.types.display(inst.ty)));
                    }
                    let t = self.ty(inst.ty)?;
                    let pt = self.pointer(StorageClass::Function, t);
                    let v = self.op(Op::Variable, pt, &[StorageClass::Function as u32])?;
                    self.phi_vars[k] = v;
                }
                _ => {}
            }
        }
        if sf.vars > 0 {
            let t = self.u32();
            let pt = self.pointer(StorageClass::Function, t);
            let zero = self.const_u32(0);
            for _ in 0..sf.vars {
                let v = self.op(Op::Variable, pt, &[StorageClass::Function as u32, zero])?;
                self.struct_vars.push(v);
            }
        }
        if !sf.demote.is_empty() {
            refill(&mut self.demote_vars, f.insts.len(), 0);
            for &i in &sf.demote {
                let Some(inst) = f.insts.get(i.index()) else {
                    return Err(Fail::Internal(format!("demoted %{} out of range", i.0)));
                };
                if self.scalar_of(inst.ty).is_none() {
                    return unsupported(format!(
                        "value of type {} live across structured control flow",
                        self.m.types.display(inst.ty)
                    ));
                }
                let t = self.ty(inst.ty)?;
                let pt = self.pointer(StorageClass::Function, t);
                let v = self.op(Op::Variable, pt, &[StorageClass::Function as u32])?;
                self.demote_vars[i.index()] = v;
            }
        }
        Ok(())
    }

    fn finish(mut self) -> Result<CompiledShader, CompileError> {
        for k in 0..self.caps.len() {
            if let Some(&c) = self.caps.get(k) {
                self.b.capability(c);
            }
        }
        for &e in &self.exts {
            self.b.extension(e);
        }
        let (bindings, push, heap_bindings) = resources::bindings(&self);
        let spirv = match self.b.finish() {
            Ok(words) => words,
            Err(e @ emit::EmitError::TooLong(_)) => {
                return Err(CompileError::Unsupported {
                    feature: e.to_string(),
                    function: self.f.name.clone(),
                    block: None,
                    shader_model: self.meta.sm_string(),
                })
            }
            Err(e) => return Err(CompileError::Internal(e.to_string())),
        };
        Ok(CompiledShader {
            spirv,
            entry_point: emit::spirv_name(&self.meta.name).into_owned(),
            stage: self.meta.kind,
            workgroup_size: if self.meta.kind == crate::ShaderKind::Compute { self.meta.numthreads } else { [0; 3] },
            bindings,
            push_constants: push,
            heap_bindings,
            push_layout: self.res.push_layout.clone(),
            shader_record: self.res.record_layout.clone(),
            patch_location_offset: self
                .tess
                .as_ref()
                .and_then(|t| t.patch_location_offset(self.opts.patch_location_offset)),
            placements: std::mem::take(&mut self.res.placed),
            sample_count_spec_id: (self.sample_count_spec != 0).then_some(crate::compiled::SPEC_ID_SAMPLE_COUNT),
            required_subgroup_size: self.subgroups.required,
            capabilities: self
                .caps
                .iter()
                .map(|&c| cap_name(c).map_or_else(|| format!("{c:?}"), String::from))
                .collect(),
        })
    }
}

/// Names (as `Debug` spells them) of the capabilities the lowering declares, without going
/// through the formatter for each compile.
macro_rules! cap_names {
    ($($c:ident),* $(,)?) => {
        fn cap_name(c: Capability) -> Option<&'static str> {
            match c {
                $(Capability::$c => Some(stringify!($c)),)*
                _ => None,
            }
        }
        #[cfg(test)]
        const CAPS_NAMED: &[Capability] = &[$(Capability::$c),*];
    };
}
cap_names!(
    ClipDistance,
    ComputeDerivativeGroupLinearKHR,
    ComputeDerivativeGroupQuadsKHR,
    CullDistance,
    DemoteToHelperInvocation,
    DerivativeControl,
    DrawParameters,
    Float16,
    Float64,
    FragmentBarycentricKHR,
    FragmentFullyCoveredEXT,
    Geometry,
    GeometryPointSize,
    GeometryStreams,
    GroupNonUniform,
    GroupNonUniformArithmetic,
    GroupNonUniformBallot,
    GroupNonUniformQuad,
    GroupNonUniformShuffle,
    GroupNonUniformVote,
    Image1D,
    ImageBuffer,
    ImageCubeArray,
    ImageGatherExtended,
    ImageMSArray,
    ImageQuery,
    Int16,
    Int64,
    Int64Atomics,
    Int64ImageEXT,
    Int8,
    InterpolationFunction,
    MeshShadingEXT,
    RayQueryKHR,
    RayTracingKHR,
    RayTraversalPrimitiveCullingKHR,
    MinLod,
    MultiView,
    MultiViewport,
    RuntimeDescriptorArray,
    SampleRateShading,
    Sampled1D,
    SampledBuffer,
    SampledCubeArray,
    SampledImageArrayNonUniformIndexing,
    Shader,
    ShaderLayer,
    ShaderNonUniform,
    ShaderViewportIndex,
    ShaderViewportIndexLayerEXT,
    StencilExportEXT,
    StorageBuffer16BitAccess,
    StorageBufferArrayNonUniformIndexing,
    StorageImageArrayNonUniformIndexing,
    StorageImageMultisample,
    StorageImageReadWithoutFormat,
    StorageImageWriteWithoutFormat,
    StorageTexelBufferArrayNonUniformIndexing,
    Tessellation,
    TransformFeedback,
    UniformBufferArrayNonUniformIndexing,
    UniformTexelBufferArrayNonUniformIndexing
);

/// `v` as `n` copies of `x` (keeping its storage).
fn refill<T: Copy>(v: &mut Vec<T>, n: usize, x: T) {
    v.clear();
    v.resize(n, x);
}

/// Largest lowering working storage kept between compiles on a thread.
const MAX_KEPT_SCRATCH: usize = 4 << 20;

thread_local! {
    static SCRATCH: std::cell::Cell<Option<Scratch>> = const { std::cell::Cell::new(None) };
}

/// The [`Lowerer`]'s working storage, kept per thread so that a compile reuses the tables and
/// SPIR-V sections of the previous one instead of allocating them again.
#[derive(Default)]
struct Scratch {
    b: Option<Emitter>,
    caps: Vec<Capability>,
    exts: Vec<&'static str>,
    vectors: Vec<(Word, u32, Word)>,
    pointers: Vec<(StorageClass, Word, Word)>,
    ir_types: Vec<Word>,
    ir_consts: Vec<Word>,
    consts: FxHashMap<(Word, u64), Word>,
    vals: Vec<Val>,
    parts: Vec<Word>,
    globals: Vec<Val>,
    phi_vars: Vec<Word>,
    demote_vars: Vec<Word>,
    struct_vars: Vec<Word>,
    interface: Vec<Word>,
    stack: Vec<Construct>,
    used: Vec<u8>,
    res: resources::Resources,
    rq: rayquery::RayQueries,
    rt: raytracing::RayTracing,
}

impl Scratch {
    fn capacity_bytes(&self) -> usize {
        self.b.as_ref().map_or(0, Emitter::capacity_bytes)
            + (self.ir_types.capacity()
                + self.ir_consts.capacity()
                + self.parts.capacity()
                + self.phi_vars.capacity()
                + self.demote_vars.capacity()
                + self.struct_vars.capacity()
                + self.interface.capacity())
                * 4
            + self.consts.capacity() * 16
            + (self.vals.capacity() + self.globals.capacity()) * std::mem::size_of::<Val>()
            + self.used.capacity()
            + self.res.capacity_bytes()
    }
}

impl Drop for Lowerer<'_> {
    /// Hands the working storage back to this thread's [`Scratch`] (unless a huge shader made it big).
    fn drop(&mut self) {
        use std::mem::take;
        let b = take(&mut self.b);
        let s = Scratch {
            b: Some(b),
            caps: take(&mut self.caps),
            exts: take(&mut self.exts),
            vectors: take(&mut self.vectors),
            pointers: take(&mut self.pointers),
            ir_types: take(&mut self.ir_types),
            ir_consts: take(&mut self.ir_consts),
            consts: take(&mut self.consts),
            vals: take(&mut self.vals),
            parts: take(&mut self.parts),
            globals: take(&mut self.globals),
            phi_vars: take(&mut self.phi_vars),
            demote_vars: take(&mut self.demote_vars),
            struct_vars: take(&mut self.struct_vars),
            interface: take(&mut self.interface),
            stack: take(&mut self.stack),
            used: take(&mut self.used),
            res: take(&mut self.res),
            rq: take(&mut self.rq),
            rt: take(&mut self.rt),
        };
        if s.capacity_bytes() <= MAX_KEPT_SCRATCH {
            SCRATCH.with(|c| c.set(Some(s)));
        }
    }
}

fn type_name(m: &Module, t: TypeId, _ty: &Type) -> String {
    m.types.display(t)
}

/// A lowering function for one DXIL op family.
/// The signature and system-value ops: hull and domain shaders keep per-control-point arrays
/// and patch constants (`tessellation`), the other stages plain variables (`io`).
fn io_op(l: &mut Lowerer<'_>, i: InstId, op: DxilOp, args: &[Value]) -> LResult<()> {
    if l.tess.is_some() {
        tessellation::lower_op(l, i, op, args)
    } else {
        io::lower(l, i, op, args)
    }
}

pub(crate) type Handler = fn(&mut Lowerer<'_>, InstId, DxilOp, &[Value]) -> LResult<()>;

/// The one dispatch table: which family lowers each DXIL op. `None`: unsupported.
pub(crate) fn handler(op: DxilOp) -> Option<Handler> {
    use DxilOp::*;
    Some(match op {
        ThreadId
        | GroupId
        | ThreadIdInGroup
        | FlattenedThreadIdInGroup
        | Barrier
        | BarrierByMemoryType
        | BarrierByMemoryHandle => compute::lower,
        FAbs | Saturate | IsNaN | IsInf | IsFinite | IsNormal | Cos | Sin | Tan | Acos | Asin | Atan | Hcos | Hsin
        | Htan | Exp | Frc | Log | Sqrt | Rsqrt | Round_ne | Round_ni | Round_pi | Round_z | Bfrev | Countbits
        | FirstbitLo | FirstbitHi | FirstbitSHi | FMax | FMin | IMax | IMin | UMax | UMin | UDiv | UAddc | USubb
        | FMad | Fma | IMad | UMad | Ibfe | Ubfe | Msad | Bfi | Dot2 | Dot3 | Dot4 | MakeDouble | SplitDouble
        | BitcastI16toF16 | BitcastF16toI16 | BitcastI32toF32 | BitcastF32toI32 | BitcastI64toF64 | BitcastF64toI64
        | LegacyF32ToF16 | LegacyF16ToF32 | LegacyDoubleToFloat | LegacyDoubleToSInt32 | LegacyDoubleToUInt32
        | Dot2AddHalf | Dot4AddI8Packed | Dot4AddU8Packed | Pack4x8 | Unpack4x8 | IMul | UMul => math::lower,
        CreateHandle
        | CreateHandleFromBinding
        | AnnotateHandle
        | CreateHandleFromHeap
        | BufferLoad
        | BufferStore
        | RawBufferLoad
        | RawBufferStore
        | CBufferLoadLegacy
        | CBufferLoad
        | BufferUpdateCounter
        | CheckAccessFullyMapped => resources::lower,
        GetDimensions
        | TextureLoad
        | TextureStore
        | SampleLevel
        | SampleGrad
        | TextureGather
        | Sample
        | SampleBias
        | SampleCmp
        | SampleCmpLevelZero
        | SampleCmpLevel
        | SampleCmpGrad
        | SampleCmpBias
        | TextureGatherCmp
        | CalculateLOD
        | Texture2DMSGetSamplePosition
        | TextureStoreSample
        | TextureGatherRaw => sampling::lower,
        WriteSamplerFeedback | WriteSamplerFeedbackBias | WriteSamplerFeedbackLevel | WriteSamplerFeedbackGrad => {
            feedback::lower
        }
        AtomicBinOp | AtomicCompareExchange => atomics::lower,
        WaveIsFirstLane
        | WaveGetLaneIndex
        | WaveGetLaneCount
        | WaveAnyTrue
        | WaveAllTrue
        | WaveActiveAllEqual
        | WaveActiveBallot
        | WaveReadLaneAt
        | WaveReadLaneFirst
        | WaveActiveOp
        | WaveActiveBit
        | WavePrefixOp
        | WaveAllBitCount
        | WavePrefixBitCount
        | WaveMatch
        | WaveMultiPrefixOp
        | WaveMultiPrefixBitCount => wave::lower,
        QuadReadLaneAt | QuadOp | QuadVote => quad::lower,
        LoadInput
        | StoreOutput
        | PrimitiveID
        | ViewID
        | StartVertexLocation
        | StartInstanceLocation
        | GSInstanceID
        | SampleIndex
        | Coverage
        | InnerCoverage => io_op,
        Discard
        | DerivCoarseX
        | DerivCoarseY
        | DerivFineX
        | DerivFineY
        | IsHelperLane
        | EvalSnapped
        | EvalSampleIndex
        | EvalCentroid
        | RenderTargetGetSampleCount
        | RenderTargetGetSamplePosition
        | AttributeAtVertex => pixel::lower,
        EmitStream | CutStream | EmitThenCutStream => geometry::lower,
        SetMeshOutputCounts | EmitIndices | GetMeshPayload | StoreVertexOutput | StorePrimitiveOutput
        | DispatchMesh => mesh::lower,
        DomainLocation | OutputControlPointID | LoadOutputControlPoint | StorePatchConstant | LoadPatchConstant => {
            tessellation::lower_op
        }
        AllocateRayQuery
        | RayQuery_TraceRayInline
        | RayQuery_Proceed
        | RayQuery_Abort
        | RayQuery_CommitNonOpaqueTriangleHit
        | RayQuery_CommitProceduralPrimitiveHit
        | RayQuery_CommittedStatus
        | RayQuery_CandidateType
        | RayQuery_CandidateObjectToWorld3x4
        | RayQuery_CandidateWorldToObject3x4
        | RayQuery_CommittedObjectToWorld3x4
        | RayQuery_CommittedWorldToObject3x4
        | RayQuery_CandidateProceduralPrimitiveNonOpaque
        | RayQuery_CandidateTriangleFrontFace
        | RayQuery_CommittedTriangleFrontFace
        | RayQuery_CandidateTriangleBarycentrics
        | RayQuery_CommittedTriangleBarycentrics
        | RayQuery_RayFlags
        | RayQuery_WorldRayOrigin
        | RayQuery_WorldRayDirection
        | RayQuery_RayTMin
        | RayQuery_CandidateTriangleRayT
        | RayQuery_CommittedRayT
        | RayQuery_CandidateInstanceIndex
        | RayQuery_CandidateInstanceID
        | RayQuery_CandidateGeometryIndex
        | RayQuery_CandidatePrimitiveIndex
        | RayQuery_CandidateObjectRayOrigin
        | RayQuery_CandidateObjectRayDirection
        | RayQuery_CommittedInstanceIndex
        | RayQuery_CommittedInstanceID
        | RayQuery_CommittedGeometryIndex
        | RayQuery_CommittedPrimitiveIndex
        | RayQuery_CommittedObjectRayOrigin
        | RayQuery_CommittedObjectRayDirection
        | RayQuery_CandidateInstanceContributionToHitGroupIndex
        | RayQuery_CommittedInstanceContributionToHitGroupIndex => rayquery::lower,
        CreateHandleForLib
        | TraceRay
        | ReportHit
        | CallShader
        | IgnoreHit
        | AcceptHitAndEndSearch
        | DispatchRaysIndex
        | DispatchRaysDimensions
        | WorldRayOrigin
        | WorldRayDirection
        | ObjectRayOrigin
        | ObjectRayDirection
        | RayTMin
        | RayTCurrent
        | RayFlags
        | InstanceIndex
        | InstanceID
        | GeometryIndex
        | PrimitiveIndex
        | HitKind
        | ObjectToWorld
        | WorldToObject => raytracing::lower,
        TempRegLoad
        | TempRegStore
        | MinPrecXRegLoad
        | MinPrecXRegStore
        | CycleCounterLegacy
        | WaveMatrix_Annotate
        | WaveMatrix_Depth
        | WaveMatrix_Fill
        | WaveMatrix_LoadRawBuf
        | WaveMatrix_LoadGroupShared
        | WaveMatrix_StoreRawBuf
        | WaveMatrix_StoreGroupShared
        | WaveMatrix_Multiply
        | WaveMatrix_MultiplyAccumulate
        | WaveMatrix_ScalarOp
        | WaveMatrix_SumAccumulate
        | WaveMatrix_Add
        | AllocateNodeOutputRecords
        | GetNodeRecordPtr
        | IncrementOutputCount
        | OutputComplete
        | GetInputRecordCount
        | FinishedCrossGroupSharing
        | BarrierByNodeRecordHandle
        | CreateNodeOutputHandle
        | IndexNodeHandle
        | AnnotateNodeHandle
        | CreateNodeInputRecordHandle
        | AnnotateNodeRecordHandle
        | NodeOutputIsValid
        | GetRemainingRecursionLevels => refused::lower,
    })
}

#[cfg(test)]
mod tests;
