//! The native C entry points over every corpus shader give the same result as the Rust API:
//! byte-identical SPIR-V where `dxjit::compile` succeeds, the matching error code where it
//! fails; reflection agrees with the container's metadata.

use std::ffi::CStr;

use dxjit_capi::native::*;
use dxjit_conformance::corpus::{self, Corpus};

fn code_of(e: &dxjit::CompileError) -> DxjitResult {
    match e {
        dxjit::CompileError::Malformed(_) => DxjitResult::DXJIT_ERROR_MALFORMED,
        dxjit::CompileError::Unsupported { .. } => DxjitResult::DXJIT_ERROR_UNSUPPORTED,
        dxjit::CompileError::Binding(_) => DxjitResult::DXJIT_ERROR_BINDING,
        dxjit::CompileError::Internal(_) => DxjitResult::DXJIT_ERROR_INTERNAL,
    }
}

/// Compiles through the C entry point; Ok(words) or Err(code, message).
fn c_compile(bytes: &[u8], opts: Option<&DxjitCompileOptions>) -> Result<Vec<u32>, (DxjitResult, String)> {
    let mut shader = std::ptr::null_mut();
    let o = opts.map_or(std::ptr::null(), |o| o as *const DxjitCompileOptions);
    // SAFETY: valid pointers for the call.
    let r = unsafe { dxjit_compile(bytes.as_ptr(), bytes.len(), o, &mut shader) };
    if r != DxjitResult::DXJIT_OK {
        // SAFETY: the library's NUL-terminated message.
        let msg = unsafe { CStr::from_ptr(dxjit_last_error()) }.to_string_lossy().into_owned();
        return Err((r, msg));
    }
    let mut words = std::ptr::null();
    let mut n = 0usize;
    // SAFETY: a live shader; the words are copied before it is freed.
    unsafe {
        assert_eq!(dxjit_shader_spirv(shader, &mut words, &mut n), DxjitResult::DXJIT_OK);
        let v = std::slice::from_raw_parts(words, n).to_vec();
        dxjit_shader_free(shader);
        Ok(v)
    }
}

fn check(name: &str, bytes: &[u8], stats: &mut (usize, usize, usize)) {
    let rust = dxjit::compile(bytes, &dxjit::CompileOptions::default());
    match (rust, c_compile(bytes, None)) {
        (Ok(s), Ok(words)) => {
            assert!(s.spirv == words, "{name}: SPIR-V differs between the Rust API and the C entry point");
            stats.0 += 1;
        }
        (Err(e), Err((code, msg))) => {
            assert_eq!(code, code_of(&e), "{name}");
            assert_eq!(msg, e.to_string(), "{name}");
            stats.1 += 1;
        }
        (r, c) => panic!("{name}: Rust API {:?} but C entry point {:?}", r.map(|s| s.spirv.len()), c.map(|w| w.len())),
    }
    // Reflection through C agrees with the metadata.
    let mut blob = std::ptr::null_mut();
    // SAFETY: valid pointers.
    let r = unsafe { dxjit_blob_parse(bytes.as_ptr(), bytes.len(), &mut blob) };
    if r != DxjitResult::DXJIT_OK {
        return;
    }
    let m = dxjit::bitcode::read_module(
        dxjit::container::Container::parse(bytes).and_then(|c| c.dxil_program()).map(|p| p.bitcode).expect("parsed"),
    )
    .expect("read");
    let info = dxjit::dxil::decode(&m).expect("decoded");
    let (mut count, mut nres) = (0u32, 0u32);
    // SAFETY: a live blob and valid out pointers.
    unsafe {
        assert_eq!(dxjit_blob_stage(blob) as u32, info.shader_model.kind as u32, "{name}");
        assert_eq!(dxjit_blob_entry_point_count(blob, &mut count), DxjitResult::DXJIT_OK);
        assert_eq!(count as usize, info.functions().count(), "{name}");
        assert_eq!(dxjit_blob_resource_count(blob, &mut nres), DxjitResult::DXJIT_OK);
        if let Some(ep) = info.main_entry() {
            let mut n = 0u32;
            assert_eq!(dxjit_blob_signature_count(blob, 0, &mut n), DxjitResult::DXJIT_OK);
            assert_eq!(n as usize, ep.inputs.len(), "{name}");
            for (i, e) in ep.inputs.iter().enumerate() {
                let mut c = std::mem::zeroed();
                assert_eq!(dxjit_blob_signature_element(blob, 0, i as u32, &mut c), DxjitResult::DXJIT_OK);
                let sem = CStr::from_ptr((c as DxjitSignatureElement).semantic_name).to_string_lossy();
                assert_eq!(sem, e.semantic_name, "{name}");
                assert_eq!(c.start_row, e.start_row, "{name}");
            }
        }
        dxjit_blob_free(blob);
    }
    stats.2 += nres as usize;
}

