//! `RDAT`: the runtime data part of DXIL libraries — the function table
//! (exports, their plain names and shader kinds, payload and attribute
//! sizes) and the state subobjects (root signatures, shader and pipeline
//! config, hit groups, subobject-to-export associations).
//!
//! Layout: `u32 version (0x10)`, `u32 part count`, that many `u32` offsets;
//! at each offset a part header `u32 type, u32 size` and its payload. Table
//! parts start with `u32 record count, u32 record stride`. Strings are byte
//! offsets into the string buffer part; string arrays are `u32` indices into
//! the index-array part, where a count is followed by that many string offsets.

use serde::Serialize;

use super::error::{ContainerError, FourCc, Result};
use super::reader::{cstr_at, Reader};
use crate::ShaderKind;

const RDAT: FourCc = FourCc(*b"RDAT");
const VERSION_10: u32 = 0x10;

const PART_STRINGS: u32 = 1;
const PART_INDEX_ARRAYS: u32 = 2;
const PART_FUNCTIONS: u32 = 4;
const PART_RAW_BYTES: u32 = 5;
const PART_SUBOBJECTS: u32 = 6;

/// One function of the library (an export when it has a shader kind other than library).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RdatFunction {
    /// The module's (mangled) name.
    pub name: String,
    /// The plain export name state objects use.
    pub unmangled_name: String,
    pub shader_kind: Option<ShaderKind>,
    pub payload_size: u32,
    pub attribute_size: u32,
}

/// `D3D12_HIT_GROUP_TYPE`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum HitGroupType {
    Triangles,
    ProceduralPrimitive,
}

/// What a state subobject holds.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SubobjectData {
    StateObjectConfig {
        flags: u32,
    },
    /// The serialized root signature (RTS0 layout).
    GlobalRootSignature {
        data: Vec<u8>,
    },
    LocalRootSignature {
        data: Vec<u8>,
    },
    SubobjectToExportsAssociation {
        subobject: String,
        exports: Vec<String>,
    },
    RaytracingShaderConfig {
        max_payload_size: u32,
        max_attribute_size: u32,
    },
    RaytracingPipelineConfig {
        max_trace_recursion_depth: u32,
    },
    HitGroup {
        hit_group_type: HitGroupType,
        any_hit: String,
        closest_hit: String,
        intersection: String,
    },
    RaytracingPipelineConfig1 {
        max_trace_recursion_depth: u32,
        flags: u32,
    },
    /// A subobject kind this reader does not know (its number).
    Other {
        code: u32,
    },
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Subobject {
    pub name: String,
    #[serde(flatten)]
    pub data: SubobjectData,
}

/// The decoded `RDAT` part.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Rdat {
    pub functions: Vec<RdatFunction>,
    pub subobjects: Vec<Subobject>,
}

struct Parts<'a> {
    strings: &'a [u8],
    index: &'a [u8],
    raw: &'a [u8],
}

impl<'a> Parts<'a> {
    fn string(&self, off: u32, field: &'static str) -> Result<String> {
        cstr_at(self.strings, off as usize).map(str::to_string).map_err(|reason| ContainerError::BadString {
            part: RDAT,
            field,
            offset: off as usize,
            reason,
        })
    }

    fn string_array(&self, idx: u32, field: &'static str) -> Result<Vec<String>> {
        if idx == u32::MAX {
            return Ok(Vec::new());
        }
        let mut r = Reader::at(self.index, idx as usize * 4, "RDAT index arrays");
        let n = r.u32_usize()?;
        if n > r.remaining() / 4 {
            return Err(ContainerError::InvalidValue { part: RDAT, field, offset: idx as usize * 4, value: n as u64 });
        }
        (0..n).map(|_| self.string(r.u32()?, field)).collect()
    }

    fn bytes(&self, off: u32, size: u32, field: &'static str) -> Result<Vec<u8>> {
        let (o, s) = (off as usize, size as usize);
        match o.checked_add(s).and_then(|end| self.raw.get(o..end)) {
            Some(b) => Ok(b.to_vec()),
            None => Err(ContainerError::InvalidValue { part: RDAT, field, offset: o, value: u64::from(size) }),
        }
    }
}

/// The records of a table part: (stride, record bytes...).
fn records<'a>(payload: &'a [u8], what: &'static str) -> Result<Vec<&'a [u8]>> {
    let mut r = Reader::new(payload, what);
    let count = r.u32_usize()?;
    let stride = r.u32_usize()?;
    if stride == 0 || stride % 4 != 0 {
        return Err(ContainerError::InvalidValue { part: RDAT, field: what, offset: 4, value: stride as u64 });
    }
    let body = r.array(count, stride)?;
    Ok(body.chunks_exact(stride).collect())
}

