//! dxjit: a DXIL → SPIR-V compiler.
//!
//! Data flows one way: [`container`] (DXBC parts) → [`bitcode`] (native LLVM
//! 3.7 bitcode reader) → [`ir`] (our typed IR) → [`dxil`] (typed DXIL
//! metadata: entry points, signatures, resources, properties) → analysis →
//! lowering → SPIR-V.

pub mod container;
mod dxil_enum;
pub mod dxil_op;
pub mod fxhash;
pub mod resource_kind;
pub mod semantic_kind;
pub mod shader_kind;
pub use resource_kind::ResourceKind;
pub use semantic_kind::SemanticKind;
pub use shader_kind::ShaderKind;

pub mod analysis;
pub mod asm;
pub mod bitcode;
pub mod dxil;
pub mod ir;
pub mod link;
pub mod structurize;
pub mod verify;

pub mod binding;
pub mod cache;
pub mod compile;
mod compiled;
mod error;
pub mod lower;
mod options;
mod phase;
pub use binding::{BindingMap, BindingModel, BindingPolicy, DescriptorKind, ResourceClass};
pub use compile::{
    compile, compile_pipeline, compile_pipeline_with_stats, compile_stage, compile_with_stats, CompileError,
    CompileOptions, CompiledPipeline, CompiledShader, HeapBinding, PatchConstantInvocations, Phase, PhaseTimes,
    PipelineError, PipelineStateOptions, PlacedResource, PushConstantRange, ResourceBinding, Robustness,
    SubgroupSizeRange, SPEC_ID_SAMPLE_COUNT,
};
