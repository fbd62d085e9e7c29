//! Arrays that compiled code returns: owned values in the memory manager's buffers.
//!
//! A returned array that compiled code allocated moves to Rust as it is (no copy): the
//! [`Array`] holds the reference the function returned, and dropping it frees the buffer when
//! no other `Array` (a clone, or another view of the same buffer returned alongside it) holds
//! one. A returned view of an array the caller lent (`return a[1:]` of an argument) is copied
//! into a new buffer when the call returns, so an `Array` never borrows from an argument and
//! outlives it freely.

use super::args::{Complex32, Complex64, Element};
use twinjit_host::memory::{self, MemInfo};
use twinjit_ir::half::f16;
use twinjit_ir::Scalar;

/// An owned NumPy-style array: dtype, shape, strides in elements, and a buffer shared with the
/// other views of it. Read-only; `Clone` shares the buffer.
pub struct Array {
    owner: *mut MemInfo,
    data: *const u8,
    dtype: Scalar,
    shape: Vec<usize>,
    strides: Vec<isize>,
}

// SAFETY: the buffer is never written through an `Array`, and its reference count is atomic;
// an `Array` is detached from the allocating thread's bookkeeping before it is made.
unsafe impl Send for Array {}
// SAFETY: as above: shared access is read-only.
unsafe impl Sync for Array {}

impl Array {
    /// Takes over one reference of the array compiled code returned (`data, shape, strides,
    /// owner` slots); a lent array (null owner) is copied into a buffer of its own. `None` when
    /// that copy cannot be allocated.
    ///
    /// # Safety
    /// The slots describe a live array of `dtype` whose owner's reference is handed over.
    pub(crate) unsafe fn from_returned(
        dtype: Scalar,
        data: u64,
        shape: &[i64],
        strides: &[i64],
        owner: u64,
    ) -> Option<Array> {
        let shape: Vec<usize> = shape.iter().map(|&d| d.max(0) as usize).collect();
        let strides: Vec<isize> = strides.iter().map(|&s| s as isize).collect();
        if owner != 0 {
            return Some(Array { owner: owner as *mut MemInfo, data: data as *const u8, dtype, shape, strides });
        }
        let n: usize = shape.iter().product();
        let size = dtype.size();
        let mi = memory::new_detached(n, size);
        if mi.is_null() {
            return None;
        }
        let dst = memory::data(mi);
        for (k, off) in c_offsets(&shape, &strides).enumerate() {
            // SAFETY: `off` is inside the lent array (its own shape and strides); `dst` has
            // room for `n` elements.
            unsafe {
                std::ptr::copy_nonoverlapping((data as *const u8).offset(off * size as isize), dst.add(k * size), size)
            };
        }
        let c = c_strides(&shape);
        Some(Array { owner: mi, data: dst, dtype, shape, strides: c })
    }

    /// A new C-contiguous array of `dtype` and `shape` whose bytes `fill` writes (all of them);
    /// `Ok(None)` when the buffer cannot be allocated. (Results that come from a device.)
    #[cfg(feature = "cuda")]
    pub(crate) fn filled<E>(
        dtype: Scalar,
        shape: &[usize],
        fill: impl FnOnce(&mut [u8]) -> Result<(), E>,
    ) -> Result<Option<Array>, E> {
        let n: usize = shape.iter().product();
        let mi = memory::new_detached(n, dtype.size());
        if mi.is_null() {
            return Ok(None);
        }
        let data = memory::data(mi);
        let array = Array { owner: mi, data, dtype, shape: shape.to_vec(), strides: c_strides(shape) };
        // SAFETY: the fresh buffer holds `n` elements of `dtype`; nothing else refers to it.
        // (Should `fill` fail, dropping `array` frees it.)
        fill(unsafe { std::slice::from_raw_parts_mut(data, n * dtype.size()) })?;
        Ok(Some(array))
    }

    /// The element type.
    pub fn dtype(&self) -> Scalar {
        self.dtype
    }

    /// The shape.
    pub fn shape(&self) -> &[usize] {
        &self.shape
    }

    /// The strides, in elements.
    pub fn strides(&self) -> &[isize] {
        &self.strides
    }

    /// The number of dimensions.
    pub fn ndim(&self) -> usize {
        self.shape.len()
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        self.shape.iter().product()
    }

    /// Whether it has no elements.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether the elements are C-contiguous.
    pub fn is_c_contiguous(&self) -> bool {
        self.strides == c_strides(&self.shape) || self.is_empty()
    }

