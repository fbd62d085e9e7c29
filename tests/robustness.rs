//! No input crashes the front end: deep nesting, huge files, odd bytes. Each bad input gets a
//! located diagnostic; good inputs of unusual size still compile.

use twinjit::SourceModule;

/// The module is refused, or (an error in a function's body) the function is, with located
/// diagnostics that say `expect`.
fn rejected_with_location(name: &str, src: &str, expect: &str) {
    let d: Vec<twinjit::diag::Diagnostic> = match SourceModule::parse(name, src) {
        Ok(m) => m.module().refused.iter().flat_map(|r| r.diagnostics.iter().cloned()).collect(),
        Err(e) => e.diagnostics().to_vec(),
    };
    assert!(!d.is_empty(), "{name}: accepted");
    assert!(d.iter().all(|d| d.span().is_some()), "{name}: unlocated {d:?}");
    assert!(d.iter().any(|d| d.message.contains(expect)), "{name}: expected `{expect}` in {d:?}");
}

#[test]
fn ten_thousand_levels_of_nesting_are_errors_not_stack_overflows() {
    let head = "from numba import njit\n@njit\ndef f(x):\n    return ";
    rejected_with_location(
        "parens.py",
        &format!("{head}{}x{}\n", "(".repeat(10_000), ")".repeat(10_000)),
        "too many nested parentheses",
    );
    rejected_with_location("unary.py", &format!("{head}{}x\n", "-".repeat(10_000)), "expression nested too deeply");
    rejected_with_location("not.py", &format!("{head}{}x\n", "not ".repeat(10_000)), "expression nested too deeply");
    rejected_with_location("pow.py", &format!("{head}x{}\n", "**x".repeat(10_000)), "expression nested too deeply");
    rejected_with_location("attr.py", &format!("{head}x{}\n", ".a".repeat(10_000)), "nested too deeply");
    let mut blocks = String::from("from numba import njit\n@njit\ndef f(x):\n");
    for k in 0..150 {
        blocks.push_str(&format!("{}if x:\n", "    ".repeat(k + 1)));
    }
    blocks.push_str(&format!("{}return 1\n", "    ".repeat(151)));
    rejected_with_location("blocks.py", &blocks, "too many levels of indentation");
}

#[test]
fn a_five_megabyte_module_compiles() {
    let mut src = String::from("from numba import njit\n\n");
    let mut k = 0;
    while src.len() < 5 << 20 {
        src.push_str(&format!(
            "@njit\ndef f{k}(x, y):\n    s = 0.0\n    for i in range(x):\n        s += i * y + {k}\n    return s\n\n"
        ));
        k += 1;
    }
    let m = SourceModule::parse("big.py", &src).expect("a large but ordinary module parses");
    assert_eq!(m.functions().len(), k);
    let r = m.interpret("f7", &[twinjit::ir::interp::RtValue::I64(3), twinjit::ir::interp::RtValue::F64(2.0)]).unwrap();
    assert_eq!(r.to_string(), "27.0");
}

#[test]
fn many_sequential_branches_do_not_overflow() {
    let mut src = String::from("from numba import njit\n@njit\ndef f(x):\n    y = 0\n");
    for k in 0..5000 {
        src.push_str(&format!("    if x > {k}:\n        y += 1\n"));
    }
    src.push_str("    return y\n");
    let m = SourceModule::parse("branches.py", &src).unwrap();
    let r = m.interpret("f", &[twinjit::ir::interp::RtValue::I64(1234)]).unwrap();
    assert_eq!(r.to_string(), "1234");
}

#[test]
fn odd_bytes_and_text() {
    // Control characters, a NUL and unpaired brackets: syntax errors with locations.
    rejected_with_location("nul.py", "from numba import njit\n@njit\ndef f(x):\n    return x \0 1\n", "syntax error");
    rejected_with_location("brackets.py", "x = ((]\n", "syntax error");
    rejected_with_location("empty_def.py", "def", "syntax error");
    // An empty file is a module without functions.
    assert!(SourceModule::parse("empty.py", "").unwrap().functions().is_empty());
}
