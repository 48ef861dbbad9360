//! The local sentence-embedding model against reference embeddings computed by
//! sentence-transformers itself (fixtures/verify/minilm_reference.json, made by
//! fixtures/verify/minilm_reference.py), and the embedded backend with the model.
//!
//! These tests need the model directory: `CITEPROOF_EMBEDDING_MODEL`, else
//! `../models/all-minilm-l6-v2` beside the checkout. Without it they print why and pass.

mod support_model;

use std::path::Path;
use std::sync::Arc;

use citeproof::verify::Relation;
use citeproof::verify::hybrid::{Scorer, ScoringMode};
use citeproof::verify::sentence_model::{SentenceModel, similarity};
use serde_json::Value;
use support_model::model;

fn reference() -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/verify/minilm_reference.json");
    serde_json::from_str(&std::fs::read_to_string(path).expect("reference fixture"))
        .expect("reference JSON")
}

#[test]
fn embeddings_match_sentence_transformers() {
    let Some(model) = model() else { return };
    let reference = reference();
    assert_eq!(
        reference["max_seq_length"].as_u64(),
        Some(model.max_tokens() as u64)
    );
    let sentences: Vec<&str> = reference["sentences"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect();
    let expected: Vec<Vec<f32>> = reference["embeddings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| {
            v.as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_f64().unwrap() as f32)
                .collect()
        })
        .collect();
    let got = model.embed(&sentences).unwrap();
    assert_eq!(got.len(), sentences.len());
    for ((text, ours), theirs) in sentences.iter().zip(&got).zip(&expected) {
        assert_eq!(ours.len(), 384);
        let cos = similarity(ours, theirs);
        let worst = ours
            .iter()
            .zip(theirs)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0f32, f32::max);
        assert!(
            cos > 0.9999 && worst < 2e-4,
            "{text:.40}: cosine {cos}, largest difference {worst}"
        );
    }
    // The same texts again, one at a time: batching and padding change nothing.
    for (text, batched) in sentences.iter().zip(&got) {
        let alone = model.embed_one(text).unwrap();
        assert!(similarity(&alone, batched) > 0.99999);
    }
}

#[test]
fn embeddings_are_unit_length_and_order_meaning() {
    let Some(model) = model() else { return };
    let a = "Vitamin D supplementation reduced the risk of respiratory infections.";
    let same = model.embed(&[a, a]).unwrap();
    assert!((similarity(&same[0], &same[1]) - 1.0).abs() < 1e-5);
    let norm: f64 = same[0].iter().map(|x| f64::from(*x).powi(2)).sum();
    assert!((norm - 1.0).abs() < 1e-4);
    let paraphrase = "Taking vitamin D lowered how often people caught chest infections.";
    let unrelated = "The bridge was repainted in a darker shade of green last summer.";
    let v = model.embed(&[a, paraphrase, unrelated]).unwrap();
    assert!(similarity(&v[0], &v[1]) > similarity(&v[0], &v[2]) + 0.3);
}

#[test]
fn the_scorer_with_a_model_tells_own_evidence_from_a_swap() {
    let Some(model) = model() else { return };
    let model = Arc::new(model);
    let claim = "Acute sleep deprivation after training impairs contextual fear memory in mice.";
    let own = [
        "Sleep is thought to support memory consolidation. Mice deprived of sleep for five \
         hours after contextual fear conditioning froze 41% less than undisturbed controls \
         when tested the next day.",
    ];
    let swap = [
        "We resolved the structure of the yellow fever virus by cryo-electron microscopy and \
         found a single envelope residue that modulates antigenicity.",
    ];
    // The bundled background works were embedded with this model, so they take part;
    // without them the calibrations fitted without them must tell the pairs apart too.
    let scorers = [ScoringMode::Embeddings, ScoringMode::Hybrid].map(|mode| {
        let scorer = Scorer::with_model(model.clone(), mode);
        assert!(scorer.uses_background(), "{mode:?}");
        [scorer.clone().without_background(), scorer]
    });
    for scorer in scorers.into_iter().flatten() {
        let mode = scorer.mode();
        let a = scorer.assess(claim, &own).unwrap();
        assert_eq!(
            a.semantic.unwrap().background.is_some(),
            scorer.uses_background()
        );
        let b = scorer.assess(claim, &swap).unwrap();
        let (sa, sb) = (a.semantic.unwrap(), b.semantic.unwrap());
        assert!(
            sa.best_similarity > sb.best_similarity + 0.2,
            "{sa:?} {sb:?}"
        );
        assert!(a.score > b.score, "{mode:?}: {} vs {}", a.score, b.score);
        assert_ne!(a.relation, Relation::Unrelated, "{mode:?}");
        assert_eq!(b.relation, Relation::Unrelated, "{mode:?}");
    }
    let default = Scorer::for_model(Some(model.clone()));
    assert_eq!(default.mode(), ScoringMode::Hybrid);
    assert!(default.uses_background());
    assert!(
        default.name().starts_with(model.name()),
        "{}",
        default.name()
    );
}

#[test]
fn a_broken_model_directory_is_an_error_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("config.json"), "{\"not\": \"bert\"}").unwrap();
    std::fs::write(dir.path().join("tokenizer.json"), "{}").unwrap();
    std::fs::write(dir.path().join("model.safetensors"), b"\x00\x01").unwrap();
    let err = SentenceModel::load(dir.path()).unwrap_err().to_string();
    assert!(err.contains("config.json"), "{err}");
}

#[test]
fn token_embeddings_pool_to_the_sentence_embedding() {
    let Some(model) = model() else { return };
    let texts = [
        "Remdesivir shortened the time to recovery in hospitalised adults.",
        "(.) , ;",
        "",
    ];
    let pooled = model.embed(&texts).unwrap();
    let tokens = model.embed_tokens(&texts).unwrap();
    assert_eq!(tokens.len(), texts.len());
    for (t, p) in tokens.iter().zip(&pooled).take(1) {
        assert!(similarity(&t.pooled, p) > 0.9999, "pooled differs");
    }
    // Word-pieces only, each a unit vector; special tokens and punctuation left out.
    assert!(tokens[0].tokens.len() >= 6, "{}", tokens[0].tokens.len());
    for v in &tokens[0].tokens {
        let norm: f32 = v.iter().map(|x| x * x).sum::<f32>().sqrt();
        assert!((norm - 1.0).abs() < 1e-4);
    }
    assert!(tokens[1].tokens.is_empty());
    // Late interaction prefers the passage that says what the claim says.
    let claim = &model
        .embed_tokens(&["Remdesivir speeds recovery."])
        .unwrap()[0];
    let other = &model
        .embed_tokens(&["We sequenced the yellow fever virus envelope."])
        .unwrap()[0];
    assert!(
        citeproof::verify::rerank::max_sim(claim, &tokens[0])
            > citeproof::verify::rerank::max_sim(claim, other) + 0.1
    );
}
