//! The reference interpreter over lowered typed IR: the definition of twinjit's semantics and
//! the oracle of every differential test.
//!
//! Semantics: int64 arithmetic wraps; `//` and `%` floor (the result of `%` has the divisor's
//! sign); under the Python error model division by zero raises `ZeroDivisionError` (the
//! `checknonzero` inserted by inference), under the NumPy model integer division by zero gives
//! 0 and float division IEEE results; `int ** negative` follows Numba (0 unless the base is ±1;
//! `0 ** -1` raises); `float ** int` is computed by repeated squaring; float to int conversion
//! truncates and saturates (NaN gives 0); shifts by 64 or more (or negative counts) give 0
//! (`<<`) or the sign (`>>`). Errors come back as [`RuntimeError`] values, never panics.
//!
//! [`run`] calls a host function; [`run_kernel`] launches a `@cuda.jit` kernel over a grid
//! (the CUDA execution model is described in `kernel.rs`). Both drive the same instruction
//! loop (`Machine::exec`), which runs one thread's frame stack until it returns or stops at a
//! CUDA synchronisation point; only kernel launches give it a device context, so CUDA
//! builtins in a plain `run` are `Unsupported`.

mod arith;
mod cuda;
mod kernel;
pub mod race;
mod value;

/// What `print(...)` writes, piece by piece, to standard output (the interpreter's and the
/// host runtime's: one definition of the text).
pub mod print_out {
    use std::io::Write;

    fn write(s: &[u8]) {
        let _ = std::io::stdout().lock().write_all(s);
    }

    /// The first `n` (at most 8) little-endian bytes of `bits`.
    pub fn bytes(bits: i64, n: i64) {
        let b = bits.to_le_bytes();
        write(&b[..n.clamp(0, 8) as usize]);
    }

    /// `str` of an integer.
    pub fn int(x: i64) {
        write(x.to_string().as_bytes());
    }

    /// `str` of a uint64.
    pub fn uint(x: u64) {
        write(x.to_string().as_bytes());
    }

    /// `str` of a float: Python's repr.
    pub fn float(x: f64) {
        write(crate::print::python_float_repr(x).as_bytes());
    }

    /// `True` / `False`.
    pub fn boolean(x: bool) {
        write(if x { b"True" } else { b"False" });
    }

    /// Python's `str` of the complex number `re + im j`.
    pub fn complex(re: f64, im: f64) {
        write(crate::print::python_complex_repr(re, im).as_bytes());
    }
}

pub use arith::{cast, divmod_f32, divmod_f64, int_floordiv, int_gcd, int_mod, int_pow, powi_f32, powi_f64, uint_pow};
pub use kernel::{run_kernel, KernelLaunch, KernelThread};
use race::AccessKind;
pub use value::{ArrayData, ArrayRef, ListRef, Owner, RtValue};

use crate::abi::ALLOCATION_FAILED;
use std::cell::RefCell;
use std::rc::Rc;

use crate::builtins::Builtin;
use crate::function::*;
use crate::infer::TypedProgram;
use crate::types::{Scalar, Type};
use hashbrown::HashMap;
use smallvec::SmallVec;
use std::fmt;
use twinjit_diag::{SourceMap, Span};

/// What went wrong at run time.
#[derive(Clone, Debug, PartialEq)]
pub enum RuntimeErrorKind {
    /// Division or modulo by zero, or `0 ** negative`.
    ZeroDivision,
    /// An index outside its dimension (bounds checking on).
    Index {
        /// The index after wrapping negative values.
        index: i64,
        /// The dimension's length.
        len: i64,
        /// Which axis.
        axis: u8,
    },
    /// An access outside the array's memory with bounds checking off (undefined behaviour in
    /// compiled code; the interpreter reports it).
    OutOfBounds,
    /// Calls nested deeper than the interpreter's limit.
    RecursionLimit,
    /// The interpreter's step budget ran out (used by fuzzing to stop endless loops).
    OutOfFuel,
    /// An operation the interpreter does not run (CUDA intrinsics outside a kernel launch).
    Unsupported(String),
    /// The threads of a block cannot all meet at a barrier or warp shuffle: some exited while
    /// others wait at a barrier, threads wait at different kinds of barrier, or lanes named in
    /// a shuffle's mask wait elsewhere (a hang or undefined behaviour on a GPU).
    BarrierDivergence(String),
    /// A kernel launch configuration CUDA would refuse (zero or too large dimensions).
    InvalidLaunch(String),
    /// With [`InterpOptions::race_check`]: two threads touched one element of a shared array
    /// between two barriers of their block, or of an array argument with nothing ordering them
    /// (two blocks without a grid sync between), at least one of them writing (an atomic races
    /// with a plain write only; `what` names both threads and the element; the error's span is
    /// the second access, `other` the first).
    DataRace {
        /// The two accesses, in words.
        what: String,
        /// Where the first access is.
        other: Span,
    },
    /// A `raise` or a failed `assert` in the program.
    Raised {
        /// The Python class name (`ValueError`, `AssertionError`, a class of the module).
        class: String,
        /// `str(exc)`: empty when raised without arguments.
        message: String,
    },
}

