//! Runtime values of the interpreter.

use crate::function::Const;
use crate::types::{ArrayType, Layout, Scalar, Type};
use std::cell::RefCell;
use std::fmt;
use std::rc::Rc;

/// The elements of an array, one vector per dtype.
#[derive(Clone, Debug, PartialEq)]
pub enum ArrayData {
    /// `bool`
    Bool(Vec<bool>),
    /// `int32`
    I32(Vec<i32>),
    /// `int64`
    I64(Vec<i64>),
    /// `float32`
    F32(Vec<f32>),
    /// `float64`
    F64(Vec<f64>),
    /// `int8`
    I8(Vec<i8>),
    /// `int16`
    I16(Vec<i16>),
    /// `uint8`
    U8(Vec<u8>),
    /// `uint16`
    U16(Vec<u16>),
    /// `uint32`
    U32(Vec<u32>),
    /// `uint64`
    U64(Vec<u64>),
    /// `complex64`: (real, imaginary) pairs.
    C64(Vec<[f32; 2]>),
    /// `complex128`
    C128(Vec<[f64; 2]>),
    /// `float16`
    F16(Vec<half::f16>),
}

/// `$body` with `$v` bound to the vector of whichever variant of
/// [`ArrayData`](crate::interp::ArrayData) `$data` is.
#[macro_export]
macro_rules! each_array_data {
    ($data:expr, $v:ident => $body:expr) => {
        match $data {
            $crate::interp::ArrayData::Bool($v) => $body,
            $crate::interp::ArrayData::I32($v) => $body,
            $crate::interp::ArrayData::I64($v) => $body,
            $crate::interp::ArrayData::F32($v) => $body,
            $crate::interp::ArrayData::F64($v) => $body,
            $crate::interp::ArrayData::I8($v) => $body,
            $crate::interp::ArrayData::I16($v) => $body,
            $crate::interp::ArrayData::U8($v) => $body,
            $crate::interp::ArrayData::U16($v) => $body,
            $crate::interp::ArrayData::U32($v) => $body,
            $crate::interp::ArrayData::U64($v) => $body,
            $crate::interp::ArrayData::C64($v) => $body,
            $crate::interp::ArrayData::C128($v) => $body,
            $crate::interp::ArrayData::F16($v) => $body,
        }
    };
}
use each_array_data as each_data;

/// `$body` with `$z` bound to the zero of the Rust type of `$s`, whose `ArrayData` variant
/// is `$var` (for building arrays by dtype).
macro_rules! by_dtype {
    ($s:expr, |$var:ident, $z:ident| $body:expr) => {
        match $s {
            Scalar::Bool => {
                let $var = ArrayData::Bool;
                let $z = false;
                $body
            }
            Scalar::Int32 => {
                let $var = ArrayData::I32;
                let $z = 0i32;
                $body
            }
            Scalar::Int64 => {
                let $var = ArrayData::I64;
                let $z = 0i64;
                $body
            }
            Scalar::Float32 => {
                let $var = ArrayData::F32;
                let $z = 0f32;
                $body
            }
            Scalar::Float64 => {
                let $var = ArrayData::F64;
                let $z = 0f64;
                $body
            }
            Scalar::Int8 => {
                let $var = ArrayData::I8;
                let $z = 0i8;
                $body
            }
            Scalar::Int16 => {
                let $var = ArrayData::I16;
                let $z = 0i16;
                $body
            }
            Scalar::UInt8 => {
                let $var = ArrayData::U8;
                let $z = 0u8;
                $body
            }
            Scalar::UInt16 => {
                let $var = ArrayData::U16;
                let $z = 0u16;
                $body
            }
            Scalar::UInt32 => {
                let $var = ArrayData::U32;
                let $z = 0u32;
                $body
            }
            Scalar::UInt64 => {
                let $var = ArrayData::U64;
                let $z = 0u64;
                $body
            }
            Scalar::Complex64 => {
                let $var = ArrayData::C64;
                let $z = [0f32; 2];
                $body
            }
            Scalar::Complex128 => {
                let $var = ArrayData::C128;
                let $z = [0f64; 2];
                $body
            }
            Scalar::Float16 => {
                let $var = ArrayData::F16;
                let $z = half::f16::ZERO;
                $body
            }
        }
    };
}

