//! The run-time fallback: another library implementing the dxil_spv interface, loaded with
//! `dlopen` semantics (path from `DXJIT_FALLBACK_LIBRARY`, read once on first use, or
//! `dxjit_set_fallback_library`), symbols looked up by name. The compat layer hands it DXBC
//! (shader model 4/5) shaders and DXIL that dxjit reports unsupported, replaying the layer's
//! converter calls onto it. Every compile's route is counted ([`stats`]) and logged.

use std::ffi::{c_char, c_uint, c_void};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Once, RwLock};

use crate::abi;

type Handle = *mut c_void;

/// The fallback library's entry points (the ones the compat layer forwards).
pub struct Fns {
    pub parse_dxil_blob: unsafe extern "C" fn(*const c_void, usize, *mut Handle) -> abi::Result,
    pub parsed_blob_free: unsafe extern "C" fn(Handle),
    pub create_converter: unsafe extern "C" fn(Handle, *mut Handle) -> abi::Result,
    pub converter_free: unsafe extern "C" fn(Handle),
    pub add_option: unsafe extern "C" fn(Handle, *const abi::OptionBase) -> abi::Result,
    pub run: unsafe extern "C" fn(Handle) -> abi::Result,
    pub get_compiled_spirv: unsafe extern "C" fn(Handle, *mut abi::CompiledSpirv) -> abi::Result,
    pub get_shader_stage: Option<unsafe extern "C" fn(Handle) -> u32>,
    pub get_entry_point_demangled_name: Option<unsafe extern "C" fn(Handle, c_uint, *mut *const c_char) -> abi::Result>,
    pub set_root_constant_word_count: Option<unsafe extern "C" fn(Handle, c_uint)>,
    pub set_root_descriptor_count: Option<unsafe extern "C" fn(Handle, c_uint)>,
    pub set_srv_remapper: Option<unsafe extern "C" fn(Handle, abi::SrvRemapper, *mut c_void)>,
    pub set_sampler_remapper: Option<unsafe extern "C" fn(Handle, abi::SamplerRemapper, *mut c_void)>,
    pub set_uav_remapper: Option<unsafe extern "C" fn(Handle, abi::UavRemapper, *mut c_void)>,
    pub set_cbv_remapper: Option<unsafe extern "C" fn(Handle, abi::CbvRemapper, *mut c_void)>,
    pub set_vertex_input_remapper: Option<unsafe extern "C" fn(Handle, abi::VertexInputRemapper, *mut c_void)>,
    pub set_stream_output_remapper: Option<unsafe extern "C" fn(Handle, abi::StreamOutputRemapper, *mut c_void)>,
    pub set_stage_input_remapper: Option<unsafe extern "C" fn(Handle, abi::StageIoRemapper, *mut c_void)>,
    pub set_stage_output_remapper: Option<unsafe extern "C" fn(Handle, abi::StageIoRemapper, *mut c_void)>,
    pub set_patch_location_offset: Option<unsafe extern "C" fn(Handle, c_uint)>,
    pub get_patch_location_offset: Option<unsafe extern "C" fn(Handle, *mut c_uint) -> abi::Result>,
    pub set_entry_point: Option<unsafe extern "C" fn(Handle, *const c_char)>,
    /// The local-root-signature calls, all five or none.
    pub local_root: Option<LocalRootFns>,
    pub set_meta_descriptor: Option<unsafe extern "C" fn(Handle, u32, u32, c_uint, c_uint) -> abi::Result>,
    pub get_compute_workgroup_dimensions:
        Option<unsafe extern "C" fn(Handle, *mut c_uint, *mut c_uint, *mut c_uint) -> abi::Result>,
    pub get_patch_vertex_count: Option<unsafe extern "C" fn(Handle, *mut c_uint) -> abi::Result>,
    pub get_compute_wave_size_range:
        Option<unsafe extern "C" fn(Handle, *mut c_uint, *mut c_uint, *mut c_uint) -> abi::Result>,
    pub get_compiled_entry_point: Option<unsafe extern "C" fn(Handle, *mut *const c_char) -> abi::Result>,
    pub set_thread_log_callback: Option<unsafe extern "C" fn(abi::LogCallback, *mut c_void)>,
}

