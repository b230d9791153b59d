//! Running bindless specs (`[root_signature]`): the shader is compiled under a D3D12 binding
//! model (the spec's root signature, or the container's embedded one, and the default policy), and
//! the spec's resources are bound as a D3D12 application fills its heaps and root arguments:
//!
//! - a resource at `heap = N` is element N of the heap array of its Vulkan descriptor type
//!   (`BindingPolicy::heap`), its buffer view's `{first, count}` (32-bit words for raw and
//!   structured views, elements for typed views) element N of the bounds buffer, its UAV counter
//!   element N of the counter array; every array a resource uses is sized to the heap's size;
//! - a resource at `root = P` is a buffer whose device address fills root parameter P's two
//!   root-block words;
//! - root constants and table heap offsets fill their root-block words
//!   (`PushLayout::of`); static samplers sit at `BindingPolicy::static_samplers`.
//!
//! Expectations come from the HLSL and D3D12's rules, as everywhere.

use super::backend::{Backend, Bound, CompileFailure, Compiled, DescriptorKind, Outputs, Resource};
use super::bind::resource_of;
use super::compare::compare_resource;
use super::report::{SpecResult, Status};
use super::rootsig::{sampler_of, RootSpec};
use super::spec::{Kind, Place, ResourceSpec, Spec};
use dxjit::binding::{BindingModel, BindingPolicy, PushEntryKind, PushLayout};
use dxjit::container::rootsig::RootSignature;
use dxjit::container::Container;
use std::sync::Arc;
use std::time::Instant;

/// The pseudo descriptor set that names root-descriptor buffers in the results (never a
/// descriptor: they are reached through their address).
pub const ROOT_SET: u32 = 100;

/// The pseudo descriptor set that names buffers reached only through shader-record addresses
/// (binding = the resource's index in the spec).
pub const RECORD_SET: u32 = 101;

type Outcome = Result<(), (Status, String)>;

fn fail<T>(msg: impl Into<String>) -> Result<T, (Status, String)> {
    Err((Status::Fail, msg.into()))
}

/// The root signature a spec runs with: written in the spec, or the container's `RTS0`.
pub fn root_signature(root: &RootSpec, container: &[u8]) -> Result<RootSignature, String> {
    if let Some(rs) = &root.signature {
        return Ok(rs.clone());
    }
    if root.library {
        return Err("source = \"library\" belongs to ray-tracing specs".into());
    }
    let c = Container::parse(container).map_err(|e| format!("reading the container: {e}"))?;
    c.root_signature()
        .map_err(|e| format!("reading the embedded root signature: {e}"))?
        .ok_or_else(|| "source = \"embedded\", but the container has no RTS0 part".to_string())
}

/// The binding model of a spec: its root signature under the policy it names.
pub fn model(root: &RootSpec, rs: RootSignature) -> BindingModel {
    let mut m = BindingModel::from_root_signature(rs);
    m.policy = root.policy();
    m
}

/// A spec's resources and root arguments, bound.
pub struct Binds {
    pub bound: Vec<Bound>,
    pub push: Vec<u8>,
    /// Per spec resource: where it is read back (set, binding, array index).
    pub at: Vec<(u32, u32, u32)>,
    /// Per spec resource: where its counter is read back.
    pub counter_at: Vec<Option<(u32, u32, u32)>>,
    /// Named resources reached through shader-record addresses: (name, index into `bound`).
    pub named: Vec<(String, usize)>,
}

fn to_dxjit(d: DescriptorKind) -> dxjit::DescriptorKind {
    match d {
        DescriptorKind::UniformBuffer => dxjit::DescriptorKind::UniformBuffer,
        DescriptorKind::StorageBuffer => dxjit::DescriptorKind::StorageBuffer,
        DescriptorKind::UniformTexelBuffer => dxjit::DescriptorKind::UniformTexelBuffer,
        DescriptorKind::StorageTexelBuffer => dxjit::DescriptorKind::StorageTexelBuffer,
        DescriptorKind::SampledImage => dxjit::DescriptorKind::SampledImage,
        DescriptorKind::StorageImage => dxjit::DescriptorKind::StorageImage,
        DescriptorKind::Sampler => dxjit::DescriptorKind::Sampler,
        DescriptorKind::AccelerationStructure => dxjit::DescriptorKind::AccelerationStructure,
        DescriptorKind::PushConstant => dxjit::DescriptorKind::PushConstant,
    }
}

