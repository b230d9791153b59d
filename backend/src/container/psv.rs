//! `PSV0`: pipeline-state validation data.
//!
//! Layout, all little-endian:
//!
//! - u32 runtime-info size, then the runtime-info block. The block grew by
//!   versions and its version is inferred from its size: 24 (v0: 16-byte
//!   stage union, min/max wave lane counts), 36 (v1: stage, view-ID use,
//!   signature element and vector counts), 48 (v2: numthreads), 52 (v3:
//!   entry-name offset), 56 (v4: group-shared bytes). Larger blocks are
//!   accepted and their extra bytes kept.
//! - u32 resource count; when non-zero, a u32 record size (16 in v0/v1, 24
//!   from v2) and the records.
//! - From v1 on: the string table (u32 size, a multiple of 4, then bytes),
//!   the semantic-index table (u32 entry count, then u32 entries), and when
//!   any signature has elements, a u32 element-record size and the input,
//!   output and patch-constant/primitive element records.
//! - Then, as far as the counts call for them: view-ID output masks, and
//!   input→output dependency tables (bit tables, kept as dwords).

use super::error::{ContainerError, FourCc, Result};
use super::reader::{cstr_at, Reader};
use crate::resource_kind::ResourceKind;
use crate::semantic_kind::SemanticKind;
use crate::ShaderKind;

const PART: FourCc = FourCc(*b"PSV0");

/// Dwords of a mask with one bit per component of `vectors` 4-component vectors.
pub fn mask_dwords(vectors: u32) -> u32 {
    (vectors + 7) >> 3
}

/// Dwords of an input→output dependency table.
pub fn table_dwords(input_vectors: u32, output_vectors: u32) -> u32 {
    mask_dwords(output_vectors) * input_vectors * 4
}

/// The stage-specific first 16 bytes of the runtime info.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StageInfo {
    Vertex {
        output_position_present: bool,
    },
    Hull {
        input_control_point_count: u32,
        output_control_point_count: u32,
        tessellator_domain: u32,
        tessellator_output_primitive: u32,
    },
    Domain {
        input_control_point_count: u32,
        output_position_present: bool,
        tessellator_domain: u32,
    },
    Geometry {
        input_primitive: u32,
        output_topology: u32,
        output_stream_mask: u32,
        output_position_present: bool,
    },
    Pixel {
        depth_output: bool,
        sample_frequency: bool,
    },
    Mesh {
        group_shared_bytes_used: u32,
        group_shared_bytes_dependent_on_view_id: u32,
        payload_size_in_bytes: u32,
        max_output_vertices: u16,
        max_output_primitives: u16,
    },
    Amplification {
        payload_size_in_bytes: u32,
    },
    /// Compute, library and other stages, or an unknown stage: the raw bytes.
    Other([u8; 16]),
}

impl StageInfo {
    fn decode(kind: Option<ShaderKind>, raw: [u8; 16]) -> StageInfo {
        let w = |i: usize| u32::from_le_bytes([raw[i], raw[i + 1], raw[i + 2], raw[i + 3]]);
        let h = |i: usize| u16::from_le_bytes([raw[i], raw[i + 1]]);
        match kind {
            Some(ShaderKind::Vertex) => StageInfo::Vertex { output_position_present: raw[0] != 0 },
            Some(ShaderKind::Hull) => StageInfo::Hull {
                input_control_point_count: w(0),
                output_control_point_count: w(4),
                tessellator_domain: w(8),
                tessellator_output_primitive: w(12),
            },
            Some(ShaderKind::Domain) => StageInfo::Domain {
                input_control_point_count: w(0),
                output_position_present: raw[4] != 0,
                tessellator_domain: w(8),
            },
            Some(ShaderKind::Geometry) => StageInfo::Geometry {
                input_primitive: w(0),
                output_topology: w(4),
                output_stream_mask: w(8),
                output_position_present: raw[12] != 0,
            },
            Some(ShaderKind::Pixel) => StageInfo::Pixel { depth_output: raw[0] != 0, sample_frequency: raw[1] != 0 },
            Some(ShaderKind::Mesh) => StageInfo::Mesh {
                group_shared_bytes_used: w(0),
                group_shared_bytes_dependent_on_view_id: w(4),
                payload_size_in_bytes: w(8),
                max_output_vertices: h(12),
                max_output_primitives: h(14),
            },
            Some(ShaderKind::Amplification) => StageInfo::Amplification { payload_size_in_bytes: w(0) },
            _ => StageInfo::Other(raw),
        }
    }
}

