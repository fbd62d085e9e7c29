//! `twinjit run/bench --target cuda`: copies `.npy` inputs to the device, launches the kernel
//! with `--launch GRID,BLOCK`, synchronizes, copies arrays back. Without the `cuda` feature the
//! engine refuses the target (`TargetUnavailable`), and so does this command.

#[cfg(not(feature = "cuda"))]
use crate::run::RunArgs;
#[cfg(not(feature = "cuda"))]
use std::path::PathBuf;

#[cfg(not(feature = "cuda"))]
pub fn run(a: &RunArgs, _out: Option<PathBuf>) -> Result<String, String> {
    unavailable(a)
}

#[cfg(not(feature = "cuda"))]
pub fn bench(a: &RunArgs, _warmup: usize, _reps: usize) -> Result<String, String> {
    unavailable(a)
}

/// `twinjit verify --target cuda` in a build without CUDA: nothing to compare against.
#[cfg(not(feature = "cuda"))]
pub fn verify(a: &RunArgs, _rtol: Option<f64>) -> Result<crate::verify::Verdict, String> {
    match unavailable(a) {
        Err(e) => Ok((crate::verify::no_gpu(&e), 2)),
        Ok(_) => Err("error: internal: a CUDA engine exists in a build without CUDA".into()),
    }
}

#[cfg(not(feature = "cuda"))]
fn unavailable(a: &RunArgs) -> Result<String, String> {
    let target: twinjit::Target = a.target.parse()?;
    match a.engine(target) {
        Err(e) => Err(e),
        Ok(_) => Err("error: internal: a CUDA engine exists in a build without CUDA".into()),
    }
}

/// `GRID,BLOCK` where each is `N` or `(X,Y[,Z])`.
#[cfg_attr(not(feature = "cuda"), allow(dead_code))]
pub fn parse_launch(s: &str) -> Result<([u32; 3], [u32; 3]), String> {
    let bad =
        || format!("error: --launch `{s}`: expected GRID,BLOCK with each N or (X,Y[,Z]), e.g. \"(64,64),(16,16)\"");
    let mut parts: Vec<String> = Vec::new();
    let mut depth = 0;
    let mut cur = String::new();
    for c in s.chars().filter(|c| !c.is_whitespace()) {
        match c {
            '(' => {
                depth += 1;
                cur.push(c)
            }
            ')' => {
                depth -= 1;
                cur.push(c)
            }
            ',' if depth == 0 => parts.push(std::mem::take(&mut cur)),
            _ => cur.push(c),
        }
    }
    parts.push(cur);
    if parts.len() != 2 || depth != 0 {
        return Err(bad());
    }
    let dims = |p: &str| -> Result<[u32; 3], String> {
        let inner = p.strip_prefix('(').and_then(|x| x.strip_suffix(')')).unwrap_or(p);
        let nums: Vec<&str> = inner.split(',').filter(|x| !x.is_empty()).collect();
        if nums.is_empty() || nums.len() > 3 {
            return Err(bad());
        }
        let mut d = [1u32; 3];
        for (k, n) in nums.iter().enumerate() {
            d[k] = n.parse().map_err(|_| bad())?;
        }
        Ok(d)
    };
    Ok((dims(&parts[0])?, dims(&parts[1])?))
}

#[cfg(feature = "cuda")]
pub use with_cuda::{bench, run, verify};

#[cfg(feature = "cuda")]
mod with_cuda {
    use super::parse_launch;
    use crate::npy::NpyData;
    use crate::run::{bind, err_text, ms, write_outputs, Bound, RunArgs};
    use std::path::PathBuf;
    use std::time::Instant;
    use twinjit::cuda::{DeviceArray, KernelArg, LaunchConfig};
    use twinjit::{ArgValue, Engine, Target};

    enum DevBuf {
        Bool(DeviceArray<bool>),
        I32(DeviceArray<i32>),
        I64(DeviceArray<i64>),
        F32(DeviceArray<f32>),
        F64(DeviceArray<f64>),
        I8(DeviceArray<i8>),
        I16(DeviceArray<i16>),
        U8(DeviceArray<u8>),
        U16(DeviceArray<u16>),
        U32(DeviceArray<u32>),
        U64(DeviceArray<u64>),
        C64(DeviceArray<twinjit::Complex32>),
        C128(DeviceArray<twinjit::Complex64>),
        F16(DeviceArray<twinjit::f16>),
    }