/// A Rust element type of [`ArrayData`]: its dtype and its conversions to runtime values.
pub trait Element: Copy {
    /// The dtype.
    const DTYPE: Scalar;
    /// The element as a runtime value.
    fn to_rt(self) -> RtValue;
    /// The element of a runtime value of this dtype.
    fn from_rt(v: &RtValue) -> Option<Self>;
}

macro_rules! element {
    ($t:ty, $s:ident, $rt:ident) => {
        impl Element for $t {
            const DTYPE: Scalar = Scalar::$s;
            fn to_rt(self) -> RtValue {
                RtValue::$rt(self)
            }
            fn from_rt(v: &RtValue) -> Option<Self> {
                match v {
                    RtValue::$rt(x) => Some(*x),
                    _ => None,
                }
            }
        }
    };
}
element!(bool, Bool, Bool);
element!(i32, Int32, I32);
element!(i64, Int64, I64);
element!(f32, Float32, F32);
element!(f64, Float64, F64);
element!(i8, Int8, I8);
element!(i16, Int16, I16);
element!(u8, UInt8, U8);
element!(u16, UInt16, U16);
element!(u32, UInt32, U32);
element!(u64, UInt64, U64);

// A complex element: (real, imaginary).
element!([f32; 2], Complex64, C64);
element!([f64; 2], Complex128, C128);
element!(half::f16, Float16, F16);

impl ArrayData {
    /// Number of elements.
    pub fn len(&self) -> usize {
        each_data!(self, v => v.len())
    }

    /// Whether there are no elements.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The dtype.
    pub fn dtype(&self) -> Scalar {
        fn d<T: Element>(_: &[T]) -> Scalar {
            T::DTYPE
        }
        each_data!(self, v => d(v))
    }

    /// `n` zeros of `dtype`, or `None` when the memory cannot be had.
    pub fn try_zeros(dtype: Scalar, n: usize) -> Option<ArrayData> {
        fn z<T: Clone>(n: usize, x: T) -> Option<Vec<T>> {
            let mut v = Vec::new();
            v.try_reserve_exact(n).ok()?;
            v.resize(n, x);
            Some(v)
        }
        by_dtype!(dtype, |var, zero| Some(var(z(n, zero)?)))
    }

    /// The storage's first byte, for code that reads and writes it in place (a compiled
    /// kernel of `cuda-sim`); valid until the vector is next resized.
    pub fn as_mut_ptr(&mut self) -> *mut u8 {
        each_data!(self, v => v.as_mut_ptr().cast::<u8>())
    }

    /// `n` zeros of `dtype`.
    pub fn zeros(dtype: Scalar, n: usize) -> ArrayData {
        by_dtype!(dtype, |var, zero| var(vec![zero; n]))
    }

    /// Element `i` as a runtime value.
    pub fn get(&self, i: usize) -> Option<RtValue> {
        each_data!(self, v => Some(v.get(i)?.to_rt()))
    }

    /// `n` bytes of the storage from byte `at` (little-endian, as compiled code sees memory).
    fn read_bytes(&self, at: usize, n: usize) -> Option<Vec<u8>> {
        let es = self.dtype().size();
        let (first, last) = (at / es, (at + n).div_ceil(es));
        let mut buf = Vec::with_capacity((last - first) * es);
        for i in first..last {
            buf.extend(le_bytes(&self.get(i)?));
        }
        let from = at - first * es;
        Some(buf[from..from + n].to_vec())
    }

