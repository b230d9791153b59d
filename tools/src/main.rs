//! The `dxjit` command line.

mod cmd_link;
mod dis;

use clap::{Parser, Subcommand};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "dxjit", version, about = "DXIL to SPIR-V compiler")]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Disassemble a DXIL shader: stage, versions, entry points, signatures,
    /// resources and properties, then the module's IR.
    Dis {
        /// A DXBC container (or raw LLVM bitcode).
        file: PathBuf,
        /// Print a JSON summary instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Link a graphics pipeline (VS [HS DS] [GS] [PS]) as D3D12 does at PSO
    /// creation: exit 3 with the broken rule when D3D12 would reject it.
    Link(cmd_link::LinkArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.cmd {
        Cmd::Dis { file, json } => dis::run(&file, json),
        Cmd::Link(args) => return cmd_link::main(&args),
    };
    match result {
        Ok(out) => {
            // A closed pipe (`dxjit dis x | head`) is not an error worth a panic.
            let _ = std::io::stdout().lock().write_all(out.as_bytes());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
