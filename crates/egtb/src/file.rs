//! The file of one slice.
//!
//! A slice is stored in `russian-WMWKBMBK.egtb`, the four digits counting white men, white
//! kings, black men and black kings (`russian-0301.egtb`: three white kings against one black
//! king). The file is a header of 40 bytes, all numbers little-endian, then the values:
//!
//! | offset | bytes | content |
//! | --- | --- | --- |
//! | 0 | 8 | `BSHNEGTB` |
//! | 8 | 2 | format version, 1 |
//! | 10 | 1 | game: 1 for Russian draughts |
//! | 11 | 4 | the signature: white men, white kings, black men, black kings |
//! | 15 | 1 | 0 |
//! | 16 | 8 | how many values (positions of the numbering, both sides to move) |
//! | 24 | 8 | how many bytes of compressed values follow the header |
//! | 32 | 8 | checksum (64-bit FNV-1a) of the values |
//! | 40 | ... | the values, one byte each in the order of the numbering, compressed by deflate |
//!
//! A value byte is a distance in plies (even: lost for the side to move, odd: won), 254 for a
//! slot that is no position, 255 for a draw (see the crate notes).

use std::fmt;
use std::fs;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use flate2::Compression;
use flate2::read::DeflateDecoder;
use flate2::write::DeflateEncoder;

use crate::index::{Layout, Signature};

const MAGIC: &[u8; 8] = b"BSHNEGTB";
const VERSION: u16 = 1;
const RUSSIAN: u8 = 1;
const HEADER: usize = 40;

/// What went wrong with the tables.
#[derive(Debug)]
pub enum EgtbError {
    /// A file or directory could not be read or written.
    Io {
        /// The file or directory.
        path: PathBuf,
        /// What the system said.
        error: std::io::Error,
    },
    /// A file is not a good slice: truncated, damaged or of another kind.
    BadFile {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// A slice was asked for before a slice its moves lead into.
    MissingSlice {
        /// The slice being built or checked.
        slice: Signature,
        /// The slice it needs.
        needs: Signature,
    },
    /// More pieces than the numbering allows.
    TooManyPieces(u32),
    /// A directory given to an engine holds no slice.
    NoTables(PathBuf),
    /// A material where a side has no piece: no slice, the game is over.
    NotASlice(Signature),
    /// A slice with more positions than the solver can number (2^32).
    TooLarge {
        /// The slice.
        slice: Signature,
        /// Its slots.
        slots: u64,
    },
}

impl fmt::Display for EgtbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EgtbError::Io { path, error } => write!(f, "{}: {error}", path.display()),
            EgtbError::BadFile { path, reason } => {
                write!(f, "{}: not a good endgame table: {reason}", path.display())
            }
            EgtbError::MissingSlice { slice, needs } => {
                write!(f, "slice {slice} needs slice {needs}, which is not there")
            }
            EgtbError::TooManyPieces(pieces) => write!(
                f,
                "{pieces} pieces: the tables go up to {} pieces",
                crate::index::MAX_PIECES
            ),
            EgtbError::TooLarge { slice, slots } => write!(
                f,
                "slice {slice} has {slots} positions, more than the solver can number"
            ),
            EgtbError::NoTables(dir) => write!(
                f,
                "{} holds no endgame tables (make them with `bashni egtb build --dir {}`)",
                dir.display(),
                dir.display()
            ),
            EgtbError::NotASlice(signature) => write!(
                f,
                "{signature} is no slice: each side needs a piece on the board"
            ),
        }
    }
}

impl std::error::Error for EgtbError {}

/// The 64-bit FNV-1a checksum of `bytes`.
fn checksum(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xCBF2_9CE4_8422_2325, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01B3)
    })
}

/// The file name of `signature`'s slice.
pub fn file_name(signature: Signature) -> String {
    format!("russian-{}.egtb", signature.code())
}

/// The signature named by a slice's file name, if it is one.
pub(crate) fn signature_of_name(name: &str) -> Option<Signature> {
    let code = name.strip_prefix("russian-")?.strip_suffix(".egtb")?;
    Signature::from_code(code)
}

fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> EgtbError + '_ {
    move |error| EgtbError::Io {
        path: path.to_path_buf(),
        error,
    }
}

