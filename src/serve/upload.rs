//! The document of `POST /v1/check` as posted: text in a JSON body, a file's bytes
//! in base64 in a JSON body (`file`), or a `multipart/form-data` upload (the page's
//! form: a PDF, a Word or OpenDocument file, a `.zip` or `.tar.gz` bundle, any
//! text file). All become one [`CheckInput`].

use std::collections::BTreeMap;

use axum::extract::{FromRequest, Multipart, Request};
use axum::http::{StatusCode, header};
use base64::Engine;
use serde::Deserialize;

use super::errors::{ApiError, JsonBody};
use crate::source::FileKind;

/// The JSON body of `POST /v1/check` (the other forms are read below).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CheckRequest {
    /// The document's text.
    #[serde(default)]
    pub text: Option<String>,
    /// Instead of `text`: the bytes of a file (PDF, Word, OpenDocument, `.zip` or
    /// `.tar.gz` bundle, any text file), in base64.
    #[serde(default)]
    pub file: Option<String>,
    /// `markdown`, `latex`, `bibtex`, `text` (an LLM answer), `csl_json`, `pdf`,
    /// `docx` or `odt`; default: from the name's extension (or a file's first
    /// bytes), else Markdown.
    #[serde(default)]
    pub kind: Option<DocumentKind>,
    /// The file name the document is checked as (default `document.md`, `.tex`, …).
    #[serde(default)]
    pub name: Option<String>,
    /// Files beside the document (bibliographies, `\input` files), by name.
    #[serde(default)]
    pub files: BTreeMap<String, String>,
    /// Output format, as `check --format` (default `json`).
    #[serde(default)]
    pub format: Option<String>,
}

/// What kind of document the text is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DocumentKind {
    Markdown,
    Latex,
    Bibtex,
    #[serde(alias = "answer")]
    Text,
    CslJson,
    Pdf,
    Docx,
    Odt,
}

impl DocumentKind {
    pub(super) fn file_kind(self) -> FileKind {
        match self {
            DocumentKind::Markdown => FileKind::Markdown,
            DocumentKind::Latex => FileKind::Latex,
            DocumentKind::Bibtex => FileKind::Bibtex,
            DocumentKind::Text => FileKind::Text,
            DocumentKind::CslJson => FileKind::CslJson,
            DocumentKind::Pdf => FileKind::Pdf,
            DocumentKind::Docx => FileKind::Docx,
            DocumentKind::Odt => FileKind::Odt,
        }
    }

    pub(super) fn default_name(self) -> &'static str {
        match self {
            DocumentKind::Markdown => "document.md",
            DocumentKind::Latex => "document.tex",
            DocumentKind::Bibtex => "document.bib",
            DocumentKind::Text => "answer.txt",
            DocumentKind::CslJson => "document.json",
            DocumentKind::Pdf => "document.pdf",
            DocumentKind::Docx => "document.docx",
            DocumentKind::Odt => "document.odt",
        }
    }
}

/// The document itself.
#[derive(Debug, Clone, PartialEq)]
pub enum Posted {
    Text(String),
    Bytes(Vec<u8>),
}

/// A check to run, however it was posted.
#[derive(Debug, Clone)]
pub struct CheckInput {
    pub document: Posted,
    pub kind: Option<DocumentKind>,
    pub name: Option<String>,
    /// Files beside the document (bibliographies, `\input` files), by name.
    pub files: BTreeMap<String, String>,
    pub format: Option<String>,
}

impl CheckRequest {
    /// The check a JSON body asks for: `text`, or `file` (base64 of the bytes).
    pub fn into_input(self) -> Result<CheckInput, ApiError> {
        let document = match (self.text, self.file) {
            (Some(text), None) => Posted::Text(text),
            (None, Some(encoded)) => Posted::Bytes(decode_base64(&encoded)?),
            (Some(_), Some(_)) => {
                return Err(ApiError::unprocessable(
                    "give the document as `text` or as `file` (base64), not both",
                ));
            }
            (None, None) => {
                return Err(ApiError::unprocessable(
                    "no document: give `text`, or `file` with the file's bytes in base64",
                ));
            }
        };
        Ok(CheckInput {
            document,
            kind: self.kind,
            name: self.name,
            files: self.files,
            format: self.format,
        })
    }
}

