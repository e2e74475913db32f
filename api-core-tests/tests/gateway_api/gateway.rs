//! Gateway API's `gateway_types.go` (standard channel). The `Gateway` kind
//! is served in `v1` (the storage version) and `v1beta1`, whose Go types
//! are aliases of v1's: the spec struct is declared in both modules by
//! [`gateway_spec!`], every other type is shared. The condition type and
//! reason constants are not part of any schema and are not translated.

use std::collections::BTreeMap;

use api_core::meta::LabelSelector;
use api_core::prelude::*;
use api_core::schemars::{Schema, SchemaGenerator};
use serde::{Deserialize, Serialize};

use super::object_reference::{ObjectReference, SecretObjectReference};
use super::shared::{
    AddressType, AnnotationKey, AnnotationValue, Group, Hostname, Kind, LabelKey, LabelValue,
    ObjectName, PortNumber, SectionName, from_str,
};

from_str!(FromNamespaces);

/// The two conditions a new Gateway starts with (Go's
/// `+kubebuilder:default` on `GatewayStatus.conditions` and on the root's
/// `status`).
pub fn pending_conditions() -> Conditions {
    let pending = |condition_type: &str| {
        Condition::new(
            condition_type,
            ConditionStatus::Unknown,
            "Pending",
            "Waiting for controller",
        )
        .with_last_transition_time(Time::from_unix_seconds(0).expect("the epoch is a valid time"))
    };
    Conditions::from_iter([pending("Accepted"), pending("Programmed")])
}

/// The status of a new Gateway: `{conditions: [Accepted, Programmed]}`.
pub fn pending_status() -> GatewayStatus {
    GatewayStatus {
        addresses: Vec::new(),
        conditions: pending_conditions(),
        listeners: Vec::new(),
        attached_listener_sets: None,
    }
}

/// Gateway API's `<gateway:validateIPAddress>` (a step of its own CRD
/// build, not a kubebuilder marker): the items of an address list also
/// carry a `oneOf` that requires an `IPAddress` value to be an IPv4 or IPv6
/// address. `schema_with` builds the list's schema and adds it; the
/// field's keywords and rules are applied on top as usual.
fn ip_validated_list<T: ApiType>(generator: &mut SchemaGenerator) -> Schema {
    let mut schema = <Vec<T> as ApiType>::api_schema(generator);
    let items = schema
        .get_mut("items")
        .and_then(serde_json::Value::as_object_mut)
        .expect("a list schema has items");
    items.insert(
        "oneOf".into(),
        serde_json::json!([
            {
                "properties": {
                    "type": {"enum": ["IPAddress"]},
                    "value": {"anyOf": [{"format": "ipv4"}, {"format": "ipv6"}]}
                }
            },
            {
                "properties": {
                    "type": {"not": {"enum": ["IPAddress"]}}
                }
            }
        ]),
    );
    schema
}

