//! Gateway API's `grpcroute_types.go` (standard channel).

use api_core::prelude::*;
use serde::{Deserialize, Serialize};

use super::httproute::{HTTPHeaderFilter, HTTPRequestMirrorFilter};
use super::object_reference::LocalObjectReference;
use super::shared::{BackendRef, CommonRouteSpec, HeaderName, Hostname, RouteStatus, SectionName};

/// GRPCRouteStatus defines the observed state of GRPCRoute.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug, PartialEq)]
// Gateway API's `RouteStatus.parents` is `+required`.
#[kube(allow(status_optional))]
#[serde(rename_all = "camelCase")]
pub struct GRPCRouteStatus {
    #[serde(flatten)]
    pub route_status: RouteStatus,
}

/// GRPCRouteSpec defines the desired state of GRPCRoute
#[derive(KubeResource, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[kube(
    group = "gateway.networking.k8s.io",
    version = "v1",
    kind = "GRPCRoute",
    namespaced,
    status = "GRPCRouteStatus",
    category = "gateway-api",
    printcolumn(name = "Hostnames", type = "string", json_path = ".spec.hostnames"),
    printcolumn(name = "Age", type = "date", json_path = ".metadata.creationTimestamp"),
    annotation("api-approved.kubernetes.io", "https://github.com/kubernetes-sigs/gateway-api/pull/4530"),
    annotation("gateway.networking.k8s.io/bundle-version", "v0.0.0-dev"),
    annotation("gateway.networking.k8s.io/channel", "standard"),
    // The docs of Go's `GRPCRoute.Spec` and `GRPCRoute.Status` fields.
    spec_doc = "Spec defines the desired state of GRPCRoute.",
    status_doc = "Status defines the current state of GRPCRoute.",
    doc = "GRPCRoute provides a way to route gRPC requests. This includes the capability
to match requests by hostname, gRPC service, gRPC method, or HTTP/2 header.
Filters can be used to specify additional processing steps. Backends specify
where matching requests will be routed.

GRPCRoute falls under extended support within the Gateway API. Within the
following specification, the word \"MUST\" indicates that an implementation
supporting GRPCRoute must conform to the indicated requirement, but an
implementation not supporting this route type need not follow the requirement
unless explicitly indicated.

Implementations supporting `GRPCRoute` with the `HTTPS` `ProtocolType` MUST
accept HTTP/2 connections without an initial upgrade from HTTP/1.1, i.e. via
ALPN. If the implementation does not support this, then it MUST set the
\"Accepted\" condition to \"False\" for the affected listener with a reason of
\"UnsupportedProtocol\".  Implementations MAY also accept HTTP/2 connections
with an upgrade from HTTP/1.

Implementations supporting `GRPCRoute` with the `HTTP` `ProtocolType` MUST
support HTTP/2 over cleartext TCP (h2c,
https://www.rfc-editor.org/rfc/rfc7540#section-3.1) without an initial
upgrade from HTTP/1.1, i.e. with prior knowledge
(https://www.rfc-editor.org/rfc/rfc7540#section-3.4). If the implementation
does not support this, then it MUST set the \"Accepted\" condition to \"False\"
for the affected listener with a reason of \"UnsupportedProtocol\".
Implementations MAY also accept HTTP/2 connections with an upgrade from
HTTP/1, i.e. without prior knowledge."
)]
#[serde(rename_all = "camelCase")]
pub struct GRPCRouteSpec {
    #[serde(flatten)]
    pub common_route_spec: CommonRouteSpec,

