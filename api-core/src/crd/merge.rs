//! Joining the versions of one kind into a single CRD.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use super::CustomResourceDefinition;

/// Why [`merge`] (or [`Versions::crd`](crate::conversion::Versions::crd))
/// could not join CRDs into one.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum MergeError {
    /// No CRD was given.
    Empty,
    /// Two CRDs have different `spec.group`s.
    GroupMismatch {
        /// The group of the first CRD.
        expected: String,
        /// The differing group.
        found: String,
    },
    /// Two CRDs have different `spec.names.kind`s.
    KindMismatch {
        /// The kind of the first CRD.
        expected: String,
        /// The differing kind.
        found: String,
    },
    /// Two CRDs have different `spec.scope`s.
    ScopeMismatch {
        /// The scope of the first CRD.
        expected: String,
        /// The differing scope.
        found: String,
    },
    /// Two CRDs have a different name other than the kind: `plural`,
    /// `singular`, `listKind`, `shortNames` or `categories`.
    NamesMismatch {
        /// The field of `spec.names`, as JSON spells it.
        field: &'static str,
        /// The value in the first CRD (lists written `[a, b]`).
        expected: String,
        /// The differing value.
        found: String,
    },
    /// Two CRDs have different `metadata.name`s.
    NameMismatch {
        /// The name of the first CRD.
        expected: String,
        /// The differing name.
        found: String,
    },
    /// Two CRDs have different metadata other than the name:
    /// `annotations`, `labels`, or (`field` = `metadata`) anything else.
    MetadataMismatch {
        /// `annotations`, `labels` or `metadata`.
        field: &'static str,
        /// The value in the first CRD (maps written `{k: v}`, other
        /// metadata as JSON).
        expected: String,
        /// The differing value.
        found: String,
    },
    /// Two CRDs set `spec.preserveUnknownFields` differently.
    PreserveUnknownFieldsMismatch {
        /// The value in the first CRD that sets it.
        expected: bool,
        /// The differing value.
        found: bool,
    },
    /// Two CRDs set different `spec.conversion`s.
    ConversionMismatch {
        /// The conversion of the first CRD that sets one, as JSON.
        expected: String,
        /// The differing conversion, as JSON.
        found: String,
    },
    /// A version name appears more than once.
    DuplicateVersion(String),
    /// No version has `storage: true`.
    NoStorageVersion,
    /// More than one version has `storage: true`; their names, sorted.
    MultipleStorageVersions(Vec<String>),
    /// The versions have different schemas but no conversion is set: the
    /// apiserver would only rewrite `apiVersion`, so fields would be lost
    /// or misread. The names of the versions, sorted.
    ConversionRequired(Vec<String>),
}

impl fmt::Display for MergeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("cannot merge CRDs: ")?;
        match self {
            MergeError::Empty => f.write_str("no CRDs given"),
            MergeError::GroupMismatch { expected, found } => {
                write!(f, "spec.group differs: {expected:?} vs {found:?}")
            }
            MergeError::KindMismatch { expected, found } => {
                write!(f, "spec.names.kind differs: {expected:?} vs {found:?}")
            }
            MergeError::ScopeMismatch { expected, found } => {
                write!(f, "spec.scope differs: {expected:?} vs {found:?}")
            }
            MergeError::NamesMismatch {
                field,
                expected,
                found,
            } => write!(f, "spec.names.{field} differs: {expected} vs {found}"),
            MergeError::NameMismatch { expected, found } => {
                write!(f, "metadata.name differs: {expected:?} vs {found:?}")
            }
            MergeError::MetadataMismatch {
                field,
                expected,
                found,
            } => {
                if *field == "metadata" {
                    write!(f, "metadata differs: {expected} vs {found}")
                } else {
                    write!(f, "metadata.{field} differ: {expected} vs {found}")
                }
            }
            MergeError::PreserveUnknownFieldsMismatch { expected, found } => write!(
                f,
                "spec.preserveUnknownFields differs: {expected} vs {found}"
            ),
            MergeError::ConversionMismatch { expected, found } => {
                write!(f, "spec.conversion differs: {expected} vs {found}")
            }
            MergeError::DuplicateVersion(name) => {
                write!(f, "version {name:?} is defined more than once")
            }
            MergeError::NoStorageVersion => {
                f.write_str("no version is marked as the storage version")
            }
            MergeError::MultipleStorageVersions(names) => write!(
                f,
                "exactly one version must be the storage version, found {}: {}",
                names.len(),
                names.join(", ")
            ),
            MergeError::ConversionRequired(names) => write!(
                f,
                "versions {} have different schemas, so the CRD needs a conversion webhook \
                 (Versions::webhook) or an explicit conversion (Versions::conversion)",
                names.join(", ")
            ),
        }
    }
}

impl std::error::Error for MergeError {}

fn list(items: &[String]) -> String {
    format!("[{}]", items.join(", "))
}

fn map(items: &BTreeMap<String, String>) -> String {
    let entries: Vec<String> = items.iter().map(|(k, v)| format!("{k}: {v}")).collect();
    format!("{{{}}}", entries.join(", "))
}

