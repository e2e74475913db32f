//! TLS for the server: a self-signed CA and serving certificate made at
//! start, or a certificate and key loaded from PEM files; the rustls
//! [`ServerConfig`] (ALPN `h2` and `http/1.1`, optional client
//! certificates); and the user a verified client certificate names.
//!
//! - Generation follows `GenerateSelfSignedCertKeyWithFixtures` in
//!   `k8s.io/client-go/util/cert`, which kube-apiserver uses when it is
//!   given no `--tls-cert-file`: a CA and a serving certificate signed by
//!   it, both valid from one hour ago (clock skew) for one year, the
//!   serving certificate for server authentication only, and a chain of the
//!   serving certificate followed by the CA. The keys are ECDSA P-256
//!   instead of RSA 2048: the `ring` provider cannot generate RSA keys, and
//!   every Kubernetes client accepts P-256. Serial numbers are random (Go
//!   uses 1 and 2), so that certificates of two runs never share an issuer
//!   and serial number.
//! - Loading (`--tls-cert-file`, `--tls-private-key-file`,
//!   `--client-ca-file`) reads PEM; keys may be PKCS #8 (`PRIVATE KEY`),
//!   PKCS #1 (`RSA PRIVATE KEY`) or SEC1 (`EC PRIVATE KEY`). Every failure
//!   is a [`TlsError`] naming the file and the problem.
//! - Client certificates are optional (`allow_unauthenticated`), so bearer
//!   tokens keep working; a verified certificate's subject gives the user
//!   as `CommonNameUserConversion` in
//!   `k8s.io/apiserver/pkg/authentication/request/x509` does: see
//!   [`user_from_certificate`].
//!
//! The crypto provider is rustls' `ring` one (a much smaller C build than
//! `aws-lc-rs`), passed explicitly (never the process-wide default), so
//! that nothing here depends on which providers other crates in the binary
//! enable.

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::Arc;

use rcgen::{
    BasicConstraints, CertificateParams, DistinguishedName, DnType, ExtendedKeyUsagePurpose, IsCa,
    Issuer, KeyPair, KeyUsagePurpose, SanType, SerialNumber,
};
use rustls::crypto::CryptoProvider;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use rustls::server::WebPkiClientVerifier;
use rustls::{RootCertStore, ServerConfig, ServerConnection};
use sha2::{Digest, Sha256};

/// The ALPN protocols the server offers, in order of preference.
pub const ALPN_PROTOCOLS: [&[u8]; 2] = [b"h2", b"http/1.1"];

/// How long generated certificates are valid: one year, as client-go's
/// `GenerateSelfSignedCertKeyWithFixtures`.
pub const GENERATED_VALIDITY: std::time::Duration = std::time::Duration::from_secs(365 * 24 * 3600);

/// How far back generated certificates' validity starts (client-go: "valid
/// an hour earlier to avoid flakes due to clock skew").
pub const GENERATED_BACKDATE: std::time::Duration = std::time::Duration::from_secs(3600);

/// The host name generated certificates are named after (their common
/// names are `localhost-ca@<unix time>` and `localhost@<unix time>`, as
/// client-go's `<host>-ca@<unix time>` and `<host>@<unix time>`).
const GENERATED_HOST: &str = "localhost";

/// The extra-info key under which kube-apiserver records a client
/// certificate's fingerprint (`user.CredentialIDKey`).
pub const CREDENTIAL_ID_KEY: &str = "authentication.kubernetes.io/credential-id";

/// What went wrong setting up TLS. Every variant that concerns a file names
/// it; `Display` gives one line fit for a command-line error.
#[derive(Debug)]
#[non_exhaustive]
pub enum TlsError {
    /// A file could not be read.
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A file is not what it should be (no PEM block of the right type,
    /// bad base64, an unsupported key, ...).
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        problem: String,
    },
    /// The certificate file's first certificate does not belong to the key
    /// file's private key.
    KeyMismatch {
        /// The certificate file.
        cert: PathBuf,
        /// The private key file.
        key: PathBuf,
    },
    /// A `--tls-san` value is neither an IP address nor a DNS name.
    InvalidSubjectAltName(String),
    /// Only one of `--tls-cert-file` and `--tls-private-key-file` was given.
    IncompleteCertificateFlags,
    /// Generating a key or certificate failed.
    Generate(String),
    /// rustls refused the configuration.
    Config(String),
    /// A client certificate could not be parsed.
    Certificate(String),
}

