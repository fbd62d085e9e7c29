//! Subcommand bodies: each returns its stdout text, or the message for stderr.

use std::fmt::Write;
use twinjit::ir::{parse_signature, Signature, Type};
use twinjit::SourceModule;

fn load(file: &str) -> Result<SourceModule, String> {
    let bytes = std::fs::read(file).map_err(|e| format!("error: cannot read `{file}`: {e}"))?;
    let text = String::from_utf8(bytes).map_err(|e| {
        format!(
            "error: `{file}` is not valid UTF-8 (byte {}): Python source must be UTF-8",
            e.utf8_error().valid_up_to()
        )
    })?;
    SourceModule::parse(file, &text).map_err(|e| e.to_string())
}

fn parse_sig(text: &str) -> Result<Signature, String> {
    parse_signature(text).map_err(|e| format!("error: {e}"))
}

fn describe(sig_args: &[Type], ret: &Type) -> String {
    let args: Vec<String> = sig_args.iter().map(Type::numba_name).collect();
    format!("({}) -> {}", args.join(", "), ret.numba_name())
}

/// `twinjit check FILE [--sig FUNC=SIG]...`
pub fn check(file: &str, sigs: &[String]) -> Result<String, String> {
    let m = load(file)?;
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
    let f = module.source().module().function(func).ok_or_else(|| {
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
