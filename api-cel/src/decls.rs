//! The functions of the apiserver's CEL environment for CRD rules, with
//! their overloads: cel-go's standard library and optional types, its
//! strings (version 2), lists (version 3) and sets extensions, and
//! Kubernetes' libraries (k8s.io/apiserver `pkg/cel/library`: lists, regex,
//! urls, quantity, ip, cidr, format, semver), as
//! `pkg/cel/environment/base.go` declares them for the newest version.
//!
//! Each line is `G name(params) -> result` for a global function or
//! `M receiver name(params) -> result` for a member function; `A`, `B`,
//! `K` and `V` are type parameters.

use std::collections::HashMap;
use std::sync::LazyLock;

use crate::types::Type;

const STANDARD: &str = "
G _+_(int, int) -> int
G _+_(uint, uint) -> uint
G _+_(double, double) -> double
G _+_(string, string) -> string
G _+_(bytes, bytes) -> bytes
G _+_(list(A), list(A)) -> list(A)
G _+_(timestamp, duration) -> timestamp
G _+_(duration, timestamp) -> timestamp
G _+_(duration, duration) -> duration
G _-_(int, int) -> int
G _-_(uint, uint) -> uint
G _-_(double, double) -> double
G _-_(timestamp, timestamp) -> duration
G _-_(timestamp, duration) -> timestamp
G _-_(duration, duration) -> duration
G _*_(int, int) -> int
G _*_(uint, uint) -> uint
G _*_(double, double) -> double
G _/_(int, int) -> int
G _/_(uint, uint) -> uint
G _/_(double, double) -> double
G _%_(int, int) -> int
G _%_(uint, uint) -> uint
G -_(int) -> int
G -_(double) -> double
G !_(bool) -> bool
G _&&_(bool, bool) -> bool
G _||_(bool, bool) -> bool
G @not_strictly_false(bool) -> bool
G _?_:_(bool, A, A) -> A
G _==_(A, A) -> bool
G _!=_(A, A) -> bool
G _[_](list(A), int) -> A
G _[_](map(K, V), K) -> V
G _[_](optional(list(A)), int) -> optional(A)
G _[_](optional(map(K, V)), K) -> optional(V)
G _[?_](list(A), int) -> optional(A)
G _[?_](map(K, V), K) -> optional(V)
G _[?_](optional(list(A)), int) -> optional(A)
G _[?_](optional(map(K, V)), K) -> optional(V)
G @in(A, list(A)) -> bool
G @in(K, map(K, V)) -> bool
G size(string) -> int
G size(bytes) -> int
G size(list(A)) -> int
G size(map(K, V)) -> int
M string size() -> int
M bytes size() -> int
M list(A) size() -> int
M map(K, V) size() -> int
M string contains(string) -> bool
M string endsWith(string) -> bool
M string startsWith(string) -> bool
M string matches(string) -> bool
G matches(string, string) -> bool
G int(int) -> int
G int(uint) -> int
G int(double) -> int
G int(string) -> int
G int(timestamp) -> int
G int(duration) -> int
G uint(int) -> uint
G uint(uint) -> uint
G uint(double) -> uint
G uint(string) -> uint
G double(int) -> double
G double(uint) -> double
G double(double) -> double
G double(string) -> double
G string(int) -> string
G string(uint) -> string
G string(double) -> string
G string(bool) -> string
G string(bytes) -> string
G string(string) -> string
G string(timestamp) -> string
G string(duration) -> string
G bytes(string) -> bytes
G bytes(bytes) -> bytes
G bool(bool) -> bool
G bool(string) -> bool
G duration(string) -> duration
G duration(duration) -> duration
G timestamp(string) -> timestamp
G timestamp(timestamp) -> timestamp
G timestamp(int) -> timestamp
G dyn(A) -> dyn
G type(A) -> type(A)
M timestamp getFullYear() -> int
M timestamp getFullYear(string) -> int
M timestamp getMonth() -> int
M timestamp getMonth(string) -> int
M timestamp getDayOfYear() -> int
M timestamp getDayOfYear(string) -> int
M timestamp getDayOfMonth() -> int
M timestamp getDayOfMonth(string) -> int
M timestamp getDate() -> int
M timestamp getDate(string) -> int
M timestamp getDayOfWeek() -> int
M timestamp getDayOfWeek(string) -> int
M timestamp getHours() -> int
M timestamp getHours(string) -> int
M timestamp getMinutes() -> int
M timestamp getMinutes(string) -> int
M timestamp getSeconds() -> int
M timestamp getSeconds(string) -> int
M timestamp getMilliseconds() -> int
M timestamp getMilliseconds(string) -> int
M duration getHours() -> int
M duration getMinutes() -> int
M duration getSeconds() -> int
M duration getMilliseconds() -> int
G optional.of(A) -> optional(A)
G optional.ofNonZeroValue(A) -> optional(A)
G optional.none() -> optional(dyn)
M optional(A) value() -> A
M optional(A) hasValue() -> bool
M optional(A) or(optional(A)) -> optional(A)
M optional(A) orValue(A) -> A
M string charAt(int) -> string
M string indexOf(string) -> int
M string indexOf(string, int) -> int
M string lastIndexOf(string) -> int
M string lastIndexOf(string, int) -> int
M string lowerAscii() -> string
M string upperAscii() -> string
M string replace(string, string) -> string
M string replace(string, string, int) -> string
M string split(string) -> list(string)
M string split(string, int) -> list(string)
M string substring(int) -> string
M string substring(int, int) -> string
M string trim() -> string
M string format(list(dyn)) -> string
M list(string) join() -> string
M list(string) join(string) -> string
G strings.quote(string) -> string
M list(A) slice(int, int) -> list(A)
M list(dyn) flatten() -> list(dyn)
M list(dyn) flatten(int) -> list(dyn)
G lists.range(int) -> list(int)
G @keysOrIndices(list(A)) -> list(int)
G @keysOrIndices(map(K, V)) -> list(K)
G @itemAt(list(A), int) -> A
G @itemAt(map(K, V), K) -> V
G @mapInsert(map(K, V), K, V) -> map(K, V)
G @mapInsert(map(K, V), map(K, V)) -> map(K, V)
M list(A) distinct() -> list(A)
M list(A) reverse() -> list(A)
M list(A) @sortByAssociatedKeys(list(B)) -> list(A)
G sets.contains(list(A), list(A)) -> bool
G sets.equivalent(list(A), list(A)) -> bool
G sets.intersects(list(A), list(A)) -> bool
M list(A) indexOf(A) -> int
M list(A) lastIndexOf(A) -> int
M list(A) includes(A) -> bool
M list(int) sum() -> int
M list(uint) sum() -> uint
M list(double) sum() -> double
M list(duration) sum() -> duration
M string find(string) -> string
M string findAll(string) -> list(string)
M string findAll(string, int) -> list(string)
G url(string) -> kubernetes.URL
G isURL(string) -> bool
M kubernetes.URL getScheme() -> string
M kubernetes.URL getHost() -> string
M kubernetes.URL getHostname() -> string
M kubernetes.URL getPort() -> string
M kubernetes.URL getEscapedPath() -> string
M kubernetes.URL getQuery() -> map(string, list(string))
G quantity(string) -> kubernetes.Quantity
G isQuantity(string) -> bool
G sign(kubernetes.Quantity) -> int
M kubernetes.Quantity isGreaterThan(kubernetes.Quantity) -> bool
M kubernetes.Quantity isLessThan(kubernetes.Quantity) -> bool
M kubernetes.Quantity compareTo(kubernetes.Quantity) -> int
M kubernetes.Quantity add(kubernetes.Quantity) -> kubernetes.Quantity
M kubernetes.Quantity add(int) -> kubernetes.Quantity
M kubernetes.Quantity sub(kubernetes.Quantity) -> kubernetes.Quantity
M kubernetes.Quantity sub(int) -> kubernetes.Quantity
M kubernetes.Quantity isInteger() -> bool
M kubernetes.Quantity asInteger() -> int
M kubernetes.Quantity asApproximateFloat() -> double
G ip(string) -> net.IP
G isIP(string) -> bool
G ip.isCanonical(string) -> bool
M net.IP family() -> int
M net.IP isUnspecified() -> bool
M net.IP isLoopback() -> bool
M net.IP isLinkLocalMulticast() -> bool
M net.IP isLinkLocalUnicast() -> bool
M net.IP isGlobalUnicast() -> bool
G string(net.IP) -> string
G cidr(string) -> net.CIDR
G isCIDR(string) -> bool
M net.CIDR containsIP(net.IP) -> bool
M net.CIDR containsIP(string) -> bool
M net.CIDR containsCIDR(net.CIDR) -> bool
M net.CIDR containsCIDR(string) -> bool
M net.CIDR ip() -> net.IP
M net.CIDR masked() -> net.CIDR
M net.CIDR prefixLength() -> int
G string(net.CIDR) -> string
G format.named(string) -> optional(kubernetes.NamedFormat)
G format.dns1123Label() -> kubernetes.NamedFormat
G format.dns1123Subdomain() -> kubernetes.NamedFormat
G format.dns1035Label() -> kubernetes.NamedFormat
G format.qualifiedName() -> kubernetes.NamedFormat
G format.dns1123LabelPrefix() -> kubernetes.NamedFormat
G format.dns1123SubdomainPrefix() -> kubernetes.NamedFormat
G format.dns1035LabelPrefix() -> kubernetes.NamedFormat
G format.labelValue() -> kubernetes.NamedFormat
G format.uri() -> kubernetes.NamedFormat
G format.uuid() -> kubernetes.NamedFormat
G format.byte() -> kubernetes.NamedFormat
G format.date() -> kubernetes.NamedFormat
G format.datetime() -> kubernetes.NamedFormat
M kubernetes.NamedFormat validate(string) -> optional(list(string))
G semver(string) -> kubernetes.Semver
G semver(string, bool) -> kubernetes.Semver
G isSemver(string) -> bool
G isSemver(string, bool) -> bool
M kubernetes.Semver major() -> int
M kubernetes.Semver minor() -> int
M kubernetes.Semver patch() -> int
M kubernetes.Semver isGreaterThan(kubernetes.Semver) -> bool
M kubernetes.Semver isLessThan(kubernetes.Semver) -> bool
M kubernetes.Semver compareTo(kubernetes.Semver) -> int
";

