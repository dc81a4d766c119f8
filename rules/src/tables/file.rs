//! The table file format: a header naming what the table is, then its values, bit-packed in
//! little-endian 64-bit words that start on a multiple of 8 bytes (so that a reader may use
//! them in place).
//!
//! All numbers are little-endian.
//!
//! | bytes | field |
//! |---|---|
//! | 8 | magic `ARBTB\r\n\x1a` |
//! | 2 | format version (2) |
//! | 1 + n | variant id: length, then the bytes |
//! | 1 + n | material name ([`Material::name`]): length, then the bytes |
//! | 8 | rules fingerprint ([`fingerprint`]) |
//! | 8 | number of indices |
//! | 1 | bits per game-theoretic value |
//! | 4 | CRC-32 of the game-theoretic values' words |
//! | 8 | number of those words |
//! | 8 | digits of the values under the counting rules (0: the file has none) |
//! | 1 | bits per value under the counting rules |
//! | 4 | CRC-32 of their words |
//! | 8 | number of those words |
//! | 0-7 | zeros, up to a multiple of 8 bytes from the start |
//! | 8 × w | the game-theoretic values: index `i`'s code in bits `i * b .. (i + 1) * b` |
//! | 8 × w | the values under the counting rules: index `i` with digit `d` at `i * digits + d` |
//!
//! A game-theoretic code is 0 for an index that is no position, 1 for a draw, `2 + 2n` for a
//! win in `n` plies and `3 + 2n` for a loss in `n` plies, for the side to move. A code under
//! the counting rules is the same with `n` the budget the result needs
//! ([`super::counted`]).

use std::fmt;
use std::sync::Arc;

use crate::material::Material;
use crate::variant::Variant;

use super::clocks::Model;
use super::numbering::Numbering;
use super::table::{fingerprint, Packed, RuleCodes, SharedBytes, Table, Words};

const MAGIC: &[u8; 8] = b"ARBTB\r\n\x1a";
const VERSION: u16 = 2;

/// Why a table file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableFileError(String);

impl fmt::Display for TableFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for TableFileError {}

fn err<T>(s: impl Into<String>) -> Result<T, TableFileError> {
    Err(TableFileError(s.into()))
}

struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], TableFileError> {
        if self.0.len() < n {
            return err("the file is truncated");
        }
        let (a, b) = self.0.split_at(n);
        self.0 = b;
        Ok(a)
    }

    fn u8(&mut self) -> Result<u8, TableFileError> {
        Ok(self.take(1)?[0])
    }

    fn u16(&mut self) -> Result<u16, TableFileError> {
        Ok(u16::from_le_bytes(
            self.take(2)?.try_into().unwrap_or_default(),
        ))
    }

    fn u32(&mut self) -> Result<u32, TableFileError> {
        Ok(u32::from_le_bytes(
            self.take(4)?.try_into().unwrap_or_default(),
        ))
    }

    fn u64(&mut self) -> Result<u64, TableFileError> {
        Ok(u64::from_le_bytes(
            self.take(8)?.try_into().unwrap_or_default(),
        ))
    }

    fn text(&mut self) -> Result<&'a str, TableFileError> {
        let n = self.u8()? as usize;
        std::str::from_utf8(self.take(n)?).or_else(|_| err("a header name is not UTF-8"))
    }
}

/// Packed words from bytes (a multiple of 8 long).
fn bytes_words(bytes: &[u8]) -> Vec<u64> {
    bytes
        .chunks_exact(8)
        .map(|c| u64::from_le_bytes(c.try_into().unwrap_or_default()))
        .collect()
}