/// Declares the root `Gateway` of one version: `GatewaySpec` with the
/// resource attributes, the same fields in every version.
macro_rules! gateway_spec {
    ($version:tt, $storage:tt, $doc:tt) => {
        /// GatewaySpec defines the desired state of Gateway.
        ///
        /// Not all possible combinations of options specified in the Spec are
        /// valid. Some invalid configurations can be caught synchronously via CRD
        /// validation, but there are many cases that will require asynchronous
        /// signaling via the GatewayStatus block.
        #[derive(KubeResource, Serialize, Deserialize, Clone, Debug, PartialEq)]
        #[kube(
            group = "gateway.networking.k8s.io",
            version = $version,
            storage = $storage,
            kind = "Gateway",
            namespaced,
            status = "GatewayStatus",
            status_default = pending_status(),
            category = "gateway-api",
            shortname = "gtw",
            printcolumn(name = "Class", type = "string", json_path = ".spec.gatewayClassName"),
            printcolumn(name = "Address", type = "string", json_path = ".status.addresses[*].value"),
            printcolumn(name = "Programmed", type = "string", json_path = r#".status.conditions[?(@.type=="Programmed")].status"#),
            printcolumn(name = "Age", type = "date", json_path = ".metadata.creationTimestamp"),
            annotation("api-approved.kubernetes.io", "https://github.com/kubernetes-sigs/gateway-api/pull/4530"),
            annotation("gateway.networking.k8s.io/bundle-version", "v0.0.0-dev"),
            annotation("gateway.networking.k8s.io/channel", "standard"),
            doc = $doc,
            // The docs of Go's `Gateway.Spec` and `Gateway.Status` fields.
            spec_doc = "Spec defines the desired state of Gateway.",
            status_doc = "Status defines the current state of Gateway."
        )]
        #[serde(rename_all = "camelCase")]
        pub struct GatewaySpec {
            /// GatewayClassName used for this Gateway. This is the name of a
            /// GatewayClass resource.
            pub gateway_class_name: ObjectName,

            /// Listeners associated with this Gateway. Listeners define
            /// logical endpoints that are bound on this Gateway's addresses.
            /// At least one Listener MUST be specified.
            ///
            /// ## Distinct Listeners
            ///
            /// Each Listener in a set of Listeners (for example, in a single Gateway)
            /// MUST be _distinct_, in that a traffic flow MUST be able to be assigned to
            /// exactly one listener. (This section uses "set of Listeners" rather than
            /// "Listeners in a single Gateway" because implementations MAY merge configuration
            /// from multiple Gateways onto a single data plane, and these rules _also_
            /// apply in that case).
            ///
            /// Practically, this means that each listener in a set MUST have a unique
            /// combination of Port, Protocol, and, if supported by the protocol, Hostname.
            ///
            /// Some combinations of port, protocol, and TLS settings are considered
            /// Core support and MUST be supported by implementations based on the objects
            /// they support:
            ///
            /// HTTPRoute
            ///
            /// 1. HTTPRoute, Port: 80, Protocol: HTTP
            /// 2. HTTPRoute, Port: 443, Protocol: HTTPS, TLS Mode: Terminate, TLS keypair provided
            ///
            /// TLSRoute
            ///
            /// 1. TLSRoute, Port: 443, Protocol: TLS, TLS Mode: Passthrough
            ///
            /// "Distinct" Listeners have the following property:
            ///
            /// **The implementation can match inbound requests to a single distinct
            /// Listener**.
            ///
            /// When multiple Listeners share values for fields (for
            /// example, two Listeners with the same Port value), the implementation
            /// can match requests to only one of the Listeners using other
            /// Listener fields.
            ///
            /// When multiple listeners have the same value for the Protocol field, then
            /// each of the Listeners with matching Protocol values MUST have different
            /// values for other fields.
            ///
            /// The set of fields that MUST be different for a Listener differs per protocol.
            /// The following rules define the rules for what fields MUST be considered for
            /// Listeners to be distinct with each protocol currently defined in the
            /// Gateway API spec.
            ///
            /// The set of listeners that all share a protocol value MUST have _different_
            /// values for _at least one_ of these fields to be distinct:
            ///
            /// * **HTTP, HTTPS, TLS**: Port, Hostname
            /// * **TCP, UDP**: Port
            ///
            /// One **very** important rule to call out involves what happens when an
            /// implementation:
            ///
            /// * Supports TCP protocol Listeners, as well as HTTP, HTTPS, or TLS protocol
            ///   Listeners, and
            /// * sees HTTP, HTTPS, or TLS protocols with the same `port` as one with TCP
            ///   Protocol.
            ///
            /// In this case all the Listeners that share a port with the
            /// TCP Listener are not distinct and so MUST NOT be accepted.
            ///
            /// If an implementation does not support TCP Protocol Listeners, then the
            /// previous rule does not apply, and the TCP Listeners SHOULD NOT be
            /// accepted.
            ///
            /// Note that the `tls` field is not used for determining if a listener is distinct, because
            /// Listeners that _only_ differ on TLS config will still conflict in all cases.
            ///
            /// ### Listeners that are distinct only by Hostname
            ///
            /// When the Listeners are distinct based only on Hostname, inbound request
            /// hostnames MUST match from the most specific to least specific Hostname
            /// values to choose the correct Listener and its associated set of Routes.
            ///
            /// Exact matches MUST be processed before wildcard matches, and wildcard
            /// matches MUST be processed before fallback (empty Hostname value)
            /// matches. For example, `"foo.example.com"` takes precedence over
            /// `"*.example.com"`, and `"*.example.com"` takes precedence over `""`.
            ///
            /// Additionally, if there are multiple wildcard entries, more specific
            /// wildcard entries must be processed before less specific wildcard entries.
            /// For example, `"*.foo.example.com"` takes precedence over `"*.example.com"`.
            ///
            /// The precise definition here is that the higher the number of dots in the
            /// hostname to the right of the wildcard character, the higher the precedence.
            ///
            /// The wildcard character will match any number of characters _and dots_ to
            /// the left, however, so `"*.example.com"` will match both
            /// `"foo.bar.example.com"` _and_ `"bar.example.com"`.
            ///
            /// ## Handling indistinct Listeners
            ///
            /// If a set of Listeners contains Listeners that are not distinct, then those
            /// Listeners are _Conflicted_, and the implementation MUST set the "Conflicted"
            /// condition in the Listener Status to "True".
            ///
            /// The words "indistinct" and "conflicted" are considered equivalent for the
            /// purpose of this documentation.
            ///
            /// Implementations MAY choose to accept a Gateway with some Conflicted
            /// Listeners only if they only accept the partial Listener set that contains
            /// no Conflicted Listeners.
            ///
            /// Specifically, an implementation MAY accept a partial Listener set subject to
            /// the following rules:
            ///
            /// * The implementation MUST NOT pick one conflicting Listener as the winner.
            ///   ALL indistinct Listeners must not be accepted for processing.
            /// * At least one distinct Listener MUST be present, or else the Gateway effectively
            ///   contains _no_ Listeners, and must be rejected from processing as a whole.
            ///
            /// The implementation MUST set a "ListenersNotValid" condition on the
            /// Gateway Status when the Gateway contains Conflicted Listeners whether or
            /// not they accept the Gateway. That Condition SHOULD clearly
            /// indicate in the Message which Listeners are conflicted, and which are
            /// Accepted. Additionally, the Listener status for those listeners SHOULD
            /// indicate which Listeners are conflicted and not Accepted.
            ///
            /// ## General Listener behavior
            ///
            /// Note that, for all distinct Listeners, requests SHOULD match at most one Listener.
            /// For example, if Listeners are defined for "foo.example.com" and "*.example.com", a
            /// request to "foo.example.com" SHOULD only be routed using routes attached
            /// to the "foo.example.com" Listener (and not the "*.example.com" Listener).
            ///
            /// If traffic to a Gateway does not match any Listener's hostname (or if
            /// the Listener does not specify a hostname and the request does not match
            /// any attached Route), the request MUST be rejected. The specific mechanism
            /// for rejection depends on the protocol: HTTP returns a 404 status code,
            /// while gRPC returns an Unimplemented status code.
            ///
            /// This concept is known as "Listener Isolation", and it is an Extended feature
            /// of Gateway API. Implementations that do not support Listener Isolation MUST
            /// clearly document this, and MUST NOT claim support for the
            /// `GatewayHTTPListenerIsolation` feature.
            ///
            /// Implementations that _do_ support Listener Isolation SHOULD claim support
            /// for the Extended `GatewayHTTPListenerIsolation` feature and pass the associated
            /// conformance tests.
            ///
            /// ## Compatible Listeners
            ///
            /// A Gateway's Listeners are considered _compatible_ if:
            ///
            /// 1. They are distinct.
            /// 2. The implementation can serve them in compliance with the Addresses
            ///    requirement that all Listeners are available on all assigned
            ///    addresses.
            ///
            /// Compatible combinations in Extended support are expected to vary across
            /// implementations. A combination that is compatible for one implementation
            /// may not be compatible for another.
            ///
            /// For example, an implementation that cannot serve both TCP and UDP listeners
            /// on the same address, or cannot mix HTTPS and generic TLS listens on the same port
            /// would not consider those cases compatible, even though they are distinct.
            ///
            /// Implementations MAY merge separate Gateways onto a single set of
            /// Addresses if all Listeners across all Gateways are compatible.
            ///
            /// In a future release the MinItems=1 requirement MAY be dropped.
            ///
            /// Support: Core
            #[kube(list_type = "map", list_map_keys = ["name"], min_items = 1, max_items = 64, validation(rule = "self.all(l, l.protocol in ['HTTP', 'TCP', 'UDP'] ? !has(l.tls) : true)", message = "tls must not be specified for protocols ['HTTP', 'TCP', 'UDP']"), validation(rule = "self.all(l, (l.protocol == 'HTTPS' && has(l.tls)) ? (l.tls.mode == '' || l.tls.mode == 'Terminate') : true)", message = "tls mode must be Terminate for protocol HTTPS"), validation(rule = "self.all(l, (l.protocol == 'TLS' ? has(l.tls) && has(l.tls.mode) && l.tls.mode != '' : true))", message = "tls mode must be set for protocol TLS"), validation(rule = "self.all(l, l.protocol in ['TCP', 'UDP']  ? (!has(l.hostname) || l.hostname == '') : true)", message = "hostname must not be specified for protocols ['TCP', 'UDP']"), validation(rule = "self.all(l1, self.exists_one(l2, l1.name == l2.name))", message = "Listener name must be unique within the Gateway"), validation(rule = "self.all(l1, self.exists_one(l2, l1.port == l2.port && l1.protocol == l2.protocol && (has(l1.hostname) && has(l2.hostname) ? l1.hostname == l2.hostname : !has(l1.hostname) && !has(l2.hostname))))", message = "Combination of port, protocol and hostname must be unique for each listener"))]
            pub listeners: Vec<Listener>,

            /// Addresses requested for this Gateway. This is optional and behavior can
            /// depend on the implementation. If a value is set in the spec and the
            /// requested address is invalid or unavailable, the implementation MUST
            /// indicate this in an associated entry in GatewayStatus.Conditions.
            ///
            /// The Addresses field represents a request for the address(es) on the
            /// "outside of the Gateway", that traffic bound for this Gateway will use.
            /// This could be the IP address or hostname of an external load balancer or
            /// other networking infrastructure, or some other address that traffic will
            /// be sent to.
            ///
            /// If no Addresses are specified, the implementation MAY schedule the
            /// Gateway in an implementation-specific manner, assigning an appropriate
            /// set of Addresses.
            ///
            /// The implementation MUST bind all Listeners to every GatewayAddress that
            /// it assigns to the Gateway and add a corresponding entry in
            /// GatewayStatus.Addresses.
            ///
            /// Support: Extended
            // <gateway:validateIPAddress>
            #[kube(schema_with = ip_validated_list::<GatewaySpecAddress>)]
            #[kube(list_type = "atomic", max_items = 16, validation(rule = "self.all(a1, a1.type == 'IPAddress' && has(a1.value) ? self.exists_one(a2, a2.type == a1.type && has(a2.value) && a2.value == a1.value) : true )", message = "IPAddress values must be unique"), validation(rule = "self.all(a1, a1.type == 'Hostname'  && has(a1.value) ? self.exists_one(a2, a2.type == a1.type && has(a2.value) && a2.value == a1.value) : true )", message = "Hostname values must be unique"))]
            #[serde(default, skip_serializing_if = "Vec::is_empty")]
            pub addresses: Vec<GatewaySpecAddress>,

            /// Infrastructure defines infrastructure level attributes about this Gateway instance.
            ///
            /// Support: Extended
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub infrastructure: Option<GatewayInfrastructure>,

            /// AllowedListeners defines which ListenerSets can be attached to this Gateway.
            /// The default value is to allow no ListenerSets.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub allowed_listeners: Option<AllowedListeners>,

            /// TLS specifies frontend and backend tls configuration for entire gateway.
            ///
            /// Support: Extended
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub tls: Option<GatewayTLSConfig>,

            // (experimental channel only, not in the standard CRD: `defaultScope`)
        }
    };
}

