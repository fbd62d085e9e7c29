//! The on-disk compilation cache in the facade: cache keys, entry payloads, and the engine's
//! handle on the cache directory.
//!
//! A key covers everything that changes the compiled output: the source of the function and of
//! every function it calls (transitively), the module-level text (imports, constants), the
//! argument types, the target with its details (host: triple and CPU features; CUDA: the PTX
//! architecture, and for a cubin the compute capability and driver version), the compile
//! options, and twinjit's version. Entries are looked up before type inference, so a hit runs
//! neither inference nor a backend: host entries hold machine code with relocations
//! (`twinjit_host::load`), CUDA entries hold PTX (and, in a second entry, the device's cubin).
//! A file with a cached function also gets an outline entry keyed by its whole text
//! ([`load_source`]), so loading it again runs no front end either.
//!
//! Failures never change a result: an unusable cache directory (not private to the user, not
//! writable) gives one warning on stderr and compilation in memory.

use crate::error::Error;
use crate::outline::Outline;
use crate::source::{LoadedSource, LowerOptions, SourceModule};
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};
use twinjit_cache::{Cache, CacheKey, CacheOptions};
use twinjit_ir::{FunctionKind, Signature};

/// When the disk cache is used.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum CacheMode {
    /// Functions whose decorator says `cache=True` (Numba's switch).
    #[default]
    Decorator,
    /// Every function.
    Always,
    /// Never.
    Off,
}

/// The engine's cache directory, opened on first use.
#[derive(Debug, Default)]
pub(crate) struct DiskCache {
    dir: Option<PathBuf>,
    cache: OnceLock<Option<Cache>>,
}

/// Whether `TWINJIT_CACHE_LOG` asks for a line per lookup on stderr.
fn log_enabled() -> bool {
    std::env::var_os("TWINJIT_CACHE_LOG").is_some_and(|v| !v.is_empty() && v != "0")
}

impl DiskCache {
    pub(crate) fn new(dir: Option<PathBuf>) -> Arc<DiskCache> {
        Arc::new(DiskCache { dir, cache: OnceLock::new() })
    }

    /// The directory: the engine option, else `TWINJIT_CACHE_DIR`, else the platform default.
    pub(crate) fn dir(&self) -> Option<PathBuf> {
        self.dir.clone().or_else(Cache::default_dir)
    }

    fn cache(&self) -> Option<&Cache> {
        self.cache
            .get_or_init(|| {
                let dir = self.dir()?;
                match Cache::open(&dir, CacheOptions::default()) {
                    Ok(c) => Some(c),
                    Err(e) => {
                        eprintln!("twinjit: warning: not using the compilation cache: {e}; compiling in memory");
                        None
                    }
                }
            })
            .as_ref()
    }

    /// The entry's verified bytes, or `None` (a miss, or the cache is unusable).
    pub(crate) fn get(&self, key: &CacheKey) -> Option<Vec<u8>> {
        let cache = self.cache()?;
        match cache.get(key) {
            Ok(Some(bytes)) => {
                if log_enabled() {
                    if key.target == OUTLINE_TARGET {
                        eprintln!("twinjit: cache hit: front end of {}", key.function);
                    } else {
                        eprintln!("twinjit: cache hit: {}{} on {}", key.function, key.signature, key.target);
                    }
                }
                Some(bytes)
            }
            Ok(None) => {
                if log_enabled() {
                    if key.target == OUTLINE_TARGET {
                        eprintln!("twinjit: cache miss: front end of {} (running it)", key.function);
                    } else {
                        eprintln!("twinjit: cache {}", cache.explain(key).summary());
                    }
                }
                None
            }
            Err(e) => {
                eprintln!("twinjit: warning: cache entry refused: {e}; compiling in memory");
                None
            }
        }
    }

    /// Stores an entry; a failure is a warning, never an error.
    pub(crate) fn put(&self, key: &CacheKey, bytes: &[u8]) {
        if let Some(cache) = self.cache() {
            if let Err(e) = cache.put(key, bytes) {
                eprintln!("twinjit: warning: cannot write the compilation cache: {e}");
            }
        }
    }
}