impl RuntimeErrorKind {
    /// The Python exception name (`ZeroDivisionError`, `IndexError`, ...).
    pub fn python_name(&self) -> &str {
        match self {
            RuntimeErrorKind::Raised { class, .. } => class,
            RuntimeErrorKind::ZeroDivision => "ZeroDivisionError",
            RuntimeErrorKind::Index { .. } | RuntimeErrorKind::OutOfBounds => "IndexError",
            RuntimeErrorKind::RecursionLimit => "RecursionError",
            RuntimeErrorKind::OutOfFuel => "TimeoutError",
            RuntimeErrorKind::Unsupported(_) => "NotImplementedError",
            RuntimeErrorKind::BarrierDivergence(_) => "RuntimeError",
            RuntimeErrorKind::InvalidLaunch(_) => "ValueError",
            RuntimeErrorKind::DataRace { .. } => "RuntimeError",
        }
    }
}

/// A runtime error: kind, the function (source name) and the span of the failing operation.
#[derive(Clone, Debug, PartialEq)]
pub struct RuntimeError {
    /// What happened.
    pub kind: RuntimeErrorKind,
    /// Source name of the function.
    pub function: String,
    /// The failing operation.
    pub span: Span,
    /// In a kernel launch, the thread that failed (`None` for host calls and launch errors).
    pub thread: Option<KernelThread>,
}

impl RuntimeError {
    /// The Python exception name (`ZeroDivisionError`, `IndexError`, ...).
    pub fn python_name(&self) -> &str {
        self.kind.python_name()
    }

    /// `file:line:col` of a data race's first access.
    fn race_other_location(&self, sources: &SourceMap) -> Option<String> {
        let RuntimeErrorKind::DataRace { other, .. } = &self.kind else { return None };
        sources.location(*other).map(|(file, lc)| format!("{file}:{}:{}", lc.line, lc.col))
    }

    /// The message with `file:line:col` resolved through `sources`.
    pub fn describe(&self, sources: &SourceMap) -> String {
        let here = match sources.location(self.span) {
            Some((file, lc)) => format!("{self} at {file}:{}:{}", lc.line, lc.col),
            None => self.to_string(),
        };
        match self.race_other_location(sources) {
            Some(other) => format!("{here}; the other access is at {other}"),
            None => here,
        }
    }
}

impl fmt::Display for RuntimeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            RuntimeErrorKind::ZeroDivision => write!(f, "ZeroDivisionError: division by zero in `{}`", self.function),
            RuntimeErrorKind::Index { axis: crate::function::TUPLE_INDEX_AXIS, .. } => {
                write!(f, "IndexError: tuple index out of range in `{}`", self.function)
            }
            RuntimeErrorKind::Index { index, len, axis } => write!(
                f,
                "IndexError: index {index} is out of bounds for axis {axis} with size {len} in `{}`",
                self.function
            ),
            RuntimeErrorKind::OutOfBounds => {
                write!(f, "IndexError: access outside the array with bounds checking off in `{}`", self.function)
            }
            RuntimeErrorKind::RecursionLimit => {
                write!(f, "RecursionError: maximum recursion depth exceeded in `{}`", self.function)
            }
            RuntimeErrorKind::OutOfFuel => write!(f, "TimeoutError: step budget exhausted in `{}`", self.function),
            RuntimeErrorKind::Unsupported(what) => {
                write!(f, "NotImplementedError: {what} in `{}`", self.function)
            }
            RuntimeErrorKind::BarrierDivergence(what) => {
                write!(f, "RuntimeError: barrier divergence: {what} in `{}`", self.function)
            }
            RuntimeErrorKind::InvalidLaunch(what) => {
                write!(f, "ValueError: invalid kernel launch: {what} for `{}`", self.function)
            }
            RuntimeErrorKind::DataRace { what, .. } => {
                write!(f, "RuntimeError: data race: {what} in `{}`", self.function)
            }
            RuntimeErrorKind::Raised { class, message } if message.is_empty() => {
                write!(f, "{class} in `{}`", self.function)
            }
            RuntimeErrorKind::Raised { class, message } => write!(f, "{class}: {message} in `{}`", self.function),
        }?;
        match &self.thread {
            Some(t) => write!(f, " ({t})"),
            None => Ok(()),
        }
    }
}

impl std::error::Error for RuntimeError {}

/// Interpreter limits.
#[derive(Clone, Copy, Debug)]
pub struct InterpOptions {
    /// Maximum call depth (Python's default recursion limit is 1000).
    pub max_depth: usize,
    /// Maximum instructions executed, or unlimited.
    pub fuel: Option<u64>,
    /// In kernel launches, report data races on shared arrays and on the array arguments
    /// ([`RuntimeErrorKind::DataRace`]).
    pub race_check: bool,
}

impl Default for InterpOptions {
    fn default() -> Self {
        InterpOptions { max_depth: 1000, fuel: None, race_check: false }
    }
}

