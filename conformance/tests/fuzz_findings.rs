//! Findings of the fuzzing campaigns (`fuzz/`, record-level mutator +
//! spirv-val oracle) turned into tests. The mutants are derived from corpus
//! shaders, which stay out of the project, so each finding is rebuilt here as
//! the same IR edit on a committed fixture (always runs) or on a corpus shader
//! read from `../shared/corpus` (`SKIPPED` when absent). An edited module goes
//! through what `compile` runs after the reader — the verifier, then
//! `compile_module` — and must be rejected with the rule named, or (where the
//! input is legal and dxjit lowered it wrongly) compile to SPIR-V that passes
//! spirv-val.

use dxjit::compile::compile_module;
use dxjit::container::Container;
use dxjit::dxil_op::DxilOp;
use dxjit::ir::{BlockId, Const, ConstId, ConstKind, InstId, InstKind, MdId, Metadata, Module, Type, Value};
use dxjit::{compile, CompileError, CompileOptions, CompiledShader};
use dxjit_conformance::corpus::{corpus_root, dxil_files, fixtures_root};
use dxjit_conformance::spirv_val;

fn read(bytes: &[u8]) -> Module {
    let c = Container::parse(bytes).expect("container");
    let prog = c.dxil_program().expect("DXIL part");
    dxjit::bitcode::read_module(prog.bitcode).expect("bitcode")
}

/// A committed fixture, which compiles to valid SPIR-V before any edit.
fn fixture(rel: &str) -> Module {
    let bytes = std::fs::read(fixtures_root().join(rel)).expect("fixture");
    unedited_compiles(&bytes, &CompileOptions::default());
    read(&bytes)
}

/// A corpus shader, or `None` (and a SKIPPED line) without the corpus.
fn corpus(test: &str, rel: &str) -> Option<Module> {
    corpus_with(test, rel, &CompileOptions::default())
}

/// A corpus shader compiled with `opts` (a library's export) before the edit.
fn corpus_with(test: &str, rel: &str, opts: &CompileOptions) -> Option<Module> {
    let path = corpus_root().join(rel);
    let Ok(bytes) = std::fs::read(&path) else {
        println!("SKIPPED {test}: no {}", path.display());
        return None;
    };
    unedited_compiles(&bytes, opts);
    Some(read(&bytes))
}

/// The edit, not the shader, is what a test checks: the shader compiles as it is.
fn unedited_compiles(bytes: &[u8], opts: &CompileOptions) {
    let ok = compile(bytes, opts).expect("the unedited shader compiles");
    spirv_val::validate(&ok.spirv).expect("the unedited shader's SPIR-V is valid");
}

/// What `compile` does after reading: the verifier, then lowering.
fn compile_edited(m: &Module) -> Result<CompiledShader, CompileError> {
    compile_edited_with(m, &CompileOptions::default())
}

fn compile_edited_with(m: &Module, opts: &CompileOptions) -> Result<CompiledShader, CompileError> {
    dxjit::verify::verify_module(m).map_err(|e| CompileError::Malformed(format!("verify: {e}")))?;
    compile_module(m, opts)
}

/// A library's export, compiled.
fn export(name: &str) -> CompileOptions {
    CompileOptions { entry_point: Some(name.into()), ..CompileOptions::default() }
}

fn expect_rule(m: &Module, rule: &str) -> String {
    expect_rule_with(m, &CompileOptions::default(), rule)
}

fn expect_rule_with(m: &Module, opts: &CompileOptions, rule: &str) -> String {
    match compile_edited_with(m, opts) {
        Err(CompileError::Malformed(msg)) => {
            assert!(msg.contains(&format!("rule `{rule}`")), "wrong rule: {msg}");
            println!("rejected as expected: {msg}");
            msg
        }
        Err(e) => panic!("expected Malformed naming `{rule}`, got {e}"),
        Ok(cs) => {
            panic!("expected Malformed naming `{rule}`, got SPIR-V (valid: {:?})", spirv_val::validate(&cs.spirv))
        }
    }
}

fn expect_valid(m: &Module) {
    expect_valid_with(m, &CompileOptions::default())
}

fn expect_valid_with(m: &Module, opts: &CompileOptions) {
    match compile_edited_with(m, opts) {
        Ok(cs) => spirv_val::validate(&cs.spirv).expect("valid SPIR-V"),
        Err(e) => panic!("expected SPIR-V, got {e}"),
    }
}

fn expect_unsupported(m: &Module, what: &str) {
    match compile_edited(m) {
        Err(e @ CompileError::Unsupported { .. }) => {
            assert!(e.to_string().contains(what), "wrong feature: {e}");
            println!("rejected as expected: {e}");
        }
        Err(e) => panic!("expected Unsupported naming `{what}`, got {e}"),
        Ok(cs) => panic!("expected Unsupported, got SPIR-V (valid: {:?})", spirv_val::validate(&cs.spirv)),
    }
}

fn main_fn(m: &Module) -> usize {
    m.functions.iter().position(|f| !f.is_declaration).expect("a defined function")
}

fn int_of(m: &Module, id: Option<MdId>) -> Option<u64> {
    match id.map(|id| &m.metadata[id.index()]) {
        Some(Metadata::Value { value, .. }) => m.const_uint(*value),
        _ => None,
    }
}

/// A new integer constant of type `ty`.
fn new_const(m: &mut Module, ty: dxjit::ir::TypeId, v: u64) -> ConstId {
    m.consts.push(Const { ty, kind: ConstKind::Int(v) });
    ConstId(m.consts.len() as u32 - 1)
}

/// Sets metadata operand `slot` (an index into `md_ops` holding an integer
/// value) to `v`, through a new constant (the old one may be shared).
fn set_md_int(m: &mut Module, slot: usize, v: u64) {
    let Some(Some(old)) = m.md_ops.get(slot).copied() else { panic!("slot {slot} is not a value") };
    let Metadata::Value { ty, .. } = m.metadata[old.index()] else { panic!("slot {slot} is not a value") };
    let c = new_const(m, ty, v);
    m.metadata.push(Metadata::Value { ty, value: Value::Const(c) });
    m.md_ops[slot] = Some(MdId(m.metadata.len() as u32 - 1));
}

/// The `md_ops` slots of every metadata tuple of `len` or more operands
/// for which `pick` holds (given the tuple's operands).
fn tuples(m: &Module, len: usize, pick: impl Fn(&Module, &[Option<MdId>]) -> bool) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    for md in &m.metadata {
        if let Metadata::Node { ops, .. } = md {
            let r = ops.range();
            if r.len() >= len && pick(m, &m.md_ops[r.clone()]) {
                out.push(r);
            }
        }
    }
    out
}

/// `dx.resources` SRV records `{id, global, name, space, lower, size, kind, ...}`
/// of resource kind `kind` (the extended-property tuple at 8 tells them from
/// other tuples of that length).
fn srv_records_of_kind(m: &Module, kind: u64) -> Vec<std::ops::Range<usize>> {
    tuples(m, 9, |m, o| {
        int_of(m, o[6]) == Some(kind)
            && o.len() == 9
            && matches!(o[2].map(|s| &m.metadata[s.index()]), Some(Metadata::String(_)))
    })
}

/// Finding (campaign 1, fixed by `dxop.resource-class`): a write through an
/// SRV handle (there: an atomic on an SRV texture) compiled to invalid
/// SPIR-V. Rebuilt on `compute/texture_load_sample`: its `BufferStore`s get
/// the SRV texture's handle.
#[test]
fn store_to_srv_is_malformed() {
    let mut m = fixture("compute/texture_load_sample.cs_6_0.dxil");
    let fi = main_fn(&m);
    let is_srv = |m: &Module, a: Option<&Value>| a.and_then(|v| m.const_uint(*v)) == Some(0);
    let f = &m.functions[fi];
    let srv = (0..f.insts.len())
        .map(|k| InstId(k as u32))
        .find(|&id| matches!(f.dx_op(id), Some((DxilOp::CreateHandle, a)) if is_srv(&m, a.first())))
        .expect("an SRV handle");
    let f = &mut m.functions[fi];
    let mut edited = 0;
    for k in 0..f.insts.len() {
        if let InstKind::DxOp { op: DxilOp::BufferStore, args, .. } = &f.insts[k].kind {
            let at = args.range().start;
            f.value_pool[at] = Value::Inst(srv);
            edited += 1;
        }
    }
    assert!(edited > 0, "no BufferStore to edit");
    expect_rule(&m, "dxop.resource-class");
}