/// Whether `func` of `source` is cached under `mode`.
pub(crate) fn wanted(mode: &CacheMode, source: &LoadedSource, func: &str) -> bool {
    match mode {
        CacheMode::Always => true,
        CacheMode::Off => false,
        CacheMode::Decorator => source.outline().function(func).is_some_and(|f| f.attrs.cache),
    }
}

/// What the entries' payloads look like; part of every key, so a new layout never reads an old
/// entry.
const PAYLOAD_VERSION: &str = "4";

fn version_part() -> String {
    ["twinjit ", env!("CARGO_PKG_VERSION"), " payload ", PAYLOAD_VERSION].concat()
}

/// The key of `func` specialised for `sig` on `target` with `options` (each a `name=value`
/// string of everything else that changes the output).
pub(crate) fn key(source: &LoadedSource, func: &str, sig: &Signature, target: &str, options: &[String]) -> CacheKey {
    let outline = source.outline();
    let text = source.text();
    // `void(...)` and `(...)` are the same kernel signature.
    let sig = &match &sig.ret {
        Some(twinjit_ir::Type::None) => Signature { args: sig.args.clone(), ret: None },
        _ => sig.clone(),
    };
    let sig_text = format!("{sig}");
    let mut key = CacheKey::new(func, sig_text.clone(), target);
    // The text of the file outside the compiled functions: imports and module constants.
    key = key.with_part("module-level", outline.module_level(text));
    for name in outline.call_closure(func) {
        if let Some(f) = outline.function(&name) {
            let kind = match f.attrs.kind {
                FunctionKind::Host => "host",
                FunctionKind::Kernel => "kernel",
                FunctionKind::Device => "device",
            };
            let src = text.get(f.source.clone()).unwrap_or("");
            key = key.with_part(format!("source:{name}"), format!("{kind}\n{src}"));
        }
    }
    key = key.with_part("signature", sig_text);
    key = key.with_part("options", options.join(" "));
    key.with_part("version", version_part())
}

/// The target of outline entries (`cache list` shows `FILE on front end`).
const OUTLINE_TARGET: &str = "front end";

/// The key of the outline of `text`: a digest of the whole text, so any edit misses.
fn outline_key(name: &str, text: &str, options: LowerOptions) -> CacheKey {
    let digest = twinjit_cache::content_digest(text.as_bytes());
    CacheKey::new(name, "", OUTLINE_TARGET)
        .with_part("text sha256", digest)
        .with_part("version", version_part())
        .with_part("outline format", crate::outline::FORMAT)
        .with_part("front end", format!("plain_as_njit={}", options.plain_as_njit))
}

/// Whether `text` has `cache` followed by `=` (spaces allowed between): a cheap test that every
/// module with a `cache=True` decorator passes.
fn says_cache(text: &str) -> bool {
    text.match_indices("cache").any(|(i, w)| text[i + w.len()..].trim_start_matches([' ', '\t']).starts_with('='))
}

/// The module `text` for an engine whose cache mode is `mode`: from its cached outline when
/// there is one (no front end), else parsed, storing the outline when a function of it is
/// cached. Front-end errors are reported here either way (an outline is only stored for a text
/// the front end accepted).
pub(crate) fn load_source(
    name: &str,
    text: &str,
    mode: &CacheMode,
    disk: &DiskCache,
    options: LowerOptions,
) -> Result<LoadedSource, Error> {
    let look = match mode {
        CacheMode::Off => false,
        CacheMode::Always => true,
        // Only a module that says `cache=` somewhere can have cached functions; other modules
        // never touch the cache directory.
        CacheMode::Decorator => says_cache(text),
    };
    let key = look.then(|| outline_key(name, text, options));
    if let Some(k) = &key {
        if let Some(outline) = disk.get(k).and_then(|b| Outline::decode(&b, text)) {
            return Ok(LoadedSource::from_outline(name, text, outline, options));
        }
    }
    let source = LoadedSource::parsed(SourceModule::parse_with(name, text, options)?, options);
    if let Some(k) = &key {
        // A module with refused functions keeps no outline: every load then runs the front
        // end and reports them again, as the first load did.
        let refusals = source.parsed_module().is_ok_and(|m| !m.module().refused.is_empty());
        if !refusals && source.outline().functions.iter().any(|f| wanted(mode, &source, &f.name)) {
            disk.put(k, &source.outline().encode());
        }
    }
    Ok(source)
}

