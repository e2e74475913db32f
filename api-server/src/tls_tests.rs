use std::path::PathBuf;

use rustls::pki_types::ServerName;
use rustls::{ClientConfig, ClientConnection};

use super::*;

/// A file of `src/testdata/tls`. The package directory is read when the
/// test runs (cargo sets `CARGO_MANIFEST_DIR` then too), so a test binary
/// built in another checkout that shares the target directory still finds
/// this checkout's files.
fn testdata(name: &str) -> PathBuf {
    let dir = std::env::var_os("CARGO_MANIFEST_DIR")
        .map_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")), PathBuf::from);
    dir.join("src/testdata/tls").join(name)
}

fn roots_from_pem(pem: &str) -> RootCertStore {
    let mut roots = RootCertStore::empty();
    for cert in CertificateDer::pem_slice_iter(pem.as_bytes()) {
        roots.add(cert.unwrap()).unwrap();
    }
    roots
}

fn client_config(roots: RootCertStore, identity: Option<&ClientCertificate>) -> Arc<ClientConfig> {
    let builder = ClientConfig::builder_with_provider(provider())
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(roots);
    let mut config = match identity {
        Some(identity) => builder
            .with_client_auth_cert(
                CertificateDer::pem_slice_iter(identity.cert_pem.as_bytes())
                    .collect::<Result<_, _>>()
                    .unwrap(),
                PrivateKeyDer::from_pem_slice(identity.key_pem.as_bytes()).unwrap(),
            )
            .unwrap(),
        None => builder.with_no_client_auth(),
    };
    config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
    Arc::new(config)
}

/// Runs a TLS handshake in memory; the error of whichever side failed.
fn handshake(
    server: Arc<ServerConfig>,
    client: Arc<ClientConfig>,
    server_name: &str,
) -> Result<(ServerConnection, ClientConnection), rustls::Error> {
    let mut server = ServerConnection::new(server)?;
    let name = ServerName::try_from(server_name.to_owned()).unwrap();
    let mut client = ClientConnection::new(client, name)?;
    for _ in 0..20 {
        let mut buf = Vec::new();
        while client.wants_write() {
            client.write_tls(&mut buf).unwrap();
        }
        let mut rd = &buf[..];
        while !rd.is_empty() {
            server.read_tls(&mut rd).unwrap();
            server.process_new_packets()?;
        }
        let mut buf = Vec::new();
        while server.wants_write() {
            server.write_tls(&mut buf).unwrap();
        }
        let mut rd = &buf[..];
        while !rd.is_empty() {
            client.read_tls(&mut rd).unwrap();
            client.process_new_packets()?;
        }
        if !client.is_handshaking() && !server.is_handshaking() {
            // Let the server see the client's last flight too (TLS 1.3
            // client certificates are checked on it).
            let mut buf = Vec::new();
            while client.wants_write() {
                client.write_tls(&mut buf).unwrap();
            }
            let mut rd = &buf[..];
            while !rd.is_empty() {
                server.read_tls(&mut rd).unwrap();
                server.process_new_packets()?;
            }
            return Ok((server, client));
        }
    }
    panic!("handshake did not finish");
}

fn generated_tls(extra: &[SubjectAltName]) -> ServerTls {
    TlsOptions {
        subject_alt_names: extra.to_vec(),
        ..TlsOptions::default()
    }
    .build()
    .unwrap()
}

#[test]
fn generated_certificate_serves_default_and_extra_names() {
    let extra = SubjectAltName::parse_list("api.example.test, 10.1.2.3,localhost").unwrap();
    let tls = generated_tls(&extra);
    let generated = tls.generated.as_ref().unwrap();
    assert_eq!(
        generated
            .subject_alt_names
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>(),
        [
            "127.0.0.1",
            "::1",
            "localhost",
            "api.example.test",
            "10.1.2.3"
        ]
    );
    let client = client_config(roots_from_pem(tls.ca_cert_pem().unwrap()), None);
    for name in [
        "localhost",
        "127.0.0.1",
        "::1",
        "api.example.test",
        "10.1.2.3",
    ] {
        let (server, client) = handshake(tls.config.clone(), client.clone(), name)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(client.alpn_protocol(), Some(&b"h2"[..]));
        assert_eq!(server.alpn_protocol(), Some(&b"h2"[..]));
        // No client certificate: let in, no user.
        assert_eq!(connection_user(&server).unwrap(), None);
    }
    // A name the certificate does not have is refused by the client.
    let err = handshake(tls.config.clone(), client, "other.example.test").unwrap_err();
    assert!(
        matches!(err, rustls::Error::InvalidCertificate(_)),
        "{err:?}"
    );
}