    /// Writes `bytes` into the storage from byte `at`.
    fn write_bytes(&mut self, at: usize, bytes: &[u8]) -> Option<()> {
        let (dt, es) = (self.dtype(), self.dtype().size());
        let first = at / es;
        let mut buf = self.read_bytes(first * es, (at + bytes.len()).div_ceil(es) * es - first * es)?;
        buf[at - first * es..at - first * es + bytes.len()].copy_from_slice(bytes);
        for (k, chunk) in buf.chunks_exact(es).enumerate() {
            self.set(first + k, &from_le_bytes(dt, chunk)?)?;
        }
        Some(())
    }

    /// The elements of a frozen module-level array.
    pub(crate) fn of_const(c: &crate::function::ConstArray) -> Result<ArrayData, super::RuntimeErrorKind> {
        let bad =
            || super::RuntimeErrorKind::Unsupported(format!("constant array `{}` does not fit its dtype", c.name));
        let mut data = ArrayData::try_zeros(c.dtype, c.len()).ok_or_else(bad)?;
        for (k, bytes) in c.data.chunks_exact(c.dtype.size()).enumerate() {
            data.set(k, &from_le_bytes(c.dtype, bytes).ok_or_else(bad)?).ok_or_else(bad)?;
        }
        Ok(data)
    }

    fn set(&mut self, i: usize, x: &RtValue) -> Option<()> {
        fn put<T: Element>(v: &mut [T], i: usize, x: &RtValue) -> Option<()> {
            *v.get_mut(i)? = T::from_rt(x)?;
            Some(())
        }
        each_data!(self, v => put(v, i, x))
    }
}

/// The little-endian bytes of a scalar, as compiled code stores it.
fn le_bytes(v: &RtValue) -> Vec<u8> {
    match v {
        RtValue::Bool(b) => vec![u8::from(*b)],
        RtValue::I8(x) => x.to_le_bytes().to_vec(),
        RtValue::I16(x) => x.to_le_bytes().to_vec(),
        RtValue::I32(x) => x.to_le_bytes().to_vec(),
        RtValue::I64(x) => x.to_le_bytes().to_vec(),
        RtValue::U8(x) => x.to_le_bytes().to_vec(),
        RtValue::U16(x) => x.to_le_bytes().to_vec(),
        RtValue::U32(x) => x.to_le_bytes().to_vec(),
        RtValue::U64(x) => x.to_le_bytes().to_vec(),
        RtValue::F32(x) => x.to_le_bytes().to_vec(),
        RtValue::F64(x) => x.to_le_bytes().to_vec(),
        RtValue::F16(x) => x.to_le_bytes().to_vec(),
        RtValue::C64([a, b]) => [a.to_le_bytes(), b.to_le_bytes()].concat(),
        RtValue::C128([a, b]) => [a.to_le_bytes(), b.to_le_bytes()].concat(),
        _ => Vec::new(),
    }
}

/// A scalar of `s` from its little-endian bytes.
fn from_le_bytes(s: Scalar, b: &[u8]) -> Option<RtValue> {
    let w = |n: usize| -> Option<[u8; 8]> {
        let mut out = [0u8; 8];
        out[..n].copy_from_slice(b.get(..n)?);
        Some(out)
    };
    Some(match s {
        Scalar::Bool => RtValue::Bool(*b.first()? != 0),
        Scalar::Int8 => RtValue::I8(*b.first()? as i8),
        Scalar::UInt8 => RtValue::U8(*b.first()?),
        Scalar::Int16 => RtValue::I16(i16::from_le_bytes(w(2)?[..2].try_into().ok()?)),
        Scalar::UInt16 => RtValue::U16(u16::from_le_bytes(w(2)?[..2].try_into().ok()?)),
        Scalar::Int32 => RtValue::I32(i32::from_le_bytes(w(4)?[..4].try_into().ok()?)),
        Scalar::UInt32 => RtValue::U32(u32::from_le_bytes(w(4)?[..4].try_into().ok()?)),
        Scalar::Float32 => RtValue::F32(f32::from_le_bytes(w(4)?[..4].try_into().ok()?)),
        Scalar::Float16 => RtValue::F16(half::f16::from_le_bytes(w(2)?[..2].try_into().ok()?)),
        Scalar::Int64 => RtValue::I64(i64::from_le_bytes(w(8)?)),
        Scalar::UInt64 => RtValue::U64(u64::from_le_bytes(w(8)?)),
        Scalar::Float64 => RtValue::F64(f64::from_le_bytes(w(8)?)),
        Scalar::Complex64 => RtValue::C64([
            f32::from_le_bytes(b.get(..4)?.try_into().ok()?),
            f32::from_le_bytes(b.get(4..8)?.try_into().ok()?),
        ]),
        Scalar::Complex128 => RtValue::C128([
            f64::from_le_bytes(b.get(..8)?.try_into().ok()?),
            f64::from_le_bytes(b.get(8..16)?.try_into().ok()?),
        ]),
    })
}

