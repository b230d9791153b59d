//! The binding model (root signature + policy + callback) end to end: fixture and corpus shaders
//! compiled under bindless policies, validated with spirv-val, placements and push layouts
//! checked against the root signature, and the SPIR-V's decorations read back.

use std::sync::Arc;

use dxjit::binding::{
    BindingModel, BindingPolicy, CounterLocation, HeapArrays, PushEntryKind, ResourceLocation, ResourcePlacement,
    ResourceQuery, ResourceRemap, RootDescriptorMode, TableMode,
};
use dxjit::container::rootsig::RootSignature;
use dxjit::container::Container;
use dxjit::{compile, CompileError, CompileOptions, CompiledShader, ResourceClass};
use dxjit_conformance::spirv_val;

fn fixture(name: &str) -> Vec<u8> {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures").join(name);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn embedded_root_signature(dxil: &[u8]) -> RootSignature {
    let c = Container::parse(dxil).expect("container");
    c.root_signature().expect("RTS0 parses").expect("the fixture embeds a root signature")
}

fn compile_with(dxil: &[u8], model: BindingModel) -> Result<CompiledShader, CompileError> {
    let opts = CompileOptions { bindings: Some(Arc::new(model)), ..CompileOptions::default() };
    compile(dxil, &opts)
}

fn validate(cs: &CompiledShader, what: &str) {
    if let Err(e) = spirv_val::validate(&cs.spirv) {
        panic!("{what}: spirv-val rejects the module:\n{e}");
    }
}

fn placement(cs: &CompiledShader, class: ResourceClass, register: u32) -> ResourcePlacement {
    cs.placements
        .iter()
        .find(|p| p.query.class == class && p.query.register == register && !p.query.heap)
        .unwrap_or_else(|| panic!("no placement for {class:?} {register}: {:?}", cs.placements))
        .placement
}

#[test]
fn table_ranges_default_policy() {
    let dxil = fixture("bindless/table_ranges.cs_6_0.dxil");
    let rs = embedded_root_signature(&dxil);
    let cs = compile_with(&dxil, BindingModel::from_root_signature(rs)).expect("compiles");
    validate(&cs, "table_ranges");
    // Root layout: the root CBV's address first (2 words), then the table's heap offset.
    let layout = cs.push_layout.as_ref().expect("push layout");
    assert_eq!(layout.words, 3);
    assert!(matches!(
        layout.entries[0].kind,
        PushEntryKind::RootDescriptor { class: ResourceClass::Cbv, register: 0, .. }
    ));
    assert_eq!((layout.entries[0].word, layout.entries[0].words), (0, 2));
    assert!(matches!(layout.entries[1].kind, PushEntryKind::TableOffset { sampler_heap: false }));
    assert_eq!(layout.entries[1].word, 2);
    assert_eq!(placement(&cs, ResourceClass::Cbv, 0).location, ResourceLocation::Address { word: 0 });
    let heap = HeapArrays::per_type();
    // t0-t3 at table offset 0, u0 at 4, u1 at 5: all storage buffers in the heap.
    match placement(&cs, ResourceClass::Srv, 0).location {
        ResourceLocation::Heap { set, binding, table_word, heap_offset, bounds, .. } => {
            assert_eq!((set, binding), heap.storage_buffer);
            assert_eq!((table_word, heap_offset, bounds), (Some(2), 0, heap.bounds));
        }
        l => panic!("t0: {l:?}"),
    }
    for (reg, off) in [(0, 4), (1, 5)] {
        match placement(&cs, ResourceClass::Uav, reg).location {
            ResourceLocation::Heap { heap_offset, table_word, .. } => {
                assert_eq!((table_word, heap_offset), (Some(2), off))
            }
            l => panic!("u{reg}: {l:?}"),
        }
    }
    assert!(cs.capabilities.iter().any(|c| c == "PhysicalStorageBufferAddresses"), "{:?}", cs.capabilities);
    assert_eq!(cs.push_constants.map(|p| p.size), Some(12));
}

