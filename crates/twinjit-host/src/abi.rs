//! The calling convention between Rust and compiled code, and between compiled functions.
//!
//! The shared facts (error codes and record, raise sites, how types flatten into parts) live in
//! `twinjit_ir::abi`; this module maps them to Cranelift. Every compiled function has the native
//! signature `fn(err: *mut ErrorRecord, ret: *mut u64, args...) -> i32`: status 0 is success, non-zero
//! means `*err` describes a raised error (callers propagate the status unchanged). Results are
//! written to `ret` as 8-byte slots, one per flattened part. Arguments are flattened: a scalar
//! is one part; an array is `data, shape[0..n], strides[0..n], owner` (strides in elements; the
//! owner is the memory manager's header, null for an array the caller lent); a tuple
//! is its elements' parts in order. The entry trampoline has the signature
//! `extern "C" fn(err, ret, args: *const u64) -> i32` and reads its arguments from 8-byte
//! slots in the same flattened order, so Rust never builds a native call of variable arity.

use cranelift_codegen::ir::types;
use twinjit_ir::abi::{flatten, Part};
use twinjit_ir::{Scalar, Type};

pub use twinjit_ir::abi::{record_offset, ErrorCode, ErrorRecord, RaiseSite, MAX_RECURSION};

/// The entry trampoline's type.
pub type EntryFn = unsafe extern "C" fn(*mut ErrorRecord, *mut u64, *const u64) -> i32;

/// Cranelift type of a scalar.
pub fn scalar_type(s: Scalar) -> types::Type {
    match s {
        Scalar::Bool | Scalar::Int8 | Scalar::UInt8 => types::I8,
        // float16 never reaches the host backend (`refuse_float16`): its bits, if it did.
        Scalar::Int16 | Scalar::UInt16 | Scalar::Float16 => types::I16,
        Scalar::Int32 | Scalar::UInt32 => types::I32,
        Scalar::Int64 | Scalar::UInt64 => types::I64,
        Scalar::Float32 => types::F32,
        Scalar::Float64 => types::F64,
        // A complex value is two parts (`twinjit_ir::abi::flatten`); this is one part's type.
        Scalar::Complex64 => types::F32,
        Scalar::Complex128 => types::F64,
    }
}

/// The Cranelift types of the flattened parts of a value of type `t` (`twinjit_ir::abi::flatten`).
pub fn parts(t: &Type) -> Vec<types::Type> {
    flatten(t)
        .into_iter()
        .map(|p| match p {
            Part::Scalar(s) => scalar_type(s),
            Part::Data(_) | Part::Dim(_) | Part::Stride(_) | Part::MemInfo | Part::List => types::I64,
        })
        .collect()
}