    /// Hostnames defines a set of hostnames to match against the GRPC
    /// Host header to select a GRPCRoute to process the request. This matches
    /// the RFC 1123 definition of a hostname with 2 notable exceptions:
    ///
    /// 1. IPs are not allowed.
    /// 2. A hostname may be prefixed with a wildcard label (`*.`). The wildcard
    ///    label MUST appear by itself as the first label.
    ///
    /// If a hostname is specified by both the Listener and GRPCRoute, there
    /// MUST be at least one intersecting hostname for the GRPCRoute to be
    /// attached to the Listener. For example:
    ///
    /// * A Listener with `test.example.com` as the hostname matches GRPCRoutes
    ///   that have either not specified any hostnames, or have specified at
    ///   least one of `test.example.com` or `*.example.com`.
    /// * A Listener with `*.example.com` as the hostname matches GRPCRoutes
    ///   that have either not specified any hostnames or have specified at least
    ///   one hostname that matches the Listener hostname. For example,
    ///   `test.example.com` and `*.example.com` would both match. On the other
    ///   hand, `example.com` and `test.example.net` would not match.
    ///
    /// Hostnames that are prefixed with a wildcard label (`*.`) are interpreted
    /// as a suffix match. That means that a match for `*.example.com` would match
    /// both `test.example.com`, and `foo.test.example.com`, but not `example.com`.
    ///
    /// If both the Listener and GRPCRoute have specified hostnames, any
    /// GRPCRoute hostnames that do not match the Listener hostname MUST be
    /// ignored. For example, if a Listener specified `*.example.com`, and the
    /// GRPCRoute specified `test.example.com` and `test.example.net`,
    /// `test.example.net` MUST NOT be considered for a match.
    ///
    /// If both the Listener and GRPCRoute have specified hostnames, and none
    /// match with the criteria above, then the GRPCRoute MUST NOT be accepted by
    /// the implementation. The implementation MUST raise an 'Accepted' Condition
    /// with a status of `False` in the corresponding RouteParentStatus.
    ///
    /// If a Route (A) of type HTTPRoute or GRPCRoute is attached to a
    /// Listener and that listener already has another Route (B) of the other
    /// type attached and the intersection of the hostnames of A and B is
    /// non-empty, then the implementation MUST accept exactly one of these two
    /// routes, determined by the following criteria, in order:
    ///
    /// * The oldest Route based on creation timestamp.
    /// * The Route appearing first in alphabetical order by
    ///   "{namespace}/{name}".
    ///
    /// The rejected Route MUST raise an 'Accepted' condition with a status of
    /// 'False' in the corresponding RouteParentStatus.
    ///
    /// Support: Core
    #[kube(list_type = "atomic", max_items = 16)]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hostnames: Vec<Hostname>,

    /// Rules are a list of GRPC matchers, filters and actions.
    // The experimental channel adds a rule: "Rule name must be unique within the route".
    #[kube(
        list_type = "atomic",
        max_items = 16,
        validation(
            rule = "(self.size() > 0 ? (has(self[0].matches) ? self[0].matches.size() : 0) : 0) + (self.size() > 1 ? (has(self[1].matches) ? self[1].matches.size() : 0) : 0) + (self.size() > 2 ? (has(self[2].matches) ? self[2].matches.size() : 0) : 0) + (self.size() > 3 ? (has(self[3].matches) ? self[3].matches.size() : 0) : 0) + (self.size() > 4 ? (has(self[4].matches) ? self[4].matches.size() : 0) : 0) + (self.size() > 5 ? (has(self[5].matches) ? self[5].matches.size() : 0) : 0) + (self.size() > 6 ? (has(self[6].matches) ? self[6].matches.size() : 0) : 0) + (self.size() > 7 ? (has(self[7].matches) ? self[7].matches.size() : 0) : 0) + (self.size() > 8 ? (has(self[8].matches) ? self[8].matches.size() : 0) : 0) + (self.size() > 9 ? (has(self[9].matches) ? self[9].matches.size() : 0) : 0) + (self.size() > 10 ? (has(self[10].matches) ? self[10].matches.size() : 0) : 0) + (self.size() > 11 ? (has(self[11].matches) ? self[11].matches.size() : 0) : 0) + (self.size() > 12 ? (has(self[12].matches) ? self[12].matches.size() : 0) : 0) + (self.size() > 13 ? (has(self[13].matches) ? self[13].matches.size() : 0) : 0) + (self.size() > 14 ? (has(self[14].matches) ? self[14].matches.size() : 0) : 0) + (self.size() > 15 ? (has(self[15].matches) ? self[15].matches.size() : 0) : 0) <= 128",
            message = "While 16 rules and 64 matches per rule are allowed, the total number of matches across all rules in a route must be less than 128"
        )
    )]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rules: Vec<GRPCRouteRule>,
}

