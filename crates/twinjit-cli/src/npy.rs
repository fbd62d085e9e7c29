//! Reading and writing NumPy `.npy` files (format versions 1-3, little-endian `bool int32
//! int64 float32 float64`, C or Fortran order). Only this crate does file-format I/O.

use std::io::Write;

/// An array read from a `.npy` file, in C order.
#[derive(Clone, Debug, PartialEq)]
pub enum NpyData {
    Bool(Vec<bool>),
    I32(Vec<i32>),
    I64(Vec<i64>),
    F32(Vec<f32>),
    F64(Vec<f64>),
}

/// Data plus shape.
#[derive(Clone, Debug, PartialEq)]
pub struct Npy {
    pub data: NpyData,
    pub shape: Vec<usize>,
}

fn header_value<'a>(header: &'a str, key: &str) -> Option<&'a str> {
    let k = header.find(&format!("'{key}'"))?;
    let rest = header[k + key.len() + 2..].trim_start().strip_prefix(':')?.trim_start();
    Some(rest)
}

/// Parses `.npy` bytes; the error says what is wrong.
pub fn parse(bytes: &[u8]) -> Result<Npy, String> {
    if bytes.len() < 10 || &bytes[..6] != b"\x93NUMPY" {
        return Err("not a .npy file (bad magic)".into());
    }
    let major = bytes[6];
    let (hlen, start) = match major {
        1 => (u16::from_le_bytes([bytes[8], bytes[9]]) as usize, 10),
        2 | 3 => {
            if bytes.len() < 12 {
                return Err("truncated header".into());
            }
            (u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize, 12)
        }
        v => return Err(format!("unsupported .npy version {v}")),
    };
    let header = bytes.get(start..start + hlen).ok_or("truncated header")?;
    let header = std::str::from_utf8(header).map_err(|_| "header is not text")?;
    let descr = header_value(header, "descr").ok_or("header has no 'descr'")?;
    let descr = descr.trim_start_matches(['\'', '"']);
    let descr = &descr[..descr.find(['\'', '"']).ok_or("bad 'descr'")?];
    let fortran = header_value(header, "fortran_order").ok_or("header has no 'fortran_order'")?.starts_with("True");
    let shape_text = header_value(header, "shape").ok_or("header has no 'shape'")?;
    let inner = shape_text.strip_prefix('(').and_then(|s| s.split(')').next()).ok_or("bad 'shape'")?;
    let shape: Vec<usize> = inner
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| s.trim_end_matches('L').parse::<usize>().map_err(|_| format!("bad dimension `{s}`")))
        .collect::<Result<_, _>>()?;
    let n = shape.iter().try_fold(1usize, |a, &d| a.checked_mul(d)).ok_or("shape too large")?;
    let body = &bytes[start + hlen..];
    let (size, data) = match descr {
        "<f8" | "f8" => (8, 'd'),
        "<f4" | "f4" => (4, 'f'),
        "<i8" | "i8" => (8, 'l'),
        "<i4" | "i4" => (4, 'i'),
        "|b1" | "b1" | "?" => (1, 'b'),
        other => return Err(format!("unsupported dtype `{other}` (supported: float64, float32, int64, int32, bool)")),
    };
    let need = n.checked_mul(size).ok_or("shape too large")?;
    if body.len() < need {
        return Err(format!("file has {} data bytes but the shape needs {need}", body.len()));
    }
    let body = &body[..need];
    let mut data = match data {
        'd' => NpyData::F64(body.chunks_exact(8).map(|c| f64::from_le_bytes(c.try_into().unwrap())).collect()),
        'f' => NpyData::F32(body.chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().unwrap())).collect()),
        'l' => NpyData::I64(body.chunks_exact(8).map(|c| i64::from_le_bytes(c.try_into().unwrap())).collect()),
        'i' => NpyData::I32(body.chunks_exact(4).map(|c| i32::from_le_bytes(c.try_into().unwrap())).collect()),
        _ => NpyData::Bool(body.iter().map(|&b| b != 0).collect()),
    };
    if fortran && shape.len() > 1 {
        data = to_c_order(data, &shape);
    }
    Ok(Npy { data, shape })
}

