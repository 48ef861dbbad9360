//! The LLM verification path end to end against a local OpenAI-compatible server and
//! document store: stage-1 early exit, escalation to full text and stage 2, the cache,
//! evidence from other sources, embeddings ranking, confidence escalation and usage.

mod support_llm;

use citeproof::cache::Cache;
use citeproof::model::Work;
use citeproof::verify::usage::Prices;
use citeproof::verify::verdict::{Label, Stage, Unverifiable};
use serde_json::Value;
use support_llm::verify::*;
use support_llm::{Reply, World, role_text, s2_paper};

#[tokio::test]
async fn the_abstract_settles_a_supported_claim_without_fetching_full_text() {
    let world = sleep_world().await;
    let claim = "Sleep supports the consolidation of newly acquired memories.";
    world.script(
        claim,
        vec![Reply::verdict(
            "SUPPORTS",
            "Sleep is thought to support the consolidation of recently acquired memories",
        )],
    );
    let v = verifier(&world, config(&world), None);
    let verdict = verify(&v, claim, &sleep_work()).await;
    assert_eq!(
        (verdict.label, verdict.stage),
        (Label::Supports, Stage::Abstract)
    );
    assert_eq!(verdict.model.as_deref(), Some(STAGE1));
    assert!(verdict.passage.is_none());
    let chats = world.chats();
    assert_eq!(chats.len(), 1);
    assert_eq!(chats[0]["temperature"], 0);
    assert_eq!(chats[0]["response_format"]["type"], "json_schema");
    assert_eq!(chats[0]["model"], STAGE1);
    assert!(
        world.hits_under("/arxiv-web").is_empty(),
        "no full text fetched"
    );
    assert_eq!(rule_of(&verdict, claim), None);
}

#[tokio::test]
async fn not_enough_info_escalates_to_full_text_passages_and_stage_two() {
    let world = sleep_world().await;
    let claim = "Five hours of sleep deprivation after training reduced contextual freezing by about 40% in mice.";
    script_stages(
        &world,
        claim,
        Reply::verdict("NOT_ENOUGH_INFO", ""),
        Reply::verdict("SUPPORTS", KEY_SENTENCE),
    );
    let v = verifier(&world, config(&world), None);
    let verdict = verify(&v, claim, &sleep_work()).await;
    assert_eq!(
        (verdict.label, verdict.stage),
        (Label::Supports, Stage::FullText),
        "{verdict:#?}"
    );
    assert_eq!(verdict.model.as_deref(), Some(STAGE2));
    let passage = verdict.passage.as_ref().expect("the passage is recorded");
    assert_eq!(passage.origin, "arxiv_html");
    assert_eq!(passage.source, world.url("/arxiv-web/html/2301.01234"));
    assert_eq!(passage.section.as_deref(), Some("3 Results"));
    assert!(passage.text.contains(KEY_SENTENCE));
    assert!(passage.offset > 0);
    assert_eq!(world.hits_under("/arxiv-web/html").len(), 1);
    let chats = world.chats();
    assert_eq!(chats.len(), 2);
    assert_eq!(chats[1]["model"], STAGE2);
    let user = role_text(&chats[1], "user");
    assert_eq!(user.matches(" kind=passage_").count(), 3, "three passages");
    assert!(user.contains("kind=abstract_supplementary"));
    assert!(user.contains(KEY_SENTENCE));
    assert!(
        !user.contains("Graves L."),
        "the bibliography is not a passage"
    );
    assert_eq!(rule_of(&verdict, claim), Some("CP304"));
}

