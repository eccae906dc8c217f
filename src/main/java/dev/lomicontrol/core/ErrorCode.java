package dev.lomicontrol.core;

/**
 * The stable error codes of Control API 1.0 (SPEC §4). Every adapter (MCP, frames, console) maps
 * these to its wire form in exactly one place. Each code carries a generic next step, the last line
 * of defence {@link ErrorMessages#of} answers when a refusal was raised without a message of its own
 * (the refusing site should always say what was wrong).
 */
public enum ErrorCode {
    APP_UNAVAILABLE("the lomi-control broker is not reachable; start it (lomi-control service start) and call again"),
    PAIRING_REQUIRED("this helper is not paired with the broker; pair it (lomi-control pair) and call again"),
    SCOPE_DENIED("the call needs a scope or approval this session does not have; ask the user to grant it, or use"
            + " a tool within the session's scopes"),
    TARGET_NOT_FOUND("the target named does not exist or is not visible to this session; list the targets again"
            + " and use an id from that answer"),
    STALE_GENERATION("the target was replaced since its id was read; list it again and use the new id"),
    REVISION_CONFLICT("the target changed since the revision given was read; read it again and retry with the"
            + " current revision"),
    STALE_SNAPSHOT("the snapshot named is no longer current; take a new snapshot and use its refs"),
    TARGET_BUSY("the target is busy with another operation; wait for it to finish (lomi_operation_get with"
            + " waitMs) and call again"),
    CONTROL_REVOKED("this session no longer holds control; claim control again before changing the target"),
    PROMPT_STATE_UNKNOWN("no ready prompt was observed; read the terminal's output and wait for its prompt before"
            + " sending input"),
    UNSUPPORTED_CAPABILITY("the target does not support this request; read the tool's description for what it"
            + " supports and call it that way"),
    HOST_UNQUALIFIED("this host cannot serve the tool; install what it needs or use another tool"),
    DEADLINE_EXCEEDED("the call did not finish in time; check the operation's state (lomi_operation_get)"
            + " before calling again"),
    CURSOR_EXPIRED("the cursor belongs to an older listing; list again from the first page"),
    ARTIFACT_TOO_LARGE("the artifact is larger than allowed; read a smaller range or raise maxBytes"),
    ARTIFACT_INVALID("the artifact is not valid for this request; produce a new artifact and use its id"),
    OUTCOME_UNKNOWN("the outcome of the call is unknown; check the operation (lomi_operation_get), or send the call"
            + " again with the same retryEpoch and requestKey, which never runs it twice"),
    IDEMPOTENCY_CONFLICT(
            "the requestKey was already used for a different call; use a new requestKey for a new" + " call"),
    RETRY_WINDOW_EXPIRED("the retryEpoch given has expired; connect again (lomi_connect) and send the call with"
            + " the new retryEpoch"),
    RESOURCE_EXHAUSTED("a broker limit was reached; finish or close something you opened, then call again"),
    STORAGE_UNAVAILABLE("the broker's storage is unavailable; ask the user to check the broker (lomi-control"
            + " ledger status) before calling again"),
    INVALID_ARGUMENT("an argument is not valid for this tool; correct it as the tool's input schema describes and"
            + " call again"),
    PAYLOAD_TOO_LARGE("the call or its answer is too large; send less (a smaller range or page) and call again"),
    APP_CLOSING("the broker is shutting down; wait for it to restart and call again");

    private final String nextStep;

    ErrorCode(String nextStep) {
        this.nextStep = nextStep;
    }

    /** A generic one-sentence account of the code and what to do next; no site names what was wrong with it. */
    public String nextStep() {
        return nextStep;
    }
}
