//! The tables kube-apiserver serves for its built-in kinds: one entry per
//! group and resource ([`TABLES`]) with the columns of upstream's
//! `*ColumnDefinitions` (name, type, format, priority and description,
//! the descriptions being k8s.io/api's `SwaggerDoc()` texts where upstream
//! takes them from there) and a printer of the row's cells, after the
//! `print<Kind>` functions of kubernetes
//! `pkg/printers/internalversion/printers.go` (LimitRanges, which have
//! none, get the default table convertor's columns, as their REST storage
//! does).
//!
//! The server's table convertor (`pkg/printers/storage`) always asks the
//! printers for wide output, so every row carries every column, the
//! priority-1 ones included. The objects are JSON as on the wire
//! (camelCase); a missing field, or one of the wrong type, prints as
//! upstream prints the field's zero value.

use api_core::meta::Quantity;
use chrono::{DateTime, Utc};
use serde_json::{Map, Value};

use super::{
    CREATION_TIMESTAMP_DESCRIPTION, NAME_DESCRIPTION, Printer, TableColumnDefinition, age_of,
    human_duration, int_at, since, text_at, time_at,
};

/// A column as upstream declares it in a `*ColumnDefinitions` list.
#[derive(Clone, Copy, Debug)]
struct Column {
    name: &'static str,
    type_: &'static str,
    format: &'static str,
    priority: i32,
    description: &'static str,
}

impl Column {
    fn definition(&self) -> TableColumnDefinition {
        TableColumnDefinition {
            name: self.name.into(),
            type_: self.type_.into(),
            format: self.format.into(),
            description: self.description.into(),
            priority: self.priority,
        }
    }
}

/// A column shown by default.
const fn column(name: &'static str, type_: &'static str, description: &'static str) -> Column {
    Column {
        name,
        type_,
        format: "",
        priority: 0,
        description,
    }
}

/// A column shown with `-o wide` (priority 1).
const fn wide(name: &'static str, type_: &'static str, description: &'static str) -> Column {
    Column {
        priority: 1,
        ..column(name, type_, description)
    }
}

/// `{Name: "Name", Type: "string", Format: "name", Description: metav1.ObjectMeta{}.SwaggerDoc()["name"]}`.
const NAME: Column = Column {
    format: "name",
    ..column("Name", "string", NAME_DESCRIPTION)
};

/// `{Name: "Age", Type: "string", Description: metav1.ObjectMeta{}.SwaggerDoc()["creationTimestamp"]}`.
const AGE: Column = column("Age", "string", CREATION_TIMESTAMP_DESCRIPTION);

/// The wide `Containers` column of the kinds with a pod template.
const CONTAINERS: Column = wide(
    "Containers",
    "string",
    "Names of each container in the template.",
);

/// The wide `Images` column of the kinds with a pod template.
const IMAGES: Column = wide(
    "Images",
    "string",
    "Images referenced by each container in the template.",
);

/// `eventColumnDefinitions` (the descriptions of core/v1's Event), the
/// table of both groups' Events.
const EVENT_COLUMNS: &[Column] = &[
    column(
        "Last Seen",
        "string",
        "The time at which the most recent occurrence of this event was recorded.",
    ),
    column(
        "Type",
        "string",
        "Type of this event (Normal, Warning), new types could be added in the future",
    ),
    column(
        "Reason",
        "string",
        "This should be a short, machine understandable string that gives the reason for the transition into the object's current status.",
    ),
    column("Object", "string", "The object that this event is about."),
    wide(
        "Subobject",
        "string",
        "If referring to a piece of an object instead of an entire object, this string should contain a valid JSON/Go field access statement, such as desiredState.manifest.containers[2]. For example, if the object reference is to a container within a pod, this would take on a value like: \"spec.containers{name}\" (where \"name\" refers to the name of the container that triggered the event) or if no container name is specified \"spec.containers[2]\" (container with index 2 in this pod). This syntax is chosen only to have some well-defined way of referencing a part of an object.",
    ),
    wide(
        "Source",
        "string",
        "The component reporting this event. Should be a short machine understandable string.",
    ),
    column(
        "Message",
        "string",
        "A human-readable description of the status of this operation.",
    ),
    wide(
        "First Seen",
        "string",
        "The time at which the event was first recorded. (Time of server receipt is in TypeMeta.)",
    ),
    wide(
        "Count",
        "string",
        "The number of times this event has occurred.",
    ),
    Column {
        format: "name",
        ..wide("Name", "string", NAME_DESCRIPTION)
    },
];

/// A built-in kind's table.
struct Kind {
    /// API group, `""` for core.
    group: &'static str,
    /// Resource.
    plural: &'static str,
    /// The columns, in the order of the cells.
    columns: &'static [Column],
    /// The row's cells, one per column.
    printer: Printer,
}