#[tokio::test]
async fn a_rerun_is_answered_from_the_cache_without_model_requests() {
    let world = sleep_world().await;
    let dir = tempfile::tempdir().unwrap();
    let claim = "Five hours of sleep deprivation after training reduced contextual freezing by about 40% in mice.";
    script_stages(
        &world,
        claim,
        Reply::verdict("NOT_ENOUGH_INFO", ""),
        Reply::verdict("SUPPORTS", KEY_SENTENCE),
    );
    let first = verifier(
        &world,
        config(&world),
        Some(Cache::open(dir.path()).unwrap()),
    );
    let a = verify(&first, claim, &sleep_work()).await;
    let requests = world.chat_count();
    let hits = world.hits().len();
    assert_eq!(requests, 2);
    let second = verifier(
        &world,
        config(&world),
        Some(Cache::open(dir.path()).unwrap()),
    );
    let b = verify(&second, claim, &sleep_work()).await;
    assert_eq!(a, b);
    assert_eq!(
        world.chat_count(),
        requests,
        "no model request on the rerun"
    );
    assert_eq!(world.hits().len(), hits, "no download on the rerun");
    assert_eq!(second.usage().cache_hits, 1);
    assert_eq!(second.usage().requests(), 0);
    // Another model is another key.
    let mut other = config(&world);
    other.stage1 = world.model("another-model");
    world.script_for(
        Some("another-model"),
        claim,
        vec![Reply::verdict("NOT_ENOUGH_INFO", "")],
    );
    let third = verifier(&world, other, Some(Cache::open(dir.path()).unwrap()));
    verify(&third, claim, &sleep_work()).await;
    assert!(world.chat_count() > requests);
}

#[tokio::test]
async fn not_supported_after_full_text_is_claim_unsupported_and_contradiction_is_an_error() {
    let world = sleep_world().await;
    let unsupported = "Sleep deprivation impaired spatial memory in the water maze.";
    world.script(unsupported, vec![Reply::verdict("NOT_ENOUGH_INFO", "")]);
    let contradicted = "Sleep plays no role in memory consolidation.";
    world.script(
        contradicted,
        vec![Reply::verdict(
            "CONTRADICTS",
            "Sleep is thought to support the consolidation of recently acquired memories.",
        )],
    );
    let v = verifier(&world, config(&world), None);
    let a = verify(&v, unsupported, &sleep_work()).await;
    assert_eq!((a.label, a.stage), (Label::NotEnoughInfo, Stage::FullText));
    assert_eq!(rule_of(&a, unsupported), Some("CP302"));
    let b = verify(&v, contradicted, &sleep_work()).await;
    assert_eq!((b.label, b.stage), (Label::Contradicts, Stage::Abstract));
    assert_eq!(rule_of(&b, contradicted), Some("CP301"));
}

#[tokio::test]
async fn a_quote_that_is_not_in_the_abstract_downgrades_the_verdict() {
    let world = sleep_world().await;
    let claim = "Sleep deprivation doubles anxiety in mice.";
    world.script(
        claim,
        vec![Reply::verdict(
            "SUPPORTS",
            "sleep deprivation doubled anxiety-like behaviour",
        )],
    );
    let mut c = config(&world);
    c.full_text = false;
    let v = verifier(&world, c, None);
    let verdict = verify(&v, claim, &sleep_work()).await;
    assert_eq!(
        (verdict.label, verdict.stage),
        (Label::NotEnoughInfo, Stage::Abstract)
    );
    assert!(
        verdict.rationale.contains("does not occur in the abstract"),
        "{}",
        verdict.rationale
    );
    assert_eq!(verdict.evidence, None);
    assert_eq!(
        rule_of(&verdict, claim),
        Some("CP305"),
        "not an accusation without full text"
    );
}

#[tokio::test]
async fn a_missing_abstract_is_fetched_from_another_source() {
    let world = sleep_world().await;
    let doi = "10.5555/sleep.2023.7";
    let s2_abstract = "In adult mice, five hours of sleep deprivation after fear conditioning weakened contextual fear memory tested one day later.";
    world.serve_json(
        &format!("/s2/graph/v1/paper/DOI:{doi}"),
        &s2_paper(SLEEP_TITLE, Some(doi), Some(s2_abstract), None),
    );
    let claim = "Sleep loss after conditioning weakens fear memory.";
    world.script(
        claim,
        vec![Reply::verdict(
            "SUPPORTS",
            "weakened contextual fear memory",
        )],
    );
    let work = Work {
        source: "crossref".into(),
        title: SLEEP_TITLE.into(),
        doi: Some(doi.into()),
        ..Work::default()
    };
    let v = verifier(&world, config(&world), None);
    let verdict = verify(&v, claim, &work).await;
    assert_eq!(verdict.label, Label::Supports);
    assert!(
        verdict.notes.iter().any(|n| n == "abstract from s2"),
        "{:?}",
        verdict.notes
    );
    assert!(role_text(&world.chats()[0], "user").contains(s2_abstract));
}

