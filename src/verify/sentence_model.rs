//! A local sentence-embedding model (all-MiniLM-L6-v2 or another sentence-transformers
//! BERT model in safetensors) run on the CPU with candle.
//!
//! The model is loaded from a directory the user names (`--embedding-model DIR` or
//! `CITEPROOF_EMBEDDING_MODEL`), else from the standard place in the cache directory
//! ([`standard_dir`], where `scripts/fetch-embedding-model.sh` puts it) when a model is
//! there; nothing is ever downloaded. The directory is the
//! sentence-transformers layout: `config.json`, `tokenizer.json`, `model.safetensors`,
//! and optionally `sentence_bert_config.json` (maximum sequence length) and
//! `1_Pooling/config.json` (only mean pooling is supported, and refused otherwise).
//!
//! Embeddings are computed exactly as sentence-transformers does for this model:
//! tokens truncated to the maximum sequence length, the last hidden states averaged
//! over the attention mask (mean pooling), then L2-normalised — so the dot product of
//! two embeddings is their cosine similarity.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use candle_core::{DType, Device, Tensor};
use candle_nn::VarBuilder;
use candle_transformers::models::bert::{BertModel, Config};
use serde_json::Value;
use tokenizers::{PaddingParams, PaddingStrategy, Tokenizer, TruncationParams};

/// Environment variable naming the model directory.
pub const MODEL_ENV: &str = "CITEPROOF_EMBEDDING_MODEL";

/// Sequence length used when the directory does not say (sentence-transformers'
/// value for all-MiniLM-L6-v2).
const DEFAULT_MAX_TOKENS: usize = 256;
/// Texts per forward pass.
const BATCH: usize = 32;
/// Embeddings remembered by default (about 1.5 KiB each for 384 dimensions).
const DEFAULT_MEMO: usize = 16_384;

/// Why a model directory could not be used.
#[derive(Debug, thiserror::Error)]
pub enum SentenceModelError {
    #[error("embedding model directory {dir}: {file} is missing")]
    Missing { dir: PathBuf, file: &'static str },
    #[error("embedding model directory {dir}: {file}: {message}")]
    Invalid {
        dir: PathBuf,
        file: &'static str,
        message: String,
    },
    #[error("embedding model: tokenizer: {0}")]
    Tokenizer(String),
    #[error("embedding model: {0}")]
    Model(#[from] candle_core::Error),
}

/// A loaded sentence-embedding model. Thread-safe; embeddings of texts seen before are
/// remembered (a bounded memo), so an abstract cited by several claims is embedded once.
pub struct SentenceModel {
    name: String,
    dir: PathBuf,
    bert: BertModel,
    tokenizer: Tokenizer,
    device: Device,
    dims: usize,
    max_tokens: usize,
    memo: Mutex<HashMap<String, Arc<[f32]>>>,
    memo_capacity: usize,
}

impl std::fmt::Debug for SentenceModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SentenceModel")
            .field("name", &self.name)
            .field("dir", &self.dir)
            .field("dims", &self.dims)
            .field("max_tokens", &self.max_tokens)
            .finish_non_exhaustive()
    }
}

fn read_json(dir: &Path, file: &'static str) -> Result<Option<Value>, SentenceModelError> {
    let path = dir.join(file);
    if !path.exists() {
        return Ok(None);
    }
    let invalid = |message: String| SentenceModelError::Invalid {
        dir: dir.to_path_buf(),
        file,
        message,
    };
    let text = std::fs::read_to_string(&path).map_err(|e| invalid(e.to_string()))?;
    serde_json::from_str(&text)
        .map(Some)
        .map_err(|e| invalid(format!("not JSON: {e}")))
}

fn require(dir: &Path, file: &'static str) -> Result<PathBuf, SentenceModelError> {
    let path = dir.join(file);
    if path.is_file() {
        Ok(path)
    } else {
        Err(SentenceModelError::Missing {
            dir: dir.to_path_buf(),
            file,
        })
    }
}

/// Where the model is looked for when none is named: `<cache dir>/models/all-minilm-l6-v2`.
pub fn standard_dir(cache_dir: &Path) -> PathBuf {
    cache_dir.join("models").join("all-minilm-l6-v2")
}