#[test]
fn heap_nonuniform_default_policy() {
    let dxil = fixture("bindless/heap_nonuniform.cs_6_6.dxil");
    let rs = embedded_root_signature(&dxil);
    let cs = compile_with(&dxil, BindingModel::from_root_signature(rs)).expect("compiles");
    validate(&cs, "heap_nonuniform");
    assert_eq!(placement(&cs, ResourceClass::Cbv, 0).location, ResourceLocation::RootConstants { word: 0, words: 2 });
    let heap: Vec<_> = cs.placements.iter().filter(|p| p.query.heap).collect();
    assert!(!heap.is_empty());
    for p in heap {
        match p.placement.location {
            ResourceLocation::Heap { table_word: None, heap_offset: 0, .. } => {}
            l => panic!("heap access placed at {l:?}"),
        }
    }
    assert!(cs.capabilities.iter().any(|c| c == "StorageBufferArrayNonUniformIndexing"), "{:?}", cs.capabilities);
}

/// `OpDecorate` instructions of a module: (target, decoration, literals).
fn decorations(words: &[u32]) -> Vec<(u32, u32, Vec<u32>)> {
    let mut out = Vec::new();
    let mut i = 5;
    while i < words.len() {
        let n = (words[i] >> 16) as usize;
        let op = words[i] & 0xffff;
        if n == 0 || i + n > words.len() {
            break;
        }
        if op == 71 && n >= 3 {
            out.push((words[i + 1], words[i + 2], words[i + 3..i + n].to_vec()));
        }
        i += n;
    }
    out
}

const DECO_BUILTIN: u32 = 11;
const DECO_INVARIANT: u32 = 18;
const DECO_LOCATION: u32 = 30;
const DECO_INDEX: u32 = 32;
const BUILTIN_POSITION: u32 = 0;

fn compile_state(path: &str, state: dxjit::PipelineStateOptions) -> CompiledShader {
    let dxil = fixture(path);
    let cs = compile(&dxil, &CompileOptions { state, ..CompileOptions::default() }).expect("compiles");
    validate(&cs, path);
    cs
}

#[test]
fn state_invariant_position() {
    let invariant_position = |cs: &CompiledShader| {
        let d = decorations(&cs.spirv);
        let pos: Vec<u32> =
            d.iter().filter(|(_, k, l)| *k == DECO_BUILTIN && l == &[BUILTIN_POSITION]).map(|x| x.0).collect();
        assert_eq!(pos.len(), 1, "one Position output");
        d.iter().any(|(t, k, _)| *t == pos[0] && *k == DECO_INVARIANT)
    };
    let on = dxjit::PipelineStateOptions { invariant_position: true, ..Default::default() };
    assert!(invariant_position(&compile_state("graphics/fullscreen.vs_6_0.dxil", on)));
    assert!(!invariant_position(&compile_state("graphics/fullscreen.vs_6_0.dxil", Default::default())));
}

#[test]
fn state_dual_source_blending() {
    let on = dxjit::PipelineStateOptions { dual_source_blending: true, ..Default::default() };
    let cs = compile_state("graphics/mrt.ps_6_0.dxil", on);
    let d = decorations(&cs.spirv);
    let loc = |t: u32| d.iter().find(|(x, k, _)| *x == t && *k == DECO_LOCATION).map(|x| x.2[0]);
    let mut indexed: Vec<(Option<u32>, u32)> =
        d.iter().filter(|(_, k, _)| *k == DECO_INDEX).map(|(t, _, l)| (loc(*t), l[0])).collect();
    indexed.sort();
    // SV_Target0 and SV_Target1 both at Location 0, as sources 0 and 1; SV_Target2 keeps Location 2.
    assert_eq!(indexed, vec![(Some(0), 0), (Some(0), 1)]);
    assert!(d.iter().any(|(_, k, l)| *k == DECO_LOCATION && l == &[2]));
    let plain = compile_state("graphics/mrt.ps_6_0.dxil", Default::default());
    assert!(!decorations(&plain.spirv).iter().any(|(_, k, _)| *k == DECO_INDEX));
}

#[test]
fn state_typed_uav_load_without_format() {
    let on = dxjit::PipelineStateOptions { typed_uav_load_without_format: true, ..Default::default() };
    let cs = compile_state("compute/typed_buffer.cs_6_0.dxil", on);
    assert!(cs.capabilities.iter().any(|c| c == "StorageImageReadWithoutFormat"), "{:?}", cs.capabilities);
    let plain = compile_state("compute/typed_buffer.cs_6_0.dxil", Default::default());
    assert!(!plain.capabilities.iter().any(|c| c == "StorageImageReadWithoutFormat"), "{:?}", plain.capabilities);
}