/// Every built-in kind with a table, by group and resource.
const TABLES: &[Kind] = &[
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
    // deploymentColumnDefinitions (Up-to-date and Available are of type
    // string there, their cells integers).
    Kind {
        group: "apps",
        plural: "deployments",
        columns: &[
            NAME,
            column("Ready", "string", "Number of the pod with ready state"),
            column(
                "Up-to-date",
                "string",
                "Total number of non-terminating pods targeted by this deployment that have the desired template spec.",
            ),
            column(
                "Available",
                "string",
                "Total number of available non-terminating pods (ready for at least minReadySeconds) targeted by this deployment.",
            ),
            AGE,
            CONTAINERS,
            IMAGES,
            wide(
                "Selector",
                "string",
                "Label selector for pods. Existing ReplicaSets whose pods are selected by this will be the ones affected by this deployment.",
            ),
        ],
        printer: print_deployment,
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
    // controllerRevisionColumnDefinition.
    Kind {
        group: "apps",
        plural: "controllerrevisions",
        columns: &[
            NAME,
            column("Controller", "string", "Controller of the object"),
            column(
                "Revision",
                "string",
                "revision indicates the revision of the state represented by Data.",
            ),
            AGE,
        ],
        printer: print_controller_revision,
    },
    // daemonSetColumnDefinitions.
    Kind {
        group: "apps",
        plural: "daemonsets",
        columns: &[
            NAME,
            column(
                "Desired",
                "integer",
                "The total number of nodes that should be running the daemon pod (including nodes correctly running the daemon pod). More info: https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/",
            ),
            column(
                "Current",
                "integer",
                "The number of nodes that are running at least 1 daemon pod and are supposed to run the daemon pod. More info: https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/",
            ),
            column(
                "Ready",
                "integer",
                "The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and ready.",
            ),
            column(
                "Up-to-date",
                "integer",
                "The total number of nodes that are running updated daemon pod",
            ),
            column(
                "Available",
                "integer",
                "The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and available (ready for at least spec.minReadySeconds)",
            ),
            column(
                "Node Selector",
                "string",
                "NodeSelector is a selector which must be true for the pod to fit on a node. Selector which must match a node's labels for the pod to be scheduled on that node. More info: https://kubernetes.io/docs/concepts/configuration/assign-pod-node/",
            ),
            AGE,
            CONTAINERS,
            IMAGES,
            wide(
                "Selector",
                "string",
                "A label query over pods that are managed by the daemon set. Must match in order to be controlled. If empty, defaulted to labels on Pod template. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors",
            ),
        ],
        printer: print_daemon_set,
    },
    // replicaSetColumnDefinitions.
    Kind {
        group: "apps",
        plural: "replicasets",
        columns: &[
            NAME,
            column(
                "Desired",
                "integer",
                "Replicas is the number of desired pods. This is a pointer to distinguish between explicit zero and unspecified. Defaults to 1. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicaset",
            ),
            column(
                "Current",
                "integer",
                "Replicas is the most recently observed number of non-terminating pods. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicaset",
            ),
            column(
                "Ready",
                "integer",
                "The number of non-terminating pods targeted by this ReplicaSet with a Ready Condition.",
            ),
            AGE,
            CONTAINERS,
            IMAGES,
            wide(
                "Selector",
                "string",
                "Selector is a label query over pods that should match the replica count. If the selector is empty, it is defaulted to the labels present on the pod template. Label keys and values that must match in order to be controlled by this replica set. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors",
            ),
        ],
        printer: print_replica_set,
    },
    // statefulSetColumnDefinitions.
    Kind {
        group: "apps",
        plural: "statefulsets",
        columns: &[
            NAME,
            column("Ready", "string", "Number of the pod with ready state"),
            AGE,
            CONTAINERS,
            IMAGES,
        ],
        printer: print_stateful_set,
    },
    // cronJobColumnDefinitions.
    Kind {
        group: "batch",
        plural: "cronjobs",
        columns: &[
            NAME,
            column(
                "Schedule",
                "string",
                "The schedule in Cron format, see https://en.wikipedia.org/wiki/Cron.",
            ),
            column(
                "Timezone",
                "string",
                "The time zone name for the given schedule, see https://en.wikipedia.org/wiki/List_of_tz_database_time_zones. If not specified, this will default to the time zone of the kube-controller-manager process. The set of valid time zone names and the time zone offset is loaded from the system-wide time zone database by the API server during CronJob validation and the controller manager during execution. If no system-wide time zone database can be found a bundled version of the database is used instead. If the time zone name becomes invalid during the lifetime of a CronJob or due to a change in host configuration, the controller will stop creating new new Jobs and will create a system event with the reason UnknownTimeZone. More information can be found in https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/#time-zones",
            ),
            column(
                "Suspend",
                "boolean",
                "This flag tells the controller to suspend subsequent executions, it does not apply to already started executions.  Defaults to false.",
            ),
            column(
                "Active",
                "integer",
                "A list of pointers to currently running jobs.",
            ),
            column(
                "Last Schedule",
                "string",
                "Information when was the last time the job was successfully scheduled.",
            ),
            AGE,
            CONTAINERS,
            IMAGES,
            wide(
                "Selector",
                "string",
                "A label query over pods that should match the pod count. Normally, the system sets this field for you. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors",
            ),
        ],
        printer: print_cron_job,
    },
    // jobColumnDefinitions: NAME STATUS COMPLETIONS DURATION AGE.
    Kind {
        group: "batch",
        plural: "jobs",
        columns: &[
            NAME,
            column("Status", "string", "Status of the job."),
            column(
                "Completions",
                "string",
                "The number of pods which reached phase Succeeded. The value increases monotonically for a given spec. However, it may decrease in reaction to scale down of elastic indexed jobs.",
            ),
            column("Duration", "string", "Time required to complete the job."),
            AGE,
            CONTAINERS,
            IMAGES,
            wide(
                "Selector",
                "string",
                "A label query over pods that should match the pod count. Normally, the system sets this field for you. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors",
            ),
        ],
        printer: print_job,
    },
    // leaseColumnDefinitions.
    Kind {
        group: "coordination.k8s.io",
        plural: "leases",
        columns: &[
            NAME,
            column(
                "Holder",
                "string",
                "holderIdentity contains the identity of the holder of a current lease. If Coordinated Leader Election is used, the holder identity must be equal to the elected LeaseCandidate.metadata.name field.",
            ),
            AGE,
        ],
        printer: print_lease,
    },
    // events.k8s.io Events are core Events to the apiserver's printer.
    Kind {
        group: "events.k8s.io",
        plural: "events",
        columns: EVENT_COLUMNS,
        printer: print_events_v1_event,
    },
    // ingressColumnDefinitions.
    Kind {
        group: "networking.k8s.io",
        plural: "ingresses",
        columns: &[
            NAME,
            column(
                "Class",
                "string",
                "The name of the IngressClass resource that should be used for additional configuration",
            ),
            column(
                "Hosts",
                "string",
                "Hosts that incoming requests are matched against before the ingress rule",
            ),
            column(
                "Address",
                "string",
                "Address is a list containing ingress points for the load-balancer",
            ),
            column("Ports", "string", "Ports of TLS configurations that open"),
            AGE,
        ],
        printer: print_ingress,
    },
    // ingressClassColumnDefinitions.
    Kind {
        group: "networking.k8s.io",
        plural: "ingressclasses",
        columns: &[
            NAME,
            column(
                "Controller",
                "string",
                "Controller that is responsible for handling this class",
            ),
            column(
                "Parameters",
                "string",
                "A reference to a resource with additional parameters",
            ),
            AGE,
        ],
        printer: print_ingress_class,
    },
    // networkPolicyColumnDefinitioins.
    Kind {
        group: "networking.k8s.io",
        plural: "networkpolicies",
        columns: &[
            NAME,
            column(
                "Pod-Selector",
                "string",
                "Selects the pods to which this NetworkPolicy object applies.  The array of ingress rules is applied to any pods selected by this field. Multiple network policies can select the same set of pods.  In this case, the ingress rules for each are combined additively. This field is NOT optional and follows standard label selector semantics. An empty podSelector matches all pods in this namespace.",
            ),
            AGE,
        ],
        printer: print_network_policy,
    },
    // podDisruptionBudgetColumnDefinitions.
    Kind {
        group: "policy",
        plural: "poddisruptionbudgets",
        columns: &[
            NAME,
            column(
                "Min Available",
                "string",
                "The minimum number of pods that must be available.",
            ),
            column(
                "Max Unavailable",
                "string",
                "The maximum number of pods that may be unavailable.",
            ),
            column(
                "Allowed Disruptions",
                "integer",
                "Calculated number of pods that may be disrupted at this time.",
            ),
            AGE,
        ],
        printer: print_pod_disruption_budget,
    },
    // endpointSliceColumnDefinitions.
    Kind {
        group: "discovery.k8s.io",
        plural: "endpointslices",
        columns: &[
            NAME,
            column(
                "AddressType",
                "string",
                "addressType specifies the type of address carried by this EndpointSlice. All addresses in this slice must be the same type. This field is immutable after creation. The following address types are currently supported: * IPv4: Represents an IPv4 Address. * IPv6: Represents an IPv6 Address. * FQDN: Represents a Fully Qualified Domain Name.",
            ),
            column(
                "Ports",
                "string",
                "ports specifies the list of network ports exposed by each endpoint in this slice. Each port must have a unique name. When ports is empty, it indicates that there are no defined ports. When a port is defined with a nil port value, it indicates \"all ports\". Each slice may include a maximum of 100 ports.",
            ),
            column(
                "Endpoints",
                "string",
                "endpoints is a list of unique endpoints in this slice. Each slice may include a maximum of 1000 endpoints.",
            ),
            AGE,
        ],
        printer: print_endpoint_slice,
    },
    // horizontalPodAutoscalerColumnDefinitions (the descriptions of
    // autoscaling/v2, upstream's autoscaling/v2beta1 being gone from
    // k8s.io/api v0.36).
    Kind {
        group: "autoscaling",
        plural: "horizontalpodautoscalers",
        columns: &[
            NAME,
            column(
                "Reference",
                "string",
                "scaleTargetRef points to the target resource to scale, and is used to the pods for which metrics should be collected, as well as to actually change the replica count.",
            ),
            column(
                "Targets",
                "string",
                "metrics contains the specifications for which to use to calculate the desired replica count (the maximum replica count across all metrics will be used).  The desired replica count is calculated multiplying the ratio between the target value and the current value by the current number of pods.  Ergo, metrics used must decrease as the pod count is increased, and vice-versa.  See the individual metric source types for more information about how each type of metric must respond. If not set, the default metric will be set to 80% average CPU utilization.",
            ),
            column(
                "MinPods",
                "string",
                "minReplicas is the lower limit for the number of replicas to which the autoscaler can scale down.  It defaults to 1 pod.  minReplicas is allowed to be 0 if the alpha feature gate HPAScaleToZero is enabled and at least one Object or External metric is configured.  Scaling is active as long as at least one metric value is available.",
            ),
            column(
                "MaxPods",
                "string",
                "maxReplicas is the upper limit for the number of replicas to which the autoscaler can scale up. It cannot be less that minReplicas.",
            ),
            column(
                "Replicas",
                "string",
                "currentReplicas is current number of replicas of pods managed by this autoscaler, as last seen by the autoscaler.",
            ),
            AGE,
        ],
        printer: print_horizontal_pod_autoscaler,
    },
    // csiDriverColumnDefinitions.
    Kind {
        group: "storage.k8s.io",
        plural: "csidrivers",
        columns: &[
            NAME,
            column(
                "AttachRequired",
                "boolean",
                "attachRequired indicates this CSI volume driver requires an attach operation (because it implements the CSI ControllerPublishVolume() method), and that the Kubernetes attach detach controller should call the attach volume interface which checks the volumeattachment status and waits until the volume is attached before proceeding to mounting. The CSI external-attacher coordinates with CSI volume driver and updates the volumeattachment status when the attach operation is complete. If the value is specified to false, the attach operation will be skipped. Otherwise the attach operation will be called.\n\nThis field is immutable.",
            ),
            column(
                "PodInfoOnMount",
                "boolean",
                "podInfoOnMount indicates this CSI volume driver requires additional pod information (like podName, podUID, etc.) during mount operations, if set to true. If set to false, pod information will not be passed on mount. Default is false.\n\nThe CSI driver specifies podInfoOnMount as part of driver deployment. If true, Kubelet will pass pod information as VolumeContext in the CSI NodePublishVolume() calls. The CSI driver is responsible for parsing and validating the information passed in as VolumeContext.\n\nThe following VolumeContext will be passed if podInfoOnMount is set to true. This list might grow, but the prefix will be used. \"csi.storage.k8s.io/pod.name\": pod.Name \"csi.storage.k8s.io/pod.namespace\": pod.Namespace \"csi.storage.k8s.io/pod.uid\": string(pod.UID) \"csi.storage.k8s.io/ephemeral\": \"true\" if the volume is an ephemeral inline volume\n                                defined by a CSIVolumeSource, otherwise \"false\"\n\n\"csi.storage.k8s.io/ephemeral\" is a new feature in Kubernetes 1.16. It is only required for drivers which support both the \"Persistent\" and \"Ephemeral\" VolumeLifecycleMode. Other drivers can leave pod info disabled and/or ignore this field. As Kubernetes 1.15 doesn't support this field, drivers can only support one mode when deployed on such a cluster and the deployment determines which mode that is, for example via a command line parameter of the driver.\n\nThis field was immutable in Kubernetes < 1.29 and now is mutable.",
            ),
            column(
                "StorageCapacity",
                "boolean",
                "storageCapacity indicates that the CSI volume driver wants pod scheduling to consider the storage capacity that the driver deployment will report by creating CSIStorageCapacity objects with capacity information, if set to true.\n\nThe check can be enabled immediately when deploying a driver. In that case, provisioning new volumes with late binding will pause until the driver deployment has published some suitable CSIStorageCapacity object.\n\nAlternatively, the driver can be deployed with the field unset or false and it can be flipped later when storage capacity information has been published.\n\nThis field was immutable in Kubernetes <= 1.22 and now is mutable.",
            ),
            column(
                "TokenRequests",
                "string",
                "tokenRequests indicates the CSI driver needs pods' service account tokens it is mounting volume for to do necessary authentication. Kubelet will pass the tokens in VolumeContext in the CSI NodePublishVolume calls. The CSI driver should parse and validate the following VolumeContext: \"csi.storage.k8s.io/serviceAccount.tokens\": {\n  \"<audience>\": {\n    \"token\": <token>,\n    \"expirationTimestamp\": <expiration timestamp in RFC3339>,\n  },\n  ...\n}\n\nNote: Audience in each TokenRequest should be different and at most one token is empty string. To receive a new token after expiry, RequiresRepublish can be used to trigger NodePublishVolume periodically.",
            ),
            column(
                "RequiresRepublish",
                "boolean",
                "requiresRepublish indicates the CSI driver wants `NodePublishVolume` being periodically called to reflect any possible change in the mounted volume. This field defaults to false.\n\nNote: After a successful initial NodePublishVolume call, subsequent calls to NodePublishVolume should only update the contents of the volume. New mount points will not be seen by a running container.",
            ),
            column(
                "Modes",
                "string",
                "volumeLifecycleModes defines what kind of volumes this CSI volume driver supports. The default if the list is empty is \"Persistent\", which is the usage defined by the CSI specification and implemented in Kubernetes via the usual PV/PVC mechanism.\n\nThe other mode is \"Ephemeral\". In this mode, volumes are defined inline inside the pod spec with CSIVolumeSource and their lifecycle is tied to the lifecycle of that pod. A driver has to be aware of this because it is only going to get a NodePublishVolume call for such a volume.\n\nFor more information about implementing this mode, see https://kubernetes-csi.github.io/docs/ephemeral-local-volumes.html A driver can support one or more of these modes and more modes may be added in the future.\n\nThis field is beta. This field is immutable.",
            ),
            AGE,
        ],
        printer: print_csi_driver,
    },
    // csiNodeColumnDefinitions.
    Kind {
        group: "storage.k8s.io",
        plural: "csinodes",
        columns: &[
            NAME,
            column(
                "Drivers",
                "integer",
                "Drivers indicates the number of CSI drivers registered on the node",
            ),
            AGE,
        ],
        printer: print_csi_node,
    },
    // csiStorageCapacityColumnDefinitions: no age.
    Kind {
        group: "storage.k8s.io",
        plural: "csistoragecapacities",
        columns: &[
            NAME,
            column(
                "StorageClassName",
                "string",
                "storageClassName represents the name of the StorageClass that the reported capacity applies to. It must meet the same requirements as the name of a StorageClass object (non-empty, DNS subdomain). If that object no longer exists, the CSIStorageCapacity object is obsolete and should be removed by its creator. This field is immutable.",
            ),
            column(
                "Capacity",
                "string",
                "capacity is the value reported by the CSI driver in its GetCapacityResponse for a GetCapacityRequest with topology and parameters that match the previous fields.\n\nThe semantic is currently (CSI spec 1.2) defined as: The available capacity, in bytes, of the storage that can be used to provision volumes. If not set, that information is currently unavailable.",
            ),
        ],
        printer: print_csi_storage_capacity,
    },
    // storageClassColumnDefinitions.
    Kind {
        group: "storage.k8s.io",
        plural: "storageclasses",
        columns: &[
            NAME,
            column(
                "Provisioner",
                "string",
                "provisioner indicates the type of the provisioner.",
            ),
            column(
                "ReclaimPolicy",
                "string",
                "reclaimPolicy controls the reclaimPolicy for dynamically provisioned PersistentVolumes of this storage class. Defaults to Delete.",
            ),
            column(
                "VolumeBindingMode",
                "string",
                "volumeBindingMode indicates how PersistentVolumeClaims should be provisioned and bound.  When unset, VolumeBindingImmediate is used. This field is only honored by servers that enable the VolumeScheduling feature.",
            ),
            column(
                "AllowVolumeExpansion",
                "string",
                "allowVolumeExpansion shows whether the storage class allow volume expand.",
            ),
            AGE,
        ],
        printer: print_storage_class,
    },
    // volumeAttachmentColumnDefinitions (upstream gives the Attacher
    // column the `name` format too).
    Kind {
        group: "storage.k8s.io",
        plural: "volumeattachments",
        columns: &[
            NAME,
            Column {
                format: "name",
                ..column(
                    "Attacher",
                    "string",
                    "attacher indicates the name of the volume driver that MUST handle this request. This is the name returned by GetPluginName().",
                )
            },
            column(
                "PV",
                "string",
                "persistentVolumeName represents the name of the persistent volume to attach.",
            ),
            column(
                "Node",
                "string",
                "nodeName represents the node that the volume should be attached to.",
            ),
            column(
                "Attached",
                "boolean",
                "attached indicates the volume is successfully attached. This field must only be set by the entity completing the attach operation, i.e. the external-attacher.",
            ),
            AGE,
        ],
        printer: print_volume_attachment,
    },
    // priorityClassColumnDefinitions (PreemptionPolicy, printed only in
    // wide rows, has priority 0 upstream).
    Kind {
        group: "scheduling.k8s.io",
        plural: "priorityclasses",
        columns: &[
            NAME,
            column(
                "Value",
                "integer",
                "value represents the integer value of this priority class. This is the actual priority that pods receive when they have the name of this class in their pod spec.",
            ),
            column(
                "Global-Default",
                "boolean",
                "globalDefault specifies whether this PriorityClass should be considered as the default priority for pods that do not have any priority class. Only one PriorityClass can be marked as `globalDefault`. However, if more than one PriorityClasses exists with their `globalDefault` field set to true, the smallest value of such global default PriorityClasses will be used as the default priority.",
            ),
            AGE,
            column(
                "PreemptionPolicy",
                "string",
                "preemptionPolicy is the Policy for preempting pods with lower priority. One of Never, PreemptLowerPriority. Defaults to PreemptLowerPriority if unset.",
            ),
        ],
        printer: print_priority_class,
    },
    // certificateSigningRequestColumnDefinitions.
    Kind {
        group: "certificates.k8s.io",
        plural: "certificatesigningrequests",
        columns: &[
            NAME,
            AGE,
            column(
                "SignerName",
                "string",
                "Requested signer for the request. It is a qualified name in the form: `scope-hostname.io/name`. If empty, it will be defaulted:\n 1. If it's a kubelet client certificate, it is assigned\n    \"kubernetes.io/kube-apiserver-client-kubelet\".\n 2. If it's a kubelet serving certificate, it is assigned\n    \"kubernetes.io/kubelet-serving\".\n 3. Otherwise, it is assigned \"kubernetes.io/legacy-unknown\".\nDistribution of trust for signers happens out of band. You can select on this field using `spec.signerName`.",
            ),
            column("Requestor", "string", "Base64-encoded PKCS#10 CSR data"),
            column(
                "RequestedDuration",
                "string",
                "expirationSeconds is the requested duration of validity of the issued certificate. The certificate signer may issue a certificate with a different validity duration so a client must check the delta between the notBefore and and notAfter fields in the issued certificate to determine the actual duration.\n\nThe v1.22+ in-tree implementations of the well-known Kubernetes signers will honor this field as long as the requested duration is not greater than the maximum duration they will honor per the --cluster-signing-duration CLI flag to the Kubernetes controller manager.\n\nCertificate signers may not honor this field for various reasons:\n\n  1. Old signer that is unaware of the field (such as the in-tree\n     implementations prior to v1.22)\n  2. Signer whose configured maximum is shorter than the requested duration\n  3. Signer whose configured minimum is longer than the requested duration\n\nThe minimum valid value for expirationSeconds is 600, i.e. 10 minutes.",
            ),
            column(
                "Condition",
                "string",
                "Conditions applied to the request, such as approval or denial.",
            ),
        ],
        printer: print_certificate_signing_request,
    },
];

/// The columns and printer of a built-in kind's table.
pub(super) fn table(group: &str, plural: &str) -> Option<(Vec<TableColumnDefinition>, Printer)> {
    let kind = TABLES
        .iter()
        .find(|k| k.group == group && k.plural == plural)?;
    Some((
        kind.columns.iter().map(Column::definition).collect(),
        kind.printer,
    ))
}

/// The array at `pointer`, empty when absent or not an array.
fn array_at<'a>(object: &'a Value, pointer: &str) -> &'a [Value] {
    object
        .pointer(pointer)
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