#[test]
fn generated_certificate_is_not_trusted_without_the_ca() {
    let tls = generated_tls(&[]);
    let other = generated_tls(&[]);
    let client = client_config(roots_from_pem(other.ca_cert_pem().unwrap()), None);
    assert!(handshake(tls.config.clone(), client, "localhost").is_err());
}

#[test]
fn generated_pems_are_consistent() {
    let tls = generated_tls(&[]);
    let generated = tls.generated.as_ref().unwrap();
    let chain: Vec<_> = CertificateDer::pem_slice_iter(generated.cert_chain_pem.as_bytes())
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(chain.len(), 2);
    assert_eq!(&chain[1], generated.ca_cert_der());
    assert_eq!(chain, generated.certified_key().chain);
    assert!(generated.key_pem.starts_with("-----BEGIN PRIVATE KEY-----"));

    // The PEMs written to files load back into a working configuration.
    let dir = tempfile::tempdir().unwrap();
    let cert = dir.path().join("tls.crt");
    let key = dir.path().join("tls.key");
    std::fs::write(&cert, &generated.cert_chain_pem).unwrap();
    std::fs::write(&key, &generated.key_pem).unwrap();
    let loaded = TlsOptions {
        cert_file: Some(cert),
        private_key_file: Some(key),
        ..TlsOptions::default()
    }
    .build()
    .unwrap();
    assert!(loaded.generated.is_none());
    assert_eq!(loaded.ca_cert_pem(), None);
    let client = client_config(roots_from_pem(&generated.ca_cert_pem), None);
    handshake(loaded.config, client, "127.0.0.1").unwrap();
}

#[test]
fn generated_validity_follows_client_go() {
    let tls = generated_tls(&[]);
    let generated = tls.generated.unwrap();
    for pem in [&generated.ca_cert_pem, &generated.cert_chain_pem] {
        let der = CertificateDer::from_pem_slice(pem.as_bytes()).unwrap();
        let (not_before, not_after) = validity(&der);
        let now = time::OffsetDateTime::now_utc();
        let backdate = now - not_before;
        assert!(
            backdate >= time::Duration::minutes(59) && backdate <= time::Duration::minutes(61),
            "{backdate}"
        );
        assert_eq!(not_after - not_before, time::Duration::days(365));
    }
}

/// notBefore and notAfter of a certificate (UTCTime, as rcgen writes
/// dates before 2050).
fn validity(der: &[u8]) -> (time::OffsetDateTime, time::OffsetDateTime) {
    yasna::parse_der(der, |r| {
        r.read_sequence(|r| {
            let v = r.next().read_sequence(|r| {
                r.read_optional(|r| r.read_tagged(yasna::Tag::context(0), |r| r.read_der()))?;
                r.next().read_der()?;
                r.next().read_der()?;
                r.next().read_der()?;
                let v = r.next().read_sequence(|r| {
                    let a = r.next().read_utctime()?;
                    let b = r.next().read_utctime()?;
                    Ok((*a.datetime(), *b.datetime()))
                })?;
                while r.read_optional(|r| r.read_der())?.is_some() {}
                Ok(v)
            })?;
            r.next().read_der()?;
            r.next().read_der()?;
            Ok(v)
        })
    })
    .unwrap()
}

#[test]
fn client_certificate_gives_user_and_groups() {
    let tls = generated_tls(&[]);
    let generated = tls.generated.as_ref().unwrap();
    let alice = generated
        .issue_client_certificate("alice", Some("system:masters"))
        .unwrap();
    let der = CertificateDer::from_pem_slice(alice.cert_pem.as_bytes()).unwrap();
    let user = user_from_certificate(&der).unwrap().unwrap();
    assert_eq!(user.name, "alice");
    assert_eq!(user.groups, ["system:masters"]);
    assert_eq!(
        user.credential_id,
        format!("X509SHA256={}", hex(&Sha256::digest(&der)))
    );
    assert_eq!(user.credential_id.len(), "X509SHA256=".len() + 64);

    // Over a handshake, the server sees the same user.
    let client = client_config(roots_from_pem(&generated.ca_cert_pem), Some(&alice));
    let (server, _) = handshake(tls.config.clone(), client, "localhost").unwrap();
    assert_eq!(connection_user(&server).unwrap(), Some(user));

    // No group.
    let bob = generated.issue_client_certificate("bob", None).unwrap();
    let der = CertificateDer::from_pem_slice(bob.cert_pem.as_bytes()).unwrap();
    let user = user_from_certificate(&der).unwrap().unwrap();
    assert_eq!((user.name.as_str(), user.groups.len()), ("bob", 0));

    assert!(generated.issue_client_certificate("", None).is_err());
}

