//! The types of Gateway API's `httproute_types.go` that GRPCRoute's filters
//! use. The corpus has no Go source for them, so they are written from the
//! descriptions and validations of the corpus CRD (field order as in
//! upstream's `httproute_types.go`, which fixes the order of `required`).

use api_core::prelude::*;
use serde::{Deserialize, Serialize};

use super::object_reference::BackendObjectReference;
use super::shared::{Fraction, HeaderName};

/// HTTPHeaderName is the name of an HTTP header.
///
/// Valid values include:
///
/// * "Authorization"
/// * "Set-Cookie"
///
/// Invalid values include:
///
///   - ":method" - ":" is an invalid character. This means that HTTP/2 pseudo
///     headers are not currently supported by this type.
///   - "/invalid" - "/ " is an invalid character
#[derive(ApiType, Serialize, Deserialize, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[serde(transparent)]
pub struct HTTPHeaderName(pub HeaderName);

/// HTTPHeader represents an HTTP Header name and value as defined by RFC 7230.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct HTTPHeader {
    /// Name is the name of the HTTP Header to be matched. Name matching MUST be
    /// case-insensitive. (See https://tools.ietf.org/html/rfc7230#section-3.2).
    ///
    /// If multiple entries specify equivalent header names, the first entry with
    /// an equivalent name MUST be considered for a match. Subsequent entries
    /// with an equivalent header name MUST be ignored. Due to the
    /// case-insensitivity of header names, "foo" and "Foo" are considered
    /// equivalent.
    pub name: HTTPHeaderName,

    /// Value is the value of HTTP Header to be matched.
    #[kube(min_length = 1, max_length = 4096)]
    pub value: String,
}

/// HTTPHeaderFilter defines a filter that modifies the headers of an HTTP
/// request or response. Only one action for a given header name is
/// permitted. Filters specifying multiple actions of the same or different
/// type for any one header name are invalid. Configuration to set or add
/// multiple values for a header must use RFC 7230 header value formatting,
/// separating each value with a comma.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct HTTPHeaderFilter {
    /// Set overwrites the request with the given header (name, value)
    /// before the action.
    ///
    /// Input:
    ///   GET /foo HTTP/1.1
    ///   my-header: foo
    ///
    /// Config:
    ///   set:
    ///   - name: "my-header"
    ///     value: "bar"
    ///
    /// Output:
    ///   GET /foo HTTP/1.1
    ///   my-header: bar
    #[kube(list_type = "map", list_map_keys = ["name"], max_items = 16)]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub set: Vec<HTTPHeader>,

    /// Add adds the given header(s) (name, value) to the request
    /// before the action. It appends to any existing values associated
    /// with the header name.
    ///
    /// Input:
    ///   GET /foo HTTP/1.1
    ///   my-header: foo
    ///
    /// Config:
    ///   add:
    ///   - name: "my-header"
    ///     value: "bar,baz"
    ///
    /// Output:
    ///   GET /foo HTTP/1.1
    ///   my-header: foo,bar,baz
    #[kube(list_type = "map", list_map_keys = ["name"], max_items = 16)]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub add: Vec<HTTPHeader>,

    /// Remove the given header(s) from the HTTP request before the action. The
    /// value of Remove is a list of HTTP header names. Note that the header
    /// names are case-insensitive (see
    /// https://datatracker.ietf.org/doc/html/rfc2616#section-4.2).
    ///
    /// Input:
    ///   GET /foo HTTP/1.1
    ///   my-header1: foo
    ///   my-header2: bar
    ///   my-header3: baz
    ///
    /// Config:
    ///   remove: ["my-header1", "my-header3"]
    ///
    /// Output:
    ///   GET /foo HTTP/1.1
    ///   my-header2: bar
    #[kube(list_type = "set", max_items = 16)]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub remove: Vec<String>,
}

/// HTTPRequestMirrorFilter defines configuration for the RequestMirror filter.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct HTTPRequestMirrorFilter {
    /// BackendRef references a resource where mirrored requests are sent.
    ///
    /// Mirrored requests must be sent only to a single destination endpoint
    /// within this BackendRef, irrespective of how many endpoints are present
    /// within this BackendRef.
    ///
    /// If the referent cannot be found, this BackendRef is invalid and must be
    /// dropped from the Gateway. The controller must ensure the "ResolvedRefs"
    /// condition on the Route status is set to `status: False` and not configure
    /// this backend in the underlying implementation.
    ///
    /// If there is a cross-namespace reference to an *existing* object
    /// that is not allowed by a ReferenceGrant, the controller must ensure the
    /// "ResolvedRefs"  condition on the Route is set to `status: False`,
    /// with the "RefNotPermitted" reason and not configure this backend in the
    /// underlying implementation.
    ///
    /// In either error case, the Message of the `ResolvedRefs` Condition
    /// should be used to provide more detail about the problem.
    ///
    /// Support: Extended for Kubernetes Service
    ///
    /// Support: Implementation-specific for any other resource
    ///
    /// If the backend service requires TLS, use BackendTLSPolicy to tell the
    /// implementation to supply the TLS details to be used to connect to that
    /// backend.
    pub backend_ref: BackendObjectReference,

    /// Percent represents the percentage of requests that should be
    /// mirrored to BackendRef. Its minimum value is 0 (indicating 0% of
    /// requests) and its maximum value is 100 (indicating 100% of requests).
    ///
    /// Only one of Fraction or Percent may be specified. If neither field
    /// is specified, 100% of requests will be mirrored.
    #[kube(minimum = 0, maximum = 100)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub percent: Option<i32>,

    /// Fraction represents the fraction of requests that should be
    /// mirrored to BackendRef.
    ///
    /// Only one of Fraction or Percent may be specified. If neither field
    /// is specified, 100% of requests will be mirrored.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fraction: Option<Fraction>,
}
