//! Every non-library corpus shader that compiles under the default binding rule also compiles,
//! spirv-val clean, under a bindless binding model: a root signature built from the shader's own
//! resources (CBV b0 as a root CBV by buffer address, another small CBV as root constants, one raw
//! or structured SRV and UAV as root descriptors, everything else in descriptor tables placed in
//! bindless heap arrays). Every fourth shader is also compiled with one mutable-descriptor heap
//! array and constant buffers read as storage buffers. Prints the counts.

use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

use dxjit::binding::{BindingModel, BindingPolicy, HeapArrays, ResourceLocation};
use dxjit::container::rootsig::{
    DescriptorRange, DescriptorRangeType, RootDescriptor, RootParameter, RootParameterKind, RootSignature,
    RootSignatureVersion, ShaderVisibility,
};
use dxjit::{compile, CompileError, CompileOptions, ResourceBinding, ResourceClass};
use dxjit_conformance::corpus::Corpus;
use dxjit_conformance::spirv_val;

/// A root signature that covers `bindings` the way a layer's application typically lays it out.
/// With `root_buffers` false, raw/structured SRVs and UAVs stay in tables (for shaders that ask a
/// buffer its size: D3D12 root descriptors have none).
fn root_signature_for(bindings: &[ResourceBinding], root_buffers: bool) -> RootSignature {
    let mut params = Vec::new();
    let mut table = Vec::new();
    let mut samplers = Vec::new();
    let (mut root_cbv, mut root_consts, mut root_srv, mut root_uav) = (false, false, false, false);
    let single = |b: &ResourceBinding| b.count == Some(1);
    let buffer = |b: &ResourceBinding| b.kind == "RawBuffer" || b.kind == "StructuredBuffer";
    let rd =
        |b: &ResourceBinding| RootDescriptor { shader_register: b.lower_bound, register_space: b.space, flags: None };
    for b in bindings {
        let kind = match b.class {
            ResourceClass::Cbv if single(b) && b.space == 0 && b.lower_bound == 0 && !root_cbv => {
                root_cbv = true;
                Some(RootParameterKind::Cbv(rd(b)))
            }
            ResourceClass::Cbv if single(b) && !root_consts => {
                root_consts = true;
                Some(RootParameterKind::Constants {
                    shader_register: b.lower_bound,
                    register_space: b.space,
                    num_32bit_values: 16,
                })
            }
            ResourceClass::Srv if root_buffers && single(b) && buffer(b) && !root_srv => {
                root_srv = true;
                Some(RootParameterKind::Srv(rd(b)))
            }
            ResourceClass::Uav if root_buffers && single(b) && buffer(b) && !b.has_counter && !root_uav => {
                root_uav = true;
                Some(RootParameterKind::Uav(rd(b)))
            }
            _ => None,
        };
        if let Some(kind) = kind {
            params.push(RootParameter { visibility: ShaderVisibility::All, kind });
            continue;
        }
        let range_type = match b.class {
            ResourceClass::Srv => DescriptorRangeType::Srv,
            ResourceClass::Uav => DescriptorRangeType::Uav,
            ResourceClass::Cbv => DescriptorRangeType::Cbv,
            ResourceClass::Sampler => DescriptorRangeType::Sampler,
        };
        let range = DescriptorRange {
            range_type,
            num_descriptors: b.count.unwrap_or(u32::MAX),
            base_shader_register: b.lower_bound,
            register_space: b.space,
            flags: None,
            offset_in_descriptors_from_table_start: u32::MAX,
        };
        if b.class == ResourceClass::Sampler {
            samplers.push(range);
        } else {
            table.push(range);
        }
    }
    // Unbounded ranges must come last in a table (append offsets after them are undefined): put a
    // table's unbounded ranges at the end, one table each after the first.
    for ranges in [table, samplers] {
        let (bounded, unbounded): (Vec<_>, Vec<_>) = ranges.into_iter().partition(|r| r.num_descriptors != u32::MAX);
        if !bounded.is_empty() {
            params.push(RootParameter {
                visibility: ShaderVisibility::All,
                kind: RootParameterKind::DescriptorTable(bounded),
            });
        }
        for r in unbounded {
            params.push(RootParameter {
                visibility: ShaderVisibility::All,
                kind: RootParameterKind::DescriptorTable(vec![r]),
            });
        }
    }
    RootSignature { version: RootSignatureVersion::V1_1, flags: 0, parameters: params, static_samplers: Vec::new() }
}

