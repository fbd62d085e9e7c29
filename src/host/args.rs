//! Rust values as arguments and results of compiled functions.
//!
//! Scalars (`bool`, `i8`..`i64`, `u8`..`u64`, `f32`, `f64`, and NumPy's `complex64` and
//! `complex128` as `num_complex`'s [`Complex32`] and [`Complex64`]), slices (`&[T]`, `&mut [T]`) and, with the `ndarray`
//! feature, `ndarray` views of 1 to 8 dimensions and any strides. A shared slice or view is
//! read-only: passing one for a parameter the function writes is an [`crate::Error::Argument`].

pub use super::array::Array;
pub use num_complex::{Complex32, Complex64};
use std::marker::PhantomData;
use twinjit_ir::half::f16;
use twinjit_ir::types::MAX_NDIM;
use twinjit_ir::{ArrayType, Layout, Scalar, Type};

/// Why an array of too many (or no) dimensions cannot be passed.
const NDIM_ERROR: &str = "arrays must have 1 to 8 dimensions";

/// Element types arrays may hold.
pub trait Element: Copy + 'static {
    /// The IR scalar.
    const SCALAR: Scalar;
}
macro_rules! elements {
    ($($t:ty => $s:ident),*) => {$(
        impl Element for $t {
            const SCALAR: Scalar = Scalar::$s;
        }
    )*};
}
elements!(
    bool => Bool, i32 => Int32, i64 => Int64, f32 => Float32, f64 => Float64,
    i8 => Int8, i16 => Int16, u8 => UInt8, u16 => UInt16, u32 => UInt32, u64 => UInt64,
    Complex32 => Complex64, Complex64 => Complex128, f16 => Float16,
    // (real, imaginary) pairs: NumPy's layout of a complex element, as the interpreter keeps it.
    [f32; 2] => Complex64, [f64; 2] => Complex128
);

/// A borrowed array: data pointer, shape, strides (in elements), mutability.
#[derive(Clone, Copy, Debug)]
pub struct ArrayArg<'a> {
    pub(crate) data: *mut u8,
    pub(crate) dtype: Scalar,
    pub(crate) ndim: u8,
    pub(crate) shape: [i64; MAX_NDIM as usize],
    pub(crate) strides: [i64; MAX_NDIM as usize],
    pub(crate) writable: bool,
    pub(crate) c_contiguous: bool,
    _life: PhantomData<&'a mut [u8]>,
}

impl<'a> ArrayArg<'a> {
    fn from_slice<T: Element>(ptr: *mut T, len: usize, writable: bool) -> Self {
        ArrayArg {
            data: ptr as *mut u8,
            dtype: T::SCALAR,
            ndim: 1,
            shape: {
                let mut s = [0; MAX_NDIM as usize];
                s[0] = len as i64;
                s
            },
            strides: {
                let mut s = [0; MAX_NDIM as usize];
                s[0] = 1;
                s
            },
            writable,
            c_contiguous: true,
            _life: PhantomData,
        }
    }

    /// The IR type.
    pub fn ty(&self) -> Type {
        Type::Array(ArrayType {
            dtype: self.dtype,
            ndim: self.ndim,
            layout: if self.c_contiguous { Layout::C } else { Layout::A },
        })
    }
}

