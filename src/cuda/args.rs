//! Kernel arguments: scalars, device arrays (flattened into the entry's parameters through
//! `twinjit_ir::abi`), and host arrays, which are refused with a hint.

use super::{DeviceArray, DeviceElement, ElementType};
use crate::dispatcher::CallArg;
use crate::host::{ArgValue, Element};
use smallvec::SmallVec;
use std::marker::PhantomData;
use twinjit_ir::abi;
use twinjit_ir::types::MAX_NDIM;
use twinjit_ir::{Scalar, Type};

/// A kernel argument: a scalar, a device array, or a host array (refused with a hint).
#[derive(Clone, Copy, Debug)]
pub enum KernelArg<'a> {
    /// A scalar, `None` or a tuple of scalars.
    Scalar(crate::ArgValue<'a>),
    /// A device array: pointer, element type, shape (C order).
    Device {
        /// Device pointer.
        ptr: u64,
        /// Element type.
        dtype: Scalar,
        /// Dimensions (1 to 8).
        ndim: u8,
        /// Shape.
        shape: [i64; MAX_NDIM as usize],
        /// Ties the argument to the borrow of the array.
        _life: PhantomData<&'a ()>,
    },
    /// A host slice where a device array belongs.
    Host {
        /// Its element type's name.
        dtype: &'static str,
    },
}

impl KernelArg<'_> {
    pub(super) fn ty(&self) -> Option<Type> {
        match self {
            KernelArg::Scalar(a) => a.ty(),
            KernelArg::Device { dtype, ndim, .. } => {
                Some(Type::Array(twinjit_ir::ArrayType { dtype: *dtype, ndim: *ndim, layout: twinjit_ir::Layout::C }))
            }
            KernelArg::Host { .. } => None,
        }
    }

    pub(super) fn write_slots(&self, out: &mut SmallVec<[u64; 24]>) {
        match self {
            KernelArg::Scalar(a) if a.slot_count() == 1 => {
                let mut s = [0u64; 1];
                a.write_slots(&mut s, 0);
                out.push(s[0]);
            }
            KernelArg::Scalar(a) => {
                // `None` (no slot) or a tuple of scalars.
                let mut s = vec![0u64; a.slot_count()];
                a.write_slots(&mut s, 0);
                out.extend(s);
            }
            KernelArg::Device { ptr, ndim, shape, .. } => {
                let shape = &shape[..*ndim as usize];
                out.extend(abi::array_slots(*ptr, shape, abi::c_strides(shape)));
            }
            KernelArg::Host { .. } => {}
        }
    }
}

pub(super) fn scalar_of_element(t: ElementType) -> Scalar {
    match t {
        ElementType::Bool => Scalar::Bool,
        ElementType::Int32 => Scalar::Int32,
        ElementType::Int64 => Scalar::Int64,
        ElementType::Float32 => Scalar::Float32,
        ElementType::Float64 => Scalar::Float64,
        ElementType::Int8 => Scalar::Int8,
        ElementType::Int16 => Scalar::Int16,
        ElementType::UInt8 => Scalar::UInt8,
        ElementType::UInt16 => Scalar::UInt16,
        ElementType::UInt32 => Scalar::UInt32,
        ElementType::UInt64 => Scalar::UInt64,
        ElementType::Complex64 => Scalar::Complex64,
        ElementType::Complex128 => Scalar::Complex128,
        ElementType::Float16 => Scalar::Float16,
    }
}

/// Converts a Rust value into a kernel argument.
pub trait IntoKernelArg<'a> {
    /// The argument.
    fn into_kernel_arg(self) -> KernelArg<'a>;
}

macro_rules! scalar_kernel_arg {
    ($($t:ty => $v:ident),*) => {$(
        impl<'a> IntoKernelArg<'a> for $t {
            fn into_kernel_arg(self) -> KernelArg<'a> { KernelArg::Scalar(crate::ArgValue::$v(self)) }
        }
    )*};
}
scalar_kernel_arg!(bool => Bool, i32 => I32, i64 => I64, f32 => F32, f64 => F64, i8 => I8, i16 => I16, u8 => U8, u16 => U16, u32 => U32, u64 => U64, twinjit_ir::half::f16 => F16);

