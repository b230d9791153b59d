//! DXIL operations that need more than the corpus run shows: sampler feedback's bindings, the
//! rasterizer sample count as a specialization constant, 64-bit raw gathers, and operations no
//! corpus shader uses, built by editing a corpus module in memory (`dxjit::compile::compile_module`).
//! Each one is compiled and its SPIR-V validated, or must be refused as `Unsupported` naming what it
//! needs (a device extension, work graphs). SKIPs without the corpus.

use dxjit::compile::compile_module;
use dxjit::dxil_op::DxilOp;
use dxjit::ir::{InstKind, List, Module};
use dxjit::{compile, CompileError, CompileOptions, CompiledShader, DescriptorKind};
use dxjit_conformance::corpus::Corpus;
use dxjit_conformance::spirv_val;

fn bytes(c: &Corpus, rel: &str) -> Vec<u8> {
    let path = c.root.join(rel);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn build(c: &Corpus, rel: &str, opts: &CompileOptions) -> CompiledShader {
    let cs = compile(&bytes(c, rel), opts).unwrap_or_else(|e| panic!("{rel}: {e}"));
    spirv_val::validate(&cs.spirv).unwrap_or_else(|e| panic!("{rel}: spirv-val: {e}"));
    cs
}

fn module(c: &Corpus, rel: &str) -> Module {
    let b = bytes(c, rel);
    let container = dxjit::container::Container::parse(&b).unwrap_or_else(|e| panic!("{rel}: {e}"));
    let program = container.dxil_program().unwrap_or_else(|e| panic!("{rel}: {e}"));
    dxjit::bitcode::read_module(program.bitcode).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// Replaces every call of `from` by `to`, dropping the first `drop` arguments; returns how many.
fn retarget(m: &mut Module, from: DxilOp, to: DxilOp, drop: u32) -> usize {
    let mut n = 0;
    for f in &mut m.functions {
        for i in &mut f.insts {
            if let InstKind::DxOp { op, args, .. } = &mut i.kind {
                if *op == from {
                    *op = to;
                    *args = List { start: args.start + drop, len: args.len - drop };
                    n += 1;
                }
            }
        }
    }
    n
}

fn compile_valid(m: &Module, opts: &CompileOptions, what: &str) -> CompiledShader {
    let cs = compile_module(m, opts).unwrap_or_else(|e| panic!("{what}: {e}"));
    spirv_val::validate(&cs.spirv).unwrap_or_else(|e| panic!("{what}: spirv-val: {e}"));
    cs
}

fn unsupported(m: &Module, opts: &CompileOptions) -> String {
    match compile_module(m, opts) {
        Err(CompileError::Unsupported { feature, .. }) => feature,
        other => panic!("expected Unsupported, got {:?}", other.map(|c| c.spirv.len())),
    }
}

/// SPIR-V words of `OpDecorate %id SpecId n` for some id.
fn spec_id_decorations(spirv: &[u32]) -> Vec<u32> {
    let mut out = Vec::new();
    let mut k = 5;
    while k < spirv.len() {
        let (len, op) = ((spirv[k] >> 16) as usize, spirv[k] & 0xffff);
        if len == 0 {
            break;
        }
        // OpDecorate = 71, Decoration SpecId = 1.
        if op == 71 && len == 4 && spirv[k + 2] == 1 {
            out.push(spirv[k + 3]);
        }
        k += len;
    }
    out
}

const SAMPLE_COUNT_PS: &str =
    "vkd3d-proton/inline_d3d12_shaders/test_shader_get_render_target_sample_count__ps_code_dxil.dxil";

#[test]
fn render_target_sample_count_is_a_specialization_constant_without_the_option() {
    let Some(c) = Corpus::for_test("compile_dxil_ops") else { return };
    let cs = build(&c, SAMPLE_COUNT_PS, &CompileOptions::default());
    assert_eq!(cs.sample_count_spec_id, Some(dxjit::SPEC_ID_SAMPLE_COUNT));
    assert_eq!(spec_id_decorations(&cs.spirv), vec![dxjit::SPEC_ID_SAMPLE_COUNT]);

    let mut opts = CompileOptions::default();
    opts.state.rasterizer_sample_count = Some(4);
    let cs = build(&c, SAMPLE_COUNT_PS, &opts);
    assert_eq!(cs.sample_count_spec_id, None, "the option gives a plain constant");
    assert!(spec_id_decorations(&cs.spirv).is_empty());
}

#[test]
fn render_target_sample_position_uses_the_standard_pattern_of_the_sample_count() {
    let Some(c) = Corpus::for_test("compile_dxil_ops") else { return };
    // t.GetSamplePosition(index) turned into GetRenderTargetSamplePosition(index).
    let mut m = module(&c, "vkd3d-proton/inline_d3d12_shaders/test_shader_sample_position__ps_code_dxil.dxil");
    assert_eq!(retarget(&mut m, DxilOp::Texture2DMSGetSamplePosition, DxilOp::RenderTargetGetSamplePosition, 1), 1);
    let cs = compile_valid(&m, &CompileOptions::default(), "RenderTargetGetSamplePosition");
    assert_eq!(cs.sample_count_spec_id, Some(dxjit::SPEC_ID_SAMPLE_COUNT));
    let mut opts = CompileOptions::default();
    opts.state.rasterizer_sample_count = Some(8);
    let cs = compile_valid(&m, &opts, "RenderTargetGetSamplePosition, 8 samples");
    assert_eq!(cs.sample_count_spec_id, None);
}

#[test]
fn sampler_feedback_maps_are_r32ui_storage_images() {
    let Some(c) = Corpus::for_test("compile_dxil_ops") else { return };
    for (rel, kinds) in [
        (
            "vkd3d-proton/inline_d3d12_sampler_feedback/test_sampler_feedback_grad__cs_code.dxil",
            &["FeedbackTexture2D", "FeedbackTexture2D"][..],
        ),
        ("vkd3d-proton/inline_d3d12_sampler_feedback/cs_code_min_mip_level_array.dxil", &["FeedbackTexture2DArray"]),
        (
            "vkd3d-proton/inline_d3d12_sampler_feedback/test_sampler_feedback_implicit_lod_inner__ps_code_bias.dxil",
            &["FeedbackTexture2D"],
        ),
        (
            "dxil-spirv/sampler-feedback/sampler-feedback.frag.dxil",
            &["FeedbackTexture2D", "FeedbackTexture2D", "FeedbackTexture2DArray", "FeedbackTexture2DArray"],
        ),
    ] {
        let cs = build(&c, rel, &CompileOptions::default());
        let fb: Vec<_> = cs.bindings.iter().filter(|b| b.kind.starts_with("Feedback")).collect();
        let mut got: Vec<_> = fb.iter().map(|b| b.kind.as_str()).collect();
        got.sort_unstable();
        assert_eq!(got, kinds, "{rel}");
        for b in fb {
            assert_eq!(b.descriptor, DescriptorKind::StorageImage, "{rel}");
            assert_eq!(b.format_hint.as_deref(), Some("R32ui"), "{rel}");
        }
    }
}

#[test]
fn gather_raw_of_64bit_texels_is_two_32bit_gathers() {
    let Some(c) = Corpus::for_test("compile_dxil_ops") else { return };
    let cs = build(&c, "dxil-spirv/dxil-builtin/raw-gather.sm67.ssbo.comp.dxil", &CompileOptions::default());
    // The R32G32_UINT view is gathered per channel: no 64-bit image support needed.
    assert!(!cs.capabilities.iter().any(|c| c == "Int64ImageEXT"), "{:?}", cs.capabilities);
    assert!(cs.capabilities.iter().any(|c| c == "Int64"), "{:?}", cs.capabilities);
}

fn refusal(c: &Corpus, rel: &str, opts: &CompileOptions) -> String {
    match compile(&bytes(c, rel), opts) {
        Err(CompileError::Unsupported { feature, .. }) => feature,
        other => panic!("{rel}: expected Unsupported, got {:?}", other.map(|c| c.spirv.len())),
    }
}

#[test]
fn barycentrics_and_shading_rate_name_their_extensions_and_compile_with_them() {
    let Some(c) = Corpus::for_test("compile_dxil_ops") else { return };
    let bary = [
        "dxil-spirv/dxil-builtin/barycentrics.frag.dxil",
        "dxil-spirv/dxil-builtin/barycentrics-2.frag.dxil",
        "vkd3d-proton/sm_advanced/ps_barycentrics.dxil",
        "vkd3d-proton/pso/ps_mismatch_sv_1.dxil",
        "vkd3d-proton/pso/ps_mismatch_sv_2.dxil",
    ];
    let vrs = [
        ("dxil-spirv/semantics/sv-shading-rate.noglsl.frag.dxil", "ShadingRateKHR"),
        ("dxil-spirv/semantics/sv-shading-rate.noglsl.vert.dxil", "PrimitiveShadingRateKHR"),
        ("vkd3d-proton/vrs/vrs_ps.dxil", "ShadingRateKHR"),
        ("vkd3d-proton/vrs/vrs_vs.dxil", "PrimitiveShadingRateKHR"),
    ];
    let off = CompileOptions::default();
    for rel in bary {
        let f = refusal(&c, rel, &off);
        assert!(f.contains("VK_KHR_fragment_shader_barycentric"), "{rel}: {f}");
    }
    for (rel, _) in vrs {
        let f = refusal(&c, rel, &off);
        assert!(f.contains("VK_KHR_fragment_shading_rate"), "{rel}: {f}");
    }
    let on = CompileOptions { fragment_barycentrics: true, fragment_shading_rate: true, ..CompileOptions::default() };
    for rel in bary {
        let cs = build(&c, rel, &on);
        assert!(cs.capabilities.iter().any(|c| c == "FragmentBarycentricKHR"), "{rel}: {:?}", cs.capabilities);
    }
    for (rel, builtin) in vrs {
        let cs = build(&c, rel, &on);
        assert!(cs.capabilities.iter().any(|c| c == "FragmentShadingRateKHR"), "{rel}: {:?}", cs.capabilities);
        // BuiltIn ShadingRateKHR = 4444, PrimitiveShadingRateKHR = 4432 (OpDecorate %v BuiltIn n).
        let n = if builtin == "ShadingRateKHR" { 4444 } else { 4432 };
        assert!(cs.spirv.windows(2).any(|w| w == [11, n]), "{rel}: no BuiltIn {builtin}");
    }
}

/// Appends i32 constants `vals` to `m` and returns them as values (type of the existing i32 `like`).
fn i32_consts(m: &mut Module, like: dxjit::ir::Value, vals: &[u64]) -> Vec<dxjit::ir::Value> {
    let dxjit::ir::Value::Const(c) = like else { panic!("not a constant") };
    let ty = m.consts[c.index()].ty;
    vals.iter()
        .map(|&v| {
            m.consts.push(dxjit::ir::Const { ty, kind: dxjit::ir::ConstKind::Int(v) });
            dxjit::ir::Value::Const(dxjit::ir::ConstId(m.consts.len() as u32 - 1))
        })
        .collect()
}

/// Rewrites the first call of `from` into `to(args)`.
fn rewrite_first(
    m: &mut Module,
    from: DxilOp,
    to: DxilOp,
    make_args: impl Fn(&mut Module, &[dxjit::ir::Value]) -> Vec<dxjit::ir::Value>,
) {
    let (fi, ii, old) = m
        .functions
        .iter()
        .enumerate()
        .find_map(|(fi, f)| {
            f.insts.iter().enumerate().find_map(|(ii, inst)| match &inst.kind {
                InstKind::DxOp { op, args, .. } if *op == from => Some((fi, ii, f.values(*args).to_vec())),
                _ => None,
            })
        })
        .unwrap_or_else(|| panic!("no {}", from.name()));
    let new_args = make_args(m, &old);
    let f = &mut m.functions[fi];
    let start = f.value_pool.len() as u32;
    f.value_pool.extend(new_args.iter().copied());
    if let InstKind::DxOp { op, args, .. } = &mut f.insts[ii].kind {
        *op = to;
        *args = List { start, len: new_args.len() as u32 };
    }
}

const BARRIER_CS: &str = "vkd3d-proton/sm_advanced/cs_wmma_lds_transpose.dxil";

#[test]
fn sm68_barriers_by_memory_type_and_handle() {
    let Some(c) = Corpus::for_test("compile_dxil_ops") else { return };
    // Barrier(9) (GroupMemoryBarrierWithGroupSync) replaced by SM 6.8 Barrier(types, semantics).
    for (types, semantics) in [(2, 3), (1, 5), (3, 7), (1, 4), (0xF, 1)] {
        let mut m = module(&c, BARRIER_CS);
        rewrite_first(&mut m, DxilOp::Barrier, DxilOp::BarrierByMemoryType, |m, old| {
            i32_consts(m, old[0], &[types, semantics])
        });
        compile_valid(&m, &CompileOptions::default(), &format!("Barrier({types:#x}, {semantics:#x})"));
    }
    // Barrier(RWByteAddressBuffer, DEVICE_SCOPE | GROUP_SYNC): the handle of the shader's first buffer store.
    let mut m = module(&c, BARRIER_CS);
    let handle = m
        .functions
        .iter()
        .find_map(|f| {
            f.insts.iter().find_map(|i| match &i.kind {
                    InstKind::DxOp {
                        op:
                            DxilOp::RawBufferStore
                            | DxilOp::BufferStore
                            | DxilOp::AtomicCompareExchange
                            | DxilOp::AtomicBinOp,
                        args,
                        ..
                    } => Some(f.values(*args)[0]),
                    _ => None,
                })
        })
        .expect("a UAV access");
    rewrite_first(&mut m, DxilOp::Barrier, DxilOp::BarrierByMemoryHandle, |m, old| {
        let s = i32_consts(m, old[0], &[5]);
        vec![handle, s[0]]
    });
    compile_valid(&m, &CompileOptions::default(), "Barrier(uav, DEVICE_SCOPE | GROUP_SYNC)");
}

#[test]
fn imul_and_umul_give_high_and_low_words() {
    let Some(c) = Corpus::for_test("compile_dxil_ops") else { return };
    // asuint(double) (SplitDouble: two i32 results) replaced by IMul/UMul of two constants.
    for op in [DxilOp::IMul, DxilOp::UMul] {
        let mut m = module(&c, "dxil-spirv/dxil-builtin/split-double.frag.dxil");
        let like = {
            let f = m.functions.iter().find(|f| !f.insts.is_empty()).expect("a function");
            f.insts
                .iter()
                .find_map(|i| match &i.kind {
                    InstKind::DxOp { op: DxilOp::LoadInput, args, .. } => Some(f.values(*args)[0]),
                    _ => None,
                })
                .expect("loadInput")
        };
        rewrite_first(&mut m, DxilOp::SplitDouble, op, |m, _| i32_consts(m, like, &[0xFFFF_FFF0, 7]));
        let cs = compile_valid(&m, &CompileOptions::default(), op.name());
        // OpSMulExtended = 152, OpUMulExtended = 151.
        let want = if op == DxilOp::IMul { 152 } else { 151 };
        assert!(cs.spirv.iter().any(|&w| w & 0xffff == want && w >> 16 == 5), "{}: no OpXMulExtended", op.name());
    }
}

#[test]
fn refused_ops_name_what_they_need() {
    let Some(c) = Corpus::for_test("compile_dxil_ops") else { return };
    for (op, needs) in [
        (DxilOp::CycleCounterLegacy, "VK_KHR_shader_clock"),
        (DxilOp::WaveMatrix_Multiply, "VK_KHR_cooperative_matrix"),
        (DxilOp::GetRemainingRecursionLevels, "work graphs"),
        (DxilOp::BarrierByNodeRecordHandle, "work graphs"),
        (DxilOp::TempRegLoad, "DXBC-converter"),
    ] {
        let mut m = module(&c, BARRIER_CS);
        assert_eq!(retarget(&mut m, DxilOp::Barrier, op, 0), 1);
        let f = unsupported(&m, &CompileOptions::default());
        assert!(f.contains(op.name()) && f.contains(needs), "{}: {f}", op.name());
    }
}