impl<'a> ArgValue<'a> {
    /// A C-contiguous array of `shape` (1 to 8 dimensions) over `data`, writable.
    /// `Invalid` if the shape does not match `data.len()`.
    pub fn array_mut<T: Element>(data: &'a mut [T], shape: &[usize]) -> ArgValue<'a> {
        Self::shaped(data.as_mut_ptr(), data.len(), shape, true)
    }

    /// A read-only C-contiguous array of `shape` over `data`.
    pub fn array<T: Element>(data: &'a [T], shape: &[usize]) -> ArgValue<'a> {
        Self::shaped(data.as_ptr() as *mut T, data.len(), shape, false)
    }

    /// A writable 1-D array over memory not yet initialised: the output of a function that
    /// writes every element before it reads any (a `@vectorize` ufunc's `out`, a batch loop), so
    /// the caller need not fill the buffer first (a whole pass over memory for a large output).
    ///
    /// # Safety
    /// Only for a host function (compiled code, never the reference interpreter, which reads
    /// its arguments in). The caller may treat an element as initialised only once the call has
    /// returned `Ok` and the function is known to have written that element.
    pub unsafe fn array_uninit_mut<T: Element>(data: &'a mut [std::mem::MaybeUninit<T>]) -> ArgValue<'a> {
        ArgValue::Array(ArrayArg::from_slice(data.as_mut_ptr() as *mut T, data.len(), true))
    }

    /// A writable Fortran-ordered array of `shape` over `data` (the first index varies
    /// fastest): an any-layout view, as NumPy passes a Fortran array to Numba.
    pub fn array_fortran_mut<T: Element>(data: &'a mut [T], shape: &[usize]) -> ArgValue<'a> {
        let ArgValue::Array(mut a) = Self::shaped(data.as_mut_ptr(), data.len(), shape, true) else {
            return Self::shaped(data.as_mut_ptr(), data.len(), shape, true);
        };
        let mut stride = 1i64;
        for (s, &d) in a.strides.iter_mut().zip(shape) {
            *s = stride;
            stride *= d as i64;
        }
        // C-contiguous still when at most one dimension is longer than 1 (NumPy's flags).
        a.c_contiguous = shape.iter().filter(|&&d| d > 1).count() <= 1;
        ArgValue::Array(a)
    }

    fn shaped<T: Element>(ptr: *mut T, len: usize, shape: &[usize], writable: bool) -> ArgValue<'a> {
        if twinjit_ir::types::check_ndim(shape.len()).is_err() {
            return ArgValue::Invalid(NDIM_ERROR);
        }
        if shape.iter().try_fold(1usize, |acc, &d| acc.checked_mul(d)) != Some(len) {
            return ArgValue::Invalid("the shape does not match the number of elements");
        }
        let mut a = ArrayArg::from_slice(ptr, len, writable);
        a.ndim = shape.len() as u8;
        let mut stride = 1i64;
        for k in (0..shape.len()).rev() {
            a.shape[k] = shape[k] as i64;
            a.strides[k] = stride;
            stride *= shape[k] as i64;
        }
        ArgValue::Array(a)
    }
}

/// One argument.
#[derive(Clone, Copy, Debug)]
pub enum ArgValue<'a> {
    /// `bool`
    Bool(bool),
    /// `int32`
    I32(i32),
    /// `int64`
    I64(i64),
    /// `float32`
    F32(f32),
    /// `float64`
    F64(f64),
    /// `int8`
    I8(i8),
    /// `int16`
    I16(i16),
    /// `uint8`
    U8(u8),
    /// `uint16`
    U16(u16),
    /// `uint32`
    U32(u32),
    /// `uint64`
    U64(u64),
    /// `complex64` (NumPy's name: two `float32`s)
    C64(Complex32),
    /// `complex128`
    C128(Complex64),
    /// `float16` (CUDA kernels only; the host target refuses it, as Numba's CPU target does)
    F16(f16),
    /// An array.
    Array(ArrayArg<'a>),
    /// `None` (a parameter whose default is `None`, or code that tests `x is None`).
    None,
    /// A tuple of scalars, `None`s and tuples (arrays inside a tuple are not supported).
    Tuple(&'a [ArgValue<'a>]),
    /// A string (Numba's `unicode_type`). Its value is part of the type: the function is
    /// specialised for it (each distinct string compiles once), and it takes no slots.
    Str(&'a str),
    /// An array that cannot be passed (more than 8 dimensions); the string says why.
    Invalid(&'static str),
}

impl ArgValue<'_> {
    /// The IR type (arrays of invalid dimension report `None`).
    pub fn ty(&self) -> Option<Type> {
        Some(match self {
            ArgValue::Bool(_) => Type::BOOL,
            ArgValue::I32(_) => Type::I32,
            ArgValue::I64(_) => Type::I64,
            ArgValue::F32(_) => Type::F32,
            ArgValue::F64(_) => Type::F64,
            ArgValue::I8(_) => Type::Scalar(Scalar::Int8),
            ArgValue::I16(_) => Type::Scalar(Scalar::Int16),
            ArgValue::U8(_) => Type::Scalar(Scalar::UInt8),
            ArgValue::U16(_) => Type::Scalar(Scalar::UInt16),
            ArgValue::U32(_) => Type::Scalar(Scalar::UInt32),
            ArgValue::U64(_) => Type::U64,
            ArgValue::C64(_) => Type::Scalar(Scalar::Complex64),
            ArgValue::C128(_) => Type::Scalar(Scalar::Complex128),
            ArgValue::F16(_) => Type::Scalar(Scalar::Float16),
            ArgValue::Array(a) => a.ty(),
            ArgValue::None => Type::None,
            ArgValue::Tuple(items) => Type::Tuple(items.iter().map(ArgValue::ty).collect::<Option<_>>()?),
            ArgValue::Str(text) => Type::Str(text.to_string()),
            ArgValue::Invalid(_) => return None,
        })
    }

    /// How many 8-byte slots the argument takes (`twinjit_ir::abi::flatten`).
    pub(crate) fn slot_count(&self) -> usize {
        match self {
            ArgValue::Array(a) => 2 + 2 * a.ndim as usize,
            ArgValue::None | ArgValue::Invalid(_) | ArgValue::Str(_) => 0,
            ArgValue::Tuple(items) => items.iter().map(ArgValue::slot_count).sum(),
            ArgValue::C64(_) | ArgValue::C128(_) => 2,
            _ => 1,
        }
    }

    /// Whether the argument is or holds an array.
    pub(crate) fn holds_array(&self) -> bool {
        match self {
            ArgValue::Array(_) => true,
            ArgValue::Tuple(items) => items.iter().any(ArgValue::holds_array),
            _ => false,
        }
    }

    /// Writes the flattened 8-byte slots (see `twinjit_ir::abi`) at `out[at..]` and returns
    /// the next free index. `out` must have room for [`ArgValue::slot_count`] slots past `at`.
    #[inline]
    pub(crate) fn write_slots(&self, out: &mut [u64], at: usize) -> usize {
        match self {
            ArgValue::Bool(b) => out[at] = *b as u64,
            ArgValue::I32(i) => out[at] = *i as u32 as u64,
            ArgValue::I64(i) => out[at] = *i as u64,
            ArgValue::F32(x) => out[at] = x.to_bits() as u64,
            ArgValue::F64(x) => out[at] = x.to_bits(),
            ArgValue::F16(x) => out[at] = x.to_bits() as u64,
            ArgValue::I8(i) => out[at] = *i as u8 as u64,
            ArgValue::I16(i) => out[at] = *i as u16 as u64,
            ArgValue::U8(i) => out[at] = *i as u64,
            ArgValue::U16(i) => out[at] = *i as u64,
            ArgValue::U32(i) => out[at] = *i as u64,
            ArgValue::U64(i) => out[at] = *i,
            ArgValue::C64(z) => {
                out[at] = z.re.to_bits() as u64;
                out[at + 1] = z.im.to_bits() as u64;
                return at + 2;
            }
            ArgValue::C128(z) => {
                out[at] = z.re.to_bits();
                out[at + 1] = z.im.to_bits();
                return at + 2;
            }
            ArgValue::Array(a) => {
                let n = a.ndim as usize;
                let slots = twinjit_ir::abi::array_slots(a.data as u64, &a.shape[..n], a.strides[..n].iter().copied());
                for (slot, v) in out[at..at + 1 + 2 * n].iter_mut().zip(slots) {
                    *slot = v;
                }
                // A lent array: no owner.
                out[at + 1 + 2 * n] = 0;
                return at + 2 + 2 * n;
            }
            ArgValue::None | ArgValue::Invalid(_) | ArgValue::Str(_) => return at,
            ArgValue::Tuple(items) => return items.iter().fold(at, |k, a| a.write_slots(out, k)),
        }
        at + 1
    }
}

/// Converts a Rust value into an argument.
pub trait IntoArg<'a> {
    /// The argument.
    fn into_arg(self) -> ArgValue<'a>;
}

macro_rules! scalar_arg {
    ($($t:ty => $v:ident),*) => {$(
        impl<'a> IntoArg<'a> for $t {
            #[inline]
            fn into_arg(self) -> ArgValue<'a> { ArgValue::$v(self) }
        }
    )*};
}
scalar_arg!(
    bool => Bool, i32 => I32, i64 => I64, f32 => F32, f64 => F64, i8 => I8, i16 => I16, u8 => U8, u16 => U16,
    u32 => U32, u64 => U64, Complex32 => C64, Complex64 => C128
);

impl<'a> IntoArg<'a> for &'a str {
    #[inline]
    fn into_arg(self) -> ArgValue<'a> {
        ArgValue::Str(self)
    }
}

