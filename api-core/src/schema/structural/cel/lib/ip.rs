//! The `ip` library: k8s.io/apiserver's `pkg/cel/library/ip.go`, with the
//! `net.IP` type of `pkg/cel/ip.go`.
//!
//! | function | overload id |
//! |---|---|
//! | `ip(string) -> net.IP` | `string_to_ip` |
//! | `isIP(string) -> bool` | `is_ip` |
//! | `ip.isCanonical(string) -> bool` | `ip_is_canonical` |
//! | `<net.IP>.family() -> int` | `ip_family` |
//! | `<net.IP>.isUnspecified() -> bool` | `ip_is_unspecified` |
//! | `<net.IP>.isLoopback() -> bool` | `ip_is_loopback` |
//! | `<net.IP>.isLinkLocalMulticast() -> bool` | `ip_is_link_local_multicast` |
//! | `<net.IP>.isLinkLocalUnicast() -> bool` | `ip_is_link_local_unicast` |
//! | `<net.IP>.isGlobalUnicast() -> bool` | `ip_is_global_unicast` |
//! | `string(net.IP) -> string` | `ip_to_string` |
//!
//! Addresses are read as Go's `netip.ParseAddr` reads them, with its error
//! texts: no leading zeros in IPv4 fields, no IPv4 shorthand, at most four
//! hex digits a group. Kubernetes then refuses what `netip` accepts but a
//! Kubernetes address may not be: a zone (`fe80::1%eth0`) and an
//! IPv4-mapped IPv6 address (`::ffff:1.2.3.4`). Addresses are written as
//! `netip.Addr.String()` writes them (RFC 5952 for IPv6), which is what
//! `ip.isCanonical` compares with.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use ::cel::common::types::{CelBool, CelInt, CelString, Kind, Type};
use ::cel::{DeclarationError, Env, ExecutionError};

use crate::validation::go_quote;

/// `net.IP`: an opaque type, as cel-go's `cel.OpaqueType("net.IP")`.
pub(super) static IP_TYPE: Type = Type::simple_type(Kind::Opaque, "net.IP");

/// A `net.IP` value: an IPv4 or IPv6 address, without a zone and never
/// IPv4-mapped (apiserver's `cel.IP`). Two addresses are equal when they
/// are the same address of the same family.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Ip(pub(super) IpAddr);

super::library_value!(Ip, IP_TYPE, |a, b| a == b);