/// Runs the entry of `program` on `args` (arrays are shared: writes are visible to the caller).
pub fn run(program: &TypedProgram, args: &[RtValue], options: InterpOptions) -> Result<RtValue, RuntimeError> {
    let mut m = Machine::new(program, options);
    let mut stack = vec![m.frame(0, args.to_vec(), None)];
    match m.exec(&mut stack, &mut HostOnly)? {
        Stop::Returned(v) => {
            m.check_leaks(&v).map_err(|k| m.error(k, program.functions[0].func.span, 0))?;
            Ok(present_optionals(&program.functions[0].func.ret, v))
        }
        // `HostOnly` never asks a thread to wait.
        Stop::Wait(w) => Err(m.error(
            RuntimeErrorKind::Unsupported(format!("{} outside a kernel launch", w.builtin.name())),
            w.span,
            w.fidx,
        )),
    }
}

/// A result as the caller sees it: an optional (inside compiled code the (flag, value) pair,
/// also inside tuples) becomes `None` or the value; a run-time string its text.
fn present_optionals(t: &Type, v: RtValue) -> RtValue {
    match (t, v) {
        (Type::Optional(inner), RtValue::Tuple(mut parts)) if parts.len() == 2 => {
            if matches!(parts[0], RtValue::Bool(true)) {
                present_optionals(inner, parts.pop().expect("two parts"))
            } else {
                RtValue::None
            }
        }
        (Type::Tuple(ts), RtValue::Tuple(vs)) if ts.len() == vs.len() => {
            RtValue::Tuple(ts.iter().zip(vs).map(|(t, v)| present_optionals(t, v)).collect())
        }
        // A list of run-time strings (or of tuples holding them): a new list of the texts.
        (Type::List(e), RtValue::List(l)) if e.holds_string() => {
            let items: Vec<RtValue> = l.items.borrow().iter().map(|x| present_optionals(e, x.clone())).collect();
            RtValue::List(value::ListRef::lent(items, (**e).clone()))
        }
        // A run-time string (its list of code points inside compiled code) is its text.
        (Type::String, RtValue::Tuple(parts)) => match parts.first() {
            Some(RtValue::List(l)) => {
                let text: Option<String> = l
                    .items
                    .borrow()
                    .iter()
                    .map(|c| match c {
                        RtValue::I32(c) => char::from_u32(*c as u32),
                        _ => None,
                    })
                    .collect();
                text.map(|t| RtValue::Str(t.into())).unwrap_or(RtValue::Tuple(parts))
            }
            _ => RtValue::Tuple(parts),
        },
        (_, v) => v,
    }
}

struct Machine<'p> {
    program: &'p TypedProgram,
    by_name: HashMap<&'p str, usize>,
    options: InterpOptions,
    /// Instructions left; shared by every thread of a kernel launch.
    fuel: Option<u64>,
    /// Every buffer the program allocated (`newarray`), for the leak check.
    owners: Vec<Rc<Owner>>,
    /// Whether a `try` handler caught an exception: the references held where it was raised
    /// are abandoned (compiled code frees what they keep alive when the call ends).
    caught: bool,
}

/// One activation: the interpreter keeps its own stack of these, so deep recursion in the
/// interpreted program never deepens the Rust stack.
struct Frame<'p> {
    fidx: usize,
    f: &'p Function,
    vals: Vec<RtValue>,
    block: Block,
    pos: usize,
    /// Where the caller wants the result.
    ret_to: Option<Value>,
    /// The next chunk of the `parallel_for` this frame is running (0 when none).
    chunk: i64,
}

/// Why [`Machine::exec`] stopped.
enum Stop {
    /// The bottom frame returned.
    Returned(RtValue),
    /// The thread waits at a barrier or shuffle; its frame stack is left as it is, positioned
    /// after the waiting instruction, and resumes when the scheduler has written the result.
    Wait(Wait),
}

/// A thread waiting at a CUDA synchronisation point.
struct Wait {
    builtin: Builtin,
    /// The builtin's evaluated operands (predicate; or mask, value, lane argument).
    args: Vec<RtValue>,
    /// Where the result goes, in the top frame.
    result: Option<Value>,
    /// The function and instruction (the synchronisation site).
    fidx: usize,
    inst: Inst,
    span: Span,
}

/// The execution context of CUDA builtins: what `threadIdx` is, where shared arrays live.
/// `run` passes [`HostOnly`], where every CUDA construct is an error.
trait Device {
    /// Evaluates CUDA builtin `b`; `Ok(None)` makes the thread wait (barriers, shuffles).
    fn builtin(&mut self, b: Builtin, args: &[RtValue], rty: &Type) -> Result<Option<RtValue>, RuntimeErrorKind>;
    /// `cuda.shared.array` / `cuda.local.array` at instruction `inst` of function `fidx`.
    fn alloc(
        &mut self,
        space: AddressSpace,
        dtype: Scalar,
        shape: &[i64],
        site: (usize, Inst),
    ) -> Result<RtValue, RuntimeErrorKind>;
    /// An element access of `arr` at flat offset `off`, before it runs (the race checker's
    /// hook; only called with [`InterpOptions::race_check`]).
    fn access(&mut self, _arr: &ArrayRef, _off: i64, _kind: AccessKind, _span: Span) -> Result<(), RuntimeErrorKind> {
        Ok(())
    }
    /// A CUDA atomic's element (its array and index arguments), before it runs (the same hook).
    fn atomic_access(&mut self, _args: &[RtValue], _span: Span) -> Result<(), RuntimeErrorKind> {
        Ok(())
    }
}

