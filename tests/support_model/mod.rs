//! Finding the local sentence-embedding model for the tests that need it:
//! `CITEPROOF_EMBEDDING_MODEL`, else `../models/all-minilm-l6-v2` beside the checkout.
//! When neither holds a model the tests print why and pass (.ci/run fetches the model
//! and sets the variable).

#![allow(dead_code)]

use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

use citeproof::verify::sentence_model::{MODEL_ENV, SentenceModel, dir_from_env};

/// The model directory, if there is one.
pub fn model_dir() -> Option<PathBuf> {
    let dir = dir_from_env().unwrap_or_else(|| {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../models/all-minilm-l6-v2")
    });
    if dir.join("model.safetensors").is_file() {
        Some(dir)
    } else {
        eprintln!(
            "skipping: no sentence-embedding model at {} (set {MODEL_ENV}; see README)",
            dir.display()
        );
        None
    }
}

/// The model, loaded once per test binary.
pub fn shared_model() -> Option<Arc<SentenceModel>> {
    static MODEL: OnceLock<Option<Arc<SentenceModel>>> = OnceLock::new();
    MODEL
        .get_or_init(|| {
            model_dir().map(|d| Arc::new(SentenceModel::load(&d).expect("load the model")))
        })
        .clone()
}

/// A freshly loaded model.
pub fn model() -> Option<SentenceModel> {
    model_dir().map(|d| SentenceModel::load(&d).expect("load the model"))
}
