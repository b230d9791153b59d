//! Minimal SPIR-V reflection: the descriptor bindings a module declares and its entry points.
//!
//! Used to check a job against its shader (missing bindings, descriptor type mismatches), to size
//! descriptor arrays, and to pick image view types (arrayed or not). Never panics on malformed input.

use std::collections::HashMap;

use crate::RuntimeError;

const MAGIC: u32 = 0x0723_0203;

/// The descriptor type a shader variable needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DescriptorKind {
    UniformBuffer,
    StorageBuffer,
    UniformTexelBuffer,
    StorageTexelBuffer,
    SampledImage,
    StorageImage,
    Sampler,
    CombinedImageSampler,
    InputAttachment,
    AccelerationStructure,
}

impl DescriptorKind {
    pub fn name(self) -> &'static str {
        match self {
            DescriptorKind::UniformBuffer => "uniform buffer",
            DescriptorKind::StorageBuffer => "storage buffer",
            DescriptorKind::UniformTexelBuffer => "uniform texel buffer",
            DescriptorKind::StorageTexelBuffer => "storage texel buffer",
            DescriptorKind::SampledImage => "sampled image",
            DescriptorKind::StorageImage => "storage image",
            DescriptorKind::Sampler => "sampler",
            DescriptorKind::CombinedImageSampler => "combined image sampler",
            DescriptorKind::InputAttachment => "input attachment",
            DescriptorKind::AccelerationStructure => "acceleration structure",
        }
    }
}

/// SPIR-V `Dim` of an image type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SpvDim {
    D1,
    D2,
    D3,
    Cube,
    Rect,
    Buffer,
    SubpassData,
    Other(u32),
}

/// The parts of an `OpTypeImage` that matter for binding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ImageTypeInfo {
    pub dim: SpvDim,
    pub arrayed: bool,
    pub multisampled: bool,
}

/// One descriptor binding declared by the module.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReflectedBinding {
    pub set: u32,
    pub binding: u32,
    pub kind: DescriptorKind,
    /// Array size; 1 for a single descriptor, `None` for a runtime array.
    pub count: Option<u32>,
    pub image: Option<ImageTypeInfo>,
}

/// An `OpEntryPoint`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntryPoint {
    pub execution_model: u32,
    pub name: String,
}

/// Everything this module extracts.
#[derive(Clone, Debug, Default)]
pub struct Reflection {
    pub entry_points: Vec<EntryPoint>,
    pub bindings: Vec<ReflectedBinding>,
}

pub const EXECUTION_MODEL_GLCOMPUTE: u32 = 5;

enum Ty {
    Image(ImageTypeInfo, u32 /* Sampled operand */),
    Sampler,
    SampledImage,
    Array(u32 /* element */, u32 /* length id */),
    RuntimeArray(u32),
    Struct,
    Pointer(u32 /* storage class */, u32 /* pointee */),
    AccelerationStructure,
    Other,
}

