//! The tables of the core (`v1`) built-in kinds.

use super::*;

/// The core group's kinds with a table.
pub(super) const CORE: &[Kind] = &[
    // podColumnDefinitions: NAME READY STATUS RESTARTS AGE, IP and NODE
    // wide (upstream's NOMINATED NODE and READINESS GATES are not served).
    Kind {
        group: "",
        plural: "pods",
        columns: &[
            NAME,
            column(
                "Ready",
                "string",
                "The aggregate readiness state of this pod for accepting traffic.",
            ),
            column(
                "Status",
                "string",
                "The aggregate status of the containers in this pod.",
            ),
            column(
                "Restarts",
                "string",
                "The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.",
            ),
            AGE,
            wide(
                "IP",
                "string",
                "podIP address allocated to the pod. Routable at least within the cluster. Empty if not yet allocated.",
            ),
            wide(
                "Node",
                "string",
                "NodeName indicates in which node this pod is scheduled. If empty, this pod is a candidate for scheduling by the scheduler defined in schedulerName. Once this field is set, the kubelet for this node becomes responsible for the lifecycle of this pod. This field should not be used to express a desire for the pod to be scheduled on a specific node. https://kubernetes.io/docs/concepts/scheduling-eviction/assign-pod-node/#nodename",
            ),
        ],
        printer: print_pod,
    },
    // configMapColumnDefinitions.
    Kind {
        group: "",
        plural: "configmaps",
        columns: &[
            NAME,
            column(
                "Data",
                "string",
                "Data contains the configuration data. Each key must consist of alphanumeric characters, '-', '_' or '.'. Values with non-UTF-8 byte sequences must use the BinaryData field. The keys stored in Data must not overlap with the keys in the BinaryData field, this is enforced during validation process.",
            ),
            AGE,
        ],
        printer: print_config_map,
    },
    // endpointColumnDefinitions.
    Kind {
        group: "",
        plural: "endpoints",
        columns: &[
            NAME,
            column(
                "Endpoints",
                "string",
                "The set of all endpoints is the union of all subsets. Addresses are placed into subsets according to the IPs they share. A single address with multiple ports, some of which are ready and some of which are not (because they come from different containers) will result in the address being displayed in different subsets for the different ports. No address will appear in both Addresses and NotReadyAddresses in the same subset. Sets of addresses and ports that comprise a service.",
            ),
            AGE,
        ],
        printer: print_endpoints,
    },
    // eventColumnDefinitions: LAST SEEN TYPE REASON OBJECT MESSAGE, and
    // SUBOBJECT, SOURCE, FIRST SEEN, COUNT and NAME wide; the name comes
    // last.
    Kind {
        group: "",
        plural: "events",
        columns: EVENT_COLUMNS,
        printer: print_event,
    },
    // LimitRanges have no printer: their REST storage serves
    // `rest.NewDefaultTableConvertor`'s NAME and CREATED AT
    // (k8s.io/apiserver `pkg/registry/rest/table.go`).
    Kind {
        group: "",
        plural: "limitranges",
        columns: &[
            NAME,
            column("Created At", "date", CREATION_TIMESTAMP_DESCRIPTION),
        ],
        printer: print_default,
    },
    // nodeColumnDefinitions.
    Kind {
        group: "",
        plural: "nodes",
        columns: &[
            NAME,
            column("Status", "string", "The status of the node"),
            column("Roles", "string", "The roles of the node"),
            AGE,
            column("Version", "string", "Kubelet Version reported by the node."),
            wide(
                "Internal-IP",
                "string",
                "List of addresses reachable to the node. Queried from cloud provider, if available. More info: https://kubernetes.io/docs/reference/node/node-status/#addresses Note: This field is declared as mergeable, but the merge key is not sufficiently unique, which can cause data corruption when it is merged. Callers should instead use a full-replacement patch. See https://pr.k8s.io/79391 for an example. Consumers should assume that addresses can change during the lifetime of a Node. However, there are some exceptions where this may not be possible, such as Pods that inherit a Node's address in its own status or consumers of the downward API (status.hostIP).",
            ),
            wide(
                "External-IP",
                "string",
                "List of addresses reachable to the node. Queried from cloud provider, if available. More info: https://kubernetes.io/docs/reference/node/node-status/#addresses Note: This field is declared as mergeable, but the merge key is not sufficiently unique, which can cause data corruption when it is merged. Callers should instead use a full-replacement patch. See https://pr.k8s.io/79391 for an example. Consumers should assume that addresses can change during the lifetime of a Node. However, there are some exceptions where this may not be possible, such as Pods that inherit a Node's address in its own status or consumers of the downward API (status.hostIP).",
            ),
            wide(
                "OS-Image",
                "string",
                "OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 (wheezy)).",
            ),
            wide(
                "Kernel-Version",
                "string",
                "Kernel Version reported by the node from 'uname -r' (e.g. 3.16.0-0.bpo.4-amd64).",
            ),
            wide(
                "Container-Runtime",
                "string",
                "ContainerRuntime Version reported by the node through runtime remote API (e.g. containerd://1.4.2).",
            ),
        ],
        printer: print_node,
    },
    // persistentVolumeColumnDefinitions.
    Kind {
        group: "",
        plural: "persistentvolumes",
        columns: &[
            NAME,
            column(
                "Capacity",
                "string",
                "capacity is the description of the persistent volume's resources and capacity. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#capacity",
            ),
            column(
                "Access Modes",
                "string",
                "accessModes contains all ways the volume can be mounted. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#access-modes",
            ),
            column(
                "Reclaim Policy",
                "string",
                "persistentVolumeReclaimPolicy defines what happens to a persistent volume when released from its claim. Valid options are Retain (default for manually created PersistentVolumes), Delete (default for dynamically provisioned PersistentVolumes), and Recycle (deprecated). Recycle must be supported by the volume plugin underlying this PersistentVolume. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#reclaiming",
            ),
            column(
                "Status",
                "string",
                "phase indicates if a volume is available, bound to a claim, or released by a claim. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#phase",
            ),
            column(
                "Claim",
                "string",
                "claimRef is part of a bi-directional binding between PersistentVolume and PersistentVolumeClaim. Expected to be non-nil when bound. claim.VolumeName is the authoritative bind between PV and PVC. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#binding",
            ),
            column("StorageClass", "string", "StorageClass of the pv"),
            column(
                "VolumeAttributesClass",
                "string",
                "VolumeAttributesClass of the pv",
            ),
            column(
                "Reason",
                "string",
                "reason is a brief CamelCase string that describes any failure and is meant for machine parsing and tidy display in the CLI.",
            ),
            AGE,
            wide(
                "VolumeMode",
                "string",
                "volumeMode defines if a volume is intended to be used with a formatted filesystem or to remain in raw block state. Value of Filesystem is implied when not included in spec.",
            ),
        ],
        printer: print_persistent_volume,
    },
    // persistentVolumeClaimColumnDefinitions.
    Kind {
        group: "",
        plural: "persistentvolumeclaims",
        columns: &[
            NAME,
            column(
                "Status",
                "string",
                "phase represents the current phase of PersistentVolumeClaim.",
            ),
            column(
                "Volume",
                "string",
                "volumeName is the binding reference to the PersistentVolume backing this claim.",
            ),
            column(
                "Capacity",
                "string",
                "capacity represents the actual resources of the underlying volume.",
            ),
            column(
                "Access Modes",
                "string",
                "accessModes contains the actual access modes the volume backing the PVC has. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#access-modes-1",
            ),
            column("StorageClass", "string", "StorageClass of the pvc"),
            column(
                "VolumeAttributesClass",
                "string",
                "VolumeAttributesClass of the pvc",
            ),
            AGE,
            wide(
                "VolumeMode",
                "string",
                "volumeMode defines what type of volume is required by the claim. Value of Filesystem is implied when not included in claim spec.",
            ),
        ],
        printer: print_persistent_volume_claim,
    },
    // podTemplateColumnDefinitions.
    Kind {
        group: "",
        plural: "podtemplates",
        columns: &[
            NAME,
            column(
                "Containers",
                "string",
                "Names of each container in the template.",
            ),
            column(
                "Images",
                "string",
                "Images referenced by each container in the template.",
            ),
            column("Pod Labels", "string", "The labels for the pod template."),
        ],
        printer: print_pod_template,
    },
    // replicationControllerColumnDefinitions.
    Kind {
        group: "",
        plural: "replicationcontrollers",
        columns: &[
            NAME,
            column(
                "Desired",
                "integer",
                "Replicas is the number of desired replicas. This is a pointer to distinguish between explicit zero and unspecified. Defaults to 1. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicationcontroller#what-is-a-replicationcontroller",
            ),
            column(
                "Current",
                "integer",
                "Replicas is the most recently observed number of replicas. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicationcontroller#what-is-a-replicationcontroller",
            ),
            column(
                "Ready",
                "integer",
                "The number of ready replicas for this replication controller.",
            ),
            AGE,
            CONTAINERS,
            IMAGES,
            wide(
                "Selector",
                "string",
                "Selector is a label query over pods that should match the Replicas count. If Selector is empty, it is defaulted to the labels present on the Pod template. Label keys and values that must match in order to be controlled by this replication controller, if empty defaulted to labels on Pod template. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors",
            ),
        ],
        printer: print_replication_controller,
    },
    // resourceQuotaColumnDefinitions.
    Kind {
        group: "",
        plural: "resourcequotas",
        columns: &[
            NAME,
            column(
                "Request",
                "string",
                "Request represents a minimum amount of cpu/memory that a container may consume.",
            ),
            column(
                "Limit",
                "string",
                "Limits control the maximum amount of cpu/memory that a container may use independent of contention on the node.",
            ),
            AGE,
        ],
        printer: print_resource_quota,
    },
    // secretColumnDefinitions.
    Kind {
        group: "",
        plural: "secrets",
        columns: &[
            NAME,
            column(
                "Type",
                "string",
                "Used to facilitate programmatic handling of secret data. More info: https://kubernetes.io/docs/concepts/configuration/secret/#secret-types",
            ),
            column(
                "Data",
                "string",
                "Data contains the secret data. Each key must consist of alphanumeric characters, '-', '_' or '.'. The serialized form of the secret data is a base64 encoded string, representing the arbitrary (possibly non-string) data value here. Described in https://tools.ietf.org/html/rfc4648#section-4",
            ),
            AGE,
        ],
        printer: print_secret,
    },
    // serviceColumnDefinitions.
    Kind {
        group: "",
        plural: "services",
        columns: &[
            NAME,
            column(
                "Type",
                "string",
                "type determines how the Service is exposed. Defaults to ClusterIP. Valid options are ExternalName, ClusterIP, NodePort, and LoadBalancer. \"ClusterIP\" allocates a cluster-internal IP address for load-balancing to endpoints. Endpoints are determined by the selector or if that is not specified, by manual construction of an Endpoints object or EndpointSlice objects. If clusterIP is \"None\", no virtual IP is allocated and the endpoints are published as a set of endpoints rather than a virtual IP. \"NodePort\" builds on ClusterIP and allocates a port on every node which routes to the same endpoints as the clusterIP. \"LoadBalancer\" builds on NodePort and creates an external load-balancer (if supported in the current cloud) which routes to the same endpoints as the clusterIP. \"ExternalName\" aliases this service to the specified externalName. Several other fields do not apply to ExternalName services. More info: https://kubernetes.io/docs/concepts/services-networking/service/#publishing-services-service-types",
            ),
            column(
                "Cluster-IP",
                "string",
                "clusterIP is the IP address of the service and is usually assigned randomly. If an address is specified manually, is in-range (as per system configuration), and is not in use, it will be allocated to the service; otherwise creation of the service will fail. This field may not be changed through updates unless the type field is also being changed to ExternalName (which requires this field to be blank) or the type field is being changed from ExternalName (in which case this field may optionally be specified, as describe above).  Valid values are \"None\", empty string (\"\"), or a valid IP address. Setting this to \"None\" makes a \"headless service\" (no virtual IP), which is useful when direct endpoint connections are preferred and proxying is not required.  Only applies to types ClusterIP, NodePort, and LoadBalancer. If this field is specified when creating a Service of type ExternalName, creation will fail. This field will be wiped when updating a Service to type ExternalName. More info: https://kubernetes.io/docs/concepts/services-networking/service/#virtual-ips-and-service-proxies",
            ),
            column(
                "External-IP",
                "string",
                "externalIPs is a list of IP addresses for which nodes in the cluster will also accept traffic for this service.  These IPs are not managed by Kubernetes.  The user is responsible for ensuring that traffic arrives at a node with this IP.  A common example is external load-balancers that are not part of the Kubernetes system.",
            ),
            column(
                "Port(s)",
                "string",
                "The list of ports that are exposed by this service. More info: https://kubernetes.io/docs/concepts/services-networking/service/#virtual-ips-and-service-proxies",
            ),
            AGE,
            wide(
                "Selector",
                "string",
                "Route service traffic to pods with label keys and values matching this selector. If empty or not present, the service is assumed to have an external process managing its endpoints, which Kubernetes will not modify. Only applies to types ClusterIP, NodePort, and LoadBalancer. Ignored if type is ExternalName. More info: https://kubernetes.io/docs/concepts/services-networking/service/",
            ),
        ],
        printer: print_service,
    },
    // serviceAccountColumnDefinitions.
    Kind {
        group: "",
        plural: "serviceaccounts",
        columns: &[
            NAME,
            column(
                "Secrets",
                "string",
                "Secrets is a list of the secrets in the same namespace that pods running using this ServiceAccount are allowed to use. Pods are only limited to this list if this service account has a \"kubernetes.io/enforce-mountable-secrets\" annotation set to \"true\". The \"kubernetes.io/enforce-mountable-secrets\" annotation is deprecated since v1.32. Prefer separate namespaces to isolate access to mounted secrets. This field should not be used to find auto-generated service account token secrets for use outside of pods. Instead, tokens can be requested directly using the TokenRequest API, or service account token secrets can be manually created. More info: https://kubernetes.io/docs/concepts/configuration/secret",
            ),
            AGE,
        ],
        printer: print_service_account,
    },
];
