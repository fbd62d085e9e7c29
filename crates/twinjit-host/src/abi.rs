//! The calling convention between Rust and compiled code, and between compiled functions.
//!
//! Every compiled function has the native signature
//! `fn(err: *mut ErrorInfo, ret: *mut u64, args...) -> i32`: status 0 is success, non-zero
//! means `*err` describes a raised error (callers propagate the status unchanged). Results are
//! written to `ret` as 8-byte slots, one per flattened part. Arguments are flattened: a scalar
//! is one part; an array is `data, shape[0..n], strides[0..n]` (strides in elements); a tuple
//! is its elements' parts in order. The entry trampoline has the signature
//! `extern "C" fn(err, ret, args: *const u64) -> i32` and reads its arguments from 8-byte
//! slots in the same flattened order, so Rust never builds a native call of variable arity.

use cranelift_codegen::ir::types;
use twinjit_ir::{Scalar, Type};

/// Error details a raising instruction writes before returning a non-zero status.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ErrorInfo {
    /// [`ERR_ZERO_DIVISION`] or [`ERR_INDEX`].
    pub kind: u32,
    /// Index into the program's raise sites (function name and source span).
    pub site: u32,
    /// The offending index (IndexError).
    pub index: i64,
    /// The dimension length (IndexError).
    pub len: i64,
    /// The axis (IndexError).
    pub axis: i64,
    /// Current call depth of recursive functions (maintained by compiled code).
    pub depth: i64,
}

/// `ErrorInfo::kind` of a division by zero.
pub const ERR_ZERO_DIVISION: u32 = 1;
/// `ErrorInfo::kind` of an index out of bounds.
pub const ERR_INDEX: u32 = 2;
/// `ErrorInfo::kind` of recursion deeper than [`MAX_RECURSION`].
pub const ERR_RECURSION: u32 = 3;

/// Deepest recursion compiled code allows before raising `RecursionError` (Python's default
/// limit, and the reference interpreter's): native stack overflow is never reached.
pub const MAX_RECURSION: i64 = 1000;

/// Byte offsets in [`ErrorInfo`].
pub(crate) mod err_off {
    pub const KIND: i32 = 0;
    pub const SITE: i32 = 4;
    pub const INDEX: i32 = 8;
    pub const LEN: i32 = 16;
    pub const AXIS: i32 = 24;
    pub const DEPTH: i32 = 32;
}

/// The entry trampoline's type.
pub type EntryFn = unsafe extern "C" fn(*mut ErrorInfo, *mut u64, *const u64) -> i32;

/// Cranelift type of a scalar.
pub fn scalar_type(s: Scalar) -> types::Type {
    match s {
        Scalar::Bool => types::I8,
        Scalar::Int32 => types::I32,
        Scalar::Int64 => types::I64,
        Scalar::Float32 => types::F32,
        Scalar::Float64 => types::F64,
    }
}

/// The flattened parts of a value of type `t`.
pub fn parts(t: &Type) -> Vec<types::Type> {
    let mut out = Vec::new();
    push_parts(t, &mut out);
    out
}

fn push_parts(t: &Type, out: &mut Vec<types::Type>) {
    match t {
        Type::Unknown | Type::None => {}
        Type::Scalar(s) => out.push(scalar_type(*s)),
        Type::Array(a) => {
            out.push(types::I64);
            for _ in 0..2 * a.ndim {
                out.push(types::I64);
            }
        }
        Type::Tuple(ts) => ts.iter().for_each(|t| push_parts(t, out)),
    }
}
