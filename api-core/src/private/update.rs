//! Checks of updates that the generated `validate_update` calls.

use serde::Serialize;

/// Whether two values serialize to the same JSON (spec comparison without
/// requiring `PartialEq` of every API type).
pub fn json_eq<T: Serialize>(a: &T, b: &T) -> bool {
    match (serde_json::to_value(a), serde_json::to_value(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// `#[kube(immutable)]`: the value may not change once set (and an
/// optional one may not be removed).
pub fn immutable<T: Serialize>(
    new: &T,
    old: &T,
    path: &crate::validation::FieldPath<'_>,
    errors: &mut crate::validation::ErrorList,
) {
    let (Ok(n), Ok(o)) = (serde_json::to_value(new), serde_json::to_value(old)) else {
        return;
    };
    if n == o || o.is_null() {
        return;
    }
    if n.is_null() {
        errors.push(crate::validation::FieldError::invalid(
            path,
            n,
            "field is immutable once set",
        ));
    } else {
        errors.push(crate::validation::FieldError::invalid(
            path,
            n,
            "field is immutable",
        ));
    }
}