/// The device context of a host call: no CUDA.
struct HostOnly;

impl Device for HostOnly {
    fn builtin(&mut self, b: Builtin, _: &[RtValue], _: &Type) -> Result<Option<RtValue>, RuntimeErrorKind> {
        Err(RuntimeErrorKind::Unsupported(format!("{} runs only in a kernel launch (interp::run_kernel)", b.name())))
    }

    fn alloc(&mut self, _: AddressSpace, _: Scalar, _: &[i64], _: (usize, Inst)) -> Result<RtValue, RuntimeErrorKind> {
        Err(RuntimeErrorKind::Unsupported(
            "cuda.shared/local arrays run only in a kernel launch (interp::run_kernel)".into(),
        ))
    }
}

impl<'p> Machine<'p> {
    fn new(program: &'p TypedProgram, options: InterpOptions) -> Machine<'p> {
        let by_name: HashMap<&str, usize> =
            program.functions.iter().enumerate().map(|(i, f)| (f.func.name.as_str(), i)).collect();
        Machine { program, by_name, options, fuel: options.fuel, owners: Vec::new(), caught: false }
    }

    fn frame(&self, fidx: usize, args: Vec<RtValue>, ret_to: Option<Value>) -> Frame<'p> {
        let f = &self.program.functions[fidx].func;
        let mut vals: Vec<RtValue> = vec![RtValue::None; f.values.len()];
        for (p, a) in f.params().iter().zip(args) {
            vals[p.index()] = a;
        }
        Frame { fidx, f, vals, block: Function::ENTRY, pos: 0, ret_to, chunk: 0 }
    }

    fn error(&self, kind: RuntimeErrorKind, span: Span, fidx: usize) -> RuntimeError {
        RuntimeError { kind, function: self.program.functions[fidx].source_name.clone(), span, thread: None }
    }

    /// Runs the frame stack (non-empty) until its bottom frame returns or the thread waits; an
    /// exception raised inside a `try` body (of the failing frame or of a caller) continues at
    /// its handler.
    fn exec<D: Device>(&mut self, stack: &mut Vec<Frame<'p>>, dev: &mut D) -> Result<Stop, RuntimeError> {
        loop {
            match self.run_frames(stack, dev) {
                Err(e) if self.catch(stack, &e.kind) => continue,
                r => return r,
            }
        }
    }

    /// Unwinds `stack` to the innermost frame whose current block has an unwind edge and takes
    /// it; false (the stack untouched) when no frame catches or the error is not a Python
    /// exception (the interpreter's own limits and reports are never caught).
    fn catch(&mut self, stack: &mut Vec<Frame<'p>>, kind: &RuntimeErrorKind) -> bool {
        let catchable = matches!(
            kind,
            RuntimeErrorKind::Raised { .. }
                | RuntimeErrorKind::ZeroDivision
                | RuntimeErrorKind::Index { .. }
                | RuntimeErrorKind::RecursionLimit
        );
        if !catchable {
            return false;
        }
        let Some(k) = stack.iter().rposition(|fr| fr.f.blocks[fr.block.index()].unwind.is_some()) else {
            return false;
        };
        stack.truncate(k + 1);
        let top = stack.last_mut().expect("the catching frame");
        let u = top.f.blocks[top.block.index()].unwind.as_ref().expect("an unwind edge");
        top.block = pass_args(top.f, u, &mut top.vals);
        top.pos = 0;
        top.chunk = 0;
        self.caught = true;
        true
    }

