package dev.lomicontrol.proof.crash;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.node.ObjectNode;

/**
 * One unit of work the scripted client wants done exactly once: a request key and the exact
 * request it sends under that key. The request is frozen when the item is made — a retry sends the
 * same bytes (same retryEpoch, same revisions); the client never re-issues the work under another
 * key or epoch. What the client learned about it is kept alongside, for the judge.
 */
final class WorkItem {

    /** What the item does on disk (setup items change only the layout). */
    enum Kind {
        FILE_CREATE,
        TERMINAL_APPEND,
        SETUP
    }

    /** What the client knows about the outcome. */
    enum Knowledge {
        /** Not sent yet. */
        PENDING,
        /** The client saw the operation in a terminal state. */
        SETTLED,
        /** A definite refusal before any receipt (the broker's error envelope). */
        REFUSED,
        /** The helper answered that the call was never sent (APP_UNAVAILABLE / DEADLINE_EXCEEDED, seed 004). */
        NOT_SENT,
        /** Sent and unanswered: the helper's "outcome unknown" (-32603); no receipt seen. */
        UNKNOWN_NO_RECEIPT,
        /** A receipt (operationId) was acknowledged, but its end was never seen. */
        UNKNOWN_ACKNOWLEDGED
    }

    final int round;
    final String key;
    final Kind kind;
    final String tool;
    final ObjectNode request;
    Knowledge knowledge = Knowledge.PENDING;
    Optional<String> operationId = Optional.empty();
    /** The last state the client saw (acknowledged items), or the refusal code. */
    String lastSeen = "";
    /** The answers to the recovery steps after the restart, in order ("get-by-key:TARGET_NOT_FOUND", …). */
    final List<String> recovery = new ArrayList<>();

    WorkItem(int round, String key, Kind kind, String tool, ObjectNode request) {
        this.round = round;
        this.key = key;
        this.kind = kind;
        this.tool = tool;
        this.request = request;
    }

    boolean acknowledged() {
        return operationId.isPresent();
    }

    /** The client does not know whether the effect happened (it must not guess, and must not redo it). */
    boolean uncertain() {
        return knowledge == Knowledge.UNKNOWN_NO_RECEIPT || knowledge == Knowledge.UNKNOWN_ACKNOWLEDGED;
    }

    @Override
    public String toString() {
        return key + " (" + tool + ", " + knowledge + (lastSeen.isEmpty() ? "" : " " + lastSeen)
                + operationId.map(id -> ", op " + id).orElse("") + (recovery.isEmpty() ? "" : ", recovery " + recovery)
                + ")";
    }
}