impl<'a> IntoArg<'a> for &'a String {
    #[inline]
    fn into_arg(self) -> ArgValue<'a> {
        ArgValue::Str(self.as_str())
    }
}

impl<'a, T: Element> IntoArg<'a> for &'a [T] {
    #[inline]
    fn into_arg(self) -> ArgValue<'a> {
        ArgValue::Array(ArrayArg::from_slice(self.as_ptr() as *mut T, self.len(), false))
    }
}

impl<'a, T: Element> IntoArg<'a> for &'a mut [T] {
    #[inline]
    fn into_arg(self) -> ArgValue<'a> {
        ArgValue::Array(ArrayArg::from_slice(self.as_mut_ptr(), self.len(), true))
    }
}

impl<'a, T: Element> IntoArg<'a> for &'a Vec<T> {
    fn into_arg(self) -> ArgValue<'a> {
        self.as_slice().into_arg()
    }
}

impl<'a, T: Element> IntoArg<'a> for &'a mut Vec<T> {
    fn into_arg(self) -> ArgValue<'a> {
        self.as_mut_slice().into_arg()
    }
}

impl<'a> IntoArg<'a> for ArgValue<'a> {
    fn into_arg(self) -> ArgValue<'a> {
        self
    }
}

#[cfg(feature = "ndarray")]
mod nd {
    use super::*;
    use ndarray::{ArrayView, ArrayViewMut, Dimension};