    fn run_frames<D: Device>(&mut self, stack: &mut Vec<Frame<'p>>, dev: &mut D) -> Result<Stop, RuntimeError> {
        loop {
            let depth = stack.len();
            let Some(top) = stack.last_mut() else {
                return Err(RuntimeError {
                    kind: RuntimeErrorKind::Unsupported("resumed a finished thread".into()),
                    function: String::new(),
                    span: Span::DUMMY,
                    thread: None,
                });
            };
            let f = top.f;
            let fail = |kind: RuntimeErrorKind, span: Span, fidx: usize| RuntimeError {
                kind,
                function: self.program.functions[fidx].source_name.clone(),
                span,
                thread: None,
            };
            let bd = &f.blocks[top.block.index()];
            if let Some(&inst) = bd.insts.get(top.pos) {
                top.pos += 1;
                if let Some(fuel) = &mut self.fuel {
                    if *fuel == 0 {
                        return Err(fail(RuntimeErrorKind::OutOfFuel, f.insts[inst.index()].span, top.fidx));
                    }
                    *fuel -= 1;
                }
                let data = &f.insts[inst.index()];
                match &data.kind {
                    InstKind::Call(name, args) => {
                        let Some(&callee) = self.by_name.get(name.as_str()) else {
                            let k = RuntimeErrorKind::Unsupported(format!("call of missing function {name}"));
                            return Err(fail(k, data.span, top.fidx));
                        };
                        if depth >= self.options.max_depth {
                            return Err(fail(RuntimeErrorKind::RecursionLimit, data.span, top.fidx));
                        }
                        let argv: Vec<RtValue> = args.iter().map(|a| top.vals[a.index()].clone()).collect();
                        let frame = self.frame(callee, argv, data.result);
                        stack.push(frame);
                        continue;
                    }
                    // The chunks one after another, each a call: the instruction runs again
                    // after each chunk returns, until the last.
                    InstKind::ParallelFor(name, args) => {
                        let Some(&callee) = self.by_name.get(name.as_str()) else {
                            let k = RuntimeErrorKind::Unsupported(format!("call of missing function {name}"));
                            return Err(fail(k, data.span, top.fidx));
                        };
                        let n = top.vals[args[0].index()].as_i64().unwrap_or(0);
                        if top.chunk >= n {
                            top.chunk = 0;
                            continue;
                        }
                        if depth >= self.options.max_depth {
                            return Err(fail(RuntimeErrorKind::RecursionLimit, data.span, top.fidx));
                        }
                        let mut argv: Vec<RtValue> = vec![RtValue::I64(top.chunk)];
                        argv.extend(args[1..].iter().map(|a| top.vals[a.index()].clone()));
                        top.chunk += 1;
                        top.pos -= 1;
                        let frame = self.frame(callee, argv, None);
                        stack.push(frame);
                        continue;
                    }
                    InstKind::Builtin(b, args) if b.is_cuda() => {
                        let argv: SmallVec<[RtValue; 4]> = args.iter().map(|a| top.vals[a.index()].clone()).collect();
                        let rty = data.result.map(|r| f.ty(r)).unwrap_or(&Type::None);
                        if self.options.race_check {
                            use crate::builtins::KernelOp;
                            match b.kernel_op() {
                                Some(KernelOp::Atomic(_)) => {
                                    dev.atomic_access(&argv, data.span).map_err(|k| fail(k, data.span, top.fidx))?
                                }
                                Some(op @ (KernelOp::CacheLoad(_) | KernelOp::CacheStore(_))) => {
                                    if let [RtValue::Array(arr), RtValue::I64(off), ..] = argv.as_slice() {
                                        let kind = if matches!(op, KernelOp::CacheStore(_)) {
                                            AccessKind::Write
                                        } else {
                                            AccessKind::Read
                                        };
                                        dev.access(arr, *off, kind, data.span)
                                            .map_err(|k| fail(k, data.span, top.fidx))?;
                                    }
                                }
                                _ => {}
                            }
                        }
                        match dev.builtin(*b, &argv, rty) {
                            Ok(Some(v)) => {
                                if let Some(r) = data.result {
                                    top.vals[r.index()] = v;
                                }
                            }
                            Ok(None) => {
                                return Ok(Stop::Wait(Wait {
                                    builtin: *b,
                                    args: argv.into_vec(),
                                    result: data.result,
                                    fidx: top.fidx,
                                    inst,
                                    span: data.span,
                                }))
                            }
                            Err(k) => return Err(fail(k, data.span, top.fidx)),
                        }
                        continue;
                    }
                    InstKind::AllocArray { space, dtype, shape, .. } => {
                        match dev.alloc(*space, *dtype, shape, (top.fidx, inst)) {
                            Ok(v) => {
                                if let Some(r) = data.result {
                                    top.vals[r.index()] = v;
                                }
                            }
                            Err(k) => return Err(fail(k, data.span, top.fidx)),
                        }
                        continue;
                    }
                    _ => {}
                }
                if self.options.race_check {
                    if let InstKind::Load(a, o) | InstKind::Store(a, o, _) = &data.kind {
                        if let (RtValue::Array(arr), RtValue::I64(off)) = (&top.vals[a.index()], &top.vals[o.index()]) {
                            let kind = if matches!(data.kind, InstKind::Store(..)) {
                                AccessKind::Write
                            } else {
                                AccessKind::Read
                            };
                            dev.access(arr, *off, kind, data.span).map_err(|k| fail(k, data.span, top.fidx))?;
                        }
                    }
                }
                match self.eval(f, data, &top.vals) {
                    Ok(v) => {
                        if let Some(r) = data.result {
                            top.vals[r.index()] = v;
                        }
                    }
                    Err(k) => return Err(fail(k, data.span, top.fidx)),
                }
                continue;
            }
            match &bd.term {
                Terminator::Jump(c) => {
                    top.block = pass_args(f, c, &mut top.vals);
                    top.pos = 0;
                }
                Terminator::Branch(c, t, e) => {
                    let take = matches!(top.vals[c.index()], RtValue::Bool(true));
                    top.block = pass_args(f, if take { t } else { e }, &mut top.vals);
                    top.pos = 0;
                }
                Terminator::Return(v) => {
                    let value = v.map(|v| top.vals[v.index()].clone()).unwrap_or(RtValue::None);
                    let done = stack.pop().expect("non-empty");
                    match stack.last_mut() {
                        None => return Ok(Stop::Returned(value)),
                        Some(caller) => {
                            if let Some(r) = done.ret_to {
                                caller.vals[r.index()] = value;
                            }
                        }
                    }
                }
                Terminator::Raise(e) => {
                    let message = e.message(|v| top.vals[v.index()].py_scalar());
                    let k = RuntimeErrorKind::Raised { class: e.class.clone(), message };
                    return Err(fail(k, bd.term_span, top.fidx));
                }
                Terminator::Unreachable => {
                    let k = RuntimeErrorKind::Unsupported("reached an unreachable block".into());
                    return Err(fail(k, bd.term_span, top.fidx));
                }
            }
        }
    }

