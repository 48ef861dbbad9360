//! Structured-output negotiation against the model servers people run (the mock
//! server behaving like each, tests/support_llm/servers.rs), and what small local
//! models return instead of a verdict.

mod support_llm;

use std::sync::atomic::Ordering;

use citeproof::cache::Cache;
use citeproof::verify::escalate::VerifyRequest;
use citeproof::verify::verdict::{Label, Unverifiable};
use support_llm::Reply;
use support_llm::servers::ServerKind;
use support_llm::verify::*;

const QUOTE: &str = "support the consolidation of recently acquired memories";

fn claims(n: usize) -> Vec<String> {
    (0..n)
        .map(|i| format!("Sleep supports memory consolidation, case {i}."))
        .collect()
}

fn abstract_only(world: &support_llm::World) -> citeproof::verify::escalate::VerifyConfig {
    let mut c = config(world);
    c.full_text = false;
    c
}

/// The forms a run asks in before `expected`, in ladder order.
fn ladder_to(expected: &str) -> Vec<&'static str> {
    let ladder = [
        "json_schema",
        "json_object+schema",
        "json_object",
        "instructions",
    ];
    let end = ladder.iter().position(|m| *m == expected).unwrap();
    ladder[..=end].to_vec()
}

#[tokio::test]
async fn every_server_kind_ends_in_the_form_it_takes_and_keeps_it() {
    for kind in ServerKind::ALL {
        let world = sleep_world().await;
        world.behave_like(kind);
        let claims = claims(3);
        for c in &claims {
            world.script(c, vec![Reply::verdict("SUPPORTS", QUOTE)]);
        }
        let v = verifier(&world, abstract_only(&world), None);
        for c in &claims {
            let verdict = verify(&v, c, &sleep_work()).await;
            assert_eq!(verdict.label, Label::Supports, "{kind:?}: {verdict:?}");
        }
        let expected = kind.expected_mode();
        let mut modes = ladder_to(expected);
        modes.extend([expected, expected]);
        assert_eq!(world.chat_modes(), modes, "{kind:?}");
        let usage = v.usage();
        assert_eq!(usage.notes.len(), 1, "{kind:?}: said once");
        let note = &usage.notes[0];
        assert!(
            note.contains(&format!("{STAGE1} at {}: {expected}", world.llm_url())),
            "{kind:?}: {note}"
        );
        let refused = ladder_to(expected).len() - 1;
        assert_eq!(note.matches(" refused (HTTP ").count(), refused, "{note}");
        assert_eq!(usage.models[0].failures as usize, refused, "{kind:?}");
    }
}

#[tokio::test]
async fn llama_cpp_python_refusal_is_not_retried_and_concurrent_requests_wait_for_the_outcome() {
    let world = sleep_world().await;
    world.behave_like(ServerKind::LlamaCppPython);
    let claims = claims(4);
    for c in &claims {
        world.script(c, vec![Reply::verdict("SUPPORTS", QUOTE)]);
    }
    let mut c = abstract_only(&world);
    c.parallel = 4;
    c.stage1.limits.max_concurrency = 4;
    c.stage1.retry.max_retries = 3;
    let v = verifier(&world, c, None);
    let work = sleep_work();
    let requests: Vec<VerifyRequest> = claims
        .iter()
        .map(|claim| VerifyRequest {
            claim,
            work: &work,
            citation_url: None,
            rivals: &[],
        })
        .collect();
    let verdicts = v.verify_all(&requests).await;
    assert!(verdicts.iter().all(|v| v.label == Label::Supports));
    let modes = world.chat_modes();
    assert_eq!(
        modes.iter().filter(|m| **m == "json_schema").count(),
        1,
        "the 500 is deterministic: asked once, not retried, not asked by the others: {modes:?}"
    );
    assert_eq!(modes.len(), 5, "four pairs and one refusal");
    let note = &v.usage().notes[0];
    assert!(
        note.contains("Input should be 'text' or 'json_object'"),
        "{note}"
    );
}

