//! `twinjit sql`: a query over a CSV file with the UDFs of a Numba module, its result written to
//! Parquet and read back by a second query, the results checked against the same query in
//! built-in SQL; clear errors for a bad table, a SQL error and a UDF's exception. Without
//! feature `sql`, the command says how to build it.

use std::path::PathBuf;
use std::process::Command;

const UDFS: &str = "import math\nfrom numba import njit, vectorize\n\n\
@vectorize\ndef hyp(a, b):\n    return math.sqrt(a * a + b * b)\n\n\
@njit\ndef band(x):\n    if x < 2.0:\n        return 0\n    elif x < 5.0:\n        return 1\n    return 2\n\n\
@njit\ndef inv(x):\n    return 1.0 / x\n\n\
@njit\ndef spread(v):\n    return v.max() - v.min()\n";

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("twinjit-sql-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("udfs.py"), UDFS).unwrap();
    let mut csv = String::from("k,a,b\n");
    for i in 0..40 {
        csv.push_str(&format!("{},{},{}\n", i % 3, i as f64 * 0.25, (i % 7) as f64 - 2.0));
    }
    std::fs::write(dir.join("t.csv"), csv).unwrap();
    dir
}

fn twinjit(dir: &PathBuf, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_twinjit")).current_dir(dir).args(args).output().expect("runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[cfg(feature = "sql")]
#[test]
fn query_with_udfs_over_csv_then_parquet() {
    let dir = scratch("ok");
    let udfs = ["--udfs", "udfs.py", "--progress", "false"];
    let q = |sql: &str, table: &str| {
        let mut a: Vec<&str> = udfs.to_vec();
        let t = format!("t={table}");
        a.extend(["--table", &t]);
        let sql = sql.to_string();
        let mut a: Vec<String> = a.iter().map(|s| s.to_string()).collect();
        a.insert(0, "sql".into());
        a.push(sql);
        let refs: Vec<&str> = a.iter().map(|s| s.as_str()).collect();
        twinjit(&dir, &refs)
    };
    let udf_sql = "SELECT k, spread(hyp(a, b)) AS s, sum(band(a)) AS n FROM t GROUP BY k ORDER BY k";
    let sql_sql = "SELECT k, max(sqrt(a * a + b * b)) - min(sqrt(a * a + b * b)) AS s, \
                   sum(CASE WHEN a < 2.0 THEN 0 WHEN a < 5.0 THEN 1 ELSE 2 END) AS n FROM t GROUP BY k ORDER BY k";
    let (rc, with_udfs, err) = q(udf_sql, "t.csv");
    assert_eq!(rc, 0, "{err}");
    let (rc, builtin, err) = q(sql_sql, "t.csv");
    assert_eq!(rc, 0, "{err}");
    assert_eq!(with_udfs, builtin, "the same table printed");
    assert_eq!(with_udfs.lines().count(), 7, "a header, 3 rows, 3 rules:\n{with_udfs}");

    // --out writes Parquet; a second query reads it.
    let mut a = vec!["sql", "--udfs", "udfs.py", "--table", "t=t.csv", "--out", "r.parquet"];
    a.push("SELECT a, inv(a + 1.0) AS r FROM t");
    let (rc, out, err) = twinjit(&dir, &a);
    assert_eq!(rc, 0, "{err}");
    assert_eq!(out.trim(), "wrote 40 rows to r.parquet");
    let (rc, out, err) = twinjit(
        &dir,
        &[
            "sql",
            "--table",
            "r=r.parquet",
            "SELECT count(*) AS c, sum(CASE WHEN r = 1.0 / (a + 1.0) THEN 1 ELSE 0 END) AS same FROM r",
        ],
    );
    assert_eq!(rc, 0, "{err}");
    assert!(out.contains("| 40 | 40   |"), "{out}");
}

#[cfg(feature = "sql")]
#[test]
fn errors_are_clear() {
    let dir = scratch("err");
    let (rc, _, err) = twinjit(&dir, &["sql", "--udfs", "udfs.py", "--table", "t=t.csv", "SELECT inv(a) FROM t"]);
    assert_eq!(rc, 1);
    assert!(err.contains("twinjit UDF `inv` failed at row 0 of a batch of 40 (inv(0.0)): ZeroDivisionError"), "{err}");
    assert!(err.contains("udfs.py:"), "names the line: {err}");
    let (rc, _, err) = twinjit(&dir, &["sql", "--table", "t=t.csv", "SELEC 1"]);
    assert_eq!(rc, 1);
    assert!(err.contains("SQL error"), "{err}");
    let (rc, _, err) = twinjit(&dir, &["sql", "--table", "t=nope.parquet", "SELECT 1"]);
    assert_eq!(rc, 1);
    assert!(err.contains("--table t=nope.parquet: no such file or directory"), "{err}");
    let (rc, _, err) = twinjit(&dir, &["sql", "--table", "t", "SELECT 1"]);
    assert_eq!(rc, 1);
    assert!(err.contains("expected NAME=PATH"), "{err}");
    std::fs::write(dir.join("bad.py"), "from numba import njit\n\n@njit\ndef f(x):\n    return x +\n").unwrap();
    let (rc, _, err) = twinjit(&dir, &["sql", "--udfs", "bad.py", "SELECT 1"]);
    assert_eq!(rc, 1);
    assert!(err.contains("bad.py:5"), "twinjit's located diagnostic: {err}");
}

#[cfg(not(feature = "sql"))]
#[test]
fn without_the_feature_the_command_says_how_to_build_it() {
    let dir = scratch("nofeature");
    let (rc, _, err) = twinjit(&dir, &["sql", "SELECT 1"]);
    assert_eq!(rc, 1);
    assert!(err.contains("--features sql"), "{err}");
}
