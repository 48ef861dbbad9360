//! Which URLs full text may be downloaded from.
//!
//! Only http(s). URLs that come from documents or from API records may point anywhere,
//! so they are refused when their host is, or resolves to, a loopback, private,
//! link-local, unique-local or otherwise internal address — unless private addresses
//! are explicitly allowed. URLs under a configured base URL (a source mirror, the
//! mock world in tests) are trusted. The same rules guard every redirect hop and every
//! DNS answer the HTTP client uses, so a public name cannot lead to an internal address.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::Arc;

use url::{Host, Url};

use crate::net::{Net, NetConfig, NetError};

/// Why a URL is not fetched.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UrlRefusal {
    #[error("not a URL: {0}")]
    Malformed(String),
    #[error("only http and https URLs are fetched, not `{0}:`")]
    Scheme(String),
    #[error("URL without a host")]
    NoHost,
    #[error("{host} is an internal address ({ip}); not fetched from a document-supplied URL")]
    Internal { host: String, ip: IpAddr },
    /// A redirect (or a DNS answer met while connecting) broke one of the rules.
    #[error("refused while connecting: {0}")]
    WhileConnecting(String),
    #[error("{host} could not be resolved: {message}")]
    Unresolvable { host: String, message: String },
}

/// The rules for one run.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct UrlPolicy {
    /// Allow internal addresses for every URL (tests, intranet mirrors).
    pub allow_private: bool,
    /// Base URLs whose URLs (same scheme, host, port and path prefix) are trusted.
    pub trusted: Vec<Url>,
}

impl UrlPolicy {
    pub fn new(trusted: impl IntoIterator<Item = Url>) -> UrlPolicy {
        UrlPolicy {
            allow_private: false,
            trusted: trusted.into_iter().collect(),
        }
    }

    /// A policy trusting every URL under these base URLs (the configured sources').
    pub fn trusting<'a>(base_urls: impl IntoIterator<Item = &'a str>) -> UrlPolicy {
        let mut policy = UrlPolicy::default();
        for base_url in base_urls {
            policy.trust(base_url);
        }
        policy
    }

    /// A network client whose DNS answers and redirects are checked by this policy
    /// (`mailto`: the contact address sent to polite pools).
    pub fn guarded_net(self: &Arc<Self>, mailto: Option<String>) -> Result<Net, NetError> {
        let config = NetConfig {
            mailto,
            ..NetConfig::default()
        };
        Net::with_client_options(&config, |builder| {
            builder
                .dns_resolver(self.resolver())
                .redirect(self.redirect_policy())
        })
    }

    /// Trust `base` and everything under it.
    pub fn trust(&mut self, base: &str) {
        if let Ok(url) = Url::parse(base.trim_end_matches('/')) {
            self.trusted.push(url);
        }
    }

    /// Whether `url` lies under a configured base URL.
    pub fn is_trusted(&self, url: &Url) -> bool {
        self.trusted.iter().any(|base| {
            base.scheme() == url.scheme()
                && base.host_str() == url.host_str()
                && base.port_or_known_default() == url.port_or_known_default()
                && under_path(base.path(), url.path())
        })
    }

    fn trusted_host(&self, host: &str) -> bool {
        self.trusted
            .iter()
            .any(|b| b.host_str().is_some_and(|h| h.eq_ignore_ascii_case(host)))
    }

    /// The checks that need no DNS: scheme, host, and an IP-literal host.
    pub fn check_syntax(&self, url: &Url) -> Result<(), UrlRefusal> {
        if !matches!(url.scheme(), "http" | "https") {
            return Err(UrlRefusal::Scheme(url.scheme().to_string()));
        }
        let host = url.host().ok_or(UrlRefusal::NoHost)?;
        if self.allow_private || self.is_trusted(url) {
            return Ok(());
        }
        let ip = match host {
            Host::Ipv4(ip) => IpAddr::V4(ip),
            Host::Ipv6(ip) => IpAddr::V6(ip),
            Host::Domain(_) => return Ok(()),
        };
        if is_internal(ip) {
            return Err(UrlRefusal::Internal {
                host: url.host_str().unwrap_or_default().to_string(),
                ip,
            });
        }
        Ok(())
    }

    /// Every check: [`UrlPolicy::check_syntax`], then every address the host resolves to.
    pub async fn check(&self, url: &Url) -> Result<(), UrlRefusal> {
        self.check_syntax(url)?;
        if self.allow_private || self.is_trusted(url) {
            return Ok(());
        }
        let Some(Host::Domain(domain)) = url.host() else {
            return Ok(());
        };
        let port = url.port_or_known_default().unwrap_or(80);
        let addrs = tokio::net::lookup_host((domain, port)).await.map_err(|e| {
            UrlRefusal::Unresolvable {
                host: domain.to_string(),
                message: e.to_string(),
            }
        })?;
        for addr in addrs {
            if is_internal(addr.ip()) {
                return Err(UrlRefusal::Internal {
                    host: domain.to_string(),
                    ip: addr.ip(),
                });
            }
        }
        Ok(())
    }

    /// A redirect policy applying [`UrlPolicy::check_syntax`] to every hop (at most 10).
    pub fn redirect_policy(self: &Arc<Self>) -> reqwest::redirect::Policy {
        let policy = self.clone();
        reqwest::redirect::Policy::custom(move |attempt| {
            if attempt.previous().len() >= 10 {
                return attempt.error("more than 10 redirects");
            }
            match policy.check_syntax(attempt.url()) {
                Ok(()) => attempt.follow(),
                Err(refusal) => attempt.error(refusal),
            }
        })
    }

    /// A DNS resolver that drops internal addresses, except for trusted hosts.
    pub fn resolver(self: &Arc<Self>) -> Arc<GuardedResolver> {
        Arc::new(GuardedResolver {
            policy: self.clone(),
        })
    }
}

