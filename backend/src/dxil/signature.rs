//! Signature elements: the records of an entry point's input, output and
//! patch-constant (or mesh per-primitive) signatures.
//!
//! Record layout (11 operands): id, semantic name, component type, semantic
//! kind, semantic-index tuple, interpolation mode, rows, cols, start row,
//! start column, extended tag/value list.

use super::enums::{dxil_enum, read_enum};
use super::reader::{arity, Field, Index, Op, Reader};
use super::DxilError;
pub use crate::semantic_kind::SemanticKind;
use serde::Serialize;
use std::fmt::Display;

dxil_enum! {
    /// `DXIL::ComponentType`: the element type of signature elements and typed resources.
    ComponentType {
        Invalid = 0 => "invalid",
        I1 = 1 => "i1",
        I16 = 2 => "i16",
        U16 = 3 => "u16",
        I32 = 4 => "i32",
        U32 = 5 => "u32",
        I64 = 6 => "i64",
        U64 = 7 => "u64",
        F16 = 8 => "f16",
        F32 = 9 => "f32",
        F64 = 10 => "f64",
        SNormF16 = 11 => "snorm_f16",
        UNormF16 = 12 => "unorm_f16",
        SNormF32 = 13 => "snorm_f32",
        UNormF32 = 14 => "unorm_f32",
        SNormF64 = 15 => "snorm_f64",
        UNormF64 = 16 => "unorm_f64",
        PackedS8x32 = 17 => "packed_s8x32",
        PackedU8x32 = 18 => "packed_u8x32",
    }
}

dxil_enum! {
    /// `DXIL::InterpolationMode`.
    InterpolationMode {
        Undefined = 0 => "undefined",
        Constant = 1 => "constant",
        Linear = 2 => "linear",
        LinearCentroid = 3 => "linear_centroid",
        LinearNoperspective = 4 => "linear_noperspective",
        LinearNoperspectiveCentroid = 5 => "linear_noperspective_centroid",
        LinearSample = 6 => "linear_sample",
        LinearNoperspectiveSample = 7 => "linear_noperspective_sample",
        Invalid = 8 => "invalid",
    }
}

/// Extended-property tags of signature elements.
pub mod tags {
    pub const OUTPUT_STREAM: u32 = 0;
    /// High-level only (not in final DXIL); kept in `other_tags` if present.
    pub const HL_GLOBAL_SYMBOL: u32 = 1;
    pub const DYN_INDEX_COMP_MASK: u32 = 2;
    pub const USAGE_COMP_MASK: u32 = 3;
}

/// A semantic name (`TEXCOORD`, `SV_Position`): held inline up to 24 bytes.
pub type SemanticName = compact_str::CompactString;

/// An element's semantic indices, one per row: held inline up to four.
pub type SemanticIndices = smallvec::SmallVec<[u32; 4]>;

/// One signature element record.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SignatureElement {
    pub id: u32,
    pub semantic_name: SemanticName,
    pub component_type: ComponentType,
    pub semantic_kind: SemanticKind,
    /// One semantic index per row (may be empty when the record had `null`).
    pub semantic_indices: SemanticIndices,
    pub interpolation: InterpolationMode,
    pub rows: u32,
    pub cols: u8,
    /// Packing location; `-1` for elements that are not packed (e.g. `SV_Depth`).
    pub start_row: i32,
    /// Packing column; `-1` for elements that are not packed.
    pub start_col: i8,
    pub output_stream: Option<u32>,
    pub dynamic_index_mask: Option<u32>,
    /// Components the shader reads (inputs) or writes (outputs), relative to `start_col`.
    pub usage_mask: Option<u32>,
    /// Extended tags this decoder does not interpret: (tag, rendered value).
    pub other_tags: Vec<(u32, String)>,
}

impl SignatureElement {
    /// Whether the element is a system value (`SV_*`) rather than a user semantic.
    pub fn is_system_value(&self) -> bool {
        !matches!(self.semantic_kind, SemanticKind::Arbitrary | SemanticKind::Invalid)
    }

    /// Whether the element occupies packed rows (`start_row >= 0`).
    pub fn is_allocated(&self) -> bool {
        self.start_row >= 0
    }