/// The Vulkan descriptor type a heap descriptor of this view takes under `policy`.
fn heap_descriptor(res: &ResourceSpec, policy: &BindingPolicy) -> Result<DescriptorKind, String> {
    let uav = res.class == super::backend::ResourceClass::Uav;
    Ok(match res.kind {
        Kind::CBuffer if policy.cbv_as_storage_buffer => DescriptorKind::StorageBuffer,
        Kind::CBuffer => DescriptorKind::UniformBuffer,
        Kind::Raw | Kind::Structured => DescriptorKind::StorageBuffer,
        Kind::Typed if uav => DescriptorKind::StorageTexelBuffer,
        Kind::Typed => DescriptorKind::UniformTexelBuffer,
        Kind::Texture { .. } if uav => DescriptorKind::StorageImage,
        Kind::Texture { .. } => DescriptorKind::SampledImage,
        Kind::Sampler => DescriptorKind::Sampler,
        Kind::AccelerationStructure => DescriptorKind::AccelerationStructure,
        Kind::RootConstants => {
            return Err(format!("{}: root constants are root arguments, not heap descriptors", res.label()))
        }
    })
}

/// A heap buffer view's bounds-buffer entry `{first, count}`: 32-bit words for raw and
/// structured views, elements for typed views.
fn bounds_of(res: &ResourceSpec) -> Option<[u32; 2]> {
    let (unit, words) = match res.kind {
        Kind::Raw => (4u64, true),
        Kind::Structured => (u64::from(res.stride.unwrap_or(4)), true),
        Kind::Typed => (u64::from(res.format.map_or(1, |f| f.texel_size())), false),
        _ => return None,
    };
    let elems = res.init.len() as u64 / unit.max(1);
    let (first, count) = res.view.map_or((0, elems), |(f, c)| (u64::from(f), u64::from(c)));
    let scale = |v: u64| if words { (v * unit / 4) as u32 } else { v as u32 };
    Some([scale(first), scale(count)])
}

/// Binds a spec's resources and root arguments for root signature `rs` with root-block layout
/// `layout`, under the spec's policy.
pub fn bind(spec: &Spec, root: &RootSpec, rs: &RootSignature, layout: &PushLayout) -> Result<Binds, String> {
    bind_with(spec, root, rs, layout, &root.policy())
}

