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
import dev.lomicontrol.tools.Decimal;
import dev.lomicontrol.tools.session.SessionSpecs;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code lomi_workspace_list} and {@code lomi_connect}. Only workspaces of granted projects exist
 * for a session: an unknown id and a forbidden one both get TARGET_NOT_FOUND.
 *
 * <p>List cursors are opaque to clients: {@code <domainRevision>:<offset>:<instanceId>}. A cursor
 * from another revision or another broker run answers CURSOR_EXPIRED (list again from the start).
 */
final class WorkspaceCalls {

    private static final Pattern CURSOR = Pattern.compile("([0-9]{1,18}):([0-9]{1,9}):([^:]{1,64})");

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

    SessionSpecs.Workspaces list(Session session, SessionSpecs.WorkspaceList input) {
        Snapshot snapshot = snapshot(session);
        int offset = input.cursor().map(cursor -> offsetOf(cursor, snapshot.revision)).orElse(0);
        int end = Math.min(snapshot.workspaces.size(), offset + input.limit());
        List<SessionSpecs.ListedWorkspace> page = snapshot.workspaces.subList(Math.min(offset, end), end).stream()
                .map(listed -> new SessionSpecs.ListedWorkspace(listed.workspace.id(), listed.project.id(), listed.workspace.name(),
                        listed.project.name(), listed.project.root().toString()))
                .toList();
        boolean hasMore = end < snapshot.workspaces.size();
        return new SessionSpecs.Workspaces(Decimal.of(snapshot.revision), page, hasMore,
                hasMore ? Optional.of(snapshot.revision + ":" + end + ":" + runtime.instanceId()) : Optional.empty());
    }

    /** Selects a granted workspace; the session's retry epoch is issued once and returned again while valid. */
    SessionSpecs.Connection connect(Session session, SessionSpecs.Connect input) {
        Listed listed = resolve(session, input.workspaceId());
        RetryEpoch epoch = epochs.compute(session.id(),
                (id, issued) -> issued != null && clock.instant().isBefore(issued.expiresAt()) ? issued : ledger.issueEpoch(id));
        return new SessionSpecs.Connection(runtime.instanceId(), listed.workspace.id(), listed.project.id(), epoch.id(),
                epoch.expiresAt().toString(), session.grant().scopes().stream().sorted().toList());
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
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "cursor is not a workspace_list cursor");
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
        handlers.on(SessionSpecs.WORKSPACE_LIST, this::list);
        handlers.on(SessionSpecs.CONNECT, this::connect);
    }
}