    fn view<'a, T: Element>(
        ptr: *mut T,
        shape: &[usize],
        strides: &[isize],
        writable: bool,
        standard: bool,
    ) -> ArgValue<'a> {
        if twinjit_ir::types::check_ndim(shape.len()).is_err() {
            return ArgValue::Invalid(NDIM_ERROR);
        }
        let mut a = ArrayArg::from_slice(ptr, 0, writable);
        a.ndim = shape.len() as u8;
        for k in 0..shape.len() {
            a.shape[k] = shape[k] as i64;
            a.strides[k] = strides[k] as i64;
        }
        a.c_contiguous = standard;
        ArgValue::Array(a)
    }

    impl<'a, T: Element, D: Dimension> IntoArg<'a> for ArrayView<'a, T, D> {
        fn into_arg(self) -> ArgValue<'a> {
            let standard = self.is_standard_layout();
            let (shape, strides) = (self.shape().to_vec(), self.strides().to_vec());
            view(self.as_ptr() as *mut T, &shape, &strides, false, standard)
        }
    }

    impl<'a, T: Element, D: Dimension> IntoArg<'a> for ArrayViewMut<'a, T, D> {
        fn into_arg(mut self) -> ArgValue<'a> {
            let standard = self.is_standard_layout();
            let (shape, strides) = (self.shape().to_vec(), self.strides().to_vec());
            view(self.as_mut_ptr(), &shape, &strides, true, standard)
        }
    }
}

/// A list of arguments: tuples of up to 8 [`IntoArg`] values, or a `Vec<ArgValue>`.
/// Tuples convert into a fixed-size array on the stack (no allocation, no copying of unused
/// slots).
pub trait IntoArgs<'a> {
    /// The converted arguments.
    type Args: AsRef<[ArgValue<'a>]>;
    /// The arguments in order.
    fn into_args(self) -> Self::Args;
}

impl<'a> IntoArgs<'a> for () {
    type Args = [ArgValue<'a>; 0];
    fn into_args(self) -> Self::Args {
        []
    }
}

impl<'a> IntoArgs<'a> for Vec<ArgValue<'a>> {
    type Args = Vec<ArgValue<'a>>;
    fn into_args(self) -> Self::Args {
        self
    }
}

impl<'a, 'b> IntoArgs<'a> for &'b [ArgValue<'a>] {
    type Args = &'b [ArgValue<'a>];
    fn into_args(self) -> Self::Args {
        self
    }
}

macro_rules! tuple_args {
    ($n:literal; $($t:ident),+) => {
        impl<'a, $($t: IntoArg<'a>),+> IntoArgs<'a> for ($($t,)+) {
            type Args = [ArgValue<'a>; $n];
            #[allow(non_snake_case)]
            #[inline]
            fn into_args(self) -> Self::Args {
                let ($($t,)+) = self;
                [$($t.into_arg()),+]
            }
        }
    };
}
tuple_args!(1; A);
tuple_args!(2; A, B);
tuple_args!(3; A, B, C);
tuple_args!(4; A, B, C, D);
tuple_args!(5; A, B, C, D, E);
tuple_args!(6; A, B, C, D, E, F);
tuple_args!(7; A, B, C, D, E, F, G);
tuple_args!(8; A, B, C, D, E, F, G, H);