impl Table {
    /// The table in the file format.
    pub fn to_bytes(&self) -> Vec<u8> {
        let values = self.words.to_le_bytes();
        let rules = self
            .rules
            .as_ref()
            .map(|r| (r.digits, r.packed.bits, r.packed.words.to_le_bytes()));
        let mut out = Vec::with_capacity(96 + values.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        for name in [self.variant.id().to_string(), self.material.name()] {
            out.push(name.len() as u8);
            out.extend_from_slice(name.as_bytes());
        }
        out.extend_from_slice(&fingerprint(self.variant).to_le_bytes());
        out.extend_from_slice(&self.size().to_le_bytes());
        out.push(self.bits as u8);
        out.extend_from_slice(&crc32fast::hash(&values).to_le_bytes());
        out.extend_from_slice(&(self.words.len() as u64).to_le_bytes());
        let (digits, bits, body) = rules.unwrap_or((0, 0, Vec::new()));
        out.extend_from_slice(&digits.to_le_bytes());
        out.push(bits as u8);
        out.extend_from_slice(&crc32fast::hash(&body).to_le_bytes());
        out.extend_from_slice(&((body.len() / 8) as u64).to_le_bytes());
        while out.len() % 8 != 0 {
            out.push(0);
        }
        out.extend_from_slice(&values);
        out.extend_from_slice(&body);
        out
    }

    /// Reads a table of `variant` written by [`Table::to_bytes`], refusing a file of another
    /// variant, of rules other than the variant's (the fingerprint), or damaged. The table
    /// holds a copy of the values.
    pub fn from_bytes(variant: &'static Variant, bytes: &[u8]) -> Result<Table, TableFileError> {
        let f = parse(variant, bytes)?;
        Ok(assemble(variant, f, |at, len| {
            Words::Owned(bytes_words(&bytes[at..at + len * 8]))
        }))
    }

    /// Reads a table as [`Table::from_bytes`] does (every check, the checksums included, which
    /// reads the file once), but keeps no copy: the table reads its values in place from
    /// `bytes`, a memory map of the file for instance. Its [`Table::bytes`] is then 0.
    pub fn from_shared(
        variant: &'static Variant,
        bytes: SharedBytes,
    ) -> Result<Table, TableFileError> {
        let data: &[u8] = (*bytes).as_ref();
        let f = parse(variant, data)?;
        Ok(assemble(variant, f, |start, len| Words::Shared {
            bytes: Arc::clone(&bytes),
            start,
            len,
        }))
    }

    /// Checks a file of `variant` as [`Table::from_bytes`] does (header, rules fingerprint,
    /// lengths and checksums) without reading its values into a table: the material it holds.
    pub fn check_bytes(
        variant: &'static Variant,
        bytes: &[u8],
    ) -> Result<Material, TableFileError> {
        parse(variant, bytes).map(|f| f.material)
    }
}

/// A table file, its header read and checked, its checksums verified.
struct Parsed {
    material: Material,
    numbering: Numbering,
    bits: u32,
    /// The game-theoretic values: their first byte and their number of words.
    body: (usize, usize),
    rule_digits: u64,
    rule_bits: u32,
    /// The values under the counting rules, likewise.
    rule_body: (usize, usize),
}

/// The table of a parsed file, its words made by `words(first byte, number of words)`.
fn assemble(
    variant: &'static Variant,
    f: Parsed,
    mut words: impl FnMut(usize, usize) -> Words,
) -> Table {
    let values = words(f.body.0, f.body.1);
    let mut t = Table::from_words(variant, f.material, f.numbering, f.bits, values);
    if f.rule_digits > 0 {
        t.rules = Some(RuleCodes {
            digits: f.rule_digits,
            packed: Packed {
                bits: f.rule_bits,
                words: words(f.rule_body.0, f.rule_body.1),
            },
        });
        t.model = Some(Model::of(variant, &f.material));
    }
    t
}

fn parse(variant: &'static Variant, bytes: &[u8]) -> Result<Parsed, TableFileError> {
    let mut r = Reader(bytes);
    if r.take(8)? != MAGIC {
        return err("not an Arbiter endgame table");
    }
    let version = r.u16()?;
    if version != VERSION {
        return err(format!(
            "format version {version}, this build reads {VERSION}"
        ));
    }
    let id = r.text()?;
    if id != variant.id() {
        return err(format!("a table of {id}, not of {}", variant.id()));
    }
    let name = r.text()?;
    let material =
        Material::parse(name).ok_or_else(|| TableFileError(format!("bad material {name:?}")))?;
    if r.u64()? != fingerprint(variant) {
        return err(format!(
            "built under other rules of {id} than this build's (rules fingerprint differs)"
        ));
    }
    let size = r.u64()?;
    let numbering = Numbering::new(variant, &material)
        .ok_or_else(|| TableFileError(format!("material {name} has no positions in {id}")))?;
    if numbering.size() != size {
        return err(format!(
            "{size} indices where {name} has {}",
            numbering.size()
        ));
    }
    let bits = u32::from(r.u8()?);
    if !(1..=16).contains(&bits) {
        return err(format!("{bits} bits per value"));
    }
    let crc = r.u32()?;
    let words = r.u64()?;
    let rule_digits = r.u64()?;
    let rule_bits = u32::from(r.u8()?);
    let rule_crc = r.u32()?;
    let rule_words = r.u64()?;
    let at = bytes.len() - r.0.len();
    r.take(at.next_multiple_of(8) - at)?;
    if words != (size * u64::from(bits)).div_ceil(64) {
        return err("the values' length does not match the header");
    }
    let rules_expected = if rule_digits == 0 {
        0
    } else {
        if !(1..=16).contains(&rule_bits) || rule_digits > 1 << 16 {
            return err("bad header of the values under the counting rules");
        }
        (size * rule_digits * u64::from(rule_bits)).div_ceil(64)
    };
    if rule_words != rules_expected || (words + rule_words) * 8 != r.0.len() as u64 {
        return err("the values' length does not match the header");
    }
    let body_at = bytes.len() - r.0.len();
    let body = r.take(words as usize * 8)?;
    if crc32fast::hash(body) != crc {
        return err("checksum mismatch: the file is damaged");
    }
    let rule_body = r.take(rule_words as usize * 8)?;
    if crc32fast::hash(rule_body) != rule_crc {
        return err("checksum mismatch: the file is damaged");
    }
    Ok(Parsed {
        material,
        numbering,
        bits,
        body: (body_at, words as usize),
        rule_digits,
        rule_bits,
        rule_body: (body_at + body.len(), rule_words as usize),
    })
}

#[cfg(test)]
mod tests {
    use super::super::{Material, Tables};
    use super::*;

