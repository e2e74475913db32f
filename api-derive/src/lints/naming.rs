//! `kind_naming` (group, version, kind and resource names) and
//! `json_field_names` (lowerCamelCase JSON names).

use super::{Context, Diagnostics, Finding, Levels, LintId};
use crate::model::{Field, ResourceNames};

fn is_dns1035_label(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && b.len() <= 63
        && b[0].is_ascii_lowercase()
        && b.iter()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'-')
        && b[b.len() - 1] != b'-'
}

fn is_dns1123_subdomain(s: &str) -> bool {
    s.len() <= 253
        && s.split('.').all(|label| {
            let b = label.as_bytes();
            !b.is_empty()
                && b.len() <= 63
                && b.iter()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'-')
                && b[0] != b'-'
                && b[b.len() - 1] != b'-'
        })
}

/// `v1`, `v1alpha1`, `v2beta3`: Kubernetes version names.
pub fn is_kube_version(s: &str) -> bool {
    let Some(rest) = s.strip_prefix('v') else {
        return false;
    };
    let digits =
        |t: &str| !t.is_empty() && !t.starts_with('0') && t.bytes().all(|c| c.is_ascii_digit());
    let split = rest
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(rest.len());
    let (major, tail) = rest.split_at(split);
    if !digits(major) {
        return false;
    }
    if tail.is_empty() {
        return true;
    }
    ["alpha", "beta"]
        .iter()
        .any(|stage| tail.strip_prefix(stage).is_some_and(digits))
}

/// A kind: CamelCase, starting upper-case, letters and digits.
fn is_camel_kind(s: &str) -> bool {
    s.chars().next().is_some_and(|c| c.is_ascii_uppercase())
        && s.chars().all(|c| c.is_ascii_alphanumeric())
}

/// lowerCamelCase: `^[a-z][a-z0-9]*([A-Z][a-z0-9]*)*$`.
pub fn is_lower_camel(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(|c| c.is_ascii_lowercase()) && chars.all(|c| c.is_ascii_alphanumeric())
}