impl ArgValue<'_> {
    /// The scalar type, if this is a scalar.
    #[inline]
    pub fn scalar(&self) -> Option<Scalar> {
        Some(match self {
            ArgValue::Bool(_) => Scalar::Bool,
            ArgValue::I32(_) => Scalar::Int32,
            ArgValue::I64(_) => Scalar::Int64,
            ArgValue::F32(_) => Scalar::Float32,
            ArgValue::F64(_) => Scalar::Float64,
            ArgValue::I8(_) => Scalar::Int8,
            ArgValue::I16(_) => Scalar::Int16,
            ArgValue::U8(_) => Scalar::UInt8,
            ArgValue::U16(_) => Scalar::UInt16,
            ArgValue::U32(_) => Scalar::UInt32,
            ArgValue::U64(_) => Scalar::UInt64,
            ArgValue::C64(_) => Scalar::Complex64,
            ArgValue::C128(_) => Scalar::Complex128,
            ArgValue::F16(_) => Scalar::Float16,
            ArgValue::Array(_) | ArgValue::None | ArgValue::Tuple(_) | ArgValue::Invalid(_) | ArgValue::Str(_) => {
                return None
            }
        })
    }

    /// A scalar argument as the interpreter's value (`None` for arrays, tuples, `None`).
    pub fn to_rt(&self) -> Option<twinjit_ir::interp::RtValue> {
        use twinjit_ir::interp::RtValue as R;
        Some(match *self {
            ArgValue::Bool(x) => R::Bool(x),
            ArgValue::I32(x) => R::I32(x),
            ArgValue::I64(x) => R::I64(x),
            ArgValue::F32(x) => R::F32(x),
            ArgValue::F64(x) => R::F64(x),
            ArgValue::I8(x) => R::I8(x),
            ArgValue::I16(x) => R::I16(x),
            ArgValue::U8(x) => R::U8(x),
            ArgValue::U16(x) => R::U16(x),
            ArgValue::U32(x) => R::U32(x),
            ArgValue::U64(x) => R::U64(x),
            ArgValue::C64(z) => R::C64([z.re, z.im]),
            ArgValue::C128(z) => R::C128([z.re, z.im]),
            ArgValue::F16(x) => R::F16(x),
            ArgValue::Str(text) => R::Str(text.into()),
            ArgValue::Array(_) | ArgValue::None | ArgValue::Tuple(_) | ArgValue::Invalid(_) => return None,
        })
    }

    /// The argument of an interpreter scalar (or `None`); `None` for other values.
    pub fn from_rt(v: &twinjit_ir::interp::RtValue) -> Option<ArgValue<'static>> {
        use twinjit_ir::interp::RtValue as R;
        Some(match *v {
            R::Bool(x) => ArgValue::Bool(x),
            R::I32(x) => ArgValue::I32(x),
            R::I64(x) => ArgValue::I64(x),
            R::F32(x) => ArgValue::F32(x),
            R::F64(x) => ArgValue::F64(x),
            R::I8(x) => ArgValue::I8(x),
            R::I16(x) => ArgValue::I16(x),
            R::U8(x) => ArgValue::U8(x),
            R::U16(x) => ArgValue::U16(x),
            R::U32(x) => ArgValue::U32(x),
            R::U64(x) => ArgValue::U64(x),
            R::C64([re, im]) => ArgValue::C64(Complex32::new(re, im)),
            R::C128([re, im]) => ArgValue::C128(Complex64::new(re, im)),
            R::F16(x) => ArgValue::F16(x),
            R::None => ArgValue::None,
            R::Str(ref text) => ArgValue::Str(twinjit_ir::intern(text)),
            _ => return None,
        })
    }

    /// Whether this argument has exactly type `t` (the dispatcher's key).
    #[inline]
    pub(crate) fn is(&self, t: &Type) -> bool {
        match (self, t) {
            (ArgValue::Array(a), Type::Array(at)) => {
                a.dtype == at.dtype && a.ndim == at.ndim && (a.c_contiguous == (at.layout == Layout::C))
            }
            (ArgValue::None, Type::None) => true,
            (ArgValue::Str(a), Type::Str(t)) => a == t,
            (ArgValue::Tuple(items), Type::Tuple(ts)) => {
                items.len() == ts.len() && items.iter().zip(ts).all(|(a, t)| a.is(t))
            }
            (ArgValue::Array(_) | ArgValue::Invalid(_) | ArgValue::None | ArgValue::Tuple(_) | ArgValue::Str(_), _) => {
                false
            }
            (a, Type::Scalar(s)) => a.scalar() == Some(*s),
            _ => false,
        }
    }
}

/// A value returned by a compiled function.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// `None`
    None,
    /// `bool`
    Bool(bool),
    /// `int32`
    I32(i32),
    /// `int64`
    I64(i64),
    /// `float32`
    F32(f32),
    /// `float64`
    F64(f64),
    /// `int8`
    I8(i8),
    /// `int16`
    I16(i16),
    /// `uint8`
    U8(u8),
    /// `uint16`
    U16(u16),
    /// `uint32`
    U32(u32),
    /// `uint64`
    U64(u64),
    /// `complex64`
    C64(Complex32),
    /// `complex128`
    C128(Complex64),
    /// `float16`
    F16(f16),
    /// A tuple.
    Tuple(Vec<Value>),
    /// An array (owned: see [`Array`]).
    Array(Array),
    /// A list, copied out of the one compiled code returned (which is then released).
    List(Vec<Value>),
    /// A dict's (key, value) pairs in insertion order, copied out of the one compiled code
    /// returned (which is then released).
    Dict(Vec<(Value, Value)>),
    /// A set's elements in the order compiled code iterates them, copied out of the one it
    /// returned (which is then released).
    Set(Vec<Value>),
    /// A string (its value is known when the function is compiled).
    Str(String),
}