/// The fallback's local-root-signature entry points.
pub struct LocalRootFns {
    pub add_constants: unsafe extern "C" fn(Handle, c_uint, c_uint, c_uint),
    pub add_descriptor: unsafe extern "C" fn(Handle, u32, c_uint, c_uint),
    pub begin_table: unsafe extern "C" fn(Handle) -> abi::Result,
    pub add_table: unsafe extern "C" fn(Handle, u32, c_uint, c_uint, c_uint, c_uint),
    pub end_table: unsafe extern "C" fn(Handle) -> abi::Result,
}

/// A loaded fallback library.
pub struct Library {
    pub path: String,
    pub fns: Fns,
    // Kept last: the library stays loaded while `fns` can be called.
    _lib: libloading::Library,
}

static CURRENT: RwLock<Option<Arc<Library>>> = RwLock::new(None);
static ENV: Once = Once::new();

/// Where a compile went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Route {
    Dxjit,
    FallbackDxbc,
    FallbackUnsupported,
    DxbcRefused,
    Failed,
}

static COUNTS: [AtomicU64; 5] = [const { AtomicU64::new(0) }; 5];

/// The route counters: dxjit, fallback (DXBC), fallback (unsupported DXIL), DXBC refused, failed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RouteCounts {
    pub dxjit: u64,
    pub fallback_dxbc: u64,
    pub fallback_unsupported: u64,
    pub dxbc_refused: u64,
    pub failed: u64,
}

pub fn count(r: Route) {
    COUNTS[r as usize].fetch_add(1, Ordering::Relaxed);
}

/// The counters (and zeroes them when `reset`).
pub fn counts(reset: bool) -> RouteCounts {
    let get = |i: usize| if reset { COUNTS[i].swap(0, Ordering::Relaxed) } else { COUNTS[i].load(Ordering::Relaxed) };
    RouteCounts {
        dxjit: get(0),
        fallback_dxbc: get(1),
        fallback_unsupported: get(2),
        dxbc_refused: get(3),
        failed: get(4),
    }
}

/// Loads `path` (None: no fallback) as the current fallback library.
pub fn set_library(path: Option<&str>) -> Result<(), String> {
    let lib = match path {
        Some(p) => Some(Arc::new(load(p)?)),
        None => None,
    };
    ENV.call_once(|| {});
    let mut cur = CURRENT.write().map_err(|_| "fallback library lock poisoned".to_string())?;
    *cur = lib;
    Ok(())
}

/// The current fallback library; on first use, the one `DXJIT_FALLBACK_LIBRARY` names (a load
/// failure is reported through `warn` and leaves no fallback).
pub fn current(warn: &dyn Fn(&str)) -> Option<Arc<Library>> {
    ENV.call_once(|| {
        if let Some(p) = std::env::var_os("DXJIT_FALLBACK_LIBRARY") {
            let p = p.to_string_lossy().into_owned();
            match load(&p) {
                Ok(l) => {
                    if let Ok(mut c) = CURRENT.write() {
                        *c = Some(Arc::new(l));
                    }
                }
                Err(e) => warn(&format!("dxjit: DXJIT_FALLBACK_LIBRARY: {e}")),
            }
        }
    });
    CURRENT.read().ok().and_then(|c| c.clone())
}

