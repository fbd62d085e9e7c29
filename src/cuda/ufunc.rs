//! CUDA ufuncs from Rust: numba-cuda's `f(a, b)` and `f(a, b, out=o, stream=s)` for a
//! `@vectorize([...], target='cuda')` function.
//!
//! The front end made the ufunc a kernel `NAME(inputs..., out)` of one element per thread that
//! calls the device function `NAME.inner` (`twinjit_front::ufunc::split_cuda`); an input of one
//! element broadcasts. Here the arguments become that kernel's: device arrays are passed as 1-D
//! views of their (contiguous) elements, a scalar becomes a one-element device array of its
//! type, and the launch covers `out` with blocks of 256 threads. The result type is the return
//! type of the signature list's loop of exactly the inputs' dtypes (numba-cuda would also take a
//! loop the inputs cast to safely, converting them first; twinjit refuses that), or, for a lazy
//! ufunc, what type inference gives the inner function for the
//! inputs' dtypes; the kernel stores the inner function's value converted to it.

use super::{cuda_error, DeviceArray, DeviceElement, Kernel, KernelArg, LaunchConfig, Stream};
use crate::error::Error;
use crate::ArgValue;
use std::marker::PhantomData;
use twinjit_ir::types::MAX_NDIM;
use twinjit_ir::{Scalar, Signature, Type};

/// A number broadcast as a one-element device array: its bytes (as the kernel-parameter slots
/// hold them, little-endian in the low bytes; a complex number's two parts packed) and dtype.
pub(super) fn one_element(
    device: &super::Device,
    v: &ArgValue<'_>,
) -> Result<Option<(DeviceArray<u8>, Scalar)>, Error> {
    let Some(s) = v.ty().and_then(|t| t.scalar()) else { return Ok(None) };
    let mut slots = vec![0u64; v.slot_count()];
    v.write_slots(&mut slots, 0);
    let part = s.size() / slots.len();
    let bytes: Vec<u8> = slots.iter().flat_map(|x| x.to_le_bytes()[..part].to_vec()).collect();
    let a = DeviceArray::from_slice(device, &bytes, &[bytes.len()]).map_err(|e| cuda_error(e, None))?;
    Ok(Some((a, s)))
}

/// A host array input copied to the device: its bytes there, dtype, dimensions and shape.
type Uploaded = (DeviceArray<u8>, Scalar, u8, [i64; MAX_NDIM as usize]);

/// A device array argument as the 1-D view of its `len` elements.
fn flat<'a>(ptr: u64, dtype: Scalar, len: i64) -> KernelArg<'a> {
    let mut shape = [1i64; MAX_NDIM as usize];
    shape[0] = len;
    KernelArg::Device { ptr, dtype, ndim: 1, shape, _life: PhantomData }
}

fn elements(shape: &[i64; MAX_NDIM as usize], ndim: u8) -> i64 {
    shape[..ndim as usize].iter().product()
}

/// NumPy's broadcast of two shapes (aligned on the right; equal extents, or one of them 1), or
/// `None` where they do not broadcast.
fn broadcast(a: &[i64], b: &[i64]) -> Option<Vec<i64>> {
    let n = a.len().max(b.len());
    let at = |s: &[i64], k: usize| if k + s.len() >= n { s[k + s.len() - n] } else { 1 };
    (0..n)
        .map(|k| match (at(a, k), at(b, k)) {
            (x, y) if x == y || y == 1 => Some(x),
            (1, y) => Some(y),
            _ => None,
        })
        .collect()
}

/// A shape as Python prints a tuple: `(5,)`, `(2, 3)`.
fn py_shape(s: &[i64]) -> String {
    match s {
        [d] => format!("({d},)"),
        _ => format!("({})", s.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(", ")),
    }
}

