use super::*;
use axum::http::HeaderValue;

const FILE: &str = "tokens.csv";

fn parse(text: &str) -> Result<Authenticator, TokenFileError> {
    Authenticator::new().token_csv(text, FILE)
}

fn bearer(token: &str) -> HeaderMap {
    let mut headers = HeaderMap::new();
    headers.insert(
        header::AUTHORIZATION,
        HeaderValue::from_str(&format!("Bearer {token}")).unwrap(),
    );
    headers
}

/// Cases of `tokenfile_test.go` (k8s.io/apiserver
/// `pkg/authentication/token/tokenfile`, `TestTokenFile` and
/// `TestBadTokenFile`/`TestInsufficientColumnsTokenFile`), with this
/// server's line numbers added to the errors.
#[test]
fn token_file_records() {
    let auth = parse(
        "token1,user1,uid1\n\
         token2,user2,uid2\n\
         token3,user3,uid3,\"group1,group2\"\n\
         token4,user4,uid4,\"group2\"\n\
         token5,user5,uid5,group5\n\
         token6,user6,uid6,group5,otherdata\n\
         token7,user7,uid7,\"group1,group2\",otherdata\n",
    )
    .unwrap();
    let user = |t: &str| auth.authenticate(&bearer(t), None);
    let expect = |name: &str, uid: &str, groups: &[&str]| User {
        name: name.into(),
        uid: uid.into(),
        groups: groups
            .iter()
            .map(|g| g.to_string())
            .chain([ALL_AUTHENTICATED.to_string()])
            .collect(),
        extra: BTreeMap::new(),
    };
    assert_eq!(user("token1").unwrap(), expect("user1", "uid1", &[]));
    assert_eq!(user("token2").unwrap(), expect("user2", "uid2", &[]));
    assert_eq!(
        user("token3").unwrap(),
        expect("user3", "uid3", &["group1", "group2"])
    );
    assert_eq!(
        user("token4").unwrap(),
        expect("user4", "uid4", &["group2"])
    );
    assert_eq!(
        user("token5").unwrap(),
        expect("user5", "uid5", &["group5"])
    );
    assert_eq!(
        user("token6").unwrap(),
        expect("user6", "uid6", &["group5"])
    );
    assert_eq!(
        user("token7").unwrap(),
        expect("user7", "uid7", &["group1", "group2"])
    );
    assert_eq!(user("token8").unwrap_err().code, 401);
    assert_eq!(auth.token_count(), 7);
}

#[test]
fn token_file_errors_name_the_line() {
    let e = parse("token1,user1,uid1\ntoken2,user2\n").unwrap_err();
    assert_eq!(
        e.0,
        "token file 'tokens.csv' must have at least 3 columns (token, user name, user uid), found 2 (line 2)"
    );
    // TestBadTokenFile: the first short record fails, naming its line.
    let e = parse("\ntoken1,user1,uid1\ntoken2,user2,uid2\ntoken3,user3\ntoken4\n").unwrap_err();
    assert!(e.0.ends_with("found 2 (line 4)"), "{e}");
    // TestInsufficientColumnsTokenFile.
    let e = parse("token4\n").unwrap_err();
    assert!(e.0.ends_with("found 1 (line 1)"), "{e}");
    // Malformed CSV quoting.
    let e =
        parse("token1,user1,uid1\n\ntoken3\"x,user3,uid3\ntoken4,\"unterminated\n").unwrap_err();
    assert!(e.0.contains("tokens.csv"), "{e}");
    // An empty token is skipped (with a warning upstream), not an error.
    let auth = parse(",user1,uid1\ntoken2,user2,uid2\n").unwrap();
    assert_eq!(auth.token_count(), 1);
    // A token given twice keeps the last record.
    let auth = parse("t,first,1\nt,second,2\n").unwrap();
    assert_eq!(auth.token_count(), 1);
    assert_eq!(
        auth.authenticate(&bearer("t"), None).unwrap().name,
        "second"
    );
    // Empty files and blank lines are fine.
    assert_eq!(parse("").unwrap().token_count(), 0);
    assert_eq!(parse("\n\nt,u,1\n\n").unwrap().token_count(), 1);
}

#[test]
fn missing_file_is_an_error_naming_it() {
    let e = Authenticator::new()
        .token_file(Path::new("/nonexistent/tokens.csv"))
        .unwrap_err();
    assert!(
        e.0.starts_with("cannot read token file '/nonexistent/tokens.csv'"),
        "{e}"
    );
}

/// `bearertoken_test.go` (k8s.io/apiserver
/// `pkg/authentication/request/bearertoken`): the header's forms.
#[test]
fn bearer_header_forms() {
    let auth = Authenticator::new().token("abc", User::new("alice", &["devs"]));
    let with = |value: &str| {
        let mut h = HeaderMap::new();
        h.insert(header::AUTHORIZATION, HeaderValue::from_str(value).unwrap());
        auth.authenticate(&h, None)
    };
    assert_eq!(with("Bearer abc").unwrap().name, "alice");
    assert_eq!(
        with("bearer abc").unwrap().name,
        "alice",
        "scheme case-insensitive"
    );
    assert_eq!(with("  Bearer abc  ").unwrap().name, "alice", "trimmed");
    assert_eq!(with("Bearer abd").unwrap_err().code, 401);
    assert_eq!(
        with("Bearer ab").unwrap_err().code,
        401,
        "a prefix is not the token"
    );
    assert_eq!(with("Bearer abcd").unwrap_err().code, 401);
    assert_eq!(
        with("Bearer  abc").unwrap_err().code,
        401,
        "empty token between spaces"
    );
    // Not a bearer credential: no credential at all.
    assert_eq!(with("Basic YWxpY2U6cHc=").unwrap_err().code, 401);
    assert_eq!(with("Bearer").unwrap_err().code, 401);
    let anonymous = auth.clone().allow_anonymous(true);
    let mut basic = HeaderMap::new();
    basic.insert(header::AUTHORIZATION, HeaderValue::from_static("Basic x"));
    assert!(anonymous.authenticate(&basic, None).unwrap().is_anonymous());
}

#[test]
fn anonymous_only_without_credentials() {
    let auth = Authenticator::new()
        .token("good", User::new("bob", &[]))
        .allow_anonymous(true);
    let anon = auth.authenticate(&HeaderMap::new(), None).unwrap();
    assert_eq!(anon, User::anonymous());
    assert!(!anon.in_group(ALL_AUTHENTICATED));
    // A wrong token is 401 even with anonymous allowed (FailOnError).
    let e = auth.authenticate(&bearer("bad"), None).unwrap_err();
    assert_eq!((e.code, e.message.as_str()), (401, "Unauthorized"));
    assert_eq!(e.reason.as_str(), "Unauthorized");
    // Off (the default): 401.
    let closed = Authenticator::new();
    assert_eq!(
        closed
            .authenticate(&HeaderMap::new(), None)
            .unwrap_err()
            .code,
        401
    );
}

#[test]
fn a_client_certificate_comes_first() {
    let auth = Authenticator::new().token("good", User::new("bob", &[]));
    let cert = CertificateUser {
        name: "carol".into(),
        groups: vec!["ops".into(), ALL_AUTHENTICATED.into()],
        credential_id: "X509SHA256=ab".into(),
    };
    let user = auth.authenticate(&bearer("good"), Some(&cert)).unwrap();
    assert_eq!(user.name, "carol");
    assert_eq!(user.groups, ["ops", ALL_AUTHENTICATED], "added once");
    assert_eq!(
        user.extra[crate::tls::CREDENTIAL_ID_KEY],
        ["X509SHA256=ab".to_string()]
    );
}
