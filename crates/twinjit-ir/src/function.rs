//! The SSA IR: functions of basic blocks with block parameters.
//!
//! Entities are typed `u32` indices into per-function tables. Every instruction and terminator
//! carries a [`Span`]. Untyped IR (straight from the front end) has `Type::Unknown` on every
//! value and uses the high-level array operations `getitem`/`setitem`; typed IR (after
//! inference) has a known type on every value, and after `expand_indexing` arrays are reached
//! only through `load`/`store` with the index arithmetic spelled out.

use crate::builtins::Builtin;
use crate::exception::Exception;
use crate::types::{Scalar, Type};
use smallvec::{smallvec, SmallVec};
use twinjit_diag::Span;

macro_rules! entity {
    ($name:ident, $prefix:literal) => {
        #[doc = concat!("An entity index, printed `", $prefix, "N`.")]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub u32);
        impl $name {
            /// The index as `usize`.
            pub fn index(self) -> usize {
                self.0 as usize
            }
        }
        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, concat!($prefix, "{}"), self.0)
            }
        }
    };
}
entity!(Value, "v");
entity!(Block, "block");
entity!(Inst, "i");

/// A constant.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Const {
    /// An integer (its width comes from the value's type).
    Int(i64),
    /// A float (rounded to the value's type).
    Float(f64),
    /// `True`/`False`.
    Bool(bool),
    /// `None`.
    None,
    /// A string (interned: see [`intern`]); its type is `Type::Str` of the same text.
    Str(&'static str),
}

/// The one `&'static str` for `text`: string constants are interned for the process, so a
/// [`Const`] stays `Copy`. The table holds each distinct text once (strings of loaded source:
/// defaults, literals), so it grows only with the distinct strings the process compiles.
pub fn intern(text: &str) -> &'static str {
    use std::collections::HashSet;
    use std::sync::{Mutex, OnceLock};
    static TABLE: OnceLock<Mutex<HashSet<&'static str>>> = OnceLock::new();
    let mut table = TABLE.get_or_init(|| Mutex::new(HashSet::new())).lock().unwrap_or_else(|e| e.into_inner());
    if let Some(s) = table.get(text) {
        return s;
    }
    let s: &'static str = Box::leak(text.to_string().into_boxed_str());
    table.insert(s);
    s
}

/// Unary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    /// `-x`
    Neg,
    /// `+x`
    Pos,
    /// `not x`
    Not,
    /// `~x`
    Invert,
}

/// Binary arithmetic and bitwise operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/` (true division)
    Div,
    /// `//` (floor division)
    FloorDiv,
    /// `%` (sign of the divisor)
    Mod,
    /// `**`
    Pow,
    /// `&`
    BitAnd,
    /// `|`
    BitOr,
    /// `^`
    BitXor,
    /// `<<`
    Shl,
    /// `>>`
    Shr,
}

/// Comparison operators; the result is `bool`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CmpOp {
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
}

impl UnaryOp {
    /// Text-form name.
    pub fn name(self) -> &'static str {
        match self {
            UnaryOp::Neg => "neg",
            UnaryOp::Pos => "pos",
            UnaryOp::Not => "not",
            UnaryOp::Invert => "invert",
        }
    }
    /// Python spelling.
    pub fn symbol(self) -> &'static str {
        match self {
            UnaryOp::Neg => "-",
            UnaryOp::Pos => "+",
            UnaryOp::Not => "not",
            UnaryOp::Invert => "~",
        }
    }
    /// All operators.
    pub const ALL: [UnaryOp; 4] = [UnaryOp::Neg, UnaryOp::Pos, UnaryOp::Not, UnaryOp::Invert];
}