fn device_arg<'a, T: DeviceElement>(a: &DeviceArray<T>) -> KernelArg<'a> {
    let mut shape = [0i64; MAX_NDIM as usize];
    for (k, d) in a.shape().iter().take(MAX_NDIM as usize).enumerate() {
        shape[k] = *d as i64;
    }
    KernelArg::Device {
        ptr: a.device_ptr(),
        dtype: scalar_of_element(T::TYPE),
        ndim: a.ndim() as u8,
        shape,
        _life: PhantomData,
    }
}

impl<'a, T: DeviceElement> IntoKernelArg<'a> for &'a DeviceArray<T> {
    fn into_kernel_arg(self) -> KernelArg<'a> {
        device_arg(self)
    }
}
impl<'a, T: DeviceElement> IntoKernelArg<'a> for &'a mut DeviceArray<T> {
    fn into_kernel_arg(self) -> KernelArg<'a> {
        device_arg(self)
    }
}
impl<'a, T: Element> IntoKernelArg<'a> for &'a [T] {
    fn into_kernel_arg(self) -> KernelArg<'a> {
        KernelArg::Host { dtype: T::SCALAR.name() }
    }
}
impl<'a, T: Element> IntoKernelArg<'a> for &'a mut [T] {
    fn into_kernel_arg(self) -> KernelArg<'a> {
        KernelArg::Host { dtype: T::SCALAR.name() }
    }
}
impl<'a, T: Element> IntoKernelArg<'a> for &'a Vec<T> {
    fn into_kernel_arg(self) -> KernelArg<'a> {
        KernelArg::Host { dtype: T::SCALAR.name() }
    }
}
impl<'a> IntoKernelArg<'a> for KernelArg<'a> {
    fn into_kernel_arg(self) -> KernelArg<'a> {
        self
    }
}

/// A list of kernel arguments: tuples of up to 10 [`IntoKernelArg`] values, or a slice.
pub trait IntoKernelArgs<'a> {
    /// The arguments.
    fn into_kernel_args(self) -> SmallVec<[KernelArg<'a>; 8]>;
}
impl<'a> IntoKernelArgs<'a> for &[KernelArg<'a>] {
    fn into_kernel_args(self) -> SmallVec<[KernelArg<'a>; 8]> {
        self.iter().copied().collect()
    }
}
impl<'a> IntoKernelArgs<'a> for Vec<KernelArg<'a>> {
    fn into_kernel_args(self) -> SmallVec<[KernelArg<'a>; 8]> {
        self.into_iter().collect()
    }
}
macro_rules! tuple_kernel_args {
    ($(($($n:ident),*)),*) => {$(
        impl<'a, $($n: IntoKernelArg<'a>),*> IntoKernelArgs<'a> for ($($n,)*) {
            #[allow(non_snake_case)]
            fn into_kernel_args(self) -> SmallVec<[KernelArg<'a>; 8]> {
                let ($($n,)*) = self;
                smallvec::smallvec![$($n.into_kernel_arg()),*]
            }
        }
    )*};
}
tuple_kernel_args!(
    (A),
    (A, B),
    (A, B, C),
    (A, B, C, D),
    (A, B, C, D, E),
    (A, B, C, D, E, F),
    (A, B, C, D, E, F, G),
    (A, B, C, D, E, F, G, H),
    (A, B, C, D, E, F, G, H, I),
    (A, B, C, D, E, F, G, H, I, J)
);
impl<'a> IntoKernelArgs<'a> for () {
    fn into_kernel_args(self) -> SmallVec<[KernelArg<'a>; 8]> {
        SmallVec::new()
    }
}

impl CallArg for KernelArg<'_> {
    fn arg_type(&self) -> Result<Type, String> {
        match self {
            KernelArg::Host { dtype } => Err(super::host_array_message(dtype)),
            KernelArg::Scalar(ArgValue::Invalid(why)) => Err(why.to_string()),
            a => a.ty().ok_or_else(|| "an invalid argument".to_string()),
        }
    }
}