    /// The elements in C order as the interpreter holds them (for `verify`).
    pub(crate) fn as_array_data(&self) -> Option<twinjit_ir::interp::ArrayData> {
        let shape: Vec<i64> = self.shape.iter().map(|&d| d as i64).collect();
        let strides: Vec<i64> = self.strides.iter().map(|&s| s as i64).collect();
        // SAFETY: the array owns (or holds a reference to) its buffer, and every element lies
        // at its shape and strides.
        unsafe { crate::verify::read_array(self.data, self.dtype, &shape, &strides) }
    }

    /// The elements in C (row-major) order, if the dtype is `T`.
    pub fn to_vec<T: Element>(&self) -> Option<Vec<T>> {
        if T::SCALAR != self.dtype {
            return None;
        }
        let p = self.data as *const T;
        // SAFETY: every offset is inside the buffer (the array's own shape and strides), and
        // the dtype is `T`.
        Some(c_offsets(&self.shape, &self.strides).map(|off| unsafe { *p.offset(off) }).collect())
    }

    /// The elements as a slice, if the dtype is `T` and they are C-contiguous.
    pub fn as_slice<T: Element>(&self) -> Option<&[T]> {
        if T::SCALAR != self.dtype || !self.is_c_contiguous() {
            return None;
        }
        if self.is_empty() {
            return Some(&[]);
        }
        // SAFETY: C-contiguous elements of type `T`, alive as long as `self`.
        Some(unsafe { std::slice::from_raw_parts(self.data as *const T, self.len()) })
    }

    /// A borrowed `ndarray` view of the elements (no copy; any strides), if the dtype is `T`.
    #[cfg(feature = "ndarray")]
    pub fn view<T: Element>(&self) -> Option<ndarray::ArrayViewD<'_, T>> {
        use ndarray::ShapeBuilder;
        if T::SCALAR != self.dtype {
            return None;
        }
        if self.is_empty() {
            return ndarray::ArrayViewD::from_shape(self.shape.clone(), &[]).ok();
        }
        // ndarray builds views from non-negative strides: an axis with a negative stride starts
        // at its lowest address and is inverted afterwards.
        let mut base = self.data as *const T;
        let mut strides = Vec::with_capacity(self.strides.len());
        for (&d, &st) in self.shape.iter().zip(&self.strides) {
            if st < 0 {
                // SAFETY: the axis's last element is inside the buffer (the array is not empty).
                base = unsafe { base.offset((d as isize - 1) * st) };
            }
            strides.push(st.unsigned_abs());
        }
        // SAFETY: every element the shape and strides reach from `base` lies in the buffer this
        // array keeps alive for as long as `self` is borrowed, and has type `T`.
        let mut v = unsafe { ndarray::ArrayViewD::from_shape_ptr(self.shape.clone().strides(strides), base) };
        for (k, &st) in self.strides.iter().enumerate() {
            if st < 0 {
                v.invert_axis(ndarray::Axis(k));
            }
        }
        Some(v)
    }

    /// An owned C-ordered `ndarray` copy of the elements, if the dtype is `T`.
    #[cfg(feature = "ndarray")]
    pub fn to_ndarray<T: Element>(&self) -> Option<ndarray::ArrayD<T>> {
        ndarray::ArrayD::from_shape_vec(self.shape.clone(), self.to_vec::<T>()?).ok()
    }

    /// The elements as float64 (every real dtype converts; a complex element gives its real
    /// and imaginary parts, one after the other), in C order: for printing and comparing.
    pub fn to_f64_vec(&self) -> Vec<f64> {
        match self.dtype {
            Scalar::Bool => self.to_vec::<bool>().unwrap_or_default().into_iter().map(|b| b as u8 as f64).collect(),
            Scalar::Int32 => self.to_vec::<i32>().unwrap_or_default().into_iter().map(f64::from).collect(),
            Scalar::Int64 => self.to_vec::<i64>().unwrap_or_default().into_iter().map(|x| x as f64).collect(),
            Scalar::Float32 => self.to_vec::<f32>().unwrap_or_default().into_iter().map(f64::from).collect(),
            Scalar::Float64 => self.to_vec::<f64>().unwrap_or_default(),
            Scalar::Float16 => self.to_vec::<f16>().unwrap_or_default().into_iter().map(f64::from).collect(),
            Scalar::Int8 => self.to_vec::<i8>().unwrap_or_default().into_iter().map(f64::from).collect(),
            Scalar::Int16 => self.to_vec::<i16>().unwrap_or_default().into_iter().map(f64::from).collect(),
            Scalar::UInt8 => self.to_vec::<u8>().unwrap_or_default().into_iter().map(f64::from).collect(),
            Scalar::UInt16 => self.to_vec::<u16>().unwrap_or_default().into_iter().map(f64::from).collect(),
            Scalar::UInt32 => self.to_vec::<u32>().unwrap_or_default().into_iter().map(f64::from).collect(),
            Scalar::UInt64 => self.to_vec::<u64>().unwrap_or_default().into_iter().map(|x| x as f64).collect(),
            Scalar::Complex64 => self
                .to_vec::<Complex32>()
                .unwrap_or_default()
                .into_iter()
                .flat_map(|z| [z.re as f64, z.im as f64])
                .collect(),
            Scalar::Complex128 => {
                self.to_vec::<Complex64>().unwrap_or_default().into_iter().flat_map(|z| [z.re, z.im]).collect()
            }
        }
    }
}