/// Whether `dir` holds the files [`SentenceModel::load`] needs.
pub fn is_model_dir(dir: &Path) -> bool {
    ["config.json", "tokenizer.json", "model.safetensors"]
        .iter()
        .all(|f| dir.join(f).is_file())
}

/// The model directory named by `CITEPROOF_EMBEDDING_MODEL`, if set and not empty.
pub fn dir_from_env() -> Option<PathBuf> {
    std::env::var_os(MODEL_ENV)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
}

impl SentenceModel {
    /// Load the model in `dir` (see the module documentation for the layout).
    pub fn load(dir: &Path) -> Result<SentenceModel, SentenceModelError> {
        let invalid = |file: &'static str, message: String| SentenceModelError::Invalid {
            dir: dir.to_path_buf(),
            file,
            message,
        };
        require(dir, "config.json")?;
        let tokenizer_path = require(dir, "tokenizer.json")?;
        let weights_path = require(dir, "model.safetensors")?;
        let config_json = read_json(dir, "config.json")?.unwrap_or(Value::Null);
        let config: Config = serde_json::from_value(config_json)
            .map_err(|e| invalid("config.json", format!("not a BERT configuration: {e}")))?;
        if let Some(pooling) = read_json(dir, "1_Pooling/config.json")? {
            let mean = pooling["pooling_mode_mean_tokens"].as_bool() == Some(true);
            let other = [
                "pooling_mode_cls_token",
                "pooling_mode_max_tokens",
                "pooling_mode_mean_sqrt_len_tokens",
            ]
            .iter()
            .any(|k| pooling[*k].as_bool() == Some(true));
            if !mean || other {
                return Err(invalid(
                    "1_Pooling/config.json",
                    "only mean pooling is supported".into(),
                ));
            }
        }
        let max_tokens = read_json(dir, "sentence_bert_config.json")?
            .and_then(|v| v["max_seq_length"].as_u64())
            .map_or(DEFAULT_MAX_TOKENS, |n| n as usize)
            .clamp(8, config.max_position_embeddings);

        let mut tokenizer = Tokenizer::from_file(&tokenizer_path)
            .map_err(|e| SentenceModelError::Tokenizer(e.to_string()))?;
        // tokenizer.json may carry fixed padding and a shorter truncation for another
        // runtime; sentence-transformers pads per batch and truncates at max_seq_length.
        let (pad_id, pad_token) = tokenizer
            .get_padding()
            .map(|p| (p.pad_id, p.pad_token.clone()))
            .unwrap_or((0, "[PAD]".to_string()));
        tokenizer.with_padding(Some(PaddingParams {
            strategy: PaddingStrategy::BatchLongest,
            pad_id,
            pad_token,
            ..PaddingParams::default()
        }));
        tokenizer
            .with_truncation(Some(TruncationParams {
                max_length: max_tokens,
                ..TruncationParams::default()
            }))
            .map_err(|e| SentenceModelError::Tokenizer(e.to_string()))?;

