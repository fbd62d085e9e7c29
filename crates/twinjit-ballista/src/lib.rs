//! twinjit UDFs on a Ballista cluster.
//!
//! A query's plan travels from the client to the scheduler (logical plan) and from the
//! scheduler to the executors (physical plans). [`TwinjitLogicalCodec`] and
//! [`TwinjitPhysicalCodec`] wrap Ballista's default codecs and add one thing: a twinjit UDF is
//! encoded as its Numba module's name and source and the function's name, and decoded by loading
//! that module with a host engine (once per module and process; compiled code is kept in memory
//! and in the disk cache, for every function, so a restarted executor does not compile again).
//! So no executor has to register the functions beforehand: each compiles what arrives.
//!
//! The scheduler and the executors must run with these codecs: the `twinjit-ballista` binary
//! (`twinjit-ballista scheduler`, `twinjit-ballista executor`) is Ballista's with twinjit linked
//! in. The client uses [`client_state`] and registers its UDFs on the context it gets.

use ballista_core::serde::{BallistaLogicalExtensionCodec, BallistaPhysicalExtensionCodec};
use datafusion::arrow::datatypes::SchemaRef;
use datafusion::catalog::TableProvider;
use datafusion::common::{Result, TableReference};
use datafusion::datasource::file_format::FileFormatFactory;
use datafusion::error::DataFusionError;
use datafusion::execution::{SessionState, SessionStateBuilder, TaskContext};
use datafusion::logical_expr::{AggregateUDF, Extension, LogicalPlan, ScalarUDF};
use datafusion::physical_plan::ExecutionPlan;
use datafusion::prelude::SessionConfig;
use datafusion_proto::logical_plan::LogicalExtensionCodec;
use datafusion_proto::physical_plan::{PhysicalExtensionCodec, PhysicalProtoConverterExtension};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use twinjit_datafusion::{AggregateUdf, Origin, ScalarUdf, UdfModule};

/// The first bytes of an encoded twinjit UDF.
const MAGIC: &[u8; 8] = b"twinjit1";

/// Encodes where a UDF comes from: the magic, then the module name, the source and the
/// function name, each as a little-endian `u32` length and UTF-8 bytes.
pub fn encode_origin(o: &Origin, buf: &mut Vec<u8>) {
    buf.extend_from_slice(MAGIC);
    for s in [o.module_name.as_str(), &o.source, o.function.as_str()] {
        buf.extend_from_slice(&(s.len() as u32).to_le_bytes());
        buf.extend_from_slice(s.as_bytes());
    }
}

/// Reads what [`encode_origin`] wrote; `None` for other bytes (another codec's function).
pub fn decode_origin(buf: &[u8]) -> Option<Origin> {
    let mut rest = buf.strip_prefix(MAGIC.as_slice())?;
    let mut next = || -> Option<String> {
        let (len, tail) = rest.split_first_chunk::<4>()?;
        let len = u32::from_le_bytes(*len) as usize;
        let s = std::str::from_utf8(tail.get(..len)?).ok()?.to_string();
        rest = &tail[len..];
        Some(s)
    };
    let (module_name, source, function) = (next()?, next()?, next()?);
    Some(Origin { module_name, source: Arc::from(source), function })
}

/// The modules this process has loaded from plans, by (name, source).
type Loaded = Mutex<HashMap<(String, Arc<str>), Arc<UdfModule>>>;

fn modules() -> &'static Loaded {
    static MODULES: OnceLock<Loaded> = OnceLock::new();
    MODULES.get_or_init(Default::default)
}

fn engine() -> Result<&'static twinjit::Engine> {
    static ENGINE: OnceLock<twinjit::Engine> = OnceLock::new();
    if let Some(e) = ENGINE.get() {
        return Ok(e);
    }
    // Every function's compiled code goes to the disk cache (TWINJIT_CACHE_DIR, else
    // ~/.cache/twinjit), so a restarted executor does not compile a module's UDFs again.
    let options = twinjit::EngineOptions { cache: twinjit::CacheMode::Always, ..Default::default() };
    let e = twinjit::Engine::with_options(twinjit::Target::Host, options)
        .map_err(|e| DataFusionError::External(Box::new(e)))?;
    Ok(ENGINE.get_or_init(|| e))
}

/// The module an encoded UDF comes from, loaded once per process.
fn module_of(o: &Origin) -> Result<Arc<UdfModule>> {
    let key = (o.module_name.clone(), o.source.clone());
    if let Some(m) = modules().lock().unwrap().get(&key) {
        return Ok(m.clone());
    }
    let m = UdfModule::load(engine()?, &o.module_name, &o.source).map_err(|e| {
        DataFusionError::Plan(format!(
            "twinjit UDF `{}` arrived in a plan, but its module did not load: {e}",
            o.function
        ))
    })?;
    let m = Arc::new(m);
    modules().lock().unwrap().insert(key, m.clone());
    Ok(m)
}

