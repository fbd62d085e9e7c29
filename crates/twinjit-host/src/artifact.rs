//! The serialized form of a [`CompiledProgram`](crate::CompiledProgram): machine code plus
//! what is needed to link it again in another process, without the front end, type inference
//! or Cranelift's compiler.
//!
//! This file only encodes, decodes and validates; capturing the code happens in `compile`, and
//! linking it into a fresh JIT module in `load`. It knows nothing of the facade's cache (keys,
//! checksums, where files live): the facade stores its own data next to these bytes.
//!
//! # Format (version 2, little-endian, no padding)
//!
//! ```text
//! magic      8 bytes   "TWJHOST\0"
//! version    u32       FORMAT_VERSION
//! isa        str       producer, target triple and CPU features, settings (`describe::artifact_description`)
//! arg_slots  u32
//! ret_slots  u32
//! entry      str       name of the entry trampoline
//! n_funcs    u32
//! n_sites    u32
//! n_funcs ×  name str, linkage u8 (0 import, 1 local), call_conv str,
//!            n_params u32, type u8 × n_params, n_returns u32, type u8 × n_returns,
//!            local only: align u32, code_len u32, code byte × code_len,
//!                        n_relocs u32, n_relocs × reloc
//! reloc      offset u32, kind u8, addend i64, target: tag u8 and
//!            0: str (a function of this artifact) | 1: u32 (offset in this function's code)
//!            | 2: str (a Cranelift libcall, by its `Display` name)
//! n_sites ×  function str, file u32, start u32, end u32, exception: u32 byte length (0: a
//!            builtin check's site), then `Exception::encode`'s bytes
//! str        u32 byte length, then UTF-8 bytes
//! ```
//!
//! # Invariants (checked by [`Artifact::decode`]; any violation is [`LoadError::Corrupt`])
//! - Magic, version and `isa` equal this build's and host's (else [`LoadError::Incompatible`];
//!   the call conventions are compared with the host's in `load`).
//! - Nothing follows the last site; every length fits in what remains.
//! - Function names are unique and non-empty. Imports have no code and name a symbol of
//!   `runtime::is_known_import`; local functions have 1+ code bytes and an alignment that is
//!   a power of two up to [`MAX_ALIGN`].
//! - Every relocation patches bytes inside its function's code (`offset + width <= code_len`),
//!   has a kind this backend emits, an addend within `i32`, and a target that exists: a
//!   declared function, an offset within the same code, or one of [`LIBCALLS`]. PC-relative
//!   relocations target local code only (imports may be more than 2 GiB away).
//! - The entry is a local function with the trampoline's signature `(i64, i64, i64) -> i32`.
//!
//! What cannot be checked here: that the code bytes are the ones compiled (the cache's
//! checksum covers them), and that raise sites match the site indices the code stores.

use crate::LoadError;
use cranelift_codegen::binemit::Reloc;
use cranelift_codegen::ir::{types, LibCall};
use cranelift_codegen::isa::CallConv;
use cranelift_module::Linkage;
use hashbrown::HashMap;
use twinjit_diag::{FileId, Span};
use twinjit_ir::abi::RaiseSite;

const MAGIC: &[u8; 8] = b"TWJHOST\0";
/// Bump on any change to the layout above or to the calling convention in `abi`.
const FORMAT_VERSION: u32 = 2;
/// Largest code alignment accepted (Cranelift asks for at most a cache line).
pub(crate) const MAX_ALIGN: u32 = 4096;
/// Libcalls Cranelift may emit for our code (float rounding without SSE4.1, memory ops).
pub(crate) const LIBCALLS: &[LibCall] = &[
    LibCall::CeilF32,
    LibCall::CeilF64,
    LibCall::FloorF32,
    LibCall::FloorF64,
    LibCall::TruncF32,
    LibCall::TruncF64,
    LibCall::NearestF32,
    LibCall::NearestF64,
    LibCall::FmaF32,
    LibCall::FmaF64,
    LibCall::Memcpy,
    LibCall::Memset,
    LibCall::Memmove,
    LibCall::Memcmp,
];

/// A whole compiled program, ready to encode or to link.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Artifact {
    pub isa: String,
    pub arg_slots: u32,
    pub ret_slots: u32,
    pub entry: String,
    pub functions: Vec<ArtifactFunction>,
    pub sites: Vec<RaiseSite>,
}

