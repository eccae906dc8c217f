package dev.lomicontrol.mcp;

import dev.lomicontrol.ipc.BrokerClient.Phase;
import dev.lomicontrol.ipc.BrokerClient.State;
import dev.lomicontrol.ipc.Envelope;
import dev.lomicontrol.ipc.IpcJson;
import java.nio.file.Path;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The data of {@code lomi_status} and {@code lomi_diagnostics}, built by the helper from its own
 * connection state. It names the phase, the pairing request and the broker instance, and never a
 * workspace or project (those are visible only after pairing, through the broker).
 */
final class StatusReport {

    private final Connector connector;
    private final Catalog catalog;
    private volatile String ledgerWarning;

    StatusReport(Connector connector, Catalog catalog) {
        this.connector = connector;
        this.catalog = catalog;
    }

    /** The console command that approves the pending request (or a placeholder when there is none). */
    static String approveCommand(State state) {
        return "lomi-control console pairing approve " + state.pairingRequestId().orElse("<request id from 'pairing list'>");
    }

    ObjectNode status() {
        State state = connector.state();
        ObjectNode data = McpJson.object();
        data.put("kind", "status");
        data.put("phase", state.phase().wire());
        data.put("detail", state.detail());
        identity(data, state);
        data.put("controlApiVersion", Envelope.CONTROL_API_VERSION);
        data.put("ipcVersion", IpcJson.IPC_VERSION);
        data.put("helperVersion", Protocol.version());
        data.put("ledgerWarning", ledgerWarning);
        ArrayNode capabilities = data.putArray("capabilities");
        for (ToolDefinition tool : catalog.all()) {
            ObjectNode capability = capabilities.addObject();
            capability.put("name", tool.name());
            capability.put("scope", tool.scope().orElse(null));
            capability.put("available", tool.answeredBy() == ToolDefinition.AnsweredBy.HELPER || state.phase() == Phase.CONNECTED);
        }
        return data;
    }

    /** Remembers the broker's ledger warning of its latest answer (absent: the ledger is below 80 % of its caps). */
    void observe(JsonNode envelope) {
        JsonNode warning = envelope.get("ledgerWarning");
        ledgerWarning = warning != null && warning.isString() ? warning.asString() : null;
    }

    ObjectNode diagnostics() {
        State state = connector.state();
        ObjectNode data = McpJson.object();
        data.put("kind", "diagnostics");
        data.put("phase", state.phase().wire());
        data.put("detail", state.detail());
        data.put("nextStep", nextStep(state));
        identity(data, state);
        data.put("discoveryFile", connector.discoveryFile().map(Path::toString).orElse(null));
        return data;
    }

    static String nextStep(State state) {
        switch (state.phase()) {
            case CONNECTED:
                return "Call lomi_workspace_list, then lomi_connect {workspaceId}.";
            case PAIRING_REQUIRED:
                return "Ask the admin to approve this client: " + approveCommand(state) + " (or 'lomi-control console pairing deny "
                        + state.pairingRequestId().orElse("<id>") + "'). Then call lomi_status again.";
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

    private static void identity(ObjectNode data, State state) {
        data.put("pairingRequestId", state.pairingRequestId().orElse(null));
        data.put("instanceId", state.instanceId().orElse(null));
    }
}