/// `gateway.networking.k8s.io/v1`, the storage version.
pub mod v1 {
    use super::*;

    gateway_spec!(
        "v1",
        true,
        "Gateway represents an instance of a service-traffic handling infrastructure\nby binding Listeners to a set of IP addresses.\nA Gateway name SHOULD be compliant with RFC 1035, consisting of a maximum of 63 lower case alphanumeric\ncharacters or hyphens ('-'), and MUST start and end with an alphanumeric character."
    );
}

/// `gateway.networking.k8s.io/v1beta1`: v1's types (`type GatewaySpec =
/// v1.GatewaySpec` in Go) under v1beta1's root doc comment.
pub mod v1beta1 {
    use super::*;

    gateway_spec!(
        "v1beta1",
        false,
        "Gateway represents an instance of a service-traffic handling infrastructure\nby binding Listeners to a set of IP addresses."
    );
}

/// AllowedListeners defines which ListenerSets can be attached to this Gateway.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct AllowedListeners {
    /// Namespaces defines which namespaces ListenerSets can be attached to this Gateway.
    /// The default value is to allow no ListenerSets.
    #[kube(default = ListenerNamespaces { from: Some("None".into()), selector: None })]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub namespaces: Option<ListenerNamespaces>,
}

/// ListenerNamespaces indicate which namespaces ListenerSets should be selected from.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ListenerNamespaces {
    /// From indicates where ListenerSets can attach to this Gateway. Possible
    /// values are:
    ///
    /// * Same: Only ListenerSets in the same namespace may be attached to this Gateway.
    /// * Selector: ListenerSets in namespaces selected by the selector may be attached to this Gateway.
    /// * All: ListenerSets in all namespaces may be attached to this Gateway.
    /// * None: Only listeners defined in the Gateway's spec are allowed
    ///
    /// The default value None
    #[kube(default = "None", enum = ["All", "Selector", "Same", "None"])]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<FromNamespaces>,

    /// Selector must be specified when From is set to "Selector". In that case,
    /// only ListenerSets in Namespaces matching this Selector will be selected by this
    /// Gateway. This field is ignored for other values of "From".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selector: Option<LabelSelector>,
}

