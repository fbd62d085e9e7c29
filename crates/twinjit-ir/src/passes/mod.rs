//! Passes over typed IR and the pipeline that runs them.
//!
//! One pass per file. Each pass reports whether it changed the function; the pipeline verifies
//! after every pass in debug builds (so in every test; `TWINJIT_VERIFY=1` in release builds)
//! and dumps the IR of a pass to stderr when
//! `TWINJIT_DUMP` names it (`TWINJIT_DUMP=expand_indexing`, or `all`).

mod bounds_check_elim;
mod branch_fold;
mod dce;
mod expand_indexing;
mod forward_store;
mod gvn;
mod if_convert;
pub mod inline;
mod licm;
mod loop_version;
pub mod parallel;
mod refcount;
mod simplify_cfg;
pub mod unroll;

pub use bounds_check_elim::{BoundsCheckElim, BoundsCheckElimIndex32};
pub use branch_fold::BranchFold;
pub use dce::Dce;
pub use expand_indexing::ExpandIndexing;
pub use forward_store::ForwardStore;
pub use gvn::Gvn;
pub use if_convert::IfConvert;
pub use licm::Licm;
pub use loop_version::LoopVersion;
pub use refcount::Refcount;
pub use simplify_cfg::SimplifyCfg;

use crate::function::Function;
use crate::infer::TypedProgram;
use crate::verify::{verify, Level, VerifyError};

/// A transformation of one typed function.
pub trait Pass {
    /// The name used by `TWINJIT_DUMP`.
    fn name(&self) -> &'static str;
    /// Runs the pass; returns whether it changed `f`.
    fn run(&self, f: &mut Function) -> bool;
}

/// Options of the standard pipeline.
#[derive(Clone, Copy, Debug)]
pub struct PipelineOptions {
    /// Insert `checkindex` before every array access.
    pub boundscheck: bool,
}

/// Whether `TWINJIT_DUMP` asks for pass `name`.
pub fn dump_requested(name: &str) -> bool {
    std::env::var("TWINJIT_DUMP").is_ok_and(|v| v.split(',').any(|p| p == name || p == "all"))
}

/// Whether to run the verifier after every pass: always in debug builds (every test), and in
/// release builds when `TWINJIT_VERIFY` is set.
pub fn verify_each_pass() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| cfg!(debug_assertions) || std::env::var_os("TWINJIT_VERIFY").is_some())
}

/// Each block's predecessors among the blocks of `rpo` (the reachable ones), each listed once.
pub(crate) fn predecessors(f: &Function, rpo: &[crate::function::Block]) -> Vec<Vec<crate::function::Block>> {
    let mut preds = vec![Vec::new(); f.blocks.len()];
    for &b in rpo {
        for t in f.blocks[b.index()].succs() {
            if !preds[t.block.index()].contains(&b) {
                preds[t.block.index()].push(b);
            }
        }
    }
    preds
}

/// The natural loop of header `h` whose back edges come from `latches`: `h` and every block
/// that reaches a latch without passing `h` (`preds` from [`predecessors`]).
pub(crate) fn natural_loop(
    preds: &[Vec<crate::function::Block>],
    h: crate::function::Block,
    latches: &[crate::function::Block],
) -> hashbrown::HashSet<crate::function::Block> {
    let mut body = hashbrown::HashSet::from([h]);
    let mut work = latches.to_vec();
    while let Some(b) = work.pop() {
        if body.insert(b) {
            work.extend(preds[b.index()].iter().copied());
        }
    }
    body
}

/// Runs `passes` over `f`, verifying at `level` after each (see [`verify_each_pass`]); returns
/// the verifier error of a broken pass.
///
/// No pass lowers the IR but `expand_indexing` (typed to lowered); every other pass keeps the
/// level it finds, so one level holds after each pass of a list: `Untyped` for `simplify_cfg`
/// in the front end, `Lowered` in the pipeline, which starts with `expand_indexing`.
pub fn run_passes(f: &mut Function, level: Level, passes: &[&dyn Pass]) -> Result<(), VerifyError> {
    for p in passes {
        let changed = p.run(f);
        if dump_requested(p.name()) {
            eprintln!("; after {} (changed: {changed})\n{f}", p.name());
        }
        if verify_each_pass() {
            verify(f, level)?;
        }
    }
    Ok(())
}

