//! Unit tests of lowering pieces: structured shapes of fixtures and the
//! dispatch table.

use super::*;

fn module(name: &str) -> Module {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/compute").join(name);
    let bytes = std::fs::read(&p).unwrap();
    let c = crate::container::Container::parse(&bytes).unwrap();
    crate::bitcode::read_module(c.dxil_program().unwrap().bitcode).unwrap()
}

fn main_fn(m: &Module) -> &Function {
    m.functions.iter().find(|f| f.name == "main").unwrap()
}

fn count(n: &Node, pred: &dyn Fn(&Node) -> bool) -> usize {
    let own = usize::from(pred(n));
    own + match n {
        Node::Seq(v) => v.iter().map(|c| count(c, pred)).sum(),
        Node::If { then_, else_, .. } => count(then_, pred) + count(else_, pred),
        Node::Switch { cases, default, .. } => {
            cases.iter().map(|c| count(&c.1, pred)).sum::<usize>() + count(default, pred)
        }
        Node::Loop { body } | Node::Scope { body } => count(body, pred),
        _ => 0,
    }
}

#[test]
fn structures_an_if() {
    let m = module("raw_buffer.cs_6_0.dxil");
    let f = main_fn(&m);
    let sf = structure(&m, f).unwrap();
    assert_eq!(count(&sf.root, &|n| matches!(n, Node::Loop { .. })), 0);
    // Every block appears exactly once.
    assert_eq!(count(&sf.root, &|n| matches!(n, Node::Block(_))), f.blocks.len());
}

#[test]
fn structures_a_loop_with_phis() {
    let m = module("groupshared_reduce.cs_6_0.dxil");
    let f = main_fn(&m);
    let sf = structure(&m, f).unwrap();
    assert_eq!(count(&sf.root, &|n| matches!(n, Node::Loop { .. })), 1);
    assert!(count(&sf.root, &|n| matches!(n, Node::Break)) >= 1);
    // The loop-carried phi gets a copy on entry and on the back edge.
    assert_eq!(count(&sf.root, &|n| matches!(n, Node::PhiCopy { .. })), 2);
    assert_eq!(count(&sf.root, &|n| matches!(n, Node::Block(_))), f.blocks.len());
}

#[test]
fn structures_switch_fall_through() {
    let m = module("cf_switch.cs_6_0.dxil");
    let f = main_fn(&m);
    let sf = structure(&m, f).unwrap();
    assert_eq!(count(&sf.root, &|n| matches!(n, Node::Block(_))), f.blocks.len());
}

#[test]
fn dispatch_table_covers_the_core_families() {
    use crate::dxil_op::DxilOp::*;
    for op in [
        ThreadId,
        Barrier,
        RawBufferLoad,
        BufferStore,
        CBufferLoadLegacy,
        FMax,
        Ibfe,
        AtomicBinOp,
        TextureLoad,
        WaveActiveOp,
        QuadOp,
        CreateHandleFromHeap,
        WaveMatch,
        WaveMultiPrefixOp,
        Msad,
        Sample,
        CalculateLOD,
        DerivFineX,
        TextureGatherRaw,
        TextureStoreSample,
        LoadInput,
        StoreOutput,
        Discard,
        EmitStream,
        PrimitiveID,
        DomainLocation,
        StorePatchConstant,
        LoadOutputControlPoint,
        TraceRay,
        ReportHit,
        CreateHandleForLib,
        AllocateRayQuery,
        RayQuery_Proceed,
        RayQuery_CommittedObjectToWorld3x4,
    ] {
        assert!(handler(op).is_some(), "{}", op.name());
    }
    // Every op of the table has a handler (refused ones name what they need: `refused.rs`).
    for k in 0..1024 {
        if let Some(op) = crate::dxil_op::DxilOp::from_u32(k) {
            assert!(handler(op).is_some(), "{}", op.name());
        }
    }
}