#[test]
fn state_rasterizer_sample_count() {
    let Some(corpus) = dxjit_conformance::corpus::Corpus::for_test("state_rasterizer_sample_count") else { return };
    let Some((set, e)) = corpus.entries().find(|(_, e)| e.dxil_path.contains("get_render_target_sample_count")) else {
        panic!("the corpus has no RenderTargetGetSampleCount shader");
    };
    let dxil = std::fs::read(set.path_of(e)).expect("read");
    // Without the sample count: a specialization constant the layer sets (SpecId SPEC_ID_SAMPLE_COUNT).
    let spec = compile(&dxil, &CompileOptions::default()).expect("compiles without the sample count");
    validate(&spec, "sample count as a specialization constant");
    assert_eq!(spec.sample_count_spec_id, Some(dxjit::SPEC_ID_SAMPLE_COUNT));
    let state = dxjit::PipelineStateOptions { rasterizer_sample_count: Some(4), ..Default::default() };
    let cs = compile(&dxil, &CompileOptions { state, ..CompileOptions::default() }).expect("compiles");
    validate(&cs, "sample count");
    // The count is an OpConstant 4 of the module (uint: OpConstant %uint 4).
    let has_four = cs.spirv.windows(4).any(|w| w[0] == (4 << 16 | 43) && w[3] == 4);
    assert!(has_four, "no constant 4 in the module");
}

/// Every `OpStore` into a component of the variable decorated `Location 0`: (component, value),
/// with constant values as `Some(bits)`.
fn location0_stores(words: &[u32]) -> Vec<(u32, Option<u32>)> {
    let d = decorations(words);
    let Some(var) = d.iter().find(|(_, k, l)| *k == DECO_LOCATION && l == &[0]).map(|x| x.0) else { return vec![] };
    let mut consts = std::collections::HashMap::new();
    let mut chains = std::collections::HashMap::new();
    let mut out = Vec::new();
    let mut i = 5;
    while i < words.len() {
        let n = (words[i] >> 16) as usize;
        let op = words[i] & 0xffff;
        if n == 0 || i + n > words.len() {
            break;
        }
        let w = &words[i..i + n];
        match op {
            43 if n == 4 => {
                consts.insert(w[2], w[3]);
            }
            65 if n == 5 && w[3] == var => {
                chains.insert(w[2], w[4]);
            }
            62 => {
                if let Some(c) = chains.get(&w[1]) {
                    out.push((consts.get(c).copied().unwrap_or(u32::MAX), consts.get(&w[2]).copied()));
                }
            }
            _ => {}
        }
        i += n;
    }
    out.sort();
    out
}

#[test]
fn state_output_swizzle() {
    // fullscreen.ps writes (uv.x, uv.y, 0, 1). With swizzle (w, z, constant 0, constant 1) the
    // attachment gets (1, 0, 0, 1) and never the uv values.
    let state = dxjit::PipelineStateOptions { output_swizzle: vec![Some([3, 2, 4, 5])], ..Default::default() };
    let cs = compile_state("graphics/fullscreen.ps_6_0.dxil", state);
    let stores = location0_stores(&cs.spirv);
    let (one, zero) = (1.0f32.to_bits(), 0.0f32.to_bits());
    assert!(!stores.is_empty());
    for (c, v) in &stores {
        let want = match c {
            0 | 3 => one,
            1 | 2 => zero,
            _ => panic!("store to component {c}"),
        };
        assert_eq!(*v, Some(want), "component {c}: {stores:?}");
    }
    for c in 0..4 {
        assert!(stores.iter().any(|s| s.0 == c), "component {c} never written: {stores:?}");
    }
    let plain = location0_stores(&compile_state("graphics/fullscreen.ps_6_0.dxil", Default::default()).spirv);
    assert!(plain.iter().any(|(c, v)| *c == 0 && v.is_none()), "identity writes uv.x to x: {plain:?}");
}

/// A callback that moves SRVs of space 0 to plain descriptors in set 5 and refuses `u1`.
struct Remap {
    seen: std::sync::Mutex<Vec<(ResourceClass, u32, bool)>>,
}

impl ResourceRemap for Remap {
    fn remap(&self, q: &ResourceQuery, proposed: Option<&ResourcePlacement>) -> Result<ResourcePlacement, String> {
        self.seen.lock().expect("lock").push((q.class, q.register, proposed.is_some()));
        if q.class == ResourceClass::Uav && q.register == 1 {
            return Err("u1 is not in this layer's root signature".into());
        }
        if q.class == ResourceClass::Srv {
            return Ok(ResourcePlacement {
                location: ResourceLocation::Descriptor { set: 5, binding: 10, descriptor: q.natural_descriptor() },
                counter: None,
            });
        }
        proposed.copied().ok_or_else(|| "not covered".into())
    }
    fn cache_key(&self) -> String {
        "test-remap-v1".into()
    }
}