    /// After a successful call: every buffer the program allocated is freed, except those the
    /// result holds, each with exactly one reference per place the result holds it.
    fn check_leaks(&self, result: &RtValue) -> Result<(), RuntimeErrorKind> {
        // Every place that holds a reference: the result, and the elements of every list
        // reachable from it (each list's elements visited once).
        let mut held: Vec<*const Owner> = Vec::new();
        let mut seen: Vec<*const Owner> = Vec::new();
        let mut stack = vec![result.clone()];
        while let Some(v) = stack.pop() {
            v.for_each_owner(&mut |o, list| {
                held.push(Rc::as_ptr(o));
                if let Some(l) = list {
                    if !seen.contains(&Rc::as_ptr(o)) {
                        seen.push(Rc::as_ptr(o));
                        stack.extend(l.items.borrow().iter().cloned());
                    }
                }
            });
        }
        // After a caught exception, the references held where it was raised are abandoned:
        // a buffer may have more than its holders (never fewer).
        let leaked = self
            .owners
            .iter()
            .filter(|o| {
                let holders = held.iter().filter(|h| **h == Rc::as_ptr(o)).count() as i64;
                if self.caught {
                    o.refs.get() < holders
                } else {
                    o.refs.get() != holders
                }
            })
            .count();
        if leaked > 0 {
            return Err(RuntimeErrorKind::Unsupported(format!(
                "internal error: {leaked} of {} arrays and lists allocated by the call have a wrong reference count when it returns (a refcount bug)",
                self.owners.len()
            )));
        }
        Ok(())
    }

    /// A new record with one reference, tracked for the leak check.
    fn new_owner(&mut self) -> Rc<Owner> {
        let owner = Rc::new(Owner::default());
        owner.refs.set(1);
        self.owners.push(owner.clone());
        owner
    }

    /// Allocates a C-contiguous array of `dtype` and `shape` (owned: one reference).
    fn new_array(&mut self, dtype: Scalar, shape: Vec<i64>) -> Result<RtValue, RuntimeErrorKind> {
        let memory_error =
            || RuntimeErrorKind::Raised { class: "MemoryError".into(), message: ALLOCATION_FAILED.into() };
        let n = shape
            .iter()
            .try_fold(1usize, |acc, &d| acc.checked_mul(usize::try_from(d).ok()?))
            .ok_or_else(memory_error)?;
        n.checked_mul(dtype.size()).filter(|&b| b <= isize::MAX as usize).ok_or_else(memory_error)?;
        let data = ArrayData::try_zeros(dtype, n).ok_or_else(memory_error)?;
        let mut a = ArrayRef::new(data, shape).ok_or_else(memory_error)?;
        a.owner = Some(self.new_owner());
        Ok(RtValue::Array(a))
    }