impl fmt::Display for TlsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TlsError::Read { path, source } => {
                write!(f, "cannot read {}: {source}", path.display())
            }
            TlsError::Invalid { path, problem } => write!(f, "{}: {problem}", path.display()),
            TlsError::KeyMismatch { cert, key } => write!(
                f,
                "the certificate in {} does not match the private key in {}",
                cert.display(),
                key.display()
            ),
            TlsError::InvalidSubjectAltName(value) => write!(
                f,
                "invalid subject alternative name {value:?}: expected an IP address or a DNS name"
            ),
            TlsError::IncompleteCertificateFlags => {
                f.write_str("--tls-cert-file and --tls-private-key-file must be given together")
            }
            TlsError::Generate(message) => {
                write!(f, "cannot generate a self-signed certificate: {message}")
            }
            TlsError::Config(message) => write!(f, "invalid TLS configuration: {message}"),
            TlsError::Certificate(message) => write!(f, "invalid client certificate: {message}"),
        }
    }
}

impl std::error::Error for TlsError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            TlsError::Read { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// A subject alternative name of the generated serving certificate
/// (`--tls-san`).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SubjectAltName {
    /// A DNS name, possibly a wildcard (`*.example.com`), in lower case.
    Dns(String),
    /// An IP address.
    Ip(IpAddr),
}

impl SubjectAltName {
    /// The names every generated serving certificate has: `127.0.0.1`,
    /// `::1` and `localhost`.
    pub fn defaults() -> Vec<SubjectAltName> {
        vec![
            SubjectAltName::Ip(IpAddr::V4(Ipv4Addr::LOCALHOST)),
            SubjectAltName::Ip(IpAddr::V6(Ipv6Addr::LOCALHOST)),
            SubjectAltName::Dns("localhost".to_owned()),
        ]
    }

    /// Parses a comma-separated list (`--tls-san a.example,10.0.0.1`);
    /// blanks around names are ignored, empty entries skipped.
    pub fn parse_list(list: &str) -> Result<Vec<SubjectAltName>, TlsError> {
        list.split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::parse)
            .collect()
    }

    fn to_san_type(&self) -> Result<SanType, TlsError> {
        Ok(match self {
            SubjectAltName::Ip(ip) => SanType::IpAddress(*ip),
            SubjectAltName::Dns(name) => SanType::DnsName(
                name.clone()
                    .try_into()
                    .map_err(|e: rcgen::Error| TlsError::Generate(e.to_string()))?,
            ),
        })
    }
}

impl FromStr for SubjectAltName {
    type Err = TlsError;

    /// An IP address (v4, or v6 with or without brackets), else a DNS name:
    /// dot-separated labels of ASCII letters, digits and `-` (not at either
    /// end of a label), at most 63 bytes each and 253 in all, optionally
    /// starting with a `*.` wildcard label.
    fn from_str(s: &str) -> Result<Self, TlsError> {
        let bad = || TlsError::InvalidSubjectAltName(s.to_owned());
        let unbracketed = s
            .strip_prefix('[')
            .and_then(|rest| rest.strip_suffix(']'))
            .unwrap_or(s);
        if let Ok(ip) = unbracketed.parse::<IpAddr>() {
            return Ok(SubjectAltName::Ip(ip));
        }
        let name = s.strip_suffix('.').unwrap_or(s);
        let rest = name.strip_prefix("*.").unwrap_or(name);
        let label_ok = |label: &str| {
            !label.is_empty()
                && label.len() <= 63
                && label
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-')
                && !label.starts_with('-')
                && !label.ends_with('-')
        };
        if name.len() > 253 || !rest.split('.').all(label_ok) {
            return Err(bad());
        }
        Ok(SubjectAltName::Dns(name.to_ascii_lowercase()))
    }
}

impl fmt::Display for SubjectAltName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SubjectAltName::Dns(name) => f.write_str(name),
            SubjectAltName::Ip(ip) => write!(f, "{ip}"),
        }
    }
}

/// A certificate chain and its private key, ready for a [`ServerConfig`].
#[derive(Debug)]
pub struct CertifiedKey {
    /// The chain, leaf first.
    pub chain: Vec<CertificateDer<'static>>,
    /// The leaf's private key.
    pub key: PrivateKeyDer<'static>,
}