/// The C-contiguous elements (`item` bytes each) of an array of `shape`, repeated along the
/// axes where `to` (a broadcast of `shape`) is larger, as a C-contiguous array of shape `to`.
fn repeat_to(src: &[u8], item: usize, shape: &[i64], to: &[i64]) -> Vec<u8> {
    let pad = to.len() - shape.len();
    // Element strides of the source along `to`'s axes: 0 where it is repeated.
    let mut strides = vec![0usize; to.len()];
    let mut step = 1usize;
    for k in (0..shape.len()).rev() {
        if shape[k] != 1 {
            strides[pad + k] = step;
        }
        step *= shape[k] as usize;
    }
    let total: usize = to.iter().map(|&d| d as usize).product();
    let mut out = Vec::with_capacity(total * item);
    let mut idx = vec![0usize; to.len()];
    for _ in 0..total {
        let off: usize = idx.iter().zip(&strides).map(|(i, s)| i * s).sum();
        out.extend_from_slice(&src[off * item..(off + 1) * item]);
        for k in (0..to.len()).rev() {
            idx[k] += 1;
            if idx[k] < to[k] as usize {
                break;
            }
            idx[k] = 0;
        }
    }
    out
}

impl Kernel {
    /// Whether this kernel is a CUDA ufunc (`@vectorize(target='cuda')`).
    pub fn is_ufunc(&self) -> bool {
        self.module.source.outline().functions[self.index].cuda_ufunc == Some(crate::outline::CudaUfunc::Vectorize)
    }