/// `printPod`, for what a store without a kubelet holds: ready
/// containers of all, the reason (the pod's, a container's waiting or
/// terminated reason, `Terminating` once deleted, else the phase), the
/// restarts summed, age, IP and node.
fn print_pod(pod: &Value, now: DateTime<Utc>) -> Vec<Value> {
    let total = array_at(pod, "/spec/containers").len();
    let statuses = array_at(pod, "/status/containerStatuses");
    let ready = statuses
        .iter()
        .filter(|s| s["ready"].as_bool() == Some(true))
        .count();
    let restarts: i64 = statuses
        .iter()
        .filter_map(|s| s["restartCount"].as_i64())
        .sum();
    let mut reason = text_at(pod, "/status/reason");
    if reason.is_empty() {
        reason = text_at(pod, "/status/phase");
    }
    for status in statuses.iter().rev() {
        let state = &status["state"];
        if let Some(r) = state["waiting"]["reason"]
            .as_str()
            .filter(|r| !r.is_empty())
        {
            reason = r.to_string();
        } else if let Some(r) = state["terminated"]["reason"]
            .as_str()
            .filter(|r| !r.is_empty())
        {
            reason = r.to_string();
        }
    }
    if !pod["metadata"]["deletionTimestamp"].is_null() {
        reason = "Terminating".into();
    }
    let or_none = |s: String| {
        if s.is_empty() {
            "<none>".to_string()
        } else {
            s
        }
    };
    vec![
        Value::String(text_at(pod, "/metadata/name")),
        Value::String(format!("{ready}/{total}")),
        Value::String(reason),
        Value::String(restarts.to_string()),
        Value::String(age_of(pod, now)),
        Value::String(or_none(text_at(pod, "/status/podIP"))),
        Value::String(or_none(text_at(pod, "/spec/nodeName"))),
    ]
}

