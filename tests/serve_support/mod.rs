//! The real `citeproof serve` binary on 127.0.0.1: started on a free port (read from
//! its "listening on" line), ready once `GET /healthz` answers (polled with a
//! deadline), stopped with SIGTERM on drop; and a small HTTP client for the tests.

#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;

pub const BIN: &str = env!("CARGO_BIN_EXE_citeproof");

/// A running server.
pub struct Server {
    child: Child,
    pub base: String,
    /// The `--admin-listen` listener's base URL, when the server has one.
    pub admin: Option<String>,
    /// Everything the server wrote on standard error so far.
    pub stderr: Arc<Mutex<String>>,
}

/// A command with nothing inherited from the test's environment (`CITEPROOF_*`).
pub fn isolated(dir: &Path) -> Command {
    let mut command = Command::new(BIN);
    for (key, _) in std::env::vars() {
        if key.starts_with("CITEPROOF_") || key == "NO_COLOR" {
            command.env_remove(key);
        }
    }
    command
        .current_dir(dir)
        .env("CITEPROOF_CACHE_DIR", dir.join(".cache"));
    command
}

/// The environment of a run against a mock world: its URLs, its rate limits lifted,
/// short timeouts.
pub fn world_env(urls: Vec<(String, String)>) -> Vec<(String, String)> {
    let mut env = Vec::new();
    for (name, _) in &urls {
        if let Some(source) = name
            .strip_prefix("CITEPROOF_")
            .and_then(|n| n.strip_suffix("_URL"))
        {
            env.push((format!("CITEPROOF_{source}_RATE"), "1000".to_string()));
        }
    }
    env.extend(urls);
    env.push(("CITEPROOF_TIMEOUT".into(), "5".into()));
    env.push(("CITEPROOF_RETRIES".into(), "0".into()));
    env
}

/// Local checks only: no resolution, nothing from the network.
pub fn local_env() -> Vec<(String, String)> {
    vec![
        ("CITEPROOF_NO_RESOLVE".into(), "1".into()),
        ("CITEPROOF_OFFLINE".into(), "1".into()),
    ]
}

impl Server {
    /// Start `citeproof serve --listen 127.0.0.1:0 ARGS` in `dir` with `env`.
    pub fn start(dir: &Path, env: &[(String, String)], args: &[&str]) -> Server {
        let mut child = isolated(dir)
            .envs(env.iter().cloned())
            .args(["serve", "--listen", "127.0.0.1:0"])
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("citeproof serve starts");
        let stderr = child.stderr.take().expect("piped stderr");
        let log = Arc::new(Mutex::new(String::new()));
        let (tx, rx) = mpsc::channel();
        let sink = log.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                for said in ["listening on http://", "health and metrics on http://"] {
                    if let Some(rest) = line.split(said).nth(1) {
                        let address = rest.split_whitespace().next().unwrap_or("").to_string();
                        let _ = tx.send(address);
                    }
                }
                let mut log = sink.lock().unwrap();
                log.push_str(&line);
                log.push('\n');
            }
        });
        let mut said = || match rx.recv_timeout(Duration::from_secs(60)) {
            Ok(address) => address,
            Err(_) => {
                let _ = child.kill();
                panic!(
                    "the server did not say where it listens within 60 s:\n{}",
                    log.lock().unwrap()
                );
            }
        };
        let address = said();
        let admin = args
            .contains(&"--admin-listen")
            .then(|| format!("http://{}", said()));
        let server = Server {
            child,
            base: format!("http://{address}"),
            admin,
            stderr: log,
        };
        let health = format!("{}/healthz", server.admin.as_ref().unwrap_or(&server.base));
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            if let Ok(r) = request(&health, "GET", None, &[])
                && r.status == 200
            {
                return server;
            }
            assert!(Instant::now() < deadline, "/healthz never answered");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    pub fn get(&self, path: &str) -> Result<Reply, String> {
        request(&format!("{}{path}", self.base), "GET", None, &[])
    }

    /// POST a JSON body with these headers (`authorization`, `origin`).
    pub fn post_with(&self, path: &str, body: &Value, headers: &[(&str, &str)]) -> Reply {
        let mut all = vec![("content-type", "application/json")];
        all.extend_from_slice(headers);
        request(
            &format!("{}{path}", self.base),
            "POST",
            Some(body.to_string().into_bytes()),
            &all,
        )
        .unwrap_or_else(|e| panic!("POST {path}: {e}"))
    }

    /// POST a JSON body.
    pub fn post(&self, path: &str, body: &Value) -> Reply {
        self.post_raw(path, &body.to_string(), "application/json")
    }

    pub fn post_raw(&self, path: &str, body: &str, content_type: &str) -> Reply {
        self.post_bytes(path, body.as_bytes().to_vec(), content_type)
    }

    /// POST any bytes (a multipart form).
    pub fn post_bytes(&self, path: &str, body: Vec<u8>, content_type: &str) -> Reply {
        request(
            &format!("{}{path}", self.base),
            "POST",
            Some(body),
            &[("content-type", content_type)],
        )
        .unwrap_or_else(|e| panic!("POST {path}: {e}"))
    }

    /// Send SIGTERM and wait (with a deadline) for the process to end.
    pub fn terminate(&mut self) -> std::process::ExitStatus {
        let _ = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status();
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                return status;
            }
            assert!(
                Instant::now() < deadline,
                "the server did not stop after SIGTERM"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// An answer.
#[derive(Debug, Clone)]
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Reply {
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {} {}", self.status, self.body))
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// One HTTP request with a 60 s deadline.
pub fn request(
    url: &str,
    method: &str,
    body: Option<Vec<u8>>,
    headers: &[(&str, &str)],
) -> Result<Reply, String> {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    runtime.block_on(async {
        let client = reqwest::Client::builder()
            .timeout(Duration::from_secs(60))
            .build()
            .map_err(|e| e.to_string())?;
        let mut builder = client.request(method.parse().map_err(|_| "method")?, url);
        for (k, v) in headers {
            builder = builder.header(*k, *v);
        }
        if let Some(body) = body {
            builder = builder.body(body);
        }
        let response = builder.send().await.map_err(|e| e.to_string())?;
        let status = response.status().as_u16();
        let headers = response
            .headers()
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_str().unwrap_or("").to_string()))
            .collect();
        let body = response.text().await.map_err(|e| e.to_string())?;
        Ok(Reply {
            status,
            headers,
            body,
        })
    })
}

/// The value of an unlabelled metric (or the first matching line's) in `/metrics`.
pub fn metric(text: &str, prefix: &str) -> Option<f64> {
    text.lines()
        .find(|l| l.starts_with(prefix))
        .and_then(|l| l.rsplit(' ').next())
        .and_then(|v| v.parse().ok())
}

/// Poll `done` every 20 ms until it holds, failing after `seconds`.
pub fn wait_until(seconds: u64, what: &str, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(seconds);
    while !done() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}