impl Clone for CertifiedKey {
    fn clone(&self) -> Self {
        CertifiedKey {
            chain: self.chain.clone(),
            key: self.key.clone_key(),
        }
    }
}

/// A self-signed CA and a serving certificate it signed, made at start
/// when no certificate is given.
pub struct GeneratedCertificates {
    /// The CA certificate, PEM: what clients trust (the kubeconfig's
    /// `certificate-authority-data`).
    pub ca_cert_pem: String,
    /// The serving certificate followed by the CA certificate, PEM.
    pub cert_chain_pem: String,
    /// The serving certificate's private key, PEM (PKCS #8).
    pub key_pem: String,
    /// The names the serving certificate is valid for.
    pub subject_alt_names: Vec<SubjectAltName>,
    certified: CertifiedKey,
    ca: Issuer<'static, KeyPair>,
    ca_der: CertificateDer<'static>,
}

impl fmt::Debug for GeneratedCertificates {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Leaves the private keys out.
        f.debug_struct("GeneratedCertificates")
            .field("ca_cert_pem", &self.ca_cert_pem)
            .field("cert_chain_pem", &self.cert_chain_pem)
            .field("subject_alt_names", &self.subject_alt_names)
            .finish_non_exhaustive()
    }
}

/// A client certificate and its key, PEM, as a kubeconfig's
/// `client-certificate-data` and `client-key-data` hold them.
#[derive(Clone)]
pub struct ClientCertificate {
    /// The certificate, PEM.
    pub cert_pem: String,
    /// Its private key, PEM (PKCS #8).
    pub key_pem: String,
}

impl fmt::Debug for ClientCertificate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ClientCertificate")
            .field("cert_pem", &self.cert_pem)
            .finish_non_exhaustive()
    }
}

fn random_serial() -> Result<SerialNumber, TlsError> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|e| TlsError::Generate(e.to_string()))?;
    // Positive and without a leading zero byte (RFC 5280 4.1.2.2).
    bytes[0] = (bytes[0] & 0x7f) | 0x40;
    Ok(SerialNumber::from_slice(&bytes))
}

fn generated_params(common_name: String) -> Result<CertificateParams, TlsError> {
    let now = time::OffsetDateTime::now_utc();
    let mut params = CertificateParams::default();
    params.not_before = now - GENERATED_BACKDATE;
    params.not_after = params.not_before + GENERATED_VALIDITY;
    params.serial_number = Some(random_serial()?);
    let mut dn = DistinguishedName::new();
    dn.push(DnType::CommonName, common_name);
    params.distinguished_name = dn;
    Ok(params)
}

fn generate_key() -> Result<KeyPair, TlsError> {
    KeyPair::generate_for(&rcgen::PKCS_ECDSA_P256_SHA256)
        .map_err(|e| TlsError::Generate(e.to_string()))
}

fn gen_err(e: rcgen::Error) -> TlsError {
    TlsError::Generate(e.to_string())
}

impl GeneratedCertificates {
    /// Makes a CA and a serving certificate valid for `127.0.0.1`, `::1`,
    /// `localhost` and `extra_names` (duplicates dropped).
    pub fn generate(extra_names: &[SubjectAltName]) -> Result<Self, TlsError> {
        let unix = time::OffsetDateTime::now_utc().unix_timestamp();

        let ca_key = generate_key()?;
        let mut ca_params = generated_params(format!("{GENERATED_HOST}-ca@{unix}"))?;
        ca_params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        ca_params.key_usages = vec![
            KeyUsagePurpose::DigitalSignature,
            KeyUsagePurpose::KeyCertSign,
            KeyUsagePurpose::CrlSign,
        ];
        let ca_cert = ca_params.self_signed(&ca_key).map_err(gen_err)?;
        let ca = Issuer::new(ca_params, ca_key);

        let mut names = SubjectAltName::defaults();
        for name in extra_names {
            if !names.contains(name) {
                names.push(name.clone());
            }
        }
        let key = generate_key()?;
        let mut params = generated_params(format!("{GENERATED_HOST}@{unix}"))?;
        params.subject_alt_names = names
            .iter()
            .map(SubjectAltName::to_san_type)
            .collect::<Result<_, _>>()?;
        params.key_usages = vec![KeyUsagePurpose::DigitalSignature];
        params.extended_key_usages = vec![ExtendedKeyUsagePurpose::ServerAuth];
        params.use_authority_key_identifier_extension = true;
        let cert = params.signed_by(&key, &ca).map_err(gen_err)?;

        let ca_cert_pem = ca_cert.pem();
        let key_pem = key.serialize_pem();
        let certified = CertifiedKey {
            chain: vec![cert.der().clone(), ca_cert.der().clone()],
            key: PrivateKeyDer::try_from(key.serialize_der())
                .map_err(|e| TlsError::Generate(e.to_owned()))?,
        };
        Ok(GeneratedCertificates {
            cert_chain_pem: format!("{}{}", cert.pem(), ca_cert_pem),
            ca_cert_pem,
            key_pem,
            subject_alt_names: names,
            certified,
            ca_der: ca_cert.der().clone(),
            ca,
        })
    }

