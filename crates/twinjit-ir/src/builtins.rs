//! The builtins table: the one list of every function and attribute the language knows beyond
//! plain operators. Each row gives the builtin's IR name, the Python paths that name it, its
//! arity, its typing class and its lowering class; the front end resolves names through
//! [`Builtin::from_path`], hints are made from [`paths_under`], type inference dispatches on
//! [`Typing`], and every backend (and the interpreter) handles each [`Lowering`] class in one
//! exhaustive `match` with no wildcard arm, so a new class does not compile until every backend
//! handles it.
//!
//! This module knows nothing of Python syntax or of any backend. Invariants: a path names at
//! most one builtin; a row with `Lowering::Libm` has a float typing class (its arguments are
//! floats of one width when a backend sees it); a C function may back several rows (`math.exp`
//! and `np.exp` differ only in typing) and is registered once; rows with `Lowering::Rewritten` never reach a
//! backend (type inference replaces them).
//!
//! Adding a builtin: see "Recipe: adding a builtin" in ARCHITECTURE.md.

use crate::function::{BinaryOp, CmpOp};
use crate::libm;

/// How type inference types a builtin's call (and how its rewrite converts the arguments).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Typing {
    /// A float function of floats: integer and bool arguments become float64, all-float32
    /// arguments stay float32; the result has the arguments' float type (`math.sqrt`).
    FloatMath,
    /// `x * factor` in the float type of `x` (`math.degrees`); rewritten to a multiplication.
    FloatScale(f64),
    /// A float rounded to an integer, giving int64; integers pass through (`math.floor`).
    FloatToInt,
    /// A predicate on a float; on an integer it is a constant (`math.isnan`).
    FloatPredicate,
    /// `(float, int) -> float`, the integer as int32 (`math.ldexp`).
    FloatInt,
    /// `float -> (float, int32)` (`math.frexp`): rewritten to the mantissa and exponent
    /// helpers.
    Frexp,
    /// `float -> (float, float)` (`math.modf`): the fractional and integer parts, each with
    /// the sign of the argument; rewritten to `fmod`, `copysign` and a select.
    Modf,
    /// numba-cuda's vector type constructor (`cuda.float32x4(x, y, z, w)`, `cuda.int2(v1, 3)`):
    /// the first argument is the type's name as a string constant, the others scalars or
    /// vectors, whose components are taken in order; a tuple of the base type (the components
    /// `.x .y .z .w`). Rewritten to casts and a tuple.
    CudaVector,
    /// Integers of a common type: int32 when both are int32, else int64 (`math.gcd`).
    IntMath,
    /// `abs(x)`: floats stay, integers become int64; rewritten to `fabs` or a select.
    Abs,
    /// `min`/`max` of numbers, or of the numbers of one tuple: their unified type; rewritten
    /// to compares and selects.
    MinMax,
    /// `round(x)`: int64 (ties to even); `round(x, ndigits)`: a float, float32 for a float32
    /// (or bool) `x`, computed by Numba's algorithm.
    Round,
    /// `divmod(a, b)`: `(a // b, a % b)` typed as those operators (`ZeroDivisionError` under
    /// the Python error model).
    Divmod,
    /// `pow(a, b)`: `a ** b`.
    Pow,
    /// `hash(x)` of a number, bool or tuple of them: CPython's value, an int64.
    Hash,
    /// `int(x)`: an integer keeps its type (as Numba's `int()`), a float or bool becomes an
    /// int64; rewritten to a cast.
    IntCtor,
    /// `tuple(t)`: a tuple is itself; other iterables are refused (their length is not a
    /// compile-time constant).
    TupleCtor,
    /// `a is b`: bool. As Numba: equal types that are immutable compare by value (`==`),
    /// different types (`x is None` for a number `x`) are a constant False; rewritten.
    Identity,
    /// `sum(tuple[, start])`: `start` (default 0) plus the elements in order, typed as `+`.
    Sum,
    /// `len(a)`: int64 (rewritten to the first dimension).
    ArrayLen,
    /// The trip count of `for x in a`: `len(a)` of a 1-D array (rewritten to its dimension);
    /// anything else is an error at the iterable.
    IterLen,
    /// `a.size`: int64 (rewritten to the product of the dimensions).
    ArraySize,
    /// `a.ndim`: an int64 constant.
    ArrayNdim,
    /// `a.shape`: a tuple of int64 dimensions.
    ArrayShape,
    /// `a.strides`: a tuple of int64 strides in bytes (elements times the itemsize).
    ArrayStrides,
    /// `a.dtype`: a zero of the array's dtype (how a dtype travels to a constructor's `dtype=`).
    ArrayDtype,
    /// `a.itemsize`: an int64 constant.
    ArrayItemsize,
    /// `a.nbytes`: the size times the itemsize, int64.
    ArrayNbytes,
    /// `x in t`: bool, for a homogeneous tuple of numbers `t` (rewritten to `==` and `|`).
    Contains,
    /// `t[lo:hi:step]` with constant (or absent) bounds: a new tuple; typed from the constant
    /// operands in `result_type`, rewritten to element reads.
    TupleSlice,
    /// `*t` in the arguments of a call of a module function: stands for the elements of the
    /// tuple `t`, flattened into the call by inference; never typed alone.
    Splat,
    /// `f(x)` of a value `f` of a function type: inference types it as the direct call of
    /// that function and the rewrite makes it one.
    CallValue,
    /// The application of a `@vectorize` / `@guvectorize` ufunc's inner function over its
    /// arguments (arguments: the inner function, the inputs, the outputs or None): typed by
    /// inference from the inner function's specialisations, rewritten to its loops.
    UserUfunc,
    /// Whether two dtypes (each passed as a zero of it) are the same: bool, a constant.
    SameDtype,
    /// An argument of `range()`: an integer, converted to int64.
    RangeIndex,
    /// Made only by rewrites, already typed; never typed by inference.
    Internal,
    /// `cuda.grid(n)` / `cuda.gridsize(n)`: int64, or a tuple of `n` (from the constant).
    GridIndex,
    /// A special register read (`cuda.threadIdx.x`): int32.
    SpecialRegister,
    /// No result (`cuda.syncthreads()`, `cuda.threadfence()`).
    NoResult,
    /// `g.sync()`: the receiver must be `cuda.cg.this_grid()`'s group (type `none`); no result.
    GridSync,
    /// `cuda.shared.array(shape, dtype=a.dtype)` / `cuda.local.array(...)`: a zero of the
    /// dtype, the memory space (constant 0 shared, 1 local) and the constant dimensions; an
    /// array of that dtype, rewritten to `alloc_array` once the dtype is known.
    KernelArrayLike,
    /// A piece of `print(...)` (a value, or up to 8 bytes of text): int64 0, written to
    /// standard output as Python's `str` of the value.
    Print,
    /// `cuda.syncthreads_count(p)` and friends: an integer predicate, an int32 result.
    BarrierPredicate,
    /// `cuda.activemask()`: int64.
    ActiveMask,
    /// `cuda.lanemask_lt()`: uint32.
    LaneMask,
    /// `cuda.popc(x)` and the other bit operations, with numba-cuda's signatures: `popc` and
    /// `clz` keep the integer type, `ffs` gives uint32, `brev` takes and gives uint32/uint64.
    Bits(BitOp),
    /// `cuda.all_sync(mask, p)`, `any_sync`, `eq_sync`: an integer mask and an integer or bool
    /// predicate, a bool; `ballot_sync` gives int32 (numba-cuda's types). `match_any_sync(mask,
    /// v)` (an integer or float value) gives int32, `match_all_sync` a tuple (int32, bool).
    Vote(VoteOp),
    /// `cuda.atomic.*(array, index, value...)`: the array's dtype.
    Atomic,
    /// `cuda.ldcg(array, index)` and the other cache-hinted loads: the array's dtype.
    CacheLoad,
    /// `cuda.stcg(array, index, value)` and the other cache-hinted stores: no result.
    CacheStore,
    /// `cuda.shfl_*_sync(mask, value, lane)`: the value's type.
    Shuffle,
    /// `cuda.fma(a, b, c)`: the float type of the three.
    Fma,
    /// `cuda.selp(cond, a, b)`: the unified type of `a` and `b`.
    Select,
    /// A NumPy ufunc applied to scalars (`np.sqrt`, `np.minimum`): the result type is chosen
    /// as Numba chooses the ufunc's loop ([`Ufunc::loops`]), the rewrite computes it.
    Ufunc(Ufunc),
    /// A NumPy array constructor (`np.empty`, `np.arange`, `a.copy()`): a new array owned by
    /// the memory manager, typed by [`Alloc`]'s rules; the front end binds its arguments to
    /// [`Alloc::params`] (an omitted optional one is a `None` constant; a dtype is passed as a
    /// zero of that dtype, so its type is the dtype), the rewrite builds `newarray` and the
    /// loops that fill it.
    Alloc(Alloc),
    /// A view of an array (`a.T`, `a.reshape(...)`): no copy where the layout allows it.
    View(ViewOp),
    /// A slice `lo:hi:step` in a subscript (`None` for an omitted bound): typed
    /// `Type::Slice`, consumed by the rewrite of the subscript.
    SliceIndex,
    /// The variable an in-place operator (`x += y`) rebinds, given the target and the value of
    /// `x + y`: for an array target the value is stored into the array itself (its type, by
    /// NumPy's `same_kind` casting and broadcasting) and the array stays bound; for anything
    /// else it is the value.
    InPlace,
    /// A reduction of an array ([`Reduce`]); the front end binds its arguments to
    /// [`Reduce::params`] as for [`Typing::Alloc`].
    Reduce(Reduce),
    /// `isinstance(x, classes)`: bool, decided by `x`'s type (the classes travel as a constant
    /// bit set, [`isinstance_classes`]); branches on it are pruned.
    IsInstance,
    /// `a.flags.c_contiguous` (false) / `a.flags.f_contiguous` (true): bool, checked at run
    /// time (known from the type for a C array's C flag).
    ArrayFlag(bool),
    /// The element count of a shape (an integer or a tuple of integers): int64.
    ShapeSize,
    /// `unravel(shape, k)`: the C-order index tuple of flat position `k` (one int64 per
    /// dimension; `np.ndindex` and `np.ndenumerate` loops).
    Unravel,
    /// `nditer_shape(x, ...)`: the iteration shape of `np.nditer((x, ...))`, a tuple of int64:
    /// the shape of the first array with the most dimensions; every other array must equal
    /// its trailing dimensions (Numba's rule: no size-1 broadcasting), numbers broadcast.
    NditerShape,
    /// `nditer_get(x, index)`: operand `x` of an `np.nditer` loop at the iteration's index
    /// tuple: a number is itself, an array is read at the index's trailing entries.
    NditerGet,
    /// `np.broadcast_shapes(shape, ...)`: NumPy's broadcast of shapes (integers or tuples of
    /// integers), a tuple of int64.
    BroadcastShapes,
    /// `np.broadcast_arrays(a, ...)`: a tuple of views of the arrays broadcast to one shape.
    BroadcastArrays,
    /// An elementwise function that is not a ufunc ([`Elem`]).
    Elementwise(Elem),
    /// An array method ([`ArrayMethod`]).
    Method(ArrayMethod),
    /// Linear algebra ([`Linalg`]).
    Linalg(Linalg),
    /// `np.random` ([`RandomOp`]); arguments bound to [`RandomOp::params`].
    Random(RandomOp),
    /// `numba.get_num_threads()` / `numba.get_thread_id()`: int64; `numba.set_num_threads(n)`:
    /// an integer `n` (converted to int64), `None`.
    Threads,
    /// A complex-number operation ([`ComplexOp`]): rewritten to float operations on the
    /// (real, imaginary) parts.
    Complex(ComplexOp),
    /// A list operation or method (`[]`, `[a, b]`, `l.append(x)`, `del l[i]`): typed by
    /// [`ListOp`]'s rules, rewritten to the list primitives (`newlist`, `listlen`, `listget`,
    /// `listset`, `listresize`) and loops.
    List(ListOp),
    /// [`DictOp`]'s rules, rewritten to the list primitives of the dict's four lists
    /// (`Type::Dict`) and loops.
    Dict(DictOp),
    /// A `heapq` function ([`HeapOp`]) on a list: rewritten to list primitives and loops.
    Heap(HeapOp),
}

/// A function of Python's `heapq` module (as Numba supports them: the heap is a list whose
/// elements compare with `<`; tuples compare lexicographically).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HeapOp {
    /// `heappush(heap, x)`
    Push,
    /// `heappop(heap)`
    Pop,
    /// `heapreplace(heap, x)`: pop, then push.
    Replace,
    /// `heappushpop(heap, x)`: push, then pop.
    PushPop,
    /// `heapify(x)`
    Heapify,
    /// `nlargest(n, iterable)`
    NLargest,
    /// `nsmallest(n, iterable)`
    NSmallest,
}

/// A complex-number builtin: `complex()`, the parts and the `cmath` functions Numba supports,
/// computed by Numba's (CPython's and NumPy's) algorithms on the two float parts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ComplexOp {
    /// `complex(real=0, imag=0)`: complex128, or complex64 when the parts are float32 (or
    /// complex64).
    Ctor,
    /// `z.real`: the real part (a real number is its own).
    Real,
    /// `z.imag`: the imaginary part (zero of a real number's type).
    Imag,
    /// `z.conjugate()`
    Conjugate,
    /// `cmath.sqrt` (NumPy's `npy_csqrt` algorithm)
    Sqrt,
    /// `cmath.exp`
    Exp,
    /// `cmath.log(z[, base])`
    Log,
    /// `cmath.log10`
    Log10,
    /// `cmath.phase`: a float.
    Phase,
    /// `cmath.polar`: `(abs(z), phase(z))`.
    Polar,
    /// `cmath.rect(r, phi)`
    Rect,
    /// `cmath.isnan`: bool.
    IsNan,
    /// `cmath.isinf`: bool.
    IsInf,
    /// `cmath.isfinite`: bool.
    IsFinite,
    /// `cmath.sin`
    Sin,
    /// `cmath.cos`
    Cos,
    /// `cmath.tan`
    Tan,
    /// `cmath.sinh`
    Sinh,
    /// `cmath.cosh`
    Cosh,
    /// `cmath.tanh`
    Tanh,
    /// `cmath.acos` (CPython's `c_acos`)
    Acos,
    /// `cmath.asin`
    Asin,
    /// `cmath.atan`
    Atan,
    /// `cmath.acosh`
    Acosh,
    /// `cmath.asinh`
    Asinh,
    /// `cmath.atanh`
    Atanh,
}

/// A list operation (Numba's reflected lists in nopython code).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ListOp {
    /// `[]`: an empty list, whose element type inference takes from what it receives
    /// (`append`, `insert`, `extend`), as Numba refines `list(undefined)`.
    New,
    /// `[a, b, ...]`: the elements' unified type.
    Literal,
    /// `l.append(x)`
    Append,
    /// `l.extend(iterable)` (a list, a 1-D array or a tuple of one type).
    Extend,
    /// `l.pop()` / `l.pop(i)` (the front end passes `None` for no index).
    Pop,
    /// `l.insert(i, x)`
    Insert,
    /// `l.remove(x)`: the first equal element; `ValueError` when there is none.
    Remove,
    /// `l.index(x)`: the first equal element's position; `ValueError` when there is none.
    Index,
    /// `l.count(x)`
    Count,
    /// `l.reverse()`
    Reverse,
    /// `l.clear()`
    Clear,
    /// `l.sort(reverse)` (the front end binds `reverse=`, default False): a stable merge
    /// sort, as Python's is stable.
    Sort,
    /// `del l[i]`
    Del,
    /// `del l[a:b:c]` (the front end passes `None` for a missing part)
    DelSlice,
}

/// A dict operation (Numba's typed dict, host only). `d[k]`, `d[k] = v`, `k in d`, `len(d)`,
/// `del d[k]`, `d.pop()`, `d.clear()` and `d.copy()` are the item instructions and the list or
/// array builtins of the same spelling, typed and rewritten by their receiver.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DictOp {
    /// `{}` / `dict()`: an empty dict, whose key and value types inference takes from what it
    /// receives, as Numba refines an empty dict literal.
    New,
    /// `{k0: v0, k1: v1, ...}` (keys and values alternate): the unified key and value types.
    Literal,
    /// `d.get(k)` (an optional value) / `d.get(k, default)`
    Get,
    /// `d.keys()`: a list of the keys (a snapshot, in insertion order).
    Keys,
    /// `d.values()`
    Values,
    /// `d.items()`: a list of (key, value) tuples.
    Items,
    /// `d.setdefault(k, v)`
    Setdefault,
    /// `d.update(other)`
    Update,
    /// What a `for` loop iterates: a dict's keys or a set's elements (a snapshot list);
    /// anything else itself.
    IterSource,
    /// `set()`: an empty set, typed by what it receives.
    SetNew,
    /// `{a, b, ...}`
    SetLiteral,
    /// `s.add(x)`
    SetAdd,
    /// `s.discard(x)`
    SetDiscard,
    /// `a | b`, `a.union(b)`
    SetUnion,
    /// `a & b`, `a.intersection(b)`
    SetIntersection,
    /// `a - b`, `a.difference(b)`
    SetDifference,
    /// `a ^ b`, `a.symmetric_difference(b)`
    SetSymmetricDifference,
    /// `a.difference_update(b)`
    SetDifferenceUpdate,
    /// `a.intersection_update(b)`
    SetIntersectionUpdate,
    /// `a.symmetric_difference_update(b)`
    SetSymmetricDifferenceUpdate,
    /// `a <= b`, `a.issubset(b)`
    SetIsSubset,
    /// `a >= b`, `a.issuperset(b)`
    SetIsSuperset,
    /// `a.isdisjoint(b)`
    SetIsDisjoint,
}

/// An array constructor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Alloc {
    /// `np.empty(shape, dtype=float)`
    Empty,
    /// `np.zeros(shape, dtype=float)`
    Zeros,
    /// `np.ones(shape, dtype=float)`
    Ones,
    /// `np.full(shape, fill_value, dtype=None)`: the fill value's type by default.
    Full,
    /// `np.empty_like(a, dtype=None)`
    EmptyLike,
    /// `np.zeros_like(a, dtype=None)`
    ZerosLike,
    /// `np.ones_like(a, dtype=None)`
    OnesLike,
    /// `np.full_like(a, fill_value, dtype=None)`
    FullLike,
    /// `np.arange([start,] stop[, step], dtype=None)`
    Arange,
    /// `np.linspace(start, stop, num=50)`
    Linspace,
    /// `np.eye(N, M=None, k=0, dtype=float)`
    Eye,
    /// `np.identity(n, dtype=float)`
    Identity,
    /// `np.copy(a)` / `a.copy()`: a C-contiguous copy.
    Copy,
    /// `np.array(object, dtype=None)` of a (nested) list or tuple of numbers, or of an array.
    Array,
    /// `a.astype(dtype)`: a C-contiguous copy converted to `dtype`.
    Astype,
    /// `np.asfortranarray(a)`: a column-major copy (a transposed view of a C buffer of the
    /// reversed shape); a 1-D array is copied as is.
    AsFortran,
    /// `np.ascontiguousarray(a)`: `a` itself when its type is C-contiguous, else a C copy.
    AsContiguous,
    /// `np.asarray(a)`: an array as is; a list or tuple of numbers as `np.array` makes it.
    AsArray,
}