/// Texts by which a refusal raised inside the HTTP client (by the resolver or the
/// redirect policy) is recognised in its error message.
pub const REFUSAL_MARKS: [&str; 2] = [
    "not fetched from a document-supplied URL",
    "only http and https URLs are fetched",
];

/// `path` is `base` or below it.
fn under_path(base: &str, path: &str) -> bool {
    let base = base.trim_end_matches('/');
    base.is_empty()
        || path == base
        || path
            .strip_prefix(base)
            .is_some_and(|rest| rest.starts_with('/'))
}

/// Loopback, private, link-local, unique-local, unspecified, shared (CGNAT),
/// broadcast and multicast addresses, IPv4-mapped IPv6 included.
pub fn is_internal(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => is_internal_v4(v4),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => is_internal_v4(v4),
            None => is_internal_v6(v6),
        },
    }
}

fn is_internal_v4(ip: Ipv4Addr) -> bool {
    let [a, b, ..] = ip.octets();
    ip.is_loopback()
        || ip.is_private()
        || ip.is_link_local()
        || ip.is_unspecified()
        || ip.is_broadcast()
        || ip.is_multicast()
        || a == 0
        || (a == 100 && (64..128).contains(&b))
}

fn is_internal_v6(ip: Ipv6Addr) -> bool {
    let first = ip.segments()[0];
    ip.is_loopback()
        || ip.is_unspecified()
        || ip.is_multicast()
        || (first & 0xfe00) == 0xfc00
        || (first & 0xffc0) == 0xfe80
}

/// The HTTP client's resolver for full-text downloads.
#[derive(Debug)]
pub struct GuardedResolver {
    policy: Arc<UrlPolicy>,
}

impl reqwest::dns::Resolve for GuardedResolver {
    fn resolve(&self, name: reqwest::dns::Name) -> reqwest::dns::Resolving {
        let policy = self.policy.clone();
        let host = name.as_str().to_string();
        Box::pin(async move {
            let addrs: Vec<SocketAddr> =
                tokio::net::lookup_host((host.as_str(), 0)).await?.collect();
            if policy.allow_private || policy.trusted_host(&host) {
                return Ok(Box::new(addrs.into_iter()) as reqwest::dns::Addrs);
            }
            let public: Vec<SocketAddr> = addrs
                .iter()
                .copied()
                .filter(|a| !is_internal(a.ip()))
                .collect();
            if public.is_empty() {
                let ip = addrs
                    .first()
                    .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |a| a.ip());
                return Err(Box::new(UrlRefusal::Internal { host, ip }) as _);
            }
            Ok(Box::new(public.into_iter()) as reqwest::dns::Addrs)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(s: &str) -> Url {
        Url::parse(s).unwrap()
    }

    #[test]
    fn internal_addresses() {
        for ip in [
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "192.168.1.1",
            "169.254.169.254",
            "0.0.0.0",
            "100.64.0.1",
            "::1",
            "fe80::1",
            "fd00::1",
            "::ffff:127.0.0.1",
        ] {
            assert!(is_internal(ip.parse().unwrap()), "{ip}");
        }
        for ip in ["93.184.216.34", "2606:4700::1111", "172.32.0.1"] {
            assert!(!is_internal(ip.parse().unwrap()), "{ip}");
        }
    }

    #[test]
    fn only_http_and_no_internal_literals_unless_allowed_or_trusted() {
        let mut policy = UrlPolicy::default();
        assert!(matches!(
            policy.check_syntax(&url("file:///etc/passwd")),
            Err(UrlRefusal::Scheme(_))
        ));
        assert!(matches!(
            policy.check_syntax(&url("ftp://example.org/x.pdf")),
            Err(UrlRefusal::Scheme(_))
        ));
        let local = url("http://127.0.0.1:8080/paper.pdf");
        assert!(matches!(
            policy.check_syntax(&local),
            Err(UrlRefusal::Internal { .. })
        ));
        assert!(policy.check_syntax(&url("http://[::1]/x")).is_err());
        policy.trust("http://127.0.0.1:8080/mirror/");
        assert!(
            policy.check_syntax(&local).is_err(),
            "outside the trusted path"
        );
        assert!(
            policy
                .check_syntax(&url("http://127.0.0.1:8080/mirror/x.pdf"))
                .is_ok()
        );
        assert!(
            policy
                .check_syntax(&url("http://127.0.0.1:8080/mirrored"))
                .is_err()
        );
        policy.allow_private = true;
        assert!(policy.check_syntax(&local).is_ok());
        assert!(policy.check_syntax(&url("file:///etc/passwd")).is_err());
    }

    #[tokio::test]
    async fn names_resolving_to_loopback_are_refused() {
        let policy = UrlPolicy::default();
        let err = policy
            .check(&url("http://localhost:9/paper.html"))
            .await
            .unwrap_err();
        assert!(
            matches!(
                err,
                UrlRefusal::Internal { .. } | UrlRefusal::Unresolvable { .. }
            ),
            "{err:?}"
        );
    }
}
