package dev.lomicontrol.mcp;

import static dev.lomicontrol.mcp.Schemas.arrayOf;
import static dev.lomicontrol.mcp.Schemas.bool;
import static dev.lomicontrol.mcp.Schemas.constant;
import static dev.lomicontrol.mcp.Schemas.hex40;
import static dev.lomicontrol.mcp.Schemas.integer;
import static dev.lomicontrol.mcp.Schemas.nullable;
import static dev.lomicontrol.mcp.Schemas.object;
import static dev.lomicontrol.mcp.Schemas.oneOfStrings;
import static dev.lomicontrol.mcp.Schemas.string;
import static dev.lomicontrol.mcp.Schemas.token;

import dev.lomicontrol.ipc.BrokerClient;
import dev.lomicontrol.ipc.Envelope;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.node.ObjectNode;

/** Session tools (SPEC §9): status and diagnostics (answered by the helper, also before pairing), connect, workspace list. */
final class SessionTools {

    static final String STATUS = "lomi_status";
    static final String DIAGNOSTICS = "lomi_diagnostics";
    static final String CONNECT = "lomi_connect";
    static final String WORKSPACE_LIST = "lomi_workspace_list";

    private SessionTools() {}

    static List<ToolDefinition> all() {
        return List.of(status(), diagnostics(), connect(), workspaceList());
    }

    static ObjectNode phase() {
        String[] phases = Arrays.stream(BrokerClient.Phase.values()).map(BrokerClient.Phase::wire).toArray(String[]::new);
        return oneOfStrings("the helper's connection to the broker; only 'connected' allows calls other than status and diagnostics", phases);
    }

    private static ToolDefinition status() {
        ObjectNode capability = object().property("name", string("a tool of this catalog"))
                .property("scope", nullable(string("the grant scope the broker requires for it; null when none")))
                .property("available", bool("whether it can be called now (helper tools always; broker tools once connected)"))
                .require("name", "scope", "available").build();
        ObjectNode data = object().property("kind", constant("status")).property("phase", phase())
                .property("detail", string("what the helper last observed, for a human"))
                .property("pairingRequestId", nullable(string("the pending pairing request the admin must approve; null when none")))
                .property("instanceId", nullable(string("the broker instance named by discovery.json; null when unknown")))
                .property("controlApiVersion", constant(Envelope.CONTROL_API_VERSION)).property("ipcVersion", constant(1))
                .property("helperVersion", string("this helper's version"))
                .property("ledgerWarning", nullable(string("set when the broker's last answer said its ledger passed 80 % of a cap:"
                        + " new work may soon be refused with RESOURCE_EXHAUSTED until the admin frees rows; null otherwise")))
                .property("capabilities", arrayOf(capability, "every catalog tool with its availability"))
                .require("kind", "phase", "detail", "pairingRequestId", "instanceId", "controlApiVersion", "ipcVersion", "helperVersion", "capabilities")
                .build();
        return helper(STATUS, "Lomi status",
                "Connection phase (app_unavailable | connecting | pairing_required | connected | disconnected), the pairing request id, the "
                        + "broker instance, API versions and which tools are available now. Works before pairing and never reveals workspace or "
                        + "project names. Call it first.",
                data);
    }

    private static ToolDefinition diagnostics() {
        ObjectNode data = object().property("kind", constant("diagnostics")).property("phase", phase())
                .property("detail", string("what the helper last observed"))
                .property("nextStep", string("what to do next, e.g. the exact console command the admin runs to approve this client"))
                .property("pairingRequestId", nullable(string("the pending pairing request; null when none")))
                .property("instanceId", nullable(string("the broker instance; null when unknown")))
                .property("discoveryFile", nullable(string("the discovery file this helper reads; null when not configured")))
                .require("kind", "phase", "detail", "nextStep", "pairingRequestId", "instanceId", "discoveryFile").build();
        return helper(DIAGNOSTICS, "Lomi diagnostics",
                "The connection phase plus a suggested next step (for example the console command that approves this client). Works before "
                        + "pairing and reveals no workspace data.",
                data);
    }

    private static ToolDefinition connect() {
        ObjectNode input = object().property("workspaceId", token("an approved workspace id from lomi_workspace_list")).require("workspaceId")
                .closed().build();
        ObjectNode data = object().property("kind", constant("connection")).property("instanceId", string("the broker instance"))
                .property("workspaceId", token("the selected workspace")).property("projectId", token("its project"))
                .property("retryEpoch", hex40("the retry epoch for durable requests on this connection (valid 24 h, until reconnect)"))
                .property("retryEpochExpiresAt", string("when the retry epoch expires (ISO-8601)"))
                .property("scopes", arrayOf(string("a granted scope"), "the scopes this client was granted"))
                .require("kind", "instanceId", "workspaceId", "projectId", "retryEpoch", "retryEpochExpiresAt", "scopes").build();
        return ToolDefinition.broker(CONNECT, "Connect to a workspace",
                "Selects an approved workspace and returns its project, the granted scopes and the retryEpoch to send with every durable "
                        + "request on this connection. Needs pairing.",
                Effect.RO, "workspace.read", input, data);
    }

    private static ToolDefinition workspaceList() {
        ObjectNode input = object().property("limit", integer(1, 500, "page size (default 100)"))
                .property("cursor", string(1, 1024, null, "nextCursor of the previous page")).closed().build();
        ObjectNode workspace = object().property("workspaceId", token("workspace id")).property("projectId", token("project id"))
                .property("name", string("workspace name")).property("projectName", string("project name"))
                .property("projectPath", string("the project's folder")).require("workspaceId", "projectId", "name").build();
        ObjectNode data = object().property("kind", constant("workspace_list"))
                .property("domainRevision", string(1, 20, Schemas.DECIMAL_PATTERN, "the layout revision (decimal); send it as expectedRevision"))
                .property("workspaces", arrayOf(workspace, "approved workspaces only"))
                .property("hasMore", bool("whether another page follows"))
                .property("nextCursor", nullable(string("cursor of the next page; null on the last page")))
                .require("kind", "domainRevision", "workspaces", "hasMore").build();
        return ToolDefinition.broker(WORKSPACE_LIST, "List workspaces",
                "Lists the workspaces of the projects this client was approved for, with the layout domainRevision. Paged. Needs pairing.",
                Effect.RO, "workspace.read", input, data);
    }

    private static ToolDefinition helper(String name, String title, String description, ObjectNode data) {
        return new ToolDefinition(name, title, description, Schemas.noArguments(), Schemas.envelope(data), Effect.RO, Optional.empty(),
                Optional.empty(), ToolDefinition.AnsweredBy.HELPER);
    }
}