        let device = Device::Cpu;
        let weights = std::fs::read(&weights_path)
            .map_err(|e| invalid("model.safetensors", e.to_string()))?;
        let vb = VarBuilder::from_buffered_safetensors(weights, DType::F32, &device)?;
        let bert = BertModel::load(vb, &config)?;
        let name = dir
            .canonicalize()
            .unwrap_or_else(|_| dir.to_path_buf())
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "sentence-model".to_string());
        Ok(SentenceModel {
            name,
            dir: dir.to_path_buf(),
            bert,
            tokenizer,
            device,
            dims: config.hidden_size,
            max_tokens,
            memo: Mutex::new(HashMap::new()),
            memo_capacity: DEFAULT_MEMO,
        })
    }

    /// Remember at most `capacity` embeddings (0: none).
    pub fn with_memo_capacity(mut self, capacity: usize) -> SentenceModel {
        self.memo_capacity = capacity;
        self
    }

    /// The model's name: its directory's name (e.g. `all-minilm-l6-v2`).
    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Dimensions of an embedding.
    pub fn dims(&self) -> usize {
        self.dims
    }

    /// Tokens read of each text at most (longer texts are truncated).
    pub fn max_tokens(&self) -> usize {
        self.max_tokens
    }

    /// Unit-length embeddings of `texts`, in order.
    pub fn embed<S: AsRef<str>>(&self, texts: &[S]) -> Result<Vec<Arc<[f32]>>, SentenceModelError> {
        let mut out: Vec<Option<Arc<[f32]>>> = vec![None; texts.len()];
        let mut todo: Vec<(usize, &str)> = Vec::new();
        {
            let memo = self.memo.lock().unwrap_or_else(|e| e.into_inner());
            for (i, text) in texts.iter().enumerate() {
                match memo.get(text.as_ref()) {
                    Some(v) => out[i] = Some(v.clone()),
                    None => todo.push((i, text.as_ref())),
                }
            }
        }
        let inputs: Vec<&str> = todo.iter().map(|(_, t)| *t).collect();
        let vectors = batched(&inputs, |batch| self.forward(batch))?;
        let mut memo = self.memo.lock().unwrap_or_else(|e| e.into_inner());
        for ((i, text), v) in todo.into_iter().zip(vectors) {
            let v: Arc<[f32]> = v.into();
            if self.memo_capacity > 0 {
                if memo.len() >= self.memo_capacity {
                    memo.clear();
                }
                memo.insert(text.to_string(), v.clone());
            }
            out[i] = Some(v);
        }
        Ok(out.into_iter().flatten().collect())
    }

    /// One embedding.
    pub fn embed_one(&self, text: &str) -> Result<Arc<[f32]>, SentenceModelError> {
        let mut v = self.embed(&[text])?;
        Ok(v.pop().unwrap_or_else(|| vec![0.0; self.dims].into()))
    }

    /// Tokenise `texts` and run the encoder: the encodings, the last hidden states
    /// (texts × tokens × dimensions) and the attention mask; None when there is
    /// nothing to encode.
    fn encode(
        &self,
        texts: &[&str],
    ) -> Result<Option<(Vec<tokenizers::Encoding>, Tensor, Tensor)>, SentenceModelError> {
        let encodings = self
            .tokenizer
            .encode_batch(texts.to_vec(), true)
            .map_err(|e| SentenceModelError::Tokenizer(e.to_string()))?;
        let rows = encodings.len();
        let len = encodings.first().map_or(0, |e| e.get_ids().len());
        if rows == 0 || len == 0 {
            return Ok(None);
        }
        let flat = |f: fn(&tokenizers::Encoding) -> &[u32]| -> Vec<u32> {
            encodings.iter().flat_map(|e| f(e).to_vec()).collect()
        };
        let ids = Tensor::from_vec(flat(|e| e.get_ids()), (rows, len), &self.device)?;
        let types = Tensor::from_vec(flat(|e| e.get_type_ids()), (rows, len), &self.device)?;
        let mask = Tensor::from_vec(flat(|e| e.get_attention_mask()), (rows, len), &self.device)?;
        let hidden = self.bert.forward(&ids, &types, Some(&mask))?;
        Ok(Some((encodings, hidden, mask)))
    }

    /// Tokenise, run the encoder, mean-pool over the attention mask, L2-normalise.
    fn forward(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, SentenceModelError> {
        let Some((_, hidden, mask)) = self.encode(texts)? else {
            return Ok(vec![vec![0.0; self.dims]; texts.len()]);
        };
        let mask = mask.to_dtype(DType::F32)?.unsqueeze(2)?;
        let summed = hidden.broadcast_mul(&mask)?.sum(1)?;
        let counts = mask.sum(1)?.clamp(1e-9f32, f32::MAX)?;
        let mean = summed.broadcast_div(&counts)?;
        let norm = mean
            .sqr()?
            .sum_keepdim(1)?
            .sqrt()?
            .clamp(1e-12f32, f32::MAX)?;
        Ok(mean.broadcast_div(&norm)?.to_vec2::<f32>()?)
    }
}