impl Alloc {
    /// Python's parameter names in order, and how many are required (the rest default to
    /// `None`, or to the value Numba gives them).
    pub fn params(self) -> (&'static [&'static str], usize) {
        match self {
            Alloc::Empty | Alloc::Zeros | Alloc::Ones => (&["shape", "dtype"], 1),
            Alloc::Full => (&["shape", "fill_value", "dtype"], 2),
            Alloc::EmptyLike | Alloc::ZerosLike | Alloc::OnesLike => (&["a", "dtype"], 1),
            Alloc::FullLike => (&["a", "fill_value", "dtype"], 2),
            Alloc::Arange => (&["start", "stop", "step", "dtype"], 1),
            Alloc::Linspace => (&["start", "stop", "num"], 2),
            Alloc::Eye => (&["N", "M", "k", "dtype"], 1),
            Alloc::Identity => (&["n", "dtype"], 1),
            Alloc::Copy => (&["a"], 1),
            Alloc::Array => (&["object", "dtype"], 1),
            Alloc::Astype => (&["a", "dtype"], 2),
            Alloc::AsFortran | Alloc::AsContiguous => (&["a"], 1),
            Alloc::AsArray => (&["a", "dtype"], 1),
        }
    }

    /// The parameter that takes a dtype, if any.
    pub fn dtype_param(self) -> Option<usize> {
        self.params().0.iter().position(|p| *p == "dtype")
    }
}

/// The classes `isinstance` knows, as bits of its constant second argument, by name: Python's
/// builtin classes, and Numba's type classes by their path (`numba.types.Integer`), which an
/// `@overload` function tests its arguments' types with.
pub const ISINSTANCE_CLASSES: &[(&str, i64)] = &[
    ("int", 1),
    ("float", 2),
    ("bool", 4),
    ("tuple", 8),
    ("list", 16),
    ("complex", 32),
    ("str", 64),
    ("numba.types.Integer", NB_INTEGER),
    ("numba.types.Float", NB_FLOAT),
    ("numba.types.Complex", NB_COMPLEX),
    ("numba.types.Number", NB_INTEGER | NB_FLOAT | NB_COMPLEX),
    ("numba.types.Boolean", NB_BOOLEAN),
    ("numba.types.Array", NB_ARRAY),
    ("numba.types.Buffer", NB_ARRAY),
    ("numba.types.UniTuple", NB_UNITUPLE),
    ("numba.types.Tuple", NB_TUPLE),
    ("numba.types.BaseTuple", NB_UNITUPLE | NB_TUPLE),
    ("numba.types.NoneType", NB_NONE),
    // An omitted argument reaches the function as its default, which for an `@overload` is
    // almost always `None`: an omitted argument and a `None` one test alike here.
    ("numba.types.Omitted", NB_NONE),
    ("numba.types.Optional", NB_OPTIONAL),
    ("numba.types.List", NB_LIST),
    ("numba.types.ListType", NB_LIST),
    ("numba.types.UnicodeType", NB_UNICODE),
    ("numba.types.StringLiteral", NB_UNICODE),
];

const NB_INTEGER: i64 = 1 << 7;
const NB_FLOAT: i64 = 1 << 8;
const NB_COMPLEX: i64 = 1 << 9;
const NB_BOOLEAN: i64 = 1 << 10;
const NB_ARRAY: i64 = 1 << 11;
const NB_UNITUPLE: i64 = 1 << 12;
const NB_TUPLE: i64 = 1 << 13;
const NB_NONE: i64 = 1 << 14;
const NB_OPTIONAL: i64 = 1 << 15;
const NB_LIST: i64 = 1 << 16;
const NB_UNICODE: i64 = 1 << 17;

/// The bits of Numba's type classes in [`ISINSTANCE_CLASSES`].
pub const NUMBA_TYPE_CLASSES: i64 = !127;

/// Whether a value of type `t` is an instance of one of the classes in `bits`, as Numba decides
/// it in nopython code: by the exact Numba type, so `int` is int64, `float` float64 and
/// `complex` complex128 (an `np.int32` is not an `int` there), `bool` is bool, `tuple` and
/// `list` any tuple or list. Numba's type classes go by kind: `types.Integer` is every signed
/// and unsigned width (not bool), `types.UniTuple` a non-empty tuple of one item type and
/// `types.Tuple` any other tuple.
pub fn isinstance_classes(t: &crate::types::Type, bits: i64) -> bool {
    use crate::types::{Scalar, Type};
    let bit = match t {
        Type::Scalar(Scalar::Int64) => 1,
        Type::Scalar(Scalar::Float64) => 2,
        Type::Scalar(Scalar::Bool) => 4,
        Type::Scalar(Scalar::Complex128) => 32,
        Type::Tuple(_) => 8,
        Type::List(_) => 16,
        Type::Str(_) => 64,
        _ => 0,
    };
    let numba = match t {
        Type::Scalar(Scalar::Bool) => NB_BOOLEAN,
        Type::Scalar(s) if s.is_int() => NB_INTEGER,
        Type::Scalar(s) if s.is_complex() => NB_COMPLEX,
        Type::Scalar(_) => NB_FLOAT,
        Type::Array(_) => NB_ARRAY,
        Type::Tuple(items) if !items.is_empty() && items.iter().all(|i| i == &items[0]) => NB_UNITUPLE,
        Type::Tuple(_) => NB_TUPLE,
        Type::None => NB_NONE,
        Type::Optional(_) => NB_OPTIONAL,
        Type::List(_) => NB_LIST,
        Type::Str(_) => NB_UNICODE,
        _ => 0,
    };
    bits & (bit | numba) != 0
}

/// A reduction of an array's elements, or a running one (`np.sum`, `a.max()`, `np.cumsum`),
/// computed as Numba's implementations compute it (sequential loops in C order, Numba's
/// accumulator and result types, NaN rules and empty-array errors).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reduce {
    /// `np.sum(a, axis=None, dtype=None)`: integers and bools in int64.
    Sum,
    /// `np.prod(a)`.
    Prod,
    /// `np.min(a)` / `np.amin`: NaN wins; `ValueError` when empty.
    Min,
    /// `np.max(a)` / `np.amax`.
    Max,
    /// `np.mean(a)`: float64 for integers, the float's own type otherwise; NaN when empty.
    Mean,
    /// `np.var(a)`: float64.
    Var,
    /// `np.std(a)`: `var ** 0.5`.
    Std,
    /// `np.argmin(a)`: the flat index of the first minimum (of the first NaN).
    ArgMin,
    /// `np.argmax(a)`.
    ArgMax,
    /// `np.all(a)`.
    All,
    /// `np.any(a)`.
    Any,
    /// `np.cumsum(a)`: a 1-D array of the running sums, in C order.
    CumSum,
    /// `np.cumprod(a)`.
    CumProd,
    /// `np.nansum(a)`: NaNs count as 0.
    NanSum,
    /// `np.nanprod(a)`: NaNs count as 1.
    NanProd,
    /// `np.nanmin(a)`: NaNs skipped (NaN when all are).
    NanMin,
    /// `np.nanmax(a)`.
    NanMax,
    /// `np.nanmean(a)`: float64.
    NanMean,
    /// `np.nanvar(a)`: float64.
    NanVar,
    /// `np.nanstd(a)`: float64.
    NanStd,
    /// `np.ptp(a)`: `max - min` in int64 or float64.
    Ptp,
}

impl Reduce {
    /// Python's parameter names in order, and how many are required (the rest default to
    /// `None`).
    pub fn params(self) -> (&'static [&'static str], usize) {
        match self {
            Reduce::Sum => (&["a", "axis", "dtype"], 1),
            Reduce::ArgMin | Reduce::ArgMax | Reduce::CumSum | Reduce::CumProd => (&["a", "axis"], 1),
            _ => (&["a"], 1),
        }
    }

    /// The parameter that takes a dtype, if any.
    pub fn dtype_param(self) -> Option<usize> {
        self.params().0.iter().position(|p| *p == "dtype")
    }
}

/// An elementwise NumPy function that is not a ufunc (broadcasting like one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Elem {
    /// `np.where(cond, x, y)`: `x` where `cond` holds, else `y`, in their promoted dtype;
    /// `np.where(cond)` alone is `np.nonzero(cond)`.
    Where,
    /// `np.clip(a, lo, hi, out=None)` / `a.clip(lo, hi)`: `min(max(x, lo), hi)` in `a`'s
    /// dtype (into `out` when given).
    Clip,
    /// `np.round(a, decimals=0)` / `np.around`: half to even at `decimals` digits (Numba's
    /// `rint(x * 10**d) / 10**d`); integer arrays are returned as copies.
    Round,
}

/// Linear algebra on 1-D and 2-D arrays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Linalg {
    /// `np.dot(a, b)` / `a.dot(b)`: 1-D·1-D a number, 2-D·1-D and 1-D·2-D a vector, 2-D·2-D a
    /// matrix.
    Dot,
    /// `a @ b` / `np.matmul`: as `dot` for 1-D and 2-D operands.
    Matmul,
    /// `np.vdot(a, b)`: the dot product of the flattened arrays.
    Vdot,
    /// `np.outer(a, b)`: the (a.size, b.size) matrix of products.
    Outer,
    /// `np.trace(a)`: the sum of a 2-D array's diagonal.
    Trace,
    /// `np.diag(v, k=0)`: a 1-D array's (k-th) diagonal matrix, or a 2-D array's k-th
    /// diagonal.
    Diag,
    /// `np.linalg.norm(x, ord=None)`: vector norms 2 (default), 1, inf, -inf; matrix norms
    /// Frobenius (default), 1, inf.
    Norm,
    /// `np.cross(a, b)` of 3-vectors (rows of 2-D arrays too).
    Cross,
}

/// Array methods that are neither reductions nor constructors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArrayMethod {
    /// `a.fill(x)`: every element set to `x`; returns None.
    Fill,
    /// `a.item()`: the one element of a size-1 array.
    Item,
    /// `np.nonzero(a)` / `a.nonzero()`: a tuple of int64 index arrays, one per dimension.
    Nonzero,
    /// `np.count_nonzero(a)`: int64.
    CountNonzero,
    /// `np.flatnonzero(a)`: the flat indices of the nonzero elements.
    FlatNonzero,
    /// `np.sort(a)`: a sorted copy of a 1-D array (NaNs last; stable).
    Sort,
    /// `np.argsort(a, kind=...)` / `a.argsort()`: the int64 permutation that sorts a 1-D array,
    /// stable (ties keep their order, which is what Numba's sorts give up to 16 elements).
    Argsort,
    /// `np.median(a)`: float64, of the flattened array; NaN when empty.
    Median,
    /// `np.diff(a, n=1)`: the n-th differences along the last axis.
    Diff,
    /// `np.unique(ar)`: the sorted distinct elements of the flattened array.
    Unique,
    /// `np.searchsorted(a, v, side='left')`: insertion points into the sorted 1-D `a`
    /// (`side` passed as a bool, true for 'right').
    Searchsorted,
    /// `np.concatenate(arrays, axis=0)` of a tuple of arrays.
    Concatenate,
    /// `np.stack(arrays, axis=0)`: along a new axis.
    Stack,
    /// `np.hstack(tup)`
    Hstack,
    /// `np.vstack(tup)`
    Vstack,
    /// `np.column_stack(tup)`
    ColumnStack,
    /// `np.isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False)`: elementwise.
    Isclose,
    /// `np.allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False)`: all of `isclose`.
    Allclose,
    /// `np.interp(x, xp, fp)`: piecewise-linear, NumPy's algorithm (float64).
    Interp,
    /// `np.bincount(x, weights=None, minlength=0)`
    Bincount,
    /// `np.average(a, weights=None)`
    Average,
    /// `np.percentile(a, q)` (q in [0, 100]), Numba's interpolation.
    Percentile,
    /// `np.quantile(a, q)` (q in [0, 1]).
    Quantile,
    /// `np.nanmedian(a)`: the median of the elements that are not NaN.
    NanMedian,
    /// `np.nanpercentile(a, q)`
    NanPercentile,
    /// `np.nanquantile(a, q)`
    NanQuantile,
    /// `np.argwhere(a)`: the (count, ndim) int64 indices of the nonzero elements.
    Argwhere,
    /// `np.histogram(a, bins=10, range=None)`: `(counts, edges)` as Numba computes them.
    Histogram,
    /// `np.array_equal(a, b)`: same shape and equal elements.
    ArrayEqual,
    /// `np.digitize(x, bins, right=False)`: the bin of each value for increasing `bins`.
    Digitize,
    /// `np.take(a, indices)`: elements of the flattened array (a number, or an array of the
    /// indices' shape).
    Take,
    /// `np.fill_diagonal(a, val)`: in place, on a 2-D array.
    FillDiagonal,
    /// `np.triu(m, k=0)`: a copy with the elements below diagonal `k` zeroed.
    Triu,
    /// `np.tril(m, k=0)`: a copy with the elements above diagonal `k` zeroed.
    Tril,
    /// `np.repeat(a, repeats)`: each element of the flattened array `repeats` times.
    Repeat,
    /// `np.roll(a, shift)`: the flattened array's elements shifted cyclically, in `a`'s shape.
    Roll,
}

impl ArrayMethod {
    /// Python's parameter names in order, and how many are required (`kind=` of `np.sort` is
    /// accepted and ignored: every kind gives the same sorted values).
    pub fn params(self) -> (&'static [&'static str], usize) {
        match self {
            ArrayMethod::Fill => (&["a", "value"], 2),
            ArrayMethod::Diff => (&["a", "n"], 1),
            ArrayMethod::Searchsorted => (&["a", "v", "side"], 2),
            // `kind=` travels as a bool: true for 'mergesort' / 'stable'.
            ArrayMethod::Argsort => (&["a", "kind"], 1),
            ArrayMethod::Concatenate | ArrayMethod::Stack => (&["arrays", "axis"], 1),
            ArrayMethod::Hstack | ArrayMethod::Vstack | ArrayMethod::ColumnStack => (&["tup"], 1),
            ArrayMethod::Isclose | ArrayMethod::Allclose => (&["a", "b", "rtol", "atol", "equal_nan"], 2),
            ArrayMethod::Interp => (&["x", "xp", "fp"], 3),
            ArrayMethod::Bincount => (&["x", "weights", "minlength"], 1),
            ArrayMethod::Average => (&["a", "weights"], 1),
            ArrayMethod::Percentile | ArrayMethod::Quantile => (&["a", "q"], 2),
            ArrayMethod::NanPercentile | ArrayMethod::NanQuantile => (&["a", "q"], 2),
            ArrayMethod::Histogram => (&["a", "bins", "range"], 1),
            ArrayMethod::Take => (&["a", "indices"], 2),
            ArrayMethod::ArrayEqual => (&["a1", "a2"], 2),
            ArrayMethod::Digitize => (&["x", "bins", "right"], 2),
            ArrayMethod::FillDiagonal => (&["a", "val", "wrap"], 2),
            ArrayMethod::Triu | ArrayMethod::Tril => (&["m", "k"], 1),
            ArrayMethod::Repeat => (&["a", "repeats"], 2),
            ArrayMethod::Roll => (&["a", "shift"], 2),
            _ => (&["a"], 1),
        }
    }
}

/// Which axes a flip reverses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FlipAxes {
    /// Every axis (`np.flip`).
    All,
    /// The first (`np.flipud`).
    First,
    /// The second (`np.fliplr`).
    Second,
}

/// A view-making array method or attribute.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ViewOp {
    /// `a.T` / `a.transpose()`: the axes reversed; `a.transpose(axes)` with a constant
    /// permutation.
    Transpose,
    /// `a.reshape(shape)` / `np.reshape(a, shape)`: a view of a C-contiguous array (one `-1`
    /// dimension is inferred); `ValueError` when the sizes differ.
    Reshape,
    /// `a.ravel()` / `np.ravel(a)`: a 1-D view of a C-contiguous array, else a copy.
    Ravel,
    /// `a.flatten()`: always a 1-D copy.
    Flatten,
    /// `np.flip(a)` / `np.flipud(a)` / `np.fliplr(a)`: a view with the axes (all, the first,
    /// the second) reversed.
    Flip(FlipAxes),
    /// `np.expand_dims(a, axis)`: a view with a new axis of length 1 (a constant `axis`).
    ExpandDims,
    /// `np.broadcast_to(a, shape)`: a view of `a` repeated to `shape` (stride 0 on repeated
    /// axes); `ValueError` when it does not broadcast.
    BroadcastTo,
    /// `a.view(dtype)`: the same bytes as another dtype (the last axis rescaled when the sizes
    /// differ, which needs it contiguous: NumPy's `ValueError`s otherwise).
    Reinterpret,
    /// `np.swapaxes(a, i, j)`: a view with two axes exchanged (constant axes).
    SwapAxes,
    /// `np.moveaxis(a, source, destination)`: a view with axes moved (constant integers or
    /// tuples of them), the others in their order.
    MoveAxis,
    /// `a.flat`: as `ravel()` for reading and iterating (a view of a C-contiguous array, where
    /// stores go through; of another array a copy, so storing into it is refused).
    Flat,
}

/// How Numba picks a ufunc's loop for scalar arguments (the result type), with Numba's loop
/// lists for the scalar types twinjit has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UfuncLoops {
    /// Only `f` and `d` loops: float32 when every argument is float32 or bool (a bool casts
    /// safely to float32, and Numba has no float16 loop), else float64.
    Float,
    /// Loops for bool, every integer and float: the unified type (bool stays bool).
    Numeric,
    /// Integer and float loops but none for bool: the unified type, bool becoming int64
    /// (Numba: int8, a type twinjit does not have yet; the values agree).
    NoBool,
    /// `true_divide`: integer and bool loops give float64, float loops their float.
    Divide,
    /// Comparisons and logical functions: always bool.
    Predicate,
}

