//! The URL library of k8s.io/apiserver (`pkg/cel/library/urls.go`, with
//! the `kubernetes.URL` type of `pkg/cel/url.go`): `url(<string>)`,
//! `isURL(<string>)`, and `getScheme`, `getHost`, `getHostname`, `getPort`,
//! `getEscapedPath` and `getQuery` on a URL.
//!
//! URLs are parsed as Go 1.26's `net/url` parses them (`ParseRequestURI`
//! to accept a string, `Parse` to read it, as the library does), by hand:
//! the `url` crate follows the WHATWG URL standard, which normalizes what Go
//! keeps (`https://example.com` has the path `/` there, `''` in Go) and
//! reads no relative reference such as `/path` without a base URL. Go's
//! choices kept here:
//!
//! * a path-absolute reference (`/path`) has no scheme, host or port;
//! * `scheme:rest` with no `/` after the colon is opaque
//!   (`https:://kubernetes.io/` is a URL, with no host);
//! * hosts in brackets must be IPv6 addresses (`[::1]`, zones as `%25`);
//!   other hosts may hold one colon, before a port of digits, for `http` and
//!   `https` (Go 1.26's `urlstrictcolons`), or several otherwise;
//! * `getQuery` decodes `+` as a space, drops pairs that do not decode or
//!   hold a `;`, and is empty for more than 10000 parameters.
//!
//! Strings are Go's byte strings there: a `%`-escape that decodes to bytes
//! that are not UTF-8 (`%ff`) is read as U+FFFD by `getHost`, `getHostname`
//! and `getQuery`. The error of `url()` is Go's
//! (`URL parse error during conversion from string: parse "...": ...`),
//! except that an invalid IP literal in brackets is always reported as
//! `unable to parse IP` (Go's `netip` tells more).

use std::collections::HashMap;
use std::net::{Ipv4Addr, Ipv6Addr};

use ::cel::common::types::{CelBool, CelList, CelMap, CelMapKey, CelString, Type};
use ::cel::common::value::Val;
use ::cel::{DeclarationError, Env, ExecutionError};

/// Declares the library's functions, and its type, on `env`.
pub(crate) fn register(env: &mut Env) -> Result<(), DeclarationError> {
    env.add_type(URL_TYPE.to_owned())?;
    ::cel::add_overload!(env, fn url: (CelString<'_>) -> Result<Url>, id = "string_to_url")?;
    ::cel::add_overload!(env, fn is_url: (CelString<'_>) -> CelBool,
        name = "isURL", id = "is_url_string")?;
    ::cel::add_member_overload!(env, fn get_scheme: (Url) -> CelString<'_>,
        id = "url_get_scheme")?;
    ::cel::add_member_overload!(env, fn get_host: (Url) -> CelString<'_>, id = "url_get_host")?;
    ::cel::add_member_overload!(env, fn get_hostname: (Url) -> CelString<'_>,
        id = "url_get_hostname")?;
    ::cel::add_member_overload!(env, fn get_port: (Url) -> CelString<'_>, id = "url_get_port")?;
    ::cel::add_member_overload!(env, fn get_escaped_path: (Url) -> CelString<'_>,
        id = "url_get_escaped_path")?;
    ::cel::add_member_overload!(env, fn get_query: (Url) -> CelMap<'_>, id = "url_get_query")?;
    Ok(())
}

/// `kubernetes.URL`, the type of [`Url`].
static URL_TYPE: Type = Type::new_unspecified_type("kubernetes.URL");

/// A URL of a rule (`url('https://example.com')`): Go's `url.URL` as
/// `url.Parse` reads it. Two URLs are equal when they print the same.
#[derive(Clone, Debug)]
pub(crate) struct Url(GoUrl);

super::library_value!(Url, URL_TYPE, |a, b| a.0.to_bytes() == b.0.to_bytes());

/// `url(s)`: `s` must be an absolute URI or an absolute path.
fn url(s: &CelString<'_>) -> Result<Url, ExecutionError> {
    let wrap = |e: String| {
        ExecutionError::function_error(
            "url",
            format!("URL parse error during conversion from string: {e}"),
        )
    };
    // ParseRequestURI checks the string, but keeps a fragment in the path
    // or query: Parse reads it.
    parse_request_uri(s.inner()).map_err(wrap)?;
    parse(s.inner()).map(Url).map_err(wrap)
}

/// `isURL(s)`: whether `url(s)` succeeds.
fn is_url(s: &CelString<'_>) -> CelBool {
    CelBool::from(parse_request_uri(s.inner()).is_ok())
}

fn text(bytes: &[u8]) -> CelString<'static> {
    CelString::from(String::from_utf8_lossy(bytes).into_owned())
}

fn get_scheme(u: &Url) -> CelString<'static> {
    CelString::from(u.0.scheme.clone())
}

fn get_host(u: &Url) -> CelString<'static> {
    text(&u.0.host)
}

fn get_hostname(u: &Url) -> CelString<'static> {
    text(split_host_port(&u.0.host).0)
}

fn get_port(u: &Url) -> CelString<'static> {
    text(split_host_port(&u.0.host).1)
}

fn get_escaped_path(u: &Url) -> CelString<'static> {
    text(&u.0.escaped_path())
}

