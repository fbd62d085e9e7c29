//! CUDA gufuncs from Rust: numba-cuda's `f(a, b, out)` and `f(a, b, out, stream=s)` for a
//! `@guvectorize([...], layout, target='cuda')` function.
//!
//! The front end made the gufunc a kernel `NAME(inputs..., outputs...)` of one loop index per
//! thread that calls the device function `NAME.inner` on the core of each argument
//! (`twinjit_front::ufunc::split_cuda`): every argument arrives with one leading loop axis, of
//! the loop's length or of length 1 (broadcast). Here the arguments become that kernel's: the
//! loop dimensions of each device array (its leading dimensions before the layout's core ones)
//! are flattened into that axis, which C-contiguous device arrays allow with no copy; a number
//! becomes a one-element device array. Core dimensions of one name must agree across the
//! arguments, and every output must have the whole loop shape, as numba-cuda requires.

use super::ufunc::one_element;
use super::{Kernel, KernelArg, Stream};
use crate::error::Error;
use std::collections::HashMap;
use std::marker::PhantomData;
use twinjit_ir::types::MAX_NDIM;
use twinjit_ir::GufuncLayout;

impl Kernel {
    /// The layout of this kernel if it is a CUDA gufunc (`@guvectorize(target='cuda')`).
    pub fn gufunc_layout(&self) -> Option<GufuncLayout> {
        self.layout().cloned()
    }

    fn layout(&self) -> Option<&GufuncLayout> {
        match &self.module.source.outline().functions[self.index].cuda_ufunc {
            Some(crate::outline::CudaUfunc::Gufunc(layout)) => Some(layout),
            _ => None,
        }
    }

    fn gufunc_error(&self, param: Option<usize>, message: String) -> Error {
        Error::Argument {
            function: self.name().to_string(),
            param: param.and_then(|k| self.params().get(k).cloned()),
            message,
        }
    }

    /// numba-cuda's `f(*inputs, *outputs, stream=stream)` of a CUDA gufunc: one thread per
    /// element of the loop (asynchronous, as a launch: synchronise to see errors). `args` are
    /// the inputs, then the outputs, as device arrays (an input may be a number); each has the
    /// layout's core dimensions last. The loop dimensions before them must be the outputs' loop
    /// shape, or have one element (broadcast).
    pub fn call_gufunc(&self, args: &[KernelArg<'_>], stream: Option<&Stream>) -> Result<(), Error> {
        let Some(layout) = self.layout() else {
            return Err(Error::Unsupported(format!(
                "`{}` is not a CUDA gufunc: call_gufunc is for @guvectorize(..., target='cuda') functions",
                self.name()
            )));
        };
        let cores: Vec<&Vec<String>> = layout.inputs.iter().chain(&layout.outputs).collect();
        if args.len() != cores.len() {
            return Err(self.gufunc_error(
                None,
                format!(
                    "takes {} inputs and {} outputs ({} arguments) but {} were given",
                    layout.inputs.len(),
                    layout.outputs.len(),
                    cores.len(),
                    args.len()
                ),
            ));
        }
        let device = match &self.module.backend {
            crate::engine::Backend::Cuda(b) => b.device.clone(),
            _ => {
                return Err(Error::TargetUnavailable {
                    target: self.module.target.clone(),
                    reason: "CUDA gufuncs run only on a Target::Cuda engine".into(),
                })
            }
        };
        // Each argument: (pointer, dtype, loop shape, core shape); numbers as one-element arrays.
        let mut held = Vec::new();
        let mut parts = Vec::with_capacity(args.len());
        let mut sizes: HashMap<&str, i64> = HashMap::new();
        for (k, (a, core)) in args.iter().zip(&cores).enumerate() {
            let (ptr, dtype, shape) = match a {
                KernelArg::Device { ptr, dtype, ndim, shape, .. } => (*ptr, *dtype, shape[..*ndim as usize].to_vec()),
                KernelArg::Scalar(v) if k < layout.inputs.len() => match one_element(&device, v)? {
                    Some((one, dtype)) => {
                        let ptr = one.device_ptr();
                        held.push(one);
                        (ptr, dtype, Vec::new())
                    }
                    None => {
                        return Err(
                            self.gufunc_error(Some(k), "a gufunc input must be a device array or a number".into())
                        )
                    }
                },
                KernelArg::Scalar(_) => {
                    return Err(self.gufunc_error(Some(k), "a gufunc output must be a device array".into()))
                }
                KernelArg::Host { dtype } => {
                    return Err(self.gufunc_error(
                        Some(k),
                        format!("a host slice of {dtype}: copy it to the device first (engine.to_device)"),
                    ))
                }
            };
            if shape.len() < core.len() {
                return Err(self.gufunc_error(
                    Some(k),
                    format!(
                        "has {} dimensions, fewer than the {} core dimensions ({})",
                        shape.len(),
                        core.len(),
                        core.join(",")
                    ),
                ));
            }
            let split = shape.len() - core.len();
            for (name, &d) in core.iter().zip(&shape[split..]) {
                match sizes.get(name.as_str()) {
                    Some(&s) if s != d => {
                        return Err(self.gufunc_error(
                            Some(k),
                            format!("core dimension `{name}` is {d} here but {s} in an earlier argument"),
                        ))
                    }
                    _ => {
                        sizes.insert(name, d);
                    }
                }
            }
            if core.len() > 2 {
                return Err(self.gufunc_error(Some(k), "more than 2 core dimensions are not supported".into()));
            }
            parts.push((ptr, dtype, shape[..split].to_vec(), shape[split..].to_vec()));
        }
        let outs = &parts[layout.inputs.len()..];
        let loop_shape = outs.first().map(|p| p.2.clone()).unwrap_or_default();
        if let Some(k) = outs.iter().position(|p| p.2 != loop_shape) {
            return Err(self.gufunc_error(
                Some(layout.inputs.len() + k),
                format!("outputs must share the loop shape {loop_shape:?}, found {:?}", outs[k].2),
            ));
        }
        let n: i64 = loop_shape.iter().product();
        let mut kargs = Vec::with_capacity(parts.len());
        for (k, (ptr, dtype, lp, core)) in parts.iter().enumerate() {
            let len: i64 = lp.iter().product();
            if *lp != loop_shape && len != 1 {
                return Err(self.gufunc_error(
                    Some(k),
                    format!(
                        "loop dimensions {lp:?} do not match the outputs' {loop_shape:?} (twinjit broadcasts an argument only whole, from one element)"
                    ),
                ));
            }
            let mut shape = [1i64; MAX_NDIM as usize];
            shape[0] = len;
            shape[1..=core.len()].copy_from_slice(core);
            kargs.push(KernelArg::Device {
                ptr: *ptr,
                dtype: *dtype,
                ndim: core.len() as u8 + 1,
                shape,
                _life: PhantomData,
            });
        }
        self.launch_threads(n, &kargs, stream, !held.is_empty(), &device)
    }
}