/// An array: shared storage plus a view (base offset, shape, strides in elements), and the
/// owner of the storage when the program allocated it (`None` for arrays the caller lent).
#[derive(Clone, Debug)]
pub struct ArrayRef {
    /// Storage shared by all views.
    pub data: Rc<RefCell<ArrayData>>,
    /// Element offset of `[0, 0, ...]` in `data`.
    pub base: i64,
    /// Shape.
    pub shape: Vec<i64>,
    /// Strides in elements (may be negative or zero).
    pub strides: Vec<i64>,
    /// The memory manager's record of the buffer, for arrays the program allocated.
    pub owner: Option<Rc<Owner>>,
    /// The dtype this view reads the storage's bytes as, where it differs from the storage's
    /// (`a.view(dtype)`, `z.real`); `base` and `strides` are then in its elements.
    pub view: Option<Scalar>,
}

/// The interpreter's model of the memory manager's header (`MemInfo`): a reference count and
/// whether the buffer was freed. The interpreter counts exactly as compiled code does (it runs
/// the same `incref`/`decref` instructions), so a use after the count reached zero and a count
/// left above what the result holds are reported as compiler errors, never hidden.
#[derive(Debug, Default)]
pub struct Owner {
    /// References held.
    pub refs: std::cell::Cell<i64>,
    /// Whether the count reached zero (the buffer is gone in compiled code).
    pub freed: std::cell::Cell<bool>,
}

impl ArrayRef {
    /// A C-contiguous array of `data` with `shape` (the product must match `data.len()`).
    pub fn new(data: ArrayData, shape: Vec<i64>) -> Option<ArrayRef> {
        let n: i64 = shape.iter().product();
        if shape.is_empty()
            || shape.len() > crate::types::MAX_NDIM as usize
            || shape.iter().any(|&d| d < 0)
            || n as usize != data.len()
        {
            return None;
        }
        let mut strides = vec![1i64; shape.len()];
        for k in (0..shape.len() - 1).rev() {
            strides[k] = strides[k + 1] * shape[k + 1];
        }
        Some(ArrayRef { data: Rc::new(RefCell::new(data)), base: 0, shape, strides, owner: None, view: None })
    }

    /// A 1-D array.
    pub fn from_vec(data: ArrayData) -> ArrayRef {
        let n = data.len() as i64;
        ArrayRef::new(data, vec![n]).expect("1-D shape matches")
    }

    /// The IR type of this array (layout C when its strides are C-contiguous).
    pub fn ty(&self) -> Type {
        let mut c = true;
        let mut expect = 1i64;
        for k in (0..self.shape.len()).rev() {
            if self.shape[k] > 1 && self.strides[k] != expect {
                c = false;
            }
            expect *= self.shape[k].max(1);
        }
        Type::Array(ArrayType {
            dtype: self.dtype(),
            ndim: self.shape.len() as u8,
            layout: if c { Layout::C } else { Layout::A },
        })
    }

