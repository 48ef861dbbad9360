//! A real PostgreSQL server for the tests, started in a temporary folder on a free
//! port (initdb + pg_ctl) and stopped when dropped. Skipped, with a message, when the
//! binaries are absent — unless `CITEPROOF_POSTGRES_REQUIRED=1` (CI), where that fails.
//! initdb refuses to run as root: as root, the server runs as the `postgres` user (or
//! `nobody`) through `runuser`.
#![allow(dead_code)] // Each test file uses a part.

use std::net::TcpListener;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

pub struct PgServer {
    dir: tempfile::TempDir,
    bin: PathBuf,
    user: Option<String>,
    pub port: u16,
}

/// The folder holding initdb and pg_ctl: `$CITEPROOF_PG_BIN`, Debian's
/// /usr/lib/postgresql/N/bin (newest), or the PATH.
fn find_bin() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("CITEPROOF_PG_BIN") {
        return Some(PathBuf::from(dir));
    }
    let mut debian: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .map(|e| e.path().join("bin"))
        .filter(|p| p.join("initdb").is_file() && p.join("pg_ctl").is_file())
        .collect();
    debian.sort_by_key(|p| {
        let version = p.parent().and_then(Path::file_name);
        version
            .and_then(|v| v.to_str()?.parse::<u32>().ok())
            .unwrap_or(0)
    });
    if let Some(dir) = debian.pop() {
        return Some(dir);
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).find(|d| d.join("initdb").is_file() && d.join("pg_ctl").is_file())
}

fn is_root() -> bool {
    std::fs::metadata("/proc/self").is_ok_and(|m| m.uid() == 0)
}

