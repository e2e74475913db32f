//! Authentication: who made a request, as kube-apiserver's authenticators
//! decide it — a verified client certificate (CN the user, O the groups),
//! else a bearer token from the static token file (`--token-auth-file`)
//! or the kubeconfig's admin token, else `system:anonymous` when anonymous
//! requests are allowed; an invalid credential is 401 `Unauthorized`
//! even then (the anonymous authenticator is reached only without
//! credentials, `union.NewFailOnError`).

use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;

use api_core::Status;
use axum::http::{HeaderMap, header};
use subtle::ConstantTimeEq;

use crate::tls::CertificateUser;

/// The group of every authenticated user (`user.AllAuthenticated`).
pub const ALL_AUTHENTICATED: &str = "system:authenticated";
/// The group of the anonymous user (`user.AllUnauthenticated`).
pub const ALL_UNAUTHENTICATED: &str = "system:unauthenticated";
/// The anonymous user's name (`user.Anonymous`).
pub const ANONYMOUS: &str = "system:anonymous";
/// The group that may do everything (`user.SystemPrivilegedGroup`).
pub const SYSTEM_MASTERS: &str = "system:masters";

/// A user, as `k8s.io/apiserver/pkg/authentication/user.DefaultInfo`.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct User {
    /// The user name.
    pub name: String,
    /// A unique id (may be empty).
    pub uid: String,
    /// The groups, `system:authenticated` included once authenticated.
    pub groups: Vec<String>,
    /// Extra attributes (the credential id of a certificate, ...).
    pub extra: BTreeMap<String, Vec<String>>,
}

impl User {
    /// A user with `name` in `groups`.
    pub fn new(name: impl Into<String>, groups: &[&str]) -> Self {
        User {
            name: name.into(),
            uid: String::new(),
            groups: groups.iter().map(|g| g.to_string()).collect(),
            extra: BTreeMap::new(),
        }
    }

    /// `system:anonymous` in `system:unauthenticated`.
    pub fn anonymous() -> Self {
        User::new(ANONYMOUS, &[ALL_UNAUTHENTICATED])
    }

    /// Whether this is the anonymous user.
    pub fn is_anonymous(&self) -> bool {
        self.name == ANONYMOUS
    }

    /// Whether the user is in `group`.
    pub fn in_group(&self, group: &str) -> bool {
        self.groups.iter().any(|g| g == group)
    }

    /// Whether the user is in `system:masters`, which may do anything.
    pub fn is_master(&self) -> bool {
        self.in_group(SYSTEM_MASTERS)
    }

    /// The user with `system:authenticated` added
    /// (`AuthenticatedGroupAdder`).
    fn authenticated(mut self) -> Self {
        if !self.in_group(ALL_AUTHENTICATED) {
            self.groups.push(ALL_AUTHENTICATED.to_string());
        }
        self
    }
}

/// A token file that cannot be read or parsed: a start-up error naming
/// the file and the line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenFileError(pub String);

impl fmt::Display for TokenFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for TokenFileError {}

/// Decides who made each request.
#[derive(Clone, Debug, Default)]
pub struct Authenticator {
    tokens: Vec<(Vec<u8>, User)>,
    anonymous: bool,
}

impl Authenticator {
    /// No credentials known, anonymous requests refused: every request
    /// is 401 until tokens are added or client certificates are trusted.
    pub fn new() -> Self {
        Self::default()
    }

    /// Allows requests without credentials as `system:anonymous`
    /// (`--anonymous-auth`); what they may do is the authorizer's
    /// business.
    pub fn allow_anonymous(mut self, allow: bool) -> Self {
        self.anonymous = allow;
        self
    }

    /// Accepts `token` as `user` (the kubeconfig's admin token, say).
    pub fn token(mut self, token: impl Into<String>, user: User) -> Self {
        self.tokens.push((token.into().into_bytes(), user));
        self
    }

    /// Reads kube-apiserver's static token file (`--token-auth-file`).
    pub fn token_file(self, path: &Path) -> Result<Self, TokenFileError> {
        let text = std::fs::read_to_string(path).map_err(|e| {
            TokenFileError(format!("cannot read token file '{}': {e}", path.display()))
        })?;
        self.token_csv(&text, &path.display().to_string())
    }