    /// The element type: the view's, else the storage's.
    pub fn dtype(&self) -> Scalar {
        self.view.unwrap_or_else(|| self.data.borrow().dtype())
    }

    fn index(&self, off: i64) -> Option<usize> {
        if self.owner.as_ref().is_some_and(|o| o.freed.get()) {
            return None;
        }
        let i = usize::try_from(self.base.checked_add(off)?).ok()?;
        let data = self.data.borrow();
        let fits = match self.view {
            Some(v) => (i + 1) * v.size() <= data.len() * data.dtype().size(),
            None => i < data.len(),
        };
        fits.then_some(i)
    }

    /// Element at `off` elements from `[0, ...]`; `None` outside the storage.
    pub fn load(&self, off: i64) -> Option<RtValue> {
        let i = self.index(off)?;
        match self.view {
            Some(v) => from_le_bytes(v, &self.data.borrow().read_bytes(i * v.size(), v.size())?),
            None => self.data.borrow().get(i),
        }
    }

    /// Stores at `off`; `None` outside the storage or on a dtype mismatch.
    pub fn store(&self, off: i64, x: &RtValue) -> Option<()> {
        let i = self.index(off)?;
        match self.view {
            Some(v) if x.ty() == Type::Scalar(v) => self.data.borrow_mut().write_bytes(i * v.size(), &le_bytes(x)),
            Some(_) => None,
            None => self.data.borrow_mut().set(i, x),
        }
    }

    /// A view of this array's storage read as `dtype`, from element `offset` of this array
    /// (in `dtype`'s elements), with `shape` and `strides` in them; `None` when the start is
    /// not on a `dtype` boundary.
    pub fn reinterpret(&self, dtype: Scalar, offset: i64, shape: Vec<i64>, strides: Vec<i64>) -> Option<ArrayRef> {
        let (own, new) = (self.dtype().size() as i64, dtype.size() as i64);
        let bytes = self.base.checked_mul(own)?;
        let base = (bytes % new == 0).then_some(bytes / new)?.checked_add(offset)?;
        let storage = self.data.borrow().dtype();
        Some(ArrayRef {
            data: self.data.clone(),
            base,
            shape,
            strides,
            owner: self.owner.clone(),
            view: (dtype != storage).then_some(dtype),
        })
    }

    /// The elements in logical (C) order.
    pub fn to_vec(&self) -> Vec<RtValue> {
        let mut out = Vec::new();
        let n: i64 = self.shape.iter().product();
        for flat in 0..n {
            let mut rem = flat;
            let mut off = 0;
            for k in (0..self.shape.len()).rev() {
                let i = rem % self.shape[k];
                rem /= self.shape[k];
                off += i * self.strides[k];
            }
            out.push(self.load(off).unwrap_or(RtValue::None));
        }
        out
    }
}

/// A list: shared, growable storage (aliases see each other's changes, as in Python), and
/// the memory manager's record of it when the program made it (`None` for a list the caller
/// lent).
#[derive(Clone, Debug)]
pub struct ListRef {
    /// The elements.
    pub items: Rc<RefCell<Vec<RtValue>>>,
    /// The element type.
    pub elem: Type,
    /// The list object's record, for lists the program made.
    pub owner: Option<Rc<Owner>>,
}

impl ListRef {
    /// A list the caller lends (not counted).
    pub fn lent(items: Vec<RtValue>, elem: Type) -> ListRef {
        ListRef { items: Rc::new(RefCell::new(items)), elem, owner: None }
    }
}

