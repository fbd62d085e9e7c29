//! A Ballista cluster on loopback: a scheduler and two executors as separate `twinjit-ballista`
//! processes that were told nothing about the UDFs; a query with twinjit scalar UDFs and an
//! aggregate over a Parquet table of four files; its result equal to local DataFusion's (the
//! same query, and the same computation in built-in SQL). The test starts and stops the
//! processes itself, and every wait is bounded.

use ballista::prelude::SessionContextExt;
use datafusion::arrow::array::{Array, ArrayRef, Float64Array, Int64Array, RecordBatch};
use datafusion::parquet::arrow::ArrowWriter;
use datafusion::prelude::{ParquetReadOptions, SessionContext};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};
use twinjit_datafusion::UdfModule;

const UDFS: &str = "import math\nfrom numba import njit, vectorize\n\n\
@vectorize\ndef hyp(a, b):\n    return math.sqrt(a * a + b * b)\n\n\
@njit\ndef band(x):\n    if x < -5.0:\n        return 0\n    elif x < 5.0:\n        return 1\n    return 2\n\n\
@njit\ndef value_range(v):\n    return v.max() - v.min()\n";

/// The child processes, killed when the test ends however it ends.
struct Cluster {
    children: Vec<(String, Child)>,
    dir: PathBuf,
}

