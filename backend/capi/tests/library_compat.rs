//! Tier C of the dxil_spv interface over every DXIL library of the corpus and the fixtures
//! (`fixtures/raytracing/*.lib_6_3.dxil`), through C programs built here:
//!
//! - `library_walk.c` enumerates the entry points and RDAT subobjects as a layer building a state
//!   object does and compiles every export through `dxil_spv_converter_set_entry_point`. What it
//!   sees must agree with `dxjit dis --json`'s library object (the same function the command
//!   runs): export names (mangled and plain), stages, indices by either name, and every
//!   subobject's kind, name and contents (root signatures by size and hash). Every ray-tracing
//!   export compiles to SPIR-V that passes spirv-val (Vulkan 1.2 or the module's version's
//!   environment, whichever is newer); work-graph node exports give the named unsupported result,
//!   and so do their node-metadata queries.
//! - `layer_exec.c` compiles every ray-tracing export under a local root signature passed through
//!   the `add_local_root_*` calls (built here from the library's resources: root constants, root
//!   CBV/SRV/UAV descriptors and descriptor tables of every other kind); the same export compiled
//!   through the Rust API with that local root signature (`LocalRoot::Given`) and the layer's heap
//!   arrays as policy must give the same shader-record layout and the same SPIR-V, word for word.
//!
//! The corpus part prints `SKIPPED` and passes when the corpus is absent.

mod common;

use common::{build_c, c_source, read_words, run, scratch};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;
use std::sync::Arc;

use dxjit::binding::{
    BindingModel, BindingPolicy, HeapArrays, LocalRoot, PushEntryKind, ResourceClass, ResourceLocation,
};
use dxjit::container::rootsig::{
    DescriptorRange, DescriptorRangeType, RootDescriptor, RootParameter, RootParameterKind, RootSignature,
    RootSignatureVersion, ShaderVisibility,
};
use dxjit::{CompileOptions, Robustness, ShaderKind};
use dxjit_conformance::corpus::{self, Corpus};
use dxjit_conformance::spirv_val;
use serde_json::Value;

/// The libraries: fixtures first, then the corpus's (manifest stage "library").
fn libraries() -> (Vec<PathBuf>, bool) {
    let mut files = Vec::new();
    corpus::dxil_files(&corpus::fixtures_root().join("raytracing"), &mut files);
    files.sort();
    let mut have_corpus = false;
    if let Some(c) = Corpus::open() {
        have_corpus = true;
        for (set, e) in c.entries() {
            if e.stage == "library" {
                files.push(set.path_of(e));
            }
        }
    } else {
        eprintln!("SKIPPED library_compat corpus part: corpus not found at {}", corpus::corpus_root().display());
    }
    (files, have_corpus)
}

/// dxil_spv_shader_stage of a `dxjit dis` kind name (node shaders: compute, as the interface
/// reports them).
fn stage_number(kind: &str) -> i64 {
    match kind {
        "vertex" => 1,
        "hull" => 2,
        "domain" => 3,
        "geometry" => 4,
        "pixel" => 5,
        "compute" | "node" => 6,
        "intersection" => 7,
        "closesthit" => 8,
        "miss" => 9,
        "anyhit" => 10,
        "raygeneration" => 11,
        "callable" => 12,
        "amplification" => 13,
        "mesh" => 14,
        _ => 0,
    }
}

fn escape(s: &str) -> String {
    s.chars()
        .map(|c| if (c as u32) < 0x20 || c == '\\' { format!("\\x{:02x}", c as u32) } else { c.to_string() })
        .collect()
}

fn fnv1a(b: &[u8]) -> u32 {
    b.iter().fold(2166136261u32, |h, &x| (h ^ u32::from(x)).wrapping_mul(16777619))
}