/// The query as a map from each key to its values, in order.
fn get_query(u: &Url) -> CelMap<'static> {
    let mut values: HashMap<CelMapKey<'static>, Vec<Box<dyn Val>>> = HashMap::new();
    for (key, value) in parse_query(&u.0.raw_query) {
        let key = CelMapKey::from(String::from_utf8_lossy(&key).into_owned());
        values.entry(key).or_default().push(Box::new(text(&value)));
    }
    let map: HashMap<CelMapKey<'static>, Box<dyn Val>> = values
        .into_iter()
        .map(|(k, v)| (k, Box::new(CelList::from(v)) as Box<dyn Val>))
        .collect();
    CelMap::from(map)
}

/// Go's `url.Userinfo`.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Userinfo {
    username: Vec<u8>,
    password: Option<Vec<u8>>,
}

/// Go's `url.URL`: the decoded fields are bytes, as Go's strings are.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct GoUrl {
    scheme: String,
    opaque: Vec<u8>,
    user: Option<Userinfo>,
    host: Vec<u8>,
    path: Vec<u8>,
    raw_path: Vec<u8>,
    omit_host: bool,
    force_query: bool,
    raw_query: Vec<u8>,
    fragment: Vec<u8>,
    raw_fragment: Vec<u8>,
}

/// The parts of a URL, which escape differently.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Path,
    Host,
    Zone,
    UserPassword,
    QueryComponent,
    Fragment,
}

/// Go's `shouldEscape`: whether `c` is escaped in `mode`.
fn should_escape(c: u8, mode: Mode) -> bool {
    if c.is_ascii_alphanumeric() {
        return false;
    }
    if matches!(mode, Mode::Host | Mode::Zone)
        && matches!(
            c,
            b'!' | b'$'
                | b'&'
                | b'\''
                | b'('
                | b')'
                | b'*'
                | b'+'
                | b','
                | b';'
                | b'='
                | b':'
                | b'['
                | b']'
                | b'<'
                | b'>'
                | b'"'
        )
    {
        return false;
    }
    match c {
        b'-' | b'_' | b'.' | b'~' => return false,
        b'$' | b'&' | b'+' | b',' | b'/' | b':' | b';' | b'=' | b'?' | b'@' => match mode {
            Mode::Path => return c == b'?',
            Mode::UserPassword => return matches!(c, b'@' | b'/' | b'?' | b':'),
            Mode::QueryComponent => return true,
            Mode::Fragment => return false,
            Mode::Host | Mode::Zone => {}
        },
        _ => {}
    }
    if mode == Mode::Fragment && matches!(c, b'!' | b'(' | b')' | b'*') {
        return false;
    }
    true
}

fn unhex(c: u8) -> u8 {
    match c {
        b'0'..=b'9' => c - b'0',
        b'a'..=b'f' => c - b'a' + 10,
        b'A'..=b'F' => c - b'A' + 10,
        _ => 0,
    }
}