/// GRPCRouteRule defines the semantics for matching a gRPC request based on
/// conditions (matches), processing it (filters), and forwarding the request to
/// an API object (backendRefs).
#[derive(ApiType, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct GRPCRouteRule {
    /// Name is the name of the route rule. This name MUST be unique within a Route if it is set.
    ///
    /// Support: Extended
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<SectionName>,

    /// Matches define conditions used for matching the rule against incoming
    /// gRPC requests. Each match is independent, i.e. this rule will be matched
    /// if **any** one of the matches is satisfied.
    ///
    /// For example, take the following matches configuration:
    ///
    /// ```
    /// matches:
    /// - method:
    ///     service: foo.bar
    ///   headers:
    ///     values:
    ///       version: 2
    /// - method:
    ///     service: foo.bar.v2
    /// ```
    ///
    /// For a request to match against this rule, it MUST satisfy
    /// EITHER of the two conditions:
    ///
    /// - service of foo.bar AND contains the header `version: 2`
    /// - service of foo.bar.v2
    ///
    /// See the documentation for GRPCRouteMatch on how to specify multiple
    /// match conditions to be ANDed together.
    ///
    /// If no matches are specified, the implementation MUST match every gRPC request.
    ///
    /// Proxy or Load Balancer routing configuration generated from GRPCRoutes
    /// MUST prioritize rules based on the following criteria, continuing on
    /// ties. Merging MUST not be done between GRPCRoutes and HTTPRoutes.
    /// Precedence MUST be given to the rule with the largest number of:
    ///
    /// * Characters in a matching non-wildcard hostname.
    /// * Characters in a matching hostname.
    /// * Characters in a matching service.
    /// * Characters in a matching method.
    /// * Header matches.
    ///
    /// If ties still exist across multiple Routes, matching precedence MUST be
    /// determined in order of the following criteria, continuing on ties:
    ///
    /// * The oldest Route based on creation timestamp.
    /// * The Route appearing first in alphabetical order by
    ///   "{namespace}/{name}".
    ///
    /// If ties still exist within the Route that has been given precedence,
    /// matching precedence MUST be granted to the first matching rule meeting
    /// the above criteria.
    #[kube(list_type = "atomic", max_items = 64)]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub matches: Vec<GRPCRouteMatch>,

    /// Filters define the filters that are applied to requests that match
    /// this rule.
    ///
    /// The effects of ordering of multiple behaviors are currently unspecified.
    /// This can change in the future based on feedback during the alpha stage.
    ///
    /// Conformance-levels at this level are defined based on the type of filter:
    ///
    /// - ALL core filters MUST be supported by all implementations that support
    ///   GRPCRoute.
    /// - Implementers are encouraged to support extended filters.
    /// - Implementation-specific custom filters have no API guarantees across
    ///   implementations.
    ///
    /// Specifying the same filter multiple times is not supported unless explicitly
    /// indicated in the filter.
    ///
    /// If an implementation cannot support a combination of filters, it must clearly
    /// document that limitation. In cases where incompatible or unsupported
    /// filters are specified and cause the `Accepted` condition to be set to status
    /// `False`, implementations may use the `IncompatibleFilters` reason to specify
    /// this configuration error.
    ///
    /// Support: Core
    #[kube(
        list_type = "atomic",
        max_items = 16,
        validation(
            rule = "self.filter(f, f.type == 'RequestHeaderModifier').size() <= 1",
            message = "RequestHeaderModifier filter cannot be repeated"
        ),
        validation(
            rule = "self.filter(f, f.type == 'ResponseHeaderModifier').size() <= 1",
            message = "ResponseHeaderModifier filter cannot be repeated"
        )
    )]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub filters: Vec<GRPCRouteFilter>,

    /// BackendRefs defines the backend(s) where matching requests should be
    /// sent.
    ///
    /// Failure behavior here depends on how many BackendRefs are specified and
    /// how many are invalid.
    ///
    /// If *all* entries in BackendRefs are invalid, and there are also no filters
    /// specified in this route rule, *all* traffic which matches this rule MUST
    /// receive an `UNAVAILABLE` status.
    ///
    /// See the GRPCBackendRef definition for the rules about what makes a single
    /// GRPCBackendRef invalid.
    ///
    /// When a GRPCBackendRef is invalid, `UNAVAILABLE` statuses MUST be returned for
    /// requests that would have otherwise been routed to an invalid backend. If
    /// multiple backends are specified, and some are invalid, the proportion of
    /// requests that would otherwise have been routed to an invalid backend
    /// MUST receive an `UNAVAILABLE` status.
    ///
    /// For example, if two backends are specified with equal weights, and one is
    /// invalid, 50 percent of traffic MUST receive an `UNAVAILABLE` status.
    /// Implementations may choose how that 50 percent is determined.
    ///
    /// Support: Core for Kubernetes Service
    ///
    /// Support: Implementation-specific for any other resource
    ///
    /// Support for weight: Core
    #[kube(list_type = "atomic", max_items = 16)]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub backend_refs: Vec<GRPCBackendRef>,
    // (experimental channel only, not in the standard CRD: `sessionPersistence`)
}

