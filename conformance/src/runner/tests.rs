//! Runner tests against a fake backend: register mapping, job building, statuses, reporting.

use super::backend::*;
use super::*;
use std::cell::RefCell;
use std::path::Path;

type Program = Box<dyn Fn(&Job<'_>) -> Result<Outputs, String>>;

/// A backend whose "compiler" returns fixed bindings and whose "device" runs a Rust closure.
struct Fake {
    compiled: Result<Compiled, CompileFailure>,
    program: Program,
    caps: DeviceCaps,
    messages: RefCell<Vec<String>>,
    jobs: RefCell<Vec<Job<'static>>>,
    /// Messages the next dispatch produces.
    dispatch_messages: Vec<String>,
}

fn binding(class: ResourceClass, space: u32, reg: u32, set: u32, b: u32, descriptor: DescriptorKind) -> Binding {
    Binding {
        class,
        space,
        lower_bound: reg,
        count: Some(1),
        set,
        binding: b,
        descriptor,
        kind: "RawBuffer".into(),
        has_counter: false,
        counter_binding: None,
    }
}

fn compiled(bindings: Vec<Binding>) -> Compiled {
    Compiled {
        stage: "compute",
        shader_record: None,
        spirv: vec![0x0723_0203, 1, 2, 3],
        entry_point: "main".into(),
        is_compute: true,
        workgroup_size: [1, 1, 1],
        bindings,
        push_constant_size: None,
        uses_descriptor_heaps: false,
        sample_count_spec_id: None,
        required_subgroup_size: None,
    }
}

impl Fake {
    fn new(c: Result<Compiled, CompileFailure>, program: Program) -> Fake {
        let mut caps = DeviceCaps::default();
        caps.features.insert("int64".into());
        Fake {
            compiled: c,
            program,
            caps,
            messages: RefCell::new(vec!["stale message from an earlier spec".into()]),
            jobs: RefCell::new(Vec::new()),
            dispatch_messages: Vec::new(),
        }
    }
}

impl Backend for Fake {
    fn device_name(&self) -> String {
        "fake".into()
    }
    fn caps(&self) -> DeviceCaps {
        self.caps.clone()
    }
    fn compile(&self, container: &[u8], entry: Option<&str>) -> Result<Compiled, CompileFailure> {
        assert_eq!(container, b"DXBC-fake");
        assert!(entry.is_none() || entry == Some("main"));
        self.compiled.clone()
    }
    fn link(
        &self,
        stages: &[super::gfx::LinkStage<'_>],
        opts: &dxjit::link::LinkOptions,
    ) -> Result<(), super::gfx::LinkFailure> {
        super::link::link_containers(stages, opts).map(|_| ())
    }
    fn run_compute(&self, job: &Job<'_>) -> Result<Outputs, String> {
        self.messages.borrow_mut().extend(self.dispatch_messages.iter().cloned());
        let owned: &'static [u32] = Box::leak(job.spirv.to_vec().into_boxed_slice());
        let ep: &'static str = Box::leak(job.entry_point.to_string().into_boxed_str());
        self.jobs.borrow_mut().push(Job { spirv: owned, entry_point: ep, ..job.clone() });
        (self.program)(job)
    }
    fn take_validation_messages(&self) -> Vec<String> {
        std::mem::take(&mut *self.messages.borrow_mut())
    }
}

/// A temp workspace holding `fixtures/x.dxil` (and optionally a corpus root).
struct Tmp(std::path::PathBuf);

impl Tmp {
    fn new(tag: &str) -> Tmp {
        let d = std::env::temp_dir().join(format!("dxjit-runner-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(d.join("ws/fixtures")).unwrap();
        std::fs::write(d.join("ws/fixtures/x.dxil"), b"DXBC-fake").unwrap();
        Tmp(d)
    }
    fn cfg(&self) -> RunConfig {
        RunConfig { corpus_root: self.0.join("corpus"), workspace_root: self.0.join("ws") }
    }
}

impl Drop for Tmp {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn parse(body: &str) -> Spec {
    let text = format!("shader = \"fixtures/x.dxil\"\n{body}");
    Spec::parse("s", Path::new("s.toml"), &text).unwrap_or_else(|e| panic!("{e}"))
}

fn words(w: &[u32]) -> Vec<u8> {
    w.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn buffer_data(r: &Resource) -> &[u8] {
    match r {
        Resource::UniformBuffer { data }
        | Resource::StorageBuffer { data }
        | Resource::UniformTexelBuffer { data, .. }
        | Resource::StorageTexelBuffer { data, .. } => data,
        _ => &[],
    }
}

/// "Doubles" each word of the buffer at (0,0) into the buffer at (0,1).
fn doubler() -> Program {
    Box::new(|job| {
        let input = job.resources.iter().find(|b| (b.set, b.binding) == (0, 0)).ok_or("no input")?;
        let out: Vec<u8> = buffer_data(&input.resource)
            .chunks(4)
            .flat_map(|c| (u32::from_le_bytes([c[0], c[1], c[2], c[3]]) * 2).to_le_bytes())
            .collect();
        Ok(vec![(0, 1, 0, out)])
    })
}

const DOUBLER_SPEC: &str = r#"
dispatch = [2, 1, 1]
[[resource]]
register = "t0"
kind = "raw"
init = { u32 = [1, 2, 3] }
[[resource]]
register = "u0"
kind = "raw"
size = 12
[[resource.expect]]
u32 = [2, 4, 6]
"#;

fn doubler_bindings() -> Vec<Binding> {
    vec![
        binding(ResourceClass::Srv, 0, 0, 0, 0, DescriptorKind::StorageBuffer),
        binding(ResourceClass::Uav, 0, 0, 0, 1, DescriptorKind::StorageBuffer),
    ]
}

#[test]
fn passes_and_builds_the_job_by_register() {
    let tmp = Tmp::new("pass");
    let fake = Fake::new(Ok(compiled(doubler_bindings())), doubler());
    let r = run_spec(&fake, &parse(DOUBLER_SPEC), &tmp.cfg());
    assert_eq!(r.status, Status::Pass, "{}", r.detail);
    assert!(r.messages.is_empty(), "stale messages from before the spec must not count");
    let jobs = fake.jobs.borrow();
    let job = &jobs[0];
    assert_eq!(job.dispatch, [2, 1, 1]);
    assert_eq!(job.entry_point, "main");
    assert_eq!(job.resources.len(), 2);
    assert_eq!(job.resources[0].resource, Resource::StorageBuffer { data: words(&[1, 2, 3]) });
    assert_eq!(job.resources[1].resource, Resource::StorageBuffer { data: vec![0; 12] });
}

#[test]
fn mismatch_names_index_expected_and_got() {
    let tmp = Tmp::new("mismatch");
    let spec = parse(&DOUBLER_SPEC.replace("u32 = [2, 4, 6]", "u32 = [2, 5, 6]"));
    let fake = Fake::new(Ok(compiled(doubler_bindings())), doubler());
    let r = run_spec(&fake, &spec, &tmp.cfg());
    assert_eq!(r.status, Status::Fail);
    assert_eq!(r.detail, "u0: u32[1] (byte 4): expected 5 (0x00000005), got 4 (0x00000004)");
}

#[test]
fn registers_map_through_spaces_ranges_and_sets() {
    let tmp = Tmp::new("map");
    let mut range = binding(ResourceClass::Srv, 2, 4, 1, 7, DescriptorKind::UniformTexelBuffer);
    range.count = Some(2);
    let b = vec![
        range,
        binding(ResourceClass::Cbv, 1, 0, 2, 0, DescriptorKind::UniformBuffer),
        binding(ResourceClass::Uav, 0, 3, 0, 5, DescriptorKind::StorageTexelBuffer),
    ];
    let spec = parse(
        r#"
dispatch = [1, 1, 1]
[[resource]]
register = "t5"
space = 2
kind = "typed"
format = "R8G8B8A8_UNORM"
init = { u8 = [1, 2, 3, 4] }
[[resource]]
register = "t4"
space = 2
kind = "raw"
init = { u32 = [9] }
[[resource]]
register = "b0"
space = 1
kind = "cbuffer"
init = { f32 = [1.0, 2.0, 3.0, 4.0] }
[[resource]]
register = "u3"
kind = "structured"
stride = 8
size = 16
[[resource.expect]]
at = 8
u32 = [77]
"#,
    );
    let fake = Fake::new(Ok(compiled(b)), Box::new(|_| Ok(vec![(0, 5, 0, words(&[0, 0, 77, 0]))])));
    let r = run_spec(&fake, &spec, &tmp.cfg());
    assert_eq!(r.status, Status::Pass, "{}", r.detail);
    let jobs = fake.jobs.borrow();
    let res: Vec<_> = jobs[0].resources.iter().map(|b| (b.set, b.binding, b.array_index, b.resource.clone())).collect();
    assert_eq!(
        res[0],
        (1, 7, 1, Resource::UniformTexelBuffer { format: Format::R8G8B8A8Unorm, data: vec![1, 2, 3, 4] })
    );
    assert_eq!(res[1], (1, 7, 0, Resource::UniformTexelBuffer { format: Format::R32Uint, data: words(&[9]) }));
    assert!(matches!(&res[2], (2, 0, 0, Resource::UniformBuffer { data }) if data.len() == 16));
    assert_eq!(res[3], (0, 5, 0, Resource::StorageTexelBuffer { format: Format::R32Uint, data: vec![0; 16] }));
}

#[test]
fn a_shader_binding_the_spec_does_not_provide_fails() {
    let tmp = Tmp::new("missing");
    let mut b = doubler_bindings();
    b.push(binding(ResourceClass::Srv, 0, 1, 0, 2, DescriptorKind::StorageBuffer));
    let fake = Fake::new(Ok(compiled(b)), doubler());
    let r = run_spec(&fake, &parse(DOUBLER_SPEC), &tmp.cfg());
    assert_eq!(r.status, Status::Fail);
    assert!(r.detail.contains("uses t1 (space 0"), "{}", r.detail);
    assert!(fake.jobs.borrow().is_empty());
}

#[test]
fn expectations_on_an_unused_resource_fail() {
    let tmp = Tmp::new("unused");
    let b = vec![binding(ResourceClass::Srv, 0, 0, 0, 0, DescriptorKind::StorageBuffer)];
    let fake = Fake::new(Ok(compiled(b)), Box::new(|_| Ok(vec![])));
    let r = run_spec(&fake, &parse(DOUBLER_SPEC), &tmp.cfg());
    assert_eq!(r.status, Status::Fail);
    assert!(r.detail.contains("does not use it"), "{}", r.detail);
}

#[test]
fn missing_features_skip_with_the_reason() {
    let tmp = Tmp::new("skip");
    let spec = parse(&format!("requires = [\"int64\", \"int64_atomics\", \"float64\"]\n{DOUBLER_SPEC}"));
    let fake = Fake::new(Ok(compiled(doubler_bindings())), doubler());
    let r = run_spec(&fake, &spec, &tmp.cfg());
    assert_eq!(r.status, Status::Skipped);
    assert_eq!(r.detail, "device lacks int64_atomics, float64");
}

#[test]
fn a_subgroup_size_the_device_cannot_give_skips_with_the_reason() {
    // As NVIDIA's driver reports (one size, 32): a spec run with 8 lanes is skipped, not failed;
    // a device whose range holds 8 runs it.
    let tmp = Tmp::new("subgroup");
    let spec = parse(&format!("subgroup_size = 8\n{DOUBLER_SPEC}"));
    let mut fake = Fake::new(Ok(compiled(doubler_bindings())), doubler());
    fake.caps.compute_subgroup_sizes = Some((32, 32));
    let r = run_spec(&fake, &spec, &tmp.cfg());
    assert_eq!(r.status, Status::Skipped);
    assert_eq!(r.detail, "device lacks subgroup size 8 (compute runs with 32..=32 lanes)");
    assert!(fake.jobs.borrow().is_empty());
    fake.caps.compute_subgroup_sizes = Some((4, 64));
    let r = run_spec(&fake, &spec, &tmp.cfg());
    assert_eq!(r.status, Status::Pass, "{}", r.detail);
    assert_eq!(fake.jobs.borrow()[0].required_subgroup_size, Some(8));
    // A spec expecting the compile to refuse still runs where 8 lanes are not available.
    fake.caps.compute_subgroup_sizes = Some((32, 32));
    let refused = parse(&format!("subgroup_size = 8\nexpect = \"unsupported\"\n{DOUBLER_SPEC}"));
    let r = run_spec(&fake, &refused, &tmp.cfg());
    assert_ne!(r.status, Status::Skipped, "{}", r.detail);
}

#[test]
fn unsupported_fails_unless_expected() {
    let tmp = Tmp::new("unsup");
    let unsup = || Err(CompileFailure::Unsupported("WaveMatch in main, block 0, SM 6.5".into()));
    let fake = Fake::new(unsup(), doubler());
    let r = run_spec(&fake, &parse(DOUBLER_SPEC), &tmp.cfg());
    assert_eq!(r.status, Status::CompileUnsupported);
    assert!(r.status.is_fail());
    let expected = parse(&format!("expect = \"unsupported\"\n{DOUBLER_SPEC}"));
    let r = run_spec(&fake, &expected, &tmp.cfg());
    assert_eq!(r.status, Status::ExpectedUnsupported);
    assert!(r.status.is_pass());
    // Expecting unsupported but compiling fine is a failure: the spec is out of date.
    let fake = Fake::new(Ok(compiled(doubler_bindings())), doubler());
    let r = run_spec(&fake, &expected, &tmp.cfg());
    assert_eq!(r.status, Status::Fail);
    // Malformed/internal errors are failures whatever the spec expects.
    let fake = Fake::new(Err(CompileFailure::Internal("boom".into())), doubler());
    let r = run_spec(&fake, &expected, &tmp.cfg());
    assert_eq!(r.status, Status::Fail);
    assert!(r.detail.contains("boom"));
}

#[test]
fn validation_messages_fail_a_passing_spec() {
    let tmp = Tmp::new("valid");
    let mut fake = Fake::new(Ok(compiled(doubler_bindings())), doubler());
    fake.dispatch_messages = vec!["VUID-vkCmdDispatch-None-02691".into()];
    let r = run_spec(&fake, &parse(DOUBLER_SPEC), &tmp.cfg());
    assert_eq!(r.status, Status::Fail);
    assert_eq!(r.messages, vec!["VUID-vkCmdDispatch-None-02691".to_string()]);
    assert!(r.detail.contains("validation"));
}

#[test]
fn dispatch_errors_and_missing_read_backs_fail() {
    let tmp = Tmp::new("derr");
    let fake = Fake::new(Ok(compiled(doubler_bindings())), Box::new(|_| Err("device lost".into())));
    let r = run_spec(&fake, &parse(DOUBLER_SPEC), &tmp.cfg());
    assert_eq!((r.status, r.detail.as_str()), (Status::Fail, "dispatch failed: device lost"));
    let fake = Fake::new(Ok(compiled(doubler_bindings())), Box::new(|_| Ok(vec![])));
    let r = run_spec(&fake, &parse(DOUBLER_SPEC), &tmp.cfg());
    assert!(r.detail.starts_with("no read-back for u0"), "{}", r.detail);
}

#[test]
fn root_constants_become_push_constants() {
    let tmp = Tmp::new("push");
    let mut c = compiled(vec![
        binding(ResourceClass::Cbv, 0, 0, 0, 0, DescriptorKind::PushConstant),
        binding(ResourceClass::Uav, 0, 0, 0, 1, DescriptorKind::StorageBuffer),
    ]);
    c.push_constant_size = Some(16);
    let spec = parse(
        "dispatch = [1, 1, 1]\n[[resource]]\nregister = \"b0\"\nkind = \"root_constants\"\ninit = { u32 = [5, 6] }\n\
         [[resource]]\nregister = \"u0\"\nkind = \"raw\"\nsize = 4\n[[resource.expect]]\nu32 = [11]",
    );
    let fake = Fake::new(
        Ok(c),
        Box::new(|job| {
            let p = &job.push_constants;
            let v = u32::from_le_bytes([p[0], p[1], p[2], p[3]]) + u32::from_le_bytes([p[4], p[5], p[6], p[7]]);
            Ok(vec![(0, 1, 0, v.to_le_bytes().to_vec())])
        }),
    );
    let r = run_spec(&fake, &spec, &tmp.cfg());
    assert_eq!(r.status, Status::Pass, "{}", r.detail);
    assert_eq!(fake.jobs.borrow()[0].push_constants, words(&[5, 6, 0, 0]));
    assert_eq!(fake.jobs.borrow()[0].resources.len(), 1);
}

#[test]
fn textures_samplers_and_counters() {
    let tmp = Tmp::new("tex");
    let mut sb = binding(ResourceClass::Uav, 0, 0, 0, 2, DescriptorKind::StorageBuffer);
    sb.has_counter = true;
    sb.counter_binding = Some((0, 3));
    let c = compiled(vec![
        binding(ResourceClass::Srv, 0, 0, 0, 0, DescriptorKind::SampledImage),
        binding(ResourceClass::Sampler, 0, 0, 0, 1, DescriptorKind::Sampler),
        sb,
    ]);
    let spec = parse(
        r#"
dispatch = [1, 1, 1]
[[resource]]
register = "t0"
kind = "texture2d_array"
format = "r32_float"
width = 4
height = 2
layers = 2
mips = 2
[[resource]]
register = "s0"
kind = "sampler"
filter = "linear"
address = "wrap"
compare = "less_equal"
[[resource]]
register = "u0"
kind = "structured"
size = 8
counter = 5
expect_counter = 7
[[resource.expect]]
u32 = [1, 2]
"#,
    );
    let fake = Fake::new(Ok(c), Box::new(|_| Ok(vec![(0, 2, 0, words(&[1, 2])), (0, 3, 0, words(&[7]))])));
    let r = run_spec(&fake, &spec, &tmp.cfg());
    assert_eq!(r.status, Status::Pass, "{}", r.detail);
    let jobs = fake.jobs.borrow();
    let Resource::SampledImage(img) = &jobs[0].resources[0].resource else { panic!("not an image") };
    // (4*2 + 2*1) texels * 4 bytes * 2 layers.
    assert_eq!((img.dim, img.layers, img.mips, img.data.len()), (ImageDim::D2, 2, 2, 80));
    let Resource::Sampler(s) = &jobs[0].resources[1].resource else { panic!("not a sampler") };
    assert_eq!((s.filter, s.address, s.compare), (Filter::Linear, AddressMode::Wrap, Some(CompareOp::LessEqual)));
    assert_eq!(
        jobs[0].resources[3],
        Bound { set: 0, binding: 3, array_index: 0, resource: Resource::StorageBuffer { data: words(&[5]) } }
    );
    drop(jobs);
    let fake2 =
        Fake::new(fake.compiled.clone(), Box::new(|_| Ok(vec![(0, 2, 0, words(&[1, 2])), (0, 3, 0, words(&[6]))])));
    let r = run_spec(&fake2, &spec, &tmp.cfg());
    assert_eq!(r.status, Status::Fail);
    assert!(r.detail.contains("counter: expected 7"), "{}", r.detail);
}

#[test]
fn kind_descriptor_mismatch_fails() {
    let tmp = Tmp::new("kindmis");
    let b = vec![
        binding(ResourceClass::Srv, 0, 0, 0, 0, DescriptorKind::SampledImage),
        binding(ResourceClass::Uav, 0, 0, 0, 1, DescriptorKind::StorageBuffer),
    ];
    let fake = Fake::new(Ok(compiled(b)), doubler());
    let r = run_spec(&fake, &parse(DOUBLER_SPEC), &tmp.cfg());
    assert_eq!(r.status, Status::Fail);
    assert!(r.detail.contains("image in the shader"), "{}", r.detail);
}

#[test]
fn corpus_specs_skip_without_a_corpus_and_report_sums_up() {
    let tmp = Tmp::new("corpus");
    let dir = tmp.0.join("specs");
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::write(dir.join("a_pass.toml"), format!("shader = \"fixtures/x.dxil\"\n{DOUBLER_SPEC}")).unwrap();
    std::fs::write(dir.join("sub/b_corpus.toml"), format!("shader = \"vkd3d-proton/x/y.dxil\"\n{DOUBLER_SPEC}"))
        .unwrap();
    std::fs::write(dir.join("c_bad.toml"), "shader = 3").unwrap();
    std::fs::write(dir.join("notes.md"), "not a spec").unwrap();
    let fake = Fake::new(Ok(compiled(doubler_bindings())), doubler());
    let mut seen = Vec::new();
    let report = run_dir(&fake, &dir, &tmp.cfg(), &mut |i, n, r| seen.push((i, n, r.name.clone()))).unwrap();
    assert_eq!(seen, vec![(1, 3, "a_pass".into()), (2, 3, "c_bad".into()), (3, 3, "b_corpus".into())]);
    let st: Vec<_> = report.specs.iter().map(|s| s.status).collect();
    assert_eq!(st, vec![Status::Pass, Status::Fail, Status::Skipped]);
    assert!(report.specs[1].detail.starts_with("spec error:"), "{}", report.specs[1].detail);
    assert!(report.specs[2].detail.starts_with("corpus not found"));
    assert_eq!(report.closing_line(), "1 passed, 1 failed, 1 skipped");
    let table = report.table();
    assert!(table.ends_with("1 passed, 1 failed, 1 skipped\n"));
    assert!(table.contains("a_pass"));
    let json: serde_json::Value = serde_json::from_str(&report.to_json()).unwrap();
    assert_eq!(json["device"], "fake");
    assert_eq!(json["passed"], 1);
    assert_eq!(json["specs"][1]["status"], "fail");
    assert_eq!(json["specs"][2]["status"], "skipped");
    assert!(json["specs"][0]["compile_ms"].is_number());
    assert!(json["specs"][0]["messages"].is_array());
}

#[test]
fn spec_errors_are_precise() {
    let bad = |body: &str| {
        Spec::parse("s", Path::new("s.toml"), &format!("shader = \"fixtures/x.dxil\"\ndispatch = [1, 1, 1]\n{body}"))
            .unwrap_err()
            .to_string()
    };
    assert!(bad("requires = [\"teleport\"]").contains("unknown feature `teleport`"));
    assert!(bad("[[resource]]\nregister = \"x0\"\nkind = \"raw\"\nsize = 4").contains("register `x0`"));
    assert!(bad("[[resource]]\nregister = \"b0\"\nkind = \"raw\"\nsize = 4").contains("cannot sit in register"));
    assert!(bad("[[resource]]\nregister = \"t0\"\nkind = \"typed\"\nsize = 4").contains("needs a `format`"));
    assert!(bad("[[resource]]\nregister = \"t0\"\nkind = \"raw\"").contains("needs `init` or `size`"));
    assert!(bad("[[resource]]\nregister = \"t0\"\nkind = \"raw\"\nsize = 6").contains("multiple"));
    assert!(bad("[[resource]]\nregister = \"u0\"\nkind = \"raw\"\nsize = 4\n[[resource.expect]]\nu32 = [1, 2]")
        .contains("past the resource"));
    assert!(bad("[[resource]]\nregister = \"u0\"\nkind = \"raw\"\nsize = 8\n[[resource.expect]]\nu32 = [1]\n[[resource.expect]]\nat = 0\nu32 = [1]")
        .contains("overlaps"));
    assert!(bad(
        "[[resource]]\nregister = \"u0\"\nkind = \"raw\"\nsize = 4\n[[resource.expect]]\nu32 = [1]\nabs = 0.5"
    )
    .contains("f16/f32/f64"));
    assert!(bad("[[resource]]\nregister = \"u0\"\nkind = \"raw\"\nsize = 4\nbogus = 1").contains("bogus"));
    assert!(bad(
        "[[resource]]\nregister = \"t0\"\nkind = \"texturecube\"\nformat = \"r32_float\"\nwidth = 4\nheight = 2"
    )
    .contains("inconsistent texture shape"));
    assert!(bad("[[resource]]\nregister = \"u0\"\nkind = \"raw\"\nsize = 4\n[[resource]]\nregister = \"u0\"\nkind = \"raw\"\nsize = 4")
        .contains("given twice"));
    let e = Spec::parse("s", Path::new("s.toml"), "shader = \"/etc/passwd\"\ndispatch = [1,1,1]").unwrap_err();
    assert!(e.to_string().contains("must start with"));
    // Expect entries follow each other by default.
    let s = parse("dispatch = [1, 1, 1]\n[[resource]]\nregister = \"u0\"\nkind = \"raw\"\nsize = 12\n[[resource.expect]]\nu32 = [1]\n[[resource.expect]]\nu16 = [2, 3]\n[[resource.expect]]\nf32 = [1.0]");
    let at: Vec<_> = s.resources[0].checks.iter().map(|c| c.at).collect();
    assert_eq!(at, vec![0, 4, 8]);
}
