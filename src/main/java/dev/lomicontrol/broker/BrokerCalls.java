package dev.lomicontrol.broker;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.core.WorkspaceId;
import dev.lomicontrol.ipc.Envelope;
import dev.lomicontrol.ledger.Ledger;
import dev.lomicontrol.ledger.RetryEpoch;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.projects.Project;
import dev.lomicontrol.projects.Projects;
import dev.lomicontrol.projects.Workspace;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The broker's side of tool calls from an authenticated session. Every call first checks that the
 * session still has authority; results are Control API envelopes. Workspaces outside the grant
 * are invisible (an unknown id and a forbidden one get the same TARGET_NOT_FOUND).
 */
@Component
public class BrokerCalls {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private final Projects projects;
    private final Ledger ledger;
    private final BrokerRuntime runtime;
    private final Map<dev.lomicontrol.core.SessionId, RetryEpoch> epochs = new ConcurrentHashMap<>();

    public BrokerCalls(Projects projects, Ledger ledger, BrokerRuntime runtime) {
        this.projects = projects;
        this.ledger = ledger;
        this.runtime = runtime;
    }

    /** Runs one call; never throws for expected refusals (they become error envelopes). */
    public JsonNode call(Session session, String tool, JsonNode arguments) {
        try {
            session.requireAlive();
            switch (tool) {
                case "lomi_workspace_list":
                    return Envelope.ok(workspaceList(session, arguments));
                case "lomi_connect":
                    return Envelope.ok(connect(session, arguments));
                default:
                    return Envelope.error(ErrorCode.INVALID_ARGUMENT, "unknown tool " + tool);
            }
        } catch (LomiException e) {
            return Envelope.error(e.code(), e.getMessage());
        }
    }

    /** Forgets per-session state when the session ends. */
    public void sessionEnded(Session session) {
        epochs.remove(session.id());
    }

    private ObjectNode workspaceList(Session session, JsonNode arguments) {
        requireOnly(arguments, "limit", "cursor");
        ObjectNode data = JSON.objectNode();
        data.put("kind", "workspace_list");
        data.put("domainRevision", Long.toString(projects.revision()));
        ArrayNode list = data.putArray("workspaces");
        for (Project project : projects.list()) {
            if (!session.grant().covers(project.id())) {
                continue;
            }
            for (Workspace workspace : project.workspaces()) {
                ObjectNode item = list.addObject();
                item.put("workspaceId", workspace.id().value());
                item.put("projectId", project.id().value());
                item.put("name", workspace.name());
                item.put("projectName", project.name());
                item.put("projectPath", project.root().toString());
            }
        }
        data.put("hasMore", false);
        return data;
    }

    private ObjectNode connect(Session session, JsonNode arguments) {
        requireOnly(arguments, "workspaceId");
        String requested = arguments.path("workspaceId").asString("");
        WorkspaceId workspaceId = new WorkspaceId(requested);
        for (Project project : projects.list()) {
            for (Workspace workspace : project.workspaces()) {
                if (workspace.id().equals(workspaceId) && session.grant().covers(project.id())) {
                    RetryEpoch epoch = epochs.computeIfAbsent(session.id(), id -> ledger.issueEpoch(id));
                    ObjectNode data = JSON.objectNode();
                    data.put("kind", "connection");
                    data.put("instanceId", runtime.instanceId());
                    data.put("workspaceId", workspace.id().value());
                    data.put("projectId", project.id().value());
                    data.put("retryEpoch", epoch.id().value());
                    data.put("retryEpochExpiresAt", epoch.expiresAt().toString());
                    ArrayNode scopes = data.putArray("scopes");
                    session.grant().scopes().stream().sorted().forEach(scopes::add);
                    return data;
                }
            }
        }
        throw new LomiException(ErrorCode.TARGET_NOT_FOUND, "no workspace " + requested);
    }

    private static void requireOnly(JsonNode arguments, String... allowed) {
        if (arguments == null || arguments.isNull()) {
            return;
        }
        if (!arguments.isObject()) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "arguments must be an object");
        }
        for (Iterator<String> names = arguments.propertyNames().iterator(); names.hasNext(); ) {
            String name = names.next();
            if (!java.util.List.of(allowed).contains(name)) {
                throw new LomiException(ErrorCode.INVALID_ARGUMENT, "unknown field " + name);
            }
        }
    }
}