/// The v1 part of the runtime info.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RuntimeInfo1 {
    /// Raw `ShaderStage` byte (the DXIL shader-kind numbering).
    pub shader_stage: u8,
    pub uses_view_id: bool,
    /// Bytes 26..28 as a u16: the maximum vertex count of a geometry shader.
    pub max_vertex_count: u16,
    /// Byte 26: patch-constant vectors (HS output, DS input) or mesh
    /// per-primitive output vectors. Shares its byte with `max_vertex_count`.
    pub sig_patch_const_or_prim_vectors: u8,
    /// Byte 27: the mesh output topology (mesh shaders only).
    pub mesh_output_topology: u8,
    pub sig_input_elements: u8,
    pub sig_output_elements: u8,
    pub sig_patch_const_or_prim_elements: u8,
    pub sig_input_vectors: u8,
    /// Output vectors per geometry-shader stream (only index 0 otherwise).
    pub sig_output_vectors: [u8; 4],
}

impl RuntimeInfo1 {
    /// The stage as a [`ShaderKind`], when the byte names one.
    pub fn shader_kind(&self) -> Option<ShaderKind> {
        ShaderKind::from_u32(self.shader_stage as u32)
    }
}

/// The runtime-info block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuntimeInfo {
    /// Size of the block in bytes, as stored.
    pub size: u32,
    /// 0..=4, inferred from `size`.
    pub version: u32,
    pub stage_info: StageInfo,
    /// Minimum wave lane count required (0 if unused).
    pub min_wave_lane_count: u32,
    /// Maximum wave lane count required (`u32::MAX` if unused).
    pub max_wave_lane_count: u32,
    pub v1: Option<RuntimeInfo1>,
    /// v2: `[numthreads(x, y, z)]`.
    pub num_threads: Option<[u32; 3]>,
    /// v3: offset of the entry function name in the string table.
    pub entry_function_name_offset: Option<u32>,
    /// v4: bytes of group-shared memory used.
    pub num_bytes_group_shared_memory: Option<u32>,
}

/// `PSVResourceType`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ResourceType {
    Invalid,
    Sampler,
    Cbv,
    SrvTyped,
    SrvRaw,
    SrvStructured,
    UavTyped,
    UavRaw,
    UavStructured,
    UavStructuredWithCounter,
    Other(u32),
}

impl ResourceType {
    pub fn from_u32(v: u32) -> ResourceType {
        use ResourceType::*;
        match v {
            0 => Invalid,
            1 => Sampler,
            2 => Cbv,
            3 => SrvTyped,
            4 => SrvRaw,
            5 => SrvStructured,
            6 => UavTyped,
            7 => UavRaw,
            8 => UavStructured,
            9 => UavStructuredWithCounter,
            o => Other(o),
        }
    }
}

/// One resource binding record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ResourceBinding {
    pub resource_type: ResourceType,
    pub space: u32,
    pub lower_bound: u32,
    /// Inclusive; `u32::MAX` for unbounded ranges.
    pub upper_bound: u32,
    /// v2 records: the resource shape, as stored (`DXIL::ResourceKind` numbering; see
    /// [`ResourceBinding::kind`]).
    pub kind_raw: Option<u32>,
    /// v2 records: flags (bit 0: used by 64-bit atomics).
    pub flags: Option<u32>,
}

impl ResourceBinding {
    /// v2 records: the resource shape, `None` for older records or a number DXIL does not define.
    pub fn kind(&self) -> Option<ResourceKind> {
        self.kind_raw.and_then(ResourceKind::from_u32)
    }
}