#[test]
fn unsupported_errors_name_the_feature_and_shader_model() {
    // SV_GroupIndex read through an op no compute shader may use (ViewID,
    // same shape: no arguments, i32 result) must be refused by name.
    let mut m = module("sysvals.cs_6_0.dxil");
    let mut replaced = false;
    for f in &mut m.functions {
        for i in &mut f.insts {
            if let InstKind::DxOp { op, .. } = &mut i.kind {
                if *op == crate::dxil_op::DxilOp::FlattenedThreadIdInGroup {
                    *op = crate::dxil_op::DxilOp::ViewID;
                    replaced = true;
                }
            }
        }
    }
    assert!(replaced);
    match crate::compile::compile_module(&m, &crate::CompileOptions::default()) {
        Err(crate::CompileError::Unsupported { feature, function, shader_model, .. }) => {
            assert!(feature.contains("ViewID"), "{feature}");
            assert_eq!(function, "main");
            assert_eq!(shader_model, "cs_6_0");
        }
        other => panic!("expected Unsupported, got {other:?}"),
    }
}

#[test]
fn capability_names_match_debug() {
    for &c in super::CAPS_NAMED {
        assert_eq!(super::cap_name(c), Some(format!("{c:?}").as_str()));
    }
    assert_eq!(super::cap_name(rspirv::spirv::Capability::Kernel), None);
}

/// The instructions of a SPIR-V module as (opcode, operands).
fn spirv_insts(words: &[u32]) -> Vec<(u32, Vec<u32>)> {
    let mut out = Vec::new();
    let mut i = 5;
    while i < words.len() {
        let n = (words[i] >> 16) as usize;
        out.push((words[i] & 0xffff, words[i + 1..i + n.max(1)].to_vec()));
        i += n.max(1);
    }
    out
}

fn compile_fixture(path: &str, entry: Option<&str>) -> CompiledShader {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures").join(path);
    let bytes = std::fs::read(&p).unwrap();
    let opts = CompileOptions { entry_point: entry.map(String::from), ..CompileOptions::default() };
    crate::compile::compile(&bytes, &opts).unwrap()
}

#[test]
fn ray_queries_lower_to_khr_ray_query() {
    let cs = compile_fixture("rayquery/inline_hit.cs_6_5.dxil", None);
    // SPIR-V 1.4 (VK_KHR_ray_query needs VK_KHR_spirv_1_4) even though 1.3 was asked for.
    assert_eq!(cs.spirv[1], 0x0001_0400);
    let insts = spirv_insts(&cs.spirv);
    let has = |op: Op| insts.iter().filter(|i| i.0 == op as u32).count();
    assert_eq!(has(Op::TypeRayQueryKHR), 1);
    assert_eq!(has(Op::TypeAccelerationStructureKHR), 1);
    assert_eq!(has(Op::RayQueryInitializeKHR), 1);
    assert_eq!(has(Op::RayQueryProceedKHR), 2);
    assert_eq!(has(Op::RayQueryConfirmIntersectionKHR), 1);
    // CandidateType reads the candidate (0), CommittedStatus/RayT/barycentrics the committed (1).
    let consts: std::collections::HashMap<u32, u32> =
        insts.iter().filter(|i| i.0 == Op::Constant as u32 && i.1.len() == 3).map(|i| (i.1[1], i.1[2])).collect();
    let which = |op: Op| -> Vec<u32> {
        insts.iter().filter(|i| i.0 == op as u32).map(|i| consts.get(&i.1[3]).copied().unwrap_or(99)).collect()
    };
    let types = which(Op::RayQueryGetIntersectionTypeKHR);
    assert!(types.contains(&0) && types.contains(&1), "{types:?}");
    assert_eq!(which(Op::RayQueryGetIntersectionTKHR), [1]);
    assert_eq!(which(Op::RayQueryGetIntersectionBarycentricsKHR), [1, 1], "one read per component");
    assert!(cs.capabilities.iter().any(|c| c == "RayQueryKHR"));
}