/// A NumPy ufunc on scalars: how it is typed ([`Ufunc::loops`]) and what the rewrite builds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Ufunc {
    /// A float function: the row's own lowering on arguments converted to the result type.
    Float,
    /// `x * factor` in the result's float type (`np.deg2rad`, as Numba's `math.radians`).
    Scale(f64),
    /// Float loops round with the row's lowering; integer and bool loops return the argument
    /// (`np.floor`, `np.ceil`, `np.trunc` in NumPy 2).
    Rounding,
    /// `np.abs`: integers keep their type (wrapping), floats `fabs`.
    Abs,
    /// `np.negative`.
    Negative,
    /// `np.positive`.
    Positive,
    /// `np.square`: `x * x`.
    Square,
    /// `np.sign`: -1, 0 or 1; a float zero or NaN is returned as is.
    Sign,
    /// `np.reciprocal`: `1 / x`; integers through float64 and back, as Numba computes it.
    Reciprocal,
    /// `np.minimum`: NaN-propagating.
    Minimum,
    /// `np.maximum`: NaN-propagating.
    Maximum,
    /// `np.fmin`: a NaN argument loses.
    Fmin,
    /// `np.fmax`: a NaN argument loses.
    Fmax,
    /// `np.power`: integers by Numba's integer power (0 to a negative power is the type's
    /// minimum), floats by `pow`.
    Power,
    /// `np.mod` / `np.remainder`: the divisor's sign; a zero integer divisor gives 0.
    Remainder,
    /// `np.floor_divide`: integers floor (0 for a zero divisor and for MIN // -1), floats
    /// `floor(x / y)`.
    FloorDivide,
    /// `np.true_divide` / `np.divide`: IEEE division, no exception.
    TrueDivide,
    /// `np.add`, `np.subtract`, `np.multiply`, the bitwise functions and the shifts: the
    /// operator on the unified type (integers wrapping).
    Arith(BinaryOp),
    /// `np.invert` / `np.bitwise_not`: `~` (logical not on bools).
    Invert,
    /// `np.equal`, `np.less`, …: the comparison on the unified type.
    Compare(CmpOp),
    /// `np.logical_and`, `np.logical_or`, `np.logical_xor` (`BitAnd`, `BitOr`, `BitXor`) on
    /// the truth of the arguments.
    Logical(BinaryOp),
    /// `np.logical_not`.
    LogicalNot,
}

impl Ufunc {
    /// The loops Numba has for it (which decide the result type).
    pub fn loops(self) -> UfuncLoops {
        use self::Ufunc::*;
        match self {
            Float | Scale(_) => UfuncLoops::Float,
            Rounding | Abs | Minimum | Maximum | Fmin | Fmax => UfuncLoops::Numeric,
            Negative | Positive | Square | Sign | Reciprocal | Power | Remainder | FloorDivide => UfuncLoops::NoBool,
            Arith(BinaryOp::Sub | BinaryOp::Shl | BinaryOp::Shr) => UfuncLoops::NoBool,
            Arith(_) | Invert => UfuncLoops::Numeric,
            Compare(_) | Logical(_) | LogicalNot => UfuncLoops::Predicate,
            TrueDivide => UfuncLoops::Divide,
        }
    }
}

/// An operation both backends have as one instruction and the interpreter as one Rust method.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Intrinsic {
    /// Square root (correctly rounded everywhere).
    Sqrt,
    /// Absolute value of a float.
    Fabs,
    /// Round towards negative infinity (as a float).
    Floor,
    /// Round towards positive infinity (as a float).
    Ceil,
    /// Round towards zero (as a float).
    Trunc,
    /// Magnitude of the first, sign of the second.
    Copysign,
    /// `x != x`.
    IsNan,
    /// `|x| == inf`.
    IsInf,
    /// `|x| < inf`.
    IsFinite,
    /// Round to the nearest integer, ties to even (as a float).
    Rint,
    /// Whether two arrays start at the same address, or two lists are the same object
    /// (their first parts: the data pointer, the list object): `is` between them.
    SameAddress,
}

/// The shape of a C math function and the functions themselves (float64 and float32 forms).
#[derive(Clone, Copy, Debug)]
pub enum LibmSig {
    /// `f(x)`.
    Unary(extern "C" fn(f64) -> f64, extern "C" fn(f32) -> f32),
    /// `f(x, y)`.
    Binary(extern "C" fn(f64, f64) -> f64, extern "C" fn(f32, f32) -> f32),
    /// `f(x, n)` with an int32 `n` (`ldexp`).
    FloatInt(extern "C" fn(f64, i32) -> f64, extern "C" fn(f32, i32) -> f32),
}

/// A C math function. The interpreter calls the table's function pointers; the host calls the
/// same pointers (registered as `twinjit_libm_NAME` / `twinjit_libm_NAMEf`), so host and
/// interpreter agree bit for bit; PTX calls libdevice's `__nv_NAME` / `__nv_NAMEf`, which is
/// within 2 ulp.
#[derive(Clone, Copy, Debug)]
pub struct Libm {
    /// The float64 C name (`erf`); the float32 form adds `f`.
    pub name: &'static str,
    /// The functions.
    pub sig: LibmSig,
}

impl Libm {
    /// The host's import symbol for the float64 (`f32 == false`) or float32 form.
    pub fn host_symbol(&self, f32: bool) -> String {
        format!("twinjit_libm_{}{}", self.name, if f32 { "f" } else { "" })
    }
    /// Libdevice's function for the float64 or float32 form.
    pub fn libdevice(&self, f32: bool) -> String {
        format!("__nv_{}{}", self.name, if f32 { "f" } else { "" })
    }
    /// Number of arguments.
    pub fn arity(&self) -> usize {
        match self.sig {
            LibmSig::Unary(..) => 1,
            LibmSig::Binary(..) | LibmSig::FloatInt(..) => 2,
        }
    }
}

/// A small runtime function with no C equivalent: the interpreter's Rust function, a host
/// runtime helper that calls that same function, and a PTX helper with the same algorithm.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Helper {
    /// Greatest common divisor of two int64 (non-negative result).
    Gcd,
    /// The mantissa of `frexp(x)` (float64 or float32).
    FrexpMantissa,
    /// The exponent of `frexp(x)` (int32).
    FrexpExponent,
    /// `np.random.seed(s)` on this thread's generator (see `random`); returns 0.
    RandomSeed,
    /// The next double in [0, 1).
    RandomDouble,
    /// The next standard normal draw.
    RandomGauss,
    /// A uniform int64 in [0, n).
    RandomBelow,
    /// An integer operation of Python's `random` module on its own generator:
    /// `(kind, a, b, c) -> int64`, see `random::py_int`.
    PyRandomInt,
    /// A float draw of Python's `random` module: `(kind, a, b, c) -> float64`, see
    /// `random::py_float`.
    PyRandomFloat,
    /// `numba.get_num_threads()`: the threads this thread's parallel loops use (int64).
    GetNumThreads,
    /// `numba.set_num_threads(n)`: sets them when `1 <= n <=` the pool's size; returns 0.
    SetNumThreads,
    /// `numba.get_thread_id()`: this thread's index in the pool running a parallel loop, 0
    /// outside one (int64).
    ThreadId,
    /// `c = a @ b` of float matrices (`a`, `b`, a new `c`), by [`crate::gemm`]; returns 0.
    Gemm,
    /// Writes up to 8 bytes (the little-endian bytes of an int64, and their count) to
    /// standard output: `print`'s text and separators. Returns 0.
    PrintBytes,
    /// Writes `str(x)` of an int64 to standard output; returns 0.
    PrintInt,
    /// Writes `str(x)` of a uint64; returns 0.
    PrintUInt,
    /// Writes `str(x)` (Python's float repr) of a float64; returns 0.
    PrintFloat,
    /// Writes `True` or `False`; returns 0.
    PrintBool,
    /// Writes Python's `str` of the complex number with float64 parts (re, im): `(1+2j)`;
    /// returns 0.
    PrintComplex,
}

impl Helper {
    /// Whether it draws from (or seeds) a host generator, `np.random`'s or the `random`
    /// module's: kernels cannot (numba-cuda neither), and every kernel backend says so with
    /// [`HOST_RANDOM_IN_KERNEL`].
    pub fn draws_host_random(self) -> bool {
        matches!(
            self,
            Helper::RandomSeed
                | Helper::RandomDouble
                | Helper::RandomGauss
                | Helper::RandomBelow
                | Helper::PyRandomInt
                | Helper::PyRandomFloat
        )
    }
}

/// What a kernel backend refuses, and its hint, for a [`Helper::draws_host_random`] helper.
pub const HOST_RANDOM_IN_KERNEL: (&str, &str) = (
    "drawing from `random` or `np.random` in a kernel",
    "np.random and the random module are not available in kernels (numba-cuda neither); use numba.cuda.random",
);

/// An `np.random` function inside compiled code, drawing from Numba's generator (see
/// [`crate::random`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RandomOp {
    /// `np.random.seed(seed)`
    Seed,
    /// `np.random.random(size=None)` / `np.random.random_sample` / `np.random.sample`
    Random,
    /// `np.random.rand(d0, d1, ...)`
    Rand,
    /// `np.random.randn(d0, d1, ...)`
    Randn,
    /// `np.random.normal(loc=0.0, scale=1.0, size=None)` / `np.random.standard_normal`
    Normal,
    /// `np.random.uniform(low=0.0, high=1.0, size=None)`
    Uniform,
    /// `np.random.randint(low, high=None, size=None)`
    Randint,
    /// `np.random.shuffle(x)`: in place, Fisher-Yates from the end.
    Shuffle,
    /// `np.random.permutation(x)`: a shuffled `np.arange(x)`, or a shuffled copy of `x`.
    Permutation,
    /// `np.random.choice(a, size=None)`: uniform draws from `a` (or `np.arange(a)`).
    Choice,
    /// Python's `random` module, on its own generator (Numba keeps the two apart):
    /// `random.seed(a)`
    PySeed,
    /// `random.random()`
    PyRandom,
    /// `random.gauss(mu, sigma)` / `random.normalvariate(mu, sigma)`
    PyGauss,
    /// `random.getrandbits(k)` (a uint64, `1 <= k <= 64`)
    PyGetrandbits,
    /// `random.randrange(start, stop=None, step=1)`
    PyRandrange,
    /// `random.randint(a, b)`: `randrange(a, b + 1)`
    PyRandint,
    /// `random.uniform(a, b)`
    PyUniform,
    /// `random.triangular(low=0.0, high=1.0, mode=None)`
    PyTriangular,
    /// `random.gammavariate(alpha, beta)`
    PyGamma,
    /// `random.betavariate(alpha, beta)`
    PyBeta,
    /// `random.expovariate(lambd=1.0)`
    PyExpo,
    /// `random.lognormvariate(mu, sigma)`
    PyLognorm,
    /// `random.paretovariate(alpha)`
    PyPareto,
    /// `random.weibullvariate(alpha, beta)`
    PyWeibull,
    /// `random.vonmisesvariate(mu, kappa)`
    PyVonmises,
    /// `random.shuffle(x)` of a 1-D array, drawing `randrange(i + 1)` from the `random` generator
    PyShuffle,
}

impl RandomOp {
    /// Python's parameter names in order, and how many are required.
    pub fn params(self) -> (&'static [&'static str], usize) {
        match self {
            RandomOp::Seed => (&["seed"], 1),
            RandomOp::Random => (&["size"], 0),
            RandomOp::Rand | RandomOp::Randn => (&["d0", "d1", "d2"], 0),
            RandomOp::Normal => (&["loc", "scale", "size"], 0),
            RandomOp::Uniform => (&["low", "high", "size"], 0),
            RandomOp::Randint => (&["low", "high", "size"], 1),
            RandomOp::Shuffle | RandomOp::Permutation => (&["x"], 1),
            RandomOp::Choice => (&["a", "size", "replace"], 1),
            RandomOp::PySeed => (&["a"], 1),
            RandomOp::PyRandom => (&[], 0),
            RandomOp::PyGauss => (&["mu", "sigma"], 0),
            RandomOp::PyGetrandbits => (&["k"], 1),
            RandomOp::PyRandrange => (&["start", "stop", "step"], 1),
            RandomOp::PyRandint | RandomOp::PyUniform => (&["a", "b"], 2),
            RandomOp::PyTriangular => (&["low", "high", "mode"], 0),
            RandomOp::PyGamma | RandomOp::PyBeta | RandomOp::PyWeibull => (&["alpha", "beta"], 2),
            RandomOp::PyExpo => (&["lambd"], 0),
            RandomOp::PyLognorm => (&["mu", "sigma"], 2),
            RandomOp::PyPareto => (&["alpha"], 1),
            RandomOp::PyVonmises => (&["mu", "kappa"], 2),
            RandomOp::PyShuffle => (&["x"], 1),
        }
    }
}

/// A special register of a CUDA thread.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Register {
    /// `cuda.threadIdx.x/y/z` (axis 0..3).
    ThreadIdx(u8),
    /// `cuda.blockIdx.x/y/z`.
    BlockIdx(u8),
    /// `cuda.blockDim.x/y/z`.
    BlockDim(u8),
    /// `cuda.gridDim.x/y/z`.
    GridDim(u8),
    /// `cuda.laneid`.
    LaneId,
    /// `cuda.warpsize`.
    WarpSize,
}

/// The combining barriers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BarrierReduce {
    /// Number of threads whose predicate is non-zero.
    Count,
    /// 1 if every thread's predicate is non-zero.
    And,
    /// 1 if any thread's predicate is non-zero.
    Or,
}

/// The cache operator of a hinted load or store (PTX ISA, "Cache Operators"): `ld.global.OP`
/// / `st.global.OP`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CacheHint {
    /// Cache at all levels (`ldca`).
    Ca,
    /// Cache in L2, not L1 (`ldcg`, `stcg`).
    Cg,
    /// Cache streaming, likely accessed once (`ldcs`, `stcs`).
    Cs,
    /// Last use (`ldlu`).
    Lu,
    /// Don't cache, fetch again (`ldcv`).
    Cv,
    /// Cache write-back (`stwb`).
    Wb,
    /// Cache write-through (`stwt`).
    Wt,
}

impl CacheHint {
    /// The PTX spelling (`cg`).
    pub fn ptx(self) -> &'static str {
        match self {
            CacheHint::Ca => "ca",
            CacheHint::Cg => "cg",
            CacheHint::Cs => "cs",
            CacheHint::Lu => "lu",
            CacheHint::Cv => "cv",
            CacheHint::Wb => "wb",
            CacheHint::Wt => "wt",
        }
    }
}

/// Atomic read-modify-write operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtomicOp {
    /// `old + v`.
    Add,
    /// `old - v`.
    Sub,
    /// `max(old, v)` (floats: no store when either is NaN).
    Max,
    /// `min(old, v)`.
    Min,
    /// `max(old, v)` with NaN a missing value: a NaN `v` stores nothing, a NaN `old` is
    /// replaced (integers: `max`).
    NanMax,
    /// `min(old, v)` with NaN a missing value (integers: `min`).
    NanMin,
    /// `v`.
    Exch,
    /// `new if old == expected else old`.
    Cas,
    /// `old & v` (integers).
    And,
    /// `old | v` (integers).
    Or,
    /// `old ^ v` (integers).
    Xor,
    /// `0 if old >= v else old + 1` (unsigned).
    Inc,
    /// `v if old == 0 or old > v else old - 1` (unsigned).
    Dec,
}

/// A bit operation of `cuda.*`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BitOp {
    /// Set bits.
    Popc,
    /// Leading zero bits.
    Clz,
    /// One plus the index of the least significant set bit; 0 for 0.
    Ffs,
    /// The bits reversed.
    Brev,
}

/// A warp vote.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VoteOp {
    /// Every lane's predicate holds.
    All,
    /// Some lane's predicate holds.
    Any,
    /// Every lane's predicate is the same.
    Eq,
    /// The lanes whose predicate holds, as a bit mask.
    Ballot,
    /// `match_any_sync(mask, v)`: the lanes of the mask whose value equals this lane's
    /// (int32).
    MatchAny,
    /// `match_all_sync(mask, v)`: `(mask, True)` when every lane of the mask has the same
    /// value, else `(0, False)`.
    MatchAll,
}

/// Warp shuffle source lanes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShuffleKind {
    /// `lane + delta`.
    Down,
    /// `lane ^ mask`.
    Xor,
    /// `lane - delta`.
    Up,
    /// An absolute lane.
    Idx,
}

/// An operation that exists only in CUDA kernels and device functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KernelOp {
    /// `cuda.grid(n)`.
    Grid,
    /// `cuda.gridsize(n)`.
    Gridsize,
    /// A special register.
    Register(Register),
    /// `cuda.syncthreads()`.
    Barrier,
    /// `cuda.syncthreads_count/and/or(p)`.
    BarrierReduce(BarrierReduce),
    /// `g.sync()` on `cuda.cg.this_grid()`: every thread of the grid meets (a cooperative
    /// launch).
    GridSync,
    /// `cuda.cg.this_grid()`: the grid group, a value of type `none` (`sync()` is its only
    /// method).
    ThisGrid,
    /// `cuda.threadfence()`.
    ThreadFence,
    /// `cuda.threadfence_block()`.
    ThreadFenceBlock,
    /// `cuda.threadfence_system()`.
    ThreadFenceSystem,
    /// `cuda.nanosleep(ns)`.
    NanoSleep,
    /// `cuda.syncwarp(mask=0xffffffff)`: the lanes of the mask meet (an exchange point in the
    /// interpreter, as a shuffle).
    SyncWarp,
    /// `cuda.activemask()`.
    ActiveMask,
    /// `cuda.lanemask_lt()`: the lanes below this one.
    LaneMaskLt,
    /// `cuda.popc` … `cuda.brev`.
    Bits(BitOp),
    /// `cuda.all_sync` … `cuda.ballot_sync`: an exchange point of the mask's lanes.
    Vote(VoteOp),
    /// `cuda.atomic.*`.
    Atomic(AtomicOp),
    /// `cuda.ldcg(a, i)` ...: an element read with a cache operator. Typed IR has
    /// `(array, index)` (an integer or a tuple of them); after `expand_indexing`, `(array,
    /// element offset)` as a `load` has.
    CacheLoad(CacheHint),
    /// `cuda.stcg(a, i, v)` ...: an element written with a cache operator; `(array, index,
    /// value)`, then `(array, element offset, value)` as a `store` has.
    CacheStore(CacheHint),
    /// `cuda.shfl_*_sync`.
    Shuffle(ShuffleKind),
    /// `cuda.fma(a, b, c)`: one rounding.
    Fma,
    /// `cuda.selp(c, a, b)`.
    Select,
}

impl KernelOp {
    /// Whether every thread of the block must reach it (the interpreter suspends there).
    pub fn is_barrier(self) -> bool {
        matches!(self, KernelOp::Barrier | KernelOp::BarrierReduce(_) | KernelOp::GridSync)
    }
}

/// How backends and the interpreter implement a builtin.
#[derive(Clone, Copy, Debug)]
pub enum Lowering {
    /// Type inference replaces it with other IR; no backend sees it.
    Rewritten,
    /// One instruction.
    Intrinsic(Intrinsic),
    /// A C math function.
    Libm(Libm),
    /// A runtime helper.
    Helper(Helper),
    /// A CUDA operation (the host refuses it; the kernel interpreter and PTX implement it).
    Kernel(KernelOp),
}

