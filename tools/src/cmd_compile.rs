//! `dxjit compile FILE [-o OUT] [--emit spirv|spvasm|wgsl|glsl|msl|hlsl]
//! [--entry NAME] [--binding-map FILE] [--validate]`.
//!
//! `--emit spirv` (the default) writes the binary to `-o`; the text forms
//! (see [`dxjit_cli::emit`]) go to `-o` or, without it, to stdout.
//!
//! Exit status: 0 success, 1 malformed input (or I/O, or `--validate`
//! failure), 2 unsupported feature (the message names it), 3 internal error,
//! 4 no `--emit` output for this module (naga cannot read or write it; the
//! message says which and why).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use dxjit::{compile, BindingMap, CompileError, CompileOptions, Robustness};

use dxjit_cli::emit::{self, Emit};

#[derive(clap::Args)]
pub struct Args {
    /// A DXBC container with a DXIL program.
    file: PathBuf,
    /// Where to write the output (required for `--emit spirv`; text goes to stdout without it).
    #[arg(short = 'o', long = "output")]
    output: Option<PathBuf>,
    /// What to write: the SPIR-V binary, its assembly, or WGSL/GLSL/MSL/HLSL through naga.
    #[arg(long, value_enum, default_value_t = Emit::Spirv)]
    emit: Emit,
    /// Entry point (default: the module's first).
    #[arg(long)]
    entry: Option<String>,
    /// A TOML binding map (see docs/binding-model.md).
    #[arg(long = "binding-map")]
    binding_map: Option<PathBuf>,
    /// Rely on VK_EXT_robustness2 instead of emitting bounds checks.
    #[arg(long)]
    robustness2: bool,
    /// SPIR-V version of the output, e.g. 1.3 (default) or 1.5.
    #[arg(long = "spirv-version")]
    spirv_version: Option<String>,
    /// Pixel shaders: lower `discard` to OpKill instead of demote-to-helper.
    #[arg(long)]
    kill: bool,
    /// Run spirv-val ($DXJIT_SPIRV_VAL or spirv-val on PATH) on the result; failure exits 1.
    #[arg(long)]
    validate: bool,
}

pub fn main(a: Args) -> ExitCode {
    if a.emit == Emit::Spirv && a.output.is_none() {
        eprintln!("error: --emit spirv writes a binary: give -o OUT.spv (or --emit spvasm for text)");
        return ExitCode::from(1);
    }
    let bytes = match std::fs::read(&a.file) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("error: {}: {e}", a.file.display());
            return ExitCode::from(1);
        }
    };
    let binding_map = match &a.binding_map {
        None => None,
        Some(p) => match std::fs::read_to_string(p)
            .map_err(|e| e.to_string())
            .and_then(|s| BindingMap::from_toml_str(&s).map_err(|e| e.to_string()))
        {
            Ok(m) => Some(m),
            Err(e) => {
                eprintln!("error: {}: {e}", p.display());
                return ExitCode::from(1);
            }
        },
    };
    let spirv_version = match a.spirv_version.as_deref().map(parse_version) {
        None => (1, 3),
        Some(Some(v)) => v,
        Some(None) => {
            eprintln!("error: --spirv-version takes MAJOR.MINOR, e.g. 1.3");
            return ExitCode::from(1);
        }
    };
    let opts = CompileOptions {
        entry_point: a.entry.clone(),
        binding_map,
        robustness: if a.robustness2 { Robustness::DeviceRobustness2 } else { Robustness::Explicit },
        spirv_version,
        demote_to_helper: !a.kill,
        ..CompileOptions::default()
    };
    let shader = match compile(&bytes, &opts) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {}: {e}", a.file.display());
            return ExitCode::from(match e {
                CompileError::Malformed(_) | CompileError::Binding(_) => 1,
                CompileError::Unsupported { .. } => 2,
                CompileError::Internal(_) => 3,
            });
        }
    };
    if a.validate {
        if let Err(e) = dxjit_conformance::spirv_val::validate(&shader.spirv) {
            eprintln!("error: spirv-val rejected the output:\n{e}");
            return ExitCode::from(1);
        }
    }
    let out: Vec<u8> = if a.emit == Emit::Spirv {
        shader.spirv.iter().flat_map(|w| w.to_le_bytes()).collect()
    } else {
        match emit::text(&shader.spirv, a.emit, shader.stage.name()) {
            Ok(t) => t.into_bytes(),
            Err(e) => {
                eprintln!("error: {}: {e}", a.file.display());
                return ExitCode::from(4);
            }
        }
    };
    let written = match &a.output {
        Some(path) => std::fs::write(path, out).map_err(|e| format!("{}: {e}", path.display())),
        None => std::io::stdout().lock().write_all(&out).map_err(|e| format!("stdout: {e}")),
    };
    if let Err(e) = written {
        eprintln!("error: {e}");
        return ExitCode::from(1);
    }
    for b in &shader.bindings {
        eprintln!(
            "{}{}{} space{} -> set {} binding {} ({:?}, {})",
            b.class.letter(),
            b.lower_bound,
            b.count.map_or("[]".to_string(), |c| if c == 1 { String::new() } else { format!("[{c}]") }),
            b.space,
            b.set,
            b.binding,
            b.descriptor,
            b.kind
        );
    }
    ExitCode::SUCCESS
}

fn parse_version(s: &str) -> Option<(u8, u8)> {
    let (a, b) = s.split_once('.')?;
    Some((a.parse().ok()?, b.parse().ok()?))
}