    /// Evaluates every instruction but calls (which `call` runs on its own frame stack).
    fn eval(&mut self, f: &Function, data: &InstData, vals: &[RtValue]) -> Result<RtValue, RuntimeErrorKind> {
        let v = |x: &Value| &vals[x.index()];
        let rty = data.result.map(|r| f.ty(r).clone()).unwrap_or(Type::None);
        Ok(match &data.kind {
            InstKind::Const(c) => RtValue::from_const(*c, &rty),
            InstKind::Undef => RtValue::zero_of(&rty),
            InstKind::Unary(op, a) => arith::unary(*op, v(a)),
            InstKind::Binary(op, a, b) => arith::binary(*op, v(a), v(b))?,
            InstKind::Compare(op, a, b) => RtValue::Bool(arith::compare(*op, v(a), v(b))),
            InstKind::Cast(s, a) => arith::cast(v(a), *s),
            InstKind::Select(c, a, b) => {
                if matches!(v(c), RtValue::Bool(true)) {
                    v(a).clone()
                } else {
                    v(b).clone()
                }
            }
            InstKind::Call(..) | InstKind::ParallelFor(..) => {
                return Err(RuntimeErrorKind::Unsupported("call evaluated out of frame".into()))
            }
            InstKind::Builtin(b, args) => {
                let argv: Vec<&RtValue> = args.iter().map(v).collect();
                arith::builtin(*b, &argv, &rty)?
            }
            InstKind::Dim(a, k) => match v(a) {
                RtValue::Array(arr) => RtValue::I64(arr.shape.get(*k as usize).copied().unwrap_or(0)),
                _ => return Err(RuntimeErrorKind::Unsupported("dim of a non-array".into())),
            },
            InstKind::Stride(a, k) => match v(a) {
                RtValue::Array(arr) => RtValue::I64(arr.strides.get(*k as usize).copied().unwrap_or(0)),
                _ => return Err(RuntimeErrorKind::Unsupported("stride of a non-array".into())),
            },
            InstKind::CheckIndex(i, n, axis) => {
                let (RtValue::I64(i), RtValue::I64(n)) = (v(i), v(n)) else {
                    return Err(RuntimeErrorKind::Unsupported("checkindex on non-int64".into()));
                };
                if *i < 0 || *i >= *n {
                    return Err(RuntimeErrorKind::Index { index: *i, len: *n, axis: *axis });
                }
                RtValue::None
            }
            InstKind::CheckNonZero(a) => {
                if arith::is_zero(v(a)) {
                    return Err(RuntimeErrorKind::ZeroDivision);
                }
                RtValue::None
            }
            InstKind::Load(a, _) | InstKind::Store(a, ..) if matches!(v(a), RtValue::Array(arr) if arr.owner.as_ref().is_some_and(|o| o.freed.get())) => {
                return Err(RuntimeErrorKind::Unsupported(
                    "internal error: an array was used after its buffer was freed (a refcount bug)".into(),
                ))
            }
            InstKind::Load(a, o) => match (v(a), v(o)) {
                (RtValue::Array(arr), RtValue::I64(off)) => arr.load(*off).ok_or(RuntimeErrorKind::OutOfBounds)?,
                _ => return Err(RuntimeErrorKind::Unsupported("bad load".into())),
            },
            InstKind::Store(a, o, x) => match (v(a), v(o)) {
                (RtValue::Array(arr), RtValue::I64(off)) => {
                    arr.store(*off, v(x)).ok_or(RuntimeErrorKind::OutOfBounds)?;
                    RtValue::None
                }
                _ => return Err(RuntimeErrorKind::Unsupported("bad store".into())),
            },
            // A complex number is made and taken apart as the pair (real, imaginary).
            InstKind::MakeTuple(vs) => match (&rty, vs.as_slice()) {
                (Type::Scalar(Scalar::Complex64), [re, im]) => match (v(re), v(im)) {
                    (RtValue::F32(re), RtValue::F32(im)) => RtValue::C64([*re, *im]),
                    _ => return Err(RuntimeErrorKind::Unsupported("complex64 of non-float32 parts".into())),
                },
                (Type::Scalar(Scalar::Complex128), [re, im]) => match (v(re), v(im)) {
                    (RtValue::F64(re), RtValue::F64(im)) => RtValue::C128([*re, *im]),
                    _ => return Err(RuntimeErrorKind::Unsupported("complex128 of non-float64 parts".into())),
                },
                _ => RtValue::Tuple(vs.iter().map(|x| v(x).clone()).collect()),
            },
            InstKind::TupleGet(t, k) => match v(t) {
                RtValue::C64(p) => RtValue::F32(p[*k as usize & 1]),
                RtValue::C128(p) => RtValue::F64(p[*k as usize & 1]),
                RtValue::Tuple(items) => items.get(*k as usize).cloned().unwrap_or(RtValue::None),
                _ => return Err(RuntimeErrorKind::Unsupported("tupleget of a non-tuple".into())),
            },
            // A frozen global: a fresh copy each time is unobservable (compiled code never
            // writes one), and it has no owner, like an argument.
            // A function value has no parts.
            InstKind::FuncRef(_) => RtValue::None,
            InstKind::ConstArray(c) => ArrayRef::new(ArrayData::of_const(c)?, c.shape.clone())
                .map(RtValue::Array)
                .ok_or_else(|| RuntimeErrorKind::Unsupported(format!("constant array `{}` of a bad shape", c.name)))?,
            // `exec` runs these with its device context.
            InstKind::AllocArray { .. } => {
                return Err(RuntimeErrorKind::Unsupported("cuda array evaluated out of a device context".into()))
            }
            InstKind::GetItem(..) | InstKind::SetItem(..) => {
                return Err(RuntimeErrorKind::Unsupported(
                    "getitem/setitem must be expanded before interpretation".into(),
                ))
            }
            InstKind::NewArray { dtype, shape, .. } => {
                let dims: Vec<i64> = shape.iter().map(|d| v(d).as_i64().unwrap_or(-1)).collect();
                // The rewrite checked the dimensions; elements start as zeros (for np.empty
                // any value is right).
                self.new_array(*dtype, dims)?
            }
            InstKind::View { base, offset, shape, strides } => {
                let RtValue::Array(arr) = v(base) else {
                    return Err(RuntimeErrorKind::Unsupported("view of a non-array".into()));
                };
                let ints = |xs: &[Value]| xs.iter().map(|x| v(x).as_i64().unwrap_or(0)).collect::<Vec<i64>>();
                let dtype = rty.array().map_or(arr.dtype(), |t| t.dtype);
                RtValue::Array(
                    arr.reinterpret(dtype, v(offset).as_i64().unwrap_or(0), ints(shape), ints(strides)).ok_or_else(
                        || {
                            RuntimeErrorKind::Unsupported(format!(
                                "a {} view of an array not aligned to it",
                                dtype.name()
                            ))
                        },
                    )?,
                )
            }
            InstKind::IncRef(x) | InstKind::DecRef(x) => {
                let delta = if matches!(data.kind, InstKind::IncRef(_)) { 1 } else { -1 };
                count(v(x), delta)?;
                RtValue::None
            }
            InstKind::NewList(n) => {
                let n = v(n).as_i64().and_then(|n| usize::try_from(n).ok());
                let elem = rty.list_elem().cloned().unwrap_or(Type::Unknown);
                let mut items = Vec::new();
                let memory_error =
                    || RuntimeErrorKind::Raised { class: "MemoryError".into(), message: ALLOCATION_FAILED.into() };
                let n = n.ok_or_else(memory_error)?;
                items.try_reserve_exact(n).map_err(|_| memory_error())?;
                items.resize(n, RtValue::zero_of(&elem));
                let owner = Some(self.new_owner());
                RtValue::List(ListRef { items: Rc::new(RefCell::new(items)), elem, owner })
            }
            InstKind::ListLen(l) => RtValue::I64(live_list(v(l))?.items.borrow().len() as i64),
            InstKind::ListGet(l, i) => {
                let l = live_list(v(l))?;
                let i = v(i).as_i64().and_then(|i| usize::try_from(i).ok());
                let item = i.and_then(|i| l.items.borrow().get(i).cloned());
                item.ok_or(RuntimeErrorKind::OutOfBounds)?
            }
            InstKind::ListSet(l, i, x) => {
                let l = live_list(v(l))?;
                let i = v(i).as_i64().and_then(|i| usize::try_from(i).ok()).ok_or(RuntimeErrorKind::OutOfBounds)?;
                if i >= l.items.borrow().len() {
                    return Err(RuntimeErrorKind::OutOfBounds);
                }
                count(v(x), 1)?;
                let old = std::mem::replace(&mut l.items.borrow_mut()[i], v(x).clone());
                count(&old, -1)?;
                RtValue::None
            }
            InstKind::ListResize(l, n) => {
                let l = live_list(v(l))?;
                let n = v(n).as_i64().and_then(|n| usize::try_from(n).ok()).ok_or(RuntimeErrorKind::OutOfBounds)?;
                let len = l.items.borrow().len();
                if n < len {
                    let dropped: Vec<RtValue> = l.items.borrow_mut().drain(n..).collect();
                    for d in &dropped {
                        count(d, -1)?;
                    }
                } else {
                    let zero = RtValue::zero_of(&l.elem);
                    let mut items = l.items.borrow_mut();
                    items.try_reserve(n - len).map_err(|_| RuntimeErrorKind::Raised {
                        class: "MemoryError".into(),
                        message: ALLOCATION_FAILED.into(),
                    })?;
                    items.resize(n, zero);
                }
                RtValue::None
            }
        })
    }
}