/// One row of the table.
#[derive(Clone, Copy, Debug)]
pub struct BuiltinInfo {
    /// The IR text-form name (also the name in messages).
    pub name: &'static str,
    /// Python paths that resolve to it (`math.erf`; `abs` for a Python builtin; `.shape` for an
    /// attribute of a value). Empty for builtins made only by rewrites.
    pub paths: &'static [&'static str],
    /// Accepted argument counts (min, max).
    pub arity: (u8, u8),
    /// How it is typed.
    pub typing: Typing,
    /// How it is lowered.
    pub lowering: Lowering,
}

macro_rules! builtins {
    ($( $(#[$doc:meta])* $var:ident = $name:literal [$($path:literal),*] ($lo:literal, $hi:literal) $typing:expr, $lowering:expr; )*) => {
        /// A builtin function or attribute (the rows of [`Builtin::info`]).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Builtin { $( $(#[$doc])* $var, )* }

        impl Builtin {
            /// Every builtin, in table order.
            pub const ALL: &'static [Builtin] = &[$(Builtin::$var),*];

            /// The builtin's row.
            pub fn info(self) -> &'static BuiltinInfo {
                match self {
                    $( Builtin::$var => {
                        const ROW: BuiltinInfo = BuiltinInfo {
                            name: $name,
                            paths: &[$($path),*],
                            arity: ($lo, $hi),
                            typing: $typing,
                            lowering: $lowering,
                        };
                        &ROW
                    } )*
                }
            }
        }
    };
}

use self::Register as R;
use self::Ufunc as U;
use AtomicOp as A;
use Intrinsic as I;
use KernelOp as K;
use Lowering::{Helper as H, Intrinsic as In, Kernel as Kn, Libm as Lm, Rewritten as Rw};
use Typing::*;

const fn unary(name: &'static str, f: extern "C" fn(f64) -> f64, g: extern "C" fn(f32) -> f32) -> Lowering {
    Lowering::Libm(Libm { name, sig: LibmSig::Unary(f, g) })
}
const fn binary(name: &'static str, f: extern "C" fn(f64, f64) -> f64, g: extern "C" fn(f32, f32) -> f32) -> Lowering {
    Lowering::Libm(Libm { name, sig: LibmSig::Binary(f, g) })
}

builtins! {
    // Python builtins and array attributes (rewritten by type inference).
    /// `abs(x)`
    Abs = "abs" ["abs"] (1, 1) Abs, Rw;
    /// `min(a, b, ...)`
    Min = "min" ["min"] (1, 64) MinMax, Rw;
    /// `max(a, b, ...)`
    Max = "max" ["max"] (1, 64) MinMax, Rw;
    /// `round(x[, ndigits])`
    Round = "round" ["round"] (1, 2) Round, Rw;
    /// `divmod(a, b)`
    Divmod = "divmod" ["divmod"] (2, 2) Divmod, Rw;
    /// `pow(a, b)` (Numba has no three-argument form)
    Pow = "pow" ["pow"] (2, 2) Pow, Rw;
    /// `hash(x)`
    Hash = "hash" ["hash"] (1, 1) Hash, Rw;
    /// `heapq.heappush(heap, x)`
    HeapPush = "heappush" ["heapq.heappush"] (2, 2) Heap(HeapOp::Push), Rw;
    /// `heapq.heappop(heap)`
    HeapPop = "heappop" ["heapq.heappop"] (1, 1) Heap(HeapOp::Pop), Rw;
    /// `heapq.heapreplace(heap, x)`
    HeapReplace = "heapreplace" ["heapq.heapreplace"] (2, 2) Heap(HeapOp::Replace), Rw;
    /// `heapq.heappushpop(heap, x)`
    HeapPushPop = "heappushpop" ["heapq.heappushpop"] (2, 2) Heap(HeapOp::PushPop), Rw;
    /// `heapq.heapify(x)`
    Heapify = "heapify" ["heapq.heapify"] (1, 1) Heap(HeapOp::Heapify), Rw;
    /// `heapq.nlargest(n, iterable)`
    NLargest = "nlargest" ["heapq.nlargest"] (2, 2) Heap(HeapOp::NLargest), Rw;
    /// `heapq.nsmallest(n, iterable)`
    NSmallest = "nsmallest" ["heapq.nsmallest"] (2, 2) Heap(HeapOp::NSmallest), Rw;
    /// `a is b` (the front end writes `a is not b` as `not (a is b)`)
    Is = "is" [] (2, 2) Identity, Rw;
    /// `int(x)`
    PyInt = "int" [] (1, 1) IntCtor, Rw;
    /// `tuple(t)` of a tuple: the tuple.
    PyTuple = "tuple" [] (1, 1) TupleCtor, Rw;
    /// `s.upper()`, `s.startswith(p)`, ... of a string (receiver, the method's name as a string
    /// constant, the arguments): evaluated when the function is typed (`str_method`).
    StrMethod = "str_method" [] (2, 4) Internal, Rw;
    /// One value of `print(...)` (the front end writes the text and separators as bytes).
    PrintValue = "print" [] (1, 1) Print, Rw;
    /// Up to 8 bytes of `print(...)` text: the bytes as an int64, and their count.
    PrintBytes = "print_bytes" [] (2, 2) Print, H(Helper::PrintBytes);
    /// `str` of an int64 to standard output (made by the `print` rewrite).
    PrintIntH = "print_int" [] (1, 1) Internal, H(Helper::PrintInt);
    /// `str` of a uint64.
    PrintUIntH = "print_uint" [] (1, 1) Internal, H(Helper::PrintUInt);
    /// `repr` of a float64.
    PrintFloatH = "print_float" [] (1, 1) Internal, H(Helper::PrintFloat);
    /// `True` / `False`.
    PrintBoolH = "print_bool" [] (1, 1) Internal, H(Helper::PrintBool);
    /// `str` of a complex number, from its float64 parts.
    PrintComplexH = "print_complex" [] (2, 2) Internal, H(Helper::PrintComplex);
    /// `sum(tuple[, start])`
    Sum = "sum" ["sum"] (1, 2) Sum, Rw;
    /// `len(a)`: the first dimension.
    Len = "len" ["len"] (1, 1) ArrayLen, Rw;
    /// The trip count of `for x in a` (the front end's desugaring of array iteration).
    IterLen = "iter_len" [] (1, 1) IterLen, Rw;
    /// An argument of `range()`: must be an integer (Python's `operator.index`).
    RangeArg = "range_arg" [] (1, 1) RangeIndex, Rw;
    /// `a.size`
    Size = "size" [".size"] (1, 1) ArraySize, Rw;
    /// `a.ndim`
    Ndim = "ndim" [".ndim"] (1, 1) ArrayNdim, Rw;
    /// `a.shape` as a tuple.
    Shape = "shape" [".shape"] (1, 1) ArrayShape, Rw;
    /// `a.strides` as a tuple, in bytes.
    Strides = "strides" [".strides"] (1, 1) ArrayStrides, Rw;
    /// `a.dtype` as the dtype argument of a constructor (the front end makes it only there)
    Dtype = "dtype" [] (1, 1) ArrayDtype, Rw;
    /// `a.itemsize`
    Itemsize = "itemsize" [".itemsize"] (1, 1) ArrayItemsize, Rw;
    /// `a.nbytes`
    Nbytes = "nbytes" [".nbytes"] (1, 1) ArrayNbytes, Rw;
    /// `x in t` (arguments: `t`, `x`; the front end writes `x not in t` as `not (x in t)`)
    Contains = "in" [] (2, 2) Contains, Rw;
    /// `t[lo:hi:step]` of a tuple (absent bounds are None constants)
    TupleSlice = "tuple_slice" [] (4, 4) TupleSlice, Rw;
    /// `*t` as a call argument
    Splat = "splat" [] (1, 1) Splat, Rw;
    /// `a.dtype == np.float64` (both operands zeros of their dtypes): a constant bool
    SameDtype = "same_dtype" [] (2, 2) SameDtype, Rw;
    /// `f(args)` of a variable `f` holding a module function (arguments: `f`, then the call's)
    CallValue = "call_value" [] (1, 255) CallValue, Rw;
    /// A `@vectorize` ufunc applied (arguments: its inner function, the inputs, then `out` or
    /// None): elementwise over arrays with broadcasting, the inner function on numbers.
    UfuncCall = "ufunc_call" [] (2, 255) UserUfunc, Rw;
    /// A `@guvectorize` ufunc applied (arguments: its inner function, the inputs, then each
    /// output array or None): the inner function over the loop dimensions, on views of the
    /// core dimensions.
    GufuncCall = "gufunc_call" [] (2, 255) UserUfunc, Rw;
    /// `f.reduce(a, axis)` of a `@vectorize` ufunc (arguments: its inner function, the array,
    /// the axis): the inner function folded along the axis from its first element.
    UfuncReduce = "ufunc_reduce" [] (3, 3) UserUfunc, Rw;
    /// The top of a `prange` loop's body in a `parallel=True` function (arguments: the loop's
    /// counter, start, stop and step, int64). The `parallel` pass outlines the loop and removes
    /// it; no backend sees it.
    PrangeLoop = "prange_loop" [] (4, 4) NoResult, Rw;

    // Complex numbers (rewritten to float operations on the two parts).
    /// `complex(real=0, imag=0)`
    Complex = "complex" ["complex"] (0, 2) Complex(ComplexOp::Ctor), Rw;
    /// `z.real`
    Real = "real" [".real", "numpy.real"] (1, 1) Complex(ComplexOp::Real), Rw;
    /// `z.imag`
    Imag = "imag" [".imag", "numpy.imag"] (1, 1) Complex(ComplexOp::Imag), Rw;
    /// `z.conjugate()`
    Conjugate = "conjugate" [".conjugate()", ".conj()", "numpy.conj", "numpy.conjugate"] (1, 1) Complex(ComplexOp::Conjugate), Rw;
    /// `cmath.sqrt`
    CSqrt = "cmath.sqrt" ["cmath.sqrt"] (1, 1) Complex(ComplexOp::Sqrt), Rw;
    /// `cmath.exp`
    CExp = "cmath.exp" ["cmath.exp"] (1, 1) Complex(ComplexOp::Exp), Rw;
    /// `cmath.log(z[, base])`
    CLog = "cmath.log" ["cmath.log"] (1, 2) Complex(ComplexOp::Log), Rw;
    /// `cmath.log10`
    CLog10 = "cmath.log10" ["cmath.log10"] (1, 1) Complex(ComplexOp::Log10), Rw;
    /// `cmath.phase`
    CPhase = "cmath.phase" ["cmath.phase", "numpy.angle"] (1, 1) Complex(ComplexOp::Phase), Rw;
    /// `cmath.polar`
    CPolar = "cmath.polar" ["cmath.polar"] (1, 1) Complex(ComplexOp::Polar), Rw;
    /// `cmath.rect`
    CRect = "cmath.rect" ["cmath.rect"] (2, 2) Complex(ComplexOp::Rect), Rw;
    /// `cmath.isnan`
    CIsNan = "cmath.isnan" ["cmath.isnan"] (1, 1) Complex(ComplexOp::IsNan), Rw;
    /// `cmath.isinf`
    CIsInf = "cmath.isinf" ["cmath.isinf"] (1, 1) Complex(ComplexOp::IsInf), Rw;
    /// `cmath.isfinite`
    CIsFinite = "cmath.isfinite" ["cmath.isfinite"] (1, 1) Complex(ComplexOp::IsFinite), Rw;
    /// `cmath.sin`
    CSin = "cmath.sin" ["cmath.sin"] (1, 1) Complex(ComplexOp::Sin), Rw;
    /// `cmath.cos`
    CCos = "cmath.cos" ["cmath.cos"] (1, 1) Complex(ComplexOp::Cos), Rw;
    /// `cmath.tan`
    CTan = "cmath.tan" ["cmath.tan"] (1, 1) Complex(ComplexOp::Tan), Rw;
    /// `cmath.sinh`
    CSinh = "cmath.sinh" ["cmath.sinh"] (1, 1) Complex(ComplexOp::Sinh), Rw;
    /// `cmath.cosh`
    CCosh = "cmath.cosh" ["cmath.cosh"] (1, 1) Complex(ComplexOp::Cosh), Rw;
    /// `cmath.tanh`
    CTanh = "cmath.tanh" ["cmath.tanh"] (1, 1) Complex(ComplexOp::Tanh), Rw;
    /// `cmath.acos`
    CAcos = "cmath.acos" ["cmath.acos"] (1, 1) Complex(ComplexOp::Acos), Rw;
    /// `cmath.asin`
    CAsin = "cmath.asin" ["cmath.asin"] (1, 1) Complex(ComplexOp::Asin), Rw;
    /// `cmath.atan`
    CAtan = "cmath.atan" ["cmath.atan"] (1, 1) Complex(ComplexOp::Atan), Rw;
    /// `cmath.acosh`
    CAcosh = "cmath.acosh" ["cmath.acosh"] (1, 1) Complex(ComplexOp::Acosh), Rw;
    /// `cmath.asinh`
    CAsinh = "cmath.asinh" ["cmath.asinh"] (1, 1) Complex(ComplexOp::Asinh), Rw;
    /// `cmath.atanh`
    CAtanh = "cmath.atanh" ["cmath.atanh"] (1, 1) Complex(ComplexOp::Atanh), Rw;

    // The math module (every function Numba supports in nopython mode).
    /// `math.sqrt`
    Sqrt = "math.sqrt" ["math.sqrt"] (1, 1) FloatMath, In(I::Sqrt);
    /// `math.exp`
    Exp = "math.exp" ["math.exp"] (1, 1) FloatMath, unary("exp", libm::exp, libm::expf);
    /// `math.exp2`
    Exp2 = "math.exp2" ["math.exp2"] (1, 1) FloatMath, unary("exp2", libm::exp2, libm::exp2f);
    /// `math.expm1`
    Expm1 = "math.expm1" ["math.expm1"] (1, 1) FloatMath, unary("expm1", libm::expm1, libm::expm1f);
    /// `math.log` (one argument; the front end writes `log(x, b)` as `log(x) / log(b)`)
    Log = "math.log" ["math.log"] (1, 1) FloatMath, unary("log", libm::log, libm::logf);
    /// `math.log2`
    Log2 = "math.log2" ["math.log2"] (1, 1) FloatMath, unary("log2", libm::log2, libm::log2f);
    /// `math.log10`
    Log10 = "math.log10" ["math.log10"] (1, 1) FloatMath, unary("log10", libm::log10, libm::log10f);
    /// `math.log1p`
    Log1p = "math.log1p" ["math.log1p"] (1, 1) FloatMath, unary("log1p", libm::log1p, libm::log1pf);
    /// `math.sin`
    Sin = "math.sin" ["math.sin"] (1, 1) FloatMath, unary("sin", libm::sin, libm::sinf);
    /// `math.cos`
    Cos = "math.cos" ["math.cos"] (1, 1) FloatMath, unary("cos", libm::cos, libm::cosf);
    /// `math.tan`
    Tan = "math.tan" ["math.tan"] (1, 1) FloatMath, unary("tan", libm::tan, libm::tanf);
    /// `math.asin`
    Asin = "math.asin" ["math.asin"] (1, 1) FloatMath, unary("asin", libm::asin, libm::asinf);
    /// `math.acos`
    Acos = "math.acos" ["math.acos"] (1, 1) FloatMath, unary("acos", libm::acos, libm::acosf);
    /// `math.atan`
    Atan = "math.atan" ["math.atan"] (1, 1) FloatMath, unary("atan", libm::atan, libm::atanf);
    /// `math.sinh`
    Sinh = "math.sinh" ["math.sinh"] (1, 1) FloatMath, unary("sinh", libm::sinh, libm::sinhf);
    /// `math.cosh`
    Cosh = "math.cosh" ["math.cosh"] (1, 1) FloatMath, unary("cosh", libm::cosh, libm::coshf);
    /// `math.tanh`
    Tanh = "math.tanh" ["math.tanh"] (1, 1) FloatMath, unary("tanh", libm::tanh, libm::tanhf);
    /// `math.asinh`
    Asinh = "math.asinh" ["math.asinh"] (1, 1) FloatMath, unary("asinh", libm::asinh, libm::asinhf);
    /// `math.acosh`
    Acosh = "math.acosh" ["math.acosh"] (1, 1) FloatMath, unary("acosh", libm::acosh, libm::acoshf);
    /// `math.atanh`
    Atanh = "math.atanh" ["math.atanh"] (1, 1) FloatMath, unary("atanh", libm::atanh, libm::atanhf);
    /// `math.erf`
    Erf = "math.erf" ["math.erf"] (1, 1) FloatMath, unary("erf", libm::erf, libm::erff);
    /// `math.erfc`
    Erfc = "math.erfc" ["math.erfc"] (1, 1) FloatMath, unary("erfc", libm::erfc, libm::erfcf);
    /// `math.gamma` (C's `tgamma`)
    Gamma = "math.gamma" ["math.gamma"] (1, 1) FloatMath, unary("tgamma", libm::tgamma, libm::tgammaf);
    /// `math.lgamma`
    Lgamma = "math.lgamma" ["math.lgamma"] (1, 1) FloatMath, unary("lgamma", libm::lgamma, libm::lgammaf);
    /// `math.degrees`: `x * (180 / pi)`, as Numba computes it.
    Degrees = "math.degrees" ["math.degrees"] (1, 1) FloatScale(180.0 / std::f64::consts::PI), Rw;
    /// `math.radians`: `x * (pi / 180)`.
    Radians = "math.radians" ["math.radians"] (1, 1) FloatScale(std::f64::consts::PI / 180.0), Rw;
    /// `math.floor` (returns int64)
    Floor = "math.floor" ["math.floor"] (1, 1) FloatToInt, In(I::Floor);
    /// `math.ceil` (returns int64)
    Ceil = "math.ceil" ["math.ceil"] (1, 1) FloatToInt, In(I::Ceil);
    /// `math.trunc` (returns int64)
    Trunc = "math.trunc" ["math.trunc"] (1, 1) FloatToInt, In(I::Trunc);
    /// `math.fabs`
    Fabs = "math.fabs" ["math.fabs"] (1, 1) FloatMath, In(I::Fabs);
    /// `math.pow`
    MathPow = "math.pow" ["math.pow"] (2, 2) FloatMath, binary("pow", libm::pow, libm::powf);
    /// `math.atan2`
    Atan2 = "math.atan2" ["math.atan2"] (2, 2) FloatMath, binary("atan2", libm::atan2, libm::atan2f);
    /// `math.hypot`
    Hypot = "math.hypot" ["math.hypot"] (2, 2) FloatMath, binary("hypot", libm::hypot, libm::hypotf);
    /// `math.nextafter`
    Nextafter = "math.nextafter" ["math.nextafter"] (2, 2) FloatMath,
        binary("nextafter", libm::nextafter, libm::nextafterf);
    /// `math.remainder`: IEEE 754's remainder (`x - n * y`, `n` the integer nearest `x / y`,
    /// ties to even), as numba-cuda computes it with libdevice and C's `remainder` does.
    Remainder = "math.remainder" ["math.remainder"] (2, 2) FloatMath,
        binary("remainder", libm::remainder, libm::remainderf);
    /// `math.copysign`
    Copysign = "math.copysign" ["math.copysign"] (2, 2) FloatMath, In(I::Copysign);
    /// `math.ldexp(x, n)`
    Ldexp = "math.ldexp" ["math.ldexp"] (2, 2) FloatInt,
        Lm(Libm { name: "ldexp", sig: LibmSig::FloatInt(libm::ldexp, libm::ldexpf) });
    /// `math.frexp(x)`: `(mantissa, exponent)`.
    Frexp = "math.frexp" ["math.frexp"] (1, 1) Frexp, Rw;
    /// `math.modf(x)`: `(fractional part, integer part)`, both floats.
    Modf = "math.modf" ["math.modf"] (1, 1) Modf, Rw;
    /// The mantissa of `frexp` (made by the `math.frexp` rewrite).
    FrexpMantissa = "frexp_mantissa" [] (1, 1) Internal, H(Helper::FrexpMantissa);
    /// The exponent of `frexp` (made by the `math.frexp` rewrite).
    FrexpExponent = "frexp_exponent" [] (1, 1) Internal, H(Helper::FrexpExponent);
    /// `math.gcd(a, b)`
    Gcd = "math.gcd" ["math.gcd"] (2, 2) IntMath, H(Helper::Gcd);
    /// `math.isnan`
    IsNan = "math.isnan" ["math.isnan", "numpy.isnan"] (1, 1) FloatPredicate, In(I::IsNan);
    /// `math.isinf`
    IsInf = "math.isinf" ["math.isinf", "numpy.isinf"] (1, 1) FloatPredicate, In(I::IsInf);
    /// `math.isfinite`
    IsFinite = "math.isfinite" ["math.isfinite", "numpy.isfinite"] (1, 1) FloatPredicate, In(I::IsFinite);

    // NumPy ufuncs applied to scalars (typed as Numba selects their loops; `isnan`, `isinf`
    // and `isfinite` share the math rows, which behave the same).
    /// `np.sqrt`
    NpSqrt = "np.sqrt" ["numpy.sqrt"] (1, 2) Ufunc(U::Float), In(I::Sqrt);
    /// `np.exp`
    NpExp = "np.exp" ["numpy.exp"] (1, 2) Ufunc(U::Float), unary("exp", libm::exp, libm::expf);
    /// `np.exp2`
    NpExp2 = "np.exp2" ["numpy.exp2"] (1, 2) Ufunc(U::Float), unary("exp2", libm::exp2, libm::exp2f);
    /// `np.expm1`
    NpExpm1 = "np.expm1" ["numpy.expm1"] (1, 2) Ufunc(U::Float), unary("expm1", libm::expm1, libm::expm1f);
    /// `np.cbrt`
    NpCbrt = "np.cbrt" ["numpy.cbrt"] (1, 2) Ufunc(U::Float), unary("cbrt", libm::cbrt, libm::cbrtf);
    /// `np.log`
    NpLog = "np.log" ["numpy.log"] (1, 2) Ufunc(U::Float), unary("log", libm::log, libm::logf);
    /// `np.log2`
    NpLog2 = "np.log2" ["numpy.log2"] (1, 2) Ufunc(U::Float), unary("log2", libm::log2, libm::log2f);
    /// `np.log10`
    NpLog10 = "np.log10" ["numpy.log10"] (1, 2) Ufunc(U::Float), unary("log10", libm::log10, libm::log10f);
    /// `np.log1p`
    NpLog1p = "np.log1p" ["numpy.log1p"] (1, 2) Ufunc(U::Float), unary("log1p", libm::log1p, libm::log1pf);
    /// `np.sin`
    NpSin = "np.sin" ["numpy.sin"] (1, 2) Ufunc(U::Float), unary("sin", libm::sin, libm::sinf);
    /// `np.cos`
    NpCos = "np.cos" ["numpy.cos"] (1, 2) Ufunc(U::Float), unary("cos", libm::cos, libm::cosf);
    /// `np.tan`
    NpTan = "np.tan" ["numpy.tan"] (1, 2) Ufunc(U::Float), unary("tan", libm::tan, libm::tanf);
    /// `np.arcsin`
    NpArcsin = "np.arcsin" ["numpy.arcsin"] (1, 2) Ufunc(U::Float), unary("asin", libm::asin, libm::asinf);
    /// `np.arccos`
    NpArccos = "np.arccos" ["numpy.arccos"] (1, 2) Ufunc(U::Float), unary("acos", libm::acos, libm::acosf);
    /// `np.arctan`
    NpArctan = "np.arctan" ["numpy.arctan"] (1, 2) Ufunc(U::Float), unary("atan", libm::atan, libm::atanf);
    /// `np.sinh`
    NpSinh = "np.sinh" ["numpy.sinh"] (1, 2) Ufunc(U::Float), unary("sinh", libm::sinh, libm::sinhf);
    /// `np.cosh`
    NpCosh = "np.cosh" ["numpy.cosh"] (1, 2) Ufunc(U::Float), unary("cosh", libm::cosh, libm::coshf);
    /// `np.tanh`
    NpTanh = "np.tanh" ["numpy.tanh"] (1, 2) Ufunc(U::Float), unary("tanh", libm::tanh, libm::tanhf);
    /// `np.arcsinh`
    NpArcsinh = "np.arcsinh" ["numpy.arcsinh"] (1, 2) Ufunc(U::Float), unary("asinh", libm::asinh, libm::asinhf);
    /// `np.arccosh`
    NpArccosh = "np.arccosh" ["numpy.arccosh"] (1, 2) Ufunc(U::Float), unary("acosh", libm::acosh, libm::acoshf);
    /// `np.arctanh`
    NpArctanh = "np.arctanh" ["numpy.arctanh"] (1, 2) Ufunc(U::Float), unary("atanh", libm::atanh, libm::atanhf);
    /// `np.arctan2`
    NpArctan2 = "np.arctan2" ["numpy.arctan2"] (2, 3) Ufunc(U::Float), binary("atan2", libm::atan2, libm::atan2f);
    /// `np.hypot`
    NpHypot = "np.hypot" ["numpy.hypot"] (2, 3) Ufunc(U::Float), binary("hypot", libm::hypot, libm::hypotf);
    /// `np.copysign`
    NpCopysign = "np.copysign" ["numpy.copysign"] (2, 3) Ufunc(U::Float), In(I::Copysign);
    /// `np.fabs`
    NpFabs = "np.fabs" ["numpy.fabs"] (1, 2) Ufunc(U::Float), In(I::Fabs);
    /// `np.rint`: ties to even
    NpRint = "np.rint" ["numpy.rint"] (1, 2) Ufunc(U::Float), In(I::Rint);
    /// `np.deg2rad` / `np.radians`
    NpDeg2rad = "np.deg2rad" ["numpy.deg2rad", "numpy.radians"] (1, 2) Ufunc(U::Scale(std::f64::consts::PI / 180.0)), Rw;
    /// `np.rad2deg` / `np.degrees`
    NpRad2deg = "np.rad2deg" ["numpy.rad2deg", "numpy.degrees"] (1, 2) Ufunc(U::Scale(180.0 / std::f64::consts::PI)), Rw;
    /// `np.floor` (a float for floats, the argument for integers)
    NpFloor = "np.floor" ["numpy.floor"] (1, 2) Ufunc(U::Rounding), In(I::Floor);
    /// `np.ceil`
    NpCeil = "np.ceil" ["numpy.ceil"] (1, 2) Ufunc(U::Rounding), In(I::Ceil);
    /// `np.trunc`
    NpTrunc = "np.trunc" ["numpy.trunc"] (1, 2) Ufunc(U::Rounding), In(I::Trunc);
    /// `np.absolute` / `np.abs`
    NpAbs = "np.absolute" ["numpy.absolute", "numpy.abs"] (1, 2) Ufunc(U::Abs), Rw;
    /// `np.negative`
    NpNegative = "np.negative" ["numpy.negative"] (1, 2) Ufunc(U::Negative), Rw;
    /// `np.positive`
    NpPositive = "np.positive" ["numpy.positive"] (1, 2) Ufunc(U::Positive), Rw;
    /// `np.square`
    NpSquare = "np.square" ["numpy.square"] (1, 2) Ufunc(U::Square), Rw;
    /// `np.sign`
    NpSign = "np.sign" ["numpy.sign"] (1, 2) Ufunc(U::Sign), Rw;
    /// `np.reciprocal`
    NpReciprocal = "np.reciprocal" ["numpy.reciprocal"] (1, 2) Ufunc(U::Reciprocal), Rw;
    /// `np.minimum`
    NpMinimum = "np.minimum" ["numpy.minimum"] (2, 3) Ufunc(U::Minimum), Rw;
    /// `np.maximum`
    NpMaximum = "np.maximum" ["numpy.maximum"] (2, 3) Ufunc(U::Maximum), Rw;
    /// `np.fmin`
    NpFmin = "np.fmin" ["numpy.fmin"] (2, 3) Ufunc(U::Fmin), Rw;
    /// `np.fmax`
    NpFmax = "np.fmax" ["numpy.fmax"] (2, 3) Ufunc(U::Fmax), Rw;
    /// `np.power`
    NpPower = "np.power" ["numpy.power"] (2, 3) Ufunc(U::Power), Rw;
    /// `np.remainder` / `np.mod`
    NpRemainder = "np.remainder" ["numpy.remainder", "numpy.mod"] (2, 3) Ufunc(U::Remainder), Rw;
    /// `np.floor_divide`
    NpFloorDivide = "np.floor_divide" ["numpy.floor_divide"] (2, 3) Ufunc(U::FloorDivide), Rw;
    /// `np.true_divide` / `np.divide`
    NpTrueDivide = "np.true_divide" ["numpy.true_divide", "numpy.divide"] (2, 3) Ufunc(U::TrueDivide), Rw;
    /// `np.add`
    NpAdd = "np.add" ["numpy.add"] (2, 3) Ufunc(U::Arith(BinaryOp::Add)), Rw;
    /// `np.subtract`
    NpSubtract = "np.subtract" ["numpy.subtract"] (2, 3) Ufunc(U::Arith(BinaryOp::Sub)), Rw;
    /// `np.multiply`
    NpMultiply = "np.multiply" ["numpy.multiply"] (2, 3) Ufunc(U::Arith(BinaryOp::Mul)), Rw;
    /// `np.bitwise_and`
    NpBitwiseAnd = "np.bitwise_and" ["numpy.bitwise_and"] (2, 3) Ufunc(U::Arith(BinaryOp::BitAnd)), Rw;
    /// `np.bitwise_or`
    NpBitwiseOr = "np.bitwise_or" ["numpy.bitwise_or"] (2, 3) Ufunc(U::Arith(BinaryOp::BitOr)), Rw;
    /// `np.bitwise_xor`
    NpBitwiseXor = "np.bitwise_xor" ["numpy.bitwise_xor"] (2, 3) Ufunc(U::Arith(BinaryOp::BitXor)), Rw;
    /// `np.left_shift`
    NpLeftShift = "np.left_shift" ["numpy.left_shift"] (2, 3) Ufunc(U::Arith(BinaryOp::Shl)), Rw;
    /// `np.right_shift`
    NpRightShift = "np.right_shift" ["numpy.right_shift"] (2, 3) Ufunc(U::Arith(BinaryOp::Shr)), Rw;
    /// `np.invert` / `np.bitwise_not`
    NpInvert = "np.invert" ["numpy.invert", "numpy.bitwise_not"] (1, 2) Ufunc(U::Invert), Rw;
    /// `np.equal`
    NpEqual = "np.equal" ["numpy.equal"] (2, 3) Ufunc(U::Compare(CmpOp::Eq)), Rw;
    /// `np.not_equal`
    NpNotEqual = "np.not_equal" ["numpy.not_equal"] (2, 3) Ufunc(U::Compare(CmpOp::Ne)), Rw;
    /// `np.less`
    NpLess = "np.less" ["numpy.less"] (2, 3) Ufunc(U::Compare(CmpOp::Lt)), Rw;
    /// `np.less_equal`
    NpLessEqual = "np.less_equal" ["numpy.less_equal"] (2, 3) Ufunc(U::Compare(CmpOp::Le)), Rw;
    /// `np.greater`
    NpGreater = "np.greater" ["numpy.greater"] (2, 3) Ufunc(U::Compare(CmpOp::Gt)), Rw;
    /// `np.greater_equal`
    NpGreaterEqual = "np.greater_equal" ["numpy.greater_equal"] (2, 3) Ufunc(U::Compare(CmpOp::Ge)), Rw;
    /// `np.logical_and`
    NpLogicalAnd = "np.logical_and" ["numpy.logical_and"] (2, 3) Ufunc(U::Logical(BinaryOp::BitAnd)), Rw;
    /// `np.logical_or`
    NpLogicalOr = "np.logical_or" ["numpy.logical_or"] (2, 3) Ufunc(U::Logical(BinaryOp::BitOr)), Rw;
    /// `np.logical_xor`
    NpLogicalXor = "np.logical_xor" ["numpy.logical_xor"] (2, 3) Ufunc(U::Logical(BinaryOp::BitXor)), Rw;
    /// `np.logical_not`
    NpLogicalNot = "np.logical_not" ["numpy.logical_not"] (1, 2) Ufunc(U::LogicalNot), Rw;
    // NumPy array constructors and views (host: owned by the memory manager; kernels: views).
    /// `np.empty`
    NpEmpty = "np.empty" ["numpy.empty"] (2, 2) Alloc(Alloc::Empty), Rw;
    /// `np.zeros`
    NpZeros = "np.zeros" ["numpy.zeros"] (2, 2) Alloc(Alloc::Zeros), Rw;
    /// `np.ones`
    NpOnes = "np.ones" ["numpy.ones"] (2, 2) Alloc(Alloc::Ones), Rw;
    /// `np.full`
    NpFull = "np.full" ["numpy.full"] (3, 3) Alloc(Alloc::Full), Rw;
    /// `np.empty_like`
    NpEmptyLike = "np.empty_like" ["numpy.empty_like"] (2, 2) Alloc(Alloc::EmptyLike), Rw;
    /// `np.zeros_like`
    NpZerosLike = "np.zeros_like" ["numpy.zeros_like"] (2, 2) Alloc(Alloc::ZerosLike), Rw;
    /// `np.ones_like`
    NpOnesLike = "np.ones_like" ["numpy.ones_like"] (2, 2) Alloc(Alloc::OnesLike), Rw;
    /// `np.full_like`
    NpFullLike = "np.full_like" ["numpy.full_like"] (3, 3) Alloc(Alloc::FullLike), Rw;
    /// `np.arange`
    NpArange = "np.arange" ["numpy.arange"] (4, 4) Alloc(Alloc::Arange), Rw;
    /// `np.linspace`
    NpLinspace = "np.linspace" ["numpy.linspace"] (3, 3) Alloc(Alloc::Linspace), Rw;
    /// `np.eye`
    NpEye = "np.eye" ["numpy.eye"] (4, 4) Alloc(Alloc::Eye), Rw;
    /// `np.identity`
    NpIdentity = "np.identity" ["numpy.identity"] (2, 2) Alloc(Alloc::Identity), Rw;
    /// `np.copy(a)` / `a.copy()`
    NpCopy = "np.copy" ["numpy.copy", ".copy()"] (1, 1) Alloc(Alloc::Copy), Rw;
    /// `np.array(object, dtype=None)`
    NpArray = "np.array" ["numpy.array"] (2, 2) Alloc(Alloc::Array), Rw;
    /// `a.T` / `a.transpose()` / `np.transpose(a)`
    Transpose = "transpose" [".T", ".transpose()", "numpy.transpose"] (1, 2) View(ViewOp::Transpose), Rw;
    /// `np.swapaxes(a, axis1, axis2)`
    NpSwapaxes = "np.swapaxes" ["numpy.swapaxes"] (3, 3) View(ViewOp::SwapAxes), Rw;
    /// `np.moveaxis(a, source, destination)`
    NpMoveaxis = "np.moveaxis" ["numpy.moveaxis"] (3, 3) View(ViewOp::MoveAxis), Rw;
    /// `a.reshape(shape)` / `np.reshape(a, shape)`
    Reshape = "reshape" [".reshape()", "numpy.reshape"] (2, 2) View(ViewOp::Reshape), Rw;
    /// `a.ravel()` / `np.ravel(a)`
    Ravel = "ravel" [".ravel()", "numpy.ravel"] (1, 1) View(ViewOp::Ravel), Rw;
    /// `a.flatten()`
    Flatten = "flatten" [".flatten()"] (1, 1) View(ViewOp::Flatten), Rw;
    /// `a.flat`
    Flat = "flat" [".flat"] (1, 1) View(ViewOp::Flat), Rw;
    /// `np.flip(a)`
    NpFlip = "np.flip" ["numpy.flip"] (1, 1) View(ViewOp::Flip(FlipAxes::All)), Rw;
    /// `np.flipud(a)`
    NpFlipud = "np.flipud" ["numpy.flipud"] (1, 1) View(ViewOp::Flip(FlipAxes::First)), Rw;
    /// `np.fliplr(a)`
    NpFliplr = "np.fliplr" ["numpy.fliplr"] (1, 1) View(ViewOp::Flip(FlipAxes::Second)), Rw;
    /// `np.expand_dims(a, axis)`
    NpExpandDims = "np.expand_dims" ["numpy.expand_dims"] (2, 2) View(ViewOp::ExpandDims), Rw;
    /// `np.broadcast_to(a, shape)`
    NpBroadcastTo = "np.broadcast_to" ["numpy.broadcast_to"] (2, 2) View(ViewOp::BroadcastTo), Rw;
    /// `a.astype(dtype)`
    Astype = "astype" [".astype()"] (2, 2) Alloc(Alloc::Astype), Rw;
    /// `a.view(dtype)` (the dtype passed as a zero of it)
    ArrayView = "array.view" [".view()"] (2, 2) View(ViewOp::Reinterpret), Rw;
    /// `np.ascontiguousarray(a)`
    NpAscontiguousarray = "np.ascontiguousarray" ["numpy.ascontiguousarray"] (1, 1) Alloc(Alloc::AsContiguous), Rw;
    /// `np.asarray(a, dtype=None)`
    NpAsarray = "np.asarray" ["numpy.asarray"] (2, 2) Alloc(Alloc::AsArray), Rw;
    /// `np.asfortranarray(a)`
    NpAsfortranarray = "np.asfortranarray" ["numpy.asfortranarray"] (1, 1) Alloc(Alloc::AsFortran), Rw;
    /// `isinstance(x, classes)` (the front end passes the classes as a constant bit set)
    IsInstance = "isinstance" [] (2, 2) IsInstance, Rw;
    /// `a.flags.c_contiguous` / `a.flags.contiguous`
    FlagsC = "flags.c_contiguous" [] (1, 1) ArrayFlag(false), Rw;
    /// `a.flags.f_contiguous`
    FlagsF = "flags.f_contiguous" [] (1, 1) ArrayFlag(true), Rw;
    /// The size of a shape (made by `np.ndindex` loops).
    ShapeSize = "shape_size" [] (1, 1) ShapeSize, Rw;
    /// `a is b` of two arrays or two lists of one type: the same address (with equal shapes
    /// and strides, checked by the rewrite, for arrays), as Numba compares them.
    SameAddress = "same_address" [] (2, 2) Internal, In(I::SameAddress);
    /// The index tuple of a flat position (made by `np.ndindex` loops).
    Unravel = "unravel" [] (2, 2) Unravel, Rw;
    /// The iteration shape of an `np.nditer` loop over a tuple of operands.
    NditerShape = "nditer_shape" [] (1, 32) NditerShape, Rw;
    /// An operand of an `np.nditer` loop at an index tuple.
    NditerGet = "nditer_get" [] (2, 2) NditerGet, Rw;
    /// `np.broadcast_shapes(*shapes)`
    NpBroadcastShapes = "np.broadcast_shapes" ["numpy.broadcast_shapes"] (1, 32) BroadcastShapes, Rw;
    /// `np.broadcast_arrays(*arrays)`
    NpBroadcastArrays = "np.broadcast_arrays" ["numpy.broadcast_arrays"] (1, 32) BroadcastArrays, Rw;
    /// `np.where(cond, x, y)` / `np.where(cond)`
    NpWhere = "np.where" ["numpy.where"] (1, 3) Elementwise(Elem::Where), Rw;
    /// `np.clip(a, lo, hi)` / `a.clip(lo, hi)`
    NpClip = "np.clip" ["numpy.clip", ".clip()"] (3, 4) Elementwise(Elem::Clip), Rw;
    /// `np.round(a, decimals=0)` / `np.around` / `a.round()`
    NpRound = "np.round" ["numpy.round", "numpy.around", "numpy.round_", ".round()"] (1, 3) Elementwise(Elem::Round), Rw;
    /// `a.fill(x)`
    Fill = "fill" [".fill()"] (2, 2) Method(ArrayMethod::Fill), Rw;
    /// `a.item()`
    Item = "item" [".item()"] (1, 1) Method(ArrayMethod::Item), Rw;
    /// `np.nonzero(a)` / `a.nonzero()`
    NpNonzero = "np.nonzero" ["numpy.nonzero", ".nonzero()"] (1, 1) Method(ArrayMethod::Nonzero), Rw;
    /// `np.count_nonzero(a)`
    NpCountNonzero = "np.count_nonzero" ["numpy.count_nonzero"] (1, 1) Method(ArrayMethod::CountNonzero), Rw;
    /// `np.flatnonzero(a)`
    NpFlatNonzero = "np.flatnonzero" ["numpy.flatnonzero"] (1, 1) Method(ArrayMethod::FlatNonzero), Rw;
    /// `np.random.seed(seed)`
    NpRandomSeed = "np.random.seed" ["numpy.random.seed"] (1, 1) Random(RandomOp::Seed), Rw;
    /// `np.random.random(size=None)`
    NpRandomRandom = "np.random.random" ["numpy.random.random", "numpy.random.random_sample", "numpy.random.sample", "numpy.random.ranf"] (1, 1) Random(RandomOp::Random), Rw;
    /// `np.random.rand(d0, ...)`
    NpRandomRand = "np.random.rand" ["numpy.random.rand"] (3, 3) Random(RandomOp::Rand), Rw;
    /// `np.random.randn(d0, ...)`
    NpRandomRandn = "np.random.randn" ["numpy.random.randn"] (3, 3) Random(RandomOp::Randn), Rw;
    /// `np.random.normal(loc, scale, size)`
    NpRandomNormal = "np.random.normal" ["numpy.random.normal", "numpy.random.standard_normal"] (3, 3) Random(RandomOp::Normal), Rw;
    /// `np.random.uniform(low, high, size)`
    NpRandomUniform = "np.random.uniform" ["numpy.random.uniform"] (3, 3) Random(RandomOp::Uniform), Rw;
    /// `np.random.randint(low, high, size)`
    NpRandomRandint = "np.random.randint" ["numpy.random.randint"] (3, 3) Random(RandomOp::Randint), Rw;
    /// `np.random.shuffle(x)`
    NpRandomShuffle = "np.random.shuffle" ["numpy.random.shuffle"] (1, 1) Random(RandomOp::Shuffle), Rw;
    /// `np.random.permutation(x)`
    NpRandomPermutation = "np.random.permutation" ["numpy.random.permutation"] (1, 1) Random(RandomOp::Permutation), Rw;
    /// `np.random.choice(a, size)`
    NpRandomChoice = "np.random.choice" ["numpy.random.choice"] (3, 3) Random(RandomOp::Choice), Rw;
    /// `random.seed(a)`
    PyRandomSeed = "random.seed" ["random.seed"] (1, 1) Random(RandomOp::PySeed), Rw;
    /// `random.random()`
    PyRandomRandom = "random.random" ["random.random"] (0, 0) Random(RandomOp::PyRandom), Rw;
    /// `random.gauss(mu, sigma)`
    PyRandomGauss = "random.gauss" ["random.gauss", "random.normalvariate"] (2, 2) Random(RandomOp::PyGauss), Rw;
    /// `random.getrandbits(k)`
    PyRandomGetrandbits = "random.getrandbits" ["random.getrandbits"] (1, 1) Random(RandomOp::PyGetrandbits), Rw;
    /// `random.randrange(start, stop, step)`
    PyRandomRandrange = "random.randrange" ["random.randrange"] (3, 3) Random(RandomOp::PyRandrange), Rw;
    /// `random.randint(a, b)`
    PyRandomRandint = "random.randint" ["random.randint"] (2, 2) Random(RandomOp::PyRandint), Rw;
    /// `random.uniform(a, b)`
    PyRandomUniform = "random.uniform" ["random.uniform"] (2, 2) Random(RandomOp::PyUniform), Rw;
    /// `random.triangular(low, high, mode)`
    PyRandomTriangular = "random.triangular" ["random.triangular"] (3, 3) Random(RandomOp::PyTriangular), Rw;
    /// `random.gammavariate(alpha, beta)`
    PyRandomGamma = "random.gammavariate" ["random.gammavariate"] (2, 2) Random(RandomOp::PyGamma), Rw;
    /// `random.betavariate(alpha, beta)`
    PyRandomBeta = "random.betavariate" ["random.betavariate"] (2, 2) Random(RandomOp::PyBeta), Rw;
    /// `random.expovariate(lambd)`
    PyRandomExpo = "random.expovariate" ["random.expovariate"] (1, 1) Random(RandomOp::PyExpo), Rw;
    /// `random.lognormvariate(mu, sigma)`
    PyRandomLognorm = "random.lognormvariate" ["random.lognormvariate"] (2, 2) Random(RandomOp::PyLognorm), Rw;
    /// `random.paretovariate(alpha)`
    PyRandomPareto = "random.paretovariate" ["random.paretovariate"] (1, 1) Random(RandomOp::PyPareto), Rw;
    /// `random.weibullvariate(alpha, beta)`
    PyRandomWeibull = "random.weibullvariate" ["random.weibullvariate"] (2, 2) Random(RandomOp::PyWeibull), Rw;
    /// `random.vonmisesvariate(mu, kappa)`
    PyRandomVonmises = "random.vonmisesvariate" ["random.vonmisesvariate"] (2, 2) Random(RandomOp::PyVonmises), Rw;
    /// `random.shuffle(x)`
    PyRandomShuffle = "random.shuffle" ["random.shuffle"] (1, 1) Random(RandomOp::PyShuffle), Rw;
    /// An integer operation of the `random` module's generator (made by its rewrite).
    PyRandomIntH = "py_random_int" [] (4, 4) Internal, H(Helper::PyRandomInt);
    /// A float draw of the `random` module's generator (made by its rewrite).
    PyRandomFloatH = "py_random_float" [] (4, 4) Internal, H(Helper::PyRandomFloat);
    /// Seeds this thread's generator (made by the `np.random.seed` rewrite).
    RandomSeedH = "random_seed" [] (1, 1) Internal, H(Helper::RandomSeed);
    /// `numba.get_num_threads()`
    GetNumThreads = "numba.get_num_threads" ["numba.get_num_threads"] (0, 0) Threads, H(Helper::GetNumThreads);
    /// `numba.set_num_threads(n)`
    SetNumThreads = "numba.set_num_threads" ["numba.set_num_threads"] (1, 1) Threads, H(Helper::SetNumThreads);
    /// `numba.get_thread_id()`
    GetThreadId = "numba.get_thread_id" ["numba.get_thread_id"] (0, 0) Threads, H(Helper::ThreadId);
    /// The next double in [0, 1).
    RandomDoubleH = "random_double" [] (0, 0) Internal, H(Helper::RandomDouble);
    /// The next standard normal draw.
    RandomGaussH = "random_gauss" [] (0, 0) Internal, H(Helper::RandomGauss);
    /// A uniform int64 in [0, n).
    RandomBelowH = "random_below" [] (1, 1) Internal, H(Helper::RandomBelow);
    /// `c = a @ b` of float matrices into the new matrix `c` (made by the `np.dot` rewrite in
    /// host code).
    Gemm = "gemm" [] (3, 3) Internal, H(Helper::Gemm);
    /// `np.dot(a, b)` / `a.dot(b)`
    NpDot = "np.dot" ["numpy.dot", ".dot()"] (2, 2) Linalg(Linalg::Dot), Rw;
    /// `a @ b` / `np.matmul(a, b)`
    NpMatmul = "np.matmul" ["numpy.matmul"] (2, 2) Linalg(Linalg::Matmul), Rw;
    /// `np.vdot(a, b)`
    NpVdot = "np.vdot" ["numpy.vdot"] (2, 2) Linalg(Linalg::Vdot), Rw;
    /// `np.outer(a, b)`
    NpOuter = "np.outer" ["numpy.outer"] (2, 2) Linalg(Linalg::Outer), Rw;
    /// `np.trace(a)` / `a.trace()`
    NpTrace = "np.trace" ["numpy.trace", ".trace()"] (1, 1) Linalg(Linalg::Trace), Rw;
    /// `np.diag(v)`
    NpDiag = "np.diag" ["numpy.diag"] (1, 2) Linalg(Linalg::Diag), Rw;
    /// `np.linalg.norm(x, ord=None)`
    NpNorm = "np.linalg.norm" ["numpy.linalg.norm"] (1, 2) Linalg(Linalg::Norm), Rw;
    /// `np.cross(a, b)`
    NpCross = "np.cross" ["numpy.cross"] (2, 2) Linalg(Linalg::Cross), Rw;
    /// `np.sort(a)`
    NpSort = "np.sort" ["numpy.sort"] (1, 1) Method(ArrayMethod::Sort), Rw;
    /// `np.argsort(a)` / `a.argsort()`
    NpArgsort = "np.argsort" ["numpy.argsort", ".argsort()"] (1, 2) Method(ArrayMethod::Argsort), Rw;
    /// `np.median(a)`
    NpMedian = "np.median" ["numpy.median"] (1, 1) Method(ArrayMethod::Median), Rw;
    /// `np.diff(a, n=1)`
    NpDiff = "np.diff" ["numpy.diff"] (2, 2) Method(ArrayMethod::Diff), Rw;
    /// `np.unique(ar)`
    NpUnique = "np.unique" ["numpy.unique"] (1, 1) Method(ArrayMethod::Unique), Rw;
    /// `np.searchsorted(a, v, side='left')` / `a.searchsorted(v)`
    NpSearchsorted = "np.searchsorted" ["numpy.searchsorted", ".searchsorted()"] (3, 3) Method(ArrayMethod::Searchsorted), Rw;
    /// `np.concatenate(arrays, axis=0)`
    NpConcatenate = "np.concatenate" ["numpy.concatenate"] (2, 2) Method(ArrayMethod::Concatenate), Rw;
    /// `np.stack(arrays, axis=0)`
    NpStack = "np.stack" ["numpy.stack"] (2, 2) Method(ArrayMethod::Stack), Rw;
    /// `np.hstack(tup)`
    NpHstack = "np.hstack" ["numpy.hstack"] (1, 1) Method(ArrayMethod::Hstack), Rw;
    /// `np.vstack(tup)`
    NpVstack = "np.vstack" ["numpy.vstack"] (1, 1) Method(ArrayMethod::Vstack), Rw;
    /// `np.column_stack(tup)`
    NpColumnStack = "np.column_stack" ["numpy.column_stack"] (1, 1) Method(ArrayMethod::ColumnStack), Rw;
    /// `np.isclose(a, b, rtol, atol, equal_nan)`
    NpIsclose = "np.isclose" ["numpy.isclose"] (5, 5) Method(ArrayMethod::Isclose), Rw;
    /// `np.allclose(a, b, rtol, atol, equal_nan)`
    NpAllclose = "np.allclose" ["numpy.allclose"] (5, 5) Method(ArrayMethod::Allclose), Rw;
    /// `np.interp(x, xp, fp)`
    NpInterp = "np.interp" ["numpy.interp"] (3, 3) Method(ArrayMethod::Interp), Rw;
    /// `np.bincount(x, weights=None, minlength=0)`
    NpBincount = "np.bincount" ["numpy.bincount"] (3, 3) Method(ArrayMethod::Bincount), Rw;
    /// `np.average(a, weights=None)`
    NpAverage = "np.average" ["numpy.average"] (2, 2) Method(ArrayMethod::Average), Rw;
    /// `np.percentile(a, q)`
    NpPercentile = "np.percentile" ["numpy.percentile"] (2, 2) Method(ArrayMethod::Percentile), Rw;
    /// `np.quantile(a, q)`
    NpQuantile = "np.quantile" ["numpy.quantile"] (2, 2) Method(ArrayMethod::Quantile), Rw;
    /// `np.nanmedian(a)`
    NpNanmedian = "np.nanmedian" ["numpy.nanmedian"] (1, 1) Method(ArrayMethod::NanMedian), Rw;
    /// `np.nanpercentile(a, q)`
    NpNanpercentile = "np.nanpercentile" ["numpy.nanpercentile"] (2, 2) Method(ArrayMethod::NanPercentile), Rw;
    /// `np.nanquantile(a, q)`
    NpNanquantile = "np.nanquantile" ["numpy.nanquantile"] (2, 2) Method(ArrayMethod::NanQuantile), Rw;
    /// `np.argwhere(a)`
    NpArgwhere = "np.argwhere" ["numpy.argwhere"] (1, 1) Method(ArrayMethod::Argwhere), Rw;
    /// `np.array_equal(a, b)`
    NpArrayEqual = "np.array_equal" ["numpy.array_equal"] (2, 2) Method(ArrayMethod::ArrayEqual), Rw;
    /// `np.digitize(x, bins, right=False)`
    NpDigitize = "np.digitize" ["numpy.digitize"] (3, 3) Method(ArrayMethod::Digitize), Rw;
    /// `np.take(a, indices)` / `a.take(indices)`
    NpTake = "np.take" ["numpy.take", ".take()"] (2, 2) Method(ArrayMethod::Take), Rw;
    /// `np.fill_diagonal(a, val)`
    NpFillDiagonal = "np.fill_diagonal" ["numpy.fill_diagonal"] (3, 3) Method(ArrayMethod::FillDiagonal), Rw;
    /// `np.triu(m, k=0)`
    NpTriu = "np.triu" ["numpy.triu"] (2, 2) Method(ArrayMethod::Triu), Rw;
    /// `np.tril(m, k=0)`
    NpTril = "np.tril" ["numpy.tril"] (2, 2) Method(ArrayMethod::Tril), Rw;
    /// `np.repeat(a, repeats)` / `a.repeat(repeats)`
    NpRepeat = "np.repeat" ["numpy.repeat", ".repeat()"] (2, 2) Method(ArrayMethod::Repeat), Rw;
    /// `np.roll(a, shift)`
    NpRoll = "np.roll" ["numpy.roll"] (2, 2) Method(ArrayMethod::Roll), Rw;
    /// `np.histogram(a, bins=10, range=None)`
    NpHistogram = "np.histogram" ["numpy.histogram"] (3, 3) Method(ArrayMethod::Histogram), Rw;
    /// `np.sum(a, axis=None, dtype=None)` / `a.sum()`
    NpSum = "np.sum" ["numpy.sum", ".sum()"] (3, 3) Reduce(Reduce::Sum), Rw;
    /// `np.prod(a)` / `a.prod()`
    NpProd = "np.prod" ["numpy.prod", ".prod()"] (1, 1) Reduce(Reduce::Prod), Rw;
    /// `np.min(a)` / `np.amin(a)` / `a.min()`
    NpMin = "np.min" ["numpy.min", "numpy.amin", ".min()"] (1, 1) Reduce(Reduce::Min), Rw;
    /// `np.max(a)` / `np.amax(a)` / `a.max()`
    NpMax = "np.max" ["numpy.max", "numpy.amax", ".max()"] (1, 1) Reduce(Reduce::Max), Rw;
    /// `np.mean(a)` / `a.mean()`
    NpMean = "np.mean" ["numpy.mean", ".mean()"] (1, 1) Reduce(Reduce::Mean), Rw;
    /// `np.var(a)` / `a.var()`
    NpVar = "np.var" ["numpy.var", ".var()"] (1, 1) Reduce(Reduce::Var), Rw;
    /// `np.std(a)` / `a.std()`
    NpStd = "np.std" ["numpy.std", ".std()"] (1, 1) Reduce(Reduce::Std), Rw;
    /// `np.argmin(a)` / `a.argmin()`
    NpArgmin = "np.argmin" ["numpy.argmin", ".argmin()"] (2, 2) Reduce(Reduce::ArgMin), Rw;
    /// `np.argmax(a)` / `a.argmax()`
    NpArgmax = "np.argmax" ["numpy.argmax", ".argmax()"] (2, 2) Reduce(Reduce::ArgMax), Rw;
    /// `np.all(a)` / `a.all()`
    NpAll = "np.all" ["numpy.all", ".all()"] (1, 1) Reduce(Reduce::All), Rw;
    /// `np.any(a)` / `a.any()`
    NpAny = "np.any" ["numpy.any", ".any()"] (1, 1) Reduce(Reduce::Any), Rw;
    /// `np.cumsum(a)` / `a.cumsum()`
    NpCumsum = "np.cumsum" ["numpy.cumsum", ".cumsum()"] (2, 2) Reduce(Reduce::CumSum), Rw;
    /// `np.cumprod(a)` / `a.cumprod()`
    NpCumprod = "np.cumprod" ["numpy.cumprod", ".cumprod()"] (2, 2) Reduce(Reduce::CumProd), Rw;
    /// `np.nansum(a)`
    NpNansum = "np.nansum" ["numpy.nansum"] (1, 1) Reduce(Reduce::NanSum), Rw;
    /// `np.nanprod(a)`
    NpNanprod = "np.nanprod" ["numpy.nanprod"] (1, 1) Reduce(Reduce::NanProd), Rw;
    /// `np.nanmin(a)`
    NpNanmin = "np.nanmin" ["numpy.nanmin"] (1, 1) Reduce(Reduce::NanMin), Rw;
    /// `np.nanmax(a)`
    NpNanmax = "np.nanmax" ["numpy.nanmax"] (1, 1) Reduce(Reduce::NanMax), Rw;
    /// `np.nanmean(a)`
    NpNanmean = "np.nanmean" ["numpy.nanmean"] (1, 1) Reduce(Reduce::NanMean), Rw;
    /// `np.nanvar(a)`
    NpNanvar = "np.nanvar" ["numpy.nanvar"] (1, 1) Reduce(Reduce::NanVar), Rw;
    /// `np.nanstd(a)`
    NpNanstd = "np.nanstd" ["numpy.nanstd"] (1, 1) Reduce(Reduce::NanStd), Rw;
    /// `np.ptp(a)`
    NpPtp = "np.ptp" ["numpy.ptp", ".ptp()"] (1, 1) Reduce(Reduce::Ptp), Rw;
    /// `lo:hi:step` in a subscript
    SliceIndex = "slice" [] (3, 3) SliceIndex, Rw;
    /// `...` in a subscript
    Ellipsis = "ellipsis" [] (0, 0) SliceIndex, Rw;

    // Lists (Numba's reflected lists; host only).
    /// `[]`
    ListNew = "list.new" [] (0, 0) List(ListOp::New), Rw;
    /// `[a, b, ...]`
    ListLiteral = "list.literal" [] (1, 64) List(ListOp::Literal), Rw;
    /// `l.append(x)`
    ListAppend = "list.append" [".append()"] (2, 2) List(ListOp::Append), Rw;
    /// `l.extend(it)`
    ListExtend = "list.extend" [".extend()"] (2, 2) List(ListOp::Extend), Rw;
    /// `l.pop([i])` / `d.pop(k[, default])`
    ListPop = "list.pop" [".pop()"] (2, 3) List(ListOp::Pop), Rw;
    /// `l.insert(i, x)`
    ListInsert = "list.insert" [".insert()"] (3, 3) List(ListOp::Insert), Rw;
    /// `l.remove(x)`
    ListRemove = "list.remove" [".remove()"] (2, 2) List(ListOp::Remove), Rw;
    /// `l.index(x[, start[, stop]])`
    ListIndex = "list.index" [".index()"] (2, 4) List(ListOp::Index), Rw;
    /// `l.count(x)`
    ListCount = "list.count" [".count()"] (2, 4) List(ListOp::Count), Rw;
    /// `l.reverse()`
    ListReverse = "list.reverse" [".reverse()"] (1, 1) List(ListOp::Reverse), Rw;
    /// `l.clear()`
    ListClear = "list.clear" [".clear()"] (1, 1) List(ListOp::Clear), Rw;
    /// `l.sort(reverse=False)`
    ListSort = "list.sort" [".sort()"] (2, 2) List(ListOp::Sort), Rw;
    /// `del l[i]`
    ListDel = "list.del" [] (2, 2) List(ListOp::Del), Rw;
    /// `del l[a:b:c]`
    ListDelSlice = "list.delslice" [] (4, 4) List(ListOp::DelSlice), Rw;

    // Dicts (Numba's typed dict; host only).
    /// `{}` / `dict()` / `numba.typed.Dict()`
    DictNew = "dict.new" ["dict", "numba.typed.Dict"] (0, 0) Dict(DictOp::New), Rw;
    /// `{k: v, ...}`
    DictLiteral = "dict.literal" [] (2, 128) Dict(DictOp::Literal), Rw;
    /// `d.get(k[, default])`
    DictGet = "dict.get" [".get()"] (2, 3) Dict(DictOp::Get), Rw;
    /// `d.keys()`
    DictKeys = "dict.keys" [".keys()"] (1, 1) Dict(DictOp::Keys), Rw;
    /// `d.values()`
    DictValues = "dict.values" [".values()"] (1, 1) Dict(DictOp::Values), Rw;
    /// `d.items()`
    DictItems = "dict.items" [".items()"] (1, 1) Dict(DictOp::Items), Rw;
    /// `d.setdefault(k, v)`
    DictSetdefault = "dict.setdefault" [".setdefault()"] (3, 3) Dict(DictOp::Setdefault), Rw;
    /// `d.update(other)`
    DictUpdate = "dict.update" [".update()"] (2, 2) Dict(DictOp::Update), Rw;
    /// `set()`
    SetNew = "set.new" ["set"] (0, 0) Dict(DictOp::SetNew), Rw;
    /// `{a, b, ...}`
    SetLiteral = "set.literal" [] (1, 128) Dict(DictOp::SetLiteral), Rw;
    /// `s.add(x)`
    SetAdd = "set.add" [".add()"] (2, 2) Dict(DictOp::SetAdd), Rw;
    /// `s.discard(x)`
    SetDiscard = "set.discard" [".discard()"] (2, 2) Dict(DictOp::SetDiscard), Rw;
    /// `a.union(b)`
    SetUnion = "set.union" [".union()"] (2, 2) Dict(DictOp::SetUnion), Rw;
    /// `a.intersection(b)`
    SetIntersection = "set.intersection" [".intersection()"] (2, 2) Dict(DictOp::SetIntersection), Rw;
    /// `a.difference(b)`
    SetDifference = "set.difference" [".difference()"] (2, 2) Dict(DictOp::SetDifference), Rw;
    /// `a.symmetric_difference(b)`
    SetSymmetricDifference = "set.symmetric_difference" [".symmetric_difference()"] (2, 2) Dict(DictOp::SetSymmetricDifference), Rw;
    /// `a.difference_update(b)`
    SetDifferenceUpdate = "set.difference_update" [".difference_update()"] (2, 2) Dict(DictOp::SetDifferenceUpdate), Rw;
    /// `a.intersection_update(b)`
    SetIntersectionUpdate = "set.intersection_update" [".intersection_update()"] (2, 2) Dict(DictOp::SetIntersectionUpdate), Rw;
    /// `a.symmetric_difference_update(b)`
    SetSymmetricDifferenceUpdate = "set.symmetric_difference_update" [".symmetric_difference_update()"] (2, 2) Dict(DictOp::SetSymmetricDifferenceUpdate), Rw;
    /// `a.issubset(b)`
    SetIsSubset = "set.issubset" [".issubset()"] (2, 2) Dict(DictOp::SetIsSubset), Rw;
    /// `a.issuperset(b)`
    SetIsSuperset = "set.issuperset" [".issuperset()"] (2, 2) Dict(DictOp::SetIsSuperset), Rw;
    /// `a.isdisjoint(b)`
    SetIsDisjoint = "set.isdisjoint" [".isdisjoint()"] (2, 2) Dict(DictOp::SetIsDisjoint), Rw;
    /// The sequence a `for` loop iterates (a dict's keys)
    IterSource = "iter_source" [] (1, 1) Dict(DictOp::IterSource), Rw;
    /// `x OP= y`: what `x` is rebound to, given `x` and `x OP y` (see [`Typing::InPlace`]).
    InPlace = "inplace" [] (2, 2) InPlace, Rw;

    /// C's `fmod` (made by the `np.remainder` rewrite on floats; exact, like LLVM's `frem`).
    Fmod = "fmod" [] (2, 2) Internal, binary("fmod", libm::fmod, libm::fmodf);

    // CUDA kernels and device functions.
    /// `cuda.grid(n)`; the constant `n` is the argument.
    Grid = "cuda.grid" ["cuda.grid"] (1, 1) GridIndex, Kn(K::Grid);
    /// `cuda.gridsize(n)`
    Gridsize = "cuda.gridsize" ["cuda.gridsize"] (1, 1) GridIndex, Kn(K::Gridsize);
    /// `cuda.threadIdx.x`
    ThreadIdxX = "cuda.threadIdx.x" ["cuda.threadIdx.x"] (0, 0) SpecialRegister, Kn(K::Register(R::ThreadIdx(0)));
    /// `cuda.threadIdx.y`
    ThreadIdxY = "cuda.threadIdx.y" ["cuda.threadIdx.y"] (0, 0) SpecialRegister, Kn(K::Register(R::ThreadIdx(1)));
    /// `cuda.threadIdx.z`
    ThreadIdxZ = "cuda.threadIdx.z" ["cuda.threadIdx.z"] (0, 0) SpecialRegister, Kn(K::Register(R::ThreadIdx(2)));
    /// `cuda.blockIdx.x`
    BlockIdxX = "cuda.blockIdx.x" ["cuda.blockIdx.x"] (0, 0) SpecialRegister, Kn(K::Register(R::BlockIdx(0)));
    /// `cuda.blockIdx.y`
    BlockIdxY = "cuda.blockIdx.y" ["cuda.blockIdx.y"] (0, 0) SpecialRegister, Kn(K::Register(R::BlockIdx(1)));
    /// `cuda.blockIdx.z`
    BlockIdxZ = "cuda.blockIdx.z" ["cuda.blockIdx.z"] (0, 0) SpecialRegister, Kn(K::Register(R::BlockIdx(2)));
    /// `cuda.blockDim.x`
    BlockDimX = "cuda.blockDim.x" ["cuda.blockDim.x"] (0, 0) SpecialRegister, Kn(K::Register(R::BlockDim(0)));
    /// `cuda.blockDim.y`
    BlockDimY = "cuda.blockDim.y" ["cuda.blockDim.y"] (0, 0) SpecialRegister, Kn(K::Register(R::BlockDim(1)));
    /// `cuda.blockDim.z`
    BlockDimZ = "cuda.blockDim.z" ["cuda.blockDim.z"] (0, 0) SpecialRegister, Kn(K::Register(R::BlockDim(2)));
    /// `cuda.gridDim.x`
    GridDimX = "cuda.gridDim.x" ["cuda.gridDim.x"] (0, 0) SpecialRegister, Kn(K::Register(R::GridDim(0)));
    /// `cuda.gridDim.y`
    GridDimY = "cuda.gridDim.y" ["cuda.gridDim.y"] (0, 0) SpecialRegister, Kn(K::Register(R::GridDim(1)));
    /// `cuda.gridDim.z`
    GridDimZ = "cuda.gridDim.z" ["cuda.gridDim.z"] (0, 0) SpecialRegister, Kn(K::Register(R::GridDim(2)));
    /// `cuda.laneid`
    LaneId = "cuda.laneid" ["cuda.laneid"] (0, 0) SpecialRegister, Kn(K::Register(R::LaneId));
    /// `cuda.warpsize`
    WarpSize = "cuda.warpsize" ["cuda.warpsize"] (0, 0) SpecialRegister, Kn(K::Register(R::WarpSize));
    /// `cuda.syncthreads()`
    SyncThreads = "cuda.syncthreads" ["cuda.syncthreads"] (0, 0) NoResult, Kn(K::Barrier);
    /// `cuda.syncthreads_count(p)`
    SyncThreadsCount = "cuda.syncthreads_count" ["cuda.syncthreads_count"] (1, 1) BarrierPredicate,
        Kn(K::BarrierReduce(BarrierReduce::Count));
    /// `cuda.syncthreads_and(p)`
    SyncThreadsAnd = "cuda.syncthreads_and" ["cuda.syncthreads_and"] (1, 1) BarrierPredicate,
        Kn(K::BarrierReduce(BarrierReduce::And));
    /// `cuda.syncthreads_or(p)`
    SyncThreadsOr = "cuda.syncthreads_or" ["cuda.syncthreads_or"] (1, 1) BarrierPredicate,
        Kn(K::BarrierReduce(BarrierReduce::Or));
    /// `cuda.shared.array(shape, dtype=a.dtype)` and the local form
    KernelArrayLike = "cuda.array(dtype=a.dtype)" [] (4, 11) KernelArrayLike, Rw;
    /// `cuda.float32x4(...)` and numba-cuda's other vector types: `(name, components...)`
    CudaVector = "cuda vector type" [] (2, 5) CudaVector, Rw;
    /// `cuda.cg.this_grid()`
    ThisGrid = "cuda.cg.this_grid" ["cuda.cg.this_grid"] (0, 0) NoResult, Kn(K::ThisGrid);
    /// `g.sync()` of a grid group
    GridSync = "grid.sync" [".sync()"] (1, 1) GridSync, Kn(K::GridSync);
    /// `cuda.threadfence()`
    ThreadFence = "cuda.threadfence" ["cuda.threadfence"] (0, 0) NoResult, Kn(K::ThreadFence);
    /// `cuda.threadfence_block()`
    ThreadFenceBlock = "cuda.threadfence_block" ["cuda.threadfence_block"] (0, 0) NoResult, Kn(K::ThreadFenceBlock);
    /// `cuda.threadfence_system()`
    ThreadFenceSystem = "cuda.threadfence_system" ["cuda.threadfence_system"] (0, 0) NoResult,
        Kn(K::ThreadFenceSystem);
    /// `cuda.nanosleep(ns)`
    NanoSleep = "cuda.nanosleep" ["cuda.nanosleep"] (1, 1) NoResult, Kn(K::NanoSleep);
    /// `cuda.syncwarp(mask)` (all lanes without a mask)
    SyncWarp = "cuda.syncwarp" ["cuda.syncwarp"] (0, 1) NoResult, Kn(K::SyncWarp);
    /// `cuda.activemask()`
    ActiveMask = "cuda.activemask" ["cuda.activemask"] (0, 0) ActiveMask, Kn(K::ActiveMask);
    /// `cuda.lanemask_lt()`
    LaneMaskLt = "cuda.lanemask_lt" ["cuda.lanemask_lt"] (0, 0) LaneMask, Kn(K::LaneMaskLt);
    /// `cuda.popc(x)`; `x.bit_count()` in a kernel (numba-cuda overloads it as popc)
    Popc = "cuda.popc" ["cuda.popc", ".bit_count()"] (1, 1) Bits(BitOp::Popc), Kn(K::Bits(BitOp::Popc));
    /// `cuda.clz(x)`
    Clz = "cuda.clz" ["cuda.clz"] (1, 1) Bits(BitOp::Clz), Kn(K::Bits(BitOp::Clz));
    /// `cuda.ffs(x)`
    Ffs = "cuda.ffs" ["cuda.ffs"] (1, 1) Bits(BitOp::Ffs), Kn(K::Bits(BitOp::Ffs));
    /// `cuda.brev(x)`
    Brev = "cuda.brev" ["cuda.brev"] (1, 1) Bits(BitOp::Brev), Kn(K::Bits(BitOp::Brev));
    /// `cuda.cbrt(x)`
    CudaCbrt = "cuda.cbrt" ["cuda.cbrt"] (1, 1) FloatMath, unary("cbrt", libm::cbrt, libm::cbrtf);
    /// `cuda.all_sync(mask, p)`
    AllSync = "cuda.all_sync" ["cuda.all_sync"] (2, 2) Vote(VoteOp::All), Kn(K::Vote(VoteOp::All));
    /// `cuda.any_sync(mask, p)`
    AnySync = "cuda.any_sync" ["cuda.any_sync"] (2, 2) Vote(VoteOp::Any), Kn(K::Vote(VoteOp::Any));
    /// `cuda.eq_sync(mask, p)`
    EqSync = "cuda.eq_sync" ["cuda.eq_sync"] (2, 2) Vote(VoteOp::Eq), Kn(K::Vote(VoteOp::Eq));
    /// `cuda.ballot_sync(mask, p)`
    BallotSync = "cuda.ballot_sync" ["cuda.ballot_sync"] (2, 2) Vote(VoteOp::Ballot), Kn(K::Vote(VoteOp::Ballot));
    /// `cuda.match_any_sync(mask, v)`
    MatchAnySync = "cuda.match_any_sync" ["cuda.match_any_sync"] (2, 2) Vote(VoteOp::MatchAny),
        Kn(K::Vote(VoteOp::MatchAny));
    /// `cuda.match_all_sync(mask, v)`
    MatchAllSync = "cuda.match_all_sync" ["cuda.match_all_sync"] (2, 2) Vote(VoteOp::MatchAll),
        Kn(K::Vote(VoteOp::MatchAll));
    /// `cuda.atomic.add(a, i, v)`
    AtomicAdd = "cuda.atomic.add" ["cuda.atomic.add"] (3, 3) Atomic, Kn(K::Atomic(A::Add));
    /// `cuda.atomic.sub(a, i, v)`
    AtomicSub = "cuda.atomic.sub" ["cuda.atomic.sub"] (3, 3) Atomic, Kn(K::Atomic(A::Sub));
    /// `cuda.atomic.max(a, i, v)`
    AtomicMax = "cuda.atomic.max" ["cuda.atomic.max"] (3, 3) Atomic, Kn(K::Atomic(A::Max));
    /// `cuda.atomic.min(a, i, v)`
    AtomicMin = "cuda.atomic.min" ["cuda.atomic.min"] (3, 3) Atomic, Kn(K::Atomic(A::Min));
    /// `cuda.atomic.nanmax(a, i, v)`
    AtomicNanMax = "cuda.atomic.nanmax" ["cuda.atomic.nanmax"] (3, 3) Atomic, Kn(K::Atomic(A::NanMax));
    /// `cuda.atomic.nanmin(a, i, v)`
    AtomicNanMin = "cuda.atomic.nanmin" ["cuda.atomic.nanmin"] (3, 3) Atomic, Kn(K::Atomic(A::NanMin));
    /// `cuda.atomic.and_(a, i, v)`
    AtomicAnd = "cuda.atomic.and_" ["cuda.atomic.and_"] (3, 3) Atomic, Kn(K::Atomic(A::And));
    /// `cuda.atomic.or_(a, i, v)`
    AtomicOr = "cuda.atomic.or_" ["cuda.atomic.or_"] (3, 3) Atomic, Kn(K::Atomic(A::Or));
    /// `cuda.atomic.xor(a, i, v)`
    AtomicXor = "cuda.atomic.xor" ["cuda.atomic.xor"] (3, 3) Atomic, Kn(K::Atomic(A::Xor));
    /// `cuda.atomic.inc(a, i, v)`
    AtomicInc = "cuda.atomic.inc" ["cuda.atomic.inc"] (3, 3) Atomic, Kn(K::Atomic(A::Inc));
    /// `cuda.atomic.dec(a, i, v)`
    AtomicDec = "cuda.atomic.dec" ["cuda.atomic.dec"] (3, 3) Atomic, Kn(K::Atomic(A::Dec));
    /// `cuda.atomic.exch(a, i, v)`
    AtomicExch = "cuda.atomic.exch" ["cuda.atomic.exch"] (3, 3) Atomic, Kn(K::Atomic(A::Exch));
    /// `cuda.atomic.cas(a, i, old, new)`
    AtomicCas = "cuda.atomic.cas" ["cuda.atomic.cas", "cuda.atomic.compare_and_swap"] (4, 4) Atomic,
        Kn(K::Atomic(A::Cas));
    /// `cuda.ldca(a, i)`: `ld.global.ca`
    Ldca = "cuda.ldca" ["cuda.ldca"] (2, 2) CacheLoad, Kn(K::CacheLoad(CacheHint::Ca));
    /// `cuda.ldcg(a, i)`: `ld.global.cg`
    Ldcg = "cuda.ldcg" ["cuda.ldcg"] (2, 2) CacheLoad, Kn(K::CacheLoad(CacheHint::Cg));
    /// `cuda.ldcs(a, i)`: `ld.global.cs`
    Ldcs = "cuda.ldcs" ["cuda.ldcs"] (2, 2) CacheLoad, Kn(K::CacheLoad(CacheHint::Cs));
    /// `cuda.ldlu(a, i)`: `ld.global.lu`
    Ldlu = "cuda.ldlu" ["cuda.ldlu"] (2, 2) CacheLoad, Kn(K::CacheLoad(CacheHint::Lu));
    /// `cuda.ldcv(a, i)`: `ld.global.cv`
    Ldcv = "cuda.ldcv" ["cuda.ldcv"] (2, 2) CacheLoad, Kn(K::CacheLoad(CacheHint::Cv));
    /// `cuda.stcg(a, i, v)`: `st.global.cg`
    Stcg = "cuda.stcg" ["cuda.stcg"] (3, 3) CacheStore, Kn(K::CacheStore(CacheHint::Cg));
    /// `cuda.stcs(a, i, v)`: `st.global.cs`
    Stcs = "cuda.stcs" ["cuda.stcs"] (3, 3) CacheStore, Kn(K::CacheStore(CacheHint::Cs));
    /// `cuda.stwb(a, i, v)`: `st.global.wb`
    Stwb = "cuda.stwb" ["cuda.stwb"] (3, 3) CacheStore, Kn(K::CacheStore(CacheHint::Wb));
    /// `cuda.stwt(a, i, v)`: `st.global.wt`
    Stwt = "cuda.stwt" ["cuda.stwt"] (3, 3) CacheStore, Kn(K::CacheStore(CacheHint::Wt));
    /// `cuda.shfl_down_sync(mask, v, delta)`
    ShflDownSync = "cuda.shfl_down_sync" ["cuda.shfl_down_sync"] (3, 3) Shuffle, Kn(K::Shuffle(ShuffleKind::Down));
    /// `cuda.shfl_up_sync(mask, v, delta)`
    ShflUpSync = "cuda.shfl_up_sync" ["cuda.shfl_up_sync"] (3, 3) Shuffle, Kn(K::Shuffle(ShuffleKind::Up));
    /// `cuda.shfl_xor_sync(mask, v, lanemask)`
    ShflXorSync = "cuda.shfl_xor_sync" ["cuda.shfl_xor_sync"] (3, 3) Shuffle, Kn(K::Shuffle(ShuffleKind::Xor));
    /// `cuda.shfl_sync(mask, v, src)`
    ShflSync = "cuda.shfl_sync" ["cuda.shfl_sync"] (3, 3) Shuffle, Kn(K::Shuffle(ShuffleKind::Idx));
    /// `cuda.fma(a, b, c)`
    Fma = "cuda.fma" ["cuda.fma"] (3, 3) Fma, Kn(K::Fma);
    /// `cuda.selp(c, a, b)`
    Selp = "cuda.selp" ["cuda.selp"] (3, 3) Select, Kn(K::Select);
}

impl Builtin {
    /// The name used in the text form and in messages.
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// Parses the text-form name.
    pub fn from_name(s: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|b| b.name() == s)
    }

    /// The builtin a Python path names (`math.erf`, `abs`, `.shape`, `cuda.atomic.add`).
    pub fn from_path(path: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|b| b.info().paths.contains(&path))
    }

    /// Whether this builtin exists only in CUDA kernels and device functions.
    pub fn is_cuda(self) -> bool {
        matches!(self.info().lowering, Lowering::Kernel(_))
    }

    /// Python's parameter names, for a builtin called with keyword arguments
    /// (`sum(x, start=1)`, `np.clip(a, lo, hi, out=out)`, `np.diag(v, k=1)`); `None` when it
    /// takes positional arguments only (or binds its own, as the constructors do).
    pub fn keyword_names(self) -> Option<&'static [&'static str]> {
        Some(match self {
            Builtin::Sum => &["iterable", "start"],
            Builtin::NpClip => &["a", "a_min", "a_max", "out"],
            Builtin::NpRound => &["a", "decimals", "out"],
            Builtin::NpDiag => &["v", "k"],
            Builtin::NpTrace => &["a"],
            Builtin::NpWhere => &["condition", "x", "y"],
            Builtin::Transpose => &["a", "axes"],
            Builtin::Reshape => &["a", "newshape"],
            _ => return None,
        })
    }

    /// Whether it draws from (or seeds) the random generator, writes an array (`gemm`) or
    /// writes to standard output (`print`): never removed, merged or moved.
    pub fn is_random(self) -> bool {
        matches!(
            self.info().lowering,
            Lowering::Helper(
                Helper::SetNumThreads
                    | Helper::GetNumThreads
                    | Helper::ThreadId
                    | Helper::Gemm
                    | Helper::PrintBytes
                    | Helper::PrintInt
                    | Helper::PrintUInt
                    | Helper::PrintFloat
                    | Helper::PrintBool
                    | Helper::PrintComplex
            )
        ) || matches!(self.info().lowering, Lowering::Helper(h) if h.draws_host_random())
            || matches!(self.info().typing, Typing::Random(_))
    }

    /// The CUDA operation, for kernel builtins.
    pub fn kernel_op(self) -> Option<KernelOp> {
        match self.info().lowering {
            Lowering::Kernel(k) => Some(k),
            _ => None,
        }
    }
}