    /// Adds the tokens of a token file's content (`token,user,uid` and
    /// optionally `"group1,group2"`, CSV quoting), as
    /// `tokenfile.NewCSV` reads it: a record with fewer than three
    /// columns is an error naming the file and the line; a record with an
    /// empty token is skipped; a token given twice keeps the last record.
    pub fn token_csv(mut self, text: &str, path: &str) -> Result<Self, TokenFileError> {
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .from_reader(text.as_bytes());
        for record in reader.records() {
            let record = record.map_err(|e| {
                let line = e.position().map(|p| p.line()).unwrap_or(0);
                TokenFileError(format!("token file '{path}', line {line}: {e}"))
            })?;
            let line = record.position().map(|p| p.line()).unwrap_or(0);
            if record.len() < 3 {
                return Err(TokenFileError(format!(
                    "token file '{path}' must have at least 3 columns (token, user name, user uid), found {} (line {line})",
                    record.len()
                )));
            }
            let token = &record[0];
            if token.is_empty() {
                continue;
            }
            let groups = match record.get(3) {
                Some(g) => g.split(',').map(str::to_string).collect(),
                None => Vec::new(),
            };
            let user = User {
                name: record[1].to_string(),
                uid: record[2].to_string(),
                groups,
                extra: BTreeMap::new(),
            };
            self.tokens.retain(|(t, _)| t != token.as_bytes());
            self.tokens.push((token.as_bytes().to_vec(), user));
        }
        Ok(self)
    }

    /// How many tokens are known.
    pub fn token_count(&self) -> usize {
        self.tokens.len()
    }

    /// The user of a request: its verified client certificate's, else its
    /// bearer token's, else anonymous when allowed; otherwise 401.
    pub fn authenticate(
        &self,
        headers: &HeaderMap,
        certificate: Option<&CertificateUser>,
    ) -> Result<User, Status> {
        if let Some(cert) = certificate {
            let mut user = User {
                name: cert.name.clone(),
                uid: String::new(),
                groups: cert.groups.clone(),
                extra: BTreeMap::new(),
            };
            user.extra.insert(
                crate::tls::CREDENTIAL_ID_KEY.to_string(),
                vec![cert.credential_id.clone()],
            );
            return Ok(user.authenticated());
        }
        match bearer_token(headers) {
            Bearer::None if self.anonymous => Ok(User::anonymous()),
            Bearer::None | Bearer::Invalid => Err(unauthorized()),
            Bearer::Token(token) => self
                .lookup(token.as_bytes())
                .map(|u| u.clone().authenticated())
                .ok_or_else(unauthorized),
        }
    }

    /// The user of `token`, comparing with every known token in constant
    /// time (no early exit, as tokenfile's linear scan with
    /// `subtle.ConstantTimeCompare`).
    fn lookup(&self, token: &[u8]) -> Option<&User> {
        let mut found = None;
        for (known, user) in &self.tokens {
            if bool::from(known.as_slice().ct_eq(token)) {
                found = Some(user);
            }
        }
        found
    }
}

/// 401 `Unauthorized`, as the apiserver answers a failed authentication.
pub fn unauthorized() -> Status {
    Status::unauthorized("Unauthorized")
}

enum Bearer<'h> {
    None,
    Invalid,
    Token(&'h str),
}

/// The `Authorization: Bearer <token>` header as `bearertoken.go` reads
/// it: no header, or another scheme, is no credential; an empty bearer
/// token is an invalid one.
fn bearer_token(headers: &HeaderMap) -> Bearer<'_> {
    let Some(value) = headers.get(header::AUTHORIZATION) else {
        return Bearer::None;
    };
    let Ok(value) = value.to_str() else {
        return Bearer::Invalid;
    };
    let value = value.trim();
    if value.is_empty() {
        return Bearer::None;
    }
    let mut parts = value.split(' ');
    let scheme = parts.next().unwrap_or_default();
    let Some(token) = parts.next() else {
        return Bearer::None;
    };
    if !scheme.eq_ignore_ascii_case("bearer") {
        return Bearer::None;
    }
    if token.is_empty() {
        Bearer::Invalid
    } else {
        Bearer::Token(token)
    }
}

#[cfg(test)]
#[path = "authn_tests.rs"]
mod tests;