/// The subobject line library_walk prints for one subobject of `dxjit dis --json`
/// (None: a kind the interface does not name).
fn expected_subobject(f: usize, k: usize, o: &Value) -> Option<String> {
    let u = |key: &str| o[key].as_u64().unwrap_or_else(|| panic!("{key} in {o}"));
    let s = |key: &str| escape(o[key].as_str().unwrap_or_else(|| panic!("{key} in {o}")));
    let name = s("name");
    let (kind, hg, args, payload, exports): (u32, u64, [u64; 2], Option<Vec<u8>>, Vec<String>) =
        match o["kind"].as_str().unwrap_or("") {
            "state_object_config" => (0, 0, [u("flags"), 0], None, vec![]),
            k @ ("global_root_signature" | "local_root_signature") => {
                let data: Vec<u8> = o["data"]
                    .as_array()
                    .expect("root signature bytes")
                    .iter()
                    .map(|v| v.as_u64().expect("byte") as u8)
                    .collect();
                (if k.starts_with("global") { 1 } else { 2 }, 0, [0, 0], Some(data), vec![])
            }
            "subobject_to_exports_association" => {
                let mut e = vec![s("subobject")];
                e.extend(o["exports"].as_array().expect("exports").iter().map(|v| escape(v.as_str().expect("name"))));
                (8, 0, [0, 0], None, e)
            }
            "raytracing_shader_config" => (9, 0, [u("max_payload_size"), u("max_attribute_size")], None, vec![]),
            "raytracing_pipeline_config" => (10, 0, [u("max_trace_recursion_depth"), 0], None, vec![]),
            "hit_group" => {
                let t = if o["hit_group_type"] == "triangles" { 0 } else { 1 };
                (11, t, [0, 0], None, vec![s("any_hit"), s("closest_hit"), s("intersection")])
            }
            "raytracing_pipeline_config1" => (12, 0, [u("max_trace_recursion_depth"), u("flags")], None, vec![]),
            _ => return None,
        };
    let (size, hash) = payload.map_or((0, 0), |d| (d.len(), fnv1a(&d)));
    let mut line =
        format!("SUBOBJECT {f} {k} {kind} {hg} {} {} {} {size} {hash}\t{name}", exports.len(), args[0], args[1]);
    for e in exports {
        line.push('\t');
        line.push_str(&e);
    }
    Some(line)
}

fn validate(words: &[u32]) -> Result<(), String> {
    let env = match spirv_val::version_of(words) {
        (1, 0..=5) => "vulkan1.2",
        _ => "vulkan1.3",
    };
    spirv_val::validate_env(words, env)
}

fn validator_present() -> bool {
    Command::new(spirv_val::validator()).arg("--version").output().is_ok_and(|o| o.status.success())
}

#[derive(Default, Debug)]
struct Counts {
    files: usize,
    exports: usize,
    subobjects: usize,
    compiled: usize,
    valid: usize,
    nodes_refused: usize,
}

