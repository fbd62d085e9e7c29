//! (a) Arbitrary bytes as a module: front end (limits, parse, lowering) and the diagnostic
//! renderer must never panic, overflow the stack or hang.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Err(e) = twinjit::SourceModule::parse("fuzz.py", &text) {
        let _ = e.to_string();
    }
});