    /// The serving chain (serving certificate, CA) and key.
    pub fn certified_key(&self) -> CertifiedKey {
        self.certified.clone()
    }

    /// The CA certificate, DER (to add to a client-CA pool, say).
    pub fn ca_cert_der(&self) -> &CertificateDer<'static> {
        &self.ca_der
    }

    /// Issues a client certificate signed by the generated CA, for the user
    /// `user` (common name) in `group` (organization), valid for client
    /// authentication for as long as the CA.
    ///
    /// At most one group: the generator (rcgen) keeps one value per
    /// attribute type in a subject. `system:masters` is the one group an
    /// administrator needs.
    ///
    /// The server accepts it only when the generated CA is among its client
    /// CAs (see [`server_config`]).
    pub fn issue_client_certificate(
        &self,
        user: &str,
        group: Option<&str>,
    ) -> Result<ClientCertificate, TlsError> {
        if user.is_empty() {
            return Err(TlsError::Generate(
                "a client certificate needs a user name (common name)".to_owned(),
            ));
        }
        let key = generate_key()?;
        let mut params = generated_params(user.to_owned())?;
        if let Some(group) = group {
            params
                .distinguished_name
                .push(DnType::OrganizationName, group);
        }
        params.key_usages = vec![KeyUsagePurpose::DigitalSignature];
        params.extended_key_usages = vec![ExtendedKeyUsagePurpose::ClientAuth];
        params.use_authority_key_identifier_extension = true;
        let cert = params.signed_by(&key, &self.ca).map_err(gen_err)?;
        Ok(ClientCertificate {
            cert_pem: cert.pem(),
            key_pem: key.serialize_pem(),
        })
    }
}

fn read_file(path: &Path) -> Result<Vec<u8>, TlsError> {
    std::fs::read(path).map_err(|source| TlsError::Read {
        path: path.to_owned(),
        source,
    })
}

fn invalid(path: &Path, problem: impl Into<String>) -> TlsError {
    TlsError::Invalid {
        path: path.to_owned(),
        problem: problem.into(),
    }
}

/// Reads every `CERTIFICATE` block of a PEM file, in order. A file with
/// none, or with a malformed block, is an error.
pub fn load_certificates(path: &Path) -> Result<Vec<CertificateDer<'static>>, TlsError> {
    let bytes = read_file(path)?;
    let certs = CertificateDer::pem_slice_iter(&bytes)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| invalid(path, format!("malformed PEM: {e}")))?;
    if certs.is_empty() {
        return Err(invalid(path, "no CERTIFICATE block found"));
    }
    Ok(certs)
}

/// Reads the first private key of a PEM file: `PRIVATE KEY` (PKCS #8),
/// `RSA PRIVATE KEY` (PKCS #1) or `EC PRIVATE KEY` (SEC1). Encrypted keys
/// are not supported. The key must be RSA, ECDSA P-256/P-384 or Ed25519.
pub fn load_private_key(path: &Path) -> Result<PrivateKeyDer<'static>, TlsError> {
    let bytes = read_file(path)?;
    let key = PrivateKeyDer::from_pem_slice(&bytes).map_err(|e| match e {
        rustls::pki_types::pem::Error::NoItemsFound => invalid(
            path,
            "no private key found (expected a PRIVATE KEY, RSA PRIVATE KEY or EC PRIVATE KEY \
             block; encrypted keys are not supported)",
        ),
        e => invalid(path, format!("malformed PEM: {e}")),
    })?;
    provider()
        .key_provider
        .load_private_key(key.clone_key())
        .map_err(|e| invalid(path, format!("unsupported private key: {e}")))?;
    Ok(key)
}