/// `printDeployment`: ready of desired replicas, up to date, available,
/// age, and the template's containers, images and the selector.
fn print_deployment(deployment: &Value, now: DateTime<Utc>) -> Vec<Value> {
    let desired = int_at(deployment, "/spec/replicas");
    let ready = int_at(deployment, "/status/readyReplicas");
    let containers = array_at(deployment, "/spec/template/spec/containers");
    let joined = |key: &str| {
        containers
            .iter()
            .filter_map(|c| c[key].as_str())
            .collect::<Vec<_>>()
            .join(",")
    };
    let selector = deployment
        .pointer("/spec/selector")
        .map(crate::scale::selector_text)
        .unwrap_or_default();
    vec![
        Value::String(text_at(deployment, "/metadata/name")),
        Value::String(format!("{ready}/{desired}")),
        Value::from(int_at(deployment, "/status/updatedReplicas")),
        Value::from(int_at(deployment, "/status/availableReplicas")),
        Value::String(age_of(deployment, now)),
        Value::String(joined("name")),
        Value::String(joined("image")),
        Value::String(selector),
    ]
}

/// A string cell.
fn text(s: impl Into<String>) -> Value {
    Value::String(s.into())
}

/// The object's name cell.
fn name_cell(object: &Value) -> Value {
    text(text_at(object, "/metadata/name"))
}

/// The object's age cell (`translateTimestampSince(obj.CreationTimestamp)`).
fn age_cell(object: &Value, now: DateTime<Utc>) -> Value {
    text(age_of(object, now))
}

/// The string at `pointer`, `None` when absent or not a string.
fn str_at<'a>(object: &'a Value, pointer: &str) -> Option<&'a str> {
    object.pointer(pointer).and_then(Value::as_str)
}

/// The object at `pointer`, `None` when absent or not an object.
fn map_at<'a>(object: &'a Value, pointer: &str) -> Option<&'a Map<String, Value>> {
    object.pointer(pointer).and_then(Value::as_object)
}

/// The number of entries of the map at `pointer` (0 when absent).
fn map_len(object: &Value, pointer: &str) -> usize {
    map_at(object, pointer).map_or(0, Map::len)
}

/// `s`, or `default` when `s` is empty.
fn or(s: impl Into<String>, default: &str) -> String {
    let s = s.into();
    if s.is_empty() { default.to_string() } else { s }
}

/// A `resource.Quantity` as its `String()` writes it (the canonical
/// form); `None` when absent. A JSON number is the quantity it spells; a
/// string that does not parse (which no apiserver would have stored) is
/// shown as it is.
fn quantity(value: Option<&Value>) -> Option<String> {
    let spelled = match value? {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        _ => return None,
    };
    Some(Quantity::parse(&spelled).map_or(spelled, |q| q.to_string()))
}

/// An `intstr.IntOrString` as its `String()` writes it; `None` when absent.
fn int_or_string(value: Option<&Value>) -> Option<String> {
    match value? {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => n.as_i64().map(|i| i.to_string()),
        _ => None,
    }
}

/// `labels.FormatLabels`: the `key=value` pairs of a label set sorted as
/// strings (`labels.Set.String` sorts the pairs, not the keys) and joined
/// by `,`; `<none>` for an empty set.
fn format_labels(labels: Option<&Value>) -> String {
    let mut pairs: Vec<String> = labels
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .filter_map(|(k, v)| Some(format!("{k}={}", v.as_str()?)))
        .collect();
    pairs.sort();
    or(pairs.join(","), "<none>")
}

/// `metav1.FormatLabelSelector`: the selector's string form, `<none>` for
/// an empty or absent one, `<error>` for one that does not convert.
fn format_label_selector(selector: Option<&Value>) -> String {
    let text = match selector {
        Some(v @ Value::Object(_)) => match crate::scale::label_selector_text(v) {
            Some(text) => text,
            None => return "<error>".into(),
        },
        // A nil selector: `labels.Nothing()`, whose string is empty.
        _ => String::new(),
    };
    or(text, "<none>")
}

/// `layoutContainerCells`: the containers' names and images, each joined
/// by `,` (a missing name or image is an empty string).
fn container_cells(containers: &[Value]) -> (String, String) {
    let joined = |key: &str| {
        containers
            .iter()
            .map(|c| c[key].as_str().unwrap_or_default())
            .collect::<Vec<_>>()
            .join(",")
    };
    (joined("name"), joined("image"))
}

/// `net.JoinHostPort`: IPv6 hosts in brackets.
fn join_host_port(host: &str, port: i64) -> String {
    if host.contains(':') {
        format!("[{host}]:{port}")
    } else {
        format!("{host}:{port}")
    }
}

/// `formatEndpoints(endpoints, nil)`: up to three `ip:port` (or `ip` for
/// a subset without ports), then ` + N more...`; `<none>` without subsets.
fn format_endpoints(endpoints: &Value) -> String {
    const MAX: usize = 3;
    let subsets = array_at(endpoints, "/subsets");
    if subsets.is_empty() {
        return "<none>".into();
    }
    let mut list: Vec<String> = Vec::new();
    let mut more = false;
    let mut count = 0;
    for subset in subsets {
        let addresses = array_at(subset, "/addresses");
        let ports = array_at(subset, "/ports");
        if ports.is_empty() {
            // Headless services with no ports.
            count += addresses.len();
            for address in addresses {
                if list.len() == MAX {
                    more = true;
                    break;
                }
                list.push(text_at(address, "/ip"));
            }
            continue;
        }
        for port in ports {
            count += addresses.len();
            for address in addresses {
                if list.len() == MAX {
                    more = true;
                    break;
                }
                list.push(join_host_port(
                    str_at(address, "/ip").unwrap_or_default(),
                    int_at(port, "/port"),
                ));
            }
        }
    }
    with_more(&list, more, count, MAX)
}

/// `printConfigMap`: the number of `data` and `binaryData` entries.
fn print_config_map(config_map: &Value, now: DateTime<Utc>) -> Vec<Value> {
    let entries = map_len(config_map, "/data") + map_len(config_map, "/binaryData");
    vec![
        name_cell(config_map),
        Value::from(entries as i64),
        age_cell(config_map, now),
    ]
}

/// `printEndpoints`.
fn print_endpoints(endpoints: &Value, now: DateTime<Utc>) -> Vec<Value> {
    vec![
        name_cell(endpoints),
        text(format_endpoints(endpoints)),
        age_cell(endpoints, now),
    ]
}

/// Where an Event's fields are: core/v1's names, or events.k8s.io/v1's
/// (which the apiserver converts to the same internal Event before
/// printing: `regarding` is `involvedObject`, `note` the message, and the
/// `deprecated*` fields the source, timestamps and count).
struct EventFields {
    regarding: &'static str,
    note: &'static str,
    source: &'static str,
    first_timestamp: &'static str,
    last_timestamp: &'static str,
    count: &'static str,
}

/// core/v1 Event.
const CORE_EVENT: EventFields = EventFields {
    regarding: "/involvedObject",
    note: "/message",
    source: "/source",
    first_timestamp: "/firstTimestamp",
    last_timestamp: "/lastTimestamp",
    count: "/count",
};

/// `printEvent` of a core/v1 Event.
fn print_event(event: &Value, now: DateTime<Utc>) -> Vec<Value> {
    print_event_fields(event, now, &CORE_EVENT)
}