/// `rs` with its root SRV/UAV parameters moved into one more descriptor table.
fn without_root_buffers(rs: &RootSignature) -> RootSignature {
    let mut out = rs.clone();
    let mut ranges = Vec::new();
    out.parameters.retain(|p| {
        let (t, d) = match &p.kind {
            RootParameterKind::Srv(d) => (DescriptorRangeType::Srv, d),
            RootParameterKind::Uav(d) => (DescriptorRangeType::Uav, d),
            _ => return true,
        };
        ranges.push(DescriptorRange {
            range_type: t,
            num_descriptors: 1,
            base_shader_register: d.shader_register,
            register_space: d.register_space,
            flags: None,
            offset_in_descriptors_from_table_start: u32::MAX,
        });
        false
    });
    out.parameters
        .push(RootParameter { visibility: ShaderVisibility::All, kind: RootParameterKind::DescriptorTable(ranges) });
    out
}

#[derive(Default)]
struct Tally {
    total: usize,
    valid: usize,
    variant_valid: usize,
    variant_total: usize,
    /// Shaders that query a buffer's size, compiled with their buffers in tables.
    sized_buffers: usize,
    unsupported: BTreeMap<String, usize>,
    failures: Vec<String>,
    locations: BTreeMap<&'static str, usize>,
}

impl Tally {
    fn check(&mut self, name: &str, dxil: &[u8], model: BindingModel, variant: bool) {
        let opts = CompileOptions { bindings: Some(Arc::new(model)), ..CompileOptions::default() };
        let mut r = catch_unwind(AssertUnwindSafe(|| compile(dxil, &opts)));
        if let Ok(Err(CompileError::Unsupported { feature, .. })) = &r {
            if feature.contains("root descriptor") {
                // The shader asks a buffer its size: an application keeps such buffers in tables.
                let Some(m) = opts.bindings.as_deref() else { return };
                let rs = m.root_signature.as_ref().map(without_root_buffers);
                let model = BindingModel { root_signature: rs, ..m.clone() };
                let opts = CompileOptions { bindings: Some(Arc::new(model)), ..CompileOptions::default() };
                r = catch_unwind(AssertUnwindSafe(|| compile(dxil, &opts)));
                if !variant {
                    self.sized_buffers += 1;
                }
            }
        }
        match r {
            Err(_) => self.failures.push(format!("{name}: panic")),
            Ok(Err(CompileError::Unsupported { feature, .. })) => *self.unsupported.entry(feature).or_default() += 1,
            Ok(Err(e)) => self.failures.push(format!("{name}: {e}")),
            Ok(Ok(cs)) => match spirv_val::validate(&cs.spirv) {
                Ok(()) => {
                    if variant {
                        self.variant_valid += 1;
                        return;
                    }
                    self.valid += 1;
                    for p in &cs.placements {
                        let k = match p.placement.location {
                            ResourceLocation::Descriptor { .. } => "descriptor",
                            ResourceLocation::Heap { .. } => "heap",
                            ResourceLocation::RootConstants { .. } => "root constants",
                            ResourceLocation::Address { .. } => "address",
                            ResourceLocation::RecordConstants { .. }
                            | ResourceLocation::RecordAddress { .. }
                            | ResourceLocation::RecordHeap { .. } => "shader record",
                        };
                        *self.locations.entry(k).or_default() += 1;
                    }
                }
                Err(msg) => self.failures.push(format!("{name}: invalid SPIR-V: {msg}")),
            },
        }
    }
}

