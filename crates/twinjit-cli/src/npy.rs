//! Reading and writing NumPy `.npy` files (format versions 1-3; `bool`, the signed and
//! unsigned integers of 8 to 64 bits, `float16`, `float32`, `float64`, `complex64` and `complex128`,
//! either byte order (big-endian
//! files are converted); C or Fortran order). Only this crate does file-format I/O.

use std::io::Write;
use twinjit::{f16, Complex32, Complex64};

/// An array read from a `.npy` file, in C order.
#[derive(Clone, Debug, PartialEq)]
pub enum NpyData {
    Bool(Vec<bool>),
    I32(Vec<i32>),
    I64(Vec<i64>),
    F32(Vec<f32>),
    F64(Vec<f64>),
    I8(Vec<i8>),
    I16(Vec<i16>),
    U8(Vec<u8>),
    U16(Vec<u16>),
    U32(Vec<u32>),
    U64(Vec<u64>),
    C64(Vec<Complex32>),
    C128(Vec<Complex64>),
    F16(Vec<f16>),
}

/// `$body` with `$v` bound to the vector of whichever variant `$data` is.
macro_rules! each_npy {
    ($data:expr, $v:ident => $body:expr) => {
        match $data {
            NpyData::Bool($v) => $body,
            NpyData::I32($v) => $body,
            NpyData::I64($v) => $body,
            NpyData::F32($v) => $body,
            NpyData::F64($v) => $body,
            NpyData::I8($v) => $body,
            NpyData::I16($v) => $body,
            NpyData::U8($v) => $body,
            NpyData::U16($v) => $body,
            NpyData::U32($v) => $body,
            NpyData::U64($v) => $body,
            NpyData::C64($v) => $body,
            NpyData::C128($v) => $body,
            NpyData::F16($v) => $body,
        }
    };
}
pub(crate) use each_npy;

/// `$body` on every variant of `$data`, rebuilt as the same variant.
macro_rules! map_npy {
    ($data:expr, $v:ident => $body:expr) => {
        match $data {
            NpyData::Bool($v) => NpyData::Bool($body),
            NpyData::I32($v) => NpyData::I32($body),
            NpyData::I64($v) => NpyData::I64($body),
            NpyData::F32($v) => NpyData::F32($body),
            NpyData::F64($v) => NpyData::F64($body),
            NpyData::I8($v) => NpyData::I8($body),
            NpyData::I16($v) => NpyData::I16($body),
            NpyData::U8($v) => NpyData::U8($body),
            NpyData::U16($v) => NpyData::U16($body),
            NpyData::U32($v) => NpyData::U32($body),
            NpyData::U64($v) => NpyData::U64($body),
            NpyData::C64($v) => NpyData::C64($body),
            NpyData::C128($v) => NpyData::C128($body),
            NpyData::F16($v) => NpyData::F16($body),
        }
    };
}

/// A fixed-size element of a `.npy` file.
trait NpyElem: Copy + Sized {
    const SIZE: usize;
    fn from_le(b: &[u8]) -> Self;
    fn put_le(self, out: &mut Vec<u8>);
    /// The element of big-endian bytes `b`.
    fn from_be(b: &[u8]) -> Self {
        let mut r = b.to_vec();
        r.reverse();
        Self::from_le(&r)
    }
}

// A complex element is two floats, each in the file's byte order.
macro_rules! npy_complex {
    ($($t:ty => $f:ty),*) => {$(
        impl NpyElem for $t {
            const SIZE: usize = 2 * std::mem::size_of::<$f>();
            fn from_le(b: &[u8]) -> Self {
                let (re, im) = b.split_at(Self::SIZE / 2);
                <$t>::new(<$f>::from_le(re), <$f>::from_le(im))
            }
            fn put_le(self, out: &mut Vec<u8>) {
                self.re.put_le(out);
                self.im.put_le(out);
            }
            fn from_be(b: &[u8]) -> Self {
                let (re, im) = b.split_at(Self::SIZE / 2);
                <$t>::new(<$f>::from_be(re), <$f>::from_be(im))
            }
        }
    )*};
}
npy_complex!(Complex32 => f32, Complex64 => f64);

