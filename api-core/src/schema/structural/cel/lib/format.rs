//! The `format` library: k8s.io/apiserver's `pkg/cel/library/format.go`,
//! with the `kubernetes.NamedFormat` type of `pkg/cel/format.go`.
//!
//! | function | overload id |
//! |---|---|
//! | `format.named(string) -> optional(NamedFormat)` | `format-named` |
//! | `format.<name>() -> NamedFormat` | `format.<name>` |
//! | `<NamedFormat>.validate(string) -> optional(list(string))` | `format-validate` |
//!
//! The named formats, and what validates them:
//!
//! | name | validation |
//! |---|---|
//! | `dns1123Label`, `dns1123Subdomain`, `dns1035Label` | apimachinery's `NameIsDNSLabel`, `NameIsDNSSubdomain`, `NameIsDNS1035Label` |
//! | `dns1123LabelPrefix`, `dns1123SubdomainPrefix`, `dns1035LabelPrefix` | the same, for a `generateName` prefix |
//! | `qualifiedName`, `labelValue` | `IsQualifiedName`, `IsValidLabelValue` |
//! | `uri` | Go's `url.ParseRequestURI` (its error text) |
//! | `uuid`, `byte`, `date`, `datetime` | kube-openapi's `strfmt` (`does not match the UUID format`, `invalid base64`, `invalid date`, `invalid datetime`) |
//!
//! `validate` returns `optional.none()` for a valid string, else the
//! messages, as apimachinery words them (see [`crate::validation::names`]).
//! Two formats are equal when they are the same format.

use ::cel::common::functions::Function;
use ::cel::common::types::{CelList, CelOptional, CelString, Kind, Type};
use ::cel::common::value::{CowVal, Val};
use ::cel::{DeclarationError, Env, ExecutionError};

use crate::validation::names;

/// `kubernetes.NamedFormat`: an object type, as cel-go's
/// `cel.ObjectType("kubernetes.NamedFormat")`.
static FORMAT_TYPE: Type = Type::simple_type(Kind::Struct, "kubernetes.NamedFormat");

/// A `kubernetes.NamedFormat` value (apiserver's `cel.Format`).
#[derive(Clone, Copy, Debug)]
struct NamedFormat {
    /// What `format.named` and `format.<key>()` call it.
    key: &'static str,
    /// Go's `Name`, which equality compares.
    name: &'static str,
    /// The problems of a string, none when it is valid.
    validate: fn(&str) -> Vec<String>,
}

super::library_value!(NamedFormat, FORMAT_TYPE, |a, b| a.name == b.name);

/// Upstream's `ConstantFormats`.
const FORMATS: [NamedFormat; 13] = [
    NamedFormat {
        key: "dns1123Label",
        name: "DNS1123Label",
        validate: |s| names::name_is_dns_label(s, false),
    },
    NamedFormat {
        key: "dns1123Subdomain",
        name: "DNS1123Subdomain",
        validate: |s| names::name_is_dns_subdomain(s, false),
    },
    NamedFormat {
        key: "dns1035Label",
        name: "DNS1035Label",
        validate: |s| names::name_is_dns1035_label(s, false),
    },
    NamedFormat {
        key: "qualifiedName",
        name: "QualifiedName",
        validate: names::is_qualified_name,
    },
    NamedFormat {
        key: "dns1123LabelPrefix",
        name: "DNS1123LabelPrefix",
        validate: |s| names::name_is_dns_label(s, true),
    },
    NamedFormat {
        key: "dns1123SubdomainPrefix",
        name: "DNS1123SubdomainPrefix",
        validate: |s| names::name_is_dns_subdomain(s, true),
    },
    NamedFormat {
        key: "dns1035LabelPrefix",
        name: "DNS1035LabelPrefix",
        validate: |s| names::name_is_dns1035_label(s, true),
    },
    NamedFormat {
        key: "labelValue",
        name: "LabelValue",
        validate: names::is_valid_label_value,
    },
    NamedFormat {
        key: "uri",
        name: "URI",
        validate: |s| match parse_request_uri(s) {
            Ok(()) => Vec::new(),
            Err(e) => vec![e],
        },
    },
    NamedFormat {
        key: "uuid",
        name: "uuid",
        validate: |s| problem(is_uuid(s), "does not match the UUID format"),
    },
    NamedFormat {
        key: "byte",
        name: "byte",
        validate: |s| problem(is_base64(s), "invalid base64"),
    },
    NamedFormat {
        key: "date",
        name: "date",
        validate: |s| problem(is_date(s), "invalid date"),
    },
    NamedFormat {
        key: "datetime",
        name: "datetime",
        validate: |s| problem(is_datetime(s), "invalid datetime"),
    },
];

