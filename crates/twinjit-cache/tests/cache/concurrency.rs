//! Processes racing on one key leave one valid entry: the test re-executes its own binary as
//! the writers.

use std::path::Path;
use std::process::Command;

use twinjit_cache::{Cache, CacheOptions};

use crate::{files_in, fresh_cache, key};

const WRITER_ENV: &str = "TWINJIT_CACHE_TEST_WRITER_DIR";
const TEST_NAME: &str = "concurrency::writers_racing_on_one_key_leave_one_valid_entry";
const WRITERS: usize = 8;
const ROUNDS: usize = 40;

fn payload() -> Vec<u8> {
    // Large enough that a non-atomic write would be observed half-done.
    (0..64 * 1024).map(|i: u32| (i.wrapping_mul(2_654_435_761) >> 24) as u8).collect()
}

fn act_as_writer(dir: &Path) {
    let cache = Cache::open(dir, CacheOptions::default()).unwrap();
    let payload = payload();
    for round in 0..ROUNDS {
        cache.put(&key("f"), &payload).unwrap();
        let read = cache.get(&key("f")).unwrap();
        assert!(read.as_deref() == Some(&payload[..]), "round {round}: read back {:?} bytes", read.map(|r| r.len()));
    }
}

#[test]
fn writers_racing_on_one_key_leave_one_valid_entry() {
    if let Some(dir) = std::env::var_os(WRITER_ENV) {
        act_as_writer(Path::new(&dir));
        return;
    }
    let (_temp, cache) = fresh_cache(CacheOptions::default());
    let exe = std::env::current_exe().unwrap();
    let children: Vec<_> = (0..WRITERS)
        .map(|_| {
            Command::new(&exe)
                .args(["--exact", TEST_NAME, "--test-threads=1", "--nocapture"])
                .env(WRITER_ENV, cache.dir())
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for child in children {
        let output = child.wait_with_output().unwrap();
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(output.status.success(), "writer failed:\n{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
        assert!(stdout.contains("1 passed"), "the writer did not run the test:\n{stdout}");
    }
    assert_eq!(files_in(cache.dir()), [format!("{}.twjc", key("f").digest())], "exactly one entry, no temp files");
    assert_eq!(cache.get(&key("f")).unwrap(), Some(payload()));
    assert_eq!(cache.entries().len(), 1);
}