/// Listener embodies the concept of a logical endpoint where a Gateway accepts
/// network connections.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Listener {
    /// Name is the name of the Listener. This name MUST be unique within a
    /// Gateway.
    ///
    /// Support: Core
    pub name: SectionName,

    /// Hostname specifies the virtual hostname to match for protocol types that
    /// define this concept. When unspecified, all hostnames are matched. This
    /// field is ignored for protocols that don't require hostname based
    /// matching.
    ///
    /// Implementations MUST apply Hostname matching appropriately for each of
    /// the following protocols:
    ///
    /// * TLS: The Listener Hostname MUST match the SNI.
    /// * HTTP: The Listener Hostname MUST match the Host header of the request.
    /// * HTTPS: The Listener Hostname SHOULD match both the SNI and Host header.
    ///   Note that this does not require the SNI and Host header to be the same.
    ///   The semantics of this are described in more detail below.
    ///
    /// To ensure security, Section 11.1 of RFC-6066 emphasizes that server
    /// implementations that rely on SNI hostname matching MUST also verify
    /// hostnames within the application protocol.
    ///
    /// Section 9.1.2 of RFC-7540 provides a mechanism for servers to reject the
    /// reuse of a connection by responding with the HTTP 421 Misdirected Request
    /// status code. This indicates that the origin server has rejected the
    /// request because it appears to have been misdirected.
    ///
    /// To detect misdirected requests, Gateways SHOULD match the authority of
    /// the requests with all the SNI hostname(s) configured across all the
    /// Gateway Listeners on the same port and protocol:
    ///
    /// * If another Listener has an exact match or more specific wildcard entry,
    ///   the Gateway SHOULD return a 421.
    /// * If the current Listener (selected by SNI matching during ClientHello)
    ///   does not match the Host:
    ///     * If another Listener does match the Host, the Gateway SHOULD return a
    ///       421.
    ///     * If no other Listener matches the Host, the Gateway MUST return a
    ///       404.
    ///
    /// For HTTPRoute and TLSRoute resources, there is an interaction with the
    /// `spec.hostnames` array. When both listener and route specify hostnames,
    /// there MUST be an intersection between the values for a Route to be
    /// accepted. For more information, refer to the Route specific Hostnames
    /// documentation.
    ///
    /// Hostnames that are prefixed with a wildcard label (`*.`) are interpreted
    /// as a suffix match. That means that a match for `*.example.com` would match
    /// both `test.example.com`, and `foo.test.example.com`, but not `example.com`.
    ///
    /// Support: Core
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hostname: Option<Hostname>,

    /// Port is the network port. Multiple listeners may use the
    /// same port, subject to the Listener compatibility rules.
    ///
    /// Support: Core
    #[kube(minimum = 1, maximum = 65535)]
    pub port: PortNumber,

    /// Protocol specifies the network protocol this listener expects to receive.
    ///
    /// Support: Core
    pub protocol: ProtocolType,

    /// TLS is the TLS configuration for the Listener. This field is required if
    /// the Protocol field is "HTTPS" or "TLS". It is invalid to set this field
    /// if the Protocol field is "HTTP", "TCP", or "UDP".
    ///
    /// The association of SNIs to Certificate defined in ListenerTLSConfig is
    /// defined based on the Hostname field for this listener.
    ///
    /// The GatewayClass MUST use the longest matching SNI out of all
    /// available certificates for any TLS handshake.
    ///
    /// Support: Core
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tls: Option<ListenerTLSConfig>,

    /// AllowedRoutes defines the types of routes that MAY be attached to a
    /// Listener and the trusted namespaces where those Route resources MAY be
    /// present.
    ///
    /// Although a client request may match multiple route rules, only one rule
    /// may ultimately receive the request. Matching precedence MUST be
    /// determined in order of the following criteria:
    ///
    /// * The most specific match as defined by the Route type.
    /// * The oldest Route based on creation timestamp. For example, a Route with
    ///   a creation timestamp of "2020-09-08 01:02:03" is given precedence over
    ///   a Route with a creation timestamp of "2020-09-08 01:02:04".
    /// * If everything else is equivalent, the Route appearing first in
    ///   alphabetical order (namespace/name) should be given precedence. For
    ///   example, foo/bar is given precedence over foo/baz.
    ///
    /// All valid rules within a Route attached to this Listener should be
    /// implemented. Invalid Route rules can be ignored (sometimes that will mean
    /// the full Route). If a Route rule transitions from valid to invalid,
    /// support for that Route rule should be dropped to ensure consistency. For
    /// example, even if a filter specified by a Route rule is invalid, the rest
    /// of the rules within that Route should still be supported.
    ///
    /// Support: Core
    #[kube(default = AllowedRoutes { namespaces: Some(RouteNamespaces { from: Some("Same".into()), selector: None }), kinds: Vec::new() })]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allowed_routes: Option<AllowedRoutes>,
}

/// ProtocolType defines the application protocol accepted by a Listener.
/// Implementations are not required to accept all the defined protocols. If an
/// implementation does not support a specified protocol, it MUST set the
/// "Accepted" condition to False for the affected Listener with a reason of
/// "UnsupportedProtocol".
///
/// Core ProtocolType values are listed in the table below.
///
/// Implementations can define their own protocols if a core ProtocolType does not
/// exist. Such definitions must use prefixed name, such as
/// `mycompany.com/my-custom-protocol`. Un-prefixed names are reserved for core
/// protocols. Any protocol defined by implementations will fall under
/// Implementation-specific conformance.
///
/// Valid values include:
///
/// * "HTTP" - Core support
/// * "example.com/bar" - Implementation-specific support
///
/// Invalid values include:
///
/// * "example.com" - must include path if domain is used
/// * "foo.example.com" - must include path if domain is used
#[derive(ApiType, Serialize, Deserialize, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[serde(transparent)]
pub struct ProtocolType(
    #[kube(
        min_length = 1,
        max_length = 255,
        pattern = r"^[a-zA-Z0-9]([-a-zA-Z0-9]*[a-zA-Z0-9])?$|[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/[A-Za-z0-9]+$"
    )]
    pub String,
);