#[tokio::test]
async fn the_negotiated_form_is_remembered_in_the_cache_and_renegotiated_when_refused() {
    let world = sleep_world().await;
    let dir = tempfile::tempdir().unwrap();
    world.behave_like(ServerKind::LlamaCppPython);
    let claims = claims(3);
    for c in &claims {
        world.script(c, vec![Reply::verdict("SUPPORTS", QUOTE)]);
    }
    let cache = || Some(Cache::open(dir.path()).unwrap());
    let first = verifier(&world, abstract_only(&world), cache());
    verify(&first, &claims[0], &sleep_work()).await;
    assert_eq!(world.chat_modes(), ["json_schema", "json_object+schema"]);

    // A later run asks in the remembered form at once.
    let second = verifier(&world, abstract_only(&world), cache());
    verify(&second, &claims[1], &sleep_work()).await;
    assert_eq!(world.chat_modes()[2..], ["json_object+schema"]);
    let note = &second.usage().notes[0];
    assert!(
        note.contains("json_object+schema (negotiated in an earlier run"),
        "{note}"
    );

    // The server changed: the remembered form is refused, the next one is found.
    world.behave_like(ServerKind::JsonModeOnly);
    let third = verifier(&world, abstract_only(&world), cache());
    let verdict = verify(&third, &claims[2], &sleep_work()).await;
    assert_eq!(verdict.label, Label::Supports);
    assert_eq!(
        world.chat_modes()[3..],
        ["json_object+schema", "json_object"]
    );
    let note = &third.usage().notes[0];
    assert!(
        note.contains(": json_object; json_schema refused (HTTP 500"),
        "{note}"
    );
    assert!(
        note.contains("; json_object+schema refused (HTTP 400: Additional properties"),
        "{note}"
    );
    let fourth = verifier(&world, abstract_only(&world), cache());
    assert_eq!(
        fourth.usage().notes,
        Vec::<String>::new(),
        "nothing said before asking"
    );
}

#[tokio::test]
async fn a_server_error_that_is_no_refusal_is_retried_in_the_same_form() {
    let world = sleep_world().await;
    world.state.outage.store(true, Ordering::SeqCst);
    let claim = "Sleep supports memory consolidation.";
    world.script(claim, vec![Reply::verdict("SUPPORTS", QUOTE)]);
    let v = verifier(&world, abstract_only(&world), None);
    let verdict = verify(&v, claim, &sleep_work()).await;
    assert_eq!(verdict.unverifiable, Some(Unverifiable::ModelFailure));
    assert_eq!(world.chat_modes(), ["json_schema", "json_schema"]);
    assert!(
        verdict.rationale.contains("model server failed: HTTP 503"),
        "{}",
        verdict.rationale
    );
    assert!(!verdict.rationale.contains("unreachable"));
}

/// What a small model returned, and the words the verdict's reason must use.
fn small_model_replies() -> Vec<(Reply, &'static str)> {
    vec![
        (Reply::Raw(String::new()), "returned an empty reply"),
        (Reply::NoContent, "returned an empty reply"),
        (Reply::Echo, "returned the prompt echoed back: \"The claim (data):"),
        (
            Reply::Raw("Sure! The evidence clearly supports it.".into()),
            "returned text without a JSON object: \"Sure! The evidence clearly supports it.\"",
        ),
        (
            Reply::Raw(r#"{"rationale": "matches", "confidence": 0.9}"#.into()),
            "returned a JSON object without a `label`",
        ),
        (
            Reply::Cut(r#"{"label": "SUPPORTS", "rationale": "The abstract says"#.into()),
            "cut off at max_tokens (512)",
        ),
        (
            Reply::Raw(
                r#"{"label": "SUPPORTS", "rationale": "one or two sentences", "evidence": "verbatim quote", "confidence": 0.0}"#
                    .into(),
            ),
            "returned the answer template of the instructions, copied",
        ),
    ]
}

#[tokio::test]
async fn small_model_output_gets_one_correction_then_an_honest_unverifiable() {
    for (i, (reply, reason)) in small_model_replies().into_iter().enumerate() {
        let world = sleep_world().await;
        let claim = format!("Sleep helps memory, small-model case {i}.");
        world.script(&claim, vec![reply]);
        let v = verifier(&world, abstract_only(&world), None);
        let verdict = verify(&v, &claim, &sleep_work()).await;
        assert_eq!(verdict.label, Label::Unverifiable, "{reason}");
        assert_eq!(verdict.unverifiable, Some(Unverifiable::InvalidOutput));
        assert!(
            verdict.rationale.contains(reason) && verdict.rationale.ends_with("; 2 attempts)"),
            "{reason}: {}",
            verdict.rationale
        );
        assert_eq!(world.chat_count(), 2, "{reason}: one corrective follow-up");
        let follow_up = world.chats()[1]["messages"].as_array().unwrap().clone();
        let correction = follow_up.last().unwrap()["content"].as_str().unwrap();
        assert!(
            correction.contains("could not be used: it was"),
            "{correction}"
        );
    }
}

#[tokio::test]
async fn a_correction_that_works_gives_the_verdict() {
    let world = sleep_world().await;
    let claim = "Sleep helps memory consolidation after an echo.";
    world.script(claim, vec![Reply::Echo, Reply::verdict("SUPPORTS", QUOTE)]);
    let v = verifier(&world, abstract_only(&world), None);
    let verdict = verify(&v, claim, &sleep_work()).await;
    assert_eq!(verdict.label, Label::Supports);
    assert_eq!(world.chat_count(), 2);
}