/// The types `<`, `min()`, `max()`, `sort()` and `isSorted()` order.
const ORDERED: [&str; 8] = [
    "bool",
    "int",
    "uint",
    "double",
    "string",
    "bytes",
    "timestamp",
    "duration",
];

/// One overload.
#[derive(Debug)]
pub(crate) struct Overload {
    /// The receiver of a member function.
    pub receiver: Option<Type>,
    pub params: Vec<Type>,
    pub result: Type,
}

/// Every overload, by function name.
pub(crate) static FUNCTIONS: LazyLock<HashMap<String, Vec<Overload>>> = LazyLock::new(|| {
    let mut table: HashMap<String, Vec<Overload>> = HashMap::new();
    let mut lines: Vec<String> = STANDARD.lines().map(str::to_string).collect();
    for t in ORDERED {
        for op in ["_<_", "_<=_", "_>_", "_>=_"] {
            lines.push(format!("G {op}({t}, {t}) -> bool"));
        }
        if t != "bool" && t != "bytes" {
            lines.push(format!("M list({t}) min() -> {t}"));
            lines.push(format!("M list({t}) max() -> {t}"));
        }
        lines.push(format!("M list({t}) isSorted() -> bool"));
        lines.push(format!("M list({t}) sort() -> list({t})"));
    }
    // Cross-type numeric comparisons (on in the apiserver's environment).
    for (a, b) in [
        ("int", "uint"),
        ("int", "double"),
        ("uint", "int"),
        ("uint", "double"),
        ("double", "int"),
        ("double", "uint"),
    ] {
        for op in ["_<_", "_<=_", "_>_", "_>=_"] {
            lines.push(format!("G {op}({a}, {b}) -> bool"));
        }
    }
    for line in lines.iter().map(|l| l.trim()).filter(|l| !l.is_empty()) {
        let (name, overload) = parse_line(line);
        table.entry(name).or_default().push(overload);
    }
    table
});

