//! Asking a model for a verdict and reading what it returns, as small local models
//! return it: empty content, text around the JSON, an object missing fields, a reply
//! cut off at the token limit, the prompt echoed back, or the answer template of the
//! instructions filled in with its own placeholders. A reply that cannot be read
//! gets one corrective follow-up (by default); when that fails too, the answer is an
//! honest "could not be verified" whose reason says what the model returned.

use super::llm::{ChatMessage, Completion, LlmClient, LlmError};
use super::prompt::{self, ModelAnswer, copies_template, parse_answer, quote_occurs};
use super::verdict::{Label, Stage, Unverifiable, Verdict};

/// A model answer, or why there is none.
#[derive(Debug)]
pub enum Asked {
    Answer(ModelAnswer),
    Failed(Unverifiable, String),
}

/// Ask `model`, following an unreadable reply with a correction up to `retries` times.
pub async fn ask(model: &LlmClient, mut messages: Vec<ChatMessage>, retries: u32) -> Asked {
    let schema = prompt::verdict_schema();
    let mut problem = String::new();
    for _ in 0..=retries {
        let reply = match model.chat(&messages, Some(&schema)).await {
            Ok(reply) => reply,
            Err(LlmError::Budget(e)) => {
                return Asked::Failed(Unverifiable::RateLimited, e.to_string());
            }
            Err(e) => return Asked::Failed(Unverifiable::ModelFailure, e.to_string()),
        };
        match read_reply(&reply, &messages, model.config().max_tokens) {
            Ok(answer) => return Asked::Answer(answer),
            Err(unreadable) => {
                messages.push(ChatMessage::assistant(reply.content));
                messages.push(prompt::correction(&unreadable.problem));
                problem = unreadable.to_string();
            }
        }
    }
    let detail = match retries {
        0 => problem,
        n => format!("{problem}; {} attempts", n + 1),
    };
    Asked::Failed(Unverifiable::InvalidOutput, detail)
}

/// What an unreadable reply was.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unreadable {
    /// "an empty reply", "text without a JSON object", "the prompt echoed back" …
    pub problem: String,
    /// The start of the reply, on one line.
    pub excerpt: String,
}

impl std::fmt::Display for Unreadable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.excerpt.is_empty() {
            write!(f, "the model returned {}", self.problem)
        } else {
            write!(
                f,
                "the model returned {}: \"{}\"",
                self.problem, self.excerpt
            )
        }
    }
}

/// The answer in `reply` to the request `messages`, or what the reply was instead.
pub fn read_reply(
    reply: &Completion,
    messages: &[ChatMessage],
    max_tokens: u32,
) -> Result<ModelAnswer, Unreadable> {
    let text = reply.content.trim();
    let excerpt = excerpt(text);
    if text.is_empty() {
        let problem = match reply.finish_reason.as_deref() {
            Some("length") => format!("an empty reply cut off at max_tokens ({max_tokens})"),
            _ => "an empty reply".to_string(),
        };
        return Err(Unreadable { problem, excerpt });
    }
    let error = match parse_answer(text) {
        Ok(answer) if copies_template(&answer) => {
            let problem = "the answer template of the instructions, copied".to_string();
            return Err(Unreadable { problem, excerpt });
        }
        Ok(answer) => return Ok(answer),
        Err(e) => e,
    };
    let problem = if echoes_prompt(text, messages) {
        "the prompt echoed back".to_string()
    } else if reply.finish_reason.as_deref() == Some("length") {
        format!("{error}, cut off at max_tokens ({max_tokens})")
    } else {
        error
    };
    Err(Unreadable { problem, excerpt })
}

/// Whether most of `reply` is copied from the request: lines (of some length) that
/// occur verbatim in the messages make up more than half of it.
pub fn echoes_prompt(reply: &str, messages: &[ChatMessage]) -> bool {
    let fold = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let asked: Vec<String> = messages
        .iter()
        .filter(|m| m.role != "assistant")
        .map(|m| fold(&m.content))
        .collect();
    let lines: Vec<String> = reply
        .lines()
        .map(fold)
        .filter(|l| l.chars().count() >= 20)
        .collect();
    let total: usize = fold(reply).len();
    let copied: usize = lines
        .iter()
        .filter(|l| asked.iter().any(|a| a.contains(l.as_str())))
        .map(String::len)
        .sum();
    total > 0 && copied * 2 > total
}

/// The first 120 characters of `text`, on one line.
fn excerpt(text: &str) -> String {
    let line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match line.char_indices().nth(120) {
        Some((i, _)) => format!("{}…", &line[..i]),
        None => line,
    }
}