impl BinaryOp {
    /// Text-form name.
    pub fn name(self) -> &'static str {
        match self {
            BinaryOp::Add => "add",
            BinaryOp::Sub => "sub",
            BinaryOp::Mul => "mul",
            BinaryOp::Div => "div",
            BinaryOp::FloorDiv => "floordiv",
            BinaryOp::Mod => "mod",
            BinaryOp::Pow => "pow",
            BinaryOp::BitAnd => "bitand",
            BinaryOp::BitOr => "bitor",
            BinaryOp::BitXor => "bitxor",
            BinaryOp::Shl => "shl",
            BinaryOp::Shr => "shr",
        }
    }
    /// Python spelling.
    pub fn symbol(self) -> &'static str {
        match self {
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Mul => "*",
            BinaryOp::Div => "/",
            BinaryOp::FloorDiv => "//",
            BinaryOp::Mod => "%",
            BinaryOp::Pow => "**",
            BinaryOp::BitAnd => "&",
            BinaryOp::BitOr => "|",
            BinaryOp::BitXor => "^",
            BinaryOp::Shl => "<<",
            BinaryOp::Shr => ">>",
        }
    }
    /// All operators.
    pub const ALL: [BinaryOp; 12] = [
        BinaryOp::Add,
        BinaryOp::Sub,
        BinaryOp::Mul,
        BinaryOp::Div,
        BinaryOp::FloorDiv,
        BinaryOp::Mod,
        BinaryOp::Pow,
        BinaryOp::BitAnd,
        BinaryOp::BitOr,
        BinaryOp::BitXor,
        BinaryOp::Shl,
        BinaryOp::Shr,
    ];
}

impl CmpOp {
    /// Text-form name.
    /// The comparison of two ordered values (`3 < 4`).
    pub fn eval<T: PartialOrd>(self, x: T, y: T) -> bool {
        match self {
            CmpOp::Eq => x == y,
            CmpOp::Ne => x != y,
            CmpOp::Lt => x < y,
            CmpOp::Le => x <= y,
            CmpOp::Gt => x > y,
            CmpOp::Ge => x >= y,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            CmpOp::Eq => "eq",
            CmpOp::Ne => "ne",
            CmpOp::Lt => "lt",
            CmpOp::Le => "le",
            CmpOp::Gt => "gt",
            CmpOp::Ge => "ge",
        }
    }
    /// Python spelling.
    pub fn symbol(self) -> &'static str {
        match self {
            CmpOp::Eq => "==",
            CmpOp::Ne => "!=",
            CmpOp::Lt => "<",
            CmpOp::Le => "<=",
            CmpOp::Gt => ">",
            CmpOp::Ge => ">=",
        }
    }
    /// All operators.
    pub const ALL: [CmpOp; 6] = [CmpOp::Eq, CmpOp::Ne, CmpOp::Lt, CmpOp::Le, CmpOp::Gt, CmpOp::Ge];
}

/// Memory space of an array allocated inside a function.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AddressSpace {
    /// `cuda.shared.array`: one per block.
    Shared,
    /// `cuda.local.array`: one per thread.
    Local,
}

/// A module-level NumPy array frozen into the code: Numba freezes a global array when it
/// compiles the function that reads it, as a read-only constant (writing one is a compile
/// error, `passes::readonly`). C-contiguous elements, little-endian, `dtype.size()` bytes
/// each (a complex element is its real part, then its imaginary part).
#[derive(Clone, Debug, PartialEq)]
pub struct ConstArray {
    /// The global's name, for messages and symbol names.
    pub name: String,
    /// Element type.
    pub dtype: Scalar,
    /// Dimensions (1 to `MAX_NDIM`, each non-negative).
    pub shape: Vec<i64>,
    /// The elements' bytes: `shape` product × `dtype.size()`.
    pub data: Vec<u8>,
}