/// A runtime value.
#[derive(Clone, Debug)]
pub enum RtValue {
    /// `None`.
    None,
    /// `bool`.
    Bool(bool),
    /// `int32`.
    I32(i32),
    /// `int64`.
    I64(i64),
    /// `float32`.
    F32(f32),
    /// `float64`.
    F64(f64),
    /// `int8`.
    I8(i8),
    /// `int16`.
    I16(i16),
    /// `uint8`.
    U8(u8),
    /// `uint16`.
    U16(u16),
    /// `uint32`.
    U32(u32),
    /// `uint64`.
    U64(u64),
    /// `complex64`: (real, imaginary).
    C64([f32; 2]),
    /// `complex128`
    C128([f64; 2]),
    /// `float16`.
    F16(half::f16),
    /// An array view.
    Array(ArrayRef),
    /// A tuple.
    Tuple(Vec<RtValue>),
    /// A list.
    List(ListRef),
    /// A string (its value is also its type, so compiled code holds nothing for it).
    Str(std::sync::Arc<str>),
}

impl RtValue {
    /// The constant `c` at type `ty`.
    pub fn from_const(c: Const, ty: &Type) -> RtValue {
        let s = ty.scalar();
        match c {
            Const::None => RtValue::None,
            Const::Str(text) => RtValue::Str(text.into()),
            Const::Bool(b) => RtValue::Bool(b),
            Const::Int(i) => match s {
                Some(Scalar::Float64) => RtValue::F64(i as f64),
                Some(Scalar::Float32) => RtValue::F32(i as f32),
                Some(Scalar::Float16) => RtValue::F16(half::f16::from_f64(i as f64)),
                Some(s) if s.is_int() => RtValue::int(s, i),
                _ => RtValue::I64(i),
            },
            Const::Float(x) => match s {
                Some(Scalar::Float32) => RtValue::F32(x as f32),
                Some(Scalar::Float16) => RtValue::F16(half::f16::from_f64(x)),
                _ => RtValue::F64(x),
            },
        }
    }

    /// Zero of a type (what an unassigned variable reads as).
    pub fn zero_of(ty: &Type) -> RtValue {
        match ty {
            Type::Scalar(Scalar::Bool) => RtValue::Bool(false),
            Type::Scalar(Scalar::Float32) => RtValue::F32(0.0),
            Type::Scalar(Scalar::Float16) => RtValue::F16(half::f16::ZERO),
            Type::Scalar(Scalar::Float64) => RtValue::F64(0.0),
            Type::Scalar(Scalar::Complex64) => RtValue::C64([0.0; 2]),
            Type::Scalar(Scalar::Complex128) => RtValue::C128([0.0; 2]),
            Type::Scalar(s) => RtValue::int(*s, 0),
            Type::Tuple(ts) => RtValue::Tuple(ts.iter().map(RtValue::zero_of).collect()),
            // Arrays and lists: a null reference.
            _ => RtValue::None,
        }
    }

    /// The value as an int64, if it is one.
    pub fn as_i64(&self) -> Option<i64> {
        match self {
            RtValue::I64(i) => Some(*i),
            _ => None,
        }
    }

    /// The integer of type `s` whose 64-bit pattern is `bits` (truncated to the width).
    pub fn int(s: Scalar, bits: i64) -> RtValue {
        match s {
            Scalar::Int8 => RtValue::I8(bits as i8),
            Scalar::Int16 => RtValue::I16(bits as i16),
            Scalar::Int32 => RtValue::I32(bits as i32),
            Scalar::UInt8 => RtValue::U8(bits as u8),
            Scalar::UInt16 => RtValue::U16(bits as u16),
            Scalar::UInt32 => RtValue::U32(bits as u32),
            Scalar::UInt64 => RtValue::U64(bits as u64),
            Scalar::Bool => RtValue::Bool(bits & 1 != 0),
            _ => RtValue::I64(bits),
        }
    }

