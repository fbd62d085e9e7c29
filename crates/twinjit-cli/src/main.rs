//! The `twinjit` command. This crate is the only one that knows clap (and, later, JSON and
//! `.npy`); every subcommand is a thin layer over the `twinjit` facade. Errors go to stderr
//! with exit code 1; usage errors exit 2 (clap's convention).

#![forbid(unsafe_code)]

mod commands;
mod npy;
mod run;
mod run_cuda;
mod run_interp;
mod sql;
mod verify;

use clap::{Parser, Subcommand};
use std::path::PathBuf;
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
        /// Compile undecorated functions too, as `numba.njit(f)` would.
        #[arg(long)]
        compile_plain: bool,
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
    /// Run a function once: prints {"return": ..., "compile_ms": ..., "run_ms": ...}.
    Run {
        #[command(flatten)]
        common: Common,
        /// Write every array argument after the call to DIR/NAME.npy.
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
    },
    /// Time a function: prints {"compile_ms", "median_ms", "min_ms", "max_ms", "reps"}.
    Bench {
        #[command(flatten)]
        common: Common,
        /// Untimed calls before measuring.
        #[arg(long, default_value_t = 3)]
        warmup: usize,
        /// Timed calls.
        #[arg(long, default_value_t = 20)]
        reps: usize,
    },
    /// Run a function compiled for its target and in the reference interpreter on the same
    /// inputs and compare the result and every array argument: exit 0 when they agree, 1 when
    /// they differ (the first differences are printed), 2 when there is no GPU to compare.
    Verify {
        #[command(flatten)]
        common: Common,
        /// Relative tolerance for floats, scaled by each array's largest magnitude (default: 0
        /// on the host; on the GPU 1e-12 for float64, 1e-5 for float32, 1e-3 for float16).
        #[arg(long)]
        rtol: Option<f64>,
    },
    /// Print the Cranelift IR of a function (and its callees) for one signature.
    Clif {
        /// The Python file.
        file: String,
        /// The function.
        func: String,
        /// The signature, e.g. `(float64[:], int64)`.
        #[arg(long)]
        sig: Option<String>,
    },
    /// Print the machine code Cranelift generated for a function and its callees.
    Asm {
        /// The Python file.
        file: String,
        /// The function.
        func: String,
        /// The signature, e.g. `(float64[:], int64)`.
        #[arg(long)]
        sig: Option<String>,
    },
    /// Print the PTX of a kernel (or of a one-thread entry calling any function) for one
    /// signature; needs no GPU.
    Ptx(GpuCode),
    /// Print the LLVM IR twinjit generates for the NVPTX target (before LLVM optimises it).
    Llvm(GpuCode),
    /// Run a SQL query (Apache DataFusion) over Parquet and CSV files, with the functions of
    /// Numba modules as SQL functions: `@vectorize` ufuncs and `@njit` functions of numbers are
    /// scalar functions, `@njit` functions of one 1-D array that return a number are aggregates.
    /// Needs a build with `--features sql`.
    Sql {
        /// A Numba module whose functions become SQL functions (repeatable).
        #[arg(long = "udfs", value_name = "FILE.py")]
        udfs: Vec<PathBuf>,
        /// A table: NAME=PATH, a .parquet or .csv file or a directory of them (repeatable).
        #[arg(long = "table", value_name = "NAME=PATH")]
        tables: Vec<String>,
        /// Write the result to a .parquet or .csv file instead of printing it.
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
        /// Progress on stderr once a second (default: when stderr is a terminal).
        #[arg(long, value_name = "true|false")]
        progress: Option<bool>,
        /// The query.
        query: String,
    },
    /// List CUDA devices (like numba.cuda.detect()).
    Detect,
    /// The on-disk compilation cache: dir, list, stats, clear, explain.
    Cache {
        #[command(subcommand)]
        action: CacheAction,
    },
}

#[derive(Subcommand)]
enum CacheAction {
    /// Print the cache directory.
    Dir,
    /// One line per entry: function, signature, target, size, last use.
    List,
    /// Number of entries and bytes.
    Stats,
    /// Remove every entry.
    Clear,
    /// Why a function and signature would hit or miss (which part of the key changed).
    Explain {
        /// The Python file.
        file: String,
        /// The function.
        func: String,
        /// The signature.
        #[arg(long)]
        sig: String,
        /// host, cuda or ptx:sm_XX.
        #[arg(long, default_value = "host")]
        target: String,
    },
}

/// What `ptx` and `llvm` compile; needs no GPU.
#[derive(clap::Args)]
struct GpuCode {
    /// The Python file.
    file: String,
    /// The kernel or function.
    func: String,
    /// The signature, e.g. `void(float32[:], float32[:])`.
    #[arg(long)]
    sig: String,
    /// The GPU architecture.
    #[arg(long, default_value = "sm_90")]
    arch: String,
    /// The launch facts the kernel is specialised on: `general` (any arguments), `noalias`
    /// (no two arrays overlap), `index32` (every array under 2^31 elements) or `all` (both,
    /// what a launch of distinct, smaller arrays runs).
    #[arg(long, default_value = "general")]
    facts: String,
}

