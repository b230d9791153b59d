//! C programs against the built library (`libdxjit_capi.so`), compiled with the `cc` crate's
//! compiler: the README example, a replay of a D3D12 layer's dxil_spv call sequence over the
//! fixtures and the corpus (1 and 8 threads), the run-time fallback with a stand-in library,
//! bad input through both interfaces, and valgrind over the replay and the bad-input program.

mod common;

use common::{build_c, c_source, lib_dir, read_words, run, scratch};
use std::path::{Path, PathBuf};
use std::process::Command;

use dxjit_conformance::corpus::{self, Corpus};
use dxjit_conformance::spirv_val;

fn fixtures(dirs: &[&str]) -> Vec<PathBuf> {
    let mut v = Vec::new();
    for d in dirs {
        corpus::dxil_files(&corpus::workspace_root().join("fixtures").join(d), &mut v);
    }
    v.sort();
    v
}

/// A DXBC container with a shader-model 5 program (a SHEX part) and no DXIL.
fn dxbc_container() -> Vec<u8> {
    let mut v = Vec::new();
    v.extend_from_slice(b"DXBC");
    v.extend_from_slice(&[0; 16]);
    v.extend_from_slice(&1u16.to_le_bytes());
    v.extend_from_slice(&0u16.to_le_bytes());
    v.extend_from_slice(&52u32.to_le_bytes());
    v.extend_from_slice(&1u32.to_le_bytes());
    v.extend_from_slice(&36u32.to_le_bytes());
    v.extend_from_slice(b"SHEX");
    v.extend_from_slice(&8u32.to_le_bytes());
    v.extend_from_slice(&0x0005_0050u32.to_le_bytes()); // cs_5_0
    v.extend_from_slice(&2u32.to_le_bytes());
    assert_eq!(v.len(), 52);
    v
}

/// One line of layer_replay's output.
#[derive(Debug)]
enum Replayed {
    Ok { index: usize },
    Fail { index: usize, code: i32, message: String },
}

fn parse_replay(stdout: &str) -> (Vec<Replayed>, String) {
    let mut v = Vec::new();
    let mut routes = String::new();
    for l in stdout.lines() {
        let f: Vec<&str> = l.split_whitespace().collect();
        match f.first() {
            Some(&"OK") => v.push(Replayed::Ok { index: f[1].parse().expect("index") }),
            Some(&"FAIL") => v.push(Replayed::Fail {
                index: f[1].parse().expect("index"),
                code: f[2].parse().expect("code"),
                message: l.split_once('\t').map_or(String::new(), |(_, m)| m.to_string()),
            }),
            Some(&"ROUTES") => routes = l.to_string(),
            _ => {}
        }
    }
    (v, routes)
}

fn write_list(dir: &Path, files: &[PathBuf]) -> PathBuf {
    let list = dir.join("list.txt");
    let text: Vec<String> = files.iter().map(|p| p.display().to_string()).collect();
    std::fs::write(&list, text.join("\n")).expect("write list");
    list
}

/// Which of the layer's binding forms a module uses: (root block in push constants, buffer
/// device addresses, runtime descriptor arrays).
fn binding_forms(words: &[u32]) -> (bool, bool, bool) {
    let (mut push, mut bda, mut arrays) = (false, false, false);
    let mut i = 5;
    while i < words.len() {
        let n = (words[i] >> 16) as usize;
        match (words[i] & 0xffff, words.get(i + 1)) {
            (17, Some(&5347)) => bda = true,    // OpCapability PhysicalStorageBufferAddresses
            (17, Some(&5302)) => arrays = true, // OpCapability RuntimeDescriptorArray
            (59, _) if words.get(i + 3) == Some(&9) => push = true, // OpVariable PushConstant
            _ => {}
        }
        i += n.max(1);
    }
    (push, bda, arrays)
}

fn validator_present() -> bool {
    Command::new(spirv_val::validator()).arg("--version").output().is_ok_and(|o| o.status.success())
}

