//! TLS to PostgreSQL with libpq's URL parameters, against a real server (tests/pg_server)
//! that accepts TLS connections only, with certificates made here (rcgen): every
//! `sslmode`, a root certificate that did not sign the server's, a host name the
//! certificate does not carry, a client certificate, and the CLI building and reading
//! an index through a verified connection.

mod bin_support;
mod pg_server;

use std::path::{Path, PathBuf};

use bin_support::citeproof;
use pg_server::{PgServer, ServerTls};
use rcgen::{BasicConstraints, CertificateParams, DnType, IsCa, Issuer, KeyPair, KeyUsagePurpose};

struct Authority {
    pem: String,
    issuer: Issuer<'static, KeyPair>,
}

fn authority(name: &str) -> Authority {
    let key = KeyPair::generate().unwrap();
    let mut params = CertificateParams::new(Vec::<String>::new()).unwrap();
    params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    params.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign];
    params.distinguished_name.push(DnType::CommonName, name);
    let pem = params.self_signed(&key).unwrap().pem();
    Authority {
        pem,
        issuer: Issuer::new(params, key),
    }
}

/// A certificate for `names` (or, with a common name, a client's) and its key, PEM.
fn issue(ca: &Authority, names: &[&str], common_name: &str) -> (String, String) {
    let key = KeyPair::generate().unwrap();
    let names: Vec<String> = names.iter().map(|n| n.to_string()).collect();
    let mut params = CertificateParams::new(names).unwrap();
    params
        .distinguished_name
        .push(DnType::CommonName, common_name);
    let cert = params.signed_by(&key, &ca.issuer).unwrap();
    (cert.pem(), key.serialize_pem())
}

struct Fixture {
    server: PgServer,
    dir: tempfile::TempDir,
}

impl Fixture {
    fn file(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// The server's URL at `host` with these query parameters.
    fn url(&self, host: &str, user: &str, query: &str) -> String {
        format!(
            "postgres://{user}@{host}:{}/postgres?{query}",
            self.server.port
        )
    }
}

/// A TLS-only server whose certificate names 127.0.0.1 only, signed by a test
/// authority; `certuser` logs in with a client certificate, `citeproof` without.
fn start() -> Option<Fixture> {
    let ca = authority("citeproof test authority");
    let (cert_pem, key_pem) = issue(&ca, &["127.0.0.1"], "citeproof test server");
    let hba = "\
hostssl all certuser 127.0.0.1/32 cert
hostssl all citeproof 127.0.0.1/32 trust
hostnossl all all 0.0.0.0/0 reject
"
    .to_string();
    let server = PgServer::start_tls(ServerTls {
        cert_pem,
        key_pem,
        client_ca_pem: ca.pem.clone(),
        hba,
    })?;
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("ca.pem"), &ca.pem).unwrap();
    std::fs::write(
        dir.path().join("other_ca.pem"),
        authority("someone else").pem,
    )
    .unwrap();
    let (client_pem, client_key) = issue(&ca, &[], "certuser");
    std::fs::write(dir.path().join("client.pem"), client_pem).unwrap();
    std::fs::write(dir.path().join("client.key"), client_key).unwrap();
    let fixture = Fixture { server, dir };
    let mut admin =
        citeproof::pg::connect(&fixture.url("127.0.0.1", "citeproof", "sslmode=require"))
            .expect("connect with TLS to create a role");
    admin.batch_execute("CREATE ROLE certuser LOGIN").unwrap();
    Some(fixture)
}

/// Whether the session runs over TLS, as the server sees it.
fn encrypted(url: &str) -> Result<bool, String> {
    let mut client = citeproof::pg::connect(url)?;
    let row = client
        .query_one(
            "SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()",
            &[],
        )
        .map_err(|e| e.to_string())?;
    Ok(row.get(0))
}

fn root(f: &Fixture, name: &str) -> String {
    format!("sslrootcert={}", f.file(name).display())
}