/// Finding (campaign 303, invalid-2): the `ResBind` of a UAV's
/// `CreateHandleFromBinding` said SRV while its `AnnotateHandle` still said
/// UAV; the store compiled to a write to a sampled image. Rebuilt on
/// `compute/quad_vote` (SM 6.7).
#[test]
fn annotation_of_another_class_is_malformed() {
    let mut m = fixture("compute/quad_vote.cs_6_7.dxil");
    let fi = main_fn(&m);
    let f = &m.functions[fi];
    let k = f
        .insts
        .iter()
        .position(|i| matches!(i.kind, InstKind::DxOp { op: DxilOp::CreateHandleFromBinding, .. }))
        .expect("a CreateHandleFromBinding");
    let InstKind::DxOp { args, .. } = &f.insts[k].kind else { unreachable!() };
    let at = args.range().start;
    let Value::Const(bind) = f.value_pool[at] else { panic!("ResBind is not a constant") };
    let (ty, ConstKind::Aggregate(mut fields)) = (m.consts[bind.index()].ty, m.consts[bind.index()].kind.clone())
    else {
        panic!("ResBind is not an aggregate")
    };
    let Value::Const(class) = fields[3] else { panic!() };
    assert_eq!(m.consts[class.index()].kind, ConstKind::Int(1), "the fixture's binding is a UAV");
    let class_ty = m.consts[class.index()].ty;
    fields[3] = Value::Const(new_const(&mut m, class_ty, 0));
    m.consts.push(Const { ty, kind: ConstKind::Aggregate(fields) });
    let new_bind = ConstId(m.consts.len() as u32 - 1);
    m.functions[fi].value_pool[at] = Value::Const(new_bind);
    let msg = expect_rule(&m, "dxop.annotation");
    assert!(msg.contains("describes a UAV, the handle is bound as an SRV"), "{msg}");
}

/// Finding (campaign 303, invalid-6): a mutated constant made a compared
/// texture 3D (`SampleCmpGrad` of a `Texture3D`), compiled to a Dref sample
/// of a 3D image, which Vulkan forbids. DXC's `InstrResourceKindForSampleC`.
/// Rebuilt on the corpus shader the mutant came from: its Texture2D SRV
/// becomes a Texture3D in `dx.resources`.
#[test]
fn compare_sampling_of_a_3d_texture_is_malformed() {
    let test = "compare_sampling_of_a_3d_texture_is_malformed";
    let Some(mut m) = corpus(test, "dxil-spirv/dxil-builtin/sample-cmp-grad-offset-feedback.frag.dxil") else { return };
    let recs = srv_records_of_kind(&m, 2);
    assert_eq!(recs.len(), 1, "one Texture2D SRV");
    set_md_int(&mut m, recs[0].start + 6, 4);
    let msg = expect_rule(&m, "dxop.resource-kind");
    assert!(msg.contains("on a texture3d"), "{msg}");
}

/// The same rule on a fixture: `SampleLevel` of a texture made multisampled.
#[test]
fn sampling_a_multisampled_texture_is_malformed() {
    let mut m = fixture("compute/texture_load_sample.cs_6_0.dxil");
    let recs = srv_records_of_kind(&m, 2);
    assert!(!recs.is_empty(), "a Texture2D SRV");
    for r in recs {
        set_md_int(&mut m, r.start + 6, 3);
    }
    let msg = expect_rule(&m, "dxop.resource-kind");
    assert!(msg.contains("on a texture2dms"), "{msg}");
}

/// Changes every `{ i32 0, i32 9 }` extended resource property (element
/// type f32) to element type `to`, and so the `AnnotateHandle` properties
/// of textures of element type f32 (SM 6.6+), which must agree.
fn set_f32_element_types(m: &mut Module, to: u64) {
    let slots = tuples(m, 2, |m, o| o.len() == 2 && int_of(m, o[0]) == Some(0) && int_of(m, o[1]) == Some(9));
    assert!(!slots.is_empty(), "no element-type property to edit");
    for r in slots {
        set_md_int(m, r.start + 1, to);
    }
    for fi in 0..m.functions.len() {
        for k in 0..m.functions[fi].insts.len() {
            let f = &m.functions[fi];
            let InstKind::DxOp { op: DxilOp::AnnotateHandle, args, .. } = &f.insts[k].kind else { continue };
            let at = args.range().start + 1;
            let Value::Const(props) = f.value_pool[at] else { continue };
            let (ty, ConstKind::Aggregate(mut words)) =
                (m.consts[props.index()].ty, m.consts[props.index()].kind.clone())
            else {
                continue;
            };
            let (Some(w0), Some(w1)) = (m.const_uint(words[0]), m.const_uint(words[1])) else { continue };
            // Textures (kinds 1..=9) of element type f32.
            if !(1..=9).contains(&(w0 & 0xff)) || w1 & 0xff != 9 {
                continue;
            }
            let Value::Const(c1) = words[1] else { continue };
            let wty = m.consts[c1.index()].ty;
            words[1] = Value::Const(new_const(m, wty, (w1 & !0xff) | to));
            m.consts.push(Const { ty, kind: ConstKind::Aggregate(words) });
            m.functions[fi].value_pool[at] = Value::Const(ConstId(m.consts.len() as u32 - 1));
        }
    }
}

/// Finding (campaign of seeds 101/202, open until now): a float texture's
/// element type mutated to u16 or i16; `SampleCmp*` then sampled an integer
/// image with a float Dref result ("Sampled Type differs from Result Type").
/// Comparison sampling needs a float texture (DXC's `InstrSampleCompType`;
/// integer textures only for non-comparison sampling from SM 6.7). Rebuilt
/// on a corpus shader with comparison sampling.
#[test]
fn compare_sampling_of_integer_texture_is_malformed() {
    let test = "compare_sampling_of_integer_texture_is_malformed";
    let Some(mut m) = corpus(test, "vkd3d-proton/sm_advanced/ps_sample_cmp_grad_bias.dxil") else { return };
    set_f32_element_types(&mut m, 3); // u16
    let msg = expect_rule(&m, "dxop.sample-type");
    assert!(msg.contains("of element type u16"), "{msg}");
}

/// The same rule before SM 6.7: a non-comparison `SampleLevel` of a u32
/// texture (`compute/texture_load_sample`, SM 6.0).
#[test]
fn sampling_an_integer_texture_before_sm_6_7_is_malformed() {
    let mut m = fixture("compute/texture_load_sample.cs_6_0.dxil");
    set_f32_element_types(&mut m, 5); // u32
    let msg = expect_rule(&m, "dxop.sample-type");
    assert!(msg.contains("SampleLevel of a texture of element type u32"), "{msg}");
}

/// Pixel-shader output elements `{id, name, comp type, semantic kind, indices,
/// interpolation, rows, cols, start row, start col, tags}` of semantic kind `kind`.
fn ps_outputs_of_kind(m: &Module, kind: u64) -> Vec<std::ops::Range<usize>> {
    tuples(m, 10, |m, o| {
        (10..=11).contains(&o.len())
            && int_of(m, o[3]) == Some(kind)
            && matches!(o[1].map(|s| &m.metadata[s.index()]), Some(Metadata::String(_)))
    })
}

/// Finding (campaign 303, invalid-1): a mutated constant turned three
/// `SV_Target` outputs into `SV_DepthLessEqual`; dxjit declared
/// `DepthReplacing` three times. A pixel shader writes one depth, one
/// coverage, one stencil reference, each a scalar. Rebuilt on
/// `graphics/mrt` (three render targets).
#[test]
fn several_depth_outputs_are_malformed() {
    let m0 = fixture("graphics/mrt.ps_6_0.dxil");
    let targets = ps_outputs_of_kind(&m0, 16);
    assert!(targets.len() >= 2, "render targets to edit");
    // As the mutant had them: four-component depth outputs.
    let mut m = m0.clone();
    for r in &targets {
        set_md_int(&mut m, r.start + 3, 18);
    }
    let msg = expect_rule(&m, "signature.ps-output");
    assert!(msg.contains("not a scalar"), "{msg}");
    // Scalars, but two of them.
    let mut m = m0;
    for r in &targets {
        set_md_int(&mut m, r.start + 3, 18);
        set_md_int(&mut m, r.start + 7, 1);
    }
    let msg = expect_rule(&m, "signature.ps-output");
    assert!(msg.contains("a second SV_DepthLessEqual output"), "{msg}");
}

/// Finding (campaign 303, invalid-3): a `getelementptr` index became an
/// `i1` (legal LLVM: indices are sign-extended, true is -1); lowering
/// converted it with `OpUConvert` of a bool. Rebuilt on
/// `compute/groupshared_reduce`: the first GEP in the true branch of a
/// conditional branch gets the branch condition as index.
#[test]
fn i1_getelementptr_index_compiles() {
    let mut m = fixture("compute/groupshared_reduce.cs_6_0.dxil");
    let fi = main_fn(&m);
    let f = &m.functions[fi];
    let (cond, target): (Value, BlockId) = f
        .insts
        .iter()
        .find_map(|i| match i.kind {
            InstKind::CondBr { cond: c @ Value::Inst(_), if_true, .. } => Some((c, if_true)),
            _ => None,
        })
        .expect("a conditional branch on an instruction");
    let gep = f
        .insts
        .iter()
        .find_map(|i| match &i.kind {
            InstKind::Gep { indices, .. } if i.block == target && indices.len >= 2 => Some(indices.range().end - 1),
            _ => None,
        })
        .expect("a getelementptr in the branch's true block");
    m.functions[fi].value_pool[gep] = cond;
    expect_valid(&m);
}