/// [`bind`] with the heap arrays, bounds and counter arrays and static samplers of `policy`
/// (a backend's [`Backend::bound_layout`]).
pub fn bind_with(
    spec: &Spec,
    root: &RootSpec,
    rs: &RootSignature,
    layout: &PushLayout,
    policy: &BindingPolicy,
) -> Result<Binds, String> {
    if root.arguments.len() > rs.parameters.len() {
        return Err(format!(
            "the spec gives {} root arguments, the root signature has {} parameters",
            root.arguments.len(),
            rs.parameters.len()
        ));
    }
    let mut bound = Vec::new();
    let mut at = Vec::with_capacity(spec.resources.len());
    let mut counter_at = Vec::with_capacity(spec.resources.len());
    let mut push = vec![0u8; layout.words as usize * 4];

    // Root arguments.
    for e in &layout.entries {
        let arg = root.arguments.get(e.parameter as usize);
        if e.word.checked_add(e.words).is_none_or(|end| end > layout.words) {
            return Err(format!(
                "root parameter {}: words {}..{} lie outside the {}-word root block",
                e.parameter,
                e.word,
                e.word.saturating_add(e.words),
                layout.words
            ));
        }
        let at_word = |w: u32| w as usize * 4;
        match e.kind {
            PushEntryKind::RootConstants { .. } => {
                let values = arg.map_or(&[][..], |a| a.values.as_slice());
                if values.len() > e.words as usize {
                    return Err(format!(
                        "root parameter {}: {} values for {} root constants",
                        e.parameter,
                        values.len(),
                        e.words
                    ));
                }
                for (k, v) in values.iter().enumerate() {
                    let o = at_word(e.word + k as u32);
                    push[o..o + 4].copy_from_slice(&v.to_le_bytes());
                }
            }
            PushEntryKind::TableOffset { .. } => {
                let Some(off) = arg.and_then(|a| a.table_offset) else {
                    return Err(format!(
                        "root parameter {} is a descriptor table: give its heap `offset`",
                        e.parameter
                    ));
                };
                let o = at_word(e.word);
                push[o..o + 4].copy_from_slice(&off.to_le_bytes());
            }
            PushEntryKind::RootDescriptor { .. } => {
                if !spec.resources.iter().any(|r| r.place == Place::Root(e.parameter)) {
                    return Err(format!(
                        "root parameter {} is a root descriptor: give its buffer (`root = {}`)",
                        e.parameter, e.parameter
                    ));
                }
            }
        }
    }

    // Heap arrays used, to size them to the heap afterwards.
    let heap_size = root.heap_size.unwrap_or_else(|| {
        spec.resources
            .iter()
            .filter_map(|r| if let Place::Heap(h) = r.place { Some(h + 1) } else { None })
            .max()
            .unwrap_or(1)
    });
    let mut arrays: Vec<((u32, u32), DescriptorKind)> = Vec::new();
    let mut used = std::collections::BTreeSet::new();
    let mut bounds: Vec<[u32; 2]> = vec![[0, 0]; heap_size as usize];
    let mut any_bounds = false;
    let mut named = Vec::new();
    for (k, res) in spec.resources.iter().enumerate() {
        match res.place {
            Place::Register => return Err(format!("{}: not in the heap or behind a root descriptor", res.label())),
            Place::Address => {
                let name =
                    res.name.clone().ok_or_else(|| format!("{}: a record address needs a `name`", res.label()))?;
                bound.push(Bound {
                    set: RECORD_SET,
                    binding: k as u32,
                    array_index: 0,
                    resource: Resource::AddressBuffer { data: res.init.clone(), push_offset: None },
                });
                named.push((name, bound.len() - 1));
                at.push((RECORD_SET, k as u32, 0));
                counter_at.push(None);
            }
            Place::Root(p) => {
                let Some(e) = layout.entry(p).filter(|e| matches!(e.kind, PushEntryKind::RootDescriptor { .. })) else {
                    return Err(format!(
                        "{}: root parameter {p} is not a root descriptor held as an address",
                        res.label()
                    ));
                };
                let resource = if res.kind == Kind::AccelerationStructure {
                    Resource::AccelerationStructureAddress { push_offset: e.word * 4 }
                } else {
                    Resource::AddressBuffer { data: res.init.clone(), push_offset: Some(e.word * 4) }
                };
                bound.push(Bound { set: ROOT_SET, binding: p, array_index: 0, resource });
                at.push((ROOT_SET, p, 0));
                counter_at.push(None);
            }
            Place::Heap(h) => {
                let d = heap_descriptor(res, policy)?;
                let (set, binding) = policy
                    .heap
                    .array(to_dxjit(d))
                    .ok_or_else(|| format!("{}: the policy has no heap array for {d:?}", res.label()))?;
                bound.push(Bound { set, binding, array_index: h, resource: resource_of(res, d)? });
                used.insert((set, binding, h));
                if !arrays.iter().any(|(sb, _)| *sb == (set, binding)) {
                    arrays.push(((set, binding), d));
                }
                at.push((set, binding, h));
                if res.class != super::backend::ResourceClass::Cbv {
                    if let (Some(b), Some(slot)) = (bounds_of(res), bounds.get_mut(h as usize)) {
                        *slot = b;
                        any_bounds = true;
                    }
                }
                let counter = match (res.counter.or(res.expect_counter.map(|_| 0)), policy.heap.counters) {
                    (Some(v), Some((cs, cb))) => {
                        bound.push(Bound {
                            set: cs,
                            binding: cb,
                            array_index: h,
                            resource: Resource::StorageBuffer { data: v.to_le_bytes().to_vec() },
                        });
                        used.insert((cs, cb, h));
                        if !arrays.iter().any(|(sb, _)| *sb == (cs, cb)) {
                            arrays.push(((cs, cb), DescriptorKind::StorageBuffer));
                        }
                        Some((cs, cb, h))
                    }
                    (Some(_), None) => return Err(format!("{}: the policy has no UAV-counter array", res.label())),
                    (None, _) => None,
                };
                counter_at.push(counter);
            }
        }
    }
    // Every heap array a resource uses spans the whole heap.
    for ((set, binding), d) in arrays {
        let last = heap_size - 1;
        if !used.contains(&(set, binding, last)) {
            bound.push(Bound { set, binding, array_index: last, resource: Resource::Null(d) });
        }
    }
    if let (true, Some((set, binding))) = (any_bounds, policy.heap.bounds) {
        let data = bounds.iter().flat_map(|b| b.iter().flat_map(|w| w.to_le_bytes())).collect();
        bound.push(Bound { set, binding, array_index: 0, resource: Resource::StorageBuffer { data } });
    }
    // Static samplers.
    let (sset, first) = policy.static_samplers;
    for (i, s) in rs.static_samplers.iter().enumerate() {
        bound.push(Bound {
            set: sset,
            binding: first + i as u32,
            array_index: 0,
            resource: Resource::Sampler(sampler_of(s)),
        });
    }
    Ok(Binds { bound, push, at, counter_at, named })
}

