//! The stdio transport: `Content-Length` framed JSON-RPC in both directions.
//!
//! lsp-server's own stdio reader stops at the first malformed message, which would
//! end the session for one bad byte. This reader answers a body that is not JSON
//! with a JSON-RPC parse error (-32700) and a JSON value that is not a message with
//! an invalid-request error (-32600), then reads on. Only the end of input, or a
//! frame whose headers cannot be read at all, ends it.

use std::io::{self, BufRead, Write};
use std::thread;

use crossbeam_channel::{Receiver, Sender, bounded, select, unbounded};
use lsp_server::{Connection, ErrorCode, Message};
use serde_json::{Value, json};

/// The largest body accepted (a 1 GiB `Content-Length` is a broken client, not a
/// document).
const MAX_BODY: usize = 256 << 20;

/// One frame read from the client.
#[derive(Debug)]
pub enum Frame {
    Message(Message),
    /// A frame whose body could not be used: the error response to send back.
    Malformed(Value),
}

/// Read one frame. `Ok(None)` at the end of input.
pub fn read_frame(input: &mut impl BufRead) -> io::Result<Option<Frame>> {
    let Some(body) = read_body(input)? else {
        return Ok(None);
    };
    let value: Value = match serde_json::from_slice(&body) {
        Ok(value) => value,
        Err(e) => {
            return Ok(Some(Frame::Malformed(error_response(
                Value::Null,
                ErrorCode::ParseError,
                &format!("the message is not valid JSON: {e}"),
            ))));
        }
    };
    let id = value.get("id").cloned().unwrap_or(Value::Null);
    match serde_json::from_value::<Message>(value) {
        Ok(message) => Ok(Some(Frame::Message(message))),
        Err(e) => Ok(Some(Frame::Malformed(error_response(
            id,
            ErrorCode::InvalidRequest,
            &format!("not a JSON-RPC request, response or notification: {e}"),
        )))),
    }
}

/// Headers, then the body. A header line may end in `\r\n` or a bare `\n`.
fn read_body(input: &mut impl BufRead) -> io::Result<Option<Vec<u8>>> {
    let mut length: Option<usize> = None;
    let mut line = String::new();
    let mut any_header = false;
    loop {
        line.clear();
        if input.read_line(&mut line)? == 0 {
            return if any_header {
                Err(io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    "input ended inside a message's headers",
                ))
            } else {
                Ok(None)
            };
        }
        let header = line.trim_end_matches(['\r', '\n']);
        if header.is_empty() {
            if any_header {
                break;
            }
            // Blank lines between messages are tolerated.
            continue;
        }
        any_header = true;
        if let Some((name, value)) = header.split_once(':')
            && name.trim().eq_ignore_ascii_case("content-length")
        {
            length = value.trim().parse().ok();
        }
    }
    let length = length.ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            "a message without a valid Content-Length header",
        )
    })?;
    if length > MAX_BODY {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("Content-Length {length} is over the {MAX_BODY} byte limit"),
        ));
    }
    let mut body = vec![0; length];
    input.read_exact(&mut body)?;
    Ok(Some(body))
}

fn error_response(id: Value, code: ErrorCode, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code as i32, "message": message}})
}

/// Write one framed JSON text.
pub fn write_text(output: &mut impl Write, text: &str) -> io::Result<()> {
    write!(output, "Content-Length: {}\r\n\r\n", text.len())?;
    output.write_all(text.as_bytes())?;
    output.flush()
}

/// Reader and writer threads of a running transport.
pub struct IoThreads {
    reader: thread::JoinHandle<io::Result<()>>,
    writer: thread::JoinHandle<io::Result<()>>,
}

impl IoThreads {
    /// Wait for both threads. The reader's error (input that could not be framed)
    /// is returned; a writer whose reader went away is not an error.
    pub fn join(self) -> io::Result<()> {
        let reader = self
            .reader
            .join()
            .unwrap_or_else(|_| Err(io::Error::other("the transport's reader thread panicked")));
        let writer = self
            .writer
            .join()
            .unwrap_or_else(|_| Err(io::Error::other("the transport's writer thread panicked")));
        reader.and(writer)
    }
}