/// A text's pooled embedding and its content tokens' contextual vectors, all unit
/// length: what late interaction (MaxSim) needs next to the pooled cosine.
#[derive(Debug, Clone)]
pub struct TokenEmbeddings {
    /// The sentence embedding (as [`SentenceModel::embed`] returns it).
    pub pooled: Vec<f32>,
    /// One vector per word-piece that is not a special token or punctuation.
    pub tokens: Vec<Vec<f32>>,
}

impl SentenceModel {
    /// Pooled and per-token embeddings of `texts`, in order, from one forward pass
    /// (not memoised: token vectors are large).
    pub fn embed_tokens<S: AsRef<str>>(
        &self,
        texts: &[S],
    ) -> Result<Vec<TokenEmbeddings>, SentenceModelError> {
        let inputs: Vec<&str> = texts.iter().map(AsRef::as_ref).collect();
        batched(&inputs, |batch| self.forward_tokens(batch))
    }

    fn forward_tokens(&self, texts: &[&str]) -> Result<Vec<TokenEmbeddings>, SentenceModelError> {
        let Some((encodings, hidden, _)) = self.encode(texts)? else {
            let empty = TokenEmbeddings {
                pooled: vec![0.0; self.dims],
                tokens: Vec::new(),
            };
            return Ok(vec![empty; texts.len()]);
        };
        let hidden = hidden.to_vec3::<f32>()?;
        Ok(encodings
            .iter()
            .zip(hidden)
            .map(|(encoding, states)| {
                let mut pooled = vec![0.0f32; self.dims];
                let mut tokens = Vec::new();
                let masked = encoding.get_attention_mask().iter().map(|&m| m == 1);
                let special = encoding.get_special_tokens_mask().iter().map(|&s| s == 1);
                let words = encoding.get_tokens().iter();
                for (((state, on), special), word) in
                    states.into_iter().zip(masked).zip(special).zip(words)
                {
                    if !on {
                        continue;
                    }
                    pooled.iter_mut().zip(&state).for_each(|(p, x)| *p += x);
                    if !special && word.chars().any(char::is_alphanumeric) {
                        tokens.push(unit(state));
                    }
                }
                TokenEmbeddings {
                    pooled: unit(pooled),
                    tokens,
                }
            })
            .collect())
    }
}

/// `run` over `texts` in batches of [`BATCH`], similar lengths together (less padding
/// per batch); the results in the order of `texts`.
fn batched<T>(
    texts: &[&str],
    mut run: impl FnMut(&[&str]) -> Result<Vec<T>, SentenceModelError>,
) -> Result<Vec<T>, SentenceModelError> {
    let mut order: Vec<usize> = (0..texts.len()).collect();
    order.sort_by_key(|&i| texts[i].len());
    let mut out: Vec<Option<T>> = std::iter::repeat_with(|| None).take(texts.len()).collect();
    for batch in order.chunks(BATCH) {
        let inputs: Vec<&str> = batch.iter().map(|&i| texts[i]).collect();
        for (&i, result) in batch.iter().zip(run(&inputs)?) {
            out[i] = Some(result);
        }
    }
    Ok(out.into_iter().flatten().collect())
}

/// `v` scaled to unit length (unchanged when zero).
fn unit(mut v: Vec<f32>) -> Vec<f32> {
    let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    if norm > 1e-12 {
        v.iter_mut().for_each(|x| *x /= norm);
    }
    v
}

/// Dot product of two unit vectors: their cosine similarity (0 for different lengths).
pub fn similarity(a: &[f32], b: &[f32]) -> f64 {
    if a.len() != b.len() {
        return 0.0;
    }
    a.iter()
        .zip(b)
        .map(|(x, y)| f64::from(*x) * f64::from(*y))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_directory_without_the_files_is_refused_with_the_file_named() {
        let dir = tempfile::tempdir().unwrap();
        let err = SentenceModel::load(dir.path()).unwrap_err();
        assert!(err.to_string().contains("config.json is missing"), "{err}");
    }

    #[test]
    fn similarity_of_unit_vectors() {
        assert!((similarity(&[0.6, 0.8], &[0.6, 0.8]) - 1.0).abs() < 1e-6);
        assert_eq!(similarity(&[1.0], &[1.0, 0.0]), 0.0);
    }
}