/// One declared function: an import (no body) or a local function with its code.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct ArtifactFunction {
    pub name: String,
    pub linkage: Linkage,
    pub call_conv: CallConv,
    pub params: Vec<types::Type>,
    pub returns: Vec<types::Type>,
    pub body: Option<Body>,
}

/// Machine code of a local function, before relocation.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Body {
    pub align: u32,
    pub code: Vec<u8>,
    pub relocs: Vec<ArtifactReloc>,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct ArtifactReloc {
    pub offset: u32,
    pub kind: Reloc,
    pub addend: i64,
    pub target: RelocTarget,
}

/// What a relocation points at, by name rather than by a module's ids.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum RelocTarget {
    Function(String),
    OwnOffset(u32),
    LibCall(LibCall),
}

/// Relocation kinds this backend emits (x86-64 and aarch64, non-PIC), with their width.
fn reloc_code(kind: Reloc) -> Option<(u8, u32)> {
    Some(match kind {
        Reloc::Abs8 => (1, 8),
        Reloc::X86PCRel4 => (2, 4),
        Reloc::X86CallPCRel4 => (3, 4),
        Reloc::Arm64Call => (4, 4),
        _ => return None,
    })
}

fn reloc_kind(code: u8) -> Option<(Reloc, u32)> {
    [Reloc::Abs8, Reloc::X86PCRel4, Reloc::X86CallPCRel4, Reloc::Arm64Call]
        .into_iter()
        .find_map(|k| reloc_code(k).filter(|(c, _)| *c == code).map(|(_, w)| (k, w)))
}

const TYPES: [types::Type; 5] = [types::I8, types::I32, types::I64, types::F32, types::F64];

/// Whether `ty` can be stored (the types of `abi::parts`).
pub(crate) fn storable_type(ty: types::Type) -> bool {
    TYPES.contains(&ty)
}

fn type_code(ty: types::Type) -> u8 {
    TYPES.iter().position(|t| *t == ty).map_or(u8::MAX, |i| i as u8)
}

fn corrupt(what: impl Into<String>) -> LoadError {
    LoadError::Corrupt(what.into())
}

impl Artifact {
    /// The encoded bytes. Callers build artifacts only from storable parts (see
    /// `storable_type`, `LIBCALLS`, `reloc_code`).
    pub fn encode(&self) -> Vec<u8> {
        let code_len: usize = self.functions.iter().filter_map(|f| f.body.as_ref()).map(|b| b.code.len()).sum();
        let mut w = Writer(Vec::with_capacity(code_len + 64 * self.functions.len() + 256));
        w.0.extend_from_slice(MAGIC);
        w.u32(FORMAT_VERSION);
        w.str(&self.isa);
        w.u32(self.arg_slots);
        w.u32(self.ret_slots);
        w.str(&self.entry);
        w.len(self.functions.len());
        w.len(self.sites.len());
        for f in &self.functions {
            w.str(&f.name);
            w.u8(if f.linkage == Linkage::Import { 0 } else { 1 });
            w.str(&f.call_conv.to_string());
            for list in [&f.params, &f.returns] {
                w.len(list.len());
                list.iter().for_each(|t| w.u8(type_code(*t)));
            }
            if let Some(b) = &f.body {
                w.u32(b.align);
                w.len(b.code.len());
                w.0.extend_from_slice(&b.code);
                w.len(b.relocs.len());
                for r in &b.relocs {
                    w.u32(r.offset);
                    w.u8(reloc_code(r.kind).map_or(0, |(c, _)| c));
                    w.0.extend_from_slice(&r.addend.to_le_bytes());
                    match &r.target {
                        RelocTarget::Function(name) => {
                            w.u8(0);
                            w.str(name);
                        }
                        RelocTarget::OwnOffset(off) => {
                            w.u8(1);
                            w.u32(*off);
                        }
                        RelocTarget::LibCall(lc) => {
                            w.u8(2);
                            w.str(&lc.to_string());
                        }
                    }
                }
            }
        }
        for s in &self.sites {
            w.str(&s.function);
            w.u32(s.span.file.0);
            w.u32(s.span.start);
            w.u32(s.span.end);
            let e = s.exception.as_ref().map(|e| e.encode()).unwrap_or_default();
            w.len(e.len());
            w.0.extend_from_slice(&e);
        }
        w.0
    }

