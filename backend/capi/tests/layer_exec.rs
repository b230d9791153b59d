//! The C path executed: a small D3D12 layer written in C (`tests/c/layer_exec.c`) compiles
//! shaders through the dxil-spirv-compatible interface (options, root-constant and
//! root-descriptor counts, SRV/UAV/CBV/sampler remappers that put descriptor tables into bindless
//! heaps and root descriptors at buffer addresses, the vertex-input remapper), and the spec
//! runner executes the SPIR-V on the Vulkan device with every descriptor, buffer address and root
//! word placed where that layer's callbacks said — its own layout, unlike dxjit's default policy
//! (other sets and bindings for every heap array, tables after all root constants, vertex inputs
//! three Locations up). Outputs are checked against the specs' expectations, which come from the
//! HLSL and D3D12's rules (fixture `.md` files, vkd3d-proton's tests for corpus blobs).
//!
//! Specs: every bindless spec (`conformance/specs/bindless`) plus the input-layout pipeline spec
//! (vertex inputs through the remapper); and every compute spec with registers as plain
//! descriptors, the subgroup-size and min-precision option types sent. Skips by name without a
//! Vulkan device.

mod common;

use common::{build_c, c_source, read_words, run, scratch};
use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::process::Command;

use dxjit::binding::{
    BindingModel, BindingPolicy, HeapArrays, LocalRoot, PushEntry, PushEntryKind, PushLayout, RecordEntry,
    ResourceClass, ShaderRecordLayout,
};
use dxjit::container::rootsig::{DescriptorRangeType, RootParameterKind, RootSignature, ShaderVisibility};
use dxjit::link::LinkOptions;
use dxjit_conformance::runner::backend::{
    Backend, Binding, CompileFailure, Compiled, DescriptorKind, DeviceCaps, Job, Outputs, ResourceClass as RClass,
    RtJob,
};
use dxjit_conformance::runner::gfx::{
    CompiledPipeline, DrawJob, DrawOutputs, LinkFailure, LinkStage, PipelineFailure, StageSlot, VertexInput,
};
use dxjit_conformance::runner::{self, link::link_containers, RunConfig, Spec, Status};
use dxjit_conformance::spirv_val;

