//! Background works: sentence-model embeddings of the tuning works, against which the
//! claim's closeness to its cited work is judged.
//!
//! How close a claim's embedding comes to an unrelated work depends on the claim: a
//! general claim about COVID-19 is close to every COVID-19 abstract, a claim about one
//! gene to almost nothing. How close the claim comes to a bank of works it does not
//! cite (mean, third best and best similarity) tells the scorer what "close" means for
//! this claim — cohort normalisation, as speaker verification does it.
//!
//! Source: one vector per cited work of the Citation-Integrity and Check-COVID *train*
//! claims (`claims_train.jsonl`, `covidCheck_train_*`; never the held-out test files of
//! `../shared/data/HOLDOUT.md`), the mean direction of its evidence documents'
//! embeddings. Regenerate with `cargo run --release --example verify_tables --
//! --embedding-model DIR` (all-MiniLM-L6-v2 here), which rewrites `background_works.bin`
//! and refits the calibrations that use it. The bank belongs to the sentence model it
//! was built with, so it carries that model's embedding of a probe sentence and is used
//! only with a model that embeds the probe the same way.
//!
//! File layout (little-endian): `CPBW`, version byte, dimensions (u32), rows (u32),
//! the probe embedding (f32 × dimensions), then per row a scale (f32) and the vector
//! quantised to i8 × dimensions (value = i8 × scale).

use std::sync::LazyLock;

use serde::Serialize;

use super::sentence_model::{SentenceModel, SentenceModelError, similarity};

const EMBEDDED_BANK: &[u8] = include_bytes!("background_works.bin");
const MAGIC: &[u8; 4] = b"CPBW";
const VERSION: u8 = 1;

/// The sentence whose embedding identifies the model a bank was built with.
pub const PROBE: &str = "Sleep deprivation after training impairs the consolidation of \
                         contextual fear memory in mice.";
/// Least similarity between the stored and the current probe embedding for the bank
/// to apply (the same model reproduces it to rounding).
const PROBE_AGREEMENT: f64 = 0.999;

/// Number of background signals.
pub const BACKGROUND_FEATURES: usize = 3;

/// How close a claim comes to the background works.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize)]
pub struct BackgroundSimilarity {
    /// Mean cosine similarity of the claim and the background works.
    pub mean: f64,
    /// The third highest.
    pub third: f64,
    /// The highest.
    pub best: f64,
}

impl BackgroundSimilarity {
    pub fn to_array(&self) -> [f64; BACKGROUND_FEATURES] {
        [self.mean, self.third, self.best]
    }
}

/// Unit vectors of background works and the probe embedding of their model.
#[derive(Debug, Clone, PartialEq)]
pub struct BackgroundWorks {
    dims: usize,
    probe: Vec<f32>,
    rows: Vec<Vec<f32>>,
}

static EMBEDDED: LazyLock<Option<BackgroundWorks>> =
    LazyLock::new(|| BackgroundWorks::parse(EMBEDDED_BANK));

fn normalised(mut v: Vec<f32>) -> Vec<f32> {
    let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    if norm > 0.0 {
        v.iter_mut().for_each(|x| *x /= norm);
    }
    v
}

/// Reads little-endian fields off the front of a byte slice.
struct Reader<'a>(&'a [u8]);

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Option<&[u8]> {
        if self.0.len() < n {
            return None;
        }
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        Some(head)
    }

    fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.take(4)?.try_into().ok()?))
    }

    fn f32(&mut self) -> Option<f32> {
        Some(f32::from_le_bytes(self.take(4)?.try_into().ok()?))
    }
}