    /// An integer (or bool) value's type and 64-bit pattern: sign-extended for signed types,
    /// zero-extended for unsigned ones.
    pub fn int_bits(&self) -> Option<(Scalar, i64)> {
        Some(match self {
            RtValue::Bool(b) => (Scalar::Bool, *b as i64),
            RtValue::I8(x) => (Scalar::Int8, *x as i64),
            RtValue::I16(x) => (Scalar::Int16, *x as i64),
            RtValue::I32(x) => (Scalar::Int32, *x as i64),
            RtValue::I64(x) => (Scalar::Int64, *x),
            RtValue::U8(x) => (Scalar::UInt8, *x as i64),
            RtValue::U16(x) => (Scalar::UInt16, *x as i64),
            RtValue::U32(x) => (Scalar::UInt32, *x as i64),
            RtValue::U64(x) => (Scalar::UInt64, *x as i64),
            _ => return None,
        })
    }

    /// Calls `f` on every array in the value (itself, or the arrays inside a tuple).
    pub fn for_each_array(&self, f: &mut dyn FnMut(&ArrayRef)) {
        match self {
            RtValue::Array(a) => f(a),
            RtValue::Tuple(vs) => vs.iter().for_each(|v| v.for_each_array(f)),
            _ => {}
        }
    }

    /// Calls `f` on the record of every counted object the value itself holds (arrays and
    /// lists, also inside tuples; not the elements of a list), with the list when it is one.
    pub fn for_each_owner(&self, f: &mut dyn FnMut(&Rc<Owner>, Option<&ListRef>)) {
        match self {
            RtValue::Array(a) => {
                if let Some(o) = &a.owner {
                    f(o, None)
                }
            }
            RtValue::List(l) => {
                if let Some(o) = &l.owner {
                    f(o, Some(l))
                }
            }
            RtValue::Tuple(vs) => vs.iter().for_each(|v| v.for_each_owner(f)),
            _ => {}
        }
    }

    /// Whether an array or list in the value was used after its count reached zero.
    pub fn is_freed(&self) -> bool {
        let mut freed = false;
        self.for_each_owner(&mut |o, _| freed |= o.freed.get());
        freed
    }

    /// The IR type of this value.
    pub fn ty(&self) -> Type {
        match self {
            RtValue::None => Type::None,
            RtValue::Bool(_) => Type::BOOL,
            RtValue::I32(_) => Type::I32,
            RtValue::I64(_) => Type::I64,
            RtValue::F32(_) => Type::F32,
            RtValue::F64(_) => Type::F64,
            RtValue::F16(_) => Type::Scalar(Scalar::Float16),
            RtValue::C64(_) => Type::Scalar(Scalar::Complex64),
            RtValue::C128(_) => Type::Scalar(Scalar::Complex128),
            RtValue::I8(_) | RtValue::I16(_) | RtValue::U8(_) | RtValue::U16(_) | RtValue::U32(_) | RtValue::U64(_) => {
                Type::Scalar(self.int_bits().map_or(Scalar::Int64, |(s, _)| s))
            }
            RtValue::Array(a) => a.ty(),
            RtValue::Tuple(vs) => Type::Tuple(vs.iter().map(RtValue::ty).collect()),
            RtValue::List(l) => Type::List(Box::new(l.elem.clone())),
            RtValue::Str(text) => Type::Str(text.to_string()),
        }
    }