impl Value {
    /// Reads a value of type `t` from result slots, advancing `k`.
    pub(crate) fn from_slots(t: &Type, slots: &[u64], k: &mut usize) -> Option<Value> {
        let mut take = || {
            let v = *slots.get(*k)?;
            *k += 1;
            Some(v)
        };
        Some(match t {
            // A function value has no parts; Rust receives `None` for it.
            Type::None | Type::Unknown | Type::Function(_) => Value::None,
            Type::Str(text) => Value::Str(text.clone()),
            Type::String => {
                let mi = take()? as *mut twinjit_host::memory::MemInfo;
                if mi.is_null() {
                    return None;
                }
                // SAFETY: a returned string: the reference to its list of code points that the
                // result hands over; its elements are read, then the reference released.
                unsafe {
                    let points = list_values(&twinjit_ir::types::CODE_POINT, mi);
                    twinjit_host::memory::decref(mi);
                    let text: Option<String> = points?
                        .iter()
                        .map(|p| match p {
                            Value::I32(c) => char::from_u32(*c as u32),
                            _ => None,
                        })
                        .collect();
                    Value::Str(text?)
                }
            }
            Type::Scalar(Scalar::Bool) => Value::Bool(take()? as u8 != 0),
            Type::Scalar(Scalar::Int32) => Value::I32(take()? as u32 as i32),
            Type::Scalar(Scalar::Int64) => Value::I64(take()? as i64),
            Type::Scalar(Scalar::Float32) => Value::F32(f32::from_bits(take()? as u32)),
            Type::Scalar(Scalar::Float64) => Value::F64(f64::from_bits(take()?)),
            Type::Scalar(Scalar::Float16) => Value::F16(f16::from_bits(take()? as u16)),
            Type::Scalar(Scalar::Int8) => Value::I8(take()? as u8 as i8),
            Type::Scalar(Scalar::Int16) => Value::I16(take()? as u16 as i16),
            Type::Scalar(Scalar::UInt8) => Value::U8(take()? as u8),
            Type::Scalar(Scalar::UInt16) => Value::U16(take()? as u16),
            Type::Scalar(Scalar::UInt32) => Value::U32(take()? as u32),
            Type::Scalar(Scalar::UInt64) => Value::U64(take()?),
            Type::Scalar(Scalar::Complex64) => {
                let re = f32::from_bits(take()? as u32);
                Value::C64(Complex32::new(re, f32::from_bits(take()? as u32)))
            }
            Type::Scalar(Scalar::Complex128) => {
                let re = f64::from_bits(take()?);
                Value::C128(Complex64::new(re, f64::from_bits(take()?)))
            }
            Type::Tuple(ts) => Value::Tuple(ts.iter().map(|t| Value::from_slots(t, slots, k)).collect::<Option<_>>()?),
            // The flag, then the value (read either way, to step past its slots).
            Type::Optional(t) => {
                let present = take()? as u8 != 0;
                let v = Value::from_slots(t, slots, k)?;
                if present {
                    v
                } else {
                    Value::None
                }
            }
            Type::Array(a) => {
                let n = a.ndim as usize;
                let parts = slots.get(*k..*k + 2 + 2 * n)?;
                *k += 2 + 2 * n;
                let ints: Vec<i64> = parts[1..1 + 2 * n].iter().map(|&x| x as i64).collect();
                // SAFETY: the slots are a returned array of this type (the compiled signature)
                // whose reference the result hands over.
                Value::Array(unsafe {
                    Array::from_returned(a.dtype, parts[0], &ints[..n], &ints[n..], parts[1 + 2 * n])
                }?)
            }
            Type::List(e) => {
                let mi = take()? as *mut twinjit_host::memory::MemInfo;
                if mi.is_null() {
                    return None;
                }
                // SAFETY: a returned list whose reference the result hands over: its elements
                // are read (each reference an element holds is taken again for the value that
                // now holds it), then the list's reference is released.
                unsafe {
                    let items = list_values(e, mi);
                    twinjit_host::memory::decref(mi);
                    Value::List(items?)
                }
            }
            Type::Dict(kt, vt) => {
                let lists = four_lists(&mut take)?;
                // SAFETY: a returned dict whose four list references the result hands over
                // (keys, values, entry hashes, table: `Type::Dict`); their elements are read as
                // for a list, then the lists are released.
                unsafe {
                    let keys = list_values(kt, lists[0]);
                    let vals = list_values(vt, lists[1]);
                    let hashes = list_values(&Type::I64, lists[2]);
                    for &m in &lists {
                        twinjit_host::memory::decref(m);
                    }
                    let (keys, vals, hashes) = (keys?, vals?, hashes?);
                    // A deleted entry's hash is -1.
                    Value::Dict(
                        keys.into_iter()
                            .zip(vals)
                            .zip(hashes)
                            .filter(|(_, h)| *h != Value::I64(-1))
                            .map(|(kv, _)| kv)
                            .collect(),
                    )
                }
            }
            Type::Set(kt) => {
                let lists = four_lists(&mut take)?;
                // SAFETY: a returned set whose four list references the result hands over
                // (elements, flags, entry hashes, table: `Type::Set`); they are read as lists,
                // then released.
                unsafe {
                    let keys = list_values(kt, lists[0]);
                    let hashes = list_values(&Type::I64, lists[2]);
                    let table = list_values(&Type::I64, lists[3]);
                    // The flags list holds no references: nothing to take from it.
                    for &m in &lists {
                        twinjit_host::memory::decref(m);
                    }
                    let (keys, hashes, table) = (keys?, hashes?, table?);
                    // The table's order: slot k holds entry + 1, or 0; a deleted entry's hash is -1.
                    let mut out = Vec::new();
                    for slot in table.iter().skip(1) {
                        let Value::I64(s) = *slot else { return None };
                        let e = usize::try_from(s - 1).ok();
                        if let Some(e) = e.filter(|&e| s > 0 && hashes.get(e) != Some(&Value::I64(-1))) {
                            out.push(keys.get(e)?.clone());
                        }
                    }
                    Value::Set(out)
                }
            }
            Type::Slice(_) => return None,
        })
    }