/// Finding (campaign 303, invalid-4): an array type mutated into a vector
/// of 10 components (legal LLVM); SPIR-V vectors have 2 to 4. Rebuilt on
/// `graphics/points`: its `[6 x float]` constant becomes `<6 x float>`.
#[test]
fn long_vectors_are_unsupported() {
    let mut m = fixture("graphics/points.vs_6_0.dxil");
    let k = m
        .types
        .list
        .iter()
        .position(|t| matches!(t, Type::Array { len: 6, elem } if m.types.list[elem.0 as usize] == Type::Float))
        .expect("a [6 x float] type");
    let Type::Array { elem, .. } = m.types.list[k] else { unreachable!() };
    m.types.list[k] = Type::Vector { len: 6, elem };
    expect_unsupported(&m, "vectors of 6 components");
}

/// Finding (campaign 303, invalid-5): shuffled constant records gave a
/// `[6 x i32]` global a `[6 x float]` initializer (LLVM's verifier rejects
/// it); the SPIR-V variable's initializer had another type. Rebuilt on
/// `graphics/points`: its `[6 x float]` global is declared `[6 x i32]`.
#[test]
fn global_initializer_of_another_type_is_malformed() {
    let mut m = fixture("graphics/points.vs_6_0.dxil");
    let g = m.globals.iter().position(|g| g.init.is_some()).expect("a global with an initializer");
    let i32t = m.types.intern(Type::Int(32));
    let arr = m.types.intern(Type::Array { len: 6, elem: i32t });
    m.globals[g].value_ty = arr;
    expect_rule(&m, "global.initializer");
}

/// Where DXC has no element-type rule (gathers), a comparison gather of an
/// integer texture is refused as unsupported: Vulkan compares depth only,
/// and the Dref gather of an integer image had a float result (invalid).
#[test]
fn compare_gather_of_integer_texture_is_unsupported() {
    let test = "compare_gather_of_integer_texture_is_unsupported";
    let Some(mut m) = corpus(test, "dxil-spirv/dxil-builtin/texture-gather-cmp.frag.dxil") else { return };
    set_f32_element_types(&mut m, 5); // u32
    expect_unsupported(&m, "TextureGatherCmp of a texture of integer element type");
}

/// Signature elements `{id, name, component type, semantic kind, ...}`
/// named `name` (a user semantic; legal to retype, the stores convert).
fn signature_elements_named(m: &Module, name: &str) -> Vec<std::ops::Range<usize>> {
    tuples(m, 10, |m, o| {
        (10..=11).contains(&o.len())
            && matches!(o[1].map(|s| &m.metadata[s.index()]), Some(Metadata::String(s)) if m.str(*s) == name)
    })
}

/// Finding (campaign 404, invalid-1): a vertex output of component type f16
/// (stored with the f16 overload) retyped i32; the store converted the
/// half's bits with an `OpUConvert` to a signed int (invalid). Legal input:
/// the element's type is the varying's, the overload the value's. Rebuilt on
/// the corpus shader the mutant came from.
#[test]
fn half_stored_to_an_int_output_compiles() {
    let test = "half_stored_to_an_int_output_compiles";
    let Some(mut m) = corpus(test, "vkd3d-proton/sm_advanced/vs_fp16_native.dxil") else { return };
    let elems = signature_elements_named(&m, "V");
    assert!(!elems.is_empty(), "an element V");
    for r in elems {
        assert_eq!(int_of(&m, m.md_ops[r.start + 2]), Some(8), "V is f16");
        set_md_int(&mut m, r.start + 2, 4);
    }
    expect_valid(&m);
}

/// Campaign 505 findings, 21 of 27: in DXIL libraries (compiled export by
/// export since that campaign), a shared `i32 1` re-pointed by the mutator
/// made one-register ranges arrays while their globals stayed scalars;
/// lowering declared arrays and loaded scalars (mismatched `OpLoad`,
/// `OpAccessChain` and `OpArrayLength` types). A range's size is its
/// global's element count. Rebuilt on `raytracing/basic`: the acceleration
/// structure's range gets 4 registers.
#[test]
fn library_range_larger_than_its_global_is_malformed() {
    let msg = acceleration_structure_range(4);
    assert!(msg.contains("range t0-t3 of 4 registers"), "{msg}");
}

/// `raytracing/basic`'s acceleration-structure range (one register, a scalar global) given `n`
/// registers: the message of its `resource.range-size` verdict.
fn acceleration_structure_range(n: u64) -> String {
    let mut m = fixture_export("raytracing/basic.lib_6_3.dxil", "RayGen");
    let recs = srv_records_of_kind(&m, 16);
    assert_eq!(recs.len(), 1, "one acceleration structure");
    set_md_int(&mut m, recs[0].start + 5, n);
    expect_rule(&m, "resource.range-size")
}

/// A range of no registers (metadata may say 0; the decoder keeps it) whose global holds one:
/// `resource.range-size`, named as an empty range. Found by the limit rules' metadata mutants
/// (`verify::read_tests`): the message computed the range's last register as `lower + 0 - 1`,
/// an overflow (a panic in a debug build). Rebuilt on `raytracing/basic`.
#[test]
fn library_range_of_no_registers_is_malformed() {
    let msg = acceleration_structure_range(0);
    assert!(msg.contains("range t0 (empty) of 0 registers"), "{msg}");
}

/// A fixture library: the export named compiles to valid SPIR-V unedited.
fn fixture_export(rel: &str, name: &str) -> Module {
    let bytes = std::fs::read(fixtures_root().join(rel)).expect("fixture");
    let ok = compile(&bytes, &export(name)).expect("the unedited export compiles");
    spirv_val::validate(&ok.spirv).expect("the unedited export's SPIR-V is valid");
    read(&bytes)
}

/// Campaign 505 findings: an export's shader kind re-pointed (ray
/// generation to intersection, any hit to callable) kept ops the new stage
/// lacks (`TraceRay`, `WorldRayOrigin`), which Vulkan forbids in that
/// execution model. The operation table's stages (DXC's
/// `SmOpcodeInInvalidFunction`). Rebuilt on `raytracing/basic`.
#[test]
fn trace_ray_in_an_intersection_shader_is_malformed() {
    let mut m = fixture_export("raytracing/basic.lib_6_3.dxil", "RayGen");
    // The entry properties' `i32 8, i32 7` (shader kind: ray generation).
    let props = tuples(&m, 2, |m, o| o.windows(2).any(|w| int_of(m, w[0]) == Some(8) && int_of(m, w[1]) == Some(7)));
    assert_eq!(props.len(), 1, "one ray-generation export");
    let r = props[0].clone();
    let k = (r.start..r.end - 1)
        .find(|&k| int_of(&m, m.md_ops[k]) == Some(8) && int_of(&m, m.md_ops[k + 1]) == Some(7))
        .expect("the kind tag");
    set_md_int(&mut m, k + 1, 8);
    let msg = expect_rule(&m, "dxop.stage");
    assert!(msg.contains("TraceRay is not available in intersection shaders"), "{msg}");
}

/// A new global of `value_ty` in address space 3 (groupshared); its id.
fn add_groupshared(m: &mut Module, value_ty: dxjit::ir::TypeId) -> dxjit::ir::GlobalId {
    let ptr_ty = m.types.intern(Type::Pointer { pointee: value_ty, addr_space: 3 });
    m.globals.push(dxjit::ir::Global {
        name: "gs".into(),
        value_ty,
        ptr_ty,
        addr_space: 3,
        is_const: false,
        init: None,
        linkage: 0,
        align: 4,
        thread_local: 0,
        unnamed_addr: false,
    });
    dxjit::ir::GlobalId(m.globals.len() as u32 - 1)
}