/// Reads a serving certificate chain (`--tls-cert-file`, leaf first) and
/// its private key (`--tls-private-key-file`), and checks that they belong
/// together.
pub fn load_certified_key(cert_file: &Path, key_file: &Path) -> Result<CertifiedKey, TlsError> {
    let chain = load_certificates(cert_file)?;
    let key = load_private_key(key_file)?;
    let signing = provider()
        .key_provider
        .load_private_key(key.clone_key())
        .map_err(|e| invalid(key_file, format!("unsupported private key: {e}")))?;
    match rustls::sign::CertifiedKey::new(chain.clone(), signing).keys_match() {
        Ok(()) => {}
        // A key that cannot give its public key cannot be compared; rustls
        // checks what it can when it builds the configuration.
        Err(rustls::Error::InconsistentKeys(rustls::InconsistentKeys::Unknown)) => {}
        Err(rustls::Error::InconsistentKeys(_)) => {
            return Err(TlsError::KeyMismatch {
                cert: cert_file.to_owned(),
                key: key_file.to_owned(),
            });
        }
        Err(e) => return Err(invalid(cert_file, format!("unusable certificate: {e}"))),
    }
    Ok(CertifiedKey { chain, key })
}

/// Reads the CA certificates that client certificates must chain to
/// (`--client-ca-file`).
pub fn load_client_cas(path: &Path) -> Result<RootCertStore, TlsError> {
    let mut roots = RootCertStore::empty();
    for cert in load_certificates(path)? {
        roots
            .add(cert)
            .map_err(|e| invalid(path, format!("unusable CA certificate: {e}")))?;
    }
    Ok(roots)
}

/// The crypto provider every configuration here uses: rustls' `ring`.
pub fn provider() -> Arc<CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

/// A server configuration serving `certified` with ALPN `h2` and
/// `http/1.1`. With `client_cas`, clients may present a certificate, which
/// must then chain to one of them and be valid for client authentication;
/// clients without one are still let in (authenticated otherwise, by
/// token, or anonymous), as with kube-apiserver's `--client-ca-file`.
pub fn server_config(
    certified: CertifiedKey,
    client_cas: Option<RootCertStore>,
) -> Result<Arc<ServerConfig>, TlsError> {
    let provider = provider();
    let builder = ServerConfig::builder_with_provider(provider.clone())
        .with_safe_default_protocol_versions()
        .map_err(|e| TlsError::Config(e.to_string()))?;
    let builder = match client_cas {
        Some(roots) => {
            let verifier = WebPkiClientVerifier::builder_with_provider(Arc::new(roots), provider)
                .allow_unauthenticated()
                .build()
                .map_err(|e| TlsError::Config(e.to_string()))?;
            builder.with_client_cert_verifier(verifier)
        }
        None => builder.with_no_client_auth(),
    };
    let mut config = builder
        .with_single_cert(certified.chain, certified.key)
        .map_err(|e| TlsError::Config(e.to_string()))?;
    config.alpn_protocols = ALPN_PROTOCOLS.iter().map(|p| p.to_vec()).collect();
    Ok(Arc::new(config))
}

/// The TLS flags of the server.
#[derive(Debug, Clone, Default)]
pub struct TlsOptions {
    /// `--tls-cert-file`.
    pub cert_file: Option<PathBuf>,
    /// `--tls-private-key-file`.
    pub private_key_file: Option<PathBuf>,
    /// `--client-ca-file`.
    pub client_ca_file: Option<PathBuf>,
    /// `--tls-san`: extra names for a generated serving certificate
    /// (ignored when a certificate is given).
    pub subject_alt_names: Vec<SubjectAltName>,
}

/// The server's TLS set up from its flags.
#[derive(Debug)]
pub struct ServerTls {
    /// The configuration to accept connections with.
    pub config: Arc<ServerConfig>,
    /// The generated CA and certificate, when no certificate was given.
    pub generated: Option<GeneratedCertificates>,
}

impl ServerTls {
    /// The CA certificate clients should trust, PEM, when it is known: the
    /// generated CA. `None` for a loaded certificate (its issuer may be a
    /// public CA the clients already trust).
    pub fn ca_cert_pem(&self) -> Option<&str> {
        self.generated.as_ref().map(|g| g.ca_cert_pem.as_str())
    }

