//! The dxjit command line.

use clap::{Parser, Subcommand};
use std::process::ExitCode;

mod cmd_conform;
mod cmd_run;

#[derive(Parser)]
#[command(name = "dxjit", version, about = "DXIL to SPIR-V JIT: tools")]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Run one conformance spec (TOML) and print its result.
    Run(cmd_run::Args),
    /// Run every conformance spec in a folder.
    Conform(cmd_conform::Args),
}

fn main() -> ExitCode {
    match Cli::parse().cmd {
        Cmd::Run(a) => cmd_run::main(a),
        Cmd::Conform(a) => cmd_conform::main(a),
    }
}
