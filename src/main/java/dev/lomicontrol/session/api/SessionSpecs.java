package dev.lomicontrol.session.api;

import dev.lomicontrol.core.ProjectId;
import dev.lomicontrol.core.RetryEpochId;
import dev.lomicontrol.core.WorkspaceId;
import dev.lomicontrol.tools.Decimal;
import dev.lomicontrol.tools.Default;
import dev.lomicontrol.tools.Doc;
import dev.lomicontrol.tools.Len;
import dev.lomicontrol.tools.Range;
import dev.lomicontrol.tools.Tag;
import dev.lomicontrol.tools.ToolSpec;
import java.util.List;
import java.util.Optional;

/**
 * The session tools (SPEC §9): status and diagnostics (answered by the helper from its own
 * connection state, also before pairing), connect and the workspace list (answered by the broker).
 */
public final class SessionSpecs {

    private SessionSpecs() {}

    /** The scope of a tool the helper answers itself: none (the status capability list shows it as null). */
    public static final String NO_SCOPE = "";

    /** status and diagnostics take no arguments (an unknown field is refused). */
    public record NoArguments() {}

    /** The helper's connection to the broker; only {@code connected} allows calls other than status and diagnostics. */
    public enum Phase {
        APP_UNAVAILABLE,
        CONNECTING,
        PAIRING_REQUIRED,
        CONNECTED,
        DISCONNECTED,
        BROKER_FULL
    }

    @Tag("status")
    public record Status(
            @Doc(
                    "the helper's connection to the broker; only 'connected' allows calls other than status and diagnostics")
            Phase phase,

            @Doc("what the helper last observed, for a human")
            String detail,

            @Doc("the pending pairing request the admin must approve; null when none")
            Optional<String> pairingRequestId,

            @Doc("the broker instance named by discovery.json; null when unknown")
            Optional<String> instanceId,

            @Doc("the Control API version of the envelopes ('1.0')")
            String controlApiVersion,

            @Doc("the helper-broker protocol version (1)") int ipcVersion,
            @Doc("this helper's version") String helperVersion,

            @Doc(
                    "set when the broker's last answer said its ledger passed 80 % of a cap: new work may soon be refused with "
                            + "RESOURCE_EXHAUSTED until the admin frees rows; null otherwise")
            Optional<String> ledgerWarning,

            @Doc(
                    "when the phase is 'broker_full': the broker's connection cap and how many connections it holds; null otherwise")
            Optional<BrokerFull> brokerFull,

            @Doc("every tool this helper serves, with its availability")
            List<Capability> capabilities) {}

    public record BrokerFull(
            @Doc("the broker's cap on concurrent agent connections")
            int maxConnections,

            @Doc("the connections it held when it refused this helper")
            int connected,

            @Doc("the broker setting that sets the cap ('lomi.control.max-connections')")
            String setting) {}

    public record Capability(
            @Doc("a tool of this catalog") String name,

            @Doc("the grant scope the broker requires for it; null when none")
            Optional<String> scope,

            @Doc(
                    "whether it can be called now (helper tools always; broker tools once connected and when this host can serve them)")
            boolean available,

            @Doc(
                    "whether this host can serve it at all (false: it answers HOST_UNQUALIFIED, e.g. the Android tools without /dev/kvm)")
            boolean qualified,

            @Doc("why this host cannot serve it; null when it can")
            Optional<String> reason) {}

    @Tag("diagnostics")
    public record Diagnostics(
            @Doc("the helper's connection to the broker") Phase phase,
            @Doc("what the helper last observed") String detail,

            @Doc("what to do next, e.g. the exact console command the admin runs to approve this client")
            String nextStep,

            @Doc("the pending pairing request; null when none")
            Optional<String> pairingRequestId,

            @Doc("the broker instance; null when unknown") Optional<String> instanceId,

            @Doc("the discovery file this helper reads; null when not configured")
            Optional<String> discoveryFile) {}

    public record Connect(
            @Doc("leave it out when you have exactly one") Optional<WorkspaceId> workspaceId) {}

    @Tag("connection")
    public record Connection(
            @Doc("the broker instance") String instanceId,
            @Doc("the selected workspace") WorkspaceId workspaceId,
            @Doc("its project") ProjectId projectId,

            @Doc("the retry epoch for durable requests on this connection (valid 24 h, until reconnect)")
            RetryEpochId retryEpoch,

            @Doc("when the retry epoch expires (ISO-8601)") String retryEpochExpiresAt,
            @Doc("the scopes this client was granted") List<String> scopes,

            @Doc("the layout revision (decimal); send it as expectedRevision")
            Decimal domainRevision) {}

    public record WorkspaceList(
            @Range(min = 1, max = 500) @Default("100") int limit,

            @Len(min = 1, max = 1024) Optional<String> cursor) {}

    @Tag("workspace_list")
    public record Workspaces(
            @Doc("the layout revision (decimal); send it as expectedRevision")
            Decimal domainRevision,

            @Doc("approved workspaces only") List<ListedWorkspace> workspaces,
            @Doc("whether another page follows") boolean hasMore,

            @Doc("cursor of the next page; null on the last page")
            Optional<String> nextCursor) {}

    public record ListedWorkspace(
            @Doc("workspace id") WorkspaceId workspaceId,
            @Doc("project id") ProjectId projectId,
            @Doc("workspace name") String name,
            @Doc("project name") String projectName,
            @Doc("the project's folder") String projectPath) {}

    public static final ToolSpec<NoArguments> STATUS = ToolSpec.read(
                    "lomi_status",
                    "Lomi status",
                    NO_SCOPE,
                    "R-I-",
                    NoArguments.class,
                    Status.class,
                    "The connection phase (pairing_required, connected, …) and which tools work now. Call it first.")
            .answeredByHelper();

    public static final ToolSpec<NoArguments> DIAGNOSTICS = ToolSpec.read(
                    "lomi_diagnostics",
                    "Lomi diagnostics",
                    NO_SCOPE,
                    "R-I-",
                    NoArguments.class,
                    Diagnostics.class,
                    "The connection phase and the next step (e.g. the console command that approves this client).")
            .answeredByHelper();

    public static final ToolSpec<Connect> CONNECT = ToolSpec.read(
            "lomi_connect",
            "Connect to a workspace",
            "workspace.read",
            "R-I-",
            Connect.class,
            Connection.class,
            "Selects an approved workspace (the only one when workspaceId is left out); returns its project, your "
                    + "scopes, the layout's domainRevision and the retryEpoch for durable requests.");

    public static final ToolSpec<WorkspaceList> WORKSPACE_LIST = ToolSpec.read(
            "lomi_workspace_list",
            "List workspaces",
            "workspace.read",
            "R-I-",
            WorkspaceList.class,
            Workspaces.class,
            "Lists the workspaces you may use, with the layout's domainRevision.");

    public static final List<ToolSpec<?>> ALL = List.of(STATUS, DIAGNOSTICS, CONNECT, WORKSPACE_LIST);
}