    /// The references a result holds (arrays' owners, null for lent arrays, and lists), read
    /// from its slots.
    pub(crate) fn owners_in_slots(t: &Type, slots: &[u64]) -> Vec<*mut twinjit_host::memory::MemInfo> {
        twinjit_ir::abi::flatten(t)
            .into_iter()
            .zip(slots)
            .filter(|(p, _)| p.is_owner())
            .map(|(_, &x)| x as *mut twinjit_host::memory::MemInfo)
            .collect()
    }
}

/// The four list references a returned dict or set is made of (`Type::Dict`), read from its
/// slots; `None` if one is null.
fn four_lists(take: &mut impl FnMut() -> Option<u64>) -> Option<[*mut twinjit_host::memory::MemInfo; 4]> {
    let mut out = [std::ptr::null_mut(); 4];
    for m in &mut out {
        *m = take()? as *mut twinjit_host::memory::MemInfo;
        if m.is_null() {
            return None;
        }
    }
    Some(out)
}

/// The elements of a live list of `elem` as values.
///
/// # Safety
/// `mi` is a live list of `elem` (its layout is `twinjit_ir::abi::list_elem_layout(elem)`).
unsafe fn list_values(elem: &Type, mi: *mut twinjit_host::memory::MemInfo) -> Option<Vec<Value>> {
    use twinjit_host::memory;
    let (size, mask) = twinjit_ir::abi::list_elem_layout(elem)?;
    let words = size / 8;
    // SAFETY: the caller's contract: `items` holds `len` elements of `words` slots each.
    unsafe {
        let p = memory::payload(mi);
        let (len, items) = ((*p).len.max(0) as usize, (*p).items as *const u64);
        let mut out = Vec::with_capacity(len);
        for i in 0..len {
            let slots = std::slice::from_raw_parts(items.add(i * words), words);
            for (k, &s) in slots.iter().enumerate() {
                if mask & (1 << k) != 0 {
                    memory::incref(s as *mut memory::MemInfo);
                }
            }
            out.push(Value::from_slots(elem, slots, &mut 0)?);
        }
        Some(out)
    }
}

impl std::fmt::Display for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Value::None => f.write_str("None"),
            Value::Bool(b) => f.write_str(if *b { "True" } else { "False" }),
            Value::I32(i) => write!(f, "{i}"),
            Value::I64(i) => write!(f, "{i}"),
            Value::I8(i) => write!(f, "{i}"),
            Value::I16(i) => write!(f, "{i}"),
            Value::U8(i) => write!(f, "{i}"),
            Value::U16(i) => write!(f, "{i}"),
            Value::U32(i) => write!(f, "{i}"),
            Value::U64(i) => write!(f, "{i}"),
            Value::F32(x) => write!(f, "{x:?}"),
            Value::F64(x) => write!(f, "{x:?}"),
            Value::F16(x) => write!(f, "{:?}", x.to_f64()),
            Value::C64(z) => f.write_str(&twinjit_ir::python_complex_repr(z.re as f64, z.im as f64)),
            Value::C128(z) => f.write_str(&twinjit_ir::python_complex_repr(z.re, z.im)),
            Value::Tuple(vs) => twinjit_ir::python_tuple(f, vs),
            Value::Array(a) => write!(f, "{a}"),
            Value::Str(text) => f.write_str(text),
            Value::List(vs) => {
                f.write_str("[")?;
                for (i, v) in vs.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{v}")?;
                }
                f.write_str("]")
            }
            Value::Set(vs) if vs.is_empty() => f.write_str("set()"),
            Value::Set(vs) => {
                f.write_str("{")?;
                for (i, v) in vs.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{v}")?;
                }
                f.write_str("}")
            }
            Value::Dict(kvs) => {
                f.write_str("{")?;
                for (i, (k, v)) in kvs.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{k}: {v}")?;
                }
                f.write_str("}")
            }
        }
    }
}