#[test]
fn client_certificate_of_another_ca_is_refused() {
    let tls = generated_tls(&[]);
    let other = generated_tls(&[]);
    let mallory = other
        .generated
        .as_ref()
        .unwrap()
        .issue_client_certificate("mallory", Some("system:masters"))
        .unwrap();
    let client = client_config(roots_from_pem(tls.ca_cert_pem().unwrap()), Some(&mallory));
    let err = handshake(tls.config.clone(), client, "localhost").unwrap_err();
    assert!(
        matches!(err, rustls::Error::InvalidCertificate(_)),
        "{err:?}"
    );
}

#[test]
fn client_ca_file_is_trusted_besides_the_generated_ca() {
    // Client certificates from a CA given by --client-ca-file.
    let issuer = generated_tls(&[]);
    let issuer = issuer.generated.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let ca_file = dir.path().join("client-ca.crt");
    std::fs::write(&ca_file, &issuer.ca_cert_pem).unwrap();
    let tls = TlsOptions {
        client_ca_file: Some(ca_file),
        ..TlsOptions::default()
    }
    .build()
    .unwrap();
    let carol = issuer
        .issue_client_certificate("carol", Some("devs"))
        .unwrap();
    let client = client_config(roots_from_pem(tls.ca_cert_pem().unwrap()), Some(&carol));
    let (server, _) = handshake(tls.config.clone(), client, "localhost").unwrap();
    let user = connection_user(&server).unwrap().unwrap();
    assert_eq!(
        (user.name.as_str(), &user.groups[..]),
        ("carol", &["devs".to_owned()][..])
    );

    // And the generated CA's own client certificates still work.
    let own = tls
        .generated
        .as_ref()
        .unwrap()
        .issue_client_certificate("admin", Some("system:masters"))
        .unwrap();
    let client = client_config(roots_from_pem(tls.ca_cert_pem().unwrap()), Some(&own));
    let (server, _) = handshake(tls.config.clone(), client, "localhost").unwrap();
    assert_eq!(connection_user(&server).unwrap().unwrap().name, "admin");
}

#[test]
fn loads_rsa_pkcs1_pkcs8_and_ec_sec1_keys() {
    let ca = std::fs::read_to_string(testdata("ca.crt")).unwrap();
    for (cert, key) in [
        ("rsa.crt", "rsa-pkcs1.key"),
        ("rsa.crt", "rsa-pkcs8.key"),
        ("ec.crt", "ec-sec1.key"),
    ] {
        let certified = load_certified_key(&testdata(cert), &testdata(key))
            .unwrap_or_else(|e| panic!("{key}: {e}"));
        assert_eq!(certified.chain.len(), 1);
        let config = server_config(certified, None).unwrap();
        let client = client_config(roots_from_pem(&ca), None);
        handshake(config, client, "localhost").unwrap_or_else(|e| panic!("{key}: {e}"));
    }
}

fn error_text(result: Result<impl fmt::Debug, TlsError>) -> String {
    result.unwrap_err().to_string()
}