macro_rules! npy_elem {
    ($($t:ty),*) => {$(
        impl NpyElem for $t {
            const SIZE: usize = std::mem::size_of::<$t>();
            fn from_le(b: &[u8]) -> Self {
                <$t>::from_le_bytes(b.try_into().expect("element size"))
            }
            fn put_le(self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes())
            }
        }
    )*};
}
npy_elem!(i8, i16, i32, i64, u8, u16, u32, u64, f32, f64, f16);

impl NpyElem for bool {
    const SIZE: usize = 1;
    fn from_le(b: &[u8]) -> Self {
        b[0] != 0
    }
    fn put_le(self, out: &mut Vec<u8>) {
        out.push(self as u8)
    }
}

/// The elements of `body` (little-endian, or big-endian when `swap`: each element's bytes
/// are reversed first).
fn elems<T: NpyElem>(body: &[u8], swap: bool) -> Vec<T> {
    body.chunks_exact(T::SIZE).map(|c| if swap { T::from_be(c) } else { T::from_le(c) }).collect()
}

impl NpyData {
    /// The `.npy` descriptor (little-endian).
    fn descr(&self) -> &'static str {
        match self {
            NpyData::Bool(_) => "|b1",
            NpyData::I32(_) => "<i4",
            NpyData::I64(_) => "<i8",
            NpyData::F32(_) => "<f4",
            NpyData::F64(_) => "<f8",
            NpyData::I8(_) => "|i1",
            NpyData::I16(_) => "<i2",
            NpyData::U8(_) => "|u1",
            NpyData::U16(_) => "<u2",
            NpyData::U32(_) => "<u4",
            NpyData::U64(_) => "<u8",
            NpyData::C64(_) => "<c8",
            NpyData::C128(_) => "<c16",
            NpyData::F16(_) => "<f2",
        }
    }
}

/// Data plus shape.
#[derive(Clone, Debug, PartialEq)]
pub struct Npy {
    pub data: NpyData,
    pub shape: Vec<usize>,
    /// The elements are in Fortran order (as the file stored them): passed to compiled code
    /// as a strided view, as NumPy would pass a Fortran-ordered array to Numba.
    pub fortran: bool,
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
    // Byte order: `<` little, `>` big, `|` not applicable, `=` native (little on every host
    // twinjit runs on).
    let (order, code) = match descr.chars().next() {
        Some(c @ ('<' | '>' | '|' | '=')) => (c, &descr[1..]),
        _ => ('<', descr),
    };
    let size: usize = match code {
        "b1" | "?" | "i1" | "u1" => 1,
        "i2" | "u2" | "f2" => 2,
        "i4" | "u4" | "f4" => 4,
        "i8" | "u8" | "f8" | "c8" => 8,
        "c16" => 16,
        other => {
            return Err(format!(
                "unsupported dtype `{other}` (supported: bool, int8 to int64, uint8 to uint64, float16, float32, float64, complex64, complex128)"
            ))
        }
    };
    let need = n.checked_mul(size).ok_or("shape too large")?;
    if body.len() < need {
        return Err(format!("file has {} data bytes but the shape needs {need}", body.len()));
    }
    let body = &body[..need];
    let swap = order == '>' && size > 1;
    let data = match code {
        "f8" => NpyData::F64(elems(body, swap)),
        "f4" => NpyData::F32(elems(body, swap)),
        "f2" => NpyData::F16(elems(body, swap)),
        "i8" => NpyData::I64(elems(body, swap)),
        "i4" => NpyData::I32(elems(body, swap)),
        "i2" => NpyData::I16(elems(body, swap)),
        "i1" => NpyData::I8(elems(body, swap)),
        "u8" => NpyData::U64(elems(body, swap)),
        "u4" => NpyData::U32(elems(body, swap)),
        "u2" => NpyData::U16(elems(body, swap)),
        "u1" => NpyData::U8(elems(body, swap)),
        "c8" => NpyData::C64(elems(body, swap)),
        "c16" => NpyData::C128(elems(body, swap)),
        _ => NpyData::Bool(elems(body, false)),
    };
    let fortran = fortran && shape.iter().filter(|&&d| d > 1).count() > 1;
    Ok(Npy { data, shape, fortran })
}

