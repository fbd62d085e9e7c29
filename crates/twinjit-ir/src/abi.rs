//! The calling convention, in one place: what every backend emits and what the facade's
//! marshalling reads and writes. Both backends and both marshalling paths (host slots, CUDA
//! kernel parameters) use these definitions; nothing here knows Cranelift, LLVM or CUDA.
//!
//! - **Values flatten into parts** ([`flatten`]): a scalar is one part; an array is its data
//!   pointer, then `shape[0..n]`, then `strides[0..n]` (in elements); a tuple is its elements'
//!   parts in order; `None` has no parts. Rust passes and receives parts as 8-byte slots.
//! - **Errors are values**: a raising operation fills an [`ErrorRecord`] and returns a non-zero
//!   status; callers propagate it. The record's `kind` is an [`ErrorCode`], `site` indexes the
//!   program's [`RaiseSite`]s.
//! - **User exceptions** (`raise`, `assert`; [`ErrorCode::Raised`]) are compile-time data: the
//!   raise site carries the exception's class and arguments ([`RaiseSite::exception`]), so
//!   compiled code writes only the site and the exception's runtime arguments, at most
//!   [`MAX_RUNTIME_ARGS`], into the record's `index`, `len`, `axis` and `more` fields
//!   ([`record_offset::EXCEPTION_VALUES`], encoded by [`PyScalar::to_bits`]).
//! - **The GPU record** ([`GPU_RECORD_BYTES`]) is the same record followed by the ids of the
//!   first thread that failed ([`GpuRecord`] decodes it).
//!
//! Invariant: the byte offsets below are those of `ErrorRecord`'s `repr(C)` layout (checked at
//! compile time).

use crate::exception::Exception;
pub use crate::exception::{PyScalar, MAX_RUNTIME_ARGS};
use crate::types::{Scalar, Type};
use twinjit_diag::Span;

/// What compiled code raised (`ErrorRecord::kind`; 0 is no error).
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorCode {
    /// Division or modulo by zero.
    ZeroDivision = 1,
    /// An index out of bounds.
    Index = 2,
    /// Recursion deeper than the limit.
    Recursion = 3,
    /// A `raise` or failed `assert`: the site's [`RaiseSite::exception`], its runtime
    /// arguments in `index`, `len`, `axis`.
    Raised = 4,
    /// `cuda-sim`'s race checker found a data race at the site (the two accesses are in the
    /// thread's record of `twinjit_host::sim`, not in this one).
    DataRace = 5,
}

impl ErrorCode {
    /// The code as stored in the record.
    pub const fn raw(self) -> u32 {
        self as u32
    }
    /// The code a record holds, if it is one.
    pub fn from_raw(kind: u32) -> Option<ErrorCode> {
        Some(match kind {
            1 => ErrorCode::ZeroDivision,
            2 => ErrorCode::Index,
            3 => ErrorCode::Recursion,
            4 => ErrorCode::Raised,
            5 => ErrorCode::DataRace,
            _ => return None,
        })
    }
}

/// `str()` of the `MemoryError` an allocation that cannot be had raises (Numba's message).
pub const ALLOCATION_FAILED: &str = "Allocation failed (probably too large).";

/// Deepest recursion compiled host code allows before raising `RecursionError` (Python's
/// default limit, and the reference interpreter's): native stack overflow is never reached.
pub const MAX_RECURSION: i64 = 1000;

/// The recursion limit for code that runs on a GPU: every level needs stack in local memory
/// for every resident thread, so it is lower than the host's (a documented deviation).
pub const GPU_MAX_RECURSION: i64 = 64;

/// Error details a raising operation writes before returning a non-zero status.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ErrorRecord {
    /// An [`ErrorCode`] (0: none).
    pub kind: u32,
    /// Index into the program's raise sites.
    pub site: u32,
    /// The offending index (IndexError).
    pub index: i64,
    /// The dimension length (IndexError).
    pub len: i64,
    /// The axis (IndexError).
    pub axis: i64,
    /// Current call depth of recursive functions (maintained by compiled code).
    pub depth: i64,
    /// A raised exception's runtime arguments after the first three (a message with values
    /// such as two shapes).
    pub more: [i64; 4],
}

/// Byte offsets of [`ErrorRecord`]'s fields.
pub mod record_offset {
    /// `kind: u32`.
    pub const KIND: i32 = 0;
    /// `site: u32`.
    pub const SITE: i32 = 4;
    /// `index: i64`.
    pub const INDEX: i32 = 8;
    /// `len: i64`.
    pub const LEN: i32 = 16;
    /// `axis: i64`.
    pub const AXIS: i32 = 24;
    /// `depth: i64`.
    pub const DEPTH: i32 = 32;
    /// `more: [i64; 4]`.
    pub const MORE: i32 = 40;
    /// Where a raised exception's runtime arguments go, in order (`index`, `len`, `axis`,
    /// then `more`).
    pub const EXCEPTION_VALUES: [i32; super::MAX_RUNTIME_ARGS] =
        [INDEX, LEN, AXIS, MORE, MORE + 8, MORE + 16, MORE + 24];
}

