//! Server addresses as users write them: `tcp://host:port`, `unix:/path` (or
//! `unix:///path`). `pqsig client` also takes `http(s)://` URLs, which it handles itself.

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;

/// Where a protocol server listens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Endpoint {
    /// `host:port` (a name, an IPv4 address or a bracketed IPv6 address).
    Tcp(String),
    /// A Unix-domain socket path.
    Unix(PathBuf),
}

impl FromStr for Endpoint {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        if let Some(addr) = s.strip_prefix("tcp://") {
            let addr = addr.trim_end_matches('/');
            let port_ok = addr
                .rsplit_once(':')
                .is_some_and(|(host, port)| !host.is_empty() && port.parse::<u16>().is_ok());
            if !port_ok {
                return Err(format!("{s:?}: expected tcp://HOST:PORT"));
            }
            return Ok(Endpoint::Tcp(addr.to_string()));
        }
        if let Some(path) = s.strip_prefix("unix:") {
            // unix:///run/x.sock and unix:/run/x.sock name the same path.
            let path = path.strip_prefix("//").unwrap_or(path);
            if path.is_empty() {
                return Err(format!("{s:?}: expected unix:/PATH"));
            }
            return Ok(Endpoint::Unix(PathBuf::from(path)));
        }
        Err(format!("{s:?}: expected tcp://HOST:PORT or unix:/PATH"))
    }
}

impl fmt::Display for Endpoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Endpoint::Tcp(a) => write!(f, "tcp://{a}"),
            Endpoint::Unix(p) => write!(f, "unix:{}", p.display()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Endpoint;
    use std::path::PathBuf;

    #[test]
    fn addresses_parse_and_print_back() {
        let tcp: Endpoint = "tcp://127.0.0.1:7000".parse().unwrap();
        assert_eq!(tcp, Endpoint::Tcp("127.0.0.1:7000".into()));
        assert_eq!(tcp.to_string(), "tcp://127.0.0.1:7000");
        let v6: Endpoint = "tcp://[::1]:7000/".parse().unwrap();
        assert_eq!(v6, Endpoint::Tcp("[::1]:7000".into()));
        for s in ["unix:/run/pq.sock", "unix:///run/pq.sock"] {
            let u: Endpoint = s.parse().unwrap();
            assert_eq!(u, Endpoint::Unix(PathBuf::from("/run/pq.sock")));
        }
        for bad in [
            "tcp://host",
            "tcp://:80",
            "tcp://h:99999",
            "unix:",
            "http://h:1",
            "h:1",
        ] {
            assert!(bad.parse::<Endpoint>().is_err(), "{bad}");
        }
    }
}
