//! Version order and schema compatibility between the versions of a CRD.

use std::cmp::Ordering;
use std::collections::BTreeSet;
use std::fmt;

use serde_json::Value;

use super::CustomResourceDefinition;

/// The parts of a Kubernetes version name (`v2beta3`): major, stability
/// (alpha 0, beta 1, GA 2) and minor. `None` for names of another shape.
fn kube_version(name: &str) -> Option<(u64, u8, u64)> {
    let rest = name.strip_prefix('v')?;
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || rest.starts_with('0') {
        return None;
    }
    let major = rest[..digits].parse().ok()?;
    let rest = &rest[digits..];
    if rest.is_empty() {
        return Some((major, 2, 0));
    }
    let (level, minor) = if let Some(m) = rest.strip_prefix("alpha") {
        (0, m)
    } else if let Some(m) = rest.strip_prefix("beta") {
        (1, m)
    } else {
        return None;
    };
    if minor.is_empty() || minor.starts_with('0') || !minor.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((major, level, minor.parse().ok()?))
}

/// Compares two version names by Kubernetes priority, as apimachinery's
/// `CompareKubeAwareVersionStrings` orders them: GA before beta before
/// alpha, higher numbers first within each, and names of another shape
/// last, alphabetically. `Greater` means `a` has the higher priority (is
/// the "newer" version).
///
/// ```
/// use api_core::crd::compare_versions;
/// use std::cmp::Ordering::*;
///
/// assert_eq!(compare_versions("v1", "v1beta1"), Greater);
/// assert_eq!(compare_versions("v1beta2", "v1beta1"), Greater);
/// assert_eq!(compare_versions("v1alpha1", "v2alpha1"), Less);
/// assert_eq!(compare_versions("v1alpha3", "foo"), Greater);
/// ```
pub fn compare_versions(a: &str, b: &str) -> Ordering {
    match (kube_version(a), kube_version(b)) {
        (Some((ma, la, na)), Some((mb, lb, nb))) => {
            // GA first (by major); then beta, then alpha (by major, minor).
            la.cmp(&lb).then(ma.cmp(&mb)).then(na.cmp(&nb))
        }
        (Some(_), None) => Ordering::Greater,
        (None, Some(_)) => Ordering::Less,
        (None, None) => b.cmp(a),
    }
}

/// A field one served version has and the next newer served version lacks:
/// clients moving to the newer version lose it unless the conversion carries
/// it (a rename, or a value kept in an annotation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompatibilityWarning {
    /// The field, as a path from the root (`spec.cronSpec`; `[*]` for list
    /// items and map values).
    pub path: String,
    /// The version that has the field.
    pub older: String,
    /// The newer served version without it.
    pub newer: String,
}

impl fmt::Display for CompatibilityWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} is in {} but not in {} (removed or renamed): conversions between them must carry its value",
            self.path, self.older, self.newer
        )
    }
}

/// Every field path of a schema, parents before children.
fn field_paths(schema: &Value, path: &str, out: &mut BTreeSet<String>) {
    let Some(object) = schema.as_object() else {
        return;
    };
    if let Some(properties) = object.get("properties").and_then(Value::as_object) {
        for (name, child) in properties {
            let child_path = if path.is_empty() {
                name.clone()
            } else {
                format!("{path}.{name}")
            };
            out.insert(child_path.clone());
            field_paths(child, &child_path, out);
        }
    }
    for keyword in ["items", "additionalProperties"] {
        if let Some(child) = object.get(keyword) {
            field_paths(child, &format!("{path}[*]"), out);
        }
    }
}