/// Go's `unescape`: `%XX` decoded (and `+` in a query), checked for `mode`.
fn unescape(s: &[u8], mode: Mode) -> Result<Vec<u8>, String> {
    let mut i = 0;
    while i < s.len() {
        match s[i] {
            b'%' => {
                if i + 2 >= s.len()
                    || !s[i + 1].is_ascii_hexdigit()
                    || !s[i + 2].is_ascii_hexdigit()
                {
                    let end = s.len().min(i + 3);
                    return Err(escape_error(&s[i..end]));
                }
                let escape = &s[i..i + 3];
                // Hosts only %-encode non-ASCII bytes, and `%25` (a zone).
                if mode == Mode::Host && unhex(s[i + 1]) < 8 && escape != b"%25" {
                    return Err(escape_error(escape));
                }
                if mode == Mode::Zone {
                    let v = unhex(s[i + 1]) << 4 | unhex(s[i + 2]);
                    if escape != b"%25" && v != b' ' && should_escape(v, Mode::Host) {
                        return Err(escape_error(escape));
                    }
                }
                i += 3;
            }
            c => {
                if matches!(mode, Mode::Host | Mode::Zone) && c < 0x80 && should_escape(c, mode) {
                    return Err(format!(
                        "invalid character {} in host name",
                        go_quote(&s[i..=i])
                    ));
                }
                i += 1;
            }
        }
    }
    let mut out = Vec::with_capacity(s.len());
    let mut i = 0;
    while i < s.len() {
        match s[i] {
            b'%' => {
                out.push(unhex(s[i + 1]) << 4 | unhex(s[i + 2]));
                i += 3;
            }
            b'+' if mode == Mode::QueryComponent => {
                out.push(b' ');
                i += 1;
            }
            c => {
                out.push(c);
                i += 1;
            }
        }
    }
    Ok(out)
}

fn escape_error(s: &[u8]) -> String {
    format!("invalid URL escape {}", go_quote(s))
}

/// Go's `escape`.
fn escape(s: &[u8], mode: Mode) -> Vec<u8> {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut out = Vec::with_capacity(s.len());
    for &c in s {
        if c == b' ' && mode == Mode::QueryComponent {
            out.push(b'+');
        } else if should_escape(c, mode) {
            out.extend([b'%', HEX[usize::from(c >> 4)], HEX[usize::from(c & 15)]]);
        } else {
            out.push(c);
        }
    }
    out
}

/// Go's `strconv.Quote` of bytes (what `%q` prints): the characters as
/// [`go_quote`](crate::validation::go_quote) writes them, a byte that is
/// not part of one as `\xNN`.
pub(super) fn go_quote(s: &[u8]) -> String {
    let mut out = String::from("\"");
    for chunk in s.utf8_chunks() {
        let quoted = crate::validation::go_quote(chunk.valid());
        out.push_str(quoted.get(1..quoted.len() - 1).unwrap_or_default());
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02x}"));
        }
    }
    out.push('"');
    out
}

/// Go's `getScheme`: the scheme, if `raw` starts with one, and the rest.
fn get_scheme_of(raw: &[u8]) -> Result<(&[u8], &[u8]), String> {
    for (i, &c) in raw.iter().enumerate() {
        match c {
            b'a'..=b'z' | b'A'..=b'Z' => {}
            b'0'..=b'9' | b'+' | b'-' | b'.' if i > 0 => {}
            b':' if i == 0 => return Err("missing protocol scheme".to_owned()),
            b':' => return Ok((&raw[..i], &raw[i + 1..])),
            _ => return Ok((b"", raw)),
        }
    }
    Ok((b"", raw))
}

fn cut(s: &[u8], sep: u8) -> (&[u8], Option<&[u8]>) {
    match s.iter().position(|&c| c == sep) {
        Some(i) => (&s[..i], Some(&s[i + 1..])),
        None => (s, None),
    }
}

/// Whether `raw` is what Go's `url.ParseRequestURI` accepts, or its error
/// (the `uri` named format's check).
pub(super) fn check_request_uri(raw: &str) -> Result<(), String> {
    parse_request_uri(raw).map(drop)
}

/// Go's `url.ParseRequestURI`.
fn parse_request_uri(raw: &str) -> Result<GoUrl, String> {
    parse_url(raw.as_bytes(), true).map_err(|e| url_error(raw.as_bytes(), &e))
}

/// Go's `url.Parse`.
fn parse(raw: &str) -> Result<GoUrl, String> {
    let (u, frag) = cut(raw.as_bytes(), b'#');
    let mut url = parse_url(u, false).map_err(|e| url_error(u, &e))?;
    if let Some(frag) = frag.filter(|f| !f.is_empty()) {
        url.set_fragment(frag)
            .map_err(|e| url_error(raw.as_bytes(), &e))?;
    }
    Ok(url)
}

/// Go's `url.Error` of the `parse` operation.
fn url_error(raw: &[u8], e: &str) -> String {
    format!("parse {}: {e}", go_quote(raw))
}