    fn ufunc_check(&self, inputs: &[KernelArg<'_>]) -> Result<(), Error> {
        if !self.is_ufunc() {
            return Err(Error::Unsupported(format!(
                "`{}` is not a CUDA ufunc: call_ufunc is for @vectorize(..., target='cuda') functions; launch kernels with launch()",
                self.name()
            )));
        }
        let nin = self.params().len() - 1;
        if inputs.len() != nin {
            return Err(Error::Argument {
                function: self.name().to_string(),
                param: None,
                message: format!("takes {nin} inputs but {} were given", inputs.len()),
            });
        }
        Ok(())
    }

    /// The ufunc's result type for these inputs: the inner function's return type for their
    /// element types.
    pub fn ufunc_result_type(&self, inputs: &[KernelArg<'_>]) -> Result<Scalar, Error> {
        self.ufunc_check(inputs)?;
        let mut args = Vec::new();
        for (k, a) in inputs.iter().enumerate() {
            let t = match a {
                KernelArg::Device { dtype, .. } => Type::Scalar(*dtype),
                KernelArg::Scalar(v) => v.ty().ok_or_else(|| self.bad_input(k, "a scalar of no dtype"))?,
                KernelArg::Host { dtype } => {
                    return Err(self.bad_input(k, &format!("a host slice of {dtype}: copy it to the device first")))
                }
            };
            args.push(t);
        }
        let key = (self.index, args);
        if let Some(&s) = self.module.ufunc_results.lock().unwrap_or_else(|p| p.into_inner()).get(&key) {
            return Ok(s);
        }
        let s = self.infer_ufunc_result(&key.1)?;
        self.module.ufunc_results.lock().unwrap_or_else(|p| p.into_inner()).insert(key, s);
        Ok(s)
    }

    /// [`Kernel::ufunc_result_type`] for input types `args`, without the memo.
    fn infer_ufunc_result(&self, args: &[Type]) -> Result<Scalar, Error> {
        let args = args.to_vec();
        let inner = format!("{}.inner", self.name());
        let parsed = self.module.source.parsed_module()?;
        // A signature list: the loop of the inputs' dtypes gives the output dtype.
        let loops = parsed
            .functions()
            .iter()
            .find(|f| f.name == inner)
            .and_then(|f| f.options.ufunc.as_ref())
            .map(|u| u.loops.clone())
            .unwrap_or_default();
        if !loops.is_empty() {
            let dtypes: Vec<Option<Scalar>> = args.iter().map(Type::scalar).collect();
            // Only a loop of exactly the inputs' dtypes: the kernel computes on the inputs as
            // they are, so a loop that would convert them first (numba-cuda casts safely) is not
            // taken.
            let chosen = loops
                .iter()
                .find(|l| l.args.len() == dtypes.len() && l.args.iter().zip(&dtypes).all(|(t, d)| t.scalar() == *d));
            return match chosen.and_then(|l| l.ret.as_ref()).and_then(Type::scalar) {
                Some(s) => Ok(s),
                None => Err(Error::Argument {
                    function: self.name().to_string(),
                    param: None,
                    message: format!(
                        "no loop of the signature list ({}) takes inputs of exactly {} (twinjit does not convert the inputs of a CUDA ufunc: pass arrays of a loop's dtypes)",
                        loops.iter().map(|l| l.to_string()).collect::<Vec<_>>().join(", "),
                        args.iter().map(|t| t.to_string()).collect::<Vec<_>>().join(", ")
                    ),
                }),
            };
        }
        let program = parsed.specialize(&inner, &Signature { args, ret: None }, Some(false))?;
        program.functions[0].func.ret.scalar().ok_or_else(|| {
            Error::Unsupported(format!("`{}` returns {}, not a number", self.name(), program.functions[0].func.ret))
        })
    }

    fn bad_input(&self, k: usize, what: &str) -> Error {
        Error::Argument {
            function: self.name().to_string(),
            param: self.params().get(k).cloned(),
            message: format!("a ufunc input must be a device array or a number, found {what}"),
        }
    }

    /// numba-cuda's `f(*inputs, out=out, stream=stream)`: one thread per element of `out`
    /// (asynchronous, as a launch: synchronise to see errors). Every array input has as many
    /// elements as `out` (any shape: elements are taken in C order) or one; numbers broadcast.
    pub fn call_ufunc_into<R: DeviceElement>(
        &self,
        inputs: &[KernelArg<'_>],
        out: &mut DeviceArray<R>,
        stream: Option<&Stream>,
    ) -> Result<(), Error> {
        let want = self.ufunc_result_type(inputs)?;
        let got = super::args::scalar_of_element(R::TYPE);
        if want != got {
            return Err(Error::Argument {
                function: self.name().to_string(),
                param: Some("out".into()),
                message: format!("the ufunc gives {} for these inputs, but `out` holds {}", want.name(), got.name()),
            });
        }
        let device = out.device().clone();
        self.ufunc_launch(inputs, out.device_ptr(), got, out.len() as i64, stream, &device)
    }

    /// Launches the ufunc's kernel over `n` output elements of `dtype` at `out`: array inputs
    /// of `n` elements or one, numbers as one-element device arrays.
    fn ufunc_launch(
        &self,
        inputs: &[KernelArg<'_>],
        out: u64,
        dtype: Scalar,
        n: i64,
        stream: Option<&Stream>,
        device: &super::Device,
    ) -> Result<(), Error> {
        let mut held = Vec::new();
        for a in inputs {
            if let KernelArg::Scalar(v) = a {
                held.push(one_element(device, v)?);
            }
        }
        let mut scalars = held.iter();
        let mut args = Vec::with_capacity(inputs.len() + 1);
        for (k, a) in inputs.iter().enumerate() {
            args.push(match a {
                KernelArg::Device { ptr, dtype, ndim, shape, .. } => {
                    let len = elements(shape, *ndim);
                    if len != n && len != 1 {
                        return Err(self.bad_input(
                            k,
                            &format!("an array of {len} elements where `out` has {n} (and no broadcast but from one element)"),
                        ));
                    }
                    flat(*ptr, *dtype, len)
                }
                KernelArg::Scalar(_) => match scalars.next() {
                    Some(Some((one, d))) => flat(one.device_ptr(), *d, 1),
                    _ => return Err(self.bad_input(k, "a value that is not a number")),
                },
                KernelArg::Host { dtype } => {
                    return Err(self.bad_input(k, &format!("a host slice of {dtype}: copy it to the device first")))
                }
            });
        }
        args.push(flat(out, dtype, n));
        self.launch_threads(n, &args, stream, !held.is_empty(), device)
    }

    /// Launches one thread per element of `n` (blocks of 256) with `args`, on `stream` or the
    /// default one; `wait` when arguments made for the call (one-element arrays of numbers)
    /// must outlive the kernel.
    pub(super) fn launch_threads(
        &self,
        n: i64,
        args: &[KernelArg<'_>],
        stream: Option<&Stream>,
        wait: bool,
        device: &super::Device,
    ) -> Result<(), Error> {
        if n == 0 {
            return Ok(());
        }
        let block = 256u32;
        let grid = u32::try_from((n as u64).div_ceil(u64::from(block))).map_err(|_| Error::Argument {
            function: self.name().to_string(),
            param: None,
            message: format!("{n} threads need more than 2^32 blocks"),
        })?;
        let cfg = LaunchConfig::linear(grid, block);
        match stream {
            Some(s) => self.launch_on(s, cfg, args),
            None => self.launch(cfg, args),
        }?;
        if wait {
            match stream {
                Some(s) => s.synchronize().map_err(|e| cuda_error(e, Some(self.name())))?,
                None => device.default_stream().synchronize().map_err(|e| cuda_error(e, Some(self.name())))?,
            }
        }
        Ok(())
    }

    /// numba-cuda's `f(*inputs)` on host arrays: each array input is copied to the device
    /// (C-contiguous arrays of any shape, as [`ArgValue::array`] makes them), the inputs
    /// broadcast together as NumPy's rules say (numbers too), the ufunc runs on the default
    /// stream, and its result comes back as a new host [`crate::Array`] of the ufunc's result
    /// dtype and the broadcast shape (`[1]` when every input is a number). An input that
    /// broadcasts along an axis is repeated on the host before its copy (one-element inputs are
    /// not: the kernel reads their element for every thread). The copies and the launch are
    /// synchronous; errors name the call.
    pub fn call_ufunc_host(&self, inputs: &[ArgValue<'_>]) -> Result<crate::Array, Error> {
        let device = match &self.module.backend {
            crate::engine::Backend::Cuda(b) => b.device.clone(),
            _ => {
                return Err(Error::TargetUnavailable {
                    target: self.module.target.clone(),
                    reason: "CUDA ufuncs run only on a Target::Cuda engine".into(),
                })
            }
        };
        // NumPy's broadcast of the array inputs' shapes.
        let mut bshape: Option<Vec<i64>> = None;
        for (k, v) in inputs.iter().enumerate() {
            if let ArgValue::Array(a) = v {
                if !a.c_contiguous {
                    return Err(self.bad_input(k, "a host array that is not C-contiguous (copy it first)"));
                }
                let shape = &a.shape[..a.ndim as usize];
                bshape = Some(match bshape {
                    None => shape.to_vec(),
                    Some(b) => broadcast(&b, shape).ok_or_else(|| Error::Argument {
                        function: self.name().to_string(),
                        param: self.params().get(k).cloned(),
                        message: format!(
                            "operands could not be broadcast together with shapes {} {}",
                            py_shape(&b),
                            py_shape(shape)
                        ),
                    })?,
                });
            }
        }
        // The inputs on the device (kept alive until the kernel has run), as kernel arguments.
        let mut uploaded: Vec<Option<Uploaded>> = Vec::with_capacity(inputs.len());
        for v in inputs {
            uploaded.push(match (v, &bshape) {
                (ArgValue::Array(a), Some(to)) => {
                    let shape = &a.shape[..a.ndim as usize];
                    let n = elements(&a.shape, a.ndim) as usize;
                    // SAFETY: a C-contiguous array argument holds `n` elements of its dtype at
                    // `data`, alive for the borrow `inputs` holds.
                    let bytes = unsafe { std::slice::from_raw_parts(a.data as *const u8, n * a.dtype.size()) };
                    let repeated;
                    let (bytes, ndim, shape3) = if n == 1 || shape == &to[..] {
                        (bytes, a.ndim, a.shape)
                    } else {
                        repeated = repeat_to(bytes, a.dtype.size(), shape, to);
                        let mut s3 = [0i64; MAX_NDIM as usize];
                        s3[..to.len()].copy_from_slice(to);
                        (&repeated[..], to.len() as u8, s3)
                    };
                    // (An empty input still gets a buffer; no thread reads it.)
                    let bytes = if bytes.is_empty() { &[0u8][..] } else { bytes };
                    let d = DeviceArray::from_slice(&device, bytes, &[bytes.len()])
                        .map_err(|e| cuda_error(e, Some(self.name())))?;
                    Some((d, a.dtype, ndim, shape3))
                }
                _ => None,
            });
        }
        let args: Vec<KernelArg<'_>> = inputs
            .iter()
            .zip(&uploaded)
            .map(|(v, u)| match u {
                Some((d, dtype, ndim, shape)) => KernelArg::Device {
                    ptr: d.device_ptr(),
                    dtype: *dtype,
                    ndim: *ndim,
                    shape: *shape,
                    _life: PhantomData,
                },
                None => KernelArg::Scalar(*v),
            })
            .collect();
        let dtype = self.ufunc_result_type(&args)?;
        let shape: Vec<usize> = bshape.map(|b| b.iter().map(|&d| d as usize).collect()).unwrap_or_else(|| vec![1]);
        let n: usize = shape.iter().product();
        let out_bytes = n * dtype.size();
        let out =
            DeviceArray::<u8>::zeros(&device, &[out_bytes.max(1)]).map_err(|e| cuda_error(e, Some(self.name())))?;
        self.ufunc_launch(&args, out.device_ptr(), dtype, n as i64, None, &device)?;
        device.default_stream().synchronize().map_err(|e| cuda_error(e, Some(self.name())))?;
        let host = crate::Array::filled(dtype, &shape, |bytes| {
            if bytes.is_empty() {
                return Ok(());
            }
            let mut all = vec![0u8; out_bytes.max(1)];
            out.copy_to_host(&mut all).map_err(|e| cuda_error(e, Some(self.name())))?;
            bytes.copy_from_slice(&all[..bytes.len()]);
            Ok(())
        })?;
        host.ok_or_else(|| Error::Runtime {
            kind: twinjit_ir::interp::RuntimeErrorKind::Raised {
                class: "MemoryError".into(),
                message: format!("cannot allocate the {out_bytes}-byte result on the host"),
            },
            function: self.name().to_string(),
            location: None,
            message: format!(
                "MemoryError: cannot allocate the {out_bytes}-byte result of `{}` on the host",
                self.name()
            ),
        })
    }

    /// numba-cuda's `f(*inputs)`: a new device array of the ufunc's result type `R` (checked),
    /// shaped as the first array input (shape `[1]` when every input is a number).
    pub fn call_ufunc<R: DeviceElement>(&self, inputs: &[KernelArg<'_>]) -> Result<DeviceArray<R>, Error> {
        self.ufunc_check(inputs)?;
        let shape: Vec<usize> = inputs
            .iter()
            .find_map(|a| match a {
                KernelArg::Device { ndim, shape, .. } => {
                    Some(shape[..*ndim as usize].iter().map(|&d| d as usize).collect())
                }
                _ => None,
            })
            .unwrap_or_else(|| vec![1]);
        let backend = match &self.module.backend {
            crate::engine::Backend::Cuda(b) => b,
            _ => {
                return Err(Error::TargetUnavailable {
                    target: self.module.target.clone(),
                    reason: "CUDA ufuncs run only on a Target::Cuda engine".into(),
                })
            }
        };
        let mut out = DeviceArray::<R>::zeros(&backend.device, &shape).map_err(|e| cuda_error(e, Some(self.name())))?;
        self.call_ufunc_into(inputs, &mut out, None)?;
        Ok(out)
    }
}