/// `if_convert`, then `simplify_cfg`, `gvn` and `bounds_check_elim` again when it changed something: a
/// condition it joined into one `select` (a chained comparison `0 <= b < n`, an `and` of two
/// tests) now guards its branch directly, and the values its right side computed now dominate
/// that branch, so checks the first round could not prove (`c[b]` under `0 <= b < len(c)`) go.
struct IfConvertThenRecheck;

impl Pass for IfConvertThenRecheck {
    fn name(&self) -> &'static str {
        "if_convert"
    }

    fn run(&self, f: &mut Function) -> bool {
        let changed = IfConvert.run(f);
        if changed {
            // (`simplify_cfg` first: the joined condition reaches its branch through a block
            // parameter until the jump to it is threaded.)
            SimplifyCfg.run(f);
            Gvn.run(f);
            BoundsCheckElim.run(f);
        }
        changed
    }
}

/// Why the pipeline failed.
#[derive(Debug)]
pub enum PipelineError {
    /// A pass broke an invariant (a compiler bug).
    Verify(VerifyError),
    /// The program is refused (a `prange` loop whose iterations are not independent).
    Diagnostics(Vec<twinjit_diag::Diagnostic>),
}

impl From<VerifyError> for PipelineError {
    fn from(e: VerifyError) -> Self {
        PipelineError::Verify(e)
    }
}

/// The standard pipeline after inference: `inline` (small leaf functions into their callers),
/// then per function `expand_indexing`, `gvn`, `branch_fold`, `bounds_check_elim`, `licm`,
/// `dce`, `simplify_cfg`, then `parallel` (which outlines `prange` loops into chunk functions, added
/// to the program), then `loop_version` (after outlining, so chunk loops are versioned too), `dce`,
/// `forward_store` (on the versioned loops, which have no checks left) and `refcount`.
/// `boundscheck_for(source_name)` decides per function (decorator or engine option).
pub fn run_pipeline(program: &mut TypedProgram, boundscheck_for: impl Fn(&str) -> bool) -> Result<(), PipelineError> {
    inline::inline_leaves(program, &boundscheck_for);
    for tf in &mut program.functions {
        if dump_requested("infer") {
            eprintln!("; after infer\n{}", tf.func);
        }
        if verify_each_pass() {
            verify(&tf.func, Level::Typed)?;
        }
        let expand = ExpandIndexing { boundscheck: boundscheck_for(&tf.source_name) };
        run_passes(
            &mut tf.func,
            Level::Lowered,
            &[&expand, &Gvn, &BranchFold, &BoundsCheckElim, &Licm, &IfConvertThenRecheck, &Dce, &SimplifyCfg],
        )?;
    }
    parallel::outline(program).map_err(PipelineError::Diagnostics)?;
    for tf in &mut program.functions {
        if dump_requested("parallel") {
            eprintln!("; after parallel\n{}", tf.func);
        }
        run_passes(&mut tf.func, Level::Lowered, &[&LoopVersion, &Dce, &ForwardStore, &Refcount])?;
    }
    Ok(())
}

/// What a program gains when every array it sees has dimensions below 2^31 (a CUDA kernel's
/// `index32` launch variant): `bounds_check_elim` again with dimensions as small bounds (the
/// counter of a grid-stride loop over an array loses its negative-index wrap), then `dce`.
/// Runs on the pipeline's output.
pub fn narrow_to_index32(program: &mut TypedProgram) -> Result<(), PipelineError> {
    for tf in &mut program.functions {
        run_passes(&mut tf.func, Level::Lowered, &[&BoundsCheckElimIndex32, &Dce])?;
    }
    Ok(())
}
