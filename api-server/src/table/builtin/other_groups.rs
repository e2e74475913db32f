//! The tables of the built-in kinds of the named groups (apps, batch,
//! networking, storage, ...).

use super::*;

/// The named groups' kinds with a table.
pub(super) const OTHER_GROUPS: &[Kind] = &[
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
