//! Subcommand bodies: each returns its stdout text, or the message for stderr.

use std::fmt::Write;
use twinjit::ir::{parse_signature, Signature, Type};
use twinjit::SourceModule;

fn load(file: &str) -> Result<SourceModule, String> {
    load_with(file, false)
}

fn load_with(file: &str, compile_plain: bool) -> Result<SourceModule, String> {
    let bytes = std::fs::read(file).map_err(|e| format!("error: cannot read `{file}`: {e}"))?;
    let text = String::from_utf8(bytes).map_err(|e| {
        format!(
            "error: `{file}` is not valid UTF-8 (byte {}): Python source must be UTF-8",
            e.utf8_error().valid_up_to()
        )
    })?;
    SourceModule::parse_with(file, &text, twinjit::LowerOptions { plain_as_njit: compile_plain })
        .map_err(|e| e.to_string())
}

fn parse_sig(text: &str) -> Result<Signature, String> {
    parse_signature(text).map_err(|e| format!("error: {e}"))
}

fn describe(sig_args: &[Type], ret: &Type) -> String {
    let args: Vec<String> = sig_args.iter().map(Type::numba_name).collect();
    format!("({}) -> {}", args.join(", "), ret.numba_name())
}

/// `twinjit check FILE [--sig FUNC=SIG]...`
pub fn check(file: &str, sigs: &[String], compile_plain: bool) -> Result<String, String> {
    let m = load_with(file, compile_plain)?;
    let mut requested: Vec<(String, Signature)> = Vec::new();
    for s in sigs {
        let (f, sig) = s.split_once('=').ok_or_else(|| format!("error: --sig expects FUNC=SIG, got `{s}`"))?;
        if m.module().function(f.trim()).is_none() {
            return Err(format!("error: --sig names `{}`, which is not a compiled function of `{file}`", f.trim()));
        }
        requested.push((f.trim().to_string(), parse_sig(sig.trim())?));
    }
    let mut out = String::new();
    let mut errors = String::new();
    for r in &m.module().refused {
        if r.is_error() {
            let _ = writeln!(errors, "{}", twinjit::diag::render_all(&r.diagnostics, m.sources()));
        } else if r.generator {
            let _ = writeln!(out, "{} (a generator: compiled inlined into the loops that iterate it)", r.name);
        } else if !r.needs_constants.is_empty() {
            // Compiled as a copy wherever a call passes constants for these parameters.
            let _ = writeln!(out, "{} (compiled when called with constant {})", r.name, r.needs_constants.join(", "));
        } else {
            // Used only with compile-time arguments, compiled as its copies (listed below).
            let _ = writeln!(out, "{} (compiled only as {})", r.name, r.specialised_as.join(", "));
        }
    }
    for f in m.functions() {
        let _ = writeln!(out, "{} ({})", f.name, f.attrs.kind.describe());
        let sigs = f
            .attrs
            .signatures
            .iter()
            .cloned()
            .chain(requested.iter().filter(|(n, _)| *n == f.name).map(|(_, s)| s.clone()));
        for sig in sigs {
            match m.specialize(&f.name, &sig, None) {
                Ok(p) => {
                    let e = p.entry();
                    let _ = writeln!(out, "    {}", describe(&e.args, &e.func.ret));
                }
                Err(e) => {
                    let _ = writeln!(errors, "{e}");
                }
            }
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        // The functions that did load are still listed (stdout); the errors go to stderr.
        use std::io::Write;
        let _ = std::io::stdout().write_all(out.as_bytes());
        Err(errors)
    }
}

/// `twinjit ir FILE FUNC --sig SIG`
pub fn ir(file: &str, func: &str, sig: Option<&str>, untyped: bool, spans: bool) -> Result<String, String> {
    let m = load(file)?;
    let Some(f) = m.module().function(func) else {
        let names: Vec<&str> = m.functions().iter().map(|f| f.name.as_str()).collect();
        return Err(format!("error: no compiled function `{func}` in `{file}` (functions: {})", names.join(", ")));
    };
    let show = |f: &twinjit::ir::Function| if spans { format!("{f:#}") } else { format!("{f}") };
    if untyped {
        return Ok(show(&f.body));
    }
    let sig = match (sig, f.attrs.signatures.first()) {
        (Some(s), _) => parse_sig(s)?,
        (None, Some(s)) => s.clone(),
        (None, None) => {
            return Err(format!(
                "error: `{func}` has no signature in its decorator; pass one with --sig, e.g. --sig \"(float64[:], int64)\""
            ))
        }
    };
    let p = m.specialize(func, &sig, None).map_err(|e| e.to_string())?;
    let mut out = String::new();
    for tf in &p.functions {
        out.push_str(&show(&tf.func));
        out.push('\n');
    }
    Ok(out)
}

/// `twinjit clif|asm FILE FUNC --sig SIG`
pub fn listing(file: &str, func: &str, sig: Option<&str>, asm: bool) -> Result<String, String> {
    let engine = twinjit::Engine::new(twinjit::Target::Host).map_err(|e| format!("error: {e}"))?;
    let module = engine.load_file(file).map_err(|e| e.to_string())?;
    let f = module.source().map_err(|e| e.to_string())?.module().function(func).ok_or_else(|| {
        format!("error: no compiled function `{func}` in `{file}` (functions: {})", module.function_names().join(", "))
    })?;
    let sig = match (sig, f.attrs.signatures.first()) {
        (Some(s), _) => parse_sig(s)?,
        (None, Some(s)) => s.clone(),
        (None, None) => return Err(format!("error: `{func}` has no signature in its decorator; pass one with --sig")),
    };
    let (clif, code) = twinjit::Specialization::listings(&module, func, &sig).map_err(|e| e.to_string())?;
    let mut out = String::new();
    for (name, text) in if asm { code } else { clif } {
        let _ = writeln!(out, "; {name}\n{text}");
    }
    Ok(out)
}

/// `twinjit ptx` / `twinjit llvm`.
pub fn ptx(file: &str, func: &str, sig: &str, arch: &str, facts: &str, llvm: bool) -> Result<String, String> {
    let target = twinjit::Target::Ptx { arch: arch.to_string() };
    let engine = twinjit::Engine::new(target).map_err(|e| format!("error: {e}"))?;
    let module = engine.load_file(file).map_err(|e| e.to_string())?;
    emit_ptx(&module, func, sig, facts, llvm)
}

#[cfg(feature = "cuda")]
fn emit_ptx(module: &twinjit::Module, func: &str, sig: &str, facts: &str, llvm: bool) -> Result<String, String> {
    let text = |e: twinjit::Error| match e {
        twinjit::Error::Compile(c) => c.rendered,
        other => format!("error: {other}"),
    };
    let facts = twinjit::cuda::LaunchFacts::parse(facts)
        .ok_or_else(|| format!("error: --facts takes general, noalias, index32 or all, not `{facts}`"))?;
    if llvm {
        module.llvm_ir_for_launch(func, sig, facts).map_err(text)
    } else {
        module.ptx_for_launch(func, sig, facts).map(|p| p.ptx).map_err(text)
    }
}

#[cfg(not(feature = "cuda"))]
fn emit_ptx(_module: &twinjit::Module, _func: &str, _sig: &str, _facts: &str, _llvm: bool) -> Result<String, String> {
    Err("error: internal: a PTX engine exists in a build without CUDA".into())
}

/// `twinjit detect`: every CUDA device with its properties, like `numba.cuda.detect()`.
#[cfg(feature = "cuda")]
pub fn detect() -> Result<String, String> {
    use std::fmt::Write;
    use twinjit::cuda;
    if let Err(reason) = cuda::driver_available() {
        return Err(format!("no CUDA driver found: {reason}"));
    }
    let n = cuda::device_count().map_err(|e| format!("error: {e}"))?;
    let mut out = String::new();
    let (maj, min) = cuda::driver_version().unwrap_or((0, 0));
    let _ = writeln!(out, "CUDA driver {maj}.{min}; found {n} CUDA device{}", if n == 1 { "" } else { "s" });
    for i in 0..n {
        match cuda::Device::open(i) {
            Ok(d) => {
                let p = d.properties();
                let _ = writeln!(out, "id {i}: {} [{}]", p.name, p.pci_bus_id);
                let _ = writeln!(
                    out,
                    "    compute capability: {}.{} (PTX target {})",
                    p.compute_capability.0,
                    p.compute_capability.1,
                    p.arch()
                );
                let _ = writeln!(
                    out,
                    "    memory: {:.1} GiB, {} multiprocessors, L2 {} KiB",
                    p.total_memory as f64 / (1u64 << 30) as f64,
                    p.multiprocessors,
                    p.l2_cache_bytes / 1024
                );
                let _ = writeln!(
                    out,
                    "    max threads per block: {}, block dims {:?}, grid dims {:?}",
                    p.max_threads_per_block, p.max_block_dim, p.max_grid_dim
                );
                let _ = writeln!(
                    out,
                    "    shared memory per block: {} KiB ({} KiB opt-in), warp size {}",
                    p.max_shared_memory_per_block / 1024,
                    p.max_shared_memory_per_block_optin / 1024,
                    p.warp_size
                );
            }
            Err(e) => {
                let _ = writeln!(out, "id {i}: unusable: {e}");
            }
        }
    }
    Ok(out)
}

/// `twinjit detect` in a build without CUDA.
#[cfg(not(feature = "cuda"))]
pub fn detect() -> Result<String, String> {
    Err("no CUDA driver found: this build of twinjit has no CUDA support (rebuild with `--features cuda`)".into())
}

fn open_cache() -> Result<twinjit::cache::Cache, String> {
    let dir = twinjit::cache::default_dir().ok_or("error: no cache directory (set TWINJIT_CACHE_DIR or HOME)")?;
    twinjit::cache::Cache::open(&dir, Default::default()).map_err(|e| format!("error: {e}"))
}

/// `twinjit cache dir`.
pub fn cache_dir() -> Result<String, String> {
    let dir = twinjit::cache::default_dir().ok_or("error: no cache directory (set TWINJIT_CACHE_DIR or HOME)")?;
    Ok(format!("{}\n", dir.display()))
}

/// `twinjit cache list`.
pub fn cache_list() -> Result<String, String> {
    use std::fmt::Write;
    let cache = open_cache()?;
    let mut out = String::new();
    for e in cache.entries() {
        let age = e.last_use.elapsed().map(|d| d.as_secs()).unwrap_or(0);
        let _ = writeln!(out, "{}{}  [{}]  {} bytes  last used {age} s ago", e.function, e.signature, e.target, e.size);
    }
    Ok(out)
}

/// `twinjit cache stats`.
pub fn cache_stats() -> Result<String, String> {
    let s = open_cache()?.stats();
    Ok(format!("{}: {} entries, {} bytes\n", s.dir.display(), s.entries, s.bytes))
}

/// `twinjit cache clear`.
pub fn cache_clear() -> Result<String, String> {
    let n = open_cache()?.clear().map_err(|e| format!("error: {e}"))?;
    Ok(format!("removed {n} entries\n"))
}

/// `twinjit cache explain FILE FUNC --sig SIG [--target T]`.
pub fn cache_explain(file: &str, func: &str, sig: &str, target: &str) -> Result<String, String> {
    let target: twinjit::Target = target.parse()?;
    let options = twinjit::EngineOptions { cache: twinjit::CacheMode::Off, ..Default::default() };
    let engine = twinjit::Engine::with_options(target, options).map_err(|e| format!("error: {e}"))?;
    let module = engine.load_file(file).map_err(|e| e.to_string())?;
    let e = module.cache_explain(func, sig).map_err(|e| format!("error: {e}"))?;
    Ok(format!("{e}\n"))
}
