//! twinjit: a JIT engine for the Numba Python subset.
pub use twinjit_diag as diag;
pub use twinjit_ir as ir;
