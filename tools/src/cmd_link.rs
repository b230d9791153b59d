//! `dxjit link`: validates the shaders of one graphics pipeline as D3D12 does
//! at PSO creation and writes the linker's plan (`plan.json`).

use clap::Args;
use dxjit::link::{link, InputLayout, LinkError, LinkOptions, StageIo};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Exit status when D3D12 would reject the pipeline (a named interface rule is broken).
pub const EXIT_REJECTED: u8 = 3;

#[derive(Args)]
#[command(after_help = "Exit status: 0 linked; 1 malformed input (unreadable file, bad DXIL, not a graphics \
stage, bad input layout); 3 pipeline rejected as D3D12 would reject it at PSO creation (the broken rule, stage, \
semantic and register are printed).\n\nFor now only plan.json is written; per-stage SPIR-V will be written here \
once graphics lowering lands.")]
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
    /// Output directory (receives plan.json).
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
    #[error("{0}")]
    Link(LinkError),
    #[error("{}: {source}", path.display())]
    Write { path: PathBuf, source: std::io::Error },
    #[error("plan serialization: {0}")]
    Json(serde_json::Error),
}

fn load(path: &Path) -> Result<StageIo, Malformed> {
    let p = || path.to_path_buf();
    let bytes = std::fs::read(path).map_err(|source| Malformed::Io { path: p(), source })?;
    if !bytes.starts_with(b"DXBC") {
        return Err(Malformed::NotDxbc { path: p() });
    }
    let c = dxjit::container::Container::parse(&bytes).map_err(|source| Malformed::Container { path: p(), source })?;
    let prog = c.dxil_program().map_err(|source| Malformed::Container { path: p(), source })?;
    let m = dxjit::bitcode::read_module(prog.bitcode).map_err(|source| Malformed::Bitcode { path: p(), source })?;
    let info = dxjit::dxil::decode(&m).map_err(|source| Malformed::Metadata { path: p(), source })?;
    StageIo::from_module(&info, &m).map_err(|source| Malformed::Stage { path: p(), source })
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
    Ok(LinkOptions { input_layout, rasterized_stream })
}

enum Outcome {
    Linked(String),
    Rejected(LinkError),
}

fn run(a: &LinkArgs) -> Result<Outcome, Malformed> {
    let stages = a.shaders.iter().map(|p| load(p)).collect::<Result<Vec<_>, _>>()?;
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
    Ok(Outcome::Linked(json))
}

pub fn main(a: &LinkArgs) -> ExitCode {
    match run(a) {
        Ok(Outcome::Linked(json)) => {
            if a.json {
                let _ = std::io::stdout().lock().write_all(json.as_bytes());
            }
            ExitCode::SUCCESS
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
