//! What the engine needs to know of a module without its untyped IR: each function's name,
//! parameters, decorator attributes, where its source text lies and which module functions it
//! calls. That is enough to build the dispatchers, compile decorator signatures, and compute
//! cache keys, so a module whose compiled code is all in the disk cache never runs the front
//! end (Ruff parse and SSA lowering); the IR is made on the first cache miss.
//!
//! An outline is written to the disk cache only after the front end accepted the whole file,
//! keyed by the file's full text and twinjit's version: finding one proves that the front end
//! would accept the text again, so loading from it reports exactly what a full load would
//! (nothing) and the lazy front end cannot fail later except on an internal error.

use crate::disk_cache::{decode_types, encode_types, Reader, Writer};
use std::ops::Range;
use twinjit_ir::{Const, ErrorModel, FunctionAttrs, FunctionKind, GufuncLayout, Module, Signature};

/// The version of [`Outline::encode`]'s format, part of the outline's cache key: a change of
/// format bumps it, so an outline written by another format is never read.
pub(crate) const FORMAT: &str = "3";

/// The outline of one module (functions in source order).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Outline {
    pub(crate) functions: Vec<OutlineFunction>,
}

/// One compiled function of a module.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct OutlineFunction {
    pub(crate) name: String,
    pub(crate) params: Vec<String>,
    /// The defaults of the last `defaults.len()` parameters (`ModuleFunction::defaults`).
    pub(crate) defaults: Vec<Const>,
    pub(crate) attrs: FunctionAttrs,
    /// Byte range of the `def` (decorators included) in the module's text.
    pub(crate) source: Range<usize>,
    /// Module functions it calls directly.
    pub(crate) callees: Vec<String>,
    /// The kernel the front end made of a CUDA ufunc or gufunc (`ufunc::split_cuda`).
    pub(crate) cuda_ufunc: Option<CudaUfunc>,
}

/// What kind of CUDA ufunc a kernel is.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum CudaUfunc {
    /// `@vectorize(target='cuda')`: inputs, then `out`.
    Vectorize,
    /// `@guvectorize(..., target='cuda')` of this layout: inputs, then outputs.
    Gufunc(GufuncLayout),
}

impl Outline {
    /// The outline of a lowered module whose text is `text`.
    pub(crate) fn of(module: &Module, text: &str) -> Outline {
        let functions = module
            .functions
            .iter()
            .map(|f| {
                // The front end takes `source` as the slice of the text ending where the
                // function's span ends.
                let end = f.body.span.end as usize;
                let start = end.saturating_sub(f.source.len());
                let source = if text.get(start..end) == Some(f.source.as_str()) { start..end } else { 0..0 };
                // The kernel of a CUDA ufunc calls its inner function, which keeps the spec.
                let inner = format!("{}.inner", f.name);
                let spec = module.function(&inner).and_then(|g| g.options.ufunc.as_ref()).filter(|u| u.cuda);
                let cuda_ufunc =
                    spec.filter(|_| f.attrs.kind == FunctionKind::Kernel && f.callees == [inner]).map(|u| {
                        match &u.layout {
                            None => CudaUfunc::Vectorize,
                            Some(l) => CudaUfunc::Gufunc(l.clone()),
                        }
                    });
                OutlineFunction {
                    name: f.name.clone(),
                    params: f.body.param_names.clone(),
                    defaults: f.defaults.clone(),
                    attrs: f.attrs.clone(),
                    source,
                    callees: f.callees.clone(),
                    cuda_ufunc,
                }
            })
            .collect();
        Outline { functions }
    }

    pub(crate) fn function(&self, name: &str) -> Option<&OutlineFunction> {
        self.functions.iter().find(|f| f.name == name)
    }

    /// `name` and every module function it calls, directly or not, sorted.
    pub(crate) fn call_closure(&self, name: &str) -> Vec<String> {
        twinjit_ir::module::call_closure(name, |f| self.function(f).map(|f| f.callees.as_slice()))
    }

    /// The text outside every compiled function (imports, module constants, other code).
    pub(crate) fn module_level(&self, text: &str) -> String {
        let mut ranges: Vec<Range<usize>> = self.functions.iter().map(|f| f.source.clone()).collect();
        ranges.sort_by_key(|r| r.start);
        let mut rest = String::with_capacity(text.len());
        let mut at = 0;
        for r in ranges {
            if r.start >= at {
                rest.push_str(text.get(at..r.start).unwrap_or(""));
                at = r.end;
            }
        }
        rest.push_str(text.get(at..).unwrap_or(""));
        rest
    }

