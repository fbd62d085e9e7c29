//! twinjit's shared IR: types, the SSA IR and its text form, the verifier, type inference and
//! the passes after it, and the reference interpreter.
//!
//! Pipeline inside this crate: untyped [`Module`] (from `twinjit-front`) → [`infer::infer`]
//! (one [`TypedProgram`] per entry point and signature) → [`passes::run_pipeline`]
//! (`expand_indexing`, `dce`) → backends, or [`interp::run`] as the oracle.
//!
//! This crate knows nothing of Python syntax, Cranelift, LLVM or CUDA. Invariants: every
//! function leaving a pass verifies ([`verify::verify`]); the interpreter defines the
//! semantics every backend reproduces.

// Unsafe code only in `libm` (calls into the C math library), each block with a SAFETY comment.
#![deny(unsafe_code)]
#![deny(unsafe_op_in_unsafe_fn)]
// Diagnostics travel only on the (cold) error path; their size does not matter there.
#![allow(clippy::result_large_err)]

pub mod abi;
pub mod builtins;
pub mod call_graph;
pub mod exception;
pub mod function;
pub mod gemm;
pub mod infer;
pub mod interp;
pub mod libm;
pub mod liveness;
pub mod module;
pub mod parse;
pub mod passes;
mod print;
pub mod random;
pub mod threads;
pub use print::{python_complex_repr, python_tuple};
pub mod types;
pub mod typing;
pub mod verify;
pub mod written_params;

pub use builtins::{Builtin, BuiltinInfo, Lowering, Typing};
pub use exception::{Exception, ExceptionArg, PyScalar};
pub use function::*;
/// The `half` crate, whose `f16` is the Rust type of a `float16` element.
pub use half;
pub use infer::{infer, InferOptions, TypedFunction, TypedProgram};
pub use module::{
    DecoratorOptions, ErrorModel, FunctionAttrs, FunctionKind, GufuncLayout, Module, ModuleFunction, RefusedFunction,
    UfuncSpec,
};
pub use types::{
    dtype_name, dtype_string, parse_signature, parse_type, ArrayType, Layout, Scalar, Signature, SignatureError, Type,
};
