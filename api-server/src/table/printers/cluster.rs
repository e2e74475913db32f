//! Printers of the cluster's own bookkeeping: leases, priority classes,
//! certificate signing requests.

use super::*;

/// `printLease`: the holder's identity.
pub(in crate::table) fn print_lease(lease: &Value, now: DateTime<Utc>) -> Vec<Value> {
    vec![
        name_cell(lease),
        text(text_at(lease, "/spec/holderIdentity")),
        age_cell(lease, now),
    ]
}

/// `printPriorityClass`: value, global default, age, preemption policy.
pub(in crate::table) fn print_priority_class(class: &Value, now: DateTime<Utc>) -> Vec<Value> {
    vec![
        name_cell(class),
        Value::from(int_at(class, "/value")),
        Value::Bool(bool_at(class, "/globalDefault", false)),
        age_cell(class, now),
        text(text_at(class, "/preemptionPolicy")),
    ]
}

/// `extractCSRStatus`: `Denied`, `Approved` or `Pending` by the
/// conditions' types, then `,Failed`, and `,Issued` once there is a
/// certificate.
pub(in crate::table) fn csr_status(request: &Value) -> String {
    let conditions = array_at(request, "/status/conditions");
    let has = |kind: &str| conditions.iter().any(|c| c["type"] == kind);
    let mut status = if has("Denied") {
        "Denied"
    } else if has("Approved") {
        "Approved"
    } else {
        "Pending"
    }
    .to_string();
    if has("Failed") {
        status.push_str(",Failed");
    }
    if str_at(request, "/status/certificate").is_some_and(|c| !c.is_empty()) {
        status.push_str(",Issued");
    }
    status
}

/// `printCertificateSigningRequest`: age, signer (`<none>`), the
/// requesting user, the requested duration (`<none>`), the condition.
pub(in crate::table) fn print_certificate_signing_request(
    request: &Value,
    now: DateTime<Utc>,
) -> Vec<Value> {
    // An int32 upstream: a larger number could not be stored.
    let duration = match request
        .pointer("/spec/expirationSeconds")
        .and_then(Value::as_i64)
        .and_then(|s| i32::try_from(s).ok())
    {
        Some(seconds) => human_duration(chrono::TimeDelta::seconds(i64::from(seconds))),
        None => "<none>".into(),
    };
    vec![
        name_cell(request),
        age_cell(request, now),
        text(or(text_at(request, "/spec/signerName"), "<none>")),
        text(text_at(request, "/spec/username")),
        text(duration),
        text(csr_status(request)),
    ]
}