/// numba-cuda's vector type of this name (`float32x4`, or its C alias `float4`): the base type
/// and the number of components (1 to 4, named `x y z w`). Aliases follow NumPy's C types on
/// 64-bit Linux (`long` and `longlong` are int64), as numba-cuda's `stubs.py` maps them.
pub fn cuda_vector(name: &str) -> Option<(crate::types::Scalar, usize)> {
    use crate::types::Scalar;
    let last = name.chars().last()?;
    let rest = &name[..name.len() - last.len_utf8()];
    let n = last.to_digit(10).filter(|n| (1..=4).contains(n))? as usize;
    let base = match rest.strip_suffix('x') {
        Some(
            b @ ("int8" | "int16" | "int32" | "int64" | "uint8" | "uint16" | "uint32" | "uint64" | "float32"
            | "float64"),
        ) => Scalar::parse(b)?,
        Some(_) => return None,
        None => match rest {
            "char" => Scalar::Int8,
            "short" => Scalar::Int16,
            "int" => Scalar::Int32,
            "long" | "longlong" => Scalar::Int64,
            "uchar" => Scalar::UInt8,
            "ushort" => Scalar::UInt16,
            "uint" => Scalar::UInt32,
            "ulong" | "ulonglong" => Scalar::UInt64,
            "float" => Scalar::Float32,
            "double" => Scalar::Float64,
            _ => return None,
        },
    };
    Some((base, n))
}