/// GRPCRouteMatch defines the predicate used to match requests to a given
/// action. Multiple match types are ANDed together, i.e. the match will
/// evaluate to true only if all conditions are satisfied.
///
/// For example, the match below will match a gRPC request only if its service
/// is `foo` AND it contains the `version: v1` header:
///
/// ```
/// matches:
///   - method:
///     type: Exact
///     service: "foo"
///   - headers:
///     name: "version"
///     value "v1"
///
/// ```
#[derive(ApiType, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct GRPCRouteMatch {
    /// Method specifies a gRPC request service/method matcher. If this field is
    /// not specified, all services and methods will match.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub method: Option<GRPCMethodMatch>,

    /// Headers specifies gRPC request header matchers. Multiple match values are
    /// ANDed together, meaning, a request MUST match all the specified headers
    /// to select the route.
    #[kube(list_type = "map", list_map_keys = ["name"], max_items = 16)]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub headers: Vec<GRPCHeaderMatch>,
}

/// GRPCMethodMatch describes how to select a gRPC route by matching the gRPC
/// request service and/or method.
///
/// At least one of Service and Method MUST be a non-empty string.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[kube(
    validation(
        rule = "has(self.type) ? has(self.service) || has(self.method) : true",
        message = "One or both of 'service' or 'method' must be specified"
    ),
    validation(
        rule = r#"(!has(self.type) || self.type == 'Exact') && has(self.service) ? self.service.matches(r"""^(?i)\.?[a-z_][a-z_0-9]*(\.[a-z_][a-z_0-9]*)*$"""): true"#,
        message = r"service must only contain valid characters (matching ^(?i)\.?[a-z_][a-z_0-9]*(\.[a-z_][a-z_0-9]*)*$)"
    ),
    validation(
        rule = r#"(!has(self.type) || self.type == 'Exact') && has(self.method) ? self.method.matches(r"""^[A-Za-z_][A-Za-z_0-9]*$"""): true"#,
        message = "method must only contain valid characters (matching ^[A-Za-z_][A-Za-z_0-9]*$)"
    )
)]
#[serde(rename_all = "camelCase")]
pub struct GRPCMethodMatch {
    /// Type specifies how to match against the service and/or method.
    /// Support: Core (Exact with service and method specified)
    ///
    /// Support: Implementation-specific (Exact with method specified but no service specified)
    ///
    /// Support: Implementation-specific (RegularExpression)
    #[kube(default = GRPCMethodMatchType::Exact)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub r#type: Option<GRPCMethodMatchType>,

    /// Value of the service to match against. If left empty or omitted, will
    /// match any service.
    ///
    /// At least one of Service and Method MUST be a non-empty string.
    #[kube(max_length = 1024)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub service: Option<String>,

    /// Value of the method to match against. If left empty or omitted, will
    /// match all services.
    ///
    /// At least one of Service and Method MUST be a non-empty string.
    #[kube(max_length = 1024)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub method: Option<String>,
}

/// MethodMatchType specifies the semantics of how gRPC methods and services are compared.
/// Valid MethodMatchType values, along with their conformance levels, are:
///
/// * "Exact" - Core
/// * "RegularExpression" - Implementation Specific
///
/// Exact methods MUST be syntactically valid:
///
/// - Must not contain `/` character
#[derive(ApiType, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub enum GRPCMethodMatchType {
    Exact,
    RegularExpression,
}

/// GRPCHeaderMatch describes how to select a gRPC route by matching gRPC request
/// headers.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct GRPCHeaderMatch {
    /// Type specifies how to match against the value of the header.
    #[kube(default = GRPCHeaderMatchType::Exact)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub r#type: Option<GRPCHeaderMatchType>,

    /// Name is the name of the gRPC Header to be matched.
    ///
    /// If multiple entries specify equivalent header names, only the first
    /// entry with an equivalent name MUST be considered for a match. Subsequent
    /// entries with an equivalent header name MUST be ignored. Due to the
    /// case-insensitivity of header names, "foo" and "Foo" are considered
    /// equivalent.
    pub name: GRPCHeaderName,

    /// Value is the value of the gRPC Header to be matched.
    #[kube(min_length = 1, max_length = 4096)]
    pub value: String,
}

