//! `dxjit asm FILE.ll [-o FILE.dxil] [--root-signature FILE] [--bitcode]`:
//! assembles module text (what `dxjit dis` prints; `docs/asm.md`) into a
//! DXBC container (or, with `--bitcode`, bare LLVM 3.7 bitcode).
//!
//! Exit status: 0 written; 1 unreadable input, malformed text (the message
//! names the line, column and rule and shows the line), a module that
//! cannot be written, or a bad root signature.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use dxjit::asm::{AssembleError, ContainerOptions};
use dxjit::container::{Container, RootSignature};

#[derive(clap::Args)]
pub struct Args {
    /// Module text (`.ll`): the output of `dxjit dis`, or written by hand.
    file: PathBuf,
    /// Where to write (default: FILE with the extension `.dxil`, or `.bc` with --bitcode).
    #[arg(short = 'o', long = "output")]
    output: Option<PathBuf>,
    /// Embed this root signature as the RTS0 part: a DXBC container with an RTS0 part
    /// (as `dxc -extractrootsignature` writes) or a bare serialized root signature.
    #[arg(long = "root-signature")]
    root_signature: Option<PathBuf>,
    /// Write the LLVM bitcode alone instead of a container.
    #[arg(long)]
    bitcode: bool,
}

/// The RTS0 payload of `bytes` (a container's part, or the bytes themselves), checked.
fn root_signature(path: &Path, bytes: &[u8]) -> Result<Vec<u8>, String> {
    let payload = if bytes.starts_with(b"DXBC") {
        let c = Container::parse(bytes).map_err(|e| format!("{}: container: {e}", path.display()))?;
        c.part(b"RTS0").ok_or_else(|| format!("{}: the container has no RTS0 part", path.display()))?.data.to_vec()
    } else {
        bytes.to_vec()
    };
    RootSignature::parse(&payload).map_err(|e| format!("{}: not a root signature: {e}", path.display()))?;
    Ok(payload)
}

/// A parse error with the line it names and a caret under the column.
fn show_parse_error(path: &Path, text: &str, e: &dxjit::asm::AsmError) -> String {
    let line = text.lines().nth(e.line.saturating_sub(1) as usize).unwrap_or("");
    let caret: String =
        line.chars().take(e.col.saturating_sub(1) as usize).map(|c| if c == '\t' { '\t' } else { ' ' }).collect();
    format!("{}:{e}\n  {line}\n  {caret}^", path.display())
}

pub fn main(a: Args) -> ExitCode {
    let text = match std::fs::read_to_string(&a.file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: {}: {e}", a.file.display());
            return ExitCode::from(1);
        }
    };
    let mut opts = ContainerOptions::default();
    if let Some(p) = &a.root_signature {
        match std::fs::read(p).map_err(|e| format!("{}: {e}", p.display())).and_then(|b| root_signature(p, &b)) {
            Ok(rs) => opts.root_signature = Some(rs),
            Err(e) => {
                eprintln!("error: --root-signature {e}");
                return ExitCode::from(1);
            }
        }
    }
    let result = if a.bitcode {
        dxjit::asm::parse_module(&text)
            .map_err(AssembleError::from)
            .and_then(|m| dxjit::bitcode::write_module(&m).map_err(AssembleError::from))
    } else {
        dxjit::asm::assemble(&text, &opts)
    };
    let bytes = match result {
        Ok(b) => b,
        Err(AssembleError::Parse(e)) => {
            eprintln!("error: {}", show_parse_error(&a.file, &text, &e));
            return ExitCode::from(1);
        }
        Err(e) => {
            eprintln!("error: {}: {e}", a.file.display());
            return ExitCode::from(1);
        }
    };
    let out = a.output.unwrap_or_else(|| a.file.with_extension(if a.bitcode { "bc" } else { "dxil" }));
    if let Err(e) = std::fs::write(&out, &bytes) {
        eprintln!("error: {}: {e}", out.display());
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}
