//! TLS to PostgreSQL with libpq's parameters, so a URL copied from a provider or a
//! `psql` command line works as it is: `sslmode` (`disable`, `prefer` — the default —,
//! `require`, `verify-ca`, `verify-full`), `sslrootcert` (a PEM file, or `system` for
//! the platform's roots), `sslcert` + `sslkey` (a client certificate). Each may also come
//! from libpq's environment variables (`PGSSLMODE`, `PGSSLROOTCERT`, `PGSSLCERT`,
//! `PGSSLKEY`) when the URL does not name it.
//!
//! As in libpq, `prefer` encrypts when the server offers it and never checks its
//! certificate; `require` encrypts and checks the chain only when a root certificate is
//! at hand (`sslrootcert`, or `~/.postgresql/root.crt`), as `verify-ca` does;
//! `verify-full` also checks that the certificate names the host.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use rustls::client::WebPkiServerVerifier;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::CryptoProvider;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName, UnixTime};
use rustls::{
    CertificateError, ClientConfig, DigitallySignedStruct, RootCertStore, SignatureScheme,
};
use tokio_postgres_rustls::MakeRustlsConnect;

/// libpq's `sslmode`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SslMode {
    Disable,
    Prefer,
    Require,
    VerifyCa,
    VerifyFull,
}

impl SslMode {
    fn parse(value: &str) -> Result<SslMode, String> {
        Ok(match value {
            "disable" => SslMode::Disable,
            // `allow` tries without TLS first; the client library has no such order,
            // and TLS when offered is the safer reading.
            "allow" | "prefer" => SslMode::Prefer,
            "require" => SslMode::Require,
            "verify-ca" => SslMode::VerifyCa,
            "verify-full" => SslMode::VerifyFull,
            other => {
                return Err(format!(
                    "sslmode={other} is not one of disable, allow, prefer, require, verify-ca, verify-full"
                ));
            }
        })
    }

    /// The client library's mode (it knows no `verify-*`: those require TLS, and the
    /// checking is done by the verifier).
    fn client_mode(self) -> postgres::config::SslMode {
        match self {
            SslMode::Disable => postgres::config::SslMode::Disable,
            SslMode::Prefer => postgres::config::SslMode::Prefer,
            _ => postgres::config::SslMode::Require,
        }
    }
}

/// Where the server's certificate is checked against.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Roots {
    /// No root certificate: encrypt without checking (libpq's `prefer`/`require`).
    None,
    /// The platform's trusted roots (`sslrootcert=system`).
    System,
    File(PathBuf),
}

/// The TLS parameters of one URL.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TlsParams {
    pub mode: SslMode,
    pub roots: Roots,
    pub client_cert: Option<(PathBuf, PathBuf)>,
}

/// The libpq parameters the client library does not parse itself, taken out of the
/// URL's query: the URL left for `postgres::Config` and the TLS parameters.
pub fn split_url(url: &str) -> Result<(String, TlsParams), String> {
    let (base, query) = match url.split_once('?') {
        Some((base, query)) => (base, query),
        None => (url, ""),
    };
    let mut kept = Vec::new();
    let given = |key: &str| -> Option<String> { std::env::var(key).ok() };
    let (mut mode, mut root, mut cert, mut key) = (None, None, None, None);
    for (name, value) in url::form_urlencoded::parse(query.as_bytes()) {
        match name.as_ref() {
            "sslmode" => mode = Some(value.into_owned()),
            "sslrootcert" => root = Some(value.into_owned()),
            "sslcert" => cert = Some(value.into_owned()),
            "sslkey" => key = Some(value.into_owned()),
            _ => kept.push((name.into_owned(), value.into_owned())),
        }
    }
    let mode = SslMode::parse(
        &mode
            .or_else(|| given("PGSSLMODE"))
            .unwrap_or_else(|| "prefer".into()),
    )?;
    let root = root.or_else(|| given("PGSSLROOTCERT"));
    let cert = cert.or_else(|| given("PGSSLCERT"));
    let key = key.or_else(|| given("PGSSLKEY"));
    let roots = match root.as_deref() {
        Some("system") => Roots::System,
        Some(file) => Roots::File(PathBuf::from(file)),
        None => match default_root_file() {
            Some(file) => Roots::File(file),
            None if matches!(mode, SslMode::VerifyCa | SslMode::VerifyFull) => {
                return Err(format!(
                    "sslmode={} needs a root certificate to check the server's against: \
                     add sslrootcert=FILE (or sslrootcert=system) to the URL",
                    if mode == SslMode::VerifyCa {
                        "verify-ca"
                    } else {
                        "verify-full"
                    }
                ));
            }
            None => Roots::None,
        },
    };
    let client_cert = match (cert, key) {
        (Some(cert), Some(key)) => Some((PathBuf::from(cert), PathBuf::from(key))),
        (None, None) => None,
        _ => return Err("sslcert and sslkey are given together or not at all".to_string()),
    };
    let mut rest = base.to_string();
    if !kept.is_empty() {
        let query: String = url::form_urlencoded::Serializer::new(String::new())
            .extend_pairs(kept)
            .finish();
        rest = format!("{base}?{query}");
    }
    Ok((
        rest,
        TlsParams {
            mode,
            roots,
            client_cert,
        },
    ))
}