/// Element offsets of every index of `shape` in C order.
fn c_offsets<'a>(shape: &'a [usize], strides: &'a [isize]) -> impl Iterator<Item = isize> + 'a {
    let n: usize = shape.iter().product();
    (0..n).map(move |flat| {
        let mut rem = flat;
        let mut off = 0isize;
        for k in (0..shape.len()).rev() {
            off += (rem % shape[k]) as isize * strides[k];
            rem /= shape[k];
        }
        off
    })
}

fn c_strides(shape: &[usize]) -> Vec<isize> {
    twinjit_ir::abi::c_strides(&shape.iter().map(|&d| d as i64).collect::<Vec<_>>()).map(|s| s as isize).collect()
}

impl Clone for Array {
    fn clone(&self) -> Array {
        // SAFETY: `self` holds a reference, so the owner is live.
        unsafe { memory::incref(self.owner) };
        Array {
            owner: self.owner,
            data: self.data,
            dtype: self.dtype,
            shape: self.shape.clone(),
            strides: self.strides.clone(),
        }
    }
}

impl Drop for Array {
    fn drop(&mut self) {
        // SAFETY: the reference this value holds is given back exactly once.
        unsafe { memory::decref(self.owner) };
    }
}

impl PartialEq for Array {
    fn eq(&self, other: &Array) -> bool {
        self.dtype == other.dtype
            && self.shape == other.shape
            && if self.dtype.is_inexact() {
                self.to_f64_vec() == other.to_f64_vec()
            } else {
                self.element_texts() == other.element_texts()
            }
    }
}

impl Array {
    /// Each element's text in C order, as Python prints it; integers exactly (int64 and
    /// uint64 do not fit a float64).
    fn element_texts(&self) -> Vec<String> {
        fn texts<T: Element + std::fmt::Display>(a: &Array) -> Vec<String> {
            a.to_vec::<T>().unwrap_or_default().iter().map(T::to_string).collect()
        }
        match self.dtype {
            Scalar::Bool => self
                .to_vec::<bool>()
                .unwrap_or_default()
                .iter()
                .map(|&b| if b { "True" } else { "False" }.into())
                .collect(),
            Scalar::Float16 | Scalar::Float32 | Scalar::Float64 => {
                self.to_f64_vec().iter().map(|x| format!("{x:?}")).collect()
            }
            Scalar::Int8 => texts::<i8>(self),
            Scalar::Int16 => texts::<i16>(self),
            Scalar::Int32 => texts::<i32>(self),
            Scalar::Int64 => texts::<i64>(self),
            Scalar::UInt8 => texts::<u8>(self),
            Scalar::UInt16 => texts::<u16>(self),
            Scalar::UInt32 => texts::<u32>(self),
            Scalar::UInt64 => texts::<u64>(self),
            Scalar::Complex64 | Scalar::Complex128 => {
                self.to_f64_vec().chunks(2).map(|p| twinjit_ir::python_complex_repr(p[0], p[1])).collect()
            }
        }
    }
}

impl std::fmt::Debug for Array {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Array({}, {:?}, {self})", self.dtype.name(), self.shape)
    }
}

impl std::fmt::Display for Array {
    /// Nested lists, as `a.tolist()` prints in Python.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let vals = self.element_texts();
        let item = |f: &mut std::fmt::Formatter<'_>, x: &String| f.write_str(x);
        fn go(
            f: &mut std::fmt::Formatter<'_>,
            shape: &[usize],
            vals: &[String],
            item: &dyn Fn(&mut std::fmt::Formatter<'_>, &String) -> std::fmt::Result,
        ) -> std::fmt::Result {
            f.write_str("[")?;
            let inner: usize = shape[1..].iter().product();
            for i in 0..shape[0] {
                if i > 0 {
                    f.write_str(", ")?;
                }
                if shape.len() == 1 {
                    item(f, &vals[i])?;
                } else {
                    go(f, &shape[1..], &vals[i * inner..(i + 1) * inner], item)?;
                }
            }
            f.write_str("]")
        }
        go(f, &self.shape, &vals, &item)
    }
}