/// No problem when `valid`, else `message`.
fn problem(valid: bool, message: &str) -> Vec<String> {
    if valid {
        Vec::new()
    } else {
        vec![message.to_string()]
    }
}

/// `format.<key>()`: the format `FORMATS[I]`.
fn constant<'b, 'v, const I: usize>(
    _args: Vec<CowVal<'b, 'v>>,
) -> Result<CowVal<'b, 'v>, ExecutionError> {
    FORMATS
        .get(I)
        .map(|f| CowVal::owned(*f))
        .ok_or_else(|| ExecutionError::function_error("format", "no such format"))
}

/// `format.<key>()` for each of [`FORMATS`], in its order.
const CONSTANTS: [Function; 13] = [
    constant::<0>,
    constant::<1>,
    constant::<2>,
    constant::<3>,
    constant::<4>,
    constant::<5>,
    constant::<6>,
    constant::<7>,
    constant::<8>,
    constant::<9>,
    constant::<10>,
    constant::<11>,
    constant::<12>,
];

/// Declares the library's functions, and its type
/// `kubernetes.NamedFormat`, on `env`.
pub(crate) fn register(env: &mut Env) -> Result<(), DeclarationError> {
    env.add_type(FORMAT_TYPE.to_owned())?;
    ::cel::add_overload!(env, fn named: (CelString<'_>) -> CelOptional<'static>,
        name = "format.named", id = "format-named")?;
    for (format, op) in FORMATS.iter().zip(CONSTANTS) {
        let name = format!("format.{}", format.key);
        env.add_overload(&name, &name, vec![], op)?;
    }
    ::cel::add_member_overload!(env, fn validate: (NamedFormat, CelString<'_>) -> CelOptional<'static>,
        id = "format-validate")?;
    Ok(())
}

fn named(name: &CelString<'_>) -> CelOptional<'static> {
    match FORMATS.iter().find(|f| f.key == name.inner()) {
        Some(f) => CelOptional::of(Box::new(*f)),
        None => CelOptional::none(),
    }
}

fn validate(format: &NamedFormat, s: &CelString<'_>) -> CelOptional<'static> {
    let problems = (format.validate)(s);
    if problems.is_empty() {
        return CelOptional::none();
    }
    let list: Vec<Box<dyn Val>> = problems
        .into_iter()
        .map(|p| Box::new(CelString::from(p)) as Box<dyn Val>)
        .collect();
    CelOptional::of(Box::new(CelList::from(list)))
}

/// strfmt's `uuid`: `(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$`.
fn is_uuid(s: &str) -> bool {
    let mut rest = s.as_bytes();
    for (i, n) in [8, 4, 4, 4, 12].into_iter().enumerate() {
        if i > 0 {
            rest = rest.strip_prefix(b"-").unwrap_or(rest);
        }
        match rest.split_at_checked(n) {
            Some((group, tail)) if group.iter().all(u8::is_ascii_hexdigit) => rest = tail,
            _ => return false,
        }
    }
    rest.is_empty()
}

/// strfmt's `byte`, govalidator's `IsBase64`: padded standard base64, at
/// least one group of four.
fn is_base64(s: &str) -> bool {
    let b = s.as_bytes();
    if b.is_empty() || !b.len().is_multiple_of(4) {
        return false;
    }
    let alphabet = |c: &u8| c.is_ascii_alphanumeric() || *c == b'+' || *c == b'/';
    let (body, last) = b.split_at(b.len() - 4);
    body.iter().all(alphabet)
        && match last {
            [x, y, b'=', b'='] => alphabet(x) && alphabet(y),
            [x, y, z, b'='] => alphabet(x) && alphabet(y) && alphabet(z),
            _ => last.iter().all(alphabet),
        }
}

/// strfmt's `date`: Go's `time.Parse("2006-01-02", s)`, a real day of the
/// proleptic Gregorian calendar, years 0000 to 9999.
fn is_date(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return false;
    }
    let (Some(year), Some(month), Some(day)) =
        (number(&b[0..4]), number(&b[5..7]), number(&b[8..10]))
    else {
        return false;
    };
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        1..=12 => 31,
        _ => return false,
    };
    (1..=days).contains(&day)
}

/// The decimal number of ASCII digits, if they all are.
fn number(digits: &[u8]) -> Option<u32> {
    digits.iter().try_fold(0u32, |acc, &c| {
        c.is_ascii_digit().then(|| acc * 10 + u32::from(c - b'0'))
    })
}

/// strfmt's `IsDateTime`: at least 4 bytes; split at `t` (any case), the
/// first part a `date`, the second matching
/// `^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$`
/// (any case), hours at most 23, minutes and seconds at most 59.
fn is_datetime(s: &str) -> bool {
    if s.len() < 4 {
        return false;
    }
    let mut parts = s.split(['t', 'T']);
    match (parts.next(), parts.next()) {
        (Some(date), Some(time)) => is_date(date) && is_time(time),
        _ => false,
    }
}

/// The time part of [`is_datetime`].
fn is_time(t: &str) -> bool {
    let b = t.as_bytes();
    if b.len() < 8 || b[2] != b':' || b[5] != b':' {
        return false;
    }
    let (Some(h), Some(m), Some(sec)) = (number(&b[0..2]), number(&b[3..5]), number(&b[6..8]))
    else {
        return false;
    };
    if h > 23 || m > 59 || sec > 59 {
        return false;
    }
    // The zone ends the string, in one of two fixed forms.
    let rest = &b[8..];
    let fraction = match rest {
        [head @ .., b'z' | b'Z'] => head,
        [head @ .., b'+' | b'-', h1, h2, b':', m1, m2]
            if [h1, h2, m1, m2].iter().all(|c| c.is_ascii_digit()) =>
        {
            head
        }
        _ => return false,
    };
    // Before the zone: nothing, or one character (any but a newline) and
    // ASCII digits. The zone starts with an ASCII byte: the fraction is
    // whole characters.
    let Ok(fraction) = std::str::from_utf8(fraction) else {
        return false;
    };
    let mut chars = fraction.chars();
    match chars.next() {
        None => true,
        Some('\n') => false,
        Some(_) => {
            let digits = chars.as_str();
            !digits.is_empty() && digits.bytes().all(|c| c.is_ascii_digit())
        }
    }
}

/// Go's `url.ParseRequestURI` (Go 1.26), as far as whether it fails, and
/// its error text (`parse "…": …`): the url library's parser.
fn parse_request_uri(raw: &str) -> Result<(), String> {
    super::urls::check_request_uri(raw)
}

#[cfg(test)]
mod tests {
    //! The cases of k8s.io/apiserver `pkg/cel/library/format_test.go`
    //! (`TestFormat`), plus the validators' edge cases (kube-openapi's
    //! `strfmt`, Go's `net/url`).

    use ::cel::{ExecutionError, Value};

    use super::super::testing::eval;

    use super::super::testing::assert_true as holds;

    /// `validate` is `optional.none()`.
    fn valid(format: &str, s: &str) {
        holds(&format!(
            "format.{format}().validate({}) == optional.none()",
            crate::validation::go_quote(s)
        ));
    }

    /// `validate` is the list of `messages`.
    fn invalid(format: &str, s: &str, messages: &[&str]) {
        let expr = format!(
            "format.{format}().validate({}).value()",
            crate::validation::go_quote(s)
        );
        let want = messages
            .iter()
            .map(|m| Value::String(m.to_string().into()))
            .collect::<Vec<_>>();
        assert_eq!(eval(&expr), Ok(Value::List(want.into())), "{expr}");
    }

    #[test]
    fn upstream_format_test_table() {
        valid("dns1123Label", "my-label-name");
        valid("dns1123Subdomain", "apiextensions.k8s.io");
        valid("qualifiedName", "apiextensions.k8s.io/v1beta1");
        valid("dns1123LabelPrefix", "my-label-prefix-");
        valid("dns1123SubdomainPrefix", "mysubdomain.prefix.-");
        valid("dns1035LabelPrefix", "my-label-prefix-");
        valid("uri", "http://example.com");
        valid("uuid", "123e4567-e89b-12d3-a456-426614174000");
        valid("byte", "aGVsbG8=");
        valid("date", "2021-01-01");
        valid("datetime", "2021-01-01T00:00:00Z");
        let label = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
        let subdomain = r"a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
        let dns1035 = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
        invalid("dns1123Label", "contains a space", &[label]);
        invalid("dns1123Subdomain", "contains a space", &[subdomain]);
        invalid("dns1035Label", "contains a space", &[dns1035]);
        invalid(
            "qualifiedName",
            "contains a space",
            &[
                "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
            ],
        );
        invalid("dns1123LabelPrefix", "contains a space-", &[label]);
        invalid("dns1123SubdomainPrefix", "contains a space-", &[subdomain]);
        invalid("dns1035LabelPrefix", "contains a space-", &[dns1035]);
        valid("dns1123Label", "my-label-name");
        valid("dns1123Subdomain", "example.com");
        valid("dns1035Label", "my-label-name");
        valid("qualifiedName", "my.name");
        valid("byte", "aGVsbG8=");
        invalid("byte", "aGVsbG8", &["invalid base64"]);
        valid("date", "2020-01-01");
        invalid("date", "2020-01-32", &["invalid date"]);
        valid("datetime", "2020-01-01T00:00:00Z");
        invalid("datetime", "2020-01-32T00:00:00Z", &["invalid datetime"]);
        holds(r#"format.named("unknown").hasValue() == false"#);
        valid("labelValue", "my-cool-label-Value");
        invalid(
            "labelValue",
            "my-cool-label-Value!!\n\n!!!",
            &[
                "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
            ],
        );
        // Every name, looked up and compared.
        for lhs in super::FORMATS {
            holds(&format!(
                r#"format.named("{}").hasValue() == true"#,
                lhs.key
            ));
            holds(&format!(
                r#"format.named("{0}").value() == format.{0}()"#,
                lhs.key
            ));
            for rhs in super::FORMATS {
                if lhs.key != rhs.key {
                    holds(&format!(
                        "(format.{}() == format.{}()) == false",
                        lhs.key, rhs.key
                    ));
                }
            }
        }
    }

    #[test]
    fn type_and_messages_usable_in_rules() {
        holds("type(format.uri()) == kubernetes.NamedFormat");
        holds(r#"format.dns1123Label().validate("a.b").value() == ["must not contain dots"]"#);
        holds(r#"format.named("dns1123Label").value().validate("my-name") == optional.none()"#);
        holds(
            r#"format.dns1123Label().validate("Bad").value().join("\n").startsWith("a lowercase")"#,
        );
        assert!(matches!(
            eval("format.uri().validate(1)"),
            Err(ExecutionError::NoSuchOverload(_))
        ));
    }

    #[test]
    fn strfmt_validators() {
        use super::{is_base64, is_date, is_datetime, is_uuid};
        for s in [
            "123e4567-e89b-12d3-a456-426614174000",
            "123E4567E89B12D3A456426614174000",
            "123e4567e89b-12d3a456-426614174000",
        ] {
            assert!(is_uuid(s), "{s}");
        }
        for s in [
            "",
            "123e4567-e89b-12d3-a456-42661417400",
            "123e4567--e89b-12d3-a456-426614174000",
            "g23e4567-e89b-12d3-a456-426614174000",
            "123e4567-e89b-12d3-a456-4266141740000",
        ] {
            assert!(!is_uuid(s), "{s}");
        }
        for s in ["aGVsbG8=", "aGVsbA==", "aGVs", "+/+/"] {
            assert!(is_base64(s), "{s}");
        }
        for s in [
            "",
            "aGVsbG8",
            "aGVsbG8==",
            "a===",
            "aGV=bG8=",
            "aGVsbG8-",
            "aGVsbG8=\n",
        ] {
            assert!(!is_base64(s), "{s}");
        }
        for s in ["2024-02-29", "2000-02-29", "0000-02-29", "9999-12-31"] {
            assert!(is_date(s), "{s}");
        }
        for s in [
            "2023-02-29",
            "1900-02-29",
            "2020-13-01",
            "2020-00-01",
            "2020-01-00",
            "2020-1-01",
            "20200-01-01",
            "2020-01-01 ",
            "+020-01-01",
        ] {
            assert!(!is_date(s), "{s}");
        }
        for s in [
            "2020-01-01T23:59:59Z",
            "2020-01-01t00:00:00z",
            "2020-01-01T00:00:00.123456789+01:00",
            "2020-01-01T00:00:00-23:59",
            "2020-01-01T00:00:00,5Z",
            "2020-01-01T00:00:00é5Z",
            "2020-01-01T00:00:0012Z",
            "2020-01-01T00:00:00ZT",
        ] {
            assert!(is_datetime(s), "{s}");
        }
        for s in [
            "2020-01-01",
            "2020-01-01T24:00:00Z",
            "2020-01-01T00:60:00Z",
            "2020-01-01T00:00:60Z",
            "2020-01-01T00:00:00",
            "2020-01-01T00:00:00.Z",
            "2020-01-01T00:00:00\n5Z",
            "2020-01-01T00:00:00+0100",
            "2020-01-01 00:00:00Z",
            "2020-01-01T00:00:001Z",
        ] {
            assert!(!is_datetime(s), "{s}");
        }
    }

    #[test]
    fn request_uri_errors_are_go_net_url_texts() {
        let ok = [
            "http://example.com",
            "https://user:p@ss@example.com:8443/a%20b?q=%zz#frag",
            "/just/a/path",
            "*",
            "mailto:someone@example.com",
            "http://[fe80::1%25en0]:80/",
            "http://[::1]/",
            "http:/no-host",
            "http://%C3%A9.example/",
        ];
        for s in ok {
            assert_eq!(super::parse_request_uri(s), Ok(()), "{s}");
        }
        let errors = [
            ("", r#"parse "": empty url"#),
            (
                "example.com",
                r#"parse "example.com": invalid URI for request"#,
            ),
            (":foo", r#"parse ":foo": missing protocol scheme"#),
            (
                "http://a\tb",
                r#"parse "http://a\tb": net/url: invalid control character in URL"#,
            ),
            (
                "http://a b.com/",
                r#"parse "http://a b.com/": invalid character " " in host name"#,
            ),
            (
                "http://host:port/",
                r#"parse "http://host:port/": invalid port ":port" after host"#,
            ),
            (
                "http://a:1:2/",
                r#"parse "http://a:1:2/": invalid port ":1:2" after host"#,
            ),
            ("/%zz", r#"parse "/%zz": invalid URL escape "%zz""#),
            ("/a%2", r#"parse "/a%2": invalid URL escape "%2""#),
            ("/%é", r#"parse "/%é": invalid URL escape "%é""#),
            ("/%aé", r#"parse "/%aé": invalid URL escape "%a\xc3""#),
            (
                "http://%41.com/",
                r#"parse "http://%41.com/": invalid URL escape "%41""#,
            ),
            (
                "http://[::1/",
                r#"parse "http://[::1/": missing ']' in host"#,
            ),
            (
                "http://[::1]x/",
                r#"parse "http://[::1]x/": invalid port "x" after host"#,
            ),
            (
                "http://[1.2.3.4]/",
                r#"parse "http://[1.2.3.4]/": invalid IP-literal"#,
            ),
            (
                "http://a[::1]/",
                r#"parse "http://a[::1]/": invalid IP-literal"#,
            ),
            (
                "http://[::1%25%0a]/",
                r#"parse "http://[::1%25%0a]/": invalid URL escape "%0a""#,
            ),
            (
                "http://[zz]/",
                r#"parse "http://[zz]/": invalid host: ParseAddr("zz"): unable to parse IP"#,
            ),
            (
                "http://a{b@c/",
                r#"parse "http://a{b@c/": net/url: invalid userinfo"#,
            ),
            (
                "http://a%zb@c/",
                r#"parse "http://a%zb@c/": invalid URL escape "%zb""#,
            ),
        ];
        for (s, want) in errors {
            assert_eq!(
                super::parse_request_uri(s).err().as_deref(),
                Some(want),
                "{s}"
            );
        }
    }
}
