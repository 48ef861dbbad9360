//! Verification: does the cited work bear out the claim that cites it?
//!
//! This module holds the embedded offline backend ([`embedded`]), the scientific
//! tokeniser it and passage ranking share ([`text`]), the background IDF table
//! ([`background`]) and section-aware chunking with BM25 ranking ([`passages`]).
//!
//! The LLM path: the abstract first ([`evidence`], stage 1), and when it does not
//! settle the question the full text ([`fulltext`], [`extract`], [`acceptance`]),
//! ranked passages and stage 2 ([`escalate`]), with an OpenAI-compatible model
//! ([`llm`], [`prompt`], [`asking`]) whose structured output is negotiated per server
//! ([`structured`]), under usage limits ([`usage`]). Downloads obey [`crate::net::urlpolicy`].
//!
//! A local sentence model ([`sentence_model`]) can join the embedded backend
//! ([`hybrid`]) and rank passages ([`select::Ranker`]); the embedded backend escalates
//! to the full text too ([`offline`]). [`backend`] picks the path and gives one shape
//! to what either concludes; [`project`] gathers every resolved claim–citation pair of
//! a project's documents and verifies them. [`judge`] is the one judge of whether a
//! citing sentence is about the work it cites, shared with `clean`.

pub mod acceptance;
pub mod asking;
pub mod backend;
pub mod background;
pub mod background_works;
mod cached;
pub mod calibration;
pub mod embedded;
pub mod escalate;
pub mod evidence;
pub mod extract;
pub mod fulltext;
pub mod hybrid;
pub mod judge;
mod lexicon;
pub mod llm;
pub mod offline;
pub mod passages;
pub mod project;
pub mod prompt;
pub mod rank_weights;
pub mod rerank;
pub mod select;
pub mod semantic;
pub mod sentence_model;
pub mod structured;
pub mod text;
pub mod usage;
pub mod verdict;
pub mod weights;

use serde::{Deserialize, Serialize};

/// What the embedded backend can say about a claim and a cited work. It deliberately
/// has no SUPPORTS / CONTRADICTS: lexical evidence cannot tell agreement apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Relation {
    /// The cited work is about something else.
    Unrelated,
    /// The cited work is plainly about what the claim says.
    Related,
    /// Neither can be said with confidence.
    Uncertain,
}

impl Relation {
    /// The serde name (`unrelated`, `related`, `uncertain`).
    pub fn as_str(self) -> &'static str {
        match self {
            Relation::Unrelated => "unrelated",
            Relation::Related => "related",
            Relation::Uncertain => "uncertain",
        }
    }
}