#[test]
fn callback_overrides_and_refuses() {
    let dxil = fixture("bindless/table_ranges.cs_6_0.dxil");
    let rs = embedded_root_signature(&dxil);
    let remap = Arc::new(Remap { seen: Default::default() });
    let model = BindingModel { remap: Some(remap.clone()), ..BindingModel::from_root_signature(rs) };
    match compile_with(&dxil, model) {
        Err(CompileError::Binding(e)) => {
            assert!(e.resource.contains("u1"), "{e}");
            assert!(
                e.reason.contains("refused by the binding callback") && e.reason.contains("not in this layer"),
                "{e}"
            );
        }
        r => panic!("a refused resource must fail the compile: {r:?}"),
    }
    let seen = remap.seen.lock().expect("lock").clone();
    // Every query came with the policy's proposal (the root signature covers all of them).
    assert!(seen.iter().all(|s| s.2), "{seen:?}");

    // Without the refusal the override is what the SPIR-V declares.
    struct MoveSrvs;
    impl ResourceRemap for MoveSrvs {
        fn remap(&self, q: &ResourceQuery, p: Option<&ResourcePlacement>) -> Result<ResourcePlacement, String> {
            if q.class == ResourceClass::Srv {
                return Ok(ResourcePlacement {
                    location: ResourceLocation::Descriptor { set: 5, binding: 10, descriptor: q.natural_descriptor() },
                    counter: None,
                });
            }
            p.copied().ok_or_else(|| "not covered".into())
        }
    }
    let rs = embedded_root_signature(&dxil);
    let cs =
        compile_with(&dxil, BindingModel { remap: Some(Arc::new(MoveSrvs)), ..BindingModel::from_root_signature(rs) })
            .expect("compiles");
    validate(&cs, "callback");
    assert!(matches!(
        placement(&cs, ResourceClass::Srv, 0).location,
        ResourceLocation::Descriptor { set: 5, binding: 10, .. }
    ));
    let d = decorations(&cs.spirv);
    let set5: Vec<u32> = d.iter().filter(|(_, k, l)| *k == 34 && l == &[5]).map(|x| x.0).collect();
    assert_eq!(set5.len(), 1, "one variable in set 5");
    assert!(d.iter().any(|(t, k, l)| *t == set5[0] && *k == 33 && l == &[10]), "binding 10");
}

#[test]
fn uncovered_register_is_an_error() {
    let dxil = fixture("bindless/table_ranges.cs_6_0.dxil");
    let mut rs = embedded_root_signature(&dxil);
    // Drop the UAV range from the table: u0 and u1 are no longer covered.
    for p in &mut rs.parameters {
        if let dxjit::container::rootsig::RootParameterKind::DescriptorTable(ranges) = &mut p.kind {
            ranges.retain(|r| r.range_type != dxjit::container::rootsig::DescriptorRangeType::Uav);
        }
    }
    match compile_with(&dxil, BindingModel::from_root_signature(rs)) {
        Err(CompileError::Binding(e)) => {
            assert!(e.resource.contains("u0 space0") || e.resource.contains("u1 space0"), "{e}");
            assert!(e.reason.contains("not covered by the root signature"), "{e}");
        }
        r => panic!("{r:?}"),
    }
    // A visibility that hides the table from compute shaders uncovers it too.
    let mut rs = embedded_root_signature(&dxil);
    for p in &mut rs.parameters {
        p.visibility = dxjit::container::rootsig::ShaderVisibility::Pixel;
    }
    assert!(matches!(compile_with(&dxil, BindingModel::from_root_signature(rs)), Err(CompileError::Binding(_))));
    // Without a root signature and without a callback nothing can be placed.
    let bare =
        BindingModel { root_signature: None, ..BindingModel::from_root_signature(embedded_root_signature(&dxil)) };
    assert!(matches!(compile_with(&dxil, bare), Err(CompileError::Binding(_))));
}