    /// The component mask: bits `start_col .. start_col + cols` (a start
    /// column of `-1` counts as 0, as the container writer does).
    pub fn mask(&self) -> u8 {
        let start = u32::try_from(self.start_col).unwrap_or(0).min(4);
        let cols = u32::from(self.cols).min(4);
        (((1u32 << cols) - 1) << start) as u8 & 0xF
    }

    /// The `SV_*` name of the element's semantic kind, `""` for user semantics.
    pub fn system_value_name(&self) -> &'static str {
        self.semantic_kind.system_value_name()
    }

    /// The stream the element belongs to (0 unless tagged).
    pub fn stream(&self) -> u32 {
        self.output_stream.unwrap_or(0)
    }
}

/// Renders a 4-bit component mask as `xyzw` with `_` for absent components.
pub fn mask_string(mask: u8) -> String {
    "xyzw".chars().enumerate().map(|(i, c)| if mask & (1 << i) != 0 { c } else { '_' }).collect()
}

pub(crate) fn decode_signature(r: &Reader<'_>, op: Op, what: &dyn Display) -> Result<Vec<SignatureElement>, DxilError> {
    let Some(ops) = r.opt_node(op, what)? else {
        return Ok(Vec::new());
    };
    ops.iter().enumerate().map(|(i, e)| decode_element(r, *e, &Index(what, i))).collect()
}

fn decode_element(r: &Reader<'_>, op: Op, what: &dyn Display) -> Result<SignatureElement, DxilError> {
    let f = r.node(op, what)?;
    arity(f, 11, what)?;
    let field = |name: &'static str| Field(what, name);
    let indices = match r.opt_node(f[4], &field("semantic_indices"))? {
        None => SemanticIndices::new(),
        Some(ix) => ix
            .iter()
            .enumerate()
            .map(|(i, o)| r.u32(*o, &Index(&field("semantic_indices"), i)))
            .collect::<Result<SemanticIndices, _>>()?,
    };
    let cols = r.u8(f[7], &field("cols"))?;
    if cols > 4 {
        return Err(DxilError::OutOfRange {
            what: field("cols").to_string(),
            value: cols.into(),
            range: "columns (0..=4)",
        });
    }
    let start_col = r.i8(f[9], &field("start_col"))?;
    if !(-1..=3).contains(&start_col) {
        return Err(DxilError::OutOfRange {
            what: field("start_col").to_string(),
            value: start_col.into(),
            range: "start column (-1..=3)",
        });
    }
    let start_row = r.i32(f[8], &field("start_row"))?;
    if start_row < -1 {
        return Err(DxilError::OutOfRange {
            what: field("start_row").to_string(),
            value: start_row.into(),
            range: "start row (>= -1)",
        });
    }
    let mut e = SignatureElement {
        id: r.u32(f[0], &field("id"))?,
        semantic_name: SemanticName::new(r.string(f[1], &field("semantic_name"))?),
        component_type: read_enum(r, f[2], &field("component_type"), "component type", ComponentType::from_u32)?,
        semantic_kind: read_enum(r, f[3], &field("semantic_kind"), "semantic kind", SemanticKind::from_u32)?,
        semantic_indices: indices,
        interpolation: read_enum(r, f[5], &field("interpolation"), "interpolation mode", InterpolationMode::from_u32)?,
        rows: r.u32(f[6], &field("rows"))?,
        cols,
        start_row,
        start_col,
        output_stream: None,
        dynamic_index_mask: None,
        usage_mask: None,
        other_tags: Vec::new(),
    };
    let tags_what = field("tags");
    for (i, (tag, v)) in r.tags(r.tag_pairs(f[10], &tags_what)?).enumerate() {
        let w = Index(&tags_what, i);
        match tag {
            tags::OUTPUT_STREAM => e.output_stream = Some(r.u32(v, &w)?),
            tags::DYN_INDEX_COMP_MASK => e.dynamic_index_mask = Some(r.u32(v, &w)?),
            tags::USAGE_COMP_MASK => e.usage_mask = Some(r.u32(v, &w)?),
            _ => e.other_tags.push((tag, r.render(v))),
        }
    }
    Ok(e)
}