#[test]
fn every_sslmode_against_a_server_that_takes_tls_only() {
    let Some(f) = start() else { return };
    // Without TLS the server's rules refuse the session: TLS below is real.
    let err = encrypted(&f.url("127.0.0.1", "citeproof", "sslmode=disable")).unwrap_err();
    assert!(
        err.contains("no encryption") || err.contains("pg_hba"),
        "{err}"
    );
    // libpq's default (prefer) and require encrypt without checking the certificate.
    assert_eq!(encrypted(&f.url("127.0.0.1", "citeproof", "")), Ok(true));
    assert_eq!(
        encrypted(&f.url("127.0.0.1", "citeproof", "sslmode=require")),
        Ok(true)
    );
    // Checked against the authority that signed it.
    let ca = root(&f, "ca.pem");
    for mode in ["verify-ca", "verify-full", "require"] {
        let url = f.url("127.0.0.1", "citeproof", &format!("sslmode={mode}&{ca}"));
        assert_eq!(encrypted(&url), Ok(true), "{mode}");
    }
    // Another authority: refused in every checking mode, require included.
    let other = root(&f, "other_ca.pem");
    for mode in ["verify-ca", "verify-full", "require"] {
        let url = f.url("127.0.0.1", "citeproof", &format!("sslmode={mode}&{other}"));
        let err = encrypted(&url).unwrap_err();
        assert!(err.contains("UnknownIssuer"), "{mode}: {err}");
    }
    // prefer takes TLS as a bonus and never checks, as in libpq.
    let url = f.url("127.0.0.1", "citeproof", &format!("sslmode=prefer&{other}"));
    assert_eq!(encrypted(&url), Ok(true));
}

#[test]
fn verify_full_checks_the_host_name_and_verify_ca_does_not() {
    let Some(f) = start() else { return };
    let ca = root(&f, "ca.pem");
    // The certificate names 127.0.0.1, not localhost.
    let full = f.url(
        "localhost",
        "citeproof",
        &format!("sslmode=verify-full&{ca}"),
    );
    let err = encrypted(&full).unwrap_err();
    assert!(err.contains("not valid for name \"localhost\""), "{err}");
    let chain = f.url("localhost", "citeproof", &format!("sslmode=verify-ca&{ca}"));
    assert_eq!(encrypted(&chain), Ok(true));
}

#[test]
fn a_client_certificate_logs_in_where_the_server_asks_for_one() {
    let Some(f) = start() else { return };
    let ca = root(&f, "ca.pem");
    let without = f.url(
        "127.0.0.1",
        "certuser",
        &format!("sslmode=verify-full&{ca}"),
    );
    let err = encrypted(&without).unwrap_err();
    assert!(err.contains("certificate"), "{err}");
    let with = format!(
        "{without}&sslcert={}&sslkey={}",
        f.file("client.pem").display(),
        f.file("client.key").display()
    );
    assert_eq!(encrypted(&with), Ok(true));
    // A key file that is not there is named.
    let missing = format!(
        "{without}&sslcert={}&sslkey=/nonexistent/client.key",
        f.file("client.pem").display()
    );
    let err = encrypted(&missing).unwrap_err();
    assert!(err.contains("/nonexistent/client.key"), "{err}");
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/index")
        .join(name)
}

#[test]
fn the_cli_builds_and_reads_an_index_over_a_verified_connection() {
    let Some(f) = start() else { return };
    let url = f.url(
        "127.0.0.1",
        "citeproof",
        &format!("sslmode=verify-full&{}", root(&f, "ca.pem")),
    );
    let out = citeproof()
        .args(["index", "build", &url, "--crossref"])
        .arg(fixture("crossref.json"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let refs = f.file("refs.txt");
    std::fs::write(
        &refs,
        "Hochreiter S, Schmidhuber J. Long short-term memory. Neural Computation. 1997;9(8):1735-1780. doi:10.1162/neco.1997.9.8.1735\n",
    )
    .unwrap();
    let out = citeproof()
        .arg("resolve")
        .arg(&refs)
        .args(["--format", "jsonl", "--index-complete", "--index", &url])
        .args(["--cache-dir", &url])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_str(stdout.lines().next().unwrap()).unwrap();
    assert_eq!(v["status"], "verified", "{stdout}");
    // The same URL with a root certificate that did not sign the server's: a clear
    // error naming the database, its password hidden, and no result made up.
    let bad = f.url(
        "127.0.0.1",
        "citeproof:secret",
        &format!("sslmode=verify-full&{}", root(&f, "other_ca.pem")),
    );
    let out = citeproof().args(["index", "stats", &bad]).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(stderr.contains("UnknownIssuer"), "{stderr}");
    assert!(!stderr.contains("secret"), "{stderr}");
}