/// The paths under `prefix` (`"math."`), without it, in table order: for "supported: ..." hints.
pub fn paths_under(prefix: &str) -> Vec<&'static str> {
    Builtin::ALL.iter().flat_map(|b| b.info().paths.iter()).filter_map(|p| p.strip_prefix(prefix)).collect()
}

/// Every C math function of the table with its host symbol and address, float64 and float32
/// forms (the host registers these with its JIT and its loader).
pub fn libm_symbols() -> Vec<(String, *const u8)> {
    let mut out = Vec::new();
    for b in Builtin::ALL {
        if let Lowering::Libm(m) = b.info().lowering {
            let (f, g) = match m.sig {
                LibmSig::Unary(f, g) => (f as *const u8, g as *const u8),
                LibmSig::Binary(f, g) => (f as *const u8, g as *const u8),
                LibmSig::FloatInt(f, g) => (f as *const u8, g as *const u8),
            };
            // Rows may share a C function (`math.exp` and `np.exp`): one symbol each.
            if !out.iter().any(|(name, _)| *name == m.host_symbol(false)) {
                out.push((m.host_symbol(false), f));
                out.push((m.host_symbol(true), g));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_paths_are_unique() {
        let mut names = std::collections::HashSet::new();
        let mut paths = std::collections::HashSet::new();
        for b in Builtin::ALL {
            assert!(names.insert(b.name()), "duplicate name {}", b.name());
            assert_eq!(Builtin::from_name(b.name()), Some(*b));
            for p in b.info().paths {
                assert!(paths.insert(*p), "duplicate path {p}");
                assert_eq!(Builtin::from_path(p), Some(*b));
            }
        }
    }

    #[test]
    fn libm_rows_are_float_functions_with_matching_arity() {
        for b in Builtin::ALL {
            let info = b.info();
            if let Lowering::Libm(m) = info.lowering {
                assert!(
                    matches!(
                        info.typing,
                        Typing::FloatMath | Typing::FloatInt | Typing::Ufunc(Ufunc::Float) | Typing::Internal
                    ),
                    "{}",
                    info.name
                );
                // A ufunc row also takes an output array after its inputs.
                let out = usize::from(matches!(info.typing, Typing::Ufunc(_)));
                assert_eq!(
                    (m.arity(), m.arity() + out),
                    (info.arity.0 as usize, info.arity.1 as usize),
                    "{}",
                    info.name
                );
            }
        }
    }

    #[test]
    fn math_hint_lists_the_new_functions() {
        let math = paths_under("math.");
        for f in ["erf", "erfc", "gamma", "lgamma", "expm1", "log1p", "trunc", "degrees", "radians", "ldexp", "frexp"] {
            assert!(math.contains(&f), "{f}");
        }
    }
}

/// `text` as the operands of `print_bytes` calls: (up to 8 bytes as a little-endian integer,
/// their count), in order.
pub fn print_chunks(text: &str) -> impl Iterator<Item = (i64, i64)> + '_ {
    text.as_bytes().chunks(8).map(|chunk| {
        let mut b = [0u8; 8];
        b[..chunk.len()].copy_from_slice(chunk);
        (i64::from_le_bytes(b), chunk.len() as i64)
    })
}

/// What a string method computes, known when the function is typed (the receiver and every
/// argument are strings, whose values are their types).
#[derive(Clone, Debug, PartialEq)]
pub enum StrValue {
    /// A string.
    Str(String),
    /// A bool (`startswith`, `isdigit`, ...).
    Bool(bool),
    /// An integer (`find`).
    Int(i64),
}

/// The string methods compiled code has (the front end routes `x.NAME(...)` to
/// [`Builtin::StrMethod`] for these names).
pub const STR_METHODS: &[&str] = &[
    "upper",
    "lower",
    "strip",
    "lstrip",
    "rstrip",
    "startswith",
    "endswith",
    "find",
    "rfind",
    "replace",
    "isdigit",
    "isalpha",
    "isalnum",
    "isspace",
    "isupper",
    "islower",
    "capitalize",
    "casefold",
    "swapcase",
    "title",
    "isascii",
    "isdecimal",
    "isnumeric",
    "isprintable",
    "isidentifier",
    "istitle",
    "expandtabs",
    "rindex",
    "center",
    "ljust",
    "rjust",
    "zfill",
    "join",
    "split",
];

/// `s.name(args)` as Python computes it, for string arguments; `Err` says why not. The
/// character classes (`isdigit`, ...) are ASCII's: a non-ASCII receiver is refused rather than
/// guessed (Python's Unicode classes differ from Rust's in corners such as `"½".isdigit()`).
pub fn str_method(s: &str, name: &str, args: &[&str]) -> Result<StrValue, String> {
    use StrValue::*;
    let arity = |n: std::ops::RangeInclusive<usize>| {
        if n.contains(&args.len()) {
            Ok(())
        } else {
            Err(format!("str.{name}() takes {} string argument(s) here, got {}", n.end(), args.len()))
        }
    };
    // Python's character classes and case mappings beyond ASCII are Unicode's tables, which
    // compile time does not carry: refused rather than guessed.
    let ascii_only = || {
        if s.is_ascii() {
            Ok(())
        } else {
            Err(format!("str.{name}() of a non-ASCII string is not supported"))
        }
    };
    // Python's index of a byte offset counts characters.
    let chars_before = |byte: usize| s[..byte].chars().count() as i64;
    let ascii_class = |f: fn(&char) -> bool, cased: bool| -> Result<StrValue, String> {
        arity(0..=0)?;
        if !s.is_ascii() {
            return Err(format!("str.{name}() of a non-ASCII string is not supported"));
        }
        let ok = if cased {
            // `isupper`/`islower`: at least one cased character, and none of the other case.
            s.chars().any(|c| c.is_ascii_alphabetic()) && s.chars().filter(char::is_ascii_alphabetic).all(|c| f(&c))
        } else {
            !s.is_empty() && s.chars().all(|c| f(&c))
        };
        Ok(Bool(ok))
    };
    Ok(match name {
        "upper" => {
            arity(0..=0)?;
            Str(s.to_uppercase())
        }
        "lower" => {
            arity(0..=0)?;
            Str(s.to_lowercase())
        }
        "strip" | "lstrip" | "rstrip" => {
            arity(0..=1)?;
            let set: Vec<char> = args.first().map(|a| a.chars().collect()).unwrap_or_default();
            let strip = |c: char| if args.is_empty() { c.is_whitespace() } else { set.contains(&c) };
            Str(match name {
                "strip" => s.trim_matches(strip),
                "lstrip" => s.trim_start_matches(strip),
                _ => s.trim_end_matches(strip),
            }
            .to_string())
        }
        "startswith" => {
            arity(1..=1)?;
            Bool(s.starts_with(args[0]))
        }
        "endswith" => {
            arity(1..=1)?;
            Bool(s.ends_with(args[0]))
        }
        "find" => {
            arity(1..=1)?;
            Int(s.find(args[0]).map_or(-1, chars_before))
        }
        "rfind" => {
            arity(1..=1)?;
            Int(s.rfind(args[0]).map_or(-1, chars_before))
        }
        "replace" => {
            arity(2..=2)?;
            Str(s.replace(args[0], args[1]))
        }
        // Numba's `isdigit`, `isalpha` and `isalnum` return an int (1 or 0), not a bool.
        "isdigit" | "isalpha" | "isalnum" => {
            let class: fn(&char) -> bool = match name {
                "isdigit" => char::is_ascii_digit,
                "isalpha" => char::is_ascii_alphabetic,
                _ => char::is_ascii_alphanumeric,
            };
            match ascii_class(class, false)? {
                Bool(b) => Int(i64::from(b)),
                other => other,
            }
        }
        "isspace" => ascii_class(char::is_ascii_whitespace, false)?,
        // `str(s)` of a string (the front end calls it `__str__`).
        "__str__" => {
            arity(0..=0)?;
            Str(s.to_string())
        }
        "isupper" => ascii_class(char::is_ascii_uppercase, true)?,
        "islower" => ascii_class(char::is_ascii_lowercase, true)?,
        // Numba's `isascii` and `isdecimal` give 1 or 0 too; `isnumeric` and the rest a bool.
        "isascii" => {
            arity(0..=0)?;
            Int(i64::from(s.is_ascii()))
        }
        "isdecimal" => match ascii_class(char::is_ascii_digit, false)? {
            Bool(b) => Int(i64::from(b)),
            other => other,
        },
        "isnumeric" => ascii_class(char::is_ascii_digit, false)?,
        "isprintable" => {
            arity(0..=0)?;
            ascii_only()?;
            Bool(s.bytes().all(|c| (0x20..0x7f).contains(&c)))
        }
        "isidentifier" => {
            arity(0..=0)?;
            ascii_only()?;
            let mut cs = s.chars();
            Bool(
                cs.next().is_some_and(|c| c == '_' || c.is_ascii_alphabetic())
                    && cs.all(|c| c == '_' || c.is_ascii_alphanumeric()),
            )
        }
        "istitle" => {
            arity(0..=0)?;
            ascii_only()?;
            // Upper case only after an uncased character, lower case only after a cased one,
            // and at least one cased character.
            let (mut cased, mut prev_cased) = (false, false);
            let mut ok = true;
            for c in s.chars() {
                if c.is_ascii_uppercase() {
                    ok &= !prev_cased;
                    (prev_cased, cased) = (true, true);
                } else if c.is_ascii_lowercase() {
                    ok &= prev_cased;
                    (prev_cased, cased) = (true, true);
                } else {
                    prev_cased = false;
                }
            }
            Bool(ok && cased)
        }
        "capitalize" | "casefold" | "swapcase" | "title" => {
            arity(0..=0)?;
            ascii_only()?;
            Str(match name {
                "capitalize" => {
                    let lower = s.to_ascii_lowercase();
                    let mut out = lower[..s.len().min(1)].to_ascii_uppercase();
                    out.push_str(&lower[s.len().min(1)..]);
                    out
                }
                "casefold" => s.to_ascii_lowercase(),
                "swapcase" => s
                    .chars()
                    .map(|c| if c.is_ascii_uppercase() { c.to_ascii_lowercase() } else { c.to_ascii_uppercase() })
                    .collect(),
                _ => {
                    // A letter after a letter is lower case, any other letter upper case.
                    let mut prev = false;
                    s.chars()
                        .map(|c| {
                            let out = if prev { c.to_ascii_lowercase() } else { c.to_ascii_uppercase() };
                            prev = c.is_ascii_alphabetic();
                            out
                        })
                        .collect()
                }
            })
        }
        "expandtabs" => {
            arity(0..=0)?;
            // Tabs to the next multiple of 8 columns; a line break starts a new line's columns.
            let mut out = String::new();
            let mut col = 0usize;
            for c in s.chars() {
                match c {
                    '\t' => {
                        let pad = 8 - col % 8;
                        out.extend(std::iter::repeat_n(' ', pad));
                        col += pad;
                    }
                    '\n' | '\r' => {
                        out.push(c);
                        col = 0;
                    }
                    _ => {
                        out.push(c);
                        col += 1;
                    }
                }
            }
            Str(out)
        }
        _ => return Err(format!("str.{name}() is not supported")),
    })
}
