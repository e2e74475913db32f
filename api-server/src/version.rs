//! Kubernetes version ordering: `v2 > v1 > v1beta2 > v1beta1 > v1alpha1`,
//! as `k8s.io/apimachinery/pkg/version/helpers.go`'s
//! `CompareKubeAwareVersionStrings` defines it.

use std::cmp::Ordering;

/// GA sorts above beta, beta above alpha (apimachinery's `versionType`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Stability {
    Alpha,
    Beta,
    Ga,
}

/// `^v(\d+)(?:(alpha|beta)(\d+))?$`, with Go's `strconv.Atoi` range
/// (a number that overflows makes the string non-Kubernetes-like).
fn parse(v: &str) -> Option<(Stability, i64, i64)> {
    let rest = v.strip_prefix('v')?;
    let digits = |s: &str| -> Option<i64> {
        if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        s.parse().ok()
    };
    let split = rest
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(rest.len());
    let (major, tail) = rest.split_at(split);
    let major = digits(major)?;
    if tail.is_empty() {
        return Some((Stability::Ga, major, 0));
    }
    let (stability, minor) = if let Some(m) = tail.strip_prefix("alpha") {
        (Stability::Alpha, m)
    } else if let Some(m) = tail.strip_prefix("beta") {
        (Stability::Beta, m)
    } else {
        return None;
    };
    Some((stability, major, digits(minor)?))
}

/// Compares two version strings the way Kubernetes orders API versions:
/// `Greater` means `a` is preferred over `b`.
///
/// Kubernetes-like versions (`v1`, `v2beta1`, `v1alpha3`) sort above all
/// others; among them GA beats beta beats alpha, then the higher major,
/// then the higher minor. Two non-Kubernetes-like strings compare in
/// reverse lexical order (`foo` is preferred over `zed`). This is
/// `CompareKubeAwareVersionStrings` (apimachinery `pkg/version/helpers.go`),
/// whose test table `helpers_test.go` is translated in this module's tests.
pub fn compare_kube_aware_versions(a: &str, b: &str) -> Ordering {
    if a == b {
        return Ordering::Equal;
    }
    match (parse(a), parse(b)) {
        (None, None) => b.cmp(a),
        (None, Some(_)) => Ordering::Less,
        (Some(_), None) => Ordering::Greater,
        (Some((ta, ma, na)), Some((tb, mb, nb))) => ta.cmp(&tb).then(ma.cmp(&mb)).then(na.cmp(&nb)),
    }
}

/// Sorts versions most preferred first (the order discovery lists them in).
pub fn sort_by_preference<T>(items: &mut [T], version: impl Fn(&T) -> &str) {
    items.sort_by(|x, y| compare_kube_aware_versions(version(y), version(x)));
}

#[cfg(test)]
mod tests {
    use super::*;

    /// apimachinery `pkg/version/helpers_test.go`, `TestCompareKubeAwareVersionStrings`:
    /// `(v1, v2, v1 is greater)`.
    #[test]
    fn upstream_table() {
        let cases = [
            ("v1", "v2", false),
            ("v2", "v1", true),
            ("v10", "v2", true),
            ("v1", "v2alpha1", true),
            ("v1", "v2beta1", true),
            ("v1alpha2", "v1alpha1", true),
            ("v1beta1", "v2alpha3", true),
            ("v1alpha10", "v1alpha2", true),
            ("v1beta10", "v1beta2", true),
            ("foo", "v1beta2", false),
            ("bar", "foo", true),
            ("version1", "version2", true),
            ("version1", "version10", true),
        ];
        for (a, b, greater) in cases {
            let (want, reverse) = if greater {
                (Ordering::Greater, Ordering::Less)
            } else {
                (Ordering::Less, Ordering::Greater)
            };
            assert_eq!(compare_kube_aware_versions(a, b), want, "{a} vs {b}");
            assert_eq!(compare_kube_aware_versions(b, a), reverse, "{b} vs {a}");
        }
        assert_eq!(compare_kube_aware_versions("v1", "v1"), Ordering::Equal);
    }

    #[test]
    fn not_kube_like() {
        for v in [
            "v",
            "v1gamma1",
            "v1beta",
            "1",
            "V1",
            "v1beta1x",
            "v99999999999999999999",
        ] {
            assert_eq!(parse(v), None, "{v}");
        }
    }

    #[test]
    fn sorts_preferred_first() {
        let mut v = vec!["v1alpha1", "v1beta1", "v2", "v1", "v1beta2", "foo"];
        sort_by_preference(&mut v, |s| s);
        assert_eq!(v, ["v2", "v1", "v1beta2", "v1beta1", "v1alpha1", "foo"]);
    }
}