    /// Equality that treats two NaNs as equal and compares arrays by content (for tests).
    pub fn same(&self, other: &RtValue) -> bool {
        match (self, other) {
            (RtValue::F64(a), RtValue::F64(b)) => a == b || (a.is_nan() && b.is_nan()),
            (RtValue::F32(a), RtValue::F32(b)) => a == b || (a.is_nan() && b.is_nan()),
            (RtValue::F16(a), RtValue::F16(b)) => a == b || (a.is_nan() && b.is_nan()),
            (RtValue::C64([a, b]), RtValue::C64([c, d])) => {
                RtValue::F32(*a).same(&RtValue::F32(*c)) && RtValue::F32(*b).same(&RtValue::F32(*d))
            }
            (RtValue::C128([a, b]), RtValue::C128([c, d])) => {
                RtValue::F64(*a).same(&RtValue::F64(*c)) && RtValue::F64(*b).same(&RtValue::F64(*d))
            }
            (RtValue::None, RtValue::None) => true,
            (RtValue::Str(a), RtValue::Str(b)) => a == b,
            (RtValue::Bool(a), RtValue::Bool(b)) => a == b,
            (RtValue::I32(a), RtValue::I32(b)) => a == b,
            (RtValue::I64(a), RtValue::I64(b)) => a == b,
            (a, b) if a.int_bits().is_some() && a.ty() == b.ty() => a.int_bits() == b.int_bits(),
            (RtValue::Tuple(a), RtValue::Tuple(b)) => a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.same(y)),
            (RtValue::Array(a), RtValue::Array(b)) => {
                a.shape == b.shape && a.to_vec().iter().zip(b.to_vec().iter()).all(|(x, y)| x.same(y))
            }
            (RtValue::List(a), RtValue::List(b)) => {
                let (a, b) = (a.items.borrow(), b.items.borrow());
                a.len() == b.len() && a.iter().zip(b.iter()).all(|(x, y)| x.same(y))
            }
            _ => false,
        }
    }
}

impl RtValue {
    /// A scalar as an exception argument (float32 widened, as compiled code stores it).
    pub fn py_scalar(&self) -> crate::exception::PyScalar {
        use crate::exception::PyScalar;
        match self {
            RtValue::Bool(b) => PyScalar::Bool(*b),
            RtValue::I32(i) => PyScalar::Int(*i as i64),
            RtValue::I64(i) => PyScalar::Int(*i),
            RtValue::U64(i) => PyScalar::UInt(*i),
            RtValue::I8(_) | RtValue::I16(_) | RtValue::U8(_) | RtValue::U16(_) | RtValue::U32(_) => {
                PyScalar::Int(self.int_bits().map_or(0, |(_, b)| b))
            }
            RtValue::F32(x) => PyScalar::Float(*x as f64),
            RtValue::F64(x) => PyScalar::Float(*x),
            RtValue::F16(x) => PyScalar::Float(x.to_f64()),
            // Typed IR raises with scalars only (the verifier checks it).
            RtValue::None
            | RtValue::C64(_)
            | RtValue::C128(_)
            | RtValue::Tuple(_)
            | RtValue::Array(_)
            | RtValue::List(_)
            | RtValue::Str(_) => PyScalar::Int(0),
        }
    }
}

impl fmt::Display for RtValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RtValue::None => f.write_str("None"),
            RtValue::Bool(b) => f.write_str(if *b { "True" } else { "False" }),
            RtValue::I32(i) => write!(f, "{i}"),
            RtValue::I64(i) => write!(f, "{i}"),
            RtValue::I8(i) => write!(f, "{i}"),
            RtValue::I16(i) => write!(f, "{i}"),
            RtValue::U8(i) => write!(f, "{i}"),
            RtValue::U16(i) => write!(f, "{i}"),
            RtValue::U32(i) => write!(f, "{i}"),
            RtValue::U64(i) => write!(f, "{i}"),
            RtValue::F32(x) => f.write_str(&crate::print::float_text(*x as f64)),
            RtValue::F64(x) => f.write_str(&crate::print::float_text(*x)),
            RtValue::F16(x) => f.write_str(&crate::print::float_text(x.to_f64())),
            RtValue::C64([re, im]) => f.write_str(&crate::print::python_complex_repr(*re as f64, *im as f64)),
            RtValue::C128([re, im]) => f.write_str(&crate::print::python_complex_repr(*re, *im)),
            RtValue::Tuple(vs) => crate::print::python_tuple(f, vs),
            RtValue::Str(text) => f.write_str(text),
            RtValue::List(l) => {
                f.write_str("[")?;
                for (i, v) in l.items.borrow().iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{v}")?;
                }
                f.write_str("]")
            }
            RtValue::Array(a) => {
                f.write_str("[")?;
                for (i, v) in a.to_vec().iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{v}")?;
                }
                f.write_str("]")
            }
        }
    }
}