#[test]
fn descriptor_modes_and_mutable_heap() {
    let dxil = fixture("bindless/table_ranges.cs_6_0.dxil");
    let policy = BindingPolicy {
        tables: TableMode::Descriptors { first_set: 3 },
        root_descriptors: RootDescriptorMode::Descriptors { set: 2 },
        ..BindingPolicy::default()
    };
    let model = BindingModel { policy, ..BindingModel::from_root_signature(embedded_root_signature(&dxil)) };
    let cs = compile_with(&dxil, model).expect("compiles");
    validate(&cs, "descriptor modes");
    assert_eq!(
        placement(&cs, ResourceClass::Cbv, 0).location,
        ResourceLocation::Descriptor { set: 2, binding: 0, descriptor: dxjit::DescriptorKind::UniformBuffer }
    );
    assert_eq!(
        placement(&cs, ResourceClass::Uav, 1).location,
        ResourceLocation::Descriptor { set: 3, binding: 5, descriptor: dxjit::DescriptorKind::StorageBuffer }
    );
    // No table words: only root descriptors would use the root block, and they are descriptors now.
    assert_eq!(cs.push_layout.as_ref().map(|l| l.words), Some(0));
    assert!(!cs.capabilities.iter().any(|c| c == "PhysicalStorageBufferAddresses"));

    let policy =
        BindingPolicy { heap: HeapArrays::mutable(4, 0), cbv_as_storage_buffer: true, ..BindingPolicy::default() };
    let model = BindingModel { policy, ..BindingModel::from_root_signature(embedded_root_signature(&dxil)) };
    let cs = compile_with(&dxil, model).expect("compiles");
    validate(&cs, "mutable heap");
    for p in cs.placements.iter().filter(|p| p.query.class != ResourceClass::Cbv) {
        match p.placement.location {
            ResourceLocation::Heap { set: 4, binding: 0, bounds: Some((4, 1)), .. } => {}
            l => panic!("{:?}: {l:?}", p.query),
        }
    }
}

#[test]
fn heap_uav_counter() {
    let Some(corpus) = dxjit_conformance::corpus::Corpus::for_test("heap_uav_counter") else { return };
    let Some((set, e)) = corpus.entries().find(|(_, e)| e.dxil_path.contains("buffer-update-counter")) else {
        panic!("the corpus has no buffer-update-counter shader");
    };
    let dxil = std::fs::read(set.path_of(e)).expect("read");
    let plain = compile(&dxil, &CompileOptions::default()).expect("compiles under the default rule");
    let counted: Vec<_> = plain.bindings.iter().filter(|b| b.has_counter).collect();
    assert!(!counted.is_empty());
    // One table holding every range of the shader.
    let ranges = plain
        .bindings
        .iter()
        .map(|b| dxjit::container::rootsig::DescriptorRange {
            range_type: match b.class {
                ResourceClass::Srv => dxjit::container::rootsig::DescriptorRangeType::Srv,
                ResourceClass::Uav => dxjit::container::rootsig::DescriptorRangeType::Uav,
                ResourceClass::Cbv => dxjit::container::rootsig::DescriptorRangeType::Cbv,
                ResourceClass::Sampler => dxjit::container::rootsig::DescriptorRangeType::Sampler,
            },
            num_descriptors: b.count.unwrap_or(u32::MAX),
            base_shader_register: b.lower_bound,
            register_space: b.space,
            flags: None,
            offset_in_descriptors_from_table_start: u32::MAX,
        })
        .collect();
    let rs = RootSignature {
        version: dxjit::container::rootsig::RootSignatureVersion::V1_1,
        flags: 0,
        parameters: vec![dxjit::container::rootsig::RootParameter {
            visibility: dxjit::container::rootsig::ShaderVisibility::All,
            kind: dxjit::container::rootsig::RootParameterKind::DescriptorTable(ranges),
        }],
        static_samplers: Vec::new(),
    };
    let cs = compile_with(&dxil, BindingModel::from_root_signature(rs.clone())).expect("compiles");
    validate(&cs, "heap counter");
    let heap = HeapArrays::per_type();
    let with_counter: Vec<_> = cs.placements.iter().filter(|p| p.query.has_counter).collect();
    assert!(!with_counter.is_empty());
    for p in with_counter {
        let (set, binding) = heap.counters.expect("default counters");
        assert_eq!(p.placement.counter, Some(CounterLocation::Heap { set, binding }));
    }
    // The counter array is declared at the counters binding.
    let d = decorations(&cs.spirv);
    assert!(d.iter().any(|(_, k, l)| *k == 33 && l == &[heap.counters.expect("counters").1]));
    // Counters through a table of buffer addresses (a callback's choice).
    struct CounterAddresses;
    impl ResourceRemap for CounterAddresses {
        fn remap(&self, _: &ResourceQuery, p: Option<&ResourcePlacement>) -> Result<ResourcePlacement, String> {
            let mut p = *p.ok_or("not covered")?;
            if p.counter.is_some() {
                p.counter = Some(CounterLocation::AddressTable { set: 3, binding: 9 });
            }
            Ok(p)
        }
    }
    let model =
        BindingModel { remap: Some(Arc::new(CounterAddresses)), ..BindingModel::from_root_signature(rs.clone()) };
    let cs = compile_with(&dxil, model).expect("compiles");
    validate(&cs, "counter address table");
    let d = decorations(&cs.spirv);
    assert!(d
        .iter()
        .any(|(t, k, l)| *k == 34 && l == &[3] && d.iter().any(|(x, kk, ll)| x == t && *kk == 33 && ll == &[9])));
    assert!(cs.capabilities.iter().any(|c| c == "PhysicalStorageBufferAddresses"));
    // A policy without a counter array cannot place a used counter.
    let policy =
        BindingPolicy { heap: HeapArrays { counters: None, ..HeapArrays::per_type() }, ..BindingPolicy::default() };
    match compile_with(&dxil, BindingModel { policy, ..BindingModel::from_root_signature(rs) }) {
        Err(CompileError::Binding(e)) => assert!(e.reason.contains("counter"), "{e}"),
        r => panic!("{r:?}"),
    }
}

