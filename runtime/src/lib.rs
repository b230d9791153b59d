//! Vulkan harness for dxjit: runs SPIR-V produced by the compiler on a Vulkan device (Mesa lavapipe by
//! default, any GPU on request) and reads the results back. Built on `ash` and `gpu-allocator`; this is
//! the only crate of the workspace with `unsafe` (Vulkan FFI), wrapped in the safe API below.
//!
//! Layout: `context` (instance, device choice, validation capture), `features` (what is enabled),
//! `resources` (job resource descriptions), `bind` + `descriptors` (resource creation, upload, read-back,
//! descriptor sets — shared by every pipeline kind), `scratch` (per-job object ownership), `compute`
//! (compute jobs), `graphics` (graphics jobs: one draw with dynamic rendering), `raytracing`
//! (acceleration structures for any job, ray-tracing pipeline jobs), `reflect` (SPIR-V binding
//! reflection).

mod bind;
mod compute;
mod context;
mod descriptors;
mod error;
mod features;
mod format;
mod graphics;
mod raytracing;
pub mod reflect;
mod resources;
mod scratch;

pub use ash::vk;
pub use compute::{ComputeJob, ComputeResult};
pub use context::{lavapipe_available, vulkan_available, vulkan_devices, Context, ContextOptions, DeviceInfo};
pub use error::RuntimeError;
pub use features::DeviceFeatures;
pub use format::{AddressMode, BorderColor, CompareOp, Filter, Format, ImageDim};
pub use graphics::*;
pub use raytracing::{
    AddressOf, Blas, Geometry, GeometryKind, Instance, RayTracingJob, RtShader, RtStage, Scene, ShaderGroup,
    ShaderRecord,
};
pub use resources::{BoundResource, ImageDesc, ResourceDesc, SamplerDesc, Subresource};

/// Converts a SPIR-V binary (as bytes, either endianness) to words, checking the magic number.
pub fn spirv_from_words(bytes: &[u8]) -> Result<Vec<u32>, RuntimeError> {
    if !bytes.len().is_multiple_of(4) {
        return Err(RuntimeError::InvalidSpirv(format!("{} bytes is not a whole number of words", bytes.len())));
    }
    let le: Vec<u32> = bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
    match le.first() {
        Some(0x0723_0203) => Ok(le),
        Some(0x0302_2307) => Ok(le.into_iter().map(u32::swap_bytes).collect()),
        Some(w) => Err(RuntimeError::InvalidSpirv(format!("bad magic number {w:#010x}"))),
        None => Err(RuntimeError::InvalidSpirv("empty module".into())),
    }
}
