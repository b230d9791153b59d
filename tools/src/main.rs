//! The `dxjit` command line.

mod cmd_asm;
mod cmd_bench;
mod cmd_compile;
mod cmd_conform;
mod cmd_corpus;
mod cmd_link;
mod cmd_run;

use clap::{Parser, Subcommand};
use dxjit_cli::dis;
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
    /// Assemble module text (what `dis` prints, or hand-written; docs/asm.md) into a DXBC container.
    Asm(cmd_asm::Args),
    /// Compile-time benchmark: per shader and per phase, throughput, memory, cache.
    Bench(cmd_bench::Args),
    /// Compile a DXIL shader to SPIR-V (all but mesh/amplification/libraries; graphics stages with the
    /// default link plan), or to SPIR-V assembly, WGSL, GLSL, MSL or HLSL with --emit.
    Compile(cmd_compile::Args),
    /// Read (and compile) every DXIL container of a corpus and report.
    Corpus(cmd_corpus::Args),
    /// Link a graphics pipeline (VS [HS DS] [GS] [PS]) as D3D12 does at PSO
    /// creation: exit 3 with the broken rule when D3D12 would reject it.
    Link(cmd_link::LinkArgs),
    /// Run one conformance spec (TOML) and print its result.
    Run(cmd_run::Args),
    /// Run every conformance spec in a folder.
    Conform(cmd_conform::Args),
}

fn main() -> ExitCode {
    if !dxjit::verify::RUNS_ON_COMPILE {
        eprintln!("warning: built with dxjit/bench-no-verify: shaders are compiled without the verifier");
    }
    match Cli::parse().cmd {
        Cmd::Dis { file, json } => match dis::run(&file, json) {
            Ok(out) => {
                // A closed pipe (`dxjit dis x | head`) is not an error worth a panic.
                let _ = std::io::stdout().lock().write_all(out.as_bytes());
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::FAILURE
            }
        },
        Cmd::Asm(a) => cmd_asm::main(a),
        Cmd::Bench(a) => cmd_bench::main(a),
        Cmd::Compile(a) => cmd_compile::main(a),
        Cmd::Corpus(a) => cmd_corpus::main(a),
        Cmd::Link(a) => cmd_link::main(&a),
        Cmd::Run(a) => cmd_run::main(a),
        Cmd::Conform(a) => cmd_conform::main(a),
    }
}