    /// `$body` on the host vector and device array of one dtype (`$h`, `$d`), for a pair of
    /// the same variant; `$else` otherwise.
    macro_rules! each_pair {
        ($host:expr, $dev:expr, |$h:ident, $d:ident| $body:expr, $else:expr) => {
            match ($host, $dev) {
                (NpyData::Bool($h), DevBuf::Bool($d)) => $body,
                (NpyData::I32($h), DevBuf::I32($d)) => $body,
                (NpyData::I64($h), DevBuf::I64($d)) => $body,
                (NpyData::F32($h), DevBuf::F32($d)) => $body,
                (NpyData::F64($h), DevBuf::F64($d)) => $body,
                (NpyData::I8($h), DevBuf::I8($d)) => $body,
                (NpyData::I16($h), DevBuf::I16($d)) => $body,
                (NpyData::U8($h), DevBuf::U8($d)) => $body,
                (NpyData::U16($h), DevBuf::U16($d)) => $body,
                (NpyData::U32($h), DevBuf::U32($d)) => $body,
                (NpyData::U64($h), DevBuf::U64($d)) => $body,
                (NpyData::C64($h), DevBuf::C64($d)) => $body,
                (NpyData::C128($h), DevBuf::C128($d)) => $body,
                (NpyData::F16($h), DevBuf::F16($d)) => $body,
                _ => $else,
            }
        };
    }

    struct Prepared {
        engine: Engine,
        kernel: twinjit::Kernel,
        params: Vec<String>,
        bound: Vec<Bound>,
        dev: Vec<Option<DevBuf>>,
        cfg: LaunchConfig,
        /// Time `Engine::load_file` took (front end, or the cached outline).
        load: std::time::Duration,
    }

    fn prepare(a: &RunArgs) -> Result<Prepared, String> {
        let target: Target = a.target.parse()?;
        let engine = a.engine(target)?;
        let launch = a.launch.as_deref().ok_or("error: --target cuda needs --launch GRID,BLOCK")?;
        let (grid, block) = parse_launch(launch)?;
        let t = Instant::now();
        let module = engine.load_file(&a.file).map_err(|e| e.to_string())?;
        let load = t.elapsed();
        crate::run::warn_refused(&module, &a.func);
        let kernel = module.kernel(&a.func).map_err(|e| format!("error: {e}"))?;
        let params = kernel.params().to_vec();
        // Device arrays are C-ordered: a Fortran-ordered file is reordered on the way in.
        let bound: Vec<Bound> = bind(a, &params)?
            .into_iter()
            .map(|b| match b {
                Bound::Array(arr) => Bound::Array(arr.into_c_order()),
                other => other,
            })
            .collect();
        let dev_err = |e: twinjit::Error| format!("error: {e}");
        let mut dev = Vec::new();
        for b in &bound {
            dev.push(match b {
                Bound::Scalar(_) | Bound::Tuple(_) => None,
                Bound::Array(arr) => Some(match &arr.data {
                    NpyData::Bool(v) => DevBuf::Bool(engine.to_device_shaped(v, &arr.shape).map_err(dev_err)?),
                    NpyData::I32(v) => DevBuf::I32(engine.to_device_shaped(v, &arr.shape).map_err(dev_err)?),
                    NpyData::I64(v) => DevBuf::I64(engine.to_device_shaped(v, &arr.shape).map_err(dev_err)?),
                    NpyData::F32(v) => DevBuf::F32(engine.to_device_shaped(v, &arr.shape).map_err(dev_err)?),
                    NpyData::F64(v) => DevBuf::F64(engine.to_device_shaped(v, &arr.shape).map_err(dev_err)?),
                    NpyData::I8(v) => DevBuf::I8(engine.to_device_shaped(v, &arr.shape).map_err(dev_err)?),
                    NpyData::I16(v) => DevBuf::I16(engine.to_device_shaped(v, &arr.shape).map_err(dev_err)?),
                    NpyData::U8(v) => DevBuf::U8(engine.to_device_shaped(v, &arr.shape).map_err(dev_err)?),
                    NpyData::U16(v) => DevBuf::U16(engine.to_device_shaped(v, &arr.shape).map_err(dev_err)?),
                    NpyData::U32(v) => DevBuf::U32(engine.to_device_shaped(v, &arr.shape).map_err(dev_err)?),
                    NpyData::U64(v) => DevBuf::U64(engine.to_device_shaped(v, &arr.shape).map_err(dev_err)?),
                    NpyData::C64(v) => DevBuf::C64(engine.to_device_shaped(v, &arr.shape).map_err(dev_err)?),
                    NpyData::C128(v) => DevBuf::C128(engine.to_device_shaped(v, &arr.shape).map_err(dev_err)?),
                    NpyData::F16(v) => DevBuf::F16(engine.to_device_shaped(v, &arr.shape).map_err(dev_err)?),
                }),
            });
        }
        Ok(Prepared {
            engine,
            kernel,
            params,
            bound,
            dev,
            cfg: LaunchConfig::new(grid, block).with_shared_mem_bytes(a.shared_mem),
            load,
        })
    }