impl ConstArray {
    /// The array of `dtype` and `shape` whose components (two per complex element, one
    /// otherwise) are `parts`, converted as NumPy stores them (integers wrap to the width,
    /// floats round to float32 where the dtype is).
    pub fn from_parts(name: &str, dtype: Scalar, shape: Vec<i64>, parts: &[Const]) -> ConstArray {
        let comp = dtype.component();
        let mut data = Vec::with_capacity(parts.len() * comp.size());
        for c in parts {
            let (i, x) = match *c {
                Const::Int(i) => (i, i as f64),
                Const::Float(x) => (x as i64, x),
                Const::Bool(b) => (i64::from(b), f64::from(u8::from(b))),
                Const::None | Const::Str(_) => (0, 0.0),
            };
            match comp {
                Scalar::Float32 => data.extend_from_slice(&(x as f32).to_le_bytes()),
                Scalar::Float64 => data.extend_from_slice(&x.to_le_bytes()),
                Scalar::Float16 => data.extend_from_slice(&half::f16::from_f64(x).to_le_bytes()),
                Scalar::Bool => data.push(u8::from(if matches!(c, Const::Float(_)) { x != 0.0 } else { i != 0 })),
                s => data.extend_from_slice(&i.to_le_bytes()[..s.size()]),
            }
        }
        ConstArray { name: name.to_string(), dtype, shape, data }
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        self.shape.iter().product::<i64>().max(0) as usize
    }

    /// Whether it has no elements.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Its C strides, in elements.
    pub fn strides(&self) -> Vec<i64> {
        (0..self.shape.len()).map(|k| self.shape[k + 1..].iter().product()).collect()
    }

    /// The components in order (two per complex element): `Int` for integers (unsigned
    /// 64-bit ones as their bit pattern), `Float`, `Bool`.
    pub fn parts(&self) -> Vec<Const> {
        let comp = self.dtype.component();
        self.data
            .chunks_exact(comp.size())
            .map(|b| {
                let mut w = [0u8; 8];
                w[..b.len()].copy_from_slice(b);
                match comp {
                    Scalar::Bool => Const::Bool(b[0] != 0),
                    Scalar::Float32 => Const::Float(f64::from(f32::from_le_bytes([b[0], b[1], b[2], b[3]]))),
                    Scalar::Float64 => Const::Float(f64::from_le_bytes(w)),
                    Scalar::Float16 => Const::Float(half::f16::from_le_bytes([b[0], b[1]]).to_f64()),
                    s if s.is_signed() => {
                        let sh = 64 - 8 * b.len() as u32;
                        Const::Int((i64::from_le_bytes(w) << sh) >> sh)
                    }
                    _ => Const::Int(i64::from_le_bytes(w)),
                }
            })
            .collect()
    }
}

/// The axis operand of a `checkindex` that guards a runtime tuple index, not an array axis.
pub const TUPLE_INDEX_AXIS: u8 = u8::MAX;