fn decode_string(words: &[u32]) -> String {
    let mut bytes = Vec::with_capacity(words.len() * 4);
    'outer: for w in words {
        for b in w.to_le_bytes() {
            if b == 0 {
                break 'outer;
            }
            bytes.push(b);
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Reflects a SPIR-V module given as words.
pub fn reflect(spirv: &[u32]) -> Result<Reflection, RuntimeError> {
    if spirv.len() < 5 || spirv.first() != Some(&MAGIC) {
        return Err(RuntimeError::InvalidSpirv("missing SPIR-V header (magic 0x07230203)".into()));
    }
    let mut out = Reflection::default();
    let mut sets: HashMap<u32, u32> = HashMap::new();
    let mut bindings: HashMap<u32, u32> = HashMap::new();
    let mut block: HashMap<u32, bool> = HashMap::new(); // id -> true for Block, false for BufferBlock
    let mut types: HashMap<u32, Ty> = HashMap::new();
    let mut constants: HashMap<u32, u32> = HashMap::new();
    let mut variables: Vec<(u32 /* id */, u32 /* pointer type */)> = Vec::new();

    let mut pos = 5usize;
    while pos < spirv.len() {
        let head = spirv[pos];
        let count = (head >> 16) as usize;
        let opcode = head & 0xffff;
        if count == 0 || pos + count > spirv.len() {
            return Err(RuntimeError::InvalidSpirv(format!("bad instruction word count {count} at word {pos}")));
        }
        let ops = &spirv[pos + 1..pos + count];
        let op = |i: usize| ops.get(i).copied().unwrap_or(0);
        match opcode {
            // OpEntryPoint
            15 if ops.len() >= 3 => {
                out.entry_points.push(EntryPoint { execution_model: op(0), name: decode_string(&ops[2..]) });
            }
            // OpDecorate
            71 if ops.len() >= 2 => match op(1) {
                2 => {
                    block.insert(op(0), true);
                }
                3 => {
                    block.insert(op(0), false);
                }
                33 => {
                    bindings.insert(op(0), op(2));
                }
                34 => {
                    sets.insert(op(0), op(2));
                }
                _ => {}
            },
            // OpTypeImage: result, sampled type, dim, depth, arrayed, ms, sampled, format
            25 if ops.len() >= 8 => {
                let dim = match op(2) {
                    0 => SpvDim::D1,
                    1 => SpvDim::D2,
                    2 => SpvDim::D3,
                    3 => SpvDim::Cube,
                    4 => SpvDim::Rect,
                    5 => SpvDim::Buffer,
                    6 => SpvDim::SubpassData,
                    d => SpvDim::Other(d),
                };
                types.insert(
                    op(0),
                    Ty::Image(ImageTypeInfo { dim, arrayed: op(4) != 0, multisampled: op(5) != 0 }, op(6)),
                );
            }
            26 if !ops.is_empty() => {
                types.insert(op(0), Ty::Sampler);
            }
            27 if !ops.is_empty() => {
                types.insert(op(0), Ty::SampledImage);
            }
            28 if ops.len() >= 3 => {
                types.insert(op(0), Ty::Array(op(1), op(2)));
            }
            29 if ops.len() >= 2 => {
                types.insert(op(0), Ty::RuntimeArray(op(1)));
            }
            30 if !ops.is_empty() => {
                types.insert(op(0), Ty::Struct);
            }
            32 if ops.len() >= 3 => {
                types.insert(op(0), Ty::Pointer(op(1), op(2)));
            }
            // OpTypeAccelerationStructureKHR
            5341 if !ops.is_empty() => {
                types.insert(op(0), Ty::AccelerationStructure);
            }
            // Other type declarations we only need to know exist.
            19..=24 | 31 | 33 if !ops.is_empty() => {
                types.entry(op(0)).or_insert(Ty::Other);
            }
            // OpConstant / OpSpecConstant (low word is enough for array lengths)
            43 | 50 if ops.len() >= 3 => {
                constants.insert(op(1), op(2));
            }
            // OpVariable
            59 if ops.len() >= 3 => {
                variables.push((op(1), op(0)));
            }
            _ => {}
        }
        pos += count;
    }

    for (var, ptr_ty) in variables {
        let (Some(&set), Some(&binding)) = (sets.get(&var), bindings.get(&var)) else { continue };
        let Some(Ty::Pointer(storage_class, pointee)) = types.get(&ptr_ty) else {
            return Err(RuntimeError::InvalidSpirv(format!("variable %{var} does not have a pointer type")));
        };
        let (storage_class, mut elem) = (*storage_class, *pointee);
        let mut count = Some(1u32);
        match types.get(&elem) {
            Some(Ty::Array(e, len_id)) => {
                count = Some(constants.get(len_id).copied().ok_or_else(|| {
                    RuntimeError::InvalidSpirv(format!(
                        "array length %{len_id} of binding {set}.{binding} is not a constant"
                    ))
                })?);
                elem = *e;
            }
            Some(Ty::RuntimeArray(e)) => {
                count = None;
                elem = *e;
            }
            _ => {}
        }
        let mut image = None;
        let kind = match (storage_class, types.get(&elem)) {
            // StorageBuffer storage class
            (12, _) => DescriptorKind::StorageBuffer,
            // Uniform storage class: Block = UBO, BufferBlock = SSBO (SPIR-V 1.0 style)
            (2, _) => match block.get(&elem) {
                Some(false) => DescriptorKind::StorageBuffer,
                _ => DescriptorKind::UniformBuffer,
            },
            (0, Some(Ty::Image(info, sampled))) => {
                image = Some(*info);
                match (info.dim, sampled) {
                    (SpvDim::Buffer, 2) => DescriptorKind::StorageTexelBuffer,
                    (SpvDim::Buffer, _) => DescriptorKind::UniformTexelBuffer,
                    (SpvDim::SubpassData, _) => DescriptorKind::InputAttachment,
                    (_, 2) => DescriptorKind::StorageImage,
                    _ => DescriptorKind::SampledImage,
                }
            }
            (0, Some(Ty::Sampler)) => DescriptorKind::Sampler,
            (0, Some(Ty::SampledImage)) => DescriptorKind::CombinedImageSampler,
            (0, Some(Ty::AccelerationStructure)) => DescriptorKind::AccelerationStructure,
            (sc, _) => {
                return Err(RuntimeError::InvalidSpirv(format!(
                    "binding {set}.{binding} (%{var}) has storage class {sc} and a type that is no descriptor"
                )))
            }
        };
        out.bindings.push(ReflectedBinding { set, binding, kind, count, image });
    }
    out.bindings.sort_by_key(|b| (b.set, b.binding));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn word(opcode: u32, ops: &[u32]) -> Vec<u32> {
        let mut v = vec![((ops.len() as u32 + 1) << 16) | opcode];
        v.extend_from_slice(ops);
        v
    }

    fn module(body: &[Vec<u32>]) -> Vec<u32> {
        let mut m = vec![MAGIC, 0x0001_0300, 0, 100, 0];
        for i in body {
            m.extend_from_slice(i);
        }
        m
    }

    #[test]
    fn bindings_kinds_and_arrays() {
        // %1 uint, %2 const 4, %3 image 2D arrayed sampled, %4 array[4] of %3, %5 ptr UniformConstant %4, %6 var
        // %7 struct (Block), %8 ptr Uniform %7, %9 var; %10 struct (BufferBlock), %11 ptr Uniform %10, %12 var
        let m = module(&[
            word(15, &[5, 99, u32::from_le_bytes(*b"main"), 0]),
            word(71, &[6, 34, 1]),
            word(71, &[6, 33, 2]),
            word(71, &[7, 2]),
            word(71, &[9, 34, 0]),
            word(71, &[9, 33, 0]),
            word(71, &[10, 3]),
            word(71, &[12, 34, 0]),
            word(71, &[12, 33, 1]),
            word(21, &[1, 32, 0]),
            word(43, &[1, 2, 4]),
            word(25, &[3, 1, 1, 0, 1, 0, 1, 0]),
            word(28, &[4, 3, 2]),
            word(32, &[5, 0, 4]),
            word(59, &[5, 6, 0]),
            word(30, &[7, 1]),
            word(32, &[8, 2, 7]),
            word(59, &[8, 9, 2]),
            word(30, &[10, 1]),
            word(32, &[11, 2, 10]),
            word(59, &[11, 12, 2]),
        ]);
        let r = reflect(&m).expect("reflects");
        assert_eq!(r.entry_points, [EntryPoint { execution_model: 5, name: "main".into() }]);
        let kinds: Vec<_> = r.bindings.iter().map(|b| (b.set, b.binding, b.kind, b.count)).collect();
        assert_eq!(
            kinds,
            [
                (0, 0, DescriptorKind::UniformBuffer, Some(1)),
                (0, 1, DescriptorKind::StorageBuffer, Some(1)),
                (1, 2, DescriptorKind::SampledImage, Some(4)),
            ]
        );
        assert_eq!(r.bindings[2].image, Some(ImageTypeInfo { dim: SpvDim::D2, arrayed: true, multisampled: false }));
    }

    #[test]
    fn malformed_input_is_an_error() {
        assert!(reflect(&[]).is_err());
        assert!(reflect(&[1, 2, 3, 4, 5]).is_err());
        // Word count running past the end.
        assert!(reflect(&module(&[vec![(9 << 16) | 59, 1]])).is_err());
        // Zero word count.
        assert!(reflect(&module(&[vec![0]])).is_err());
        // Decorated variable whose type is unknown.
        let m = module(&[word(71, &[2, 34, 0]), word(71, &[2, 33, 0]), word(59, &[1, 2, 0])]);
        assert!(reflect(&m).is_err());
    }
}