/// Campaign 44444 finding: a pixel shader's constant array moved to address space 3 compiled
/// to a `Workgroup` variable in a fragment entry point, which Vulkan allows in compute, mesh
/// and task shaders only (spirv-val: VUID-StandaloneSpirv-None-04645). DXC's validator:
/// "Thread Group Shared Memory not supported from non-compute entry points". A shader program
/// of another stage declares no groupshared global (compute ones may); in a library, an entry
/// of another kind reaches none (here the miss shader's store retargeted to one).
#[test]
fn groupshared_memory_outside_thread_group_stages_is_malformed() {
    let mut m = fixture("graphics/fullscreen.ps_6_0.dxil");
    let f32t = m.types.intern(Type::Float);
    add_groupshared(&mut m, f32t);
    let msg = expect_rule(&m, "memory.groupshared-stage");
    assert!(msg.contains("groupshared memory in a pixel shader"), "{msg}");
    expect_rule_as_read(&m, "memory.groupshared-stage");
    // A compute shader may have it.
    let mut m = fixture("compute/bitops.cs_6_0.dxil");
    let f32t = m.types.intern(Type::Float);
    add_groupshared(&mut m, f32t);
    let cs = compile_written(&m).expect("a compute shader with groupshared memory compiles");
    spirv_val::validate(&cs.spirv).expect("valid SPIR-V");
    // The miss shader of a library stores to it.
    let mut m = fixture_export("raytracing/basic.lib_6_3.dxil", "Miss");
    let fi = m.functions.iter().position(|f| !f.is_declaration && f.name.contains("Miss")).expect("the export");
    let store = m.functions[fi].insts.iter().position(|x| matches!(x.kind, InstKind::Store { .. })).expect("a store");
    let InstKind::Store { value, .. } = m.functions[fi].insts[store].kind else { unreachable!() };
    let vt = m.value_type(&m.functions[fi], value);
    let g = add_groupshared(&mut m, vt);
    if let InstKind::Store { ptr, .. } = &mut m.functions[fi].insts[store].kind {
        *ptr = Value::Global(g);
    }
    let msg = expect_rule_with(&m, &export("Miss"), "memory.groupshared-stage");
    assert!(msg.contains("uses groupshared @gs from dx.entryPoints[") && msg.contains("a miss shader"), "{msg}");
}

/// Campaign 47474 finding: a constant `getelementptr` over a library's resource array read
/// as `fptosi` (a record-code mutation) of the array's pointer to a handle pointer; lowering
/// took the cast's operand and indexed past the array's one-member struct (invalid
/// `OpAccessChain`). Constant casts now follow the cast rules of the instruction, and constant
/// binary operations take operands of their type (`constant.expr`). (As read, the reader's range
/// of the constants the verifier looks at covers casts and binary operations:
/// `verify::read_tests::shaped_constants_lie_in_the_range_the_reader_gives`.)
#[test]
fn constant_cast_or_binary_operation_of_other_types_is_malformed() {
    use dxjit::ir::{BinOp, CastOp, ConstExpr};
    for case in 0..3 {
        let mut m = fixture("compute/bitops.cs_6_0.dxil");
        let f32t = m.types.intern(Type::Float);
        let arr = m.types.intern(Type::Array { len: 2, elem: f32t });
        let g = add_groupshared(&mut m, arr);
        let elem_ptr = m.types.intern(Type::Pointer { pointee: f32t, addr_space: 3 });
        let i32t = m.types.intern(Type::Int(32));
        let (ty, kind) = match case {
            // fptosi of a pointer: not a cast LLVM has.
            0 => (elem_ptr, ConstKind::Expr(ConstExpr::Cast { op: CastOp::FPToSI, value: Value::Global(g) })),
            // An integer add of a float and an i32.
            1 => {
                m.consts.push(Const { ty: f32t, kind: ConstKind::Float(0) });
                let f = Value::Const(ConstId(m.consts.len() as u32 - 1));
                m.consts.push(Const { ty: i32t, kind: ConstKind::Int(1) });
                let i = Value::Const(ConstId(m.consts.len() as u32 - 1));
                (i32t, ConstKind::Expr(ConstExpr::Binary { op: BinOp::Add, lhs: f, rhs: i, flags: 0 }))
            }
            // A bitcast of the array's pointer to an element pointer: fine.
            _ => (elem_ptr, ConstKind::Expr(ConstExpr::Cast { op: CastOp::BitCast, value: Value::Global(g) })),
        };
        m.consts.push(Const { ty, kind });
        if case < 2 {
            expect_rule(&m, "constant.expr");
        } else {
            let cs = compile_edited_with(&m, &CompileOptions::default()).expect("a constant bitcast compiles");
            spirv_val::validate(&cs.spirv).expect("valid SPIR-V");
        }
    }
}

/// Sets the constant index of the first `extractelement`/`insertelement`
/// of the function named like `export` to `k`.
fn set_element_index(m: &mut Module, export: &str, insert: bool, k: u64) {
    let fi = m.functions.iter().position(|f| !f.is_declaration && f.name.contains(export)).expect("the export");
    let i64t = m.types.intern(Type::Int(64));
    let c = new_const(m, i64t, k);
    let f = &mut m.functions[fi];
    let inst = f
        .insts
        .iter_mut()
        .find(|i| match i.kind {
            InstKind::ExtractElement { .. } => !insert,
            InstKind::InsertElement { .. } => insert,
            _ => false,
        })
        .expect("an element access");
    match &mut inst.kind {
        InstKind::ExtractElement { index, .. } | InstKind::InsertElement { index, .. } => *index = Value::Const(c),
        _ => unreachable!(),
    }
}

/// Campaign 505 findings (3): a constant `extractelement`/`insertelement`
/// index past the vector's end (legal LLVM: the result is poison) became an
/// out-of-bounds `OpCompositeExtract`/`OpCompositeInsert` literal. Lowered
/// to `OpUndef` now. Rebuilt on `raytracing/basic`.
#[test]
fn element_index_past_the_end_compiles() {
    let mut m = fixture_export("raytracing/basic.lib_6_3.dxil", "RayGen");
    set_element_index(&mut m, "RayGen", false, 8);
    expect_valid_with(&m, &export("RayGen"));
    let mut m = fixture_export("raytracing/basic.lib_6_3.dxil", "ClosestHit");
    set_element_index(&mut m, "ClosestHit", true, 5);
    expect_valid_with(&m, &export("ClosestHit"));
}

/// Campaign 505 findings (2): a vertex output re-pointed to
/// `SV_PrimitiveID`; Vulkan has no PrimitiveId output in vertex shaders, nor
/// D3D12 (geometry shaders write it). Rebuilt on `graphics/points`.
#[test]
fn primitive_id_output_of_a_vertex_shader_is_malformed() {
    let mut m = fixture("graphics/points.vs_6_0.dxil");
    let pos = ps_outputs_of_kind(&m, 3);
    assert_eq!(pos.len(), 1, "one SV_Position output");
    set_md_int(&mut m, pos[0].start + 3, 10);
    let msg = expect_rule(&m, "signature.system-value");
    assert!(msg.contains("primitive_id is not allowed in a vertex output signature"), "{msg}");
}

/// Campaign 606 findings (2): a type record mutated `%dx.types.CBufRet.i32`
/// into `{ float, i32, i32, i32 }` (and `{ i32, i32, i8, i32 }`); lowering
/// read fields by the layout the name means and added a float to an int.
/// DXIL's named structs have their layout. Rebuilt on
/// `compute/texture_load_sample`: its `dx.types.ResRet.f32` gets an i32 first field.
#[test]
fn dx_struct_of_another_layout_is_malformed() {
    let mut m = fixture("compute/texture_load_sample.cs_6_0.dxil");
    let i32t = m.types.intern(Type::Int(32));
    let k = m
        .types
        .list
        .iter()
        .position(|t| matches!(t, Type::Struct { name: Some(n), .. } if n == "dx.types.ResRet.f32"))
        .expect("dx.types.ResRet.f32");
    let Type::Struct { elems, .. } = &mut m.types.list[k] else { unreachable!() };
    elems[0] = i32t;
    let msg = expect_rule(&m, "type.dx-struct");
    assert!(msg.contains("has fields { i32, float, float, float, i32 }, not 4 × float and an i32"), "{msg}");
}

/// Campaign 606 finding: a hull shader's input signature re-pointed at its
/// patch-constant one (`SV_TessFactor` as a control-point input); lowering
/// declared a TessLevelOuter input, which Vulkan forbids in tessellation
/// control shaders. Control points hold what the previous stage wrote, never
/// tessellation factors. Rebuilt on `tessellation/cp3to4`.
#[test]
fn tess_factor_control_point_input_is_malformed() {
    let mut m = fixture("tessellation/cp3to4.hs_6_0.dxil");
    let elems = signature_elements_named(&m, "CPPOS");
    assert!(!elems.is_empty(), "the CPPOS element");
    for r in elems {
        set_md_int(&mut m, r.start + 3, 25);
    }
    let msg = expect_rule(&m, "signature.system-value");
    assert!(msg.contains("tess_factor is not allowed in a hull input signature"), "{msg}");
}

