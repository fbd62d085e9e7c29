//! Host entries of the disk cache: the payload of a [`Specialization`] (argument and return
//! types, written parameters, raise sites relative to their function, then the backend's
//! serialized machine code), and loading one back without inference or Cranelift.

use super::{Function, Specialization};
use crate::disk_cache::{decode_types, encode_types, Reader, Site, Writer};
use crate::source::LoadedSource;

/// The payload of `spec`, or `None` when its code cannot be serialized.
pub(super) fn store(spec: &Specialization, source: &LoadedSource) -> Option<Vec<u8>> {
    let code = spec.compiled.to_bytes()?;
    let mut w = Writer::default();
    encode_types(&mut w, &spec.args);
    encode_types(&mut w, std::slice::from_ref(&spec.ret));
    w.bytes(&spec.written.iter().map(|&b| b as u8).collect::<Vec<u8>>());
    w.u64(spec.compiled.sites.len() as u64);
    for s in &spec.compiled.sites {
        Site::of(s, source).encode(&mut w);
    }
    w.bytes(&code);
    Some(w.0)
}

/// A specialisation of `f` from a cache entry's payload; `None` if the payload does not load
/// here (the caller compiles instead).
pub(super) fn load(f: &Function, bytes: &[u8], started: std::time::Instant) -> Option<Specialization> {
    let m = &f.module;
    let mut r = Reader(bytes);
    let args = decode_types(&mut r)?;
    let ret = decode_types(&mut r)?.pop()?;
    let written: Vec<bool> = r.bytes()?.iter().map(|&b| b != 0).collect();
    let nsites = r.u64()?;
    let mut sites = Vec::new();
    for _ in 0..nsites {
        let site = Site::decode(&mut r)?;
        sites.push(site.raise_site(&m.source));
    }
    let code = r.bytes()?;
    if args.len() != f.params().len() || written.len() != args.len() {
        return None;
    }
    let compiled = match twinjit_host::load(code) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("twinjit: warning: cache entry for `{}` does not load ({e}); compiling", f.name());
            return None;
        }
    };
    let mut spec = Specialization::new(
        f.name().to_string(),
        f.params().to_vec(),
        args,
        ret,
        written,
        sites,
        compiled,
        started.elapsed(),
        m.source.sources().clone(),
    );
    spec.threads = m.options.num_threads;
    Some(spec)
}