fn decode_base64(encoded: &str) -> Result<Vec<u8>, ApiError> {
    let compact: String = encoded.split_whitespace().collect();
    base64::engine::general_purpose::STANDARD
        .decode(compact.as_bytes())
        .map_err(|e| ApiError::unprocessable(format!("file: not base64 ({e})")))
}

/// Whether a request's body is a multipart form.
pub fn is_multipart(request: &Request) -> bool {
    request
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.to_ascii_lowercase().starts_with("multipart/form-data"))
}

/// Read a check from a JSON or a multipart body.
pub async fn read(request: Request) -> Result<CheckInput, ApiError> {
    if is_multipart(&request) {
        let multipart = Multipart::from_request(request, &())
            .await
            .map_err(|e| ApiError::new(e.status(), e.body_text()))?;
        from_multipart(multipart).await
    } else {
        let JsonBody(body) = JsonBody::<CheckRequest>::from_request(request, &()).await?;
        body.into_input()
    }
}

/// A form with a `file` part (its file name is the document's name unless a
/// `name` part says otherwise), any number of `files` parts beside it (text files
/// named by their file names), and `kind`, `name`, `format` parts.
async fn from_multipart(mut form: Multipart) -> Result<CheckInput, ApiError> {
    let mut document: Option<(Vec<u8>, Option<String>)> = None;
    let mut input = CheckInput {
        document: Posted::Bytes(Vec::new()),
        kind: None,
        name: None,
        files: BTreeMap::new(),
        format: None,
    };
    while let Some(field) = form.next_field().await.map_err(multipart_error)? {
        let part = field.name().unwrap_or("").to_string();
        let file_name = field.file_name().map(str::to_string);
        let bytes = field.bytes().await.map_err(multipart_error)?.to_vec();
        let text = || {
            String::from_utf8(bytes.clone())
                .map_err(|_| ApiError::unprocessable(format!("{part}: not UTF-8 text")))
        };
        match part.as_str() {
            "file" => document = Some((bytes, file_name)),
            "files" => {
                let name = file_name
                    .ok_or_else(|| ApiError::unprocessable("files: a part without a file name"))?;
                input.files.insert(name, text()?);
            }
            "name" => input.name = Some(text()?),
            "format" => input.format = Some(text()?),
            "kind" => {
                let written = text()?;
                let kind = serde_json::from_value(serde_json::Value::String(written.clone()))
                    .map_err(|_| {
                        ApiError::unprocessable(format!("kind: unknown kind `{written}`"))
                    })?;
                input.kind = Some(kind);
            }
            other => {
                return Err(ApiError::unprocessable(format!(
                    "unknown form field `{other}` (expected file, files, name, kind, format)"
                )));
            }
        }
    }
    let (bytes, file_name) =
        document.ok_or_else(|| ApiError::unprocessable("no `file` part: nothing to check"))?;
    input.document = Posted::Bytes(bytes);
    if input.name.is_none() {
        input.name = file_name.filter(|n| !n.trim().is_empty());
    }
    Ok(input)
}

fn multipart_error(e: axum::extract::multipart::MultipartError) -> ApiError {
    let status = e.status();
    let message = if status == StatusCode::PAYLOAD_TOO_LARGE {
        "the upload is larger than this server accepts ([serve] max-upload-size)".to_string()
    } else {
        format!("the form could not be read: {}", e.body_text())
    };
    ApiError::new(status, message)
}

/// The name an upload is checked as when none was given: by its bytes.
pub fn name_of_bytes(bytes: &[u8]) -> Option<&'static str> {
    use crate::read::BinaryFormat;
    use crate::read::archive::ArchiveFormat;
    match BinaryFormat::sniff(bytes) {
        Some(BinaryFormat::Pdf) => return Some("document.pdf"),
        Some(BinaryFormat::Docx) => return Some("document.docx"),
        Some(BinaryFormat::Odt) => return Some("document.odt"),
        None => {}
    }
    match ArchiveFormat::sniff(bytes)? {
        ArchiveFormat::Zip => Some("upload.zip"),
        ArchiveFormat::Gzip => Some("upload.tar.gz"),
        ArchiveFormat::Tar => Some("upload.tar"),
    }
}
