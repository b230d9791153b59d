//! Vulkan instance, device selection, logical device creation and the debug-utils message capture.

use std::ffi::{c_char, c_void, CStr};
use std::sync::{Arc, Mutex, MutexGuard};

use ash::vk;
use gpu_allocator::vulkan::{Allocator, AllocatorCreateDesc};

use crate::error::VkCall;
use crate::features::{query_props, DeviceFeatures, FeatureChain};
use crate::RuntimeError;

const VALIDATION_LAYER: &CStr = c"VK_LAYER_KHRONOS_validation";
/// Devices older than this are not offered (Vulkan 1.2 core feature structs are used throughout).
const MIN_DEVICE_API: u32 = vk::API_VERSION_1_2;

/// How to create a [`Context`].
#[derive(Clone, Debug, Default)]
pub struct ContextOptions {
    /// Enable `VK_LAYER_KHRONOS_validation` (plus synchronization validation where the layer offers it)
    /// and capture its errors and warnings; read them with [`Context::take_validation_messages`].
    pub validation: bool,
    /// Device selector: an index into the loader's device list or a case-insensitive substring of the
    /// device name. `None` reads env `DXJIT_DEVICE`; when that is unset too, a discrete GPU is preferred,
    /// then an integrated one, then any other, then a CPU implementation (lavapipe).
    pub device: Option<String>,
}

/// One physical device as the loader reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceInfo {
    /// Position in the loader's list (what a numeric `DXJIT_DEVICE` selects).
    pub index: usize,
    pub name: String,
    pub device_type: vk::PhysicalDeviceType,
    pub api_version: u32,
    /// True when it can host a [`Context`] (Vulkan 1.2+, a queue family with graphics and compute).
    pub usable: bool,
}

/// Captured debug-utils messages. Lives in an `Arc` whose address is the messenger's user data.
#[derive(Default)]
pub(crate) struct MessageSink {
    messages: Mutex<Vec<String>>,
}

impl MessageSink {
    fn push(&self, message: String) {
        if let Ok(mut v) = self.messages.lock() {
            v.push(message);
        }
    }

    fn take(&self) -> Vec<String> {
        match self.messages.lock() {
            Ok(mut v) => std::mem::take(&mut *v),
            Err(poisoned) => std::mem::take(&mut *poisoned.into_inner()),
        }
    }
}

/// # Safety
/// Called by the validation layer; `user` is the `MessageSink` registered with the messenger and outlives it.
unsafe extern "system" fn debug_callback(
    severity: vk::DebugUtilsMessageSeverityFlagsEXT,
    types: vk::DebugUtilsMessageTypeFlagsEXT,
    data: *const vk::DebugUtilsMessengerCallbackDataEXT<'_>,
    user: *mut c_void,
) -> vk::Bool32 {
    if user.is_null() || data.is_null() {
        return vk::FALSE;
    }
    // SAFETY: `user` is `Arc::as_ptr` of a live MessageSink (see `InstanceHandle`); `data` is valid for the call.
    let (sink, data) = unsafe { (&*(user as *const MessageSink), &*data) };
    // SAFETY: the strings in `data` are NUL-terminated and valid for the call when non-null.
    let id = unsafe { data.message_id_name_as_c_str() }.map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let text = unsafe { data.message_as_c_str() }.map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let level = if severity.contains(vk::DebugUtilsMessageSeverityFlagsEXT::ERROR) { "error" } else { "warning" };
    sink.push(format!("{level} ({types:?}) [{id}] {text}"));
    vk::FALSE
}

fn messenger_info(sink: &Arc<MessageSink>) -> vk::DebugUtilsMessengerCreateInfoEXT<'static> {
    vk::DebugUtilsMessengerCreateInfoEXT::default()
        .message_severity(vk::DebugUtilsMessageSeverityFlagsEXT::WARNING | vk::DebugUtilsMessageSeverityFlagsEXT::ERROR)
        .message_type(
            vk::DebugUtilsMessageTypeFlagsEXT::GENERAL
                | vk::DebugUtilsMessageTypeFlagsEXT::VALIDATION
                | vk::DebugUtilsMessageTypeFlagsEXT::PERFORMANCE,
        )
        .pfn_user_callback(Some(debug_callback))
        .user_data(Arc::as_ptr(sink) as *mut c_void)
}