/// (name, Location) of every variable decorated `Patch` (patch constants of a TCS/TES).
fn patch_locations(words: &[u32]) -> Vec<(String, u32)> {
    let d = decorations(words);
    let mut names = std::collections::HashMap::new();
    let mut i = 5;
    while i < words.len() {
        let n = (words[i] >> 16) as usize;
        if n == 0 || i + n > words.len() {
            break;
        }
        if words[i] & 0xffff == 5 && n >= 3 {
            let bytes: Vec<u8> =
                words[i + 2..i + n].iter().flat_map(|w| w.to_le_bytes()).take_while(|b| *b != 0).collect();
            names.insert(words[i + 1], String::from_utf8_lossy(&bytes).into_owned());
        }
        i += n;
    }
    let mut out: Vec<(String, u32)> = d
        .iter()
        .filter(|(_, k, _)| *k == 15)
        .filter_map(|(t, _, _)| {
            let loc = d.iter().find(|(x, k, _)| x == t && *k == DECO_LOCATION)?.2[0];
            Some((names.get(t).cloned().unwrap_or_default(), loc))
        })
        .collect();
    out.sort();
    out
}

#[test]
fn single_stage_patch_location_offset() {
    let hs = compile_state("tessellation/pc_center.hs_6_0.dxil", Default::default());
    let offset = hs.patch_location_offset.expect("a hull shader reports its patch-constant Location");
    let hs_pc = patch_locations(&hs.spirv);
    assert!(hs_pc.iter().any(|(n, _)| n.starts_with("CENTER")), "{hs_pc:?}");
    assert!(hs_pc.iter().all(|(_, l)| *l >= offset), "{hs_pc:?} vs offset {offset}");
    let dxil = fixture("tessellation/pc_center.ds_6_0.dxil");
    let ds_with = |o: Option<u32>| {
        let cs = compile(&dxil, &CompileOptions { patch_location_offset: o, ..CompileOptions::default() }).expect("ds");
        validate(&cs, "domain");
        patch_locations(&cs.spirv)
    };
    // Given the hull's offset, the domain shader reads each patch constant where the hull wrote it.
    assert_eq!(ds_with(Some(offset)), hs_pc);
    // Another offset moves every patch constant by the difference.
    let moved = ds_with(Some(offset + 3));
    assert_eq!(moved.len(), hs_pc.len());
    for ((n1, l1), (n2, l2)) in hs_pc.iter().zip(&moved) {
        assert_eq!((n1, l1 + 3), (n2, *l2));
    }
}