/// Fields that a served version has and the next newer served version
/// (by [`compare_versions`]) lacks, one warning per removed subtree.
///
/// A renamed field shows up here too: that is the point, since only a
/// conversion that knows the rename keeps its value.
///
/// ```
/// use api_core::crd::{compatibility_warnings, CustomResourceDefinition};
///
/// assert!(compatibility_warnings(&CustomResourceDefinition::default()).is_empty());
/// ```
pub fn compatibility_warnings(crd: &CustomResourceDefinition) -> Vec<CompatibilityWarning> {
    let mut served: Vec<_> = crd.spec.versions.iter().filter(|v| v.served).collect();
    served.sort_by(|a, b| compare_versions(&a.name, &b.name));
    let paths = |v: &super::CustomResourceDefinitionVersion| {
        let mut out = BTreeSet::new();
        if let Some(schema) = &v.schema {
            field_paths(&schema.open_api_v3_schema, "", &mut out);
        }
        out
    };
    let mut warnings = Vec::new();
    for pair in served.windows(2) {
        let (older, newer) = (pair[0], pair[1]);
        let (old_paths, new_paths) = (paths(older), paths(newer));
        let mut reported: Vec<&String> = Vec::new();
        for path in old_paths.difference(&new_paths) {
            // Only the top of a removed subtree.
            if reported.iter().any(|r| {
                path.strip_prefix(r.as_str())
                    .is_some_and(|rest| rest.starts_with('.') || rest.starts_with('['))
            }) {
                continue;
            }
            reported.push(path);
            warnings.push(CompatibilityWarning {
                path: path.clone(),
                older: older.name.clone(),
                newer: newer.name.clone(),
            });
        }
    }
    warnings
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::crd::{CustomResourceDefinitionVersion, CustomResourceValidation};
    use serde_json::json;

    #[test]
    fn kube_order() {
        let mut names = vec![
            "v11alpha2",
            "foo10",
            "v10",
            "v2",
            "v1",
            "v12alpha1",
            "v10beta3",
            "foo1",
            "v3beta1",
            "v10alpha1",
            "v1beta1",
            "v01",
        ];
        names.sort_by(|a, b| compare_versions(b, a));
        // apimachinery's documented order, highest priority first.
        assert_eq!(
            names,
            [
                "v10",
                "v2",
                "v1",
                "v10beta3",
                "v3beta1",
                "v1beta1",
                "v12alpha1",
                "v11alpha2",
                "v10alpha1",
                "foo1",
                "foo10",
                "v01",
            ]
        );
    }

    fn version(name: &str, served: bool, schema: Value) -> CustomResourceDefinitionVersion {
        CustomResourceDefinitionVersion {
            schema: Some(CustomResourceValidation::new(schema)),
            ..CustomResourceDefinitionVersion::new(name, served, false)
        }
    }

    #[test]
    fn removed_fields_are_reported_once_per_subtree() {
        let old = json!({"properties": {"spec": {"properties": {
            "cronSpec": {"type": "string"},
            "image": {"type": "string"},
            "ports": {"items": {"properties": {"name": {}, "port": {}}}},
            "gone": {"properties": {"a": {}, "b": {}}},
        }}}});
        let new = json!({"properties": {"spec": {"properties": {
            "schedule": {"type": "string"},
            "image": {"type": "string"},
            "ports": {"items": {"properties": {"port": {}}}},
        }}}});
        let mut crd = CustomResourceDefinition::default();
        crd.spec.versions = vec![
            version("v1", true, new),
            version("v1alpha1", true, old.clone()),
            // Not served: ignored.
            version("v1beta1", false, json!({})),
        ];
        let found: Vec<String> = compatibility_warnings(&crd)
            .iter()
            .map(|w| format!("{} {}->{}", w.path, w.older, w.newer))
            .collect();
        assert_eq!(
            found,
            [
                "spec.cronSpec v1alpha1->v1",
                "spec.gone v1alpha1->v1",
                "spec.ports[*].name v1alpha1->v1",
            ]
        );
        // The same schema twice: nothing to say.
        crd.spec.versions = vec![version("v1", true, old.clone()), version("v2", true, old)];
        assert!(compatibility_warnings(&crd).is_empty());
    }
}