#[test]
fn native_api_matches_rust_api_on_fixtures() {
    let mut files = Vec::new();
    for d in ["compute", "graphics", "tessellation", "linkage"] {
        corpus::dxil_files(&corpus::workspace_root().join("fixtures").join(d), &mut files);
    }
    assert!(files.len() > 50);
    let mut stats = (0, 0, 0);
    for f in &files {
        check(&f.display().to_string(), &std::fs::read(f).expect("fixture"), &mut stats);
    }
    println!("fixtures: {} identical, {} same error, {} resources reflected", stats.0, stats.1, stats.2);
    assert!(stats.0 > 0);
}

#[test]
fn native_api_matches_rust_api_on_corpus() {
    let Some(c) = Corpus::for_test("native_api_matches_rust_api_on_corpus") else { return };
    let mut stats = (0, 0, 0);
    for (set, e) in c.entries() {
        let p = set.path_of(e);
        let bytes = std::fs::read(&p).expect("corpus blob");
        check(&p.display().to_string(), &bytes, &mut stats);
    }
    println!(
        "corpus: {} shaders byte-identical through dxjit_compile, {} with the same error, {} resources reflected",
        stats.0, stats.1, stats.2
    );
    assert!(stats.0 > 500);
}

#[test]
fn options_and_pipeline_through_c() {
    let root = corpus::workspace_root().join("fixtures");
    let cs = std::fs::read(root.join("compute/atomics_buffer.cs_6_0.dxil")).expect("fixture");
    // Non-default options reach the compiler.
    let mut o: DxjitCompileOptions = unsafe { std::mem::zeroed() };
    // SAFETY: valid out pointer.
    assert_eq!(unsafe { dxjit_compile_options_default(&mut o) }, DxjitResult::DXJIT_OK);
    o.spirv_version_minor = 6;
    o.robustness = DxjitRobustness::DXJIT_ROBUSTNESS_DEVICE as u32;
    let want = dxjit::compile(
        &cs,
        &dxjit::CompileOptions {
            spirv_version: (1, 6),
            robustness: dxjit::Robustness::DeviceRobustness2,
            ..Default::default()
        },
    )
    .expect("compiles");
    assert_eq!(c_compile(&cs, Some(&o)).expect("compiles"), want.spirv);

    // A vertex + pixel pipeline through dxjit_compile_pipeline equals dxjit::compile_pipeline.
    let vs = std::fs::read(root.join("graphics/clip_distance.vs_6_0.dxil")).expect("fixture");
    let mut ps_files = Vec::new();
    corpus::dxil_files(&root.join("graphics"), &mut ps_files);
    ps_files.sort();
    let link = dxjit::link::LinkOptions::default();
    let opts = dxjit::CompileOptions::default();
    let ps = ps_files
        .iter()
        .filter(|p| p.to_string_lossy().contains(".ps_"))
        .map(|p| std::fs::read(p).expect("fixture"))
        .find(|ps| dxjit::compile_pipeline(&[&vs, ps], &link, &opts).is_ok())
        .expect("a pixel shader that links with clip_distance.vs");
    let want = dxjit::compile_pipeline(&[&vs, &ps], &link, &opts).expect("links");
    let stages = [
        DxjitShaderBytes { data: vs.as_ptr(), size: vs.len() },
        DxjitShaderBytes { data: ps.as_ptr(), size: ps.len() },
    ];
    let mut p = std::ptr::null_mut();
    // SAFETY: valid pointers; the pipeline is freed below.
    unsafe {
        assert_eq!(
            dxjit_compile_pipeline(stages.as_ptr(), 2, std::ptr::null(), std::ptr::null(), &mut p),
            DxjitResult::DXJIT_OK
        );
        assert_eq!(dxjit_pipeline_stage_count(p) as usize, want.shaders.len());
        for (i, s) in want.shaders.iter().enumerate() {
            let sh = dxjit_pipeline_stage(p, i as u32);
            let (mut w, mut n) = (std::ptr::null(), 0usize);
            assert_eq!(dxjit_shader_spirv(sh, &mut w, &mut n), DxjitResult::DXJIT_OK);
            assert!(std::slice::from_raw_parts(w, n) == &s.spirv[..], "pipeline stage {i} differs");
        }
        let mut has = true;
        let mut t: DxjitTessellationState = std::mem::zeroed();
        assert_eq!(dxjit_pipeline_tessellation(p, &mut has, &mut t), DxjitResult::DXJIT_OK);
        assert!(!has);
        dxjit_pipeline_free(p);
    }

    // The cache: a second compile is a hit with the same words.
    let mut cache = std::ptr::null_mut();
    // SAFETY: valid pointers; objects freed below.
    unsafe {
        assert_eq!(dxjit_cache_create(16, std::ptr::null(), &mut cache), DxjitResult::DXJIT_OK);
        for _ in 0..2 {
            let mut s = std::ptr::null_mut();
            assert_eq!(
                dxjit_cache_compile(cache, cs.as_ptr(), cs.len(), std::ptr::null(), &mut s),
                DxjitResult::DXJIT_OK
            );
            let (mut w, mut n) = (std::ptr::null(), 0usize);
            assert_eq!(dxjit_shader_spirv(s, &mut w, &mut n), DxjitResult::DXJIT_OK);
            assert!(n > 5);
            dxjit_shader_free(s);
        }
        let mut st = DxjitCacheStats::default();
        assert_eq!(dxjit_cache_stats(cache, &mut st), DxjitResult::DXJIT_OK);
        assert_eq!((st.hits, st.misses), (1, 1));
        dxjit_cache_free(cache);
    }
}