/// GatewayBackendTLS describes backend TLS configuration for gateway.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct GatewayBackendTLS {
    /// ClientCertificateRef references an object that contains a client certificate
    /// and its associated private key. It can reference standard Kubernetes resources,
    /// i.e., Secret, or implementation-specific custom resources.
    ///
    /// A ClientCertificateRef is considered invalid if:
    ///
    /// * It refers to a resource that cannot be resolved (e.g., the referenced resource
    ///   does not exist) or is misconfigured (e.g., a Secret does not contain the keys
    ///   named `tls.crt` and `tls.key`). In this case, the `ResolvedRefs` condition
    ///   on the Gateway MUST be set to False with the Reason `InvalidClientCertificateRef`
    ///   and the Message of the Condition MUST indicate why the reference is invalid.
    ///
    /// * It refers to a resource in another namespace UNLESS there is a ReferenceGrant
    ///   in the target namespace that allows the certificate to be attached.
    ///   If a ReferenceGrant does not allow this reference, the `ResolvedRefs` condition
    ///   on the Gateway MUST be set to False with the Reason `RefNotPermitted`.
    ///
    /// Implementations MAY choose to perform further validation of the certificate
    /// content (e.g., checking expiry or enforcing specific formats). In such cases,
    /// an implementation-specific Reason and Message MUST be set.
    ///
    /// Support: Core - Reference to a Kubernetes TLS Secret (with the type `kubernetes.io/tls`).
    /// Support: Implementation-specific - Other resource kinds or Secrets with a
    /// different type (e.g., `Opaque`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_certificate_ref: Option<SecretObjectReference>,
}

/// ListenerTLSConfig describes a TLS configuration for a listener.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[kube(validation(
    rule = "self.mode == 'Terminate' ? size(self.certificateRefs) > 0 || size(self.options) > 0 : true",
    message = "certificateRefs or options must be specified when mode is Terminate"
))]
#[serde(rename_all = "camelCase")]
pub struct ListenerTLSConfig {
    /// Mode defines the TLS behavior for the TLS session initiated by the client.
    /// There are two possible modes:
    ///
    /// - Terminate: The TLS session between the downstream client and the
    ///   Gateway is terminated at the Gateway. This mode requires certificates
    ///   to be specified in some way, such as populating the certificateRefs
    ///   field.
    /// - Passthrough: The TLS session is NOT terminated by the Gateway. This
    ///   implies that the Gateway can't decipher the TLS stream except for
    ///   the ClientHello message of the TLS protocol. The certificateRefs field
    ///   is ignored in this mode.
    ///
    /// Support: Core
    #[kube(default = TLSModeType::Terminate)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<TLSModeType>,

    /// CertificateRefs contains a series of references to Kubernetes objects that
    /// contains TLS certificates and private keys. These certificates are used to
    /// establish a TLS handshake for requests that match the hostname of the
    /// associated listener.
    ///
    /// A single CertificateRef to a Kubernetes Secret has "Core" support.
    /// Implementations MAY choose to support attaching multiple certificates to
    /// a Listener, but this behavior is implementation-specific.
    ///
    /// References to a resource in different namespace are invalid UNLESS there
    /// is a ReferenceGrant in the target namespace that allows the certificate
    /// to be attached. If a ReferenceGrant does not allow this reference, the
    /// "ResolvedRefs" condition MUST be set to False for this listener with the
    /// "RefNotPermitted" reason.
    ///
    /// This field is required to have at least one element when the mode is set
    /// to "Terminate" (default) and is optional otherwise.
    ///
    /// CertificateRefs can reference to standard Kubernetes resources, i.e.
    /// Secret, or implementation-specific custom resources.
    ///
    /// Support: Core - A single reference to a Kubernetes Secret of type kubernetes.io/tls
    ///
    /// Support: Implementation-specific (More than one reference or other resource types)
    #[kube(list_type = "atomic", max_items = 64)]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub certificate_refs: Vec<SecretObjectReference>,

    /// Options are a list of key/value pairs to enable extended TLS
    /// configuration for each implementation. For example, configuring the
    /// minimum TLS version or supported cipher suites.
    ///
    /// A set of common keys MAY be defined by the API in the future. To avoid
    /// any ambiguity, implementation-specific definitions MUST use
    /// domain-prefixed names, such as `example.com/my-custom-option`.
    /// Un-prefixed names are reserved for key names defined by Gateway API.
    ///
    /// Support: Implementation-specific
    // controller-gen writes nothing of the key type into the schema.
    #[kube(max_properties = 16)]
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub options: BTreeMap<AnnotationKey, AnnotationValue>,
}

/// GatewayTLSConfig specifies frontend and backend tls configuration for gateway.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct GatewayTLSConfig {
    /// Backend describes TLS configuration for gateway when connecting
    /// to backends.
    ///
    /// Note that this contains only details for the Gateway as a TLS client,
    /// and does _not_ imply behavior about how to choose which backend should
    /// get a TLS connection. That is determined by the presence of a BackendTLSPolicy.
    ///
    /// Support: Core
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub backend: Option<GatewayBackendTLS>,

    /// Frontend describes TLS config when client connects to Gateway.
    /// Support: Core
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub frontend: Option<FrontendTLSConfig>,
}

