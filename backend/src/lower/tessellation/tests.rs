//! Unit tests of the hull/domain lowering: execution modes, the TCS entry
//! structure under both patch-constant schemes, patch-constant placement,
//! tess-factor clamping and errors, on the tessellation fixtures.

use rspirv::dr::{Instruction, Module as SpvModule, Operand};
use rspirv::spirv::{BuiltIn as SpvBuiltIn, Decoration, ExecutionMode, Op};

use crate::compile::{compile, compile_pipeline, CompileOptions, PatchConstantInvocations};
use crate::link::{InputElement, InputLayout, LinkOptions};

fn fixture(name: &str) -> Vec<u8> {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures").join(name);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn parse(words: &[u32]) -> SpvModule {
    rspirv::dr::load_words(words).expect("SPIR-V parses")
}

fn modes(m: &SpvModule) -> Vec<ExecutionMode> {
    m.execution_modes
        .iter()
        .filter_map(|i| match i.operands.get(1) {
            Some(Operand::ExecutionMode(e)) => Some(*e),
            _ => None,
        })
        .collect()
}

fn mode_operand(m: &SpvModule, mode: ExecutionMode) -> Option<u32> {
    m.execution_modes.iter().find_map(|i| match (i.operands.get(1), i.operands.get(2)) {
        (Some(Operand::ExecutionMode(e)), Some(Operand::LiteralBit32(v))) if *e == mode => Some(*v),
        _ => None,
    })
}

fn all_insts(m: &SpvModule) -> impl Iterator<Item = &Instruction> {
    m.functions.iter().flat_map(|f| f.blocks.iter().flat_map(|b| b.instructions.iter()))
}

fn count_op(m: &SpvModule, op: Op) -> usize {
    all_insts(m).filter(|i| i.class.opcode == op).count()
}

fn decorated(m: &SpvModule, id: u32, d: Decoration) -> Option<&Instruction> {
    m.annotations
        .iter()
        .find(|a| a.operands.first() == Some(&Operand::IdRef(id)) && a.operands.get(1) == Some(&Operand::Decoration(d)))
}

fn builtin_var(m: &SpvModule, b: SpvBuiltIn) -> Option<u32> {
    m.annotations.iter().find_map(|a| match (a.operands.first(), a.operands.get(2)) {
        (Some(Operand::IdRef(id)), Some(Operand::BuiltIn(x))) if *x == b => Some(*id),
        _ => None,
    })
}

fn location_of_name(m: &SpvModule, name: &str) -> Vec<(u32, bool)> {
    let ids: Vec<u32> = m
        .debug_names
        .iter()
        .filter_map(|n| match (n.operands.first(), n.operands.get(1)) {
            (Some(Operand::IdRef(id)), Some(Operand::LiteralString(s))) if s == name => Some(*id),
            _ => None,
        })
        .collect();
    ids.iter()
        .filter_map(|&id| {
            let loc = decorated(m, id, Decoration::Location)?;
            let Some(Operand::LiteralBit32(l)) = loc.operands.get(2) else { return None };
            Some((*l, decorated(m, id, Decoration::Patch).is_some()))
        })
        .collect()
}

fn hull(name: &str, mode: PatchConstantInvocations) -> SpvModule {
    let opts = CompileOptions { hull_patch_constants: mode, ..CompileOptions::default() };
    let cs = compile(&fixture(&format!("tessellation/{name}.hs_6_0.dxil")), &opts).expect("hull compiles");
    assert_eq!(cs.stage, crate::ShaderKind::Hull);
    parse(&cs.spirv)
}

fn layout() -> InputLayout {
    InputLayout {
        elements: vec![InputElement {
            semantic: "POSITION".into(),
            index: 0,
            format: "R32G32B32_FLOAT".into(),
            slot: 0,
            offset: Some(0),
            per_instance: false,
            step_rate: 0,
        }],
    }
}

/// (HS, DS) SPIR-V of the fixture pipeline cp.vs → hs → ds → vcolor.ps.
fn pipeline(hs: &str, ds: &str) -> (crate::link::LinkPlan, SpvModule, SpvModule) {
    let (vs, h, d, ps) = (
        fixture("tessellation/cp.vs_6_0.dxil"),
        fixture(&format!("tessellation/{hs}.hs_6_0.dxil")),
        fixture(&format!("tessellation/{ds}.ds_6_0.dxil")),
        fixture("graphics/vcolor.ps_6_0.dxil"),
    );
    let link = LinkOptions { input_layout: Some(layout()), ..LinkOptions::default() };
    let p = compile_pipeline(&[&vs, &h, &d, &ps], &link, &CompileOptions::default()).expect("pipeline compiles");
    let hs = p.shaders.iter().find(|s| s.stage == crate::ShaderKind::Hull).expect("hull");
    let ds = p.shaders.iter().find(|s| s.stage == crate::ShaderKind::Domain).expect("domain");
    (p.plan.clone(), parse(&hs.spirv), parse(&ds.spirv))
}