    impl Prepared {
        fn args(&self) -> Vec<KernelArg<'_>> {
            self.bound
                .iter()
                .zip(&self.dev)
                .map(|(b, d)| match (b, d) {
                    (_, Some(DevBuf::Bool(x))) => x.into_kernel_arg(),
                    (_, Some(DevBuf::I32(x))) => x.into_kernel_arg(),
                    (_, Some(DevBuf::I64(x))) => x.into_kernel_arg(),
                    (_, Some(DevBuf::F32(x))) => x.into_kernel_arg(),
                    (_, Some(DevBuf::F64(x))) => x.into_kernel_arg(),
                    (_, Some(DevBuf::I8(x))) => x.into_kernel_arg(),
                    (_, Some(DevBuf::I16(x))) => x.into_kernel_arg(),
                    (_, Some(DevBuf::U8(x))) => x.into_kernel_arg(),
                    (_, Some(DevBuf::U16(x))) => x.into_kernel_arg(),
                    (_, Some(DevBuf::U32(x))) => x.into_kernel_arg(),
                    (_, Some(DevBuf::U64(x))) => x.into_kernel_arg(),
                    (_, Some(DevBuf::C64(x))) => x.into_kernel_arg(),
                    (_, Some(DevBuf::C128(x))) => x.into_kernel_arg(),
                    (_, Some(DevBuf::F16(x))) => x.into_kernel_arg(),
                    (Bound::Scalar(s), None) => KernelArg::Scalar(*s),
                    (Bound::Tuple(items), None) => KernelArg::Scalar(ArgValue::Tuple(items)),
                    (Bound::Array(_), None) => KernelArg::Scalar(ArgValue::Invalid("array not on the device")),
                })
                .collect()
        }