/// Writes the values of `signature` to `path`, through a temporary file renamed at the end so
/// that an interrupted write leaves no half file under the slice's name. Returns the size of
/// the file.
pub(crate) fn write_slice(
    path: &Path,
    signature: Signature,
    values: &[u8],
) -> Result<u64, EgtbError> {
    let mut encoder = DeflateEncoder::new(Vec::new(), Compression::default());
    encoder.write_all(values).map_err(io_error(path))?;
    let compressed = encoder.finish().map_err(io_error(path))?;
    let mut bytes = Vec::with_capacity(HEADER + compressed.len());
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&VERSION.to_le_bytes());
    bytes.push(RUSSIAN);
    bytes.extend_from_slice(&[
        signature.white_men,
        signature.white_kings,
        signature.black_men,
        signature.black_kings,
        0,
    ]);
    bytes.extend_from_slice(&(values.len() as u64).to_le_bytes());
    bytes.extend_from_slice(&(compressed.len() as u64).to_le_bytes());
    bytes.extend_from_slice(&checksum(values).to_le_bytes());
    bytes.extend_from_slice(&compressed);
    let temporary = path.with_extension("egtb.part");
    fs::write(&temporary, &bytes).map_err(io_error(&temporary))?;
    fs::rename(&temporary, path).map_err(io_error(path))?;
    Ok(bytes.len() as u64)
}

/// Reads the slice in `path`: its signature and values, each check failing with a sentence.
pub(crate) fn read_slice(path: &Path) -> Result<(Signature, Box<[u8]>), EgtbError> {
    let bad = |reason: String| EgtbError::BadFile {
        path: path.to_path_buf(),
        reason,
    };
    let bytes = fs::read(path).map_err(io_error(path))?;
    if bytes.len() < HEADER {
        return Err(bad(format!(
            "{} bytes, shorter than the header of {HEADER}",
            bytes.len()
        )));
    }
    if &bytes[..8] != MAGIC {
        return Err(bad("it does not start with BSHNEGTB".into()));
    }
    let number = |at: usize| {
        let mut word = [0u8; 8];
        word.copy_from_slice(&bytes[at..at + 8]);
        u64::from_le_bytes(word)
    };
    let version = u16::from_le_bytes([bytes[8], bytes[9]]);
    if version != VERSION {
        return Err(bad(format!("format version {version}, not {VERSION}")));
    }
    if bytes[10] != RUSSIAN {
        return Err(bad(format!("game {}, not Russian draughts", bytes[10])));
    }
    let signature = Signature {
        white_men: bytes[11],
        white_kings: bytes[12],
        black_men: bytes[13],
        black_kings: bytes[14],
    };
    if !signature.fits() || signature.pieces_of(bashni_rules::Color::White) == 0 {
        return Err(bad("the header's material is not a slice".into()));
    }
    if signature.pieces_of(bashni_rules::Color::Black) == 0 {
        return Err(bad("the header's material is not a slice".into()));
    }
    if let Some(named) = path
        .file_name()
        .and_then(|n| n.to_str())
        .and_then(signature_of_name)
        && named != signature
    {
        return Err(bad(format!(
            "the header holds {signature}, the name says {named}"
        )));
    }
    let count = number(16);
    let expected = Layout::new(signature).len();
    if count != expected {
        return Err(bad(format!(
            "{count} values, but {signature} has {expected}"
        )));
    }
    let compressed = number(24);
    let available = (bytes.len() - HEADER) as u64;
    if compressed != available {
        return Err(bad(format!(
            "the header announces {compressed} bytes of values, the file holds {available} (truncated?)"
        )));
    }
    let mut values = Vec::with_capacity(count as usize);
    DeflateDecoder::new(&bytes[HEADER..])
        .take(count + 1)
        .read_to_end(&mut values)
        .map_err(|e| bad(format!("the values cannot be unpacked: {e}")))?;
    if values.len() as u64 != count {
        return Err(bad(format!(
            "the values unpack to {} bytes, not {count}",
            values.len()
        )));
    }
    if checksum(&values) != number(32) {
        return Err(bad(
            "the checksum does not match: the file is damaged".into()
        ));
    }
    Ok((signature, values.into_boxed_slice()))
}