/// What an instruction does.
#[derive(Clone, Debug, PartialEq)]
pub enum InstKind {
    /// A constant of the result type.
    Const(Const),
    /// The value of a variable that is not assigned on every path (reads as zero).
    Undef,
    /// Unary operator.
    Unary(UnaryOp, Value),
    /// Binary operator. In typed IR both operands have the result type, except `pow` of a float
    /// by an integer (computed by repeated squaring, as Numba does).
    Binary(BinaryOp, Value, Value),
    /// Comparison; in typed IR both operands have the same type.
    Compare(CmpOp, Value, Value),
    /// Numeric conversion to the scalar type (`int()`, `float()`, `np.float32()`, or inserted by
    /// inference). Float to int truncates and saturates (NaN gives 0); to `bool` is `x != 0`.
    Cast(Scalar, Value),
    /// `cond ? a : b` without branching.
    Select(Value, Value, Value),
    /// Call of a function of the module (untyped: by source name; typed: by specialisation).
    Call(String, Vec<Value>),
    /// Call of a builtin.
    Builtin(Builtin, Vec<Value>),
    /// `parallel_for @F(n, args...)`: calls the specialisation `F` as `F(c, args...)` once for
    /// every chunk index `c` in `0..n` (`n` is int64, positive), in any order and on any
    /// threads of the host's pool; the first chunk (by index) that raises is the error. `F`
    /// returns `None`. Made by the `parallel` pass from a `prange` loop (see "Parallel loops").
    ParallelFor(String, Vec<Value>),
    /// `a.shape[axis]`; untyped IR may use a negative axis.
    Dim(Value, i64),
    /// `a[i, j]` (arrays) or `t[k]` (tuples, constant `k`): before `expand_indexing`.
    GetItem(Value, Vec<Value>),
    /// `a[i, j] = v`: before `expand_indexing`.
    SetItem(Value, Vec<Value>, Value),
    /// `(a, b)`
    MakeTuple(Vec<Value>),
    /// Element of a tuple.
    TupleGet(Value, u32),
    /// `cuda.shared.array(shape, dtype)` / `cuda.local.array(shape, dtype)`.
    AllocArray {
        /// Memory space.
        space: AddressSpace,
        /// Element type.
        dtype: Scalar,
        /// Shape, fixed at compile time.
        shape: Vec<i64>,
        /// The alignment `alignment=` asks for, in bytes (a power of two, a multiple of 8);
        /// 0 when not given. Every such array is aligned to at least 16 bytes.
        align: u32,
    },
    /// A compiled function of the module as a value (`Type::Function`): no parts; a call of it
    /// is a direct call (`call_value`, rewritten to `call`).
    FuncRef(String),
    /// A module-level array frozen into the code: a read-only array with no owner (like a
    /// parameter, it is borrowed and never counted).
    ConstArray(std::sync::Arc<ConstArray>),
    /// Stride of an axis, in elements.
    Stride(Value, u8),
    /// Raises `IndexError` unless `0 <= idx < len`; the `u8` is the axis, for the message
    /// ([`TUPLE_INDEX_AXIS`] for a runtime tuple index: Python's "tuple index out of range").
    CheckIndex(Value, Value, u8),
    /// Raises `ZeroDivisionError` if the value is zero.
    CheckNonZero(Value),
    /// Element at a linear element offset from the array's data pointer.
    Load(Value, Value),
    /// Stores the third operand at a linear element offset.
    Store(Value, Value, Value),
    /// A new C-contiguous array of `dtype` with the given dimensions (int64, non-negative: the
    /// rewrite checks them first), owned by the memory manager: one reference, held by the
    /// result. `zeroed` fills it with zeros; otherwise its elements are unspecified
    /// (`np.empty`). An allocation that fails raises `MemoryError`.
    NewArray {
        /// Element type.
        dtype: Scalar,
        /// One int64 per dimension.
        shape: Vec<Value>,
        /// Whether the elements start as zeros.
        zeroed: bool,
    },
    /// A view of `base`'s memory: the same buffer (and owner) from element `offset` on, with its
    /// own shape and strides (int64; offset and strides in elements of the view's dtype). No
    /// copy; the result type gives the dtype and dimension. The dtype may differ from the
    /// base's (`a.view(dtype)`, `z.real` of a complex array): the same bytes read as it. In typed IR the result borrows `base`'s reference; the refcount pass
    /// gives it its own.
    View {
        /// The array viewed.
        base: Value,
        /// Element offset of the view's `[0, ...]` from `base`'s.
        offset: Value,
        /// The view's dimensions.
        shape: Vec<Value>,
        /// The view's strides in elements.
        strides: Vec<Value>,
    },
    /// A new list of `len` elements (int64, non-negative), owned by the memory manager: one
    /// reference, held by the result, whose type gives the element type. The elements start
    /// as zeros (null references for elements that are arrays or lists). An allocation that
    /// fails raises `MemoryError`.
    NewList(Value),
    /// The number of elements of a list (int64).
    ListLen(Value),
    /// Element `idx` (int64, `0 <= idx < len`: the rewrite checks) of a list. An element that
    /// holds references is borrowed from the list; the refcount pass gives the result its own.
    ListGet(Value, Value),
    /// Stores the third operand as element `idx` (`0 <= idx < len`). The list takes a reference
    /// to what the value holds and drops the one its old element held.
    ListSet(Value, Value, Value),
    /// Sets the list's length (int64, non-negative): new elements are zeros, dropped ones
    /// release their references; the buffer grows geometrically. An allocation that fails
    /// raises `MemoryError`.
    ListResize(Value, Value),
    /// One more reference to every managed array in the value (an array or a tuple holding
    /// arrays); arrays the caller lent (no owner) are unaffected. Made by the refcount pass.
    IncRef(Value),
    /// One reference fewer; the buffer is freed when its count reaches zero. Made by the
    /// refcount pass.
    DecRef(Value),
}