#[test]
fn acceleration_structure_root_srv_and_heap() {
    use dxjit::container::rootsig::{
        DescriptorRange, DescriptorRangeType, RootDescriptor, RootParameter, RootParameterKind, RootSignatureVersion,
        ShaderVisibility,
    };
    let dxil = fixture("rayquery/inline_hit.cs_6_5.dxil");
    let uav_table = RootParameter {
        visibility: ShaderVisibility::All,
        kind: RootParameterKind::DescriptorTable(vec![DescriptorRange {
            range_type: DescriptorRangeType::Uav,
            num_descriptors: 1,
            base_shader_register: 0,
            register_space: 0,
            flags: None,
            offset_in_descriptors_from_table_start: 0,
        }]),
    };
    // The TLAS as a root SRV (its device address in the root block), as DXR samples bind it.
    let rs = RootSignature {
        version: RootSignatureVersion::V1_1,
        flags: 0,
        parameters: vec![
            RootParameter {
                visibility: ShaderVisibility::All,
                kind: RootParameterKind::Srv(RootDescriptor { shader_register: 0, register_space: 0, flags: None }),
            },
            uav_table.clone(),
        ],
        static_samplers: Vec::new(),
    };
    let cs = compile_with(&dxil, BindingModel::from_root_signature(rs)).expect("compiles");
    validate(&cs, "TLAS root SRV");
    assert_eq!(placement(&cs, ResourceClass::Srv, 0).location, ResourceLocation::Address { word: 0 });
    // OpConvertUToAccelerationStructureKHR (opcode 4447) turns the address into the structure.
    assert!(cs.spirv.iter().any(|w| w & 0xffff == 4447 && w >> 16 == 4), "no OpConvertUToAccelerationStructureKHR");
    // The TLAS in a descriptor table: an element of the acceleration-structure heap array.
    let rs = RootSignature {
        version: RootSignatureVersion::V1_1,
        flags: 0,
        parameters: vec![
            RootParameter {
                visibility: ShaderVisibility::All,
                kind: RootParameterKind::DescriptorTable(vec![DescriptorRange {
                    range_type: DescriptorRangeType::Srv,
                    num_descriptors: 1,
                    base_shader_register: 0,
                    register_space: 0,
                    flags: None,
                    offset_in_descriptors_from_table_start: 0,
                }]),
            },
            uav_table,
        ],
        static_samplers: Vec::new(),
    };
    let cs = compile_with(&dxil, BindingModel::from_root_signature(rs)).expect("compiles");
    validate(&cs, "TLAS in the heap");
    match placement(&cs, ResourceClass::Srv, 0).location {
        ResourceLocation::Heap { set, binding, descriptor, .. } => {
            assert_eq!((set, binding), HeapArrays::per_type().acceleration_structure);
            assert_eq!(descriptor, dxjit::DescriptorKind::AccelerationStructure);
        }
        l => panic!("{l:?}"),
    }
}

