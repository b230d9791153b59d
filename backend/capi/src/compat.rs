//! The dxil_spv_* functions (`include/dxil_spirv_c.h`): the dxil-spirv C interface a D3D12 layer
//! links, implemented over dxjit's compile API and binding model.
//!
//! How the interface maps onto dxjit:
//! - the SRV/UAV/CBV/sampler remappers become one [`ResourceRemap`]: a `use_heap` answer is a
//!   bindless heap element (`root_constant_index` = the descriptor table's root-constant word,
//!   `heap_root_offset` = the constant offset, `offset_binding` = the buffer-view bounds buffer
//!   where dxil-spirv would use one), `BUFFER_DEVICE_ADDRESS` a root descriptor at root-block
//!   word `2 * root_constant_index`, a CBV `push_constant` root constants at word
//!   `2 * root_descriptor_count + offset_in_words`, anything else a plain descriptor;
//! - `set_root_constant_word_count` / `set_root_descriptor_count` size the root block
//!   (`BindingModel::root_words = 2 * descriptors + words`);
//! - vertex-input, stream-output and patch-location settings edit the single-stage link plan;
//! - DXBC shaders, and DXIL that dxjit reports unsupported, go to the fallback library with the
//!   recorded calls replayed onto it.
//!
//! Every function runs under a panic guard; failures are logged through the thread's log
//! callback and reported with the interface's result codes.

use std::cell::RefCell;
use std::ffi::{c_char, c_uint, c_void, CStr, CString};
use std::sync::Arc;

use dxjit::binding::model::{
    BindingPolicy, CounterLocation, ResourceLocation, ResourcePlacement, ResourceQuery, ResourceRemap, RootBlock,
    ShaderRecordLayout,
};
use dxjit::binding::{BindingModel, DescriptorKind, LocalRoot, ResourceClass};
use dxjit::container::rootsig::{DescriptorRangeType, RootParameterKind, RootSignature, ShaderVisibility};
use dxjit::link::{LinkPlan, Placement, StageIo, StreamOutputPlan, XfbOutput};
use dxjit::ResourceKind;
use dxjit::{CompileError, CompileOptions, CompiledShader, Robustness, ShaderKind, SubgroupSizeRange};

use crate::abi::{self, opt, Bool};
use crate::fallback::{self, Library, Route};
use crate::ffi::{catch, cstring};
use crate::native::{DxjitBlob, DxjitResourceInfo, DxjitResult};

const TRUE: Bool = 1;
const FALSE: Bool = 0;

// ---------------------------------------------------------------------------------------------
// Logging

thread_local! {
    static LOG: RefCell<(abi::LogCallback, usize)> = const { RefCell::new((None, 0)) };
}

fn log(level: u32, msg: &str) {
    let (cb, user) = LOG.with(|l| *l.borrow());
    if let Some(cb) = cb {
        let c = cstring(msg);
        // SAFETY: the callback and its user data were registered by the layer for this thread.
        unsafe { cb(user as *mut c_void, level, c.as_ptr()) };
    }
}

/// Runs `f` under the panic guard: a panic is logged and gives `on_panic`.
fn guard<T>(on_panic: T, f: impl FnOnce() -> T) -> T {
    match catch(f) {
        Ok(v) => v,
        Err(msg) => {
            log(abi::log::ERROR, &format!("dxjit: {msg}"));
            on_panic
        }
    }
}

/// Sets this thread's log sink (NULL: none). The fallback library gets the same sink when a
/// compile is handed to it.
#[no_mangle]
pub extern "C" fn dxil_spv_set_thread_log_callback(callback: abi::LogCallback, userdata: *mut c_void) {
    guard((), || LOG.with(|l| *l.borrow_mut() = (callback, userdata as usize)))
}

/// No-op: dxjit has no per-thread arena.
#[no_mangle]
pub extern "C" fn dxil_spv_begin_thread_allocator_context() {}

/// No-op.
#[no_mangle]
pub extern "C" fn dxil_spv_end_thread_allocator_context() {}

/// No-op.
#[no_mangle]
pub extern "C" fn dxil_spv_reset_thread_allocator_context() {}