/// The `u32` fields of a record (missing trailing fields read as 0).
fn fields<const N: usize>(rec: &[u8]) -> [u32; N] {
    let mut out = [0u32; N];
    for (k, c) in rec.chunks_exact(4).take(N).enumerate() {
        out[k] = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
    }
    out
}

impl Rdat {
    /// Decodes an `RDAT` part payload.
    pub fn parse(payload: &[u8]) -> Result<Rdat> {
        let mut h = Reader::new(payload, "RDAT header");
        let version = h.u32()?;
        if version != VERSION_10 {
            return Err(ContainerError::Unsupported {
                part: RDAT,
                what: "RDAT version",
                detail: format!("0x{version:x} (0x10 expected)"),
            });
        }
        let count = h.u32_usize()?;
        let offsets = h.array(count, 4)?;
        let mut parts: Vec<(u32, &[u8])> = Vec::with_capacity(count);
        for o in offsets.chunks_exact(4) {
            let off = u32::from_le_bytes([o[0], o[1], o[2], o[3]]) as usize;
            let mut r = Reader::at(payload, off, "RDAT part header");
            let ty = r.u32()?;
            let size = r.u32_usize()?;
            parts.push((ty, r.bytes(size)?));
        }
        let find = |t: u32| parts.iter().find(|p| p.0 == t).map_or(&[][..], |p| p.1);
        let p = Parts { strings: find(PART_STRINGS), index: find(PART_INDEX_ARRAYS), raw: find(PART_RAW_BYTES) };
        let mut out = Rdat::default();
        let functions = find(PART_FUNCTIONS);
        if !functions.is_empty() {
            for rec in records(functions, "RDAT function table")? {
                let [name, unmangled, _res, _deps, kind, payload, attrib] = fields::<7>(rec);
                out.functions.push(RdatFunction {
                    name: p.string(name, "function name")?,
                    unmangled_name: p.string(unmangled, "function unmangled name")?,
                    shader_kind: ShaderKind::from_u32(kind),
                    payload_size: payload,
                    attribute_size: attrib,
                });
            }
        }
        let subobjects = find(PART_SUBOBJECTS);
        if !subobjects.is_empty() {
            for rec in records(subobjects, "RDAT subobject table")? {
                let [kind, name, a, b, c, d] = fields::<6>(rec);
                let data = match kind {
                    0 => SubobjectData::StateObjectConfig { flags: a },
                    1 => SubobjectData::GlobalRootSignature { data: p.bytes(a, b, "global root signature")? },
                    2 => SubobjectData::LocalRootSignature { data: p.bytes(a, b, "local root signature")? },
                    8 => SubobjectData::SubobjectToExportsAssociation {
                        subobject: p.string(a, "association subobject")?,
                        exports: p.string_array(b, "association exports")?,
                    },
                    9 => SubobjectData::RaytracingShaderConfig { max_payload_size: a, max_attribute_size: b },
                    10 => SubobjectData::RaytracingPipelineConfig { max_trace_recursion_depth: a },
                    11 => SubobjectData::HitGroup {
                        hit_group_type: match a {
                            0 => HitGroupType::Triangles,
                            1 => HitGroupType::ProceduralPrimitive,
                            v => {
                                return Err(ContainerError::InvalidValue {
                                    part: RDAT,
                                    field: "hit group type",
                                    offset: 0,
                                    value: u64::from(v),
                                })
                            }
                        },
                        any_hit: p.string(b, "hit group any-hit export")?,
                        closest_hit: p.string(c, "hit group closest-hit export")?,
                        intersection: p.string(d, "hit group intersection export")?,
                    },
                    12 => SubobjectData::RaytracingPipelineConfig1 { max_trace_recursion_depth: a, flags: b },
                    code => SubobjectData::Other { code },
                };
                out.subobjects.push(Subobject { name: p.string(name, "subobject name")?, data });
            }
        }
        Ok(out)
    }
}

