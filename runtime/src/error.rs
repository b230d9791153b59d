//! Typed errors of the Vulkan harness.

use ash::vk;

/// Everything that can go wrong while creating a [`crate::Context`] or running a job on it.
#[derive(Debug, thiserror::Error)]
pub enum RuntimeError {
    /// The Vulkan loader (libvulkan) could not be loaded.
    #[error("Vulkan loader unavailable: {0}")]
    LoaderUnavailable(String),
    /// The loader works but offers no usable physical device.
    #[error("no usable Vulkan device: {0}")]
    NoDevice(String),
    /// `ContextOptions::device` / `DXJIT_DEVICE` named a device that does not exist.
    #[error("device selector {selector:?} matches no Vulkan device (available: {available:?})")]
    DeviceNotFound { selector: String, available: Vec<String> },
    /// Validation was requested but `VK_LAYER_KHRONOS_validation` or `VK_EXT_debug_utils` is missing.
    #[error("validation requested but unavailable: {0}")]
    ValidationUnavailable(String),
    /// A Vulkan call failed.
    #[error("{call} failed: {result:?}")]
    Vulkan { call: &'static str, result: vk::Result },
    /// gpu-allocator failed to allocate or free memory.
    #[error("memory allocation for {what} failed: {message}")]
    Allocation { what: String, message: String },
    /// The SPIR-V byte stream or module is malformed.
    #[error("invalid SPIR-V: {0}")]
    InvalidSpirv(String),
    /// The shader has no entry point of the requested name and stage.
    #[error("entry point {name:?} ({stage}) not found in the SPIR-V module (found: {found:?})")]
    EntryPointNotFound { name: String, stage: &'static str, found: Vec<String> },
    /// The shader declares a descriptor the job does not provide (and no null descriptor can stand in).
    #[error("shader declares set {set} binding {binding} ({kind}) but the job provides no resource for it{reason}")]
    MissingBinding { set: u32, binding: u32, kind: String, reason: String },
    /// The job binds a resource of a different descriptor type than the shader declares.
    #[error("set {set} binding {binding}: shader declares {shader} but the job binds {job}")]
    DescriptorTypeMismatch { set: u32, binding: u32, shader: String, job: String },
    /// The job itself is inconsistent (duplicate slots, wrong data size, ...).
    #[error("invalid resource at set {set} binding {binding}[{array_index}]: {reason}")]
    InvalidResource { set: u32, binding: u32, array_index: u32, reason: String },
    /// The job is inconsistent in a way not tied to one resource.
    #[error("invalid job: {0}")]
    InvalidJob(String),
    /// The device lacks a format capability the job needs.
    #[error("format {format:?} does not support {usage} on this device")]
    FormatUnsupported { format: crate::Format, usage: &'static str },
    /// The device lacks a feature or limit the job needs.
    #[error("unsupported on this device: {0}")]
    Unsupported(String),
    /// The dispatch did not complete in time.
    #[error("GPU work did not finish within {seconds} s")]
    Timeout { seconds: u64 },
}

impl RuntimeError {
    /// True when the error means "no Vulkan (or no validation layer) on this machine", as opposed to a bug.
    /// Tests use it to report themselves SKIPPED instead of failing.
    pub fn is_unavailable(&self) -> bool {
        matches!(
            self,
            RuntimeError::LoaderUnavailable(_) | RuntimeError::NoDevice(_) | RuntimeError::ValidationUnavailable(_)
        ) || matches!(
            self,
            RuntimeError::Vulkan { call: "vkCreateInstance", result: vk::Result::ERROR_INCOMPATIBLE_DRIVER }
        )
    }
}

/// Maps an `ash` result into [`RuntimeError::Vulkan`] naming the call.
pub(crate) trait VkCall<T> {
    fn call(self, call: &'static str) -> Result<T, RuntimeError>;
}

impl<T> VkCall<T> for Result<T, vk::Result> {
    fn call(self, call: &'static str) -> Result<T, RuntimeError> {
        self.map_err(|result| RuntimeError::Vulkan { call, result })
    }
}