    /// An acceptor for tokio streams.
    pub fn acceptor(&self) -> tokio_rustls::TlsAcceptor {
        tokio_rustls::TlsAcceptor::from(self.config.clone())
    }
}

impl TlsOptions {
    /// Loads or generates the serving certificate and builds the server
    /// configuration.
    ///
    /// When the certificate is generated, its CA is also trusted for
    /// client certificates (besides `--client-ca-file`'s CAs), so that
    /// [`GeneratedCertificates::issue_client_certificate`]'s certificates
    /// authenticate.
    pub fn build(&self) -> Result<ServerTls, TlsError> {
        let mut client_cas = match &self.client_ca_file {
            Some(path) => Some(load_client_cas(path)?),
            None => None,
        };
        let (certified, generated) = match (&self.cert_file, &self.private_key_file) {
            (Some(cert), Some(key)) => (load_certified_key(cert, key)?, None),
            (None, None) => {
                let generated = GeneratedCertificates::generate(&self.subject_alt_names)?;
                client_cas
                    .get_or_insert_with(RootCertStore::empty)
                    .add(generated.ca_cert_der().clone())
                    .map_err(|e| TlsError::Generate(e.to_string()))?;
                (generated.certified_key(), Some(generated))
            }
            _ => return Err(TlsError::IncompleteCertificateFlags),
        };
        Ok(ServerTls {
            config: server_config(certified, client_cas)?,
            generated,
        })
    }
}

/// The user a client certificate authenticates, as kube-apiserver's
/// `CommonNameUserConversion` makes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CertificateUser {
    /// The subject's common name (the last one, if several).
    pub name: String,
    /// The subject's organizations, in order.
    pub groups: Vec<String>,
    /// `X509SHA256=<hex SHA-256 of the certificate's DER>`, which
    /// kube-apiserver records as the user's extra
    /// [`CREDENTIAL_ID_KEY`].
    pub credential_id: String,
}

/// The user a verified client certificate (DER) authenticates: name from
/// the subject's common name (CN), groups from its organizations (O), as
/// `CommonNameUserConversion` in `k8s.io/apiserver/pkg/authentication/
/// request/x509`. `Ok(None)` when the subject has no (or an empty) common
/// name: kube-apiserver then goes on to other authenticators.
///
/// The certificate is not verified here: rustls' client verifier has done
/// that before the handshake completed (chain to a client CA, validity,
/// client-authentication usage).
///
/// Not done: the user's UID from a subject attribute (newer
/// kube-apiservers, feature gate `AllowParsingUserUIDFromCertAuth`).
pub fn user_from_certificate(der: &[u8]) -> Result<Option<CertificateUser>, TlsError> {
    let subject = certificate_subject(der)?;
    let (name, groups) = common_name_and_organizations(&subject)?;
    let name = match name {
        Some(name) if !name.is_empty() => name,
        _ => return Ok(None),
    };
    Ok(Some(CertificateUser {
        name,
        groups,
        credential_id: format!("X509SHA256={}", hex(&Sha256::digest(der))),
    }))
}

/// The user of a TLS connection's verified client certificate, if it
/// presented one naming a user.
pub fn connection_user(conn: &ServerConnection) -> Result<Option<CertificateUser>, TlsError> {
    match conn.peer_certificates().and_then(|chain| chain.first()) {
        Some(leaf) => user_from_certificate(leaf),
        None => Ok(None),
    }
}

fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    bytes.iter().fold(String::new(), |mut out, b| {
        let _ = write!(out, "{b:02x}");
        out
    })
}

fn asn1_err(e: yasna::ASN1Error) -> TlsError {
    TlsError::Certificate(format!("malformed DER: {e:?}"))
}

/// The DER of a certificate's subject `Name` (RFC 5280 4.1: Certificate ::=
/// SEQUENCE { tbsCertificate SEQUENCE { [0] version OPTIONAL, serialNumber,
/// signature, issuer, validity, subject, ... }, ... }).
fn certificate_subject(der: &[u8]) -> Result<Vec<u8>, TlsError> {
    yasna::parse_ber(der, |r| {
        r.read_sequence(|r| {
            let subject = r.next().read_sequence(|r| {
                r.read_optional(|r| r.read_tagged(yasna::Tag::context(0), |r| r.read_der()))?;
                r.next().read_der()?; // serialNumber
                r.next().read_der()?; // signature
                r.next().read_der()?; // issuer
                r.next().read_der()?; // validity
                let subject = r.next().read_der()?;
                // subjectPublicKeyInfo, optional unique ids, extensions.
                while r.read_optional(|r| r.read_der())?.is_some() {}
                Ok(subject)
            })?;
            r.next().read_der()?; // signatureAlgorithm
            r.next().read_der()?; // signatureValue
            Ok(subject)
        })
    })
    .map_err(asn1_err)
}