/// Owns the instance (and messenger); destroys them on drop.
struct InstanceHandle {
    entry: ash::Entry,
    instance: ash::Instance,
    debug: Option<(ash::ext::debug_utils::Instance, vk::DebugUtilsMessengerEXT)>,
    /// Kept alive for as long as the instance can call back into it.
    _sink: Arc<MessageSink>,
}

impl Drop for InstanceHandle {
    fn drop(&mut self) {
        // SAFETY: every child object (device, messenger) is destroyed before the instance; nothing else uses them.
        unsafe {
            if let Some((loader, messenger)) = self.debug.take() {
                loader.destroy_debug_utils_messenger(messenger, None);
            }
            self.instance.destroy_instance(None);
        }
    }
}

fn load_entry() -> Result<ash::Entry, RuntimeError> {
    // SAFETY: loading libvulkan runs its initialisers; the Vulkan loader is designed to be loaded this way.
    unsafe { ash::Entry::load() }.map_err(|e| RuntimeError::LoaderUnavailable(e.to_string()))
}

fn create_instance(
    entry: ash::Entry,
    validation: bool,
    sink: &Arc<MessageSink>,
) -> Result<InstanceHandle, RuntimeError> {
    // SAFETY: plain global queries on a loaded entry.
    let loader_version = unsafe { entry.try_enumerate_instance_version() }
        .call("vkEnumerateInstanceVersion")?
        .unwrap_or(vk::API_VERSION_1_0);
    if loader_version < vk::API_VERSION_1_1 {
        return Err(RuntimeError::NoDevice(format!(
            "the Vulkan loader supports only {}.{}; 1.1 or later is required",
            vk::api_version_major(loader_version),
            vk::api_version_minor(loader_version)
        )));
    }
    let available = unsafe { entry.enumerate_instance_extension_properties(None) }
        .call("vkEnumerateInstanceExtensionProperties")?;
    let has_ext = |list: &[vk::ExtensionProperties], name: &CStr| {
        list.iter().any(|e| e.extension_name_as_c_str().ok() == Some(name))
    };

    let mut layers: Vec<*const c_char> = Vec::new();
    let mut extensions: Vec<*const c_char> = Vec::new();
    let mut flags = vk::InstanceCreateFlags::empty();
    if has_ext(&available, ash::khr::portability_enumeration::NAME) {
        extensions.push(ash::khr::portability_enumeration::NAME.as_ptr());
        flags |= vk::InstanceCreateFlags::ENUMERATE_PORTABILITY_KHR;
    }
    let mut sync_validation = false;
    if validation {
        let layer_list =
            unsafe { entry.enumerate_instance_layer_properties() }.call("vkEnumerateInstanceLayerProperties")?;
        if !layer_list.iter().any(|l| l.layer_name_as_c_str().ok() == Some(VALIDATION_LAYER)) {
            return Err(RuntimeError::ValidationUnavailable(
                "VK_LAYER_KHRONOS_validation is not installed (Debian: vulkan-validationlayers)".into(),
            ));
        }
        let layer_exts = unsafe { entry.enumerate_instance_extension_properties(Some(VALIDATION_LAYER)) }
            .call("vkEnumerateInstanceExtensionProperties")?;
        if !has_ext(&available, ash::ext::debug_utils::NAME) && !has_ext(&layer_exts, ash::ext::debug_utils::NAME) {
            return Err(RuntimeError::ValidationUnavailable("VK_EXT_debug_utils is not available".into()));
        }
        layers.push(VALIDATION_LAYER.as_ptr());
        extensions.push(ash::ext::debug_utils::NAME.as_ptr());
        if has_ext(&layer_exts, ash::ext::validation_features::NAME) {
            extensions.push(ash::ext::validation_features::NAME.as_ptr());
            sync_validation = true;
        }
    }

    let api_version = loader_version.min(vk::API_VERSION_1_3);
    let app = vk::ApplicationInfo::default()
        .application_name(c"dxjit")
        .engine_name(c"dxjit-runtime")
        .api_version(api_version);
    let mut chained_messenger = messenger_info(sink);
    let enables = [vk::ValidationFeatureEnableEXT::SYNCHRONIZATION_VALIDATION];
    let mut validation_features = vk::ValidationFeaturesEXT::default().enabled_validation_features(&enables);
    let mut info = vk::InstanceCreateInfo::default()
        .application_info(&app)
        .enabled_layer_names(&layers)
        .enabled_extension_names(&extensions)
        .flags(flags);
    if validation {
        // Messages during vkCreateInstance/vkDestroyInstance go through this chained messenger.
        info = info.push_next(&mut chained_messenger);
        if sync_validation {
            info = info.push_next(&mut validation_features);
        }
    }
    // SAFETY: `info` and everything it points to live until the call returns.
    let instance = unsafe { entry.create_instance(&info, None) }.map_err(|result| match result {
        vk::Result::ERROR_INCOMPATIBLE_DRIVER => {
            RuntimeError::NoDevice("vkCreateInstance: no compatible Vulkan driver (ICD) is installed".into())
        }
        result => RuntimeError::Vulkan { call: "vkCreateInstance", result },
    })?;
    let mut handle = InstanceHandle { entry, instance, debug: None, _sink: sink.clone() };
    if validation {
        let loader = ash::ext::debug_utils::Instance::new(&handle.entry, &handle.instance);
        // SAFETY: the create info points at the sink, which `handle` keeps alive longer than the messenger.
        let messenger = unsafe { loader.create_debug_utils_messenger(&messenger_info(sink), None) }
            .call("vkCreateDebugUtilsMessengerEXT")?;
        handle.debug = Some((loader, messenger));
    }
    Ok(handle)
}

