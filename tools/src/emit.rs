//! Readable forms of a compiled SPIR-V module (`dxjit compile --emit`):
//! SPIR-V assembly from rspirv's disassembler, and WGSL, GLSL, MSL and HLSL
//! through naga (its SPIR-V front end, validator and back ends), for the
//! modules naga accepts. naga reads SPIR-V independently of dxjit, so a
//! module it accepts has been read by a second implementation.

use naga::back::{glsl, hlsl, msl, wgsl};
use naga::valid::{Capabilities, ModuleInfo, ValidationFlags, Validator};

/// What `dxjit compile --emit` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Emit {
    /// The SPIR-V binary.
    Spirv,
    /// SPIR-V assembly text (rspirv's disassembler).
    Spvasm,
    /// WGSL (through naga).
    Wgsl,
    /// GLSL 450 (through naga).
    Glsl,
    /// Metal Shading Language (through naga).
    Msl,
    /// HLSL, shader model 6.0 (through naga).
    Hlsl,
}

impl Emit {
    pub fn name(self) -> &'static str {
        match self {
            Emit::Spirv => "spirv",
            Emit::Spvasm => "spvasm",
            Emit::Wgsl => "wgsl",
            Emit::Glsl => "glsl",
            Emit::Msl => "msl",
            Emit::Hlsl => "hlsl",
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum EmitError {
    #[error("the SPIR-V disassembler cannot read the module: {0}")]
    Disassemble(String),
    /// naga's SPIR-V front end or validator rejects the module (e.g. a
    /// tessellation stage, which naga has no model of).
    #[error("naga cannot read this {stage} shader's SPIR-V, so there is no {target} output: {reason} (--emit spirv and --emit spvasm work for every module)")]
    NagaRejects { stage: String, target: &'static str, reason: String },
    /// naga read the module but its back end cannot write it.
    #[error("naga's {target} back end cannot write this {stage} shader: {reason}")]
    Backend { stage: String, target: &'static str, reason: String },
}

/// SPIR-V assembly of `words`.
pub fn disassemble(words: &[u32]) -> Result<String, EmitError> {
    use rspirv::binary::Disassemble;
    let module = rspirv::dr::load_words(words).map_err(|e| EmitError::Disassemble(e.to_string()))?;
    Ok(module.disassemble())
}

/// `words` read and validated by naga.
pub fn naga_module(words: &[u32]) -> Result<(naga::Module, ModuleInfo), String> {
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    // dxjit's SPIR-V is Vulkan's (Y down in clip space): keep positions as they are.
    let opts = naga::front::spv::Options { adjust_coordinate_space: false, ..Default::default() };
    let module = guard("front end", || naga::front::spv::parse_u8_slice(&bytes, &opts).map_err(|e| e.to_string()))?;
    let info = guard("validator", || {
        Validator::new(ValidationFlags::all(), Capabilities::all())
            .validate(&module)
            .map_err(|e| format!("naga's validator: {}", with_sources(e.as_inner())))
    })?;
    Ok((module, info))
}

/// Runs a naga step, turning a panic inside naga (its SPIR-V front end
/// `expect`s some operand shapes dxjit's valid modules do not have) into an error.
fn guard<T>(step: &str, f: impl FnOnce() -> Result<T, String>) -> Result<T, String> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(p) => {
            let msg = p
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| p.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            Err(format!("naga's {step} panicked: {msg}"))
        }
    }
}

/// The text of `words` in `emit` (not [`Emit::Spirv`], which is binary);
/// `stage` names the shader's stage in errors.
pub fn text(words: &[u32], emit: Emit, stage: &str) -> Result<String, EmitError> {
    let target = emit.name();
    if emit == Emit::Spvasm || emit == Emit::Spirv {
        return disassemble(words);
    }
    let (module, info) =
        naga_module(words).map_err(|reason| EmitError::NagaRejects { stage: stage.to_string(), target, reason })?;
    let backend = |reason: String| EmitError::Backend { stage: stage.to_string(), target, reason };
    let ep = module.entry_points.first().ok_or_else(|| backend("the module has no entry point naga knows".into()))?;
    guard("back end", || backend_text(&module, &info, ep, emit)).map_err(backend)
}

/// `module` written by naga's back end for `emit` (a text form).
fn backend_text(module: &naga::Module, info: &ModuleInfo, ep: &naga::EntryPoint, emit: Emit) -> Result<String, String> {
    match emit {
        Emit::Wgsl => wgsl::write_string(module, info, wgsl::WriterFlags::EXPLICIT_TYPES).map_err(|e| e.to_string()),
        Emit::Glsl => {
            let options = glsl::Options { version: glsl::Version::Desktop(450), ..Default::default() };
            let pipeline =
                glsl::PipelineOptions { shader_stage: ep.stage, entry_point: ep.name.clone(), multiview: None };
            let mut out = String::new();
            glsl::Writer::new(&mut out, module, info, &options, &pipeline, Default::default())
                .and_then(|mut w| w.write())
                .map_err(|e| e.to_string())?;
            Ok(out)
        }
        Emit::Msl => msl::write_string(module, info, &Default::default(), &Default::default())
            .map(|(s, _)| s)
            .map_err(|e| e.to_string()),
        Emit::Hlsl => {
            let options = hlsl::Options { shader_model: hlsl::ShaderModel::V6_0, ..Default::default() };
            let pipeline = hlsl::PipelineOptions { entry_point: Some((ep.stage, ep.name.clone())) };
            let mut out = String::new();
            hlsl::Writer::new(&mut out, &options, &pipeline).write(module, info, None).map_err(|e| e.to_string())?;
            Ok(out)
        }
        Emit::Spirv | Emit::Spvasm => Err("not a naga output".to_string()),
    }
}

/// An error's message followed by those of its sources (naga's validator
/// puts the reason in the innermost one).
fn with_sources(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut cur = e.source();
    while let Some(s) = cur {
        text.push_str(": ");
        text.push_str(&s.to_string());
        cur = s.source();
    }
    text
}