#[test]
fn ray_tracing_exports_use_khr_builtins_and_interface_variables() {
    // Closest hit of the procedural fixture: payload + custom attributes, RayTCurrent, HitKind.
    let cs = compile_fixture("raytracing/procedural.lib_6_3.dxil", Some("ClosestHit"));
    let insts = spirv_insts(&cs.spirv);
    let storage: Vec<u32> = insts.iter().filter(|i| i.0 == Op::Variable as u32).map(|i| i.1[2]).collect();
    assert!(storage.contains(&(StorageClass::IncomingRayPayloadKHR as u32)));
    assert!(storage.contains(&(StorageClass::HitAttributeKHR as u32)));
    let builtins: Vec<u32> = insts
        .iter()
        .filter(|i| i.0 == Op::Decorate as u32 && i.1.get(1) == Some(&(Decoration::BuiltIn as u32)))
        .map(|i| i.1[2])
        .collect();
    assert!(builtins.contains(&(spirv::BuiltIn::RayTmaxKHR as u32)), "RayTCurrent is RayTmaxKHR");
    assert!(builtins.contains(&(spirv::BuiltIn::HitKindKHR as u32)));
    // The intersection shader reports its hit through a HitAttributeKHR variable.
    let cs = compile_fixture("raytracing/procedural.lib_6_3.dxil", Some("Intersection"));
    let insts = spirv_insts(&cs.spirv);
    assert_eq!(insts.iter().filter(|i| i.0 == Op::ReportIntersectionKHR as u32).count(), 1);
    // Any hit: IgnoreHit is a terminator inside an always-taken branch.
    let cs = compile_fixture("raytracing/anyhit_ignore.lib_6_3.dxil", Some("AnyHit"));
    let insts = spirv_insts(&cs.spirv);
    assert_eq!(insts.iter().filter(|i| i.0 == Op::IgnoreIntersectionKHR as u32).count(), 1);
    // Raygen: TraceRay through a RayPayloadKHR variable.
    let cs = compile_fixture("raytracing/basic.lib_6_3.dxil", Some("RayGen"));
    let insts = spirv_insts(&cs.spirv);
    let trace = insts.iter().find(|i| i.0 == Op::TraceRayKHR as u32).expect("OpTraceRayKHR");
    let payload = trace.1[10];
    let var = insts.iter().find(|i| i.0 == Op::Variable as u32 && i.1[1] == payload).expect("payload variable");
    assert_eq!(var.1[2], StorageClass::RayPayloadKHR as u32);
    assert_eq!(cs.entry_point, "RayGen");
}

#[test]
fn subgroup_plans_check_wave_size_against_the_pipeline() {
    use crate::dxil::WaveSize;
    use crate::options::SubgroupSizeRange as R;
    use wave::{subgroup_plan, SubgroupPlan};
    let plan = |w: Option<WaveSize>, r: Option<R>| subgroup_plan(w.as_ref(), r);
    let fixed = |n| Some(WaveSize { min: n, max: None, preferred: None });
    let ranged = |a, b, p| Some(WaveSize { min: a, max: Some(b), preferred: p });
    // Nothing known: nothing folded or required.
    assert_eq!(plan(None, None), Ok(SubgroupPlan::default()));
    // Only the pipeline: one size folds WaveGetLaneCount; a range does not.
    assert_eq!(plan(None, Some(R::exactly(32))), Ok(SubgroupPlan { lane_count: Some(32), required: None }));
    assert_eq!(plan(None, Some(R { min: 8, max: 64 })), Ok(SubgroupPlan::default()));
    // Only the shader: its size is reported, unchecked and not folded.
    assert_eq!(plan(fixed(16), None), Ok(SubgroupPlan { lane_count: None, required: Some(16) }));
    assert_eq!(plan(ranged(4, 128, Some(16)), None), Ok(SubgroupPlan { lane_count: None, required: Some(16) }));
    assert_eq!(plan(ranged(8, 16, None), None), Ok(SubgroupPlan { lane_count: None, required: Some(8) }));
    // Both: the preferred size when the pipeline allows it, else the largest size both allow.
    let both = |n| Ok(SubgroupPlan { lane_count: Some(n), required: Some(n) });
    assert_eq!(plan(fixed(32), Some(R { min: 8, max: 64 })), both(32));
    assert_eq!(plan(ranged(8, 16, None), Some(R::exactly(8))), both(8));
    assert_eq!(plan(ranged(8, 16, None), Some(R { min: 4, max: 64 })), both(16));
    assert_eq!(plan(ranged(4, 128, Some(16)), Some(R { min: 8, max: 64 })), both(16));
    assert_eq!(plan(ranged(4, 128, Some(16)), Some(R { min: 32, max: 64 })), both(64));
    // No common size: refused, naming the attribute and both ranges.
    let e = plan(fixed(16), Some(R::exactly(8))).unwrap_err();
    assert_eq!(e, "[WaveSize(16)] (subgroup sizes 16..=16) on a pipeline running with subgroup sizes 8..=8");
    let e = plan(ranged(64, 128, Some(64)), Some(R { min: 8, max: 32 })).unwrap_err();
    assert!(e.starts_with("[WaveSize(64, 128, 64)] (subgroup sizes 64..=128)"), "{e}");
}

