//! `dxjit link`: validates the shaders of one graphics pipeline as D3D12 does
//! at PSO creation and writes the linker's plan (`plan.json`).

use clap::Args;
use dxjit::link::{link, InputLayout, LinkError, LinkOptions, StageIo, TopologyType};
use dxjit::{compile_stage, CompileError, CompileOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Exit status when D3D12 would reject the pipeline (a named interface rule is broken).
pub const EXIT_REJECTED: u8 = 3;

#[derive(Args)]
#[command(after_help = "Writes OUT/plan.json and each stage's SPIR-V compiled against the plan \
(OUT/vertex.spv, OUT/geometry.spv, OUT/pixel.spv, ...).\n\nExit status: 0 linked and compiled; 1 malformed input \
(unreadable file, bad DXIL, not a graphics stage, bad input layout); 2 linked, but a stage uses a feature dxjit cannot \
translate (plan.json and the other stages are still written); 3 pipeline rejected as D3D12 would reject it at PSO \
creation (the broken rule, stage, semantic and register are printed); 4 internal compiler error.")]
pub struct LinkArgs {
    /// The pipeline's shaders (DXBC containers): VS [HS DS] [GS] [PS], identified by their shader kind.
    #[arg(required = true)]
    shaders: Vec<PathBuf>,
    /// Vertex input layout (TOML: [[element]] semantic, index, format, slot, offset, per_instance, step_rate).
    #[arg(long)]
    input_layout: Option<PathBuf>,
    /// The GS stream sent to the rasterizer, or `none` (D3D12_SO_NO_RASTERIZED_STREAM).
    #[arg(long, default_value = "0")]
    rasterized_stream: String,
    /// The PSO's primitive topology type: point, line, triangle or patchN (N control points,
    /// 1..=32); list/strip names are accepted. Given, the topology rules are checked (D3D12 #668,
    /// #673, #681: the GS input primitive must match it).
    #[arg(long)]
    topology: Option<String>,
    /// Output directory (receives plan.json and <stage>.spv per stage).
    #[arg(short = 'o', long = "out")]
    out: PathBuf,
    /// Also print the plan as JSON on standard output.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, thiserror::Error)]
enum Malformed {
    #[error("{}: {source}", path.display())]
    Io { path: PathBuf, source: std::io::Error },
    #[error("{}: not a DXBC container", path.display())]
    NotDxbc { path: PathBuf },
    #[error("{}: container: {source}", path.display())]
    Container { path: PathBuf, source: dxjit::container::ContainerError },
    #[error("{}: bitcode: {source}", path.display())]
    Bitcode { path: PathBuf, source: dxjit::bitcode::BitcodeError },
    #[error("{}: DXIL metadata: {source}", path.display())]
    Metadata { path: PathBuf, source: dxjit::dxil::DxilError },
    #[error("{}: {source}", path.display())]
    Stage { path: PathBuf, source: LinkError },
    #[error("{}: {source}", path.display())]
    Layout { path: PathBuf, source: toml::de::Error },
    #[error("--rasterized-stream: expected 0..3 or `none`, got {0:?}")]
    Stream(String),
    #[error("--topology: expected point, line, triangle or patch1..patch32, got {0:?}")]
    Topology(String),
    #[error("{0}")]
    Link(LinkError),
    #[error("{}: {source}", path.display())]
    Write { path: PathBuf, source: std::io::Error },
    #[error("plan serialization: {0}")]
    Json(serde_json::Error),
}

fn load(path: &Path) -> Result<(StageIo, Vec<u8>), Malformed> {
    let p = || path.to_path_buf();
    let bytes = std::fs::read(path).map_err(|source| Malformed::Io { path: p(), source })?;
    if !bytes.starts_with(b"DXBC") {
        return Err(Malformed::NotDxbc { path: p() });
    }
    let c = dxjit::container::Container::parse(&bytes).map_err(|source| Malformed::Container { path: p(), source })?;
    let prog = c.dxil_program().map_err(|source| Malformed::Container { path: p(), source })?;
    let m = dxjit::bitcode::read_module(prog.bitcode).map_err(|source| Malformed::Bitcode { path: p(), source })?;
    let info = dxjit::dxil::decode(&m).map_err(|source| Malformed::Metadata { path: p(), source })?;
    let io = StageIo::from_module(&info, &m).map_err(|source| Malformed::Stage { path: p(), source })?;
    Ok((io, bytes))
}

fn options(a: &LinkArgs) -> Result<LinkOptions, Malformed> {
    let input_layout = match &a.input_layout {
        None => None,
        Some(path) => {
            let text = std::fs::read_to_string(path).map_err(|source| Malformed::Io { path: path.clone(), source })?;
            Some(
                toml::from_str::<InputLayout>(&text)
                    .map_err(|source| Malformed::Layout { path: path.clone(), source })?,
            )
        }
    };
    let rasterized_stream = match a.rasterized_stream.as_str() {
        "none" => None,
        s => match s.parse::<u32>() {
            Ok(n) if n < 4 => Some(n),
            _ => return Err(Malformed::Stream(s.to_string())),
        },
    };
    let topology = match &a.topology {
        None => None,
        Some(t) => Some(TopologyType::parse(t).ok_or_else(|| Malformed::Topology(t.clone()))?),
    };
    Ok(LinkOptions { input_layout, rasterized_stream, stream_output: None, topology })
}

enum Outcome {
    /// The plan as JSON and the stages that failed to compile.
    Linked(String, Vec<(PathBuf, CompileError)>),
    Rejected(LinkError),
}

fn run(a: &LinkArgs) -> Result<Outcome, Malformed> {
    let loaded = a.shaders.iter().map(|p| load(p)).collect::<Result<Vec<_>, _>>()?;
    let (stages, bytes): (Vec<StageIo>, Vec<Vec<u8>>) = loaded.into_iter().unzip();
    let opts = options(a)?;
    let plan = match link(&stages, &opts) {
        Ok(plan) => plan,
        Err(e) if e.is_rejection() => return Ok(Outcome::Rejected(e)),
        Err(e) => return Err(Malformed::Link(e)),
    };
    let json = serde_json::to_string_pretty(&plan).map_err(Malformed::Json)? + "\n";
    std::fs::create_dir_all(&a.out).map_err(|source| Malformed::Write { path: a.out.clone(), source })?;
    let path = a.out.join("plan.json");
    std::fs::write(&path, &json).map_err(|source| Malformed::Write { path, source })?;
    let mut failed = Vec::new();
    for (index, sp) in plan.stages.iter().enumerate() {
        let Some(k) = stages.iter().position(|s| s.stage == sp.stage) else { continue };
        let (Some(src), Some(container)) = (a.shaders.get(k), bytes.get(k)) else { continue };
        match compile_stage(container, &plan, index, &CompileOptions::default()) {
            Ok(cs) => {
                let path = a.out.join(format!("{}.spv", sp.stage.name()));
                let data: Vec<u8> = cs.spirv.iter().flat_map(|w| w.to_le_bytes()).collect();
                std::fs::write(&path, data).map_err(|source| Malformed::Write { path, source })?;
            }
            Err(e) => failed.push((src.clone(), e)),
        }
    }
    Ok(Outcome::Linked(json, failed))
}

pub fn main(a: &LinkArgs) -> ExitCode {
    match run(a) {
        Ok(Outcome::Linked(json, failed)) => {
            if a.json {
                let _ = std::io::stdout().lock().write_all(json.as_bytes());
            }
            let mut code = 0u8;
            for (path, e) in &failed {
                eprintln!("error: {}: {e}", path.display());
                code = code.max(match e {
                    CompileError::Malformed(_) | CompileError::Binding(_) => 1,
                    CompileError::Unsupported { .. } => 2,
                    CompileError::Internal(_) => 4,
                });
            }
            ExitCode::from(code)
        }
        Ok(Outcome::Rejected(e)) => {
            eprintln!("pipeline rejected (D3D12 fails PSO creation):");
            for r in e.rejections() {
                eprintln!("  {r}");
            }
            ExitCode::from(EXIT_REJECTED)
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