impl InstKind {
    /// The values this instruction reads, in the order `map_operands` visits them (the one
    /// list of operand positions; this collects them from a copy).
    pub fn operands(&self) -> Vec<Value> {
        let mut out = Vec::new();
        self.clone().map_operands(|v| {
            out.push(v);
            v
        });
        out
    }

    /// Applies `f` to every operand in place.
    pub fn map_operands(&mut self, mut f: impl FnMut(Value) -> Value) {
        match self {
            InstKind::Const(_)
            | InstKind::Undef
            | InstKind::AllocArray { .. }
            | InstKind::ConstArray(_)
            | InstKind::FuncRef(_) => {}
            InstKind::Unary(_, a)
            | InstKind::Cast(_, a)
            | InstKind::Dim(a, _)
            | InstKind::TupleGet(a, _)
            | InstKind::Stride(a, _)
            | InstKind::IncRef(a)
            | InstKind::DecRef(a)
            | InstKind::NewList(a)
            | InstKind::ListLen(a)
            | InstKind::CheckNonZero(a) => *a = f(*a),
            InstKind::NewArray { shape, .. } => shape.iter_mut().for_each(|v| *v = f(*v)),
            InstKind::View { base, offset, shape, strides } => {
                *base = f(*base);
                *offset = f(*offset);
                shape.iter_mut().chain(strides.iter_mut()).for_each(|v| *v = f(*v));
            }
            InstKind::Binary(_, a, b)
            | InstKind::Compare(_, a, b)
            | InstKind::CheckIndex(a, b, _)
            | InstKind::ListGet(a, b)
            | InstKind::ListResize(a, b)
            | InstKind::Load(a, b) => {
                *a = f(*a);
                *b = f(*b);
            }
            InstKind::Select(a, b, c) | InstKind::Store(a, b, c) | InstKind::ListSet(a, b, c) => {
                *a = f(*a);
                *b = f(*b);
                *c = f(*c);
            }
            InstKind::Call(_, args)
            | InstKind::ParallelFor(_, args)
            | InstKind::Builtin(_, args)
            | InstKind::MakeTuple(args) => args.iter_mut().for_each(|v| *v = f(*v)),
            InstKind::GetItem(a, idx) => {
                *a = f(*a);
                idx.iter_mut().for_each(|v| *v = f(*v));
            }
            InstKind::SetItem(a, idx, v) => {
                *a = f(*a);
                idx.iter_mut().for_each(|x| *x = f(*x));
                *v = f(*v);
            }
        }
    }

    /// Whether this instruction has an effect beyond its result (so it is never removed).
    pub fn has_side_effect(&self) -> bool {
        match self {
            InstKind::SetItem(..)
            | InstKind::Store(..)
            | InstKind::CheckIndex(..)
            | InstKind::CheckNonZero(..)
            | InstKind::Call(..)
            | InstKind::ParallelFor(..)
            | InstKind::AllocArray { .. }
            | InstKind::NewArray { .. }
            | InstKind::NewList(_)
            | InstKind::ListSet(..)
            | InstKind::ListResize(..)
            | InstKind::IncRef(_)
            | InstKind::DecRef(_) => true,
            // Integer `**` by a negative exponent with base 0 raises.
            InstKind::Binary(BinaryOp::Pow, ..) => true,
            // A call through a function value may do anything a call does.
            InstKind::Builtin(b, _) => {
                b.is_cuda()
                    || b.is_random()
                    || matches!(
                        b,
                        Builtin::CallValue
                            | Builtin::PrangeLoop
                            | Builtin::UfuncCall
                            | Builtin::GufuncCall
                            | Builtin::UfuncReduce
                    )
            }
            _ => false,
        }
    }
}