#[test]
fn bad_files_give_errors_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        path
    };
    let missing = dir.path().join("missing.crt");
    let empty = write("empty.pem", "");
    let garbage = write("garbage.pem", "not a PEM file at all\n");
    let bad_base64 = write(
        "bad64.crt",
        "-----BEGIN CERTIFICATE-----\n!!!not base64!!!\n-----END CERTIFICATE-----\n",
    );
    let unterminated = write("unterminated.crt", "-----BEGIN CERTIFICATE-----\nAAAA\n");
    let cert_as_key = testdata("rsa.crt");
    let encrypted = write(
        "encrypted.key",
        "-----BEGIN ENCRYPTED PRIVATE KEY-----\nAAAA\n-----END ENCRYPTED PRIVATE KEY-----\n",
    );
    let not_a_key = write(
        "not-a-key.key",
        "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n",
    );

    let text = error_text(load_certificates(&missing));
    assert!(
        text.starts_with(&format!("cannot read {}: ", missing.display())),
        "{text}"
    );
    assert!(matches!(
        load_certificates(&missing),
        Err(TlsError::Read { .. })
    ));

    for path in [&empty, &garbage] {
        assert_eq!(
            error_text(load_certificates(path)),
            format!("{}: no CERTIFICATE block found", path.display())
        );
    }
    for path in [&bad_base64, &unterminated] {
        let text = error_text(load_certificates(path));
        assert!(
            text.starts_with(&format!("{}: malformed PEM: ", path.display())),
            "{text}"
        );
    }

    for path in [&empty, &cert_as_key, &encrypted] {
        let text = error_text(load_private_key(path));
        assert!(
            text.starts_with(&format!("{}: no private key found", path.display())),
            "{text}"
        );
    }
    let text = error_text(load_private_key(&not_a_key));
    assert!(
        text.starts_with(&format!("{}: unsupported private key", not_a_key.display())),
        "{text}"
    );

    // A key that is not the certificate's.
    let err = load_certified_key(&testdata("rsa.crt"), &testdata("ec-sec1.key")).unwrap_err();
    assert!(matches!(err, TlsError::KeyMismatch { .. }), "{err:?}");
    assert_eq!(
        err.to_string(),
        format!(
            "the certificate in {} does not match the private key in {}",
            testdata("rsa.crt").display(),
            testdata("ec-sec1.key").display()
        )
    );

    // A certificate block whose DER is not a certificate.
    let not_a_cert = write(
        "not-a-cert.crt",
        "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n",
    );
    let text = error_text(load_certified_key(&not_a_cert, &testdata("ec-sec1.key")));
    assert!(
        text.starts_with(&format!("{}: unusable certificate: ", not_a_cert.display())),
        "{text}"
    );

    // Through the flags.
    let only_cert = TlsOptions {
        cert_file: Some(testdata("rsa.crt")),
        ..TlsOptions::default()
    };
    assert!(matches!(
        only_cert.build(),
        Err(TlsError::IncompleteCertificateFlags)
    ));
    let bad_client_ca = TlsOptions {
        client_ca_file: Some(garbage.clone()),
        ..TlsOptions::default()
    };
    assert_eq!(
        error_text(bad_client_ca.build()),
        format!("{}: no CERTIFICATE block found", garbage.display())
    );
}

#[test]
fn subject_alt_names_parse() {
    let parsed =
        SubjectAltName::parse_list(" a.example , 10.0.0.1,[fe80::1],::1,*.Apps.Example.,,")
            .unwrap();
    assert_eq!(
        parsed,
        [
            SubjectAltName::Dns("a.example".to_owned()),
            SubjectAltName::Ip("10.0.0.1".parse().unwrap()),
            SubjectAltName::Ip("fe80::1".parse().unwrap()),
            SubjectAltName::Ip("::1".parse().unwrap()),
            SubjectAltName::Dns("*.apps.example".to_owned()),
        ]
    );
    for bad in [
        "-a.example",
        "a..example",
        "a_b.example",
        "ä.example",
        "a.*.example",
        "*",
        "http://a.example",
        &"a".repeat(64),
    ] {
        let err = bad.parse::<SubjectAltName>().unwrap_err();
        assert!(
            matches!(&err, TlsError::InvalidSubjectAltName(v) if v == bad),
            "{bad}: {err:?}"
        );
    }
    assert!(SubjectAltName::parse_list("ok.example,bad_name").is_err());
}

/// A subject `Name` with the given attributes, one per RDN.
fn name_der(attributes: &[(&[u64], yasna::Tag, &[u8])]) -> Vec<u8> {
    yasna::construct_der(|w| {
        w.write_sequence_of(|w| {
            for (oid, tag, value) in attributes {
                w.next().write_set_of(|w| {
                    w.next().write_sequence(|w| {
                        w.next()
                            .write_oid(&yasna::models::ObjectIdentifier::from_slice(oid));
                        w.next().write_tagged_der(
                            &yasna::models::TaggedDerValue::from_tag_and_bytes(
                                *tag,
                                value.to_vec(),
                            ),
                        );
                    })
                })
            }
        })
    })
}

