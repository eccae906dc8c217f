package dev.lomicontrol.session.tools;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.ledger.RetryEpoch;
import dev.lomicontrol.operations.ToolFeature;
import dev.lomicontrol.operations.ToolHandlers;
import dev.lomicontrol.operations.WorkspaceAccess;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.session.api.SessionSpecs;
import dev.lomicontrol.tools.Decimal;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.springframework.stereotype.Component;

/**
 * {@code lomi_workspace_list} and {@code lomi_connect} over {@link WorkspaceAccess}.
 *
 * <p>List cursors are opaque to clients: {@code <domainRevision>:<offset>:<instanceId>}. A cursor
 * from another revision or another broker run answers CURSOR_EXPIRED (list again from the start).
 */
@Component
public final class WorkspaceCalls implements ToolFeature {

    private static final Pattern CURSOR = Pattern.compile("([0-9]{1,18}):([0-9]{1,9}):([^:]{1,64})");

    private final WorkspaceAccess access;

    public WorkspaceCalls(WorkspaceAccess access) {
        this.access = access;
    }

    public SessionSpecs.Workspaces list(Session session, SessionSpecs.WorkspaceList input) {
        WorkspaceAccess.Granted granted = access.granted(session);
        int offset = input.cursor()
                .map(cursor -> offsetOf(cursor, granted.revision()))
                .orElse(0);
        int end = Math.min(granted.workspaces().size(), offset + input.limit());
        List<SessionSpecs.ListedWorkspace> page = granted.workspaces().subList(Math.min(offset, end), end).stream()
                .map(listed -> new SessionSpecs.ListedWorkspace(
                        listed.workspace().id(),
                        listed.project().id(),
                        listed.workspace().name(),
                        listed.project().name(),
                        listed.project().root().toString()))
                .toList();
        boolean hasMore = end < granted.workspaces().size();
        return new SessionSpecs.Workspaces(
                Decimal.of(granted.revision()),
                page,
                hasMore,
                hasMore ? Optional.of(granted.revision() + ":" + end + ":" + access.instanceId()) : Optional.empty());
    }

    /**
     * Selects a granted workspace — the only one when the input names none — and answers it with the
     * layout revision; the session's retry epoch is issued once and returned again while valid.
     */
    public SessionSpecs.Connection connect(Session session, SessionSpecs.Connect input) {
        WorkspaceAccess.Granted granted = access.granted(session);
        WorkspaceAccess.Listed listed = input.workspaceId().isPresent()
                ? access.resolve(session, input.workspaceId().get())
                : only(granted);
        RetryEpoch epoch = access.epoch(session);
        return new SessionSpecs.Connection(
                access.instanceId(),
                listed.workspace().id(),
                listed.project().id(),
                epoch.id(),
                epoch.expiresAt().toString(),
                session.grant().scopes().stream().sorted().toList(),
                Decimal.of(granted.revision()));
    }

    /** The one granted workspace; a refusal that names the choices when there are several, or says there is none. */
    private static WorkspaceAccess.Listed only(WorkspaceAccess.Granted granted) {
        List<WorkspaceAccess.Listed> all = granted.workspaces();
        if (all.size() == 1) {
            return all.get(0);
        }
        if (all.isEmpty()) {
            throw new LomiException(
                    ErrorCode.TARGET_NOT_FOUND,
                    "no workspace is granted to this session; ask the admin to add a project (console project add) "
                            + "and call lomi_connect again");
        }
        String choices = all.stream()
                .limit(8)
                .map(l -> l.workspace().id() + " ('" + l.workspace().name() + "' in "
                        + l.project().name() + ")")
                .collect(Collectors.joining(", "));
        throw new LomiException(
                ErrorCode.INVALID_ARGUMENT,
                "you have " + all.size() + " workspaces; name one with workspaceId: " + choices
                        + (all.size() > 8 ? ", … (lomi_workspace_list lists them all)" : ""));
    }

    private int offsetOf(String cursor, long revision) {
        Matcher matcher = CURSOR.matcher(cursor);
        if (!matcher.matches()) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "cursor is not a workspace_list cursor");
        }
        if (Long.parseLong(matcher.group(1)) != revision || !matcher.group(3).equals(access.instanceId())) {
            throw new LomiException(
                    ErrorCode.CURSOR_EXPIRED,
                    "the workspaces changed since this cursor (domainRevision is now " + revision
                            + "); list again without a cursor");
        }
        return Integer.parseInt(matcher.group(2));
    }

    /** Registers the handlers of the tools this class serves. */
    @Override
    public void register(Wiring wiring) {
        ToolHandlers handlers = wiring.handlers();
        handlers.on(SessionSpecs.WORKSPACE_LIST, this::list);
        handlers.on(SessionSpecs.CONNECT, this::connect);
    }
}