/// A jump target with its arguments.
#[derive(Clone, Debug, PartialEq)]
pub struct BlockCall {
    /// Destination.
    pub block: Block,
    /// One argument per destination block parameter.
    pub args: Vec<Value>,
}

/// How a block ends.
#[derive(Clone, Debug, PartialEq)]
pub enum Terminator {
    /// Unconditional jump.
    Jump(BlockCall),
    /// Two-way branch on a `bool`.
    Branch(Value, BlockCall, BlockCall),
    /// Return from the function (`None` returns `None`).
    Return(Option<Value>),
    /// Raise a Python exception (`raise ValueError("bad", x)`, a failed `assert`); its runtime
    /// arguments are scalars in typed IR, at most `exception::MAX_RUNTIME_ARGS`.
    Raise(Box<Exception<Value>>),
    /// Never reached (placeholder while building; the verifier rejects it in finished IR
    /// only if the block is reachable).
    Unreachable,
}

impl Terminator {
    /// Successor edges.
    pub fn targets(&self) -> SmallVec<[&BlockCall; 2]> {
        match self {
            Terminator::Jump(c) => smallvec![c],
            Terminator::Branch(_, a, b) => smallvec![a, b],
            _ => SmallVec::new(),
        }
    }

    /// Successor edges, mutable.
    pub fn targets_mut(&mut self) -> SmallVec<[&mut BlockCall; 2]> {
        match self {
            Terminator::Jump(c) => smallvec![c],
            Terminator::Branch(_, a, b) => smallvec![a, b],
            _ => SmallVec::new(),
        }
    }

    /// Values read by the terminator, including block arguments.
    pub fn operands(&self) -> SmallVec<[Value; 8]> {
        let mut v = SmallVec::new();
        match self {
            Terminator::Branch(c, ..) => v.push(*c),
            Terminator::Return(Some(r)) => v.push(*r),
            Terminator::Raise(e) => v.extend(e.runtime().copied()),
            _ => {}
        }
        for t in self.targets() {
            v.extend(t.args.iter().copied());
        }
        v
    }

    /// Applies `f` to every operand in place.
    pub fn map_operands(&mut self, mut f: impl FnMut(Value) -> Value) {
        match self {
            Terminator::Branch(c, ..) => *c = f(*c),
            Terminator::Return(Some(r)) => *r = f(*r),
            Terminator::Raise(e) => e.runtime_mut().for_each(|r| *r = f(*r)),
            _ => {}
        }
        for t in self.targets_mut() {
            t.args.iter_mut().for_each(|a| *a = f(*a));
        }
    }
}

/// One instruction.
#[derive(Clone, Debug, PartialEq)]
pub struct InstData {
    /// What it does.
    pub kind: InstKind,
    /// Its result, if it has one.
    pub result: Option<Value>,
    /// Where it came from.
    pub span: Span,
}

/// Where a value is defined.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueDef {
    /// The `n`-th parameter of a block.
    Param(Block, u32),
    /// The result of an instruction.
    Inst(Inst),
}

/// A value: its type and definition.
#[derive(Clone, Debug, PartialEq)]
pub struct ValueData {
    /// Type (`Unknown` in untyped IR).
    pub ty: Type,
    /// Definition.
    pub def: ValueDef,
}