#[test]
fn compile_bindless_corpus() {
    let Some(corpus) = Corpus::for_test("compile_bindless_corpus") else { return };
    let mut t = Tally::default();
    for (set, e) in corpus.entries() {
        let name = format!("{}/{}", set.name, e.dxil_path);
        let Ok(dxil) = std::fs::read(set.path_of(e)) else { continue };
        // Only what compiles today under the default rule is in scope.
        let Ok(Ok(plain)) = catch_unwind(AssertUnwindSafe(|| compile(&dxil, &CompileOptions::default()))) else {
            continue;
        };
        t.total += 1;
        let rs = root_signature_for(&plain.bindings, true);
        t.check(&name, &dxil, BindingModel::from_root_signature(rs.clone()), false);
        if t.total % 4 == 0 {
            let policy = BindingPolicy {
                heap: HeapArrays::mutable(0, 0),
                cbv_as_storage_buffer: true,
                ..BindingPolicy::default()
            };
            let model = BindingModel { policy, ..BindingModel::from_root_signature(rs) };
            t.variant_total += 1;
            t.check(&name, &dxil, model, true);
        }
    }
    println!(
        "bindless corpus: {} of {} shaders valid under the bindless policy ({} query a buffer's size: \
         their buffers stay in tables), {} of {} under the mutable-heap variant; placements {:?}; unsupported {:?}; \
         {} failures",
        t.valid,
        t.total,
        t.sized_buffers,
        t.variant_valid,
        t.variant_total,
        t.locations,
        t.unsupported,
        t.failures.len()
    );
    for f in t.failures.iter().take(40) {
        eprintln!("  {f}");
    }
    assert!(t.failures.is_empty(), "{} shaders fail under the bindless policy", t.failures.len());
    assert!(t.unsupported.is_empty(), "unsupported under the bindless policy: {:?}", t.unsupported);
    assert_eq!(t.valid, t.total);
    assert_eq!(t.variant_valid, t.variant_total);
    assert!(t.total >= 500, "only {} corpus shaders compiled", t.total);
}

/// Every corpus shader that compiles under the default options also compiles, spirv-val clean,
/// with every code-changing pipeline-state option on (typed UAV loads without format, invariant
/// position, dual-source blending, a rasterizer sample count, output swizzles on all targets,
/// subgroup sizes 4..=128, min precision as native 16-bit types).
/// (None needs them to compile any more: without the sample count it is a specialization constant.)
#[test]
fn compile_corpus_with_pipeline_state() {
    let Some(corpus) = Corpus::for_test("compile_corpus_with_pipeline_state") else { return };
    let state = dxjit::PipelineStateOptions {
        output_swizzle: vec![Some([2, 1, 0, 5]); 8],
        dual_source_blending: true,
        rasterizer_sample_count: Some(4),
        invariant_position: true,
        typed_uav_load_without_format: true,
        // Every wave size a shader may declare: nothing is refused for it.
        subgroup_size: Some(dxjit::SubgroupSizeRange { min: 4, max: 128 }),
        native_min_precision: true,
    };
    let opts = CompileOptions { state, ..CompileOptions::default() };
    let (mut total, mut valid, mut gained) = (0, 0, 0);
    let mut failures = Vec::new();
    for (set, e) in corpus.entries() {
        let name = format!("{}/{}", set.name, e.dxil_path);
        let Ok(dxil) = std::fs::read(set.path_of(e)) else { continue };
        let plain = catch_unwind(AssertUnwindSafe(|| compile(&dxil, &CompileOptions::default())));
        let was_ok = matches!(plain, Ok(Ok(_)));
        match catch_unwind(AssertUnwindSafe(|| compile(&dxil, &opts))) {
            Ok(Ok(cs)) => {
                total += 1;
                if !was_ok {
                    gained += 1;
                }
                match spirv_val::validate(&cs.spirv) {
                    Ok(()) => valid += 1,
                    Err(m) => failures.push(format!("{name}: {m}")),
                }
            }
            Ok(Err(e)) if was_ok => failures.push(format!("{name}: compiled before, now {e}")),
            Ok(Err(_)) => {}
            Err(_) => failures.push(format!("{name}: panic")),
        }
    }
    println!("pipeline state: {valid} of {total} valid with every state option on ({gained} compile only with them)");
    for f in failures.iter().take(20) {
        eprintln!("  {f}");
    }
    assert!(failures.is_empty(), "{} failures", failures.len());
    assert!(total >= 593, "total {total}, gained {gained}");
}
