//! A minimal language-server client over the server's standard input and output,
//! for the benchmark: framed JSON-RPC, requests from the server answered with
//! `null`, waiting for a message with a deadline.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

pub struct Server {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    next_id: i64,
}

impl Server {
    /// Start `bin lsp` with exactly `env` as its citeproof environment.
    pub fn spawn(bin: &Path, env: &[(String, String)]) -> Server {
        let mut command = Command::new(bin);
        command.arg("lsp");
        for (key, _) in std::env::vars() {
            if key.starts_with("CITEPROOF_") {
                command.env_remove(key);
            }
        }
        let mut child = command
            .envs(env.iter().cloned())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", bin.display()));
        Server {
            stdin: child.stdin.take().expect("stdin"),
            stdout: BufReader::new(child.stdout.take().expect("stdout")),
            child,
            next_id: 0,
        }
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    pub fn send(&mut self, message: &Value) {
        let body = message.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).expect("write");
        self.stdin.flush().expect("flush");
    }

    pub fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    pub fn request(&mut self, method: &str, params: Value) -> i64 {
        self.next_id += 1;
        let id = self.next_id;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        id
    }

    fn read(&mut self) -> Value {
        let mut length = 0;
        loop {
            let mut line = String::new();
            if self.stdout.read_line(&mut line).expect("read") == 0 {
                panic!("the server closed its output");
            }
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some(v) = line.strip_prefix("Content-Length: ") {
                length = v.parse().expect("length");
            }
        }
        let mut body = vec![0; length];
        self.stdout.read_exact(&mut body).expect("body");
        serde_json::from_slice(&body).expect("JSON")
    }

    /// The next message satisfying `wanted`; requests from the server on the way
    /// are answered with `null`. Panics after `deadline`.
    pub fn wait(&mut self, deadline: Duration, mut wanted: impl FnMut(&Value) -> bool) -> Value {
        let until = Instant::now() + deadline;
        loop {
            // Blocking reads: the deadline is checked between messages.
            assert!(
                Instant::now() < until,
                "no wanted message before the deadline"
            );
            let message = self.read();
            if message.get("method").is_some() && message.get("id").is_some() {
                let id = message["id"].clone();
                self.send(&json!({"jsonrpc": "2.0", "id": id, "result": null}));
            }
            if wanted(&message) {
                return message;
            }
        }
    }

    /// Send `change` to the document `uri` as its `version`, and wait (up to
    /// `deadline`) for the diagnostics of that version: the time it took.
    pub fn change_and_wait(
        &mut self,
        uri: &str,
        version: i64,
        change: Value,
        deadline: Duration,
    ) -> Duration {
        let sent = Instant::now();
        self.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": version},
                   "contentChanges": [change]}),
        );
        self.wait(deadline, |m| is_publish(m, uri, Some(version)));
        sent.elapsed()
    }

    pub fn initialize(&mut self, root: &Path, capabilities: Value) {
        let root_uri = url::Url::from_directory_path(root)
            .expect("absolute root")
            .to_string();
        let id = self.request(
            "initialize",
            json!({"processId": null, "rootUri": root_uri, "capabilities": capabilities}),
        );
        self.wait(Duration::from_secs(30), |m| m["id"] == id);
        self.notify("initialized", json!({}));
    }

    /// `shutdown`, `exit`, and the exit status.
    pub fn shutdown(mut self) -> bool {
        let id = self.request("shutdown", Value::Null);
        self.wait(Duration::from_secs(30), |m| m["id"] == id);
        self.notify("exit", Value::Null);
        self.child.wait().expect("wait").success()
    }
}

/// The environment of a server resolving against a mock world (its
/// `CITEPROOF_<NAME>_URL`s): rate limits lifted, a cache of its own, a contact address.
pub fn world_server_env(
    world_env: Vec<(String, String)>,
    cache: &Path,
    mailto: &str,
) -> Vec<(String, String)> {
    let mut env = world_env;
    let rates: Vec<(String, String)> = env
        .iter()
        .map(|(name, _)| (name.replace("_URL", "_RATE"), "1000".to_string()))
        .collect();
    env.extend(rates);
    env.push(("CITEPROOF_CACHE_DIR".into(), cache.display().to_string()));
    env.push(("CITEPROOF_MAILTO".into(), mailto.into()));
    env
}

/// What the benchmarks' client says it supports: progress reports, UTF-16 positions.
pub fn capabilities() -> Value {
    json!({"window": {"workDoneProgress": true},
           "general": {"positionEncodings": ["utf-16"]}})
}

/// `publishDiagnostics` for `uri`, with `version` when given.
pub fn is_publish(message: &Value, uri: &str, version: Option<i64>) -> bool {
    message["method"] == "textDocument/publishDiagnostics"
        && message["params"]["uri"] == uri
        && version.is_none_or(|v| message["params"]["version"] == v)
}

/// Resident and peak memory of a process, in MiB (Linux).
pub fn memory_mib(pid: u32) -> Option<(f64, f64)> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let field = |name: &str| -> Option<f64> {
        let line = status.lines().find(|l| l.starts_with(name))?;
        let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kb / 1024.0)
    };
    Some((field("VmRSS:")?, field("VmHWM:")?))
}

/// CPU time a process has used so far, user and system together (Linux: clock
/// ticks of 10 ms in `/proc/PID/stat`). Edit latency on a loaded machine is
/// mostly waiting for a core; the CPU time per edit is what the server costs.
pub fn cpu_time(pid: u32) -> Option<Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Fields after the command name (which may hold spaces) in parentheses.
    let after = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = after.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(Duration::from_millis(ticks * 10))
}