    /// The function whose source contains byte `offset`, with the offset of its start.
    pub(crate) fn containing(&self, offset: usize) -> Option<(&OutlineFunction, usize)> {
        self.functions.iter().find(|f| f.source.contains(&offset)).map(|f| (f, f.source.start))
    }

    pub(crate) fn encode(&self) -> Vec<u8> {
        let mut w = Writer::default();
        w.u64(self.functions.len() as u64);
        for f in &self.functions {
            w.str(&f.name).u64(f.params.len() as u64);
            for p in &f.params {
                w.str(p);
            }
            w.u64(f.defaults.len() as u64);
            for d in &f.defaults {
                match *d {
                    Const::Int(i) => w.u64(0).u64(i as u64),
                    Const::Float(x) => w.u64(1).u64(x.to_bits()),
                    Const::Bool(b) => w.u64(2).u64(b as u64),
                    Const::None => w.u64(3).u64(0),
                    Const::Str(text) => w.u64(4).u64(0).str(text),
                };
            }
            let a = &f.attrs;
            let kind = match a.kind {
                FunctionKind::Host => 0,
                FunctionKind::Kernel => 1,
                FunctionKind::Device => 2,
            };
            w.u64(kind).u64(a.signatures.len() as u64);
            for s in &a.signatures {
                encode_types(&mut w, &s.args);
                encode_types(&mut w, s.ret.as_slice());
            }
            let bc = match a.boundscheck {
                None => 0,
                Some(false) => 1,
                Some(true) => 2,
            };
            let em = match a.error_model {
                ErrorModel::Python => 0,
                ErrorModel::Numpy => 1,
            };
            w.u64(a.cache as u64).u64(bc).u64(a.fastmath as u64).u64(em).str(&a.decorator);
            w.u64(f.source.start as u64).u64(f.source.end as u64).u64(f.callees.len() as u64);
            for c in &f.callees {
                w.str(c);
            }
            let groups = |w: &mut Writer, gs: &[Vec<String>]| {
                w.u64(gs.len() as u64);
                for g in gs {
                    w.u64(g.len() as u64);
                    g.iter().for_each(|d| {
                        w.str(d);
                    });
                }
            };
            match &f.cuda_ufunc {
                None => {
                    w.u64(0);
                }
                Some(CudaUfunc::Vectorize) => {
                    w.u64(1);
                }
                Some(CudaUfunc::Gufunc(l)) => {
                    w.u64(2);
                    groups(&mut w, &l.inputs);
                    groups(&mut w, &l.outputs);
                }
            }
        }
        w.0
    }

    /// Reads what [`Outline::encode`] wrote for `text`; `None` if malformed or if a source
    /// range does not fit the text.
    pub(crate) fn decode(bytes: &[u8], text: &str) -> Option<Outline> {
        let mut r = Reader(bytes);
        let count = |r: &mut Reader<'_>| usize::try_from(r.u64()?).ok().filter(|&n| n <= 1 << 20);
        let n = count(&mut r)?;
        let mut functions = Vec::new();
        for _ in 0..n {
            let name = r.str()?.to_string();
            let params = (0..count(&mut r)?).map(|_| r.str().map(str::to_string)).collect::<Option<Vec<_>>>()?;
            let mut defaults = Vec::new();
            for _ in 0..count(&mut r)? {
                let (tag, bits) = (r.u64()?, r.u64()?);
                defaults.push(match (tag, bits) {
                    (0, i) => Const::Int(i as i64),
                    (1, x) => Const::Float(f64::from_bits(x)),
                    (2, b @ (0 | 1)) => Const::Bool(b == 1),
                    (3, 0) => Const::None,
                    (4, 0) => Const::Str(twinjit_ir::intern(r.str()?)),
                    _ => return None,
                });
            }
            if defaults.len() > params.len() {
                return None;
            }
            let kind = match r.u64()? {
                0 => FunctionKind::Host,
                1 => FunctionKind::Kernel,
                2 => FunctionKind::Device,
                _ => return None,
            };
            let mut signatures = Vec::new();
            for _ in 0..count(&mut r)? {
                let args = decode_types(&mut r)?;
                let mut ret = decode_types(&mut r)?;
                if ret.len() > 1 {
                    return None;
                }
                signatures.push(Signature { args, ret: ret.pop() });
            }
            let cache = r.u64()? == 1;
            let boundscheck = match r.u64()? {
                0 => None,
                1 => Some(false),
                2 => Some(true),
                _ => return None,
            };
            let fastmath = r.u64()? == 1;
            let error_model = match r.u64()? {
                0 => ErrorModel::Python,
                1 => ErrorModel::Numpy,
                _ => return None,
            };
            let decorator = r.str()?.to_string();
            let (start, end) = (usize::try_from(r.u64()?).ok()?, usize::try_from(r.u64()?).ok()?);
            text.get(start..end)?;
            let callees = (0..count(&mut r)?).map(|_| r.str().map(str::to_string)).collect::<Option<Vec<_>>>()?;
            let groups = |r: &mut Reader<'_>| -> Option<Vec<Vec<String>>> {
                (0..count(r)?)
                    .map(|_| (0..count(r)?).map(|_| r.str().map(str::to_string)).collect::<Option<Vec<_>>>())
                    .collect()
            };
            let cuda_ufunc = match r.u64()? {
                0 => None,
                1 => Some(CudaUfunc::Vectorize),
                2 => Some(CudaUfunc::Gufunc(GufuncLayout { inputs: groups(&mut r)?, outputs: groups(&mut r)? })),
                _ => return None,
            };
            let attrs = FunctionAttrs { kind, signatures, cache, boundscheck, fastmath, error_model, decorator };
            functions.push(OutlineFunction { name, params, defaults, attrs, source: start..end, callees, cuda_ufunc });
        }
        r.0.is_empty().then_some(Outline { functions })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SRC: &str = "import math\nfrom numba import njit\n\nK = 2.0\n\n@njit(cache=True, boundscheck=False)\ndef f(a, n=-3, s=0.5, b=True):\n    return g(n) * K\n\n@njit(['float64(int64)'])\ndef g(n):\n    return math.sqrt(n)\n\nZ = 1\n";

