//! Stream output (D3D12 SO → Vulkan transform feedback) through `dxjit::compile_pipeline` on the
//! vkd3d-proton `test_line_tessellation` shaders: the captured outputs of the last
//! pre-rasterization stage carry `XfbBuffer`/`XfbStride`/`Offset`, the stage declares
//! `TransformFeedback` and `Xfb`, the SPIR-V validates, and captures the lowering cannot express
//! (part of an element) are reported `Unsupported` naming the element.

use dxjit::link::{LinkOptions, SoDeclaration, StreamOutputDesc};
use dxjit::{compile_pipeline, CompileError, CompileOptions, CompiledShader, PipelineError, ShaderKind};
use dxjit_conformance::corpus::Corpus;
use dxjit_conformance::spirv_val;

const OP_CAPABILITY: u32 = 17;
const OP_EXECUTION_MODE: u32 = 16;
const OP_DECORATE: u32 = 71;
const OP_NAME: u32 = 5;
const CAP_TRANSFORM_FEEDBACK: u32 = 53;
const MODE_XFB: u32 = 11;
const DEC_OFFSET: u32 = 35;
const DEC_XFB_BUFFER: u32 = 36;
const DEC_XFB_STRIDE: u32 = 37;

fn blobs(c: &Corpus, names: &[&str]) -> Vec<Vec<u8>> {
    let set = c.set("vkd3d-proton").expect("vkd3d-proton manifest");
    names
        .iter()
        .map(|n| {
            let e = set.entries.iter().find(|e| e.dxil_path.ends_with(n)).unwrap_or_else(|| panic!("{n} in manifest"));
            std::fs::read(set.path_of(e)).expect("blob readable")
        })
        .collect()
}

fn entry(name: &str, start: u32, count: u32) -> SoDeclaration {
    SoDeclaration {
        stream: 0,
        semantic_name: name.into(),
        semantic_index: 0,
        start_component: start,
        component_count: count,
        output_slot: 0,
    }
}

fn so(entries: Vec<SoDeclaration>, stride: u32) -> LinkOptions {
    LinkOptions { stream_output: Some(StreamOutputDesc { entries, strides: vec![stride] }), ..Default::default() }
}

/// The instructions of a module: (opcode, operands).
fn insts(words: &[u32]) -> Vec<(u32, &[u32])> {
    let mut out = Vec::new();
    let mut i = 5;
    while let Some(&w) = words.get(i) {
        let n = (w >> 16) as usize;
        assert!(n > 0, "zero-length instruction at word {i}");
        out.push((w & 0xffff, words.get(i + 1..i + n).expect("truncated instruction")));
        i += n;
    }
    out
}

fn name_of(words: &[u32], id: u32) -> String {
    for (op, ops) in insts(words) {
        if op == OP_NAME && ops.first() == Some(&id) {
            let bytes: Vec<u8> = ops[1..].iter().flat_map(|w| w.to_le_bytes()).take_while(|&b| b != 0).collect();
            return String::from_utf8_lossy(&bytes).into_owned();
        }
    }
    // Built-ins carry no OpName: report them by id.
    format!("%{id}")
}

/// (variable name, XfbBuffer, XfbStride, Offset) of every captured variable, sorted by offset.
fn xfb_vars(words: &[u32]) -> Vec<(String, u32, u32, u32)> {
    let mut by_id: std::collections::BTreeMap<u32, [Option<u32>; 3]> = Default::default();
    for (op, ops) in insts(words) {
        if op != OP_DECORATE {
            continue;
        }
        let (&[id, dec], rest) = ops.split_at(2) else { continue };
        let slot = match dec {
            DEC_XFB_BUFFER => 0,
            DEC_XFB_STRIDE => 1,
            DEC_OFFSET => 2,
            _ => continue,
        };
        by_id.entry(id).or_default()[slot] = rest.first().copied();
    }
    let mut v: Vec<_> = by_id
        .into_iter()
        .map(|(id, d)| {
            let [Some(b), Some(s), Some(o)] = d else { panic!("%{id} lacks one of XfbBuffer/XfbStride/Offset: {d:?}") };
            (name_of(words, id), b, s, o)
        })
        .collect();
    v.sort_by_key(|x| x.3);
    v
}

fn declares_xfb(words: &[u32]) -> (bool, bool) {
    let all = insts(words);
    let cap = all.iter().any(|(op, o)| *op == OP_CAPABILITY && o.first() == Some(&CAP_TRANSFORM_FEEDBACK));
    let mode = all.iter().any(|(op, o)| *op == OP_EXECUTION_MODE && o.get(1) == Some(&MODE_XFB));
    (cap, mode)
}

