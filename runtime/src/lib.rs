//! Vulkan harness for dxjit. Filled in by the compute-shader issue; kept as an
//! empty crate so the workspace layout matches the design from the start.