/// Go's `pkix.Name.FillFromRDNSequence` for CN and O: the last common name
/// wins, organizations accumulate in order. Attribute values are decoded as
/// Go's `parseASN1String` does (UTF8String, PrintableString, IA5String,
/// NumericString, T61String, BMPString); any other string type makes the
/// certificate unparseable, as it does in Go.
fn common_name_and_organizations(
    name_der: &[u8],
) -> Result<(Option<String>, Vec<String>), TlsError> {
    const COMMON_NAME: [u64; 4] = [2, 5, 4, 3];
    const ORGANIZATION: [u64; 4] = [2, 5, 4, 10];
    let mut common_name = None;
    let mut organizations = Vec::new();
    let attributes = yasna::parse_ber(name_der, |r| {
        let mut attributes = Vec::new();
        r.read_sequence_of(|r| {
            r.read_set_of(|r| {
                let attribute = r.read_sequence(|r| {
                    let oid = r.next().read_oid()?;
                    let value = r.next().read_tagged_der()?;
                    Ok((oid, value))
                })?;
                attributes.push(attribute);
                Ok(())
            })
        })?;
        Ok(attributes)
    })
    .map_err(asn1_err)?;
    for (oid, value) in attributes {
        let text = asn1_string(&value)?;
        if oid.components().as_slice() == COMMON_NAME {
            common_name = Some(text);
        } else if oid.components().as_slice() == ORGANIZATION {
            organizations.push(text);
        }
    }
    Ok((common_name, organizations))
}

fn asn1_string(value: &yasna::models::TaggedDerValue) -> Result<String, TlsError> {
    use yasna::tags::{
        TAG_BMPSTRING, TAG_IA5STRING, TAG_NUMERICSTRING, TAG_PRINTABLESTRING, TAG_TELETEXSTRING,
        TAG_UTF8STRING,
    };
    let bytes = value.value();
    let bad = |kind: &str| TlsError::Certificate(format!("invalid {kind} in the subject"));
    let tag = value.tag();
    if tag == TAG_UTF8STRING {
        String::from_utf8(bytes.to_vec()).map_err(|_| bad("UTF8String"))
    } else if tag == TAG_PRINTABLESTRING {
        // Go also allows `*` and `&` (seen in the wild).
        let ok = |b: &u8| b.is_ascii_alphanumeric() || b" '()+,-./:=?*&".contains(b);
        if bytes.iter().all(ok) {
            Ok(String::from_utf8_lossy(bytes).into_owned())
        } else {
            Err(bad("PrintableString"))
        }
    } else if tag == TAG_IA5STRING {
        if bytes.is_ascii() {
            Ok(String::from_utf8_lossy(bytes).into_owned())
        } else {
            Err(bad("IA5String"))
        }
    } else if tag == TAG_NUMERICSTRING {
        if bytes.iter().all(|b| b.is_ascii_digit() || *b == b' ') {
            Ok(String::from_utf8_lossy(bytes).into_owned())
        } else {
            Err(bad("NumericString"))
        }
    } else if tag == TAG_TELETEXSTRING {
        // Go keeps the bytes as they are; as Latin-1 they are always text.
        Ok(bytes.iter().map(|&b| char::from(b)).collect())
    } else if tag == TAG_BMPSTRING {
        if !bytes.len().is_multiple_of(2) {
            return Err(bad("BMPString"));
        }
        let mut units: Vec<u16> = bytes
            .chunks_exact(2)
            .map(|c| u16::from_be_bytes([c[0], c[1]]))
            .collect();
        // Go strips one trailing NUL.
        if units.last() == Some(&0) {
            units.pop();
        }
        String::from_utf16(&units).map_err(|_| bad("BMPString"))
    } else {
        Err(TlsError::Certificate(format!(
            "unsupported string type {:?} in the subject",
            tag
        )))
    }
}

#[cfg(test)]
#[path = "tls_tests.rs"]
mod tests;