/// The interface version this library implements (2.66.0).
#[no_mangle]
pub unsafe extern "C" fn dxil_spv_get_version(major: *mut c_uint, minor: *mut c_uint, patch: *mut c_uint) {
    for (p, v) in [(major, abi::API_MAJOR), (minor, abi::API_MINOR), (patch, abi::API_PATCH)] {
        if !p.is_null() {
            // SAFETY: non-NULL, valid per the caller.
            unsafe { p.write(v) };
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Parsed blobs

enum BlobKind {
    Dxil(Box<DxjitBlob>),
    /// DXBC parsed by the fallback library (its blob handle).
    Dxbc {
        lib: Arc<Library>,
        handle: *mut c_void,
    },
}

/// `dxil_spv_parsed_blob`.
pub struct ParsedBlob {
    kind: BlobKind,
    demangled: Vec<CString>,
    /// The RDAT subobjects of the kinds the interface names, in the library's order.
    subobjects: Vec<abi::RdatSubobject>,
}

impl Drop for ParsedBlob {
    fn drop(&mut self) {
        if let BlobKind::Dxbc { lib, handle } = &self.kind {
            // SAFETY: the handle came from this library's parse and is freed once.
            unsafe { (lib.fns.parsed_blob_free)(*handle) };
        }
    }
}

fn demangle(name: &str) -> &str {
    // MSVC-mangled library exports: "\x01?name@@...".
    let n = name.strip_prefix('\u{1}').unwrap_or(name);
    match n.strip_prefix('?') {
        Some(rest) => rest.split("@@").next().unwrap_or(rest),
        None => n,
    }
}

/// Parses a DXBC container. DXIL is parsed by dxjit; DXBC shader-model 4/5 bytecode (a SHDR/SHEX
/// part, no DXIL) is parsed by the fallback library when one is loaded, and otherwise fails with
/// `DXIL_SPV_ERROR_UNSUPPORTED_FEATURE` (broken containers give `DXIL_SPV_ERROR_PARSER`).
#[no_mangle]
pub unsafe extern "C" fn dxil_spv_parse_dxil_blob(data: *const c_void, size: usize, blob: *mut *mut ParsedBlob) -> i32 {
    guard(abi::ERROR_GENERIC, || {
        if blob.is_null() {
            log(abi::log::ERROR, "dxjit: dxil_spv_parse_dxil_blob: blob is NULL");
            return abi::ERROR_INVALID_ARGUMENT;
        }
        // SAFETY: per the caller.
        let bytes = match unsafe { crate::ffi::bytes(data.cast(), size, "data") } {
            Ok(b) => b,
            Err(e) => {
                log(abi::log::ERROR, &format!("dxjit: dxil_spv_parse_dxil_blob: {e}"));
                return abi::ERROR_INVALID_ARGUMENT;
            }
        };
        let kind = match DxjitBlob::parse(bytes) {
            Ok(b) => BlobKind::Dxil(Box::new(b)),
            Err(f) if f.0 == DxjitResult::DXJIT_ERROR_DXBC => {
                let warn = |m: &str| log(abi::log::WARN, m);
                let Some(lib) = fallback::current(&warn) else {
                    fallback::count(Route::DxbcRefused);
                    log(
                        abi::log::ERROR,
                        "dxjit: DXBC shader-model 4/5 shader and no fallback library (DXJIT_FALLBACK_LIBRARY): \
                         DXIL_SPV_ERROR_UNSUPPORTED_FEATURE",
                    );
                    return abi::ERROR_UNSUPPORTED_FEATURE;
                };
                let mut h = std::ptr::null_mut();
                // SAFETY: forwarding the caller's valid arguments.
                let r = unsafe { (lib.fns.parse_dxil_blob)(bytes.as_ptr().cast(), bytes.len(), &mut h) };
                if r != abi::SUCCESS {
                    fallback::count(Route::Failed);
                    log(abi::log::ERROR, &format!("dxjit: fallback {} failed to parse a DXBC shader ({r})", lib.path));
                    return r;
                }
                BlobKind::Dxbc { lib, handle: h }
            }
            Err(f) => {
                log(abi::log::ERROR, &format!("dxjit: {}", f.1));
                return abi::ERROR_PARSER;
            }
        };
        let (demangled, subobjects) = match &kind {
            BlobKind::Dxil(b) => (
                b.info().functions().map(|e| cstring(demangle(&e.name))).collect(),
                b.subobjects().iter().filter_map(rdat_view).collect(),
            ),
            BlobKind::Dxbc { .. } => (Vec::new(), Vec::new()),
        };
        let pb = Box::new(ParsedBlob { kind, demangled, subobjects });
        // SAFETY: checked non-NULL above.
        unsafe { blob.write(Box::into_raw(pb)) };
        abi::SUCCESS
    })
}

/// Reflection-only DXIL (the STAT part) is not read by dxjit.
#[no_mangle]
pub unsafe extern "C" fn dxil_spv_parse_reflection_dxil_blob(
    _data: *const c_void,
    _size: usize,
    _blob: *mut *mut ParsedBlob,
) -> i32 {
    log(abi::log::ERROR, "dxjit: reflection blobs (STAT part) are not supported");
    abi::ERROR_UNSUPPORTED_FEATURE
}

/// Raw bitcode without a container is not accepted by dxjit.
#[no_mangle]
pub unsafe extern "C" fn dxil_spv_parse_dxil(_data: *const c_void, _size: usize, _blob: *mut *mut ParsedBlob) -> i32 {
    log(abi::log::ERROR, "dxjit: raw DXIL bitcode without a DXBC container is not supported");
    abi::ERROR_UNSUPPORTED_FEATURE
}

/// Frees a parsed blob (NULL is ignored).
#[no_mangle]
pub unsafe extern "C" fn dxil_spv_parsed_blob_free(blob: *mut ParsedBlob) {
    if !blob.is_null() {
        // SAFETY: created by dxil_spv_parse_dxil_blob, freed once per the caller.
        guard((), || drop(unsafe { Box::from_raw(blob) }))
    }
}

fn stage_num(k: ShaderKind) -> u32 {
    use abi::stage::*;
    match k {
        ShaderKind::Vertex => VERTEX,
        ShaderKind::Hull => HULL,
        ShaderKind::Domain => DOMAIN,
        ShaderKind::Geometry => GEOMETRY,
        ShaderKind::Pixel => PIXEL,
        ShaderKind::Compute => COMPUTE,
        ShaderKind::Intersection => INTERSECTION,
        ShaderKind::ClosestHit => CLOSEST_HIT,
        ShaderKind::Miss => MISS,
        ShaderKind::AnyHit => ANY_HIT,
        ShaderKind::RayGeneration => RAY_GENERATION,
        ShaderKind::Callable => CALLABLE,
        ShaderKind::Amplification => AMPLIFICATION,
        ShaderKind::Mesh => MESH,
        ShaderKind::Library | ShaderKind::Node => UNKNOWN,
    }
}

/// The blob's shader stage (`DXIL_SPV_STAGE_UNKNOWN` for libraries and NULL).
#[no_mangle]
pub unsafe extern "C" fn dxil_spv_parsed_blob_get_shader_stage(blob: *const ParsedBlob) -> u32 {
    guard(abi::stage::UNKNOWN, || {
        // SAFETY: NULL or live per the caller.
        match unsafe { blob.as_ref() }.map(|b| &b.kind) {
            Some(BlobKind::Dxil(b)) => stage_num(b.info().shader_model.kind),
            // SAFETY: forwarding a live handle.
            Some(BlobKind::Dxbc { lib, handle }) => lib.fns.get_shader_stage.map_or(0, |f| unsafe { f(*handle) }),
            None => abi::stage::UNKNOWN,
        }
    })
}

/// Entry point `index`'s name without C++ mangling (the layer keys shader quirks on it).
#[no_mangle]
pub unsafe extern "C" fn dxil_spv_parsed_blob_get_entry_point_demangled_name(
    blob: *const ParsedBlob,
    index: c_uint,
    name: *mut *const c_char,
) -> i32 {
    guard(abi::ERROR_GENERIC, || {
        // SAFETY: NULL or live per the caller.
        let Some(b) = (unsafe { blob.as_ref() }) else { return abi::ERROR_INVALID_ARGUMENT };
        if name.is_null() {
            return abi::ERROR_INVALID_ARGUMENT;
        }
        match &b.kind {
            BlobKind::Dxil(_) => match b.demangled.get(index as usize) {
                // SAFETY: checked non-NULL.
                Some(n) => unsafe { name.write(n.as_ptr()) },
                None => return abi::ERROR_INVALID_ARGUMENT,
            },
            BlobKind::Dxbc { lib, handle } => {
                return match lib.fns.get_entry_point_demangled_name {
                    // SAFETY: forwarding valid arguments.
                    Some(f) => unsafe { f(*handle, index, name) },
                    None => {
                        // SAFETY: checked non-NULL.
                        unsafe { name.write(c"main".as_ptr()) };
                        abi::SUCCESS
                    }
                };
            }
        }
        abi::SUCCESS
    })
}

/// Number of entry points (library exports).
#[no_mangle]
pub unsafe extern "C" fn dxil_spv_parsed_blob_get_num_entry_points(blob: *const ParsedBlob, count: *mut c_uint) -> i32 {
    guard(abi::ERROR_GENERIC, || {
        // SAFETY: NULL or live per the caller.
        let n = match unsafe { blob.as_ref() }.map(|b| &b.kind) {
            Some(BlobKind::Dxil(b)) => b.info().functions().count() as c_uint,
            Some(BlobKind::Dxbc { .. }) => 1,
            None => return abi::ERROR_INVALID_ARGUMENT,
        };
        if count.is_null() {
            return abi::ERROR_INVALID_ARGUMENT;
        }
        // SAFETY: checked non-NULL.
        unsafe { count.write(n) };
        abi::SUCCESS
    })
}

/// Entry point `index`'s (mangled) name.
#[no_mangle]
pub unsafe extern "C" fn dxil_spv_parsed_blob_get_entry_point_name(
    blob: *const ParsedBlob,
    index: c_uint,
    name: *mut *const c_char,
) -> i32 {
    guard(abi::ERROR_GENERIC, || {
        // SAFETY: NULL or live per the caller.
        let Some(BlobKind::Dxil(b)) = unsafe { blob.as_ref() }.map(|b| &b.kind) else {
            return abi::ERROR_INVALID_ARGUMENT;
        };
        let Some(n) = b.entry_name(index as usize) else { return abi::ERROR_INVALID_ARGUMENT };
        if name.is_null() {
            return abi::ERROR_INVALID_ARGUMENT;
        }
        // SAFETY: checked non-NULL.
        unsafe { name.write(n.as_ptr()) };
        abi::SUCCESS
    })
}

/// Index of the entry point called `entry` (mangled or demangled); `DXIL_SPV_ERROR_GENERIC`
/// when the blob has none of that name.
#[no_mangle]
pub unsafe extern "C" fn dxil_spv_parsed_blob_get_entry_index_by_name(
    blob: *const ParsedBlob,
    entry: *const c_char,
    index: *mut c_uint,
) -> i32 {
    guard(abi::ERROR_GENERIC, || {
        // SAFETY: NULL or live per the caller.
        let Some(pb) = (unsafe { blob.as_ref() }) else { return abi::ERROR_INVALID_ARGUMENT };
        let BlobKind::Dxil(b) = &pb.kind else { return abi::ERROR_UNSUPPORTED_FEATURE };
        // SAFETY: per the caller.
        let Ok(Some(want)) = (unsafe { crate::ffi::opt_str(entry, "entry") }) else {
            return abi::ERROR_INVALID_ARGUMENT;
        };
        if index.is_null() {
            return abi::ERROR_INVALID_ARGUMENT;
        }
        match b.info().functions().position(|e| e.name == want || demangle(&e.name) == want) {
            Some(i) => {
                // SAFETY: checked non-NULL.
                unsafe { index.write(i as c_uint) };
                abi::SUCCESS
            }
            None => {
                log(abi::log::ERROR, &format!("dxjit: the blob has no entry point {want:?}"));
                abi::ERROR_GENERIC
            }
        }
    })
}

/// The stage of entry point `entry` (mangled or demangled name): a library export's shader kind
/// (work-graph nodes: compute, as the interface reports them; dxjit does not compile them), the
/// shader's stage for other blobs; `DXIL_SPV_STAGE_UNKNOWN` for an unknown name or NULL.
#[no_mangle]
pub unsafe extern "C" fn dxil_spv_parsed_blob_get_shader_stage_for_entry(
    blob: *const ParsedBlob,
    entry: *const c_char,
) -> u32 {
    guard(abi::stage::UNKNOWN, || {
        // SAFETY: NULL or live per the caller.
        let Some(BlobKind::Dxil(b)) = unsafe { blob.as_ref() }.map(|b| &b.kind) else { return 0 };
        // SAFETY: per the caller.
        let Ok(Some(want)) = (unsafe { crate::ffi::opt_str(entry, "entry") }) else { return 0 };
        let Some(e) = b.info().functions().find(|e| e.name == want || demangle(&e.name) == want) else {
            return abi::stage::UNKNOWN;
        };
        match e.properties.shader_kind.unwrap_or(b.info().shader_model.kind) {
            ShaderKind::Node => abi::stage::COMPUTE,
            k => stage_num(k),
        }
    })
}

/// The interface's view of one RDAT subobject (`None`: a kind the interface does not name).
/// Association: `exports` = the subobject associated, then the exports; hit group: any hit,
/// closest hit, intersection; `args`: state object config flags, shader config payload and
/// attribute sizes, pipeline config recursion depth (and flags); root signatures: the RTS0 bytes.
fn rdat_view(o: &crate::native::OwnedSubobject) -> Option<abi::RdatSubobject> {
    use dxjit::container::rdat::{HitGroupType, SubobjectData as D};
    let kind = o.kind()?;
    let mut v = abi::RdatSubobject {
        kind,
        subobject_name: o.name.as_ptr(),
        hit_group_type: 0,
        exports: std::ptr::null(),
        num_exports: 0,
        args: [0; 2],
        payload: std::ptr::null(),
        payload_size: 0,
    };
    match &o.data.data {
        D::StateObjectConfig { flags } => v.args = [*flags, 0],
        D::GlobalRootSignature { data } | D::LocalRootSignature { data } => {
            v.payload = data.as_ptr().cast();
            v.payload_size = data.len();
        }
        D::SubobjectToExportsAssociation { .. } => {
            v.exports = o.pointers.as_ptr();
            v.num_exports = o.pointers.len() as c_uint;
        }
        D::RaytracingShaderConfig { max_payload_size, max_attribute_size } => {
            v.args = [*max_payload_size, *max_attribute_size]
        }
        D::RaytracingPipelineConfig { max_trace_recursion_depth } => v.args = [*max_trace_recursion_depth, 0],
        D::RaytracingPipelineConfig1 { max_trace_recursion_depth, flags } => {
            v.args = [*max_trace_recursion_depth, *flags]
        }
        D::HitGroup { hit_group_type, .. } => {
            v.hit_group_type = match hit_group_type {
                HitGroupType::Triangles => 0,
                HitGroupType::ProceduralPrimitive => 1,
            };
            v.exports = o.pointers.as_ptr();
            v.num_exports = o.pointers.len() as c_uint;
        }
        D::Other { .. } => return None,
    }
    Some(v)
}

/// Number of RDAT state subobjects (DXIL libraries; 0 for other blobs and NULL).
#[no_mangle]
pub unsafe extern "C" fn dxil_spv_parsed_blob_get_num_rdat_subobjects(blob: *const ParsedBlob) -> c_uint {
    guard(0, || {
        // SAFETY: NULL or live per the caller.
        unsafe { blob.as_ref() }.map_or(0, |b| b.subobjects.len() as c_uint)
    })
}

/// RDAT subobject `index` (pointers owned by the blob). A NULL blob or an index out of range
/// zero-fills `subobject` and logs an error (the function returns nothing).
#[no_mangle]
pub unsafe extern "C" fn dxil_spv_parsed_blob_get_rdat_subobject(
    blob: *const ParsedBlob,
    index: c_uint,
    subobject: *mut abi::RdatSubobject,
) {
    guard((), || {
        if subobject.is_null() {
            log(abi::log::ERROR, "dxjit: dxil_spv_parsed_blob_get_rdat_subobject: subobject is NULL");
            return;
        }
        // SAFETY: NULL or live per the caller.
        let found = unsafe { blob.as_ref() }.and_then(|b| b.subobjects.get(index as usize));
        match found {
            // SAFETY: non-NULL, valid per the caller.
            Some(v) => unsafe { subobject.write(*v) },
            None => {
                let n = dxil_spv_parsed_blob_get_num_rdat_subobjects(blob);
                log(abi::log::ERROR, &format!("dxjit: RDAT subobject {index} out of range ({n} subobjects)"));
                // SAFETY: non-NULL, valid per the caller.
                unsafe { subobject.write_bytes(0, 1) };
            }
        }
    })
}

const NO_WORK_GRAPHS: &str =
    "dxjit: work-graph node metadata (DXIL library work graphs) is not supported: DXIL_SPV_ERROR_UNSUPPORTED_FEATURE";

/// Work-graph node metadata: unsupported (dxjit does not compile work-graph node shaders).
#[no_mangle]
pub unsafe extern "C" fn dxil_spv_parsed_blob_get_entry_point_node_input(
    _blob: *const ParsedBlob,
    _index: c_uint,
    _data: *mut c_void,
) -> i32 {
    log(abi::log::ERROR, NO_WORK_GRAPHS);
    abi::ERROR_UNSUPPORTED_FEATURE
}

/// Work-graph node metadata: unsupported.
#[no_mangle]
pub unsafe extern "C" fn dxil_spv_parsed_blob_get_entry_point_num_node_outputs(
    _blob: *const ParsedBlob,
    _index: c_uint,
    _num: *mut c_uint,
) -> i32 {
    log(abi::log::ERROR, NO_WORK_GRAPHS);
    abi::ERROR_UNSUPPORTED_FEATURE
}

/// Work-graph node metadata: unsupported.
#[no_mangle]
pub unsafe extern "C" fn dxil_spv_parsed_blob_get_entry_point_node_output(
    _blob: *const ParsedBlob,
    _index: c_uint,
    _output: c_uint,
    _data: *mut c_void,
) -> i32 {
    log(abi::log::ERROR, NO_WORK_GRAPHS);
    abi::ERROR_UNSUPPORTED_FEATURE
}

// ---------------------------------------------------------------------------------------------
// Converters

/// The layer's remap callbacks (function pointer + user data each).
#[derive(Clone, Copy, Default)]
struct Remappers {
    srv: (abi::SrvRemapper, usize),
    sampler: (abi::SamplerRemapper, usize),
    uav: (abi::UavRemapper, usize),
    cbv: (abi::CbvRemapper, usize),
    vertex_input: (abi::VertexInputRemapper, usize),
    stream_output: (abi::StreamOutputRemapper, usize),
    stage_input: (abi::StageIoRemapper, usize),
    stage_output: (abi::StageIoRemapper, usize),
}

/// The options that change dxjit's code, as the layer set them.
#[derive(Clone, Debug)]
struct Settings {
    demote: bool,
    dual_source: bool,
    swizzles: Vec<Option<[u8; 4]>>,
    sample_count: Option<u32>,
    inline_root_block: Option<(u32, u32)>,
    cbv_ssbo: bool,
    ssbo_alignment: u32,
    typed_uav_read_without_format: bool,
    typed_offsets: bool,
    offset_layout: (u32, u32, u32),
    /// MIN_PRECISION_NATIVE_16BIT: min-precision types as real 16-bit types.
    native_16bit: bool,
    invariant_position: bool,
    barycentrics: bool,
    /// SUBGROUP_PROPERTIES: the device's subgroup sizes.
    subgroup: Option<SubgroupSizeRange>,
    /// FORCE_SUBGROUP_SIZE: the one size the layer runs the pipeline with.
    forced_subgroup: Option<u32>,
    /// SBT_DESCRIPTOR_SIZE_LOG2: how the layer's descriptor handles in shader records encode heap
    /// indices (`handle >> log2`), for CBV/SRV/UAV and for sampler tables.
    sbt_shift: (u32, u32),
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            demote: false,
            dual_source: false,
            swizzles: Vec::new(),
            sample_count: None,
            inline_root_block: None,
            cbv_ssbo: false,
            ssbo_alignment: 1,
            typed_uav_read_without_format: false,
            typed_offsets: false,
            offset_layout: (0, 1, 2),
            native_16bit: false,
            invariant_position: false,
            barycentrics: false,
            subgroup: None,
            forced_subgroup: None,
            sbt_shift: (0, 0),
        }
    }
}

/// A copy of one option struct (and the data its pointers reference), for replay on the
/// fallback library.
struct OptionCopy {
    /// The struct's bytes, 8-byte aligned.
    words: Vec<u64>,
    /// Owned data the struct's pointer field points to.
    _swizzles: Vec<c_uint>,
    _name: Option<CString>,
}

enum Output {
    Dxjit { shader: Box<CompiledShader>, patch_offset: u32 },
    Fallback { lib: Arc<Library>, blob: *mut c_void, conv: *mut c_void },
}

/// `dxil_spv_converter`.
pub struct Converter {
    blob: *const ParsedBlob,
    bytes: Arc<Vec<u8>>,
    settings: Settings,
    options: Vec<OptionCopy>,
    remappers: Remappers,
    root_words: u32,
    root_descriptors: u32,
    patch_location_offset: Option<u32>,
    entry_point: Option<CString>,
    meta: Vec<(u32, u32, c_uint, c_uint)>,
    /// The local root signature, parameter by parameter (`dxil_spv_converter_add_local_root_*`).
    local: Vec<LocalParam>,
    /// A local descriptor table between begin and end: its ranges so far.
    open_table: Option<Vec<LocalRange>>,
    /// A local-root call with an argument out of range (the run fails with it).
    local_error: Option<String>,
    output: Option<Output>,
    entry_out: Option<CString>,
}

impl Drop for Output {
    fn drop(&mut self) {
        if let Output::Fallback { lib, blob, conv } = self {
            // SAFETY: handles created on the fallback by this converter, freed once.
            unsafe {
                (lib.fns.converter_free)(*conv);
                if !blob.is_null() {
                    (lib.fns.parsed_blob_free)(*blob);
                }
            }
        }
    }
}

/// Creates a converter for a parsed blob. The blob must outlive the converter.
#[no_mangle]
pub unsafe extern "C" fn dxil_spv_create_converter(blob: *const ParsedBlob, converter: *mut *mut Converter) -> i32 {
    guard(abi::ERROR_GENERIC, || {
        if blob.is_null() || converter.is_null() {
            log(abi::log::ERROR, "dxjit: dxil_spv_create_converter: NULL argument");
            return abi::ERROR_INVALID_ARGUMENT;
        }
        // SAFETY: live per the caller.
        let bytes = match unsafe { &(*blob).kind } {
            BlobKind::Dxil(b) => Arc::new(b.bytes().to_vec()),
            BlobKind::Dxbc { .. } => Arc::new(Vec::new()),
        };
        let c = Converter {
            blob,
            bytes,
            settings: Settings::default(),
            options: Vec::new(),
            remappers: Remappers::default(),
            root_words: 0,
            root_descriptors: 0,
            patch_location_offset: None,
            entry_point: None,
            meta: Vec::new(),
            local: Vec::new(),
            open_table: None,
            local_error: None,
            output: None,
            entry_out: None,
        };
        // SAFETY: checked non-NULL.
        unsafe { converter.write(Box::into_raw(Box::new(c))) };
        abi::SUCCESS
    })
}

/// A separate reflection blob is not used by dxjit: same as `dxil_spv_create_converter`.
#[no_mangle]
pub unsafe extern "C" fn dxil_spv_create_converter_with_reflection(
    blob: *const ParsedBlob,
    _reflection: *const ParsedBlob,
    converter: *mut *mut Converter,
) -> i32 {
    // SAFETY: same contract.
    unsafe { dxil_spv_create_converter(blob, converter) }
}

/// Frees a converter (NULL is ignored).
#[no_mangle]
pub unsafe extern "C" fn dxil_spv_converter_free(converter: *mut Converter) {
    if !converter.is_null() {
        // SAFETY: created by dxil_spv_create_converter, freed once per the caller.
        guard((), || drop(unsafe { Box::from_raw(converter) }))
    }
}

/// # Safety
/// `c` is NULL or a live converter not used concurrently.
unsafe fn conv<'a>(c: *mut Converter) -> Option<&'a mut Converter> {
    // SAFETY: per the caller.
    unsafe { c.as_mut() }
}

macro_rules! setter {
    ($(#[$m:meta])* $name:ident, $ty:ty, $field:ident) => {
        $(#[$m])*
        #[no_mangle]
        pub unsafe extern "C" fn $name(converter: *mut Converter, remapper: $ty, userdata: *mut c_void) {
            guard((), || {
                // SAFETY: per the caller.
                if let Some(c) = unsafe { conv(converter) } {
                    c.remappers.$field = (remapper, userdata as usize);
                }
            })
        }
    };
}

setter!(
    /// SRV remapper: called once per SRV range at `dxil_spv_converter_run`.
    dxil_spv_converter_set_srv_remapper, abi::SrvRemapper, srv);
setter!(
    /// Sampler remapper.
    dxil_spv_converter_set_sampler_remapper, abi::SamplerRemapper, sampler);
setter!(
    /// UAV remapper (buffer, counter and offset bindings).
    dxil_spv_converter_set_uav_remapper, abi::UavRemapper, uav);
setter!(
    /// CBV remapper (root constants or a uniform binding).
    dxil_spv_converter_set_cbv_remapper, abi::CbvRemapper, cbv);
setter!(
    /// Vertex-shader input remapper: the Location of each user input.
    dxil_spv_converter_set_vertex_input_remapper, abi::VertexInputRemapper, vertex_input);
setter!(
    /// Stream-output remapper: transform-feedback buffer, offset and stride per output.
    dxil_spv_converter_set_stream_output_remapper, abi::StreamOutputRemapper, stream_output);
setter!(
    /// Stage-input remapper (mesh → pixel); recorded, forwarded to the fallback library.
    dxil_spv_converter_set_stage_input_remapper, abi::StageIoRemapper, stage_input);
setter!(
    /// Stage-output remapper (mesh → pixel); recorded, forwarded to the fallback library.
    dxil_spv_converter_set_stage_output_remapper, abi::StageIoRemapper, stage_output);

/// Number of root-constant words in the root block (after the root descriptors).
#[no_mangle]
pub unsafe extern "C" fn dxil_spv_converter_set_root_constant_word_count(converter: *mut Converter, num_words: c_uint) {
    // SAFETY: per the caller.
    guard((), || {
        if let Some(c) = unsafe { conv(converter) } {
            c.root_words = num_words
        }
    })
}

/// Number of root descriptors (2 words each, first in the root block).
#[no_mangle]
pub unsafe extern "C" fn dxil_spv_converter_set_root_descriptor_count(converter: *mut Converter, count: c_uint) {
    // SAFETY: per the caller.
    guard((), || {
        if let Some(c) = unsafe { conv(converter) } {
            c.root_descriptors = count
        }
    })
}

/// Domain (or hull) shaders: the Location of the first patch constant.
#[no_mangle]
pub unsafe extern "C" fn dxil_spv_converter_set_patch_location_offset(converter: *mut Converter, offset: c_uint) {
    // SAFETY: per the caller.
    guard((), || {
        if let Some(c) = unsafe { conv(converter) } {
            c.patch_location_offset = Some(offset)
        }
    })
}

/// Selects the entry point to compile.
#[no_mangle]
pub unsafe extern "C" fn dxil_spv_converter_set_entry_point(converter: *mut Converter, entry: *const c_char) {
    guard((), || {
        // SAFETY: per the caller.
        if let Some(c) = unsafe { conv(converter) } {
            c.entry_point = if entry.is_null() {
                None
            } else {
                // SAFETY: a NUL-terminated string per the caller.
                Some(unsafe { CStr::from_ptr(entry) }.to_owned())
            };
        }
    })
}

/// One parameter of a local root signature, as the layer declared it.
#[derive(Debug, Clone, PartialEq, Eq)]
enum LocalParam {
    /// Root constants `b<register> space<space>`: `words` values at a 4-byte aligned offset.
    Constants { space: u32, register: u32, words: u32 },
    /// A root descriptor (8-byte address, 8-byte aligned); `class` a dxil_spv_resource_class
    /// (a sampler class takes the room of one and places nothing: a layer's placeholder).
    Descriptor { class: u32, space: u32, register: u32 },
    /// A descriptor table (an 8-byte D3D12_GPU_DESCRIPTOR_HANDLE, 8-byte aligned).
    Table(Vec<LocalRange>),
}

/// One range of a local descriptor table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct LocalRange {
    class: u32,
    space: u32,
    register: u32,
    /// `u32::MAX`: unbounded.
    count: u32,
    /// Offset of the range's first descriptor from the table's handle, in descriptors.
    offset: u32,
}

fn resource_class(class: u32) -> Option<ResourceClass> {
    Some(match class {
        0 => ResourceClass::Srv,
        1 => ResourceClass::Uav,
        2 => ResourceClass::Cbv,
        3 => ResourceClass::Sampler,
        _ => return None,
    })
}

/// The local root signature the layer declared, as dxjit's root-signature type (for the shader
/// record's layout, which is D3D12's: parameters in order, root constants 4-byte aligned, root
/// descriptors and tables 8 bytes, 8-byte aligned). A sampler-class root descriptor (a layer's
/// placeholder) keeps its 8 bytes as an SRV that the lookup never matches
/// ([`local_placement`]).
fn local_root_signature(params: &[LocalParam]) -> RootSignature {
    use dxjit::container::rootsig::{DescriptorRange, RootDescriptor, RootParameter, RootSignatureVersion};
    let parameters = params
        .iter()
        .map(|p| RootParameter {
            visibility: ShaderVisibility::All,
            kind: match p {
                LocalParam::Constants { space, register, words } => RootParameterKind::Constants {
                    shader_register: *register,
                    register_space: *space,
                    num_32bit_values: *words,
                },
                LocalParam::Descriptor { class, space, register } => {
                    let d = RootDescriptor { shader_register: *register, register_space: *space, flags: None };
                    match class {
                        1 => RootParameterKind::Uav(d),
                        2 => RootParameterKind::Cbv(d),
                        _ => RootParameterKind::Srv(d),
                    }
                }
                LocalParam::Table(ranges) => RootParameterKind::DescriptorTable(
                    ranges
                        .iter()
                        .map(|r| DescriptorRange {
                            range_type: match r.class {
                                0 => DescriptorRangeType::Srv,
                                1 => DescriptorRangeType::Uav,
                                2 => DescriptorRangeType::Cbv,
                                3 => DescriptorRangeType::Sampler,
                                o => DescriptorRangeType::Other(o),
                            },
                            num_descriptors: r.count,
                            base_shader_register: r.register,
                            register_space: r.space,
                            flags: None,
                            offset_in_descriptors_from_table_start: r.offset,
                        })
                        .collect(),
                ),
            },
        })
        .collect();
    RootSignature { version: RootSignatureVersion::V1_1, flags: 0, parameters, static_samplers: Vec::new() }
}

/// Records one local-root call's argument error (the converter's run fails with the first).
fn local_error(c: &mut Converter, msg: String) {
    log(abi::log::ERROR, &format!("dxjit: {msg}"));
    c.local_error.get_or_insert(msg);
}

/// Local root signature: root constants `b<register> space<space>` (`num_words` 32-bit values)
/// as the next parameter; the shader reads them from its shader record.
#[no_mangle]
pub unsafe extern "C" fn dxil_spv_converter_add_local_root_constants(
    converter: *mut Converter,
    space: c_uint,
    register: c_uint,
    words: c_uint,
) {
    guard((), || {
        // SAFETY: per the caller.
        let Some(c) = (unsafe { conv(converter) }) else { return };
        if c.open_table.is_some() {
            return local_error(
                c,
                "local root constants inside a descriptor table (no end_local_root_descriptor_table)".into(),
            );
        }
        c.local.push(LocalParam::Constants { space, register, words });
    })
}

/// Local root signature: a root descriptor (`class`: SRV, UAV or CBV; a 64-bit buffer address in
/// the shader record) as the next parameter. A SAMPLER class takes the room of one and places
/// nothing (a layer's placeholder for a parameter it places otherwise).
#[no_mangle]
pub unsafe extern "C" fn dxil_spv_converter_add_local_root_descriptor(
    converter: *mut Converter,
    class: u32,
    space: c_uint,
    register: c_uint,
) {
    guard((), || {
        // SAFETY: per the caller.
        let Some(c) = (unsafe { conv(converter) }) else { return };
        if resource_class(class).is_none() {
            return local_error(
                c,
                format!("local root descriptor: resource class {class} is not a dxil_spv_resource_class"),
            );
        }
        if c.open_table.is_some() {
            return local_error(
                c,
                "local root descriptor inside a descriptor table (no end_local_root_descriptor_table)".into(),
            );
        }
        c.local.push(LocalParam::Descriptor { class, space, register });
    })
}

/// Local root signature: one range of a descriptor table (`count` descriptors, `u32::MAX`:
/// unbounded; `offset`: descriptors from the table's start). Between begin/end it adds to the
/// open table; outside, it is a table of this one range.
#[no_mangle]
pub unsafe extern "C" fn dxil_spv_converter_add_local_root_descriptor_table(
    converter: *mut Converter,
    class: u32,
    space: c_uint,
    register: c_uint,
    count: c_uint,
    offset: c_uint,
) {
    guard((), || {
        // SAFETY: per the caller.
        let Some(c) = (unsafe { conv(converter) }) else { return };
        if resource_class(class).is_none() {
            return local_error(
                c,
                format!("local descriptor table range: resource class {class} is not a dxil_spv_resource_class"),
            );
        }
        let r = LocalRange { class, space, register, count, offset };
        match c.open_table.as_mut() {
            Some(t) => t.push(r),
            None => c.local.push(LocalParam::Table(vec![r])),
        }
    })
}

/// Local root signature: opens a descriptor table (its ranges follow). A table already open
/// gives `DXIL_SPV_ERROR_INVALID_ARGUMENT`.
#[no_mangle]
pub unsafe extern "C" fn dxil_spv_converter_begin_local_root_descriptor_table(converter: *mut Converter) -> i32 {
    guard(abi::ERROR_GENERIC, || {
        // SAFETY: per the caller.
        let Some(c) = (unsafe { conv(converter) }) else { return abi::ERROR_INVALID_ARGUMENT };
        if c.open_table.is_some() {
            log(abi::log::ERROR, "dxjit: begin_local_root_descriptor_table: a table is already open");
            return abi::ERROR_INVALID_ARGUMENT;
        }
        c.open_table = Some(Vec::new());
        abi::SUCCESS
    })
}

/// Local root signature: closes the open descriptor table as the next parameter. No open table,
/// or one without ranges, gives `DXIL_SPV_ERROR_INVALID_ARGUMENT`.
#[no_mangle]
pub unsafe extern "C" fn dxil_spv_converter_end_local_root_descriptor_table(converter: *mut Converter) -> i32 {
    guard(abi::ERROR_GENERIC, || {
        // SAFETY: per the caller.
        let Some(c) = (unsafe { conv(converter) }) else { return abi::ERROR_INVALID_ARGUMENT };
        match c.open_table.take() {
            Some(t) if !t.is_empty() => {
                c.local.push(LocalParam::Table(t));
                abi::SUCCESS
            }
            Some(t) => {
                log(abi::log::ERROR, "dxjit: end_local_root_descriptor_table: the table has no ranges");
                c.open_table = Some(t);
                abi::ERROR_INVALID_ARGUMENT
            }
            None => {
                log(abi::log::ERROR, "dxjit: end_local_root_descriptor_table without begin");
                abi::ERROR_INVALID_ARGUMENT
            }
        }
    })
}

/// Debug info (tier D): accepted, no effect.
#[no_mangle]
pub unsafe extern "C" fn dxil_spv_converter_add_root_parameter_mapping(
    _c: *mut Converter,
    _index: c_uint,
    _offset: c_uint,
) {
}

/// Debug info (tier D): accepted, no effect.
#[no_mangle]
pub unsafe extern "C" fn dxil_spv_converter_add_root_descriptor_mapping(
    _c: *mut Converter,
    _index: c_uint,
    _set: c_uint,
    _binding: c_uint,
) {
}

/// Debug info (tier D): accepted, no effect.
#[no_mangle]
pub unsafe extern "C" fn dxil_spv_converter_add_non_semantic_debug_info(
    _c: *mut Converter,
    _tag: *const c_char,
    _data: *const c_void,
    _size: usize,
) {
}

/// Where view-instancing offsets and heap metadata live: recorded (forwarded to the fallback
/// library), not yet used by dxjit's code.
#[no_mangle]
pub unsafe extern "C" fn dxil_spv_converter_set_meta_descriptor(
    converter: *mut Converter,
    meta: u32,
    kind: u32,
    set: c_uint,
    binding: c_uint,
) -> i32 {
    guard(abi::ERROR_GENERIC, || {
        // SAFETY: per the caller.
        let Some(c) = (unsafe { conv(converter) }) else { return abi::ERROR_INVALID_ARGUMENT };
        if meta > 3 || kind > 5 {
            log(abi::log::ERROR, &format!("dxjit: meta descriptor {meta} kind {kind}: unknown value"));
            return abi::ERROR_INVALID_ARGUMENT;
        }
        c.meta.push((meta, kind, set, binding));
        abi::SUCCESS
    })
}

/// Whether `option` is a known option type (all 51 are accepted).
#[no_mangle]
pub extern "C" fn dxil_spv_converter_supports_option(option: u32) -> Bool {
    if abi::option_size(option).is_some() {
        TRUE
    } else {
        FALSE
    }
}

/// Reads an option struct of type `T`.
///
/// # Safety
/// `p` points to a struct at least `size_of::<T>()` bytes long (checked by type tag).
unsafe fn read<T: Copy>(p: *const abi::OptionBase) -> T {
    // SAFETY: per the caller; read_unaligned tolerates any caller alignment.
    unsafe { p.cast::<T>().read_unaligned() }
}

/// Adds one typed option. Every known type is accepted; unknown types give
/// `DXIL_SPV_ERROR_UNSUPPORTED_FEATURE`, NULL `DXIL_SPV_ERROR_INVALID_ARGUMENT`.
#[no_mangle]
pub unsafe extern "C" fn dxil_spv_converter_add_option(
    converter: *mut Converter,
    option: *const abi::OptionBase,
) -> i32 {
    guard(abi::ERROR_GENERIC, || {
        // SAFETY: per the caller.
        let Some(c) = (unsafe { conv(converter) }) else { return abi::ERROR_INVALID_ARGUMENT };
        if option.is_null() {
            log(abi::log::ERROR, "dxjit: dxil_spv_converter_add_option: option is NULL");
            return abi::ERROR_INVALID_ARGUMENT;
        }
        // SAFETY: every option struct starts with its type tag.
        let t = unsafe { option.read_unaligned() }.type_;
        let Some(size) = abi::option_size(t) else {
            log(abi::log::ERROR, &format!("dxjit: unknown option type {t}"));
            return abi::ERROR_UNSUPPORTED_FEATURE;
        };
        // SAFETY: the tag says the struct is `size` bytes.
        match unsafe { apply_option(c, option, t, size) } {
            Ok(()) => abi::SUCCESS,
            Err(e) => {
                log(abi::log::ERROR, &format!("dxjit: option {t}: {e}"));
                abi::ERROR_INVALID_ARGUMENT
            }
        }
    })
}

/// # Safety
/// `p` points to an option struct of type `t`, `size` bytes long.
unsafe fn apply_option(c: &mut Converter, p: *const abi::OptionBase, t: u32, size: usize) -> Result<(), String> {
    let s = &mut c.settings;
    // SAFETY (all reads below): the type tag selects the struct the caller passed.
    let b = || unsafe { read::<abi::OptBool>(p) }.value != 0;
    let mut swz_copy = Vec::new();
    let mut name_copy = None;
    match t {
        opt::SHADER_DEMOTE_TO_HELPER => s.demote = b(),
        opt::DUAL_SOURCE_BLENDING => s.dual_source = b(),
        opt::OUTPUT_SWIZZLE => {
            // SAFETY: see above.
            let o = unsafe { read::<abi::OptOutputSwizzle>(p) };
            // SAFETY: `swizzles` holds `swizzle_count` values per the interface.
            let v = unsafe { crate::ffi::slice(o.swizzles, o.swizzle_count as usize, "swizzles") }?;
            swz_copy = v.to_vec();
            s.swizzles = v
                .iter()
                .map(|&w| {
                    let comp = |k: u32| ((w >> (2 * k)) & 3) as u8;
                    let sw = [comp(0), comp(1), comp(2), comp(3)];
                    (sw != [0, 1, 2, 3]).then_some(sw)
                })
                .collect();
        }
        opt::RASTERIZER_SAMPLE_COUNT => {
            // SAFETY: see above.
            let o = unsafe { read::<abi::OptU32Bool>(p) };
            s.sample_count = (o.value != 0).then_some(o.value);
        }
        opt::ROOT_CONSTANT_INLINE_UNIFORM_BLOCK => {
            // SAFETY: see above.
            let o = unsafe { read::<abi::OptInlineUniformBlock>(p) };
            s.inline_root_block = (o.enable != 0).then_some((o.desc_set, o.binding));
        }
        opt::BINDLESS_CBV_SSBO_EMULATION => s.cbv_ssbo = b(),
        opt::SSBO_ALIGNMENT => {
            // SAFETY: see above.
            let a = unsafe { read::<abi::OptU32>(p) }.value;
            if a == 0 || !a.is_power_of_two() {
                return Err(format!("SSBO alignment {a} is not a power of two"));
            }
            s.ssbo_alignment = a;
        }
        opt::TYPED_UAV_READ_WITHOUT_FORMAT => s.typed_uav_read_without_format = b(),
        opt::SHADER_SOURCE_FILE => {
            // SAFETY: see above.
            let o = unsafe { read::<abi::OptSourceFile>(p) };
            if !o.name.is_null() {
                // SAFETY: a NUL-terminated string per the interface.
                name_copy = Some(unsafe { CStr::from_ptr(o.name) }.to_owned());
            }
        }
        opt::BINDLESS_TYPED_BUFFER_OFFSETS => s.typed_offsets = b(),
        opt::BINDLESS_OFFSET_BUFFER_LAYOUT => {
            // SAFETY: see above.
            let o = unsafe { read::<abi::OptU32x3>(p) };
            s.offset_layout = (o.a, o.b, o.c);
        }
        opt::MIN_PRECISION_NATIVE_16BIT => s.native_16bit = b(),
        opt::INVARIANT_POSITION => s.invariant_position = b(),
        opt::BARYCENTRIC_KHR => s.barycentrics = b(),
        opt::SUBGROUP_PROPERTIES => {
            // SAFETY: see above.
            let o = unsafe { read::<abi::OptU32x2>(p) };
            s.subgroup = match (o.a, o.b) {
                (_, 0) => None,
                (min, max) if min.max(1) <= max => Some(SubgroupSizeRange { min: min.max(1), max }),
                (min, max) => return Err(format!("subgroup sizes {min}..{max}: minimum above maximum")),
            };
        }
        opt::FORCE_SUBGROUP_SIZE => {
            // SAFETY: see above.
            let o = unsafe { read::<abi::OptU32Bool>(p) };
            s.forced_subgroup = (o.value != 0).then_some(o.value);
        }
        opt::SBT_DESCRIPTOR_SIZE_LOG2 => {
            // SAFETY: see above.
            let o = unsafe { read::<abi::OptU32x2>(p) };
            if o.a > 31 || o.b > 31 {
                return Err(format!("descriptor size log2 {} / {} is above 31", o.a, o.b));
            }
            s.sbt_shift = (o.a, o.b);
        }
        // Accepted and recorded (replayed on the fallback library); no effect on dxjit's code.
        _ => {}
    }
    // The copy for replay: the struct's bytes, with owned copies behind its pointers.
    let mut words = vec![0u64; size.div_ceil(8)];
    // SAFETY: `size` bytes are readable at `p`; the destination is at least as large.
    unsafe { std::ptr::copy_nonoverlapping(p.cast::<u8>(), words.as_mut_ptr().cast::<u8>(), size) };
    let mut copy = OptionCopy { words, _swizzles: swz_copy, _name: name_copy };
    match t {
        opt::OUTPUT_SWIZZLE => {
            let ptr = copy._swizzles.as_ptr();
            // SAFETY: the copy holds an OptOutputSwizzle.
            unsafe { (*copy.words.as_mut_ptr().cast::<abi::OptOutputSwizzle>()).swizzles = ptr };
        }
        opt::SHADER_SOURCE_FILE => {
            let ptr = copy._name.as_ref().map_or(std::ptr::null(), |n| n.as_ptr());
            // SAFETY: the copy holds an OptSourceFile.
            unsafe { (*copy.words.as_mut_ptr().cast::<abi::OptSourceFile>()).name = ptr };
        }
        _ => {}
    }
    c.options.push(copy);
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// The remappers as a ResourceRemap

struct CompatRemap {
    remappers: Remappers,
    stage: u32,
    resources: Vec<DxjitResourceInfo>,
    /// The local root signature (ray-tracing exports) and each parameter's shader-record byte.
    local: Vec<(LocalParam, u32)>,
    root_descriptors: u32,
    root_block_words: u32,
    ssbo_alignment: u32,
    typed_offsets: bool,
    cbv_ssbo: bool,
}

// SAFETY: the callbacks and their user data belong to the layer, which calls run() on one thread;
// dxjit calls the remap from that same thread.
unsafe impl Send for CompatRemap {}
// SAFETY: as above.
unsafe impl Sync for CompatRemap {}

fn class_of(c: ResourceClass) -> u32 {
    match c {
        ResourceClass::Srv => 0,
        ResourceClass::Uav => 1,
        ResourceClass::Cbv => 2,
        ResourceClass::Sampler => 3,
    }
}

fn is_buffer(k: ResourceKind) -> bool {
    matches!(k, ResourceKind::TypedBuffer | ResourceKind::RawBuffer | ResourceKind::StructuredBuffer)
}

impl CompatRemap {
    fn d3d(&self, q: &ResourceQuery) -> abi::D3dBinding {
        let info = self
            .resources
            .iter()
            .find(|r| !q.heap && r.class_ == class_of(q.class) && r.space == q.space && r.lower_bound == q.register);
        let alignment = match q.kind {
            ResourceKind::RawBuffer => 16,
            // The stride's largest power-of-two divisor, as the interface reports it (a layer
            // compares it with its SSBO alignment).
            ResourceKind::StructuredBuffer => info.map_or(4, |i| i.stride & i.stride.wrapping_neg()),
            _ => 0,
        };
        if q.heap {
            return abi::D3dBinding {
                stage: self.stage,
                kind: crate::native::kind_num(q.kind),
                resource_index: u32::MAX,
                register_space: u32::MAX,
                register_index: u32::MAX,
                range_size: u32::MAX,
                alignment,
            };
        }
        abi::D3dBinding {
            stage: self.stage,
            kind: crate::native::kind_num(q.kind),
            resource_index: info.map_or(0, |i| i.id),
            register_space: q.space,
            register_index: q.register,
            range_size: q.count.unwrap_or(u32::MAX),
            alignment,
        }
    }

    /// The descriptor type an answer selects.
    fn descriptor(&self, q: &ResourceQuery, t: u32) -> Result<DescriptorKind, String> {
        let natural = q.natural_descriptor();
        Ok(match t {
            abi::desc::IDENTITY => {
                if natural == DescriptorKind::UniformBuffer && self.cbv_ssbo {
                    DescriptorKind::StorageBuffer
                } else {
                    natural
                }
            }
            abi::desc::SSBO => DescriptorKind::StorageBuffer,
            abi::desc::UBO => DescriptorKind::UniformBuffer,
            abi::desc::TEXEL_BUFFER => {
                if q.class == ResourceClass::Uav {
                    DescriptorKind::StorageTexelBuffer
                } else {
                    DescriptorKind::UniformTexelBuffer
                }
            }
            abi::desc::INPUT_ATTACHMENT => return Err("input attachments are not supported".into()),
            v => return Err(format!("descriptor type {v} is not a dxil_spv_vulkan_descriptor_type")),
        })
    }

    fn location(
        &self,
        q: &ResourceQuery,
        b: &abi::VulkanBinding,
        offset: Option<&abi::VulkanBinding>,
    ) -> Result<ResourceLocation, String> {
        if b.descriptor_type == abi::desc::BUFFER_DEVICE_ADDRESS {
            return Ok(ResourceLocation::Address { word: b.root_constant_index.saturating_mul(2) });
        }
        let descriptor = self.descriptor(q, b.descriptor_type)?;
        if b.bindless.use_heap == 0 {
            return Ok(ResourceLocation::Descriptor { set: b.set, binding: b.binding, descriptor });
        }
        let table_word = (b.root_constant_index != u32::MAX)
            .then(|| b.root_constant_index.saturating_add(2 * self.root_descriptors));
        // Where dxil-spirv reads a buffer view's offset/size from the offset buffer.
        let bounds = offset.filter(|_| is_buffer(q.kind) && q.class != ResourceClass::Cbv).and_then(|o| {
            let uses = if descriptor == DescriptorKind::StorageBuffer {
                let alignment = self.d3d(q).alignment;
                q.kind != ResourceKind::TypedBuffer && alignment & (self.ssbo_alignment - 1) != 0
            } else {
                self.typed_offsets
            };
            uses.then_some((o.set, o.binding))
        });
        Ok(ResourceLocation::Heap {
            set: b.set,
            binding: b.binding,
            descriptor,
            table_word,
            heap_offset: b.bindless.heap_root_offset,
            bounds,
        })
    }

    /// Calls a callback, retrying an unbounded range as a single descriptor when refused (as
    /// dxil-spirv does).
    fn ask<T: Default>(&self, d3d: abi::D3dBinding, mut f: impl FnMut(&abi::D3dBinding, &mut T) -> Bool) -> Option<T> {
        let mut out = T::default();
        if f(&d3d, &mut out) != 0 {
            return Some(out);
        }
        if d3d.range_size == u32::MAX && d3d.register_index != u32::MAX {
            let mut out = T::default();
            let one = abi::D3dBinding { range_size: 1, ..d3d };
            if f(&one, &mut out) != 0 {
                return Some(out);
            }
        }
        None
    }
}

/// A remapper's answer for one resource.
#[derive(Default)]
struct Answer {
    binding: abi::VulkanBinding,
    offset: Option<abi::VulkanBinding>,
    /// UAVs: the counter binding.
    counter: Option<abi::VulkanBinding>,
    /// CBVs: root constants at this root-constant word (the push-constant mapping).
    push_constant: Option<u32>,
}

impl CompatRemap {
    /// Asks the layer's remapper of the resource's class (`None`: the layer set none).
    fn answer(&self, q: &ResourceQuery) -> Option<Result<Answer, String>> {
        let d3d = self.d3d(q);
        let refused = || "the layer's remapper returned false".to_string();
        Some(match q.class {
            ResourceClass::Srv => {
                let (Some(f), user) = self.remappers.srv else { return None };
                // SAFETY: the layer's callback with valid pointers.
                let r: Option<abi::SrvVulkanBinding> = self.ask(d3d, |d, o| unsafe { f(user as *mut c_void, d, o) });
                r.map(|r| Answer { binding: r.buffer_binding, offset: Some(r.offset_binding), ..Answer::default() })
                    .ok_or_else(refused)
            }
            ResourceClass::Sampler => {
                let (Some(f), user) = self.remappers.sampler else { return None };
                // SAFETY: as above.
                let r: Option<abi::VulkanBinding> = self.ask(d3d, |d, o| unsafe { f(user as *mut c_void, d, o) });
                r.map(|binding| Answer { binding, ..Answer::default() }).ok_or_else(refused)
            }
            ResourceClass::Uav => {
                let (Some(f), user) = self.remappers.uav else { return None };
                let uav = |d: &abi::D3dBinding, o: &mut abi::UavVulkanBinding| {
                    let u = abi::UavD3dBinding { d3d_binding: *d, has_counter: Bool::from(q.has_counter) };
                    // SAFETY: as above.
                    unsafe { f(user as *mut c_void, &u, o) }
                };
                self.ask(d3d, uav)
                    .map(|r| Answer {
                        binding: r.buffer_binding,
                        offset: Some(r.offset_binding),
                        counter: Some(r.counter_binding),
                        push_constant: None,
                    })
                    .ok_or_else(refused)
            }
            ResourceClass::Cbv => {
                let (Some(f), user) = self.remappers.cbv else { return None };
                // SAFETY: as above.
                let r: Option<abi::CbvVulkanBinding> = self.ask(d3d, |d, o| unsafe { f(user as *mut c_void, d, o) });
                r.map(|r| Answer {
                    binding: r.vulkan,
                    // The push-constant mapping's `offset_in_words` shares the union's first word.
                    push_constant: (r.push_constant != 0).then_some(r.vulkan.set),
                    ..Answer::default()
                })
                .ok_or_else(refused)
            }
        })
    }

    /// A UAV counter's location from the remapper's counter binding.
    fn counter(q: &ResourceQuery, a: &Answer) -> Option<CounterLocation> {
        let c = a.counter.as_ref().filter(|_| q.has_counter)?;
        Some(if c.descriptor_type == abi::desc::BUFFER_DEVICE_ADDRESS {
            // Counters in memory: a table of their addresses, indexed like the UAV.
            CounterLocation::AddressTable { set: c.set, binding: c.binding }
        } else if c.bindless.use_heap != 0 {
            CounterLocation::Heap { set: c.set, binding: c.binding }
        } else {
            CounterLocation::Descriptor { set: c.set, binding: c.binding }
        })
    }

    /// The local root signature's placement of a resource (`None`: it covers none), by the
    /// interface's rule: the first parameter that names the resource's class, space and (first)
    /// register. Root constants and root descriptors are read from the shader record without
    /// asking the layer; a table range asks the layer's remapper, whose answer must be a heap
    /// array (its set, binding and descriptor type are used; the heap index is the record's
    /// descriptor handle + the range's offset + the register's place in the range).
    fn local_placement(&self, q: &ResourceQuery) -> Option<Result<ResourcePlacement, String>> {
        if q.heap {
            return None;
        }
        for (p, offset) in &self.local {
            let offset = *offset;
            let placed = |location| Some(Ok(ResourcePlacement { location, counter: None }));
            match p {
                LocalParam::Constants { space, register, words } => {
                    if q.class == ResourceClass::Cbv && *space == q.space && *register == q.register {
                        return placed(ResourceLocation::RecordConstants { offset, words: *words });
                    }
                }
                LocalParam::Descriptor { class, space, register } => {
                    if *class != 3
                        && resource_class(*class) == Some(q.class)
                        && *space == q.space
                        && *register == q.register
                    {
                        return placed(ResourceLocation::RecordAddress { offset });
                    }
                }
                LocalParam::Table(ranges) => {
                    let Some(r) = ranges.iter().find(|r| {
                        resource_class(r.class) == Some(q.class)
                            && r.space == q.space
                            && r.register <= q.register
                            && (r.count == u32::MAX || q.register - r.register < r.count)
                    }) else {
                        continue;
                    };
                    let heap_offset = r.offset.wrapping_add(q.register - r.register);
                    return Some(self.local_table(q, offset, heap_offset));
                }
            }
        }
        None
    }

    fn local_table(&self, q: &ResourceQuery, table_offset: u32, heap_offset: u32) -> Result<ResourcePlacement, String> {
        let a = match self.answer(q) {
            Some(a) => a?,
            None => {
                return Err(format!(
                    "a local descriptor table holds it, and the layer set no {:?} remapper to name its heap array",
                    q.class
                ))
            }
        };
        let b = &a.binding;
        if b.bindless.use_heap == 0 || b.descriptor_type == abi::desc::BUFFER_DEVICE_ADDRESS {
            return Err(
                "a local descriptor table holds it: the remapper must answer a heap array (bindless.use_heap)".into()
            );
        }
        let ResourceLocation::Heap { set, binding, descriptor, bounds, .. } = self.location(q, b, a.offset.as_ref())?
        else {
            return Err("a local descriptor table holds it: the remapper must answer a heap array".into());
        };
        Ok(ResourcePlacement {
            location: ResourceLocation::RecordHeap { set, binding, descriptor, table_offset, heap_offset, bounds },
            counter: Self::counter(q, &a),
        })
    }
}

impl ResourceRemap for CompatRemap {
    fn remap(&self, q: &ResourceQuery, _proposed: Option<&ResourcePlacement>) -> Result<ResourcePlacement, String> {
        if let Some(p) = self.local_placement(q) {
            return p;
        }
        let identity = || {
            if q.heap {
                Err("an SM 6.6 descriptor-heap access needs a remapper".to_string())
            } else {
                Ok(ResourcePlacement {
                    location: ResourceLocation::Descriptor {
                        set: q.space,
                        binding: q.register,
                        descriptor: q.natural_descriptor(),
                    },
                    counter: None,
                })
            }
        };
        let a = match self.answer(q) {
            Some(a) => a?,
            None => {
                let mut p = identity()?;
                if q.class == ResourceClass::Uav && q.has_counter {
                    p.counter = Some(CounterLocation::Descriptor { set: q.space + 1, binding: q.register });
                }
                return Ok(p);
            }
        };
        if let Some(w) = a.push_constant {
            let word = w.saturating_add(2 * self.root_descriptors);
            let size = self
                .resources
                .iter()
                .find(|i| i.class_ == 2 && i.space == q.space && i.lower_bound == q.register)
                .map_or(0, |i| i.cbv_size.div_ceil(4));
            let room = self.root_block_words.saturating_sub(word);
            let words = if self.root_block_words > 0 { size.min(room) } else { size };
            return Ok(ResourcePlacement { location: ResourceLocation::RootConstants { word, words }, counter: None });
        }
        Ok(ResourcePlacement {
            location: self.location(q, &a.binding, a.offset.as_ref())?,
            counter: Self::counter(q, &a),
        })
    }

    fn cache_key(&self) -> String {
        format!("dxil-spv-remap {:p}", self as *const Self)
    }
}

// ---------------------------------------------------------------------------------------------
// Running

fn result_of(e: &CompileError) -> i32 {
    match e {
        CompileError::Malformed(_) => abi::ERROR_PARSER,
        CompileError::Unsupported { .. } => abi::ERROR_UNSUPPORTED_FEATURE,
        CompileError::Binding(_) | CompileError::Internal(_) => abi::ERROR_GENERIC,
    }
}

impl Converter {
    fn blob(&self) -> Option<&ParsedBlob> {
        // SAFETY: the interface requires the blob to outlive its converter.
        unsafe { self.blob.as_ref() }
    }

    fn options(&self, dxil: &DxjitBlob) -> CompileOptions {
        let s = &self.settings;
        let mut o = CompileOptions {
            entry_point: self.entry_point.as_ref().map(|e| e.to_string_lossy().into_owned()),
            // dxil-spirv relies on the device's robustBufferAccess2 (a layer enables it).
            robustness: Robustness::DeviceRobustness2,
            demote_to_helper: s.demote,
            fragment_barycentrics: s.barycentrics,
            ..CompileOptions::default()
        };
        o.state.dual_source_blending = s.dual_source;
        o.state.output_swizzle = s.swizzles.clone();
        o.state.rasterizer_sample_count = s.sample_count;
        o.state.invariant_position = s.invariant_position;
        o.state.typed_uav_load_without_format = s.typed_uav_read_without_format;
        o.state.subgroup_size = s.forced_subgroup.map(SubgroupSizeRange::exactly).or(s.subgroup);
        o.state.native_min_precision = s.native_16bit;
        let root_block_words = 2 * self.root_descriptors + self.root_words;
        // The local root signature the layer declared, and where each parameter sits in the
        // shader record (the layout dxjit's lowering reads, `ShaderRecordLayout::of`).
        let local_rs = (!self.local.is_empty()).then(|| local_root_signature(&self.local));
        let record = local_rs.as_ref().map(ShaderRecordLayout::of);
        let local = self
            .local
            .iter()
            .enumerate()
            .map(|(k, p)| (p.clone(), record.as_ref().and_then(|r| r.entry(k as u32)).map_or(0, |e| e.offset)))
            .collect();
        let remap = CompatRemap {
            remappers: self.remappers,
            stage: self.entry_kind(dxil).map_or(abi::stage::UNKNOWN, stage_num),
            resources: dxil.resources().to_vec(),
            local,
            root_descriptors: self.root_descriptors,
            root_block_words,
            ssbo_alignment: s.ssbo_alignment,
            typed_offsets: s.typed_offsets,
            cbv_ssbo: s.cbv_ssbo,
        };
        let mut policy = BindingPolicy {
            cbv_as_storage_buffer: s.cbv_ssbo,
            record_table_shift: s.sbt_shift.0,
            record_sampler_table_shift: s.sbt_shift.1,
            ..BindingPolicy::default()
        };
        if let Some((set, binding)) = s.inline_root_block {
            policy.root_block = RootBlock::UniformBlock { set, binding };
        }
        o.bindings = Some(Arc::new(BindingModel {
            root_signature: None,
            policy,
            remap: Some(Arc::new(remap)),
            root_words: Some(root_block_words),
            // The layer's local root signature (it builds the state object and knows the
            // associations), none when it declared none.
            local_root_signature: match local_rs {
                Some(rs) => LocalRoot::Given(rs),
                None => LocalRoot::None,
            },
        }));
        o
    }

    /// The entry point the converter compiles: the one `set_entry_point` named (mangled or
    /// demangled), else the blob's first.
    fn entry<'a>(&self, dxil: &'a DxjitBlob) -> Option<&'a dxjit::dxil::EntryPoint> {
        match &self.entry_point {
            Some(want) => {
                let want = want.to_str().ok()?;
                dxil.info().functions().find(|e| e.name == want || demangle(&e.name) == want)
            }
            None => dxil.info().main_entry(),
        }
    }

    /// The stage of that entry point (a library export's kind).
    fn entry_kind(&self, dxil: &DxjitBlob) -> Option<ShaderKind> {
        self.entry(dxil).map(|e| e.properties.shader_kind.unwrap_or(dxil.info().shader_model.kind))
    }

    /// The single-stage plan with the layer's vertex-input, stream-output and patch-location
    /// choices applied, when it made any (None: dxjit's own plan is the layer's).
    fn custom_plan(&self, dxil: &DxjitBlob) -> Result<Option<(LinkPlan, u32)>, CompileError> {
        let kind = dxil.info().shader_model.kind;
        let vs = kind == ShaderKind::Vertex && self.remappers.vertex_input.0.is_some();
        let so = matches!(kind, ShaderKind::Vertex | ShaderKind::Domain | ShaderKind::Geometry)
            && self.remappers.stream_output.0.is_some();
        let tess = matches!(kind, ShaderKind::Hull | ShaderKind::Domain);
        if !(vs || so || tess) {
            return Ok(None);
        }
        let mal = |e: String| CompileError::Malformed(e);
        let c = dxjit::container::Container::parse(&self.bytes).map_err(|e| mal(format!("container: {e}")))?;
        let prog = c.dxil_program().map_err(|e| mal(format!("container: {e}")))?;
        let module = dxjit::bitcode::read_module(prog.bitcode).map_err(|e| mal(format!("bitcode: {e}")))?;
        let io = StageIo::from_module(dxil.info(), &module).map_err(|e| mal(format!("signatures: {e}")))?;
        let mut plan = LinkPlan::single_owned(io).map_err(|e| CompileError::Unsupported {
            feature: format!("signature: {e}"),
            function: "<entry>".into(),
            block: None,
            shader_model: dxil.info().shader_model.to_string(),
        })?;
        let Some(sp) = plan.stages.first_mut() else { return Ok(None) };
        if vs {
            let (Some(f), user) = self.remappers.vertex_input else { return Ok(None) };
            for e in sp.inputs.iter_mut() {
                let Placement::Location { component, .. } = e.placement else { continue };
                if !e.system_value.is_empty() || e.start_row < 0 {
                    continue;
                }
                let sem = cstring(&e.semantic_name);
                let d3d = abi::D3dVertexInput {
                    semantic: sem.as_ptr(),
                    semantic_index: e.semantic_indices.first().copied().unwrap_or(0),
                    start_row: e.start_row as u32,
                    rows: e.rows,
                };
                let mut out = abi::VulkanVertexInput { location: e.start_row as u32 };
                // SAFETY: the layer's callback with valid pointers.
                if unsafe { f(user as *mut c_void, &d3d, &mut out) } == 0 {
                    return Err(CompileError::Binding(dxjit::binding::BindError {
                        resource: format!("vertex input {}{}", e.semantic_name, d3d.semantic_index),
                        reason: "the layer's vertex-input remapper returned false".into(),
                    }));
                }
                e.placement = Placement::Location { location: out.location, component };
                for a in plan.vertex_input.iter_mut().filter(|a| a.element_id == e.id) {
                    a.location = out.location.saturating_add(a.row);
                }
            }
        }
        if so {
            let (Some(f), user) = self.remappers.stream_output else { return Ok(None) };
            let mut outputs = Vec::new();
            for e in &sp.outputs {
                if matches!(e.placement, Placement::Unused | Placement::ZeroFill) {
                    continue;
                }
                let sem = cstring(&e.semantic_name);
                for (row, &index) in e.semantic_indices.iter().enumerate() {
                    let d3d = abi::D3dStreamOutput { semantic: sem.as_ptr(), semantic_index: index };
                    let mut out = abi::VulkanStreamOutput::default();
                    // SAFETY: as above.
                    if unsafe { f(user as *mut c_void, &d3d, &mut out) } == 0 || out.enable == 0 {
                        continue;
                    }
                    outputs.push(XfbOutput {
                        element: e.id,
                        row: row as u32,
                        first_component: 0,
                        components: u32::from(e.cols),
                        buffer: out.buffer_index,
                        offset: out.offset,
                        stride: out.stride,
                        stream: e.stream,
                    });
                }
            }
            if !outputs.is_empty() {
                plan.stream_output = Some(StreamOutputPlan { stage: sp.stage, outputs });
            }
        }
        // Patch constants: dxjit's single-stage plan puts them after the control points; the
        // layer may ask for another first Location (the same for the hull and the domain).
        let current = sp
            .patch_constants
            .iter()
            .filter_map(|e| match e.placement {
                Placement::Location { location, .. } if e.start_row >= 0 => {
                    Some(location.saturating_sub(e.start_row as u32))
                }
                _ => None,
            })
            .min();
        let mut offset = current.or(plan.tessellation.as_ref().map(|t| t.patch_constant_location_offset)).unwrap_or(0);
        if let (Some(want), Some(cur)) = (self.patch_location_offset, current) {
            for e in sp.patch_constants.iter_mut() {
                if let Placement::Location { location, component } = e.placement {
                    e.placement = Placement::Location { location: location - cur + want, component };
                }
            }
            if let Some(t) = plan.tessellation.as_mut() {
                t.patch_constant_location_offset = want;
            }
            offset = want;
        }
        Ok(Some((plan, offset)))
    }

    fn compile_dxil(&self, dxil: &DxjitBlob) -> Result<(CompiledShader, u32), CompileError> {
        let opts = self.options(dxil);
        match self.custom_plan(dxil)? {
            Some((plan, offset)) => Ok((dxjit::compile_stage(&self.bytes, &plan, 0, &opts)?, offset)),
            None => Ok((dxjit::compile(&self.bytes, &opts)?, 0)),
        }
    }

    /// Replays the recorded calls onto the fallback library and runs it there.
    fn run_fallback(&mut self, lib: Arc<Library>, blob: Option<*mut c_void>) -> i32 {
        let f = &lib.fns;
        let (cb, user) = LOG.with(|l| *l.borrow());
        if let Some(set_log) = f.set_thread_log_callback {
            // SAFETY: forwarding this thread's log sink.
            unsafe { set_log(cb, user as *mut c_void) };
        }
        let mut own_blob = std::ptr::null_mut();
        let blob = match blob {
            Some(b) => b,
            None => {
                // SAFETY: parsing our copy of the bytes.
                let r = unsafe { (f.parse_dxil_blob)(self.bytes.as_ptr().cast(), self.bytes.len(), &mut own_blob) };
                if r != abi::SUCCESS {
                    return r;
                }
                own_blob
            }
        };
        let mut conv = std::ptr::null_mut();
        // SAFETY: a live blob handle of this library.
        let r = unsafe { (f.create_converter)(blob, &mut conv) };
        if r != abi::SUCCESS {
            if !own_blob.is_null() {
                // SAFETY: parsed above, freed once.
                unsafe { (f.parsed_blob_free)(own_blob) };
            }
            return r;
        }
        self.output = Some(Output::Fallback { lib: lib.clone(), blob: own_blob, conv });
        // SAFETY (block): forwarding the layer's recorded settings to a live converter.
        unsafe {
            for o in &self.options {
                let r = (f.add_option)(conv, o.words.as_ptr().cast());
                if r != abi::SUCCESS {
                    log(abi::log::WARN, &format!("dxjit: fallback rejected an option ({r})"));
                }
            }
            if let Some(g) = f.set_root_constant_word_count {
                g(conv, self.root_words);
            }
            if let Some(g) = f.set_root_descriptor_count {
                g(conv, self.root_descriptors);
            }
            let r = self.remappers;
            if let Some(g) = f.set_srv_remapper {
                g(conv, r.srv.0, r.srv.1 as *mut c_void);
            }
            if let Some(g) = f.set_sampler_remapper {
                g(conv, r.sampler.0, r.sampler.1 as *mut c_void);
            }
            if let Some(g) = f.set_uav_remapper {
                g(conv, r.uav.0, r.uav.1 as *mut c_void);
            }
            if let Some(g) = f.set_cbv_remapper {
                g(conv, r.cbv.0, r.cbv.1 as *mut c_void);
            }
            if let Some(g) = f.set_vertex_input_remapper {
                g(conv, r.vertex_input.0, r.vertex_input.1 as *mut c_void);
            }
            if let Some(g) = f.set_stream_output_remapper {
                g(conv, r.stream_output.0, r.stream_output.1 as *mut c_void);
            }
            if let Some(g) = f.set_stage_input_remapper {
                g(conv, r.stage_input.0, r.stage_input.1 as *mut c_void);
            }
            if let Some(g) = f.set_stage_output_remapper {
                g(conv, r.stage_output.0, r.stage_output.1 as *mut c_void);
            }
            if let (Some(g), Some(o)) = (f.set_patch_location_offset, self.patch_location_offset) {
                g(conv, o);
            }
            if let (Some(g), Some(e)) = (f.set_entry_point, self.entry_point.as_ref()) {
                g(conv, e.as_ptr());
            }
            if !self.local.is_empty() {
                let Some(l) = &f.local_root else {
                    log(
                        abi::log::ERROR,
                        &format!("dxjit: the fallback {} has no local-root-signature calls", lib.path),
                    );
                    return abi::ERROR_UNSUPPORTED_FEATURE;
                };
                for p in &self.local {
                    match p {
                        LocalParam::Constants { space, register, words } => {
                            (l.add_constants)(conv, *space, *register, *words)
                        }
                        LocalParam::Descriptor { class, space, register } => {
                            (l.add_descriptor)(conv, *class, *space, *register)
                        }
                        LocalParam::Table(ranges) => {
                            let r = (l.begin_table)(conv);
                            if r != abi::SUCCESS {
                                return r;
                            }
                            for x in ranges {
                                (l.add_table)(conv, x.class, x.space, x.register, x.count, x.offset);
                            }
                            let r = (l.end_table)(conv);
                            if r != abi::SUCCESS {
                                return r;
                            }
                        }
                    }
                }
            }
            if let Some(g) = f.set_meta_descriptor {
                for &(m, k, s, b) in &self.meta {
                    g(conv, m, k, s, b);
                }
            }
            (f.run)(conv)
        }
    }
}

/// Compiles: DXIL through dxjit; DXBC, and DXIL dxjit reports unsupported, through the
/// fallback library when one is loaded (the route is logged and counted).
#[no_mangle]
pub unsafe extern "C" fn dxil_spv_converter_run(converter: *mut Converter) -> i32 {
    guard(abi::ERROR_GENERIC, || {
        // SAFETY: per the caller.
        let Some(c) = (unsafe { conv(converter) }) else { return abi::ERROR_INVALID_ARGUMENT };
        c.output = None;
        c.entry_out = None;
        let Some(pb) = c.blob() else { return abi::ERROR_INVALID_ARGUMENT };
        let dxil = match &pb.kind {
            BlobKind::Dxbc { lib, handle } => {
                let (lib, handle) = (lib.clone(), *handle);
                log(abi::log::DEBUG, &format!("dxjit: DXBC shader compiled by the fallback {}", lib.path));
                let r = c.run_fallback(lib, Some(handle));
                fallback::count(if r == abi::SUCCESS { Route::FallbackDxbc } else { Route::Failed });
                return r;
            }
            BlobKind::Dxil(b) => b,
        };
        let local_problem = if c.open_table.is_some() {
            Some("a local root descriptor table was begun and not ended (end_local_root_descriptor_table)".to_string())
        } else {
            c.local_error.clone()
        };
        if let Some(m) = local_problem {
            fallback::count(Route::Failed);
            log(abi::log::ERROR, &format!("dxjit: local root signature: {m}"));
            return abi::ERROR_INVALID_ARGUMENT;
        }
        match c.compile_dxil(dxil) {
            Ok((shader, patch_offset)) => {
                fallback::count(Route::Dxjit);
                log(abi::log::DEBUG, "dxjit: compiled by dxjit");
                c.output = Some(Output::Dxjit { shader: Box::new(shader), patch_offset });
                abi::SUCCESS
            }
            Err(e) => {
                let warn = |m: &str| log(abi::log::WARN, m);
                if let (CompileError::Unsupported { .. }, Some(lib)) = (&e, fallback::current(&warn)) {
                    log(abi::log::WARN, &format!("dxjit: {e}; compiled by the fallback {}", lib.path));
                    let r = c.run_fallback(lib, None);
                    fallback::count(if r == abi::SUCCESS { Route::FallbackUnsupported } else { Route::Failed });
                    return r;
                }
                fallback::count(Route::Failed);
                log(abi::log::ERROR, &format!("dxjit: {e}"));
                result_of(&e)
            }
        }
    })
}

/// The SPIR-V of the last successful run (owned by the converter).
#[no_mangle]
pub unsafe extern "C" fn dxil_spv_converter_get_compiled_spirv(
    converter: *mut Converter,
    compiled: *mut abi::CompiledSpirv,
) -> i32 {
    guard(abi::ERROR_GENERIC, || {
        // SAFETY: per the caller.
        let Some(c) = (unsafe { conv(converter) }) else { return abi::ERROR_INVALID_ARGUMENT };
        if compiled.is_null() {
            return abi::ERROR_INVALID_ARGUMENT;
        }
        match &c.output {
            Some(Output::Dxjit { shader, .. }) => {
                let v = abi::CompiledSpirv { data: shader.spirv.as_ptr().cast(), size: shader.spirv.len() * 4 };
                // SAFETY: checked non-NULL.
                unsafe { compiled.write(v) };
                abi::SUCCESS
            }
            // SAFETY: forwarding to the converter that produced the result.
            Some(Output::Fallback { lib, conv, .. }) => unsafe { (lib.fns.get_compiled_spirv)(*conv, compiled) },
            None => abi::ERROR_GENERIC,
        }
    })
}

/// The SPIR-V entry point name of the last successful run.
#[no_mangle]
pub unsafe extern "C" fn dxil_spv_converter_get_compiled_entry_point(
    converter: *mut Converter,
    entry: *mut *const c_char,
) -> i32 {
    guard(abi::ERROR_GENERIC, || {
        // SAFETY: per the caller.
        let Some(c) = (unsafe { conv(converter) }) else { return abi::ERROR_INVALID_ARGUMENT };
        if entry.is_null() {
            return abi::ERROR_INVALID_ARGUMENT;
        }
        match &c.output {
            Some(Output::Dxjit { shader, .. }) => {
                let e = cstring(&shader.entry_point);
                // SAFETY: checked non-NULL; the string lives in the converter.
                unsafe { entry.write(e.as_ptr()) };
                c.entry_out = Some(e);
                abi::SUCCESS
            }
            Some(Output::Fallback { lib, conv, .. }) => match lib.fns.get_compiled_entry_point {
                // SAFETY: forwarding.
                Some(f) => unsafe { f(*conv, entry) },
                None => abi::ERROR_UNSUPPORTED_FEATURE,
            },
            None => abi::ERROR_GENERIC,
        }
    })
}

fn dxjit_output(c: &Converter) -> Option<(&CompiledShader, u32)> {
    match &c.output {
        Some(Output::Dxjit { shader, patch_offset }) => Some((shader, *patch_offset)),
        _ => None,
    }
}

/// The properties of the entry point the converter compiles.
fn main_properties(c: &Converter) -> Option<&dxjit::dxil::ShaderProperties> {
    match &c.blob()?.kind {
        BlobKind::Dxil(b) => c.entry(b).map(|e| &e.properties),
        BlobKind::Dxbc { .. } => None,
    }
}

/// Writes `vals` through the non-NULL pointers of `outs`.
///
/// # Safety
/// Each pointer is NULL or valid for a write.
unsafe fn write_all(outs: &[*mut c_uint], vals: &[c_uint]) {
    for (p, v) in outs.iter().zip(vals) {
        if !p.is_null() {
            // SAFETY: per the caller.
            unsafe { p.write(*v) };
        }
    }
}

/// Compute/mesh/amplification thread-group size of the last run.
#[no_mangle]
pub unsafe extern "C" fn dxil_spv_converter_get_compute_workgroup_dimensions(
    converter: *mut Converter,
    x: *mut c_uint,
    y: *mut c_uint,
    z: *mut c_uint,
) -> i32 {
    guard(abi::ERROR_GENERIC, || {
        // SAFETY: per the caller.
        let Some(c) = (unsafe { conv(converter) }) else { return abi::ERROR_INVALID_ARGUMENT };
        if let Some(Output::Fallback { lib, conv, .. }) = &c.output {
            return match lib.fns.get_compute_workgroup_dimensions {
                // SAFETY: forwarding.
                Some(f) => unsafe { f(*conv, x, y, z) },
                None => abi::ERROR_UNSUPPORTED_FEATURE,
            };
        }
        let Some((s, _)) = dxjit_output(c) else { return abi::ERROR_GENERIC };
        let wg = if s.workgroup_size == [0; 3] {
            main_properties(c).and_then(|p| p.workgroup_size()).unwrap_or([0; 3])
        } else {
            s.workgroup_size
        };
        // SAFETY: per the caller.
        unsafe { write_all(&[x, y, z], &wg) };
        abi::SUCCESS
    })
}

/// Hull shaders: output control points of the last run.
#[no_mangle]
pub unsafe extern "C" fn dxil_spv_converter_get_patch_vertex_count(
    converter: *mut Converter,
    count: *mut c_uint,
) -> i32 {
    guard(abi::ERROR_GENERIC, || {
        // SAFETY: per the caller.
        let Some(c) = (unsafe { conv(converter) }) else { return abi::ERROR_INVALID_ARGUMENT };
        if let Some(Output::Fallback { lib, conv, .. }) = &c.output {
            return match lib.fns.get_patch_vertex_count {
                // SAFETY: forwarding.
                Some(f) => unsafe { f(*conv, count) },
                None => abi::ERROR_UNSUPPORTED_FEATURE,
            };
        }
        if dxjit_output(c).is_none() {
            return abi::ERROR_GENERIC;
        }
        let Some(hs) = main_properties(c).and_then(|p| p.hs.as_ref()) else { return abi::ERROR_INVALID_ARGUMENT };
        // SAFETY: per the caller.
        unsafe { write_all(&[count], &[hs.output_control_points]) };
        abi::SUCCESS
    })
}

/// Hull shaders: the Location of the first patch constant (after the control-point outputs).
#[no_mangle]
pub unsafe extern "C" fn dxil_spv_converter_get_patch_location_offset(
    converter: *mut Converter,
    offset: *mut c_uint,
) -> i32 {
    guard(abi::ERROR_GENERIC, || {
        // SAFETY: per the caller.
        let Some(c) = (unsafe { conv(converter) }) else { return abi::ERROR_INVALID_ARGUMENT };
        if let Some(Output::Fallback { lib, conv, .. }) = &c.output {
            return match lib.fns.get_patch_location_offset {
                // SAFETY: forwarding.
                Some(f) => unsafe { f(*conv, offset) },
                None => abi::ERROR_UNSUPPORTED_FEATURE,
            };
        }
        let Some((_, o)) = dxjit_output(c) else { return abi::ERROR_GENERIC };
        // SAFETY: per the caller.
        unsafe { write_all(&[offset], &[o]) };
        abi::SUCCESS
    })
}

/// The subgroup size dxjit chose for the last run within the layer's subgroup sizes
/// (SUBGROUP_PROPERTIES / FORCE_SUBGROUP_SIZE), if it chose one.
fn narrowed(c: &Converter) -> Option<u32> {
    let s = &c.settings;
    if s.subgroup.is_none() && s.forced_subgroup.is_none() {
        return None;
    }
    dxjit_output(c).and_then(|(sh, _)| sh.required_subgroup_size)
}

/// `[WaveSize]` min, max and preferred (zeros when the shader declares none); with the layer's
/// subgroup sizes, the one size dxjit chose within them (three times).
#[no_mangle]
pub unsafe extern "C" fn dxil_spv_converter_get_compute_wave_size_range(
    converter: *mut Converter,
    min: *mut c_uint,
    max: *mut c_uint,
    preferred: *mut c_uint,
) -> i32 {
    guard(abi::ERROR_GENERIC, || {
        // SAFETY: per the caller.
        let Some(c) = (unsafe { conv(converter) }) else { return abi::ERROR_INVALID_ARGUMENT };
        if let Some(Output::Fallback { lib, conv, .. }) = &c.output {
            return match lib.fns.get_compute_wave_size_range {
                // SAFETY: forwarding.
                Some(f) => unsafe { f(*conv, min, max, preferred) },
                None => abi::ERROR_UNSUPPORTED_FEATURE,
            };
        }
        // With the layer's subgroup sizes dxjit chose the size (WaveGetLaneCount may be that
        // constant): the range narrows to it, so the layer requires exactly that size.
        let v = match (narrowed(c), main_properties(c).and_then(|p| p.wave_size.as_ref())) {
            (Some(n), _) => [n; 3],
            (None, Some(w)) => [w.min, w.max.unwrap_or(0), w.preferred.unwrap_or(0)],
            (None, None) => [0; 3],
        };
        // SAFETY: per the caller.
        unsafe { write_all(&[min, max, preferred], &v) };
        abi::SUCCESS
    })
}

/// `[WaveSize]` of the shader (0: none).
#[no_mangle]
pub unsafe extern "C" fn dxil_spv_converter_get_compute_required_wave_size(
    converter: *mut Converter,
    size: *mut c_uint,
) -> i32 {
    guard(abi::ERROR_GENERIC, || {
        // SAFETY: per the caller.
        let Some(c) = (unsafe { conv(converter) }) else { return abi::ERROR_INVALID_ARGUMENT };
        let w = narrowed(c).unwrap_or_else(|| {
            main_properties(c).and_then(|p| p.wave_size.as_ref()).filter(|w| w.max.is_none()).map_or(0, |w| w.min)
        });
        // SAFETY: per the caller.
        unsafe { write_all(&[size], &[w]) };
        abi::SUCCESS
    })
}

/// dxjit has no wave-size heuristics: 0.
#[no_mangle]
pub unsafe extern "C" fn dxil_spv_converter_get_compute_heuristic_max_wave_size(
    _converter: *mut Converter,
    size: *mut c_uint,
) -> i32 {
    // SAFETY: per the caller.
    unsafe { write_all(&[size], &[0]) };
    abi::SUCCESS
}

/// dxjit has no wave-size heuristics: 0.
#[no_mangle]
pub unsafe extern "C" fn dxil_spv_converter_get_compute_heuristic_min_wave_size(
    _converter: *mut Converter,
    size: *mut c_uint,
) -> i32 {
    // SAFETY: per the caller.
    unsafe { write_all(&[size], &[0]) };
    abi::SUCCESS
}

/// Whether the SPIR-V declares a built-in (OpDecorate %v BuiltIn `builtin`).
fn uses_builtin(words: &[u32], builtin: u32) -> bool {
    let mut i = 5;
    while i < words.len() {
        let n = (words[i] >> 16) as usize;
        if words[i] & 0xffff == 71 && n == 4 && words.get(i + 2) == Some(&11) && words.get(i + 3) == Some(&builtin) {
            return true;
        }
        i += n.max(1);
    }
    false
}

/// Whether the last run's SPIR-V reads the SubgroupSize built-in.
#[no_mangle]
pub unsafe extern "C" fn dxil_spv_converter_uses_subgroup_size(converter: *mut Converter) -> Bool {
    guard(FALSE, || {
        // SAFETY: per the caller.
        let Some(c) = (unsafe { conv(converter) }) else { return FALSE };
        dxjit_output(c).map_or(FALSE, |(s, _)| Bool::from(uses_builtin(&s.spirv, 36)))
    })
}

/// Feature 0 (native 16-bit operations): whether the SPIR-V declares 16-bit arithmetic.
#[no_mangle]
pub unsafe extern "C" fn dxil_spv_converter_uses_shader_feature(converter: *mut Converter, feature: u32) -> Bool {
    guard(FALSE, || {
        // SAFETY: per the caller.
        let Some(c) = (unsafe { conv(converter) }) else { return FALSE };
        match (feature, dxjit_output(c)) {
            (0, Some((s, _))) => Bool::from(s.capabilities.iter().any(|k| k == "Float16" || k == "Int16")),
            _ => FALSE,
        }
    })
}

/// View instancing: dxjit emits no view-dependent code, so every shader is multiview-compatible.
#[no_mangle]
pub unsafe extern "C" fn dxil_spv_converter_is_multiview_compatible(
    _converter: *mut Converter,
    result: *mut Bool,
) -> i32 {
    if result.is_null() {
        return abi::ERROR_INVALID_ARGUMENT;
    }
    // SAFETY: checked non-NULL.
    unsafe { result.write(TRUE) };
    abi::SUCCESS
}

/// dxjit reports no analysis warnings: NULL.
#[no_mangle]
pub unsafe extern "C" fn dxil_spv_converter_get_analysis_warnings(_converter: *mut Converter) -> *const c_char {
    std::ptr::null()
}

/// Resource scanning without compiling (not called by the layer): unsupported.
#[no_mangle]
pub unsafe extern "C" fn dxil_spv_parsed_blob_scan_resources(
    _blob: *const ParsedBlob,
    _srv: abi::SrvRemapper,
    _sampler: abi::SamplerRemapper,
    _cbv: abi::CbvRemapper,
    _uav: abi::UavRemapper,
    _userdata: *mut c_void,
) -> i32 {
    abi::ERROR_UNSUPPORTED_FEATURE
}

/// Debug dump (not called by the layer): no-op.
#[no_mangle]
pub unsafe extern "C" fn dxil_spv_parsed_blob_dump_llvm_ir(_blob: *const ParsedBlob) {}

/// Disassembly (not called by the layer): unsupported.
#[no_mangle]
pub unsafe extern "C" fn dxil_spv_parsed_blob_get_disassembled_ir(
    _blob: *const ParsedBlob,
    _s: *mut *const c_char,
) -> i32 {
    abi::ERROR_UNSUPPORTED_FEATURE
}

/// Raw IR (not called by the layer): unsupported.
#[no_mangle]
pub unsafe extern "C" fn dxil_spv_parsed_blob_get_raw_ir(
    _blob: *const ParsedBlob,
    _data: *mut *const c_void,
    _size: *mut usize,
) -> i32 {
    abi::ERROR_UNSUPPORTED_FEATURE
}

#[cfg(test)]
mod tests {
    //! The remappers' answers become the placements the binding model documents (checked here
    //! against the API, independent of the lowering that consumes them).

    use super::*;

    fn query(class: ResourceClass, kind: ResourceKind, register: u32, count: Option<u32>) -> ResourceQuery {
        ResourceQuery {
            stage: ShaderKind::Compute,
            class,
            kind,
            space: 0,
            register,
            count,
            heap: false,
            has_counter: false,
        }
    }

    unsafe extern "C" fn srv(_: *mut c_void, d: *const abi::D3dBinding, v: *mut abi::SrvVulkanBinding) -> Bool {
        // SAFETY: valid pointers from the remap.
        let (d, v) = unsafe { (&*d, &mut *v) };
        if d.register_index == 0 {
            v.buffer_binding.descriptor_type = abi::desc::BUFFER_DEVICE_ADDRESS;
            v.buffer_binding.root_constant_index = 1;
        } else if d.register_index == 9 && d.range_size != 1 {
            return FALSE; // refuses unbounded ranges: dxil-spirv retries with 1
        } else {
            v.buffer_binding = abi::VulkanBinding {
                set: 3,
                binding: 0,
                root_constant_index: 2,
                bindless: abi::Bindless { heap_root_offset: d.register_index, use_heap: 1 },
                descriptor_type: abi::desc::SSBO,
            };
            v.offset_binding.set = 7;
            v.offset_binding.binding = 1;
        }
        TRUE
    }

    unsafe extern "C" fn cbv(_: *mut c_void, d: *const abi::D3dBinding, v: *mut abi::CbvVulkanBinding) -> Bool {
        // SAFETY: valid pointers from the remap.
        let (d, v) = unsafe { (&*d, &mut *v) };
        if d.register_index == 0 {
            v.push_constant = TRUE;
            v.vulkan.set = 4; // push_constant.offset_in_words shares the first word
        } else {
            v.vulkan.descriptor_type = abi::desc::BUFFER_DEVICE_ADDRESS;
            v.vulkan.root_constant_index = 0;
        }
        TRUE
    }

    unsafe extern "C" fn uav(_: *mut c_void, u: *const abi::UavD3dBinding, v: *mut abi::UavVulkanBinding) -> Bool {
        // SAFETY: valid pointers from the remap.
        let (u, v) = unsafe { (&*u, &mut *v) };
        v.buffer_binding = abi::VulkanBinding { set: 5, binding: 2, ..Default::default() };
        if u.has_counter != 0 {
            v.counter_binding = abi::VulkanBinding {
                set: 8,
                binding: 0,
                bindless: abi::Bindless { heap_root_offset: 0, use_heap: 1 },
                ..Default::default()
            };
        }
        TRUE
    }

    fn remap() -> CompatRemap {
        CompatRemap {
            remappers: Remappers {
                srv: (Some(srv), 0),
                cbv: (Some(cbv), 0),
                uav: (Some(uav), 0),
                ..Remappers::default()
            },
            stage: abi::stage::COMPUTE,
            local: Vec::new(),
            resources: vec![DxjitResourceInfo {
                class_: 2,
                kind: 13,
                id: 0,
                space: 0,
                lower_bound: 0,
                count: 1,
                stride: 0,
                cbv_size: 64,
                has_counter: false,
                name: std::ptr::null(),
            }],
            root_descriptors: 2,
            root_block_words: 4 + 20,
            ssbo_alignment: 16,
            typed_offsets: false,
            cbv_ssbo: false,
        }
    }

    #[test]
    fn remappers_become_placements() {
        let r = remap();
        // A root SRV: root descriptor 1 is words 2, 3.
        let p = r.remap(&query(ResourceClass::Srv, ResourceKind::RawBuffer, 0, Some(1)), None).expect("placed");
        assert_eq!(p.location, ResourceLocation::Address { word: 2 });
        // A table SRV: heap element at word 2R + 2 = 6, offset = register; raw buffers (alignment
        // 16 = the SSBO alignment) need no bounds buffer.
        let p = r.remap(&query(ResourceClass::Srv, ResourceKind::RawBuffer, 5, Some(1)), None).expect("placed");
        assert_eq!(
            p.location,
            ResourceLocation::Heap {
                set: 3,
                binding: 0,
                descriptor: DescriptorKind::StorageBuffer,
                table_word: Some(6),
                heap_offset: 5,
                bounds: None
            }
        );
        // A structured buffer of stride 4 does (4 is below the SSBO alignment).
        let mut q = query(ResourceClass::Srv, ResourceKind::StructuredBuffer, 6, Some(1));
        let p = r.remap(&q, None).expect("placed");
        assert!(matches!(p.location, ResourceLocation::Heap { bounds: Some((7, 1)), .. }), "{p:?}");
        // An unbounded range the callback refuses is asked again as one descriptor.
        q.register = 9;
        q.count = None;
        assert!(r.remap(&q, None).is_ok());
        // Root constants: word 2R + offset_in_words, as many words as the cbuffer.
        let p = r.remap(&query(ResourceClass::Cbv, ResourceKind::CBuffer, 0, Some(1)), None).expect("placed");
        assert_eq!(p.location, ResourceLocation::RootConstants { word: 8, words: 16 });
        // A root CBV: root descriptor 0.
        let p = r.remap(&query(ResourceClass::Cbv, ResourceKind::CBuffer, 1, Some(1)), None).expect("placed");
        assert_eq!(p.location, ResourceLocation::Address { word: 0 });
        // A UAV with a counter in the counter heap.
        let mut q = query(ResourceClass::Uav, ResourceKind::Texture2D, 0, Some(1));
        q.has_counter = true;
        let p = r.remap(&q, None).expect("placed");
        assert_eq!(
            p.location,
            ResourceLocation::Descriptor { set: 5, binding: 2, descriptor: DescriptorKind::StorageImage }
        );
        assert_eq!(p.counter, Some(CounterLocation::Heap { set: 8, binding: 0 }));
        // No sampler remapper: the identity rule (set = space, binding = register).
        let p = r.remap(&query(ResourceClass::Sampler, ResourceKind::Sampler, 3, Some(1)), None).expect("placed");
        assert_eq!(
            p.location,
            ResourceLocation::Descriptor { set: 0, binding: 3, descriptor: DescriptorKind::Sampler }
        );
    }

    #[test]
    fn the_model_accepts_the_placements() {
        // Through BindingModel::place (the checks the lowering relies on).
        let model = BindingModel {
            root_signature: None,
            policy: BindingPolicy::default(),
            remap: Some(Arc::new(remap())),
            root_words: Some(24),
            local_root_signature: dxjit::binding::LocalRoot::None,
        };
        let layout = model.push_layout();
        assert_eq!(layout.words, 24);
        for q in [
            query(ResourceClass::Srv, ResourceKind::RawBuffer, 0, Some(1)),
            query(ResourceClass::Srv, ResourceKind::RawBuffer, 5, Some(1)),
            query(ResourceClass::Cbv, ResourceKind::CBuffer, 0, Some(1)),
            query(ResourceClass::Cbv, ResourceKind::CBuffer, 1, Some(1)),
        ] {
            model.place(&q, &layout).unwrap_or_else(|e| panic!("{q:?}: {e}"));
        }
    }

    #[test]
    fn demangling() {
        assert_eq!(demangle("main"), "main");
        assert_eq!(demangle("\u{1}?RayGen@@YAXXZ"), "RayGen");
    }
}
