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

use super::printers::*;
use super::{CREATION_TIMESTAMP_DESCRIPTION, NAME_DESCRIPTION, Printer, TableColumnDefinition};

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
    // CustomResourceDefinitions too: apiextensions-apiserver's REST
    // storage serves the default NAME and CREATED AT (`kubectl get crds`).
    Kind {
        group: "apiextensions.k8s.io",
        plural: "customresourcedefinitions",
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

#[cfg(test)]
#[path = "builtin_tests.rs"]
mod tests;