/// Replays the layer over `files` with `threads` threads; checks every compile that succeeded
/// validates and every failure is one dxjit itself reports unsupported. Returns (ok, failed,
/// validated) and the SPIR-V per index.
fn replay_and_check(
    name: &str,
    exe: &Path,
    files: &[PathBuf],
    threads: usize,
    validate: bool,
) -> (usize, usize, usize, Vec<Option<Vec<u32>>>) {
    let dir = scratch(name);
    let out = dir.join("spv");
    std::fs::create_dir_all(&out).expect("spv folder");
    let list = write_list(&dir, files);
    let o = run(Command::new(exe).arg("-j").arg(threads.to_string()).arg("-o").arg(&out).arg(&list));
    let (lines, _) = parse_replay(&String::from_utf8_lossy(&o.stdout));
    assert_eq!(lines.len(), files.len(), "one line per shader");
    let mut spirv = vec![None; files.len()];
    let (mut ok, mut failed, mut validated) = (0, 0, 0);
    let mut problems = Vec::new();
    for l in &lines {
        match *l {
            Replayed::Ok { index } => {
                ok += 1;
                let words = read_words(&out.join(format!("{index}.spv")));
                if validate {
                    match spirv_val::validate(&words) {
                        Ok(()) => validated += 1,
                        Err(e) => problems.push(format!("{}: spirv-val: {e}", files[index].display())),
                    }
                }
                spirv[index] = Some(words);
            }
            Replayed::Fail { index, code, ref message } => {
                failed += 1;
                let bytes = std::fs::read(&files[index]).expect("read shader");
                match dxjit::compile(&bytes, &dxjit::CompileOptions::default()) {
                    Err(dxjit::CompileError::Unsupported { .. }) if code == -3 => {}
                    // The replay captures geometry-shader outputs by stream output, whose
                    // lowering names what it cannot capture.
                    Ok(_) if code == -3 && message.contains("unsupported: stream output") => {
                        eprintln!("unsupported stream output: {}: {message}", files[index].display());
                    }
                    // The replay puts t0 (raw/structured) at a buffer address, a root descriptor;
                    // D3D12 root descriptors have no size, so a shader asking for it cannot be
                    // placed there (a layer only does so for the root signature's root SRVs).
                    Ok(_) if code == -3 && message.contains("the size of a root descriptor") => {
                        eprintln!("size of a root descriptor: {}", files[index].display());
                    }
                    other => problems.push(format!(
                        "{}: the layer replay failed ({code}) where dxjit::compile gives {:?}",
                        files[index].display(),
                        other.map(|s| s.spirv.len())
                    )),
                }
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(problems.is_empty(), "{} problems:\n{}", problems.len(), problems.join("\n"));
    (ok, failed, validated, spirv)
}

fn layer_replay_exe(dir: &Path) -> PathBuf {
    build_c(&[c_source("layer_replay.c")], &dir.join("layer_replay"), false)
}

#[test]
fn readme_example_compiles_and_runs() {
    let readme = std::fs::read_to_string(corpus::workspace_root().join("README.md")).expect("README.md");
    let section = readme.split("## Using dxjit from C").nth(1).expect("README section \"Using dxjit from C\"");
    let code = section.split("```c\n").nth(1).and_then(|s| s.split("```").next()).expect("a ```c block");
    let dir = scratch("readme");
    let src = dir.join("example.c");
    std::fs::write(&src, code).expect("write example");
    let exe = build_c(&[src], &dir.join("example"), false);
    let shader = corpus::workspace_root().join("fixtures/compute/atomics_buffer.cs_6_0.dxil");
    let o = run(Command::new(&exe).arg(&shader));
    let text = String::from_utf8_lossy(&o.stdout);
    println!("{text}");
    assert!(text.contains("SPIR-V words, entry main, workgroup"), "{text}");
    // The example's SPIR-V is dxjit's for the same options.
    let bytes = std::fs::read(&shader).expect("fixture");
    let opts = dxjit::CompileOptions { spirv_version: (1, 5), ..Default::default() };
    let words = dxjit::compile(&bytes, &opts).expect("compiles").spirv.len();
    assert!(text.contains(&format!(": {words} SPIR-V words")), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn layer_replay_fixtures() {
    let dir = scratch("replay-fixtures");
    let exe = layer_replay_exe(&dir);
    let files = fixtures(&["compute", "graphics", "tessellation", "linkage"]);
    assert!(files.len() > 50, "fixtures missing");
    let validate = validator_present();
    if !validate {
        eprintln!("SKIPPED layer_replay_fixtures validation: spirv-val not found (set DXJIT_SPIRV_VAL)");
    }
    let (ok, failed, validated, single) = replay_and_check("fx1", &exe, &files, 1, validate);
    println!(
        "layer replay over {} fixture shaders: {ok} compiled, {validated} spirv-val clean, {failed} unsupported",
        files.len()
    );
    assert!(ok > 0);
    // 8 threads at once give the same SPIR-V.
    let (ok8, _, _, eight) = replay_and_check("fx8", &exe, &files, 8, false);
    assert_eq!(ok8, ok);
    assert!(single == eight, "8-thread replay differs from the 1-thread replay");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn layer_replay_corpus() {
    let Some(c) = Corpus::for_test("layer_replay_corpus") else { return };
    if !validator_present() {
        eprintln!("SKIPPED layer_replay_corpus: spirv-val not found (set DXJIT_SPIRV_VAL)");
        return;
    }
    let files: Vec<PathBuf> =
        c.entries().filter(|(_, e)| e.stage != "library").map(|(set, e)| set.path_of(e)).collect();
    let dir = scratch("replay-corpus");
    let exe = layer_replay_exe(&dir);
    let (ok, failed, validated, single) = replay_and_check("c1", &exe, &files, 1, true);
    println!(
        "layer replay over {} non-library corpus shaders: {ok} compiled, {validated} spirv-val clean, {failed} \
         unsupported by dxjit",
        files.len()
    );
    assert_eq!(validated, ok);
    // The callbacks' choices are in the SPIR-V: root constants and table offsets in push
    // constants, root descriptors at buffer addresses, tables in bindless arrays.
    let forms: Vec<(bool, bool, bool)> = single.iter().flatten().map(|w| binding_forms(w)).collect();
    let push = forms.iter().filter(|f| f.0).count();
    let bda = forms.iter().filter(|f| f.1).count();
    let arrays = forms.iter().filter(|f| f.2).count();
    println!(
        "  modules reading the root block (push constants): {push}, buffer addresses: {bda}, bindless arrays: {arrays}"
    );
    assert!(push > 0 && bda > 0 && arrays > 0);
    let (ok8, _, _, eight) = replay_and_check("c8", &exe, &files, 8, false);
    assert_eq!(ok8, ok);
    assert!(single == eight, "8-thread replay differs from the 1-thread replay");
    println!("8 threads: {ok8} compiled, SPIR-V identical to 1 thread");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn fallback_stand_in_library() {
    let dir = scratch("fallback");
    let exe = layer_replay_exe(&dir);
    let stub = build_c(&[c_source("fallback_stub.c")], &dir.join("libstub.so"), true);
    let dxbc = dir.join("shader.dxbc");
    std::fs::write(&dxbc, dxbc_container()).expect("write DXBC");
    let dxil = corpus::workspace_root().join("fixtures/compute/atomics_buffer.cs_6_0.dxil");
    let mut files = vec![dxbc.clone(), dxil];
    // A DXIL shader dxjit reports unsupported (a DXIL library from the corpus, or a shared
    // fixture), handed to the fallback as well.
    let mut unsupported = 0;
    let mut candidates = Vec::new();
    if let Some(c) = Corpus::open() {
        candidates.extend(c.entries().filter(|(_, e)| e.stage == "library").map(|(s, e)| s.path_of(e)).take(3));
    }
    for d in ["raytracing", "mesh"] {
        let mut v = Vec::new();
        corpus::dxil_files(&corpus::workspace_root().join("../shared/fixtures").join(d), &mut v);
        v.sort();
        candidates.extend(v);
    }
    if let Some(m) = candidates.iter().find(|p| {
        let b = std::fs::read(p).unwrap_or_default();
        matches!(dxjit::compile(&b, &Default::default()), Err(dxjit::CompileError::Unsupported { .. }))
    }) {
        files.push(m.clone());
        unsupported = 1;
    } else {
        eprintln!("SKIPPED fallback_stand_in_library (unsupported DXIL): no shader dxjit reports unsupported");
    }
    let list = write_list(&dir, &files);
    let out = dir.join("spv");
    std::fs::create_dir_all(&out).expect("spv folder");

    // Without a fallback: DXBC is refused with the documented result.
    let o = run(Command::new(&exe).env_remove("DXJIT_FALLBACK_LIBRARY").arg(&list));
    let (lines, routes) = parse_replay(&String::from_utf8_lossy(&o.stdout));
    assert!(matches!(lines[0], Replayed::Fail { index: 0, code: -3, .. }), "{lines:?}");
    assert!(matches!(lines[1], Replayed::Ok { index: 1 }), "{lines:?}");
    assert!(routes.contains("dxjit=1 ") && routes.contains("dxbc_refused=1 "), "{routes}");

    // With the stand-in: DXBC (and unsupported DXIL) go to it, with the layer's calls replayed.
    let o = run(Command::new(&exe).env("DXJIT_FALLBACK_LIBRARY", &stub).arg("-o").arg(&out).arg(&list));
    let stdout = String::from_utf8_lossy(&o.stdout);
    let stderr = String::from_utf8_lossy(&o.stderr);
    let (lines, routes) = parse_replay(&stdout);
    assert!(lines.iter().all(|l| matches!(l, Replayed::Ok { .. })), "{stdout}");
    let want = format!("dxjit=1 fallback_dxbc=1 fallback_unsupported={unsupported} dxbc_refused=0 failed=0");
    assert!(routes.contains(&want), "{routes} (want {want})");
    // 22 option structs, the SRV remapper, 16 root-constant words and 2 root descriptors reached it.
    assert!(stderr.contains("stub: options=22 srv=1 root_words=16 root_descriptors=2"), "{stderr}");
    let words = read_words(&out.join("0.spv"));
    if validator_present() {
        spirv_val::validate(&words).expect("the stand-in's SPIR-V validates");
    }
    println!("fallback: {routes}");

    // Tier C: a library export dxjit does not compile (a work-graph node) goes to the fallback
    // with the export and the local root signature replayed (parameters, table ranges).
    let node = corpus::corpus_root().join("vkd3d-proton/workgraph/basic.dxil");
    if node.exists() {
        let layer = build_c(&[c_source("layer_exec.c")], &dir.join("layer_exec"), false);
        let (global, local) = (dir.join("global.txt"), dir.join("local.txt"));
        // The stub asks its SRV remapper about t5: the global root signature holds it.
        std::fs::write(&global, "table 0\nrange srv 0 5 1 0\n").expect("write");
        std::fs::write(&local, "constants 1 0 1 0\ntable 0\nrange srv 0 0 1 0\nrange uav 0 0 1 1\n").expect("write");
        let o = run(Command::new(&layer)
            .env("DXJIT_FALLBACK_LIBRARY", &stub)
            .arg(&global)
            .args(["-e", "BroadcastNode", "-l"])
            .arg(&local)
            .arg(&node));
        let (stdout, stderr) = (String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
        assert!(stdout.lines().any(|l| l.starts_with("OK 0 ")), "{stdout}\n{stderr}");
        assert!(stderr.contains("stub: entry=BroadcastNode local=2 tables=1 ranges=2"), "{stderr}");
        println!("fallback: a work-graph export with its local root signature replayed onto the fallback");
    } else {
        eprintln!("SKIPPED fallback_stand_in_library (library export): corpus not found");
    }

    // dxjit's own library is refused as its fallback (it would hand shaders to itself).
    let own = std::ffi::CString::new(lib_dir().join("libdxjit_capi.so").to_string_lossy().as_bytes()).expect("path");
    // SAFETY: a valid C string.
    let r = unsafe { dxjit_capi::native::dxjit_set_fallback_library(own.as_ptr()) };
    assert_eq!(r, dxjit_capi::native::DxjitResult::DXJIT_ERROR_IO);
    // SAFETY: the library's NUL-terminated message.
    let msg =
        unsafe { std::ffi::CStr::from_ptr(dxjit_capi::native::dxjit_last_error()) }.to_string_lossy().into_owned();
    assert!(msg.contains("is a dxjit library"), "{msg}");
    let _ = std::fs::remove_dir_all(&dir);
}

fn hostile_files() -> Vec<PathBuf> {
    let mut v = Vec::new();
    corpus::dxil_files(&corpus::workspace_root().join("../shared/hostile"), &mut v);
    v.sort();
    v
}

fn bad_input_args(cmd: &mut Command, hostile: &[PathBuf]) {
    let root = corpus::workspace_root();
    cmd.arg(root.join("fixtures/graphics/input_layout.vs_6_0.dxil"));
    cmd.arg(root.join("fixtures/compute/atomics_buffer.cs_6_0.dxil"));
    cmd.arg(root.join("fixtures/raytracing/local_rootsig.lib_6_3.dxil"));
    cmd.args(hostile);
}

#[test]
fn bad_input_through_c() {
    let dir = scratch("bad");
    let exe = build_c(&[c_source("bad_input.c")], &dir.join("bad_input"), false);
    let hostile = hostile_files();
    if hostile.is_empty() {
        eprintln!("SKIPPED bad_input_through_c (hostile blobs): ../shared/hostile not found");
    }
    let mut cmd = Command::new(&exe);
    bad_input_args(&mut cmd, &hostile);
    let o = run(&mut cmd);
    let text = String::from_utf8_lossy(&o.stdout);
    println!("{text}");
    assert!(text.contains(&format!("HOSTILE {} ", hostile.len())), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn valgrind_clean() {
    if Command::new("valgrind").arg("--version").output().is_err() {
        eprintln!("SKIPPED valgrind_clean: valgrind not installed");
        return;
    }
    let dir = scratch("valgrind");
    let replay = layer_replay_exe(&dir);
    let bad = build_c(&[c_source("bad_input.c")], &dir.join("bad_input"), false);
    let stub = build_c(&[c_source("fallback_stub.c")], &dir.join("libstub.so"), true);
    let dxbc = dir.join("shader.dxbc");
    std::fs::write(&dxbc, dxbc_container()).expect("write DXBC");
    let mut files: Vec<PathBuf> = fixtures(&["compute", "graphics", "tessellation"]).into_iter().step_by(6).collect();
    files.push(dxbc);
    let list = write_list(&dir, &files);
    let vg = |cmd: &mut Command| {
        cmd.args(["--error-exitcode=99", "--leak-check=full", "--errors-for-leak-kinds=definite,indirect"]);
        cmd.args(["--show-leak-kinds=definite,indirect", "-q"]);
    };
    let mut c = Command::new("valgrind");
    vg(&mut c);
    c.arg(&replay).args(["-j", "2"]).arg(&list).env("DXJIT_FALLBACK_LIBRARY", &stub);
    let o = run(&mut c);
    let (lines, _) = parse_replay(&String::from_utf8_lossy(&o.stdout));
    assert_eq!(lines.len(), files.len());
    let mut c = Command::new("valgrind");
    vg(&mut c);
    c.arg(&bad);
    bad_input_args(&mut c, &hostile_files().into_iter().take(6).collect::<Vec<_>>());
    run(&mut c);
    // Tier C: the fixture libraries walked (exports, subobjects, every export compiled).
    let walk = build_c(&[c_source("library_walk.c")], &dir.join("library_walk"), false);
    let libs = fixtures(&["raytracing"]);
    let mut c = Command::new("valgrind");
    vg(&mut c);
    c.arg(&walk).args(&libs);
    let o = run(&mut c);
    let walked = String::from_utf8_lossy(&o.stdout).lines().filter(|l| l.starts_with("OK ")).count();
    assert!(walked >= 17, "{}", String::from_utf8_lossy(&o.stdout));
    println!(
        "valgrind: {} shaders replayed (2 threads, fallback included), the bad-input program and {} library exports \
         walked and compiled: no errors, no leaks",
        files.len(),
        walked
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn abi_layouts_match_the_header() {
    use dxjit_capi::abi::*;
    use std::mem::{offset_of, size_of};
    let dir = scratch("abi");
    let exe = build_c(&[c_source("abi_sizes.c")], &dir.join("abi_sizes"), false);
    let o = run(&mut Command::new(&exe));
    let text = String::from_utf8_lossy(&o.stdout).into_owned();
    let want = [
        ("dxil_spv_d3d_vertex_input", size_of::<D3dVertexInput>()),
        ("dxil_spv_vulkan_vertex_input", size_of::<VulkanVertexInput>()),
        ("dxil_spv_d3d_stream_output", size_of::<D3dStreamOutput>()),
        ("dxil_spv_vulkan_stream_output", size_of::<VulkanStreamOutput>()),
        ("dxil_spv_d3d_shader_stage_io", size_of::<D3dStageIo>()),
        ("dxil_spv_vulkan_shader_stage_io", size_of::<VulkanStageIo>()),
        ("dxil_spv_d3d_binding", size_of::<D3dBinding>()),
        ("dxil_spv_vulkan_binding", size_of::<VulkanBinding>()),
        ("dxil_spv_uav_d3d_binding", size_of::<UavD3dBinding>()),
        ("dxil_spv_srv_vulkan_binding", size_of::<SrvVulkanBinding>()),
        ("dxil_spv_uav_vulkan_binding", size_of::<UavVulkanBinding>()),
        ("dxil_spv_cbv_vulkan_binding", size_of::<CbvVulkanBinding>()),
        ("dxil_spv_compiled_spirv", size_of::<CompiledSpirv>()),
        ("dxil_spv_rdat_subobject", size_of::<RdatSubobject>()),
        ("dxil_spv_option_output_swizzle", size_of::<OptOutputSwizzle>()),
        ("dxil_spv_option_root_constant_inline_uniform_block", size_of::<OptInlineUniformBlock>()),
        ("dxil_spv_option_descriptor_qa", size_of::<OptDescriptorQa>()),
        ("dxil_spv_option_instruction_instrumentation", size_of::<OptInstrumentation>()),
        ("dxil_spv_option_nvapi", size_of::<OptBoolU32x2>()),
        ("dxil_spv_option_branch_control", size_of::<OptBools<5>>()),
        ("dxil_spv_option_shader_source_file", size_of::<OptSourceFile>()),
        ("dxil_spv_option_bindless_offset_buffer_layout", size_of::<OptU32x3>()),
    ];
    for (name, size) in want {
        assert!(text.contains(&format!("{name} {size}\n")), "{name}: Rust size {size}, C says:\n{text}");
    }
    let offsets = format!(
        "offset_binding {} counter_binding {} push_constant {}",
        offset_of!(SrvVulkanBinding, offset_binding),
        offset_of!(UavVulkanBinding, counter_binding),
        offset_of!(CbvVulkanBinding, push_constant)
    );
    assert!(text.contains(&offsets), "{offsets} vs\n{text}");
    let rdat = format!(
        "rdat kind {} name {} hit_group_type {} exports {} num_exports {} args {} payload {} payload_size {}",
        offset_of!(RdatSubobject, kind),
        offset_of!(RdatSubobject, subobject_name),
        offset_of!(RdatSubobject, hit_group_type),
        offset_of!(RdatSubobject, exports),
        offset_of!(RdatSubobject, num_exports),
        offset_of!(RdatSubobject, args),
        offset_of!(RdatSubobject, payload),
        offset_of!(RdatSubobject, payload_size)
    );
    assert!(text.contains(&rdat), "{rdat} vs\n{text}");
    // Every option type the header declares has the size the library copies.
    for t in 1..=51u32 {
        assert!(option_size(t).is_some(), "option {t}");
    }
    assert!(option_size(0).is_none() && option_size(52).is_none());
    let _ = std::fs::remove_dir_all(&dir);
}