fn encode_udf(node: &ScalarUDF, buf: &mut Vec<u8>) -> bool {
    match node.inner().downcast_ref::<ScalarUdf>() {
        Some(u) => {
            encode_origin(u.origin(), buf);
            true
        }
        None => false,
    }
}

fn encode_udaf(node: &AggregateUDF, buf: &mut Vec<u8>) -> bool {
    match node.inner().downcast_ref::<AggregateUdf>() {
        Some(u) => {
            encode_origin(u.origin(), buf);
            true
        }
        None => false,
    }
}

fn decode_udf(name: &str, buf: &[u8]) -> Option<Result<Arc<ScalarUDF>>> {
    let o = decode_origin(buf)?;
    Some(module_of(&o).and_then(|m| {
        m.scalar_udfs().iter().find(|u| u.name() == name).map(|u| Arc::new(u.clone())).ok_or_else(|| {
            DataFusionError::Plan(format!("twinjit module {} has no scalar UDF `{name}`", o.module_name))
        })
    }))
}

fn decode_udaf(name: &str, buf: &[u8]) -> Option<Result<Arc<AggregateUDF>>> {
    let o = decode_origin(buf)?;
    Some(module_of(&o).and_then(|m| {
        m.aggregate_udfs().iter().find(|u| u.name() == name).map(|u| Arc::new(u.clone())).ok_or_else(|| {
            DataFusionError::Plan(format!("twinjit module {} has no aggregate UDF `{name}`", o.module_name))
        })
    }))
}

/// The UDF methods both codecs share: twinjit's UDFs by source, the rest to Ballista's codec.
macro_rules! udf_methods {
    () => {
        fn try_decode_udf(&self, name: &str, buf: &[u8]) -> Result<Arc<ScalarUDF>> {
            decode_udf(name, buf).unwrap_or_else(|| self.inner.try_decode_udf(name, buf))
        }
        fn try_encode_udf(&self, node: &ScalarUDF, buf: &mut Vec<u8>) -> Result<()> {
            if encode_udf(node, buf) {
                Ok(())
            } else {
                self.inner.try_encode_udf(node, buf)
            }
        }
        fn try_decode_udaf(&self, name: &str, buf: &[u8]) -> Result<Arc<AggregateUDF>> {
            decode_udaf(name, buf).unwrap_or_else(|| self.inner.try_decode_udaf(name, buf))
        }
        fn try_encode_udaf(&self, node: &AggregateUDF, buf: &mut Vec<u8>) -> Result<()> {
            if encode_udaf(node, buf) {
                Ok(())
            } else {
                self.inner.try_encode_udaf(node, buf)
            }
        }
    };
}

/// Ballista's logical codec, with twinjit UDFs shipped by source.
#[derive(Debug, Default)]
pub struct TwinjitLogicalCodec {
    inner: BallistaLogicalExtensionCodec,
}

impl LogicalExtensionCodec for TwinjitLogicalCodec {
    fn try_decode(&self, buf: &[u8], inputs: &[LogicalPlan], ctx: &TaskContext) -> Result<Extension> {
        self.inner.try_decode(buf, inputs, ctx)
    }
    fn try_encode(&self, node: &Extension, buf: &mut Vec<u8>) -> Result<()> {
        self.inner.try_encode(node, buf)
    }
    fn try_decode_table_provider(
        &self,
        buf: &[u8],
        table_ref: &TableReference,
        schema: SchemaRef,
        ctx: &TaskContext,
    ) -> Result<Arc<dyn TableProvider>> {
        self.inner.try_decode_table_provider(buf, table_ref, schema, ctx)
    }
    fn try_encode_table_provider(
        &self,
        table_ref: &TableReference,
        node: Arc<dyn TableProvider>,
        buf: &mut Vec<u8>,
    ) -> Result<()> {
        self.inner.try_encode_table_provider(table_ref, node, buf)
    }
    fn try_decode_file_format(&self, buf: &[u8], ctx: &TaskContext) -> Result<Arc<dyn FileFormatFactory>> {
        self.inner.try_decode_file_format(buf, ctx)
    }
    fn try_encode_file_format(&self, buf: &mut Vec<u8>, node: Arc<dyn FileFormatFactory>) -> Result<()> {
        self.inner.try_encode_file_format(buf, node)
    }
    udf_methods!();
}

/// Ballista's physical codec, with twinjit UDFs shipped by source.
#[derive(Debug, Default)]
pub struct TwinjitPhysicalCodec {
    inner: BallistaPhysicalExtensionCodec,
}