    #[test]
    fn a_table_reads_back_and_damage_is_refused() {
        let v = crate::variant("english").unwrap();
        let mut tables = Tables::new(v).unwrap();
        let m = Material::parse("KKvK").unwrap();
        tables.build(m, &mut |_| {}).unwrap();
        let t = tables.get(&m).unwrap();
        let bytes = t.to_bytes();
        let back = Table::from_bytes(v, &bytes).unwrap();
        assert_eq!(back.stats(), t.stats());
        assert_eq!(back.to_bytes(), bytes);
        assert!(t.stats().wins > 0 && t.stats().losses > 0);

        let mut damaged = bytes.clone();
        let last = damaged.len() - 1;
        damaged[last] ^= 1;
        let e = Table::from_bytes(v, &damaged).unwrap_err();
        assert!(e.to_string().contains("checksum"), "{e}");
        assert_eq!(Table::check_bytes(v, &bytes), Ok(m));
        let e = Table::check_bytes(v, &damaged).unwrap_err();
        assert!(e.to_string().contains("checksum"), "{e}");
        let e = Table::from_bytes(v, &bytes[..bytes.len() - 1]).unwrap_err();
        assert!(e.to_string().contains("length"), "{e}");
        let e = Table::from_bytes(crate::variant("russian").unwrap(), &bytes).unwrap_err();
        assert!(e.to_string().contains("not of russian"), "{e}");
        let e = Table::from_bytes(v, b"PK\x03\x04").unwrap_err();
        assert!(e.to_string().contains("truncated"), "{e}");
    }

    /// A table read in place answers as the same table read into memory, under the counting
    /// rules too, owns no memory, and is refused when damaged.
    #[test]
    fn a_table_read_in_place_is_the_table() {
        let v = crate::variant("russian").unwrap();
        let mut tables = Tables::new(v).unwrap();
        let m = Material::parse("KKvK").unwrap();
        tables.build(m, &mut |_| {}).unwrap();
        let t = tables.get(&m).unwrap();
        let bytes = t.to_bytes();
        let shared: SharedBytes = std::sync::Arc::new(bytes.clone());
        let back = Table::from_shared(v, shared).unwrap();
        assert!(back.is_shared() && !t.is_shared());
        assert_eq!(back.bytes(), 0);
        assert_eq!(back.data_bytes(), t.bytes());
        assert!(t.rules.is_some(), "russian has counted draw rules");
        assert_eq!(back.rules, t.rules);
        assert_eq!(back.stats(), t.stats());
        assert_eq!(back.rule_stats(), t.rule_stats());
        assert_eq!(back.to_bytes(), bytes);
        for i in 0..t.size() {
            assert_eq!(back.code(i), t.code(i), "index {i}");
        }
        let mut damaged = bytes.clone();
        damaged[bytes.len() / 2] ^= 4;
        let e = Table::from_shared(v, std::sync::Arc::new(damaged)).unwrap_err();
        assert!(e.to_string().contains("checksum"), "{e}");
    }
}