fn graphics_compute_family(instance: &ash::Instance, pdev: vk::PhysicalDevice) -> Option<u32> {
    // SAFETY: `pdev` was enumerated from `instance`.
    let families = unsafe { instance.get_physical_device_queue_family_properties(pdev) };
    let want = vk::QueueFlags::GRAPHICS | vk::QueueFlags::COMPUTE;
    families.iter().position(|f| f.queue_flags.contains(want) && f.queue_count > 0).and_then(|i| u32::try_from(i).ok())
}

fn list_devices(instance: &ash::Instance) -> Result<Vec<(vk::PhysicalDevice, DeviceInfo)>, RuntimeError> {
    // SAFETY: plain queries on a live instance.
    let pdevs = unsafe { instance.enumerate_physical_devices() }.call("vkEnumeratePhysicalDevices")?;
    Ok(pdevs
        .into_iter()
        .enumerate()
        .map(|(index, pdev)| {
            let props = unsafe { instance.get_physical_device_properties(pdev) };
            let name = props.device_name_as_c_str().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
            let usable = props.api_version >= MIN_DEVICE_API && graphics_compute_family(instance, pdev).is_some();
            (pdev, DeviceInfo { index, name, device_type: props.device_type, api_version: props.api_version, usable })
        })
        .collect())
}

fn type_rank(t: vk::PhysicalDeviceType) -> u32 {
    match t {
        vk::PhysicalDeviceType::DISCRETE_GPU => 4,
        vk::PhysicalDeviceType::INTEGRATED_GPU => 3,
        vk::PhysicalDeviceType::VIRTUAL_GPU => 2,
        vk::PhysicalDeviceType::CPU => 0,
        _ => 1,
    }
}

fn select_device(
    devices: &[(vk::PhysicalDevice, DeviceInfo)],
    selector: Option<&str>,
) -> Result<(vk::PhysicalDevice, DeviceInfo), RuntimeError> {
    let names = || devices.iter().map(|(_, d)| format!("{}: {}", d.index, d.name)).collect::<Vec<_>>();
    let chosen = match selector {
        Some(sel) => {
            let found = match sel.trim().parse::<usize>() {
                Ok(i) => devices.get(i),
                Err(_) => {
                    let needle = sel.trim().to_lowercase();
                    devices.iter().find(|(_, d)| d.usable && d.name.to_lowercase().contains(&needle))
                }
            };
            found.ok_or_else(|| RuntimeError::DeviceNotFound { selector: sel.to_string(), available: names() })?
        }
        None => devices
            .iter()
            .filter(|(_, d)| d.usable)
            .max_by_key(|(_, d)| (type_rank(d.device_type), std::cmp::Reverse(d.index)))
            .ok_or_else(|| {
                RuntimeError::NoDevice(format!(
                    "no Vulkan 1.2 device with a graphics+compute queue among {:?}",
                    names()
                ))
            })?,
    };
    if !chosen.1.usable {
        return Err(RuntimeError::NoDevice(format!(
            "device {:?} needs Vulkan 1.2 and a graphics+compute queue family",
            chosen.1.name
        )));
    }
    Ok(chosen.clone())
}

