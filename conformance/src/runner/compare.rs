//! Comparing a resource's final bytes with a spec's expectations.

use super::data::{decode, show, Elem, Piece, Scalar};
use super::spec::{Check, CheckKind, ResourceSpec, Tolerance};
use std::fmt;

/// The first difference found in a resource.
#[derive(Debug, Clone, PartialEq)]
pub struct Mismatch {
    /// Byte offset in the resource.
    pub offset: usize,
    /// Element type the check reads (`u8` for the unchanged-rest check).
    pub elem: Elem,
    pub expected: String,
    pub got: String,
    pub note: String,
}

impl Mismatch {
    /// Element index in the resource, counted in elements of the check's type.
    pub fn index(&self) -> usize {
        self.offset / self.elem.size()
    }
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}[{}] (byte {}): expected {}, got {}",
            self.elem.name(),
            self.index(),
            self.offset,
            self.expected,
            self.got
        )?;
        if !self.note.is_empty() {
            write!(f, " ({})", self.note)?;
        }
        Ok(())
    }
}

/// Checks `got` (the final contents) against a resource's expectations.
pub fn compare_resource(res: &ResourceSpec, got: &[u8]) -> Result<(), Mismatch> {
    if got.len() < res.init.len() {
        return Err(Mismatch {
            offset: got.len(),
            elem: Elem::U8,
            expected: format!("{} bytes", res.init.len()),
            got: format!("{} bytes", got.len()),
            note: "read-back is shorter than the resource".into(),
        });
    }
    for c in &res.checks {
        check(c, got)?;
    }
    if res.rest_unchanged {
        let mut covered = vec![false; res.init.len()];
        for c in &res.checks {
            for b in covered.iter_mut().skip(c.at).take(c.len()) {
                *b = true;
            }
        }
        for (i, (&a, &b)) in res.init.iter().zip(got).enumerate() {
            if !covered.get(i).copied().unwrap_or(false) && a != b {
                // Report the aligned word around the first changed byte.
                let w = i & !3;
                let n = 4.min(res.init.len() - w);
                let elem = if n == 4 { Elem::U32 } else { Elem::U8 };
                let (w, n) = if n == 4 { (w, 4) } else { (i, 1) };
                return Err(Mismatch {
                    offset: w,
                    elem,
                    expected: show(elem, &res.init[w..w + n]),
                    got: show(elem, &got[w..w + n]),
                    note: "no expect entry covers these bytes, so they must keep their initial value".into(),
                });
            }
        }
    }
    Ok(())
}

fn check(c: &Check, got: &[u8]) -> Result<(), Mismatch> {
    let region = got.get(c.at..c.at + c.len()).unwrap_or(&[]);
    match &c.kind {
        CheckKind::Ignore { .. } => Ok(()),
        CheckKind::Values { piece, tol } => values(piece, *tol, c.at, region),
        CheckKind::Range { elem, min, max, count } => {
            let sz = elem.size();
            for k in 0..*count {
                let b = &region[k * sz..(k + 1) * sz];
                let ok = match (decode(*elem, b), min, max) {
                    (Scalar::Int(v), Scalar::Int(lo), Scalar::Int(hi)) => *lo <= v && v <= *hi,
                    (Scalar::Float(v), lo, hi) => as_f64(*lo) <= v && v <= as_f64(*hi),
                    _ => false,
                };
                if !ok {
                    return Err(Mismatch {
                        offset: c.at + k * sz,
                        elem: *elem,
                        expected: format!("a value in [{}, {}]", scalar_text(*min), scalar_text(*max)),
                        got: show(*elem, b),
                        note: String::new(),
                    });
                }
            }
            Ok(())
        }
        CheckKind::Permutation { piece } => {
            let sz = piece.elem.size();
            let want = piece.to_bytes();
            let mut expected: Vec<&[u8]> = want.chunks(sz).collect();
            let mut seen: Vec<&[u8]> = region.chunks(sz).collect();
            expected.sort();
            seen.sort();
            if expected == seen {
                return Ok(());
            }
            // Name the first element of the region that is not accounted for.
            let mut pool = expected.clone();
            for (k, e) in region.chunks(sz).enumerate() {
                match pool.iter().position(|p| *p == e) {
                    Some(i) => {
                        pool.swap_remove(i);
                    }
                    None => {
                        return Err(Mismatch {
                            offset: c.at + k * sz,
                            elem: piece.elem,
                            expected: format!("one of the {} permuted values", piece.values.len()),
                            got: show(piece.elem, e),
                            note: "not a permutation (value missing from the expected set or repeated)".into(),
                        })
                    }
                }
            }
            Err(Mismatch {
                offset: c.at,
                elem: piece.elem,
                expected: "a permutation".into(),
                got: "another multiset".into(),
                note: String::new(),
            })
        }
        CheckKind::OneOf { alts, tol } => {
            let mut first_err = None;
            for a in alts {
                match values(a, *tol, c.at, region) {
                    Ok(()) => return Ok(()),
                    Err(e) => {
                        if first_err.is_none() {
                            first_err = Some(e);
                        }
                    }
                }
            }
            let mut e = first_err.unwrap_or(Mismatch {
                offset: c.at,
                elem: Elem::U8,
                expected: "an alternative".into(),
                got: "none".into(),
                note: String::new(),
            });
            e.note = format!("matches none of the {} alternatives; shown against the first", alts.len());
            Err(e)
        }
    }
}