/// Declares the library's functions, and its type `net.IP`, on `env`.
pub(crate) fn register(env: &mut Env) -> Result<(), DeclarationError> {
    env.add_type(IP_TYPE.to_owned())?;
    ::cel::add_overload!(env, fn ip: (CelString<'_>) -> Result<Ip>, id = "string_to_ip")?;
    ::cel::add_overload!(env, fn is_ip: (CelString<'_>) -> CelBool, name = "isIP", id = "is_ip")?;
    ::cel::add_overload!(env, fn is_canonical: (CelString<'_>) -> Result<CelBool>,
        name = "ip.isCanonical", id = "ip_is_canonical")?;
    ::cel::add_member_overload!(env, fn family: (Ip) -> CelInt, id = "ip_family")?;
    ::cel::add_member_overload!(env, fn is_unspecified: (Ip) -> CelBool,
        id = "ip_is_unspecified")?;
    ::cel::add_member_overload!(env, fn is_loopback: (Ip) -> CelBool, id = "ip_is_loopback")?;
    ::cel::add_member_overload!(env, fn is_link_local_multicast: (Ip) -> CelBool,
        id = "ip_is_link_local_multicast")?;
    ::cel::add_member_overload!(env, fn is_link_local_unicast: (Ip) -> CelBool,
        id = "ip_is_link_local_unicast")?;
    ::cel::add_member_overload!(env, fn is_global_unicast: (Ip) -> CelBool,
        id = "ip_is_global_unicast")?;
    ::cel::add_overload!(env, fn ip_to_string: (Ip) -> CelString<'static>,
        name = "string", id = "ip_to_string")?;
    Ok(())
}

fn ip(s: &CelString<'_>) -> Result<Ip, ExecutionError> {
    parse_ip(s)
        .map(Ip)
        .map_err(|e| ExecutionError::function_error("ip", e))
}

fn is_ip(s: &CelString<'_>) -> CelBool {
    parse_ip(s).is_ok().into()
}

/// Whether the string is the address written as Kubernetes writes it; an
/// error when it is no address.
fn is_canonical(s: &CelString<'_>) -> Result<CelBool, ExecutionError> {
    let addr = parse_ip(s).map_err(|e| ExecutionError::function_error("ip.isCanonical", e))?;
    Ok((addr.to_string() == s.inner()).into())
}

fn family(ip: &Ip) -> CelInt {
    match ip.0 {
        IpAddr::V4(_) => 4,
        IpAddr::V6(_) => 6,
    }
    .into()
}

fn is_unspecified(ip: &Ip) -> CelBool {
    ip.0.is_unspecified().into()
}

fn is_loopback(ip: &Ip) -> CelBool {
    loopback(ip.0).into()
}

fn is_link_local_multicast(ip: &Ip) -> CelBool {
    match ip.0 {
        // 224.0.0.0/24 (RFC 3927).
        IpAddr::V4(v4) => matches!(v4.octets(), [224, 0, 0, _]),
        // ff02::/16, whatever the flags (RFC 4291, 2.7).
        IpAddr::V6(v6) => v6.segments()[0] & 0xff0f == 0xff02,
    }
    .into()
}

fn is_link_local_unicast(ip: &Ip) -> CelBool {
    link_local_unicast(ip.0).into()
}

/// Go's `netip.Addr.IsGlobalUnicast`: anything but the unspecified,
/// broadcast, loopback, multicast and link-local unicast addresses
/// (private addresses included, as in Go).
fn is_global_unicast(ip: &Ip) -> CelBool {
    let multicast = match ip.0 {
        IpAddr::V4(v4) => v4.octets()[0] & 0xf0 == 0xe0,
        IpAddr::V6(v6) => v6.octets()[0] == 0xff,
    };
    let excluded = ip.0.is_unspecified()
        || ip.0 == IpAddr::V4(Ipv4Addr::BROADCAST)
        || loopback(ip.0)
        || multicast
        || link_local_unicast(ip.0);
    (!excluded).into()
}

fn ip_to_string(ip: &Ip) -> CelString<'static> {
    ip.0.to_string().into()
}

fn loopback(addr: IpAddr) -> bool {
    match addr {
        IpAddr::V4(v4) => v4.octets()[0] == 127,
        IpAddr::V6(v6) => v6 == Ipv6Addr::LOCALHOST,
    }
}

fn link_local_unicast(addr: IpAddr) -> bool {
    match addr {
        // 169.254.0.0/16.
        IpAddr::V4(v4) => matches!(v4.octets(), [169, 254, _, _]),
        // fe80::/10.
        IpAddr::V6(v6) => v6.segments()[0] & 0xffc0 == 0xfe80,
    }
}

/// An address as Kubernetes reads one (the library's `parseIPAddr`): Go's
/// `netip.ParseAddr`, without a zone, not IPv4-mapped. The error is the
/// library's message.
pub(super) fn parse_ip(raw: &str) -> Result<IpAddr, String> {
    let parsed = parse_addr(raw).map_err(|e| {
        format!(
            "IP Address {} parse error during conversion from string: {e}",
            go_quote(raw)
        )
    })?;
    if parsed.zoned {
        return Err(format!(
            "IP address {} with zone value is not allowed",
            go_quote(raw)
        ));
    }
    if is_ipv4_mapped(parsed.addr) {
        return Err(format!(
            "IPv4-mapped IPv6 address {} is not allowed",
            go_quote(raw)
        ));
    }
    Ok(parsed.addr)
}

/// Whether `addr` is an IPv4-mapped IPv6 address, `::ffff:a.b.c.d` (Go's
/// `Is4In6`).
pub(super) fn is_ipv4_mapped(addr: IpAddr) -> bool {
    matches!(addr, IpAddr::V6(v6) if v6.to_ipv4_mapped().is_some())
}

/// What Go's `netip.ParseAddr` reads: the address, and whether it had a
/// zone (`%eth0`, IPv6 only).
pub(super) struct ParsedAddr {
    pub(super) addr: IpAddr,
    pub(super) zoned: bool,
}

/// Go's `netip.ParseAddr`, its error text (`ParseAddr("…"): …`) included.
pub(super) fn parse_addr(s: &str) -> Result<ParsedAddr, String> {
    for &c in s.as_bytes() {
        match c {
            b'.' => {
                let octets = parse_ipv4_fields(s, s.as_bytes())?;
                return Ok(ParsedAddr {
                    addr: IpAddr::V4(Ipv4Addr::from(octets)),
                    zoned: false,
                });
            }
            b':' => return parse_ipv6(s),
            b'%' => return Err(addr_error(s, "missing IPv6 address", b"")),
            _ => {}
        }
    }
    Err(addr_error(s, "unable to parse IP", b""))
}

/// Go's `parseAddrError` text: the input, why, and where (the rest of the
/// input from the offending character), if known.
fn addr_error(input: &str, msg: &str, at: &[u8]) -> String {
    if at.is_empty() {
        format!("ParseAddr({}): {msg}", go_quote(input))
    } else {
        // `at` always starts at an ASCII character of `input`: it is a
        // whole string; the lossy conversion is only a safety net.
        format!(
            "ParseAddr({}): {msg} (at {})",
            go_quote(input),
            go_quote(&String::from_utf8_lossy(at))
        )
    }
}

/// The four fields of the dotted IPv4 address `s`, a part of `input`
/// (Go's `parseIPv4Fields`).
fn parse_ipv4_fields(input: &str, s: &[u8]) -> Result<[u8; 4], String> {
    let mut fields = [0u8; 4];
    let (mut val, mut pos, mut digits) = (0u32, 0usize, 0usize);
    for (i, &c) in s.iter().enumerate() {
        if c.is_ascii_digit() {
            if digits == 1 && val == 0 {
                return Err(addr_error(
                    input,
                    "IPv4 field has octet with leading zero",
                    b"",
                ));
            }
            val = val * 10 + u32::from(c - b'0');
            digits += 1;
            if val > 255 {
                return Err(addr_error(input, "IPv4 field has value >255", b""));
            }
        } else if c == b'.' {
            // .1.2.3, 1.2.3. and 1..2.3
            if i == 0 || i == s.len() - 1 || s[i - 1] == b'.' {
                return Err(addr_error(
                    input,
                    "IPv4 field must have at least one digit",
                    &s[i..],
                ));
            }
            if pos == 3 {
                return Err(addr_error(input, "IPv4 address too long", b""));
            }
            fields[pos] = val as u8; // ≤ 255
            pos += 1;
            val = 0;
            digits = 0;
        } else {
            return Err(addr_error(input, "unexpected character", &s[i..]));
        }
    }
    if pos < 3 {
        return Err(addr_error(input, "IPv4 address too short", b""));
    }
    fields[3] = val as u8; // ≤ 255
    Ok(fields)
}

/// Go's `parseIPv6`: hex groups, at most one `::`, maybe a dotted IPv4
/// address in the last 32 bits, maybe a non-empty zone after `%`.
fn parse_ipv6(input: &str) -> Result<ParsedAddr, String> {
    let (address, zoned) = match input.split_once('%') {
        Some((_, "")) => {
            return Err(addr_error(input, "zone must be a non-empty string", b""));
        }
        Some((address, _)) => (address, true),
        None => (input, false),
    };
    let v6 = |ip: [u8; 16]| ParsedAddr {
        addr: IpAddr::V6(Ipv6Addr::from(ip)),
        zoned,
    };
    let mut s = address.as_bytes();
    let mut ip = [0u8; 16];
    // Where the `::` is, in bytes of `ip`.
    let mut ellipsis: Option<usize> = None;
    if s.starts_with(b"::") {
        ellipsis = Some(0);
        s = &s[2..];
        if s.is_empty() {
            return Ok(v6(ip));
        }
    }
    let mut i = 0;
    while i < 16 {
        let mut off = 0;
        let mut acc: u32 = 0;
        while let Some(&c) = s.get(off) {
            let digit = match c {
                b'0'..=b'9' => c - b'0',
                b'a'..=b'f' => c - b'a' + 10,
                b'A'..=b'F' => c - b'A' + 10,
                _ => break,
            };
            acc = (acc << 4) + u32::from(digit);
            if off > 3 {
                return Err(addr_error(
                    input,
                    "each group must have 4 or less digits",
                    s,
                ));
            }
            off += 1;
        }
        if off == 0 {
            return Err(addr_error(
                input,
                "each colon-separated field must have at least one digit",
                s,
            ));
        }
        if s.get(off) == Some(&b'.') {
            // A trailing dotted IPv4 address.
            if ellipsis.is_none() && i != 12 {
                return Err(addr_error(
                    input,
                    "embedded IPv4 address must replace the final 2 fields of the address",
                    s,
                ));
            }
            if i + 4 > 16 {
                return Err(addr_error(
                    input,
                    "too many hex fields to fit an embedded IPv4 at the end of the address",
                    s,
                ));
            }
            let octets = parse_ipv4_fields(input, s)?;
            ip[i..i + 4].copy_from_slice(&octets);
            i += 4;
            s = b"";
            break;
        }
        // At most four hex digits: `acc` fits in 16 bits.
        ip[i] = (acc >> 8) as u8;
        ip[i + 1] = acc as u8;
        i += 2;
        s = &s[off..];
        if s.is_empty() {
            break;
        }
        if s[0] != b':' {
            return Err(addr_error(input, "unexpected character, want colon", s));
        }
        if s.len() == 1 {
            return Err(addr_error(
                input,
                "colon must be followed by more characters",
                s,
            ));
        }
        s = &s[1..];
        if s[0] == b':' {
            if ellipsis.is_some() {
                return Err(addr_error(input, "multiple :: in address", s));
            }
            ellipsis = Some(i);
            s = &s[1..];
            if s.is_empty() {
                break;
            }
        }
    }
    if !s.is_empty() {
        return Err(addr_error(input, "trailing garbage after address", s));
    }
    match ellipsis {
        Some(at) if i < 16 => {
            // The groups after the `::` move to the end; zeros fill the gap.
            let n = 16 - i;
            ip.copy_within(at..i, at + n);
            ip[at..at + n].fill(0);
        }
        None if i < 16 => return Err(addr_error(input, "address string too short", b"")),
        Some(_) => {
            return Err(addr_error(
                input,
                "the :: must expand to at least one field of zeros",
                b"",
            ));
        }
        None => {}
    }
    Ok(v6(ip))
}

#[cfg(test)]
mod tests {
    //! The cases of k8s.io/apiserver `pkg/cel/library/ip_test.go`
    //! (`TestIP`), plus Go's `netip` parsing edge cases.

    use ::cel::{ExecutionError, Value};

    use super::super::testing::{eval, function_error};

    use super::super::testing::assert_true as holds;

    fn fails_with(expr: &str, message: &str) {
        assert_eq!(function_error(expr), message, "{expr}");
    }

    #[test]
    fn upstream_ip_test_table() {
        // Results compared with `==`: an IP has no plain value.
        holds(r#"ip("192.168.0.1") == ip("192.168.0.1")"#);
        fails_with(
            r#"ip("192.168.0.1.0")"#,
            r#"IP Address "192.168.0.1.0" parse error during conversion from string: ParseAddr("192.168.0.1.0"): IPv4 address too long"#,
        );
        holds(r#"isIP("192.168.0.1") == true"#);
        holds(r#"isIP("192.168.0.1.0") == false"#);
        holds(r#"ip.isCanonical("127.0.0.1") == true"#);
        fails_with(
            r#"ip.isCanonical("127.0.0.1.0")"#,
            r#"IP Address "127.0.0.1.0" parse error during conversion from string: ParseAddr("127.0.0.1.0"): IPv4 address too long"#,
        );
        holds(r#"ip("192.168.0.1").family() == 4"#);
        holds(r#"ip("0.0.0.0").isUnspecified() == true"#);
        holds(r#"ip("127.0.0.1").isUnspecified() == false"#);
        holds(r#"ip("127.0.0.1").isLoopback() == true"#);
        holds(r#"ip("1.2.3.4").isLoopback() == false"#);
        holds(r#"ip("224.0.0.1").isLinkLocalMulticast() == true"#);
        holds(r#"ip("224.0.1.1").isLinkLocalMulticast() == false"#);
        holds(r#"ip("169.254.169.254").isLinkLocalUnicast() == true"#);
        holds(r#"ip("192.168.0.1").isLinkLocalUnicast() == false"#);
        holds(r#"ip("192.168.0.1").isGlobalUnicast() == true"#);
        holds(r#"ip("255.255.255.255").isGlobalUnicast() == false"#);
        holds(r#"ip("2001:db8::68") == ip("2001:db8::68")"#);
        fails_with(
            r#"ip("2001:db8:::68")"#,
            r#"IP Address "2001:db8:::68" parse error during conversion from string: ParseAddr("2001:db8:::68"): each colon-separated field must have at least one digit (at ":68")"#,
        );
        holds(r#"isIP("2001:db8::68") == true"#);
        holds(r#"isIP("2001:db8:::68") == false"#);
        holds(r#"ip.isCanonical("2001:db8::68") == true"#);
        holds(r#"ip.isCanonical("2001:DB8::68") == false"#);
        fails_with(
            r#"ip.isCanonical("2001:db8:::68")"#,
            r#"IP Address "2001:db8:::68" parse error during conversion from string: ParseAddr("2001:db8:::68"): each colon-separated field must have at least one digit (at ":68")"#,
        );
        holds(r#"ip("2001:db8::68").family() == 6"#);
        holds(r#"ip("::").isUnspecified() == true"#);
        holds(r#"ip("::1").isUnspecified() == false"#);
        holds(r#"ip("::1").isLoopback() == true"#);
        holds(r#"ip("2001:db8::abcd").isLoopback() == false"#);
        holds(r#"ip("ff02::1").isLinkLocalMulticast() == true"#);
        holds(r#"ip("fd00::1").isLinkLocalMulticast() == false"#);
        holds(r#"ip("fe80::1").isLinkLocalUnicast() == true"#);
        holds(r#"ip("fd80::1").isLinkLocalUnicast() == false"#);
        holds(r#"ip("2001:db8::abcd").isGlobalUnicast() == true"#);
        holds(r#"ip("ff00::1").isGlobalUnicast() == false"#);
        // "passing cidr into isIP returns compile error": no overload here.
        assert!(matches!(
            eval(r#"isIP(cidr("192.168.0.0/24"))"#),
            Err(ExecutionError::NoSuchOverload(_))
        ));
        assert_eq!(
            eval(r#"string(ip("192.168.0.1"))"#),
            Ok(Value::String("192.168.0.1".to_string().into()))
        );
        holds(r#"type(ip("192.168.0.1")) == net.IP"#);
    }

    #[test]
    fn kubernetes_refuses_zones_and_ipv4_mapped_addresses() {
        fails_with(
            r#"ip("fe80::1%eth0")"#,
            r#"IP address "fe80::1%eth0" with zone value is not allowed"#,
        );
        fails_with(
            r#"ip("::ffff:1.2.3.4")"#,
            r#"IPv4-mapped IPv6 address "::ffff:1.2.3.4" is not allowed"#,
        );
        holds(r#"!isIP("::ffff:102:304") && isIP("::102:304")"#);
    }

    #[test]
    fn netip_error_texts() {
        let cases = [
            ("", r#"ParseAddr(""): unable to parse IP"#),
            ("abc", r#"ParseAddr("abc"): unable to parse IP"#),
            ("%eth0", r#"ParseAddr("%eth0"): missing IPv6 address"#),
            (
                "010.1.1.1",
                r#"ParseAddr("010.1.1.1"): IPv4 field has octet with leading zero"#,
            ),
            (
                "1.2.3.256",
                r#"ParseAddr("1.2.3.256"): IPv4 field has value >255"#,
            ),
            (
                "1..2.3",
                r#"ParseAddr("1..2.3"): IPv4 field must have at least one digit (at ".2.3")"#,
            ),
            (
                "1.2.3.",
                r#"ParseAddr("1.2.3."): IPv4 field must have at least one digit (at ".")"#,
            ),
            ("1.2.3", r#"ParseAddr("1.2.3"): IPv4 address too short"#),
            (
                "1.2.3.x",
                r#"ParseAddr("1.2.3.x"): unexpected character (at "x")"#,
            ),
            (
                "1:2:3:4:5:6:7:8:9",
                r#"ParseAddr("1:2:3:4:5:6:7:8:9"): trailing garbage after address (at "9")"#,
            ),
            (
                "12345::",
                r#"ParseAddr("12345::"): each group must have 4 or less digits (at "12345::")"#,
            ),
            (
                "fe80::1%",
                r#"ParseAddr("fe80::1%"): zone must be a non-empty string"#,
            ),
            ("1:2", r#"ParseAddr("1:2"): address string too short"#),
            (
                "1:2:3:4:5:6:7::8",
                r#"ParseAddr("1:2:3:4:5:6:7::8"): the :: must expand to at least one field of zeros"#,
            ),
            (
                "1::2::3",
                r#"ParseAddr("1::2::3"): multiple :: in address (at ":3")"#,
            ),
            (
                "1:",
                r#"ParseAddr("1:"): colon must be followed by more characters (at ":")"#,
            ),
            (
                "1:2x",
                r#"ParseAddr("1:2x"): unexpected character, want colon (at "x")"#,
            ),
            (
                "1:2:1.2.3.4",
                r#"ParseAddr("1:2:1.2.3.4"): embedded IPv4 address must replace the final 2 fields of the address (at "1.2.3.4")"#,
            ),
            (
                "::1.2.03.4",
                r#"ParseAddr("::1.2.03.4"): IPv4 field has octet with leading zero"#,
            ),
        ];
        for (input, want) in cases {
            assert_eq!(
                super::parse_addr(input).err().as_deref(),
                Some(want),
                "{input}"
            );
        }
    }

    #[test]
    fn netip_reads_and_writes_addresses() {
        let cases = [
            ("::", "::"),
            ("::1.2.3.4", "::102:304"),
            ("1:2:3:4:5:6:1.2.3.4", "1:2:3:4:5:6:102:304"),
            ("2001:DB8:0:0:1:0:0:1", "2001:db8::1:0:0:1"),
            ("0:0:0:0:0:0:0:0", "::"),
            ("1::", "1::"),
            ("fe80::1%eth0", "fe80::1"),
            ("0.0.0.0", "0.0.0.0"),
        ];
        for (input, want) in cases {
            let parsed = super::parse_addr(input).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(parsed.addr.to_string(), want, "{input}");
            assert_eq!(parsed.zoned, input.contains('%'), "{input}");
        }
    }

    #[test]
    fn hostile_input_is_an_error_not_a_panic() {
        for input in [
            "é.1",
            "1.é",
            "::é",
            "1:é",
            "%",
            ":",
            "::%",
            ".",
            "1.2.3.4.5.6",
            "::1.2.3.4.5",
        ] {
            assert!(super::parse_ip(input).is_err(), "{input}");
        }
        holds(r#"ip("10.0.0.1") != ip("10.0.0.2") && ip("::") != ip("0.0.0.0")"#);
    }
}