impl ErrorRecord {
    /// The runtime arguments of a raised exception, as stored (see [`ErrorCode::Raised`]).
    pub fn exception_values(&self) -> [i64; MAX_RUNTIME_ARGS] {
        let [a, b, c, d] = self.more;
        [self.index, self.len, self.axis, a, b, c, d]
    }
}

const _: () = {
    assert!(std::mem::offset_of!(ErrorRecord, kind) == record_offset::KIND as usize);
    assert!(std::mem::offset_of!(ErrorRecord, site) == record_offset::SITE as usize);
    assert!(std::mem::offset_of!(ErrorRecord, index) == record_offset::INDEX as usize);
    assert!(std::mem::offset_of!(ErrorRecord, len) == record_offset::LEN as usize);
    assert!(std::mem::offset_of!(ErrorRecord, axis) == record_offset::AXIS as usize);
    assert!(std::mem::offset_of!(ErrorRecord, depth) == record_offset::DEPTH as usize);
    assert!(std::mem::offset_of!(ErrorRecord, more) == record_offset::MORE as usize);
    assert!(std::mem::size_of::<ErrorRecord>() == GPU_THREAD_IDS_OFFSET);
};

/// Size of the record a kernel entry receives as its first parameter: an [`ErrorRecord`], then
/// `tid.x/y/z, ctaid.x/y/z: u32` of the first thread that failed. The call entry (host
/// functions run on the GPU in tests) stores its status as a `u32` at [`GPU_THREAD_IDS_OFFSET`]
/// instead of the ids.
pub const GPU_RECORD_BYTES: usize = 96;
/// Byte offset of the thread ids (or the call entry's status) in the GPU record.
pub const GPU_THREAD_IDS_OFFSET: usize = 72;

/// A GPU error record as read back from the device.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GpuRecord {
    /// The error.
    pub record: ErrorRecord,
    /// `threadIdx` of the first thread that failed.
    pub thread: [u32; 3],
    /// `blockIdx` of that thread.
    pub block: [u32; 3],
}

impl GpuRecord {
    /// Decodes the record's twelve little-endian words.
    pub fn decode(words: &[i64; GPU_RECORD_BYTES / 8]) -> GpuRecord {
        let lo = |w: i64| (w & 0xffff_ffff) as u32;
        let hi = |w: i64| ((w as u64) >> 32) as u32;
        GpuRecord {
            record: ErrorRecord {
                kind: lo(words[0]),
                site: hi(words[0]),
                index: words[1],
                len: words[2],
                axis: words[3],
                depth: words[4],
                more: [words[5], words[6], words[7], words[8]],
            },
            thread: [lo(words[9]), hi(words[9]), lo(words[10])],
            block: [hi(words[10]), lo(words[11]), hi(words[11])],
        }
    }
}

/// Where an error was raised, for messages.
#[derive(Clone, Debug, PartialEq)]
pub struct RaiseSite {
    /// Source name of the function.
    pub function: String,
    /// The raising operation.
    pub span: Span,
    /// For a `raise` or `assert`: the exception, with the type of each runtime argument.
    pub exception: Option<Exception<Scalar>>,
}

impl RaiseSite {
    /// A site of a builtin check (division, index, recursion).
    pub fn check(function: impl Into<String>, span: Span) -> RaiseSite {
        RaiseSite { function: function.into(), span, exception: None }
    }

    /// `Class: message` of the exception this site raises, with the runtime values a record
    /// holds (`None` for a builtin check's site).
    pub fn render(&self, record: &ErrorRecord) -> Option<(String, String)> {
        let e = self.exception.as_ref()?;
        let values = record.exception_values();
        let mut k = 0;
        let message = e.message(|&ty| {
            let bits = values.get(k).copied().unwrap_or(0);
            k += 1;
            PyScalar::from_bits(ty, bits)
        });
        Some((e.class.clone(), message))
    }
}

/// A program a backend cannot compile: the same shape from every backend.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unsupported {
    /// What.
    pub what: String,
    /// Where.
    pub span: Span,
    /// How to fix it.
    pub hint: String,
}

/// One flattened part of a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// A scalar of this type.
    Scalar(Scalar),
    /// An array's data pointer (elements of this type).
    Data(Scalar),
    /// An array's length along an axis (int64).
    Dim(u8),
    /// An array's stride along an axis, in elements (int64).
    Stride(u8),
    /// An array's owner: a pointer to the memory manager's header of its buffer, or null for
    /// an array the caller lent (host only: kernels have no owned arrays, PTX drops the part).
    MemInfo,
    /// A list: a pointer to the memory manager's header of the list object (host only), whose
    /// payload is laid out as [`list_layout`] says.
    List,
}

impl Part {
    /// Whether the part is a reference the memory manager counts (an array's owner, a list).
    pub fn is_owner(self) -> bool {
        matches!(self, Part::MemInfo | Part::List)
    }
}