/// libpq's default root certificate, when it exists.
fn default_root_file() -> Option<PathBuf> {
    let file = PathBuf::from(std::env::var_os("HOME")?).join(".postgresql/root.crt");
    file.is_file().then_some(file)
}

/// The client configuration and the TLS connector of a URL.
pub fn connect_config(url: &str) -> Result<(postgres::Config, MakeRustlsConnect), String> {
    let (rest, params) = split_url(url)?;
    let mut config: postgres::Config = rest
        .parse()
        .map_err(|e| format!("not a PostgreSQL URL ({e})"))?;
    config.ssl_mode(params.mode.client_mode());
    Ok((config, MakeRustlsConnect::new(client_config(&params)?)))
}

fn provider() -> Arc<CryptoProvider> {
    crate::net::ensure_crypto_provider();
    CryptoProvider::get_default()
        .cloned()
        .unwrap_or_else(|| Arc::new(rustls::crypto::ring::default_provider()))
}

fn client_config(params: &TlsParams) -> Result<ClientConfig, String> {
    let provider = provider();
    let chain = match &params.roots {
        // libpq's `prefer` never checks: it takes TLS only as a bonus.
        _ if params.mode == SslMode::Prefer => None,
        Roots::None => None,
        roots => Some(
            WebPkiServerVerifier::builder_with_provider(
                Arc::new(root_store(roots)?),
                provider.clone(),
            )
            .build()
            .map_err(|e| format!("root certificates: {e}"))?,
        ),
    };
    let verifier = Arc::new(Verifier {
        provider: provider.clone(),
        chain,
        names: params.mode == SslMode::VerifyFull,
    });
    let builder = ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| e.to_string())?
        .dangerous()
        .with_custom_certificate_verifier(verifier);
    match &params.client_cert {
        None => Ok(builder.with_no_client_auth()),
        Some((cert, key)) => {
            let chain = certificates(cert)?;
            let key = PrivateKeyDer::from_pem_file(key)
                .map_err(|e| format!("sslkey {}: {e}", key.display()))?;
            builder
                .with_client_auth_cert(chain, key)
                .map_err(|e| format!("sslcert {}: {e}", cert.display()))
        }
    }
}

fn certificates(file: &Path) -> Result<Vec<CertificateDer<'static>>, String> {
    let certs = CertificateDer::pem_file_iter(file)
        .and_then(|certs| certs.collect::<Result<Vec<_>, _>>())
        .map_err(|e| format!("{}: {e}", file.display()))?;
    if certs.is_empty() {
        return Err(format!("{}: no PEM certificate", file.display()));
    }
    Ok(certs)
}