impl PhysicalExtensionCodec for TwinjitPhysicalCodec {
    fn try_decode(
        &self,
        buf: &[u8],
        inputs: &[Arc<dyn ExecutionPlan>],
        ctx: &TaskContext,
        proto_converter: &dyn PhysicalProtoConverterExtension,
    ) -> Result<Arc<dyn ExecutionPlan>> {
        self.inner.try_decode(buf, inputs, ctx, proto_converter)
    }
    fn try_encode(
        &self,
        node: Arc<dyn ExecutionPlan>,
        buf: &mut Vec<u8>,
        proto_converter: &dyn PhysicalProtoConverterExtension,
    ) -> Result<()> {
        self.inner.try_encode(node, buf, proto_converter)
    }
    udf_methods!();
}

/// A client session state whose plans carry twinjit UDFs: pass it to
/// `SessionContext::remote_with_state(url, state)` (`ballista::prelude::SessionContextExt`),
/// then register the UDFs on the context that returns (Ballista resets the state's functions).
pub fn client_state() -> SessionState {
    use ballista::prelude::SessionConfigExt;
    let config = SessionConfig::new_with_ballista()
        .with_ballista_logical_extension_codec(Arc::new(TwinjitLogicalCodec::default()))
        .with_ballista_physical_extension_codec(Arc::new(TwinjitPhysicalCodec::default()));
    SessionStateBuilder::new().with_default_features().with_config(config).build()
}

/// Runs a Ballista scheduler with the twinjit codecs on `bind:port` until the process ends.
pub async fn run_scheduler(bind: &str, port: u16) -> std::result::Result<(), Box<dyn std::error::Error>> {
    use ballista_scheduler::{cluster::BallistaCluster, config::SchedulerConfig, scheduler_process::start_server};
    let config = SchedulerConfig {
        bind_host: bind.to_string(),
        bind_port: port,
        override_logical_codec: Some(Arc::new(TwinjitLogicalCodec::default())),
        override_physical_codec: Some(Arc::new(TwinjitPhysicalCodec::default())),
        ..Default::default()
    };
    let addr: std::net::SocketAddr = format!("{bind}:{port}").parse()?;
    let cluster = BallistaCluster::new_from_config(&config).await?;
    start_server(cluster, addr, Arc::new(config)).await?;
    Ok(())
}

/// Where an executor listens and which scheduler it serves.
#[derive(Debug, Clone)]
pub struct ExecutorOptions {
    /// The address to bind.
    pub bind: String,
    /// The Arrow Flight port (shuffle data).
    pub port: u16,
    /// The gRPC port.
    pub grpc_port: u16,
    /// The scheduler's host and port.
    pub scheduler_host: String,
    /// The scheduler's port.
    pub scheduler_port: u16,
    /// Tasks run at once (default: the CPUs).
    pub concurrent_tasks: Option<usize>,
    /// Where shuffle files go (default: a temporary directory).
    pub work_dir: Option<String>,
}

/// Runs a Ballista executor with the twinjit codecs until the process ends.
pub async fn run_executor(o: ExecutorOptions) -> std::result::Result<(), Box<dyn std::error::Error>> {
    use ballista_executor::executor_process::{start_executor_process, ExecutorProcessConfig};
    let defaults = ExecutorProcessConfig::default();
    let config = ExecutorProcessConfig {
        bind_host: o.bind,
        port: o.port,
        grpc_port: o.grpc_port,
        scheduler_host: o.scheduler_host,
        scheduler_port: o.scheduler_port,
        vcores: o.concurrent_tasks.unwrap_or(defaults.vcores),
        work_dir: o.work_dir,
        override_logical_codec: Some(Arc::new(TwinjitLogicalCodec::default())),
        override_physical_codec: Some(Arc::new(TwinjitPhysicalCodec::default())),
        ..defaults
    };
    start_executor_process(Arc::new(config)).await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_round_trip_and_other_bytes_are_not_ours() {
        let o = Origin {
            module_name: "u.py".into(),
            source: Arc::from("from numba import njit\n# é\n"),
            function: "f".into(),
        };
        let mut buf = Vec::new();
        encode_origin(&o, &mut buf);
        assert_eq!(decode_origin(&buf), Some(o));
        assert_eq!(decode_origin(b""), None);
        assert_eq!(decode_origin(b"twinjit1\xff\xff\xff\xff"), None, "a length past the end");
        assert_eq!(decode_origin(b"other codec's bytes"), None);
    }

    #[test]
    fn a_udf_decodes_from_its_bytes_alone() {
        let src = "from numba import njit\n\n@njit\ndef twice(x):\n    return 2 * x\n";
        let m = UdfModule::load(engine().unwrap(), "t.py", src).unwrap();
        let mut buf = Vec::new();
        assert!(encode_udf(&m.scalar_udfs()[0], &mut buf));
        let u = decode_udf("twice", &buf).unwrap().unwrap();
        assert_eq!(u.name(), "twice");
        let e = decode_udf("thrice", &buf).unwrap().unwrap_err().to_string();
        assert!(e.contains("has no scalar UDF `thrice`"), "{e}");
    }
}
