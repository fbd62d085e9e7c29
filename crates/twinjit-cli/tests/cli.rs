//! The `twinjit` command end to end: exit codes, JSON, `.npy` in and out, errors on stderr.

use std::path::PathBuf;
use std::process::Command;

fn twinjit(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_twinjit")).args(args).output().expect("runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn write_npy(path: &PathBuf, shape: &[usize], data: &[f64]) {
    let shape_s = if shape.len() == 1 {
        format!("({},)", shape[0])
    } else {
        format!("({})", shape.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(", "))
    };
    let mut h = format!("{{'descr': '<f8', 'fortran_order': False, 'shape': {shape_s}, }}");
    h.push_str(&" ".repeat((64 - (10 + h.len() + 1) % 64) % 64));
    h.push('\n');
    let mut b = b"\x93NUMPY\x01\x00".to_vec();
    b.extend_from_slice(&(h.len() as u16).to_le_bytes());
    b.extend_from_slice(h.as_bytes());
    for x in data {
        b.extend_from_slice(&x.to_le_bytes());
    }
    std::fs::write(path, b).unwrap();
}

fn read_npy_f64(path: &PathBuf) -> Vec<f64> {
    let b = std::fs::read(path).unwrap();
    let start = 10 + u16::from_le_bytes([b[8], b[9]]) as usize;
    b[start..].chunks_exact(8).map(|c| f64::from_le_bytes(c.try_into().unwrap())).collect()
}

#[test]
fn run_on_a_2d_array_writes_outputs() {
    let dir = std::env::temp_dir().join(format!("twinjit-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (a, c) = (dir.join("a.npy"), dir.join("c.npy"));
    write_npy(&a, &[2, 3], &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    write_npy(&c, &[3, 2], &[0.0; 6]);
    let file = root().join("tests/kernels/arrays_2d_3d.py");
    let out = dir.join("out");
    let (code, stdout, stderr) = twinjit(&[
        "run",
        file.to_str().unwrap(),
        "transpose_into",
        "--target",
        "host",
        "--arg",
        &format!("a={}", a.display()),
        "--arg",
        &format!("out={}", c.display()),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.starts_with("{\"return\": null, \"compile_ms\": "), "{stdout}");
    assert_eq!(read_npy_f64(&out.join("out.npy")), [1.0, 4.0, 2.0, 5.0, 3.0, 6.0]);
    assert_eq!(read_npy_f64(&out.join("a.npy")), [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn run_with_scalar_return_and_bench() {
    let file = root().join("tests/kernels/calls_recursion.py");
    let (code, stdout, stderr) = twinjit(&["run", file.to_str().unwrap(), "fib", "--arg", "n=int64:20"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.starts_with("{\"return\": 6765, "), "{stdout}");
    let (code, stdout, stderr) =
        twinjit(&["bench", file.to_str().unwrap(), "fib", "--arg", "n=int64:15", "--reps", "3", "--warmup", "1"]);
    assert_eq!(code, 0, "{stderr}");
    for key in ["\"compile_ms\": ", "\"median_ms\": ", "\"min_ms\": ", "\"max_ms\": ", "\"reps\": 3"] {
        assert!(stdout.contains(key), "{key} missing in {stdout}");
    }
}

#[test]
fn an_omitted_arg_takes_its_default() {
    let file = root().join("tests/kernels/defaults_keywords.py");
    let f = file.to_str().unwrap();
    // scaled(x, n=3, scale=1.0, flag=True)
    let (code, stdout, stderr) = twinjit(&["run", f, "scaled", "--arg", "x=float64:2.0"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.starts_with("{\"return\": 6.0, "), "{stdout}");
    // Any subset by name, not only a prefix: n and scale take their defaults.
    let (code, stdout, stderr) = twinjit(&["run", f, "scaled", "--arg", "flag=bool:false", "--arg", "x=float64:2.0"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.starts_with("{\"return\": -2.0, "), "{stdout}");
    let (code, stdout, stderr) =
        twinjit(&["bench", f, "scaled", "--arg", "x=float64:1.5", "--arg", "n=int64:2", "--reps", "2"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("\"reps\": 2"), "{stdout}");
    // A parameter without a default is still required, and named.
    let (code, stdout, stderr) = twinjit(&["run", f, "scaled", "--arg", "n=int64:2"]);
    assert_eq!((code, stdout.as_str()), (1, ""));
    assert!(stderr.contains("missing --arg for parameter x"), "{stderr}");
}

#[test]
fn errors_go_to_stderr_with_exit_code_1() {
    let file = root().join("tests/kernels/calls_recursion.py");
    let f = file.to_str().unwrap();
    let (code, stdout, stderr) = twinjit(&["run", f, "fib", "--arg", "n=int64:20", "--target", "cuda"]);
    assert_eq!((code, stdout.as_str()), (1, ""));
    assert!(stderr.contains("target cuda:0 is unavailable"), "{stderr}");
    let (code, _, stderr) = twinjit(&["run", f, "fib"]);
    assert_eq!(code, 1);
    assert!(stderr.contains("missing --arg for parameter n"), "{stderr}");
    let (code, _, stderr) = twinjit(&["run", f, "fib", "--arg", "m=int64:1"]);
    assert_eq!(code, 1);
    assert!(stderr.contains("has no parameter `m`"), "{stderr}");
    let (code, _, stderr) = twinjit(&["check", root().join("tests/bad/str_of_float.py").to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(stderr.contains("str() of float64 is not supported") && stderr.contains("str_of_float.py:"), "{stderr}");
    let (code, _, stderr) = twinjit(&["detect"]);
    assert_eq!(code, 1);
    assert!(stderr.contains("no CUDA driver found"), "{stderr}");
}

/// A function that raises exits 1 with Python's `Class: message` and the location on stderr.
#[test]
fn a_raised_exception_exits_1_with_class_message_and_location() {
    let file = root().join("tests/kernels/exceptions.py");
    let f = file.to_str().unwrap();
    let (code, stdout, stderr) = twinjit(&["run", f, "checked_sqrt", "--arg", "x=float64:-1"]);
    assert_eq!((code, stdout.as_str()), (1, ""));
    assert!(stderr.contains("ValueError: negative input in `checked_sqrt` at "), "{stderr}");
    assert!(stderr.contains("exceptions.py:24:9"), "{stderr}");
    let (code, _, stderr) = twinjit(&["run", f, "runtime_int", "--arg", "x=int64:-3"]);
    assert_eq!(code, 1);
    assert!(stderr.contains("ValueError: ('bad value', -3) in `runtime_int` at "), "{stderr}");
    let (code, _, stderr) = twinjit(&["run", f, "assert_plain", "--arg", "x=int64:0"]);
    assert_eq!(code, 1);
    assert!(
        stderr.contains("AssertionError in `assert_plain` at ") && stderr.contains("exceptions.py:115:5"),
        "{stderr}"
    );
    let (code, stdout, _) = twinjit(&["run", f, "checked_sqrt", "--arg", "x=float64:4"]);
    assert_eq!(code, 0);
    assert!(stdout.contains("\"return\": 2.0"), "{stdout}");
}

#[test]
fn check_ir_clif_asm() {
    let file = root().join("tests/kernels/decorators_sigs.py");
    let (code, stdout, stderr) = twinjit(&["check", file.to_str().unwrap()]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("scale_sum (host function)\n    (float64[:], int64) -> float64"), "{stdout}");
    let arrays = root().join("tests/kernels/arrays_1d.py");
    let a = arrays.to_str().unwrap();
    let (code, stdout, _) = twinjit(&["ir", a, "array_sum", "--sig", "(float64[::1])"]);
    assert_eq!(code, 0);
    assert!(stdout.contains("function @array_sum$af81C(a) -> float64") && stdout.contains("load"), "{stdout}");
    let (code, stdout, _) = twinjit(&["clif", a, "array_sum", "--sig", "(float64[::1])"]);
    assert_eq!(code, 0);
    assert!(stdout.contains("function") && stdout.contains("load.f64"), "{stdout}");
    let (code, stdout, _) = twinjit(&["asm", a, "array_sum", "--sig", "(float64[::1])"]);
    assert_eq!(code, 0);
    assert!(!stdout.trim().is_empty());
}

/// The `target_backend='cuda'` trap in a user's file: `check` reports the refused function
/// and exits 1; `run` of a neighbour runs, with a one-line warning naming the refused one.
#[test]
fn a_refused_function_fails_check_but_its_neighbours_run() {
    let file = root().join("examples/kernels/timing_trap.py");
    let file = file.to_str().unwrap();
    let (code, out, err) = twinjit(&["check", file]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("scaled_sum (host function)"), "{out}");
    assert!(err.contains("target_backend") && err.contains("@cuda.jit") && err.contains("timing_trap.py:"), "{err}");
    let dir = std::env::temp_dir().join(format!("twinjit-cli-trap-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let x = dir.join("x.npy");
    write_npy(&x, &[3], &[1.0, 2.0, 3.5]);
    let (code, out, err) =
        twinjit(&["run", file, "scaled_sum", "--arg", &format!("x={}", x.display()), "--arg", "k=float64:2"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("\"return\": 13.0"), "{out}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("warning: `scaled_sum_gpu` is not compiled"), "{err}");
    let (code, _, err) =
        twinjit(&["run", file, "scaled_sum_gpu", "--arg", &format!("x={}", x.display()), "--arg", "k=float64:2"]);
    assert_eq!(code, 1);
    assert!(err.contains("target_backend") && err.contains("@cuda.jit"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

/// A device function whose shared array's shape and dtype are parameters is compiled per call
/// (Numba's literal dispatch): `check` lists it with its copies and exits 0, and a kernel that
/// calls it runs on cuda-sim.
#[test]
fn a_function_used_with_literal_arguments_is_listed_with_its_copies() {
    let file = root().join("tests/kernels_cuda/literal_args.py");
    let f = file.to_str().unwrap();
    let (code, out, err) = twinjit(&["check", f]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("binned_update (compiled only as binned_update__lit1, binned_update__lit2"), "{out}");
    assert!(out.contains("scale_twice (kernel)") && out.contains("scaled (device function)"), "{out}");
    let dir = std::env::temp_dir().join(format!("twinjit-cli-literal-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (x, o) = (dir.join("x.npy"), dir.join("out.npy"));
    write_npy(&x, &[4], &[0.25, 2.0, 9.0, 10.5]);
    write_npy(&o, &[4], &[0.0; 4]);
    let (code, out, err) = twinjit(&[
        "run",
        f,
        "roots_and_floors",
        "--target",
        "cuda-sim",
        "--launch",
        "1,8",
        "--arg",
        &format!("x={}", x.display()),
        "--arg",
        &format!("roots={}", o.display()),
        "--arg",
        &format!("floors={}", o.display()),
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let floors = std::fs::read(dir.join("floors.npy")).unwrap();
    let tail: Vec<f64> =
        floors[floors.len() - 32..].chunks(8).map(|b| f64::from_le_bytes(b.try_into().unwrap())).collect();
    assert_eq!(tail, [0.0, 2.0, 9.0, 10.0]);
    std::fs::remove_dir_all(&dir).ok();
}

/// `print()` in compiled code writes what Numba writes (tests/print/prints.expected, from
/// real Numba by tests/print/verify_print.py), before the JSON line of `run`.
#[test]
fn print_writes_what_numba_prints() {
    let file = root().join("tests/print/prints.py");
    let expected = std::fs::read_to_string(root().join("tests/print/prints.expected")).unwrap();
    let mut checked = 0;
    for section in expected.split("== ").filter(|s| !s.is_empty()) {
        let (name, want) = section.split_once('\n').unwrap();
        let mut args = vec!["run", file.to_str().unwrap(), name, "--cache", "off"];
        if name == "demo_returns" {
            args.extend(["--arg", "k=int64:21"]);
        }
        let (code, out, err) = twinjit(&args);
        assert_eq!(code, 0, "{name}: {err}");
        let (printed, json) = out.rsplit_once("{\"return\"").expect("the JSON line comes last");
        assert_eq!(printed, want, "{name}");
        if name == "demo_returns" {
            assert!(json.starts_with(": 42"), "{json}");
        }
        checked += 1;
    }
    assert_eq!(checked, 9);
}

#[test]
fn complex_arguments_and_results() {
    let file = root().join("tests/kernels/complex_numbers.py");
    let f = file.to_str().unwrap();
    let (code, stdout, stderr) =
        twinjit(&["run", f, "quotient", "--arg", "a=complex128:1+2j", "--arg", "b=complex128:3-4j"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains(r#""return": {"real": -0.2, "imag": 0.4}"#), "{stdout}");
    let (code, stdout, stderr) = twinjit(&["run", f, "parts", "--arg", "z=complex64:-1.5e1-2j"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains(r#""return": [-15.0, -2.0, {"real": -15.0, "imag": 2.0}]"#), "{stdout}");
    let (code, _, stderr) = twinjit(&["run", f, "quotient", "--arg", "a=complex128:2j", "--arg", "b=complex128:0"]);
    assert_eq!(code, 1);
    assert!(stderr.contains("ZeroDivisionError: complex division by zero"), "{stderr}");
    let (code, _, stderr) = twinjit(&["run", f, "magnitude", "--arg", "z=complex128:1+"]);
    assert_eq!(code, 1);
    assert!(stderr.contains("`1+` is not a valid complex128"), "{stderr}");
}

/// Small arrays in a result show their elements (`"data"`, nested as `tolist()`), large ones
/// only their dtype and shape (their elements are in `--out`'s `.npy` files).
#[test]
fn small_returned_arrays_show_their_elements() {
    let dir = std::env::temp_dir().join(format!("twinjit-cli-data-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("rows.py");
    std::fs::write(
        &file,
        "import numpy as np\nfrom numba import njit\n\n\n@njit\ndef rows(n):\n    out = []\n    for i in range(n):\n        out.append(np.arange(3) * i)\n    return out, np.ones((2, 2)) / 4, np.zeros(5000)\n",
    )
    .unwrap();
    let (code, stdout, stderr) = twinjit(&["run", file.to_str().unwrap(), "rows", "--arg", "n=int64:2"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.contains(r#"[[{"dtype": "int64", "shape": [3], "data": [0, 0, 0]}, {"dtype": "int64", "shape": [3], "data": [0, 1, 2]}], {"dtype": "float64", "shape": [2, 2], "data": [[0.25, 0.25], [0.25, 0.25]]}, {"dtype": "float64", "shape": [5000]}]"#),
        "{stdout}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// `verify` runs the compiled function and the reference interpreter on the same inputs:
/// exit 0 when they agree (arrays after the call included), 2 when nothing could be compared
/// (a kernel without a GPU: never the CPU against itself).
#[test]
fn verify_compares_with_the_interpreter() {
    let dir = std::env::temp_dir().join(format!("twinjit-verify-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (x, o) = (dir.join("x.npy"), dir.join("o.npy"));
    write_npy(&x, &[4], &[3.0, 4.0, 12.0, -1.5]);
    write_npy(&o, &[4], &[0.0; 4]);
    let src = dir.join("v.py");
    std::fs::write(
        &src,
        "import numpy as np\nfrom numba import njit, cuda\n\n@njit\ndef scaled(x, out):\n    s = 0.0\n    for i in range(x.size):\n        s += x[i] * x[i]\n        out[i] = x[i] * 0.5\n    return np.sqrt(s), x.size\n\n@cuda.jit\ndef double(a):\n    i = cuda.grid(1)\n    if i < a.size:\n        a[i] *= 2\n",
    )
    .unwrap();
    let (code, stdout, stderr) = twinjit(&[
        "verify",
        src.to_str().unwrap(),
        "scaled",
        "--arg",
        &format!("x={}", x.display()),
        "--arg",
        &format!("out={}", o.display()),
    ]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.starts_with("agree:") && stdout.contains("same 10 values"), "{stdout}");
    let (code, stdout, _) = twinjit(&[
        "verify",
        src.to_str().unwrap(),
        "double",
        "--target",
        "cuda",
        "--launch",
        "1,32",
        "--arg",
        &format!("a={}", x.display()),
    ]);
    if code != 0 {
        assert_eq!(code, 2, "{stdout}");
        assert!(stdout.contains("NOT COMPARED: no usable GPU"), "{stdout}");
    }
    // Bad input: nothing compared, exit 2, the error on stderr.
    let (code, _, stderr) = twinjit(&["verify", src.to_str().unwrap(), "nope"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("nope"), "{stderr}");
}

/// `run --target interp`: a kernel over its grid in the reference interpreter (no GPU, the
/// corpus's expected values from numba's simulator), a host function, and `--race-check`
/// finding the missing barrier of a shared-memory reduction that passes without it.
#[test]
fn run_in_the_interpreter_with_the_race_checker() {
    let dir = std::env::temp_dir().join(format!("twinjit-cli-interp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (a, sums) = (dir.join("a.npy"), dir.join("sums.npy"));
    write_npy(&a, &[150], &(0..150).map(f64::from).collect::<Vec<_>>());
    write_npy(&sums, &[3], &[0.0; 3]);
    let file = root().join("tests/kernels_cuda/shared_sync.py");
    let out = dir.join("out");
    let args = |f: &str| {
        vec![
            "run".to_string(),
            f.to_string(),
            "block_sum".into(),
            "--target".into(),
            "interp".into(),
            "--launch".into(),
            "3,64".into(),
            "--arg".into(),
            format!("a={}", a.display()),
            "--arg".into(),
            format!("out={}", sums.display()),
        ]
    };
    let mut with_out = args(file.to_str().unwrap());
    with_out.extend(["--race-check".into(), "--out".into(), out.to_str().unwrap().into()]);
    let (code, stdout, stderr) = twinjit(&with_out.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.starts_with("{\"return\": null, \"run_ms\": "), "{stdout}");
    // tests/kernels_cuda/shared_sync.py's check of block_sum (numba's simulator).
    assert_eq!(read_npy_f64(&out.join("out.npy")), [2016.0, 6112.0, 3047.0]);
    // The same reduction without its barrier: right by luck in a sequential run, a race.
    let racy = dir.join("racy.py");
    let src = std::fs::read_to_string(&file).unwrap();
    let start = src.find("@cuda.jit\ndef block_sum").unwrap();
    let end = start + src[start..].find("\n\n\n").unwrap();
    let body = src[start..end].replacen("    cuda.syncthreads()\n", "", 1);
    std::fs::write(&racy, format!("import numpy as np\nfrom numba import cuda\nTPB = 64\n\n{body}\n")).unwrap();
    let (code, _, stderr) = twinjit(&args(racy.to_str().unwrap()).iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(code, 0, "{stderr}");
    let mut checked = args(racy.to_str().unwrap());
    checked.push("--race-check".into());
    let (code, _, stderr) = twinjit(&checked.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(code, 1);
    assert!(stderr.contains("data race") && stderr.contains("racy.py:"), "{stderr}");
    // A host function; --race-check only with the interpreter.
    let rec = root().join("tests/kernels/calls_recursion.py");
    let (code, stdout, stderr) =
        twinjit(&["run", rec.to_str().unwrap(), "fib", "--target", "interp", "--arg", "n=int64:20"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.starts_with("{\"return\": 6765, "), "{stdout}");
    let (code, _, stderr) = twinjit(&["run", rec.to_str().unwrap(), "fib", "--arg", "n=int64:20", "--race-check"]);
    assert_eq!(code, 1);
    assert!(stderr.contains("--race-check needs --target cuda-sim or interp"), "{stderr}");
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn run_and_bench_a_kernel_on_cuda_sim() {
    let dir = std::env::temp_dir().join(format!("twinjit-cli-cuda-sim-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (a, sums) = (dir.join("a.npy"), dir.join("sums.npy"));
    write_npy(&a, &[150], &(0..150).map(f64::from).collect::<Vec<_>>());
    write_npy(&sums, &[3], &[0.0; 3]);
    let file = root().join("tests/kernels_cuda/shared_sync.py");
    let out = dir.join("out");
    let base = |cmd: &str, launch: &str| {
        vec![
            cmd.to_string(),
            file.to_str().unwrap().to_string(),
            "block_sum".into(),
            "--target".into(),
            "cuda-sim".into(),
            "--launch".into(),
            launch.into(),
            "--arg".into(),
            format!("a={}", a.display()),
            "--arg".into(),
            format!("out={}", sums.display()),
        ]
    };
    let mut run = base("run", "3,64");
    run.extend(["--out".into(), out.to_str().unwrap().into()]);
    let (code, stdout, stderr) = twinjit(&run.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.starts_with("{\"return\": null, \"compile_ms\": "), "{stdout}");
    // tests/kernels_cuda/shared_sync.py's check of block_sum (numba's simulator).
    assert_eq!(read_npy_f64(&out.join("out.npy")), [2016.0, 6112.0, 3047.0]);
    let bench = base("bench", "3,64");
    let (code, stdout, stderr) = twinjit(&bench.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("\"min_ms\": ") && stdout.contains("\"median_ms\": "), "{stdout}");
    // Four blocks write `out[3]`: an IndexError naming the thread (bounds checked by default).
    let (code, _, stderr) = twinjit(&base("run", "4,64").iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(code, 1);
    assert!(stderr.contains("IndexError") && stderr.contains("of block (3, 0, 0)"), "{stderr}");
    // The race checker: silent on this correct kernel (its racy twin is checked in
    // `run_in_the_interpreter_with_the_race_checker` and tests/corpus_kernels_sim.rs).
    let mut checked = base("run", "3,64");
    checked.push("--race-check".into());
    let (code, _, stderr) = twinjit(&checked.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(code, 0, "{stderr}");
    // Host functions are not kernels.
    let rec = root().join("tests/kernels/calls_recursion.py");
    let (code, _, stderr) =
        twinjit(&["run", rec.to_str().unwrap(), "fib", "--target", "cuda-sim", "--arg", "n=int64:20"]);
    assert_eq!(code, 1);
    assert!(stderr.contains("not a @cuda.jit kernel"), "{stderr}");
    std::fs::remove_dir_all(dir).ok();
}