fn parse_line(line: &str) -> (String, Overload) {
    let (sig, result) = line.split_once(" -> ").expect("a result type");
    let (kind, rest) = sig.split_once(' ').expect("G or M");
    // The parameter list is the last parenthesis group; the name is the
    // word before it, and a member's receiver type comes before the name.
    let open = params_start(rest);
    let name_start = rest[..open].rfind(' ').map_or(0, |i| i + 1);
    let receiver = match kind {
        "G" => None,
        "M" => Some(parse_type(rest[..name_start].trim())),
        _ => panic!("a declaration starts with G or M: {line}"),
    };
    let params = split_top(&rest[open + 1..rest.len() - 1])
        .into_iter()
        .map(parse_type)
        .collect();
    (
        rest[name_start..open].to_string(),
        Overload {
            receiver,
            params,
            result: parse_type(result.trim()),
        },
    )
}

/// The index of the `(` that opens the final parenthesis group of `s`.
fn params_start(s: &str) -> usize {
    let mut depth = 0;
    for (i, c) in s.char_indices().rev() {
        match c {
            ')' => depth += 1,
            '(' => {
                depth -= 1;
                if depth == 0 {
                    return i;
                }
            }
            _ => {}
        }
    }
    panic!("a parameter list: {s}")
}

/// `a, list(b), map(c, d)` split at its top-level commas.
fn split_top(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in s.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(s[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    if !s[start..].trim().is_empty() {
        out.push(s[start..].trim());
    }
    out
}

/// A type of the declarations above.
pub(crate) fn parse_type(s: &str) -> Type {
    if let Some(inner) = s.strip_suffix(')') {
        let (head, args) = inner.split_once('(').expect("a type argument list");
        let args: Vec<Type> = split_top(args).into_iter().map(parse_type).collect();
        return match (head, args.as_slice()) {
            ("list", [e]) => Type::list(e.clone()),
            ("map", [k, v]) => Type::map(k.clone(), v.clone()),
            ("optional", [e]) => Type::Optional(Box::new(e.clone())),
            ("type", [e]) => Type::Type(Box::new(e.clone())),
            _ => panic!("unknown type {s}"),
        };
    }
    match s {
        "dyn" => Type::Dyn,
        "null" => Type::Null,
        "bool" => Type::Bool,
        "int" => Type::Int,
        "uint" => Type::Uint,
        "double" => Type::Double,
        "string" => Type::String,
        "bytes" => Type::Bytes,
        "duration" => Type::Duration,
        "timestamp" => Type::Timestamp,
        "A" => Type::Param("A"),
        "B" => Type::Param("B"),
        "K" => Type::Param("K"),
        "V" => Type::Param("V"),
        "kubernetes.URL" => Type::Opaque("kubernetes.URL"),
        "kubernetes.Quantity" => Type::Opaque("kubernetes.Quantity"),
        "kubernetes.Semver" => Type::Opaque("kubernetes.Semver"),
        "kubernetes.NamedFormat" => Type::Opaque("kubernetes.NamedFormat"),
        "net.IP" => Type::Opaque("net.IP"),
        "net.CIDR" => Type::Opaque("net.CIDR"),
        _ => panic!("unknown type {s}"),
    }
}

/// The type named by an identifier (or a qualified name) in a rule:
/// `int`, `google.protobuf.Duration`, `net.IP`, ...
pub(crate) fn type_name(name: &str) -> Option<Type> {
    Some(match name {
        "bool" => Type::Bool,
        "int" => Type::Int,
        "uint" => Type::Uint,
        "double" => Type::Double,
        "string" => Type::String,
        "bytes" => Type::Bytes,
        "list" => Type::list(Type::Dyn),
        "map" => Type::map(Type::Dyn, Type::Dyn),
        "null_type" => Type::Null,
        "type" => Type::Type(Box::new(Type::Dyn)),
        "dyn" => Type::Dyn,
        "google.protobuf.Duration" => Type::Duration,
        "google.protobuf.Timestamp" => Type::Timestamp,
        "optional_type" => Type::Optional(Box::new(Type::Dyn)),
        "kubernetes.URL"
        | "kubernetes.Quantity"
        | "kubernetes.Semver"
        | "net.IP"
        | "net.CIDR"
        | "kubernetes.NamedFormat" => parse_type(name),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_declaration_parses() {
        assert!(FUNCTIONS.len() > 100);
        let size = &FUNCTIONS["size"];
        assert_eq!(size.len(), 8);
        let contains = &FUNCTIONS["containsIP"];
        assert_eq!(contains[0].receiver, Some(Type::Opaque("net.CIDR")));
        assert_eq!(contains[1].params, [Type::String]);
    }
}