/// A raise site as entries store it: the function raising, and where (see
/// [`LoadedSource::relative_span`]).
pub(crate) struct Site {
    pub(crate) function: String,
    pub(crate) at: Option<(String, u32, u32)>,
    /// A `raise`'s exception (`Exception::encode`'s bytes in the payload).
    pub(crate) exception: Option<twinjit_ir::Exception<twinjit_ir::Scalar>>,
}

impl Site {
    /// A backend's raise site, its span relative to its function.
    pub(crate) fn of(site: &twinjit_ir::abi::RaiseSite, source: &LoadedSource) -> Site {
        let site = source.attributed(site);
        Site { function: site.function, at: source.relative_span(site.span), exception: site.exception }
    }

    /// Back to a raise site; one whose place no longer fits has no location (a dummy span).
    pub(crate) fn raise_site(self, source: &LoadedSource) -> twinjit_ir::abi::RaiseSite {
        let span = self.span(source).unwrap_or(twinjit_diag::Span::DUMMY);
        twinjit_ir::abi::RaiseSite { function: self.function, span, exception: self.exception }
    }

    pub(crate) fn encode(&self, w: &mut Writer) {
        w.str(&self.function);
        match &self.at {
            Some((within, start, end)) => w.u64(1).str(within).u64(*start as u64).u64(*end as u64),
            None => w.u64(0),
        };
        w.bytes(&self.exception.as_ref().map(|e| e.encode()).unwrap_or_default());
    }

    pub(crate) fn decode(r: &mut Reader<'_>) -> Option<Site> {
        let function = r.str()?.to_string();
        let at = match r.u64()? {
            0 => None,
            1 => Some((r.str()?.to_string(), u32::try_from(r.u64()?).ok()?, u32::try_from(r.u64()?).ok()?)),
            _ => return None,
        };
        let exception = match r.bytes()? {
            [] => None,
            b => Some(twinjit_ir::Exception::decode(b)?),
        };
        Some(Site { function, at, exception })
    }

    /// The span in `source` (`None` if it had none or no longer fits).
    pub(crate) fn span(&self, source: &LoadedSource) -> Option<twinjit_diag::Span> {
        let (within, start, end) = self.at.as_ref()?;
        source.absolute_span(within, *start, *end)
    }
}

/// A tiny length-prefixed encoding for entry payloads (strings and byte blobs).
#[derive(Default)]
pub(crate) struct Writer(pub(crate) Vec<u8>);

impl Writer {
    pub(crate) fn bytes(&mut self, b: &[u8]) -> &mut Self {
        self.0.extend_from_slice(&(b.len() as u64).to_le_bytes());
        self.0.extend_from_slice(b);
        self
    }
    pub(crate) fn str(&mut self, s: &str) -> &mut Self {
        self.bytes(s.as_bytes())
    }
    pub(crate) fn u64(&mut self, x: u64) -> &mut Self {
        self.0.extend_from_slice(&x.to_le_bytes());
        self
    }
}

/// Reads what [`Writer`] wrote; every read is bounds-checked (`None` on a malformed payload).
pub(crate) struct Reader<'a>(pub(crate) &'a [u8]);

impl<'a> Reader<'a> {
    pub(crate) fn u64(&mut self) -> Option<u64> {
        let (h, t) = self.0.split_at_checked(8)?;
        self.0 = t;
        Some(u64::from_le_bytes(h.try_into().ok()?))
    }
    pub(crate) fn bytes(&mut self) -> Option<&'a [u8]> {
        let n = usize::try_from(self.u64()?).ok()?;
        let (h, t) = self.0.split_at_checked(n)?;
        self.0 = t;
        Some(h)
    }
    pub(crate) fn str(&mut self) -> Option<&'a str> {
        std::str::from_utf8(self.bytes()?).ok()
    }
}