#[test]
fn tcs_runs_control_points_then_barrier_then_patch_constants_on_invocation_0() {
    let m = hull("pc_outputpatch", PatchConstantInvocations::First);
    // Control-point function, patch-constant function, entry point.
    assert_eq!(m.functions.len(), 3);
    assert_eq!(count_op(&m, Op::FunctionCall), 2);
    assert_eq!(count_op(&m, Op::ControlBarrier), 1);
    let entry = m.functions.last().expect("entry");
    let ops: Vec<Op> = entry.blocks.iter().flat_map(|b| b.instructions.iter().map(|i| i.class.opcode)).collect();
    let call = ops.iter().position(|&o| o == Op::FunctionCall).expect("call");
    let barrier = ops.iter().position(|&o| o == Op::ControlBarrier).expect("barrier");
    let guard = ops.iter().position(|&o| o == Op::IEqual).expect("invocation 0 test");
    assert!(call < barrier && barrier < guard, "{ops:?}");
    assert_eq!(mode_operand(&m, ExecutionMode::OutputVertices), Some(3));
    let mm = modes(&m);
    for want in [ExecutionMode::Triangles, ExecutionMode::SpacingEqual, ExecutionMode::VertexOrderCw] {
        assert!(mm.contains(&want), "{want:?} in {mm:?}");
    }
}

#[test]
fn all_invocations_scheme_calls_patch_constants_unconditionally() {
    let m = hull("pc_outputpatch", PatchConstantInvocations::All);
    let entry = m.functions.last().expect("entry");
    let ops: Vec<Op> = entry.blocks.iter().flat_map(|b| b.instructions.iter().map(|i| i.class.opcode)).collect();
    assert!(!ops.contains(&Op::IEqual) && !ops.contains(&Op::SelectionMerge), "{ops:?}");
    assert_eq!(ops.iter().filter(|&&o| o == Op::FunctionCall).count(), 2);
    assert_eq!(count_op(&m, Op::ControlBarrier), 1);
}

#[test]
fn partitioning_and_output_primitive_modes() {
    let cases = [
        (
            "quad_fracodd_ccw",
            4,
            ExecutionMode::Quads,
            ExecutionMode::SpacingFractionalOdd,
            ExecutionMode::VertexOrderCcw,
        ),
        // pow2 is tessellated like integer.
        ("pow2", 4, ExecutionMode::Quads, ExecutionMode::SpacingEqual, ExecutionMode::PointMode),
        ("isoline_points", 2, ExecutionMode::Isolines, ExecutionMode::SpacingEqual, ExecutionMode::PointMode),
        ("cp3to4", 4, ExecutionMode::Quads, ExecutionMode::SpacingEqual, ExecutionMode::VertexOrderCw),
    ];
    for (name, ocp, domain, spacing, prim) in cases {
        let m = hull(name, PatchConstantInvocations::First);
        let mm = modes(&m);
        assert_eq!(mode_operand(&m, ExecutionMode::OutputVertices), Some(ocp), "{name}");
        for want in [domain, spacing, prim] {
            assert!(mm.contains(&want), "{name}: {want:?} in {mm:?}");
        }
        assert!(!mm.contains(&ExecutionMode::SpacingFractionalEven), "{name}");
    }
}

#[test]
fn tess_factors_are_builtins_clamped_to_the_max_tess_factor() {
    let m = hull("tri_integer_cw", PatchConstantInvocations::First);
    let outer = builtin_var(&m, SpvBuiltIn::TessLevelOuter).expect("TessLevelOuter");
    let inner = builtin_var(&m, SpvBuiltIn::TessLevelInner).expect("TessLevelInner");
    assert!(decorated(&m, outer, Decoration::Patch).is_some());
    assert!(decorated(&m, inner, Decoration::Patch).is_some());
    // 3 edges + 1 inside factor, each `v > 64 ? 64 : v`.
    assert_eq!(count_op(&m, Op::FOrdGreaterThan), 4);
    assert!(count_op(&m, Op::Select) >= 4);
}

#[test]
fn patch_constants_sit_past_control_points_identically_on_both_sides() {
    let (plan, hs, ds) = pipeline("pc_center", "pc_center");
    let tess = plan.tessellation.as_ref().expect("tessellation plan");
    assert_eq!(tess.input_control_points, 3);
    for name in ["CENTER0", "SCALE0"] {
        let h = location_of_name(&hs, name);
        let d = location_of_name(&ds, name);
        assert_eq!(h.len(), 1, "{name} declared once in the TCS");
        assert_eq!(h, d, "{name}: same Location and Patch on both sides");
        let (loc, patch) = h[0];
        assert!(patch, "{name} is Patch-decorated");
        assert!(loc >= tess.patch_constant_location_offset, "{name} at {loc}");
    }
    let cp = location_of_name(&hs, "CPPOS0");
    assert!(cp.iter().all(|&(l, p)| l < tess.patch_constant_location_offset && !p), "{cp:?}");
}

#[test]
fn point_output_domain_shader_writes_point_size() {
    let (_, _, ds) = pipeline("pow2", "quad_points");
    let ps = builtin_var(&ds, SpvBuiltIn::PointSize).expect("PointSize");
    assert!(all_insts(&ds).any(|i| i.class.opcode == Op::Store && i.operands.first() == Some(&Operand::IdRef(ps))));
    assert!(modes(&ds).contains(&ExecutionMode::PointMode));
    // Triangle output: no point size.
    let (_, _, ds) = pipeline("tri_integer_cw", "tri_integer_cw");
    assert!(builtin_var(&ds, SpvBuiltIn::PointSize).is_none());
}

#[test]
fn domain_shader_alone_declares_only_its_domain() {
    let cs = compile(&fixture("tessellation/ds_primid.ds_6_0.dxil"), &CompileOptions::default()).expect("compiles");
    let m = parse(&cs.spirv);
    assert_eq!(modes(&m), vec![ExecutionMode::Triangles]);
    assert!(builtin_var(&m, SpvBuiltIn::TessCoord).is_some());
    assert!(builtin_var(&m, SpvBuiltIn::PrimitiveId).is_some());
}