/// Element-wise comparison of `region` with `piece` (offsets in the mismatch count from `at`).
pub fn values_match(piece: &Piece, tol: Tolerance, at: usize, region: &[u8]) -> Result<(), Mismatch> {
    if region.len() < piece.byte_len() {
        return Err(Mismatch {
            offset: at + region.len(),
            elem: piece.elem,
            expected: format!("{} bytes", piece.byte_len()),
            got: format!("{} bytes", region.len()),
            note: "read-back too short".into(),
        });
    }
    values(piece, tol, at, region)
}

fn values(piece: &Piece, tol: Tolerance, at: usize, region: &[u8]) -> Result<(), Mismatch> {
    let sz = piece.elem.size();
    let want = piece.to_bytes();
    for (k, (e, g)) in want.chunks(sz).zip(region.chunks(sz)).enumerate() {
        if !element_matches(piece.elem, tol, e, g) {
            let note = match tol {
                Tolerance::Exact => String::new(),
                Tolerance::Abs(eps) => format!("abs tolerance {eps}"),
                Tolerance::Ulp(n) => format!("tolerance {n} ulp"),
            };
            return Err(Mismatch {
                offset: at + k * sz,
                elem: piece.elem,
                expected: show(piece.elem, e),
                got: show(piece.elem, g),
                note,
            });
        }
    }
    Ok(())
}

fn as_f64(s: Scalar) -> f64 {
    match s {
        Scalar::Int(i) => i as f64,
        Scalar::Float(f) => f,
        Scalar::Bits(b) => b as f64,
    }
}

fn scalar_text(s: Scalar) -> String {
    match s {
        Scalar::Int(i) => i.to_string(),
        Scalar::Float(f) => format!("{f:?}"),
        Scalar::Bits(b) => format!("0x{b:X}"),
    }
}

/// Ordered integer image of a float's bits, so adjacent floats differ by 1 (and ±0 are equal).
fn ordered(bits: u64, width: u32) -> i128 {
    let sign = 1u64 << (width - 1);
    let mag = (bits & (sign - 1)) as i128;
    if bits & sign != 0 {
        -mag
    } else {
        mag
    }
}