/// A basic block.
#[derive(Clone, Debug, PartialEq)]
pub struct BlockData {
    /// Block parameters (the SSA join points).
    pub params: Vec<Value>,
    /// Instructions in order.
    pub insts: Vec<Inst>,
    /// How it ends.
    pub term: Terminator,
    /// Span of the terminator.
    pub term_span: Span,
    /// The unwind edge, for a block of a `try` body: when any instruction of the block raises
    /// (a `raise` terminator, a failed check, a call that fails), control goes to this block
    /// with these arguments instead of leaving the function. The arguments are available at the
    /// block's start (they dominate it or are its parameters), so the edge may be taken from
    /// any point of the block; the target is a handler entry that only unwind edges reach. See
    /// ARCHITECTURE.md, "Exceptions caught in compiled code".
    pub unwind: Option<BlockCall>,
}

impl BlockData {
    /// Every successor edge: the terminator's, then the unwind edge.
    pub fn succs(&self) -> SmallVec<[&BlockCall; 3]> {
        let mut v: SmallVec<[&BlockCall; 3]> = self.term.targets().into_iter().collect();
        v.extend(self.unwind.as_ref());
        v
    }

    /// Every successor edge, mutable.
    pub fn succs_mut(&mut self) -> SmallVec<[&mut BlockCall; 3]> {
        let mut v: SmallVec<[&mut BlockCall; 3]> = self.term.targets_mut().into_iter().collect();
        v.extend(self.unwind.as_mut());
        v
    }

    /// Values the block's end reads: the terminator's operands and the unwind arguments.
    pub fn end_operands(&self) -> SmallVec<[Value; 8]> {
        let mut v = self.term.operands();
        v.extend(self.unwind.iter().flat_map(|u| u.args.iter().copied()));
        v
    }

    /// Applies `f` to the terminator's operands and the unwind arguments.
    pub fn map_end_operands(&mut self, mut f: impl FnMut(Value) -> Value) {
        self.term.map_operands(&mut f);
        if let Some(u) = &mut self.unwind {
            u.args.iter_mut().for_each(|a| *a = f(*a));
        }
    }
}

/// A function in SSA form. The first block is the entry; its parameters are the function's.
#[derive(Clone, Debug, PartialEq)]
pub struct Function {
    /// Name (a specialisation's mangled name in typed IR).
    pub name: String,
    /// Parameter names, one per entry-block parameter.
    pub param_names: Vec<String>,
    /// Spans of the parameter names (empty when unknown, e.g. parsed IR text).
    pub param_spans: Vec<Span>,
    /// Return type (`Unknown` in untyped IR).
    pub ret: Type,
    /// Blocks; `Block(0)` is the entry.
    pub blocks: Vec<BlockData>,
    /// Instruction table.
    pub insts: Vec<InstData>,
    /// Value table.
    pub values: Vec<ValueData>,
    /// Span of the whole definition.
    pub span: Span,
}

impl Function {
    /// An empty function with an entry block.
    pub fn new(name: impl Into<String>, span: Span) -> Self {
        let mut f = Function {
            name: name.into(),
            param_names: Vec::new(),
            param_spans: Vec::new(),
            ret: Type::Unknown,
            blocks: Vec::new(),
            insts: Vec::new(),
            values: Vec::new(),
            span,
        };
        f.add_block();
        f
    }

    /// The entry block.
    pub const ENTRY: Block = Block(0);

    /// Function parameters.
    pub fn params(&self) -> &[Value] {
        &self.blocks[0].params
    }

    /// Appends a new empty block.
    pub fn add_block(&mut self) -> Block {
        let b = Block(self.blocks.len() as u32);
        self.blocks.push(BlockData {
            params: Vec::new(),
            insts: Vec::new(),
            term: Terminator::Unreachable,
            term_span: Span::DUMMY,
            unwind: None,
        });
        b
    }