fn load(path: &str) -> Result<Library, String> {
    // SAFETY: loading a library runs its initialisers; the caller names a library implementing
    // the dxil_spv interface, which is the documented contract of this option.
    let lib = unsafe { libloading::Library::new(path) }.map_err(|e| format!("fallback library {path}: {e}"))?;
    // dxjit's own library as its fallback would hand shaders to itself forever.
    // SAFETY: only the symbol's presence is checked.
    if unsafe { lib.get::<unsafe extern "C" fn()>(b"dxjit_route_stats\0") }.is_ok() {
        return Err(format!("fallback library {path}: it is a dxjit library (exports dxjit_route_stats)"));
    }
    macro_rules! req {
        ($name:literal) => {{
            // SAFETY: the symbol has the dxil_spv interface's signature (the library's contract).
            let s = unsafe { lib.get(concat!($name, "\0").as_bytes()) }
                .map_err(|e| format!("fallback library {path}: symbol {}: {e}", $name))?;
            *s
        }};
    }
    macro_rules! opt {
        ($name:literal) => {{
            // SAFETY: as above.
            unsafe { lib.get(concat!($name, "\0").as_bytes()) }.ok().map(|s| *s)
        }};
    }
    let fns = Fns {
        parse_dxil_blob: req!("dxil_spv_parse_dxil_blob"),
        parsed_blob_free: req!("dxil_spv_parsed_blob_free"),
        create_converter: req!("dxil_spv_create_converter"),
        converter_free: req!("dxil_spv_converter_free"),
        add_option: req!("dxil_spv_converter_add_option"),
        run: req!("dxil_spv_converter_run"),
        get_compiled_spirv: req!("dxil_spv_converter_get_compiled_spirv"),
        get_shader_stage: opt!("dxil_spv_parsed_blob_get_shader_stage"),
        get_entry_point_demangled_name: opt!("dxil_spv_parsed_blob_get_entry_point_demangled_name"),
        set_root_constant_word_count: opt!("dxil_spv_converter_set_root_constant_word_count"),
        set_root_descriptor_count: opt!("dxil_spv_converter_set_root_descriptor_count"),
        set_srv_remapper: opt!("dxil_spv_converter_set_srv_remapper"),
        set_sampler_remapper: opt!("dxil_spv_converter_set_sampler_remapper"),
        set_uav_remapper: opt!("dxil_spv_converter_set_uav_remapper"),
        set_cbv_remapper: opt!("dxil_spv_converter_set_cbv_remapper"),
        set_vertex_input_remapper: opt!("dxil_spv_converter_set_vertex_input_remapper"),
        set_stream_output_remapper: opt!("dxil_spv_converter_set_stream_output_remapper"),
        set_stage_input_remapper: opt!("dxil_spv_converter_set_stage_input_remapper"),
        set_stage_output_remapper: opt!("dxil_spv_converter_set_stage_output_remapper"),
        set_patch_location_offset: opt!("dxil_spv_converter_set_patch_location_offset"),
        get_patch_location_offset: opt!("dxil_spv_converter_get_patch_location_offset"),
        set_entry_point: opt!("dxil_spv_converter_set_entry_point"),
        local_root: (|| {
            Some(LocalRootFns {
                add_constants: opt!("dxil_spv_converter_add_local_root_constants")?,
                add_descriptor: opt!("dxil_spv_converter_add_local_root_descriptor")?,
                begin_table: opt!("dxil_spv_converter_begin_local_root_descriptor_table")?,
                add_table: opt!("dxil_spv_converter_add_local_root_descriptor_table")?,
                end_table: opt!("dxil_spv_converter_end_local_root_descriptor_table")?,
            })
        })(),
        set_meta_descriptor: opt!("dxil_spv_converter_set_meta_descriptor"),
        get_compute_workgroup_dimensions: opt!("dxil_spv_converter_get_compute_workgroup_dimensions"),
        get_patch_vertex_count: opt!("dxil_spv_converter_get_patch_vertex_count"),
        get_compute_wave_size_range: opt!("dxil_spv_converter_get_compute_wave_size_range"),
        get_compiled_entry_point: opt!("dxil_spv_converter_get_compiled_entry_point"),
        set_thread_log_callback: opt!("dxil_spv_set_thread_log_callback"),
    };
    Ok(Library { path: path.to_string(), fns, _lib: lib })
}