/// The list a list operation works on; using a list whose count reached zero is a refcount bug.
fn live_list(x: &RtValue) -> Result<&ListRef, RuntimeErrorKind> {
    match x {
        RtValue::List(l) if l.owner.as_ref().is_some_and(|o| o.freed.get()) => Err(RuntimeErrorKind::Unsupported(
            "internal error: a list was used after it was freed (a refcount bug)".into(),
        )),
        RtValue::List(l) => Ok(l),
        _ => Err(RuntimeErrorKind::Unsupported("list operation on a non-list".into())),
    }
}

/// Adds `delta` to the count of every array and list the value holds, as compiled code does; a
/// list whose count reaches zero releases its elements.
fn count(x: &RtValue, delta: i64) -> Result<(), RuntimeErrorKind> {
    let mut bad = None;
    let mut released: Vec<RtValue> = Vec::new();
    x.for_each_owner(&mut |o, list| {
        if o.freed.get() {
            bad = Some("a reference count changed after the buffer was freed");
        }
        o.refs.set(o.refs.get() + delta);
        if o.refs.get() == 0 {
            o.freed.set(true);
            if let Some(l) = list {
                released.extend(l.items.borrow().iter().cloned());
            }
        } else if o.refs.get() < 0 {
            bad = Some("a reference count went below zero");
        }
    });
    if let Some(m) = bad {
        return Err(RuntimeErrorKind::Unsupported(format!("internal error: {m} (a refcount bug)")));
    }
    for r in &released {
        count(r, -1)?;
    }
    Ok(())
}

fn pass_args(f: &Function, c: &BlockCall, vals: &mut [RtValue]) -> Block {
    let args: Vec<RtValue> = c.args.iter().map(|a| vals[a.index()].clone()).collect();
    for (p, a) in f.blocks[c.block.index()].params.iter().zip(args) {
        vals[p.index()] = a;
    }
    c.block
}

/// The scalar type of a runtime value, if it is a scalar.
pub fn scalar_of(v: &RtValue) -> Option<Scalar> {
    Some(match v {
        RtValue::Bool(_) => Scalar::Bool,
        RtValue::I32(_) => Scalar::Int32,
        RtValue::I64(_) => Scalar::Int64,
        RtValue::F32(_) => Scalar::Float32,
        RtValue::F64(_) => Scalar::Float64,
        RtValue::F16(_) => Scalar::Float16,
        v => return v.int_bits().map(|(s, _)| s),
    })
}
