//! Signature elements seen row by row: D3D matches stages per register row
//! by semantic name (case-insensitive) and index, so an array element in one
//! stage may match several single-row elements in the other.

use crate::dxil::{ComponentType, SignatureElement};

/// One row of one element.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Row<'a> {
    /// Index of the element in its signature.
    pub elem: usize,
    pub e: &'a SignatureElement,
    /// Row within the element.
    pub row: u32,
    pub index: u32,
    /// `start_row + row`, `None` for unplaced elements.
    pub register: Option<u32>,
}

/// The semantic index of an element row (rows without a listed index count up from the first).
pub(crate) fn semantic_index(e: &SignatureElement, row: u32) -> u32 {
    match e.semantic_indices.get(row as usize) {
        Some(i) => *i,
        None => e.semantic_indices.first().copied().unwrap_or(0).saturating_add(row),
    }
}

/// The register of an element row, `None` when the element is unplaced (start row -1, any column).
pub(crate) fn register(e: &SignatureElement, row: u32) -> Option<u32> {
    u32::try_from(e.start_row).ok().and_then(|r| r.checked_add(row))
}

pub(crate) fn is_placed(e: &SignatureElement) -> bool {
    e.start_row >= 0
}

/// The rows of the elements that pass `keep`.
pub(crate) fn rows<'a>(elems: &'a [SignatureElement], keep: impl Fn(&SignatureElement) -> bool) -> Vec<Row<'a>> {
    let mut out = Vec::new();
    for (i, e) in elems.iter().enumerate().filter(|(_, e)| keep(e)) {
        // Never trust `rows` from the input for allocation size: cap at the register file.
        for row in 0..e.rows.min(64) {
            out.push(Row { elem: i, e, row, index: semantic_index(e, row), register: register(e, row) });
        }
    }
    out
}

pub(crate) fn same_semantic(a: &SignatureElement, b: &SignatureElement) -> bool {
    a.semantic_name.eq_ignore_ascii_case(&b.semantic_name)
}

/// The row with the given semantic name and index.
pub(crate) fn find<'r, 'a>(rows: &'r [Row<'a>], e: &SignatureElement, index: u32) -> Option<&'r Row<'a>> {
    rows.iter().find(|r| r.index == index && same_semantic(r.e, e))
}

/// Component type plus min precision: 16-bit types of a native-16-bit
/// shader are not the same type as min-precision ones.
pub(crate) fn type_key(e: &SignatureElement, native_low_precision: bool) -> (ComponentType, bool) {
    let sixteen = matches!(
        e.component_type,
        ComponentType::F16
            | ComponentType::I16
            | ComponentType::U16
            | ComponentType::SNormF16
            | ComponentType::UNormF16
    );
    (e.component_type, sixteen && native_low_precision)
}