    /// Parses and validates `bytes` (see the module doc); `isa` is this host's
    /// `describe::artifact_description`, compared before anything past the header is read.
    pub fn decode(bytes: &[u8], isa: &str) -> Result<Artifact, LoadError> {
        let mut r = Reader { bytes, pos: 0 };
        if r.take(MAGIC.len())? != MAGIC {
            return Err(corrupt("not a twinjit host artifact (bad magic)"));
        }
        let version = r.u32()?;
        if version != FORMAT_VERSION {
            return Err(LoadError::Incompatible(format!(
                "artifact format version {version}, this build reads {FORMAT_VERSION}"
            )));
        }
        let found = r.str()?;
        if found != isa {
            return Err(LoadError::Incompatible(format!("artifact made for `{found}`, this host is `{isa}`")));
        }
        let arg_slots = r.u32()?;
        let ret_slots = r.u32()?;
        let entry = r.str()?;
        let n_funcs = r.u32()?;
        let n_sites = r.u32()?;
        // Counts are untrusted: grow as items actually parse, never reserve from a count.
        let mut functions: Vec<ArtifactFunction> = Vec::new();
        for _ in 0..n_funcs {
            functions.push(r.function()?);
        }
        let mut sites = Vec::new();
        for _ in 0..n_sites {
            let function = r.str()?;
            let (file, start, end) = (r.u32()?, r.u32()?, r.u32()?);
            if start > end {
                return Err(corrupt("raise site span ends before it starts"));
            }
            let n = r.u32()? as usize;
            let exception = match n {
                0 => None,
                n => {
                    Some(twinjit_ir::Exception::decode(r.take(n)?).ok_or_else(|| corrupt("a raise site's exception"))?)
                }
            };
            sites.push(RaiseSite { function, span: Span { file: FileId(file), start, end }, exception });
        }
        if r.pos != bytes.len() {
            return Err(corrupt(format!("{} trailing bytes", bytes.len() - r.pos)));
        }
        check_links(&functions, &entry)?;
        Ok(Artifact { isa: found, arg_slots, ret_slots, entry, functions, sites })
    }
}

/// Names are unique, relocations name declared functions, the entry is the trampoline.
fn check_links(functions: &[ArtifactFunction], entry: &str) -> Result<(), LoadError> {
    let mut is_local: HashMap<&str, bool> = HashMap::with_capacity(functions.len());
    for f in functions {
        if is_local.insert(&f.name, f.body.is_some()).is_some() {
            return Err(corrupt(format!("function `{}` declared twice", f.name)));
        }
    }
    for f in functions {
        for rel in f.body.iter().flat_map(|b| &b.relocs) {
            let pc_relative = rel.kind != Reloc::Abs8;
            match &rel.target {
                RelocTarget::Function(name) => match is_local.get(name.as_str()) {
                    None => return Err(corrupt(format!("`{}` refers to undeclared `{name}`", f.name))),
                    // Only JIT memory is near enough for a 32-bit displacement.
                    Some(false) if pc_relative => {
                        return Err(corrupt(format!("`{}` refers PC-relatively to import `{name}`", f.name)))
                    }
                    Some(_) => {}
                },
                RelocTarget::LibCall(_) if pc_relative => {
                    return Err(corrupt(format!("`{}` refers PC-relatively to a libcall", f.name)))
                }
                _ => {}
            }
        }
    }
    let e = functions.iter().find(|f| f.name == entry).ok_or_else(|| corrupt("the entry is not declared"))?;
    if e.body.is_none() || e.params != [types::I64; 3] || e.returns != [types::I32] {
        return Err(corrupt("the entry is not a local function with the trampoline signature"));
    }
    Ok(())
}

struct Writer(Vec<u8>);