/// `printEvent`: last seen (the series' last observation, else the last
/// timestamp, else the first), type, reason, `kind/name` of the object,
/// its field path, the source (`formatEventSource`), the trimmed message,
/// first seen (the first timestamp, else the event time), the count (the
/// series', else the event's, 1 when unset) and the name.
fn print_event_fields(event: &Value, now: DateTime<Utc>, fields: &EventFields) -> Vec<Value> {
    let first = time_at(event, fields.first_timestamp).or_else(|| time_at(event, "/eventTime"));
    let first_seen = since(first, now);
    let mut last_seen = match time_at(event, fields.last_timestamp) {
        Some(t) => since(Some(t), now),
        None => first_seen.clone(),
    };
    let mut count = int_at(event, fields.count);
    if let Some(series) = event.get("series").filter(|s| s.is_object()) {
        last_seen = since(time_at(series, "/lastObservedTime"), now);
        count = int_at(series, "/count");
    } else if count == 0 {
        // Singleton events don't have a count set in the new API.
        count = 1;
    }
    let regarding = event.pointer(fields.regarding).unwrap_or(&Value::Null);
    let kind = text_at(regarding, "/kind").to_lowercase();
    let target = match str_at(regarding, "/name").filter(|n| !n.is_empty()) {
        Some(name) => format!("{kind}/{name}"),
        None => kind,
    };
    let first_non_empty = |a: String, b: String| if a.is_empty() { b } else { a };
    let component = first_non_empty(
        text_at(event, &format!("{}/component", fields.source)),
        text_at(event, "/reportingController"),
    );
    let instance = first_non_empty(
        text_at(event, &format!("{}/host", fields.source)),
        text_at(event, "/reportingInstance"),
    );
    let source = if instance.is_empty() {
        component
    } else {
        format!("{component}, {instance}")
    };
    vec![
        text(last_seen),
        text(text_at(event, "/type")),
        text(text_at(event, "/reason")),
        text(target),
        text(text_at(regarding, "/fieldPath")),
        text(source),
        text(str_at(event, fields.note).unwrap_or_default().trim()),
        text(first_seen),
        Value::from(count),
        name_cell(event),
    ]
}

/// `rest.NewDefaultTableConvertor`'s row: the name and the creation time
/// in RFC 3339 (UTC, whole seconds; Go's zero time when there is none).
fn print_default(object: &Value, _now: DateTime<Utc>) -> Vec<Value> {
    let created = time_at(object, "/metadata/creationTimestamp").map_or_else(
        || "0001-01-01T00:00:00Z".to_string(),
        |t| {
            t.with_timezone(&Utc)
                .format("%Y-%m-%dT%H:%M:%SZ")
                .to_string()
        },
    );
    vec![name_cell(object), text(created)]
}

/// `printNode`: `Ready` or `NotReady` by the (last) `Ready` condition,
/// `Unknown` without one, `SchedulingDisabled` added when unschedulable;
/// the roles (`findNodeRoles`); age; the kubelet version; the first
/// internal and external addresses, OS image, kernel and container
/// runtime versions.
fn print_node(node: &Value, now: DateTime<Utc>) -> Vec<Value> {
    let ready = array_at(node, "/status/conditions")
        .iter()
        .rev()
        .find(|c| c["type"] == "Ready");
    let mut status = vec![match ready {
        Some(c) if c["status"] == "True" => "Ready",
        Some(_) => "NotReady",
        None => "Unknown",
    }];
    if node.pointer("/spec/unschedulable") == Some(&Value::Bool(true)) {
        status.push("SchedulingDisabled");
    }
    let address = |kind: &str| {
        array_at(node, "/status/addresses")
            .iter()
            .find(|a| a["type"] == kind)
            .map_or_else(|| "<none>".to_string(), |a| text_at(a, "/address"))
    };
    let info = |field: &str| {
        or(
            text_at(node, &format!("/status/nodeInfo/{field}")),
            "<unknown>",
        )
    };
    vec![
        name_cell(node),
        text(status.join(",")),
        text(or(node_roles(node).join(","), "<none>")),
        age_cell(node, now),
        text(text_at(node, "/status/nodeInfo/kubeletVersion")),
        text(address("InternalIP")),
        text(address("ExternalIP")),
        text(info("osImage")),
        text(info("kernelVersion")),
        text(info("containerRuntimeVersion")),
    ]
}

/// `findNodeRoles`: the names after `node-role.kubernetes.io/` of the
/// node's labels, and the value of its `kubernetes.io/role` label, sorted
/// and without duplicates.
fn node_roles(node: &Value) -> Vec<String> {
    let mut roles = std::collections::BTreeSet::new();
    for (key, value) in map_at(node, "/metadata/labels").into_iter().flatten() {
        let Some(value) = value.as_str() else {
            continue;
        };
        if let Some(role) = key.strip_prefix("node-role.kubernetes.io/") {
            if !role.is_empty() {
                roles.insert(role.to_string());
            }
        } else if key == "kubernetes.io/role" && !value.is_empty() {
            roles.insert(value.to_string());
        }
    }
    roles.into_iter().collect()
}

/// `helper.GetAccessModesAsString`: `RWO`, `ROX`, `RWX`, `RWOP`, in that
/// order, each once.
fn access_modes(modes: &[Value]) -> String {
    [
        ("ReadWriteOnce", "RWO"),
        ("ReadOnlyMany", "ROX"),
        ("ReadWriteMany", "RWX"),
        ("ReadWriteOncePod", "RWOP"),
    ]
    .iter()
    .filter(|(mode, _)| modes.iter().any(|m| m == mode))
    .map(|(_, short)| *short)
    .collect::<Vec<_>>()
    .join(",")
}

/// The storage class of a PersistentVolume or claim
/// (`GetPersistentVolumeClass`, `GetPersistentVolumeClaimClass`): the
/// beta annotation first, then `spec.storageClassName`.
fn storage_class(object: &Value) -> String {
    match map_at(object, "/metadata/annotations")
        .and_then(|a| a.get("volume.beta.kubernetes.io/storage-class"))
    {
        Some(class) => class.as_str().unwrap_or_default().to_string(),
        None => text_at(object, "/spec/storageClassName"),
    }
}

/// Whether the object is being deleted.
fn deleting(object: &Value) -> bool {
    object
        .pointer("/metadata/deletionTimestamp")
        .is_some_and(|t| !t.is_null())
}

/// `printPersistentVolume`: capacity, access modes, reclaim policy,
/// phase (`Terminating` once deleted), `namespace/name` of the claim,
/// storage class, volume attributes class (`<unset>`), reason, age and
/// volume mode (`<unset>`).
fn print_persistent_volume(volume: &Value, now: DateTime<Utc>) -> Vec<Value> {
    let claim = match volume.pointer("/spec/claimRef") {
        Some(claim @ Value::Object(_)) => format!(
            "{}/{}",
            text_at(claim, "/namespace"),
            text_at(claim, "/name")
        ),
        _ => String::new(),
    };
    let capacity = quantity(volume.pointer("/spec/capacity/storage")).unwrap_or_else(|| "0".into());
    let phase = if deleting(volume) {
        "Terminating".to_string()
    } else {
        text_at(volume, "/status/phase")
    };
    vec![
        name_cell(volume),
        text(capacity),
        text(access_modes(array_at(volume, "/spec/accessModes"))),
        text(text_at(volume, "/spec/persistentVolumeReclaimPolicy")),
        text(phase),
        text(claim),
        text(storage_class(volume)),
        text(str_at(volume, "/spec/volumeAttributesClassName").unwrap_or("<unset>")),
        text(text_at(volume, "/status/reason")),
        age_cell(volume, now),
        text(str_at(volume, "/spec/volumeMode").unwrap_or("<unset>")),
    ]
}

/// `printPersistentVolumeClaim`: phase (`Terminating` once deleted),
/// volume, and, once bound to a volume, its capacity and access modes;
/// storage class, volume attributes class (`<unset>`), age and volume mode
/// (`<unset>`).
fn print_persistent_volume_claim(claim: &Value, now: DateTime<Utc>) -> Vec<Value> {
    let phase = if deleting(claim) {
        "Terminating".to_string()
    } else {
        text_at(claim, "/status/phase")
    };
    let volume = text_at(claim, "/spec/volumeName");
    let (capacity, modes) = if volume.is_empty() {
        (String::new(), String::new())
    } else {
        (
            quantity(claim.pointer("/status/capacity/storage")).unwrap_or_else(|| "0".into()),
            access_modes(array_at(claim, "/status/accessModes")),
        )
    };
    vec![
        name_cell(claim),
        text(phase),
        text(volume),
        text(capacity),
        text(modes),
        text(storage_class(claim)),
        text(str_at(claim, "/spec/volumeAttributesClassName").unwrap_or("<unset>")),
        age_cell(claim, now),
        text(str_at(claim, "/spec/volumeMode").unwrap_or("<unset>")),
    ]
}

/// `printPodTemplate`: the template's containers, images and labels.
fn print_pod_template(template: &Value, _now: DateTime<Utc>) -> Vec<Value> {
    let (names, images) = container_cells(array_at(template, "/template/spec/containers"));
    vec![
        name_cell(template),
        text(names),
        text(images),
        text(format_labels(template.pointer("/template/metadata/labels"))),
    ]
}

/// `printReplicationController`: desired, current and ready replicas,
/// age, the template's containers and images, and the selector (a label
/// set).
fn print_replication_controller(controller: &Value, now: DateTime<Utc>) -> Vec<Value> {
    replicas_row(
        controller,
        now,
        format_labels(controller.pointer("/spec/selector")),
    )
}

