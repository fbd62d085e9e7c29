//! The `twinjit` command. This crate is the only one that knows clap (and, later, JSON and
//! `.npy`); every subcommand is a thin layer over the `twinjit` facade. Errors go to stderr
//! with exit code 1; usage errors exit 2 (clap's convention).

mod commands;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "twinjit", version, about = "JIT compiler for the Numba Python subset")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Check a module: list its functions (kind and, for given signatures, inferred types).
    Check {
        /// The Python file.
        file: String,
        /// A signature to infer, as FUNC=SIG (Numba spelling, e.g. `f=(float64[:], int64)`).
        #[arg(long = "sig", value_name = "FUNC=SIG")]
        sigs: Vec<String>,
    },
    /// Print the typed IR of a function (and of every function it calls) for one signature.
    Ir {
        /// The Python file.
        file: String,
        /// The function.
        func: String,
        /// The signature, e.g. `(float64[:], int64)`.
        #[arg(long)]
        sig: Option<String>,
        /// Print the untyped IR straight from the front end instead.
        #[arg(long)]
        untyped: bool,
        /// Show each instruction's source span (`@start..end`).
        #[arg(long)]
        spans: bool,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Check { file, sigs } => commands::check(&file, &sigs),
        Command::Ir { file, func, sig, untyped, spans } => commands::ir(&file, &func, sig.as_deref(), untyped, spans),
    };
    match result {
        Ok(out) => {
            print!("{out}");
            ExitCode::SUCCESS
        }
        Err(msg) => {
            eprintln!("{}", msg.trim_end());
            ExitCode::FAILURE
        }
    }
}