/// The payload of a list object (after its 64-byte header), and how its elements are stored.
///
/// A list value is one pointer to a memory-manager header (counted like an array's owner);
/// the payload after the header holds the length, the capacity, a pointer to the element
/// storage (a separate allocation that grows geometrically and belongs to the list) and the
/// element layout. Each element is its type's parts ([`flatten`]), one 8-byte slot per part
/// (a scalar in its own width at the start of its slot); slot `k` is a reference the list
/// holds when bit `k` of the owner mask is set (arrays' owners and lists inside elements).
pub mod list_layout {
    /// `len: i64`.
    pub const LEN: i32 = 0;
    /// `cap: i64`.
    pub const CAP: i32 = 8;
    /// `items: *mut u8`, the element storage (null while the capacity is 0).
    pub const ITEMS: i32 = 16;
    /// `elem_size: i64`, bytes per element (8 per part).
    pub const ELEM_SIZE: i32 = 24;
    /// `owners: u64`, the owner mask.
    pub const OWNERS: i32 = 32;
    /// Bytes of the payload.
    pub const SIZE: usize = 40;
    /// Bytes per part in an element.
    pub const SLOT: usize = 8;
}

/// The element layout of a list of `elem`: (bytes per element, owner mask). `None` when an
/// element has more than 64 parts (refused when compiling).
pub fn list_elem_layout(elem: &Type) -> Option<(usize, u64)> {
    let parts = flatten(elem);
    if parts.len() > 64 {
        return None;
    }
    let mask = parts.iter().enumerate().filter(|(_, p)| p.is_owner()).fold(0u64, |m, (k, _)| m | (1 << k));
    Some((parts.len().max(1) * list_layout::SLOT, mask))
}

/// The flattened parts of a value of type `t`, in order.
pub fn flatten(t: &Type) -> Vec<Part> {
    let mut out = Vec::new();
    push_parts(t, &mut out);
    out
}

fn push_parts(t: &Type, out: &mut Vec<Part>) {
    match t {
        Type::Unknown | Type::None | Type::Slice(_) | Type::Function(_) | Type::Str(_) => {}
        // A complex number is its real and imaginary parts.
        Type::Scalar(s) if s.is_complex() => out.extend([Part::Scalar(s.component()); 2]),
        Type::Scalar(s) => out.push(Part::Scalar(*s)),
        Type::Array(a) => {
            out.push(Part::Data(a.dtype));
            out.extend((0..a.ndim).map(Part::Dim));
            out.extend((0..a.ndim).map(Part::Stride));
            out.push(Part::MemInfo);
        }
        Type::Tuple(ts) => ts.iter().for_each(|t| push_parts(t, out)),
        Type::Optional(t) => {
            out.push(Part::Scalar(crate::types::Scalar::Bool));
            push_parts(t, out);
        }
        Type::List(_) | Type::String => out.push(Part::List),
        Type::Dict(k, v) => crate::types::dict_lists(k, v).iter().for_each(|t| push_parts(t, out)),
        Type::Set(k) => crate::types::dict_lists(k, &Type::BOOL).iter().for_each(|t| push_parts(t, out)),
    }
}

/// The slots of an array: its data pointer, its shape, its strides in elements.
pub fn array_slots<'a>(
    data: u64,
    shape: &'a [i64],
    strides: impl IntoIterator<Item = i64> + 'a,
) -> impl Iterator<Item = u64> + 'a {
    std::iter::once(data).chain(shape.iter().map(|&d| d as u64)).chain(strides.into_iter().map(|s| s as u64))
}

/// Strides in elements of a C-contiguous array of `shape`.
pub fn c_strides(shape: &[i64]) -> impl Iterator<Item = i64> + '_ {
    (0..shape.len()).map(move |k| shape[k + 1..].iter().product::<i64>())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{ArrayType, Layout};

    #[test]
    fn arrays_flatten_to_data_shape_strides_owner() {
        let a = Type::Array(ArrayType { dtype: Scalar::Float32, ndim: 2, layout: Layout::A });
        let t = Type::Tuple(vec![Type::I64, a, Type::None]);
        assert_eq!(
            flatten(&t),
            [
                Part::Scalar(Scalar::Int64),
                Part::Data(Scalar::Float32),
                Part::Dim(0),
                Part::Dim(1),
                Part::Stride(0),
                Part::Stride(1),
                Part::MemInfo
            ]
        );
        let slots: Vec<u64> = array_slots(0x1000, &[3, 4], c_strides(&[3, 4])).collect();
        assert_eq!(slots, [0x1000, 3, 4, 4, 1]);
    }

    #[test]
    fn gpu_records_decode() {
        let words =
            [(7i64 << 32) | 2, -1, 10, 1, 0, 20, 21, 22, 23, (5i64 << 32) | 4, (9i64 << 32) | 6, (12i64 << 32) | 11];
        let r = GpuRecord::decode(&words);
        assert_eq!(ErrorCode::from_raw(r.record.kind), Some(ErrorCode::Index));
        assert_eq!((r.record.site, r.record.index, r.record.len, r.record.axis), (7, -1, 10, 1));
        assert_eq!(r.record.exception_values(), [-1, 10, 1, 20, 21, 22, 23]);
        assert_eq!((r.thread, r.block), ([4, 5, 6], [9, 11, 12]));
        assert_eq!(ErrorCode::from_raw(0), None);
    }
}