/// Lists the physical devices the Vulkan loader sees (empty when there is no loader).
pub fn vulkan_devices() -> Result<Vec<DeviceInfo>, RuntimeError> {
    let sink = Arc::new(MessageSink::default());
    let handle = create_instance(load_entry()?, false, &sink)?;
    Ok(list_devices(&handle.instance)?.into_iter().map(|(_, d)| d).collect())
}

/// True when some device can host a [`Context`].
pub fn vulkan_available() -> bool {
    vulkan_devices().map(|d| d.iter().any(|d| d.usable)).unwrap_or(false)
}

/// True when Mesa's lavapipe (llvmpipe) is among the devices.
pub fn lavapipe_available() -> bool {
    vulkan_devices().map(|d| d.iter().any(|d| d.usable && d.name.to_lowercase().contains("llvmpipe"))).unwrap_or(false)
}

/// Owns the logical device; waits for it to go idle and destroys it on drop.
struct DeviceHandle(ash::Device);

impl Drop for DeviceHandle {
    fn drop(&mut self) {
        // SAFETY: all objects created from the device were destroyed before (field order of `Context`).
        unsafe {
            let _ = self.0.device_wait_idle();
            self.0.destroy_device(None);
        }
    }
}

/// Everything that needs external synchronisation: the allocator, the command pool and the queue.
pub(crate) struct Exclusive {
    pub(crate) allocator: Option<Allocator>,
    pub(crate) command_pool: vk::CommandPool,
    device: ash::Device,
}

impl Drop for Exclusive {
    fn drop(&mut self) {
        // SAFETY: no command buffer from the pool is pending (every job waits on its fence).
        unsafe { self.device.destroy_command_pool(self.command_pool, None) };
        // Frees the allocator's memory blocks while the device still exists.
        self.allocator = None;
    }
}

/// A Vulkan instance and device ready to run jobs. Create as many as you like (one per test thread is
/// fine); each method takes an internal lock, so sharing one between threads serialises the jobs.
pub struct Context {
    // Field order is drop order: pool and allocator, then the device, then the instance.
    pub(crate) exclusive: Mutex<Exclusive>,
    device: DeviceHandle,
    instance: InstanceHandle,
    sink: Arc<MessageSink>,
    pub(crate) physical_device: vk::PhysicalDevice,
    pub(crate) queue: vk::Queue,
    pub(crate) properties: vk::PhysicalDeviceProperties,
    name: String,
    driver: String,
    features: DeviceFeatures,
    validation: bool,
    /// `VK_KHR_acceleration_structure` and `VK_KHR_ray_tracing_pipeline` entry points, when enabled.
    pub(crate) accel: Option<ash::khr::acceleration_structure::Device>,
    pub(crate) rt_pipeline: Option<ash::khr::ray_tracing_pipeline::Device>,
}