/// Go's `parse`: `via_request` only takes absolute URIs and absolute paths.
fn parse_url(raw: &[u8], via_request: bool) -> Result<GoUrl, String> {
    if raw.iter().any(|&b| b < 0x20 || b == 0x7f) {
        return Err("net/url: invalid control character in URL".to_owned());
    }
    if raw.is_empty() && via_request {
        return Err("empty url".to_owned());
    }
    let mut url = GoUrl::default();
    if raw == b"*" {
        url.path = b"*".to_vec();
        return Ok(url);
    }
    let (scheme, mut rest) = get_scheme_of(raw)?;
    url.scheme = String::from_utf8_lossy(scheme).to_ascii_lowercase();
    if rest.ends_with(b"?") && rest.iter().filter(|&&c| c == b'?').count() == 1 {
        url.force_query = true;
        rest = &rest[..rest.len() - 1];
    } else {
        let (r, query) = cut(rest, b'?');
        rest = r;
        url.raw_query = query.unwrap_or_default().to_vec();
    }
    if !rest.starts_with(b"/") {
        if !url.scheme.is_empty() {
            // A rootless path is opaque (RFC 3986).
            url.opaque = rest.to_vec();
            return Ok(url);
        }
        if via_request {
            return Err("invalid URI for request".to_owned());
        }
        if cut(rest, b'/').0.contains(&b':') {
            return Err("first path segment in URL cannot contain colon".to_owned());
        }
    }
    if (!url.scheme.is_empty() || !via_request && !rest.starts_with(b"///"))
        && rest.starts_with(b"//")
    {
        let mut authority = &rest[2..];
        rest = b"";
        if let Some(i) = authority.iter().position(|&c| c == b'/') {
            rest = &authority[i..];
            authority = &authority[..i];
        }
        let (user, host) = parse_authority(&url.scheme, authority)?;
        url.user = user;
        url.host = host;
    } else if !url.scheme.is_empty() && rest.starts_with(b"/") {
        url.omit_host = true;
    }
    url.set_path(rest)?;
    Ok(url)
}

/// Go's `parseAuthority`: `[userinfo@]host[:port]`.
fn parse_authority(scheme: &str, authority: &[u8]) -> Result<(Option<Userinfo>, Vec<u8>), String> {
    let at = authority.iter().rposition(|&c| c == b'@');
    let host = parse_host(scheme, at.map_or(authority, |i| &authority[i + 1..]))?;
    let Some(i) = at else {
        return Ok((None, host));
    };
    let userinfo = &authority[..i];
    if !userinfo.iter().all(|&c| {
        c.is_ascii_alphanumeric()
            || matches!(
                c,
                b'-' | b'.'
                    | b'_'
                    | b':'
                    | b'~'
                    | b'!'
                    | b'$'
                    | b'&'
                    | b'\''
                    | b'('
                    | b')'
                    | b'*'
                    | b'+'
                    | b','
                    | b';'
                    | b'='
                    | b'%'
                    | b'@'
            )
    }) {
        return Err("net/url: invalid userinfo".to_owned());
    }
    let user = match cut(userinfo, b':') {
        (name, None) => Userinfo {
            username: unescape(name, Mode::UserPassword)?,
            password: None,
        },
        (name, Some(password)) => Userinfo {
            username: unescape(name, Mode::UserPassword)?,
            password: Some(unescape(password, Mode::UserPassword)?),
        },
    };
    Ok((Some(user), host))
}

/// Go's `validOptionalPort`: empty, or `:` and digits.
fn valid_optional_port(port: &[u8]) -> bool {
    match port.split_first() {
        None => true,
        Some((b':', digits)) => digits.iter().all(u8::is_ascii_digit),
        Some(_) => false,
    }
}

fn invalid_port(port: &[u8]) -> String {
    format!("invalid port {} after host", go_quote(port))
}

