//! The `cidr` library: k8s.io/apiserver's `pkg/cel/library/cidr.go`, with
//! the `net.CIDR` type of `pkg/cel/cidr.go`.
//!
//! | function | overload id |
//! |---|---|
//! | `cidr(string) -> net.CIDR` | `string_to_cidr` |
//! | `isCIDR(string) -> bool` | `is_cidr` |
//! | `<net.CIDR>.containsIP(string) -> bool` | `cidr_contains_ip_string` |
//! | `<net.CIDR>.containsIP(net.IP) -> bool` | `cidr_contains_ip_ip` |
//! | `<net.CIDR>.containsCIDR(string) -> bool` | `cidr_contains_cidr_string` |
//! | `<net.CIDR>.containsCIDR(net.CIDR) -> bool` | `cidr_contains_cidr` |
//! | `<net.CIDR>.ip() -> net.IP` | `cidr_ip` |
//! | `<net.CIDR>.masked() -> net.CIDR` | `cidr_masked` |
//! | `<net.CIDR>.prefixLength() -> int` | `cidr_prefix_length` |
//! | `string(net.CIDR) -> string` | `cidr_to_string` |
//!
//! A CIDR is read as Go's `netip.ParsePrefix` reads it (the address as
//! `netip.ParseAddr` does, see the `ip` library; the prefix length in
//! decimal, without sign or leading zero, at most 32 or 128), with its
//! error texts; Kubernetes refuses an IPv4-mapped IPv6 address. The
//! address keeps its bits beyond the prefix: `cidr('10.0.0.1/8')` is not
//! `cidr('10.0.0.0/8')`, but its `masked()` is.

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use ::cel::common::types::{CelBool, CelInt, CelString, Kind, Type};
use ::cel::{DeclarationError, Env, ExecutionError};

use super::ip::{IP_TYPE, Ip, is_ipv4_mapped, parse_addr, parse_ip};
use crate::validation::go_quote;

/// `net.CIDR`: an opaque type, as cel-go's `cel.OpaqueType("net.CIDR")`.
static CIDR_TYPE: Type = Type::simple_type(Kind::Opaque, "net.CIDR");

/// A `net.CIDR` value (apiserver's `cel.CIDR`, a Go `netip.Prefix`): an
/// address and a prefix length no longer than the address. Two CIDRs are
/// equal when both their addresses and their lengths are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Cidr {
    addr: IpAddr,
    bits: u8,
}

impl Cidr {
    /// The same prefix, the address's bits beyond it cleared.
    fn masked(self) -> Cidr {
        Cidr {
            addr: mask(self.addr, self.bits),
            bits: self.bits,
        }
    }

    /// Whether `addr`, of the same family, starts with the prefix.
    fn contains(self, addr: IpAddr) -> bool {
        let same_family = matches!(
            (self.addr, addr),
            (IpAddr::V4(_), IpAddr::V4(_)) | (IpAddr::V6(_), IpAddr::V6(_))
        );
        same_family && mask(addr, self.bits) == mask(self.addr, self.bits)
    }

    /// Whether every address of `other` is one of this prefix's (Go's
    /// `Overlaps` and a prefix no longer than `other`'s).
    fn contains_cidr(self, other: Cidr) -> bool {
        self.bits <= other.bits && self.contains(other.addr)
    }
}

impl fmt::Display for Cidr {
    /// `netip.Prefix.String()`: the address as written by `ip`, `/`, the
    /// length.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.addr, self.bits)
    }
}

/// `addr` with the bits after the first `bits` cleared.
fn mask(addr: IpAddr, bits: u8) -> IpAddr {
    let bits = u32::from(bits);
    match addr {
        IpAddr::V4(v4) => {
            // No bit kept when shifting out all 32.
            let m = u32::MAX.checked_shl(32 - bits.min(32)).unwrap_or(0);
            IpAddr::V4(Ipv4Addr::from(u32::from(v4) & m))
        }
        IpAddr::V6(v6) => {
            let m = u128::MAX.checked_shl(128 - bits.min(128)).unwrap_or(0);
            IpAddr::V6(Ipv6Addr::from(u128::from(v6) & m))
        }
    }
}

super::library_value!(Cidr, CIDR_TYPE, |a, b| a == b);