/// FrontendTLSConfig specifies frontend tls configuration for gateway.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct FrontendTLSConfig {
    /// Default specifies the default client certificate validation configuration
    /// for all Listeners handling HTTPS traffic, unless a per-port configuration
    /// is defined.
    ///
    /// support: Core
    pub default: TLSConfig,

    /// PerPort specifies tls configuration assigned per port.
    /// Per port configuration is optional. Once set this configuration overrides
    /// the default configuration for all Listeners handling HTTPS traffic
    /// that match this port.
    /// Each override port requires a unique TLS configuration.
    ///
    /// support: Core
    #[kube(list_type = "map", list_map_keys = ["port"], max_items = 64, validation(rule = "self.all(t1, self.exists_one(t2, t1.port == t2.port))", message = "Port for TLS configuration must be unique within the Gateway"))]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub per_port: Vec<TLSPortConfig>,
}

/// TLSModeType type defines how a Gateway handles TLS sessions.
#[derive(ApiType, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub enum TLSModeType {
    Terminate,
    Passthrough,
}

/// TLSConfig describes TLS configuration that can apply to multiple Listeners
/// within this Gateway. Currently, it stores only the client certificate validation
/// configuration, but this may be extended in the future.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct TLSConfig {
    /// Validation holds configuration information for validating the frontend (client).
    /// Setting this field will result in mutual authentication when connecting to the gateway.
    /// In browsers this may result in a dialog appearing
    /// that requests a user to specify the client certificate.
    /// The maximum depth of a certificate chain accepted in verification is Implementation specific.
    ///
    /// Support: Core
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub validation: Option<FrontendTLSValidation>,
}

#[derive(ApiType, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct TLSPortConfig {
    /// The Port indicates the Port Number to which the TLS configuration will be
    /// applied. This configuration will be applied to all Listeners handling HTTPS
    /// traffic that match this port.
    ///
    /// Support: Core
    #[kube(minimum = 1, maximum = 65535)]
    pub port: PortNumber,

    /// TLS store the configuration that will be applied to all Listeners handling
    /// HTTPS traffic and matching given port.
    ///
    /// Support: Core
    pub tls: TLSConfig,
}

/// FrontendTLSValidation holds configuration information that can be used to validate
/// the frontend initiating the TLS connection
#[derive(ApiType, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct FrontendTLSValidation {
    /// CACertificateRefs contains one or more references to Kubernetes
    /// objects that contain a PEM-encoded TLS CA certificate bundle, which
    /// is used as a trust anchor to validate the certificates presented by
    /// the client.
    ///
    /// A CACertificateRef is invalid if:
    ///
    /// * It refers to a resource that cannot be resolved (e.g., the
    ///   referenced resource does not exist) or is misconfigured (e.g., a
    ///   ConfigMap does not contain a key named `ca.crt`). In this case, the
    ///   Reason on all matching HTTPS listeners must be set to `InvalidCACertificateRef`
    ///   and the Message of the Condition must indicate which reference is invalid and why.
    ///
    /// * It refers to an unknown or unsupported kind of resource. In this
    ///   case, the Reason on all matching HTTPS listeners must be set to
    ///   `InvalidCACertificateKind` and the Message of the Condition must explain
    ///   which kind of resource is unknown or unsupported.
    ///
    /// * It refers to a resource in another namespace UNLESS there is a
    ///   ReferenceGrant in the target namespace that allows the CA
    ///   certificate to be attached. If a ReferenceGrant does not allow this
    ///   reference, the `ResolvedRefs` on all matching HTTPS listeners condition
    ///   MUST be set with the Reason `RefNotPermitted`.
    ///
    /// Implementations MAY choose to perform further validation of the
    /// certificate content (e.g., checking expiry or enforcing specific formats).
    /// In such cases, an implementation-specific Reason and Message MUST be set.
    ///
    /// In all cases, the implementation MUST ensure that the `ResolvedRefs`
    /// condition is set to `status: False` on all targeted listeners (i.e.,
    /// listeners serving HTTPS on a matching port). The condition MUST
    /// include a Reason and Message that indicate the cause of the error. If
    /// ALL CACertificateRefs are invalid, the implementation MUST also ensure
    /// the `Accepted` condition on the listener is set to `status: False`, with
    /// the Reason `NoValidCACertificate`.
    /// Implementations MAY choose to support attaching multiple CA certificates
    /// to a listener, but this behavior is implementation-specific.
    ///
    /// Support: Core - A single reference to a Kubernetes ConfigMap, with the
    /// CA certificate in a key named `ca.crt`.
    ///
    /// Support: Implementation-specific - More than one reference, other kinds
    /// of resources, or a single reference that includes multiple certificates.
    #[kube(list_type = "atomic", max_items = 16, min_items = 1)]
    pub ca_certificate_refs: Vec<ObjectReference>,

    /// FrontendValidationMode defines the mode for validating the client certificate.
    /// There are two possible modes:
    ///
    /// - AllowValidOnly: In this mode, the gateway will accept connections only if
    ///   the client presents a valid certificate. This certificate must successfully
    ///   pass validation against the CA certificates specified in `CACertificateRefs`.
    /// - AllowInsecureFallback: In this mode, the gateway will accept connections
    ///   even if the client certificate is not presented or fails verification.
    ///
    ///   This approach delegates client authorization to the backend and introduce
    ///   a significant security risk. It should be used in testing environments or
    ///   on a temporary basis in non-testing environments.
    ///
    /// Defaults to AllowValidOnly.
    ///
    /// Support: Core
    #[kube(default = FrontendValidationModeType::AllowValidOnly)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<FrontendValidationModeType>,
}

/// FrontendValidationModeType type defines how a Gateway validates client certificates.
#[derive(ApiType, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrontendValidationModeType {
    AllowValidOnly,
    AllowInsecureFallback,
}

/// AllowedRoutes defines which Routes may be attached to this Listener.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct AllowedRoutes {
    /// Namespaces indicates namespaces from which Routes may be attached to this
    /// Listener. This is restricted to the namespace of this Gateway by default.
    ///
    /// Support: Core
    #[kube(default = RouteNamespaces { from: Some("Same".into()), selector: None })]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub namespaces: Option<RouteNamespaces>,

    /// Kinds specifies the groups and kinds of Routes that are allowed to bind
    /// to this Gateway Listener. When unspecified or empty, the kinds of Routes
    /// selected are determined using the Listener protocol.
    ///
    /// A RouteGroupKind MUST correspond to kinds of Routes that are compatible
    /// with the application protocol specified in the Listener's Protocol field.
    /// If an implementation does not support or recognize this resource type, it
    /// MUST set the "ResolvedRefs" condition to False for this Listener with the
    /// "InvalidRouteKinds" reason.
    ///
    /// Support: Core
    #[kube(list_type = "atomic", max_items = 8)]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub kinds: Vec<RouteGroupKind>,
}