#[tokio::test]
async fn no_abstract_and_no_full_text_is_unverifiable_without_asking_the_model() {
    let world = World::start().await;
    let work = Work {
        source: "crossref".into(),
        title: "A monograph nobody has digitised".into(),
        ..Work::default()
    };
    let v = verifier(&world, config(&world), None);
    let verdict = verify(&v, "Old results hold.", &work).await;
    assert_eq!(verdict.unverifiable, Some(Unverifiable::NoEvidence));
    assert_eq!(world.chat_count(), 0);
    assert_eq!(rule_of(&verdict, "Old results hold."), Some("CP305"));
}

#[tokio::test]
async fn embeddings_rank_the_passages_when_configured() {
    let world = sleep_world().await;
    let claim = "Five hours of sleep deprivation after training reduced contextual freezing by about 40% in mice.";
    script_stages(
        &world,
        claim,
        Reply::verdict("NOT_ENOUGH_INFO", ""),
        Reply::verdict("SUPPORTS", KEY_SENTENCE),
    );
    let mut c = config(&world);
    c.embeddings = Some(world.model("embed-1"));
    c.passages.top = 1;
    let v = verifier(&world, c, None);
    let verdict = verify(&v, claim, &sleep_work()).await;
    assert_eq!(verdict.label, Label::Supports);
    assert!(
        verdict
            .notes
            .iter()
            .any(|n| n.contains("ranked by embeddings (embed-1)")),
        "{:?}",
        verdict.notes
    );
    let embeds: Vec<Value> = world.state.embeddings.lock().unwrap().clone();
    assert!(
        embeds.len() >= 2,
        "the claim and the passages were embedded"
    );
    assert!(verdict.passage.unwrap().text.contains(KEY_SENTENCE));
}

#[tokio::test]
async fn low_confidence_escalates_when_configured_and_usage_is_priced() {
    let world = sleep_world().await;
    let claim = "Sleep deprivation right after training weakens fear memory in mice.";
    script_stages(
        &world,
        claim,
        Reply::Verdict {
            label: "SUPPORTS",
            rationale: "probably",
            evidence: "sleep deprivation after learning affects contextual fear memory",
            confidence: 0.5,
        },
        Reply::verdict("SUPPORTS", KEY_SENTENCE),
    );
    let mut c = config(&world);
    c.escalate_below_confidence = Some(0.7);
    c.stage1.prices = Some(Prices {
        prompt_per_1k: 1.0,
        completion_per_1k: 2.0,
    });
    let v = verifier(&world, c, None);
    let verdict = verify(&v, claim, &sleep_work()).await;
    assert_eq!(
        (verdict.label, verdict.stage),
        (Label::Supports, Stage::FullText)
    );
    let usage = v.usage();
    let stage1 = usage.models.iter().find(|m| m.model == STAGE1).unwrap();
    let stage2 = usage.models.iter().find(|m| m.model == STAGE2).unwrap();
    assert_eq!((stage1.requests, stage2.requests), (1, 1));
    assert!(stage1.prompt_tokens > 0 && stage1.completion_tokens == 25);
    let expected = stage1.prompt_tokens as f64 / 1000.0 + 25.0 * 2.0 / 1000.0;
    assert!((stage1.cost.unwrap() - expected).abs() < 1e-9);
    assert_eq!(stage2.cost, None, "no prices configured for stage 2");
    assert!(usage.to_string().contains("conservative-1: 1 requests"));
}