#[test]
fn subject_common_name_and_organizations_as_go() {
    use yasna::tags::*;
    const CN: &[u64] = &[2, 5, 4, 3];
    const O: &[u64] = &[2, 5, 4, 10];
    const OU: &[u64] = &[2, 5, 4, 11];
    let der = name_der(&[
        (O, TAG_PRINTABLESTRING, b"system:masters"),
        (CN, TAG_UTF8STRING, "first".as_bytes()),
        (OU, TAG_UTF8STRING, b"not a group"),
        (O, TAG_UTF8STRING, "gr\u{f6}up".as_bytes()),
        (O, TAG_IA5STRING, b"ia5"),
        (O, TAG_BMPSTRING, &[0, b'b', 0, b'm', 0, b'p', 0, 0]),
        (O, TAG_TELETEXSTRING, &[b't', 0xe9]),
        (O, TAG_NUMERICSTRING, b"12 3"),
        (CN, TAG_UTF8STRING, "last-wins".as_bytes()),
    ]);
    assert_eq!(
        common_name_and_organizations(&der).unwrap(),
        (
            Some("last-wins".to_owned()),
            [
                "system:masters",
                "gr\u{f6}up",
                "ia5",
                "bmp",
                "t\u{e9}",
                "12 3"
            ]
            .map(str::to_owned)
            .to_vec()
        )
    );

    for (tag, value) in [
        (TAG_UTF8STRING, &[0xff, 0xfe][..]),
        (TAG_PRINTABLESTRING, b"no_underscore"),
        (TAG_IA5STRING, &[0x80]),
        (TAG_NUMERICSTRING, b"12a"),
        (TAG_BMPSTRING, &[0, b'a', 0]),
        (TAG_VISIBLESTRING, b"unsupported in Go"),
    ] {
        let der = name_der(&[(O, tag, value)]);
        assert!(
            common_name_and_organizations(&der).is_err(),
            "{tag:?} {value:?}"
        );
    }

    // No common name, or an empty one: no user.
    assert_eq!(
        common_name_and_organizations(&name_der(&[(O, TAG_UTF8STRING, b"g")])).unwrap(),
        (None, vec!["g".to_owned()])
    );
}

#[test]
fn certificate_without_common_name_gives_no_user() {
    let key = KeyPair::generate_for(&rcgen::PKCS_ECDSA_P256_SHA256).unwrap();
    let mut params = CertificateParams::default();
    let mut dn = DistinguishedName::new();
    dn.push(DnType::OrganizationName, "system:masters");
    params.distinguished_name = dn;
    let cert = params.self_signed(&key).unwrap();
    assert_eq!(user_from_certificate(cert.der()).unwrap(), None);

    let mut params = CertificateParams::default();
    let mut dn = DistinguishedName::new();
    dn.push(DnType::CommonName, "");
    params.distinguished_name = dn;
    let cert = params.self_signed(&key).unwrap();
    assert_eq!(user_from_certificate(cert.der()).unwrap(), None);
}

#[test]
fn malformed_certificates_are_errors() {
    for der in [
        &[][..],
        &[0x30, 0x00],
        &[0x30, 0x03, 0x02, 0x01, 0x01],
        b"garbage",
    ] {
        assert!(
            matches!(user_from_certificate(der), Err(TlsError::Certificate(_))),
            "{der:?}"
        );
    }
}

/// The acceptor over a real loopback TCP connection, with a client
/// certificate.
#[test]
fn tokio_acceptor_over_loopback() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};

        let tls = generated_tls(&[]);
        let generated = tls.generated.as_ref().unwrap();
        let admin = generated
            .issue_client_certificate("admin", Some("system:masters"))
            .unwrap();
        let connector = tokio_rustls::TlsConnector::from(client_config(
            roots_from_pem(&generated.ca_cert_pem),
            Some(&admin),
        ));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let acceptor = tls.acceptor();
        let server = tokio::spawn(async move {
            let (stream, _) = listener.accept().await.unwrap();
            let mut stream = acceptor.accept(stream).await.unwrap();
            let (_, conn) = stream.get_ref();
            let user = connection_user(conn).unwrap().unwrap();
            let alpn = conn.alpn_protocol().map(<[u8]>::to_vec);
            let mut request = [0u8; 4];
            stream.read_exact(&mut request).await.unwrap();
            stream
                .write_all(format!("{} {:?}", user.name, user.groups).as_bytes())
                .await
                .unwrap();
            stream.shutdown().await.unwrap();
            (request, alpn)
        });
        let tcp = tokio::net::TcpStream::connect(addr).await.unwrap();
        let name = ServerName::try_from("127.0.0.1").unwrap();
        let mut stream = connector.connect(name, tcp).await.unwrap();
        stream.write_all(b"ping").await.unwrap();
        let mut reply = String::new();
        stream.read_to_string(&mut reply).await.unwrap();
        assert_eq!(reply, "admin [\"system:masters\"]");
        let (request, alpn) = server.await.unwrap();
        assert_eq!(&request, b"ping");
        assert_eq!(alpn.as_deref(), Some(&b"h2"[..]));
    });
}

#[test]
fn server_tls_can_be_shared_between_tasks() {
    fn assert_send_sync<T: Send + Sync + 'static>() {}
    assert_send_sync::<ServerTls>();
    assert_send_sync::<GeneratedCertificates>();
    assert_send_sync::<TlsError>();
}
