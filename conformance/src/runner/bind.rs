//! Where a spec's shader is found ([`RunConfig`]) and how its resources become bound resources
//! for a compiled shader ([`build_resources`], [`find_binding`]). Shared by the compute path
//! (`execute`) and the graphics path (`draw`), so that neither needs the other.

use super::backend::{Binding, Bound, Compiled, DescriptorKind, Format, Image, Resource};
use super::spec::{Kind, ResourceSpec, Spec};
use std::path::PathBuf;

/// Where shaders are found.
#[derive(Debug, Clone)]
pub struct RunConfig {
    /// Root of the shared corpus (holds `vkd3d-proton/`, `dxil-spirv/`).
    pub corpus_root: PathBuf,
    /// Root of the workspace (holds `fixtures/`).
    pub workspace_root: PathBuf,
}

impl Default for RunConfig {
    fn default() -> Self {
        RunConfig { corpus_root: crate::corpus::corpus_root(), workspace_root: crate::corpus::workspace_root() }
    }
}

impl RunConfig {
    pub fn shader_path(&self, spec: &Spec) -> PathBuf {
        self.path_of(&spec.shader)
    }

    /// Where a spec's shader path (`fixtures/…` or a corpus path) lives.
    pub fn path_of(&self, shader: &str) -> PathBuf {
        if shader.starts_with("fixtures/") {
            self.workspace_root.join(shader)
        } else {
            self.corpus_root.join(shader)
        }
    }
}

/// The binding holding a spec resource, and its array index.
pub fn find_binding<'a>(bindings: &'a [Binding], res: &ResourceSpec) -> Option<(&'a Binding, u32)> {
    bindings.iter().find_map(|b| b.index_of(res.class, res.space, res.register).map(|i| (b, i)))
}

/// Builds the bound resources and the push-constant bytes for a compiled shader.
pub fn build_resources(spec: &Spec, compiled: &Compiled) -> Result<(Vec<Bound>, Vec<u8>), String> {
    let mut bound = Vec::new();
    let mut push = None::<Vec<u8>>;
    // Every register the shader declares must be provided.
    for b in &compiled.bindings {
        let n = match b.count {
            Some(n) => n,
            // Unbounded ranges: only the registers the spec gives are bound.
            None => continue,
        };
        for i in 0..n {
            let reg = b.lower_bound.saturating_add(i);
            let given = spec.resources.iter().any(|r| r.class == b.class && r.space == b.space && r.register == reg);
            if !given {
                return Err(format!(
                    "the shader uses {}{reg} (space {}, {}), but the spec gives no resource for it",
                    b.class.prefix(),
                    b.space,
                    b.kind
                ));
            }
        }
    }
    for res in &spec.resources {
        let Some((b, idx)) = find_binding(&compiled.bindings, res) else {
            // DXC drops unused resources; a spec may still describe them (no expectations allowed,
            // checked after the run).
            continue;
        };
        let resource = match b.descriptor {
            DescriptorKind::PushConstant => {
                if !matches!(res.kind, Kind::CBuffer | Kind::RootConstants) {
                    return Err(format!(
                        "{} is a {:?} in the spec but push constants in the shader",
                        res.label(),
                        res.kind
                    ));
                }
                if push.is_some() {
                    return Err("more than one resource maps to push constants".into());
                }
                let size = compiled.push_constant_size.unwrap_or(res.init.len() as u32) as usize;
                let mut data = res.init.clone();
                if data.len() > size {
                    data.truncate(size);
                }
                data.resize(size, 0);
                push = Some(data);
                continue;
            }
            d => resource_of(res, d)?,
        };
        bound.push(Bound { set: b.set, binding: b.binding, array_index: idx, resource });
        if b.has_counter {
            let Some((set, binding)) = b.counter_binding else {
                return Err(format!("{} has a counter but no counter binding", res.label()));
            };
            let v = res.counter.unwrap_or(0);
            bound.push(Bound {
                set,
                binding,
                array_index: idx,
                resource: Resource::StorageBuffer { data: v.to_le_bytes().to_vec() },
            });
        }
    }
    if compiled.push_constant_size.is_some_and(|s| s > 0) && push.is_none() {
        return Err("the shader takes push constants, but no cbuffer/root_constants resource maps to them".into());
    }
    Ok((bound, push.unwrap_or_default()))
}

/// The contents bound for a spec resource seen through a descriptor of type `d` (buffers,
/// texel buffers, images, samplers).
pub fn resource_of(res: &ResourceSpec, d: DescriptorKind) -> Result<Resource, String> {
    Ok(match d {
        DescriptorKind::AccelerationStructure if res.kind == Kind::AccelerationStructure => {
            Resource::AccelerationStructure
        }
        DescriptorKind::AccelerationStructure | DescriptorKind::PushConstant => {
            return Err(format!("{}: a {d:?} is not a descriptor the runner fills", res.label()))
        }
        DescriptorKind::UniformBuffer | DescriptorKind::StorageBuffer => {
            if !res.kind.is_buffer() {
                return Err(format!("{} is a {:?} in the spec but a buffer in the shader", res.label(), res.kind));
            }
            let data = res.init.clone();
            if d == DescriptorKind::UniformBuffer {
                Resource::UniformBuffer { data }
            } else {
                Resource::StorageBuffer { data }
            }
        }
        DescriptorKind::UniformTexelBuffer | DescriptorKind::StorageTexelBuffer => {
            let format = match res.kind {
                Kind::Typed => res.format.ok_or_else(|| format!("{} needs a format", res.label()))?,
                Kind::Raw | Kind::Structured => Format::R32Uint,
                other => {
                    return Err(format!("{} is a {other:?} in the spec but a texel buffer in the shader", res.label()))
                }
            };
            let data = res.init.clone();
            if d == DescriptorKind::UniformTexelBuffer {
                Resource::UniformTexelBuffer { format, data }
            } else {
                Resource::StorageTexelBuffer { format, data }
            }
        }
        DescriptorKind::SampledImage | DescriptorKind::StorageImage => {
            let (Kind::Texture { dim, .. }, Some(shape), Some(format)) = (res.kind, res.shape, res.format) else {
                return Err(format!("{} is a {:?} in the spec but an image in the shader", res.label(), res.kind));
            };
            let img = Image {
                dim,
                format,
                width: shape.width,
                height: shape.height,
                depth: shape.depth,
                layers: shape.layers,
                mips: shape.mips,
                samples: shape.samples,
                data: res.init.clone(),
            };
            if d == DescriptorKind::SampledImage {
                Resource::SampledImage(img)
            } else {
                Resource::StorageImage(img)
            }
        }
        DescriptorKind::Sampler => match &res.sampler {
            Some(s) => Resource::Sampler(s.clone()),
            None => return Err(format!("{} is a {:?} in the spec but a sampler in the shader", res.label(), res.kind)),
        },
    })
}