/// One PSV signature element: a whole (possibly multi-row) signature
/// element, where `ISG1`-style parts have one record per row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PsvSignatureElement<'a> {
    pub semantic_name: &'a str,
    /// One semantic index per row.
    pub semantic_indices: Vec<u32>,
    pub rows: u8,
    /// Start row, meaningful when `allocated`.
    pub start_row: u8,
    pub cols: u8,
    /// Start column, meaningful when `allocated`.
    pub start_col: u8,
    pub allocated: bool,
    /// The semantic kind as stored (`DXIL::SemanticKind` numbering; see
    /// [`PsvSignatureElement::semantic_kind`]).
    pub semantic_kind_raw: u8,
    /// `DxilProgramSigCompType` numbering (as in `ISG1`).
    pub component_type: u8,
    pub interpolation_mode: u8,
    pub dynamic_index_mask: u8,
    pub output_stream: u8,
}

impl PsvSignatureElement<'_> {
    /// The semantic kind, `None` for a number DXIL does not define.
    pub fn semantic_kind(&self) -> Option<SemanticKind> {
        SemanticKind::from_u32(u32::from(self.semantic_kind_raw))
    }
}

/// A bit mask with one bit per output component.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ComponentMask {
    pub vectors: u32,
    pub dwords: Vec<u32>,
}

impl ComponentMask {
    pub fn get(&self, component: u32) -> bool {
        component < self.vectors * 4
            && self.dwords.get((component >> 5) as usize).is_some_and(|d| d & (1 << (component & 31)) != 0)
    }
}

/// For each input component, the mask of output components it affects.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DependencyTable {
    pub input_vectors: u32,
    pub output_vectors: u32,
    pub dwords: Vec<u32>,
}

impl DependencyTable {
    /// Whether input component `input` affects output component `output`.
    pub fn get(&self, input: u32, output: u32) -> bool {
        if input >= self.input_vectors * 4 || output >= self.output_vectors * 4 {
            return false;
        }
        let row = (mask_dwords(self.output_vectors) * input) as usize;
        self.dwords.get(row + (output >> 5) as usize).is_some_and(|d| d & (1 << (output & 31)) != 0)
    }
}

/// The decoded `PSV0` part.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Psv0<'a> {
    pub runtime_info: RuntimeInfo,
    /// Bytes of the runtime-info block beyond the newest version known here.
    pub runtime_info_extra: &'a [u8],
    /// Resource record size (0 when there are no resources).
    pub resource_record_size: u32,
    pub resources: Vec<ResourceBinding>,
    /// The string table (v1+), NUL padding included.
    pub string_table: &'a [u8],
    pub semantic_index_table: Vec<u32>,
    /// Signature element record size (0 when there are no elements).
    pub signature_element_size: u32,
    pub input_elements: Vec<PsvSignatureElement<'a>>,
    pub output_elements: Vec<PsvSignatureElement<'a>>,
    pub patch_const_or_prim_elements: Vec<PsvSignatureElement<'a>>,
    /// v3: the entry function name.
    pub entry_function_name: Option<&'a str>,
    /// Per stream (index 0 only, except for geometry shaders): outputs that
    /// depend on the view ID.
    pub view_id_output_masks: [Option<ComponentMask>; 4],
    /// Patch-constant (hull) or per-primitive (mesh) outputs that depend on the view ID.
    pub view_id_pc_or_prim_output_mask: Option<ComponentMask>,
    /// Per stream: outputs affected by each input.
    pub input_to_output: [Option<DependencyTable>; 4],
    /// Hull: patch-constant outputs affected by each input.
    pub input_to_pc_output: Option<DependencyTable>,
    /// Domain: outputs affected by each patch-constant input.
    pub pc_input_to_output: Option<DependencyTable>,
    /// Bytes after everything decoded (newer, unknown sections).
    pub trailing: &'a [u8],
}

fn runtime_version(size: u32) -> u32 {
    match size {
        56.. => 4,
        52..=55 => 3,
        48..=51 => 2,
        36..=47 => 1,
        _ => 0,
    }
}

fn read_mask(r: &mut Reader<'_>, vectors: u32) -> Result<ComponentMask> {
    let n = mask_dwords(vectors) as usize;
    let raw = r.array(n, 4)?;
    Ok(ComponentMask { vectors, dwords: dwords(raw) })
}

