package dev.lomicontrol.broker;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.episodes.Episodes;
import dev.lomicontrol.ipc.Envelope;
import dev.lomicontrol.ledger.Ledger;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.projects.Projects;
import java.time.Clock;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;

/**
 * The broker's side of tool calls from an authenticated session. Every call first checks that the
 * session still has authority (CONTROL_REVOKED otherwise), counts as traffic that keeps the
 * session's episode alive, validates its arguments natively (unknown fields and out-of-range values
 * are INVALID_ARGUMENT) and answers a Control API envelope whose data names its {@code kind}.
 * Workspaces outside the grant and other sessions' receipts are invisible (TARGET_NOT_FOUND, the
 * same as an unknown id).
 */
@Component
public class BrokerCalls {

    private final Episodes episodes;
    private final WorkspaceCalls workspaces;
    private final OperationCalls operations;
    private final EpisodeCalls episodeCalls;

    public BrokerCalls(Projects projects, Ledger ledger, BrokerRuntime runtime, Episodes episodes, NativeStop nativeStop, Clock clock) {
        this.episodes = episodes;
        this.workspaces = new WorkspaceCalls(projects, ledger, runtime, clock);
        this.operations = new OperationCalls(ledger, workspaces, nativeStop);
        this.episodeCalls = new EpisodeCalls(episodes, clock);
    }

    /** Runs one call; never throws for expected refusals (they become error envelopes). */
    public JsonNode call(Session session, String tool, JsonNode arguments) {
        try {
            session.requireAlive();
            episodes.touch(session.id());
            return Envelope.ok(dispatch(session, tool == null ? "" : tool, arguments));
        } catch (LomiException e) {
            return Envelope.error(e.code(), e.getMessage());
        }
    }

    /** The session's connection is gone: its retry epoch is forgotten and its episode detached (not closed). */
    public void sessionEnded(Session session) {
        workspaces.sessionEnded(session);
        episodes.sessionEnded(session.id());
    }

    private JsonNode dispatch(Session session, String tool, JsonNode arguments) {
        switch (tool) {
            case "lomi_workspace_list":
                return workspaces.list(session, arguments);
            case "lomi_connect":
                return workspaces.connect(session, arguments);
            case "lomi_operation_get":
                return operations.get(session, arguments);
            case "lomi_operation_cancel":
                return operations.cancel(session, arguments);
            case "lomi_events_read":
                return operations.events(session, arguments);
            case "lomi_session_attach":
                return episodeCalls.attach(session, arguments);
            case "lomi_session_detach":
                return episodeCalls.detach(session, arguments);
            case "lomi_episodes":
                return episodeCalls.list(session, arguments);
            default:
                throw new LomiException(ErrorCode.INVALID_ARGUMENT, "unknown tool " + tool);
        }
    }
}