/// Local root signatures: the library's association (RDAT), one given by the caller, and the
/// default rule. `raytracing/local_rootsig.lib_6_3`'s ClosestHit reads `cbuffer b0, space1`.
#[test]
fn local_root_signature_in_the_shader_record() {
    use dxjit::binding::{LocalRoot, ShaderRecordLayout};
    use dxjit::container::rootsig::{
        DescriptorRange, DescriptorRangeType, RootDescriptor, RootParameter, RootParameterKind, RootSignatureVersion,
        ShaderVisibility,
    };
    let dxil = fixture("raytracing/local_rootsig.lib_6_3.dxil");
    let c = Container::parse(&dxil).expect("container");
    let grs = c.export_root_signature("ClosestHit", false).expect("RDAT").expect("global root signature");
    let lrs = c.export_root_signature("ClosestHit", true).expect("RDAT").expect("local root signature");
    assert!(c.export_root_signature("RayGen", true).expect("RDAT").is_none(), "RayGen has no local root signature");
    let compile_export = |model: BindingModel, entry: &str| {
        let opts = CompileOptions {
            bindings: Some(Arc::new(model)),
            entry_point: Some(entry.into()),
            ..CompileOptions::default()
        };
        compile(&dxil, &opts)
    };

    // From the library: one root constant, the first 4 bytes after the shader identifier.
    let cs = compile_export(BindingModel::from_root_signature(grs.clone()), "ClosestHit").expect("compiles");
    validate(&cs, "local root constants");
    assert_eq!(
        placement(&cs, ResourceClass::Cbv, 0).location,
        ResourceLocation::RecordConstants { offset: 0, words: 1 }
    );
    let record = cs.shader_record.as_ref().expect("shader record layout");
    assert_eq!(record, &ShaderRecordLayout::of(&lrs));
    assert_eq!((record.size, record.entries[0].offset), (4, 0));
    // Only what the export uses is placed: the library's u0 and t0 belong to RayGen.
    assert_eq!(cs.placements.len(), 1, "{:?}", cs.placements);
    // The raygen export has no local root signature, hence no record; the global root
    // signature's parameters stay in the root block.
    let rg = compile_export(BindingModel::from_root_signature(grs.clone()), "RayGen").expect("compiles");
    validate(&rg, "raygen");
    assert!(rg.shader_record.is_none());
    assert_eq!(placement(&rg, ResourceClass::Srv, 0).location, ResourceLocation::Address { word: 0 });
    assert!(!rg.placements.iter().any(|p| p.query.space == 1), "{:?}", rg.placements);

    // Given by the caller: a descriptor table before a root CBV (D3D12 aligns both to 8 bytes).
    let table = RootParameter {
        visibility: ShaderVisibility::All,
        kind: RootParameterKind::DescriptorTable(vec![DescriptorRange {
            range_type: DescriptorRangeType::Cbv,
            num_descriptors: 1,
            base_shader_register: 0,
            register_space: 1,
            flags: None,
            offset_in_descriptors_from_table_start: 2,
        }]),
    };
    let constants = RootParameter {
        visibility: ShaderVisibility::All,
        kind: RootParameterKind::Constants { shader_register: 5, register_space: 1, num_32bit_values: 1 },
    };
    let given = |params: Vec<RootParameter>| RootSignature {
        version: RootSignatureVersion::V1_1,
        flags: 0x80, // LOCAL_ROOT_SIGNATURE
        parameters: params,
        static_samplers: Vec::new(),
    };
    let in_table = given(vec![constants.clone(), table]);
    assert_eq!(
        ShaderRecordLayout::of(&in_table).entries.iter().map(|e| (e.offset, e.size)).collect::<Vec<_>>(),
        [(0, 4), (8, 8)]
    );
    let model = BindingModel {
        local_root_signature: LocalRoot::Given(in_table),
        ..BindingModel::from_root_signature(grs.clone())
    };
    let cs = compile_export(model, "ClosestHit").expect("compiles");
    validate(&cs, "local descriptor table");
    match placement(&cs, ResourceClass::Cbv, 0).location {
        ResourceLocation::RecordHeap { set, binding, table_offset, heap_offset, .. } => {
            assert_eq!((set, binding), HeapArrays::per_type().uniform_buffer);
            assert_eq!((table_offset, heap_offset), (8, 2));
        }
        l => panic!("{l:?}"),
    }
    let root_cbv = RootParameter {
        visibility: ShaderVisibility::All,
        kind: RootParameterKind::Cbv(RootDescriptor { shader_register: 0, register_space: 1, flags: None }),
    };
    let model = BindingModel {
        local_root_signature: LocalRoot::Given(given(vec![constants, root_cbv])),
        ..BindingModel::from_root_signature(grs.clone())
    };
    let cs = compile_export(model, "ClosestHit").expect("compiles");
    validate(&cs, "local root CBV");
    assert_eq!(placement(&cs, ResourceClass::Cbv, 0).location, ResourceLocation::RecordAddress { offset: 8 });
    assert!(cs.capabilities.iter().any(|c| c == "PhysicalStorageBufferAddresses"), "{:?}", cs.capabilities);

    // No local root signature: b0 space1 is covered by nothing (D3D12 fails the state object).
    let model = BindingModel { local_root_signature: LocalRoot::None, ..BindingModel::from_root_signature(grs) };
    match compile_export(model, "ClosestHit") {
        Err(CompileError::Binding(m)) => assert!(m.resource.contains("b0 space1"), "{m}"),
        r => panic!("expected a binding error, got {r:?}"),
    }

    // The default rule (no binding model) puts the library's local root constants in the record too.
    let opts = CompileOptions { entry_point: Some("ClosestHit".into()), ..CompileOptions::default() };
    let cs = compile(&dxil, &opts).expect("compiles");
    validate(&cs, "default rule");
    assert!(cs.bindings.iter().all(|b| b.space != 1), "b0 space1 is not a descriptor: {:?}", cs.bindings);
    assert_eq!(
        cs.placements.iter().map(|p| p.placement.location).collect::<Vec<_>>(),
        [ResourceLocation::RecordConstants { offset: 0, words: 1 }]
    );
}
