//! A real OpenAI-compatible model server on 127.0.0.1, for the test and the benchmark
//! that need one: llama-cpp-python's `python -m llama_cpp.server` with Gemma 3 270M
//! (Q4_K_M), as `scripts/install-llama-server.sh` installs them (`.ci/run` runs it and
//! sets [`DIR_ENV`]; without it the default install folder is looked in).

#![allow(dead_code)]

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The install folder (`venv/`, the model file); set by `.ci/run`.
pub const DIR_ENV: &str = "CITEPROOF_TEST_LLAMA_DIR";
/// The model file `scripts/install-llama-server.sh` assembles.
pub const MODEL_FILE: &str = "gemma-3-270m-q4_k_m.gguf";
/// The name the server answers to.
pub const MODEL_ALIAS: &str = "gemma3-270m";
/// How long the server may take to load the model and answer.
const READY_DEADLINE: Duration = Duration::from_secs(180);

/// An installed server and model.
#[derive(Debug, Clone)]
pub struct Install {
    pub python: PathBuf,
    pub model: PathBuf,
}

impl Install {
    /// The install in `$CITEPROOF_TEST_LLAMA_DIR`, else in `~/.cache/citeproof-ci/llama`;
    /// `Err` says what is missing (for the skip message).
    pub fn find() -> Result<Install, String> {
        let dir = match std::env::var_os(DIR_ENV).filter(|v| !v.is_empty()) {
            Some(d) => PathBuf::from(d),
            None => std::env::var_os("HOME")
                .map(|h| PathBuf::from(h).join(".cache/citeproof-ci/llama"))
                .ok_or("neither CITEPROOF_TEST_LLAMA_DIR nor HOME is set")?,
        };
        let python = dir.join("venv/bin/python");
        let model = dir.join(MODEL_FILE);
        for needed in [&python, &model] {
            if !needed.is_file() {
                return Err(format!(
                    "{} is missing (scripts/install-llama-server.sh {} installs it)",
                    needed.display(),
                    dir.display()
                ));
            }
        }
        Ok(Install { python, model })
    }
}

/// A running server; killed when dropped.
pub struct LocalServer {
    child: Child,
    /// `http://127.0.0.1:PORT/v1`
    pub base_url: String,
    /// From the start of the process to its first answer.
    pub ready_after: Duration,
    pub log: PathBuf,
}

/// A port nobody listens on now.
fn free_port() -> std::io::Result<u16> {
    Ok(TcpListener::bind("127.0.0.1:0")?.local_addr()?.port())
}

/// The status code of `GET path`, or `None` when nothing answers.
pub fn http_status(port: u16, path: &str) -> Option<u16> {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).ok()?;
    stream.set_read_timeout(Some(Duration::from_secs(5))).ok()?;
    write!(stream, "GET {path} HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n").ok()?;
    let mut head = [0u8; 12];
    stream.read_exact(&mut head).ok()?;
    std::str::from_utf8(&head[9..12]).ok()?.parse().ok()
}

impl LocalServer {
    /// Start the server (log in `log_dir`) and wait until it lists its model.
    pub fn start(install: &Install, log_dir: &Path) -> Result<LocalServer, String> {
        let port = free_port().map_err(|e| format!("no free port: {e}"))?;
        let log = log_dir.join("llama-server.log");
        let log_file = std::fs::File::create(&log).map_err(|e| e.to_string())?;
        let started = Instant::now();
        let child = Command::new(&install.python)
            .args(["-m", "llama_cpp.server", "--model"])
            .arg(&install.model)
            .args(["--model_alias", MODEL_ALIAS, "--host", "127.0.0.1"])
            .args(["--port", &port.to_string()])
            // The GGUF carries no chat template; without this the server falls back
            // to Llama 2's.
            .args(["--chat_format", "gemma", "--n_ctx", "4096"])
            .stdin(Stdio::null())
            .stdout(log_file.try_clone().map_err(|e| e.to_string())?)
            .stderr(log_file)
            .spawn()
            .map_err(|e| format!("{}: {e}", install.python.display()))?;
        let mut server = LocalServer {
            child,
            base_url: format!("http://127.0.0.1:{port}/v1"),
            ready_after: Duration::ZERO,
            log,
        };
        while started.elapsed() < READY_DEADLINE {
            if let Ok(Some(status)) = server.child.try_wait() {
                return Err(format!(
                    "the server exited ({status}):\n{}",
                    server.log_tail()
                ));
            }
            if http_status(port, "/v1/models") == Some(200) {
                server.ready_after = started.elapsed();
                return Ok(server);
            }
            // Polling: the next attempt after a short pause, until the deadline.
            std::thread::park_timeout(Duration::from_millis(100));
        }
        Err(format!(
            "the server did not answer within {READY_DEADLINE:?}:\n{}",
            server.log_tail()
        ))
    }

    /// The last lines of the server's log.
    pub fn log_tail(&self) -> String {
        let text = std::fs::read_to_string(&self.log).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        lines[lines.len().saturating_sub(20)..].join("\n")
    }
}

impl Drop for LocalServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
