//! CUDA entries of the disk cache: PTX (with what launching it needs and its raise sites,
//! relative to their function) under the PTX key, and the device's cubin under the PTX key plus
//! the compute capability and driver version.

use super::{cuda_error, ptx_error, CudaBackend, KernelOrigin, PtxModule, PtxOptions};
use crate::disk_cache::{wanted, Reader, Site, Writer};
use crate::error::Error;
use twinjit_ir::Signature;

/// The cache key of a PTX compilation.
pub(crate) fn ptx_cache_key(
    m: &crate::engine::ModuleInner,
    name: &str,
    sig: &Signature,
    options: &PtxOptions,
) -> twinjit_cache::CacheKey {
    let mut opts = crate::options::option_key(&m.options, m.source.outline().function(name).map(|f| &f.attrs));
    opts.extend([
        format!("entry={:?}", options.entry),
        format!("contract={}", options.contract),
        format!("ptx_fastmath={}", options.fastmath),
        format!("max_recursion={}", options.max_recursion),
        format!("launch_facts={}", options.facts.name()),
    ]);
    crate::disk_cache::key(&m.source, name, sig, &format!("cuda {} (LLVM 19 NVPTX)", options.arch), &opts)
}

/// The PTX of `name` for `sig`, from the disk cache when it has it (no inference, no LLVM),
/// else compiled (and stored when the function is cached).
pub(crate) fn ptx_for(
    m: &crate::engine::ModuleInner,
    name: &str,
    sig: &Signature,
    options: &PtxOptions,
) -> Result<PtxModule, Error> {
    ptx_with_origin(m, name, sig, options).map(|(p, _)| p)
}

/// [`ptx_for`], saying whether the PTX came from the cache.
fn ptx_with_origin(
    m: &crate::engine::ModuleInner,
    name: &str,
    sig: &Signature,
    options: &PtxOptions,
) -> Result<(PtxModule, KernelOrigin), Error> {
    let cache_key = wanted(&m.options.cache, &m.source, name).then(|| ptx_cache_key(m, name, sig, options));
    if let Some(k) = &cache_key {
        if let Some(p) = m.disk.get(k).and_then(|bytes| decode_ptx(m, &mut Reader(&bytes))) {
            return Ok((p, KernelOrigin::CachedPtx));
        }
    }
    let program = m.source.parsed_module()?.specialize(name, sig, m.options.boundscheck)?;
    let ptx = twinjit_ptx::compile(&program, options).map_err(|e| ptx_error(e, m.source.sources(), name))?;
    if let Some(k) = &cache_key {
        m.disk.put(k, &encode_ptx(m, &ptx).0);
    }
    Ok((ptx, KernelOrigin::Compiled))
}

/// The payload of a PTX entry: the PTX and what launching it needs; raise sites relative to
/// their function.
fn encode_ptx(m: &crate::engine::ModuleInner, ptx: &PtxModule) -> Writer {
    let mut w = Writer::default();
    w.str(&ptx.ptx).str(&ptx.entry).str(&ptx.arch).u64(ptx.stack_bytes.unwrap_or(0) as u64);
    w.u64(ptx.used_libdevice as u64).u64(ptx.sites.len() as u64);
    for site in &ptx.sites {
        Site::of(site, &m.source).encode(&mut w);
    }
    w
}

fn decode_ptx(m: &crate::engine::ModuleInner, r: &mut Reader<'_>) -> Option<PtxModule> {
    let ptx = r.str()?.to_string();
    let entry = r.str()?.to_string();
    let arch = r.str()?.to_string();
    let stack = r.u64()?;
    let used_libdevice = r.u64()? == 1;
    let n = r.u64()?;
    let mut sites = Vec::new();
    for _ in 0..n {
        sites.push(Site::decode(r)?.raise_site(&m.source));
    }
    let stack_bytes = (stack != 0).then_some(stack as usize);
    Some(PtxModule { ptx, entry, arch, sites, used_libdevice, stack_bytes })
}

/// The cache key of a kernel's cubin for `backend`'s device: the PTX key, plus the compute
/// capability and the CUDA version the driver reports (`cuDriverGetVersion`, e.g. 13.0). That
/// is the driver's API version, not its release: two releases of one CUDA version share
/// cubins, which is safe (a cubin runs on every driver for its architecture) but means a JIT
/// fix in a driver update reaches cached kernels only after `twinjit cache clear`.
fn cubin_cache_key(
    m: &crate::engine::ModuleInner,
    backend: &CudaBackend,
    name: &str,
    sig: &Signature,
    options: &PtxOptions,
) -> twinjit_cache::CacheKey {
    let mut key = ptx_cache_key(m, name, sig, options);
    let (major, minor) = backend.device.properties().compute_capability;
    let driver = twinjit_cuda::driver_version().map(|(a, b)| format!("{a}.{b}")).unwrap_or_else(|_| "?".into());
    key.target = format!("{} cubin for compute {major}.{minor}, driver {driver}", key.target);
    key
}

/// The PTX of a kernel, its module loaded on `backend`'s device, and where the code came from.
/// For a cached function the module comes from a stored cubin when there is one for this
/// device and driver (neither LLVM nor the driver's PTX JIT runs); otherwise the PTX (from the
/// PTX entry or compiled) goes through the driver's JIT linker and the cubin is stored for the
/// next process. If the linker path fails, the PTX is loaded as for an uncached function: the
/// cache never changes whether a kernel runs.
pub(crate) fn loaded_for(
    m: &crate::engine::ModuleInner,
    backend: &CudaBackend,
    name: &str,
    sig: &Signature,
    options: &PtxOptions,
) -> Result<(PtxModule, twinjit_cuda::CudaModule, KernelOrigin), Error> {
    let device = &backend.device;
    let key = wanted(&m.options.cache, &m.source, name).then(|| cubin_cache_key(m, backend, name, sig, options));
    if let Some(k) = &key {
        if let Some(bytes) = m.disk.get(k) {
            let mut r = Reader(&bytes);
            if let Some((ptx, cubin)) = decode_ptx(m, &mut r).and_then(|p| Some((p, r.bytes()?))) {
                // SAFETY: the cubin is the payload of a verified cache entry (its checksum
                // matched), which `ptx_to_cubin` produced.
                match unsafe { device.load_cubin(cubin) } {
                    Ok(module) => return Ok((ptx, module, KernelOrigin::CachedCubin)),
                    Err(e) => {
                        eprintln!("twinjit: warning: cached cubin for `{name}` does not load ({e}); using its PTX")
                    }
                }
            }
        }
    }
    let (ptx, origin) = ptx_with_origin(m, name, sig, options)?;
    if let Some(k) = &key {
        // SAFETY: the bytes come straight from the driver's linker.
        let linked = device.ptx_to_cubin(&ptx.ptx).and_then(|c| unsafe { device.load_cubin(&c) }.map(|m| (c, m)));
        match linked {
            Ok((cubin, module)) => {
                let mut w = encode_ptx(m, &ptx);
                w.bytes(&cubin);
                m.disk.put(k, &w.0);
                return Ok((ptx, module, origin));
            }
            Err(e) => eprintln!("twinjit: warning: cannot make a cubin of `{name}` to cache ({e}); loading its PTX"),
        }
    }
    let module = device.load_ptx(&ptx.ptx).map_err(|e| cuda_error(e, Some(name)))?;
    Ok((ptx, module, origin))
}