/// FromNamespaces specifies namespace from which Routes/ListenerSets may be attached to a
/// Gateway.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[serde(transparent)]
pub struct FromNamespaces(pub String);

/// RouteNamespaces indicate which namespaces Routes should be selected from.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct RouteNamespaces {
    /// From indicates where Routes will be selected for this Gateway. Possible
    /// values are:
    ///
    /// * All: Routes in all namespaces may be used by this Gateway.
    /// * Selector: Routes in namespaces selected by the selector may be used by
    ///   this Gateway.
    /// * Same: Only Routes in the same namespace may be used by this Gateway.
    ///
    /// Support: Core
    #[kube(default = "Same", enum = ["All", "Selector", "Same"])]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<FromNamespaces>,

    /// Selector must be specified when From is set to "Selector". In that case,
    /// only Routes in Namespaces matching this Selector will be selected by this
    /// Gateway. This field is ignored for other values of "From".
    ///
    /// Support: Core
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selector: Option<LabelSelector>,
}

/// RouteGroupKind indicates the group and kind of a Route resource.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct RouteGroupKind {
    /// Group is the group of the Route.
    #[kube(default = "gateway.networking.k8s.io")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<Group>,

    /// Kind is the kind of the Route.
    pub kind: Kind,
}

/// GatewaySpecAddress describes an address that can be bound to a Gateway.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[kube(validation(
    rule = r#"self.type == 'Hostname' ? (!has(self.value) || self.value.matches(r"""^(\*\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$""")): true"#,
    message = r"Hostname value must be empty or contain only valid characters (matching ^(\*\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$)"
))]
#[serde(rename_all = "camelCase")]
pub struct GatewaySpecAddress {
    /// Type of the address.
    #[kube(default = "IPAddress")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub r#type: Option<AddressType>,

    /// When a value is unspecified, an implementation SHOULD automatically
    /// assign an address matching the requested type if possible.
    ///
    /// If an implementation does not support an empty value, they MUST set the
    /// "Programmed" condition in status to False with a reason of "AddressNotAssigned".
    ///
    /// Examples: `1.2.3.4`, `128::1`, `my-ip-address`.
    #[kube(max_length = 253)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
}

/// GatewayStatusAddress describes a network address that is bound to a Gateway.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[kube(validation(
    rule = r#"self.type == 'Hostname' ? self.value.matches(r"""^(\*\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$"""): true"#,
    message = r"Hostname value must only contain valid characters (matching ^(\*\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$)"
))]
#[serde(rename_all = "camelCase")]
pub struct GatewayStatusAddress {
    /// Type of the address.
    #[kube(default = "IPAddress")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub r#type: Option<AddressType>,

    /// Value of the address. The validity of the values will depend
    /// on the type and support by the controller.
    ///
    /// Examples: `1.2.3.4`, `128::1`, `my-ip-address`.
    #[kube(min_length = 1, max_length = 253)]
    pub value: String,
}

/// GatewayStatus defines the observed state of Gateway.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct GatewayStatus {
    /// Addresses lists the network addresses that have been bound to the
    /// Gateway.
    ///
    /// This list may differ from the addresses provided in the spec under some
    /// conditions:
    ///
    ///   * no addresses are specified, all addresses are dynamically assigned
    ///   * a combination of specified and dynamic addresses are assigned
    ///   * a specified address was unusable (e.g. already in use)
    // <gateway:validateIPAddress>
    #[kube(schema_with = ip_validated_list::<GatewayStatusAddress>)]
    #[kube(list_type = "atomic", max_items = 16)]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub addresses: Vec<GatewayStatusAddress>,

    /// Conditions describe the current conditions of the Gateway.
    ///
    /// Implementations should prefer to express Gateway conditions
    /// using the `GatewayConditionType` and `GatewayConditionReason`
    /// constants so that operators and tools can converge on a common
    /// vocabulary to describe Gateway state.
    ///
    /// Known condition types are:
    ///
    /// * "Accepted"
    /// * "Programmed"
    /// * "Ready"
    #[kube(list_type = "map", list_map_keys = ["type"], max_items = 8, default = pending_conditions())]
    #[serde(default, skip_serializing_if = "Conditions::is_empty")]
    pub conditions: Conditions,

    /// Listeners provide status for each unique listener port defined in the Spec.
    #[kube(list_type = "map", list_map_keys = ["name"], max_items = 64)]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub listeners: Vec<ListenerStatus>,

    /// AttachedListenerSets represents the total number of ListenerSets that have been
    /// successfully attached to this Gateway.
    ///
    /// A ListenerSet is successfully attached to a Gateway when all the following conditions are met:
    /// - The ListenerSet is selected by the Gateway's AllowedListeners field
    /// - The ListenerSet has a valid ParentRef selecting the Gateway
    /// - The ListenerSet's status has the condition "Accepted: true"
    ///
    /// Uses for this field include troubleshooting AttachedListenerSets attachment and
    /// measuring blast radius/impact of changes to a Gateway.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attached_listener_sets: Option<i32>,
}

