//! `twinjit sql`: a thin layer over `twinjit_datafusion::sql` (feature `sql`, which links
//! Apache DataFusion; the default build says how to get it).

use std::path::PathBuf;

#[cfg(feature = "sql")]
pub fn run(
    udfs: Vec<PathBuf>,
    tables: &[String],
    out: Option<PathBuf>,
    progress: Option<bool>,
    query: String,
) -> Result<String, String> {
    use twinjit_datafusion::sql;
    let tables =
        tables.iter().map(|t| sql::parse_table(t)).collect::<Result<Vec<_>, _>>().map_err(|e| e.to_string())?;
    let engine = twinjit::Engine::new(twinjit::Target::Host).map_err(|e| e.to_string())?;
    let req = sql::SqlRequest { udfs, tables, query, out, progress };
    let mut text = sql::run_blocking(&engine, &req).map_err(|e| format!("error: {e}"))?;
    if !text.ends_with('\n') {
        text.push('\n');
    }
    Ok(text)
}

#[cfg(not(feature = "sql"))]
pub fn run(
    _udfs: Vec<PathBuf>,
    _tables: &[String],
    _out: Option<PathBuf>,
    _progress: Option<bool>,
    _query: String,
) -> Result<String, String> {
    Err("error: this twinjit was built without SQL support (Apache DataFusion); build it with \
         `cargo build --release -p twinjit-cli --features sql`"
        .into())
}