impl Rdat {
    /// The serialized (RTS0) global (`local = false`) or local root signature that D3D12's
    /// subobject association rules give export `export` when the state object holds this library
    /// alone: an association naming the export (or a hit group that uses it) wins, then an
    /// association with an empty export list (a default association), then the library's only
    /// root signature of that kind that no association names (an implicit default). `None` when
    /// nothing applies, or when several defaults of one level compete (D3D12 then fails the state
    /// object; the caller must say which).
    pub fn root_signature_for(&self, export: &str, local: bool) -> Option<&[u8]> {
        let data_of = |name: &str| {
            self.subobjects.iter().find(|o| o.name == name).and_then(|o| match &o.data {
                SubobjectData::LocalRootSignature { data } if local => Some(data.as_slice()),
                SubobjectData::GlobalRootSignature { data } if !local => Some(data.as_slice()),
                _ => None,
            })
        };
        // Hit groups that use the export (associations may name them instead of the shader).
        let groups: Vec<&str> = self
            .subobjects
            .iter()
            .filter(|o| match &o.data {
                SubobjectData::HitGroup { any_hit, closest_hit, intersection, .. } => {
                    [any_hit, closest_hit, intersection].iter().any(|e| e.as_str() == export)
                }
                _ => false,
            })
            .map(|o| o.name.as_str())
            .collect();
        let mut explicit = Vec::new();
        let mut default = Vec::new();
        let mut associated = Vec::new();
        for o in &self.subobjects {
            let SubobjectData::SubobjectToExportsAssociation { subobject, exports } = &o.data else { continue };
            let Some(data) = data_of(subobject) else { continue };
            associated.push(subobject.as_str());
            if exports.is_empty() {
                default.push(data);
            } else if exports.iter().any(|e| e == export || groups.contains(&e.as_str())) {
                explicit.push(data);
            }
        }
        fn one(v: Vec<&[u8]>) -> Option<&[u8]> {
            let first = *v.first()?;
            v.iter().all(|d| *d == first).then_some(first)
        }
        if !explicit.is_empty() {
            return one(explicit);
        }
        if !default.is_empty() {
            return one(default);
        }
        let implicit: Vec<&[u8]> = self
            .subobjects
            .iter()
            .filter(|o| !associated.contains(&o.name.as_str()))
            .filter_map(|o| data_of(&o.name))
            .collect();
        one(implicit)
    }
}

impl std::fmt::Display for Subobject {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let q = |s: &str| if s.is_empty() { "-".to_string() } else { s.to_string() };
        match &self.data {
            SubobjectData::StateObjectConfig { flags } => {
                write!(f, "{}: state object config, flags 0x{flags:x}", self.name)
            }
            SubobjectData::GlobalRootSignature { data } => {
                write!(f, "{}: global root signature ({} bytes)", self.name, data.len())
            }
            SubobjectData::LocalRootSignature { data } => {
                write!(f, "{}: local root signature ({} bytes)", self.name, data.len())
            }
            SubobjectData::SubobjectToExportsAssociation { subobject, exports } => {
                write!(f, "{}: associates {subobject} with [{}]", self.name, exports.join(", "))
            }
            SubobjectData::RaytracingShaderConfig { max_payload_size, max_attribute_size } => write!(
                f,
                "{}: shader config, max payload {max_payload_size} bytes, max attributes {max_attribute_size} bytes",
                self.name
            ),
            SubobjectData::RaytracingPipelineConfig { max_trace_recursion_depth } => {
                write!(f, "{}: pipeline config, max recursion depth {max_trace_recursion_depth}", self.name)
            }
            SubobjectData::HitGroup { hit_group_type, any_hit, closest_hit, intersection } => write!(
                f,
                "{}: {} hit group, any hit {}, closest hit {}, intersection {}",
                self.name,
                match hit_group_type {
                    HitGroupType::Triangles => "triangle",
                    HitGroupType::ProceduralPrimitive => "procedural",
                },
                q(any_hit),
                q(closest_hit),
                q(intersection)
            ),
            SubobjectData::RaytracingPipelineConfig1 { max_trace_recursion_depth, flags } => write!(
                f,
                "{}: pipeline config1, max recursion depth {max_trace_recursion_depth}, flags 0x{flags:x}",
                self.name
            ),
            SubobjectData::Other { code } => write!(f, "{}: subobject kind {code}", self.name),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Builds an RDAT payload from (type, payload) parts.
    fn rdat(parts: &[(u32, Vec<u8>)]) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend(VERSION_10.to_le_bytes());
        out.extend((parts.len() as u32).to_le_bytes());
        let mut off = 8 + 4 * parts.len();
        let mut body = Vec::new();
        for (t, p) in parts {
            out.extend((off as u32).to_le_bytes());
            body.extend(t.to_le_bytes());
            body.extend((p.len() as u32).to_le_bytes());
            body.extend(p);
            off += 8 + p.len();
        }
        out.extend(body);
        out
    }

    fn words(w: &[u32]) -> Vec<u8> {
        w.iter().flat_map(|x| x.to_le_bytes()).collect()
    }