/// Compares every checked resource of the spec with what the run left.
pub fn check(spec: &Spec, binds: &Binds, outputs: &Outputs) -> Result<(), String> {
    for (k, res) in spec.resources.iter().enumerate() {
        let find = |(s, b, i): (u32, u32, u32)| {
            outputs.iter().find(|(os, ob, oi, _)| (*os, *ob, *oi) == (s, b, i)).map(|o| o.3.as_slice())
        };
        if !res.checks.is_empty() {
            let loc = binds.at[k];
            let got = find(loc).ok_or_else(|| {
                format!("no read-back for {} (set {}, binding {}, element {})", res.label(), loc.0, loc.1, loc.2)
            })?;
            compare_resource(res, got).map_err(|m| format!("{}: {m}", res.label()))?;
        }
        if let Some(want) = res.expect_counter {
            let got = binds.counter_at[k].and_then(find);
            let v = got.and_then(|g| g.get(..4)).map(|g| u32::from_le_bytes([g[0], g[1], g[2], g[3]]));
            if v != Some(want) {
                return Err(format!("{} counter: expected {want}, got {v:?}", res.label()));
            }
        }
    }
    Ok(())
}

fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1000.0
}

/// Runs a compute spec with a `[root_signature]` (the caller checked `requires` and read the
/// container).
pub fn run_compute(
    backend: &dyn Backend,
    spec: &Spec,
    root: &RootSpec,
    container: &[u8],
    r: &mut SpecResult,
) -> Outcome {
    let rs = root_signature(root, container).or_else(fail)?;
    let model = Arc::new(model(root, rs.clone()));
    let t = Instant::now();
    let compiled = backend.compile_bound(container, spec.entry.as_deref(), model.clone());
    r.compile_ms = ms(t);
    let (compiled, layout): (Compiled, PushLayout) = match compiled {
        Ok(c) if spec.expect_unsupported => {
            let _ = c;
            return fail("the spec expects `unsupported`, but the shader compiled (update the spec)");
        }
        Ok(c) => c,
        Err(CompileFailure::Unsupported(m)) if spec.expect_unsupported => return Err((Status::ExpectedUnsupported, m)),
        Err(CompileFailure::Unsupported(m)) => return Err((Status::CompileUnsupported, m)),
        Err(CompileFailure::Malformed(m)) => return fail(format!("compile error (malformed or binding): {m}")),
        Err(CompileFailure::Internal(m)) => return fail(format!("compile error (internal): {m}")),
    };
    if !compiled.is_compute {
        return fail("not a compute shader");
    }
    let (policy, want) = backend.bound_layout(&model).or_else(fail)?;
    if layout != want {
        return fail(format!("the compiler reports a root block {layout:?}, the root signature gives {want:?}"));
    }
    let binds = bind_with(spec, root, &rs, &layout, &policy).or_else(fail)?;
    let job = super::backend::Job {
        spirv: &compiled.spirv,
        entry_point: &compiled.entry_point,
        resources: binds.bound.clone(),
        push_constants: binds.push.clone(),
        dispatch: spec.dispatch,
        required_subgroup_size: compiled.dispatch_subgroup_size(spec.subgroup_size).or_else(fail)?,
        scene: spec.scene.clone(),
    };
    let t = Instant::now();
    let outputs = backend.run_compute(&job);
    r.run_ms = ms(t);
    let outputs = outputs.or_else(|e| fail(format!("dispatch failed: {e}")))?;
    check(spec, &binds, &outputs).or_else(fail)?;
    r.status = Status::Pass;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn spec(text: &str) -> Spec {
        Spec::parse("t", Path::new("t.toml"), text).expect("spec parses")
    }

    const TEXT: &str = r#"
description = "d"
shader = "fixtures/x.dxil"
dispatch = [1, 1, 1]

[root_signature]
source = "toml"
heap_size = 1000
[[root_signature.parameter]]
kind = "table"
offset = 100
[[root_signature.parameter.range]]
register = "t0"
count = 2
[[root_signature.parameter.range]]
register = "u0"
count = 1
[[root_signature.parameter]]
kind = "constants"
register = "b1"
values = [7, 8]
[[root_signature.parameter]]
kind = "cbv"
register = "b0"
[[root_signature.static_sampler]]
register = "s0"
filter = "linear"
address = "wrap"

[[resource]]
register = "t0"
kind = "structured"
stride = 8
heap = 100
first = 1
count = 2
init = { u32 = [1, 2, 3, 4, 5, 6, 7, 8] }

[[resource]]
register = "t1"
kind = "typed"
format = "r32_uint"
heap = 101
init = { u32 = [1, 2, 3] }

[[resource]]
register = "u0"
kind = "structured"
heap = 102
size = 16
counter = 5

[[resource]]
register = "b0"
kind = "cbuffer"
root = 2
size = 16
"#;

    #[test]
    fn heap_root_block_and_static_samplers_are_bound_as_d3d12_fills_them() {
        let s = spec(TEXT);
        let root = s.root.clone().expect("root signature");
        let rs = root.signature.clone().expect("toml signature");
        let layout = model(&root, rs.clone()).push_layout();
        // Root CBV address (words 0-1), then the table offset (2) and the constants (3-4).
        assert_eq!(layout.words, 5);
        let b = bind(&s, &root, &rs, &layout).expect("binds");
        let words: Vec<u32> = b.push.chunks(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
        assert_eq!(words, vec![0, 0, 100, 7, 8]);
        let at = |set, binding, i| b.bound.iter().find(|x| (x.set, x.binding, x.array_index) == (set, binding, i));
        assert!(matches!(at(0, 1, 100).map(|x| &x.resource), Some(Resource::StorageBuffer { .. })));
        assert!(matches!(at(0, 2, 101).map(|x| &x.resource), Some(Resource::UniformTexelBuffer { .. })));
        assert!(matches!(at(0, 1, 102).map(|x| &x.resource), Some(Resource::StorageBuffer { .. })));
        // Every array used spans the heap.
        assert!(matches!(at(0, 1, 999).map(|x| &x.resource), Some(Resource::Null(DescriptorKind::StorageBuffer))));
        assert!(matches!(at(0, 2, 999).map(|x| &x.resource), Some(Resource::Null(DescriptorKind::UniformTexelBuffer))));
        // Counter of heap element 102.
        assert_eq!(at(0, 7, 102).map(|x| &x.resource), Some(&Resource::StorageBuffer { data: vec![5, 0, 0, 0] }));
        // The root CBV: an address buffer whose address goes to push bytes 0..8.
        assert!(matches!(
            at(ROOT_SET, 2, 0).map(|x| &x.resource),
            Some(Resource::AddressBuffer { push_offset: Some(0), .. })
        ));
        // Bounds: structured stride 8, view {1, 2} -> words {2, 4}; typed whole view {0, 3}.
        let Some(Resource::StorageBuffer { data }) = at(0, 6, 0).map(|x| &x.resource) else { panic!("bounds buffer") };
        let w = |i: usize| u32::from_le_bytes([data[4 * i], data[4 * i + 1], data[4 * i + 2], data[4 * i + 3]]);
        assert_eq!(data.len(), 1000 * 8);
        assert_eq!((w(200), w(201)), (2, 4));
        assert_eq!((w(202), w(203)), (0, 3));
        // The static sampler at set 2 binding 0.
        let Some(Resource::Sampler(smp)) = at(2, 0, 0).map(|x| &x.resource) else { panic!("static sampler") };
        assert_eq!(
            (smp.filter, smp.address),
            (super::super::backend::Filter::Linear, super::super::backend::AddressMode::Wrap)
        );
        assert_eq!(b.at, vec![(0, 1, 100), (0, 2, 101), (0, 1, 102), (ROOT_SET, 2, 0)]);
        assert_eq!(b.counter_at[2], Some((0, 7, 102)));
    }

    #[test]
    fn missing_root_arguments_are_errors() {
        // No table offset for parameter 0 (an embedded root signature's table without `offset`).
        let s = spec(TEXT);
        let mut root = s.root.clone().unwrap_or_else(|| panic!("root"));
        let rs = root.signature.clone().unwrap_or_else(|| panic!("sig"));
        root.arguments[0].table_offset = None;
        let layout = model(&root, rs.clone()).push_layout();
        let e = bind(&s, &root, &rs, &layout).err().unwrap_or_default();
        assert!(e.contains("root parameter 0") && e.contains("offset"), "{e}");
        // No buffer behind the root CBV.
        let t = TEXT.replace("root = 2\n", "heap = 103\n");
        let s = spec(&t);
        let root = s.root.clone().unwrap_or_else(|| panic!("root"));
        let e = bind(&s, &root, &rs, &layout).err().unwrap_or_default();
        assert!(e.contains("root parameter 2") && e.contains("root = 2"), "{e}");
    }

    #[test]
    fn a_backend_layout_past_the_root_block_is_an_error() {
        // A backend's own layout (Backend::bound_layout) naming words the block does not have.
        let s = spec(TEXT);
        let root = s.root.clone().unwrap_or_else(|| panic!("root"));
        let rs = root.signature.clone().unwrap_or_else(|| panic!("sig"));
        let mut layout = model(&root, rs.clone()).push_layout();
        layout.words -= 1;
        let e = bind_with(&s, &root, &rs, &layout, &root.policy()).err().unwrap_or_default();
        assert!(e.contains("root parameter 1") && e.contains("outside the 4-word root block"), "{e}");
    }

    #[test]
    fn spec_errors_name_the_rule() {
        let bad = |t: &str| Spec::parse("t", Path::new("t.toml"), t).err().map(|e| e.to_string()).unwrap_or_default();
        // A heap resource without a root signature.
        let t = "shader = \"fixtures/x.dxil\"\ndispatch = [1, 1, 1]\n[[resource]]\nregister = \"t0\"\nkind = \"raw\"\nheap = 1\nsize = 4\n";
        assert!(bad(t).contains("[root_signature]"));
        // A register-bound resource under a root signature.
        let t = TEXT.replace("heap = 101\n", "");
        assert!(bad(&t).contains("heap = N"));
        // A view beyond its buffer.
        let t = TEXT.replace("count = 2\ninit", "count = 4\ninit");
        assert!(bad(&t).contains("beyond"));
        // Embedded signatures take values only.
        let t = TEXT.replace("source = \"toml\"", "source = \"embedded\"");
        assert!(bad(&t).contains("only its values"));
    }
}