/// Converts a returned [`Value`] into a Rust type.
pub trait FromValue: Sized {
    /// Whether the result is dropped unread ([`Ignored`]): a returned array the caller lent
    /// (`out=` of a ufunc) is then not copied.
    const IGNORES_RESULT: bool = false;
    /// `None` when the value has another type.
    fn from_value(v: Value) -> Option<Self>;
    /// The Rust type's name, for errors.
    fn describe() -> &'static str;
    /// Reads the value straight from result slots when the type matches (the fast path of
    /// scalar results); the default goes through [`Value`].
    #[inline]
    fn from_slots(t: &Type, slots: &[u64]) -> Option<Self> {
        Self::from_value(Value::from_slots(t, slots, &mut 0)?)
    }
}

macro_rules! from_value {
    ($($t:ty => $v:ident, $s:ident, $conv:expr),*) => {$(
        impl FromValue for $t {
            #[inline]
            fn from_value(v: Value) -> Option<Self> {
                match v { Value::$v(x) => Some(x), _ => None }
            }
            fn describe() -> &'static str { stringify!($t) }
            #[inline]
            fn from_slots(t: &Type, slots: &[u64]) -> Option<Self> {
                match t {
                    Type::Scalar(Scalar::$s) => slots.first().map(|&x| $conv(x)),
                    _ => None,
                }
            }
        }
    )*};
}
from_value!(
    bool => Bool, Bool, |x: u64| x as u8 != 0,
    i32 => I32, Int32, |x: u64| x as u32 as i32,
    i64 => I64, Int64, |x: u64| x as i64,
    f32 => F32, Float32, |x: u64| f32::from_bits(x as u32),
    f64 => F64, Float64, f64::from_bits,
    i8 => I8, Int8, |x: u64| x as u8 as i8,
    i16 => I16, Int16, |x: u64| x as u16 as i16,
    u8 => U8, UInt8, |x: u64| x as u8,
    u16 => U16, UInt16, |x: u64| x as u16,
    u32 => U32, UInt32, |x: u64| x as u32,
    u64 => U64, UInt64, |x: u64| x,
    f16 => F16, Float16, |x: u64| f16::from_bits(x as u16)
);

macro_rules! from_complex {
    ($($t:ty => $v:ident),*) => {$(
        impl FromValue for $t {
            fn from_value(v: Value) -> Option<Self> {
                match v { Value::$v(x) => Some(x), _ => None }
            }
            fn describe() -> &'static str { stringify!($t) }
        }
    )*};
}
from_complex!(Complex32 => C64, Complex64 => C128);

impl FromValue for Array {
    fn from_value(v: Value) -> Option<Self> {
        match v {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }
    fn describe() -> &'static str {
        "Array"
    }
}

impl FromValue for () {
    fn from_value(v: Value) -> Option<Self> {
        matches!(v, Value::None).then_some(())
    }
    fn describe() -> &'static str {
        "()"
    }
}

/// A result the caller does not want: `f.call::<Ignored>((&x[..], &mut out[..]))` runs a
/// function that returns its (lent) output array, such as a ufunc given `out`, without the
/// copy an [`Array`] result would make of it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ignored;

impl FromValue for Ignored {
    const IGNORES_RESULT: bool = true;
    fn from_value(_: Value) -> Option<Self> {
        Some(Ignored)
    }
    fn describe() -> &'static str {
        "Ignored"
    }
}

impl FromValue for Value {
    fn from_value(v: Value) -> Option<Self> {
        Some(v)
    }
    fn describe() -> &'static str {
        "Value"
    }
}

macro_rules! from_tuple {
    ($($n:ident),+) => {
        impl<$($n: FromValue),+> FromValue for ($($n,)+) {
            #[allow(non_snake_case)]
            fn from_value(v: Value) -> Option<Self> {
                let Value::Tuple(items) = v else { return None };
                let mut it = items.into_iter();
                $(let $n = $n::from_value(it.next()?)?;)+
                if it.next().is_some() { return None; }
                Some(($($n,)+))
            }
            fn describe() -> &'static str { "tuple" }
        }
    };
}
from_tuple!(A);
from_tuple!(A, B);
from_tuple!(A, B, C);
from_tuple!(A, B, C, D);
from_tuple!(A, B, C, D, E);
from_tuple!(A, B, C, D, E, F);