fn c_str(p: *const std::ffi::c_char) -> String {
    // SAFETY: a NUL-terminated string the blob owns.
    unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
}

/// The native library calls over every DXIL library (fixtures and corpus): export names and
/// stages and the RDAT subobjects agree with the container's metadata and `RDAT`; every
/// ray-tracing export compiled through `dxjit_compile` with its entry point gives the Rust API's
/// SPIR-V and, through `dxjit_shader_record_*`, its shader-record layout (the library's local
/// root signature under the default rule).
#[test]
fn native_library_calls_match_the_rust_api() {
    use dxjit::container::rdat::{HitGroupType, SubobjectData as D};
    let mut files = Vec::new();
    corpus::dxil_files(&corpus::workspace_root().join("fixtures/raytracing"), &mut files);
    files.sort();
    if let Some(c) = Corpus::for_test("native_library_calls_match_the_rust_api (corpus part)") {
        files.extend(c.entries().filter(|(_, e)| e.stage == "library").map(|(s, e)| s.path_of(e)));
    }
    let (mut exports, mut subobjects, mut compiled, mut records) = (0, 0, 0, 0);
    for f in &files {
        let name = f.display().to_string();
        let bytes = std::fs::read(f).expect("library");
        let c = dxjit::container::Container::parse(&bytes).expect("container");
        let rdat = c.runtime_data().expect("RDAT").unwrap_or_default();
        let m = dxjit::bitcode::read_module(c.dxil_program().expect("DXIL").bitcode).expect("bitcode");
        let info = dxjit::dxil::decode(&m).expect("metadata");
        let mut blob = std::ptr::null_mut();
        // SAFETY: valid pointers; the blob is freed below and its strings read while it lives.
        unsafe {
            assert_eq!(dxjit_blob_parse(bytes.as_ptr(), bytes.len(), &mut blob), DxjitResult::DXJIT_OK, "{name}");
            for (i, ep) in info.functions().enumerate() {
                let (mut n, mut stage) = (std::ptr::null(), DxjitStage::DXJIT_STAGE_INVALID);
                assert_eq!(dxjit_blob_entry_point_export_name(blob, i as u32, &mut n), DxjitResult::DXJIT_OK);
                assert_eq!(c_str(n), dxjit::dxil::library::export_name(&ep.name), "{name}");
                assert_eq!(dxjit_blob_entry_point_stage(blob, i as u32, &mut stage), DxjitResult::DXJIT_OK);
                let kind = ep.properties.shader_kind.expect("library exports have a kind");
                assert_eq!(stage as u32, kind as u32, "{name} export {i}");
                exports += 1;
            }
            let mut count = 0u32;
            assert_eq!(dxjit_blob_subobject_count(blob, &mut count), DxjitResult::DXJIT_OK);
            assert_eq!(count as usize, rdat.subobjects.len(), "{name}");
            for (k, o) in rdat.subobjects.iter().enumerate() {
                let mut s: DxjitSubobject = std::mem::zeroed();
                assert_eq!(dxjit_blob_subobject(blob, k as u32, &mut s), DxjitResult::DXJIT_OK);
                assert_eq!(c_str(s.name), o.name, "{name}");
                let strs = |p: *const *const std::ffi::c_char, n: u32| -> Vec<String> {
                    (0..n as usize).map(|j| c_str(*p.add(j))).collect()
                };
                let ok = match &o.data {
                    D::StateObjectConfig { flags } => s.kind == 0 && s.flags == *flags,
                    D::GlobalRootSignature { data } | D::LocalRootSignature { data } => {
                        let kind = if matches!(o.data, D::GlobalRootSignature { .. }) { 1 } else { 2 };
                        s.kind == kind && std::slice::from_raw_parts(s.data, s.size) == &data[..]
                    }
                    D::SubobjectToExportsAssociation { subobject, exports } => {
                        s.kind == 8 && c_str(s.subobject) == *subobject && strs(s.exports, s.export_count) == *exports
                    }
                    D::RaytracingShaderConfig { max_payload_size, max_attribute_size } => {
                        s.kind == 9
                            && s.max_payload_size == *max_payload_size
                            && s.max_attribute_size == *max_attribute_size
                    }
                    D::RaytracingPipelineConfig { max_trace_recursion_depth } => {
                        s.kind == 10 && s.max_recursion_depth == *max_trace_recursion_depth
                    }
                    D::RaytracingPipelineConfig1 { max_trace_recursion_depth, flags } => {
                        s.kind == 12 && s.max_recursion_depth == *max_trace_recursion_depth && s.flags == *flags
                    }
                    D::HitGroup { hit_group_type, any_hit, closest_hit, intersection } => {
                        s.kind == 11
                            && s.hit_group_type == u32::from(*hit_group_type == HitGroupType::ProceduralPrimitive)
                            && c_str(s.any_hit) == *any_hit
                            && c_str(s.closest_hit) == *closest_hit
                            && c_str(s.intersection) == *intersection
                    }
                    D::Other { .. } => s.kind == DXJIT_NONE,
                };
                assert!(ok, "{name}: subobject {k} {o:?} reads back as {s:?}");
                subobjects += 1;
            }
            dxjit_blob_free(blob);
        }
        for ep in info.functions() {
            let kind = ep.properties.shader_kind;
            if kind == Some(dxjit::ShaderKind::Node) {
                continue;
            }
            let entry = std::ffi::CString::new(dxjit::dxil::library::export_name(&ep.name)).expect("name");
            let rust = dxjit::compile(
                &bytes,
                &dxjit::CompileOptions {
                    entry_point: Some(entry.to_string_lossy().into_owned()),
                    ..Default::default()
                },
            )
            .unwrap_or_else(|e| panic!("{name} {entry:?}: {e}"));
            // SAFETY: valid pointers; the shader is freed below.
            unsafe {
                let mut o: DxjitCompileOptions = std::mem::zeroed();
                assert_eq!(dxjit_compile_options_default(&mut o), DxjitResult::DXJIT_OK);
                o.entry_point = entry.as_ptr();
                let mut s = std::ptr::null_mut();
                assert_eq!(dxjit_compile(bytes.as_ptr(), bytes.len(), &o, &mut s), DxjitResult::DXJIT_OK);
                let (mut w, mut n) = (std::ptr::null(), 0usize);
                assert_eq!(dxjit_shader_spirv(s, &mut w, &mut n), DxjitResult::DXJIT_OK);
                assert!(std::slice::from_raw_parts(w, n) == &rust.spirv[..], "{name} {entry:?}: SPIR-V differs");
                let (mut has, mut size, mut count) = (false, 0u32, 0u32);
                assert_eq!(dxjit_shader_record_layout(s, &mut has, &mut size, &mut count), DxjitResult::DXJIT_OK);
                assert_eq!(has, rust.shader_record.is_some(), "{name} {entry:?}");
                if let Some(r) = &rust.shader_record {
                    assert_eq!((size, count as usize), (r.size, r.entries.len()), "{name} {entry:?}");
                    for (k, e) in r.entries.iter().enumerate() {
                        let mut c: DxjitRecordEntry = std::mem::zeroed();
                        assert_eq!(dxjit_shader_record_entry(s, k as u32, &mut c), DxjitResult::DXJIT_OK);
                        assert_eq!((c.parameter, c.offset, c.size), (e.parameter, e.offset, e.size));
                        let want = match e.kind {
                            dxjit::binding::PushEntryKind::RootDescriptor { .. } => 0,
                            dxjit::binding::PushEntryKind::RootConstants { .. } => 1,
                            dxjit::binding::PushEntryKind::TableOffset { .. } => 2,
                        };
                        assert_eq!(c.kind, want, "{name} {entry:?} record entry {k}");
                    }
                    records += 1;
                }
                dxjit_shader_free(s);
            }
            compiled += 1;
        }
    }
    println!(
        "native library calls: {} libraries, {exports} exports (names, stages), {subobjects} subobjects, {compiled} \
         exports compiled as the Rust API compiles them, {records} with a shader record",
        files.len()
    );
    assert!(compiled >= 17 && records >= 1 && subobjects >= 20);
}