fn to_c_order(data: NpyData, shape: &[usize]) -> NpyData {
    fn reorder<T: Copy>(v: Vec<T>, shape: &[usize]) -> Vec<T> {
        let n = v.len();
        let mut out = Vec::with_capacity(n);
        for flat in 0..n {
            // C-order multi-index of `flat`, then its Fortran-order offset.
            let mut rem = flat;
            let mut idx = vec![0usize; shape.len()];
            for k in (0..shape.len()).rev() {
                idx[k] = rem % shape[k];
                rem /= shape[k];
            }
            let mut off = 0;
            let mut stride = 1;
            for k in 0..shape.len() {
                off += idx[k] * stride;
                stride *= shape[k];
            }
            out.push(v[off]);
        }
        out
    }
    match data {
        NpyData::Bool(v) => NpyData::Bool(reorder(v, shape)),
        NpyData::I32(v) => NpyData::I32(reorder(v, shape)),
        NpyData::I64(v) => NpyData::I64(reorder(v, shape)),
        NpyData::F32(v) => NpyData::F32(reorder(v, shape)),
        NpyData::F64(v) => NpyData::F64(reorder(v, shape)),
    }
}

/// Serialises an array (C order, format 1.0).
pub fn write(path: &std::path::Path, npy: &Npy) -> std::io::Result<()> {
    let descr = match npy.data {
        NpyData::Bool(_) => "|b1",
        NpyData::I32(_) => "<i4",
        NpyData::I64(_) => "<i8",
        NpyData::F32(_) => "<f4",
        NpyData::F64(_) => "<f8",
    };
    let shape = match npy.shape.len() {
        1 => format!("({},)", npy.shape[0]),
        _ => format!("({})", npy.shape.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(", ")),
    };
    let mut header = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape}, }}");
    // Pad so that the data starts at a multiple of 64 bytes, ending with a newline.
    let total = 10 + header.len() + 1;
    header.push_str(&" ".repeat((64 - total % 64) % 64));
    header.push('\n');
    let mut out = Vec::with_capacity(10 + header.len());
    out.extend_from_slice(b"\x93NUMPY\x01\x00");
    out.extend_from_slice(&(header.len() as u16).to_le_bytes());
    out.extend_from_slice(header.as_bytes());
    match &npy.data {
        NpyData::Bool(v) => out.extend(v.iter().map(|&b| b as u8)),
        NpyData::I32(v) => v.iter().for_each(|x| out.extend_from_slice(&x.to_le_bytes())),
        NpyData::I64(v) => v.iter().for_each(|x| out.extend_from_slice(&x.to_le_bytes())),
        NpyData::F32(v) => v.iter().for_each(|x| out.extend_from_slice(&x.to_le_bytes())),
        NpyData::F64(v) => v.iter().for_each(|x| out.extend_from_slice(&x.to_le_bytes())),
    }
    let tmp = path.with_extension("npy.tmp");
    std::fs::File::create(&tmp)?.write_all(&out)?;
    std::fs::rename(tmp, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roundtrip_and_fortran_order() {
        let dir = std::env::temp_dir().join(format!("twinjit-npy-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("a.npy");
        let a = Npy { data: NpyData::F64(vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0]), shape: vec![2, 3] };
        write(&p, &a).unwrap();
        let bytes = std::fs::read(&p).unwrap();
        assert_eq!((10 + u16::from_le_bytes([bytes[8], bytes[9]]) as usize) % 64, 0);
        assert_eq!(parse(&bytes).unwrap(), a);
        // The same 2x3 matrix stored in Fortran order reads back in C order.
        let end = 10 + u16::from_le_bytes([bytes[8], bytes[9]]) as usize;
        let mut f = bytes.clone();
        let h = String::from_utf8_lossy(&f[10..end]).replace("False", "True ");
        f[10..end].copy_from_slice(h.as_bytes());
        let body: Vec<u8> = [1.0f64, 4.0, 2.0, 5.0, 3.0, 6.0].iter().flat_map(|x| x.to_le_bytes()).collect();
        f.truncate(end);
        f.extend(body);
        assert_eq!(parse(&f).unwrap(), a);
        std::fs::remove_dir_all(dir).ok();
    }

    #[test]
    fn bad_files_are_errors() {
        assert!(parse(b"hello").is_err());
        assert!(parse(b"\x93NUMPY\x09\x00\x00\x00").unwrap_err().contains("version"));
        let mut b = b"\x93NUMPY\x01\x00".to_vec();
        let h = "{'descr': '<c16', 'fortran_order': False, 'shape': (1,), }\n";
        b.extend_from_slice(&(h.len() as u16).to_le_bytes());
        b.extend_from_slice(h.as_bytes());
        assert!(parse(&b).unwrap_err().contains("unsupported dtype"));
    }
}
