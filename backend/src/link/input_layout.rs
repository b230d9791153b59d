//! The vertex input layout (D3D12_INPUT_ELEMENT_DESC list) and the Vulkan
//! vertex attributes the linker derives from it.

use super::error::LinkError;
use serde::{Deserialize, Serialize};

/// `D3D12_INPUT_LAYOUT_DESC`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct InputLayout {
    #[serde(rename = "element", default)]
    pub elements: Vec<InputElement>,
}

/// `D3D12_INPUT_ELEMENT_DESC`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InputElement {
    /// Semantic name, matched case-insensitively.
    pub semantic: String,
    #[serde(default)]
    pub index: u32,
    /// DXGI format name without the prefix: `R32G32B32_FLOAT`.
    pub format: String,
    /// Input slot (vertex buffer binding).
    #[serde(default)]
    pub slot: u32,
    /// Byte offset in the slot; `None` = D3D12_APPEND_ALIGNED_ELEMENT.
    #[serde(default)]
    pub offset: Option<u32>,
    #[serde(default)]
    pub per_instance: bool,
    /// InstanceDataStepRate (0 for per-vertex data).
    #[serde(default)]
    pub step_rate: u32,
}

/// One Vulkan vertex attribute: a VS input row fed from the layout.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct VertexAttribute {
    pub location: u32,
    /// The VS input element (signature id) and the row of it this attribute feeds.
    pub element_id: u32,
    pub row: u32,
    pub semantic_name: crate::dxil::SemanticName,
    pub semantic_index: u32,
    /// The DXGI format, `None` when no layout was given.
    pub format: Option<String>,
    /// The matching `VkFormat` name.
    pub vk_format: Option<&'static str>,
    pub binding: u32,
    pub offset: u32,
    pub per_instance: bool,
    pub step_rate: u32,
}