impl Npy {
    /// The same array with its elements in C order (for device arrays, which are C-ordered).
    #[cfg_attr(not(feature = "cuda"), allow(dead_code))]
    pub fn into_c_order(self) -> Npy {
        if !self.fortran {
            return self;
        }
        Npy { data: to_c_order(self.data, &self.shape), shape: self.shape, fortran: false }
    }
}

#[cfg_attr(not(feature = "cuda"), allow(dead_code))]
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
    map_npy!(data, v => reorder(v, shape))
}

/// Serialises an array (C order, format 1.0).
pub fn write(path: &std::path::Path, npy: &Npy) -> std::io::Result<()> {
    let descr = npy.data.descr();
    let shape = match npy.shape.len() {
        1 => format!("({},)", npy.shape[0]),
        _ => format!("({})", npy.shape.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(", ")),
    };
    let order = if npy.fortran { "True" } else { "False" };
    let mut header = format!("{{'descr': '{descr}', 'fortran_order': {order}, 'shape': {shape}, }}");
    // Pad so that the data starts at a multiple of 64 bytes, ending with a newline.
    let total = 10 + header.len() + 1;
    header.push_str(&" ".repeat((64 - total % 64) % 64));
    header.push('\n');
    let mut out = Vec::with_capacity(10 + header.len());
    out.extend_from_slice(b"\x93NUMPY\x01\x00");
    out.extend_from_slice(&(header.len() as u16).to_le_bytes());
    out.extend_from_slice(header.as_bytes());
    each_npy!(&npy.data, v => v.iter().for_each(|x| x.put_le(&mut out)));
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
        let a = Npy { data: NpyData::F64(vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0]), shape: vec![2, 3], fortran: false };
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
        let fa = parse(&f).unwrap();
        assert!(fa.fortran);
        assert_eq!(fa.clone().into_c_order(), a);
        // Written back in Fortran order, it reads the same.
        write(&p, &fa).unwrap();
        assert_eq!(parse(&std::fs::read(&p).unwrap()).unwrap(), fa);
        std::fs::remove_dir_all(dir).ok();
    }

    #[test]
    fn narrow_integers_and_big_endian() {
        let header = |descr: &str| {
            let h = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': (2,), }}\n");
            let mut b = b"\x93NUMPY\x01\x00".to_vec();
            b.extend_from_slice(&(h.len() as u16).to_le_bytes());
            b.extend_from_slice(h.as_bytes());
            b
        };
        let mut b = header(">u2");
        b.extend_from_slice(&[0x01, 0x02, 0xff, 0xfe]);
        assert_eq!(parse(&b).unwrap().data, NpyData::U16(vec![0x0102, 0xfffe]));
        let mut b = header("|i1");
        b.extend_from_slice(&[0xff, 0x7f]);
        assert_eq!(parse(&b).unwrap().data, NpyData::I8(vec![-1, 127]));
        let mut b = header(">i8");
        b.extend_from_slice(&(-2i64).to_be_bytes());
        b.extend_from_slice(&7i64.to_be_bytes());
        assert_eq!(parse(&b).unwrap().data, NpyData::I64(vec![-2, 7]));
        let dir = std::env::temp_dir().join(format!("twinjit-npy-u64-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("u.npy");
        let a = Npy { data: NpyData::U64(vec![u64::MAX, 3]), shape: vec![2], fortran: false };
        write(&p, &a).unwrap();
        assert_eq!(parse(&std::fs::read(&p).unwrap()).unwrap(), a);
        std::fs::remove_dir_all(dir).ok();
    }

    #[test]
    fn bad_files_are_errors() {
        assert!(parse(b"hello").is_err());
        assert!(parse(b"\x93NUMPY\x09\x00\x00\x00").unwrap_err().contains("version"));
        let mut b = b"\x93NUMPY\x01\x00".to_vec();
        let h = "{'descr': '<m8', 'fortran_order': False, 'shape': (1,), }\n";
        b.extend_from_slice(&(h.len() as u16).to_le_bytes());
        b.extend_from_slice(h.as_bytes());
        assert!(parse(&b).unwrap_err().contains("unsupported dtype"));
    }
}
