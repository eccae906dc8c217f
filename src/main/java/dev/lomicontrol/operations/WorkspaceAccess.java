package dev.lomicontrol.operations;

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
import java.util.concurrent.ConcurrentHashMap;

/**
 * What a session may reach: only workspaces of granted projects exist for it (an unknown id and a
 * forbidden one both get TARGET_NOT_FOUND), and the retry epoch it was issued. Every tool adapter
 * resolves its workspace here.
 */
public final class WorkspaceAccess {

    private final Projects projects;
    private final Ledger ledger;
    private final String instanceId;
    private final Clock clock;
    private final Map<SessionId, RetryEpoch> epochs = new ConcurrentHashMap<>();

    public WorkspaceAccess(Projects projects, Ledger ledger, String instanceId, Clock clock) {
        this.projects = projects;
        this.ledger = ledger;
        this.instanceId = instanceId;
        this.clock = clock;
    }

    /** This broker run's id (cursors and connections name it, so a cursor of an earlier run expires). */
    public String instanceId() {
        return instanceId;
    }

    /** The granted workspace with this id, or TARGET_NOT_FOUND (unknown and forbidden look the same). */
    public Listed resolve(Session session, WorkspaceId id) {
        for (Project project : projects.list()) {
            for (Workspace workspace : project.workspaces()) {
                if (workspace.id().equals(id) && session.grant().covers(project.id())) {
                    return new Listed(project, workspace);
                }
            }
        }
        throw new LomiException(
                ErrorCode.TARGET_NOT_FOUND,
                "no workspace " + id + " is visible to this session; list the workspaces (lomi_workspace_list) and"
                        + " use a workspaceId from that answer");
    }

    /** The session's retry epoch: issued once and returned again while it is valid. */
    public RetryEpoch epoch(Session session) {
        return epochs.compute(
                session.id(),
                (id, issued) -> issued != null && clock.instant().isBefore(issued.expiresAt())
                        ? issued
                        : ledger.issueEpoch(id));
    }

    /** The granted workspaces and the {@code domainRevision} they belong to (re-read if the layout moved meanwhile). */
    public Granted granted(Session session) {
        for (int attempt = 0; ; attempt++) {
            long revision = projects.revision();
            List<Listed> granted = new ArrayList<>();
            for (Project project : projects.list()) {
                if (session.grant().covers(project.id())) {
                    project.workspaces().forEach(w -> granted.add(new Listed(project, w)));
                }
            }
            if (revision == projects.revision() || attempt == 3) {
                return new Granted(revision, granted);
            }
        }
    }

    public void sessionEnded(Session session) {
        epochs.remove(session.id());
    }

    /** A workspace and the project it belongs to. */
    public record Listed(Project project, Workspace workspace) {}

    /** Workspaces a session sees, at one {@code domainRevision}. */
    public record Granted(long revision, List<Listed> workspaces) {}
}
