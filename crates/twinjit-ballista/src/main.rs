//! `twinjit-ballista`: Ballista's scheduler and executor with twinjit linked in, so that plans
//! with twinjit UDFs (shipped as Numba source by the codecs of this crate) run on them.
//!
//!     twinjit-ballista scheduler [--bind HOST] [--port 50050]
//!     twinjit-ballista executor [--bind HOST] [--port 50051] [--grpc-port 50052]
//!                               [--scheduler-host localhost] [--scheduler-port 50050]
//!                               [--concurrent-tasks N] [--work-dir DIR]

use std::process::ExitCode;
use twinjit_ballista::{run_executor, run_scheduler, ExecutorOptions};

const USAGE: &str = "usage: twinjit-ballista scheduler [--bind HOST] [--port PORT]
       twinjit-ballista executor [--bind HOST] [--port PORT] [--grpc-port PORT] [--scheduler-host HOST]
                                 [--scheduler-port PORT] [--concurrent-tasks N] [--work-dir DIR]";

fn parse(args: &[String]) -> Result<(String, Vec<(String, String)>), String> {
    let (role, rest) = args.split_first().ok_or("give a role: scheduler or executor")?;
    let mut opts = Vec::new();
    let mut it = rest.iter();
    while let Some(k) = it.next() {
        let Some(name) = k.strip_prefix("--") else { return Err(format!("unexpected argument `{k}`")) };
        let v = it.next().ok_or_else(|| format!("`{k}` needs a value"))?;
        opts.push((name.to_string(), v.clone()));
    }
    Ok((role.clone(), opts))
}

fn get<T: std::str::FromStr>(opts: &[(String, String)], name: &str, default: T) -> Result<T, String> {
    match opts.iter().find(|(k, _)| k == name) {
        Some((_, v)) => v.parse().map_err(|_| format!("--{name}: bad value `{v}`")),
        None => Ok(default),
    }
}

async fn run(args: Vec<String>) -> Result<(), String> {
    let (role, opts) = parse(&args)?;
    let known: &[&str] = match role.as_str() {
        "scheduler" => &["bind", "port"],
        "executor" => {
            &["bind", "port", "grpc-port", "scheduler-host", "scheduler-port", "concurrent-tasks", "work-dir"]
        }
        other => return Err(format!("unknown role `{other}`")),
    };
    if let Some((k, _)) = opts.iter().find(|(k, _)| !known.contains(&k.as_str())) {
        return Err(format!("unknown option --{k} for the {role}"));
    }
    let bind: String = get(&opts, "bind", "127.0.0.1".to_string())?;
    let result = if role == "scheduler" {
        run_scheduler(&bind, get(&opts, "port", 50050)?).await
    } else {
        let concurrent: usize = get(&opts, "concurrent-tasks", 0)?;
        let work_dir: String = get(&opts, "work-dir", String::new())?;
        run_executor(ExecutorOptions {
            bind,
            port: get(&opts, "port", 50051)?,
            grpc_port: get(&opts, "grpc-port", 50052)?,
            scheduler_host: get(&opts, "scheduler-host", "localhost".to_string())?,
            scheduler_port: get(&opts, "scheduler-port", 50050)?,
            concurrent_tasks: (concurrent > 0).then_some(concurrent),
            work_dir: (!work_dir.is_empty()).then_some(work_dir),
        })
        .await
    };
    result.map_err(|e| format!("{role}: {e}"))
}

#[tokio::main]
async fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.is_empty() || args[0] == "--help" || args[0] == "-h" {
        println!("{USAGE}");
        return if args.is_empty() { ExitCode::from(2) } else { ExitCode::SUCCESS };
    }
    match run(args).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("twinjit-ballista: {e}\n{USAGE}");
            ExitCode::from(2)
        }
    }
}