/// The row ReplicationControllers and ReplicaSets share: name, desired,
/// current and ready replicas, age, the template's containers and
/// images, and `selector` as the kind prints it.
fn replicas_row(object: &Value, now: DateTime<Utc>, selector: String) -> Vec<Value> {
    let (names, images) = container_cells(array_at(object, "/spec/template/spec/containers"));
    vec![
        name_cell(object),
        Value::from(int_at(object, "/spec/replicas")),
        Value::from(int_at(object, "/status/replicas")),
        Value::from(int_at(object, "/status/readyReplicas")),
        age_cell(object, now),
        text(names),
        text(images),
        text(selector),
    ]
}

/// `printResourceQuota`: `resource: used/hard` of every hard limit, sorted
/// by resource, the `limits.*` ones in the Limit column and the others in
/// the Request column.
fn print_resource_quota(quota: &Value, now: DateTime<Utc>) -> Vec<Value> {
    let empty = Map::new();
    let hard = map_at(quota, "/status/hard").unwrap_or(&empty);
    let used = map_at(quota, "/status/used").unwrap_or(&empty);
    let mut resources: Vec<&String> = hard.keys().collect();
    resources.sort();
    let (mut requests, mut limits) = (Vec::new(), Vec::new());
    for resource in resources {
        let entry = format!(
            "{resource}: {}/{}",
            quantity(used.get(resource)).unwrap_or_else(|| "0".into()),
            quantity(hard.get(resource)).unwrap_or_else(|| "0".into()),
        );
        let mut pieces = resource.split('.');
        if pieces.next() == Some("limits") && pieces.next().is_some() {
            limits.push(entry);
        } else {
            requests.push(entry);
        }
    }
    vec![
        name_cell(quota),
        text(requests.join(", ")),
        text(limits.join(", ")),
        age_cell(quota, now),
    ]
}

/// `printSecret`: the type and the number of data entries (`stringData`
/// keys count too: the apiserver merges them into `data`).
fn print_secret(secret: &Value, now: DateTime<Utc>) -> Vec<Value> {
    let mut keys: std::collections::BTreeSet<&String> = std::collections::BTreeSet::new();
    for pointer in ["/data", "/stringData"] {
        keys.extend(map_at(secret, pointer).into_iter().flat_map(Map::keys));
    }
    vec![
        name_cell(secret),
        text(text_at(secret, "/type")),
        Value::from(keys.len() as i64),
        age_cell(secret, now),
    ]
}

/// `loadBalancerStatusStringer` (and its Ingress twin) as wide output
/// prints it: the ingress points' IPs, else hostnames, sorted, without
/// duplicates, joined by `,` (never clipped: the server asks for wide
/// rows).
fn load_balancer_ingress(object: &Value, pointer: &str) -> String {
    let points: std::collections::BTreeSet<&str> = array_at(object, pointer)
        .iter()
        .filter_map(|i| {
            str_at(i, "/ip")
                .filter(|ip| !ip.is_empty())
                .or_else(|| str_at(i, "/hostname").filter(|h| !h.is_empty()))
        })
        .collect();
    points.into_iter().collect::<Vec<_>>().join(",")
}

/// `getServiceExternalIP` (wide): the external IPs of a ClusterIP or
/// NodePort service (`<none>`), the load balancer's ingress points then
/// the external IPs of a LoadBalancer one (`<pending>`), the external
/// name of an ExternalName one, `<unknown>` for any other type.
fn service_external_ip(service: &Value) -> String {
    let external: Vec<&str> = array_at(service, "/spec/externalIPs")
        .iter()
        .map(|ip| ip.as_str().unwrap_or_default())
        .collect();
    match str_at(service, "/spec/type").unwrap_or_default() {
        "ClusterIP" | "NodePort" => or(external.join(","), "<none>"),
        "LoadBalancer" => {
            let ingress = load_balancer_ingress(service, "/status/loadBalancer/ingress");
            if !external.is_empty() {
                let mut all: Vec<&str> = Vec::new();
                if !ingress.is_empty() {
                    all.extend(ingress.split(','));
                }
                all.extend(external);
                all.join(",")
            } else {
                or(ingress, "<pending>")
            }
        }
        "ExternalName" => text_at(service, "/spec/externalName"),
        _ => "<unknown>".into(),
    }
}

/// `makePortString`: `port/protocol`, or `port:nodePort/protocol`.
fn service_ports(service: &Value) -> String {
    array_at(service, "/spec/ports")
        .iter()
        .map(|p| {
            let (port, protocol) = (int_at(p, "/port"), text_at(p, "/protocol"));
            match int_at(p, "/nodePort") {
                node_port if node_port > 0 => format!("{port}:{node_port}/{protocol}"),
                _ => format!("{port}/{protocol}"),
            }
        })
        .collect::<Vec<_>>()
        .join(",")
}

/// `printService`: type, the first cluster IP (`<none>`), the external
/// IPs, the ports (`<none>`), age and the selector (a label set).
fn print_service(service: &Value, now: DateTime<Utc>) -> Vec<Value> {
    let cluster_ip = array_at(service, "/spec/clusterIPs").first().map_or_else(
        || "<none>".to_string(),
        |ip| ip.as_str().unwrap_or_default().to_string(),
    );
    vec![
        name_cell(service),
        text(text_at(service, "/spec/type")),
        text(cluster_ip),
        text(service_external_ip(service)),
        text(or(service_ports(service), "<none>")),
        age_cell(service, now),
        text(format_labels(service.pointer("/spec/selector"))),
    ]
}

/// `printServiceAccount`: the number of secrets.
fn print_service_account(account: &Value, now: DateTime<Utc>) -> Vec<Value> {
    vec![
        name_cell(account),
        Value::from(array_at(account, "/secrets").len() as i64),
        age_cell(account, now),
    ]
}

/// `printControllerRevision`: the controller (`metav1.GetControllerOf`)
/// as `kind.group/name` (`formatResourceName`), `<none>` without one; the
/// revision; age.
fn print_controller_revision(revision: &Value, now: DateTime<Utc>) -> Vec<Value> {
    let controller = array_at(revision, "/metadata/ownerReferences")
        .iter()
        .find(|r| r["controller"] == true)
        .map_or_else(
            || "<none>".to_string(),
            |owner| {
                // schema.ParseGroupVersion: the group is what comes before
                // the one `/` (upstream fails the whole table on more
                // than one, which validation keeps out of a store).
                let api_version = text_at(owner, "/apiVersion");
                let group = match api_version.split_once('/') {
                    Some((group, _)) => group,
                    None => "",
                };
                let kind = text_at(owner, "/kind");
                let name = text_at(owner, "/name");
                match (group, kind.as_str()) {
                    ("", "") => name,
                    ("", kind) => format!("{}/{name}", kind.to_lowercase()),
                    (group, kind) => format!("{}/{name}", format!("{kind}.{group}").to_lowercase()),
                }
            },
        );
    vec![
        name_cell(revision),
        text(controller),
        Value::from(int_at(revision, "/revision")),
        age_cell(revision, now),
    ]
}

/// `printDaemonSet`: desired, current, ready, up-to-date and available
/// numbers of nodes, the template's node selector (a label set), age, the
/// template's containers and images, and the selector.
fn print_daemon_set(daemon_set: &Value, now: DateTime<Utc>) -> Vec<Value> {
    let (names, images) = container_cells(array_at(daemon_set, "/spec/template/spec/containers"));
    let status = |field: &str| Value::from(int_at(daemon_set, &format!("/status/{field}")));
    vec![
        name_cell(daemon_set),
        status("desiredNumberScheduled"),
        status("currentNumberScheduled"),
        status("numberReady"),
        status("updatedNumberScheduled"),
        status("numberAvailable"),
        text(format_labels(
            daemon_set.pointer("/spec/template/spec/nodeSelector"),
        )),
        age_cell(daemon_set, now),
        text(names),
        text(images),
        text(format_label_selector(daemon_set.pointer("/spec/selector"))),
    ]
}

/// `printReplicaSet`: desired, current and ready replicas, age, the
/// template's containers and images, and the selector.
fn print_replica_set(replica_set: &Value, now: DateTime<Utc>) -> Vec<Value> {
    replicas_row(
        replica_set,
        now,
        format_label_selector(replica_set.pointer("/spec/selector")),
    )
}

/// `printStatefulSet`: ready of desired replicas, age, the template's
/// containers and images.
fn print_stateful_set(stateful_set: &Value, now: DateTime<Utc>) -> Vec<Value> {
    let (names, images) = container_cells(array_at(stateful_set, "/spec/template/spec/containers"));
    vec![
        name_cell(stateful_set),
        text(format!(
            "{}/{}",
            int_at(stateful_set, "/status/readyReplicas"),
            int_at(stateful_set, "/spec/replicas")
        )),
        age_cell(stateful_set, now),
        text(names),
        text(images),
    ]
}

/// `printBoolPtr`: `True`, `False`, or `<unset>`.
fn bool_text(value: Option<&Value>) -> &'static str {
    match value.and_then(Value::as_bool) {
        Some(true) => "True",
        Some(false) => "False",
        None => "<unset>",
    }
}