fn root_store(roots: &Roots) -> Result<RootCertStore, String> {
    let mut store = RootCertStore::empty();
    match roots {
        Roots::None => {}
        Roots::System => {
            let found = rustls_native_certs::load_native_certs();
            let (added, _) = store.add_parsable_certificates(found.certs);
            if added == 0 {
                return Err(
                    "sslrootcert=system: no trusted root certificates on this machine".into(),
                );
            }
        }
        Roots::File(file) => {
            for cert in certificates(file)? {
                store
                    .add(cert)
                    .map_err(|e| format!("sslrootcert {}: {e}", file.display()))?;
            }
        }
    }
    Ok(store)
}

/// The server certificate check of a mode: none (`prefer`, or `require` without a
/// root certificate: the session is encrypted, the handshake's signatures are still
/// checked, the certificate is not), the chain up to a root (`verify-ca`), or the
/// chain and the host name (`verify-full`).
#[derive(Debug)]
struct Verifier {
    provider: Arc<CryptoProvider>,
    chain: Option<Arc<WebPkiServerVerifier>>,
    names: bool,
}

impl ServerCertVerifier for Verifier {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        let Some(chain) = &self.chain else {
            return Ok(ServerCertVerified::assertion());
        };
        match chain.verify_server_cert(end_entity, intermediates, server_name, ocsp, now) {
            Err(rustls::Error::InvalidCertificate(
                CertificateError::NotValidForName | CertificateError::NotValidForNameContext { .. },
            )) if !self.names => Ok(ServerCertVerified::assertion()),
            other => other,
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        let algorithms = &self.provider.signature_verification_algorithms;
        rustls::crypto::verify_tls12_signature(message, cert, dss, algorithms)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        let algorithms = &self.provider.signature_verification_algorithms;
        rustls::crypto::verify_tls13_signature(message, cert, dss, algorithms)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.provider
            .signature_verification_algorithms
            .supported_schemes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(url: &str) -> (String, TlsParams) {
        split_url(url).unwrap()
    }

    #[test]
    fn libpq_parameters_are_taken_out_and_the_rest_kept() {
        let (rest, p) = params(
            "postgres://u@db:5432/idx?application_name=ci&sslmode=verify-full&sslrootcert=%2Fetc%2Fca.pem&connect_timeout=5",
        );
        assert_eq!(
            rest,
            "postgres://u@db:5432/idx?application_name=ci&connect_timeout=5"
        );
        assert_eq!(p.mode, SslMode::VerifyFull);
        assert_eq!(p.roots, Roots::File("/etc/ca.pem".into()));
        assert_eq!(p.client_cert, None);
        let (rest, p) = params("postgres://u@db/idx?sslmode=require&sslrootcert=system");
        assert_eq!(rest, "postgres://u@db/idx");
        assert_eq!((p.mode, p.roots), (SslMode::Require, Roots::System));
    }

    #[test]
    fn client_certificates_come_in_pairs_and_modes_are_checked() {
        let (_, p) = params("postgres://u@db/i?sslmode=disable&sslcert=c.pem&sslkey=k.pem");
        assert_eq!(p.client_cert, Some(("c.pem".into(), "k.pem".into())));
        assert_eq!(p.mode.client_mode(), postgres::config::SslMode::Disable);
        assert!(split_url("postgres://u@db/i?sslmode=require&sslcert=c.pem").is_err());
        let err = split_url("postgres://u@db/i?sslmode=strict").unwrap_err();
        assert!(err.contains("sslmode=strict"), "{err}");
    }

    #[test]
    fn verifying_modes_need_a_root_certificate() {
        if default_root_file().is_some() || std::env::var_os("PGSSLROOTCERT").is_some() {
            return; // This machine supplies one; the refusal cannot be seen here.
        }
        let err = split_url("postgres://u@db/i?sslmode=verify-ca").unwrap_err();
        assert!(err.contains("sslrootcert"), "{err}");
    }

    #[test]
    fn a_missing_root_file_is_named() {
        let p = TlsParams {
            mode: SslMode::VerifyFull,
            roots: Roots::File("/nonexistent/ca.pem".into()),
            client_cert: None,
        };
        let err = client_config(&p).unwrap_err();
        assert!(err.contains("/nonexistent/ca.pem"), "{err}");
    }
}