/// The lowerCamelCase spelling of a name written in another style.
pub fn to_lower_camel(s: &str) -> String {
    let mut out = String::new();
    let mut upper = false;
    for (i, c) in s.chars().enumerate() {
        if c == '_' || c == '-' || c == '.' || c == ' ' {
            upper = !out.is_empty();
        } else if upper {
            out.push(c.to_ascii_uppercase());
            upper = false;
        } else if i == 0 || out.is_empty() {
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// The name a boolean `isFoo` should have: what follows `is`, its first
/// word in lower case as lowerCamelCase writes an acronym (`isCA` is `ca`,
/// `isHTTPEnabled` is `httpEnabled`, `isReady` is `ready`). `None` when
/// `json` is not `is` and a capital, or when the rest is no
/// lowerCamelCase name either (`isFoo_bar`).
pub fn without_is(json: &str) -> Option<String> {
    let rest = json.strip_prefix("is")?;
    if !rest.starts_with(|c: char| c.is_ascii_uppercase()) {
        return None;
    }
    let run = rest
        .find(|c: char| !c.is_ascii_uppercase())
        .unwrap_or(rest.len());
    // The last capital of a run starts the next word when a lower-case
    // letter follows it (`HTTPEnabled`), but not a digit (`HTTP2`).
    let first_word = if run > 1 && rest[run..].starts_with(|c: char| c.is_ascii_lowercase()) {
        run - 1
    } else {
        run
    };
    let fixed = rest[..first_word].to_ascii_lowercase() + &rest[first_word..];
    is_lower_camel(&fixed).then_some(fixed)
}

pub fn check_kind_naming(
    type_name: &str,
    names: &ResourceNames,
    levels: &Levels,
    diags: &mut Diagnostics,
) {
    let mut report = |span, problem: String, help: String| {
        diags.lint(
            Finding {
                lint: LintId::KindNaming,
                span,
                subject: type_name.to_string(),
                problem,
                help,
            },
            &[levels],
            Context::Any,
        );
    };
    let (kind, kind_span) = (&names.kind.0, names.kind.1);
    if !is_camel_kind(kind) {
        report(
            kind_span,
            format!("kind `{kind}` is not CamelCase"),
            "write the kind in CamelCase, starting with an upper-case letter, letters and digits only (`CronJob`)".into(),
        );
    }
    for suffix in ["List", "Controller"] {
        if kind.len() > suffix.len() && kind.ends_with(suffix) {
            report(
                kind_span,
                format!("kind `{kind}` ends in `{suffix}`"),
                if suffix == "List" {
                    "`<Kind>List` is the name of the generated list kind; name the resource after what one object is".into()
                } else {
                    "a kind names a resource, not the controller that acts on it; drop the suffix"
                        .into()
                },
            );
        }
    }
    let (group, group_span) = (&names.group.0, names.group.1);
    if !is_dns1123_subdomain(group) || !group.contains('.') {
        report(
            group_span,
            format!("group `{group}` is not a lowercase DNS subdomain with at least one dot"),
            "use a domain you own, in lower case, e.g. `cache.example.com`".into(),
        );
    }
    let (version, version_span) = (&names.version.0, names.version.1);
    if !is_kube_version(version) {
        report(
            version_span,
            format!("version `{version}` is not a Kubernetes version name"),
            "use `v<N>`, `v<N>alpha<M>` or `v<N>beta<M>` (`v1`, `v1alpha1`, `v2beta3`)".into(),
        );
    }
    for (what, value, span) in names.dns_names() {
        if !is_dns1035_label(value) {
            report(
                span,
                format!("{what} `{value}` is not a DNS-1035 label"),
                "use lower-case letters, digits and '-', starting with a letter, at most 63 characters".into(),
            );
        }
    }
}

pub fn check_json_field_names(
    type_name: &str,
    fields: &[Field],
    container: &[&Levels],
    context: Context,
    diags: &mut Diagnostics,
) {
    for field in fields.iter().filter(|f| !f.is_flattened() && !f.serde.skip) {
        let json = &field.json_name;
        if is_lower_camel(json) {
            continue;
        }
        let fixed = to_lower_camel(json);
        let help = if field.serde.rename.is_some() {
            format!("rename it `#[serde(rename = \"{fixed}\")]`")
        } else {
            format!(
                "add `#[serde(rename_all = \"camelCase\")]` to `{type_name}`, or `#[serde(rename = \"{fixed}\")]` to the field"
            )
        };
        diags.lint(
            Finding {
                lint: LintId::JsonFieldNames,
                span: field.name_span(),
                subject: field.subject(type_name),
                problem: format!("JSON name `{json}` is not lowerCamelCase"),
                help,
            },
            &container
                .iter()
                .copied()
                .chain([&field.levels])
                .collect::<Vec<_>>(),
            context,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions() {
        for ok in ["v1", "v2", "v10", "v1alpha1", "v2beta3", "v1beta10"] {
            assert!(is_kube_version(ok), "{ok}");
        }
        for bad in [
            "", "1", "v", "v0", "v01", "V1", "v1alpha", "v1gamma1", "v1alpha0", "v1.0", "foo",
        ] {
            assert!(!is_kube_version(bad), "{bad}");
        }
    }

    #[test]
    fn camel() {
        assert!(is_lower_camel("startingDeadlineSeconds"));
        assert!(is_lower_camel("podIP"));
        assert!(!is_lower_camel("foo_bar"));
        assert!(!is_lower_camel("Foo"));
        assert_eq!(to_lower_camel("foo_bar"), "fooBar");
        assert_eq!(to_lower_camel("Foo-bar"), "fooBar");
    }

    #[test]
    fn without_is_lowers_the_first_word() {
        for (json, fixed) in [
            ("isCA", "ca"),
            ("isHTTPEnabled", "httpEnabled"),
            ("isReady", "ready"),
            ("isX", "x"),
            ("isURLValid", "urlValid"),
            ("isHTTP2Enabled", "http2Enabled"),
            ("isV2", "v2"),
            ("isReadyForTLS", "readyForTLS"),
        ] {
            assert_eq!(without_is(json).as_deref(), Some(fixed), "{json}");
        }
        // No suggestion: not `is` and a capital, or nothing lowerCamelCase.
        for json in [
            "is",
            "island",
            "is_ready",
            "ready",
            "isFoo_bar",
            "isCA-cert",
        ] {
            assert_eq!(without_is(json), None, "{json}");
        }
    }

    #[test]
    fn dns() {
        assert!(is_dns1123_subdomain("cache.example.com"));
        assert!(!is_dns1123_subdomain("Cache.example.com"));
        assert!(is_dns1035_label("memcacheds"));
        assert!(!is_dns1035_label("1abc"));
    }
}
