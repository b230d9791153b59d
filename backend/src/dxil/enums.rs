//! DXIL's numbered enums: the macro (in [`crate::dxil_enum`], shared with the
//! crate-root enum modules) and the checked read of an enum-valued field.

pub(crate) use crate::dxil_enum::dxil_enum;

/// Reads an enum-valued field, mapping unknown numbers to a typed error.
#[inline]
pub(crate) fn read_enum<T>(
    r: &super::reader::Reader<'_>,
    op: super::reader::Op,
    what: &dyn std::fmt::Display,
    ty: &'static str,
    from: impl Fn(u32) -> Option<T>,
) -> Result<T, super::DxilError> {
    let v = r.uint(op, what)?;
    match u32::try_from(v).ok().and_then(from) {
        Some(x) => Ok(x),
        None => Err(bad_enum(what, ty, v)),
    }
}

#[cold]
#[inline(never)]
fn bad_enum(what: &dyn std::fmt::Display, ty: &'static str, value: u64) -> super::DxilError {
    super::DxilError::BadEnum { what: what.to_string(), ty, value }
}
