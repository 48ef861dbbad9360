//! Verification: does the cited work bear out the claim that cites it?
//!
//! The LLM path: the abstract first ([`evidence`], stage 1), and when it does not
//! settle the question the full text ([`fulltext`], [`extract`], [`acceptance`]),
//! ranked passages and stage 2 ([`escalate`]), with an OpenAI-compatible model
//! ([`llm`], [`prompt`]) under usage limits ([`usage`]). Downloads obey [`urlpolicy`].

pub mod acceptance;
pub mod escalate;
pub mod evidence;
pub mod extract;
pub mod fulltext;
pub mod llm;
pub mod prompt;
pub mod urlpolicy;
pub mod usage;
pub mod verdict;