fn read_table(r: &mut Reader<'_>, input_vectors: u32, output_vectors: u32) -> Result<DependencyTable> {
    let n = table_dwords(input_vectors, output_vectors) as usize;
    let raw = r.array(n, 4)?;
    Ok(DependencyTable { input_vectors, output_vectors, dwords: dwords(raw) })
}

fn dwords(raw: &[u8]) -> Vec<u32> {
    raw.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

impl<'a> Psv0<'a> {
    /// Decodes a `PSV0` payload. `program_kind` (from the DXIL part) decides
    /// the stage union for v0 blocks, which do not record their stage.
    pub fn parse(payload: &'a [u8], program_kind: Option<ShaderKind>) -> Result<Psv0<'a>> {
        let mut r = Reader::new(payload, "PSV0");
        let info_size = r.u32()?;
        if info_size < 24 {
            return Err(ContainerError::InvalidValue {
                part: PART,
                field: "runtime info size",
                offset: 0,
                value: info_size as u64,
            });
        }
        let info = r.bytes(info_size as usize)?;
        let version = runtime_version(info_size);
        let mut ir = Reader::new(info, "PSV0 runtime info");
        let union_bytes: [u8; 16] = ir.array_n()?;
        let min_wave_lane_count = ir.u32()?;
        let max_wave_lane_count = ir.u32()?;
        let v1 = if version >= 1 {
            let shader_stage = ir.u8()?;
            let uses_view_id = ir.u8()? != 0;
            let pair: [u8; 2] = ir.array_n()?;
            Some(RuntimeInfo1 {
                shader_stage,
                uses_view_id,
                max_vertex_count: u16::from_le_bytes(pair),
                sig_patch_const_or_prim_vectors: pair[0],
                mesh_output_topology: pair[1],
                sig_input_elements: ir.u8()?,
                sig_output_elements: ir.u8()?,
                sig_patch_const_or_prim_elements: ir.u8()?,
                sig_input_vectors: ir.u8()?,
                sig_output_vectors: ir.array_n()?,
            })
        } else {
            None
        };
        let num_threads = if version >= 2 { Some([ir.u32()?, ir.u32()?, ir.u32()?]) } else { None };
        let entry_function_name_offset = if version >= 3 { Some(ir.u32()?) } else { None };
        let num_bytes_group_shared_memory = if version >= 4 { Some(ir.u32()?) } else { None };
        let runtime_info_extra = ir.rest();

        let kind = match &v1 {
            Some(v1) => v1.shader_kind(),
            None => program_kind,
        };
        let runtime_info = RuntimeInfo {
            size: info_size,
            version,
            stage_info: StageInfo::decode(kind, union_bytes),
            min_wave_lane_count,
            max_wave_lane_count,
            v1,
            num_threads,
            entry_function_name_offset,
            num_bytes_group_shared_memory,
        };

        // Resource bindings.
        let resource_count = r.u32_usize()?;
        let mut resource_record_size = 0;
        let mut resources = Vec::new();
        if resource_count > 0 {
            let size_at = r.pos();
            resource_record_size = r.u32()?;
            if resource_record_size < 16 {
                return Err(ContainerError::InvalidValue {
                    part: PART,
                    field: "resource record size",
                    offset: size_at,
                    value: resource_record_size as u64,
                });
            }
            let size = resource_record_size as usize;
            let records = r.array(resource_count, size)?;
            resources.reserve(resource_count);
            for rec in records.chunks_exact(size) {
                let mut rr = Reader::new(rec, "PSV0 resource record");
                let resource_type = ResourceType::from_u32(rr.u32()?);
                let space = rr.u32()?;
                let lower_bound = rr.u32()?;
                let upper_bound = rr.u32()?;
                let (kind_raw, flags) = if size >= 24 { (Some(rr.u32()?), Some(rr.u32()?)) } else { (None, None) };
                resources.push(ResourceBinding { resource_type, space, lower_bound, upper_bound, kind_raw, flags });
            }
        }

        let mut psv = Psv0 {
            runtime_info,
            runtime_info_extra,
            resource_record_size,
            resources,
            string_table: &[],
            semantic_index_table: Vec::new(),
            signature_element_size: 0,
            input_elements: Vec::new(),
            output_elements: Vec::new(),
            patch_const_or_prim_elements: Vec::new(),
            entry_function_name: None,
            view_id_output_masks: [None, None, None, None],
            view_id_pc_or_prim_output_mask: None,
            input_to_output: [None, None, None, None],
            input_to_pc_output: None,
            pc_input_to_output: None,
            trailing: &[],
        };

        if let Some(v1) = psv.runtime_info.v1 {
            psv.parse_v1_tables(&mut r, v1, kind)?;
        }
        psv.trailing = r.rest();
        Ok(psv)
    }

    fn parse_v1_tables(&mut self, r: &mut Reader<'a>, v1: RuntimeInfo1, kind: Option<ShaderKind>) -> Result<()> {
        // String table.
        let size_at = r.pos();
        let string_size = r.u32()?;
        if string_size % 4 != 0 {
            return Err(ContainerError::InvalidValue {
                part: PART,
                field: "string table size",
                offset: size_at,
                value: string_size as u64,
            });
        }
        self.string_table = r.bytes(string_size as usize)?;

        // Semantic index table.
        let entries = r.u32_usize()?;
        self.semantic_index_table = dwords(r.array(entries, 4)?);

        // Signature elements.
        let counts = [v1.sig_input_elements, v1.sig_output_elements, v1.sig_patch_const_or_prim_elements];
        if counts.iter().any(|&c| c != 0) {
            let size_at = r.pos();
            self.signature_element_size = r.u32()?;
            if self.signature_element_size < 16 {
                return Err(ContainerError::InvalidValue {
                    part: PART,
                    field: "signature element size",
                    offset: size_at,
                    value: self.signature_element_size as u64,
                });
            }
            let size = self.signature_element_size as usize;
            let mut lists = [Vec::new(), Vec::new(), Vec::new()];
            for (list, &count) in lists.iter_mut().zip(&counts) {
                let start = r.pos();
                let records = r.array(count as usize, size)?;
                for (i, rec) in records.chunks_exact(size).enumerate() {
                    list.push(self.element(rec, start + i * size)?);
                }
            }
            let [i, o, p] = lists;
            self.input_elements = i;
            self.output_elements = o;
            self.patch_const_or_prim_elements = p;
        }

        if let Some(off) = self.runtime_info.entry_function_name_offset {
            self.entry_function_name = Some(self.string(off as usize, "entry function name", 0)?);
        }

        let is = |k: ShaderKind| kind == Some(k);
        let streams = if is(ShaderKind::Geometry) { 4 } else { 1 };
        let pc_vectors = if is(ShaderKind::Hull) || is(ShaderKind::Domain) || is(ShaderKind::Mesh) {
            v1.sig_patch_const_or_prim_vectors as u32
        } else {
            0
        };
        let input_vectors = v1.sig_input_vectors as u32;

        if v1.uses_view_id {
            for (stream, slot) in self.view_id_output_masks.iter_mut().enumerate().take(streams) {
                let out = v1.sig_output_vectors[stream] as u32;
                if out != 0 {
                    *slot = Some(read_mask(r, out)?);
                }
            }
            if (is(ShaderKind::Hull) || is(ShaderKind::Mesh)) && pc_vectors != 0 {
                self.view_id_pc_or_prim_output_mask = Some(read_mask(r, pc_vectors)?);
            }
        }
        if !is(ShaderKind::Mesh) {
            for (stream, slot) in self.input_to_output.iter_mut().enumerate().take(streams) {
                let out = v1.sig_output_vectors[stream] as u32;
                if out != 0 && input_vectors != 0 {
                    *slot = Some(read_table(r, input_vectors, out)?);
                }
            }
        }
        if is(ShaderKind::Hull) && pc_vectors != 0 && input_vectors != 0 {
            self.input_to_pc_output = Some(read_table(r, input_vectors, pc_vectors)?);
        }
        let out0 = v1.sig_output_vectors[0] as u32;
        if is(ShaderKind::Domain) && out0 != 0 && pc_vectors != 0 {
            self.pc_input_to_output = Some(read_table(r, pc_vectors, out0)?);
        }
        Ok(())
    }

    fn string(&self, offset: usize, field: &'static str, at: usize) -> Result<&'a str> {
        cstr_at(self.string_table, offset).map_err(|reason| ContainerError::BadString {
            part: PART,
            field,
            offset: at,
            reason,
        })
    }

    fn element(&self, rec: &'a [u8], at: usize) -> Result<PsvSignatureElement<'a>> {
        let mut r = Reader::new(rec, "PSV0 signature element");
        let name_offset = r.u32_usize()?;
        let index_offset = r.u32_usize()?;
        let rows = r.u8()?;
        let start_row = r.u8()?;
        let cols_and_start = r.u8()?;
        let semantic_kind_raw = r.u8()?;
        let component_type = r.u8()?;
        let interpolation_mode = r.u8()?;
        let dynamic_and_stream = r.u8()?;
        let semantic_name = self.string(name_offset, "signature element semantic name", at)?;
        let semantic_indices = index_offset
            .checked_add(rows as usize)
            .and_then(|end| self.semantic_index_table.get(index_offset..end))
            .ok_or(ContainerError::InvalidValue {
                part: PART,
                field: "signature element semantic index offset",
                offset: at + 4,
                value: index_offset as u64,
            })?
            .to_vec();
        Ok(PsvSignatureElement {
            semantic_name,
            semantic_indices,
            rows,
            start_row,
            cols: cols_and_start & 0xf,
            start_col: (cols_and_start >> 4) & 0x3,
            allocated: cols_and_start & 0x40 != 0,
            semantic_kind_raw,
            component_type,
            interpolation_mode,
            dynamic_index_mask: dynamic_and_stream & 0xf,
            output_stream: (dynamic_and_stream >> 4) & 0x3,
        })
    }

    /// The shader stage recorded in the runtime info (v1+).
    pub fn shader_kind(&self) -> Option<ShaderKind> {
        self.runtime_info.v1.and_then(|v| v.shader_kind())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn u32s(out: &mut Vec<u8>, vals: &[u32]) {
        for v in vals {
            out.extend_from_slice(&v.to_le_bytes());
        }
    }

    /// A v3 (52-byte) pixel-shader PSV0 with one resource, one input and one
    /// output element, using the view ID.
    fn build_pixel_v3() -> Vec<u8> {
        let mut p = Vec::new();
        u32s(&mut p, &[52]);
        // Pixel union: depth output, sample frequency.
        p.extend_from_slice(&[1, 0, 0, 0]);
        p.extend_from_slice(&[0; 12]);
        u32s(&mut p, &[4, 64]);
        // stage 0 (pixel), uses view id, pc/prim vectors 0, topology 0,
        // 1 input, 1 output, 0 pc elements, 1 input vector, outputs [1,0,0,0].
        p.extend_from_slice(&[0, 1, 0, 0, 1, 1, 0, 1, 1, 0, 0, 0]);
        u32s(&mut p, &[0, 0, 0]); // numthreads
        u32s(&mut p, &[10]); // entry name offset
                             // Resources.
        u32s(&mut p, &[1, 24, 2, 3, 4, 4, 13, 0]);
        // String table: "\0TEXCOORD\0main\0" padded to 16.
        let strings = b"\0TEXCOORD\0main\0\0";
        u32s(&mut p, &[strings.len() as u32]);
        p.extend_from_slice(strings);
        // Semantic index table: [0, 5].
        u32s(&mut p, &[2, 0, 5]);
        // Elements.
        u32s(&mut p, &[16]);
        // input: TEXCOORD5 at row 2, 2 cols starting at col 1, allocated, arbitrary, f32, linear.
        u32s(&mut p, &[1, 1]);
        p.extend_from_slice(&[1, 2, 0x40 | (1 << 4) | 2, 0, 3, 2, 0, 0]);
        // output: SV_Target (name offset 0 = ""), index 0, row 0, 4 cols.
        u32s(&mut p, &[0, 0]);
        p.extend_from_slice(&[1, 0, 0x40 | 4, 16, 3, 0, 0, 0]);
        // View-ID mask for 1 output vector: 1 dword.
        u32s(&mut p, &[0b1010]);
        // Input→output table: 1 input vector, 1 output vector: 4 dwords.
        u32s(&mut p, &[0b0001, 0b0010, 0, 0b1000]);
        p
    }

    #[test]
    fn decodes_hand_built_v3_pixel() {
        let p = build_pixel_v3();
        let psv = Psv0::parse(&p, None).unwrap();
        let ri = &psv.runtime_info;
        assert_eq!((ri.size, ri.version), (52, 3));
        assert_eq!(ri.stage_info, StageInfo::Pixel { depth_output: true, sample_frequency: false });
        assert_eq!((ri.min_wave_lane_count, ri.max_wave_lane_count), (4, 64));
        assert_eq!(psv.shader_kind(), Some(ShaderKind::Pixel));
        assert_eq!(psv.entry_function_name, Some("main"));
        assert_eq!(ri.num_bytes_group_shared_memory, None);
        assert_eq!(psv.resources.len(), 1);
        let res = psv.resources[0];
        assert_eq!(res.resource_type, ResourceType::Cbv);
        assert_eq!((res.space, res.lower_bound, res.upper_bound), (3, 4, 4));
        assert_eq!((res.kind_raw, res.kind()), (Some(13), Some(ResourceKind::CBuffer)));
        let i = &psv.input_elements[0];
        assert_eq!((i.semantic_name, i.semantic_indices.as_slice()), ("TEXCOORD", &[5u32][..]));
        assert_eq!((i.rows, i.start_row, i.cols, i.start_col, i.allocated), (1, 2, 2, 1, true));
        assert_eq!((i.component_type, i.interpolation_mode), (3, 2));
        let o = &psv.output_elements[0];
        assert_eq!((o.semantic_name, o.semantic_kind()), ("", Some(SemanticKind::Target)));
        let mask = psv.view_id_output_masks[0].as_ref().unwrap();
        assert!(mask.get(1) && mask.get(3) && !mask.get(0) && !mask.get(4));
        let t = psv.input_to_output[0].as_ref().unwrap();
        assert!(t.get(0, 0) && t.get(1, 1) && t.get(3, 3) && !t.get(2, 0) && !t.get(0, 1));
        assert!(psv.trailing.is_empty());
    }

    #[test]
    fn every_truncation_of_hand_built_psv_fails_cleanly() {
        let p = build_pixel_v3();
        for n in 0..p.len() {
            assert!(Psv0::parse(&p[..n], None).is_err(), "prefix {n} parsed");
        }
    }

    #[test]
    fn v0_block_uses_program_kind() {
        let mut p = Vec::new();
        u32s(&mut p, &[24, 3, 4, 1, 2, 0, 0xffff_ffff, 0]);
        let psv = Psv0::parse(&p, Some(ShaderKind::Hull)).unwrap();
        assert_eq!(psv.runtime_info.version, 0);
        assert_eq!(
            psv.runtime_info.stage_info,
            StageInfo::Hull {
                input_control_point_count: 3,
                output_control_point_count: 4,
                tessellator_domain: 1,
                tessellator_output_primitive: 2
            }
        );
        assert!(psv.runtime_info.v1.is_none());
        assert_eq!(psv.runtime_info.max_wave_lane_count, u32::MAX);
        assert!(psv.trailing.is_empty());
        assert!(psv.input_elements.is_empty());
    }

    #[test]
    fn rejects_bad_sizes() {
        // Runtime info smaller than v0.
        assert!(matches!(
            Psv0::parse(&[8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], None),
            Err(ContainerError::InvalidValue { .. })
        ));
        let mut p = build_pixel_v3();
        // Resource record size below 16.
        p[60] = 8;
        assert!(matches!(Psv0::parse(&p, None), Err(ContainerError::InvalidValue { .. })));
        let mut p = build_pixel_v3();
        // Unaligned string table size.
        let at = 56 + 8 + 24;
        p[at] = 15;
        assert!(Psv0::parse(&p, None).is_err());
    }

    #[test]
    fn mask_sizes() {
        assert_eq!(mask_dwords(0), 0);
        assert_eq!(mask_dwords(1), 1);
        assert_eq!(mask_dwords(8), 1);
        assert_eq!(mask_dwords(9), 2);
        assert_eq!(table_dwords(3, 9), 24);
    }
}