impl Writer {
    fn u8(&mut self, x: u8) {
        self.0.push(x);
    }
    fn u32(&mut self, x: u32) {
        self.0.extend_from_slice(&x.to_le_bytes());
    }
    /// Lengths fit in u32: code and tables of one program are far below 4 GiB.
    fn len(&mut self, n: usize) {
        self.u32(u32::try_from(n).expect("artifact section below 4 GiB"));
    }
    fn str(&mut self, s: &str) {
        self.len(s.len());
        self.0.extend_from_slice(s.as_bytes());
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], LoadError> {
        let end = self.pos.checked_add(n).filter(|e| *e <= self.bytes.len()).ok_or_else(|| corrupt("truncated"))?;
        let s = &self.bytes[self.pos..end];
        self.pos = end;
        Ok(s)
    }
    fn u8(&mut self) -> Result<u8, LoadError> {
        Ok(self.take(1)?[0])
    }
    fn u32(&mut self) -> Result<u32, LoadError> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into().expect("4 bytes")))
    }
    fn i64(&mut self) -> Result<i64, LoadError> {
        Ok(i64::from_le_bytes(self.take(8)?.try_into().expect("8 bytes")))
    }
    fn str(&mut self) -> Result<String, LoadError> {
        let n = self.u32()? as usize;
        let b = self.take(n)?;
        String::from_utf8(b.to_vec()).map_err(|_| corrupt("a name is not UTF-8"))
    }
    fn types(&mut self) -> Result<Vec<types::Type>, LoadError> {
        let n = self.u32()? as usize;
        let codes = self.take(n)?;
        codes.iter().map(|c| TYPES.get(*c as usize).copied().ok_or_else(|| corrupt("unknown value type"))).collect()
    }

    fn function(&mut self) -> Result<ArtifactFunction, LoadError> {
        let name = self.str()?;
        if name.is_empty() {
            return Err(corrupt("a function has no name"));
        }
        let linkage = match self.u8()? {
            0 => Linkage::Import,
            1 => Linkage::Local,
            _ => return Err(corrupt(format!("`{name}` has an unknown linkage"))),
        };
        let call_conv: CallConv =
            self.str()?.parse().map_err(|_| corrupt(format!("`{name}` has an unknown calling convention")))?;
        let params = self.types()?;
        let returns = self.types()?;
        let body = if linkage == Linkage::Import {
            if !crate::runtime::is_known_import(&name) {
                return Err(corrupt(format!("import of unknown symbol `{name}`")));
            }
            None
        } else {
            Some(self.body(&name)?)
        };
        Ok(ArtifactFunction { name, linkage, call_conv, params, returns, body })
    }

    fn body(&mut self, name: &str) -> Result<Body, LoadError> {
        let align = self.u32()?;
        if !align.is_power_of_two() || align > MAX_ALIGN {
            return Err(corrupt(format!("`{name}` has alignment {align}")));
        }
        let code_len = self.u32()?;
        if code_len == 0 {
            return Err(corrupt(format!("`{name}` has no code")));
        }
        let code = self.take(code_len as usize)?.to_vec();
        let n = self.u32()?;
        let mut relocs = Vec::new();
        for _ in 0..n {
            let offset = self.u32()?;
            let (kind, width) = reloc_kind(self.u8()?).ok_or_else(|| corrupt("unknown relocation kind"))?;
            if offset.checked_add(width).is_none_or(|end| end > code_len) {
                return Err(corrupt(format!("relocation at {offset} outside the {code_len} bytes of `{name}`")));
            }
            let addend = self.i64()?;
            if i32::try_from(addend).is_err() {
                return Err(corrupt("relocation addend out of range"));
            }
            let target = match self.u8()? {
                0 => RelocTarget::Function(self.str()?),
                1 => {
                    let off = self.u32()?;
                    if off > code_len {
                        return Err(corrupt("relocation target outside its function"));
                    }
                    RelocTarget::OwnOffset(off)
                }
                2 => {
                    let lc: LibCall = self.str()?.parse().map_err(|_| corrupt("unknown libcall"))?;
                    if !LIBCALLS.contains(&lc) {
                        return Err(corrupt(format!("libcall {lc} is not one this backend uses")));
                    }
                    RelocTarget::LibCall(lc)
                }
                _ => return Err(corrupt("unknown relocation target")),
            };
            relocs.push(ArtifactReloc { offset, kind, addend, target });
        }
        Ok(Body { align, code, relocs })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ISA: &str = "test isa";

    fn func(name: &str, params: &[types::Type], returns: &[types::Type], body: Option<Body>) -> ArtifactFunction {
        ArtifactFunction {
            name: name.into(),
            linkage: if body.is_some() { Linkage::Local } else { Linkage::Import },
            call_conv: CallConv::SystemV,
            params: params.to_vec(),
            returns: returns.to_vec(),
            body,
        }
    }

    fn reloc(offset: u32, kind: Reloc, target: RelocTarget) -> ArtifactReloc {
        ArtifactReloc { offset, kind, addend: if kind == Reloc::Abs8 { 0 } else { -4 }, target }
    }

    /// An artifact with every kind of entry: an import, a libcall, calls both ways, a site.
    fn sample() -> Artifact {
        let tramp = [types::I64; 3];
        let f_body = Body {
            align: 16,
            code: vec![0x90; 32],
            relocs: vec![
                reloc(2, Reloc::Abs8, RelocTarget::Function("twinjit_libm_exp".into())),
                reloc(12, Reloc::X86CallPCRel4, RelocTarget::Function("twinjit_entry".into())),
                reloc(16, Reloc::Abs8, RelocTarget::LibCall(LibCall::FloorF64)),
                reloc(28, Reloc::X86PCRel4, RelocTarget::OwnOffset(32)),
            ],
        };
        let entry_body = Body {
            align: 1,
            code: vec![0xc3; 8],
            relocs: vec![reloc(1, Reloc::X86CallPCRel4, RelocTarget::Function("f".into()))],
        };
        Artifact {
            isa: ISA.into(),
            arg_slots: 1,
            ret_slots: 1,
            entry: "twinjit_entry".into(),
            functions: vec![
                func("twinjit_libm_exp", &[types::F64], &[types::F64], None),
                func("f", &[types::I64, types::I64, types::F64], &[types::I32], Some(f_body)),
                func("twinjit_entry", &tramp, &[types::I32], Some(entry_body)),
            ],
            sites: vec![RaiseSite::check("f", Span { file: FileId(0), start: 3, end: 9 })],
        }
    }

    fn body(a: &mut Artifact, k: usize) -> &mut Body {
        a.functions[k].body.as_mut().unwrap()
    }

    /// `damage` applied to the sample must be refused with a message containing `expect`.
    fn check_refused(damage: impl FnOnce(&mut Artifact), expect: &str) {
        let mut a = sample();
        damage(&mut a);
        match Artifact::decode(&a.encode(), ISA) {
            Err(LoadError::Corrupt(m) | LoadError::Incompatible(m)) if m.contains(expect) => {}
            other => panic!("expected an error containing {expect:?}, got {other:?}"),
        }
    }

    #[test]
    fn round_trips() {
        let a = sample();
        assert_eq!(Artifact::decode(&a.encode(), ISA).unwrap(), a);
    }

    #[test]
    fn refuses_what_load_cannot_link_safely() {
        check_refused(|a| a.isa = "other".into(), "made for `other`");
        check_refused(|a| body(a, 1).relocs[0].offset = 25, "outside the 32 bytes");
        check_refused(|a| body(a, 1).relocs[1].offset = 29, "outside the 32 bytes");
        check_refused(|a| body(a, 1).relocs[1].offset = u32::MAX - 1, "outside");
        check_refused(|a| body(a, 1).relocs[3].target = RelocTarget::OwnOffset(33), "outside its function");
        check_refused(|a| body(a, 1).relocs[0].target = RelocTarget::Function("g".into()), "undeclared `g`");
        check_refused(|a| body(a, 1).relocs[0].kind = Reloc::X86PCRel4, "PC-relatively to import `twinjit_libm_exp`");
        check_refused(|a| body(a, 1).relocs[2].kind = Reloc::X86PCRel4, "PC-relatively to a libcall");
        check_refused(|a| body(a, 1).relocs[2].target = RelocTarget::LibCall(LibCall::Probestack), "Probestack");
        check_refused(|a| body(a, 1).relocs[0].kind = Reloc::Abs4, "unknown relocation kind");
        check_refused(|a| body(a, 1).relocs[0].addend = 1 << 40, "addend");
        check_refused(|a| body(a, 1).align = 3, "alignment 3");
        check_refused(|a| body(a, 1).align = 2 * MAX_ALIGN, "alignment");
        check_refused(|a| body(a, 1).code.clear(), "no code");
        check_refused(|a| a.functions[0].name = "system".into(), "unknown symbol `system`");
        check_refused(|a| a.functions[0].name = String::new(), "no name");
        check_refused(|a| a.functions[0].params[0] = types::I16, "unknown value type");
        check_refused(|a| a.functions[1].name = "twinjit_libm_exp".into(), "declared twice");
        check_refused(|a| a.entry = "g".into(), "entry is not declared");
        check_refused(|a| a.entry = "f".into(), "trampoline signature");
        check_refused(|a| a.functions[2].returns.clear(), "trampoline signature");
        check_refused(|a| a.sites[0].span.start = 10, "ends before it starts");
    }
}
