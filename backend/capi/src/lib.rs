//! The C ABI of dxjit, for drivers and D3D12-on-Vulkan layers written in C or C++.
//!
//! Three parts, one library (`libdxjit_capi.a` / `libdxjit_capi.so`):
//!
//! - [`native`]: the native API declared by `include/dxjit.h` (generated from `src/native.rs`
//!   by cbindgen; a test fails when the checked-in header is stale).
//! - [`compat`]: the `dxil_spv_*` functions of the dxil-spirv C interface (API 2.66.0), declared by
//!   `include/dxil_spirv_c.h`, implemented over the native API and dxjit's binding model, so a
//!   layer built against that interface switches to dxjit by relinking.
//! - [`fallback`]: inputs dxjit does not compile (DXBC shader model 4.0-5.1, DXIL it reports
//!   unsupported) handed to another library implementing the dxil_spv interface, loaded at run
//!   time; every compile's route is counted.
//!
//! No panic crosses the boundary: every exported function runs its body under `catch_unwind`
//! and turns a panic into an error code and message.

// The exported functions' safety contract is the C headers' (pointer validity, lifetimes), stated there
// per function rather than in a `# Safety` section of each Rust declaration.
#![allow(clippy::missing_safety_doc)]

pub mod abi;
mod ffi;

pub mod compat;
pub mod fallback;
pub mod native;