/// `printCronJob`: schedule, time zone (`<none>`), suspend (as text, as
/// upstream's cell is), the number of active jobs, the last schedule's age
/// (`<none>`), age, the job template's containers, images and selector.
fn print_cron_job(cron_job: &Value, now: DateTime<Utc>) -> Vec<Value> {
    let (names, images) = container_cells(array_at(
        cron_job,
        "/spec/jobTemplate/spec/template/spec/containers",
    ));
    let last_schedule = match time_at(cron_job, "/status/lastScheduleTime") {
        Some(t) => since(Some(t), now),
        None => "<none>".into(),
    };
    vec![
        name_cell(cron_job),
        text(text_at(cron_job, "/spec/schedule")),
        text(str_at(cron_job, "/spec/timeZone").unwrap_or("<none>")),
        text(bool_text(cron_job.pointer("/spec/suspend"))),
        Value::from(array_at(cron_job, "/status/active").len() as i64),
        text(last_schedule),
        age_cell(cron_job, now),
        text(names),
        text(images),
        text(format_label_selector(
            cron_job.pointer("/spec/jobTemplate/spec/selector"),
        )),
    ]
}

/// `hasJobCondition`: whether the first condition of the type is true.
fn has_job_condition(job: &Value, kind: &str) -> bool {
    array_at(job, "/status/conditions")
        .iter()
        .find(|c| c["type"] == kind)
        .is_some_and(|c| c["status"] == "True")
}

/// `printJob`: the status (`Complete`, `Failed`, `Terminating`,
/// `Suspended`, `FailureTarget` or `Running`), completions
/// (`succeeded/completions`, or `succeeded/1` and ` of parallelism` when
/// more than one runs at once), the duration (to completion, or so far;
/// empty before the start), age, the template's containers, images and
/// the selector.
fn print_job(job: &Value, now: DateTime<Utc>) -> Vec<Value> {
    let succeeded = int_at(job, "/status/succeeded");
    let completions = match job.pointer("/spec/completions").and_then(Value::as_i64) {
        Some(completions) => format!("{succeeded}/{completions}"),
        None => match int_at(job, "/spec/parallelism") {
            parallelism if parallelism > 1 => format!("{succeeded}/1 of {parallelism}"),
            _ => format!("{succeeded}/1"),
        },
    };
    let duration = match (
        time_at(job, "/status/startTime"),
        time_at(job, "/status/completionTime"),
    ) {
        (None, _) => String::new(),
        (Some(start), None) => human_duration(now.signed_duration_since(start)),
        (Some(start), Some(end)) => human_duration(end.signed_duration_since(start)),
    };
    let status = if has_job_condition(job, "Complete") {
        "Complete"
    } else if has_job_condition(job, "Failed") {
        "Failed"
    } else if deleting(job) {
        "Terminating"
    } else if has_job_condition(job, "Suspended") {
        "Suspended"
    } else if has_job_condition(job, "FailureTarget") {
        "FailureTarget"
    } else {
        "Running"
    };
    let (names, images) = container_cells(array_at(job, "/spec/template/spec/containers"));
    vec![
        name_cell(job),
        text(status),
        text(completions),
        text(duration),
        age_cell(job, now),
        text(names),
        text(images),
        text(format_label_selector(job.pointer("/spec/selector"))),
    ]
}

/// `printLease`: the holder's identity.
fn print_lease(lease: &Value, now: DateTime<Utc>) -> Vec<Value> {
    vec![
        name_cell(lease),
        text(text_at(lease, "/spec/holderIdentity")),
        age_cell(lease, now),
    ]
}

/// events.k8s.io/v1 Event.
const EVENTS_V1_EVENT: EventFields = EventFields {
    regarding: "/regarding",
    note: "/note",
    source: "/deprecatedSource",
    first_timestamp: "/deprecatedFirstTimestamp",
    last_timestamp: "/deprecatedLastTimestamp",
    count: "/deprecatedCount",
};

/// `printEvent` of an events.k8s.io/v1 Event, read as the apiserver
/// converts it to the internal Event.
fn print_events_v1_event(event: &Value, now: DateTime<Utc>) -> Vec<Value> {
    print_event_fields(event, now, &EVENTS_V1_EVENT)
}

/// The more-than-`max` suffix of upstream's lists: ` + N more...`.
fn with_more(list: &[String], more: bool, count: usize, max: usize) -> String {
    let joined = list.join(",");
    if more {
        format!("{joined} + {} more...", count - max)
    } else {
        joined
    }
}

/// `formatHosts`: up to three rules' hosts, `*` when none has one.
fn ingress_hosts(rules: &[Value]) -> String {
    const MAX: usize = 3;
    let mut list: Vec<String> = Vec::new();
    let mut more = false;
    for rule in rules {
        if list.len() == MAX {
            more = true;
        }
        if let Some(host) = str_at(rule, "/host").filter(|h| !more && !h.is_empty()) {
            list.push(host.to_string());
        }
    }
    if list.is_empty() {
        return "*".into();
    }
    with_more(&list, more, rules.len(), MAX)
}

/// `printIngress`: the class (`<none>`), hosts, load balancer addresses,
/// ports (`80`, and `443` with TLS).
fn print_ingress(ingress: &Value, now: DateTime<Utc>) -> Vec<Value> {
    let ports = if array_at(ingress, "/spec/tls").is_empty() {
        "80"
    } else {
        "80, 443"
    };
    vec![
        name_cell(ingress),
        text(str_at(ingress, "/spec/ingressClassName").unwrap_or("<none>")),
        text(ingress_hosts(array_at(ingress, "/spec/rules"))),
        text(load_balancer_ingress(
            ingress,
            "/status/loadBalancer/ingress",
        )),
        text(ports),
        age_cell(ingress, now),
    ]
}

/// `printIngressClass`: the controller and the parameters as
/// `kind[.apiGroup]/name` (`<none>`).
fn print_ingress_class(class: &Value, now: DateTime<Utc>) -> Vec<Value> {
    let parameters = match class.pointer("/spec/parameters") {
        Some(parameters @ Value::Object(_)) => {
            let mut text = text_at(parameters, "/kind");
            if let Some(group) = str_at(parameters, "/apiGroup") {
                text = format!("{text}.{group}");
            }
            format!("{text}/{}", text_at(parameters, "/name"))
        }
        _ => "<none>".into(),
    };
    vec![
        name_cell(class),
        text(text_at(class, "/spec/controller")),
        text(parameters),
        age_cell(class, now),
    ]
}

/// `printNetworkPolicy`: the pod selector (an absent one is the empty
/// selector, `<none>`).
fn print_network_policy(policy: &Value, now: DateTime<Utc>) -> Vec<Value> {
    let empty = Value::Object(Map::new());
    let selector = policy.pointer("/spec/podSelector").unwrap_or(&empty);
    vec![
        name_cell(policy),
        text(format_label_selector(Some(selector))),
        age_cell(policy, now),
    ]
}

/// `printPodDisruptionBudget`: min available and max unavailable (`N/A`),
/// the disruptions allowed.
fn print_pod_disruption_budget(budget: &Value, now: DateTime<Utc>) -> Vec<Value> {
    let bound =
        |pointer: &str| int_or_string(budget.pointer(pointer)).unwrap_or_else(|| "N/A".into());
    vec![
        name_cell(budget),
        text(bound("/spec/minAvailable")),
        text(bound("/spec/maxUnavailable")),
        Value::from(int_at(budget, "/status/disruptionsAllowed")),
        age_cell(budget, now),
    ]
}

/// `listWithMoreString`: the list, ` + N more...`, `<unset>` when empty.
fn list_with_more(list: &[String], more: bool, count: usize, max: usize) -> String {
    or(with_more(list, more, count, max), "<unset>")
}

/// `printEndpointSlice`: the address type, up to three ports
/// (`formatDiscoveryPorts`: the number, else the name, else `*`) and up
/// to three addresses (`formatDiscoveryEndpoints`).
fn print_endpoint_slice(slice: &Value, now: DateTime<Utc>) -> Vec<Value> {
    const MAX: usize = 3;
    let mut ports = Vec::new();
    let (mut more, mut count) = (false, 0);
    for port in array_at(slice, "/ports") {
        if ports.len() < MAX {
            let number = match port.get("port").and_then(Value::as_i64) {
                Some(number) => number.to_string(),
                None => str_at(port, "/name").unwrap_or("*").to_string(),
            };
            ports.push(number);
        } else if ports.len() == MAX {
            more = true;
        }
        count += 1;
    }
    let ports = list_with_more(&ports, more, count, MAX);
    let mut addresses = Vec::new();
    let (mut more, mut count) = (false, 0);
    for endpoint in array_at(slice, "/endpoints") {
        for address in array_at(endpoint, "/addresses") {
            if addresses.len() < MAX {
                addresses.push(address.as_str().unwrap_or_default().to_string());
            } else if addresses.len() == MAX {
                more = true;
            }
            count += 1;
        }
    }
    vec![
        name_cell(slice),
        text(text_at(slice, "/addressType")),
        text(ports),
        text(list_with_more(&addresses, more, count, MAX)),
        age_cell(slice, now),
    ]
}