fn shader(shaders: &[CompiledShader], kind: ShaderKind) -> &CompiledShader {
    shaders.iter().find(|s| s.stage == kind).unwrap_or_else(|| panic!("no {kind:?} shader"))
}

#[test]
fn domain_shader_outputs_are_captured() {
    let Some(c) = Corpus::for_test("domain_shader_outputs_are_captured") else { return };
    let b = blobs(
        &c,
        &[
            "tessellation/line_tessellation_vs.dxil",
            "tessellation/line_tessellation_hs.dxil",
            "tessellation/line_tessellation_ds.dxil",
        ],
    );
    let refs: Vec<&[u8]> = b.iter().map(Vec::as_slice).collect();
    let o = so(vec![entry("SV_POSITION", 0, 4), entry("COLOR", 0, 4), entry("PRIMITIVE_ID", 0, 4)], 48);
    let p = compile_pipeline(&refs, &o, &CompileOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    for s in &p.shaders {
        spirv_val::validate(&s.spirv).unwrap_or_else(|m| panic!("{:?}: {m}", s.stage));
        let captured = s.stage == ShaderKind::Domain;
        assert_eq!(declares_xfb(&s.spirv), (captured, captured), "{:?}", s.stage);
        if !captured {
            assert!(xfb_vars(&s.spirv).is_empty(), "{:?}", s.stage);
        }
    }
    let ds = shader(&p.shaders, ShaderKind::Domain);
    let got: Vec<(String, u32, u32, u32)> = xfb_vars(&ds.spirv);
    let names: Vec<&str> = got.iter().map(|g| g.0.as_str()).collect();
    assert_eq!(names[1..], ["COLOR0", "PRIMITIVE_ID0"], "{got:?}");
    let layout: Vec<(u32, u32, u32)> = got.iter().map(|g| (g.1, g.2, g.3)).collect();
    assert_eq!(layout, [(0, 48, 0), (0, 48, 16), (0, 48, 32)]);
    // Without stream output nothing reads COLOR/PRIMITIVE_ID (no pixel shader): no capture at all.
    let p =
        compile_pipeline(&refs, &LinkOptions::default(), &CompileOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let ds = shader(&p.shaders, ShaderKind::Domain);
    assert_eq!(declares_xfb(&ds.spirv), (false, false));
    assert!(xfb_vars(&ds.spirv).is_empty());
}

#[test]
fn vertex_shader_captures_whole_elements_and_rejects_parts() {
    let Some(c) = Corpus::for_test("vertex_shader_captures_whole_elements_and_rejects_parts") else { return };
    let b = blobs(&c, &["tessellation/line_tessellation_vs.dxil"]);
    let refs: Vec<&[u8]> = b.iter().map(Vec::as_slice).collect();
    // LINE_DENSITY sits in column 3 of its register: captured whole from a Component-3 variable.
    let o = so(vec![entry("LINE_DENSITY", 0, 1), entry("COLOR", 0, 3), entry("SV_Position", 0, 4)], 32);
    let p = compile_pipeline(&refs, &o, &CompileOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let vs = shader(&p.shaders, ShaderKind::Vertex);
    spirv_val::validate(&vs.spirv).unwrap_or_else(|m| panic!("{m}"));
    assert_eq!(declares_xfb(&vs.spirv), (true, true));
    let got = xfb_vars(&vs.spirv);
    let names: Vec<&str> = got.iter().map(|g| g.0.as_str()).take(2).collect();
    assert_eq!(names, ["LINE_DENSITY0", "COLOR0"], "{got:?}");
    let layout: Vec<(u32, u32, u32)> = got.iter().map(|g| (g.1, g.2, g.3)).collect();
    assert_eq!(layout, [(0, 32, 0), (0, 32, 4), (0, 32, 16)]);

    // Two of COLOR's three components would need a variable of their own.
    let o = so(vec![entry("COLOR", 0, 2)], 8);
    match compile_pipeline(&refs, &o, &CompileOptions::default()) {
        Err(PipelineError::Compile { error: CompileError::Unsupported { feature, .. }, .. }) => {
            assert!(feature.contains("stream output of COLOR0"), "{feature}");
        }
        other => panic!("expected Unsupported, got {:?}", other.map(|p| p.shaders.len())),
    }
}