/// A verdict from a parsed answer, with the quote checked against `evidence`: a
/// SUPPORTS or CONTRADICTS whose quote is missing or does not occur there becomes
/// NOT_ENOUGH_INFO, and the rationale says so.
pub fn checked(answer: ModelAnswer, evidence: &[&str], what: &str, model: &str) -> Verdict {
    let found = answer
        .evidence
        .as_deref()
        .is_some_and(|q| quote_occurs(q, evidence));
    let (label, rationale, quote) = match answer.label {
        Label::Supports | Label::Contradicts if !found => {
            let problem = match &answer.evidence {
                Some(q) => format!("the quoted evidence \"{q}\" does not occur in {what}"),
                None => "no evidence was quoted".to_string(),
            };
            let rationale = format!(
                "downgraded from {} to NOT_ENOUGH_INFO: {problem}. Model rationale: {}",
                answer.label, answer.rationale
            );
            (Label::NotEnoughInfo, rationale, None)
        }
        label => (label, answer.rationale, answer.evidence.filter(|_| found)),
    };
    Verdict {
        label,
        stage: Stage::Abstract,
        rationale,
        evidence: quote,
        passage: None,
        model: Some(model.to_string()),
        confidence: answer.confidence,
        unverifiable: None,
        notes: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(label: Label, quote: Option<&str>) -> ModelAnswer {
        ModelAnswer {
            label,
            rationale: "because".into(),
            evidence: quote.map(str::to_string),
            confidence: Some(0.9),
        }
    }

    fn reply(content: &str, finish: &str) -> Completion {
        Completion {
            content: content.into(),
            prompt_tokens: 10,
            completion_tokens: 5,
            finish_reason: Some(finish.into()),
        }
    }

    #[test]
    fn unreadable_replies_say_what_they_were() {
        let messages = prompt::abstract_messages(
            "Sleep loss impairs memory consolidation in mice.",
            "We deprived mice of sleep after training and measured freezing a day later.",
        );
        let read = |content: &str, finish: &str| {
            read_reply(&reply(content, finish), &messages, 512)
                .unwrap_err()
                .to_string()
        };
        assert_eq!(read("  ", "stop"), "the model returned an empty reply");
        assert_eq!(
            read("", "length"),
            "the model returned an empty reply cut off at max_tokens (512)"
        );
        assert_eq!(
            read("I think the abstract supports it.", "stop"),
            "the model returned text without a JSON object: \"I think the abstract supports it.\""
        );
        assert!(
            read(r#"{"rationale": "it matches"}"#, "stop")
                .starts_with("the model returned a JSON object without a `label`: \"{")
        );
        assert!(read(r#"{"label": "SUPPORTS", "rat"#, "length").contains("cut off"));
        let echo = messages[1].content.clone();
        let said = read(&echo, "stop");
        assert!(
            said.starts_with("the model returned the prompt echoed back: \"The claim (data):"),
            "{said}"
        );
        let template = r#"{"label": "SUPPORTS", "rationale": "one or two sentences", "evidence": "verbatim quote", "confidence": 0.0}"#;
        assert!(read(template, "stop").contains("answer template"));
        let fine = r#"Here: {"label": "NOT_ENOUGH_INFO"}"#;
        assert!(read_reply(&reply(fine, "stop"), &messages, 512).is_ok());
    }

    #[test]
    fn an_answer_that_quotes_the_claim_is_not_an_echo() {
        let messages = prompt::abstract_messages("Sleep loss impairs memory.", "Abstract text.");
        let answer = "The evidence says nothing about whether sleep loss impairs memory.";
        assert!(!echoes_prompt(answer, &messages));
    }

    #[test]
    fn a_quote_outside_the_evidence_downgrades() {
        let evidence = ["Sleep loss reduced freezing by 40%."];
        let ok = checked(
            answer(Label::Supports, Some("reduced freezing by 40%")),
            &evidence,
            "the abstract",
            "m",
        );
        assert_eq!(ok.label, Label::Supports);
        assert_eq!(ok.evidence.as_deref(), Some("reduced freezing by 40%"));
        let bad = checked(
            answer(Label::Contradicts, Some("increased freezing")),
            &evidence,
            "the abstract",
            "m",
        );
        assert_eq!(bad.label, Label::NotEnoughInfo);
        assert!(
            bad.rationale.contains("does not occur in the abstract"),
            "{}",
            bad.rationale
        );
        assert_eq!(bad.evidence, None);
        let none = checked(
            answer(Label::Supports, None),
            &evidence,
            "the abstract",
            "m",
        );
        assert_eq!(none.label, Label::NotEnoughInfo);
        let nei = checked(
            answer(Label::NotEnoughInfo, Some("made up")),
            &evidence,
            "the abstract",
            "m",
        );
        assert_eq!((nei.label, nei.evidence), (Label::NotEnoughInfo, None));
    }
}