#[test]
fn library_exports_and_subobjects_through_c() {
    let (files, have_corpus) = libraries();
    assert!(files.len() >= 5, "the five fixture libraries are missing");
    let dir = scratch("library-walk");
    let exe = build_c(&[c_source("library_walk.c")], &dir.join("library_walk"), false);
    let o = run(Command::new(&exe).arg("-o").arg(&dir).args(&files));
    let text = String::from_utf8_lossy(&o.stdout).into_owned();
    let lines: Vec<&str> = text.lines().collect();
    let validate_spirv = validator_present();
    if !validate_spirv {
        eprintln!("SKIPPED library_compat validation: spirv-val not found (set DXJIT_SPIRV_VAL)");
    }
    let mut c = Counts::default();
    let mut problems = Vec::new();
    for (f, path) in files.iter().enumerate() {
        let mine: Vec<&str> = lines
            .iter()
            .copied()
            .filter(|l| l.split_whitespace().nth(1).and_then(|v| v.parse::<usize>().ok()) == Some(f))
            .collect();
        let dis =
            dxjit_cli::dis::run(path, true).unwrap_or_else(|e| panic!("dxjit dis --json {}: {e}", path.display()));
        let v: Value = serde_json::from_str(&dis).expect("dis JSON");
        let lib = &v["library"];
        let exports = lib["exports"].as_array().unwrap_or_else(|| panic!("{}: no library object", path.display()));
        c.files += 1;
        assert_eq!(mine.first().copied(), Some(format!("FILE {f} 0").as_str()), "{}", path.display());
        let mut want = vec![format!("ENTRIES {f} {}", exports.len())];
        let mut first_by_plain: BTreeMap<&str, usize> = BTreeMap::new();
        for (i, e) in exports.iter().enumerate() {
            first_by_plain.entry(e["name"].as_str().expect("name")).or_insert(i);
        }
        for (i, e) in exports.iter().enumerate() {
            let kind = e["kind"].as_str().unwrap_or("");
            let stage = stage_number(kind);
            let function = e["function"].as_str().expect("function");
            let plain = e["name"].as_str().expect("name");
            let by_plain = first_by_plain[plain];
            want.push(format!("ENTRY {f} {i} {stage} {stage} {i} {by_plain}\t{}\t{}", escape(function), escape(plain)));
            want.push(format!("NODE {f} {i} -3 -3"));
        }
        let subs: Vec<String> = lib["subobjects"]
            .as_array()
            .map(|a| a.iter().enumerate().filter_map(|(k, o)| expected_subobject(f, k, o)).collect())
            .unwrap_or_default();
        // The interface lists only the kinds it names: renumber.
        want.push(format!("SUBOBJECTS {f} {}", subs.len()));
        for (k, s) in subs.iter().enumerate() {
            let mut parts: Vec<&str> = s.splitn(4, ' ').collect();
            let k = k.to_string();
            parts[2] = &k;
            want.push(parts.join(" "));
        }
        want.push(format!("RDATOOB {f} zeroed"));
        let got: Vec<&str> =
            mine[1..].iter().copied().filter(|l| !l.starts_with("OK") && !l.starts_with("FAIL")).collect();
        if got != want.iter().map(String::as_str).collect::<Vec<_>>() {
            problems.push(format!(
                "{}: the interface says\n{}\ndxjit dis --json says\n{}",
                path.display(),
                got.join("\n"),
                want.join("\n")
            ));
        }
        c.exports += exports.len();
        c.subobjects += subs.len();
        // Every export compiled: ray-tracing ones to valid SPIR-V, node shaders refused by name.
        for (i, e) in exports.iter().enumerate() {
            let kind = e["kind"].as_str().unwrap_or("");
            let ok = format!("OK {f} {i} ");
            let fail = format!("FAIL {f} {i} ");
            let line = mine.iter().find(|l| l.starts_with(&ok) || l.starts_with(&fail)).copied().unwrap_or("");
            let what = format!("{} export {}", path.display(), e["name"]);
            if kind == "node" {
                if line.starts_with(&format!("FAIL {f} {i} -3\t")) && line.contains("work-graph") {
                    c.nodes_refused += 1;
                } else {
                    problems.push(format!("{what}: a node shader not refused as a work graph: {line}"));
                }
                continue;
            }
            if !line.starts_with(&ok) {
                problems.push(format!("{what}: {line}"));
                continue;
            }
            c.compiled += 1;
            let words = read_words(&dir.join(format!("{f}_{i}.spv")));
            if validate_spirv {
                match validate(&words) {
                    Ok(()) => c.valid += 1,
                    Err(m) => problems.push(format!("{what}: invalid SPIR-V: {m}")),
                }
            }
        }
    }
    println!(
        "library tier C: {} files, {} exports enumerated, {} subobjects, {} exports compiled ({} spirv-val clean), {} \
         work-graph exports refused by name",
        c.files, c.exports, c.subobjects, c.compiled, c.valid, c.nodes_refused
    );
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
    // Fixtures: 17 exports of 5 libraries.
    assert!(c.compiled >= 17, "{c:?}");
    if have_corpus {
        assert!(c.compiled >= 17 + 59 && c.nodes_refused >= 41, "{c:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A local root signature covering every resource of a library, with every kind of parameter:
/// the first constant buffer as 3 root constants (a 12-byte parameter, so the next one sits at an
/// 8-byte boundary after a gap), one table of the resources no root descriptor takes (ranges at
/// offsets from 2 on), constant buffers alternately as root constants and root CBVs, single raw
/// and structured buffers and acceleration structures as root SRV/UAV descriptors, and a sampler
/// table.
fn local_root_signature(info: &dxjit::dxil::DxilModuleInfo) -> RootSignature {
    let res = &info.resources;
    let desc = |b: &dxjit::dxil::Binding| RootDescriptor {
        shader_register: b.lower_bound,
        register_space: b.space,
        flags: None,
    };
    let mut params = Vec::new();
    let mut table = Vec::new();
    let mut samplers = Vec::new();
    let mut offset = 2u32;
    let range = |ty: DescriptorRangeType, b: &dxjit::dxil::Binding, out: &mut Vec<DescriptorRange>, at: &mut u32| {
        let n = b.range_size.unwrap_or(u32::MAX);
        out.push(DescriptorRange {
            range_type: ty,
            num_descriptors: n,
            base_shader_register: b.lower_bound,
            register_space: b.space,
            flags: None,
            offset_in_descriptors_from_table_start: *at,
        });
        *at = at.saturating_add(n.min(64));
    };
    let mut tail = Vec::new();
    for (k, cb) in res.cbvs.iter().enumerate() {
        let b = &cb.binding;
        if b.range_size != Some(1) {
            range(DescriptorRangeType::Cbv, b, &mut table, &mut offset);
        } else if k == 0 {
            params.push(RootParameterKind::Constants {
                shader_register: b.lower_bound,
                register_space: b.space,
                num_32bit_values: 3,
            });
        } else if k % 2 == 1 {
            tail.push(RootParameterKind::Cbv(desc(b)));
        } else {
            let words = cb.size_in_bytes.div_ceil(4).max(1);
            tail.push(RootParameterKind::Constants {
                shader_register: b.lower_bound,
                register_space: b.space,
                num_32bit_values: words,
            });
        }
    }
    use dxjit::dxil::ResourceKind as K;
    let addressable = |k: K| matches!(k, K::RawBuffer | K::StructuredBuffer | K::RTAccelerationStructure);
    for s in &res.srvs {
        if s.binding.range_size == Some(1) && addressable(s.kind) {
            tail.push(RootParameterKind::Srv(desc(&s.binding)));
        } else {
            range(DescriptorRangeType::Srv, &s.binding, &mut table, &mut offset);
        }
    }
    for u in &res.uavs {
        if u.binding.range_size == Some(1) && addressable(u.kind) && !u.has_counter {
            tail.push(RootParameterKind::Uav(desc(&u.binding)));
        } else {
            range(DescriptorRangeType::Uav, &u.binding, &mut table, &mut offset);
        }
    }
    let mut soff = 1u32;
    for s in &res.samplers {
        range(DescriptorRangeType::Sampler, &s.binding, &mut samplers, &mut soff);
    }
    if !table.is_empty() {
        params.push(RootParameterKind::DescriptorTable(table));
    }
    params.extend(tail);
    if !samplers.is_empty() {
        params.push(RootParameterKind::DescriptorTable(samplers));
    }
    RootSignature {
        version: RootSignatureVersion::V1_1,
        flags: 0,
        parameters: params.into_iter().map(|kind| RootParameter { visibility: ShaderVisibility::All, kind }).collect(),
        static_samplers: Vec::new(),
    }
}

/// The root signature in layer_exec's text format (tables' ranges with resolved offsets).
fn rootsig_text(rs: &RootSignature) -> String {
    let mut t = String::new();
    for p in &rs.parameters {
        match &p.kind {
            RootParameterKind::Cbv(d) => t += &format!("cbv {} {} 0\n", d.register_space, d.shader_register),
            RootParameterKind::Srv(d) => t += &format!("srv {} {} 0\n", d.register_space, d.shader_register),
            RootParameterKind::Uav(d) => t += &format!("uav {} {} 0\n", d.register_space, d.shader_register),
            RootParameterKind::Constants { shader_register, register_space, num_32bit_values } => {
                t += &format!("constants {register_space} {shader_register} {num_32bit_values} 0\n")
            }
            RootParameterKind::DescriptorTable(ranges) => {
                t += "table 0\n";
                for r in ranges {
                    let class = match r.range_type {
                        DescriptorRangeType::Srv => "srv",
                        DescriptorRangeType::Uav => "uav",
                        DescriptorRangeType::Cbv => "cbv",
                        _ => "sampler",
                    };
                    t += &format!(
                        "range {class} {} {} {} {}\n",
                        r.register_space,
                        r.base_shader_register,
                        r.num_descriptors as i32,
                        r.offset_in_descriptors_from_table_start as i32
                    );
                }
            }
        }
    }
    t
}

fn is_ray_tracing(k: ShaderKind) -> bool {
    matches!(
        k,
        ShaderKind::RayGeneration
            | ShaderKind::Intersection
            | ShaderKind::AnyHit
            | ShaderKind::ClosestHit
            | ShaderKind::Miss
            | ShaderKind::Callable
    )
}

/// layer_exec's heap arrays and descriptor-handle shifts as a policy ("HEAP" and "SBT" lines).
fn layer_policy(stdout: &str) -> BindingPolicy {
    let mut heap = HeapArrays { bounds: None, counters: None, ..HeapArrays::per_type() };
    let mut p = BindingPolicy::default();
    for l in stdout.lines() {
        let f: Vec<&str> = l.split_whitespace().collect();
        let n = |k: usize| f.get(k).and_then(|v| v.parse::<u32>().ok()).unwrap_or_else(|| panic!("{l}"));
        match f.first().copied() {
            Some("HEAP") => {
                let at = (n(2), n(3));
                match f[1] {
                    "ubo" => heap.uniform_buffer = at,
                    "ssbo" => heap.storage_buffer = at,
                    "uniform_texel" => heap.uniform_texel_buffer = at,
                    "storage_texel" => heap.storage_texel_buffer = at,
                    "sampled_image" => heap.sampled_image = at,
                    "storage_image" => heap.storage_image = at,
                    "acceleration_structure" => heap.acceleration_structure = at,
                    "sampler" => heap.sampler = at,
                    "counters" => heap.counters = Some(at),
                    "offsets" => heap.bounds = Some(at),
                    "static" => p.static_samplers = at,
                    other => panic!("{l}: {other}"),
                }
            }
            Some("SBT") => {
                p.record_table_shift = n(1);
                p.record_sampler_table_shift = n(2);
            }
            _ => {}
        }
    }
    p.heap = heap;
    p
}

/// The shader record the layer printed for its shader `i` ("RECORD" lines between "SHADER i" and
/// the next "SHADER").
fn layer_record(stdout: &str, i: usize) -> Vec<(u32, u32, u32, String)> {
    let mut out = Vec::new();
    let mut cur = None;
    for l in stdout.lines() {
        let f: Vec<&str> = l.split_whitespace().collect();
        match f.first().copied() {
            Some("SHADER") => cur = f.get(1).and_then(|v| v.parse::<usize>().ok()),
            Some("RECORD") if cur == Some(i) => {
                let n = |k: usize| f[k].parse::<u32>().expect("number");
                out.push((n(1), n(2), n(3), f[4..].join(" ")));
            }
            _ => {}
        }
    }
    out
}

fn record_kind_text(k: &PushEntryKind) -> String {
    match k {
        PushEntryKind::RootConstants { space, register } => format!("constants {space} {register}"),
        PushEntryKind::RootDescriptor { class, space, register } => {
            let c = match class {
                ResourceClass::Srv => 0,
                ResourceClass::Uav => 1,
                ResourceClass::Cbv => 2,
                ResourceClass::Sampler => 3,
            };
            format!("descriptor {c} {space} {register}")
        }
        PushEntryKind::TableOffset { sampler_heap } => format!("table {}", u8::from(*sampler_heap)),
    }
}

#[test]
fn local_root_signatures_through_c_match_the_rust_api() {
    let (files, _) = libraries();
    let dir = scratch("library-local");
    let exe = build_c(&[c_source("layer_exec.c")], &dir.join("layer_exec"), false);
    let empty = dir.join("global.txt");
    std::fs::write(&empty, "").expect("write global root signature");
    let (mut exports, mut same, mut with_record, mut record_params) = (0usize, 0usize, 0usize, 0usize);
    // Resources placed as record constants, record addresses, record tables.
    let mut placed = [0usize; 3];
    let mut problems = Vec::new();
    for path in &files {
        let bytes = std::fs::read(path).expect("read library");
        let c = dxjit::container::Container::parse(&bytes).expect("container");
        let m = dxjit::bitcode::read_module(c.dxil_program().expect("DXIL").bitcode).expect("bitcode");
        let info = dxjit::dxil::decode(&m).expect("metadata");
        let names: Vec<String> = info
            .functions()
            .filter(|e| e.properties.shader_kind.is_some_and(is_ray_tracing))
            .map(|e| e.name.clone())
            .collect();
        if names.is_empty() {
            continue;
        }
        let lrs = local_root_signature(&info);
        let local = dir.join("local.txt");
        std::fs::write(&local, rootsig_text(&lrs)).expect("write local root signature");
        let out = dir.join("out");
        let _ = std::fs::remove_dir_all(&out);
        std::fs::create_dir_all(&out).expect("out folder");
        let mut cmd = Command::new(&exe);
        // Every buffer view keeps its bounds, as dxjit's default policy does (the layer's SSBO
        // alignment above every stride).
        cmd.arg(&empty).arg("-o").arg(&out).arg("-a").arg("65536").arg("-l").arg(&local);
        for n in &names {
            cmd.arg("-e").arg(n).arg(path);
        }
        let o = run(&mut cmd);
        let stdout = String::from_utf8_lossy(&o.stdout).into_owned();
        let policy = layer_policy(&stdout);
        for (i, name) in names.iter().enumerate() {
            exports += 1;
            let what = format!("{} export {}", path.display(), dxjit::dxil::library::export_name(name));
            let model = BindingModel {
                root_signature: Some(RootSignature {
                    version: RootSignatureVersion::V1_1,
                    flags: 0,
                    parameters: Vec::new(),
                    static_samplers: Vec::new(),
                }),
                policy,
                remap: None,
                root_words: None,
                local_root_signature: LocalRoot::Given(lrs.clone()),
            };
            // What the dxil_spv converter sets besides the binding model.
            let opts = CompileOptions {
                entry_point: Some(name.clone()),
                robustness: Robustness::DeviceRobustness2,
                demote_to_helper: true,
                bindings: Some(Arc::new(model)),
                ..CompileOptions::default()
            };
            let rust = dxjit::compile(&bytes, &opts);
            let ok_line = stdout.lines().find(|l| l.starts_with(&format!("OK {i} ")));
            let fail_line = stdout.lines().find(|l| l.starts_with(&format!("FAIL {i} ")));
            match (&rust, ok_line) {
                (Ok(shader), Some(_)) => {
                    let c_words = read_words(&out.join(format!("{i}.spv")));
                    let rust_record: Vec<(u32, u32, u32, String)> = shader
                        .shader_record
                        .as_ref()
                        .map(|r| {
                            r.entries
                                .iter()
                                .map(|e| (e.parameter, e.offset, e.size, record_kind_text(&e.kind)))
                                .collect()
                        })
                        .unwrap_or_default();
                    let c_record = layer_record(&stdout, i);
                    if c_record != rust_record {
                        problems.push(format!("{what}: shader record: C layer {c_record:?}, Rust API {rust_record:?}"));
                    } else if c_words != shader.spirv {
                        problems.push(format!(
                            "{what}: the SPIR-V differs ({} vs {} words)",
                            c_words.len(),
                            shader.spirv.len()
                        ));
                    } else {
                        same += 1;
                        if shader.placements.iter().any(|p| p.placement.location.in_shader_record()) {
                            with_record += 1;
                        }
                        record_params += rust_record.len();
                        for p in &shader.placements {
                            match p.placement.location {
                                ResourceLocation::RecordConstants { .. } => placed[0] += 1,
                                ResourceLocation::RecordAddress { .. } => placed[1] += 1,
                                ResourceLocation::RecordHeap { .. } => placed[2] += 1,
                                _ => {}
                            }
                        }
                    }
                }
                (Err(e), None) => {
                    problems.push(format!("{what}: fails both ways: Rust {e}; C {}", fail_line.unwrap_or("")));
                }
                (r, _) => problems.push(format!(
                    "{what}: Rust API {:?}, C layer {}",
                    r.as_ref().map(|_| "compiled").map_err(|e| e.to_string()),
                    ok_line.or(fail_line).unwrap_or("(nothing)")
                )),
            }
        }
    }
    println!(
        "local root signatures through the C calls: {exports} ray-tracing exports, {same} with the Rust API's shader \
         record and SPIR-V word for word ({with_record} reading resources from the record: {} as root constants, {} \
         by address, {} through local tables; {record_params} record parameters)",
        placed[0], placed[1], placed[2]
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(same >= 17 && with_record >= 10 && placed.iter().all(|&n| n > 0), "{same} {with_record} {placed:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