/// GRPCHeaderMatchType specifies the semantics of how GRPC header values should
/// be compared. Valid GRPCHeaderMatchType values, along with their conformance
/// levels, are:
///
/// * "Exact" - Core
/// * "RegularExpression" - Implementation Specific
///
/// Note that new values may be added to this enum in future releases of the API,
/// implementations MUST ensure that unknown values will not cause a crash.
///
/// Unknown values here MUST result in the implementation setting the Accepted
/// Condition for the Route to `status: False`, with a Reason of
/// `UnsupportedValue`.
#[derive(ApiType, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub enum GRPCHeaderMatchType {
    Exact,
    RegularExpression,
}

#[derive(ApiType, Serialize, Deserialize, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[serde(transparent)]
pub struct GRPCHeaderName(pub HeaderName);

/// GRPCRouteFilterType identifies a type of GRPCRoute filter.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[serde(transparent)]
pub struct GRPCRouteFilterType(pub String);

/// GRPCRouteFilter defines processing steps that must be completed during the
/// request or response lifecycle. GRPCRouteFilters are meant as an extension
/// point to express processing that may be done in Gateway implementations. Some
/// examples include request or response modification, implementing
/// authentication strategies, rate-limiting, and traffic shaping. API
/// guarantee/conformance is defined based on the type of the filter.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[kube(
    validation(
        rule = "!(has(self.requestHeaderModifier) && self.type != 'RequestHeaderModifier')",
        message = "filter.requestHeaderModifier must be nil if the filter.type is not RequestHeaderModifier"
    ),
    validation(
        rule = "!(!has(self.requestHeaderModifier) && self.type == 'RequestHeaderModifier')",
        message = "filter.requestHeaderModifier must be specified for RequestHeaderModifier filter.type"
    ),
    validation(
        rule = "!(has(self.responseHeaderModifier) && self.type != 'ResponseHeaderModifier')",
        message = "filter.responseHeaderModifier must be nil if the filter.type is not ResponseHeaderModifier"
    ),
    validation(
        rule = "!(!has(self.responseHeaderModifier) && self.type == 'ResponseHeaderModifier')",
        message = "filter.responseHeaderModifier must be specified for ResponseHeaderModifier filter.type"
    ),
    validation(
        rule = "!(has(self.requestMirror) && self.type != 'RequestMirror')",
        message = "filter.requestMirror must be nil if the filter.type is not RequestMirror"
    ),
    validation(
        rule = "!(!has(self.requestMirror) && self.type == 'RequestMirror')",
        message = "filter.requestMirror must be specified for RequestMirror filter.type"
    ),
    validation(
        rule = "!(has(self.extensionRef) && self.type != 'ExtensionRef')",
        message = "filter.extensionRef must be nil if the filter.type is not ExtensionRef"
    ),
    validation(
        rule = "!(!has(self.extensionRef) && self.type == 'ExtensionRef')",
        message = "filter.extensionRef must be specified for ExtensionRef filter.type"
    )
)]
#[serde(rename_all = "camelCase")]
pub struct GRPCRouteFilter {
    /// Type identifies the type of filter to apply. As with other API fields,
    /// types are classified into three conformance levels:
    ///
    /// - Core: Filter types and their corresponding configuration defined by
    ///   "Support: Core" in this package, e.g. "RequestHeaderModifier". All
    ///   implementations supporting GRPCRoute MUST support core filters.
    ///
    /// - Extended: Filter types and their corresponding configuration defined by
    ///   "Support: Extended" in this package, e.g. "RequestMirror". Implementers
    ///   are encouraged to support extended filters.
    ///
    /// - Implementation-specific: Filters that are defined and supported by specific vendors.
    ///   In the future, filters showing convergence in behavior across multiple
    ///   implementations will be considered for inclusion in extended or core
    ///   conformance levels. Filter-specific configuration for such filters
    ///   is specified using the ExtensionRef field. `Type` MUST be set to
    ///   "ExtensionRef" for custom filters.
    ///
    /// Implementers are encouraged to define custom implementation types to
    /// extend the core API with implementation-specific behavior.
    ///
    /// If a reference to a custom filter type cannot be resolved, the filter
    /// MUST NOT be skipped. Instead, requests that would have been processed by
    /// that filter MUST receive a HTTP error response.
    #[kube(enum = ["ResponseHeaderModifier", "RequestHeaderModifier", "RequestMirror", "ExtensionRef"])]
    pub r#type: GRPCRouteFilterType,