    #[test]
    fn decodes_functions_hit_groups_and_associations() {
        let strings = b"\0RayGen\0\x01?RayGen@@YAXXZ\0HG\0CH\0assoc\0cfg\0".to_vec();
        // offsets: RayGen 1, mangled 8, HG 24, CH 27, assoc 30, cfg 36
        let index = words(&[2, 1, 27]);
        let functions = words(&[1, 52, 8, 1, u32::MAX, u32::MAX, 7, 0, 0, 0, 0, 0, 0, 0, 0]);
        let subobjects = words(&[
            3, 24, //
            11, 24, 0, 0, 27, 0, //
            8, 30, 36, 0, 0, 0, //
            9, 36, 16, 8, 0, 0,
        ]);
        let payload = rdat(&[(1, strings), (2, index), (4, functions), (6, subobjects)]);
        let r = Rdat::parse(&payload).unwrap();
        assert_eq!(r.functions.len(), 1);
        assert_eq!(r.functions[0].unmangled_name, "RayGen");
        assert_eq!(r.functions[0].name, "\u{1}?RayGen@@YAXXZ");
        assert_eq!(r.functions[0].shader_kind, Some(ShaderKind::RayGeneration));
        assert_eq!(
            r.subobjects[0].data,
            SubobjectData::HitGroup {
                hit_group_type: HitGroupType::Triangles,
                any_hit: String::new(),
                closest_hit: "CH".into(),
                intersection: String::new()
            }
        );
        assert_eq!(
            r.subobjects[1].data,
            SubobjectData::SubobjectToExportsAssociation {
                subobject: "cfg".into(),
                exports: vec!["RayGen".into(), "CH".into()]
            }
        );
        assert_eq!(r.subobjects[2].to_string(), "cfg: shader config, max payload 16 bytes, max attributes 8 bytes");
    }

    fn sub(name: &str, data: SubobjectData) -> Subobject {
        Subobject { name: name.into(), data }
    }

    #[test]
    fn root_signature_associations_follow_d3d12_precedence() {
        let lrs = |b: u8| SubobjectData::LocalRootSignature { data: vec![b] };
        let assoc = |so: &str, ex: &[&str]| SubobjectData::SubobjectToExportsAssociation {
            subobject: so.into(),
            exports: ex.iter().map(|e| e.to_string()).collect(),
        };
        let hg = SubobjectData::HitGroup {
            hit_group_type: HitGroupType::Triangles,
            any_hit: "AH".into(),
            closest_hit: "CH".into(),
            intersection: String::new(),
        };
        let r = Rdat {
            functions: Vec::new(),
            subobjects: vec![
                sub("grs", SubobjectData::GlobalRootSignature { data: vec![9] }),
                sub("a", lrs(1)),
                sub("b", lrs(2)),
                sub("HG", hg),
                sub("toCH", assoc("a", &["CH"])),
                sub("toHG", assoc("b", &["HG", "Miss"])),
            ],
        };
        // Explicit: the export itself, or a hit group using it; two different ones conflict.
        assert_eq!(r.root_signature_for("Miss", true), Some(&[2u8][..]));
        assert_eq!(r.root_signature_for("AH", true), Some(&[2u8][..]));
        assert_eq!(r.root_signature_for("CH", true), None);
        // No association and no unassociated local root signature: none.
        assert_eq!(r.root_signature_for("RayGen", true), None);
        // The only global root signature, unassociated, is everyone's default.
        assert_eq!(r.root_signature_for("RayGen", false), Some(&[9u8][..]));
        // A default association (empty list) beats an unassociated subobject.
        let mut r2 = r.clone();
        r2.subobjects.push(sub("c", lrs(3)));
        r2.subobjects.push(sub("d", lrs(4)));
        assert_eq!(r2.root_signature_for("RayGen", true), None, "two implicit defaults conflict");
        r2.subobjects.push(sub("dflt", assoc("d", &[])));
        assert_eq!(r2.root_signature_for("RayGen", true), Some(&[4u8][..]));
        assert_eq!(r2.root_signature_for("Miss", true), Some(&[2u8][..]));
    }

    #[test]
    fn rejects_bad_version_and_out_of_range_strings() {
        let mut p = rdat(&[]);
        p[0] = 0x11;
        assert!(matches!(Rdat::parse(&p), Err(ContainerError::Unsupported { .. })));
        let subobjects = words(&[1, 24, 10, 999, 1, 0, 0, 0]);
        let p = rdat(&[(1, b"\0".to_vec()), (6, subobjects)]);
        assert!(matches!(Rdat::parse(&p), Err(ContainerError::BadString { field: "subobject name", .. })));
        // A record count beyond the part is a truncation, not a panic.
        let p = rdat(&[(6, words(&[1000, 24]))]);
        assert!(matches!(Rdat::parse(&p), Err(ContainerError::Truncated { .. })));
    }
}
