//! `twinjit verify FILE FUNC --arg ...`: the function compiled for its target against a
//! reference on the same inputs, through `Function::verify` (host, against the reference
//! interpreter) and `Kernel::verify` (`--target cuda --launch GRID,BLOCK`, the GPU against
//! cuda-sim, the kernel compiled for this CPU with its blocks in order, or the interpreter for
//! float16 kernels; see `twinjit::verify` for what is compared and how). Exit 0 when they
//! agree, 1 when they do not (the first differences are printed with their index and both
//! values), 2 when nothing was compared: no usable GPU (never the CPU against itself), or an
//! error before the comparison.

use crate::run::RunArgs;

/// The report and the exit code (0 agree, 1 differ, 2 not compared).
pub(crate) type Verdict = (String, u8);

pub(crate) fn verdict(r: &twinjit::verify::Report) -> Verdict {
    (r.to_string(), if r.agrees() { 0 } else { 1 })
}

/// `twinjit verify` on the host target.
pub(crate) fn host(a: &RunArgs, rtol: Option<f64>) -> Result<Verdict, String> {
    let mut p = crate::run::prepare(a)?;
    let r = p.function.verify(crate::run::arg_values(&mut p.bound), rtol).map_err(crate::run::err_text)?;
    Ok(verdict(&r))
}

/// The report of a `verify --target cuda` that found no GPU (exit 2).
pub(crate) fn no_gpu(why: &str) -> String {
    format!(
        "NOT COMPARED: no usable GPU ({}).\nverify compares the GPU's results with cuda-sim's (the kernel compiled for this CPU); it never compares the CPU with itself.\n",
        why.trim_start_matches("error: ").trim_end()
    )
}