/// The unprivileged account the server runs as when the tests run as root.
fn server_user() -> Option<String> {
    let passwd = std::fs::read_to_string("/etc/passwd").unwrap_or_default();
    ["postgres", "nobody"]
        .into_iter()
        .find(|u| passwd.lines().any(|l| l.starts_with(&format!("{u}:"))))
        .map(str::to_string)
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// A server that speaks TLS: its certificate and key (PEM), the authority its
/// client certificates are checked against, and the whole of its pg_hba.conf.
pub struct ServerTls {
    pub cert_pem: String,
    pub key_pem: String,
    pub client_ca_pem: String,
    pub hba: String,
}

impl PgServer {
    /// Start a server, or `None` (with a message) when PostgreSQL is not installed.
    pub fn start() -> Option<PgServer> {
        PgServer::start_with(None)
    }

    /// [`PgServer::start`] with TLS on and the given client authentication rules.
    pub fn start_tls(tls: ServerTls) -> Option<PgServer> {
        PgServer::start_with(Some(tls))
    }

    fn start_with(tls: Option<ServerTls>) -> Option<PgServer> {
        let required = std::env::var("CITEPROOF_POSTGRES_REQUIRED").is_ok_and(|v| v == "1");
        let Some(bin) = find_bin() else {
            assert!(
                !required,
                "CITEPROOF_POSTGRES_REQUIRED=1 but no initdb/pg_ctl found"
            );
            eprintln!("skipping: PostgreSQL (initdb, pg_ctl) is not installed");
            return None;
        };
        let user = if is_root() {
            Some(
                server_user().expect("as root, a `postgres` or `nobody` account to run the server"),
            )
        } else {
            None
        };
        let dir = tempfile::tempdir().expect("temporary folder");
        if let Some(user) = &user {
            let status = Command::new("chown")
                .args(["-R", user])
                .arg(dir.path())
                .status()
                .expect("chown");
            assert!(status.success(), "chown {user} {}", dir.path().display());
        }
        let server = PgServer {
            dir,
            bin,
            user,
            port: free_port(),
        };
        let data = server.data();
        server.run(
            "initdb",
            &[
                "-D",
                data.to_str().unwrap(),
                "-U",
                "citeproof",
                "--auth=trust",
                "-E",
                "UTF8",
                "--no-locale",
            ],
        );
        let mut options = format!(
            "-c listen_addresses=127.0.0.1 -p {} -c unix_socket_directories='' -c fsync=off",
            server.port
        );
        if let Some(tls) = &tls {
            server.write_file("server.crt", &tls.cert_pem);
            server.write_file("server.key", &tls.key_pem);
            server.write_file("client_ca.crt", &tls.client_ca_pem);
            server.write_file("pg_hba.conf", &tls.hba);
            options.push_str(
                " -c ssl=on -c ssl_cert_file=server.crt -c ssl_key_file=server.key -c ssl_ca_file=client_ca.crt",
            );
        }
        let log = server.dir.path().join("server.log");
        server.run(
            "pg_ctl",
            &[
                "-D",
                data.to_str().unwrap(),
                "-l",
                log.to_str().unwrap(),
                "-o",
                &options,
                "-W",
                "start",
            ],
        );
        server.wait_ready(Duration::from_secs(60));
        Some(server)
    }

    /// A file in the data folder, owned by the server's account and private to it
    /// (PostgreSQL refuses a key others can read).
    fn write_file(&self, name: &str, text: &str) {
        use std::os::unix::fs::PermissionsExt;
        let path = self.data().join(name);
        std::fs::write(&path, text).expect("write a server file");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).expect("chmod");
        if let Some(user) = &self.user {
            let status = Command::new("chown")
                .arg(user)
                .arg(&path)
                .status()
                .expect("chown");
            assert!(status.success(), "chown {user} {}", path.display());
        }
    }

    fn data(&self) -> PathBuf {
        self.dir.path().join("data")
    }

    fn run(&self, program: &str, args: &[&str]) {
        let exe = self.bin.join(program);
        let mut cmd = match &self.user {
            Some(user) => {
                let mut c = Command::new("runuser");
                c.args(["-u", user, "--"]).arg(&exe);
                c
            }
            None => Command::new(&exe),
        };
        let out = cmd.args(args).output().expect("run a PostgreSQL program");
        assert!(
            out.status.success(),
            "{program} failed: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// Poll until the server accepts connections, with a deadline.
    fn wait_ready(&self, deadline: Duration) {
        let start = Instant::now();
        loop {
            match postgres::Client::connect(&self.url("postgres"), postgres::NoTls) {
                Ok(_) => return,
                // Refused by its rules (a server that only takes TLS): it is up.
                Err(e)
                    if e.as_db_error().is_some()
                        && e.code() != Some(&postgres::error::SqlState::CANNOT_CONNECT_NOW) =>
                {
                    return;
                }
                Err(e) if start.elapsed() > deadline => {
                    let log = std::fs::read_to_string(self.dir.path().join("server.log"));
                    panic!("PostgreSQL did not start: {e}\n{}", log.unwrap_or_default())
                }
                // The poll's interval, bounded by the deadline above.
                Err(_) => std::thread::sleep(Duration::from_millis(20)),
            }
        }
    }

    pub fn url(&self, database: &str) -> String {
        format!("postgres://citeproof@127.0.0.1:{}/{database}", self.port)
    }

    /// A new empty database; its URL.
    pub fn database(&self, name: &str) -> String {
        let mut admin =
            postgres::Client::connect(&self.url("postgres"), postgres::NoTls).expect("connect");
        admin
            .batch_execute(&format!("CREATE DATABASE {name}"))
            .expect("create database");
        self.url(name)
    }
}

impl Drop for PgServer {
    fn drop(&mut self) {
        let data = self.data();
        let exe = self.bin.join("pg_ctl");
        let args = [
            "-D",
            data.to_str().unwrap_or(""),
            "-m",
            "immediate",
            "-w",
            "stop",
        ];
        let _ = match &self.user {
            Some(user) => Command::new("runuser")
                .args(["-u", user, "--"])
                .arg(&exe)
                .args(args)
                .output(),
            None => Command::new(&exe).args(args).output(),
        };
    }
}