#[test]
fn half_constants_widen_exactly() {
    use math::f16_bits_to_f32 as h;
    assert_eq!(h(0x3c00), 1.0);
    assert_eq!(h(0xc000), -2.0);
    assert_eq!(h(0x7bff), 65504.0);
    assert_eq!(h(0x0001), 2f32.powi(-24));
    assert_eq!(h(0x83ff), -(1023.0 * 2f32.powi(-24)));
    assert_eq!(h(0x8000).to_bits(), 0x8000_0000);
    assert_eq!(h(0x7c00), f32::INFINITY);
    assert_eq!(h(0xfc00), f32::NEG_INFINITY);
    assert!(h(0x7e00).is_nan());
    assert_eq!(h(0x3555), 0.333_251_95);
}

#[test]
fn hit_system_values_are_read_before_a_nested_trace() {
    // recursion.lib_6_3 MirrorHit reads InstanceID() after its TraceRay; WorldRayOrigin,
    // WorldRayDirection and RayTCurrent before it. All are loaded once, before OpTraceRayKHR.
    let cs = compile_fixture("raytracing/recursion.lib_6_3.dxil", Some("MirrorHit"));
    let insts = spirv_insts(&cs.spirv);
    let builtin_of: std::collections::HashMap<u32, u32> = insts
        .iter()
        .filter(|i| i.0 == Op::Decorate as u32 && i.1.get(1) == Some(&(Decoration::BuiltIn as u32)))
        .map(|i| (i.1[0], i.1[2]))
        .collect();
    let trace = insts.iter().position(|i| i.0 == Op::TraceRayKHR as u32).expect("OpTraceRayKHR");
    let loads: Vec<(usize, u32)> = insts
        .iter()
        .enumerate()
        .filter(|(_, i)| i.0 == Op::Load as u32)
        .filter_map(|(k, i)| builtin_of.get(&i.1[2]).map(|b| (k, *b)))
        .collect();
    use spirv::BuiltIn as B;
    for b in [B::InstanceCustomIndexKHR, B::WorldRayOriginKHR, B::WorldRayDirectionKHR, B::RayTmaxKHR] {
        let at: Vec<usize> = loads.iter().filter(|l| l.1 == b as u32).map(|l| l.0).collect();
        assert_eq!(at.len(), 1, "{b:?} loaded once: {at:?}");
        assert!(at[0] < trace, "{b:?} loaded before OpTraceRayKHR");
    }
    // A hit shader without a nested trace reads its system values where DXIL does.
    let cs = compile_fixture("raytracing/recursion.lib_6_3.dxil", Some("TargetHit"));
    assert!(spirv_insts(&cs.spirv).iter().any(|i| i.0 == Op::Load as u32));
}
