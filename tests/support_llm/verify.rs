//! Shared set-up of the verification tests: the sleep paper, a verifier pointed at the
//! world with a conservative stage-1 and a balanced stage-2 model, and the rule a
//! verdict maps to.

use citeproof::cache::Cache;
use citeproof::model::{Citation, CitationKind, Claim, FileId, Span, Work};
use citeproof::rules::verification::from_verdict;
use citeproof::verify::escalate::{Verifier, VerifyConfig, VerifyRequest};
use citeproof::verify::verdict::Verdict;

use super::{Reply, World, fixture, net};

pub const SLEEP_TITLE: &str =
    "Acute sleep deprivation impairs contextual fear memory consolidation in adult mice";
pub const SLEEP_ABSTRACT: &str = "Sleep is thought to support the consolidation of recently acquired memories. We examined how a single period of sleep deprivation after learning affects contextual fear memory in adult mice, and which hippocampal signalling pathways are involved.";
pub const KEY_SENTENCE: &str = "froze 41% less than undisturbed controls";

/// The stage-1 model answers `claim` with `stage1`, the stage-2 model with `stage2`.
pub fn script_stages(world: &World, claim: &str, stage1: Reply, stage2: Reply) {
    world.script_for(Some(STAGE1), claim, vec![stage1]);
    world.script_for(Some(STAGE2), claim, vec![stage2]);
}
pub const STAGE1: &str = "conservative-1";
pub const STAGE2: &str = "balanced-2";

pub fn sleep_work() -> Work {
    Work {
        source: "arxiv".into(),
        title: SLEEP_TITLE.into(),
        arxiv: Some("2301.01234".into()),
        year: Some(2023),
        abstract_text: Some(SLEEP_ABSTRACT.into()),
        ..Work::default()
    }
}

pub async fn sleep_world() -> World {
    let world = World::start().await;
    world.serve(
        "/arxiv-web/html/2301.01234",
        "text/html",
        fixture("sleep_arxiv.html"),
    );
    world
}

pub fn config(world: &World) -> VerifyConfig {
    let mut c = VerifyConfig::new(world.model(STAGE1));
    c.stage2 = Some(world.model(STAGE2));
    c.fulltext = world.fulltext_config();
    c
}

pub fn verifier(world: &World, config: VerifyConfig, cache: Option<Cache>) -> Verifier {
    let net = net();
    let sources = world.sources(&net);
    Verifier::new(&net, config, Some(sources), cache).unwrap()
}

pub async fn verify(v: &Verifier, claim: &str, work: &Work) -> Verdict {
    v.verify(&VerifyRequest {
        claim,
        work,
        citation_url: None,
        rivals: &[],
    })
    .await
}

pub fn pair(claim: &str) -> (Citation, Claim) {
    let citation = Citation {
        key: "kim2023".into(),
        kind: CitationKind::Key,
        file: FileId::default(),
        span: Span::new(0, 7),
        group_span: Span::new(0, 9),
        command: None,
        id: None,
        narrative: false,
        claim: Some(0),
        reference: Some(0),
    };
    let claim = Claim {
        file: FileId::default(),
        span: Span::new(0, claim.len()),
        text: claim.into(),
    };
    (citation, claim)
}

pub fn rule_of(verdict: &Verdict, claim: &str) -> Option<&'static str> {
    let (c, cl) = pair(claim);
    from_verdict(&c, &cl, None, verdict).map(|d| d.rule.code)
}