/// (size in bytes, VkFormat) of the DXGI formats allowed in input layouts.
pub fn format_info(dxgi: &str) -> Option<(u32, &'static str)> {
    let f = dxgi.strip_prefix("DXGI_FORMAT_").unwrap_or(dxgi).to_ascii_uppercase();
    Some(match f.as_str() {
        "R32G32B32A32_FLOAT" => (16, "VK_FORMAT_R32G32B32A32_SFLOAT"),
        "R32G32B32A32_UINT" => (16, "VK_FORMAT_R32G32B32A32_UINT"),
        "R32G32B32A32_SINT" => (16, "VK_FORMAT_R32G32B32A32_SINT"),
        "R32G32B32_FLOAT" => (12, "VK_FORMAT_R32G32B32_SFLOAT"),
        "R32G32B32_UINT" => (12, "VK_FORMAT_R32G32B32_UINT"),
        "R32G32B32_SINT" => (12, "VK_FORMAT_R32G32B32_SINT"),
        "R32G32_FLOAT" => (8, "VK_FORMAT_R32G32_SFLOAT"),
        "R32G32_UINT" => (8, "VK_FORMAT_R32G32_UINT"),
        "R32G32_SINT" => (8, "VK_FORMAT_R32G32_SINT"),
        "R32_FLOAT" => (4, "VK_FORMAT_R32_SFLOAT"),
        "R32_UINT" => (4, "VK_FORMAT_R32_UINT"),
        "R32_SINT" => (4, "VK_FORMAT_R32_SINT"),
        "R16G16B16A16_FLOAT" => (8, "VK_FORMAT_R16G16B16A16_SFLOAT"),
        "R16G16B16A16_UNORM" => (8, "VK_FORMAT_R16G16B16A16_UNORM"),
        "R16G16B16A16_SNORM" => (8, "VK_FORMAT_R16G16B16A16_SNORM"),
        "R16G16B16A16_UINT" => (8, "VK_FORMAT_R16G16B16A16_UINT"),
        "R16G16B16A16_SINT" => (8, "VK_FORMAT_R16G16B16A16_SINT"),
        "R16G16_FLOAT" => (4, "VK_FORMAT_R16G16_SFLOAT"),
        "R16G16_UNORM" => (4, "VK_FORMAT_R16G16_UNORM"),
        "R16G16_SNORM" => (4, "VK_FORMAT_R16G16_SNORM"),
        "R16G16_UINT" => (4, "VK_FORMAT_R16G16_UINT"),
        "R16G16_SINT" => (4, "VK_FORMAT_R16G16_SINT"),
        "R16_FLOAT" => (2, "VK_FORMAT_R16_SFLOAT"),
        "R16_UNORM" => (2, "VK_FORMAT_R16_UNORM"),
        "R16_SNORM" => (2, "VK_FORMAT_R16_SNORM"),
        "R16_UINT" => (2, "VK_FORMAT_R16_UINT"),
        "R16_SINT" => (2, "VK_FORMAT_R16_SINT"),
        "R8G8B8A8_UNORM" => (4, "VK_FORMAT_R8G8B8A8_UNORM"),
        "R8G8B8A8_UNORM_SRGB" => (4, "VK_FORMAT_R8G8B8A8_SRGB"),
        "R8G8B8A8_SNORM" => (4, "VK_FORMAT_R8G8B8A8_SNORM"),
        "R8G8B8A8_UINT" => (4, "VK_FORMAT_R8G8B8A8_UINT"),
        "R8G8B8A8_SINT" => (4, "VK_FORMAT_R8G8B8A8_SINT"),
        "B8G8R8A8_UNORM" => (4, "VK_FORMAT_B8G8R8A8_UNORM"),
        "R8G8_UNORM" => (2, "VK_FORMAT_R8G8_UNORM"),
        "R8G8_SNORM" => (2, "VK_FORMAT_R8G8_SNORM"),
        "R8G8_UINT" => (2, "VK_FORMAT_R8G8_UINT"),
        "R8G8_SINT" => (2, "VK_FORMAT_R8G8_SINT"),
        "R8_UNORM" => (1, "VK_FORMAT_R8_UNORM"),
        "R8_SNORM" => (1, "VK_FORMAT_R8_SNORM"),
        "R8_UINT" => (1, "VK_FORMAT_R8_UINT"),
        "R8_SINT" => (1, "VK_FORMAT_R8_SINT"),
        "R10G10B10A2_UNORM" => (4, "VK_FORMAT_A2B10G10R10_UNORM_PACK32"),
        "R10G10B10A2_UINT" => (4, "VK_FORMAT_A2B10G10R10_UINT_PACK32"),
        "R11G11B10_FLOAT" => (4, "VK_FORMAT_B10G11R11_UFLOAT_PACK32"),
        _ => return None,
    })
}

/// A layout element with its resolved byte offset and format.
#[derive(Debug, Clone)]
pub(crate) struct Resolved<'a> {
    pub element: &'a InputElement,
    pub offset: u32,
    pub vk_format: &'static str,
}

/// Resolves formats and append-aligned offsets (each appended element
/// starts where the previous element of its slot ended, 4-byte aligned).
pub(crate) fn resolve(layout: &InputLayout) -> Result<Vec<Resolved<'_>>, LinkError> {
    let mut ends: Vec<(u32, u32)> = Vec::new(); // (slot, end of last element)
    let mut out = Vec::with_capacity(layout.elements.len());
    for (i, e) in layout.elements.iter().enumerate() {
        let (size, vk_format) = format_info(&e.format).ok_or_else(|| {
            LinkError::InputLayout(format!("element {i} ({}): unknown format {}", e.semantic, e.format))
        })?;
        let end = ends.iter().find(|(s, _)| *s == e.slot).map(|(_, end)| *end).unwrap_or(0);
        let offset = match e.offset {
            Some(o) => o,
            None => {
                end.checked_add(3).map(|x| x & !3).ok_or_else(|| LinkError::InputLayout("offset overflow".into()))?
            }
        };
        let new_end =
            offset.checked_add(size).ok_or_else(|| LinkError::InputLayout(format!("element {i}: offset overflow")))?;
        match ends.iter_mut().find(|(s, _)| *s == e.slot) {
            Some(slot) => slot.1 = new_end,
            None => ends.push((e.slot, new_end)),
        }
        out.push(Resolved { element: e, offset, vk_format });
    }
    Ok(out)
}