    fn outline() -> Outline {
        let m = crate::SourceModule::parse("o.py", SRC).unwrap();
        Outline::of(m.module(), SRC)
    }

    #[test]
    fn source_ranges_module_level_and_closure() {
        let o = outline();
        let f = o.function("f").unwrap();
        assert!(SRC[f.source.clone()].starts_with("@njit(cache=True"), "{:?}", &SRC[f.source.clone()]);
        assert!(SRC[f.source.clone()].ends_with("* K"));
        assert_eq!(f.params, ["a", "n", "s", "b"]);
        assert_eq!(f.defaults, [Const::Int(-3), Const::Float(0.5), Const::Bool(true)]);
        assert_eq!(f.attrs.boundscheck, Some(false));
        assert_eq!(o.call_closure("f"), ["f", "g"]);
        assert_eq!(o.call_closure("g"), ["g"]);
        let rest = o.module_level(SRC);
        assert!(rest.contains("K = 2.0") && rest.contains("Z = 1") && !rest.contains("def "), "{rest}");
        let at = SRC.find("math.sqrt").unwrap();
        assert_eq!(o.containing(at).map(|(f, _)| f.name.as_str()), Some("g"));
        assert!(o.containing(SRC.find("Z = 1").unwrap()).is_none());
    }

    #[test]
    fn encoding_round_trips_and_rejects_damage() {
        let o = outline();
        let bytes = o.encode();
        assert_eq!(Outline::decode(&bytes, SRC), Some(o.clone()));
        for cut in 0..bytes.len() {
            assert_eq!(Outline::decode(&bytes[..cut], SRC), None, "truncated at {cut}");
        }
        // Ranges must fit the text they are read against.
        assert_eq!(Outline::decode(&bytes, &SRC[..20]), None);
        let mut longer = bytes.clone();
        longer.push(0);
        assert_eq!(Outline::decode(&longer, SRC), None);
    }

    /// A CUDA ufunc's and gufunc's kernels say so (with the layout), through the encoding too,
    /// so the facade tells them apart without the front end.
    #[test]
    fn cuda_ufunc_kernels_are_marked() {
        let src = "from numba import vectorize, guvectorize

@vectorize(['float64(float64)'], target='cuda')
def twice(x):
    return 2 * x

@guvectorize(['void(float64[:], float64[:])'], '(n)->()', target='cuda')
def total(a, out):
    out[0] = a.sum()
";
        let m = crate::SourceModule::parse("u.py", src).unwrap();
        let o = Outline::of(m.module(), src);
        assert_eq!(o.function("twice").unwrap().cuda_ufunc, Some(CudaUfunc::Vectorize));
        let layout = GufuncLayout { inputs: vec![vec!["n".to_string()]], outputs: vec![vec![]] };
        assert_eq!(o.function("total").unwrap().cuda_ufunc, Some(CudaUfunc::Gufunc(layout)));
        assert_eq!(o.function("total.inner").unwrap().cuda_ufunc, None);
        assert_eq!(Outline::decode(&o.encode(), src), Some(o));
    }
}
