package dev.lomicontrol.broker;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.core.SessionId;
import dev.lomicontrol.core.WorkspaceId;
import dev.lomicontrol.ledger.Ledger;
import dev.lomicontrol.ledger.RetryEpoch;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.projects.Project;
import dev.lomicontrol.projects.Projects;
import dev.lomicontrol.projects.Workspace;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code lomi_workspace_list} and {@code lomi_connect}. Only workspaces of granted projects exist
 * for a session: an unknown id and a forbidden one both get TARGET_NOT_FOUND.
 *
 * <p>List cursors are opaque to clients: {@code <domainRevision>:<offset>:<instanceId>}. A cursor
 * from another revision or another broker run answers CURSOR_EXPIRED (list again from the start).
 */
final class WorkspaceCalls {

    static final int DEFAULT_LIMIT = 100;
    static final int MAX_LIMIT = 500;
    private static final Pattern CURSOR = Pattern.compile("([0-9]{1,18}):([0-9]{1,9}):([^:]{1,64})");
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private final Projects projects;
    private final Ledger ledger;
    private final BrokerRuntime runtime;
    private final Clock clock;
    private final Map<SessionId, RetryEpoch> epochs = new ConcurrentHashMap<>();

    WorkspaceCalls(Projects projects, Ledger ledger, BrokerRuntime runtime, Clock clock) {
        this.projects = projects;
        this.ledger = ledger;
        this.runtime = runtime;
        this.clock = clock;
    }

    ObjectNode list(Session session, JsonNode arguments) {
        Arguments args = Arguments.of(arguments, "limit", "cursor");
        int limit = args.integer("limit", 1, MAX_LIMIT, OptionalInt.of(DEFAULT_LIMIT));
        Snapshot snapshot = snapshot(session);
        int offset = args.optionalString("cursor").map(cursor -> offsetOf(cursor, snapshot.revision)).orElse(0);
        int end = Math.min(snapshot.workspaces.size(), offset + limit);
        ObjectNode data = JSON.objectNode();
        data.put("kind", "workspace_list");
        data.put("domainRevision", Long.toString(snapshot.revision));
        ArrayNode list = data.putArray("workspaces");
        for (Listed listed : snapshot.workspaces.subList(Math.min(offset, end), end)) {
            ObjectNode item = list.addObject();
            item.put("workspaceId", listed.workspace.id().value());
            item.put("projectId", listed.project.id().value());
            item.put("name", listed.workspace.name());
            item.put("projectName", listed.project.name());
            item.put("projectPath", listed.project.root().toString());
        }
        boolean hasMore = end < snapshot.workspaces.size();
        data.put("hasMore", hasMore);
        if (hasMore) {
            data.put("nextCursor", snapshot.revision + ":" + end + ":" + runtime.instanceId());
        } else {
            data.putNull("nextCursor");
        }
        return data;
    }

    /** Selects a granted workspace; the session's retry epoch is issued once and returned again while valid. */
    ObjectNode connect(Session session, JsonNode arguments) {
        Arguments args = Arguments.of(arguments, "workspaceId");
        Listed listed = resolve(session, new WorkspaceId(args.requiredString("workspaceId")));
        RetryEpoch epoch = epochs.compute(session.id(),
                (id, issued) -> issued != null && clock.instant().isBefore(issued.expiresAt()) ? issued : ledger.issueEpoch(id));
        ObjectNode data = JSON.objectNode();
        data.put("kind", "connection");
        data.put("instanceId", runtime.instanceId());
        data.put("workspaceId", listed.workspace.id().value());
        data.put("projectId", listed.project.id().value());
        data.put("retryEpoch", epoch.id().value());
        data.put("retryEpochExpiresAt", epoch.expiresAt().toString());
        ArrayNode scopes = data.putArray("scopes");
        session.grant().scopes().stream().sorted().forEach(scopes::add);
        return data;
    }

    /** The granted workspace with this id, or TARGET_NOT_FOUND (unknown and forbidden look the same). */
    Listed resolve(Session session, WorkspaceId id) {
        for (Project project : projects.list()) {
            for (Workspace workspace : project.workspaces()) {
                if (workspace.id().equals(id) && session.grant().covers(project.id())) {
                    return new Listed(project, workspace);
                }
            }
        }
        throw new LomiException(ErrorCode.TARGET_NOT_FOUND, "no workspace " + id);
    }

    void sessionEnded(Session session) {
        epochs.remove(session.id());
    }

    /** The granted workspaces and the revision they belong to (re-read if the layout moved meanwhile). */
    private Snapshot snapshot(Session session) {
        for (int attempt = 0; ; attempt++) {
            long revision = projects.revision();
            List<Listed> granted = new ArrayList<>();
            for (Project project : projects.list()) {
                if (session.grant().covers(project.id())) {
                    project.workspaces().forEach(w -> granted.add(new Listed(project, w)));
                }
            }
            if (revision == projects.revision() || attempt == 3) {
                return new Snapshot(revision, granted);
            }
        }
    }

    private int offsetOf(String cursor, long revision) {
        Matcher matcher = CURSOR.matcher(cursor);
        if (!matcher.matches()) {
            throw Arguments.invalid("cursor is not a workspace_list cursor");
        }
        if (Long.parseLong(matcher.group(1)) != revision || !matcher.group(3).equals(runtime.instanceId())) {
            throw new LomiException(ErrorCode.CURSOR_EXPIRED, "the workspaces changed since this cursor (domainRevision is now "
                    + revision + "); list again without a cursor");
        }
        return Integer.parseInt(matcher.group(2));
    }

    record Listed(Project project, Workspace workspace) {}

    private record Snapshot(long revision, List<Listed> workspaces) {}

    /** Registers the handlers of the tools this class serves. */
    void register(ToolHandlers handlers) {
    }

    /** The tools of this class not yet bound through their declarations. */
    void registerLegacy(java.util.Map<String, BrokerCalls.LegacyCall> legacy) {
        legacy.put("lomi_workspace_list", this::list);
        legacy.put("lomi_connect", this::connect);
    }
}