/// A connection over any reader and writer (stdin/stdout for the real server, pipes
/// in tests).
pub fn connect<R, W>(input: R, output: W) -> (Connection, IoThreads)
where
    R: BufRead + Send + 'static,
    W: Write + Send + 'static,
{
    let (to_client, outgoing) = unbounded::<Message>();
    let (to_client_raw, outgoing_raw) = unbounded::<Value>();
    let (incoming_sender, incoming) = bounded::<Message>(64);
    let writer = thread::Builder::new()
        .name("citeproof-lsp-writer".into())
        .spawn(move || write_loop(output, outgoing, outgoing_raw))
        .expect("spawn the writer thread");
    let reader = thread::Builder::new()
        .name("citeproof-lsp-reader".into())
        .spawn(move || read_loop(input, incoming_sender, to_client_raw))
        .expect("spawn the reader thread");
    (
        Connection {
            sender: to_client,
            receiver: incoming,
        },
        IoThreads { reader, writer },
    )
}

/// The server's standard input and output.
pub fn stdio() -> (Connection, IoThreads) {
    connect(io::BufReader::new(io::stdin()), io::stdout())
}

fn read_loop(
    mut input: impl BufRead,
    messages: Sender<Message>,
    errors: Sender<Value>,
) -> io::Result<()> {
    while let Some(frame) = read_frame(&mut input)? {
        match frame {
            Frame::Message(message) => {
                let exit = matches!(&message, Message::Notification(n) if n.method == "exit");
                if messages.send(message).is_err() || exit {
                    break;
                }
            }
            Frame::Malformed(error) => {
                if errors.send(error).is_err() {
                    break;
                }
            }
        }
    }
    Ok(())
}

fn write_loop(
    mut output: impl Write,
    messages: Receiver<Message>,
    raw: Receiver<Value>,
) -> io::Result<()> {
    let mut raw_open = true;
    loop {
        let text = if raw_open {
            select! {
                recv(messages) -> m => match m {
                    Ok(m) => message_text(&m)?,
                    Err(_) => break,
                },
                recv(raw) -> v => match v {
                    Ok(v) => v.to_string(),
                    Err(_) => { raw_open = false; continue; }
                },
            }
        } else {
            match messages.recv() {
                Ok(m) => message_text(&m)?,
                Err(_) => break,
            }
        };
        write_text(&mut output, &text)?;
    }
    Ok(())
}

fn message_text(message: &Message) -> io::Result<String> {
    let mut buf = Vec::new();
    message.write(&mut buf)?;
    // `Message::write` frames the text itself; keep only the body.
    let start = buf
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .map(|i| i + 4)
        .unwrap_or(0);
    String::from_utf8(buf.split_off(start)).map_err(io::Error::other)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn framed(body: &str) -> String {
        format!("Content-Length: {}\r\n\r\n{body}", body.len())
    }

    #[test]
    fn malformed_bodies_are_answered_and_reading_goes_on() {
        let input = [
            framed("{not json"),
            framed(r#"{"jsonrpc":"2.0","id":7,"params":{}}"#),
            // A bare `\n` header ending is accepted.
            "Content-Length: 40\n\n{\"jsonrpc\":\"2.0\",\"method\":\"initialized\"}".to_string(),
        ]
        .concat();
        let mut reader = io::Cursor::new(input.into_bytes());
        match read_frame(&mut reader).unwrap() {
            Some(Frame::Malformed(v)) => {
                assert_eq!(v["error"]["code"], -32700);
                assert!(v["id"].is_null());
            }
            other => panic!("{other:?}"),
        }
        match read_frame(&mut reader).unwrap() {
            Some(Frame::Malformed(v)) => {
                assert_eq!(v["error"]["code"], -32600);
                assert_eq!(v["id"], 7);
            }
            other => panic!("{other:?}"),
        }
        match read_frame(&mut reader).unwrap() {
            Some(Frame::Message(Message::Notification(n))) => assert_eq!(n.method, "initialized"),
            other => panic!("{other:?}"),
        }
        assert!(read_frame(&mut reader).unwrap().is_none());
    }

    #[test]
    fn a_frame_without_length_or_cut_short_is_an_error() {
        let mut no_length = io::Cursor::new(b"X-Other: 1\r\n\r\n{}".to_vec());
        assert!(read_frame(&mut no_length).is_err());
        let mut short = io::Cursor::new(framed("{\"jsonrpc\":\"2.0\"}").as_bytes()[..25].to_vec());
        assert!(read_frame(&mut short).is_err());
        let mut huge = io::Cursor::new(b"Content-Length: 99999999999\r\n\r\n".to_vec());
        assert!(read_frame(&mut huge).is_err());
    }
}