        fn copy_back(&mut self) -> Result<(), String> {
            let e = |e: twinjit::cuda::CudaError| format!("error: copying results back: {e}");
            for (b, d) in self.bound.iter_mut().zip(&self.dev) {
                if let (Bound::Array(arr), Some(d)) = (b, d) {
                    each_pair!(
                        &mut arr.data,
                        d,
                        |v, x| x.copy_to_host(v).map_err(e)?,
                        return Err("error: internal: host and device arrays disagree".into())
                    )
                }
            }
            Ok(())
        }
    }

    impl Prepared {
        /// One synchronous round trip of every array argument, as `to_device` and
        /// `copy_to_host` move them (pageable host memory): (bytes, ms in, ms out).
        fn copy_round(&mut self) -> Result<(u64, f64, f64), String> {
            let e = |e: twinjit::cuda::CudaError| format!("error: timing copies: {e}");
            let (mut bytes, mut t_in, mut t_out) = (0u64, 0.0f64, 0.0f64);
            for (b, d) in self.bound.iter_mut().zip(self.dev.iter_mut()) {
                if let (Bound::Array(arr), Some(d)) = (b, d) {
                    each_pair!(
                        &mut arr.data,
                        d,
                        |v, x| {
                            bytes += (x.len() * x.itemsize()) as u64;
                            let t = Instant::now();
                            x.copy_from_host(v).map_err(e)?;
                            t_in += t.elapsed().as_secs_f64() * 1e3;
                            let t = Instant::now();
                            x.copy_to_host(v).map_err(e)?;
                            t_out += t.elapsed().as_secs_f64() * 1e3;
                        },
                        return Err("error: internal: host and device arrays disagree".into())
                    )
                }
            }
            Ok((bytes, t_in, t_out))
        }
    }

    use twinjit::cuda::IntoKernelArg;

    fn median(sorted: &[f64]) -> f64 {
        let n = sorted.len();
        if n % 2 == 1 {
            sorted[n / 2]
        } else {
            (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0
        }
    }

    /// `twinjit verify --target cuda`: the kernel on the GPU, then the reference interpreter's
    /// grid runner over the same launch on the same inputs; every array argument compared.
    pub fn verify(a: &RunArgs, rtol: Option<f64>) -> Result<crate::verify::Verdict, String> {
        let target: Target = a.target.parse()?;
        if let Err(e) = a.engine(target) {
            return Ok((crate::verify::no_gpu(&e), 2));
        }
        let p = prepare(a)?;
        let r = p.kernel.verify(p.cfg, p.args(), rtol).map_err(err_text)?;
        Ok(crate::verify::verdict(&r))
    }

    /// `twinjit run --target cuda`: compile (source → PTX → loaded module), one launch,
    /// synchronize, copy back.
    pub fn run(a: &RunArgs, out: Option<PathBuf>) -> Result<String, String> {
        let mut p = prepare(a)?;
        let t0 = Instant::now();
        p.kernel.specialize(p.args()).map_err(err_text)?;
        let compile = t0.elapsed();
        let t1 = Instant::now();
        p.kernel.launch(p.cfg, p.args()).map_err(err_text)?;
        p.engine.synchronize().map_err(err_text)?;
        let run = t1.elapsed();
        p.copy_back()?;
        if let Some(dir) = out {
            write_outputs(&dir, &p.params, &p.bound)?;
        }
        Ok(format!(
            "{{\"return\": null, \"compile_ms\": {}, \"run_ms\": {}, \"load_ms\": {}}}\n",
            ms(compile),
            ms(run),
            ms(p.load)
        ))
    }

    /// `twinjit bench --target cuda`: kernel time from CUDA events around each launch (median
    /// after warm-up), `launch_us`, the median host time of one asynchronous launch, and the
    /// array arguments' copies: `copy_bytes` each way, `copy_in_ms`/`copy_out_ms` (the median
    /// synchronous round trip from and to the pageable `.npy` data) and their GB/s.
    pub fn bench(a: &RunArgs, warmup: usize, reps: usize) -> Result<String, String> {
        let mut p = prepare(a)?;
        let t0 = Instant::now();
        let k = p.kernel.specialize(p.args()).map_err(err_text)?;
        let compile = t0.elapsed();
        let device = p.engine.device().ok_or("error: internal: no device")?;
        let stream = device.default_stream();
        let args = p.args();
        let cuda = |e: twinjit::cuda::CudaError| format!("error: {e}");
        for _ in 0..warmup {
            k.launch_on(&stream, &p.cfg, &args).map_err(err_text)?;
        }
        p.engine.synchronize().map_err(err_text)?;
        let mut kernel_ms = Vec::with_capacity(reps);
        let mut host_us = Vec::with_capacity(reps);
        for _ in 0..reps {
            let e0 = stream.record_event().map_err(cuda)?;
            let h = Instant::now();
            k.launch_on(&stream, &p.cfg, &args).map_err(err_text)?;
            host_us.push(h.elapsed().as_secs_f64() * 1e6);
            let e1 = stream.record_event().map_err(cuda)?;
            e1.synchronize().map_err(cuda)?;
            kernel_ms.push(e0.elapsed_ms(&e1).map_err(cuda)? as f64);
        }
        p.engine.synchronize().map_err(err_text)?;
        kernel_ms.sort_by(f64::total_cmp);
        host_us.sort_by(f64::total_cmp);
        drop(args);
        // The arrays' round trips (after the kernel's, so the launches above saw the inputs):
        // the median of up to 5, and the bandwidth of that median.
        let (mut bytes, mut ins, mut outs) = (0u64, Vec::new(), Vec::new());
        for _ in 0..reps.clamp(1, 5) {
            let (b, i, o) = p.copy_round()?;
            bytes = b;
            ins.push(i);
            outs.push(o);
        }
        ins.sort_by(f64::total_cmp);
        outs.sort_by(f64::total_cmp);
        let gbs = |ms: f64| if ms > 0.0 { bytes as f64 / (ms * 1e6) } else { 0.0 };
        let (copy_in, copy_out) = (median(&ins), median(&outs));
        Ok(format!(
            "{{\"compile_ms\": {}, \"median_ms\": {:.6}, \"min_ms\": {:.6}, \"max_ms\": {:.6}, \"reps\": {reps}, \"launch_us\": {:.3}, \"copy_bytes\": {bytes}, \"copy_in_ms\": {copy_in:.6}, \"copy_out_ms\": {copy_out:.6}, \"copy_in_gbs\": {:.3}, \"copy_out_gbs\": {:.3}}}\n",
            ms(compile),
            median(&kernel_ms),
            kernel_ms[0],
            kernel_ms[reps - 1],
            median(&host_us),
            gbs(copy_in),
            gbs(copy_out)
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::parse_launch;

    #[test]
    fn launch_shapes_parse() {
        assert_eq!(parse_launch("256,128"), Ok(([256, 1, 1], [128, 1, 1])));
        assert_eq!(parse_launch("(64,64),(16,16)"), Ok(([64, 64, 1], [16, 16, 1])));
        assert_eq!(parse_launch("(2, 3, 4), 32"), Ok(([2, 3, 4], [32, 1, 1])));
        for bad in ["", "1", "1,2,3", "(1,2,3,4),1", "(1,2,1", "a,b", "-1,4"] {
            assert!(parse_launch(bad).is_err(), "{bad} parsed");
        }
    }
}