/// Writes a list of types (tag, then fields; tuples recursively).
pub(crate) fn encode_types(w: &mut Writer, types: &[twinjit_ir::Type]) {
    use twinjit_ir::Type;
    fn one(w: &mut Writer, t: &Type) {
        match t {
            // Slices exist only inside a function; never in a signature.
            Type::Unknown | Type::None | Type::Slice(_) => {
                w.u64(0);
            }
            Type::Scalar(s) => {
                w.u64(1).u64(scalar_code(*s));
            }
            Type::Array(a) => {
                w.u64(2).u64(scalar_code(a.dtype)).u64(a.ndim as u64).u64((a.layout == twinjit_ir::Layout::C) as u64);
            }
            Type::Tuple(ts) => {
                w.u64(3).u64(ts.len() as u64);
                ts.iter().for_each(|t| one(w, t));
            }
            Type::List(e) => {
                w.u64(4);
                one(w, e);
            }
            Type::Optional(e) => {
                w.u64(5);
                one(w, e);
            }
            Type::Function(name) => {
                w.u64(6).str(name);
            }
            Type::Str(text) => {
                w.u64(7).str(text);
            }
            Type::Dict(k, v) => {
                w.u64(8);
                one(w, k);
                one(w, v);
            }
            Type::Set(k) => {
                w.u64(9);
                one(w, k);
            }
            Type::String => {
                w.u64(10);
            }
        }
    }
    w.u64(types.len() as u64);
    types.iter().for_each(|t| one(w, t));
}

fn scalar_code(s: twinjit_ir::Scalar) -> u64 {
    use twinjit_ir::Scalar::*;
    match s {
        Bool => 0,
        Int32 => 1,
        Int64 => 2,
        Float32 => 3,
        Float64 => 4,
        Int8 => 5,
        Int16 => 6,
        UInt8 => 7,
        UInt16 => 8,
        UInt32 => 9,
        UInt64 => 10,
        Complex64 => 11,
        Complex128 => 12,
        Float16 => 13,
    }
}

fn scalar_of(c: u64) -> Option<twinjit_ir::Scalar> {
    use twinjit_ir::Scalar::*;
    Some(match c {
        0 => Bool,
        1 => Int32,
        2 => Int64,
        3 => Float32,
        4 => Float64,
        5 => Int8,
        6 => Int16,
        7 => UInt8,
        8 => UInt16,
        9 => UInt32,
        10 => UInt64,
        11 => Complex64,
        12 => Complex128,
        13 => Float16,
        _ => return None,
    })
}

/// Reads what [`encode_types`] wrote (`None` if malformed).
pub(crate) fn decode_types(r: &mut Reader<'_>) -> Option<Vec<twinjit_ir::Type>> {
    use twinjit_ir::{ArrayType, Layout, Type};
    fn one(r: &mut Reader<'_>, depth: usize) -> Option<Type> {
        if depth > 16 {
            return None;
        }
        Some(match r.u64()? {
            0 => Type::None,
            1 => Type::Scalar(scalar_of(r.u64()?)?),
            2 => {
                let dtype = scalar_of(r.u64()?)?;
                let ndim =
                    u8::try_from(r.u64()?).ok().filter(|&n| twinjit_ir::types::check_ndim(n as usize).is_ok())?;
                let layout = if r.u64()? == 1 { Layout::C } else { Layout::A };
                Type::Array(ArrayType { dtype, ndim, layout })
            }
            3 => {
                let n = usize::try_from(r.u64()?).ok().filter(|&n| n <= 64)?;
                Type::Tuple((0..n).map(|_| one(r, depth + 1)).collect::<Option<_>>()?)
            }
            4 => Type::List(Box::new(one(r, depth + 1)?)),
            5 => Type::Optional(Box::new(one(r, depth + 1)?)),
            6 => Type::Function(r.str()?.to_string()),
            7 => Type::Str(r.str()?.to_string()),
            8 => Type::Dict(Box::new(one(r, depth + 1)?), Box::new(one(r, depth + 1)?)),
            9 => Type::Set(Box::new(one(r, depth + 1)?)),
            10 => Type::String,
            _ => return None,
        })
    }
    let n = usize::try_from(r.u64()?).ok().filter(|&n| n <= 256)?;
    (0..n).map(|_| one(r, 0)).collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn only_modules_that_say_cache_equals_look_for_an_outline() {
        for yes in ["@njit(cache=True)", "@cuda.jit(cache = True)", "@jit(nopython=True, cache\t=True)"] {
            assert!(super::says_cache(yes), "{yes}");
        }
        for no in ["# a cache of results", "cache_size = 3", "def f(x):\n    return x\n", "cache"] {
            assert!(!super::says_cache(no), "{no}");
        }
    }
}