#[derive(clap::Args)]
struct Common {
    /// The Python file.
    file: String,
    /// The function.
    func: String,
    /// Where to run: host, cuda, cuda-sim (for `run` and `bench`: @cuda.jit kernels compiled
    /// for this CPU, bounds checked, no GPU), or (for `run`) interp, the reference interpreter
    /// (kernels over the launch's grid, no GPU).
    #[arg(long, default_value = "host")]
    target: String,
    /// With `--target cuda-sim` or `interp`: fail a kernel launch on a data race between its threads
    /// (shared memory between barriers, array arguments within the launch), naming both
    /// threads, the element and both lines.
    #[arg(long)]
    race_check: bool,
    /// Kernel launch shape for --target cuda, cuda-sim or interp: GRID,BLOCK, e.g.
    /// "(64,64),(16,16)".
    #[arg(long)]
    launch: Option<String>,
    /// An argument: NAME=PATH.npy, NAME=DTYPE:VALUE (e.g. n=int64:100, k=uint8:7, flag=bool:true),
    /// NAME=str:TEXT (a string, e.g. method=str:linear), NAME=none, a tuple of scalars
    /// NAME=(int64:3,float64:0.5), or NAME=xoroshiro128p:N:SEED
    /// (numba.cuda.random's create_xoroshiro128p_states(N, SEED)).
    #[arg(long = "arg", value_name = "NAME=VALUE")]
    args: Vec<String>,
    /// Dynamic shared memory per block for --target cuda, in bytes (`cuda.shared.array(0, dtype)`).
    #[arg(long, value_name = "BYTES", default_value_t = 0)]
    shared_mem: u32,
    /// The on-disk cache: `decorator` (functions with cache=True, the default), `always` or
    /// `off`. The directory is TWINJIT_CACHE_DIR or ~/.cache/twinjit.
    #[arg(long, value_name = "MODE", default_value = "decorator")]
    cache: String,
    /// Override bounds checking (default: the decorator's `boundscheck=`, else on for host
    /// functions and off for kernels, as in Numba).
    #[arg(long, value_name = "true|false")]
    boundscheck: Option<bool>,
    /// Compile undecorated functions too, as `numba.njit(f)` compiles a plain function at run
    /// time (how Numba's own tests compile theirs); those that do not compile are refused.
    #[arg(long)]
    compile_plain: bool,
}

impl Common {
    fn into_run_args(self) -> run::RunArgs {
        run::RunArgs {
            file: self.file,
            func: self.func,
            target: self.target,
            launch: self.launch,
            args: self.args,
            boundscheck: self.boundscheck,
            shared_mem: self.shared_mem,
            cache: self.cache,
            compile_plain: self.compile_plain,
            race_check: self.race_check,
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Check { file, sigs, compile_plain } => commands::check(&file, &sigs, compile_plain),
        Command::Ir { file, func, sig, untyped, spans } => commands::ir(&file, &func, sig.as_deref(), untyped, spans),
        Command::Run { common, out } => run::run(&common.into_run_args(), out),
        Command::Bench { common, warmup, reps } => run::bench(&common.into_run_args(), warmup, reps),
        Command::Verify { common, rtol } => {
            let a = common.into_run_args();
            let verdict = if let Err(e) = run::check_interp_flags(&a, "verify") {
                Err(e)
            } else if a.target == "cuda" || a.target.starts_with("cuda:") {
                run_cuda::verify(&a, rtol)
            } else {
                verify::host(&a, rtol)
            };
            return match verdict {
                Ok((text, code)) => {
                    use std::io::Write;
                    let _ = std::io::stdout().write_all(text.as_bytes());
                    ExitCode::from(code)
                }
                Err(msg) => {
                    eprintln!("{}", msg.trim_end());
                    ExitCode::from(2)
                }
            };
        }
        Command::Clif { file, func, sig } => commands::listing(&file, &func, sig.as_deref(), false),
        Command::Asm { file, func, sig } => commands::listing(&file, &func, sig.as_deref(), true),
        Command::Ptx(c) => commands::ptx(&c.file, &c.func, &c.sig, &c.arch, &c.facts, false),
        Command::Llvm(c) => commands::ptx(&c.file, &c.func, &c.sig, &c.arch, &c.facts, true),
        Command::Detect => commands::detect(),
        Command::Sql { udfs, tables, out, progress, query } => sql::run(udfs, &tables, out, progress, query),
        Command::Cache { action } => match action {
            CacheAction::Dir => commands::cache_dir(),
            CacheAction::List => commands::cache_list(),
            CacheAction::Stats => commands::cache_stats(),
            CacheAction::Clear => commands::cache_clear(),
            CacheAction::Explain { file, func, sig, target } => commands::cache_explain(&file, &func, &sig, &target),
        },
    };
    // Write errors (a closed pipe) are ignored rather than turned into a panic.
    use std::io::Write;
    match result {
        Ok(out) => {
            let _ = std::io::stdout().write_all(out.as_bytes());
            ExitCode::SUCCESS
        }
        Err(msg) => {
            let _ = writeln!(std::io::stderr(), "{}", msg.trim_end());
            ExitCode::FAILURE
        }
    }
}