impl BackgroundWorks {
    /// The bank compiled into the crate (`None` only if the file is malformed).
    pub fn embedded() -> Option<&'static BackgroundWorks> {
        EMBEDDED.as_ref()
    }

    /// A bank of `rows` (normalised here) for the model that embeds [`PROBE`] as
    /// `probe`; rows of another length than the probe are left out.
    pub fn new(probe: Vec<f32>, rows: Vec<Vec<f32>>) -> BackgroundWorks {
        let dims = probe.len();
        BackgroundWorks {
            dims,
            probe,
            rows: rows
                .into_iter()
                .filter(|r| r.len() == dims)
                .map(normalised)
                .collect(),
        }
    }

    /// The file form (see the module documentation).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(13 + 4 * self.dims + self.rows.len() * (4 + self.dims));
        out.extend_from_slice(MAGIC);
        out.push(VERSION);
        out.extend_from_slice(&(self.dims as u32).to_le_bytes());
        out.extend_from_slice(&(self.rows.len() as u32).to_le_bytes());
        for x in &self.probe {
            out.extend_from_slice(&x.to_le_bytes());
        }
        for row in &self.rows {
            let peak = row.iter().fold(0.0f32, |m, x| m.max(x.abs()));
            let scale = if peak > 0.0 { peak / 127.0 } else { 1.0 };
            out.extend_from_slice(&scale.to_le_bytes());
            out.extend(
                row.iter()
                    .map(|x| ((x / scale).round().clamp(-127.0, 127.0) as i8).to_le_bytes()[0]),
            );
        }
        out
    }

    /// Read the file form; `None` when it is not one.
    pub fn parse(bytes: &[u8]) -> Option<BackgroundWorks> {
        let mut r = Reader(bytes);
        if r.take(4)? != MAGIC || r.take(1)? != [VERSION] {
            return None;
        }
        let dims = r.u32()? as usize;
        let count = r.u32()? as usize;
        if dims == 0 || r.0.len() != 4 * dims + count.checked_mul(4 + dims)? {
            return None;
        }
        let probe = (0..dims).map(|_| r.f32()).collect::<Option<Vec<f32>>>()?;
        let mut rows = Vec::with_capacity(count);
        for _ in 0..count {
            let scale = r.f32()?;
            let row = r.take(dims)?.iter().map(|&b| f32::from(b as i8) * scale);
            rows.push(normalised(row.collect()));
        }
        Some(BackgroundWorks { dims, probe, rows })
    }

    /// Number of works.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// Whether `model` is the model the bank was built with: it embeds [`PROBE`] as
    /// the bank recorded.
    pub fn fits(&self, model: &SentenceModel) -> Result<bool, SentenceModelError> {
        if model.dims() != self.dims || self.rows.len() < 3 {
            return Ok(false);
        }
        let probe = model.embed_one(PROBE)?;
        Ok(similarity(&probe, &self.probe) >= PROBE_AGREEMENT)
    }

    /// How close `query` (a unit claim embedding) comes to the works.
    pub fn similarity(&self, query: &[f32]) -> BackgroundSimilarity {
        self.similarity_without(query, |_| false)
    }

    /// [`BackgroundWorks::similarity`] leaving out the works for which `skip` holds
    /// (calibration leaves out the claim's own work and its swap partner's).
    pub fn similarity_without(
        &self,
        query: &[f32],
        skip: impl Fn(usize) -> bool,
    ) -> BackgroundSimilarity {
        let mut sims: Vec<f64> = self
            .rows
            .iter()
            .enumerate()
            .filter(|(i, _)| !skip(*i))
            .map(|(_, r)| similarity(query, r))
            .collect();
        if sims.is_empty() {
            return BackgroundSimilarity::default();
        }
        sims.sort_by(|a, b| b.total_cmp(a));
        BackgroundSimilarity {
            mean: sims.iter().sum::<f64>() / sims.len() as f64,
            third: sims[2.min(sims.len() - 1)],
            best: sims[0],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bank() -> BackgroundWorks {
        BackgroundWorks::new(
            vec![1.0, 0.0, 0.0],
            vec![
                vec![1.0, 0.0, 0.0],
                vec![0.0, 2.0, 0.0],
                vec![0.0, 0.0, 1.0],
                vec![0.6, 0.8, 0.0],
                vec![1.0, 1.0],
            ],
        )
    }

    #[test]
    fn rows_of_the_wrong_length_are_left_out_and_the_rest_normalised() {
        let b = bank();
        assert_eq!(b.len(), 4);
        assert!(b.rows.iter().all(|r| (similarity(r, r) - 1.0).abs() < 1e-6));
    }

    #[test]
    fn the_file_form_reads_back_to_rounding() {
        let b = bank();
        let back = BackgroundWorks::parse(&b.to_bytes()).expect("parses");
        assert_eq!(back.len(), b.len());
        assert_eq!(back.probe, b.probe);
        for (x, y) in back.rows.iter().zip(&b.rows) {
            assert!(similarity(x, y) > 0.9999);
        }
    }

    #[test]
    fn malformed_files_are_refused() {
        let bytes = bank().to_bytes();
        assert!(BackgroundWorks::parse(&bytes[..bytes.len() - 1]).is_none());
        assert!(BackgroundWorks::parse(b"CPBW").is_none());
        assert!(BackgroundWorks::parse(b"").is_none());
        let mut wrong = bytes.clone();
        wrong[4] = 9;
        assert!(BackgroundWorks::parse(&wrong).is_none());
    }

    #[test]
    fn similarity_summarises_the_closest_works() {
        // Rows are f32, so sums agree to f32 rounding.
        let s = bank().similarity(&[1.0, 0.0, 0.0]);
        assert!((s.best - 1.0).abs() < 1e-6);
        assert!((s.third - 0.0).abs() < 1e-6);
        assert!((s.mean - 0.4).abs() < 1e-6);
        let without = bank().similarity_without(&[1.0, 0.0, 0.0], |i| i == 0);
        assert!((without.best - 0.6).abs() < 1e-6);
        assert_eq!(
            bank().similarity_without(&[1.0, 0.0, 0.0], |_| true),
            BackgroundSimilarity::default()
        );
    }

    #[test]
    fn the_embedded_bank_reads() {
        let b = BackgroundWorks::embedded().expect("embedded bank parses");
        assert!(b.len() >= 3);
    }
}
