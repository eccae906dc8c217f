package dev.lomicontrol.mcp;

import dev.lomicontrol.catalog.ToolCatalog;
import dev.lomicontrol.ipc.BrokerClient.Phase;
import dev.lomicontrol.ipc.BrokerClient.State;
import dev.lomicontrol.ipc.Envelope;
import dev.lomicontrol.ipc.IpcJson;
import dev.lomicontrol.session.api.SessionSpecs;
import dev.lomicontrol.tools.Encoder;
import dev.lomicontrol.tools.HostQualification;
import dev.lomicontrol.tools.ToolSelection;
import dev.lomicontrol.tools.ToolSpec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * The data of {@code lomi_status} and {@code lomi_diagnostics}, built by the helper from its own
 * connection state. It names the phase, the pairing request and the broker instance, and never a
 * workspace or project (those are visible only after pairing, through the broker).
 */
final class StatusReport {

    private final Connector connector;
    private final ToolSelection selection;
    private volatile @Nullable String ledgerWarning;

    /** The report of a helper that serves every tool. */
    StatusReport(Connector connector) {
        this(connector, ToolSelection.all());
    }

    /** The report of a helper that serves {@code selection}: its capabilities are those tools. */
    StatusReport(Connector connector, ToolSelection selection) {
        this.connector = connector;
        this.selection = selection;
    }

    /** The console command that approves the pending request (or a placeholder when there is none). */
    static String approveCommand(State state) {
        return "lomi-control console pairing approve "
                + state.pairingRequestId().orElse("<request id from 'pairing list'>");
    }

    ObjectNode status() {
        State state = connector.state();
        return (ObjectNode) Encoder.encode(new SessionSpecs.Status(
                phase(state),
                state.detail(),
                state.pairingRequestId(),
                state.instanceId(),
                Envelope.CONTROL_API_VERSION,
                IpcJson.IPC_VERSION,
                Protocol.version(),
                Optional.ofNullable(ledgerWarning),
                state.brokerFull()
                        .map(full -> new SessionSpecs.BrokerFull(
                                full.maxConnections(), full.connected(), dev.lomicontrol.ipc.BrokerFull.SETTING)),
                capabilities(state.phase() == Phase.CONNECTED, selection)));
    }

    /**
     * One entry per tool this helper serves ({@code --toolsets}, {@code --read-only}; every declared
     * tool without them): a helper tool is always available; a broker tool once connected and when
     * this host can serve it; an unqualified one names why (HOST_UNQUALIFIED).
     */
    private static List<SessionSpecs.Capability> capabilities(boolean connected, ToolSelection selection) {
        List<SessionSpecs.Capability> capabilities = new ArrayList<>();
        for (ToolSpec<?> spec : ToolCatalog.standard().servedBy(selection)) {
            Optional<String> unqualified = HostQualification.reason(spec);
            boolean available = spec.helperAnswers() || connected && unqualified.isEmpty();
            capabilities.add(new SessionSpecs.Capability(
                    spec.name(),
                    Optional.of(spec.scope().name()).filter(scope -> !scope.isEmpty()),
                    available,
                    unqualified.isEmpty(),
                    unqualified));
        }
        return capabilities;
    }

    /** Remembers the broker's ledger warning of its latest answer (absent: the ledger is below 80 % of its caps). */
    void observe(java.util.Optional<String> warning) {
        ledgerWarning = warning.orElse(null);
    }

    ObjectNode diagnostics() {
        State state = connector.state();
        return (ObjectNode) Encoder.encode(new SessionSpecs.Diagnostics(
                phase(state),
                state.detail(),
                nextStep(state),
                state.pairingRequestId(),
                state.instanceId(),
                connector.discoveryFile().map(Path::toString)));
    }

    private static SessionSpecs.Phase phase(State state) {
        return SessionSpecs.Phase.valueOf(state.phase().name());
    }

    static String nextStep(State state) {
        switch (state.phase()) {
            case CONNECTED:
                return "Call lomi_workspace_list, then lomi_connect {workspaceId}.";
            case PAIRING_REQUIRED:
                return "Ask the admin to approve this client: " + approveCommand(state)
                        + " (or 'lomi-control console pairing deny "
                        + state.pairingRequestId().orElse("<id>") + "'). Then call lomi_status again.";
            case BROKER_FULL:
                return "Every connection slot of the broker is taken (" + dev.lomicontrol.ipc.BrokerFull.SETTING
                        + "); the helper connects by itself as soon as one frees. The admin sees who holds them with "
                        + "'lomi-control console session list', frees one with 'session revoke <id> --confirm', or raises "
                        + "the setting in config/application.properties and restarts the broker.";
            case CONNECTING:
                return "The helper is connecting to the broker; call lomi_status again in a moment.";
            case DISCONNECTED:
                return state.detail().startsWith("pairing denied")
                        ? "The admin denied this client. Restart the MCP client to request pairing again."
                        : "The connection ended; the helper reconnects by itself (a new pairing request may need approval). Call lomi_status again.";
            default:
                return "Start the broker with 'lomi-control serve' and make sure this client was registered with "
                        + "'lomi-control console client register <client>' against the same data directory; the helper retries by itself.";
        }
    }
}