impl Context {
    /// Creates the instance and device described by `opts`.
    pub fn new(opts: &ContextOptions) -> Result<Context, RuntimeError> {
        let sink = Arc::new(MessageSink::default());
        let instance = create_instance(load_entry()?, opts.validation, &sink)?;
        let devices = list_devices(&instance.instance)?;
        let env = std::env::var("DXJIT_DEVICE").ok().filter(|s| !s.trim().is_empty());
        let selector = opts.device.clone().or(env);
        let (pdev, info) = select_device(&devices, selector.as_deref())?;
        let queue_family = graphics_compute_family(&instance.instance, pdev)
            .ok_or_else(|| RuntimeError::NoDevice(format!("{} has no graphics+compute queue", info.name)))?;

        // SAFETY: `pdev` belongs to the instance.
        let available = unsafe { instance.instance.enumerate_device_extension_properties(pdev) }
            .call("vkEnumerateDeviceExtensionProperties")?;
        let mut chain = FeatureChain::new(info.api_version, &available);
        let features2 = chain.link();
        // SAFETY: `features2` points into `chain`, which is boxed and neither moved nor dropped here.
        unsafe { instance.instance.get_physical_device_features2(pdev, &mut *features2) };
        chain.sanitize();
        let features2 = chain.link();
        let (properties, props) = query_props(&instance.instance, pdev, info.api_version, &chain.extensions);

        let ext_ptrs: Vec<*const c_char> = chain.extensions.iter().map(|e| e.as_ptr()).collect();
        let priorities = [1.0f32];
        let queues =
            [vk::DeviceQueueCreateInfo::default().queue_family_index(queue_family).queue_priorities(&priorities)];
        let mut device_info =
            vk::DeviceCreateInfo::default().queue_create_infos(&queues).enabled_extension_names(&ext_ptrs);
        device_info.p_next = features2.cast::<c_void>().cast_const();
        // SAFETY: the feature chain and all arrays outlive the call; the chain only holds supported features.
        let device = unsafe { instance.instance.create_device(pdev, &device_info, None) }.call("vkCreateDevice")?;
        let device = DeviceHandle(device);
        let features = chain.summarize(&props);
        let driver = format!(
            "{}, Vulkan {}.{}.{}",
            props.driver,
            vk::api_version_major(properties.api_version),
            vk::api_version_minor(properties.api_version),
            vk::api_version_patch(properties.api_version)
        );
        // SAFETY: family and index 0 were requested at device creation.
        let queue = unsafe { device.0.get_device_queue(queue_family, 0) };

        let allocator = Allocator::new(&AllocatorCreateDesc {
            instance: instance.instance.clone(),
            device: device.0.clone(),
            physical_device: pdev,
            debug_settings: Default::default(),
            buffer_device_address: features.buffer_device_address,
            allocation_sizes: Default::default(),
        })
        .map_err(|e| RuntimeError::Allocation { what: "allocator".into(), message: e.to_string() })?;
        let pool_info = vk::CommandPoolCreateInfo::default()
            .queue_family_index(queue_family)
            .flags(vk::CommandPoolCreateFlags::TRANSIENT);
        // SAFETY: valid device and create info.
        let command_pool = unsafe { device.0.create_command_pool(&pool_info, None) }.call("vkCreateCommandPool")?;
        let exclusive = Exclusive { allocator: Some(allocator), command_pool, device: device.0.clone() };
        let accel = features
            .acceleration_structure
            .then(|| ash::khr::acceleration_structure::Device::new(&instance.instance, &device.0));
        let rt_pipeline = features
            .ray_tracing_pipeline
            .then(|| ash::khr::ray_tracing_pipeline::Device::new(&instance.instance, &device.0));

        Ok(Context {
            exclusive: Mutex::new(exclusive),
            device,
            instance,
            sink,
            physical_device: pdev,
            queue,
            properties,
            driver,
            name: info.name,
            features,
            validation: opts.validation,
            accel,
            rt_pipeline,
        })
    }

    /// For tests: creates a context, or prints `SKIPPED <test>: <why>` and returns `Ok(None)` when this
    /// machine has no usable Vulkan device (or no validation layer when `opts.validation` is set).
    pub fn for_test(test: &str, opts: &ContextOptions) -> Result<Option<Context>, RuntimeError> {
        match Context::new(opts) {
            Ok(ctx) => Ok(Some(ctx)),
            Err(e) if e.is_unavailable() => {
                eprintln!("SKIPPED {test}: {e}");
                Ok(None)
            }
            Err(e) => Err(e),
        }
    }

    /// The selected device's name.
    pub fn device_name(&self) -> &str {
        &self.name
    }

    /// The driver and its version, and the device's Vulkan version, e.g.
    /// `llvmpipe Mesa 25.0.7-1~bpo12+1 (LLVM 15.0.6), Vulkan 1.4.305`.
    pub fn driver_description(&self) -> &str {
        &self.driver
    }

    /// Features found and enabled on the device.
    pub fn features(&self) -> &DeviceFeatures {
        &self.features
    }