/// Declares the library's functions, and its types `net.CIDR` and
/// `net.IP`, on `env`.
pub(crate) fn register(env: &mut Env) -> Result<(), DeclarationError> {
    env.add_type(CIDR_TYPE.to_owned())?;
    // Shared with the `ip` library, which declares it too: a no-op then.
    env.add_type(IP_TYPE.to_owned())?;
    ::cel::add_overload!(env, fn cidr: (CelString<'_>) -> Result<Cidr>, id = "string_to_cidr")?;
    ::cel::add_overload!(env, fn is_cidr: (CelString<'_>) -> CelBool, name = "isCIDR", id = "is_cidr")?;
    ::cel::add_member_overload!(env, fn contains_ip_string: (Cidr, CelString<'_>) -> Result<CelBool>,
        name = "containsIP", id = "cidr_contains_ip_string")?;
    ::cel::add_member_overload!(env, fn contains_ip: (Cidr, Ip) -> CelBool,
        name = "containsIP", id = "cidr_contains_ip_ip")?;
    ::cel::add_member_overload!(env, fn contains_cidr_string: (Cidr, CelString<'_>) -> Result<CelBool>,
        name = "containsCIDR", id = "cidr_contains_cidr_string")?;
    ::cel::add_member_overload!(env, fn contains_cidr: (Cidr, Cidr) -> CelBool,
        name = "containsCIDR", id = "cidr_contains_cidr")?;
    ::cel::add_member_overload!(env, fn cidr_ip: (Cidr) -> Ip, name = "ip", id = "cidr_ip")?;
    ::cel::add_member_overload!(env, fn prefix_length: (Cidr) -> CelInt,
        id = "cidr_prefix_length")?;
    ::cel::add_member_overload!(env, fn masked: (Cidr) -> Cidr, id = "cidr_masked")?;
    ::cel::add_overload!(env, fn cidr_to_string: (Cidr) -> CelString<'static>,
        name = "string", id = "cidr_to_string")?;
    Ok(())
}

/// The library's `stringToCIDR` error: its `parseCIDR` error (itself
/// prefixed the same way for `netip`'s errors) after the same prefix.
fn string_to_cidr(function: &str, s: &str) -> Result<Cidr, ExecutionError> {
    parse_cidr(s).map_err(|e| {
        ExecutionError::function_error(
            function,
            format!("network address parse error during conversion from string: {e}"),
        )
    })
}

fn cidr(s: &CelString<'_>) -> Result<Cidr, ExecutionError> {
    string_to_cidr("cidr", s)
}

fn is_cidr(s: &CelString<'_>) -> CelBool {
    parse_cidr(s).is_ok().into()
}

/// `containsIP(string)`: as Go's library does, an address that does not
/// parse is "no such overload" (the IP overload is handed the parse
/// error, and reports the CIDR), not the parse error.
fn contains_ip_string(cidr: &Cidr, s: &CelString<'_>) -> Result<CelBool, ExecutionError> {
    match parse_ip(s) {
        Ok(addr) => Ok(cidr.contains(addr).into()),
        Err(_) => Err(ExecutionError::no_such_member_overload(
            "containsIP",
            vec![CIDR_TYPE.name().to_owned(), "string".to_owned()],
        )),
    }
}

fn contains_ip(cidr: &Cidr, ip: &Ip) -> CelBool {
    cidr.contains(ip.0).into()
}

fn contains_cidr_string(cidr: &Cidr, s: &CelString<'_>) -> Result<CelBool, ExecutionError> {
    let other = string_to_cidr("containsCIDR", s)?;
    Ok(cidr.contains_cidr(other).into())
}

fn contains_cidr(cidr: &Cidr, other: &Cidr) -> CelBool {
    cidr.contains_cidr(*other).into()
}

fn cidr_ip(cidr: &Cidr) -> Ip {
    Ip(cidr.addr)
}

fn prefix_length(cidr: &Cidr) -> CelInt {
    i64::from(cidr.bits).into()
}

fn masked(cidr: &Cidr) -> Cidr {
    cidr.masked()
}

fn cidr_to_string(cidr: &Cidr) -> CelString<'static> {
    cidr.to_string().into()
}

/// The library's `parseCIDR`: Go's `netip.ParsePrefix`, its errors after
/// "network address parse error during conversion from string: ", and no
/// IPv4-mapped address.
fn parse_cidr(raw: &str) -> Result<Cidr, String> {
    let cidr = parse_prefix(raw)
        .map_err(|e| format!("network address parse error during conversion from string: {e}"))?;
    if is_ipv4_mapped(cidr.addr) {
        return Err(format!(
            "IPv4-mapped IPv6 address {} is not allowed",
            go_quote(raw)
        ));
    }
    Ok(cidr)
}

/// Go's `netip.ParsePrefix`, its error text (`netip.ParsePrefix("…"): …`)
/// included.
fn parse_prefix(s: &str) -> Result<Cidr, String> {
    let error = |msg: &str| format!("netip.ParsePrefix({}): {msg}", go_quote(s));
    let Some((address, bits)) = s.rsplit_once('/') else {
        return Err(error("no '/'"));
    };
    let parsed = parse_addr(address).map_err(|e| error(&e))?;
    if parsed.zoned {
        return Err(error("IPv6 zones cannot be present in a prefix"));
    }
    let bad_bits = || error(&format!("bad bits after slash: {}", go_quote(bits)));
    // Decimal digits, no sign, no leading zero; beyond `int`, an error.
    if bits.len() > 1 && !bits.starts_with(|c: char| ('1'..='9').contains(&c)) {
        return Err(bad_bits());
    }
    if bits.is_empty() || !bits.bytes().all(|c| c.is_ascii_digit()) {
        return Err(bad_bits());
    }
    let bits: i64 = bits.parse().map_err(|_| bad_bits())?;
    let max = match parsed.addr {
        IpAddr::V4(_) => 32,
        IpAddr::V6(_) => 128,
    };
    match u8::try_from(bits) {
        Ok(bits) if bits <= max => Ok(Cidr {
            addr: parsed.addr,
            bits,
        }),
        _ => Err(error("prefix length out of range")),
    }
}

#[cfg(test)]
mod tests {
    //! The cases of k8s.io/apiserver `pkg/cel/library/cidr_test.go`
    //! (`TestCIDR`), plus Go's `netip.ParsePrefix` edge cases.

    use ::cel::{ExecutionError, Value};

    use super::super::testing::{eval, function_error};

    use super::super::testing::assert_true as holds;

    fn fails_with(expr: &str, message: &str) {
        assert_eq!(function_error(expr), message, "{expr}");
    }

    #[test]
    fn upstream_cidr_test_table() {
        // Results compared with `==`: a CIDR or an IP has no plain value.
        holds(r#"cidr("192.168.0.0/24") == cidr("192.168.0.0/24")"#);
        fails_with(
            r#"cidr("192.168.0.0/")"#,
            r#"network address parse error during conversion from string: network address parse error during conversion from string: netip.ParsePrefix("192.168.0.0/"): bad bits after slash: """#,
        );
        holds(r#"cidr("192.168.0.0/24").containsIP(ip("192.168.0.1")) == true"#);
        holds(r#"cidr("192.168.0.0/24").containsIP(ip("192.168.1.1")) == false"#);
        holds(r#"cidr("192.168.0.0/24").containsIP("192.168.0.1") == true"#);
        holds(r#"cidr("192.168.0.0/24").containsIP("192.168.1.1") == false"#);
        holds(r#"cidr("192.168.0.0/24").containsCIDR(cidr("192.168.0.0/25")) == true"#);
        holds(r#"cidr("192.168.0.0/24").containsCIDR(cidr("192.168.0.1/32")) == true"#);
        holds(r#"cidr("192.168.0.0/24").containsCIDR(cidr("192.168.0.0/23")) == false"#);
        holds(r#"cidr("192.168.0.0/24").containsCIDR(cidr("192.169.0.1/32")) == false"#);
        holds(r#"cidr("192.168.0.0/24").containsCIDR("192.168.0.0/25") == true"#);
        holds(r#"cidr("192.168.0.0/24").containsCIDR("192.168.0.0/23") == false"#);
        holds(r#"cidr("192.168.0.0/24").ip() == ip("192.168.0.0")"#);
        holds(r#"cidr("192.168.0.0/24").masked() == cidr("192.168.0.0/24")"#);
        holds(r#"cidr("192.168.0.1/24").masked() == cidr("192.168.0.0/24")"#);
        holds(r#"cidr("192.168.0.0/24").prefixLength() == 24"#);
        holds(r#"cidr("2001:db8::/32") == cidr("2001:db8::/32")"#);
        fails_with(
            r#"cidr("2001:db8::/")"#,
            r#"network address parse error during conversion from string: network address parse error during conversion from string: netip.ParsePrefix("2001:db8::/"): bad bits after slash: """#,
        );
        holds(r#"cidr("2001:db8::/32").containsIP(ip("2001:db8::1")) == true"#);
        holds(r#"cidr("2001:db8::/32").containsIP(ip("2001:dc8::1")) == false"#);
        holds(r#"cidr("2001:db8::/32").containsIP("2001:db8::1") == true"#);
        holds(r#"cidr("2001:db8::/32").containsIP("2001:dc8::1") == false"#);
        holds(r#"cidr("2001:db8::/32").containsCIDR(cidr("2001:db8::/33")) == true"#);
        holds(r#"cidr("2001:db8::/32").containsCIDR(cidr("2001:db8::/31")) == false"#);
        holds(r#"cidr("2001:db8::/32").containsCIDR("2001:db8::/33") == true"#);
        holds(r#"cidr("2001:db8::/32").containsCIDR("2001:db8::/31") == false"#);
        holds(r#"cidr("2001:db8::/32").ip() == ip("2001:db8::")"#);
        holds(r#"cidr("2001:db8::/32").masked() == cidr("2001:db8::/32")"#);
        holds(r#"cidr("2001:db8:1::/32").masked() == cidr("2001:db8::/32")"#);
        holds(r#"cidr("2001:db8::/32").prefixLength() == 32"#);
        assert_eq!(
            eval(r#"string(cidr("192.168.0.0/24"))"#),
            Ok(Value::String("192.168.0.0/24".to_string().into()))
        );
        holds(r#"type(cidr("192.168.0.0/24")) == net.CIDR"#);
    }

    #[test]
    fn the_address_keeps_its_host_bits() {
        holds(r#"cidr("10.0.0.1/8") != cidr("10.0.0.0/8")"#);
        holds(r#"string(cidr("10.0.0.1/8")) == "10.0.0.1/8""#);
        holds(r#"string(cidr("2001:DB8:0:0:1::/0").masked()) == "::/0""#);
        holds(r#"cidr("0.0.0.0/0").containsIP("255.255.255.255")"#);
        holds(
            r#"!cidr("0.0.0.0/0").containsIP("::1") && !cidr("::/0").containsCIDR("10.0.0.0/8")"#,
        );
        holds(
            r#"cidr("10.0.0.5/32").containsIP("10.0.0.5") && !cidr("10.0.0.5/32").containsIP("10.0.0.4")"#,
        );
        holds(r#"isCIDR("::/128") && !isCIDR("::/129") && !isCIDR("1.2.3.4")"#);
    }

    #[test]
    fn a_bad_string_argument_fails_as_in_go() {
        // containsIP: the IP overload is handed the error, "no such overload".
        assert!(matches!(
            eval(r#"cidr("10.0.0.0/8").containsIP("10.0.0")"#),
            Err(ExecutionError::NoSuchOverload(_))
        ));
        fails_with(
            r#"cidr("10.0.0.0/8").containsCIDR("10.0.0.0")"#,
            r#"network address parse error during conversion from string: network address parse error during conversion from string: netip.ParsePrefix("10.0.0.0"): no '/'"#,
        );
        fails_with(
            r#"cidr("::ffff:1.2.3.4/96")"#,
            r#"network address parse error during conversion from string: IPv4-mapped IPv6 address "::ffff:1.2.3.4/96" is not allowed"#,
        );
    }

    #[test]
    fn netip_prefix_error_texts() {
        let cases = [
            ("1.2.3.4", r#"netip.ParsePrefix("1.2.3.4"): no '/'"#),
            (
                "1.2.3/8",
                r#"netip.ParsePrefix("1.2.3/8"): ParseAddr("1.2.3"): IPv4 address too short"#,
            ),
            (
                "fe80::1%eth0/64",
                r#"netip.ParsePrefix("fe80::1%eth0/64"): IPv6 zones cannot be present in a prefix"#,
            ),
            (
                "1.2.3.4/08",
                r#"netip.ParsePrefix("1.2.3.4/08"): bad bits after slash: "08""#,
            ),
            (
                "1.2.3.4/+8",
                r#"netip.ParsePrefix("1.2.3.4/+8"): bad bits after slash: "+8""#,
            ),
            (
                "1.2.3.4/-1",
                r#"netip.ParsePrefix("1.2.3.4/-1"): bad bits after slash: "-1""#,
            ),
            (
                "1.2.3.4/x",
                r#"netip.ParsePrefix("1.2.3.4/x"): bad bits after slash: "x""#,
            ),
            (
                "1.2.3.4/8x",
                r#"netip.ParsePrefix("1.2.3.4/8x"): bad bits after slash: "8x""#,
            ),
            (
                "1.2.3.4/99999999999999999999",
                r#"netip.ParsePrefix("1.2.3.4/99999999999999999999"): bad bits after slash: "99999999999999999999""#,
            ),
            (
                "1.2.3.4/33",
                r#"netip.ParsePrefix("1.2.3.4/33"): prefix length out of range"#,
            ),
            (
                "::/129",
                r#"netip.ParsePrefix("::/129"): prefix length out of range"#,
            ),
            (
                "1.2.3.4/1/2",
                r#"netip.ParsePrefix("1.2.3.4/1/2"): ParseAddr("1.2.3.4/1"): unexpected character (at "/1")"#,
            ),
        ];
        for (input, want) in cases {
            assert_eq!(
                super::parse_prefix(input).err().as_deref(),
                Some(want),
                "{input}"
            );
        }
        assert_eq!(
            super::parse_prefix("1.2.3.4/0").map(|c| c.to_string()),
            Ok("1.2.3.4/0".to_string())
        );
    }
}