/// Go's `parseHost`: `host[:port]`, where the host may be an IPv6 literal
/// in brackets.
fn parse_host(scheme: &str, host: &[u8]) -> Result<Vec<u8>, String> {
    match host.iter().rposition(|&c| c == b'[') {
        Some(i) if i > 0 => return Err("invalid IP-literal".to_owned()),
        Some(_) => {
            let Some(close) = host.iter().rposition(|&c| c == b']') else {
                return Err("missing ']' in host".to_owned());
            };
            let colon_port = &host[close + 1..];
            if !valid_optional_port(colon_port) {
                return Err(invalid_port(colon_port));
            }
            let colon_port = unescape(colon_port, Mode::Host)?;
            let hostname = host.get(1..close).unwrap_or_default();
            // `%25` starts a zone, whose escapes are looser.
            let unescaped = match find(hostname, b"%25") {
                Some(zone) => {
                    let mut h = unescape(&hostname[..zone], Mode::Host)?;
                    h.extend(unescape(&hostname[zone..], Mode::Zone)?);
                    h
                }
                None => unescape(hostname, Mode::Host)?,
            };
            check_ip_literal(&unescaped)?;
            let mut out = Vec::with_capacity(unescaped.len() + colon_port.len() + 2);
            out.push(b'[');
            out.extend(unescaped);
            out.push(b']');
            out.extend(colon_port);
            return Ok(out);
        }
        None => {
            if let Some(first) = host.iter().position(|&c| c == b':') {
                let last = host.iter().rposition(|&c| c == b':').unwrap_or(first);
                // RFC 3986 allows no colon in a host: Go 1.26 enforces it
                // for http and https (`urlstrictcolons`), and takes the last
                // colon as the port's for other schemes.
                let i = if last != first && scheme != "http" && scheme != "https" {
                    last
                } else {
                    first
                };
                if !valid_optional_port(&host[i..]) {
                    return Err(invalid_port(&host[i..]));
                }
            }
        }
    }
    unescape(host, Mode::Host)
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// What Go's `netip.ParseAddr` and `parseHost` accept in brackets: an IPv6
/// address, maybe with a zone, but not an IPv4 one.
fn check_ip_literal(addr: &[u8]) -> Result<(), String> {
    let fail = |msg: &str| {
        Err(format!(
            "invalid host: ParseAddr({}): {msg}",
            go_quote(addr)
        ))
    };
    let text = String::from_utf8_lossy(addr);
    match addr.iter().find(|&&c| matches!(c, b'.' | b':' | b'%')) {
        Some(b'.') => {
            if text.parse::<Ipv4Addr>().is_ok() {
                Err("invalid IP-literal".to_owned())
            } else {
                fail("unable to parse IP")
            }
        }
        Some(b':') => {
            let (ip, zone) = match text.split_once('%') {
                Some((ip, zone)) => (ip, Some(zone)),
                None => (&*text, None),
            };
            if zone == Some("") {
                return fail("zone must be a non-empty string");
            }
            match ip.parse::<Ipv6Addr>() {
                Ok(_) => Ok(()),
                Err(_) => fail("unable to parse IP"),
            }
        }
        Some(_) => fail("missing IPv6 address"),
        None => fail("unable to parse IP"),
    }
}

/// Go's `splitHostPort`: the host without brackets, and the port.
fn split_host_port(host_port: &[u8]) -> (&[u8], &[u8]) {
    let mut host = host_port;
    let mut port: &[u8] = b"";
    if let Some(colon) = host.iter().rposition(|&c| c == b':')
        && valid_optional_port(&host[colon..])
    {
        port = &host[colon + 1..];
        host = &host[..colon];
    }
    if host.len() >= 2 && host.starts_with(b"[") && host.ends_with(b"]") {
        host = &host[1..host.len() - 1];
    }
    (host, port)
}

/// Go's `validEncoded`: whether `s` needs no escaping in `mode`.
fn valid_encoded(s: &[u8], mode: Mode) -> bool {
    s.iter().all(|&c| {
        matches!(
            c,
            b'!' | b'$'
                | b'&'
                | b'\''
                | b'('
                | b')'
                | b'*'
                | b'+'
                | b','
                | b';'
                | b'='
                | b':'
                | b'@'
                | b'['
                | b']'
                | b'%'
        ) || !should_escape(c, mode)
    })
}

impl GoUrl {
    /// Go's `setPath`: the decoded path, and the raw one when it is not
    /// the default encoding.
    fn set_path(&mut self, p: &[u8]) -> Result<(), String> {
        self.path = unescape(p, Mode::Path)?;
        self.raw_path = if escape(&self.path, Mode::Path) == p {
            Vec::new()
        } else {
            p.to_vec()
        };
        Ok(())
    }

    /// Go's `setFragment`.
    fn set_fragment(&mut self, f: &[u8]) -> Result<(), String> {
        self.fragment = unescape(f, Mode::Fragment)?;
        self.raw_fragment = if escape(&self.fragment, Mode::Fragment) == f {
            Vec::new()
        } else {
            f.to_vec()
        };
        Ok(())
    }

    /// Go's `EscapedPath`.
    fn escaped_path(&self) -> Vec<u8> {
        if !self.raw_path.is_empty()
            && valid_encoded(&self.raw_path, Mode::Path)
            && unescape(&self.raw_path, Mode::Path).is_ok_and(|p| p == self.path)
        {
            return self.raw_path.clone();
        }
        if self.path == b"*" {
            return b"*".to_vec();
        }
        escape(&self.path, Mode::Path)
    }

    /// Go's `EscapedFragment`.
    fn escaped_fragment(&self) -> Vec<u8> {
        if !self.raw_fragment.is_empty()
            && valid_encoded(&self.raw_fragment, Mode::Fragment)
            && unescape(&self.raw_fragment, Mode::Fragment).is_ok_and(|f| f == self.fragment)
        {
            return self.raw_fragment.clone();
        }
        escape(&self.fragment, Mode::Fragment)
    }

    /// Go's `URL.String`.
    fn to_bytes(&self) -> Vec<u8> {
        let mut buf = Vec::new();
        if !self.scheme.is_empty() {
            buf.extend(self.scheme.as_bytes());
            buf.push(b':');
        }
        if !self.opaque.is_empty() {
            buf.extend(&self.opaque);
        } else {
            let no_authority = self.omit_host && self.host.is_empty() && self.user.is_none();
            if (!self.scheme.is_empty() || !self.host.is_empty() || self.user.is_some())
                && !no_authority
            {
                if !self.host.is_empty() || !self.path.is_empty() || self.user.is_some() {
                    buf.extend(b"//");
                }
                if let Some(user) = &self.user {
                    buf.extend(escape(&user.username, Mode::UserPassword));
                    if let Some(password) = &user.password {
                        buf.push(b':');
                        buf.extend(escape(password, Mode::UserPassword));
                    }
                    buf.push(b'@');
                }
                buf.extend(escape(&self.host, Mode::Host));
            }
            let mut path = self.escaped_path();
            if no_authority && path.starts_with(b"//") {
                // So that the path is not read back as an authority.
                buf.extend(b"%2F");
                path.remove(0);
            }
            if !path.is_empty() && path[0] != b'/' && !self.host.is_empty() {
                buf.push(b'/');
            }
            if buf.is_empty() && cut(&path, b'/').0.contains(&b':') {
                // A first segment with a colon would read as a scheme.
                buf.extend(b"./");
            }
            buf.extend(path);
        }
        if self.force_query || !self.raw_query.is_empty() {
            buf.push(b'?');
            buf.extend(&self.raw_query);
        }
        if !self.fragment.is_empty() {
            buf.push(b'#');
            buf.extend(self.escaped_fragment());
        }
        buf
    }
}

/// The most parameters Go parses in a query (`urlmaxqueryparams`).
const MAX_QUERY_PARAMS: usize = 10000;

/// Go's `ParseQuery`, errors dropped as `URL.Query` does: the decoded
/// pairs, in order.
fn parse_query(query: &[u8]) -> Vec<(Vec<u8>, Vec<u8>)> {
    let mut pairs = Vec::new();
    if query.iter().filter(|&&c| c == b'&').count() + 1 > MAX_QUERY_PARAMS {
        return pairs;
    }
    for pair in query.split(|&c| c == b'&') {
        if pair.is_empty() || pair.contains(&b';') {
            continue;
        }
        let (key, value) = cut(pair, b'=');
        let (Ok(key), Ok(value)) = (
            unescape(key, Mode::QueryComponent),
            unescape(value.unwrap_or_default(), Mode::QueryComponent),
        ) else {
            continue;
        };
        pairs.push((key, value));
    }
    pairs
}

#[cfg(test)]
mod tests {

    use super::super::testing::assert_true;

    use super::super::testing::function_error as error;

    /// The "URL parsing" and "cost for extended lib calculated correctly:
    /// url" cases of apiextensions-apiserver's `TestValidationExpressions`
    /// (`pkg/apiserver/schema/cel/validation_test.go`, `self.url` spelled
    /// out), which are also the examples of `urls.go`.
    #[test]
    fn validation_expressions() {
        let this = "'https://user:pass@kubernetes.io:80/docs/home?k1=a&k2=b&k2=c#anchor'";
        for rule in [
            "url('/path').getScheme() == ''",
            "url('https://example.com/').getScheme() == 'https'",
            "url('https://example.com:80/').getHost() == 'example.com:80'",
            "url('https://example.com/').getHost() == 'example.com'",
            "url('https://[::1]:80/').getHost() == '[::1]:80'",
            "url('https://[::1]/').getHost() == '[::1]'",
            "url('/path').getHost() == ''",
            "url('https://example.com:80/').getHostname() == 'example.com'",
            "url('https://127.0.0.1/').getHostname() == '127.0.0.1'",
            "url('https://[::1]/').getHostname() == '::1'",
            "url('/path').getHostname() == ''",
            "url('https://example.com:80/').getPort() == '80'",
            "url('https://example.com/').getPort() == ''",
            "url('/path').getPort() == ''",
            "url('https://example.com/path').getEscapedPath() == '/path'",
            "url('https://example.com/with space/').getEscapedPath() == '/with%20space/'",
            "url('https://example.com').getEscapedPath() == ''",
            "url('https://example.com/path?k1=a&k2=b&k2=c').getQuery() == { 'k1': ['a'], 'k2': ['b', 'c']}",
            "url('https://example.com/path?key with spaces=value with spaces').getQuery() == { 'key with spaces': ['value with spaces']}",
            "url('https://example.com/path?').getQuery() == {}",
            "url('https://example.com/path').getQuery() == {}",
            "url(SELF).getScheme() == 'https'",
            "url(SELF).getHost() == 'kubernetes.io:80'",
            "url(SELF).getHostname() == 'kubernetes.io'",
            "url(SELF).getPort() == '80'",
            "url(SELF).getEscapedPath() == '/docs/home'",
            "url(SELF).getQuery() == {'k1': ['a'], 'k2': ['b', 'c']}",
            "isURL('https://user:pass@example.com:80/path?query=val#fragment')",
            "isURL('/path') == true",
            "isURL('https://a:b:c/') == false",
            "isURL('../relative-path') == false",
            "url('https:://kubernetes.io/').getHostname() != 'test'",
        ] {
            assert_true(&rule.replace("SELF", this));
        }
    }

    /// The remaining examples of `urls.go`'s documentation.
    #[test]
    fn documented_examples() {
        assert_true("url('https://user:pass@example.com:80/path?query=val#fragment') != url('/a')");
        assert_true("url('https://[::1]:80/').getHostname() == '::1'");
        assert_true("url('https://127.0.0.1:80/').getHostname() == '127.0.0.1'");
        assert_true(
            "url('https://example.com/path with spaces/').getEscapedPath() == '/path%20with%20spaces/'",
        );
        assert_eq!(
            error("url('https://a:b:c/')"),
            "URL parse error during conversion from string: \
             parse \"https://a:b:c/\": invalid port \":b:c\" after host"
        );
        assert_eq!(
            error("url('../relative-path')"),
            "URL parse error during conversion from string: \
             parse \"../relative-path\": invalid URI for request"
        );
    }

    /// Go's `net/url` in the corners: escapes, opaque URLs, IP literals,
    /// ports, queries, equality by the printed form.
    #[test]
    fn go_net_url() {
        for rule in [
            // Escaped paths keep Go's choice of escaping.
            "url('/a%2Fb').getEscapedPath() == '/a%2Fb'",
            "url('/a%41b').getEscapedPath() == '/a%41b'",
            "url('/a b?c').getEscapedPath() == '/a%20b'",
            "url('/ü').getEscapedPath() == '/%C3%BC'",
            "url('/a;b,c:d@e').getEscapedPath() == '/a;b,c:d@e'",
            "url('*').getEscapedPath() == '*'",
            // The fragment is not part of the path or query.
            "url('/p?a=1#frag').getQuery() == {'a': ['1']}",
            "url('/p#frag').getEscapedPath() == '/p'",
            // Opaque URLs have no host or path.
            "url('mailto:someone@example.com').getHost() == ''",
            "url('mailto:someone@example.com').getEscapedPath() == ''",
            "url('HTTPS://Example.com/').getScheme() == 'https'",
            "url('HTTPS://Example.com/').getHost() == 'Example.com'",
            // Hosts.
            "url('https://[fe80::1%25en0]:8080/').getHostname() == 'fe80::1%en0'",
            "url('https://[::ffff:1.2.3.4]/').getHostname() == '::ffff:1.2.3.4'",
            "url('https://h:/').getPort() == ''",
            "url('https://h:/').getHost() == 'h:'",
            "url('redis://a:1,b:2/').getHost() == 'a:1,b:2'",
            "url('redis://a:1,b:2/').getPort() == '2'",
            "url('https://user@h/').getHost() == 'h'",
            "url('https://%C3%BC.example/').getHost() == 'ü.example'",
            "url('https:///path').getHost() == ''",
            "url('https:///path').getEscapedPath() == '/path'",
            // Queries.
            "url('/p?a=1&a=2&b').getQuery() == {'a': ['1', '2'], 'b': ['']}",
            "url('/p?a+b=c%20d').getQuery() == {'a b': ['c d']}",
            "url('/p?a=%zz&b=1&c;d=2').getQuery() == {'b': ['1']}",
            "url('/p?&&a=1').getQuery() == {'a': ['1']}",
            // Equality compares the printed URLs.
            "url('https://example.com/a b') == url('https://example.com/a%20b')",
            "url('https://example.com/') != url('https://example.com')",
            "url('https://example.com/#x') == url('https://example.com/#x')",
            "url('HTTP://h/') == url('http://h/')",
            // The type.
            "type(url('/a')) == kubernetes.URL",
            "type(url('/a')) != string",
            // What isURL accepts.
            "isURL('*')",
            "isURL('http:')",
            "isURL('https:opaque')",
            "isURL('/p?x#y')",
            "!isURL('')",
            "!isURL('path')",
            "isURL('//host/path')",
            // ... which Parse, unlike ParseRequestURI, reads as a host.
            "url('//host/path').getHost() == 'host'",
            "!isURL(':foo')",
            "!isURL('https://[::1')",
            "!isURL('https://[1.2.3.4]/')",
            "!isURL('https://[example.com]/')",
            "!isURL('https://a[::1]/')",
            "!isURL('https://[::1]x/')",
            "!isURL('https://[fe80::1%25]/')",
            "!isURL('https://::1/')",
            "!isURL('https://h:80:80/')",
            "!isURL('https://h:x/')",
            "!isURL('https://a b/')",
            "!isURL('https://%41/')",
            "!isURL('https://u ser@h/')",
            "!isURL('/a%zz')",
            "!isURL('/a%')",
            "!isURL('/a\\tb')",
            "isURL('https://h/#frag')",
            "!isURL('https://h#frag')",
        ] {
            assert_true(rule);
        }
    }

    #[test]
    fn go_s_errors() {
        for (input, message) in [
            ("", r#"parse "": empty url"#),
            (
                "/a\tb",
                r#"parse "/a\tb": net/url: invalid control character in URL"#,
            ),
            (":foo", r#"parse ":foo": missing protocol scheme"#),
            (
                "https://[::1",
                r#"parse "https://[::1": missing ']' in host"#,
            ),
            (
                "https://[1.2.3.4]/",
                r#"parse "https://[1.2.3.4]/": invalid IP-literal"#,
            ),
            (
                "https://[x]/",
                r#"parse "https://[x]/": invalid host: ParseAddr("x"): unable to parse IP"#,
            ),
            (
                "https://a b/",
                r#"parse "https://a b/": invalid character " " in host name"#,
            ),
            (
                "https://%41/",
                r#"parse "https://%41/": invalid URL escape "%41""#,
            ),
            ("/a%z", r#"parse "/a%z": invalid URL escape "%z""#),
            (
                "https://u ser@h/",
                r#"parse "https://u ser@h/": net/url: invalid userinfo"#,
            ),
        ] {
            let expr = format!("url('{}')", input.replace('\t', "\\t"));
            assert_eq!(
                error(&expr),
                format!("URL parse error during conversion from string: {message}"),
                "{expr}"
            );
        }
    }

    #[test]
    fn printed_form_is_go_s() {
        for (input, printed) in [
            ("https://example.com", "https://example.com"),
            ("https:///path", "https:///path"),
            (
                "https://u:p%40ss@h:80/a b?q=1#f g",
                "https://u:p%40ss@h:80/a%20b?q=1#f%20g",
            ),
            ("/a%2Fb", "/a%2Fb"),
            ("mailto:a@b", "mailto:a@b"),
            ("http:", "http:"),
            ("*", "*"),
            ("https://h/?", "https://h/?"),
        ] {
            let url = super::parse(input).unwrap_or_else(|e| panic!("{input}: {e}"));
            assert_eq!(String::from_utf8_lossy(&url.to_bytes()), printed, "{input}");
        }
    }
}
