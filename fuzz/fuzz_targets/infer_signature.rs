//! (b) Arbitrary text plus random signatures through type inference and the IR pipeline (and
//! the verifier, in this debug-assertion build) for every function of the module.
#![no_main]

use arbitrary::Unstructured;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if data.len() < 4 {
        return;
    }
    let (sig_bytes, text) = data.split_at(4);
    let text = String::from_utf8_lossy(text);
    let Ok(m) = twinjit::SourceModule::parse("fuzz.py", &text) else { return };
    let mut u = Unstructured::new(sig_bytes);
    for f in m.functions() {
        let sig = twinjit_fuzz::signature(&mut u, f.body.param_names.len());
        let Ok(sig) = twinjit::ir::parse_signature(&sig) else { continue };
        if let Err(e) = m.specialize(&f.name, &sig, None) {
            let _ = e.to_string();
        }
    }
});