    /// Adds a parameter of type `ty` to `block`.
    pub fn add_block_param(&mut self, block: Block, ty: Type) -> Value {
        let idx = self.blocks[block.index()].params.len() as u32;
        let v = Value(self.values.len() as u32);
        self.values.push(ValueData { ty, def: ValueDef::Param(block, idx) });
        self.blocks[block.index()].params.push(v);
        v
    }

    /// Creates an instruction (not yet placed in a block) and its result value if `ty` is
    /// given.
    pub fn make_inst(&mut self, kind: InstKind, ty: Option<Type>, span: Span) -> Inst {
        let inst = Inst(self.insts.len() as u32);
        let result = ty.map(|ty| {
            let v = Value(self.values.len() as u32);
            self.values.push(ValueData { ty, def: ValueDef::Inst(inst) });
            v
        });
        self.insts.push(InstData { kind, result, span });
        inst
    }

    /// Appends an instruction to `block`; returns its result (if any).
    pub fn push(&mut self, block: Block, kind: InstKind, ty: Option<Type>, span: Span) -> Option<Value> {
        let inst = self.make_inst(kind, ty, span);
        self.blocks[block.index()].insts.push(inst);
        self.insts[inst.index()].result
    }

    /// Sets a block's terminator.
    pub fn terminate(&mut self, block: Block, term: Terminator, span: Span) {
        let b = &mut self.blocks[block.index()];
        b.term = term;
        b.term_span = span;
    }

    /// A value's type.
    pub fn ty(&self, v: Value) -> &Type {
        &self.values[v.index()].ty
    }

    /// The span where a value is defined (a block parameter reports its block's first
    /// instruction or the function).
    pub fn value_span(&self, v: Value) -> Span {
        match self.values[v.index()].def {
            ValueDef::Inst(i) => self.insts[i.index()].span,
            ValueDef::Param(b, k) if b == Self::ENTRY => self.param_spans.get(k as usize).copied().unwrap_or(self.span),
            ValueDef::Param(..) => self.span,
        }
    }

    /// The instruction defining `v`, if it is an instruction result.
    pub fn def_inst(&self, v: Value) -> Option<&InstData> {
        match self.values[v.index()].def {
            ValueDef::Inst(i) => Some(&self.insts[i.index()]),
            ValueDef::Param(..) => None,
        }
    }

    /// The integer `v` is, if an integer constant defines it.
    pub fn const_int(&self, v: Value) -> Option<i64> {
        match self.def_inst(v).map(|d| &d.kind) {
            Some(InstKind::Const(Const::Int(k))) => Some(*k),
            _ => None,
        }
    }

    /// Whether any block has an unwind edge (the function has a `try` body).
    pub fn has_unwind(&self) -> bool {
        self.blocks.iter().any(|b| b.unwind.is_some())
    }

    /// Blocks that unwind edges reach (`try` handlers): their parameters are borrowed (see
    /// the refcount pass).
    pub fn handlers(&self) -> Vec<Block> {
        let mut v: Vec<Block> = self.blocks.iter().filter_map(|b| b.unwind.as_ref().map(|u| u.block)).collect();
        v.sort();
        v.dedup();
        v
    }

    /// Blocks reachable from the entry, in reverse post-order.
    pub fn reverse_postorder(&self) -> Vec<Block> {
        let n = self.blocks.len();
        let mut seen = vec![false; n];
        let mut order = Vec::with_capacity(n);
        // Iterative DFS: (block, next successor index).
        let mut stack: Vec<(Block, usize)> = vec![(Self::ENTRY, 0)];
        seen[0] = true;
        while let Some((b, i)) = stack.pop() {
            let succs = self.blocks[b.index()].succs();
            if i < succs.len() {
                let s = succs[i].block;
                stack.push((b, i + 1));
                if s.index() < n && !seen[s.index()] {
                    seen[s.index()] = true;
                    stack.push((s, 0));
                }
            } else {
                order.push(b);
            }
        }
        order.reverse();
        order
    }
}