    /// Device limits (`VkPhysicalDeviceLimits`).
    pub fn limits(&self) -> &vk::PhysicalDeviceLimits {
        &self.properties.limits
    }

    /// True when the validation layer is active.
    pub fn validation_enabled(&self) -> bool {
        self.validation
    }

    /// Validation errors and warnings captured so far; the buffer is cleared.
    pub fn take_validation_messages(&self) -> Vec<String> {
        self.sink.take()
    }

    /// Destroys the context and returns the validation messages captured so far, including the
    /// ones emitted while tearing down (e.g. objects that were leaked).
    pub fn finish(self) -> Vec<String> {
        let sink = self.sink.clone();
        drop(self);
        sink.take()
    }

    pub(crate) fn device(&self) -> &ash::Device {
        &self.device.0
    }

    pub(crate) fn instance(&self) -> &ash::Instance {
        &self.instance.instance
    }

    pub(crate) fn lock(&self) -> MutexGuard<'_, Exclusive> {
        match self.exclusive.lock() {
            Ok(g) => g,
            Err(poisoned) => poisoned.into_inner(),
        }
    }
}

impl Drop for Context {
    fn drop(&mut self) {
        // SAFETY: waiting for idle is always valid; the fields are destroyed afterwards in declaration order.
        unsafe {
            let _ = self.device.0.device_wait_idle();
        }
    }
}

impl std::fmt::Debug for Context {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Context").field("device", &self.name).field("validation", &self.validation).finish()
    }
}

#[allow(dead_code)]
fn _assert_send_sync() {
    fn check<T: Send + Sync>() {}
    check::<Context>();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dev(
        index: usize,
        name: &str,
        device_type: vk::PhysicalDeviceType,
        usable: bool,
    ) -> (vk::PhysicalDevice, DeviceInfo) {
        let info = DeviceInfo { index, name: name.into(), device_type, api_version: vk::API_VERSION_1_3, usable };
        (vk::PhysicalDevice::null(), info)
    }

    #[test]
    fn default_choice_prefers_gpus_over_cpu() {
        let list = [
            dev(0, "llvmpipe (LLVM 15.0.6, 256 bits)", vk::PhysicalDeviceType::CPU, true),
            dev(1, "Intel(R) UHD", vk::PhysicalDeviceType::INTEGRATED_GPU, true),
            dev(2, "NVIDIA H100", vk::PhysicalDeviceType::DISCRETE_GPU, true),
            dev(3, "Old GPU", vk::PhysicalDeviceType::DISCRETE_GPU, false),
        ];
        assert_eq!(select_device(&list, None).expect("chosen").1.index, 2);
        assert_eq!(select_device(&list[..2], None).expect("chosen").1.index, 1);
        assert_eq!(select_device(&list[..1], None).expect("chosen").1.index, 0);
        assert!(matches!(select_device(&list[3..], None), Err(RuntimeError::NoDevice(_))));
        assert!(matches!(select_device(&[], None), Err(RuntimeError::NoDevice(_))));
    }

    #[test]
    fn selector_by_index_or_name() {
        let list = [
            dev(0, "llvmpipe (LLVM 15.0.6, 256 bits)", vk::PhysicalDeviceType::CPU, true),
            dev(1, "NVIDIA H100", vk::PhysicalDeviceType::DISCRETE_GPU, true),
            dev(2, "Old GPU", vk::PhysicalDeviceType::DISCRETE_GPU, false),
        ];
        assert_eq!(select_device(&list, Some("0")).expect("index").1.index, 0);
        assert_eq!(select_device(&list, Some(" 1 ")).expect("index").1.index, 1);
        assert_eq!(select_device(&list, Some("LLVMPIPE")).expect("name").1.index, 0);
        assert_eq!(select_device(&list, Some("h100")).expect("name").1.index, 1);
        assert!(matches!(select_device(&list, Some("7")), Err(RuntimeError::DeviceNotFound { .. })));
        assert!(matches!(select_device(&list, Some("radeon")), Err(RuntimeError::DeviceNotFound { .. })));
        assert!(matches!(select_device(&list, Some("old gpu")), Err(RuntimeError::DeviceNotFound { .. })));
        assert!(matches!(select_device(&list, Some("2")), Err(RuntimeError::NoDevice(_))));
    }
}