impl Drop for Cluster {
    fn drop(&mut self) {
        for (_, c) in &mut self.children {
            let _ = c.kill();
            let _ = c.wait();
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

impl Cluster {
    fn spawn(&mut self, name: &str, args: &[String]) {
        let log = std::fs::File::create(self.dir.join(format!("{name}.log"))).unwrap();
        let child = Command::new(env!("CARGO_BIN_EXE_twinjit-ballista"))
            .args(args)
            .env("TWINJIT_CACHE_DIR", self.dir.join("cache"))
            .stdout(Stdio::from(log.try_clone().unwrap()))
            .stderr(Stdio::from(log))
            .spawn()
            .expect("starts twinjit-ballista");
        self.children.push((name.to_string(), child));
    }

    /// Waits until `port` accepts connections; fails with the process logs if one has exited.
    fn wait_for(&mut self, port: u16, what: &str) {
        let t0 = Instant::now();
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            let exited = self
                .children
                .iter_mut()
                .find_map(|(name, c)| c.try_wait().ok().flatten().map(|s| format!("{name} exited ({s})")));
            if let Some(why) = exited {
                panic!("{why}: {}", self.logs());
            }
            assert!(t0.elapsed() < Duration::from_secs(60), "{what} did not listen on {port} in 60 s: {}", self.logs());
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    fn logs(&self) -> String {
        self.children
            .iter()
            .map(|(n, _)| {
                format!(
                    "\n--- {n}:\n{}",
                    std::fs::read_to_string(self.dir.join(format!("{n}.log"))).unwrap_or_default()
                )
            })
            .collect()
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// Four Parquet files of `rows` rows each: a group key, two floats.
fn write_table(dir: &Path, rows: usize) {
    std::fs::create_dir_all(dir).unwrap();
    for part in 0..4 {
        let base = part * rows;
        let k: Int64Array = (0..rows).map(|i| Some(((base + i) % 5) as i64)).collect();
        let x: Float64Array = (0..rows).map(|i| Some(((base + i) as f64 * 0.731).sin() * 10.0)).collect();
        let y: Float64Array = (0..rows).map(|i| Some(((base + i) % 97) as f64 - 48.0)).collect();
        let batch = RecordBatch::try_from_iter(vec![
            ("k", Arc::new(k) as ArrayRef),
            ("x", Arc::new(x) as ArrayRef),
            ("y", Arc::new(y) as ArrayRef),
        ])
        .unwrap();
        let mut w = ArrowWriter::try_new(
            std::fs::File::create(dir.join(format!("part-{part}.parquet"))).unwrap(),
            batch.schema(),
            None,
        )
        .unwrap();
        w.write(&batch).unwrap();
        w.close().unwrap();
    }
}

async fn run(ctx: &SessionContext, sql: &str) -> Vec<ArrayRef> {
    let batches = tokio::time::timeout(Duration::from_secs(120), async { ctx.sql(sql).await?.collect().await })
        .await
        .unwrap_or_else(|_| panic!("{sql}: no result in 120 s"))
        .unwrap_or_else(|e| panic!("{sql}: {e}"));
    let schema = batches[0].schema();
    (0..schema.fields().len())
        .map(|c| {
            let parts: Vec<&dyn Array> = batches.iter().map(|b| b.column(c).as_ref()).collect();
            datafusion::arrow::compute::concat(&parts).unwrap()
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn udfs_run_on_executors_that_never_saw_them() {
    let dir = std::env::temp_dir().join(format!("twinjit-ballista-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let table = dir.join("table");
    write_table(&table, 5000);
    let mut cluster = Cluster { children: Vec::new(), dir: dir.clone() };

    let sched = free_port();
    cluster.spawn("scheduler", &["scheduler".into(), "--port".into(), sched.to_string()]);
    cluster.wait_for(sched, "the scheduler");
    for e in 0..2 {
        let (port, grpc) = (free_port(), free_port());
        let work = dir.join(format!("work{e}"));
        std::fs::create_dir_all(&work).unwrap();
        let args: Vec<String> = [
            "executor",
            "--port",
            &port.to_string(),
            "--grpc-port",
            &grpc.to_string(),
            "--scheduler-port",
            &sched.to_string(),
            "--concurrent-tasks",
            "2",
            "--work-dir",
            &work.to_string_lossy(),
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        cluster.spawn(&format!("executor{e}"), &args);
        cluster.wait_for(port, "an executor");
    }

    let engine = twinjit::Engine::new(twinjit::Target::Host).unwrap();
    let udfs = UdfModule::load(&engine, "cluster_udfs.py", UDFS).unwrap();
    let remote =
        SessionContext::remote_with_state(&format!("df://127.0.0.1:{sched}"), twinjit_ballista::client_state())
            .await
            .unwrap();
    udfs.register(&remote);
    let local = SessionContext::new();
    udfs.register(&local);
    let path = table.to_string_lossy().to_string();
    for ctx in [&remote, &local] {
        ctx.register_parquet("t", &path, ParquetReadOptions::default()).await.unwrap();
    }

    let with_udfs = "SELECT k, value_range(x) AS r, sum(band(x)) AS b, round(sum(hyp(x, y)), 6) AS h, count(*) AS n \
                     FROM t GROUP BY k ORDER BY k";
    let builtin =
        "SELECT k, max(x) - min(x) AS r, sum(CASE WHEN x < -5.0 THEN 0 WHEN x < 5.0 THEN 1 ELSE 2 END) AS b, \
                   round(sum(sqrt(x * x + y * y)), 6) AS h, count(*) AS n FROM t GROUP BY k ORDER BY k";
    let on_cluster = run(&remote, with_udfs).await;
    let here = run(&local, with_udfs).await;
    let sql = run(&local, builtin).await;
    assert_eq!(on_cluster[0].len(), 5, "five groups: {}", cluster.logs());
    assert_eq!(on_cluster, here, "the cluster's result is local DataFusion's");
    // The built-in spelling: the same ranges, bands and counts (the float sum is rounded: its
    // order of addition is the plan's either way).
    for c in [0, 1, 2, 4] {
        assert_eq!(on_cluster[c].as_ref(), sql[c].as_ref(), "column {c}");
    }
    let n: i64 = on_cluster[4].as_any().downcast_ref::<Int64Array>().unwrap().values().iter().sum();
    assert_eq!(n, 20_000);

    // The executors' engines keep what they compiled in the disk cache (a restarted executor
    // does not compile again).
    assert!(count_files(&dir.join("cache")) > 0, "nothing in the executors' disk cache");
    // Both executors ran tasks of the job: each wrote shuffle files into its work directory.
    for e in 0..2 {
        let files = count_files(&dir.join(format!("work{e}")));
        assert!(files > 0, "executor{e} wrote no shuffle files: {}", cluster.logs());
    }
    drop(cluster);
}

fn count_files(dir: &Path) -> usize {
    std::fs::read_dir(dir)
        .map(|entries| {
            entries.filter_map(|e| e.ok()).map(|e| if e.path().is_dir() { count_files(&e.path()) } else { 1 }).sum()
        })
        .unwrap_or(0)
}