fn element_matches(elem: Elem, tol: Tolerance, e: &[u8], g: &[u8]) -> bool {
    if e == g {
        return true;
    }
    if !elem.is_float() {
        return false;
    }
    let (Scalar::Float(ev), Scalar::Float(gv)) = (decode(elem, e), decode(elem, g)) else { return false };
    if ev.is_nan() || gv.is_nan() {
        return ev.is_nan() && gv.is_nan();
    }
    match tol {
        Tolerance::Exact => false,
        Tolerance::Abs(eps) => ev == gv || (ev - gv).abs() <= eps,
        Tolerance::Ulp(n) => {
            let width = (elem.size() * 8) as u32;
            let raw = |b: &[u8]| {
                let mut w = [0u8; 8];
                w[..b.len()].copy_from_slice(b);
                u64::from_le_bytes(w)
            };
            (ordered(raw(e), width) - ordered(raw(g), width)).unsigned_abs() <= n as u128
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::spec::Spec;
    use std::path::Path;

    fn spec(resource: &str) -> ResourceSpec {
        let text = format!("shader = \"fixtures/x.dxil\"\ndispatch = [1, 1, 1]\n{resource}");
        Spec::parse("t", Path::new("t.toml"), &text).unwrap().resources.remove(0)
    }

    fn words(w: &[u32]) -> Vec<u8> {
        w.iter().flat_map(|x| x.to_le_bytes()).collect()
    }

    fn floats(w: &[f32]) -> Vec<u8> {
        w.iter().flat_map(|x| x.to_bits().to_le_bytes()).collect()
    }

    #[test]
    fn exact_values_report_the_first_mismatch() {
        let r =
            spec("[[resource]]\nregister = \"u0\"\nkind = \"raw\"\nsize = 16\n[[resource.expect]]\nu32 = [1, 2, 3, 4]");
        assert!(compare_resource(&r, &words(&[1, 2, 3, 4])).is_ok());
        let m = compare_resource(&r, &words(&[1, 2, 9, 8])).unwrap_err();
        assert_eq!((m.offset, m.index(), m.elem), (8, 2, Elem::U32));
        assert_eq!(m.expected, "3 (0x00000003)");
        assert_eq!(m.got, "9 (0x00000009)");
        assert!(m.to_string().starts_with("u32[2] (byte 8): expected 3"));
    }

    #[test]
    fn rest_must_stay_unchanged_unless_ignored() {
        let body =
            "register = \"u0\"\nkind = \"raw\"\ninit = { u32 = [7, 7, 7, 7] }\n[[resource.expect]]\nat = 4\nu32 = [1]";
        let r = spec(&format!("[[resource]]\n{body}"));
        assert!(compare_resource(&r, &words(&[7, 1, 7, 7])).is_ok());
        let m = compare_resource(&r, &words(&[7, 1, 7, 0xDEAD])).unwrap_err();
        assert_eq!(m.offset, 12);
        assert!(m.note.contains("initial value"));
        let r = spec(&format!("[[resource]]\nrest = \"ignore\"\n{body}"));
        assert!(compare_resource(&r, &words(&[7, 1, 7, 0xDEAD])).is_ok());
        // An explicit ignore range.
        let r = spec(&format!("[[resource]]\n{body}\n[[resource.expect]]\nignore = 8"));
        assert!(compare_resource(&r, &words(&[7, 1, 5, 6])).is_ok());
        assert!(compare_resource(&r, &words(&[0, 1, 5, 6])).is_err());
    }

    #[test]
    fn float_tolerances() {
        let r = spec("[[resource]]\nregister = \"u0\"\nkind = \"raw\"\nsize = 8\n[[resource.expect]]\nf32 = [1.0, nan]\nabs = 1e-3");
        assert!(compare_resource(&r, &floats(&[1.0005, f32::NAN])).is_ok());
        assert!(compare_resource(&r, &floats(&[1.002, f32::NAN])).is_err());
        assert!(compare_resource(&r, &floats(&[1.0, 0.0])).is_err()); // NaN expected
        let r = spec(
            "[[resource]]\nregister = \"u0\"\nkind = \"raw\"\nsize = 8\n[[resource.expect]]\nf32 = [1.0, 0.0]\nulp = 1",
        );
        let next = f32::from_bits(1.0f32.to_bits() + 1);
        assert!(compare_resource(&r, &floats(&[next, -0.0])).is_ok());
        let next2 = f32::from_bits(1.0f32.to_bits() + 2);
        assert!(compare_resource(&r, &floats(&[next2, 0.0])).is_err());
        // Exact floats: bits must match (except NaN payloads), so -0 != +0.
        let r =
            spec("[[resource]]\nregister = \"u0\"\nkind = \"raw\"\nsize = 8\n[[resource.expect]]\nf32 = [0.0, nan]");
        assert!(compare_resource(&r, &floats(&[-0.0, f32::NAN])).is_err());
        assert!(compare_resource(&r, &words(&[0, 0x7FC0_1234])).is_ok());
    }

    #[test]
    fn range_permutation_one_of() {
        let r = spec(
            "[[resource]]\nregister = \"u0\"\nkind = \"raw\"\nsize = 24\n\
             [[resource.expect]]\nrange = { min = 1, max = 128, count = 2 }\n\
             [[resource.expect]]\npermutation = { iota = { count = 2 } }\n\
             [[resource.expect]]\none_of = [{ u32 = [8, 16] }, { u32 = [16, 8] }]",
        );
        assert!(compare_resource(&r, &words(&[1, 128, 1, 0, 16, 8])).is_ok());
        assert!(compare_resource(&r, &words(&[1, 128, 0, 1, 8, 16])).is_ok());
        let m = compare_resource(&r, &words(&[0, 5, 0, 1, 8, 16])).unwrap_err();
        assert_eq!(m.offset, 0);
        let m = compare_resource(&r, &words(&[1, 5, 1, 1, 8, 16])).unwrap_err();
        assert_eq!(m.offset, 12);
        let m = compare_resource(&r, &words(&[1, 5, 1, 0, 8, 8])).unwrap_err();
        assert_eq!(m.offset, 20);
        assert!(m.note.contains("none of the 2 alternatives"));
    }

    #[test]
    fn short_read_back_fails() {
        let r = spec("[[resource]]\nregister = \"u0\"\nkind = \"raw\"\nsize = 8\n[[resource.expect]]\nu32 = [0, 0]");
        assert!(compare_resource(&r, &words(&[0])).is_err());
    }
}