/// Campaign 707 findings (2): an `extractvalue` re-pointed at a library
/// resource loaded from its global (a `%class.Texture2D<float>`); lowering
/// turns that load into a handle, never a value, and stopped with an
/// internal error. Such a load is an operand of `CreateHandleForLib` only
/// (DXC's `InstrResourceUser`). Rebuilt on the corpus library the mutants
/// came from.
#[test]
fn library_resource_used_as_a_value_is_malformed() {
    let test = "library_resource_used_as_a_value_is_malformed";
    let Some(mut m) = corpus_with(test, "vkd3d-proton/rt/multi_rs.dxil", &export("RayGen")) else { return };
    let fi = m.functions.iter().position(|f| !f.is_declaration && f.name.contains("RayGen@")).expect("RayGen");
    let f = &m.functions[fi];
    // The load of the Texture2D<float> (first field float) a CreateHandleForLib takes.
    let load = f
        .insts
        .iter()
        .find_map(|i| match &i.kind {
            InstKind::DxOp { op: DxilOp::CreateHandleForLib, args, .. } => match f.value_pool[args.range().start] {
                Value::Inst(l) => match m.types.get(f.insts[l.index()].ty) {
                    Type::Struct { elems, .. } if m.types.get(elems[0]) == &Type::Float => Some(l),
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        })
        .expect("a Texture2D<float> handle");
    let e = (load.index() + 1..f.insts.len())
        .find(|&k| {
            matches!(&f.insts[k].kind, InstKind::ExtractValue { .. }) && m.types.get(f.insts[k].ty) == &Type::Float
        })
        .expect("a float extractvalue after it");
    let InstKind::ExtractValue { agg, .. } = &mut m.functions[fi].insts[e].kind else { unreachable!() };
    *agg = Value::Inst(load);
    let msg = expect_rule(&m, "resource.user");
    assert!(msg.contains("(extractvalue): uses"), "{msg}");
}

/// Campaign 707 finding: a constant `%dx.types.ResBind` got a function
/// pointer as its class byte (the struct's fields were not type-checked).
/// Rebuilt on `compute/quad_vote`.
#[test]
fn struct_constant_field_of_another_type_is_malformed() {
    let mut m = fixture("compute/quad_vote.cs_6_7.dxil");
    let k = m
        .consts
        .iter()
        .position(|c| {
            matches!(c.kind, ConstKind::Aggregate(_))
                && matches!(m.types.get(c.ty), Type::Struct { name: Some(n), .. } if n == "dx.types.ResBind")
        })
        .expect("a ResBind constant");
    let func = m.functions.iter().position(|f| f.is_declaration).expect("a declared function");
    let ConstKind::Aggregate(fields) = &mut m.consts[k].kind else { unreachable!() };
    fields[3] = Value::Function(dxjit::ir::FuncId(func as u32));
    let msg = expect_rule(&m, "constant.shape");
    assert!(msg.contains("field 3 of a %dx.types.ResBind constant"), "{msg}");
    // Written and read back: the reader's range of aggregate constants holds it.
    expect_rule_as_read(&m, "constant.shape");
}

/// Campaign 707 finding: a `CBufferLoad`'s handle re-pointed at a UAV; its
/// access chain mixed the storage buffer's storage class with the constant
/// buffer's. Constant-buffer loads take CBV handles (DXC's
/// `InstrCBufferClassForCBufferHandle`). Rebuilt on `compute/cbuffer_packing`.
#[test]
fn constant_buffer_load_from_a_uav_is_malformed() {
    let mut m = fixture("compute/cbuffer_packing.cs_6_0.dxil");
    let fi = main_fn(&m);
    let f = &m.functions[fi];
    let uav = (0..f.insts.len())
        .map(|k| InstId(k as u32))
        .find(|&id| matches!(f.dx_op(id), Some((DxilOp::CreateHandle, a)) if a.first().and_then(|v| m.const_uint(*v)) == Some(1)))
        .expect("a UAV handle");
    let f = &mut m.functions[fi];
    let mut edited = 0;
    for k in 0..f.insts.len() {
        if let InstKind::DxOp { op: DxilOp::CBufferLoadLegacy | DxilOp::CBufferLoad, args, .. } = &f.insts[k].kind {
            let at = args.range().start;
            f.value_pool[at] = Value::Inst(uav);
            edited += 1;
        }
    }
    assert!(edited > 0, "no constant-buffer load to edit");
    let msg = expect_rule(&m, "dxop.resource-class");
    assert!(msg.contains("needs a CBV handle, operand 0 is a UAV"), "{msg}");
}

/// Campaign 707 finding: in a library, a Texture2D re-pointed to a cube
/// texture kept its `SampleLevel` texel offsets; the verifier resolved no
/// library handle (`CreateHandleForLib`) and Vulkan forbids ConstOffset on
/// cubes. Library handles are resolved through their resource global now.
/// Rebuilt on the corpus library the mutant came from.
#[test]
fn library_cube_sample_with_offsets_is_malformed() {
    let test = "library_cube_sample_with_offsets_is_malformed";
    let Some(mut m) = corpus_with(test, "vkd3d-proton/rt/multi_rs.dxil", &export("RayGen")) else { return };
    let recs = srv_records_of_kind(&m, 2);
    assert_eq!(recs.len(), 1, "one Texture2D SRV");
    set_md_int(&mut m, recs[0].start + 6, 5);
    let i32t = m.types.intern(Type::Int(32));
    let six = new_const(&mut m, i32t, 6);
    let mut edited = 0;
    for f in m.functions.iter_mut() {
        for k in 0..f.insts.len() {
            if let InstKind::DxOp { op: DxilOp::SampleLevel, args, .. } = &f.insts[k].kind {
                // Operands after the opcode: handle, sampler, 4 coordinates, then offset0.
                let at = args.range().start + 6;
                f.value_pool[at] = Value::Const(six);
                edited += 1;
            }
        }
    }
    assert!(edited > 0, "no SampleLevel to edit");
    let msg = expect_rule(&m, "dxop.cube-offset");
    assert!(msg.contains("SampleLevel with texel offsets on a cube texture"), "{msg}");
}

/// Campaign 707 finding: a CBV in register space 0xFFFFFFFF landed in
/// descriptor set 0xFFFFFFFF, the value lowering also used to mean "push
/// constants": the variable was declared PushConstant and its loads Uniform.
/// The placement, not the set number, decides now. Rebuilt on
/// `compute/cbuffer_packing`.
#[test]
fn cbv_in_space_0xffffffff_compiles() {
    let mut m = fixture("compute/cbuffer_packing.cs_6_0.dxil");
    // The CBV record `{id, undef, name, space, lower, size, bytes, tags}`: 96 bytes.
    let recs = tuples(&m, 8, |m, o| o.len() == 8 && int_of(m, o[6]) == Some(96) && int_of(m, o[5]) == Some(1));
    assert_eq!(recs.len(), 1, "one CBV record");
    set_md_int(&mut m, recs[0].start + 3, 0xFFFF_FFFF);
    expect_valid(&m);
}

/// Campaign 808 finding: a type record gave `%struct.Payload` a `void`
/// field (LLVM forbids it); the SPIR-V struct held an OpTypeVoid. Rebuilt on
/// `raytracing/basic`.
#[test]
fn struct_with_a_void_field_is_malformed() {
    let mut m = fixture_export("raytracing/basic.lib_6_3.dxil", "RayGen");
    let void = m.types.intern(Type::Void);
    let k = m
        .types
        .list
        .iter()
        .position(|t| matches!(t, Type::Struct { name: Some(n), .. } if n == "struct.Payload"))
        .expect("struct.Payload");
    let Type::Struct { elems, .. } = &mut m.types.list[k] else { unreachable!() };
    elems.push(void);
    let msg = expect_rule(&m, "type.element");
    assert!(msg.contains("holds a void"), "{msg}");
}

/// Campaign 808 finding: a UAV's `AnnotateHandle` re-pointed at the SRV's
/// annotated handle (an annotation of an annotation); lowering followed the
/// chain to the SRV binding, the verifier read the outer (UAV) annotation,
/// and the store wrote a sampled image. Rebuilt on the corpus shader the
/// mutant came from.
#[test]
fn annotation_of_an_annotation_of_another_class_is_malformed() {
    let test = "annotation_of_an_annotation_of_another_class_is_malformed";
    let Some(mut m) = corpus(test, "vkd3d-proton/sm_advanced/cs_quad_swap_2d_sm66.dxil") else { return };
    let fi = main_fn(&m);
    let f = &m.functions[fi];
    // Annotations with their properties' first word: bit 12 is "UAV".
    let annotations: Vec<(usize, u64)> = (0..f.insts.len())
        .filter_map(|k| match &f.insts[k].kind {
            InstKind::DxOp { op: DxilOp::AnnotateHandle, args, .. } => {
                let Value::Const(c) = f.value_pool[args.range().start + 1] else { return None };
                let ConstKind::Aggregate(w) = &m.consts[c.index()].kind else { return None };
                Some((k, m.const_uint(w[0])?))
            }
            _ => None,
        })
        .collect();
    let &(uav, _) = annotations.iter().find(|(_, w)| w & 0x1000 != 0).expect("a UAV annotation");
    let &(srv, _) = annotations.iter().find(|(k, w)| w & 0x1000 == 0 && *k < uav).expect("an SRV annotation before it");
    let InstKind::DxOp { args, .. } = &m.functions[fi].insts[uav].kind else { unreachable!() };
    let at = args.range().start;
    m.functions[fi].value_pool[at] = Value::Inst(InstId(srv as u32));
    let msg = expect_rule(&m, "dxop.annotation");
    assert!(msg.contains("describes a UAV, the handle is bound as an SRV"), "{msg}");
}

/// Campaign 1111 finding: a module with 16-bit types whose shader flags lose the
/// native-low-precision bit (a mutated type width made the flags constant an i9) is a
/// min-precision shader, computed at 32 bits; `Dot2AddHalf` still converted its (now 32-bit)
/// half operands with `OpFConvert` float → float, which spirv-val rejects. Rebuilt on the corpus
/// shader the mutant came from: the flags 0x800030 become 0x30.
#[test]
fn dot2add_half_of_min_precision_halves_compiles() {
    let test = "dot2add_half_of_min_precision_halves_compiles";
    let Some(mut m) = corpus(test, "dxil-spirv/dxil-builtin/sm64-packed-arithmetic.ssbo.comp.dxil") else { return };
    let flags = tuples(&m, 2, |m, ops| int_of(m, ops[0]) == Some(0) && int_of(m, ops[1]) == Some(0x80_0030));
    assert_eq!(flags.len(), 1, "one shader-flags property");
    set_md_int(&mut m, flags[0].start + 1, 0x30);
    expect_valid(&m);
}

/// Campaign 1111 finding: a groupshared array re-declared as a plain (private) global, so
/// the shader's `atomicrmw`s reached private memory and became `OpAtomic*` on a `Private`
/// variable, which Vulkan forbids. DXIL's LLVM atomics take groupshared memory only (UAV
/// atomics are `dx.op` calls). Rebuilt on the seed: its IR printed with every `addrspace(3)`
/// dropped, parsed back.
#[test]
fn atomic_on_private_memory_is_malformed() {
    let test = "atomic_on_private_memory_is_malformed";
    let Some(m) = corpus(test, "dxil-spirv/llvm-builtin/atomic-bin-op.comp.dxil") else { return };
    let text = dxjit::ir::print::print_module(&m);
    assert!(text.contains("addrspace(3)") && text.contains("atomicrmw"), "groupshared atomics in the seed");
    let edited = dxjit::asm::parse_module(&text.replace(" addrspace(3)", "")).expect("the edited text parses");
    let msg = expect_rule(&edited, "atomic.groupshared");
    assert!(msg.contains("address space 0"), "{msg}");
}

/// Campaign 1111 finding: `EvalSampleIndex` of column 2 of a two-component input became an
/// `OpCompositeExtract` past the vector's end. Like `loadInput`'s, the column of the `Eval*`
/// ops must lie within the element. Rebuilt on the seed: the column operand 1 becomes 2.
#[test]
fn eval_of_a_column_past_the_element_is_malformed() {
    let test = "eval_of_a_column_past_the_element_is_malformed";
    let Some(mut m) = corpus(test, "dxil-spirv/dxil-builtin/eval-sample-index.frag.dxil") else { return };
    let i8t = m.types.intern(Type::Int(8));
    let two = new_const(&mut m, i8t, 2);
    let mut edited = 0;
    for f in m.functions.iter_mut() {
        for k in 0..f.insts.len() {
            if let InstKind::DxOp { op: DxilOp::EvalSampleIndex, args, .. } = &f.insts[k].kind {
                // Operands after the opcode: input id, row, column, sample index.
                let at = args.range().start + 2;
                if f.value_pool[at] != Value::Const(two) && edited == 0 {
                    f.value_pool[at] = Value::Const(two);
                    edited += 1;
                }
            }
        }
    }
    assert_eq!(edited, 1, "one EvalSampleIndex edited");
    match compile_edited(&m) {
        Err(CompileError::Malformed(msg)) => assert!(msg.contains("signature column 2 out of range"), "{msg}"),
        Err(e) => panic!("expected Malformed, got {e}"),
        Ok(cs) => panic!("expected Malformed, got SPIR-V (valid: {:?})", spirv_val::validate(&cs.spirv)),
    }
}

/// Campaign 3333 finding: a `TextureStore` given the SRV's handle straight from
/// `CreateHandleFromBinding` with a `zeroinitializer` binding (class 0: SRV) went unchecked
/// (the class was read only from a binding written field by field) and became
/// `OpImageQuerySize` of a sampled image. A zero binding is an SRV's: storing to it is
/// malformed (`dxop.resource-class`). Rebuilt on the seed: the store takes the SRV's
/// unannotated handle.
#[test]
fn texture_store_to_a_zero_binding_srv_is_malformed() {
    let test = "texture_store_to_a_zero_binding_srv_is_malformed";
    let Some(mut m) = corpus(test, "vkd3d-proton/sm_advanced/cs_quad_swap_2d_sm66.dxil") else { return };
    // The handle made from the all-zero binding (t0), in the one defined function.
    let fi = main_fn(&m);
    let f = &m.functions[fi];
    let zero_binding = (0..f.insts.len()).find(|&k| match &f.insts[k].kind {
        InstKind::DxOp { op: DxilOp::CreateHandleFromBinding, args, .. } => {
            matches!(f.value_pool[args.range().start], Value::Const(c) if matches!(m.konst(c).kind, ConstKind::Null))
        }
        _ => false,
    });
    let h = zero_binding.expect("a CreateHandleFromBinding of zeroinitializer");
    let f = &mut m.functions[fi];
    let mut edited = 0;
    for k in 0..f.insts.len() {
        if let InstKind::DxOp { op: DxilOp::TextureStore, args, .. } = &f.insts[k].kind {
            let at = args.range().start;
            f.value_pool[at] = Value::Inst(InstId(h as u32));
            edited += 1;
        }
    }
    assert_eq!(edited, 1, "one TextureStore edited");
    let msg = expect_rule(&m, "dxop.resource-class");
    assert!(msg.contains("TextureStore needs a UAV handle, operand 0 is an SRV"), "{msg}");
}

/// Campaign 5555 finding: `CallShader` given a `float*` (a field of the payload) where its
/// declaration takes `%struct.Payload*`: the op table accepts any type where an op takes a
/// user struct, and the call's argument was never compared with the declaration, so the
/// callable data became an access chain (spirv-val: "Callable Data must be the result of a
/// OpVariable"). A call's arguments have the types its callee declares (LLVM's rule).
/// Rebuilt on the seed: the call takes the payload field's pointer.
#[test]
fn call_shader_of_another_type_than_declared_is_malformed() {
    let test = "call_shader_of_another_type_than_declared_is_malformed";
    let path = "dxil-spirv/stages/callable-chain.rcall.dxil";
    let Some(mut m) = corpus_with(test, path, &export("main")) else { return };
    let fi = main_fn(&m);
    let f = &mut m.functions[fi];
    let gep = (0..f.insts.len()).find(|&k| matches!(f.insts[k].kind, InstKind::Gep { .. }));
    let gep = InstId(gep.expect("a getelementptr") as u32);
    let mut edited = 0;
    for k in 0..f.insts.len() {
        if let InstKind::DxOp { op: DxilOp::CallShader, args, .. } = &f.insts[k].kind {
            // Operands after the opcode: shader index, callable data.
            let at = args.range().start + 1;
            f.value_pool[at] = Value::Inst(gep);
            edited += 1;
        }
    }
    assert_eq!(edited, 1, "one CallShader edited");
    let msg = expect_rule_with(&m, &export("main"), "dxop.operand-type");
    assert!(msg.contains("CallShader operand 1 is float*, its declaration takes %struct.Payload*"), "{msg}");
}

/// Campaign 8888 finding: a constant `getelementptr` naming `[40 x i32]` as its source type
/// over a base that is itself a constant GEP (an `i32*`): constant expressions were not typed
/// like instructions, and lowering indexed a scalar (`OpAccessChain` past a non-composite).
/// Rebuilt on the seed: one constant GEP of the array re-based on another.
#[test]
fn constant_gep_over_a_base_of_another_type_is_malformed() {
    use dxjit::ir::ConstExpr;
    let test = "constant_gep_over_a_base_of_another_type_is_malformed";
    let Some(mut m) = corpus(test, "dxil-spirv/ags/cs_constexpr_wmma_gep.sm66.ssbo.comp.dxil") else { return };
    let geps: Vec<usize> = (0..m.consts.len())
        .filter(|&k| matches!(&m.consts[k].kind, ConstKind::Expr(ConstExpr::Gep { base: Value::Global(_), .. })))
        .collect();
    assert!(geps.len() >= 2, "two constant GEPs of a global");
    if let ConstKind::Expr(ConstExpr::Gep { base, .. }) = &mut m.consts[geps[0]].kind {
        *base = Value::Const(ConstId(geps[1] as u32));
    }
    let msg = expect_rule(&m, "constant.expr");
    assert!(msg.contains("through a base pointing to"), "{msg}");
}

/// Campaign 10101 finding: a library's miss-shader entry record re-pointed at the any-hit
/// function. The stage rules check a function's ops against its own record's kind (any hit:
/// `IgnoreHit` allowed), so the `MissShader` export compiled the any-hit body as a miss shader
/// (`OpIgnoreIntersectionKHR` outside any hit). A function has one entry record. Rebuilt on the
/// seed.
#[test]
fn two_entry_records_of_one_function_are_malformed() {
    let test = "two_entry_records_of_one_function_are_malformed";
    let Some(mut m) = corpus_with(test, "vkd3d-proton/rt/omm.dxil", &export("MissShader")) else { return };
    let named = |m: &Module, part: &str| {
        tuples(m, 5, |m, o| o.len() == 5 && o[1].and_then(|id| m.md_string(id)).is_some_and(|s| s.contains(part)))
    };
    let (miss, any) = (named(&m, "?MissShader@@"), named(&m, "?AnyHit@@"));
    assert_eq!((miss.len(), any.len()), (1, 1), "one entry record each");
    m.md_ops[miss[0].start] = m.md_ops[any[0].start];
    let msg = expect_rule_with(&m, &export("MissShader"), "entry.function");
    assert!(msg.contains("names the function of"), "{msg}");
}

/// Campaign 14141 finding: a compute shader whose entry record's properties gained a shader
/// kind (there: the shader-flags tag turned into the kind tag, naming a miss shader). The
/// stage rules took the program's kind (compute, `ThreadId` allowed) while lowering took the
/// record's (a miss shader: `GlobalInvocationId` in `MissKHR`, VUID-…-04236). A shader's entry
/// record may only name its program's kind. Rebuilt on the seed.
#[test]
fn entry_record_of_another_kind_than_its_program_is_malformed() {
    let test = "entry_record_of_another_kind_than_its_program_is_malformed";
    let Some(mut m) = corpus(test, "vkd3d-proton/sm_advanced/cs_64bit_atomics_shared.dxil") else { return };
    // The properties {i32 0 (flags), i64 flags, i32 4 (thread-group size), !{…}}.
    let props = tuples(&m, 4, |m, o| o.len() == 4 && int_of(m, o[0]) == Some(0) && int_of(m, o[2]) == Some(4));
    assert_eq!(props.len(), 1, "one property list");
    // Tag 8 is the shader kind; 11 a miss shader.
    set_md_int(&mut m, props[0].start, 8);
    set_md_int(&mut m, props[0].start + 1, 11);
    let msg = expect_rule(&m, "entry.kind");
    assert!(msg.contains("is a miss shader in a compute program"), "{msg}");
}

/// The edited module written back as a container (`asm::container_of`) and compiled from its
/// bytes, as a driver would: the bitcode reader's facts (`ReadFacts`) are what the verifier
/// trusts then, not `verify_module`'s full walk.
fn compile_written(m: &Module) -> Result<CompiledShader, CompileError> {
    compile_written_with(m, &CompileOptions::default())
}

/// [`compile_written`] with `opts` (a library's export).
fn compile_written_with(m: &Module, opts: &CompileOptions) -> Result<CompiledShader, CompileError> {
    let bytes = dxjit::asm::container_of(m, &Default::default()).expect("the edited module writes");
    compile(&bytes, opts)
}

/// Both ways in: the edited module verified in full, and written and read back (the reader
/// notes calls whose arguments are not of their parameters' types, and the verifier checks
/// those one by one): the same rule either way.
fn expect_rule_as_read(m: &Module, rule: &str) {
    expect_rule(m, rule);
    match compile_written(m) {
        Err(CompileError::Malformed(msg)) => assert!(msg.contains(&format!("rule `{rule}`")), "wrong rule: {msg}"),
        Err(e) => panic!("expected Malformed naming `{rule}`, got {e}"),
        Ok(cs) => panic!("expected `{rule}`, got SPIR-V (valid: {:?})", spirv_val::validate(&cs.spirv)),
    }
}

/// What the bitcode reader establishes about the edited module written back.
fn facts_as_written(m: &Module) -> dxjit::bitcode::ReadFacts {
    let bytes = dxjit::asm::container_of(m, &Default::default()).expect("the edited module writes");
    let c = Container::parse(&bytes).expect("container");
    dxjit::bitcode::read_module_with_facts(c.dxil_program().expect("DXIL part").bitcode).expect("bitcode").1
}

/// The `bitops` fixture with operand `k` of its first `BufferStore` replaced by a new constant.
fn bitops_store_with_constant(k: usize, ty: Type, kind: ConstKind) -> Module {
    let mut m = fixture("compute/bitops.cs_6_0.dxil");
    let fi = main_fn(&m);
    let ty = m.types.intern(ty);
    m.consts.push(Const { ty, kind });
    let c = ConstId(m.consts.len() as u32 - 1);
    let (_, args) = dx_call(&m, DxilOp::BufferStore, 0);
    m.functions[fi].value_pool[args.start + k] = Value::Const(c);
    m
}

/// The `k`-th `dx.op` call of `op` in `main` and the position of its arguments in the pool.
fn dx_call(m: &Module, op: DxilOp, k: usize) -> (usize, std::ops::Range<usize>) {
    let f = &m.functions[main_fn(m)];
    f.insts
        .iter()
        .enumerate()
        .filter_map(|(i, x)| match &x.kind {
            InstKind::DxOp { op: o, args, .. } if *o == op => Some((i, args.range())),
            _ => None,
        })
        .nth(k)
        .expect("the call")
}

#[test]
fn call_argument_of_another_type_than_its_parameter_is_malformed() {
    // `Countbits(i32 %3)` given the `%dx.types.ResRet.i32` its operand was extracted from. The
    // bitcode names call arguments by value number alone, so the reader only compares types.
    let mut m = fixture("compute/bitops.cs_6_0.dxil");
    let fi = main_fn(&m);
    let (_, args) = dx_call(&m, DxilOp::Countbits, 0);
    let Value::Inst(x) = m.functions[fi].value_pool[args.start] else { panic!("an instruction operand") };
    let InstKind::ExtractValue { agg, .. } = m.functions[fi].insts[x.index()].kind else { panic!("an extract") };
    m.functions[fi].value_pool[args.start] = agg;
    expect_rule_as_read(&m, "dxop.operand-type");
    // The reader noted the call.
    assert_eq!(facts_as_written(&m).untyped_calls, vec![dxjit::ir::FuncId(fi as u32)]);
}

#[test]
fn operand_of_another_type_as_read_is_malformed() {
    // The second operand of the first binary operation (an i32 `and`) as an i64 constant, and
    // the first conditional branch's condition as one: the bitcode names such operands by value
    // number alone, so the reader only compares types and notes the function
    // (`untyped_operands`); the verifier then checks its operand types in full.
    for rel in ["compute/bitops.cs_6_0.dxil", "compute/cf_early_return.cs_6_0.dxil"] {
        let mut m = fixture(rel);
        let fi = main_fn(&m);
        let i64t = m.types.intern(Type::Int(64));
        m.consts.push(Const { ty: i64t, kind: ConstKind::Int(1) });
        let c = Value::Const(ConstId(m.consts.len() as u32 - 1));
        let branch = rel.contains("cf_");
        let inst = m.functions[fi]
            .insts
            .iter_mut()
            .find(|x| {
                matches!(x.kind, InstKind::Binary { .. } if !branch)
                    || matches!(x.kind, InstKind::CondBr { .. } if branch)
            })
            .expect("the instruction");
        match &mut inst.kind {
            InstKind::Binary { rhs, .. } => *rhs = c,
            InstKind::CondBr { cond, .. } => *cond = c,
            _ => unreachable!(),
        }
        expect_rule_as_read(&m, "type.operand");
        let facts = facts_as_written(&m);
        assert_eq!(facts.untyped_operands, vec![dxjit::ir::FuncId(fi as u32)], "{rel}");
        assert!(facts.forward_refs.is_empty(), "{rel}: {facts:?}");
    }
}

#[test]
fn constant_argument_of_another_type_than_its_parameter_is_malformed() {
    // `BufferStore`'s first coordinate (i32 0) as a float constant.
    let m = bitops_store_with_constant(1, Type::Float, ConstKind::Float(0));
    expect_rule_as_read(&m, "dxop.operand-type");
}

#[test]
fn instruction_where_the_op_takes_a_constant_is_malformed() {
    // `StoreOutput`'s signature element id (an i32 constant) as the i32 `and` computed before
    // it: every argument has its parameter's type (the reader notes nothing), but the op takes
    // a constant there.
    let mut m = fixture("graphics/fullscreen.vs_6_0.dxil");
    let fi = main_fn(&m);
    let (store, args) = dx_call(&m, DxilOp::StoreOutput, 0);
    let f = &m.functions[fi];
    let int = f.insts[..store]
        .iter()
        .position(|x| matches!(x.kind, InstKind::Binary { .. }) && m.types.get(x.ty) == &Type::Int(32))
        .expect("an i32 before the store");
    m.functions[fi].value_pool[args.start] = Value::Inst(InstId(int as u32));
    expect_rule_as_read(&m, "dxop.constant-operand");
    let facts = facts_as_written(&m);
    assert!(facts.untyped_calls.is_empty() && facts.forward_refs.is_empty(), "{facts:?}");
}

#[test]
fn undef_where_the_op_takes_an_integer_constant_is_malformed() {
    // `BufferStore`'s write mask (`i8 1`) as `i8 undef`: a constant of the declared type, but
    // not an integer.
    let m = bitops_store_with_constant(7, Type::Int(8), ConstKind::Undef);
    expect_rule_as_read(&m, "dxop.constant-operand");
}

#[test]
fn element_type_that_holds_no_data_is_malformed() {
    // A vector of a struct, an array of `void`, a pointer to a label and a struct with a
    // function field in the type table, used by nothing: the verifier names the type in the
    // module as edited; read back, the bitcode reader does (LLVM's reader has these rules too).
    for case in 0..4 {
        let mut m = fixture("compute/bitops.cs_6_0.dxil");
        let t = match case {
            0 => {
                let elem = m.types.intern(Type::Struct { name: None, packed: false, opaque: false, elems: vec![] });
                Type::Vector { len: 2, elem }
            }
            1 => Type::Array { len: 2, elem: m.types.intern(Type::Void) },
            2 => Type::Pointer { pointee: m.types.intern(Type::Label), addr_space: 0 },
            _ => {
                let void = m.types.intern(Type::Void);
                let f = m.types.intern(Type::Function { ret: void, params: vec![], vararg: false });
                Type::Struct { name: None, packed: false, opaque: false, elems: vec![f] }
            }
        };
        let k = m.types.intern(t).0;
        expect_rule(&m, "type.element");
        match compile_written(&m) {
            Err(CompileError::Malformed(msg)) => assert!(
                msg.starts_with("bitcode: ")
                    && msg.contains(&format!("type #{k} is a"))
                    && msg.contains("may not hold"),
                "{msg}"
            ),
            Err(e) => panic!("expected Malformed from the reader, got {e}"),
            Ok(_) => panic!("expected Malformed from the reader, got SPIR-V"),
        }
    }
}

/// Campaign 33333 finding: a function record's code turned into the old `cmpxchg` (37),
/// whose pointer operand named a value not read yet; the reader took the pointee of that
/// value's placeholder type (`u32::MAX`) and panicked indexing the type table (the record
/// gives the forward reference's type: that one is meant). The seed is a corpus shader;
/// rebuilt on the first fixtures with the mutators' bitstream tree instead: each
/// function-block record of seven or more operands becomes a code-37 record whose pointer is
/// the value being defined (relative id 0), typed by each of the first type ids in turn;
/// every one must read to a module or an error.
#[test]
fn old_cmpxchg_of_a_forward_pointer_reads_or_fails() {
    use dxjit::bitcode::tree::{parse, records_mut, write, Item};
    let mut files = Vec::new();
    dxil_files(&fixtures_root(), &mut files);
    let (mut mutants, mut read) = (0, 0);
    for p in files.iter().take(12) {
        let bytes = std::fs::read(p).unwrap();
        let Ok(c) = Container::parse(&bytes) else { continue };
        let Ok(part) = c.dxil_program() else { continue };
        let Some(tree) = parse(part.bitcode) else { continue };
        let mut probe = tree.clone();
        let mut recs = Vec::new();
        records_mut(&mut probe, u32::MAX, &mut recs);
        for k in 0..recs.len() {
            let Some((12, Item::Record { ops, .. })) = recs.get(k) else { continue };
            if ops.len() < 7 {
                continue;
            }
            for ty in 0..8 {
                let mut t = tree.clone();
                let mut recs = Vec::new();
                records_mut(&mut t, u32::MAX, &mut recs);
                let Some((_, Item::Record { code, ops })) = recs.get_mut(k) else { continue };
                *code = 37;
                ops[0] = 0;
                ops[1] = ty;
                mutants += 1;
                read += usize::from(dxjit::bitcode::read_module(&write(&t)).is_ok());
            }
        }
    }
    println!("{mutants} records made old cmpxchgs of a forward pointer, {read} read to a module");
    assert!(mutants > 100, "{mutants} mutants from {} fixtures", files.len());
}

/// Campaign 56565 finding (review of the sixth stop; present since the first campaign's
/// build): a type-table mutation made a ray-tracing payload struct one of its own fields.
/// Only named structs may be used before their definition, so the reader took it; lowering
/// the export then recursed through the struct's fields until the stack overflowed. A type
/// that holds itself has no size (LLVM's `isSized` says as much): the reader rejects one in
/// the type table, the full verifier in a module built in memory (`type.recursive`). Rebuilt
/// on `raytracing/basic`: the payload as its own field, and through an array of it; through a
/// pointer it is a type like any other.
#[test]
fn struct_holding_itself_is_malformed() {
    let base = fixture_export("raytracing/basic.lib_6_3.dxil", "RayGen");
    let payload = base
        .types
        .iter()
        .find(|(_, t)| matches!(t, Type::Struct { name: Some(n), .. } if n == "struct.Payload"))
        .map(|(id, _)| id)
        .expect("the payload struct");
    let with_field = |m: &mut Module, field: dxjit::ir::TypeId| {
        let Type::Struct { elems, .. } = &mut m.types.list[payload.0 as usize] else { unreachable!() };
        elems.push(field);
    };
    let itself = {
        let mut m = base.clone();
        with_field(&mut m, payload);
        m
    };
    let through_array = {
        let mut m = base.clone();
        let arr = m.types.intern(Type::Array { len: 2, elem: payload });
        with_field(&mut m, arr);
        m
    };
    for m in [&itself, &through_array] {
        let msg = expect_rule_with(m, &export("RayGen"), "type.recursive");
        assert!(msg.contains("holds itself"), "{msg}");
        // Written back, the reader rejects it in the type table.
        match compile_written_with(m, &export("RayGen")) {
            Err(CompileError::Malformed(msg)) => assert!(msg.contains("holds itself"), "{msg}"),
            other => panic!("expected Malformed (a type that holds itself), got {other:?}"),
        }
    }
    // A pointer to the payload as its field: no cycle by value.
    let mut m = base.clone();
    let ptr = m.types.intern(Type::Pointer { pointee: payload, addr_space: 0 });
    with_field(&mut m, ptr);
    assert_eq!(m.types.holds_itself(), None);
    assert_eq!(base.types.holds_itself(), None);
}

/// Campaign seed 61616 (seventh stop, on c7ae445): a mutant's `dx.op` declaration renamed
/// `llvm.lifetime.start` made its calls LLVM calls of a lifetime marker with a result; lowering
/// dropped them as markers and then found their uses undefined ("%22 used before its definition
/// was lowered", an internal error; present since the first campaign's build). Rule
/// `call.intrinsic`: a lifetime marker is LLVM's `void (i64, i8*)`. Rebuilt on
/// `compute/bitops`: `dx.op.unary.i32` renamed, written back and read again (in memory the calls
/// stay `dx.op` calls); a corpus shader's real markers still compile.
#[test]
fn lifetime_marker_of_another_signature_is_malformed() {
    let mut m = fixture("compute/bitops.cs_6_0.dxil");
    let d = m
        .functions
        .iter()
        .position(|f| f.is_declaration && f.name == "dx.op.unary.i32")
        .expect("the unary declaration");
    m.functions[d].name = "llvm.lifetime.start".into();
    match compile_written(&m) {
        Err(CompileError::Malformed(msg)) => {
            assert!(msg.contains("rule `call.intrinsic`") && msg.contains("llvm.lifetime"), "{msg}")
        }
        other => panic!("expected Malformed naming `call.intrinsic`, got {other:?}"),
    }
    // (`corpus` compiles the unedited shader, with its `llvm.lifetime.start`/`end` around a
    // local array, to valid SPIR-V.)
    let _ = corpus(
        "lifetime_marker_of_another_signature_is_malformed",
        "vkd3d-proton/sm_advanced/ps_helper_lane_wave_ops_enabled.dxil",
    );
}