/// A `*resource.Quantity`'s `String()`: `<nil>` when absent.
fn quantity_or_nil(value: Option<&Value>) -> String {
    quantity(value).unwrap_or_else(|| "<nil>".into())
}

/// `formatHPAMetrics`: each metric's `current/target` (`<unknown>` while
/// there is no current value; `(avg)` for an average value target of an
/// external or object metric; `name: ` before a resource's; `%` for
/// utilizations, `<auto>` without a target one), the first two joined by
/// `, ` then ` + N more...`; `<none>` without metrics.
fn hpa_metrics(specs: &[Value], statuses: &[Value]) -> String {
    const MAX: usize = 2;
    if specs.is_empty() {
        return "<none>".into();
    }
    let mut list: Vec<String> = Vec::new();
    for (i, spec) in specs.iter().enumerate() {
        // The status of the same index, when it has the metric's source.
        let status = |source: &str| {
            statuses
                .get(i)
                .and_then(|s| s.get(source))
                .filter(|s| s.is_object())
        };
        let current_or_unknown =
            |source: &str, f: &dyn Fn(&Value) -> Option<String>| status(source).and_then(f);
        let kind = str_at(spec, "/type").unwrap_or_default();
        let entry = match kind {
            "External" | "Object" => {
                let source = if kind == "External" {
                    "external"
                } else {
                    "object"
                };
                let target = spec.get(source).unwrap_or(&Value::Null);
                match target
                    .pointer("/target/averageValue")
                    .filter(|v| !v.is_null())
                {
                    Some(average) => {
                        let current = current_or_unknown(source, &|s| {
                            quantity(s.pointer("/current/averageValue"))
                        });
                        format!(
                            "{}/{} (avg)",
                            current.unwrap_or_else(|| "<unknown>".into()),
                            quantity_or_nil(Some(average))
                        )
                    }
                    None => {
                        let current = current_or_unknown(source, &|s| {
                            Some(quantity_or_nil(s.pointer("/current/value")))
                        });
                        format!(
                            "{}/{}",
                            current.unwrap_or_else(|| "<unknown>".into()),
                            quantity_or_nil(target.pointer("/target/value"))
                        )
                    }
                }
            }
            "Pods" => {
                let current = current_or_unknown("pods", &|s| {
                    Some(quantity_or_nil(s.pointer("/current/averageValue")))
                });
                format!(
                    "{}/{}",
                    current.unwrap_or_else(|| "<unknown>".into()),
                    quantity_or_nil(spec.pointer("/pods/target/averageValue"))
                )
            }
            "Resource" | "ContainerResource" => {
                let source = if kind == "Resource" {
                    "resource"
                } else {
                    "containerResource"
                };
                let target = spec.get(source).unwrap_or(&Value::Null);
                let name = text_at(target, "/name");
                match target
                    .pointer("/target/averageValue")
                    .filter(|v| !v.is_null())
                {
                    Some(average) => {
                        let current = current_or_unknown(source, &|s| {
                            Some(quantity_or_nil(s.pointer("/current/averageValue")))
                        });
                        format!(
                            "{name}: {}/{}",
                            current.unwrap_or_else(|| "<unknown>".into()),
                            quantity_or_nil(Some(average))
                        )
                    }
                    None => {
                        let percent = |v: &Value, pointer: &str| {
                            v.pointer(pointer)
                                .and_then(Value::as_i64)
                                .map(|p| format!("{p}%"))
                        };
                        let current = current_or_unknown(source, &|s| {
                            percent(s, "/current/averageUtilization")
                        });
                        let target = percent(target, "/target/averageUtilization");
                        format!(
                            "{name}: {}/{}",
                            current.unwrap_or_else(|| "<unknown>".into()),
                            target.unwrap_or_else(|| "<auto>".into())
                        )
                    }
                }
            }
            _ => "<unknown type>".into(),
        };
        list.push(entry);
    }
    let count = list.len();
    let more = count > MAX;
    list.truncate(MAX);
    let joined = list.join(", ");
    if more {
        format!("{joined} + {} more...", count - MAX)
    } else {
        joined
    }
}

/// `printHorizontalPodAutoscaler`: `kind/name` of the target, the
/// metrics, min (`<unset>`) and max replicas, the current replicas.
fn print_horizontal_pod_autoscaler(hpa: &Value, now: DateTime<Utc>) -> Vec<Value> {
    let min = match hpa.pointer("/spec/minReplicas").and_then(Value::as_i64) {
        Some(min) => min.to_string(),
        None => "<unset>".into(),
    };
    vec![
        name_cell(hpa),
        text(format!(
            "{}/{}",
            text_at(hpa, "/spec/scaleTargetRef/kind"),
            text_at(hpa, "/spec/scaleTargetRef/name")
        )),
        text(hpa_metrics(
            array_at(hpa, "/spec/metrics"),
            array_at(hpa, "/status/currentMetrics"),
        )),
        text(min),
        Value::from(int_at(hpa, "/spec/maxReplicas")),
        Value::from(int_at(hpa, "/status/currentReplicas")),
        age_cell(hpa, now),
    ]
}

/// The boolean at `pointer`, `default` when absent.
fn bool_at(object: &Value, pointer: &str, default: bool) -> bool {
    object
        .pointer(pointer)
        .and_then(Value::as_bool)
        .unwrap_or(default)
}

/// `printCSIDriver`: attach required (default true), pod info on mount,
/// storage capacity, the token requests' audiences (`<unset>` without
/// the field), requires republish, the volume lifecycle modes (`<none>`),
/// age.
fn print_csi_driver(driver: &Value, now: DateTime<Utc>) -> Vec<Value> {
    let token_requests = match driver.pointer("/spec/tokenRequests") {
        Some(Value::Array(requests)) => requests
            .iter()
            .map(|r| text_at(r, "/audience"))
            .collect::<Vec<_>>()
            .join(","),
        _ => "<unset>".into(),
    };
    let modes: Vec<&str> = array_at(driver, "/spec/volumeLifecycleModes")
        .iter()
        .map(|m| m.as_str().unwrap_or_default())
        .collect();
    vec![
        name_cell(driver),
        Value::Bool(bool_at(driver, "/spec/attachRequired", true)),
        Value::Bool(bool_at(driver, "/spec/podInfoOnMount", false)),
        Value::Bool(bool_at(driver, "/spec/storageCapacity", false)),
        text(token_requests),
        Value::Bool(bool_at(driver, "/spec/requiresRepublish", false)),
        text(or(modes.join(","), "<none>")),
        age_cell(driver, now),
    ]
}

/// `printCSINode`: the number of drivers.
fn print_csi_node(node: &Value, now: DateTime<Utc>) -> Vec<Value> {
    vec![
        name_cell(node),
        Value::from(array_at(node, "/spec/drivers").len() as i64),
        age_cell(node, now),
    ]
}

/// `printCSIStorageCapacity`: the storage class and the capacity
/// (`<unset>`).
fn print_csi_storage_capacity(capacity: &Value, _now: DateTime<Utc>) -> Vec<Value> {
    vec![
        name_cell(capacity),
        text(text_at(capacity, "/storageClassName")),
        text(quantity(capacity.get("capacity")).unwrap_or_else(|| "<unset>".into())),
    ]
}

/// `printStorageClass`: the name (` (default)` for the default class), the
/// provisioner, reclaim policy (`Delete`), volume binding mode
/// (`Immediate`), whether volumes expand (false), age.
fn print_storage_class(class: &Value, now: DateTime<Utc>) -> Vec<Value> {
    let annotations = map_at(class, "/metadata/annotations");
    let is_default = [
        "storageclass.kubernetes.io/is-default-class",
        "storageclass.beta.kubernetes.io/is-default-class",
    ]
    .iter()
    .any(|key| {
        annotations
            .and_then(|a| a.get(*key))
            .and_then(Value::as_str)
            == Some("true")
    });
    let mut name = text_at(class, "/metadata/name");
    if is_default {
        name.push_str(" (default)");
    }
    vec![
        text(name),
        text(text_at(class, "/provisioner")),
        text(str_at(class, "/reclaimPolicy").unwrap_or("Delete")),
        text(str_at(class, "/volumeBindingMode").unwrap_or("Immediate")),
        Value::Bool(bool_at(class, "/allowVolumeExpansion", false)),
        age_cell(class, now),
    ]
}

/// `printVolumeAttachment`: attacher, persistent volume, node, attached,
/// age.
fn print_volume_attachment(attachment: &Value, now: DateTime<Utc>) -> Vec<Value> {
    vec![
        name_cell(attachment),
        text(text_at(attachment, "/spec/attacher")),
        text(text_at(attachment, "/spec/source/persistentVolumeName")),
        text(text_at(attachment, "/spec/nodeName")),
        Value::Bool(bool_at(attachment, "/status/attached", false)),
        age_cell(attachment, now),
    ]
}

/// `printPriorityClass`: value, global default, age, preemption policy.
fn print_priority_class(class: &Value, now: DateTime<Utc>) -> Vec<Value> {
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
fn csr_status(request: &Value) -> String {
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
fn print_certificate_signing_request(request: &Value, now: DateTime<Utc>) -> Vec<Value> {
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

#[cfg(test)]
#[path = "builtin_tests.rs"]
mod tests;