/// The root signature in layer_exec's input format.
fn rootsig_text(rs: &RootSignature) -> String {
    fn vis(v: ShaderVisibility) -> u32 {
        match v {
            ShaderVisibility::All => 0,
            ShaderVisibility::Vertex => 1,
            ShaderVisibility::Hull => 2,
            ShaderVisibility::Domain => 3,
            ShaderVisibility::Geometry => 4,
            ShaderVisibility::Pixel => 5,
            ShaderVisibility::Amplification => 6,
            ShaderVisibility::Mesh => 7,
            ShaderVisibility::Other(o) => o,
        }
    }
    let mut t = String::new();
    for p in &rs.parameters {
        let v = vis(p.visibility);
        match &p.kind {
            RootParameterKind::Cbv(d) => t += &format!("cbv {} {} {v}\n", d.register_space, d.shader_register),
            RootParameterKind::Srv(d) => t += &format!("srv {} {} {v}\n", d.register_space, d.shader_register),
            RootParameterKind::Uav(d) => t += &format!("uav {} {} {v}\n", d.register_space, d.shader_register),
            RootParameterKind::Constants { shader_register, register_space, num_32bit_values } => {
                t += &format!("constants {register_space} {shader_register} {num_32bit_values} {v}\n")
            }
            RootParameterKind::DescriptorTable(ranges) => {
                t += &format!("table {v}\n");
                for r in ranges {
                    let class = match r.range_type {
                        DescriptorRangeType::Srv => "srv",
                        DescriptorRangeType::Uav => "uav",
                        DescriptorRangeType::Cbv => "cbv",
                        DescriptorRangeType::Sampler => "sampler",
                        DescriptorRangeType::Other(_) => "other",
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
    for s in &rs.static_samplers {
        t += &format!("static {} {} {}\n", s.register_space, s.shader_register, vis(s.visibility));
    }
    t
}

/// One shader layer_exec compiled.
#[derive(Debug)]
struct LayerOk {
    /// dxil_spv_shader_stage number.
    stage: u32,
    words: Vec<u32>,
    wg: [u32; 3],
    /// The SPIR-V entry point's name.
    entry: String,
    /// Ray-tracing exports: the shader record as the layer laid it out ("RECORD" lines).
    record: Option<ShaderRecordLayout>,
}

/// One shader of a layer_exec run, or the failure (code, message).
type LayerShader = Result<LayerOk, (i32, String)>;

/// What layer_exec printed for one run.
#[derive(Default, Debug)]
struct LayerRun {
    policy: BindingPolicy,
    layout: PushLayout,
    shaders: Vec<LayerShader>,
    /// The callbacks' answers ("BIND ...", "VERTEX ..." lines).
    answers: Vec<String>,
    /// Vertex inputs: (semantic, first semantic index, rows, location).
    vertex: Vec<(String, u32, u32, u32)>,
    /// Without a root signature: the plain descriptors the callbacks chose (the runner's
    /// bindings).
    descriptors: Vec<Binding>,
    /// The wave-size range the converter reported (min, max, preferred).
    wave: Option<[u32; 3]>,
}

fn num(s: Option<&str>) -> u32 {
    s.and_then(|v| v.parse().ok()).unwrap_or_else(|| panic!("layer_exec output: a number expected, got {s:?}"))
}

/// Parses layer_exec's output into the layout its callbacks follow (a `BindingPolicy` for the
/// heap arrays and a `PushLayout` for the root block, the runner's vocabulary) and the shaders.
/// A runner binding from one "DESC class space register range kind set binding type counter"
/// line of layer_exec.
fn descriptor_binding(f: &[&str]) -> Binding {
    let n = |k: usize| num(f.get(k).copied());
    let class = [RClass::Srv, RClass::Uav, RClass::Cbv, RClass::Sampler][n(1) as usize];
    let range: i64 = f.get(4).and_then(|v| v.parse().ok()).unwrap_or(1);
    let (kind, ty) = (n(5), n(8));
    let uav = class == RClass::Uav;
    let descriptor = match (class, ty, kind) {
        (RClass::Sampler, _, _) => DescriptorKind::Sampler,
        (RClass::Cbv, _, _) => DescriptorKind::UniformBuffer,
        (_, 1, _) | (_, 0, 11 | 12) => DescriptorKind::StorageBuffer,
        (_, 2, _) | (_, 0, 10) if uav => DescriptorKind::StorageTexelBuffer,
        (_, 2, _) | (_, 0, 10) => DescriptorKind::UniformTexelBuffer,
        (_, _, 16) => DescriptorKind::AccelerationStructure,
        _ if uav => DescriptorKind::StorageImage,
        _ => DescriptorKind::SampledImage,
    };
    Binding {
        class,
        space: n(2),
        lower_bound: n(3),
        count: u32::try_from(range).ok(),
        set: n(6),
        binding: n(7),
        descriptor,
        kind: format!("dxil_spv_resource_kind {kind}"),
        has_counter: uav,
        counter_binding: uav.then(|| (n(6), n(9))),
    }
}

fn parse_run(rs: Option<&RootSignature>, stdout: &str, out: &Path) -> LayerRun {
    let mut r = LayerRun::default();
    let mut heap = HeapArrays::per_type();
    heap.bounds = None;
    heap.counters = None;
    let mut statics = (0, 0);
    let mut shifts = (0, 0);
    let mut record: Option<ShaderRecordLayout> = None;
    for l in stdout.lines() {
        let f: Vec<&str> = l.split_whitespace().collect();
        let n = |k: usize| num(f.get(k).copied());
        match f.first().copied() {
            Some("SBT") => shifts = (n(1), n(2)),
            Some("SHADER") => record = None,
            // RECORD <parameter> <offset> <size> constants <space> <register> | descriptor <class>
            // <space> <register> | table <sampler heap>
            Some("RECORD") => {
                let kind = match f.get(4).copied() {
                    Some("constants") => PushEntryKind::RootConstants { space: n(5), register: n(6) },
                    Some("descriptor") => PushEntryKind::RootDescriptor {
                        class: [ResourceClass::Srv, ResourceClass::Uav, ResourceClass::Cbv][n(5) as usize],
                        space: n(6),
                        register: n(7),
                    },
                    Some("table") => PushEntryKind::TableOffset { sampler_heap: n(5) != 0 },
                    other => panic!("{l}: unknown record entry {other:?}"),
                };
                let rec = record.get_or_insert_with(ShaderRecordLayout::default);
                rec.entries.push(RecordEntry { parameter: n(1), offset: n(2), size: n(3), kind });
            }
            Some("RECORD_SIZE") => record.get_or_insert_with(ShaderRecordLayout::default).size = n(1),
            Some("LAYOUT") => r.layout.words = 2 * num(f.get(2).copied()) + num(f.get(4).copied()),
            Some("ROOT") => {
                let p = num(f.get(1).copied());
                let param = &rs.expect("ROOT lines come with a root signature").parameters[p as usize];
                let (word, words, kind) = match (f.get(2).copied(), &param.kind) {
                    (Some("descriptor"), k) => {
                        let (class, d) = match k {
                            RootParameterKind::Cbv(d) => (ResourceClass::Cbv, d),
                            RootParameterKind::Srv(d) => (ResourceClass::Srv, d),
                            RootParameterKind::Uav(d) => (ResourceClass::Uav, d),
                            _ => panic!("{l}: not a root descriptor"),
                        };
                        let kind = PushEntryKind::RootDescriptor {
                            class,
                            space: d.register_space,
                            register: d.shader_register,
                        };
                        (2 * num(f.get(3).copied()), 2, kind)
                    }
                    (Some("constants"), RootParameterKind::Constants { shader_register, register_space, .. }) => {
                        let kind = PushEntryKind::RootConstants { space: *register_space, register: *shader_register };
                        (num(f.get(3).copied()), num(f.get(4).copied()), kind)
                    }
                    (Some("table"), RootParameterKind::DescriptorTable(ranges)) => {
                        let sampler_heap = ranges.iter().any(|x| x.range_type == DescriptorRangeType::Sampler);
                        (num(f.get(3).copied()), 1, PushEntryKind::TableOffset { sampler_heap })
                    }
                    _ => panic!("{l}: does not match parameter {p}"),
                };
                r.layout.entries.push(PushEntry { parameter: p, word, words, kind });
            }
            Some("HEAP") => {
                let at = (num(f.get(2).copied()), num(f.get(3).copied()));
                match f.get(1).copied() {
                    Some("ubo") => heap.uniform_buffer = at,
                    Some("ssbo") => heap.storage_buffer = at,
                    Some("uniform_texel") => heap.uniform_texel_buffer = at,
                    Some("storage_texel") => heap.storage_texel_buffer = at,
                    Some("sampled_image") => heap.sampled_image = at,
                    Some("storage_image") => heap.storage_image = at,
                    Some("acceleration_structure") => heap.acceleration_structure = at,
                    Some("sampler") => heap.sampler = at,
                    Some("counters") => heap.counters = Some(at),
                    Some("offsets") => heap.bounds = Some(at),
                    Some("static") => statics = at,
                    other => panic!("{l}: unknown heap array {other:?}"),
                }
            }
            Some("BIND") => r.answers.push(l.to_string()),
            Some("DESC") => r.descriptors.push(descriptor_binding(&f)),
            Some("WAVE") => r.wave = Some([num(f.get(1).copied()), num(f.get(2).copied()), num(f.get(3).copied())]),
            Some("VERTEX") => {
                r.answers.push(l.to_string());
                // VERTEX <semantic> <index> row <row> rows <rows> -> location <location>
                r.vertex.push((
                    f[1].to_string(),
                    num(f.get(2).copied()),
                    num(f.get(6).copied()),
                    num(f.get(9).copied()),
                ));
            }
            Some("OK") => {
                let i = num(f.get(1).copied());
                let words = read_words(&out.join(format!("{i}.spv")));
                let wg = [num(f.get(4).copied()), num(f.get(5).copied()), num(f.get(6).copied())];
                let entry = f.get(7).map_or("main", |e| e).to_string();
                // An export without a local root signature has an empty record.
                let record = record.take().filter(|r| !r.entries.is_empty());
                r.shaders.push(Ok(LayerOk { stage: num(f.get(2).copied()), words, wg, entry, record }));
            }
            Some("FAIL") => {
                let code = f.get(2).and_then(|c| c.parse().ok()).unwrap_or(0);
                let msg = l.split_once('\t').map_or(String::new(), |(_, m)| m.to_string());
                r.shaders.push(Err((code, msg)));
            }
            _ => {}
        }
    }
    r.layout.entries.sort_by_key(|e| e.parameter);
    r.policy = BindingPolicy {
        heap,
        static_samplers: statics,
        record_table_shift: shifts.0,
        record_sampler_table_shift: shifts.1,
        ..BindingPolicy::default()
    };
    r
}

/// Counts over the run.
#[derive(Default)]
struct Counts {
    compiled: usize,
    validated: usize,
    invalid: Vec<String>,
    answers: usize,
}

/// The runner's backend with compiles going through layer_exec (the C layer over libdxjit_capi)
/// and the device of the real Vulkan backend.
struct LayerBackend {
    device: runner::vulkan::VulkanBackend,
    exe: PathBuf,
    dir: PathBuf,
    validate: bool,
    /// Send MIN_PRECISION_NATIVE_16BIT.
    native16: bool,
    counts: RefCell<Counts>,
    runs: RefCell<usize>,
    /// The callbacks' answers of the last compile (printed for a failing spec).
    last_answers: RefCell<Vec<String>>,
}

impl LayerBackend {
    /// The layer program `exe` (working in `dir`) over `device`, with nothing run yet.
    fn new(device: runner::vulkan::VulkanBackend, exe: PathBuf, dir: PathBuf, validate: bool, native16: bool) -> Self {
        LayerBackend {
            device,
            exe,
            dir,
            validate,
            native16,
            counts: RefCell::default(),
            runs: RefCell::new(0),
            last_answers: RefCell::default(),
        }
    }
}

fn stage_slot(stage: u32) -> Option<StageSlot> {
    Some(match stage {
        1 => StageSlot::Vs,
        2 => StageSlot::Hs,
        3 => StageSlot::Ds,
        4 => StageSlot::Gs,
        5 => StageSlot::Ps,
        13 => StageSlot::As,
        14 => StageSlot::Ms,
        _ => return None,
    })
}

impl LayerBackend {
    /// Runs layer_exec with root signature `rs` over `containers` (none: the layout only).
    fn layer(&self, rs: &RootSignature, containers: &[&[u8]]) -> LayerRun {
        self.layer_with(Some(rs), containers, &[])
    }

    /// Runs layer_exec with root signature `rs` (`None`: registers as plain descriptors) and
    /// `options` (its -s/-f/-n flags) over `containers`.
    fn layer_with(&self, rs: Option<&RootSignature>, containers: &[&[u8]], options: &[String]) -> LayerRun {
        self.layer_full(rs, None, containers, options)
    }

    /// [`LayerBackend::layer_with`] with a local root signature (`-l`, written as a file).
    fn layer_full(
        &self,
        rs: Option<&RootSignature>,
        local: Option<&RootSignature>,
        containers: &[&[u8]],
        options: &[String],
    ) -> LayerRun {
        let n = {
            let mut r = self.runs.borrow_mut();
            *r += 1;
            *r
        };
        let dir = self.dir.join(format!("run{n}"));
        std::fs::create_dir_all(&dir).expect("run folder");
        let mut cmd = Command::new(&self.exe);
        match rs {
            Some(rs) => {
                let sig = dir.join("rootsig.txt");
                std::fs::write(&sig, rootsig_text(rs)).expect("write root signature");
                cmd.arg(&sig);
            }
            None => {
                cmd.arg("-");
            }
        }
        cmd.arg("-o").arg(&dir).args(options);
        if let Some(lrs) = local {
            let sig = dir.join("local.txt");
            std::fs::write(&sig, rootsig_text(lrs)).expect("write local root signature");
            cmd.arg("-l").arg(&sig);
        }
        for (i, c) in containers.iter().enumerate() {
            let p = dir.join(format!("shader{i}.dxil"));
            std::fs::write(&p, c).expect("write shader");
            cmd.arg(p);
        }
        let o = run(&mut cmd);
        let r = parse_run(rs, &String::from_utf8_lossy(&o.stdout), &dir);
        let mut c = self.counts.borrow_mut();
        for LayerOk { words, .. } in r.shaders.iter().flatten() {
            c.compiled += 1;
            if self.validate {
                match spirv_val::validate(words) {
                    Ok(()) => c.validated += 1,
                    Err(e) => c.invalid.push(e.to_string()),
                }
            }
        }
        c.answers += r.answers.len();
        *self.last_answers.borrow_mut() = r.answers.clone();
        let _ = std::fs::remove_dir_all(&dir);
        r
    }

    fn compiled(ok: LayerOk, words: u32) -> Compiled {
        let LayerOk { stage, words: spirv, wg, entry, record } = ok;
        // dxil_spv_shader_stage → the runner's stage names (`dxjit::ShaderKind::name`).
        const NAMES: [&str; 15] = [
            "unknown",
            "vertex",
            "hull",
            "domain",
            "geometry",
            "pixel",
            "compute",
            "intersection",
            "closesthit",
            "miss",
            "anyhit",
            "raygeneration",
            "callable",
            "amplification",
            "mesh",
        ];
        Compiled {
            stage: NAMES.get(stage as usize).copied().unwrap_or("unknown"),
            shader_record: record,
            spirv,
            entry_point: entry,
            is_compute: stage == 6,
            workgroup_size: wg,
            bindings: Vec::new(),
            push_constant_size: (words > 0).then_some(4 * words),
            uses_descriptor_heaps: false,
            sample_count_spec_id: None,
            required_subgroup_size: None,
        }
    }

    fn failure((code, msg): &(i32, String)) -> CompileFailure {
        if *code == -3 {
            CompileFailure::Unsupported(msg.clone())
        } else {
            CompileFailure::Malformed(format!("dxil_spv_converter_run gave {code}: {msg}"))
        }
    }

    fn pipeline(
        &self,
        stages: &[LinkStage<'_>],
        opts: &LinkOptions,
        rs: &RootSignature,
    ) -> Result<CompiledPipeline, PipelineFailure> {
        // The input layout's attributes (slot, format, offset) as D3D12's PSO links them; their
        // Locations are the layer's vertex-input answers.
        let plan = link_containers(stages, opts).map_err(PipelineFailure::Link)?;
        let blobs: Vec<&[u8]> = stages.iter().map(|s| s.container).collect();
        let run = self.layer(rs, &blobs);
        let mut shaders = Vec::new();
        for (s, r) in stages.iter().zip(run.shaders) {
            let ok = r.map_err(|f| PipelineFailure::Compile(Self::failure(&f)))?;
            if stage_slot(ok.stage) != Some(s.slot) {
                return Err(PipelineFailure::Link(LinkFailure::Error(format!(
                    "{:?} slot holds stage {}",
                    s.slot, ok.stage
                ))));
            }
            shaders.push((s.slot, Self::compiled(ok, run.layout.words)));
        }
        let mut vertex_input = Vec::new();
        for a in &plan.vertex_input {
            let answer = run.vertex.iter().find(|(sem, first, rows, _)| {
                sem.eq_ignore_ascii_case(&a.semantic_name)
                    && a.semantic_index >= *first
                    && a.semantic_index < *first + (*rows).max(1)
            });
            let Some((_, _, _, location)) = answer else {
                return Err(PipelineFailure::Link(LinkFailure::Error(format!(
                    "the layer's vertex-input remapper was not asked about {}{}",
                    a.semantic_name, a.semantic_index
                ))));
            };
            vertex_input.push(VertexInput {
                location: location + a.row,
                slot: a.binding,
                format: a.format.clone().unwrap_or_default(),
                offset: a.offset,
            });
        }
        Ok(CompiledPipeline { shaders, vertex_input })
    }
}

impl Backend for LayerBackend {
    fn device_name(&self) -> String {
        self.device.device_name()
    }
    fn caps(&self) -> DeviceCaps {
        self.device.caps()
    }
    fn compile(&self, container: &[u8], entry_point: Option<&str>) -> Result<Compiled, CompileFailure> {
        self.compile_for(container, entry_point, None)
    }
    /// A compute spec without a root signature: registers as plain descriptors, the device's
    /// subgroup sizes (SUBGROUP_PROPERTIES) or the spec's one (FORCE_SUBGROUP_SIZE), and
    /// MIN_PRECISION_NATIVE_16BIT when this backend asks for native 16-bit types.
    fn compile_for(&self, c: &[u8], entry_point: Option<&str>, size: Option<u32>) -> Result<Compiled, CompileFailure> {
        if entry_point.is_some() {
            return Err(CompileFailure::Unsupported("library exports are not compiled by the layer path".into()));
        }
        let mut options: Vec<String> = match size {
            Some(n) => vec!["-f".into(), n.to_string()],
            None => {
                let r = self.device.compute_subgroup_sizes();
                vec!["-s".into(), r.min.to_string(), r.max.to_string()]
            }
        };
        if self.native16 {
            options.push("-n".into());
        }
        let mut r = self.layer_with(None, &[c], &options);
        match r.shaders.pop() {
            Some(Ok(ok)) => {
                let mut compiled = Self::compiled(ok, 0);
                compiled.bindings = std::mem::take(&mut r.descriptors);
                // The layer requires the size dxjit chose: the reported range narrowed to one.
                compiled.required_subgroup_size = r.wave.filter(|w| w[0] != 0 && w[0] == w[1]).map(|w| w[0]);
                Ok(compiled)
            }
            Some(Err(f)) => Err(Self::failure(&f)),
            None => Err(CompileFailure::Internal("layer_exec compiled nothing".into())),
        }
    }
    fn run_compute(&self, job: &Job<'_>) -> Result<Outputs, String> {
        self.device.run_compute(job)
    }
    fn take_validation_messages(&self) -> Vec<String> {
        self.device.take_validation_messages()
    }
    fn link(&self, stages: &[LinkStage<'_>], opts: &LinkOptions) -> Result<(), LinkFailure> {
        link_containers(stages, opts).map(|_| ())
    }
    fn bound_layout(&self, model: &BindingModel) -> Result<(BindingPolicy, PushLayout), String> {
        let rs = model.root_signature.as_ref().ok_or("no root signature")?;
        let r = self.layer(rs, &[]);
        Ok((r.policy, r.layout))
    }
    /// A shader under a root signature; a library export (`entry_point`) with the local root
    /// signature the model gives (the spec's, passed as `-l`) or the library's association (`-L`:
    /// the layer finds it in the RDAT subobjects itself).
    fn compile_bound(
        &self,
        container: &[u8],
        entry_point: Option<&str>,
        model: std::sync::Arc<BindingModel>,
    ) -> Result<(Compiled, PushLayout), CompileFailure> {
        let rs = model.root_signature.as_ref().ok_or(CompileFailure::Internal("no root signature".into()))?;
        let mut options = Vec::new();
        let mut local = None;
        if let Some(e) = entry_point {
            options.extend(["-e".to_string(), e.to_string()]);
            match &model.local_root_signature {
                LocalRoot::Given(lrs) => local = Some(lrs),
                LocalRoot::FromLibrary => options.push("-L".into()),
                LocalRoot::None => {}
            }
        }
        let mut r = self.layer_full(Some(rs), local, &[container], &options);
        match r.shaders.pop() {
            Some(Ok(ok)) => Ok((Self::compiled(ok, r.layout.words), r.layout)),
            Some(Err(f)) => Err(Self::failure(&f)),
            None => Err(CompileFailure::Internal("layer_exec compiled nothing".into())),
        }
    }
    fn compile_pipeline(
        &self,
        stages: &[LinkStage<'_>],
        opts: &LinkOptions,
    ) -> Result<CompiledPipeline, PipelineFailure> {
        let empty = RootSignature {
            version: dxjit::container::rootsig::RootSignatureVersion::V1_0,
            flags: 0,
            parameters: Vec::new(),
            static_samplers: Vec::new(),
        };
        self.pipeline(stages, opts, &empty)
    }
    fn compile_pipeline_bound(
        &self,
        stages: &[LinkStage<'_>],
        opts: &LinkOptions,
        model: std::sync::Arc<BindingModel>,
    ) -> Result<CompiledPipeline, PipelineFailure> {
        let rs = model.root_signature.as_ref().ok_or(PipelineFailure::Unavailable("no root signature".into()))?;
        self.pipeline(stages, opts, rs)
    }
    fn run_graphics(&self, job: &DrawJob<'_>) -> Result<DrawOutputs, String> {
        self.device.run_graphics(job)
    }
    fn run_ray_tracing(&self, job: &RtJob) -> Result<Outputs, String> {
        self.device.run_ray_tracing(job)
    }
}

#[test]
fn layer_placements_execute() {
    let device = match runner::vulkan::VulkanBackend::new(std::env::var("DXJIT_DEVICE").ok()) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("SKIPPED layer_placements_execute: no Vulkan device ({e})");
            return;
        }
    };
    let validate = Command::new(spirv_val::validator()).arg("--version").output().is_ok_and(|o| o.status.success());
    if !validate {
        eprintln!("SKIPPED layer_placements_execute validation: spirv-val not found (set DXJIT_SPIRV_VAL)");
    }
    let dir = scratch("layer-exec");
    let exe = build_c(&[c_source("layer_exec.c")], &dir.join("layer_exec"), false);
    let backend = LayerBackend::new(device, exe, dir.clone(), validate, false);
    let mut files = runner::spec::spec_files(&runner::specs_root().join("bindless")).expect("bindless specs");
    files.push(runner::specs_root().join("graphics/input_layout.toml"));
    let cfg = RunConfig::default();
    let mut results = Vec::new();
    let mut answers = Vec::new();
    let mut layouts_unlike_dxjit = 0;
    for f in &files {
        let spec = Spec::load(f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let r = runner::run_spec(&backend, &spec, &cfg);
        answers.push(backend.last_answers.borrow().clone());
        // How the layer's root block differs from dxjit's own for this root signature.
        if let Some(root) = &spec.root {
            let rs = root.signature.clone().or_else(|| {
                let path =
                    cfg.path_of(&spec.pipeline.as_ref().map_or(spec.shader.clone(), |p| p.stages[0].shader.clone()));
                std::fs::read(path).ok().and_then(|b| runner::bindless::root_signature(root, &b).ok())
            });
            if let Some(rs) = rs {
                let ours = runner::bindless::model(root, rs.clone()).push_layout();
                if backend.bound_layout(&runner::bindless::model(root, rs)).map(|l| l.1) != Ok(ours) {
                    layouts_unlike_dxjit += 1;
                }
            }
        }
        results.push(r);
    }
    let report = runner::Report::new(backend.device_name(), results);
    println!("device: {}", report.device);
    print!("{}", report.table());
    for (s, a) in report.specs.iter().zip(&answers) {
        if s.status.is_fail() {
            println!("--- {} ({}): {}", s.name, s.shader, s.detail);
            for m in s.messages.iter().take(5) {
                println!("    {m}");
            }
            for l in a {
                println!("    {l}");
            }
        }
    }
    let c = backend.counts.borrow();
    let executed = report.specs.iter().filter(|s| s.status.is_pass() || s.status.is_fail()).count();
    println!(
        "layer path: {} specs, {} shaders compiled through dxil_spv_* ({} spirv-val clean), {} callback answers, \
         {executed} executed, {} passing, {} failing, {} skipped; {layouts_unlike_dxjit} root blocks laid out unlike \
         dxjit's own",
        report.specs.len(),
        c.compiled,
        c.validated,
        c.answers,
        report.passed,
        report.failed,
        report.skipped
    );
    assert!(c.invalid.is_empty(), "invalid SPIR-V from the layer path:\n{}", c.invalid.join("\n"));
    if validate {
        assert_eq!(c.validated, c.compiled);
    }
    assert_eq!(report.failed, 0, "{}", report.closing_line());
    // The cases the C path must execute: a compute shader with a table in the heap, a root CBV by
    // address and root constants; a UAV written through the heap; a VS/PS pipeline; samplers;
    // vertex inputs through the remapper.
    for name in [
        "root_constants_and_cbvs",
        "table_ranges_embedded",
        "unbounded_uav_arrays",
        "vs_ps_cbv_array",
        "texture_sampler_heaps",
        "static_samplers",
        "input_layout",
    ] {
        let s = report.specs.iter().find(|s| s.name == name).unwrap_or_else(|| panic!("spec {name} missing"));
        if s.status == Status::Skipped && s.detail.contains("corpus not found") {
            continue;
        }
        assert!(s.status.is_pass(), "{name}: {:?} {}", s.status, s.detail);
    }
    assert!(layouts_unlike_dxjit > 0, "no root signature gave the layer a root block unlike dxjit's");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every compute spec (`conformance/specs/compute`, no root signature: registers as plain
/// descriptors the callbacks place) through the layer, with the option types that change code:
/// the device's subgroup sizes (SUBGROUP_PROPERTIES) or the spec's one (FORCE_SUBGROUP_SIZE) — the
/// layer requires the size the converter's wave-size range reports (`wave_size_*` specs) — and
/// the `min_precision_*` specs both ways (MIN_PRECISION_NATIVE_16BIT off and on).
#[test]
fn layer_compute_specs_execute() {
    let open = || runner::vulkan::VulkanBackend::new(std::env::var("DXJIT_DEVICE").ok());
    let (a, b) = match (open(), open()) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("SKIPPED layer_compute_specs_execute: no Vulkan device ({e})");
            return;
        }
    };
    let validate = Command::new(spirv_val::validator()).arg("--version").output().is_ok_and(|o| o.status.success());
    let dir = scratch("layer-options");
    let exe = build_c(&[c_source("layer_exec.c")], &dir.join("layer_exec"), false);
    let backend = |device, native16| LayerBackend::new(device, exe.clone(), dir.clone(), validate, native16);
    let (plain, native) = (backend(a, false), backend(b, true));
    let has16 = native.caps().features.contains("float16") && native.caps().features.contains("int16");
    let cfg = RunConfig::default();
    let mut results = Vec::new();
    for f in runner::spec::spec_files(&runner::specs_root().join("compute")).expect("compute specs") {
        let name = f.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        let min16 = name.starts_with("min_precision_");
        let spec = Spec::load(&f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        results.push(runner::run_spec(&plain, &spec, &cfg));
        if min16 && has16 {
            let mut r = runner::run_spec(&native, &spec, &cfg);
            r.name = format!("{name} (native 16-bit)");
            results.push(r);
        }
    }
    let report = runner::Report::new(plain.device_name(), results);
    print!("{}", report.table());
    let (c, n) = (plain.counts.borrow(), native.counts.borrow());
    println!(
        "layer compute specs: {} runs ({} passing, {} skipped), {} shaders compiled through dxil_spv_* ({} spirv-val \
         clean)",
        report.specs.len(),
        report.passed,
        report.skipped,
        c.compiled + n.compiled,
        c.validated + n.validated
    );
    assert!(c.invalid.is_empty() && n.invalid.is_empty(), "invalid SPIR-V: {:?} {:?}", c.invalid, n.invalid);
    if report.specs.iter().all(|s| s.status == Status::Skipped) {
        eprintln!("SKIPPED layer_compute_specs_execute: {}", report.specs.first().map_or("", |s| s.detail.as_str()));
        return;
    }
    assert_eq!(report.failed, 0, "{}", report.closing_line());
    assert!(report.passed >= 60, "{}", report.closing_line());
    for name in
        ["wave_size_range_8_16", "wave_size_16_refused", "min_precision_groupshared", "min_precision_texture_phi"]
    {
        let s = report.specs.iter().find(|s| s.name == name).unwrap_or_else(|| panic!("spec {name} missing"));
        assert!(s.status.is_pass() || s.status == Status::Skipped, "{name}: {:?} {}", s.status, s.detail);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Ray tracing through the C layer (tier C): every spec of `conformance/specs/raytracing`. The
/// layer compiles each export the shader tables reach through `dxil_spv_*` (set_entry_point, its
/// local root signature through the add_local_root_* calls: the spec's given one, or the one the
/// layer itself finds in the library's RDAT subobjects, SBT_DESCRIPTOR_SIZE_LOG2 for its 32-byte
/// descriptor handles), lays the shader record out itself, and the runner fills each record where
/// the layer's layout says (descriptor handles as heap index << 5) and binds by the layer's heap
/// arrays and root block, then runs the pipeline on the device. Expectations are the specs' own.
#[test]
fn layer_raytracing_specs_execute() {
    let device = match runner::vulkan::VulkanBackend::new(std::env::var("DXJIT_DEVICE").ok()) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("SKIPPED layer_raytracing_specs_execute: no Vulkan device ({e})");
            return;
        }
    };
    let validate = Command::new(spirv_val::validator()).arg("--version").output().is_ok_and(|o| o.status.success());
    let dir = scratch("layer-rt");
    let exe = build_c(&[c_source("layer_exec.c")], &dir.join("layer_exec"), false);
    let backend = LayerBackend::new(device, exe, dir.clone(), validate, false);
    let cfg = RunConfig::default();
    let mut results = Vec::new();
    let mut answers = Vec::new();
    for f in runner::spec::spec_files(&runner::specs_root().join("raytracing")).expect("ray-tracing specs") {
        let spec = Spec::load(&f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        results.push(runner::run_spec(&backend, &spec, &cfg));
        answers.push(backend.last_answers.borrow().clone());
    }
    let report = runner::Report::new(backend.device_name(), results);
    print!("{}", report.table());
    for (s, a) in report.specs.iter().zip(&answers) {
        if s.status.is_fail() {
            println!("--- {} ({}): {}", s.name, s.shader, s.detail);
            for l in a {
                println!("    {l}");
            }
        }
    }
    let c = backend.counts.borrow();
    println!(
        "layer ray-tracing specs: {} specs ({} passing, {} failing, {} skipped), {} shaders compiled through \
         dxil_spv_* ({} spirv-val clean)",
        report.specs.len(),
        report.passed,
        report.failed,
        report.skipped,
        c.compiled,
        c.validated
    );
    assert!(c.invalid.is_empty(), "invalid SPIR-V from the layer path:\n{}", c.invalid.join("\n"));
    if validate {
        assert_eq!(c.validated, c.compiled);
    }
    if report.specs.iter().all(|s| s.status == Status::Skipped) {
        eprintln!("SKIPPED layer_raytracing_specs_execute: {}", report.specs.first().map_or("", |s| s.detail.as_str()));
        return;
    }
    assert_eq!(report.failed, 0, "{}", report.closing_line());
    // The local-root-signature cases: root constants from the library's association, and a local
    // CBV table + local root CBV (the spec's local root signatures).
    for name in ["local_root_constants", "vkd3d_pipeline_local_args", "basic", "procedural", "callable"] {
        let s = report.specs.iter().find(|s| s.name == name).unwrap_or_else(|| panic!("spec {name} missing"));
        if s.status == Status::Skipped && (s.detail.contains("corpus not found") || s.detail.contains("device lacks")) {
            continue;
        }
        assert!(s.status.is_pass(), "{name}: {:?} {}", s.status, s.detail);
    }
    let _ = std::fs::remove_dir_all(&dir);
}