    /// RequestHeaderModifier defines a schema for a filter that modifies request
    /// headers.
    ///
    /// Support: Core
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_header_modifier: Option<HTTPHeaderFilter>,

    /// ResponseHeaderModifier defines a schema for a filter that modifies response
    /// headers.
    ///
    /// Support: Extended
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub response_header_modifier: Option<HTTPHeaderFilter>,

    /// RequestMirror defines a schema for a filter that mirrors requests.
    /// Requests are sent to the specified destination, but responses from
    /// that destination are ignored.
    ///
    /// This filter can be used multiple times within the same rule. Note that
    /// not all implementations will be able to support mirroring to multiple
    /// backends.
    ///
    /// Support: Extended
    #[kube(validation(
        rule = "!(has(self.percent) && has(self.fraction))",
        message = "Only one of percent or fraction may be specified in HTTPRequestMirrorFilter"
    ))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_mirror: Option<HTTPRequestMirrorFilter>,

    /// ExtensionRef is an optional, implementation-specific extension to the
    /// "filter" behavior.  For example, resource "myroutefilter" in group
    /// "networking.example.net"). ExtensionRef MUST NOT be used for core and
    /// extended filters.
    ///
    /// Support: Implementation-specific
    ///
    /// This filter can be used multiple times within the same rule.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extension_ref: Option<LocalObjectReference>,
}

/// GRPCBackendRef defines how a GRPCRoute forwards a gRPC request.
///
/// Note that when a namespace different than the local namespace is specified, a
/// ReferenceGrant object is required in the referent namespace to allow that
/// namespace's owner to accept the reference. See the ReferenceGrant
/// documentation for details.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct GRPCBackendRef {
    /// BackendRef is a reference to a backend to forward matched requests to.
    ///
    /// A BackendRef can be invalid for the following reasons. In all cases, the
    /// implementation MUST ensure the `ResolvedRefs` Condition on the Route
    /// is set to `status: False`, with a Reason and Message that indicate
    /// what is the cause of the error.
    ///
    /// A BackendRef is invalid if:
    ///
    /// * It refers to an unknown or unsupported kind of resource. In this
    ///   case, the Reason MUST be set to `InvalidKind` and Message of the
    ///   Condition MUST explain which kind of resource is unknown or unsupported.
    ///
    /// * It refers to a resource that does not exist. In this case, the Reason MUST
    ///   be set to `BackendNotFound` and the Message of the Condition MUST explain
    ///   which resource does not exist.
    ///
    /// * It refers a resource in another namespace when the reference has not been
    ///   explicitly allowed by a ReferenceGrant (or equivalent concept). In this
    ///   case, the Reason MUST be set to `RefNotPermitted` and the Message of the
    ///   Condition MUST explain which cross-namespace reference is not allowed.
    ///
    /// * The BackendTLSPolicy object is installed in the cluster, a BackendTLSPolicy
    ///   is present that refers to the Service, and the implementation is unable
    ///   to meet the requirement.
    ///
    /// Support: Core for Kubernetes Service
    ///
    /// Support: Extended for Kubernetes ServiceImport
    ///
    /// Support: Implementation-specific for any other resource
    ///
    /// Support for weight: Core
    ///
    /// Support for BackendTLSPolicy: Extended
    #[serde(flatten)]
    pub backend_ref: BackendRef,

    /// Filters defined at this level MUST be executed if and only if the
    /// request is being forwarded to the backend defined here.
    ///
    /// Support: Implementation-specific (For broader support of filters, use the
    /// Filters field in GRPCRouteRule.)
    #[kube(
        list_type = "atomic",
        max_items = 16,
        validation(
            rule = "self.filter(f, f.type == 'RequestHeaderModifier').size() <= 1",
            message = "RequestHeaderModifier filter cannot be repeated"
        ),
        validation(
            rule = "self.filter(f, f.type == 'ResponseHeaderModifier').size() <= 1",
            message = "ResponseHeaderModifier filter cannot be repeated"
        )
    )]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub filters: Vec<GRPCRouteFilter>,
}