/// Checks that `other` describes the same kind as `base`, in the order a
/// reader would want to hear about differences.
fn check_same_kind(
    base: &CustomResourceDefinition,
    other: &CustomResourceDefinition,
) -> Result<(), MergeError> {
    let (a, b) = (&base.spec, &other.spec);
    if a.group != b.group {
        return Err(MergeError::GroupMismatch {
            expected: a.group.clone(),
            found: b.group.clone(),
        });
    }
    if a.names.kind != b.names.kind {
        return Err(MergeError::KindMismatch {
            expected: a.names.kind.clone(),
            found: b.names.kind.clone(),
        });
    }
    if a.scope != b.scope {
        return Err(MergeError::ScopeMismatch {
            expected: a.scope.clone(),
            found: b.scope.clone(),
        });
    }
    let names = [
        ("plural", &a.names.plural, &b.names.plural),
        ("singular", &a.names.singular, &b.names.singular),
        ("listKind", &a.names.list_kind, &b.names.list_kind),
    ];
    for (field, x, y) in names {
        if x != y {
            return Err(MergeError::NamesMismatch {
                field,
                expected: x.clone(),
                found: y.clone(),
            });
        }
    }
    let lists = [
        ("shortNames", &a.names.short_names, &b.names.short_names),
        ("categories", &a.names.categories, &b.names.categories),
    ];
    for (field, x, y) in lists {
        if x != y {
            return Err(MergeError::NamesMismatch {
                field,
                expected: list(x),
                found: list(y),
            });
        }
    }

    let (m, n) = (&base.metadata, &other.metadata);
    if m.name != n.name {
        return Err(MergeError::NameMismatch {
            expected: m.name.clone(),
            found: n.name.clone(),
        });
    }
    let maps = [
        ("annotations", &m.annotations, &n.annotations),
        ("labels", &m.labels, &n.labels),
    ];
    for (field, x, y) in maps {
        if x != y {
            return Err(MergeError::MetadataMismatch {
                field,
                expected: map(x),
                found: map(y),
            });
        }
    }
    if m != n {
        return Err(MergeError::MetadataMismatch {
            field: "metadata",
            expected: serde_json::to_string(m).unwrap_or_default(),
            found: serde_json::to_string(n).unwrap_or_default(),
        });
    }
    Ok(())
}

/// Joins single- or multi-version CRDs of one kind into one CRD, as
/// controller-gen does for a kind defined in several packages.
///
/// The CRDs must agree on `spec.group`, `spec.names` (kind, plural,
/// singular, listKind, shortNames, categories), `spec.scope` and
/// `metadata`; `spec.conversion` and `spec.preserveUnknownFields` may be
/// absent on some inputs but must agree where set, and are carried over
/// unchanged. Version names must be unique, and exactly one version of the
/// result must be the storage version. The versions are sorted by name
/// (byte order, as controller-gen sorts them).
///
/// ```
/// use api_core::crd::{merge, CustomResourceDefinition, MergeError};
///
/// assert_eq!(merge(Vec::<CustomResourceDefinition>::new()), Err(MergeError::Empty));
/// ```
pub fn merge(
    crds: impl IntoIterator<Item = CustomResourceDefinition>,
) -> Result<CustomResourceDefinition, MergeError> {
    let mut crds = crds.into_iter();
    let mut merged = crds.next().ok_or(MergeError::Empty)?;
    let mut versions = std::mem::take(&mut merged.spec.versions);

    for crd in crds {
        check_same_kind(&merged, &crd)?;
        match (
            merged.spec.preserve_unknown_fields,
            crd.spec.preserve_unknown_fields,
        ) {
            (Some(expected), Some(found)) if expected != found => {
                return Err(MergeError::PreserveUnknownFieldsMismatch { expected, found });
            }
            (None, found) => merged.spec.preserve_unknown_fields = found,
            _ => {}
        }
        match (&merged.spec.conversion, crd.spec.conversion) {
            (Some(expected), Some(found)) if *expected != found => {
                return Err(MergeError::ConversionMismatch {
                    expected: serde_json::to_string(expected).unwrap_or_default(),
                    found: serde_json::to_string(&found).unwrap_or_default(),
                });
            }
            (None, found) => merged.spec.conversion = found,
            _ => {}
        }
        versions.extend(crd.spec.versions);
    }

    let mut seen = BTreeSet::new();
    for v in &versions {
        if !seen.insert(v.name.as_str()) {
            return Err(MergeError::DuplicateVersion(v.name.clone()));
        }
    }
    let mut storage: Vec<String> = versions
        .iter()
        .filter(|v| v.storage)
        .map(|v| v.name.clone())
        .collect();
    match storage.len() {
        0 => return Err(MergeError::NoStorageVersion),
        1 => {}
        _ => {
            storage.sort();
            return Err(MergeError::MultipleStorageVersions(storage));
        }
    }

    versions.sort_by(|a, b| a.name.cmp(&b.name));
    merged.spec.versions = versions;
    Ok(merged)
}