/// GatewayInfrastructure defines infrastructure level attributes about a Gateway instance.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct GatewayInfrastructure {
    /// Labels that SHOULD be applied to any resources created in response to this Gateway.
    ///
    /// For implementations creating other Kubernetes objects, this should be the `metadata.labels` field on resources.
    /// For other implementations, this refers to any relevant (implementation specific) "labels" concepts.
    ///
    /// An implementation may chose to add additional implementation-specific labels as they see fit.
    ///
    /// If an implementation maps these labels to Pods, or any other resource that would need to be recreated when labels
    /// change, it SHOULD clearly warn about this behavior in documentation.
    ///
    /// Support: Extended
    // controller-gen writes nothing of the key type into the schema.
    #[kube(
        max_properties = 8,
        validation(
            rule = r#"self.all(key, key.matches(r"""^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?([A-Za-z0-9][-A-Za-z0-9_.]{0,61})?[A-Za-z0-9]$"""))"#,
            message = "Label keys must be in the form of an optional DNS subdomain prefix followed by a required name segment of up to 63 characters."
        ),
        validation(
            rule = r#"self.all(key, key.split("/")[0].size() < 253)"#,
            message = "If specified, the label key's prefix must be a DNS subdomain not longer than 253 characters in total."
        )
    )]
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub labels: BTreeMap<LabelKey, LabelValue>,

    /// Annotations that SHOULD be applied to any resources created in response to this Gateway.
    ///
    /// For implementations creating other Kubernetes objects, this should be the `metadata.annotations` field on resources.
    /// For other implementations, this refers to any relevant (implementation specific) "annotations" concepts.
    ///
    /// An implementation may chose to add additional implementation-specific annotations as they see fit.
    ///
    /// Support: Extended
    // controller-gen writes nothing of the key type into the schema.
    #[kube(
        max_properties = 16,
        validation(
            rule = r#"self.all(key, key.matches(r"""^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?([A-Za-z0-9][-A-Za-z0-9_.]{0,61})?[A-Za-z0-9]$"""))"#,
            message = "Annotation keys must be in the form of an optional DNS subdomain prefix followed by a required name segment of up to 63 characters."
        ),
        validation(
            rule = r#"self.all(key, key.split("/")[0].size() < 253)"#,
            message = "If specified, the annotation key's prefix must be a DNS subdomain not longer than 253 characters in total."
        )
    )]
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub annotations: BTreeMap<AnnotationKey, AnnotationValue>,

    /// ParametersRef is a reference to a resource that contains the configuration
    /// parameters corresponding to the Gateway. This is optional if the
    /// controller does not require any additional configuration.
    ///
    /// This follows the same semantics as GatewayClass's `parametersRef`, but on a per-Gateway basis
    ///
    /// The Gateway's GatewayClass may provide its own `parametersRef`. When both are specified,
    /// the merging behavior is implementation specific.
    /// It is generally recommended that GatewayClass provides defaults that can be overridden by a Gateway.
    ///
    /// If the referent cannot be found, refers to an unsupported kind, or when
    /// the data within that resource is malformed, the Gateway SHOULD be
    /// rejected with the "Accepted" status condition set to "False" and an
    /// "InvalidParameters" reason.
    ///
    /// Support: Implementation-specific
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parameters_ref: Option<LocalParametersReference>,
}

/// LocalParametersReference identifies an API object containing controller-specific
/// configuration resource within the namespace.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct LocalParametersReference {
    /// Group is the group of the referent.
    pub group: Group,

    /// Kind is kind of the referent.
    pub kind: Kind,

    /// Name is the name of the referent.
    #[kube(min_length = 1, max_length = 253)]
    pub name: String,
}

/// ListenerStatus is the status associated with a Listener.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ListenerStatus {
    /// Name is the name of the Listener that this status corresponds to.
    pub name: SectionName,

    /// SupportedKinds is the list indicating the Kinds supported by this
    /// listener. This MUST represent the kinds supported by an implementation for
    /// that Listener configuration.
    ///
    /// If kinds are specified in Spec that are not supported, they MUST NOT
    /// appear in this list and an implementation MUST set the "ResolvedRefs"
    /// condition to "False" with the "InvalidRouteKinds" reason. If both valid
    /// and invalid Route kinds are specified, the implementation MUST
    /// reference the valid Route kinds that have been specified.
    #[kube(list_type = "atomic", max_items = 8)]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub supported_kinds: Vec<RouteGroupKind>,

    /// AttachedRoutes represents the total number of Routes that have been
    /// successfully attached to this Listener.
    ///
    /// Successful attachment of a Route to a Listener is based solely on the
    /// combination of the AllowedRoutes field on the corresponding Listener
    /// and the Route's ParentRefs field. A Route is successfully attached to
    /// a Listener when it is selected by the Listener's AllowedRoutes field
    /// AND the Route has a valid ParentRef selecting the whole Gateway
    /// resource or a specific Listener as a parent resource (more detail on
    /// attachment semantics can be found in the documentation on the various
    /// Route kinds ParentRefs fields). Listener or Route status does not impact
    /// successful attachment, i.e. the AttachedRoutes field count MUST be set
    /// for Listeners, even if the Accepted condition of an individual Listener is set
    /// to "False". The AttachedRoutes number represents the number of Routes with
    /// the Accepted condition set to "True" that have been attached to this Listener.
    /// Routes with any other value for the Accepted condition MUST NOT be included
    /// in this count.
    ///
    /// Uses for this field include troubleshooting Route attachment and
    /// measuring blast radius/impact of changes to a Listener.
    pub attached_routes: i32,

    /// Conditions describe the current condition of this listener.
    #[kube(list_type = "map", list_map_keys = ["type"], max_items = 8)]
    pub conditions: Conditions,
}

/// The two versions have the same fields, so converting moves them across.
macro_rules! convert_gateway {
    ($from:ident => $to:ident) => {
        impl From<$from::Gateway> for $to::Gateway {
            fn from(g: $from::Gateway) -> Self {
                let s = g.spec;
                Self {
                    metadata: g.metadata,
                    spec: $to::GatewaySpec {
                        gateway_class_name: s.gateway_class_name,
                        listeners: s.listeners,
                        addresses: s.addresses,
                        infrastructure: s.infrastructure,
                        allowed_listeners: s.allowed_listeners,
                        tls: s.tls,
                    },
                    status: g.status,
                }
            }
        }
    };
}

convert_gateway!(v1beta1 => v1);
convert_gateway!(v1 => v1beta1);
